/* mpls: see mpls.h. */
#include <config.h>
#include "mpls.h"

#include <string.h>

int
flow_mpls_depth(const struct flow *flow, struct flow_wildcards *wc)
{
    if (wc) {
        WC_MASK_FIELD(wc, dl_type);
    }
    if (!eth_type_mpls(flow->dl_type)) {
        return 0;
    }
    for (int i = 0; i < FLOW_MAX_MPLS_LABELS; i++) {
        if (wc) {
            wc->masks.mpls_lse[i] |= htonl(MPLS_BOS_MASK);
        }
        if (mpls_lse_bos(flow->mpls_lse[i])) {
            return i + 1;
        }
    }
    return FLOW_MAX_MPLS_LABELS;
}

/* The first entry of a new stack over FLOW's L3 packet. */
static ovs_be32
first_lse(const struct flow *flow, struct flow_wildcards *wc)
{
    bool ip4 = flow->dl_type == htons(ETH_TYPE_IP);
    bool ip6 = flow->dl_type == htons(ETH_TYPE_IPV6);
    uint8_t tc = 0, ttl = 64;

    if (ip4 || ip6) {
        if (wc) {
            wc->masks.nw_tos |= 0xfc;
            WC_MASK_FIELD(wc, nw_ttl);
        }
        tc = flow->nw_tos >> 2;
        if (flow->nw_ttl) {
            ttl = flow->nw_ttl;
        }
    }
    return mpls_lse_build(ip6 ? 2 : 0, tc, true, ttl);
}

bool
flow_mpls_push(struct flow *flow, ovs_be16 mpls_eth_type,
               struct flow_wildcards *wc, bool clear_upper)
{
    int n = flow_mpls_depth(flow, wc);
    if (n >= FLOW_MAX_MPLS_LABELS) {
        return false;
    }

    if (n) {
        /* The new entry copies the old top: every entry moves down. */
        if (wc) {
            memset(wc->masks.mpls_lse, 0xff, n * sizeof *wc->masks.mpls_lse);
        }
        memmove(&flow->mpls_lse[1], &flow->mpls_lse[0],
                n * sizeof flow->mpls_lse[0]);
        flow->mpls_lse[0] &= ~htonl(MPLS_BOS_MASK);
    } else {
        flow->mpls_lse[0] = first_lse(flow, wc);
        if (clear_upper) {
            memset((uint8_t *) flow + offsetof(struct flow, ipv6_src), 0,
                   sizeof *flow - offsetof(struct flow, ipv6_src));
            flow->dp_hash = 0;
        }
    }
    flow->dl_type = mpls_eth_type;
    return true;
}

bool
flow_mpls_pop(struct flow *flow, ovs_be16 eth_type,
              struct flow_wildcards *wc)
{
    int n = flow_mpls_depth(flow, wc);
    if (!n) {
        return true;
    }
    if (n == FLOW_MAX_MPLS_LABELS
        && !mpls_lse_bos(flow->mpls_lse[n - 1])) {
        return false;
    }
    if (wc) {
        memset(&wc->masks.mpls_lse[1], 0xff,
               (FLOW_MAX_MPLS_LABELS - 1) * sizeof *wc->masks.mpls_lse);
    }
    memmove(&flow->mpls_lse[0], &flow->mpls_lse[1],
            (n - 1) * sizeof flow->mpls_lse[0]);
    flow->mpls_lse[n - 1] = 0;
    flow->dl_type = eth_type;
    return true;
}
