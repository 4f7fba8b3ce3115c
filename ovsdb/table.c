#include <config.h>
#include "table.h"

#include <stdlib.h>

#include "row.h"
#include "util.h"

struct ovsdb_table *
ovsdb_table_create(struct ovsdb_table_schema *ts)
{
    struct ovsdb_table *table = xzalloc(sizeof *table);

    table->schema = ts;
    table->txn_table = NULL;
    hmap_init(&table->rows);
    table->indexes = xmalloc((ts->n_indexes ? ts->n_indexes : 1)
                             * sizeof *table->indexes);
    for (size_t i = 0; i < ts->n_indexes; i++) {
        hmap_init(&table->indexes[i]);
    }
    return table;
}

void
ovsdb_table_destroy(struct ovsdb_table *table)
{
    if (!table) {
        return;
    }

    ovs_assert(!table->txn_table);

    struct ovsdb_row *row;
    HMAP_FOR_EACH_POP (row, hmap_node, &table->rows) {
        /* Rows of other tables may still point at this one through weak
         * references; ovsdb_row_destroy() unlinks those too. */
        ovsdb_row_destroy(row);
    }
    hmap_destroy(&table->rows);

    for (size_t i = 0; i < table->schema->n_indexes; i++) {
        hmap_destroy(&table->indexes[i]);
    }
    free(table->indexes);

    ovsdb_table_schema_destroy(table->schema);
    free(table);
}

const struct ovsdb_row *
ovsdb_table_get_row(const struct ovsdb_table *table, const struct uuid *uuid)
{
    const struct ovsdb_row *row;

    HMAP_FOR_EACH_WITH_HASH (row, hmap_node, uuid_hash(uuid), &table->rows) {
        if (uuid_equals(ovsdb_row_get_uuid(row), uuid)) {
            return row;
        }
    }
    return NULL;
}

const struct ovsdb_row *
ovsdb_table_find_by_index(const struct ovsdb_table *table, size_t index,
                          const struct ovsdb_row *row)
{
    const struct ovsdb_column_set *columns = &table->schema->indexes[index];
    uint32_t hash = ovsdb_row_hash_columns(row, columns, 0);
    const struct hmap_node *node;

    for (node = hmap_first_with_hash(&table->indexes[index], hash); node;
         node = hmap_next_with_hash(node)) {
        const struct ovsdb_row *irow = ovsdb_row_from_index_node(
            node, table->schema->n_columns, index);
        if (!uuid_equals(ovsdb_row_get_uuid(irow), ovsdb_row_get_uuid(row))
            && ovsdb_row_equal_columns(irow, row, columns)) {
            return irow;
        }
    }
    return NULL;
}
