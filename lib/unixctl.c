/* unixctl: see unixctl.h. */
#include <config.h>
#include "unixctl.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coverage.h"
#include "dirs.h"
#include "dynamic-string.h"
#include "hash.h"
#include "hmap.h"
#include "jsonrpc.h"
#include "list.h"
#include "poll-loop.h"
#include "stream.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(unixctl);

COVERAGE_DEFINE(unixctl_received);
COVERAGE_DEFINE(unixctl_replied);

struct unixctl_command {
    struct hmap_node hmap_node; /* In 'commands', by hash of 'name'. */
    char *name;
    char *usage;
    int min_args, max_args;
    unixctl_cb_func *cb;
    void *aux;
};

/* The command table is process-wide: modules register at start-up, before
 * (or independently of) any server.  The mutex only matters if a module
 * registers from another thread; callbacks run without it held, so they may
 * register commands themselves. */
static pthread_mutex_t commands_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct hmap commands = HMAP_INITIALIZER(&commands);

/* One client connection.
 *
 * A connection handles one request at a time: while 'request_id' is set, its
 * command has not replied yet and no further request is read (so a client
 * that hangs up meanwhile is noticed when the reply cannot be sent).  If the
 * connection fails while a command still owes a reply, it is kept (with
 * 'rpc' NULL) on the server's 'orphans' list, so that the late reply finds a
 * valid object; the reply then frees it. */
struct unixctl_conn {
    struct ovs_list node;       /* In server's 'conns' or 'orphans'. */
    struct jsonrpc *rpc;        /* NULL once orphaned. */
    json_t *request_id;         /* Pending request's id, or NULL. */
};

struct unixctl_server {
    struct pstream *listener;
    struct ovs_list conns;
    struct ovs_list orphans;
    char *path;                 /* Absolute socket file name. */
};

/* Most messages a connection may process, and connections accepted, per
 * unixctl_server_run(), so one busy client cannot starve the loop. */
#define MAX_PER_RUN 10

static struct unixctl_command *
find_command__(const char *name)
{
    struct unixctl_command *command;
    HMAP_FOR_EACH_WITH_HASH (command, hmap_node, hash_string(name, 0),
                             &commands) {
        if (!strcmp(command->name, name)) {
            return command;
        }
    }
    return NULL;
}

void
unixctl_command_register(const char *name, const char *usage,
                         int min_args, int max_args,
                         unixctl_cb_func *cb, void *aux)
{
    ovs_assert(min_args >= 0 && min_args <= max_args);

    pthread_mutex_lock(&commands_mutex);
    struct unixctl_command *command = find_command__(name);
    if (!command) {
        command = xzalloc(sizeof *command);
        command->name = xstrdup(name);
        hmap_insert(&commands, &command->hmap_node, hash_string(name, 0));
    } else {
        free(command->usage);
    }
    command->usage = xstrdup(usage ? usage : "");
    command->min_args = min_args;
    command->max_args = max_args;
    command->cb = cb;
    command->aux = aux;
    pthread_mutex_unlock(&commands_mutex);
}

static int
compare_command_names(const void *a_, const void *b_)
{
    const struct unixctl_command *const *a = a_;
    const struct unixctl_command *const *b = b_;
    return strcmp((*a)->name, (*b)->name);
}

static void
list_commands_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
                 const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    struct ds out = DS_EMPTY_INITIALIZER;
    ds_put_cstr(&out, "The available commands are:\n");

    pthread_mutex_lock(&commands_mutex);
    size_t n = hmap_count(&commands);
    const struct unixctl_command **sorted = xmalloc(n * sizeof *sorted);
    size_t i = 0;
    const struct unixctl_command *command;
    HMAP_FOR_EACH (command, hmap_node, &commands) {
        sorted[i++] = command;
    }
    qsort(sorted, n, sizeof *sorted, compare_command_names);
    for (i = 0; i < n; i++) {
        ds_put_format(&out, "  %-23s %s\n", sorted[i]->name, sorted[i]->usage);
    }
    pthread_mutex_unlock(&commands_mutex);
    free(sorted);

    unixctl_command_reply(conn, ds_cstr(&out));
    ds_destroy(&out);
}

static void
version_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
           const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    char *version = ovs_version_text();
    unixctl_command_reply(conn, version);
    free(version);
}

/* Returns a JSON string for S.  JSON strings must be UTF-8; command output
 * can contain anything (an interface name, bytes from a packet), so bytes
 * that are not valid UTF-8 become '?' rather than failing the reply. */
static json_t *
json_string_lossy(const char *s)
{
    json_t *json = json_string(s);
    if (json) {
        return json;
    }

    char *copy = xstrdup(s);
    for (char *p = copy; *p; ) {
        unsigned char c = *p;
        int len = (c < 0x80 ? 1
                   : (c & 0xe0) == 0xc0 ? 2
                   : (c & 0xf0) == 0xe0 ? 3
                   : (c & 0xf8) == 0xf0 ? 4 : 0);
        char save = '\0';
        bool valid = len > 0 && strnlen(p, len) == (size_t) len;
        if (valid) {
            save = p[len];
            p[len] = '\0';
            json_t *probe = json_string(p);
            valid = probe != NULL;
            json_decref(probe);
            p[len] = save;
        }
        if (valid) {
            p += len;
        } else {
            *p++ = '?';
        }
    }
    json = json_string(copy);
    free(copy);
    return json ? json : json_string("");
}

static void
free_conn(struct unixctl_conn *conn)
{
    ovs_list_remove(&conn->node);
    jsonrpc_close(conn->rpc);
    json_decref(conn->request_id);
    free(conn);
}

static void
reply__(struct unixctl_conn *conn, bool success, const char *body)
{
    /* Replying twice, or without a request, is a bug in the caller. */
    ovs_assert(conn->request_id);
    COVERAGE_INC(unixctl_replied);

    /* Output is line oriented: ovs-appctl prints it as is, so make sure a
     * nonempty body ends with a newline. */
    if (!body) {
        body = "";
    }
    size_t len = strlen(body);
    char *with_newline = NULL;
    if (len && body[len - 1] != '\n') {
        with_newline = xasprintf("%s\n", body);
        body = with_newline;
    }

    json_t *id = conn->request_id;
    conn->request_id = NULL;

    if (!conn->rpc) {
        /* The client is gone; nobody is waiting for this answer. */
        json_decref(id);
        free(with_newline);
        free_conn(conn);
        return;
    }

    json_t *body_json = json_string_lossy(body);
    struct jsonrpc_msg *reply = (success
                                 ? jsonrpc_create_reply(body_json, id)
                                 : jsonrpc_create_error(body_json, id));
    if (VLOG_IS_DBG_ENABLED()) {
        char *s = jsonrpc_msg_to_string(reply);
        VLOG_DBG("replying %s", s);
        free(s);
    }
    /* A failure shows up in the connection's status, which the next
     * unixctl_server_run() acts on. */
    jsonrpc_send(conn->rpc, reply);
    free(with_newline);
}

void
unixctl_command_reply(struct unixctl_conn *conn, const char *body)
{
    reply__(conn, true, body);
}

void
unixctl_command_reply_error(struct unixctl_conn *conn, const char *error)
{
    reply__(conn, false, error);
}

static void
process_command(struct unixctl_conn *conn, struct jsonrpc_msg *request)
{
    COVERAGE_INC(unixctl_received);
    conn->request_id = json_incref(request->id);

    if (VLOG_IS_DBG_ENABLED()) {
        char *s = jsonrpc_msg_to_string(request);
        VLOG_DBG("received request %s", s);
        free(s);
    }

    /* jsonrpc guarantees a request's params are an array. */
    size_t n_args = json_array_size(request->params);
    char *error = NULL;

    pthread_mutex_lock(&commands_mutex);
    const struct unixctl_command *command = find_command__(request->method);
    unixctl_cb_func *cb = NULL;
    void *aux = NULL;
    if (!command) {
        error = xasprintf("\"%s\" is not a valid command (use "
                          "\"list-commands\" to see a list of valid "
                          "commands)", request->method);
    } else if (n_args < (size_t) command->min_args) {
        error = xasprintf("\"%s\" command requires at least %d arguments",
                          request->method, command->min_args);
    } else if (n_args > (size_t) command->max_args) {
        error = xasprintf("\"%s\" command takes at most %d arguments",
                          request->method, command->max_args);
    } else {
        cb = command->cb;
        aux = command->aux;
    }
    pthread_mutex_unlock(&commands_mutex);

    if (!error) {
        for (size_t i = 0; i < n_args; i++) {
            json_t *arg = json_array_get(request->params, i);
            if (!json_is_string(arg)) {
                char *s = json_dumps(arg, JSON_COMPACT | JSON_ENCODE_ANY);
                error = xasprintf("command has non-string argument: %s",
                                  s ? s : "?");
                free(s);
                break;
            }
        }
    }

    if (error) {
        unixctl_command_reply_error(conn, error);
        free(error);
        return;
    }

    const char **argv = xmalloc((n_args + 2) * sizeof *argv);
    argv[0] = request->method;
    for (size_t i = 0; i < n_args; i++) {
        argv[i + 1] = json_string_value(json_array_get(request->params, i));
    }
    argv[n_args + 1] = NULL;
    /* The strings belong to REQUEST, which outlives the call; a command that
     * replies later must copy what it needs. */
    cb(conn, n_args + 1, argv, aux);
    free(argv);
}

/* Returns 0 while CONN is healthy, otherwise the error that ended it. */
static int
run_connection(struct unixctl_conn *conn)
{
    jsonrpc_run(conn->rpc);
    int error = jsonrpc_get_status(conn->rpc);
    if (error) {
        return error;
    }

    for (int i = 0; i < MAX_PER_RUN; i++) {
        /* One request at a time, and only once the previous reply is on
         * its way, so a client that never reads cannot make us queue
         * replies without bound. */
        if (conn->request_id || jsonrpc_get_backlog(conn->rpc)) {
            return 0;
        }

        struct jsonrpc_msg *msg;
        error = jsonrpc_recv(conn->rpc, &msg);
        if (error) {
            return error == EAGAIN ? 0 : error;
        }

        if (msg->type == JSONRPC_REQUEST) {
            process_command(conn, msg);
        } else {
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
            VLOG_WARN_RL(&rl, "%s: received unexpected %s message",
                         jsonrpc_get_name(conn->rpc),
                         jsonrpc_msg_type_to_string(msg->type));
            error = EINVAL;
        }
        jsonrpc_msg_destroy(msg);
        if (error) {
            return error;
        }

        /* The callback may have queued a reply that failed. */
        error = jsonrpc_get_status(conn->rpc);
        if (error) {
            return error;
        }
    }
    return 0;
}

static void
kill_connection(struct unixctl_server *server, struct unixctl_conn *conn)
{
    if (conn->request_id) {
        jsonrpc_close(conn->rpc);
        conn->rpc = NULL;
        ovs_list_remove(&conn->node);
        ovs_list_push_back(&server->orphans, &conn->node);
    } else {
        free_conn(conn);
    }
}

int
unixctl_server_create(const char *path, struct unixctl_server **serverp)
{
    *serverp = NULL;
    if (path && !strcmp(path, "none")) {
        return 0;
    }

    char *abs_path = (path
                      ? abs_file_name(ovs_rundir(), path)
                      : xasprintf("%s/%s.%ld.ctl", ovs_rundir(),
                                  program_name, (long int) getpid()));
    char *punix_name = xasprintf("punix:%s", abs_path);
    struct pstream *listener;
    int error = pstream_open(punix_name, &listener, 0);
    free(punix_name);
    if (error) {
        ovs_error(error, "could not initialize control socket %s", abs_path);
        free(abs_path);
        return error;
    }

    unixctl_command_register("list-commands", "", 0, 0,
                             list_commands_cb, NULL);
    unixctl_command_register("version", "", 0, 0, version_cb, NULL);
    /* Every daemon gets logging, counters and clock control for free. */
    vlog_register_unixctl();
    coverage_register_unixctl();
    timeval_register_unixctl();

    struct unixctl_server *server = xzalloc(sizeof *server);
    server->listener = listener;
    server->path = abs_path;
    ovs_list_init(&server->conns);
    ovs_list_init(&server->orphans);
    *serverp = server;
    return 0;
}

void
unixctl_server_run(struct unixctl_server *server)
{
    if (!server) {
        return;
    }

    for (int i = 0; i < MAX_PER_RUN; i++) {
        struct stream *stream;
        int error = pstream_accept(server->listener, &stream);
        if (!error) {
            struct unixctl_conn *conn = xzalloc(sizeof *conn);
            conn->rpc = jsonrpc_open(stream);
            ovs_list_push_back(&server->conns, &conn->node);
        } else if (error == EAGAIN) {
            break;
        } else {
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
            VLOG_WARN_RL(&rl, "%s: accept failed: %s",
                         pstream_get_name(server->listener),
                         ovs_strerror(error));
            break;
        }
    }

    struct unixctl_conn *conn;
    LIST_FOR_EACH_SAFE (conn, node, &server->conns) {
        int error = run_connection(conn);
        if (error) {
            if (error != EOF) {
                static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
                VLOG_WARN_RL(&rl, "%s: connection dropped (%s)",
                             jsonrpc_get_name(conn->rpc),
                             ovs_strerror(error));
            }
            kill_connection(server, conn);
        }
    }
}

void
unixctl_server_wait(struct unixctl_server *server)
{
    if (!server) {
        return;
    }

    pstream_wait(server->listener);
    struct unixctl_conn *conn;
    LIST_FOR_EACH (conn, node, &server->conns) {
        jsonrpc_wait(conn->rpc);
        if (jsonrpc_get_status(conn->rpc)) {
            /* Let the next run reap it. */
            poll_immediate_wake();
        } else if (!conn->request_id && !jsonrpc_get_backlog(conn->rpc)) {
            jsonrpc_recv_wait(conn->rpc);
        }
    }
}

void
unixctl_server_destroy(struct unixctl_server *server)
{
    if (!server) {
        return;
    }

    /* Closing a stream gives its queued output (an "exit" reply, say) one
     * last chance to go out. */
    struct unixctl_conn *conn;
    LIST_FOR_EACH_SAFE (conn, node, &server->conns) {
        free_conn(conn);
    }
    LIST_FOR_EACH_SAFE (conn, node, &server->orphans) {
        free_conn(conn);
    }
    pstream_close(server->listener);
    free(server->path);
    free(server);
}

const char *
unixctl_server_get_path(const struct unixctl_server *server)
{
    return server ? server->path : NULL;
}

/* Client side. */

int
unixctl_client_create(const char *path, struct jsonrpc **client)
{
    *client = NULL;

    char *name = xasprintf("unix:%s", path);
    struct stream *stream;
    int error = stream_open_block(stream_open(name, &stream, 0), -1, &stream);
    free(name);
    if (error) {
        return error;
    }
    *client = jsonrpc_open(stream);
    return 0;
}

/* Copies a reply member that must be a string; false if it is not one. */
static bool
copy_string_member(const json_t *json, char **out)
{
    if (!json_is_string(json)) {
        return false;
    }
    *out = xstrdup(json_string_value(json));
    return true;
}

int
unixctl_client_transact(struct jsonrpc *client, const char *command,
                        int argc, char *argv[],
                        char **result, char **err)
{
    *result = NULL;
    *err = NULL;

    json_t *params = json_array();
    for (int i = 0; i < argc; i++) {
        json_array_append_new(params, json_string_lossy(argv[i]));
    }

    struct jsonrpc_msg *request = jsonrpc_create_request(command, params,
                                                         NULL);
    struct jsonrpc_msg *reply;
    int error = jsonrpc_transact_block(client, request, &reply);
    if (error) {
        VLOG_WARN("error communicating with %s: %s",
                  jsonrpc_get_name(client), ovs_retval_to_string(error));
        return error;
    }

    bool ok;
    if (reply->type == JSONRPC_ERROR) {
        ok = copy_string_member(reply->error, err);
    } else {
        ok = copy_string_member(reply->result, result);
    }
    if (!ok) {
        char *s = jsonrpc_msg_to_string(reply);
        VLOG_WARN("%s: unexpected reply type in JSON-RPC reply: %s",
                  jsonrpc_get_name(client), s);
        free(s);
        error = EINVAL;
    }
    jsonrpc_msg_destroy(reply);
    return error;
}
