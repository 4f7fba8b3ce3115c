/* table-updates: applying monitor updates to a local copy of a database.
 *
 * A server that copies another server's database (a replication backup,
 * a relay) receives the contents as RFC 7047 <table-updates>: the result
 * of a monitor request and the update notifications after it.  This module
 * turns them into changes in a local transaction, for both encodings:
 *
 *   OVSDB_UPDATES_V1  "monitor": {uuid: {"old": row, "new": row}}; "new"
 *                     carries every monitored column.
 *   OVSDB_UPDATES_V2  "monitor_cond", "monitor_cond_since" (update2 and
 *                     update3): {uuid: {"initial"|"insert": row} or
 *                     {"modify": diff} or {"delete": null}}; rows leave out
 *                     default values, a modify's sets and maps are
 *                     differences (ovsdb_datum_diff()).
 *
 * A "_version" sent with a row is kept (the copy's rows then carry the
 * upstream's versions); "_uuid" is the row's key.
 *
 * With RESET, the updates are a complete copy of the tables named in
 * RESET_TABLES: rows of those tables that the updates do not mention are
 * deleted, so the local tables end up equal to the upstream's.
 *
 * Nothing here commits: the caller commits or aborts TXN. */
#ifndef OVSDB_TABLE_UPDATES_H
#define OVSDB_TABLE_UPDATES_H 1

#include <jansson.h>
#include <stdbool.h>
#include "util.h"

struct ovsdb_txn;
struct sset;

enum ovsdb_updates_version {
    OVSDB_UPDATES_V1,
    OVSDB_UPDATES_V2
};

struct ovsdb_error *ovsdb_table_updates_apply(
    struct ovsdb_txn *, const json_t *table_updates,
    enum ovsdb_updates_version, const struct sset *reset_tables)
    OVS_WARN_UNUSED_RESULT;

#endif /* ovsdb/table-updates.h */
