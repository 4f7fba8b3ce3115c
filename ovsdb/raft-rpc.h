/* raft-rpc: the messages Raft servers exchange, as Open vSwitch 3.1 sends
 * them, so that our servers and theirs form one cluster.
 *
 * Every message is a JSON-RPC notification whose method names its type
 * ("append_request", "vote_reply", ...) and whose single parameter is an
 * object with "from" (the sender's server id), "to" (the receiver's, left
 * out in a hello or add-server request to an unknown server), "cluster"
 * (the cluster id, left out by a server that does not know it yet) and the
 * type's own members.  One flat struct holds any of them; the comment on
 * each member says which types use it.
 *
 * Memory: a struct raft_rpc owns its strings, entries and JSON (released
 * by raft_rpc_uninit()).  raft_rpc_to_jsonrpc() returns a new message for
 * the caller; raft_rpc_from_jsonrpc() borrows the message.
 */
#ifndef OVSDB_RAFT_RPC_H
#define OVSDB_RAFT_RPC_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include "raft-records.h"
#include "sset.h"
#include "util.h"
#include "uuid.h"

struct jsonrpc_msg;
struct ovsdb_error;

enum raft_rpc_type {
    RAFT_RPC_HELLO_REQUEST,
    RAFT_RPC_APPEND_REQUEST,
    RAFT_RPC_APPEND_REPLY,
    RAFT_RPC_VOTE_REQUEST,
    RAFT_RPC_VOTE_REPLY,
    RAFT_RPC_ADD_SERVER_REQUEST,
    RAFT_RPC_ADD_SERVER_REPLY,
    RAFT_RPC_REMOVE_SERVER_REQUEST,
    RAFT_RPC_REMOVE_SERVER_REPLY,
    RAFT_RPC_INSTALL_SNAPSHOT_REQUEST,
    RAFT_RPC_INSTALL_SNAPSHOT_REPLY,
    RAFT_RPC_BECOME_LEADER,
    RAFT_RPC_EXECUTE_COMMAND_REQUEST,
    RAFT_RPC_EXECUTE_COMMAND_REPLY,
};

const char *raft_rpc_type_to_string(enum raft_rpc_type);

enum raft_append_result {
    RAFT_APPEND_OK,
    RAFT_APPEND_INCONSISTENCY,
    RAFT_APPEND_IO_ERROR,
};

/* What became of a command (a proposed entry). */
enum raft_command_status {
    RAFT_CMD_INCOMPLETE,        /* Not yet committed or failed. */
    RAFT_CMD_SUCCESS,           /* Committed. */
    RAFT_CMD_NOT_LEADER,        /* Sent to, or run on, a non-leader. */
    RAFT_CMD_BAD_PREREQ,        /* Log did not end with the prerequisite. */
    RAFT_CMD_LOST_LEADERSHIP,   /* Leader changed before it committed. */
    RAFT_CMD_SHUTDOWN,          /* Server joining, leaving or closing. */
    RAFT_CMD_IO_ERROR,
    RAFT_CMD_TIMEOUT,           /* The leader did not answer in time. */
};

const char *raft_command_status_to_string(enum raft_command_status);

/* What an add/remove server reply without success says. */
#define RAFT_SERVER_NOT_LEADER "not leader"

struct raft_rpc {
    enum raft_rpc_type type;
    struct uuid sid;            /* Peer: sender when received, receiver when
                                 * sent (zero: unknown, not sent). */
    char *comment;              /* Any; may be NULL. */

    uint64_t term;              /* append_*, vote_*, install_snapshot_*,
                                 * become_leader. */

    /* append_request (PREV_* also in append_reply). */
    uint64_t prev_log_index;
    uint64_t prev_log_term;
    uint64_t leader_commit;
    struct raft_entry *entries;
    size_t n_entries;

    /* append_reply. */
    uint64_t log_end;
    uint64_t n_appended;        /* N_ENTRIES of the request replied to. */
    enum raft_append_result result;

    /* vote_request, vote_reply. */
    uint64_t last_log_index;
    uint64_t last_log_term;
    bool leadership_transfer;
    struct uuid vote;

    /* hello_request, add_server_request. */
    char *address;

    /* add_server_reply, remove_server_reply. */
    bool success;
    struct sset remote_addresses;       /* add_server_reply. */
    struct uuid target_sid;     /* remove_server_request: the server to
                                 * remove; remove_server_reply: the server
                                 * removed (zero: the receiver). */

    /* install_snapshot_request (LAST_INDEX, LAST_TERM also in the
     * reply). */
    uint64_t last_index;
    uint64_t last_term;
    struct uuid last_eid;
    json_t *last_servers;
    uint64_t election_timer;
    json_t *data;               /* Also execute_command_request. */

    /* execute_command_request, execute_command_reply. */
    struct uuid prereq;
    struct uuid result_eid;
    enum raft_command_status status;
    uint64_t commit_index;
};

/* Initializes RPC as an empty message of TYPE to SID. */
void raft_rpc_init(struct raft_rpc *, enum raft_rpc_type,
                   const struct uuid *sid);
void raft_rpc_uninit(struct raft_rpc *);

/* RPC as a notification from server SID of cluster CID (either may be
 * zero to leave it out). */
struct jsonrpc_msg *raft_rpc_to_jsonrpc(const struct uuid *cid,
                                        const struct uuid *sid,
                                        const struct raft_rpc *);

/* Parses MSG, received by server SID, into RPC.  *CIDP is the cluster id:
 * if zero, a message's cluster id is learned into it; otherwise a message
 * for another cluster is an error, as is one addressed to another server.
 * On error RPC needs no uninit. */
struct ovsdb_error *raft_rpc_from_jsonrpc(struct uuid *cidp,
                                          const struct uuid *sid,
                                          const struct jsonrpc_msg *msg,
                                          struct raft_rpc *rpc)
    OVS_WARN_UNUSED_RESULT;

#endif /* ovsdb/raft-rpc.h */
