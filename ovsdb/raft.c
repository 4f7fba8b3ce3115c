/* One Raft server: state, log, persistence, elections and replication. */
#include <config.h>

#include "raft.h"

#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include "dynamic-string.h"
#include "jsonrpc.h"
#include "list.h"
#include "log.h"
#include "ovsdb-error.h"
#include "poll-loop.h"
#include "raft-file.h"
#include "stream.h"
#include "timeval.h"
#include "unixctl.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(raft);

/* How many entries one append request carries at most. */
#define MAX_ENTRIES_PER_APPEND 64

enum raft_role { RAFT_FOLLOWER, RAFT_CANDIDATE, RAFT_LEADER };

enum raft_phase {
    PHASE_STABLE,               /* In the configuration. */
    PHASE_CATCHUP,              /* Being added: catching up its log. */
    PHASE_COMMITTING,           /* Being added: configuration proposed. */
    PHASE_REMOVE,               /* Being removed: configuration proposed. */
};

/* A server of the configuration, or one being added. */
struct raft_server {
    struct uuid sid;
    char *address;
    char *nickname;
    enum raft_phase phase;

    /* Leader only. */
    uint64_t next_index;        /* Next entry to send it. */
    uint64_t match_index;       /* Highest entry known to be on it. */
    bool replied;               /* Heard from it this election period. */
    long long int last_msg;     /* time_msec() of its last message. */
    bool snapshot_sent;         /* Install snapshot outstanding. */

    /* Candidate only. */
    struct uuid vote;           /* Whom it voted for this term. */

    /* Who to tell when an add or remove completes (zero: nobody). */
    struct uuid requester;
    struct unixctl_conn *requester_conn;
};

/* A connection to another server. */
struct raft_conn {
    struct ovs_list node;       /* In raft->conns. */
    struct jsonrpc_session *js;
    struct uuid sid;            /* Zero until the peer says who it is. */
    char *nickname;
    bool incoming;
    unsigned int seqno;         /* Connection counter last seen. */

    /* Messages held until the log records they vouch for are on disk
     * (raft_flush()). */
    struct jsonrpc_msg **held;
    size_t n_held, allocated_held;
};

struct raft_command {
    int n_refs;
    enum raft_command_status status;
    uint64_t index;             /* Leader: index of the new entry. */
    struct uuid eid;
    struct uuid requester;      /* Nonzero: a follower's command executed
                                 * here, to answer when done. */
    struct ovs_list node;       /* In raft->commands while incomplete. */
    long long int timestamp;    /* When it started waiting for someone
                                 * else (raft_run_command_timeouts()). */
};

/* "cluster/failure-test": faults a test can inject (all servers of the
 * process). */
enum raft_failure_test {
    FT_NO_TEST,
    FT_CRASH_BEFORE_SEND_APPEND_REQ,
    FT_CRASH_AFTER_SEND_APPEND_REQ,
    FT_CRASH_BEFORE_SEND_EXEC_REP,
    FT_CRASH_AFTER_SEND_EXEC_REP,
    FT_CRASH_BEFORE_SEND_EXEC_REQ,
    FT_CRASH_AFTER_SEND_EXEC_REQ,
    FT_CRASH_AFTER_RECV_APPEND_REQ_UPDATE,
    FT_CRASH_BEFORE_SEND_SNAPSHOT_REP,
    FT_DELAY_ELECTION,
    FT_DONT_SEND_VOTE_REQUEST,
    FT_STOP_RAFT_RPC,
    FT_TRANSFER_LEADERSHIP,
    FT_TRANSFER_LEADERSHIP_AFTER_SEND_APPEND_REQ,
};
static enum raft_failure_test failure_test;

/* Exits as a crash would (without a clean shutdown of the cluster), if
 * TEST is the failure test engaged. */
static void
failure_test_crash(enum raft_failure_test test, const char *what)
{
    if (failure_test == test) {
        ovs_fatal(0, "Raft test: crash %s.", what);
    }
}

struct raft {
    struct ovs_list node;       /* In all_rafts. */
    char *file_name;
    struct ovsdb_log *log;

    /* Identity. */
    struct uuid sid;
    struct uuid cid;
    char *name;
    char *local_address;
    char *local_nickname;
    bool joining;
    bool header_joining;        /* The file's header says "joining". */
    struct sset remote_addresses;       /* While joining. */

    /* Records are written at once but synced to disk once per run, and
     * every message sent meanwhile waits for that sync (raft_flush()):
     * nobody hears of a term, vote or entry before it is durable, and a
     * burst of entries costs one fsync. */
    bool sync_needed;

    /* Persistent state. */
    uint64_t term;
    struct uuid vote;
    uint64_t log_start;         /* Index of entries[0]. */
    uint64_t log_end;           /* One past the last entry. */
    struct raft_entry *entries;
    size_t allocated_entries;
    struct raft_entry snap;     /* The entry at LOG_START - 1 (snapshot). */

    /* Volatile state. */
    uint64_t commit_index;
    uint64_t last_applied;
    bool reload_snapshot;       /* The snapshot must be read again. */
    enum raft_role role;
    struct uuid leader_sid;
    bool ever_had_leader;
    uint64_t election_timer;
    long long int election_base;
    long long int election_timeout;
    long long int ping_timeout;
    long long int election_start;
    long long int election_won;
    bool leadership_transfer;
    bool transfer_now;          /* Leader: hand leadership over at the next
                                 * run (failure tests). */
    bool commit_news;           /* Leader: followers have not yet heard of
                                 * the commit index. */
    bool candidate_retrying;
    uint64_t n_votes;
    unsigned int n_disconnections;
    uint64_t change_seqno;

    /* Configuration (the last "servers" in the log or the snapshot). */
    struct raft_server *servers;
    size_t n_servers;
    /* Leader: servers being added (not yet in SERVERS). */
    struct raft_server *adding;
    size_t n_adding;
    bool config_pending;        /* A configuration entry is uncommitted. */
    uint64_t config_index;      /* Index of that entry. */
    struct uuid removing;       /* Server being removed (leader). */
    struct uuid remove_requester;
    struct unixctl_conn *remove_conn;
    uint64_t election_timer_new;        /* Leader: change proposed. */

    bool was_member;            /* Has been in the configuration. */
    bool leaving;
    bool left;
    bool failed;

    /* Network. */
    struct pstream *listener;
    long long int listen_retry;
    long long int join_timeout;  /* Joining: when to ask again. */
    struct ovs_list conns;
    size_t backlog_max_n_msgs;
    size_t backlog_max_bytes;

    struct ovs_list commands;   /* Incomplete raft_commands. */
};

static struct ovs_list all_rafts = OVS_LIST_INITIALIZER(&all_rafts);

static void raft_send(struct raft *, struct raft_rpc *);
static void raft_become_follower(struct raft *);
static void raft_send_append(struct raft *, struct raft_server *);
static void raft_update_commit(struct raft *);
static void raft_apply_config_from_log(struct raft *);
static struct raft_conn *find_conn_by_sid(const struct raft *,
                                          const struct uuid *);
static void raft_send_to_conn(struct raft *, struct raft_conn *,
                              struct raft_rpc *);
static void raft_flush(struct raft *);

/* Small helpers. */

static const char *
sid_nickname(const struct raft *raft, const struct uuid *sid, char buf[5])
{
    if (uuid_equals(sid, &raft->sid)) {
        return raft->local_nickname;
    }
    for (size_t i = 0; i < raft->n_servers; i++) {
        if (uuid_equals(&raft->servers[i].sid, sid)) {
            return raft->servers[i].nickname;
        }
    }
    snprintf(buf, 5, "%04x", sid->parts[0] >> 16);
    return buf;
}

static struct raft_entry *
entry_at(const struct raft *raft, uint64_t index)
{
    ovs_assert(index >= raft->log_start && index < raft->log_end);
    return &raft->entries[index - raft->log_start];
}

static uint64_t
term_at(const struct raft *raft, uint64_t index)
{
    if (index == raft->log_start - 1) {
        return raft->snap.term;
    }
    if (index >= raft->log_start && index < raft->log_end) {
        return entry_at(raft, index)->term;
    }
    return 0;
}

/* The entry id of the last entry with data at or before INDEX. */
static struct uuid
eid_at(const struct raft *raft, uint64_t index)
{
    for (uint64_t i = MIN(index, raft->log_end - 1); i >= raft->log_start;
         i--) {
        const struct raft_entry *e = entry_at(raft, i);
        if (e->data) {
            return e->eid;
        }
    }
    return raft->snap.eid;
}

static bool
config_has(const json_t *servers, const struct uuid *sid)
{
    char s[UUID_LEN + 1];
    uuid_format(sid, s);
    return json_object_get(servers, s) != NULL;
}

static struct raft_server *
find_server(struct raft_server *servers, size_t n, const struct uuid *sid)
{
    for (size_t i = 0; i < n; i++) {
        if (uuid_equals(&servers[i].sid, sid)) {
            return &servers[i];
        }
    }
    return NULL;
}

static struct raft_server *
raft_find_server(const struct raft *raft, const struct uuid *sid)
{
    return find_server(raft->servers, raft->n_servers, sid);
}

static void
server_uninit(struct raft_server *s)
{
    free(s->address);
    free(s->nickname);
}

static void
server_init(struct raft_server *s, const struct uuid *sid,
            const char *address)
{
    memset(s, 0, sizeof *s);
    s->sid = *sid;
    s->address = xstrdup(address);
    s->nickname = raft_address_to_nickname(address, sid);
}

/* Makes SERVERS (JSON configuration) the configuration, keeping what the
 * leader knows about servers that stay. */
static void
raft_set_servers(struct raft *raft, const json_t *servers)
{
    size_t n = json_object_size(servers);
    struct raft_server *new = xcalloc(n ? n : 1, sizeof *new);
    size_t i = 0;
    const char *key;
    json_t *value;
    json_object_foreach ((json_t *) servers, key, value) {
        struct uuid sid;
        if (!uuid_from_string(&sid, key) || !json_is_string(value)) {
            continue;
        }
        struct raft_server *old = raft_find_server(raft, &sid);
        server_init(&new[i], &sid, json_string_value(value));
        if (old) {
            new[i].next_index = old->next_index;
            new[i].match_index = old->match_index;
            new[i].replied = old->replied;
            new[i].last_msg = old->last_msg;
            new[i].vote = old->vote;
        } else {
            struct raft_server *adding = find_server(raft->adding,
                                                     raft->n_adding, &sid);
            if (adding) {
                new[i].next_index = adding->next_index;
                new[i].match_index = adding->match_index;
                new[i].last_msg = adding->last_msg;
                new[i].replied = adding->replied;
            } else {
                new[i].next_index = raft->log_end;
            }
        }
        i++;
    }
    for (size_t j = 0; j < raft->n_servers; j++) {
        server_uninit(&raft->servers[j]);
    }
    free(raft->servers);
    raft->servers = new;
    raft->n_servers = i;

    if (raft_find_server(raft, &raft->sid)) {
        raft->was_member = true;
    }
    if (raft->joining && raft_find_server(raft, &raft->sid)) {
        VLOG_INFO("%s: joined cluster as server %04x", raft->name,
                  raft->sid.parts[0] >> 16);
        raft->joining = false;
        sset_clear(&raft->remote_addresses);
    }
    raft->change_seqno++;
}

static json_t *
servers_to_json(const struct raft_server *servers, size_t n)
{
    json_t *json = json_object();
    for (size_t i = 0; i < n; i++) {
        char s[UUID_LEN + 1];
        uuid_format(&servers[i].sid, s);
        json_object_set_new(json, s, json_string(servers[i].address));
    }
    return json;
}

/* Persistence. */

static void
raft_write_record(struct raft *raft, const struct raft_record *r)
{
    if (!raft->log || raft->failed) {
        return;
    }
    json_t *json = raft_record_to_json(r);
    struct ovsdb_error *error = ovsdb_log_write(raft->log, json);
    json_decref(json);
    if (!error) {
        raft->sync_needed = true;
    }
    if (error) {
        char *s = ovsdb_error_to_string_free(error);
        VLOG_ERR("%s: writing log failed (%s)", raft->file_name, s);
        free(s);
        raft->failed = true;
    }
}

static void
raft_write_term(struct raft *raft)
{
    struct raft_record r = { .term = raft->term };
    if (uuid_is_zero(&raft->vote)) {
        r.type = RAFT_REC_TERM;
    } else {
        r.type = RAFT_REC_VOTE;
        r.sid = raft->vote;
    }
    raft_write_record(raft, &r);
}

static void
raft_write_entry(struct raft *raft, uint64_t index)
{
    const struct raft_entry *e = entry_at(raft, index);
    struct raft_record r = {
        .type = RAFT_REC_ENTRY,
        .term = e->term,
        .index = index,
        .entry = *e,
    };
    raft_write_record(raft, &r);
}

static void
raft_write_commit_index(struct raft *raft)
{
    struct raft_record r = {
        .type = RAFT_REC_COMMIT_INDEX,
        .commit_index = raft->commit_index,
    };
    raft_write_record(raft, &r);
}

static void
raft_write_leader(struct raft *raft)
{
    struct raft_record r = {
        .type = RAFT_REC_LEADER,
        .term = raft->term,
        .sid = raft->leader_sid,
    };
    raft_write_record(raft, &r);
}

/* Makes TERM the current term with no vote. */
static void
raft_set_term(struct raft *raft, uint64_t term, const struct uuid *vote)
{
    raft->term = term;
    if (vote) {
        raft->vote = *vote;
    } else {
        uuid_zero(&raft->vote);
    }
    raft_write_term(raft);
    raft->change_seqno++;
}

static void
raft_append_entry(struct raft *raft, const struct raft_entry *e)
{
    if (raft->log_end - raft->log_start >= raft->allocated_entries) {
        raft->entries = x2nrealloc(raft->entries, &raft->allocated_entries,
                                   sizeof *raft->entries);
    }
    raft_entry_clone(&raft->entries[raft->log_end - raft->log_start], e);
    raft->log_end++;
    raft_write_entry(raft, raft->log_end - 1);
    if (e->servers) {
        raft_apply_config_from_log(raft);
    }
}

static void
raft_truncate(struct raft *raft, uint64_t new_end)
{
    bool had_config = false;
    while (raft->log_end > new_end) {
        struct raft_entry *e = entry_at(raft, raft->log_end - 1);
        had_config |= e->servers != NULL;
        raft_entry_uninit(e);
        raft->log_end--;
    }
    if (had_config) {
        raft_apply_config_from_log(raft);
    }
}

/* The configuration in force: the last one in the log, else the
 * snapshot's. */
static void
raft_apply_config_from_log(struct raft *raft)
{
    for (uint64_t i = raft->log_end; i-- > raft->log_start; ) {
        const struct raft_entry *e = entry_at(raft, i);
        if (e->servers) {
            raft_set_servers(raft, e->servers);
            return;
        }
    }
    if (raft->snap.servers) {
        raft_set_servers(raft, raft->snap.servers);
    }
}

/* Rewrites the file as a header with the snapshot plus the entries from
 * LOG_START on and the current term, vote and commit index. */
static struct ovsdb_error *
raft_rewrite_file(struct raft *raft)
{
    struct raft_header h;
    memset(&h, 0, sizeof h);
    sset_init(&h.remote_addresses);
    if (raft->joining) {
        sset_clone(&h.remote_addresses, &raft->remote_addresses);
        h.joining = true;
    }
    raft->header_joining = raft->joining;
    h.sid = raft->sid;
    h.cid = raft->cid;
    h.name = raft->name;
    h.local_address = raft->local_address;
    h.snap_index = raft->log_start - 1;
    h.snap_term = raft->snap.term;
    h.snap_eid = raft->snap.eid;
    h.snap_servers = raft->snap.servers;
    h.snap_data = raft->snap.data;
    h.snap_election_timer = raft->snap.election_timer;

    size_t n = 0;
    size_t max = raft->log_end - raft->log_start + 3;
    json_t **records = xmalloc(max * sizeof *records);
    records[n++] = raft_header_to_json(&h);
    sset_destroy(&h.remote_addresses);
    for (uint64_t i = raft->log_start; i < raft->log_end; i++) {
        const struct raft_entry *e = entry_at(raft, i);
        struct raft_record r = {
            .type = RAFT_REC_ENTRY, .term = e->term, .index = i, .entry = *e,
        };
        records[n++] = raft_record_to_json(&r);
    }
    struct raft_record t = { .term = raft->term, .sid = raft->vote };
    t.type = uuid_is_zero(&raft->vote) ? RAFT_REC_TERM : RAFT_REC_VOTE;
    records[n++] = raft_record_to_json(&t);
    if (raft->commit_index >= raft->log_start) {
        struct raft_record c = {
            .type = RAFT_REC_COMMIT_INDEX, .commit_index = raft->commit_index,
        };
        records[n++] = raft_record_to_json(&c);
    }

    struct ovsdb_error *error = ovsdb_log_replace(raft->log, records, n);
    for (size_t i = 0; i < n; i++) {
        json_decref(records[i]);
    }
    free(records);
    return error;
}

/* Opening. */

static void
raft_reset_election_timer(struct raft *raft)
{
    raft->election_base = time_msec();
    raft->election_timeout = (raft->election_base + raft->election_timer
                              + random_below(1000));
    if (failure_test == FT_DELAY_ELECTION) {
        /* So that this server does not win the next election. */
        raft->election_timeout += raft->election_timer;
    }
}

struct ovsdb_error *
raft_open(const char *file_name, struct raft **raftp)
{
    *raftp = NULL;
    struct ovsdb_log *log;
    struct ovsdb_error *error = ovsdb_log_open(file_name, RAFT_MAGIC,
                                               OVSDB_LOG_READ_WRITE, -1,
                                               &log);
    if (error) {
        return error;
    }

    json_t *json;
    error = ovsdb_log_read(log, &json);
    if (!error && !json) {
        error = ovsdb_error(NULL, "%s: unexpected end of file", file_name);
    }
    struct raft_header h;
    if (!error) {
        error = raft_header_from_json(&h, json);
        json_decref(json);
    }
    if (error) {
        ovsdb_log_close(log);
        return error;
    }

    struct raft *raft = xzalloc(sizeof *raft);
    raft->file_name = xstrdup(file_name);
    raft->log = log;
    raft->sid = h.sid;
    raft->cid = h.cid;
    raft->name = xstrdup(h.name);
    raft->local_address = xstrdup(h.local_address);
    raft->local_nickname = raft_address_to_nickname(h.local_address, &h.sid);
    raft->joining = raft->header_joining = h.joining;
    sset_clone(&raft->remote_addresses, &h.remote_addresses);
    raft->log_start = raft->log_end = h.snap_index + 1;
    raft->snap.term = h.snap_term;
    raft->snap.eid = h.snap_eid;
    raft->snap.servers = json_incref(h.snap_servers);
    raft->snap.data = json_incref(h.snap_data);
    raft->snap.election_timer = h.snap_election_timer;
    raft->election_timer = (h.snap_election_timer ? h.snap_election_timer
                            : RAFT_ELECTION_TIMER_DEFAULT);
    raft->commit_index = h.snap_index;
    raft->last_applied = 0;
    raft->reload_snapshot = h.snap_index > 0;
    ovs_list_init(&raft->conns);
    ovs_list_init(&raft->commands);
    raft->backlog_max_n_msgs = 500;
    raft->backlog_max_bytes = 4 * 1024 * 1024;
    raft_header_uninit(&h);

    /* Replay the records, without writing anything back. */
    struct ovsdb_log *saved_log = raft->log;
    raft->log = NULL;
    while (!error) {
        error = ovsdb_log_read(saved_log, &json);
        if (error || !json) {
            break;
        }
        struct raft_record r;
        error = raft_record_from_json(&r, json);
        json_decref(json);
        if (error) {
            break;
        }
        switch (r.type) {
        case RAFT_REC_ENTRY:
            if (r.index < raft->log_start) {
                break;
            }
            if (r.index > raft->log_end) {
                error = ovsdb_error(NULL, "%s: entry at index %"PRIu64" "
                                    "follows the end of the log at %"PRIu64,
                                    file_name, r.index, raft->log_end);
                break;
            }
            raft_truncate(raft, r.index);
            raft_append_entry(raft, &r.entry);
            if (r.entry.election_timer && r.index <= raft->commit_index) {
                raft->election_timer = r.entry.election_timer;
            }
            break;
        case RAFT_REC_TERM:
            if (r.term > raft->term) {
                raft->term = r.term;
                uuid_zero(&raft->vote);
            }
            break;
        case RAFT_REC_VOTE:
            if (r.term >= raft->term) {
                raft->term = r.term;
                raft->vote = r.sid;
            }
            break;
        case RAFT_REC_LEADER:
            if (r.term > raft->term) {
                raft->term = r.term;
                uuid_zero(&raft->vote);
            }
            break;
        case RAFT_REC_COMMIT_INDEX:
            if (r.commit_index > raft->commit_index) {
                raft->commit_index = MIN(r.commit_index, raft->log_end - 1);
            }
            break;
        case RAFT_REC_NOTE:
            break;
        }
        raft_record_uninit(&r);
    }
    raft->log = saved_log;
    if (error) {
        raft_close(raft);
        return error;
    }
    for (uint64_t i = raft->log_start; i <= raft->commit_index; i++) {
        const struct raft_entry *e = entry_at(raft, i);
        if (e->election_timer) {
            raft->election_timer = e->election_timer;
        }
    }
    raft_apply_config_from_log(raft);
    if (raft->n_servers && !raft_find_server(raft, &raft->sid)
        && !raft->joining) {
        VLOG_WARN("%s: this server is not in the cluster's configuration",
                  raft->name);
    }

    raft->role = RAFT_FOLLOWER;
    raft_reset_election_timer(raft);
    if (raft->n_servers == 1 && raft_find_server(raft, &raft->sid)) {
        /* Alone: no reason to wait for anyone. */
        raft->election_timeout = time_msec();
    }
    ovs_list_push_back(&all_rafts, &raft->node);
    *raftp = raft;
    return NULL;
}

static void
command_complete(struct raft_command *cmd, enum raft_command_status status)
{
    if (cmd->status == RAFT_CMD_INCOMPLETE) {
        cmd->status = status;
        ovs_list_remove(&cmd->node);
        ovs_list_init(&cmd->node);
        raft_command_unref(cmd);
    }
}

static void
raft_conn_destroy(struct raft_conn *conn)
{
    for (size_t i = 0; i < conn->n_held; i++) {
        jsonrpc_msg_destroy(conn->held[i]);
    }
    free(conn->held);
    ovs_list_remove(&conn->node);
    jsonrpc_session_close(conn->js);
    free(conn->nickname);
    free(conn);
}

/* Leader: asks the most up-to-date follower it is connected to to stand
 * for election at once (REASON says why), so that the cluster need not
 * wait for an election timeout. */
static void
raft_transfer_leadership(struct raft *raft, const char *reason)
{
    if (raft->role != RAFT_LEADER) {
        return;
    }
    struct raft_server *best = NULL;
    struct raft_conn *best_conn = NULL;
    for (size_t i = 0; i < raft->n_servers; i++) {
        struct raft_server *s = &raft->servers[i];
        struct raft_conn *conn = find_conn_by_sid(raft, &s->sid);
        if (!uuid_equals(&s->sid, &raft->sid) && conn
            && (!best || s->match_index > best->match_index)) {
            best = s;
            best_conn = conn;
        }
    }
    if (!best) {
        return;
    }
    VLOG_INFO("%s: Transferring leadership to %s (%04x): %s", raft->name,
              best->nickname, best->sid.parts[0] >> 16, reason);
    struct raft_rpc rq;
    raft_rpc_init(&rq, RAFT_RPC_BECOME_LEADER, &best->sid);
    rq.term = raft->term;
    raft_send_to_conn(raft, best_conn, &rq);
    raft_rpc_uninit(&rq);
    /* Push it out now: this server may be about to exit. */
    jsonrpc_session_run(best_conn->js);
}

void
raft_close(struct raft *raft)
{
    if (!raft) {
        return;
    }
    raft_flush(raft);
    if (raft->n_servers > 1 && !raft->failed) {
        raft_transfer_leadership(raft, "this server is shutting down");
    }
    struct raft_command *cmd;
    LIST_FOR_EACH_SAFE (cmd, node, &raft->commands) {
        command_complete(cmd, RAFT_CMD_SHUTDOWN);
    }
    struct raft_conn *conn;
    LIST_FOR_EACH_SAFE (conn, node, &raft->conns) {
        raft_conn_destroy(conn);
    }
    pstream_close(raft->listener);
    if (raft->node.next) {
        ovs_list_remove(&raft->node);
    }
    for (uint64_t i = raft->log_start; i < raft->log_end; i++) {
        raft_entry_uninit(entry_at(raft, i));
    }
    free(raft->entries);
    raft_entry_uninit(&raft->snap);
    for (size_t i = 0; i < raft->n_servers; i++) {
        server_uninit(&raft->servers[i]);
    }
    free(raft->servers);
    for (size_t i = 0; i < raft->n_adding; i++) {
        server_uninit(&raft->adding[i]);
    }
    free(raft->adding);
    sset_destroy(&raft->remote_addresses);
    ovsdb_log_close(raft->log);
    free(raft->file_name);
    free(raft->name);
    free(raft->local_address);
    free(raft->local_nickname);
    free(raft);
}

/* Accessors. */

const char *raft_get_name(const struct raft *raft) { return raft->name; }
const struct uuid *raft_get_cid(const struct raft *raft) { return &raft->cid; }
const struct uuid *raft_get_sid(const struct raft *raft) { return &raft->sid; }
bool raft_is_leader(const struct raft *raft)
{
    return raft->role == RAFT_LEADER;
}
bool raft_left(const struct raft *raft) { return raft->left; }
bool raft_failed(const struct raft *raft) { return raft->failed; }
bool raft_is_leaving(const struct raft *raft) { return raft->leaving; }
bool raft_is_joining(const struct raft *raft) { return raft->joining; }
uint64_t raft_get_applied_index(const struct raft *raft)
{
    return raft->last_applied;
}
uint64_t raft_get_change_seqno(const struct raft *raft)
{
    return raft->change_seqno;
}

bool
raft_is_connected(const struct raft *raft)
{
    return (!raft->candidate_retrying && !raft->joining && !raft->leaving
            && !raft->left && !raft->failed && raft->ever_had_leader);
}

/* Reading committed entries. */

/* A follower's command is over once its entry is committed, which it may
 * learn from the leader's append requests before the leader's reply to the
 * command arrives: completing it here means that whoever waits for the
 * command hears of it no later than the entry is applied. */
static void
raft_complete_command_by_eid(struct raft *raft, const struct uuid *eid,
                             uint64_t index)
{
    struct raft_command *cmd;
    LIST_FOR_EACH_SAFE (cmd, node, &raft->commands) {
        if (uuid_equals(&cmd->eid, eid) && uuid_is_zero(&cmd->requester)) {
            cmd->index = index;
            command_complete(cmd, RAFT_CMD_SUCCESS);
        }
    }
}

json_t *
raft_next_entry(struct raft *raft, struct uuid *eid, bool *is_snapshot)
{
    *is_snapshot = false;
    if (raft->reload_snapshot) {
        raft->reload_snapshot = false;
        raft->last_applied = raft->log_start - 1;
        *eid = raft->snap.eid;
        *is_snapshot = true;
        return json_incref(raft->snap.data);
    }
    while (raft->last_applied < raft->commit_index) {
        const struct raft_entry *e = entry_at(raft, ++raft->last_applied);
        if (e->data) {
            raft_complete_command_by_eid(raft, &e->eid, raft->last_applied);
            *eid = e->eid;
            return json_incref(e->data);
        }
    }
    return NULL;
}

/* Network. */

/* "unix:X" -> "punix:X", "tcp:IP:PORT" -> "ptcp:PORT:IP". */
static char *
passive_address(const char *address)
{
    if (!strncmp(address, "unix:", 5)) {
        return xasprintf("p%s", address);
    }
    const char *colon = strchr(address, ':');
    const char *host = colon + 1;
    const char *port = strrchr(host, ':');
    if (!port) {
        return xasprintf("p%.*s", (int) (colon - address), address);
    }
    return xasprintf("p%.*s:%s:%.*s", (int) (colon - address), address,
                     port + 1, (int) (port - host), host);
}

static struct raft_conn *
raft_add_conn(struct raft *raft, struct jsonrpc_session *js,
              const struct uuid *sid, bool incoming)
{
    struct raft_conn *conn = xzalloc(sizeof *conn);
    conn->js = js;
    if (sid) {
        conn->sid = *sid;
    }
    conn->incoming = incoming;
    conn->nickname = xstrdup(jsonrpc_session_get_name(js));
    jsonrpc_session_set_probe_interval(js, 0);
    ovs_list_push_back(&raft->conns, &conn->node);
    return conn;
}

static struct raft_conn *
find_outgoing_conn(const struct raft *raft, const char *address)
{
    struct raft_conn *conn;
    LIST_FOR_EACH (conn, node, &raft->conns) {
        if (!conn->incoming
            && !strcmp(jsonrpc_session_get_name(conn->js), address)) {
            return conn;
        }
    }
    return NULL;
}

/* Keeps one outgoing connection to every other server (or, while joining,
 * to every remote address) and none to anyone else. */
static void
raft_update_conns(struct raft *raft)
{
    struct sset wanted = SSET_INITIALIZER(&wanted);
    if (raft->joining) {
        sset_clone(&wanted, &raft->remote_addresses);
    } else if (!raft->left) {
        for (size_t i = 0; i < raft->n_servers; i++) {
            if (!uuid_equals(&raft->servers[i].sid, &raft->sid)) {
                sset_add(&wanted, raft->servers[i].address);
            }
        }
        for (size_t i = 0; i < raft->n_adding; i++) {
            sset_add(&wanted, raft->adding[i].address);
        }
    }
    sset_find_and_delete(&wanted, raft->local_address);

    struct raft_conn *conn;
    LIST_FOR_EACH_SAFE (conn, node, &raft->conns) {
        if (!conn->incoming
            && !sset_contains(&wanted, jsonrpc_session_get_name(conn->js))) {
            raft_conn_destroy(conn);
        }
    }
    const char *address;
    SSET_FOR_EACH (address, &wanted) {
        if (!find_outgoing_conn(raft, address)) {
            struct raft_conn *c = raft_add_conn(
                raft, jsonrpc_session_open(address, true), NULL, false);
            for (size_t i = 0; i < raft->n_servers; i++) {
                if (!strcmp(raft->servers[i].address, address)) {
                    c->sid = raft->servers[i].sid;
                    free(c->nickname);
                    c->nickname = xstrdup(raft->servers[i].nickname);
                }
            }
        }
    }
    sset_destroy(&wanted);
}

static struct raft_conn *
find_conn_by_sid(const struct raft *raft, const struct uuid *sid)
{
    struct raft_conn *conn, *fallback = NULL;
    LIST_FOR_EACH (conn, node, &raft->conns) {
        if (uuid_equals(&conn->sid, sid)
            && jsonrpc_session_is_connected(conn->js)) {
            if (!conn->incoming) {
                return conn;
            }
            fallback = conn;
        }
    }
    return fallback;
}

static void
raft_send_to_conn(struct raft *raft, struct raft_conn *conn,
                  struct raft_rpc *rpc)
{
    if (failure_test == FT_STOP_RAFT_RPC) {
        return;
    }
    struct jsonrpc_msg *msg = raft_rpc_to_jsonrpc(&raft->cid, &raft->sid,
                                                  rpc);
    if (raft->sync_needed || conn->n_held) {
        if (conn->n_held >= conn->allocated_held) {
            conn->held = x2nrealloc(conn->held, &conn->allocated_held,
                                    sizeof *conn->held);
        }
        conn->held[conn->n_held++] = msg;
    } else {
        jsonrpc_session_send(conn->js, msg);
    }
}

/* Makes the records written so far durable, then sends the messages that
 * waited for that. */
static void
raft_flush(struct raft *raft)
{
    if (raft->sync_needed) {
        raft->sync_needed = false;
        struct ovsdb_error *error = (raft->log && !raft->failed
                                     ? ovsdb_log_commit_block(raft->log)
                                     : NULL);
        if (error) {
            char *s = ovsdb_error_to_string_free(error);
            VLOG_ERR("%s: syncing log failed (%s)", raft->file_name, s);
            free(s);
            raft->failed = true;
        }
    }
    struct raft_conn *conn;
    LIST_FOR_EACH (conn, node, &raft->conns) {
        for (size_t i = 0; i < conn->n_held; i++) {
            if (raft->failed) {
                jsonrpc_msg_destroy(conn->held[i]);
            } else {
                jsonrpc_session_send(conn->js, conn->held[i]);
            }
        }
        conn->n_held = 0;
    }
}

/* Sends RPC to the server RPC->sid, if connected; frees RPC. */
static void
raft_send(struct raft *raft, struct raft_rpc *rpc)
{
    struct raft_conn *conn = find_conn_by_sid(raft, &rpc->sid);
    if (conn) {
        raft_send_to_conn(raft, conn, rpc);
    }
    raft_rpc_uninit(rpc);
}

/* Elections. */

static size_t
majority(const struct raft *raft)
{
    return raft->n_servers / 2 + 1;
}

static void
raft_become_leader(struct raft *raft)
{
    VLOG_INFO("term %"PRIu64": elected leader by %"PRIu64"+ of %zu servers",
              raft->term, raft->n_votes, raft->n_servers);
    raft->role = RAFT_LEADER;
    raft->leader_sid = raft->sid;
    raft->ever_had_leader = true;
    raft->candidate_retrying = false;
    raft->election_won = time_msec();
    raft->change_seqno++;
    raft_write_leader(raft);
    for (size_t i = 0; i < raft->n_servers; i++) {
        struct raft_server *s = &raft->servers[i];
        s->next_index = raft->log_end;
        s->match_index = 0;
        s->replied = false;
        s->snapshot_sent = false;
    }
    raft->election_base = time_msec();

    /* An entry of our own term, so that earlier entries commit with it. */
    struct raft_entry e = { .term = raft->term };
    raft_append_entry(raft, &e);
    raft->ping_timeout = 0;
    raft_update_commit(raft);
}

static void
raft_start_election(struct raft *raft, bool leadership_transfer)
{
    if (raft->joining || raft->leaving || raft->left || raft->failed
        || !raft_find_server(raft, &raft->sid)) {
        raft_reset_election_timer(raft);
        return;
    }
    if (raft->role == RAFT_CANDIDATE) {
        raft->candidate_retrying = true;
    }
    raft_set_term(raft, raft->term + 1, &raft->sid);
    raft->role = RAFT_CANDIDATE;
    uuid_zero(&raft->leader_sid);
    raft->leadership_transfer = leadership_transfer;
    raft->election_start = time_msec();
    raft->n_votes = 1;
    VLOG_INFO("term %"PRIu64": %s, starting election", raft->term,
              leadership_transfer ? "leadership transfer"
              : "election timeout expired");
    raft_reset_election_timer(raft);
    for (size_t i = 0; i < raft->n_servers; i++) {
        struct raft_server *s = &raft->servers[i];
        uuid_zero(&s->vote);
        if (uuid_equals(&s->sid, &raft->sid)) {
            s->vote = raft->sid;
            continue;
        }
        if (failure_test == FT_DONT_SEND_VOTE_REQUEST) {
            continue;
        }
        struct raft_rpc rq;
        raft_rpc_init(&rq, RAFT_RPC_VOTE_REQUEST, &s->sid);
        rq.term = raft->term;
        rq.last_log_index = raft->log_end - 1;
        rq.last_log_term = term_at(raft, raft->log_end - 1);
        rq.leadership_transfer = leadership_transfer;
        raft_send(raft, &rq);
    }
    if (raft->n_votes >= majority(raft)) {
        raft_become_leader(raft);
    }
}

static void
fail_commands(struct raft *raft, enum raft_command_status status)
{
    struct raft_command *cmd;
    LIST_FOR_EACH_SAFE (cmd, node, &raft->commands) {
        command_complete(cmd, status);
    }
}

static void
raft_become_follower(struct raft *raft)
{
    if (raft->role == RAFT_FOLLOWER) {
        return;
    }
    bool was_leader = raft->role == RAFT_LEADER;
    raft->role = RAFT_FOLLOWER;
    raft->change_seqno++;
    raft_reset_election_timer(raft);
    if (was_leader) {
        /* The followers' commands can no longer be answered from here.
         * Our own stay pending: their entries may still commit under the
         * next leader, which raft_next_entry() notices by their entry ids,
         * and otherwise they time out (raft_run_command_timeouts()); failing
         * them now would make their transactions run twice. */
        struct raft_command *cmd;
        LIST_FOR_EACH_SAFE (cmd, node, &raft->commands) {
            if (!uuid_is_zero(&cmd->requester)) {
                command_complete(cmd, RAFT_CMD_LOST_LEADERSHIP);
            } else {
                cmd->timestamp = time_msec();
            }
        }
        for (size_t i = 0; i < raft->n_adding; i++) {
            server_uninit(&raft->adding[i]);
        }
        raft->n_adding = 0;
        raft->config_pending = false;
        uuid_zero(&raft->removing);
        if (raft->remove_conn) {
            unixctl_command_reply_error(raft->remove_conn,
                                        "lost leadership");
            raft->remove_conn = NULL;
        }
        raft->election_timer_new = 0;
    }
}

/* Notes term TERM from a message: a newer one makes us a follower. */
static bool
raft_receive_term(struct raft *raft, uint64_t term)
{
    if (term > raft->term) {
        raft_set_term(raft, term, NULL);
        uuid_zero(&raft->leader_sid);
        raft_become_follower(raft);
        return true;
    }
    return term == raft->term;
}

static void
raft_handle_vote_request(struct raft *raft, const struct raft_rpc *rq)
{
    /* A server that has heard from a leader recently ignores vote
     * requests, so that a server that cannot hear the leader does not
     * disrupt the cluster; a leadership transfer overrides that. */
    if (!rq->leadership_transfer && raft->role == RAFT_FOLLOWER
        && !uuid_is_zero(&raft->leader_sid)
        && time_msec() < raft->election_base + raft->election_timer) {
        return;
    }
    if (raft->role == RAFT_LEADER && !rq->leadership_transfer
        && rq->term <= raft->term) {
        return;
    }
    raft_receive_term(raft, rq->term);

    uint64_t last_term = term_at(raft, raft->log_end - 1);
    bool up_to_date = (rq->last_log_term > last_term
                       || (rq->last_log_term == last_term
                           && rq->last_log_index >= raft->log_end - 1));
    if (rq->term == raft->term && up_to_date
        && (uuid_is_zero(&raft->vote) || uuid_equals(&raft->vote, &rq->sid))) {
        if (uuid_is_zero(&raft->vote)) {
            raft->vote = rq->sid;
            raft_write_term(raft);
        }
        raft_reset_election_timer(raft);
    }
    if (rq->term == raft->term && !uuid_is_zero(&raft->vote)) {
        struct raft_rpc rpy;
        raft_rpc_init(&rpy, RAFT_RPC_VOTE_REPLY, &rq->sid);
        rpy.term = raft->term;
        rpy.vote = raft->vote;
        raft_send(raft, &rpy);
    }
}

static void
raft_handle_vote_reply(struct raft *raft, const struct raft_rpc *rpy)
{
    if (!raft_receive_term(raft, rpy->term)
        || raft->role != RAFT_CANDIDATE) {
        return;
    }
    struct raft_server *s = raft_find_server(raft, &rpy->sid);
    if (!s || !uuid_is_zero(&s->vote)) {
        return;
    }
    s->vote = rpy->vote;
    if (uuid_equals(&rpy->vote, &raft->sid)
        && ++raft->n_votes >= majority(raft)) {
        raft_become_leader(raft);
    }
}

/* Replication: the leader. */

static void
raft_send_install_snapshot(struct raft *raft, struct raft_server *s)
{
    struct raft_rpc rq;
    raft_rpc_init(&rq, RAFT_RPC_INSTALL_SNAPSHOT_REQUEST, &s->sid);
    rq.term = raft->term;
    rq.last_index = raft->log_start - 1;
    rq.last_term = raft->snap.term;
    rq.last_eid = raft->snap.eid;
    rq.last_servers = json_incref(raft->snap.servers);
    rq.election_timer = (raft->snap.election_timer
                         ? raft->snap.election_timer : raft->election_timer);
    rq.data = json_incref(raft->snap.data);
    s->snapshot_sent = true;
    raft_send(raft, &rq);
}

static void
raft_send_append(struct raft *raft, struct raft_server *s)
{
    if (uuid_equals(&s->sid, &raft->sid)) {
        return;
    }
    if (s->next_index < raft->log_start) {
        raft_send_install_snapshot(raft, s);
        return;
    }
    struct raft_conn *conn = find_conn_by_sid(raft, &s->sid);
    if (!conn) {
        return;
    }
    /* A connection that is not draining gets heartbeats only. */
    bool backlogged = (jsonrpc_session_get_backlog(conn->js)
                       > raft->backlog_max_bytes);
    struct raft_rpc rq;
    raft_rpc_init(&rq, RAFT_RPC_APPEND_REQUEST, &s->sid);
    rq.term = raft->term;
    rq.prev_log_index = s->next_index - 1;
    rq.prev_log_term = term_at(raft, s->next_index - 1);
    rq.leader_commit = raft->commit_index;
    size_t n = backlogged ? 0 : MIN(raft->log_end - s->next_index,
                                    MAX_ENTRIES_PER_APPEND);
    rq.entries = xcalloc(n + 1, sizeof *rq.entries);
    for (size_t i = 0; i < n; i++) {
        raft_entry_clone(&rq.entries[i], entry_at(raft, s->next_index + i));
    }
    rq.n_entries = n;
    failure_test_crash(FT_CRASH_BEFORE_SEND_APPEND_REQ,
                       "before sending append_request");
    raft_send_to_conn(raft, conn, &rq);
    raft_rpc_uninit(&rq);
    failure_test_crash(FT_CRASH_AFTER_SEND_APPEND_REQ,
                       "after sending append_request");
    if (failure_test == FT_TRANSFER_LEADERSHIP_AFTER_SEND_APPEND_REQ) {
        failure_test = FT_NO_TEST;
        raft->transfer_now = true;
    }
}

static void
raft_send_heartbeats(struct raft *raft)
{
    for (size_t i = 0; i < raft->n_servers; i++) {
        raft_send_append(raft, &raft->servers[i]);
    }
    for (size_t i = 0; i < raft->n_adding; i++) {
        raft_send_append(raft, &raft->adding[i]);
    }
    raft->ping_timeout = time_msec() + raft->election_timer / 3;
}

static void
raft_send_execute_reply(struct raft *raft, const struct uuid *to,
                        const struct uuid *eid,
                        enum raft_command_status status, uint64_t index)
{
    struct raft_rpc rpy;
    raft_rpc_init(&rpy, RAFT_RPC_EXECUTE_COMMAND_REPLY, to);
    rpy.result_eid = *eid;
    rpy.status = status;
    rpy.commit_index = status == RAFT_CMD_SUCCESS ? index : 0;
    failure_test_crash(FT_CRASH_BEFORE_SEND_EXEC_REP,
                       "before sending execute_command_reply");
    raft_send(raft, &rpy);
    failure_test_crash(FT_CRASH_AFTER_SEND_EXEC_REP,
                       "after sending execute_command_reply");
}

/* Appends an entry with configuration SERVERS (leader). */
static void
raft_propose_config(struct raft *raft, json_t *servers)
{
    struct raft_entry e = { .term = raft->term, .servers = servers };
    raft_append_entry(raft, &e);
    json_decref(servers);
    raft->config_pending = true;
    raft->config_index = raft->log_end - 1;
    raft_send_heartbeats(raft);
    raft_update_commit(raft);
}

/* Starts whatever configuration change is waiting (leader). */
static void
raft_run_reconfigure(struct raft *raft)
{
    if (raft->role != RAFT_LEADER || raft->config_pending) {
        return;
    }
    for (size_t i = 0; i < raft->n_adding; i++) {
        struct raft_server *a = &raft->adding[i];
        if (a->phase == PHASE_CATCHUP && a->match_index + 1 >= raft->log_end
            && a->match_index >= raft->log_start - 1) {
            a->phase = PHASE_COMMITTING;
            json_t *servers = servers_to_json(raft->servers, raft->n_servers);
            char s[UUID_LEN + 1];
            uuid_format(&a->sid, s);
            json_object_set_new(servers, s, json_string(a->address));
            VLOG_INFO("adding %s (%04x at %s) to cluster",
                      a->nickname, a->sid.parts[0] >> 16, a->address);
            raft_propose_config(raft, servers);
            return;
        }
    }
    if (!uuid_is_zero(&raft->removing)
        && raft_find_server(raft, &raft->removing)) {
        json_t *servers = servers_to_json(raft->servers, raft->n_servers);
        char s[UUID_LEN + 1];
        uuid_format(&raft->removing, s);
        json_object_del(servers, s);
        raft_propose_config(raft, servers);
        return;
    }
    if (raft->election_timer_new) {
        struct raft_entry e = {
            .term = raft->term, .election_timer = raft->election_timer_new,
        };
        raft_append_entry(raft, &e);
        raft->config_pending = true;
        raft->config_index = raft->log_end - 1;
        raft_send_heartbeats(raft);
        raft_update_commit(raft);
    }
}

/* Work for entries that just committed (any role). */
static void
raft_committed(struct raft *raft, uint64_t old_commit)
{
    for (uint64_t i = old_commit + 1; i <= raft->commit_index; i++) {
        if (i < raft->log_start) {
            continue;
        }
        const struct raft_entry *e = entry_at(raft, i);
        if (e->election_timer) {
            raft->election_timer = e->election_timer;
            if (raft->election_timer_new == e->election_timer) {
                raft->election_timer_new = 0;
            }
        }
        if (raft->config_pending && i == raft->config_index) {
            raft->config_pending = false;
        }
        if (e->servers) {
            /* Finished adds and removes. */
            for (size_t j = 0; j < raft->n_adding; ) {
                struct raft_server *a = &raft->adding[j];
                if (config_has(e->servers, &a->sid)) {
                    struct raft_rpc rpy;
                    raft_rpc_init(&rpy, RAFT_RPC_ADD_SERVER_REPLY, &a->sid);
                    rpy.success = true;
                    raft_send(raft, &rpy);
                    server_uninit(a);
                    raft->adding[j] = raft->adding[--raft->n_adding];
                } else {
                    j++;
                }
            }
            if (!uuid_is_zero(&raft->removing)
                && !config_has(e->servers, &raft->removing)) {
                VLOG_INFO("server %04x removed from configuration",
                          raft->removing.parts[0] >> 16);
                if (!uuid_is_zero(&raft->remove_requester)) {
                    struct raft_rpc rpy;
                    raft_rpc_init(&rpy, RAFT_RPC_REMOVE_SERVER_REPLY,
                                  &raft->remove_requester);
                    rpy.success = true;
                    if (!uuid_equals(&raft->remove_requester,
                                     &raft->removing)) {
                        rpy.target_sid = raft->removing;
                    }
                    /* The removed server is no longer in the
                     * configuration, but may still be connected. */
                    raft_send(raft, &rpy);
                }
                if (raft->remove_conn) {
                    unixctl_command_reply(raft->remove_conn, NULL);
                    raft->remove_conn = NULL;
                }
                uuid_zero(&raft->removing);
                uuid_zero(&raft->remove_requester);
            }
        }
    }

    /* Out of the configuration, once that configuration is committed
     * (an older one committing in the same batch does not count). */
    uint64_t config_index = 0;
    for (uint64_t i = raft->log_end; i-- > raft->log_start; ) {
        if (entry_at(raft, i)->servers) {
            config_index = i;
            break;
        }
    }
    if (config_index <= raft->commit_index && raft->was_member
        && !raft->joining && !raft->left
        && !raft_find_server(raft, &raft->sid)) {
        VLOG_INFO("%s: server %04x left the cluster", raft->name,
                  raft->sid.parts[0] >> 16);
        raft->left = true;
        raft->leaving = false;
        raft_become_follower(raft);
    }

    /* Commands that committed: their entries, if an earlier leader did
     * not replace them. */
    struct raft_command *cmd;
    LIST_FOR_EACH_SAFE (cmd, node, &raft->commands) {
        if (cmd->index && cmd->index <= raft->commit_index
            && raft->role == RAFT_LEADER) {
            bool ours = (cmd->index >= raft->log_start
                         && uuid_equals(&entry_at(raft, cmd->index)->eid,
                                        &cmd->eid));
            enum raft_command_status status = (ours ? RAFT_CMD_SUCCESS
                                               : RAFT_CMD_LOST_LEADERSHIP);
            if (!uuid_is_zero(&cmd->requester)) {
                raft_send_execute_reply(raft, &cmd->requester, &cmd->eid,
                                        status, cmd->index);
            }
            command_complete(cmd, status);
        }
    }
    raft->change_seqno++;
}

static void
raft_set_commit_index(struct raft *raft, uint64_t commit_index)
{
    if (commit_index > raft->commit_index) {
        uint64_t old = raft->commit_index;
        raft->commit_index = commit_index;
        raft_write_commit_index(raft);
        raft_committed(raft, old);
        if (raft->role == RAFT_LEADER) {
            /* Followers apply only what they know is committed: tell them
             * at once rather than at the next heartbeat, so that a client
             * that reads from a follower after a write sees it. */
            raft->commit_news = true;
        }
    }
}

static void
raft_update_commit(struct raft *raft)
{
    if (raft->role != RAFT_LEADER) {
        return;
    }
    for (uint64_t n = raft->log_end - 1; n > raft->commit_index; n--) {
        if (term_at(raft, n) != raft->term) {
            break;
        }
        size_t count = 0;
        for (size_t i = 0; i < raft->n_servers; i++) {
            const struct raft_server *s = &raft->servers[i];
            if (uuid_equals(&s->sid, &raft->sid) ? n < raft->log_end
                : s->match_index >= n) {
                count++;
            }
        }
        if (count >= majority(raft)) {
            raft_set_commit_index(raft, n);
            break;
        }
    }
    raft_run_reconfigure(raft);
}

static struct raft_server *
raft_find_peer(struct raft *raft, const struct uuid *sid)
{
    struct raft_server *s = raft_find_server(raft, sid);
    return s ? s : find_server(raft->adding, raft->n_adding, sid);
}

static void
raft_handle_append_reply(struct raft *raft, const struct raft_rpc *rpy)
{
    if (!raft_receive_term(raft, rpy->term) || raft->role != RAFT_LEADER) {
        return;
    }
    struct raft_server *s = raft_find_peer(raft, &rpy->sid);
    if (!s) {
        return;
    }
    s->replied = true;
    s->last_msg = time_msec();
    if (rpy->result == RAFT_APPEND_OK) {
        uint64_t match = rpy->prev_log_index + rpy->n_appended;
        if (match > s->match_index) {
            s->match_index = match;
        }
        s->next_index = MAX(s->next_index, s->match_index + 1);
        /* Committing may change the configuration, which moves S. */
        raft_update_commit(raft);
        s = raft_find_peer(raft, &rpy->sid);
        if (s && s->next_index < raft->log_end) {
            raft_send_append(raft, s);
        }
    } else if (rpy->result == RAFT_APPEND_INCONSISTENCY) {
        if (s->next_index > 1) {
            s->next_index--;
        }
        if (rpy->log_end && rpy->log_end < s->next_index) {
            s->next_index = rpy->log_end;
        }
        if (s->next_index <= s->match_index) {
            s->next_index = s->match_index + 1;
        }
        raft_send_append(raft, s);
    }
    raft_run_reconfigure(raft);
}

static void
raft_handle_install_snapshot_reply(struct raft *raft,
                                   const struct raft_rpc *rpy)
{
    if (!raft_receive_term(raft, rpy->term) || raft->role != RAFT_LEADER) {
        return;
    }
    struct raft_server *s = raft_find_peer(raft, &rpy->sid);
    if (!s) {
        return;
    }
    s->snapshot_sent = false;
    s->replied = true;
    s->last_msg = time_msec();
    if (rpy->last_index > s->match_index) {
        s->match_index = rpy->last_index;
    }
    s->next_index = MAX(s->next_index, rpy->last_index + 1);
    raft_send_append(raft, s);
    raft_update_commit(raft);     /* May move S. */
}

/* Replication: followers. */

static void
raft_note_leader(struct raft *raft, const struct uuid *sid)
{
    if (!uuid_equals(&raft->leader_sid, sid)) {
        char buf[5];
        raft->leader_sid = *sid;
        raft->ever_had_leader = true;
        raft->candidate_retrying = false;
        raft->change_seqno++;
        VLOG_INFO("%s: server %s is leader for term %"PRIu64, raft->name,
                  sid_nickname(raft, sid, buf), raft->term);
        raft_write_leader(raft);
        /* Commands sent to an older leader may not be answered, but their
         * entries may still commit: they wait for that or time out. */
    }
    raft_become_follower(raft);
    raft_reset_election_timer(raft);
}

static void
raft_send_append_reply(struct raft *raft, const struct raft_rpc *rq,
                       enum raft_append_result result)
{
    struct raft_rpc rpy;
    raft_rpc_init(&rpy, RAFT_RPC_APPEND_REPLY, &rq->sid);
    rpy.term = raft->term;
    rpy.log_end = raft->log_end;
    rpy.prev_log_index = rq->prev_log_index;
    rpy.prev_log_term = rq->prev_log_term;
    rpy.n_appended = rq->n_entries;
    rpy.result = result;
    raft_send(raft, &rpy);
}

static void
raft_handle_append_request(struct raft *raft, const struct raft_rpc *rq)
{
    if (rq->n_entries) {
        failure_test_crash(FT_CRASH_AFTER_RECV_APPEND_REQ_UPDATE,
                           "after receiving append_request with update");
    }
    if (rq->term < raft->term || raft->left) {
        raft_send_append_reply(raft, rq, RAFT_APPEND_INCONSISTENCY);
        return;
    }
    raft_receive_term(raft, rq->term);
    raft_note_leader(raft, &rq->sid);

    if (rq->prev_log_index >= raft->log_end) {
        raft_send_append_reply(raft, rq, RAFT_APPEND_INCONSISTENCY);
        return;
    }
    /* Entries up to our snapshot are already in it. */
    size_t first = 0;
    uint64_t prev = rq->prev_log_index;
    if (prev < raft->log_start - 1) {
        first = MIN(rq->n_entries, raft->log_start - 1 - prev);
        prev += first;
        if (prev < raft->log_start - 1) {
            raft_send_append_reply(raft, rq, RAFT_APPEND_OK);
            return;
        }
    } else if (term_at(raft, prev) != rq->prev_log_term
               && prev >= raft->log_start) {
        raft_send_append_reply(raft, rq, RAFT_APPEND_INCONSISTENCY);
        return;
    }

    for (size_t i = first; i < rq->n_entries; i++) {
        uint64_t index = rq->prev_log_index + 1 + i;
        const struct raft_entry *e = &rq->entries[i];
        if (index < raft->log_end) {
            if (term_at(raft, index) == e->term) {
                continue;
            }
            if (index <= raft->commit_index) {
                VLOG_WARN("%s: leader tried to overwrite committed entry "
                          "%"PRIu64, raft->name, index);
                raft_send_append_reply(raft, rq, RAFT_APPEND_INCONSISTENCY);
                return;
            }
            raft_truncate(raft, index);
        }
        raft_append_entry(raft, e);
    }
    if (raft->failed) {
        raft_send_append_reply(raft, rq, RAFT_APPEND_IO_ERROR);
        return;
    }
    raft_set_commit_index(raft, MIN(rq->leader_commit,
                                    rq->prev_log_index + rq->n_entries));
    raft_send_append_reply(raft, rq, RAFT_APPEND_OK);
}

static void
raft_handle_install_snapshot_request(struct raft *raft,
                                     const struct raft_rpc *rq)
{
    if (rq->term < raft->term) {
        return;
    }
    raft_receive_term(raft, rq->term);
    raft_note_leader(raft, &rq->sid);

    if (rq->last_index >= raft->log_start
        && rq->last_index < raft->log_end
        && term_at(raft, rq->last_index) == rq->last_term) {
        /* We have it all already. */
    } else {
        VLOG_INFO("%s: installing snapshot at index %"PRIu64" from %04x",
                  raft->name, rq->last_index, rq->sid.parts[0] >> 16);
        for (uint64_t i = raft->log_start; i < raft->log_end; i++) {
            raft_entry_uninit(entry_at(raft, i));
        }
        raft->log_start = raft->log_end = rq->last_index + 1;
        raft_entry_uninit(&raft->snap);
        raft->snap.term = rq->last_term;
        raft->snap.eid = rq->last_eid;
        raft->snap.servers = json_incref(rq->last_servers);
        raft->snap.data = json_incref(rq->data);
        raft->snap.election_timer = rq->election_timer;
        if (rq->election_timer) {
            raft->election_timer = rq->election_timer;
        }
        raft->commit_index = rq->last_index;
        raft->reload_snapshot = true;
        raft_set_servers(raft, rq->last_servers);
        struct ovsdb_error *error = raft_rewrite_file(raft);
        if (error) {
            char *s = ovsdb_error_to_string_free(error);
            VLOG_ERR("%s: writing snapshot failed (%s)", raft->file_name, s);
            free(s);
            raft->failed = true;
        }
    }
    struct raft_rpc rpy;
    raft_rpc_init(&rpy, RAFT_RPC_INSTALL_SNAPSHOT_REPLY, &rq->sid);
    rpy.term = raft->term;
    rpy.last_index = rq->last_index;
    rpy.last_term = rq->last_term;
    failure_test_crash(FT_CRASH_BEFORE_SEND_SNAPSHOT_REP,
                       "before sending install_snapshot_reply");
    raft_send(raft, &rpy);
}

/* Commands. */

static struct raft_command *
raft_command_create(struct raft *raft, const struct uuid *eid)
{
    struct raft_command *cmd = xzalloc(sizeof *cmd);
    cmd->n_refs = 2;            /* The caller's and the list's. */
    cmd->status = RAFT_CMD_INCOMPLETE;
    cmd->eid = *eid;
    cmd->timestamp = time_msec();
    ovs_list_push_back(&raft->commands, &cmd->node);
    return cmd;
}

/* Executes a command on the leader: appends the entry. */
static enum raft_command_status
raft_leader_execute(struct raft *raft, const json_t *data,
                    const struct uuid *prereq, const struct uuid *result,
                    uint64_t *indexp)
{
    if (raft->role != RAFT_LEADER) {
        return RAFT_CMD_NOT_LEADER;
    }
    if (!uuid_is_zero(prereq)) {
        struct uuid last = eid_at(raft, raft->log_end - 1);
        if (!uuid_equals(prereq, &last)) {
            return RAFT_CMD_BAD_PREREQ;
        }
    }
    struct raft_entry e = {
        .term = raft->term,
        .data = (json_t *) data,
        .eid = *result,
    };
    raft_append_entry(raft, &e);
    if (raft->failed) {
        return RAFT_CMD_IO_ERROR;
    }
    *indexp = raft->log_end - 1;
    raft_send_heartbeats(raft);
    return RAFT_CMD_INCOMPLETE;
}

struct raft_command *
raft_command_execute(struct raft *raft, const json_t *data,
                     const struct uuid *prereq, const struct uuid *result)
{
    struct raft_command *cmd = raft_command_create(raft, result);
    if (raft->joining || raft->leaving || raft->left || raft->failed) {
        command_complete(cmd, RAFT_CMD_SHUTDOWN);
        return cmd;
    }
    if (raft->role == RAFT_LEADER) {
        enum raft_command_status status
            = raft_leader_execute(raft, data, prereq, result, &cmd->index);
        if (status != RAFT_CMD_INCOMPLETE) {
            command_complete(cmd, status);
        } else {
            raft_update_commit(raft);
        }
        return cmd;
    }
    if (uuid_is_zero(&raft->leader_sid)
        || !find_conn_by_sid(raft, &raft->leader_sid)) {
        command_complete(cmd, RAFT_CMD_NOT_LEADER);
        return cmd;
    }
    struct raft_rpc rq;
    raft_rpc_init(&rq, RAFT_RPC_EXECUTE_COMMAND_REQUEST, &raft->leader_sid);
    rq.data = json_deep_copy(data);
    rq.prereq = *prereq;
    rq.result_eid = *result;
    failure_test_crash(FT_CRASH_BEFORE_SEND_EXEC_REQ,
                       "before sending execute_command_request");
    raft_send(raft, &rq);
    failure_test_crash(FT_CRASH_AFTER_SEND_EXEC_REQ,
                       "after sending execute_command_request");
    return cmd;
}

static void
raft_handle_execute_command_request(struct raft *raft,
                                    const struct raft_rpc *rq)
{
    uint64_t index = 0;
    enum raft_command_status status = raft_leader_execute(
        raft, rq->data, &rq->prereq, &rq->result_eid, &index);
    if (status != RAFT_CMD_INCOMPLETE) {
        raft_send_execute_reply(raft, &rq->sid, &rq->result_eid, status, 0);
        return;
    }
    struct raft_command *cmd = raft_command_create(raft, &rq->result_eid);
    cmd->n_refs--;              /* Nobody here holds it but the list. */
    cmd->index = index;
    cmd->requester = rq->sid;
    raft_update_commit(raft);
}

static void
raft_handle_execute_command_reply(struct raft *raft,
                                  const struct raft_rpc *rpy)
{
    struct raft_command *cmd;
    LIST_FOR_EACH_SAFE (cmd, node, &raft->commands) {
        if (uuid_equals(&cmd->eid, &rpy->result_eid) && !cmd->index) {
            cmd->index = rpy->commit_index;
            command_complete(cmd, rpy->status);
            return;
        }
    }
}

enum raft_command_status
raft_command_get_status(const struct raft_command *cmd)
{
    return cmd->status;
}

uint64_t
raft_command_get_commit_index(const struct raft_command *cmd)
{
    return cmd->index;
}

void
raft_command_unref(struct raft_command *cmd)
{
    if (cmd && !--cmd->n_refs) {
        free(cmd);
    }
}

/* Membership. */

static void
raft_handle_add_server_request(struct raft *raft, const struct raft_rpc *rq)
{
    struct raft_rpc rpy;
    raft_rpc_init(&rpy, RAFT_RPC_ADD_SERVER_REPLY, &rq->sid);
    if (raft->role != RAFT_LEADER) {
        rpy.success = false;
        const struct raft_server *leader
            = raft_find_server(raft, &raft->leader_sid);
        if (leader) {
            sset_add(&rpy.remote_addresses, leader->address);
        }
        rpy.comment = xstrdup(RAFT_SERVER_NOT_LEADER);
        raft_send(raft, &rpy);
        return;
    }
    if (raft_find_server(raft, &rq->sid)) {
        rpy.success = true;
        raft_send(raft, &rpy);
        return;
    }
    raft_rpc_uninit(&rpy);
    if (find_server(raft->adding, raft->n_adding, &rq->sid)) {
        return;                 /* In progress. */
    }
    raft->adding = xrealloc(raft->adding,
                            (raft->n_adding + 1) * sizeof *raft->adding);
    struct raft_server *a = &raft->adding[raft->n_adding++];
    server_init(a, &rq->sid, rq->address);
    a->phase = PHASE_CATCHUP;
    a->next_index = raft->log_end;
    a->requester = rq->sid;
    VLOG_INFO("%s: adding %s (%04x at %s) (catching up)", raft->name,
              a->nickname, a->sid.parts[0] >> 16, a->address);
    raft_update_conns(raft);
}

static void
raft_handle_add_server_reply(struct raft *raft, const struct raft_rpc *rpy)
{
    if (!raft->joining) {
        return;
    }
    if (rpy->success) {
        VLOG_INFO("%s: added to cluster", raft->name);
        return;
    }
    const char *address;
    SSET_FOR_EACH (address, &rpy->remote_addresses) {
        if (strcmp(address, raft->local_address)) {
            sset_add(&raft->remote_addresses, address);
        }
    }
}

/* Starts removing SID (leader).  Returns an error message or NULL. */
static const char *
raft_start_remove(struct raft *raft, const struct uuid *sid,
                  const struct uuid *requester)
{
    if (raft->role != RAFT_LEADER) {
        return RAFT_SERVER_NOT_LEADER;
    }
    if (!raft_find_server(raft, sid)) {
        return "already not in cluster";
    }
    if (!uuid_is_zero(&raft->removing)) {
        return "in progress";
    }
    if (raft->n_servers == 1) {
        return "cannot remove the last server";
    }
    raft->removing = *sid;
    raft->remove_requester = *requester;
    raft_run_reconfigure(raft);
    return NULL;
}

static void
raft_handle_remove_server_request(struct raft *raft,
                                  const struct raft_rpc *rq)
{
    const char *error = raft_start_remove(raft, &rq->target_sid, &rq->sid);
    if (error) {
        struct raft_rpc rpy;
        raft_rpc_init(&rpy, RAFT_RPC_REMOVE_SERVER_REPLY, &rq->sid);
        rpy.success = !strcmp(error, "already not in cluster");
        if (!uuid_equals(&rq->sid, &rq->target_sid)) {
            rpy.target_sid = rq->target_sid;
        }
        rpy.comment = xstrdup(error);
        raft_send(raft, &rpy);
    }
}

static void
raft_handle_remove_server_reply(struct raft *raft,
                                const struct raft_rpc *rpy)
{
    if (rpy->success && raft->leaving
        && (uuid_is_zero(&rpy->target_sid)
            || uuid_equals(&rpy->target_sid, &raft->sid))) {
        VLOG_INFO("%s: left cluster", raft->name);
        raft->leaving = false;
        raft->left = true;
        raft->change_seqno++;
    }
}

void
raft_leave(struct raft *raft)
{
    if (raft->joining || raft->left || raft->leaving) {
        return;
    }
    VLOG_INFO("%s: starting to leave cluster %04x", raft->name,
              raft->cid.parts[0] >> 16);
    raft->leaving = true;
    raft->change_seqno++;
    fail_commands(raft, RAFT_CMD_SHUTDOWN);
    if (raft->role == RAFT_LEADER) {
        const char *error = raft_start_remove(raft, &raft->sid, &raft->sid);
        if (error) {
            VLOG_WARN("%s: cannot leave: %s", raft->name, error);
            raft->leaving = false;
        }
        return;
    }
    struct raft_conn *conn;
    LIST_FOR_EACH (conn, node, &raft->conns) {
        if (!uuid_is_zero(&conn->sid)
            && jsonrpc_session_is_connected(conn->js)) {
            struct raft_rpc rq;
            raft_rpc_init(&rq, RAFT_RPC_REMOVE_SERVER_REQUEST, &conn->sid);
            rq.target_sid = raft->sid;
            raft_send_to_conn(raft, conn, &rq);
            raft_rpc_uninit(&rq);
        }
    }
}

/* Receiving. */

static void
raft_handle_rpc(struct raft *raft, const struct raft_rpc *rpc)
{
    struct raft_server *s = raft_find_peer(raft, &rpc->sid);
    if (s) {
        s->last_msg = time_msec();
    }
    switch (rpc->type) {
    case RAFT_RPC_HELLO_REQUEST:
        break;
    case RAFT_RPC_APPEND_REQUEST:
        raft_handle_append_request(raft, rpc);
        break;
    case RAFT_RPC_APPEND_REPLY:
        raft_handle_append_reply(raft, rpc);
        break;
    case RAFT_RPC_VOTE_REQUEST:
        raft_handle_vote_request(raft, rpc);
        break;
    case RAFT_RPC_VOTE_REPLY:
        raft_handle_vote_reply(raft, rpc);
        break;
    case RAFT_RPC_ADD_SERVER_REQUEST:
        raft_handle_add_server_request(raft, rpc);
        break;
    case RAFT_RPC_ADD_SERVER_REPLY:
        raft_handle_add_server_reply(raft, rpc);
        break;
    case RAFT_RPC_REMOVE_SERVER_REQUEST:
        raft_handle_remove_server_request(raft, rpc);
        break;
    case RAFT_RPC_REMOVE_SERVER_REPLY:
        raft_handle_remove_server_reply(raft, rpc);
        break;
    case RAFT_RPC_INSTALL_SNAPSHOT_REQUEST:
        raft_handle_install_snapshot_request(raft, rpc);
        break;
    case RAFT_RPC_INSTALL_SNAPSHOT_REPLY:
        raft_handle_install_snapshot_reply(raft, rpc);
        break;
    case RAFT_RPC_BECOME_LEADER:
        if (rpc->term == raft->term && raft->role == RAFT_FOLLOWER) {
            raft_start_election(raft, true);
        }
        break;
    case RAFT_RPC_EXECUTE_COMMAND_REQUEST:
        raft_handle_execute_command_request(raft, rpc);
        break;
    case RAFT_RPC_EXECUTE_COMMAND_REPLY:
        raft_handle_execute_command_reply(raft, rpc);
        break;
    }
}

/* Runs one connection: greets a new peer, reads its messages. */
static void
raft_conn_run(struct raft *raft, struct raft_conn *conn)
{
    jsonrpc_session_run(conn->js);
    unsigned int seqno = jsonrpc_session_get_seqno(conn->js);
    bool just_connected = (seqno != conn->seqno
                           && jsonrpc_session_is_connected(conn->js));
    if (seqno != conn->seqno && !jsonrpc_session_is_connected(conn->js)) {
        raft->n_disconnections++;
    }
    conn->seqno = seqno;
    if (just_connected && !conn->incoming) {
        struct raft_rpc rq;
        if (raft->joining) {
            raft_rpc_init(&rq, RAFT_RPC_ADD_SERVER_REQUEST, NULL);
            rq.address = xstrdup(raft->local_address);
        } else if (raft->leaving) {
            raft_rpc_init(&rq, RAFT_RPC_REMOVE_SERVER_REQUEST, &conn->sid);
            rq.target_sid = raft->sid;
        } else {
            raft_rpc_init(&rq, RAFT_RPC_HELLO_REQUEST, &conn->sid);
            rq.address = xstrdup(raft->local_address);
        }
        raft_send_to_conn(raft, conn, &rq);
        raft_rpc_uninit(&rq);
    }

    for (int i = 0; i < 50 && failure_test != FT_STOP_RAFT_RPC; i++) {
        struct jsonrpc_msg *msg = jsonrpc_session_recv(conn->js);
        if (!msg) {
            break;
        }
        struct raft_rpc rpc;
        struct ovsdb_error *error = raft_rpc_from_jsonrpc(&raft->cid,
                                                          &raft->sid, msg,
                                                          &rpc);
        jsonrpc_msg_destroy(msg);
        if (error) {
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
            char *s = ovsdb_error_to_string_free(error);
            VLOG_WARN_RL(&rl, "%s: %s", jsonrpc_session_get_name(conn->js),
                         s);
            free(s);
            continue;
        }
        if (uuid_is_zero(&conn->sid)) {
            conn->sid = rpc.sid;
        } else if (!uuid_equals(&conn->sid, &rpc.sid)) {
            /* Someone else now lives at that address. */
            conn->sid = rpc.sid;
        }
        if (rpc.address) {
            free(conn->nickname);
            conn->nickname = raft_address_to_nickname(rpc.address, &rpc.sid);
        }
        raft_handle_rpc(raft, &rpc);
        raft_rpc_uninit(&rpc);
    }
}

static void
raft_listen(struct raft *raft)
{
    if (raft->listener || time_msec() < raft->listen_retry || raft->left) {
        return;
    }
    char *name = passive_address(raft->local_address);
    int error = pstream_open(name, &raft->listener, 0);
    if (error) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
        VLOG_WARN_RL(&rl, "%s: listen failed (%s)", name,
                     ovs_strerror(error));
        raft->listener = NULL;
        raft->listen_retry = time_msec() + 1000;
    }
    free(name);
}

/* How long our own command may wait for a leader other than us. */
static long long int
command_deadline(const struct raft *raft, const struct raft_command *cmd)
{
    if (!uuid_is_zero(&cmd->requester)
        || (raft->role == RAFT_LEADER && cmd->index)) {
        return LLONG_MAX;       /* Up to us. */
    }
    return cmd->timestamp + 2 * raft->election_timer;
}

/* Commands that another leader neither answered nor committed in time fail
 * with RAFT_CMD_TIMEOUT (their transactions are then tried again). */
static void
raft_run_command_timeouts(struct raft *raft)
{
    long long int now = time_msec();
    struct raft_command *cmd;
    LIST_FOR_EACH_SAFE (cmd, node, &raft->commands) {
        if (now >= command_deadline(raft, cmd)) {
            command_complete(cmd, RAFT_CMD_TIMEOUT);
            raft->change_seqno++;
        }
    }
}

/* Joining: asks every server we are connected to to add us.  A leader
 * may have lost our request (it stepped down, say), so this repeats
 * until we are in the configuration. */
static void
raft_send_add_server_requests(struct raft *raft)
{
    struct raft_conn *conn;
    LIST_FOR_EACH (conn, node, &raft->conns) {
        if (!conn->incoming && jsonrpc_session_is_connected(conn->js)) {
            struct raft_rpc rq;
            raft_rpc_init(&rq, RAFT_RPC_ADD_SERVER_REQUEST, NULL);
            rq.address = xstrdup(raft->local_address);
            raft_send_to_conn(raft, conn, &rq);
            raft_rpc_uninit(&rq);
        }
    }
    raft->join_timeout = time_msec() + 1000;
}

void
raft_run(struct raft *raft)
{
    if (raft->failed) {
        return;
    }
    raft_listen(raft);
    if (raft->listener) {
        for (int i = 0; i < 10; i++) {
            struct stream *stream;
            int error = pstream_accept(raft->listener, &stream);
            if (error) {
                break;
            }
            raft_add_conn(raft, jsonrpc_session_open_unreliably(
                              jsonrpc_open(stream), 0), NULL, true);
        }
    }
    raft_update_conns(raft);

    struct raft_conn *conn;
    LIST_FOR_EACH_SAFE (conn, node, &raft->conns) {
        raft_conn_run(raft, conn);
        if (conn->incoming && !jsonrpc_session_is_alive(conn->js)) {
            raft_conn_destroy(conn);
        }
    }

    long long int now = time_msec();
    if (raft->role == RAFT_LEADER) {
        if (now >= raft->election_base + raft->election_timer
            && raft->n_servers == 1) {
            /* Alone, nobody to hear from: just start a new period (the
             * timer must not stay in the past). */
            raft->election_base = now;
        } else if (now >= raft->election_base + raft->election_timer) {
            /* A leader that a majority has not heard from in a whole
             * election period steps down, so that a partitioned leader
             * does not keep serving stale reads. */
            size_t count = 1;
            for (size_t i = 0; i < raft->n_servers; i++) {
                struct raft_server *s = &raft->servers[i];
                if (!uuid_equals(&s->sid, &raft->sid) && s->replied) {
                    count++;
                }
                s->replied = false;
            }
            if (count < majority(raft)) {
                VLOG_INFO("%s: lost contact with a majority, stepping down",
                          raft->name);
                raft_become_follower(raft);
                uuid_zero(&raft->leader_sid);
            }
            raft->election_base = now;
        }
        if (raft->role == RAFT_LEADER && now >= raft->ping_timeout) {
            raft_send_heartbeats(raft);
        }
        if (raft->role == RAFT_LEADER
            && (raft->transfer_now || failure_test == FT_TRANSFER_LEADERSHIP)) {
            if (failure_test == FT_TRANSFER_LEADERSHIP) {
                failure_test = FT_NO_TEST;
            }
            raft->transfer_now = false;
            raft_transfer_leadership(raft, "test");
            raft_become_follower(raft);
            uuid_zero(&raft->leader_sid);
        }
    } else if (now >= raft->election_timeout) {
        raft_start_election(raft, false);
    }
    if (raft->joining && now >= raft->join_timeout) {
        raft_send_add_server_requests(raft);
    }
    if (!raft->joining && raft->header_joining && raft->log_start > 1) {
        /* Joined: the file no longer says it is joining (see
         * raft-records.h). */
        struct ovsdb_error *error = raft_rewrite_file(raft);
        if (error) {
            char *s = ovsdb_error_to_string_free(error);
            VLOG_ERR("%s: rewriting log failed (%s)", raft->file_name, s);
            free(s);
            raft->failed = true;
        }
    }
    if (raft->commit_news) {
        raft->commit_news = false;
        if (raft->role == RAFT_LEADER) {
            raft_send_heartbeats(raft);
        }
    }
    raft_run_command_timeouts(raft);
    raft_flush(raft);
}

void
raft_wait(struct raft *raft)
{
    if (raft->failed) {
        return;
    }
    if (raft->sync_needed || raft->commit_news) {
        /* Written or committed outside raft_run() (a command, say): sync
         * and send. */
        poll_immediate_wake();
    }
    if (raft->listener) {
        pstream_wait(raft->listener);
    } else if (!raft->left) {
        poll_timer_wait_until(raft->listen_retry);
    }
    struct raft_conn *conn;
    LIST_FOR_EACH (conn, node, &raft->conns) {
        jsonrpc_session_wait(conn->js);
        jsonrpc_session_recv_wait(conn->js);
    }
    if (raft->role == RAFT_LEADER) {
        if (raft->n_servers > 1 || raft->n_adding) {
            /* Alone, a leader has nobody to send heartbeats to. */
            poll_timer_wait_until(MIN(raft->ping_timeout,
                                      raft->election_base
                                      + raft->election_timer));
        }
        if (raft->transfer_now || failure_test == FT_TRANSFER_LEADERSHIP) {
            poll_immediate_wake();
        }
    } else {
        poll_timer_wait_until(raft->election_timeout);
    }
    if (raft->joining) {
        poll_timer_wait_until(raft->join_timeout);
    }
    const struct raft_command *cmd;
    LIST_FOR_EACH (cmd, node, &raft->commands) {
        long long int deadline = command_deadline(raft, cmd);
        if (deadline != LLONG_MAX) {
            poll_timer_wait_until(deadline);
        }
    }
}

/* Snapshots. */

bool
raft_grew_lots(const struct raft *raft)
{
    return raft->log && ovsdb_log_grew_lots(raft->log);
}

bool
raft_may_snapshot(const struct raft *raft)
{
    return (!raft->joining && !raft->leaving && !raft->left && !raft->failed
            && !raft->reload_snapshot
            && raft->last_applied >= raft->log_start);
}

struct ovsdb_error *
raft_store_snapshot(struct raft *raft, const json_t *data)
{
    if (!raft_may_snapshot(raft)) {
        return ovsdb_error(NULL, "not now");
    }
    uint64_t new_start = raft->last_applied + 1;
    struct raft_entry snap;
    memset(&snap, 0, sizeof snap);
    snap.term = term_at(raft, new_start - 1);
    snap.eid = eid_at(raft, new_start - 1);
    snap.data = json_deep_copy(data);
    snap.election_timer = raft->election_timer;
    snap.servers = json_incref(raft->snap.servers);
    for (uint64_t i = raft->log_start; i < new_start; i++) {
        const struct raft_entry *e = entry_at(raft, i);
        if (e->servers) {
            json_decref(snap.servers);
            snap.servers = json_incref(e->servers);
        }
    }

    struct raft_entry old_snap = raft->snap;
    uint64_t old_start = raft->log_start;
    raft->snap = snap;
    raft->log_start = new_start;
    /* The entries array keeps its first slots until the rewrite succeeds. */
    struct raft_entry *old_entries = raft->entries;
    raft->entries = old_entries + (new_start - old_start);
    struct ovsdb_error *error = raft_rewrite_file(raft);
    raft->entries = old_entries;
    if (error) {
        raft_entry_uninit(&raft->snap);
        raft->snap = old_snap;
        raft->log_start = old_start;
        return error;
    }
    for (uint64_t i = old_start; i < new_start; i++) {
        raft_entry_uninit(&old_entries[i - old_start]);
    }
    memmove(old_entries, old_entries + (new_start - old_start),
            (raft->log_end - new_start) * sizeof *old_entries);
    raft_entry_uninit(&old_snap);
    return NULL;
}

/* unixctl commands. */

static struct raft *
raft_find_by_name(const char *name)
{
    struct raft *raft;
    LIST_FOR_EACH (raft, node, &all_rafts) {
        if (!strcmp(raft->name, name)) {
            return raft;
        }
    }
    return NULL;
}

static struct raft *
unixctl_raft(struct unixctl_conn *conn, const char *name)
{
    struct raft *raft = raft_find_by_name(name);
    if (!raft) {
        unixctl_command_reply_error(conn, "unknown cluster");
    }
    return raft;
}

static void
put_sid(struct ds *s, const char *title, const struct uuid *sid,
        const struct raft *raft)
{
    char buf[5];
    ds_put_format(s, "%s: %s\n", title,
                  uuid_is_zero(sid) ? "unknown"
                  : uuid_equals(sid, &raft->sid) ? "self"
                  : sid_nickname(raft, sid, buf));
}

static const char *
phase_name(enum raft_phase phase)
{
    switch (phase) {
    case PHASE_STABLE: return "stable";
    case PHASE_CATCHUP: return "adding: catchup";
    case PHASE_COMMITTING: return "adding: committing";
    case PHASE_REMOVE: return "removing";
    }
    return "<error>";
}

static void
unixctl_status(struct unixctl_conn *conn, int argc OVS_UNUSED,
               const char *argv[], void *aux OVS_UNUSED)
{
    struct raft *raft = unixctl_raft(conn, argv[1]);
    if (!raft) {
        return;
    }
    struct ds s = DS_EMPTY_INITIALIZER;
    ds_put_format(&s, "%s\n", raft->local_nickname);
    ds_put_format(&s, "Name: %s\n", raft->name);
    ds_put_cstr(&s, "Cluster ID: ");
    if (uuid_is_zero(&raft->cid)) {
        ds_put_cstr(&s, "not yet known\n");
    } else {
        ds_put_format(&s, "%04x ("UUID_FMT")\n", raft->cid.parts[0] >> 16,
                      UUID_ARGS(&raft->cid));
    }
    ds_put_format(&s, "Server ID: %04x ("UUID_FMT")\n",
                  raft->sid.parts[0] >> 16, UUID_ARGS(&raft->sid));
    ds_put_format(&s, "Address: %s\n", raft->local_address);
    ds_put_format(&s, "Status: %s\n",
                  raft->joining ? "joining cluster"
                  : raft->leaving ? "leaving cluster"
                  : raft->left ? "left cluster"
                  : raft->failed ? "failed"
                  : raft->candidate_retrying
                  ? "disconnected from the cluster (election timeout)"
                  : "cluster member");
    if (raft->joining) {
        ds_put_cstr(&s, "Remotes for joining:");
        const char *address;
        SSET_FOR_EACH (address, &raft->remote_addresses) {
            ds_put_format(&s, " %s", address);
        }
        ds_put_char(&s, '\n');
    }
    if (raft->role == RAFT_LEADER) {
        for (size_t i = 0; i < raft->n_adding; i++) {
            const struct raft_server *a = &raft->adding[i];
            ds_put_format(&s, "Adding server %s (%04x at %s) (%s)\n",
                          a->nickname, a->sid.parts[0] >> 16, a->address,
                          phase_name(a->phase));
        }
        const struct raft_server *r = raft_find_server(raft, &raft->removing);
        if (r) {
            ds_put_format(&s, "Removing server %s (%04x at %s) (%s)\n",
                          r->nickname, r->sid.parts[0] >> 16, r->address,
                          phase_name(PHASE_REMOVE));
        }
    }
    ds_put_format(&s, "Role: %s\n",
                  raft->role == RAFT_LEADER ? "leader"
                  : raft->role == RAFT_CANDIDATE ? "candidate"
                  : "follower");
    ds_put_format(&s, "Term: %"PRIu64"\n", raft->term);
    put_sid(&s, "Leader", &raft->leader_sid, raft);
    put_sid(&s, "Vote", &raft->vote, raft);
    ds_put_char(&s, '\n');
    long long int now = time_msec();
    if (raft->election_start) {
        ds_put_format(&s, "Last Election started %lld ms ago, reason: %s\n",
                      now - raft->election_start,
                      raft->leadership_transfer ? "leadership_transfer"
                      : "timeout");
    }
    if (raft->election_won) {
        ds_put_format(&s, "Last Election won: %lld ms ago\n",
                      now - raft->election_won);
    }
    ds_put_format(&s, "Election timer: %"PRIu64, raft->election_timer);
    if (raft->role == RAFT_LEADER && raft->election_timer_new) {
        ds_put_format(&s, " (changing to %"PRIu64")",
                      raft->election_timer_new);
    }
    ds_put_char(&s, '\n');
    ds_put_format(&s, "Log: [%"PRIu64", %"PRIu64"]\n", raft->log_start,
                  raft->log_end);
    ds_put_format(&s, "Entries not yet committed: %"PRIu64"\n",
                  raft->log_end - raft->commit_index - 1);
    ds_put_format(&s, "Entries not yet applied: %"PRIu64"\n",
                  raft->log_end - MAX(raft->last_applied,
                                      raft->log_start - 1) - 1);
    ds_put_cstr(&s, "Connections:");
    struct raft_conn *c;
    LIST_FOR_EACH (c, node, &raft->conns) {
        bool connected = jsonrpc_session_is_connected(c->js);
        ds_put_format(&s, " %s%s%s%s", connected ? "" : "(",
                      c->incoming ? "<-" : "->", c->nickname,
                      connected ? "" : ")");
    }
    ds_put_char(&s, '\n');
    ds_put_format(&s, "Disconnections: %u\n", raft->n_disconnections);
    ds_put_cstr(&s, "Servers:\n");
    for (size_t i = 0; i < raft->n_servers; i++) {
        const struct raft_server *sv = &raft->servers[i];
        ds_put_format(&s, "    %s (%04x at %s)", sv->nickname,
                      sv->sid.parts[0] >> 16, sv->address);
        if (uuid_equals(&sv->sid, &raft->sid)) {
            ds_put_cstr(&s, " (self)");
        }
        if (raft->role == RAFT_CANDIDATE) {
            if (!uuid_is_zero(&sv->vote)) {
                char buf[5];
                ds_put_format(&s, " (voted for %s)",
                              sid_nickname(raft, &sv->vote, buf));
            }
        } else if (raft->role == RAFT_LEADER) {
            uint64_t next = sv->next_index, match = sv->match_index;
            if (uuid_equals(&sv->sid, &raft->sid)) {
                next = raft->log_end;
                match = raft->log_end - 1;
            }
            ds_put_format(&s, " next_index=%"PRIu64" match_index=%"PRIu64,
                          next, match);
        }
        if (sv->last_msg && !uuid_equals(&sv->sid, &raft->sid)) {
            ds_put_format(&s, " last msg %lld ms ago", now - sv->last_msg);
        }
        ds_put_char(&s, '\n');
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
unixctl_cid(struct unixctl_conn *conn, int argc OVS_UNUSED,
            const char *argv[], void *aux OVS_UNUSED)
{
    struct raft *raft = unixctl_raft(conn, argv[1]);
    if (!raft) {
        return;
    }
    if (uuid_is_zero(&raft->cid)) {
        unixctl_command_reply_error(conn, "cluster id not yet known");
        return;
    }
    char s[UUID_LEN + 1];
    uuid_format(&raft->cid, s);
    unixctl_command_reply(conn, s);
}

static void
unixctl_sid(struct unixctl_conn *conn, int argc OVS_UNUSED,
            const char *argv[], void *aux OVS_UNUSED)
{
    struct raft *raft = unixctl_raft(conn, argv[1]);
    if (raft) {
        char s[UUID_LEN + 1];
        uuid_format(&raft->sid, s);
        unixctl_command_reply(conn, s);
    }
}

static void
unixctl_leave(struct unixctl_conn *conn, int argc OVS_UNUSED,
              const char *argv[], void *aux OVS_UNUSED)
{
    struct raft *raft = unixctl_raft(conn, argv[1]);
    if (!raft) {
        return;
    }
    if (raft->joining) {
        unixctl_command_reply_error(conn, "can't leave while join in "
                                    "progress");
    } else if (raft->leaving || raft->left) {
        unixctl_command_reply_error(conn, "already in progress");
    } else {
        raft_leave(raft);
        unixctl_command_reply(conn, NULL);
    }
}

static void
unixctl_kick(struct unixctl_conn *conn, int argc OVS_UNUSED,
             const char *argv[], void *aux OVS_UNUSED)
{
    struct raft *raft = unixctl_raft(conn, argv[1]);
    if (!raft) {
        return;
    }
    const char *who = argv[2];
    const struct raft_server *target = NULL;
    size_t n_matches = 0;
    for (size_t i = 0; i < raft->n_servers; i++) {
        const struct raft_server *s = &raft->servers[i];
        char full[UUID_LEN + 1];
        uuid_format(&s->sid, full);
        if (!strcmp(s->address, who) || !strcmp(s->nickname, who)
            || !strncmp(full, who, strlen(who))) {
            target = s;
            n_matches++;
        }
    }
    if (n_matches != 1) {
        unixctl_command_reply_error(conn, n_matches ? "ambiguous server"
                                    : "unknown server");
        return;
    }
    struct uuid sid = target->sid;
    if (raft->role == RAFT_LEADER) {
        const char *error = raft_start_remove(raft, &sid, &raft->sid);
        if (error) {
            unixctl_command_reply_error(conn, error);
        } else {
            unixctl_command_reply(conn, "kick requested");
        }
        return;
    }
    if (uuid_is_zero(&raft->leader_sid)) {
        unixctl_command_reply_error(conn, "no leader");
        return;
    }
    struct raft_rpc rq;
    raft_rpc_init(&rq, RAFT_RPC_REMOVE_SERVER_REQUEST, &raft->leader_sid);
    rq.target_sid = sid;
    raft_send(raft, &rq);
    unixctl_command_reply(conn, "kick requested");
}

static void
unixctl_change_election_timer(struct unixctl_conn *conn,
                              int argc OVS_UNUSED, const char *argv[],
                              void *aux OVS_UNUSED)
{
    struct raft *raft = unixctl_raft(conn, argv[1]);
    if (!raft) {
        return;
    }
    if (raft->role != RAFT_LEADER) {
        unixctl_command_reply_error(conn, "election timer must be changed "
                                    "through leader.");
        return;
    }
    char *end;
    unsigned long long int ms = strtoull(argv[2], &end, 10);
    if (*end || !ms) {
        unixctl_command_reply_error(conn, "election timer must be a "
                                    "positive integer");
        return;
    }
    if (ms < RAFT_ELECTION_TIMER_MIN || ms > RAFT_ELECTION_TIMER_MAX) {
        char *msg = xasprintf("election timer must be between %d and %d, "
                              "in msec.", RAFT_ELECTION_TIMER_MIN,
                              RAFT_ELECTION_TIMER_MAX);
        unixctl_command_reply_error(conn, msg);
        free(msg);
        return;
    }
    if (ms > raft->election_timer * 2) {
        unixctl_command_reply_error(conn, "election timer increase should "
                                    "not exceed the current value x 2.");
        return;
    }
    if (raft->election_timer_new || raft->config_pending) {
        unixctl_command_reply_error(conn, "election timer change pending.");
        return;
    }
    raft->election_timer_new = ms;
    raft_run_reconfigure(raft);
    unixctl_command_reply(conn, "change of election timer initiated.");
}

static void
unixctl_set_backlog_threshold(struct unixctl_conn *conn,
                              int argc OVS_UNUSED, const char *argv[],
                              void *aux OVS_UNUSED)
{
    struct raft *raft = unixctl_raft(conn, argv[1]);
    if (!raft) {
        return;
    }
    char *end1, *end2;
    unsigned long long int n_msgs = strtoull(argv[2], &end1, 10);
    unsigned long long int n_bytes = strtoull(argv[3], &end2, 10);
    if (*end1 || *end2 || !n_msgs || !n_bytes) {
        unixctl_command_reply_error(conn, "invalid argument");
        return;
    }
    raft->backlog_max_n_msgs = n_msgs;
    raft->backlog_max_bytes = n_bytes;
    unixctl_command_reply(conn, NULL);
}

static void
unixctl_failure_test(struct unixctl_conn *conn, int argc OVS_UNUSED,
                     const char *argv[], void *aux OVS_UNUSED)
{
    static const struct {
        const char *name;
        enum raft_failure_test test;
    } tests[] = {
        { "crash-before-sending-append-request",
          FT_CRASH_BEFORE_SEND_APPEND_REQ },
        { "crash-after-sending-append-request",
          FT_CRASH_AFTER_SEND_APPEND_REQ },
        { "crash-before-sending-execute-command-reply",
          FT_CRASH_BEFORE_SEND_EXEC_REP },
        { "crash-after-sending-execute-command-reply",
          FT_CRASH_AFTER_SEND_EXEC_REP },
        { "crash-before-sending-execute-command-request",
          FT_CRASH_BEFORE_SEND_EXEC_REQ },
        { "crash-after-sending-execute-command-request",
          FT_CRASH_AFTER_SEND_EXEC_REQ },
        { "crash-after-receiving-append-request-update",
          FT_CRASH_AFTER_RECV_APPEND_REQ_UPDATE },
        { "crash-before-sending-install-snapshot-reply",
          FT_CRASH_BEFORE_SEND_SNAPSHOT_REP },
        { "delay-election", FT_DELAY_ELECTION },
        { "dont-send-vote-request", FT_DONT_SEND_VOTE_REQUEST },
        { "stop-raft-rpc", FT_STOP_RAFT_RPC },
        { "transfer-leadership", FT_TRANSFER_LEADERSHIP },
        { "transfer-leadership-after-sending-append-request",
          FT_TRANSFER_LEADERSHIP_AFTER_SEND_APPEND_REQ },
        { "clear", FT_NO_TEST },
    };
    const char *name = argv[1];
    for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
        if (!strcmp(name, tests[i].name)) {
            failure_test = tests[i].test;
            if (failure_test == FT_DELAY_ELECTION) {
                struct raft *raft;
                LIST_FOR_EACH (raft, node, &all_rafts) {
                    if (raft->role == RAFT_FOLLOWER) {
                        raft_reset_election_timer(raft);
                    }
                }
            }
            unixctl_command_reply(conn, failure_test == FT_NO_TEST
                                  ? "test dismissed" : "test engaged");
            return;
        }
    }
    unixctl_command_reply_error(conn, "unknown test scenario");
}

void
raft_init(void)
{
    static bool inited;
    if (inited) {
        return;
    }
    inited = true;
    unixctl_command_register("cluster/cid", "DB", 1, 1, unixctl_cid, NULL);
    unixctl_command_register("cluster/sid", "DB", 1, 1, unixctl_sid, NULL);
    unixctl_command_register("cluster/status", "DB", 1, 1, unixctl_status,
                             NULL);
    unixctl_command_register("cluster/leave", "DB", 1, 1, unixctl_leave,
                             NULL);
    unixctl_command_register("cluster/kick", "DB SERVER", 2, 2,
                             unixctl_kick, NULL);
    unixctl_command_register("cluster/change-election-timer", "DB TIME", 2,
                             2, unixctl_change_election_timer, NULL);
    unixctl_command_register("cluster/set-backlog-threshold",
                             "DB N_MSGS N_BYTES", 3, 3,
                             unixctl_set_backlog_threshold, NULL);
    unixctl_command_register("cluster/failure-test", "FAILURE SCENARIO", 1,
                             1, unixctl_failure_test, NULL);
}
