/* The ClassBench harness against Open vSwitch 3.1's classifier, for
 * bench/classbench.sh --peer only.  The script compiles this file, with
 * classbench-harness.c and classbench-load.c, in a scratch directory
 * against a build of Open vSwitch's library made there; nothing of it is
 * part of our build.  It maps ClassBench rules onto Open vSwitch matches
 * exactly as classbench-flow.c maps them onto ours, and looks up the same
 * way, so the two figures compare the classifiers alone. */
#include <config.h>

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include "classbench-harness.h"
#include "classifier.h"
#include "flow.h"
#include "openvswitch/match.h"
#include "openvswitch/util.h"
#include "ovs-rcu.h"
#include "versions.h"

struct ovs_cb_rule {
    struct cls_rule cr;
    int32_t index;
};

struct ovs_bench {
    struct classifier cls;
    struct ovs_cb_rule *entries;
    size_t n_entries;
    struct flow flow;
};

static void *
build(const struct cb_rule *rules, size_t n, int tries, size_t *n_entries,
      size_t *n_subtables)
{
    struct ovs_bench *b = calloc(1, sizeof *b);
    /* The stage boundaries ofproto gives its tables. */
    classifier_init(&b->cls, flow_segment_u64s);
    static const enum mf_field_id trie_fields[] = { MFF_IPV4_DST,
                                                    MFF_IPV4_SRC };
    classifier_set_prefix_fields(&b->cls, trie_fields, tries ? 2 : 0);

    struct cb_match *matches = malloc(CB_MAX_MATCHES * sizeof *matches);
    size_t n_out = 0, allocated = 0;
    for (size_t i = 0; i < n; i++) {
        size_t n_matches = cb_rule_expand(&rules[i], matches);
        for (size_t j = 0; j < n_matches; j++) {
            const struct cb_match *cm = &matches[j];
            if (n_out >= allocated) {
                allocated = allocated ? 2 * allocated : 1024;
                b->entries = realloc(b->entries,
                                     allocated * sizeof *b->entries);
            }
            struct match match;
            match_init_catchall(&match);
            match_set_dl_type(&match, htons(0x0800));
            match_set_nw_src_masked(&match, htonl(cm->src),
                                    htonl(cm->src_mask));
            match_set_nw_dst_masked(&match, htonl(cm->dst),
                                    htonl(cm->dst_mask));
            if (cm->proto_mask) {
                match_set_nw_proto(&match, cm->proto);
            }
            if (cm->sport_mask) {
                match_set_tp_src_masked(&match, htons(cm->sport),
                                        htons(cm->sport_mask));
            }
            if (cm->dport_mask) {
                match_set_tp_dst_masked(&match, htons(cm->dport),
                                        htons(cm->dport_mask));
            }
            b->entries[n_out].index = i;
            cls_rule_init(&b->entries[n_out].cr, &match, (int) (n - i));
            n_out++;
        }
    }
    free(matches);
    classifier_defer(&b->cls);
    for (size_t i = 0; i < n_out; i++) {
        classifier_insert(&b->cls, &b->entries[i].cr, OVS_VERSION_MIN,
                          NULL, 0);
    }
    classifier_publish(&b->cls);
    b->n_entries = n_out;
    *n_entries = n_out;
    *n_subtables = b->cls.n_rules ? cmap_count(&b->cls.subtables_map) : 0;
    memset(&b->flow, 0, sizeof b->flow);
    return b;
}

static int32_t
lookup(void *b_, const struct cb_packet *p, void *wc_)
{
    struct ovs_bench *b = b_;
    struct flow_wildcards *wc = wc_;
    CB_FLOW_FROM_PACKET(&b->flow, p);
    flow_wildcards_init_catchall(wc);
    const struct cls_rule *r = classifier_lookup(&b->cls, OVS_VERSION_MAX,
                                                 &b->flow, wc);
    return r ? CONTAINER_OF(r, struct ovs_cb_rule, cr)->index : -1;
}

static void
free_bench(struct ovs_bench *b)
{
    for (size_t i = 0; i < b->n_entries; i++) {
        cls_rule_destroy(&b->entries[i].cr);
    }
    free(b->entries);
    free(b);
}

static void
destroy(void *b_)
{
    struct ovs_bench *b = b_;
    for (size_t i = 0; i < b->n_entries; i++) {
        classifier_remove_assert(&b->cls, &b->entries[i].cr);
    }
    classifier_destroy(&b->cls);
    ovsrcu_postpone(free_bench, b);
    ovsrcu_quiesce();
}

int
main(int argc, char *argv[])
{
    static const struct cb_classifier_ops ops = {
        .impl = "ovs",
        .wc_size = sizeof(struct flow_wildcards),
        .build = build,
        .lookup = lookup,
        .destroy = destroy,
    };
    return cb_harness_main(&ops, argc, argv);
}
