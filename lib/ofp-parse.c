/* ofp-parse: flows in ovs-ofctl's text syntax. */
#include <config.h>
#include "ofp-parse.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "learn.h"
#include "match.h"
#include "ofp-actions.h"
#include "ofp-fields.h"
#include "ofp-flow.h"
#include "ofp-match.h"
#include "ofp-monitor.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "packets.h"
#include "text-parse.h"

struct shorthand {
    const char *name;
    uint16_t dl_type;           /* 0: none ("eth"). */
    uint8_t nw_proto;           /* 0: none. */
};

static const struct shorthand shorthands[] = {
    { "eth", 0, 0 },
    { "ip", ETH_TYPE_IP, 0 }, { "ipv4", ETH_TYPE_IP, 0 },
    { "ipv6", ETH_TYPE_IPV6, 0 }, { "ip6", ETH_TYPE_IPV6, 0 },
    { "icmp", ETH_TYPE_IP, IPPROTO_ICMP },
    { "icmp6", ETH_TYPE_IPV6, IPPROTO_ICMPV6 },
    { "tcp", ETH_TYPE_IP, IPPROTO_TCP }, { "tcp6", ETH_TYPE_IPV6, IPPROTO_TCP },
    { "udp", ETH_TYPE_IP, IPPROTO_UDP }, { "udp6", ETH_TYPE_IPV6, IPPROTO_UDP },
    { "sctp", ETH_TYPE_IP, IPPROTO_SCTP },
    { "sctp6", ETH_TYPE_IPV6, IPPROTO_SCTP },
    { "arp", ETH_TYPE_ARP, 0 }, { "rarp", ETH_TYPE_RARP, 0 },
    { "mpls", ETH_TYPE_MPLS, 0 }, { "mplsm", ETH_TYPE_MPLS_MCAST, 0 },
};

/* If NAME is a protocol shorthand ("tcp", "ip6", ...), applies it to
 * MATCH and returns true.  Like the fields they stand for, they make MATCH
 * match Ethernet packets ("eth" does only that). */
static bool
apply_shorthand(const char *name, struct match *match)
{
    for (size_t i = 0; i < ARRAY_SIZE(shorthands); i++) {
        const struct shorthand *sh = &shorthands[i];
        if (!strcmp(name, sh->name)) {
            if (!sh->dl_type) {
                match_set_packet_type(match, htonl(PT_ETH));
                return true;
            }
            match_set_default_packet_type(match);
            match_set_dl_type(match, htons(sh->dl_type));
            if (sh->nw_proto) {
                match_set_nw_proto(match, sh->nw_proto);
            }
            return true;
        }
    }
    return false;
}

/* A field given alone: only tun_metadataN can be, meaning "the option is
 * present". */
static char *
parse_bare_field(const struct mf_field *f, struct match *match)
{
    if (f->id >= MFF_TUN_METADATA0 && f->id <= MFF_TUN_METADATA63) {
        union mf_value zero;
        memset(&zero, 0, sizeof zero);
        return mf_set_checked(f, &zero, &zero, match);
    }
    return xasprintf("field %s missing value", f->name);
}

bool
ofputil_split_actions(char *s, char **actions)
{
    *actions = NULL;
    char *act = strstr(s, "action");
    if (act) {
        char *eq = strchr(act, '=');
        if (!eq) {
            return false;
        }
        *act = '\0';
        *actions = eq + 1;
    }
    return true;
}

/* A cookie or cookie mask as 3.1 reads it (strtoull()): "-N" is 2**64 - N,
 * so "cookie=1/-1" matches the cookie exactly. */
static char *
parse_cookie(const char *s, uint64_t *cookie)
{
    bool negative = *s == '-';
    char *error = ofputil_parse_uint(s + negative, UINT64_MAX, cookie);
    if (error) {
        free(error);
        return xasprintf("invalid numeric format %s", s);
    }
    if (negative) {
        *cookie = -*cookie;
    }
    return NULL;
}

/* What naming field F, in a match or as a set_field destination, allows
 * beyond what its value needs: 3.1 keeps, per field, the protocols that can
 * say it, and a few fields that 1.0's match could carry in a shared slot
 * (SCTP ports in tp_src/tp_dst, the 1.1+ in_port) are listed there as
 * OpenFlow 1.1 or later only.  So "sctp,sctp_src=1" takes 1.1, NXM or OXM
 * while "sctp,tp_src=1" may go in 1.0. */
static enum ofputil_protocol
field_name_usable_protocols(const struct mf_field *f)
{
    switch (f->id) {
    case MFF_IN_PORT_OXM:
    case MFF_SCTP_SRC:
    case MFF_SCTP_DST:
        return OFPUTIL_P_NXM_OXM_ANY | OFPUTIL_P_OF11_STD;
    case MFF_PACKET_TYPE:
        return OFPUTIL_P_NXM_OXM_ANY;
    default:
        return OFPUTIL_P_ANY;
    }
}

static char *
parse_flow__(struct ofputil_flow_mod *fm, char *string,
             const struct ofputil_port_map *map,
             const struct ofputil_table_map *table_map, uint16_t command,
             struct ofpbuf *ofpacts, bool *table_given,
             enum ofputil_protocol *fields_usable)
{
    *table_given = false;
    *fields_usable = OFPUTIL_P_ANY;
    memset(fm, 0, sizeof *fm);
    match_init_catchall(&fm->match);
    fm->priority = OFP_DEFAULT_PRIORITY;
    /* A modify without a cookie gives its flows cookie 0 (1.0, NXM) or
     * adds with it (1.0, 1.1), as 3.1's ovs-ofctl sends it. */
    fm->new_cookie = (command == OFPFC_DELETE
                      || command == OFPFC_DELETE_STRICT ? OVS_BE64_MAX : 0);
    /* No table= leaves "any table" (an add goes to table 0), which a
     * table-id protocol carries as 255, as 3.1's ovs-ofctl sends it. */
    fm->table_id = OFPTT_ALL;
    fm->command = command;
    fm->buffer_id = UINT32_MAX;
    fm->out_port = OFPP_NONE;
    fm->out_group = UINT32_MAX;

    char *actions;
    if (!ofputil_split_actions(string, &actions)
        || (!actions
            && command != OFPFC_DELETE && command != OFPFC_DELETE_STRICT)) {
        return xstrdup("must specify an action");
    }

    bool new_cookie_given = false;
    char *s = string, *name, *value, sep;
    while (ofputil_parse_key_value(&s, &name, &value, &sep)) {
        if (!ofputil_key_has_value(sep)) {
            value = NULL;
        }
        uint64_t x;
        char *error = NULL;
        bool del_or_mod = command != OFPFC_ADD;

        if (apply_shorthand(name, &fm->match)) {
            continue;
        }
        if (strchr(name, '[')) {
            /* A match on some bits of a field. */
            error = mf_parse_subfield_match(name, value ? value : "",
                                            &fm->match);
            if (error) {
                return error;
            }
            const struct mf_field *f = mf_from_name_len(name,
                                                        strcspn(name, "["));
            if (f) {
                *fields_usable &= field_name_usable_protocols(f);
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
            const struct mf_field *f = mf_from_name(name);
            if (f) {
                *fields_usable &= field_name_usable_protocols(f);
                error = parse_bare_field(f, &fm->match);
                if (error) {
                    return error;
                }
                continue;
            }
            return xasprintf("field %s missing value", name);
        }
        if (!strcmp(name, "table")) {
            if (!ofputil_table_from_string(value, table_map,
                                           &fm->table_id)) {
                return xasprintf("unknown table \"%s\"", value);
            }
            /* table=255 is "any", as no table= is. */
            *table_given = fm->table_id != OFPTT_ALL;
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
                error = parse_cookie(slash + 1, &mask);
                if (error) {
                    return error;
                }
                error = parse_cookie(value, &x);
                if (error) {
                    return error;
                }
                fm->cookie = htonll(x);
                fm->cookie_mask = htonll(mask);
            } else {
                error = parse_cookie(value, &x);
                if (error) {
                    return error;
                }
                fm->new_cookie = htonll(x);
                new_cookie_given = true;
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
            *fields_usable &= field_name_usable_protocols(f);
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
    if (command == OFPFC_MODIFY || command == OFPFC_MODIFY_STRICT) {
        /* Selecting by cookie alone leaves the cookies as they are. */
        if (fm->cookie_mask && !new_cookie_given) {
            fm->new_cookie = OVS_BE64_MAX;
        }
        fm->modify_cookie = fm->new_cookie != OVS_BE64_MAX;
    }

    if (actions) {
        size_t start = ofpacts->size;
        char *error = ofpacts_parse_instructions(actions, map, table_map,
                                                 ofpacts);
        if (error) {
            return error;
        }
        fm->ofpacts = (struct ofpact *) ((uint8_t *) ofpacts->data + start);
        fm->ofpacts_len = ofpacts->size - start;
        /* Annotating also checks output ports. */
        enum ofperr err = ofpacts_annotate(
            (struct ofpact *) ((uint8_t *) ofpacts->data + start),
            fm->ofpacts_len, &fm->match);
        if (!err) {
            err = ofpacts_check_prereqs(fm->ofpacts, fm->ofpacts_len,
                                        &fm->match);
        }
        if (!err) {
            err = ofpacts_check_goto_table(fm->ofpacts, fm->ofpacts_len,
                                           fm->table_id, 255);
        }
        if (err) {
            ofpacts->size = start;
            return xasprintf("actions are invalid with specified match (%s)",
                             ofperr_get_name(err));
        }
    }
    return NULL;
}

uint16_t
parse_ofp_flow_mod_command(const char **sp)
{
    static const struct {
        const char *name;
        uint16_t command;
    } words[] = {
        { "add", OFPFC_ADD },
        { "delete", OFPFC_DELETE },
        { "delete_strict", OFPFC_DELETE_STRICT },
        { "modify", OFPFC_MODIFY },
        { "modify_strict", OFPFC_MODIFY_STRICT },
    };
    const char *s = *sp + strspn(*sp, " \t\r\n");
    size_t len = strcspn(s, ", \t\r\n");
    for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
        if (!strncmp(s, words[i].name, len)) {
            *sp = s + len;
            return words[i].command;
        }
    }
    *sp = s;
    return OFPFC_ADD;
}

char *
parse_ofp_flow_mod_str(struct ofputil_flow_mod *fm, const char *string,
                       const struct ofputil_port_map *map, uint16_t command,
                       struct ofpbuf *ofpacts)
{
    enum ofputil_protocol usable;
    return parse_ofp_flow_mod_str_protocols(fm, string, map, NULL, command,
                                            ofpacts, &usable);
}

char *
parse_ofp_match_str(struct match *match, const char *string,
                    const struct ofputil_port_map *map)
{
    char *copy = xstrdup(string);
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 0);
    bool table_given;
    enum ofputil_protocol fields_usable;
    char *error = parse_flow__(&fm, copy, map, NULL, OFPFC_DELETE, &ofpacts,
                               &table_given, &fields_usable);
    if (!error) {
        *match = fm.match;
    }
    ofpbuf_uninit(&ofpacts);
    free(copy);
    return error;
}

char *
parse_ofp_flow_mod_str_protocols(struct ofputil_flow_mod *fm,
                                 const char *string,
                                 const struct ofputil_port_map *map,
                                 const struct ofputil_table_map *table_map,
                                 uint16_t command, struct ofpbuf *ofpacts,
                                 enum ofputil_protocol *usable)
{
    char *copy = xstrdup(string);
    bool table_given;
    enum ofputil_protocol fields_usable;
    char *error = parse_flow__(fm, copy, map, table_map, command, ofpacts,
                               &table_given, &fields_usable);
    free(copy);
    *usable = OFPUTIL_P_NONE;
    if (!error) {
        *usable = ofputil_flow_mod_usable_protocols(fm) & fields_usable;
        if (table_given) {
            /* Naming a table, even table 0, needs table ids (3.1). */
            *usable &= OFPUTIL_P_TID;
        }
        if (!*usable) {
            /* No protocol can say this flow (skb_priority, tun_tos...):
             * 3.1 blames the match. */
            error = xasprintf("actions are invalid with specified match "
                              "(%s)", ofperr_get_name(
                                  OFPERR_OFPBAC_MATCH_INCONSISTENT));
        }
    }
    return error;
}

/* Usable protocols. */

enum ofputil_protocol
ofputil_usable_protocols(const struct match *match)
{
    /* 1.0's and 1.1's matches could carry an IPv6 flow's protocol, DSCP,
     * ECN and ports in their IPv4 slots, but 3.1 sends IPv6 L3 and L4
     * matches only in NXM or OXM (so "tcp6" on a 1.0 connection switches
     * to NXM), and switches read them that way. */
    const struct flow_wildcards *wc = &match->wc;

    /* No protocol carries these in a flow. */
    if (wc->masks.skb_priority || wc->masks.tunnel.ip_tos
        || wc->masks.tunnel.ip_ttl) {
        return OFPUTIL_P_NONE;
    }
    if (match->flow.dl_type == htons(ETH_TYPE_IPV6)
        && wc->masks.dl_type == OVS_BE16_MAX
        && (wc->masks.nw_proto || wc->masks.nw_tos
            || wc->masks.tp_src || wc->masks.tp_dst)) {
        return OFPUTIL_P_NXM_OXM_ANY;
    }
    /* 3.1 judges fields one by one, and takes 1.0's dl_vlan for an exact
     * vlan_vid, whatever that says about the VLAN header's presence. */
    struct match m10 = *match;
    ovs_be16 vid_bits = htons(VLAN_VID_MASK | VLAN_CFI);
    if ((m10.wc.masks.vlans[0].tci & vid_bits) == vid_bits) {
        m10.flow.vlans[0].tci |= htons(VLAN_CFI);
    }
    if (ofputil_match_is_ofp10(&m10)) {
        return OFPUTIL_P_ANY;
    }
    /* OpenFlow 1.1's standard match adds arbitrary masks on the Ethernet
     * and IPv4 addresses, the metadata field and the ECN bits to what 1.0
     * says; anything else takes NXM or OXM. */
    struct match rest = *match;
    struct flow_wildcards *rest_wc = &rest.wc;
    memset(&rest_wc->masks.dl_src, 0, sizeof rest_wc->masks.dl_src);
    memset(&rest_wc->masks.dl_dst, 0, sizeof rest_wc->masks.dl_dst);
    rest_wc->masks.metadata = 0;
    rest_wc->masks.nw_src = 0;
    rest_wc->masks.nw_dst = 0;
    rest_wc->masks.nw_tos &= ~0x03;     /* ECN bits. */
    rest_wc->masks.mpls_lse[0] &= ~htonl(MPLS_LABEL_MASK | MPLS_TC_MASK);
    match_zero_wildcarded_fields(&rest);
    return (ofputil_match_is_ofp10(&rest)
            ? OFPUTIL_P_NXM_OXM_ANY | OFPUTIL_P_OF11_STD
            : OFPUTIL_P_NXM_OXM_ANY);
}

/* The protocols that can match FIELD exactly: what an action that writes
 * or reads it may use. */
static enum ofputil_protocol
field_usable_protocols(const struct mf_field *field)
{
    struct match m;
    match_init_catchall(&m);
    mf_set_prereqs(field, &m);
    union mf_value ones;
    mf_value_set_all_ones(field, &ones);
    mf_set(field, &ones, NULL, &m);
    return ofputil_usable_protocols(&m) & field_name_usable_protocols(field);
}

static bool
match_is_mpls(const struct match *m)
{
    return (m->wc.masks.dl_type == OVS_BE16_MAX
            && (m->flow.dl_type == htons(ETH_TYPE_MPLS)
                || m->flow.dl_type == htons(ETH_TYPE_MPLS_MCAST)));
}

static bool
match_is_ip(const struct match *m, bool ipv4_only)
{
    if (m->wc.masks.dl_type != OVS_BE16_MAX) {
        return false;
    }
    return (m->flow.dl_type == htons(ETH_TYPE_IP)
            || (!ipv4_only && m->flow.dl_type == htons(ETH_TYPE_IPV6)));
}

enum ofputil_protocol
ofputil_actions_usable_protocols(const struct ofpact *ofpacts, size_t len)
{
    enum ofputil_protocol usable = OFPUTIL_P_ANY;
    static const struct {
        enum ofp_version version;
        enum ofputil_protocol protocols;
    } versions[] = {
        { OFP10_VERSION, OFPUTIL_P_OF10_ANY },
        { OFP11_VERSION, OFPUTIL_P_OF11_STD },
        { OFP12_VERSION, OFPUTIL_P_OF12_OXM },
        { OFP13_VERSION, OFPUTIL_P_OF13_OXM },
        { OFP14_VERSION, OFPUTIL_P_OF14_OXM },
        { OFP15_VERSION, OFPUTIL_P_OF15_OXM },
    };
    for (size_t i = 0; i < ARRAY_SIZE(versions); i++) {
        if (!ofpacts_encodable_in(ofpacts, len, versions[i].version)) {
            usable &= ~versions[i].protocols;
        }
    }

    const struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        if (a->type == OFPACT_SET_FIELD && a->raw != OFPACT_RAW_REG_LOAD) {
            /* set_field needs a protocol that can match the field; 3.1
             * lets "load:" (and "move:") through as Nicira actions. */
            usable &= field_usable_protocols(
                ((const struct ofpact_set_field *) a)->field);
        } else if (a->type == OFPACT_WRITE_ACTIONS
                   || a->type == OFPACT_CLONE) {
            const struct ofpact_nest *on = (const void *) a;
            usable &= ofputil_actions_usable_protocols(
                on->actions, ofpact_nest_get_action_len(on));
        } else if (a->type == OFPACT_CT) {
            const struct ofpact_conntrack *oc = (const void *) a;
            usable &= ofputil_actions_usable_protocols(
                oc->actions, ofpact_ct_get_action_len(oc));
        }
    }
    return usable;
}

/* ofputil_actions_usable_protocols() and, as 3.1 has it for flows, header
 * changes that the match does not allow. */
static enum ofputil_protocol
ofpacts_usable_protocols(const struct ofpact *ofpacts, size_t len,
                         const struct match *match)
{
    enum ofputil_protocol usable = ofputil_actions_usable_protocols(ofpacts,
                                                                    len);

    /* From 1.1 on, header changes need the headers in the match (3.1
     * refuses them otherwise), so without them only 1.0 can carry the
     * flow. */
    ovs_be16 vlan_cfi = htons(VLAN_CFI);
    bool has_vlan = ((match->wc.masks.vlans[0].tci & vlan_cfi)
                     && (match->flow.vlans[0].tci & vlan_cfi));
    /* push_mpls and pop_mpls change what the packet is for the actions
     * after them. */
    struct match m = *match;
    match = &m;
    const struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        switch (a->type) {
        case OFPACT_PUSH_MPLS:
        case OFPACT_POP_MPLS:
            if (a->type == OFPACT_POP_MPLS && !match_is_mpls(match)) {
                usable &= OFPUTIL_P_OF10_ANY;
            }
            m.flow.dl_type = ((const struct ofpact_mpls_ethertype *) a)
                             ->ethertype;
            m.wc.masks.dl_type = OVS_BE16_MAX;
            break;
        case OFPACT_SET_MPLS_LABEL:
        case OFPACT_SET_MPLS_TC:
        case OFPACT_SET_MPLS_TTL:
        case OFPACT_DEC_MPLS_TTL:
            if (!match_is_mpls(match)) {
                usable &= OFPUTIL_P_OF10_ANY;
            }
            break;
        case OFPACT_FIN_TIMEOUT:
            if (!match_is_ip(match, false)
                || match->wc.masks.nw_proto != UINT8_MAX
                || match->flow.nw_proto != IPPROTO_TCP) {
                usable &= OFPUTIL_P_OF10_ANY;
            }
            break;
        case OFPACT_DEC_NSH_TTL:
            /* No match here can say the packet is NSH. */
            usable &= OFPUTIL_P_OF10_ANY;
            break;
        case OFPACT_CLONE: {
            const struct ofpact_nest *on = (const void *) a;
            usable &= ofpacts_usable_protocols(
                on->actions, ofpact_nest_get_action_len(on), match);
            break;
        }
        case OFPACT_STRIP_VLAN:
            if (!has_vlan) {
                usable &= OFPUTIL_P_OF10_ANY;
            }
            has_vlan = false;
            break;
        case OFPACT_PUSH_VLAN:
            /* What follows has a tag to pop. */
            has_vlan = true;
            break;
        case OFPACT_SET_IPV4_SRC:
        case OFPACT_SET_IPV4_DST:
            if (!match_is_ip(match, true)) {
                usable &= OFPUTIL_P_OF10_ANY;
            }
            break;
        case OFPACT_SET_IP_DSCP:
        case OFPACT_SET_IP_ECN:
        case OFPACT_SET_IP_TTL:
        case OFPACT_DEC_TTL:
            if (!match_is_ip(match, false)) {
                usable &= OFPUTIL_P_OF10_ANY;
            }
            break;
        case OFPACT_SET_L4_SRC_PORT:
        case OFPACT_SET_L4_DST_PORT:
            if (!match_is_ip(match, false)
                || match->wc.masks.nw_proto != UINT8_MAX
                || (match->flow.nw_proto != IPPROTO_TCP
                    && match->flow.nw_proto != IPPROTO_UDP
                    && match->flow.nw_proto != IPPROTO_SCTP)) {
                usable &= OFPUTIL_P_OF10_ANY;
            }
            break;
        case OFPACT_WRITE_METADATA:
            usable &= OFPUTIL_P_NXM_OXM_ANY | OFPUTIL_P_OF11_STD;
            break;
        case OFPACT_WRITE_ACTIONS:
            /* An action set runs at the end of the pipeline, on a packet
             * this match cannot describe: 3.1 checks no consistency in
             * it. */
            break;
        default:
            break;
        }
    }
    return usable;
}

enum ofputil_protocol
ofputil_flow_mod_usable_protocols(const struct ofputil_flow_mod *fm)
{
    enum ofputil_protocol usable = ofputil_usable_protocols(&fm->match);
    if (fm->cookie_mask) {
        usable &= OFPUTIL_P_NXM_OXM_ANY | OFPUTIL_P_OF11_STD;
    }
    if (fm->table_id != OFPTT_ALL
        && (fm->command != OFPFC_ADD || fm->table_id != 0)) {
        usable &= OFPUTIL_P_TID;
    }
    if (fm->out_group != OFPG_ANY) {
        usable &= OFPUTIL_P_OF11_UP;
    }
    if (fm->flags & OFPUTIL_FF_RESET_COUNTS) {
        usable &= OFPUTIL_P_OF12_UP;
    }
    if (fm->flags & (OFPUTIL_FF_NO_PKT_COUNTS | OFPUTIL_FF_NO_BYT_COUNTS)) {
        usable &= OFPUTIL_P_OF13_UP;
    }
    usable &= ofpacts_usable_protocols(fm->ofpacts, fm->ofpacts_len,
                                       &fm->match);
    return usable;
}

/* Flow monitor requests ("ovs-ofctl monitor ... watch:SPEC"). */

char *
parse_flow_monitor_request(struct ofputil_flow_monitor_request *rq,
                           const char *spec,
                           const struct ofputil_port_map *port_map,
                           const struct ofputil_table_map *table_map,
                           enum ofputil_protocol *usable)
{
    /* Each request of a process gets the next id, from 0, as 3.1's. */
    static atomic_uint next_id;

    memset(rq, 0, sizeof *rq);
    rq->id = atomic_fetch_add(&next_id, 1);
    rq->command = OFPFMC14_ADD;
    rq->flags = NXFMF_ALL;
    rq->out_port = OFPP_NONE;
    rq->out_group = OFPG_ANY;
    rq->table_id = 0xff;
    match_init_catchall(&rq->match);
    *usable = OFPUTIL_P_ANY;

    char *copy = xstrdup(spec);
    char *s = copy, *name, *value, sep;
    char *error = NULL;
    while (!error && ofputil_parse_key_value(&s, &name, &value, &sep)) {
        if (!ofputil_key_has_value(sep)) {
            value = NULL;
        }
        static const char *const negations[] = {
            "!initial", "!add", "!delete", "!modify", "!actions", "!own",
        };
        bool negation = false;
        for (size_t i = 0; i < ARRAY_SIZE(negations); i++) {
            if (!strcmp(name, negations[i])) {
                rq->flags &= ~(1u << i);
                negation = true;
            }
        }
        if (negation) {
            continue;
        }

        if (apply_shorthand(name, &rq->match)) {
            continue;
        }

        const struct mf_field *f = mf_from_name(name);
        if (f) {
            if (f->id == MFF_IN_PORT || f->id == MFF_IN_PORT_OXM) {
                uint32_t port;
                if (!value || !ofputil_port_from_string(value, port_map,
                                                        &port)) {
                    error = xasprintf("%s: invalid or unknown port for %s",
                                      value ? value : "", name);
                } else {
                    match_set_in_port(&rq->match, port);
                }
            } else if (!value && f->variable_len) {
                error = parse_bare_field(f, &rq->match);
            } else {
                error = mf_parse_field(f, value ? value : "", port_map,
                                       &rq->match);
            }
            continue;
        }

        if (!value || !*value) {
            error = xasprintf("%s: field %s missing value", spec, name);
        } else if (!strcmp(name, "table")) {
            if (!ofputil_table_from_string(value, table_map,
                                           &rq->table_id)) {
                error = xasprintf("unknown table \"%s\"", value);
            }
        } else if (!strcmp(name, "out_port")) {
            /* 3.1 reads a bare number here (atoi()), names and all. */
            rq->out_port = (uint16_t) atoi(value);
        } else if (!strcmp(name, "out_group")) {
            rq->out_group = (uint32_t) strtoul(value, NULL, 10);
        } else {
            error = xasprintf("%s: unknown keyword %s", spec, name);
        }
    }
    free(copy);
    if (!error) {
        *usable = ofputil_usable_protocols(&rq->match);
    }
    return error;
}
