/* Unit tests for ovsdb-schema.h: schemas parse, validate and print back
 * exactly as Open vSwitch 3.1 prints them ("ovsdb-client get-schema" and
 * the schema record of a database file); the expected texts below are its
 * output for the same input. */
#include <config.h>
#include "ovsdb-schema.h"

#include <check.h>
#include "check-util.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ovsdb-error.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

/* A schema with one of each feature. */
static const char test_schema[] =
    "{\"name\": \"T\", \"version\": \"1.2.3\", \"cksum\": \"12345 678\",\n"
    " \"tables\": {\n"
    "   \"A\": {\"isRoot\": true, \"columns\": {\n"
    "      \"i\": {\"type\": {\"key\": {\"type\": \"integer\", \"minInteger\": 0, \"maxInteger\": 4}}},\n"
    "      \"imin\": {\"type\": {\"key\": {\"type\": \"integer\", \"minInteger\": 3}, \"min\": 0, \"max\": 1}},\n"
    "      \"imax\": {\"type\": {\"key\": {\"type\": \"integer\", \"maxInteger\": 3}, \"min\": 0, \"max\": 1}},\n"
    "      \"r\": {\"type\": {\"key\": {\"type\": \"real\", \"minReal\": 1.0, \"maxReal\": 2.5}}},\n"
    "      \"rmin\": {\"type\": {\"key\": {\"type\": \"real\", \"minReal\": -1}, \"min\":0, \"max\": 1}},\n"
    "      \"e\": {\"type\": {\"key\": {\"type\": \"string\", \"enum\": [\"set\", [\"a\", \"b\"]]}}},\n"
    "      \"e1\": {\"type\": {\"key\": {\"type\": \"string\", \"enum\": \"only\"}}},\n"
    "      \"ei\": {\"type\": {\"key\": {\"type\": \"integer\", \"enum\": [\"set\", [3, 1, 2]]}, \"min\": 0, \"max\": \"unlimited\"}},\n"
    "      \"s\": {\"type\": {\"key\": {\"type\": \"string\", \"minLength\": 2, \"maxLength\": 3}}},\n"
    "      \"set3\": {\"type\": {\"key\": \"string\", \"min\": 1, \"max\": 3}},\n"
    "      \"m\": {\"type\": {\"key\": \"string\", \"value\": \"integer\", \"min\": 0, \"max\": \"unlimited\"}},\n"
    "      \"b\": {\"type\": \"boolean\", \"mutable\": false},\n"
    "      \"eph\": {\"type\": \"string\", \"ephemeral\": true},\n"
    "      \"sref\": {\"type\": {\"key\": {\"type\": \"uuid\", \"refTable\": \"B\"}, \"min\": 0, \"max\": \"unlimited\"}, \"ephemeral\": true},\n"
    "      \"wref\": {\"type\": {\"key\": {\"type\": \"uuid\", \"refTable\": \"A\", \"refType\": \"weak\"}, \"min\": 0, \"max\": 1}, \"mutable\": false},\n"
    "      \"wref2\": {\"type\": {\"key\": {\"type\": \"uuid\", \"refTable\": \"B\", \"refType\": \"strong\"}, \"min\": 0, \"max\": 1}},\n"
    "      \"u\": {\"type\": \"uuid\"}\n"
    "   }, \"indexes\": [[\"i\", \"s\"]], \"maxRows\": 100},\n"
    "   \"B\": {\"mutable\": false, \"columns\": {\"x\": {\"type\": \"integer\"}}}\n"
    " }}\n";

/* Open vSwitch 3.1's "ovsdb-client get-schema" output for it (compact,
 * sorted).  Note: "minReal": 1.0 prints as 1; the weak reference "wref" is
 * made mutable; the strong reference "sref" to the non-root table B is made
 * persistent; only the root table says "isRoot". */
static const char test_schema_canonical[] =
    "{\"cksum\":\"12345 678\",\"name\":\"T\",\"tables\":{\"A\":{\"colum"
    "ns\":{\"b\":{\"mutable\":false,\"type\":\"boolean\"},\"e\":{\"type"
    "\":{\"key\":{\"enum\":[\"set\",[\"a\",\"b\"]],\"type\":\"string\"}"
    "}},\"e1\":{\"type\":{\"key\":{\"enum\":\"only\",\"type\":\"string\""
    "}}},\"ei\":{\"type\":{\"key\":{\"enum\":[\"set\",[1,2,3]],\"type\""
    ":\"integer\"},\"max\":\"unlimited\",\"min\":0}},\"eph\":{\"ephemer"
    "al\":true,\"type\":\"string\"},\"i\":{\"type\":{\"key\":{\"maxInte"
    "ger\":4,\"minInteger\":0,\"type\":\"integer\"}}},\"imax\":{\"type\""
    ":{\"key\":{\"maxInteger\":3,\"type\":\"integer\"},\"min\":0}},\"im"
    "in\":{\"type\":{\"key\":{\"minInteger\":3,\"type\":\"integer\"},\""
    "min\":0}},\"m\":{\"type\":{\"key\":\"string\",\"max\":\"unlimited\""
    ",\"min\":0,\"value\":\"integer\"}},\"r\":{\"type\":{\"key\":{\"max"
    "Real\":2.5,\"minReal\":1,\"type\":\"real\"}}},\"rmin\":{\"type\":{"
    "\"key\":{\"minReal\":-1,\"type\":\"real\"},\"min\":0}},\"s\":{\"ty"
    "pe\":{\"key\":{\"maxLength\":3,\"minLength\":2,\"type\":\"string\""
    "}}},\"set3\":{\"type\":{\"key\":\"string\",\"max\":3}},\"sref\":{\""
    "type\":{\"key\":{\"refTable\":\"B\",\"type\":\"uuid\"},\"max\":\"u"
    "nlimited\",\"min\":0}},\"u\":{\"type\":\"uuid\"},\"wref\":{\"type\""
    ":{\"key\":{\"refTable\":\"A\",\"refType\":\"weak\",\"type\":\"uuid"
    "\"},\"min\":0}},\"wref2\":{\"type\":{\"key\":{\"refTable\":\"B\",\""
    "type\":\"uuid\"},\"min\":0}}},\"indexes\":[[\"i\",\"s\"]],\"isRoot"
    "\":true,\"maxRows\":100},\"B\":{\"columns\":{\"x\":{\"type\":\"int"
    "eger\"}},\"mutable\":false}},\"version\":\"1.2.3\"}";

static char *
to_text(json_t *json)
{
    char *s = json_dumps(json, JSON_COMPACT | JSON_SORT_KEYS
                         | JSON_ENCODE_ANY);
    json_decref(json);
    return s;
}

static struct ovsdb_schema *
parse_schema(const char *text)
{
    json_t *json = check_json_parse(text);
    struct ovsdb_schema *schema;
    struct ovsdb_error *error = ovsdb_schema_from_json(json, &schema);
    json_decref(json);
    if (error) {
        char *s = ovsdb_error_to_string_free(error);
        ck_abort_msg("%s", s);
    }
    return schema;
}

/* Checks that schema TEXT prints as CANONICAL. */
static void
check_canonical(const char *text, const char *canonical)
{
    struct ovsdb_schema *schema = parse_schema(text);
    char *s = to_text(ovsdb_schema_to_json(schema));
    ck_assert_msg(!strcmp(s, canonical), "%s\nprinted as\n%s\nexpected\n%s",
                  text, s, canonical);
    free(s);
    ovsdb_schema_destroy(schema);
}

/* Checks that schema TEXT is rejected with error text ERROR_TEXT. */
static void
check_error(const char *text, const char *error_text)
{
    json_t *json = check_json_parse(text);
    struct ovsdb_schema *schema;
    struct ovsdb_error *error = ovsdb_schema_from_json(json, &schema);
    json_decref(json);
    ck_assert_msg(error != NULL, "%s should not parse", text);
    ck_assert_ptr_null(schema);
    char *s = ovsdb_error_to_string_free(error);
    ck_assert_msg(!strcmp(s, error_text), "%s:\ngot      %s\nexpected %s",
                  text, s, error_text);
    free(s);
}

START_TEST(test_canonical_output)
{
    check_canonical(test_schema, test_schema_canonical);

    /* The canonical form is a fixed point. */
    check_canonical(test_schema_canonical, test_schema_canonical);
}
END_TEST

START_TEST(test_is_root)
{
    /* No table says isRoot: all are roots, and none prints it. */
    check_canonical("{\"name\": \"x\", \"tables\": {"
                    "\"a\": {\"isRoot\": false, \"columns\": {\"x\": "
                    "{\"type\": \"integer\"}}}, "
                    "\"b\": {\"columns\": {\"y\": {\"type\": {\"key\": "
                    "{\"type\": \"uuid\", \"refTable\": \"a\"}}, "
                    "\"ephemeral\": true}}}}}",
                    "{\"name\":\"x\",\"tables\":{\"a\":{\"columns\":{\"x\":"
                    "{\"type\":\"integer\"}}},\"b\":{\"columns\":{\"y\":{"
                    "\"ephemeral\":true,\"type\":{\"key\":{\"refTable\":"
                    "\"a\",\"type\":\"uuid\"}}}}}}}");
    /* Every table says isRoot: the same output. */
    check_canonical("{\"name\": \"x\", \"tables\": {"
                    "\"a\": {\"isRoot\": true, \"columns\": {\"x\": "
                    "{\"type\": \"integer\"}}}, "
                    "\"b\": {\"isRoot\": true, \"columns\": {\"y\": "
                    "{\"type\": \"integer\"}}}}}",
                    "{\"name\":\"x\",\"tables\":{\"a\":{\"columns\":{\"x\":"
                    "{\"type\":\"integer\"}}},\"b\":{\"columns\":{\"y\":"
                    "{\"type\":\"integer\"}}}}}");
    /* Some roots: only they print it; a weak reference may stay
     * ephemeral. */
    check_canonical("{\"name\": \"x\", \"tables\": {"
                    "\"a\": {\"isRoot\": false, \"columns\": {\"x\": "
                    "{\"type\": \"integer\"}}}, "
                    "\"b\": {\"isRoot\": true, \"columns\": {\"y\": "
                    "{\"type\": {\"key\": {\"type\": \"uuid\", \"refTable\": "
                    "\"a\", \"refType\": \"weak\"}}, \"ephemeral\": true}}}}}",
                    "{\"name\":\"x\",\"tables\":{\"a\":{\"columns\":{\"x\":"
                    "{\"type\":\"integer\"}}},\"b\":{\"columns\":{\"y\":{"
                    "\"ephemeral\":true,\"type\":{\"key\":{\"refTable\":"
                    "\"a\",\"refType\":\"weak\",\"type\":\"uuid\"}}}},"
                    "\"isRoot\":true}}}");

    struct ovsdb_schema *schema = parse_schema(test_schema);
    ck_assert(ovsdb_schema_get_table(schema, "A")->is_root);
    ck_assert(!ovsdb_schema_get_table(schema, "B")->is_root);
    ovsdb_schema_destroy(schema);
}
END_TEST

START_TEST(test_structure)
{
    struct ovsdb_schema *schema = parse_schema(test_schema);
    ck_assert_str_eq(schema->name, "T");
    ck_assert_str_eq(schema->version, "1.2.3");
    ck_assert_str_eq(schema->cksum, "12345 678");
    ck_assert_uint_eq(shash_count(&schema->tables), 2);
    ck_assert_ptr_null(ovsdb_schema_get_table(schema, "C"));

    const struct ovsdb_table_schema *a = ovsdb_schema_get_table(schema, "A");
    const struct ovsdb_table_schema *b = ovsdb_schema_get_table(schema, "B");
    ck_assert_str_eq(a->name, "A");
    ck_assert(a->mutable);
    ck_assert(!b->mutable);
    ck_assert_uint_eq(a->max_rows, 100);
    ck_assert_uint_eq(b->max_rows, UINT_MAX);

    /* Standard columns first, then the schema's in name order. */
    ck_assert_uint_eq(ovsdb_table_schema_n_columns(a), 2 + 17);
    const struct ovsdb_column *uuid
        = ovsdb_table_schema_column_by_index(a, OVSDB_COL_UUID);
    const struct ovsdb_column *version
        = ovsdb_table_schema_column_by_index(a, OVSDB_COL_VERSION);
    ck_assert_str_eq(uuid->name, "_uuid");
    ck_assert(!uuid->mutable && uuid->persistent);
    ck_assert_str_eq(version->name, "_version");
    ck_assert(!version->mutable && !version->persistent);
    ck_assert(ovsdb_type_is_scalar(&uuid->type));
    ck_assert_int_eq(uuid->type.key.type, OVSDB_TYPE_UUID);
    ck_assert_str_eq(ovsdb_table_schema_column_by_index(a, 2)->name, "b");
    ck_assert_str_eq(ovsdb_table_schema_column_by_index(a, 3)->name, "e");
    ck_assert_str_eq(ovsdb_table_schema_column_by_index(a, 18)->name, "wref2");
    for (size_t i = 0; i < a->n_columns; i++) {
        const struct ovsdb_column *c = ovsdb_table_schema_column_by_index(a,
                                                                          i);
        ck_assert_uint_eq(c->index, i);
        ck_assert_ptr_eq(ovsdb_table_schema_get_column(a, c->name), c);
    }
    ck_assert_ptr_null(ovsdb_table_schema_get_column(a, "nope"));

    const struct ovsdb_column *b_col = ovsdb_table_schema_get_column(a, "b");
    ck_assert(!b_col->mutable);
    ck_assert(!ovsdb_table_schema_get_column(a, "eph")->persistent);
    /* Forced by the schema, as in OVS. */
    ck_assert(ovsdb_table_schema_get_column(a, "sref")->persistent);
    ck_assert(ovsdb_table_schema_get_column(a, "wref")->mutable);

    /* refTable is resolved to the table. */
    const struct ovsdb_column *sref = ovsdb_table_schema_get_column(a,
                                                                    "sref");
    ck_assert_ptr_eq(sref->type.key.u.uuid.refTable, b);
    const struct ovsdb_column *wref = ovsdb_table_schema_get_column(a,
                                                                    "wref");
    ck_assert_ptr_eq(wref->type.key.u.uuid.refTable, a);

    /* Indexes. */
    ck_assert_uint_eq(a->n_indexes, 1);
    ck_assert_uint_eq(a->indexes[0].n_columns, 2);
    ck_assert_str_eq(a->indexes[0].columns[0]->name, "i");
    ck_assert_str_eq(a->indexes[0].columns[1]->name, "s");
    ck_assert_uint_eq(b->n_indexes, 0);

    /* A clone is deep and equal, with refTables pointing into it. */
    struct ovsdb_schema *clone = ovsdb_schema_clone(schema);
    ck_assert(ovsdb_schema_equal(schema, clone));
    const struct ovsdb_table_schema *ca = ovsdb_schema_get_table(clone, "A");
    const struct ovsdb_table_schema *cb = ovsdb_schema_get_table(clone, "B");
    ck_assert_ptr_ne(ca, a);
    ck_assert_ptr_eq(ovsdb_table_schema_get_column(ca, "sref")
                     ->type.key.u.uuid.refTable, cb);
    ck_assert_ptr_eq(ca->indexes[0].columns[0],
                     ovsdb_table_schema_get_column(ca, "i"));
    ovsdb_schema_destroy(schema);
    char *s = to_text(ovsdb_schema_to_json(clone));
    ck_assert_str_eq(s, test_schema_canonical);
    free(s);

    struct ovsdb_schema *other = parse_schema(
        "{\"name\": \"T\", \"version\": \"1.2.3\", \"tables\": {\"B\": "
        "{\"columns\": {\"x\": {\"type\": \"integer\"}}}}}");
    ck_assert(!ovsdb_schema_equal(clone, other));
    ck_assert_str_eq(other->cksum, "");
    ovsdb_schema_destroy(other);
    ovsdb_schema_destroy(clone);
}
END_TEST

START_TEST(test_built_by_hand)
{
    struct ovsdb_schema *schema = ovsdb_schema_create("H", NULL, NULL);
    ck_assert_str_eq(schema->version, "");
    struct ovsdb_table_schema *ts = ovsdb_table_schema_create("t", true,
                                                              UINT_MAX,
                                                              true);
    struct ovsdb_type type;
    ovsdb_type_init_scalar(&type, OVSDB_TYPE_STRING);
    ovsdb_table_schema_add_column(ts, ovsdb_column_create("zz", true, true,
                                                          &type));
    ovsdb_table_schema_add_column(ts, ovsdb_column_create("aa", false, false,
                                                          &type));
    ovsdb_type_destroy(&type);
    ck_assert_str_eq(ts->columns_by_index[0]->name, "_uuid");
    ck_assert_str_eq(ts->columns_by_index[1]->name, "_version");
    ck_assert_str_eq(ts->columns_by_index[2]->name, "aa");
    ck_assert_str_eq(ts->columns_by_index[3]->name, "zz");
    ck_assert_uint_eq(ts->columns_by_index[3]->index, 3);
    shash_add(&schema->tables, ts->name, ts);

    char *s = to_text(ovsdb_schema_to_json(schema));
    ck_assert_str_eq(s, "{\"name\":\"H\",\"tables\":{\"t\":{\"columns\":{"
                     "\"aa\":{\"ephemeral\":true,\"mutable\":false,\"type\":"
                     "\"string\"},\"zz\":{\"type\":\"string\"}}}}}");
    free(s);

    /* Column JSON on its own. */
    struct ovsdb_column *column;
    json_t *json = check_json_parse("{\"type\": {\"key\": \"integer\", \"min\": 0},"
                              " \"mutable\": false}");
    ck_assert_ptr_null(ovsdb_column_from_json(json, "c", &column));
    json_decref(json);
    ck_assert_str_eq(column->name, "c");
    ck_assert(!column->mutable && column->persistent);
    s = to_text(ovsdb_column_to_json(column));
    ck_assert_str_eq(s, "{\"mutable\":false,\"type\":{\"key\":\"integer\","
                     "\"min\":0}}");
    free(s);
    ovsdb_column_destroy(column);
    ovsdb_schema_destroy(schema);
}
END_TEST

START_TEST(test_column_sets)
{
    struct ovsdb_schema *schema = parse_schema(test_schema);
    const struct ovsdb_table_schema *a = ovsdb_schema_get_table(schema, "A");
    struct ovsdb_column_set set, clone;

    json_t *json = check_json_parse("[\"s\", \"i\", \"_uuid\"]");
    ck_assert_ptr_null(ovsdb_column_set_from_json(json, a, &set));
    json_decref(json);
    ck_assert_uint_eq(set.n_columns, 3);
    ck_assert(ovsdb_column_set_contains(&set, OVSDB_COL_UUID));
    ck_assert(!ovsdb_column_set_contains(&set, OVSDB_COL_VERSION));
    char *s = to_text(ovsdb_column_set_to_json(&set));
    ck_assert_str_eq(s, "[\"s\",\"i\",\"_uuid\"]");
    free(s);

    ovsdb_column_set_clone(&clone, &set);
    ck_assert(ovsdb_column_set_equals(&set, &clone));
    ovsdb_column_set_add(&clone, ovsdb_table_schema_get_column(a, "u"));
    ck_assert(!ovsdb_column_set_equals(&set, &clone));
    ovsdb_column_set_destroy(&clone);
    ovsdb_column_set_destroy(&set);

    ovsdb_column_set_init(&set);
    ovsdb_column_set_add_all(&set, a);
    ck_assert_uint_eq(set.n_columns, a->n_columns);
    ovsdb_column_set_destroy(&set);

    json = check_json_parse("[\"i\", \"nope\"]");
    struct ovsdb_error *error = ovsdb_column_set_from_json(json, a, &set);
    json_decref(json);
    s = ovsdb_error_to_string_free(error);
    ck_assert_str_eq(s, "syntax \"[\"i\",\"nope\"]\": syntax error: nope is "
                     "not a valid column name");
    free(s);
    ck_assert_uint_eq(set.n_columns, 0);

    json = check_json_parse("[\"i\", \"i\"]");
    error = ovsdb_column_set_from_json(json, a, &set);
    json_decref(json);
    s = ovsdb_error_to_string_free(error);
    ck_assert_str_eq(s, "syntax \"[\"i\",\"i\"]\": syntax error: array of "
                     "distinct column names expected");
    free(s);
    ovsdb_schema_destroy(schema);
}
END_TEST

START_TEST(test_errors)
{
    /* Wording checked against Open vSwitch 3.1's ovsdb-tool. */
    check_error("{\"name\":\"x\",\"version\":\"1.0\",\"tables\":{}}",
                "syntax \"{\"name\":\"x\",\"tables\":{},\"version\":\"1.0\"}\": "
                "syntax error: schema version \"1.0\" not in format x.y.z");
    check_error("{\"name\":\"x\",\"tables\":{\"_a\":{\"columns\":{\"x\":"
                "{\"type\":\"integer\"}}}}}",
                "syntax \"{\"name\":\"x\",\"tables\":{\"_a\":{\"columns\":{"
                "\"x\":{\"type\":\"integer\"}}}}}\": syntax error: names "
                "beginning with \"_\" are reserved");
    check_error("{\"name\":\"x\",\"tables\":{\"a\":{\"columns\":{\"_x\":"
                "{\"type\":\"integer\"}}}}}",
                "syntax \"{\"columns\":{\"_x\":{\"type\":\"integer\"}}}\": "
                "syntax error: names beginning with \"_\" are reserved");
    check_error("{\"name\":\"x\",\"tables\":{\"a\":{\"columns\":{\"x-y\":"
                "{\"type\":\"integer\"}}}}}",
                "syntax \"{\"columns\":{\"x-y\":{\"type\":\"integer\"}}}\": "
                "syntax error: name must be a valid id");
    check_error("{\"name\":\"x\",\"tables\":{\"a\":{\"columns\":{}}}}",
                "syntax \"{\"columns\":{}}\": syntax error: table must have "
                "at least one column");
    check_error("{\"name\":\"x\",\"tables\":{\"a\":{\"columns\":{\"x\":"
                "{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"b\"}}}"
                "}}}}",
                "syntax error: column x key refers to undefined table b");
    check_error("{\"name\":\"x\",\"tables\":{\"a\":{\"columns\":{\"x\":"
                "{\"type\":{\"key\":\"string\",\"value\":{\"type\":\"uuid\","
                "\"refTable\":\"b\"}}}}}}}",
                "syntax error: column x value refers to undefined table b");
    check_error("{\"name\":\"x\",\"tables\":{\"a\":{\"columns\":{\"x\":"
                "{\"type\":\"integer\",\"ephemeral\":true}},\"indexes\":"
                "[[\"x\"]]}}}",
                "syntax \"{\"columns\":{\"x\":{\"ephemeral\":true,\"type\":"
                "\"integer\"}},\"indexes\":[[\"x\"]]}\": syntax error: "
                "ephemeral columns (such as x) may not be indexed");
    check_error("{\"name\":\"x\",\"tables\":{\"a\":{\"columns\":{\"x\":"
                "{\"type\":\"integer\",\"foo\":1}}}}}",
                "syntax \"{\"foo\":1,\"type\":\"integer\"}\": syntax error: "
                "Parsing schema for column x failed: Member 'foo' is present "
                "but not allowed here.");
    check_error("{\"name\":\"x\",\"tables\":{\"a\":{\"columns\":{\"x\":{}}}}}",
                "syntax \"{}\": syntax error: Parsing schema for column x "
                "failed: Required 'type' member is missing.");
    check_error("{\"name\":\"x\",\"tables\":{\"a\":{\"maxRows\":0,"
                "\"columns\":{\"x\":{\"type\":\"integer\"}}}}}",
                "syntax \"{\"columns\":{\"x\":{\"type\":\"integer\"}},"
                "\"maxRows\":0}\": syntax error: maxRows must be at least 1");
    check_error("{\"name\":\"x\",\"tables\":{\"a\":{\"columns\":{\"x\":"
                "{\"type\":\"integer\"}},\"indexes\":[[\"y\"]]}}}",
                "syntax \"[\"y\"]\": syntax error: y is not a valid column "
                "name");
    check_error("{\"name\":\"x\",\"tables\":{\"a\":{\"columns\":{\"x\":"
                "{\"type\":\"integer\"}},\"indexes\":[[]]}}}",
                "syntax \"{\"columns\":{\"x\":{\"type\":\"integer\"}},"
                "\"indexes\":[[]]}\": syntax error: index must have at least "
                "one column");
    check_error("{\"name\":\"1x\",\"tables\":{}}",
                "syntax \"{\"name\":\"1x\",\"tables\":{}}\": syntax error: "
                "Parsing database schema failed: Type mismatch for member "
                "'name'.");
    check_error("[]", "syntax error: Parsing database schema failed: Object "
                "expected.");
    check_error("{\"name\":\"x\",\"tables\":{\"a\":\"b\"}}",
                "syntax error: Parsing table schema for table a failed: "
                "Object expected.");
    check_error("{\"name\":\"x\",\"tables\":{\"a\":{\"columns\":{\"x\":"
                "{\"type\":\"integer\"}}}},\"foo\":1}",
                "syntax \"{\"foo\":1,\"name\":\"x\",\"tables\":{\"a\":{"
                "\"columns\":{\"x\":{\"type\":\"integer\"}}}}}\": syntax "
                "error: Parsing database schema failed: Member 'foo' is "
                "present but not allowed here.");
    check_error("{\"name\":\"x\",\"tables\":{\"a\":{\"columns\":{\"x\":"
                "{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"a\","
                "\"refType\":\"weak\",\"enum\":[\"uuid\",\"9a025bdc-a23f-"
                "4cdd-8002-6e731aef4740\"]}}}}}}}",
                "syntax \"{\"enum\":[\"uuid\",\"9a025bdc-a23f-4cdd-8002-"
                "6e731aef4740\"],\"refTable\":\"a\","
                "\"refType\":\"weak\",\"type\":\"uuid\"}\": syntax error: "
                "Parsing ovsdb type failed: Member 'refTable' and 1 other "
                "member are present but not allowed here.");
}
END_TEST

START_TEST(test_versions_and_ids)
{
    int v[3];
    ck_assert(ovsdb_parse_version("8.3.1", v));
    ck_assert_int_eq(v[0], 8);
    ck_assert_int_eq(v[1], 3);
    ck_assert_int_eq(v[2], 1);
    ck_assert(ovsdb_is_valid_version("0.0.0"));
    ck_assert(ovsdb_is_valid_version("01.2.3"));
    ck_assert(!ovsdb_is_valid_version("1.0"));
    ck_assert(!ovsdb_is_valid_version("1.2.3.4"));
    ck_assert(!ovsdb_is_valid_version("1.2.3 x"));
    ck_assert(!ovsdb_is_valid_version("a.b.c"));
    ck_assert(!ovsdb_is_valid_version(""));

    ck_assert(ovsdb_is_valid_id("Open_vSwitch"));
    ck_assert(ovsdb_is_valid_id("_uuid"));
    ck_assert(ovsdb_is_valid_id("a1"));
    ck_assert(!ovsdb_is_valid_id("1a"));
    ck_assert(!ovsdb_is_valid_id("a-b"));
    ck_assert(!ovsdb_is_valid_id(""));
}
END_TEST

START_TEST(test_vswitch_schema)
{
    struct ovsdb_schema *schema;
    struct ovsdb_error *error = ovsdb_schema_from_file(
        TOP_SRCDIR "/vswitchd/vswitch.ovsschema", &schema);
    if (error) {
        char *s = ovsdb_error_to_string_free(error);
        ck_abort_msg("%s", s);
    }
    ck_assert_str_eq(schema->name, "Open_vSwitch");

    /* Tables as Open vSwitch 3.1's get-schema prints them. */
    static const struct {
        const char *name, *json;
    } tables[] = {
        { "AutoAttach",
          "{\"columns\":{\"mappings\":{\"type\":{\"key\":{\"maxInteger\":1677"
          "7215,\"minInteger\":0,\"type\":\"integer\"},\"max\":\"unlimited\","
          "\"min\":0,\"value\":{\"maxInteger\":4095,\"minInteger\":0,\"type\""
          ":\"integer\"}}},\"system_description\":{\"type\":\"string\"},\"sys"
          "tem_name\":{\"type\":\"string\"}}}" },
        { "Open_vSwitch",
          "{\"columns\":{\"bridges\":{\"type\":{\"key\":{\"refTable\":\"Bridg"
          "e\",\"type\":\"uuid\"},\"max\":\"unlimited\",\"min\":0}},\"cur_cfg"
          "\":{\"type\":\"integer\"},\"datapath_types\":{\"type\":{\"key\":\""
          "string\",\"max\":\"unlimited\",\"min\":0}},\"datapaths\":{\"type\""
          ":{\"key\":\"string\",\"max\":\"unlimited\",\"min\":0,\"value\":{\""
          "refTable\":\"Datapath\",\"type\":\"uuid\"}}},\"db_version\":{\"typ"
          "e\":{\"key\":\"string\",\"min\":0}},\"dpdk_initialized\":{\"type\""
          ":\"boolean\"},\"dpdk_version\":{\"type\":{\"key\":\"string\",\"min"
          "\":0}},\"external_ids\":{\"type\":{\"key\":\"string\",\"max\":\"un"
          "limited\",\"min\":0,\"value\":\"string\"}},\"iface_types\":{\"type"
          "\":{\"key\":\"string\",\"max\":\"unlimited\",\"min\":0}},\"manager"
          "_options\":{\"type\":{\"key\":{\"refTable\":\"Manager\",\"type\":\""
          "uuid\"},\"max\":\"unlimited\",\"min\":0}},\"next_cfg\":{\"type\":\""
          "integer\"},\"other_config\":{\"type\":{\"key\":\"string\",\"max\":"
          "\"unlimited\",\"min\":0,\"value\":\"string\"}},\"ovs_version\":{\""
          "type\":{\"key\":\"string\",\"min\":0}},\"ssl\":{\"type\":{\"key\":"
          "{\"refTable\":\"SSL\",\"type\":\"uuid\"},\"min\":0}},\"statistics\""
          ":{\"ephemeral\":true,\"type\":{\"key\":\"string\",\"max\":\"unlimi"
          "ted\",\"min\":0,\"value\":\"string\"}},\"system_type\":{\"type\":{"
          "\"key\":\"string\",\"min\":0}},\"system_version\":{\"type\":{\"key"
          "\":\"string\",\"min\":0}}},\"isRoot\":true,\"maxRows\":1}" },
        { "Manager",
          "{\"columns\":{\"connection_mode\":{\"type\":{\"key\":{\"enum\":[\""
          "set\",[\"in-band\",\"out-of-band\"]],\"type\":\"string\"},\"min\":"
          "0}},\"external_ids\":{\"type\":{\"key\":\"string\",\"max\":\"unlim"
          "ited\",\"min\":0,\"value\":\"string\"}},\"inactivity_probe\":{\"ty"
          "pe\":{\"key\":\"integer\",\"min\":0}},\"is_connected\":{\"ephemera"
          "l\":true,\"type\":\"boolean\"},\"max_backoff\":{\"type\":{\"key\":"
          "{\"minInteger\":1000,\"type\":\"integer\"},\"min\":0}},\"other_con"
          "fig\":{\"type\":{\"key\":\"string\",\"max\":\"unlimited\",\"min\":"
          "0,\"value\":\"string\"}},\"status\":{\"ephemeral\":true,\"type\":{"
          "\"key\":\"string\",\"max\":\"unlimited\",\"min\":0,\"value\":\"str"
          "ing\"}},\"target\":{\"type\":\"string\"}},\"indexes\":[[\"target\""
          "]]}" },
    };
    json_t *json = ovsdb_schema_to_json(schema);
    json_t *json_tables = json_object_get(json, "tables");
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
        json_t *table = json_object_get(json_tables, tables[i].name);
        ck_assert_ptr_nonnull(table);
        char *s = json_dumps(table, JSON_COMPACT | JSON_SORT_KEYS);
        ck_assert_msg(!strcmp(s, tables[i].json), "%s:\ngot      %s\n"
                      "expected %s", tables[i].name, s, tables[i].json);
        free(s);
    }

    /* The printed schema parses back to an equal schema. */
    struct ovsdb_schema *again;
    error = ovsdb_schema_from_json(json, &again);
    ck_assert_ptr_null(error);
    ck_assert(ovsdb_schema_equal(schema, again));
    json_decref(json);
    ovsdb_schema_destroy(again);
    ovsdb_schema_destroy(schema);
}
END_TEST

START_TEST(test_from_file_errors)
{
    struct ovsdb_schema *schema;
    struct ovsdb_error *error = ovsdb_schema_from_file("/nonexistent",
                                                       &schema);
    ck_assert_ptr_null(schema);
    char *s = ovsdb_error_to_string_free(error);
    ck_assert_str_eq(s, "failed to read schema: \"/nonexistent\" could not "
                     "be read as JSON (error opening \"/nonexistent\": No "
                     "such file or directory)");
    free(s);
}
END_TEST

static Suite *
ovsdb_schema_suite(void)
{
    Suite *s = suite_create("ovsdb-schema");
    TCase *tc = tcase_create("ovsdb-schema");
    tcase_add_test(tc, test_canonical_output);
    tcase_add_test(tc, test_is_root);
    tcase_add_test(tc, test_structure);
    tcase_add_test(tc, test_built_by_hand);
    tcase_add_test(tc, test_column_sets);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_versions_and_ids);
    tcase_add_test(tc, test_vswitch_schema);
    tcase_add_test(tc, test_from_file_errors);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ovsdb_schema_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
