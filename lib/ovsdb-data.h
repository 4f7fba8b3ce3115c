/* ovsdb-data: OVSDB values.  An atom is one integer, real, boolean, string
 * or uuid; a datum is the whole value of one column of one row: a sorted
 * array of N keys and, for maps, N parallel values.
 *
 * Invariants (every function here keeps them, and callers that build a
 * datum by hand must restore them with ovsdb_datum_sort()):
 *
 *   - keys are sorted by ovsdb_atom_compare_3way() and unique, so that
 *     equality, lookup (binary search) and hashing are cheap and a map
 *     never holds a key twice;
 *   - a datum of a type that has no value type has values == NULL.
 *
 * Whether N fits the type's min/max and each atom meets its base type's
 * constraints is checked where values come in from outside (the JSON and
 * string parsers) and by ovsdb_datum_check_constraints(); the set
 * operations (union, subtract, diff) do not check, because intermediate
 * results may legitimately break them.
 *
 * JSON follows RFC 7047 section 5.1: an atom is a JSON number, boolean or
 * string, ["uuid", "..."] or ["named-uuid", "NAME"]; a set of exactly one
 * element may be written as the bare atom, otherwise ["set", [...]]; a map
 * is ["map", [[k, v], ...]].  The printer writes the short form for a
 * single-element set exactly as Open vSwitch does, so output compares
 * equal with theirs.
 *
 * Strings are the text formats of ovs-vsctl and ovsdb-client ("key=value"
 * maps, quoted strings when needed); see ovsdb_datum_from_string().
 *
 * Ownership: a datum owns its arrays and the strings in its atoms.
 * Functions taking a "type" argument need it only to know which atoms own
 * memory.  *_clone() deep-copies; *_destroy() frees the contents (not the
 * struct itself).
 */
#ifndef OVSDB_DATA_H
#define OVSDB_DATA_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hmap.h"
#include "ovsdb-types.h"
#include "shash.h"
#include "util.h"
#include "uuid.h"

struct ds;
struct smap;
struct ovsdb_symbol_table;

/* Atoms. */

union ovsdb_atom {
    int64_t integer;
    double real;
    bool boolean;
    char *string;               /* Owned, null-terminated UTF-8. */
    struct uuid uuid;
};

/* The default atom of each type: 0, 0.0, false, "", all-zeros uuid. */
void ovsdb_atom_init_default(union ovsdb_atom *, enum ovsdb_atomic_type);
bool ovsdb_atom_is_default(const union ovsdb_atom *, enum ovsdb_atomic_type);
void ovsdb_atom_clone(union ovsdb_atom *dst, const union ovsdb_atom *src,
                      enum ovsdb_atomic_type);
void ovsdb_atom_swap(union ovsdb_atom *, union ovsdb_atom *);
void ovsdb_atom_destroy(union ovsdb_atom *, enum ovsdb_atomic_type);

uint32_t ovsdb_atom_hash(const union ovsdb_atom *, enum ovsdb_atomic_type,
                         uint32_t basis);
/* Total order: integers and reals numerically, false < true, strings by
 * strcmp(), uuids as 128-bit numbers. */
int ovsdb_atom_compare_3way(const union ovsdb_atom *,
                            const union ovsdb_atom *,
                            enum ovsdb_atomic_type);
static inline bool
ovsdb_atom_equals(const union ovsdb_atom *a, const union ovsdb_atom *b,
                  enum ovsdb_atomic_type type)
{
    return !ovsdb_atom_compare_3way(a, b, type);
}

/* Parses JSON as an atom of BASE's type into *ATOM and checks BASE's
 * constraints.  ["named-uuid", NAME] is resolved through SYMTAB (which may
 * be NULL, and then such JSON is a syntax error); a name not yet in SYMTAB
 * is added with a fresh uuid.  Returns NULL or an error ("syntax error" or
 * "constraint violation"). */
struct ovsdb_error *ovsdb_atom_from_json(union ovsdb_atom *,
                                         const struct ovsdb_base_type *,
                                         const json_t *,
                                         struct ovsdb_symbol_table *)
    OVS_WARN_UNUSED_RESULT;
json_t *ovsdb_atom_to_json(const union ovsdb_atom *, enum ovsdb_atomic_type);

/* A real as JSON the way Open vSwitch writes it: a real with an integer
 * value below 1e15 in magnitude becomes a JSON integer ("2", not "2.0"),
 * because OVS prints reals with "%.15g".  (Readers of real columns accept
 * integers, RFC 7047 5.1.)  To match OVS on other reals too, serialize with
 * JSON_REAL_PRECISION(15). */
json_t *ovsdb_real_to_json(double);

/* Parses S, in the text syntax of ovs-vsctl (an integer, real, "true" or
 * "false", a string bare or in double quotes with C escapes, a uuid or, with
 * SYMTAB, "@name"), as an atom of BASE's type.  Returns NULL or an error
 * message (the caller frees it). */
char *ovsdb_atom_from_string(union ovsdb_atom *,
                             const struct ovsdb_base_type *, const char *s,
                             struct ovsdb_symbol_table *)
    OVS_WARN_UNUSED_RESULT;
/* Appends ATOM in that syntax to OUT: strings are quoted only when they
 * would otherwise not read back as the same string (empty, look like a
 * number, boolean or uuid, or contain special characters). */
void ovsdb_atom_to_string(const union ovsdb_atom *, enum ovsdb_atomic_type,
                          struct ds *out);
/* Appends ATOM without any quoting (ovs-vsctl --bare). */
void ovsdb_atom_to_bare(const union ovsdb_atom *, enum ovsdb_atomic_type,
                        struct ds *out);

/* Checks ATOM against BASE's enum and range constraints.  Returns NULL or a
 * "constraint violation" error that says what was expected. */
struct ovsdb_error *ovsdb_atom_check_constraints(
    const union ovsdb_atom *, const struct ovsdb_base_type *)
    OVS_WARN_UNUSED_RESULT;

/* Datums. */

struct ovsdb_datum {
    unsigned int n;             /* Number of keys (and values). */
    union ovsdb_atom *keys;     /* N keys, sorted, unique. */
    union ovsdb_atom *values;   /* N values for maps, else NULL. */
};

/* Empty datum: n = 0, no arrays. */
void ovsdb_datum_init_empty(struct ovsdb_datum *);
/* The default value of TYPE: empty if n_min == 0, else one default key (and
 * value). */
void ovsdb_datum_init_default(struct ovsdb_datum *, const struct ovsdb_type *);
bool ovsdb_datum_is_default(const struct ovsdb_datum *,
                            const struct ovsdb_type *);
/* A single-atom datum (n = 1, no value) holding a copy of ATOM. */
void ovsdb_datum_init_atom(struct ovsdb_datum *, const union ovsdb_atom *,
                           enum ovsdb_atomic_type);
void ovsdb_datum_clone(struct ovsdb_datum *dst, const struct ovsdb_datum *src,
                       const struct ovsdb_type *);
void ovsdb_datum_destroy(struct ovsdb_datum *, const struct ovsdb_type *);
void ovsdb_datum_swap(struct ovsdb_datum *, struct ovsdb_datum *);

/* Sorts DATUM's keys (carrying values along).  Returns an error if two keys
 * are equal (the datum is still sorted): as in Open vSwitch, its tag is
 * "ovsdb error" and its details "set contains duplicate" or "map contains
 * duplicate key". */
struct ovsdb_error *ovsdb_datum_sort(struct ovsdb_datum *,
                                     enum ovsdb_atomic_type key_type)
    OVS_WARN_UNUSED_RESULT;
void ovsdb_datum_sort_assert(struct ovsdb_datum *,
                             enum ovsdb_atomic_type key_type);
/* Sorts and drops duplicate keys (keeping the first of each), returning how
 * many remain. */
size_t ovsdb_datum_sort_unique(struct ovsdb_datum *,
                               enum ovsdb_atomic_type key_type,
                               enum ovsdb_atomic_type value_type);

/* Checks every atom against TYPE's base type constraints (not N). */
struct ovsdb_error *ovsdb_datum_check_constraints(
    const struct ovsdb_datum *, const struct ovsdb_type *)
    OVS_WARN_UNUSED_RESULT;

/* Parses JSON as a datum of TYPE, checking N against min/max, uniqueness of
 * keys and every atom's constraints.  See ovsdb_atom_from_json() for
 * SYMTAB.  On error *DATUM is left empty (nothing to free). */
struct ovsdb_error *ovsdb_datum_from_json(struct ovsdb_datum *,
                                          const struct ovsdb_type *,
                                          const json_t *,
                                          struct ovsdb_symbol_table *)
    OVS_WARN_UNUSED_RESULT;
json_t *ovsdb_datum_to_json(const struct ovsdb_datum *,
                            const struct ovsdb_type *);

/* Text forms, as ovs-vsctl and ovsdb-client print and read them: a scalar
 * (or a present optional value) as its atom; a set as "[a, b]"; a map as
 * "{k=v, k2=v2}"; an empty set, map or optional value as "[]" or "{}".
 * from_string() also accepts a set or map without the brackets, as
 * ovs-vsctl does, and in a set of integers a range "START-END" for every
 * integer from START to END (at most 4096 of them).  It checks N against
 * the type's min/max, duplicates and every atom's constraints, with
 * ovs-vsctl's messages.  Returns NULL or an error message the caller frees;
 * on error *DATUM is left empty. */
char *ovsdb_datum_from_string(struct ovsdb_datum *,
                              const struct ovsdb_type *, const char *s,
                              struct ovsdb_symbol_table *)
    OVS_WARN_UNUSED_RESULT;
void ovsdb_datum_to_string(const struct ovsdb_datum *,
                           const struct ovsdb_type *, struct ds *out);
/* Space-separated atoms, maps as k=v, no quoting (ovs-vsctl --bare). */
void ovsdb_datum_to_bare(const struct ovsdb_datum *,
                         const struct ovsdb_type *, struct ds *out);

/* A string-to-string map datum from SMAP (sorted). */
void ovsdb_datum_from_smap(struct ovsdb_datum *, const struct smap *);

uint32_t ovsdb_datum_hash(const struct ovsdb_datum *,
                          const struct ovsdb_type *, uint32_t basis);
int ovsdb_datum_compare_3way(const struct ovsdb_datum *,
                             const struct ovsdb_datum *,
                             const struct ovsdb_type *);
bool ovsdb_datum_equals(const struct ovsdb_datum *,
                        const struct ovsdb_datum *,
                        const struct ovsdb_type *);

/* Index of KEY in DATUM (binary search), or UINT_MAX. */
unsigned int ovsdb_datum_find_key(const struct ovsdb_datum *,
                                  const union ovsdb_atom *key,
                                  enum ovsdb_atomic_type key_type);
/* Index of the pair KEY=VALUE (VALUE ignored when VALUE_TYPE is VOID), or
 * UINT_MAX. */
unsigned int ovsdb_datum_find_key_value(const struct ovsdb_datum *,
                                        const union ovsdb_atom *key,
                                        enum ovsdb_atomic_type key_type,
                                        const union ovsdb_atom *value,
                                        enum ovsdb_atomic_type value_type);

/* True if every element of A is in B (for maps, every pair); false if any
 * is.  For the "includes"/"excludes" functions of RFC 7047 conditions. */
bool ovsdb_datum_includes_all(const struct ovsdb_datum *a,
                              const struct ovsdb_datum *b,
                              const struct ovsdb_type *);
bool ovsdb_datum_excludes_all(const struct ovsdb_datum *a,
                              const struct ovsdb_datum *b,
                              const struct ovsdb_type *);

/* A := A ∪ B.  For maps, a key of B already in A keeps A's value (the
 * "insert" mutator of RFC 7047). */
void ovsdb_datum_union(struct ovsdb_datum *a, const struct ovsdb_datum *b,
                       const struct ovsdb_type *);
/* A := A − B.  If B's type has no value type (B is a set of keys), removes
 * every pair of A whose key is in B; otherwise removes only pairs whose key
 * and value both match (the "delete" mutator). */
void ovsdb_datum_subtract(struct ovsdb_datum *a,
                          const struct ovsdb_type *a_type,
                          const struct ovsdb_datum *b,
                          const struct ovsdb_type *b_type);

/* Adds one element (the caller keeps the datum sorted and unique, e.g. by
 * calling ovsdb_datum_sort() once after many adds); takes ownership of the
 * atoms' contents. */
void ovsdb_datum_add_unsafe(struct ovsdb_datum *, const union ovsdb_atom *key,
                            const union ovsdb_atom *value,
                            const struct ovsdb_type *);
/* Removes element IDX, freeing its atoms; moves the last element into its
 * place, so the caller must re-sort. */
void ovsdb_datum_remove_unsafe(struct ovsdb_datum *, size_t idx,
                               const struct ovsdb_type *);

/* Differences between column values, as the update2 notifications of
 * monitor_cond and the "_is_diff" records of database files carry them.
 *
 * For a set: DIFF holds the elements in exactly one of OLD and NEW.  For a
 * map: the pairs of OLD whose key is not in NEW, the pairs of NEW whose key
 * is not in OLD, and for each key in both with different values the pair
 * from NEW.  ovsdb_datum_apply_diff() inverts that: NEW = OLD with each
 * element of DIFF toggled (for maps, a pair whose key is in OLD with the
 * same value is removed; with a different value it replaces the value; a
 * new key is added).  A diff may exceed TYPE's n_max, so it is parsed and
 * printed with n_min 0 and n_max unlimited.
 *
 * apply_diff() checks the result against TYPE's n_min/n_max and
 * constraints and returns an error if it does not fit. */
void ovsdb_datum_diff(struct ovsdb_datum *diff,
                      const struct ovsdb_datum *old,
                      const struct ovsdb_datum *new,
                      const struct ovsdb_type *);
struct ovsdb_error *ovsdb_datum_apply_diff(struct ovsdb_datum *new,
                                           const struct ovsdb_datum *old,
                                           const struct ovsdb_datum *diff,
                                           const struct ovsdb_type *)
    OVS_WARN_UNUSED_RESULT;

/* Symbol tables: the "uuid-name"s of one transaction (and "@name" in
 * ovs-vsctl).  Each symbol maps a name to the uuid its row gets. */

struct ovsdb_symbol {
    struct uuid uuid;           /* The row's uuid. */
    bool created;               /* Some operation inserted the row. */
    bool strong_ref;            /* Referenced by a strong reference. */
    bool weak_ref;              /* Referenced by a weak reference. */
};

struct ovsdb_symbol_table {
    struct shash sh;            /* Name -> struct ovsdb_symbol *. */
};

struct ovsdb_symbol_table *ovsdb_symbol_table_create(void);
void ovsdb_symbol_table_destroy(struct ovsdb_symbol_table *);
struct ovsdb_symbol *ovsdb_symbol_table_get(
    const struct ovsdb_symbol_table *, const char *name);
/* Adds NAME with UUID (not created); NAME must not be in the table. */
struct ovsdb_symbol *ovsdb_symbol_table_put(struct ovsdb_symbol_table *,
                                            const char *name,
                                            const struct uuid *,
                                            bool created);
/* Returns NAME's symbol, adding it with a fresh random uuid if missing. */
struct ovsdb_symbol *ovsdb_symbol_table_insert(struct ovsdb_symbol_table *,
                                               const char *name);
/* Returns the name of a symbol that is referenced but was never created,
 * or NULL. */
const char *ovsdb_symbol_table_find_uncreated(
    const struct ovsdb_symbol_table *);

#endif /* ovsdb-data.h */
