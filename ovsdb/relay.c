#include <config.h>
#include "relay.h"

#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "hmap.h"
#include "jsonrpc.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "ovsdb/monitor.h"
#include "ovsdb/ovsdb.h"
#include "ovsdb/table-updates.h"
#include "ovsdb/transaction.h"
#include "poll-loop.h"
#include "timeval.h"
#include "shash.h"
#include "sset.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(relay);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

/* How long to wait before asking again for a schema the upstream did not
 * have. */
#define SCHEMA_RETRY_MSEC 100

enum relay_state {
    RELAY_CONNECTING,           /* Waiting for a connection. */
    RELAY_SCHEMA,               /* Sent get_schema. */
    RELAY_MONITOR,              /* Sent monitor_cond_since. */
    RELAY_RUNNING               /* Following the upstream. */
};

/* A transaction forwarded upstream, waiting for its reply; or, while the
 * relay is starting, waiting to be sent. */
struct ovsdb_relay_txn {
    struct hmap_node node;      /* In relay->txns, by hash of REQUEST_ID. */
    struct ovs_list list_node;  /* In relay->unsent, if not sent yet. */
    struct ovsdb_relay *relay;
    json_t *params;             /* Until sent. */
    json_t *request_id;         /* Our id on the upstream session, once
                                 * sent. */
    ovsdb_relay_reply_func *cb;
    void *aux;
};

/* Our request ids are integers (jsonrpc_create_id()); a reply with any
 * other id is not ours. */
static void relay_txn_send(struct ovsdb_relay_txn *);

static uint32_t
request_id_hash(const json_t *id)
{
    return hash_uint64_basis((uint64_t) json_integer_value(id), 0);
}

struct ovsdb_relay {
    char *db_name;
    char *remote;
    struct jsonrpc_session *js;
    unsigned int seqno;
    enum relay_state state;
    json_t *request_id;         /* Outstanding get_schema or monitor. */
    long long int retry_schema_at;      /* When to ask again, if no
                                         * request is outstanding. */
    json_t *monitor_id;         /* ["monid", DB]. */

    struct ovsdb *db;           /* The copy. */
    bool have_schema;           /* DB has the upstream's schema. */
    bool started;               /* DB has had a complete copy. */
    ovsdb_relay_db_func *db_cb;
    void *db_aux;

    struct hmap txns;           /* Sent struct ovsdb_relay_txn. */
    struct ovs_list unsent;     /* Unsent struct ovsdb_relay_txn. */
};

bool
ovsdb_relay_parse_target(const char *target, char **db_name, char **remote)
{
    *db_name = *remote = NULL;
    if (strncmp(target, "relay:", 6)) {
        return false;
    }
    const char *name = target + 6;
    const char *colon = strchr(name, ':');
    if (!colon || colon == name || !colon[1]) {
        return false;
    }
    *db_name = xmemdup0(name, colon - name);
    *remote = xstrdup(colon + 1);
    return true;
}

struct ovsdb_relay *
ovsdb_relay_create(const char *db_name, const char *remote,
                   ovsdb_relay_db_func *db_cb, void *db_aux)
{
    struct ovsdb_relay *r = xzalloc(sizeof *r);
    r->db_name = xstrdup(db_name);
    r->remote = xstrdup(remote);
    /* REMOTE may list a cluster's servers: any of them will do. */
    char **remotes;
    size_t n = jsonrpc_split_remotes(remote, true, &remotes);
    r->js = jsonrpc_session_open_multiple((const char *const *) remotes, n,
                                          true);
    for (size_t i = 0; i < n; i++) {
        free(remotes[i]);
    }
    free(remotes);
    r->seqno = jsonrpc_session_get_seqno(r->js);
    r->state = RELAY_CONNECTING;
    r->monitor_id = json_pack("[ss]", "monid", db_name);
    r->db_cb = db_cb;
    r->db_aux = db_aux;
    hmap_init(&r->txns);
    ovs_list_init(&r->unsent);

    /* Until the schema comes, clients find a database without tables,
     * and their transactions wait for the upstream (see
     * ovsdb_relay_must_forward()). */
    r->db = ovsdb_create(ovsdb_schema_create(db_name, "", ""));
    r->db->relay = r;
    return r;
}

struct ovsdb *
ovsdb_relay_get_db(const struct ovsdb_relay *r)
{
    return r->db;
}

static void
relay_set_connected(struct ovsdb_relay *r, bool connected)
{
    r->db->relay_connected = connected;
}

static void
relay_txn_fail(struct ovsdb_relay_txn *t)
{
    ovsdb_relay_reply_func *cb = t->cb;
    void *aux = t->aux;
    ovsdb_relay_txn_cancel(t);
    cb(aux, NULL);
}

/* Fails every forwarded transaction whose reply will not come (with ALL,
 * also those not sent yet). */
static void
relay_fail_txns(struct ovsdb_relay *r, bool all)
{
    struct ovsdb_relay_txn *t;
    HMAP_FOR_EACH_SAFE (t, node, &r->txns) {
        relay_txn_fail(t);
    }
    if (all) {
        LIST_FOR_EACH_SAFE (t, list_node, &r->unsent) {
            relay_txn_fail(t);
        }
    }
}

void
ovsdb_relay_destroy(struct ovsdb_relay *r)
{
    if (r) {
        relay_fail_txns(r, true);
        hmap_destroy(&r->txns);
        r->db->relay = NULL;
        json_decref(r->request_id);
        json_decref(r->monitor_id);
        jsonrpc_session_close(r->js);
        free(r->db_name);
        free(r->remote);
        free(r);
    }
}

const char *
ovsdb_relay_get_remote(const struct ovsdb_relay *r)
{
    return r->remote;
}

static json_t *
relay_send(struct ovsdb_relay *r, const char *method, json_t *params)
{
    struct jsonrpc_msg *request = jsonrpc_create_request(method, params,
                                                         NULL);
    json_t *id = json_incref(request->id);
    jsonrpc_session_send(r->js, request);
    return id;
}

/* Takes SCHEMA (owned): keeps the current copy if the schema is the same,
 * else hands a new empty copy to the server. */
static void
relay_set_schema(struct ovsdb_relay *r, struct ovsdb_schema *schema)
{
    if (r->have_schema && ovsdb_schema_equal(r->db->schema, schema)) {
        ovsdb_schema_destroy(schema);
        return;
    }
    struct ovsdb *old = r->db;
    struct ovsdb *new = ovsdb_create(schema);
    r->started = false;         /* Until the new copy is complete. */
    if (!r->have_schema) {
        /* The placeholder has no tables, so nobody can be using any: it
         * takes the schema in place and clients keep their sessions. */
        r->have_schema = true;
        ovsdb_replace(old, new);
        r->db_cb(r->db_aux, old, old);
        return;
    }
    VLOG_INFO("%s: schema of %s changed", r->remote, r->db_name);
    new->relay = r;
    new->relay_connected = old->relay_connected;
    old->relay = NULL;
    r->db = new;
    r->db_cb(r->db_aux, old, new);
}

bool
ovsdb_relay_has_schema(const struct ovsdb_relay *r)
{
    return r->have_schema;
}

static void
relay_send_monitor(struct ovsdb_relay *r)
{
    json_t *requests = json_object();
    struct shash_node *node;
    SHASH_FOR_EACH (node, &r->db->schema->tables) {
        json_t *request = json_array();
        json_array_append_new(request, json_object());
        json_object_set_new(requests, node->name, request);
    }
    char last_id[UUID_LEN + 1];
    uuid_format(&r->db->last_txnid, last_id);
    json_t *params = json_pack("[sOos]", r->db_name, r->monitor_id,
                               requests, last_id);
    r->request_id = relay_send(r, "monitor_cond_since", params);
    r->state = RELAY_MONITOR;
}

/* Commits TABLE_UPDATES (update2 encoding) to the copy as transaction
 * TXNID.  With RESET they are the complete contents. */
static void
relay_apply(struct ovsdb_relay *r, const json_t *table_updates,
            const char *txnid_s, bool reset)
{
    struct sset tables = SSET_INITIALIZER(&tables);
    if (reset) {
        struct shash_node *node;
        SHASH_FOR_EACH (node, &r->db->schema->tables) {
            sset_add(&tables, node->name);
        }
    }

    struct ovsdb_txn *txn = ovsdb_txn_create(r->db);
    struct uuid txnid;
    if (txnid_s && uuid_from_string(&txnid, txnid_s)) {
        ovsdb_txn_set_txnid(txn, &txnid);
    }
    struct ovsdb_error *error = ovsdb_table_updates_apply(
        txn, table_updates, OVSDB_UPDATES_V2, reset ? &tables : NULL);
    sset_destroy(&tables);
    if (error) {
        ovsdb_txn_abort(txn);
    } else {
        error = ovsdb_txn_commit(txn, false);
    }
    if (error) {
        char *s = ovsdb_error_to_string_free(error);
        VLOG_WARN("%s: applying changes to %s failed (%s); starting over",
                  r->remote, r->db_name, s);
        free(s);
        /* A fresh copy from scratch on the next connection. */
        uuid_zero(&r->db->last_txnid);
        jsonrpc_session_force_reconnect(r->js);
    }
}

static void
relay_handle_reply(struct ovsdb_relay *r, const struct jsonrpc_msg *msg)
{
    /* A forwarded transaction's reply? */
    uint32_t hash = request_id_hash(msg->id);
    struct ovsdb_relay_txn *t;
    HMAP_FOR_EACH_WITH_HASH (t, node, hash, &r->txns) {
        if (json_equal(t->request_id, msg->id)) {
            ovsdb_relay_reply_func *cb = t->cb;
            void *aux = t->aux;
            ovsdb_relay_txn_cancel(t);
            cb(aux, msg);
            return;
        }
    }

    if (!r->request_id || !json_equal(msg->id, r->request_id)) {
        return;
    }
    json_decref(r->request_id);
    r->request_id = NULL;
    if (msg->type != JSONRPC_REPLY) {
        char *s = json_dumps(msg->error, JSON_COMPACT | JSON_ENCODE_ANY);
        if (r->state == RELAY_SCHEMA) {
            /* The upstream does not have the database (yet: a relay that
             * is starting itself, say).  Ask again soon. */
            VLOG_DBG("%s: get_schema for %s failed (%s); retrying",
                     r->remote, r->db_name, s ? s : "");
            r->retry_schema_at = time_msec() + SCHEMA_RETRY_MSEC;
        } else {
            VLOG_WARN_RL(&rl, "%s: request for %s failed (%s); "
                         "reconnecting", r->remote, r->db_name, s ? s : "");
            jsonrpc_session_force_reconnect(r->js);
        }
        free(s);
        return;
    }

    if (r->state == RELAY_SCHEMA) {
        struct ovsdb_schema *schema;
        struct ovsdb_error *error = ovsdb_schema_from_json(msg->result,
                                                           &schema);
        if (error) {
            char *s = ovsdb_error_to_string_free(error);
            VLOG_WARN_RL(&rl, "%s: bad schema for %s (%s)", r->remote,
                         r->db_name, s);
            free(s);
            jsonrpc_session_force_reconnect(r->js);
            return;
        }
        relay_set_schema(r, schema);
        relay_send_monitor(r);
    } else if (r->state == RELAY_MONITOR) {
        /* [found, last_id, table-updates2] */
        const json_t *result = msg->result;
        bool found = json_is_true(json_array_get(result, 0));
        const char *last_id = json_string_value(json_array_get(result, 1));
        relay_apply(r, json_array_get(result, 2), last_id, !found);
        r->state = RELAY_RUNNING;
        r->started = true;
        relay_set_connected(r, true);
    }
}

static void
relay_request_schema(struct ovsdb_relay *r)
{
    json_t *params = json_array();
    json_array_append_new(params, json_string(r->db_name));
    r->request_id = relay_send(r, "get_schema", params);
}

void
ovsdb_relay_run(struct ovsdb_relay *r)
{
    jsonrpc_session_run(r->js);

    unsigned int seqno = jsonrpc_session_get_seqno(r->js);
    if (seqno != r->seqno) {
        r->seqno = seqno;
        json_decref(r->request_id);
        r->request_id = NULL;
        relay_fail_txns(r, false);
        relay_set_connected(r, false);
        r->state = RELAY_CONNECTING;
    }
    if (r->state == RELAY_SCHEMA && !r->request_id
        && time_msec() >= r->retry_schema_at) {
        relay_request_schema(r);
    }
    if (r->state == RELAY_CONNECTING && jsonrpc_session_is_connected(r->js)) {
        relay_request_schema(r);
        r->state = RELAY_SCHEMA;

        struct ovsdb_relay_txn *t;
        LIST_FOR_EACH_SAFE (t, list_node, &r->unsent) {
            ovs_list_remove(&t->list_node);
            relay_txn_send(t);
        }
    }

    for (int i = 0; i < 50; i++) {
        struct jsonrpc_msg *msg = jsonrpc_session_recv(r->js);
        if (!msg) {
            break;
        }
        if (msg->type == JSONRPC_REPLY || msg->type == JSONRPC_ERROR) {
            relay_handle_reply(r, msg);
        } else if (msg->type == JSONRPC_NOTIFY
                   && !strcmp(msg->method, "update3")
                   && r->state == RELAY_RUNNING
                   && json_array_size(msg->params) == 3
                   && json_equal(json_array_get(msg->params, 0),
                                 r->monitor_id)) {
            relay_apply(r, json_array_get(msg->params, 2),
                        json_string_value(json_array_get(msg->params, 1)),
                        false);
        }
        jsonrpc_msg_destroy(msg);
    }
}

void
ovsdb_relay_wait(struct ovsdb_relay *r)
{
    jsonrpc_session_wait(r->js);
    jsonrpc_session_recv_wait(r->js);
    if (r->state == RELAY_SCHEMA && !r->request_id) {
        poll_timer_wait_until(r->retry_schema_at);
    }
}

bool
ovsdb_relay_must_forward(const struct ovsdb_relay *r, const json_t *params)
{
    if (!r->started) {
        return true;            /* No copy yet: the upstream answers all. */
    }
    static const char *const read_only_ops[] = {
        "select", "wait", "comment", "assert", "abort", "commit",
    };
    size_t i;
    json_t *op;
    json_array_foreach (params, i, op) {
        if (!i) {
            continue;           /* The database name. */
        }
        const char *name = json_string_value(json_object_get(op, "op"));
        bool read_only = false;
        for (size_t j = 0; name && j < ARRAY_SIZE(read_only_ops); j++) {
            read_only = read_only || !strcmp(name, read_only_ops[j]);
        }
        if (!read_only) {
            return true;
        }
    }
    return false;
}

static void
relay_txn_send(struct ovsdb_relay_txn *t)
{
    struct ovsdb_relay *r = t->relay;
    t->request_id = relay_send(r, "transact", t->params);
    t->params = NULL;
    hmap_insert(&r->txns, &t->node, request_id_hash(t->request_id));
}

struct ovsdb_relay_txn *
ovsdb_relay_forward(struct ovsdb_relay *r, const json_t *params,
                    ovsdb_relay_reply_func *cb, void *aux)
{
    bool connected = r->state != RELAY_CONNECTING;
    if (!connected && r->started) {
        return NULL;
    }
    struct ovsdb_relay_txn *t = xzalloc(sizeof *t);
    t->relay = r;
    t->cb = cb;
    t->aux = aux;
    t->params = json_incref((json_t *) params);
    if (connected) {
        relay_txn_send(t);
    } else {
        /* Still starting: sent as soon as the connection is up. */
        ovs_list_push_back(&r->unsent, &t->list_node);
    }
    return t;
}

void
ovsdb_relay_txn_cancel(struct ovsdb_relay_txn *t)
{
    if (t) {
        if (t->request_id) {
            hmap_remove(&t->relay->txns, &t->node);
            json_decref(t->request_id);
        } else {
            ovs_list_remove(&t->list_node);
            json_decref(t->params);
        }
        free(t);
    }
}
