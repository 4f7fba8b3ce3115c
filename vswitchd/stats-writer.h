/* stats-writer: counters (Interface statistics, and the spanning trees'
 * Port statistics) written to the database from a thread of their own.
 *
 * Counters move all the time: with BFD on, every tunnel's counters move
 * every interval, so writing them is work that grows with the number of
 * interfaces even while nothing is being configured.  Composing and
 * sending that transaction (JSON for thousands of rows) on the main thread
 * would make its cost follow N instead of change.  So the main thread only
 * hands over the values that moved (a copy per interface, by row uuid);
 * this module's thread keeps the newest values per row and column, and writes
 * them in one "transact" of "update"s over a database
 * connection of its own, with at most one transaction in flight: when the
 * server is slow, newer values replace older ones instead of queueing.
 *
 * The thread writes only what the main thread hands it, and the main thread
 * hands over only while it holds the database lock, so a second daemon
 * never has its counters overwritten.  A row deleted meanwhile makes its
 * update match nothing, which is not an error.  When the connection is
 * made again, whatever was in flight may be lost: stats_writer_get_seqno()
 * changes, and the caller hands over every interface's counters again.
 *
 * Threads: every function is for the thread that created the writer (the
 * main thread).  Memory: stats_writer_put() copies what it is given.
 */
#ifndef VSWITCHD_STATS_WRITER_H
#define VSWITCHD_STATS_WRITER_H 1

#include <stddef.h>
#include <stdint.h>

struct stats_writer;
struct uuid;

/* Starts the thread, connecting to REMOTE (the database remote(s) given to
 * ovs-vswitchd) with DB_NAME's database. */
struct stats_writer *stats_writer_create(const char *remote,
                                         const char *db_name);
/* Stops the thread; values not yet written are dropped. */
void stats_writer_destroy(struct stats_writer *);

/* Sets the counters to write into COLUMN (a map of integers, such as
 * Interface "statistics" or Port "rstp_statistics") of the row of TABLE
 * with uuid UUID: N keys and their values (replacing, for that row and
 * column, whatever was handed over before and not yet written; N = 0
 * empties the column).  TABLE and COLUMN must be static strings. */
void stats_writer_put(struct stats_writer *, const char *table,
                      const char *column, const struct uuid *uuid,
                      const char *const *keys, const int64_t *values,
                      size_t n);
/* Wakes the thread for what was put since the last flush. */
void stats_writer_flush(struct stats_writer *);

/* Changes each time the thread's connection is (re)established. */
unsigned int stats_writer_get_seqno(const struct stats_writer *);

#endif /* VSWITCHD_STATS_WRITER_H */
