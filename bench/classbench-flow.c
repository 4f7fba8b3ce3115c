#include <config.h>
#include "classbench-flow.h"
#include "classbench-harness.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

void
cb_packet_to_flow(const struct cb_packet *p, struct flow *flow)
{
    memset(flow, 0, sizeof *flow);
    CB_FLOW_FROM_PACKET(flow, p);
}

struct cb_cls_rule *
cb_cls_rules_insert(struct classifier *cls, const struct cb_rule *rules,
                    size_t n, size_t *n_entries)
{
    struct cb_cls_rule *entries = NULL;
    size_t n_out = 0, allocated = 0;
    struct cb_match *matches = xmalloc(CB_MAX_MATCHES * sizeof *matches);
    classifier_defer(cls);
    for (size_t i = 0; i < n; i++) {
        size_t n_matches = cb_rule_expand(&rules[i], matches);
        for (size_t j = 0; j < n_matches; j++) {
            const struct cb_match *cm = &matches[j];
            struct flow flow;
            struct flow_wildcards wc;
            memset(&flow, 0, sizeof flow);
            flow_wildcards_init_catchall(&wc);
            flow.dl_type = htons(0x0800);
            WC_MASK_FIELD(&wc, dl_type);
            flow.nw_src = htonl(cm->src);
            wc.masks.nw_src = htonl(cm->src_mask);
            flow.nw_dst = htonl(cm->dst);
            wc.masks.nw_dst = htonl(cm->dst_mask);
            flow.nw_proto = cm->proto;
            wc.masks.nw_proto = cm->proto_mask;
            flow.tp_src = htons(cm->sport);
            wc.masks.tp_src = htons(cm->sport_mask);
            flow.tp_dst = htons(cm->dport);
            wc.masks.tp_dst = htons(cm->dport_mask);
            if (n_out >= allocated) {
                entries = x2nrealloc(entries, &allocated, sizeof *entries);
            }
            entries[n_out].index = i;
            cls_rule_init(&entries[n_out].cr, &flow, &wc, (int) (n - i));
            n_out++;
        }
    }
    free(matches);
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
