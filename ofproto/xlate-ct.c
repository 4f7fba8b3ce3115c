/* xlate-ct: see xlate-ct.h. */
#include <config.h>
#include "xlate-ct.h"

#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include "conntrack.h"
#include "odp-util.h"
#include "ofp-actions.h"
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

/* nat(...) as the datapath takes it.  A plain "nat" (neither src nor dst)
 * only applies what the connection was committed with. */
static void
put_nat(struct odp_ct_action *odp, const struct ofpact_nat *nat)
{
    odp->has_nat = true;
    if (!(nat->flags & (NX_NAT_F_SRC | NX_NAT_F_DST))) {
        return;
    }
    odp->nat_flags = ((nat->flags & NX_NAT_F_SRC ? CT_NAT_SRC : CT_NAT_DST)
                      | (nat->flags & NX_NAT_F_PERSISTENT
                         ? CT_NAT_PERSISTENT : 0)
                      | (nat->flags & NX_NAT_F_PROTO_HASH
                         ? CT_NAT_PROTO_HASH
                         : nat->flags & NX_NAT_F_PROTO_RANDOM
                         ? CT_NAT_PROTO_RANDOM : 0));
    if (nat->range_af == AF_INET) {
        odp->nat_addr_len = 4;
        memcpy(odp->nat_min_addr, &nat->range_addr.ipv4.min, 4);
        memcpy(odp->nat_max_addr, &nat->range_addr.ipv4.max, 4);
    } else if (nat->range_af == AF_INET6) {
        odp->nat_addr_len = 16;
        memcpy(odp->nat_min_addr, &nat->range_addr.ipv6.min, 16);
        memcpy(odp->nat_max_addr, &nat->range_addr.ipv6.max, 16);
    }
    /* Ports only come with an address range (the text's syntax). */
    if (odp->nat_addr_len) {
        odp->nat_min_port = nat->proto_min;
        odp->nat_max_port = nat->proto_max;
    }
}

void
xlate_ct_put(struct ofpbuf *odp_actions, const struct xlate_ct_action *ct)
{
    struct odp_ct_action odp;
    memset(&odp, 0, sizeof odp);
    odp.commit = ct->commit && !ct->force;
    odp.force_commit = ct->commit && ct->force;
    odp.zone = ct->zone;
    if (ct->mark_mask) {
        odp.has_mark = true;
        odp.mark_value = ct->mark & ct->mark_mask;
        odp.mark_mask = ct->mark_mask;
    }
    if (!is_all_zeros(ct->label_mask, sizeof ct->label_mask)) {
        odp.has_label = true;
        for (size_t i = 0; i < sizeof odp.label_value; i++) {
            odp.label_value[i] = ct->label[i] & ct->label_mask[i];
        }
        memcpy(odp.label_mask, ct->label_mask, sizeof odp.label_mask);
    }
    if (ct->alg == IPPORT_FTP || ct->alg == IPPORT_TFTP) {
        snprintf(odp.helper, sizeof odp.helper, "%s",
                 ct->alg == IPPORT_FTP ? "ftp" : "tftp");
    }
    if (ct->commit && ct->timeout_policy) {
        snprintf(odp.timeout, sizeof odp.timeout, "%s", ct->timeout_policy);
    }
    if (ct->nat) {
        put_nat(&odp, ct->nat);
    }
    odp_put_ct_action(odp_actions, &odp);
}
