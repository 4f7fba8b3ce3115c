/* xlate-ct: see xlate-ct.h. */
#include <config.h>
#include "xlate-ct.h"

#include <linux/openvswitch.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include "netlink.h"
#include "ofp-actions.h"
#include "ofpbuf.h"
#include "util.h"

static bool
is_all_zeros(const void *p_, size_t n)
{
    const uint8_t *p = p_;
    for (size_t i = 0; i < n; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
}

static void
put_nat(struct ofpbuf *odp, const struct ofpact_nat *nat)
{
    size_t ofs = nl_msg_start_nested(odp, OVS_CT_ATTR_NAT);
    /* A plain "nat" (neither src nor dst) only applies what the
     * connection was committed with: an empty nest says so. */
    if (nat->flags & (NX_NAT_F_SRC | NX_NAT_F_DST)) {
        nl_msg_put_flag(odp, nat->flags & NX_NAT_F_SRC
                        ? OVS_NAT_ATTR_SRC : OVS_NAT_ATTR_DST);
        if (nat->flags & NX_NAT_F_PERSISTENT) {
            nl_msg_put_flag(odp, OVS_NAT_ATTR_PERSISTENT);
        }
        if (nat->flags & NX_NAT_F_PROTO_HASH) {
            nl_msg_put_flag(odp, OVS_NAT_ATTR_PROTO_HASH);
        } else if (nat->flags & NX_NAT_F_PROTO_RANDOM) {
            nl_msg_put_flag(odp, OVS_NAT_ATTR_PROTO_RANDOM);
        }
        if (nat->range_af == AF_INET) {
            ovs_be32 min = nat->range_addr.ipv4.min;
            ovs_be32 max = nat->range_addr.ipv4.max;
            nl_msg_put_unspec(odp, OVS_NAT_ATTR_IP_MIN, &min, sizeof min);
            if (ntohl(max) > ntohl(min)) {
                nl_msg_put_unspec(odp, OVS_NAT_ATTR_IP_MAX, &max,
                                  sizeof max);
            }
        } else if (nat->range_af == AF_INET6) {
            const struct in6_addr *min = &nat->range_addr.ipv6.min;
            const struct in6_addr *max = &nat->range_addr.ipv6.max;
            nl_msg_put_unspec(odp, OVS_NAT_ATTR_IP_MIN, min, sizeof *min);
            if (memcmp(max, min, sizeof *max) > 0) {
                nl_msg_put_unspec(odp, OVS_NAT_ATTR_IP_MAX, max,
                                  sizeof *max);
            }
        }
        /* Ports only come with an address range (the text's syntax). */
        if (nat->range_af != AF_UNSPEC && nat->proto_min) {
            nl_msg_put_u16(odp, OVS_NAT_ATTR_PROTO_MIN, nat->proto_min);
            if (nat->proto_max > nat->proto_min) {
                nl_msg_put_u16(odp, OVS_NAT_ATTR_PROTO_MAX, nat->proto_max);
            }
        }
    }
    nl_msg_end_nested(odp, ofs);
}

void
xlate_ct_put(struct ofpbuf *odp, const struct xlate_ct_action *ct)
{
    size_t ofs = nl_msg_start_nested(odp, OVS_ACTION_ATTR_CT);
    if (ct->commit) {
        nl_msg_put_flag(odp, ct->force ? OVS_CT_ATTR_FORCE_COMMIT
                                       : OVS_CT_ATTR_COMMIT);
        if (ct->timeout_policy) {
            nl_msg_put_unspec(odp, OVS_CT_ATTR_TIMEOUT, ct->timeout_policy,
                              strlen(ct->timeout_policy) + 1);
        }
    }
    nl_msg_put_u16(odp, OVS_CT_ATTR_ZONE, ct->zone);
    if (ct->mark_mask) {
        uint32_t mark[2] = { ct->mark & ct->mark_mask, ct->mark_mask };
        nl_msg_put_unspec(odp, OVS_CT_ATTR_MARK, mark, sizeof mark);
    }
    if (!is_all_zeros(ct->label_mask, sizeof ct->label_mask)) {
        uint8_t label[32];
        for (size_t i = 0; i < 16; i++) {
            label[i] = ct->label[i] & ct->label_mask[i];
            label[16 + i] = ct->label_mask[i];
        }
        nl_msg_put_unspec(odp, OVS_CT_ATTR_LABELS, label, sizeof label);
    }
    if (ct->alg == IPPORT_FTP || ct->alg == IPPORT_TFTP) {
        const char *helper = ct->alg == IPPORT_FTP ? "ftp" : "tftp";
        nl_msg_put_unspec(odp, OVS_CT_ATTR_HELPER, helper,
                          strlen(helper) + 1);
    }
    if (ct->nat) {
        put_nat(odp, ct->nat);
    }
    nl_msg_end_nested(odp, ofs);
}
