/* Parsing and writing the records of clustered database files. */
#include <config.h>

#include "raft-records.h"

#include <inttypes.h>
#include <string.h>
#include <sys/socket.h>
#include "ovsdb-error.h"
#include "socket-util.h"

struct ovsdb_error *
raft_address_validate(const char *address)
{
    if (!strncmp(address, "unix:", 5)) {
        return NULL;
    }
    if (!strncmp(address, "tcp:", 4) || !strncmp(address, "ssl:", 4)) {
        struct sockaddr_storage ss;
        if (inet_parse_active(address + 4, 0, &ss)) {
            return ovsdb_error(NULL, "%s: syntax error in address", address);
        }
        return NULL;
    }
    return ovsdb_error(NULL, "%s: expected \"tcp\" or \"ssl\" address",
                       address);
}

char *
raft_address_to_nickname(const char *address, const struct uuid *sid)
{
    if (!strncmp(address, "unix:", 5)) {
        const char *base = strrchr(address + 5, '/');
        base = base ? base + 1 : address + 5;
        size_t len = strcspn(base, ".");
        if (len) {
            return xmemdup0(base, len);
        }
    }
    return xasprintf("%04x", sid->parts[0] >> 16);
}

struct ovsdb_error *
raft_servers_validate_json(const json_t *json)
{
    if (!json_is_object(json)) {
        return ovsdb_syntax_error(json, NULL, "servers must be JSON object");
    }
    if (!json_object_size(json)) {
        return ovsdb_syntax_error(json, NULL, "must have at least one server");
    }
    const char *key;
    json_t *value;
    json_object_foreach ((json_t *) json, key, value) {
        struct uuid sid;
        if (!uuid_from_string(&sid, key)) {
            return ovsdb_syntax_error(json, NULL, "%s is not a UUID", key);
        }
        if (!json_is_string(value)) {
            return ovsdb_syntax_error(value, NULL,
                                      "server address is not string");
        }
        struct ovsdb_error *error
            = raft_address_validate(json_string_value(value));
        if (error) {
            return error;
        }
    }
    return NULL;
}

/* Member helpers. */

static const json_t *
member(const json_t *obj, const char *name, bool optional, const char *what,
       struct ovsdb_error **errorp)
{
    const json_t *m = json_object_get(obj, name);
    if (!m && !optional && !*errorp) {
        *errorp = ovsdb_syntax_error(obj, NULL, "Parsing %s failed: "
                                     "Required '%s' member is missing.",
                                     what, name);
    }
    return m;
}

static void
type_error(const json_t *obj, const char *name, const char *type,
           const char *what, struct ovsdb_error **errorp)
{
    if (!*errorp) {
        *errorp = ovsdb_syntax_error(obj, NULL, "Parsing %s failed: "
                                     "Type mismatch for member '%s' "
                                     "(expected %s).", what, name, type);
    }
}

bool
raft_json_uint64(const json_t *obj, const char *name, bool optional,
                 uint64_t *value, const char *what,
                 struct ovsdb_error **errorp)
{
    *value = 0;
    const json_t *m = member(obj, name, optional, what, errorp);
    if (!m) {
        return false;
    }
    if (!json_is_integer(m) || json_integer_value(m) < 0) {
        type_error(obj, name, "integer", what, errorp);
        return false;
    }
    *value = json_integer_value(m);
    return true;
}

bool
raft_json_string(const json_t *obj, const char *name, bool optional,
                 const char **value, const char *what,
                 struct ovsdb_error **errorp)
{
    *value = NULL;
    const json_t *m = member(obj, name, optional, what, errorp);
    if (!m) {
        return false;
    }
    if (!json_is_string(m)) {
        type_error(obj, name, "string", what, errorp);
        return false;
    }
    *value = json_string_value(m);
    return true;
}

bool
raft_json_uuid(const json_t *obj, const char *name, bool optional,
               struct uuid *uuid, const char *what,
               struct ovsdb_error **errorp)
{
    const char *s;
    uuid_zero(uuid);
    if (!raft_json_string(obj, name, optional, &s, what, errorp)) {
        return false;
    }
    if (!uuid_from_string(uuid, s)) {
        if (!*errorp) {
            *errorp = ovsdb_syntax_error(obj, NULL, "%s is not a valid UUID",
                                         name);
        }
        return false;
    }
    return true;
}

void
raft_json_put_uuid(json_t *obj, const char *name, const struct uuid *uuid)
{
    char s[UUID_LEN + 1];
    uuid_format(uuid, s);
    json_object_set_new(obj, name, json_string(s));
}

static void
put_uint64(json_t *obj, const char *name, uint64_t value)
{
    json_object_set_new(obj, name, json_integer(value));
}

static json_t *
clone_or_null(const json_t *json)
{
    return json ? json_deep_copy(json) : NULL;
}

/* Header. */

void
raft_header_uninit(struct raft_header *h)
{
    if (h) {
        free(h->name);
        free(h->local_address);
        sset_destroy(&h->remote_addresses);
        json_decref(h->snap_servers);
        json_decref(h->snap_data);
        memset(h, 0, sizeof *h);
    }
}

struct ovsdb_error *
raft_header_from_json(struct raft_header *h, const json_t *json)
{
    static const char what[] = "raft header";
    struct ovsdb_error *error = NULL;
    const char *s;

    memset(h, 0, sizeof *h);
    sset_init(&h->remote_addresses);
    if (!json_is_object(json)) {
        return ovsdb_syntax_error(json, NULL, "raft header is not an object");
    }

    raft_json_uuid(json, "server_id", false, &h->sid, what, &error);
    if (raft_json_string(json, "name", false, &s, what, &error)) {
        h->name = xstrdup(s);
    }
    if (raft_json_string(json, "local_address", false, &s, what, &error)) {
        h->local_address = xstrdup(s);
    }

    const json_t *remotes = json_object_get(json, "remote_addresses");
    h->joining = remotes != NULL;
    if (h->joining) {
        if (!json_is_array(remotes) || !json_array_size(remotes)) {
            error = error ? error : ovsdb_syntax_error(
                remotes, NULL, "at least one remote address is required");
        } else {
            size_t i;
            json_t *a;
            json_array_foreach (remotes, i, a) {
                if (!json_is_string(a)) {
                    error = error ? error : ovsdb_syntax_error(
                        a, NULL, "server address is not string");
                    break;
                }
                sset_add(&h->remote_addresses, json_string_value(a));
            }
            if (!error && h->local_address
                && sset_find_and_delete(&h->remote_addresses,
                                        h->local_address)
                && sset_is_empty(&h->remote_addresses)) {
                error = ovsdb_syntax_error(json, NULL, "at least one remote "
                                           "address (other than the local "
                                           "address) is required");
            }
        }
    }
    /* A joining server that has received a snapshot keeps its remote
     * addresses next to it until it is in the configuration, so that it
     * still asks to join after a restart. */
    if (!h->joining || json_object_get(json, "prev_servers")) {
        const json_t *servers = member(json, "prev_servers", false, what,
                                       &error);
        if (servers) {
            struct ovsdb_error *e = raft_servers_validate_json(servers);
            if (e && !error) {
                error = e;
            } else {
                ovsdb_error_destroy(e);
            }
            h->snap_servers = json_deep_copy(servers);
        }
        if (raft_json_uint64(json, "prev_index", true, &h->snap_index, what,
                             &error) && h->snap_index) {
            h->snap_data = clone_or_null(json_object_get(json, "prev_data"));
            raft_json_uuid(json, "prev_eid", false, &h->snap_eid, what,
                           &error);
            raft_json_uint64(json, "prev_term", false, &h->snap_term, what,
                             &error);
            raft_json_uint64(json, "prev_election_timer", true,
                             &h->snap_election_timer, what, &error);
        }
    }
    raft_json_uuid(json, "cluster_id", h->joining, &h->cid, what, &error);

    if (error) {
        raft_header_uninit(h);
    }
    return error;
}

json_t *
raft_header_to_json(const struct raft_header *h)
{
    json_t *json = json_object();
    raft_json_put_uuid(json, "server_id", &h->sid);
    if (!uuid_is_zero(&h->cid)) {
        raft_json_put_uuid(json, "cluster_id", &h->cid);
    }
    json_object_set_new(json, "local_address", json_string(h->local_address));
    json_object_set_new(json, "name", json_string(h->name));
    if (!sset_is_empty(&h->remote_addresses)) {
        json_t *remotes = json_array();
        const char *s;
        SSET_FOR_EACH (s, &h->remote_addresses) {
            json_array_append_new(remotes, json_string(s));
        }
        json_object_set_new(json, "remote_addresses", remotes);
    }
    if (h->snap_servers) {
        json_object_set_new(json, "prev_servers",
                            json_deep_copy(h->snap_servers));
    }
    if (h->snap_index) {
        put_uint64(json, "prev_index", h->snap_index);
        put_uint64(json, "prev_term", h->snap_term);
        if (h->snap_data) {
            json_object_set_new(json, "prev_data",
                                json_deep_copy(h->snap_data));
        }
        raft_json_put_uuid(json, "prev_eid", &h->snap_eid);
        if (h->snap_election_timer) {
            put_uint64(json, "prev_election_timer", h->snap_election_timer);
        }
    }
    return json;
}

/* Entries. */

void
raft_entry_uninit(struct raft_entry *e)
{
    if (e) {
        json_decref(e->data);
        json_decref(e->servers);
        e->data = e->servers = NULL;
    }
}

void
raft_entry_clone(struct raft_entry *dst, const struct raft_entry *src)
{
    *dst = *src;
    dst->data = json_incref(src->data);
    dst->servers = json_incref(src->servers);
}

/* Parses the members an entry has in a record and in a message (all but
 * "term" and "index"). */
static void
entry_body_from_json(struct raft_entry *e, const json_t *json,
                     const char *what, struct ovsdb_error **errorp)
{
    const json_t *servers = json_object_get(json, "servers");
    if (servers) {
        struct ovsdb_error *e2 = raft_servers_validate_json(servers);
        if (e2 && !*errorp) {
            *errorp = e2;
        } else {
            ovsdb_error_destroy(e2);
        }
        e->servers = json_deep_copy(servers);
    }
    raft_json_uint64(json, "election_timer", true, &e->election_timer, what,
                     errorp);
    const json_t *data = json_object_get(json, "data");
    if (data) {
        if (!json_is_object(data) && !json_is_array(data)) {
            type_error(json, "data", "object or array", what, errorp);
        } else {
            e->data = json_deep_copy(data);
            raft_json_uuid(json, "eid", false, &e->eid, what, errorp);
        }
    }
}

static void
entry_body_to_json(const struct raft_entry *e, json_t *json)
{
    if (e->data) {
        json_object_set_new(json, "data", json_deep_copy(e->data));
        raft_json_put_uuid(json, "eid", &e->eid);
    }
    if (e->servers) {
        json_object_set_new(json, "servers", json_deep_copy(e->servers));
    }
    if (e->election_timer) {
        put_uint64(json, "election_timer", e->election_timer);
    }
}

struct ovsdb_error *
raft_entry_from_json(struct raft_entry *e, const json_t *json)
{
    static const char what[] = "raft log entry";
    struct ovsdb_error *error = NULL;
    memset(e, 0, sizeof *e);
    if (!json_is_object(json)) {
        return ovsdb_syntax_error(json, NULL, "log entry is not an object");
    }
    raft_json_uint64(json, "term", false, &e->term, what, &error);
    entry_body_from_json(e, json, what, &error);
    if (error) {
        raft_entry_uninit(e);
    }
    return error;
}

json_t *
raft_entry_to_json(const struct raft_entry *e)
{
    json_t *json = json_object();
    put_uint64(json, "term", e->term);
    entry_body_to_json(e, json);
    return json;
}

/* Records. */

void
raft_record_uninit(struct raft_record *r)
{
    if (r) {
        free(r->comment);
        free(r->note);
        raft_entry_uninit(&r->entry);
        memset(r, 0, sizeof *r);
    }
}

struct ovsdb_error *
raft_record_from_json(struct raft_record *r, const json_t *json)
{
    static const char what[] = "raft log record";
    struct ovsdb_error *error = NULL;
    const char *s;

    memset(r, 0, sizeof *r);
    if (!json_is_object(json)) {
        return ovsdb_syntax_error(json, NULL, "raft log record is not an "
                                  "object");
    }
    if (raft_json_string(json, "comment", true, &s, what, &error)) {
        r->comment = xstrdup(s);
    }

    if (raft_json_string(json, "note", true, &s, what, &error)) {
        r->type = RAFT_REC_NOTE;
        r->note = xstrdup(s);
    } else if (raft_json_uint64(json, "commit_index", true, &r->commit_index,
                                what, &error) && r->commit_index) {
        r->type = RAFT_REC_COMMIT_INDEX;
    } else {
        raft_json_uint64(json, "term", false, &r->term, what, &error);
        if (raft_json_uuid(json, "leader", true, &r->sid, what, &error)) {
            r->type = RAFT_REC_LEADER;
            if (uuid_is_zero(&r->sid) && !error) {
                error = ovsdb_syntax_error(json, NULL, "record says leader "
                                           "is all-zeros SID");
            }
        } else if (raft_json_uuid(json, "vote", true, &r->sid, what,
                                  &error)) {
            r->type = RAFT_REC_VOTE;
            if (uuid_is_zero(&r->sid) && !error) {
                error = ovsdb_syntax_error(json, NULL, "record votes for "
                                           "all-zeros SID");
            }
        } else if (raft_json_uint64(json, "index", true, &r->index, what,
                                    &error) && r->index) {
            r->type = RAFT_REC_ENTRY;
            r->entry.term = r->term;
            entry_body_from_json(&r->entry, json, what, &error);
        } else {
            r->type = RAFT_REC_TERM;
        }
    }

    if (error) {
        raft_record_uninit(r);
    }
    return error;
}

json_t *
raft_record_to_json(const struct raft_record *r)
{
    json_t *json = json_object();
    if (r->comment && r->comment[0]) {
        json_object_set_new(json, "comment", json_string(r->comment));
    }
    switch (r->type) {
    case RAFT_REC_ENTRY:
        put_uint64(json, "term", r->term);
        put_uint64(json, "index", r->index);
        entry_body_to_json(&r->entry, json);
        break;
    case RAFT_REC_TERM:
        put_uint64(json, "term", r->term);
        break;
    case RAFT_REC_VOTE:
        put_uint64(json, "term", r->term);
        raft_json_put_uuid(json, "vote", &r->sid);
        break;
    case RAFT_REC_LEADER:
        put_uint64(json, "term", r->term);
        raft_json_put_uuid(json, "leader", &r->sid);
        break;
    case RAFT_REC_COMMIT_INDEX:
        put_uint64(json, "commit_index", r->commit_index);
        break;
    case RAFT_REC_NOTE:
        json_object_set_new(json, "note", json_string(r->note));
        break;
    }
    return json;
}
