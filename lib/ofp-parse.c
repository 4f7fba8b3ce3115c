/* ofp-parse: flows in ovs-ofctl's text syntax. */
#include <config.h>
#include "ofp-parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "match.h"
#include "ofp-actions.h"
#include "ofp-fields.h"
#include "ofp-flow.h"
#include "ofp-match.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "packets.h"

struct shorthand {
    const char *name;
    uint16_t dl_type;
    uint8_t nw_proto;           /* 0: none. */
};

static const struct shorthand shorthands[] = {
    { "ip", ETH_TYPE_IP, 0 }, { "ipv6", ETH_TYPE_IPV6, 0 },
    { "icmp", ETH_TYPE_IP, IPPROTO_ICMP },
    { "icmp6", ETH_TYPE_IPV6, IPPROTO_ICMPV6 },
    { "tcp", ETH_TYPE_IP, IPPROTO_TCP }, { "tcp6", ETH_TYPE_IPV6, IPPROTO_TCP },
    { "udp", ETH_TYPE_IP, IPPROTO_UDP }, { "udp6", ETH_TYPE_IPV6, IPPROTO_UDP },
    { "sctp", ETH_TYPE_IP, IPPROTO_SCTP },
    { "sctp6", ETH_TYPE_IPV6, IPPROTO_SCTP },
    { "arp", ETH_TYPE_ARP, 0 }, { "rarp", ETH_TYPE_RARP, 0 },
};

char *
ofputil_parse_uint(const char *s, uint64_t max, uint64_t *value)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (!*s || *end || errno || x > max || *s == '-') {
        return xasprintf("invalid numeric format %s", s);
    }
    *value = x;
    return NULL;
}

/* Splits the next "name[=value]" off *SP, a writable string: items are
 * separated by commas and white space. */
static bool
next_pair(char **sp, char **name, char **value)
{
    char *s = *sp + strspn(*sp, ", \t\r\n");
    if (!*s) {
        *sp = s;
        return false;
    }
    *name = s;
    s += strcspn(s, "=, \t\r\n");
    if (*s == '=') {
        *s++ = '\0';
        *value = s;
        s += strcspn(s, ", \t\r\n");
    } else {
        *value = NULL;
    }
    if (*s) {
        *s++ = '\0';
    }
    *sp = s;
    return true;
}

static char *
parse_flow__(struct ofputil_flow_mod *fm, char *string,
             const struct ofputil_port_map *map, uint16_t command,
             struct ofpbuf *ofpacts)
{
    memset(fm, 0, sizeof *fm);
    match_init_catchall(&fm->match);
    fm->priority = OFP_DEFAULT_PRIORITY;
    fm->new_cookie = command == OFPFC_ADD ? 0 : OVS_BE64_MAX;
    fm->table_id = command == OFPFC_ADD ? 0 : OFPTT_ALL;
    fm->command = command;
    fm->buffer_id = UINT32_MAX;
    fm->out_port = OFPP_NONE;
    fm->out_group = UINT32_MAX;

    /* Everything after "actions=" is actions. */
    char *actions = NULL;
    char *act = strstr(string, "action");
    if (act) {
        char *eq = strchr(act, '=');
        if (!eq) {
            return xstrdup("must specify an action");
        }
        *act = '\0';
        actions = eq + 1;
    } else if (command != OFPFC_DELETE && command != OFPFC_DELETE_STRICT) {
        return xstrdup("must specify an action");
    }

    char *s = string, *name, *value;
    while (next_pair(&s, &name, &value)) {
        const struct shorthand *sh = NULL;
        for (size_t i = 0; i < ARRAY_SIZE(shorthands); i++) {
            if (!strcmp(name, shorthands[i].name)) {
                sh = &shorthands[i];
            }
        }
        uint64_t x;
        char *error = NULL;
        bool del_or_mod = command != OFPFC_ADD;

        if (sh) {
            match_set_dl_type(&fm->match, htons(sh->dl_type));
            if (sh->nw_proto) {
                match_set_nw_proto(&fm->match, sh->nw_proto);
            }
            continue;
        }
        if (!strcmp(name, "send_flow_rem")) {
            fm->flags |= OFPUTIL_FF_SEND_FLOW_REM;
            continue;
        } else if (!strcmp(name, "check_overlap")) {
            fm->flags |= OFPUTIL_FF_CHECK_OVERLAP;
            continue;
        } else if (!strcmp(name, "reset_counts")) {
            fm->flags |= OFPUTIL_FF_RESET_COUNTS;
            continue;
        } else if (!strcmp(name, "no_packet_counts")) {
            fm->flags |= OFPUTIL_FF_NO_PKT_COUNTS;
            continue;
        } else if (!strcmp(name, "no_byte_counts")) {
            fm->flags |= OFPUTIL_FF_NO_BYT_COUNTS;
            continue;
        }

        if (!value) {
            return xasprintf("field %s missing value", name);
        }
        if (!strcmp(name, "table")) {
            error = ofputil_parse_uint(value, 254, &x);
            if (error) {
                free(error);
                return xasprintf("unknown table \"%s\"", value);
            }
            fm->table_id = x;
        } else if (!strcmp(name, "priority")) {
            error = ofputil_parse_uint(value, UINT16_MAX, &x);
            if (error) {
                free(error);
                return xasprintf("invalid priority \"%s\"", value);
            }
            fm->priority = x;
        } else if (!strcmp(name, "idle_timeout")
                   || !strcmp(name, "hard_timeout")
                   || !strcmp(name, "importance")) {
            error = ofputil_parse_uint(value, UINT16_MAX, &x);
            if (error) {
                return error;
            }
            *(name[0] == 'i' && name[1] == 'd' ? &fm->idle_timeout
              : name[0] == 'h' ? &fm->hard_timeout : &fm->importance) = x;
        } else if (!strcmp(name, "cookie")) {
            char *slash = strchr(value, '/');
            if (slash) {
                if (!del_or_mod) {
                    return xstrdup("flow additions cannot use a cookie "
                                   "mask");
                }
                *slash = '\0';
                uint64_t mask;
                error = ofputil_parse_uint(slash + 1, UINT64_MAX, &mask);
                if (error) {
                    return error;
                }
                error = ofputil_parse_uint(value, UINT64_MAX, &x);
                if (error) {
                    return error;
                }
                fm->cookie = htonll(x);
                fm->cookie_mask = htonll(mask);
            } else {
                error = ofputil_parse_uint(value, UINT64_MAX, &x);
                if (error) {
                    return error;
                }
                fm->new_cookie = htonll(x);
            }
        } else if (del_or_mod && !strcmp(name, "out_port")) {
            if (!ofputil_port_from_string(value, map, &fm->out_port)) {
                return xasprintf("%s: invalid or unknown port for out_port",
                                 value);
            }
        } else if (del_or_mod && !strcmp(name, "out_group")) {
            error = ofputil_parse_uint(value, UINT32_MAX, &x);
            if (error) {
                return error;
            }
            fm->out_group = x;
        } else {
            const struct mf_field *f = mf_from_name(name);
            if (!f) {
                return xasprintf("unknown keyword %s", name);
            }
            if (f->id == MFF_IN_PORT || f->id == MFF_IN_PORT_OXM) {
                uint32_t port;
                if (!ofputil_port_from_string(value, map, &port)) {
                    return xasprintf("%s: invalid or unknown port for %s",
                                     value, name);
                }
                match_set_in_port(&fm->match, port);
                continue;
            }
            error = mf_parse_field(f, value, map, &fm->match);
            if (error) {
                return error;
            }
        }
    }
    ofputil_normalize_match(&fm->match);

    if (actions) {
        size_t start = ofpacts->size;
        char *error = ofpacts_parse_instructions(actions, map, ofpacts);
        if (error) {
            return error;
        }
        fm->ofpacts = (struct ofpact *) ((uint8_t *) ofpacts->data + start);
        fm->ofpacts_len = ofpacts->size - start;
    }
    return NULL;
}

char *
parse_ofp_flow_mod_str(struct ofputil_flow_mod *fm, const char *string,
                       const struct ofputil_port_map *map, uint16_t command,
                       struct ofpbuf *ofpacts)
{
    char *copy = xstrdup(string);
    char *error = parse_flow__(fm, copy, map, command, ofpacts);
    free(copy);
    return error;
}
