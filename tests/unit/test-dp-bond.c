/* Unit tests for dp-bond.h: the userspace datapath's lb_output bonds
 * (bucket map by flow hash, per-bucket byte counters, bond-show's text). */
#include <config.h>
#include "dp-bond.h"

#include <check.h>
#include <errno.h>
#include <string.h>
#include "dynamic-string.h"

START_TEST(test_output_by_bucket)
{
    struct dp_bond_table *t = dp_bond_table_create();
    uint32_t ports[DP_BOND_N_BUCKETS], port = 0;
    for (int i = 0; i < DP_BOND_N_BUCKETS; i++) {
        ports[i] = i % 2 ? 7 : 9;
    }
    ports[5] = UINT32_MAX;
    /* No such bond yet. */
    ck_assert(!dp_bond_table_output(t, 3, 0, 100, &port));
    dp_bond_table_set(t, 3, ports);

    /* The low 8 bits of the hash pick the bucket. */
    ck_assert(dp_bond_table_output(t, 3, 0x1200, 100, &port));
    ck_assert_uint_eq(port, 9);
    ck_assert(dp_bond_table_output(t, 3, 0x3401, 60, &port));
    ck_assert_uint_eq(port, 7);
    ck_assert(dp_bond_table_output(t, 3, 0x0101, 40, &port));
    ck_assert_uint_eq(port, 7);
    /* A bucket without a member drops, uncounted. */
    ck_assert(!dp_bond_table_output(t, 3, 5, 1000, &port));

    uint64_t n[DP_BOND_N_BUCKETS];
    ck_assert_int_eq(dp_bond_table_stats(t, 3, n), 0);
    ck_assert_uint_eq(n[0], 100);
    ck_assert_uint_eq(n[1], 100);
    ck_assert_uint_eq(n[5], 0);

    /* A new map keeps the counters. */
    ports[0] = 7;
    dp_bond_table_set(t, 3, ports);
    ck_assert(dp_bond_table_output(t, 3, 0, 1, &port));
    ck_assert_uint_eq(port, 7);
    ck_assert_int_eq(dp_bond_table_stats(t, 3, n), 0);
    ck_assert_uint_eq(n[0], 101);

    ck_assert_int_eq(dp_bond_table_del(t, 3), 0);
    ck_assert_int_eq(dp_bond_table_del(t, 3), ENOENT);
    ck_assert_int_eq(dp_bond_table_stats(t, 3, n), ENOENT);
    ck_assert(!dp_bond_table_output(t, 3, 0, 1, &port));
    dp_bond_table_destroy(t);
}
END_TEST

START_TEST(test_format)
{
    struct dp_bond_table *t = dp_bond_table_create();
    struct ds s = DS_EMPTY_INITIALIZER;
    dp_bond_table_format(t, &s);
    ck_assert_str_eq(ds_cstr(&s), "");

    uint32_t ports[DP_BOND_N_BUCKETS];
    for (int i = 0; i < DP_BOND_N_BUCKETS; i++) {
        ports[i] = i;
    }
    dp_bond_table_set(t, 9, ports);
    dp_bond_table_set(t, 2, ports);
    dp_bond_table_format(t, &s);
    /* By id, 256 buckets each. */
    const char *text = ds_cstr(&s);
    ck_assert(!strncmp(text, "Bonds:\n  bond-id 2:\n    bucket 0 - member 0\n",
                       strlen("Bonds:\n  bond-id 2:\n    bucket 0 - member 0\n")));
    ck_assert(strstr(text, "    bucket 255 - member 255\n  bond-id 9:\n"));
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, "bucket")); p++) {
        n++;
    }
    ck_assert_uint_eq(n, 2 * DP_BOND_N_BUCKETS);
    ds_destroy(&s);
    dp_bond_table_destroy(t);
}
END_TEST

static Suite *
dp_bond_suite(void)
{
    Suite *s = suite_create("dp-bond");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_output_by_bucket);
    tcase_add_test(tc, test_format);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(dp_bond_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
