/* Unit tests for the OVSDB engine: rows, tables, transactions (commit
 * checks, garbage collection, weak references, indexes, abort), observers,
 * queries and memory statistics. */
#include <config.h>
#include "transaction.h"

#include <check.h>
#include "check-util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitmap.h"
#include "condition.h"
#include "dynamic-string.h"
#include "ovsdb.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "query.h"
#include "row.h"
#include "smap.h"
#include "ovsdb/table.h"  /* Not lib/table.h (output tables). */
#include "util.h"

/* "root" rows own "kid" rows (not root: collected when unreferenced) and
 * weakly reference each other; "num" has an index on "n" and at most 3
 * rows; "need" must weakly reference exactly one "root" row. */
static const char schema_json[] =
    "{\"name\": \"eng\", \"tables\": {"
    "  \"root\": {\"isRoot\": true, \"columns\": {"
    "    \"name\": {\"type\": \"string\"},"
    "    \"kids\": {\"type\": {\"key\": {\"type\": \"uuid\","
    "                                   \"refTable\": \"kid\"},"
    "                         \"min\": 0, \"max\": \"unlimited\"}},"
    "    \"friends\": {\"type\": {\"key\": {\"type\": \"uuid\","
    "                                      \"refTable\": \"root\","
    "                                      \"refType\": \"weak\"},"
    "                            \"min\": 0, \"max\": \"unlimited\"}}}},"
    "  \"kid\": {\"columns\": {"
    "    \"name\": {\"type\": \"string\"},"
    "    \"sib\": {\"type\": {\"key\": {\"type\": \"uuid\","
    "                                  \"refTable\": \"kid\"},"
    "                        \"min\": 0, \"max\": \"unlimited\"}}}},"
    "  \"num\": {\"isRoot\": true, \"maxRows\": 3, \"indexes\": [[\"n\"]],"
    "    \"columns\": {"
    "      \"n\": {\"type\": \"integer\"},"
    "      \"tags\": {\"type\": {\"key\": \"string\", \"min\": 0,"
    "                           \"max\": \"unlimited\"}},"
    "      \"m\": {\"type\": {\"key\": \"string\", \"value\": \"integer\","
    "                        \"min\": 0, \"max\": \"unlimited\"}}}},"
    "  \"need\": {\"isRoot\": true, \"columns\": {"
    "    \"w1\": {\"type\": {\"key\": {\"type\": \"uuid\","
    "                                 \"refTable\": \"root\","
    "                                 \"refType\": \"weak\"}}}}}}}";

static struct ovsdb *db;

/* Checks that ERROR has TAG and that its details contain DETAILS. */
static void
check_error(struct ovsdb_error *error, const char *tag, const char *details)
{
    ck_assert_msg(error != NULL, "expected error \"%s\"", tag);
    json_t *json = ovsdb_error_to_json_free(error);
    ck_assert_str_eq(json_string_value(json_object_get(json, "error")), tag);
    const char *d = json_string_value(json_object_get(json, "details"));
    ck_assert_msg(d && strstr(d, details), "details \"%s\" lack \"%s\"",
                  d ? d : "(none)", details);
    json_decref(json);
}

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
    db = NULL;
}

static struct ovsdb_table *
table(const char *name)
{
    struct ovsdb_table *t = ovsdb_get_table(db, name);
    ck_assert_ptr_nonnull(t);
    return t;
}

static const struct ovsdb_column *
column(const char *table_name, const char *name)
{
    const struct ovsdb_column *c = ovsdb_table_schema_get_column(
        table(table_name)->schema, name);
    ck_assert_ptr_nonnull(c);
    return c;
}

static size_t
n_rows(const char *table_name)
{
    return hmap_count(&table(table_name)->rows);
}

/* A new row of TABLE_NAME with uuid UUID_S (or a random one if NULL) and
 * the columns in ROW_JSON. */
static struct ovsdb_row *
new_row(const char *table_name, const char *uuid_s, const char *row_json)
{
    struct ovsdb_row *row = ovsdb_row_create(table(table_name));
    json_t *json = check_json_parse(row_json);
    check_ovsdb_ok(ovsdb_row_from_json(row, json, NULL, NULL));
    json_decref(json);
    if (uuid_s) {
        ck_assert(uuid_from_string(ovsdb_row_get_uuid_rw(row), uuid_s));
    } else {
        uuid_generate(ovsdb_row_get_uuid_rw(row));
    }
    return row;
}

static const struct ovsdb_row *
get_row(const char *table_name, const char *uuid_s)
{
    struct uuid uuid;
    ck_assert(uuid_from_string(&uuid, uuid_s));
    return ovsdb_table_get_row(table(table_name), &uuid);
}

/* Inserts rows in one transaction and commits it: ARGS are triples of
 * table name, uuid and row JSON, ended by NULL. */
static struct ovsdb_error *
insert_rows(const char *table_name, ...)
{
    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    va_list args;
    va_start(args, table_name);
    for (const char *t = table_name; t; t = va_arg(args, const char *)) {
        const char *uuid = va_arg(args, const char *);
        const char *json = va_arg(args, const char *);
        ovsdb_txn_row_insert(txn, new_row(t, uuid, json));
    }
    va_end(args);
    return ovsdb_txn_commit(txn, false);
}

static int64_t
get_int(const struct ovsdb_row *row, const char *table_name,
        const char *column_name)
{
    const struct ovsdb_datum *d
        = &row->fields[column(table_name, column_name)->index];
    ck_assert_uint_eq(d->n, 1);
    return d->keys[0].integer;
}

static void
set_int(struct ovsdb_row *row, const char *table_name,
        const char *column_name, int64_t value)
{
    struct ovsdb_datum *d = &row->fields[column(table_name,
                                                column_name)->index];
    ck_assert_uint_eq(d->n, 1);
    d->keys[0].integer = value;
}

/* The uuid-set column COLUMN_NAME of ROW as text, e.g. "[a, b]" with
 * uuids shortened to their first 8 hex digits. */
static char *
refs_string(const struct ovsdb_row *row, const char *table_name,
            const char *column_name)
{
    const struct ovsdb_datum *d
        = &row->fields[column(table_name, column_name)->index];
    struct ds s = DS_EMPTY_INITIALIZER;
    ds_put_char(&s, '[');
    for (unsigned int i = 0; i < d->n; i++) {
        ds_put_format(&s, "%s"UUID_SHORT_FMT, i ? ", " : "",
                      UUID_SHORT_ARGS(&d->keys[i].uuid));
    }
    ds_put_char(&s, ']');
    return ds_steal_cstr(&s);
}

static void
check_refs(const char *table_name, const char *uuid_s,
           const char *column_name, const char *expected)
{
    const struct ovsdb_row *row = get_row(table_name, uuid_s);
    ck_assert_ptr_nonnull(row);
    char *s = refs_string(row, table_name, column_name);
    ck_assert_str_eq(s, expected);
    free(s);
}

#define R1 "11111111-0000-4000-8000-000000000001"
#define R2 "22222222-0000-4000-8000-000000000002"
#define K1 "aaaaaaaa-0000-4000-8000-000000000001"
#define K2 "bbbbbbbb-0000-4000-8000-000000000002"
#define K3 "cccccccc-0000-4000-8000-000000000003"
#define N1 "dddddddd-0000-4000-8000-000000000001"
#define N2 "eeeeeeee-0000-4000-8000-000000000002"

/* Changes take effect at once and abort undoes them. */

START_TEST(test_insert_visible_then_abort)
{
    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    struct ovsdb_row *row = new_row("num", N1, "{\"n\": 1}");
    ovsdb_txn_row_insert(txn, row);

    ck_assert_ptr_eq(get_row("num", N1), row);
    ck_assert(ovsdb_txn_row_is_inserted(txn, row));
    ck_assert(!ovsdb_txn_is_empty(txn));
    ck_assert(!uuid_is_zero(ovsdb_row_get_version(row)));

    ovsdb_txn_abort(txn);
    ck_assert_ptr_null(get_row("num", N1));
    ck_assert_uint_eq(n_rows("num"), 0);
    ck_assert_uint_eq(db->n_commits, 0);
    ck_assert(uuid_is_zero(&db->last_txnid));
}
END_TEST

START_TEST(test_commit_sets_txnid_and_triggers)
{
    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    struct uuid txnid = *ovsdb_txn_get_txnid(txn);
    ovsdb_txn_row_insert(txn, new_row("num", N1, "{\"n\": 1}"));
    ovsdb_txn_add_comment(txn, "one");
    ovsdb_txn_add_comment(txn, "two");
    ck_assert_str_eq(ovsdb_txn_get_comment(txn), "one\ntwo");
    db->run_triggers = false;
    check_ovsdb_ok(ovsdb_txn_commit(txn, false));

    ck_assert_ptr_nonnull(get_row("num", N1));
    ck_assert(uuid_equals(&db->last_txnid, &txnid));
    ck_assert(db->run_triggers);
    ck_assert_uint_eq(db->n_commits, 1);

    /* A transaction without changes leaves all that alone. */
    db->run_triggers = false;
    txn = ovsdb_txn_create(db);
    ck_assert_ptr_null(ovsdb_txn_get_comment(txn));
    ovsdb_txn_row_modify(txn, get_row("num", N1));
    ck_assert(ovsdb_txn_is_empty(txn));
    check_ovsdb_ok(ovsdb_txn_commit(txn, false));
    ck_assert(uuid_equals(&db->last_txnid, &txnid));
    ck_assert(!db->run_triggers);
    ck_assert_uint_eq(db->n_commits, 1);
}
END_TEST

START_TEST(test_modify_and_delete_abort_restore)
{
    check_ovsdb_ok(insert_rows("num", N1, "{\"n\": 1, \"tags\": [\"set\", [\"a\"]]}",
                         "num", N2, "{\"n\": 2}", NULL));
    const struct ovsdb_row *r1 = get_row("num", N1);
    const struct ovsdb_row *r2 = get_row("num", N2);
    struct uuid version = *ovsdb_row_get_version(r1);

    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    struct ovsdb_row *rw = ovsdb_txn_row_modify(txn, r1);
    ck_assert_ptr_ne(rw, r1);
    ck_assert_ptr_eq(ovsdb_txn_row_modify(txn, rw), rw);
    ck_assert_ptr_eq(get_row("num", N1), rw);
    set_int(rw, "num", "n", 10);
    ovsdb_txn_row_delete(txn, r2);
    ck_assert_ptr_null(get_row("num", N2));
    ck_assert_uint_eq(n_rows("num"), 1);
    ovsdb_txn_abort(txn);

    /* The very same committed rows are back, unchanged. */
    ck_assert_ptr_eq(get_row("num", N1), r1);
    ck_assert_ptr_eq(get_row("num", N2), r2);
    ck_assert_ptr_null(r1->txn_row);
    ck_assert_ptr_null(r2->txn_row);
    ck_assert_int_eq(get_int(r1, "num", "n"), 1);
    ck_assert(uuid_equals(ovsdb_row_get_version(r1), &version));

    /* The index still finds them. */
    ck_assert_ptr_eq(ovsdb_table_find_by_index(table("num"), 0, r1), NULL);
    struct ovsdb_row *probe = new_row("num", NULL, "{\"n\": 2}");
    ck_assert_ptr_eq(ovsdb_table_find_by_index(table("num"), 0, probe), r2);
    ovsdb_row_destroy(probe);
}
END_TEST

START_TEST(test_version_bumped_only_on_change)
{
    check_ovsdb_ok(insert_rows("num", N1, "{\"n\": 1}", NULL));
    struct uuid v1 = *ovsdb_row_get_version(get_row("num", N1));

    /* Modified without a change: nothing to commit, same version. */
    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    ovsdb_txn_row_modify(txn, get_row("num", N1));
    check_ovsdb_ok(ovsdb_txn_commit(txn, false));
    ck_assert(uuid_equals(ovsdb_row_get_version(get_row("num", N1)), &v1));

    txn = ovsdb_txn_create(db);
    set_int(ovsdb_txn_row_modify(txn, get_row("num", N1)), "num", "n", 5);
    /* Still the old version until commit. */
    ck_assert(uuid_equals(ovsdb_row_get_version(get_row("num", N1)), &v1));
    check_ovsdb_ok(ovsdb_txn_commit(txn, false));
    const struct ovsdb_row *row = get_row("num", N1);
    ck_assert_int_eq(get_int(row, "num", "n"), 5);
    ck_assert(!uuid_equals(ovsdb_row_get_version(row), &v1));
}
END_TEST

START_TEST(test_delete_then_insert_same_uuid)
{
    check_ovsdb_ok(insert_rows("num", N1, "{\"n\": 1}", NULL));
    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    ovsdb_txn_row_delete(txn, get_row("num", N1));
    ck_assert(!ovsdb_txn_may_create_row(table("num"), &(struct uuid) {
        .parts = { 0xdddddddd, 0x00004000, 0x80000000, 0x00000001 } }));
    ovsdb_txn_row_insert(txn, new_row("num", N1, "{\"n\": 7}"));
    check_ovsdb_ok(ovsdb_txn_commit(txn, false));
    ck_assert_int_eq(get_int(get_row("num", N1), "num", "n"), 7);
    ck_assert_uint_eq(n_rows("num"), 1);
}
END_TEST

/* Strong references and garbage collection. */

START_TEST(test_gc_unreferenced_insert)
{
    /* A non-root row that nothing references does not survive its own
     * insertion; one that a root row references does. */
    check_ovsdb_ok(insert_rows("kid", K1, "{\"name\": \"orphan\"}",
                         "kid", K2, "{\"name\": \"owned\"}",
                         "root", R1, "{\"kids\": [\"uuid\", \"" K2 "\"]}",
                         NULL));
    ck_assert_ptr_null(get_row("kid", K1));
    ck_assert_ptr_nonnull(get_row("kid", K2));
    ck_assert_uint_eq(get_row("kid", K2)->n_refs, 1);

    /* Dropping the reference collects the kid. */
    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    struct ovsdb_row *root = ovsdb_txn_row_modify(txn, get_row("root", R1));
    struct ovsdb_datum *kids = &root->fields[column("root", "kids")->index];
    ovsdb_datum_destroy(kids, &column("root", "kids")->type);
    ovsdb_datum_init_empty(kids);
    check_ovsdb_ok(ovsdb_txn_commit(txn, false));
    ck_assert_ptr_null(get_row("kid", K2));
    ck_assert_uint_eq(n_rows("kid"), 0);
}
END_TEST

START_TEST(test_gc_chain_and_self_reference)
{
    /* root -> K1 -> K2 -> K2 (itself): deleting the root collects both,
     * since a row's reference to itself does not keep it. */
    check_ovsdb_ok(insert_rows("kid", K2, "{\"sib\": [\"uuid\", \"" K2 "\"]}",
                         "kid", K1, "{\"sib\": [\"uuid\", \"" K2 "\"]}",
                         "root", R1, "{\"kids\": [\"uuid\", \"" K1 "\"]}",
                         NULL));
    ck_assert_uint_eq(n_rows("kid"), 2);
    ck_assert_uint_eq(get_row("kid", K2)->n_refs, 1);

    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    ovsdb_txn_row_delete(txn, get_row("root", R1));
    check_ovsdb_ok(ovsdb_txn_commit(txn, false));
    ck_assert_uint_eq(n_rows("kid"), 0);
}
END_TEST

START_TEST(test_gc_keeps_cycles)
{
    /* K1 and K2 reference each other; once the root lets go they keep
     * each other alive, as in Open vSwitch. */
    check_ovsdb_ok(insert_rows("kid", K1, "{\"sib\": [\"uuid\", \"" K2 "\"]}",
                         "kid", K2, "{\"sib\": [\"uuid\", \"" K1 "\"]}",
                         "root", R1, "{\"kids\": [\"uuid\", \"" K1 "\"]}",
                         NULL));
    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    ovsdb_txn_row_delete(txn, get_row("root", R1));
    check_ovsdb_ok(ovsdb_txn_commit(txn, false));
    ck_assert_uint_eq(n_rows("kid"), 2);
    ck_assert_uint_eq(get_row("kid", K1)->n_refs, 1);
    ck_assert_uint_eq(get_row("kid", K2)->n_refs, 1);

    /* Deleting both at once works. */
    txn = ovsdb_txn_create(db);
    ovsdb_txn_row_delete(txn, get_row("kid", K1));
    ovsdb_txn_row_delete(txn, get_row("kid", K2));
    check_ovsdb_ok(ovsdb_txn_commit(txn, false));
    ck_assert_uint_eq(n_rows("kid"), 0);
}
END_TEST

START_TEST(test_referential_integrity)
{
    check_error(insert_rows("root", R1, "{\"kids\": [\"uuid\", \"" K1 "\"]}",
                            NULL),
                "referential integrity violation",
                "Table root column kids row " R1 " references nonexistent "
                "row " K1 " in table kid.");
    ck_assert_uint_eq(n_rows("root"), 0);

    check_ovsdb_ok(insert_rows("kid", K1, "{}",
                         "root", R1, "{\"kids\": [\"uuid\", \"" K1 "\"]}",
                         NULL));
    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    ovsdb_txn_row_delete(txn, get_row("kid", K1));
    check_error(ovsdb_txn_commit(txn, false),
                "referential integrity violation",
                "cannot delete kid row " K1 " because of 1 remaining "
                "reference(s)");
    ck_assert_ptr_nonnull(get_row("kid", K1));
    ck_assert_uint_eq(get_row("kid", K1)->n_refs, 1);
}
END_TEST

/* Weak references. */

START_TEST(test_weak_refs_dropped)
{
    /* R1 weakly references itself, R2 and a row that never existed. */
    check_ovsdb_ok(insert_rows("root", R2, "{\"name\": \"two\"}",
                         "root", R1, "{\"friends\": [\"set\", ["
                         "  [\"uuid\", \"" R1 "\"], [\"uuid\", \"" R2 "\"],"
                         "  [\"uuid\", \"" K3 "\"]]]}", NULL));
    check_refs("root", R1, "friends", "[11111111, 22222222]");
    /* Only the reference to another row needs bookkeeping. */
    ck_assert_uint_eq(db->n_weak_refs, 1);

    /* Modifying R2 keeps the reference; deleting it drops it from R1,
     * which the transaction did not otherwise touch. */
    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    struct ovsdb_row *r2 = ovsdb_txn_row_modify(txn, get_row("root", R2));
    json_t *name = json_string("deux");
    struct ovsdb_datum *field = &r2->fields[column("root", "name")->index];
    ovsdb_datum_destroy(field, &column("root", "name")->type);
    check_ovsdb_ok(ovsdb_datum_from_json(field, &column("root", "name")->type,
                                   name, NULL));
    json_decref(name);
    check_ovsdb_ok(ovsdb_txn_commit(txn, false));
    check_refs("root", R1, "friends", "[11111111, 22222222]");

    txn = ovsdb_txn_create(db);
    ovsdb_txn_row_delete(txn, get_row("root", R2));
    check_ovsdb_ok(ovsdb_txn_commit(txn, false));
    check_refs("root", R1, "friends", "[11111111]");
    ck_assert_uint_eq(db->n_weak_refs, 0);
}
END_TEST

START_TEST(test_weak_ref_n_min)
{
    check_ovsdb_ok(insert_rows("root", R1, "{}",
                         "need", N1, "{\"w1\": [\"uuid\", \"" R1 "\"]}",
                         NULL));
    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    ovsdb_txn_row_delete(txn, get_row("root", R1));
    check_error(ovsdb_txn_commit(txn, false), "constraint violation",
                "Deletion of 1 weak reference(s) to deleted (or "
                "never-existing) rows from column \"w1\" in \"need\" row "
                N1 " caused this column to become empty, but constraints "
                "on this column disallow an empty column.");
    check_refs("need", N1, "w1", "[11111111]");
    ck_assert_ptr_nonnull(get_row("root", R1));

    /* The default all-zeros uuid of a new row gets its own message. */
    check_error(insert_rows("need", N2, "{}", NULL), "constraint violation",
                "contained all-zeros UUID (probably as the default value "
                "for this column)");
}
END_TEST

/* Indexes and maxRows. */

START_TEST(test_index_uniqueness)
{
    check_ovsdb_ok(insert_rows("num", N1, "{\"n\": 1}", NULL));
    /* Rows with the same contents are named in decreasing UUID order. */
    check_error(insert_rows("num", N2, "{\"n\": 1}", NULL),
                "constraint violation",
                "Transaction causes multiple rows in \"num\" table to have "
                "identical values (1) for index on column \"n\".  First "
                "row, with UUID " N2 ", was inserted by this transaction.  "
                "Second row, with UUID " N1 ", existed in the database "
                "before this transaction and was not modified by the "
                "transaction.");

    /* Swapping index values within one transaction is fine. */
    check_ovsdb_ok(insert_rows("num", N2, "{\"n\": 2}", NULL));
    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    set_int(ovsdb_txn_row_modify(txn, get_row("num", N1)), "num", "n", 2);
    set_int(ovsdb_txn_row_modify(txn, get_row("num", N2)), "num", "n", 1);
    check_ovsdb_ok(ovsdb_txn_commit(txn, false));
    ck_assert_int_eq(get_int(get_row("num", N1), "num", "n"), 2);

    /* The index follows the commit. */
    struct ovsdb_row *probe = new_row("num", NULL, "{\"n\": 1}");
    ck_assert_ptr_eq(ovsdb_table_find_by_index(table("num"), 0, probe),
                     get_row("num", N2));
    ovsdb_row_destroy(probe);

    txn = ovsdb_txn_create(db);
    set_int(ovsdb_txn_row_modify(txn, get_row("num", N1)), "num", "n", 1);
    check_error(ovsdb_txn_commit(txn, false), "constraint violation",
                "First row, with UUID " N2 ", existed in the database "
                "before this transaction and was not modified by the "
                "transaction.  Second row, with UUID " N1 ", had the "
                "following index values before the transaction: 2.");
}
END_TEST

START_TEST(test_max_rows)
{
    check_ovsdb_ok(insert_rows("num", NULL, "{\"n\": 1}", "num", NULL, "{\"n\": 2}",
                         "num", NULL, "{\"n\": 3}", NULL));
    check_error(insert_rows("num", NULL, "{\"n\": 4}", NULL),
                "constraint violation",
                "transaction causes \"num\" table to contain 4 rows, "
                "greater than the schema-defined limit of 3 row(s)");
    ck_assert_uint_eq(n_rows("num"), 3);
}
END_TEST

/* Observers. */

struct recorder {
    struct ovsdb_observer observer;
    struct ds *log;             /* Shared by all recorders. */
    const char *name;
    bool fail;
    bool destroyed;
};

static bool
record_change(const struct ovsdb_row *old, const struct ovsdb_row *new,
              const unsigned long int *changed, void *r_)
{
    struct recorder *r = r_;
    const struct ovsdb_row *row = new ? new : old;
    const struct ovsdb_table_schema *ts = row->table->schema;

    ds_put_format(r->log, " %s:%s:"UUID_SHORT_FMT":",
                  ts->name, !old ? "insert" : !new ? "delete" : "modify",
                  UUID_SHORT_ARGS(ovsdb_row_get_uuid(row)));
    for (size_t i = 0; i < ts->n_columns; i++) {
        if (bitmap_is_set(changed, i)) {
            ds_put_format(r->log, "%s,", ts->columns_by_index[i]->name);
        }
    }
    return true;
}

static struct ovsdb_error *
recorder_commit(struct ovsdb_observer *observer, const struct ovsdb_txn *txn,
                bool durable)
{
    struct recorder *r = CONTAINER_OF(observer, struct recorder, observer);
    ds_put_format(r->log, "[%s%s", r->name, durable ? " durable" : "");
    ovsdb_txn_for_each_change(txn, record_change, r);
    ds_put_cstr(r->log, "]");
    return r->fail ? ovsdb_error("I/O error", "%s failed", r->name) : NULL;
}

static void
recorder_destroy(struct ovsdb_observer *observer)
{
    struct recorder *r = CONTAINER_OF(observer, struct recorder, observer);
    r->destroyed = true;
}

static const struct ovsdb_observer_class recorder_class = {
    .commit = recorder_commit,
    .destroy = recorder_destroy,
};

START_TEST(test_observers_order_and_changes)
{
    struct ds log = DS_EMPTY_INITIALIZER;
    struct recorder a = { { &recorder_class, { NULL, NULL } }, &log, "a",
                          false, false };
    struct recorder b = a;
    b.name = "b";
    ovsdb_add_observer(db, &a.observer);
    ovsdb_add_observer(db, &b.observer);

    check_ovsdb_ok(insert_rows("kid", K1, "{}", "root", R1,
                         "{\"kids\": [\"uuid\", \"" K1 "\"]}", NULL));
    ck_assert_str_eq(ds_cstr(&log),
                     "[a kid:insert:aaaaaaaa:_uuid,_version,name,sib,"
                     " root:insert:11111111:_uuid,_version,friends,kids,"
                     "name,]"
                     "[b kid:insert:aaaaaaaa:_uuid,_version,name,sib,"
                     " root:insert:11111111:_uuid,_version,friends,kids,"
                     "name,]");

    /* Dropping the root's kids modifies the root and collects the kid,
     * which observers see as a delete. */
    ds_clear(&log);
    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    struct ovsdb_row *root = ovsdb_txn_row_modify(txn, get_row("root", R1));
    struct ovsdb_datum *kids = &root->fields[column("root", "kids")->index];
    ovsdb_datum_destroy(kids, &column("root", "kids")->type);
    ovsdb_datum_init_empty(kids);
    check_ovsdb_ok(ovsdb_txn_commit(txn, true));
    ck_assert_str_eq(ds_cstr(&log),
                     "[a durable root:modify:11111111:_version,kids,"
                     " kid:delete:aaaaaaaa:_uuid,_version,name,sib,]"
                     "[b durable root:modify:11111111:_version,kids,"
                     " kid:delete:aaaaaaaa:_uuid,_version,name,sib,]");

    /* An empty transaction reaches observers only when durable. */
    ds_clear(&log);
    check_ovsdb_ok(ovsdb_txn_commit(ovsdb_txn_create(db), false));
    ck_assert_str_eq(ds_cstr(&log), "");
    check_ovsdb_ok(ovsdb_txn_commit(ovsdb_txn_create(db), true));
    ck_assert_str_eq(ds_cstr(&log), "[a durable][b durable]");

    /* A failing observer fails the commit; later ones are not called and
     * the database stays as it was. */
    ds_clear(&log);
    a.fail = true;
    struct recorder c = b;
    c.name = "c";
    ovsdb_add_observer(db, &c.observer);
    check_error(insert_rows("root", R2, "{}", NULL), "I/O error", "a failed");
    ck_assert_str_eq(ds_cstr(&log),
                     "[a root:insert:22222222:_uuid,_version,friends,kids,"
                     "name,]");
    ck_assert_ptr_null(get_row("root", R2));
    ck_assert_uint_eq(n_rows("root"), 1);

    /* Removed observers are not called; ovsdb_destroy() destroys the rest
     * (in teardown: check it here by destroying early). */
    ovsdb_remove_observer(db, &a.observer);
    ds_clear(&log);
    check_ovsdb_ok(insert_rows("root", R2, "{}", NULL));
    ck_assert_str_eq(ds_cstr(&log),
                     "[b root:insert:22222222:_uuid,_version,friends,kids,"
                     "name,][c root:insert:22222222:_uuid,_version,friends,"
                     "kids,name,]");
    ovsdb_destroy(db);
    db = NULL;
    ck_assert(!a.destroyed);
    ck_assert(b.destroyed);
    ck_assert(c.destroyed);
    ds_destroy(&log);
    setup();
}
END_TEST

START_TEST(test_for_each_change_before_commit)
{
    check_ovsdb_ok(insert_rows("num", N1, "{\"n\": 1}", "num", N2, "{\"n\": 2}",
                         NULL));
    struct ds log = DS_EMPTY_INITIALIZER;
    struct recorder r = { { &recorder_class, { NULL, NULL } }, &log, "r",
                          false, false };

    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    ovsdb_txn_row_modify(txn, get_row("num", N1));      /* No change. */
    set_int(ovsdb_txn_row_modify(txn, get_row("num", N2)), "num", "n", 5);
    ovsdb_txn_for_each_change(txn, record_change, &r);
    ck_assert_str_eq(ds_cstr(&log), " num:modify:eeeeeeee:n,");
    ovsdb_txn_abort(txn);
    ds_destroy(&log);
}
END_TEST

/* Queries combine the committed index with the open transaction. */

static size_t
count_matches(const char *table_name, const char *where)
{
    struct ovsdb_condition cnd;
    json_t *json = check_json_parse(where);
    check_ovsdb_ok(ovsdb_condition_from_json(table(table_name)->schema, json, NULL,
                                       &cnd));
    json_decref(json);

    struct ovsdb_row_set rows = OVSDB_ROW_SET_INITIALIZER;
    ovsdb_query_row_set(table(table_name), &cnd, &rows);
    size_t n = rows.n_rows;
    ovsdb_row_set_destroy(&rows);
    ovsdb_condition_destroy(&cnd);
    return n;
}

START_TEST(test_query_by_index_in_txn)
{
    check_ovsdb_ok(insert_rows("num", N1, "{\"n\": 1}", "num", N2, "{\"n\": 2}",
                         NULL));
    ck_assert_uint_eq(count_matches("num", "[[\"n\", \"==\", 1]]"), 1);
    ck_assert_uint_eq(count_matches("num", "[[\"n\", \"==\", 3]]"), 0);
    ck_assert_uint_eq(count_matches("num", "[[\"_uuid\", \"==\", [\"uuid\", "
                                    "\"" N2 "\"]]]"), 1);
    ck_assert_uint_eq(count_matches("num", "[[\"_uuid\", \"==\", [\"uuid\", "
                                    "\"" N2 "\"]], [\"n\", \"==\", 1]]"), 0);

    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    set_int(ovsdb_txn_row_modify(txn, get_row("num", N1)), "num", "n", 3);
    ck_assert_uint_eq(count_matches("num", "[[\"n\", \"==\", 1]]"), 0);
    ck_assert_uint_eq(count_matches("num", "[[\"n\", \"==\", 3]]"), 1);
    ovsdb_txn_row_delete(txn, get_row("num", N2));
    ck_assert_uint_eq(count_matches("num", "[[\"n\", \"==\", 2]]"), 0);
    ovsdb_txn_row_insert(txn, new_row("num", NULL, "{\"n\": 2}"));
    ck_assert_uint_eq(count_matches("num", "[[\"n\", \"==\", 2]]"), 1);
    ck_assert_uint_eq(count_matches("num", "[]"), 2);
    ovsdb_txn_abort(txn);

    ck_assert_uint_eq(count_matches("num", "[[\"n\", \"==\", 1]]"), 1);
    ck_assert_uint_eq(count_matches("num", "[[\"n\", \"==\", 2]]"), 1);
    ck_assert_uint_eq(count_matches("num", "[[\"n\", \"==\", 3]]"), 0);
}
END_TEST

/* Memory statistics. */

START_TEST(test_memory_usage)
{
    check_ovsdb_ok(insert_rows("num", N1, "{\"n\": 1, \"tags\": [\"set\", "
                         "[\"a\", \"b\"]], \"m\": [\"map\", [[\"k\", 1]]]}",
                         "root", R2, "{}",
                         "root", R1, "{\"friends\": [\"uuid\", \"" R2 "\"]}",
                         NULL));
    struct smap usage = SMAP_INITIALIZER(&usage);
    smap_add(&usage, "cells", "100");
    ovsdb_get_memory_usage(db, &usage);

    /* num: 5 columns; root: 5 columns, 2 rows.  Atoms: num 1+1 + 1 + 2 + 2
     * = 7, root R1 1+1 + 1 (name) + 0 (kids) + 1 (friends) = 4, R2 3. */
    ck_assert_str_eq(smap_get(&usage, "cells"), "115");
    ck_assert_str_eq(smap_get(&usage, "atoms"), "14");
    ck_assert_str_eq(smap_get(&usage, "n-weak-refs"), "1");

    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    ovsdb_txn_row_delete(txn, get_row("num", N1));
    check_ovsdb_ok(ovsdb_txn_commit(txn, false));
    smap_clear(&usage);
    ovsdb_get_memory_usage(db, &usage);
    ck_assert_str_eq(smap_get(&usage, "cells"), "10");
    ck_assert_str_eq(smap_get(&usage, "atoms"), "7");
    ck_assert_str_eq(smap_get(&usage, "n-weak-refs"), "1");

    /* Deleting the referenced row drops the reference. */
    txn = ovsdb_txn_create(db);
    ovsdb_txn_row_delete(txn, get_row("root", R2));
    check_ovsdb_ok(ovsdb_txn_commit(txn, false));
    smap_clear(&usage);
    ovsdb_get_memory_usage(db, &usage);
    ck_assert_str_eq(smap_get(&usage, "n-weak-refs"), "0");
    ck_assert_str_eq(smap_get(&usage, "atoms"), "3");
    smap_destroy(&usage);
}
END_TEST

START_TEST(test_replace)
{
    check_ovsdb_ok(insert_rows("root", R1, "{}", NULL));

    struct ovsdb_schema *schema;
    json_t *json = check_json_parse(schema_json);
    check_ovsdb_ok(ovsdb_schema_from_json(json, &schema));
    json_decref(json);
    struct ovsdb *new = ovsdb_create(schema);
    struct ovsdb_txn *txn = ovsdb_txn_create(new);
    struct ovsdb_row *row = ovsdb_row_create(ovsdb_get_table(new, "root"));
    ck_assert(uuid_from_string(ovsdb_row_get_uuid_rw(row), R2));
    ovsdb_txn_row_insert(txn, row);
    check_ovsdb_ok(ovsdb_txn_commit(txn, false));

    ovsdb_replace(db, new);
    ck_assert_ptr_null(get_row("root", R1));
    ck_assert_ptr_nonnull(get_row("root", R2));
    ck_assert_str_eq(db->name, "eng");
}
END_TEST

static Suite *
engine_suite(void)
{
    Suite *s = suite_create("ovsdb-engine");

    TCase *tc = tcase_create("transaction");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_insert_visible_then_abort);
    tcase_add_test(tc, test_commit_sets_txnid_and_triggers);
    tcase_add_test(tc, test_modify_and_delete_abort_restore);
    tcase_add_test(tc, test_version_bumped_only_on_change);
    tcase_add_test(tc, test_delete_then_insert_same_uuid);
    suite_add_tcase(s, tc);

    tc = tcase_create("references");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_gc_unreferenced_insert);
    tcase_add_test(tc, test_gc_chain_and_self_reference);
    tcase_add_test(tc, test_gc_keeps_cycles);
    tcase_add_test(tc, test_referential_integrity);
    tcase_add_test(tc, test_weak_refs_dropped);
    tcase_add_test(tc, test_weak_ref_n_min);
    suite_add_tcase(s, tc);

    tc = tcase_create("constraints");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_index_uniqueness);
    tcase_add_test(tc, test_max_rows);
    suite_add_tcase(s, tc);

    tc = tcase_create("observers");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_observers_order_and_changes);
    tcase_add_test(tc, test_for_each_change_before_commit);
    suite_add_tcase(s, tc);

    tc = tcase_create("database");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_query_by_index_in_txn);
    tcase_add_test(tc, test_memory_usage);
    tcase_add_test(tc, test_replace);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(engine_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
