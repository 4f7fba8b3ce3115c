/* Unit tests for rbac.h: role-based access control of "transact"
 * operations, through the executor as a server runs them. */
#include <config.h>
#include "rbac.h"

#include <check.h>
#include "check-util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "execution.h"
#include "ovsdb.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "server.h"
#include "transaction.h"
#include "util.h"

/* A "shop": shelves owned by one client ("owner"), labels keyed by client
 * in a map ("tags"), a price list nobody may change, and the RBAC tables. */
static const char schema_json[] =
    "{\"name\": \"shop\", \"tables\": {"
    "  \"Shelf\": {\"isRoot\": true, \"columns\": {"
    "    \"owner\": {\"type\": \"string\"},"
    "    \"item\": {\"type\": \"string\"},"
    "    \"count\": {\"type\": \"integer\"}}},"
    "  \"Label\": {\"isRoot\": true, \"columns\": {"
    "    \"tags\": {\"type\": {\"key\": \"string\", \"value\": \"string\","
    "                          \"min\": 0, \"max\": \"unlimited\"}},"
    "    \"text\": {\"type\": \"string\"}}},"
    "  \"Note\": {\"isRoot\": true, \"columns\": {"
    "    \"text\": {\"type\": \"string\"}}},"
    "  \"Price\": {\"isRoot\": true, \"columns\": {"
    "    \"item\": {\"type\": \"string\"},"
    "    \"cents\": {\"type\": \"integer\"}}},"
    "  \"RBAC_Role\": {\"isRoot\": true, \"columns\": {"
    "    \"name\": {\"type\": \"string\"},"
    "    \"permissions\": {\"type\": {\"key\": \"string\","
    "      \"value\": {\"type\": \"uuid\", \"refTable\": \"RBAC_Permission\","
    "                \"refType\": \"weak\"},"
    "      \"min\": 0, \"max\": \"unlimited\"}}}},"
    "  \"RBAC_Permission\": {\"isRoot\": true, \"columns\": {"
    "    \"table\": {\"type\": \"string\"},"
    "    \"authorization\": {\"type\": {\"key\": \"string\", \"min\": 0,"
    "                                   \"max\": \"unlimited\"}},"
    "    \"insert_delete\": {\"type\": \"boolean\"},"
    "    \"update\": {\"type\": {\"key\": \"string\", \"min\": 0,"
    "                            \"max\": \"unlimited\"}}}}}}";

/* Role "clerk": shelves it owns (insert, delete, change "count" only),
 * labels whose "tags" map "by" to it, notes anyone may add but not delete,
 * nothing on prices. */
static const char roles_json[] =
    "[\"shop\","
    " {\"op\": \"insert\", \"table\": \"RBAC_Role\", \"row\": {"
    "   \"name\": \"clerk\", \"permissions\": [\"map\", ["
    "     [\"Shelf\", [\"named-uuid\", \"shelf\"]],"
    "     [\"Label\", [\"named-uuid\", \"label\"]],"
    "     [\"Note\", [\"named-uuid\", \"note\"]]]]}},"
    " {\"op\": \"insert\", \"table\": \"RBAC_Permission\","
    "  \"uuid-name\": \"shelf\", \"row\": {\"table\": \"Shelf\","
    "   \"authorization\": \"owner\", \"insert_delete\": true,"
    "   \"update\": \"count\"}},"
    " {\"op\": \"insert\", \"table\": \"RBAC_Permission\","
    "  \"uuid-name\": \"label\", \"row\": {\"table\": \"Label\","
    "   \"authorization\": \"tags:by\", \"insert_delete\": true,"
    "   \"update\": [\"set\", [\"text\", \"tags\"]]}},"
    " {\"op\": \"insert\", \"table\": \"RBAC_Permission\","
    "  \"uuid-name\": \"note\", \"row\": {\"table\": \"Note\","
    "   \"authorization\": \"\", \"insert_delete\": false,"
    "   \"update\": \"text\"}}]";

static struct ovsdb *db;

/* Runs TXN (a full "transact" params array) as ROLE/ID (NULL session if
 * ROLE is NULL), commits it, and returns the results as compact JSON with
 * uuids replaced by "U". */
static char *
run_as(const char *role, const char *id, const char *txn)
{
    struct ovsdb_session session;
    ovsdb_session_init(&session, NULL);
    ovsdb_session_set_rbac(&session, role, id);

    json_t *params = check_json_parse(txn);
    struct ovsdb_txn *t = NULL;
    bool durable;
    json_t *results = ovsdb_execute(db, role ? &session : NULL, params,
                                    false, 0, NULL, &durable, &t);
    json_decref(params);
    ck_assert_ptr_nonnull(results);
    if (t) {
        check_ovsdb_ok(ovsdb_txn_commit(t, durable));
    }

    struct ovsdb_lock_waiter **owners;
    size_t n_owners;
    ovsdb_session_destroy(&session, &owners, &n_owners);
    free(owners);

    char *s = json_dumps(results, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(results);
    /* Inserted rows' uuids: not what these tests look at. */
    char *p;
    while ((p = strstr(s, "[\"uuid\",\"")) != NULL) {
        char *end = strchr(p + 9, '"');
        memmove(p, "\"U\"", 3);
        memmove(p + 3, end + 2, strlen(end + 2) + 1);
    }
    return s;
}

static void
check_as(const char *role, const char *id, const char *txn,
         const char *expected)
{
    char *s = run_as(role, id, txn);
    ck_assert_str_eq(s, expected);
    free(s);
}

static char *
denied(const char *id, const char *what, const char *table)
{
    return xasprintf("[{\"details\":\"RBAC rules for client \\\"%s\\\" role "
                     "\\\"clerk\\\" prohibit %s table \\\"%s\\\".\","
                     "\"error\":\"permission error\"}]", id, what, table);
}

static void
check_denied(const char *id, const char *txn, const char *what,
             const char *table)
{
    char *expected = denied(id, what, table);
    check_as("clerk", id, txn, expected);
    free(expected);
}

static void
setup(void)
{
    struct ovsdb_schema *schema;
    json_t *json = check_json_parse(schema_json);
    check_ovsdb_ok(ovsdb_schema_from_json(json, &schema));
    json_decref(json);
    db = ovsdb_create(schema);

    char *s = run_as(NULL, NULL, roles_json);
    ck_assert_ptr_null(strstr(s, "error"));
    free(s);
}

static void
teardown(void)
{
    ovsdb_destroy(db);
}

#define SHELF_OP(OWNER, ITEM) \
    "{\"op\":\"insert\",\"table\":\"Shelf\",\"row\":{" \
    "\"owner\":\"" OWNER "\",\"item\":\"" ITEM "\",\"count\":1}}"
#define SHELF(OWNER, ITEM) "[\"shop\"," SHELF_OP(OWNER, ITEM) "]"

START_TEST(test_insert)
{
    check_as("clerk", "alice", SHELF("alice", "pears"), "[{\"uuid\":\"U\"}]");
    /* A row whose authorization column names someone else. */
    check_denied("alice", SHELF("bob", "plums"), "row insertion into",
                 "Shelf");
    /* A table the role has no permission for. */
    check_denied("alice",
                 "[\"shop\",{\"op\":\"insert\",\"table\":\"Price\","
                 "\"row\":{\"item\":\"pears\",\"cents\":5}}]",
                 "row insertion into", "Price");
    /* insert_delete false, even with an authorization that allows all. */
    check_denied("alice",
                 "[\"shop\",{\"op\":\"insert\",\"table\":\"Note\","
                 "\"row\":{\"text\":\"hi\"}}]",
                 "row insertion into", "Note");
    /* A refused operation fails the transaction: nothing else sticks. */
    char *s = run_as("clerk", "alice",
                     "[\"shop\"," SHELF_OP("alice", "figs") ","
                     "{\"op\":\"insert\",\"table\":\"Price\","
                     "\"row\":{\"item\":\"figs\",\"cents\":9}}]");
    ck_assert_ptr_nonnull(strstr(s, "permission error"));
    free(s);
    check_as("clerk", "alice",
             "[\"shop\",{\"op\":\"select\",\"table\":\"Shelf\","
             "\"where\":[[\"item\",\"==\",\"figs\"]]}]",
             "[{\"rows\":[]}]");
}
END_TEST

START_TEST(test_update_mutate_delete)
{
    check_as(NULL, NULL, SHELF("alice", "pears"), "[{\"uuid\":\"U\"}]");
    check_as(NULL, NULL, SHELF("bob", "plums"), "[{\"uuid\":\"U\"}]");

    const char *count_up =
        "[\"shop\",{\"op\":\"update\",\"table\":\"Shelf\","
        "\"where\":[[\"item\",\"==\",\"pears\"]],\"row\":{\"count\":7}}]";
    check_as("clerk", "alice", count_up, "[{\"count\":1}]");
    check_denied("bob", count_up, "modification of", "Shelf");

    /* A column outside "update" is refused even when no row matches. */
    check_denied("alice",
                 "[\"shop\",{\"op\":\"update\",\"table\":\"Shelf\","
                 "\"where\":[[\"item\",\"==\",\"none\"]],"
                 "\"row\":{\"item\":\"x\"}}]",
                 "modification of", "Shelf");
    /* All rows must be the client's: one of bob's spoils the lot. */
    check_denied("alice",
                 "[\"shop\",{\"op\":\"update\",\"table\":\"Shelf\","
                 "\"where\":[],\"row\":{\"count\":0}}]",
                 "modification of", "Shelf");

    const char *mutate =
        "[\"shop\",{\"op\":\"mutate\",\"table\":\"Shelf\","
        "\"where\":[[\"item\",\"==\",\"plums\"]],"
        "\"mutations\":[[\"count\",\"+=\",2]]}]";
    check_as("clerk", "bob", mutate, "[{\"count\":1}]");
    check_denied("alice", mutate, "mutate operation on", "Shelf");

    const char *del =
        "[\"shop\",{\"op\":\"delete\",\"table\":\"Shelf\","
        "\"where\":[[\"item\",\"==\",\"plums\"]]}]";
    check_denied("alice", del, "row deletion from", "Shelf");
    check_as("clerk", "bob", del, "[{\"count\":1}]");

    /* What the refused operations left alone. */
    check_as(NULL, NULL,
             "[\"shop\",{\"op\":\"select\",\"table\":\"Shelf\","
             "\"where\":[],\"columns\":[\"owner\",\"count\"]}]",
             "[{\"rows\":[{\"count\":7,\"owner\":\"alice\"}]}]");
}
END_TEST

START_TEST(test_map_authorization)
{
    const char *label =
        "[\"shop\",{\"op\":\"insert\",\"table\":\"Label\",\"row\":{"
        "\"tags\":[\"map\",[[\"by\",\"carol\"],[\"for\",\"dave\"]]],"
        "\"text\":\"ripe\"}}]";
    check_as("clerk", "carol", label, "[{\"uuid\":\"U\"}]");
    check_denied("dave", label, "row insertion into", "Label");
    check_as("clerk", "carol",
             "[\"shop\",{\"op\":\"update\",\"table\":\"Label\","
             "\"where\":[],\"row\":{\"text\":\"very ripe\"}}]",
             "[{\"count\":1}]");
}
END_TEST

START_TEST(test_empty_authorization_and_identity)
{
    check_as(NULL, NULL,
             "[\"shop\",{\"op\":\"insert\",\"table\":\"Note\","
             "\"row\":{\"text\":\"hi\"}}]", "[{\"uuid\":\"U\"}]");
    const char *edit =
        "[\"shop\",{\"op\":\"update\",\"table\":\"Note\",\"where\":[],"
        "\"row\":{\"text\":\"hello\"}}]";
    /* "" authorizes every client... */
    check_as("clerk", "erin", edit, "[{\"count\":1}]");
    /* ...that has an identity: one without may change nothing. */
    char *expected = denied("(null)", "modification of", "Note");
    check_as("clerk", NULL,
             "[\"shop\",{\"op\":\"update\",\"table\":\"Note\","
             "\"where\":[],\"row\":{\"text\":\"x\"}}]", expected);
    free(expected);
    check_as("clerk", NULL,
             "[\"shop\",{\"op\":\"select\",\"table\":\"Note\",\"where\":[],"
             "\"columns\":[\"text\"]}]",
             "[{\"rows\":[{\"text\":\"hello\"}]}]");
}
END_TEST

START_TEST(test_who_is_not_restricted)
{
    const char *price =
        "[\"shop\",{\"op\":\"insert\",\"table\":\"Price\","
        "\"row\":{\"item\":\"pears\",\"cents\":5}}]";
    /* No session, no role, an empty role: the superuser. */
    check_as(NULL, NULL, price, "[{\"uuid\":\"U\"}]");
    check_as("", "alice", price, "[{\"uuid\":\"U\"}]");
    /* An unknown role may do nothing at all. */
    check_as("manager", "alice", price,
             "[{\"details\":\"RBAC rules for client \\\"alice\\\" role "
             "\\\"manager\\\" prohibit row insertion into table "
             "\\\"Price\\\".\",\"error\":\"permission error\"}]");

    /* A role changed in the database applies to the next operation. */
    check_as(NULL, NULL,
             "[\"shop\",{\"op\":\"update\",\"table\":\"RBAC_Role\","
             "\"where\":[[\"name\",\"==\",\"clerk\"]],"
             "\"row\":{\"name\":\"manager\"}}]",
             "[{\"count\":1}]");
    check_as("manager", "alice", SHELF("alice", "kiwis"),
             "[{\"uuid\":\"U\"}]");
}
END_TEST

START_TEST(test_database_without_rbac)
{
    ovsdb_destroy(db);
    struct ovsdb_schema *schema;
    json_t *json = check_json_parse(
        "{\"name\": \"shop\", \"tables\": {\"Price\": {\"columns\": {"
        "\"item\": {\"type\": \"string\"}}}}}");
    check_ovsdb_ok(ovsdb_schema_from_json(json, &schema));
    json_decref(json);
    db = ovsdb_create(schema);

    struct ovsdb_rbac_client client = { "clerk", "alice" };
    ck_assert(!ovsdb_rbac_applies(db, &client));
    check_as("clerk", "alice",
             "[\"shop\",{\"op\":\"insert\",\"table\":\"Price\","
             "\"row\":{\"item\":\"pears\"}}]", "[{\"uuid\":\"U\"}]");
}
END_TEST

static Suite *
rbac_suite(void)
{
    Suite *s = suite_create("ovsdb-rbac");
    TCase *tc = tcase_create("rbac");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_insert);
    tcase_add_test(tc, test_update_mutate_delete);
    tcase_add_test(tc, test_map_authorization);
    tcase_add_test(tc, test_empty_authorization_and_identity);
    tcase_add_test(tc, test_who_is_not_restricted);
    tcase_add_test(tc, test_database_without_rbac);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(rbac_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
