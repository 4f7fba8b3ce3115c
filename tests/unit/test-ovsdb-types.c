/* Unit tests for ovsdb-types.h: parsing every RFC 7047 type form and
 * printing the canonical form that Open vSwitch 3.1 prints. */
#include <config.h>
#include "ovsdb-types.h"

#include <check.h>
#include "check-util.h"
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ovsdb-data.h"
#include "ovsdb-error.h"

static char *
to_text(json_t *json)
{
    char *s = json_dumps(json, JSON_COMPACT | JSON_SORT_KEYS
                         | JSON_ENCODE_ANY);
    json_decref(json);
    return s;
}

/* Parses type TEXT, which must succeed, into *TYPE. */
static void
parse_type(struct ovsdb_type *type, const char *text)
{
    json_t *json = check_json_parse(text);
    struct ovsdb_error *error = ovsdb_type_from_json(type, json);
    json_decref(json);
    if (error) {
        char *s = ovsdb_error_to_string_free(error);
        ck_abort_msg("%s: %s", text, s);
    }
    ck_assert(ovsdb_type_is_valid(type));
}

/* Checks that type TEXT parses and prints back as CANONICAL. */
static void
check_canonical(const char *text, const char *canonical)
{
    struct ovsdb_type type;
    parse_type(&type, text);
    char *s = to_text(ovsdb_type_to_json(&type));
    ck_assert_msg(!strcmp(s, canonical), "%s printed as %s, expected %s",
                  text, s, canonical);
    free(s);

    /* The canonical form parses to an equal type. */
    struct ovsdb_type again;
    parse_type(&again, canonical);
    ck_assert(ovsdb_type_equals(&type, &again));
    ovsdb_type_destroy(&again);
    ovsdb_type_destroy(&type);
}

/* Checks that type TEXT is rejected with error text ERROR_TEXT. */
static void
check_error(const char *text, const char *error_text)
{
    struct ovsdb_type type;
    json_t *json = check_json_parse(text);
    struct ovsdb_error *error = ovsdb_type_from_json(&type, json);
    json_decref(json);
    ck_assert_msg(error != NULL, "%s should not parse", text);
    ck_assert_str_eq(ovsdb_error_get_tag(error), "syntax error");
    char *s = ovsdb_error_to_string_free(error);
    ck_assert_msg(!strcmp(s, error_text), "%s: got \"%s\", expected \"%s\"",
                  text, s, error_text);
    free(s);
    ovsdb_type_destroy(&type);  /* Safe after an error too. */
}

START_TEST(test_atomic_type_names)
{
    static const char *names[] = { "integer", "real", "boolean", "string",
                                   "uuid" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        enum ovsdb_atomic_type type;
        ck_assert(ovsdb_atomic_type_from_string(names[i], &type));
        ck_assert_str_eq(ovsdb_atomic_type_to_string(type), names[i]);
    }
    enum ovsdb_atomic_type type;
    ck_assert(!ovsdb_atomic_type_from_string("void", &type));
    ck_assert(!ovsdb_atomic_type_from_string("int", &type));
    ck_assert_str_eq(ovsdb_atomic_type_to_string(OVSDB_TYPE_VOID), "void");
}
END_TEST

START_TEST(test_scalars)
{
    check_canonical("\"integer\"", "\"integer\"");
    check_canonical("\"real\"", "\"real\"");
    check_canonical("\"boolean\"", "\"boolean\"");
    check_canonical("\"string\"", "\"string\"");
    check_canonical("\"uuid\"", "\"uuid\"");
    /* Long forms of an unconstrained scalar print as the short form. */
    check_canonical("{\"key\": \"integer\"}", "\"integer\"");
    check_canonical("{\"key\": {\"type\": \"string\"}}", "\"string\"");
    check_canonical("{\"key\": \"real\", \"min\": 1, \"max\": 1}",
                    "\"real\"");

    struct ovsdb_type type;
    parse_type(&type, "\"string\"");
    ck_assert(ovsdb_type_is_scalar(&type));
    ck_assert(!ovsdb_type_is_optional(&type));
    ck_assert(!ovsdb_type_is_set(&type));
    ck_assert(!ovsdb_type_is_map(&type));
    ck_assert_int_eq(type.key.type, OVSDB_TYPE_STRING);
    ck_assert_int_eq(type.value.type, OVSDB_TYPE_VOID);
    ovsdb_type_destroy(&type);
}
END_TEST

START_TEST(test_sets_and_maps)
{
    /* Optional value: max 1 is the default and is not printed. */
    check_canonical("{\"key\": \"string\", \"min\": 0, \"max\": 1}",
                    "{\"key\":\"string\",\"min\":0}");
    check_canonical("{\"key\": \"string\", \"min\": 0}",
                    "{\"key\":\"string\",\"min\":0}");
    check_canonical("{\"key\": \"string\", \"min\": 1, \"max\": 3}",
                    "{\"key\":\"string\",\"max\":3}");
    check_canonical("{\"key\": \"uuid\", \"min\": 0, \"max\": \"unlimited\"}",
                    "{\"key\":\"uuid\",\"max\":\"unlimited\",\"min\":0}");
    check_canonical("{\"key\": \"string\", \"value\": \"string\", "
                    "\"min\": 0, \"max\": \"unlimited\"}",
                    "{\"key\":\"string\",\"max\":\"unlimited\",\"min\":0,"
                    "\"value\":\"string\"}");
    /* A map with exactly one pair. */
    check_canonical("{\"key\": \"integer\", \"value\": \"boolean\"}",
                    "{\"key\":\"integer\",\"value\":\"boolean\"}");

    struct ovsdb_type type;
    parse_type(&type, "{\"key\": \"string\", \"min\": 0, \"max\": 1}");
    ck_assert(ovsdb_type_is_optional_scalar(&type));
    ck_assert(ovsdb_type_is_set(&type));
    ck_assert(!ovsdb_type_is_composite(&type));
    ovsdb_type_destroy(&type);

    parse_type(&type, "{\"key\": \"string\", \"max\": \"unlimited\"}");
    ck_assert_uint_eq(type.n_min, 1);
    ck_assert_uint_eq(type.n_max, OVSDB_UNLIMITED);
    ck_assert(ovsdb_type_is_composite(&type));
    ovsdb_type_destroy(&type);

    parse_type(&type, "{\"key\": \"string\", \"value\": \"integer\", "
               "\"min\": 0, \"max\": 5}");
    ck_assert(ovsdb_type_is_map(&type));
    ck_assert(!ovsdb_type_is_set(&type));
    ck_assert_uint_eq(type.n_max, 5);
    ovsdb_type_destroy(&type);
}
END_TEST

START_TEST(test_constraints)
{
    check_canonical("{\"key\": {\"type\": \"integer\", \"minInteger\": 0, "
                    "\"maxInteger\": 4095}}",
                    "{\"key\":{\"maxInteger\":4095,\"minInteger\":0,"
                    "\"type\":\"integer\"}}");
    check_canonical("{\"key\": {\"type\": \"integer\", \"minInteger\": 3}, "
                    "\"min\": 0, \"max\": 1}",
                    "{\"key\":{\"minInteger\":3,\"type\":\"integer\"},"
                    "\"min\":0}");
    /* Integer-valued reals print without a fraction, as OVS prints them. */
    check_canonical("{\"key\": {\"type\": \"real\", \"minReal\": 1.0, "
                    "\"maxReal\": 2.5}}",
                    "{\"key\":{\"maxReal\":2.5,\"minReal\":1,"
                    "\"type\":\"real\"}}");
    check_canonical("{\"key\": {\"type\": \"real\", \"minReal\": -1}, "
                    "\"min\": 0}",
                    "{\"key\":{\"minReal\":-1,\"type\":\"real\"},\"min\":0}");
    check_canonical("{\"key\": {\"type\": \"string\", \"minLength\": 2, "
                    "\"maxLength\": 3}}",
                    "{\"key\":{\"maxLength\":3,\"minLength\":2,"
                    "\"type\":\"string\"}}");
    /* An enum of one atom prints bare; sets print sorted. */
    check_canonical("{\"key\": {\"type\": \"string\", \"enum\": \"only\"}}",
                    "{\"key\":{\"enum\":\"only\",\"type\":\"string\"}}");
    check_canonical("{\"key\": {\"type\": \"string\", \"enum\": "
                    "[\"set\", [\"b\", \"a\"]]}}",
                    "{\"key\":{\"enum\":[\"set\",[\"a\",\"b\"]],"
                    "\"type\":\"string\"}}");
    check_canonical("{\"key\": {\"type\": \"integer\", \"enum\": "
                    "[\"set\", [3, 1, 2]]}, \"min\": 0, \"max\": "
                    "\"unlimited\"}",
                    "{\"key\":{\"enum\":[\"set\",[1,2,3]],"
                    "\"type\":\"integer\"},\"max\":\"unlimited\",\"min\":0}");
    /* Strong is the default refType and is not printed. */
    check_canonical("{\"key\": {\"type\": \"uuid\", \"refTable\": \"B\", "
                    "\"refType\": \"strong\"}, \"min\": 0, \"max\": 1}",
                    "{\"key\":{\"refTable\":\"B\",\"type\":\"uuid\"},"
                    "\"min\":0}");
    check_canonical("{\"key\": {\"type\": \"uuid\", \"refTable\": \"A\", "
                    "\"refType\": \"weak\"}}",
                    "{\"key\":{\"refTable\":\"A\",\"refType\":\"weak\","
                    "\"type\":\"uuid\"}}");
    check_canonical("{\"key\": \"string\", \"value\": {\"type\": \"uuid\", "
                    "\"refTable\": \"Datapath\"}, \"min\": 0, \"max\": "
                    "\"unlimited\"}",
                    "{\"key\":\"string\",\"max\":\"unlimited\",\"min\":0,"
                    "\"value\":{\"refTable\":\"Datapath\",\"type\":\"uuid\"}}");

    struct ovsdb_type type;
    parse_type(&type, "{\"key\": {\"type\": \"uuid\", \"refTable\": \"A\", "
               "\"refType\": \"weak\"}}");
    ck_assert(ovsdb_base_type_is_ref(&type.key));
    ck_assert(ovsdb_base_type_is_weak_ref(&type.key));
    ck_assert(!ovsdb_base_type_is_strong_ref(&type.key));
    ck_assert_str_eq(type.key.u.uuid.refTableName, "A");
    ck_assert_ptr_null(type.key.u.uuid.refTable);
    ovsdb_type_destroy(&type);

    parse_type(&type, "{\"key\": {\"type\": \"integer\", \"maxInteger\": 7}}");
    ck_assert(ovsdb_base_type_has_constraints(&type.key));
    ck_assert(type.key.u.integer.min == INT64_MIN);
    ck_assert(type.key.u.integer.max == 7);
    ovsdb_base_type_clear_constraints(&type.key);
    ck_assert(!ovsdb_base_type_has_constraints(&type.key));
    ovsdb_type_destroy(&type);
}
END_TEST

START_TEST(test_errors)
{
    /* Wording checked against Open vSwitch 3.1's ovsdb-tool. */
    check_error("\"int\"", "syntax \"\"int\"\": syntax error: \"int\" is not "
                "an atomic-type");
    check_error("{\"key\": \"void\"}", "syntax \"\"void\"\": syntax error: "
                "\"void\" is not an atomic-type");
    check_error("{\"key\": \"integer\", \"min\": 2}",
                "syntax \"{\"key\":\"integer\",\"min\":2}\": syntax error: "
                "ovsdb type fails constraint checks");
    check_error("{\"key\": \"integer\", \"max\": 0}",
                "syntax \"{\"key\":\"integer\",\"max\":0}\": syntax error: "
                "ovsdb type fails constraint checks");
    check_error("{\"key\": \"integer\", \"max\": \"foo\"}",
                "syntax \"\"foo\"\": syntax error: bad min or max value");
    check_error("{\"key\": \"integer\", \"min\": \"1\"}",
                "syntax \"{\"key\":\"integer\",\"min\":\"1\"}\": syntax "
                "error: Parsing ovsdb type failed: Type mismatch for member "
                "'min'.");
    check_error("{\"value\": \"integer\"}",
                "syntax \"{\"value\":\"integer\"}\": syntax error: Parsing "
                "ovsdb type failed: Required 'key' member is missing.");
    check_error("{\"key\": {\"type\": \"integer\", \"minInteger\": 5, "
                "\"maxInteger\": 1}}",
                "syntax \"{\"maxInteger\":1,\"minInteger\":5,\"type\":"
                "\"integer\"}\": syntax error: minInteger exceeds maxInteger");
    check_error("{\"key\": {\"type\": \"real\", \"minReal\": 5, "
                "\"maxReal\": 1}}",
                "syntax \"{\"maxReal\":1,\"minReal\":5,\"type\":\"real\"}\": "
                "syntax error: minReal exceeds maxReal");
    check_error("{\"key\": {\"type\": \"string\", \"minLength\": 3, "
                "\"maxLength\": 2}}",
                "syntax \"{\"maxLength\":2,\"minLength\":3,\"type\":"
                "\"string\"}\": syntax error: minLength exceeds maxLength");
    check_error("{\"key\": {\"type\": \"string\", \"minLength\": -1}}",
                "syntax \"-1\": syntax error: minLength out of valid range "
                "0 to 4294967295");
    check_error("{\"key\": {\"type\": \"integer\", \"minInteger\": 1.5}}",
                "syntax \"{\"minInteger\":1.5,\"type\":\"integer\"}\": "
                "syntax error: Parsing ovsdb type failed: Type mismatch for "
                "member 'minInteger'.");
    check_error("{\"key\": {\"type\": \"uuid\", \"refTable\": \"a\", "
                "\"refType\": \"foo\"}}",
                "syntax \"{\"refTable\":\"a\",\"refType\":\"foo\",\"type\":"
                "\"uuid\"}\": syntax error: refType must be \"strong\" or "
                "\"weak\" (not \"foo\")");
    check_error("{\"key\": {\"type\": \"boolean\", \"minLength\": 1}}",
                "syntax \"{\"minLength\":1,\"type\":\"boolean\"}\": syntax "
                "error: Parsing ovsdb type failed: Member 'minLength' is "
                "present but not allowed here.");
    /* Next to an enum, other constraints are not allowed. */
    check_error("{\"key\": {\"type\": \"integer\", \"enum\": [\"set\", "
                "[1, 2]], \"maxInteger\": 1}}",
                "syntax \"{\"enum\":[\"set\",[1,2]],\"maxInteger\":1,"
                "\"type\":\"integer\"}\": syntax error: Parsing ovsdb type "
                "failed: Member 'maxInteger' is present but not allowed "
                "here.");
    check_error("{\"key\": {\"type\": \"string\", \"enum\": [\"set\", []]}}",
                "syntax \"[\"set\",[]]\": syntax error: set must have 1 to "
                "4294967295 members but 0 are present");
    check_error("{\"key\": {\"type\": \"integer\", \"enum\": "
                "[\"set\", [\"a\"]]}}",
                "syntax \"\"a\"\": syntax error: expected integer");
    check_error("3", "syntax \"3\": syntax error: ovsdb type expected");
}
END_TEST

START_TEST(test_clone_equals_english)
{
    static const struct {
        const char *type;
        const char *english;
    } cases[] = {
        { "\"integer\"", "integer" },
        { "{\"key\": \"string\", \"min\": 0, \"max\": \"unlimited\"}",
          "set of strings" },
        { "{\"key\": \"string\", \"max\": \"unlimited\"}",
          "set of 1 or more strings" },
        { "{\"key\": \"uuid\", \"min\": 0, \"max\": 1}",
          "set of up to 1 uuids" },
        { "{\"key\": \"integer\", \"min\": 1, \"max\": 4}",
          "set of 1 to 4 integers" },
        { "{\"key\": \"string\", \"value\": \"integer\", \"min\": 0, "
          "\"max\": \"unlimited\"}", "map of (string, integer) pairs" },
    };

    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct ovsdb_type type, clone;
        parse_type(&type, cases[i].type);
        char *english = ovsdb_type_to_english(&type);
        ck_assert_str_eq(english, cases[i].english);
        free(english);

        ovsdb_type_clone(&clone, &type);
        ck_assert(ovsdb_type_equals(&type, &clone));
        ovsdb_type_destroy(&type);
        ovsdb_type_destroy(&clone);
    }

    /* Deep copies: enum and refTable survive the original. */
    struct ovsdb_type a, b, c;
    parse_type(&a, "{\"key\": {\"type\": \"string\", \"enum\": "
               "[\"set\", [\"x\", \"y\"]]}}");
    ovsdb_type_clone(&b, &a);
    ovsdb_type_destroy(&a);
    char *s = to_text(ovsdb_type_to_json(&b));
    ck_assert_str_eq(s, "{\"key\":{\"enum\":[\"set\",[\"x\",\"y\"]],"
                     "\"type\":\"string\"}}");
    free(s);
    parse_type(&c, "{\"key\": {\"type\": \"string\", \"enum\": "
               "[\"set\", [\"x\", \"z\"]]}}");
    ck_assert(!ovsdb_type_equals(&b, &c));
    ovsdb_type_destroy(&b);
    ovsdb_type_destroy(&c);

    parse_type(&a, "{\"key\": {\"type\": \"uuid\", \"refTable\": \"T\"}}");
    ovsdb_type_clone(&b, &a);
    ovsdb_type_destroy(&a);
    ck_assert_str_eq(b.key.u.uuid.refTableName, "T");
    parse_type(&c, "{\"key\": {\"type\": \"uuid\", \"refTable\": \"T\", "
               "\"refType\": \"weak\"}}");
    ck_assert(!ovsdb_type_equals(&b, &c));
    ovsdb_type_destroy(&b);
    ovsdb_type_destroy(&c);

    /* Built by hand. */
    ovsdb_type_init_scalar(&a, OVSDB_TYPE_REAL);
    ck_assert(ovsdb_type_is_valid(&a));
    ck_assert(a.key.u.real.min == -DBL_MAX && a.key.u.real.max == DBL_MAX);
    s = to_text(ovsdb_type_to_json(&a));
    ck_assert_str_eq(s, "\"real\"");
    free(s);
    a.n_min = 2;
    ck_assert(!ovsdb_type_is_valid(&a));
    ovsdb_type_destroy(&a);
}
END_TEST

static Suite *
ovsdb_types_suite(void)
{
    Suite *s = suite_create("ovsdb-types");
    TCase *tc = tcase_create("ovsdb-types");
    tcase_add_test(tc, test_atomic_type_names);
    tcase_add_test(tc, test_scalars);
    tcase_add_test(tc, test_sets_and_maps);
    tcase_add_test(tc, test_constraints);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_clone_equals_english);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ovsdb_types_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
