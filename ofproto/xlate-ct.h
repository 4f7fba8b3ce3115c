/* xlate-ct: the datapath ct() action an OpenFlow ct() translates to.
 *
 * Translation of ct(...) (xlate.c) commits the packet's pending changes,
 * runs the nested exec(...) actions against the flow (they may only set
 * ct_mark and ct_label), and then composes one datapath ct action from
 * what it gathered: commit or force_commit, the zone, the mark and label
 * the nested actions set (value and the bits they set), the helper and
 * the NAT.  This module is that last step (struct odp_ct_action of
 * odp-util.h, which says how the datapath takes it).
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
