/* tnl-header-text: tnl_push's header as text (tnl_header_format(),
 * tnl_header_parse()) and the neighbour requests
 * (tnl_compose_arp_request(), tnl_compose_nd_solicit()).  See
 * tnl-header.h. */
#include <config.h>
#include "tnl-header.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "csum.h"
#include "dp-packet.h"
#include "dynamic-string.h"
#include "ip-addr.h"
#include "tnl-header-private.h"
#include "util.h"

/* Text. */

static void
format_ipv6(struct ds *ds, const struct in6_addr *a)
{
    char buf[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, a, buf, sizeof buf);
    ds_put_cstr(ds, buf);
}

static void
format_geneve_opts(struct ds *ds, const uint8_t *opts, size_t len)
{
    size_t ofs = 0;
    while (ofs + 4 <= len) {
        size_t dlen = (opts[ofs + 3] & 0x1f) * 4;
        if (ofs + 4 + dlen > len) {
            ds_put_format(ds, "opt len %zu greater than remaining %zu",
                          4 + dlen, len - ofs);
            return;
        }
        ds_put_format(ds, "{class=0x%"PRIx16",type=0x%"PRIx8",len=%zu",
                      get_be16(opts + ofs), opts[ofs + 2], dlen);
        if (dlen) {
            /* As 3.1 prints option data: 0x and the value without leading
             * zeros, or a bare 0. */
            ds_put_char(ds, ',');
            size_t z = 0;
            while (z < dlen && !opts[ofs + 4 + z]) {
                z++;
            }
            if (z == dlen) {
                ds_put_char(ds, '0');
            } else {
                ds_put_hex(ds, opts + ofs + 4, dlen);
            }
        }
        ds_put_char(ds, '}');
        ofs += 4 + dlen;
    }
}

static const uint8_t *
format_udp(struct ds *ds, const uint8_t *udp)
{
    ds_put_format(ds, "udp(src=%"PRIu16",dst=%"PRIu16",csum=0x%"PRIx16"),",
                  get_be16(udp), get_be16(udp + 2), get_be16(udp + 6));
    return udp + UDP_HEADER_LEN;
}

void
tnl_header_format(const struct tnl_push_action *data, struct ds *ds)
{
    const uint8_t *h = (const uint8_t *) data->header;
    size_t len = MIN(data->header_len, sizeof data->header);

    ds_put_format(ds, "header(size=%"PRIu32",type=%"PRIu32",",
                  data->header_len, data->tnl_type);
    if (len < ETH_HEADER_LEN + IP_HEADER_LEN) {
        ds_put_cstr(ds, "<truncated>)");
        return;
    }
    ds_put_format(ds, "eth(dst="ETH_ADDR_FMT",src="ETH_ADDR_FMT
                  ",dl_type=0x%04"PRIx16"),",
                  ETH_ADDR_ARGS(*(const struct eth_addr *) h),
                  ETH_ADDR_ARGS(*(const struct eth_addr *) (h + 6)),
                  get_be16(h + 12));
    const uint8_t *l4;
    if (!header_is_ipv6(h)) {
        struct ip_header ip;
        memcpy(&ip, h + ETH_HEADER_LEN, sizeof ip);
        ds_put_format(ds, "ipv4(src="IP_FMT",dst="IP_FMT",proto=%"PRIu8
                      ",tos=%#"PRIx8",ttl=%"PRIu8",frag=0x%"PRIx16"),",
                      IP_ARGS(ip.ip_src), IP_ARGS(ip.ip_dst), ip.ip_proto,
                      ip.ip_tos, ip.ip_ttl, ntohs(ip.ip_frag_off));
        l4 = h + ETH_HEADER_LEN + IP_HEADER_LEN;
    } else {
        if (len < ETH_HEADER_LEN + IPV6_HEADER_LEN) {
            ds_put_cstr(ds, "<truncated>)");
            return;
        }
        struct ipv6_header ip6;
        memcpy(&ip6, h + ETH_HEADER_LEN, sizeof ip6);
        uint32_t vtc = ntohl(ip6.ip6_vtc_flow);
        struct in6_addr src = ip6.ip6_src, dst = ip6.ip6_dst;
        ds_put_cstr(ds, "ipv6(src=");
        format_ipv6(ds, &src);
        ds_put_cstr(ds, ",dst=");
        format_ipv6(ds, &dst);
        ds_put_format(ds, ",label=%"PRIu32",proto=%"PRIu8",tclass=0x%"PRIx32
                      ",hlimit=%"PRIu8"),", vtc & IPV6_LABEL_MASK,
                      ip6.ip6_nxt, (vtc >> 20) & 0xff, ip6.ip6_hlim);
        l4 = h + ETH_HEADER_LEN + IPV6_HEADER_LEN;
    }
    size_t l4_room = len - (size_t) (l4 - h);

    if (data->tnl_type == TNL_TYPE_VXLAN && l4_room >= 16) {
        const uint8_t *vx = format_udp(ds, l4);
        ds_put_format(ds, "vxlan(flags=0x%"PRIx32",vni=0x%"PRIx32")",
                      get_be32(vx), get_be32(vx + 4) >> 8);
    } else if (data->tnl_type == TNL_TYPE_GENEVE && l4_room >= 16) {
        const uint8_t *g = format_udp(ds, l4);
        size_t olen = MIN((size_t) (g[0] & 0x3f) * 4, l4_room - 16);
        ds_put_format(ds, "geneve(%s%svni=0x%"PRIx32,
                      g[1] & 0x80 ? "oam," : "", g[1] & 0x40 ? "crit," : "",
                      get_be32(g + 4) >> 8);
        if (olen) {
            ds_put_cstr(ds, ",options(");
            format_geneve_opts(ds, g + GENEVE_BASE_HLEN, olen);
            ds_put_char(ds, ')');
        }
        ds_put_char(ds, ')');
    } else if (data->tnl_type == TNL_TYPE_GTPU && l4_room >= 16) {
        /* The optional fields (sequence number) are not shown, as in
         * 3.1: the S flag says they are there. */
        const uint8_t *g = format_udp(ds, l4);
        ds_put_format(ds, "gtpu(flags=0x%"PRIx8",msgtype=%"PRIu8
                      ",teid=0x%"PRIx32")", g[0], g[1], get_be32(g + 4));
    } else if (is_gre_type(data->tnl_type) && l4_room >= 4) {
        uint16_t flags = get_be16(l4);
        ds_put_format(ds, "gre((flags=0x%"PRIx16",proto=0x%"PRIx16")",
                      flags, get_be16(l4 + 2));
        size_t ofs = GRE_BASE_HLEN;
        if (flags & GRE_CSUM && ofs + 4 <= l4_room) {
            ds_put_format(ds, ",csum=0x%"PRIx16, get_be16(l4 + ofs));
            ofs += 4;
        }
        if (flags & GRE_KEY && ofs + 4 <= l4_room) {
            ds_put_format(ds, ",key=0x%"PRIx32, get_be32(l4 + ofs));
            ofs += 4;
        }
        if (flags & GRE_SEQ && ofs + 4 <= l4_room) {
            ds_put_format(ds, ",seq=0x%"PRIx32, get_be32(l4 + ofs));
        }
        ds_put_char(ds, ')');
    } else if (is_erspan_type(data->tnl_type) && l4_room >= 16) {
        const uint8_t *e = l4 + 8;
        uint8_t ver = e[0] >> 4;
        uint16_t sid = get_be16(e + 2) & 0x3ff;
        if (ver == 1) {
            ds_put_format(ds, "erspan(ver=1,sid=0x%"PRIx16",idx=0x%"PRIx32")",
                          sid, get_be32(e + 4));
        } else if (ver == 2 && l4_room >= 20) {
            uint16_t w = get_be16(e + 10);
            ds_put_format(ds, "erspan(ver=2,sid=0x%"PRIx16",dir=%u"
                          ",hwid=0x%x)", sid, (w >> 3) & 1, (w >> 4) & 0x3f);
        }
    }
    ds_put_char(ds, ')');
}

/* A tiny scanner over the text at *S. */
static bool
lit(const char **s, const char *word)
{
    size_t n = strlen(word);
    if (strncmp(*s, word, n)) {
        return false;
    }
    *s += n;
    return true;
}

/* Scans an unsigned number (base 0: decimal, 0x hex) of at most MAX. */
static bool
num(const char **s, unsigned long long max, unsigned long long *v)
{
    char *end;
    if (**s == '-' || **s == '+' || **s == ' ') {
        return false;
    }
    errno = 0;
    *v = strtoull(*s, &end, 0);
    if (end == *s || errno || *v > max) {
        return false;
    }
    *s = end;
    return true;
}

/* "NAME=NUMBER" then COMMA_OR_PAREN (',' or ')'). */
static bool
field(const char **s, const char *name, unsigned long long max,
      unsigned long long *v, char delim)
{
    return lit(s, name) && lit(s, "=") && num(s, max, v)
           && (delim ? **s == delim && (++*s, true) : true);
}

/* Copies the text up to one of STOPS into BUF. */
static bool
token(const char **s, const char *stops, char *buf, size_t size)
{
    size_t n = strcspn(*s, stops);
    if (!n || n >= size) {
        return false;
    }
    memcpy(buf, *s, n);
    buf[n] = '\0';
    *s += n;
    return true;
}

static bool
mac_field(const char **s, const char *name, struct eth_addr *mac)
{
    char buf[32];
    return lit(s, name) && lit(s, "=") && token(s, ",)", buf, sizeof buf)
           && eth_addr_from_string(buf, mac);
}

/* "0" or "0xHEX": a value right-aligned in N bytes (as printed). */
static bool
hex_bytes(const char **s, uint8_t *out, size_t n)
{
    memset(out, 0, n);
    if (!lit(s, "0x")) {
        return lit(s, "0");
    }
    size_t digits = 0;
    while (hexit_value((*s)[digits]) >= 0) {
        digits++;
    }
    if (!digits || digits > 2 * n) {
        return false;
    }
    for (size_t i = 0; i < digits; i++) {
        size_t nibble = 2 * n - digits + i;     /* From the left. */
        int v = hexit_value((*s)[i]);
        out[nibble / 2] |= nibble % 2 ? v : v << 4;
    }
    *s += digits;
    return true;
}

static char *
parse_error(const char *start, const char *what)
{
    return xasprintf("%s: syntax error at %s", what, start);
}

char *
tnl_header_parse(const char **sp, struct tnl_push_action *data)
{
    const char *s = *sp, *start = *sp;
    unsigned long long size, type, v;
    uint8_t *h = (uint8_t *) data->header;

    memset(data->header, 0, sizeof data->header);
    if (!lit(&s, "header(") || !field(&s, "size", TNL_PUSH_HEADER_SIZE,
                                      &size, ',')
        || !field(&s, "type", UINT32_MAX, &type, ',')) {
        return parse_error(start, "tnl_push header");
    }

    /* Ethernet. */
    struct eth_addr dst, src;
    unsigned long long dl_type;
    if (!lit(&s, "eth(") || !mac_field(&s, "dst", &dst) || !lit(&s, ",")
        || !mac_field(&s, "src", &src) || !lit(&s, ",")
        || !field(&s, "dl_type", UINT16_MAX, &dl_type, ')')
        || !lit(&s, ",")) {
        return parse_error(start, "tnl_push eth");
    }
    memcpy(h, dst.ea, 6);
    memcpy(h + 6, src.ea, 6);
    put_be16(h + 12, dl_type);
    size_t len = ETH_HEADER_LEN;

    uint8_t proto;
    bool ipv6;
    struct ip_header ip;
    struct ipv6_header ip6;
    char buf[INET6_ADDRSTRLEN];
    if (lit(&s, "ipv4(")) {
        unsigned long long p, tos, ttl, frag;
        ovs_be32 a, b;
        if (!lit(&s, "src=") || !token(&s, ",", buf, sizeof buf)
            || !ip_parse(buf, &a) || !lit(&s, ",dst=")
            || !token(&s, ",", buf, sizeof buf) || !ip_parse(buf, &b)
            || !lit(&s, ",") || !field(&s, "proto", UINT8_MAX, &p, ',')
            || !field(&s, "tos", UINT8_MAX, &tos, ',')
            || !field(&s, "ttl", UINT8_MAX, &ttl, ',')
            || !field(&s, "frag", UINT16_MAX, &frag, ')')
            || !lit(&s, ",")) {
            return parse_error(start, "tnl_push ipv4");
        }
        memset(&ip, 0, sizeof ip);
        ip.ip_ihl_ver = 0x45;
        ip.ip_tos = tos;
        ip.ip_ttl = ttl;
        ip.ip_proto = proto = p;
        ip.ip_frag_off = htons(frag);
        ip.ip_src = a;
        ip.ip_dst = b;
        ip.ip_csum = csum(&ip, sizeof ip);
        memcpy(h + len, &ip, sizeof ip);
        len += IP_HEADER_LEN;
        ipv6 = false;
    } else if (lit(&s, "ipv6(")) {
        unsigned long long label, p, tclass, hlimit;
        struct in6_addr a, b;
        if (!lit(&s, "src=") || !token(&s, ",", buf, sizeof buf)
            || !ipv6_parse(buf, &a) || !lit(&s, ",dst=")
            || !token(&s, ",", buf, sizeof buf) || !ipv6_parse(buf, &b)
            || !lit(&s, ",") || !field(&s, "label", IPV6_LABEL_MASK, &label,
                                       ',')
            || !field(&s, "proto", UINT8_MAX, &p, ',')
            || !field(&s, "tclass", UINT8_MAX, &tclass, ',')
            || !field(&s, "hlimit", UINT8_MAX, &hlimit, ')')
            || !lit(&s, ",")) {
            return parse_error(start, "tnl_push ipv6");
        }
        memset(&ip6, 0, sizeof ip6);
        ip6.ip6_vtc_flow = htonl(6u << 28 | (uint32_t) tclass << 20
                                 | (uint32_t) label);
        ip6.ip6_nxt = proto = p;
        ip6.ip6_hlim = hlimit;
        ip6.ip6_src = a;
        ip6.ip6_dst = b;
        memcpy(h + len, &ip6, sizeof ip6);
        len += IPV6_HEADER_LEN;
        ipv6 = true;
    } else {
        return parse_error(start, "tnl_push ip");
    }
    if ((dl_type == ETH_TYPE_IPV6) != ipv6) {
        return parse_error(start, "tnl_push dl_type");
    }

    uint8_t *l4 = h + len;
    enum tnl_type kind;
    if (proto == IPPROTO_UDP) {
        unsigned long long sport, dport, c;
        if (!lit(&s, "udp(") || !field(&s, "src", UINT16_MAX, &sport, ',')
            || !field(&s, "dst", UINT16_MAX, &dport, ',')
            || !field(&s, "csum", UINT16_MAX, &c, ')') || !lit(&s, ",")) {
            return parse_error(start, "tnl_push udp");
        }
        put_be16(l4, sport);
        put_be16(l4 + 2, dport);
        put_be16(l4 + 6, c);
        len += UDP_HEADER_LEN;
        uint8_t *l5 = h + len;
        if (lit(&s, "vxlan(")) {
            unsigned long long flags, vni;
            if (!field(&s, "flags", UINT32_MAX, &flags, ',')
                || !field(&s, "vni", 0xffffff, &vni, ')')) {
                return parse_error(start, "tnl_push vxlan");
            }
            put_be32(l5, flags);
            put_be32(l5 + 4, vni << 8);
            len += VXLAN_HLEN;
            kind = TNL_TYPE_VXLAN;
        } else if (lit(&s, "geneve(")) {
            bool oam = lit(&s, "oam,");
            bool crit = lit(&s, "crit,");
            unsigned long long vni;
            if (!field(&s, "vni", 0xffffff, &vni, 0)) {
                return parse_error(start, "tnl_push geneve");
            }
            size_t olen = 0;
            uint8_t *opts = l5 + GENEVE_BASE_HLEN;
            if (lit(&s, ",options(")) {
                while (lit(&s, "{")) {
                    unsigned long long cls, otype, dlen;
                    if (!field(&s, "class", UINT16_MAX, &cls, ',')
                        || !field(&s, "type", UINT8_MAX, &otype, ',')
                        || !field(&s, "len", 124, &dlen, 0) || dlen % 4
                        || olen + 4 + dlen > GENEVE_OPTS_MAX) {
                        return parse_error(start, "tnl_push geneve option");
                    }
                    put_be16(opts + olen, cls);
                    opts[olen + 2] = otype;
                    opts[olen + 3] = dlen / 4;
                    if (dlen && (!lit(&s, ",")
                                 || !hex_bytes(&s, opts + olen + 4, dlen))) {
                        return parse_error(start, "tnl_push geneve option");
                    }
                    if (!lit(&s, "}")) {
                        return parse_error(start, "tnl_push geneve option");
                    }
                    olen += 4 + dlen;
                }
                if (!lit(&s, ")")) {
                    return parse_error(start, "tnl_push geneve options");
                }
            }
            if (!lit(&s, ")")) {
                return parse_error(start, "tnl_push geneve");
            }
            l5[0] = olen / 4;
            l5[1] = (oam ? 0x80 : 0) | (crit ? 0x40 : 0);
            put_be16(l5 + 2, ETH_TYPE_TEB);
            put_be32(l5 + 4, vni << 8);
            len += GENEVE_BASE_HLEN + olen;
            kind = TNL_TYPE_GENEVE;
        } else if (lit(&s, "gtpu(")) {
            unsigned long long flags, msgtype, teid;
            if (!field(&s, "flags", UINT8_MAX, &flags, ',')
                || !field(&s, "msgtype", UINT8_MAX, &msgtype, ',')
                || !field(&s, "teid", UINT32_MAX, &teid, ')')) {
                return parse_error(start, "tnl_push gtpu");
            }
            l5[0] = flags;
            l5[1] = msgtype;
            put_be32(l5 + 4, teid);
            /* E, S or PN: the optional fields follow, zero here. */
            len += GTPU_HLEN + (flags & GTPU_FLAGS_OPT ? GTPU_OPT_LEN : 0);
            kind = TNL_TYPE_GTPU;
        } else {
            return parse_error(start, "tnl_push udp tunnel");
        }
    } else if (proto == IPPROTO_GRE && lit(&s, "gre((")) {
        unsigned long long flags, gproto;
        if (!field(&s, "flags", UINT16_MAX, &flags, ',')
            || !field(&s, "proto", UINT16_MAX, &gproto, ')')) {
            return parse_error(start, "tnl_push gre");
        }
        put_be16(l4, flags);
        put_be16(l4 + 2, gproto);
        size_t ofs = GRE_BASE_HLEN;
        if (flags & GRE_CSUM) {
            if (!lit(&s, ",") || !field(&s, "csum", UINT16_MAX, &v, 0)) {
                return parse_error(start, "tnl_push gre csum");
            }
            put_be16(l4 + ofs, v);
            ofs += 4;
        }
        if (flags & GRE_KEY) {
            if (!lit(&s, ",") || !field(&s, "key", UINT32_MAX, &v, 0)) {
                return parse_error(start, "tnl_push gre key");
            }
            put_be32(l4 + ofs, v);
            ofs += 4;
        }
        if (flags & GRE_SEQ) {
            if (!lit(&s, ",") || !field(&s, "seq", UINT32_MAX, &v, 0)) {
                return parse_error(start, "tnl_push gre seq");
            }
            put_be32(l4 + ofs, v);
            ofs += 4;
        }
        if (!lit(&s, ")")) {
            return parse_error(start, "tnl_push gre");
        }
        len += ofs;
        kind = TNL_TYPE_GRE;
    } else if (proto == IPPROTO_GRE && lit(&s, "erspan(")) {
        unsigned long long ver, sid;
        if (!field(&s, "ver", 2, &ver, ',')
            || !field(&s, "sid", 0x3ff, &sid, ',')) {
            return parse_error(start, "tnl_push erspan");
        }
        put_be16(l4, GRE_SEQ);
        put_be16(l4 + 2, ver == 1 ? ETH_TYPE_ERSPAN1 : ETH_TYPE_ERSPAN2);
        uint8_t *e = l4 + 8;
        put_be16(e, ver << 12);
        put_be16(e + 2, sid);
        if (ver == 1) {
            unsigned long long idx;
            if (!field(&s, "idx", 0xfffff, &idx, ')')) {
                return parse_error(start, "tnl_push erspan");
            }
            put_be32(e + 4, idx);
            len += 8 + ERSPAN_BASE_HLEN + ERSPAN_V1_MDSIZE;
        } else if (ver == 2) {
            unsigned long long dir, hwid;
            if (!field(&s, "dir", 1, &dir, ',')
                || !field(&s, "hwid", 0x3f, &hwid, ')')) {
                return parse_error(start, "tnl_push erspan");
            }
            put_be16(e + 10, hwid << 4 | dir << 3);
            len += 8 + ERSPAN_BASE_HLEN + ERSPAN_V2_MDSIZE;
        } else {
            return parse_error(start, "tnl_push erspan");
        }
        kind = TNL_TYPE_ERSPAN;
    } else {
        return parse_error(start, "tnl_push tunnel header");
    }
    if (!lit(&s, ")")) {
        return parse_error(start, "tnl_push header");
    }
    if (len != size) {
        return xasprintf("tnl_push: header size=%llu but its fields make "
                         "%zu bytes", size, len);
    }
    /* The type says how the header prints: it must be the header's. */
    bool type_ok = (type == TNL_TYPE_VXLAN ? kind == TNL_TYPE_VXLAN
                    : type == TNL_TYPE_GENEVE ? kind == TNL_TYPE_GENEVE
                    : type == TNL_TYPE_GTPU ? kind == TNL_TYPE_GTPU
                    : is_gre_type(type) ? kind == TNL_TYPE_GRE
                    : is_erspan_type(type) ? kind == TNL_TYPE_ERSPAN
                    : false);
    if (!type_ok) {
        return xasprintf("tnl_push: header type=%llu does not match its "
                         "tunnel header", type);
    }
    data->header_len = len;
    data->tnl_type = type;
    char *why = NULL;
    if (!tnl_header_validate(data, TNL_PUSH_ACTION_FIXED + len, &why)) {
        char *error = xasprintf("tnl_push: %s", why);
        free(why);
        return error;
    }
    *sp = s;
    return NULL;
}

/* Packets that ask for a neighbour. */

void
tnl_compose_arp_request(struct dp_packet *packet, struct eth_addr smac,
                        ovs_be32 src, ovs_be32 dst)
{
    dp_packet_clear(packet, DP_PACKET_HEADROOM);
    uint8_t *p = dp_packet_put_zeros(packet, ETH_HEADER_LEN
                                     + ARP_ETH_HEADER_LEN);
    memset(p, 0xff, ETH_ADDR_LEN);
    memcpy(p + 6, smac.ea, ETH_ADDR_LEN);
    put_be16(p + 12, ETH_TYPE_ARP);
    struct arp_eth_header arp;
    memset(&arp, 0, sizeof arp);
    arp.ar_hrd = htons(ARP_HTYPE_ETH);
    arp.ar_pro = htons(ETH_TYPE_IP);
    arp.ar_hln = ETH_ADDR_LEN;
    arp.ar_pln = 4;
    arp.ar_op = htons(ARP_OP_REQUEST);
    arp.ar_sha = smac;
    arp.ar_spa = src;
    arp.ar_tpa = dst;
    memcpy(p + ETH_HEADER_LEN, &arp, sizeof arp);
}

void
tnl_compose_nd_solicit(struct dp_packet *packet, struct eth_addr smac,
                       const struct in6_addr *src,
                       const struct in6_addr *dst)
{
    /* To the solicited-node group ff02::1:ffXX:XXXX of DST, at its
     * multicast MAC 33:33:ff:XX:XX:XX. */
    struct in6_addr group;
    memset(&group, 0, sizeof group);
    group.s6_addr[0] = 0xff;
    group.s6_addr[1] = 0x02;
    group.s6_addr[11] = 0x01;
    group.s6_addr[12] = 0xff;
    memcpy(&group.s6_addr[13], &dst->s6_addr[13], 3);

    size_t icmp_len = ND_MSG_LEN + sizeof(struct nd_lla_opt);
    dp_packet_clear(packet, DP_PACKET_HEADROOM);
    uint8_t *p = dp_packet_put_zeros(packet, ETH_HEADER_LEN
                                     + IPV6_HEADER_LEN + icmp_len);
    p[0] = 0x33;
    p[1] = 0x33;
    memcpy(p + 2, &group.s6_addr[12], 4);
    memcpy(p + 6, smac.ea, ETH_ADDR_LEN);
    put_be16(p + 12, ETH_TYPE_IPV6);

    struct ipv6_header ip6;
    memset(&ip6, 0, sizeof ip6);
    ip6.ip6_vtc_flow = htonl(6u << 28);
    ip6.ip6_plen = htons(icmp_len);
    ip6.ip6_nxt = IPPROTO_ICMPV6;
    ip6.ip6_hlim = 255;
    ip6.ip6_src = *src;
    ip6.ip6_dst = group;
    memcpy(p + ETH_HEADER_LEN, &ip6, sizeof ip6);

    uint8_t *icmp = p + ETH_HEADER_LEN + IPV6_HEADER_LEN;
    struct nd_msg ns;
    memset(&ns, 0, sizeof ns);
    ns.icmp_type = ND_NEIGHBOR_SOLICIT;
    ns.target = *dst;
    memcpy(icmp, &ns, sizeof ns);
    struct nd_lla_opt opt = { .type = ND_OPT_SOURCE_LINKADDR, .len = 1,
                              .mac = smac };
    memcpy(icmp + ND_MSG_LEN, &opt, sizeof opt);
    uint32_t sum = csum_pseudo_ipv6(src, &group, IPPROTO_ICMPV6, icmp_len);
    ovs_be16 c = csum_finish(csum_continue(sum, icmp, icmp_len));
    memcpy(icmp + 2, &c, 2);
}
