#include <config.h>
#include "ovsdb/server-db.h"

#include <jansson.h>
#include <string.h>

#include "hmap.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "ovsdb-types.h"
#include "ovsdb/cluster.h"
#include "ovsdb/ovsdb.h"
#include "ovsdb/raft.h"
#include "ovsdb/row.h"
#include "ovsdb/table.h"
#include "ovsdb/transaction.h"
#include "shash.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(server_db);

static const char server_schema_text[] =
#include "ovsdb/_server.ovsschema.inc"
    ;

const char *
server_db_schema_text(void)
{
    return server_schema_text;
}

struct ovsdb *
server_db_create(void)
{
    json_error_t json_error;
    json_t *json = json_loads(server_schema_text, 0, &json_error);
    if (!json) {
        ovs_abort(0, "built-in _Server schema: %s", json_error.text);
    }

    struct ovsdb_schema *schema;
    struct ovsdb_error *error = ovsdb_schema_from_json(json, &schema);
    json_decref(json);
    ovsdb_error_assert(error);
    return ovsdb_create(schema);
}

/* The columns of "Database", looked up once per update. */
struct db_columns {
    const struct ovsdb_column *name, *model, *connected, *leader, *schema;
    const struct ovsdb_column *cid, *sid, *index;
};

/* Makes DATUM hold at most one atom: ATOM if nonnull, else none. */
static void
set_optional(struct ovsdb_datum *datum, const struct ovsdb_type *type,
             const union ovsdb_atom *atom)
{
    ovsdb_datum_destroy(datum, type);
    datum->n = atom ? 1 : 0;
    datum->keys = atom ? xmemdup(atom, sizeof *atom) : NULL;
    datum->values = NULL;
}

static bool
datum_is_optional(const struct ovsdb_datum *datum,
                  const struct ovsdb_type *type,
                  const union ovsdb_atom *atom)
{
    if (!atom) {
        return datum->n == 0;
    }
    return (datum->n == 1
            && ovsdb_atom_equals(&datum->keys[0], atom, type->key.type));
}

static void
set_string(struct ovsdb_datum *datum, const struct ovsdb_type *type,
           const char *s)
{
    ovsdb_datum_destroy(datum, type);
    datum->n = 1;
    datum->keys = xmalloc(sizeof *datum->keys);
    datum->keys[0].string = xstrdup(s);
    datum->values = NULL;
}

static void
set_bool(struct ovsdb_datum *datum, const struct ovsdb_type *type, bool b)
{
    ovsdb_datum_destroy(datum, type);
    datum->n = 1;
    datum->keys = xmalloc(sizeof *datum->keys);
    datum->keys[0].boolean = b;
    datum->values = NULL;
}

static bool
datum_is_string(const struct ovsdb_datum *datum, const char *s)
{
    return datum->n == 1 && !strcmp(datum->keys[0].string, s);
}

static bool
datum_is_bool(const struct ovsdb_datum *datum, bool b)
{
    return datum->n == 1 && datum->keys[0].boolean == b;
}

static char *
schema_to_string(const struct ovsdb_schema *schema)
{
    json_t *json = ovsdb_schema_to_json(schema);
    char *s = json_dumps(json, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(json);
    return s;
}

/* What the row for DB says about its storage: a file (or nothing) is
 * "standalone", always connected and its own leader; a relay's copy is
 * connected while it follows its upstream, and never the leader; a
 * clustered database says what its Raft server knows, plus the cluster and
 * server ids and the index of the last entry applied. */
struct db_status {
    const char *model;
    bool connected;
    bool leader;
    bool clustered;
    union ovsdb_atom cid, sid, index;
};

static struct db_status
db_status(const struct ovsdb *db)
{
    if (db->cluster) {
        const struct raft *raft = ovsdb_cluster_get_raft(db->cluster);
        struct db_status st = {
            .model = "clustered",
            .connected = raft_is_connected(raft),
            .leader = raft_is_leader(raft),
            .clustered = true,
        };
        st.cid.uuid = *raft_get_cid(raft);
        st.sid.uuid = *raft_get_sid(raft);
        st.index.integer = raft_get_applied_index(raft);
        return st;
    }
    return (db->relay
            ? (struct db_status) { .model = "relay",
                                   .connected = db->relay_connected }
            : (struct db_status) { .model = "standalone", .connected = true,
                                   .leader = true });
}

/* True if ROW already says what DB's row should say. */
static bool
row_is_current(const struct ovsdb_row *row, const struct db_columns *c,
               const struct db_status *st, const char *schema_string)
{
    return (datum_is_string(&row->fields[c->model->index], st->model)
            && datum_is_bool(&row->fields[c->connected->index], st->connected)
            && datum_is_bool(&row->fields[c->leader->index], st->leader)
            && datum_is_string(&row->fields[c->schema->index],
                               schema_string)
            && datum_is_optional(&row->fields[c->cid->index], &c->cid->type,
                                 st->clustered ? &st->cid : NULL)
            && datum_is_optional(&row->fields[c->sid->index], &c->sid->type,
                                 st->clustered ? &st->sid : NULL)
            && datum_is_optional(&row->fields[c->index->index],
                                 &c->index->type,
                                 st->clustered ? &st->index : NULL));
}

static void
fill_row(struct ovsdb_row *row, const struct db_columns *c,
         const char *name, const struct db_status *st,
         const char *schema_string)
{
    set_string(&row->fields[c->name->index], &c->name->type, name);
    set_string(&row->fields[c->model->index], &c->model->type, st->model);
    set_bool(&row->fields[c->connected->index], &c->connected->type,
             st->connected);
    set_bool(&row->fields[c->leader->index], &c->leader->type, st->leader);
    set_string(&row->fields[c->schema->index], &c->schema->type,
               schema_string);
    set_optional(&row->fields[c->cid->index], &c->cid->type,
                 st->clustered ? &st->cid : NULL);
    set_optional(&row->fields[c->sid->index], &c->sid->type,
                 st->clustered ? &st->sid : NULL);
    set_optional(&row->fields[c->index->index], &c->index->type,
                 st->clustered ? &st->index : NULL);
}

/* Brings the row for DB (named NAME) up to date in TXN, consuming it from
 * OLD_ROWS (name -> row) if it exists. */
static void
update_db_row(struct ovsdb_txn *txn, struct ovsdb_table *table,
              const struct db_columns *c, struct shash *old_rows,
              const char *name, const struct ovsdb *db)
{
    char *schema_string = schema_to_string(db->schema);
    struct db_status st = db_status(db);
    const struct ovsdb_row *old = shash_find_and_delete(old_rows, name);
    if (!old) {
        struct ovsdb_row *row = ovsdb_row_create(table);
        uuid_generate(ovsdb_row_get_uuid_rw(row));
        fill_row(row, c, name, &st, schema_string);
        ovsdb_txn_row_insert(txn, row);
    } else if (!row_is_current(old, c, &st, schema_string)) {
        struct ovsdb_row *row = ovsdb_txn_row_modify(txn, old);
        fill_row(row, c, name, &st, schema_string);
    }
    free(schema_string);
}

void
server_db_update(struct ovsdb *server_db, const struct shash *dbs)
{
    struct ovsdb_table *table = ovsdb_get_table(server_db, "Database");
    const struct ovsdb_table_schema *ts = table->schema;
    struct db_columns c = {
        .name = ovsdb_table_schema_get_column(ts, "name"),
        .model = ovsdb_table_schema_get_column(ts, "model"),
        .connected = ovsdb_table_schema_get_column(ts, "connected"),
        .leader = ovsdb_table_schema_get_column(ts, "leader"),
        .schema = ovsdb_table_schema_get_column(ts, "schema"),
        .cid = ovsdb_table_schema_get_column(ts, "cid"),
        .sid = ovsdb_table_schema_get_column(ts, "sid"),
        .index = ovsdb_table_schema_get_column(ts, "index"),
    };
    ovs_assert(c.name && c.model && c.connected && c.leader && c.schema
               && c.cid && c.sid && c.index);

    /* Rows that describe no database any more are what remains in
     * OLD_ROWS at the end. */
    struct shash old_rows = SHASH_INITIALIZER(&old_rows);
    const struct ovsdb_row *row;
    HMAP_FOR_EACH (row, hmap_node, &table->rows) {
        const struct ovsdb_datum *name = &row->fields[c.name->index];
        if (name->n == 1) {
            shash_add_once(&old_rows, name->keys[0].string,
                           (struct ovsdb_row *) row);
        }
    }

    struct ovsdb_txn *txn = ovsdb_txn_create(server_db);
    update_db_row(txn, table, &c, &old_rows, server_db->name, server_db);
    struct shash_node *node;
    SHASH_FOR_EACH (node, dbs) {
        const struct ovsdb *db = node->data;
        if (db != server_db) {
            update_db_row(txn, table, &c, &old_rows, node->name, db);
        }
    }
    SHASH_FOR_EACH (node, &old_rows) {
        ovsdb_txn_row_delete(txn, node->data);
    }
    shash_destroy(&old_rows);

    if (ovsdb_txn_is_empty(txn)) {
        ovsdb_txn_abort(txn);
        return;
    }
    struct ovsdb_error *error = ovsdb_txn_commit(txn, false);
    if (error) {
        /* Nothing a client did can make this fail; it would be our bug. */
        char *s = ovsdb_error_to_string_free(error);
        VLOG_ERR("updating _Server database failed: %s", s);
        free(s);
    }
}
