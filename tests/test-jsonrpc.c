#include <config.h>

/* test-jsonrpc: a tiny JSON-RPC server and client for tests/jsonrpc.at.
 *
 *   test-jsonrpc [OPTIONS] listen PASSIVE
 *       Serves every connection on PASSIVE (punix:, ptcp:, pssl:) at once.
 *       Each request is answered with a reply whose result is the request's
 *       params; the notification "shutdown" makes the server exit.  A
 *       connection that sends garbage is dropped; the server carries on.
 *
 *   test-jsonrpc [OPTIONS] request REMOTE METHOD PARAMS
 *       Sends one request (PARAMS is a JSON array) and prints the whole reply
 *       message as JSON with sorted keys.  Exits 1, with the reason on
 *       stderr, if the connection or the transaction fails or the reply is
 *       an error.
 *
 *   test-jsonrpc [OPTIONS] notify REMOTE METHOD PARAMS
 *       Sends one notification and waits until it has been written out.
 *
 * Options: the TLS options of stream-ssl.h, the daemon options of daemon.h
 * (--detach, --pidfile), the logging options of vlog.h, and -h/--help.
 */

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command-line.h"
#include "daemon.h"
#include "fatal-signal.h"
#include "jsonrpc.h"
#include "poll-loop.h"
#include "stream.h"
#include "stream-ssl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(test_jsonrpc);

static noreturn void
usage(void)
{
    printf("%s: JSON-RPC test utility\n"
           "usage: %s [OPTIONS] COMMAND [ARG...]\n"
           "  listen PASSIVE                 serve requests on PASSIVE\n"
           "  request REMOTE METHOD PARAMS   send a request, print the reply\n"
           "  notify REMOTE METHOD PARAMS    send a notification\n"
           "Options: --private-key=FILE, --certificate=FILE, --ca-cert=FILE,\n"
           "  --detach, --pidfile[=FILE], -v/--verbose, --log-file[=FILE],\n"
           "  -h/--help\n",
           program_name, program_name);
    exit(EXIT_SUCCESS);
}

static void
parse_options(int argc, char *argv[])
{
    enum {
        OPT_FIRST = UCHAR_MAX + 1,
        DAEMON_OPTION_ENUMS,
        VLOG_OPTION_ENUMS,
        STREAM_SSL_OPTION_ENUMS,
    };
    static const struct option long_options[] = {
        {"help", no_argument, NULL, 'h'},
        DAEMON_LONG_OPTIONS,
        VLOG_LONG_OPTIONS,
        STREAM_SSL_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    char *short_options = ovs_cmdl_long_options_to_short_options(long_options);

    for (;;) {
        int c = getopt_long(argc, argv, short_options, long_options, NULL);
        if (c == -1) {
            break;
        }
        switch (c) {
        case 'h':
            usage();

        DAEMON_OPTION_HANDLERS
        VLOG_OPTION_HANDLERS
        STREAM_SSL_OPTION_HANDLERS

        case '?':
            exit(EXIT_FAILURE);

        default:
            abort();
        }
    }
    free(short_options);
}

static json_t *
parse_params(const char *s)
{
    json_error_t error;
    json_t *params = json_loads(s, JSON_DECODE_ANY, &error);
    if (!params) {
        ovs_fatal(0, "\"%s\": bad JSON (%s)", s, error.text);
    }
    if (!json_is_array(params)) {
        json_decref(params);
        ovs_fatal(0, "\"%s\": PARAMS must be a JSON array", s);
    }
    return params;
}

static struct jsonrpc *
connect_to(const char *remote)
{
    struct stream *stream;
    int error = stream_open_block(jsonrpc_stream_open(remote, &stream, 0),
                                  -1, &stream);
    if (error) {
        ovs_fatal(error, "could not connect to \"%s\"", remote);
    }
    return jsonrpc_open(stream);
}

/* Handles one message from a client.  Returns true if it asked us to shut
 * down. */
static bool
handle_message(struct jsonrpc *rpc, struct jsonrpc_msg *msg)
{
    bool shutdown = false;

    if (msg->type == JSONRPC_REQUEST) {
        jsonrpc_send(rpc, jsonrpc_create_reply(json_incref(msg->params),
                                               json_incref(msg->id)));
    } else if (msg->type == JSONRPC_NOTIFY
               && !strcmp(msg->method, "shutdown")) {
        shutdown = true;
    }
    jsonrpc_msg_destroy(msg);
    return shutdown;
}

static void
do_listen(const char *name)
{
    struct pstream *pstream;
    struct jsonrpc **rpcs = NULL;
    size_t n_rpcs = 0, allocated_rpcs = 0;
    bool done = false;

    daemonize_start();
    int error = jsonrpc_pstream_open(name, &pstream, 0);
    if (error) {
        ovs_fatal(error, "could not listen on \"%s\"", name);
    }
    /* Tests read the port of "ptcp:0" back from this line. */
    VLOG_INFO("listening on %s", pstream_get_name(pstream));
    daemonize_complete();

    while (!done) {
        fatal_signal_run();

        struct stream *stream;
        while (!(error = pstream_accept(pstream, &stream))) {
            if (n_rpcs >= allocated_rpcs) {
                rpcs = x2nrealloc(rpcs, &allocated_rpcs, sizeof *rpcs);
            }
            rpcs[n_rpcs++] = jsonrpc_open(stream);
        }
        if (error != EAGAIN) {
            VLOG_WARN("%s: accept failed (%s)", name, ovs_strerror(error));
        }

        for (size_t i = 0; i < n_rpcs; ) {
            struct jsonrpc *rpc = rpcs[i];
            struct jsonrpc_msg *msg;

            jsonrpc_run(rpc);
            while (!done && !(error = jsonrpc_recv(rpc, &msg))) {
                done = handle_message(rpc, msg);
            }
            if (!done && error == EAGAIN) {
                error = jsonrpc_get_status(rpc);
            }
            if (error && error != EAGAIN) {
                VLOG_INFO("%s: connection closed (%s)",
                          jsonrpc_get_name(rpc), ovs_retval_to_string(error));
                jsonrpc_close(rpc);
                rpcs[i] = rpcs[--n_rpcs];
            } else {
                i++;
            }
        }
        if (done) {
            break;
        }

        fatal_signal_wait();
        pstream_wait(pstream);
        for (size_t i = 0; i < n_rpcs; i++) {
            jsonrpc_wait(rpcs[i]);
            jsonrpc_recv_wait(rpcs[i]);
        }
        poll_block();
    }

    for (size_t i = 0; i < n_rpcs; i++) {
        jsonrpc_close(rpcs[i]);
    }
    free(rpcs);
    pstream_close(pstream);
}

static int
do_request(const char *remote, const char *method, const char *params_s)
{
    json_t *params = parse_params(params_s);
    struct jsonrpc *rpc = connect_to(remote);
    struct jsonrpc_msg *reply;

    int error = jsonrpc_transact_block(
        rpc, jsonrpc_create_request(method, params, NULL), &reply);
    if (error) {
        ovs_fatal(error, "transaction with \"%s\" failed", remote);
    }

    bool is_error = reply->type == JSONRPC_ERROR;
    json_t *json = jsonrpc_msg_to_json(reply);
    char *s = json_dumps(json, JSON_COMPACT | JSON_SORT_KEYS);
    puts(s);
    free(s);
    json_decref(json);
    jsonrpc_close(rpc);

    if (is_error) {
        ovs_error(0, "\"%s\" replied with an error", remote);
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

static int
do_notify(const char *remote, const char *method, const char *params_s)
{
    json_t *params = parse_params(params_s);
    struct jsonrpc *rpc = connect_to(remote);

    int error = jsonrpc_send_block(rpc, jsonrpc_create_notify(method, params));
    if (error) {
        ovs_fatal(error, "could not send notification to \"%s\"", remote);
    }
    jsonrpc_close(rpc);
    return EXIT_SUCCESS;
}

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    parse_options(argc, argv);

    int n_args = argc - optind;
    char **args = argv + optind;
    if (n_args < 1) {
        ovs_fatal(0, "missing command name; use --help for help");
    }

    int status = EXIT_SUCCESS;
    if (!strcmp(args[0], "listen") && n_args == 2) {
        do_listen(args[1]);
    } else if (!strcmp(args[0], "request") && n_args == 4) {
        status = do_request(args[1], args[2], args[3]);
    } else if (!strcmp(args[0], "notify") && n_args == 4) {
        status = do_notify(args[1], args[2], args[3]);
    } else {
        ovs_fatal(0, "unknown command \"%s\" or wrong number of arguments; "
                  "use --help for help", args[0]);
    }

    stream_ssl_cleanup();
    poll_loop_destroy_self();
    return status;
}
