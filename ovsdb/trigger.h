/* ovsdb-trigger: "transact" requests that have to wait.
 *
 * A transaction whose "wait" operation is not satisfied yet (RFC 7047
 * 5.2.6) cannot be answered at once: it becomes a trigger, kept in its
 * database's list of triggers (db->triggers), and is run again from scratch
 * after every commit to that database (a commit sets db->run_triggers) and
 * when its wait times out, until it completes.  Each attempt runs the whole
 * transaction with ovsdb_execute() and, if that succeeds, commits it, so the
 * operations before and after the "wait" see the database as it is when the
 * wait is finally satisfied.
 *
 * A completed trigger holds the result array for the reply (with the commit
 * error appended if the commit failed).  The caller, who embeds the trigger
 * in its own request record, sends that reply; since the commit happened
 * before, the update notifications that the commit caused are already
 * queued on the client's session ahead of it.
 *
 * Usage:
 *
 *     if (!ovsdb_trigger_init(&t->trigger, db, session, params, ro, now)) {
 *         ...keep T: it is pending in db->triggers...
 *     }
 *     ...each main loop iteration, for each database:
 *     ovsdb_trigger_run(db, time_msec(), &completed);
 *     ...reply for each trigger moved to COMPLETED, then destroy it...
 *     ovsdb_trigger_wait(db, time_msec());
 *
 * On a clustered database (db->cluster), a transaction that changes
 * something is not committed here: its changes are proposed to the cluster
 * and the trigger stays pending until the entry is committed and applied,
 * or runs again from scratch if the cluster refused it (another
 * transaction came first, no leader, leadership lost).
 *
 * Ownership: the caller owns the struct ovsdb_trigger (usually embedded);
 * the trigger keeps its own reference to PARAMS and owns its result until
 * ovsdb_trigger_steal_result().  The database and the session are borrowed:
 * the caller destroys every trigger of a database before the database, and
 * of a session before the session.
 */
#ifndef OVSDB_TRIGGER_H
#define OVSDB_TRIGGER_H 1

#include <jansson.h>
#include <stdbool.h>
#include "list.h"

struct ovsdb;
struct ovsdb_session;

struct ovsdb_trigger {
    struct ovs_list node;       /* In db->triggers while pending, then in
                                 * the caller's list of completed ones. */
    struct ovsdb *db;
    const struct ovsdb_session *session;   /* For "assert"; may be NULL. */
    json_t *params;             /* The "transact" params. */
    bool read_only;
    bool pending;               /* In db->triggers. */
    long long int created;      /* time_msec() when the request arrived. */
    long long int deadline;     /* When the wait times out (LLONG_MAX:
                                 * never). */
    json_t *result;             /* Once complete: the reply's result. */
    bool needs_sync;            /* Complete, but the reply must wait for
                                 * ovsdb_sync() of DB (group commit). */

    /* A clustered database's transaction waits for its entry to commit
     * (see cluster.h): COMMAND is the proposed entry, PROPOSED_RESULT the
     * reply to give once it is applied.  If the cluster refuses it, the
     * transaction runs again, no sooner than RETRY_AT. */
    struct raft_command *command;
    json_t *proposed_result;
    long long int retry_at;
};

/* Initializes T for the "transact" request PARAMS on DB and tries it once
 * at time NOW.  Returns true if it completed (see ovsdb_trigger_result()),
 * false if it waits, pending in DB->triggers. */
bool ovsdb_trigger_init(struct ovsdb_trigger *t, struct ovsdb *db,
                        const struct ovsdb_session *session,
                        const json_t *params, bool read_only,
                        long long int now);

/* Frees what T holds and, if it is pending, takes it out of its database's
 * list (a cancelled request). */
void ovsdb_trigger_destroy(struct ovsdb_trigger *t);

/* True once T completed. */
static inline bool
ovsdb_trigger_is_complete(const struct ovsdb_trigger *t)
{
    return t->result != NULL;
}

/* Takes T's result (a completed trigger's, NULL otherwise) away from T. */
json_t *ovsdb_trigger_steal_result(struct ovsdb_trigger *t);

/* Retries DB's pending triggers that may have become able to complete:
 * all of them after a commit, otherwise those whose wait has timed out at
 * time NOW.  Those that complete are moved from DB->triggers to the end of
 * COMPLETED. */
void ovsdb_trigger_run(struct ovsdb *db, long long int now,
                       struct ovs_list *completed);

/* Makes the poll loop wake when ovsdb_trigger_run() has work for DB. */
void ovsdb_trigger_wait(struct ovsdb *db, long long int now);

#endif /* ovsdb/trigger.h */
