/* ofp-port: port numbers, names and name maps.  See ofp-port.h. */
#include <config.h>

#include "ofp-port.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "dynamic-string.h"
#include "hash.h"
#include "packets.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_port);

enum ofperr
ofputil_port_from_ofp11(ovs_be32 ofp11_port, uint32_t *port)
{
    uint32_t p = ntohl(ofp11_port);
    if (p < OFPP_MAX) {
        *port = p;
        return 0;
    } else if (p >= OFPP11_MAX) {
        *port = p - OFPP11_OFFSET;
        return 0;
    }
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
    VLOG_WARN_RL(&rl, "port %"PRIu32" is outside the supported range 0 "
                 "through %d or 0x%x through 0x%"PRIx32, p, OFPP_MAX - 1,
                 OFPP11_MAX, UINT32_MAX);
    *port = OFPP_NONE;
    return OFPERR_OFPBAC_BAD_OUT_PORT;
}

ovs_be32
ofputil_port_to_ofp11(uint32_t port)
{
    return htonl(port < OFPP_MAX ? port : port + OFPP11_OFFSET);
}

bool
ofputil_port_is_valid_output(uint32_t port)
{
    if (port < OFPP_MAX) {
        return true;
    }
    switch (port) {
    case OFPP_IN_PORT:
    case OFPP_TABLE:
    case OFPP_NORMAL:
    case OFPP_FLOOD:
    case OFPP_ALL:
    case OFPP_CONTROLLER:
    case OFPP_LOCAL:
        return true;
    default:
        return false;
    }
}

static const struct {
    uint32_t port;
    const char *name;
} reserved_ports[] = {
    { OFPP_IN_PORT, "IN_PORT" },
    { OFPP_TABLE, "TABLE" },
    { OFPP_NORMAL, "NORMAL" },
    { OFPP_FLOOD, "FLOOD" },
    { OFPP_ALL, "ALL" },
    { OFPP_CONTROLLER, "CONTROLLER" },
    { OFPP_LOCAL, "LOCAL" },
    { OFPP_NONE, "ANY" },
    { OFPP_UNSET, "UNSET" },
};

const char *
ofputil_port_reserved_name(uint32_t port)
{
    for (size_t i = 0; i < ARRAY_SIZE(reserved_ports); i++) {
        if (reserved_ports[i].port == port) {
            return reserved_ports[i].name;
        }
    }
    return NULL;
}

static bool
reserved_port_from_name(const char *s, uint32_t *port)
{
    for (size_t i = 0; i < ARRAY_SIZE(reserved_ports); i++) {
        if (!strcasecmp(s, reserved_ports[i].name)) {
            *port = reserved_ports[i].port;
            return true;
        }
    }
    if (!strcasecmp(s, "none")) {
        *port = OFPP_NONE;
        return true;
    }
    return false;
}

/* Name maps, shared by ports and tables. */

struct name_entry {
    struct hmap_node name_node;
    struct hmap_node number_node;
    uint32_t number;
    char *name;
    bool dup_name;          /* NAME names several numbers. */
    bool dup_number;        /* NUMBER has several names. */
};

static struct name_entry *
find_by_name(const struct hmap *by_name, const char *name)
{
    struct name_entry *e;
    HMAP_FOR_EACH_WITH_HASH (e, name_node, hash_string(name, 0), by_name) {
        if (!strcmp(e->name, name)) {
            return e;
        }
    }
    return NULL;
}

static struct name_entry *
find_by_number(const struct hmap *by_number, uint32_t number)
{
    struct name_entry *e;
    HMAP_FOR_EACH_WITH_HASH (e, number_node, hash_int(number, 0),
                             by_number) {
        if (e->number == number) {
            return e;
        }
    }
    return NULL;
}

static void
name_map_put(struct hmap *by_name, struct hmap *by_number, uint32_t number,
             const char *name)
{
    struct name_entry *by_n = find_by_name(by_name, name);
    struct name_entry *by_num = find_by_number(by_number, number);
    if (by_n && by_n == by_num) {
        return;                 /* The same pair again. */
    }
    if (by_n) {
        by_n->dup_name = true;
    }
    if (by_num) {
        by_num->dup_number = true;
    }
    if (!by_n && !by_num) {
        struct name_entry *e = xzalloc(sizeof *e);
        e->number = number;
        e->name = xstrdup(name);
        hmap_insert(by_name, &e->name_node, hash_string(name, 0));
        hmap_insert(by_number, &e->number_node, hash_int(number, 0));
    }
}

static void
name_map_destroy(struct hmap *by_name, struct hmap *by_number)
{
    struct name_entry *e;
    HMAP_FOR_EACH_POP (e, name_node, by_name) {
        free(e->name);
        free(e);
    }
    hmap_destroy(by_name);
    hmap_destroy(by_number);
}

static const char *
name_map_get_name(const struct hmap *by_number, uint32_t number)
{
    const struct name_entry *e = find_by_number(by_number, number);
    return e && !e->dup_name && !e->dup_number ? e->name : NULL;
}

static bool
name_map_get_number(const struct hmap *by_name, const char *name,
                    uint32_t *number)
{
    const struct name_entry *e = find_by_name(by_name, name);
    if (e && !e->dup_name) {
        *number = e->number;
        return true;
    }
    return false;
}

void
ofputil_port_map_init(struct ofputil_port_map *map)
{
    hmap_init(&map->by_name);
    hmap_init(&map->by_number);
}

void
ofputil_port_map_put(struct ofputil_port_map *map, uint32_t port,
                     const char *name)
{
    name_map_put(&map->by_name, &map->by_number, port, name);
}

const char *
ofputil_port_map_get_name(const struct ofputil_port_map *map, uint32_t port)
{
    return map ? name_map_get_name(&map->by_number, port) : NULL;
}

uint32_t
ofputil_port_map_get_number(const struct ofputil_port_map *map,
                            const char *name)
{
    uint32_t port;
    return (map && name_map_get_number(&map->by_name, name, &port)
            ? port : OFPP_NONE);
}

void
ofputil_port_map_destroy(struct ofputil_port_map *map)
{
    if (map) {
        name_map_destroy(&map->by_name, &map->by_number);
    }
}

/* Unquotes a double-quoted name with backslash escapes into a new string,
 * or returns NULL if S is not one. */
static char *
unquote(const char *s)
{
    size_t n = strlen(s);
    if (n < 2 || s[0] != '"' || s[n - 1] != '"') {
        return NULL;
    }
    struct ds out = DS_EMPTY_INITIALIZER;
    for (size_t i = 1; i < n - 1; i++) {
        if (s[i] == '\\' && i + 1 < n - 1) {
            i++;
            switch (s[i]) {
            case 'n': ds_put_char(&out, '\n'); break;
            case 't': ds_put_char(&out, '\t'); break;
            case 'r': ds_put_char(&out, '\r'); break;
            case 'b': ds_put_char(&out, '\b'); break;
            case 'f': ds_put_char(&out, '\f'); break;
            default: ds_put_char(&out, s[i]); break;
            }
        } else {
            ds_put_char(&out, s[i]);
        }
    }
    return ds_steal_cstr(&out);
}

bool
ofputil_port_from_string(const char *s,
                         const struct ofputil_port_map *port_map,
                         uint32_t *portp)
{
    *portp = 0;
    if (*s == '-') {
        VLOG_WARN("Negative value %s is not a valid port number.", s);
        return false;
    }

    unsigned int port32;
    if (str_to_uint(s, 10, &port32)) {
        if (port32 < OFPP_MAX) {
            /* An ordinary port. */
        } else if (port32 < OFPP_FIRST_RESV) {
            VLOG_WARN("port %u is a reserved OF1.0 port number that will "
                      "be translated to %u when talking to an OF1.1 or "
                      "later controller", port32, port32 + OFPP11_OFFSET);
        } else if (port32 <= OFPP_LAST_RESV) {
            static bool warned[8];
            if (!warned[port32 - OFPP_FIRST_RESV]) {
                warned[port32 - OFPP_FIRST_RESV] = true;
                VLOG_WARN("referring to port %s as %u is deprecated for "
                          "compatibility with OpenFlow 1.1 and later",
                          ofputil_port_reserved_name(port32), port32);
            }
        } else if (port32 < OFPP11_MAX) {
            VLOG_WARN("port %u is outside the supported range 0 through "
                      "%x or 0x%x through 0x%"PRIx32, port32,
                      UINT16_MAX, OFPP11_MAX, UINT32_MAX);
            return false;
        } else {
            port32 -= OFPP11_OFFSET;
        }
        *portp = port32;
        return true;
    }

    if (reserved_port_from_name(s, portp)) {
        return true;
    }
    if (port_map) {
        char *name = unquote(s);
        uint32_t port = ofputil_port_map_get_number(port_map,
                                                    name ? name : s);
        free(name);
        if (port != OFPP_NONE) {
            *portp = port;
            return true;
        }
    }
    return false;
}

/* As 3.1: a name is printed bare only if it starts with a letter and has
 * nothing but letters and digits. */
static bool
name_needs_quotes(const char *name)
{
    if (!isalpha((unsigned char) *name)) {
        return true;
    }
    for (const char *p = name + 1; *p; p++) {
        if (!isalnum((unsigned char) *p)) {
            return true;
        }
    }
    return false;
}

void
ofputil_put_port_name(const char *name, struct ds *s)
{
    if (!name_needs_quotes(name)) {
        ds_put_cstr(s, name);
        return;
    }
    ds_put_char(s, '"');
    for (const char *p = name; *p; p++) {
        switch (*p) {
        case '"': ds_put_cstr(s, "\\\""); break;
        case '\\': ds_put_cstr(s, "\\\\"); break;
        case '\n': ds_put_cstr(s, "\\n"); break;
        case '\t': ds_put_cstr(s, "\\t"); break;
        case '\r': ds_put_cstr(s, "\\r"); break;
        case '\b': ds_put_cstr(s, "\\b"); break;
        case '\f': ds_put_cstr(s, "\\f"); break;
        default:
            if ((unsigned char) *p < 0x20) {
                ds_put_format(s, "\\u%04x", (unsigned char) *p);
            } else {
                ds_put_char(s, *p);
            }
        }
    }
    ds_put_char(s, '"');
}

void
ofputil_format_port(uint32_t port, const struct ofputil_port_map *port_map,
                    struct ds *s)
{
    const char *name = ofputil_port_map_get_name(port_map, port);
    if (name) {
        ofputil_put_port_name(name, s);
        return;
    }
    const char *reserved = ofputil_port_reserved_name(port);
    if (reserved) {
        ds_put_cstr(s, reserved);
    } else {
        ds_put_uint(s, port);
    }
}

/* Table maps. */

void
ofputil_table_map_init(struct ofputil_table_map *map)
{
    hmap_init(&map->by_name);
    hmap_init(&map->by_number);
}

void
ofputil_table_map_put(struct ofputil_table_map *map, uint8_t table,
                      const char *name)
{
    name_map_put(&map->by_name, &map->by_number, table, name);
}

void
ofputil_table_map_destroy(struct ofputil_table_map *map)
{
    if (map) {
        name_map_destroy(&map->by_name, &map->by_number);
    }
}

bool
ofputil_table_from_string(const char *s,
                          const struct ofputil_table_map *map,
                          uint8_t *tablep)
{
    unsigned int table;
    if (str_to_uint(s, 10, &table)) {
        if (table > 255) {
            return false;
        }
        *tablep = table;
        return true;
    }
    if (map) {
        char *name = unquote(s);
        uint32_t number;
        bool ok = name_map_get_number(&map->by_name, name ? name : s,
                                      &number);
        free(name);
        if (ok) {
            *tablep = number;
            return true;
        }
    }
    return false;
}

void
ofputil_format_table(uint8_t table, const struct ofputil_table_map *map,
                     struct ds *s)
{
    const char *name = map ? name_map_get_name(&map->by_number, table)
                           : NULL;
    if (name) {
        ofputil_put_port_name(name, s);
    } else {
        ds_put_uint(s, table);
    }
}
