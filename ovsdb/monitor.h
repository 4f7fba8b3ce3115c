/* ovsdb-monitor: the monitor family of OVSDB methods for one JSON-RPC
 * session: "monitor" (RFC 7047 4.1.5, "update" notifications),
 * "monitor_cond" ("update2", with conditions), "monitor_cond_since"
 * ("update3", resuming from a transaction id), "monitor_cond_change" and
 * "monitor_cancel".
 *
 * A database with monitors (or a history) gets one observer from this
 * module.  When a transaction commits, the observer turns the changes that
 * each monitor selects (columns, "select" of initial/insert/delete/modify,
 * condition) into one notification and hands it to the session's SEND
 * callback at once, inside the commit, monitors in the order they were
 * created.  The JSON-RPC layer sends a transaction's reply only after the
 * commit returns, so a client always sees the update caused by its own
 * transaction before the reply, which the Open vSwitch IDLs depend on.
 *
 * Monitors with the same shape (tables, columns, "select", condition) share
 * the work: a commit's table-updates are composed once per shape and
 * format and the same JSON goes to every session (monitor-shape.h), and
 * so does the initial contents of monitors created between two commits.
 * An empty "where" selects every row, as in Open vSwitch.
 *
 * monitor_cond_since: every database keeps the changes of its last
 * transactions (a bounded history, per database, shared by all sessions,
 * monitor-history.h); a client that gives the id of a transaction still in
 * the history gets only the changes since ("found": true), otherwise the
 * full initial contents.  The reply's last-txn-id and each update3 carry
 * the id of the database's last transaction.  (Open vSwitch keeps such a
 * history only for clustered databases.)
 *
 * SEND must only queue the message: it is called inside commits and must
 * not destroy a session or monitor on the spot.
 *
 * Ownership: the JSON-RPC layer owns a struct ovsdb_monitor_session per
 * session and destroys it with the session.  Databases are borrowed: the
 * JSON-RPC layer calls ovsdb_monitor_session_forget_db() before a database
 * goes away.
 */
#ifndef OVSDB_MONITOR_H
#define OVSDB_MONITOR_H 1

#include <stdbool.h>
#include <stddef.h>

struct jsonrpc_msg;
struct ovsdb;
struct shash;
struct smap;

/* Queues MSG (ownership passes) on the session. */
typedef void ovsdb_monitor_send_func(void *aux, struct jsonrpc_msg *msg);

struct ovsdb_monitor_session *ovsdb_monitor_session_create(
    ovsdb_monitor_send_func *send, void *aux);
void ovsdb_monitor_session_destroy(struct ovsdb_monitor_session *);

/* True if METHOD is one this module handles. */
bool ovsdb_monitor_is_method(const char *method);

/* Handles REQUEST (one of the methods above; DBS maps database names to
 * struct ovsdb * the session may use) and returns the reply or error
 * message to send.  The initial contents of a new monitor are in the reply
 * itself, as the RFC says.  Errors use Open vSwitch's wording ("unknown
 * database", "duplicate monitor ID", "unknown monitor", "syntax error",
 * "not supported"). */
struct jsonrpc_msg *ovsdb_monitor_session_handle(
    struct ovsdb_monitor_session *, const struct shash *dbs,
    const struct jsonrpc_msg *request);

/* Drops every monitor of the session on DB.  If NOTIFY, sends a
 * "monitor_canceled" notification for each (set_db_change_aware
 * sessions).  Returns the number of monitors dropped. */
size_t ovsdb_monitor_session_forget_db(struct ovsdb_monitor_session *,
                                       struct ovsdb *db, bool notify);

/* Number of monitors in the session (for memory/show). */
size_t ovsdb_monitor_session_count(const struct ovsdb_monitor_session *);

/* Starts keeping DB's transaction history for monitor_cond_since (the
 * JSON-RPC layer calls it when it starts serving DB), and stops and frees
 * it (before DB is destroyed or stops being served). */
void ovsdb_monitor_track_history(struct ovsdb *db);
void ovsdb_monitor_forget_history(struct ovsdb *db);

/* Adds DB's "txn-history" (transactions kept) and "txn-history-atoms" to
 * USAGE (for memory/show), if it keeps any. */
void ovsdb_monitor_get_memory_usage(const struct ovsdb *db, struct smap *);

#endif /* ovsdb/monitor.h */
