/* xlate-ct: the datapath ct() action an OpenFlow ct() translates to.
 *
 * Translation of ct(...) (xlate.c) commits the packet's pending changes,
 * runs the nested exec(...) actions against the flow (they may only set
 * ct_mark and ct_label), and then composes one datapath ct action from
 * what it gathered: commit or force_commit, the zone, the mark and label
 * the nested actions set (value and the bits they set), the helper and
 * the NAT.  This module is that last step: a pure function over the
 * caller's values, so the attribute layout lives in one place.
 *
 * Layout, as the userspace datapath reads it (dpif-netdev.c):
 *   OVS_CT_ATTR_COMMIT or OVS_CT_ATTR_FORCE_COMMIT   flag
 *   OVS_CT_ATTR_ZONE      u16
 *   OVS_CT_ATTR_MARK      u32 value, u32 mask (host order)
 *   OVS_CT_ATTR_LABELS    16 bytes value, 16 bytes mask (network order,
 *                         as struct flow's ct_label)
 *   OVS_CT_ATTR_HELPER    "ftp" or "tftp"
 *   OVS_CT_ATTR_TIMEOUT   the zone's timeout policy name
 *   OVS_CT_ATTR_NAT       nested OVS_NAT_ATTR_*: SRC or DST, then
 *                         PERSISTENT, PROTO_HASH or PROTO_RANDOM, IP_MIN,
 *                         IP_MAX (only if above IP_MIN), PROTO_MIN,
 *                         PROTO_MAX (only if above PROTO_MIN); empty for a
 *                         plain "nat".
 *
 * Threads: any. */
#ifndef OFPROTO_XLATE_CT_H
#define OFPROTO_XLATE_CT_H 1

#include <stdbool.h>
#include <stdint.h>

struct ofpact_nat;
struct ofpbuf;

struct xlate_ct_action {
    uint16_t zone;
    bool commit, force;
    uint32_t mark, mark_mask;       /* Mask 0: the mark is left alone. */
    uint8_t label[16], label_mask[16];  /* Mask all-zero: likewise. */
    uint16_t alg;                   /* 0, IPPORT_FTP or IPPORT_TFTP. */
    const char *timeout_policy;     /* NULL: the default timeouts. */
    const struct ofpact_nat *nat;   /* NULL: no nat. */
};

/* Appends the datapath ct action CT to ODP. */
void xlate_ct_put(struct ofpbuf *odp, const struct xlate_ct_action *ct);

#endif /* ofproto/xlate-ct.h */
