/* Unit tests for uuid.h. */
#include <config.h>
#include "uuid.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"

START_TEST(test_generate_is_version_4)
{
    for (int i = 0; i < 100; i++) {
        struct uuid uuid;
        uuid_generate(&uuid);
        char *s = uuid_to_string(&uuid);
        ck_assert_int_eq(strlen(s), UUID_LEN);
        /* xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx */
        ck_assert_int_eq(s[14], '4');
        ck_assert_ptr_nonnull(strchr("89ab", s[19]));
        free(s);
    }
}
END_TEST

START_TEST(test_generate_is_unique)
{
    enum { N = 1000 };
    struct uuid *uuids = calloc(N, sizeof *uuids);
    for (int i = 0; i < N; i++) {
        uuid_generate(&uuids[i]);
        CHECK(!uuid_is_zero(&uuids[i]));
        /* CHECK, not ck_assert: Check records every passing ck_assert,
         * which made these half a million comparisons time out under
         * load. */
        for (int j = 0; j < i; j++) {
            CHECK(!uuid_equals(&uuids[i], &uuids[j]));
        }
    }
    free(uuids);
}
END_TEST

START_TEST(test_string_round_trip)
{
    const char *text = "0123abcd-4567-89ef-0a1b-2c3d4e5f6789";
    struct uuid uuid;
    ck_assert(uuid_from_string(&uuid, text));
    ck_assert_uint_eq(uuid.parts[0], 0x0123abcd);
    ck_assert_uint_eq(uuid.parts[1], 0x456789ef);
    ck_assert_uint_eq(uuid.parts[2], 0x0a1b2c3d);
    ck_assert_uint_eq(uuid.parts[3], 0x4e5f6789);

    char *s = uuid_to_string(&uuid);
    ck_assert_str_eq(s, text);
    free(s);

    char buf[UUID_LEN + 1];
    snprintf(buf, sizeof buf, UUID_FMT, UUID_ARGS(&uuid));
    ck_assert_str_eq(buf, text);
    snprintf(buf, sizeof buf, UUID_SHORT_FMT, UUID_SHORT_ARGS(&uuid));
    ck_assert_str_eq(buf, "0123abcd");

    /* Upper case is accepted; printing is always lower case. */
    struct uuid upper;
    ck_assert(uuid_from_string(&upper,
                               "0123ABCD-4567-89EF-0A1B-2C3D4E5F6789"));
    ck_assert(uuid_equals(&uuid, &upper));
}
END_TEST

/* uuid_format() is a hand-rolled UUID_FMT: it must print exactly what
 * snprintf() prints, for every digit position. */
START_TEST(test_format_matches_printf)
{
    for (int i = 0; i < 1000; i++) {
        struct uuid uuid;
        uuid_generate(&uuid);
        if (i == 0) {
            uuid_zero(&uuid);
        } else if (i == 1) {
            memset(&uuid, 0xff, sizeof uuid);
        }
        char expected[UUID_LEN + 1], actual[UUID_LEN + 1];
        snprintf(expected, sizeof expected, UUID_FMT, UUID_ARGS(&uuid));
        uuid_format(&uuid, actual);
        ck_assert_str_eq(actual, expected);
    }
}
END_TEST

START_TEST(test_from_string_rejects)
{
    static const char *bad[] = {
        "",
        "0123abcd-4567-89ef-0a1b-2c3d4e5f678",      /* Too short. */
        "0123abcd-4567-89ef-0a1b-2c3d4e5f67890",    /* Too long. */
        "0123abcd_4567-89ef-0a1b-2c3d4e5f6789",     /* Wrong separator. */
        "0123abcd-4567-89ef-0a1b2c3d4e5f6789-",     /* Dash misplaced. */
        "0123abcg-4567-89ef-0a1b-2c3d4e5f6789",     /* Not hex. */
        " 123abcd-4567-89ef-0a1b-2c3d4e5f6789",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct uuid uuid = { { 1, 2, 3, 4 } };
        ck_assert_msg(!uuid_from_string(&uuid, bad[i]), "%s", bad[i]);
        ck_assert(uuid_is_zero(&uuid));
    }

    /* The prefix form ignores what follows the 36 characters. */
    struct uuid uuid;
    ck_assert(uuid_from_string_prefix(
                  &uuid, "0123abcd-4567-89ef-0a1b-2c3d4e5f6789xyz"));
    ck_assert_uint_eq(uuid.parts[3], 0x4e5f6789);
    ck_assert(!uuid_from_string_prefix(&uuid, "0123abcd-4567"));
}
END_TEST

START_TEST(test_partial_string)
{
    size_t n_hex = 0;
    ck_assert(uuid_is_partial_string("0123", &n_hex));
    ck_assert_uint_eq(n_hex, 4);
    ck_assert(uuid_is_partial_string("0123abcd-45", &n_hex));
    ck_assert_uint_eq(n_hex, 10);
    ck_assert(uuid_is_partial_string("0123abcd-4567-89ef-0a1b-2c3d4e5f6789",
                                     &n_hex));
    ck_assert_uint_eq(n_hex, 32);
    ck_assert(uuid_is_partial_string("0123abcd-", NULL));

    ck_assert(!uuid_is_partial_string("012", NULL));        /* Too few. */
    ck_assert(!uuid_is_partial_string("0123abcd4", NULL));  /* No dash. */
    ck_assert(!uuid_is_partial_string("xyzw", NULL));
    ck_assert(!uuid_is_partial_string("", NULL));
    ck_assert(!uuid_is_partial_string(
                  "0123abcd-4567-89ef-0a1b-2c3d4e5f67890", NULL));
}
END_TEST

START_TEST(test_zero_and_compare)
{
    struct uuid a, b;
    uuid_zero(&a);
    ck_assert(uuid_is_zero(&a));
    char *s = uuid_to_string(&a);
    ck_assert_str_eq(s, "00000000-0000-0000-0000-000000000000");
    free(s);

    ck_assert(uuid_from_string(&a, "00000001-0000-0000-0000-000000000000"));
    ck_assert(uuid_from_string(&b, "00000000-ffff-ffff-ffff-ffffffffffff"));
    ck_assert_int_gt(uuid_compare_3way(&a, &b), 0);
    ck_assert_int_lt(uuid_compare_3way(&b, &a), 0);
    ck_assert_int_eq(uuid_compare_3way(&a, &a), 0);

    /* The high bit of a word must not make it compare as negative. */
    ck_assert(uuid_from_string(&a, "80000000-0000-0000-0000-000000000000"));
    ck_assert(uuid_from_string(&b, "7fffffff-0000-0000-0000-000000000000"));
    ck_assert_int_gt(uuid_compare_3way(&a, &b), 0);
    ck_assert(!uuid_equals(&a, &b));
    ck_assert_uint_eq(uuid_hash(&a), 0x80000000);
}
END_TEST

static Suite *
uuid_suite(void)
{
    Suite *s = suite_create("uuid");
    TCase *tc = tcase_create("uuid");
    tcase_add_test(tc, test_generate_is_version_4);
    tcase_add_test(tc, test_generate_is_unique);
    tcase_add_test(tc, test_string_round_trip);
    tcase_add_test(tc, test_format_matches_printf);
    tcase_add_test(tc, test_from_string_rejects);
    tcase_add_test(tc, test_partial_string);
    tcase_add_test(tc, test_zero_and_compare);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(uuid_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
