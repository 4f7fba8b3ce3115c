/* Unit tests for ofproto/ofport-numbers.h: who holds which OpenFlow port
 * number, and the order automatic numbers come in. */
#include <config.h>
#include "ofproto/ofport-numbers.h"

#include <check.h>
#include <stdlib.h>

START_TEST(test_take_release_holder)
{
    struct ofport_numbers n;
    int a, b;

    ofport_numbers_init(&n);
    ck_assert_ptr_null(ofport_numbers_holder(&n, 5));
    ofport_numbers_take(&n, 5, &a);
    ofport_numbers_take(&n, 6, &b);
    ck_assert_ptr_eq(ofport_numbers_holder(&n, 5), &a);
    ck_assert_ptr_eq(ofport_numbers_holder(&n, 6), &b);
    ofport_numbers_release(&n, 5);
    ck_assert_ptr_null(ofport_numbers_holder(&n, 5));
    ck_assert_ptr_eq(ofport_numbers_holder(&n, 6), &b);
    /* Releasing what is not held, or not a switch port, is harmless. */
    ofport_numbers_release(&n, 5);
    ofport_numbers_release(&n, -1);
    ofport_numbers_release(&n, OFPP_LOCAL);
    ck_assert_ptr_null(ofport_numbers_holder(&n, OFPP_LOCAL));
    ck_assert_ptr_null(ofport_numbers_holder(&n, 0));
    ofport_numbers_destroy(&n);
}
END_TEST

START_TEST(test_switch_port_range)
{
    ck_assert(!ofport_is_switch_port(0));
    ck_assert(ofport_is_switch_port(1));
    ck_assert(ofport_is_switch_port(OFPP_MAX - 1));
    ck_assert(!ofport_is_switch_port(OFPP_MAX));
    ck_assert(!ofport_is_switch_port(OFPP_LOCAL));
    ck_assert(!ofport_is_switch_port(-1));
}
END_TEST

/* Automatic numbers go up from the last one handed out: a freed number is
 * not reused until the search wraps around to it. */
START_TEST(test_next_free_does_not_reuse_at_once)
{
    struct ofport_numbers n;
    int x;

    ofport_numbers_init(&n);
    for (int i = 1; i <= 3; i++) {
        int ofport = ofport_numbers_next_free(&n);
        ck_assert_int_eq(ofport, i);
        ofport_numbers_take(&n, ofport, &x);
    }
    ofport_numbers_release(&n, 2);
    ck_assert_int_eq(ofport_numbers_next_free(&n), 4);
    /* A requested number taken ahead is skipped by the search. */
    ofport_numbers_take(&n, 5, &x);
    ck_assert_int_eq(ofport_numbers_next_free(&n), 6);
    ofport_numbers_destroy(&n);
}
END_TEST

START_TEST(test_next_free_wraps_and_fills)
{
    struct ofport_numbers n;
    int x;

    ofport_numbers_init(&n);
    for (int i = 1; i < OFPP_MAX; i++) {
        ofport_numbers_take(&n, ofport_numbers_next_free(&n), &x);
    }
    ck_assert_int_eq(ofport_numbers_next_free(&n), -1);
    ofport_numbers_release(&n, 7);
    ck_assert_int_eq(ofport_numbers_next_free(&n), 7);
    ofport_numbers_destroy(&n);
}
END_TEST

static Suite *
ofport_numbers_suite(void)
{
    Suite *s = suite_create("ofport-numbers");
    TCase *tc = tcase_create("numbers");
    tcase_add_test(tc, test_take_release_holder);
    tcase_add_test(tc, test_switch_port_range);
    tcase_add_test(tc, test_next_free_does_not_reuse_at_once);
    tcase_add_test(tc, test_next_free_wraps_and_fills);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofport_numbers_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
