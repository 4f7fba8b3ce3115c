/* Unit tests for ofp-print.h: every message this codec knows, printed as
 * Open vSwitch 3.1 prints it.
 *
 * ofp-print-cases.inc holds 3.1's "ovs-ofctl ofp-print HEX" output for
 * each input of ofp-print-cases.hex (gen-ofp-print-cases.py regenerates
 * it): good messages in every version where the layout differs, and
 * malformed ones with the error 3.1 reports. */
#include <config.h>
#include "ofp-print.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check-ofp.h"
#include "check-util.h"
#include "ofp-errors.h"
#include "ofpbuf.h"
#include "util.h"

struct print_case {
    const char *hex;
    const char *text;
};

static const struct print_case print_cases[] = {
#include "ofp-print-cases.inc"
};

START_TEST(test_print_as_31)
{
    const struct print_case *c = &print_cases[_i];
    char *error;
    char *s = ofp_hex_to_string(c->hex, NULL, 2, &error);
    ck_assert_msg(s, "%s: %s", c->hex, error);
    ck_assert_msg(!strcmp(s, c->text), "%s:\nexpected:\n%s\ngot:\n%s",
                  c->hex, c->text, s);
    free(s);
}
END_TEST

/* Any prefix of any message prints without reading past it: the
 * truncation form for prefixes that keep the header, the short form for
 * the rest. */
START_TEST(test_print_truncations)
{
    for (size_t i = 0; i < ARRAY_SIZE(print_cases); i++) {
        struct ofpbuf *b = check_ofp_from_hex(print_cases[i].hex);
        /* Every prefix of short messages; for long ones the first 256
         * lengths and then every 61st, so the suite stays quick under
         * valgrind. */
        for (size_t len = 0; len < b->size; len += len < 256 ? 1 : 61) {
            /* A copy of exactly LEN bytes, so ASan sees any overread. */
            void *copy = xmemdup(b->data, len ? len : 1);
            char *s = ofp_to_string(copy, len, NULL, 2);
            const struct ofp_header *oh = b->data;
            if (!len) {
                CHECK(!strcmp(s, "OpenFlow message is empty\n"));
            } else if (len < 8) {
                CHECK(strstr(s, "OpenFlow packet too short") == s);
            } else if (ntohs(oh->length) > len) {
                CHECK(strstr(s, "(***truncated to ") != NULL);
            }
            free(s);
            free(copy);
        }
        ofpbuf_delete(b);
    }
}
END_TEST

START_TEST(test_print_verbosity)
{
    char *error;
    /* The echo payload is dumped only above verbosity 1, as 3.1 does. */
    char *s = ofp_hex_to_string("0102000a000000014142", NULL, 1, &error);
    ck_assert_str_eq(s, "OFPT_ECHO_REQUEST (xid=0x1): 2 bytes of payload\n");
    free(s);
    s = ofp_hex_to_string("0102000a000000014142", NULL, 2, &error);
    ck_assert_str_eq(s, "OFPT_ECHO_REQUEST (xid=0x1): 2 bytes of payload\n"
                     "00000000  41 42                                     "
                     "      |AB              |\n");
    free(s);
}
END_TEST

START_TEST(test_hex_input)
{
    char *error;
    /* Spaces and newlines between bytes are fine, as for ovs-ofctl. */
    char *s = ofp_hex_to_string(" 01 05 00 08\n00 00 00 2a \n", NULL, 2,
                                &error);
    ck_assert_str_eq(s, "OFPT_FEATURES_REQUEST (xid=0x2a):\n");
    free(s);

    s = ofp_hex_to_string("01 05 00 08 00 00 00 2x", NULL, 2, &error);
    ck_assert_ptr_null(s);
    ck_assert_str_eq(error, "trailing garbage following hex bytes");
    free(error);

    s = ofp_hex_to_string("010", NULL, 2, &error);
    ck_assert_ptr_null(s);
    free(error);
}
END_TEST

/* A message whose type has no printer (NXT_RESUME here) prints its
 * header line and the message in hex. */
START_TEST(test_unprinted_type)
{
    char *error;
    char *s = ofp_hex_to_string("0104001000000007000023200000001c", NULL, 2,
                                &error);
    ck_assert_str_eq(s, "NXT_RESUME (xid=0x7):\n"
                     "00000000  01 04 00 10 00 00 00 07-00 00 23 20 00 00 00"
                     " 1c |..........# ....|\n");
    free(s);
}
END_TEST

START_TEST(test_print_to_stream)
{
    struct ofpbuf *b = check_ofp_from_hex("0413001000000005000300000000000000");
    FILE *stream = tmpfile();
    ck_assert_ptr_nonnull(stream);
    ofp_print(stream, b->data, b->size, NULL, 2);
    char *expected = ofp_to_string(b->data, b->size, NULL, 2);
    rewind(stream);
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, stream);
    buf[n] = '\0';
    ck_assert_str_eq(buf, expected);
    fclose(stream);
    free(expected);
    ofpbuf_delete(b);
}
END_TEST

static Suite *
ofp_print_suite(void)
{
    Suite *s = suite_create("ofp-print");
    TCase *tc = tcase_create("ofp-print");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_print_as_31, 0, ARRAY_SIZE(print_cases));
    tcase_add_test(tc, test_print_truncations);
    tcase_add_test(tc, test_print_verbosity);
    tcase_add_test(tc, test_hex_input);
    tcase_add_test(tc, test_unprinted_type);
    tcase_add_test(tc, test_print_to_stream);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_print_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
