/* Unit tests for condition.h and mutation.h. */
#include <config.h>
#include "condition.h"

#include <check.h>
#include "check-util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutation.h"
#include "ovsdb.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "row.h"
#include "ovsdb/table.h"   /* Not lib/table.h (output tables). */
#include "util.h"

static const char schema_json[] =
    "{\"name\": \"cond\", \"tables\": {\"t\": {\"columns\": {"
    "  \"i\": {\"type\": \"integer\"},"
    "  \"r\": {\"type\": \"real\"},"
    "  \"s\": {\"type\": \"string\"},"
    "  \"oi\": {\"type\": {\"key\": \"integer\", \"min\": 0, \"max\": 1}},"
    "  \"ci\": {\"type\": {\"key\": {\"type\": \"integer\","
    "                              \"minInteger\": 0,"
    "                              \"maxInteger\": 100}}},"
    "  \"si\": {\"type\": {\"key\": \"integer\", \"min\": 0,"
    "                     \"max\": \"unlimited\"}},"
    "  \"s2\": {\"type\": {\"key\": \"integer\", \"min\": 1, \"max\": 2}},"
    "  \"m\": {\"type\": {\"key\": \"string\", \"value\": \"integer\","
    "                    \"min\": 0, \"max\": \"unlimited\"}},"
    "  \"imm\": {\"type\": \"integer\", \"mutable\": false}}}}}";

static struct ovsdb *db;
static struct ovsdb_table *table;
static struct ovsdb_row *row;

/* Checks that ERROR's JSON form is exactly EXPECTED. */
static void
check_error_json(struct ovsdb_error *error, const char *expected)
{
    ck_assert_msg(error != NULL, "expected error %s", expected);
    json_t *json = ovsdb_error_to_json_free(error);
    char *s = json_dumps(json, JSON_COMPACT | JSON_SORT_KEYS);
    ck_assert_str_eq(s, expected);
    free(s);
    json_decref(json);
}

/* The row the tests evaluate: i=5, r=2.5, s="abc", oi empty, ci=50,
 * si={1,2,3}, s2={7}, m={a=1, b=2}. */
static void
setup(void)
{
    struct ovsdb_schema *schema;
    json_t *json = check_json_parse(schema_json);
    check_ovsdb_ok(ovsdb_schema_from_json(json, &schema));
    json_decref(json);
    db = ovsdb_create(schema);
    table = ovsdb_get_table(db, "t");

    row = ovsdb_row_create(table);
    json = check_json_parse("{\"i\": 5, \"r\": 2.5, \"s\": \"abc\", \"ci\": 50,"
                 " \"si\": [\"set\", [1, 2, 3]], \"s2\": 7,"
                 " \"m\": [\"map\", [[\"a\", 1], [\"b\", 2]]]}");
    check_ovsdb_ok(ovsdb_row_from_json(row, json, NULL, NULL));
    json_decref(json);
}

static void
teardown(void)
{
    ovsdb_row_destroy(row);
    ovsdb_destroy(db);
}

static struct ovsdb_error *
parse_condition(const char *s, struct ovsdb_condition *cnd)
{
    json_t *json = check_json_parse(s);
    struct ovsdb_error *error = ovsdb_condition_from_json(table->schema,
                                                          json, NULL, cnd);
    json_decref(json);
    return error;
}

/* Whether the conjunction (ALL) or disjunction of S matches the row. */
static bool
matches(const char *s, bool all)
{
    struct ovsdb_condition cnd;
    check_ovsdb_ok(parse_condition(s, &cnd));
    bool match = (all ? ovsdb_condition_match_all(row, &cnd)
                  : ovsdb_condition_match_any(row, &cnd));
    ovsdb_condition_destroy(&cnd);
    return match;
}

#define MATCH(S) ck_assert_msg(matches(S, true), "%s should match", S)
#define NO_MATCH(S) ck_assert_msg(!matches(S, true), "%s should not match", S)

START_TEST(test_scalar_functions)
{
    MATCH("[[\"i\", \"==\", 5]]");
    NO_MATCH("[[\"i\", \"!=\", 5]]");
    MATCH("[[\"i\", \"<\", 6]]");
    NO_MATCH("[[\"i\", \"<\", 5]]");
    MATCH("[[\"i\", \"<=\", 5]]");
    MATCH("[[\"i\", \">=\", 5]]");
    NO_MATCH("[[\"i\", \">\", 5]]");
    MATCH("[[\"i\", \"includes\", 5]]");
    MATCH("[[\"i\", \"excludes\", 4]]");
    MATCH("[[\"r\", \">\", 2.4], [\"r\", \"<\", 2.6]]");
    MATCH("[[\"s\", \"==\", \"abc\"], [\"s\", \"!=\", \"ab\"]]");
    MATCH("[[\"_uuid\", \"==\", [\"uuid\", "
          "\"00000000-0000-0000-0000-000000000000\"]]]");

    /* An empty optional value is neither less nor greater than anything,
     * but equals the empty set. */
    NO_MATCH("[[\"oi\", \"<\", 1]]");
    NO_MATCH("[[\"oi\", \">=\", 1]]");
    MATCH("[[\"oi\", \"==\", [\"set\", []]]]");
    MATCH("[[\"oi\", \"!=\", 1]]");
}
END_TEST

START_TEST(test_set_and_map_functions)
{
    MATCH("[[\"si\", \"==\", [\"set\", [3, 2, 1]]]]");
    NO_MATCH("[[\"si\", \"==\", [\"set\", [1, 2]]]]");
    MATCH("[[\"si\", \"includes\", [\"set\", [1, 3]]]]");
    MATCH("[[\"si\", \"includes\", [\"set\", []]]]");
    NO_MATCH("[[\"si\", \"includes\", [\"set\", [1, 4]]]]");
    MATCH("[[\"si\", \"excludes\", [\"set\", [4, 5]]]]");
    NO_MATCH("[[\"si\", \"excludes\", [\"set\", [3, 5]]]]");

    /* A map includes pairs, not just keys. */
    MATCH("[[\"m\", \"includes\", [\"map\", [[\"a\", 1]]]]]");
    NO_MATCH("[[\"m\", \"includes\", [\"map\", [[\"a\", 2]]]]]");
    MATCH("[[\"m\", \"excludes\", [\"map\", [[\"a\", 2], [\"c\", 1]]]]]");
    NO_MATCH("[[\"m\", \"excludes\", [\"map\", [[\"b\", 2]]]]]");
    MATCH("[[\"m\", \"!=\", [\"map\", [[\"a\", 1]]]]]");
}
END_TEST

START_TEST(test_conjunction_and_disjunction)
{
    /* Empty: every row for a "where", no row for a monitor condition. */
    ck_assert(matches("[]", true));
    ck_assert(!matches("[]", false));
    ck_assert(matches("[true]", true));
    ck_assert(matches("[true]", false));
    ck_assert(!matches("[false]", true));
    ck_assert(!matches("[false]", false));
    ck_assert(!matches("[[\"i\", \"==\", 5], [\"i\", \"==\", 6]]", true));
    ck_assert(matches("[[\"i\", \"==\", 5], [\"i\", \"==\", 6]]", false));
    ck_assert(matches("[false, [\"s\", \"==\", \"abc\"]]", false));

    struct ovsdb_condition cnd;
    check_ovsdb_ok(parse_condition("[false, true]", &cnd));
    ck_assert(ovsdb_condition_is_true(&cnd));
    ovsdb_condition_destroy(&cnd);
    check_ovsdb_ok(parse_condition("[[\"i\", \"==\", 5]]", &cnd));
    ck_assert(!ovsdb_condition_is_true(&cnd));
    ck_assert(!ovsdb_condition_is_empty(&cnd));
    ovsdb_condition_destroy(&cnd);
}
END_TEST

START_TEST(test_compare_clone_json)
{
    struct ovsdb_condition a, b, c;
    check_ovsdb_ok(parse_condition("[[\"s\", \"==\", \"x\"], [\"i\", \">\", 1], "
                             "true]", &a));
    check_ovsdb_ok(parse_condition("[true, [\"i\", \">\", 1], "
                             "[\"s\", \"==\", \"x\"]]", &b));
    check_ovsdb_ok(parse_condition("[true, [\"i\", \">\", 2], "
                             "[\"s\", \"==\", \"x\"]]", &c));

    /* Clause order does not matter; values do. */
    ck_assert_int_eq(ovsdb_condition_cmp_3way(&a, &b), 0);
    ck_assert_int_ne(ovsdb_condition_cmp_3way(&a, &c), 0);
    ck_assert_int_eq(ovsdb_condition_cmp_3way(&a, &c),
                     -ovsdb_condition_cmp_3way(&c, &a));

    struct ovsdb_condition clone;
    ovsdb_condition_clone(&clone, &c);
    ck_assert_int_eq(ovsdb_condition_cmp_3way(&clone, &c), 0);

    json_t *json = ovsdb_condition_to_json(&clone);
    char *s = json_dumps(json, JSON_COMPACT);
    ck_assert_str_eq(s, "[true,[\"i\",\">\",2],[\"s\",\"==\",\"x\"]]");
    free(s);
    json_decref(json);

    ovsdb_condition_destroy(&clone);
    ovsdb_condition_destroy(&a);
    ovsdb_condition_destroy(&b);
    ovsdb_condition_destroy(&c);
}
END_TEST

START_TEST(test_get_uuid)
{
    struct ovsdb_condition cnd;
    struct uuid uuid;
    check_ovsdb_ok(parse_condition("[[\"i\", \"==\", 1], [\"_uuid\", \"==\", "
                             "[\"uuid\", \"01234567-89ab-cdef-0123-"
                             "456789abcdef\"]]]", &cnd));
    ck_assert(ovsdb_condition_get_uuid(&cnd, &uuid));
    ck_assert_uint_eq(uuid.parts[0], 0x01234567);
    ovsdb_condition_destroy(&cnd);

    check_ovsdb_ok(parse_condition("[[\"_uuid\", \"!=\", [\"uuid\", \"01234567-"
                             "89ab-cdef-0123-456789abcdef\"]]]", &cnd));
    ck_assert(!ovsdb_condition_get_uuid(&cnd, &uuid));
    ovsdb_condition_destroy(&cnd);
}
END_TEST

START_TEST(test_condition_errors)
{
    struct ovsdb_condition cnd;
    check_error_json(parse_condition("[[\"x\", \"==\", 1]]", &cnd),
                     "{\"details\":\"No column x in table t.\","
                     "\"error\":\"unknown column\","
                     "\"syntax\":\"[\\\"x\\\",\\\"==\\\",1]\"}");
    check_error_json(parse_condition("[[\"i\", \"~\", 1]]", &cnd),
                     "{\"details\":\"No function named ~.\","
                     "\"error\":\"unknown function\"}");
    check_error_json(parse_condition("[[\"i\", \"==\"]]", &cnd),
                     "{\"details\":\"Parse error in condition.\","
                     "\"error\":\"syntax error\","
                     "\"syntax\":\"[\\\"i\\\",\\\"==\\\"]\"}");
    check_error_json(parse_condition("[[\"s\", \"<\", \"x\"]]", &cnd),
                     "{\"details\":\"Type mismatch: \\\"<\\\" operator may "
                     "not be applied to column s of type string.\","
                     "\"error\":\"syntax error\","
                     "\"syntax\":\"[\\\"s\\\",\\\"<\\\",\\\"x\\\"]\"}");
    /* "==" takes exactly the column's type. */
    struct ovsdb_error *error = parse_condition(
        "[[\"s2\", \"==\", [\"set\", []]]]", &cnd);
    ck_assert_ptr_nonnull(error);
    ck_assert_str_eq(ovsdb_error_get_tag(error), "syntax error");
    ovsdb_error_destroy(error);
    ck_assert(ovsdb_condition_is_empty(&cnd));
}
END_TEST

/* Mutations. */

static struct ovsdb_error *
mutate(const char *s)
{
    struct ovsdb_mutation_set set;
    json_t *json = check_json_parse(s);
    struct ovsdb_error *error = ovsdb_mutation_set_from_json(
        table->schema, json, NULL, &set);
    json_decref(json);
    if (!error) {
        error = ovsdb_mutation_set_execute(row, &set);
        ovsdb_mutation_set_destroy(&set);
    }
    return error;
}

/* The value of column NAME of the row as JSON text. */
static char *
value(const char *name)
{
    const struct ovsdb_column *column
        = ovsdb_table_schema_get_column(table->schema, name);
    json_t *json = ovsdb_datum_to_json(&row->fields[column->index],
                                       &column->type);
    char *s = json_dumps(json, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(json);
    return s;
}

static void
check_value(const char *name, const char *expected)
{
    char *s = value(name);
    ck_assert_str_eq(s, expected);
    free(s);
}

START_TEST(test_arithmetic)
{
    check_ovsdb_ok(mutate("[[\"i\", \"+=\", 3], [\"i\", \"*=\", 2]]"));
    check_value("i", "16");
    check_ovsdb_ok(mutate("[[\"i\", \"/=\", -3]]"));
    check_value("i", "-5");
    check_ovsdb_ok(mutate("[[\"i\", \"%=\", 3]]"));
    check_value("i", "-2");
    check_ovsdb_ok(mutate("[[\"r\", \"-=\", 0.5], [\"r\", \"/=\", 4]]"));
    check_value("r", "0.5");
    check_ovsdb_ok(mutate("[[\"si\", \"-=\", 1]]"));
    check_value("si", "[\"set\",[0,1,2]]");
    /* The operand need not fit the column's range; the result must. */
    check_ovsdb_ok(mutate("[[\"ci\", \"-=\", -50]]"));
    check_value("ci", "100");
    /* An empty optional value stays empty, even divided by zero. */
    check_ovsdb_ok(mutate("[[\"oi\", \"/=\", 0]]"));
    check_value("oi", "[\"set\",[]]");
}
END_TEST

START_TEST(test_arithmetic_errors)
{
    check_error_json(mutate("[[\"i\", \"/=\", 0]]"),
                     "{\"details\":\"Division by zero.\","
                     "\"error\":\"domain error\"}");
    check_error_json(mutate("[[\"r\", \"/=\", 0]]"),
                     "{\"details\":\"Division by zero.\","
                     "\"error\":\"domain error\"}");
    check_error_json(mutate("[[\"i\", \"+=\", 9223372036854775807]]"),
                     "{\"details\":\"Result of \\\"+=\\\" operation is out "
                     "of range.\",\"error\":\"range error\"}");
    check_error_json(mutate("[[\"i\", \"*=\", -4611686018427387905]]"),
                     "{\"details\":\"Result of \\\"*=\\\" operation is out "
                     "of range.\",\"error\":\"range error\"}");
    check_error_json(mutate("[[\"r\", \"*=\", 1e308], [\"r\", \"*=\", 10]]"),
                     "{\"details\":\"Result of \\\"*=\\\" operation is out "
                     "of range.\",\"error\":\"range error\"}");
    check_error_json(mutate("[[\"si\", \"*=\", 0]]"),
                     "{\"details\":\"Result of \\\"*=\\\" operation contains "
                     "duplicates.\",\"error\":\"constraint violation\"}");

    struct ovsdb_error *error = mutate("[[\"ci\", \"+=\", 51]]");
    ck_assert_ptr_nonnull(error);
    ck_assert_str_eq(ovsdb_error_get_tag(error), "constraint violation");
    ovsdb_error_destroy(error);
}
END_TEST

START_TEST(test_insert_delete)
{
    check_ovsdb_ok(mutate("[[\"si\", \"insert\", [\"set\", [3, 4]]],"
                    " [\"si\", \"delete\", 1]]"));
    check_value("si", "[\"set\",[2,3,4]]");

    /* Map insert keeps existing keys' values; delete takes pairs (which
     * must match) or keys. */
    check_ovsdb_ok(mutate("[[\"m\", \"insert\", [\"map\", [[\"a\", 9], "
                    "[\"c\", 3]]]]]"));
    check_value("m", "[\"map\",[[\"a\",1],[\"b\",2],[\"c\",3]]]");
    check_ovsdb_ok(mutate("[[\"m\", \"delete\", [\"map\", [[\"a\", 9], "
                    "[\"b\", 2]]]]]"));
    check_value("m", "[\"map\",[[\"a\",1],[\"c\",3]]]");
    check_ovsdb_ok(mutate("[[\"m\", \"delete\", [\"set\", [\"c\", \"z\"]]]]"));
    check_value("m", "[\"map\",[[\"a\",1]]]");

    check_ovsdb_ok(mutate("[[\"oi\", \"insert\", 4]]"));
    check_value("oi", "4");

    /* A failed mutation may leave the row partly changed (the caller
     * aborts), so each check starts from s2 = {7}. */
    check_error_json(mutate("[[\"s2\", \"delete\", 7]]"),
                     "{\"details\":\"Attempted to store 0 elements in set "
                     "of 1 to 2 integers.\","
                     "\"error\":\"constraint violation\"}");
    check_ovsdb_ok(mutate("[[\"s2\", \"insert\", 7]]"));
    check_error_json(mutate("[[\"s2\", \"insert\", [\"set\", [8, 9]]]]"),
                     "{\"details\":\"Attempted to store 3 elements in set "
                     "of 1 to 2 integers.\","
                     "\"error\":\"constraint violation\"}");
}
END_TEST

START_TEST(test_mutation_parse_errors)
{
    check_error_json(mutate("[[\"imm\", \"+=\", 1]]"),
                     "{\"details\":\"Cannot mutate immutable column imm in "
                     "table t.\",\"error\":\"constraint violation\","
                     "\"syntax\":\"[\\\"imm\\\",\\\"+=\\\",1]\"}");
    check_error_json(mutate("[[\"_uuid\", \"+=\", 1]]"),
                     "{\"details\":\"Cannot mutate immutable column _uuid in "
                     "table t.\",\"error\":\"constraint violation\","
                     "\"syntax\":\"[\\\"_uuid\\\",\\\"+=\\\",1]\"}");
    check_error_json(mutate("[[\"i\", \"^=\", 1]]"),
                     "{\"details\":\"No mutator named ^=.\","
                     "\"error\":\"unknown mutator\"}");
    check_error_json(mutate("[[\"zz\", \"+=\", 1]]"),
                     "{\"details\":\"No column zz in table t.\","
                     "\"error\":\"unknown column\","
                     "\"syntax\":\"[\\\"zz\\\",\\\"+=\\\",1]\"}");
    check_error_json(mutate("[1]"),
                     "{\"details\":\"Parse error in mutation.\","
                     "\"error\":\"syntax error\",\"syntax\":\"1\"}");
    check_error_json(mutate("[[\"r\", \"%=\", 2]]"),
                     "{\"details\":\"Type mismatch: \\\"%=\\\" operator may "
                     "not be applied to column r of type real.\","
                     "\"error\":\"syntax error\","
                     "\"syntax\":\"[\\\"r\\\",\\\"%=\\\",2]\"}");
    check_error_json(mutate("[[\"i\", \"insert\", 1]]"),
                     "{\"details\":\"Type mismatch: \\\"insert\\\" operator "
                     "may not be applied to column i of type integer.\","
                     "\"error\":\"syntax error\","
                     "\"syntax\":\"[\\\"i\\\",\\\"insert\\\",1]\"}");

    /* Nothing was changed by the failed parses. */
    check_value("i", "5");
}
END_TEST

START_TEST(test_mutation_to_json)
{
    struct ovsdb_mutation_set set;
    json_t *json = check_json_parse("[[\"si\", \"delete\", [\"set\", [1, 2]]],"
                         " [\"i\", \"+=\", 1]]");
    check_ovsdb_ok(ovsdb_mutation_set_from_json(table->schema, json, NULL, &set));
    json_decref(json);
    json = ovsdb_mutation_set_to_json(&set);
    char *s = json_dumps(json, JSON_COMPACT);
    ck_assert_str_eq(s, "[[\"si\",\"delete\",[\"set\",[1,2]]],"
                     "[\"i\",\"+=\",1]]");
    free(s);
    json_decref(json);
    ovsdb_mutation_set_destroy(&set);
}
END_TEST

static Suite *
condition_suite(void)
{
    Suite *s = suite_create("ovsdb-condition");

    TCase *tc = tcase_create("condition");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_scalar_functions);
    tcase_add_test(tc, test_set_and_map_functions);
    tcase_add_test(tc, test_conjunction_and_disjunction);
    tcase_add_test(tc, test_compare_clone_json);
    tcase_add_test(tc, test_get_uuid);
    tcase_add_test(tc, test_condition_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("mutation");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_arithmetic);
    tcase_add_test(tc, test_arithmetic_errors);
    tcase_add_test(tc, test_insert_delete);
    tcase_add_test(tc, test_mutation_parse_errors);
    tcase_add_test(tc, test_mutation_to_json);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(condition_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
