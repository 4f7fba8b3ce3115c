/* Unit tests for flow.h: the compact and masked forms agree with the full
 * flow, which is what the classifier and the megaflow cache rely on. */
#include <config.h>
#include "flow.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"

/* A flow with a few random nonzero words, as real flows are sparse. */
static void
random_sparse_words(struct flow *flow, unsigned int n_words)
{
    memset(flow, 0, sizeof *flow);
    uint64_t *v = flow_u64s(flow);
    for (unsigned int i = 0; i < n_words; i++) {
        v[random() % FLOW_U64S] = ((uint64_t) random() << 32) | random();
    }
}

START_TEST(test_stages_cover_the_flow_in_order)
{
    ck_assert_uint_gt(flow_stage_end[0], 0);
    for (int i = 1; i < FLOW_N_STAGES; i++) {
        ck_assert_uint_gt(flow_stage_end[i], flow_stage_end[i - 1]);
    }
    ck_assert_uint_eq(flow_stage_end[FLOW_N_STAGES - 1], FLOW_U64S);
    ck_assert_uint_eq(FLOW_U64_OFS(in_port) < FLOW_STAGE_METADATA_END, 1);
    ck_assert_uint_eq(FLOW_U64_OFS(nw_src) >= FLOW_STAGE_L2_END, 1);
    ck_assert_uint_eq(FLOW_U64_END(tcp_flags) <= FLOW_STAGE_L3_END, 1);
}
END_TEST

START_TEST(test_miniflow_round_trip)
{
    srandom(1);
    for (int i = 0; i < 1000; i++) {
        struct flow flow, back;
        random_sparse_words(&flow, i % 12);
        struct miniflow *mf = miniflow_create(&flow);
        miniflow_expand(mf, &back);
        CHECK(flow_equal(&flow, &back));
        for (unsigned int w = 0; w < FLOW_U64S; w++) {
            CHECK(miniflow_get(mf, w) == flow_u64s_const(&flow)[w]);
        }
        /* Only the nonzero words are stored. */
        unsigned int nonzero = 0;
        for (unsigned int w = 0; w < FLOW_U64S; w++) {
            nonzero += flow_u64s_const(&flow)[w] != 0;
        }
        CHECK(miniflow_n_values(mf) == nonzero);
        struct miniflow *again = miniflow_create(&back);
        CHECK(miniflow_equal(mf, again));
        CHECK(miniflow_hash(mf, 7) == miniflow_hash(again, 7));
        free(again);
        free(mf);
    }
}
END_TEST

/* The lookup primitives: a flow matches a masked match exactly when it
 * agrees with the match's flow on the mask, and two flows that agree on
 * the mask hash alike. */
START_TEST(test_minimask_lookup_agrees_with_full_flows)
{
    srandom(2);
    for (int i = 0; i < 2000; i++) {
        struct flow rule_flow, pkt;
        struct flow_wildcards wc;
        random_sparse_words(&rule_flow, 6);
        random_sparse_words(&wc.masks, 4);
        /* Half the packets agree with the rule on the mask. */
        if (i % 2) {
            random_sparse_words(&pkt, 8);
            uint64_t *p = flow_u64s(&pkt);
            const uint64_t *r = flow_u64s_const(&rule_flow);
            const uint64_t *m = flow_u64s_const(&wc.masks);
            for (unsigned int w = 0; w < FLOW_U64S; w++) {
                p[w] = (p[w] & ~m[w]) | (r[w] & m[w]);
            }
        } else {
            random_sparse_words(&pkt, 8);
        }
        struct miniflow *mask = miniflow_create(&wc.masks);
        struct miniflow *match = miniflow_create_masked(&rule_flow, &wc);
        CHECK(flowmap_equal(&match->map, &mask->map));

        bool expect = flow_equal_under_mask(&pkt, &rule_flow, &wc);
        CHECK(flow_equal_in_minimask(&pkt, mask, match) == expect);
        if (i % 2) {
            CHECK(expect);
        }
        if (expect) {
            CHECK(flow_hash_in_minimask(&pkt, mask, 3)
                  == miniflow_hash(match, 3));
        }
        free(mask);
        free(match);
    }
}
END_TEST

START_TEST(test_wildcards_or_and_extra)
{
    struct flow_wildcards a, b;
    flow_wildcards_init_catchall(&a);
    flow_wildcards_init_catchall(&b);
    CHECK(flow_wildcards_is_catchall(&a));
    WC_MASK_FIELD(&a, nw_src);
    CHECK(!flow_wildcards_is_catchall(&a));
    CHECK(flow_wildcards_has_extra(&a, &b));
    CHECK(!flow_wildcards_has_extra(&b, &a));
    WC_MASK_FIELD(&b, tp_dst);
    flow_wildcards_or(&b, &a);
    CHECK(b.masks.nw_src == UINT32_MAX && b.masks.tp_dst == UINT16_MAX);
    CHECK(!flow_wildcards_has_extra(&a, &b));
    CHECK(!flow_wildcards_equal(&a, &b));

    struct flow x, y, masked;
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.nw_src = htonl(0x0a000001);
    x.nw_dst = htonl(0x0a000002);
    y.nw_src = x.nw_src;
    CHECK(flow_equal_under_mask(&x, &y, &a));
    CHECK(flow_equal_under_mask(&x, &y, &b));
    WC_MASK_FIELD(&b, nw_dst);
    CHECK(!flow_equal_under_mask(&x, &y, &b));
    flow_apply_mask(&masked, &x, &a);
    CHECK(masked.nw_src == x.nw_src && masked.nw_dst == 0);
}
END_TEST

static Suite *
flow_suite(void)
{
    Suite *s = suite_create("flow");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_stages_cover_the_flow_in_order);
    tcase_add_test(tc, test_miniflow_round_trip);
    tcase_add_test(tc, test_minimask_lookup_agrees_with_full_flows);
    tcase_add_test(tc, test_wildcards_or_and_extra);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(flow_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
