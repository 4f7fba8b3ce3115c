/* ovsdb-row: one row of a table in the OVSDB engine.
 *
 * A row is a header plus one struct ovsdb_datum per column of its table
 * (row->fields[column->index], the standard "_uuid" and "_version" columns
 * included), allocated in one block.  Committed rows live in their table's
 * row map (table->rows, keyed by uuid_hash of the row's uuid).  A row that a
 * transaction is changing has txn_row set; the transaction works on a copy
 * and swaps it in at commit (see transaction.h).
 *
 * Reference counting for garbage collection and referential integrity:
 * N_REFS counts the strong references from committed rows to this row;
 * DST_REFS lists struct ovsdb_weak_ref records of weak references from
 * this row to others and SRC_REFS those that point at it, so deleting a row
 * finds and removes the weak references to it without scanning the
 * database.  Only the transaction code changes these.
 *
 * Ownership: ovsdb_row_create()/ovsdb_row_clone() return a row the caller
 * owns until it is inserted into a table through a transaction;
 * ovsdb_row_destroy() frees a row not (or no longer) in a table.
 */
#ifndef OVSDB_ROW_H
#define OVSDB_ROW_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hmap.h"
#include "list.h"
#include "ovsdb-data.h"
#include "ovsdb-schema.h"
#include "util.h"
#include "uuid.h"

struct ovsdb_table;
struct ovsdb_txn_row;
struct ovsdb_symbol_table;
struct ovsdb_error;

/* A weak reference from row SRC (column COLUMN_INDEX) to the row with uuid
 * DST in table DST_TABLE. */
struct ovsdb_weak_ref {
    struct ovs_list src_node;           /* In src's dst_refs. */
    struct ovs_list dst_node;           /* In dst's src_refs. */
    struct ovsdb_row *src;
    struct ovsdb_table *dst_table;
    struct uuid dst;
    unsigned int column_index;
};

struct ovsdb_row {
    struct hmap_node hmap_node;         /* In table->rows. */
    struct ovsdb_table *table;          /* Table to which this belongs. */
    struct ovsdb_txn_row *txn_row;      /* Change in progress, or NULL. */

    struct ovs_list src_refs;           /* Weak refs pointing here. */
    struct ovs_list dst_refs;           /* Weak refs from here. */
    size_t n_refs;                      /* Strong references to this row. */

    /* One node per index of the table (table->schema->n_indexes), in
     * table->indexes[i]. */
    struct hmap_node *index_nodes;

    struct ovsdb_datum fields[];        /* One per column, by index. */
};

/* The row whose index node number INDEX is NODE.  Index nodes follow the
 * fields in the row's block, so the offset depends on the table. */
static inline struct ovsdb_row *
ovsdb_row_from_index_node(const struct hmap_node *node, size_t n_columns,
                          size_t index)
{
    size_t offset = (offsetof(struct ovsdb_row, fields)
                     + n_columns * sizeof(struct ovsdb_datum)
                     + index * sizeof(struct hmap_node));
    return (struct ovsdb_row *) (void *) ((char *) node - offset);
}

/* A new row of TABLE with every column at its default and a zero uuid. */
struct ovsdb_row *ovsdb_row_create(const struct ovsdb_table *);
/* A deep copy of ROW (not in any table, no references, no txn_row). */
struct ovsdb_row *ovsdb_row_clone(const struct ovsdb_row *);
void ovsdb_row_destroy(struct ovsdb_row *);

static inline const struct uuid *
ovsdb_row_get_uuid(const struct ovsdb_row *row)
{
    return &row->fields[OVSDB_COL_UUID].keys[0].uuid;
}

static inline struct uuid *
ovsdb_row_get_uuid_rw(struct ovsdb_row *row)
{
    return &row->fields[OVSDB_COL_UUID].keys[0].uuid;
}

static inline const struct uuid *
ovsdb_row_get_version(const struct ovsdb_row *row)
{
    return &row->fields[OVSDB_COL_VERSION].keys[0].uuid;
}

static inline struct uuid *
ovsdb_row_get_version_rw(struct ovsdb_row *row)
{
    return &row->fields[OVSDB_COL_VERSION].keys[0].uuid;
}

/* Hash, equality and order of ROW restricted to COLUMNS. */
uint32_t ovsdb_row_hash_columns(const struct ovsdb_row *,
                                const struct ovsdb_column_set *,
                                uint32_t basis);
bool ovsdb_row_equal_columns(const struct ovsdb_row *,
                             const struct ovsdb_row *,
                             const struct ovsdb_column_set *);
int ovsdb_row_compare_columns_3way(const struct ovsdb_row *,
                                   const struct ovsdb_row *,
                                   const struct ovsdb_column_set *);

/* Copies COLUMNS of SRC into DST (same table). */
void ovsdb_row_update_columns(struct ovsdb_row *dst,
                              const struct ovsdb_row *src,
                              const struct ovsdb_column_set *);

/* Parses a JSON object {"column": value, ...} into ROW's fields, as the
 * "row" of an insert or update.  Every member must name an existing column
 * ("unknown column" otherwise).  As in Open vSwitch, "_uuid" and
 * "_version" parse like any other column: insert overwrites them and
 * update rejects them as immutable.  Names the columns it set in *COLUMNS
 * if nonnull (initialized by the caller).  "named-uuid" references resolve
 * through SYMTAB.  Returns NULL or an error. */
struct ovsdb_error *ovsdb_row_from_json(struct ovsdb_row *, const json_t *,
                                        struct ovsdb_symbol_table *,
                                        struct ovsdb_column_set *columns)
    OVS_WARN_UNUSED_RESULT;
/* Sets in ROW the columns that ROW_JSON ({"column": value, ...}) names,
 * as database file records and monitor updates carry them: with AS_DIFF,
 * a composite (set or map) column's value is a difference to apply to the
 * row's current value (ovsdb_datum_diff()), other columns' values are new
 * values.  "_uuid" and "_version" may not appear.  Returns NULL or an error
 * (ROW may then be partly updated). */
struct ovsdb_error *ovsdb_row_update_from_json(struct ovsdb_row *,
                                               const json_t *row_json,
                                               bool as_diff)
    OVS_WARN_UNUSED_RESULT;

/* A JSON object with ROW's COLUMNS (as "select" returns them). */
json_t *ovsdb_row_to_json(const struct ovsdb_row *,
                          const struct ovsdb_column_set *);

/* Number of atoms in ROW's fields, keys and values both counted (for
 * memory statistics). */
size_t ovsdb_row_count_atoms(const struct ovsdb_row *);

/* Frees WEAK after taking it out of both rows' lists. */
void ovsdb_weak_ref_destroy(struct ovsdb_weak_ref *);
/* Frees every weak reference from and to ROW; returns how many. */
size_t ovsdb_row_free_weak_refs(struct ovsdb_row *);

/* A set of rows (not owned), e.g. the result of a query. */
struct ovsdb_row_set {
    const struct ovsdb_row **rows;
    size_t n_rows, allocated_rows;
};

#define OVSDB_ROW_SET_INITIALIZER { NULL, 0, 0 }

void ovsdb_row_set_init(struct ovsdb_row_set *);
void ovsdb_row_set_destroy(struct ovsdb_row_set *);
void ovsdb_row_set_add_row(struct ovsdb_row_set *, const struct ovsdb_row *);
json_t *ovsdb_row_set_to_json(const struct ovsdb_row_set *,
                              const struct ovsdb_column_set *);
/* Sorts SET by COLUMNS (then uuid), for stable output. */
void ovsdb_row_set_sort(struct ovsdb_row_set *,
                        const struct ovsdb_column_set *);

#endif /* ovsdb/row.h */
