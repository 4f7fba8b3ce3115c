/* ovsdb-condition: the "where" conditions of RFC 7047 (section 5.1) and the
 * monitor conditions of monitor_cond.
 *
 * A condition is a list of clauses [column, function, value] with function
 * one of "<", "<=", "==", "!=", ">=", ">", "includes", "excludes", plus the
 * boolean clauses true and false.  "<" and friends apply only to integer
 * and real scalars (optional ones too: an empty value is never less or
 * greater); "==" and "!=" to any column; "includes"/"excludes" to any
 * column and, for sets and maps, mean "every element of VALUE is / none is
 * in the column" (for scalars they equal "=="/"!=").  As in Open vSwitch,
 * the value must fit the column's type (constraints included), except that
 * for "includes" on a set or map it may be smaller and for "excludes" of
 * any size, and that "<" and friends need exactly one number.
 *
 * A transaction's "where" is the conjunction of its clauses (empty = true):
 * ovsdb_condition_match_all().  A monitor_cond condition is the disjunction
 * (empty = false, [true] = every row): ovsdb_condition_match_any().
 *
 * Clauses are kept sorted by column so that evaluation is cheap and two
 * equal conditions compare equal (monitor_cond_change uses that to share
 * work between sessions with the same condition).
 *
 * Ownership: a condition owns its clauses and their values; *_from_json()
 * fills a caller-provided struct which ovsdb_condition_destroy() empties.
 */
#ifndef OVSDB_CONDITION_H
#define OVSDB_CONDITION_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "ovsdb-data.h"
#include "util.h"

struct ovsdb_column;
struct ovsdb_row;
struct ovsdb_table_schema;
struct ovsdb_symbol_table;

enum ovsdb_function {
    OVSDB_F_FALSE,
    OVSDB_F_TRUE,
    OVSDB_F_EQ,
    OVSDB_F_INCLUDES,
    OVSDB_F_LE,
    OVSDB_F_LT,
    OVSDB_F_GE,
    OVSDB_F_GT,
    OVSDB_F_EXCLUDES,
    OVSDB_F_NE
};

struct ovsdb_clause {
    enum ovsdb_function function;
    const struct ovsdb_column *column;  /* NULL for true/false. */
    struct ovsdb_datum arg;
};

struct ovsdb_condition {
    struct ovsdb_clause *clauses;
    size_t n_clauses;
};

#define OVSDB_CONDITION_INITIALIZER { NULL, 0 }

void ovsdb_condition_init(struct ovsdb_condition *);
void ovsdb_condition_destroy(struct ovsdb_condition *);
bool ovsdb_condition_is_empty(const struct ovsdb_condition *);
void ovsdb_condition_clone(struct ovsdb_condition *dst,
                           const struct ovsdb_condition *src);

/* Parses a JSON array of clauses for table TS.  Errors ("syntax error",
 * "unknown column", "unknown function", worded as Open vSwitch words them)
 * leave COND empty. */
struct ovsdb_error *ovsdb_condition_from_json(
    const struct ovsdb_table_schema *ts, const json_t *,
    struct ovsdb_symbol_table *, struct ovsdb_condition *)
    OVS_WARN_UNUSED_RESULT;
json_t *ovsdb_condition_to_json(const struct ovsdb_condition *);

const char *ovsdb_function_to_string(enum ovsdb_function);
bool ovsdb_function_from_string(const char *, enum ovsdb_function *);

/* Conjunction: true if ROW satisfies every clause (true if none). */
bool ovsdb_condition_match_all(const struct ovsdb_row *,
                               const struct ovsdb_condition *);
/* Disjunction: true if ROW satisfies some clause (false if none). */
bool ovsdb_condition_match_any(const struct ovsdb_row *,
                               const struct ovsdb_condition *);

/* True if COND contains a true clause, so that its disjunction matches
 * every row and a monitor need not evaluate it. */
bool ovsdb_condition_is_true(const struct ovsdb_condition *);

int ovsdb_condition_cmp_3way(const struct ovsdb_condition *,
                             const struct ovsdb_condition *);

/* If COND (a conjunction) pins "_uuid" with "==" (or "includes"), stores
 * that uuid in *UUID and returns true, so a query can look the row up
 * directly. */
bool ovsdb_condition_get_uuid(const struct ovsdb_condition *,
                              struct uuid *);

#endif /* ovsdb/condition.h */
