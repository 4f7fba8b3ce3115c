/* ovsdb-types: the RFC 7047 type system of OVSDB columns.
 *
 * A column's type (struct ovsdb_type) is a KEY base type, an optional VALUE
 * base type (OVSDB_TYPE_VOID when the column is not a map) and the number of
 * elements allowed, N_MIN..N_MAX (N_MAX == UINT_MAX for "unlimited").  A
 * scalar is min 1 max 1; an optional value min 0 max 1; a set max > 1 (or
 * min 0); a map has a value type.
 *
 * A base type is an atomic type plus its constraints: an "enum" (a set of
 * allowed atoms, kept as a struct ovsdb_datum owned by the base type),
 * minInteger/maxInteger, minReal/maxReal, minLength/maxLength (in UTF-8
 * characters, not bytes), and for uuids a refTable with refType strong or
 * weak.  refTable is resolved to a table schema pointer by the schema parser
 * (ovsdb-schema.c) once every table is known.
 *
 * JSON in both directions follows RFC 7047 section 3.2 exactly, including
 * its short forms: "integer" for {"key": "integer"}, and a base type with no
 * constraints printed as a bare string.  ovsdb_type_to_json() of
 * ovsdb_type_from_json(J) prints the canonical form Open vSwitch prints, so
 * a schema round-trips byte for byte through our tools and theirs.
 *
 * Ownership: a base type owns its enum datum and refTableName string;
 * *_clone() deep-copies, *_destroy() frees.  refTable is never owned.
 */
#ifndef OVSDB_TYPES_H
#define OVSDB_TYPES_H 1

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "util.h"

struct ovsdb_datum;
struct ovsdb_table_schema;

enum ovsdb_atomic_type {
    OVSDB_TYPE_VOID,            /* No value (only as a value type). */
    OVSDB_TYPE_INTEGER,         /* Signed 64-bit integer. */
    OVSDB_TYPE_REAL,            /* IEEE 754 double. */
    OVSDB_TYPE_BOOLEAN,
    OVSDB_TYPE_STRING,          /* UTF-8. */
    OVSDB_TYPE_UUID,
    OVSDB_N_TYPES
};

/* "integer", "real", "boolean", "string", "uuid" ("void" for VOID). */
const char *ovsdb_atomic_type_to_string(enum ovsdb_atomic_type);
/* Parses one of the names above except "void"; false if S is none. */
bool ovsdb_atomic_type_from_string(const char *s,
                                   enum ovsdb_atomic_type *);

enum ovsdb_ref_type {
    OVSDB_REF_STRONG,           /* Referenced row may not be deleted while
                                 * referred to; unreferenced non-root rows
                                 * are garbage collected. */
    OVSDB_REF_WEAK              /* Reference silently removed when the
                                 * referenced row goes away. */
};

struct ovsdb_base_type {
    enum ovsdb_atomic_type type;

    /* Set of allowed atoms of TYPE (a set datum, sorted), or NULL. */
    struct ovsdb_datum *enum_;

    union {
        struct { int64_t min, max; } integer;   /* INT64_MIN..INT64_MAX
                                                 * when unconstrained. */
        struct { double min, max; } real;       /* -DBL_MAX..DBL_MAX. */
        struct { unsigned int minLen, maxLen; } string; /* 0..UINT_MAX. */
        struct {
            char *refTableName;                 /* NULL if not a ref. */
            struct ovsdb_table_schema *refTable; /* Resolved by schema. */
            enum ovsdb_ref_type refType;
        } uuid;
    } u;
};

/* An unconstrained base type of the given atomic type. */
void ovsdb_base_type_init(struct ovsdb_base_type *, enum ovsdb_atomic_type);
void ovsdb_base_type_clone(struct ovsdb_base_type *dst,
                           const struct ovsdb_base_type *src);
void ovsdb_base_type_destroy(struct ovsdb_base_type *);
bool ovsdb_base_type_is_valid(const struct ovsdb_base_type *);
bool ovsdb_base_type_has_constraints(const struct ovsdb_base_type *);
void ovsdb_base_type_clear_constraints(struct ovsdb_base_type *);
bool ovsdb_base_type_equals(const struct ovsdb_base_type *,
                            const struct ovsdb_base_type *);

static inline bool
ovsdb_base_type_is_ref(const struct ovsdb_base_type *base)
{
    return base->type == OVSDB_TYPE_UUID && base->u.uuid.refTableName;
}

static inline bool
ovsdb_base_type_is_strong_ref(const struct ovsdb_base_type *base)
{
    return ovsdb_base_type_is_ref(base)
           && base->u.uuid.refType == OVSDB_REF_STRONG;
}

static inline bool
ovsdb_base_type_is_weak_ref(const struct ovsdb_base_type *base)
{
    return ovsdb_base_type_is_ref(base)
           && base->u.uuid.refType == OVSDB_REF_WEAK;
}

struct ovsdb_error *ovsdb_base_type_from_json(struct ovsdb_base_type *,
                                              const json_t *)
    OVS_WARN_UNUSED_RESULT;
json_t *ovsdb_base_type_to_json(const struct ovsdb_base_type *);

struct ovsdb_type {
    struct ovsdb_base_type key;
    struct ovsdb_base_type value;   /* OVSDB_TYPE_VOID if not a map. */
    unsigned int n_min;             /* 0 or 1. */
    unsigned int n_max;             /* >= 1, UINT_MAX for "unlimited". */
};

#define OVSDB_UNLIMITED UINT_MAX

/* A scalar of the given atomic type (min 1, max 1, no constraints). */
void ovsdb_type_init_scalar(struct ovsdb_type *, enum ovsdb_atomic_type);
void ovsdb_type_clone(struct ovsdb_type *dst, const struct ovsdb_type *src);
void ovsdb_type_destroy(struct ovsdb_type *);
bool ovsdb_type_is_valid(const struct ovsdb_type *);
bool ovsdb_type_equals(const struct ovsdb_type *, const struct ovsdb_type *);

static inline bool
ovsdb_type_is_scalar(const struct ovsdb_type *type)
{
    return (type->value.type == OVSDB_TYPE_VOID
            && type->n_min == 1 && type->n_max == 1);
}

static inline bool
ovsdb_type_is_optional(const struct ovsdb_type *type)
{
    return type->n_min == 0;
}

static inline bool
ovsdb_type_is_optional_scalar(const struct ovsdb_type *type)
{
    return (type->value.type == OVSDB_TYPE_VOID
            && type->n_min == 0 && type->n_max == 1);
}

static inline bool
ovsdb_type_is_composite(const struct ovsdb_type *type)
{
    return type->n_max > 1;
}

/* The type a difference of a composite column of TYPE is parsed with (see
 * ovsdb_datum_diff()): any number of elements, because a difference may
 * add and remove more elements than the column can hold at once. */
static inline struct ovsdb_type
ovsdb_type_for_diff(const struct ovsdb_type *type)
{
    struct ovsdb_type relaxed = *type;
    relaxed.n_min = 0;
    relaxed.n_max = OVSDB_UNLIMITED;
    return relaxed;
}

static inline bool
ovsdb_type_is_set(const struct ovsdb_type *type)
{
    return (type->value.type == OVSDB_TYPE_VOID
            && (type->n_min != 1 || type->n_max != 1));
}

static inline bool
ovsdb_type_is_map(const struct ovsdb_type *type)
{
    return type->value.type != OVSDB_TYPE_VOID;
}

struct ovsdb_error *ovsdb_type_from_json(struct ovsdb_type *, const json_t *)
    OVS_WARN_UNUSED_RESULT;
json_t *ovsdb_type_to_json(const struct ovsdb_type *);

/* A short English description ("set of 1 or more strings", "map of string
 * to integer pairs") for error messages; the caller frees it. */
char *ovsdb_type_to_english(const struct ovsdb_type *);

#endif /* ovsdb-types.h */
