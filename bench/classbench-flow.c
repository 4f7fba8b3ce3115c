#include <config.h>
#include "classbench-flow.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

void
cb_packet_to_flow(const struct cb_packet *p, struct flow *flow)
{
    memset(flow, 0, sizeof *flow);
    flow->dl_type = htons(0x0800);
    flow->nw_src = htonl(p->src);
    flow->nw_dst = htonl(p->dst);
    flow->nw_proto = p->proto;
    flow->tp_src = htons(p->sport);
    flow->tp_dst = htons(p->dport);
}

static uint32_t
prefix_mask32(unsigned int len)
{
    return len ? UINT32_MAX << (32 - len) : 0;
}

static uint16_t
prefix_mask16(unsigned int len)
{
    return len ? (uint16_t) (0xffff << (16 - len)) : 0;
}

struct cb_cls_rule *
cb_cls_rules_insert(struct classifier *cls, const struct cb_rule *rules,
                    size_t n, size_t *n_entries)
{
    struct cb_cls_rule *entries = NULL;
    size_t n_out = 0, allocated = 0;
    classifier_defer(cls);
    for (size_t i = 0; i < n; i++) {
        const struct cb_rule *r = &rules[i];
        struct cb_port_prefix sp[32], dp[32];
        size_t n_sp = cb_range_to_prefixes(r->sport_lo, r->sport_hi, sp);
        size_t n_dp = cb_range_to_prefixes(r->dport_lo, r->dport_hi, dp);
        for (size_t a = 0; a < n_sp; a++) {
            for (size_t b = 0; b < n_dp; b++) {
                struct flow flow;
                struct flow_wildcards wc;
                memset(&flow, 0, sizeof flow);
                flow_wildcards_init_catchall(&wc);
                flow.dl_type = htons(0x0800);
                WC_MASK_FIELD(&wc, dl_type);
                flow.nw_src = htonl(r->src);
                wc.masks.nw_src = htonl(prefix_mask32(r->src_len));
                flow.nw_dst = htonl(r->dst);
                wc.masks.nw_dst = htonl(prefix_mask32(r->dst_len));
                flow.nw_proto = r->proto;
                wc.masks.nw_proto = r->proto_mask;
                flow.tp_src = htons(sp[a].value);
                wc.masks.tp_src = htons(prefix_mask16(sp[a].len));
                flow.tp_dst = htons(dp[b].value);
                wc.masks.tp_dst = htons(prefix_mask16(dp[b].len));
                if (n_out >= allocated) {
                    entries = x2nrealloc(entries, &allocated, sizeof *entries);
                }
                entries[n_out].index = i;
                cls_rule_init(&entries[n_out].cr, &flow, &wc, (int) (n - i));
                n_out++;
            }
        }
    }
    /* Insert only now: the array no longer moves. */
    for (size_t i = 0; i < n_out; i++) {
        classifier_insert(cls, &entries[i].cr, OVS_VERSION_MIN);
    }
    classifier_publish(cls);
    *n_entries = n_out;
    return entries;
}

void
cb_cls_rules_destroy(struct classifier *cls, struct cb_cls_rule *entries,
                     size_t n_entries)
{
    for (size_t i = 0; i < n_entries; i++) {
        classifier_remove(cls, &entries[i].cr);
        cls_rule_destroy(&entries[i].cr);
    }
    free(entries);
}
