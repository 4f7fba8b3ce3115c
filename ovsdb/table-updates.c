#include <config.h>
#include "table-updates.h"

#include <string.h>
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "ovsdb/ovsdb.h"
#include "ovsdb/row.h"
#include "ovsdb/table.h"
#include "ovsdb/transaction.h"
#include "sset.h"
#include "uuid.h"

/* Fills ROW's columns from COLUMNS (a row or, with AS_DIFF, a diff),
 * taking a "_version" member as the row's version. */
static struct ovsdb_error *
row_from_update(struct ovsdb_row *row, const json_t *columns, bool as_diff)
{
    const json_t *version = json_object_get(columns, "_version");
    if (!version) {
        return ovsdb_row_update_from_json(row, columns, as_diff);
    }
    const char *version_s = json_string_value(json_array_get(version, 1));
    if (!version_s
        || !uuid_from_string(ovsdb_row_get_version_rw(row), version_s)) {
        return ovsdb_syntax_error(version, NULL, "bad _version");
    }
    json_t *copy = json_copy((json_t *) columns);
    json_object_del(copy, "_version");
    struct ovsdb_error *error = ovsdb_row_update_from_json(row, copy,
                                                           as_diff);
    json_decref(copy);
    return error;
}

/* Makes the row UUID of TABLE the row described by COLUMNS (complete, with
 * defaults for what it leaves out), inserting or replacing it. */
static struct ovsdb_error *
put_row(struct ovsdb_txn *txn, struct ovsdb_table *table,
        const struct uuid *uuid, const json_t *columns)
{
    struct ovsdb_row *fresh = ovsdb_row_create(table);
    *ovsdb_row_get_uuid_rw(fresh) = *uuid;
    uuid_generate(ovsdb_row_get_version_rw(fresh));
    struct ovsdb_error *error = row_from_update(fresh, columns, false);
    if (error) {
        ovsdb_row_destroy(fresh);
        return error;
    }

    const struct ovsdb_row *row = ovsdb_table_get_row(table, uuid);
    if (row) {
        struct ovsdb_row *rw = ovsdb_txn_row_modify(txn, row);
        struct ovsdb_column_set all;
        ovsdb_column_set_init(&all);
        ovsdb_column_set_add_all(&all, table->schema);
        ovsdb_row_update_columns(rw, fresh, &all);
        ovsdb_column_set_destroy(&all);
        ovsdb_row_destroy(fresh);
    } else {
        ovsdb_txn_row_insert(txn, fresh);
    }
    return NULL;
}

static struct ovsdb_error *
apply_row_update(struct ovsdb_txn *txn, struct ovsdb_table *table,
                 const struct uuid *uuid, const json_t *change,
                 enum ovsdb_updates_version version)
{
    const struct ovsdb_row *row = ovsdb_table_get_row(table, uuid);
    if (!json_is_object(change)) {
        return ovsdb_syntax_error(change, NULL, "row-update expected");
    }

    if (version == OVSDB_UPDATES_V1) {
        const json_t *new = json_object_get(change, "new");
        if (new) {
            return put_row(txn, table, uuid, new);
        }
        if (row) {
            ovsdb_txn_row_delete(txn, row);
        }
        return NULL;
    }

    const json_t *columns;
    if ((columns = json_object_get(change, "initial"))
        || (columns = json_object_get(change, "insert"))) {
        return put_row(txn, table, uuid, columns);
    } else if ((columns = json_object_get(change, "modify"))) {
        if (!row) {
            return ovsdb_syntax_error(change, NULL, "modify of row "
                                      UUID_FMT " that does not exist",
                                      UUID_ARGS(uuid));
        }
        return row_from_update(ovsdb_txn_row_modify(txn, row), columns,
                               true);
    } else if (json_object_get(change, "delete")) {
        if (row) {
            ovsdb_txn_row_delete(txn, row);
        }
        return NULL;
    }
    return ovsdb_syntax_error(change, NULL, "unknown row-update2");
}

/* Deletes the rows of TABLE that TABLE_UPDATE (NULL: none) does not
 * mention. */
static void
delete_unmentioned_rows(struct ovsdb_txn *txn, struct ovsdb_table *table,
                        const json_t *table_update)
{
    struct ovsdb_row *row;
    HMAP_FOR_EACH_SAFE (row, hmap_node, &table->rows) {
        char uuid_s[UUID_LEN + 1];
        uuid_format(ovsdb_row_get_uuid(row), uuid_s);
        if (!table_update || !json_object_get(table_update, uuid_s)) {
            ovsdb_txn_row_delete(txn, row);
        }
    }
}

struct ovsdb_error *
ovsdb_table_updates_apply(struct ovsdb_txn *txn, const json_t *table_updates,
                          enum ovsdb_updates_version version,
                          const struct sset *reset_tables)
{
    struct ovsdb *db = ovsdb_txn_get_db(txn);
    if (!json_is_object(table_updates)) {
        return ovsdb_syntax_error(table_updates, NULL,
                                  "table-updates expected");
    }

    if (reset_tables) {
        const char *name;
        SSET_FOR_EACH (name, reset_tables) {
            struct ovsdb_table *table = ovsdb_get_table(db, name);
            if (table) {
                delete_unmentioned_rows(txn, table,
                                        json_object_get(table_updates, name));
            }
        }
    }

    const char *table_name;
    json_t *table_update;
    json_object_foreach ((json_t *) table_updates, table_name, table_update) {
        struct ovsdb_table *table = ovsdb_get_table(db, table_name);
        if (!table) {
            return ovsdb_syntax_error(table_updates, "unknown table",
                                      "No table named %s.", table_name);
        }
        if (!json_is_object(table_update)) {
            return ovsdb_syntax_error(table_update, NULL,
                                      "table-update expected");
        }
        const char *uuid_s;
        json_t *change;
        json_object_foreach (table_update, uuid_s, change) {
            struct uuid uuid;
            if (!uuid_from_string(&uuid, uuid_s)) {
                return ovsdb_syntax_error(table_update, NULL,
                                          "\"%s\" is not a valid UUID",
                                          uuid_s);
            }
            struct ovsdb_error *error = apply_row_update(txn, table, &uuid,
                                                         change, version);
            if (error) {
                return error;
            }
        }
    }
    return NULL;
}
