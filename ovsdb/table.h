/* ovsdb-table: the rows of one table of a database in the OVSDB engine.
 *
 * TABLE->rows holds the current rows, keyed by uuid_hash() of each row's
 * uuid; while a transaction is in progress they include its changes (see
 * transaction.h).  For each "indexes" entry of the table's schema,
 * TABLE->indexes[i] maps the hash of a row's index columns to the row
 * (through row->index_nodes[i]), so lookups by index are O(1) and commit
 * checks uniqueness without a scan.  The indexes hold committed rows only:
 * a transaction's inserted and modified rows enter them when it commits
 * (query.h combines the two while a transaction is open).
 *
 * Ownership: a table owns its schema (given to ovsdb_table_create()) and its
 * committed rows; the database owns its tables.
 */
#ifndef OVSDB_TABLE_H
#define OVSDB_TABLE_H 1

#include <stdbool.h>
#include "hmap.h"
#include "ovsdb-schema.h"
#include "uuid.h"

struct ovsdb_txn_table;
struct ovsdb_row;

struct ovsdb_table {
    struct ovsdb_table_schema *schema;
    struct ovsdb_txn_table *txn_table;  /* Only the transaction code. */
    struct hmap rows;                   /* Contains "struct ovsdb_row"s. */
    struct hmap *indexes;               /* One per schema->indexes. */
};

/* Takes ownership of SCHEMA. */
struct ovsdb_table *ovsdb_table_create(struct ovsdb_table_schema *);
/* Frees TABLE, its rows and its schema (no transaction may be open). */
void ovsdb_table_destroy(struct ovsdb_table *);

/* The row with UUID, or NULL. */
const struct ovsdb_row *ovsdb_table_get_row(const struct ovsdb_table *,
                                            const struct uuid *);

/* The committed row whose index columns for index number INDEX equal
 * those of ROW (which need not be in the table), other than a row with
 * ROW's uuid, or NULL. */
const struct ovsdb_row *ovsdb_table_find_by_index(
    const struct ovsdb_table *, size_t index, const struct ovsdb_row *row);

#endif /* ovsdb/table.h */
