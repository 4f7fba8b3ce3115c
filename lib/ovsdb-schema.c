#include <config.h>
#include "ovsdb-schema.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ovsdb-error.h"
#include "ovsdb-parser.h"

/* Identifiers and versions. */

bool
ovsdb_is_valid_id(const char *name)
{
    const unsigned char *p = (const unsigned char *) name;

    if (!isalpha(*p) && *p != '_') {
        return false;
    }
    for (p++; *p; p++) {
        if (!isalnum(*p) && *p != '_') {
            return false;
        }
    }
    return true;
}

bool
ovsdb_parse_version(const char *s, int v[3])
{
    /* The same forms Open vSwitch accepts: three scanf() "%u"s. */
    unsigned int x, y, z;
    int n = -1;

    if (sscanf(s, "%u.%u.%u%n", &x, &y, &z, &n) != 3 || n < 0 || s[n]) {
        return false;
    }
    v[0] = x;
    v[1] = y;
    v[2] = z;
    return true;
}

bool
ovsdb_is_valid_version(const char *s)
{
    int v[3];
    return ovsdb_parse_version(s, v);
}

/* Columns. */

struct ovsdb_column *
ovsdb_column_create(const char *name, bool mutable, bool persistent,
                    const struct ovsdb_type *type)
{
    struct ovsdb_column *column = xzalloc(sizeof *column);
    column->index = UINT_MAX;
    column->name = xstrdup(name);
    column->mutable = mutable;
    column->persistent = persistent;
    ovsdb_type_clone(&column->type, type);
    return column;
}

struct ovsdb_column *
ovsdb_column_clone(const struct ovsdb_column *old)
{
    struct ovsdb_column *new = ovsdb_column_create(old->name, old->mutable,
                                                   old->persistent,
                                                   &old->type);
    new->index = old->index;
    return new;
}

void
ovsdb_column_destroy(struct ovsdb_column *column)
{
    if (column) {
        ovsdb_type_destroy(&column->type);
        free(column->name);
        free(column);
    }
}

struct ovsdb_error *
ovsdb_column_from_json(const json_t *json, const char *name,
                       struct ovsdb_column **columnp)
{
    struct ovsdb_parser parser;

    *columnp = NULL;
    ovsdb_parser_init(&parser, json, "schema for column %s", name);
    const json_t *mutable = ovsdb_parser_member(&parser, "mutable",
                                                OP_BOOLEAN | OP_OPTIONAL);
    const json_t *ephemeral = ovsdb_parser_member(&parser, "ephemeral",
                                                  OP_BOOLEAN | OP_OPTIONAL);
    const json_t *type_json = ovsdb_parser_member(&parser, "type",
                                                  OP_STRING | OP_OBJECT);
    struct ovsdb_error *error = ovsdb_parser_finish(&parser);
    if (error) {
        return error;
    }

    struct ovsdb_type type;
    error = ovsdb_type_from_json(&type, type_json);
    if (error) {
        return error;
    }

    *columnp = ovsdb_column_create(name,
                                   mutable ? json_is_true(mutable) : true,
                                   ephemeral ? !json_is_true(ephemeral) : true,
                                   &type);
    ovsdb_type_destroy(&type);
    return NULL;
}

json_t *
ovsdb_column_to_json(const struct ovsdb_column *column)
{
    json_t *json = json_object();

    json_object_set_new(json, "type", ovsdb_type_to_json(&column->type));
    if (!column->mutable) {
        json_object_set_new(json, "mutable", json_false());
    }
    if (!column->persistent) {
        json_object_set_new(json, "ephemeral", json_true());
    }
    return json;
}

/* Column sets. */

void
ovsdb_column_set_init(struct ovsdb_column_set *set)
{
    set->columns = NULL;
    set->n_columns = set->allocated_columns = 0;
}

void
ovsdb_column_set_destroy(struct ovsdb_column_set *set)
{
    free(set->columns);
    ovsdb_column_set_init(set);
}

void
ovsdb_column_set_clone(struct ovsdb_column_set *dst,
                       const struct ovsdb_column_set *src)
{
    dst->columns = (src->n_columns
                    ? xmemdup(src->columns,
                              src->n_columns * sizeof *src->columns)
                    : NULL);
    dst->n_columns = dst->allocated_columns = src->n_columns;
}

void
ovsdb_column_set_add(struct ovsdb_column_set *set,
                     const struct ovsdb_column *column)
{
    if (set->n_columns >= set->allocated_columns) {
        set->columns = x2nrealloc(set->columns, &set->allocated_columns,
                                  sizeof *set->columns);
    }
    set->columns[set->n_columns++] = column;
}

void
ovsdb_column_set_add_all(struct ovsdb_column_set *set,
                         const struct ovsdb_table_schema *table)
{
    for (size_t i = 0; i < table->n_columns; i++) {
        ovsdb_column_set_add(set, table->columns_by_index[i]);
    }
}

bool
ovsdb_column_set_contains(const struct ovsdb_column_set *set,
                          unsigned int column_index)
{
    for (size_t i = 0; i < set->n_columns; i++) {
        if (set->columns[i]->index == column_index) {
            return true;
        }
    }
    return false;
}

bool
ovsdb_column_set_equals(const struct ovsdb_column_set *a,
                        const struct ovsdb_column_set *b)
{
    if (a->n_columns != b->n_columns) {
        return false;
    }
    for (size_t i = 0; i < a->n_columns; i++) {
        if (a->columns[i] != b->columns[i]) {
            return false;
        }
    }
    return true;
}

struct ovsdb_error *
ovsdb_column_set_from_json(const json_t *json,
                           const struct ovsdb_table_schema *table,
                           struct ovsdb_column_set *set)
{
    struct ovsdb_error *error = NULL;

    ovsdb_column_set_init(set);
    if (!json) {
        ovsdb_column_set_add_all(set, table);
        return NULL;
    }
    if (!json_is_array(json)) {
        goto error;
    }

    size_t i;
    const json_t *elem;
    json_array_foreach (json, i, elem) {
        if (!json_is_string(elem)) {
            goto error;
        }

        const char *name = json_string_value(elem);
        const struct ovsdb_column *column
            = ovsdb_table_schema_get_column(table, name);
        if (!column) {
            error = ovsdb_syntax_error(json, NULL,
                                       "%s is not a valid column name", name);
            goto error;
        } else if (ovsdb_column_set_contains(set, column->index)) {
            goto error;
        }
        ovsdb_column_set_add(set, column);
    }
    return NULL;

error:
    ovsdb_column_set_destroy(set);
    return (error ? error
            : ovsdb_syntax_error(json, NULL,
                                 "array of distinct column names expected"));
}

json_t *
ovsdb_column_set_to_json(const struct ovsdb_column_set *set)
{
    json_t *json = json_array();
    for (size_t i = 0; i < set->n_columns; i++) {
        json_array_append_new(json, json_string(set->columns[i]->name));
    }
    return json;
}

/* Tables. */

static void
add_std_columns(struct ovsdb_table_schema *ts)
{
    struct ovsdb_type uuid_type;
    ovsdb_type_init_scalar(&uuid_type, OVSDB_TYPE_UUID);

    ovsdb_table_schema_add_column(
        ts, ovsdb_column_create("_uuid", false, true, &uuid_type));
    ovsdb_table_schema_add_column(
        ts, ovsdb_column_create("_version", false, false, &uuid_type));
}

struct ovsdb_table_schema *
ovsdb_table_schema_create(const char *name, bool mutable,
                          unsigned int max_rows, bool is_root)
{
    struct ovsdb_table_schema *ts = xzalloc(sizeof *ts);

    ts->name = xstrdup(name);
    ts->mutable = mutable;
    ts->is_root = is_root;
    ts->max_rows = max_rows;
    shash_init(&ts->columns);
    ts->columns_by_index = NULL;
    ts->n_columns = 0;
    ts->indexes = NULL;
    ts->n_indexes = 0;
    add_std_columns(ts);
    return ts;
}

struct ovsdb_table_schema *
ovsdb_table_schema_clone(const struct ovsdb_table_schema *old)
{
    struct ovsdb_table_schema *new = xzalloc(sizeof *new);

    new->name = xstrdup(old->name);
    new->mutable = old->mutable;
    new->is_root = old->is_root;
    new->max_rows = old->max_rows;
    shash_init(&new->columns);
    new->n_columns = old->n_columns;
    new->columns_by_index = xmalloc(MAX(old->n_columns, 1)
                                    * sizeof *new->columns_by_index);
    for (size_t i = 0; i < old->n_columns; i++) {
        struct ovsdb_column *column
            = ovsdb_column_clone(old->columns_by_index[i]);
        new->columns_by_index[i] = column;
        shash_add(&new->columns, column->name, column);
    }

    new->n_indexes = old->n_indexes;
    new->indexes = (old->n_indexes
                    ? xmalloc(old->n_indexes * sizeof *new->indexes)
                    : NULL);
    for (size_t i = 0; i < old->n_indexes; i++) {
        const struct ovsdb_column_set *old_index = &old->indexes[i];
        struct ovsdb_column_set *new_index = &new->indexes[i];

        ovsdb_column_set_init(new_index);
        for (size_t j = 0; j < old_index->n_columns; j++) {
            ovsdb_column_set_add(
                new_index,
                new->columns_by_index[old_index->columns[j]->index]);
        }
    }
    return new;
}

void
ovsdb_table_schema_destroy(struct ovsdb_table_schema *ts)
{
    if (!ts) {
        return;
    }
    for (size_t i = 0; i < ts->n_indexes; i++) {
        ovsdb_column_set_destroy(&ts->indexes[i]);
    }
    free(ts->indexes);

    for (size_t i = 0; i < ts->n_columns; i++) {
        ovsdb_column_destroy(ts->columns_by_index[i]);
    }
    free(ts->columns_by_index);
    shash_destroy(&ts->columns);
    free(ts->name);
    free(ts);
}

static int
compare_columns_by_name(const void *a_, const void *b_)
{
    const struct ovsdb_column *const *a = a_;
    const struct ovsdb_column *const *b = b_;
    return strcmp((*a)->name, (*b)->name);
}

void
ovsdb_table_schema_add_column(struct ovsdb_table_schema *ts,
                              struct ovsdb_column *column)
{
    shash_add_assert(&ts->columns, column->name, column);
    ts->columns_by_index = xrealloc(ts->columns_by_index,
                                    (ts->n_columns + 1)
                                    * sizeof *ts->columns_by_index);
    ts->columns_by_index[ts->n_columns++] = column;

    /* The standard columns keep their fixed places; the schema's own
     * columns follow in name order, so a column's index depends only on
     * the schema. */
    size_t first = MIN(ts->n_columns, OVSDB_N_STD_COLUMNS);
    qsort(ts->columns_by_index + first, ts->n_columns - first,
          sizeof *ts->columns_by_index, compare_columns_by_name);
    for (size_t i = 0; i < ts->n_columns; i++) {
        ts->columns_by_index[i]->index = i;
    }
}

const struct ovsdb_column *
ovsdb_table_schema_get_column(const struct ovsdb_table_schema *ts,
                              const char *name)
{
    return shash_find_data(&ts->columns, name);
}

static struct ovsdb_error *
check_column_name(const json_t *json, const char *name)
{
    if (name[0] == '_') {
        return ovsdb_syntax_error(json, NULL,
                                  "names beginning with \"_\" are reserved");
    } else if (!ovsdb_is_valid_id(name)) {
        return ovsdb_syntax_error(json, NULL, "name must be a valid id");
    }
    return NULL;
}

static int
compare_strings(const void *a_, const void *b_)
{
    const char *const *a = a_;
    const char *const *b = b_;
    return strcmp(*a, *b);
}

/* Column names of JSON object OBJECT in sorted order, so that parsing (and
 * therefore the first error reported) does not depend on hash order. */
static const char **
sorted_keys(const json_t *object, size_t *n)
{
    const char **keys = xmalloc(MAX(json_object_size(object), 1)
                                * sizeof *keys);
    const char *key;
    json_t *value;

    *n = 0;
    json_object_foreach ((json_t *) object, key, value) {
        keys[(*n)++] = key;
    }
    qsort(keys, *n, sizeof *keys, compare_strings);
    return keys;
}

struct ovsdb_error *
ovsdb_table_schema_from_json(const json_t *json, const char *name,
                             struct ovsdb_table_schema **tsp)
{
    struct ovsdb_parser parser;
    struct ovsdb_error *error;

    *tsp = NULL;
    ovsdb_parser_init(&parser, json, "table schema for table %s", name);
    const json_t *columns = ovsdb_parser_member(&parser, "columns",
                                                OP_OBJECT);
    const json_t *mutable = ovsdb_parser_member(&parser, "mutable",
                                                OP_BOOLEAN | OP_OPTIONAL);
    const json_t *max_rows = ovsdb_parser_member(&parser, "maxRows",
                                                 OP_INTEGER | OP_OPTIONAL);
    const json_t *is_root = ovsdb_parser_member(&parser, "isRoot",
                                                OP_BOOLEAN | OP_OPTIONAL);
    const json_t *indexes = ovsdb_parser_member(&parser, "indexes",
                                                OP_ARRAY | OP_OPTIONAL);
    error = ovsdb_parser_finish(&parser);
    if (error) {
        return error;
    }

    unsigned int n_max_rows = UINT_MAX;
    if (max_rows) {
        json_int_t n = json_integer_value(max_rows);
        if (n <= 0) {
            return ovsdb_syntax_error(json, NULL,
                                      "maxRows must be at least 1");
        }
        n_max_rows = n < UINT_MAX ? n : UINT_MAX;
    }

    if (!json_object_size(columns)) {
        return ovsdb_syntax_error(json, NULL,
                                  "table must have at least one column");
    }

    struct ovsdb_table_schema *ts = ovsdb_table_schema_create(
        name, mutable ? json_is_true(mutable) : true, n_max_rows,
        is_root ? json_is_true(is_root) : false);

    size_t n_names;
    const char **names = sorted_keys(columns, &n_names);
    for (size_t i = 0; i < n_names; i++) {
        struct ovsdb_column *column;

        error = check_column_name(json, names[i]);
        if (!error) {
            error = ovsdb_column_from_json(json_object_get(columns, names[i]),
                                           names[i], &column);
        }
        if (error) {
            free(names);
            goto error;
        }
        ovsdb_table_schema_add_column(ts, column);
    }
    free(names);

    if (indexes) {
        size_t n = json_array_size(indexes);
        ts->indexes = xmalloc(MAX(n, 1) * sizeof *ts->indexes);
        for (size_t i = 0; i < n; i++) {
            struct ovsdb_column_set *index = &ts->indexes[i];

            error = ovsdb_column_set_from_json(json_array_get(indexes, i), ts,
                                               index);
            if (error) {
                goto error;
            }
            ts->n_indexes++;
            if (!index->n_columns) {
                error = ovsdb_syntax_error(json, NULL, "index must have at "
                                           "least one column");
                goto error;
            }
            for (size_t j = 0; j < index->n_columns; j++) {
                const struct ovsdb_column *column = index->columns[j];
                if (!column->persistent) {
                    error = ovsdb_syntax_error(json, NULL, "ephemeral columns "
                                               "(such as %s) may not be "
                                               "indexed", column->name);
                    goto error;
                }
            }
        }
    }

    *tsp = ts;
    return NULL;

error:
    ovsdb_table_schema_destroy(ts);
    return error;
}

json_t *
ovsdb_table_schema_to_json(const struct ovsdb_table_schema *ts,
                           bool default_is_root)
{
    json_t *json = json_object();

    if (!ts->mutable) {
        json_object_set_new(json, "mutable", json_false());
    }

    json_t *columns = json_object();
    for (size_t i = 0; i < ts->n_columns; i++) {
        const struct ovsdb_column *column = ts->columns_by_index[i];
        if (column->name[0] != '_') {
            json_object_set_new(columns, column->name,
                                ovsdb_column_to_json(column));
        }
    }
    json_object_set_new(json, "columns", columns);

    if (ts->max_rows != UINT_MAX) {
        json_object_set_new(json, "maxRows", json_integer(ts->max_rows));
    }
    if (default_is_root != ts->is_root) {
        json_object_set_new(json, "isRoot", json_boolean(ts->is_root));
    }
    if (ts->n_indexes) {
        json_t *indexes = json_array();
        for (size_t i = 0; i < ts->n_indexes; i++) {
            json_array_append_new(indexes,
                                  ovsdb_column_set_to_json(&ts->indexes[i]));
        }
        json_object_set_new(json, "indexes", indexes);
    }
    return json;
}

/* Databases. */

struct ovsdb_schema *
ovsdb_schema_create(const char *name, const char *version, const char *cksum)
{
    struct ovsdb_schema *schema = xzalloc(sizeof *schema);
    schema->name = xstrdup(name);
    schema->version = xstrdup(version ? version : "");
    schema->cksum = xstrdup(cksum ? cksum : "");
    shash_init(&schema->tables);
    return schema;
}

/* Points every refTable in SCHEMA's columns at the table it names, which
 * must exist. */
static void
resolve_ref_tables(struct ovsdb_schema *schema)
{
    struct shash_node *node;

    SHASH_FOR_EACH (node, &schema->tables) {
        struct ovsdb_table_schema *ts = node->data;
        for (size_t i = 0; i < ts->n_columns; i++) {
            struct ovsdb_column *column = ts->columns_by_index[i];
            struct ovsdb_base_type *bases[2] = { &column->type.key,
                                                 &column->type.value };
            for (int j = 0; j < 2; j++) {
                if (ovsdb_base_type_is_ref(bases[j])) {
                    bases[j]->u.uuid.refTable = shash_find_data(
                        &schema->tables, bases[j]->u.uuid.refTableName);
                }
            }
        }
    }
}

struct ovsdb_schema *
ovsdb_schema_clone(const struct ovsdb_schema *old)
{
    struct ovsdb_schema *new = ovsdb_schema_create(old->name, old->version,
                                                   old->cksum);
    const struct shash_node *node;

    SHASH_FOR_EACH (node, &old->tables) {
        const struct ovsdb_table_schema *ts = node->data;
        shash_add(&new->tables, node->name, ovsdb_table_schema_clone(ts));
    }
    resolve_ref_tables(new);
    return new;
}

void
ovsdb_schema_destroy(struct ovsdb_schema *schema)
{
    if (!schema) {
        return;
    }

    struct shash_node *node;
    SHASH_FOR_EACH (node, &schema->tables) {
        ovsdb_table_schema_destroy(node->data);
    }
    shash_destroy(&schema->tables);
    free(schema->name);
    free(schema->version);
    free(schema->cksum);
    free(schema);
}

struct ovsdb_error *
ovsdb_schema_from_file(const char *file_name, struct ovsdb_schema **schemap)
{
    *schemap = NULL;

    FILE *stream = fopen(file_name, "r");
    if (!stream) {
        return ovsdb_error("failed to read schema",
                           "\"%s\" could not be read as JSON (error opening "
                           "\"%s\": %s)", file_name, file_name,
                           ovs_strerror(errno));
    }

    json_error_t jerror;
    json_t *json = json_loadf(stream, JSON_DECODE_ANY, &jerror);
    fclose(stream);
    if (!json) {
        return ovsdb_error("failed to read schema",
                           "\"%s\" could not be read as JSON (line %d, "
                           "column %d, byte %d: %s)", file_name,
                           jerror.line, jerror.column, jerror.position,
                           jerror.text);
    }

    struct ovsdb_schema *schema;
    struct ovsdb_error *error = ovsdb_schema_from_json(json, &schema);
    json_decref(json);
    if (error) {
        return ovsdb_wrap_error(error,
                                "failed to parse \"%s\" as ovsdb schema",
                                file_name);
    }
    *schemap = schema;
    return NULL;
}

static size_t
root_set_size(const struct ovsdb_schema *schema)
{
    const struct shash_node *node;
    size_t n = 0;

    SHASH_FOR_EACH (node, &schema->tables) {
        const struct ovsdb_table_schema *ts = node->data;
        n += ts->is_root;
    }
    return n;
}

static struct ovsdb_error *
check_ref_table(struct ovsdb_column *column, const struct shash *tables,
                const struct ovsdb_base_type *base, const char *base_name)
{
    if (!ovsdb_base_type_is_ref(base)) {
        return NULL;
    }

    const struct ovsdb_table_schema *ref_table
        = shash_find_data(tables, base->u.uuid.refTableName);
    if (!ref_table) {
        return ovsdb_syntax_error(NULL, NULL,
                                  "column %s %s refers to undefined table %s",
                                  column->name, base_name,
                                  base->u.uuid.refTableName);
    }

    if (ovsdb_base_type_is_strong_ref(base) && !ref_table->is_root) {
        /* If an ephemeral column held the only strong reference to a
         * non-root row, replaying the log from disk would garbage collect
         * the row even though it existed in memory, and later records that
         * mention it would fail.  So such columns are always stored. */
        column->persistent = true;
    }
    if (ovsdb_base_type_is_weak_ref(base)) {
        /* Deleting the referenced row removes a weak reference, which
         * modifies the column, so it cannot be immutable. */
        column->mutable = true;
    }
    return NULL;
}

struct ovsdb_error *
ovsdb_schema_from_json(const json_t *json, struct ovsdb_schema **schemap)
{
    struct ovsdb_parser parser;
    struct ovsdb_error *error;

    *schemap = NULL;
    ovsdb_parser_init(&parser, json, "database schema");
    const json_t *name = ovsdb_parser_member(&parser, "name", OP_ID);
    const json_t *version_json = ovsdb_parser_member(&parser, "version",
                                                     OP_STRING | OP_OPTIONAL);
    const json_t *cksum = ovsdb_parser_member(&parser, "cksum",
                                              OP_STRING | OP_OPTIONAL);
    const json_t *tables = ovsdb_parser_member(&parser, "tables", OP_OBJECT);
    error = ovsdb_parser_finish(&parser);
    if (error) {
        return error;
    }

    const char *version = "";
    if (version_json) {
        version = json_string_value(version_json);
        if (!ovsdb_is_valid_version(version)) {
            return ovsdb_syntax_error(json, NULL, "schema version \"%s\" not "
                                      "in format x.y.z", version);
        }
    }

    struct ovsdb_schema *schema = ovsdb_schema_create(
        json_string_value(name), version,
        cksum ? json_string_value(cksum) : "");

    size_t n_names;
    const char **names = sorted_keys(tables, &n_names);
    for (size_t i = 0; i < n_names; i++) {
        struct ovsdb_table_schema *ts;

        error = check_column_name(json, names[i]);
        if (!error) {
            error = ovsdb_table_schema_from_json(
                json_object_get(tables, names[i]), names[i], &ts);
        }
        if (error) {
            free(names);
            ovsdb_schema_destroy(schema);
            return error;
        }
        shash_add(&schema->tables, ts->name, ts);
    }
    free(names);

    /* "isRoot" came with garbage collection; a schema in which no table
     * says it predates both, so all of its tables are roots. */
    if (!root_set_size(schema)) {
        struct shash_node *node;
        SHASH_FOR_EACH (node, &schema->tables) {
            struct ovsdb_table_schema *ts = node->data;
            ts->is_root = true;
        }
    }

    /* Checked only now that every table (and whether it is root) is
     * known. */
    const struct shash_node **sorted = shash_sort(&schema->tables);
    for (size_t i = 0; i < shash_count(&schema->tables); i++) {
        struct ovsdb_table_schema *ts = sorted[i]->data;
        for (size_t j = OVSDB_N_STD_COLUMNS; j < ts->n_columns; j++) {
            struct ovsdb_column *column = ts->columns_by_index[j];
            error = check_ref_table(column, &schema->tables,
                                    &column->type.key, "key");
            if (!error) {
                error = check_ref_table(column, &schema->tables,
                                        &column->type.value, "value");
            }
            if (error) {
                free(sorted);
                ovsdb_schema_destroy(schema);
                return error;
            }
        }
    }
    free(sorted);

    resolve_ref_tables(schema);
    *schemap = schema;
    return NULL;
}

json_t *
ovsdb_schema_to_json(const struct ovsdb_schema *schema)
{
    json_t *json = json_object();

    json_object_set_new(json, "name", json_string(schema->name));
    if (schema->version[0]) {
        json_object_set_new(json, "version", json_string(schema->version));
    }
    if (schema->cksum[0]) {
        json_object_set_new(json, "cksum", json_string(schema->cksum));
    }

    bool default_is_root
        = root_set_size(schema) == shash_count(&schema->tables);
    json_t *tables = json_object();
    const struct shash_node *node;
    SHASH_FOR_EACH (node, &schema->tables) {
        const struct ovsdb_table_schema *ts = node->data;
        json_object_set_new(tables, ts->name,
                            ovsdb_table_schema_to_json(ts, default_is_root));
    }
    json_object_set_new(json, "tables", tables);
    return json;
}

bool
ovsdb_schema_equal(const struct ovsdb_schema *a,
                   const struct ovsdb_schema *b)
{
    json_t *ja = ovsdb_schema_to_json(a);
    json_t *jb = ovsdb_schema_to_json(b);
    bool equal = json_equal(ja, jb);
    json_decref(ja);
    json_decref(jb);
    return equal;
}

const struct ovsdb_table_schema *
ovsdb_schema_get_table(const struct ovsdb_schema *schema, const char *name)
{
    return shash_find_data(&schema->tables, name);
}
