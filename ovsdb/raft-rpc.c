/* Raft messages to and from JSON-RPC. */
#include <config.h>

#include "raft-rpc.h"

#include <string.h>
#include "jsonrpc.h"
#include "ovsdb-error.h"

static const char *const type_names[] = {
    [RAFT_RPC_HELLO_REQUEST] = "hello_request",
    [RAFT_RPC_APPEND_REQUEST] = "append_request",
    [RAFT_RPC_APPEND_REPLY] = "append_reply",
    [RAFT_RPC_VOTE_REQUEST] = "vote_request",
    [RAFT_RPC_VOTE_REPLY] = "vote_reply",
    [RAFT_RPC_ADD_SERVER_REQUEST] = "add_server_request",
    [RAFT_RPC_ADD_SERVER_REPLY] = "add_server_reply",
    [RAFT_RPC_REMOVE_SERVER_REQUEST] = "remove_server_request",
    [RAFT_RPC_REMOVE_SERVER_REPLY] = "remove_server_reply",
    [RAFT_RPC_INSTALL_SNAPSHOT_REQUEST] = "install_snapshot_request",
    [RAFT_RPC_INSTALL_SNAPSHOT_REPLY] = "install_snapshot_reply",
    [RAFT_RPC_BECOME_LEADER] = "become_leader",
    [RAFT_RPC_EXECUTE_COMMAND_REQUEST] = "execute_command_request",
    [RAFT_RPC_EXECUTE_COMMAND_REPLY] = "execute_command_reply",
};

const char *
raft_rpc_type_to_string(enum raft_rpc_type type)
{
    return type < ARRAY_SIZE(type_names) ? type_names[type] : "<unknown>";
}

static const char *const status_names[] = {
    [RAFT_CMD_INCOMPLETE] = "operation still in progress",
    [RAFT_CMD_SUCCESS] = "success",
    [RAFT_CMD_NOT_LEADER] = "not leader",
    [RAFT_CMD_BAD_PREREQ] = "prerequisite check failed",
    [RAFT_CMD_LOST_LEADERSHIP] = "lost leadership",
    [RAFT_CMD_SHUTDOWN] = "server shutdown",
    [RAFT_CMD_IO_ERROR] = "I/O error",
    [RAFT_CMD_TIMEOUT] = "timeout",
};

const char *
raft_command_status_to_string(enum raft_command_status status)
{
    return (status < ARRAY_SIZE(status_names) ? status_names[status]
            : "<unknown>");
}

static const char *const append_result_names[] = {
    [RAFT_APPEND_OK] = "OK",
    [RAFT_APPEND_INCONSISTENCY] = "inconsistency",
    [RAFT_APPEND_IO_ERROR] = "I/O error",
};

void
raft_rpc_init(struct raft_rpc *rpc, enum raft_rpc_type type,
              const struct uuid *sid)
{
    memset(rpc, 0, sizeof *rpc);
    rpc->type = type;
    if (sid) {
        rpc->sid = *sid;
    }
    sset_init(&rpc->remote_addresses);
}

void
raft_rpc_uninit(struct raft_rpc *rpc)
{
    if (rpc) {
        free(rpc->comment);
        for (size_t i = 0; i < rpc->n_entries; i++) {
            raft_entry_uninit(&rpc->entries[i]);
        }
        free(rpc->entries);
        free(rpc->address);
        sset_destroy(&rpc->remote_addresses);
        json_decref(rpc->last_servers);
        json_decref(rpc->data);
        memset(rpc, 0, sizeof *rpc);
    }
}

static void
put_u64(json_t *args, const char *name, uint64_t value)
{
    json_object_set_new(args, name, json_integer(value));
}

struct jsonrpc_msg *
raft_rpc_to_jsonrpc(const struct uuid *cid, const struct uuid *sid,
                    const struct raft_rpc *rpc)
{
    json_t *args = json_object();
    if (cid && !uuid_is_zero(cid)) {
        raft_json_put_uuid(args, "cluster", cid);
    }
    if (!uuid_is_zero(&rpc->sid)) {
        raft_json_put_uuid(args, "to", &rpc->sid);
    }
    raft_json_put_uuid(args, "from", sid);
    if (rpc->comment) {
        json_object_set_new(args, "comment", json_string(rpc->comment));
    }

    switch (rpc->type) {
    case RAFT_RPC_HELLO_REQUEST:
    case RAFT_RPC_ADD_SERVER_REQUEST:
        json_object_set_new(args, "address", json_string(rpc->address));
        break;

    case RAFT_RPC_APPEND_REQUEST: {
        put_u64(args, "term", rpc->term);
        put_u64(args, "prev_log_index", rpc->prev_log_index);
        put_u64(args, "prev_log_term", rpc->prev_log_term);
        put_u64(args, "leader_commit", rpc->leader_commit);
        json_t *log = json_array();
        for (size_t i = 0; i < rpc->n_entries; i++) {
            json_array_append_new(log, raft_entry_to_json(&rpc->entries[i]));
        }
        json_object_set_new(args, "log", log);
        break;
    }

    case RAFT_RPC_APPEND_REPLY:
        put_u64(args, "term", rpc->term);
        put_u64(args, "log_end", rpc->log_end);
        put_u64(args, "prev_log_index", rpc->prev_log_index);
        put_u64(args, "prev_log_term", rpc->prev_log_term);
        put_u64(args, "n_entries", rpc->n_appended);
        json_object_set_new(args, "result",
                            json_string(append_result_names[rpc->result]));
        break;

    case RAFT_RPC_VOTE_REQUEST:
        put_u64(args, "term", rpc->term);
        put_u64(args, "last_log_index", rpc->last_log_index);
        put_u64(args, "last_log_term", rpc->last_log_term);
        if (rpc->leadership_transfer) {
            json_object_set_new(args, "leadership_transfer", json_true());
        }
        break;

    case RAFT_RPC_VOTE_REPLY:
        put_u64(args, "term", rpc->term);
        raft_json_put_uuid(args, "vote", &rpc->vote);
        break;

    case RAFT_RPC_ADD_SERVER_REPLY:
        json_object_set_new(args, "success", json_boolean(rpc->success));
        if (!sset_is_empty(&rpc->remote_addresses)) {
            json_t *a = json_array();
            const char *s;
            SSET_FOR_EACH (s, &rpc->remote_addresses) {
                json_array_append_new(a, json_string(s));
            }
            json_object_set_new(args, "remote_addresses", a);
        }
        break;

    case RAFT_RPC_REMOVE_SERVER_REQUEST:
        raft_json_put_uuid(args, "server_id", &rpc->target_sid);
        break;

    case RAFT_RPC_REMOVE_SERVER_REPLY:
        if (!uuid_is_zero(&rpc->target_sid)) {
            raft_json_put_uuid(args, "target_server", &rpc->target_sid);
        }
        json_object_set_new(args, "success", json_boolean(rpc->success));
        break;

    case RAFT_RPC_INSTALL_SNAPSHOT_REQUEST:
        put_u64(args, "term", rpc->term);
        put_u64(args, "last_index", rpc->last_index);
        put_u64(args, "last_term", rpc->last_term);
        json_object_set_new(args, "last_servers",
                            json_deep_copy(rpc->last_servers));
        raft_json_put_uuid(args, "last_eid", &rpc->last_eid);
        put_u64(args, "election_timer", rpc->election_timer);
        json_object_set_new(args, "data", json_deep_copy(rpc->data));
        break;

    case RAFT_RPC_INSTALL_SNAPSHOT_REPLY:
        put_u64(args, "term", rpc->term);
        put_u64(args, "last_index", rpc->last_index);
        put_u64(args, "last_term", rpc->last_term);
        break;

    case RAFT_RPC_BECOME_LEADER:
        put_u64(args, "term", rpc->term);
        break;

    case RAFT_RPC_EXECUTE_COMMAND_REQUEST:
        json_object_set_new(args, "data", json_deep_copy(rpc->data));
        raft_json_put_uuid(args, "prereq", &rpc->prereq);
        raft_json_put_uuid(args, "result", &rpc->result_eid);
        break;

    case RAFT_RPC_EXECUTE_COMMAND_REPLY:
        raft_json_put_uuid(args, "result", &rpc->result_eid);
        json_object_set_new(args, "status", json_string(
                                raft_command_status_to_string(rpc->status)));
        if (rpc->commit_index) {
            put_u64(args, "commit_index", rpc->commit_index);
        }
        break;
    }

    return jsonrpc_create_notify(raft_rpc_type_to_string(rpc->type),
                                 json_pack("[o]", args));
}

static bool
parse_bool(const json_t *args, const char *name, bool optional, bool *value,
           const char *what, struct ovsdb_error **errorp)
{
    const json_t *m = json_object_get(args, name);
    *value = false;
    if (!m) {
        if (!optional && !*errorp) {
            *errorp = ovsdb_syntax_error(args, NULL, "Parsing %s failed: "
                                         "Required '%s' member is missing.",
                                         what, name);
        }
        return false;
    }
    if (!json_is_boolean(m)) {
        if (!*errorp) {
            *errorp = ovsdb_syntax_error(args, NULL, "%s: %s is not a "
                                         "boolean", what, name);
        }
        return false;
    }
    *value = json_is_true(m);
    return true;
}

static void
parse_body(struct raft_rpc *rpc, const json_t *args, const char *what,
           struct ovsdb_error **errorp)
{
    const char *s;
    const json_t *m;

    switch (rpc->type) {
    case RAFT_RPC_HELLO_REQUEST:
    case RAFT_RPC_ADD_SERVER_REQUEST:
        if (raft_json_string(args, "address", false, &s, what, errorp)) {
            rpc->address = xstrdup(s);
        }
        break;

    case RAFT_RPC_APPEND_REQUEST:
        raft_json_uint64(args, "term", false, &rpc->term, what, errorp);
        raft_json_uint64(args, "prev_log_index", false, &rpc->prev_log_index,
                         what, errorp);
        raft_json_uint64(args, "prev_log_term", false, &rpc->prev_log_term,
                         what, errorp);
        raft_json_uint64(args, "leader_commit", false, &rpc->leader_commit,
                         what, errorp);
        m = json_object_get(args, "log");
        if (!json_is_array(m)) {
            if (!*errorp) {
                *errorp = ovsdb_syntax_error(args, NULL, "%s: missing log",
                                             what);
            }
            break;
        }
        rpc->entries = xcalloc(json_array_size(m) + 1,
                               sizeof *rpc->entries);
        for (size_t i = 0; i < json_array_size(m) && !*errorp; i++) {
            *errorp = raft_entry_from_json(&rpc->entries[i],
                                           json_array_get(m, i));
            if (!*errorp) {
                rpc->n_entries++;
            }
        }
        break;

    case RAFT_RPC_APPEND_REPLY: {
        raft_json_uint64(args, "term", false, &rpc->term, what, errorp);
        raft_json_uint64(args, "log_end", false, &rpc->log_end, what, errorp);
        raft_json_uint64(args, "prev_log_index", false, &rpc->prev_log_index,
                         what, errorp);
        raft_json_uint64(args, "prev_log_term", false, &rpc->prev_log_term,
                         what, errorp);
        raft_json_uint64(args, "n_entries", false, &rpc->n_appended, what,
                         errorp);
        if (raft_json_string(args, "result", false, &s, what, errorp)) {
            size_t i;
            for (i = 0; i < ARRAY_SIZE(append_result_names); i++) {
                if (!strcmp(s, append_result_names[i])) {
                    rpc->result = i;
                    break;
                }
            }
            if (i == ARRAY_SIZE(append_result_names) && !*errorp) {
                *errorp = ovsdb_syntax_error(args, NULL, "unknown result "
                                             "\"%s\"", s);
            }
        }
        break;
    }

    case RAFT_RPC_VOTE_REQUEST:
        raft_json_uint64(args, "term", false, &rpc->term, what, errorp);
        raft_json_uint64(args, "last_log_index", false, &rpc->last_log_index,
                         what, errorp);
        raft_json_uint64(args, "last_log_term", false, &rpc->last_log_term,
                         what, errorp);
        parse_bool(args, "leadership_transfer", true,
                   &rpc->leadership_transfer, what, errorp);
        break;

    case RAFT_RPC_VOTE_REPLY:
        raft_json_uint64(args, "term", false, &rpc->term, what, errorp);
        raft_json_uuid(args, "vote", false, &rpc->vote, what, errorp);
        break;

    case RAFT_RPC_ADD_SERVER_REPLY:
        parse_bool(args, "success", false, &rpc->success, what, errorp);
        m = json_object_get(args, "remote_addresses");
        if (json_is_array(m)) {
            size_t i;
            json_t *a;
            json_array_foreach (m, i, a) {
                if (json_is_string(a)) {
                    sset_add(&rpc->remote_addresses, json_string_value(a));
                }
            }
        }
        break;

    case RAFT_RPC_REMOVE_SERVER_REQUEST:
        raft_json_uuid(args, "server_id", false, &rpc->target_sid, what,
                       errorp);
        break;

    case RAFT_RPC_REMOVE_SERVER_REPLY:
        parse_bool(args, "success", false, &rpc->success, what, errorp);
        raft_json_uuid(args, "target_server", true, &rpc->target_sid, what,
                       errorp);
        break;

    case RAFT_RPC_INSTALL_SNAPSHOT_REQUEST:
        raft_json_uint64(args, "term", false, &rpc->term, what, errorp);
        raft_json_uint64(args, "last_index", false, &rpc->last_index, what,
                         errorp);
        raft_json_uint64(args, "last_term", false, &rpc->last_term, what,
                         errorp);
        raft_json_uuid(args, "last_eid", false, &rpc->last_eid, what,
                       errorp);
        raft_json_uint64(args, "election_timer", false,
                         &rpc->election_timer, what, errorp);
        m = json_object_get(args, "last_servers");
        if (m) {
            struct ovsdb_error *e = raft_servers_validate_json(m);
            if (e && !*errorp) {
                *errorp = e;
            } else {
                ovsdb_error_destroy(e);
            }
            rpc->last_servers = json_deep_copy(m);
        } else if (!*errorp) {
            *errorp = ovsdb_syntax_error(args, NULL, "%s: missing "
                                         "last_servers", what);
        }
        m = json_object_get(args, "data");
        if (json_is_array(m) || json_is_object(m)) {
            rpc->data = json_deep_copy(m);
        } else if (!*errorp) {
            *errorp = ovsdb_syntax_error(args, NULL, "%s: missing data",
                                         what);
        }
        break;

    case RAFT_RPC_INSTALL_SNAPSHOT_REPLY:
        raft_json_uint64(args, "term", false, &rpc->term, what, errorp);
        raft_json_uint64(args, "last_index", false, &rpc->last_index, what,
                         errorp);
        raft_json_uint64(args, "last_term", false, &rpc->last_term, what,
                         errorp);
        break;

    case RAFT_RPC_BECOME_LEADER:
        raft_json_uint64(args, "term", false, &rpc->term, what, errorp);
        break;

    case RAFT_RPC_EXECUTE_COMMAND_REQUEST:
        m = json_object_get(args, "data");
        rpc->data = m ? json_deep_copy(m) : NULL;
        raft_json_uuid(args, "prereq", false, &rpc->prereq, what, errorp);
        raft_json_uuid(args, "result", false, &rpc->result_eid, what,
                       errorp);
        break;

    case RAFT_RPC_EXECUTE_COMMAND_REPLY:
        raft_json_uuid(args, "result", false, &rpc->result_eid, what,
                       errorp);
        if (raft_json_string(args, "status", false, &s, what, errorp)) {
            size_t i;
            for (i = 0; i < ARRAY_SIZE(status_names); i++) {
                if (!strcmp(s, status_names[i])) {
                    rpc->status = i;
                    break;
                }
            }
            if (i == ARRAY_SIZE(status_names) && !*errorp) {
                *errorp = ovsdb_syntax_error(args, NULL, "unknown status "
                                             "\"%s\"", s);
            }
        }
        raft_json_uint64(args, "commit_index", true, &rpc->commit_index,
                         what, errorp);
        break;
    }
}

struct ovsdb_error *
raft_rpc_from_jsonrpc(struct uuid *cidp, const struct uuid *sid,
                      const struct jsonrpc_msg *msg, struct raft_rpc *rpc)
{
    if (msg->type != JSONRPC_NOTIFY) {
        return ovsdb_error(NULL, "expecting notify RPC but received %s",
                           jsonrpc_msg_type_to_string(msg->type));
    }
    size_t type;
    for (type = 0; type < ARRAY_SIZE(type_names); type++) {
        if (!strcmp(msg->method, type_names[type])) {
            break;
        }
    }
    if (type == ARRAY_SIZE(type_names)) {
        return ovsdb_error(NULL, "unknown method %s", msg->method);
    }
    if (json_array_size(msg->params) != 1
        || !json_is_object(json_array_get(msg->params, 0))) {
        return ovsdb_error(NULL, "%s RPC has %zu parameters (expected 1)",
                           msg->method, json_array_size(msg->params));
    }
    const json_t *args = json_array_get(msg->params, 0);

    raft_rpc_init(rpc, type, NULL);
    char *what = xasprintf("raft %s RPC", msg->method);
    struct ovsdb_error *error = NULL;

    struct uuid cid;
    if (raft_json_uuid(args, "cluster", true, &cid, what, &error)
        && !uuid_equals(&cid, cidp)) {
        if (uuid_is_zero(cidp)) {
            *cidp = cid;
        } else if (!error) {
            error = ovsdb_error(NULL, "wrong cluster %04x (expected %04x)",
                                cid.parts[0] >> 16, cidp->parts[0] >> 16);
        }
    }
    struct uuid to;
    if (raft_json_uuid(args, "to", true, &to, what, &error)
        && !uuid_equals(&to, sid) && !error) {
        error = ovsdb_error(NULL, "misrouted message (addressed to %04x but "
                            "we're %04x)", to.parts[0] >> 16,
                            sid->parts[0] >> 16);
    }
    raft_json_uuid(args, "from", false, &rpc->sid, what, &error);
    const char *comment;
    if (raft_json_string(args, "comment", true, &comment, what, &error)) {
        rpc->comment = xstrdup(comment);
    }
    if (!error) {
        parse_body(rpc, args, what, &error);
    }
    free(what);
    if (error) {
        raft_rpc_uninit(rpc);
    }
    return error;
}
