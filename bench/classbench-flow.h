/* classbench-flow: ClassBench rules and headers as our flow keys, the way
 * an OpenFlow table would hold them: dl_type=0x0800, nw_src and nw_dst
 * prefixes, nw_proto when the rule names one, tp_src and tp_dst prefixes
 * from each rule's expanded port ranges.  Used by bench/classbench and the
 * classifier's unit suites. */
#ifndef CLASSBENCH_FLOW_H
#define CLASSBENCH_FLOW_H 1

#include "classbench-load.h"
#include "classifier.h"

/* A ClassBench rule's share of a classifier: one cls_rule per pair of
 * port prefixes. */
struct cb_cls_rule {
    struct cls_rule cr;
    int32_t index;              /* Line of the rule, 0-based. */
};

void cb_packet_to_flow(const struct cb_packet *, struct flow *);

/* Inserts every rule of RULES into CLS at OVS_VERSION_MIN, priority
 * N - index, and returns the array of classifier rules (*N_ENTRIES of
 * them).  cb_cls_rules_destroy() removes and frees them. */
struct cb_cls_rule *cb_cls_rules_insert(struct classifier *,
                                        const struct cb_rule *, size_t n,
                                        size_t *n_entries);
void cb_cls_rules_destroy(struct classifier *, struct cb_cls_rule *,
                          size_t n_entries);

#endif /* classbench-flow.h */
