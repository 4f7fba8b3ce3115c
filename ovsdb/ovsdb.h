/* ovsdb: one database in the OVSDB engine: its schema, its tables and the
 * observers that hear about every commit.
 *
 * Observers are how everything that must follow the database's changes
 * hooks in: the file storage (file.h) writes each commit to disk, monitors
 * (monitor.h) turn commits into update notifications, ovsdb-server notes
 * that its configuration may have changed.  ovsdb_txn_commit() calls each
 * observer's commit function in the order the observers were added, after
 * the transaction has passed every integrity check and before its changes
 * become permanent.  If one returns an error the commit fails with that
 * error, the observers after it are not called and the database is left as
 * it was.  That is why the storage observer is added first (when the file
 * is opened) and monitors, which never fail, after it: a client never hears
 * of a change that did not reach the disk.
 *
 * Pending "wait" operations and blocked transactions (struct ovsdb_trigger,
 * see trigger.h) are listed in TRIGGERS; a commit sets RUN_TRIGGERS so the
 * server retries them.
 *
 * Ownership: ovsdb_create() takes ownership of the schema; ovsdb_destroy()
 * frees the tables, calls each observer's destroy function (so the storage
 * closes its file) and frees the schema.
 */
#ifndef OVSDB_OVSDB_H
#define OVSDB_OVSDB_H 1

#include <stdbool.h>
#include "list.h"
#include "shash.h"
#include "util.h"
#include "uuid.h"

struct ovsdb;
struct ovsdb_error;
struct ovsdb_observer;
struct ovsdb_schema;
struct ovsdb_txn;
struct smap;

struct ovsdb_observer_class {
    /* Called for each transaction being committed, with DURABLE true if
     * the client asked for a durable commit.  Returns NULL or an error that
     * fails the commit. */
    struct ovsdb_error *(*commit)(struct ovsdb_observer *,
                                  const struct ovsdb_txn *, bool durable);
    /* Called by ovsdb_destroy() (not by ovsdb_remove_observer()). */
    void (*destroy)(struct ovsdb_observer *);
    /* Optional.  Makes durable whatever durable commits this observer
     * accepted while db->defer_sync was set (see ovsdb_sync()). */
    struct ovsdb_error *(*sync)(struct ovsdb_observer *);
};

struct ovsdb_observer {
    const struct ovsdb_observer_class *class;
    struct ovs_list node;       /* In db->observers. */
};

struct ovsdb {
    char *name;                 /* Same as schema->name. */
    struct ovsdb_schema *schema;
    struct ovs_list observers;  /* Contains struct ovsdb_observer. */
    struct shash tables;        /* Name -> struct ovsdb_table *. */

    struct ovs_list triggers;   /* Contains struct ovsdb_trigger. */
    bool run_triggers;          /* Set by each commit. */

    /* A relay's copy of another server's database (see relay.h): RELAY
     * forwards the transactions that would change it, and RELAY_CONNECTED
     * says whether the copy is following its upstream (for _Server). */
    struct ovsdb_relay *relay;
    bool relay_connected;

    /* A clustered database (see cluster.h): commits go through the
     * cluster's log instead of straight to the tables. */
    struct ovsdb_cluster *cluster;

    struct uuid last_txnid;     /* Id of the last committed transaction
                                 * (zero before the first), for
                                 * monitor_cond_since. */
    unsigned long long int n_commits;   /* Commits since creation. */

    /* Group commit.  While DEFER_SYNC is set, a durable commit returns once
     * its record is written but before it is on disk, and sets
     * SYNC_PENDING; the owner (the JSON-RPC server) then calls ovsdb_sync()
     * once for all the durable commits of one main loop iteration and
     * holds each of their replies until it returns.  Clients get the same
     * guarantee as with one fsync per commit, at a fraction of the cost
     * when many commit at once. */
    bool defer_sync;
    bool sync_pending;

    /* Kept up to date by each commit, for ovsdb_get_memory_usage(). */
    unsigned long long int n_atoms;     /* Atoms in all rows' fields. */
    unsigned long long int n_weak_refs; /* struct ovsdb_weak_ref records. */
};

/* Creates an empty database for SCHEMA, taking ownership of it. */
struct ovsdb *ovsdb_create(struct ovsdb_schema *);
void ovsdb_destroy(struct ovsdb *);

struct ovsdb_table *ovsdb_get_table(const struct ovsdb *, const char *name);

void ovsdb_add_observer(struct ovsdb *, struct ovsdb_observer *);
void ovsdb_remove_observer(struct ovsdb *, struct ovsdb_observer *);

/* Makes every durable commit since the last call durable (calls each
 * observer's sync function) and clears db->sync_pending.  Returns NULL or
 * the first error, after which those commits are applied but may not be on
 * disk. */
struct ovsdb_error *ovsdb_sync(struct ovsdb *)
    OVS_WARN_UNUSED_RESULT;

/* Replaces DB's schema and contents by NEW's (for online conversion),
 * destroying NEW.  DB's observers stay attached; the caller first makes
 * sure that monitors and the storage deal with the change (monitors of DB
 * are cancelled, the storage writes the converted database). */
void ovsdb_replace(struct ovsdb *db, struct ovsdb *new);

/* Adds DB's "cells" (column values stored, "_uuid" and "_version"
 * included), "atoms" (keys and values in them) and "n-weak-refs" to the
 * counts already in USAGE (so a server can sum over its databases), as
 * Open vSwitch's memory/show reports them.  A zero count is added only as
 * "n-weak-refs" (Open vSwitch always shows that one). */
void ovsdb_get_memory_usage(const struct ovsdb *, struct smap *usage);

#endif /* ovsdb/ovsdb.h */
