/* The IDL's session handling, replica and change tracking.  Transactions
 * live in ovsdb-idl-txn.c. */
#include <config.h>
#include "ovsdb-idl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bitmap.h"
#include "coverage.h"
#include "jsonrpc.h"
#include "ovsdb-error.h"
#include "ovsdb-idl-private.h"
#include "ovsdb-schema.h"
#include "poll-loop.h"
#include "seq.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_idl);

COVERAGE_DEFINE(idl_update);
COVERAGE_DEFINE(idl_reparse);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

/* A reference from SRC's typed members to DST (see ovsdb-idl-provider.h). */
struct ovsdb_idl_arc {
    struct ovs_list src_node;       /* In src->src_arcs. */
    struct ovs_list dst_node;       /* In dst->dst_arcs. */
    struct ovsdb_idl_row *src;
    struct ovsdb_idl_row *dst;
};

static void ovsdb_idl_send_schema_request(struct ovsdb_idl *);
static void ovsdb_idl_send_monitor_request(struct ovsdb_idl *);
static void ovsdb_idl_send_lock_request(struct ovsdb_idl *, const char *method,
                                        const char *name);
static void ovsdb_idl_clear(struct ovsdb_idl *);
static bool ovsdb_idl_check_server(struct ovsdb_idl *);
static void ovsdb_idl_row_free(struct ovsdb_idl_row *);

/* Creation and destruction. */

struct ovsdb_idl *
ovsdb_idl_create(const char *remote, const struct ovsdb_idl_class *class,
                 bool monitor_everything_by_default, bool retry)
{
    struct ovsdb_idl *idl = ovsdb_idl_create_unconnected(
        class, monitor_everything_by_default);
    ovsdb_idl_set_remote(idl, remote, retry);
    return idl;
}

void
ovsdb_idl_set_remote(struct ovsdb_idl *idl, const char *remote, bool retry)
{
    char **remotes;
    size_t n = jsonrpc_split_remotes(remote, idl->shuffle_remotes, &remotes);
    jsonrpc_session_close(idl->session);
    idl->session = jsonrpc_session_open_multiple((const char *const *) remotes,
                                                 n, retry);
    idl->session_seqno = UINT_MAX;
    for (size_t i = 0; i < n; i++) {
        free(remotes[i]);
    }
    free(remotes);
}

void
ovsdb_idl_set_leader_only(struct ovsdb_idl *idl, bool leader_only)
{
    idl->leader_only = leader_only;
    if (idl->session && jsonrpc_session_is_connected(idl->session)
        && idl->server_monitor_id && idl->state != IDL_S_DISCONNECTED
        && idl->state != IDL_S_SERVER_REQUESTED) {
        ovsdb_idl_check_server(idl);
    }
}

void
ovsdb_idl_set_shuffle_remotes(struct ovsdb_idl *idl, bool shuffle)
{
    idl->shuffle_remotes = shuffle;
}

struct ovsdb_idl *
ovsdb_idl_create_unconnected(const struct ovsdb_idl_class *class,
                             bool monitor_everything_by_default)
{
    struct ovsdb_idl *idl = xzalloc(sizeof *idl);
    idl->class_ = class;
    idl->session_seqno = UINT_MAX;
    idl->leader_only = true;
    idl->shuffle_remotes = true;
    idl->typed_rows = true;
    idl->tables = xcalloc(class->n_tables, sizeof *idl->tables);
    unsigned char default_mode = (monitor_everything_by_default
                                  ? OVSDB_IDL_MONITOR | OVSDB_IDL_ALERT : 0);
    for (size_t i = 0; i < class->n_tables; i++) {
        const struct ovsdb_idl_table_class *tc = &class->tables[i];
        struct ovsdb_idl_table *table = &idl->tables[i];
        table->class_ = tc;
        table->idl = idl;
        table->modes = xmalloc(tc->n_columns ? tc->n_columns : 1);
        memset(table->modes, default_mode, tc->n_columns);
        table->explicitly_added = monitor_everything_by_default;
        table->server_columns = bitmap_allocate(tc->n_columns + 1);
        hmap_init(&table->rows);
        ovs_list_init(&table->track_list);
    }
    idl->state = IDL_S_DISCONNECTED;
    idl->monitor_version = 3;
    idl->change_seq = seq_create();
    hmap_init(&idl->outstanding_txns);
    return idl;
}

void
ovsdb_idl_destroy(struct ovsdb_idl *idl)
{
    if (!idl) {
        return;
    }
    ovs_assert(!idl->txn);
    ovsdb_idl_txn_abort_all(idl);
    hmap_destroy(&idl->outstanding_txns);
    ovsdb_idl_clear(idl);
    ovsdb_idl_track_clear(idl);
    for (size_t i = 0; i < idl->class_->n_tables; i++) {
        struct ovsdb_idl_table *table = &idl->tables[i];
        /* Whatever is left are orphans only referenced by other orphans'
         * arcs (none, once every datum is gone); free them regardless. */
        struct ovsdb_idl_row *row;
        HMAP_FOR_EACH_SAFE (row, hmap_node, &table->rows) {
            ovsdb_idl_row_unparse(row);
        }
        HMAP_FOR_EACH_SAFE (row, hmap_node, &table->rows) {
            hmap_remove(&table->rows, &row->hmap_node);
            struct ovsdb_idl_arc *arc;
            LIST_FOR_EACH_POP (arc, dst_node, &row->dst_arcs) {
                ovs_list_remove(&arc->src_node);
                free(arc);
            }
            ovsdb_idl_row_free(row);
        }
        hmap_destroy(&table->rows);
        free(table->modes);
        bitmap_free(table->server_columns);
        json_decref(table->condition);
    }
    free(idl->tables);
    free(idl->reparse);
    jsonrpc_session_close(idl->session);
    json_decref(idl->request_id);
    json_decref(idl->lock_request_id);
    json_decref(idl->cond_request_id);
    json_decref(idl->monitor_id);
    json_decref(idl->server_monitor_id);
    ovsdb_server_status_uninit(&idl->server_status);
    free(idl->lock_name);
    seq_destroy(idl->change_seq);
    free(idl);
}

/* Lookups. */

struct ovsdb_idl_table *
ovsdb_idl_table_from_class(const struct ovsdb_idl *idl,
                           const struct ovsdb_idl_table_class *tc)
{
    ptrdiff_t i = tc - idl->class_->tables;
    return i >= 0 && (size_t) i < idl->class_->n_tables
           ? &idl->tables[i] : NULL;
}

static struct ovsdb_idl_table *
ovsdb_idl_table_from_column(const struct ovsdb_idl *idl,
                            const struct ovsdb_idl_column *column,
                            size_t *indexp)
{
    for (size_t i = 0; i < idl->class_->n_tables; i++) {
        const struct ovsdb_idl_table_class *tc = &idl->class_->tables[i];
        if (column >= tc->columns && column < tc->columns + tc->n_columns) {
            if (indexp) {
                *indexp = column - tc->columns;
            }
            return &idl->tables[i];
        }
    }
    ovs_abort(0, "column %s is not in the IDL's class", column->name);
}

const struct ovsdb_idl_table_class *
ovsdb_idl_table_class_from_column(const struct ovsdb_idl_class *class,
                                  const struct ovsdb_idl_column *column)
{
    for (size_t i = 0; i < class->n_tables; i++) {
        const struct ovsdb_idl_table_class *tc = &class->tables[i];
        if (column >= tc->columns && column < tc->columns + tc->n_columns) {
            return tc;
        }
    }
    return NULL;
}

static struct ovsdb_idl_table *
ovsdb_idl_table_by_name(const struct ovsdb_idl *idl, const char *name)
{
    for (size_t i = 0; i < idl->class_->n_tables; i++) {
        if (!strcmp(idl->class_->tables[i].name, name)) {
            return &idl->tables[i];
        }
    }
    return NULL;
}

static int
ovsdb_idl_column_by_name(const struct ovsdb_idl_table_class *tc,
                         const char *name)
{
    /* Columns are sorted by name: binary search. */
    size_t lo = 0, hi = tc->n_columns;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int cmp = strcmp(name, tc->columns[mid].name);
        if (!cmp) {
            return mid;
        } else if (cmp < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    for (size_t i = 0; i < tc->n_columns; i++) {
        if (!strcmp(tc->columns[i].name, name)) {
            return i;
        }
    }
    return -1;
}

size_t
ovsdb_idl_column_index(const struct ovsdb_idl_row *row,
                       const struct ovsdb_idl_column *column)
{
    const struct ovsdb_idl_table_class *tc = row->table->class_;
    ovs_assert(column >= tc->columns && column < tc->columns + tc->n_columns);
    return column - tc->columns;
}

struct ovsdb_idl_row *
ovsdb_idl_find_row(const struct ovsdb_idl_table *table,
                   const struct uuid *uuid)
{
    struct ovsdb_idl_row *row;
    HMAP_FOR_EACH_WITH_HASH (row, hmap_node, uuid_hash(uuid), &table->rows) {
        if (uuid_equals(&row->uuid, uuid)) {
            return row;
        }
    }
    return NULL;
}

static bool
ovsdb_idl_table_is_replicated(const struct ovsdb_idl_table *table)
{
    if (table->explicitly_added) {
        return true;
    }
    for (size_t i = 0; i < table->class_->n_columns; i++) {
        if (table->modes[i] & OVSDB_IDL_MONITOR) {
            return true;
        }
    }
    return false;
}

static bool
ovsdb_idl_table_is_tracked(const struct ovsdb_idl_table *table)
{
    for (size_t i = 0; i < table->class_->n_columns; i++) {
        if (table->modes[i] & OVSDB_IDL_TRACK) {
            return true;
        }
    }
    return false;
}

/* Rows: creation, parsing, arcs. */

struct ovsdb_idl_row *
ovsdb_idl_row_create__(struct ovsdb_idl_table *table, const struct uuid *uuid)
{
    const struct ovsdb_idl_table_class *tc = table->class_;
    struct ovsdb_idl_row *row = xzalloc(tc->allocation_size);
    row->uuid = *uuid;
    row->table = table;
    ovs_list_init(&row->src_arcs);
    ovs_list_init(&row->dst_arcs);
    ovs_list_init(&row->track_node);
    hmap_node_nullify(&row->txn_node);
    if (tc->row_init) {
        tc->row_init(row);
    }
    hmap_insert(&table->rows, &row->hmap_node, uuid_hash(uuid));
    return row;
}

static struct ovsdb_datum *
ovsdb_idl_default_datums(const struct ovsdb_idl_table_class *tc)
{
    struct ovsdb_datum *d = xcalloc(tc->n_columns ? tc->n_columns : 1,
                                    sizeof *d);
    for (size_t i = 0; i < tc->n_columns; i++) {
        ovsdb_datum_init_default(&d[i], &tc->columns[i].type);
    }
    return d;
}

void
ovsdb_idl_row_free_datum(struct ovsdb_idl_row *row, struct ovsdb_datum *d)
{
    if (d) {
        const struct ovsdb_idl_table_class *tc = row->table->class_;
        for (size_t i = 0; i < tc->n_columns; i++) {
            ovsdb_datum_destroy(&d[i], &tc->columns[i].type);
        }
        free(d);
    }
}

/* Frees a transaction's copy of ROW's values (new_datum, which must not be
 * old_datum), except the atoms its shared columns borrow from old_datum. */
void
ovsdb_idl_row_free_new_datum(struct ovsdb_idl_row *row)
{
    struct ovsdb_datum *d = row->new_datum;
    if (d) {
        const struct ovsdb_idl_table_class *tc = row->table->class_;
        for (size_t i = 0; i < tc->n_columns; i++) {
            if (!row->shared || !bitmap_is_set(row->shared, i)) {
                ovsdb_datum_destroy(&d[i], &tc->columns[i].type);
            }
        }
        free(d);
    }
    bitmap_free(row->shared);
    row->shared = NULL;
    row->new_datum = NULL;
}

void
ovsdb_idl_row_parse(struct ovsdb_idl_row *row)
{
    const struct ovsdb_datum *d = row->new_datum;
    if (!d || row->parsed) {
        return;
    }
    const struct ovsdb_idl_table_class *tc = row->table->class_;
    if (row->table->idl->typed_rows) {
        for (size_t i = 0; i < tc->n_columns; i++) {
            tc->columns[i].parse(row, &d[i]);
        }
    }
    row->parsed = true;
}

/* Frees ROW if it is an orphan nobody refers to any more. */
void
ovsdb_idl_row_gc(struct ovsdb_idl_row *row)
{
    if (!row->old_datum && !row->new_datum && !row->deleted
        && ovs_list_is_empty(&row->dst_arcs)
        && ovs_list_is_empty(&row->src_arcs)) {
        hmap_remove(&row->table->rows, &row->hmap_node);
        ovsdb_idl_row_free(row);
    }
}

void
ovsdb_idl_row_unparse(struct ovsdb_idl_row *row)
{
    if (row->parsed) {
        const struct ovsdb_idl_table_class *tc = row->table->class_;
        if (row->table->idl->typed_rows) {
            for (size_t i = 0; i < tc->n_columns; i++) {
                tc->columns[i].unparse(row);
            }
        }
        row->parsed = false;
    }
    struct ovsdb_idl_arc *arc;
    LIST_FOR_EACH_POP (arc, src_node, &row->src_arcs) {
        ovs_list_remove(&arc->dst_node);
        struct ovsdb_idl_row *dst = arc->dst;
        free(arc);
        if (dst != row) {
            ovsdb_idl_row_gc(dst);
        }
    }
}

static void
ovsdb_idl_row_reparse(struct ovsdb_idl_row *row)
{
    COVERAGE_INC(idl_reparse);
    ovsdb_idl_row_unparse(row);
    ovsdb_idl_row_parse(row);
}

/* Re-parses every row that refers to ROW, after ROW appeared, went away or
 * was replaced. */
void
ovsdb_idl_reparse_referrers(struct ovsdb_idl_row *row)
{
    struct ovsdb_idl *idl = row->table->idl;
    if (idl->batching_reparse) {
        /* Unparse each referrer now, which drops its arcs (to ROW too, so
         * that a deleted ROW can go), and parse it once at the end.  A
         * referrer that is already waiting and was not parsed again since
         * has no arcs left, so later rows of the same update cost nothing
         * here. */
        size_t n = 0, allocated = 0;
        struct ovsdb_idl_row **srcs = NULL;
        struct ovsdb_idl_arc *arc;
        LIST_FOR_EACH (arc, dst_node, &row->dst_arcs) {
            struct ovsdb_idl_row *src = arc->src;
            if (src != row && !src->mark) {
                src->mark = true;
                if (n >= allocated) {
                    srcs = x2nrealloc(srcs, &allocated, sizeof *srcs);
                }
                srcs[n++] = src;
            }
        }
        for (size_t i = 0; i < n; i++) {
            struct ovsdb_idl_row *src = srcs[i];
            src->mark = false;
            if (!src->reparse_pending) {
                src->reparse_pending = true;
                if (idl->n_reparse >= idl->allocated_reparse) {
                    idl->reparse = x2nrealloc(idl->reparse,
                                              &idl->allocated_reparse,
                                              sizeof *idl->reparse);
                }
                idl->reparse[idl->n_reparse++] = src;
            }
        }
        /* Unparsing may free orphans, never a row with data such as these,
         * so the array stays valid. */
        for (size_t i = 0; i < n; i++) {
            ovsdb_idl_row_unparse(srcs[i]);
        }
        free(srcs);
        return;
    }

    size_t n = 0, allocated = 0;
    struct ovsdb_idl_row **srcs = NULL;
    struct ovsdb_idl_arc *arc;
    LIST_FOR_EACH (arc, dst_node, &row->dst_arcs) {
        if (!arc->src->mark && arc->src != row) {
            arc->src->mark = true;
            if (n >= allocated) {
                srcs = x2nrealloc(srcs, &allocated, sizeof *srcs);
            }
            srcs[n++] = arc->src;
        }
    }
    for (size_t i = 0; i < n; i++) {
        srcs[i]->mark = false;
        ovsdb_idl_row_reparse(srcs[i]);
    }
    free(srcs);
}

struct ovsdb_idl_row *
ovsdb_idl_get_row_arc(struct ovsdb_idl_row *src,
                      const struct ovsdb_idl_table_class *dst_class,
                      const struct uuid *dst_uuid)
{
    struct ovsdb_idl *idl = src->table->idl;
    struct ovsdb_idl_table *dst_table = ovsdb_idl_table_from_class(idl,
                                                                   dst_class);
    if (!dst_table || !ovsdb_idl_table_is_replicated(dst_table)) {
        return NULL;
    }
    struct ovsdb_idl_row *dst = ovsdb_idl_find_row(dst_table, dst_uuid);
    if (!dst) {
        dst = ovsdb_idl_row_create__(dst_table, dst_uuid);   /* Orphan. */
    }
    /* Consecutive references to one row need one arc. */
    bool have_arc = false;
    if (!ovs_list_is_empty(&src->src_arcs)) {
        struct ovsdb_idl_arc *last = CONTAINER_OF(ovs_list_back(&src->src_arcs),
                                                  struct ovsdb_idl_arc,
                                                  src_node);
        have_arc = last->dst == dst;
    }
    if (!have_arc) {
        struct ovsdb_idl_arc *arc = xmalloc(sizeof *arc);
        arc->src = src;
        arc->dst = dst;
        ovs_list_push_back(&src->src_arcs, &arc->src_node);
        ovs_list_push_back(&dst->dst_arcs, &arc->dst_node);
    }
    return dst->new_datum ? dst : NULL;
}

static void
ovsdb_idl_row_free(struct ovsdb_idl_row *row)
{
    ovs_assert(!row->parsed);
    if (row->reparse_pending) {
        struct ovsdb_idl *idl = row->table->idl;
        for (size_t i = 0; i < idl->n_reparse; i++) {
            if (idl->reparse[i] == row) {
                idl->reparse[i] = NULL;
            }
        }
    }
    ovs_assert(ovs_list_is_empty(&row->src_arcs));
    if (row->new_datum != row->old_datum) {
        ovsdb_idl_row_free_new_datum(row);
    }
    ovsdb_idl_row_free_datum(row, row->old_datum);
    bitmap_free(row->updated);
    bitmap_free(row->written);
    bitmap_free(row->prereqs);
    bitmap_free(row->partial);
    if (row->adds) {
        ovsdb_idl_row_free_datum(row, row->adds);
        ovsdb_idl_row_free_datum(row, row->dels);
    }
    if (!ovs_list_is_empty(&row->track_node)) {
        ovs_list_remove(&row->track_node);
    }
    free(row);
}

void
ovsdb_idl_row_destroy(struct ovsdb_idl_row *row)
{
    ovsdb_idl_row_unparse(row);
    if (!row->deleted) {
        hmap_remove(&row->table->rows, &row->hmap_node);
    }
    ovs_assert(ovs_list_is_empty(&row->dst_arcs));
    ovsdb_idl_row_free(row);
}

/* Row accessors. */

static const struct ovsdb_idl_row *
ovsdb_idl_visible(const struct ovsdb_idl_row *row)
{
    return row && row->new_datum && !row->deleted ? row : NULL;
}

const struct ovsdb_idl_row *
ovsdb_idl_first_row(const struct ovsdb_idl *idl,
                    const struct ovsdb_idl_table_class *tc)
{
    const struct ovsdb_idl_table *table = ovsdb_idl_table_from_class(idl, tc);
    struct ovsdb_idl_row *row;
    HMAP_FOR_EACH (row, hmap_node, &table->rows) {
        if (ovsdb_idl_visible(row)) {
            return row;
        }
    }
    return NULL;
}

const struct ovsdb_idl_row *
ovsdb_idl_next_row(const struct ovsdb_idl_row *row)
{
    const struct ovsdb_idl_table *table = row->table;
    struct ovsdb_idl_row *next = row->deleted ? NULL : (struct ovsdb_idl_row *) row;
    if (!next) {
        return NULL;
    }
    HMAP_FOR_EACH_CONTINUE (next, hmap_node, &table->rows) {
        if (ovsdb_idl_visible(next)) {
            return next;
        }
    }
    return NULL;
}

const struct ovsdb_idl_row *
ovsdb_idl_get_row_for_uuid(const struct ovsdb_idl *idl,
                           const struct ovsdb_idl_table_class *tc,
                           const struct uuid *uuid)
{
    const struct ovsdb_idl_table *table = ovsdb_idl_table_from_class(idl, tc);
    return ovsdb_idl_visible(ovsdb_idl_find_row(table, uuid));
}

const struct uuid *
ovsdb_idl_row_get_uuid(const struct ovsdb_idl_row *row)
{
    return &row->uuid;
}

const struct ovsdb_idl_table_class *
ovsdb_idl_row_get_class(const struct ovsdb_idl_row *row)
{
    return row->table->class_;
}

const struct ovsdb_datum *
ovsdb_idl_read(const struct ovsdb_idl_row *row,
               const struct ovsdb_idl_column *column)
{
    static const struct ovsdb_datum empty = { 0, NULL, NULL };
    size_t idx = ovsdb_idl_column_index(row, column);
    const struct ovsdb_datum *d = row->new_datum;
    if (!d && row->deleted) {
        d = row->old_datum;
    }
    return d ? &d[idx] : &empty;
}

const struct ovsdb_datum *
ovsdb_idl_get(const struct ovsdb_idl_row *row,
              const struct ovsdb_idl_column *column,
              enum ovsdb_atomic_type key_type,
              enum ovsdb_atomic_type value_type)
{
    ovs_assert(column->type.key.type == key_type);
    ovs_assert(column->type.value.type == value_type);
    return ovsdb_idl_read(row, column);
}

bool
ovsdb_idl_row_is_new(const struct ovsdb_idl_row *row)
{
    return !row->old_datum && row->new_datum;
}

bool
ovsdb_idl_row_is_written(const struct ovsdb_idl_row *row,
                         const struct ovsdb_idl_column *column)
{
    return row->written
           && bitmap_is_set(row->written, ovsdb_idl_column_index(row, column));
}

/* Column selection. */

static unsigned char *
ovsdb_idl_mode_of(struct ovsdb_idl *idl, const struct ovsdb_idl_column *column)
{
    size_t idx;
    struct ovsdb_idl_table *table = ovsdb_idl_table_from_column(idl, column,
                                                                &idx);
    return &table->modes[idx];
}

void
ovsdb_idl_add_table(struct ovsdb_idl *idl,
                    const struct ovsdb_idl_table_class *tc)
{
    ovsdb_idl_table_from_class(idl, tc)->explicitly_added = true;
}

void
ovsdb_idl_add_column(struct ovsdb_idl *idl,
                     const struct ovsdb_idl_column *column)
{
    *ovsdb_idl_mode_of(idl, column) |= OVSDB_IDL_MONITOR | OVSDB_IDL_ALERT;
}

void
ovsdb_idl_disable_typed_rows(struct ovsdb_idl *idl)
{
    idl->typed_rows = false;
}

void
ovsdb_idl_omit_alert(struct ovsdb_idl *idl,
                     const struct ovsdb_idl_column *column)
{
    unsigned char *mode = ovsdb_idl_mode_of(idl, column);
    *mode = (*mode | OVSDB_IDL_MONITOR) & ~OVSDB_IDL_ALERT;
}

void
ovsdb_idl_omit(struct ovsdb_idl *idl, const struct ovsdb_idl_column *column)
{
    *ovsdb_idl_mode_of(idl, column) = 0;
}

unsigned int
ovsdb_idl_get_mode(const struct ovsdb_idl *idl,
                   const struct ovsdb_idl_column *column)
{
    return *ovsdb_idl_mode_of((struct ovsdb_idl *) idl, column);
}

bool
ovsdb_idl_server_has_table(const struct ovsdb_idl *idl,
                           const struct ovsdb_idl_table_class *tc)
{
    return ovsdb_idl_table_from_class(idl, tc)->in_server;
}

bool
ovsdb_idl_server_has_column(const struct ovsdb_idl *idl,
                            const struct ovsdb_idl_column *column)
{
    size_t idx;
    struct ovsdb_idl_table *table = ovsdb_idl_table_from_column(idl, column,
                                                                &idx);
    return table->in_server && bitmap_is_set(table->server_columns, idx);
}

unsigned int
ovsdb_idl_set_condition(struct ovsdb_idl *idl,
                        const struct ovsdb_idl_table_class *tc,
                        json_t *condition)
{
    struct ovsdb_idl_table *table = ovsdb_idl_table_from_class(idl, tc);
    if (condition && json_is_array(condition) && json_array_size(condition) == 1
        && json_is_true(json_array_get(condition, 0))) {
        json_decref(condition);
        condition = NULL;
    }
    if ((!table->condition && !condition)
        || (table->condition && condition
            && json_equal(table->condition, condition))) {
        json_decref(condition);
        return idl->cond_gen;
    }
    json_decref(table->condition);
    table->condition = condition;
    idl->cond_changed = true;
    return ++idl->cond_gen;
}

unsigned int
ovsdb_idl_get_condition_seqno(const struct ovsdb_idl *idl)
{
    return idl->cond_acked_gen;
}

/* Tracking. */

void
ovsdb_idl_track_add_column(struct ovsdb_idl *idl,
                           const struct ovsdb_idl_column *column)
{
    unsigned char *mode = ovsdb_idl_mode_of(idl, column);
    if (!(*mode & OVSDB_IDL_MONITOR)) {
        *mode |= OVSDB_IDL_MONITOR | OVSDB_IDL_ALERT;
    }
    *mode |= OVSDB_IDL_TRACK;
    idl->tracking = true;
}

void
ovsdb_idl_track_add_all(struct ovsdb_idl *idl)
{
    for (size_t i = 0; i < idl->class_->n_tables; i++) {
        const struct ovsdb_idl_table_class *tc = &idl->class_->tables[i];
        for (size_t j = 0; j < tc->n_columns; j++) {
            ovsdb_idl_track_add_column(idl, &tc->columns[j]);
        }
    }
}

void
ovsdb_idl_track_clear(struct ovsdb_idl *idl)
{
    for (size_t i = 0; i < idl->class_->n_tables; i++) {
        struct ovsdb_idl_table *table = &idl->tables[i];
        struct ovsdb_idl_row *row;
        LIST_FOR_EACH_POP (row, track_node, &table->track_list) {
            ovs_list_init(&row->track_node);
            memset(row->change_seqno, 0, sizeof row->change_seqno);
            if (row->updated) {
                memset(row->updated, 0,
                       bitmap_n_longs(table->class_->n_columns)
                       * sizeof *row->updated);
            }
            if (row->deleted) {
                ovsdb_idl_row_destroy(row);
            }
        }
    }
}

const struct ovsdb_idl_row *
ovsdb_idl_track_get_first(const struct ovsdb_idl *idl,
                          const struct ovsdb_idl_table_class *tc)
{
    const struct ovsdb_idl_table *table = ovsdb_idl_table_from_class(idl, tc);
    if (ovs_list_is_empty(&table->track_list)) {
        return NULL;
    }
    return CONTAINER_OF(ovs_list_front(&table->track_list),
                        struct ovsdb_idl_row, track_node);
}

const struct ovsdb_idl_row *
ovsdb_idl_track_get_next(const struct ovsdb_idl_row *row)
{
    const struct ovs_list *next = row->track_node.next;
    if (next == &row->table->track_list) {
        return NULL;
    }
    return CONTAINER_OF(next, struct ovsdb_idl_row, track_node);
}

unsigned int
ovsdb_idl_row_get_seqno(const struct ovsdb_idl_row *row,
                        enum ovsdb_idl_change change)
{
    return change < OVSDB_IDL_CHANGE_MAX ? row->change_seqno[change] : 0;
}

bool
ovsdb_idl_track_is_updated(const struct ovsdb_idl_row *row,
                           const struct ovsdb_idl_column *column)
{
    return row->updated
           && bitmap_is_set(row->updated, ovsdb_idl_column_index(row, column));
}

bool
ovsdb_idl_row_is_deleted(const struct ovsdb_idl_row *row)
{
    return row->deleted;
}

static void
ovsdb_idl_track_row(struct ovsdb_idl_row *row, enum ovsdb_idl_change change,
                    unsigned int seqno)
{
    row->change_seqno[change] = seqno;
    if (ovs_list_is_empty(&row->track_node)) {
        ovs_list_push_back(&row->table->track_list, &row->track_node);
    }
}

/* Applying updates from the server. */

/* What one update message did, to decide whether the seqno moves. */
struct ovsdb_idl_update_ctx {
    unsigned int seqno;             /* The seqno the changes get. */
    bool alert;                     /* An alerting change happened. */
};

/* Parses VALUE as the new value (or, if IS_DIFF, a diff against the current
 * value) of column IDX of ROW into the server datum.  Returns true if the
 * value changed. */
static bool
ovsdb_idl_row_change_column(struct ovsdb_idl_row *row, size_t idx,
                            const json_t *value, bool is_diff)
{
    const struct ovsdb_idl_column *column = &row->table->class_->columns[idx];
    struct ovsdb_datum *old = &row->old_datum[idx];
    struct ovsdb_datum new;
    struct ovsdb_error *error;

    if (is_diff && column->type.n_max == 1) {
        /* A column of at most one element is sent as its new value. */
        is_diff = false;
    }
    if (is_diff) {
        struct ovsdb_type diff_type = ovsdb_type_for_diff(&column->type);
        struct ovsdb_datum diff;
        error = ovsdb_datum_from_json(&diff, &diff_type, value, NULL);
        if (!error) {
            error = ovsdb_datum_apply_diff(&new, old, &diff, &column->type);
            ovsdb_datum_destroy(&diff, &column->type);
        }
    } else {
        error = ovsdb_datum_from_json(&new, &column->type, value, NULL);
    }
    if (error) {
        char *s = ovsdb_error_to_string_free(error);
        VLOG_WARN_RL(&rl, "%s column %s of row "UUID_FMT": %s",
                     row->table->class_->name, column->name,
                     UUID_ARGS(&row->uuid), s);
        free(s);
        return false;
    }
    bool changed = !ovsdb_datum_equals(old, &new, &column->type);
    ovsdb_datum_swap(old, &new);
    ovsdb_datum_destroy(&new, &column->type);
    return changed;
}

/* Applies ROW_JSON (an object of column values) to ROW's server datum. */
static void
ovsdb_idl_row_apply_json(struct ovsdb_idl_row *row, const json_t *row_json,
                         bool is_diff, bool track_modify,
                         struct ovsdb_idl_update_ctx *ctx)
{
    struct ovsdb_idl_table *table = row->table;
    const struct ovsdb_idl_table_class *tc = table->class_;
    const char *name;
    const json_t *value;

    if (!json_is_object(row_json)) {
        return;
    }
    json_object_foreach ((json_t *) row_json, name, value) {
        int idx = ovsdb_idl_column_by_name(tc, name);
        if (idx < 0) {
            if (name[0] != '_') {
                VLOG_WARN_RL(&rl, "%s: unknown column %s", tc->name, name);
            }
            continue;
        }
        if (!ovsdb_idl_row_change_column(row, idx, value, is_diff)) {
            continue;
        }
        unsigned char mode = table->modes[idx];
        if (mode & OVSDB_IDL_ALERT) {
            ctx->alert = true;
        }
        if (track_modify && (mode & OVSDB_IDL_TRACK)) {
            if (!row->updated) {
                row->updated = bitmap_allocate(tc->n_columns);
            }
            bitmap_set1(row->updated, idx);
            ovsdb_idl_track_row(row, OVSDB_IDL_CHANGE_MODIFY, ctx->seqno);
        }
    }
}

static void
ovsdb_idl_process_insert(struct ovsdb_idl_table *table,
                         const struct uuid *uuid, const json_t *row_json,
                         struct ovsdb_idl_update_ctx *ctx)
{
    struct ovsdb_idl_row *row = ovsdb_idl_find_row(table, uuid);
    if (row && row->old_datum) {
        VLOG_WARN_RL(&rl, "%s: insert of existing row "UUID_FMT
                     " (treated as a modification)",
                     table->class_->name, UUID_ARGS(uuid));
        ovsdb_idl_row_unparse(row);
        ovsdb_idl_row_apply_json(row, row_json, false,
                                 ovsdb_idl_table_is_tracked(table), ctx);
        ovsdb_idl_row_parse(row);
        return;
    }
    if (!row) {
        row = ovsdb_idl_row_create__(table, uuid);
    }
    row->old_datum = row->new_datum
        = ovsdb_idl_default_datums(table->class_);
    ovsdb_idl_row_apply_json(row, row_json, false, false, ctx);
    ovsdb_idl_row_parse(row);
    ovsdb_idl_reparse_referrers(row);
    ctx->alert = true;
    if (ovsdb_idl_table_is_tracked(table)) {
        ovsdb_idl_track_row(row, OVSDB_IDL_CHANGE_INSERT, ctx->seqno);
    }
}

static void
ovsdb_idl_delete_row(struct ovsdb_idl_row *row,
                     struct ovsdb_idl_update_ctx *ctx)
{
    struct ovsdb_idl_table *table = row->table;
    bool tracked = ovsdb_idl_table_is_tracked(table);

    /* Take the row out of the table first, so that re-parsing its referrers
     * makes them point to a fresh orphan (if they still hold its uuid) and
     * nothing frees it under us. */
    hmap_remove(&table->rows, &row->hmap_node);
    row->deleted = true;
    if (!tracked) {
        ovsdb_idl_row_unparse(row);
    }
    ovsdb_idl_reparse_referrers(row);
    ctx->alert = true;
    if (tracked) {
        /* Stays readable, with its arcs, until ovsdb_idl_track_clear(). */
        ovsdb_idl_track_row(row, OVSDB_IDL_CHANGE_DELETE, ctx->seqno);
    } else {
        ovsdb_idl_row_destroy(row);
    }
}

static void
ovsdb_idl_process_delete(struct ovsdb_idl_table *table,
                         const struct uuid *uuid,
                         struct ovsdb_idl_update_ctx *ctx)
{
    struct ovsdb_idl_row *row = ovsdb_idl_find_row(table, uuid);
    if (!row || !row->old_datum) {
        VLOG_WARN_RL(&rl, "%s: cannot delete missing row "UUID_FMT,
                     table->class_->name, UUID_ARGS(uuid));
        return;
    }
    ovsdb_idl_delete_row(row, ctx);
}

static void
ovsdb_idl_process_modify(struct ovsdb_idl_table *table,
                         const struct uuid *uuid, const json_t *row_json,
                         bool is_diff, struct ovsdb_idl_update_ctx *ctx)
{
    struct ovsdb_idl_row *row = ovsdb_idl_find_row(table, uuid);
    if (!row || !row->old_datum) {
        if (!is_diff) {
            /* A full row ("monitor" updates carry one): insert it. */
            ovsdb_idl_process_insert(table, uuid, row_json, ctx);
            return;
        }
        VLOG_WARN_RL(&rl, "%s: cannot modify missing row "UUID_FMT,
                     table->class_->name, UUID_ARGS(uuid));
        return;
    }
    ovsdb_idl_row_unparse(row);
    ovsdb_idl_row_apply_json(row, row_json, is_diff,
                             ovsdb_idl_table_is_tracked(table), ctx);
    ovsdb_idl_row_parse(row);
}

/* Applies "table-updates" (VERSION 1) or "table-updates2" (2 and 3). */
static void
ovsdb_idl_apply_updates(struct ovsdb_idl *idl, const json_t *updates,
                        int version)
{
    struct ovsdb_idl_update_ctx ctx = { idl->change_seqno + 1, false };
    const char *table_name;
    const json_t *table_updates;

    COVERAGE_INC(idl_update);
    if (!json_is_object(updates)) {
        VLOG_WARN_RL(&rl, "%s: table updates are not an object",
                     jsonrpc_session_get_name(idl->session));
        return;
    }
    idl->batching_reparse = true;
    json_object_foreach ((json_t *) updates, table_name, table_updates) {
        struct ovsdb_idl_table *table = ovsdb_idl_table_by_name(idl,
                                                                table_name);
        if (!table || !json_is_object(table_updates)) {
            VLOG_WARN_RL(&rl, "update for unknown table %s", table_name);
            continue;
        }
        const char *uuid_s;
        const json_t *ru;
        json_object_foreach ((json_t *) table_updates, uuid_s, ru) {
            struct uuid uuid;
            if (!uuid_from_string(&uuid, uuid_s) || !json_is_object(ru)) {
                VLOG_WARN_RL(&rl, "%s: bad row update for %s",
                             table_name, uuid_s);
                continue;
            }
            if (version == 1) {
                const json_t *old = json_object_get(ru, "old");
                const json_t *new = json_object_get(ru, "new");
                if (!new) {
                    ovsdb_idl_process_delete(table, &uuid, &ctx);
                } else if (!old) {
                    ovsdb_idl_process_insert(table, &uuid, new, &ctx);
                } else {
                    ovsdb_idl_process_modify(table, &uuid, new, false, &ctx);
                }
                continue;
            }
            const json_t *v;
            if ((v = json_object_get(ru, "initial"))
                || (v = json_object_get(ru, "insert"))) {
                ovsdb_idl_process_insert(table, &uuid, v, &ctx);
            } else if ((v = json_object_get(ru, "modify"))) {
                ovsdb_idl_process_modify(table, &uuid, v, true, &ctx);
            } else if (json_object_get(ru, "delete")) {
                ovsdb_idl_process_delete(table, &uuid, &ctx);
            } else {
                VLOG_WARN_RL(&rl, "%s: row update for %s has no operation",
                             table_name, uuid_s);
            }
        }
    }
    idl->batching_reparse = false;
    for (size_t i = 0; i < idl->n_reparse; i++) {
        struct ovsdb_idl_row *row = idl->reparse[i];
        if (row) {
            row->reparse_pending = false;
            ovsdb_idl_row_parse(row);
        }
    }
    idl->n_reparse = 0;
    if (ctx.alert) {
        idl->change_seqno = ctx.seqno;
        seq_change(idl->change_seq);
    }
}

/* Forgets every row, as deletions (so that tracking sees them). */
static void
ovsdb_idl_clear(struct ovsdb_idl *idl)
{
    struct ovsdb_idl_update_ctx ctx = { idl->change_seqno + 1, false };
    for (size_t i = 0; i < idl->class_->n_tables; i++) {
        struct ovsdb_idl_table *table = &idl->tables[i];
        /* Deleting a row frees only orphans (rows without data), never
         * another row with data, so the list stays valid. */
        size_t n = 0;
        struct ovsdb_idl_row **rows = xmalloc((hmap_count(&table->rows) + 1)
                                              * sizeof *rows);
        struct ovsdb_idl_row *row;
        HMAP_FOR_EACH (row, hmap_node, &table->rows) {
            if (row->old_datum) {
                rows[n++] = row;
            }
        }
        for (size_t j = 0; j < n; j++) {
            ovsdb_idl_delete_row(rows[j], &ctx);
        }
        free(rows);
    }
    if (ctx.alert) {
        idl->change_seqno = ctx.seqno;
        seq_change(idl->change_seq);
    }
}

/* Session and protocol. */

static void
ovsdb_idl_bump_seqno(struct ovsdb_idl *idl)
{
    idl->change_seqno++;
    seq_change(idl->change_seq);
}

static void
ovsdb_idl_send_request(struct ovsdb_idl *idl, const char *method,
                       json_t *params)
{
    json_decref(idl->request_id);
    idl->request_id = NULL;
    struct jsonrpc_msg *msg = jsonrpc_create_request(method, params,
                                                     &idl->request_id);
    jsonrpc_session_send(idl->session, msg);
}

static void
ovsdb_idl_send_schema_request(struct ovsdb_idl *idl)
{
    ovsdb_idl_send_request(idl, "get_schema",
                           json_pack("[s]", idl->class_->database));
    idl->state = IDL_S_SCHEMA_REQUESTED;
}

/* Choosing a server. */

/* Asks the server about our database: a "monitor" of _Server's Database
 * rows, whose updates keep telling us while we stay. */
static void
ovsdb_idl_send_server_request(struct ovsdb_idl *idl)
{
    json_decref(idl->server_monitor_id);
    idl->server_monitor_id = json_string("ovsdb-idl-server");
    json_t *params = json_pack(
        "[s O {s: {s: [s, s, s, s, s, s]}}]", "_Server",
        idl->server_monitor_id, "Database", "columns",
        OVSDB_SERVER_STATUS_COLUMNS);
    ovsdb_idl_send_request(idl, "monitor", params);
    idl->have_server_row = false;
    idl->state = IDL_S_SERVER_REQUESTED;
}

/* Applies UPDATES (a _Server "update" or the monitor's reply) to what we
 * know of our database's row. */
static void
ovsdb_idl_apply_server_updates(struct ovsdb_idl *idl, const json_t *updates)
{
    const json_t *rows = json_object_get(updates, "Database");
    const char *uuid_s;
    const json_t *change;
    json_object_foreach ((json_t *) rows, uuid_s, change) {
        struct uuid uuid;
        if (!uuid_from_string(&uuid, uuid_s)) {
            continue;
        }
        const json_t *new = json_object_get(change, "new");
        struct ovsdb_server_status status;
        if (new && ovsdb_server_status_from_row(&status, new)
            && !strcmp(status.name, idl->class_->database)) {
            ovsdb_server_status_uninit(&idl->server_status);
            idl->server_status = status;
            idl->server_row_uuid = uuid;
            idl->have_server_row = true;
            continue;
        }
        if (new) {
            ovsdb_server_status_uninit(&status);
        }
        if (idl->have_server_row && uuid_equals(&uuid, &idl->server_row_uuid)
            && (!new || !json_object_get(new, "name"))) {
            idl->have_server_row = !!new;
        }
    }
}

/* Whether the server is fit for our database (see ovsdb-server-status.h);
 * if not, says why and moves on to another server. */
static bool
ovsdb_idl_check_server(struct ovsdb_idl *idl)
{
    const char *error = ovsdb_server_status_check(
        idl->have_server_row ? &idl->server_status : NULL,
        idl->leader_only, &idl->server_memory);
    if (!error) {
        return true;
    }
    if (idl->have_server_row) {
        VLOG_INFO("%s: %s database server %s; trying another server",
                  jsonrpc_session_get_name(idl->session),
                  idl->server_status.model, error);
    } else {
        VLOG_INFO("%s: server does not have %s database; trying another "
                  "server", jsonrpc_session_get_name(idl->session),
                  idl->class_->database);
    }
    jsonrpc_session_force_reconnect(idl->session);
    idl->state = IDL_S_DISCONNECTED;
    return false;
}

static void
ovsdb_idl_handle_server_reply(struct ovsdb_idl *idl,
                              const struct jsonrpc_msg *msg)
{
    if (msg->type == JSONRPC_ERROR) {
        /* A server without _Server (older than Open vSwitch 2.9) serves
         * standalone databases only. */
        json_decref(idl->server_monitor_id);
        idl->server_monitor_id = NULL;
    } else {
        ovsdb_idl_apply_server_updates(idl, msg->result);
        if (!ovsdb_idl_check_server(idl)) {
            return;
        }
    }
    ovsdb_idl_send_schema_request(idl);
    if (idl->lock_name) {
        ovsdb_idl_send_lock_request(idl, "lock", idl->lock_name);
    }
}

static const char *
ovsdb_idl_monitor_method_name(int version)
{
    return (version == 3 ? "monitor_cond_since"
            : version == 2 ? "monitor_cond" : "monitor");
}

static json_t *
ovsdb_idl_compose_monitor_requests(const struct ovsdb_idl *idl, int version)
{
    json_t *requests = json_object();
    for (size_t i = 0; i < idl->class_->n_tables; i++) {
        const struct ovsdb_idl_table *table = &idl->tables[i];
        const struct ovsdb_idl_table_class *tc = table->class_;
        if (!ovsdb_idl_table_is_replicated(table)) {
            continue;
        }
        if (!table->in_server) {
            VLOG_WARN("%s table in %s database lacks %s table "
                      "(database needs upgrade?)", tc->name,
                      idl->class_->database, tc->name);
            continue;
        }
        json_t *columns = json_array();
        for (size_t j = 0; j < tc->n_columns; j++) {
            if (!(table->modes[j] & OVSDB_IDL_MONITOR)) {
                continue;
            }
            if (!bitmap_is_set(table->server_columns, j)) {
                VLOG_WARN("%s table in %s database lacks %s column "
                          "(database needs upgrade?)", tc->name,
                          idl->class_->database, tc->columns[j].name);
                continue;
            }
            json_array_append_new(columns, json_string(tc->columns[j].name));
        }
        json_t *request = json_pack("{s:o}", "columns", columns);
        if (version >= 2 && table->condition) {
            json_object_set(request, "where", table->condition);
        }
        json_object_set_new(requests, tc->name, json_pack("[o]", request));
    }
    return requests;
}

static void
ovsdb_idl_send_monitor_request(struct ovsdb_idl *idl)
{
    int version = idl->monitor_version;
    json_t *requests = ovsdb_idl_compose_monitor_requests(idl, version);
    json_decref(idl->monitor_id);
    idl->monitor_id = json_string("ovsdb-idl");
    json_t *params = json_pack("[s O o]", idl->class_->database,
                               idl->monitor_id, requests);
    if (version == 3) {
        /* Resuming sends the changes since LAST_ID filtered by the
         * conditions in this request.  They apply to our rows only if
         * those were chosen by the same conditions: after a change the
         * server has not confirmed, reload instead. */
        bool resume = (idl->have_last_id
                       && idl->cond_acked_gen == idl->cond_gen);
        char last_id[UUID_LEN + 1];
        struct uuid zero;
        uuid_zero(&zero);
        const struct uuid *id = resume ? &idl->last_id : &zero;
        snprintf(last_id, sizeof last_id, UUID_FMT, UUID_ARGS(id));
        json_array_append_new(params, json_string(last_id));
    }
    ovsdb_idl_send_request(idl, ovsdb_idl_monitor_method_name(version),
                           params);
    idl->state = IDL_S_MONITOR_REQUESTED;
    idl->cond_changed = false;
    idl->cond_sent_gen = idl->cond_gen;
}

static void
ovsdb_idl_send_cond_change(struct ovsdb_idl *idl)
{
    json_t *changes = json_object();
    for (size_t i = 0; i < idl->class_->n_tables; i++) {
        const struct ovsdb_idl_table *table = &idl->tables[i];
        if (!ovsdb_idl_table_is_replicated(table) || !table->in_server) {
            continue;
        }
        json_t *where = table->condition ? json_incref(table->condition)
                                         : json_pack("[b]", 1);
        json_object_set_new(changes, table->class_->name,
                            json_pack("[{s:o}]", "where", where));
    }
    /* The monitor keeps its id: old and new are the same. */
    json_t *params = json_pack("[O O o]", idl->monitor_id, idl->monitor_id,
                               changes);
    json_decref(idl->cond_request_id);
    idl->cond_request_id = NULL;
    jsonrpc_session_send(idl->session,
                         jsonrpc_create_request("monitor_cond_change",
                                                params,
                                                &idl->cond_request_id));
    idl->cond_changed = false;
    idl->cond_sent_gen = idl->cond_gen;
}

/* The server sends the rows that start or stop matching before its reply,
 * so by now the replica reflects the conditions of the request. */
static void
ovsdb_idl_handle_cond_change_reply(struct ovsdb_idl *idl,
                                   const struct jsonrpc_msg *msg)
{
    json_decref(idl->cond_request_id);
    idl->cond_request_id = NULL;
    if (msg->type == JSONRPC_ERROR) {
        /* The server changed nothing: the replica keeps the rows of the
         * previous conditions.  Counting the request as answered keeps
         * anyone waiting for it from waiting forever. */
        char *s = json_dumps(msg->error, JSON_COMPACT | JSON_ENCODE_ANY);
        VLOG_WARN("%s: monitor_cond_change failed: %s",
                  jsonrpc_session_get_name(idl->session), s);
        free(s);
    }
    idl->cond_acked_gen = idl->cond_sent_gen;
}

static void
ovsdb_idl_handle_schema_reply(struct ovsdb_idl *idl,
                              const struct jsonrpc_msg *msg)
{
    if (msg->type == JSONRPC_ERROR) {
        char *s = json_dumps(msg->error, JSON_COMPACT | JSON_ENCODE_ANY);
        VLOG_WARN("%s: get_schema for database %s failed: %s",
                  jsonrpc_session_get_name(idl->session),
                  idl->class_->database, s);
        free(s);
        idl->state = IDL_S_NO_SCHEMA;
        return;
    }
    struct ovsdb_schema *schema;
    struct ovsdb_error *error = ovsdb_schema_from_json(msg->result, &schema);
    if (error) {
        char *s = ovsdb_error_to_string_free(error);
        VLOG_WARN("%s: bad schema: %s",
                  jsonrpc_session_get_name(idl->session), s);
        free(s);
        idl->state = IDL_S_NO_SCHEMA;
        return;
    }
    for (size_t i = 0; i < idl->class_->n_tables; i++) {
        struct ovsdb_idl_table *table = &idl->tables[i];
        const struct ovsdb_idl_table_class *tc = table->class_;
        const struct ovsdb_table_schema *ts
            = ovsdb_schema_get_table(schema, tc->name);
        table->in_server = ts != NULL;
        for (size_t j = 0; j < tc->n_columns; j++) {
            if (ts && ovsdb_table_schema_get_column(ts, tc->columns[j].name)) {
                bitmap_set1(table->server_columns, j);
            } else {
                bitmap_set0(table->server_columns, j);
            }
        }
    }
    ovsdb_schema_destroy(schema);
    ovsdb_idl_send_monitor_request(idl);
}

static bool
ovsdb_idl_is_unknown_method(const struct jsonrpc_msg *msg)
{
    return (msg->type == JSONRPC_ERROR && json_is_string(msg->error)
            && !strcmp(json_string_value(msg->error), "unknown method"));
}

static void
ovsdb_idl_handle_monitor_reply(struct ovsdb_idl *idl,
                               const struct jsonrpc_msg *msg)
{
    int version = idl->monitor_version;
    if (ovsdb_idl_is_unknown_method(msg) && version > 1) {
        VLOG_INFO("%s: %s not supported, falling back to %s",
                  jsonrpc_session_get_name(idl->session),
                  ovsdb_idl_monitor_method_name(version),
                  ovsdb_idl_monitor_method_name(version - 1));
        idl->monitor_version--;
        ovsdb_idl_send_monitor_request(idl);
        return;
    }
    if (msg->type == JSONRPC_ERROR) {
        char *s = json_dumps(msg->error, JSON_COMPACT | JSON_ENCODE_ANY);
        VLOG_WARN("%s: %s failed: %s", jsonrpc_session_get_name(idl->session),
                  ovsdb_idl_monitor_method_name(version), s);
        free(s);
        idl->state = IDL_S_NO_SCHEMA;
        return;
    }

    const json_t *updates = msg->result;
    if (version == 3) {
        const json_t *found = json_array_get(msg->result, 0);
        const json_t *last_id = json_array_get(msg->result, 1);
        updates = json_array_get(msg->result, 2);
        if (!json_is_boolean(found) || !json_is_string(last_id) || !updates) {
            VLOG_WARN("%s: bad monitor_cond_since reply",
                      jsonrpc_session_get_name(idl->session));
            jsonrpc_session_force_reconnect(idl->session);
            return;
        }
        if (!json_is_true(found)) {
            ovsdb_idl_clear(idl);
        } else {
            VLOG_DBG("%s: resumed monitor from "UUID_FMT,
                     jsonrpc_session_get_name(idl->session),
                     UUID_ARGS(&idl->last_id));
        }
        idl->have_last_id = uuid_from_string(&idl->last_id,
                                             json_string_value(last_id));
    } else {
        ovsdb_idl_clear(idl);
    }
    idl->active_monitor_version = version;
    idl->state = IDL_S_MONITORING;
    /* "monitor" ignores conditions: the replica holds every row, which is
     * as close to them as that server gets. */
    idl->cond_acked_gen = idl->cond_sent_gen;
    ovsdb_idl_apply_updates(idl, updates, version == 1 ? 1 : 2);
    idl->has_ever_connected = true;
    ovsdb_idl_bump_seqno(idl);
}

static void
ovsdb_idl_handle_notify(struct ovsdb_idl *idl, const struct jsonrpc_msg *msg)
{
    const json_t *params = msg->params;
    const char *method = msg->method;

    if (!strcmp(method, "update") && idl->server_monitor_id
        && idl->state != IDL_S_SERVER_REQUESTED
        && json_equal(json_array_get(params, 0), idl->server_monitor_id)) {
        ovsdb_idl_apply_server_updates(idl, json_array_get(params, 1));
        ovsdb_idl_check_server(idl);
    } else if (!strcmp(method, "update") || !strcmp(method, "update2")
        || !strcmp(method, "update3")) {
        if (idl->state != IDL_S_MONITORING || !idl->monitor_id
            || !json_equal(json_array_get(params, 0), idl->monitor_id)) {
            return;
        }
        if (!strcmp(method, "update3")) {
            const json_t *last_id = json_array_get(params, 1);
            if (json_is_string(last_id)) {
                idl->have_last_id = uuid_from_string(
                    &idl->last_id, json_string_value(last_id));
            }
            ovsdb_idl_apply_updates(idl, json_array_get(params, 2), 2);
        } else {
            ovsdb_idl_apply_updates(idl, json_array_get(params, 1),
                                    method[6] == '2' ? 2 : 1);
        }
    } else if (!strcmp(method, "locked") || !strcmp(method, "stolen")) {
        const json_t *name = json_array_get(params, 0);
        if (idl->lock_name && json_is_string(name)
            && !strcmp(json_string_value(name), idl->lock_name)) {
            bool locked = method[0] == 'l';
            idl->has_lock = locked;
            idl->is_lock_contended = !locked;
            ovsdb_idl_bump_seqno(idl);
        }
    }
}

static void
ovsdb_idl_handle_lock_reply(struct ovsdb_idl *idl,
                            const struct jsonrpc_msg *msg)
{
    json_decref(idl->lock_request_id);
    idl->lock_request_id = NULL;
    if (msg->type == JSONRPC_REPLY) {
        bool locked = json_is_true(json_object_get(msg->result, "locked"));
        idl->has_lock = locked;
        idl->is_lock_contended = !locked;
        if (locked) {
            ovsdb_idl_bump_seqno(idl);
        }
    }
}

static void
ovsdb_idl_handle_msg(struct ovsdb_idl *idl, const struct jsonrpc_msg *msg)
{
    if (msg->type == JSONRPC_NOTIFY) {
        ovsdb_idl_handle_notify(idl, msg);
        return;
    }
    if (msg->type != JSONRPC_REPLY && msg->type != JSONRPC_ERROR) {
        return;
    }
    if (idl->request_id && json_equal(msg->id, idl->request_id)) {
        json_decref(idl->request_id);
        idl->request_id = NULL;
        if (idl->state == IDL_S_SERVER_REQUESTED) {
            ovsdb_idl_handle_server_reply(idl, msg);
        } else if (idl->state == IDL_S_SCHEMA_REQUESTED) {
            ovsdb_idl_handle_schema_reply(idl, msg);
        } else if (idl->state == IDL_S_MONITOR_REQUESTED) {
            ovsdb_idl_handle_monitor_reply(idl, msg);
        }
    } else if (idl->lock_request_id
               && json_equal(msg->id, idl->lock_request_id)) {
        ovsdb_idl_handle_lock_reply(idl, msg);
    } else if (idl->cond_request_id
               && json_equal(msg->id, idl->cond_request_id)) {
        ovsdb_idl_handle_cond_change_reply(idl, msg);
    } else {
        /* Otherwise a transaction's reply; unlock replies need nothing. */
        const struct ovsdb_idl_txn *txn = ovsdb_idl_txn_process_reply(idl,
                                                                      msg);
        if (txn && ovsdb_idl_txn_get_status(txn) == TXN_ERROR) {
            /* Logged here as well as returned, so that a daemon's log says
             * why its write was refused even if the caller only retries. */
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
            VLOG_WARN_RL(&rl, "transaction error: %s",
                         ovsdb_idl_txn_get_error(txn));
        }
    }
}

static void
ovsdb_idl_connection_changed(struct ovsdb_idl *idl)
{
    ovsdb_idl_txn_abort_all(idl);
    json_decref(idl->request_id);
    idl->request_id = NULL;
    json_decref(idl->lock_request_id);
    idl->lock_request_id = NULL;
    /* A condition change in flight is lost with the connection; the next
     * monitor request carries the conditions. */
    json_decref(idl->cond_request_id);
    idl->cond_request_id = NULL;
    bool had_lock = idl->has_lock;
    idl->has_lock = false;
    idl->is_lock_contended = false;
    idl->state = IDL_S_DISCONNECTED;
    if (jsonrpc_session_is_connected(idl->session)) {
        idl->monitor_version = 3;
        ovsdb_idl_send_server_request(idl);
    }
    if (had_lock || idl->has_ever_connected) {
        ovsdb_idl_bump_seqno(idl);
    }
}

/* Whether a condition change should go to the live monitor now.  One at a
 * time: the next waits for the reply to the last. */
static bool
ovsdb_idl_cond_change_due(const struct ovsdb_idl *idl)
{
    return (idl->cond_changed && idl->state == IDL_S_MONITORING
            && !idl->cond_request_id);
}

void
ovsdb_idl_run(struct ovsdb_idl *idl)
{
    jsonrpc_session_run(idl->session);
    unsigned int seqno = jsonrpc_session_get_seqno(idl->session);
    if (seqno != idl->session_seqno) {
        idl->session_seqno = seqno;
        ovsdb_idl_connection_changed(idl);
    }
    if (idl->txn) {
        /* An open transaction was built against the replica as it is:
         * changes wait until it is committed. */
        return;
    }
    if (ovsdb_idl_cond_change_due(idl)) {
        if (idl->active_monitor_version >= 2) {
            ovsdb_idl_send_cond_change(idl);
        } else {
            /* "monitor" cannot change its rows: see
             * ovsdb_idl_set_condition(). */
            idl->cond_changed = false;
            idl->cond_acked_gen = idl->cond_gen;
        }
    }
    for (;;) {
        struct jsonrpc_msg *msg = jsonrpc_session_recv(idl->session);
        if (!msg) {
            break;
        }
        ovsdb_idl_handle_msg(idl, msg);
        jsonrpc_msg_destroy(msg);
        if (idl->txn) {
            break;
        }
    }
}

void
ovsdb_idl_wait(struct ovsdb_idl *idl)
{
    jsonrpc_session_wait(idl->session);
    jsonrpc_session_recv_wait(idl->session);
    if (ovsdb_idl_cond_change_due(idl) && !idl->txn) {
        /* ovsdb_idl_set_condition() since the last run: send it. */
        poll_immediate_wake();
    }
}

unsigned int
ovsdb_idl_get_seqno(const struct ovsdb_idl *idl)
{
    return idl->change_seqno;
}

struct seq *
ovsdb_idl_get_change_seq(const struct ovsdb_idl *idl)
{
    return idl->change_seq;
}

bool
ovsdb_idl_has_ever_connected(const struct ovsdb_idl *idl)
{
    return idl->has_ever_connected;
}

bool
ovsdb_idl_is_connected(const struct ovsdb_idl *idl)
{
    return jsonrpc_session_is_connected(idl->session);
}

bool
ovsdb_idl_is_monitoring(const struct ovsdb_idl *idl)
{
    return idl->state == IDL_S_MONITORING
           && jsonrpc_session_is_connected(idl->session);
}

bool
ovsdb_idl_is_alive(const struct ovsdb_idl *idl)
{
    return jsonrpc_session_is_alive(idl->session)
           && idl->state != IDL_S_NO_SCHEMA;
}

int
ovsdb_idl_get_last_error(const struct ovsdb_idl *idl)
{
    int err = jsonrpc_session_get_last_error(idl->session);
    if (!err && idl->state == IDL_S_NO_SCHEMA) {
        return ENOENT;
    }
    return err;
}

void
ovsdb_idl_force_reconnect(struct ovsdb_idl *idl)
{
    jsonrpc_session_force_reconnect(idl->session);
}

void
ovsdb_idl_set_probe_interval(const struct ovsdb_idl *idl, int msec)
{
    jsonrpc_session_set_probe_interval(idl->session, msec);
}

const char *
ovsdb_idl_get_monitor_method(const struct ovsdb_idl *idl)
{
    return (idl->has_ever_connected
            ? ovsdb_idl_monitor_method_name(idl->active_monitor_version)
            : NULL);
}

void
ovsdb_idl_wait_for_replica_block(struct ovsdb_idl *idl)
{
    for (;;) {
        ovsdb_idl_run(idl);
        if (idl->state == IDL_S_MONITORING || !ovsdb_idl_is_alive(idl)) {
            return;
        }
        ovsdb_idl_wait(idl);
        poll_block();
    }
}

/* Locks. */

static void
ovsdb_idl_send_lock_request(struct ovsdb_idl *idl, const char *method,
                            const char *name)
{
    json_t **idp = NULL;
    if (!strcmp(method, "lock")) {
        json_decref(idl->lock_request_id);
        idl->lock_request_id = NULL;
        idp = &idl->lock_request_id;
    }
    jsonrpc_session_send(idl->session,
                         jsonrpc_create_request(method,
                                                json_pack("[s]", name), idp));
}

void
ovsdb_idl_set_lock(struct ovsdb_idl *idl, const char *lock_name)
{
    if (idl->lock_name && lock_name && !strcmp(idl->lock_name, lock_name)) {
        return;
    }
    if (idl->lock_name) {
        if (jsonrpc_session_is_connected(idl->session)) {
            ovsdb_idl_send_lock_request(idl, "unlock", idl->lock_name);
        }
        free(idl->lock_name);
        idl->lock_name = NULL;
        idl->has_lock = false;
        idl->is_lock_contended = false;
        json_decref(idl->lock_request_id);
        idl->lock_request_id = NULL;
    }
    if (lock_name) {
        idl->lock_name = xstrdup(lock_name);
        /* Before the server is chosen, the lock is asked for once it is
         * (ovsdb_idl_handle_server_reply()). */
        if (jsonrpc_session_is_connected(idl->session)
            && idl->state != IDL_S_DISCONNECTED
            && idl->state != IDL_S_SERVER_REQUESTED) {
            ovsdb_idl_send_lock_request(idl, "lock", lock_name);
        }
    }
}

bool
ovsdb_idl_has_lock(const struct ovsdb_idl *idl)
{
    return idl->has_lock;
}

bool
ovsdb_idl_is_lock_contended(const struct ovsdb_idl *idl)
{
    return idl->is_lock_contended;
}
