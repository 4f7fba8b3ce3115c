/* Concurrent lookups while the classifier changes under them.
 *
 * Handler-like threads look up packets at the version the writer last
 * published, while the main thread follows a precomputed schedule: at each
 * version it inserts the rules that appear there, marks invisible the rules
 * that go, publishes the version, and removes the gone rules from the
 * classifier only after a grace period (ovsrcu_postpone()), the way an
 * OpenFlow table does.  Since the schedule is known, a reader can compute
 * the right answer for any version on its own: every lookup must return
 * exactly the rule a linear search over the rules of that version finds,
 * and its wildcard mask must hold for other packets at that version too;
 * exact finds and loose iteration must see a rule exactly in the versions
 * it exists in.  The trie configuration also changes under the readers.
 *
 * The suite is short on purpose: CI runs it under valgrind and under
 * ThreadSanitizer (make check-tsan), where any unsynchronized access
 * between the writer and the readers is reported. */
#include <config.h>
#include "classifier.h"

#include <arpa/inet.h>
#include <check.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "util.h"

enum {
    N_VERSIONS = 150,
    N_RULES = 300,              /* Each lives a while, then goes. */
    N_PACKETS = 256,
    N_READERS = 2,
    LOOKUPS_PER_VERSION = 20,   /* The writer waits for that many. */
};

struct sched_rule {
    struct cls_rule cr;
    struct flow flow;
    struct flow_wildcards wc;
    int priority;               /* Unique. */
    ovs_version_t added, removed;
};

static struct sched_rule rules[N_RULES];
static struct flow packets[N_PACKETS];
static struct classifier cls;
static _Atomic ovs_version_t published;
static atomic_bool stop;
static atomic_ulong n_lookups;
static atomic_ulong n_wrong;

static uint32_t
prefix_mask(unsigned int len)
{
    return len ? UINT32_MAX << (32 - len) : 0;
}

static void
make_schedule(void)
{
    srandom(7);
    static const uint32_t bases[] = { 0x0a000000, 0x0a010000, 0xc0a80000,
                                      0xc0a80100 };
    for (int i = 0; i < N_RULES; i++) {
        struct sched_rule *r = &rules[i];
        memset(&r->flow, 0, sizeof r->flow);
        flow_wildcards_init_catchall(&r->wc);
        if (i % 10) {
            r->flow.dl_type = htons(0x0800);
            WC_MASK_FIELD(&r->wc, dl_type);
        }
        r->flow.nw_dst = htonl(bases[random() % 4] | (random() % 4) << 8);
        r->wc.masks.nw_dst = htonl(prefix_mask(8 + random() % 25));
        if (random() % 2) {
            r->flow.nw_src = htonl(bases[random() % 4]);
            r->wc.masks.nw_src = htonl(prefix_mask(random() % 33));
        }
        if (random() % 2) {
            r->flow.tp_dst = htons(random() % 4 * 256);
            r->wc.masks.tp_dst = htons(0xff00 << (random() % 4));
        }
        flow_apply_mask(&r->flow, &r->flow, &r->wc);
        r->priority = i * 7 % N_RULES;      /* A permutation. */
        r->added = 1 + random() % N_VERSIONS;
        r->removed = random() % 4
                     ? r->added + 1 + random() % 40 : OVS_VERSION_NOT_REMOVED;
        cls_rule_init(&r->cr, &r->flow, &r->wc, r->priority);
    }
    for (int i = 0; i < N_PACKETS; i++) {
        packets[i] = rules[random() % N_RULES].flow;
        packets[i].dl_type = htons(0x0800);
        packets[i].nw_dst ^= htonl(random() % 2 ? 0 : 1u << (random() % 32));
        packets[i].nw_src ^= htonl(random() % 2 ? 0 : 1u << (random() % 32));
        packets[i].tp_dst = htons(random() % 1024);
    }
}

/* The answer at VERSION by linear search over the schedule. */
static const struct cls_rule *
reference(const struct flow *pkt, ovs_version_t version)
{
    const struct sched_rule *best = NULL;
    for (int i = 0; i < N_RULES; i++) {
        const struct sched_rule *r = &rules[i];
        if (ovs_version_visible(r->added, r->removed, version)
            && flow_equal_under_mask(pkt, &r->flow, &r->wc)
            && (!best || r->priority > best->priority)) {
            best = r;
        }
    }
    return best ? &best->cr : NULL;
}

static void *
reader(void *arg)
{
    unsigned int seed = (uintptr_t) arg;
    while (!atomic_load(&stop)) {
        ovs_version_t version = atomic_load_explicit(&published,
                                                     memory_order_acquire);
        const struct flow *pkt = &packets[rand_r(&seed) % N_PACKETS];
        struct flow_wildcards wc;
        flow_wildcards_init_catchall(&wc);
        const struct cls_rule *got = classifier_lookup(&cls, version, pkt,
                                                       &wc);
        bool ok = got == reference(pkt, version);

        /* Until this thread quiesces, the rules of VERSION stay put, so
         * another packet that agrees on the mask gets the same rule. */
        struct flow other = packets[rand_r(&seed) % N_PACKETS];
        uint64_t *o = flow_u64s(&other);
        const uint64_t *p = flow_u64s_const(pkt);
        const uint64_t *m = flow_u64s_const(&wc.masks);
        for (size_t w = 0; w < FLOW_U64S; w++) {
            o[w] = (p[w] & m[w]) | (o[w] & ~m[w]);
        }
        ok = ok && reference(&other, version) == got
             && classifier_lookup(&cls, version, &other, NULL) == got;

        /* The other readers' paths: an exact find, which must see a rule
         * exactly when its version does (priorities are unique), and a
         * loose iteration over the rules inside a rule's match. */
        const struct sched_rule *r = &rules[rand_r(&seed) % N_RULES];
        bool visible = ovs_version_visible(r->added, r->removed, version);
        const struct cls_rule *found = classifier_find_rule_exactly(
            &cls, &r->cr, version);
        ok = ok && (found == &r->cr) == visible && (found || !visible);
        const struct cls_rule *it;
        size_t n_inside = 0;
        CLS_FOR_EACH_TARGET (it, &cls, &r->cr, CLS_ITER_LOOSE, version) {
            ok = ok && cls_rule_is_loose_match(it, &r->cr);
            n_inside += it == &r->cr;
        }
        ok = ok && n_inside == visible;
        if (!ok) {
            atomic_fetch_add(&n_wrong, 1);
        }
        atomic_fetch_add(&n_lookups, 1);
        ovsrcu_quiesce();
    }
    return NULL;
}

static void
remove_rule(struct sched_rule *r)
{
    ck_assert(classifier_remove(&cls, &r->cr));
}

/* Lets the readers do N lookups, so that every change the writer makes
 * lands in the middle of lookups. */
static void
wait_for_readers(unsigned long n)
{
    unsigned long since = atomic_load(&n_lookups);
    while (atomic_load(&n_lookups) < since + n) {
        ovsrcu_quiesce();
        sched_yield();
    }
}

START_TEST(test_lookups_while_rules_change)
{
    make_schedule();
    classifier_init(&cls);
    atomic_store(&published, 0);
    atomic_store(&stop, false);
    pthread_t threads[N_READERS];
    for (int i = 0; i < N_READERS; i++) {
        threads[i] = ovs_thread_create("reader", reader,
                                       (void *) (uintptr_t) (i + 1));
    }

    static const enum cls_prefix_field tries_a[] = { CLS_PREFIX_NW_DST,
                                                     CLS_PREFIX_NW_SRC };
    static const enum cls_prefix_field tries_b[] = { CLS_PREFIX_NW_SRC };
    for (ovs_version_t v = 1; v <= N_VERSIONS; v++) {
        bool batch = v % 3 == 0;
        if (batch) {
            classifier_defer(&cls);
        }
        for (int i = 0; i < N_RULES; i++) {
            if (rules[i].removed == v) {
                cls_rule_make_invisible_in_version(&rules[i].cr, v);
                wait_for_readers(2);
            }
        }
        for (int i = 0; i < N_RULES; i++) {
            if (rules[i].added == v) {
                classifier_insert(&cls, &rules[i].cr, v);
                wait_for_readers(2);
            }
        }
        if (batch) {
            classifier_publish(&cls);
        }
        if (v % 25 == 0) {
            ck_assert(v % 50
                      ? classifier_set_prefix_fields(&cls, tries_b, 1)
                      : classifier_set_prefix_fields(&cls, tries_a, 2));
        }
        atomic_store_explicit(&published, v, memory_order_release);
        /* Readers may still look up at V - 1: take the rules that went out
         * of the classifier only once they have all moved on. */
        for (int i = 0; i < N_RULES; i++) {
            if (rules[i].removed == v) {
                ovsrcu_postpone(remove_rule, &rules[i]);
            }
        }
        wait_for_readers(LOOKUPS_PER_VERSION);
    }
    atomic_store(&stop, true);
    for (int i = 0; i < N_READERS; i++) {
        xpthread_join(threads[i], NULL);
    }
    ovsrcu_synchronize();

    unsigned long lookups = atomic_load(&n_lookups);
    unsigned long wrong = atomic_load(&n_wrong);
    ck_assert_uint_ge(lookups, N_VERSIONS * LOOKUPS_PER_VERSION);
    ck_assert_msg(!wrong, "%lu of %lu concurrent lookups were wrong",
                  wrong, lookups);

    size_t left = 0;
    for (int i = 0; i < N_RULES; i++) {
        if (rules[i].removed == OVS_VERSION_NOT_REMOVED
            || rules[i].removed > N_VERSIONS) {
            ck_assert(classifier_remove(&cls, &rules[i].cr));
            left++;
        }
    }
    ck_assert_uint_gt(left, 0);
    ck_assert(classifier_is_empty(&cls));
    classifier_destroy(&cls);
    ovsrcu_synchronize();
    for (int i = 0; i < N_RULES; i++) {
        cls_rule_destroy(&rules[i].cr);
    }
}
END_TEST

static Suite *
threads_suite(void)
{
    Suite *s = suite_create("classifier-threads");
    TCase *tc = tcase_create("concurrency");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_lookups_while_rules_change);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(threads_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
