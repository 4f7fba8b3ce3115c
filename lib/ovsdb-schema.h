/* ovsdb-schema: database, table and column schemas (RFC 7047 section 3.2).
 *
 * A struct ovsdb_schema is parsed from a schema file's JSON and printed back
 * in the canonical form Open vSwitch prints (so "ovsdb-client get-schema"
 * against us and against them give the same bytes and ovsdb-tool
 * schema-cksum matches).  Parsing validates everything the RFC requires:
 * identifiers (letters, digits, underscores, not starting with a digit,
 * and names starting with "_" reserved), a version "x.y.z", every type and
 * constraint, that refTable names an existing table, that index columns
 * exist and are not ephemeral, maxRows >= 1.  Like Open vSwitch, the parser
 * also adjusts two column properties, which then show in the printed
 * schema: a strong reference to a non-root table is always persistent
 * (replaying the log must not garbage collect the row it keeps alive), and
 * a weak reference is always mutable (deleting the referenced row changes
 * it).
 *
 * Every table has two built-in columns with the fixed indexes
 * OVSDB_COL_UUID ("_uuid") and OVSDB_COL_VERSION ("_version"); the
 * schema's own columns follow at OVSDB_N_STD_COLUMNS and up, in the order
 * of their names (sorted), so a column's index is stable for a given
 * schema.  Rows store their fields in an array indexed by column index.
 *
 * Ownership: a schema owns its tables (in SCHEMA->tables, name -> struct
 * ovsdb_table_schema *), a table schema its columns and indexes.  All
 * *_from_json() functions return new objects the caller owns;
 * ovsdb_schema_to_json() returns a new JSON reference.
 */
#ifndef OVSDB_SCHEMA_H
#define OVSDB_SCHEMA_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "ovsdb-types.h"
#include "shash.h"
#include "util.h"

struct ovsdb_error;

/* Columns. */

enum {
    OVSDB_COL_UUID = 0,         /* "_uuid". */
    OVSDB_COL_VERSION = 1,      /* "_version". */
    OVSDB_N_STD_COLUMNS = 2
};

struct ovsdb_column {
    unsigned int index;         /* Position in row->fields. */
    char *name;
    bool mutable;               /* False: may not change after insert. */
    bool persistent;            /* False: "ephemeral", not written to disk. */
    struct ovsdb_type type;
};

struct ovsdb_column *ovsdb_column_create(const char *name, bool mutable,
                                         bool persistent,
                                         const struct ovsdb_type *);
struct ovsdb_column *ovsdb_column_clone(const struct ovsdb_column *);
void ovsdb_column_destroy(struct ovsdb_column *);
struct ovsdb_error *ovsdb_column_from_json(const json_t *, const char *name,
                                           struct ovsdb_column **)
    OVS_WARN_UNUSED_RESULT;
json_t *ovsdb_column_to_json(const struct ovsdb_column *);

/* An ordered list of columns of one table (not owned), e.g. an index, the
 * "columns" of a select, or the columns a monitor watches. */
struct ovsdb_column_set {
    const struct ovsdb_column **columns;
    size_t n_columns, allocated_columns;
};

#define OVSDB_COLUMN_SET_INITIALIZER { NULL, 0, 0 }

void ovsdb_column_set_init(struct ovsdb_column_set *);
void ovsdb_column_set_destroy(struct ovsdb_column_set *);
void ovsdb_column_set_clone(struct ovsdb_column_set *dst,
                            const struct ovsdb_column_set *src);
void ovsdb_column_set_add(struct ovsdb_column_set *,
                          const struct ovsdb_column *);
void ovsdb_column_set_add_all(struct ovsdb_column_set *,
                              const struct ovsdb_table_schema *);
bool ovsdb_column_set_contains(const struct ovsdb_column_set *,
                               unsigned int column_index);
bool ovsdb_column_set_equals(const struct ovsdb_column_set *,
                             const struct ovsdb_column_set *);
/* Parses a JSON array of column names of TABLE into SET (a null JSON
 * pointer, for an absent member, means every column of TABLE).  Returns
 * NULL or a syntax error naming an unknown or repeated column; on error SET
 * is left empty. */
struct ovsdb_error *ovsdb_column_set_from_json(
    const json_t *, const struct ovsdb_table_schema *,
    struct ovsdb_column_set *) OVS_WARN_UNUSED_RESULT;
json_t *ovsdb_column_set_to_json(const struct ovsdb_column_set *);

/* Tables. */

struct ovsdb_table_schema {
    char *name;
    bool mutable;               /* False: rows may not be modified. */
    bool is_root;               /* False: unreferenced rows are garbage
                                 * collected.  A schema in which no table
                                 * says "isRoot": true predates garbage
                                 * collection, so the parser makes every
                                 * table root. */
    unsigned int max_rows;      /* UINT_MAX if unlimited. */
    struct shash columns;       /* Name -> struct ovsdb_column *, including
                                 * "_uuid" and "_version". */
    struct ovsdb_column **columns_by_index;    /* By column->index. */
    size_t n_columns;           /* Including the standard columns. */
    struct ovsdb_column_set *indexes;   /* "indexes": unique column sets. */
    size_t n_indexes;
};

/* A new table schema with just the standard columns. */
struct ovsdb_table_schema *ovsdb_table_schema_create(const char *name,
                                                     bool mutable,
                                                     unsigned int max_rows,
                                                     bool is_root);
struct ovsdb_table_schema *ovsdb_table_schema_clone(
    const struct ovsdb_table_schema *);
void ovsdb_table_schema_destroy(struct ovsdb_table_schema *);
/* Adds COLUMN (taking ownership) and renumbers columns by name. */
void ovsdb_table_schema_add_column(struct ovsdb_table_schema *,
                                   struct ovsdb_column *);
struct ovsdb_error *ovsdb_table_schema_from_json(
    const json_t *, const char *name, struct ovsdb_table_schema **)
    OVS_WARN_UNUSED_RESULT;
/* DEFAULT_IS_ROOT: "isRoot" is printed only when it differs from this.
 * ovsdb_schema_to_json() passes true when every table is root (so such a
 * schema prints no "isRoot" at all, like the file it came from) and false
 * otherwise. */
json_t *ovsdb_table_schema_to_json(const struct ovsdb_table_schema *,
                                   bool default_is_root);

const struct ovsdb_column *ovsdb_table_schema_get_column(
    const struct ovsdb_table_schema *, const char *name);

static inline size_t
ovsdb_table_schema_n_columns(const struct ovsdb_table_schema *ts)
{
    return ts->n_columns;
}

static inline const struct ovsdb_column *
ovsdb_table_schema_column_by_index(const struct ovsdb_table_schema *ts,
                                   size_t index)
{
    return ts->columns_by_index[index];
}

/* Databases. */

struct ovsdb_schema {
    char *name;
    char *version;              /* "x.y.z", or "" if the schema has none. */
    char *cksum;                /* "cksum" member, or "" if none. */
    struct shash tables;        /* Name -> struct ovsdb_table_schema *. */
};

struct ovsdb_schema *ovsdb_schema_create(const char *name,
                                         const char *version,
                                         const char *cksum);
struct ovsdb_schema *ovsdb_schema_clone(const struct ovsdb_schema *);
void ovsdb_schema_destroy(struct ovsdb_schema *);

/* Reads and parses the schema file FILE_NAME. */
struct ovsdb_error *ovsdb_schema_from_file(const char *file_name,
                                           struct ovsdb_schema **)
    OVS_WARN_UNUSED_RESULT;
struct ovsdb_error *ovsdb_schema_from_json(const json_t *,
                                           struct ovsdb_schema **)
    OVS_WARN_UNUSED_RESULT;
json_t *ovsdb_schema_to_json(const struct ovsdb_schema *);

bool ovsdb_schema_equal(const struct ovsdb_schema *,
                        const struct ovsdb_schema *);
const struct ovsdb_table_schema *ovsdb_schema_get_table(
    const struct ovsdb_schema *, const char *name);

/* Parses "x.y.z" (each a decimal number) into V[0..2]. */
bool ovsdb_parse_version(const char *, int v[3]);
bool ovsdb_is_valid_version(const char *);

/* True if NAME is a valid OVSDB identifier: [A-Za-z_][A-Za-z0-9_]*. */
bool ovsdb_is_valid_id(const char *name);

#endif /* ovsdb-schema.h */
