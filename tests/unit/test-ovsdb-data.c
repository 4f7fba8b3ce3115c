/* Unit tests for ovsdb-data.h: atoms and datums in JSON (RFC 7047 5.1) and
 * in the text forms of ovs-vsctl, constraint checking with Open vSwitch's
 * wording, the set operations, diffs, and symbol tables.  Expected texts
 * were checked against Open vSwitch 3.1 (ovsdb-server and ovs-vsctl). */
#include <config.h>
#include "ovsdb-data.h"

#include <check.h>
#include "check-util.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ovsdb-error.h"
#include "smap.h"

static char *
to_text(json_t *json)
{
    char *s = json_dumps(json, JSON_COMPACT | JSON_SORT_KEYS
                         | JSON_ENCODE_ANY);
    json_decref(json);
    return s;
}

static void
parse_type(struct ovsdb_type *type, const char *text)
{
    json_t *json = check_json_parse(text);
    struct ovsdb_error *error = ovsdb_type_from_json(type, json);
    json_decref(json);
    ck_assert_ptr_null(error);
}

/* Parses DATUM (JSON text) as TYPE (JSON text); returns NULL and fills
 * *DATUM, or the error as a JSON object text (caller frees). */
static char *
datum_from_json_text(struct ovsdb_datum *datum, const struct ovsdb_type *type,
                     const char *text, struct ovsdb_symbol_table *symtab)
{
    json_t *json = check_json_parse(text);
    struct ovsdb_error *error = ovsdb_datum_from_json(datum, type, json,
                                                      symtab);
    json_decref(json);
    return error ? to_text(ovsdb_error_to_json_free(error)) : NULL;
}

/* Checks that JSON text IN parses as TYPE_TEXT and prints back as JSON
 * OUT_JSON and as the ovs-vsctl text OUT_TEXT. */
static void
check_json(const char *type_text, const char *in, const char *out_json,
           const char *out_text)
{
    struct ovsdb_type type;
    struct ovsdb_datum datum;
    parse_type(&type, type_text);

    char *error = datum_from_json_text(&datum, &type, in, NULL);
    ck_assert_msg(!error, "%s: %s", in, error);

    char *s = to_text(ovsdb_datum_to_json(&datum, &type));
    ck_assert_msg(!strcmp(s, out_json), "%s printed as %s, expected %s",
                  in, s, out_json);
    free(s);

    struct ds ds = DS_EMPTY_INITIALIZER;
    ovsdb_datum_to_string(&datum, &type, &ds);
    ck_assert_msg(!strcmp(ds_cstr(&ds), out_text),
                  "%s as text: %s, expected %s", in, ds_cstr(&ds), out_text);

    /* The text form reads back as the same datum. */
    struct ovsdb_datum again;
    char *msg = ovsdb_datum_from_string(&again, &type, ds_cstr(&ds), NULL);
    ck_assert_msg(!msg, "%s: %s", ds_cstr(&ds), msg);
    ck_assert(ovsdb_datum_equals(&datum, &again, &type));
    ck_assert_uint_eq(ovsdb_datum_hash(&datum, &type, 0),
                      ovsdb_datum_hash(&again, &type, 0));
    ovsdb_datum_destroy(&again, &type);
    ds_destroy(&ds);

    ovsdb_datum_destroy(&datum, &type);
    ovsdb_type_destroy(&type);
}

/* Checks that JSON text IN does not parse as TYPE_TEXT, with error object
 * ERROR_JSON (compact, sorted). */
static void
check_json_error(const char *type_text, const char *in,
                 const char *error_json)
{
    struct ovsdb_type type;
    struct ovsdb_datum datum;
    parse_type(&type, type_text);

    char *error = datum_from_json_text(&datum, &type, in, NULL);
    ck_assert_msg(error != NULL, "%s should not parse", in);
    ck_assert_msg(!strcmp(error, error_json), "%s: got %s, expected %s",
                  in, error, error_json);
    ck_assert_uint_eq(datum.n, 0);
    free(error);
    ovsdb_type_destroy(&type);
}

/* Checks that text IN (ovs-vsctl syntax) parses as TYPE_TEXT and prints
 * as OUT; or, if OUT starts with "error: ", fails with that message. */
static void
check_string(const char *type_text, const char *in, const char *out)
{
    struct ovsdb_type type;
    struct ovsdb_datum datum;
    parse_type(&type, type_text);

    char *error = ovsdb_datum_from_string(&datum, &type, in, NULL);
    if (!strncmp(out, "error: ", 7)) {
        ck_assert_msg(error != NULL, "%s should not parse", in);
        ck_assert_msg(!strcmp(error, out + 7), "%s: got \"%s\", "
                      "expected \"%s\"", in, error, out + 7);
        free(error);
    } else {
        ck_assert_msg(!error, "%s: %s", in, error);
        struct ds ds = DS_EMPTY_INITIALIZER;
        ovsdb_datum_to_string(&datum, &type, &ds);
        ck_assert_msg(!strcmp(ds_cstr(&ds), out), "%s printed as %s, "
                      "expected %s", in, ds_cstr(&ds), out);
        ds_destroy(&ds);
        ovsdb_datum_destroy(&datum, &type);
    }
    ovsdb_type_destroy(&type);
}

#define STRING_MAP "{\"key\": \"string\", \"value\": \"string\", " \
                   "\"min\": 0, \"max\": \"unlimited\"}"
#define INTEGER_SET "{\"key\": \"integer\", \"min\": 0, " \
                    "\"max\": \"unlimited\"}"
#define STRING_SET "{\"key\": \"string\", \"min\": 0, \"max\": \"unlimited\"}"

START_TEST(test_atoms_json)
{
    check_json("\"integer\"", "-5", "-5", "-5");
    check_json("\"integer\"", "9223372036854775807", "9223372036854775807",
               "9223372036854775807");
    check_json("\"real\"", "1.5", "1.5", "1.5");
    /* Reals accept integers; integer-valued reals print as OVS prints
     * them, without a fraction. */
    check_json("\"real\"", "2", "2", "2");
    check_json("\"real\"", "2.0", "2", "2");
    check_json("\"real\"", "-0.0", "0", "0");
    check_json("\"real\"", "1e300", "1.0000000000000001e300", "1e+300");
    check_json("\"boolean\"", "true", "true", "true");
    check_json("\"boolean\"", "false", "false", "false");
    check_json("\"string\"", "\"br0\"", "\"br0\"", "br0");
    check_json("\"string\"", "\"\"", "\"\"", "\"\"");
    check_json("\"uuid\"",
               "[\"uuid\", \"9a025bdc-a23f-4cdd-8002-6e731aef4740\"]",
               "[\"uuid\",\"9a025bdc-a23f-4cdd-8002-6e731aef4740\"]",
               "9a025bdc-a23f-4cdd-8002-6e731aef4740");
    /* A set of exactly one element may come in either form. */
    check_json("\"integer\"", "[\"set\", [7]]", "7", "7");
}
END_TEST

START_TEST(test_atom_json_errors)
{
    check_json_error("\"integer\"", "1.5",
                     "{\"details\":\"expected integer\",\"error\":\"syntax "
                     "error\",\"syntax\":\"1.5\"}");
    check_json_error("\"real\"", "\"x\"",
                     "{\"details\":\"expected real\",\"error\":\"syntax "
                     "error\",\"syntax\":\"\\\"x\\\"\"}");
    check_json_error("\"boolean\"", "1",
                     "{\"details\":\"expected boolean\",\"error\":\"syntax "
                     "error\",\"syntax\":\"1\"}");
    check_json_error("\"string\"", "null",
                     "{\"details\":\"expected string\",\"error\":\"syntax "
                     "error\",\"syntax\":\"null\"}");
    check_json_error("\"uuid\"", "[\"uuid\", \"xyz\"]",
                     "{\"details\":\"\\\"xyz\\\" is not a valid UUID\","
                     "\"error\":\"syntax error\",\"syntax\":"
                     "\"[\\\"uuid\\\",\\\"xyz\\\"]\"}");
    check_json_error("\"uuid\"", "[\"foo\", \"xyz\"]",
                     "{\"details\":\"expected [\\\"uuid\\\", <string>]\","
                     "\"error\":\"syntax error\",\"syntax\":"
                     "\"[\\\"foo\\\",\\\"xyz\\\"]\"}");
    /* Without a symbol table, named-uuid is not allowed. */
    check_json_error("\"uuid\"", "[\"named-uuid\", \"row\"]",
                     "{\"details\":\"expected [\\\"uuid\\\", <string>]\","
                     "\"error\":\"syntax error\",\"syntax\":"
                     "\"[\\\"named-uuid\\\",\\\"row\\\"]\"}");
}
END_TEST

START_TEST(test_constraint_violations)
{
    static const struct {
        const char *type, *value, *details;
    } cases[] = {
        { "{\"key\": {\"type\": \"integer\", \"minInteger\": 0, "
          "\"maxInteger\": 4}}", "5",
          "5 is not in the valid range 0 to 4 (inclusive)" },
        { "{\"key\": {\"type\": \"integer\", \"minInteger\": 3}}", "2",
          "2 is less than minimum allowed value 3" },
        { "{\"key\": {\"type\": \"integer\", \"maxInteger\": 3}}", "4",
          "4 is greater than maximum allowed value 3" },
        { "{\"key\": {\"type\": \"real\", \"minReal\": 1, \"maxReal\": 2.5}}",
          "3.5", "3.5 is not in the valid range 1 to 2.5 (inclusive)" },
        { "{\"key\": {\"type\": \"real\", \"minReal\": -1}}", "-2.5",
          "-2.5 is less than minimum allowed value -1" },
        { "{\"key\": {\"type\": \"real\", \"maxReal\": 0.5}}", "1",
          "1 is greater than maximum allowed value 0.5" },
        { "{\"key\": {\"type\": \"string\", \"enum\": [\"set\", [\"a\", "
          "\"b\"]]}}", "\"foo\"",
          "foo is not one of the allowed values ([a, b])" },
        { "{\"key\": {\"type\": \"string\", \"enum\": [\"set\", [\"a\", "
          "\"b\"]]}}", "\"\"",
          "\"\" is not one of the allowed values ([a, b])" },
        { "{\"key\": {\"type\": \"integer\", \"enum\": [\"set\", [3, 1, "
          "2]]}, \"min\": 0, \"max\": \"unlimited\"}", "[\"set\", [4]]",
          "4 is not one of the allowed values ([1, 2, 3])" },
        { "{\"key\": {\"type\": \"string\", \"minLength\": 2, "
          "\"maxLength\": 3}}", "\"x\"",
          "\"x\" length 1 is less than minimum allowed length 2" },
        { "{\"key\": {\"type\": \"string\", \"minLength\": 2, "
          "\"maxLength\": 3}}", "\"xyzw\"",
          "\"xyzw\" length 4 is greater than maximum allowed length 3" },
        /* Lengths count UTF-8 characters, not bytes. */
        { "{\"key\": {\"type\": \"string\", \"maxLength\": 3}}",
          "\"\\u00e9\\u00e9\\u00e9\\u00e9\"",
          "\"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\" length 4 is greater than "
          "maximum allowed length 3" },
        /* Map values are checked too. */
        { "{\"key\": \"string\", \"value\": {\"type\": \"integer\", "
          "\"maxInteger\": 1}, \"min\": 0, \"max\": \"unlimited\"}",
          "[\"map\", [[\"a\", 1], [\"b\", 2]]]",
          "2 is greater than maximum allowed value 1" },
    };

    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct ovsdb_type type;
        struct ovsdb_datum datum;
        parse_type(&type, cases[i].type);
        char *error = datum_from_json_text(&datum, &type, cases[i].value,
                                           NULL);
        /* The details are JSON-escaped in the object. */
        json_t *exp_json = json_pack("{s:s,s:s}", "details", cases[i].details,
                                     "error", "constraint violation");
        char *exp_text = to_text(exp_json);
        ck_assert_msg(error && !strcmp(error, exp_text), "%s: got %s, "
                      "expected %s", cases[i].value, error, exp_text);
        free(exp_text);
        free(error);
        ovsdb_type_destroy(&type);
    }

    /* Within the constraints: fine, and checkable after the fact. */
    struct ovsdb_type type;
    struct ovsdb_datum datum;
    parse_type(&type, "{\"key\": {\"type\": \"string\", \"minLength\": 2}, "
               "\"min\": 0, \"max\": \"unlimited\"}");
    ck_assert_ptr_null(datum_from_json_text(&datum, &type,
                                            "[\"set\", [\"ab\", \"cd\"]]",
                                            NULL));
    ck_assert_ptr_null(ovsdb_datum_check_constraints(&datum, &type));
    free(datum.keys[1].string);
    datum.keys[1].string = xstrdup("c");
    struct ovsdb_error *error = ovsdb_datum_check_constraints(&datum, &type);
    ck_assert_ptr_nonnull(error);
    char *s = ovsdb_error_to_string_free(error);
    ck_assert_str_eq(s, "constraint violation: \"c\" length 1 is less than "
                     "minimum allowed length 2");
    free(s);
    ovsdb_datum_destroy(&datum, &type);
    ovsdb_type_destroy(&type);

    /* Invalid UTF-8 (only possible through the text form). */
    parse_type(&type, "\"string\"");
    union ovsdb_atom atom;
    char *msg = ovsdb_atom_from_string(&atom, &type.key, "a\xc3(", NULL);
    ck_assert_str_eq(msg, "constraint violation: not a valid UTF-8 string: "
                     "invalid UTF-8 sequence 0xc3 0x28");
    free(msg);
    msg = ovsdb_atom_from_string(&atom, &type.key, "\xed\xa0\x80", NULL);
    ck_assert_ptr_nonnull(msg);     /* A UTF-16 surrogate. */
    free(msg);
    msg = ovsdb_atom_from_string(&atom, &type.key, "\xc0\xaf", NULL);
    ck_assert_ptr_nonnull(msg);     /* Overlong. */
    free(msg);
    ovsdb_type_destroy(&type);
}
END_TEST

START_TEST(test_sets_and_maps_json)
{
    check_json(INTEGER_SET, "[\"set\", [3, 1, 2]]", "[\"set\",[1,2,3]]",
               "[1, 2, 3]");
    check_json(INTEGER_SET, "[\"set\", []]", "[\"set\",[]]", "[]");
    check_json(INTEGER_SET, "5", "5", "[5]");
    check_json("{\"key\": \"string\", \"min\": 0, \"max\": 1}",
               "[\"set\", []]", "[\"set\",[]]", "[]");
    check_json("{\"key\": \"string\", \"min\": 0, \"max\": 1}",
               "\"x\"", "\"x\"", "x");
    check_json(STRING_MAP, "[\"map\", [[\"b\", \"2\"], [\"a\", \"1\"]]]",
               "[\"map\",[[\"a\",\"1\"],[\"b\",\"2\"]]]",
               "{a=\"1\", b=\"2\"}");
    check_json(STRING_MAP, "[\"map\", []]", "[\"map\",[]]", "{}");
    check_json("{\"key\": \"integer\", \"value\": \"boolean\"}",
               "[\"map\", [[1, true]]]", "[\"map\",[[1,true]]]", "1=true");

    check_json_error("{\"key\": \"string\", \"min\": 1, \"max\": 3}",
                     "[\"set\", []]",
                     "{\"details\":\"set must have 1 to 3 members but 0 are "
                     "present\",\"error\":\"syntax error\",\"syntax\":"
                     "\"[\\\"set\\\",[]]\"}");
    check_json_error("\"integer\"", "[\"set\", [1, 2]]",
                     "{\"details\":\"set must have exactly one member but 2 "
                     "are present\",\"error\":\"syntax error\",\"syntax\":"
                     "\"[\\\"set\\\",[1,2]]\"}");
    check_json_error(STRING_SET, "[\"set\", [\"a\", \"a\"]]",
                     "{\"details\":\"set contains duplicate\",\"error\":"
                     "\"ovsdb error\"}");
    check_json_error(STRING_MAP, "[\"map\", [[\"a\", \"1\"], [\"a\", \"2\"]]]",
                     "{\"details\":\"map contains duplicate key\",\"error\":"
                     "\"ovsdb error\"}");
    check_json_error(STRING_MAP, "[\"map\", [[\"a\"]]]",
                     "{\"details\":\"expected 2-element array\",\"error\":"
                     "\"syntax error\",\"syntax\":\"[\\\"a\\\"]\"}");
    check_json_error(STRING_MAP, "[\"set\", []]",
                     "{\"details\":\"expected [\\\"map\\\", <array>]\","
                     "\"error\":\"syntax error\",\"syntax\":"
                     "\"[\\\"set\\\",[]]\"}");
    check_json_error(STRING_MAP, "{}",
                     "{\"details\":\"expected [\\\"map\\\", <array>]\","
                     "\"error\":\"syntax error\",\"syntax\":\"{}\"}");
}
END_TEST

START_TEST(test_string_quoting)
{
    /* How ovs-vsctl prints strings: bare only when they read back as the
     * same string. */
    static const struct {
        const char *value;      /* JSON string literal. */
        const char *text;
    } cases[] = {
        { "\"\"", "\"\"" },
        { "\"123\"", "\"123\"" },
        { "\"-1\"", "\"-1\"" },
        { "\"1.5\"", "\"1.5\"" },
        { "\"a b\"", "\"a b\"" },
        { "\"x=y\"", "\"x=y\"" },
        { "\"a:b\"", "\"a:b\"" },
        { "\"a,b\"", "\"a,b\"" },
        { "\"[x]\"", "\"[x]\"" },
        { "\"a@b\"", "\"a@b\"" },
        { "\"a/b\"", "\"a/b\"" },
        { "\"true\"", "\"true\"" },
        { "\"false\"", "\"false\"" },
        { "\"9a025bdc-a23f-4cdd-8002-6e731aef4740\"",
          "\"9a025bdc-a23f-4cdd-8002-6e731aef4740\"" },
        { "\"a\\\"b\"", "\"a\\\"b\"" },
        { "\"a\\\\b\"", "\"a\\\\b\"" },
        { "\"tab\\there\"", "\"tab\\there\"" },
        { "\"\\u0001\\u001f\"", "\"\\u0001\\u001f\"" },
        { "\"\\u00e9\"", "\"\xc3\xa9\"" },
        { "\"abc\"", "abc" },
        { "\"a.b-c_d\"", "a.b-c_d" },
        { "\"_x\"", "_x" },
        { "\"Ab9\"", "Ab9" },
        { "\"9a025bdc\"", "\"9a025bdc\"" },
        { "\"yes\"", "yes" },
        { "\"null\"", "null" },
    };

    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *json = check_json_parse(cases[i].value);
        union ovsdb_atom atom;
        struct ovsdb_base_type base;
        ovsdb_base_type_init(&base, OVSDB_TYPE_STRING);
        ck_assert_ptr_null(ovsdb_atom_from_json(&atom, &base, json, NULL));

        struct ds ds = DS_EMPTY_INITIALIZER;
        ovsdb_atom_to_string(&atom, OVSDB_TYPE_STRING, &ds);
        ck_assert_msg(!strcmp(ds_cstr(&ds), cases[i].text),
                      "%s printed as %s, expected %s", cases[i].value,
                      ds_cstr(&ds), cases[i].text);

        /* And reads back. */
        union ovsdb_atom again;
        char *msg = ovsdb_atom_from_string(&again, &base, ds_cstr(&ds), NULL);
        ck_assert_msg(!msg, "%s: %s", ds_cstr(&ds), msg);
        ck_assert_str_eq(again.string, atom.string);
        ovsdb_atom_destroy(&again, OVSDB_TYPE_STRING);

        /* --bare never quotes. */
        ds_clear(&ds);
        ovsdb_atom_to_bare(&atom, OVSDB_TYPE_STRING, &ds);
        ck_assert_str_eq(ds_cstr(&ds), atom.string);

        ds_destroy(&ds);
        ovsdb_atom_destroy(&atom, OVSDB_TYPE_STRING);
        ovsdb_base_type_destroy(&base);
        json_decref(json);
    }
}
END_TEST

START_TEST(test_from_string)
{
    /* Maps, with and without braces. */
    check_string(STRING_MAP, "{k=\"\"}", "{k=\"\"}");
    check_string(STRING_MAP, "k=\"a b\"", "{k=\"a b\"}");
    check_string(STRING_MAP, "{k=\"x=y\", a=true}", "{a=\"true\", k=\"x=y\"}");
    check_string(STRING_MAP, "{k=\"a\\\"b\"}", "{k=\"a\\\"b\"}");
    check_string(STRING_MAP, "{}", "{}");
    check_string(STRING_MAP, " { a = b , c = d } ", "{a=b, c=d}");
    check_string(STRING_MAP, "a\\=b=c", "{\"a=b\"=c}");
    check_string(STRING_MAP, "", "error: use \"{}\" to specify the empty map");
    check_string(STRING_MAP, "{k=}", "error: An empty string is not valid as "
                 "input; use \"\" to represent the empty string");
    check_string(STRING_MAP, "{k=a", "error: {k=a: missing \"}\" at end of "
                 "data");
    check_string(STRING_MAP, "{k=a}x", "error: {k=a}x: trailing garbage "
                 "after \"}\"");
    check_string(STRING_MAP, "{k=a,k=b}", "error: {k=a,k=b}: map contains "
                 "duplicate key");
    check_string(STRING_MAP, "{=\"a\"}", "error: {=\"a\"}: unexpected \"=\" "
                 "parsing map of (string, string) pairs");
    check_string(STRING_MAP, "{k=\"abc}", "error: \"abc}: quoted string "
                 "extends past end of argument");
    check_string(STRING_MAP, "k\\", "error: k\\: backslash at end of "
                 "argument");
    check_string(STRING_MAP, "{k=\"\\q\"}", "error: \"\\q\": bad escape \\q");
    check_string(STRING_MAP, "k=\"\\u00e9\\ud83d\\ude00\\/\"",
                 "{k=\"\xc3\xa9\xf0\x9f\x98\x80/\"}");
    check_string(STRING_MAP, "k=\"a\nb\"", "{k=\"a\\nb\"}");
    check_string(STRING_MAP, "k=\"\\u12\"", "error: \"\\u12\": quoted string "
                 "ends within \\u escape");
    check_string(STRING_MAP, "k=\"\\ud800\"", "error: \"\\ud800\": malformed "
                 "escaped surrogate pair");
    check_string(STRING_MAP, "k=\"\\u0000\"", "error: \"\\u0000\": null bytes "
                 "not supported in quoted strings");
    check_string(STRING_MAP, "k=\"\\dc00x\"", "error: \"\\dc00x\": bad escape "
                 "\\d");

    /* Sets. */
    check_string(STRING_SET, "[b, a, \"a b\"]", "[a, \"a b\", b]");
    check_string(STRING_SET, "c,d", "[c, d]");
    check_string(STRING_SET, "[]", "[]");
    check_string(STRING_SET, "a,a", "error: a,a: set contains duplicate "
                 "value");
    check_string(STRING_SET, "", "error: use \"[]\" to specify the empty "
                 "set");
    check_string("{\"key\": \"string\", \"min\": 0, \"max\": 1}", "[x,y]",
                 "error: [x,y]: 2 value(s) specified but the maximum number "
                 "is 1");
    check_string("{\"key\": \"string\", \"min\": 0, \"max\": 1}", "[]", "[]");
    check_string("{\"key\": \"string\", \"min\": 0, \"max\": 1}", "x", "x");

    /* Scalars. */
    check_string("\"integer\"", " 7 ", "7");
    check_string("\"integer\"", "+7", "7");
    check_string("\"integer\"", "010", "10");
    check_string("\"integer\"", "[]", "error: []: 0 value(s) specified but "
                 "the minimum number is 1");
    check_string("\"integer\"", "1.5", "error: \"1.5\" is not a valid "
                 "integer or range");
    check_string("\"integer\"", "0x10", "error: \"0x10\" is not a valid "
                 "integer or range");
    check_string("\"integer\"", "99999999999999999999", "error: "
                 "\"99999999999999999999\" is not a valid integer or range");
    check_string("\"real\"", "1.5", "1.5");
    check_string("\"real\"", "-0", "0");
    check_string("\"real\"", "x", "error: \"x\" is not a valid real number");
    check_string("\"boolean\"", "yes", "true");
    check_string("\"boolean\"", "on", "true");
    check_string("\"boolean\"", "1", "true");
    check_string("\"boolean\"", "off", "false");
    check_string("\"boolean\"", "True", "error: \"True\" is not a valid "
                 "boolean (use \"true\" or \"false\")");
    check_string("\"uuid\"", "9A025BDC-A23F-4CDD-8002-6E731AEF4740",
                 "9a025bdc-a23f-4cdd-8002-6e731aef4740");
    check_string("\"uuid\"", "@row", "error: \"@row\" is not a valid UUID");
    check_string("{\"key\": {\"type\": \"integer\", \"minInteger\": 0, "
                 "\"maxInteger\": 4095}}", "-3", "error: constraint "
                 "violation: -3 is not in the valid range 0 to 4095 "
                 "(inclusive)");
    check_string("{\"key\": {\"type\": \"string\", \"enum\": [\"set\", "
                 "[\"a\", \"b\"]]}}", "c", "error: constraint violation: c "
                 "is not one of the allowed values ([a, b])");
}
END_TEST

START_TEST(test_integer_ranges)
{
    /* ovs-vsctl accepts START-END for integer set elements. */
    check_string(INTEGER_SET, "1-3", "[1, 2, 3]");
    check_string(INTEGER_SET, "5-5", "[5]");
    check_string(INTEGER_SET, "[1-3, 7]", "[1, 2, 3, 7]");
    check_string(INTEGER_SET, "-5--2", "[-5, -4, -3, -2]");
    check_string(INTEGER_SET, "-3", "[-3]");
    check_string(INTEGER_SET, "9223372036854775806-9223372036854775807",
                 "[9223372036854775806, 9223372036854775807]");
    check_string(INTEGER_SET, "3-1", "error: \"3-1\" is not a valid range. "
                 "Range end cannot be before start.");
    check_string(INTEGER_SET, "1 - 3", "error: \"-\" is not a valid integer "
                 "or range");
    check_string(INTEGER_SET, "1-", "error: \"1-\" is not a valid integer "
                 "or range");
    check_string(INTEGER_SET, "1-3x", "error: \"1-3x\" is not a valid "
                 "integer or range");
    check_string(INTEGER_SET, "1-3,2", "error: 1-3,2: set contains "
                 "duplicate value");
    check_string(INTEGER_SET, "1-4097", "error: constraint violation: Range "
                 "\"1-4097\" is too big. Maximum allowed size is 4096.");
    check_string("{\"key\": {\"type\": \"integer\", \"minInteger\": 0, "
                 "\"maxInteger\": 4095}, \"min\": 0, \"max\": 4096}",
                 "1-5000", "error: constraint violation: 5000 is not in the "
                 "valid range 0 to 4095 (inclusive)");
    check_string("\"integer\"", "1-2", "error: 1-2: 2 value(s) specified but "
                 "the maximum number is 1");
    check_string("{\"key\": {\"type\": \"integer\", \"enum\": [\"set\", "
                 "[1, 3]]}, \"min\": 0, \"max\": \"unlimited\"}", "1-3",
                 "error: constraint violation: 2 is not one of the allowed "
                 "values ([1, 3])");

    struct ovsdb_type type;
    struct ovsdb_datum datum;
    parse_type(&type, INTEGER_SET);
    ck_assert_ptr_null(ovsdb_datum_from_string(&datum, &type, "1-4096",
                                               NULL));
    ck_assert_uint_eq(datum.n, 4096);
    ck_assert_int_eq(datum.keys[4095].integer, 4096);
    ovsdb_datum_destroy(&datum, &type);
    ovsdb_type_destroy(&type);
}
END_TEST

START_TEST(test_bare)
{
    struct ovsdb_type type;
    struct ovsdb_datum datum;
    struct ds ds = DS_EMPTY_INITIALIZER;

    parse_type(&type, STRING_MAP);
    ck_assert_ptr_null(ovsdb_datum_from_string(&datum, &type,
                                               "{b=\"x y\", a=\"\"}", NULL));
    ovsdb_datum_to_bare(&datum, &type, &ds);
    ck_assert_str_eq(ds_cstr(&ds), "a= b=x y");
    ovsdb_datum_destroy(&datum, &type);
    ovsdb_type_destroy(&type);

    ds_clear(&ds);
    parse_type(&type, INTEGER_SET);
    ck_assert_ptr_null(ovsdb_datum_from_string(&datum, &type, "[3, 1]",
                                               NULL));
    ovsdb_datum_to_bare(&datum, &type, &ds);
    ck_assert_str_eq(ds_cstr(&ds), "1 3");
    ovsdb_datum_destroy(&datum, &type);

    ds_clear(&ds);
    ovsdb_datum_init_empty(&datum);
    ovsdb_datum_to_bare(&datum, &type, &ds);
    ck_assert_str_eq(ds_cstr(&ds), "");
    ovsdb_type_destroy(&type);
    ds_destroy(&ds);
}
END_TEST

START_TEST(test_named_uuids)
{
    struct ovsdb_symbol_table *symtab = ovsdb_symbol_table_create();
    struct ovsdb_type type;
    struct ovsdb_datum datum;

    parse_type(&type, "{\"key\": {\"type\": \"uuid\", \"refTable\": \"T\"}, "
               "\"min\": 0, \"max\": \"unlimited\"}");
    char *error = datum_from_json_text(&datum, &type,
                                       "[\"set\", [[\"named-uuid\", \"a\"], "
                                       "[\"named-uuid\", \"b\"]]]", symtab);
    ck_assert_ptr_null(error);
    ck_assert_uint_eq(datum.n, 2);

    struct ovsdb_symbol *a = ovsdb_symbol_table_get(symtab, "a");
    struct ovsdb_symbol *b = ovsdb_symbol_table_get(symtab, "b");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert(a->strong_ref && !a->weak_ref && !a->created);
    ck_assert(!uuid_equals(&a->uuid, &b->uuid));
    union ovsdb_atom key = { .uuid = a->uuid };
    ck_assert_uint_ne(ovsdb_datum_find_key(&datum, &key, OVSDB_TYPE_UUID),
                      UINT_MAX);
    ovsdb_datum_destroy(&datum, &type);

    /* The same name resolves to the same uuid; find_uncreated names one
     * of the referenced symbols until they are created. */
    ck_assert_ptr_eq(ovsdb_symbol_table_insert(symtab, "a"), a);
    ck_assert_ptr_nonnull(ovsdb_symbol_table_find_uncreated(symtab));
    a->created = b->created = true;
    ck_assert_ptr_null(ovsdb_symbol_table_find_uncreated(symtab));

    struct uuid fixed;
    ck_assert(uuid_from_string(&fixed,
                               "9a025bdc-a23f-4cdd-8002-6e731aef4740"));
    struct ovsdb_symbol *c = ovsdb_symbol_table_put(symtab, "c", &fixed,
                                                    true);
    ck_assert(uuid_equals(&c->uuid, &fixed));
    ck_assert(c->created);

    error = datum_from_json_text(&datum, &type,
                                 "[\"named-uuid\", \"not valid\"]", symtab);
    ck_assert_ptr_nonnull(strstr(error, "named-uuid string is not a valid "
                                 "<id>"));
    free(error);
    ovsdb_type_destroy(&type);

    /* Weak references, and "@name" in the text form. */
    parse_type(&type, "{\"key\": {\"type\": \"uuid\", \"refTable\": \"T\", "
               "\"refType\": \"weak\"}}");
    ck_assert_ptr_null(ovsdb_datum_from_string(&datum, &type, "@w", symtab));
    struct ovsdb_symbol *w = ovsdb_symbol_table_get(symtab, "@w");
    ck_assert_ptr_nonnull(w);
    ck_assert(w->weak_ref && !w->strong_ref);
    ck_assert(uuid_equals(&datum.keys[0].uuid, &w->uuid));
    ovsdb_datum_destroy(&datum, &type);
    ovsdb_type_destroy(&type);

    ovsdb_symbol_table_destroy(symtab);
}
END_TEST

/* Builds a datum of TYPE from the ovs-vsctl text S. */
static void
datum_from(struct ovsdb_datum *datum, const struct ovsdb_type *type,
           const char *s)
{
    char *error = ovsdb_datum_from_string(datum, type, s, NULL);
    ck_assert_msg(!error, "%s: %s", s, error);
}

static void
check_datum_text(const struct ovsdb_datum *datum,
                 const struct ovsdb_type *type, const char *expected)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    ovsdb_datum_to_string(datum, type, &ds);
    ck_assert_msg(!strcmp(ds_cstr(&ds), expected), "got %s, expected %s",
                  ds_cstr(&ds), expected);
    ds_destroy(&ds);
}

START_TEST(test_union_subtract)
{
    struct ovsdb_type set_type, map_type, key_set_type;
    struct ovsdb_datum a, b;

    parse_type(&set_type, STRING_SET);
    datum_from(&a, &set_type, "[a, c]");
    datum_from(&b, &set_type, "[b, c, d]");
    ovsdb_datum_union(&a, &b, &set_type);
    check_datum_text(&a, &set_type, "[a, b, c, d]");
    ovsdb_datum_subtract(&a, &set_type, &b, &set_type);
    check_datum_text(&a, &set_type, "[a]");
    ovsdb_datum_subtract(&a, &set_type, &a, &set_type);
    check_datum_text(&a, &set_type, "[]");
    ovsdb_datum_union(&a, &b, &set_type);
    check_datum_text(&a, &set_type, "[b, c, d]");
    ovsdb_datum_destroy(&a, &set_type);
    ovsdb_datum_destroy(&b, &set_type);

    /* New keys before, among and after the old ones, and ones A has. */
    datum_from(&a, &set_type, "[c, e, g, i, k]");
    datum_from(&b, &set_type, "[a, b, e, f, k, l, m]");
    ovsdb_datum_union(&a, &b, &set_type);
    check_datum_text(&a, &set_type, "[a, b, c, e, f, g, i, k, l, m]");
    ovsdb_datum_destroy(&a, &set_type);
    ovsdb_datum_destroy(&b, &set_type);

    /* For maps, insert keeps existing keys' values. */
    parse_type(&map_type, STRING_MAP);
    datum_from(&a, &map_type, "{k1=v1, k2=v2}");
    datum_from(&b, &map_type, "{k2=new, k3=v3}");
    ovsdb_datum_union(&a, &b, &map_type);
    check_datum_text(&a, &map_type, "{k1=v1, k2=v2, k3=v3}");
    ovsdb_datum_destroy(&b, &map_type);

    /* Delete by pair removes only exact pairs... */
    datum_from(&b, &map_type, "{k1=v1, k2=other}");
    ovsdb_datum_subtract(&a, &map_type, &b, &map_type);
    check_datum_text(&a, &map_type, "{k2=v2, k3=v3}");
    ovsdb_datum_destroy(&b, &map_type);

    /* ...and by key set, every pair with the key. */
    parse_type(&key_set_type, STRING_SET);
    datum_from(&b, &key_set_type, "[k3, zz]");
    ovsdb_datum_subtract(&a, &map_type, &b, &key_set_type);
    check_datum_text(&a, &map_type, "{k2=v2}");
    ovsdb_datum_destroy(&b, &key_set_type);
    ovsdb_datum_destroy(&a, &map_type);

    ovsdb_type_destroy(&set_type);
    ovsdb_type_destroy(&map_type);
    ovsdb_type_destroy(&key_set_type);
}
END_TEST

START_TEST(test_includes_excludes_find)
{
    struct ovsdb_type set_type, map_type;
    struct ovsdb_datum a, b, c;

    parse_type(&set_type, INTEGER_SET);
    datum_from(&a, &set_type, "[1, 2]");
    datum_from(&b, &set_type, "[1, 2, 3]");
    datum_from(&c, &set_type, "[4, 5]");
    ck_assert(ovsdb_datum_includes_all(&a, &b, &set_type));
    ck_assert(!ovsdb_datum_includes_all(&b, &a, &set_type));
    ck_assert(ovsdb_datum_excludes_all(&c, &b, &set_type));
    ck_assert(!ovsdb_datum_excludes_all(&a, &b, &set_type));
    union ovsdb_atom three = { .integer = 3 }, nine = { .integer = 9 };
    ck_assert_uint_eq(ovsdb_datum_find_key(&b, &three, OVSDB_TYPE_INTEGER),
                      2);
    ck_assert_uint_eq(ovsdb_datum_find_key(&b, &nine, OVSDB_TYPE_INTEGER),
                      UINT_MAX);
    ck_assert_int_lt(ovsdb_datum_compare_3way(&a, &b, &set_type), 0);
    ck_assert(!ovsdb_datum_equals(&a, &b, &set_type));
    ovsdb_datum_destroy(&a, &set_type);
    ovsdb_datum_destroy(&b, &set_type);
    ovsdb_datum_destroy(&c, &set_type);

    parse_type(&map_type, STRING_MAP);
    datum_from(&a, &map_type, "{k=v}");
    datum_from(&b, &map_type, "{k=v, x=y}");
    datum_from(&c, &map_type, "{k=other}");
    ck_assert(ovsdb_datum_includes_all(&a, &b, &map_type));
    ck_assert(!ovsdb_datum_includes_all(&c, &b, &map_type));
    ck_assert(ovsdb_datum_excludes_all(&c, &b, &map_type));

    union ovsdb_atom k = { .string = "k" }, v = { .string = "v" };
    union ovsdb_atom other = { .string = "other" };
    ck_assert_uint_eq(ovsdb_datum_find_key_value(&b, &k, OVSDB_TYPE_STRING,
                                                 &v, OVSDB_TYPE_STRING), 0);
    ck_assert_uint_eq(ovsdb_datum_find_key_value(&b, &k, OVSDB_TYPE_STRING,
                                                 &other, OVSDB_TYPE_STRING),
                      UINT_MAX);
    ck_assert_uint_eq(ovsdb_datum_find_key_value(&b, &k, OVSDB_TYPE_STRING,
                                                 NULL, OVSDB_TYPE_VOID), 0);
    ovsdb_datum_destroy(&a, &map_type);
    ovsdb_datum_destroy(&b, &map_type);
    ovsdb_datum_destroy(&c, &map_type);
    ovsdb_type_destroy(&set_type);
    ovsdb_type_destroy(&map_type);
}
END_TEST

/* Checks diff(OLD, NEW) == EXPECTED_DIFF and apply_diff(OLD, diff) ==
 * NEW, all in ovs-vsctl text. */
static void
check_diff(const struct ovsdb_type *type, const char *old_s,
           const char *new_s, const char *expected_diff)
{
    struct ovsdb_type diff_type = *type;   /* Diffs may exceed n_max. */
    diff_type.n_min = 0;
    diff_type.n_max = UINT_MAX;

    struct ovsdb_datum old, new, diff, applied;
    datum_from(&old, type, old_s);
    datum_from(&new, type, new_s);
    ovsdb_datum_diff(&diff, &old, &new, type);
    check_datum_text(&diff, &diff_type, expected_diff);

    struct ovsdb_error *error = ovsdb_datum_apply_diff(&applied, &old, &diff,
                                                       type);
    ck_assert_ptr_null(error);
    ck_assert(ovsdb_datum_equals(&applied, &new, type));

    ovsdb_datum_destroy(&old, type);
    ovsdb_datum_destroy(&new, type);
    ovsdb_datum_destroy(&diff, type);
    ovsdb_datum_destroy(&applied, type);
}

START_TEST(test_diff)
{
    struct ovsdb_type type;

    parse_type(&type, STRING_SET);
    check_diff(&type, "[a, b, c]", "[b, c, d]", "[a, d]");
    check_diff(&type, "[]", "[x]", "[x]");
    check_diff(&type, "[x]", "[]", "[x]");
    check_diff(&type, "[x, y]", "[x, y]", "[]");
    ovsdb_type_destroy(&type);

    parse_type(&type, STRING_MAP);
    check_diff(&type, "{a=1, b=2, c=3}", "{b=2, c=30, d=4}",
               "{a=\"1\", c=\"30\", d=\"4\"}");
    check_diff(&type, "{}", "{k=v}", "{k=v}");
    check_diff(&type, "{k=v}", "{}", "{k=v}");
    ovsdb_type_destroy(&type);

    /* A scalar: the diff of two values is both of them, and applying it
     * swaps one for the other. */
    parse_type(&type, "\"integer\"");
    check_diff(&type, "1", "2", "[1, 2]");
    ovsdb_type_destroy(&type);

    /* An optional value. */
    parse_type(&type, "{\"key\": \"string\", \"min\": 0, \"max\": 1}");
    check_diff(&type, "[]", "x", "[x]");
    check_diff(&type, "x", "y", "[x, y]");
    ovsdb_type_destroy(&type);

    /* apply_diff() refuses results that break the type. */
    struct ovsdb_type set3;
    parse_type(&set3, "{\"key\": \"string\", \"min\": 1, \"max\": 2}");
    struct ovsdb_type big = set3;
    big.n_min = 0;
    big.n_max = UINT_MAX;
    struct ovsdb_datum old, diff, new;
    datum_from(&old, &set3, "[a, b]");
    datum_from(&diff, &big, "[c]");
    struct ovsdb_error *error = ovsdb_datum_apply_diff(&new, &old, &diff,
                                                       &set3);
    ck_assert_ptr_nonnull(error);
    ck_assert_uint_eq(new.n, 0);
    ovsdb_error_destroy(error);
    ovsdb_datum_destroy(&diff, &big);

    datum_from(&diff, &big, "[a, b]");
    error = ovsdb_datum_apply_diff(&new, &old, &diff, &set3);
    ck_assert_ptr_nonnull(error);   /* Empty, but min is 1. */
    ovsdb_error_destroy(error);
    ovsdb_datum_destroy(&diff, &big);
    ovsdb_datum_destroy(&old, &set3);
    ovsdb_type_destroy(&set3);

    struct ovsdb_type limited;
    parse_type(&limited, "{\"key\": {\"type\": \"integer\", \"maxInteger\": "
               "5}, \"min\": 0, \"max\": \"unlimited\"}");
    big = limited;
    big.key.u.integer.max = INT64_MAX;
    datum_from(&old, &limited, "[1]");
    datum_from(&diff, &big, "[9]");
    error = ovsdb_datum_apply_diff(&new, &old, &diff, &limited);
    ck_assert_ptr_nonnull(error);
    ck_assert_str_eq(ovsdb_error_get_tag(error), "constraint violation");
    ovsdb_error_destroy(error);
    ovsdb_datum_destroy(&old, &limited);
    ovsdb_datum_destroy(&diff, &big);
    ovsdb_type_destroy(&limited);
}
END_TEST

START_TEST(test_defaults_and_sorting)
{
    struct ovsdb_type type;
    struct ovsdb_datum datum;

    static const struct {
        const char *type, *json;
    } defaults[] = {
        { "\"integer\"", "0" },
        { "\"real\"", "0" },
        { "\"boolean\"", "false" },
        { "\"string\"", "\"\"" },
        { "\"uuid\"", "[\"uuid\",\"00000000-0000-0000-0000-000000000000\"]" },
        { STRING_SET, "[\"set\",[]]" },
        { STRING_MAP, "[\"map\",[]]" },
        { "{\"key\": \"integer\", \"value\": \"string\"}",
          "[\"map\",[[0,\"\"]]]" },
    };
    for (size_t i = 0; i < sizeof defaults / sizeof *defaults; i++) {
        parse_type(&type, defaults[i].type);
        ovsdb_datum_init_default(&datum, &type);
        ck_assert(ovsdb_datum_is_default(&datum, &type));
        char *s = to_text(ovsdb_datum_to_json(&datum, &type));
        ck_assert_str_eq(s, defaults[i].json);
        free(s);
        ovsdb_datum_destroy(&datum, &type);
        ovsdb_type_destroy(&type);
    }

    parse_type(&type, "\"string\"");
    union ovsdb_atom atom = { .string = "x" };
    ovsdb_datum_init_atom(&datum, &atom, OVSDB_TYPE_STRING);
    ck_assert(!ovsdb_datum_is_default(&datum, &type));
    ck_assert_str_eq(datum.keys[0].string, "x");
    ck_assert_ptr_ne(datum.keys[0].string, atom.string);
    ovsdb_datum_destroy(&datum, &type);
    ovsdb_type_destroy(&type);

    /* Built by hand, then sorted; values travel with their keys. */
    parse_type(&type, "{\"key\": \"integer\", \"value\": \"string\", "
               "\"min\": 0, \"max\": \"unlimited\"}");
    ovsdb_datum_init_empty(&datum);
    static const int keys[] = { 5, 3, 9, 3, 1, 5 };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        union ovsdb_atom k = { .integer = keys[i] };
        union ovsdb_atom v = { .string = xasprintf("v%zu", i) };
        ovsdb_datum_add_unsafe(&datum, &k, &v, &type);
    }
    struct ovsdb_datum copy;
    ovsdb_datum_clone(&copy, &datum, &type);

    struct ovsdb_error *error = ovsdb_datum_sort(&datum, OVSDB_TYPE_INTEGER);
    ck_assert_ptr_nonnull(error);
    char *s = ovsdb_error_to_string_free(error);
    ck_assert_str_eq(s, "ovsdb error: map contains duplicate key");
    free(s);

    /* sort_unique keeps the first of each key. */
    ck_assert_uint_eq(ovsdb_datum_sort_unique(&copy, OVSDB_TYPE_INTEGER,
                                              OVSDB_TYPE_STRING), 4);
    check_datum_text(&copy, &type, "{1=v4, 3=v1, 5=v0, 9=v2}");

    ovsdb_datum_remove_unsafe(&copy, 0, &type);
    ovsdb_datum_sort_assert(&copy, OVSDB_TYPE_INTEGER);
    check_datum_text(&copy, &type, "{3=v1, 5=v0, 9=v2}");
    ovsdb_datum_destroy(&copy, &type);
    ovsdb_datum_destroy(&datum, &type);
    ovsdb_type_destroy(&type);

    /* From an smap. */
    struct smap smap = SMAP_INITIALIZER(&smap);
    smap_add(&smap, "zeta", "1");
    smap_add(&smap, "alpha", "two words");
    parse_type(&type, STRING_MAP);
    ovsdb_datum_from_smap(&datum, &smap);
    check_datum_text(&datum, &type, "{alpha=\"two words\", zeta=\"1\"}");
    ovsdb_datum_destroy(&datum, &type);
    ovsdb_type_destroy(&type);
    smap_destroy(&smap);
}
END_TEST

START_TEST(test_atom_compare_hash)
{
    union ovsdb_atom a, b;

    a.integer = -1;
    b.integer = 1;
    ck_assert_int_lt(ovsdb_atom_compare_3way(&a, &b, OVSDB_TYPE_INTEGER), 0);
    a.real = -0.0;
    b.real = 0.0;
    ck_assert(ovsdb_atom_equals(&a, &b, OVSDB_TYPE_REAL));
    ck_assert_uint_eq(ovsdb_atom_hash(&a, OVSDB_TYPE_REAL, 7),
                      ovsdb_atom_hash(&b, OVSDB_TYPE_REAL, 7));
    a.boolean = false;
    b.boolean = true;
    ck_assert_int_lt(ovsdb_atom_compare_3way(&a, &b, OVSDB_TYPE_BOOLEAN), 0);
    a.string = "a";
    b.string = "b";
    ck_assert_int_lt(ovsdb_atom_compare_3way(&a, &b, OVSDB_TYPE_STRING), 0);

    ovsdb_atom_clone(&b, &a, OVSDB_TYPE_STRING);
    ck_assert_ptr_ne(a.string, b.string);
    ck_assert(ovsdb_atom_equals(&a, &b, OVSDB_TYPE_STRING));
    ck_assert_uint_eq(ovsdb_atom_hash(&a, OVSDB_TYPE_STRING, 0),
                      ovsdb_atom_hash(&b, OVSDB_TYPE_STRING, 0));
    ovsdb_atom_destroy(&b, OVSDB_TYPE_STRING);

    ovsdb_atom_init_default(&a, OVSDB_TYPE_STRING);
    ck_assert(ovsdb_atom_is_default(&a, OVSDB_TYPE_STRING));
    b.string = xstrdup("z");
    ovsdb_atom_swap(&a, &b);
    ck_assert_str_eq(a.string, "z");
    ck_assert_str_eq(b.string, "");
    ovsdb_atom_destroy(&a, OVSDB_TYPE_STRING);
    ovsdb_atom_destroy(&b, OVSDB_TYPE_STRING);

    json_t *json = ovsdb_real_to_json(3.0);
    ck_assert(json_is_integer(json));
    json_decref(json);
    json = ovsdb_real_to_json(0.5);
    ck_assert(json_is_real(json));
    json_decref(json);
    json = ovsdb_real_to_json(1e300);
    ck_assert(json_is_real(json));
    json_decref(json);
}
END_TEST

static Suite *
ovsdb_data_suite(void)
{
    Suite *s = suite_create("ovsdb-data");
    TCase *tc = tcase_create("ovsdb-data");
    tcase_add_test(tc, test_atoms_json);
    tcase_add_test(tc, test_atom_json_errors);
    tcase_add_test(tc, test_constraint_violations);
    tcase_add_test(tc, test_sets_and_maps_json);
    tcase_add_test(tc, test_string_quoting);
    tcase_add_test(tc, test_from_string);
    tcase_add_test(tc, test_integer_ranges);
    tcase_add_test(tc, test_bare);
    tcase_add_test(tc, test_named_uuids);
    tcase_add_test(tc, test_union_subtract);
    tcase_add_test(tc, test_includes_excludes_find);
    tcase_add_test(tc, test_diff);
    tcase_add_test(tc, test_defaults_and_sorting);
    tcase_add_test(tc, test_atom_compare_hash);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ovsdb_data_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
