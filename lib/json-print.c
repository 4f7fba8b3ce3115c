#include <config.h>
#include "json-print.h"

#include <float.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "shash.h"
#include "util.h"

struct printer {
    struct ds *out;
    int flags;
    int depth;
};

static void print_value(struct printer *, const json_t *);

/* In pretty mode every element starts on a new line, indented by depth. */
static void
new_line(struct printer *p)
{
    if (p->flags & JSON_PRINT_PRETTY) {
        ds_put_char(p->out, '\n');
        ds_put_char_multiple(p->out, ' ', 2 * p->depth);
    }
}

static void
print_string_len(struct ds *out, const char *s, size_t n)
{
    ds_put_char(out, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        switch (c) {
        case '"':
            ds_put_cstr(out, "\\\"");
            break;
        case '\\':
            ds_put_cstr(out, "\\\\");
            break;
        case '\b':
            ds_put_cstr(out, "\\b");
            break;
        case '\f':
            ds_put_cstr(out, "\\f");
            break;
        case '\n':
            ds_put_cstr(out, "\\n");
            break;
        case '\r':
            ds_put_cstr(out, "\\r");
            break;
        case '\t':
            ds_put_cstr(out, "\\t");
            break;
        default:
            if (c < 0x20) {
                ds_put_format(out, "\\u%04x", c);
            } else {
                ds_put_char(out, c);
            }
            break;
        }
    }
    ds_put_char(out, '"');
}

void
json_print_string(struct ds *out, const char *s)
{
    print_string_len(out, s, strlen(s));
}

static int
compare_keys(const void *a_, const void *b_)
{
    const char *const *a = a_;
    const char *const *b = b_;
    return strcmp(*a, *b);
}

static void
print_object(struct printer *p, const json_t *json)
{
    size_t n = json_object_size(json);
    const char **keys = xmalloc((n ? n : 1) * sizeof *keys);
    size_t i = 0;
    const char *key;
    json_t *value;

    json_object_foreach ((json_t *) json, key, value) {
        keys[i++] = key;
    }
    if (p->flags & JSON_PRINT_SORT) {
        qsort(keys, n, sizeof *keys, compare_keys);
    }

    /* Open vSwitch breaks the line after "{" even when the object is empty,
     * but not after "[" of an empty array. */
    ds_put_char(p->out, '{');
    p->depth++;
    new_line(p);
    for (i = 0; i < n; i++) {
        if (i) {
            ds_put_char(p->out, ',');
            new_line(p);
        }
        json_print_string(p->out, keys[i]);
        ds_put_cstr(p->out, p->flags & JSON_PRINT_PRETTY ? ": " : ":");
        print_value(p, json_object_get(json, keys[i]));
    }
    p->depth--;
    ds_put_char(p->out, '}');
    free(keys);
}

static void
print_array(struct printer *p, const json_t *json)
{
    size_t n = json_array_size(json);

    ds_put_char(p->out, '[');
    p->depth++;
    for (size_t i = 0; i < n; i++) {
        if (i) {
            ds_put_char(p->out, ',');
        }
        new_line(p);
        print_value(p, json_array_get(json, i));
    }
    p->depth--;
    ds_put_char(p->out, ']');
}

static void
print_value(struct printer *p, const json_t *json)
{
    switch (json ? json_typeof(json) : JSON_NULL) {
    case JSON_OBJECT:
        print_object(p, json);
        break;
    case JSON_ARRAY:
        print_array(p, json);
        break;
    case JSON_STRING:
        print_string_len(p->out, json_string_value(json),
                         json_string_length(json));
        break;
    case JSON_INTEGER:
        ds_put_format(p->out, "%" JSON_INTEGER_FORMAT,
                      json_integer_value(json));
        break;
    case JSON_REAL:
        ds_put_format(p->out, "%.*g", DBL_DIG, json_real_value(json));
        break;
    case JSON_TRUE:
        ds_put_cstr(p->out, "true");
        break;
    case JSON_FALSE:
        ds_put_cstr(p->out, "false");
        break;
    case JSON_NULL:
    default:
        ds_put_cstr(p->out, "null");
        break;
    }
}

void
json_print(struct ds *out, const json_t *json, int flags)
{
    struct printer p = { .out = out, .flags = flags, .depth = 0 };
    print_value(&p, json);
}

char *
json_print_to_string(const json_t *json, int flags)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    json_print(&s, json, flags);
    return ds_steal_cstr(&s);
}

void
json_ovs_order(json_t *json)
{
    if (json_is_array(json)) {
        for (size_t i = 0; i < json_array_size(json); i++) {
            json_ovs_order(json_array_get(json, i));
        }
    } else if (json_is_object(json)) {
        /* The same kind of hash table, with the same hash function, filled
         * in the same order, iterates in the same order. */
        struct shash members = SHASH_INITIALIZER(&members);
        const char *key;
        json_t *value;
        json_object_foreach (json, key, value) {
            json_ovs_order(value);
            shash_add(&members, key, value);
        }

        /* Re-adding a member moves it to the end. */
        struct shash_node *node;
        SHASH_FOR_EACH (node, &members) {
            value = json_incref(node->data);
            json_object_del(json, node->name);
            json_object_set_new(json, node->name, value);
        }
        shash_destroy(&members);
    }
}
