/* Unit tests for vswitchd/stats-writer.h, the thread that writes Interface
 * counters: the test plays the database server on a Unix socket and checks
 * what the writer sends.  One "transact" of "update"s by row uuid, the
 * newest counters of a row replacing older ones not yet sent, at most one
 * transaction in flight, and a new connection reported through the seqno.
 * Also run under ThreadSanitizer (make check-tsan). */
#include <config.h>
#include "stats-writer.h"

#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "jsonrpc.h"
#include "poll-loop.h"
#include "stream.h"
#include "timeval.h"
#include "util.h"
#include "uuid.h"
#include "check-util.h"

/* The fake server: a listening socket and, once the writer connects, its
 * connection. */
struct server {
    char *path;
    char *remote;
    struct pstream *listener;
    struct jsonrpc *rpc;
};

static void
server_start(struct server *s)
{
    char tmpl[] = "/tmp/stats-writer-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    s->path = xasprintf("%s/db.sock", tmpl);
    char *name = xasprintf("punix:%s", s->path);
    ck_assert_int_eq(jsonrpc_pstream_open(name, &s->listener, 0), 0);
    free(name);
    s->remote = xasprintf("unix:%s", s->path);
    s->rpc = NULL;
}

static void
server_accept(struct server *s)
{
    struct stream *stream;
    ck_assert_int_eq(pstream_accept_block(s->listener, &stream), 0);
    s->rpc = jsonrpc_open(stream);
}

/* The next request from the writer, which must be a "transact". */
static struct jsonrpc_msg *
server_recv_transact(struct server *s)
{
    struct jsonrpc_msg *msg;
    ck_assert_int_eq(jsonrpc_recv_block(s->rpc, &msg), 0);
    ck_assert_int_eq(msg->type, JSONRPC_REQUEST);
    ck_assert_str_eq(msg->method, "transact");
    return msg;
}

/* Whether a request arrives within MS milliseconds. */
static bool
server_has_request(struct server *s, int ms)
{
    long long int deadline = time_msec() + ms;
    while (time_msec() < deadline) {
        jsonrpc_run(s->rpc);
        jsonrpc_recv_wait(s->rpc);
        jsonrpc_wait(s->rpc);
        poll_timer_wait_until(deadline);
        poll_block();
        struct jsonrpc_msg *msg;
        if (!jsonrpc_recv(s->rpc, &msg)) {
            /* Not consumed: the callers only ask when none may come. */
            jsonrpc_msg_destroy(msg);
            return true;
        }
    }
    return false;
}

static void
server_reply(struct server *s, const struct jsonrpc_msg *request, size_t n)
{
    json_t *result = json_array();
    for (size_t i = 0; i < n; i++) {
        json_array_append_new(result, json_pack("{s:i}", "count", 1));
    }
    ck_assert_int_eq(jsonrpc_send_block(s->rpc, jsonrpc_create_reply(
                         result, json_incref(request->id))), 0);
}

static void
server_drop_connection(struct server *s)
{
    jsonrpc_close(s->rpc);
    s->rpc = NULL;
}

static void
server_stop(struct server *s)
{
    jsonrpc_close(s->rpc);
    pstream_close(s->listener);
    unlink(s->path);
    char *dir = xstrdup(s->path);
    *strrchr(dir, '/') = '\0';
    rmdir(dir);
    free(dir);
    free(s->path);
    free(s->remote);
}

/* The map the update of OP writes into COLUMN, as "k=v,k=v". */
static char *
op_column(const json_t *op, const char *column)
{
    const json_t *map = json_array_get(
        json_object_get(json_object_get(op, "row"), column), 1);
    struct ds { char buf[256]; size_t len; } out = { .len = 0 };
    size_t i;
    json_t *pair;
    json_array_foreach (map, i, pair) {
        out.len += snprintf(out.buf + out.len, sizeof out.buf - out.len,
                            "%s%s=%lld", i ? "," : "",
                            json_string_value(json_array_get(pair, 0)),
                            (long long) json_integer_value(
                                json_array_get(pair, 1)));
    }
    return xstrdup(out.buf);
}

static char *
op_statistics(const json_t *op)
{
    return op_column(op, "statistics");
}

/* The uuid named by the "where" of OP. */
static const char *
op_uuid(const json_t *op)
{
    const json_t *cond = json_array_get(json_object_get(op, "where"), 0);
    ck_assert_str_eq(json_string_value(json_array_get(cond, 0)), "_uuid");
    return json_string_value(json_array_get(json_array_get(cond, 2), 1));
}

static void
put(struct stats_writer *w, const struct uuid *u, int64_t rx, int64_t tx)
{
    const char *keys[] = { "rx_packets", "tx_packets" };
    const int64_t values[] = { rx, tx };
    stats_writer_put(w, "Interface", "statistics", u, keys, values, 2);
}

static void
wait_seqno(struct stats_writer *w, unsigned int at_least)
{
    for (int i = 0; i < 1000 && stats_writer_get_seqno(w) < at_least; i++) {
        poll_timer_wait(5);
        poll_block();
    }
    ck_assert_uint_ge(stats_writer_get_seqno(w), at_least);
}

START_TEST(test_updates_by_uuid)
{
    struct server s;
    server_start(&s);
    struct stats_writer *w = stats_writer_create(s.remote, "Open_vSwitch");
    server_accept(&s);
    wait_seqno(w, 1);

    struct uuid a, b;
    uuid_from_string(&a, "11111111-2222-3333-4444-555555555555");
    uuid_from_string(&b, "66666666-7777-8888-9999-000000000000");
    put(w, &a, 1, 2);
    put(w, &b, 3, 4);
    stats_writer_flush(w);

    struct jsonrpc_msg *req = server_recv_transact(&s);
    json_t *params = req->params;
    ck_assert_str_eq(json_string_value(json_array_get(params, 0)),
                     "Open_vSwitch");
    ck_assert_uint_eq(json_array_size(params), 3);
    size_t i;
    json_t *op;
    bool saw_a = false, saw_b = false;
    json_array_foreach (params, i, op) {
        if (!i) {
            continue;
        }
        ck_assert_str_eq(json_string_value(json_object_get(op, "op")),
                         "update");
        ck_assert_str_eq(json_string_value(json_object_get(op, "table")),
                         "Interface");
        char *stats = op_statistics(op);
        if (!strcmp(op_uuid(op), "11111111-2222-3333-4444-555555555555")) {
            ck_assert_str_eq(stats, "rx_packets=1,tx_packets=2");
            saw_a = true;
        } else {
            ck_assert_str_eq(op_uuid(op),
                             "66666666-7777-8888-9999-000000000000");
            ck_assert_str_eq(stats, "rx_packets=3,tx_packets=4");
            saw_b = true;
        }
        free(stats);
    }
    ck_assert(saw_a && saw_b);

    /* While that transaction is unanswered nothing else goes, and newer
     * counters of A replace older ones. */
    put(w, &a, 5, 6);
    stats_writer_flush(w);
    put(w, &a, 7, 8);
    stats_writer_flush(w);
    ck_assert(!server_has_request(&s, 100));
    server_reply(&s, req, 2);
    jsonrpc_msg_destroy(req);

    req = server_recv_transact(&s);
    ck_assert_uint_eq(json_array_size(req->params), 2);
    op = json_array_get(req->params, 1);
    ck_assert_str_eq(op_uuid(op), "11111111-2222-3333-4444-555555555555");
    char *stats = op_statistics(op);
    ck_assert_str_eq(stats, "rx_packets=7,tx_packets=8");
    free(stats);
    server_reply(&s, req, 1);
    jsonrpc_msg_destroy(req);

    stats_writer_destroy(w);
    server_stop(&s);
    poll_loop_destroy_self();
}
END_TEST

START_TEST(test_columns_kept_apart)
{
    struct server s;
    server_start(&s);
    struct stats_writer *w = stats_writer_create(s.remote, "Open_vSwitch");
    server_accept(&s);
    wait_seqno(w, 1);

    /* One row's two columns are two updates: neither replaces the other
     * (a port's spanning tree counters beside another column's).  An
     * empty set of counters empties the column. */
    struct uuid a;
    uuid_from_string(&a, "11111111-2222-3333-4444-555555555555");
    const char *keys[] = { "rstp_tx_count" };
    const int64_t values[] = { 7 };
    stats_writer_put(w, "Port", "rstp_statistics", &a, keys, values, 1);
    stats_writer_put(w, "Port", "statistics", &a, NULL, NULL, 0);
    stats_writer_flush(w);

    struct jsonrpc_msg *req = server_recv_transact(&s);
    ck_assert_uint_eq(json_array_size(req->params), 3);
    bool saw_rstp = false, saw_empty = false;
    size_t i;
    json_t *op;
    json_array_foreach (req->params, i, op) {
        if (!i) {
            continue;
        }
        ck_assert_str_eq(json_string_value(json_object_get(op, "table")),
                         "Port");
        ck_assert_str_eq(op_uuid(op), "11111111-2222-3333-4444-555555555555");
        const json_t *row = json_object_get(op, "row");
        ck_assert_uint_eq(json_object_size(row), 1);
        if (json_object_get(row, "rstp_statistics")) {
            char *stats = op_column(op, "rstp_statistics");
            ck_assert_str_eq(stats, "rstp_tx_count=7");
            free(stats);
            saw_rstp = true;
        } else {
            char *stats = op_column(op, "statistics");
            ck_assert_str_eq(stats, "");
            free(stats);
            saw_empty = true;
        }
    }
    ck_assert(saw_rstp && saw_empty);
    server_reply(&s, req, 2);
    jsonrpc_msg_destroy(req);

    stats_writer_destroy(w);
    server_stop(&s);
    poll_loop_destroy_self();
}
END_TEST

START_TEST(test_reconnect_is_reported)
{
    struct server s;
    server_start(&s);
    struct stats_writer *w = stats_writer_create(s.remote, "Open_vSwitch");
    server_accept(&s);
    wait_seqno(w, 1);
    unsigned int before = stats_writer_get_seqno(w);

    /* The server drops the connection: the writer connects again and says
     * so, so that its owner hands everything over again; then it writes
     * what it is given. */
    server_drop_connection(&s);
    server_accept(&s);
    wait_seqno(w, before + 1);

    struct uuid a;
    uuid_from_string(&a, "11111111-2222-3333-4444-555555555555");
    put(w, &a, 9, 10);
    stats_writer_flush(w);
    struct jsonrpc_msg *req = server_recv_transact(&s);
    char *stats = op_statistics(json_array_get(req->params, 1));
    ck_assert_str_eq(stats, "rx_packets=9,tx_packets=10");
    free(stats);
    server_reply(&s, req, 1);
    jsonrpc_msg_destroy(req);

    stats_writer_destroy(w);
    server_stop(&s);
    poll_loop_destroy_self();
}
END_TEST

static Suite *
stats_writer_suite(void)
{
    Suite *s = suite_create("stats-writer");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_updates_by_uuid);
    tcase_add_test(tc, test_columns_kept_apart);
    tcase_add_test(tc, test_reconnect_is_reported);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(stats_writer_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
