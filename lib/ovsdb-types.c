#include <config.h>
#include "ovsdb-types.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-parser.h"
#include "ovsdb-schema.h"

static const char *const atomic_type_names[OVSDB_N_TYPES] = {
    [OVSDB_TYPE_VOID] = "void",
    [OVSDB_TYPE_INTEGER] = "integer",
    [OVSDB_TYPE_REAL] = "real",
    [OVSDB_TYPE_BOOLEAN] = "boolean",
    [OVSDB_TYPE_STRING] = "string",
    [OVSDB_TYPE_UUID] = "uuid",
};

const char *
ovsdb_atomic_type_to_string(enum ovsdb_atomic_type type)
{
    return (unsigned int) type < OVSDB_N_TYPES ? atomic_type_names[type]
                                               : "<invalid>";
}

bool
ovsdb_atomic_type_from_string(const char *s, enum ovsdb_atomic_type *type)
{
    for (int i = OVSDB_TYPE_INTEGER; i < OVSDB_N_TYPES; i++) {
        if (!strcmp(s, atomic_type_names[i])) {
            *type = i;
            return true;
        }
    }
    return false;
}

static struct ovsdb_error *
ovsdb_atomic_type_from_json(enum ovsdb_atomic_type *type, const json_t *json)
{
    if (json_is_string(json)
        && ovsdb_atomic_type_from_string(json_string_value(json), type)) {
        return NULL;
    }
    *type = OVSDB_TYPE_VOID;
    if (json_is_string(json)) {
        return ovsdb_syntax_error(json, NULL, "\"%s\" is not an atomic-type",
                                  json_string_value(json));
    }
    return ovsdb_syntax_error(json, NULL, "atomic-type expected");
}

/* Base types. */

void
ovsdb_base_type_init(struct ovsdb_base_type *base,
                     enum ovsdb_atomic_type type)
{
    memset(base, 0, sizeof *base);
    base->type = type;
    base->enum_ = NULL;
    ovsdb_base_type_clear_constraints(base);
}

/* The type of an "enum" datum: a set of 1 or more unconstrained atoms. */
static void
enum_type_init(struct ovsdb_type *type, enum ovsdb_atomic_type atomic_type)
{
    ovsdb_base_type_init(&type->key, atomic_type);
    ovsdb_base_type_init(&type->value, OVSDB_TYPE_VOID);
    type->n_min = 1;
    type->n_max = UINT_MAX;
}

void
ovsdb_base_type_clone(struct ovsdb_base_type *dst,
                      const struct ovsdb_base_type *src)
{
    *dst = *src;
    if (src->enum_) {
        struct ovsdb_type enum_type;
        enum_type_init(&enum_type, src->type);
        dst->enum_ = xmalloc(sizeof *dst->enum_);
        ovsdb_datum_clone(dst->enum_, src->enum_, &enum_type);
    }
    if (src->type == OVSDB_TYPE_UUID && src->u.uuid.refTableName) {
        dst->u.uuid.refTableName = xstrdup(src->u.uuid.refTableName);
    }
}

static void
free_enum(struct ovsdb_base_type *base)
{
    if (base->enum_) {
        struct ovsdb_type enum_type;
        enum_type_init(&enum_type, base->type);
        ovsdb_datum_destroy(base->enum_, &enum_type);
        free(base->enum_);
        base->enum_ = NULL;
    }
}

void
ovsdb_base_type_destroy(struct ovsdb_base_type *base)
{
    if (base) {
        free_enum(base);
        if (base->type == OVSDB_TYPE_UUID) {
            free(base->u.uuid.refTableName);
            base->u.uuid.refTableName = NULL;
        }
    }
}

bool
ovsdb_base_type_is_valid(const struct ovsdb_base_type *base)
{
    switch (base->type) {
    case OVSDB_TYPE_VOID:
        return !base->enum_;
    case OVSDB_TYPE_INTEGER:
        return base->u.integer.min <= base->u.integer.max;
    case OVSDB_TYPE_REAL:
        return base->u.real.min <= base->u.real.max;
    case OVSDB_TYPE_BOOLEAN:
        return true;
    case OVSDB_TYPE_STRING:
        return base->u.string.minLen <= base->u.string.maxLen;
    case OVSDB_TYPE_UUID:
        return (base->u.uuid.refType == OVSDB_REF_STRONG
                || base->u.uuid.refType == OVSDB_REF_WEAK);
    case OVSDB_N_TYPES:
    default:
        return false;
    }
}

bool
ovsdb_base_type_has_constraints(const struct ovsdb_base_type *base)
{
    if (base->enum_) {
        return true;
    }

    switch (base->type) {
    case OVSDB_TYPE_INTEGER:
        return (base->u.integer.min != INT64_MIN
                || base->u.integer.max != INT64_MAX);
    case OVSDB_TYPE_REAL:
        return base->u.real.min != -DBL_MAX || base->u.real.max != DBL_MAX;
    case OVSDB_TYPE_STRING:
        return base->u.string.minLen != 0 || base->u.string.maxLen != UINT_MAX;
    case OVSDB_TYPE_UUID:
        return base->u.uuid.refTableName != NULL;
    case OVSDB_TYPE_VOID:
    case OVSDB_TYPE_BOOLEAN:
    case OVSDB_N_TYPES:
    default:
        return false;
    }
}

void
ovsdb_base_type_clear_constraints(struct ovsdb_base_type *base)
{
    enum ovsdb_atomic_type type = base->type;

    if (type == OVSDB_TYPE_UUID) {
        free(base->u.uuid.refTableName);
    }
    free_enum(base);
    memset(&base->u, 0, sizeof base->u);
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        base->u.integer.min = INT64_MIN;
        base->u.integer.max = INT64_MAX;
        break;
    case OVSDB_TYPE_REAL:
        base->u.real.min = -DBL_MAX;
        base->u.real.max = DBL_MAX;
        break;
    case OVSDB_TYPE_STRING:
        base->u.string.minLen = 0;
        base->u.string.maxLen = UINT_MAX;
        break;
    case OVSDB_TYPE_UUID:
        base->u.uuid.refTableName = NULL;
        base->u.uuid.refTable = NULL;
        base->u.uuid.refType = OVSDB_REF_STRONG;
        break;
    case OVSDB_TYPE_VOID:
    case OVSDB_TYPE_BOOLEAN:
    case OVSDB_N_TYPES:
    default:
        break;
    }
}

bool
ovsdb_base_type_equals(const struct ovsdb_base_type *a,
                       const struct ovsdb_base_type *b)
{
    if (a->type != b->type) {
        return false;
    }

    if (!a->enum_ != !b->enum_) {
        return false;
    }
    if (a->enum_) {
        struct ovsdb_type enum_type;
        enum_type_init(&enum_type, a->type);
        if (!ovsdb_datum_equals(a->enum_, b->enum_, &enum_type)) {
            return false;
        }
    }

    switch (a->type) {
    case OVSDB_TYPE_INTEGER:
        return (a->u.integer.min == b->u.integer.min
                && a->u.integer.max == b->u.integer.max);
    case OVSDB_TYPE_REAL:
        return (a->u.real.min == b->u.real.min
                && a->u.real.max == b->u.real.max);
    case OVSDB_TYPE_STRING:
        return (a->u.string.minLen == b->u.string.minLen
                && a->u.string.maxLen == b->u.string.maxLen);
    case OVSDB_TYPE_UUID:
        if (!a->u.uuid.refTableName || !b->u.uuid.refTableName) {
            return !a->u.uuid.refTableName && !b->u.uuid.refTableName;
        }
        return (!strcmp(a->u.uuid.refTableName, b->u.uuid.refTableName)
                && a->u.uuid.refType == b->u.uuid.refType);
    case OVSDB_TYPE_VOID:
    case OVSDB_TYPE_BOOLEAN:
    case OVSDB_N_TYPES:
    default:
        return true;
    }
}

/* Parses optional member NAME of PARSER as an unsigned int into *VALUE (left
 * alone if absent). */
static void
parse_optional_uint(struct ovsdb_parser *parser, const char *name,
                    unsigned int *value)
{
    const json_t *json = ovsdb_parser_member(parser, name,
                                             OP_INTEGER | OP_OPTIONAL);
    if (json) {
        json_int_t n = json_integer_value(json);
        if (n < 0 || n > UINT_MAX) {
            ovsdb_parser_put_error(parser, ovsdb_syntax_error(
                                       json, NULL, "%s out of valid range "
                                       "0 to %u", name, UINT_MAX));
        } else {
            *value = n;
        }
    }
}

struct ovsdb_error *
ovsdb_base_type_from_json(struct ovsdb_base_type *base, const json_t *json)
{
    struct ovsdb_error *error;

    ovsdb_base_type_init(base, OVSDB_TYPE_VOID);
    if (json_is_string(json)) {
        error = ovsdb_atomic_type_from_json(&base->type, json);
        if (!error) {
            ovsdb_base_type_init(base, base->type);
        }
        return error;
    }

    struct ovsdb_parser parser;
    ovsdb_parser_init(&parser, json, "ovsdb type");
    const json_t *type = ovsdb_parser_member(&parser, "type", OP_STRING);
    if (ovsdb_parser_has_error(&parser)) {
        return ovsdb_parser_finish(&parser);
    }

    enum ovsdb_atomic_type atomic_type;
    error = ovsdb_atomic_type_from_json(&atomic_type, type);
    if (error) {
        ovsdb_parser_destroy(&parser);
        return error;
    }
    ovsdb_base_type_init(base, atomic_type);

    /* An enum says everything about the allowed values, so (as in Open
     * vSwitch) other constraints next to it are unknown members. */
    const json_t *enum_ = ovsdb_parser_member(&parser, "enum",
                                              OP_ANY | OP_OPTIONAL);
    if (enum_) {
        /* Parsed below. */
    } else if (base->type == OVSDB_TYPE_INTEGER) {
        const json_t *min = ovsdb_parser_member(&parser, "minInteger",
                                                OP_INTEGER | OP_OPTIONAL);
        const json_t *max = ovsdb_parser_member(&parser, "maxInteger",
                                                OP_INTEGER | OP_OPTIONAL);
        if (min) {
            base->u.integer.min = json_integer_value(min);
        }
        if (max) {
            base->u.integer.max = json_integer_value(max);
        }
        if (base->u.integer.min > base->u.integer.max) {
            ovsdb_parser_put_error(&parser, ovsdb_syntax_error(
                json, NULL, "minInteger exceeds maxInteger"));
        }
    } else if (base->type == OVSDB_TYPE_REAL) {
        const json_t *min = ovsdb_parser_member(&parser, "minReal",
                                                OP_NUMBER | OP_OPTIONAL);
        const json_t *max = ovsdb_parser_member(&parser, "maxReal",
                                                OP_NUMBER | OP_OPTIONAL);
        if (min) {
            base->u.real.min = json_number_value(min);
        }
        if (max) {
            base->u.real.max = json_number_value(max);
        }
        if (base->u.real.min > base->u.real.max) {
            ovsdb_parser_put_error(&parser, ovsdb_syntax_error(
                json, NULL, "minReal exceeds maxReal"));
        }
    } else if (base->type == OVSDB_TYPE_STRING) {
        parse_optional_uint(&parser, "minLength", &base->u.string.minLen);
        parse_optional_uint(&parser, "maxLength", &base->u.string.maxLen);
        if (!ovsdb_parser_has_error(&parser)
            && base->u.string.minLen > base->u.string.maxLen) {
            ovsdb_parser_put_error(&parser, ovsdb_syntax_error(
                json, NULL, "minLength exceeds maxLength"));
        }
    } else if (base->type == OVSDB_TYPE_UUID) {
        const json_t *ref_table = ovsdb_parser_member(&parser, "refTable",
                                                      OP_ID | OP_OPTIONAL);
        if (ref_table) {
            base->u.uuid.refTableName
                = xstrdup(json_string_value(ref_table));
            /* The table itself is found by the schema parser, once every
             * table is known. */
            base->u.uuid.refTable = NULL;

            const json_t *ref_type = ovsdb_parser_member(
                &parser, "refType", OP_ID | OP_OPTIONAL);
            if (ref_type) {
                const char *s = json_string_value(ref_type);
                if (!strcmp(s, "strong")) {
                    base->u.uuid.refType = OVSDB_REF_STRONG;
                } else if (!strcmp(s, "weak")) {
                    base->u.uuid.refType = OVSDB_REF_WEAK;
                } else {
                    ovsdb_parser_put_error(&parser, ovsdb_syntax_error(
                        json, NULL, "refType must be \"strong\" or \"weak\" "
                        "(not \"%s\")", s));
                }
            }
        }
    }

    if (enum_ && !ovsdb_parser_has_error(&parser)) {
        struct ovsdb_type enum_type;
        enum_type_init(&enum_type, base->type);
        base->enum_ = xmalloc(sizeof *base->enum_);
        error = ovsdb_datum_from_json(base->enum_, &enum_type, enum_, NULL);
        if (error) {
            free(base->enum_);
            base->enum_ = NULL;
            ovsdb_parser_put_error(&parser, error);
        }
    }

    error = ovsdb_parser_finish(&parser);
    if (error) {
        ovsdb_base_type_destroy(base);
        ovsdb_base_type_init(base, OVSDB_TYPE_VOID);
    }
    return error;
}

json_t *
ovsdb_base_type_to_json(const struct ovsdb_base_type *base)
{
    if (!ovsdb_base_type_has_constraints(base)) {
        return json_string(ovsdb_atomic_type_to_string(base->type));
    }

    json_t *json = json_object();
    json_object_set_new(json, "type",
                        json_string(ovsdb_atomic_type_to_string(base->type)));
    if (base->enum_) {
        struct ovsdb_type enum_type;
        enum_type_init(&enum_type, base->type);
        json_object_set_new(json, "enum",
                            ovsdb_datum_to_json(base->enum_, &enum_type));
    }

    switch (base->type) {
    case OVSDB_TYPE_INTEGER:
        if (base->u.integer.min != INT64_MIN) {
            json_object_set_new(json, "minInteger",
                                json_integer(base->u.integer.min));
        }
        if (base->u.integer.max != INT64_MAX) {
            json_object_set_new(json, "maxInteger",
                                json_integer(base->u.integer.max));
        }
        break;
    case OVSDB_TYPE_REAL:
        if (base->u.real.min != -DBL_MAX) {
            json_object_set_new(json, "minReal",
                                ovsdb_real_to_json(base->u.real.min));
        }
        if (base->u.real.max != DBL_MAX) {
            json_object_set_new(json, "maxReal",
                                ovsdb_real_to_json(base->u.real.max));
        }
        break;
    case OVSDB_TYPE_STRING:
        if (base->u.string.minLen != 0) {
            json_object_set_new(json, "minLength",
                                json_integer(base->u.string.minLen));
        }
        if (base->u.string.maxLen != UINT_MAX) {
            json_object_set_new(json, "maxLength",
                                json_integer(base->u.string.maxLen));
        }
        break;
    case OVSDB_TYPE_UUID:
        if (base->u.uuid.refTableName) {
            json_object_set_new(json, "refTable",
                                json_string(base->u.uuid.refTableName));
            if (base->u.uuid.refType == OVSDB_REF_WEAK) {
                json_object_set_new(json, "refType", json_string("weak"));
            }
        }
        break;
    case OVSDB_TYPE_VOID:
    case OVSDB_TYPE_BOOLEAN:
    case OVSDB_N_TYPES:
    default:
        break;
    }
    return json;
}

/* Types. */

void
ovsdb_type_init_scalar(struct ovsdb_type *type,
                       enum ovsdb_atomic_type atomic_type)
{
    ovsdb_base_type_init(&type->key, atomic_type);
    ovsdb_base_type_init(&type->value, OVSDB_TYPE_VOID);
    type->n_min = 1;
    type->n_max = 1;
}

void
ovsdb_type_clone(struct ovsdb_type *dst, const struct ovsdb_type *src)
{
    ovsdb_base_type_clone(&dst->key, &src->key);
    ovsdb_base_type_clone(&dst->value, &src->value);
    dst->n_min = src->n_min;
    dst->n_max = src->n_max;
}

void
ovsdb_type_destroy(struct ovsdb_type *type)
{
    if (type) {
        ovsdb_base_type_destroy(&type->key);
        ovsdb_base_type_destroy(&type->value);
    }
}

bool
ovsdb_type_is_valid(const struct ovsdb_type *type)
{
    return (type->key.type != OVSDB_TYPE_VOID
            && ovsdb_base_type_is_valid(&type->key)
            && ovsdb_base_type_is_valid(&type->value)
            && type->n_min <= 1
            && type->n_max >= 1);
}

bool
ovsdb_type_equals(const struct ovsdb_type *a, const struct ovsdb_type *b)
{
    return (ovsdb_base_type_equals(&a->key, &b->key)
            && ovsdb_base_type_equals(&a->value, &b->value)
            && a->n_min == b->n_min
            && a->n_max == b->n_max);
}

/* Parses "min" (absent means 1) or "max" (absent means 1, "unlimited"
 * means OVSDB_UNLIMITED). */
static struct ovsdb_error *
n_from_json(const json_t *json, unsigned int *n)
{
    if (!json) {
        *n = 1;
        return NULL;
    } else if (json_is_integer(json) && json_integer_value(json) >= 0
               && json_integer_value(json) < UINT_MAX) {
        *n = json_integer_value(json);
        return NULL;
    } else if (json_is_string(json)
               && !strcmp(json_string_value(json), "unlimited")) {
        *n = OVSDB_UNLIMITED;
        return NULL;
    }
    return ovsdb_syntax_error(json, NULL, "bad min or max value");
}

struct ovsdb_error *
ovsdb_type_from_json(struct ovsdb_type *type, const json_t *json)
{
    struct ovsdb_error *error;

    ovsdb_type_init_scalar(type, OVSDB_TYPE_VOID);

    if (json_is_string(json)) {
        return ovsdb_base_type_from_json(&type->key, json);
    } else if (!json_is_object(json)) {
        return ovsdb_syntax_error(json, NULL, "ovsdb type expected");
    }

    struct ovsdb_parser parser;
    ovsdb_parser_init(&parser, json, "ovsdb type");
    const json_t *key = ovsdb_parser_member(&parser, "key",
                                            OP_STRING | OP_OBJECT);
    const json_t *value = ovsdb_parser_member(&parser, "value",
                                              (OP_STRING | OP_OBJECT
                                               | OP_OPTIONAL));
    const json_t *min = ovsdb_parser_member(&parser, "min",
                                            OP_INTEGER | OP_OPTIONAL);
    const json_t *max = ovsdb_parser_member(&parser, "max",
                                            (OP_INTEGER | OP_STRING
                                             | OP_OPTIONAL));
    error = ovsdb_parser_finish(&parser);
    if (error) {
        return error;
    }

    error = ovsdb_base_type_from_json(&type->key, key);
    if (error) {
        goto error;
    }
    if (value) {
        error = ovsdb_base_type_from_json(&type->value, value);
        if (error) {
            goto error;
        }
    }

    error = n_from_json(min, &type->n_min);
    if (!error) {
        error = n_from_json(max, &type->n_max);
    }
    if (!error && (type->n_min == OVSDB_UNLIMITED)) {
        error = ovsdb_syntax_error(min, NULL, "bad min or max value");
    }
    if (!error && !ovsdb_type_is_valid(type)) {
        error = ovsdb_syntax_error(json, NULL,
                                   "ovsdb type fails constraint checks");
    }
    if (error) {
        goto error;
    }
    return NULL;

error:
    ovsdb_type_destroy(type);
    ovsdb_type_init_scalar(type, OVSDB_TYPE_VOID);
    return error;
}

json_t *
ovsdb_type_to_json(const struct ovsdb_type *type)
{
    if (ovsdb_type_is_scalar(type)
        && !ovsdb_base_type_has_constraints(&type->key)) {
        return ovsdb_base_type_to_json(&type->key);
    }

    json_t *json = json_object();
    json_object_set_new(json, "key", ovsdb_base_type_to_json(&type->key));
    if (type->value.type != OVSDB_TYPE_VOID) {
        json_object_set_new(json, "value",
                            ovsdb_base_type_to_json(&type->value));
    }
    if (type->n_min != 1) {
        json_object_set_new(json, "min", json_integer(type->n_min));
    }
    if (type->n_max == OVSDB_UNLIMITED) {
        json_object_set_new(json, "max", json_string("unlimited"));
    } else if (type->n_max != 1) {
        json_object_set_new(json, "max", json_integer(type->n_max));
    }
    return json;
}

char *
ovsdb_type_to_english(const struct ovsdb_type *type)
{
    const char *key = ovsdb_atomic_type_to_string(type->key.type);
    const char *value = ovsdb_atomic_type_to_string(type->value.type);

    if (ovsdb_type_is_scalar(type)) {
        return xstrdup(key);
    }

    struct ds s = DS_EMPTY_INITIALIZER;
    ds_put_cstr(&s, ovsdb_type_is_set(type) ? "set" : "map");
    if (type->n_max == OVSDB_UNLIMITED) {
        if (type->n_min) {
            ds_put_format(&s, " of %u or more", type->n_min);
        } else {
            ds_put_cstr(&s, " of");
        }
    } else if (type->n_min) {
        ds_put_format(&s, " of %u to %u", type->n_min, type->n_max);
    } else {
        ds_put_format(&s, " of up to %u", type->n_max);
    }
    if (ovsdb_type_is_set(type)) {
        ds_put_format(&s, " %ss", key);
    } else {
        ds_put_format(&s, " (%s, %s) pairs", key, value);
    }
    return ds_steal_cstr(&s);
}
