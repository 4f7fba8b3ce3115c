#include "classbench-harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double
now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A set of distinct masks: open addressing over copies of the bytes. */
struct mask_set {
    size_t n, mask, wc_size;
    uint64_t *hashes;
    unsigned char **masks;
};

static uint64_t
hash_bytes64(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 0x100000001b3ULL;
    }
    return h | 1;
}

static void
mask_set_init(struct mask_set *s, size_t wc_size)
{
    s->n = 0;
    s->mask = 1023;
    s->wc_size = wc_size;
    s->hashes = calloc(s->mask + 1, sizeof *s->hashes);
    s->masks = calloc(s->mask + 1, sizeof *s->masks);
}

static void
mask_set_add(struct mask_set *s, const unsigned char *wc)
{
    uint64_t h = hash_bytes64(wc, s->wc_size);
    size_t i = h & s->mask;
    for (; s->hashes[i]; i = (i + 1) & s->mask) {
        if (s->hashes[i] == h && !memcmp(s->masks[i], wc, s->wc_size)) {
            return;
        }
    }
    s->hashes[i] = h;
    s->masks[i] = malloc(s->wc_size);
    memcpy(s->masks[i], wc, s->wc_size);
    if (++s->n * 2 > s->mask) {
        struct mask_set bigger = *s;
        bigger.mask = s->mask * 2 + 1;
        bigger.hashes = calloc(bigger.mask + 1, sizeof *bigger.hashes);
        bigger.masks = calloc(bigger.mask + 1, sizeof *bigger.masks);
        for (size_t j = 0; j <= s->mask; j++) {
            if (s->hashes[j]) {
                size_t k = s->hashes[j] & bigger.mask;
                while (bigger.hashes[k]) {
                    k = (k + 1) & bigger.mask;
                }
                bigger.hashes[k] = s->hashes[j];
                bigger.masks[k] = s->masks[j];
            }
        }
        free(s->hashes);
        free(s->masks);
        *s = bigger;
    }
}

static void
mask_set_destroy(struct mask_set *s)
{
    for (size_t i = 0; i <= s->mask; i++) {
        free(s->masks[i]);
    }
    free(s->hashes);
    free(s->masks);
}

static char *
sibling(const char *rules_path, const char *suffix)
{
    size_t len = strlen(rules_path);
    size_t base = len;
    if (len > 6 && !strcmp(rules_path + len - 6, ".rules")) {
        base = len - 6;
    }
    char *s = malloc(base + strlen(suffix) + 1);
    memcpy(s, rules_path, base);
    strcpy(s + base, suffix);
    return s;
}

static const char *
set_name(const char *rules_path)
{
    const char *slash = strrchr(rules_path, '/');
    return slash ? slash + 1 : rules_path;
}

/* One set, one trie setting.  Returns the number of wrong answers, or -1
 * if it could not run. */
static long
run_one(const struct cb_classifier_ops *ops, const char *name,
        const struct cb_rule *rules, size_t n_rules,
        const struct cb_packet *packets, size_t n_packets, int tries,
        double seconds)
{
    size_t n_entries = 0, n_subtables = 0;
    void *cls = ops->build(rules, n_rules, tries, &n_entries, &n_subtables);
    if (!cls) {
        return -1;
    }
    unsigned char *wc = malloc(ops->wc_size);
    struct mask_set masks;
    mask_set_init(&masks, ops->wc_size);
    long errors = 0;
    for (size_t i = 0; i < n_packets; i++) {
        int32_t got = ops->lookup(cls, &packets[i], wc);
        if (got != packets[i].expected) {
            if (errors++ < 5) {
                fprintf(stderr, "%s: %s, tries %s: header %zu: rule %d, "
                        "expected %d\n", name, ops->impl,
                        tries ? "on" : "off", i + 1, got,
                        packets[i].expected);
            }
        }
        mask_set_add(&masks, wc);
    }

    /* Whole passes over the trace until the time is up.  The machine is
     * shared, so besides the mean the best pass is reported: the rate
     * least disturbed by other work, for both classifiers alike. */
    size_t n_lookups = 0;
    double start = now_sec(), elapsed, best = 0;
    do {
        double pass_start = now_sec();
        for (size_t i = 0; i < n_packets; i++) {
            errors += ops->lookup(cls, &packets[i], wc) != packets[i].expected;
        }
        double pass = now_sec() - pass_start;
        if (pass > 0 && n_packets / pass > best) {
            best = n_packets / pass;
        }
        n_lookups += n_packets;
        elapsed = now_sec() - start;
    } while (elapsed < seconds);

    printf("set=%s impl=%s tries=%s rules=%zu entries=%zu subtables=%zu "
           "lookups_per_sec=%.0f mean_lookups_per_sec=%.0f masks=%zu "
           "errors=%ld\n",
           name, ops->impl, tries ? "on" : "off", n_rules, n_entries,
           n_subtables, best, n_lookups / elapsed, masks.n, errors);
    fflush(stdout);
    mask_set_destroy(&masks);
    free(wc);
    ops->destroy(cls);
    return errors;
}

int
cb_harness_main(const struct cb_classifier_ops *ops, int argc, char *argv[])
{
    double seconds = 1.0;
    int tries_from = 0, tries_to = 1;
    int status = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strncmp(arg, "--seconds=", 10)) {
            seconds = atof(arg + 10);
            continue;
        } else if (!strcmp(arg, "--tries=on")) {
            tries_from = tries_to = 1;
            continue;
        } else if (!strcmp(arg, "--tries=off")) {
            tries_from = tries_to = 0;
            continue;
        } else if (!strcmp(arg, "--tries=both")) {
            tries_from = 0, tries_to = 1;
            continue;
        } else if (arg[0] == '-') {
            fprintf(stderr, "unknown option %s\n", arg);
            return 2;
        }

        char *trace = sibling(arg, ".trace");
        char *expected = sibling(arg, ".expected");
        char *name = sibling(set_name(arg), "");
        struct cb_rule *rules = NULL;
        struct cb_packet *packets = NULL;
        size_t n_rules, n_packets;
        char *error = cb_load_rules(arg, &rules, &n_rules);
        if (!error) {
            error = cb_load_trace(trace, expected, &packets, &n_packets);
        }
        if (error) {
            fprintf(stderr, "%s\n", error);
            free(error);
            status = 1;
        } else {
            for (int t = tries_from; t <= tries_to; t++) {
                long errors = run_one(ops, name, rules, n_rules, packets,
                                      n_packets, t, seconds);
                if (errors) {
                    fprintf(stderr, "%s: %s, tries %s: %s\n", name, ops->impl,
                            t ? "on" : "off",
                            errors < 0 ? "could not run"
                            : "WRONG ANSWERS (see above)");
                    status = 1;
                }
            }
        }
        free(rules);
        free(packets);
        free(trace);
        free(expected);
        free(name);
    }
    return status;
}
