#include <config.h>
#include "ovsdb-server-status.h"

#include <stdlib.h>
#include <string.h>
#include "util.h"

/* An optional column's value: the atom itself, or ["set", [ATOM]] (one
 * element), or NULL for ["set", []] and anything else. */
static const json_t *
optional_atom(const json_t *value)
{
    if (json_is_array(value) && json_array_size(value) == 2
        && json_is_string(json_array_get(value, 0))
        && !strcmp(json_string_value(json_array_get(value, 0)), "set")) {
        const json_t *elems = json_array_get(value, 1);
        return (json_is_array(elems) && json_array_size(elems) == 1
                ? json_array_get(elems, 0) : NULL);
    }
    return value;
}

bool
ovsdb_server_status_from_row(struct ovsdb_server_status *status,
                             const json_t *row)
{
    memset(status, 0, sizeof *status);
    const json_t *name = json_object_get(row, "name");
    const json_t *model = json_object_get(row, "model");
    if (!json_is_string(name) || !json_is_string(model)) {
        return false;
    }
    status->name = xstrdup(json_string_value(name));
    status->model = xstrdup(json_string_value(model));
    status->connected = json_is_true(json_object_get(row, "connected"));
    status->leader = json_is_true(json_object_get(row, "leader"));

    const json_t *cid = optional_atom(json_object_get(row, "cid"));
    if (json_is_array(cid) && json_array_size(cid) == 2
        && json_is_string(json_array_get(cid, 1))) {
        status->has_cid = uuid_from_string(
            &status->cid, json_string_value(json_array_get(cid, 1)));
    }
    const json_t *index = optional_atom(json_object_get(row, "index"));
    if (json_is_integer(index) && json_integer_value(index) >= 0) {
        status->has_index = true;
        status->index = json_integer_value(index);
    }
    return true;
}

void
ovsdb_server_status_uninit(struct ovsdb_server_status *status)
{
    free(status->name);
    free(status->model);
    status->name = status->model = NULL;
}

const char *
ovsdb_server_status_check(const struct ovsdb_server_status *status,
                          bool leader_only,
                          struct ovsdb_server_memory *memory)
{
    if (!status) {
        return "does not have the database";
    }
    if (!strcmp(status->model, "clustered")) {
        if (!status->connected) {
            return "is disconnected from cluster";
        }
        if (leader_only && !status->leader) {
            return "is not cluster leader";
        }
        if (status->has_cid) {
            if (memory->has_cid && !uuid_equals(&memory->cid, &status->cid)) {
                return "has unexpected cluster ID";
            }
        }
        if (status->has_index && status->index < memory->min_index) {
            return "has stale data";
        }
        if (status->has_cid) {
            memory->has_cid = true;
            memory->cid = status->cid;
        }
        if (status->has_index) {
            memory->min_index = status->index;
        }
    } else if (!strcmp(status->model, "relay") && !status->connected) {
        return "is disconnected from its source";
    }
    return NULL;
}
