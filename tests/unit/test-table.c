/* Unit tests for table.h and json-print.h: the exact bytes of every output
 * format, as Open vSwitch's tools print them. */
#include <config.h>
#include "table.h"

#include <check.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dynamic-string.h"
#include "json-print.h"
#include "ovsdb-error.h"
#include "ovsdb-types.h"
#include "shash.h"
#include "util.h"

#define U1 "536919d2-61bf-49a1-bfe7-5d35dc5e65da"
#define U2 "a4b6155c-074c-461e-9919-24991c53880e"

/* Column types of the sample table (a schema would own them). */
static struct ovsdb_type uuid_type, string_type, int_type, set_type, map_type;

static void
parse_type(struct ovsdb_type *type, const char *text)
{
    json_t *json = json_loads(text, JSON_DECODE_ANY, NULL);
    ck_assert_ptr_nonnull(json);
    struct ovsdb_error *error = ovsdb_type_from_json(type, json);
    ck_assert_ptr_null(error);
    json_decref(json);
}

static void
setup_types(void)
{
    parse_type(&uuid_type, "\"uuid\"");
    parse_type(&string_type, "\"string\"");
    parse_type(&int_type, "\"integer\"");
    parse_type(&set_type, "{\"key\": \"uuid\", \"min\": 0, "
               "\"max\": \"unlimited\"}");
    parse_type(&map_type, "{\"key\": \"string\", \"value\": \"integer\", "
               "\"min\": 0, \"max\": \"unlimited\"}");
}

static void
teardown_types(void)
{
    ovsdb_type_destroy(&uuid_type);
    ovsdb_type_destroy(&string_type);
    ovsdb_type_destroy(&int_type);
    ovsdb_type_destroy(&set_type);
    ovsdb_type_destroy(&map_type);
}

static void
json_cell(struct table *t, const char *json_text,
          const struct ovsdb_type *type)
{
    struct cell *cell = table_add_cell(t);
    cell->json = json_loads(json_text, JSON_DECODE_ANY, NULL);
    ck_assert_ptr_nonnull(cell->json);
    cell->type = type;
}

/* The "links"-like sample: a _uuid column, a string that needs quoting, a
 * set of references and a map. */
static void
make_sample(struct table *t)
{
    table_init(t);
    table_set_caption(t, xstrdup("links table"));
    table_add_column(t, "_uuid");
    table_add_column(t, "name");
    table_add_column(t, "%s", "strong");
    table_add_column(t, "map");

    table_add_row(t);
    json_cell(t, "[\"uuid\", \"" U2 "\"]", &uuid_type);
    json_cell(t, "\"one, \\\"two\\\"\\n<&>\"", &string_type);
    json_cell(t, "[\"set\", [[\"uuid\", \"" U1 "\"], [\"uuid\", \"" U2
              "\"]]]", &set_type);
    json_cell(t, "[\"map\", [[\"a b\", 2], [\"k\", 1]]]", &map_type);

    table_add_row(t);
    json_cell(t, "[\"uuid\", \"" U1 "\"]", &uuid_type);
    json_cell(t, "\"\"", &string_type);
    json_cell(t, "[\"set\", []]", &set_type);
    table_add_cell(t);          /* Left empty. */
}

static char *
format(const struct table *t, enum table_format tf, enum cell_format cf,
       bool headings, bool pretty)
{
    struct table_style style = TABLE_STYLE_DEFAULT;
    style.format = tf;
    style.cell_format = cf;
    style.headings = headings;
    style.pretty = pretty;

    struct ds s = DS_EMPTY_INITIALIZER;
    table_format(t, &style, &s);
    return ds_steal_cstr(&s);
}

static void
check_format(const struct table *t, enum table_format tf,
             enum cell_format cf, bool headings, bool pretty,
             const char *expected)
{
    char *actual = format(t, tf, cf, headings, pretty);
    ck_assert_str_eq(actual, expected);
    free(actual);
}

START_TEST(test_table_format)
{
    struct table t;
    make_sample(&t);

    /* Columns as wide as their widest cell, one space between them, no
     * trailing spaces even where the last cell is empty. */
    check_format(&t, TF_TABLE, CF_STRING, true, false,
        "links table\n"
        "_uuid                                name                "
        "strong                                                "
        "                       map\n"
        "------------------------------------ ------------------- "
        "----------------------------------------------------------"
        "------------------ --------------\n"
        U2 " \"one, \\\"two\\\"\\n<&>\" [" U1 ", " U2 "] "
        "{\"a b\"=2, k=1}\n"
        U1 " \"\"                  []\n");

    check_format(&t, TF_TABLE, CF_BARE, false, false,
        "links table\n"
        U2 " one, \"two\"\n<&> " U1 " " U2 " a b=2 k=1\n"
        U1 "\n");

    table_destroy(&t);
}
END_TEST

START_TEST(test_table_widths)
{
    struct table t;
    table_init(&t);
    table_add_column(&t, "a-long-heading");
    table_add_column(&t, "b");
    table_add_column(&t, "last");
    table_add_row(&t);
    table_add_cell(&t)->text = xstrdup("x");
    table_add_cell(&t)->text = xstrdup("wider");
    table_add_cell(&t)->text = xstrdup("");

    check_format(&t, TF_TABLE, CF_STRING, true, false,
                 "a-long-heading b     last\n"
                 "-------------- ----- ----\n"
                 "x              wider\n");
    /* Without headings only the cells count for the width. */
    check_format(&t, TF_TABLE, CF_STRING, false, false, "x wider\n");

    /* max_column_width cuts cells to the column's width, but a column is
     * never narrower than its heading (as Open vSwitch's tools print). */
    struct table_style style = TABLE_STYLE_DEFAULT;
    style.max_column_width = 3;
    struct ds s = DS_EMPTY_INITIALIZER;
    table_format(&t, &style, &s);
    ck_assert_str_eq(ds_cstr(&s), "a-long-heading b   last\n"
                                  "-------------- --- ----\n"
                                  "x              wid\n");
    ds_clear(&s);
    style.headings = false;
    table_format(&t, &style, &s);
    ck_assert_str_eq(ds_cstr(&s), "x wid\n");
    ds_destroy(&s);

    table_destroy(&t);

    /* No rows: headings and dashes only. */
    table_init(&t);
    table_add_column(&t, "Column");
    table_add_column(&t, "Type");
    check_format(&t, TF_TABLE, CF_STRING, true, false,
                 "Column Type\n------ ----\n");
    ck_assert(table_is_empty(&t));
    table_destroy(&t);
}
END_TEST

START_TEST(test_list_format)
{
    struct table t;
    make_sample(&t);

    check_format(&t, TF_LIST, CF_STRING, true, false,
        "links table\n"
        "_uuid               : " U2 "\n"
        "name                : \"one, \\\"two\\\"\\n<&>\"\n"
        "strong              : [" U1 ", " U2 "]\n"
        "map                 : {\"a b\"=2, k=1}\n"
        "\n"
        "_uuid               : " U1 "\n"
        "name                : \"\"\n"
        "strong              : []\n"
        "map                 : \n");

    check_format(&t, TF_LIST, CF_BARE, false, false,
        "links table\n"
        U2 "\n"
        "one, \"two\"\n<&>\n"
        U1 " " U2 "\n"
        "a b=2 k=1\n"
        "\n"
        U1 "\n"
        "\n"
        "\n"
        "\n");
    table_destroy(&t);

    /* A heading of 20 or more characters is not cut. */
    table_init(&t);
    table_add_column(&t, "a_very_long_column_name_here");
    table_add_row(&t);
    table_add_cell(&t)->text = xstrdup("0");
    check_format(&t, TF_LIST, CF_STRING, true, false,
                 "a_very_long_column_name_here: 0\n");
    table_destroy(&t);
}
END_TEST

START_TEST(test_html_format)
{
    struct table t;
    make_sample(&t);

    check_format(&t, TF_HTML, CF_STRING, true, false,
        "<table border=1>\n"
        "    <caption>links table</caption>\n"
        "  <tr>\n"
        "    <th>_uuid</th>\n"
        "    <th>name</th>\n"
        "    <th>strong</th>\n"
        "    <th>map</th>\n"
        "  </tr>\n"
        "  <tr>\n"
        "    <td><a name=\"" U2 "\">a4b6155c</a></td>\n"
        "    <td>&quot;one, \\&quot;two\\&quot;\\n&lt;&amp;&gt;&quot;</td>\n"
        "    <td>[<a href=\"#" U1 "\">536919d2</a>, "
        "<a href=\"#" U2 "\">a4b6155c</a>]</td>\n"
        "    <td>{&quot;a b&quot;=2, k=1}</td>\n"
        "  </tr>\n"
        "  <tr>\n"
        "    <td><a name=\"" U1 "\">536919d2</a></td>\n"
        "    <td>&quot;&quot;</td>\n"
        "    <td>[]</td>\n"
        "    <td></td>\n"
        "  </tr>\n"
        "</table>\n");

    /* The anchor holds the whole cell text, whatever the cell format. */
    char *s = format(&t, TF_HTML, CF_JSON, false, false);
    ck_assert_ptr_nonnull(strstr(s,
        "<td><a name=\"[&quot;uuid&quot;,&quot;" U2 "&quot;]\">"
        "[&quot;uuid&quot;,</a></td>"));
    ck_assert_ptr_null(strstr(s, "<th>"));
    free(s);

    table_destroy(&t);
}
END_TEST

START_TEST(test_csv_format)
{
    struct table t;
    make_sample(&t);

    check_format(&t, TF_CSV, CF_STRING, true, false,
        "links table\n"
        "_uuid,name,strong,map\n"
        U2 ",\"\"\"one, \\\"\"two\\\"\"\\n<&>\"\"\",\"[" U1 ", " U2 "]\","
        "\"{\"\"a b\"\"=2, k=1}\"\n"
        U1 ",\"\"\"\"\"\",[],\n");

    check_format(&t, TF_CSV, CF_BARE, false, false,
        "links table\n"
        U2 ",\"one, \"\"two\"\"\n<&>\"," U1 " " U2 ",a b=2 k=1\n"
        U1 ",,,\n");

    table_destroy(&t);
}
END_TEST

START_TEST(test_json_format)
{
    struct table t;
    make_sample(&t);

    /* JSON cells stay JSON whatever the cell format; an empty cell is
     * null; members are sorted. */
    const char *compact =
        "{\"caption\":\"links table\",\"data\":"
        "[[[\"uuid\",\"" U2 "\"],\"one, \\\"two\\\"\\n<&>\","
        "[\"set\",[[\"uuid\",\"" U1 "\"],[\"uuid\",\"" U2 "\"]]],"
        "[\"map\",[[\"a b\",2],[\"k\",1]]]],"
        "[[\"uuid\",\"" U1 "\"],\"\",[\"set\",[]],null]],"
        "\"headings\":[\"_uuid\",\"name\",\"strong\",\"map\"]}\n";
    check_format(&t, TF_JSON, CF_STRING, true, false, compact);
    check_format(&t, TF_JSON, CF_BARE, false, false, compact);
    table_destroy(&t);

    /* Text cells become strings; the pretty layout. */
    table_init(&t);
    table_add_column(&t, "Table");
    table_add_row(&t);
    table_add_cell(&t)->text = xstrdup("ordinals");
    table_add_row(&t);
    table_add_cell(&t)->text = xstrdup("links");
    check_format(&t, TF_JSON, CF_STRING, true, true,
                 "{\n"
                 "  \"data\": [\n"
                 "    [\n"
                 "      \"ordinals\"],\n"
                 "    [\n"
                 "      \"links\"]],\n"
                 "  \"headings\": [\n"
                 "    \"Table\"]}\n");
    table_destroy(&t);
}
END_TEST

START_TEST(test_cell_formats)
{
    struct table_style style = TABLE_STYLE_DEFAULT;
    struct cell cell = { NULL, NULL, NULL };

    /* A cell never filled in is empty text. */
    char *s = cell_to_text(&cell, &style);
    ck_assert_str_eq(s, "");
    free(s);

    /* A JSON cell without a type prints as sorted compact JSON. */
    cell.json = json_loads("{\"min\": 0, \"key\": \"string\"}", 0, NULL);
    s = cell_to_text(&cell, &style);
    ck_assert_str_eq(s, "{\"key\":\"string\",\"min\":0}");
    free(s);
    json_decref(cell.json);

    /* A JSON cell that is not a value of its type (a diff with more
     * elements than the type allows) prints as JSON. */
    cell.json = json_loads("[\"set\", [1, 2]]", 0, NULL);
    cell.type = &int_type;
    s = cell_to_text(&cell, &style);
    ck_assert_str_eq(s, "[\"set\",[1,2]]");
    free(s);
    json_decref(cell.json);

    /* Strings that would read back as something else are quoted. */
    cell.json = json_string("123");
    cell.type = &string_type;
    s = cell_to_text(&cell, &style);
    ck_assert_str_eq(s, "\"123\"");
    free(s);
    style.cell_format = CF_BARE;
    s = cell_to_text(&cell, &style);
    ck_assert_str_eq(s, "123");
    free(s);
    style.cell_format = CF_JSON;
    s = cell_to_text(&cell, &style);
    ck_assert_str_eq(s, "\"123\"");
    free(s);
    json_decref(cell.json);
}
END_TEST

START_TEST(test_parse_style)
{
    struct table_style style = TABLE_STYLE_DEFAULT;
    table_parse_format(&style, "csv");
    ck_assert_int_eq(style.format, TF_CSV);
    table_parse_format(&style, "json");
    ck_assert_int_eq(style.format, TF_JSON);
    table_parse_cell_format(&style, "bare");
    ck_assert_int_eq(style.cell_format, CF_BARE);
    ck_assert_int_eq(table_style_json_flags(&style), JSON_PRINT_SORT);
    style.pretty = true;
    ck_assert_int_eq(table_style_json_flags(&style),
                     JSON_PRINT_SORT | JSON_PRINT_PRETTY);
}
END_TEST

START_TEST(test_parse_bad_format)
{
    struct table_style style = TABLE_STYLE_DEFAULT;
    table_parse_format(&style, "yaml");
}
END_TEST

START_TEST(test_timestamp)
{
    struct table t;
    table_init(&t);
    table_set_timestamp(&t, true);
    table_add_column(&t, "x");
    table_add_row(&t);
    table_add_cell(&t)->text = xstrdup("1");

    char *s = format(&t, TF_TABLE, CF_STRING, true, false);
    regex_t re;
    ck_assert_int_eq(regcomp(&re, "^[0-9]{4}-[0-9]{2}-[0-9]{2} "
                             "[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}\n"
                             "x\n-\n1\n$", REG_EXTENDED), 0);
    ck_assert_msg(!regexec(&re, s, 0, NULL, 0), "bad output: %s", s);
    free(s);

    s = format(&t, TF_JSON, CF_STRING, true, false);
    ck_assert_ptr_nonnull(strstr(s, "\"time\":\""));
    free(s);

    regfree(&re);
    table_destroy(&t);
}
END_TEST

/* table_print() separates tables with a blank line in the table, list and
 * csv formats only. */
START_TEST(test_print_separators)
{
    FILE *tmp = tmpfile();
    ck_assert_ptr_nonnull(tmp);
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    dup2(fileno(tmp), STDOUT_FILENO);

    struct table t;
    table_init(&t);
    table_add_column(&t, "x");
    table_add_row(&t);
    table_add_cell(&t)->text = xstrdup("1");

    struct table_style style = TABLE_STYLE_DEFAULT;
    table_print(&t, &style);
    table_print(&t, &style);
    style.format = TF_JSON;
    table_print(&t, &style);
    style.format = TF_CSV;
    table_print(&t, &style);
    fflush(stdout);

    dup2(saved, STDOUT_FILENO);
    close(saved);

    char buf[256];
    rewind(tmp);
    size_t n = fread(buf, 1, sizeof buf - 1, tmp);
    buf[n] = '\0';
    fclose(tmp);
    ck_assert_str_eq(buf,
                     "x\n-\n1\n"
                     "\nx\n-\n1\n"
                     "{\"data\":[[\"1\"]],\"headings\":[\"x\"]}\n"
                     "\nx\n1\n");
    table_destroy(&t);
}
END_TEST

START_TEST(test_json_print)
{
    json_t *json = json_loads(
        "{\"b\": [1, 1.5, 0.1, 1e300, 100.0, -2.5e-10, true, false, null],"
        " \"a\": \"\\u0001\\u001f\\\"\\\\/\\b\\f\\n\\r\\t\\u00e9\","
        " \"c\": {}, \"d\": []}", 0, NULL);
    ck_assert_ptr_nonnull(json);

    char *s = json_print_to_string(json, JSON_PRINT_SORT);
    ck_assert_str_eq(s, "{\"a\":\"\\u0001\\u001f\\\"\\\\/\\b\\f\\n\\r\\t\xc3\xa9\","
                     "\"b\":[1,1.5,0.1,1e+300,100,-2.5e-10,true,false,null],"
                     "\"c\":{},\"d\":[]}");
    free(s);

    /* Open vSwitch's pretty layout: "{" always breaks the line, "[" only
     * when the array has elements; closing brackets follow the last
     * element. */
    json_t *small = json_pack("[{}, [], {s:[i]}]", "k", 1);
    s = json_print_to_string(small, JSON_PRINT_SORT | JSON_PRINT_PRETTY);
    ck_assert_str_eq(s, "[\n  {\n    },\n  [],\n  {\n    \"k\": [\n      1]}]");
    free(s);
    json_decref(small);

    /* Without JSON_PRINT_SORT members keep their order. */
    json_t *obj = json_pack("{s:i}", "z", 1);
    json_object_set_new(obj, "a", json_integer(2));
    s = json_print_to_string(obj, 0);
    ck_assert_str_eq(s, "{\"z\":1,\"a\":2}");
    free(s);
    json_decref(obj);

    struct ds ds = DS_EMPTY_INITIALIZER;
    json_print(&ds, NULL, 0);
    json_print_string(&ds, "x\"y");
    ck_assert_str_eq(ds_cstr(&ds), "null\"x\\\"y\"");
    ds_destroy(&ds);

    json_decref(json);
}
END_TEST

/* json_ovs_order() leaves every member in place but in the order of a hash
 * table filled in the members' previous order, at every level. */
START_TEST(test_json_ovs_order)
{
    static const char *const keys[] = {
        "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a",
        "11111111-1111-4111-8111-111111111111",
        "22222222-2222-4222-8222-222222222222",
        "name", "number", "_version", "strong", "weak",
    };
    json_t *inner = json_object();
    json_t *outer = json_object();
    struct shash inner_order = SHASH_INITIALIZER(&inner_order);
    struct shash outer_order = SHASH_INITIALIZER(&outer_order);
    for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
        json_object_set_new(inner, keys[i], json_integer(i));
        json_object_set_new(outer, keys[i], json_integer(i));
        shash_add(&inner_order, keys[i], NULL);
        shash_add(&outer_order, keys[i], NULL);
    }
    json_object_set_new(outer, "inner", json_pack("[o]", inner));
    shash_add(&outer_order, "inner", NULL);

    json_ovs_order(outer);

    const json_t *objects[] = {
        outer, json_array_get(json_object_get(outer, "inner"), 0)
    };
    const struct shash *orders[] = { &outer_order, &inner_order };
    for (size_t k = 0; k < ARRAY_SIZE(objects); k++) {
        void *iter = json_object_iter((json_t *) objects[k]);
        struct shash_node *node;
        SHASH_FOR_EACH (node, orders[k]) {
            ck_assert_ptr_nonnull(iter);
            ck_assert_str_eq(json_object_iter_key(iter), node->name);
            iter = json_object_iter_next((json_t *) objects[k], iter);
        }
        ck_assert_ptr_null(iter);
    }
    ck_assert_int_eq(json_integer_value(json_object_get(outer, "weak")), 7);

    /* Printed without sorting, members come out in that order. */
    char *s = json_print_to_string(outer, 0);
    ck_assert_ptr_nonnull(s);
    free(s);

    shash_destroy(&inner_order);
    shash_destroy(&outer_order);
    json_decref(outer);
}
END_TEST

static Suite *
table_suite(void)
{
    Suite *s = suite_create("table");
    TCase *tc = tcase_create("table");
    tcase_add_checked_fixture(tc, setup_types, teardown_types);
    tcase_add_test(tc, test_table_format);
    tcase_add_test(tc, test_table_widths);
    tcase_add_test(tc, test_list_format);
    tcase_add_test(tc, test_html_format);
    tcase_add_test(tc, test_csv_format);
    tcase_add_test(tc, test_json_format);
    tcase_add_test(tc, test_cell_formats);
    tcase_add_test(tc, test_parse_style);
    /* An exiting test needs a process of its own: skipped under
     * CK_FORK=no (valgrind). */
    const char *fork_env = getenv("CK_FORK");
    if (!fork_env || strcmp(fork_env, "no")) {
        tcase_add_exit_test(tc, test_parse_bad_format, EXIT_FAILURE);
    }
    tcase_add_test(tc, test_timestamp);
    tcase_add_test(tc, test_print_separators);
    tcase_add_test(tc, test_json_print);
    tcase_add_test(tc, test_json_ovs_order);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(table_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
