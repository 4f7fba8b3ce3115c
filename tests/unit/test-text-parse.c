/* Unit tests for text-parse.h: the one number rule and key=value lists. */
#include <config.h>
#include "text-parse.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void
expect_uint(const char *s, uint64_t max, uint64_t want)
{
    uint64_t x = 12345;
    char *error = ofputil_parse_uint(s, max, &x);
    ck_assert_msg(!error, "%s: %s", s, error);
    ck_assert_uint_eq(x, want);
}

static void
expect_uint_error(const char *s, uint64_t max, const char *want)
{
    uint64_t x = 12345;
    char *error = ofputil_parse_uint(s, max, &x);
    ck_assert_ptr_nonnull(error);
    ck_assert_str_eq(error, want);
    /* Nothing is stored on error. */
    ck_assert_uint_eq(x, 12345);
    free(error);
}

START_TEST(test_uint_rule)
{
    expect_uint("0", 10, 0);
    expect_uint("10", 10, 10);
    expect_uint("0x1f", UINT8_MAX, 31);
    expect_uint("0X1F", UINT8_MAX, 31);
    expect_uint("017", UINT8_MAX, 15);
    expect_uint("+7", UINT8_MAX, 7);
    expect_uint("0x", UINT8_MAX, 0);
    expect_uint("18446744073709551615", UINT64_MAX, UINT64_MAX);
    expect_uint("0x0000000000000000001", UINT8_MAX, 1);

    expect_uint_error("", 10, "missing required numeric argument");
    expect_uint_error("11", 10, "invalid numeric format 11");
    expect_uint_error("-1", UINT64_MAX, "invalid numeric format -1");
    expect_uint_error("18446744073709551616", UINT64_MAX,
                      "invalid numeric format 18446744073709551616");
    expect_uint_error("0x10000000000000000", UINT64_MAX,
                      "invalid numeric format 0x10000000000000000");
    expect_uint_error("12x", 100, "invalid numeric format 12x");
    expect_uint_error(" 1", 100, "invalid numeric format  1");
    expect_uint_error("x", 100, "invalid numeric format x");

    uint32_t u = 99;
    char *error = ofputil_parse_u32("4294967296", &u);
    ck_assert_ptr_nonnull(error);
    ck_assert_uint_eq(u, 99);
    free(error);
    ck_assert_ptr_null(ofputil_parse_u32("4294967295", &u));
    ck_assert_uint_eq(u, UINT32_MAX);
}
END_TEST

START_TEST(test_int_bytes)
{
    uint8_t b[16];
    const char *tail;

    /* Hex wider than 64 bits fills from the least significant end. */
    const char *s = "0x123456789abcdef0123->reg";
    ck_assert_int_eq(ofputil_parse_int_bytes(s, b, sizeof b, &tail), 0);
    ck_assert_str_eq(tail, "->reg");
    static const uint8_t wide[16] = {
        0, 0, 0, 0, 0, 0, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
        0x01, 0x23,
    };
    ck_assert_mem_eq(b, wide, 16);

    /* Decimal stops where strtoull() stops; N bytes bound it. */
    ck_assert_int_eq(ofputil_parse_int_bytes("65535/1", b, 2, &tail), 0);
    ck_assert_str_eq(tail, "/1");
    ck_assert_uint_eq(b[0], 0xff);
    ck_assert_uint_eq(b[1], 0xff);
    ck_assert_int_eq(ofputil_parse_int_bytes("65536", b, 2, &tail), ERANGE);
    ck_assert_int_eq(ofputil_parse_int_bytes("0x10000", b, 2, &tail),
                     ERANGE);
    /* Leading zeros of hex do not count. */
    ck_assert_int_eq(ofputil_parse_int_bytes("0x0000ffff", b, 2, &tail), 0);
    ck_assert_uint_eq(b[0], 0xff);

    /* Negative numbers are out of range; no digits is no number. */
    ck_assert_int_eq(ofputil_parse_int_bytes("-1", b, 8, &tail), ERANGE);
    ck_assert_int_eq(ofputil_parse_int_bytes("abc", b, 8, &tail), EINVAL);
    ck_assert_str_eq(tail, "abc");
    ck_assert_int_eq(ofputil_parse_int_bytes("-", b, 8, &tail), EINVAL);
    ck_assert_int_eq(ofputil_parse_int_bytes("+5", b, 1, &tail), 0);
    ck_assert_uint_eq(b[0], 5);
}
END_TEST

START_TEST(test_key_value)
{
    char text[] = "a=1, b:2 c(3,(4)) bare,d=(x,y) f(9)->reg0[],";
    char *s = text, *key, *value, sep;

    ck_assert(ofputil_parse_key_value(&s, &key, &value, &sep));
    ck_assert_str_eq(key, "a");
    ck_assert_str_eq(value, "1");
    ck_assert(ofputil_key_has_value(sep));

    ck_assert(ofputil_parse_key_value(&s, &key, &value, &sep));
    ck_assert_str_eq(key, "b");
    ck_assert_str_eq(value, "2");

    ck_assert(ofputil_parse_key_value(&s, &key, &value, &sep));
    ck_assert_str_eq(key, "c");
    ck_assert_str_eq(value, "3,(4)");
    ck_assert_int_eq(sep, '(');

    ck_assert(ofputil_parse_key_value(&s, &key, &value, &sep));
    ck_assert_str_eq(key, "bare");
    ck_assert_str_eq(value, "");
    ck_assert(!ofputil_key_has_value(sep));

    ck_assert(ofputil_parse_key_value(&s, &key, &value, &sep));
    ck_assert_str_eq(key, "d");
    ck_assert_str_eq(value, "(x,y)");

    ck_assert(ofputil_parse_key_value(&s, &key, &value, &sep));
    ck_assert_str_eq(key, "f");
    ck_assert_str_eq(value, "9->reg0[]");

    ck_assert(!ofputil_parse_key_value(&s, &key, &value, &sep));
}
END_TEST

int
main(void)
{
    Suite *s = suite_create("text-parse");
    TCase *tc = tcase_create("text-parse");
    tcase_add_test(tc, test_uint_rule);
    tcase_add_test(tc, test_int_bytes);
    tcase_add_test(tc, test_key_value);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
