#include <config.h>
#include "execution.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "condition.h"
#include "hash.h"
#include "hmap.h"
#include "mutation.h"
#include "ovsdb.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "query.h"
#include "rbac.h"
#include "row.h"
#include "server.h"
#include "table.h"
#include "transaction.h"
#include "util.h"

/* Picking the members out of one operation.
 *
 * Errors about the shape of an operation (a member missing, of the wrong
 * JSON type, or unexpected; an unknown table or operation) read
 * "Parsing ovsdb operation I of N failed: ..." and quote the whole
 * operation, exactly as Open vSwitch words them, since clients show them
 * to users.  Only the first is kept. */

enum member_type {
    M_BOOLEAN = 1 << 0,
    M_NUMBER = 1 << 1,
    M_STRING = 1 << 2,
    M_ID = 1 << 3,              /* A string that is a valid identifier. */
    M_ARRAY = 1 << 4,
    M_OBJECT = 1 << 5,
    M_OPTIONAL = 1 << 6
};

struct op_parser {
    const json_t *json;         /* The operation, NULL if not an object. */
    size_t index, n_ops;        /* For messages: "operation I of N". */
    const char **used;          /* Names of members asked for. */
    size_t n_used;
    struct ovsdb_error *error;
};

static void
op_parser_raise(struct op_parser *p, const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3);

static void
op_parser_raise(struct op_parser *p, const char *format, ...)
{
    if (p->error) {
        return;
    }

    va_list args;
    va_start(args, format);
    char *message = xvasprintf(format, args);
    va_end(args);

    p->error = ovsdb_syntax_error(p->json, NULL,
                                  "Parsing ovsdb operation %zu of %zu "
                                  "failed: %s", p->index, p->n_ops, message);
    free(message);
}

static void
op_parser_init(struct op_parser *p, const json_t *json, size_t index,
               size_t n_ops)
{
    p->json = json_is_object(json) ? json : NULL;
    p->index = index;
    p->n_ops = n_ops;
    p->used = xmalloc((json_is_object(json) ? json_object_size(json) : 0)
                      * sizeof *p->used + 1);
    p->n_used = 0;
    p->error = NULL;
    if (!p->json) {
        op_parser_raise(p, "Object expected.");
    }
}

static bool
is_of_type(const json_t *value, enum member_type types)
{
    switch (json_typeof(value)) {
    case JSON_TRUE:
    case JSON_FALSE:
        return types & M_BOOLEAN;
    case JSON_INTEGER:
    case JSON_REAL:
        return types & M_NUMBER;
    case JSON_STRING:
        return (types & M_STRING
                || (types & M_ID
                    && ovsdb_is_valid_id(json_string_value(value))));
    case JSON_ARRAY:
        return types & M_ARRAY;
    case JSON_OBJECT:
        return types & M_OBJECT;
    case JSON_NULL:
    default:
        return false;
    }
}

static const json_t *
op_parser_member(struct op_parser *p, const char *name,
                 enum member_type types)
{
    if (p->error) {
        return NULL;
    }

    const json_t *value = json_object_get(p->json, name);
    if (!value) {
        if (!(types & M_OPTIONAL)) {
            op_parser_raise(p, "Required '%s' member is missing.", name);
        }
        return NULL;
    }
    if (!is_of_type(value, types)) {
        op_parser_raise(p, "Type mismatch for member '%s'.", name);
        return NULL;
    }
    for (size_t i = 0; i < p->n_used; i++) {
        if (!strcmp(p->used[i], name)) {
            return value;
        }
    }
    p->used[p->n_used++] = name;
    return value;
}

/* Complains about members nobody asked for. */
static void
op_parser_check_unused(struct op_parser *p)
{
    size_t n_unused = json_object_size(p->json) - p->n_used;
    const char *first = NULL;
    const char *key;
    json_t *value;

    if (p->error || !n_unused) {
        return;
    }
    json_object_foreach ((json_t *) p->json, key, value) {
        bool used = false;
        for (size_t i = 0; i < p->n_used && !used; i++) {
            used = !strcmp(p->used[i], key);
        }
        if (!used) {
            first = key;
            break;
        }
    }
    if (n_unused == 1) {
        op_parser_raise(p, "Member '%s' is present but not allowed here.",
                        first);
    } else {
        op_parser_raise(p, "Member '%s' and %zu other member%s are present "
                        "but not allowed here.", first, n_unused - 1,
                        n_unused > 2 ? "s" : "");
    }
}

static void
op_parser_destroy(struct op_parser *p)
{
    free(p->used);
    ovsdb_error_destroy(p->error);
}

/* The "table" member, looked up in DB. */
static struct ovsdb_table *
parse_table(const struct ovsdb *db, struct op_parser *p)
{
    const json_t *json = op_parser_member(p, "table", M_ID);
    if (!json) {
        return NULL;
    }

    struct ovsdb_table *table = ovsdb_get_table(db, json_string_value(json));
    if (!table) {
        op_parser_raise(p, "No table named %s.", json_string_value(json));
    }
    return table;
}

/* Executing operations. */

struct execution {
    struct ovsdb *db;
    const struct ovsdb_session *session;
    struct ovsdb_rbac_client client;    /* From SESSION, for RBAC. */
    struct ovsdb_txn *txn;
    struct ovsdb_symbol_table *symtab;
    bool durable;

    long long int elapsed_msec;
    long long int timeout_msec;         /* Earliest "wait" timeout. */
    bool blocked;                       /* A "wait" must be retried. */
};

typedef struct ovsdb_error *executor_func(struct execution *,
                                          struct op_parser *,
                                          json_t *result);

static struct ovsdb_error *
execute_insert(struct execution *x, struct op_parser *p, json_t *result)
{
    struct ovsdb_table *table = parse_table(x->db, p);
    const json_t *uuid_name = op_parser_member(p, "uuid-name",
                                               M_ID | M_OPTIONAL);
    const json_t *uuid_json = op_parser_member(p, "uuid",
                                               M_STRING | M_OPTIONAL);
    const json_t *row_json = op_parser_member(p, "row", M_OBJECT);
    if (p->error) {
        return NULL;
    }

    struct uuid uuid;
    if (uuid_json) {
        if (!uuid_from_string(&uuid, json_string_value(uuid_json))) {
            return ovsdb_syntax_error(uuid_json, NULL, "bad uuid");
        }
        if (!ovsdb_txn_may_create_row(table, &uuid)) {
            return ovsdb_syntax_error(uuid_json, "duplicate uuid",
                                      "This UUID would duplicate a UUID "
                                      "already present within the table or "
                                      "deleted within the same "
                                      "transaction.");
        }
    } else {
        uuid_generate(&uuid);
    }

    if (uuid_name) {
        const char *name = json_string_value(uuid_name);
        struct ovsdb_symbol *symbol = ovsdb_symbol_table_get(x->symtab,
                                                             name);
        if (!symbol) {
            symbol = ovsdb_symbol_table_put(x->symtab, name, &uuid, true);
        } else if (symbol->created) {
            return ovsdb_syntax_error(uuid_name, "duplicate uuid-name",
                                      "This \"uuid-name\" appeared on an "
                                      "earlier \"insert\" operation.");
        } else {
            /* Named earlier as a reference: the row takes the uuid that
             * those references already use, unless one was asked for. */
            if (uuid_json) {
                symbol->uuid = uuid;
            } else {
                uuid = symbol->uuid;
            }
        }
        symbol->created = true;
    }

    struct ovsdb_row *row = ovsdb_row_create(table);
    struct ovsdb_error *error = ovsdb_row_from_json(row, row_json, x->symtab,
                                                    NULL);
    *ovsdb_row_get_uuid_rw(row) = uuid;
    for (size_t i = 0; !error && i < table->schema->n_columns; i++) {
        const struct ovsdb_column *column = table->schema->columns_by_index[i];
        error = ovsdb_datum_check_constraints(&row->fields[i],
                                              &column->type);
    }
    if (!error) {
        error = ovsdb_rbac_insert(x->db, table, row, &x->client);
    }
    if (error) {
        ovsdb_row_destroy(row);
        return error;
    }

    ovsdb_txn_row_insert(x->txn, row);
    char *s = uuid_to_string(&uuid);
    json_object_set_new(result, "uuid", json_pack("[s, s]", "uuid", s));
    free(s);
    return NULL;
}

static struct ovsdb_error *
execute_select(struct execution *x, struct op_parser *p, json_t *result)
{
    struct ovsdb_table *table = parse_table(x->db, p);
    const json_t *where = op_parser_member(p, "where", M_ARRAY);
    const json_t *columns_json = op_parser_member(p, "columns",
                                                  M_ARRAY | M_OPTIONAL);
    const json_t *sort_json = op_parser_member(p, "sort",
                                               M_ARRAY | M_OPTIONAL);
    if (p->error) {
        return NULL;
    }

    struct ovsdb_condition cnd = OVSDB_CONDITION_INITIALIZER;
    struct ovsdb_column_set columns = OVSDB_COLUMN_SET_INITIALIZER;
    struct ovsdb_column_set sort = OVSDB_COLUMN_SET_INITIALIZER;
    struct ovsdb_error *error;

    error = ovsdb_condition_from_json(table->schema, where, x->symtab, &cnd);
    if (!error) {
        error = ovsdb_column_set_from_json(columns_json, table->schema,
                                           &columns);
    }
    if (!error && sort_json) {
        error = ovsdb_column_set_from_json(sort_json, table->schema, &sort);
    }
    if (!error) {
        struct ovsdb_row_set rows = OVSDB_ROW_SET_INITIALIZER;
        ovsdb_query_distinct(table, &cnd, &columns, &rows);
        /* Without "sort", by uuid: the same contents always give the same
         * output, whatever order the rows were inserted in. */
        ovsdb_row_set_sort(&rows, &sort);
        json_object_set_new(result, "rows",
                            ovsdb_row_set_to_json(&rows, &columns));
        ovsdb_row_set_destroy(&rows);
    }

    ovsdb_column_set_destroy(&sort);
    ovsdb_column_set_destroy(&columns);
    ovsdb_condition_destroy(&cnd);
    return error;
}

static struct ovsdb_error *
execute_update(struct execution *x, struct op_parser *p, json_t *result)
{
    struct ovsdb_table *table = parse_table(x->db, p);
    const json_t *where = op_parser_member(p, "where", M_ARRAY);
    const json_t *row_json = op_parser_member(p, "row", M_OBJECT);
    if (p->error) {
        return NULL;
    }

    struct ovsdb_column_set columns = OVSDB_COLUMN_SET_INITIALIZER;
    struct ovsdb_condition cnd = OVSDB_CONDITION_INITIALIZER;
    struct ovsdb_row *row = ovsdb_row_create(table);
    struct ovsdb_error *error;

    error = ovsdb_row_from_json(row, row_json, x->symtab, &columns);
    for (size_t i = 0; !error && i < columns.n_columns; i++) {
        const struct ovsdb_column *column = columns.columns[i];
        if (!column->mutable || column->index < OVSDB_N_STD_COLUMNS) {
            error = ovsdb_syntax_error(p->json, "constraint violation",
                                       "Cannot update immutable column %s "
                                       "in table %s.", column->name,
                                       table->schema->name);
        }
    }
    if (!error) {
        error = ovsdb_condition_from_json(table->schema, where, x->symtab,
                                          &cnd);
    }
    if (!error) {
        struct ovsdb_row_set rows = OVSDB_ROW_SET_INITIALIZER;
        ovsdb_query_row_set(table, &cnd, &rows);
        error = ovsdb_rbac_update(x->db, table, &columns, &rows, &x->client);
        for (size_t i = 0; !error && i < rows.n_rows; i++) {
            if (!ovsdb_row_equal_columns(rows.rows[i], row, &columns)) {
                ovsdb_row_update_columns(
                    ovsdb_txn_row_modify(x->txn, rows.rows[i]), row,
                    &columns);
            }
        }
        if (!error) {
            json_object_set_new(result, "count", json_integer(rows.n_rows));
        }
        ovsdb_row_set_destroy(&rows);
    }

    ovsdb_condition_destroy(&cnd);
    ovsdb_column_set_destroy(&columns);
    ovsdb_row_destroy(row);
    return error;
}

static struct ovsdb_error *
execute_mutate(struct execution *x, struct op_parser *p, json_t *result)
{
    struct ovsdb_table *table = parse_table(x->db, p);
    const json_t *where = op_parser_member(p, "where", M_ARRAY);
    const json_t *mutations_json = op_parser_member(p, "mutations", M_ARRAY);
    if (p->error) {
        return NULL;
    }

    struct ovsdb_mutation_set mutations = { NULL, 0 };
    struct ovsdb_condition cnd = OVSDB_CONDITION_INITIALIZER;
    struct ovsdb_error *error;

    error = ovsdb_mutation_set_from_json(table->schema, mutations_json,
                                         x->symtab, &mutations);
    if (!error) {
        error = ovsdb_condition_from_json(table->schema, where, x->symtab,
                                          &cnd);
    }
    if (!error) {
        struct ovsdb_row_set rows = OVSDB_ROW_SET_INITIALIZER;
        ovsdb_query_row_set(table, &cnd, &rows);
        error = ovsdb_rbac_mutate(x->db, table, &mutations, &rows,
                                  &x->client);
        for (size_t i = 0; !error && i < rows.n_rows; i++) {
            error = ovsdb_mutation_set_execute(
                ovsdb_txn_row_modify(x->txn, rows.rows[i]), &mutations);
        }
        if (!error) {
            json_object_set_new(result, "count", json_integer(rows.n_rows));
        }
        ovsdb_row_set_destroy(&rows);
    }

    ovsdb_condition_destroy(&cnd);
    ovsdb_mutation_set_destroy(&mutations);
    return error;
}

static struct ovsdb_error *
execute_delete(struct execution *x, struct op_parser *p, json_t *result)
{
    struct ovsdb_table *table = parse_table(x->db, p);
    const json_t *where = op_parser_member(p, "where", M_ARRAY);
    if (p->error) {
        return NULL;
    }

    struct ovsdb_condition cnd = OVSDB_CONDITION_INITIALIZER;
    struct ovsdb_error *error = ovsdb_condition_from_json(
        table->schema, where, x->symtab, &cnd);
    if (!error) {
        struct ovsdb_row_set rows = OVSDB_ROW_SET_INITIALIZER;
        ovsdb_query_row_set(table, &cnd, &rows);
        error = ovsdb_rbac_delete(x->db, table, &rows, &x->client);
        for (size_t i = 0; !error && i < rows.n_rows; i++) {
            ovsdb_txn_row_delete(x->txn, rows.rows[i]);
        }
        if (!error) {
            json_object_set_new(result, "count", json_integer(rows.n_rows));
        }
        ovsdb_row_set_destroy(&rows);
    }
    ovsdb_condition_destroy(&cnd);
    return error;
}

/* "wait" compares sets of rows by their values in some columns: a row
 * hash holds one row for each distinct set of values. */
struct row_hash {
    struct hmap map;
    const struct ovsdb_column_set *columns;
};

struct row_hash_node {
    struct hmap_node node;
    const struct ovsdb_row *row;
};

static void
row_hash_init(struct row_hash *rh, const struct ovsdb_column_set *columns)
{
    hmap_init(&rh->map);
    rh->columns = columns;
}

static void
row_hash_destroy(struct row_hash *rh, bool destroy_rows)
{
    struct row_hash_node *n;
    HMAP_FOR_EACH_POP (n, node, &rh->map) {
        if (destroy_rows) {
            ovsdb_row_destroy((struct ovsdb_row *) n->row);
        }
        free(n);
    }
    hmap_destroy(&rh->map);
}

static bool
row_hash_contains(const struct row_hash *rh, const struct ovsdb_row *row)
{
    uint32_t hash = ovsdb_row_hash_columns(row, rh->columns, 0);
    const struct row_hash_node *n;

    HMAP_FOR_EACH_WITH_HASH (n, node, hash, &rh->map) {
        if (ovsdb_row_equal_columns(n->row, row, rh->columns)) {
            return true;
        }
    }
    return false;
}

/* Adds ROW unless an equal one is there; returns whether it added it. */
static bool
row_hash_insert(struct row_hash *rh, const struct ovsdb_row *row)
{
    if (row_hash_contains(rh, row)) {
        return false;
    }

    struct row_hash_node *n = xmalloc(sizeof *n);
    n->row = row;
    hmap_insert(&rh->map, &n->node, ovsdb_row_hash_columns(row, rh->columns,
                                                           0));
    return true;
}

/* True if every row of B is in A. */
static bool
row_hash_contains_all(const struct row_hash *a, const struct row_hash *b)
{
    const struct row_hash_node *n;
    HMAP_FOR_EACH (n, node, &b->map) {
        if (!row_hash_contains(a, n->row)) {
            return false;
        }
    }
    return true;
}

struct wait_aux {
    struct row_hash *expected;
    struct row_hash *actual;
    bool equal;
};

static bool
wait_query_cb(const struct ovsdb_row *row, void *aux_)
{
    struct wait_aux *aux = aux_;

    if (row_hash_contains(aux->expected, row)) {
        row_hash_insert(aux->actual, row);
        return true;
    }
    /* One unexpected row settles it. */
    aux->equal = false;
    return false;
}

static struct ovsdb_error *
execute_wait(struct execution *x, struct op_parser *p,
             json_t *result OVS_UNUSED)
{
    struct ovsdb_table *table = parse_table(x->db, p);
    const json_t *timeout = op_parser_member(p, "timeout",
                                             M_NUMBER | M_OPTIONAL);
    const json_t *where = op_parser_member(p, "where", M_ARRAY);
    const json_t *columns_json = op_parser_member(p, "columns",
                                                  M_ARRAY | M_OPTIONAL);
    const json_t *until = op_parser_member(p, "until", M_STRING);
    const json_t *rows = op_parser_member(p, "rows", M_ARRAY);
    if (p->error) {
        return NULL;
    }

    struct ovsdb_condition cnd = OVSDB_CONDITION_INITIALIZER;
    struct ovsdb_column_set columns = OVSDB_COLUMN_SET_INITIALIZER;
    long long int timeout_msec = LLONG_MAX;
    struct ovsdb_error *error;

    error = ovsdb_condition_from_json(table->schema, where, x->symtab, &cnd);
    if (!error) {
        error = ovsdb_column_set_from_json(columns_json, table->schema,
                                           &columns);
    }
    if (!error && timeout) {
        double t = json_number_value(timeout);
        if (t < 0) {
            error = ovsdb_syntax_error(timeout, NULL,
                                       "timeout must be nonnegative");
        } else {
            timeout_msec = t >= (double) LLONG_MAX ? LLONG_MAX : t;
            x->timeout_msec = MIN(x->timeout_msec, timeout_msec);
        }
    }
    const char *until_s = until ? json_string_value(until) : "";
    if (!error && strcmp(until_s, "==") && strcmp(until_s, "!=")) {
        error = ovsdb_syntax_error(until, NULL,
                                   "\"until\" must be \"==\" or \"!=\"");
    }

    struct row_hash expected, actual;
    row_hash_init(&expected, &columns);
    row_hash_init(&actual, &columns);
    for (size_t i = 0; !error && i < json_array_size(rows); i++) {
        struct ovsdb_row *row = ovsdb_row_create(table);
        error = ovsdb_row_from_json(row, json_array_get(rows, i), x->symtab,
                                    NULL);
        if (error || !row_hash_insert(&expected, row)) {
            ovsdb_row_destroy(row);
        }
    }

    if (!error) {
        struct wait_aux aux = { &expected, &actual, true };
        ovsdb_query(table, &cnd, wait_query_cb, &aux);
        if (aux.equal) {
            aux.equal = row_hash_contains_all(&actual, &expected);
        }

        if ((!strcmp(until_s, "==")) != aux.equal) {
            if (!timeout_msec) {
                error = ovsdb_error("timed out",
                                    "\"where\" clause test failed");
            } else if (x->elapsed_msec >= timeout_msec) {
                error = (x->elapsed_msec
                         ? ovsdb_error("timed out", "\"wait\" timed out "
                                       "after %lld ms", x->elapsed_msec)
                         : ovsdb_error("timed out",
                                       "\"where\" clause test failed"));
            } else {
                /* Not yet: the caller retries after the next commit. */
                x->blocked = true;
                error = ovsdb_error("not supported",
                                    "triggers not supported");
            }
        }
    }

    row_hash_destroy(&actual, false);
    row_hash_destroy(&expected, true);
    ovsdb_column_set_destroy(&columns);
    ovsdb_condition_destroy(&cnd);
    return error;
}

static struct ovsdb_error *
execute_commit(struct execution *x, struct op_parser *p,
               json_t *result OVS_UNUSED)
{
    const json_t *durable = op_parser_member(p, "durable", M_BOOLEAN);
    if (durable && json_is_true(durable)) {
        x->durable = true;
    }
    return NULL;
}

static struct ovsdb_error *
execute_abort(struct execution *x OVS_UNUSED, struct op_parser *p OVS_UNUSED,
              json_t *result OVS_UNUSED)
{
    return ovsdb_error("aborted", "aborted by request");
}

static struct ovsdb_error *
execute_comment(struct execution *x, struct op_parser *p,
                json_t *result OVS_UNUSED)
{
    const json_t *comment = op_parser_member(p, "comment", M_STRING);
    if (comment) {
        ovsdb_txn_add_comment(x->txn, json_string_value(comment));
    }
    return NULL;
}

static struct ovsdb_error *
execute_assert(struct execution *x, struct op_parser *p,
               json_t *result OVS_UNUSED)
{
    const json_t *lock = op_parser_member(p, "lock", M_ID);
    if (!lock) {
        return NULL;
    }

    const char *name = json_string_value(lock);
    if (!x->session || !ovsdb_session_holds_lock(x->session, name)) {
        return ovsdb_error("not owner", "Asserted lock %s not held.", name);
    }
    return NULL;
}

struct operation {
    const char *name;
    executor_func *execute;
    bool read_only;             /* Allowed on a read-only connection. */
};

static const struct operation operations[] = {
    { "insert", execute_insert, false },
    { "select", execute_select, true },
    { "update", execute_update, false },
    { "mutate", execute_mutate, false },
    { "delete", execute_delete, false },
    { "wait", execute_wait, true },
    { "commit", execute_commit, false },
    { "abort", execute_abort, true },
    { "comment", execute_comment, true },
    { "assert", execute_assert, true },
};

static const struct operation *
lookup_operation(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(operations); i++) {
        if (!strcmp(operations[i].name, name)) {
            return &operations[i];
        }
    }
    return NULL;
}

/* Runs operation number INDEX (of N_OPS) and returns its error or NULL,
 * with its result in *RESULTP. */
static struct ovsdb_error *
execute_operation(struct execution *x, const json_t *json, size_t index,
                  size_t n_ops, bool read_only, json_t **resultp)
{
    struct op_parser p;
    struct ovsdb_error *error = NULL;
    json_t *result = json_object();

    op_parser_init(&p, json, index, n_ops);
    const json_t *op_name = op_parser_member(&p, "op", M_ID);
    const struct operation *op = NULL;
    if (op_name) {
        op = lookup_operation(json_string_value(op_name));
        if (op) {
            error = op->execute(x, &p, result);
        } else {
            op_parser_raise(&p, "No operation \"%s\"",
                            json_string_value(op_name));
        }
    }

    /* A problem with the operation's shape wins over anything else. */
    if (p.error) {
        ovsdb_error_destroy(error);
        error = p.error;
        p.error = NULL;
    } else if (!error) {
        op_parser_check_unused(&p);
        error = p.error;
        p.error = NULL;
    }
    op_parser_destroy(&p);

    if (!error && !op->read_only) {
        /* Databases whose names start with "_" (the server's own "_Server")
         * are the server's to write, never a client's. */
        if (x->db->name[0] == '_') {
            error = ovsdb_error("not allowed", "%s operation not allowed on "
                                "table in reserved database %s",
                                op->name, x->db->name);
        } else if (read_only) {
            error = ovsdb_error("not allowed", "%s operation not allowed "
                                "when database server is in read only mode",
                                op->name);
        }
    }
    if (error) {
        json_decref(result);
        result = NULL;
    }
    *resultp = result;
    return error;
}

json_t *
ovsdb_execute(struct ovsdb *db, const struct ovsdb_session *session,
              const json_t *params, bool read_only,
              long long int elapsed_msec, long long int *timeout_msec,
              bool *durable, struct ovsdb_txn **txnp)
{
    *txnp = NULL;
    if (durable) {
        *durable = false;
    }
    if (timeout_msec) {
        *timeout_msec = LLONG_MAX;
    }

    if (!json_is_array(params)) {
        return ovsdb_error_to_json_free(
            ovsdb_syntax_error(params, NULL, "array expected"));
    }
    const json_t *db_name = json_array_get(params, 0);
    if (!json_is_string(db_name)
        || strcmp(json_string_value(db_name), db->schema->name)) {
        return ovsdb_error_to_json_free(
            ovsdb_syntax_error(params, NULL,
                               "database name expected as first parameter"));
    }

    struct execution x = {
        .db = db,
        .session = session,
        .client = {
            .role = session ? session->rbac_role : NULL,
            .id = session ? session->rbac_id : NULL,
        },
        .txn = ovsdb_txn_create(db),
        .symtab = ovsdb_symbol_table_create(),
        .durable = false,
        .elapsed_msec = elapsed_msec,
        .timeout_msec = LLONG_MAX,
        .blocked = false,
    };
    size_t n_ops = json_array_size(params) - 1;
    json_t *results = json_array();
    struct ovsdb_error *error = NULL;

    for (size_t i = 1; i <= n_ops; i++) {
        json_t *result;
        error = execute_operation(&x, json_array_get(params, i), i, n_ops,
                                  read_only, &result);
        if (error) {
            break;
        }
        json_array_append_new(results, result);
    }
    ovsdb_symbol_table_destroy(x.symtab);

    if (!error) {
        *txnp = x.txn;
        if (durable) {
            *durable = x.durable;
        }
        return results;
    }

    ovsdb_txn_abort(x.txn);
    if (x.blocked && timeout_msec) {
        ovsdb_error_destroy(error);
        json_decref(results);
        *timeout_msec = x.timeout_msec;
        return NULL;
    }

    /* The failed operation's result is its error; those after it never
     * ran and get null, so that there is one result per operation. */
    json_array_append_new(results, ovsdb_error_to_json_free(error));
    while (json_array_size(results) < n_ops) {
        json_array_append_new(results, json_null());
    }
    return results;
}
