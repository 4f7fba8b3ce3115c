/* The classifier on all of shared/classbench: every header of every trace
 * gets the rule NAME.expected names, tries on and off; on a sample, a
 * linear first-match search over the ClassBench rules agrees, and the
 * wildcard mask is sufficient (headers that agree with the looked-up one on
 * the mask's bits, with the other bits taken from other headers, get the
 * same rule).  The sets live beside the repository
 * (CLASSBENCH_DIR, or $CLASSBENCH_DIR at run time). */
#include <config.h>
#include "classifier.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "classbench-flow.h"
#include "classbench-load.h"
#include "ovs-rcu.h"
#include "check-util.h"
#include "util.h"

static const char *const sets[] = {
    "acl1_1k", "fw1_1k", "ipc1_1k", "acl1_10k", "fw1_10k", "ipc1_10k",
};

/* Every STRIDE'th header is also checked by linear search and for the
 * sufficiency of its mask. */
#define SAMPLE_STRIDE 53

static int32_t
lookup_index(const struct classifier *cls, const struct cb_packet *p,
             struct flow_wildcards *wc)
{
    struct flow flow;
    cb_packet_to_flow(p, &flow);
    if (wc) {
        flow_wildcards_init_catchall(wc);
    }
    const struct cls_rule *r = classifier_lookup(cls, OVS_VERSION_MAX, &flow,
                                                 wc);
    return r ? CONTAINER_OF(r, struct cb_cls_rule, cr)->index : -1;
}

/* Q takes P's bits where WC has them and OTHER's elsewhere. */
static void
blend(struct cb_packet *q, const struct cb_packet *p,
      const struct cb_packet *other, const struct flow_wildcards *wc)
{
    uint32_t m_src = ntohl(wc->masks.nw_src), m_dst = ntohl(wc->masks.nw_dst);
    uint16_t m_sp = ntohs(wc->masks.tp_src), m_dp = ntohs(wc->masks.tp_dst);
    *q = *p;
    q->src = (p->src & m_src) | (other->src & ~m_src);
    q->dst = (p->dst & m_dst) | (other->dst & ~m_dst);
    q->sport = (p->sport & m_sp) | (other->sport & ~m_sp);
    q->dport = (p->dport & m_dp) | (other->dport & ~m_dp);
    q->proto = (p->proto & wc->masks.nw_proto)
               | (other->proto & ~wc->masks.nw_proto);
}

START_TEST(test_classbench_set)
{
    const char *dir = getenv("CLASSBENCH_DIR");
    if (!dir) {
        dir = CLASSBENCH_DIR;
    }
    char rules_path[1024], trace_path[1024], expected_path[1024];
    snprintf(rules_path, sizeof rules_path, "%s/%s.rules", dir, sets[_i]);
    snprintf(trace_path, sizeof trace_path, "%s/%s.trace", dir, sets[_i]);
    snprintf(expected_path, sizeof expected_path, "%s/%s.expected", dir,
             sets[_i]);

    struct cb_rule *rules;
    struct cb_packet *packets;
    size_t n_rules, n_packets;
    char *error = cb_load_rules(rules_path, &rules, &n_rules);
    if (!error) {
        error = cb_load_trace(trace_path, expected_path, &packets, &n_packets);
    }
    ck_assert_msg(!error, "%s (set CLASSBENCH_DIR to shared/classbench)",
                  error);
    ck_assert_uint_gt(n_packets, 0);

    struct classifier with_tries, without_tries;
    classifier_init(&with_tries);
    classifier_init(&without_tries);
    ck_assert(classifier_set_prefix_fields(&without_tries, NULL, 0));
    size_t n1, n2;
    struct cb_cls_rule *e1 = cb_cls_rules_insert(&with_tries, rules, n_rules,
                                                 &n1);
    struct cb_cls_rule *e2 = cb_cls_rules_insert(&without_tries, rules,
                                                 n_rules, &n2);
    ck_assert_uint_eq(classifier_count(&with_tries), n1);

    /* Under valgrind (CI's memory check), every 8th header: the full
     * traces are for the normal run, and valgrind is for memory. */
    size_t step = n_packets / check_iterations(n_packets, 8);
    size_t n_sampled = 0;
    for (size_t i = 0; i < n_packets; i += step) {
        const struct cb_packet *p = &packets[i];
        struct flow_wildcards wc;
        int32_t got = lookup_index(&with_tries, p, &wc);
        ck_assert_msg(got == p->expected, "%s header %zu: rule %d, "
                      "expected %d", sets[_i], i + 1, got, p->expected);
        ck_assert_int_eq(lookup_index(&without_tries, p, NULL), got);
        if (i % (SAMPLE_STRIDE * step)) {
            continue;
        }
        n_sampled++;
        ck_assert_int_eq(cb_linear_lookup(rules, n_rules, p), p->expected);
        struct flow_wildcards wc_off;
        ck_assert_int_eq(lookup_index(&without_tries, p, &wc_off), got);
        for (int j = 0; j < 4; j++) {
            struct cb_packet q;
            const struct flow_wildcards *m = j % 2 ? &wc_off : &wc;
            blend(&q, p, &packets[random() % n_packets], m);
            ck_assert_msg(cb_linear_lookup(rules, n_rules, &q) == got,
                          "%s header %zu: the mask lets through a header "
                          "that another rule matches", sets[_i], i + 1);
            ck_assert_int_eq(lookup_index(&with_tries, &q, NULL), got);
        }
    }
    ck_assert_uint_gt(n_sampled, 1000 / step);

    cb_cls_rules_destroy(&with_tries, e1, n1);
    cb_cls_rules_destroy(&without_tries, e2, n2);
    ck_assert(classifier_is_empty(&with_tries));
    classifier_destroy(&with_tries);
    classifier_destroy(&without_tries);
    ovsrcu_synchronize();
    free(rules);
    free(packets);
}
END_TEST

/* The port-range expansion the mapping relies on: exact covers, no more
 * prefixes than needed. */
START_TEST(test_port_ranges_expand_exactly)
{
    srandom(5);
    for (int i = 0; i < 2000; i++) {
        uint16_t lo = random(), hi = random();
        if (i % 4 == 0) {
            lo = 0, hi = 65535;
        } else if (lo > hi) {
            uint16_t t = lo;
            lo = hi, hi = t;
        }
        struct cb_port_prefix out[32];
        size_t n = cb_range_to_prefixes(lo, hi, out);
        ck_assert_uint_le(n, 30);
        uint32_t covered = 0;
        for (size_t j = 0; j < n; j++) {
            uint32_t size = UINT32_C(1) << (16 - out[j].len);
            ck_assert_uint_eq(out[j].value % size, 0);
            covered += size;
            /* Every prefix lies inside the range. */
            ck_assert_uint_ge(out[j].value, lo);
            ck_assert_uint_le(out[j].value + size - 1, hi);
        }
        ck_assert_uint_eq(covered, (uint32_t) hi - lo + 1);
    }
    struct cb_port_prefix out[32];
    ck_assert_uint_eq(cb_range_to_prefixes(0, 65535, out), 1);
    ck_assert_uint_eq(out[0].len, 0);
    ck_assert_uint_eq(cb_range_to_prefixes(1024, 65535, out), 6);
    ck_assert_uint_eq(cb_range_to_prefixes(80, 80, out), 1);
    ck_assert_uint_eq(out[0].len, 16);
}
END_TEST

START_TEST(test_bad_input_is_reported)
{
    char path[] = "/tmp/cb-test-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("@1.2.3.4/32\t5.6.7.8/33\t0 : 65535\t0 : 65535\t0x06/0xFF\t"
          "0x0000/0x0000\n", f);
    fclose(f);
    struct cb_rule *rules;
    size_t n;
    char *error = cb_load_rules(path, &rules, &n);
    ck_assert(error && strstr(error, ":1: bad address prefix"));
    free(error);
    error = cb_load_trace(path, NULL, NULL, NULL);
    ck_assert(error && strstr(error, "not a ClassBench header"));
    free(error);
    error = cb_load_rules("/nonexistent/x.rules", &rules, &n);
    ck_assert(error && strstr(error, "cannot open"));
    free(error);
    unlink(path);
}
END_TEST

static Suite *
classbench_suite(void)
{
    Suite *s = suite_create("classifier-classbench");
    TCase *tc = tcase_create("sets");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_classbench_set, 0, ARRAY_SIZE(sets));
    tcase_add_test(tc, test_port_ranges_expand_exactly);
    tcase_add_test(tc, test_bad_input_is_reported);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(classbench_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
