/* ovsdb-jsonrpc-server: the OVSDB protocol over JSON-RPC (RFC 7047 section
 * 4 plus Open vSwitch's extensions) for a set of databases.
 *
 * A server has remotes: passive ones ("punix:", "ptcp:", "pssl:") that
 * accept any number of sessions, active ones ("unix:", "tcp:", "ssl:") that
 * keep one reconnecting session.  Each session is a JSON-RPC connection on
 * which the server answers list_dbs, get_schema, transact, cancel,
 * monitor, monitor_cond, monitor_cond_since, monitor_cond_change,
 * monitor_cancel, lock, steal, unlock, echo, set_db_change_aware,
 * get_server_id and convert, and sends update/update2/update3, locked,
 * stolen and monitor_canceled notifications.  Anything else gets the error
 * "unknown method" (exactly that string: the Python ovs library falls back
 * from monitor_cond_since to older methods only on it).
 *
 * Ordering guarantee clients rely on: the update notifications caused by a
 * session's own transaction are queued on that session before the
 * transaction's reply.
 *
 * A transaction that cannot complete yet (a "wait" operation) becomes a
 * trigger and is retried after every commit to its database, until it
 * succeeds, times out, or the client cancels it.
 *
 * Ownership: the server owns its remotes and sessions.  Databases added
 * with ovsdb_jsonrpc_server_add_db() stay the caller's; the caller removes
 * a database (ovsdb_jsonrpc_server_remove_db()) before destroying it.
 * ovsdb_jsonrpc_server_set_remotes() copies what it needs from its
 * argument.
 */
#ifndef OVSDB_JSONRPC_SERVER_H
#define OVSDB_JSONRPC_SERVER_H 1

#include <stdbool.h>
#include <stdint.h>

struct ovsdb;
struct ovsdb_error;
struct ovsdb_schema;
struct shash;
struct smap;
struct uuid;

struct ovsdb_jsonrpc_server *ovsdb_jsonrpc_server_create(bool read_only);
void ovsdb_jsonrpc_server_destroy(struct ovsdb_jsonrpc_server *);

/* Makes every session read-only (a backup server's state) or lets each
 * remote's own read_only option decide again.  Takes effect at once for
 * the next request of every session. */
void ovsdb_jsonrpc_server_set_read_only(struct ovsdb_jsonrpc_server *,
                                        bool read_only);

/* Serves DB (under DB->name).  Returns false if a database with that name
 * is already served. */
bool ovsdb_jsonrpc_server_add_db(struct ovsdb_jsonrpc_server *,
                                 struct ovsdb *db);
/* Stops serving DB: its monitors and pending transactions end (sessions
 * that said set_db_change_aware get "monitor_canceled" and "canceled", the
 * others are disconnected, as Open vSwitch does), and COMMENT, if nonnull,
 * is logged for each session disconnected. */
void ovsdb_jsonrpc_server_remove_db(struct ovsdb_jsonrpc_server *,
                                    struct ovsdb *db, const char *comment);

/* Options for one remote. */
struct ovsdb_jsonrpc_options {
    int max_backoff;            /* Active remotes: max reconnect backoff,
                                 * in ms. */
    int probe_interval;         /* Inactivity probe, in ms (0: none). */
    bool read_only;             /* Only read-only transactions. */
    char *role;                 /* RBAC role of its clients (see rbac.h),
                                 * owned, may be NULL. */
    int dscp;                   /* DSCP for the connection's packets. */
};

/* Default options for TARGET (probe interval 5 s for active and TCP/SSL
 * passive remotes, 0 for unix sockets). */
struct ovsdb_jsonrpc_options *ovsdb_jsonrpc_default_options(
    const char *target);

/* Makes the server's remotes exactly REMOTES (target name -> struct
 * ovsdb_jsonrpc_options *): remotes no longer listed are closed with their
 * sessions, new ones opened (a failure is logged and retried), and changed
 * options applied.  REMOTES is not kept. */
void ovsdb_jsonrpc_server_set_remotes(struct ovsdb_jsonrpc_server *,
                                      const struct shash *remotes);

/* Status of one remote, for the "status" columns of Manager-like rows. */
struct ovsdb_jsonrpc_remote_status {
    const char *state;          /* Reconnect FSM state name (static). */
    int last_error;             /* errno value, 0 if none. */
    unsigned int sec_since_connect;     /* UINT_MAX if never. */
    unsigned int sec_since_disconnect;  /* UINT_MAX if never. */
    bool is_connected;
    char *locks_held;           /* Space-separated lock names, owned. */
    char *locks_waiting;
    char *locks_lost;
    int n_connections;
    uint16_t bound_port;        /* Passive TCP/SSL: the port bound. */
};

/* Fills STATUS for remote TARGET; false if there is no such remote or it
 * has no status yet.  Free with ovsdb_jsonrpc_server_free_remote_status. */
bool ovsdb_jsonrpc_server_get_remote_status(
    const struct ovsdb_jsonrpc_server *, const char *target,
    struct ovsdb_jsonrpc_remote_status *);
void ovsdb_jsonrpc_server_free_remote_status(
    struct ovsdb_jsonrpc_remote_status *);

/* Drops every session (FORCED: also active remotes reconnect at once),
 * logging COMMENT. */
void ovsdb_jsonrpc_server_reconnect(struct ovsdb_jsonrpc_server *,
                                    bool forced, const char *comment);

/* The uuid returned by "get_server_id". */
void ovsdb_jsonrpc_server_set_server_id(struct ovsdb_jsonrpc_server *,
                                        const struct uuid *);

/* Online conversion ("convert" method): the server checks the request and
 * parses the new schema, then calls CONVERT, which must convert the
 * database named DB_NAME to NEW_SCHEMA (borrowed), replace it in the
 * storage and in this server (remove_db/add_db) and return NULL, or return
 * an error and change nothing.  A clustered database converts only once
 * the cluster committed the change: CONVERT then proposes it and returns
 * NULL with *COMMANDP, a reference the server takes, and the server
 * replies once that command completed and was applied (and calls CONVERT
 * again if the cluster refused it, as it retries transactions).  Without a
 * callback "convert" fails with "not supported". */
struct raft_command;
typedef struct ovsdb_error *ovsdb_jsonrpc_convert_func(
    void *aux, const char *db_name, const struct ovsdb_schema *new_schema,
    struct raft_command **commandp);
void ovsdb_jsonrpc_server_set_convert_cb(struct ovsdb_jsonrpc_server *,
                                         ovsdb_jsonrpc_convert_func *,
                                         void *aux);

void ovsdb_jsonrpc_server_run(struct ovsdb_jsonrpc_server *);
void ovsdb_jsonrpc_server_wait(struct ovsdb_jsonrpc_server *);

/* Adds "sessions", "monitors", "triggers", "backlog" and the like to
 * USAGE. */
void ovsdb_jsonrpc_server_get_memory_usage(
    const struct ovsdb_jsonrpc_server *, struct smap *usage);

#endif /* ovsdb/jsonrpc-server.h */
