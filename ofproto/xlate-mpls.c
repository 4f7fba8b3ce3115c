/* xlate-mpls: see xlate-mpls.h. */
#include <config.h>
#include "xlate-mpls.h"

#include <linux/openvswitch.h>
#include "flow.h"
#include "mpls.h"
#include "netlink.h"
#include "util.h"

/* How many entries at the bottom of A's and B's stacks (N_A and N_B deep)
 * are the same. */
static int
common_bottom(const struct flow *a, int n_a, const struct flow *b, int n_b)
{
    int n = 0;
    while (n < n_a && n < n_b
           && a->mpls_lse[n_a - 1 - n] == b->mpls_lse[n_b - 1 - n]) {
        n++;
    }
    return n;
}

void
xlate_mpls_commit(const struct flow *flow, struct flow *base,
                  struct ofpbuf *odp)
{
    int flow_n = flow_mpls_depth(flow, NULL);
    int base_n = flow_mpls_depth(base, NULL);
    int common = common_bottom(flow, flow_n, base, base_n);

    while (base_n > common) {
        if (base_n == common + 1 && flow_n > common) {
            /* One entry to replace by one: rewrite it in place. */
            struct ovs_key_mpls key = {
                .mpls_lse = flow->mpls_lse[flow_n - base_n],
            };
            size_t ofs = nl_msg_start_nested(odp, OVS_ACTION_ATTR_SET);
            nl_msg_put_unspec(odp, OVS_KEY_ATTR_MPLS, &key, sizeof key);
            nl_msg_end_nested(odp, ofs);
            base->mpls_lse[0] = key.mpls_lse;
            common++;
        } else {
            ovs_be16 type = (!eth_type_mpls(flow->dl_type) && base_n > 1
                             ? htons(ETH_TYPE_MPLS) : flow->dl_type);
            nl_msg_put_be16(odp, OVS_ACTION_ATTR_POP_MPLS, type);
            flow_mpls_pop(base, type, NULL);
            base_n--;
        }
    }
    while (base_n < flow_n) {
        struct ovs_action_push_mpls push = {
            .mpls_lse = flow->mpls_lse[flow_n - base_n - 1],
            .mpls_ethertype = flow->dl_type,
        };
        nl_msg_put_unspec(odp, OVS_ACTION_ATTR_PUSH_MPLS, &push,
                          sizeof push);
        flow_mpls_push(base, flow->dl_type, NULL, false);
        base->mpls_lse[0] = push.mpls_lse;
        base_n++;
    }
}
