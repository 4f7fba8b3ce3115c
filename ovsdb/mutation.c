#include <config.h>
#include "mutation.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "ovsdb-types.h"
#include "row.h"

static const char *const mutator_names[] = {
    [OVSDB_M_ADD] = "+=",
    [OVSDB_M_SUB] = "-=",
    [OVSDB_M_MUL] = "*=",
    [OVSDB_M_DIV] = "/=",
    [OVSDB_M_MOD] = "%=",
    [OVSDB_M_INSERT] = "insert",
    [OVSDB_M_DELETE] = "delete",
};

const char *
ovsdb_mutator_to_string(enum ovsdb_mutator mutator)
{
    return (mutator < ARRAY_SIZE(mutator_names)
            ? mutator_names[mutator] : "<unknown>");
}

static bool
mutator_from_string(const char *name, enum ovsdb_mutator *mutator)
{
    for (size_t i = 0; i < ARRAY_SIZE(mutator_names); i++) {
        if (!strcmp(name, mutator_names[i])) {
            *mutator = i;
            return true;
        }
    }
    return false;
}

static bool
is_arithmetic(enum ovsdb_mutator mutator)
{
    return mutator <= OVSDB_M_MOD;
}

static struct ovsdb_error *
type_mismatch(const json_t *json, const struct ovsdb_mutation *m)
{
    char *s = ovsdb_type_to_english(&m->column->type);
    struct ovsdb_error *error = ovsdb_syntax_error(
        json, NULL, "Type mismatch: \"%s\" operator may not be applied to "
        "column %s of type %s.", ovsdb_mutator_to_string(m->mutator),
        m->column->name, s);
    free(s);
    return error;
}

/* Parses the value of mutation M (whose mutator and column are set) from
 * JSON, into M->arg of type M->type. */
static struct ovsdb_error *
parse_argument(struct ovsdb_mutation *m, const json_t *mutation_json,
               const json_t *json, struct ovsdb_symbol_table *symtab)
{
    const struct ovsdb_type *ctype = &m->column->type;
    struct ovsdb_error *error;

    if (is_arithmetic(m->mutator)) {
        /* Element-wise arithmetic on integers or reals, scalar or set; the
         * operand is a single number that need not itself satisfy the
         * column's constraints (the results must). */
        enum ovsdb_atomic_type key = ctype->key.type;
        if (ovsdb_type_is_map(ctype)
            || (m->mutator == OVSDB_M_MOD
                ? key != OVSDB_TYPE_INTEGER
                : key != OVSDB_TYPE_INTEGER && key != OVSDB_TYPE_REAL)) {
            return type_mismatch(mutation_json, m);
        }
        ovsdb_type_init_scalar(&m->type, key);
        return ovsdb_datum_from_json(&m->arg, &m->type, json, symtab);
    }

    /* "insert" and "delete" apply to sets and maps (including optional
     * values). */
    if (ovsdb_type_is_scalar(ctype)) {
        return type_mismatch(mutation_json, m);
    }
    ovsdb_type_clone(&m->type, ctype);
    m->type.n_min = 0;
    if (m->mutator == OVSDB_M_DELETE) {
        m->type.n_max = UINT_MAX;
    }
    error = ovsdb_datum_from_json(&m->arg, &m->type, json, symtab);
    if (error && m->mutator == OVSDB_M_DELETE && ovsdb_type_is_map(ctype)) {
        /* "delete" on a map may also name just the keys to remove. */
        struct ovsdb_type keys_type;
        ovsdb_type_init_scalar(&keys_type, OVSDB_TYPE_INTEGER);
        ovsdb_base_type_destroy(&keys_type.key);
        ovsdb_base_type_clone(&keys_type.key, &ctype->key);
        keys_type.n_min = 0;
        keys_type.n_max = UINT_MAX;

        /* If neither reading works, Open vSwitch reports why it is not
         * a set of keys. */
        ovsdb_error_destroy(error);
        error = ovsdb_datum_from_json(&m->arg, &keys_type, json, symtab);
        ovsdb_type_destroy(&m->type);
        m->type = keys_type;
    }
    return error;
}

static struct ovsdb_error *
mutation_from_json(const struct ovsdb_table_schema *ts, const json_t *json,
                   struct ovsdb_symbol_table *symtab,
                   struct ovsdb_mutation *m)
{
    if (!json_is_array(json) || json_array_size(json) != 3
        || !json_is_string(json_array_get(json, 0))
        || !json_is_string(json_array_get(json, 1))) {
        return ovsdb_syntax_error(json, NULL, "Parse error in mutation.");
    }

    const char *column_name = json_string_value(json_array_get(json, 0));
    m->column = ovsdb_table_schema_get_column(ts, column_name);
    if (!m->column) {
        return ovsdb_syntax_error(json, "unknown column",
                                  "No column %s in table %s.",
                                  column_name, ts->name);
    }
    if (!m->column->mutable || m->column->index < OVSDB_N_STD_COLUMNS) {
        return ovsdb_syntax_error(json, "constraint violation",
                                  "Cannot mutate immutable column %s in "
                                  "table %s.", column_name, ts->name);
    }

    const char *mutator_name = json_string_value(json_array_get(json, 1));
    if (!mutator_from_string(mutator_name, &m->mutator)) {
        return ovsdb_error("unknown mutator", "No mutator named %s.",
                           mutator_name);
    }

    struct ovsdb_error *error = parse_argument(m, json,
                                               json_array_get(json, 2),
                                               symtab);
    return error;
}

static void
mutation_destroy(struct ovsdb_mutation *m)
{
    ovsdb_datum_destroy(&m->arg, &m->type);
    ovsdb_type_destroy(&m->type);
}

struct ovsdb_error *
ovsdb_mutation_set_from_json(const struct ovsdb_table_schema *ts,
                             const json_t *json,
                             struct ovsdb_symbol_table *symtab,
                             struct ovsdb_mutation_set *set)
{
    set->mutations = NULL;
    set->n_mutations = 0;
    if (!json_is_array(json)) {
        return ovsdb_syntax_error(json, NULL, "array expected");
    }

    size_t n = json_array_size(json);
    set->mutations = n ? xzalloc(n * sizeof *set->mutations) : NULL;
    for (size_t i = 0; i < n; i++) {
        struct ovsdb_mutation *m = &set->mutations[i];

        /* Until parsing succeeds, M's argument is an empty datum of a
         * scalar type, which is always safe to destroy. */
        ovsdb_datum_init_empty(&m->arg);
        ovsdb_type_init_scalar(&m->type, OVSDB_TYPE_INTEGER);
        struct ovsdb_error *error = mutation_from_json(
            ts, json_array_get(json, i), symtab, m);
        if (error) {
            mutation_destroy(m);
            ovsdb_mutation_set_destroy(set);
            return error;
        }
        set->n_mutations++;
    }
    return NULL;
}

json_t *
ovsdb_mutation_set_to_json(const struct ovsdb_mutation_set *set)
{
    json_t *json = json_array();
    for (size_t i = 0; i < set->n_mutations; i++) {
        const struct ovsdb_mutation *m = &set->mutations[i];
        json_array_append_new(
            json, json_pack("[s, s, o]", m->column->name,
                            ovsdb_mutator_to_string(m->mutator),
                            ovsdb_datum_to_json(&m->arg, &m->type)));
    }
    return json;
}

void
ovsdb_mutation_set_destroy(struct ovsdb_mutation_set *set)
{
    for (size_t i = 0; i < set->n_mutations; i++) {
        mutation_destroy(&set->mutations[i]);
    }
    free(set->mutations);
    set->mutations = NULL;
    set->n_mutations = 0;
}

/* Execution. */

static struct ovsdb_error *
range_error(enum ovsdb_mutator mutator)
{
    return ovsdb_error("range error",
                       "Result of \"%s\" operation is out of range.",
                       ovsdb_mutator_to_string(mutator));
}

static struct ovsdb_error *
divide_by_zero(void)
{
    return ovsdb_error("domain error", "Division by zero.");
}

static struct ovsdb_error *
mutate_integer(int64_t *x, int64_t y, enum ovsdb_mutator mutator)
{
    int64_t result;

    switch (mutator) {
    case OVSDB_M_ADD:
        if (__builtin_add_overflow(*x, y, &result)) {
            return range_error(mutator);
        }
        break;
    case OVSDB_M_SUB:
        if (__builtin_sub_overflow(*x, y, &result)) {
            return range_error(mutator);
        }
        break;
    case OVSDB_M_MUL:
        if (__builtin_mul_overflow(*x, y, &result)) {
            return range_error(mutator);
        }
        break;
    case OVSDB_M_DIV:
    case OVSDB_M_MOD:
        if (!y) {
            return divide_by_zero();
        }
        if (*x == INT64_MIN && y == -1) {
            return range_error(mutator);
        }
        result = mutator == OVSDB_M_DIV ? *x / y : *x % y;
        break;
    case OVSDB_M_INSERT:
    case OVSDB_M_DELETE:
    default:
        return ovsdb_internal_error(NULL, "not an arithmetic mutator");
    }
    *x = result;
    return NULL;
}

static struct ovsdb_error *
mutate_real(double *x, double y, enum ovsdb_mutator mutator)
{
    double result;

    switch (mutator) {
    case OVSDB_M_ADD:
        result = *x + y;
        break;
    case OVSDB_M_SUB:
        result = *x - y;
        break;
    case OVSDB_M_MUL:
        result = *x * y;
        break;
    case OVSDB_M_DIV:
        if (y == 0) {
            return divide_by_zero();
        }
        result = *x / y;
        break;
    case OVSDB_M_MOD:
    case OVSDB_M_INSERT:
    case OVSDB_M_DELETE:
    default:
        return ovsdb_internal_error(NULL, "not a real arithmetic mutator");
    }
    if (!isfinite(result)) {
        return range_error(mutator);
    }
    *x = result;
    return NULL;
}

static struct ovsdb_error *
mutate_arithmetic(struct ovsdb_datum *datum, const struct ovsdb_mutation *m)
{
    const struct ovsdb_base_type *base = &m->column->type.key;
    const union ovsdb_atom *y = &m->arg.keys[0];

    for (unsigned int i = 0; i < datum->n; i++) {
        union ovsdb_atom *x = &datum->keys[i];
        struct ovsdb_error *error
            = (base->type == OVSDB_TYPE_INTEGER
               ? mutate_integer(&x->integer, y->integer, m->mutator)
               : mutate_real(&x->real, y->real, m->mutator));
        if (!error) {
            error = ovsdb_atom_check_constraints(x, base);
        }
        if (error) {
            return error;
        }
    }

    if (datum->n > 1) {
        struct ovsdb_error *error = ovsdb_datum_sort(datum, base->type);
        if (error) {
            ovsdb_error_destroy(error);
            return ovsdb_error("constraint violation",
                               "Result of \"%s\" operation contains "
                               "duplicates.",
                               ovsdb_mutator_to_string(m->mutator));
        }
    }
    return NULL;
}

static struct ovsdb_error *
check_size(const struct ovsdb_datum *datum, const struct ovsdb_type *type)
{
    if (datum->n < type->n_min || datum->n > type->n_max) {
        char *s = ovsdb_type_to_english(type);
        struct ovsdb_error *error = ovsdb_error(
            "constraint violation", "Attempted to store %u elements in %s.",
            datum->n, s);
        free(s);
        return error;
    }
    return NULL;
}

struct ovsdb_error *
ovsdb_mutation_set_execute(struct ovsdb_row *row,
                           const struct ovsdb_mutation_set *set)
{
    for (size_t i = 0; i < set->n_mutations; i++) {
        const struct ovsdb_mutation *m = &set->mutations[i];
        const struct ovsdb_type *type = &m->column->type;
        struct ovsdb_datum *datum = &row->fields[m->column->index];
        struct ovsdb_error *error;

        switch (m->mutator) {
        case OVSDB_M_ADD:
        case OVSDB_M_SUB:
        case OVSDB_M_MUL:
        case OVSDB_M_DIV:
        case OVSDB_M_MOD:
            error = mutate_arithmetic(datum, m);
            break;
        case OVSDB_M_INSERT:
            ovsdb_datum_union(datum, &m->arg, type);
            error = check_size(datum, type);
            break;
        case OVSDB_M_DELETE:
            ovsdb_datum_subtract(datum, type, &m->arg, &m->type);
            error = check_size(datum, type);
            break;
        default:
            error = ovsdb_internal_error(NULL, "unknown mutator");
            break;
        }
        if (error) {
            return error;
        }
    }
    return NULL;
}
