/* ovsdb-transaction: atomic changes to one database.
 *
 * A transaction's changes take effect in the tables at once: a row inserted
 * with ovsdb_txn_row_insert() is in table->rows right away, a row returned
 * by ovsdb_txn_row_modify() replaces the committed row in table->rows (the
 * transaction keeps the old one), a deleted row leaves table->rows.  So
 * later operations of the same transaction (a select after an insert) see
 * earlier ones, and nothing else runs in between because the engine is
 * single-threaded.  ovsdb_txn_abort() puts every old row back.
 *
 * ovsdb_txn_commit() then does everything RFC 7047 asks of a commit, in
 * the order Open vSwitch does it (which decides the error a client sees
 * when several apply): drop rows modified without a change; update the
 * strong reference counts, checking that new references point at existing
 * rows ("referential integrity violation") and that no deleted row is
 * still referenced; garbage collect rows of non-root tables that are no
 * longer referenced (repeatedly, since deleting a row can orphan others;
 * only rows the transaction touched are candidates, a row's references to
 * itself do not count and, as in Open vSwitch, rows that reference each
 * other in a cycle keep each other); check maxRows; drop weak references
 * to rows that do not exist (then check n_min); check each changed
 * column's n_min/n_max and index uniqueness ("constraint violation", with
 * Open vSwitch's wording, which clients show to users); bump "_version" of
 * each modified row (a new random uuid; inserted rows get theirs at
 * insert).  Then call the database's observers (see ovsdb.h); then make the
 * changes permanent, set db->last_txnid and db->run_triggers.  On any error
 * the transaction is aborted.  Either way the struct ovsdb_txn is freed.
 *
 * A transaction that changed nothing commits without calling observers,
 * unless DURABLE is set (then observers are called so that the storage can
 * wait for the disk, as a client asking for a durable empty commit
 * expects).
 *
 * Ownership: the caller owns a struct ovsdb_txn from ovsdb_txn_create()
 * until ovsdb_txn_commit() or ovsdb_txn_abort().  Rows passed to
 * ovsdb_txn_row_insert() become the transaction's; rows returned by
 * ovsdb_txn_row_modify() belong to it.
 */
#ifndef OVSDB_TRANSACTION_H
#define OVSDB_TRANSACTION_H 1

#include <stdbool.h>
#include "util.h"
#include "uuid.h"

struct ovsdb;
struct ovsdb_error;
struct ovsdb_row;
struct ovsdb_table;

struct ovsdb_txn *ovsdb_txn_create(struct ovsdb *);
void ovsdb_txn_abort(struct ovsdb_txn *);
struct ovsdb_error *ovsdb_txn_commit(struct ovsdb_txn *, bool durable)
    OVS_WARN_UNUSED_RESULT;

/* Runs the checks of a commit (everything ovsdb_txn_commit() does before
 * calling observers: referential integrity, garbage collection, maxRows,
 * weak references, sizes, index uniqueness, new "_version"s) without
 * committing, for a storage that proposes the changes elsewhere first (a
 * cluster, see cluster.h).  Sets *EMPTY if nothing is left to change.
 * Afterwards the caller may read the changes (ovsdb_txn_for_each_change(),
 * which then includes garbage-collected rows) and must abort the
 * transaction, whatever the result. */
struct ovsdb_error *ovsdb_txn_precommit(struct ovsdb_txn *, bool *empty)
    OVS_WARN_UNUSED_RESULT;

struct ovsdb *ovsdb_txn_get_db(const struct ovsdb_txn *);

/* Returns a modifiable copy of ROW that has replaced ROW in its table (or
 * ROW itself, cast, if this transaction already inserted or copied it).
 * The caller may change any fields except "_uuid". */
struct ovsdb_row *ovsdb_txn_row_modify(struct ovsdb_txn *,
                                       const struct ovsdb_row *);
/* Adds ROW (a new row with its uuid set, owned by the transaction from
 * now on) to its table. */
void ovsdb_txn_row_insert(struct ovsdb_txn *, struct ovsdb_row *);
/* Removes ROW from its table. */
void ovsdb_txn_row_delete(struct ovsdb_txn *, const struct ovsdb_row *);

/* True if a row with UUID may be inserted into TABLE: none is there and
 * the open transaction (if any) did not delete one ("duplicate uuid"
 * otherwise, as Open vSwitch says). */
bool ovsdb_txn_may_create_row(const struct ovsdb_table *,
                              const struct uuid *);

/* Calls CB for the current version of each row of TABLE that the open
 * transaction inserted or modified (not for the rows it deleted), until CB
 * returns false.  Does nothing if no transaction changed TABLE.  Queries use
 * it to combine committed rows found through an index (which holds
 * committed rows only) with the transaction's changes. */
void ovsdb_txn_table_for_each_row(const struct ovsdb_table *,
                                  bool (*cb)(const struct ovsdb_row *,
                                             void *aux),
                                  void *aux);

/* True if ROW was inserted by this transaction (and is still there). */
bool ovsdb_txn_row_is_inserted(const struct ovsdb_txn *,
                               const struct ovsdb_row *);

/* True if the transaction changes nothing: no row inserted, deleted, or
 * modified with a different value (modify without a change does not
 * count). */
bool ovsdb_txn_is_empty(const struct ovsdb_txn *);

/* Calls CB once for each row the transaction changes, with OLD the row
 * before (NULL for an insert), NEW after (NULL for a delete) and CHANGED a
 * bitmap (see bitmap.h) of the column indexes whose value differs (for an
 * insert or delete, every column).  Rows modified without a change are
 * skipped.  Stops early if CB returns false.  Valid inside an observer's
 * commit function and before commit (after the commit checks ran,
 * garbage-collected rows are included as deletes). */
typedef bool ovsdb_txn_row_cb_func(const struct ovsdb_row *old,
                                   const struct ovsdb_row *new,
                                   const unsigned long int *changed,
                                   void *aux);
void ovsdb_txn_for_each_change(const struct ovsdb_txn *,
                               ovsdb_txn_row_cb_func *, void *aux);

/* The "comment" operations' texts, joined with "\n" (NULL if none). */
void ovsdb_txn_add_comment(struct ovsdb_txn *, const char *);
const char *ovsdb_txn_get_comment(const struct ovsdb_txn *);

/* The id this transaction gets when it commits (random, assigned at
 * create), which becomes db->last_txnid. */
const struct uuid *ovsdb_txn_get_txnid(const struct ovsdb_txn *);
/* Gives the transaction a chosen id instead: a relay commits each change
 * it copies under the id the upstream server gave it, so that its own
 * clients see the same ids along a chain of relays. */
void ovsdb_txn_set_txnid(struct ovsdb_txn *, const struct uuid *);

#endif /* ovsdb/transaction.h */
