/* classbench-harness: the ClassBench replay shared by our classifier's
 * benchmark (bench/classbench.c) and the one bench/classbench.sh builds
 * against Open vSwitch's classifier (bench/classbench-ovs.c), so that both
 * do exactly the same work around their lookups.
 *
 * For each rule set and each trie setting the harness builds a classifier
 * through the ops, replays the trace once to check every answer against
 * NAME.expected and count the distinct wildcard masks, then replays it
 * again and again for at least the requested time and prints one line:
 *
 *   set=NAME impl=IMPL tries=on|off rules=N entries=N subtables=N
 *   lookups_per_sec=N mean_lookups_per_sec=N masks=N errors=N
 *
 * where lookups_per_sec is the rate of the fastest whole pass over the
 * trace (the one least disturbed by other work on a shared machine) and
 * mean_lookups_per_sec the rate over all of them.
 *
 * Plain C and the C library only; it never sees either classifier's
 * types. */
#ifndef CLASSBENCH_HARNESS_H
#define CLASSBENCH_HARNESS_H 1

#include <stddef.h>
#include <stdint.h>
#include "classbench-load.h"

/* Sets FLOW's fields from the ClassBench header P.  A macro, so that it
 * serves our struct flow and Open vSwitch's alike (the names are the
 * same); FLOW's other fields are left as they are. */
#define CB_FLOW_FROM_PACKET(FLOW, P)                                    \
    ((FLOW)->dl_type = htons(0x0800),                                   \
     (FLOW)->nw_src = htonl((P)->src),                                  \
     (FLOW)->nw_dst = htonl((P)->dst),                                  \
     (FLOW)->nw_proto = (P)->proto,                                     \
     (FLOW)->tp_src = htons((P)->sport),                                \
     (FLOW)->tp_dst = htons((P)->dport))

struct cb_classifier_ops {
    const char *impl;           /* "ours" or "ovs". */
    size_t wc_size;             /* Bytes of the mask lookup() fills. */
    /* Builds a classifier of RULES (line order = priority), with prefix
     * tries on nw_dst and nw_src if TRIES, and says how many classifier
     * rules and subtables that took. */
    void *(*build)(const struct cb_rule *rules, size_t n, int tries,
                   size_t *n_entries, size_t *n_subtables);
    /* Looks P up with wildcard tracking; returns the rule index or -1 and
     * leaves the wildcard mask in WC (WC_SIZE bytes). */
    int32_t (*lookup)(void *cls, const struct cb_packet *p, void *wc);
    void (*destroy)(void *cls);
};

/* Runs every rule set named in argv[] (paths to NAME.rules) with the
 * options there (--seconds=S, --tries=on|off|both).  Returns the exit
 * status: nonzero if any answer was wrong or a file could not be read. */
int cb_harness_main(const struct cb_classifier_ops *, int argc, char *argv[]);

#endif /* classbench-harness.h */
