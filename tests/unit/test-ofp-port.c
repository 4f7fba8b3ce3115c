/* Unit tests for ofp-port.h: port numbers in both numberings, their text,
 * and name maps.
 *
 * Accepted and refused port text and the printed forms are Open vSwitch
 * 3.1's ("ovs-ofctl parse-flow in_port=TEXT,actions=drop"). */
#include <config.h>
#include "ofp-port.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"
#include "dynamic-string.h"

static char *
format_port(uint32_t port, const struct ofputil_port_map *map)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    ofputil_format_port(port, map, &s);
    return ds_steal_cstr(&s);
}

START_TEST(test_port_text)
{
    static const struct {
        const char *input, *output;
    } accepted[] = {
        { "LOCAL", "LOCAL" },
        { "local", "LOCAL" },
        { "65534", "LOCAL" },
        { "IN_PORT", "IN_PORT" },
        { "ANY", "ANY" },
        { "NONE", "ANY" },
        { "controller", "CONTROLLER" },
        { "65279", "65279" },
        { "65280", "65280" },
        { "4294967294", "LOCAL" },
        { "1", "1" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(accepted); i++) {
        uint32_t port;
        ck_assert_msg(ofputil_port_from_string(accepted[i].input, NULL,
                                               &port),
                      "%s refused", accepted[i].input);
        char *s = format_port(port, NULL);
        ck_assert_str_eq(s, accepted[i].output);
        free(s);
    }

    static const char *refused[] = {
        "0xfff8", "0xff00", "65536", "foo", "\"p1\"", "-1", "",
    };
    for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
        uint32_t port;
        ck_assert_msg(!ofputil_port_from_string(refused[i], NULL, &port),
                      "%s accepted", refused[i]);
    }

    ck_assert_str_eq(ofputil_port_reserved_name(OFPP_FLOOD), "FLOOD");
    ck_assert_str_eq(ofputil_port_reserved_name(OFPP_NORMAL), "NORMAL");
    ck_assert_ptr_null(ofputil_port_reserved_name(1));
}
END_TEST

/* OpenFlow 1.1+ numbers its reserved ports from 0xfffffff8. */
START_TEST(test_ofp11_numbers)
{
    uint32_t port;
    ck_assert_int_eq(ofputil_port_from_ofp11(htonl(5), &port), 0);
    ck_assert_uint_eq(port, 5);
    ck_assert_int_eq(ofputil_port_from_ofp11(htonl(0xfffffffe), &port), 0);
    ck_assert_uint_eq(port, OFPP_LOCAL);
    ck_assert_int_eq(ofputil_port_from_ofp11(htonl(0xffffffff), &port), 0);
    ck_assert_uint_eq(port, OFPP_NONE);
    /* Numbers 1.0 cannot carry. */
    ck_assert_int_eq(ofputil_port_from_ofp11(htonl(0xff00), &port),
                     OFPERR_OFPBAC_BAD_OUT_PORT);
    ck_assert_int_eq(ofputil_port_from_ofp11(htonl(0x10000), &port),
                     OFPERR_OFPBAC_BAD_OUT_PORT);

    ck_assert(ofputil_port_to_ofp11(7) == htonl(7));
    ck_assert(ofputil_port_to_ofp11(OFPP_CONTROLLER) == htonl(0xfffffffd));
    ck_assert(ofputil_port_to_ofp11(OFPP_IN_PORT) == htonl(0xfffffff8));

    ck_assert(ofputil_port_is_valid_output(1));
    ck_assert(ofputil_port_is_valid_output(OFPP_LOCAL));
    ck_assert(!ofputil_port_is_valid_output(OFPP_NONE));
}
END_TEST

/* --names: ports print by name, quoted when the name could be misread;
 * names parse, quoted or not; an ambiguous name or number does neither. */
START_TEST(test_port_map)
{
    struct ofputil_port_map map;
    ofputil_port_map_init(&map);
    ofputil_port_map_put(&map, 1, "p1");
    ofputil_port_map_put(&map, 2, "my port");
    ofputil_port_map_put(&map, 3, "twice");
    ofputil_port_map_put(&map, 4, "twice");
    ofputil_port_map_put(&map, 5, "123");

    char *s = format_port(1, &map);
    ck_assert_str_eq(s, "p1");
    free(s);
    s = format_port(2, &map);
    ck_assert_str_eq(s, "\"my port\"");
    free(s);
    s = format_port(5, &map);
    ck_assert_str_eq(s, "\"123\"");
    free(s);
    /* Ambiguous names print as numbers. */
    s = format_port(3, &map);
    ck_assert_str_eq(s, "3");
    free(s);
    s = format_port(OFPP_LOCAL, &map);
    ck_assert_str_eq(s, "LOCAL");
    free(s);

    uint32_t port;
    ck_assert(ofputil_port_from_string("p1", &map, &port));
    ck_assert_uint_eq(port, 1);
    ck_assert(ofputil_port_from_string("\"my port\"", &map, &port));
    ck_assert_uint_eq(port, 2);
    ck_assert(ofputil_port_from_string("\"p1\"", &map, &port));
    ck_assert_uint_eq(port, 1);
    ck_assert(!ofputil_port_from_string("twice", &map, &port));
    /* A quoted number is a name; a bare one is a number. */
    ck_assert(ofputil_port_from_string("\"123\"", &map, &port));
    ck_assert_uint_eq(port, 5);
    ck_assert(ofputil_port_from_string("123", &map, &port));
    ck_assert_uint_eq(port, 123);

    ck_assert_str_eq(ofputil_port_map_get_name(&map, 1), "p1");
    ck_assert_uint_eq(ofputil_port_map_get_number(&map, "my port"), 2);
    ofputil_port_map_destroy(&map);
}
END_TEST

START_TEST(test_port_name_quoting)
{
    static const struct {
        const char *name, *text;
    } cases[] = {
        { "eth0", "eth0" },
        { "br-int", "\"br-int\"" },
        { "p_1", "\"p_1\"" },
        { "xyzzy9", "xyzzy9" },
        { "a b", "\"a b\"" },
        { "q\"t", "\"q\\\"t\"" },
        { "b\\s", "\"b\\\\s\"" },
        { "1up", "\"1up\"" },
        { "x,y", "\"x,y\"" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct ds s = DS_EMPTY_INITIALIZER;
        ofputil_put_port_name(cases[i].name, &s);
        ck_assert_str_eq(ds_cstr(&s), cases[i].text);
        ds_destroy(&s);
    }
}
END_TEST

START_TEST(test_table_map)
{
    struct ofputil_table_map map;
    ofputil_table_map_init(&map);
    ofputil_table_map_put(&map, 3, "acl");

    uint8_t table;
    ck_assert(ofputil_table_from_string("acl", &map, &table));
    ck_assert_uint_eq(table, 3);
    ck_assert(ofputil_table_from_string("7", &map, &table));
    ck_assert_uint_eq(table, 7);
    ck_assert(!ofputil_table_from_string("nat", &map, &table));
    ck_assert(!ofputil_table_from_string("256", &map, &table));

    struct ds s = DS_EMPTY_INITIALIZER;
    ofputil_format_table(3, &map, &s);
    ds_put_char(&s, ' ');
    ofputil_format_table(4, &map, &s);
    ck_assert_str_eq(ds_cstr(&s), "acl 4");
    ds_destroy(&s);
    ofputil_table_map_destroy(&map);
}
END_TEST

static Suite *
ofp_port_suite(void)
{
    Suite *s = suite_create("ofp-port");
    TCase *tc = tcase_create("ofp-port");
    tcase_add_test(tc, test_port_text);
    tcase_add_test(tc, test_ofp11_numbers);
    tcase_add_test(tc, test_port_map);
    tcase_add_test(tc, test_port_name_quoting);
    tcase_add_test(tc, test_table_map);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_port_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
