#include <config.h>
#include "jsonrpc.h"

/* Unit tests for jsonrpc.h: message rules, the framing of back-to-back JSON
 * on a real Unix socket (fed byte by byte, in bulk and with garbage),
 * blocking transactions against a server thread, and sessions, including
 * reconnection and inactivity probes on the simulated clock. */

#include <check.h>
#include "check-util.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dynamic-string.h"
#include "poll-loop.h"
#include "stream.h"
#include "timeval.h"
#include "util.h"

/* Helpers. */

static char tmpdir[64];

static void
make_tmpdir(void)
{
    strcpy(tmpdir, "/tmp/test-jsonrpc-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void
remove_tmpdir(void)
{
    char *cmd = xasprintf("rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

static void
assert_json_eq(const json_t *json, const char *expected)
{
    json_t *e = check_json_parse(expected);
    char *actual = json_dumps(json, JSON_COMPACT | JSON_ENCODE_ANY);
    ck_assert_msg(json_equal(json, e), "got %s, expected %s", actual,
                  expected);
    free(actual);
    json_decref(e);
}

/* A raw stream to write arbitrary bytes into, and the jsonrpc that reads
 * them on the other end of a Unix socket. */
struct pair {
    struct pstream *pstream;
    struct stream *raw;
    struct jsonrpc *rpc;
};

static void
pair_open(struct pair *pair)
{
    make_tmpdir();
    char *pname = xasprintf("punix:%s/socket", tmpdir);
    char *aname = xasprintf("unix:%s/socket", tmpdir);
    struct stream *server;

    ck_assert_int_eq(pstream_open(pname, &pair->pstream, 0), 0);
    ck_assert_int_eq(stream_open(aname, &pair->raw, 0), 0);
    ck_assert_int_eq(stream_open_block(0, -1, &pair->raw), 0);
    ck_assert_int_eq(pstream_accept_block(pair->pstream, &server), 0);
    pair->rpc = jsonrpc_open(server);
    free(aname);
    free(pname);
}

static void
pair_close(struct pair *pair)
{
    jsonrpc_close(pair->rpc);
    stream_close(pair->raw);
    pstream_close(pair->pstream);
    remove_tmpdir();
}

/* Writes N bytes of S into the raw end and waits until they are sent. */
static void
feed_n(struct pair *pair, const char *s, size_t n)
{
    ck_assert_int_eq(stream_send(pair->raw, s, n), n);
    while (stream_get_backlog(pair->raw)) {
        stream_send_wait(pair->raw);
        poll_block();
    }
}

static void
feed(struct pair *pair, const char *s)
{
    feed_n(pair, s, strlen(s));
}

/* Receives from RPC until something other than EAGAIN happens. */
static int
recv_wait_for(struct jsonrpc *rpc, struct jsonrpc_msg **msgp)
{
    int error;
    while ((error = jsonrpc_recv(rpc, msgp)) == EAGAIN) {
        jsonrpc_run(rpc);
        jsonrpc_wait(rpc);
        jsonrpc_recv_wait(rpc);
        poll_block();
    }
    return error;
}

/* Waits until RPC has received TOTAL bytes, checking that none of them
 * completed a message. */
static void
recv_until_bytes(struct jsonrpc *rpc, unsigned long long int total)
{
    while (jsonrpc_get_received_bytes(rpc) < total) {
        struct jsonrpc_msg *msg;
        ck_assert_int_eq(jsonrpc_recv(rpc, &msg), EAGAIN);
        ck_assert_ptr_null(msg);
        if (jsonrpc_get_received_bytes(rpc) >= total) {
            break;
        }
        jsonrpc_recv_wait(rpc);
        poll_block();
    }
}

/* Checks that the peer of the raw stream hung up. */
static void
assert_raw_closed(struct pair *pair)
{
    char buf[64];
    for (;;) {
        int retval = stream_recv(pair->raw, buf, sizeof buf);
        if (retval == -EAGAIN) {
            stream_recv_wait(pair->raw);
            poll_block();
        } else {
            ck_assert_int_le(retval, 0);
            return;
        }
    }
}

/* Reads what the peer of PAIR's jsonrpc receives until the connection
 * closes, and returns it (the caller frees it). */
static char *
read_raw_until_closed(struct pair *pair)
{
    struct ds out = DS_EMPTY_INITIALIZER;
    char buf[256];
    for (;;) {
        int retval = stream_recv(pair->raw, buf, sizeof buf);
        if (retval == -EAGAIN) {
            stream_recv_wait(pair->raw);
            poll_block();
        } else if (retval > 0) {
            ds_put_buffer(&out, buf, retval);
        } else {
            return ds_steal_cstr(&out);
        }
    }
}

/* Feeds BYTES and checks that they make the connection fail with EPROTO,
 * sticky, and hang up on the peer. */
static void
check_protocol_error(const char *bytes, size_t n)
{
    struct pair pair;
    struct jsonrpc_msg *msg;

    pair_open(&pair);
    feed_n(&pair, bytes, n);
    ck_assert_int_eq(recv_wait_for(pair.rpc, &msg), EPROTO);
    ck_assert_ptr_null(msg);
    ck_assert_int_eq(jsonrpc_get_status(pair.rpc), EPROTO);

    /* Sticky, and the connection is unusable in both directions. */
    ck_assert_int_eq(jsonrpc_recv(pair.rpc, &msg), EPROTO);
    ck_assert_int_eq(jsonrpc_send(pair.rpc, jsonrpc_create_notify(
                                      "x", json_array())), EPROTO);
    jsonrpc_run(pair.rpc);
    jsonrpc_wait(pair.rpc);
    assert_raw_closed(&pair);
    pair_close(&pair);
}

/* Messages. */

START_TEST(test_create_request)
{
    json_t *id;
    struct jsonrpc_msg *msg = jsonrpc_create_request("echo",
                                                     check_json_parse("[1,\"a\"]"), &id);

    ck_assert_int_eq(msg->type, JSONRPC_REQUEST);
    ck_assert_str_eq(msg->method, "echo");
    ck_assert(json_is_integer(id));
    ck_assert(json_equal(id, msg->id));
    ck_assert_ptr_null(jsonrpc_msg_is_valid(msg));

    json_t *json = jsonrpc_msg_to_json(msg);
    json_t *expected = json_pack("{s:s, s:[i,s], s:O}", "method", "echo",
                                 "params", 1, "a", "id", id);
    ck_assert(json_equal(json, expected));
    json_decref(expected);
    json_decref(json);
    json_decref(id);
}
END_TEST

START_TEST(test_ids_are_unique)
{
    json_t *a, *b;
    struct jsonrpc_msg *m1 = jsonrpc_create_request("x", json_array(), &a);
    struct jsonrpc_msg *m2 = jsonrpc_create_request("x", json_array(), &b);
    ck_assert(!json_equal(a, b));
    json_t *c = jsonrpc_create_id();
    ck_assert(!json_equal(a, c) && !json_equal(b, c));
    json_decref(a);
    json_decref(b);
    json_decref(c);
    jsonrpc_msg_destroy(m1);
    jsonrpc_msg_destroy(m2);
}
END_TEST

START_TEST(test_wire_forms)
{
    /* JSON-RPC 1.0 wants explicit nulls for the members a type lacks. */
    struct jsonrpc_msg *msg = jsonrpc_create_notify("update", check_json_parse("[]"));
    json_t *json = jsonrpc_msg_to_json(msg);
    assert_json_eq(json, "{\"method\":\"update\",\"params\":[],\"id\":null}");
    json_decref(json);

    msg = jsonrpc_create_reply(json_string("ok"), json_integer(7));
    json = jsonrpc_msg_to_json(msg);
    assert_json_eq(json, "{\"result\":\"ok\",\"error\":null,\"id\":7}");
    json_decref(json);

    msg = jsonrpc_create_error(json_string("bad"), json_string("x"));
    json = jsonrpc_msg_to_json(msg);
    assert_json_eq(json, "{\"result\":null,\"error\":\"bad\",\"id\":\"x\"}");
    json_decref(json);

    msg = jsonrpc_create_reply(json_array(), json_integer(3));
    char *s = jsonrpc_msg_to_string(msg);
    json = check_json_parse(s);
    assert_json_eq(json, "{\"result\":[],\"error\":null,\"id\":3}");
    ck_assert_ptr_null(strchr(s, ' '));     /* Compact. */
    free(s);
    json_decref(json);
    jsonrpc_msg_destroy(msg);

    ck_assert_str_eq(jsonrpc_msg_type_to_string(JSONRPC_REQUEST), "request");
    ck_assert_str_eq(jsonrpc_msg_type_to_string(JSONRPC_NOTIFY),
                     "notification");
    ck_assert_str_eq(jsonrpc_msg_type_to_string(JSONRPC_REPLY), "reply");
    ck_assert_str_eq(jsonrpc_msg_type_to_string(JSONRPC_ERROR), "error");
}
END_TEST

START_TEST(test_from_json_types)
{
    static const struct {
        const char *json;
        enum jsonrpc_msg_type type;
    } cases[] = {
        { "{\"method\":\"m\",\"params\":[],\"id\":1}", JSONRPC_REQUEST },
        { "{\"method\":\"m\",\"params\":[],\"id\":null}", JSONRPC_NOTIFY },
        { "{\"method\":\"m\",\"params\":[]}", JSONRPC_NOTIFY },
        { "{\"result\":1,\"error\":null,\"id\":1}", JSONRPC_REPLY },
        { "{\"result\":null,\"id\":1}", JSONRPC_REPLY },
        { "{\"result\":null,\"error\":\"e\",\"id\":1}", JSONRPC_ERROR },
        { "{\"error\":{\"x\":1},\"id\":\"abc\"}", JSONRPC_ERROR },
    };

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct jsonrpc_msg *msg;
        char *error = jsonrpc_msg_from_json(check_json_parse(cases[i].json), &msg);
        ck_assert_msg(!error, "%s: %s", cases[i].json, error);
        ck_assert_int_eq(msg->type, cases[i].type);

        /* And back: the wire form parses to the same message. */
        struct jsonrpc_msg *clone = jsonrpc_msg_clone(msg);
        struct jsonrpc_msg *again;
        error = jsonrpc_msg_from_json(jsonrpc_msg_to_json(clone), &again);
        ck_assert_ptr_null(error);
        ck_assert_int_eq(again->type, msg->type);
        ck_assert(json_equal(again->id, msg->id) || (!again->id && !msg->id));
        jsonrpc_msg_destroy(again);
        jsonrpc_msg_destroy(msg);
    }
}
END_TEST

START_TEST(test_from_json_errors)
{
    static const struct {
        const char *json;
        const char *error;
    } cases[] = {
        { "[1]", "message is not a JSON object" },
        { "{\"method\":\"x\",\"params\":[],\"id\":1,\"extra\":2}",
          "message has unexpected member \"extra\"" },
        { "{\"method\":\"x\",\"params\":{},\"id\":1}",
          "\"params\" must be a JSON array" },
        { "{\"method\":\"x\",\"id\":1}", "request must have \"params\"" },
        { "{\"method\":1,\"params\":[],\"id\":1}",
          "\"method\" is not a JSON string" },
        { "{\"method\":\"x\",\"params\":[],\"result\":1,\"id\":1}",
          "request must not have \"result\"" },
        { "{\"method\":\"x\",\"params\":[],\"error\":1}",
          "notification must not have \"error\"" },
        { "{\"result\":1}", "reply must have \"id\"" },
        { "{\"result\":1,\"params\":[],\"id\":1}",
          "reply must not have \"params\"" },
        { "{\"result\":1,\"error\":\"e\",\"id\":1}",
          "error must not have \"result\"" },
        { "{\"id\":1}",
          "message is not a JSON-RPC request, notification, reply or error" },
    };

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct jsonrpc_msg *msg = (void *) 1;
        char *error = jsonrpc_msg_from_json(check_json_parse(cases[i].json), &msg);
        ck_assert_msg(error != NULL, "%s: accepted", cases[i].json);
        ck_assert_ptr_null(msg);
        ck_assert_str_eq(error, cases[i].error);
        free(error);
    }
}
END_TEST

START_TEST(test_is_valid)
{
    struct jsonrpc_msg *msg = jsonrpc_create_request("m", json_object(),
                                                     NULL);
    char *error = jsonrpc_msg_is_valid(msg);
    ck_assert_str_eq(error, "\"params\" must be a JSON array");
    free(error);
    jsonrpc_msg_destroy(msg);

    msg = jsonrpc_create_reply(NULL, json_integer(1));
    error = jsonrpc_msg_is_valid(msg);
    ck_assert_str_eq(error, "reply must have \"result\"");
    free(error);
    jsonrpc_msg_destroy(msg);

    jsonrpc_msg_destroy(NULL);
}
END_TEST

/* Framing. */

START_TEST(test_back_to_back)
{
    struct pair pair;
    struct jsonrpc_msg *msg;

    pair_open(&pair);
    ck_assert(string_starts_with(jsonrpc_get_name(pair.rpc), "unix#"));

    /* Three messages in one write, with and without whitespace between. */
    feed(&pair,
         "{\"method\":\"a\",\"params\":[],\"id\":1}"
         "{\"method\":\"b\",\"params\":[{}],\"id\":2}\n \t\r\n"
         "{\"method\":\"c\",\"params\":[[]],\"id\":null}  ");

    ck_assert_int_eq(recv_wait_for(pair.rpc, &msg), 0);
    ck_assert_str_eq(msg->method, "a");
    ck_assert_int_eq(msg->type, JSONRPC_REQUEST);
    jsonrpc_msg_destroy(msg);

    ck_assert_int_eq(recv_wait_for(pair.rpc, &msg), 0);
    ck_assert_str_eq(msg->method, "b");
    assert_json_eq(msg->params, "[{}]");
    jsonrpc_msg_destroy(msg);

    ck_assert_int_eq(recv_wait_for(pair.rpc, &msg), 0);
    ck_assert_str_eq(msg->method, "c");
    ck_assert_int_eq(msg->type, JSONRPC_NOTIFY);
    jsonrpc_msg_destroy(msg);

    ck_assert_int_eq(jsonrpc_recv(pair.rpc, &msg), EAGAIN);
    ck_assert_int_eq(jsonrpc_get_status(pair.rpc), 0);
    pair_close(&pair);
}
END_TEST

START_TEST(test_byte_by_byte)
{
    static const char text[] =
        "{\"method\":\"m\",\"params\":[\"a\\\"}{[\", \"\\\\\", {\"x\":\"]\"},"
        " [[{}]], \"\\u007b\"],\"id\":\"q\"}";
    struct pair pair;
    struct jsonrpc_msg *msg;

    pair_open(&pair);
    size_t n = strlen(text);
    for (size_t i = 0; i < n - 1; i++) {
        feed_n(&pair, &text[i], 1);
        recv_until_bytes(pair.rpc, i + 1);
    }
    feed_n(&pair, &text[n - 1], 1);
    ck_assert_int_eq(recv_wait_for(pair.rpc, &msg), 0);
    ck_assert_uint_eq(jsonrpc_get_received_bytes(pair.rpc), n);

    /* Quotes, braces and brackets inside strings did not fool the
     * framing. */
    assert_json_eq(msg->params,
                   "[\"a\\\"}{[\", \"\\\\\", {\"x\":\"]\"}, [[{}]], \"{\"]");
    assert_json_eq(msg->id, "\"q\"");
    jsonrpc_msg_destroy(msg);
    pair_close(&pair);
}
END_TEST

START_TEST(test_many_messages_in_pieces)
{
    /* 200 messages in one buffer, delivered in chunks of 7 bytes that cut
     * through every part of the syntax. */
    struct pair pair;
    size_t allocated = 0;
    char *text = NULL;
    size_t n = 0;

    for (int i = 0; i < 200; i++) {
        char *m = xasprintf("{\"method\":\"m%d\",\"params\":[\"}\\\"%d\"],"
                            "\"id\":%d}", i, i, i);
        size_t len = strlen(m);
        while (n + len + 1 > allocated) {
            text = x2nrealloc(text, &allocated, 1);
        }
        memcpy(text + n, m, len + 1);
        n += len;
        free(m);
    }

    pair_open(&pair);
    for (size_t i = 0; i < n; i += 7) {
        feed_n(&pair, text + i, MIN(7, n - i));
    }
    for (int i = 0; i < 200; i++) {
        struct jsonrpc_msg *msg;
        ck_assert_int_eq(recv_wait_for(pair.rpc, &msg), 0);
        char *method = xasprintf("m%d", i);
        ck_assert_str_eq(msg->method, method);
        ck_assert_int_eq(json_integer_value(msg->id), i);
        free(method);
        jsonrpc_msg_destroy(msg);
    }
    free(text);
    pair_close(&pair);
}
END_TEST

START_TEST(test_malformed_json)
{
    static const char text[] = "{\"method\":}";
    check_protocol_error(text, strlen(text));
}
END_TEST

START_TEST(test_mismatched_brackets)
{
    static const char text[] = "{\"method\":\"x\",\"params\":[}]";
    check_protocol_error(text, strlen(text));
}
END_TEST

START_TEST(test_top_level_number)
{
    check_protocol_error("42", 2);
}
END_TEST

START_TEST(test_top_level_string)
{
    check_protocol_error("\"echo\"", 6);
}
END_TEST

START_TEST(test_top_level_array)
{
    /* Framed like an object, but not a message. */
    check_protocol_error("[1,2]", 5);
}
END_TEST

START_TEST(test_binary_garbage)
{
    check_protocol_error("\x01\x02\xff", 3);
}
END_TEST

START_TEST(test_garbage_after_good_message)
{
    struct pair pair;
    struct jsonrpc_msg *msg;

    pair_open(&pair);
    feed(&pair, "{\"method\":\"ok\",\"params\":[],\"id\":1}xyz");
    ck_assert_int_eq(recv_wait_for(pair.rpc, &msg), 0);
    ck_assert_str_eq(msg->method, "ok");
    jsonrpc_msg_destroy(msg);
    ck_assert_int_eq(recv_wait_for(pair.rpc, &msg), EPROTO);
    pair_close(&pair);
}
END_TEST

START_TEST(test_bad_shape_on_wire)
{
    static const char text[] = "{\"method\":\"x\",\"params\":{},\"id\":1}";
    check_protocol_error(text, strlen(text));
}
END_TEST

START_TEST(test_invalid_utf8)
{
    static const char text[] = "{\"method\":\"\xc3\x28\",\"params\":[]}";
    check_protocol_error(text, strlen(text));
}
END_TEST

START_TEST(test_size_limit)
{
    struct pair pair;
    struct jsonrpc_msg *msg;

    /* A complete message over the limit. */
    pair_open(&pair);
    jsonrpc_set_max_msg_size(pair.rpc, 64);
    feed(&pair, "{\"method\":\"x\",\"params\":[\"0123456789012345678901234567"
         "8901234567890123456789\"]}");
    ck_assert_int_eq(recv_wait_for(pair.rpc, &msg), EPROTO);
    pair_close(&pair);

    /* An endless one is cut off without waiting for its end. */
    pair_open(&pair);
    jsonrpc_set_max_msg_size(pair.rpc, 1000);
    feed(&pair, "{\"method\":\"x\",\"params\":[");
    for (int i = 0; i < 100; i++) {
        feed(&pair, "\"0123456789\",");
    }
    ck_assert_int_eq(recv_wait_for(pair.rpc, &msg), EPROTO);
    /* The peer learns why before the connection closes. */
    char *reply = read_raw_until_closed(&pair);
    ck_assert_str_eq(reply, "{\"result\":null,\"error\":{\"error\":"
                     "\"resources exhausted\",\"details\":\"request "
                     "exceeds the message size limit of 1000 bytes\"},"
                     "\"id\":null}");
    free(reply);
    pair_close(&pair);
}
END_TEST

START_TEST(test_eof)
{
    struct pair pair;
    struct jsonrpc_msg *msg;

    /* A clean close after a message: the message, then EOF. */
    pair_open(&pair);
    feed(&pair, "{\"method\":\"bye\",\"params\":[],\"id\":null}");
    stream_close(pair.raw);
    pair.raw = NULL;
    ck_assert_int_eq(recv_wait_for(pair.rpc, &msg), 0);
    jsonrpc_msg_destroy(msg);
    ck_assert_int_eq(recv_wait_for(pair.rpc, &msg), EOF);
    ck_assert_int_eq(jsonrpc_get_status(pair.rpc), EOF);
    pair_close(&pair);

    /* A close in the middle of a message is EOF too. */
    pair_open(&pair);
    feed(&pair, "{\"method\":\"by");
    stream_close(pair.raw);
    pair.raw = NULL;
    ck_assert_int_eq(recv_wait_for(pair.rpc, &msg), EOF);
    pair_close(&pair);
}
END_TEST

START_TEST(test_backlog_threshold)
{
    struct pair pair;

    pair_open(&pair);
    jsonrpc_set_backlog_threshold(pair.rpc, 100);
    ck_assert_int_eq(jsonrpc_send(pair.rpc, jsonrpc_create_notify(
                                      "small", json_array())), 0);

    /* The peer never reads, so once the kernel's socket buffers are full
     * what we send piles up in the backlog, and a backlog over the limit
     * fails the connection instead of growing without bound. */
    char *chunk = xmalloc(1024 * 1024 + 1);
    memset(chunk, 'x', 1024 * 1024);
    chunk[1024 * 1024] = '\0';
    int error = 0;
    for (int i = 0; i < 256 && !error; i++) {
        error = jsonrpc_send(pair.rpc, jsonrpc_create_notify(
                                 "big", json_pack("[s]", chunk)));
    }
    free(chunk);
    ck_assert_int_eq(error, ENOBUFS);
    ck_assert_int_eq(jsonrpc_get_status(pair.rpc), ENOBUFS);
    pair_close(&pair);
}
END_TEST

/* Blocking calls against a server thread. */

struct server {
    struct pstream *pstream;
    bool got_echo_reply;
    int n_requests;
};

static void *
server_main(void *server_)
{
    struct server *server = server_;
    struct stream *stream;

    ck_assert_int_eq(pstream_accept_block(server->pstream, &stream), 0);
    struct jsonrpc *rpc = jsonrpc_open(stream);
    for (;;) {
        struct jsonrpc_msg *msg;
        int error = jsonrpc_recv_block(rpc, &msg);
        if (error) {
            break;
        }
        if (msg->type == JSONRPC_NOTIFY && !strcmp(msg->method, "shutdown")) {
            jsonrpc_msg_destroy(msg);
            break;
        } else if (msg->type == JSONRPC_REQUEST) {
            server->n_requests++;

            /* Before replying: an echo request the client must answer by
             * itself, a notification and a stale reply it must skip. */
            struct jsonrpc_msg *echo = jsonrpc_create_request(
                "echo", json_pack("[s]", "ping"), NULL);
            json_decref(echo->id);
            echo->id = json_string("server-echo");
            jsonrpc_send(rpc, echo);
            jsonrpc_send(rpc, jsonrpc_create_notify("noise", json_array()));
            jsonrpc_send(rpc, jsonrpc_create_reply(json_true(),
                                                   json_integer(-5)));
            jsonrpc_send_block(rpc, jsonrpc_create_reply(
                                   json_incref(msg->params),
                                   json_incref(msg->id)));
        } else if (msg->type == JSONRPC_REPLY && json_is_string(msg->id)
                   && !strcmp(json_string_value(msg->id), "server-echo")) {
            server->got_echo_reply = true;
        }
        jsonrpc_msg_destroy(msg);
    }
    jsonrpc_close(rpc);
    poll_loop_destroy_self();
    return NULL;
}

START_TEST(test_transact_block)
{
    struct server server = { .got_echo_reply = false };
    pthread_t thread;

    make_tmpdir();
    char *pname = xasprintf("punix:%s/socket", tmpdir);
    char *aname = xasprintf("unix:%s/socket", tmpdir);
    ck_assert_int_eq(pstream_open(pname, &server.pstream, 0), 0);
    ck_assert_int_eq(pthread_create(&thread, NULL, server_main, &server), 0);

    struct stream *stream;
    ck_assert_int_eq(stream_open_block(jsonrpc_stream_open(aname, &stream, 0),
                                       -1, &stream), 0);
    struct jsonrpc *rpc = jsonrpc_open(stream);
    for (int i = 0; i < 3; i++) {
        struct jsonrpc_msg *reply;
        json_t *params = json_pack("[i,s,{s:n}]", i, "two", "three");
        json_t *expected = json_deep_copy(params);
        int error = jsonrpc_transact_block(
            rpc, jsonrpc_create_request("test", params, NULL), &reply);
        ck_assert_int_eq(error, 0);
        ck_assert_int_eq(reply->type, JSONRPC_REPLY);
        ck_assert(json_equal(reply->result, expected));
        json_decref(expected);
        jsonrpc_msg_destroy(reply);
    }
    ck_assert_int_eq(jsonrpc_send_block(rpc, jsonrpc_create_notify(
                                            "shutdown", json_array())), 0);
    ck_assert_int_eq(pthread_join(thread, NULL), 0);
    ck_assert_int_eq(server.n_requests, 3);
    ck_assert(server.got_echo_reply);

    /* The server hung up: a further transaction fails cleanly. */
    struct jsonrpc_msg *reply;
    int error = jsonrpc_transact_block(
        rpc, jsonrpc_create_request("test", json_array(), NULL), &reply);
    ck_assert_int_ne(error, 0);
    ck_assert_ptr_null(reply);

    jsonrpc_close(rpc);
    pstream_close(server.pstream);
    free(aname);
    free(pname);
    remove_tmpdir();
}
END_TEST

/* Sessions. */

static void
run_sessions(struct jsonrpc_session *a, struct jsonrpc_session *b)
{
    jsonrpc_session_run(a);
    if (b) {
        jsonrpc_session_run(b);
    }
}

static void
wait_sessions(struct jsonrpc_session *a, struct jsonrpc_session *b)
{
    jsonrpc_session_wait(a);
    jsonrpc_session_recv_wait(a);
    if (b) {
        jsonrpc_session_wait(b);
        jsonrpc_session_recv_wait(b);
    }
}

/* Runs A and B until both are connected. */
static void
connect_sessions(struct jsonrpc_session *a, struct jsonrpc_session *b)
{
    for (;;) {
        run_sessions(a, b);
        if (jsonrpc_session_is_connected(a)
            && jsonrpc_session_is_connected(b)) {
            return;
        }
        wait_sessions(a, b);
        poll_block();
    }
}

/* Runs A and B until RECEIVER has a message for its caller. */
static struct jsonrpc_msg *
session_recv_block(struct jsonrpc_session *receiver,
                   struct jsonrpc_session *other)
{
    for (;;) {
        run_sessions(receiver, other);
        struct jsonrpc_msg *msg = jsonrpc_session_recv(receiver);
        ck_assert_ptr_null(other ? jsonrpc_session_recv(other) : NULL);
        if (msg) {
            return msg;
        }
        wait_sessions(receiver, other);
        poll_block();
    }
}

START_TEST(test_session_exchange)
{
    make_tmpdir();
    char *pname = xasprintf("punix:%s/db.sock", tmpdir);
    char *aname = xasprintf("unix:%s/db.sock", tmpdir);

    struct jsonrpc_session *server = jsonrpc_session_open(pname, true);
    ck_assert_str_eq(jsonrpc_session_get_name(server), pname);
    ck_assert(jsonrpc_session_is_alive(server));
    run_sessions(server, NULL);     /* Starts listening. */

    struct jsonrpc_session *client = jsonrpc_session_open(aname, true);
    unsigned int client_seqno = jsonrpc_session_get_seqno(client);
    ck_assert_int_eq(jsonrpc_session_send(client, jsonrpc_create_notify(
                                              "x", json_array())), ENOTCONN);
    connect_sessions(client, server);
    ck_assert_uint_ne(jsonrpc_session_get_seqno(client), client_seqno);
    ck_assert_int_eq(jsonrpc_session_get_num_of_remotes(client), 1);

    /* A request and its reply. */
    json_t *id;
    ck_assert_int_eq(jsonrpc_session_send(
                         client, jsonrpc_create_request(
                             "get", json_pack("[s]", "x"), &id)), 0);
    struct jsonrpc_msg *msg = session_recv_block(server, client);
    ck_assert_int_eq(msg->type, JSONRPC_REQUEST);
    ck_assert_str_eq(msg->method, "get");
    ck_assert_int_eq(jsonrpc_session_send(
                         server, jsonrpc_create_reply(
                             json_integer(5), json_incref(msg->id))), 0);
    jsonrpc_msg_destroy(msg);
    msg = session_recv_block(client, server);
    ck_assert_int_eq(msg->type, JSONRPC_REPLY);
    ck_assert(json_equal(msg->id, id));
    ck_assert_int_eq(json_integer_value(msg->result), 5);
    jsonrpc_msg_destroy(msg);
    json_decref(id);

    /* The client answers an "echo" request itself; the server sees only
     * the answer. */
    struct jsonrpc_msg *echo = jsonrpc_create_request(
        "echo", json_pack("[s,i]", "hi", 1), &id);
    ck_assert_int_eq(jsonrpc_session_send(server, echo), 0);
    msg = session_recv_block(server, client);
    ck_assert_int_eq(msg->type, JSONRPC_REPLY);
    ck_assert(json_equal(msg->id, id));
    assert_json_eq(msg->result, "[\"hi\",1]");
    jsonrpc_msg_destroy(msg);
    json_decref(id);

    /* The server goes away: the client notices and keeps trying. */
    client_seqno = jsonrpc_session_get_seqno(client);
    jsonrpc_session_close(server);
    for (;;) {
        run_sessions(client, NULL);
        if (!jsonrpc_session_is_connected(client)) {
            break;
        }
        ck_assert_ptr_null(jsonrpc_session_recv(client));
        wait_sessions(client, NULL);
        poll_block();
    }
    ck_assert(jsonrpc_session_is_alive(client));
    ck_assert_uint_ne(jsonrpc_session_get_seqno(client), client_seqno);
    ck_assert_int_eq(jsonrpc_session_get_last_error(client), EOF);
    ck_assert_int_eq(jsonrpc_session_send(client, jsonrpc_create_notify(
                                              "x", json_array())), ENOTCONN);
    jsonrpc_session_close(client);

    free(aname);
    free(pname);
    remove_tmpdir();
}
END_TEST

START_TEST(test_session_no_retry)
{
    make_tmpdir();
    char *aname = xasprintf("unix:%s/nobody", tmpdir);

    /* One attempt only: once it fails, the session is dead. */
    struct jsonrpc_session *s = jsonrpc_session_open(aname, false);
    ck_assert(jsonrpc_session_is_alive(s));
    run_sessions(s, NULL);
    ck_assert(!jsonrpc_session_is_connected(s));
    ck_assert(!jsonrpc_session_is_alive(s));
    ck_assert_int_eq(jsonrpc_session_get_last_error(s), ENOENT);
    jsonrpc_session_close(s);

    free(aname);
    remove_tmpdir();
}
END_TEST

START_TEST(test_session_unreliably)
{
    struct pair pair;

    pair_open(&pair);
    struct jsonrpc_session *s = jsonrpc_session_open_unreliably(pair.rpc, 0);
    pair.rpc = NULL;
    ck_assert(jsonrpc_session_is_connected(s));
    ck_assert(string_starts_with(jsonrpc_session_get_name(s), "unix#"));

    feed(&pair, "{\"method\":\"hello\",\"params\":[],\"id\":null}");
    struct jsonrpc_msg *msg = session_recv_block(s, NULL);
    ck_assert_str_eq(msg->method, "hello");
    jsonrpc_msg_destroy(msg);

    /* Garbage kills it for good: no reconnecting an accepted connection. */
    feed(&pair, "}");
    for (;;) {
        run_sessions(s, NULL);
        if (!jsonrpc_session_is_alive(s)) {
            break;
        }
        ck_assert_ptr_null(jsonrpc_session_recv(s));
        wait_sessions(s, NULL);
        poll_block();
    }
    ck_assert(!jsonrpc_session_is_connected(s));
    ck_assert_int_eq(jsonrpc_session_get_last_error(s), EPROTO);
    jsonrpc_session_close(s);
    pair_close(&pair);
}
END_TEST

/* Sessions on the simulated clock.  time_stop() cannot be undone, so these
 * run last (without CK_FORK, all tests share one process). */

/* Runs A and B for a few iterations without blocking: with the clock
 * stopped, nothing but network events and warps can end a block. */
static void
churn(struct jsonrpc_session *a, struct jsonrpc_session *b, bool recv_b)
{
    for (int i = 0; i < 20; i++) {
        run_sessions(a, b);
        ck_assert_ptr_null(jsonrpc_session_recv(a));
        if (b && recv_b) {
            ck_assert_ptr_null(jsonrpc_session_recv(b));
        }
        wait_sessions(a, b);
        poll_immediate_wake();
        poll_block();
    }
}

START_TEST(test_session_reconnects_with_backoff)
{
    time_stop();
    make_tmpdir();
    char *pname = xasprintf("punix:%s/late.sock", tmpdir);
    char *aname = xasprintf("unix:%s/late.sock", tmpdir);

    /* Nobody listens yet: the first attempt fails. */
    struct jsonrpc_session *client = jsonrpc_session_open(aname, true);
    churn(client, NULL, false);
    ck_assert(!jsonrpc_session_is_connected(client));
    ck_assert(jsonrpc_session_is_alive(client));
    ck_assert_int_eq(jsonrpc_session_get_last_error(client), ENOENT);

    /* The listener appears, but the client waits out its backoff... */
    struct jsonrpc_session *server = jsonrpc_session_open(pname, true);
    churn(client, server, true);
    ck_assert(!jsonrpc_session_is_connected(client));

    time_warp(999);
    churn(client, server, true);
    ck_assert(!jsonrpc_session_is_connected(client));

    /* ...and connects once it is over. */
    time_warp(1);
    connect_sessions(client, server);

    jsonrpc_session_close(client);
    jsonrpc_session_close(server);
    free(aname);
    free(pname);
    remove_tmpdir();
}
END_TEST

START_TEST(test_session_inactivity_probe)
{
    time_stop();
    make_tmpdir();
    char *pname = xasprintf("punix:%s/probe.sock", tmpdir);
    char *aname = xasprintf("unix:%s/probe.sock", tmpdir);

    struct jsonrpc_session *server = jsonrpc_session_open(pname, true);
    run_sessions(server, NULL);     /* Starts listening. */
    struct jsonrpc_session *client = jsonrpc_session_open(aname, true);
    jsonrpc_session_set_probe_interval(client, 5000);
    connect_sessions(client, server);
    unsigned int seqno = jsonrpc_session_get_seqno(client);

    /* A quiet but responsive peer: the probe is answered (by the server
     * session itself) and the reply is swallowed by the client. */
    for (int i = 0; i < 3; i++) {
        time_warp(5000);
        churn(client, server, true);
        ck_assert(jsonrpc_session_is_connected(client));
    }
    ck_assert_uint_eq(jsonrpc_session_get_seqno(client), seqno);

    /* A peer that stops answering is dropped after a probe interval in
     * IDLE. */
    time_warp(5000);
    churn(client, server, false);
    ck_assert(jsonrpc_session_is_connected(client));
    time_warp(5000);
    churn(client, server, false);
    ck_assert(!jsonrpc_session_is_connected(client));
    ck_assert(jsonrpc_session_is_alive(client));
    ck_assert_uint_ne(jsonrpc_session_get_seqno(client), seqno);

    jsonrpc_session_close(client);
    jsonrpc_session_close(server);
    free(aname);
    free(pname);
    remove_tmpdir();
}
END_TEST

static Suite *
jsonrpc_suite(void)
{
    Suite *s = suite_create("jsonrpc");

    TCase *tc = tcase_create("messages");
    tcase_add_test(tc, test_create_request);
    tcase_add_test(tc, test_ids_are_unique);
    tcase_add_test(tc, test_wire_forms);
    tcase_add_test(tc, test_from_json_types);
    tcase_add_test(tc, test_from_json_errors);
    tcase_add_test(tc, test_is_valid);
    suite_add_tcase(s, tc);

    tc = tcase_create("framing");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_back_to_back);
    tcase_add_test(tc, test_byte_by_byte);
    tcase_add_test(tc, test_many_messages_in_pieces);
    tcase_add_test(tc, test_malformed_json);
    tcase_add_test(tc, test_mismatched_brackets);
    tcase_add_test(tc, test_top_level_number);
    tcase_add_test(tc, test_top_level_string);
    tcase_add_test(tc, test_top_level_array);
    tcase_add_test(tc, test_binary_garbage);
    tcase_add_test(tc, test_garbage_after_good_message);
    tcase_add_test(tc, test_bad_shape_on_wire);
    tcase_add_test(tc, test_invalid_utf8);
    tcase_add_test(tc, test_size_limit);
    tcase_add_test(tc, test_eof);
    tcase_add_test(tc, test_backlog_threshold);
    suite_add_tcase(s, tc);

    tc = tcase_create("blocking");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_transact_block);
    suite_add_tcase(s, tc);

    tc = tcase_create("session");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_session_exchange);
    tcase_add_test(tc, test_session_no_retry);
    tcase_add_test(tc, test_session_unreliably);
    suite_add_tcase(s, tc);

    tc = tcase_create("session-clock");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_session_reconnects_with_backoff);
    tcase_add_test(tc, test_session_inactivity_probe);
    suite_add_tcase(s, tc);

    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(jsonrpc_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);

    /* libevent frees closed bufferevents from inside the loop; freeing the
     * loop finishes the job, so leak checkers see a clean exit. */
    poll_loop_destroy_self();
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
