/* ofp-ct: connection tracking flush requests.  See ofp-ct.h. */
#include <config.h>
#include "ofp-ct.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "dynamic-string.h"
#include "ofp-msgs.h"
#include "ofp-parse.h"
#include "ofp-prop.h"
#include "ofpbuf.h"
#include "packets.h"

static bool
is_icmp(uint8_t ip_proto)
{
    return ip_proto == IPPROTO_ICMP || ip_proto == IPPROTO_ICMPV6;
}

static void
format_addr(struct ds *s, const struct in6_addr *addr)
{
    char buf[INET6_ADDRSTRLEN];
    if (IN6_IS_ADDR_V4MAPPED(addr)) {
        inet_ntop(AF_INET, &addr->s6_addr[12], buf, sizeof buf);
    } else {
        inet_ntop(AF_INET6, addr, buf, sizeof buf);
    }
    ds_put_cstr(s, buf);
}

static void
format_tuple(struct ds *s, const struct ofputil_ct_tuple *t,
             uint8_t ip_proto, uint16_t l3_type)
{
    bool ip4 = l3_type == AF_INET;
    ds_put_cstr(s, ip4 ? "ct_nw_src=" : "ct_ipv6_src=");
    format_addr(s, &t->src);
    ds_put_cstr(s, ip4 ? ",ct_nw_dst=" : ",ct_ipv6_dst=");
    format_addr(s, &t->dst);
    if (is_icmp(ip_proto)) {
        ds_put_format(s, ",icmp_id=%u,icmp_type=%u,icmp_code=%u",
                      ntohs(t->icmp_id), t->icmp_type, t->icmp_code);
    } else {
        ds_put_format(s, ",ct_tp_src=%u,ct_tp_dst=%u", ntohs(t->src_port),
                      ntohs(t->dst_port));
    }
}

void
ofputil_ct_match_format(struct ds *s, const struct ofputil_ct_match *m)
{
    ds_put_char(s, '\'');
    format_tuple(s, &m->orig, m->ip_proto, m->l3_type);
    ds_put_format(s, ",ct_nw_proto=%u' '", m->ip_proto);
    format_tuple(s, &m->reply, m->ip_proto, m->l3_type);
    ds_put_char(s, '\'');
}

static bool
tuple_is_zero(const struct ofputil_ct_tuple *t, uint8_t ip_proto)
{
    return (ipv6_addr_is_zero(&t->src) && ipv6_addr_is_zero(&t->dst)
            && (is_icmp(ip_proto) || (!t->src_port && !t->dst_port)));
}

bool
ofputil_ct_match_is_zero(const struct ofputil_ct_match *m)
{
    return (!m->ip_proto && !m->l3_type
            && tuple_is_zero(&m->orig, m->ip_proto)
            && tuple_is_zero(&m->reply, m->ip_proto));
}

char *
ofputil_ct_tuple_parse(struct ofputil_ct_tuple *t, const char *s_,
                       uint8_t *ip_proto, uint16_t *l3_type)
{
    char *copy = xstrdup(s_);
    char *s = copy, *key, *value;
    char *error = NULL;
    struct ds notes = DS_EMPTY_INITIALIZER;

    while (!error && ofputil_parse_key_value(&s, &key, &value, NULL)) {
        uint64_t x;
        if (!*value) {
            error = xasprintf("field %s missing value", key);
        } else if (!strcmp(key, "ct_nw_src") || !strcmp(key, "ct_nw_dst")
                   || !strcmp(key, "ct_ipv6_src")
                   || !strcmp(key, "ct_ipv6_dst")) {
            bool ip4 = key[3] == 'n';
            bool src = !strcmp(key + strlen(key) - 3, "src");
            struct in6_addr *addr = src ? &t->src : &t->dst;
            struct in_addr a4;
            if (*l3_type && *l3_type != (ip4 ? AF_INET : AF_INET6)) {
                error = xasprintf("the L3 protocol does not match %s", value);
            } else if (!ipv6_addr_is_zero(addr)) {
                error = xasprintf("%s is set multiple times", key);
            } else if (ip4 ? inet_pton(AF_INET, value, &a4) != 1
                           : inet_pton(AF_INET6, value, addr) != 1) {
                error = xasprintf("failed to parse field %s", key);
            } else {
                if (ip4) {
                    memset(addr, 0, sizeof *addr);
                    addr->s6_addr[10] = addr->s6_addr[11] = 0xff;
                    memcpy(&addr->s6_addr[12], &a4, 4);
                }
                *l3_type = ip4 ? AF_INET : AF_INET6;
            }
        } else if (!strcmp(key, "ct_nw_proto")) {
            /* Given twice, the last one counts, and the complaint only
             * prefixes a later error (3.1 reads it so). */
            if (*ip_proto) {
                ds_put_format(&notes, "%s is set multiple times", key);
            }
            if (!ofputil_scan_uint(value, UINT8_MAX, &x)) {
                error = xasprintf("failed to parse field %s", key);
            } else {
                *ip_proto = x;
            }
        } else if (!strcmp(key, "ct_tp_src") || !strcmp(key, "ct_tp_dst")) {
            if (!ofputil_scan_uint(value, UINT16_MAX, &x)) {
                error = xasprintf("failed to parse field %s", key);
            } else if (key[6] == 's') {
                t->src_port = htons(x);
            } else {
                t->dst_port = htons(x);
            }
        } else if (!strcmp(key, "icmp_type") || !strcmp(key, "icmp_code")
                   || !strcmp(key, "icmp_id")) {
            bool id = key[5] == 'i';
            if (!is_icmp(*ip_proto)) {
                error = xstrdup("invalid L4 fields");
            } else if (!ofputil_scan_uint(value, id ? UINT16_MAX : UINT8_MAX,
                                     &x)) {
                error = xasprintf("failed to parse field %s", key);
            } else if (id) {
                t->icmp_id = htons(x);
            } else if (key[5] == 't') {
                t->icmp_type = x;
            } else {
                t->icmp_code = x;
            }
        } else {
            error = xasprintf("invalid conntrack tuple field: %s", key);
        }
    }
    if (!error && !*ip_proto && (t->src_port || t->dst_port)) {
        error = xstrdup("port is set without protocol");
    }
    if (error && notes.length) {
        ds_put_cstr(&notes, error);
        free(error);
        error = ds_steal_cstr(&notes);
    }
    ds_destroy(&notes);
    free(copy);
    return error;
}

/* NXT_CT_FLUSH. */

static void
put_tuple(struct ofpbuf *b, uint16_t type, const struct ofputil_ct_tuple *t,
          uint8_t ip_proto)
{
    uint64_t stub[128 / 8];
    struct ofpbuf nested;
    ofpbuf_use_stub(&nested, stub, sizeof stub);
    if (!ipv6_addr_is_zero(&t->src)) {
        ofpprop_put(&nested, NXT_CT_TUPLE_SRC, &t->src, sizeof t->src);
    }
    if (!ipv6_addr_is_zero(&t->dst)) {
        ofpprop_put(&nested, NXT_CT_TUPLE_DST, &t->dst, sizeof t->dst);
    }
    if (is_icmp(ip_proto)) {
        ofpprop_put_be16(&nested, NXT_CT_TUPLE_ICMP_ID, t->icmp_id);
        ofpprop_put(&nested, NXT_CT_TUPLE_ICMP_TYPE, &t->icmp_type, 1);
        ofpprop_put(&nested, NXT_CT_TUPLE_ICMP_CODE, &t->icmp_code, 1);
    } else {
        if (t->src_port) {
            ofpprop_put_be16(&nested, NXT_CT_TUPLE_SRC_PORT, t->src_port);
        }
        if (t->dst_port) {
            ofpprop_put_be16(&nested, NXT_CT_TUPLE_DST_PORT, t->dst_port);
        }
    }
    if (nested.size) {
        ofpprop_put_nested(b, type, &nested);
    }
    ofpbuf_uninit(&nested);
}

struct ofpbuf *
ofputil_encode_ct_flush(const struct ofputil_ct_match *m,
                        const uint16_t *zone, enum ofp_version version)
{
    struct ofpbuf *msg = ofpraw_alloc(OFPRAW_NXT_CT_FLUSH, version, 0);
    struct nx_ct_flush *ncf = msg->msg;
    ncf->ip_proto = m->ip_proto;
    put_tuple(msg, NXT_CT_ORIG_TUPLE, &m->orig, m->ip_proto);
    put_tuple(msg, NXT_CT_REPLY_TUPLE, &m->reply, m->ip_proto);
    if (zone) {
        ofpprop_put_be16(msg, NXT_CT_ZONE_ID, htons(*zone));
    }
    ofpmsg_update_length(msg);
    return msg;
}

/* The at least SIZE bytes of PROPERTY's body into DST. */
static enum ofperr
pull_value(const struct ofpbuf *property, void *dst, size_t size)
{
    struct ofpbuf body;
    ofpprop_body(property, &body);
    if (body.size < size) {
        return OFPERR_OFPBPC_BAD_LEN;
    }
    memcpy(dst, body.data, size);
    return 0;
}

/* An address property: its family must agree with the others'. */
static enum ofperr
pull_addr(const struct ofpbuf *property, struct in6_addr *addr,
          uint16_t *l3_type)
{
    enum ofperr error = pull_value(property, addr, sizeof *addr);
    if (error) {
        return error;
    }
    uint16_t l3 = 0;
    if (!ipv6_addr_is_zero(addr)) {
        l3 = IN6_IS_ADDR_V4MAPPED(addr) ? AF_INET : AF_INET6;
    }
    if (*l3_type && l3 && *l3_type != l3) {
        return OFPERR_OFPBPC_BAD_VALUE;
    }
    *l3_type = l3;
    return 0;
}

static enum ofperr
pull_tuple(const struct ofpbuf *property, struct ofputil_ct_tuple *t,
           uint16_t *l3_type)
{
    struct ofpbuf nested;
    enum ofperr error = ofpprop_nested_body(property, &nested);
    while (!error && nested.size) {
        struct ofpbuf inner;
        uint16_t type;
        error = ofpprop_pull(&nested, &inner, &type);
        if (error) {
            break;
        }
        switch (type) {
        case NXT_CT_TUPLE_SRC:
            error = pull_addr(&inner, &t->src, l3_type);
            break;
        case NXT_CT_TUPLE_DST:
            error = pull_addr(&inner, &t->dst, l3_type);
            break;
        case NXT_CT_TUPLE_SRC_PORT:
            error = pull_value(&inner, &t->src_port, 2);
            break;
        case NXT_CT_TUPLE_DST_PORT:
            error = pull_value(&inner, &t->dst_port, 2);
            break;
        case NXT_CT_TUPLE_ICMP_ID:
            error = pull_value(&inner, &t->icmp_id, 2);
            break;
        case NXT_CT_TUPLE_ICMP_TYPE:
            error = pull_value(&inner, &t->icmp_type, 1);
            break;
        case NXT_CT_TUPLE_ICMP_CODE:
            error = pull_value(&inner, &t->icmp_code, 1);
            break;
        default:
            /* Unknown: skipped, as 3.1 does. */
            break;
        }
    }
    return error;
}

enum ofperr
ofputil_decode_ct_flush(const struct ofp_header *oh,
                        struct ofputil_ct_match *m, bool *with_zone,
                        uint16_t *zone)
{
    memset(m, 0, sizeof *m);
    *with_zone = false;
    *zone = 0;

    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error = ofpmsg_pull_body(oh, &b, &raw);
    if (error) {
        return error;
    }
    const struct nx_ct_flush *ncf = ofpbuf_pull(&b, sizeof *ncf);
    for (size_t i = 0; i < sizeof ncf->pad; i++) {
        if (ncf->pad[i]) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
    }
    m->ip_proto = ncf->ip_proto;

    while (b.size) {
        struct ofpbuf property;
        uint16_t type;
        error = ofpprop_pull(&b, &property, &type);
        if (error) {
            return error;
        }
        switch (type) {
        case NXT_CT_ORIG_TUPLE:
            error = pull_tuple(&property, &m->orig, &m->l3_type);
            break;
        case NXT_CT_REPLY_TUPLE:
            error = pull_tuple(&property, &m->reply, &m->l3_type);
            break;
        case NXT_CT_ZONE_ID: {
            ovs_be16 z;
            error = pull_value(&property, &z, sizeof z);
            if (!error) {
                *with_zone = true;
                *zone = ntohs(z);
            }
            break;
        }
        default:
            break;
        }
        if (error) {
            return error;
        }
    }
    return 0;
}

/* NXT_CT_FLUSH_ZONE. */

struct ofpbuf *
ofputil_encode_ct_flush_zone(uint16_t zone, enum ofp_version version)
{
    struct ofpbuf *msg = ofpraw_alloc(OFPRAW_NXT_CT_FLUSH_ZONE, version, 0);
    struct nx_zone_id *nzi = msg->msg;
    nzi->zone_id = htons(zone);
    return msg;
}

enum ofperr
ofputil_decode_ct_flush_zone(const struct ofp_header *oh, uint16_t *zone)
{
    const struct nx_zone_id *nzi = ofpmsg_body(oh);
    for (size_t i = 0; i < sizeof nzi->zero; i++) {
        if (nzi->zero[i]) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
    }
    *zone = ntohs(nzi->zone_id);
    return 0;
}
