/* A database kept in a Raft cluster. */
#include <config.h>

#include "cluster.h"

#include "file.h"
#include "ovsdb.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "poll-loop.h"
#include "raft.h"
#include "raft-file.h"
#include "timeval.h"
#include "transaction.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(cluster);

struct ovsdb_cluster {
    struct ovsdb_observer observer;     /* In db->observers. */
    struct ovsdb *db;
    struct raft *raft;
    bool applying;              /* Committing an entry from the log. */
    bool placeholder;           /* DB waits for the leader's snapshot. */
    uint64_t seqno;             /* raft_get_change_seqno() last seen. */
    long long int next_compact; /* Earliest time for automatic compaction. */
    ovsdb_cluster_replaced_func *replaced_cb;
    void *aux;
};

static const struct ovsdb_observer_class cluster_observer_class;

static struct ovsdb_cluster *
cluster_cast(struct ovsdb_observer *observer)
{
    ovs_assert(observer->class == &cluster_observer_class);
    return CONTAINER_OF(observer, struct ovsdb_cluster, observer);
}

static struct ovsdb_error *
cluster_observer_commit(struct ovsdb_observer *observer,
                        const struct ovsdb_txn *txn OVS_UNUSED,
                        bool durable OVS_UNUSED)
{
    struct ovsdb_cluster *c = cluster_cast(observer);
    if (!c->applying) {
        return ovsdb_error("not allowed", "changes to a clustered database "
                           "must be committed through the cluster");
    }
    return NULL;
}

static void
cluster_observer_destroy(struct ovsdb_observer *observer)
{
    struct ovsdb_cluster *c = cluster_cast(observer);
    raft_close(c->raft);
    if (c->db->cluster == c) {
        c->db->cluster = NULL;
    }
    free(c);
}

static const struct ovsdb_observer_class cluster_observer_class = {
    .commit = cluster_observer_commit,
    .destroy = cluster_observer_destroy,
};

/* Applies one committed entry (or snapshot) to the database. */
static void
cluster_apply(struct ovsdb_cluster *c, const json_t *data,
              const struct uuid *eid, bool is_snapshot)
{
    bool replaces = (is_snapshot
                     || (json_is_array(data) && json_array_size(data) == 2
                         && !json_is_null(json_array_get(data, 0))));
    struct ovsdb_error *error;
    if (replaces) {
        struct ovsdb *new = NULL;
        error = raft_file_apply_data(&new, data, eid);
        if (!error) {
            new->last_txnid = *eid;
            if (!c->db) {
                c->db = new;
            } else {
                if (c->replaced_cb) {
                    c->replaced_cb(c->aux, c->db, false);
                }
                ovsdb_replace(c->db, new);
                c->db->last_txnid = *eid;
                c->placeholder = false;
                if (c->replaced_cb) {
                    c->replaced_cb(c->aux, c->db, true);
                }
            }
        }
    } else {
        c->applying = true;
        error = raft_file_apply_data(&c->db, data, eid);
        c->applying = false;
    }
    if (error) {
        char *s = ovsdb_error_to_string_free(error);
        VLOG_WARN("%s: applying log entry failed (%s)",
                  raft_get_name(c->raft), s);
        free(s);
    }
}

/* Applies every committed entry not yet applied. */
static void
cluster_apply_committed(struct ovsdb_cluster *c)
{
    for (;;) {
        struct uuid eid;
        bool is_snapshot;
        json_t *data = raft_next_entry(c->raft, &eid, &is_snapshot);
        if (!data) {
            break;
        }
        cluster_apply(c, data, &eid, is_snapshot);
        json_decref(data);
    }
}

struct ovsdb_error *
ovsdb_cluster_open(const char *file_name, ovsdb_cluster_replaced_func *cb,
                   void *aux, struct ovsdb **dbp)
{
    *dbp = NULL;
    raft_init();
    struct raft *raft;
    struct ovsdb_error *error = raft_open(file_name, &raft);
    if (error) {
        return error;
    }

    struct ovsdb_cluster *c = xzalloc(sizeof *c);
    c->raft = raft;
    c->replaced_cb = cb;
    c->aux = aux;
    c->next_compact = time_msec() + 10 * 60 * 1000;

    cluster_apply_committed(c);
    if (!c->db) {
        if (!raft_is_joining(raft)) {
            raft_close(raft);
            free(c);
            return ovsdb_error(NULL, "%s: no database in cluster log",
                               file_name);
        }
        /* A server that joins has no database until the leader sends one:
         * until then it serves a placeholder without tables, which the
         * leader's snapshot replaces (see the header). */
        c->db = ovsdb_create(ovsdb_schema_create(raft_get_name(raft), "",
                                                 ""));
        c->placeholder = true;
    }

    c->observer.class = &cluster_observer_class;
    ovsdb_add_observer(c->db, &c->observer);
    c->db->cluster = c;
    c->seqno = raft_get_change_seqno(raft);
    *dbp = c->db;
    return NULL;
}

void
ovsdb_cluster_run(struct ovsdb_cluster *c)
{
    raft_run(c->raft);
    cluster_apply_committed(c);
    uint64_t seqno = raft_get_change_seqno(c->raft);
    if (seqno != c->seqno) {
        /* A command may have failed: let waiting transactions retry. */
        c->seqno = seqno;
        c->db->run_triggers = true;
    }
    if (ovsdb_cluster_should_compact(c)) {
        struct ovsdb_error *error = ovsdb_cluster_compact(c);
        if (error) {
            char *s = ovsdb_error_to_string_free(error);
            VLOG_WARN("%s: compacting failed (%s)", raft_get_name(c->raft),
                      s);
            free(s);
        }
        c->next_compact = time_msec() + 10 * 60 * 1000;
    }
}

void
ovsdb_cluster_wait(struct ovsdb_cluster *c)
{
    raft_wait(c->raft);
}

struct raft *
ovsdb_cluster_get_raft(const struct ovsdb_cluster *c)
{
    return c->raft;
}

bool
ovsdb_cluster_has_data(const struct ovsdb_cluster *c)
{
    return !c->placeholder;
}

struct raft_command *
ovsdb_cluster_propose(struct ovsdb_cluster *c, const struct ovsdb_txn *txn)
{
    json_t *record = ovsdb_file_txn_to_json(txn, ovsdb_txn_get_comment(txn));
    if (!record) {
        return NULL;
    }
    json_t *data = json_pack("[n, o]", record);
    struct uuid result;
    uuid_generate(&result);
    struct raft_command *cmd = raft_command_execute(
        c->raft, data, &c->db->last_txnid, &result);
    json_decref(data);
    return cmd;
}

struct raft_command *
ovsdb_cluster_propose_conversion(struct ovsdb_cluster *c,
                                 const struct ovsdb *new_db)
{
    json_t *data = json_pack("[o, o]", ovsdb_schema_to_json(new_db->schema),
                             ovsdb_file_snapshot_to_json(
                                 new_db, "converted by ovsdb-server", true));
    struct uuid result;
    uuid_generate(&result);
    struct raft_command *cmd = raft_command_execute(
        c->raft, data, &c->db->last_txnid, &result);
    json_decref(data);
    return cmd;
}

bool
ovsdb_cluster_command_done(const struct ovsdb_cluster *c,
                           const struct raft_command *cmd,
                           enum raft_command_status *status)
{
    *status = raft_command_get_status(cmd);
    if (*status == RAFT_CMD_INCOMPLETE) {
        return false;
    }
    if (*status == RAFT_CMD_SUCCESS) {
        return (raft_get_applied_index(c->raft)
                >= raft_command_get_commit_index(cmd));
    }
    return true;
}

bool
ovsdb_cluster_should_compact(const struct ovsdb_cluster *c)
{
    return (time_msec() >= c->next_compact && raft_grew_lots(c->raft)
            && raft_may_snapshot(c->raft));
}

struct ovsdb_error *
ovsdb_cluster_compact(struct ovsdb_cluster *c)
{
    /* Entries committed but not yet applied would be lost from the
     * snapshot: apply them first. */
    cluster_apply_committed(c);
    if (!raft_may_snapshot(c->raft)) {
        return NULL;
    }
    json_t *data = raft_file_snapshot_data(c->db);
    struct ovsdb_error *error = raft_store_snapshot(c->raft, data);
    json_decref(data);
    return error;
}
