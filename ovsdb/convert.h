/* ovsdb-convert: a database's contents under a new schema.
 *
 * Both "ovsdb-tool convert" (offline, on a file) and ovsdb-server's online
 * "convert" method need the same thing: a new database for the new schema
 * holding every row of the old one, with the same uuids.  Tables and
 * columns that the new schema lacks are dropped, new ones get their
 * defaults, and every value that is kept must fit its new type (constraints
 * included), otherwise the conversion fails and nothing is produced.
 *
 * Ownership: OLD and NEW_SCHEMA are borrowed (the new database gets its own
 * copy of the schema); on success *NEWP is a database the caller owns and
 * frees with ovsdb_destroy().
 */
#ifndef OVSDB_CONVERT_H
#define OVSDB_CONVERT_H 1

#include "util.h"

struct ovsdb;
struct ovsdb_error;
struct ovsdb_schema;

/* Converts the data in OLD to NEW_SCHEMA, into a new database stored in
 * *NEWP.  Returns NULL or an error (then *NEWP is NULL). */
struct ovsdb_error *ovsdb_convert(const struct ovsdb *old,
                                  const struct ovsdb_schema *new_schema,
                                  struct ovsdb **newp)
    OVS_WARN_UNUSED_RESULT;

#endif /* ovsdb/convert.h */
