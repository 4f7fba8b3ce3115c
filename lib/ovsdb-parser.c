#include <config.h>
#include "ovsdb-parser.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"

void
ovsdb_parser_init(struct ovsdb_parser *parser, const json_t *json,
                  const char *name, ...)
{
    va_list args;
    va_start(args, name);
    parser->name = xvasprintf(name, args);
    va_end(args);

    sset_init(&parser->used);
    parser->json = json;
    parser->error = NULL;
    if (!json_is_object(json)) {
        /* Open vSwitch does not quote the non-object in this case. */
        parser->json = NULL;
        ovsdb_parser_raise_error(parser, "Object expected.");
    }
}

static bool
is_of_types(const json_t *value, enum ovsdb_parser_types types)
{
    switch (json_typeof(value)) {
    case JSON_NULL:
        return types & OP_NULL;
    case JSON_FALSE:
        return types & OP_FALSE;
    case JSON_TRUE:
        return types & OP_TRUE;
    case JSON_INTEGER:
        return types & OP_INTEGER;
    case JSON_REAL:
        return types & OP_NONINTEGER;
    case JSON_STRING:
        return (types & OP_STRING
                || (types & OP_ID
                    && ovsdb_is_valid_id(json_string_value(value))));
    case JSON_ARRAY:
        return types & OP_ARRAY;
    case JSON_OBJECT:
        return types & OP_OBJECT;
    }
    return false;
}

const json_t *
ovsdb_parser_member(struct ovsdb_parser *parser, const char *name,
                    enum ovsdb_parser_types types)
{
    if (parser->error) {
        return NULL;
    }

    const json_t *value = (parser->json
                           ? json_object_get(parser->json, name) : NULL);
    if (!value) {
        if (!(types & OP_OPTIONAL)) {
            ovsdb_parser_raise_error(parser,
                                     "Required '%s' member is missing.",
                                     name);
        }
        return NULL;
    }

    if (!is_of_types(value, types)) {
        ovsdb_parser_raise_error(parser, "Type mismatch for member '%s'.",
                                 name);
        return NULL;
    }
    sset_add(&parser->used, name);
    return value;
}

void
ovsdb_parser_raise_error(struct ovsdb_parser *parser, const char *format,
                         ...)
{
    if (parser->error) {
        return;
    }

    va_list args;
    va_start(args, format);
    char *message = xvasprintf(format, args);
    va_end(args);

    parser->error = ovsdb_syntax_error(parser->json, NULL,
                                       "Parsing %s failed: %s",
                                       parser->name, message);
    free(message);
}

void
ovsdb_parser_put_error(struct ovsdb_parser *parser,
                       struct ovsdb_error *error)
{
    if (parser->error) {
        ovsdb_error_destroy(error);
    } else {
        parser->error = error;
    }
}

bool
ovsdb_parser_has_error(const struct ovsdb_parser *parser)
{
    return parser->error != NULL;
}

struct ovsdb_error *
ovsdb_parser_finish(struct ovsdb_parser *parser)
{
    if (!parser->error && parser->json
        && json_object_size(parser->json) != sset_count(&parser->used)) {
        /* Name the alphabetically first unexpected member, so the message
         * does not depend on hash order. */
        const char *first = NULL;
        size_t n_unexpected = 0;
        const char *key;
        const json_t *value;

        json_object_foreach ((json_t *) parser->json, key, value) {
            if (!sset_contains(&parser->used, key)) {
                n_unexpected++;
                if (!first || strcmp(key, first) < 0) {
                    first = key;
                }
            }
        }
        if (n_unexpected == 1) {
            ovsdb_parser_raise_error(
                parser, "Member '%s' is present but not allowed here.",
                first);
        } else {
            ovsdb_parser_raise_error(
                parser, "Member '%s' and %zu other member%s are present but "
                "not allowed here.", first, n_unexpected - 1,
                n_unexpected > 2 ? "s" : "");
        }
    }

    struct ovsdb_error *error = parser->error;
    parser->error = NULL;
    ovsdb_parser_destroy(parser);
    return error;
}

void
ovsdb_parser_destroy(struct ovsdb_parser *parser)
{
    free(parser->name);
    parser->name = NULL;
    sset_destroy(&parser->used);
    ovsdb_error_destroy(parser->error);
    parser->error = NULL;
}
