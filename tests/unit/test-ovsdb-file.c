#include <config.h>
#include "file.h"

#include <check.h>
#include "check-util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "execution.h"
#include "log.h"
#include "ovsdb.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "timeval.h"
#include "transaction.h"
#include "util.h"
#include "vlog.h"

/* A database file written by Open vSwitch 3.1's ovsdb-tool: the schema
 * below, then four transactions:
 *
 *   1. insert b "bee" and a {opt: "x", m: {k1=1, k2=2}, r: [bee], d: 1.5,
 *      eph: 3}, comment "hi";
 *   2. update a {opt: "y", m: {k1=1, k2=5, k3=3}, d: 2};
 *   3. insert b "wasp", update a {opt: [], m: {k2=5}, r: [wasp]}, which
 *      garbage-collects "bee";
 *   4. point wasp's weak reference at a new row "moth" that nothing keeps,
 *      so it is collected and the reference removed again.
 *
 * Records 2 to 4 are differences ("_is_diff"), so reading it back checks
 * that we apply set and map differences and new values of optional
 * columns as Open vSwitch means them. */
static const char ovs_file[] =
    "OVSDB JSON 451 d6bacd49a337ceb298a4d6d5528caab840f7d689\n"
    "{\"name\":\"rich\",\"version\":\"0.1.0\",\"tables\":{\"a\":{\"isRoot\""
    ":true,\"columns\":{\"m\":{\"type\":{\"max\":\"unlimited\",\"min\":0,"
    "\"key\":\"string\",\"value\":\"integer\"}},\"eph\":{\"ephemeral\":tr"
    "ue,\"type\":\"integer\"},\"opt\":{\"type\":{\"min\":0,\"key\":\"strin"
    "g\"}},\"d\":{\"type\":\"real\"},\"r\":{\"type\":{\"max\":\"unlimited\","
    "\"min\":0,\"key\":{\"type\":\"uuid\",\"refTable\":\"b\"}}}}},\"b\":{\"c"
    "olumns\":{\"name\":{\"type\":\"string\"},\"w\":{\"type\":{\"min\":0,\""
    "key\":{\"refType\":\"weak\",\"type\":\"uuid\",\"refTable\":\"b\"}}}}}"
    "}}\n"
    "OVSDB JSON 265 420b407441c181b23c7628686d5d638de28f2b88\n"
    "{\"_date\":1795357975001,\"b\":{\"b3daee25-67ca-44d1-8f3e-d57"
    "0ff0d167d\":{\"name\":\"bee\"}},\"a\":{\"76bd7d9e-f773-4523-9d19"
    "-5bb49223b5a2\":{\"m\":[\"map\",[[\"k1\",1],[\"k2\",2]]],\"opt\":\"x"
    "\",\"d\":1.5,\"r\":[\"uuid\",\"b3daee25-67ca-44d1-8f3e-d570ff0d1"
    "67d\"]}},\"_is_diff\":true,\"_comment\":\"hi\"}\n"
    "OVSDB JSON 135 a8b228098f274812745104957c1f3d19ece96f04\n"
    "{\"_date\":1795357975008,\"a\":{\"76bd7d9e-f773-4523-9d19-5bb"
    "49223b5a2\":{\"m\":[\"map\",[[\"k2\",5],[\"k3\",3]]],\"opt\":\"y\",\"d"
    "\":2}},\"_is_diff\":true}\n"
    "OVSDB JSON 351 ba0893f3eb4ce37999bbcfc236bcf65337ca3ba1\n"
    "{\"_date\":1795357975014,\"b\":{\"b3daee25-67ca-44d1-8f3e-d57"
    "0ff0d167d\":null,\"8409392a-a13f-49d5-9b96-8f43b05068f2\":{"
    "\"name\":\"wasp\"}},\"a\":{\"76bd7d9e-f773-4523-9d19-5bb49223b5"
    "a2\":{\"m\":[\"map\",[[\"k1\",1],[\"k3\",3]]],\"opt\":[\"set\",[]],\"r"
    "\":[\"set\",[[\"uuid\",\"8409392a-a13f-49d5-9b96-8f43b05068f2\""
    "],[\"uuid\",\"b3daee25-67ca-44d1-8f3e-d570ff0d167d\"]]]}},\"_"
    "is_diff\":true}\n"
    "OVSDB JSON 102 57fc0788c199836598c25b9e4472cb9ba00f5ee2\n"
    "{\"_date\":1795357975020,\"b\":{\"8409392a-a13f-49d5-9b96-8f4"
    "3b05068f2\":{\"w\":[\"set\",[]]}},\"_is_diff\":true}\n"
;

/* UUIDs of the rows in ovs_file. */
#define OVS_A "76bd7d9e-f773-4523-9d19-5bb49223b5a2"
#define OVS_BEE "b3daee25-67ca-44d1-8f3e-d570ff0d167d"
#define OVS_WASP "8409392a-a13f-49d5-9b96-8f43b05068f2"

static const char rich_schema[] =
    "{\"name\": \"rich\", \"version\": \"0.1.0\", \"tables\": {"
    " \"a\": {\"columns\": {"
    "   \"opt\": {\"type\": {\"key\": \"string\", \"min\": 0, \"max\": 1}},"
    "   \"m\": {\"type\": {\"key\": \"string\", \"value\": \"integer\","
    "                      \"min\": 0, \"max\": \"unlimited\"}},"
    "   \"r\": {\"type\": {\"key\": {\"type\": \"uuid\", \"refTable\": \"b\"},"
    "                      \"min\": 0, \"max\": \"unlimited\"}},"
    "   \"d\": {\"type\": \"real\"},"
    "   \"eph\": {\"type\": \"integer\", \"ephemeral\": true}},"
    "  \"isRoot\": true},"
    " \"b\": {\"columns\": {"
    "   \"name\": {\"type\": \"string\"},"
    "   \"w\": {\"type\": {\"key\": {\"type\": \"uuid\", \"refTable\": \"b\","
    "                              \"refType\": \"weak\"},"
    "                      \"min\": 0, \"max\": 1}}}}}}";

static char tmpdir[64];
static char *db_name;

static void
setup(void)
{
    strcpy(tmpdir, "/tmp/test-ovsdb-file.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    db_name = xasprintf("%s/db", tmpdir);
}

static void
teardown(void)
{
    char *cmd = xasprintf("rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    free(db_name);
    db_name = NULL;
}

static void
write_bytes(const char *name, const char *bytes, size_t n)
{
    FILE *f = fopen(name, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

static void
create_db(void)
{
    struct ovsdb_schema *schema;
    json_t *json = check_json_parse(rich_schema);
    check_ovsdb_ok(ovsdb_schema_from_json(json, &schema));
    json_decref(json);
    check_ovsdb_ok(ovsdb_file_create(db_name, schema));
    ovsdb_schema_destroy(schema);
}

/* Runs the transaction OPS (a JSON array of operations, without the
 * database name) on DB, commits it, and returns the results, which must
 * hold no error.  COMMIT_ERRORP, if nonnull, receives a commit error
 * instead of failing the test. */
static json_t *
transact__(struct ovsdb *db, const char *ops, bool durable_default,
           struct ovsdb_error **commit_errorp)
{
    json_t *params = check_json_parse(ops);
    json_array_insert_new(params, 0, json_string("rich"));

    long long int timeout;
    bool durable = durable_default;
    struct ovsdb_txn *txn = NULL;
    json_t *results = ovsdb_execute(db, NULL, params, false, 0, &timeout,
                                    &durable, &txn);
    json_decref(params);
    ck_assert_ptr_nonnull(results);

    size_t i;
    json_t *result;
    json_array_foreach (results, i, result) {
        if (json_object_get(result, "error")) {
            char *s = json_dumps(results, 0);
            ck_abort_msg("transaction failed: %s", s);
        }
    }
    if (txn) {
        struct ovsdb_error *error = ovsdb_txn_commit(txn, durable);
        if (commit_errorp) {
            *commit_errorp = error;
        } else {
            check_ovsdb_ok(error);
        }
    } else if (commit_errorp) {
        *commit_errorp = NULL;
    }
    return results;
}

static json_t *
transact(struct ovsdb *db, const char *ops)
{
    return transact__(db, ops, false, NULL);
}

/* Returns the UUID string in RESULTS[I] (an insert's result). */
static const char *
result_uuid(const json_t *results, size_t i)
{
    json_t *uuid = json_object_get(json_array_get(results, i), "uuid");
    ck_assert_ptr_nonnull(uuid);
    return json_string_value(json_array_get(uuid, 1));
}

/* Checks that DB's select of OPS gives EXPECTED (JSON text). */
static void
check_select(struct ovsdb *db, const char *ops, const char *expected_s)
{
    json_t *results = transact(db, ops);
    json_t *expected = check_json_parse(expected_s);
    if (!json_equal(results, expected)) {
        char *a = json_dumps(results, JSON_SORT_KEYS);
        char *b = json_dumps(expected, JSON_SORT_KEYS);
        ck_abort_msg("select gave %s, expected %s", a, b);
    }
    json_decref(results);
    json_decref(expected);
}

/* Reads every record of the log DB_NAME. */
static json_t *
read_records(void)
{
    struct ovsdb_log *log;
    check_ovsdb_ok(ovsdb_log_open(db_name, OVSDB_MAGIC, OVSDB_LOG_READ_ONLY, 0,
                            &log));
    json_t *records = json_array();
    for (;;) {
        json_t *json;
        check_ovsdb_ok(ovsdb_log_read(log, &json));
        if (!json) {
            break;
        }
        json_array_append_new(records, json);
    }
    ck_assert(!ovsdb_log_has_damaged_tail(log));
    ovsdb_log_close(log);
    return records;
}

/* Checks that RECORD, with its "_date" removed (which must be a plausible
 * time in milliseconds), equals EXPECTED. */
static void
check_record(json_t *record, json_t *expected)
{
    json_t *date = json_object_get(record, "_date");
    ck_assert(json_is_integer(date));
    long long int now = time_wall_msec();
    ck_assert(json_integer_value(date) > now - 3600 * 1000);
    ck_assert(json_integer_value(date) <= now);
    json_object_del(record, "_date");
    if (!json_equal(record, expected)) {
        char *a = json_dumps(record, JSON_SORT_KEYS);
        char *b = json_dumps(expected, JSON_SORT_KEYS);
        ck_abort_msg("record is %s, expected %s", a, b);
    }
    json_decref(expected);
}

static const char select_all[] =
    "[{\"op\": \"select\", \"table\": \"a\", \"where\": [],"
    "  \"columns\": [\"_uuid\", \"opt\", \"m\", \"r\", \"d\"]},"
    " {\"op\": \"select\", \"table\": \"b\", \"where\": [],"
    "  \"columns\": [\"_uuid\", \"name\", \"w\"]}]";

/* Reading. */

START_TEST(test_reads_open_vswitch_file)
{
    write_bytes(db_name, ovs_file, strlen(ovs_file));

    struct ovsdb *db;
    check_ovsdb_ok(ovsdb_file_read(db_name, false, &db, NULL));
    check_select(db, select_all,
                 "[{\"rows\": [{\"_uuid\": [\"uuid\", \"" OVS_A "\"],"
                 "              \"opt\": [\"set\", []],"
                 "              \"m\": [\"map\", [[\"k2\", 5]]],"
                 "              \"r\": [\"uuid\", \"" OVS_WASP "\"],"
                 "              \"d\": 2}]},"
                 " {\"rows\": [{\"_uuid\": [\"uuid\", \"" OVS_WASP "\"],"
                 "              \"name\": \"wasp\","
                 "              \"w\": [\"set\", []]}]}]");
    ovsdb_destroy(db);
}
END_TEST

/* Files without "_is_diff" hold new values: the same record means
 * something else with and without it. */
START_TEST(test_reads_both_record_forms)
{
    static const char *const forms[2] = { "", ", \"_is_diff\": true" };
    static const char *const expected[2] = {
        /* New value: m becomes {k1=1}, r is empty. */
        "[{\"rows\": [{\"m\": [\"map\", [[\"k1\", 1]]],"
        "              \"opt\": \"z\"}]}]",
        /* Difference: k1=1 is removed (same value), k2=2 stays; opt is a
         * single-value column, so it holds the new value either way. */
        "[{\"rows\": [{\"m\": [\"map\", [[\"k2\", 2]]],"
        "              \"opt\": \"z\"}]}]",
    };

    for (int i = 0; i < 2; i++) {
        unlink(db_name);
        create_db();

        struct ovsdb_log *log;
        check_ovsdb_ok(ovsdb_log_open(db_name, OVSDB_MAGIC, OVSDB_LOG_READ_WRITE,
                                -1, &log));
        json_t *json;
        check_ovsdb_ok(ovsdb_log_read(log, &json));
        json_decref(json);

        char *s = xasprintf(
            "{\"a\": {\"" OVS_A "\": {\"m\": [\"map\", [[\"k1\", 1], "
            "[\"k2\", 2]]], \"opt\": \"x\"}}%s}", forms[i]);
        json = check_json_parse(s);
        free(s);
        check_ovsdb_ok(ovsdb_log_write(log, json));
        json_decref(json);

        s = xasprintf("{\"a\": {\"" OVS_A "\": {\"m\": [\"map\", "
                      "[[\"k1\", 1]]], \"opt\": \"z\"}}%s}", forms[i]);
        json = check_json_parse(s);
        free(s);
        check_ovsdb_ok(ovsdb_log_write(log, json));
        json_decref(json);
        ovsdb_log_close(log);

        struct ovsdb *db;
        check_ovsdb_ok(ovsdb_file_read(db_name, false, &db, NULL));
        check_select(db, "[{\"op\": \"select\", \"table\": \"a\","
                     "   \"where\": [], \"columns\": [\"m\", \"opt\"]}]",
                     expected[i]);
        ovsdb_destroy(db);
    }
}
END_TEST

START_TEST(test_record_for_unknown_table_ends_the_log)
{
    create_db();
    struct ovsdb_log *log;
    check_ovsdb_ok(ovsdb_log_open(db_name, OVSDB_MAGIC, OVSDB_LOG_READ_WRITE, -1,
                            &log));
    json_t *json;
    check_ovsdb_ok(ovsdb_log_read(log, &json));
    json_decref(json);
    json = check_json_parse("{\"nosuchtable\": {}}");
    check_ovsdb_ok(ovsdb_log_write(log, json));
    json_decref(json);
    ovsdb_log_close(log);

    /* The database is what the records before it made; the file keeps the
     * record until a write replaces it. */
    struct ovsdb *db;
    struct ovsdb_file *file;
    check_ovsdb_ok(ovsdb_file_read(db_name, true, &db, &file));
    ck_assert_ptr_nonnull(db);
    json_decref(transact(db, "[{\"op\": \"insert\", \"table\": \"a\","
                             " \"row\": {}}]"));
    ovsdb_file_close(file);
    ovsdb_destroy(db);

    /* After that commit, nothing of the bad record is left. */
    check_ovsdb_ok(ovsdb_log_open(db_name, OVSDB_MAGIC, OVSDB_LOG_READ_ONLY, 0,
                            &log));
    for (;;) {
        check_ovsdb_ok(ovsdb_log_read(log, &json));
        if (!json) {
            break;
        }
        ck_assert_ptr_null(json_object_get(json, "nosuchtable"));
        json_decref(json);
    }
    ck_assert(!ovsdb_log_has_damaged_tail(log));
    ovsdb_log_close(log);
}
END_TEST

/* Writing. */

/* The same transactions as in ovs_file, written by us: the records must
 * say what Open vSwitch's say. */
START_TEST(test_writes_open_vswitch_records)
{
    create_db();
    struct ovsdb *db;
    struct ovsdb_file *file;
    check_ovsdb_ok(ovsdb_file_read(db_name, true, &db, &file));

    json_t *r1 = transact(db,
        "[{\"op\": \"insert\", \"table\": \"b\", \"row\": {\"name\": \"bee\"},"
        "  \"uuid-name\": \"bb\"},"
        " {\"op\": \"insert\", \"table\": \"a\","
        "  \"row\": {\"opt\": \"x\","
        "           \"m\": [\"map\", [[\"k1\", 1], [\"k2\", 2]]],"
        "           \"r\": [\"named-uuid\", \"bb\"], \"d\": 1.5, \"eph\": 3}},"
        " {\"op\": \"comment\", \"comment\": \"hi\"}]");
    const char *bee = result_uuid(r1, 0), *a = result_uuid(r1, 1);
    json_decref(transact(db,
        "[{\"op\": \"update\", \"table\": \"a\", \"where\": [],"
        "  \"row\": {\"opt\": \"y\","
        "           \"m\": [\"map\", [[\"k1\", 1], [\"k2\", 5], [\"k3\", 3]]],"
        "           \"d\": 2}}]"));
    json_t *r3 = transact(db,
        "[{\"op\": \"insert\", \"table\": \"b\", \"row\": {\"name\": \"wasp\"},"
        "  \"uuid-name\": \"w\"},"
        " {\"op\": \"update\", \"table\": \"a\", \"where\": [],"
        "  \"row\": {\"opt\": [\"set\", []], \"m\": [\"map\", [[\"k2\", 5]]],"
        "           \"r\": [\"named-uuid\", \"w\"]}}]");
    const char *wasp = result_uuid(r3, 0);
    /* Only an ephemeral column changes: nothing to store. */
    json_decref(transact(db,
        "[{\"op\": \"update\", \"table\": \"a\", \"where\": [],"
        "  \"row\": {\"eph\": 99}}]"));
    /* A comment alone changes nothing either. */
    json_decref(transact(db, "[{\"op\": \"comment\", \"comment\": \"x\"}]"));
    ck_assert_uint_eq(ovsdb_file_get_n_transactions(file), 3);

    json_t *records = read_records();
    ck_assert_uint_eq(json_array_size(records), 4);

    json_t *schema = check_json_parse(rich_schema);
    struct ovsdb_schema *s1, *s2;
    check_ovsdb_ok(ovsdb_schema_from_json(schema, &s1));
    check_ovsdb_ok(ovsdb_schema_from_json(json_array_get(records, 0), &s2));
    ck_assert(ovsdb_schema_equal(s1, s2));
    ovsdb_schema_destroy(s1);
    ovsdb_schema_destroy(s2);
    json_decref(schema);

    check_record(json_array_get(records, 1), json_pack(
        "{s:{s:{s:s}}, s:{s:{s:[s,[[s,i],[s,i]]], s:s, s:f, s:[s,s]}},"
        " s:b, s:s}",
        "b", bee, "name", "bee",
        "a", a, "m", "map", "k1", 1, "k2", 2, "opt", "x", "d", 1.5,
        "r", "uuid", bee,
        "_is_diff", 1, "_comment", "hi"));
    check_record(json_array_get(records, 2), json_pack(
        "{s:{s:{s:[s,[[s,i],[s,i]]], s:s, s:i}}, s:b}",
        /* Open vSwitch prints an integer-valued real without a fraction,
         * and so do we. */
        "a", a, "m", "map", "k2", 5, "k3", 3, "opt", "y", "d", 2,
        "_is_diff", 1));
    /* A set's difference lists its elements in UUID order. */
    const char *first = strcmp(bee, wasp) < 0 ? bee : wasp;
    const char *second = strcmp(bee, wasp) < 0 ? wasp : bee;
    check_record(json_array_get(records, 3), json_pack(
        "{s:{s:n, s:{s:s}},"
        " s:{s:{s:[s,[[s,i],[s,i]]], s:[s,[]], s:[s,[[s,s],[s,s]]]}},"
        " s:b}",
        "b", bee, wasp, "name", "wasp",
        "a", a, "m", "map", "k1", 1, "k3", 3, "opt", "set",
        "r", "set", "uuid", first, "uuid", second,
        "_is_diff", 1));
    json_decref(records);

    /* What we wrote reads back as the same database. */
    json_decref(r1);
    json_decref(r3);
    ovsdb_destroy(db);
    check_ovsdb_ok(ovsdb_file_read(db_name, false, &db, NULL));
    json_t *results = transact(db, select_all);
    json_t *a_rows = json_object_get(json_array_get(results, 0), "rows");
    ck_assert_uint_eq(json_array_size(a_rows), 1);
    json_t *row = json_array_get(a_rows, 0);
    ck_assert(json_number_value(json_object_get(row, "d")) == 2.0);
    json_t *expected_m = check_json_parse("[\"map\", [[\"k2\", 5]]]");
    ck_assert(json_equal(json_object_get(row, "m"), expected_m));
    json_decref(expected_m);
    json_t *b_rows = json_object_get(json_array_get(results, 1), "rows");
    ck_assert_uint_eq(json_array_size(b_rows), 1);
    json_decref(results);
    ovsdb_destroy(db);
}
END_TEST

START_TEST(test_durable_commit)
{
    create_db();
    struct ovsdb *db;
    struct ovsdb_file *file;
    check_ovsdb_ok(ovsdb_file_read(db_name, true, &db, &file));
    struct ovsdb_error *error;
    json_decref(transact__(db,
        "[{\"op\": \"insert\", \"table\": \"a\", \"row\": {\"d\": 7}},"
        " {\"op\": \"commit\", \"durable\": true}]", false, &error));
    check_ovsdb_ok(error);

    /* Visible to a reader at once. */
    struct ovsdb *copy;
    check_ovsdb_ok(ovsdb_file_read(db_name, false, &copy, NULL));
    check_select(copy, "[{\"op\": \"select\", \"table\": \"a\","
                 "   \"where\": [], \"columns\": [\"d\"]}]",
                 "[{\"rows\": [{\"d\": 7}]}]");
    ovsdb_destroy(copy);
    ovsdb_destroy(db);
}
END_TEST

START_TEST(test_commit_fails_when_file_cannot_be_written)
{
    create_db();
    struct ovsdb *db;
    struct ovsdb_file *file;
    check_ovsdb_ok(ovsdb_file_read(db_name, false, &db, &file));

    struct ovsdb_error *error;
    json_decref(transact__(db,
        "[{\"op\": \"insert\", \"table\": \"a\", \"row\": {\"d\": 7}}]",
        false, &error));
    ck_assert_ptr_nonnull(error);
    ovsdb_error_destroy(error);

    /* The failed commit left the database as it was. */
    check_select(db, "[{\"op\": \"select\", \"table\": \"a\","
                 "   \"where\": [], \"columns\": [\"d\"]}]",
                 "[{\"rows\": []}]");
    ovsdb_destroy(db);
}
END_TEST

/* Damage. */

START_TEST(test_torn_tail_recovered)
{
    create_db();
    struct ovsdb *db;
    struct ovsdb_file *file;
    check_ovsdb_ok(ovsdb_file_read(db_name, true, &db, &file));
    json_decref(transact(db, "[{\"op\": \"insert\", \"table\": \"a\","
                         "   \"row\": {\"d\": 1}}]"));
    json_decref(transact(db, "[{\"op\": \"insert\", \"table\": \"a\","
                         "   \"row\": {\"d\": 2}}]"));
    ovsdb_destroy(db);

    FILE *f = fopen(db_name, "rb");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    ck_assert_int_eq(truncate(db_name, size - 3), 0);

    check_ovsdb_ok(ovsdb_file_read(db_name, true, &db, &file));
    check_select(db, "[{\"op\": \"select\", \"table\": \"a\","
                 "   \"where\": [], \"columns\": [\"d\"]}]",
                 "[{\"rows\": [{\"d\": 1}]}]");
    json_decref(transact(db, "[{\"op\": \"insert\", \"table\": \"a\","
                         "   \"row\": {\"d\": 3}}]"));
    ovsdb_destroy(db);

    json_t *records = read_records();
    ck_assert_uint_eq(json_array_size(records), 3);
    json_decref(records);
}
END_TEST

/* Compaction. */

START_TEST(test_compact_keeps_data)
{
    create_db();
    struct ovsdb *db;
    struct ovsdb_file *file;
    check_ovsdb_ok(ovsdb_file_read(db_name, true, &db, &file));
    for (int i = 0; i < 20; i++) {
        char *ops = xasprintf("[{\"op\": \"insert\", \"table\": \"a\","
                              "  \"row\": {\"d\": %d}},"
                              " {\"op\": \"mutate\", \"table\": \"a\","
                              "  \"where\": [], \"mutations\": "
                              "  [[\"m\", \"insert\", [\"map\", "
                              "    [[\"k%d\", %d]]]]]}]", i, i, i);
        json_decref(transact(db, ops));
        free(ops);
    }
    json_decref(transact(db, "[{\"op\": \"delete\", \"table\": \"a\","
                         "   \"where\": [[\"d\", \"<\", 10]]}]"));
    json_t *before = transact(db, select_all);

    check_ovsdb_ok(ovsdb_file_compact(file));
    json_t *records = read_records();
    ck_assert_uint_eq(json_array_size(records), 2);
    json_t *snapshot = json_array_get(records, 1);
    ck_assert_str_eq(json_string_value(json_object_get(snapshot,
                                                       "_comment")),
                     "compacting database online");
    ck_assert_uint_eq(json_object_size(json_object_get(snapshot, "a")), 10);
    json_decref(records);

    /* Commits go on after compaction, into the new file. */
    json_decref(transact(db, "[{\"op\": \"insert\", \"table\": \"a\","
                         "   \"row\": {\"d\": 100}}]"));
    json_decref(transact(db, "[{\"op\": \"delete\", \"table\": \"a\","
                         "   \"where\": [[\"d\", \"==\", 100]]}]"));
    ovsdb_destroy(db);

    records = read_records();
    ck_assert_uint_eq(json_array_size(records), 4);
    json_decref(records);

    check_ovsdb_ok(ovsdb_file_read(db_name, false, &db, NULL));
    json_t *after = transact(db, select_all);
    ck_assert(json_equal(before, after));
    json_decref(before);
    json_decref(after);
    ovsdb_destroy(db);
}
END_TEST

START_TEST(test_should_compact)
{
    create_db();
    time_stop();

    struct ovsdb *db;
    struct ovsdb_file *file;
    check_ovsdb_ok(ovsdb_file_read(db_name, true, &db, &file));
    ck_assert(!ovsdb_file_should_compact(file, time_msec()));

    /* 120 transactions of about 100 kB each: over 10 MB. */
    char *big = xmalloc(100 * 1024 + 1);
    memset(big, 'q', 100 * 1024);
    big[100 * 1024] = '\0';
    for (int i = 0; i < 120; i++) {
        char *ops = xasprintf("[{\"op\": \"insert\", \"table\": \"a\","
                              "  \"row\": {\"opt\": \"%s\", \"d\": %d}},"
                              " {\"op\": \"delete\", \"table\": \"a\","
                              "  \"where\": [[\"d\", \"==\", %d]]}]",
                              big, i, i - 1);
        json_decref(transact(db, ops));
        free(ops);
    }
    free(big);

    /* Big enough, but not 10 minutes since the file was opened. */
    ck_assert(!ovsdb_file_should_compact(file, time_msec()));
    long long int next = ovsdb_file_next_compact(file);
    ck_assert(next > time_msec());
    time_warp(next - time_msec());
    ck_assert(ovsdb_file_should_compact(file, time_msec()));

    check_ovsdb_ok(ovsdb_file_compact(file));
    ck_assert(!ovsdb_file_should_compact(file, time_msec()));
    ovsdb_destroy(db);
}
END_TEST

static Suite *
ovsdb_file_suite(void)
{
    Suite *s = suite_create("ovsdb-file");

    TCase *tc = tcase_create("read");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_reads_open_vswitch_file);
    tcase_add_test(tc, test_reads_both_record_forms);
    tcase_add_test(tc, test_record_for_unknown_table_ends_the_log);
    suite_add_tcase(s, tc);

    tc = tcase_create("write");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_writes_open_vswitch_records);
    tcase_add_test(tc, test_durable_commit);
    tcase_add_test(tc, test_commit_fails_when_file_cannot_be_written);
    tcase_add_test(tc, test_torn_tail_recovered);
    suite_add_tcase(s, tc);

    tc = tcase_create("compact");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_compact_keeps_data);
    tcase_add_test(tc, test_should_compact);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);

    return s;
}

int
main(int argc OVS_UNUSED, char *argv[])
{
    set_program_name(argv[0]);
    vlog_set_levels(NULL, VLF_CONSOLE, VLL_OFF);

    SRunner *sr = srunner_create(ovsdb_file_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0;
}
