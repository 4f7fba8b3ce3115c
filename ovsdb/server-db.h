/* server-db: the "_Server" database that ovsdb-server keeps about itself.
 *
 * Every ovsdb-server serves, next to the databases it was given, a built-in
 * database named "_Server" whose single table "Database" has one row per
 * database being served (itself included): its name, its storage model
 * ("standalone" for our file-backed databases, "relay" for a relay's copy
 * of another server's database), whether it is connected and the leader
 * (always true for standalone storage; a relay is connected while it
 * follows its upstream and never the leader), and its schema as a JSON
 * string.  Clients such as the Python IDL monitor this table to learn when a
 * database they use goes away or changes schema, so the rows must follow
 * add-db and remove-db at once.
 *
 * The schema text lives in ovsdb/_server.ovsschema and is compiled into the
 * program, so the server never depends on an installed data file.
 *
 * Usage:
 *
 *     struct ovsdb *sdb = server_db_create();
 *     ...
 *     server_db_update(sdb, &dbs);   // after every add or remove
 *
 * server_db_update() changes only what differs, in one non-durable
 * transaction, so monitors of "_Server" see exactly the added, removed or
 * changed rows.  The _Server database has no file: its contents are rebuilt
 * from the served databases whenever the server starts.
 *
 * Ownership: server_db_create() returns a database the caller owns and frees
 * with ovsdb_destroy().  server_db_update() only reads DBS.  Making the
 * database read-only to clients is the JSON-RPC layer's job (a database
 * whose name starts with "_" is reserved).
 */
#ifndef OVSDB_SERVER_DB_H
#define OVSDB_SERVER_DB_H 1

struct ovsdb;
struct shash;

/* The schema of "_Server" as JSON text (a static string). */
const char *server_db_schema_text(void);

/* Creates an empty "_Server" database.  Aborts if the built-in schema does
 * not parse (that is a build bug, not a run-time condition). */
struct ovsdb *server_db_create(void);

/* Makes SERVER_DB's "Database" table describe SERVER_DB itself plus every
 * database in DBS (a map from database name to struct ovsdb *; an entry for
 * SERVER_DB itself, if present, is not duplicated). */
void server_db_update(struct ovsdb *server_db, const struct shash *dbs);

#endif /* ovsdb/server-db.h */
