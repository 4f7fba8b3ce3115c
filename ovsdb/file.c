#include <config.h>
#include "file.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "ovsdb.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "ovsdb-types.h"
#include "row.h"
#include "shash.h"
#include "table.h"
#include "timeval.h"
#include "transaction.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_file);

/* Compaction scheduling, as Open vSwitch does it: not more often than every
 * 10 minutes, retried a minute after a failure, and only once enough
 * transactions have piled up. */
#define COMPACT_MIN_MSEC (10 * 60 * 1000)
#define COMPACT_RETRY_MSEC (60 * 1000)
#define COMPACT_MIN_TRANSACTIONS 100

struct ovsdb_file {
    struct ovsdb_observer observer;     /* In db->observers. */
    struct ovsdb *db;
    struct ovsdb_log *log;
    char *file_name;
    long long int next_compact;         /* time_msec() of the next chance. */
    unsigned int n_transactions;        /* Records since open/compaction. */
};

static const struct ovsdb_observer_class ovsdb_file_observer_class;

/* Columns that are stored: everything but _uuid, _version and ephemeral
 * columns. */
static bool
column_is_stored(const struct ovsdb_column *column)
{
    return column->index >= OVSDB_N_STD_COLUMNS && column->persistent;
}

static bool
datum_is_default(const struct ovsdb_datum *datum,
                 const struct ovsdb_type *type)
{
    struct ovsdb_datum def;
    ovsdb_datum_init_default(&def, type);
    bool is_default = ovsdb_datum_equals(datum, &def, type);
    ovsdb_datum_destroy(&def, type);
    return is_default;
}

/* Writing records. */

/* Adds to ROW_JSON every stored column of ROW that differs from its
 * default.  For inserts and snapshots. */
static void
put_full_row(json_t *row_json, const struct ovsdb_row *row)
{
    const struct ovsdb_table_schema *ts = row->table->schema;
    size_t n = ovsdb_table_schema_n_columns(ts);

    for (size_t i = 0; i < n; i++) {
        const struct ovsdb_column *column
            = ovsdb_table_schema_column_by_index(ts, i);
        const struct ovsdb_datum *datum = &row->fields[column->index];
        if (column_is_stored(column)
            && !datum_is_default(datum, &column->type)) {
            json_object_set_new(row_json, column->name,
                                ovsdb_datum_to_json(datum, &column->type));
        }
    }
}

/* Adds to ROW_JSON the difference between OLD and NEW in every stored
 * column, in the "_is_diff" form.  Returns false if no stored column
 * changed. */
static bool
put_row_diff(json_t *row_json, const struct ovsdb_row *old,
             const struct ovsdb_row *new)
{
    const struct ovsdb_table_schema *ts = new->table->schema;
    size_t n = ovsdb_table_schema_n_columns(ts);
    bool changed = false;

    for (size_t i = 0; i < n; i++) {
        const struct ovsdb_column *column
            = ovsdb_table_schema_column_by_index(ts, i);
        const struct ovsdb_type *type = &column->type;
        const struct ovsdb_datum *a = &old->fields[column->index];
        const struct ovsdb_datum *b = &new->fields[column->index];

        if (!column_is_stored(column) || ovsdb_datum_equals(a, b, type)) {
            continue;
        }
        json_t *value;
        if (ovsdb_type_is_composite(&column->type)) {
            struct ovsdb_datum diff;
            struct ovsdb_type dtype = ovsdb_type_for_diff(type);
            ovsdb_datum_diff(&diff, a, b, type);
            value = ovsdb_datum_to_json(&diff, &dtype);
            ovsdb_datum_destroy(&diff, type);
        } else {
            value = ovsdb_datum_to_json(b, type);
        }
        json_object_set_new(row_json, column->name, value);
        changed = true;
    }
    return changed;
}

/* Returns TABLE's member of RECORD, creating it if needed. */
static json_t *
table_member(json_t *record, const char *table)
{
    json_t *member = json_object_get(record, table);
    if (!member) {
        member = json_object();
        json_object_set_new(record, table, member);
    }
    return member;
}

static void
put_uuid_member(json_t *table_json, const struct uuid *uuid, json_t *value)
{
    char name[UUID_LEN + 1];
    uuid_format(uuid, name);
    json_object_set_new(table_json, name, value);
}

/* Adds "_date", "_comment" and "_is_diff" to RECORD. */
static void
put_record_metadata(json_t *record, const char *comment, bool is_diff)
{
    json_object_set_new(record, "_date", json_integer(time_wall_msec()));
    if (is_diff) {
        json_object_set_new(record, "_is_diff", json_true());
    }
    if (comment && *comment) {
        json_object_set_new(record, "_comment", json_string(comment));
    }
}

static bool
txn_change_to_json(const struct ovsdb_row *old, const struct ovsdb_row *new,
                   const unsigned long int *changed OVS_UNUSED, void *record_)
{
    json_t *record = record_;
    const struct ovsdb_row *row = new ? new : old;
    const char *table = row->table->schema->name;

    if (!new) {
        put_uuid_member(table_member(record, table), ovsdb_row_get_uuid(old),
                        json_null());
    } else {
        json_t *row_json = json_object();
        bool write = true;
        if (!old) {
            put_full_row(row_json, new);
        } else {
            write = put_row_diff(row_json, old, new);
        }
        if (write) {
            put_uuid_member(table_member(record, table),
                            ovsdb_row_get_uuid(new), row_json);
        } else {
            json_decref(row_json);
        }
    }
    return true;
}

json_t *
ovsdb_file_txn_to_json(const struct ovsdb_txn *txn, const char *comment)
{
    json_t *record = json_object();
    ovsdb_txn_for_each_change(txn, txn_change_to_json, record);
    if (!json_object_size(record)) {
        json_decref(record);
        return NULL;
    }
    put_record_metadata(record, comment, true);
    return record;
}

json_t *
ovsdb_file_snapshot_to_json(const struct ovsdb *db, const char *comment,
                            bool is_diff)
{
    json_t *record = json_object();
    struct shash_node *node;

    SHASH_FOR_EACH (node, &db->tables) {
        const struct ovsdb_table *table = node->data;
        if (hmap_is_empty(&table->rows)) {
            continue;
        }

        json_t *table_json = json_object();
        const struct ovsdb_row *row;
        HMAP_FOR_EACH (row, hmap_node, &table->rows) {
            json_t *row_json = json_object();
            put_full_row(row_json, row);
            put_uuid_member(table_json, ovsdb_row_get_uuid(row), row_json);
        }
        json_object_set_new(record, node->name, table_json);
    }
    put_record_metadata(record, comment, is_diff);
    return record;
}

/* Reading records. */

static struct ovsdb_error *
table_txn_from_json(struct ovsdb_txn *txn, struct ovsdb_table *table,
                    const json_t *table_json, bool is_diff)
{
    const char *uuid_string;
    json_t *row_json;

    if (!json_is_object(table_json)) {
        return ovsdb_syntax_error(table_json, NULL,
                                  "object expected");
    }
    json_object_foreach ((json_t *) table_json, uuid_string, row_json) {
        struct uuid uuid;
        if (!uuid_from_string(&uuid, uuid_string)) {
            return ovsdb_syntax_error(table_json, NULL,
                                      "\"%s\" is not a valid UUID",
                                      uuid_string);
        }

        const struct ovsdb_row *row = ovsdb_table_get_row(table, &uuid);
        if (json_is_null(row_json)) {
            if (!row) {
                return ovsdb_syntax_error(table_json, "transaction error",
                                          "transaction deletes row "
                                          UUID_FMT " that does not exist",
                                          UUID_ARGS(&uuid));
            }
            ovsdb_txn_row_delete(txn, row);
        } else if (row) {
            struct ovsdb_row *rw_row = ovsdb_txn_row_modify(txn, row);
            struct ovsdb_error *error
                = ovsdb_row_update_from_json(rw_row, row_json, is_diff);
            if (error) {
                return error;
            }
        } else {
            struct ovsdb_row *new = ovsdb_row_create(table);
            *ovsdb_row_get_uuid_rw(new) = uuid;
            struct ovsdb_error *error
                = ovsdb_row_update_from_json(new, row_json, false);
            if (error) {
                ovsdb_row_destroy(new);
                return error;
            }
            ovsdb_txn_row_insert(txn, new);
        }
    }
    return NULL;
}

struct ovsdb_error *
ovsdb_file_txn_from_json(struct ovsdb *db, const json_t *record,
                         struct ovsdb_txn **txnp)
{
    *txnp = NULL;
    if (!json_is_object(record)) {
        return ovsdb_syntax_error(record, NULL, "object expected");
    }

    json_t *is_diff_json = json_object_get(record, "_is_diff");
    bool is_diff = json_is_true(is_diff_json);

    struct ovsdb_txn *txn = ovsdb_txn_create(db);
    const char *table_name;
    json_t *table_json;
    json_object_foreach ((json_t *) record, table_name, table_json) {
        if (table_name[0] == '_') {
            continue;           /* _date, _comment, _is_diff. */
        }
        struct ovsdb_table *table = ovsdb_get_table(db, table_name);
        if (!table) {
            ovsdb_txn_abort(txn);
            return ovsdb_syntax_error(record, "unknown table",
                                      "No table named %s.", table_name);
        }
        struct ovsdb_error *error = table_txn_from_json(txn, table,
                                                        table_json, is_diff);
        if (error) {
            ovsdb_txn_abort(txn);
            return error;
        }
    }

    json_t *comment = json_object_get(record, "_comment");
    if (json_is_string(comment)) {
        ovsdb_txn_add_comment(txn, json_string_value(comment));
    }
    *txnp = txn;
    return NULL;
}

/* Opening and reading files. */

static struct ovsdb_error *
read_schema_record(struct ovsdb_log *log, struct ovsdb_schema **schemap)
{
    json_t *json;
    struct ovsdb_error *error = ovsdb_log_read(log, &json);
    *schemap = NULL;
    if (error) {
        return error;
    }
    if (!json) {
        return ovsdb_io_error(EOF, "%s: database file contains no schema",
                              ovsdb_log_get_name(log));
    }
    error = ovsdb_schema_from_json(json, schemap);
    json_decref(json);
    if (error) {
        return ovsdb_wrap_error(error, "failed to parse \"%s\" as ovsdb "
                                "schema", ovsdb_log_get_name(log));
    }
    return NULL;
}

struct ovsdb_error *
ovsdb_file_read_schema(const char *file_name, struct ovsdb_schema **schemap)
{
    struct ovsdb_log *log;
    struct ovsdb_error *error;

    *schemap = NULL;
    error = ovsdb_log_open(file_name, OVSDB_MAGIC, OVSDB_LOG_READ_ONLY, 0,
                           &log);
    if (!error) {
        error = read_schema_record(log, schemap);
        ovsdb_log_close(log);
    }
    return error;
}

static struct ovsdb_file *
file_attach(struct ovsdb *db, struct ovsdb_log *log, const char *file_name)
{
    struct ovsdb_file *file = xzalloc(sizeof *file);
    file->observer.class = &ovsdb_file_observer_class;
    file->db = db;
    file->log = log;
    file->file_name = xstrdup(file_name);
    file->next_compact = time_msec() + COMPACT_MIN_MSEC;
    file->n_transactions = 0;
    ovsdb_add_observer(db, &file->observer);
    return file;
}

struct ovsdb_error *
ovsdb_file_read(const char *file_name, bool rw, struct ovsdb **dbp,
                struct ovsdb_file **filep)
{
    struct ovsdb_schema *schema;
    struct ovsdb_error *error;
    struct ovsdb_log *log;

    *dbp = NULL;
    if (filep) {
        *filep = NULL;
    }

    error = ovsdb_log_open(file_name, OVSDB_MAGIC,
                           rw ? OVSDB_LOG_READ_WRITE : OVSDB_LOG_READ_ONLY,
                           -1, &log);
    if (error) {
        return error;
    }

    error = read_schema_record(log, &schema);
    if (error) {
        ovsdb_log_close(log);
        return error;
    }

    struct ovsdb *db = ovsdb_create(schema);
    unsigned int n_records = 0;
    for (;;) {
        json_t *json;
        error = ovsdb_log_read(log, &json);
        if (error || !json) {
            break;
        }

        struct ovsdb_txn *txn;
        error = ovsdb_file_txn_from_json(db, json, &txn);
        json_decref(json);
        if (!error) {
            error = ovsdb_txn_commit(txn, false);
        }
        if (error) {
            /* A record that is intact but makes no sense for this schema
             * ends the log like a damaged tail, as in Open vSwitch: the
             * database is what the records before it made, and the next
             * commit overwrites it. */
            ovsdb_log_unread(log, error);
            ovsdb_error_destroy(error);
            error = NULL;
            break;
        }
        n_records++;
    }
    if (error) {
        ovsdb_destroy(db);
        ovsdb_log_close(log);
        return error;
    }

    if (filep) {
        *filep = file_attach(db, log, file_name);
        (*filep)->n_transactions = n_records;
    } else {
        ovsdb_log_close(log);
    }
    *dbp = db;
    return NULL;
}

struct ovsdb_error *
ovsdb_file_create(const char *file_name, const struct ovsdb_schema *schema)
{
    struct ovsdb_log *log;
    struct ovsdb_error *error;

    error = ovsdb_log_open(file_name, OVSDB_MAGIC, OVSDB_LOG_CREATE_EXCL, -1,
                           &log);
    if (error) {
        return error;
    }

    json_t *json = ovsdb_schema_to_json(schema);
    error = ovsdb_log_write(log, json);
    json_decref(json);
    if (!error) {
        error = ovsdb_log_commit_block(log);
    }
    ovsdb_log_close(log);
    if (error) {
        unlink(file_name);
    }
    return error;
}

/* The records of a snapshot of DB: its schema and all its rows. */
static void
snapshot_records(const struct ovsdb *db, const char *comment, bool is_diff,
                 json_t *records[2])
{
    records[0] = ovsdb_schema_to_json(db->schema);
    records[1] = ovsdb_file_snapshot_to_json(db, comment, is_diff);
}

struct ovsdb_error *
ovsdb_file_save_copy(const char *file_name, const char *comment,
                     const struct ovsdb *db)
{
    struct ovsdb_log *log;
    struct ovsdb_error *error;

    /* Build the copy beside its final name and rename it into place, so
     * that a crash never leaves a half-written file under FILE_NAME.  If
     * FILE_NAME is a symbolic link, the file it names is replaced and the
     * link stays. */
    char *target = follow_symlinks(file_name);
    char *tmp_name = xasprintf("%s.tmp", target);
    error = ovsdb_log_open(tmp_name, OVSDB_MAGIC, OVSDB_LOG_CREATE, -1, &log);
    if (error) {
        free(tmp_name);
        free(target);
        return error;
    }

    json_t *records[2];
    snapshot_records(db, comment, false, records);
    for (size_t i = 0; !error && i < ARRAY_SIZE(records); i++) {
        error = ovsdb_log_write(log, records[i]);
    }
    json_decref(records[0]);
    json_decref(records[1]);
    if (!error) {
        error = ovsdb_log_commit_block(log);
    }
    if (!error && rename(tmp_name, target)) {
        error = ovsdb_io_error(errno, "%s: failed to rename to %s",
                               tmp_name, target);
    }
    ovsdb_log_close(log);
    if (error) {
        unlink(tmp_name);
    }
    free(tmp_name);
    free(target);
    return error;
}

/* The storage observer. */

static struct ovsdb_file *
ovsdb_file_cast(struct ovsdb_observer *observer)
{
    ovs_assert(observer->class == &ovsdb_file_observer_class);
    return CONTAINER_OF(observer, struct ovsdb_file, observer);
}

static struct ovsdb_error *
ovsdb_file_commit(struct ovsdb_observer *observer, const struct ovsdb_txn *txn,
                  bool durable)
{
    struct ovsdb_file *file = ovsdb_file_cast(observer);
    json_t *record = ovsdb_file_txn_to_json(txn, ovsdb_txn_get_comment(txn));
    struct ovsdb_error *error = NULL;
    if (record) {
        error = ovsdb_log_write(file->log, record);
        json_decref(record);
    }
    /* Even a durable commit that stored nothing waits for every earlier
     * record to be on disk. */
    if (!error && durable) {
        if (file->db->defer_sync) {
            file->db->sync_pending = true;
        } else {
            error = ovsdb_log_commit_block(file->log);
        }
    }
    if (!error && record) {
        file->n_transactions++;
    }
    return error;
}

static void
file_free(struct ovsdb_file *file)
{
    ovsdb_log_close(file->log);
    free(file->file_name);
    free(file);
}

static void
ovsdb_file_observer_destroy(struct ovsdb_observer *observer)
{
    file_free(ovsdb_file_cast(observer));
}

static struct ovsdb_error *
ovsdb_file_sync(struct ovsdb_observer *observer)
{
    return ovsdb_log_commit_block(ovsdb_file_cast(observer)->log);
}

static const struct ovsdb_observer_class ovsdb_file_observer_class = {
    .commit = ovsdb_file_commit,
    .destroy = ovsdb_file_observer_destroy,
    .sync = ovsdb_file_sync,
};

void
ovsdb_file_close(struct ovsdb_file *file)
{
    if (file) {
        ovsdb_remove_observer(file->db, &file->observer);
        file_free(file);
    }
}

/* Compaction. */

struct ovsdb_error *
ovsdb_file_compact(struct ovsdb_file *file)
{
    long long int start = time_msec();
    off_t old_size = ovsdb_log_get_offset(file->log);

    json_t *records[2];
    snapshot_records(file->db, "compacting database online", true, records);
    struct ovsdb_error *error = ovsdb_log_replace(file->log, records, 2);
    json_decref(records[0]);
    json_decref(records[1]);

    if (error) {
        file->next_compact = time_msec() + COMPACT_RETRY_MSEC;
        return error;
    }

    VLOG_INFO("%s: compacted from %lld to %lld bytes in %lld ms",
              file->file_name, (long long int) old_size,
              (long long int) ovsdb_log_get_offset(file->log),
              time_msec() - start);
    file->next_compact = time_msec() + COMPACT_MIN_MSEC;
    file->n_transactions = 1;
    return NULL;
}

bool
ovsdb_file_should_compact(const struct ovsdb_file *file, long long int now)
{
    return (now >= file->next_compact
            && file->n_transactions >= COMPACT_MIN_TRANSACTIONS
            && ovsdb_log_grew_lots(file->log));
}

long long int
ovsdb_file_next_compact(const struct ovsdb_file *file)
{
    return file->next_compact;
}

const char *
ovsdb_file_get_name(const struct ovsdb_file *file)
{
    return file->file_name;
}

unsigned int
ovsdb_file_get_n_transactions(const struct ovsdb_file *file)
{
    return file->n_transactions;
}
