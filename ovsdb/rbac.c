#include <config.h>
#include "rbac.h"

#include <limits.h>
#include <string.h>

#include "mutation.h"
#include "ovsdb.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "row.h"
#include "table.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_rbac);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

#define RBAC_ROLE_TABLE "RBAC_Role"

bool
ovsdb_rbac_applies(const struct ovsdb *db,
                   const struct ovsdb_rbac_client *client)
{
    return (client && client->role && client->role[0]
            && shash_find_data(&db->tables, RBAC_ROLE_TABLE));
}

/* The field of ROW in column NAME, if TABLE has such a column and it is of
 * the given key type, value type and at most N_MAX elements; else NULL. */
static const struct ovsdb_datum *
get_field(const struct ovsdb_table *table, const struct ovsdb_row *row,
          const char *name, enum ovsdb_atomic_type key_type,
          enum ovsdb_atomic_type value_type, unsigned int n_max)
{
    const struct ovsdb_column *column
        = ovsdb_table_schema_get_column(table->schema, name);
    if (!column
        || column->type.key.type != key_type
        || column->type.value.type != value_type
        || column->type.n_max > n_max) {
        return NULL;
    }
    return &row->fields[column->index];
}

/* The permission row that CLIENT's role has for TABLE_NAME, or NULL.  Sets
 * *PERM_TABLE to the table it is in. */
static const struct ovsdb_row *
find_permission(const struct ovsdb *db, const char *table_name,
                const struct ovsdb_rbac_client *client,
                const struct ovsdb_table **perm_table)
{
    const struct ovsdb_table *roles = shash_find_data(&db->tables,
                                                      RBAC_ROLE_TABLE);
    const struct ovsdb_column *name_column
        = ovsdb_table_schema_get_column(roles->schema, "name");
    const struct ovsdb_column *perms_column
        = ovsdb_table_schema_get_column(roles->schema, "permissions");
    if (!name_column || name_column->type.key.type != OVSDB_TYPE_STRING
        || !perms_column
        || perms_column->type.key.type != OVSDB_TYPE_STRING
        || perms_column->type.value.type != OVSDB_TYPE_UUID
        || !perms_column->type.value.u.uuid.refTableName) {
        VLOG_WARN_RL(&rl, "%s: table %s lacks a \"name\" string column or "
                     "a \"permissions\" map to a permission table",
                     db->name, RBAC_ROLE_TABLE);
        return NULL;
    }

    const struct ovsdb_table *table = shash_find_data(
        &db->tables, perms_column->type.value.u.uuid.refTableName);
    if (!table) {
        return NULL;
    }

    /* Roles are few: a scan costs less than keeping an index in step. */
    const struct ovsdb_row *role_row;
    HMAP_FOR_EACH (role_row, hmap_node, &roles->rows) {
        const struct ovsdb_datum *name = &role_row->fields[name_column->index];
        if (name->n != 1 || strcmp(name->keys[0].string, client->role)) {
            continue;
        }

        const struct ovsdb_datum *perms
            = &role_row->fields[perms_column->index];
        union ovsdb_atom key = { .string = (char *) table_name };
        unsigned int i = ovsdb_datum_find_key(perms, &key, OVSDB_TYPE_STRING);
        if (i == UINT_MAX) {
            return NULL;
        }
        *perm_table = table;
        return ovsdb_table_get_row(table, &perms->values[i].uuid);
    }
    return NULL;
}

/* True if ROW of TABLE matches the authorization entry ENTRY for ID. */
static bool
entry_authorizes(const struct ovsdb_table *table, const struct ovsdb_row *row,
                 const char *entry, const char *id)
{
    if (!entry[0]) {
        return true;
    }

    const char *colon = strchr(entry, ':');
    if (colon) {
        char *name = xmemdup0(entry, colon - entry);
        const struct ovsdb_datum *map = get_field(table, row, name,
                                                  OVSDB_TYPE_STRING,
                                                  OVSDB_TYPE_STRING,
                                                  UINT_MAX);
        free(name);
        if (!map) {
            VLOG_WARN_RL(&rl, "%s: authorization \"%s\" does not name a map "
                         "of strings", table->schema->name, entry);
            return false;
        }
        union ovsdb_atom key = { .string = (char *) colon + 1 };
        unsigned int i = ovsdb_datum_find_key(map, &key, OVSDB_TYPE_STRING);
        return i != UINT_MAX && !strcmp(map->values[i].string, id);
    }

    const struct ovsdb_datum *value = get_field(table, row, entry,
                                                OVSDB_TYPE_STRING,
                                                OVSDB_TYPE_VOID, 1);
    if (value) {
        return value->n == 1 && !strcmp(value->keys[0].string, id);
    }
    value = get_field(table, row, entry, OVSDB_TYPE_UUID, OVSDB_TYPE_VOID, 1);
    if (value) {
        struct uuid uuid;
        return (value->n == 1 && uuid_from_string(&uuid, id)
                && uuid_equals(&uuid, &value->keys[0].uuid));
    }
    VLOG_WARN_RL(&rl, "%s: authorization \"%s\" does not name a string or "
                 "uuid column", table->schema->name, entry);
    return false;
}

/* True if the permission PERM (a row of PERM_TABLE) lets CLIENT touch ROW
 * of TABLE. */
static bool
row_authorized(const struct ovsdb_table *perm_table,
               const struct ovsdb_row *perm,
               const struct ovsdb_table *table, const struct ovsdb_row *row,
               const struct ovsdb_rbac_client *client)
{
    const struct ovsdb_datum *auth = get_field(perm_table, perm,
                                               "authorization",
                                               OVSDB_TYPE_STRING,
                                               OVSDB_TYPE_VOID, UINT_MAX);
    if (!auth) {
        VLOG_WARN_RL(&rl, "%s: no \"authorization\" set of strings",
                     perm_table->schema->name);
        return false;
    }
    for (unsigned int i = 0; i < auth->n; i++) {
        if (entry_authorizes(table, row, auth->keys[i].string, client->id)) {
            return true;
        }
    }
    return false;
}

static bool
rows_authorized(const struct ovsdb_table *perm_table,
                const struct ovsdb_row *perm,
                const struct ovsdb_table *table,
                const struct ovsdb_row_set *rows,
                const struct ovsdb_rbac_client *client)
{
    for (size_t i = 0; i < rows->n_rows; i++) {
        if (!row_authorized(perm_table, perm, table, rows->rows[i], client)) {
            return false;
        }
    }
    return true;
}

static bool
may_insert_delete(const struct ovsdb_table *perm_table,
                  const struct ovsdb_row *perm)
{
    const struct ovsdb_datum *flag = get_field(perm_table, perm,
                                               "insert_delete",
                                               OVSDB_TYPE_BOOLEAN,
                                               OVSDB_TYPE_VOID, 1);
    return flag && flag->n == 1 && flag->keys[0].boolean;
}

static bool
may_update_column(const struct ovsdb_table *perm_table,
                  const struct ovsdb_row *perm, const char *column_name)
{
    const struct ovsdb_datum *update = get_field(perm_table, perm, "update",
                                                 OVSDB_TYPE_STRING,
                                                 OVSDB_TYPE_VOID, UINT_MAX);
    if (!update) {
        return false;
    }
    union ovsdb_atom key = { .string = (char *) column_name };
    return ovsdb_datum_find_key(update, &key, OVSDB_TYPE_STRING) != UINT_MAX;
}

static struct ovsdb_error *
permission_error(const struct ovsdb_rbac_client *client, const char *what,
                 const struct ovsdb_table *table)
{
    return ovsdb_error("permission error",
                       "RBAC rules for client \"%s\" role \"%s\" prohibit "
                       "%s table \"%s\".",
                       client->id ? client->id : "(null)", client->role,
                       what, table->schema->name);
}

/* The permission for CLIENT's changes to TABLE, or NULL if there is none
 * (and then the change is refused).  Only for clients that RBAC applies
 * to. */
static const struct ovsdb_row *
permission_for(const struct ovsdb *db, const struct ovsdb_table *table,
               const struct ovsdb_rbac_client *client,
               const struct ovsdb_table **perm_table)
{
    /* A client that cannot be told apart from any other may not be
     * trusted with any row. */
    if (!client->id) {
        return NULL;
    }
    return find_permission(db, table->schema->name, client, perm_table);
}

struct ovsdb_error *
ovsdb_rbac_insert(const struct ovsdb *db, const struct ovsdb_table *table,
                  const struct ovsdb_row *new_row,
                  const struct ovsdb_rbac_client *client)
{
    if (!ovsdb_rbac_applies(db, client)) {
        return NULL;
    }
    const struct ovsdb_table *perm_table;
    const struct ovsdb_row *perm = permission_for(db, table, client,
                                                  &perm_table);
    if (perm && may_insert_delete(perm_table, perm)
        && row_authorized(perm_table, perm, table, new_row, client)) {
        return NULL;
    }
    return permission_error(client, "row insertion into", table);
}

struct ovsdb_error *
ovsdb_rbac_delete(const struct ovsdb *db, const struct ovsdb_table *table,
                  const struct ovsdb_row_set *rows,
                  const struct ovsdb_rbac_client *client)
{
    if (!ovsdb_rbac_applies(db, client)) {
        return NULL;
    }
    const struct ovsdb_table *perm_table;
    const struct ovsdb_row *perm = permission_for(db, table, client,
                                                  &perm_table);
    if (perm && may_insert_delete(perm_table, perm)
        && rows_authorized(perm_table, perm, table, rows, client)) {
        return NULL;
    }
    return permission_error(client, "row deletion from", table);
}

/* The checks that "update" and "mutate" share: CLIENT may change the
 * columns named in NAMES (N of them) in ROWS of TABLE. */
static bool
may_modify(const struct ovsdb *db, const struct ovsdb_table *table,
           const char **names, size_t n, const struct ovsdb_row_set *rows,
           const struct ovsdb_rbac_client *client)
{
    const struct ovsdb_table *perm_table;
    const struct ovsdb_row *perm = permission_for(db, table, client,
                                                  &perm_table);
    if (!perm) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (!may_update_column(perm_table, perm, names[i])) {
            return false;
        }
    }
    return rows_authorized(perm_table, perm, table, rows, client);
}

struct ovsdb_error *
ovsdb_rbac_update(const struct ovsdb *db, const struct ovsdb_table *table,
                  const struct ovsdb_column_set *columns,
                  const struct ovsdb_row_set *rows,
                  const struct ovsdb_rbac_client *client)
{
    if (!ovsdb_rbac_applies(db, client)) {
        return NULL;
    }
    const char **names = xmalloc(columns->n_columns * sizeof *names + 1);
    for (size_t i = 0; i < columns->n_columns; i++) {
        names[i] = columns->columns[i]->name;
    }
    bool ok = may_modify(db, table, names, columns->n_columns, rows, client);
    free(names);
    return ok ? NULL : permission_error(client, "modification of", table);
}

struct ovsdb_error *
ovsdb_rbac_mutate(const struct ovsdb *db, const struct ovsdb_table *table,
                  const struct ovsdb_mutation_set *mutations,
                  const struct ovsdb_row_set *rows,
                  const struct ovsdb_rbac_client *client)
{
    if (!ovsdb_rbac_applies(db, client)) {
        return NULL;
    }
    size_t n = mutations->n_mutations;
    const char **names = xmalloc(n * sizeof *names + 1);
    for (size_t i = 0; i < n; i++) {
        names[i] = mutations->mutations[i].column->name;
    }
    bool ok = may_modify(db, table, names, n, rows, client);
    free(names);
    return ok ? NULL : permission_error(client, "mutate operation on", table);
}
