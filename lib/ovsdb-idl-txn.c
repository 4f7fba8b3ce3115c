/* IDL transactions: local changes to the replica, turned into one RFC 7047
 * "transact" request at commit time.
 *
 * While a transaction is open, every row it touches is in its txn_rows map
 * with its own new_datum (see ovsdb-idl-provider.h).  Commit composes:
 *
 *   1. "assert" of the IDL's lock, if it has one;
 *   2. one "wait" per row with verified columns, requiring the server's
 *      values to equal what the replica has (timeout 0: fail at once, which
 *      the server reports as "timed out" and we as TRY_AGAIN);
 *   3. "delete", "insert" (with a uuid-name, and references to the new
 *      row become "named-uuid"s; or, for ovsdb_idl_txn_insert_persist_uuid(),
 *      with the "uuid" the server is to give it, which references name
 *      as they are), "update" of the written columns whose value changed,
 *      and "mutate" for partial set/map updates;
 *   4. the increment's "mutate" (+= 1) and "select";
 *   5. "comment", and "abort" for a dry run.
 *
 * Updates and mutates of existing rows check in the reply that they
 * matched one row: zero means the row was deleted meanwhile (TRY_AGAIN).
 * Then the local changes are reverted ("disassembled"); the server's update
 * notification brings the committed state back into the replica.
 */
#include <config.h>
#include "ovsdb-idl.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "bitmap.h"
#include "coverage.h"
#include "dynamic-string.h"
#include "jsonrpc.h"
#include "ovsdb-idl-private.h"
#include "poll-loop.h"
#include "vlog.h"

VLOG_USE_MODULE(ovsdb_idl);

COVERAGE_DEFINE(txn_commit);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

/* What the reply to one operation tells us. */
enum txn_op_kind {
    OP_PLAIN,                   /* Nothing to check. */
    OP_CHECK_COUNT,             /* Must have "count": 1. */
    OP_INSERT,                  /* "uuid" of inserted row INSERT_IDX. */
    OP_INC_SELECT               /* The incremented value. */
};

struct txn_insert {
    struct uuid local;          /* The uuid the row had in the replica. */
    struct uuid real;           /* The server's, once known. */
    bool have_real;
    bool persist;               /* Sent with "uuid": LOCAL is the real one,
                                 * and references to it need no name. */
};

struct ovsdb_idl_txn {
    struct hmap_node hmap_node;     /* In idl->outstanding_txns. */
    struct ovsdb_idl *idl;
    bool outstanding;
    json_t *request_id;
    struct hmap txn_rows;           /* struct ovsdb_idl_row, by txn_node. */
    enum ovsdb_idl_txn_status status;
    char *error;
    bool dry_run;
    struct ds comment;

    /* Increment. */
    const struct ovsdb_idl_table_class *inc_table;
    const char *inc_column;
    struct uuid inc_row;
    bool inc_force;
    int64_t inc_new_value;

    /* Inserted rows and per-operation bookkeeping for the reply. */
    struct txn_insert *inserts;
    size_t n_inserts;
    enum txn_op_kind *op_kinds;
    size_t *op_args;
    size_t n_ops, allocated_ops;
};

const char *
ovsdb_idl_txn_status_to_string(enum ovsdb_idl_txn_status status)
{
    switch (status) {
    case TXN_UNCOMMITTED: return "uncommitted";
    case TXN_UNCHANGED: return "unchanged";
    case TXN_INCOMPLETE: return "incomplete";
    case TXN_ABORTED: return "aborted";
    case TXN_SUCCESS: return "success";
    case TXN_TRY_AGAIN: return "try again";
    case TXN_NOT_LOCKED: return "not locked";
    case TXN_ERROR: return "error";
    }
    return "<unknown>";
}

struct ovsdb_idl_txn *
ovsdb_idl_txn_create(struct ovsdb_idl *idl)
{
    ovs_assert(!idl->txn);
    struct ovsdb_idl_txn *txn = xzalloc(sizeof *txn);
    txn->idl = idl;
    hmap_init(&txn->txn_rows);
    txn->status = TXN_UNCOMMITTED;
    ds_init(&txn->comment);
    idl->txn = txn;
    return txn;
}

struct ovsdb_idl *
ovsdb_idl_txn_get_idl(struct ovsdb_idl_txn *txn)
{
    return txn->idl;
}

const struct ovsdb_idl_txn *
ovsdb_idl_txn_get(const struct ovsdb_idl_row *row)
{
    return row->table->idl->txn;
}

void
ovsdb_idl_txn_add_comment(struct ovsdb_idl_txn *txn, const char *format, ...)
{
    va_list args;
    if (txn->comment.length) {
        ds_put_char(&txn->comment, '\n');
    }
    va_start(args, format);
    ds_put_format_valist(&txn->comment, format, args);
    va_end(args);
}

void
ovsdb_idl_txn_set_dry_run(struct ovsdb_idl_txn *txn)
{
    txn->dry_run = true;
}

/* Touching rows. */

static struct ovsdb_idl_txn *
txn_of(const struct ovsdb_idl_row *row)
{
    struct ovsdb_idl_txn *txn = row->table->idl->txn;
    ovs_assert(txn);
    return txn;
}

static void
txn_add_row(struct ovsdb_idl_txn *txn, struct ovsdb_idl_row *row)
{
    if (hmap_node_is_null(&row->txn_node)) {
        hmap_insert(&txn->txn_rows, &row->txn_node, uuid_hash(&row->uuid));
    }
}

/* Gives ROW its own new_datum array: every column a shallow copy of the
 * server's value, shared until txn_own_column() copies it. */
static void
txn_own_datum(struct ovsdb_idl_row *row)
{
    if (row->new_datum && row->new_datum == row->old_datum) {
        const struct ovsdb_idl_table_class *tc = row->table->class_;
        size_t n = tc->n_columns ? tc->n_columns : 1;
        struct ovsdb_datum *d = xmemdup(row->old_datum, n * sizeof *d);
        row->new_datum = d;
        row->shared = bitmap_allocate(n);
        for (size_t i = 0; i < n; i++) {
            bitmap_set1(row->shared, i);
        }
    }
}

/* Makes column IDX of ROW's new_datum the transaction's own, to change it
 * in place. */
static void
txn_own_column(struct ovsdb_idl_row *row, size_t idx)
{
    txn_own_datum(row);
    if (row->shared && bitmap_is_set(row->shared, idx)) {
        ovsdb_datum_clone(&row->new_datum[idx], &row->old_datum[idx],
                          &row->table->class_->columns[idx].type);
        bitmap_set0(row->shared, idx);
    }
}

/* Before and after a change to column IDX of ROW: its typed view must not
 * outlive the datum.  A column that names no rows is re-parsed alone, so
 * that writing one status column does not re-parse the whole row; one that
 * names rows holds arcs, which only a whole-row parse keeps right. */
static bool
txn_unparse_column(struct ovsdb_idl_row *row, size_t idx)
{
    const struct ovsdb_idl_column *column = &row->table->class_->columns[idx];
    if (!row->table->idl->typed_rows) {
        return true;            /* Nothing to parse, no arcs to keep. */
    }
    if (row->parsed && !ovsdb_base_type_is_ref(&column->type.key)
        && !ovsdb_base_type_is_ref(&column->type.value)) {
        column->unparse(row);
        return true;
    }
    ovsdb_idl_row_unparse(row);
    return false;
}

static void
txn_parse_column(struct ovsdb_idl_row *row, size_t idx, bool alone)
{
    if (alone) {
        if (row->table->idl->typed_rows) {
            row->table->class_->columns[idx].parse(row,
                                                   &row->new_datum[idx]);
        }
    } else {
        ovsdb_idl_row_parse(row);
    }
}

static void
txn_mark(unsigned long **bitmap, const struct ovsdb_idl_row *row, size_t idx)
{
    if (!*bitmap) {
        *bitmap = bitmap_allocate(row->table->class_->n_columns);
    }
    bitmap_set1(*bitmap, idx);
}

/* Makes the replica row for a row that TXN inserts with uuid UUID, or
 * returns NULL if the table has a row with that uuid already.  A row that
 * only references have named so far (an orphan: a reference written before
 * the insert) becomes the new row, so that those references reach it. */
static struct ovsdb_idl_row *
txn_insert__(struct ovsdb_idl_txn *txn, const struct ovsdb_idl_table_class *tc,
             const struct uuid *uuid)
{
    struct ovsdb_idl_table *table = ovsdb_idl_table_from_class(txn->idl, tc);
    struct ovsdb_idl_row *row = ovsdb_idl_find_row(table, uuid);
    bool was_orphan = row != NULL;

    if (row && (row->old_datum || row->new_datum
                || !hmap_node_is_null(&row->txn_node))) {
        return NULL;
    }
    if (!row) {
        row = ovsdb_idl_row_create__(table, uuid);
    }
    struct ovsdb_datum *d = xcalloc(tc->n_columns ? tc->n_columns : 1,
                                    sizeof *d);
    for (size_t i = 0; i < tc->n_columns; i++) {
        ovsdb_datum_init_default(&d[i], &tc->columns[i].type);
    }
    row->new_datum = d;
    txn_add_row(txn, row);
    ovsdb_idl_row_parse(row);
    if (was_orphan) {
        ovsdb_idl_reparse_referrers(row);
    }
    return row;
}

const struct ovsdb_idl_row *
ovsdb_idl_txn_insert(struct ovsdb_idl_txn *txn,
                     const struct ovsdb_idl_table_class *tc,
                     const struct uuid *uuid)
{
    struct uuid local;
    if (uuid) {
        local = *uuid;
    } else {
        uuid_generate(&local);
    }
    struct ovsdb_idl_row *row = txn_insert__(txn, tc, &local);
    ovs_assert(row);
    return row;
}

const struct ovsdb_idl_row *
ovsdb_idl_txn_insert_persist_uuid(struct ovsdb_idl_txn *txn,
                                  const struct ovsdb_idl_table_class *tc,
                                  const struct uuid *uuid)
{
    struct ovsdb_idl_row *row = txn_insert__(txn, tc, uuid);
    if (row) {
        row->persist_uuid = true;
    }
    return row;
}

void
ovsdb_idl_txn_delete(const struct ovsdb_idl_row *row_)
{
    struct ovsdb_idl_row *row = (struct ovsdb_idl_row *) row_;
    struct ovsdb_idl_txn *txn = txn_of(row);
    if (!row->new_datum) {
        return;                 /* Already deleted. */
    }
    if (!row->old_datum) {
        /* Inserted and deleted in this transaction: nothing to send.  Take
         * it out of the table first, so that its referrers re-point to a
         * fresh orphan and nothing frees it under us. */
        hmap_remove(&txn->txn_rows, &row->txn_node);
        hmap_node_nullify(&row->txn_node);
        hmap_remove(&row->table->rows, &row->hmap_node);
        row->deleted = true;
        ovsdb_idl_row_unparse(row);
        ovsdb_idl_row_free_new_datum(row);
        ovsdb_idl_reparse_referrers(row);
        ovsdb_idl_row_destroy(row);
        return;
    }
    ovsdb_idl_row_unparse(row);
    if (row->new_datum != row->old_datum) {
        ovsdb_idl_row_free_new_datum(row);
    }
    row->new_datum = NULL;
    txn_add_row(txn, row);
    ovsdb_idl_reparse_referrers(row);
}

static bool
txn_check_writable(const struct ovsdb_idl_row *row)
{
    if (!row->new_datum) {
        VLOG_WARN_RL(&rl, "write to row "UUID_FMT" deleted in the same "
                     "transaction ignored", UUID_ARGS(&row->uuid));
        return false;
    }
    return true;
}

void
ovsdb_idl_txn_write(const struct ovsdb_idl_row *row_,
                    const struct ovsdb_idl_column *column,
                    struct ovsdb_datum *datum)
{
    struct ovsdb_idl_row *row = (struct ovsdb_idl_row *) row_;
    struct ovsdb_idl_txn *txn = txn_of(row);
    size_t idx = ovsdb_idl_column_index(row, column);

    if (!txn_check_writable(row)
        || ovsdb_datum_equals(&row->new_datum[idx], datum, &column->type)) {
        ovsdb_datum_destroy(datum, &column->type);
        return;
    }
    bool alone = txn_unparse_column(row, idx);
    txn_own_datum(row);
    if (row->shared && bitmap_is_set(row->shared, idx)) {
        bitmap_set0(row->shared, idx);      /* The atoms stay old_datum's. */
    } else {
        ovsdb_datum_destroy(&row->new_datum[idx], &column->type);
    }
    row->new_datum[idx] = *datum;
    txn_mark(&row->written, row, idx);
    if (row->partial && bitmap_is_set(row->partial, idx)) {
        /* A whole new value supersedes partial updates. */
        bitmap_set0(row->partial, idx);
        ovsdb_datum_destroy(&row->adds[idx], &column->type);
        ovsdb_datum_destroy(&row->dels[idx], &column->type);
        ovsdb_datum_init_empty(&row->adds[idx]);
        ovsdb_datum_init_empty(&row->dels[idx]);
    }
    txn_add_row(txn, row);
    txn_parse_column(row, idx, alone);
}

void
ovsdb_idl_txn_write_clone(const struct ovsdb_idl_row *row,
                          const struct ovsdb_idl_column *column,
                          const struct ovsdb_datum *datum)
{
    struct ovsdb_datum clone;
    ovsdb_datum_clone(&clone, datum, &column->type);
    ovsdb_idl_txn_write(row, column, &clone);
}

/* The type of a set of COLUMN's keys, of any size. */
static struct ovsdb_type
keys_type(const struct ovsdb_idl_column *column)
{
    struct ovsdb_type t = column->type;
    ovsdb_base_type_init(&t.value, OVSDB_TYPE_VOID);
    t.n_min = 0;
    t.n_max = OVSDB_UNLIMITED;
    return t;
}

static struct ovsdb_type
any_size_type(const struct ovsdb_idl_column *column)
{
    struct ovsdb_type t = column->type;
    t.n_min = 0;
    t.n_max = OVSDB_UNLIMITED;
    return t;
}

/* Whether partial updates of ROW's column IDX must be sent as mutations
 * (rather than as part of a whole value, for new or rewritten columns). */
static bool
txn_needs_mutation(struct ovsdb_idl_row *row, size_t idx)
{
    if (!row->old_datum
        || (row->written && bitmap_is_set(row->written, idx))) {
        return false;
    }
    if (!row->adds) {
        const struct ovsdb_idl_table_class *tc = row->table->class_;
        size_t n = tc->n_columns ? tc->n_columns : 1;
        row->adds = xcalloc(n, sizeof *row->adds);
        row->dels = xcalloc(n, sizeof *row->dels);
    }
    txn_mark(&row->partial, row, idx);
    return true;
}

void
ovsdb_idl_txn_write_partial_add(const struct ovsdb_idl_row *row_,
                                const struct ovsdb_idl_column *column,
                                struct ovsdb_datum *datum)
{
    struct ovsdb_idl_row *row = (struct ovsdb_idl_row *) row_;
    struct ovsdb_idl_txn *txn = txn_of(row);
    size_t idx = ovsdb_idl_column_index(row, column);
    struct ovsdb_type any = any_size_type(column);
    struct ovsdb_type keys = keys_type(column);
    bool is_map = ovsdb_type_is_map(&column->type);

    if (!txn_check_writable(row)) {
        ovsdb_datum_destroy(datum, &any);
        return;
    }
    bool alone = txn_unparse_column(row, idx);
    txn_own_column(row, idx);
    struct ovsdb_datum *cur = &row->new_datum[idx];
    if (is_map) {
        /* Setting a key replaces its old value. */
        ovsdb_datum_subtract(cur, &column->type, datum, &keys);
    }
    ovsdb_datum_union(cur, datum, &column->type);
    if (txn_needs_mutation(row, idx)) {
        if (is_map) {
            ovsdb_datum_subtract(&row->adds[idx], &any, datum, &keys);
            /* "delete" then "insert" overwrites an existing key. */
            ovsdb_datum_union(&row->dels[idx], datum, &keys);
        } else {
            /* Sets keep adds and deletes disjoint, so that the commit may
             * send the two mutations in either order. */
            ovsdb_datum_subtract(&row->dels[idx], &keys, datum, &keys);
        }
        ovsdb_datum_union(&row->adds[idx], datum, &any);
    } else {
        txn_mark(&row->written, row, idx);
    }
    ovsdb_datum_destroy(datum, &any);
    txn_add_row(txn, row);
    txn_parse_column(row, idx, alone);
}

void
ovsdb_idl_txn_write_partial_remove(const struct ovsdb_idl_row *row_,
                                   const struct ovsdb_idl_column *column,
                                   struct ovsdb_datum *datum)
{
    struct ovsdb_idl_row *row = (struct ovsdb_idl_row *) row_;
    struct ovsdb_idl_txn *txn = txn_of(row);
    size_t idx = ovsdb_idl_column_index(row, column);
    struct ovsdb_type any = any_size_type(column);
    struct ovsdb_type keys = keys_type(column);

    if (!txn_check_writable(row)) {
        ovsdb_datum_destroy(datum, &keys);
        return;
    }
    bool alone = txn_unparse_column(row, idx);
    txn_own_column(row, idx);
    ovsdb_datum_subtract(&row->new_datum[idx], &column->type, datum, &keys);
    if (txn_needs_mutation(row, idx)) {
        ovsdb_datum_subtract(&row->adds[idx], &any, datum, &keys);
        ovsdb_datum_union(&row->dels[idx], datum, &keys);
    } else {
        txn_mark(&row->written, row, idx);
    }
    ovsdb_datum_destroy(datum, &keys);
    txn_add_row(txn, row);
    txn_parse_column(row, idx, alone);
}

void
ovsdb_idl_txn_verify(const struct ovsdb_idl_row *row_,
                     const struct ovsdb_idl_column *column)
{
    struct ovsdb_idl_row *row = (struct ovsdb_idl_row *) row_;
    struct ovsdb_idl_txn *txn = txn_of(row);
    if (!row->old_datum) {
        return;                 /* A new row has nothing to verify. */
    }
    txn_mark(&row->prereqs, row, ovsdb_idl_column_index(row, column));
    txn_add_row(txn, row);
}

void
ovsdb_idl_txn_increment(struct ovsdb_idl_txn *txn,
                        const struct ovsdb_idl_row *row,
                        const struct ovsdb_idl_column *column, bool force)
{
    ovs_assert(!txn->inc_table);
    ovs_assert(column->type.key.type == OVSDB_TYPE_INTEGER);
    ovs_assert(column->type.value.type == OVSDB_TYPE_VOID);
    txn->inc_table = row->table->class_;
    txn->inc_column = column->name;
    txn->inc_row = row->uuid;
    txn->inc_force = force;
}

/* Reverting. */

static void
txn_clear_row_state(struct ovsdb_idl_row *row)
{
    bitmap_free(row->written);
    bitmap_free(row->prereqs);
    bitmap_free(row->partial);
    row->written = row->prereqs = row->partial = NULL;
    row->persist_uuid = false;
    if (row->adds) {
        ovsdb_idl_row_free_datum(row, row->adds);
        ovsdb_idl_row_free_datum(row, row->dels);
        row->adds = row->dels = NULL;
    }
}

/* Puts back the server's values in ROW, which the transaction wrote.
 * Only the columns it copied need parsing again (the others' typed view
 * is of old_datum's atoms already), unless one of them names rows. */
static void
txn_restore_row(struct ovsdb_idl_row *row)
{
    const struct ovsdb_idl_table_class *tc = row->table->class_;
    size_t n = tc->n_columns;
    bool alone = row->parsed && row->shared && row->table->idl->typed_rows;
    for (size_t i = 0; alone && i < n; i++) {
        alone = (bitmap_is_set(row->shared, i)
                 || (!ovsdb_base_type_is_ref(&tc->columns[i].type.key)
                     && !ovsdb_base_type_is_ref(&tc->columns[i].type.value)));
    }
    if (!alone) {
        ovsdb_idl_row_unparse(row);
        ovsdb_idl_row_free_new_datum(row);
        row->new_datum = row->old_datum;
        ovsdb_idl_row_parse(row);
        return;
    }
    unsigned long *copied = bitmap_allocate(n);
    for (size_t i = 0; i < n; i++) {
        if (!bitmap_is_set(row->shared, i)) {
            bitmap_set1(copied, i);
            tc->columns[i].unparse(row);
        }
    }
    ovsdb_idl_row_free_new_datum(row);
    row->new_datum = row->old_datum;
    for (size_t i = 0; i < n; i++) {
        if (bitmap_is_set(copied, i)) {
            tc->columns[i].parse(row, &row->old_datum[i]);
        }
    }
    bitmap_free(copied);
}

/* Undoes the transaction's local changes and detaches it from the IDL. */
static void
txn_disassemble(struct ovsdb_idl_txn *txn)
{
    struct ovsdb_idl *idl = txn->idl;
    size_t n = hmap_count(&txn->txn_rows), n_new = 0, n_deleted = 0;
    struct ovsdb_idl_row **new_rows = xmalloc((n + 1) * sizeof *new_rows);
    struct ovsdb_idl_row **deleted = xmalloc((n + 1) * sizeof *deleted);

    /* First put every existing row back as the server has it, so that no
     * restored row refers to a new row any more; then drop the new rows. */
    struct ovsdb_idl_row *row;
    HMAP_FOR_EACH_POP (row, txn_node, &txn->txn_rows) {
        hmap_node_nullify(&row->txn_node);
        txn_clear_row_state(row);
        if (!row->old_datum) {
            new_rows[n_new++] = row;
            continue;
        }
        if (!row->new_datum) {
            ovsdb_idl_row_unparse(row);
            deleted[n_deleted++] = row;
            row->new_datum = row->old_datum;
            ovsdb_idl_row_parse(row);
        } else if (row->new_datum != row->old_datum) {
            txn_restore_row(row);
        }
    }
    for (size_t i = 0; i < n_deleted; i++) {
        ovsdb_idl_reparse_referrers(deleted[i]);
    }
    for (size_t i = 0; i < n_new; i++) {
        struct ovsdb_idl_row *r = new_rows[i];
        ovsdb_idl_row_unparse(r);
        ovsdb_idl_row_free_new_datum(r);
        /* Orphans referenced only by restored rows are gone by now; one
         * still referenced stays an orphan and is freed with its last
         * arc. */
        ovsdb_idl_row_gc(r);
    }
    free(new_rows);
    free(deleted);
    if (idl->txn == txn) {
        idl->txn = NULL;
    }
}

/* Committing. */

static void
txn_add_op(struct ovsdb_idl_txn *txn, json_t *ops, json_t *op,
           enum txn_op_kind kind, size_t arg)
{
    json_array_append_new(ops, op);
    if (txn->n_ops >= txn->allocated_ops) {
        size_t allocated = txn->allocated_ops;
        txn->op_kinds = x2nrealloc(txn->op_kinds, &allocated,
                                   sizeof *txn->op_kinds);
        txn->op_args = xrealloc(txn->op_args, allocated
                                * sizeof *txn->op_args);
        txn->allocated_ops = allocated;
    }
    txn->op_kinds[txn->n_ops] = kind;
    txn->op_args[txn->n_ops] = arg;
    txn->n_ops++;
}

static json_t *
uuid_json(const struct uuid *uuid)
{
    char s[UUID_LEN + 1];
    snprintf(s, sizeof s, UUID_FMT, UUID_ARGS(uuid));
    return json_pack("[s s]", "uuid", s);
}

static json_t *
where_uuid(const struct uuid *uuid)
{
    return json_pack("[[s s o]]", "_uuid", "==", uuid_json(uuid));
}

static char *
insert_name(const struct uuid *uuid)
{
    char *name = xasprintf("row"UUID_FMT, UUID_ARGS(uuid));
    for (char *p = name; *p; p++) {
        if (*p == '-') {
            *p = '_';
        }
    }
    return name;
}

/* Replaces, in place, every ["uuid", U] in JSON where U is a row inserted
 * by TXN with ["named-uuid", NAME]. */
static void
substitute_uuids(struct ovsdb_idl_txn *txn, json_t *json)
{
    if (json_is_array(json)) {
        if (json_array_size(json) == 2
            && json_is_string(json_array_get(json, 0))
            && !strcmp(json_string_value(json_array_get(json, 0)), "uuid")
            && json_is_string(json_array_get(json, 1))) {
            struct uuid uuid;
            if (uuid_from_string(&uuid,
                                 json_string_value(json_array_get(json, 1)))) {
                for (size_t i = 0; i < txn->n_inserts; i++) {
                    if (uuid_equals(&uuid, &txn->inserts[i].local)
                        && !txn->inserts[i].persist) {
                        json_array_set_new(json, 0, json_string("named-uuid"));
                        char *name = insert_name(&uuid);
                        json_array_set_new(json, 1, json_string(name));
                        free(name);
                        break;
                    }
                }
            }
            return;
        }
        size_t i;
        json_t *elem;
        json_array_foreach (json, i, elem) {
            substitute_uuids(txn, elem);
        }
    } else if (json_is_object(json)) {
        const char *key;
        json_t *value;
        json_object_foreach (json, key, value) {
            substitute_uuids(txn, value);
        }
    }
}

static int
compare_rows_by_uuid(const void *a_, const void *b_)
{
    const struct ovsdb_idl_row *const *a = a_;
    const struct ovsdb_idl_row *const *b = b_;
    int cmp = strcmp((*a)->table->class_->name, (*b)->table->class_->name);
    return cmp ? cmp : uuid_compare_3way(&(*a)->uuid, &(*b)->uuid);
}

/* Composes the operations.  Returns true if any of them changes the
 * database. */
static bool
txn_compose(struct ovsdb_idl_txn *txn, json_t *ops)
{
    struct ovsdb_idl *idl = txn->idl;
    bool any_updates = false;

    /* A stable order, so the same transaction always reads the same. */
    size_t n = hmap_count(&txn->txn_rows);
    struct ovsdb_idl_row **rows = xmalloc((n + 1) * sizeof *rows);
    size_t k = 0;
    struct ovsdb_idl_row *row;
    HMAP_FOR_EACH (row, txn_node, &txn->txn_rows) {
        rows[k++] = row;
    }
    qsort(rows, n, sizeof *rows, compare_rows_by_uuid);

    if (idl->lock_name) {
        txn_add_op(txn, ops, json_pack("{s:s, s:s}", "op", "assert",
                                       "lock", idl->lock_name), OP_PLAIN, 0);
    }

    for (size_t i = 0; i < n; i++) {
        row = rows[i];
        if (!row->old_datum) {
            txn->inserts = xrealloc(txn->inserts, (txn->n_inserts + 1)
                                    * sizeof *txn->inserts);
            struct txn_insert *ins = &txn->inserts[txn->n_inserts++];
            ins->local = row->uuid;
            ins->have_real = false;
            ins->persist = row->persist_uuid;
        }
    }

    /* Preconditions first, so that they see the values before our writes:
     * one "wait" per existing row that the transaction verifies or changes,
     * requiring the row to exist (a transaction must not half-apply when
     * one of its rows is gone) with the verified columns as we saw them. */
    for (size_t i = 0; i < n; i++) {
        row = rows[i];
        const struct ovsdb_idl_table_class *tc = row->table->class_;
        if (!row->old_datum
            || (!row->prereqs && !row->written && !row->partial
                && row->new_datum)) {
            continue;
        }
        json_t *columns = json_array();
        json_t *values = json_object();
        for (size_t j = 0; row->prereqs && j < tc->n_columns; j++) {
            if (bitmap_is_set(row->prereqs, j)) {
                const struct ovsdb_idl_column *c = &tc->columns[j];
                json_array_append_new(columns, json_string(c->name));
                json_object_set_new(values, c->name,
                                    ovsdb_datum_to_json(&row->old_datum[j],
                                                        &c->type));
            }
        }
        txn_add_op(txn, ops,
                   json_pack("{s:s, s:i, s:s, s:o, s:s, s:o, s:[o]}",
                             "op", "wait", "timeout", 0, "table", tc->name,
                             "where", where_uuid(&row->uuid), "until", "==",
                             "columns", columns, "rows", values),
                   OP_PLAIN, 0);
    }

    size_t insert_idx = 0;
    for (size_t i = 0; i < n; i++) {
        row = rows[i];
        const struct ovsdb_idl_table_class *tc = row->table->class_;
        if (!row->new_datum) {
            if (row->old_datum) {
                txn_add_op(txn, ops,
                           json_pack("{s:s, s:s, s:o}", "op", "delete",
                                     "table", tc->name,
                                     "where", where_uuid(&row->uuid)),
                           OP_CHECK_COUNT, 0);
                any_updates = true;
            }
            continue;
        }
        json_t *row_json = json_object();
        for (size_t j = 0; j < tc->n_columns; j++) {
            const struct ovsdb_idl_column *c = &tc->columns[j];
            if (!row->written || !bitmap_is_set(row->written, j)) {
                continue;
            }
            if (row->old_datum
                && ovsdb_datum_equals(&row->old_datum[j], &row->new_datum[j],
                                      &c->type)) {
                continue;
            }
            json_object_set_new(row_json, c->name,
                                ovsdb_datum_to_json(&row->new_datum[j],
                                                    &c->type));
        }
        if (!row->old_datum) {
            json_t *op;
            if (row->persist_uuid) {
                char s[UUID_LEN + 1];
                uuid_format(&row->uuid, s);
                op = json_pack("{s:s, s:s, s:s, s:o}", "op", "insert",
                               "table", tc->name, "uuid", s, "row", row_json);
            } else {
                char *name = insert_name(&row->uuid);
                op = json_pack("{s:s, s:s, s:s, s:o}", "op", "insert",
                               "table", tc->name, "uuid-name", name,
                               "row", row_json);
                free(name);
            }
            txn_add_op(txn, ops, op, OP_INSERT, insert_idx++);
            any_updates = true;
            continue;
        }
        if (json_object_size(row_json)) {
            txn_add_op(txn, ops,
                       json_pack("{s:s, s:s, s:o, s:o}", "op", "update",
                                 "table", tc->name,
                                 "where", where_uuid(&row->uuid),
                                 "row", row_json),
                       OP_CHECK_COUNT, 0);
            any_updates = true;
        } else {
            json_decref(row_json);
        }
        if (row->partial) {
            json_t *mutations = json_array();
            for (size_t j = 0; j < tc->n_columns; j++) {
                if (!bitmap_is_set(row->partial, j)) {
                    continue;
                }
                const struct ovsdb_idl_column *c = &tc->columns[j];
                struct ovsdb_type any = any_size_type(c);
                struct ovsdb_type keys = keys_type(c);
                json_t *del = (row->dels[j].n
                               ? json_pack("[s s o]", c->name, "delete",
                                           ovsdb_datum_to_json(&row->dels[j],
                                                               &keys))
                               : NULL);
                json_t *ins = (row->adds[j].n
                               ? json_pack("[s s o]", c->name, "insert",
                                           ovsdb_datum_to_json(&row->adds[j],
                                                               &any))
                               : NULL);
                /* The server checks the column's size after each mutation.
                 * A map must delete first ("delete" then "insert" replaces
                 * a key's value).  A set whose adds and deletes are disjoint
                 * inserts first when it has a minimum size (a port's
                 * interfaces: replacing the only one must not pass through
                 * empty), else deletes first (never over a maximum). */
                bool insert_first = (!ovsdb_type_is_map(&c->type)
                                     && c->type.n_min > 0);
                json_t *first = insert_first ? ins : del;
                json_t *second = insert_first ? del : ins;
                if (first) {
                    json_array_append_new(mutations, first);
                }
                if (second) {
                    json_array_append_new(mutations, second);
                }
            }
            if (json_array_size(mutations)) {
                txn_add_op(txn, ops,
                           json_pack("{s:s, s:s, s:o, s:o}", "op", "mutate",
                                     "table", tc->name,
                                     "where", where_uuid(&row->uuid),
                                     "mutations", mutations),
                           OP_CHECK_COUNT, 0);
                any_updates = true;
            } else {
                json_decref(mutations);
            }
        }
    }
    free(rows);

    if (txn->inc_table) {
        txn_add_op(txn, ops,
                   json_pack("{s:s, s:s, s:o, s:[[s s i]]}", "op", "mutate",
                             "table", txn->inc_table->name,
                             "where", where_uuid(&txn->inc_row),
                             "mutations", txn->inc_column, "+=", 1),
                   OP_CHECK_COUNT, 0);
        txn_add_op(txn, ops,
                   json_pack("{s:s, s:s, s:o, s:[s]}", "op", "select",
                             "table", txn->inc_table->name,
                             "where", where_uuid(&txn->inc_row),
                             "columns", txn->inc_column),
                   OP_INC_SELECT, 0);
        if (any_updates || txn->inc_force) {
            any_updates = true;
        }
    }
    if (txn->comment.length) {
        txn_add_op(txn, ops, json_pack("{s:s, s:s}", "op", "comment",
                                       "comment", ds_cstr(&txn->comment)),
                   OP_PLAIN, 0);
    }
    if (txn->dry_run) {
        txn_add_op(txn, ops, json_pack("{s:s}", "op", "abort"), OP_PLAIN, 0);
    }
    substitute_uuids(txn, ops);
    return any_updates;
}

enum ovsdb_idl_txn_status
ovsdb_idl_txn_commit(struct ovsdb_idl_txn *txn)
{
    struct ovsdb_idl *idl = txn->idl;
    if (txn->status != TXN_UNCOMMITTED) {
        return txn->status;
    }
    COVERAGE_INC(txn_commit);
    if (idl->lock_name && !idl->has_lock) {
        txn->status = TXN_NOT_LOCKED;
        txn_disassemble(txn);
        return txn->status;
    }

    json_t *params = json_pack("[s]", idl->class_->database);
    if (!txn_compose(txn, params)) {
        json_decref(params);
        txn->status = TXN_UNCHANGED;
        txn_disassemble(txn);
        return txn->status;
    }

    struct jsonrpc_msg *request = jsonrpc_create_request("transact", params,
                                                         &txn->request_id);
    if (!jsonrpc_session_is_connected(idl->session)
        || idl->state != IDL_S_MONITORING
        || jsonrpc_session_send(idl->session, request)) {
        if (!jsonrpc_session_is_connected(idl->session)
            || idl->state != IDL_S_MONITORING) {
            jsonrpc_msg_destroy(request);
        }
        txn->status = TXN_TRY_AGAIN;
    } else {
        txn->status = TXN_INCOMPLETE;
        txn->outstanding = true;
        hmap_insert(&idl->outstanding_txns, &txn->hmap_node,
                    json_integer_value(txn->request_id));
    }
    txn_disassemble(txn);
    return txn->status;
}

void
ovsdb_idl_txn_wait(const struct ovsdb_idl_txn *txn)
{
    if (txn->status != TXN_INCOMPLETE) {
        poll_immediate_wake();
    }
}

enum ovsdb_idl_txn_status
ovsdb_idl_txn_commit_block(struct ovsdb_idl_txn *txn)
{
    enum ovsdb_idl_txn_status status;
    while ((status = ovsdb_idl_txn_commit(txn)) == TXN_INCOMPLETE) {
        ovsdb_idl_run(txn->idl);
        ovsdb_idl_wait(txn->idl);
        ovsdb_idl_txn_wait(txn);
        poll_block();
    }
    return status;
}

void
ovsdb_idl_txn_abort(struct ovsdb_idl_txn *txn)
{
    if (txn->status == TXN_UNCOMMITTED) {
        txn->status = TXN_ABORTED;
        txn_disassemble(txn);
    }
}

enum ovsdb_idl_txn_status
ovsdb_idl_txn_get_status(const struct ovsdb_idl_txn *txn)
{
    return txn->status;
}

static void
txn_forget(struct ovsdb_idl_txn *txn)
{
    if (txn->outstanding) {
        hmap_remove(&txn->idl->outstanding_txns, &txn->hmap_node);
        txn->outstanding = false;
    }
}

void
ovsdb_idl_txn_destroy(struct ovsdb_idl_txn *txn)
{
    if (!txn) {
        return;
    }
    txn_forget(txn);
    if (txn->idl->txn == txn) {
        txn_disassemble(txn);
    }
    json_decref(txn->request_id);
    free(txn->error);
    ds_destroy(&txn->comment);
    free(txn->inserts);
    free(txn->op_kinds);
    free(txn->op_args);
    hmap_destroy(&txn->txn_rows);
    free(txn);
}

void
ovsdb_idl_txn_abort_all(struct ovsdb_idl *idl)
{
    struct ovsdb_idl_txn *txn;
    HMAP_FOR_EACH_SAFE (txn, hmap_node, &idl->outstanding_txns) {
        txn_forget(txn);
        txn->status = TXN_TRY_AGAIN;
    }
}

/* Replies. */

static void
txn_set_error(struct ovsdb_idl_txn *txn, const json_t *error)
{
    if (!txn->error) {
        txn->error = json_dumps(error, JSON_COMPACT | JSON_SORT_KEYS
                                | JSON_ENCODE_ANY);
    }
}

const struct ovsdb_idl_txn *
ovsdb_idl_txn_process_reply(struct ovsdb_idl *idl,
                            const struct jsonrpc_msg *msg)
{
    struct ovsdb_idl_txn *txn;
    bool found = false;
    HMAP_FOR_EACH_WITH_HASH (txn, hmap_node, json_integer_value(msg->id),
                             &idl->outstanding_txns) {
        if (json_equal(txn->request_id, msg->id)) {
            found = true;
            break;
        }
    }
    if (!found) {
        return NULL;
    }
    txn_forget(txn);

    if (msg->type == JSONRPC_ERROR) {
        txn_set_error(txn, msg->error);
        txn->status = TXN_ERROR;
        return txn;
    }
    const json_t *results = msg->result;
    if (!json_is_array(results) || json_array_size(results) < txn->n_ops) {
        VLOG_WARN_RL(&rl, "reply to transact has %zu results for %zu "
                     "operations", json_array_size(results), txn->n_ops);
        txn_set_error(txn, results);
        txn->status = TXN_ERROR;
        return txn;
    }

    int hard = 0, soft = 0, lock = 0;
    for (size_t i = 0; i < json_array_size(results); i++) {
        const json_t *r = json_array_get(results, i);
        const json_t *error = json_object_get(r, "error");
        if (error) {
            const char *tag = json_string_value(error);
            if (tag && !strcmp(tag, "timed out")) {
                soft++;
            } else if (tag && !strcmp(tag, "not owner")) {
                lock++;
            } else if (tag && !strcmp(tag, "aborted") && txn->dry_run
                       && i + 1 == txn->n_ops) {
                /* Our own final "abort". */
            } else {
                hard++;
                txn_set_error(txn, r);
            }
            continue;
        }
        if (i >= txn->n_ops || json_is_null(r)) {
            continue;
        }
        switch (txn->op_kinds[i]) {
        case OP_PLAIN:
            break;
        case OP_CHECK_COUNT: {
            const json_t *count = json_object_get(r, "count");
            if (!json_is_integer(count) || json_integer_value(count) != 1) {
                soft++;         /* The row was deleted meanwhile. */
            }
            break;
        }
        case OP_INSERT: {
            const json_t *u = json_array_get(json_object_get(r, "uuid"), 1);
            struct txn_insert *ins = &txn->inserts[txn->op_args[i]];
            if (json_is_string(u)
                && uuid_from_string(&ins->real, json_string_value(u))) {
                ins->have_real = true;
            } else {
                hard++;
                txn_set_error(txn, r);
            }
            break;
        }
        case OP_INC_SELECT: {
            const json_t *rows = json_object_get(r, "rows");
            const json_t *value = json_object_get(json_array_get(rows, 0),
                                                  txn->inc_column);
            if (json_is_integer(value)) {
                txn->inc_new_value = json_integer_value(value);
            } else {
                soft++;
            }
            break;
        }
        }
    }
    txn->status = (hard ? TXN_ERROR : lock ? TXN_NOT_LOCKED
                   : soft ? TXN_TRY_AGAIN : TXN_SUCCESS);
    return txn;
}

const struct uuid *
ovsdb_idl_txn_get_insert_uuid(const struct ovsdb_idl_txn *txn,
                              const struct uuid *local)
{
    for (size_t i = 0; i < txn->n_inserts; i++) {
        const struct txn_insert *ins = &txn->inserts[i];
        if (uuid_equals(&ins->local, local)) {
            return ins->have_real ? &ins->real : NULL;
        }
    }
    return NULL;
}

int64_t
ovsdb_idl_txn_get_increment_new_value(const struct ovsdb_idl_txn *txn)
{
    return txn->inc_new_value;
}

const char *
ovsdb_idl_txn_get_error(const struct ovsdb_idl_txn *txn)
{
    if (txn->error) {
        return txn->error;
    }
    return ovsdb_idl_txn_status_to_string(txn->status);
}

/* The one-transaction-per-iteration loop helper. */

void
ovsdb_idl_loop_destroy(struct ovsdb_idl_loop *loop)
{
    if (loop) {
        ovsdb_idl_txn_destroy(loop->committing_txn);
        ovsdb_idl_txn_destroy(loop->open_txn);
        loop->committing_txn = loop->open_txn = NULL;
    }
}

static int
ovsdb_idl_loop_try_commit(struct ovsdb_idl_loop *loop)
{
    struct ovsdb_idl_txn *txn = loop->committing_txn;
    if (!txn) {
        return 1;
    }
    enum ovsdb_idl_txn_status status = ovsdb_idl_txn_commit(txn);
    int retval = 0;
    switch (status) {
    case TXN_INCOMPLETE:
        return 0;
    case TXN_TRY_AGAIN:
        /* Redo once the replica has moved past what we based it on. */
        loop->skip_seqno = loop->precommit_seqno;
        if (ovsdb_idl_get_seqno(loop->idl) != loop->skip_seqno) {
            poll_immediate_wake();
        }
        retval = -1;
        break;
    case TXN_SUCCESS:
        loop->cur_cfg = loop->next_cfg;
        /* The replica changed under our feet: look again. */
        poll_immediate_wake();
        retval = 1;
        break;
    case TXN_UNCHANGED:
        /* The database already is as NEXT_CFG wants it. */
        loop->cur_cfg = loop->next_cfg;
        retval = 1;
        break;
    case TXN_ABORTED:
    case TXN_NOT_LOCKED:
        retval = 1;
        break;
    case TXN_ERROR:
    case TXN_UNCOMMITTED:
        VLOG_ERR_RL(&rl, "transaction error: %s",
                    ovsdb_idl_txn_get_error(txn));
        retval = -1;
        break;
    }
    ovsdb_idl_txn_destroy(txn);
    loop->committing_txn = NULL;
    return retval;
}

struct ovsdb_idl_txn *
ovsdb_idl_loop_run(struct ovsdb_idl_loop *loop)
{
    ovsdb_idl_run(loop->idl);
    ovsdb_idl_loop_try_commit(loop);
    if (!loop->committing_txn && !loop->open_txn
        && ovsdb_idl_get_seqno(loop->idl) != loop->skip_seqno) {
        loop->open_txn = ovsdb_idl_txn_create(loop->idl);
    }
    return loop->open_txn;
}

int
ovsdb_idl_loop_commit_and_wait(struct ovsdb_idl_loop *loop)
{
    if (loop->open_txn) {
        loop->committing_txn = loop->open_txn;
        loop->open_txn = NULL;
        loop->precommit_seqno = ovsdb_idl_get_seqno(loop->idl);
    }
    int retval = ovsdb_idl_loop_try_commit(loop);
    ovsdb_idl_wait(loop->idl);
    return retval;
}
