/* raft-file: clustered database files as a whole, for tools and servers.
 *
 * Creating a cluster's first server's file, a joining server's file,
 * reading a file's header and records, and turning entry data into a
 * database.  The record formats are in raft-records.h.
 *
 * Memory: records and headers returned are owned by the caller (release
 * with raft_file_contents_destroy()); databases returned belong to the
 * caller.  Single-threaded, like the log underneath.
 */
#ifndef OVSDB_RAFT_FILE_H
#define OVSDB_RAFT_FILE_H 1

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "raft-records.h"
#include "util.h"

struct ovsdb;
struct ovsdb_error;
struct ovsdb_log;
struct sset;

/* Bounds on the election timer, in ms, and its default. */
#define RAFT_ELECTION_TIMER_MIN 100
#define RAFT_ELECTION_TIMER_MAX 600000
#define RAFT_ELECTION_TIMER_DEFAULT 1000

/* Creates FILE_NAME as the only server of a new cluster for database NAME,
 * listening on LOCAL_ADDRESS, whose log starts with a snapshot at index 1
 * holding DATA ([SCHEMA, CONTENTS], borrowed), with ELECTION_TIMER (ms; 0
 * for the default). */
struct ovsdb_error *raft_file_create_cluster(const char *file_name,
                                             const char *name,
                                             const char *local_address,
                                             const json_t *data,
                                             uint64_t election_timer)
    OVS_WARN_UNUSED_RESULT;

/* Creates FILE_NAME for a server that will join the cluster of database
 * NAME (with cluster id CID, if nonnull) through REMOTE_ADDRESSES, and will
 * listen on LOCAL_ADDRESS. */
struct ovsdb_error *raft_file_join_cluster(const char *file_name,
                                           const char *name,
                                           const char *local_address,
                                           const struct sset *remotes,
                                           const struct uuid *cid)
    OVS_WARN_UNUSED_RESULT;

/* Everything in a clustered file. */
struct raft_file_contents {
    struct raft_header header;
    struct raft_record *records;
    size_t n_records;
};

/* Reads all of clustered file FILE_NAME (without locking it).  A file that
 * is not clustered gives an error. */
struct ovsdb_error *raft_file_read(const char *file_name,
                                   struct raft_file_contents *)
    OVS_WARN_UNUSED_RESULT;
void raft_file_contents_destroy(struct raft_file_contents *);

/* Applies DATA, the [SCHEMA, TRANSACTION] data of a snapshot or an entry,
 * to *DBP: a schema creates a new database (replacing and destroying *DBP,
 * which may be NULL) that the transaction, if any, then fills; otherwise
 * the transaction is committed on *DBP, with EID (if nonnull) as its
 * transaction id.  Returns NULL or an error (then *DBP is unchanged). */
struct ovsdb_error *raft_file_apply_data(struct ovsdb **dbp,
                                         const json_t *data,
                                         const struct uuid *eid)
    OVS_WARN_UNUSED_RESULT;

/* The database as of the last entry of CONTENTS (the snapshot plus every
 * entry with data, later entries at an index replacing earlier ones). */
struct ovsdb_error *raft_file_contents_to_db(
    const struct raft_file_contents *, struct ovsdb **dbp)
    OVS_WARN_UNUSED_RESULT;

/* Data [SCHEMA, CONTENTS] for a snapshot of DB (snapshot record as
 * file.h writes it). */
json_t *raft_file_snapshot_data(const struct ovsdb *db);

#endif /* ovsdb/raft-file.h */
