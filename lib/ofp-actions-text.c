/* ofp-actions: actions and instructions as ovs-ofctl 3.1 writes and reads
 * them. */
#include <config.h>
#include "ofp-actions.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "learn.h"
#include "nx-match.h"
#include "ofp-parse.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "packets.h"
#include "util.h"
#include "ofp-actions-private.h"

#define IP_DSCP_MASK 0xfc
#define IP_ECN_MASK 0x03

/* Packet-in reasons. */

static const char *const reason_names[] = {
    [OFPR_NO_MATCH] = "no_match",
    [OFPR_ACTION] = "action",
    [OFPR_INVALID_TTL] = "invalid_ttl",
    [OFPR_ACTION_SET] = "action_set",
    [OFPR_GROUP] = "group",
    [OFPR_PACKET_OUT] = "packet_out",
};

const char *
ofputil_packet_in_reason_to_string(uint8_t reason, char *buf,
                                   size_t bufsize)
{
    if (reason < ARRAY_SIZE(reason_names)) {
        return reason_names[reason];
    }
    snprintf(buf, bufsize, "%d", reason);
    return buf;
}

bool
ofputil_packet_in_reason_from_string(const char *s, uint8_t *reason)
{
    for (size_t i = 0; i < ARRAY_SIZE(reason_names); i++) {
        if (!strcasecmp(s, reason_names[i])) {
            *reason = i;
            return true;
        }
    }
    return false;
}

/* Formatting. */

static void
format_hex_dotted(const uint8_t *p, size_t n, struct ds *s)
{
    for (size_t i = 0; i < n; i++) {
        ds_put_format(s, "%s%02"PRIx8, i ? "." : "", p[i]);
    }
}

/* "load:VALUE->FIELD[a..b]" for each run of mask bits. */
static void
format_reg_load(const struct ofpact_set_field *sf, struct ds *s)
{
    unsigned int start = 0, n_bits = 0;
    uint64_t value;
    bool first = true;
    while (ofpact_set_field_next_run(sf, &start, &n_bits, &value)) {
        struct mf_subfield dst = { sf->field, start, n_bits };
        if (!first) {
            ds_put_char(s, ',');
        }
        first = false;
        ds_put_format(s, "load:%#"PRIx64"->", value);
        mf_format_subfield(&dst, s);
    }
}

static void
format_controller(const struct ofpact_controller *oc,
                  struct ds *s)
{
    if (oc->reason == OFPR_ACTION && !oc->controller_id
        && !oc->userdata_len && !oc->pause) {
        ds_put_format(s, "CONTROLLER:%"PRIu16, oc->max_len);
        return;
    }
    ds_put_cstr(s, "controller(");
    size_t start = s->length;
    if (oc->reason != OFPR_ACTION) {
        char buf[16];
        ds_put_format(s, "reason=%s,", ofputil_packet_in_reason_to_string(
                          oc->reason, buf, sizeof buf));
    }
    if (oc->max_len != UINT16_MAX) {
        ds_put_format(s, "max_len=%"PRIu16",", oc->max_len);
    }
    if (oc->controller_id) {
        ds_put_format(s, "id=%"PRIu16",", oc->controller_id);
    }
    if (oc->userdata_len) {
        ds_put_cstr(s, "userdata=");
        format_hex_dotted(oc->userdata, oc->userdata_len, s);
        ds_put_char(s, ',');
    }
    if (oc->pause) {
        ds_put_cstr(s, "pause,");
    }
    if (s->length > start) {
        ds_chomp(s, ',');
    }
    ds_put_char(s, ')');
}

static void
format_action(const struct ofpact *a, const struct ofputil_port_map *map,
              const struct ofputil_table_map *tables, struct ds *s)
{
    switch ((enum ofpact_type) a->type) {
    case OFPACT_OUTPUT: {
        const struct ofpact_output *o = (const struct ofpact_output *) a;
        if (o->port == OFPP_CONTROLLER) {
            ds_put_format(s, "CONTROLLER:%"PRIu16, o->max_len);
        } else if (ofputil_port_reserved_name(o->port)) {
            ofputil_format_port(o->port, map, s);
        } else {
            ds_put_cstr(s, "output:");
            ofputil_format_port(o->port, map, s);
        }
        break;
    }
    case OFPACT_GROUP:
        ds_put_format(s, "group:%"PRIu32,
                      ((const struct ofpact_group *) a)->group_id);
        break;
    case OFPACT_CONTROLLER:
        format_controller((const struct ofpact_controller *) a, s);
        break;
    case OFPACT_ENQUEUE: {
        const struct ofpact_enqueue *eq = (const struct ofpact_enqueue *) a;
        ds_put_cstr(s, "enqueue:");
        ofputil_format_port(eq->port, map, s);
        ds_put_format(s, ":%"PRIu32, eq->queue);
        break;
    }
    case OFPACT_SET_VLAN_VID: {
        /* 1.1's set_vlan_vid only rewrites a tag; 1.0's mod_vlan_vid adds
         * one if needed. */
        const struct ofpact_vlan_vid *vv = (const struct ofpact_vlan_vid *) a;
        ds_put_format(s, "%s:%"PRIu16,
                      vv->push_vlan_if_needed ? "mod_vlan_vid"
                      : "set_vlan_vid", vv->vlan_vid);
        break;
    }
    case OFPACT_SET_VLAN_PCP: {
        const struct ofpact_vlan_pcp *vp = (const struct ofpact_vlan_pcp *) a;
        ds_put_format(s, "%s:%"PRIu8,
                      vp->push_vlan_if_needed ? "mod_vlan_pcp"
                      : "set_vlan_pcp", vp->vlan_pcp);
        break;
    }
    case OFPACT_STRIP_VLAN:
        ds_put_cstr(s, a->raw == OFPACT_RAW_POP_VLAN ? "pop_vlan"
                    : "strip_vlan");
        break;
    case OFPACT_PUSH_VLAN:
        ds_put_format(s, "push_vlan:%#"PRIx16, ntohs(
                          ((const struct ofpact_push_vlan *) a)->ethertype));
        break;
    case OFPACT_SET_ETH_SRC:
    case OFPACT_SET_ETH_DST:
        ds_put_format(s, "%s:"ETH_ADDR_FMT, ofpact_name(a->type),
                      ETH_ADDR_ARGS(((const struct ofpact_mac *) a)->mac));
        break;
    case OFPACT_SET_IPV4_SRC:
    case OFPACT_SET_IPV4_DST:
        ds_put_format(s, "%s:"IP_FMT, ofpact_name(a->type),
                      IP_ARGS(((const struct ofpact_ipv4 *) a)->ipv4));
        break;
    case OFPACT_SET_IP_DSCP:
        ds_put_format(s, "mod_nw_tos:%"PRIu8,
                      ((const struct ofpact_dscp *) a)->dscp);
        break;
    case OFPACT_SET_IP_TTL:
        ds_put_format(s, "mod_nw_ttl:%"PRIu8,
                      ((const struct ofpact_ip_ttl *) a)->ttl);
        break;
    case OFPACT_SET_L4_SRC_PORT:
    case OFPACT_SET_L4_DST_PORT:
        ds_put_format(s, "%s:%"PRIu16, ofpact_name(a->type),
                      ((const struct ofpact_l4_port *) a)->port);
        break;
    case OFPACT_REG_MOVE: {
        const struct ofpact_reg_move *m = (const struct ofpact_reg_move *) a;
        ds_put_cstr(s, "move:");
        mf_format_subfield(&m->src, s);
        ds_put_cstr(s, "->");
        mf_format_subfield(&m->dst, s);
        break;
    }
    case OFPACT_SET_FIELD: {
        const struct ofpact_set_field *sf
            = (const struct ofpact_set_field *) a;
        if (a->raw == OFPACT_RAW_REG_LOAD) {
            format_reg_load(sf, s);
        } else {
            ds_put_cstr(s, "set_field:");
            mf_format(sf->field, &sf->value,
                      (mf_value_is_all_ones(sf->field, &sf->mask)
                       ? NULL : &sf->mask), map, s);
            ds_put_format(s, "->%s", sf->field->name);
        }
        break;
    }
    case OFPACT_DEC_TTL:
        if (a->raw == OFPACT_RAW_DEC_TTL_CNT_IDS) {
            ofpact_nx_format(a, map, tables, s);
        } else {
            ds_put_cstr(s, "dec_ttl");
        }
        break;
    case OFPACT_SET_IP_ECN:
        ds_put_format(s, "mod_nw_ecn:%"PRIu8,
                      ((const struct ofpact_ecn *) a)->ecn);
        break;
    case OFPACT_CT:
    case OFPACT_CT_CLEAR:
    case OFPACT_NAT:
        ofpact_ct_format(a, map, tables, s);
        break;
    case OFPACT_SET_MPLS_LABEL:
    case OFPACT_SET_MPLS_TC:
    case OFPACT_SET_MPLS_TTL:
    case OFPACT_DEC_MPLS_TTL:
    case OFPACT_PUSH_MPLS:
    case OFPACT_POP_MPLS:
        ofpact_mpls_format(a, map, tables, s);
        break;
    case OFPACT_ENCAP:
    case OFPACT_DECAP:
    case OFPACT_DEC_NSH_TTL:
        ofpact_encap_format(a, map, tables, s);
        break;
    case OFPACT_BUNDLE:
        bundle_format(a, map, tables, s);
        break;
    case OFPACT_MULTIPATH:
        multipath_format(a, map, tables, s);
        break;
    case OFPACT_OUTPUT_REG:
    case OFPACT_OUTPUT_TRUNC:
    case OFPACT_FIN_TIMEOUT:
    case OFPACT_CONJUNCTION:
    case OFPACT_CLONE:
    case OFPACT_CHECK_PKT_LARGER:
    case OFPACT_STACK_PUSH:
    case OFPACT_STACK_POP:
    case OFPACT_DELETE_FIELD:
    case OFPACT_SAMPLE:
    case OFPACT_DEBUG_RECIRC:
    case OFPACT_DEBUG_SLOW:
        ofpact_nx_format(a, map, tables, s);
        break;
    case OFPACT_SET_TUNNEL: {
        const struct ofpact_tunnel *t = (const struct ofpact_tunnel *) a;
        bool wide = t->tun_id > UINT32_MAX || a->raw == OFPACT_RAW_SET_TUNNEL64;
        ds_put_format(s, "set_tunnel%s:%#"PRIx64, wide ? "64" : "",
                      t->tun_id);
        break;
    }
    case OFPACT_SET_QUEUE:
        ds_put_format(s, "set_queue:%"PRIu32,
                      ((const struct ofpact_queue *) a)->queue_id);
        break;
    case OFPACT_POP_QUEUE:
        ds_put_cstr(s, "pop_queue");
        break;
    case OFPACT_LEARN:
        learn_format((const struct ofpact_learn *) a, tables, s);
        break;
    case OFPACT_RESUBMIT: {
        const struct ofpact_resubmit *r = (const struct ofpact_resubmit *) a;
        /* By the values alone, as 3.1 prints it (which loses the "ct" of
         * a resubmit to a port in the current table). */
        if (r->in_port != OFPP_IN_PORT && r->table_id == 255) {
            ds_put_cstr(s, "resubmit:");
            ofputil_format_port(r->in_port, map, s);
        } else {
            ds_put_cstr(s, "resubmit(");
            if (r->in_port != OFPP_IN_PORT) {
                ofputil_format_port(r->in_port, map, s);
            }
            ds_put_char(s, ',');
            if (r->table_id != 255) {
                ofputil_format_table(r->table_id, tables, s);
            }
            if (a->raw == OFPACT_RAW_RESUBMIT_CT) {
                ds_put_cstr(s, ",ct");
            }
            ds_put_char(s, ')');
        }
        break;
    }
    case OFPACT_NOTE: {
        const struct ofpact_note *note = (const struct ofpact_note *) a;
        ds_put_cstr(s, "note:");
        format_hex_dotted(note->data, note->length, s);
        break;
    }
    case OFPACT_EXIT:
        ds_put_cstr(s, "exit");
        break;
    case OFPACT_METER:
        ds_put_format(s, "meter:%"PRIu32,
                      ((const struct ofpact_meter *) a)->meter_id);
        break;
    case OFPACT_CLEAR_ACTIONS:
        ds_put_cstr(s, "clear_actions");
        break;
    case OFPACT_WRITE_ACTIONS: {
        const struct ofpact_nest *on = (const struct ofpact_nest *) a;
        ds_put_cstr(s, "write_actions(");
        ofpact_list_format(on->actions, ofpact_nest_get_action_len(on), map,
                           tables, s);
        ds_put_char(s, ')');
        break;
    }
    case OFPACT_WRITE_METADATA: {
        const struct ofpact_metadata *md = (const struct ofpact_metadata *) a;
        ds_put_format(s, "write_metadata:%#"PRIx64, ntohll(md->metadata));
        if (md->mask != OVS_BE64_MAX) {
            ds_put_format(s, "/%#"PRIx64, ntohll(md->mask));
        }
        break;
    }
    case OFPACT_GOTO_TABLE:
        ds_put_cstr(s, "goto_table:");
        ofputil_format_table(((const struct ofpact_goto_table *) a)->table_id,
                             tables, s);
        break;
    case N_OFPACTS:
    default:
        ovs_abort(0, "%s: unexpected case", __func__);
    }
}

void
ofpact_list_format(const struct ofpact *ofpacts, size_t len,
                   const struct ofputil_port_map *map,
                   const struct ofputil_table_map *tables, struct ds *s)
{
    if (!len) {
        ds_put_cstr(s, "drop");
        return;
    }
    const struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        if (a != ofpacts) {
            ds_put_char(s, ',');
        }
        format_action(a, map, tables, s);
    }
}

/* Parsing. */

static char *
parse_output_port(const char *s, const struct ofputil_port_map *map,
                  struct ofpbuf *ofpacts)
{
    uint32_t port;
    if (!ofputil_port_from_string(s, map, &port)) {
        return xasprintf("%s: output to unknown port", s);
    }
    struct ofpact_output *o = ofpact_put(ofpacts, OFPACT_OUTPUT, sizeof *o);
    o->port = port;
    o->max_len = port == OFPP_CONTROLLER ? UINT16_MAX : 0;
    ofpact_finish(ofpacts, &o->ofpact);
    return NULL;
}

static char *
parse_controller(char *arg, struct ofpbuf *ofpacts)
{
    struct ofpact_controller *oc = ofpact_put(ofpacts, OFPACT_CONTROLLER,
                                              sizeof *oc);
    oc->max_len = UINT16_MAX;
    oc->reason = OFPR_ACTION;
    size_t ofs = (uint8_t *) oc - (uint8_t *) ofpacts->data;

    char *key, *value;
    while (ofputil_parse_key_value(&arg, &key, &value, NULL)) {
        oc = ofpbuf_at_assert(ofpacts, ofs, sizeof *oc);
        uint64_t x;
        char *error = NULL;
        if (!strcmp(key, "reason")) {
            if (!ofputil_packet_in_reason_from_string(value, &oc->reason)) {
                error = xasprintf("unknown reason \"%s\"", value);
            }
        } else if (!strcmp(key, "max_len")) {
            error = ofputil_parse_uint(value, UINT16_MAX, &x);
            if (!error) {
                oc->max_len = x;
            }
        } else if (!strcmp(key, "id")) {
            error = ofputil_parse_uint(value, UINT16_MAX, &x);
            if (!error) {
                oc->controller_id = x;
            }
        } else if (!strcmp(key, "userdata")) {
            size_t before = ofpacts->size;
            if (*ofpbuf_put_hex(ofpacts, value, NULL)) {
                error = xstrdup("bad hex digit in `controller' action "
                                "`userdata'");
            }
            oc = ofpbuf_at_assert(ofpacts, ofs, sizeof *oc);
            oc->userdata_len += ofpacts->size - before;
        } else if (!strcmp(key, "pause")) {
            oc->pause = true;
        } else {
            error = xasprintf("unknown key \"%s\" parsing controller action",
                              key);
        }
        if (error) {
            return error;
        }
    }
    ofpact_finish(ofpacts, ofpbuf_at_assert(ofpacts, ofs, sizeof *oc));
    return NULL;
}

static char *
parse_resubmit(char *arg, bool parens, const struct ofputil_port_map *map,
               const struct ofputil_table_map *tables, struct ofpbuf *ofpacts)
{
    uint32_t in_port = OFPP_IN_PORT;
    uint8_t table = 255;
    char *port_s = arg, *table_s = NULL, *ct_s = NULL;
    if (parens) {
        char *comma = strchr(arg, ',');
        if (comma) {
            *comma = '\0';
            table_s = comma + 1;
            comma = strchr(table_s, ',');
            if (comma) {
                *comma = '\0';
                ct_s = comma + 1;
                /* 3.1 reads the third argument only up to a comma. */
                comma = strchr(ct_s, ',');
                if (comma) {
                    *comma = '\0';
                }
                if (strcmp(ct_s, "ct")) {
                    return xasprintf("%s: unknown parameter", ct_s);
                }
            }
        }
    }
    if (*port_s && !ofputil_port_from_string(port_s, map, &in_port)) {
        return xasprintf("%s: resubmit to unknown port", port_s);
    }
    if (table_s && *table_s
        && !ofputil_table_from_string(table_s, tables, &table)) {
        return xasprintf("%s: resubmit to unknown table", table_s);
    }
    if (in_port == OFPP_IN_PORT && table == 255) {
        return xstrdup("at least one \"in_port\" or \"table\" must be "
                       "specified on resubmit");
    }
    struct ofpact_resubmit *r = OFPACT_PUT(ofpacts, OFPACT_RESUBMIT,
                                           ofpact_resubmit);
    r->in_port = in_port;
    r->table_id = table;
    if (ct_s) {
        r->ofpact.raw = OFPACT_RAW_RESUBMIT_CT;
    } else if (parens) {
        r->ofpact.raw = OFPACT_RAW_RESUBMIT_TABLE;
    }
    return NULL;
}

/* Whether F has an NXM or OXM code that a load, move or set_field can
 * name on the wire (a field with only an experimenter OXM code, such as
 * nsh_flags, is loaded with NXAST_REG_LOAD2).  dl_vlan and dl_vlan_pcp,
 * the 1.0-style views of the VLAN header, have none (3.1 writes such
 * actions with a zero header, which then means in_port: refusing them is
 * the only sane reading). */
static char *
check_wire_name(const char *arg, const struct mf_field *f)
{
    if (!mf_oxm_header(f->id, 0)) {
        return xasprintf("%s: field %s has no NXM or OXM code and cannot be "
                         "written by an action", arg, f->name);
    }
    return NULL;
}

/* "VALUE->DST" of load: DST a sub-field. */
static char *
parse_load(const char *arg, struct ofpbuf *ofpacts)
{
    const char *arrow = strstr(arg, "->");
    if (!arrow) {
        return xasprintf("%s: missing `->'", arg);
    }
    struct mf_subfield dst;
    char *error = mf_parse_subfield(&dst, arrow + 2);
    if (error) {
        return error;
    }
    const struct mf_field *f = dst.field;
    union mf_value value;
    const char *tail;
    if (ofputil_parse_int_bytes(arg, value.b, f->n_bytes, &tail)
        || tail != arrow) {
        return xasprintf("%s: cannot parse integer value", arg);
    }
    if (!bitwise_is_all_zeros(value.b, f->n_bytes, dst.n_bits,
                              f->n_bytes * 8 - dst.n_bits)) {
        struct ds v = DS_EMPTY_INITIALIZER;
        ds_put_hex(&v, value.b, f->n_bytes);
        error = xasprintf("%s: value %s does not fit into %u bits",
                          arg, ds_cstr(&v), dst.n_bits);
        ds_destroy(&v);
        return error;
    }
    if (!dst.field->writable) {
        return xasprintf("%s: destination field %s is not writable", arg,
                         dst.field->name);
    }
    error = check_wire_name(arg, dst.field);
    if (error) {
        return error;
    }
    struct ofpact_set_field *sf = OFPACT_PUT(ofpacts, OFPACT_SET_FIELD,
                                             ofpact_set_field);
    sf->ofpact.raw = OFPACT_RAW_REG_LOAD;
    sf->field = dst.field;
    bitwise_copy(value.b, f->n_bytes, 0, sf->value.b, f->n_bytes, dst.ofs,
                 dst.n_bits);
    bitwise_one(sf->mask.b, f->n_bytes, dst.ofs, dst.n_bits);
    return NULL;
}

/* "VALUE[/MASK]->FIELD" of set_field. */
static char *
parse_set_field(const char *arg, const struct ofputil_port_map *map,
                struct ofpbuf *ofpacts)
{
    const char *arrow = strstr(arg, "->");
    if (!arrow) {
        return xasprintf("%s: missing `->'", arg);
    }
    const char *name = arrow + 2;
    const struct mf_field *f = mf_from_name(name);
    if (!f) {
        return xasprintf("%s is not a valid OXM field name", name);
    }
    if (!f->writable) {
        return xasprintf("%s is read-only", name);
    }
    char *error = check_wire_name(arg, f);
    if (error) {
        return error;
    }
    char *value_s = xmemdup0(arg, arrow - arg);
    union mf_value value, mask;
    if (!strcmp(value_s, "ANY")) {
        /* What a set_field with an all-zero mask prints as (mf_format(),
         * as 3.1) reads back as one; 3.1 prints it but does not read it. */
        memset(&value, 0, sizeof value);
        memset(&mask, 0, sizeof mask);
    } else {
        error = mf_parse(f, value_s, map, &value, &mask);
    }
    free(value_s);
    if (error) {
        return error;
    }
    if (!mf_is_value_valid(f, &value)) {
        return xasprintf("%s is not a valid value for field %s", arg, name);
    }
    struct ofpact_set_field *sf = OFPACT_PUT(ofpacts, OFPACT_SET_FIELD,
                                             ofpact_set_field);
    sf->field = f;
    for (size_t i = 0; i < f->n_bytes; i++) {
        sf->value.b[i] = value.b[i] & mask.b[i];
        sf->mask.b[i] = mask.b[i];
    }
    return NULL;
}

static char *
parse_move(const char *arg, struct ofpbuf *ofpacts)
{
    struct mf_subfield src, dst;
    const char *s = arg;
    char *error = mf_parse_subfield__(&src, &s);
    if (error) {
        return error;
    }
    if (strncmp(s, "->", 2)) {
        return xasprintf("%s: missing `->' following source", arg);
    }
    s += 2;
    error = mf_parse_subfield(&dst, s);
    if (error) {
        return error;
    }
    error = check_wire_name(arg, src.field);
    if (!error) {
        error = check_wire_name(arg, dst.field);
    }
    if (error) {
        return error;
    }
    if (src.n_bits != dst.n_bits) {
        return xasprintf("%s: source field is %u bits wide but destination "
                         "is %u bits wide", arg, src.n_bits, dst.n_bits);
    }
    struct ofpact_reg_move *m = OFPACT_PUT(ofpacts, OFPACT_REG_MOVE,
                                           ofpact_reg_move);
    m->src = src;
    m->dst = dst;
    return NULL;
}

static char *
parse_mac(const char *s, struct eth_addr *mac)
{
    unsigned int b[6];
    int n = 0;
    if (sscanf(s, "%x:%x:%x:%x:%x:%x%n", &b[0], &b[1], &b[2], &b[3], &b[4],
               &b[5], &n) != 6 || s[n]) {
        return xasprintf("invalid mac address %s", s);
    }
    for (int i = 0; i < 6; i++) {
        if (b[i] > 0xff) {
            return xasprintf("invalid mac address %s", s);
        }
        mac->ea[i] = b[i];
    }
    return NULL;
}

static char *
parse_ipv4(const char *s, ovs_be32 *ip)
{
    unsigned int b[4];
    int n = 0;
    if (sscanf(s, "%u.%u.%u.%u%n", &b[0], &b[1], &b[2], &b[3], &n) != 4
        || s[n] || b[0] > 255 || b[1] > 255 || b[2] > 255 || b[3] > 255) {
        return xasprintf("%s: could not convert to IP address", s);
    }
    *ip = htonl((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]);
    return NULL;
}

/* One action KEY with argument VALUE. */
static char *
parse_action(char *key, char *value, char sep,
             const struct ofpact_parse_ctx *ctx, bool *is_drop)
{
    const struct ofputil_port_map *map = ctx->port_map;
    struct ofpbuf *ofpacts = ctx->ofpacts;
    uint64_t x;
    char *error;

    /* The actions of the family files, by name. */
    static const struct {
        const char *name;
        char *(*parse)(const char *key, char *arg,
                       const struct ofpact_parse_ctx *);
    } families[] = {
        { "ct", ofpact_ct_parse }, { "nat", ofpact_ct_parse },
        { "ct_clear", ofpact_ct_parse },
        { "push_mpls", ofpact_mpls_parse }, { "pop_mpls", ofpact_mpls_parse },
        { "set_mpls_label", ofpact_mpls_parse },
        { "set_mpls_tc", ofpact_mpls_parse },
        { "set_mpls_ttl", ofpact_mpls_parse },
        { "dec_mpls_ttl", ofpact_mpls_parse },
        { "encap", ofpact_encap_parse }, { "decap", ofpact_encap_parse },
        { "dec_nsh_ttl", ofpact_encap_parse },
        { "bundle", bundle_parse }, { "bundle_load", bundle_parse },
        { "multipath", multipath_parse },
        { "fin_timeout", ofpact_nx_parse }, { "conjunction", ofpact_nx_parse },
        { "clone", ofpact_nx_parse }, { "check_pkt_larger", ofpact_nx_parse },
        { "push", ofpact_nx_parse }, { "pop", ofpact_nx_parse },
        { "delete_field", ofpact_nx_parse }, { "sample", ofpact_nx_parse },
        { "debug_recirc", ofpact_nx_parse }, { "debug_slow", ofpact_nx_parse },
        { "dec_ttl", ofpact_nx_parse },
    };
    for (size_t i = 0; i < ARRAY_SIZE(families); i++) {
        if (!strcasecmp(key, families[i].name)) {
            return families[i].parse(families[i].name, value, ctx);
        }
    }

    if (!strcasecmp(key, "drop")) {
        *is_drop = true;
        return NULL;
    } else if (!strcasecmp(key, "output")) {
        /* The truncating form only when both keys are there, as 3.1
         * reads it: "output(CONTROLLER)" is a port. */
        if (strstr(value, "port") && strstr(value, "max_len")) {
            return ofpact_nx_parse("output_trunc", value, ctx);
        }
        uint32_t port;
        if (ofputil_port_from_string(value, map, &port)) {
            return parse_output_port(value, map, ofpacts);
        }
        struct mf_subfield src;
        error = mf_parse_subfield(&src, value);
        if (!error) {
            return ofpact_nx_parse("output_reg", value, ctx);
        }
        free(error);
        return xasprintf("%s: output to unknown port", value);
    } else if (!strcasecmp(key, "mod_nw_ecn")) {
        error = ofputil_parse_uint(value, UINT8_MAX, &x);
        if (error || x & ~IP_ECN_MASK) {
            free(error);
            return xasprintf("%s: not a valid ECN", value);
        }
        OFPACT_PUT(ofpacts, OFPACT_SET_IP_ECN, ofpact_ecn)->ecn = x;
        return NULL;
    } else if (!strcasecmp(key, "controller")) {
        if (!*value) {
            return parse_output_port("CONTROLLER", map, ofpacts);
        }
        if (isdigit((unsigned char) *value)) {
            /* controller:MAX_LEN. */
            error = ofputil_parse_uint(value, UINT16_MAX, &x);
            if (error) {
                return error;
            }
            struct ofpact_output *o = OFPACT_PUT(ofpacts, OFPACT_OUTPUT,
                                                 ofpact_output);
            o->port = OFPP_CONTROLLER;
            o->max_len = x;
            return NULL;
        }
        return parse_controller(value, ofpacts);
    } else if (!strcasecmp(key, "enqueue")) {
        char *sep = strpbrk(value, ":,");
        if (!sep) {
            return xasprintf("%s: enqueue needs a port and a queue", value);
        }
        *sep = '\0';
        uint32_t port, queue;
        if (!ofputil_port_from_string(value, map, &port)) {
            return xasprintf("%s: enqueue to unknown port", value);
        }
        error = ofputil_parse_u32(sep + 1, &queue);
        if (error) {
            return error;
        }
        struct ofpact_enqueue *eq = OFPACT_PUT(ofpacts, OFPACT_ENQUEUE,
                                               ofpact_enqueue);
        eq->port = port;
        eq->queue = queue;
        return NULL;
    } else if (!strcasecmp(key, "group")) {
        uint32_t id;
        error = ofputil_parse_u32(value, &id);
        if (!error) {
            OFPACT_PUT(ofpacts, OFPACT_GROUP, ofpact_group)->group_id = id;
        }
        return error;
    } else if (!strcasecmp(key, "mod_vlan_vid")
               || !strcasecmp(key, "set_vlan_vid")) {
        error = ofputil_parse_uint(value, UINT16_MAX, &x);
        if (error || x & ~VLAN_VID_MASK) {
            free(error);
            return xasprintf("%s: not a valid VLAN VID", value);
        }
        struct ofpact_vlan_vid *vv = OFPACT_PUT(ofpacts, OFPACT_SET_VLAN_VID,
                                                ofpact_vlan_vid);
        vv->vlan_vid = x;
        vv->push_vlan_if_needed = !strcasecmp(key, "mod_vlan_vid");
        return NULL;
    } else if (!strcasecmp(key, "mod_vlan_pcp")
               || !strcasecmp(key, "set_vlan_pcp")) {
        error = ofputil_parse_uint(value, UINT8_MAX, &x);
        if (error || x & ~7) {
            free(error);
            return xasprintf("%s: not a valid VLAN PCP", value);
        }
        struct ofpact_vlan_pcp *vp = OFPACT_PUT(ofpacts, OFPACT_SET_VLAN_PCP,
                                                ofpact_vlan_pcp);
        vp->vlan_pcp = x;
        vp->push_vlan_if_needed = !strcasecmp(key, "mod_vlan_pcp");
        return NULL;
    } else if (!strcasecmp(key, "strip_vlan")) {
        OFPACT_PUT(ofpacts, OFPACT_STRIP_VLAN, ofpact);
        return NULL;
    } else if (!strcasecmp(key, "pop_vlan")) {
        OFPACT_PUT(ofpacts, OFPACT_STRIP_VLAN, ofpact)->raw
            = OFPACT_RAW_POP_VLAN;
        return NULL;
    } else if (!strcasecmp(key, "push_vlan")) {
        error = ofputil_parse_uint(value, UINT16_MAX, &x);
        if (error || (x != ETH_TYPE_VLAN_8021Q
                      && x != ETH_TYPE_VLAN_8021AD)) {
            free(error);
            return xasprintf("%s: not a valid VLAN ethertype", value);
        }
        OFPACT_PUT(ofpacts, OFPACT_PUSH_VLAN, ofpact_push_vlan)->ethertype
            = htons(x);
        return NULL;
    } else if (!strcasecmp(key, "mod_dl_src")
               || !strcasecmp(key, "mod_dl_dst")) {
        struct eth_addr mac = { .ea = { 0 } };
        error = parse_mac(value, &mac);
        if (!error) {
            OFPACT_PUT(ofpacts, (!strcasecmp(key, "mod_dl_src")
                                 ? OFPACT_SET_ETH_SRC : OFPACT_SET_ETH_DST),
                       ofpact_mac)->mac = mac;
        }
        return error;
    } else if (!strcasecmp(key, "mod_nw_src")
               || !strcasecmp(key, "mod_nw_dst")) {
        ovs_be32 ip = 0;
        error = parse_ipv4(value, &ip);
        if (!error) {
            OFPACT_PUT(ofpacts, (!strcasecmp(key, "mod_nw_src")
                                 ? OFPACT_SET_IPV4_SRC : OFPACT_SET_IPV4_DST),
                       ofpact_ipv4)->ipv4 = ip;
        }
        return error;
    } else if (!strcasecmp(key, "mod_nw_tos")) {
        error = ofputil_parse_uint(value, UINT8_MAX, &x);
        if (error || x & ~IP_DSCP_MASK) {
            free(error);
            return xasprintf("%s: not a valid TOS", value);
        }
        OFPACT_PUT(ofpacts, OFPACT_SET_IP_DSCP, ofpact_dscp)->dscp = x;
        return NULL;
    } else if (!strcasecmp(key, "mod_nw_ttl")) {
        error = ofputil_parse_uint(value, UINT8_MAX, &x);
        if (error) {
            free(error);
            return xasprintf("invalid TTL %s", value);
        }
        OFPACT_PUT(ofpacts, OFPACT_SET_IP_TTL, ofpact_ip_ttl)->ttl = x;
        return NULL;
    } else if (!strcasecmp(key, "mod_tp_src")
               || !strcasecmp(key, "mod_tp_dst")) {
        error = ofputil_parse_uint(value, UINT16_MAX, &x);
        if (!error) {
            OFPACT_PUT(ofpacts, (!strcasecmp(key, "mod_tp_src")
                                 ? OFPACT_SET_L4_SRC_PORT
                                 : OFPACT_SET_L4_DST_PORT),
                       ofpact_l4_port)->port = x;
        }
        return error;
    } else if (!strcasecmp(key, "set_queue")) {
        uint32_t q;
        error = ofputil_parse_u32(value, &q);
        if (!error) {
            OFPACT_PUT(ofpacts, OFPACT_SET_QUEUE, ofpact_queue)->queue_id = q;
        }
        return error;
    } else if (!strcasecmp(key, "pop_queue")) {
        OFPACT_PUT(ofpacts, OFPACT_POP_QUEUE, ofpact);
        return NULL;
    } else if (!strcasecmp(key, "set_field")) {
        return parse_set_field(value, map, ofpacts);
    } else if (!strcasecmp(key, "load")) {
        return parse_load(value, ofpacts);
    } else if (!strcasecmp(key, "move")) {
        return parse_move(value, ofpacts);
    } else if (!strcasecmp(key, "set_tunnel")
               || !strcasecmp(key, "set_tunnel64")) {
        error = ofputil_parse_uint(value, UINT64_MAX, &x);
        if (!error) {
            struct ofpact_tunnel *t = OFPACT_PUT(ofpacts, OFPACT_SET_TUNNEL,
                                                 ofpact_tunnel);
            t->tun_id = x;
            if (!strcasecmp(key, "set_tunnel64")) {
                t->ofpact.raw = OFPACT_RAW_SET_TUNNEL64;
            }
        }
        return error;
    } else if (!strcasecmp(key, "note")) {
        struct ofpact_note *note = ofpact_put(ofpacts, OFPACT_NOTE,
                                              sizeof *note);
        size_t ofs = (uint8_t *) note - (uint8_t *) ofpacts->data;
        size_t before = ofpacts->size;
        if (*ofpbuf_put_hex(ofpacts, value, NULL)) {
            return xstrdup("bad hex digit in `note' argument");
        }
        /* 3.1 shows the padding of NXAST_NOTE as part of the note: the
         * bytes fill out the action to a multiple of 8, at least 6. */
        size_t n = ofpacts->size - before;
        size_t padded = MAX(16, ROUND_UP(10 + n, 8)) - 10;
        ofpbuf_put_zeros(ofpacts, padded - n);
        note = ofpbuf_at_assert(ofpacts, ofs, sizeof *note);
        note->length = padded;
        ofpact_finish(ofpacts, &note->ofpact);
        return NULL;
    } else if (!strcasecmp(key, "exit")) {
        OFPACT_PUT(ofpacts, OFPACT_EXIT, ofpact);
        return NULL;
    } else if (!strcasecmp(key, "learn")) {
        return learn_parse(value, map, ctx->table_map, ofpacts);
    } else if (!strcasecmp(key, "resubmit")) {
        return parse_resubmit(value, sep == '(', map, ctx->table_map,
                              ofpacts);
    } else if (!strcasecmp(key, "meter")) {
        uint32_t id;
        error = ofputil_parse_u32(value, &id);
        if (!error) {
            OFPACT_PUT(ofpacts, OFPACT_METER, ofpact_meter)->meter_id = id;
        }
        return error;
    } else if (!strcasecmp(key, "clear_actions")) {
        OFPACT_PUT(ofpacts, OFPACT_CLEAR_ACTIONS, ofpact);
        return NULL;
    } else if (!strcasecmp(key, "write_actions")) {
        size_t ofs = ofpacts->size;
        ofpact_put(ofpacts, OFPACT_WRITE_ACTIONS, sizeof(struct ofpact_nest));
        error = ofpacts_parse_actions(value, map, ctx->table_map, ofpacts);
        if (error) {
            return error;
        }
        ofpact_finish(ofpacts, ofpbuf_at_assert(ofpacts, ofs,
                                                sizeof(struct ofpact)));
        return NULL;
    } else if (!strcasecmp(key, "write_metadata")) {
        char *slash = strchr(value, '/');
        uint64_t mask = UINT64_MAX;
        if (slash) {
            *slash = '\0';
            error = ofputil_parse_uint(slash + 1, UINT64_MAX, &mask);
            if (error) {
                return error;
            }
        }
        error = ofputil_parse_uint(value, UINT64_MAX, &x);
        if (error) {
            return error;
        }
        struct ofpact_metadata *md = OFPACT_PUT(ofpacts, OFPACT_WRITE_METADATA,
                                                ofpact_metadata);
        md->metadata = htonll(x);
        md->mask = htonll(mask);
        return NULL;
    } else if (!strcasecmp(key, "goto_table")) {
        uint8_t table;
        if (!ofputil_table_from_string(value, ctx->table_map, &table)) {
            return xasprintf("unknown table \"%s\"", value);
        }
        OFPACT_PUT(ofpacts, OFPACT_GOTO_TABLE, ofpact_goto_table)->table_id
            = table;
        return NULL;
    }

    /* A bare port is an output. */
    uint32_t port;
    if (!*value && ofputil_port_from_string(key, map, &port)) {
        return parse_output_port(key, map, ofpacts);
    }
    return xasprintf("unknown action %s", key);
}

/* A conjunction makes its flow part of a conjunctive match, which nothing
 * but another conjunction (or a note) may accompany. */
static char *
check_conjunction_alone(const struct ofpact *ofpacts, size_t len)
{
    const struct ofpact *a, *other = NULL;
    bool conj = false;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        if (a->type == OFPACT_CONJUNCTION) {
            conj = true;
        } else if (a->type != OFPACT_NOTE && !other) {
            other = a;
        }
    }
    if (conj && other) {
        return xasprintf("\"conjunction\" actions may be used along with "
                         "\"note\" but not any other kind of action (such as "
                         "the \"%s\" action used here)",
                         ofpact_name(other->type));
    }
    return NULL;
}

static char *
parse_list(const char *s_, const struct ofpact_parse_ctx *ctx,
           bool allow_instructions)
{
    struct ofpbuf *ofpacts = ctx->ofpacts;
    char *copy = xstrdup(s_), *s = copy;
    size_t start = ofpacts->size;
    bool is_drop = false;
    char *key, *value, *error = NULL;
    int n = 0;

    char sep;
    while (ofputil_parse_key_value(&s, &key, &value, &sep)) {
        n++;
        error = parse_action(key, value, sep, ctx, &is_drop);
        if (error) {
            goto out;
        }
    }
    if (is_drop && n > 1) {
        error = xstrdup("\"drop\" must not be accompanied by any other "
                        "action or instruction");
        goto out;
    }
    error = check_conjunction_alone(
        (const struct ofpact *) ((uint8_t *) ofpacts->data + start),
        ofpacts->size - start);
    if (error) {
        goto out;
    }

    /* Instructions: each at most once, in OpenFlow order (meter,
     * Apply-Actions, that is the bare actions, clear_actions,
     * write_actions, write_metadata, goto_table). */
    const struct ofpact *a;
    int last_rank = -1;
    const char *last_name = NULL;
    OFPACT_FOR_EACH (a, (const struct ofpact *) ((uint8_t *) ofpacts->data
                                                + start),
                     ofpacts->size - start) {
        bool inst = ofpact_is_instruction(a->type);
        if (inst && !allow_instructions) {
            error = xasprintf("instruction %s not allowed here",
                              ofpact_name(a->type));
            goto out;
        }
        int rank = (!inst ? 1
                    : a->type == OFPACT_METER ? 0
                    : 2 + (a->type - OFPACT_CLEAR_ACTIONS));
        const char *name = inst ? ofpact_name(a->type) : "apply_actions";
        if (inst && rank == last_rank) {
            error = xasprintf("duplicate %s instruction not allowed, for "
                              "OpenFlow 1.1+ compatibility", name);
            goto out;
        }
        if (rank < last_rank) {
            error = xasprintf("invalid instruction ordering: %s must appear "
                              "before %s, for OpenFlow 1.1+ compatibility",
                              name, last_name);
            goto out;
        }
        last_rank = rank;
        last_name = name;
    }

out:
    if (error) {
        ofpacts->size = start;
    }
    free(copy);
    return error;
}

char *
ofpacts_parse_actions(const char *s, const struct ofputil_port_map *map,
                      const struct ofputil_table_map *tables,
                      struct ofpbuf *ofpacts)
{
    struct ofpact_parse_ctx ctx = { .port_map = map, .table_map = tables,
                                    .ofpacts = ofpacts };
    return parse_list(s, &ctx, false);
}

char *
ofpacts_parse_instructions(const char *s, const struct ofputil_port_map *map,
                           const struct ofputil_table_map *tables,
                           struct ofpbuf *ofpacts)
{
    struct ofpact_parse_ctx ctx = { .port_map = map, .table_map = tables,
                                    .ofpacts = ofpacts };
    return parse_list(s, &ctx, true);
}

char *
ofpacts_parse_nested(const char *s, const struct ofpact_parse_ctx *ctx)
{
    return parse_list(s, ctx, false);
}
