/* ovsdb-load: drives an OVSDB server with a fixed workload and prints how
 * fast it went.  Any RFC 7047 server works, so bench/ovsdb.sh runs the same
 * binary against our ovsdb-server and against Open vSwitch's and prints the
 * ratio.
 *
 *   ovsdb-load [--clients=N] [--duration=MSEC] [--durable] txn REMOTE
 *       N clients (default 1), each with its own connection and its own row
 *       of the "Counter" table, send update transactions back to back (one
 *       outstanding per client, as an ovs-vsctl or IDL client does) for
 *       MSEC (default 2000).  With --durable each transaction asks for a
 *       durable commit.  Prints "txn_per_sec".
 *
 *   ovsdb-load [--monitors=N] [--rounds=R] monitor REMOTE
 *       N connections (default 50) each monitor the "Counter" table; R times
 *       (default 20) a separate client updates one row and we measure the
 *       time from sending that transaction until every monitor has received
 *       the resulting update.  Prints the median and worst round in
 *       microseconds.
 *
 * The database must use bench/ovsdb-bench.ovsschema.  All connections are
 * driven from one thread with the poll loop, so the load generator itself
 * costs little next to the server.  The program never judges the figures.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jsonrpc.h"
#include "poll-loop.h"
#include "stream.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

#define DB_NAME "bench"

static int n_clients = 1;
static int duration_msec = 2000;
static bool durable;
static int n_monitors = 50;
static int n_rounds = 20;

static long long int
now_usec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static struct jsonrpc *
connect_block(const char *remote)
{
    struct stream *stream;
    int error = stream_open_block(jsonrpc_stream_open(remote, &stream, 0),
                                  -1, &stream);
    if (error) {
        ovs_fatal(error, "%s: connection failed", remote);
    }
    return jsonrpc_open(stream);
}

/* Sends REQUEST on RPC and waits for its reply, which must not be an
 * error.  Returns the reply's result (a new reference). */
static json_t *
transact_block(struct jsonrpc *rpc, struct jsonrpc_msg *request)
{
    struct jsonrpc_msg *reply;
    int error = jsonrpc_transact_block(rpc, request, &reply);
    if (error) {
        ovs_fatal(error, "transaction failed");
    }
    if (reply->type == JSONRPC_ERROR) {
        char *s = jsonrpc_msg_to_string(reply);
        ovs_fatal(0, "server returned an error: %s", s);
    }
    json_t *result = json_incref(reply->result);
    jsonrpc_msg_destroy(reply);
    return result;
}

/* Fails if RESULT, the result of a "transact", holds an error. */
static void
check_txn_result(const json_t *result)
{
    size_t i;
    json_t *op;
    json_array_foreach (result, i, op) {
        if (json_is_object(op) && json_object_get(op, "error")) {
            char *s = json_dumps(result, JSON_COMPACT);
            ovs_fatal(0, "transaction failed: %s", s);
        }
    }
}

/* Makes sure the Counter row NAME exists. */
static void
ensure_row(struct jsonrpc *rpc, const char *name)
{
    json_t *params = json_pack(
        "[s, {s:s, s:s, s:[[s, s, s]]}, {s:s, s:s, s:{s:s, s:i}}]",
        DB_NAME,
        "op", "delete", "table", "Counter", "where", "name", "==", name,
        "op", "insert", "table", "Counter", "row", "name", name, "value", 0);
    json_t *result = transact_block(
        rpc, jsonrpc_create_request("transact", params, NULL));
    check_txn_result(result);
    json_decref(result);
}

static struct jsonrpc_msg *
make_update(const char *name, long long int value, bool durable_)
{
    json_t *params = json_pack(
        "[s, {s:s, s:s, s:[[s, s, s]], s:{s:I}}]",
        DB_NAME, "op", "update", "table", "Counter",
        "where", "name", "==", name, "row", "value", (json_int_t) value);
    if (durable_) {
        json_array_append_new(params,
                              json_pack("{s:s, s:b}", "op", "commit",
                                        "durable", 1));
    }
    return jsonrpc_create_request("transact", params, NULL);
}

/* The "txn" workload. */

struct txn_client {
    struct jsonrpc *rpc;
    char name[32];
    long long int value;
    bool waiting;               /* A transaction is outstanding. */
    long long int n_done;
};

static void
run_txn(const char *remote)
{
    struct txn_client *clients = xcalloc(n_clients, sizeof *clients);
    for (int i = 0; i < n_clients; i++) {
        struct txn_client *c = &clients[i];
        c->rpc = connect_block(remote);
        snprintf(c->name, sizeof c->name, "client%d", i);
        ensure_row(c->rpc, c->name);
    }

    long long int start = now_usec();
    long long int end = start + duration_msec * 1000LL;
    long long int n_done = 0;
    for (;;) {
        long long int now = now_usec();
        bool stopping = now >= end;
        int n_waiting = 0;
        for (int i = 0; i < n_clients; i++) {
            struct txn_client *c = &clients[i];
            jsonrpc_run(c->rpc);
            struct jsonrpc_msg *msg;
            int error;
            while (!(error = jsonrpc_recv(c->rpc, &msg))) {
                if (msg->type == JSONRPC_REPLY) {
                    check_txn_result(msg->result);
                    c->waiting = false;
                    c->n_done++;
                    n_done++;
                } else if (msg->type == JSONRPC_ERROR) {
                    char *s = jsonrpc_msg_to_string(msg);
                    ovs_fatal(0, "server returned an error: %s", s);
                } else if (msg->type == JSONRPC_REQUEST
                           && !strcmp(msg->method, "echo")) {
                    jsonrpc_send(c->rpc, jsonrpc_create_reply(
                                     json_incref(msg->params), msg->id));
                }
                jsonrpc_msg_destroy(msg);
            }
            if (error != EAGAIN) {
                ovs_fatal(error, "%s: connection failed", remote);
            }
            if (!c->waiting && !stopping) {
                jsonrpc_send(c->rpc, make_update(c->name, ++c->value,
                                                 durable));
                c->waiting = true;
            }
            n_waiting += c->waiting;
        }
        if (stopping && !n_waiting) {
            break;
        }
        for (int i = 0; i < n_clients; i++) {
            jsonrpc_wait(clients[i].rpc);
            jsonrpc_recv_wait(clients[i].rpc);
        }
        if (!stopping) {
            poll_timer_wait_until(time_msec() + (end - now) / 1000 + 1);
        }
        poll_block();
    }
    double secs = (now_usec() - start) / 1e6;

    printf("clients %d\n", n_clients);
    printf("durable %s\n", durable ? "yes" : "no");
    printf("transactions %lld\n", n_done);
    printf("txn_per_sec %.0f\n", n_done / secs);
    for (int i = 0; i < n_clients; i++) {
        jsonrpc_close(clients[i].rpc);
    }
    free(clients);
}

/* The "monitor" workload. */

static int
compare_ll(const void *a_, const void *b_)
{
    long long int a = *(const long long int *) a_;
    long long int b = *(const long long int *) b_;
    return a < b ? -1 : a > b;
}

static void
run_monitor(const char *remote)
{
    struct jsonrpc *writer = connect_block(remote);
    ensure_row(writer, "watched");

    struct jsonrpc **monitors = xcalloc(n_monitors, sizeof *monitors);
    for (int i = 0; i < n_monitors; i++) {
        monitors[i] = connect_block(remote);
        json_t *params = json_pack("[s, n, {s:{s:[s, s]}}]", DB_NAME,
                                   "Counter", "columns", "name", "value");
        json_t *result = transact_block(
            monitors[i], jsonrpc_create_request("monitor", params, NULL));
        json_decref(result);
    }

    long long int *rounds = xcalloc(n_rounds, sizeof *rounds);
    bool *seen = xcalloc(n_monitors, sizeof *seen);
    for (int r = 0; r < n_rounds; r++) {
        memset(seen, 0, n_monitors * sizeof *seen);
        int n_seen = 0;
        bool replied = false;
        long long int start = now_usec();
        jsonrpc_send(writer, make_update("watched", r + 1, false));
        while (n_seen < n_monitors || !replied) {
            jsonrpc_run(writer);
            struct jsonrpc_msg *msg;
            int error;
            while (!(error = jsonrpc_recv(writer, &msg))) {
                if (msg->type == JSONRPC_REPLY) {
                    check_txn_result(msg->result);
                    replied = true;
                }
                jsonrpc_msg_destroy(msg);
            }
            if (error != EAGAIN) {
                ovs_fatal(error, "%s: writer connection failed", remote);
            }
            for (int i = 0; i < n_monitors; i++) {
                jsonrpc_run(monitors[i]);
                while (!(error = jsonrpc_recv(monitors[i], &msg))) {
                    if (msg->type == JSONRPC_NOTIFY
                        && !strcmp(msg->method, "update") && !seen[i]) {
                        seen[i] = true;
                        if (++n_seen == n_monitors) {
                            rounds[r] = now_usec() - start;
                        }
                    } else if (msg->type == JSONRPC_REQUEST
                               && !strcmp(msg->method, "echo")) {
                        jsonrpc_send(monitors[i], jsonrpc_create_reply(
                                         json_incref(msg->params), msg->id));
                    }
                    jsonrpc_msg_destroy(msg);
                }
                if (error != EAGAIN) {
                    ovs_fatal(error, "%s: monitor connection failed", remote);
                }
            }
            if (n_seen < n_monitors || !replied) {
                jsonrpc_wait(writer);
                jsonrpc_recv_wait(writer);
                for (int i = 0; i < n_monitors; i++) {
                    jsonrpc_wait(monitors[i]);
                    jsonrpc_recv_wait(monitors[i]);
                }
                poll_block();
            }
        }
    }

    qsort(rounds, n_rounds, sizeof *rounds, compare_ll);
    printf("monitors %d\n", n_monitors);
    printf("rounds %d\n", n_rounds);
    printf("all_seen_median_usec %lld\n", rounds[n_rounds / 2]);
    printf("all_seen_max_usec %lld\n", rounds[n_rounds - 1]);

    for (int i = 0; i < n_monitors; i++) {
        jsonrpc_close(monitors[i]);
    }
    jsonrpc_close(writer);
    free(monitors);
    free(rounds);
    free(seen);
}

static noreturn void
usage(void)
{
    printf("usage: ovsdb-load [--clients=N] [--duration=MSEC] [--durable] "
           "txn REMOTE\n"
           "       ovsdb-load [--monitors=N] [--rounds=R] monitor REMOTE\n");
    exit(EXIT_SUCCESS);
}

static int
parse_positive(const char *name, const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v <= 0 || v > 1000000) {
        ovs_fatal(0, "--%s: \"%s\" is not a positive number", name, s);
    }
    return v;
}

int
main(int argc, char *argv[])
{
    static const struct option long_options[] = {
        {"clients", required_argument, NULL, 'c'},
        {"duration", required_argument, NULL, 'd'},
        {"durable", no_argument, NULL, 'D'},
        {"monitors", required_argument, NULL, 'm'},
        {"rounds", required_argument, NULL, 'r'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    set_program_name(argv[0]);
    vlog_set_levels_from_string_assert("console:warn");

    for (;;) {
        int c = getopt_long(argc, argv, "h", long_options, NULL);
        if (c == -1) {
            break;
        }
        switch (c) {
        case 'c': n_clients = parse_positive("clients", optarg); break;
        case 'd': duration_msec = parse_positive("duration", optarg); break;
        case 'D': durable = true; break;
        case 'm': n_monitors = parse_positive("monitors", optarg); break;
        case 'r': n_rounds = parse_positive("rounds", optarg); break;
        case 'h': usage();
        default: exit(EXIT_FAILURE);
        }
    }
    if (argc - optind != 2) {
        ovs_fatal(0, "need a workload (txn or monitor) and a remote; "
                  "use --help for usage");
    }
    const char *workload = argv[optind], *remote = argv[optind + 1];
    if (!strcmp(workload, "txn")) {
        run_txn(remote);
    } else if (!strcmp(workload, "monitor")) {
        run_monitor(remote);
    } else {
        ovs_fatal(0, "unknown workload \"%s\"", workload);
    }
    return 0;
}
