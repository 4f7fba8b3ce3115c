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
 *   lookups_per_sec=N masks=N errors=N
 *
 * Plain C and the C library only; it never sees either classifier's
 * types. */
#ifndef CLASSBENCH_HARNESS_H
#define CLASSBENCH_HARNESS_H 1

#include <stddef.h>
#include <stdint.h>
#include "classbench-load.h"

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
