/* cluster: a database kept in a Raft cluster (raft.h), for ovsdb-server.
 *
 * The database is the state machine of the cluster's log: every server,
 * leader or follower, changes its copy only by applying committed entries
 * in log order, each under the entry's id as transaction id (so that
 * monitor_cond_since works across servers and failovers).  A client's
 * transaction runs against the local copy to compute its changes, which
 * are then proposed as a new entry ("[null, RECORD]") whose prerequisite
 * is the id of the last entry applied here: if another transaction got in
 * first, the leader refuses it and the trigger runs the transaction again
 * on the newer copy.  The client gets its reply once the entry has been
 * committed and applied here (trigger.h).
 *
 * A snapshot from the leader, or a schema change, replaces the database's
 * contents in place (ovsdb_replace()); the owner hears of it through the
 * callback given to ovsdb_cluster_open() so it can treat it like an online
 * conversion.  A server that is joining a cluster starts with a
 * placeholder database, named as the cluster's, without tables
 * (ovsdb_cluster_has_data() false), which the leader's first snapshot
 * replaces in the same way: the server runs (and detaches) meanwhile.
 *
 * Compaction: when the log has grown enough (or on request), the current
 * contents become the log's snapshot (raft_store_snapshot()).
 *
 * Memory: ovsdb_cluster_open() returns the database to the caller; the
 * cluster is attached to it (db->cluster) and destroyed with it
 * (ovsdb_destroy()).  Main thread only.
 */
#ifndef OVSDB_CLUSTER_H
#define OVSDB_CLUSTER_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include "raft-rpc.h"
#include "util.h"

struct ovsdb;
struct ovsdb_cluster;
struct ovsdb_error;
struct ovsdb_txn;
struct raft;
struct raft_command;
struct uuid;

/* Called twice when the database's contents are replaced (a snapshot or a
 * schema change): with DONE false just before the old tables go (whoever
 * holds on to rows or tables must let go now), with DONE true after. */
typedef void ovsdb_cluster_replaced_func(void *aux, struct ovsdb *,
                                         bool done);

/* Opens clustered file FILE_NAME and reads its database into *DBP (a
 * placeholder for a server that is joining). */
struct ovsdb_error *ovsdb_cluster_open(const char *file_name,
                                       ovsdb_cluster_replaced_func *,
                                       void *aux, struct ovsdb **dbp)
    OVS_WARN_UNUSED_RESULT;

/* Runs the Raft server and applies newly committed entries. */
void ovsdb_cluster_run(struct ovsdb_cluster *);
void ovsdb_cluster_wait(struct ovsdb_cluster *);

struct raft *ovsdb_cluster_get_raft(const struct ovsdb_cluster *);

/* False while the database is a joining server's placeholder. */
bool ovsdb_cluster_has_data(const struct ovsdb_cluster *);

/* Proposes TXN's changes (TXN is not committed; the caller aborts it).
 * Returns NULL if there is nothing to store, otherwise a command to watch
 * with ovsdb_cluster_command_done(). */
struct raft_command *ovsdb_cluster_propose(struct ovsdb_cluster *,
                                           const struct ovsdb_txn *);

/* Proposes replacing the schema and contents by NEW_DB's. */
struct raft_command *ovsdb_cluster_propose_conversion(
    struct ovsdb_cluster *, const struct ovsdb *new_db);

/* Whether CMD is over: *STATUS is RAFT_CMD_SUCCESS once it is committed
 * and applied here, or why it failed. */
bool ovsdb_cluster_command_done(const struct ovsdb_cluster *,
                                const struct raft_command *,
                                enum raft_command_status *status);

/* Compaction. */
bool ovsdb_cluster_should_compact(const struct ovsdb_cluster *);
struct ovsdb_error *ovsdb_cluster_compact(struct ovsdb_cluster *)
    OVS_WARN_UNUSED_RESULT;

#endif /* ovsdb/cluster.h */
