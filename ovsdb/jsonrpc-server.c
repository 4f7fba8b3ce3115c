#include <config.h>
#include "jsonrpc-server.h"

/* Layout: a server has remotes; a remote has sessions.  A passive remote
 * owns its listener and makes one session per accepted connection (a
 * jsonrpc_session opened "unreliably", which dies with its connection); an
 * active remote has exactly one session, whose jsonrpc_session reconnects
 * by itself and which forgets its client's state (locks, monitors, pending
 * transactions) whenever the connection changes. */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "coverage.h"
#include "hash.h"
#include "hmap.h"
#include "jsonrpc.h"
#include "list.h"
#include "monitor.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "ovsdb.h"
#include "poll-loop.h"
#include "raft.h"
#include "reconnect.h"
#include "relay.h"
#include "replay.h"
#include "server.h"
#include "shash.h"
#include "smap.h"
#include "socket-util.h"
#include "sset.h"
#include "stream.h"
#include "timeval.h"
#include "trigger.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_jsonrpc_server);

COVERAGE_DEFINE(ovsdb_jsonrpc_request);
COVERAGE_DEFINE(ovsdb_jsonrpc_session_create);

/* Messages one session may have handled in one run, so that a busy client
 * cannot starve the others. */
#define MAX_MSGS_PER_RUN 50

/* Largest request accepted; a bigger one is a protocol error that closes
 * the connection before it could use up our memory. */
#define MAX_REQUEST_SIZE JSONRPC_DEFAULT_MAX_MSG_SIZE

/* A session told to go away keeps sending what it has queued (the reply to
 * a "convert", say) for at most this long. */
#define DRAIN_MSEC 5000

/* Retry intervals after a failed listen. */
#define LISTEN_MIN_BACKOFF 1000
#define LISTEN_MAX_BACKOFF 8000

struct ovsdb_jsonrpc_server {
    bool read_only;
    struct ovsdb_lock_server locks;
    struct shash dbs;           /* Name -> struct ovsdb *. */
    struct shash remotes;       /* Target -> struct remote *. */
    struct uuid server_id;
    ovsdb_jsonrpc_convert_func *convert_cb;
    void *convert_aux;
};

/* One configured remote. */
struct remote {
    struct ovsdb_jsonrpc_server *server;
    char *target;
    struct ovsdb_jsonrpc_options options;   /* "role" owned. */

    /* Passive remotes: the listener (NULL while listening fails). */
    bool passive;
    struct pstream *listener;
    long long int next_listen;  /* When to retry listening. */
    int listen_backoff;
    int listen_error;

    struct ovs_list sessions;   /* Contains struct session. */
};

/* One client connection (for an active remote: the connection that it
 * keeps up, which outlives reconnections). */
struct session {
    struct ovs_list node;       /* In remote->sessions. */
    struct ovsdb_session up;    /* Locks. */
    struct remote *remote;
    struct jsonrpc_session *js;
    unsigned int seqno;         /* Last jsonrpc_session_get_seqno(). */
    struct hmap triggers;       /* Contains struct rpc_trigger. */
    struct ovs_list synced_replies;     /* Contains struct synced_reply. */
    struct ovs_list forwards;   /* Contains struct rpc_forward. */
    struct ovs_list schema_waits;       /* Contains struct schema_wait. */
    struct ovs_list converts;   /* Contains struct pending_convert. */
    struct ovsdb_monitor_session *monitors;
    bool db_change_aware;

    /* Going away: read nothing more, disconnect once the output has drained
     * or at DISCONNECT_DEADLINE. */
    bool disconnecting;
    long long int disconnect_deadline;
};

/* A "transact" request waiting for its reply. */
struct rpc_trigger {
    struct ovsdb_trigger trigger;
    struct hmap_node hmap_node; /* In session->triggers, by id_hash(). */
    struct session *session;
    json_t *id;
};

/* A "transact" request on a relay's database, forwarded to the server the
 * relay copies (see relay.h), waiting for that server's reply. */
struct rpc_forward {
    struct ovs_list node;       /* In session->forwards. */
    struct session *session;
    json_t *id;                 /* The client's request id. */
    struct ovsdb_relay_txn *txn;
};

/* A "get_schema" for a relay's database that has no schema yet, answered
 * once the relay has it (a relay below it asks, say, while both start). */
struct schema_wait {
    struct ovs_list node;       /* In session->schema_waits. */
    json_t *id;
    char *db_name;
};

/* A "convert" of a clustered database, waiting for the cluster to commit
 * the conversion (see ovsdb_jsonrpc_convert_func). */
struct pending_convert {
    struct ovs_list node;       /* In session->converts. */
    json_t *id;
    char *db_name;
    struct ovsdb_schema *new_schema;
    struct raft_command *command;       /* NULL: propose again at
                                         * RETRY_AT. */
    long long int retry_at;
};

/* The reply to a durable transaction, held until its database's next
 * ovsdb_sync() (group commit: see ovsdb.h and sync_and_reply()). */
struct synced_reply {
    struct ovs_list node;       /* In session->synced_replies. */
    struct ovsdb *db;
    struct jsonrpc_msg *reply;
};

static void remote_destroy(struct remote *);
static void session_destroy(struct session *);
static void session_reset(struct session *);
static void session_send(struct session *, struct jsonrpc_msg *);
static void session_disconnect(struct session *, bool drain,
                               const char *comment);
static void rpc_trigger_destroy(struct rpc_trigger *);
static void session_drop_synced_replies(struct session *);
static void session_drop_forwards(struct session *);
static void session_drop_schema_waits(struct session *);
static void session_drop_converts(struct session *);
static void session_run_converts(struct session *);
static void session_send_or_hold(struct session *, struct ovsdb_trigger *,
                                 struct jsonrpc_msg *reply);
static void sync_and_reply(struct ovsdb_jsonrpc_server *);

/* The server. */

void
ovsdb_jsonrpc_server_set_read_only(struct ovsdb_jsonrpc_server *svr,
                                   bool read_only)
{
    svr->read_only = read_only;
}

struct ovsdb_jsonrpc_server *
ovsdb_jsonrpc_server_create(bool read_only)
{
    struct ovsdb_jsonrpc_server *svr = xzalloc(sizeof *svr);
    svr->read_only = read_only;
    ovsdb_lock_server_init(&svr->locks);
    shash_init(&svr->dbs);
    shash_init(&svr->remotes);
    uuid_generate(&svr->server_id);
    return svr;
}

void
ovsdb_jsonrpc_server_destroy(struct ovsdb_jsonrpc_server *svr)
{
    if (!svr) {
        return;
    }

    struct shash_node *node;
    SHASH_FOR_EACH_SAFE (node, &svr->remotes) {
        remote_destroy(node->data);
        shash_delete(&svr->remotes, node);
    }
    shash_destroy(&svr->remotes);

    /* The caller should have removed its databases; if not, at least stop
     * keeping history for them. */
    SHASH_FOR_EACH (node, &svr->dbs) {
        ovsdb_monitor_forget_history(node->data);
    }
    shash_destroy(&svr->dbs);
    ovsdb_lock_server_destroy(&svr->locks);
    free(svr);
}

/* Disconnects every session that did not say set_db_change_aware: the
 * protocol has no other way to tell such a client that the set of
 * databases or a schema changed, and a client that gave up on a missing
 * database would otherwise never learn that it appeared. */
static void
reconnect_unaware(struct ovsdb_jsonrpc_server *svr, const char *comment)
{
    struct shash_node *node;
    SHASH_FOR_EACH (node, &svr->remotes) {
        struct remote *remote = node->data;
        struct session *s;
        LIST_FOR_EACH (s, node, &remote->sessions) {
            if (!s->db_change_aware
                && jsonrpc_session_is_connected(s->js)) {
                session_disconnect(s, true, comment);
            }
        }
    }
}

bool
ovsdb_jsonrpc_server_add_db(struct ovsdb_jsonrpc_server *svr,
                            struct ovsdb *db)
{
    if (shash_find(&svr->dbs, db->name)) {
        return false;
    }
    char *comment = xasprintf("adding %s database", db->name);
    reconnect_unaware(svr, comment);
    free(comment);

    shash_add(&svr->dbs, db->name, db);
    ovsdb_monitor_track_history(db);
    db->defer_sync = true;
    return true;
}

void
ovsdb_jsonrpc_server_remove_db(struct ovsdb_jsonrpc_server *svr,
                               struct ovsdb *db, const char *comment)
{
    struct shash_node *node = shash_find(&svr->dbs, db->name);
    if (!node || node->data != db) {
        return;
    }
    /* Held replies name their database: release them while it exists.
     * So does the reply to the conversion that is replacing it, which must
     * reach its client before unaware clients are disconnected below. */
    sync_and_reply(svr);
    SHASH_FOR_EACH (node, &svr->remotes) {
        struct remote *remote = node->data;
        struct session *s;
        LIST_FOR_EACH (s, node, &remote->sessions) {
            session_run_converts(s);
        }
    }
    node = shash_find(&svr->dbs, db->name);
    db->defer_sync = false;
    shash_delete(&svr->dbs, node);

    /* Pending transactions on DB cannot complete any more.  A client that
     * follows database changes hears "canceled"; the others are about to
     * be disconnected (reconnect_unaware() below), which tells them. */
    struct ovsdb_trigger *trigger;
    LIST_FOR_EACH_SAFE (trigger, node, &db->triggers) {
        struct rpc_trigger *t = CONTAINER_OF(trigger, struct rpc_trigger,
                                             trigger);
        if (t->session->db_change_aware) {
            session_send(t->session, jsonrpc_create_error(
                             json_string("canceled"), json_incref(t->id)));
        }
        rpc_trigger_destroy(t);
    }

    SHASH_FOR_EACH (node, &svr->remotes) {
        struct remote *remote = node->data;
        struct session *s;
        LIST_FOR_EACH (s, node, &remote->sessions) {
            ovsdb_monitor_session_forget_db(s->monitors, db,
                                            s->db_change_aware);
        }
    }
    ovsdb_monitor_forget_history(db);

    reconnect_unaware(svr, comment);
}

void
ovsdb_jsonrpc_server_set_server_id(struct ovsdb_jsonrpc_server *svr,
                                   const struct uuid *server_id)
{
    svr->server_id = *server_id;
}

void
ovsdb_jsonrpc_server_set_convert_cb(struct ovsdb_jsonrpc_server *svr,
                                    ovsdb_jsonrpc_convert_func *cb,
                                    void *aux)
{
    svr->convert_cb = cb;
    svr->convert_aux = aux;
}

void
ovsdb_jsonrpc_server_reconnect(struct ovsdb_jsonrpc_server *svr, bool forced,
                               const char *comment)
{
    struct shash_node *node;
    SHASH_FOR_EACH (node, &svr->remotes) {
        struct remote *remote = node->data;
        struct session *s;
        LIST_FOR_EACH (s, node, &remote->sessions) {
            session_disconnect(s, false, comment);
            if (forced) {
                jsonrpc_session_reset_backoff(s->js);
            }
        }
    }
}

/* Remotes. */

struct ovsdb_jsonrpc_options *
ovsdb_jsonrpc_default_options(const char *target)
{
    struct ovsdb_jsonrpc_options *options = xzalloc(sizeof *options);
    options->max_backoff = RECONNECT_DEFAULT_MAX_BACKOFF;
    options->probe_interval = (stream_or_pstream_needs_probes(target)
                               ? RECONNECT_DEFAULT_PROBE_INTERVAL : 0);
    options->read_only = false;
    options->role = NULL;
    options->dscp = DSCP_DEFAULT;
    return options;
}

static bool
session_is_read_only(const struct session *s)
{
    return s->remote->server->read_only || s->remote->options.read_only;
}

static void
session_apply_options(struct session *s)
{
    const struct ovsdb_jsonrpc_options *options = &s->remote->options;
    jsonrpc_session_set_probe_interval(s->js, options->probe_interval);
    if (!s->remote->passive) {
        /* Changing the DSCP makes a new socket, which for an accepted
         * connection would mean dropping it: only active sessions follow
         * DSCP changes at once. */
        jsonrpc_session_set_max_backoff(s->js, options->max_backoff);
        jsonrpc_session_set_dscp(s->js, options->dscp);
    }
}

static void
monitor_send_cb(void *s_, struct jsonrpc_msg *msg)
{
    struct session *s = s_;
    if (s->disconnecting) {
        /* Told to go away (a database came or went and the client cannot
         * hear of that): what follows must not reach it as if its
         * monitors were still current. */
        jsonrpc_msg_destroy(msg);
        return;
    }
    session_send(s, msg);
}

static struct session *
session_create(struct remote *remote, struct jsonrpc_session *js)
{
    COVERAGE_INC(ovsdb_jsonrpc_session_create);

    struct session *s = xzalloc(sizeof *s);
    ovs_list_push_back(&remote->sessions, &s->node);
    ovsdb_session_init(&s->up, &remote->server->locks);
    s->remote = remote;
    s->js = js;
    s->seqno = jsonrpc_session_get_seqno(js);
    hmap_init(&s->triggers);
    ovs_list_init(&s->forwards);
    ovs_list_init(&s->schema_waits);
    ovs_list_init(&s->converts);
    ovs_list_init(&s->synced_replies);
    s->monitors = ovsdb_monitor_session_create(monitor_send_cb, s);
    session_apply_options(s);
    return s;
}

static bool
remote_listen(struct remote *remote)
{
    int error = jsonrpc_pstream_open(remote->target, &remote->listener,
                                     remote->options.dscp);
    remote->listen_error = error;
    if (error) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
        VLOG_ERR_RL(&rl, "%s: listen failed: %s", remote->target,
                    ovs_strerror(error));
        remote->listener = NULL;
        /* Retrying on a timer would make a recorded run's listeners
         * differ from its replay's (replay.h): there, a failed listen
         * stays failed until the remote is configured again. */
        remote->next_listen = (replay_is_active() ? LLONG_MAX
                               : time_msec() + remote->listen_backoff);
        remote->listen_backoff = MIN(remote->listen_backoff * 2,
                                     LISTEN_MAX_BACKOFF);
        return false;
    }

    uint16_t port = pstream_get_bound_port(remote->listener);
    if (port) {
        /* Tests and operators read the port of "ptcp:0" from here. */
        VLOG_INFO("%s: listening on port %"PRIu16, remote->target, port);
    } else {
        VLOG_DBG("%s: listening", remote->target);
    }
    remote->listen_backoff = LISTEN_MIN_BACKOFF;
    return true;
}

static struct remote *
remote_create(struct ovsdb_jsonrpc_server *svr, const char *target,
              const struct ovsdb_jsonrpc_options *options)
{
    struct remote *remote = xzalloc(sizeof *remote);
    remote->server = svr;
    remote->target = xstrdup(target);
    remote->options = *options;
    remote->options.role = options->role ? xstrdup(options->role) : NULL;
    ovs_list_init(&remote->sessions);
    remote->passive = pstream_is_passive_name(target);
    remote->listen_backoff = LISTEN_MIN_BACKOFF;

    if (remote->passive) {
        remote_listen(remote);
    } else {
        struct jsonrpc_session *js = jsonrpc_session_open(target, true);
        session_create(remote, js);
    }
    return remote;
}

static void
remote_destroy(struct remote *remote)
{
    struct session *s;
    LIST_FOR_EACH_SAFE (s, node, &remote->sessions) {
        session_destroy(s);
    }
    pstream_close(remote->listener);
    free(remote->options.role);
    free(remote->target);
    free(remote);
}

static void
remote_set_options(struct remote *remote,
                   const struct ovsdb_jsonrpc_options *options)
{
    bool dscp_changed = remote->options.dscp != options->dscp;

    free(remote->options.role);
    remote->options = *options;
    remote->options.role = options->role ? xstrdup(options->role) : NULL;

    if (remote->passive && dscp_changed && remote->listener) {
        /* The DSCP applies to sockets made from now on. */
        pstream_close(remote->listener);
        remote->listener = NULL;
        remote_listen(remote);
    }

    struct session *s;
    LIST_FOR_EACH (s, node, &remote->sessions) {
        session_apply_options(s);
    }
}

void
ovsdb_jsonrpc_server_set_remotes(struct ovsdb_jsonrpc_server *svr,
                                 const struct shash *new_remotes)
{
    struct shash_node *node;
    SHASH_FOR_EACH_SAFE (node, &svr->remotes) {
        if (!shash_find(new_remotes, node->name)) {
            VLOG_INFO("%s: remote deconfigured", node->name);
            remote_destroy(node->data);
            shash_delete(&svr->remotes, node);
        }
    }
    SHASH_FOR_EACH (node, new_remotes) {
        const struct ovsdb_jsonrpc_options *options = node->data;
        struct remote *remote = shash_find_data(&svr->remotes, node->name);
        if (!remote) {
            shash_add(&svr->remotes, node->name,
                      remote_create(svr, node->name, options));
        } else {
            remote_set_options(remote, options);
        }
    }
}

static void
remote_accept(struct remote *remote)
{
    if (!remote->listener) {
        if (time_msec() >= remote->next_listen) {
            remote_listen(remote);
        }
        if (!remote->listener) {
            return;
        }
    }

    for (int i = 0; i < MAX_MSGS_PER_RUN; i++) {
        struct stream *stream;
        int error = pstream_accept(remote->listener, &stream);
        if (error) {
            if (error != EAGAIN) {
                static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
                VLOG_WARN_RL(&rl, "%s: accept failed: %s",
                             pstream_get_name(remote->listener),
                             ovs_strerror(error));
            }
            break;
        }

        struct jsonrpc *rpc = jsonrpc_open(stream);
        jsonrpc_set_max_msg_size(rpc, MAX_REQUEST_SIZE);
        session_create(remote, jsonrpc_session_open_unreliably(
                           rpc, remote->options.dscp));
    }
}

static void
remote_wait(struct remote *remote)
{
    if (remote->listener) {
        pstream_wait(remote->listener);
    } else if (remote->passive && remote->next_listen != LLONG_MAX) {
        poll_timer_wait_until(remote->next_listen);
    }
}

/* Status. */

static void
add_lock_names(const struct session *s, struct sset *held,
               struct sset *waiting, struct sset *lost)
{
    const struct ovsdb_lock_waiter *waiter;
    HMAP_FOR_EACH (waiter, session_node, &s->up.waiters) {
        const char *name = ovsdb_lock_waiter_get_name(waiter);
        if (ovsdb_lock_waiter_is_owner(waiter)) {
            sset_add(held, name);
        } else if (waiter->mode == OVSDB_LOCK_WAIT) {
            sset_add(waiting, name);
        } else {
            /* It stole the lock and had it stolen in turn. */
            sset_add(lost, name);
        }
    }
}

bool
ovsdb_jsonrpc_server_get_remote_status(
    const struct ovsdb_jsonrpc_server *svr, const char *target,
    struct ovsdb_jsonrpc_remote_status *status)
{
    memset(status, 0, sizeof *status);
    status->sec_since_connect = UINT_MAX;
    status->sec_since_disconnect = UINT_MAX;

    const struct remote *remote = shash_find_data(&svr->remotes, target);
    if (!remote) {
        return false;
    }

    struct sset held = SSET_INITIALIZER(&held);
    struct sset waiting = SSET_INITIALIZER(&waiting);
    struct sset lost = SSET_INITIALIZER(&lost);
    const struct session *s;
    LIST_FOR_EACH (s, node, &remote->sessions) {
        add_lock_names(s, &held, &waiting, &lost);
    }
    status->locks_held = sset_join(&held, " ", "");
    status->locks_waiting = sset_join(&waiting, " ", "");
    status->locks_lost = sset_join(&lost, " ", "");
    sset_destroy(&held);
    sset_destroy(&waiting);
    sset_destroy(&lost);

    if (remote->passive) {
        status->n_connections = ovs_list_size(&remote->sessions);
        status->is_connected = status->n_connections > 0;
        status->last_error = remote->listen_error;
        if (remote->listener) {
            status->bound_port = pstream_get_bound_port(remote->listener);
        }
    } else {
        s = CONTAINER_OF(ovs_list_front(&remote->sessions), struct session,
                         node);
        struct reconnect_stats rstats;
        jsonrpc_session_get_reconnect_stats(s->js, &rstats);
        status->state = rstats.state;
        status->is_connected = rstats.is_connected;
        status->last_error = jsonrpc_session_get_last_error(s->js);
        if (rstats.msec_since_connect != UINT_MAX) {
            status->sec_since_connect = rstats.msec_since_connect / 1000;
        }
        if (rstats.msec_since_disconnect != UINT_MAX) {
            status->sec_since_disconnect = rstats.msec_since_disconnect / 1000;
        }
        status->n_connections = rstats.is_connected ? 1 : 0;
    }
    return true;
}

void
ovsdb_jsonrpc_server_free_remote_status(
    struct ovsdb_jsonrpc_remote_status *status)
{
    free(status->locks_held);
    free(status->locks_waiting);
    free(status->locks_lost);
    status->locks_held = status->locks_waiting = status->locks_lost = NULL;
}

void
ovsdb_jsonrpc_server_get_memory_usage(const struct ovsdb_jsonrpc_server *svr,
                                      struct smap *usage)
{
    unsigned long long n_sessions = 0, n_triggers = 0, backlog = 0;
    unsigned long long n_monitors = 0;

    const struct shash_node *node;
    SHASH_FOR_EACH (node, &svr->remotes) {
        const struct remote *remote = node->data;
        const struct session *s;
        LIST_FOR_EACH (s, node, &remote->sessions) {
            n_sessions++;
            n_triggers += hmap_count(&s->triggers);
            backlog += jsonrpc_session_get_backlog(s->js);
            n_monitors += ovsdb_monitor_session_count(s->monitors);
        }
    }

    smap_increase_ullong(usage, "monitors", n_monitors);
    if (n_sessions) {
        smap_increase_ullong(usage, "sessions", n_sessions);
    }
    if (n_triggers) {
        smap_increase_ullong(usage, "triggers", n_triggers);
    }
    if (backlog) {
        smap_increase_ullong(usage, "backlog", backlog);
    }
}

/* Sessions. */

static void
session_send(struct session *s, struct jsonrpc_msg *msg)
{
    jsonrpc_session_send(s->js, msg);
}

static void
session_notify_lock(struct ovsdb_session *up, const char *method,
                    const char *lock_name)
{
    struct session *s = CONTAINER_OF(up, struct session, up);
    json_t *params = json_pack("[s]", lock_name);
    session_send(s, jsonrpc_create_notify(method, params));
}

/* Releases SESSION's locks and tells the sessions that get them. */
static void
session_release_locks(struct session *s)
{
    struct ovsdb_lock_waiter **owners;
    size_t n_owners;

    ovsdb_session_destroy(&s->up, &owners, &n_owners);
    for (size_t i = 0; i < n_owners; i++) {
        session_notify_lock(owners[i]->session, "locked",
                            ovsdb_lock_waiter_get_name(owners[i]));
    }
    free(owners);
}

/* Forgets everything the client asked for: its connection went away. */
static void
session_reset(struct session *s)
{
    struct rpc_trigger *t;
    HMAP_FOR_EACH_SAFE (t, hmap_node, &s->triggers) {
        rpc_trigger_destroy(t);
    }
    session_drop_synced_replies(s);
    session_drop_forwards(s);
    session_drop_schema_waits(s);
    session_drop_converts(s);
    ovsdb_monitor_session_destroy(s->monitors);
    s->monitors = ovsdb_monitor_session_create(monitor_send_cb, s);
    session_release_locks(s);
    ovsdb_session_init(&s->up, &s->remote->server->locks);
    s->db_change_aware = false;
    s->disconnecting = false;
}

static void
session_destroy(struct session *s)
{
    struct rpc_trigger *t;
    HMAP_FOR_EACH_SAFE (t, hmap_node, &s->triggers) {
        rpc_trigger_destroy(t);
    }
    session_drop_synced_replies(s);
    session_drop_forwards(s);
    session_drop_schema_waits(s);
    session_drop_converts(s);
    hmap_destroy(&s->triggers);
    ovsdb_monitor_session_destroy(s->monitors);
    session_release_locks(s);
    jsonrpc_session_close(s->js);
    ovs_list_remove(&s->node);
    free(s);
}

/* Makes S disconnect (an active remote's session then reconnects).  With
 * DRAIN, what is already queued, and what the request being handled adds,
 * is sent first.  COMMENT, the reason, is logged if nonnull. */
static void
session_disconnect(struct session *s, bool drain, const char *comment)
{
    if (s->disconnecting) {
        if (!drain) {
            s->disconnect_deadline = time_msec();
        }
        return;
    }
    if (comment && jsonrpc_session_is_connected(s->js)) {
        VLOG_INFO("%s: disconnecting (%s)",
                  jsonrpc_session_get_name(s->js), comment);
    }
    s->disconnecting = true;
    s->disconnect_deadline = time_msec() + (drain ? DRAIN_MSEC : 0);
}

/* Looks up the database named by the first element of REQUEST's params.
 * Returns it, or NULL with an error reply in *REPLYP. */
static struct ovsdb *
lookup_db(const struct session *s, const struct jsonrpc_msg *request,
          struct jsonrpc_msg **replyp)
{
    struct ovsdb_error *error;
    const json_t *name = json_array_get(request->params, 0);

    if (!json_is_string(name)) {
        error = ovsdb_syntax_error(
            request->params, NULL,
            "%s request params must begin with <db-name>", request->method);
    } else {
        struct ovsdb *db = shash_find_data(&s->remote->server->dbs,
                                           json_string_value(name));
        if (db) {
            *replyp = NULL;
            return db;
        }
        error = ovsdb_syntax_error(
            request->params, "unknown database",
            "%s request specifies unknown database %s",
            request->method, json_string_value(name));
    }
    *replyp = jsonrpc_create_error(ovsdb_error_to_json_free(error),
                                   json_incref(request->id));
    return NULL;
}

static struct jsonrpc_msg *
error_reply(const struct jsonrpc_msg *request, struct ovsdb_error *error)
{
    return jsonrpc_create_error(ovsdb_error_to_json_free(error),
                                json_incref(request->id));
}

/* Request ids are any JSON value: hash their canonical text. */
static uint32_t
id_hash(const json_t *id)
{
    char *s = json_dumps(id, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    uint32_t hash = hash_string(s ? s : "", 0);
    free(s);
    return hash;
}

static struct rpc_trigger *
find_trigger(const struct session *s, const json_t *id, uint32_t hash)
{
    struct rpc_trigger *t;
    HMAP_FOR_EACH_WITH_HASH (t, hmap_node, hash, &s->triggers) {
        if (json_equal(t->id, (json_t *) id)) {
            return t;
        }
    }
    return NULL;
}

static void
rpc_trigger_destroy(struct rpc_trigger *t)
{
    hmap_remove(&t->session->triggers, &t->hmap_node);
    ovsdb_trigger_destroy(&t->trigger);
    json_decref(t->id);
    free(t);
}

static void
rpc_forward_destroy(struct rpc_forward *f)
{
    ovs_list_remove(&f->node);
    json_decref(f->id);
    free(f);
}

static void
session_drop_forwards(struct session *s)
{
    struct rpc_forward *f;
    LIST_FOR_EACH_SAFE (f, node, &s->forwards) {
        ovsdb_relay_txn_cancel(f->txn);
        rpc_forward_destroy(f);
    }
}

/* The reply for a forwarded transaction that got no answer upstream. */
static struct jsonrpc_msg *
relay_unavailable_reply(const json_t *id)
{
    struct ovsdb_error *error = ovsdb_error(
        "not connected", "the relay is not connected to the database "
        "server it copies");
    json_t *result = json_array();
    json_array_append_new(result, ovsdb_error_to_json_free(error));
    return jsonrpc_create_reply(result, json_incref((json_t *) id));
}

/* Passes the upstream's REPLY (NULL if none came) back to the client. */
static void
forward_reply_cb(void *f_, const struct jsonrpc_msg *reply)
{
    struct rpc_forward *f = f_;
    struct jsonrpc_msg *msg;
    if (!reply) {
        msg = relay_unavailable_reply(f->id);
    } else if (reply->type == JSONRPC_REPLY) {
        msg = jsonrpc_create_reply(json_incref(reply->result),
                                   json_incref(f->id));
    } else {
        msg = jsonrpc_create_error(json_incref(reply->error),
                                   json_incref(f->id));
    }
    session_send(f->session, msg);
    rpc_forward_destroy(f);
}

static struct jsonrpc_msg *
handle_transact(struct session *s, const struct jsonrpc_msg *request)
{
    struct jsonrpc_msg *reply;
    struct ovsdb *db = lookup_db(s, request, &reply);
    if (!db) {
        return reply;
    }

    /* A relay's copy changes only by following its upstream: a transaction
     * that would change it goes there.  (On a read-only connection it runs
     * here, to fail as such.) */
    if (db->relay && !session_is_read_only(s)
        && ovsdb_relay_must_forward(db->relay, request->params)) {
        struct rpc_forward *f = xzalloc(sizeof *f);
        f->session = s;
        f->id = json_incref(request->id);
        ovs_list_push_back(&s->forwards, &f->node);
        f->txn = ovsdb_relay_forward(db->relay, request->params,
                                     forward_reply_cb, f);
        if (!f->txn) {
            rpc_forward_destroy(f);
            return relay_unavailable_reply(request->id);
        }
        return NULL;
    }

    uint32_t hash = id_hash(request->id);
    if (find_trigger(s, request->id, hash)) {
        return jsonrpc_create_error(json_string("duplicate request ID"),
                                    json_incref(request->id));
    }

    /* The role follows the remote's configuration; the identity is the
     * connection's, which for an active remote changes on reconnection. */
    ovsdb_session_set_rbac(&s->up, s->remote->options.role,
                           jsonrpc_session_get_peer_id(s->js));

    struct rpc_trigger *t = xzalloc(sizeof *t);
    if (ovsdb_trigger_init(&t->trigger, db, &s->up, request->params,
                           session_is_read_only(s), time_msec())) {
        /* Any update notifications the commit caused are queued already,
         * ahead of this reply. */
        reply = jsonrpc_create_reply(ovsdb_trigger_steal_result(&t->trigger),
                                     json_incref(request->id));
        session_send_or_hold(s, &t->trigger, reply);
        ovsdb_trigger_destroy(&t->trigger);
        free(t);
        return NULL;
    }
    t->session = s;
    t->id = json_incref(request->id);
    hmap_insert(&s->triggers, &t->hmap_node, hash);
    return NULL;
}

static struct jsonrpc_msg *
handle_list_dbs(struct session *s, const struct jsonrpc_msg *request)
{
    const struct shash *dbs = &s->remote->server->dbs;
    const struct shash_node **nodes = shash_sort(dbs);
    json_t *names = json_array();
    for (size_t i = 0; i < shash_count(dbs); i++) {
        json_array_append_new(names, json_string(nodes[i]->name));
    }
    free(nodes);
    return jsonrpc_create_reply(names, json_incref(request->id));
}

static void
schema_wait_destroy(struct schema_wait *w)
{
    ovs_list_remove(&w->node);
    json_decref(w->id);
    free(w->db_name);
    free(w);
}

static void
session_drop_schema_waits(struct session *s)
{
    struct schema_wait *w;
    LIST_FOR_EACH_SAFE (w, node, &s->schema_waits) {
        schema_wait_destroy(w);
    }
}

/* Answers the "get_schema" requests that waited for a relay's schema. */
static void
session_answer_schema_waits(struct session *s)
{
    struct schema_wait *w;
    LIST_FOR_EACH_SAFE (w, node, &s->schema_waits) {
        struct ovsdb *db = shash_find_data(&s->remote->server->dbs,
                                           w->db_name);
        if (db && db->relay && !ovsdb_relay_has_schema(db->relay)) {
            continue;
        }
        struct jsonrpc_msg *reply;
        if (db) {
            reply = jsonrpc_create_reply(ovsdb_schema_to_json(db->schema),
                                         json_incref(w->id));
        } else {
            struct ovsdb_error *error = ovsdb_error(
                "unknown database", "get_schema request specifies unknown "
                "database %s", w->db_name);
            reply = jsonrpc_create_error(ovsdb_error_to_json_free(error),
                                         json_incref(w->id));
        }
        session_send(s, reply);
        schema_wait_destroy(w);
    }
}

static struct jsonrpc_msg *
handle_get_schema(struct session *s, const struct jsonrpc_msg *request)
{
    struct jsonrpc_msg *reply;
    struct ovsdb *db = lookup_db(s, request, &reply);
    if (!db) {
        return reply;
    }
    if (db->relay && !ovsdb_relay_has_schema(db->relay)) {
        struct schema_wait *w = xmalloc(sizeof *w);
        w->id = json_incref(request->id);
        w->db_name = xstrdup(db->name);
        ovs_list_push_back(&s->schema_waits, &w->node);
        return NULL;
    }
    return jsonrpc_create_reply(ovsdb_schema_to_json(db->schema),
                                json_incref(request->id));
}

/* RFC 7047 <id>: a letter or "_", then letters, digits and "_". */
static bool
is_id(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')
          || *s == '_')) {
        return false;
    }
    for (s++; *s; s++) {
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')
              || (*s >= '0' && *s <= '9') || *s == '_')) {
            return false;
        }
    }
    return true;
}

/* Returns the lock name that REQUEST's params hold, or NULL after putting
 * an error reply in *REPLYP. */
static const char *
parse_lock_name(const struct jsonrpc_msg *request,
                struct jsonrpc_msg **replyp)
{
    const json_t *name = json_array_get(request->params, 0);
    if (json_array_size(request->params) != 1 || !json_is_string(name)
        || !is_id(json_string_value(name))) {
        *replyp = error_reply(request, ovsdb_syntax_error(
                                  request->params, NULL,
                                  "%s request params must be <id>",
                                  request->method));
        return NULL;
    }
    return json_string_value(name);
}

static struct jsonrpc_msg *
handle_lock(struct session *s, const struct jsonrpc_msg *request,
            enum ovsdb_lock_mode mode)
{
    struct jsonrpc_msg *reply;
    const char *lock_name = parse_lock_name(request, &reply);
    if (!lock_name) {
        return reply;
    }
    if (ovsdb_session_get_lock_waiter(&s->up, lock_name)) {
        return error_reply(request, ovsdb_syntax_error(
                               request->params, NULL,
                               "must issue \"unlock\" before new \"%s\"",
                               request->method));
    }

    struct ovsdb_lock_waiter *victim;
    struct ovsdb_lock_waiter *waiter = ovsdb_session_lock(&s->up, lock_name,
                                                          mode, &victim);
    if (victim) {
        session_notify_lock(victim->session, "stolen", lock_name);
    }
    json_t *result = json_pack("{s:b}", "locked",
                               ovsdb_lock_waiter_is_owner(waiter));
    return jsonrpc_create_reply(result, json_incref(request->id));
}

static struct jsonrpc_msg *
handle_unlock(struct session *s, const struct jsonrpc_msg *request)
{
    struct jsonrpc_msg *reply;
    const char *lock_name = parse_lock_name(request, &reply);
    if (!lock_name) {
        return reply;
    }
    struct ovsdb_lock_waiter *waiter = ovsdb_session_get_lock_waiter(
        &s->up, lock_name);
    if (!waiter) {
        return error_reply(request, ovsdb_syntax_error(
                               request->params, NULL,
                               "unlock: \"unlock\" without \"lock\" or "
                               "\"steal\""));
    }

    /* The waiter record holds the lock's name: keep a copy for the
     * notification. */
    char *name = xstrdup(lock_name);
    struct ovsdb_lock_waiter *new_owner = ovsdb_lock_waiter_remove(waiter);
    if (new_owner) {
        session_notify_lock(new_owner->session, "locked", name);
    }
    free(name);
    return jsonrpc_create_reply(json_object(), json_incref(request->id));
}

static struct jsonrpc_msg *
handle_set_db_change_aware(struct session *s,
                           const struct jsonrpc_msg *request)
{
    const json_t *value = json_array_get(request->params, 0);
    if (json_array_size(request->params) != 1 || !json_is_boolean(value)) {
        return error_reply(request, ovsdb_syntax_error(
                               request->params, NULL,
                               "set_db_change_aware: true or false "
                               "parameter expected"));
    }
    s->db_change_aware = json_is_true(value);
    return jsonrpc_create_reply(json_object(), json_incref(request->id));
}

static struct jsonrpc_msg *
handle_get_server_id(struct session *s, const struct jsonrpc_msg *request)
{
    char *id = uuid_to_string(&s->remote->server->server_id);
    json_t *result = json_string(id);
    free(id);
    return jsonrpc_create_reply(result, json_incref(request->id));
}

static struct jsonrpc_msg *
handle_convert(struct session *s, const struct jsonrpc_msg *request)
{
    struct ovsdb_jsonrpc_server *svr = s->remote->server;
    struct jsonrpc_msg *reply;
    struct ovsdb *db = lookup_db(s, request, &reply);
    if (!db) {
        return reply;
    }

    const json_t *params = request->params;
    if (json_array_size(params) != 2) {
        return error_reply(request, ovsdb_syntax_error(params, NULL,
                                                       "array expected"));
    }
    if (session_is_read_only(s)) {
        return error_reply(request, ovsdb_error(
                               "not allowed", "conversion is not allowed "
                               "on a read-only connection"));
    }
    if (db->name[0] == '_') {
        return error_reply(request, ovsdb_error(
                               "not allowed", "conversion is not allowed "
                               "for reserved database %s", db->name));
    }
    if (!svr->convert_cb) {
        return error_reply(request, ovsdb_not_supported_error(
                               "this server cannot convert databases"));
    }

    struct ovsdb_schema *new_schema;
    struct ovsdb_error *error = ovsdb_schema_from_json(
        json_array_get(params, 1), &new_schema);
    if (error) {
        return error_reply(request, error);
    }
    if (strcmp(new_schema->name, db->name)) {
        error = ovsdb_error("invalid parameters", "new schema name (%s) "
                            "does not match database name (%s)",
                            new_schema->name, db->name);
    } else {
        /* The callback replaces DB (and destroys it): name it by the
         * request's copy of the name. */
        const char *db_name = json_string_value(json_array_get(params, 0));
        VLOG_INFO("%s: converting database %s to schema version %s",
                  jsonrpc_session_get_name(s->js), db_name,
                  new_schema->version);
        struct raft_command *command = NULL;
        error = svr->convert_cb(svr->convert_aux, db_name, new_schema,
                                &command);
        if (!error && command) {
            struct pending_convert *pc = xzalloc(sizeof *pc);
            pc->id = json_incref(request->id);
            pc->db_name = xstrdup(db_name);
            pc->new_schema = new_schema;
            pc->command = command;
            ovs_list_push_back(&s->converts, &pc->node);
            return NULL;
        }
    }
    ovsdb_schema_destroy(new_schema);
    if (error) {
        return error_reply(request, error);
    }
    return jsonrpc_create_reply(json_object(), json_incref(request->id));
}

static void
pending_convert_destroy(struct pending_convert *pc)
{
    ovs_list_remove(&pc->node);
    raft_command_unref(pc->command);
    ovsdb_schema_destroy(pc->new_schema);
    json_decref(pc->id);
    free(pc->db_name);
    free(pc);
}

static void
session_drop_converts(struct session *s)
{
    struct pending_convert *pc;
    LIST_FOR_EACH_SAFE (pc, node, &s->converts) {
        pending_convert_destroy(pc);
    }
}

/* Answers the conversions of clustered databases that are over, and
 * proposes again those the cluster refused. */
static void
session_run_converts(struct session *s)
{
    struct ovsdb_jsonrpc_server *svr = s->remote->server;
    long long int now = time_msec();
    struct pending_convert *pc;
    LIST_FOR_EACH_SAFE (pc, node, &s->converts) {
        struct ovsdb *db = shash_find_data(&svr->dbs, pc->db_name);
        struct ovsdb_error *error = NULL;
        if (!db || !db->cluster) {
            session_send(s, jsonrpc_create_error(json_string("canceled"),
                                                 json_incref(pc->id)));
            pending_convert_destroy(pc);
            continue;
        }
        if (!pc->command) {
            if (now < pc->retry_at) {
                continue;
            }
            error = svr->convert_cb(svr->convert_aux, pc->db_name,
                                    pc->new_schema, &pc->command);
            if (!error && !pc->command) {
                /* Cannot happen for a clustered database. */
                error = ovsdb_error("canceled", NULL);
            }
        } else {
            enum raft_command_status status;
            if (!ovsdb_cluster_command_done(db->cluster, pc->command,
                                            &status)) {
                continue;
            }
            raft_command_unref(pc->command);
            pc->command = NULL;
            switch (status) {
            case RAFT_CMD_SUCCESS:
                session_send(s, jsonrpc_create_reply(json_object(),
                                                     json_incref(pc->id)));
                pending_convert_destroy(pc);
                continue;
            case RAFT_CMD_NOT_LEADER:
            case RAFT_CMD_BAD_PREREQ:
            case RAFT_CMD_LOST_LEADERSHIP:
            case RAFT_CMD_TIMEOUT:
                /* Another change came first, or no leader: try again on
                 * the database as it will be then. */
                pc->retry_at = now + 100;
                continue;
            case RAFT_CMD_INCOMPLETE:
            case RAFT_CMD_SHUTDOWN:
            case RAFT_CMD_IO_ERROR:
            default:
                error = ovsdb_error(raft_command_status_to_string(status),
                                    "committing the conversion failed");
                break;
            }
        }
        if (error) {
            session_send(s, jsonrpc_create_error(
                             ovsdb_error_to_json_free(error),
                             json_incref(pc->id)));
            pending_convert_destroy(pc);
        }
    }
}

static void
session_wait_converts(const struct session *s)
{
    const struct pending_convert *pc;
    LIST_FOR_EACH (pc, node, &s->converts) {
        if (!pc->command) {
            poll_timer_wait_until(pc->retry_at);
        }
    }
}

static void
handle_request(struct session *s, const struct jsonrpc_msg *request)
{
    COVERAGE_INC(ovsdb_jsonrpc_request);

    const char *method = request->method;
    struct jsonrpc_msg *reply;
    if (!strcmp(method, "transact")) {
        reply = handle_transact(s, request);
    } else if (ovsdb_monitor_is_method(method)) {
        reply = ovsdb_monitor_session_handle(s->monitors,
                                             &s->remote->server->dbs,
                                             request);
    } else if (!strcmp(method, "list_dbs")) {
        reply = handle_list_dbs(s, request);
    } else if (!strcmp(method, "get_schema")) {
        reply = handle_get_schema(s, request);
    } else if (!strcmp(method, "lock")) {
        reply = handle_lock(s, request, OVSDB_LOCK_WAIT);
    } else if (!strcmp(method, "steal")) {
        reply = handle_lock(s, request, OVSDB_LOCK_STEAL);
    } else if (!strcmp(method, "unlock")) {
        reply = handle_unlock(s, request);
    } else if (!strcmp(method, "echo")) {
        reply = jsonrpc_create_reply(json_incref(request->params),
                                     json_incref(request->id));
    } else if (!strcmp(method, "set_db_change_aware")) {
        reply = handle_set_db_change_aware(s, request);
    } else if (!strcmp(method, "get_server_id")) {
        reply = handle_get_server_id(s, request);
    } else if (!strcmp(method, "convert")) {
        reply = handle_convert(s, request);
    } else {
        /* Exactly this string: clients fall back to older methods on it. */
        reply = jsonrpc_create_error(json_string("unknown method"),
                                     json_incref(request->id));
    }
    if (reply) {
        session_send(s, reply);
    }
}

static void
handle_notify(struct session *s, const struct jsonrpc_msg *notify)
{
    /* "cancel" (RFC 7047 4.1.4) is a notification whose params hold the id
     * of a pending "transact", which then fails with "canceled". */
    if (!strcmp(notify->method, "cancel")
        && json_array_size(notify->params) == 1) {
        const json_t *id = json_array_get(notify->params, 0);
        struct rpc_trigger *t = find_trigger(s, id, id_hash(id));
        if (t) {
            session_send(s, jsonrpc_create_error(json_string("canceled"),
                                                 json_incref(t->id)));
            rpc_trigger_destroy(t);
        }
    }
}

static void
handle_message(struct session *s, struct jsonrpc_msg *msg)
{
    switch (msg->type) {
    case JSONRPC_REQUEST:
        handle_request(s, msg);
        break;

    case JSONRPC_NOTIFY:
        handle_notify(s, msg);
        break;

    case JSONRPC_REPLY:
    case JSONRPC_ERROR: {
        /* We send no requests (echo replies never get here). */
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
        VLOG_WARN_RL(&rl, "%s: received unexpected %s message",
                     jsonrpc_session_get_name(s->js),
                     jsonrpc_msg_type_to_string(msg->type));
        session_disconnect(s, false, "protocol error");
        break;
    }
    }
    jsonrpc_msg_destroy(msg);
}

/* Runs S.  Returns false if S is dead and was destroyed. */
static bool
session_run(struct session *s)
{
    jsonrpc_session_run(s->js);

    unsigned int seqno = jsonrpc_session_get_seqno(s->js);
    if (seqno != s->seqno) {
        /* Connected or disconnected: nothing of before carries over. */
        s->seqno = seqno;
        session_reset(s);
    }

    if (s->disconnecting) {
        if (!jsonrpc_session_is_connected(s->js)) {
            s->disconnecting = false;
        } else if (!jsonrpc_session_get_backlog(s->js)
                   || time_msec() >= s->disconnect_deadline) {
            jsonrpc_session_force_reconnect(s->js);
            jsonrpc_session_run(s->js);
            if (jsonrpc_session_get_seqno(s->js) != s->seqno) {
                s->seqno = jsonrpc_session_get_seqno(s->js);
                session_reset(s);
            }
            s->disconnecting = false;
        }
    } else {
        session_answer_schema_waits(s);
        session_run_converts(s);
        for (int i = 0; i < MAX_MSGS_PER_RUN && !s->disconnecting; i++) {
            struct jsonrpc_msg *msg = jsonrpc_session_recv(s->js);
            if (!msg) {
                break;
            }
            handle_message(s, msg);
        }
    }

    if (!jsonrpc_session_is_alive(s->js)) {
        session_destroy(s);
        return false;
    }
    return true;
}

static void
session_wait(struct session *s)
{
    jsonrpc_session_wait(s->js);
    session_wait_converts(s);
    if (!s->disconnecting) {
        jsonrpc_session_recv_wait(s->js);
    } else if (!jsonrpc_session_get_backlog(s->js)) {
        poll_immediate_wake();
    } else {
        poll_timer_wait_until(s->disconnect_deadline);
    }
}

/* Sends the replies of the triggers in COMPLETED and frees them. */
static void
reply_completed(struct ovs_list *completed)
{
    struct ovsdb_trigger *trigger;
    LIST_FOR_EACH_POP (trigger, node, completed) {
        struct rpc_trigger *t = CONTAINER_OF(trigger, struct rpc_trigger,
                                             trigger);
        json_t *result = ovsdb_trigger_steal_result(&t->trigger);
        session_send_or_hold(t->session, &t->trigger,
                             jsonrpc_create_reply(result, json_incref(t->id)));
        rpc_trigger_destroy(t);
    }
}

void
ovsdb_jsonrpc_server_run(struct ovsdb_jsonrpc_server *svr)
{
    struct shash_node *node;
    SHASH_FOR_EACH (node, &svr->remotes) {
        struct remote *remote = node->data;
        if (remote->passive) {
            remote_accept(remote);
        }

        struct session *s;
        LIST_FOR_EACH_SAFE (s, node, &remote->sessions) {
            session_run(s);
        }
    }

    /* Retry waiting transactions after the commits above (and any others
     * since the last run), and time out waits. */
    long long int now = time_msec();
    SHASH_FOR_EACH (node, &svr->dbs) {
        struct ovsdb *db = node->data;
        if (ovs_list_is_empty(&db->triggers)) {
            db->run_triggers = false;
            continue;
        }
        struct ovs_list completed = OVS_LIST_INITIALIZER(&completed);
        ovsdb_trigger_run(db, now, &completed);
        reply_completed(&completed);
    }

    sync_and_reply(svr);
}

/* Group commit. */

/* Sends REPLY, the reply to the transaction of trigger T, on S, or holds it
 * until sync_and_reply() if the transaction's durable commit is not on disk
 * yet. */
static void
session_send_or_hold(struct session *s, struct ovsdb_trigger *t,
                     struct jsonrpc_msg *reply)
{
    if (t->needs_sync) {
        struct synced_reply *sr = xmalloc(sizeof *sr);
        sr->db = t->db;
        sr->reply = reply;
        ovs_list_push_back(&s->synced_replies, &sr->node);
    } else {
        session_send(s, reply);
    }
}

static void
session_drop_synced_replies(struct session *s)
{
    struct synced_reply *sr;
    LIST_FOR_EACH_POP (sr, node, &s->synced_replies) {
        jsonrpc_msg_destroy(sr->reply);
        free(sr);
    }
}

/* Makes the durable commits of every database durable, one fsync per
 * database however many clients committed, and then sends the replies that
 * waited for that.  If the sync fails, each of those replies gets the error
 * appended, as for a failed commit. */
static void
sync_and_reply(struct ovsdb_jsonrpc_server *svr)
{
    struct shash errors = SHASH_INITIALIZER(&errors);
    struct shash_node *node;
    SHASH_FOR_EACH (node, &svr->dbs) {
        struct ovsdb *db = node->data;
        struct ovsdb_error *error = ovsdb_sync(db);
        if (error) {
            char *s = ovsdb_error_to_string(error);
            VLOG_ERR("%s: durable commit failed: %s", db->name, s);
            free(s);
            shash_add(&errors, db->name, error);
        }
    }

    SHASH_FOR_EACH (node, &svr->remotes) {
        struct remote *remote = node->data;
        struct session *s;
        LIST_FOR_EACH (s, node, &remote->sessions) {
            struct synced_reply *sr;
            LIST_FOR_EACH_POP (sr, node, &s->synced_replies) {
                struct ovsdb_error *error = shash_find_data(&errors,
                                                            sr->db->name);
                if (error) {
                    json_array_append_new(sr->reply->result,
                                          ovsdb_error_to_json(error));
                }
                session_send(s, sr->reply);
                free(sr);
            }
        }
    }

    SHASH_FOR_EACH (node, &errors) {
        ovsdb_error_destroy(node->data);
    }
    shash_destroy(&errors);
}

void
ovsdb_jsonrpc_server_wait(struct ovsdb_jsonrpc_server *svr)
{
    struct shash_node *node;
    SHASH_FOR_EACH (node, &svr->remotes) {
        struct remote *remote = node->data;
        remote_wait(remote);

        struct session *s;
        LIST_FOR_EACH (s, node, &remote->sessions) {
            session_wait(s);
        }
    }

    long long int now = time_msec();
    SHASH_FOR_EACH (node, &svr->dbs) {
        ovsdb_trigger_wait(node->data, now);
    }
}
