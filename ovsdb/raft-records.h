/* raft-records: the records of a clustered database file.
 *
 * A clustered database file is an ovsdb-log (log.h) with magic
 * "OVSDB CLUSTER", laid out as Open vSwitch 3.1 lays it out, so that their
 * servers and tools read our files and ours read theirs:
 *
 *   - record 0, the header (struct raft_header): which server this file
 *     belongs to ("server_id", "local_address", "name") and, once the server
 *     is a member of a cluster, "cluster_id" plus the snapshot the log
 *     starts from: "prev_index", "prev_term", "prev_eid", "prev_servers"
 *     (the configuration as of the snapshot) and "prev_data" (the snapshot
 *     itself, [SCHEMA, DATA]).  A file made by "join-cluster" has instead
 *     "remote_addresses", the servers to ask to join through, and perhaps
 *     no "cluster_id" yet; once such a server has received a snapshot but
 *     is not yet in the configuration, our servers write both (Open
 *     vSwitch reads the file as not joining);
 *
 *   - every later record (struct raft_record) is one of: a log entry
 *     ("term", "index" and optionally "data" with "eid", "servers" for a
 *     configuration change, "election_timer"); a new term ("term" alone); a
 *     vote ("term", "vote"); a leader seen ("term", "leader"); a commit
 *     index ("commit_index"); or a note ("note").  Any of them may carry a
 *     "comment".
 *
 * An entry's "data" for a database is [SCHEMA or null, TRANSACTION or null]
 * (a schema change, a transaction in the standalone file's record format,
 * or both); "eid" names the entry, and is what clients see as the
 * transaction id.
 *
 * Memory: parse functions fill caller-owned structs, which then own their
 * strings and JSON (released with the matching _uninit()).  JSON returned
 * by _to_json() functions is a new reference owned by the caller.  Any
 * thread may use these functions on its own data.
 */
#ifndef OVSDB_RAFT_RECORDS_H
#define OVSDB_RAFT_RECORDS_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include "sset.h"
#include "util.h"
#include "uuid.h"

struct ds;
struct ovsdb_error;

/* Checks that ADDRESS is a Raft server address: "unix:PATH", "tcp:IP:PORT"
 * or "ssl:IP:PORT". */
struct ovsdb_error *raft_address_validate(const char *address)
    OVS_WARN_UNUSED_RESULT;

/* The short name a server is shown under in logs and "cluster/status": for
 * "unix:DIR/NAME.EXT" it is NAME, otherwise the first 4 hex digits of SID.
 * Caller frees. */
char *raft_address_to_nickname(const char *address, const struct uuid *sid);

/* Checks that JSON is a configuration: a nonempty object mapping server
 * UUIDs to addresses. */
struct ovsdb_error *raft_servers_validate_json(const json_t *json)
    OVS_WARN_UNUSED_RESULT;

/* The header record (record 0). */
struct raft_header {
    struct uuid sid;            /* This server. */
    struct uuid cid;            /* Cluster; zero if not yet known. */
    char *name;                 /* Database (schema) name. */
    char *local_address;        /* Where this server listens. */

    /* A server created by "join-cluster" that has not joined yet. */
    bool joining;
    struct sset remote_addresses;

    /* Otherwise, the snapshot that the log starts from. */
    uint64_t snap_index;        /* 0 if none (only while joining). */
    uint64_t snap_term;
    struct uuid snap_eid;
    json_t *snap_servers;       /* Configuration; NULL while joining. */
    json_t *snap_data;          /* [SCHEMA, DATA]; may be NULL. */
    uint64_t snap_election_timer;       /* 0 if not recorded. */
};

void raft_header_uninit(struct raft_header *);
struct ovsdb_error *raft_header_from_json(struct raft_header *,
                                          const json_t *)
    OVS_WARN_UNUSED_RESULT;
json_t *raft_header_to_json(const struct raft_header *);

/* A log entry, in a record, on the wire or in memory. */
struct raft_entry {
    uint64_t term;
    json_t *data;               /* NULL for an entry without data. */
    struct uuid eid;            /* Zero iff DATA is NULL. */
    json_t *servers;            /* New configuration, or NULL. */
    uint64_t election_timer;    /* New election timer, or 0. */
};

void raft_entry_uninit(struct raft_entry *);
void raft_entry_clone(struct raft_entry *dst, const struct raft_entry *src);
/* Parses JSON as an entry sent in an append request. */
struct ovsdb_error *raft_entry_from_json(struct raft_entry *, const json_t *)
    OVS_WARN_UNUSED_RESULT;
json_t *raft_entry_to_json(const struct raft_entry *);

enum raft_record_type {
    RAFT_REC_ENTRY,             /* A log entry at INDEX. */
    RAFT_REC_TERM,              /* The current term became TERM. */
    RAFT_REC_VOTE,              /* Voted for SID in TERM. */
    RAFT_REC_LEADER,            /* SID is TERM's leader. */
    RAFT_REC_COMMIT_INDEX,      /* Everything up to COMMIT_INDEX committed. */
    RAFT_REC_NOTE,              /* A note (e.g. "transfer leadership"). */
};

struct raft_record {
    enum raft_record_type type;
    char *comment;              /* May be NULL. */
    uint64_t term;              /* All but COMMIT_INDEX and NOTE. */
    uint64_t index;             /* ENTRY. */
    struct raft_entry entry;    /* ENTRY (entry.term == term). */
    struct uuid sid;            /* VOTE, LEADER. */
    uint64_t commit_index;      /* COMMIT_INDEX. */
    char *note;                 /* NOTE. */
};

void raft_record_uninit(struct raft_record *);
struct ovsdb_error *raft_record_from_json(struct raft_record *,
                                          const json_t *)
    OVS_WARN_UNUSED_RESULT;
json_t *raft_record_to_json(const struct raft_record *);

/* Helpers for JSON objects of Raft records and messages: members that must
 * (or may) be present with the given type.  Each returns false and sets
 * *ERRORP, if it is still NULL, to an error naming WHAT and the member. */
bool raft_json_uint64(const json_t *, const char *name, bool optional,
                      uint64_t *, const char *what,
                      struct ovsdb_error **errorp);
bool raft_json_uuid(const json_t *, const char *name, bool optional,
                    struct uuid *, const char *what,
                    struct ovsdb_error **errorp);
bool raft_json_string(const json_t *, const char *name, bool optional,
                      const char **, const char *what,
                      struct ovsdb_error **errorp);
void raft_json_put_uuid(json_t *, const char *name, const struct uuid *);

#endif /* ovsdb/raft-records.h */
