#include <config.h>
#include "convert.h"

#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "ovsdb.h"
#include "row.h"
#include "shash.h"
#include "table.h"
#include "transaction.h"

/* Copies the value of column OCOL of OLD_ROW into column NCOL of NEW_ROW.
 * Going through JSON applies every rule of the new type, constraints
 * included. */
static struct ovsdb_error *
convert_column(const struct ovsdb_row *old_row,
               const struct ovsdb_column *ocol,
               struct ovsdb_row *new_row, const struct ovsdb_column *ncol)
{
    json_t *json = ovsdb_datum_to_json(&old_row->fields[ocol->index],
                                       &ocol->type);
    struct ovsdb_datum datum;
    struct ovsdb_error *error = ovsdb_datum_from_json(&datum, &ncol->type,
                                                      json, NULL);
    json_decref(json);
    if (!error) {
        ovsdb_datum_swap(&new_row->fields[ncol->index], &datum);
        ovsdb_datum_destroy(&datum, &ncol->type);
    }
    return error;
}

static struct ovsdb_error *
convert_table(struct ovsdb_txn *txn, const struct ovsdb_table *old_table,
              struct ovsdb_table *new_table)
{
    const struct ovsdb_table_schema *nts = new_table->schema;
    const struct ovsdb_table_schema *ots = old_table->schema;
    size_t n = ovsdb_table_schema_n_columns(nts);

    const struct ovsdb_row *old_row;
    HMAP_FOR_EACH (old_row, hmap_node, &old_table->rows) {
        struct ovsdb_row *new_row = ovsdb_row_create(new_table);
        *ovsdb_row_get_uuid_rw(new_row) = *ovsdb_row_get_uuid(old_row);

        for (size_t i = 0; i < n; i++) {
            const struct ovsdb_column *ncol
                = ovsdb_table_schema_column_by_index(nts, i);
            if (ncol->index < OVSDB_N_STD_COLUMNS) {
                continue;
            }
            const struct ovsdb_column *ocol
                = ovsdb_table_schema_get_column(ots, ncol->name);
            if (!ocol) {
                continue;
            }
            struct ovsdb_error *error = convert_column(old_row, ocol,
                                                       new_row, ncol);
            if (error) {
                ovsdb_row_destroy(new_row);
                return error;
            }
        }
        ovsdb_txn_row_insert(txn, new_row);
    }
    return NULL;
}

struct ovsdb_error *
ovsdb_convert(const struct ovsdb *old, const struct ovsdb_schema *new_schema,
              struct ovsdb **newp)
{
    struct ovsdb *new = ovsdb_create(ovsdb_schema_clone(new_schema));
    struct ovsdb_txn *txn = ovsdb_txn_create(new);
    struct ovsdb_error *error = NULL;

    *newp = NULL;
    struct shash_node *node;
    SHASH_FOR_EACH (node, &new->tables) {
        const struct ovsdb_table *old_table = ovsdb_get_table(old, node->name);
        if (old_table) {
            error = convert_table(txn, old_table, node->data);
            if (error) {
                ovsdb_txn_abort(txn);
                ovsdb_destroy(new);
                return error;
            }
        }
    }

    /* The commit checks referential integrity and the other rules that
     * span rows under the new schema. */
    error = ovsdb_txn_commit(txn, false);
    if (error) {
        ovsdb_destroy(new);
        return error;
    }
    *newp = new;
    return NULL;
}
