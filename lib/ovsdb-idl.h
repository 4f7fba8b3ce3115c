/* ovsdb-idl: an in-memory replica of (part of) one OVSDB database, kept up
 * to date over a reconnecting JSON-RPC session, plus transactions that
 * change the database through it.  ovs-vsctl and ovs-vswitchd read and
 * write the Open_vSwitch database this way.
 *
 * Usually through generated code: ovsdb/ovsdb-idlc turns a schema into
 * typed structs and accessors (struct ovsrec_bridge, ovsrec_bridge_first(),
 * ovsrec_bridge_set_name() ...) over the generic functions declared here.
 *
 * Replica
 * -------
 * Create an IDL with ovsdb_idl_create(remote, class, monitor_everything,
 * retry).  When MONITOR_EVERYTHING is false, nothing is replicated until the
 * caller chooses tables and columns with ovsdb_idl_add_table() /
 * ovsdb_idl_add_column().  A replicated column is either "alerting" (the
 * default: a change to it moves the IDL's change sequence) or, after
 * ovsdb_idl_omit_alert(), replicated silently (for columns the client
 * writes itself, e.g. status columns, so that its own writes do not wake
 * it).  ovsdb_idl_omit() stops replicating a column.  Columns and tables
 * that the server's schema lacks are left out with a warning, so a client
 * built for a newer schema still works against an older server.
 *
 * On every (re)connection the IDL fetches the schema and starts a monitor
 * with "monitor_cond_since", resuming from the last transaction id it saw
 * (the server then sends only what changed while we were away).  Servers
 * that do not know the method get "monitor_cond", then "monitor".
 *
 * The run/wait loop:
 *
 *     for (;;) {
 *         ovsdb_idl_run(idl);
 *         unsigned int seqno = ovsdb_idl_get_seqno(idl);
 *         if (seqno != last_seqno) { ... look at the rows ...; last_seqno =
 *                                    seqno; }
 *         ovsdb_idl_wait(idl);
 *         poll_block();
 *     }
 *
 * The same changes also move ovsdb_idl_get_change_seq(), a struct seq that
 * other threads may seq_wait() on.
 *
 * Change tracking: after ovsdb_idl_track_add_column() (or _all()), the rows
 * of the tracked tables that were inserted, modified in a tracked column,
 * or deleted since the last ovsdb_idl_track_clear() can be walked with
 * ovsdb_idl_track_get_first()/next() (OVSREC_*_FOR_EACH_TRACKED): work per
 * wake-up follows what changed, not the table size.  Deleted rows stay
 * readable (ovsdb_idl_row_is_deleted()) until ovsdb_idl_track_clear().
 *
 * Transactions
 * ------------
 * At most one open transaction per IDL (ovsdb_idl_txn_create()).  Writes
 * show in the replica at once (the typed members reflect them) and are sent
 * by ovsdb_idl_txn_commit(), which does not block: it returns INCOMPLETE
 * until the reply arrives through ovsdb_idl_run().  Committing reverts the
 * local changes; the server's own update, which it sends before the reply,
 * puts them back, so after a SUCCESS the replica shows the result.
 * ovsdb_idl_txn_commit_block() runs the loop until the outcome is known.
 *
 * TRY_AGAIN means a precondition failed: a column the transaction verified
 * (ovsdb_idl_txn_verify()) changed on the server, or a row it modifies was
 * deleted.  The caller waits for the replica to change, then redoes its work
 * from the new contents.
 *
 * Ownership: the IDL owns every row; row pointers stay valid until the next
 * ovsdb_idl_run() (or ovsdb_idl_track_clear() for deleted tracked rows).
 * The caller owns its transactions and must ovsdb_idl_txn_destroy() them.
 */
#ifndef OVSDB_IDL_H
#define OVSDB_IDL_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ovsdb-data.h"
#include "ovsdb-types.h"
#include "util.h"
#include "uuid.h"

struct ovsdb_datum;
struct ovsdb_idl_class;
struct ovsdb_idl_column;
struct ovsdb_idl_row;
struct ovsdb_idl_table_class;
struct seq;

/* The IDL. */

/* REMOTE may list several servers separated by commas (see "Servers"
 * below). */
struct ovsdb_idl *ovsdb_idl_create(const char *remote,
                                   const struct ovsdb_idl_class *,
                                   bool monitor_everything_by_default,
                                   bool retry);
/* The same in two steps, so that options that apply to connecting
 * (ovsdb_idl_set_shuffle_remotes()) can be set in between; nothing else may
 * be called before ovsdb_idl_set_remote(). */
struct ovsdb_idl *ovsdb_idl_create_unconnected(
    const struct ovsdb_idl_class *, bool monitor_everything_by_default);
void ovsdb_idl_set_remote(struct ovsdb_idl *, const char *remote,
                          bool retry);
void ovsdb_idl_destroy(struct ovsdb_idl *);

/* Servers.  On every connection the IDL first asks the server's _Server
 * database about its own database (and keeps watching it) and moves on to
 * the next server ("REMOTE: clustered database server is not cluster
 * leader; trying another server") unless that server is fit: it serves the
 * database and, for a clustered one, is connected to its cluster, is the
 * leader unless ovsdb_idl_set_leader_only(false) was called, is of the same
 * cluster as before and has no older data than the IDL saw (see
 * ovsdb-server-status.h).  So with REMOTE a list of a cluster's servers
 * the IDL finds the leader, and follows it when leadership moves.  The
 * servers are tried in random order unless
 * ovsdb_idl_set_shuffle_remotes(false) was called before the remote was
 * set. */
void ovsdb_idl_set_leader_only(struct ovsdb_idl *, bool leader_only);
void ovsdb_idl_set_shuffle_remotes(struct ovsdb_idl *, bool shuffle);

void ovsdb_idl_run(struct ovsdb_idl *);
void ovsdb_idl_wait(struct ovsdb_idl *);

/* Moves whenever the replica changes in an alerting way (row inserted or
 * deleted, alerting column modified), the lock status changes, or the
 * connection is lost. */
unsigned int ovsdb_idl_get_seqno(const struct ovsdb_idl *);
struct seq *ovsdb_idl_get_change_seq(const struct ovsdb_idl *);
/* True once a full initial replica has been received. */
bool ovsdb_idl_has_ever_connected(const struct ovsdb_idl *);
bool ovsdb_idl_is_connected(const struct ovsdb_idl *);
/* True while the replica is live: connected and the monitor's initial
 * reply (or resumption) has been applied. */
bool ovsdb_idl_is_monitoring(const struct ovsdb_idl *);
/* False once a session opened with RETRY false has ended. */
bool ovsdb_idl_is_alive(const struct ovsdb_idl *);
int ovsdb_idl_get_last_error(const struct ovsdb_idl *);
void ovsdb_idl_force_reconnect(struct ovsdb_idl *);
void ovsdb_idl_set_probe_interval(const struct ovsdb_idl *, int msec);
/* Waits until the initial replica is there or the session gives up. */
void ovsdb_idl_wait_for_replica_block(struct ovsdb_idl *);
/* The monitor method in use: "monitor_cond_since", "monitor_cond",
 * "monitor", or NULL before the first reply. */
const char *ovsdb_idl_get_monitor_method(const struct ovsdb_idl *);

/* Column selection (see the essay).  Modes are bit masks. */
#define OVSDB_IDL_MONITOR (1 << 0)  /* Replicate the column. */
#define OVSDB_IDL_ALERT   (1 << 1)  /* Its changes move the seqno. */
#define OVSDB_IDL_TRACK   (1 << 2)  /* Its changes are tracked. */

void ovsdb_idl_add_table(struct ovsdb_idl *,
                         const struct ovsdb_idl_table_class *);
void ovsdb_idl_add_column(struct ovsdb_idl *, const struct ovsdb_idl_column *);
void ovsdb_idl_omit(struct ovsdb_idl *, const struct ovsdb_idl_column *);
void ovsdb_idl_omit_alert(struct ovsdb_idl *, const struct ovsdb_idl_column *);

/* For a client that reads rows only through ovsdb_idl_read() and
 * ovsdb_idl_get() (ovs-vsctl): the typed members of rows stay empty and no
 * arcs between rows are kept, so that adding one element to a reference
 * set of N rows (a port to a bridge of 10,000) does not re-parse N
 * references.  Call before the first ovsdb_idl_run(). */
void ovsdb_idl_disable_typed_rows(struct ovsdb_idl *);
unsigned int ovsdb_idl_get_mode(const struct ovsdb_idl *,
                                const struct ovsdb_idl_column *);
/* Whether the server's schema had the table/column (false before the
 * schema arrived). */
bool ovsdb_idl_server_has_table(const struct ovsdb_idl *,
                                const struct ovsdb_idl_table_class *);
bool ovsdb_idl_server_has_column(const struct ovsdb_idl *,
                                 const struct ovsdb_idl_column *);

/* Conditional monitoring: replicate only the rows of TABLE that match
 * CONDITION, a JSON array of RFC 7047 conditions (NULL or [true]: every
 * row).  Takes over CONDITION.
 *
 * While monitoring with monitor_cond(_since) the IDL sends the change at
 * once ("monitor_cond_change", one request in flight at a time); the
 * server answers with the rows that start or stop matching, which the
 * replica (and change tracking) shows as inserts and deletes.  Otherwise
 * the condition goes with the next monitor request.  A condition changed
 * while disconnected makes that request a full reload rather than a
 * monitor_cond_since resumption, whose changes would be filtered by the
 * new condition but applied to rows chosen by the old one.
 *
 * Returns the condition seqno at which the server will have applied
 * CONDITION: once ovsdb_idl_get_condition_seqno() reaches it, the replica
 * holds exactly the matching rows.  A server that only knows "monitor"
 * cannot filter: the replica then holds every row, whatever the
 * condition, and the seqno moves at once. */
unsigned int ovsdb_idl_set_condition(struct ovsdb_idl *,
                                     const struct ovsdb_idl_table_class *,
                                     json_t *condition);
unsigned int ovsdb_idl_get_condition_seqno(const struct ovsdb_idl *);

/* Locks.  A client that needs exclusive write access (ovs-vswitchd takes
 * "ovs_vswitchd") names a lock; the IDL asks for it on every connection.
 * While the IDL does not hold it, commits fail with NOT_LOCKED without
 * reaching the server, and every transaction it does send asserts the
 * lock (the server refuses it, NOT_LOCKED too, if the lock was stolen
 * meanwhile).  When the server hands the lock over ("locked") or another
 * client steals it ("stolen"), has_lock changes and the change seqno
 * moves; a client robbed of its lock stays in line for it.  NULL releases
 * the lock.  Locks bind only the clients that ask for them. */
void ovsdb_idl_set_lock(struct ovsdb_idl *, const char *lock_name);
bool ovsdb_idl_has_lock(const struct ovsdb_idl *);
/* True if another client holds the lock we asked for. */
bool ovsdb_idl_is_lock_contended(const struct ovsdb_idl *);

/* Rows. */

const struct uuid *ovsdb_idl_row_get_uuid(const struct ovsdb_idl_row *);
/* The column's value as this client sees it (the transaction's value inside
 * a transaction).  Never NULL: an unreplicated column reads as its
 * default. */
const struct ovsdb_datum *ovsdb_idl_read(const struct ovsdb_idl_row *,
                                         const struct ovsdb_idl_column *);
/* The same, checking that the caller expects the column's atomic types. */
const struct ovsdb_datum *ovsdb_idl_get(const struct ovsdb_idl_row *,
                                        const struct ovsdb_idl_column *,
                                        enum ovsdb_atomic_type key_type,
                                        enum ovsdb_atomic_type value_type);
/* True if the row is inserted by the current transaction. */
bool ovsdb_idl_row_is_new(const struct ovsdb_idl_row *);
const struct ovsdb_idl_table_class *ovsdb_idl_row_get_class(
    const struct ovsdb_idl_row *);
/* Whether the server's copy of the row differs from the transaction's in
 * COLUMN (false outside a transaction). */
bool ovsdb_idl_row_is_written(const struct ovsdb_idl_row *,
                              const struct ovsdb_idl_column *);
const struct ovsdb_idl_table_class *ovsdb_idl_table_class_from_column(
    const struct ovsdb_idl_class *, const struct ovsdb_idl_column *);

/* Change tracking. */

enum ovsdb_idl_change {
    OVSDB_IDL_CHANGE_INSERT,
    OVSDB_IDL_CHANGE_MODIFY,
    OVSDB_IDL_CHANGE_DELETE,
    OVSDB_IDL_CHANGE_MAX
};

void ovsdb_idl_track_add_column(struct ovsdb_idl *,
                                const struct ovsdb_idl_column *);
void ovsdb_idl_track_add_all(struct ovsdb_idl *);
void ovsdb_idl_track_clear(struct ovsdb_idl *);
/* The IDL seqno at which the row last had a change of that kind since the
 * last ovsdb_idl_track_clear(), or 0. */
unsigned int ovsdb_idl_row_get_seqno(const struct ovsdb_idl_row *,
                                     enum ovsdb_idl_change);
bool ovsdb_idl_track_is_updated(const struct ovsdb_idl_row *,
                                const struct ovsdb_idl_column *);
bool ovsdb_idl_row_is_deleted(const struct ovsdb_idl_row *);

/* Transactions. */

enum ovsdb_idl_txn_status {
    TXN_UNCOMMITTED,            /* Not yet committed. */
    TXN_UNCHANGED,              /* Committed, but nothing to do. */
    TXN_INCOMPLETE,             /* Sent, waiting for the reply. */
    TXN_ABORTED,                /* ovsdb_idl_txn_abort() was called. */
    TXN_SUCCESS,                /* The server committed it. */
    TXN_TRY_AGAIN,              /* A precondition failed or the connection
                                 * was lost: redo from the new replica. */
    TXN_NOT_LOCKED,             /* The IDL does not hold its lock. */
    TXN_ERROR                   /* The server refused it: a bug or a
                                 * constraint violation. */
};

const char *ovsdb_idl_txn_status_to_string(enum ovsdb_idl_txn_status);

struct ovsdb_idl_txn *ovsdb_idl_txn_create(struct ovsdb_idl *);
void ovsdb_idl_txn_destroy(struct ovsdb_idl_txn *);
struct ovsdb_idl *ovsdb_idl_txn_get_idl(struct ovsdb_idl_txn *);
/* The IDL's open (uncommitted) transaction, or NULL. */
const struct ovsdb_idl_txn *ovsdb_idl_txn_get(const struct ovsdb_idl_row *);

void ovsdb_idl_txn_add_comment(struct ovsdb_idl_txn *, const char *, ...)
    OVS_PRINTF_FORMAT(2, 3);
/* Sends the transaction with a final "abort": the server checks everything
 * and changes nothing.  A transaction that would succeed reports
 * SUCCESS. */
void ovsdb_idl_txn_set_dry_run(struct ovsdb_idl_txn *);

/* Inserts a new row.  Its uuid in the replica is a local name until the
 * commit: a fresh one, or UUID if nonnull (which must not name a row the
 * replica has; references written before the insert may already use it).
 * The server chooses the row's real uuid (ovsdb_idl_txn_get_insert_uuid()
 * tells it after the commit); references to the row from columns written
 * in the same transaction are sent as a "named-uuid". */
const struct ovsdb_idl_row *ovsdb_idl_txn_insert(
    struct ovsdb_idl_txn *, const struct ovsdb_idl_table_class *,
    const struct uuid *);
/* Inserts a new row that the server is to create with exactly UUID (the
 * "uuid" member of an "insert" operation, Open vSwitch's extension to RFC
 * 7047; the server refuses a uuid that its table already has).  Returns
 * NULL, inserting nothing, if the replica already has a row of that table
 * with UUID, including one this transaction inserted or deleted. */
const struct ovsdb_idl_row *ovsdb_idl_txn_insert_persist_uuid(
    struct ovsdb_idl_txn *, const struct ovsdb_idl_table_class *,
    const struct uuid *);
void ovsdb_idl_txn_delete(const struct ovsdb_idl_row *);
/* Replaces COLUMN of ROW with DATUM (taken over; must be valid for the
 * column's type). */
void ovsdb_idl_txn_write(const struct ovsdb_idl_row *,
                         const struct ovsdb_idl_column *,
                         struct ovsdb_datum *);
void ovsdb_idl_txn_write_clone(const struct ovsdb_idl_row *,
                               const struct ovsdb_idl_column *,
                               const struct ovsdb_datum *);
/* Partial updates of a set or map column, sent as a "mutate", so their cost
 * on the wire does not grow with the column's size.  DATUM (taken over) is
 * a set of elements (set columns) or of pairs (maps: set keys to values)
 * to add, or a set of elements or keys to remove. */
void ovsdb_idl_txn_write_partial_add(const struct ovsdb_idl_row *,
                                     const struct ovsdb_idl_column *,
                                     struct ovsdb_datum *);
void ovsdb_idl_txn_write_partial_remove(const struct ovsdb_idl_row *,
                                        const struct ovsdb_idl_column *,
                                        struct ovsdb_datum *);
/* Makes the transaction fail with TRY_AGAIN if COLUMN of ROW on the server
 * no longer has the value the replica has now. */
void ovsdb_idl_txn_verify(const struct ovsdb_idl_row *,
                          const struct ovsdb_idl_column *);
/* Adds 1 to integer COLUMN of ROW as part of the commit and fetches the
 * new value (ovsdb_idl_txn_get_increment_new_value()).  With FORCE the
 * transaction is sent even if it changes nothing else. */
void ovsdb_idl_txn_increment(struct ovsdb_idl_txn *,
                             const struct ovsdb_idl_row *,
                             const struct ovsdb_idl_column *, bool force);

enum ovsdb_idl_txn_status ovsdb_idl_txn_commit(struct ovsdb_idl_txn *);
enum ovsdb_idl_txn_status ovsdb_idl_txn_commit_block(struct ovsdb_idl_txn *);
void ovsdb_idl_txn_abort(struct ovsdb_idl_txn *);
/* Wakes the loop when the transaction's status may have changed. */
void ovsdb_idl_txn_wait(const struct ovsdb_idl_txn *);
enum ovsdb_idl_txn_status ovsdb_idl_txn_get_status(
    const struct ovsdb_idl_txn *);

/* After SUCCESS: the uuid the server gave the row inserted with local uuid
 * UUID, or NULL. */
const struct uuid *ovsdb_idl_txn_get_insert_uuid(const struct ovsdb_idl_txn *,
                                                 const struct uuid *);
int64_t ovsdb_idl_txn_get_increment_new_value(const struct ovsdb_idl_txn *);
/* After ERROR: the server's error(s) as JSON text; otherwise a description
 * of the status. */
const char *ovsdb_idl_txn_get_error(const struct ovsdb_idl_txn *);

/* A helper for run loops that keep one transaction per iteration (as
 * ovs-vswitchd does).
 *
 *     struct ovsdb_idl_loop loop = OVSDB_IDL_LOOP_INITIALIZER(idl);
 *     for (;;) {
 *         struct ovsdb_idl_txn *txn = ovsdb_idl_loop_run(&loop);
 *         ... read the replica, write through TXN if nonnull ...
 *         ovsdb_idl_loop_commit_and_wait(&loop);
 *         poll_block();
 *     }
 */
struct ovsdb_idl_loop {
    struct ovsdb_idl *idl;
    unsigned int skip_seqno;
    struct ovsdb_idl_txn *committing_txn;
    unsigned int precommit_seqno;
    struct ovsdb_idl_txn *open_txn;
    /* For the caller's bookkeeping (as ovs-vswitchd's Open_vSwitch
     * cur_cfg): set NEXT_CFG to what the open transaction puts in place;
     * when it commits successfully (or had nothing to change) the loop
     * copies it to CUR_CFG. */
    int64_t cur_cfg, next_cfg;
};

#define OVSDB_IDL_LOOP_INITIALIZER(IDL) { (IDL), 0, NULL, 0, NULL, 0, 0 }

/* Frees the loop's transactions, not its IDL: the caller still
 * ovsdb_idl_destroy()s that. */
void ovsdb_idl_loop_destroy(struct ovsdb_idl_loop *);
/* Runs the IDL and returns a new open transaction, or NULL while one is
 * still in flight (at most one is) or after TRY_AGAIN until the replica
 * has changed. */
struct ovsdb_idl_txn *ovsdb_idl_loop_run(struct ovsdb_idl_loop *);
/* Commits the open transaction, if any, and arranges to wake when its
 * outcome is known.  Returns 1 if the last transaction is done (success,
 * unchanged, not locked), 0 while it is in flight, -1 after TRY_AGAIN or
 * an error. */
int ovsdb_idl_loop_commit_and_wait(struct ovsdb_idl_loop *);

#endif /* ovsdb-idl.h */
