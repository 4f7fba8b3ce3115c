/* vsctl-db: ovs-vsctl's generic database commands and the lookups every
 * command shares (see vsctl.h).
 *
 * Tables and columns given on the command line may be abbreviated and are
 * matched without regard to case, as in Open vSwitch.  Rows are named by
 * uuid (or a prefix of at least 4 hex digits), or by the per-table rules of
 * row_ids[] below (a Bridge by its name, a Controller by the name of the
 * Bridge that uses it ...).
 *
 * Writes: "set" replaces a column (or one key of a map), "add" and
 * "remove" send partial updates, so that changing one element of a large
 * set costs one element on the wire. */

#include <config.h>

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ovsdb-schema.h"
#include "smap.h"
#include "sset.h"
#include "table.h"
#include "vlog.h"
#include "vsctl.h"
#include "vswitchd/vswitch-idl.h"

VLOG_DEFINE_THIS_MODULE(db_ctl_base);

/* Exact schema lookups. */

const struct ovsdb_idl_table_class *
vsctl_table(const char *name)
{
    for (size_t i = 0; i < ovsrec_idl_class.n_tables; i++) {
        const struct ovsdb_idl_table_class *tc = &ovsrec_idl_class.tables[i];
        if (!strcmp(tc->name, name)) {
            return tc;
        }
    }
    OVS_NOT_REACHED();
}

const struct ovsdb_idl_column *
vsctl_column(const struct ovsdb_idl_table_class *tc, const char *name)
{
    for (size_t i = 0; i < tc->n_columns; i++) {
        if (!strcmp(tc->columns[i].name, name)) {
            return &tc->columns[i];
        }
    }
    OVS_NOT_REACHED();
}

const struct ovsdb_idl_row *
vsctl_first(const struct ovsdb_idl *idl, const char *table)
{
    return ovsdb_idl_first_row(idl, vsctl_table(table));
}

const struct ovsdb_idl_row *
vsctl_next(const struct ovsdb_idl_row *row)
{
    return ovsdb_idl_next_row(row);
}

/* Reading. */

static const struct ovsdb_idl_column *
row_column(const struct ovsdb_idl_row *row, const char *column)
{
    return vsctl_column(ovsdb_idl_row_get_class(row), column);
}

const struct ovsdb_datum *
vsctl_read(const struct ovsdb_idl_row *row, const char *column)
{
    return ovsdb_idl_read(row, row_column(row, column));
}

const char *
vsctl_read_string(const struct ovsdb_idl_row *row, const char *column)
{
    const struct ovsdb_datum *d = vsctl_read(row, column);
    return d->n ? d->keys[0].string : "";
}

bool
vsctl_read_integer(const struct ovsdb_idl_row *row, const char *column,
                   int64_t *value)
{
    const struct ovsdb_datum *d = vsctl_read(row, column);
    if (d->n) {
        *value = d->keys[0].integer;
        return true;
    }
    return false;
}

bool
vsctl_read_bool(const struct ovsdb_idl_row *row, const char *column)
{
    const struct ovsdb_datum *d = vsctl_read(row, column);
    return d->n && d->keys[0].boolean;
}

const char *
vsctl_read_map_value(const struct ovsdb_idl_row *row, const char *column,
                     const char *key)
{
    const struct ovsdb_datum *d = vsctl_read(row, column);
    union ovsdb_atom atom;

    atom.string = CONST_CAST(char *, key);
    unsigned int idx = ovsdb_datum_find_key(d, &atom, OVSDB_TYPE_STRING);
    return idx == UINT_MAX ? NULL : d->values[idx].string;
}

const struct ovsdb_idl_row *
vsctl_read_ref(const struct ovsdb_idl_row *row, const char *column,
               size_t idx)
{
    const struct ovsdb_idl_column *col = row_column(row, column);
    const struct ovsdb_datum *d = ovsdb_idl_read(row, col);
    const struct ovsdb_base_type *base = &col->type.key;

    if (idx >= d->n || !base->u.uuid.refTableName) {
        return NULL;
    }
    return ovsdb_idl_get_row_for_uuid(
        ovsdb_idl_txn_get_idl(CONST_CAST(struct ovsdb_idl_txn *,
                                         ovsdb_idl_txn_get(row))),
        vsctl_table(base->u.uuid.refTableName), &d->keys[idx].uuid);
}

/* Writing. */

void
vsctl_write_string(const struct ovsdb_idl_row *row, const char *column,
                   const char *value)
{
    union ovsdb_atom atom;
    struct ovsdb_datum d;

    atom.string = CONST_CAST(char *, value);
    ovsdb_datum_init_atom(&d, &atom, OVSDB_TYPE_STRING);
    ovsdb_idl_txn_write(row, row_column(row, column), &d);
}

void
vsctl_write_opt_string(const struct ovsdb_idl_row *row, const char *column,
                       const char *value)
{
    if (value) {
        vsctl_write_string(row, column, value);
    } else {
        vsctl_clear_column(row, column);
    }
}

void
vsctl_write_integer(const struct ovsdb_idl_row *row, const char *column,
                    int64_t value)
{
    union ovsdb_atom atom;
    struct ovsdb_datum d;

    atom.integer = value;
    ovsdb_datum_init_atom(&d, &atom, OVSDB_TYPE_INTEGER);
    ovsdb_idl_txn_write(row, row_column(row, column), &d);
}

void
vsctl_write_bool(const struct ovsdb_idl_row *row, const char *column,
                 bool value)
{
    union ovsdb_atom atom;
    struct ovsdb_datum d;

    atom.boolean = value;
    ovsdb_datum_init_atom(&d, &atom, OVSDB_TYPE_BOOLEAN);
    ovsdb_idl_txn_write(row, row_column(row, column), &d);
}

void
vsctl_write_refs(const struct ovsdb_idl_row *row, const char *column,
                 const struct ovsdb_idl_row **rows, size_t n)
{
    struct ovsdb_datum d;

    d.n = n;
    d.keys = n ? xmalloc(n * sizeof *d.keys) : NULL;
    d.values = NULL;
    for (size_t i = 0; i < n; i++) {
        d.keys[i].uuid = *ovsdb_idl_row_get_uuid(rows[i]);
    }
    ovsdb_datum_sort_unique(&d, OVSDB_TYPE_UUID, OVSDB_TYPE_VOID);
    ovsdb_idl_txn_write(row, row_column(row, column), &d);
}

void
vsctl_clear_column(const struct ovsdb_idl_row *row, const char *column)
{
    struct ovsdb_datum d;

    ovsdb_datum_init_empty(&d);
    ovsdb_idl_txn_write(row, row_column(row, column), &d);
}

static void
uuid_datum(struct ovsdb_datum *d, const struct ovsdb_idl_row *ref)
{
    union ovsdb_atom atom;

    atom.uuid = *ovsdb_idl_row_get_uuid(ref);
    ovsdb_datum_init_atom(d, &atom, OVSDB_TYPE_UUID);
}

void
vsctl_add_ref(const struct ovsdb_idl_row *row, const char *column,
              const struct ovsdb_idl_row *ref)
{
    struct ovsdb_datum d;

    uuid_datum(&d, ref);
    ovsdb_idl_txn_write_partial_add(row, row_column(row, column), &d);
}

void
vsctl_remove_ref(const struct ovsdb_idl_row *row, const char *column,
                 const struct ovsdb_idl_row *ref)
{
    struct ovsdb_datum d;

    uuid_datum(&d, ref);
    ovsdb_idl_txn_write_partial_remove(row, row_column(row, column), &d);
}

void
vsctl_set_map_key(const struct ovsdb_idl_row *row, const char *column,
                  const char *key, const char *value)
{
    const struct ovsdb_idl_column *col = row_column(row, column);
    struct ovsdb_datum d;

    /* A whole-map write: maps such as external_ids are small, and a
     * remove plus an add of the same key in one transaction would depend
     * on the order of mutations. */
    ovsdb_datum_clone(&d, ovsdb_idl_read(row, col), &col->type);
    union ovsdb_atom k = { .string = CONST_CAST(char *, key) };
    unsigned int idx = ovsdb_datum_find_key(&d, &k, OVSDB_TYPE_STRING);
    if (idx != UINT_MAX) {
        ovsdb_datum_remove_unsafe(&d, idx, &col->type);
    }
    if (value) {
        union ovsdb_atom k2, v2;
        k2.string = xstrdup(key);
        v2.string = xstrdup(value);
        ovsdb_datum_add_unsafe(&d, &k2, &v2, &col->type);
    }
    ovsdb_datum_sort_assert(&d, OVSDB_TYPE_STRING);
    ovsdb_idl_txn_write(row, col, &d);
}

/* Tables and columns as the user names them. */

/* How well NAME, as a user typed it, names the schema name SCHEMA_NAME:
 * UINT_MAX for an exact match, UINT_MAX - 1 for a match that ignores case
 * and treats '-' as '_', the length of NAME if it is an abbreviation in
 * that sense, otherwise 0. */
static int
fold_name_char(char c)
{
    return c == '-' ? '_' : tolower((unsigned char) c);
}

static unsigned int
name_match_score(const char *schema_name, const char *name)
{
    if (!strcmp(schema_name, name)) {
        return UINT_MAX;
    }
    for (size_t i = 0; ; i++) {
        int a = fold_name_char(schema_name[i]);
        int b = fold_name_char(name[i]);
        if (!b) {
            return !a ? UINT_MAX - 1 : i;
        } else if (a != b) {
            return 0;
        }
    }
}

/* Keeps the best matches seen so far of a name the user typed. */
struct name_matches {
    unsigned int best_score;
    size_t best_idx;
    struct sset ties;           /* Every name with best_score. */
};

static void
name_matches_init(struct name_matches *m)
{
    m->best_score = 0;
    m->best_idx = 0;
    sset_init(&m->ties);
}

static void
name_matches_consider(struct name_matches *m, const char *schema_name,
                      const char *typed, size_t idx)
{
    unsigned int score = name_match_score(schema_name, typed);
    if (score && score > m->best_score) {
        m->best_score = score;
        m->best_idx = idx;
        sset_clear(&m->ties);
    }
    if (score && score == m->best_score) {
        sset_add(&m->ties, schema_name);
    }
}

/* Returns NULL if exactly one name matched best, else the matching names
 * joined with ", " (empty if none matched).  Destroys M. */
static char *
name_matches_finish(struct name_matches *m)
{
    char *list = (sset_count(&m->ties) == 1 ? NULL
                  : sset_join(&m->ties, ", ", ""));
    sset_destroy(&m->ties);
    return list;
}

/* Finds the table called NAME (an abbreviation will do).  Returns the
 * table, or NULL with an error message in *ERRORP. */
static const struct ovsdb_idl_table_class *
find_table(const char *name, char **errorp)
{
    struct name_matches m;

    name_matches_init(&m);
    for (size_t i = 0; i < ovsrec_idl_class.n_tables; i++) {
        name_matches_consider(&m, ovsrec_idl_class.tables[i].name, name, i);
    }
    char *ambiguous = name_matches_finish(&m);
    *errorp = NULL;
    if (ambiguous) {
        *errorp = (*ambiguous
                   ? xasprintf("\"%s\" matches multiple table names: %s",
                               name, ambiguous)
                   : xasprintf("unknown table \"%s\"", name));
        free(ambiguous);
        return NULL;
    }
    return &ovsrec_idl_class.tables[m.best_idx];
}

static const struct ovsdb_idl_table_class *
get_table(const char *name)
{
    char *error;
    const struct ovsdb_idl_table_class *tc = find_table(name, &error);
    vsctl_die_if_error(error);
    return tc;
}

/* The pseudo-column "_uuid" that "get" and --columns accept (a NULL
 * column, read as the row's uuid). */
static const struct ovsdb_type uuid_column_type = {
    .key = { .type = OVSDB_TYPE_UUID },
    .value = { .type = OVSDB_TYPE_VOID },
    .n_min = 1,
    .n_max = 1,
};

static bool
is_uuid_column_name(const char *name)
{
    return !strcasecmp(name, "_uuid");
}

/* Finds the column of TC called NAME (an abbreviation will do).  Returns
 * the column, or NULL with an error message in *ERRORP. */
static const struct ovsdb_idl_column *
find_column(const struct ovsdb_idl_table_class *tc, const char *name,
            char **errorp)
{
    struct name_matches m;

    name_matches_init(&m);
    for (size_t i = 0; i < tc->n_columns; i++) {
        name_matches_consider(&m, tc->columns[i].name, name, i);
    }
    char *ambiguous = name_matches_finish(&m);
    *errorp = NULL;
    if (ambiguous) {
        if (*ambiguous) {
            *errorp = xasprintf("%s contains more than one column whose "
                                "name matches \"%s\": %s",
                                tc->name, name, ambiguous);
        } else {
            *errorp = xasprintf("%s does not contain a column whose name "
                                "matches \"%s\"", tc->name, name);
        }
        free(ambiguous);
        return NULL;
    }
    return &tc->columns[m.best_idx];
}

static const struct ovsdb_idl_column *
get_column(const struct ovsdb_idl_table_class *tc, const char *name)
{
    char *error;
    const struct ovsdb_idl_column *col = find_column(tc, name, &error);
    vsctl_die_if_error(error);
    return col;
}

/* Rows by name. */

struct row_id {
    const char *table;          /* The table whose rows this names. */
    const char *name_table;     /* Table searched by name. */
    const char *name_column;    /* Column compared with the name, or NULL
                                 * for the only row, named ".". */
    const char *ref_column;     /* Column of the found row that refers to
                                 * the wanted row, or NULL for the row
                                 * itself. */
};

static const struct row_id row_ids[] = {
    {"AutoAttach", "Bridge", "name", "auto_attach"},
    {"Bridge", "Bridge", "name", NULL},
    {"Controller", "Bridge", "name", "controller"},
    {"Flow_Sample_Collector_Set", "Flow_Sample_Collector_Set", "id", NULL},
    {"Flow_Table", "Flow_Table", "name", NULL},
    {"IPFIX", "Bridge", "name", "ipfix"},
    {"Interface", "Interface", "name", NULL},
    {"Manager", "Manager", "target", NULL},
    {"Mirror", "Mirror", "name", NULL},
    {"NetFlow", "Bridge", "name", "netflow"},
    {"Open_vSwitch", "Open_vSwitch", NULL, NULL},
    {"Port", "Port", "name", NULL},
    {"QoS", "Port", "name", "qos"},
    {"SSL", "Open_vSwitch", NULL, "ssl"},
    {"sFlow", "Bridge", "name", "sflow"},
};

static int
compare_table_names(const void *a_, const void *b_)
{
    const struct ovsdb_idl_table_class *const *a = a_;
    const struct ovsdb_idl_table_class *const *b = b_;
    return strcmp((*a)->name, (*b)->name);
}

void
vsctl_print_row_id_usage(void)
{
    size_t n = ovsrec_idl_class.n_tables;
    const struct ovsdb_idl_table_class **tables = xmalloc(n * sizeof *tables);

    for (size_t i = 0; i < n; i++) {
        tables[i] = &ovsrec_idl_class.tables[i];
    }
    qsort(tables, n, sizeof *tables, compare_table_names);

    printf("Database commands may name a row of a table in these ways:\n");
    for (size_t i = 0; i < n; i++) {
        printf("  %s:\n    by UUID\n", tables[i]->name);
        for (size_t j = 0; j < ARRAY_SIZE(row_ids); j++) {
            const struct row_id *id = &row_ids[j];
            if (strcmp(id->table, tables[i]->name)) {
                continue;
            }
            if (!id->name_column) {
                printf("    as \".\"\n");
            } else if (!id->ref_column) {
                printf("    by \"%s\"\n", id->name_column);
            } else {
                printf("    via \"%s\" of %s with matching \"%s\"\n",
                       id->ref_column, id->name_table, id->name_column);
            }
        }
    }
    free(tables);
}

/* The row of TC named NAME in the bridge/port/interface cache, if a
 * command has built the cache, or NULL.  Adding 1,000 ports with settings
 * in one call ("add-port br0 pN -- set Interface pN ...") would otherwise
 * scan the whole Interface table for each "set".  The caller checks the
 * row's current name: the cache may lag a rename, and a miss (a row no
 * bridge reaches, such as one just made by "create") falls back to the
 * scan. */
static const struct ovsdb_idl_row *
cached_row_by_name(const struct vsctl_context *ctx,
                   const struct ovsdb_idl_table_class *tc, const char *name)
{
    if (!ctx->cache_valid) {
        return NULL;
    }
    if (!strcmp(tc->name, "Interface")) {
        const struct vsctl_iface *iface = shash_find_data(&ctx->ifaces, name);
        return iface ? iface->iface_cfg : NULL;
    } else if (!strcmp(tc->name, "Port")) {
        const struct vsctl_port *port = shash_find_data(&ctx->ports, name);
        return port ? port->port_cfg : NULL;
    } else if (!strcmp(tc->name, "Bridge")) {
        const struct vsctl_bridge *br = shash_find_data(&ctx->bridges, name);
        return br && !br->parent ? br->br_cfg : NULL;
    }
    return NULL;
}

static const struct ovsdb_idl_row *
get_row_by_id(struct vsctl_context *ctx,
              const struct ovsdb_idl_table_class *tc,
              const struct row_id *id, const char *record_id)
{
    const struct ovsdb_idl_table_class *name_tc = vsctl_table(id->name_table);
    const struct ovsdb_idl_row *referrer = NULL;

    if (!id->name_column) {
        if (strcmp(record_id, ".")) {
            return NULL;
        }
        referrer = ovsdb_idl_first_row(ctx->idl, name_tc);
        if (!referrer || ovsdb_idl_next_row(referrer)) {
            return NULL;
        }
    } else {
        const struct ovsdb_idl_column *name_col = vsctl_column(name_tc,
                                                               id->name_column);
        union ovsdb_atom name;
        char *error = ovsdb_atom_from_string(&name, &name_col->type.key,
                                             record_id, NULL);
        if (error) {
            free(error);
            return NULL;
        }
        const struct ovsdb_idl_row *cached = cached_row_by_name(ctx, name_tc,
                                                                record_id);
        if (cached) {
            const struct ovsdb_datum *d = ovsdb_idl_read(cached, name_col);
            if (d->n == 1 && ovsdb_atom_equals(&d->keys[0], &name,
                                               name_col->type.key.type)) {
                referrer = cached;
            }
        }
        for (const struct ovsdb_idl_row *row
                 = referrer ? NULL : ovsdb_idl_first_row(ctx->idl, name_tc);
             row; row = ovsdb_idl_next_row(row)) {
            const struct ovsdb_datum *d = ovsdb_idl_read(row, name_col);
            if (d->n == 1 && ovsdb_atom_equals(&d->keys[0], &name,
                                               name_col->type.key.type)) {
                if (referrer) {
                    vsctl_fatal("multiple rows in %s match \"%s\"",
                                name_tc->name, record_id);
                }
                referrer = row;
            }
        }
        ovsdb_atom_destroy(&name, name_col->type.key.type);
        if (!referrer) {
            return NULL;
        }
    }

    if (!id->ref_column) {
        return referrer;
    }
    const struct ovsdb_idl_column *ref_col = vsctl_column(name_tc,
                                                          id->ref_column);
    const struct ovsdb_datum *refs = ovsdb_idl_read(referrer, ref_col);
    if (refs->n != 1) {
        if (refs->n > 1) {
            vsctl_fatal("multiple rows in %s match \"%s\"", tc->name,
                        record_id);
        }
        return NULL;
    }
    return ovsdb_idl_get_row_for_uuid(ctx->idl, tc, &refs->keys[0].uuid);
}

const struct ovsdb_idl_row *
vsctl_get_row(struct vsctl_context *ctx,
              const struct ovsdb_idl_table_class *tc, const char *record_id,
              bool must_exist)
{
    const struct ovsdb_idl_row *row = NULL;
    struct uuid uuid;

    if (uuid_from_string(&uuid, record_id)) {
        row = ovsdb_idl_get_row_for_uuid(ctx->idl, tc, &uuid);
    }
    for (size_t i = 0; !row && i < ARRAY_SIZE(row_ids); i++) {
        if (!strcmp(row_ids[i].table, tc->name)) {
            row = get_row_by_id(ctx, tc, &row_ids[i], record_id);
        }
    }
    if (!row && uuid_is_partial_string(record_id, NULL)) {
        size_t len = strlen(record_id);
        for (const struct ovsdb_idl_row *r = ovsdb_idl_first_row(ctx->idl, tc);
             r; r = ovsdb_idl_next_row(r)) {
            char s[UUID_LEN + 1];
            uuid_format(ovsdb_idl_row_get_uuid(r), s);
            if (!strncasecmp(s, record_id, len)) {
                if (row) {
                    char t[UUID_LEN + 1];
                    uuid_format(ovsdb_idl_row_get_uuid(row), t);
                    vsctl_fatal("%s contains 2 or more rows whose UUIDs "
                                "begin with %s: at least %s and %s",
                                tc->name, record_id, t, s);
                }
                row = r;
            }
        }
    }
    if (must_exist && !row) {
        vsctl_fatal("no row \"%s\" in table %s", record_id, tc->name);
    }
    return row;
}

/* Parsing values typed on the command line.  Open vSwitch's ovs-vsctl
 * says "is not a valid integer or range" for every integer it cannot parse,
 * also where a range makes no sense (a map key, a single value), and
 * scripts may match on that. */
static char *
integer_error_wording(char *error)
{
    static const char suffix[] = " is not a valid integer";

    if (error && string_ends_with(error, suffix)) {
        char *fixed = xasprintf("%s or range", error);
        free(error);
        return fixed;
    }
    return error;
}

static char * OVS_WARN_UNUSED_RESULT
atom_from_string(union ovsdb_atom *atom, const struct ovsdb_base_type *base,
                 const char *s, struct ovsdb_symbol_table *symtab)
{
    return integer_error_wording(ovsdb_atom_from_string(atom, base, s,
                                                        symtab));
}

static char * OVS_WARN_UNUSED_RESULT
datum_from_string(struct ovsdb_datum *datum, const struct ovsdb_type *type,
                  const char *s, struct ovsdb_symbol_table *symtab)
{
    return integer_error_wording(ovsdb_datum_from_string(datum, type, s,
                                                         symtab));
}

/* "column[:key][OPERATOR value]" arguments. */

/* What ends the column name and the key of such an argument, outside
 * double quotes. */
static const char arg_token_delimiters[] = ":=!<>{} ";

/* Reads one token (a column name or a key) from *P, up to the first
 * delimiter outside double quotes, and advances *P to that delimiter.
 * Quotes stay in the token (a quoted key is read later as a quoted
 * string); a backslash makes the next character literal, and inside quotes
 * stays in the token too, for the same reason.  Returns the token in
 * *TOKENP (malloc'd), or an error message with *TOKENP NULL. */
static char *
parse_arg_token(const char **p, char **tokenp)
{
    const char *start = *p;
    const char *s = start;
    struct ds token = DS_EMPTY_INITIALIZER;
    bool in_quotes = false;

    *tokenp = NULL;
    for (; *s; s++) {
        if (*s == '\\') {
            if (!s[1]) {
                ds_destroy(&token);
                return xasprintf("%s: backslash at end of argument", start);
            }
            if (in_quotes) {
                ds_put_char(&token, '\\');
            }
            ds_put_char(&token, *++s);
        } else if (!in_quotes && strchr(arg_token_delimiters, *s)) {
            break;
        } else {
            if (*s == '"') {
                in_quotes = !in_quotes;
            }
            ds_put_char(&token, *s);
        }
    }
    if (in_quotes) {
        ds_destroy(&token);
        return xasprintf("%s: quoted string extends past end of argument",
                         start);
    }
    *p = s;
    *tokenp = ds_steal_cstr(&token);
    return NULL;
}

/* Reads the column name at the start of ARG into *NAMEP (malloc'd) and
 * returns the rest of ARG in *RESTP, or returns an error message. */
static char *
parse_arg_column_name(const char *arg, char **namep, const char **restp)
{
    const char *p = arg;
    char *error = parse_arg_token(&p, namep);

    if (!error && !**namep) {
        free(*namep);
        *namep = NULL;
        error = xasprintf("%s: missing column name", arg);
    }
    *restp = p;
    return error;
}

/* Splits ARG.  *KEYP and *VALUEP are malloc'd or NULL; *OPERATORP is one
 * of OPERATORS or NULL if there is no value.  Returns an error message or
 * NULL. */
static char *
parse_column_key_value(const char *arg,
                       const struct ovsdb_idl_table_class *tc,
                       const struct ovsdb_idl_column **columnp,
                       char **keyp, const char **operatorp,
                       const char *const *operators, size_t n_operators,
                       char **valuep)
{
    const char *p;
    char *name;
    char *error;

    *keyp = NULL;
    *valuep = NULL;
    *operatorp = NULL;

    /* Column name. */
    error = parse_arg_column_name(arg, &name, &p);
    if (error) {
        return error;
    }
    *columnp = find_column(tc, name, &error);
    free(name);
    if (error) {
        return error;
    }

    /* Key. */
    if (*p == ':') {
        p++;
        error = parse_arg_token(&p, keyp);
        if (error) {
            return error;
        }
    }

    /* Operator and value. */
    if (operators && *p) {
        size_t best_len = 0;
        for (size_t i = 0; i < n_operators; i++) {
            size_t op_len = strlen(operators[i]);
            if (op_len > best_len && !strncmp(p, operators[i], op_len)) {
                best_len = op_len;
                *operatorp = operators[i];
            }
        }
        /* An operator with nothing after it is no "OPERATOR value". */
        if (!best_len || !p[best_len]) {
            goto no_operator;
        }
        p += best_len;
        *valuep = xstrdup(p);
    } else if (operators) {
        goto no_operator;
    } else if (*p) {
        free(*keyp);
        *keyp = NULL;
        return xasprintf("%s: trailing garbage \"%s\" in argument", arg, p);
    }
    return NULL;

no_operator:
    free(*keyp);
    *keyp = NULL;
    *operatorp = NULL;
    if (n_operators == 1) {
        return xasprintf("%s: argument does not end in \"%s\" followed by "
                         "a value.", arg, operators[0]);
    } else {
        struct ds s = DS_EMPTY_INITIALIZER;
        ds_put_format(&s, "%s: argument does not end in ", arg);
        for (size_t i = 0; i < n_operators; i++) {
            if (i == n_operators - 1) {
                ds_put_cstr(&s, "or ");
            }
            ds_put_format(&s, "\"%s\"", operators[i]);
            if (i < n_operators - 1) {
                ds_put_cstr(&s, ", ");
            }
        }
        ds_put_cstr(&s, " followed by a value.");
        return ds_steal_cstr(&s);
    }
}

static void
check_mutable(const struct ovsdb_idl_row *row,
              const struct ovsdb_idl_column *column)
{
    if (!column->is_mutable && !ovsdb_idl_row_is_new(row)) {
        vsctl_fatal("cannot modify read-only column %s in table %s",
                    column->name, ovsdb_idl_row_get_class(row)->name);
    }
}

static void
row_datum(const struct ovsdb_idl_row *row,
          const struct ovsdb_idl_column *column, struct ovsdb_datum *d)
{
    if (column) {
        ovsdb_datum_clone(d, ovsdb_idl_read(row, column), &column->type);
    } else {
        union ovsdb_atom atom;
        atom.uuid = *ovsdb_idl_row_get_uuid(row);
        ovsdb_datum_init_atom(d, &atom, OVSDB_TYPE_UUID);
    }
}

static const struct ovsdb_type *
column_type(const struct ovsdb_idl_column *column)
{
    return column ? &column->type : &uuid_column_type;
}

/* --id=@name: defines @name.  A command earlier in the call may have
 * referred to it already (the symbol then exists, not yet created, with the
 * uuid that reference holds); *WAS_REFERENCEDP says so. */
static struct ovsdb_symbol *
create_symbol(struct ovsdb_symbol_table *symtab, const char *id,
              bool *was_referencedp)
{
    if (id[0] != '@') {
        vsctl_fatal("row id \"%s\" does not begin with \"@\"", id);
    }
    *was_referencedp = ovsdb_symbol_table_get(symtab, id) != NULL;
    struct ovsdb_symbol *symbol = ovsdb_symbol_table_insert(symtab, id);
    if (symbol->created) {
        vsctl_fatal("row id \"%s\" may only be specified on one --id option",
                    id);
    }
    symbol->created = true;
    return symbol;
}

/* list, find. */

static void
parse_columns_option(struct vsctl_context *ctx,
                     const struct ovsdb_idl_table_class *tc,
                     const struct ovsdb_idl_column ***columnsp,
                     size_t *n_columnsp)
{
    const char *spec = shash_find_data(ctx->options, "--columns");
    const struct ovsdb_idl_column **columns;
    size_t n = 0;

    if (!spec) {
        columns = xmalloc((tc->n_columns + 1) * sizeof *columns);
        columns[n++] = NULL;    /* _uuid */
        /* Sorted by name, as the schema lists them. */
        const struct ovsdb_idl_column **sorted
            = xmalloc(tc->n_columns * sizeof *sorted);
        for (size_t i = 0; i < tc->n_columns; i++) {
            sorted[i] = &tc->columns[i];
        }
        for (size_t i = 1; i < tc->n_columns; i++) {
            for (size_t j = i; j > 0
                     && strcmp(sorted[j - 1]->name, sorted[j]->name) > 0;
                 j--) {
                const struct ovsdb_idl_column *tmp = sorted[j];
                sorted[j] = sorted[j - 1];
                sorted[j - 1] = tmp;
            }
        }
        for (size_t i = 0; i < tc->n_columns; i++) {
            columns[n++] = sorted[i];
        }
        free(sorted);
    } else {
        char *copy = xstrdup(spec);
        char *save = NULL;
        size_t allocated = 0;
        columns = NULL;
        for (char *name = strtok_r(copy, ", ", &save); name;
             name = strtok_r(NULL, ", ", &save)) {
            const struct ovsdb_idl_column *col
                = is_uuid_column_name(name) ? NULL : get_column(tc, name);
            if (n >= allocated) {
                columns = x2nrealloc(columns, &allocated, sizeof *columns);
            }
            columns[n++] = col;
        }
        free(copy);
        if (!n) {
            vsctl_fatal("must specify at least one column name");
        }
    }
    *columnsp = columns;
    *n_columnsp = n;
}

static struct table *
list_table_create(const struct ovsdb_idl_column **columns, size_t n)
{
    struct table *t = xmalloc(sizeof *t);

    table_init(t);
    for (size_t i = 0; i < n; i++) {
        table_add_column(t, "%s", columns[i] ? columns[i]->name : "_uuid");
    }
    return t;
}

static void
list_record(const struct ovsdb_idl_row *row,
            const struct ovsdb_idl_column **columns, size_t n,
            struct table *out)
{
    table_add_row(out);
    for (size_t i = 0; i < n; i++) {
        struct cell *cell = table_add_cell(out);
        struct ovsdb_datum d;

        row_datum(row, columns[i], &d);
        cell->json = ovsdb_datum_to_json(&d, column_type(columns[i]));
        cell->type = column_type(columns[i]);
        ovsdb_datum_destroy(&d, column_type(columns[i]));
    }
}

static void
cmd_list(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_table_class *tc = get_table(ctx->argv[1]);
    bool must_exist = !shash_find(ctx->options, "--if-exists");
    const struct ovsdb_idl_column **columns;
    size_t n_columns;

    parse_columns_option(ctx, tc, &columns, &n_columns);
    struct table *out = list_table_create(columns, n_columns);
    *ctx->table = out;
    if (ctx->argc > 2) {
        for (int i = 2; i < ctx->argc; i++) {
            const struct ovsdb_idl_row *row = vsctl_get_row(ctx, tc,
                                                            ctx->argv[i],
                                                            must_exist);
            if (row) {
                list_record(row, columns, n_columns, out);
            }
        }
    } else {
        for (const struct ovsdb_idl_row *row = ovsdb_idl_first_row(ctx->idl,
                                                                   tc);
             row; row = ovsdb_idl_next_row(row)) {
            list_record(row, columns, n_columns, out);
        }
    }
    free(columns);
}

/* Conditions of find and wait-until. */

static const char *const condition_operators[] = {
    "=", "!=", "<", ">", "<=", ">=",
    "{=}", "{!=}", "{<}", "{>}", "{<=}", "{>=}", "{in}", "{not-in}",
};

static bool
is_set_operator(const char *op)
{
    return op[0] == '{';
}

static bool
evaluate_relop(const struct ovsdb_datum *a, const struct ovsdb_datum *b,
               const struct ovsdb_type *type, const char *op)
{
    if (!strcmp(op, "=") || !strcmp(op, "{=}")) {
        return ovsdb_datum_equals(a, b, type);
    } else if (!strcmp(op, "!=") || !strcmp(op, "{!=}")) {
        return !ovsdb_datum_equals(a, b, type);
    } else if (!strcmp(op, "<")) {
        return ovsdb_datum_compare_3way(a, b, type) < 0;
    } else if (!strcmp(op, ">")) {
        return ovsdb_datum_compare_3way(a, b, type) > 0;
    } else if (!strcmp(op, "<=")) {
        return ovsdb_datum_compare_3way(a, b, type) <= 0;
    } else if (!strcmp(op, ">=")) {
        return ovsdb_datum_compare_3way(a, b, type) >= 0;
    } else if (!strcmp(op, "{<}")) {
        return a->n < b->n && ovsdb_datum_includes_all(a, b, type);
    } else if (!strcmp(op, "{>}")) {
        return a->n > b->n && ovsdb_datum_includes_all(b, a, type);
    } else if (!strcmp(op, "{<=}") || !strcmp(op, "{in}")) {
        return ovsdb_datum_includes_all(a, b, type);
    } else if (!strcmp(op, "{>=}")) {
        return ovsdb_datum_includes_all(b, a, type);
    } else if (!strcmp(op, "{not-in}")) {
        return ovsdb_datum_excludes_all(a, b, type);
    }
    OVS_NOT_REACHED();
}

static bool
is_condition_satisfied(struct vsctl_context *ctx,
                       const struct ovsdb_idl_table_class *tc,
                       const struct ovsdb_idl_row *row, const char *arg)
{
    const struct ovsdb_idl_column *column;
    const char *op;
    char *key, *value;
    bool retval;

    vsctl_die_if_error(parse_column_key_value(
                           arg, tc, &column, &key, &op,
                           condition_operators,
                           ARRAY_SIZE(condition_operators), &value));
    const struct ovsdb_type *type = column_type(column);
    struct ovsdb_datum have;
    row_datum(row, column, &have);

    if (key) {
        if (!ovsdb_type_is_map(type)) {
            vsctl_fatal("cannot specify key to check for non-map column %s",
                        column->name);
        }
        union ovsdb_atom want_key;
        vsctl_die_if_error(atom_from_string(&want_key, &type->key,
                                            key, ctx->symtab));

        struct ovsdb_type vtype;
        memset(&vtype, 0, sizeof vtype);
        vtype.key = type->value;
        vtype.value.type = OVSDB_TYPE_VOID;
        vtype.n_min = is_set_operator(op) ? 0 : 1;
        vtype.n_max = is_set_operator(op) ? UINT_MAX : 1;

        struct ovsdb_datum want;
        vsctl_die_if_error(datum_from_string(&want, &vtype, value,
                                             ctx->symtab));
        unsigned int idx = ovsdb_datum_find_key(&have, &want_key,
                                                type->key.type);
        if (idx == UINT_MAX && !is_set_operator(op)) {
            retval = false;
        } else {
            struct ovsdb_datum a;
            a.n = idx == UINT_MAX ? 0 : 1;
            a.keys = idx == UINT_MAX ? NULL : &have.values[idx];
            a.values = NULL;
            retval = evaluate_relop(&a, &want, &vtype, op);
        }
        ovsdb_atom_destroy(&want_key, type->key.type);
        ovsdb_datum_destroy(&want, &vtype);
    } else {
        struct ovsdb_type rtype = *type;
        rtype.n_min = 0;
        if (is_set_operator(op)) {
            rtype.n_max = UINT_MAX;
        }
        struct ovsdb_datum want;
        vsctl_die_if_error(datum_from_string(&want, &rtype, value,
                                             ctx->symtab));
        retval = evaluate_relop(&have, &want, type, op);
        ovsdb_datum_destroy(&want, type);
    }
    ovsdb_datum_destroy(&have, type);
    free(key);
    free(value);
    return retval;
}

static void
cmd_find(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_table_class *tc = get_table(ctx->argv[1]);
    const struct ovsdb_idl_column **columns;
    size_t n_columns;

    parse_columns_option(ctx, tc, &columns, &n_columns);
    struct table *out = list_table_create(columns, n_columns);
    *ctx->table = out;
    for (const struct ovsdb_idl_row *row = ovsdb_idl_first_row(ctx->idl, tc);
         row; row = ovsdb_idl_next_row(row)) {
        bool match = true;
        for (int i = 2; i < ctx->argc && match; i++) {
            match = is_condition_satisfied(ctx, tc, row, ctx->argv[i]);
        }
        if (match) {
            list_record(row, columns, n_columns, out);
        }
    }
    free(columns);
}

/* get. */

static void
cmd_get(struct vsctl_context *ctx)
{
    const char *id = shash_find_data(ctx->options, "--id");
    bool must_exist = !shash_find(ctx->options, "--if-exists");
    const struct ovsdb_idl_table_class *tc = get_table(ctx->argv[1]);
    const char *record_id = ctx->argv[2];

    if (id && !must_exist) {
        vsctl_fatal("--if-exists and --id may not be specified together");
    }

    const struct ovsdb_idl_row *row = vsctl_get_row(ctx, tc, record_id,
                                                    must_exist);
    if (!row) {
        return;
    }
    if (id) {
        /* An existing row's uuid cannot be the one that an earlier
         * reference to @name already holds. */
        bool was_referenced;
        struct ovsdb_symbol *symbol = create_symbol(ctx->symtab, id,
                                                    &was_referenced);
        if (was_referenced) {
            vsctl_fatal("row id \"%s\" specified on \"get\" command was "
                        "used before it was defined", id);
        }
        symbol->uuid = *ovsdb_idl_row_get_uuid(row);
        /* The row exists already: no reference needs to keep it alive. */
        symbol->strong_ref = true;
    }

    for (int i = 3; i < ctx->argc; i++) {
        const struct ovsdb_idl_column *column;
        const char *op;
        char *key, *value;

        /* Only "get" knows "_uuid" (and only without a key). */
        if (is_uuid_column_name(ctx->argv[i])) {
            ds_put_format(ctx->output, UUID_FMT "\n",
                          UUID_ARGS(ovsdb_idl_row_get_uuid(row)));
            continue;
        }
        vsctl_die_if_error(parse_column_key_value(ctx->argv[i], tc, &column,
                                                  &key, &op, NULL, 0,
                                                  &value));
        const struct ovsdb_type *type = column_type(column);
        struct ovsdb_datum d;
        row_datum(row, column, &d);
        if (key) {
            if (!ovsdb_type_is_map(type)) {
                vsctl_fatal("cannot specify key to get for non-map column %s",
                            column->name);
            }
            union ovsdb_atom key_atom;
            vsctl_die_if_error(atom_from_string(&key_atom, &type->key,
                                                key, ctx->symtab));
            unsigned int idx = ovsdb_datum_find_key(&d, &key_atom,
                                                    type->key.type);
            if (idx == UINT_MAX) {
                if (must_exist) {
                    vsctl_fatal("no key \"%s\" in %s record \"%s\" column %s",
                                key, tc->name, record_id, column->name);
                }
            } else {
                ovsdb_atom_to_string(&d.values[idx], type->value.type,
                                     ctx->output);
            }
            ovsdb_atom_destroy(&key_atom, type->key.type);
        } else {
            ovsdb_datum_to_string(&d, type, ctx->output);
        }
        ds_put_char(ctx->output, '\n');
        ovsdb_datum_destroy(&d, type);
        free(key);
    }
}

/* set, add, remove, clear. */

/* Writes one "column[:key]=value" of ROW, then tells the cache. */
static void
set_column(struct vsctl_context *ctx, const struct ovsdb_idl_table_class *tc,
           const struct ovsdb_idl_row *row, const char *arg)
{
    static const char *const set_operators[] = { "=" };
    const struct ovsdb_idl_column *column;
    const char *op;
    char *key, *value;

    vsctl_die_if_error(parse_column_key_value(arg, tc, &column, &key, &op,
                                              set_operators, 1, &value));
    check_mutable(row, column);

    if (key) {
        if (!ovsdb_type_is_map(&column->type)) {
            vsctl_fatal("cannot specify key to set for non-map column %s",
                        column->name);
        }
        union ovsdb_atom key_atom, value_atom;
        vsctl_die_if_error(atom_from_string(&key_atom,
                                            &column->type.key, key,
                                            ctx->symtab));
        vsctl_die_if_error(atom_from_string(&value_atom,
                                            &column->type.value, value,
                                            ctx->symtab));

        struct ovsdb_datum d;
        ovsdb_datum_clone(&d, ovsdb_idl_read(row, column), &column->type);
        unsigned int idx = ovsdb_datum_find_key(&d, &key_atom,
                                                column->type.key.type);
        if (idx != UINT_MAX) {
            ovsdb_datum_remove_unsafe(&d, idx, &column->type);
        }
        ovsdb_datum_add_unsafe(&d, &key_atom, &value_atom, &column->type);
        ovsdb_datum_sort_assert(&d, column->type.key.type);
        ovsdb_idl_txn_write(row, column, &d);
    } else {
        struct ovsdb_datum d;
        vsctl_die_if_error(datum_from_string(&d, &column->type, value,
                                             ctx->symtab));
        ovsdb_idl_txn_write(row, column, &d);
    }
    free(key);
    free(value);
    vsctl_cache_note_write(ctx, tc, column);
}

/* The row that "set", "add", "remove" and "clear" change: table argv[1],
 * record argv[2].  With --if-exists a missing record gives NULL (nothing to
 * do); without, it is an error.  Stores the table in *TCP. */
static const struct ovsdb_idl_row *
get_target_row(struct vsctl_context *ctx,
               const struct ovsdb_idl_table_class **tcp)
{
    bool must_exist = !shash_find(ctx->options, "--if-exists");
    *tcp = get_table(ctx->argv[1]);
    return vsctl_get_row(ctx, *tcp, ctx->argv[2], must_exist);
}

static void
cmd_set(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_table_class *tc;
    const struct ovsdb_idl_row *row = get_target_row(ctx, &tc);
    if (!row) {
        return;
    }
    for (int i = 3; i < ctx->argc; i++) {
        set_column(ctx, tc, row, ctx->argv[i]);
    }
}

static const struct ovsdb_idl_column *
get_mutable_column(const struct ovsdb_idl_table_class *tc,
                   const struct ovsdb_idl_row *row, const char *name)
{
    const struct ovsdb_idl_column *column = get_column(tc, name);
    check_mutable(row, column);
    return column;
}

static void
cmd_add(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_table_class *tc;
    const struct ovsdb_idl_row *row = get_target_row(ctx, &tc);
    if (!row) {
        return;
    }
    const struct ovsdb_idl_column *column = get_mutable_column(tc, row,
                                                               ctx->argv[3]);
    struct ovsdb_type type = column->type;
    type.n_min = 0;
    type.n_max = UINT_MAX;

    struct ovsdb_datum add;
    ovsdb_datum_init_empty(&add);
    for (int i = 4; i < ctx->argc; i++) {
        struct ovsdb_datum d;
        vsctl_die_if_error(datum_from_string(&d, &type, ctx->argv[i],
                                             ctx->symtab));
        /* A later pair for the same key wins, as it would on the server. */
        struct ovsdb_datum tmp;
        ovsdb_datum_clone(&tmp, &d, &type);
        ovsdb_datum_union(&tmp, &add, &type);
        ovsdb_datum_swap(&tmp, &add);
        ovsdb_datum_destroy(&tmp, &type);
        ovsdb_datum_destroy(&d, &type);
    }
    /* A column that would outgrow its maximum is refused here when later
     * commands would read it; the last command's mutation goes to the
     * server as it is, and the server refuses it (as with Open vSwitch's
     * ovs-vsctl, which reports the two cases in these two ways). */
    if (!ctx->last_command && column->type.n_max != UINT_MAX) {
        struct ovsdb_datum result;
        ovsdb_datum_clone(&result, ovsdb_idl_read(row, column),
                          &column->type);
        ovsdb_datum_union(&result, &add, &type);
        if (result.n > column->type.n_max) {
            vsctl_fatal("\"add\" operation would put %u %s in column %s of "
                        "table %s but the maximum number is %u", result.n,
                        ovsdb_type_is_map(&column->type) ? "pairs" : "values",
                        column->name, tc->name, column->type.n_max);
        }
        ovsdb_datum_destroy(&result, &column->type);
    }
    if (add.n) {
        ovsdb_idl_txn_write_partial_add(row, column, &add);
    } else {
        ovsdb_datum_destroy(&add, &type);
    }
    vsctl_cache_note_write(ctx, tc, column);
}

static void
cmd_remove(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_table_class *tc;
    const struct ovsdb_idl_row *row = get_target_row(ctx, &tc);
    if (!row) {
        return;
    }
    const struct ovsdb_idl_column *column = get_mutable_column(tc, row,
                                                               ctx->argv[3]);
    struct ovsdb_type type = column->type;
    type.n_min = 0;
    type.n_max = UINT_MAX;

    struct ovsdb_datum old;
    ovsdb_datum_clone(&old, ovsdb_idl_read(row, column), &column->type);
    for (int i = 4; i < ctx->argc; i++) {
        struct ovsdb_datum rm;
        const struct ovsdb_type *rm_type = &type;
        struct ovsdb_type key_type;

        char *error = datum_from_string(&rm, &type, ctx->argv[i],
                                        ctx->symtab);
        if (error && ovsdb_type_is_map(&type)) {
            /* A map: maybe just keys. */
            key_type = type;
            ovsdb_base_type_init(&key_type.value, OVSDB_TYPE_VOID);
            char *error2 = datum_from_string(&rm, &key_type,
                                             ctx->argv[i],
                                             ctx->symtab);
            if (!error2) {
                free(error);
                error = NULL;
                rm_type = &key_type;
            } else {
                free(error2);
            }
        }
        vsctl_die_if_error(error);
        ovsdb_datum_subtract(&old, &column->type, &rm, rm_type);
        ovsdb_datum_destroy(&rm, rm_type);
    }
    if (old.n < column->type.n_min) {
        vsctl_fatal("\"remove\" operation would put %u %s in column %s of "
                    "table %s but the minimum number is %u", old.n,
                    ovsdb_type_is_map(&column->type) ? "pairs" : "values",
                    column->name, tc->name, column->type.n_min);
    }

    /* Send the keys that went away. */
    const struct ovsdb_datum *cur = ovsdb_idl_read(row, column);
    struct ovsdb_datum gone;
    struct ovsdb_type gone_type = type;
    ovsdb_base_type_init(&gone_type.value, OVSDB_TYPE_VOID);
    ovsdb_datum_init_empty(&gone);
    for (unsigned int i = 0; i < cur->n; i++) {
        if (ovsdb_datum_find_key(&old, &cur->keys[i], type.key.type)
            == UINT_MAX) {
            union ovsdb_atom k;
            ovsdb_atom_clone(&k, &cur->keys[i], type.key.type);
            ovsdb_datum_add_unsafe(&gone, &k, NULL, &gone_type);
        }
    }
    ovsdb_datum_destroy(&old, &column->type);
    if (gone.n) {
        ovsdb_idl_txn_write_partial_remove(row, column, &gone);
    }
    vsctl_cache_note_write(ctx, tc, column);
}

static void
cmd_clear(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_table_class *tc;
    const struct ovsdb_idl_row *row = get_target_row(ctx, &tc);
    if (!row) {
        return;
    }
    for (int i = 3; i < ctx->argc; i++) {
        const struct ovsdb_idl_column *column
            = get_mutable_column(tc, row, ctx->argv[i]);
        if (column->type.n_min > 0) {
            vsctl_fatal("\"clear\" operation cannot be applied to column %s "
                        "of table %s, which is not allowed to be empty",
                        column->name, tc->name);
        }
        struct ovsdb_datum d;
        ovsdb_datum_init_empty(&d);
        ovsdb_idl_txn_write(row, column, &d);
        vsctl_cache_note_write(ctx, tc, column);
    }
}

/* create, destroy. */

static void
cmd_create(struct vsctl_context *ctx)
{
    const char *id = shash_find_data(ctx->options, "--id");
    const struct ovsdb_idl_table_class *tc = get_table(ctx->argv[1]);
    const struct ovsdb_idl_row *row;
    struct uuid uuid;

    if (id && uuid_from_string(&uuid, id)) {
        /* --id=UUID: the server creates the row with that uuid, and later
         * commands refer to it by that uuid. */
        row = ovsdb_idl_txn_insert_persist_uuid(ctx->txn, tc, &uuid);
        if (!row) {
            vsctl_fatal("cannot create a row with UUID "UUID_FMT" in table "
                        "%s because that table already has a row with "
                        "that UUID", UUID_ARGS(&uuid), tc->name);
        }
    } else if (id) {
        /* --id=@name: a reference to @name written by an earlier command
         * holds the symbol's uuid, which the row takes as its local
         * name. */
        bool was_referenced;
        struct ovsdb_symbol *symbol = create_symbol(ctx->symtab, id,
                                                    &was_referenced);
        if (tc->is_root) {
            /* A root row needs no reference to survive. */
            symbol->strong_ref = true;
        }
        row = ovsdb_idl_txn_insert(ctx->txn, tc, &symbol->uuid);
    } else {
        if (!tc->is_root) {
            VLOG_WARN("applying \"create\" command to table %s without "
                      "--id option will have no effect", tc->name);
        }
        row = ovsdb_idl_txn_insert(ctx->txn, tc, NULL);
    }
    for (int i = 2; i < ctx->argc; i++) {
        set_column(ctx, tc, row, ctx->argv[i]);
    }
    ds_put_format(ctx->output, UUID_FMT, UUID_ARGS(ovsdb_idl_row_get_uuid(row)));
    vsctl_cache_invalidate(ctx);
}

static void
post_create(struct vsctl_context *ctx)
{
    struct uuid dummy;

    if (!uuid_from_string(&dummy, ds_cstr(ctx->output))) {
        OVS_NOT_REACHED();
    }
    const struct uuid *real = ovsdb_idl_txn_get_insert_uuid(ctx->txn,
                                                            &dummy);
    if (real) {
        ds_clear(ctx->output);
        ds_put_format(ctx->output, UUID_FMT, UUID_ARGS(real));
    }
    ds_put_char(ctx->output, '\n');
}

/* Adds to REFS (as strings) the uuid of every row of TC that some row
 * refers to with a strong reference. */
static void
collect_strong_refs(struct ovsdb_idl *idl,
                    const struct ovsdb_idl_table_class *tc, struct sset *refs)
{
    for (size_t i = 0; i < ovsrec_idl_class.n_tables; i++) {
        const struct ovsdb_idl_table_class *src = &ovsrec_idl_class.tables[i];
        for (size_t j = 0; j < src->n_columns; j++) {
            const struct ovsdb_idl_column *col = &src->columns[j];
            const struct ovsdb_base_type *key = &col->type.key;
            const struct ovsdb_base_type *value = &col->type.value;
            bool in_keys = (ovsdb_base_type_is_strong_ref(key)
                            && !strcmp(key->u.uuid.refTableName, tc->name));
            bool in_values = (ovsdb_base_type_is_strong_ref(value)
                              && !strcmp(value->u.uuid.refTableName,
                                         tc->name));
            if (!in_keys && !in_values) {
                continue;
            }
            for (const struct ovsdb_idl_row *row
                     = ovsdb_idl_first_row(idl, src);
                 row; row = ovsdb_idl_next_row(row)) {
                const struct ovsdb_datum *d = ovsdb_idl_read(row, col);
                for (size_t k = 0; k < d->n; k++) {
                    char s[UUID_LEN + 1];
                    if (in_keys) {
                        uuid_format(&d->keys[k].uuid, s);
                        sset_add(refs, s);
                    }
                    if (in_values) {
                        uuid_format(&d->values[k].uuid, s);
                        sset_add(refs, s);
                    }
                }
            }
        }
    }
}

/* Deletes ROW, unless its uuid is in REFERENCED.  Open vSwitch's ovs-vsctl
 * never asks the server to delete a row of a non-root table: it drops the
 * row from its own view and leaves the rest to the server's garbage
 * collection, so "destroy" of such a row that something still refers to
 * changes nothing and succeeds.  Our IDL would send the delete and the
 * server would refuse it, so such a row is left alone here. */
static void
delete_unless_referenced(const struct ovsdb_idl_row *row,
                         const struct sset *referenced)
{
    char s[UUID_LEN + 1];

    uuid_format(ovsdb_idl_row_get_uuid(row), s);
    if (!sset_contains(referenced, s)) {
        ovsdb_idl_txn_delete(row);
    }
}

static void
cmd_destroy(struct vsctl_context *ctx)
{
    bool must_exist = !shash_find(ctx->options, "--if-exists");
    bool delete_all = shash_find(ctx->options, "--all");
    const struct ovsdb_idl_table_class *tc = get_table(ctx->argv[1]);

    if (delete_all && ctx->argc > 2) {
        vsctl_fatal("--all and records argument should not be specified "
                    "together");
    }
    if (!delete_all && ctx->argc == 2) {
        VLOG_WARN("either --all or records argument should be specified");
        return;
    }

    struct sset referenced = SSET_INITIALIZER(&referenced);
    if (!tc->is_root) {
        collect_strong_refs(ctx->idl, tc, &referenced);
    }
    if (delete_all) {
        const struct ovsdb_idl_row *row, *next;
        for (row = ovsdb_idl_first_row(ctx->idl, tc); row; row = next) {
            next = ovsdb_idl_next_row(row);
            delete_unless_referenced(row, &referenced);
        }
    } else {
        for (int i = 2; i < ctx->argc; i++) {
            const struct ovsdb_idl_row *row = vsctl_get_row(ctx, tc,
                                                            ctx->argv[i],
                                                            must_exist);
            if (row) {
                delete_unless_referenced(row, &referenced);
            }
        }
    }
    sset_destroy(&referenced);
    vsctl_cache_invalidate(ctx);
}

/* comment: does nothing (the command line is the comment). */
static void
cmd_comment(struct vsctl_context *ctx OVS_UNUSED)
{
}

/* wait-until. */

static void
cmd_wait_until(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_table_class *tc = get_table(ctx->argv[1]);
    const struct ovsdb_idl_row *row = vsctl_get_row(ctx, tc, ctx->argv[2],
                                                    false);
    if (!row) {
        ctx->try_again = true;
        return;
    }
    for (int i = 3; i < ctx->argc; i++) {
        if (!is_condition_satisfied(ctx, tc, row, ctx->argv[i])) {
            ctx->try_again = true;
            return;
        }
    }
}

/* Prerequisites: what each command reads and writes, from its arguments.
 * An argument that names no table or column is skipped here and reported
 * when the command runs. */

void
vsctl_need_row_lookup(struct vsctl_context *ctx,
                      const struct ovsdb_idl_table_class *tc)
{
    vsctl_need_table(ctx, tc);
    for (size_t i = 0; i < ARRAY_SIZE(row_ids); i++) {
        const struct row_id *id = &row_ids[i];
        if (strcmp(id->table, tc->name)) {
            continue;
        }
        const struct ovsdb_idl_table_class *name_tc
            = vsctl_table(id->name_table);
        vsctl_need_table(ctx, name_tc);
        if (id->name_column) {
            vsctl_need_column(ctx, vsctl_column(name_tc, id->name_column));
        }
        if (id->ref_column) {
            vsctl_need_column(ctx, vsctl_column(name_tc, id->ref_column));
        }
    }
}

/* The table that argument IDX names, or NULL. */
static const struct ovsdb_idl_table_class *
pre_table(struct vsctl_context *ctx, int idx)
{
    char *error;
    const struct ovsdb_idl_table_class *tc = find_table(ctx->argv[idx],
                                                        &error);
    free(error);
    return tc;
}

/* Needs the column of TC called NAME (as find_column() reads it). */
static void
pre_column(struct vsctl_context *ctx, const struct ovsdb_idl_table_class *tc,
           const char *name)
{
    char *error;
    const struct ovsdb_idl_column *column = find_column(tc, name, &error);

    if (column) {
        vsctl_need_column(ctx, column);
    }
    free(error);
}

/* Needs the column that a "COLUMN[:KEY][OPERATOR VALUE]" argument names
 * (as parse_column_key_value() reads it). */
static void
pre_arg_column(struct vsctl_context *ctx,
               const struct ovsdb_idl_table_class *tc, const char *arg)
{
    const char *rest;
    char *name;
    char *error = parse_arg_column_name(arg, &name, &rest);

    if (!error) {
        pre_column(ctx, tc, name);
    }
    free(name);
    free(error);
}

void
vsctl_need_set_columns(struct vsctl_context *ctx,
                       const struct ovsdb_idl_table_class *tc,
                       char *const *args, int n_args)
{
    for (int i = 0; i < n_args; i++) {
        pre_arg_column(ctx, tc, args[i]);
    }
}

/* The columns "list" and "find" print: --columns, or all of them. */
static void
pre_list_columns(struct vsctl_context *ctx,
                 const struct ovsdb_idl_table_class *tc)
{
    const char *spec = shash_find_data(ctx->options, "--columns");

    vsctl_need_table(ctx, tc);
    if (!spec) {
        vsctl_need_all_columns(ctx, tc);
        return;
    }
    char *copy = xstrdup(spec);
    char *save = NULL;
    for (char *name = strtok_r(copy, ", ", &save); name;
         name = strtok_r(NULL, ", ", &save)) {
        if (!is_uuid_column_name(name)) {
            pre_column(ctx, tc, name);
        }
    }
    free(copy);
}

static void
pre_cmd_get(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_table_class *tc = pre_table(ctx, 1);
    if (tc) {
        vsctl_need_row_lookup(ctx, tc);
        for (int i = 3; i < ctx->argc; i++) {
            if (!is_uuid_column_name(ctx->argv[i])) {
                pre_arg_column(ctx, tc, ctx->argv[i]);
            }
        }
    }
}

static void
pre_cmd_list(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_table_class *tc = pre_table(ctx, 1);
    if (tc) {
        if (ctx->argc > 2) {
            vsctl_need_row_lookup(ctx, tc);
        }
        pre_list_columns(ctx, tc);
    }
}

static void
pre_cmd_find(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_table_class *tc = pre_table(ctx, 1);
    if (tc) {
        pre_list_columns(ctx, tc);
        vsctl_need_set_columns(ctx, tc, &ctx->argv[2], ctx->argc - 2);
    }
}

/* set, wait-until: a row, then "COLUMN[:KEY]..." arguments. */
static void
pre_row_and_column_args(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_table_class *tc = pre_table(ctx, 1);
    if (tc) {
        vsctl_need_row_lookup(ctx, tc);
        vsctl_need_set_columns(ctx, tc, &ctx->argv[3], ctx->argc - 3);
    }
}

/* add, remove: a row and one column. */
static void
pre_cmd_add_remove(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_table_class *tc = pre_table(ctx, 1);
    if (tc) {
        vsctl_need_row_lookup(ctx, tc);
        pre_column(ctx, tc, ctx->argv[3]);
    }
}

static void
pre_cmd_clear(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_table_class *tc = pre_table(ctx, 1);
    if (tc) {
        vsctl_need_row_lookup(ctx, tc);
        for (int i = 3; i < ctx->argc; i++) {
            pre_column(ctx, tc, ctx->argv[i]);
        }
    }
}

static void
pre_cmd_create(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_table_class *tc = pre_table(ctx, 1);
    if (tc) {
        vsctl_need_table(ctx, tc);
        vsctl_need_set_columns(ctx, tc, &ctx->argv[2], ctx->argc - 2);
    }
}

/* destroy also reads every strong reference to the table's rows (see
 * collect_strong_refs()). */
static void
pre_cmd_destroy(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_table_class *tc = pre_table(ctx, 1);
    if (!tc) {
        return;
    }
    vsctl_need_row_lookup(ctx, tc);
    if (tc->is_root) {
        return;
    }
    for (size_t i = 0; i < ovsrec_idl_class.n_tables; i++) {
        const struct ovsdb_idl_table_class *src = &ovsrec_idl_class.tables[i];
        for (size_t j = 0; j < src->n_columns; j++) {
            const struct ovsdb_idl_column *col = &src->columns[j];
            const struct ovsdb_base_type *key = &col->type.key;
            const struct ovsdb_base_type *value = &col->type.value;
            if ((ovsdb_base_type_is_strong_ref(key)
                 && !strcmp(key->u.uuid.refTableName, tc->name))
                || (ovsdb_base_type_is_strong_ref(value)
                    && !strcmp(value->u.uuid.refTableName, tc->name))) {
                vsctl_need_column(ctx, col);
            }
        }
    }
}

const struct vsctl_command_syntax vsctl_db_commands[] = {
    {"comment", 0, INT_MAX, "[ARG]...", NULL, cmd_comment, NULL, "", false},
    {"get", 2, INT_MAX, "TABLE RECORD [COLUMN[:KEY]]...", pre_cmd_get,
     cmd_get, NULL, "--if-exists,--id=", false},
    {"list", 1, INT_MAX, "TABLE [RECORD]...", pre_cmd_list, cmd_list, NULL,
     "--if-exists,--columns=", false},
    {"find", 1, INT_MAX, "TABLE [COLUMN[:KEY]=VALUE]...", pre_cmd_find,
     cmd_find, NULL, "--columns=", false},
    {"set", 3, INT_MAX, "TABLE RECORD COLUMN[:KEY]=VALUE...",
     pre_row_and_column_args, cmd_set, NULL, "--if-exists", true},
    {"add", 4, INT_MAX, "TABLE RECORD COLUMN [KEY=]VALUE...",
     pre_cmd_add_remove, cmd_add, NULL, "--if-exists", true},
    {"remove", 4, INT_MAX, "TABLE RECORD COLUMN KEY|VALUE|KEY=VALUE...",
     pre_cmd_add_remove, cmd_remove, NULL, "--if-exists", true},
    {"clear", 3, INT_MAX, "TABLE RECORD COLUMN...", pre_cmd_clear,
     cmd_clear, NULL, "--if-exists", true},
    {"create", 2, INT_MAX, "TABLE COLUMN[:KEY]=VALUE...", pre_cmd_create,
     cmd_create, post_create, "--id=", true},
    {"destroy", 1, INT_MAX, "TABLE [RECORD]...", pre_cmd_destroy,
     cmd_destroy, NULL, "--if-exists,--all", true},
    {"wait-until", 2, INT_MAX, "TABLE RECORD [COLUMN[:KEY]=VALUE]...",
     pre_row_and_column_args, cmd_wait_until, NULL, "", false},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, false},
};
