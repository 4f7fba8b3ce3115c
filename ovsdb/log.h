/* ovsdb-log: the append-only record file under every standalone database.
 *
 * A database file is a sequence of records.  Each record is one JSON value
 * framed the way Open vSwitch frames it, so that their tools read our files
 * and ours read theirs:
 *
 *     MAGIC SP LENGTH SP SHA1 LF
 *     BODY
 *
 * MAGIC is "OVSDB JSON" for a standalone database (clustered databases use
 * "OVSDB CLUSTER"; we recognize that magic but do not implement the format),
 * LENGTH is the decimal size of BODY in bytes, SHA1 is the lowercase hex
 * SHA-1 of BODY, and BODY is compact JSON followed by a single LF, which
 * counts in LENGTH and in the digest.
 *
 * Reading
 * -------
 *
 * ovsdb_log_read() returns the records in order and then NULL.  A file that
 * ends in a torn or damaged record (a crash in the middle of a write, a disk
 * that lost the last sector: bad header, short body, checksum mismatch,
 * unparsable JSON) is not an error: everything before the damage is
 * returned, the damage is reported by a single warning that names the file
 * and the offset, and the log behaves as if the file ended there.  Only a
 * real I/O failure (read() itself failing) is returned as an error, because
 * then we do not know what the rest of the file holds and must not throw it
 * away.
 *
 * Writing
 * -------
 *
 * Writing starts where reading stopped, so a caller reads the whole log
 * first (ovsdb_log_read() until NULL) and then appends.  The first write
 * after a damaged tail truncates the damage away.  ovsdb_log_write() hands a
 * record to the kernel; ovsdb_log_commit_block() makes every record written
 * so far durable (fsync), which is what a "durable" commit waits for.  A
 * write that fails half way is rolled back by truncating the file to where
 * the record started, so a failed write never leaves a torn record behind
 * while the process is still running.
 *
 * Locking
 * -------
 *
 * A log opened for writing is protected by an advisory lock (fcntl) on a
 * lock file ".NAME.~lock~" next to it, the same file and the same kind of
 * lock Open vSwitch uses, so neither two of our servers nor one of ours and
 * one of theirs can write one database at once.  A second open of the same
 * file within one process fails too.  Read-only opens do not lock by
 * default, so "ovsdb-tool query" works while a server runs.
 *
 * Compaction
 * ----------
 *
 * ovsdb_log_replace() writes a complete new contents (a snapshot) to
 * "NAME.tmp", fsyncs it, renames it over NAME and fsyncs the directory: at
 * every instant the file NAME is either the complete old log or the
 * complete new one.  The log then continues appending to the new file.
 * ovsdb_log_grew_lots() tells a caller when the file has grown enough since
 * the last snapshot for another one to be worth it.
 *
 * Memory: a struct ovsdb_log is owned by whoever opened it and released
 * with ovsdb_log_close().  JSON returned by ovsdb_log_read() is a new
 * reference the caller owns; JSON passed to ovsdb_log_write() is borrowed.
 * Errors (struct ovsdb_error *) are owned by the caller.
 *
 * A log is not thread-safe: one thread uses it at a time.
 */
#ifndef OVSDB_LOG_H
#define OVSDB_LOG_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "util.h"

struct ovsdb_error;
struct ovsdb_log;

/* The magic of standalone database files. */
#define OVSDB_MAGIC "OVSDB JSON"
/* The magic of Open vSwitch's clustered database files (recognized so that
 * we can say what a file is; the format itself is not supported). */
#define RAFT_MAGIC "OVSDB CLUSTER"

enum ovsdb_log_open_mode {
    OVSDB_LOG_READ_ONLY,        /* Open existing file, read only. */
    OVSDB_LOG_READ_WRITE,       /* Open existing file for reading, then
                                 * appending. */
    OVSDB_LOG_CREATE_EXCL,      /* Create a new file; fail if it exists. */
    OVSDB_LOG_CREATE            /* Create a new file, truncating any file
                                 * of that name. */
};

/* Opens the log NAME.
 *
 * MAGIC is the magic the caller accepts, or several separated by '|'
 * ("OVSDB JSON|OVSDB CLUSTER").  A newly created file gets the first one.
 * For an existing file the magic is taken from its first record header; a
 * file with no complete first header (e.g. empty) is accepted with the first
 * magic when opened for writing.  ovsdb_log_get_magic() says which one
 * applies.
 *
 * LOCKING: 1 to lock, 0 not to, -1 to lock exactly when MODE allows writes.
 *
 * On success stores the new log in *LOGP and returns NULL; on failure stores
 * NULL and returns an error. */
struct ovsdb_error *ovsdb_log_open(const char *name, const char *magic,
                                   enum ovsdb_log_open_mode mode,
                                   int locking, struct ovsdb_log **logp)
    OVS_WARN_UNUSED_RESULT;
void ovsdb_log_close(struct ovsdb_log *);

const char *ovsdb_log_get_name(const struct ovsdb_log *);
const char *ovsdb_log_get_magic(const struct ovsdb_log *);

/* Reads the next record into *JSONP (a new reference; NULL at the end of
 * the log, including the end made by a damaged tail).  Returns NULL, or an
 * error for an I/O failure, after which *JSONP is NULL and further reads
 * return the same failure. */
struct ovsdb_error *ovsdb_log_read(struct ovsdb_log *, json_t **jsonp)
    OVS_WARN_UNUSED_RESULT;

/* Makes the record just read part of a damaged tail after all, because
 * WHY (not freed) says its contents cannot be used: reading ends, and the
 * next write removes that record and everything after it, as for a
 * record that failed its checksum.  Only right after ovsdb_log_read()
 * returned a record. */
void ovsdb_log_unread(struct ovsdb_log *, const struct ovsdb_error *why);

/* True if reading stopped at a damaged tail (which the next write removes).
 * ovsdb_log_get_tail_bytes() is its size in bytes (0 when intact). */
bool ovsdb_log_has_damaged_tail(const struct ovsdb_log *);
off_t ovsdb_log_get_tail_bytes(const struct ovsdb_log *);

/* Appends JSON as one record (compact JSON, as Open vSwitch writes it).  The
 * record is in the kernel's hands on return but not yet durable; see
 * ovsdb_log_commit_block().  Returns NULL or an error (nothing is left of a
 * record that failed). */
struct ovsdb_error *ovsdb_log_write(struct ovsdb_log *, const json_t *)
    OVS_WARN_UNUSED_RESULT;

/* Appends a record whose body is exactly BODY[0..LEN) (which must be one
 * JSON value followed by "\n"); for tests that need byte-exact records. */
struct ovsdb_error *ovsdb_log_write_raw(struct ovsdb_log *,
                                        const char *body, size_t len)
    OVS_WARN_UNUSED_RESULT;

/* Waits until every record written so far is on stable storage. */
struct ovsdb_error *ovsdb_log_commit_block(struct ovsdb_log *)
    OVS_WARN_UNUSED_RESULT;

/* The offset just past the last good record read or written. */
off_t ovsdb_log_get_offset(const struct ovsdb_log *);

/* Atomically replaces the contents of the log by the N records ENTRIES
 * (borrowed), as described above under "Compaction".  On success the log
 * keeps appending to the new file and the new size becomes the base for
 * ovsdb_log_grew_lots().  On failure the old file is untouched and still in
 * use. */
struct ovsdb_error *ovsdb_log_replace(struct ovsdb_log *,
                                      json_t **entries, size_t n)
    OVS_WARN_UNUSED_RESULT;

/* The offset that ovsdb_log_grew_lots() compares against: the size of the
 * file right after it was opened, created or replaced.  The caller may move
 * it with ovsdb_log_mark_base() (e.g. after it has read the whole file). */
void ovsdb_log_mark_base(struct ovsdb_log *);

/* True if the log has grown to at least 10 MB and at least to twice its
 * base: worth compacting. */
bool ovsdb_log_grew_lots(const struct ovsdb_log *);

/* Computes the SHA-1 of DATA[0..LEN) as 40 lowercase hex digits plus a
 * null terminator in HEX. */
void ovsdb_log_sha1_hex(const void *data, size_t len, char hex[41]);

/* Returns the name of the lock file that protects NAME (".NAME.~lock~" in
 * NAME's directory).  Caller frees. */
char *ovsdb_log_lockfile_name(const char *name);

#endif /* ovsdb/log.h */
