#include <config.h>
#include "client-connect.h"

#include <stdlib.h>
#include <string.h>
#include "jsonrpc.h"
#include "ovsdb-server-status.h"
#include "socket-util.h"
#include "stream.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(client_connect);

/* Remembered across the servers tried (see ovsdb_server_status_check()). */
static struct ovsdb_server_memory memory;

bool
client_server_is_fit(struct jsonrpc *rpc, const char *name,
                     const char *database, bool leader_only)
{
    json_t *params = json_pack(
        "[s {s:s s:s s:[[s s s]] s:[s s s s s s]}]", "_Server",
        "op", "select", "table", "Database",
        "where", "name", "==", database,
        "columns", OVSDB_SERVER_STATUS_COLUMNS);
    struct jsonrpc_msg *request = jsonrpc_create_request("transact", params,
                                                         NULL);
    struct jsonrpc_msg *reply;
    int error = jsonrpc_transact_block(rpc, request, &reply);
    if (error) {
        VLOG_INFO("%s: %s", name, ovs_strerror(error));
        return false;
    }

    bool fit;
    const json_t *rows = json_object_get(json_array_get(reply->result, 0),
                                         "rows");
    if (reply->type == JSONRPC_ERROR || !json_is_array(rows)) {
        /* No _Server (a server older than Open vSwitch 2.9): standalone
         * databases only. */
        fit = true;
    } else {
        struct ovsdb_server_status status;
        bool found = (json_array_size(rows) == 1
                      && ovsdb_server_status_from_row(
                          &status, json_array_get(rows, 0)));
        const char *why = ovsdb_server_status_check(found ? &status : NULL,
                                                    leader_only, &memory);
        fit = !why;
        if (why && found) {
            VLOG_INFO("%s: %s database server %s; trying another server",
                      name, status.model, why);
        } else if (why) {
            VLOG_INFO("%s: server does not have %s database; trying another "
                      "server", name, database);
        }
        if (found) {
            ovsdb_server_status_uninit(&status);
        }
    }
    jsonrpc_msg_destroy(reply);
    return fit;
}

struct jsonrpc *
client_connect(const char *list, const char *database, bool leader_only,
               char **chosen)
{
    char **remotes;
    size_t n = jsonrpc_split_remotes(list, true, &remotes);
    struct jsonrpc *rpc = NULL;

    for (size_t i = 0; i < n && !rpc; i++) {
        struct stream *stream;
        VLOG_INFO("%s: connecting...", remotes[i]);
        int error = stream_open_block(
            jsonrpc_stream_open(remotes[i], &stream, DSCP_DEFAULT), -1,
            &stream);
        if (error) {
            VLOG_INFO("%s: connection attempt failed (%s)", remotes[i],
                      ovs_strerror(error));
            continue;
        }
        VLOG_INFO("%s: connected", remotes[i]);
        rpc = jsonrpc_open(stream);
        if (database && !client_server_is_fit(rpc, remotes[i], database,
                                              leader_only)) {
            jsonrpc_close(rpc);
            rpc = NULL;
            continue;
        }
        *chosen = xstrdup(remotes[i]);
    }
    if (!rpc) {
        ovs_fatal(0, "no servers were available");
    }

    for (size_t i = 0; i < n; i++) {
        free(remotes[i]);
    }
    free(remotes);
    return rpc;
}
