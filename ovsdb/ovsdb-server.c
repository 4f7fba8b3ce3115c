/* ovsdb-server: serves OVSDB databases over JSON-RPC.
 *
 * The program glues the parts together: it opens the database files named
 * on the command line (each with its storage observer, see file.h), adds
 * them and the built-in "_Server" database (server-db.h) to one JSON-RPC
 * server (jsonrpc-server.h), and keeps the server's remotes and TLS settings
 * in step with the command line, with ovs-appctl requests and with database
 * contents (the "db:DB,TABLE,COLUMN" remotes and key/certificate names).
 *
 * Configuration that comes from a database is re-read only after something
 * committed to one of the served databases (an observer sets a flag) or the
 * remote list changed, not on every loop iteration.  Connection status is
 * written back into Manager-like rows at most every STATUS_INTERVAL, and
 * only while such rows exist, so an idle server with no such remotes
 * sleeps until a client or ovs-appctl needs it.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "command-line.h"
#include "coverage.h"
#include "daemon.h"
#include "dirs.h"
#include "dynamic-string.h"
#include "fatal-signal.h"
#include "jsonrpc.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "ovsdb-types.h"
#include "ovsdb/cluster.h"
#include "ovsdb/convert.h"
#include "ovsdb/file.h"
#include "ovsdb/jsonrpc-server.h"
#include "ovsdb/log.h"
#include "ovsdb/monitor.h"
#include "ovsdb/raft.h"
#include "ovsdb/relay.h"
#include "ovsdb/replication.h"
#include "ovsdb/ovsdb.h"
#include "ovsdb/row.h"
#include "ovsdb/server-config.h"
#include "ovsdb/server-db.h"
#include "ovsdb/table.h"
#include "ovsdb/transaction.h"
#include "poll-loop.h"
#include "process.h"
#include "reconnect.h"
#include "shash.h"
#include "smap.h"
#include "socket-util.h"
#include "sset.h"
#include "stream.h"
#include "replay.h"
#include "stream-ssl.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_server);

COVERAGE_DEFINE(ovsdb_server_reconfigure);
COVERAGE_DEFINE(ovsdb_server_status_write);

/* How often connection status goes back into the database. */
#define STATUS_INTERVAL 2500

/* One database being served. */
struct served_db {
    char *filename;             /* NULL for _Server and relays. */
    struct ovsdb_file *file;    /* NULL for _Server and relays. */
    struct relay_db *relay_db;  /* Non-NULL for a relay's copy. */
    uint64_t cluster_seqno;     /* Clustered: raft change counter as
                                 * _Server last showed it. */
    struct ovsdb *db;
    struct ovsdb_observer observer;   /* Flags the config as stale. */
    struct server *server;
};

/* A "relay:DB:REMOTE" database (see relay.h). */
struct relay_db {
    struct ovs_list node;       /* In server->relays. */
    struct server *server;
    char *target;               /* As given. */
    struct ovsdb_relay *relay;
    struct served_db *sdb;      /* The relay's current database. */
    bool connected;             /* As _Server last showed it. */
};

struct server {
    struct shash dbs;           /* Name -> struct served_db *. */
    struct ovs_list relays;     /* Contains struct relay_db. */
    struct served_db *server_db;     /* "_Server". */
    struct ovsdb_jsonrpc_server *jsonrpc;
    struct sset remotes;        /* As given: "punix:..", "db:DB,T,C". */

    /* TLS settings as given: a file name or a "db:" reference (NULL if
     * not given), and what the last reconfiguration handed stream-ssl. */
    char *private_key, *certificate, *ca_cert;
    bool bootstrap_ca_cert;
    char *ssl_protocols, *ssl_ciphers;
    char *applied_key, *applied_cert, *applied_ca;
    char *applied_protocols, *applied_ciphers;

    /* Active-backup replication.  A backup (BACKUP true) copies its
     * databases from SYNC_FROM through REPLICATION and serves them
     * read-only; REPLICATION is recreated whenever the set of databases
     * changes.  ACTIVE is --active: start as the active server even though
     * SYNC_FROM is known. */
    char *sync_from;
    struct sset sync_exclude;   /* "DB:TABLE" names. */
    bool active;
    bool backup;
    struct replication *replication;
    struct uuid server_id;

    /* Where the configuration survives --monitor's restarts (see
     * server-config.h), or -1. */
    int config_fd;

    /* --run: the command, and the shell running it once started.  The
     * server exits when the command does. */
    char *run_command;
    struct process *run_process;

    bool config_stale;          /* Remotes or TLS need recomputing. */
    bool has_status_rows;       /* Some db: remote points to rows. */
    long long int next_status;  /* When to write status next. */
    bool exiting;
};

static noreturn void usage(void);
static void save_config(const struct server *);
static void close_db(struct server *, struct served_db *,
                     const char *comment);
static void parse_options(int argc, char *argv[], struct server *,
                          struct sset *db_filenames, char **unixctl_pathp);

static unixctl_cb_func exit_cb;
static unixctl_cb_func compact_cb;
static unixctl_cb_func reconnect_cb;
static unixctl_cb_func add_remote_cb;
static unixctl_cb_func remove_remote_cb;
static unixctl_cb_func list_remotes_cb;
static unixctl_cb_func add_db_cb;
static unixctl_cb_func remove_db_cb;
static unixctl_cb_func list_dbs_cb;
static unixctl_cb_func storage_status_cb;
static unixctl_cb_func memory_show_cb;
static unixctl_cb_func set_active_server_cb;
static unixctl_cb_func get_active_server_cb;
static unixctl_cb_func connect_active_server_cb;
static unixctl_cb_func disconnect_active_server_cb;
static unixctl_cb_func set_sync_exclude_cb;
static unixctl_cb_func get_sync_exclude_cb;
static unixctl_cb_func sync_status_cb;

/* Databases. */

static struct ovsdb_error *
config_observer_commit(struct ovsdb_observer *observer,
                       const struct ovsdb_txn *txn OVS_UNUSED,
                       bool durable OVS_UNUSED)
{
    struct served_db *sdb = CONTAINER_OF(observer, struct served_db,
                                         observer);
    sdb->server->config_stale = true;
    return NULL;
}

static void
config_observer_destroy(struct ovsdb_observer *observer OVS_UNUSED)
{
}

static const struct ovsdb_observer_class config_observer_class = {
    .commit = config_observer_commit,
    .destroy = config_observer_destroy,
};

static void
add_served_db(struct server *server, struct served_db *sdb)
{
    sdb->server = server;
    sdb->observer.class = &config_observer_class;
    ovsdb_add_observer(sdb->db, &sdb->observer);
    shash_add(&server->dbs, sdb->db->name, sdb);
    if (!sdb->db->cluster || ovsdb_cluster_has_data(sdb->db->cluster)) {
        /* A joining server's placeholder is not served to clients (they
         * see it in _Server, not connected) until it has the data
         * (cluster_replaced_cb()). */
        ovsdb_jsonrpc_server_add_db(server->jsonrpc, sdb->db);
    }
    server->config_stale = true;
}

/* Fills DBS (initialized by the caller) with name -> struct ovsdb * for
 * every database served. */
static void
collect_dbs(const struct server *server, struct shash *dbs)
{
    struct shash_node *node;
    SHASH_FOR_EACH (node, &server->dbs) {
        struct served_db *sdb = node->data;
        shash_add(dbs, node->name, sdb->db);
    }
}

/* Puts the server in the backup role (replicating from sync_from) or takes
 * it out of it.  Either way replication starts over, so the set of
 * databases it copies is current. */
static void
set_backup(struct server *server, bool backup)
{
    replication_destroy(server->replication);
    server->replication = NULL;
    server->backup = backup && server->sync_from;
    ovsdb_jsonrpc_server_set_read_only(server->jsonrpc, server->backup);
    save_config(server);
    if (server->backup) {
        struct shash dbs = SHASH_INITIALIZER(&dbs);
        collect_dbs(server, &dbs);
        server->replication = replication_create(server->sync_from, &dbs,
                                                 &server->sync_exclude,
                                                 &server->server_id);
        shash_destroy(&dbs);
    }
}

static void
replication_run_and_check(struct server *server)
{
    if (!server->replication) {
        return;
    }
    replication_run(server->replication);
    if (!replication_is_alive(server->replication)) {
        /* Nothing to copy, or told to copy ourselves: we are active. */
        VLOG_INFO("replication from %s stopped; this server is active",
                  server->sync_from);
        set_backup(server, false);
    }
}

/* Writes what the server serves now where a restarted daemon finds it. */
static void
save_config(const struct server *server)
{
    if (server->config_fd < 0) {
        return;
    }
    struct server_config c;
    server_config_init(&c);
    sset_clone(&c.remotes, &server->remotes);
    struct shash_node *node;
    SHASH_FOR_EACH (node, &server->dbs) {
        const struct served_db *sdb = node->data;
        if (sdb->filename) {
            sset_add(&c.databases, sdb->filename);
        }
    }
    const struct relay_db *rdb;
    LIST_FOR_EACH (rdb, node, &server->relays) {
        sset_add(&c.databases, rdb->target);
    }
    c.sync_from = nullable_xstrdup(server->sync_from);
    if (!sset_is_empty(&server->sync_exclude)) {
        struct ds s = DS_EMPTY_INITIALIZER;
        replication_put_exclusions(&server->sync_exclude, &s);
        c.sync_exclude = ds_steal_cstr(&s);
    }
    c.backup = server->backup;
    server_config_save(server->config_fd, &c);
    server_config_destroy(&c);
}

/* Called whenever the set of databases changed. */
static void
refresh_server_db(struct server *server)
{
    struct shash dbs = SHASH_INITIALIZER(&dbs);
    collect_dbs(server, &dbs);
    server_db_update(server->server_db->db, &dbs);
    shash_destroy(&dbs);
    if (server->backup) {
        set_backup(server, true);
    } else {
        save_config(server);
    }
}

static void
serve_relay_db(struct relay_db *rdb, struct ovsdb *db)
{
    struct served_db *sdb = xzalloc(sizeof *sdb);
    sdb->db = db;
    sdb->relay_db = rdb;
    rdb->sdb = sdb;
    add_served_db(rdb->server, sdb);
}

/* The relay has a new database for RDB: serve it instead of the old. */
static void
relay_db_cb(void *rdb_, struct ovsdb *old, struct ovsdb *new)
{
    struct relay_db *rdb = rdb_;
    if (new != old) {
        close_db(rdb->server, rdb->sdb, "relayed database changed schema");
        serve_relay_db(rdb, new);
    }
    refresh_server_db(rdb->server);
}

static struct ovsdb_error *
open_relay(struct server *server, const char *target)
{
    char *name, *remote;
    if (!ovsdb_relay_parse_target(target, &name, &remote)) {
        return ovsdb_error(NULL, "%s: invalid relay target (expected "
                           "relay:DB:REMOTE)", target);
    }
    struct relay_db *rdb;
    LIST_FOR_EACH (rdb, node, &server->relays) {
        if (!strcmp(rdb->target, target)) {
            free(name);
            free(remote);
            return ovsdb_error(NULL, "%s: already open", target);
        }
    }
    if (shash_find(&server->dbs, name)) {
        struct ovsdb_error *error = ovsdb_error(
            NULL, "%s: duplicate database name", name);
        free(name);
        free(remote);
        return error;
    }
    rdb = xzalloc(sizeof *rdb);
    rdb->server = server;
    rdb->target = xstrdup(target);
    rdb->relay = ovsdb_relay_create(name, remote, relay_db_cb, rdb);
    ovs_list_push_back(&server->relays, &rdb->node);
    serve_relay_db(rdb, ovsdb_relay_get_db(rdb->relay));
    free(name);
    free(remote);
    return NULL;
}

/* Stops relaying RDB (and serving its database, if it has one). */
static void
close_relay(struct server *server, struct relay_db *rdb, const char *comment)
{
    ovsdb_relay_destroy(rdb->relay);
    close_db(server, rdb->sdb, comment);
    ovs_list_remove(&rdb->node);
    free(rdb->target);
    free(rdb);
}

static void
relays_run(struct server *server)
{
    bool changed = false;
    struct relay_db *rdb;
    LIST_FOR_EACH (rdb, node, &server->relays) {
        ovsdb_relay_run(rdb->relay);
        bool connected = rdb->sdb->db->relay_connected;
        if (connected != rdb->connected) {
            rdb->connected = connected;
            changed = true;
        }
    }
    if (changed) {
        refresh_server_db(server);
    }
}

static void
relays_wait(struct server *server)
{
    struct relay_db *rdb;
    LIST_FOR_EACH (rdb, node, &server->relays) {
        ovsdb_relay_wait(rdb->relay);
    }
}

/* True if FILENAME is a clustered database file. */
static bool
is_clustered_file(const char *filename)
{
    struct ovsdb_log *log;
    struct ovsdb_error *error = ovsdb_log_open(filename,
                                               OVSDB_MAGIC "|" RAFT_MAGIC,
                                               OVSDB_LOG_READ_ONLY, 0, &log);
    if (error) {
        ovsdb_error_destroy(error);
        return false;
    }
    bool clustered = !strcmp(ovsdb_log_get_magic(log), RAFT_MAGIC);
    ovsdb_log_close(log);
    return clustered;
}

/* A clustered database's contents were replaced (a snapshot from the
 * leader, or a schema change): its clients start over, as after an online
 * conversion. */
static void
cluster_replaced_cb(void *server_, struct ovsdb *db, bool done)
{
    struct server *server = server_;
    struct served_db *sdb = shash_find_data(&server->dbs, db->name);
    if (!sdb || sdb->db != db) {
        return;                 /* Still opening. */
    }
    if (!done) {
        /* Monitors, triggers and the history refer to the old tables. */
        ovsdb_jsonrpc_server_remove_db(server->jsonrpc, db,
                                       "database contents replaced");
    } else {
        ovsdb_jsonrpc_server_add_db(server->jsonrpc, db);
        refresh_server_db(server);
    }
}

/* Runs the clustered databases; _Server follows their state. */
static void
clusters_run(struct server *server)
{
    bool changed = false;
    struct shash_node *node;
    SHASH_FOR_EACH_SAFE (node, &server->dbs) {
        struct served_db *sdb = node->data;
        if (sdb->db->cluster) {
            ovsdb_cluster_run(sdb->db->cluster);
            struct raft *raft = ovsdb_cluster_get_raft(sdb->db->cluster);
            if (raft_left(raft)) {
                /* Out of the cluster, this copy will never change again:
                 * stop serving it, as Open vSwitch does. */
                VLOG_INFO("%s: removing database from this server (it left "
                          "its cluster)", sdb->db->name);
                close_db(server, sdb, "database left its cluster");
                changed = true;
                continue;
            }
            uint64_t seqno = raft_get_change_seqno(raft);
            if (seqno != sdb->cluster_seqno) {
                sdb->cluster_seqno = seqno;
                changed = true;
            }
        }
    }
    if (changed) {
        refresh_server_db(server);
    }
}

static void
clusters_wait(struct server *server)
{
    struct shash_node *node;
    SHASH_FOR_EACH (node, &server->dbs) {
        struct served_db *sdb = node->data;
        if (sdb->db->cluster) {
            ovsdb_cluster_wait(sdb->db->cluster);
        }
    }
}

/* Opens FILENAME (or, for "relay:DB:REMOTE", starts relaying) and starts
 * serving it.  Returns NULL or an error that the caller must free. */
static struct ovsdb_error * OVS_WARN_UNUSED_RESULT
open_db(struct server *server, const char *filename)
{
    if (!strncmp(filename, "relay:", 6)) {
        return open_relay(server, filename);
    }

    struct shash_node *node;
    SHASH_FOR_EACH (node, &server->dbs) {
        struct served_db *sdb = node->data;
        if (sdb->filename && !strcmp(sdb->filename, filename)) {
            return ovsdb_error(NULL, "%s: already open", filename);
        }
    }

    struct ovsdb *db;
    struct ovsdb_file *file = NULL;
    struct ovsdb_error *error;
    if (is_clustered_file(filename)) {
        error = ovsdb_cluster_open(filename, cluster_replaced_cb, server,
                                   &db);
    } else {
        error = ovsdb_file_read(filename, true, &db, &file);
    }
    if (error) {
        return error;
    }
    if (shash_find(&server->dbs, db->name)) {
        error = ovsdb_error(NULL, "%s: duplicate database name", db->name);
        if (file) {
            ovsdb_file_close(file);
        }
        ovsdb_destroy(db);
        return error;
    }

    struct served_db *sdb = xzalloc(sizeof *sdb);
    sdb->filename = xstrdup(filename);
    sdb->file = file;
    sdb->db = db;
    add_served_db(server, sdb);
    return NULL;
}

static void
close_db(struct server *server, struct served_db *sdb, const char *comment)
{
    /* Replication holds pointers to the databases: drop it now, the next
     * refresh_server_db() starts it over. */
    replication_destroy(server->replication);
    server->replication = NULL;
    shash_find_and_delete(&server->dbs, sdb->db->name);
    ovsdb_jsonrpc_server_remove_db(server->jsonrpc, sdb->db, comment);
    ovsdb_remove_observer(sdb->db, &sdb->observer);
    if (sdb->file) {
        ovsdb_file_close(sdb->file);
    }
    ovsdb_destroy(sdb->db);
    free(sdb->filename);
    free(sdb);
    server->config_stale = true;
}

/* Online conversion (the "convert" method): converts the database named
 * DB_NAME to NEW_SCHEMA, writes the result in place of its file and serves
 * the database read back from it, so that the storage observer follows the
 * new file.  Clients learn of the change as with remove-db and add-db.  A
 * clustered database's conversion is proposed to the cluster instead. */
static struct ovsdb_error *
convert_db_cb(void *server_, const char *db_name,
              const struct ovsdb_schema *new_schema,
              struct raft_command **commandp)
{
    struct server *server = server_;
    struct served_db *sdb = shash_find_data(&server->dbs, db_name);
    if (!sdb || (!sdb->file && !sdb->db->cluster)) {
        return ovsdb_error("not allowed", "cannot convert database %s",
                           db_name);
    }

    struct ovsdb *new;
    struct ovsdb_error *error = ovsdb_convert(sdb->db, new_schema, &new);
    if (error) {
        return error;
    }
    if (sdb->db->cluster) {
        /* Every member replaces its copy once the cluster committed the
         * conversion (cluster_replaced_cb()). */
        *commandp = ovsdb_cluster_propose_conversion(sdb->db->cluster, new);
        ovsdb_destroy(new);
        return NULL;
    }
    error = ovsdb_file_save_copy(sdb->filename, "converted by ovsdb-server",
                                 new);
    ovsdb_destroy(new);
    if (error) {
        return error;
    }

    char *filename = xstrdup(sdb->filename);
    char *comment = xasprintf("committed %s database schema conversion",
                              db_name);
    close_db(server, sdb, comment);
    free(comment);

    error = open_db(server, filename);
    if (error) {
        /* The converted file is in place but could not be read back: the
         * database stays offline until an operator adds it again. */
        char *s = ovsdb_error_to_string(error);
        VLOG_ERR("%s: reopening converted database failed (%s)",
                 filename, s);
        free(s);
    }
    free(filename);
    refresh_server_db(server);
    return error;
}

/* Looking up "db:DB,TABLE,COLUMN" references. */

/* Parses NAME ("db:DB,TABLE,COLUMN") against the served databases.  Returns
 * NULL and fills in the out-parameters, or an error message to free. */
static char * OVS_WARN_UNUSED_RESULT
parse_db_column(const struct server *server, const char *name,
                const struct served_db **sdbp,
                const struct ovsdb_table **tablep,
                const struct ovsdb_column **columnp)
{
    char *copy = xstrdup(name);
    char *save_ptr = NULL;
    const char *db_name = NULL, *table_name = NULL, *column_name = NULL;
    char *error = NULL;

    if (strncmp(copy, "db:", 3)) {
        error = xasprintf("\"%s\": invalid syntax", name);
        goto out;
    }
    db_name = strtok_r(copy + 3, ",", &save_ptr);
    table_name = strtok_r(NULL, ",", &save_ptr);
    column_name = strtok_r(NULL, ",", &save_ptr);
    if (!db_name || !table_name || !column_name
        || strtok_r(NULL, ",", &save_ptr)) {
        error = xasprintf("\"%s\": invalid syntax", name);
        goto out;
    }

    const struct served_db *sdb = shash_find_data(&server->dbs, db_name);
    if (!sdb) {
        error = xasprintf("\"%s\": no database named %s", name, db_name);
        goto out;
    }
    const struct ovsdb_table *table = ovsdb_get_table(sdb->db, table_name);
    if (!table) {
        error = xasprintf("\"%s\": no table named %s", name, table_name);
        goto out;
    }
    const struct ovsdb_column *column
        = ovsdb_table_schema_get_column(table->schema, column_name);
    if (!column) {
        error = xasprintf("\"%s\": table \"%s\" has no column \"%s\"",
                          name, table_name, column_name);
        goto out;
    }
    *sdbp = sdb;
    *tablep = table;
    *columnp = column;

out:
    free(copy);
    return error;
}

static bool
is_string_set(const struct ovsdb_type *type)
{
    return (type->key.type == OVSDB_TYPE_STRING
            && type->value.type == OVSDB_TYPE_VOID);
}

/* Returns the first string in column NAME ("db:DB,TABLE,COLUMN") of any row,
 * or NULL (after logging why) if there is none. */
static const char *
query_db_string(const struct server *server, const char *name)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
    const struct served_db *sdb;
    const struct ovsdb_table *table;
    const struct ovsdb_column *column;
    char *error = parse_db_column(server, name, &sdb, &table, &column);
    if (error) {
        VLOG_WARN_RL(&rl, "%s", error);
        free(error);
        return NULL;
    }
    if (!is_string_set(&column->type)) {
        VLOG_WARN_RL(&rl, "\"%s\": column \"%s\" is not a string column",
                     name, column->name);
        return NULL;
    }

    const struct ovsdb_row *row;
    HMAP_FOR_EACH (row, hmap_node, &table->rows) {
        const struct ovsdb_datum *datum = &row->fields[column->index];
        for (unsigned int i = 0; i < datum->n; i++) {
            if (datum->keys[i].string[0]) {
                return datum->keys[i].string;
            }
        }
    }
    return NULL;
}

/* Remotes. */

static struct ovsdb_jsonrpc_options *
add_remote(struct shash *remotes, const char *target)
{
    struct ovsdb_jsonrpc_options *options = shash_find_data(remotes, target);
    if (!options) {
        options = ovsdb_jsonrpc_default_options(target);
        shash_add(remotes, target, options);
    }
    return options;
}

static const struct ovsdb_datum *
get_datum(const struct ovsdb_row *row, const char *column_name,
          enum ovsdb_atomic_type key_type, enum ovsdb_atomic_type value_type,
          unsigned int n_max)
{
    const struct ovsdb_column *column = ovsdb_table_schema_get_column(
        row->table->schema, column_name);
    if (!column
        || column->type.key.type != key_type
        || column->type.value.type != value_type
        || column->type.n_max < n_max) {
        return NULL;
    }
    return &row->fields[column->index];
}

static bool
read_integer(const struct ovsdb_row *row, const char *column_name,
             long long int *value)
{
    const struct ovsdb_datum *datum = get_datum(row, column_name,
                                                OVSDB_TYPE_INTEGER,
                                                OVSDB_TYPE_VOID, 1);
    if (datum && datum->n == 1) {
        *value = datum->keys[0].integer;
        return true;
    }
    return false;
}

static bool
read_bool(const struct ovsdb_row *row, const char *column_name, bool *value)
{
    const struct ovsdb_datum *datum = get_datum(row, column_name,
                                                OVSDB_TYPE_BOOLEAN,
                                                OVSDB_TYPE_VOID, 1);
    if (datum && datum->n == 1) {
        *value = datum->keys[0].boolean;
        return true;
    }
    return false;
}

static const char *
read_string(const struct ovsdb_row *row, const char *column_name)
{
    const struct ovsdb_datum *datum = get_datum(row, column_name,
                                                OVSDB_TYPE_STRING,
                                                OVSDB_TYPE_VOID, 1);
    return datum && datum->n == 1 ? datum->keys[0].string : NULL;
}

static const char *
read_map_string(const struct ovsdb_row *row, const char *column_name,
                const char *key)
{
    const struct ovsdb_datum *datum = get_datum(row, column_name,
                                                OVSDB_TYPE_STRING,
                                                OVSDB_TYPE_STRING, 2);
    if (datum) {
        for (unsigned int i = 0; i < datum->n; i++) {
            if (!strcmp(datum->keys[i].string, key)) {
                return datum->values[i].string;
            }
        }
    }
    return NULL;
}

/* Adds the remote that Manager-like ROW describes, with its options. */
static void
add_manager_options(struct shash *remotes, const struct ovsdb_row *row)
{
    const char *target = read_string(row, "target");
    if (!target || !target[0]) {
        return;
    }

    struct ovsdb_jsonrpc_options *options = add_remote(remotes, target);
    long long int value;
    if (read_integer(row, "max_backoff", &value)) {
        options->max_backoff = value;
    }
    if (read_integer(row, "inactivity_probe", &value)) {
        options->probe_interval = value;
    }
    bool read_only;
    if (read_bool(row, "read_only", &read_only)) {
        options->read_only = read_only;
    }
    const char *role = read_string(row, "role");
    if (role) {
        free(options->role);
        options->role = xstrdup(role);
    }
    const char *dscp = read_map_string(row, "other_config", "dscp");
    if (dscp) {
        int dscp_value;
        if (str_to_int(dscp, 10, &dscp_value)
            && dscp_value >= 0 && dscp_value <= 63) {
            options->dscp = dscp_value;
        }
    }
}

/* Adds to REMOTES what the db: remote NAME refers to.  Sets
 * *HAS_STATUS_ROWS if it refers to rows whose status we write back. */
static void
query_db_remotes(const struct server *server, const char *name,
                 struct shash *remotes, bool *has_status_rows)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
    const struct served_db *sdb;
    const struct ovsdb_table *table;
    const struct ovsdb_column *column;
    char *error = parse_db_column(server, name, &sdb, &table, &column);
    if (error) {
        VLOG_WARN_RL(&rl, "%s", error);
        free(error);
        return;
    }

    const struct ovsdb_type *type = &column->type;
    if (is_string_set(type)) {
        const struct ovsdb_row *row;
        HMAP_FOR_EACH (row, hmap_node, &table->rows) {
            const struct ovsdb_datum *datum = &row->fields[column->index];
            for (unsigned int i = 0; i < datum->n; i++) {
                add_remote(remotes, datum->keys[i].string);
            }
        }
    } else if (type->key.type == OVSDB_TYPE_UUID
               && type->key.u.uuid.refTable
               && type->value.type == OVSDB_TYPE_VOID) {
        const struct ovsdb_table *ref_table = ovsdb_get_table(
            sdb->db, type->key.u.uuid.refTableName);
        if (!ref_table) {
            return;
        }
        const struct ovsdb_row *row;
        HMAP_FOR_EACH (row, hmap_node, &table->rows) {
            const struct ovsdb_datum *datum = &row->fields[column->index];
            for (unsigned int i = 0; i < datum->n; i++) {
                const struct ovsdb_row *ref_row
                    = ovsdb_table_get_row(ref_table, &datum->keys[i].uuid);
                if (ref_row) {
                    add_manager_options(remotes, ref_row);
                    *has_status_rows = true;
                }
            }
        }
    } else {
        VLOG_WARN_RL(&rl, "\"%s\": column \"%s\" is neither strings nor "
                     "references to rows", name, column->name);
    }
}

static void
free_remote_options(struct shash *remotes)
{
    struct shash_node *node;
    SHASH_FOR_EACH (node, remotes) {
        struct ovsdb_jsonrpc_options *options = node->data;
        free(options->role);
        free(options);
    }
    shash_destroy(remotes);
}

/* Resolves one TLS setting: a "db:" reference is looked up, anything else is
 * a file name.  Returns NULL if not set or not found. */
static const char *
resolve_tls_setting(const struct server *server, const char *setting)
{
    if (!setting) {
        return NULL;
    }
    return (!strncmp(setting, "db:", 3)
            ? query_db_string(server, setting)
            : setting);
}

/* Replaces *APPLIED by NEW (either may be NULL) and says if it changed. */
static bool
update_applied(char **applied, const char *new)
{
    if ((!*applied && !new) || (*applied && new && !strcmp(*applied, new))) {
        return false;
    }
    free(*applied);
    *applied = new ? xstrdup(new) : NULL;
    return true;
}

static void
reconfigure_tls(struct server *server)
{
    const char *key = resolve_tls_setting(server, server->private_key);
    const char *cert = resolve_tls_setting(server, server->certificate);
    const char *ca = resolve_tls_setting(server, server->ca_cert);

    /* stream-ssl rebuilds its context on every call, so call it only for
     * real changes; a changed file under an unchanged name is noticed by
     * stream-ssl itself. */
    if (update_applied(&server->applied_key, key) && key) {
        stream_ssl_set_private_key_file(key);
    }
    if (update_applied(&server->applied_cert, cert) && cert) {
        stream_ssl_set_certificate_file(cert);
    }
    if (update_applied(&server->applied_ca, ca) && ca) {
        stream_ssl_set_ca_cert_file(ca, server->bootstrap_ca_cert);
    }

    /* NULL (not given, or a "db:" column without a value) is the
     * default. */
    const char *protocols = resolve_tls_setting(server,
                                                server->ssl_protocols);
    const char *ciphers = resolve_tls_setting(server, server->ssl_ciphers);
    if (update_applied(&server->applied_protocols, protocols)) {
        stream_ssl_set_protocols(protocols);
    }
    if (update_applied(&server->applied_ciphers, ciphers)) {
        stream_ssl_set_ciphers(ciphers);
    }
}

static void
reconfigure(struct server *server)
{
    COVERAGE_INC(ovsdb_server_reconfigure);
    server->config_stale = false;

    /* TLS first, so that new pssl: remotes already see the right keys. */
    reconfigure_tls(server);

    struct shash remotes = SHASH_INITIALIZER(&remotes);
    bool has_status_rows = false;
    const char *name;
    SSET_FOR_EACH (name, &server->remotes) {
        if (!strncmp(name, "db:", 3)) {
            query_db_remotes(server, name, &remotes, &has_status_rows);
        } else {
            add_remote(&remotes, name);
        }
    }
    ovsdb_jsonrpc_server_set_remotes(server->jsonrpc, &remotes);
    free_remote_options(&remotes);

    if (has_status_rows && !server->has_status_rows) {
        server->next_status = time_msec();
    }
    server->has_status_rows = has_status_rows;
}

/* Connection status written back into the database. */

static void
status_to_smap(const struct ovsdb_jsonrpc_remote_status *status,
               struct smap *smap)
{
    if (status->last_error) {
        smap_add(smap, "last_error", ovs_retval_to_string(status->last_error));
    }
    if (status->state) {
        smap_add(smap, "state", status->state);
    }
    if (status->sec_since_connect != UINT_MAX) {
        smap_add_format(smap, "sec_since_connect", "%u",
                        status->sec_since_connect);
    }
    if (status->sec_since_disconnect != UINT_MAX) {
        smap_add_format(smap, "sec_since_disconnect", "%u",
                        status->sec_since_disconnect);
    }
    if (status->locks_held && status->locks_held[0]) {
        smap_add(smap, "locks_held", status->locks_held);
    }
    if (status->locks_waiting && status->locks_waiting[0]) {
        smap_add(smap, "locks_waiting", status->locks_waiting);
    }
    if (status->locks_lost && status->locks_lost[0]) {
        smap_add(smap, "locks_lost", status->locks_lost);
    }
    if (status->n_connections > 1) {
        smap_add_format(smap, "n_connections", "%d", status->n_connections);
    }
    if (status->bound_port) {
        smap_add_format(smap, "bound_port", "%u", status->bound_port);
    }
}

/* Makes DATUM the string-to-string map SMAP (keys sorted). */
static void
smap_to_datum(const struct smap *smap, struct ovsdb_datum *datum)
{
    const struct smap_node **nodes = smap_sort(smap);
    size_t n = smap_count(smap);

    datum->n = n;
    datum->keys = n ? xmalloc(n * sizeof *datum->keys) : NULL;
    datum->values = n ? xmalloc(n * sizeof *datum->values) : NULL;
    for (size_t i = 0; i < n; i++) {
        datum->keys[i].string = xstrdup(nodes[i]->key);
        datum->values[i].string = xstrdup(nodes[i]->value);
    }
    free(nodes);
}

/* Records in TXN the status of the remote that ROW describes, touching the
 * row only if something differs. */
static void
update_row_status(struct ovsdb_jsonrpc_server *jsonrpc, struct ovsdb_txn *txn,
                  const struct ovsdb_row *row)
{
    const char *target = read_string(row, "target");
    if (!target) {
        return;
    }
    const struct ovsdb_column *connected_column
        = ovsdb_table_schema_get_column(row->table->schema, "is_connected");
    const struct ovsdb_column *status_column
        = ovsdb_table_schema_get_column(row->table->schema, "status");
    /* A boolean, required or optional ("min": 0): either way we write
     * exactly one value. */
    if (connected_column
        && (connected_column->type.key.type != OVSDB_TYPE_BOOLEAN
            || connected_column->type.value.type != OVSDB_TYPE_VOID
            || connected_column->type.n_max != 1)) {
        connected_column = NULL;
    }
    if (status_column
        && (status_column->type.key.type != OVSDB_TYPE_STRING
            || status_column->type.value.type != OVSDB_TYPE_STRING)) {
        status_column = NULL;
    }
    if (!connected_column && !status_column) {
        return;
    }

    struct ovsdb_jsonrpc_remote_status status;
    memset(&status, 0, sizeof status);
    if (!ovsdb_jsonrpc_server_get_remote_status(jsonrpc, target, &status)) {
        return;
    }

    struct smap smap = SMAP_INITIALIZER(&smap);
    status_to_smap(&status, &smap);
    struct ovsdb_datum status_datum;
    smap_to_datum(&smap, &status_datum);
    smap_destroy(&smap);
    ovsdb_jsonrpc_server_free_remote_status(&status);

    bool connected_differs = (connected_column
                              && (row->fields[connected_column->index].n != 1
                                  || row->fields[connected_column->index]
                                     .keys[0].boolean != status.is_connected));
    bool status_differs = (status_column
                           && !ovsdb_datum_equals(
                               &row->fields[status_column->index],
                               &status_datum, &status_column->type));
    if (connected_differs || status_differs) {
        struct ovsdb_row *rw = ovsdb_txn_row_modify(txn, row);
        if (connected_differs) {
            struct ovsdb_datum *datum = &rw->fields[connected_column->index];
            union ovsdb_atom atom = { .boolean = status.is_connected };
            ovsdb_datum_destroy(datum, &connected_column->type);
            ovsdb_datum_init_atom(datum, &atom, OVSDB_TYPE_BOOLEAN);
        }
        if (status_differs) {
            ovsdb_datum_swap(&rw->fields[status_column->index],
                             &status_datum);
        }
    }
    /* A string-to-string map, whatever column it came from. */
    struct ovsdb_type map_type = {
        .key = { .type = OVSDB_TYPE_STRING },
        .value = { .type = OVSDB_TYPE_STRING },
        .n_min = 0,
        .n_max = UINT_MAX,
    };
    ovsdb_datum_destroy(&status_datum, &map_type);
}

/* Writes status into the rows of every "db:" remote that refers to rows. */
/* Remote status is written on a timer, so a recorded run (replay.h) writes
 * none: its replay could not write the same. */
static bool
status_updates_due(const struct server *server)
{
    return (server->has_status_rows && !replay_is_active()
            && time_msec() >= server->next_status);
}

static void
update_remote_status(struct server *server)
{
    COVERAGE_INC(ovsdb_server_status_write);

    struct shash txns = SHASH_INITIALIZER(&txns);  /* DB name -> txn. */
    const char *name;
    SSET_FOR_EACH (name, &server->remotes) {
        const struct served_db *sdb;
        const struct ovsdb_table *table;
        const struct ovsdb_column *column;
        if (strncmp(name, "db:", 3)) {
            continue;
        }
        char *error = parse_db_column(server, name, &sdb, &table, &column);
        if (error) {
            free(error);
            continue;
        }
        const struct ovsdb_type *type = &column->type;
        if (type->key.type != OVSDB_TYPE_UUID || !type->key.u.uuid.refTable
            || type->value.type != OVSDB_TYPE_VOID) {
            continue;
        }
        const struct ovsdb_table *ref_table = ovsdb_get_table(
            sdb->db, type->key.u.uuid.refTableName);
        if (!ref_table) {
            continue;
        }

        struct ovsdb_txn *txn = shash_find_data(&txns, sdb->db->name);
        if (!txn) {
            txn = ovsdb_txn_create(sdb->db);
            shash_add(&txns, sdb->db->name, txn);
        }
        const struct ovsdb_row *row;
        HMAP_FOR_EACH (row, hmap_node, &table->rows) {
            const struct ovsdb_datum *datum = &row->fields[column->index];
            for (unsigned int i = 0; i < datum->n; i++) {
                const struct ovsdb_row *ref_row
                    = ovsdb_table_get_row(ref_table, &datum->keys[i].uuid);
                if (ref_row) {
                    update_row_status(server->jsonrpc, txn, ref_row);
                }
            }
        }
    }

    struct shash_node *node;
    SHASH_FOR_EACH (node, &txns) {
        struct ovsdb_txn *txn = node->data;
        if (ovsdb_txn_is_empty(txn)) {
            ovsdb_txn_abort(txn);
            continue;
        }
        /* Our own write must not make us reconfigure. */
        bool was_stale = server->config_stale;
        struct ovsdb_error *error = ovsdb_txn_commit(txn, false);
        server->config_stale = was_stale;
        if (error) {
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
            char *s = ovsdb_error_to_string_free(error);
            VLOG_WARN_RL(&rl, "%s: writing remote status failed: %s",
                         node->name, s);
            free(s);
        }
    }
    shash_destroy(&txns);
}

/* Compaction. */

static void
compact_due_dbs(struct server *server)
{
    long long int now = time_msec();
    struct shash_node *node;
    SHASH_FOR_EACH (node, &server->dbs) {
        struct served_db *sdb = node->data;
        if (sdb->file && ovsdb_file_should_compact(sdb->file, now)) {
            VLOG_INFO("%s: compacting database online (%u transactions)",
                      sdb->filename,
                      ovsdb_file_get_n_transactions(sdb->file));
            struct ovsdb_error *error = ovsdb_file_compact(sdb->file);
            if (error) {
                char *s = ovsdb_error_to_string_free(error);
                VLOG_WARN("%s: compacting failed (%s)", sdb->filename, s);
                free(s);
            }
        }
    }
}

static void
compact_wait(struct server *server)
{
    struct shash_node *node;
    SHASH_FOR_EACH (node, &server->dbs) {
        struct served_db *sdb = node->data;
        /* Only time can make a file due for compaction without a commit
         * (which wakes us anyway), so wait for the time only when all the
         * other conditions already hold; otherwise a timer that already
         * expired would make the loop spin. */
        if (sdb->file && ovsdb_file_should_compact(sdb->file, LLONG_MAX)) {
            poll_timer_wait_until(ovsdb_file_next_compact(sdb->file));
        }
    }
}

/* main(). */

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    fatal_ignore_sigpipe();

    struct server server;
    memset(&server, 0, sizeof server);
    shash_init(&server.dbs);
    ovs_list_init(&server.relays);
    sset_init(&server.remotes);
    sset_init(&server.sync_exclude);

    struct sset db_filenames = SSET_INITIALIZER(&db_filenames);
    char *unixctl_path = NULL;
    parse_options(argc, argv, &server, &db_filenames, &unixctl_path);

    server.config_fd = daemon_is_monitored() ? server_config_file_open() : -1;
    daemonize_start();

    /* A daemon restarted by the monitor serves what its predecessor did. */
    struct server_config saved;
    server_config_init(&saved);
    if (server_config_load(server.config_fd, &saved)) {
        sset_swap(&db_filenames, &saved.databases);
        sset_swap(&server.remotes, &saved.remotes);
        free(server.sync_from);
        server.sync_from = nullable_xstrdup(saved.sync_from);
        if (saved.sync_exclude) {
            char *error = replication_parse_exclusions(
                saved.sync_exclude, &server.sync_exclude);
            free(error);
        }
        server.active = !saved.backup;
    }
    server_config_destroy(&saved);

    server.jsonrpc = ovsdb_jsonrpc_server_create(false);
    uuid_generate(&server.server_id);
    ovsdb_jsonrpc_server_set_server_id(server.jsonrpc, &server.server_id);
    ovsdb_jsonrpc_server_set_convert_cb(server.jsonrpc, convert_db_cb,
                                        &server);

    struct served_db *server_db = xzalloc(sizeof *server_db);
    server_db->db = server_db_create();
    server.server_db = server_db;
    add_served_db(&server, server_db);

    const char *filename;
    SSET_FOR_EACH (filename, &db_filenames) {
        ovsdb_error_check_fatal(open_db(&server, filename));
    }
    sset_destroy(&db_filenames);
    refresh_server_db(&server);

    /* Check the remotes' syntax now, so that a typo fails the start. */
    const char *remote;
    SSET_FOR_EACH (remote, &server.remotes) {
        if (!strncmp(remote, "db:", 3)) {
            const struct served_db *sdb;
            const struct ovsdb_table *table;
            const struct ovsdb_column *column;
            char *error = parse_db_column(&server, remote, &sdb, &table,
                                          &column);
            if (error) {
                ovs_fatal(0, "%s", error);
            }
        }
    }
    reconfigure(&server);

    struct unixctl_server *unixctl;
    int retval = unixctl_server_create(unixctl_path, &unixctl);
    if (retval) {
        exit(EXIT_FAILURE);
    }
    unixctl_command_register("exit", "", 0, 0, exit_cb, &server);
    unixctl_command_register("ovsdb-server/compact", "", 0, INT_MAX,
                             compact_cb, &server);
    unixctl_command_register("ovsdb-server/reconnect", "", 0, 0,
                             reconnect_cb, &server);
    unixctl_command_register("ovsdb-server/add-remote", "REMOTE", 1, 1,
                             add_remote_cb, &server);
    unixctl_command_register("ovsdb-server/remove-remote", "REMOTE", 1, 1,
                             remove_remote_cb, &server);
    unixctl_command_register("ovsdb-server/list-remotes", "", 0, 0,
                             list_remotes_cb, &server);
    unixctl_command_register("ovsdb-server/add-db", "DB", 1, 1,
                             add_db_cb, &server);
    unixctl_command_register("ovsdb-server/remove-db", "DB", 1, 1,
                             remove_db_cb, &server);
    unixctl_command_register("ovsdb-server/list-dbs", "", 0, 0,
                             list_dbs_cb, &server);
    unixctl_command_register("ovsdb-server/get-db-storage-status", "DB",
                             1, 1, storage_status_cb, &server);
    unixctl_command_register("memory/show", "", 0, 0,
                             memory_show_cb, &server);
    unixctl_command_register("ovsdb-server/set-active-ovsdb-server",
                             "SERVER", 1, 1, set_active_server_cb, &server);
    unixctl_command_register("ovsdb-server/get-active-ovsdb-server", "",
                             0, 0, get_active_server_cb, &server);
    unixctl_command_register("ovsdb-server/connect-active-ovsdb-server", "",
                             0, 0, connect_active_server_cb, &server);
    unixctl_command_register("ovsdb-server/disconnect-active-ovsdb-server",
                             "", 0, 0, disconnect_active_server_cb, &server);
    unixctl_command_register("ovsdb-server/set-sync-exclude-tables",
                             "DB:TABLE,...", 0, 1, set_sync_exclude_cb,
                             &server);
    unixctl_command_register("ovsdb-server/get-sync-exclude-tables", "",
                             0, 0, get_sync_exclude_cb, &server);
    unixctl_command_register("ovsdb-server/sync-status", "", 0, 0,
                             sync_status_cb, &server);

    /* With --run the server is a tool that a command runs against, as
     * quiet as the command wants its output. */
    if (!server.run_command) {
        vlog_log_start_banner(THIS_MODULE);
    }

    if (server.sync_from && !server.active) {
        set_backup(&server, true);
    }

    daemonize_complete();

    if (server.run_command) {
        int error = process_start_shell(server.run_command,
                                        &server.run_process);
        if (error) {
            ovs_fatal(error, "%s: failed to start", server.run_command);
        }
    }

    int exit_status = EXIT_SUCCESS;
    while (!server.exiting) {
        fatal_signal_run();
        if (server.run_process) {
            process_run();
            if (process_exited(server.run_process)) {
                int status = process_status(server.run_process);
                if (!WIFEXITED(status) || WEXITSTATUS(status)) {
                    char *msg = process_status_msg(status);
                    ovs_error(0, "%s: child exited, %s",
                              server.run_command, msg);
                    free(msg);
                    exit_status = EXIT_FAILURE;
                }
                server.exiting = true;
                break;
            }
        }
        if (server.config_stale) {
            reconfigure(&server);
        }
        replication_run_and_check(&server);
        relays_run(&server);
        clusters_run(&server);
        ovsdb_jsonrpc_server_run(server.jsonrpc);
        unixctl_server_run(unixctl);
        timeval_run();
        if (server.config_stale) {
            /* A client changed a table we read configuration from. */
            reconfigure(&server);
        }
        compact_due_dbs(&server);
        if (status_updates_due(&server)) {
            update_remote_status(&server);
            server.next_status = time_msec() + STATUS_INTERVAL;
        }

        fatal_signal_wait();
        if (server.replication) {
            replication_wait(server.replication);
        }
        relays_wait(&server);
        clusters_wait(&server);
        ovsdb_jsonrpc_server_wait(server.jsonrpc);
        unixctl_server_wait(unixctl);
        timeval_wait();
        compact_wait(&server);
        if (server.has_status_rows && !replay_is_active()) {
            poll_timer_wait_until(server.next_status);
        }
        if (server.run_process) {
            process_wait(server.run_process);
        }
        if (server.exiting || server.config_stale) {
            poll_immediate_wake();
        }
        poll_block();
    }
    process_destroy(server.run_process);
    free(server.run_command);

    unixctl_server_destroy(unixctl);

    /* Databases before the JSON-RPC server, so that their sessions learn
     * the databases are gone through the usual path; silently (no
     * comment), as 3.1 exits: a client that has already hung up but
     * whose hang-up was not read yet would otherwise be logged. */
    struct relay_db *rdb;
    LIST_FOR_EACH_SAFE (rdb, node, &server.relays) {
        close_relay(&server, rdb, NULL);
    }
    struct shash_node *node;
    SHASH_FOR_EACH_SAFE (node, &server.dbs) {
        close_db(&server, node->data, NULL);
    }
    ovsdb_jsonrpc_server_destroy(server.jsonrpc);
    shash_destroy(&server.dbs);
    sset_destroy(&server.remotes);
    sset_destroy(&server.sync_exclude);
    free(server.sync_from);
    free(server.private_key);
    free(server.certificate);
    free(server.ca_cert);
    free(server.applied_key);
    free(server.applied_cert);
    free(server.applied_ca);
    free(server.ssl_protocols);
    free(server.ssl_ciphers);
    free(server.applied_protocols);
    free(server.applied_ciphers);
    free(unixctl_path);
    stream_ssl_cleanup();
    poll_loop_destroy_self();
    return exit_status;
}

/* unixctl commands. */

static void
set_active_server_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
                     const char *argv[], void *server_)
{
    struct server *server = server_;
    free(server->sync_from);
    server->sync_from = xstrdup(argv[1]);
    save_config(server);
    unixctl_command_reply(conn, NULL);
}

static void
get_active_server_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
                     const char *argv[] OVS_UNUSED, void *server_)
{
    struct server *server = server_;
    char *reply = xasprintf("%s\n", server->sync_from ? server->sync_from
                                                       : "");
    unixctl_command_reply(conn, reply);
    free(reply);
}

static void
connect_active_server_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
                         const char *argv[] OVS_UNUSED, void *server_)
{
    struct server *server = server_;
    if (!server->sync_from) {
        unixctl_command_reply(conn, "Unable to connect: active server is "
                              "not specified.\n");
        return;
    }
    set_backup(server, true);
    unixctl_command_reply(conn, NULL);
}

static void
disconnect_active_server_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
                            const char *argv[] OVS_UNUSED, void *server_)
{
    struct server *server = server_;
    set_backup(server, false);
    unixctl_command_reply(conn, NULL);
}

static void
set_sync_exclude_cb(struct unixctl_conn *conn, int argc, const char *argv[],
                    void *server_)
{
    struct server *server = server_;
    struct sset excluded = SSET_INITIALIZER(&excluded);
    char *error = replication_parse_exclusions(argc > 1 ? argv[1] : "",
                                               &excluded);
    if (error) {
        unixctl_command_reply_error(conn, error);
        free(error);
        sset_destroy(&excluded);
        return;
    }
    sset_swap(&server->sync_exclude, &excluded);
    sset_destroy(&excluded);
    if (server->backup) {
        set_backup(server, true);
    } else {
        save_config(server);
    }
    unixctl_command_reply(conn, NULL);
}

static void
get_sync_exclude_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
                    const char *argv[] OVS_UNUSED, void *server_)
{
    struct server *server = server_;
    struct ds s = DS_EMPTY_INITIALIZER;
    replication_put_exclusions(&server->sync_exclude, &s);
    ds_put_char(&s, '\n');
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
sync_status_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
               const char *argv[] OVS_UNUSED, void *server_)
{
    struct server *server = server_;
    struct ds s = DS_EMPTY_INITIALIZER;
    if (server->replication) {
        ds_put_cstr(&s, "state: backup\n");
        replication_get_status(server->replication, &s);
    } else {
        ds_put_cstr(&s, "state: active\n");
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
exit_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
        const char *argv[] OVS_UNUSED, void *server_)
{
    struct server *server = server_;
    server->exiting = true;
    unixctl_command_reply(conn, NULL);
}

static void
compact_cb(struct unixctl_conn *conn, int argc, const char *argv[],
           void *server_)
{
    struct server *server = server_;
    struct ds reply = DS_EMPTY_INITIALIZER;
    bool failed = false;

    /* Validate every name before compacting anything. */
    for (int i = 1; i < argc; i++) {
        const struct served_db *sdb = shash_find_data(&server->dbs, argv[i]);
        if (!sdb) {
            unixctl_command_reply_error(conn, "no database by that name");
            return;
        }
        if (!sdb->file && !sdb->db->cluster) {
            unixctl_command_reply_error(conn,
                                        "cannot compact built-in databases");
            return;
        }
    }

    const struct shash_node **nodes = shash_sort(&server->dbs);
    size_t n = shash_count(&server->dbs);
    for (size_t i = 0; i < n; i++) {
        struct served_db *sdb = nodes[i]->data;
        if (!sdb->file && !sdb->db->cluster) {
            continue;
        }
        bool wanted = argc < 2;
        for (int j = 1; j < argc && !wanted; j++) {
            wanted = !strcmp(argv[j], nodes[i]->name);
        }
        if (!wanted) {
            continue;
        }
        VLOG_INFO("compacting %s database by user request", nodes[i]->name);
        struct ovsdb_error *error = (sdb->file
                                     ? ovsdb_file_compact(sdb->file)
                                     : ovsdb_cluster_compact(
                                         sdb->db->cluster));
        if (error) {
            char *s = ovsdb_error_to_string_free(error);
            ds_put_format(&reply, "%s\n", s);
            free(s);
            failed = true;
        }
    }
    free(nodes);

    if (failed) {
        unixctl_command_reply_error(conn, ds_cstr(&reply));
    } else {
        unixctl_command_reply(conn, NULL);
    }
    ds_destroy(&reply);
}

static void
reconnect_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
             const char *argv[] OVS_UNUSED, void *server_)
{
    struct server *server = server_;
    ovsdb_jsonrpc_server_reconnect(server->jsonrpc, false,
                                   "command line order");
    unixctl_command_reply(conn, NULL);
}

static void
add_remote_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
              const char *argv[], void *server_)
{
    struct server *server = server_;
    const char *remote = argv[1];

    if (!strncmp(remote, "db:", 3)) {
        const struct served_db *sdb;
        const struct ovsdb_table *table;
        const struct ovsdb_column *column;
        char *error = parse_db_column(server, remote, &sdb, &table, &column);
        if (error) {
            unixctl_command_reply_error(conn, error);
            free(error);
            return;
        }
    }
    sset_add(&server->remotes, remote);
    server->config_stale = true;
    save_config(server);
    unixctl_command_reply(conn, NULL);
}

static void
remove_remote_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
                 const char *argv[], void *server_)
{
    struct server *server = server_;
    if (!sset_find_and_delete(&server->remotes, argv[1])) {
        unixctl_command_reply_error(conn, "no such remote");
        return;
    }
    server->config_stale = true;
    save_config(server);
    unixctl_command_reply(conn, NULL);
}

static void
list_remotes_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
                const char *argv[] OVS_UNUSED, void *server_)
{
    struct server *server = server_;
    struct ds s = DS_EMPTY_INITIALIZER;
    const char **names = sset_sort(&server->remotes);
    for (size_t i = 0; i < sset_count(&server->remotes); i++) {
        ds_put_format(&s, "%s\n", names[i]);
    }
    free(names);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
add_db_cb(struct unixctl_conn *conn, int argc OVS_UNUSED, const char *argv[],
          void *server_)
{
    struct server *server = server_;
    struct ovsdb_error *error = open_db(server, argv[1]);
    if (error) {
        char *s = ovsdb_error_to_string_free(error);
        unixctl_command_reply_error(conn, s);
        free(s);
        return;
    }
    refresh_server_db(server);
    unixctl_command_reply(conn, NULL);
}

static void
remove_db_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
             const char *argv[], void *server_)
{
    struct server *server = server_;
    struct served_db *sdb = shash_find_data(&server->dbs, argv[1]);
    if (!sdb) {
        unixctl_command_reply_error(conn, "Failed to find the database.");
        return;
    }
    if (sdb == server->server_db) {
        unixctl_command_reply_error(conn,
                                    "Cannot remove reserved database.");
        return;
    }
    char *comment = xasprintf("removing %s database by user request",
                              argv[1]);
    if (sdb->relay_db) {
        close_relay(server, sdb->relay_db, comment);
    } else {
        close_db(server, sdb, comment);
    }
    free(comment);
    refresh_server_db(server);
    unixctl_command_reply(conn, NULL);
}

static void
list_dbs_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
            const char *argv[] OVS_UNUSED, void *server_)
{
    struct server *server = server_;
    struct ds s = DS_EMPTY_INITIALIZER;
    const struct shash_node **nodes = shash_sort(&server->dbs);
    for (size_t i = 0; i < shash_count(&server->dbs); i++) {
        ds_put_format(&s, "%s\n", nodes[i]->name);
    }
    free(nodes);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
storage_status_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
                  const char *argv[], void *server_)
{
    struct server *server = server_;
    if (!shash_find(&server->dbs, argv[1])) {
        unixctl_command_reply_error(conn, "Failed to find the database.");
        return;
    }
    /* Standalone storage has no failure state it could report later. */
    unixctl_command_reply(conn, "status: ok");
}

static void
memory_show_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
               const char *argv[] OVS_UNUSED, void *server_)
{
    struct server *server = server_;
    struct smap usage = SMAP_INITIALIZER(&usage);

    struct shash_node *node;
    SHASH_FOR_EACH (node, &server->dbs) {
        struct served_db *sdb = node->data;
        ovsdb_get_memory_usage(sdb->db, &usage);
        if (sdb != server->server_db) {
            /* _Server's history is of rows the server writes itself. */
            ovsdb_monitor_get_memory_usage(sdb->db, &usage);
        }
    }
    ovsdb_jsonrpc_server_get_memory_usage(server->jsonrpc, &usage);

    struct ds s = DS_EMPTY_INITIALIZER;
    const struct smap_node **nodes = smap_sort(&usage);
    for (size_t i = 0; i < smap_count(&usage); i++) {
        ds_put_format(&s, "%s%s:%s", i ? " " : "", nodes[i]->key,
                      nodes[i]->value);
    }
    free(nodes);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
    smap_destroy(&usage);
}

/* Options. */

static void
parse_options(int argc, char *argv[], struct server *server,
              struct sset *db_filenames, char **unixctl_pathp)
{
    enum {
        OPT_REMOTE = UCHAR_MAX + 1,
        OPT_UNIXCTL,
        OPT_BOOTSTRAP_CA_CERT,
        OPT_PEER_CA_CERT,
        OPT_RUN,
        OPT_SYNC_FROM,
        OPT_SYNC_EXCLUDE,
        OPT_ACTIVE,
        DAEMON_OPTION_ENUMS,
        VLOG_OPTION_ENUMS,
        STREAM_SSL_OPTION_ENUMS,
        REPLAY_OPTION_ENUMS
    };
    static const struct option long_options[] = {
        {"remote", required_argument, NULL, OPT_REMOTE},
        {"unixctl", required_argument, NULL, OPT_UNIXCTL},
        {"run", required_argument, NULL, OPT_RUN},
        {"sync-from", required_argument, NULL, OPT_SYNC_FROM},
        {"sync-exclude-tables", required_argument, NULL, OPT_SYNC_EXCLUDE},
        {"active", no_argument, NULL, OPT_ACTIVE},
        {"bootstrap-ca-cert", required_argument, NULL,
         OPT_BOOTSTRAP_CA_CERT},
        {"peer-ca-cert", required_argument, NULL, OPT_PEER_CA_CERT},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        DAEMON_LONG_OPTIONS,
        VLOG_LONG_OPTIONS,
        STREAM_SSL_LONG_OPTIONS,
        REPLAY_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    char *short_options = ovs_cmdl_long_options_to_short_options(long_options);

    for (;;) {
        int c = getopt_long(argc, argv, short_options, long_options, NULL);
        if (c == -1) {
            break;
        }

        switch (c) {
        case OPT_REMOTE:
            sset_add(&server->remotes, optarg);
            break;

        case OPT_UNIXCTL:
            free(*unixctl_pathp);
            *unixctl_pathp = xstrdup(optarg);
            break;

        case OPT_RUN:
            free(server->run_command);
            server->run_command = xstrdup(optarg);
            break;

        case OPT_SYNC_FROM:
            free(server->sync_from);
            server->sync_from = xstrdup(optarg);
            break;

        case OPT_SYNC_EXCLUDE: {
            char *error = replication_parse_exclusions(optarg,
                                                       &server->sync_exclude);
            if (error) {
                ovs_fatal(0, "%s", error);
            }
            break;
        }

        case OPT_ACTIVE:
            server->active = true;
            break;

        /* Key, certificate and CA may name a file or a "db:" column: keep
         * them and apply them once the databases are open. */
        case 'p':
            free(server->private_key);
            server->private_key = xstrdup(optarg);
            break;

        case 'c':
            free(server->certificate);
            server->certificate = xstrdup(optarg);
            break;

        case 'C':
            free(server->ca_cert);
            server->ca_cert = xstrdup(optarg);
            server->bootstrap_ca_cert = false;
            break;

        case OPT_BOOTSTRAP_CA_CERT:
            free(server->ca_cert);
            server->ca_cert = xstrdup(optarg);
            server->bootstrap_ca_cert = true;
            break;

        case OPT_PEER_CA_CERT:
            stream_ssl_set_peer_ca_cert_file(optarg);
            break;

        /* Also a file name or a "db:" column, like the key. */
        case OPT_SSL_PROTOCOLS:
            free(server->ssl_protocols);
            server->ssl_protocols = xstrdup(optarg);
            break;

        case OPT_SSL_CIPHERS:
            free(server->ssl_ciphers);
            server->ssl_ciphers = xstrdup(optarg);
            break;

        case 'h':
            free(short_options);
            usage();

        case 'V':
            ovs_print_version();
            free(short_options);
            exit(EXIT_SUCCESS);

        DAEMON_OPTION_HANDLERS
        VLOG_OPTION_HANDLERS
        REPLAY_OPTION_HANDLERS

        case '?':
            exit(EXIT_FAILURE);

        default:
            abort();
        }
    }
    free(short_options);

    argc -= optind;
    argv += optind;
    if (argc > 0) {
        for (int i = 0; i < argc; i++) {
            sset_add(db_filenames, argv[i]);
        }
    } else {
        char *default_db = xasprintf("%s/conf.db", ovs_dbdir());
        sset_add(db_filenames, default_db);
        free(default_db);
    }
}

static noreturn void
usage(void)
{
    printf("%s: Open vSwitch database server\n"
           "usage: %s [OPTIONS] [DATABASE...]\n"
           "where each DATABASE is a database file in ovsdb format.\n"
           "The default DATABASE, if none is given, is\n%s/conf.db.\n",
           program_name, program_name, ovs_dbdir());
    printf("\nJSON-RPC options (may be specified any number of times):\n"
           "  --remote=REMOTE         connect or listen to REMOTE\n"
           "                          (db:DB,TABLE,COLUMN reads remotes "
           "from a database)\n"
           "\nActive JSON-RPC connection methods:\n"
           "  tcp:HOST:PORT           PORT at remote HOST\n"
           "  ssl:HOST:PORT           SSL PORT at remote HOST\n"
           "  unix:FILE               Unix domain socket named FILE\n"
           "Passive JSON-RPC connection methods:\n"
           "  ptcp:PORT[:IP]          listen to TCP PORT on IP\n"
           "  pssl:PORT[:IP]          listen for SSL on PORT on IP\n"
           "  punix:FILE              listen on Unix domain socket FILE\n");
    printf("\nActive-backup replication:\n"
           "  --sync-from=SERVER      replicate the databases from SERVER "
           "(backup)\n"
           "  --sync-exclude-tables=DB:TABLE,...\n"
           "                          exclude these tables from replication\n"
           "  --active                start as the active server, even with "
           "--sync-from\n");
    printf("PKI configuration (required to use SSL):\n"
           "  -p, --private-key=FILE  file with private key\n"
           "  -c, --certificate=FILE  file with certificate for private key\n"
           "  -C, --ca-cert=FILE      file with peer CA certificate\n"
           "  --bootstrap-ca-cert=FILE  file with peer CA certificate "
           "to read or create\n"
           "  --peer-ca-cert=FILE     CA certificate sent to peers with "
           "ours\n"
           "  (all but --peer-ca-cert may also be db:DB,TABLE,COLUMN)\n"
           "SSL options:\n"
           "  --ssl-protocols=PROTOS  list of SSL protocols to enable\n"
           "  --ssl-ciphers=CIPHERS   list of SSL ciphers to enable\n"
           "  (PROTOS and CIPHERS may also be db:DB,TABLE,COLUMN)\n");
    daemon_usage();
    vlog_usage();
    replay_usage();
    printf("\nOther options:\n"
           "  --run COMMAND           run COMMAND as subprocess then exit\n"
           "  --unixctl=SOCKET        override default control socket name\n"
           "  -h, --help              display this help message\n"
           "  -V, --version           display version information\n");
    exit(EXIT_SUCCESS);
}
