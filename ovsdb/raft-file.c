/* Clustered database files as a whole. */
#include <config.h>

#include "raft-file.h"

#include <string.h>
#include "file.h"
#include "log.h"
#include "ovsdb.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "sset.h"
#include "transaction.h"

/* Writes HEADER as the first record of new file FILE_NAME, durably. */
static struct ovsdb_error *
write_new_file(const char *file_name, const struct raft_header *header)
{
    struct ovsdb_log *log;
    struct ovsdb_error *error = ovsdb_log_open(file_name, RAFT_MAGIC,
                                               OVSDB_LOG_CREATE_EXCL, -1,
                                               &log);
    if (error) {
        return error;
    }
    json_t *json = raft_header_to_json(header);
    error = ovsdb_log_write(log, json);
    json_decref(json);
    if (!error) {
        error = ovsdb_log_commit_block(log);
    }
    ovsdb_log_close(log);
    return error;
}

struct ovsdb_error *
raft_file_create_cluster(const char *file_name, const char *name,
                         const char *local_address, const json_t *data,
                         uint64_t election_timer)
{
    struct ovsdb_error *error = raft_address_validate(local_address);
    if (error) {
        return error;
    }
    if (election_timer && (election_timer < RAFT_ELECTION_TIMER_MIN
                           || election_timer > RAFT_ELECTION_TIMER_MAX)) {
        return ovsdb_error(NULL, "election timer must be between %d and "
                           "%d, in msec.", RAFT_ELECTION_TIMER_MIN,
                           RAFT_ELECTION_TIMER_MAX);
    }

    struct raft_header h;
    memset(&h, 0, sizeof h);
    sset_init(&h.remote_addresses);
    uuid_generate(&h.sid);
    uuid_generate(&h.cid);
    h.name = xstrdup(name);
    h.local_address = xstrdup(local_address);
    h.snap_index = 1;
    h.snap_term = 1;
    uuid_generate(&h.snap_eid);
    h.snap_servers = json_object();
    char sid_s[UUID_LEN + 1];
    uuid_format(&h.sid, sid_s);
    json_object_set_new(h.snap_servers, sid_s, json_string(local_address));
    h.snap_data = json_deep_copy(data);
    h.snap_election_timer = election_timer;

    error = write_new_file(file_name, &h);
    raft_header_uninit(&h);
    return error;
}

struct ovsdb_error *
raft_file_join_cluster(const char *file_name, const char *name,
                       const char *local_address, const struct sset *remotes,
                       const struct uuid *cid)
{
    struct ovsdb_error *error = raft_address_validate(local_address);
    if (error) {
        return error;
    }
    const char *remote;
    SSET_FOR_EACH (remote, remotes) {
        error = raft_address_validate(remote);
        if (error) {
            return error;
        }
        if (!strcmp(remote, local_address)) {
            return ovsdb_error(NULL, "remote addresses cannot be the same "
                               "as the local address");
        }
    }
    if (cid && uuid_is_zero(cid)) {
        return ovsdb_error(NULL, "all-zero UUID is not valid cluster ID");
    }

    struct raft_header h;
    memset(&h, 0, sizeof h);
    uuid_generate(&h.sid);
    if (cid) {
        h.cid = *cid;
    }
    h.name = xstrdup(name);
    h.local_address = xstrdup(local_address);
    h.joining = true;
    sset_clone(&h.remote_addresses, remotes);

    error = write_new_file(file_name, &h);
    raft_header_uninit(&h);
    return error;
}

void
raft_file_contents_destroy(struct raft_file_contents *c)
{
    if (c) {
        raft_header_uninit(&c->header);
        for (size_t i = 0; i < c->n_records; i++) {
            raft_record_uninit(&c->records[i]);
        }
        free(c->records);
        c->records = NULL;
        c->n_records = 0;
    }
}

struct ovsdb_error *
raft_file_read(const char *file_name, struct raft_file_contents *c)
{
    memset(c, 0, sizeof *c);
    sset_init(&c->header.remote_addresses);

    struct ovsdb_log *log;
    struct ovsdb_error *error = ovsdb_log_open(file_name, RAFT_MAGIC,
                                               OVSDB_LOG_READ_ONLY, 0, &log);
    if (error) {
        return error;
    }

    json_t *json;
    error = ovsdb_log_read(log, &json);
    if (!error && !json) {
        error = ovsdb_error(NULL, "%s: unexpected end of file", file_name);
    }
    if (!error) {
        sset_destroy(&c->header.remote_addresses);
        error = raft_header_from_json(&c->header, json);
        json_decref(json);
        if (error) {
            sset_init(&c->header.remote_addresses);
        }
    }

    size_t allocated = 0;
    while (!error) {
        error = ovsdb_log_read(log, &json);
        if (error || !json) {
            break;
        }
        if (c->n_records >= allocated) {
            c->records = x2nrealloc(c->records, &allocated,
                                    sizeof *c->records);
        }
        error = raft_record_from_json(&c->records[c->n_records], json);
        json_decref(json);
        if (!error) {
            c->n_records++;
        }
    }
    ovsdb_log_close(log);

    if (error) {
        raft_file_contents_destroy(c);
    }
    return error;
}

struct ovsdb_error *
raft_file_apply_data(struct ovsdb **dbp, const json_t *data,
                     const struct uuid *eid)
{
    if (!json_is_array(data) || json_array_size(data) != 2) {
        return ovsdb_syntax_error(data, NULL, "invalid commit format");
    }
    const json_t *schema_json = json_array_get(data, 0);
    const json_t *txn_json = json_array_get(data, 1);

    struct ovsdb *db = *dbp;
    bool new_db = false;
    struct ovsdb_error *error;
    if (!json_is_null(schema_json)) {
        struct ovsdb_schema *schema;
        error = ovsdb_schema_from_json(schema_json, &schema);
        if (error) {
            return error;
        }
        db = ovsdb_create(schema);
        new_db = true;
    } else if (!db) {
        return ovsdb_error(NULL, "transaction before any schema");
    }

    if (!json_is_null(txn_json)) {
        struct ovsdb_txn *txn;
        error = ovsdb_file_txn_from_json(db, txn_json, &txn);
        if (!error) {
            if (eid) {
                ovsdb_txn_set_txnid(txn, eid);
            }
            error = ovsdb_txn_commit(txn, false);
        }
        if (error) {
            if (new_db) {
                ovsdb_destroy(db);
            }
            return error;
        }
    } else if (eid) {
        db->last_txnid = *eid;
    }

    if (new_db) {
        if (*dbp) {
            ovsdb_destroy(*dbp);
        }
        *dbp = db;
    }
    return NULL;
}

struct ovsdb_error *
raft_file_contents_to_db(const struct raft_file_contents *c,
                         struct ovsdb **dbp)
{
    *dbp = NULL;
    const struct raft_header *h = &c->header;
    if (h->joining || !h->snap_data) {
        return ovsdb_error(NULL, "%s: database not yet joined to a cluster",
                           h->name);
    }

    /* Later entries at an index replace earlier ones (a new leader
     * overwrote them), so find the last entry written at each index. */
    uint64_t start = h->snap_index + 1;
    size_t n = 0;
    const struct raft_entry **entries = NULL;
    for (size_t i = 0; i < c->n_records; i++) {
        const struct raft_record *r = &c->records[i];
        if (r->type != RAFT_REC_ENTRY || r->index < start
            || r->index > start + n) {
            continue;
        }
        n = r->index - start + 1;
        entries = xrealloc(entries, n * sizeof *entries);
        entries[n - 1] = &r->entry;
    }

    struct ovsdb *db = NULL;
    struct ovsdb_error *error = raft_file_apply_data(&db, h->snap_data,
                                                     &h->snap_eid);
    for (size_t i = 0; !error && i < n; i++) {
        if (entries[i]->data) {
            error = raft_file_apply_data(&db, entries[i]->data,
                                         &entries[i]->eid);
        }
    }
    free(entries);
    if (error) {
        if (db) {
            ovsdb_destroy(db);
        }
        return error;
    }
    *dbp = db;
    return NULL;
}

json_t *
raft_file_snapshot_data(const struct ovsdb *db)
{
    return json_pack("[o, o]", ovsdb_schema_to_json(db->schema),
                     ovsdb_file_snapshot_to_json(db, NULL, true));
}
