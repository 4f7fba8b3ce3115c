/* stats-writer: see stats-writer.h. */
#include <config.h>
#include "stats-writer.h"

#include <jansson.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "hash.h"
#include "hmap.h"
#include "jsonrpc.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "seq.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(stats_writer);

COVERAGE_DEFINE(stats_writer_rows);
COVERAGE_DEFINE(stats_writer_txns);

/* The counters for one column of one row, in one allocation (the main
 * thread makes one per moved row per pass): VALUES, then KEYS, then the
 * keys' bytes follow the struct. */
struct stats_row {
    struct hmap_node node;      /* By row_hash(). */
    const char *table, *column; /* Static strings. */
    struct uuid uuid;
    size_t n;
    int64_t *values;
    char **keys;
};

struct stats_writer {
    char *remote;
    char *db_name;
    pthread_t thread;
    struct seq *wake;           /* Something was handed over, or exit. */
    _Atomic bool exiting;
    _Atomic unsigned int seqno; /* Connection changes seen by the thread. */

    /* Rows handed over by the main thread, not yet taken by the thread
     * (under MUTEX). */
    struct ovs_mutex mutex;
    struct hmap handed;
};

static void
stats_row_destroy(struct stats_row *row)
{
    free(row);
}

static void
stats_rows_clear(struct hmap *rows)
{
    struct stats_row *row;
    HMAP_FOR_EACH_POP (row, node, rows) {
        stats_row_destroy(row);
    }
}

static uint32_t
row_hash(const struct stats_row *row)
{
    return hash_string(row->column, uuid_hash(&row->uuid));
}

/* Puts ROW into ROWS, replacing an older one for the same row and
 * column. */
static void
stats_rows_replace(struct hmap *rows, struct stats_row *row)
{
    struct stats_row *old;
    HMAP_FOR_EACH_WITH_HASH (old, node, row_hash(row), rows) {
        if (uuid_equals(&old->uuid, &row->uuid)
            && !strcmp(old->column, row->column)) {
            hmap_replace(rows, &old->node, &row->node);
            stats_row_destroy(old);
            return;
        }
    }
    hmap_insert(rows, &row->node, row_hash(row));
}

/* One "transact" that writes every row of ROWS (emptied). */
static struct jsonrpc_msg *
compose_transact(const char *db_name, struct hmap *rows)
{
    json_t *params = json_array();
    json_array_append_new(params, json_string(db_name));
    struct stats_row *row;
    HMAP_FOR_EACH_POP (row, node, rows) {
        json_t *pairs = json_array();
        for (size_t i = 0; i < row->n; i++) {
            json_array_append_new(pairs, json_pack("[s,I]", row->keys[i],
                                                   (json_int_t) row->values[i]));
        }
        char uuid[UUID_LEN + 1];
        snprintf(uuid, sizeof uuid, UUID_FMT, UUID_ARGS(&row->uuid));
        json_array_append_new(params, json_pack(
            "{s:s, s:s, s:[[s,s,[s,s]]], s:{s:[s,o]}}",
            "op", "update", "table", row->table,
            "where", "_uuid", "==", "uuid", uuid,
            "row", row->column, "map", pairs));
        COVERAGE_INC(stats_writer_rows);
        stats_row_destroy(row);
    }
    COVERAGE_INC(stats_writer_txns);
    return jsonrpc_create_request("transact", params, NULL);
}

/* Logs what went wrong in REPLY to our transaction.  An update that
 * matched no row (the interface went away) is fine. */
static void
check_reply(const struct jsonrpc_msg *reply)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    if (reply->type == JSONRPC_ERROR) {
        char *s = json_dumps(reply->error, JSON_COMPACT);
        VLOG_WARN_RL(&rl, "writing statistics failed: %s", s);
        free(s);
        return;
    }
    size_t i;
    json_t *op;
    json_array_foreach (reply->result, i, op) {
        json_t *error = json_object_get(op, "error");
        if (error) {
            char *s = json_dumps(op, JSON_COMPACT);
            VLOG_WARN_RL(&rl, "writing statistics failed: %s", s);
            free(s);
            return;
        }
    }
}

/* Moves the rows the main thread handed over into TO_SEND. */
static void
take_handed(struct stats_writer *w, struct hmap *to_send)
{
    ovs_mutex_lock(&w->mutex);
    struct stats_row *row;
    HMAP_FOR_EACH_POP (row, node, &w->handed) {
        stats_rows_replace(to_send, row);
    }
    ovs_mutex_unlock(&w->mutex);
}

static void *
stats_writer_main(void *w_)
{
    struct stats_writer *w = w_;
    char **remotes;
    size_t n_remotes = jsonrpc_split_remotes(w->remote, false, &remotes);
    struct jsonrpc_session *session = jsonrpc_session_open_multiple(
        (const char *const *) remotes, n_remotes, true);
    for (size_t i = 0; i < n_remotes; i++) {
        free(remotes[i]);
    }
    free(remotes);

    unsigned int session_seqno = jsonrpc_session_get_seqno(session);
    struct hmap to_send = HMAP_INITIALIZER(&to_send);
    json_t *in_flight = NULL;           /* Id of our outstanding request. */
    while (!atomic_load(&w->exiting)) {
        uint64_t wake_seen = seq_read(w->wake);

        jsonrpc_session_run(session);
        unsigned int seqno = jsonrpc_session_get_seqno(session);
        if (seqno != session_seqno) {
            /* What was in flight may be lost: the main thread hands over
             * everything again. */
            session_seqno = seqno;
            json_decref(in_flight);
            in_flight = NULL;
            atomic_fetch_add(&w->seqno, 1);
        }
        take_handed(w, &to_send);
        bool connected = jsonrpc_session_is_connected(session);
        if (connected && !in_flight && !hmap_is_empty(&to_send)) {
            struct jsonrpc_msg *request = compose_transact(w->db_name,
                                                           &to_send);
            in_flight = json_incref(request->id);
            jsonrpc_session_send(session, request);
        }
        for (int i = 0; i < 50; i++) {
            struct jsonrpc_msg *msg = jsonrpc_session_recv(session);
            if (!msg) {
                break;
            }
            if (in_flight && msg->id && json_equal(msg->id, in_flight)
                && (msg->type == JSONRPC_REPLY
                    || msg->type == JSONRPC_ERROR)) {
                check_reply(msg);
                json_decref(in_flight);
                in_flight = NULL;
                if (!hmap_is_empty(&to_send)) {
                    poll_immediate_wake();
                }
            }
            jsonrpc_msg_destroy(msg);
        }

        jsonrpc_session_wait(session);
        jsonrpc_session_recv_wait(session);
        seq_wait(w->wake, wake_seen);
        ovsrcu_quiesce_start();
        poll_block();
        ovsrcu_quiesce_end();
    }
    json_decref(in_flight);
    stats_rows_clear(&to_send);
    hmap_destroy(&to_send);
    jsonrpc_session_close(session);
    ovsrcu_quiesce_start();
    return NULL;
}

struct stats_writer *
stats_writer_create(const char *remote, const char *db_name)
{
    struct stats_writer *w = xzalloc(sizeof *w);
    w->remote = xstrdup(remote);
    w->db_name = xstrdup(db_name);
    w->wake = seq_create();
    atomic_init(&w->exiting, false);
    atomic_init(&w->seqno, 0);
    ovs_mutex_init(&w->mutex);
    hmap_init(&w->handed);
    w->thread = ovs_thread_create("stats_writer", stats_writer_main, w);
    return w;
}

void
stats_writer_destroy(struct stats_writer *w)
{
    if (!w) {
        return;
    }
    atomic_store(&w->exiting, true);
    seq_change(w->wake);
    xpthread_join(w->thread, NULL);
    stats_rows_clear(&w->handed);
    hmap_destroy(&w->handed);
    ovs_mutex_destroy(&w->mutex);
    seq_destroy(w->wake);
    free(w->remote);
    free(w->db_name);
    free(w);
}

void
stats_writer_put(struct stats_writer *w, const char *table,
                 const char *column, const struct uuid *uuid,
                 const char *const *keys, const int64_t *values, size_t n)
{
    size_t key_bytes = 0;
    for (size_t i = 0; i < n; i++) {
        key_bytes += strlen(keys[i]) + 1;
    }
    struct stats_row *row = xmalloc(sizeof *row
                                    + n * (sizeof *row->values
                                           + sizeof *row->keys)
                                    + key_bytes);
    row->table = table;
    row->column = column;
    row->uuid = *uuid;
    row->n = n;
    row->values = (int64_t *) (row + 1);
    row->keys = (char **) (row->values + n);
    char *p = (char *) (row->keys + n);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(keys[i]) + 1;
        row->keys[i] = memcpy(p, keys[i], len);
        row->values[i] = values[i];
        p += len;
    }
    ovs_mutex_lock(&w->mutex);
    stats_rows_replace(&w->handed, row);
    ovs_mutex_unlock(&w->mutex);
}

void
stats_writer_flush(struct stats_writer *w)
{
    seq_change(w->wake);
}

unsigned int
stats_writer_get_seqno(const struct stats_writer *w)
{
    return atomic_load(&((struct stats_writer *) w)->seqno);
}
