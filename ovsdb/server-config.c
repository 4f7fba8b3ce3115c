#include <config.h>
#include "server-config.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(server_config);

void
server_config_init(struct server_config *c)
{
    sset_init(&c->remotes);
    sset_init(&c->databases);
    c->sync_from = NULL;
    c->sync_exclude = NULL;
    c->backup = false;
}

void
server_config_destroy(struct server_config *c)
{
    sset_destroy(&c->remotes);
    sset_destroy(&c->databases);
    free(c->sync_from);
    free(c->sync_exclude);
}

int
server_config_file_open(void)
{
    FILE *file = tmpfile();
    if (!file) {
        VLOG_WARN("could not create temporary file for the configuration "
                  "(%s): a restarted daemon starts from the command line",
                  ovs_strerror(errno));
        return -1;
    }
    /* The FILE is never used again; only its descriptor, which stays open
     * for the life of the process and its children. */
    int fd = dup(fileno(file));
    fclose(file);
    return fd;
}

static json_t *
sset_to_json(const struct sset *set)
{
    json_t *array = json_array();
    const char **names = sset_sort(set);
    for (size_t i = 0; i < sset_count(set); i++) {
        json_array_append_new(array, json_string(names[i]));
    }
    free(names);
    return array;
}

void
server_config_save(int fd, const struct server_config *c)
{
    if (fd < 0) {
        return;
    }
    json_t *json = json_object();
    json_object_set_new(json, "remotes", sset_to_json(&c->remotes));
    json_object_set_new(json, "databases", sset_to_json(&c->databases));
    if (c->sync_from) {
        json_object_set_new(json, "sync_from", json_string(c->sync_from));
    }
    if (c->sync_exclude) {
        json_object_set_new(json, "sync_exclude",
                            json_string(c->sync_exclude));
    }
    json_object_set_new(json, "backup", json_boolean(c->backup));
    char *s = json_dumps(json, JSON_COMPACT);
    json_decref(json);

    size_t len = strlen(s);
    if (ftruncate(fd, 0) || pwrite(fd, s, len, 0) != (ssize_t) len) {
        VLOG_WARN("could not save the configuration (%s)",
                  ovs_strerror(errno));
    }
    free(s);
}

static bool
json_to_sset(const json_t *array, struct sset *set)
{
    size_t i;
    json_t *elem;
    if (!json_is_array(array)) {
        return false;
    }
    json_array_foreach (array, i, elem) {
        if (!json_is_string(elem)) {
            return false;
        }
        sset_add(set, json_string_value(elem));
    }
    return true;
}

static char *
optional_string(const json_t *json)
{
    return json_is_string(json) ? xstrdup(json_string_value(json)) : NULL;
}

bool
server_config_load(int fd, struct server_config *c)
{
    if (fd < 0) {
        return false;
    }
    off_t size = lseek(fd, 0, SEEK_END);
    if (size <= 0) {
        return false;
    }
    char *buf = xmalloc(size + 1);
    ssize_t n = pread(fd, buf, size, 0);
    if (n != size) {
        free(buf);
        return false;
    }
    buf[size] = '\0';
    json_error_t jerror;
    json_t *json = json_loads(buf, 0, &jerror);
    free(buf);

    bool ok = (json_is_object(json)
               && json_to_sset(json_object_get(json, "remotes"),
                               &c->remotes)
               && json_to_sset(json_object_get(json, "databases"),
                               &c->databases));
    if (ok) {
        c->sync_from = optional_string(json_object_get(json, "sync_from"));
        c->sync_exclude = optional_string(json_object_get(json,
                                                          "sync_exclude"));
        c->backup = json_is_true(json_object_get(json, "backup"));
    } else {
        VLOG_WARN("ignoring a saved configuration that does not parse");
    }
    json_decref(json);
    return ok;
}
