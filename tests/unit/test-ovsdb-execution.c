/* Unit tests for execution.h: the "transact" executor. */
#include <config.h>
#include "execution.h"

#include <check.h>
#include "check-util.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovsdb.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "server.h"
#include "transaction.h"
#include "util.h"

static const char schema_json[] =
    "{\"name\": \"ex\", \"tables\": {"
    "  \"t\": {\"indexes\": [[\"n\"]], \"columns\": {"
    "    \"n\": {\"type\": \"integer\"},"
    "    \"s\": {\"type\": \"string\"},"
    "    \"ref\": {\"type\": {\"key\": {\"type\": \"uuid\","
    "                                  \"refTable\": \"t\"},"
    "                        \"min\": 0, \"max\": 1}}}},"
    "  \"e\": {\"columns\": {"
    "    \"color\": {\"type\": {\"key\": {\"type\": \"string\","
    "                                    \"enum\": [\"set\", [\"red\","
    "                                               \"blue\"]]}}}}}}}";

static struct ovsdb *db;

static void
setup(void)
{
    struct ovsdb_schema *schema;
    json_t *json = check_json_parse(schema_json);
    check_ovsdb_ok(ovsdb_schema_from_json(json, &schema));
    json_decref(json);
    db = ovsdb_create(schema);
}

static void
teardown(void)
{
    ovsdb_destroy(db);
}

/* Replaces each distinct uuid in S by <N>, numbered in order of first
 * appearance (like the autotests' uuid filter). */
static char *
uuidfilt(const char *s)
{
    char seen[16][37];
    size_t n_seen = 0;
    char *out = xmalloc(strlen(s) + 1);
    char *p = out;

    while (*s) {
        struct uuid uuid;
        if (strlen(s) >= 36 && uuid_from_string_prefix(&uuid, s)) {
            size_t i;
            for (i = 0; i < n_seen; i++) {
                if (!strncmp(seen[i], s, 36)) {
                    break;
                }
            }
            if (i == n_seen) {
                ck_assert_uint_lt(n_seen, 16);
                memcpy(seen[n_seen], s, 36);
                seen[n_seen++][36] = '\0';
            }
            p += sprintf(p, "<%zu>", i);
            s += 36;
        } else {
            *p++ = *s++;
        }
    }
    *p = '\0';
    return out;
}

struct run {
    char *results;              /* Filtered JSON text, or NULL. */
    struct ovsdb_txn *txn;
    long long int timeout;
    bool durable;
};

/* Executes OPS (a JSON array of operations without the database name) with
 * the given options.  Leaves the transaction open in RUN->txn. */
static struct run
execute(const char *ops, const struct ovsdb_session *session, bool read_only,
        long long int elapsed, bool want_timeout)
{
    json_t *params = check_json_parse(ops);
    if (json_is_array(params)) {
        json_array_insert_new(params, 0, json_string("ex"));
    }

    struct run run = { NULL, NULL, 0, false };
    json_t *results = ovsdb_execute(db, session, params, read_only, elapsed,
                                    want_timeout ? &run.timeout : NULL,
                                    &run.durable, &run.txn);
    json_decref(params);
    if (results) {
        char *s = json_dumps(results, JSON_COMPACT | JSON_SORT_KEYS);
        run.results = uuidfilt(s);
        free(s);
        json_decref(results);
    }
    return run;
}

/* Executes OPS, commits the transaction (if any) and returns the results,
 * with a commit error appended as ovsdb-server does. */
static char *
transact(const char *ops)
{
    json_t *params = check_json_parse(ops);
    json_array_insert_new(params, 0, json_string("ex"));
    long long int timeout;
    bool durable;
    struct ovsdb_txn *txn;
    json_t *results = ovsdb_execute(db, NULL, params, false, 0, &timeout,
                                    &durable, &txn);
    json_decref(params);
    ck_assert_ptr_nonnull(results);
    if (txn) {
        struct ovsdb_error *error = ovsdb_txn_commit(txn, durable);
        if (error) {
            json_array_append_new(results, ovsdb_error_to_json_free(error));
        }
    }
    char *s = json_dumps(results, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(results);
    char *filtered = uuidfilt(s);
    free(s);
    return filtered;
}

static void
check_transact(const char *ops, const char *expected)
{
    char *s = transact(ops);
    ck_assert_str_eq(s, expected);
    free(s);
}

START_TEST(test_result_layout)
{
    /* One result per operation; after a failure, nulls. */
    check_transact("[{\"op\": \"insert\", \"table\": \"t\", \"row\": {\"n\": 1}},"
                   " {\"op\": \"bogus\"},"
                   " {\"op\": \"insert\", \"table\": \"t\", \"row\": {}}]",
                   "[{\"uuid\":[\"uuid\",\"<0>\"]},"
                   "{\"details\":\"Parsing ovsdb operation 2 of 3 failed: No "
                   "operation \\\"bogus\\\"\",\"error\":\"syntax error\","
                   "\"syntax\":\"{\\\"op\\\":\\\"bogus\\\"}\"},null]");
    check_transact("[{\"op\": \"select\", \"table\": \"t\", \"where\": []}]",
                   "[{\"rows\":[]}]");
    check_transact("[]", "[]");

    /* A commit error comes after the results. */
    check_transact("[{\"op\": \"insert\", \"table\": \"t\","
                   "  \"row\": {\"n\": 1, \"s\": \"a\"}},"
                   " {\"op\": \"insert\", \"table\": \"t\","
                   "  \"row\": {\"n\": 1, \"s\": \"b\"}}]",
                   "[{\"uuid\":[\"uuid\",\"<0>\"]},{\"uuid\":[\"uuid\",\"<1>\"]},"
                   "{\"details\":\"Transaction causes multiple rows in \\\"t\\\" "
                   "table to have identical values (1) for index on column "
                   "\\\"n\\\".  First row, with UUID <1>, was inserted by this "
                   "transaction.  Second row, with UUID <0>, was inserted by "
                   "this transaction.\",\"error\":\"constraint violation\"}]");

    /* A request that is not about this database fails as a whole. */
    struct run run = execute("{}", NULL, false, 0, true);
    ck_assert_str_eq(run.results, "{\"details\":\"array expected\","
                     "\"error\":\"syntax error\",\"syntax\":\"{}\"}");
    ck_assert_ptr_null(run.txn);
    free(run.results);

    json_t *params = check_json_parse("[\"other\"]");
    json_t *results = ovsdb_execute(db, NULL, params, false, 0, NULL, NULL,
                                    &run.txn);
    ck_assert_str_eq(json_string_value(json_object_get(results, "details")),
                     "database name expected as first parameter");
    ck_assert_ptr_null(run.txn);
    json_decref(results);
    json_decref(params);
}
END_TEST

START_TEST(test_operation_shape_errors)
{
    check_transact("[{\"op\": \"select\", \"table\": \"t\"}]",
                   "[{\"details\":\"Parsing ovsdb operation 1 of 1 failed: "
                   "Required 'where' member is missing.\",\"error\":\"syntax "
                   "error\",\"syntax\":\"{\\\"op\\\":\\\"select\\\","
                   "\\\"table\\\":\\\"t\\\"}\"}]");
    check_transact("[{\"op\": \"select\", \"table\": \"t\", \"where\": {}}]",
                   "[{\"details\":\"Parsing ovsdb operation 1 of 1 failed: "
                   "Type mismatch for member 'where'.\",\"error\":\"syntax "
                   "error\",\"syntax\":\"{\\\"op\\\":\\\"select\\\","
                   "\\\"table\\\":\\\"t\\\",\\\"where\\\":{}}\"}]");
    check_transact("[{\"op\": \"select\", \"table\": \"x\", \"where\": []}]",
                   "[{\"details\":\"Parsing ovsdb operation 1 of 1 failed: No "
                   "table named x.\",\"error\":\"syntax error\",\"syntax\":"
                   "\"{\\\"op\\\":\\\"select\\\",\\\"table\\\":\\\"x\\\","
                   "\\\"where\\\":[]}\"}]");
    check_transact("[{\"op\": \"select\", \"table\": \"t\", \"where\": [],"
                   "  \"extra\": 1}]",
                   "[{\"details\":\"Parsing ovsdb operation 1 of 1 failed: "
                   "Member 'extra' is present but not allowed here.\","
                   "\"error\":\"syntax error\",\"syntax\":\"{\\\"extra\\\":1,"
                   "\\\"op\\\":\\\"select\\\",\\\"table\\\":\\\"t\\\","
                   "\\\"where\\\":[]}\"}]");
    check_transact("[{\"op\": \"select\", \"table\": \"t\", \"where\": [],"
                   "  \"a\": 1, \"b\": 2, \"c\": 3}]",
                   "[{\"details\":\"Parsing ovsdb operation 1 of 1 failed: "
                   "Member 'a' and 2 other members are present but not "
                   "allowed here.\",\"error\":\"syntax error\",\"syntax\":"
                   "\"{\\\"a\\\":1,\\\"b\\\":2,\\\"c\\\":3,\\\"op\\\":"
                   "\\\"select\\\",\\\"table\\\":\\\"t\\\",\\\"where\\\":[]}\"}]");
    check_transact("[3]",
                   "[{\"details\":\"Parsing ovsdb operation 1 of 1 failed: "
                   "Object expected.\",\"error\":\"syntax error\"}]");
}
END_TEST

START_TEST(test_insert_names_and_uuids)
{
    /* A name may be used before the insert that defines it. */
    check_transact("[{\"op\": \"insert\", \"table\": \"t\", \"uuid-name\": \"a\","
                   "  \"row\": {\"n\": 1, \"ref\": [\"named-uuid\", \"b\"]}},"
                   " {\"op\": \"insert\", \"table\": \"t\", \"uuid-name\": \"b\","
                   "  \"row\": {\"n\": 2, \"ref\": [\"named-uuid\", \"a\"]}},"
                   " {\"op\": \"insert\", \"table\": \"t\", \"uuid-name\": \"c\","
                   "  \"uuid\": \"00000000-0000-4000-8000-0000000000bb\","
                   "  \"row\": {\"n\": 3, \"ref\": [\"named-uuid\", \"c\"]}},"
                   " {\"op\": \"select\", \"table\": \"t\", \"where\": [],"
                   "  \"columns\": [\"n\", \"ref\"], \"sort\": [\"n\"]}]",
                   "[{\"uuid\":[\"uuid\",\"<0>\"]},"
                   "{\"uuid\":[\"uuid\",\"<1>\"]},"
                   "{\"uuid\":[\"uuid\",\"<2>\"]},"
                   "{\"rows\":[{\"n\":1,\"ref\":[\"uuid\",\"<1>\"]},"
                   "{\"n\":2,\"ref\":[\"uuid\",\"<0>\"]},"
                   "{\"n\":3,\"ref\":[\"uuid\",\"<2>\"]}]}]");
    check_transact("[{\"op\": \"select\", \"table\": \"t\", \"where\": "
                   "  [[\"_uuid\", \"==\", [\"uuid\", "
                   "    \"00000000-0000-4000-8000-0000000000bb\"]]],"
                   "  \"columns\": [\"n\"]}]",
                   "[{\"rows\":[{\"n\":3}]}]");

    check_transact("[{\"op\": \"insert\", \"table\": \"t\", \"uuid-name\": \"a\","
                   "  \"row\": {\"n\": 3}},"
                   " {\"op\": \"insert\", \"table\": \"t\", \"uuid-name\": \"a\","
                   "  \"row\": {\"n\": 4}}]",
                   "[{\"uuid\":[\"uuid\",\"<0>\"]},"
                   "{\"details\":\"This \\\"uuid-name\\\" appeared on an "
                   "earlier \\\"insert\\\" operation.\",\"error\":\"duplicate "
                   "uuid-name\",\"syntax\":\"\\\"a\\\"\"}]");
    check_transact("[{\"op\": \"insert\", \"table\": \"t\","
                   "  \"uuid\": \"00000000-0000-4000-8000-0000000000bb\","
                   "  \"row\": {\"n\": 5}}]",
                   "[{\"details\":\"This UUID would duplicate a UUID already "
                   "present within the table or deleted within the same "
                   "transaction.\",\"error\":\"duplicate uuid\",\"syntax\":"
                   "\"\\\"<0>\\\"\"}]");
    check_transact("[{\"op\": \"insert\", \"table\": \"t\", \"uuid\": \"x\","
                   "  \"row\": {}}]",
                   "[{\"details\":\"bad uuid\",\"error\":\"syntax error\","
                   "\"syntax\":\"\\\"x\\\"\"}]");

    /* Defaults must meet the column's constraints too. */
    char *s = transact("[{\"op\": \"insert\", \"table\": \"e\", \"row\": {}}]");
    ck_assert(strstr(s, "\"error\":\"constraint violation\""));
    free(s);
    check_transact("[{\"op\": \"insert\", \"table\": \"e\","
                   "  \"row\": {\"color\": \"red\"}}]",
                   "[{\"uuid\":[\"uuid\",\"<0>\"]}]");
}
END_TEST

START_TEST(test_select_update_mutate_delete)
{
    check_transact("[{\"op\": \"insert\", \"table\": \"t\", \"row\": {\"n\": 1,"
                   "  \"s\": \"x\"}},"
                   " {\"op\": \"insert\", \"table\": \"t\", \"row\": {\"n\": 2,"
                   "  \"s\": \"x\"}},"
                   " {\"op\": \"insert\", \"table\": \"t\", \"row\": {\"n\": 3,"
                   "  \"s\": \"y\"}}]",
                   "[{\"uuid\":[\"uuid\",\"<0>\"]},{\"uuid\":[\"uuid\",\"<1>\"]},"
                   "{\"uuid\":[\"uuid\",\"<2>\"]}]");

    /* Selecting some columns gives one row per distinct value. */
    check_transact("[{\"op\": \"select\", \"table\": \"t\", \"where\": [],"
                   "  \"columns\": [\"s\"], \"sort\": [\"s\"]}]",
                   "[{\"rows\":[{\"s\":\"x\"},{\"s\":\"y\"}]}]");

    check_transact("[{\"op\": \"update\", \"table\": \"t\","
                   "  \"where\": [[\"s\", \"==\", \"x\"]], \"row\": {\"s\": \"z\"}},"
                   " {\"op\": \"mutate\", \"table\": \"t\","
                   "  \"where\": [[\"n\", \">\", 1]],"
                   "  \"mutations\": [[\"n\", \"*=\", 10]]},"
                   " {\"op\": \"select\", \"table\": \"t\", \"where\": [],"
                   "  \"columns\": [\"n\", \"s\"], \"sort\": [\"n\"]}]",
                   "[{\"count\":2},{\"count\":2},{\"rows\":[{\"n\":1,\"s\":\"z\"},"
                   "{\"n\":20,\"s\":\"z\"},{\"n\":30,\"s\":\"y\"}]}]");

    check_transact("[{\"op\": \"update\", \"table\": \"t\", \"where\": [],"
                   "  \"row\": {\"_uuid\": [\"uuid\", "
                   "    \"00000000-0000-4000-8000-0000000000bb\"]}}]",
                   "[{\"details\":\"Cannot update immutable column _uuid in "
                   "table t.\",\"error\":\"constraint violation\",\"syntax\":"
                   "\"{\\\"op\\\":\\\"update\\\",\\\"row\\\":{\\\"_uuid\\\":["
                   "\\\"uuid\\\",\\\"<0>\\\"]},\\\"table\\\":\\\"t\\\","
                   "\\\"where\\\":[]}\"}]");

    /* Updating a row to the values it has counts it but changes nothing. */
    struct run run = execute("[{\"op\": \"update\", \"table\": \"t\","
                             "  \"where\": [[\"n\", \"==\", 1]],"
                             "  \"row\": {\"s\": \"z\"}}]",
                             NULL, false, 0, true);
    ck_assert_str_eq(run.results, "[{\"count\":1}]");
    ck_assert(ovsdb_txn_is_empty(run.txn));
    ovsdb_txn_abort(run.txn);
    free(run.results);

    check_transact("[{\"op\": \"delete\", \"table\": \"t\","
                   "  \"where\": [[\"s\", \"==\", \"z\"]]},"
                   " {\"op\": \"select\", \"table\": \"t\", \"where\": [],"
                   "  \"columns\": [\"n\"]}]",
                   "[{\"count\":2},{\"rows\":[{\"n\":30}]}]");
}
END_TEST

START_TEST(test_read_only)
{
    struct run run = execute("[{\"op\": \"select\", \"table\": \"t\","
                             "  \"where\": []},"
                             " {\"op\": \"comment\", \"comment\": \"hi\"},"
                             " {\"op\": \"insert\", \"table\": \"t\","
                             "  \"row\": {}}]", NULL, true, 0, true);
    ck_assert_str_eq(run.results,
                     "[{\"rows\":[]},{},{\"details\":\"insert operation not "
                     "allowed when database server is in read only mode\","
                     "\"error\":\"not allowed\"}]");
    ck_assert_ptr_null(run.txn);
    free(run.results);

    /* A malformed operation gets its own error first. */
    run = execute("[{\"op\": \"delete\", \"table\": \"t\", "
                  "  \"where\": [[\"zz\", \"==\", 1]]}]", NULL, true, 0, true);
    ck_assert_str_eq(run.results,
                     "[{\"details\":\"No column zz in table t.\","
                     "\"error\":\"unknown column\",\"syntax\":"
                     "\"[\\\"zz\\\",\\\"==\\\",1]\"}]");
    free(run.results);
}
END_TEST

START_TEST(test_wait)
{
    check_transact("[{\"op\": \"insert\", \"table\": \"t\", \"row\": {\"n\": 1,"
                   "  \"s\": \"a\"}}]", "[{\"uuid\":[\"uuid\",\"<0>\"]}]");

    /* Satisfied. */
    check_transact("[{\"op\": \"wait\", \"table\": \"t\", \"where\": [],"
                   "  \"columns\": [\"s\"], \"until\": \"==\","
                   "  \"rows\": [{\"s\": \"a\"}]},"
                   " {\"op\": \"wait\", \"table\": \"t\", \"where\": [],"
                   "  \"columns\": [\"s\"], \"until\": \"!=\","
                   "  \"rows\": [{\"s\": \"b\"}], \"timeout\": 0}]",
                   "[{},{}]");

    /* Not satisfied, with no time to wait. */
    const char *wait_b = "[{\"op\": \"wait\", \"table\": \"t\", \"where\": [],"
                         "  \"columns\": [\"s\"], \"until\": \"==\","
                         "  \"rows\": [{\"s\": \"b\"}], \"timeout\": %d},"
                         " {\"op\": \"wait\", \"table\": \"t\", \"where\": [],"
                         "  \"columns\": [\"s\"], \"until\": \"==\","
                         "  \"rows\": [{\"s\": \"b\"}], \"timeout\": 500}]";
    char *ops = xasprintf(wait_b, 0);
    check_transact(ops, "[{\"details\":\"\\\"where\\\" clause test failed\","
                   "\"error\":\"timed out\"},null]");
    free(ops);

    /* Time to wait: the caller must retry until the earliest timeout. */
    ops = xasprintf(wait_b, 1000);
    struct run run = execute(ops, NULL, false, 10, true);
    ck_assert_ptr_null(run.results);
    ck_assert_ptr_null(run.txn);
    ck_assert_int_eq(run.timeout, 1000);

    run = execute(ops, NULL, false, 1000, true);
    ck_assert_str_eq(run.results,
                     "[{\"details\":\"\\\"wait\\\" timed out after 1000 ms\","
                     "\"error\":\"timed out\"},null]");
    free(run.results);

    /* A caller that cannot retry gets Open vSwitch's error. */
    run = execute(ops, NULL, false, 0, false);
    ck_assert_str_eq(run.results,
                     "[{\"details\":\"triggers not supported\","
                     "\"error\":\"not supported\"},null]");
    free(run.results);
    free(ops);

    check_transact("[{\"op\": \"wait\", \"table\": \"t\", \"where\": [],"
                   "  \"until\": \"<\", \"rows\": []}]",
                   "[{\"details\":\"\\\"until\\\" must be \\\"==\\\" or "
                   "\\\"!=\\\"\",\"error\":\"syntax error\","
                   "\"syntax\":\"\\\"<\\\"\"}]");
    check_transact("[{\"op\": \"wait\", \"table\": \"t\", \"where\": [],"
                   "  \"until\": \"==\", \"rows\": [], \"timeout\": -1}]",
                   "[{\"details\":\"timeout must be nonnegative\","
                   "\"error\":\"syntax error\",\"syntax\":\"-1\"}]");
}
END_TEST

START_TEST(test_commit_comment_abort_assert)
{
    struct run run = execute("[{\"op\": \"comment\", \"comment\": \"one\"},"
                             " {\"op\": \"commit\", \"durable\": true},"
                             " {\"op\": \"comment\", \"comment\": \"two\"}]",
                             NULL, false, 0, true);
    ck_assert_str_eq(run.results, "[{},{},{}]");
    ck_assert(run.durable);
    ck_assert_str_eq(ovsdb_txn_get_comment(run.txn), "one\ntwo");
    ovsdb_txn_abort(run.txn);
    free(run.results);

    check_transact("[{\"op\": \"abort\"}, {\"op\": \"select\", \"table\": \"t\","
                   "  \"where\": []}]",
                   "[{\"details\":\"aborted by request\","
                   "\"error\":\"aborted\"},null]");
    check_transact("[{\"op\": \"assert\", \"lock\": \"l\"}]",
                   "[{\"details\":\"Asserted lock l not held.\","
                   "\"error\":\"not owner\"}]");

    struct ovsdb_lock_server locks;
    struct ovsdb_session session;
    ovsdb_lock_server_init(&locks);
    ovsdb_session_init(&session, &locks);
    struct ovsdb_lock_waiter *victim;
    ovsdb_session_lock(&session, "l", OVSDB_LOCK_WAIT, &victim);
    run = execute("[{\"op\": \"assert\", \"lock\": \"l\"},"
                  " {\"op\": \"assert\", \"lock\": \"m\"}]",
                  &session, false, 0, true);
    ck_assert_str_eq(run.results,
                     "[{},{\"details\":\"Asserted lock m not held.\","
                     "\"error\":\"not owner\"}]");
    free(run.results);

    struct ovsdb_lock_waiter **new_owners;
    size_t n_new_owners;
    ovsdb_session_destroy(&session, &new_owners, &n_new_owners);
    free(new_owners);
    ovsdb_lock_server_destroy(&locks);
}
END_TEST

static Suite *
execution_suite(void)
{
    Suite *s = suite_create("ovsdb-execution");
    TCase *tc = tcase_create("execution");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_result_layout);
    tcase_add_test(tc, test_operation_shape_errors);
    tcase_add_test(tc, test_insert_names_and_uuids);
    tcase_add_test(tc, test_select_update_mutate_delete);
    tcase_add_test(tc, test_read_only);
    tcase_add_test(tc, test_wait);
    tcase_add_test(tc, test_commit_comment_abort_assert);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(execution_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
