/* ovsdb-rbac: role-based access control for the operations of a "transact"
 * request, with Open vSwitch's tables and wording.
 *
 * A database takes part when its schema has a table named "RBAC_Role".  A
 * client takes part when it has a role: ovsdb-server gives a session the
 * "role" of the remote it came through (the "role" column of a Manager-like
 * row read through --remote=db:...), and "ovsdb-tool --rbac-role" gives one
 * to the tool.  Everything else (no RBAC_Role table, no role or an empty
 * one) is the "superuser": no checks at all.
 *
 * For a client with role R and identity ID (the common name of the TLS
 * certificate it presented, NULL if it has none), the RBAC_Role row whose
 * "name" is R has a "permissions" map from table name to a row of the
 * permission table (the map's reference table, "RBAC_Permission" in every
 * schema so far), with columns:
 *
 *   authorization  set of strings: which rows the client may touch.  An
 *                  empty string allows every row; "COLUMN" a row whose
 *                  COLUMN (a single string or uuid) equals ID; "COLUMN:KEY"
 *                  a row whose COLUMN (a map from string to string) maps
 *                  KEY to ID.  An empty set allows no row.
 *   insert_delete  boolean: whether the client may insert rows and delete
 *                  the rows it is authorized for.
 *   update         set of strings: the columns the client may change with
 *                  "update" and "mutate" in the rows it is authorized for.
 *
 * A table missing from the map, a role that does not exist, a client with
 * no identity, or a permission row of the wrong shape allow no change at
 * all.  Reads ("select", "wait") are never restricted.  Each check looks at
 * every row an operation would change before it changes any, and a refusal
 * is a "permission error" whose details read, as Open vSwitch's do:
 *
 *   RBAC rules for client "ID" role "R" prohibit row insertion into table "T".
 *   ... prohibit row deletion from table "T".
 *   ... prohibit modification of table "T".
 *   ... prohibit mutate operation on table "T".
 *
 * (a client without identity is named "(null)" there, as in Open vSwitch).
 *
 * The checks read the database as the transaction sees it (rows inserted
 * or changed earlier in the same transaction included) and keep nothing
 * between calls, so a change to the RBAC tables applies to the next
 * operation.  They run on the thread that runs the transaction.
 *
 * Ownership: every argument is borrowed; the returned error is the
 * caller's.
 */
#ifndef OVSDB_RBAC_H
#define OVSDB_RBAC_H 1

#include <stdbool.h>
#include "util.h"

struct ovsdb;
struct ovsdb_column_set;
struct ovsdb_error;
struct ovsdb_mutation_set;
struct ovsdb_row;
struct ovsdb_row_set;
struct ovsdb_table;

/* Who is asking: the role and identity above (each may be NULL). */
struct ovsdb_rbac_client {
    const char *role;
    const char *id;
};

/* True if RBAC applies to CLIENT's changes to DB at all. */
bool ovsdb_rbac_applies(const struct ovsdb *db,
                        const struct ovsdb_rbac_client *client);

/* Each returns NULL if CLIENT may make the change to TABLE of DB, else a
 * "permission error". */
struct ovsdb_error *ovsdb_rbac_insert(const struct ovsdb *db,
                                      const struct ovsdb_table *table,
                                      const struct ovsdb_row *new_row,
                                      const struct ovsdb_rbac_client *)
    OVS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_rbac_delete(const struct ovsdb *db,
                                      const struct ovsdb_table *table,
                                      const struct ovsdb_row_set *rows,
                                      const struct ovsdb_rbac_client *)
    OVS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_rbac_update(const struct ovsdb *db,
                                      const struct ovsdb_table *table,
                                      const struct ovsdb_column_set *columns,
                                      const struct ovsdb_row_set *rows,
                                      const struct ovsdb_rbac_client *)
    OVS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_rbac_mutate(const struct ovsdb *db,
                                      const struct ovsdb_table *table,
                                      const struct ovsdb_mutation_set *,
                                      const struct ovsdb_row_set *rows,
                                      const struct ovsdb_rbac_client *)
    OVS_WARN_UNUSED_RESULT;

#endif /* ovsdb/rbac.h */
