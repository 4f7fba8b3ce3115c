/* ovsdb-file: a database kept in a standalone Open vSwitch database file.
 *
 * A database file is an ovsdb-log (see log.h) whose first record is the
 * schema and whose every later record is one committed transaction:
 *
 *     {"TABLE": {"ROW-UUID": ROW | null, ...}, ...,
 *      "_date": MSECS-SINCE-EPOCH, "_comment": "...", "_is_diff": true}
 *
 * ROW null deletes the row.  For a row that does not exist yet, ROW holds
 * its columns that differ from their defaults.  For an existing row, ROW
 * holds its changed columns; with "_is_diff" (what Open vSwitch 2.15 and
 * later, and we, write) a column whose type allows more than one element
 * holds the difference (for a set, the elements added or removed; for a
 * map, the pairs added, the pairs removed and the keys whose values
 * changed, with the new value), and any other column its new value;
 * without "_is_diff" (older files) every column holds its new value.  We
 * read both forms.  Ephemeral columns, _uuid and _version are never
 * written.
 *
 * Using it
 * --------
 *
 * A server opens a database with ovsdb_file_read(..., rw = true, &db,
 * &file): the schema and the transactions are replayed into a new struct
 * ovsdb, and a storage observer is attached to it, so that from then on
 * every ovsdb_txn_commit() on the database appends one record (and, for a
 * durable commit, fsyncs before the commit returns; a failed write fails
 * the commit).  Every so often the server asks ovsdb_file_should_compact()
 * and, when it says so (or an operator asks), calls ovsdb_file_compact(),
 * which atomically replaces the file by the schema plus one record holding
 * every row.
 *
 * Tools use ovsdb_file_read() with FILEP = NULL for a read-only copy,
 * ovsdb_file_read_schema() for just the schema, ovsdb_file_create() for a
 * new database and ovsdb_file_save_copy() to write a compacted or converted
 * copy.
 *
 * Ownership: ovsdb_file_read() gives the caller the struct ovsdb.  The
 * struct ovsdb_file, once attached, belongs to the database: destroying the
 * database (ovsdb_destroy()) also closes the file and frees the struct
 * ovsdb_file.  ovsdb_file_close() detaches and frees it earlier (the
 * database then stops being written to disk).  JSON returned by functions
 * here is a new reference owned by the caller.
 */
#ifndef OVSDB_FILE_H
#define OVSDB_FILE_H 1

#include <jansson.h>
#include <stdbool.h>
#include "util.h"

struct ovsdb;
struct ovsdb_error;
struct ovsdb_file;
struct ovsdb_schema;
struct ovsdb_txn;

/* Reads FILE_NAME into a new database, stored in *DBP.
 *
 * With RW true the file is opened for writing (and locked); with FILEP
 * non-NULL, a storage observer is attached to the database and returned in
 * *FILEP, so that commits are written to the file.  (RW false with FILEP
 * non-NULL is allowed: commits then fail.)  With FILEP NULL the file is
 * closed once read.
 *
 * A damaged tail is reported with a warning and ignored (and removed by the
 * next write); everything before it is kept.  Returns NULL or an error,
 * after which *DBP (and *FILEP) are NULL. */
struct ovsdb_error *ovsdb_file_read(const char *file_name, bool rw,
                                    struct ovsdb **dbp,
                                    struct ovsdb_file **filep)
    OVS_WARN_UNUSED_RESULT;

/* Reads just the schema (the first record) of database FILE_NAME. */
struct ovsdb_error *ovsdb_file_read_schema(const char *file_name,
                                           struct ovsdb_schema **schemap)
    OVS_WARN_UNUSED_RESULT;

/* Creates a new database file FILE_NAME holding SCHEMA (borrowed) and no
 * data, durably.  Fails if the file exists. */
struct ovsdb_error *ovsdb_file_create(const char *file_name,
                                      const struct ovsdb_schema *schema)
    OVS_WARN_UNUSED_RESULT;

/* Writes DB's schema plus a snapshot of all of its rows to FILE_NAME
 * (replacing any file of that name, atomically), with COMMENT (may be NULL)
 * in the snapshot record.  For "ovsdb-tool compact DB DST" and "convert". */
struct ovsdb_error *ovsdb_file_save_copy(const char *file_name,
                                         const char *comment,
                                         const struct ovsdb *db)
    OVS_WARN_UNUSED_RESULT;

/* Returns the snapshot record of DB: every row, with COMMENT (may be NULL)
 * and the current date.  IS_DIFF adds "_is_diff": true, as Open vSwitch's
 * server does in its snapshots (its ovsdb-tool does not); both mean the
 * same for a snapshot. */
json_t *ovsdb_file_snapshot_to_json(const struct ovsdb *db,
                                    const char *comment, bool is_diff);

/* Returns the record for committing TXN (what the storage observer writes),
 * or NULL if TXN changes nothing that is stored (ephemeral columns only, or
 * nothing at all).  COMMENT may be NULL. */
json_t *ovsdb_file_txn_to_json(const struct ovsdb_txn *txn,
                               const char *comment);

/* Parses RECORD, a transaction record of a file of DB's schema, into a new
 * uncommitted transaction on DB in *TXNP.  Returns NULL or an error. */
struct ovsdb_error *ovsdb_file_txn_from_json(struct ovsdb *db,
                                             const json_t *record,
                                             struct ovsdb_txn **txnp)
    OVS_WARN_UNUSED_RESULT;

/* Compacts FILE now: replaces the file by a snapshot (see above).  Returns
 * NULL or an error (the old file then stays in use). */
struct ovsdb_error *ovsdb_file_compact(struct ovsdb_file *)
    OVS_WARN_UNUSED_RESULT;

/* True if FILE is worth compacting at time NOW (time_msec()): at least 10
 * minutes since it was opened or last compacted (1 minute after a failed
 * attempt), at least 100 transactions written since, and the log has grown
 * to at least 10 MB and at least double its size after the last
 * snapshot. */
bool ovsdb_file_should_compact(const struct ovsdb_file *, long long int now);

/* When ovsdb_file_should_compact() will next consider compacting (a
 * time_msec() value), so that a main loop can wake up for it. */
long long int ovsdb_file_next_compact(const struct ovsdb_file *);

/* The file's name and the number of records written since it was opened or
 * last compacted. */
const char *ovsdb_file_get_name(const struct ovsdb_file *);
unsigned int ovsdb_file_get_n_transactions(const struct ovsdb_file *);

/* Detaches FILE from its database and closes it. */
void ovsdb_file_close(struct ovsdb_file *);

#endif /* ovsdb/file.h */
