#include <config.h>
#include "jsonrpc.h"

/* JSON-RPC 1.0 messages: construction, validation and conversion to and from
 * jansson values.  The connection and session code lives in jsonrpc.c and
 * jsonrpc-session.c. */

#include <stdlib.h>
#include <string.h>

#include "util.h"

static struct jsonrpc_msg *
msg_create(enum jsonrpc_msg_type type, const char *method, json_t *params,
           json_t *result, json_t *error, json_t *id)
{
    struct jsonrpc_msg *msg = xmalloc(sizeof *msg);
    msg->type = type;
    msg->method = method ? xstrdup(method) : NULL;
    msg->params = params;
    msg->result = result;
    msg->error = error;
    msg->id = id;
    return msg;
}

json_t *
jsonrpc_create_id(void)
{
    /* Shared by every thread, so ids stay unique process-wide. */
    static unsigned long long int next_id;
    unsigned long long int id = __atomic_fetch_add(&next_id, 1,
                                                   __ATOMIC_RELAXED);
    return json_integer((json_int_t) (id & 0x7fffffffffffffffULL));
}

struct jsonrpc_msg *
jsonrpc_create_request(const char *method, json_t *params, json_t **idp)
{
    json_t *id = jsonrpc_create_id();
    if (idp) {
        *idp = json_incref(id);
    }
    return msg_create(JSONRPC_REQUEST, method, params, NULL, NULL, id);
}

struct jsonrpc_msg *
jsonrpc_create_notify(const char *method, json_t *params)
{
    return msg_create(JSONRPC_NOTIFY, method, params, NULL, NULL, NULL);
}

struct jsonrpc_msg *
jsonrpc_create_reply(json_t *result, json_t *id)
{
    return msg_create(JSONRPC_REPLY, NULL, NULL, result, NULL, id);
}

struct jsonrpc_msg *
jsonrpc_create_error(json_t *error, json_t *id)
{
    return msg_create(JSONRPC_ERROR, NULL, NULL, NULL, error, id);
}

static json_t *
copy_json(const json_t *json)
{
    /* Deep, so that a clone can be modified without touching the original. */
    return json ? json_deep_copy(json) : NULL;
}

struct jsonrpc_msg *
jsonrpc_msg_clone(const struct jsonrpc_msg *old)
{
    return msg_create(old->type, old->method, copy_json(old->params),
                      copy_json(old->result), copy_json(old->error),
                      copy_json(old->id));
}

void
jsonrpc_msg_destroy(struct jsonrpc_msg *msg)
{
    if (msg) {
        free(msg->method);
        json_decref(msg->params);
        json_decref(msg->result);
        json_decref(msg->error);
        json_decref(msg->id);
        free(msg);
    }
}

const char *
jsonrpc_msg_type_to_string(enum jsonrpc_msg_type type)
{
    switch (type) {
    case JSONRPC_REQUEST:
        return "request";
    case JSONRPC_NOTIFY:
        return "notification";
    case JSONRPC_REPLY:
        return "reply";
    case JSONRPC_ERROR:
        return "error";
    }
    return "(bad message type)";
}

char *
jsonrpc_msg_is_valid(const struct jsonrpc_msg *m)
{
    /* Which members each type must (1) or must not (0) have, in the order
     * method, params, result, error, id. */
    static const char *const names[5] = {
        "method", "params", "result", "error", "id"
    };
    static const bool required[4][5] = {
        [JSONRPC_REQUEST] = { 1, 1, 0, 0, 1 },
        [JSONRPC_NOTIFY] =  { 1, 1, 0, 0, 0 },
        [JSONRPC_REPLY] =   { 0, 0, 1, 0, 1 },
        [JSONRPC_ERROR] =   { 0, 0, 0, 1, 1 },
    };

    if (m->type > JSONRPC_ERROR) {
        return xasprintf("message has bad type %d", (int) m->type);
    }

    const bool present[5] = {
        m->method != NULL, m->params != NULL, m->result != NULL,
        m->error != NULL, m->id != NULL
    };
    const char *type = jsonrpc_msg_type_to_string(m->type);
    for (size_t i = 0; i < 5; i++) {
        if (present[i] != required[m->type][i]) {
            return xasprintf("%s %s have \"%s\"", type,
                             required[m->type][i] ? "must" : "must not",
                             names[i]);
        }
    }
    if (m->params && !json_is_array(m->params)) {
        return xasprintf("\"params\" must be a JSON array");
    }
    return NULL;
}

char *
jsonrpc_msg_from_json(json_t *json, struct jsonrpc_msg **msgp)
{
    *msgp = NULL;

    if (!json_is_object(json)) {
        json_decref(json);
        return xstrdup("message is not a JSON object");
    }

    const char *key;
    json_t *value;
    json_object_foreach (json, key, value) {
        if (strcmp(key, "method") && strcmp(key, "params")
            && strcmp(key, "result") && strcmp(key, "error")
            && strcmp(key, "id")) {
            char *error = xasprintf("message has unexpected member \"%s\"",
                                    key);
            json_decref(json);
            return error;
        }
    }

    json_t *method = json_object_get(json, "method");
    json_t *params = json_object_get(json, "params");
    json_t *result = json_object_get(json, "result");
    json_t *error = json_object_get(json, "error");
    json_t *id = json_object_get(json, "id");

    if (method && !json_is_string(method)) {
        json_decref(json);
        return xstrdup("\"method\" is not a JSON string");
    }

    /* JSON-RPC 1.0 spells "absent" as null in several places: a
     * notification's id, a reply's error, an error's result. */
    enum jsonrpc_msg_type type;
    if (method) {
        if (json_is_null(id)) {
            id = NULL;
        }
        type = id ? JSONRPC_REQUEST : JSONRPC_NOTIFY;
    } else if (error && !json_is_null(error)) {
        if (json_is_null(result)) {
            result = NULL;
        }
        type = JSONRPC_ERROR;
    } else if (result) {
        if (json_is_null(error)) {
            error = NULL;
        }
        type = JSONRPC_REPLY;
    } else {
        json_decref(json);
        return xstrdup("message is not a JSON-RPC request, notification, "
                       "reply or error");
    }

    struct jsonrpc_msg *msg = msg_create(
        type, method ? json_string_value(method) : NULL,
        json_incref(params), json_incref(result), json_incref(error),
        json_incref(id));
    json_decref(json);

    char *problem = jsonrpc_msg_is_valid(msg);
    if (problem) {
        jsonrpc_msg_destroy(msg);
        return problem;
    }
    *msgp = msg;
    return NULL;
}

/* Builds the wire form of M, taking new references to its members. */
static json_t *
msg_to_json__(const struct jsonrpc_msg *m)
{
    json_t *json = json_object();

    if (m->method) {
        json_object_set_new(json, "method", json_string(m->method));
    }
    if (m->params) {
        json_object_set(json, "params", m->params);
    }
    if (m->result) {
        json_object_set(json, "result", m->result);
    } else if (m->type == JSONRPC_ERROR) {
        json_object_set_new(json, "result", json_null());
    }
    if (m->error) {
        json_object_set(json, "error", m->error);
    } else if (m->type == JSONRPC_REPLY) {
        json_object_set_new(json, "error", json_null());
    }
    if (m->id) {
        json_object_set(json, "id", m->id);
    } else if (m->type == JSONRPC_NOTIFY) {
        json_object_set_new(json, "id", json_null());
    }
    return json;
}

json_t *
jsonrpc_msg_to_json(struct jsonrpc_msg *m)
{
    json_t *json = msg_to_json__(m);
    jsonrpc_msg_destroy(m);
    return json;
}

char *
jsonrpc_msg_to_string(const struct jsonrpc_msg *m)
{
    json_t *json = msg_to_json__(m);
    char *s = json_dumps(json, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(json);
    return s ? s : xstrdup("(unprintable message)");
}
