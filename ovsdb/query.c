#include <config.h>
#include "query.h"

#include <stdint.h>
#include <stdlib.h>

#include "condition.h"
#include "row.h"
#include "table.h"
#include "transaction.h"

/* If CND pins every column of one of TABLE's indexes with "==", returns
 * that index's number and stores in *PROBE a row (to destroy) holding those
 * values; otherwise returns SIZE_MAX. */
static size_t
find_usable_index(const struct ovsdb_table *table,
                  const struct ovsdb_condition *cnd,
                  struct ovsdb_row **probe)
{
    const struct ovsdb_table_schema *ts = table->schema;

    for (size_t i = 0; i < ts->n_indexes; i++) {
        const struct ovsdb_column_set *index = &ts->indexes[i];
        const struct ovsdb_clause **pins
            = xmalloc(index->n_columns * sizeof *pins);
        bool usable = true;

        for (size_t j = 0; usable && j < index->n_columns; j++) {
            pins[j] = NULL;
            for (size_t k = 0; k < cnd->n_clauses; k++) {
                const struct ovsdb_clause *c = &cnd->clauses[k];
                if (c->function == OVSDB_F_EQ
                    && c->column == index->columns[j]) {
                    pins[j] = c;
                    break;
                }
            }
            usable = pins[j] != NULL;
        }

        if (usable) {
            struct ovsdb_row *row = ovsdb_row_create(table);
            for (size_t j = 0; j < index->n_columns; j++) {
                const struct ovsdb_column *column = index->columns[j];
                struct ovsdb_datum *field = &row->fields[column->index];
                ovsdb_datum_destroy(field, &column->type);
                ovsdb_datum_clone(field, &pins[j]->arg, &column->type);
            }
            free(pins);
            *probe = row;
            return i;
        }
        free(pins);
    }
    return SIZE_MAX;
}

struct txn_query_aux {
    const struct ovsdb_condition *cnd;
    bool (*output_row)(const struct ovsdb_row *, void *aux);
    void *aux;
};

static bool
txn_row_cb(const struct ovsdb_row *row, void *aux_)
{
    struct txn_query_aux *aux = aux_;
    return (!ovsdb_condition_match_all(row, aux->cnd)
            || aux->output_row(row, aux->aux));
}

void
ovsdb_query(struct ovsdb_table *table, const struct ovsdb_condition *cnd,
            bool (*output_row)(const struct ovsdb_row *, void *aux),
            void *aux)
{
    struct uuid uuid;
    if (ovsdb_condition_get_uuid(cnd, &uuid)) {
        const struct ovsdb_row *row = ovsdb_table_get_row(table, &uuid);
        if (row && ovsdb_condition_match_all(row, cnd)) {
            output_row(row, aux);
        }
        return;
    }

    struct ovsdb_row *probe;
    size_t i = find_usable_index(table, cnd, &probe);
    if (i != SIZE_MAX) {
        /* The index holds committed rows.  Those that the open transaction
         * touched are looked at in their current versions instead. */
        const struct ovsdb_column_set *index = &table->schema->indexes[i];
        uint32_t hash = ovsdb_row_hash_columns(probe, index, 0);
        const struct hmap_node *node;
        bool stopped = false;

        for (node = hmap_first_with_hash(&table->indexes[i], hash); node;
             node = hmap_next_with_hash(node)) {
            const struct ovsdb_row *row = ovsdb_row_from_index_node(
                node, table->schema->n_columns, i);
            if (!row->txn_row
                && ovsdb_row_equal_columns(row, probe, index)
                && ovsdb_condition_match_all(row, cnd)
                && !output_row(row, aux)) {
                stopped = true;
                break;
            }
        }
        ovsdb_row_destroy(probe);

        if (!stopped) {
            struct txn_query_aux txn_aux = { cnd, output_row, aux };
            ovsdb_txn_table_for_each_row(table, txn_row_cb, &txn_aux);
        }
        return;
    }

    const struct ovsdb_row *row;
    HMAP_FOR_EACH (row, hmap_node, &table->rows) {
        if (ovsdb_condition_match_all(row, cnd) && !output_row(row, aux)) {
            break;
        }
    }
}

static bool
add_to_row_set(const struct ovsdb_row *row, void *results)
{
    ovsdb_row_set_add_row(results, row);
    return true;
}

void
ovsdb_query_row_set(struct ovsdb_table *table,
                    const struct ovsdb_condition *cnd,
                    struct ovsdb_row_set *results)
{
    ovsdb_query(table, cnd, add_to_row_set, results);
}

/* Rows already output, by their values in the selected columns. */
struct distinct_row {
    struct hmap_node node;
    const struct ovsdb_row *row;
};

struct distinct_aux {
    const struct ovsdb_column_set *columns;
    struct hmap seen;
    struct ovsdb_row_set *results;
};

static bool
add_distinct_row(const struct ovsdb_row *row, void *aux_)
{
    struct distinct_aux *aux = aux_;
    uint32_t hash = ovsdb_row_hash_columns(row, aux->columns, 0);
    struct distinct_row *d;

    HMAP_FOR_EACH_WITH_HASH (d, node, hash, &aux->seen) {
        if (ovsdb_row_equal_columns(d->row, row, aux->columns)) {
            return true;
        }
    }
    d = xmalloc(sizeof *d);
    d->row = row;
    hmap_insert(&aux->seen, &d->node, hash);
    ovsdb_row_set_add_row(aux->results, row);
    return true;
}

void
ovsdb_query_distinct(struct ovsdb_table *table,
                     const struct ovsdb_condition *cnd,
                     const struct ovsdb_column_set *columns,
                     struct ovsdb_row_set *results)
{
    if (ovsdb_column_set_contains(columns, OVSDB_COL_UUID)) {
        /* Every row is distinct from every other already. */
        ovsdb_query_row_set(table, cnd, results);
        return;
    }

    struct distinct_aux aux = { columns, HMAP_INITIALIZER(&aux.seen),
                                results };
    ovsdb_query(table, cnd, add_distinct_row, &aux);

    struct distinct_row *d;
    HMAP_FOR_EACH_POP (d, node, &aux.seen) {
        free(d);
    }
    hmap_destroy(&aux.seen);
}
