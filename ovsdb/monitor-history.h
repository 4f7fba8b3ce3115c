/* ovsdb-monitor-history: the recent transactions of one database, so that
 * monitor_cond_since can send a reconnecting client only what changed
 * since the last transaction it saw.  Private to the monitor code.
 *
 * The history is a list of committed transactions, oldest first, each
 * with its id and copies of the rows it changed (before and after).  It
 * also remembers the id of the state just before its oldest entry (the
 * "base": the database's last transaction when tracking started, later the
 * id of the last entry dropped), so a client whose id is the base or any
 * entry is "found".  Entries are dropped, oldest first, to keep at most
 * MON_HISTORY_MAX_TXNS transactions and within the limits the caller sets
 * on row changes and on atoms in row copies (see monitor.c).
 *
 * Ownership: the history owns its row copies.  mon_history_changes_since()
 * lends them to the caller until the next mon_history_add() or
 * mon_history_destroy().
 */
#ifndef OVSDB_MONITOR_HISTORY_H
#define OVSDB_MONITOR_HISTORY_H 1

#include <stdbool.h>
#include <stddef.h>

struct mon_changes;
struct uuid;

#define MON_HISTORY_MAX_TXNS 100

/* A new, empty history whose base is BASE_TXNID. */
struct mon_history *mon_history_create(const struct uuid *base_txnid);
void mon_history_destroy(struct mon_history *);

/* Appends transaction TXNID with CHANGES (rows are copied), then drops the
 * oldest transactions while there are more than MON_HISTORY_MAX_TXNS, or
 * more than MAX_ROWS row changes, or more than one transaction whose row
 * copies hold more than MAX_ATOMS atoms. */
void mon_history_add(struct mon_history *, const struct uuid *txnid,
                     const struct mon_changes *changes, size_t max_rows,
                     size_t max_atoms);

/* The id of the latest state the history knows (its last entry's, else
 * its base). */
const struct uuid *mon_history_last_txnid(const struct mon_history *);

/* If TXNID (nonzero) is a state in the history, adds to CHANGES (which
 * the caller initialized) the changes of every later transaction, merged
 * per row (first "old", last "new"; rows inserted and deleted again are
 * left out), and returns true.  Otherwise returns false. */
bool mon_history_changes_since(const struct mon_history *,
                               const struct uuid *txnid,
                               struct mon_changes *changes);

/* Number of transactions kept and of atoms in their row copies (for
 * memory/show). */
size_t mon_history_n_txns(const struct mon_history *);
size_t mon_history_n_atoms(const struct mon_history *);

#endif /* ovsdb/monitor-history.h */
