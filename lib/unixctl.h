/* unixctl: the control channel every daemon serves to ovs-appctl.
 *
 * A daemon listens on a Unix socket (by default
 * <rundir>/<program>.<pid>.ctl) and speaks JSON-RPC 1.0 on it: each request's
 * method is a command name ("vlog/set", "exit", ...) and its params an array
 * of string arguments.  The reply's result is the command's output text; an
 * error reply's error is its error text.
 *
 * Modules register commands once at start-up.  A callback must answer with
 * unixctl_command_reply() or unixctl_command_reply_error(), either before it
 * returns or later (for a command such as time/warp that completes after
 * several loop iterations); the connection stays open until then.
 */
#ifndef UNIXCTL_H
#define UNIXCTL_H 1

struct unixctl_conn;
struct unixctl_server;

/* Called with the arguments of one request: ARGV[0] is the command name,
 * ARGV[1..ARGC-1] its arguments.  AUX is the pointer given at registration. */
typedef void unixctl_cb_func(struct unixctl_conn *,
                             int argc, const char *argv[], void *aux);

/* Registers NAME.  USAGE is shown by list-commands; MIN_ARGS and MAX_ARGS
 * bound the argument count (the server rejects other counts itself).
 * Registering the same name twice replaces the callback. */
void unixctl_command_register(const char *name, const char *usage,
                              int min_args, int max_args,
                              unixctl_cb_func *cb, void *aux);

/* Answers CONN's pending request with BODY (may be NULL for no output). */
void unixctl_command_reply(struct unixctl_conn *, const char *body);
/* Answers CONN's pending request with an error. */
void unixctl_command_reply_error(struct unixctl_conn *, const char *error);

/* Creates a server.  PATH NULL means the default
 * <rundir>/<program>.<pid>.ctl; "none" means no server (returns 0 with
 * *SERVERP NULL); a relative path is taken relative to the run directory.
 * Returns 0 or a positive errno value. */
int unixctl_server_create(const char *path, struct unixctl_server **serverp);
void unixctl_server_run(struct unixctl_server *);
void unixctl_server_wait(struct unixctl_server *);
void unixctl_server_destroy(struct unixctl_server *);
const char *unixctl_server_get_path(const struct unixctl_server *);

/* Client side (ovs-appctl): connects to the socket at PATH. */
struct jsonrpc;
int unixctl_client_create(const char *path, struct jsonrpc **client);
/* Sends COMMAND with ARGS and waits for the answer.  Returns 0 or an errno
 * value for a transport failure; on 0, exactly one of *RESULT (output) and
 * *ERR (command error) is set, newly allocated. */
int unixctl_client_transact(struct jsonrpc *client, const char *command,
                            int argc, char *argv[],
                            char **result, char **err);

#endif /* unixctl.h */
