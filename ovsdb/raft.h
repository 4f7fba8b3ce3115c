/* raft: one server of a Raft cluster that keeps a replicated log, as Open
 * vSwitch 3.1's ovsdb-server does for a clustered database (same file
 * format, raft-records.h; same messages, raft-rpc.h), so that our servers
 * and theirs can be members of one cluster.
 *
 * What it does: reads and appends the clustered file; listens on the local
 * address and keeps a connection to every other server; elects a leader
 * (randomized election timeouts, as in 3.1, no pre-vote); replicates the
 * log from the leader (append requests, or install-snapshot for a server
 * that is too far behind); commits an entry once a majority has it;
 * executes commands (new entries) on the leader, forwarding them there from
 * a follower; adds a server that asks to join and removes one that leaves
 * or is kicked, one configuration change at a time; replaces the file by a
 * snapshot plus the entries after it when the user of the log asks
 * (raft_store_snapshot()).
 *
 * The user of the log (the database, cluster.h) reads committed entries in
 * order with raft_next_entry() and applies them; an entry is the data a
 * command proposed.  The first thing read after opening, or after the
 * leader installed a snapshot, is the snapshot itself.
 *
 * The unixctl commands "cluster/..." (see raft_init()) find servers by
 * database name.
 *
 * Time: timers follow time_msec(), so "time/warp" moves elections and
 * heartbeats too.  Threads: main thread only; raft_run() does all work,
 * raft_wait() arranges for the poll loop to wake when there is more.
 *
 * Memory: raft_open() gives the caller the struct raft, released with
 * raft_close().  Commands are reference-counted: raft_command_execute()
 * returns one reference, released with raft_command_unref(); a command
 * outlives its raft (it then reads as RAFT_CMD_SHUTDOWN).  JSON passed in is
 * borrowed; JSON returned is a new reference for the caller.
 */
#ifndef OVSDB_RAFT_H
#define OVSDB_RAFT_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include "raft-rpc.h"
#include "util.h"
#include "uuid.h"

struct ovsdb_error;
struct raft;
struct raft_command;

/* Registers the "cluster/..." unixctl commands (once). */
void raft_init(void);

/* Opens clustered file FILE_NAME (locking it) and starts the server. */
struct ovsdb_error *raft_open(const char *file_name, struct raft **)
    OVS_WARN_UNUSED_RESULT;
void raft_close(struct raft *);

void raft_run(struct raft *);
void raft_wait(struct raft *);

const char *raft_get_name(const struct raft *);
const struct uuid *raft_get_cid(const struct raft *);
const struct uuid *raft_get_sid(const struct raft *);

/* A member that has (had) a leader and is not joining, leaving, left or
 * failing elections: what _Server's "connected" column says. */
bool raft_is_connected(const struct raft *);
bool raft_is_leader(const struct raft *);
/* True once the server left the cluster (cluster/leave completed, or it
 * was removed), after which it does nothing more. */
bool raft_left(const struct raft *);
bool raft_failed(const struct raft *);

/* The index of the last entry handed out by raft_next_entry(). */
uint64_t raft_get_applied_index(const struct raft *);

/* Returns the next committed entry's data not yet read (new reference)
 * and its entry id in *EID, or NULL if there is none for now.  *IS_SNAPSHOT
 * says that the data is a snapshot, which replaces the database instead of
 * changing it.  Entries without data are skipped. */
json_t *raft_next_entry(struct raft *, struct uuid *eid, bool *is_snapshot);

/* Proposes a new entry with DATA, to be appended only if the log's last
 * entry with data has entry id PREREQ (zero: no check); the new entry gets
 * entry id RESULT.  Never returns NULL. */
struct raft_command *raft_command_execute(struct raft *, const json_t *data,
                                          const struct uuid *prereq,
                                          const struct uuid *result);
enum raft_command_status raft_command_get_status(const struct raft_command *);
/* For a successful command, the index at which it committed. */
uint64_t raft_command_get_commit_index(const struct raft_command *);
void raft_command_unref(struct raft_command *);

/* Whether the log has grown enough since the last snapshot to be worth
 * another, and whether one may be taken now. */
bool raft_grew_lots(const struct raft *);
bool raft_may_snapshot(const struct raft *);
/* Replaces the log, up to the last entry read with raft_next_entry(), by
 * DATA, the state at that point. */
struct ovsdb_error *raft_store_snapshot(struct raft *, const json_t *data)
    OVS_WARN_UNUSED_RESULT;

/* Starts leaving the cluster (what cluster/leave does). */
void raft_leave(struct raft *);
bool raft_is_leaving(const struct raft *);
/* True until this server, joining a cluster, is in its configuration. */
bool raft_is_joining(const struct raft *);

/* Changes, at every run of a raft, a counter that the database layer can
 * compare to notice changes of role or connection (for _Server). */
uint64_t raft_get_change_seqno(const struct raft *);

#endif /* ovsdb/raft.h */
