/* ovsdb-execution: the "transact" method (RFC 7047 section 4.1.3).
 *
 * ovsdb_execute() runs the operations of one transact request against DB
 * in a new transaction: insert (with "uuid-name", and the Open vSwitch
 * extension "uuid" to choose the row's uuid), select, update, mutate,
 * delete, wait, commit, abort, comment and assert.  It does not commit:
 * that is the caller's job, so that the server can commit durably, run
 * triggers and order notifications and replies.
 *
 * Results, laid out as Open vSwitch 3.1 lays them out:
 *   - All operations succeeded: returns the result array (one element per
 *     operation), sets *TXNP to the open transaction to commit, *DURABLE to
 *     whether a "commit" operation asked for durability.  The caller
 *     commits and, if that fails, appends the error object to the array
 *     (which then has one element more than there are operations).
 *   - An operation failed: returns the array with that operation's error
 *     object in its place and null for each operation after it (so the
 *     array still has one element per operation), the transaction already
 *     aborted, *TXNP NULL.  A request that is not an array whose first
 *     element is DB's name fails as a whole: the result is then just the
 *     error object ("array expected", "database name expected as first
 *     parameter"), not an array.
 *   - A "wait" operation is not yet satisfied and its timeout (measured
 *     against ELAPSED_MSEC, the time since the request arrived) has not
 *     passed: returns NULL, the transaction aborted, and *TIMEOUT_MSEC
 *     the time (relative to the request's arrival) at which the earliest
 *     wait times out, or LLONG_MAX.  The caller retries after the next
 *     commit (see trigger.h); when the timeout passes the wait fails with
 *     "timed out".  With TIMEOUT_MSEC NULL (a caller that cannot retry,
 *     like "ovsdb-tool transact"), such a wait fails at once with Open
 *     vSwitch's "not supported" error ("triggers not supported").
 *     DURABLE may also be NULL.
 *
 * "select" returns rows sorted by its "sort" columns (an Open vSwitch
 * extension) and then by uuid, so that equal contents always print the
 * same; with "columns", rows equal in those columns are returned once, as
 * Open vSwitch does.
 *
 * READ_ONLY rejects every operation that would change the database
 * ("not allowed" error: a read-only remote), after checking it as usual,
 * so a malformed operation still gets its own error first, as in Open
 * vSwitch.  A database whose name starts with "_" (the server's own
 * "_Server") is always read-only here, with Open vSwitch's wording ("...
 * not allowed on table in reserved database _Server").  SESSION (may be
 * NULL) is the
 * client, for "assert" of a lock it must hold.
 *
 * Ownership: PARAMS is borrowed; the returned JSON is the caller's.
 */
#ifndef OVSDB_EXECUTION_H
#define OVSDB_EXECUTION_H 1

#include <jansson.h>
#include <stdbool.h>

struct ovsdb;
struct ovsdb_session;
struct ovsdb_txn;

json_t *ovsdb_execute(struct ovsdb *db, const struct ovsdb_session *session,
                      const json_t *params, bool read_only,
                      long long int elapsed_msec,
                      long long int *timeout_msec, bool *durable,
                      struct ovsdb_txn **txnp);

#endif /* ovsdb/execution.h */
