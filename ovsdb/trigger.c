#include <config.h>
#include "trigger.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "coverage.h"
#include "execution.h"
#include "ovsdb-error.h"
#include "ovsdb.h"
#include "poll-loop.h"
#include "raft.h"
#include "transaction.h"
#include "util.h"

COVERAGE_DEFINE(ovsdb_trigger_retry);

/* Runs T's transaction at time NOW.  Returns true if it completed (T's
 * result is set), false if it must keep waiting (T's deadline is updated). */
static bool
trigger_try(struct ovsdb_trigger *t, long long int now)
{
    long long int timeout = LLONG_MAX;
    bool durable = false;
    struct ovsdb_txn *txn = NULL;
    json_t *result = ovsdb_execute(t->db, t->session, t->params,
                                   t->read_only, now - t->created, &timeout,
                                   &durable, &txn);
    if (!result) {
        t->deadline = (timeout == LLONG_MAX || timeout > LLONG_MAX - t->created
                       ? LLONG_MAX : t->created + timeout);
        return false;
    }

    if (txn && t->db->cluster) {
        /* The checks a commit would run decide now whether the changes may
         * be proposed at all; the entry the cluster commits is applied
         * later, on every server, by replaying the checked changes. */
        bool empty;
        struct ovsdb_error *error = ovsdb_txn_precommit(txn, &empty);
        struct raft_command *cmd = (error || empty ? NULL
                                    : ovsdb_cluster_propose(t->db->cluster,
                                                            txn));
        ovsdb_txn_abort(txn);
        if (error) {
            json_array_append_new(result, ovsdb_error_to_json_free(error));
        } else if (cmd) {
            t->command = cmd;
            t->proposed_result = result;
            t->deadline = LLONG_MAX;
            return false;
        }
    } else if (txn) {
        struct ovsdb_error *error = ovsdb_txn_commit(txn, durable);
        if (error) {
            json_array_append_new(result, ovsdb_error_to_json_free(error));
        } else {
            /* With group commit (see ovsdb.h) the commit is written but
             * not yet on disk. */
            t->needs_sync = durable && t->db->sync_pending;
        }
    }
    t->result = result;
    return true;
}

bool
ovsdb_trigger_init(struct ovsdb_trigger *t, struct ovsdb *db,
                   const struct ovsdb_session *session, const json_t *params,
                   bool read_only, long long int now)
{
    t->db = db;
    t->session = session;
    t->params = json_incref((json_t *) params);
    t->read_only = read_only;
    t->pending = false;
    t->created = now;
    t->deadline = LLONG_MAX;
    t->result = NULL;
    t->needs_sync = false;
    t->command = NULL;
    t->proposed_result = NULL;
    t->retry_at = 0;

    if (trigger_try(t, now)) {
        ovs_list_init(&t->node);
        return true;
    }
    ovs_list_push_back(&db->triggers, &t->node);
    t->pending = true;
    return false;
}

void
ovsdb_trigger_destroy(struct ovsdb_trigger *t)
{
    if (t->pending) {
        ovs_list_remove(&t->node);
        t->pending = false;
    }
    raft_command_unref(t->command);
    t->command = NULL;
    json_decref(t->proposed_result);
    t->proposed_result = NULL;
    json_decref(t->params);
    t->params = NULL;
    json_decref(t->result);
    t->result = NULL;
}

json_t *
ovsdb_trigger_steal_result(struct ovsdb_trigger *t)
{
    json_t *result = t->result;
    t->result = NULL;
    return result;
}

void
ovsdb_trigger_run(struct ovsdb *db, long long int now,
                  struct ovs_list *completed)
{
    /* A commit by one of these triggers sets the flag again, so that the
     * others get another chance on the next iteration. */
    bool run_all = db->run_triggers;
    db->run_triggers = false;

    struct ovsdb_trigger *t;
    LIST_FOR_EACH_SAFE (t, node, &db->triggers) {
        if (t->command) {
            enum raft_command_status status;
            if (!db->cluster || !ovsdb_cluster_command_done(
                    db->cluster, t->command, &status)) {
                continue;
            }
            raft_command_unref(t->command);
            t->command = NULL;
            json_t *result = t->proposed_result;
            t->proposed_result = NULL;
            if (status == RAFT_CMD_SUCCESS || status == RAFT_CMD_IO_ERROR) {
                if (status == RAFT_CMD_IO_ERROR) {
                    json_array_append_new(result, ovsdb_error_to_json_free(
                                              ovsdb_error("I/O error",
                                                          "writing the "
                                                          "cluster log "
                                                          "failed")));
                }
                t->result = result;
                ovs_list_remove(&t->node);
                t->pending = false;
                ovs_list_push_back(completed, &t->node);
                continue;
            }
            /* Refused: try again on the database as it is by then. */
            json_decref(result);
            t->retry_at = now + 100;
            continue;
        }
        bool retry = false;
        if (t->retry_at) {
            if (now < t->retry_at && !run_all) {
                continue;
            }
            t->retry_at = 0;
            retry = true;
        }
        if (run_all || retry || now >= t->deadline) {
            COVERAGE_INC(ovsdb_trigger_retry);
            if (trigger_try(t, now)) {
                ovs_list_remove(&t->node);
                t->pending = false;
                ovs_list_push_back(completed, &t->node);
            }
        }
    }
}

void
ovsdb_trigger_wait(struct ovsdb *db, long long int now OVS_UNUSED)
{
    if (ovs_list_is_empty(&db->triggers)) {
        return;
    }
    if (db->run_triggers) {
        poll_immediate_wake();
        return;
    }

    long long int deadline = LLONG_MAX;
    const struct ovsdb_trigger *t;
    LIST_FOR_EACH (t, node, &db->triggers) {
        deadline = MIN(deadline, t->deadline);
        if (t->retry_at) {
            deadline = MIN(deadline, t->retry_at);
        }
    }
    if (deadline != LLONG_MAX) {
        poll_timer_wait_until(deadline);
    }
}
