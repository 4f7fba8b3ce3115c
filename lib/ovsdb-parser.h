/* ovsdb-parser: picks the members out of one JSON object of an OVSDB
 * schema or request, checking their JSON types, and reports what was wrong
 * the way Open vSwitch words it ("Parsing NAME failed: Required 'x' member
 * is missing.", "Type mismatch for member 'x'.", "Member 'x' is present but
 * not allowed here.").
 *
 * Usage:
 *     struct ovsdb_parser parser;
 *     ovsdb_parser_init(&parser, json, "table schema for table %s", name);
 *     const json_t *rows = ovsdb_parser_member(&parser, "maxRows",
 *                                              OP_INTEGER | OP_OPTIONAL);
 *     ...
 *     error = ovsdb_parser_finish(&parser);   (also complains about members
 *                                              nobody asked for)
 *
 * Only the first error is kept; later calls return NULL and add nothing.
 * The parser borrows JSON and owns its error until ovsdb_parser_finish()
 * or ovsdb_parser_destroy() hands it over or frees it.
 */
#ifndef OVSDB_PARSER_H
#define OVSDB_PARSER_H 1

#include <jansson.h>
#include <stdbool.h>
#include "sset.h"
#include "util.h"

enum ovsdb_parser_types {
    OP_NULL = 1 << 0,
    OP_FALSE = 1 << 1,
    OP_TRUE = 1 << 2,
    OP_BOOLEAN = OP_FALSE | OP_TRUE,
    OP_INTEGER = 1 << 3,
    OP_NONINTEGER = 1 << 4,
    OP_NUMBER = OP_INTEGER | OP_NONINTEGER,
    OP_STRING = 1 << 5,
    OP_ARRAY = 1 << 6,
    OP_OBJECT = 1 << 7,
    OP_ID = 1 << 8,             /* A string that is a valid identifier. */
    OP_OPTIONAL = 1 << 9,       /* The member may be absent. */
    OP_ANY = (OP_NULL | OP_BOOLEAN | OP_NUMBER | OP_STRING | OP_ARRAY
              | OP_OBJECT)
};

struct ovsdb_parser {
    char *name;                 /* What is being parsed, for messages. */
    struct sset used;           /* Members asked for so far. */
    const json_t *json;         /* The object (borrowed), NULL if the
                                 * JSON was not an object. */
    struct ovsdb_error *error;  /* First error, or NULL. */
};

void ovsdb_parser_init(struct ovsdb_parser *, const json_t *,
                       const char *name, ...) OVS_PRINTF_FORMAT(3, 4);
/* Returns member NAME if it is present and of one of TYPES; otherwise
 * records an error (unless it is absent and TYPES has OP_OPTIONAL) and
 * returns NULL. */
const json_t *ovsdb_parser_member(struct ovsdb_parser *, const char *name,
                                  enum ovsdb_parser_types);
void ovsdb_parser_raise_error(struct ovsdb_parser *, const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3);
/* Records ERROR (taking ownership) unless an error is already recorded. */
void ovsdb_parser_put_error(struct ovsdb_parser *, struct ovsdb_error *);
bool ovsdb_parser_has_error(const struct ovsdb_parser *);
/* Checks that every member was asked for, frees the parser and returns its
 * error (the caller owns it) or NULL. */
struct ovsdb_error *ovsdb_parser_finish(struct ovsdb_parser *)
    OVS_WARN_UNUSED_RESULT;
/* Frees the parser and any error it holds. */
void ovsdb_parser_destroy(struct ovsdb_parser *);

#endif /* ovsdb-parser.h */
