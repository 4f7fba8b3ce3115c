#include <config.h>
#include "jsonrpc.h"

/* JSON-RPC connections: framing of back-to-back JSON values on a stream.
 * Messages are in jsonrpc-msg.c, sessions in jsonrpc-session.c. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dynamic-string.h"
#include "poll-loop.h"
#include "stream.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(jsonrpc);

/* Reading stops after this many reads per jsonrpc_recv() call, so that one
 * chatty peer cannot monopolize the thread. */
#define MAX_READS_PER_RECV 50

/* How much room to make in the input buffer before each read. */
#define MIN_READ_SIZE 4096

struct jsonrpc {
    struct stream *stream;      /* NULL once the connection has failed. */
    char *name;
    int status;                 /* 0, or sticky positive errno / EOF. */

    /* Received bytes not yet returned as messages are input[start, size).
     * The scanner has looked at input[start, scan) and remembers what it
     * saw in 'depth', 'in_string' and 'escaped', so each byte is examined
     * once however the data was split across reads. */
    char *input;
    size_t size, allocated;
    size_t start;
    size_t scan;
    unsigned int depth;         /* Open '{'/'[' in the current value. */
    bool in_string;
    bool escaped;               /* Previous byte was a '\' in a string. */

    size_t max_msg_size;
    size_t backlog_threshold;   /* 0: unlimited. */
    unsigned long long int received_bytes;
};

int
jsonrpc_stream_open(const char *name, struct stream **streamp, uint8_t dscp)
{
    return stream_open_with_default_port(name, JSONRPC_TCP_PORT, streamp,
                                         dscp);
}

int
jsonrpc_pstream_open(const char *name, struct pstream **pstreamp,
                     uint8_t dscp)
{
    return pstream_open_with_default_port(name, JSONRPC_TCP_PORT, pstreamp,
                                          dscp);
}

struct jsonrpc *
jsonrpc_open(struct stream *stream)
{
    ovs_assert(stream != NULL);

    struct jsonrpc *rpc = xzalloc(sizeof *rpc);
    rpc->stream = stream;
    rpc->name = xstrdup(stream_get_name(stream));
    rpc->max_msg_size = JSONRPC_DEFAULT_MAX_MSG_SIZE;
    return rpc;
}

void
jsonrpc_close(struct jsonrpc *rpc)
{
    if (rpc) {
        stream_close(rpc->stream);
        free(rpc->input);
        free(rpc->name);
        free(rpc);
    }
}

/* Makes the connection fail with ERROR (if it has not failed already). */
static void
jsonrpc_error(struct jsonrpc *rpc, int error)
{
    ovs_assert(error);
    if (!rpc->status) {
        rpc->status = error;
        /* A peer that sent garbage gets no more of our attention, nor our
         * output: hang up now instead of when the owner gets around to
         * closing us. */
        if (error != EOF) {
            stream_close(rpc->stream);
            rpc->stream = NULL;
        }
    }
}

void
jsonrpc_run(struct jsonrpc *rpc)
{
    if (rpc->status) {
        return;
    }
    stream_run(rpc->stream);

    /* Output that cannot drain because the stream broke means the owner,
     * possibly blocked in jsonrpc_send_block(), must hear about it. */
    if (stream_get_backlog(rpc->stream)) {
        int error = stream_get_error(rpc->stream);
        if (error) {
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
            VLOG_WARN_RL(&rl, "%s: send error: %s", rpc->name,
                         ovs_strerror(error));
            jsonrpc_error(rpc, error);
        }
    }
}

void
jsonrpc_wait(struct jsonrpc *rpc)
{
    if (!rpc->status) {
        stream_run_wait(rpc->stream);
        if (stream_get_backlog(rpc->stream)) {
            stream_send_wait(rpc->stream);
        }
    }
}

int
jsonrpc_get_status(const struct jsonrpc *rpc)
{
    return rpc->status;
}

size_t
jsonrpc_get_backlog(const struct jsonrpc *rpc)
{
    return rpc->status || !rpc->stream ? 0 : stream_get_backlog(rpc->stream);
}

void
jsonrpc_set_backlog_threshold(struct jsonrpc *rpc, size_t max_backlog_bytes)
{
    rpc->backlog_threshold = max_backlog_bytes;
}

void
jsonrpc_set_max_msg_size(struct jsonrpc *rpc, size_t max_bytes)
{
    rpc->max_msg_size = max_bytes;
}

unsigned long long int
jsonrpc_get_received_bytes(const struct jsonrpc *rpc)
{
    return rpc->received_bytes;
}

const char *
jsonrpc_get_name(const struct jsonrpc *rpc)
{
    return rpc->name;
}

const char *
jsonrpc_get_peer_id(const struct jsonrpc *rpc)
{
    return rpc->stream ? stream_get_peer_id(rpc->stream) : NULL;
}

static void
jsonrpc_log_msg(const struct jsonrpc *rpc, const char *title,
                const struct jsonrpc_msg *msg)
{
    if (!VLOG_IS_DBG_ENABLED()) {
        return;
    }

    struct ds s = DS_EMPTY_INITIALIZER;
    ds_put_format(&s, "%s: %s %s", rpc->name, title,
                  jsonrpc_msg_type_to_string(msg->type));
    if (msg->method) {
        ds_put_format(&s, ", method=\"%s\"", msg->method);
    }

    const struct {
        const char *name;
        const json_t *value;
    } members[] = {
        { "params", msg->params },
        { "result", msg->result },
        { "error", msg->error },
        { "id", msg->id },
    };
    for (size_t i = 0; i < ARRAY_SIZE(members); i++) {
        if (members[i].value) {
            char *text = json_dumps(members[i].value,
                                    JSON_COMPACT | JSON_ENCODE_ANY);
            ds_put_format(&s, ", %s=%s", members[i].name,
                          text ? text : "(unprintable)");
            free(text);
        }
    }
    VLOG_DBG("%s", ds_cstr(&s));
    ds_destroy(&s);
}

int
jsonrpc_send(struct jsonrpc *rpc, struct jsonrpc_msg *msg)
{
    if (rpc->status) {
        jsonrpc_msg_destroy(msg);
        return rpc->status;
    }

    jsonrpc_log_msg(rpc, "sent", msg);

    json_t *json = jsonrpc_msg_to_json(msg);
    char *text = json_dumps(json, JSON_COMPACT);
    json_decref(json);
    if (!text) {
        /* Only an invalid json_t (e.g. a string that is not UTF-8) gets
         * here: a bug in the caller, not a reason to drop the peer. */
        VLOG_ERR("%s: could not serialize message to send", rpc->name);
        return EINVAL;
    }

    int retval = stream_send(rpc->stream, text, strlen(text));
    free(text);
    if (retval < 0) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
        VLOG_WARN_RL(&rl, "%s: send error: %s", rpc->name,
                     ovs_strerror(-retval));
        jsonrpc_error(rpc, -retval);
        return rpc->status;
    }

    size_t backlog = stream_get_backlog(rpc->stream);
    if (rpc->backlog_threshold && backlog > rpc->backlog_threshold) {
        VLOG_WARN("%s: excessive sending backlog (%zu bytes, limit %zu), "
                  "disconnecting", rpc->name, backlog,
                  rpc->backlog_threshold);
        jsonrpc_error(rpc, ENOBUFS);
        return rpc->status;
    }
    return 0;
}

/* Reports a framing or parsing problem and fails the connection. */
static int OVS_PRINTF_FORMAT(2, 3)
jsonrpc_protocol_error(struct jsonrpc *rpc, const char *format, ...)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);
    va_list args;

    va_start(args, format);
    char *problem = xvasprintf(format, args);
    va_end(args);

    VLOG_WARN_RL(&rl, "%s: %s, disconnecting", rpc->name, problem);
    free(problem);
    jsonrpc_error(rpc, EPROTO);
    return EPROTO;
}

/* Fails RPC because the peer sent a message over the size limit.  The peer
 * first gets an error reply, RFC 7047's "resources exhausted" error object
 * (with a null id: the request was never parsed, so its id is unknown), so
 * that it learns why the connection closes. */
static int
jsonrpc_reject_oversize(struct jsonrpc *rpc)
{
    char *details = xasprintf("request exceeds the message size limit of "
                              "%zu bytes", rpc->max_msg_size);
    json_t *error = json_pack("{s:s, s:s}", "error", "resources exhausted",
                              "details", details);
    free(details);
    jsonrpc_send(rpc, jsonrpc_create_error(error, json_null()));
    return jsonrpc_protocol_error(
        rpc, "received message exceeds the %zu-byte limit",
        rpc->max_msg_size);
}

/* Advances the scanner over the buffered input.  Returns 0 with the
 * complete top-level value in input[start, *endp), EAGAIN if more input is
 * needed, or EPROTO. */
static int
scan_value(struct jsonrpc *rpc, size_t *endp)
{
    const char *p = rpc->input;

    while (rpc->scan < rpc->size) {
        char c = p[rpc->scan];

        if (rpc->depth == 0) {
            /* Between values: only whitespace or the start of the next
             * one. */
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                rpc->start = ++rpc->scan;
                continue;
            } else if (c != '{' && c != '[') {
                if (c >= 0x20 && c < 0x7f) {
                    return jsonrpc_protocol_error(
                        rpc, "received '%c' where a JSON object should begin",
                        c);
                }
                return jsonrpc_protocol_error(
                    rpc, "received byte 0x%02x where a JSON object should "
                    "begin", (unsigned char) c);
            }
            rpc->depth = 1;
            rpc->scan++;
            continue;
        }

        if (rpc->in_string) {
            if (rpc->escaped) {
                rpc->escaped = false;
            } else if (c == '\\') {
                rpc->escaped = true;
            } else if (c == '"') {
                rpc->in_string = false;
            }
        } else if (c == '"') {
            rpc->in_string = true;
        } else if (c == '{' || c == '[') {
            rpc->depth++;
        } else if (c == '}' || c == ']') {
            /* Mismatched pairs such as "{]" are left to the parser. */
            if (--rpc->depth == 0) {
                *endp = ++rpc->scan;
                return 0;
            }
        }
        rpc->scan++;
    }

    if (rpc->depth && rpc->scan - rpc->start > rpc->max_msg_size) {
        return jsonrpc_reject_oversize(rpc);
    }
    return EAGAIN;
}

/* Tries to take one complete message out of the buffered input: 0 with
 * *MSGP set, EAGAIN if none is complete, or EPROTO. */
static int
parse_buffered(struct jsonrpc *rpc, struct jsonrpc_msg **msgp)
{
    size_t end = 0;
    int error = scan_value(rpc, &end);
    if (error) {
        return error;
    }

    size_t length = end - rpc->start;
    if (length > rpc->max_msg_size) {
        return jsonrpc_reject_oversize(rpc);
    }

    json_error_t json_error;
    json_t *json = json_loadb(rpc->input + rpc->start, length, 0,
                              &json_error);
    rpc->start = end;
    if (rpc->start == rpc->size) {
        rpc->start = rpc->scan = rpc->size = 0;
    }
    if (!json) {
        return jsonrpc_protocol_error(rpc, "error parsing JSON: line %d, "
                                      "column %d: %s", json_error.line,
                                      json_error.column, json_error.text);
    }

    char *problem = jsonrpc_msg_from_json(json, msgp);
    if (problem) {
        jsonrpc_protocol_error(rpc, "received bad JSON-RPC message: %s",
                               problem);
        free(problem);
        return EPROTO;
    }
    jsonrpc_log_msg(rpc, "received", *msgp);
    return 0;
}

/* Makes room for at least MIN_READ_SIZE more bytes of input. */
static void
make_room(struct jsonrpc *rpc)
{
    /* Dropping consumed bytes only once they make up half the buffer keeps
     * the copying proportional to the input. */
    if (rpc->start && rpc->start >= rpc->allocated / 2) {
        size_t n = rpc->size - rpc->start;
        memmove(rpc->input, rpc->input + rpc->start, n);
        rpc->scan -= rpc->start;
        rpc->size = n;
        rpc->start = 0;
    }
    if (rpc->allocated - rpc->size < MIN_READ_SIZE) {
        size_t new_allocated = MAX(rpc->allocated * 2,
                                   rpc->size + MIN_READ_SIZE);
        rpc->input = xrealloc(rpc->input, new_allocated);
        rpc->allocated = new_allocated;
    }
}

int
jsonrpc_recv(struct jsonrpc *rpc, struct jsonrpc_msg **msgp)
{
    *msgp = NULL;
    if (rpc->status) {
        return rpc->status;
    }

    for (int i = 0; i < MAX_READS_PER_RECV; i++) {
        int error = parse_buffered(rpc, msgp);
        if (error != EAGAIN) {
            return error;
        }

        make_room(rpc);
        int retval = stream_recv(rpc->stream, rpc->input + rpc->size,
                                 rpc->allocated - rpc->size);
        if (retval > 0) {
            rpc->size += retval;
            rpc->received_bytes += retval;
        } else if (retval == -EAGAIN) {
            return EAGAIN;
        } else if (retval == 0) {
            if (rpc->size > rpc->start) {
                static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
                VLOG_WARN_RL(&rl, "%s: connection closed in the middle of "
                             "a message (%zu bytes received)", rpc->name,
                             rpc->size - rpc->start);
            }
            jsonrpc_error(rpc, EOF);
            return EOF;
        } else {
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
            VLOG_WARN_RL(&rl, "%s: receive error: %s", rpc->name,
                         ovs_strerror(-retval));
            jsonrpc_error(rpc, -retval);
            return rpc->status;
        }
    }
    return EAGAIN;
}

void
jsonrpc_recv_wait(struct jsonrpc *rpc)
{
    if (rpc->status || rpc->scan < rpc->size) {
        /* A failure to report, or bytes not yet looked at. */
        poll_immediate_wake();
    } else {
        stream_recv_wait(rpc->stream);
    }
}

int
jsonrpc_send_block(struct jsonrpc *rpc, struct jsonrpc_msg *msg)
{
    int error = jsonrpc_send(rpc, msg);
    if (error) {
        return error;
    }

    for (;;) {
        jsonrpc_run(rpc);
        if (!jsonrpc_get_backlog(rpc) || rpc->status) {
            return rpc->status;
        }
        jsonrpc_wait(rpc);
        poll_block();
    }
}

int
jsonrpc_recv_block(struct jsonrpc *rpc, struct jsonrpc_msg **msgp)
{
    for (;;) {
        int error = jsonrpc_recv(rpc, msgp);
        if (error != EAGAIN) {
            if (!error && (*msgp)->type == JSONRPC_REQUEST
                && !strcmp((*msgp)->method, "echo")) {
                struct jsonrpc_msg *request = *msgp;
                *msgp = NULL;
                jsonrpc_send(rpc, jsonrpc_create_reply(
                                 json_incref(request->params),
                                 json_incref(request->id)));
                jsonrpc_msg_destroy(request);
                continue;
            }
            return error;
        }

        jsonrpc_run(rpc);
        jsonrpc_wait(rpc);
        jsonrpc_recv_wait(rpc);
        poll_block();
    }
}

int
jsonrpc_transact_block(struct jsonrpc *rpc, struct jsonrpc_msg *request,
                       struct jsonrpc_msg **replyp)
{
    ovs_assert(request->type == JSONRPC_REQUEST);

    *replyp = NULL;
    json_t *id = json_incref(request->id);
    int error = jsonrpc_send_block(rpc, request);
    while (!error) {
        struct jsonrpc_msg *reply;
        error = jsonrpc_recv_block(rpc, &reply);
        if (error) {
            break;
        }
        if ((reply->type == JSONRPC_REPLY || reply->type == JSONRPC_ERROR)
            && json_equal(reply->id, id)) {
            *replyp = reply;
            break;
        }
        jsonrpc_msg_destroy(reply);
    }
    json_decref(id);
    return error;
}
