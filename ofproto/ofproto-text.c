/* ofproto-text: see ofproto-text.h. */
#include <config.h>
#include "ofproto-text.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "flow.h"
#include "ofpact.h"
#include "packets.h"

#define OVS_BE16_MAX ((ovs_be16) 0xffff)
#define OVS_BE32_MAX ((ovs_be32) 0xffffffff)

#ifndef IPPROTO_SCTP
#define IPPROTO_SCTP 132
#endif

/* Protocol shorthands: a dl_type, and a nw_proto or -1. */
static const struct {
    const char *name;
    uint16_t dl_type;
    int nw_proto;
} protocols[] = {
    { "tcp", ETH_TYPE_IP, IPPROTO_TCP },
    { "udp", ETH_TYPE_IP, IPPROTO_UDP },
    { "sctp", ETH_TYPE_IP, IPPROTO_SCTP },
    { "icmp", ETH_TYPE_IP, IPPROTO_ICMP },
    { "tcp6", ETH_TYPE_IPV6, IPPROTO_TCP },
    { "udp6", ETH_TYPE_IPV6, IPPROTO_UDP },
    { "sctp6", ETH_TYPE_IPV6, IPPROTO_SCTP },
    { "icmp6", ETH_TYPE_IPV6, IPPROTO_ICMPV6 },
    { "ip", ETH_TYPE_IP, -1 },
    { "ipv6", ETH_TYPE_IPV6, -1 },
    { "arp", ETH_TYPE_ARP, -1 },
    { "rarp", ETH_TYPE_RARP, -1 },
};

static bool
is_all_ones(const void *p_, size_t n)
{
    const uint8_t *p = p_;
    for (size_t i = 0; i < n; i++) {
        if (p[i] != 0xff) {
            return false;
        }
    }
    return true;
}

static bool
is_all_zeros(const void *p_, size_t n)
{
    const uint8_t *p = p_;
    for (size_t i = 0; i < n; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
}

static void
format_eth(struct ds *s, const char *name, struct eth_addr v,
           struct eth_addr m)
{
    if (is_all_zeros(&m, sizeof m)) {
        return;
    }
    ds_put_format(s, "%s="ETH_ADDR_FMT, name, ETH_ADDR_ARGS(v));
    if (!is_all_ones(&m, sizeof m)) {
        ds_put_format(s, "/"ETH_ADDR_FMT, ETH_ADDR_ARGS(m));
    }
    ds_put_char(s, ',');
}

static void
format_ip(struct ds *s, const char *name, ovs_be32 v, ovs_be32 m)
{
    if (!m) {
        return;
    }
    ds_put_format(s, "%s="IP_FMT, name, IP_ARGS(v));
    if (m != OVS_BE32_MAX) {
        uint32_t hm = ntohl(m);
        int prefix = __builtin_popcount(hm);
        if (hm == (prefix ? UINT32_MAX << (32 - prefix) : 0)) {
            ds_put_format(s, "/%d", prefix);
        } else {
            ds_put_format(s, "/"IP_FMT, IP_ARGS(m));
        }
    }
    ds_put_char(s, ',');
}

static void
format_ipv6(struct ds *s, const char *name, const struct in6_addr *v,
            const struct in6_addr *m)
{
    if (is_all_zeros(m, sizeof *m)) {
        return;
    }
    char buf[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, v, buf, sizeof buf);
    ds_put_format(s, "%s=%s", name, buf);
    if (!is_all_ones(m, sizeof *m)) {
        /* A prefix prints as /N, any other mask as an address. */
        int prefix = 0;
        while (prefix < 128
               && m->s6_addr[prefix / 8] & (0x80 >> (prefix % 8))) {
            prefix++;
        }
        bool is_prefix = true;
        for (int i = prefix; i < 128; i++) {
            is_prefix &= !(m->s6_addr[i / 8] & (0x80 >> (i % 8)));
        }
        if (is_prefix) {
            ds_put_format(s, "/%d", prefix);
        } else {
            inet_ntop(AF_INET6, m, buf, sizeof buf);
            ds_put_format(s, "/%s", buf);
        }
    }
    ds_put_char(s, ',');
}

static void
format_uint(struct ds *s, const char *name, unsigned int v, unsigned int m,
            unsigned int all, bool hex)
{
    if (!m) {
        return;
    }
    ds_put_format(s, hex ? "%s=%#x" : "%s=%u", name, v);
    if (m != all) {
        ds_put_format(s, "/%#x", m);
    }
    ds_put_char(s, ',');
}

static const char *
frag_name(uint8_t frag)
{
    return (frag & FLOW_NW_FRAG_LATER ? "later"
            : frag & FLOW_NW_FRAG_ANY ? "first" : "no");
}

void
ofp_match_format(const struct flow *f, const struct flow_wildcards *wc,
                 int priority, const struct ofp_port_names *names,
                 struct ds *s)
{
    const struct flow *m = &wc->masks;
    size_t start = s->length;

    if (priority >= 0 && priority != 32768) {
        ds_put_format(s, "priority=%d,", priority);
    }

    /* Protocol shorthand. */
    uint16_t dl_type = ntohs(f->dl_type);
    bool dl_type_exact = m->dl_type == OVS_BE16_MAX;
    bool proto_exact = m->nw_proto == 0xff;
    bool shorthand_type = false, shorthand_proto = false;
    if (dl_type_exact) {
        for (size_t i = 0; i < ARRAY_SIZE(protocols); i++) {
            if (protocols[i].dl_type != dl_type) {
                continue;
            }
            if (protocols[i].nw_proto >= 0
                ? proto_exact && f->nw_proto == protocols[i].nw_proto
                : true) {
                ds_put_format(s, "%s,", protocols[i].name);
                shorthand_type = true;
                shorthand_proto = protocols[i].nw_proto >= 0;
                break;
            }
        }
    }

    if (m->in_port) {
        const char *name = names && names->name_of
                           ? names->name_of(names->aux, f->in_port) : NULL;
        const char *reserved = ofp_port_reserved_name(f->in_port);
        if (reserved) {
            ds_put_format(s, "in_port=%s,", reserved);
        } else if (name) {
            ds_put_format(s, "in_port=%s,", name);
        } else {
            ds_put_format(s, "in_port=%"PRIu32",", f->in_port);
        }
    }
    if (m->vlans[0].tci) {
        ds_put_format(s, "vlan_tci=0x%04"PRIx16, ntohs(f->vlans[0].tci));
        if (m->vlans[0].tci != OVS_BE16_MAX) {
            ds_put_format(s, "/0x%04"PRIx16, ntohs(m->vlans[0].tci));
        }
        ds_put_char(s, ',');
    }
    format_eth(s, "dl_src", f->dl_src, m->dl_src);
    format_eth(s, "dl_dst", f->dl_dst, m->dl_dst);
    if (m->dl_type && !shorthand_type) {
        ds_put_format(s, "dl_type=0x%04"PRIx16",", dl_type);
    }

    bool arp = dl_type == ETH_TYPE_ARP || dl_type == ETH_TYPE_RARP;
    if (arp) {
        format_ip(s, "arp_spa", f->nw_src, m->nw_src);
        format_ip(s, "arp_tpa", f->nw_dst, m->nw_dst);
        format_uint(s, "arp_op", f->nw_proto, m->nw_proto, 0xff, false);
        format_eth(s, "arp_sha", f->arp_sha, m->arp_sha);
        format_eth(s, "arp_tha", f->arp_tha, m->arp_tha);
    } else {
        format_ip(s, "nw_src", f->nw_src, m->nw_src);
        format_ip(s, "nw_dst", f->nw_dst, m->nw_dst);
        format_ipv6(s, "ipv6_src", &f->ipv6_src, &m->ipv6_src);
        format_ipv6(s, "ipv6_dst", &f->ipv6_dst, &m->ipv6_dst);
        if (!shorthand_proto) {
            format_uint(s, "nw_proto", f->nw_proto, m->nw_proto, 0xff,
                        false);
        }
        format_uint(s, "nw_tos", f->nw_tos & 0xfc, m->nw_tos & 0xfc, 0xfc,
                    false);
        format_uint(s, "nw_ecn", f->nw_tos & 0x03, m->nw_tos & 0x03, 0x03,
                    false);
        format_uint(s, "nw_ttl", f->nw_ttl, m->nw_ttl, 0xff, false);
        if (m->nw_frag) {
            ds_put_format(s, "nw_frag=%s,", frag_name(f->nw_frag));
        }
        bool icmp = (f->nw_proto == IPPROTO_ICMP
                     || f->nw_proto == IPPROTO_ICMPV6) && proto_exact;
        format_uint(s, icmp ? "icmp_type" : "tp_src", ntohs(f->tp_src),
                    ntohs(m->tp_src), 0xffff, false);
        format_uint(s, icmp ? "icmp_code" : "tp_dst", ntohs(f->tp_dst),
                    ntohs(m->tp_dst), 0xffff, false);
        format_uint(s, "tcp_flags", ntohs(f->tcp_flags),
                    ntohs(m->tcp_flags), 0x0fff, true);
    }
    if (s->length > start && s->string[s->length - 1] == ',') {
        ds_truncate(s, s->length - 1);
    }
}

void
ofp_flow_format(const struct flow *flow, const struct ofp_port_names *names,
                struct ds *s)
{
    struct flow_wildcards wc;
    flow_wildcards_init_catchall(&wc);
    struct flow *m = &wc.masks;
    WC_MASK_FIELD(&wc, in_port);
    m->vlans[0].tci = OVS_BE16_MAX;
    WC_MASK_FIELD(&wc, dl_src);
    WC_MASK_FIELD(&wc, dl_dst);
    WC_MASK_FIELD(&wc, dl_type);
    uint16_t dl_type = ntohs(flow->dl_type);
    if (dl_type == ETH_TYPE_ARP || dl_type == ETH_TYPE_RARP) {
        WC_MASK_FIELD(&wc, nw_src);
        WC_MASK_FIELD(&wc, nw_dst);
        WC_MASK_FIELD(&wc, nw_proto);
        WC_MASK_FIELD(&wc, arp_sha);
        WC_MASK_FIELD(&wc, arp_tha);
    } else if (dl_type == ETH_TYPE_IP || dl_type == ETH_TYPE_IPV6) {
        if (dl_type == ETH_TYPE_IP) {
            WC_MASK_FIELD(&wc, nw_src);
            WC_MASK_FIELD(&wc, nw_dst);
        } else {
            WC_MASK_FIELD(&wc, ipv6_src);
            WC_MASK_FIELD(&wc, ipv6_dst);
        }
        WC_MASK_FIELD(&wc, nw_proto);
        WC_MASK_FIELD(&wc, nw_tos);
        WC_MASK_FIELD(&wc, nw_ttl);
        /* nw_frag prints even when zero ("no"). */
        WC_MASK_FIELD(&wc, nw_frag);
        if (!(flow->nw_frag & FLOW_NW_FRAG_LATER)
            && (flow->nw_proto == IPPROTO_TCP || flow->nw_proto == IPPROTO_UDP
                || flow->nw_proto == IPPROTO_SCTP
                || flow->nw_proto == IPPROTO_ICMP
                || flow->nw_proto == IPPROTO_ICMPV6)) {
            WC_MASK_FIELD(&wc, tp_src);
            WC_MASK_FIELD(&wc, tp_dst);
            if (flow->nw_proto == IPPROTO_TCP) {
                m->tcp_flags = htons(0x0fff);
            }
        }
    }
    ofp_match_format(flow, &wc, -1, names, s);
}

/* Parsing. */

static char *
parse_masked_uint(const char *value, unsigned int max, unsigned int *v,
                  unsigned int *m)
{
    char *end;
    errno = 0;
    unsigned long x = strtoul(value, &end, 0);
    if (end == value || errno || x > max) {
        return xasprintf("%s: bad value", value);
    }
    *v = x;
    *m = max;
    if (*end == '/') {
        const char *ms = end + 1;
        x = strtoul(ms, &end, 0);
        if (end == ms || errno || x > max) {
            return xasprintf("%s: bad mask", value);
        }
        *m = x;
    }
    if (*end) {
        return xasprintf("%s: trailing garbage", value);
    }
    return NULL;
}

static char *
parse_eth(const char *value, struct eth_addr *v, struct eth_addr *m)
{
    char buf[64];
    const char *slash = strchr(value, '/');
    size_t len = slash ? (size_t) (slash - value) : strlen(value);
    if (len >= sizeof buf) {
        return xasprintf("%s: bad Ethernet address", value);
    }
    memcpy(buf, value, len);
    buf[len] = '\0';
    if (!eth_addr_from_string(buf, v)) {
        return xasprintf("%s: bad Ethernet address", value);
    }
    memset(m, 0xff, sizeof *m);
    if (slash && !eth_addr_from_string(slash + 1, m)) {
        return xasprintf("%s: bad Ethernet mask", value);
    }
    return NULL;
}

static char *
parse_ip(const char *value, ovs_be32 *v, ovs_be32 *m)
{
    char buf[64];
    const char *slash = strchr(value, '/');
    size_t len = slash ? (size_t) (slash - value) : strlen(value);
    if (len >= sizeof buf) {
        return xasprintf("%s: bad IP address", value);
    }
    memcpy(buf, value, len);
    buf[len] = '\0';
    struct in_addr a;
    if (inet_pton(AF_INET, buf, &a) != 1) {
        return xasprintf("%s: bad IP address", value);
    }
    *v = a.s_addr;
    *m = OVS_BE32_MAX;
    if (slash) {
        const char *ms = slash + 1;
        char *end;
        unsigned long prefix = strtoul(ms, &end, 10);
        if (!strchr(ms, '.') && end != ms && !*end && prefix <= 32) {
            *m = htonl(prefix ? UINT32_MAX << (32 - prefix) : 0);
        } else if (inet_pton(AF_INET, ms, &a) == 1) {
            *m = a.s_addr;
        } else {
            return xasprintf("%s: bad IP mask", value);
        }
    }
    *v &= *m;
    return NULL;
}

static char *
parse_ipv6(const char *value, struct in6_addr *v, struct in6_addr *m)
{
    char buf[INET6_ADDRSTRLEN + 8];
    const char *slash = strchr(value, '/');
    size_t len = slash ? (size_t) (slash - value) : strlen(value);
    if (len >= sizeof buf) {
        return xasprintf("%s: bad IPv6 address", value);
    }
    memcpy(buf, value, len);
    buf[len] = '\0';
    if (inet_pton(AF_INET6, buf, v) != 1) {
        return xasprintf("%s: bad IPv6 address", value);
    }
    memset(m, 0xff, sizeof *m);
    if (slash) {
        char *end;
        unsigned long prefix = strtoul(slash + 1, &end, 10);
        if (end == slash + 1 || *end || prefix > 128) {
            return xasprintf("%s: bad IPv6 prefix", value);
        }
        memset(m, 0, sizeof *m);
        for (unsigned int i = 0; i < prefix; i++) {
            m->s6_addr[i / 8] |= 0x80 >> (i % 8);
        }
        for (int i = 0; i < 16; i++) {
            v->s6_addr[i] &= m->s6_addr[i];
        }
    }
    return NULL;
}

#define SET_FIELD(FIELD, V, M) \
    (flow->FIELD = (V), wc->masks.FIELD = (M))

static char *
parse_field(const char *key, const char *value,
            const struct ofp_port_names *names, struct flow *flow,
            struct flow_wildcards *wc, int *priority)
{
    unsigned int v, m;
    char *error = NULL;

    if (!strcmp(key, "priority")) {
        if (!priority) {
            return xstrdup("priority is not allowed here");
        }
        error = parse_masked_uint(value, UINT16_MAX, &v, &m);
        if (!error) {
            *priority = v;
        }
    } else if (!strcmp(key, "in_port")) {
        uint16_t port;
        if (ofp_port_from_string(value, &port)
            || (names && names->number_of
                && names->number_of(names->aux, value, &port))) {
            SET_FIELD(in_port, port, UINT32_MAX);
        } else {
            error = xasprintf("%s: unknown port", value);
        }
    } else if (!strcmp(key, "dl_src") || !strcmp(key, "eth_src")) {
        error = parse_eth(value, &flow->dl_src, &wc->masks.dl_src);
    } else if (!strcmp(key, "dl_dst") || !strcmp(key, "eth_dst")) {
        error = parse_eth(value, &flow->dl_dst, &wc->masks.dl_dst);
    } else if (!strcmp(key, "dl_type") || !strcmp(key, "eth_type")) {
        error = parse_masked_uint(value, UINT16_MAX, &v, &m);
        if (!error) {
            SET_FIELD(dl_type, htons(v), htons(m));
        }
    } else if (!strcmp(key, "dl_vlan")) {
        error = parse_masked_uint(value, UINT16_MAX, &v, &m);
        if (!error && v == 0xffff) {
            /* No tag at all. */
            SET_FIELD(vlans[0].tci, 0, OVS_BE16_MAX);
        } else if (!error && v <= VLAN_VID_MASK) {
            ovs_be16 tci = flow->vlans[0].tci & htons(VLAN_PCP_MASK);
            flow->vlans[0].tci = tci | htons(VLAN_CFI | v);
            flow->vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
            wc->masks.vlans[0].tci |= htons(VLAN_CFI | VLAN_VID_MASK);
        } else if (!error) {
            error = xasprintf("%s: bad VLAN id", value);
        }
    } else if (!strcmp(key, "dl_vlan_pcp") || !strcmp(key, "vlan_pcp")) {
        error = parse_masked_uint(value, 7, &v, &m);
        if (!error) {
            ovs_be16 tci = flow->vlans[0].tci & ~htons(VLAN_PCP_MASK);
            flow->vlans[0].tci = tci | htons(VLAN_CFI
                                             | (v << VLAN_PCP_SHIFT));
            flow->vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
            wc->masks.vlans[0].tci |= htons(VLAN_CFI | VLAN_PCP_MASK);
        }
    } else if (!strcmp(key, "vlan_tci")) {
        error = parse_masked_uint(value, UINT16_MAX, &v, &m);
        if (!error) {
            SET_FIELD(vlans[0].tci, htons(v & m), htons(m));
            if (v & VLAN_CFI) {
                flow->vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
            }
        }
    } else if (!strcmp(key, "nw_src") || !strcmp(key, "ip_src")
               || !strcmp(key, "arp_spa")) {
        error = parse_ip(value, &flow->nw_src, &wc->masks.nw_src);
    } else if (!strcmp(key, "nw_dst") || !strcmp(key, "ip_dst")
               || !strcmp(key, "arp_tpa")) {
        error = parse_ip(value, &flow->nw_dst, &wc->masks.nw_dst);
    } else if (!strcmp(key, "ipv6_src")) {
        error = parse_ipv6(value, &flow->ipv6_src, &wc->masks.ipv6_src);
    } else if (!strcmp(key, "ipv6_dst")) {
        error = parse_ipv6(value, &flow->ipv6_dst, &wc->masks.ipv6_dst);
    } else if (!strcmp(key, "nw_proto") || !strcmp(key, "ip_proto")
               || !strcmp(key, "arp_op")) {
        error = parse_masked_uint(value, 0xff, &v, &m);
        if (!error) {
            SET_FIELD(nw_proto, v, m);
        }
    } else if (!strcmp(key, "nw_tos")) {
        error = parse_masked_uint(value, 0xfc, &v, &m);
        if (!error) {
            flow->nw_tos = (flow->nw_tos & 0x03) | (v & 0xfc);
            wc->masks.nw_tos |= 0xfc;
        }
    } else if (!strcmp(key, "nw_ecn")) {
        error = parse_masked_uint(value, 3, &v, &m);
        if (!error) {
            flow->nw_tos = (flow->nw_tos & 0xfc) | v;
            wc->masks.nw_tos |= 0x03;
        }
    } else if (!strcmp(key, "nw_ttl")) {
        error = parse_masked_uint(value, 0xff, &v, &m);
        if (!error) {
            SET_FIELD(nw_ttl, v, 0xff);
        }
    } else if (!strcmp(key, "nw_frag")) {
        if (!strcmp(value, "no")) {
            SET_FIELD(nw_frag, 0, FLOW_NW_FRAG_MASK);
        } else if (!strcmp(value, "first")) {
            SET_FIELD(nw_frag, FLOW_NW_FRAG_ANY, FLOW_NW_FRAG_MASK);
        } else if (!strcmp(value, "later")) {
            SET_FIELD(nw_frag, FLOW_NW_FRAG_MASK, FLOW_NW_FRAG_MASK);
        } else if (!strcmp(value, "yes")) {
            SET_FIELD(nw_frag, FLOW_NW_FRAG_ANY, FLOW_NW_FRAG_ANY);
        } else if (!strcmp(value, "not_later")) {
            SET_FIELD(nw_frag, 0, FLOW_NW_FRAG_LATER);
        } else {
            error = xasprintf("%s: bad nw_frag", value);
        }
    } else if (!strcmp(key, "tp_src") || !strcmp(key, "tcp_src")
               || !strcmp(key, "udp_src") || !strcmp(key, "sctp_src")
               || !strcmp(key, "icmp_type") || !strcmp(key, "icmpv6_type")) {
        error = parse_masked_uint(value, UINT16_MAX, &v, &m);
        if (!error) {
            SET_FIELD(tp_src, htons(v & m), htons(m));
        }
    } else if (!strcmp(key, "tp_dst") || !strcmp(key, "tcp_dst")
               || !strcmp(key, "udp_dst") || !strcmp(key, "sctp_dst")
               || !strcmp(key, "icmp_code") || !strcmp(key, "icmpv6_code")) {
        error = parse_masked_uint(value, UINT16_MAX, &v, &m);
        if (!error) {
            SET_FIELD(tp_dst, htons(v & m), htons(m));
        }
    } else if (!strcmp(key, "arp_sha")) {
        error = parse_eth(value, &flow->arp_sha, &wc->masks.arp_sha);
    } else if (!strcmp(key, "arp_tha")) {
        error = parse_eth(value, &flow->arp_tha, &wc->masks.arp_tha);
    } else if (!strcmp(key, "tcp_flags")) {
        error = parse_masked_uint(value, 0x0fff, &v, &m);
        if (!error) {
            SET_FIELD(tcp_flags, htons(v & m), htons(m));
        }
    } else {
        error = xasprintf("%s: unknown field", key);
    }
    return error;
}

char *
ofp_match_parse(const char *s_, const struct ofp_port_names *names,
                struct flow *flow, struct flow_wildcards *wc, int *priority)
{
    memset(flow, 0, sizeof *flow);
    flow_wildcards_init_catchall(wc);

    char *copy = xstrdup(s_);
    char *save = NULL;
    char *error = NULL;
    for (char *tok = strtok_r(copy, ", \t", &save); tok && !error;
         tok = strtok_r(NULL, ", \t", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            size_t i;
            for (i = 0; i < ARRAY_SIZE(protocols); i++) {
                if (!strcmp(tok, protocols[i].name)) {
                    SET_FIELD(dl_type, htons(protocols[i].dl_type),
                              OVS_BE16_MAX);
                    if (protocols[i].nw_proto >= 0) {
                        SET_FIELD(nw_proto, protocols[i].nw_proto, 0xff);
                    }
                    break;
                }
            }
            if (i == ARRAY_SIZE(protocols) && strcmp(tok, "eth")) {
                error = xasprintf("%s: unknown keyword", tok);
            }
            continue;
        }
        *eq = '\0';
        error = parse_field(tok, eq + 1, names, flow, wc, priority);
    }
    free(copy);
    return error;
}
