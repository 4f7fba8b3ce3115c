/* ovsdb-server-status: what a server's "_Server" database says about one
 * of its databases (a row of its "Database" table), and whether a client
 * should use that server for it.
 *
 * A client given several servers of a clustered database (the IDL,
 * ovs-vsctl, ovsdb-client with "unix:a,unix:b,...") reads the row for its
 * database from each server it reaches and moves on to the next server
 * unless the row says the server is fit: the database is there; a
 * clustered one is connected to its cluster, is the leader if the client
 * wants the leader only, belongs to the cluster the client saw before, and
 * is not older than what the client has already seen (its "index"); a
 * relay is connected to its source.  A standalone database always is.
 *
 * Plain data, no ownership beyond the struct's own string.
 */
#ifndef OVSDB_SERVER_STATUS_H
#define OVSDB_SERVER_STATUS_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include "uuid.h"

/* The columns of a "_Server" "Database" row that clients look at. */
#define OVSDB_SERVER_STATUS_COLUMNS \
    "name", "model", "connected", "leader", "cid", "index"

struct ovsdb_server_status {
    char *name;
    char *model;                /* "standalone", "clustered", "relay". */
    bool connected;
    bool leader;
    bool has_cid;
    struct uuid cid;            /* Cluster id (clustered only). */
    bool has_index;
    uint64_t index;             /* Last log index applied (clustered). */
};

/* Parses ROW (an RFC 7047 <row> with the columns above) into *STATUS.
 * Returns false if ROW lacks a name or model. */
bool ovsdb_server_status_from_row(struct ovsdb_server_status *status,
                                  const json_t *row);
void ovsdb_server_status_uninit(struct ovsdb_server_status *);

/* What a client remembers of the cluster across servers. */
struct ovsdb_server_memory {
    bool has_cid;
    struct uuid cid;
    uint64_t min_index;         /* Highest index seen. */
};

/* Checks STATUS (NULL: the server lacks the database) for a client that
 * wants the leader only if LEADER_ONLY, remembering in MEMORY the cluster
 * and index of a fit server.  Returns NULL if the server is fit, otherwise
 * why not, worded to follow "clustered database server " (e.g. "is not
 * cluster leader"). */
const char *ovsdb_server_status_check(const struct ovsdb_server_status *,
                                      bool leader_only,
                                      struct ovsdb_server_memory *memory);

#endif /* ovsdb-server-status.h */
