#include <config.h>
#include "condition.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "ovsdb-types.h"
#include "row.h"

static const char *const function_names[] = {
    [OVSDB_F_FALSE] = "false",
    [OVSDB_F_TRUE] = "true",
    [OVSDB_F_EQ] = "==",
    [OVSDB_F_INCLUDES] = "includes",
    [OVSDB_F_LE] = "<=",
    [OVSDB_F_LT] = "<",
    [OVSDB_F_GE] = ">=",
    [OVSDB_F_GT] = ">",
    [OVSDB_F_EXCLUDES] = "excludes",
    [OVSDB_F_NE] = "!=",
};

const char *
ovsdb_function_to_string(enum ovsdb_function function)
{
    return (function < ARRAY_SIZE(function_names) && function_names[function]
            ? function_names[function] : "<unknown>");
}

bool
ovsdb_function_from_string(const char *name, enum ovsdb_function *function)
{
    /* "true" and "false" are JSON booleans in a condition, not names. */
    for (size_t i = OVSDB_F_EQ; i < ARRAY_SIZE(function_names); i++) {
        if (!strcmp(name, function_names[i])) {
            *function = i;
            return true;
        }
    }
    return false;
}

void
ovsdb_condition_init(struct ovsdb_condition *cnd)
{
    cnd->clauses = NULL;
    cnd->n_clauses = 0;
}

static void
clause_destroy(struct ovsdb_clause *clause)
{
    if (clause->column) {
        ovsdb_datum_destroy(&clause->arg, &clause->column->type);
    }
}

void
ovsdb_condition_destroy(struct ovsdb_condition *cnd)
{
    for (size_t i = 0; i < cnd->n_clauses; i++) {
        clause_destroy(&cnd->clauses[i]);
    }
    free(cnd->clauses);
    ovsdb_condition_init(cnd);
}

bool
ovsdb_condition_is_empty(const struct ovsdb_condition *cnd)
{
    return !cnd->n_clauses;
}

void
ovsdb_condition_clone(struct ovsdb_condition *dst,
                      const struct ovsdb_condition *src)
{
    dst->n_clauses = src->n_clauses;
    dst->clauses = (src->n_clauses
                    ? xmalloc(src->n_clauses * sizeof *dst->clauses)
                    : NULL);
    for (size_t i = 0; i < src->n_clauses; i++) {
        const struct ovsdb_clause *s = &src->clauses[i];
        struct ovsdb_clause *d = &dst->clauses[i];

        d->function = s->function;
        d->column = s->column;
        if (s->column) {
            ovsdb_datum_clone(&d->arg, &s->arg, &s->column->type);
        } else {
            ovsdb_datum_init_empty(&d->arg);
        }
    }
}

/* The type a clause's value is parsed with.  Open vSwitch checks a value
 * against the column's own type, except that "includes" and "excludes" on
 * a set or map may name fewer elements (and "excludes" more) than the
 * column holds, and that the ordering functions take exactly one number
 * even for an optional column. */
static struct ovsdb_error *
clause_type(const json_t *json, const struct ovsdb_column *column,
            enum ovsdb_function function, struct ovsdb_type *type)
{
    *type = column->type;
    switch (function) {
    case OVSDB_F_LT:
    case OVSDB_F_LE:
    case OVSDB_F_GT:
    case OVSDB_F_GE:
        if (!(ovsdb_type_is_scalar(type)
              || ovsdb_type_is_optional_scalar(type))
            || (type->key.type != OVSDB_TYPE_INTEGER
                && type->key.type != OVSDB_TYPE_REAL)) {
            char *s = ovsdb_type_to_english(type);
            struct ovsdb_error *error = ovsdb_syntax_error(
                json, NULL, "Type mismatch: \"%s\" operator may not be "
                "applied to column %s of type %s.",
                ovsdb_function_to_string(function), column->name, s);
            free(s);
            return error;
        }
        /* An optional column may be compared, but only with a value. */
        type->n_min = 1;
        break;

    case OVSDB_F_EQ:
    case OVSDB_F_NE:
        break;

    case OVSDB_F_EXCLUDES:
        if (!ovsdb_type_is_scalar(type)) {
            type->n_min = 0;
            type->n_max = UINT_MAX;
        }
        break;

    case OVSDB_F_INCLUDES:
        if (!ovsdb_type_is_scalar(type)) {
            type->n_min = 0;
        }
        break;

    case OVSDB_F_TRUE:
    case OVSDB_F_FALSE:
    default:
        break;
    }
    return NULL;
}

static struct ovsdb_error *
clause_from_json(const struct ovsdb_table_schema *ts, const json_t *json,
                 struct ovsdb_symbol_table *symtab,
                 struct ovsdb_clause *clause)
{
    ovsdb_datum_init_empty(&clause->arg);
    clause->column = NULL;

    if (json_is_boolean(json)) {
        clause->function = json_is_true(json) ? OVSDB_F_TRUE : OVSDB_F_FALSE;
        return NULL;
    }

    if (!json_is_array(json) || json_array_size(json) != 3
        || !json_is_string(json_array_get(json, 0))
        || !json_is_string(json_array_get(json, 1))) {
        return ovsdb_syntax_error(json, NULL, "Parse error in condition.");
    }

    const char *column_name = json_string_value(json_array_get(json, 0));
    const struct ovsdb_column *column
        = ovsdb_table_schema_get_column(ts, column_name);
    if (!column) {
        return ovsdb_syntax_error(json, "unknown column",
                                  "No column %s in table %s.",
                                  column_name, ts->name);
    }

    const char *function_name = json_string_value(json_array_get(json, 1));
    if (!ovsdb_function_from_string(function_name, &clause->function)) {
        return ovsdb_error("unknown function", "No function named %s.",
                           function_name);
    }

    struct ovsdb_type type;
    struct ovsdb_error *error = clause_type(json, column, clause->function,
                                            &type);
    if (!error) {
        error = ovsdb_datum_from_json(&clause->arg, &type,
                                      json_array_get(json, 2), symtab);
    }
    if (!error) {
        clause->column = column;
    }
    return error;
}

/* Orders clauses by column (true and false first), then function, then
 * value, so that equal conditions have equal clause arrays. */
static int
compare_clauses_3way(const void *a_, const void *b_)
{
    const struct ovsdb_clause *a = a_;
    const struct ovsdb_clause *b = b_;
    int a_index = a->column ? (int) a->column->index : -1;
    int b_index = b->column ? (int) b->column->index : -1;

    if (a_index != b_index) {
        return a_index < b_index ? -1 : 1;
    } else if (a->function != b->function) {
        return a->function < b->function ? -1 : 1;
    } else if (!a->column) {
        return 0;
    }
    return ovsdb_datum_compare_3way(&a->arg, &b->arg, &a->column->type);
}

struct ovsdb_error *
ovsdb_condition_from_json(const struct ovsdb_table_schema *ts,
                          const json_t *json,
                          struct ovsdb_symbol_table *symtab,
                          struct ovsdb_condition *cnd)
{
    ovsdb_condition_init(cnd);
    if (!json_is_array(json)) {
        return ovsdb_syntax_error(json, NULL, "array expected");
    }

    size_t n = json_array_size(json);
    cnd->clauses = n ? xmalloc(n * sizeof *cnd->clauses) : NULL;
    for (size_t i = 0; i < n; i++) {
        struct ovsdb_error *error = clause_from_json(
            ts, json_array_get(json, i), symtab, &cnd->clauses[i]);
        if (error) {
            ovsdb_condition_destroy(cnd);
            return error;
        }
        cnd->n_clauses++;
    }

    if (cnd->n_clauses > 1) {
        qsort(cnd->clauses, cnd->n_clauses, sizeof *cnd->clauses,
              compare_clauses_3way);
    }
    return NULL;
}

json_t *
ovsdb_condition_to_json(const struct ovsdb_condition *cnd)
{
    json_t *json = json_array();
    for (size_t i = 0; i < cnd->n_clauses; i++) {
        const struct ovsdb_clause *clause = &cnd->clauses[i];
        if (!clause->column) {
            json_array_append_new(json, json_boolean(clause->function
                                                     == OVSDB_F_TRUE));
        } else {
            json_array_append_new(
                json, json_pack("[s, s, o]", clause->column->name,
                                ovsdb_function_to_string(clause->function),
                                ovsdb_datum_to_json(&clause->arg,
                                                    &clause->column->type)));
        }
    }
    return json;
}

static bool
clause_evaluate(const struct ovsdb_row *row, const struct ovsdb_clause *c)
{
    if (c->function == OVSDB_F_TRUE || c->function == OVSDB_F_FALSE) {
        return c->function == OVSDB_F_TRUE;
    }

    const struct ovsdb_datum *field = &row->fields[c->column->index];
    const struct ovsdb_datum *arg = &c->arg;
    const struct ovsdb_type *type = &c->column->type;

    if (ovsdb_type_is_scalar(type) || ovsdb_type_is_optional_scalar(type)) {
        if (field->n == 1 && arg->n == 1) {
            int cmp = ovsdb_atom_compare_3way(&field->keys[0], &arg->keys[0],
                                              type->key.type);
            switch (c->function) {
            case OVSDB_F_LT:
                return cmp < 0;
            case OVSDB_F_LE:
                return cmp <= 0;
            case OVSDB_F_EQ:
            case OVSDB_F_INCLUDES:
                return cmp == 0;
            case OVSDB_F_NE:
            case OVSDB_F_EXCLUDES:
                return cmp != 0;
            case OVSDB_F_GE:
                return cmp >= 0;
            case OVSDB_F_GT:
                return cmp > 0;
            case OVSDB_F_TRUE:
            case OVSDB_F_FALSE:
            default:
                break;
            }
            return false;
        }
        /* An empty optional value is neither less nor greater than
         * anything. */
        if (c->function == OVSDB_F_LT || c->function == OVSDB_F_LE
            || c->function == OVSDB_F_GT || c->function == OVSDB_F_GE) {
            return false;
        }
    }

    switch (c->function) {
    case OVSDB_F_EQ:
        return ovsdb_datum_equals(field, arg, type);
    case OVSDB_F_NE:
        return !ovsdb_datum_equals(field, arg, type);
    case OVSDB_F_INCLUDES:
        return ovsdb_datum_includes_all(arg, field, type);
    case OVSDB_F_EXCLUDES:
        return ovsdb_datum_excludes_all(arg, field, type);
    case OVSDB_F_LT:
    case OVSDB_F_LE:
    case OVSDB_F_GT:
    case OVSDB_F_GE:
    case OVSDB_F_TRUE:
    case OVSDB_F_FALSE:
    default:
        return false;
    }
}

bool
ovsdb_condition_match_all(const struct ovsdb_row *row,
                          const struct ovsdb_condition *cnd)
{
    for (size_t i = 0; i < cnd->n_clauses; i++) {
        if (!clause_evaluate(row, &cnd->clauses[i])) {
            return false;
        }
    }
    return true;
}

bool
ovsdb_condition_match_any(const struct ovsdb_row *row,
                          const struct ovsdb_condition *cnd)
{
    for (size_t i = 0; i < cnd->n_clauses; i++) {
        if (clause_evaluate(row, &cnd->clauses[i])) {
            return true;
        }
    }
    return false;
}

bool
ovsdb_condition_is_true(const struct ovsdb_condition *cnd)
{
    for (size_t i = 0; i < cnd->n_clauses; i++) {
        if (cnd->clauses[i].function == OVSDB_F_TRUE) {
            return true;
        }
    }
    return false;
}

int
ovsdb_condition_cmp_3way(const struct ovsdb_condition *a,
                         const struct ovsdb_condition *b)
{
    if (a->n_clauses != b->n_clauses) {
        return a->n_clauses < b->n_clauses ? -1 : 1;
    }
    for (size_t i = 0; i < a->n_clauses; i++) {
        int cmp = compare_clauses_3way(&a->clauses[i], &b->clauses[i]);
        if (cmp) {
            return cmp;
        }
    }
    return 0;
}

bool
ovsdb_condition_get_uuid(const struct ovsdb_condition *cnd,
                         struct uuid *uuid)
{
    for (size_t i = 0; i < cnd->n_clauses; i++) {
        const struct ovsdb_clause *c = &cnd->clauses[i];
        if (c->column && c->column->index == OVSDB_COL_UUID
            && (c->function == OVSDB_F_EQ || c->function == OVSDB_F_INCLUDES)
            && c->arg.n == 1) {
            *uuid = c->arg.keys[0].uuid;
            return true;
        }
    }
    return false;
}
