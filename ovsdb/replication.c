#include <config.h>
#include "replication.h"

#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "jsonrpc.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "ovsdb/ovsdb.h"
#include "ovsdb/row.h"
#include "ovsdb/table.h"
#include "ovsdb/table-updates.h"
#include "ovsdb/transaction.h"
#include "shash.h"
#include "sset.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(replication);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

enum rpl_state {
    RPL_CONNECTING,             /* Waiting for a connection. */
    RPL_SERVER_ID,              /* Sent get_server_id. */
    RPL_LIST_DBS,               /* Sent list_dbs. */
    RPL_SCHEMAS,                /* Sent get_schema for each common db. */
    RPL_MONITORS,               /* Sent monitor for each replicable db. */
    RPL_REPLICATING,            /* Every initial copy is in. */
    RPL_GAVE_UP                 /* Self replication, or nothing to copy. */
};

/* One database being replicated. */
struct rpl_db {
    struct ovsdb *db;           /* Ours (owned by ovsdb-server). */
    struct sset tables;         /* Tables we monitor. */
    json_t *request_id;         /* Outstanding get_schema or monitor. */
    bool replicable;            /* The schema check passed. */
};

struct replication {
    char *remote;
    struct jsonrpc_session *js;
    unsigned int seqno;
    enum rpl_state state;
    struct shash dbs;           /* Name -> struct ovsdb *, all we serve. */
    struct shash rdbs;          /* Name -> struct rpl_db *, this session. */
    struct sset excluded;       /* "DB:TABLE". */
    struct uuid server_id;
    json_t *request_id;         /* Outstanding get_server_id or list_dbs. */
    size_t n_pending;           /* Outstanding per-database requests. */
};

static void rpl_reset(struct replication *);

struct replication *
replication_create(const char *remote, const struct shash *dbs,
                   const struct sset *excluded, const struct uuid *server_id)
{
    struct replication *r = xzalloc(sizeof *r);
    r->remote = xstrdup(remote);
    r->js = jsonrpc_session_open(remote, true);
    r->seqno = jsonrpc_session_get_seqno(r->js);
    r->state = RPL_CONNECTING;
    shash_init(&r->dbs);
    struct shash_node *node;
    SHASH_FOR_EACH (node, dbs) {
        if (node->name[0] != '_') {
            shash_add(&r->dbs, node->name, node->data);
        }
    }
    shash_init(&r->rdbs);
    sset_clone(&r->excluded, excluded);
    r->server_id = *server_id;
    return r;
}

static void
rpl_db_destroy(struct rpl_db *rdb)
{
    sset_destroy(&rdb->tables);
    json_decref(rdb->request_id);
    free(rdb);
}

/* Forgets everything about the current session's progress. */
static void
rpl_reset(struct replication *r)
{
    struct shash_node *node;
    SHASH_FOR_EACH_SAFE (node, &r->rdbs) {
        rpl_db_destroy(node->data);
    }
    shash_clear(&r->rdbs);
    json_decref(r->request_id);
    r->request_id = NULL;
    r->n_pending = 0;
    if (r->state != RPL_GAVE_UP) {
        r->state = RPL_CONNECTING;
    }
}

void
replication_destroy(struct replication *r)
{
    if (r) {
        rpl_reset(r);
        shash_destroy(&r->rdbs);
        shash_destroy(&r->dbs);
        sset_destroy(&r->excluded);
        jsonrpc_session_close(r->js);
        free(r->remote);
        free(r);
    }
}

static json_t *
rpl_send(struct replication *r, const char *method, json_t *params)
{
    struct jsonrpc_msg *request = jsonrpc_create_request(method, params,
                                                         NULL);
    json_t *id = json_incref(request->id);
    jsonrpc_session_send(r->js, request);
    return id;
}

static void
rpl_give_up(struct replication *r)
{
    rpl_reset(r);
    r->state = RPL_GAVE_UP;
}

/* Whether every table and column of REMOTE exists in LOCAL with the same
 * type, so that whatever the active server sends fits here. */
static bool
schema_fits(const struct ovsdb_schema *remote, const struct ovsdb_schema *local)
{
    struct shash_node *tnode;
    SHASH_FOR_EACH (tnode, &remote->tables) {
        const struct ovsdb_table_schema *rts = tnode->data;
        const struct ovsdb_table_schema *lts
            = ovsdb_schema_get_table(local, tnode->name);
        if (!lts) {
            return false;
        }
        struct shash_node *cnode;
        SHASH_FOR_EACH (cnode, &rts->columns) {
            const struct ovsdb_column *rc = cnode->data;
            const struct ovsdb_column *lc
                = ovsdb_table_schema_get_column(lts, cnode->name);
            if (!lc) {
                return false;
            }
            json_t *a = ovsdb_column_to_json(rc);
            json_t *b = ovsdb_column_to_json(lc);
            json_t *at = json_object_get(a, "type");
            json_t *bt = json_object_get(b, "type");
            bool same = at && bt && json_equal(at, bt);
            json_decref(a);
            json_decref(b);
            if (!same) {
                return false;
            }
        }
    }
    return true;
}

/* Handles the answer to "get_schema" for RDB. */
static void
rpl_got_schema(struct replication *r, const char *name, struct rpl_db *rdb,
               const struct jsonrpc_msg *reply)
{
    if (reply->type != JSONRPC_REPLY) {
        VLOG_WARN_RL(&rl, "%s: get_schema for %s failed", r->remote, name);
        return;
    }
    struct ovsdb_schema *schema;
    struct ovsdb_error *error = ovsdb_schema_from_json(reply->result,
                                                       &schema);
    if (error) {
        char *s = ovsdb_error_to_string_free(error);
        VLOG_WARN_RL(&rl, "%s: bad schema for %s (%s)", r->remote, name, s);
        free(s);
        return;
    }

    if (!ovsdb_schema_equal(schema, rdb->db->schema)) {
        VLOG_INFO("Schema version mismatch, checking if %s can still be "
                  "replicated or not.", name);
        if (!schema_fits(schema, rdb->db->schema)) {
            VLOG_INFO("%s cannot be replicated.", name);
            ovsdb_schema_destroy(schema);
            return;
        }
        VLOG_INFO("%s can be replicated.", name);
    }

    /* Monitor the active server's tables, as far as not excluded. */
    struct shash_node *node;
    SHASH_FOR_EACH (node, &schema->tables) {
        char *qualified = xasprintf("%s:%s", name, node->name);
        if (!sset_contains(&r->excluded, qualified)) {
            sset_add(&rdb->tables, node->name);
        }
        free(qualified);
    }
    ovsdb_schema_destroy(schema);
    rdb->replicable = true;
}

/* Sends one "monitor" request per replicable database. */
static void
rpl_send_monitors(struct replication *r)
{
    struct shash_node *node;
    SHASH_FOR_EACH (node, &r->rdbs) {
        struct rpl_db *rdb = node->data;
        if (!rdb->replicable) {
            continue;
        }
        json_t *requests = json_object();
        const char *table;
        SSET_FOR_EACH (table, &rdb->tables) {
            json_t *all_columns = json_array();
            json_array_append_new(all_columns, json_object());
            json_object_set_new(requests, table, all_columns);
        }
        json_t *params = json_array();
        json_array_append_new(params, json_string(node->name));
        json_array_append_new(params, json_string(node->name));
        json_array_append_new(params, requests);
        rdb->request_id = rpl_send(r, "monitor", params);
        r->n_pending++;
    }
}

/* Applies TABLE_UPDATES (a monitor result or "update" notification) to
 * RDB's database in one transaction. */
static void
rpl_apply(struct replication *r, const char *name, struct rpl_db *rdb,
          const json_t *table_updates, bool reset)
{
    struct ovsdb *db = rdb->db;
    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    struct ovsdb_error *error = ovsdb_table_updates_apply(
        txn, table_updates, OVSDB_UPDATES_V1, reset ? &rdb->tables : NULL);
    if (!error) {
        error = ovsdb_txn_commit(txn, false);
    } else {
        ovsdb_txn_abort(txn);
    }
    if (error) {
        /* Start over with a fresh copy rather than drift apart. */
        char *s = ovsdb_error_to_string_free(error);
        VLOG_WARN("%s: applying changes to %s failed (%s); starting over",
                  r->remote, name, s);
        free(s);
        jsonrpc_session_force_reconnect(r->js);
    }
}

static void
rpl_handle_reply(struct replication *r, const struct jsonrpc_msg *msg)
{
    if (r->request_id && json_equal(msg->id, r->request_id)) {
        json_decref(r->request_id);
        r->request_id = NULL;
        if (msg->type != JSONRPC_REPLY) {
            VLOG_WARN_RL(&rl, "%s: request failed; reconnecting", r->remote);
            jsonrpc_session_force_reconnect(r->js);
            return;
        }

        if (r->state == RPL_SERVER_ID) {
            struct uuid id;
            if (json_is_string(msg->result)
                && uuid_from_string(&id, json_string_value(msg->result))
                && uuid_equals(&id, &r->server_id)) {
                VLOG_WARN("Self replicating is not allowed");
                rpl_give_up(r);
                return;
            }
            r->request_id = rpl_send(r, "list_dbs", json_array());
            r->state = RPL_LIST_DBS;
        } else if (r->state == RPL_LIST_DBS) {
            size_t i;
            json_t *name_json;
            json_array_foreach (msg->result, i, name_json) {
                const char *name = json_string_value(name_json);
                struct ovsdb *db = name ? shash_find_data(&r->dbs, name)
                                        : NULL;
                if (!db || shash_find(&r->rdbs, name)) {
                    continue;
                }
                struct rpl_db *rdb = xzalloc(sizeof *rdb);
                rdb->db = db;
                sset_init(&rdb->tables);
                json_t *params = json_array();
                json_array_append_new(params, json_string(name));
                rdb->request_id = rpl_send(r, "get_schema", params);
                shash_add(&r->rdbs, name, rdb);
                r->n_pending++;
            }
            r->state = RPL_SCHEMAS;
            if (!r->n_pending) {
                VLOG_WARN("%s: no database to replicate", r->remote);
                rpl_give_up(r);
            }
        }
        return;
    }

    struct shash_node *node;
    SHASH_FOR_EACH (node, &r->rdbs) {
        struct rpl_db *rdb = node->data;
        if (!rdb->request_id || !json_equal(msg->id, rdb->request_id)) {
            continue;
        }
        json_decref(rdb->request_id);
        rdb->request_id = NULL;
        r->n_pending--;

        if (r->state == RPL_SCHEMAS) {
            rpl_got_schema(r, node->name, rdb, msg);
            if (!r->n_pending) {
                rpl_send_monitors(r);
                if (!r->n_pending) {
                    rpl_give_up(r);
                } else {
                    r->state = RPL_MONITORS;
                }
            }
        } else if (r->state == RPL_MONITORS) {
            if (msg->type == JSONRPC_REPLY) {
                VLOG_INFO("Monitor request received. Resetting the "
                          "database");
                rpl_apply(r, node->name, rdb, msg->result, true);
            } else {
                VLOG_WARN("%s: monitoring %s failed", r->remote, node->name);
                rdb->replicable = false;
            }
            if (!r->n_pending) {
                r->state = RPL_REPLICATING;
            }
        }
        return;
    }
}

static void
rpl_handle_msg(struct replication *r, const struct jsonrpc_msg *msg)
{
    if (msg->type == JSONRPC_REPLY || msg->type == JSONRPC_ERROR) {
        rpl_handle_reply(r, msg);
    } else if (msg->type == JSONRPC_NOTIFY && !strcmp(msg->method, "update")
               && json_array_size(msg->params) == 2) {
        const char *name = json_string_value(json_array_get(msg->params, 0));
        struct rpl_db *rdb = name ? shash_find_data(&r->rdbs, name) : NULL;
        if (rdb && rdb->replicable) {
            rpl_apply(r, name, rdb, json_array_get(msg->params, 1), false);
        }
    }
}

void
replication_run(struct replication *r)
{
    if (r->state == RPL_GAVE_UP) {
        return;
    }
    jsonrpc_session_run(r->js);

    unsigned int seqno = jsonrpc_session_get_seqno(r->js);
    if (seqno != r->seqno) {
        r->seqno = seqno;
        rpl_reset(r);
    }
    if (r->state == RPL_CONNECTING && jsonrpc_session_is_connected(r->js)) {
        r->request_id = rpl_send(r, "get_server_id", json_array());
        r->state = RPL_SERVER_ID;
    }

    for (int i = 0; i < 50 && r->state != RPL_GAVE_UP; i++) {
        struct jsonrpc_msg *msg = jsonrpc_session_recv(r->js);
        if (!msg) {
            break;
        }
        rpl_handle_msg(r, msg);
        jsonrpc_msg_destroy(msg);
    }
}

void
replication_wait(struct replication *r)
{
    if (r->state == RPL_GAVE_UP) {
        return;
    }
    jsonrpc_session_wait(r->js);
    jsonrpc_session_recv_wait(r->js);
}

bool
replication_is_alive(const struct replication *r)
{
    return r->state != RPL_GAVE_UP;
}

void
replication_get_status(const struct replication *r, struct ds *out)
{
    if (r->state != RPL_REPLICATING) {
        ds_put_format(out, "connecting: %s\n", r->remote);
        return;
    }
    ds_put_format(out, "replicating: %s\n", r->remote);
    const struct shash_node **nodes = shash_sort(&r->rdbs);
    for (size_t i = 0; i < shash_count(&r->rdbs); i++) {
        const struct rpl_db *rdb = nodes[i]->data;
        if (rdb->replicable) {
            ds_put_format(out, "database: %s\n", nodes[i]->name);
        }
    }
    free(nodes);
    if (!sset_is_empty(&r->excluded)) {
        ds_put_cstr(out, "exclude: ");
        replication_put_exclusions(&r->excluded, out);
        ds_put_char(out, '\n');
    }
}

void
replication_put_exclusions(const struct sset *excluded, struct ds *out)
{
    const char **names = sset_sort(excluded);
    for (size_t i = 0; i < sset_count(excluded); i++) {
        ds_put_format(out, "%s%s", i ? "," : "", names[i]);
    }
    free(names);
}

char *
replication_parse_exclusions(const char *s, struct sset *excluded)
{
    sset_clear(excluded);
    char *copy = xstrdup(s);
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        const char *colon = strchr(item, ':');
        if (!colon || colon == item || !colon[1]) {
            char *error = xasprintf("%s: invalid syntax (expected DB:TABLE)",
                                    item);
            free(copy);
            sset_clear(excluded);
            return error;
        }
        sset_add(excluded, item);
    }
    free(copy);
    return NULL;
}
