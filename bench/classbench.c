/* bench/classbench: ClassBench replay through our classifier (see
 * classbench-harness.h for what it measures and prints). */
#include <config.h>

#include <arpa/inet.h>
#include <stdlib.h>
#include "classbench-flow.h"
#include "classbench-harness.h"
#include "classifier.h"
#include "ovs-rcu.h"
#include "util.h"

struct bench_cls {
    struct classifier cls;
    struct cb_cls_rule *entries;
    size_t n_entries;
    struct flow flow;
};

static void *
build(const struct cb_rule *rules, size_t n, int tries, size_t *n_entries,
      size_t *n_subtables)
{
    struct bench_cls *b = xzalloc(sizeof *b);
    classifier_init(&b->cls);
    if (!tries) {
        classifier_set_prefix_fields(&b->cls, NULL, 0);
    }
    b->entries = cb_cls_rules_insert(&b->cls, rules, n, &b->n_entries);
    *n_entries = b->n_entries;
    *n_subtables = classifier_n_subtables(&b->cls);
    ovsrcu_quiesce();
    return b;
}

static int32_t
lookup(void *b_, const struct cb_packet *p, void *wc_)
{
    struct bench_cls *b = b_;
    struct flow_wildcards *wc = wc_;
    CB_FLOW_FROM_PACKET(&b->flow, p);
    flow_wildcards_init_catchall(wc);
    const struct cls_rule *r = classifier_lookup(&b->cls, OVS_VERSION_MAX,
                                                 &b->flow, wc);
    return r ? CONTAINER_OF(r, struct cb_cls_rule, cr)->index : -1;
}

static void
destroy(void *b_)
{
    struct bench_cls *b = b_;
    cb_cls_rules_destroy(&b->cls, b->entries, b->n_entries);
    classifier_destroy(&b->cls);
    ovsrcu_synchronize();
    free(b);
}

int
main(int argc, char *argv[])
{
    static const struct cb_classifier_ops ops = {
        .impl = "ours",
        .wc_size = sizeof(struct flow_wildcards),
        .build = build,
        .lookup = lookup,
        .destroy = destroy,
    };
    return cb_harness_main(&ops, argc, argv);
}
