#include <config.h>
#include "transaction.h"

#include <stdlib.h>
#include <string.h>

#include "bitmap.h"
#include "dynamic-string.h"
#include "hash.h"
#include "list.h"
#include "ovsdb.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "row.h"
#include "table.h"
#include "util.h"

/* How a transaction keeps track of its changes.
 *
 * Every row the transaction touches has one struct ovsdb_txn_row, found
 * through its table's struct ovsdb_txn_table (table->txn_table) by uuid,
 * and listed in the order the transaction first touched it (the order in
 * which commit checks report errors, as Open vSwitch does).
 *
 *   - insert: OLD is NULL, NEW the new row (in table->rows);
 *   - modify: OLD the committed row (out of table->rows), NEW a copy that
 *     took its place;
 *   - delete: OLD the committed row, NEW NULL.
 *
 * OLD keeps its place in the table's indexes until commit.  Both rows point
 * back at the txn_row (row->txn_row).  N_REFS is the number of strong
 * references the row will have after the commit; rows that only need their
 * reference count changed get a copy like any modified row, which keeps the
 * commit code uniform. */
struct ovsdb_txn_row {
    struct hmap_node hmap_node;         /* In txn_table->txn_rows. */
    struct ovs_list list_node;          /* In txn_table->row_list. */
    struct ovsdb_table *table;
    struct ovsdb_row *old;
    struct ovsdb_row *new;
    struct uuid uuid;
    size_t n_refs;

    /* Columns whose value changes: allocated when the commit checks start
     * (before that, ovsdb_txn_for_each_change() computes it). */
    unsigned long int *changed;
};

struct ovsdb_txn_table {
    struct ovs_list node;               /* In txn->txn_tables. */
    struct ovsdb_table *table;
    struct hmap txn_rows;               /* By uuid_hash(). */
    struct ovs_list row_list;           /* In order of first change. */
};

struct ovsdb_txn {
    struct ovsdb *db;
    struct ovs_list txn_tables;         /* In order of first change. */
    struct ds comment;
    struct uuid txnid;
    bool checked;                       /* Commit checks ran: each txn_row
                                         * has its CHANGED bitmap. */
};

struct ovsdb_txn *
ovsdb_txn_create(struct ovsdb *db)
{
    struct ovsdb_txn *txn = xzalloc(sizeof *txn);
    txn->db = db;
    ovs_list_init(&txn->txn_tables);
    ds_init(&txn->comment);
    uuid_generate(&txn->txnid);
    txn->checked = false;
    return txn;
}

struct ovsdb *
ovsdb_txn_get_db(const struct ovsdb_txn *txn)
{
    return txn->db;
}

const struct uuid *
ovsdb_txn_get_txnid(const struct ovsdb_txn *txn)
{
    return &txn->txnid;
}

void
ovsdb_txn_set_txnid(struct ovsdb_txn *txn, const struct uuid *txnid)
{
    txn->txnid = *txnid;
}

void
ovsdb_txn_add_comment(struct ovsdb_txn *txn, const char *comment)
{
    if (txn->comment.length) {
        ds_put_char(&txn->comment, '\n');
    }
    ds_put_cstr(&txn->comment, comment);
}

const char *
ovsdb_txn_get_comment(const struct ovsdb_txn *txn)
{
    return txn->comment.length ? ds_cstr_ro(&txn->comment) : NULL;
}

static size_t
n_columns(const struct ovsdb_table *table)
{
    return table->schema->n_columns;
}

static const struct ovsdb_column *
column_by_index(const struct ovsdb_table *table, size_t i)
{
    return table->schema->columns_by_index[i];
}

/* Bookkeeping of txn_tables and txn_rows. */

static struct ovsdb_txn_table *
txn_table_get(struct ovsdb_txn *txn, struct ovsdb_table *table)
{
    if (!table->txn_table) {
        struct ovsdb_txn_table *tt = xzalloc(sizeof *tt);
        tt->table = table;
        hmap_init(&tt->txn_rows);
        ovs_list_init(&tt->row_list);
        ovs_list_push_back(&txn->txn_tables, &tt->node);
        table->txn_table = tt;
    }
    return table->txn_table;
}

static struct ovsdb_txn_row *
txn_row_find(const struct ovsdb_table *table, const struct uuid *uuid)
{
    const struct ovsdb_txn_table *tt = table->txn_table;
    struct ovsdb_txn_row *tr;

    if (!tt) {
        return NULL;
    }
    HMAP_FOR_EACH_WITH_HASH (tr, hmap_node, uuid_hash(uuid), &tt->txn_rows) {
        if (uuid_equals(&tr->uuid, uuid)) {
            return tr;
        }
    }
    return NULL;
}

static struct ovsdb_txn_row *
txn_row_create(struct ovsdb_txn *txn, struct ovsdb_table *table,
               struct ovsdb_row *old, struct ovsdb_row *new)
{
    struct ovsdb_txn_table *tt = txn_table_get(txn, table);
    struct ovsdb_txn_row *tr = xzalloc(sizeof *tr);

    tr->table = table;
    tr->old = old;
    tr->new = new;
    tr->uuid = *ovsdb_row_get_uuid(old ? old : new);
    tr->n_refs = old ? old->n_refs : 0;
    if (txn->checked) {
        /* Made by the commit checks themselves (to adjust a reference
         * count or drop weak references): starts out unchanged. */
        tr->changed = bitmap_allocate(n_columns(table));
    }
    hmap_insert(&tt->txn_rows, &tr->hmap_node, uuid_hash(&tr->uuid));
    ovs_list_push_back(&tt->row_list, &tr->list_node);
    if (old) {
        old->txn_row = tr;
    }
    if (new) {
        new->txn_row = tr;
    }
    return tr;
}

static void
txn_row_free(struct ovsdb_txn_row *tr)
{
    struct ovsdb_txn_table *tt = tr->table->txn_table;
    hmap_remove(&tt->txn_rows, &tr->hmap_node);
    ovs_list_remove(&tr->list_node);
    bitmap_free(tr->changed);
    free(tr);
}

/* Puts TR's rows back as they were before the transaction and frees TR. */
static void
txn_row_undo(struct ovsdb_txn_row *tr)
{
    struct hmap *rows = &tr->table->rows;

    if (tr->new) {
        if (tr->old) {
            hmap_replace(rows, &tr->new->hmap_node, &tr->old->hmap_node);
        } else {
            hmap_remove(rows, &tr->new->hmap_node);
        }
        tr->new->txn_row = NULL;
        ovsdb_row_destroy(tr->new);
    } else if (tr->old) {
        hmap_insert(rows, &tr->old->hmap_node, uuid_hash(&tr->uuid));
    }
    if (tr->old) {
        tr->old->txn_row = NULL;
    }
    txn_row_free(tr);
}

/* Frees TXN's txn_tables (whose rows must be gone) and TXN. */
static void
txn_free(struct ovsdb_txn *txn)
{
    struct ovsdb_txn_table *tt;

    LIST_FOR_EACH_POP (tt, node, &txn->txn_tables) {
        ovs_assert(ovs_list_is_empty(&tt->row_list));
        hmap_destroy(&tt->txn_rows);
        tt->table->txn_table = NULL;
        free(tt);
    }
    ds_destroy(&txn->comment);
    free(txn);
}

void
ovsdb_txn_abort(struct ovsdb_txn *txn)
{
    struct ovsdb_txn_table *tt;

    LIST_FOR_EACH (tt, node, &txn->txn_tables) {
        struct ovsdb_txn_row *tr;
        LIST_FOR_EACH_SAFE (tr, list_node, &tt->row_list) {
            txn_row_undo(tr);
        }
    }
    txn_free(txn);
}

/* Changing rows. */

struct ovsdb_row *
ovsdb_txn_row_modify(struct ovsdb_txn *txn, const struct ovsdb_row *ro_row)
{
    struct ovsdb_row *row = (struct ovsdb_row *) ro_row;

    if (row->txn_row) {
        ovs_assert(row->txn_row->new == row);
        return row;
    }

    struct ovsdb_row *copy = ovsdb_row_clone(row);
    copy->n_refs = row->n_refs;
    hmap_replace(&row->table->rows, &row->hmap_node, &copy->hmap_node);
    txn_row_create(txn, row->table, row, copy);
    return copy;
}

void
ovsdb_txn_row_insert(struct ovsdb_txn *txn, struct ovsdb_row *row)
{
    struct ovsdb_table *table = row->table;
    const struct uuid *uuid = ovsdb_row_get_uuid(row);
    struct ovsdb_txn_row *tr = txn_row_find(table, uuid);

    ovs_assert(!ovsdb_table_get_row(table, uuid));
    uuid_generate(ovsdb_row_get_version_rw(row));
    if (tr) {
        /* The row was deleted earlier in this transaction, so inserting it
         * again amounts to modifying it. */
        ovs_assert(!tr->new);
        tr->new = row;
        row->txn_row = tr;
        row->n_refs = tr->n_refs;
    } else {
        txn_row_create(txn, table, NULL, row);
    }
    hmap_insert(&table->rows, &row->hmap_node, uuid_hash(uuid));
}

void
ovsdb_txn_row_delete(struct ovsdb_txn *txn, const struct ovsdb_row *ro_row)
{
    struct ovsdb_row *row = (struct ovsdb_row *) ro_row;
    struct ovsdb_txn_row *tr = row->txn_row;

    hmap_remove(&row->table->rows, &row->hmap_node);
    if (!tr) {
        txn_row_create(txn, row->table, row, NULL);
    } else {
        ovs_assert(tr->new == row);
        tr->new = NULL;
        row->txn_row = NULL;
        ovsdb_row_destroy(row);
        if (!tr->old) {
            txn_row_free(tr);
        }
    }
}

bool
ovsdb_txn_row_is_inserted(const struct ovsdb_txn *txn OVS_UNUSED,
                          const struct ovsdb_row *row)
{
    return row->txn_row && !row->txn_row->old && row->txn_row->new == row;
}

bool
ovsdb_txn_may_create_row(const struct ovsdb_table *table,
                         const struct uuid *uuid)
{
    return !ovsdb_table_get_row(table, uuid) && !txn_row_find(table, uuid);
}

void
ovsdb_txn_table_for_each_row(const struct ovsdb_table *table,
                             bool (*cb)(const struct ovsdb_row *, void *),
                             void *aux)
{
    const struct ovsdb_txn_table *tt = table->txn_table;
    const struct ovsdb_txn_row *tr;

    if (tt) {
        LIST_FOR_EACH (tr, list_node, &tt->row_list) {
            if (tr->new && !cb(tr->new, aux)) {
                return;
            }
        }
    }
}

/* Which columns differ between OLD and NEW (every column if either is
 * NULL); stores the result in CHANGED and returns true if any does. */
static bool
compute_changes(const struct ovsdb_table *table, const struct ovsdb_row *old,
                const struct ovsdb_row *new, unsigned long int *changed)
{
    size_t n = n_columns(table);
    bool any = false;

    for (size_t i = 0; i < n; i++) {
        if (!old || !new
            || !ovsdb_datum_equals(&old->fields[i], &new->fields[i],
                                   &column_by_index(table, i)->type)) {
            bitmap_set1(changed, i);
            any = true;
        } else {
            bitmap_set0(changed, i);
        }
    }
    return any;
}

static bool
txn_row_is_dead(const struct ovsdb_txn_row *tr)
{
    return !tr->old && !tr->new;
}

bool
ovsdb_txn_is_empty(const struct ovsdb_txn *txn)
{
    const struct ovsdb_txn_table *tt;

    LIST_FOR_EACH (tt, node, &txn->txn_tables) {
        const struct ovsdb_txn_row *tr;
        LIST_FOR_EACH (tr, list_node, &tt->row_list) {
            if (txn_row_is_dead(tr)) {
                continue;
            }
            if (txn->checked) {
                if (!bitmap_is_all_zeros(tr->changed,
                                         n_columns(tr->table))) {
                    return false;
                }
            } else if (!tr->old || !tr->new) {
                return false;
            } else {
                unsigned long int *changed
                    = bitmap_allocate(n_columns(tr->table));
                bool any = compute_changes(tr->table, tr->old, tr->new,
                                           changed);
                bitmap_free(changed);
                if (any) {
                    return false;
                }
            }
        }
    }
    return true;
}

void
ovsdb_txn_for_each_change(const struct ovsdb_txn *txn,
                          ovsdb_txn_row_cb_func *cb, void *aux)
{
    const struct ovsdb_txn_table *tt;

    LIST_FOR_EACH (tt, node, &txn->txn_tables) {
        size_t n = n_columns(tt->table);
        unsigned long int *scratch = txn->checked ? NULL : bitmap_allocate(n);
        const struct ovsdb_txn_row *tr;

        LIST_FOR_EACH (tr, list_node, &tt->row_list) {
            const unsigned long int *changed;
            if (txn_row_is_dead(tr)) {
                continue;
            } else if (txn->checked) {
                if (bitmap_is_all_zeros(tr->changed, n)) {
                    continue;
                }
                changed = tr->changed;
            } else {
                if (!compute_changes(tt->table, tr->old, tr->new, scratch)) {
                    continue;
                }
                changed = scratch;
            }
            if (!cb(tr->old, tr->new, changed, aux)) {
                bitmap_free(scratch);
                return;
            }
        }
        bitmap_free(scratch);
    }
}

/* Calls FUNC for every txn_row, including those that FUNC or earlier calls
 * add while this runs (they go at the end of their lists), and stops at
 * the first error. */
static struct ovsdb_error *
for_each_txn_row(struct ovsdb_txn *txn,
                 struct ovsdb_error *(*func)(struct ovsdb_txn *,
                                             struct ovsdb_txn_row *))
{
    struct ovsdb_txn_table *tt;

    LIST_FOR_EACH (tt, node, &txn->txn_tables) {
        struct ovsdb_txn_row *tr;
        LIST_FOR_EACH (tr, list_node, &tt->row_list) {
            if (!txn_row_is_dead(tr)) {
                struct ovsdb_error *error = func(txn, tr);
                if (error) {
                    return error;
                }
            }
        }
    }
    return NULL;
}

/* Commit step 1: find what actually changed.  Rows modified without a
 * change go back to their committed versions, so that the rest of the
 * commit (and observers) never see them.  Returns true if anything is left
 * to commit. */
static bool
determine_changes(struct ovsdb_txn *txn)
{
    bool any = false;
    struct ovsdb_txn_table *tt;

    LIST_FOR_EACH (tt, node, &txn->txn_tables) {
        size_t n = n_columns(tt->table);
        struct ovsdb_txn_row *tr;

        LIST_FOR_EACH_SAFE (tr, list_node, &tt->row_list) {
            tr->changed = bitmap_allocate(n);
            if (compute_changes(tt->table, tr->old, tr->new, tr->changed)) {
                any = true;
            } else {
                txn_row_undo(tr);
            }
        }
    }
    txn->checked = true;
    return any;
}

/* Reference counting. */

static bool
column_has_strong_refs(const struct ovsdb_column *column)
{
    return (ovsdb_base_type_is_strong_ref(&column->type.key)
            || ovsdb_base_type_is_strong_ref(&column->type.value));
}

static bool
column_has_weak_refs(const struct ovsdb_column *column)
{
    return (ovsdb_base_type_is_weak_ref(&column->type.key)
            || ovsdb_base_type_is_weak_ref(&column->type.value));
}

/* The table that the references in BASE point to. */
static struct ovsdb_table *
ref_table(const struct ovsdb_txn *txn, const struct ovsdb_base_type *base)
{
    return ovsdb_get_table(txn->db, base->u.uuid.refTableName);
}

/* The txn_row for the row UUID of TABLE, making one (a copy of the row) if
 * the row exists but the transaction has not touched it.  NULL if there is
 * no such row, before or after the transaction. */
static struct ovsdb_txn_row *
find_or_make_txn_row(struct ovsdb_txn *txn, struct ovsdb_table *table,
                     const struct uuid *uuid)
{
    struct ovsdb_txn_row *tr = txn_row_find(table, uuid);
    if (!tr) {
        const struct ovsdb_row *row = ovsdb_table_get_row(table, uuid);
        if (row) {
            tr = ovsdb_txn_row_modify(txn, row)->txn_row;
        }
    }
    return tr;
}

/* Adds DELTA to the reference counts of the rows that the strong references
 * in ATOMS[0..N-1] (of base type BASE, in column COLUMN of the row that TR
 * is about) point to. */
static struct ovsdb_error *
adjust_atom_refs(struct ovsdb_txn *txn, const struct ovsdb_txn_row *tr,
                 const struct ovsdb_column *column,
                 const struct ovsdb_base_type *base,
                 const union ovsdb_atom *atoms, unsigned int n, int delta)
{
    if (!ovsdb_base_type_is_strong_ref(base)) {
        return NULL;
    }

    struct ovsdb_table *table = ref_table(txn, base);
    for (unsigned int i = 0; i < n; i++) {
        const struct uuid *uuid = &atoms[i].uuid;
        if (uuid_equals(uuid, &tr->uuid)) {
            /* A row's references to itself do not keep it alive. */
            continue;
        }

        struct ovsdb_txn_row *target = (table
                                        ? find_or_make_txn_row(txn, table,
                                                               uuid)
                                        : NULL);
        if (delta > 0) {
            if (!target || !target->new) {
                return ovsdb_error("referential integrity violation",
                                   "Table %s column %s row "UUID_FMT" "
                                   "references nonexistent row "UUID_FMT" "
                                   "in table %s.",
                                   tr->table->schema->name, column->name,
                                   UUID_ARGS(&tr->uuid), UUID_ARGS(uuid),
                                   base->u.uuid.refTableName);
            }
            target->n_refs++;
        } else {
            if (!target || !target->n_refs) {
                return ovsdb_internal_error(NULL, "row "UUID_FMT" lost a "
                                            "reference it did not have",
                                            UUID_ARGS(uuid));
            }
            target->n_refs--;
        }
    }
    return NULL;
}

static struct ovsdb_error *
adjust_datum_refs(struct ovsdb_txn *txn, const struct ovsdb_txn_row *tr,
                  const struct ovsdb_column *column,
                  const struct ovsdb_datum *datum, int delta)
{
    struct ovsdb_error *error;

    error = adjust_atom_refs(txn, tr, column, &column->type.key,
                             datum->keys, datum->n, delta);
    if (!error && datum->values) {
        error = adjust_atom_refs(txn, tr, column, &column->type.value,
                                 datum->values, datum->n, delta);
    }
    return error;
}

static struct ovsdb_error *
update_row_ref_counts(struct ovsdb_txn *txn, struct ovsdb_txn_row *tr)
{
    const struct ovsdb_table *table = tr->table;

    for (size_t i = 0; i < n_columns(table); i++) {
        const struct ovsdb_column *column = column_by_index(table, i);
        if (!column_has_strong_refs(column)
            || !bitmap_is_set(tr->changed, i)) {
            continue;
        }

        struct ovsdb_error *error = NULL;
        if (tr->old) {
            error = adjust_datum_refs(txn, tr, column, &tr->old->fields[i],
                                      -1);
        }
        if (!error && tr->new) {
            error = adjust_datum_refs(txn, tr, column, &tr->new->fields[i],
                                      1);
        }
        if (error) {
            return error;
        }
    }
    return NULL;
}

static struct ovsdb_error *
check_ref_count(struct ovsdb_txn *txn OVS_UNUSED, struct ovsdb_txn_row *tr)
{
    if (tr->new || !tr->n_refs) {
        return NULL;
    }
    return ovsdb_error("referential integrity violation",
                       "cannot delete %s row "UUID_FMT" because of %zu "
                       "remaining reference(s)",
                       tr->table->schema->name, UUID_ARGS(&tr->uuid),
                       tr->n_refs);
}

/* Garbage collection: rows of non-root tables that nothing references any
 * more.  Only rows the transaction touched can have become garbage (their
 * reference counts are the only ones that changed), so only those are
 * examined, like Open vSwitch does: rows that only reference each other in
 * a cycle keep each other alive, and unreferenced rows left over from
 * before are left alone until some transaction touches them. */

struct gc_queue {
    struct ovsdb_txn_row **rows;
    size_t n, allocated, next;
};

static void
gc_queue_push(struct gc_queue *q, struct ovsdb_txn_row *tr)
{
    if (q->n >= q->allocated) {
        q->rows = x2nrealloc(q->rows, &q->allocated, sizeof *q->rows);
    }
    q->rows[q->n++] = tr;
}

static bool
is_garbage(const struct ovsdb_txn_row *tr)
{
    return tr->new && !tr->n_refs && !tr->table->schema->is_root;
}

static struct ovsdb_error *
release_atom_refs(struct ovsdb_txn *txn, const struct ovsdb_txn_row *tr,
                  const struct ovsdb_base_type *base,
                  const union ovsdb_atom *atoms, unsigned int n,
                  struct gc_queue *q)
{
    if (!ovsdb_base_type_is_strong_ref(base)) {
        return NULL;
    }

    struct ovsdb_table *table = ref_table(txn, base);
    for (unsigned int i = 0; i < n; i++) {
        const struct uuid *uuid = &atoms[i].uuid;
        if (uuid_equals(uuid, &tr->uuid)) {
            continue;
        }
        struct ovsdb_txn_row *target = (table
                                        ? find_or_make_txn_row(txn, table,
                                                               uuid)
                                        : NULL);
        if (!target || !target->n_refs) {
            return ovsdb_internal_error(NULL, "garbage row "UUID_FMT" "
                                        "references row "UUID_FMT" that "
                                        "does not count it",
                                        UUID_ARGS(&tr->uuid),
                                        UUID_ARGS(uuid));
        }
        if (!--target->n_refs && is_garbage(target)) {
            gc_queue_push(q, target);
        }
    }
    return NULL;
}

static struct ovsdb_error *
delete_garbage_row(struct ovsdb_txn *txn, struct ovsdb_txn_row *tr,
                   struct gc_queue *q)
{
    struct ovsdb_row *row = tr->new;
    const struct ovsdb_table *table = tr->table;

    hmap_remove(&tr->table->rows, &row->hmap_node);
    tr->new = NULL;
    for (size_t i = 0; i < n_columns(table); i++) {
        bitmap_set1(tr->changed, i);
    }

    struct ovsdb_error *error = NULL;
    for (size_t i = 0; !error && i < n_columns(table); i++) {
        const struct ovsdb_column *column = column_by_index(table, i);
        const struct ovsdb_datum *datum = &row->fields[i];
        if (column_has_strong_refs(column)) {
            error = release_atom_refs(txn, tr, &column->type.key,
                                      datum->keys, datum->n, q);
            if (!error && datum->values) {
                error = release_atom_refs(txn, tr, &column->type.value,
                                          datum->values, datum->n, q);
            }
        }
    }
    row->txn_row = NULL;
    ovsdb_row_destroy(row);
    return error;
}

static struct ovsdb_error *
collect_garbage(struct ovsdb_txn *txn)
{
    struct gc_queue q = { NULL, 0, 0, 0 };
    struct ovsdb_txn_table *tt;
    struct ovsdb_error *error = NULL;

    LIST_FOR_EACH (tt, node, &txn->txn_tables) {
        struct ovsdb_txn_row *tr;
        LIST_FOR_EACH (tr, list_node, &tt->row_list) {
            if (is_garbage(tr)) {
                gc_queue_push(&q, tr);
            }
        }
    }
    while (!error && q.next < q.n) {
        struct ovsdb_txn_row *tr = q.rows[q.next++];
        if (is_garbage(tr)) {
            error = delete_garbage_row(txn, tr, &q);
        }
    }
    free(q.rows);
    return error;
}

static struct ovsdb_error *
check_max_rows(struct ovsdb_txn *txn)
{
    const struct ovsdb_txn_table *tt;

    LIST_FOR_EACH (tt, node, &txn->txn_tables) {
        const struct ovsdb_table *table = tt->table;
        size_t n_rows = hmap_count(&table->rows);
        unsigned int max_rows = table->schema->max_rows;

        if (n_rows > max_rows) {
            return ovsdb_error("constraint violation",
                               "transaction causes \"%s\" table to contain "
                               "%zu rows, greater than the schema-defined "
                               "limit of %u row(s)",
                               table->schema->name, n_rows, max_rows);
        }
    }
    return NULL;
}

/* Weak references. */

/* Brings into the transaction every row with a weak reference to a row
 * that TR deletes, so that assess_weak_refs() drops those references. */
static struct ovsdb_error *
touch_weak_referrers(struct ovsdb_txn *txn, struct ovsdb_txn_row *tr)
{
    if (tr->old && !tr->new) {
        struct ovsdb_weak_ref *weak;
        LIST_FOR_EACH (weak, dst_node, &tr->old->src_refs) {
            if (!weak->src->txn_row) {
                ovsdb_txn_row_modify(txn, weak->src);
            }
        }
    }
    return NULL;
}

/* Removes from DATUM (of TYPE) every element whose weak reference in the
 * key or the value points to a row that does not exist after the
 * transaction.  Sets *ZERO if one of them was the all-zeros uuid.  Returns
 * the number of elements removed. */
static unsigned int
remove_dangling_weak_refs(const struct ovsdb_txn *txn,
                          struct ovsdb_datum *datum,
                          const struct ovsdb_type *type, bool *zero)
{
    const struct ovsdb_base_type *bases[2] = { &type->key, &type->value };
    union ovsdb_atom *arrays[2] = { datum->keys, datum->values };
    const struct ovsdb_table *tables[2] = { NULL, NULL };
    unsigned int n_kept = 0;

    for (int b = 0; b < 2; b++) {
        if (arrays[b] && ovsdb_base_type_is_weak_ref(bases[b])) {
            tables[b] = ref_table(txn, bases[b]);
        }
    }

    for (unsigned int i = 0; i < datum->n; i++) {
        bool keep = true;
        for (int b = 0; b < 2 && keep; b++) {
            if (arrays[b] && ovsdb_base_type_is_weak_ref(bases[b])) {
                const struct uuid *uuid = &arrays[b][i].uuid;
                if (!tables[b] || !ovsdb_table_get_row(tables[b], uuid)) {
                    keep = false;
                    if (uuid_is_zero(uuid)) {
                        *zero = true;
                    }
                }
            }
        }

        if (keep) {
            if (n_kept != i) {
                ovsdb_atom_swap(&datum->keys[n_kept], &datum->keys[i]);
                if (datum->values) {
                    ovsdb_atom_swap(&datum->values[n_kept],
                                    &datum->values[i]);
                }
            }
            n_kept++;
        }
    }

    /* What was dropped now sits past N_KEPT. */
    unsigned int n_removed = datum->n - n_kept;
    for (unsigned int i = n_kept; i < datum->n; i++) {
        ovsdb_atom_destroy(&datum->keys[i], type->key.type);
        if (datum->values) {
            ovsdb_atom_destroy(&datum->values[i], type->value.type);
        }
    }
    datum->n = n_kept;
    return n_removed;
}

static struct ovsdb_error *
assess_weak_refs(struct ovsdb_txn *txn, struct ovsdb_txn_row *tr)
{
    const struct ovsdb_table *table = tr->table;

    if (!tr->new) {
        return NULL;
    }

    for (size_t i = 0; i < n_columns(table); i++) {
        const struct ovsdb_column *column = column_by_index(table, i);
        if (!column_has_weak_refs(column)) {
            continue;
        }

        struct ovsdb_datum *datum = &tr->new->fields[i];
        bool zero = false;
        unsigned int n_removed = remove_dangling_weak_refs(
            txn, datum, &column->type, &zero);
        if (!n_removed) {
            continue;
        }

        bitmap_set1(tr->changed, i);
        if (datum->n < column->type.n_min) {
            if (zero && !tr->old) {
                return ovsdb_error(
                    "constraint violation",
                    "Weak reference column \"%s\" in \"%s\" row "UUID_FMT" "
                    "(inserted within this transaction) contained all-zeros "
                    "UUID (probably as the default value for this column) "
                    "but deleting this value caused a constraint volation "
                    "because this column is not allowed to be empty.",
                    column->name, table->schema->name,
                    UUID_ARGS(&tr->uuid));
            }
            return ovsdb_error(
                "constraint violation",
                "Deletion of %u weak reference(s) to deleted (or "
                "never-existing) rows from column \"%s\" in \"%s\" row "
                UUID_FMT" %scaused this column to become empty, but "
                "constraints on this column disallow an empty column.",
                n_removed, column->name, table->schema->name,
                UUID_ARGS(&tr->uuid),
                tr->old ? "" : "(inserted within this transaction) ");
        }
    }
    return NULL;
}

/* Each changed column must still hold a number of elements its type
 * allows.  The executor checks what clients send; this catches rows built
 * by other code. */
static struct ovsdb_error *
check_sizes(struct ovsdb_txn *txn OVS_UNUSED, struct ovsdb_txn_row *tr)
{
    const struct ovsdb_table *table = tr->table;

    if (!tr->new) {
        return NULL;
    }
    for (size_t i = 0; i < n_columns(table); i++) {
        const struct ovsdb_column *column = column_by_index(table, i);
        const struct ovsdb_datum *datum = &tr->new->fields[i];
        if (bitmap_is_set(tr->changed, i)
            && (datum->n < column->type.n_min
                || datum->n > column->type.n_max)) {
            char *type = ovsdb_type_to_english(&column->type);
            struct ovsdb_error *error = ovsdb_error(
                "constraint violation",
                "Attempted to store %u elements in %s.", datum->n, type);
            free(type);
            return error;
        }
    }
    return NULL;
}

/* Index uniqueness. */

/* English list punctuation: "a", "a and b", "a, b, and c". */
static const char *
list_delimiter(size_t index, size_t total)
{
    return (index == 0 ? ""
            : index < total - 1 ? ", "
            : total > 2 ? ", and "
            : " and ");
}

static void
put_index_values(struct ds *out, const struct ovsdb_row *row,
                 const struct ovsdb_column_set *index)
{
    for (size_t i = 0; i < index->n_columns; i++) {
        const struct ovsdb_column *column = index->columns[i];
        ds_put_cstr(out, list_delimiter(i, index->n_columns));
        ovsdb_datum_to_string(&row->fields[column->index], &column->type,
                              out);
    }
}

static void
describe_index_row(struct ds *out, const char *title,
                   const struct ovsdb_row *row,
                   const struct ovsdb_column_set *index)
{
    const struct ovsdb_txn_row *tr = row->txn_row;

    ds_put_format(out, "%s row, with UUID "UUID_FMT", ", title,
                  UUID_ARGS(ovsdb_row_get_uuid(row)));
    if (!tr) {
        ds_put_cstr(out, "existed in the database before this transaction "
                    "and was not modified by the transaction.");
    } else if (!tr->old) {
        ds_put_cstr(out, "was inserted by this transaction.");
    } else if (ovsdb_row_equal_columns(tr->old, tr->new, index)) {
        ds_put_cstr(out, "existed in the database before this transaction, "
                    "which modified some of the row's columns but not any "
                    "columns in this index.");
    } else {
        ds_put_cstr(out, "had the following index values before the "
                    "transaction: ");
        put_index_values(out, tr->old, index);
        ds_put_char(out, '.');
    }
}

/* Compares rows A and B of TABLE by their own columns in index order, then
 * by UUID. */
static int
compare_rows_3way(const struct ovsdb_table *table, const struct ovsdb_row *a,
                  const struct ovsdb_row *b)
{
    size_t n = n_columns(table);
    for (size_t i = OVSDB_N_STD_COLUMNS; i < n; i++) {
        const struct ovsdb_column *column
            = table->schema->columns_by_index[i];
        int cmp = ovsdb_datum_compare_3way(&a->fields[i], &b->fields[i],
                                           &column->type);
        if (cmp) {
            return cmp;
        }
    }
    return uuid_compare_3way(ovsdb_row_get_uuid(a), ovsdb_row_get_uuid(b));
}

static struct ovsdb_error *
duplicate_index_error(const struct ovsdb_table *table,
                      const struct ovsdb_column_set *index,
                      const struct ovsdb_row *first,
                      const struct ovsdb_row *second)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    /* Which row the message names first does not depend on the order the
     * transaction touched them: the greater row, by contents, comes first,
     * as with Open vSwitch, so the same conflict always reads the same. */
    if (compare_rows_3way(table, first, second) < 0) {
        const struct ovsdb_row *tmp = first;
        first = second;
        second = tmp;
    }

    ds_put_format(&s, "Transaction causes multiple rows in \"%s\" table to "
                  "have identical values (", table->schema->name);
    put_index_values(&s, first, index);
    ds_put_format(&s, ") for index on column%s ",
                  index->n_columns > 1 ? "s" : "");
    for (size_t i = 0; i < index->n_columns; i++) {
        ds_put_format(&s, "%s\"%s\"", list_delimiter(i, index->n_columns),
                      index->columns[i]->name);
    }
    ds_put_cstr(&s, ".  ");
    describe_index_row(&s, "First", first, index);
    ds_put_cstr(&s, "  ");
    describe_index_row(&s, "Second", second, index);

    struct ovsdb_error *error = ovsdb_error("constraint violation", "%s",
                                            ds_cstr(&s));
    ds_destroy(&s);
    return error;
}

/* Finds in INDEX_MAP (whose nodes are node number I of rows of TABLE) a row
 * other than ROW whose index columns equal ROW's. */
static const struct ovsdb_row *
index_search(const struct ovsdb_table *table, const struct hmap *index_map,
             size_t i, const struct ovsdb_row *row, uint32_t hash)
{
    const struct ovsdb_column_set *index = &table->schema->indexes[i];
    const struct hmap_node *node;

    for (node = hmap_first_with_hash(index_map, hash); node;
         node = hmap_next_with_hash(node)) {
        const struct ovsdb_row *irow = ovsdb_row_from_index_node(
            node, n_columns(table), i);
        if (irow != row && ovsdb_row_equal_columns(irow, row, index)) {
            return irow;
        }
    }
    return NULL;
}

static struct ovsdb_error *
check_index_uniqueness(struct ovsdb_txn *txn)
{
    struct ovsdb_txn_table *tt;

    LIST_FOR_EACH (tt, node, &txn->txn_tables) {
        const struct ovsdb_table *table = tt->table;
        size_t n_indexes = table->schema->n_indexes;

        for (size_t i = 0; i < n_indexes; i++) {
            const struct ovsdb_column_set *index = &table->schema->indexes[i];
            struct ovsdb_error *error = NULL;
            struct hmap txn_index = HMAP_INITIALIZER(&txn_index);
            struct ovsdb_txn_row *tr;

            /* The new rows of the transaction go into TXN_INDEX (borrowing
             * their index nodes, which are free until commit); committed
             * rows that the transaction did not touch are in the table's
             * index. */
            LIST_FOR_EACH (tr, list_node, &tt->row_list) {
                const struct ovsdb_row *row = tr->new;
                if (!row) {
                    continue;
                }

                uint32_t hash = ovsdb_row_hash_columns(row, index, 0);
                const struct ovsdb_row *irow
                    = index_search(table, &txn_index, i, row, hash);
                if (irow) {
                    error = duplicate_index_error(table, index, irow, row);
                    break;
                }
                irow = index_search(table, &table->indexes[i], i, row, hash);
                if (irow && !irow->txn_row) {
                    error = duplicate_index_error(table, index, irow, row);
                    break;
                }
                hmap_insert(&txn_index, &tr->new->index_nodes[i], hash);
            }
            hmap_destroy(&txn_index);
            if (error) {
                return error;
            }
        }
    }
    return NULL;
}

static struct ovsdb_error *
update_version(struct ovsdb_txn *txn OVS_UNUSED, struct ovsdb_txn_row *tr)
{
    if (tr->old && tr->new
        && !bitmap_is_all_zeros(tr->changed, n_columns(tr->table))) {
        uuid_generate(ovsdb_row_get_version_rw(tr->new));
        bitmap_set1(tr->changed, OVSDB_COL_VERSION);
    }
    return NULL;
}

/* Runs every check of a commit, in the order Open vSwitch runs them (which
 * decides which error a client sees when there are several).  Sets *EMPTY
 * if nothing changes. */
static struct ovsdb_error *
precommit(struct ovsdb_txn *txn, bool *empty)
{
    struct ovsdb_error *error;

    *empty = !determine_changes(txn);
    if (*empty) {
        return NULL;
    }

    error = for_each_txn_row(txn, update_row_ref_counts);
    if (!error) {
        error = for_each_txn_row(txn, check_ref_count);
    }
    if (!error) {
        error = collect_garbage(txn);
    }
    if (!error) {
        error = check_max_rows(txn);
    }
    if (!error) {
        error = for_each_txn_row(txn, touch_weak_referrers);
    }
    if (!error) {
        error = for_each_txn_row(txn, assess_weak_refs);
    }
    if (!error) {
        error = for_each_txn_row(txn, check_sizes);
    }
    if (!error) {
        error = check_index_uniqueness(txn);
    }
    if (!error) {
        error = for_each_txn_row(txn, update_version);
    }
    return error;
}

struct ovsdb_error *
ovsdb_txn_precommit(struct ovsdb_txn *txn, bool *empty)
{
    return precommit(txn, empty);
}

/* Making the changes permanent. */

static void
add_weak_refs(struct ovsdb_txn *txn, struct ovsdb_row *row,
              const struct ovsdb_column *column,
              const struct ovsdb_base_type *base,
              const union ovsdb_atom *atoms, unsigned int n)
{
    if (!ovsdb_base_type_is_weak_ref(base)) {
        return;
    }

    struct ovsdb_table *table = ref_table(txn, base);
    for (unsigned int i = 0; i < n; i++) {
        struct ovsdb_row *dst = (table
                                 ? (struct ovsdb_row *)
                                   ovsdb_table_get_row(table, &atoms[i].uuid)
                                 : NULL);
        /* A row's weak references to itself need no bookkeeping: they go
         * away with the row.  (Open vSwitch does not count them either.) */
        if (dst && dst != row) {
            struct ovsdb_weak_ref *weak = xmalloc(sizeof *weak);
            weak->src = row;
            weak->dst_table = table;
            weak->dst = atoms[i].uuid;
            weak->column_index = column->index;
            ovs_list_push_back(&row->dst_refs, &weak->src_node);
            ovs_list_push_back(&dst->src_refs, &weak->dst_node);
            txn->db->n_weak_refs++;
        }
    }
}

static void
complete(struct ovsdb_txn *txn)
{
    struct ovsdb *db = txn->db;
    struct ovsdb_txn_table *tt;
    struct ovsdb_txn_row *tr;

    /* Old rows leave the indexes and drop their weak references. */
    LIST_FOR_EACH (tt, node, &txn->txn_tables) {
        LIST_FOR_EACH (tr, list_node, &tt->row_list) {
            struct ovsdb_row *old = tr->old;
            if (old) {
                for (size_t i = 0; i < tt->table->schema->n_indexes; i++) {
                    hmap_remove(&tt->table->indexes[i], &old->index_nodes[i]);
                }

                struct ovsdb_weak_ref *weak;
                LIST_FOR_EACH_POP (weak, src_node, &old->dst_refs) {
                    ovs_list_remove(&weak->dst_node);
                    free(weak);
                    db->n_weak_refs--;
                }
                db->n_atoms -= ovsdb_row_count_atoms(old);
            }
        }
    }

    /* Weak references to a row now point to its new version.  A deleted
     * row has none left: every row that pointed to it was brought into the
     * transaction and lost that reference. */
    LIST_FOR_EACH (tt, node, &txn->txn_tables) {
        LIST_FOR_EACH (tr, list_node, &tt->row_list) {
            if (tr->old && tr->new) {
                ovs_list_push_back_all(&tr->new->src_refs,
                                       &tr->old->src_refs);
            } else if (tr->old) {
                db->n_weak_refs -= ovsdb_row_free_weak_refs(tr->old);
            }
        }
    }

    /* New rows enter the indexes and get their weak references. */
    LIST_FOR_EACH (tt, node, &txn->txn_tables) {
        const struct ovsdb_table *table = tt->table;
        LIST_FOR_EACH (tr, list_node, &tt->row_list) {
            struct ovsdb_row *new = tr->new;
            if (!new) {
                continue;
            }

            for (size_t i = 0; i < table->schema->n_indexes; i++) {
                uint32_t hash = ovsdb_row_hash_columns(
                    new, &table->schema->indexes[i], 0);
                hmap_insert(&tt->table->indexes[i], &new->index_nodes[i],
                            hash);
            }
            for (size_t i = 0; i < n_columns(table); i++) {
                const struct ovsdb_column *column = column_by_index(table, i);
                const struct ovsdb_datum *datum = &new->fields[i];
                if (column_has_weak_refs(column)) {
                    add_weak_refs(txn, new, column, &column->type.key,
                                  datum->keys, datum->n);
                    if (datum->values) {
                        add_weak_refs(txn, new, column, &column->type.value,
                                      datum->values, datum->n);
                    }
                }
            }
            new->n_refs = tr->n_refs;
            db->n_atoms += ovsdb_row_count_atoms(new);
        }
    }

    /* Let go of the old rows and the bookkeeping. */
    LIST_FOR_EACH (tt, node, &txn->txn_tables) {
        LIST_FOR_EACH_SAFE (tr, list_node, &tt->row_list) {
            if (tr->new) {
                tr->new->txn_row = NULL;
            }
            if (tr->old) {
                tr->old->txn_row = NULL;
                ovsdb_row_destroy(tr->old);
            }
            txn_row_free(tr);
        }
    }
}

struct ovsdb_error *
ovsdb_txn_commit(struct ovsdb_txn *txn, bool durable)
{
    struct ovsdb *db = txn->db;
    bool empty;

    struct ovsdb_error *error = precommit(txn, &empty);
    if (error) {
        ovsdb_txn_abort(txn);
        return error;
    }

    if (!empty || durable) {
        struct ovsdb_observer *observer;
        LIST_FOR_EACH (observer, node, &db->observers) {
            error = observer->class->commit(observer, txn, durable);
            if (error) {
                ovsdb_txn_abort(txn);
                return error;
            }
        }
    }

    if (empty) {
        ovsdb_txn_abort(txn);
        return NULL;
    }

    complete(txn);
    db->last_txnid = txn->txnid;
    db->run_triggers = true;
    db->n_commits++;
    txn_free(txn);
    return NULL;
}
