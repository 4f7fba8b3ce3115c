/* ofpact: see ofpact.h. */
#include <config.h>
#include "ofpact.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "dynamic-string.h"
#include "util.h"

static const struct {
    uint16_t port;
    const char *name;
} reserved_ports[] = {
    { OFPP_IN_PORT, "IN_PORT" },
    { OFPP_TABLE, "TABLE" },
    { OFPP_NORMAL, "NORMAL" },
    { OFPP_FLOOD, "FLOOD" },
    { OFPP_ALL, "ALL" },
    { OFPP_CONTROLLER, "CONTROLLER" },
    { OFPP_LOCAL, "LOCAL" },
    { OFPP_NONE, "NONE" },
};

const char *
ofp_port_reserved_name(uint16_t port)
{
    for (size_t i = 0; i < ARRAY_SIZE(reserved_ports); i++) {
        if (reserved_ports[i].port == port) {
            return reserved_ports[i].name;
        }
    }
    return NULL;
}

bool
ofp_port_from_string(const char *s, uint16_t *port)
{
    for (size_t i = 0; i < ARRAY_SIZE(reserved_ports); i++) {
        if (!strcasecmp(s, reserved_ports[i].name)) {
            *port = reserved_ports[i].port;
            return true;
        }
    }
    char *end;
    errno = 0;
    unsigned long n = strtoul(s, &end, 0);
    if (!*s || *end || errno || n > UINT16_MAX || !isdigit((unsigned char) *s)) {
        return false;
    }
    *port = n;
    return true;
}

static void
format_port(uint16_t port, struct ds *s)
{
    const char *name = ofp_port_reserved_name(port);
    if (name) {
        ds_put_cstr(s, name);
    } else {
        ds_put_format(s, "%"PRIu16, port);
    }
}

void
ofpacts_format(const struct ofpact *a, size_t n, struct ds *s)
{
    if (!n) {
        ds_put_cstr(s, "drop");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (i) {
            ds_put_char(s, ',');
        }
        switch (a[i].type) {
        case OFPACT_OUTPUT:
            if (a[i].port < OFPP_MAX) {
                ds_put_format(s, "output:%"PRIu16, a[i].port);
            } else {
                format_port(a[i].port, s);
            }
            break;
        case OFPACT_RESUBMIT:
            ds_put_cstr(s, "resubmit(");
            if (a[i].port != OFPP_IN_PORT) {
                format_port(a[i].port, s);
            }
            ds_put_char(s, ',');
            if (a[i].table != 255) {
                ds_put_format(s, "%d", a[i].table);
            }
            ds_put_char(s, ')');
            break;
        case OFPACT_SET_VLAN_VID:
            ds_put_format(s, "mod_vlan_vid:%"PRIu16, a[i].vid);
            break;
        case OFPACT_SET_VLAN_PCP:
            ds_put_format(s, "mod_vlan_pcp:%d", a[i].pcp);
            break;
        case OFPACT_STRIP_VLAN:
            ds_put_cstr(s, "strip_vlan");
            break;
        case OFPACT_PUSH_VLAN:
            ds_put_format(s, "push_vlan:0x%04"PRIx16, a[i].tpid);
            break;
        case OFPACT_SET_ETH_SRC:
            ds_put_format(s, "mod_dl_src:"ETH_ADDR_FMT,
                          ETH_ADDR_ARGS(a[i].mac));
            break;
        case OFPACT_SET_ETH_DST:
            ds_put_format(s, "mod_dl_dst:"ETH_ADDR_FMT,
                          ETH_ADDR_ARGS(a[i].mac));
            break;
        case OFPACT_DROP:
            ds_put_cstr(s, "drop");
            break;
        }
    }
}

/* Splits "name:arg", "name(arg)" or "name" at the start of *SP; advances
 * *SP past the action and its separator.  Returns false at the end. */
static bool
next_action(char **sp, char **name, char **arg)
{
    char *s = *sp;
    s += strspn(s, ", \t");
    if (!*s) {
        return false;
    }
    *name = s;
    *arg = NULL;
    size_t len = strcspn(s, ":(, \t");
    char *p = s + len;
    if (*p == '(') {
        *p++ = '\0';
        *arg = p;
        char *close = strchr(p, ')');
        if (!close) {
            *sp = p + strlen(p);
            *arg = NULL;
            *name = NULL;   /* Unbalanced: reported by the caller. */
            return true;
        }
        *close = '\0';
        p = close + 1;
    } else if (*p == ':') {
        *p++ = '\0';
        *arg = p;
        p += strcspn(p, ", \t");
        if (*p) {
            *p++ = '\0';
        }
    } else if (*p) {
        *p++ = '\0';
    }
    *sp = p;
    return true;
}

static bool
parse_port(const char *s, uint16_t *port,
           bool (*port_by_name)(void *, const char *, uint16_t *), void *aux)
{
    return ofp_port_from_string(s, port)
           || (port_by_name && port_by_name(aux, s, port));
}

static bool
parse_uint(const char *s, unsigned long max, unsigned long *value)
{
    char *end;
    errno = 0;
    *value = strtoul(s, &end, 0);
    return *s && !*end && !errno && *value <= max
           && isdigit((unsigned char) *s);
}

char *
ofpacts_parse(const char *s_, struct ofpact **ofpactsp, size_t *np,
              bool (*port_by_name)(void *aux, const char *, uint16_t *),
              void *aux)
{
    char *copy = xstrdup(s_);
    char *s = copy;
    struct ofpact *acts = NULL;
    size_t n = 0, allocated = 0;
    char *error = NULL;
    char *name, *arg;

    while (!error && next_action(&s, &name, &arg)) {
        if (!name) {
            error = xasprintf("%s: unbalanced parentheses", s_);
            break;
        }
        if (n >= allocated) {
            acts = x2nrealloc(acts, &allocated, sizeof *acts);
        }
        struct ofpact *a = &acts[n];
        memset(a, 0, sizeof *a);
        unsigned long v;
        uint16_t port;

        if (!strcasecmp(name, "drop") && !arg) {
            continue;
        } else if (!strcasecmp(name, "output") && arg) {
            if (!parse_port(arg, &port, port_by_name, aux)) {
                error = xasprintf("%s: unknown port", arg);
                break;
            }
            a->type = OFPACT_OUTPUT;
            a->port = port;
        } else if (!strcasecmp(name, "resubmit") && arg) {
            char *comma = strchr(arg, ',');
            a->type = OFPACT_RESUBMIT;
            a->port = OFPP_IN_PORT;
            a->table = 255;
            if (comma) {
                *comma = '\0';
                if (comma[1] && !parse_uint(comma + 1, 254, &v)) {
                    error = xasprintf("%s: bad table", comma + 1);
                    break;
                }
                if (comma[1]) {
                    a->table = v;
                }
            }
            if (*arg && !parse_port(arg, &a->port, port_by_name, aux)) {
                error = xasprintf("%s: unknown port", arg);
                break;
            }
        } else if ((!strcasecmp(name, "mod_vlan_vid")
                    || !strcasecmp(name, "set_vlan_vid")) && arg) {
            if (!parse_uint(arg, 4095, &v)) {
                error = xasprintf("%s: bad VLAN id", arg);
                break;
            }
            a->type = OFPACT_SET_VLAN_VID;
            a->vid = v;
        } else if ((!strcasecmp(name, "mod_vlan_pcp")
                    || !strcasecmp(name, "set_vlan_pcp")) && arg) {
            if (!parse_uint(arg, 7, &v)) {
                error = xasprintf("%s: bad VLAN priority", arg);
                break;
            }
            a->type = OFPACT_SET_VLAN_PCP;
            a->pcp = v;
        } else if ((!strcasecmp(name, "strip_vlan")
                    || !strcasecmp(name, "pop_vlan")) && !arg) {
            a->type = OFPACT_STRIP_VLAN;
        } else if (!strcasecmp(name, "push_vlan") && arg) {
            if (!parse_uint(arg, UINT16_MAX, &v)
                || (v != ETH_TYPE_VLAN_8021Q && v != ETH_TYPE_VLAN_8021AD)) {
                error = xasprintf("%s: bad VLAN ethertype", arg);
                break;
            }
            a->type = OFPACT_PUSH_VLAN;
            a->tpid = v;
        } else if ((!strcasecmp(name, "mod_dl_src")
                    || !strcasecmp(name, "mod_dl_dst")) && arg) {
            if (!eth_addr_from_string(arg, &a->mac)) {
                error = xasprintf("%s: bad Ethernet address", arg);
                break;
            }
            a->type = !strcasecmp(name, "mod_dl_src") ? OFPACT_SET_ETH_SRC
                                                      : OFPACT_SET_ETH_DST;
        } else if (!strcasecmp(name, "set_field") && arg) {
            /* set_field:VALUE->FIELD for vlan_vid, eth_src, eth_dst. */
            char *arrow = strstr(arg, "->");
            if (!arrow) {
                error = xasprintf("%s: set_field needs VALUE->FIELD", arg);
                break;
            }
            *arrow = '\0';
            const char *field = arrow + 2;
            if (!strcmp(field, "vlan_vid")) {
                if (!parse_uint(arg, 0x1fff, &v)) {
                    error = xasprintf("%s: bad VLAN id", arg);
                    break;
                }
                a->type = OFPACT_SET_VLAN_VID;
                a->vid = v & 0xfff;
            } else if (!strcmp(field, "eth_src") || !strcmp(field, "dl_src")
                       || !strcmp(field, "eth_dst")
                       || !strcmp(field, "dl_dst")) {
                if (!eth_addr_from_string(arg, &a->mac)) {
                    error = xasprintf("%s: bad Ethernet address", arg);
                    break;
                }
                a->type = strstr(field, "src") ? OFPACT_SET_ETH_SRC
                                               : OFPACT_SET_ETH_DST;
            } else {
                error = xasprintf("%s: set_field of this field is not "
                                  "supported", field);
                break;
            }
        } else if (!arg && parse_port(name, &port, port_by_name, aux)) {
            a->type = OFPACT_OUTPUT;
            a->port = port;
        } else {
            error = xasprintf("unknown action %s", name);
            break;
        }
        n++;
    }
    free(copy);
    if (error) {
        free(acts);
        return error;
    }
    *ofpactsp = acts;
    *np = n;
    return NULL;
}

bool
ofpacts_equal(const struct ofpact *a, size_t na, const struct ofpact *b,
              size_t nb)
{
    if (na != nb) {
        return false;
    }
    for (size_t i = 0; i < na; i++) {
        if (a[i].type != b[i].type || a[i].port != b[i].port
            || a[i].table != b[i].table || a[i].vid != b[i].vid
            || a[i].pcp != b[i].pcp || a[i].tpid != b[i].tpid
            || !eth_addr_equals(a[i].mac, b[i].mac)) {
            return false;
        }
    }
    return true;
}

bool
ofpacts_output_to_port(const struct ofpact *a, size_t n, uint16_t port)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i].type == OFPACT_OUTPUT && a[i].port == port) {
            return true;
        }
    }
    return false;
}
