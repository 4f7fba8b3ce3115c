/* ovsdb-mutation: the "mutate" operation's mutations (RFC 7047 section
 * 5.1): [column, mutator, value] with mutator "+=", "-=", "*=", "/=", "%="
 * (integers and reals, scalars or sets of them, applied element-wise;
 * "%=" integers only) or "insert"/"delete" (sets and maps).
 *
 * Errors follow the RFC and Open vSwitch's wording: "domain error" for
 * division by zero, "range error" for integer overflow and for results
 * outside a column's constraints or n_min..n_max, "constraint violation"
 * for a mutation of an immutable or "_uuid"/"_version" column, "syntax
 * error" for a bad mutator or value.
 *
 * Ownership: a mutation set owns its mutations and their values.
 */
#ifndef OVSDB_MUTATION_H
#define OVSDB_MUTATION_H 1

#include <jansson.h>
#include <stddef.h>
#include "ovsdb-data.h"
#include "util.h"

struct ovsdb_column;
struct ovsdb_row;
struct ovsdb_table_schema;
struct ovsdb_symbol_table;

enum ovsdb_mutator {
    OVSDB_M_ADD,
    OVSDB_M_SUB,
    OVSDB_M_MUL,
    OVSDB_M_DIV,
    OVSDB_M_MOD,
    OVSDB_M_INSERT,
    OVSDB_M_DELETE
};

struct ovsdb_mutation {
    enum ovsdb_mutator mutator;
    const struct ovsdb_column *column;
    struct ovsdb_datum arg;
    struct ovsdb_type type;     /* Type of ARG. */
};

struct ovsdb_mutation_set {
    struct ovsdb_mutation *mutations;
    size_t n_mutations;
};

struct ovsdb_error *ovsdb_mutation_set_from_json(
    const struct ovsdb_table_schema *, const json_t *,
    struct ovsdb_symbol_table *, struct ovsdb_mutation_set *)
    OVS_WARN_UNUSED_RESULT;
json_t *ovsdb_mutation_set_to_json(const struct ovsdb_mutation_set *);
void ovsdb_mutation_set_destroy(struct ovsdb_mutation_set *);

/* Applies every mutation to ROW, in order.  On error ROW may be partly
 * mutated (the caller aborts the transaction). */
struct ovsdb_error *ovsdb_mutation_set_execute(
    struct ovsdb_row *, const struct ovsdb_mutation_set *)
    OVS_WARN_UNUSED_RESULT;

const char *ovsdb_mutator_to_string(enum ovsdb_mutator);

#endif /* ovsdb/mutation.h */
