/* Unit tests for dpcls.h (the megaflow classifier) and emc.h (the
 * exact-match cache): lookups agree with a brute-force scan of the rules,
 * removal and re-insertion through tombstones and rebuilds, subtables
 * ranked by hits, and the cache's references and sweeping. */
#include <config.h>
#include "dpcls.h"
#include "emc.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "dp-epoch.h"
#include "util.h"

struct test_rule {
    struct dpcls_rule cr;
    struct flow_wildcards mask;
    struct flow match;              /* Already masked. */
    struct miniflow *mf;
    int id;
};

static void
rule_init(struct test_rule *r, int id, const struct flow *flow,
          const struct flow_wildcards *mask)
{
    r->id = id;
    r->mask = *mask;
    flow_apply_mask(&r->match, flow, mask);
    r->mf = miniflow_create_masked(flow, mask);
}

static struct flow_wildcards
mask_ip_dst(int prefix)
{
    struct flow_wildcards wc;
    flow_wildcards_init_catchall(&wc);
    WC_MASK_FIELD(&wc, dl_type);
    wc.masks.nw_dst = prefix ? htonl(~0u << (32 - prefix)) : 0;
    return wc;
}

static struct flow
ip_flow(uint32_t src, uint32_t dst)
{
    struct flow f;
    memset(&f, 0, sizeof f);
    f.dl_type = htons(0x0800);
    f.nw_src = htonl(src);
    f.nw_dst = htonl(dst);
    f.in_port = 1;
    return f;
}

/* The id of the rule that FLOW matches by brute force, or -1; the rules
 * used here never overlap. */
static int
brute_force(const struct test_rule *rules, size_t n, const struct flow *f)
{
    for (size_t i = 0; i < n; i++) {
        if (rules[i].cr.subtable
            && flow_equal_under_mask(f, &rules[i].match, &rules[i].mask)) {
            return rules[i].id;
        }
    }
    return -1;
}

static int
lookup_id(const struct dpcls *cls, const struct flow *f)
{
    const struct dpcls_rule *r = dpcls_lookup(cls, f, NULL);
    return r ? CONTAINER_OF(r, struct test_rule, cr)->id : -1;
}

START_TEST(test_lookup_matches_brute_force)
{
    enum { N = 600 };
    static struct test_rule rules[N];
    struct dpcls cls;
    dpcls_init(&cls);

    /* Three masks (/8, /16, /32 on nw_dst) over disjoint address ranges
     * (1-200/8, 250.x/16, 251.x.x.x/32), so no two rules overlap. */
    for (int i = 0; i < N; i++) {
        int prefix = i % 3 == 0 ? 8 : i % 3 == 1 ? 16 : 32;
        uint32_t base = prefix == 8 ? (uint32_t) (1 + i / 3) << 24
                      : prefix == 16 ? 0xfa000000u | (uint32_t) (i / 3) << 16
                      : 0xfb000000u | i;
        struct flow f = ip_flow(0, base);
        struct flow_wildcards wc = mask_ip_dst(prefix);
        rule_init(&rules[i], i, &f, &wc);
        ck_assert_ptr_null(dpcls_find(&cls, &wc, rules[i].mf));
        dpcls_insert(&cls, &rules[i].cr, &wc, rules[i].mf);
        ck_assert_ptr_eq(dpcls_find(&cls, &wc, rules[i].mf), &rules[i].cr);
    }
    ck_assert_uint_eq(dpcls_n_rules(&cls), N);
    ck_assert_uint_eq(dpcls_n_subtables(&cls), 3);

    srandom(7);
    for (int k = 0; k < 5000; k++) {
        const struct test_rule *r = &rules[random() % N];
        /* Either a packet inside a rule's range or a random one. */
        uint32_t dst = ntohl(r->match.nw_dst)
                       | (random() & ~ntohl(r->mask.masks.nw_dst));
        if (k % 4 == 0) {
            dst = random();
        }
        struct flow f = ip_flow(random(), dst);
        ck_assert_int_eq(lookup_id(&cls, &f), brute_force(rules, N, &f));
    }

    /* Remove two thirds (tombstones, rebuilds), check again, put back. */
    for (int i = 0; i < N; i++) {
        if (i % 3 != 2) {
            dpcls_remove(&cls, &rules[i].cr);
        }
    }
    ck_assert_uint_eq(dpcls_n_rules(&cls), N / 3);
    ck_assert_uint_eq(dpcls_n_subtables(&cls), 1);   /* Only /32 left. */
    for (int i = 0; i < N; i++) {
        struct flow f = ip_flow(1, ntohl(rules[i].match.nw_dst) | 1);
        ck_assert_int_eq(lookup_id(&cls, &f), brute_force(rules, N, &f));
    }
    for (int i = 0; i < N; i++) {
        if (i % 3 != 2) {
            dpcls_insert(&cls, &rules[i].cr, &rules[i].mask, rules[i].mf);
        }
    }
    for (int i = 0; i < N; i++) {
        struct flow f = ip_flow(1, ntohl(rules[i].match.nw_dst));
        ck_assert_int_eq(lookup_id(&cls, &f), rules[i].id);
    }

    /* Batched lookups give the same answers. */
    const struct flow *flows[32];
    struct flow fs[32];
    const struct dpcls_rule *found[32];
    for (int i = 0; i < 32; i++) {
        fs[i] = ip_flow(0, i % 2 ? ntohl(rules[i].match.nw_dst) : 0xfc000001);
        flows[i] = &fs[i];
    }
    ck_assert_uint_eq(dpcls_lookup_batch(&cls, flows, found, 32, NULL), 16);
    for (int i = 0; i < 32; i++) {
        ck_assert_ptr_eq(found[i], i % 2 ? &rules[i].cr : NULL);
    }

    for (int i = 0; i < N; i++) {
        dpcls_remove(&cls, &rules[i].cr);
    }
    ck_assert_uint_eq(dpcls_n_subtables(&cls), 0);
    dpcls_destroy(&cls);
    dp_epoch_synchronize();
    for (int i = 0; i < N; i++) {
        free(rules[i].mf);
    }
}
END_TEST

/* Churn in one subtable, as a flood of short-lived megaflows makes it:
 * random inserts and removals, through tombstones and the rebuilds they
 * trigger, never lose a rule or find a removed one. */
START_TEST(test_churn_keeps_every_rule_findable)
{
    enum { N = 2000, OPS = 40000 };
    static struct test_rule rules[N];
    struct dpcls cls;
    dpcls_init(&cls);

    struct flow_wildcards wc = mask_ip_dst(32);
    for (int i = 0; i < N; i++) {
        struct flow f = ip_flow(0, 0x0c000000u + i);
        rule_init(&rules[i], i, &f, &wc);
    }

    srandom(11);
    size_t n_in = 0;
    for (int k = 0; k < OPS; k++) {
        struct test_rule *r = &rules[random() % N];
        if (r->cr.subtable) {
            dpcls_remove(&cls, &r->cr);
            n_in--;
        } else {
            dpcls_insert(&cls, &r->cr, &r->mask, r->mf);
            n_in++;
        }
        ck_assert_uint_eq(dpcls_n_rules(&cls), n_in);
        /* The rule just changed and a random other one. */
        struct test_rule *o = &rules[random() % N];
        struct flow f = ip_flow(3, ntohl(r->match.nw_dst));
        ck_assert_int_eq(lookup_id(&cls, &f), r->cr.subtable ? r->id : -1);
        f = ip_flow(3, ntohl(o->match.nw_dst));
        ck_assert_int_eq(lookup_id(&cls, &f), o->cr.subtable ? o->id : -1);
    }
    for (int i = 0; i < N; i++) {
        struct flow f = ip_flow(3, ntohl(rules[i].match.nw_dst));
        ck_assert_int_eq(lookup_id(&cls, &f),
                         rules[i].cr.subtable ? rules[i].id : -1);
        if (rules[i].cr.subtable) {
            dpcls_remove(&cls, &rules[i].cr);
        }
    }
    ck_assert_uint_eq(dpcls_n_rules(&cls), 0);
    dpcls_destroy(&cls);
    dp_epoch_synchronize();
    for (int i = 0; i < N; i++) {
        free(rules[i].mf);
    }
}
END_TEST

START_TEST(test_subtables_ranked_by_hits)
{
    struct dpcls cls;
    struct test_rule a, b;
    dpcls_init(&cls);

    struct flow fa = ip_flow(0, 0x0a000001), fb = ip_flow(0, 0x0b000001);
    struct flow_wildcards wa = mask_ip_dst(32), wb = mask_ip_dst(8);
    rule_init(&a, 1, &fa, &wa);
    rule_init(&b, 2, &fb, &wb);
    dpcls_insert(&cls, &a.cr, &wa, a.mf);
    dpcls_insert(&cls, &b.cr, &wb, b.mf);

    /* Subtables come in insertion order: a packet for B probes A's
     * subtable first, then B's. */
    unsigned int probes = 0;
    ck_assert_int_eq(lookup_id(&cls, &fb), 2);
    ck_assert_ptr_eq(dpcls_lookup(&cls, &fb, &probes), &b.cr);
    ck_assert_uint_eq(probes, 2);

    /* B's subtable had the hits: it moves first, one probe suffices. */
    ck_assert(dpcls_rerank(&cls));
    probes = 0;
    ck_assert_ptr_eq(dpcls_lookup(&cls, &fb, &probes), &b.cr);
    ck_assert_uint_eq(probes, 1);
    struct miniflow *mb = miniflow_create(&wb.masks);
    ck_assert(miniflow_equal(dpcls_subtable_mask(&cls, 0), mb));
    free(mb);

    /* Now A gets more hits since the last ranking and moves back. */
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(lookup_id(&cls, &fa), 1);
    }
    ck_assert(dpcls_rerank(&cls));
    probes = 0;
    ck_assert_ptr_eq(dpcls_lookup(&cls, &fa, &probes), &a.cr);
    ck_assert_uint_eq(probes, 1);
    /* No new hits either way: the order stays. */
    ck_assert(!dpcls_rerank(&cls));

    dpcls_remove(&cls, &a.cr);
    dpcls_remove(&cls, &b.cr);
    dpcls_destroy(&cls);
    dp_epoch_synchronize();
    free(a.mf);
    free(b.mf);
}
END_TEST

/* EMC: flows are counted references. */
struct emc_test_flow {
    int refs;
    bool dead;
};

static void
emc_test_unref(void *f_)
{
    struct emc_test_flow *f = f_;
    f->refs--;
}

static bool
emc_test_is_dead(const void *f_)
{
    const struct emc_test_flow *f = f_;
    return f->dead;
}

START_TEST(test_emc_hits_replacement_and_sweep)
{
    struct emc_cache *cache = emc_create(emc_test_unref, emc_test_is_dead);
    static struct emc_test_flow flows[3000];
    /* Static: 2 MB on the stack is a frame valgrind takes for a stack
     * switch. */
    static struct flow keys[3000];

    for (int i = 0; i < 3000; i++) {
        keys[i] = ip_flow(i, 0x0a000000 + i);
        flows[i].refs = 1;
        emc_insert(cache, &keys[i], flow_hash(&keys[i], 0), &flows[i]);
    }
    /* Most keys are still cached (2-way, 8192 entries, 3000 keys) and a
     * hit returns exactly the flow cached for that key. */
    int hits = 0;
    for (int i = 0; i < 3000; i++) {
        void *f = emc_lookup(cache, &keys[i], flow_hash(&keys[i], 0));
        if (f) {
            ck_assert_ptr_eq(f, &flows[i]);
            hits++;
        } else {
            ck_assert_int_eq(flows[i].refs, 0);     /* Evicted, unref'd. */
        }
    }
    ck_assert_int_gt(hits, 2700);

    /* A key with one bit changed is a miss. */
    struct flow other = keys[5];
    other.tp_src = htons(1);
    ck_assert_ptr_null(emc_lookup(cache, &other, flow_hash(&other, 0)));

    /* Re-inserting a key replaces its flow and drops the old reference. */
    struct emc_test_flow repl = { .refs = 1 };
    emc_insert(cache, &keys[7], flow_hash(&keys[7], 0), &repl);
    ck_assert_int_eq(flows[7].refs, 0);
    ck_assert_ptr_eq(emc_lookup(cache, &keys[7], flow_hash(&keys[7], 0)),
                     &repl);

    /* A dead flow is never returned: a lookup drops it, so does a sweep. */
    for (int i = 100; i < 200; i++) {
        flows[i].dead = true;
    }
    ck_assert_ptr_null(emc_lookup(cache, &keys[100], flow_hash(&keys[100], 0)));
    ck_assert_int_eq(flows[100].refs, 0);
    emc_sweep(cache);
    for (int i = 100; i < 200; i++) {
        ck_assert_int_eq(flows[i].refs, 0);
    }

    emc_destroy(cache);
    for (int i = 0; i < 3000; i++) {
        ck_assert_int_eq(flows[i].refs, 0);
    }
    ck_assert_int_eq(repl.refs, 0);
}
END_TEST

static Suite *
dpcls_suite(void)
{
    Suite *s = suite_create("dpcls");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_lookup_matches_brute_force);
    tcase_add_test(tc, test_churn_keeps_every_rule_findable);
    tcase_add_test(tc, test_subtables_ranked_by_hits);
    tcase_add_test(tc, test_emc_hits_replacement_and_sweep);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(dpcls_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
