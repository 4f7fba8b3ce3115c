/* replication: the backup side of ovsdb-server's active-backup replication.
 *
 * A backup server keeps its databases identical to an active server's.  It
 * connects to the active server as an ordinary client (a reconnecting
 * JSON-RPC session), and on every (re)connection:
 *
 *   1. asks "get_server_id" and refuses to go on if the answer is its own
 *      id (a server told to replicate itself would wipe its data);
 *   2. asks "list_dbs", then "get_schema" for each database both serve
 *      (never _Server); a database whose schemas differ is replicated only
 *      if every table and column of the active server's schema exists here
 *      with the same type, and then only those tables;
 *   3. sends one "monitor" request per database (monitor id: the database
 *      name) for all columns of every replicated table not excluded, and
 *      makes the local tables equal to the initial contents in one
 *      transaction ("resetting the database");
 *   4. applies every "update" notification as a local transaction.
 *
 * While the backup replicates, ovsdb-server makes its JSON-RPC server
 * read-only, so clients may read the copy but not change it.  Replication
 * stops for good (replication_is_alive() turns false, and ovsdb-server
 * becomes active) when the active server turns out to be this server or
 * when none of the databases can be replicated; a connection that fails or
 * drops is retried with backoff.
 *
 * Exclusions are "DB:TABLE" names (replication_parse_exclusions()).
 *
 * Memory: the caller owns the databases in DBS and must destroy the
 * replication before removing or destroying any of them; the replication
 * copies REMOTE and EXCLUDED.  Main thread only.
 */
#ifndef OVSDB_REPLICATION_H
#define OVSDB_REPLICATION_H 1

#include <stdbool.h>

struct ds;
struct shash;
struct sset;
struct uuid;

/* Starts replicating the databases in DBS (name -> struct ovsdb *) from the
 * server at REMOTE, except the tables named in EXCLUDED ("DB:TABLE").
 * SERVER_ID is this server's own id (what its "get_server_id" answers). */
struct replication *replication_create(const char *remote,
                                       const struct shash *dbs,
                                       const struct sset *excluded,
                                       const struct uuid *server_id);
void replication_destroy(struct replication *);

void replication_run(struct replication *);
void replication_wait(struct replication *);

/* False once replication has given up for good (see above). */
bool replication_is_alive(const struct replication *);

/* Appends what "ovsdb-server/sync-status" shows below "state: backup":
 * "replicating: REMOTE", the databases and the exclusions, or
 * "connecting: REMOTE" until the first copy is complete. */
void replication_get_status(const struct replication *, struct ds *);

/* Parses a comma-separated list of "DB:TABLE" into EXCLUDED (cleared
 * first).  Returns NULL, or an error message (the caller frees it) and
 * leaves EXCLUDED empty. */
char *replication_parse_exclusions(const char *s, struct sset *excluded);

/* Appends EXCLUDED to OUT in the same syntax, sorted. */
void replication_put_exclusions(const struct sset *excluded, struct ds *out);

#endif /* ovsdb/replication.h */
