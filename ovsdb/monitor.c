/* The monitor methods of one JSON-RPC session: see monitor.h.
 *
 * Each database with monitors (or a history) has one struct mon_db, which
 * is the database's single monitor observer.  A commit is turned into
 * per-table change lists once; then, for each distinct shape of monitor
 * (monitor-shape.h), the table-updates are composed once per format and
 * the same JSON goes to every monitor of that shape. */
#include <config.h>
#include "monitor.h"

#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "hmap.h"
#include "jsonrpc.h"
#include "list.h"
#include "monitor-history.h"
#include "monitor-shape.h"
#include "ovsdb-error.h"
#include "ovsdb-parser.h"
#include "ovsdb-schema.h"
#include "ovsdb.h"
#include "row.h"
#include "shash.h"
#include "smap.h"
#include "table.h"
#include "transaction.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_monitor);

enum mon_version {
    MON_V1,                     /* "monitor": "update". */
    MON_V2,                     /* "monitor_cond": "update2". */
    MON_V3                      /* "monitor_cond_since": "update3". */
};

/* Monitors and history of one database. */
struct mon_db {
    struct ovsdb_observer observer;     /* In db->observers. */
    struct hmap_node node;              /* In all_mon_dbs. */
    struct ovsdb *db;
    struct hmap shapes;                 /* struct mon_shape, by key. */
    struct ovs_list monitors;           /* struct ovsdb_monitor, oldest
                                         * first: the order in which they
                                         * hear of a commit. */
    size_t n_monitors;
    struct mon_history *history;        /* NULL if not tracked. */
};

struct ovsdb_monitor {
    struct hmap_node session_node;      /* In session->monitors. */
    struct ovs_list shape_node;         /* In shape->monitors. */
    struct ovs_list db_node;            /* In mdb->monitors. */
    struct ovsdb_monitor_session *session;
    json_t *id;
    enum mon_version version;
    struct mon_db *mdb;
    struct mon_shape *shape;
    struct uuid last_sent;              /* MON_V3: the last transaction id
                                         * the client got from us. */
};

struct ovsdb_monitor_session {
    ovsdb_monitor_send_func *send;
    void *aux;
    struct hmap monitors;               /* struct ovsdb_monitor, by id. */
};

/* The engine is single-threaded, so one process-wide map will do. */
static struct hmap all_mon_dbs = HMAP_INITIALIZER(&all_mon_dbs);

static const struct ovsdb_observer_class mon_db_observer_class;

static void monitor_destroy(struct ovsdb_monitor *);

/* Databases. */

static struct mon_db *
mon_db_find(const struct ovsdb *db)
{
    struct mon_db *mdb;

    HMAP_FOR_EACH_WITH_HASH (mdb, node, hash_pointer(db, 0), &all_mon_dbs) {
        if (mdb->db == db) {
            return mdb;
        }
    }
    return NULL;
}

static struct mon_db *
mon_db_get(struct ovsdb *db)
{
    struct mon_db *mdb = mon_db_find(db);
    if (!mdb) {
        mdb = xzalloc(sizeof *mdb);
        mdb->observer.class = &mon_db_observer_class;
        mdb->db = db;
        hmap_init(&mdb->shapes);
        ovs_list_init(&mdb->monitors);
        hmap_insert(&all_mon_dbs, &mdb->node, hash_pointer(db, 0));
        ovsdb_add_observer(db, &mdb->observer);
    }
    return mdb;
}

static void
mon_db_free(struct mon_db *mdb)
{
    hmap_remove(&all_mon_dbs, &mdb->node);
    hmap_destroy(&mdb->shapes);
    mon_history_destroy(mdb->history);
    free(mdb);
}

/* Detaches and frees MDB once nothing needs it. */
static void
mon_db_release(struct mon_db *mdb)
{
    if (!mdb->n_monitors && !mdb->history) {
        ovsdb_remove_observer(mdb->db, &mdb->observer);
        mon_db_free(mdb);
    }
}

/* Returns the shape of MDB equal to the one made of TABLES (N of them,
 * taken over), creating it if needed. */
static struct mon_shape *
mon_db_intern_shape(struct mon_db *mdb, struct mon_table *tables, size_t n)
{
    struct mon_shape *shape = mon_shape_create(tables, n);
    uint32_t hash = hash_string(shape->key, 0);
    struct mon_shape *old;

    HMAP_FOR_EACH_WITH_HASH (old, node, hash, &mdb->shapes) {
        if (!strcmp(old->key, shape->key)) {
            mon_shape_destroy(shape);
            return old;
        }
    }
    hmap_insert(&mdb->shapes, &shape->node, hash);
    return shape;
}

static const struct uuid *
mon_db_last_txnid(const struct mon_db *mdb)
{
    return (mdb->history
            ? mon_history_last_txnid(mdb->history)
            : &mdb->db->last_txnid);
}

/* How many atoms DB will hold once the transaction with CHANGES, which is
 * committing, is complete. */
static size_t
atoms_after(const struct ovsdb *db, const struct mon_changes *changes)
{
    long long int n = db->n_atoms;
    const struct mon_table_changes *tc;
    HMAP_FOR_EACH (tc, node, &changes->tables) {
        for (size_t i = 0; i < tc->n_changes; i++) {
            const struct mon_change *ch = &tc->changes[i];
            n += ((ch->new ? (long long int) ovsdb_row_count_atoms(ch->new)
                   : 0)
                  - (ch->old ? (long long int) ovsdb_row_count_atoms(ch->old)
                     : 0));
        }
    }
    return n > 0 ? n : 0;
}

/* Adds the transaction TXNID with CHANGES to DB's history, within bounds:
 * for a clustered database Open vSwitch's, the history holding no more
 * atoms than the database (but for its newest transaction); for the
 * others, which Open vSwitch keeps no history for, about as many row
 * changes as the database has rows, or 1000, so that even a small
 * database resumes clients from far back. */
static void
history_add(struct mon_db *mdb, const struct uuid *txnid,
            const struct mon_changes *changes)
{
    const struct ovsdb *db = mdb->db;
    if (db->cluster) {
        mon_history_add(mdb->history, txnid, changes, SIZE_MAX,
                        atoms_after(db, changes));
    } else {
        size_t n_rows = 0;
        const struct shash_node *node;
        SHASH_FOR_EACH (node, &db->tables) {
            const struct ovsdb_table *table = node->data;
            n_rows += hmap_count(&table->rows);
        }
        mon_history_add(mdb->history, txnid, changes, MAX(n_rows, 1000),
                        SIZE_MAX);
    }
}

static bool
collect_change(const struct ovsdb_row *old, const struct ovsdb_row *new,
               const unsigned long int *changed, void *changes_)
{
    struct mon_changes *changes = changes_;
    const struct ovsdb_row *row = new ? new : old;

    mon_changes_add(changes, row->table, old, new, changed);
    return true;
}

static void
monitor_send_update(const struct ovsdb_monitor *m, json_t *updates,
                    const char *txnid)
{
    json_t *params = json_array();
    const char *method;

    json_array_append(params, m->id);
    switch (m->version) {
    case MON_V1:
        method = "update";
        break;
    case MON_V2:
        method = "update2";
        break;
    case MON_V3:
    default:
        method = "update3";
        json_array_append_new(params, json_string(txnid));
        break;
    }
    json_array_append(params, updates);
    m->session->send(m->session->aux, jsonrpc_create_notify(method, params));
}

static struct ovsdb_error *
mon_db_commit(struct ovsdb_observer *observer, const struct ovsdb_txn *txn,
              bool durable OVS_UNUSED)
{
    struct mon_db *mdb = CONTAINER_OF(observer, struct mon_db, observer);
    const struct uuid *txnid = ovsdb_txn_get_txnid(txn);
    struct mon_changes changes;

    mon_changes_init(&changes);
    ovsdb_txn_for_each_change(txn, collect_change, &changes);

    if (mdb->history) {
        history_add(mdb, txnid, &changes);
    }

    if (changes.n_changes) {
        char txnid_s[UUID_LEN + 1];
        struct ovsdb_monitor *m;
        struct mon_shape *shape;

        /* Each shape's updates are composed once, by its first monitor,
         * and shared by the rest. */
        uuid_format(txnid, txnid_s);
        LIST_FOR_EACH (m, db_node, &mdb->monitors) {
            enum mon_format fmt = (m->version == MON_V1
                                   ? MON_FMT_V1 : MON_FMT_V2);
            shape = m->shape;
            if (!shape->composed[fmt]) {
                shape->updates[fmt] = mon_shape_compose_changes(shape, fmt,
                                                                &changes);
                shape->composed[fmt] = true;
            }
            if (shape->updates[fmt]) {
                monitor_send_update(m, shape->updates[fmt], txnid_s);
                m->last_sent = *txnid;
            }
        }
        HMAP_FOR_EACH (shape, node, &mdb->shapes) {
            mon_shape_forget_initial(shape);
            for (int i = 0; i < MON_N_FORMATS; i++) {
                json_decref(shape->updates[i]);
                shape->updates[i] = NULL;
                shape->composed[i] = false;
            }
        }
    }
    mon_changes_destroy(&changes);
    return NULL;
}

/* The database is going away with monitors still on it (its users should
 * have called ovsdb_monitor_session_forget_db() and
 * ovsdb_monitor_forget_history() first): drop them quietly. */
static void
mon_db_observer_destroy(struct ovsdb_observer *observer)
{
    struct mon_db *mdb = CONTAINER_OF(observer, struct mon_db, observer);
    struct mon_shape *shape;

    HMAP_FOR_EACH_SAFE (shape, node, &mdb->shapes) {
        struct ovsdb_monitor *m;
        LIST_FOR_EACH_SAFE (m, shape_node, &shape->monitors) {
            hmap_remove(&m->session->monitors, &m->session_node);
            ovs_list_remove(&m->shape_node);
            ovs_list_remove(&m->db_node);
            json_decref(m->id);
            free(m);
        }
        hmap_remove(&mdb->shapes, &shape->node);
        mon_shape_destroy(shape);
    }
    mon_db_free(mdb);
}

static const struct ovsdb_observer_class mon_db_observer_class = {
    .commit = mon_db_commit,
    .destroy = mon_db_observer_destroy,
};

void
ovsdb_monitor_track_history(struct ovsdb *db)
{
    struct mon_db *mdb = mon_db_get(db);
    if (!mdb->history) {
        mdb->history = mon_history_create(&db->last_txnid);
    }
}

void
ovsdb_monitor_forget_history(struct ovsdb *db)
{
    struct mon_db *mdb = mon_db_find(db);
    if (mdb && mdb->history) {
        mon_history_destroy(mdb->history);
        mdb->history = NULL;
        mon_db_release(mdb);
    }
}

void
ovsdb_monitor_get_memory_usage(const struct ovsdb *db, struct smap *usage)
{
    const struct mon_db *mdb = mon_db_find(db);
    if (mdb && mdb->history && mon_history_n_txns(mdb->history)) {
        smap_increase_ullong(usage, "txn-history",
                             mon_history_n_txns(mdb->history));
        smap_increase_ullong(usage, "txn-history-atoms",
                             mon_history_n_atoms(mdb->history));
    }
}

/* Sessions and monitors. */

struct ovsdb_monitor_session *
ovsdb_monitor_session_create(ovsdb_monitor_send_func *send, void *aux)
{
    struct ovsdb_monitor_session *s = xzalloc(sizeof *s);
    s->send = send;
    s->aux = aux;
    hmap_init(&s->monitors);
    return s;
}

void
ovsdb_monitor_session_destroy(struct ovsdb_monitor_session *s)
{
    if (s) {
        struct ovsdb_monitor *m;
        HMAP_FOR_EACH_SAFE (m, session_node, &s->monitors) {
            monitor_destroy(m);
        }
        hmap_destroy(&s->monitors);
        free(s);
    }
}

size_t
ovsdb_monitor_session_count(const struct ovsdb_monitor_session *s)
{
    return hmap_count(&s->monitors);
}

bool
ovsdb_monitor_is_method(const char *method)
{
    return (!strcmp(method, "monitor")
            || !strcmp(method, "monitor_cond")
            || !strcmp(method, "monitor_cond_since")
            || !strcmp(method, "monitor_cond_change")
            || !strcmp(method, "monitor_cancel"));
}

static uint32_t
monitor_id_hash(const json_t *id)
{
    char *s = json_dumps(id, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    uint32_t hash = hash_string(s ? s : "", 0);
    free(s);
    return hash;
}

static struct ovsdb_monitor *
monitor_find(const struct ovsdb_monitor_session *s, const json_t *id)
{
    struct ovsdb_monitor *m;

    HMAP_FOR_EACH_WITH_HASH (m, session_node, monitor_id_hash(id),
                             &s->monitors) {
        if (json_equal(m->id, id)) {
            return m;
        }
    }
    return NULL;
}

static void
monitor_set_shape(struct ovsdb_monitor *m, struct mon_shape *shape)
{
    struct mon_shape *old = m->shape;

    if (old) {
        ovs_list_remove(&m->shape_node);
    }
    m->shape = shape;
    ovs_list_push_back(&shape->monitors, &m->shape_node);
    if (old && ovs_list_is_empty(&old->monitors)) {
        hmap_remove(&m->mdb->shapes, &old->node);
        mon_shape_destroy(old);
    }
}

static void
monitor_destroy(struct ovsdb_monitor *m)
{
    struct mon_db *mdb = m->mdb;

    hmap_remove(&m->session->monitors, &m->session_node);
    ovs_list_remove(&m->shape_node);
    ovs_list_remove(&m->db_node);
    if (ovs_list_is_empty(&m->shape->monitors)) {
        hmap_remove(&mdb->shapes, &m->shape->node);
        mon_shape_destroy(m->shape);
    }
    json_decref(m->id);
    free(m);

    mdb->n_monitors--;
    mon_db_release(mdb);
}

size_t
ovsdb_monitor_session_forget_db(struct ovsdb_monitor_session *s,
                                struct ovsdb *db, bool notify)
{
    struct ovsdb_monitor *m;
    size_t n = 0;

    HMAP_FOR_EACH_SAFE (m, session_node, &s->monitors) {
        if (m->mdb->db == db) {
            if (notify) {
                json_t *params = json_array();
                json_array_append(params, m->id);
                s->send(s->aux,
                        jsonrpc_create_notify("monitor_canceled", params));
            }
            monitor_destroy(m);
            n++;
        }
    }
    return n;
}

/* Request parsing. */

static bool
parse_bool(struct ovsdb_parser *parser, const char *name, bool default_value)
{
    const json_t *json = ovsdb_parser_member(parser, name,
                                             OP_BOOLEAN | OP_OPTIONAL);
    return json ? json_is_true(json) : default_value;
}

static struct ovsdb_error *
parse_select(const struct ovsdb_table_schema *ts, const json_t *json,
             unsigned int *selectp)
{
    struct ovsdb_parser parser;
    unsigned int select = 0;

    ovsdb_parser_init(&parser, json, "table %s select", ts->name);
    if (parse_bool(&parser, "initial", true)) {
        select |= MON_INITIAL;
    }
    if (parse_bool(&parser, "insert", true)) {
        select |= MON_INSERT;
    }
    if (parse_bool(&parser, "delete", true)) {
        select |= MON_DELETE;
    }
    if (parse_bool(&parser, "modify", true)) {
        select |= MON_MODIFY;
    }
    *selectp = select;
    return ovsdb_parser_finish(&parser);
}

static struct ovsdb_error *
parse_columns(struct mon_table *mt, const json_t *columns,
              unsigned int select)
{
    const struct ovsdb_table_schema *ts = mt->table->schema;

    if (!columns) {
        for (size_t i = 0; i < ts->n_columns; i++) {
            const struct ovsdb_column *c = ts->columns_by_index[i];
            if (c->index != OVSDB_COL_UUID
                && !mon_table_add_column(mt, c, select)) {
                return ovsdb_syntax_error(NULL, NULL,
                                          "column %s mentioned more than "
                                          "once", c->name);
            }
        }
        return NULL;
    }

    size_t i;
    const json_t *name;
    json_array_foreach (columns, i, name) {
        const struct ovsdb_column *c;

        if (!json_is_string(name)) {
            return ovsdb_syntax_error(columns, NULL,
                                      "array of column names expected");
        }
        c = ovsdb_table_schema_get_column(ts, json_string_value(name));
        if (!c) {
            return ovsdb_syntax_error(columns, NULL,
                                      "%s is not a valid column name",
                                      json_string_value(name));
        }
        if (!mon_table_add_column(mt, c, select)) {
            return ovsdb_syntax_error(columns, NULL,
                                      "column %s mentioned more than once",
                                      c->name);
        }
    }
    return NULL;
}

/* Parses one <monitor-request> for MT.  With CONDITIONAL (monitor_cond and
 * later) it may have a "where"; the table keeps the condition of its first
 * request (*HAVE_COND tells whether it has one yet). */
static struct ovsdb_error *
parse_monitor_request(struct mon_table *mt, const json_t *request,
                      bool conditional, bool *have_cond)
{
    const struct ovsdb_table_schema *ts = mt->table->schema;
    const json_t *where = NULL, *columns, *select_json;
    struct ovsdb_parser parser;
    struct ovsdb_error *error;
    unsigned int select = MON_SELECT_ALL;

    ovsdb_parser_init(&parser, request, "table %s", ts->name);
    if (conditional) {
        where = ovsdb_parser_member(&parser, "where", OP_ARRAY | OP_OPTIONAL);
    }
    columns = ovsdb_parser_member(&parser, "columns", OP_ARRAY | OP_OPTIONAL);
    select_json = ovsdb_parser_member(&parser, "select",
                                      OP_OBJECT | OP_OPTIONAL);
    error = ovsdb_parser_finish(&parser);
    if (error) {
        return error;
    }

    if (select_json) {
        error = parse_select(ts, select_json, &select);
        if (error) {
            return error;
        }
    }
    mt->select |= select;

    error = parse_columns(mt, columns, select);
    if (error) {
        return error;
    }

    if (conditional) {
        struct ovsdb_condition cond = OVSDB_CONDITION_INITIALIZER;

        if (where) {
            error = ovsdb_condition_from_json(ts, where, NULL, &cond);
            if (error) {
                return error;
            }
        }
        if (!*have_cond) {
            mon_table_set_condition(mt, &cond);
            *have_cond = true;
        }
        ovsdb_condition_destroy(&cond);
    }
    return NULL;
}

static void
destroy_tables(struct mon_table *tables, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        mon_table_destroy(&tables[i]);
    }
    free(tables);
}

static int
compare_mon_tables(const void *a_, const void *b_)
{
    const struct mon_table *a = a_, *b = b_;
    return strcmp(a->table->schema->name, b->table->schema->name);
}

/* Parses <monitor-requests> (an object) for DB into *TABLESP and *NP. */
static struct ovsdb_error *
parse_monitor_requests(const struct ovsdb *db, json_t *requests,
                       bool conditional, struct mon_table **tablesp,
                       size_t *np)
{
    size_t n_max = json_object_size(requests);
    struct mon_table *tables = xcalloc(MAX(n_max, 1), sizeof *tables);
    struct ovsdb_error *error = NULL;
    size_t n = 0;
    const char *name;
    json_t *value;

    json_object_foreach (requests, name, value) {
        const struct ovsdb_table *table = ovsdb_get_table(db, name);
        struct mon_table *mt;
        bool have_cond = false;

        if (!table) {
            error = ovsdb_syntax_error(NULL, NULL, "no table named %s", name);
            break;
        }
        mt = &tables[n++];
        mon_table_init(mt, table);
        if (json_is_array(value)) {
            size_t i;
            json_t *request;

            json_array_foreach (value, i, request) {
                error = parse_monitor_request(mt, request, conditional,
                                              &have_cond);
                if (error) {
                    break;
                }
            }
        } else {
            error = parse_monitor_request(mt, value, conditional,
                                          &have_cond);
        }
        if (error) {
            break;
        }
        mon_table_finish(mt);
    }

    if (error) {
        destroy_tables(tables, n);
        return error;
    }
    qsort(tables, n, sizeof *tables, compare_mon_tables);
    *tablesp = tables;
    *np = n;
    return NULL;
}

static struct ovsdb *
lookup_db(const struct shash *dbs, const char *method, const json_t *params,
          struct ovsdb_error **errorp)
{
    const json_t *name = json_array_get(params, 0);
    struct ovsdb *db;

    if (!name || !json_is_string(name)) {
        *errorp = ovsdb_syntax_error(params, NULL, "%s request params must "
                                     "begin with <db-name>", method);
        return NULL;
    }
    db = shash_find_data(dbs, json_string_value(name));
    if (!db) {
        *errorp = ovsdb_syntax_error(params, "unknown database",
                                     "%s request specifies unknown "
                                     "database %s",
                                     method, json_string_value(name));
    }
    return db;
}

static json_t *
txnid_to_json(const struct uuid *txnid)
{
    char s[UUID_LEN + 1];
    uuid_format(txnid, s);
    return json_string(s);
}

/* monitor, monitor_cond, monitor_cond_since. */
static json_t *
monitor_create(struct ovsdb_monitor_session *s, struct ovsdb *db,
               json_t *params, enum mon_version version,
               struct ovsdb_error **errorp)
{
    size_t n_params = json_array_size(params);
    struct mon_table *tables;
    size_t n_tables;

    /* Open vSwitch ignores extra parameters of "monitor". */
    if (version == MON_V1
        ? n_params < 3
        : n_params != (version == MON_V3 ? 4 : 3)) {
        *errorp = ovsdb_syntax_error(params, NULL, "invalid parameters");
        return NULL;
    }

    json_t *id = json_array_get(params, 1);
    json_t *requests = json_array_get(params, 2);
    if (!json_is_object(requests)) {
        *errorp = ovsdb_syntax_error(requests, NULL,
                                     "monitor-requests must be object");
        return NULL;
    }
    if (monitor_find(s, id)) {
        *errorp = ovsdb_syntax_error(id, NULL, "duplicate monitor ID");
        return NULL;
    }

    *errorp = parse_monitor_requests(db, requests, version != MON_V1,
                                     &tables, &n_tables);
    if (*errorp) {
        return NULL;
    }

    struct uuid last_txnid;
    uuid_zero(&last_txnid);
    if (version == MON_V3) {
        const json_t *last = json_array_get(params, 3);
        if (!json_is_string(last)) {
            *errorp = ovsdb_syntax_error(last, NULL,
                                         "last-txn-id must be string");
        } else if (!uuid_from_string(&last_txnid, json_string_value(last))) {
            *errorp = ovsdb_syntax_error(last, NULL,
                                         "last-txn-id must be UUID format.");
        }
        if (*errorp) {
            destroy_tables(tables, n_tables);
            return NULL;
        }
    }

    struct mon_db *mdb = mon_db_get(db);
    struct ovsdb_monitor *m = xzalloc(sizeof *m);
    m->session = s;
    m->id = json_incref(id);
    m->version = version;
    m->mdb = mdb;
    mdb->n_monitors++;
    ovs_list_push_back(&mdb->monitors, &m->db_node);
    hmap_insert(&s->monitors, &m->session_node, monitor_id_hash(id));
    monitor_set_shape(m, mon_db_intern_shape(mdb, tables, n_tables));

    enum mon_format fmt = version == MON_V1 ? MON_FMT_V1 : MON_FMT_V2;
    json_t *updates = NULL;
    bool found = false;
    if (version == MON_V3 && mdb->history) {
        struct mon_changes changes;

        mon_changes_init(&changes);
        if (mon_history_changes_since(mdb->history, &last_txnid, &changes)) {
            found = true;
            updates = mon_shape_compose_changes(m->shape, fmt, &changes);
        }
        mon_changes_destroy(&changes);
    }
    if (!found) {
        updates = mon_shape_compose_initial(m->shape, fmt);
    }
    if (!updates) {
        updates = json_object();
    }

    if (version != MON_V3) {
        return updates;
    }
    m->last_sent = *mon_db_last_txnid(mdb);
    json_t *result = json_array();
    json_array_append_new(result, json_boolean(found));
    json_array_append_new(result, txnid_to_json(&m->last_sent));
    json_array_append_new(result, updates);
    return result;
}

/* One <monitor-cond-change-request> for MT. */
static struct ovsdb_error *
parse_cond_change_request(struct mon_table *mt, const json_t *request,
                          bool conditional)
{
    const struct ovsdb_table_schema *ts = mt->table->schema;
    struct ovsdb_parser parser;
    struct ovsdb_error *error;

    ovsdb_parser_init(&parser, request, "table %s", ts->name);
    if (ovsdb_parser_member(&parser, "columns", OP_ARRAY | OP_OPTIONAL)) {
        ovsdb_parser_destroy(&parser);
        return ovsdb_syntax_error(request, NULL,
                                  "changing columns is unsupported");
    }
    const json_t *where = ovsdb_parser_member(&parser, "where",
                                              OP_ARRAY | OP_OPTIONAL);
    error = ovsdb_parser_finish(&parser);
    if (error || !where || !conditional) {
        /* "monitor" has no condition to change. */
        return error;
    }

    struct ovsdb_condition cond = OVSDB_CONDITION_INITIALIZER;
    error = ovsdb_condition_from_json(ts, where, NULL, &cond);
    if (!error) {
        mon_table_set_condition(mt, &cond);
        ovsdb_condition_destroy(&cond);
    }
    return error;
}

static json_t *
monitor_cond_change(struct ovsdb_monitor_session *s, json_t *params,
                    struct ovsdb_error **errorp)
{
    if (json_array_size(params) != 3) {
        *errorp = ovsdb_syntax_error(params, NULL, "invalid parameters");
        return NULL;
    }

    json_t *id = json_array_get(params, 0);
    struct ovsdb_monitor *m = monitor_find(s, id);
    if (!m) {
        *errorp = ovsdb_syntax_error(id, NULL, "unknown monitor session");
        return NULL;
    }

    json_t *new_id = json_array_get(params, 1);
    bool changing_id = !json_equal(m->id, new_id);
    if (changing_id && monitor_find(s, new_id)) {
        *errorp = ovsdb_syntax_error(new_id, NULL, "duplicate monitor ID");
        return NULL;
    }

    json_t *requests = json_array_get(params, 2);
    if (!json_is_object(requests)) {
        *errorp = ovsdb_syntax_error(NULL, NULL, "monitor-cond-change-"
                                     "requests must be object");
        return NULL;
    }

    /* Work on a copy so that a bad request changes nothing. */
    const struct mon_shape *old_shape = m->shape;
    size_t n_tables = old_shape->n_tables;
    struct mon_table *tables = xcalloc(MAX(n_tables, 1), sizeof *tables);
    for (size_t i = 0; i < n_tables; i++) {
        mon_table_clone(&tables[i], &old_shape->tables[i]);
    }

    struct ovsdb_error *error = NULL;
    const char *name;
    json_t *value;
    json_object_foreach (requests, name, value) {
        const struct ovsdb_table *table = ovsdb_get_table(m->mdb->db, name);
        struct mon_table *mt = NULL;

        if (!table) {
            error = ovsdb_syntax_error(NULL, NULL, "no table named %s", name);
            break;
        }
        for (size_t i = 0; i < n_tables; i++) {
            if (tables[i].table == table) {
                mt = &tables[i];
            }
        }
        if (!mt) {
            error = ovsdb_syntax_error(NULL, NULL, "no table named %s in "
                                       "monitor session", name);
            break;
        }
        if (!json_is_array(value)) {
            error = ovsdb_syntax_error(NULL, NULL, "table %s no "
                                       "monitor-cond-change JSON array",
                                       name);
            break;
        }

        size_t i;
        json_t *request;
        json_array_foreach (value, i, request) {
            error = parse_cond_change_request(mt, request,
                                              m->version != MON_V1);
            if (error) {
                break;
            }
        }
        if (error) {
            break;
        }
    }
    if (error) {
        destroy_tables(tables, n_tables);
        *errorp = error;
        return NULL;
    }

    if (changing_id) {
        hmap_remove(&s->monitors, &m->session_node);
        json_decref(m->id);
        m->id = json_incref(new_id);
        hmap_insert(&s->monitors, &m->session_node, monitor_id_hash(new_id));
    }

    json_t *updates = NULL;
    if (m->version == MON_V1) {
        destroy_tables(tables, n_tables);
    } else {
        for (size_t i = 0; i < n_tables; i++) {
            mon_table_finish(&tables[i]);
        }
        struct mon_shape *new_shape = mon_db_intern_shape(m->mdb, tables,
                                                          n_tables);
        if (new_shape != m->shape) {
            updates = mon_shape_compose_cond_change(m->shape, new_shape);
            monitor_set_shape(m, new_shape);
        }
    }

    /* The client's replica now reflects the current contents, so the
     * last transaction id it knows must be the current one too, or after
     * a reconnection monitor_cond_since would send it changes (under the
     * new condition) that it already has.  update3 carries the id: send
     * one, even without rows, if the client's id is stale.  (Open vSwitch
     * sends only non-empty updates.)  Open vSwitch sends the update before
     * the reply. */
    const struct uuid *last = mon_db_last_txnid(m->mdb);
    if (m->version == MON_V3 && !updates
        && !uuid_equals(&m->last_sent, last)) {
        updates = json_object();
    }
    if (updates) {
        char txnid_s[UUID_LEN + 1];
        uuid_format(last, txnid_s);
        monitor_send_update(m, updates, txnid_s);
        m->last_sent = *last;
        json_decref(updates);
    }
    return json_object();
}

struct jsonrpc_msg *
ovsdb_monitor_session_handle(struct ovsdb_monitor_session *s,
                             const struct shash *dbs,
                             const struct jsonrpc_msg *request)
{
    const char *method = request->method;
    json_t *params = request->params;
    struct ovsdb_error *error = NULL;
    json_t *error_json = NULL;
    json_t *result = NULL;

    if (!strcmp(method, "monitor")
        || !strcmp(method, "monitor_cond")
        || !strcmp(method, "monitor_cond_since")) {
        enum mon_version version = (!strcmp(method, "monitor") ? MON_V1
                                    : !strcmp(method, "monitor_cond") ? MON_V2
                                    : MON_V3);
        struct ovsdb *db = lookup_db(dbs, method, params, &error);
        if (db) {
            result = monitor_create(s, db, params, version, &error);
        }
    } else if (!strcmp(method, "monitor_cond_change")) {
        result = monitor_cond_change(s, params, &error);
    } else if (!strcmp(method, "monitor_cancel")) {
        if (json_array_size(params) != 1) {
            error_json = json_string("invalid parameters");
        } else {
            struct ovsdb_monitor *m = monitor_find(s,
                                                   json_array_get(params, 0));
            if (!m) {
                error_json = json_string("unknown monitor");
            } else {
                monitor_destroy(m);
                result = json_object();
            }
        }
    } else {
        error_json = json_string("unknown method");
    }

    if (error) {
        error_json = ovsdb_error_to_json_free(error);
    }
    return (error_json
            ? jsonrpc_create_error(error_json, json_incref(request->id))
            : jsonrpc_create_reply(result, json_incref(request->id)));
}
