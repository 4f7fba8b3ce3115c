/* relay: ovsdb-server serving a copy of another server's database.
 *
 * "ovsdb-server relay:DB:REMOTE" serves database DB of the server at
 * REMOTE without storing it: a relay takes read load (monitors, reads) off
 * the server that holds the data, and relays can be chained.  The relay
 * keeps one reconnecting JSON-RPC session to REMOTE, and on every
 * (re)connection:
 *
 *   1. asks "get_schema" for DB; the first answer creates the local copy
 *      (an in-memory struct ovsdb), a different schema later replaces it;
 *   2. sends "monitor_cond_since" for every column of every table, with
 *      the id of the last transaction it has, so that after a reconnection
 *      only what it missed comes back;
 *   3. commits the initial contents and every "update3" notification as
 *      local transactions under the upstream's transaction ids, so its own
 *      clients (and relays below it) see the same ids.
 *
 * Clients of the relay read and monitor the local copy.  A transaction
 * that would change the database (any operation other than select, wait,
 * comment, assert, abort and commit) is forwarded unchanged to REMOTE with
 * ovsdb_relay_forward(), and the upstream's reply goes back to the client;
 * the change itself reaches the copy, like any other, as a notification.
 *
 * Memory: the relay owns its session; the databases it creates belong to
 * whoever serves them (see ovsdb_relay_db_func), and the relay forgets a
 * database once it has handed over a replacement.  Main thread only.
 */
#ifndef OVSDB_RELAY_H
#define OVSDB_RELAY_H 1

#include <jansson.h>
#include <stdbool.h>

struct jsonrpc_msg;
struct ovsdb;

/* Parses "relay:DB:REMOTE" into *DB_NAME and *REMOTE (the caller frees
 * both).  Returns false if TARGET does not start with "relay:" or lacks a
 * part. */
bool ovsdb_relay_parse_target(const char *target, char **db_name,
                              char **remote);

/* Called when the relay's database changed schema.  Usually NEW_DB, created
 * by the relay from the upstream's new schema, replaces OLD_DB, which the
 * callee stops serving and destroys; the callee owns NEW_DB from then on.
 * The first schema, though, goes into the placeholder in place: then
 * NEW_DB == OLD_DB, and only what describes it (_Server) needs updating. */
typedef void ovsdb_relay_db_func(void *aux, struct ovsdb *old_db,
                                 struct ovsdb *new_db);

/* Creates a relay, with a first database for the caller to serve (and own)
 * at once, ovsdb_relay_get_db(): it has DB_NAME's name but no tables
 * until the upstream's schema replaces it through DB_FUNC.  Meanwhile every
 * transaction on it is forwarded, held until the connection is up, so a
 * client that comes early waits instead of failing. */
struct ovsdb_relay *ovsdb_relay_create(const char *db_name,
                                       const char *remote,
                                       ovsdb_relay_db_func *, void *aux);
struct ovsdb *ovsdb_relay_get_db(const struct ovsdb_relay *);
/* False while the relay's database is the placeholder: then it cannot
 * describe itself ("get_schema" waits for the schema; a relay below that
 * got an error anyway asks again a little later). */
bool ovsdb_relay_has_schema(const struct ovsdb_relay *);
/* Stops relaying.  The database stays the caller's, with db->relay
 * cleared: it becomes an ordinary in-memory database. */
void ovsdb_relay_destroy(struct ovsdb_relay *);

void ovsdb_relay_run(struct ovsdb_relay *);
void ovsdb_relay_wait(struct ovsdb_relay *);

const char *ovsdb_relay_get_remote(const struct ovsdb_relay *);

/* Whether a "transact" request with PARAMS must go to the upstream server
 * (it may change the database, or the relay has no copy yet) rather than
 * run on the copy. */
bool ovsdb_relay_must_forward(const struct ovsdb_relay *,
                              const json_t *params);

/* Forwarding.  REPLY_CB(AUX, REPLY) is called exactly once, unless the
 * forwarded transaction is cancelled first: with the upstream's reply, or
 * with NULL if the connection went down before it came.  Returns NULL (and
 * never calls REPLY_CB) if the relay lost its upstream (a relay still
 * starting holds the transaction until it connects). */
typedef void ovsdb_relay_reply_func(void *aux, const struct jsonrpc_msg *);
struct ovsdb_relay_txn *ovsdb_relay_forward(struct ovsdb_relay *,
                                            const json_t *params,
                                            ovsdb_relay_reply_func *,
                                            void *aux);
void ovsdb_relay_txn_cancel(struct ovsdb_relay_txn *);

#endif /* ovsdb/relay.h */
