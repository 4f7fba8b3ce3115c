/* Unit tests for packets.h: Ethernet address parsing, predicates and
 * random addresses. */
#include <config.h>
#include "packets.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

static struct eth_addr
ea(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint8_t e, uint8_t f)
{
    return (struct eth_addr) { { a, b, c, d, e, f } };
}

START_TEST(test_parse_valid)
{
    struct eth_addr x;

    ck_assert(eth_addr_from_string("00:11:22:33:44:55", &x));
    ck_assert(eth_addr_equals(x, ea(0x00, 0x11, 0x22, 0x33, 0x44, 0x55)));

    /* Either case. */
    ck_assert(eth_addr_from_string("aA:Bb:cC:dD:eE:Ff", &x));
    ck_assert(eth_addr_equals(x, ea(0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff)));

    /* One digit per byte, as Open vSwitch accepts. */
    ck_assert(eth_addr_from_string("0:1:2:a:b:f", &x));
    ck_assert(eth_addr_equals(x, ea(0, 1, 2, 0xa, 0xb, 0xf)));

    ck_assert(eth_addr_from_string("ff:ff:ff:ff:ff:ff", &x));
    ck_assert(eth_addr_equals(x, ea(0xff, 0xff, 0xff, 0xff, 0xff, 0xff)));
}
END_TEST

START_TEST(test_parse_invalid)
{
    static const char *bad[] = {
        "",
        "00:11:22:33:44",               /* Too short. */
        "00:11:22:33:44:",              /* Missing last byte. */
        "00:11:22:33:44:55:66",         /* Too long. */
        "00:11:22:33:44:55 ",           /* Trailing text. */
        " 00:11:22:33:44:55",           /* Leading text. */
        "001:11:22:33:44:55",           /* Three digits. */
        "00-11-22-33-44-55",            /* Wrong separator. */
        "0011.2233.4455",
        "g0:11:22:33:44:55",            /* Not hex. */
        "00::22:33:44:55",
        "0x0:11:22:33:44:55",
    };
    const struct eth_addr sentinel = ea(1, 2, 3, 4, 5, 6);

    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        struct eth_addr x = sentinel;
        ck_assert_msg(!eth_addr_from_string(bad[i], &x),
                      "\"%s\" should not parse", bad[i]);
        /* A failed parse leaves the output alone. */
        ck_assert(eth_addr_equals(x, sentinel));
    }
}
END_TEST

START_TEST(test_format_round_trip)
{
    struct eth_addr x = ea(0x0a, 0xb0, 0x00, 0xff, 0x12, 0x9c);
    char s[32];

    snprintf(s, sizeof s, ETH_ADDR_FMT, ETH_ADDR_ARGS(x));
    ck_assert_str_eq(s, "0a:b0:00:ff:12:9c");

    struct eth_addr y;
    ck_assert(eth_addr_from_string(s, &y));
    ck_assert(eth_addr_equals(x, y));
}
END_TEST

START_TEST(test_predicates)
{
    ck_assert(eth_addr_is_zero(ea(0, 0, 0, 0, 0, 0)));
    ck_assert(!eth_addr_is_zero(ea(0, 0, 0, 0, 0, 1)));
    ck_assert(!eth_addr_is_zero(ea(0x80, 0, 0, 0, 0, 0)));

    ck_assert(eth_addr_is_multicast(ea(0x01, 0x00, 0x5e, 0, 0, 1)));
    ck_assert(eth_addr_is_multicast(ea(0xff, 0xff, 0xff, 0xff, 0xff, 0xff)));
    ck_assert(eth_addr_is_multicast(ea(0x33, 0x33, 0, 0, 0, 1)));
    ck_assert(!eth_addr_is_multicast(ea(0x02, 0, 0, 0, 0, 1)));
    ck_assert(!eth_addr_is_multicast(ea(0xaa, 0x55, 0xaa, 0x55, 0, 0)));
    ck_assert(!eth_addr_is_multicast(ea(0, 0, 0, 0, 0, 0)));

    ck_assert(eth_addr_equals(ea(1, 2, 3, 4, 5, 6), ea(1, 2, 3, 4, 5, 6)));
    ck_assert(!eth_addr_equals(ea(1, 2, 3, 4, 5, 6), ea(1, 2, 3, 4, 5, 7)));
    ck_assert(!eth_addr_equals(ea(1, 2, 3, 4, 5, 6), ea(0, 2, 3, 4, 5, 6)));
}
END_TEST

START_TEST(test_random)
{
    struct eth_addr prev = ea(0, 0, 0, 0, 0, 0);
    int n_distinct = 0;

    for (int i = 0; i < 64; i++) {
        struct eth_addr x = eth_addr_random();
        ck_assert(!eth_addr_is_multicast(x));
        ck_assert(x.ea[0] & 0x02);          /* Locally administered. */
        ck_assert(!eth_addr_is_zero(x));
        n_distinct += !eth_addr_equals(x, prev);
        prev = x;
    }
    /* 46 random bits: consecutive repeats would mean no randomness at
     * all. */
    ck_assert_int_eq(n_distinct, 64);
}
END_TEST

static Suite *
packets_suite(void)
{
    Suite *s = suite_create("packets");
    TCase *tc = tcase_create("eth_addr");
    tcase_add_test(tc, test_parse_valid);
    tcase_add_test(tc, test_parse_invalid);
    tcase_add_test(tc, test_format_round_trip);
    tcase_add_test(tc, test_predicates);
    tcase_add_test(tc, test_random);
    suite_add_tcase(s, tc);
    return s;
}

int
main(int argc OVS_UNUSED, char *argv[])
{
    set_program_name(argv[0]);
    SRunner *sr = srunner_create(packets_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
