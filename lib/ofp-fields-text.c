/* ofp-fields-text: field values as Open vSwitch writes them, and
 * sub-fields ("NXM_NX_REG0[0..15]").  See ofp-fields.h. */
#include <config.h>

#include "ofp-fields.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "match.h"
#include "ofp-port.h"
#include "text-parse.h"
#include "util.h"

static bool
is_all_ones_bytes(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] != 0xff) {
            return false;
        }
    }
    return true;
}

static bool
is_all_zeros_bytes(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
}

static char *
parse_integer(const struct mf_field *f, const char *s, union mf_value *value,
              union mf_value *mask)
{
    const char *tail;
    int err = ofputil_parse_int_bytes(s, value->b, f->n_bytes, &tail);
    if (err == ERANGE) {
        return xasprintf("%s: value too large for %u-byte field %s",
                         s, f->n_bytes, f->name);
    } else if (err || (*tail && *tail != '/')) {
        return xasprintf("%s: bad syntax for %s value", s, f->name);
    }
    if (*tail == '/') {
        if (!mask) {
            return xasprintf("%s: bad syntax for %s value", s, f->name);
        }
        const char *mtail;
        err = ofputil_parse_int_bytes(tail + 1, mask->b, f->n_bytes, &mtail);
        if (err == ERANGE) {
            return xasprintf("%s: value too large for %u-byte field %s",
                             s, f->n_bytes, f->name);
        } else if (err || *mtail) {
            return xasprintf("%s: bad syntax for %s mask", s, f->name);
        }
    } else if (mask) {
        memset(mask->b, 0xff, f->n_bytes);
    }
    return NULL;
}

static bool
parse_ipv4(const char *s, size_t len, ovs_be32 *ip)
{
    unsigned int octets[4];
    int consumed = 0;
    char buf[32];
    if (len >= sizeof buf) {
        return false;
    }
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (sscanf(buf, "%u.%u.%u.%u%n", &octets[0], &octets[1], &octets[2],
               &octets[3], &consumed) != 4 || consumed != (int) len
        || !isdigit((unsigned char) buf[0])) {
        return false;
    }
    for (int i = 0; i < 4; i++) {
        if (octets[i] > 255) {
            return false;
        }
    }
    *ip = htonl((octets[0] << 24) | (octets[1] << 16) | (octets[2] << 8)
                | octets[3]);
    return true;
}

static ovs_be32
prefix_to_be32(int bits)
{
    return bits ? htonl(UINT32_MAX << (32 - bits)) : 0;
}

static char *
parse_ipv4_masked(const char *s, ovs_be32 *ip, ovs_be32 *mask)
{
    const char *slash = strchr(s, '/');
    size_t len = slash ? (size_t) (slash - s) : strlen(s);
    if (!parse_ipv4(s, len, ip)) {
        return xasprintf("%s: invalid IP address", s);
    }
    if (!slash) {
        *mask = OVS_BE32_MAX;
        return NULL;
    }
    const char *m = slash + 1;
    if (parse_ipv4(m, strlen(m), mask)) {
        return NULL;
    }
    int prefix;
    if (str_to_int(m, 10, &prefix)) {
        if (prefix < 0 || prefix > 32) {
            return xasprintf("%s: IPv4 network prefix bits not between 0 "
                             "and 32, inclusive", s);
        }
        *mask = prefix_to_be32(prefix);
        return NULL;
    }
    return xasprintf("%s: invalid IP address", s);
}

static void
ipv6_prefix_mask(int bits, struct in6_addr *mask)
{
    memset(mask, 0, sizeof *mask);
    for (int i = 0; i < bits; i++) {
        mask->s6_addr[i / 8] |= 0x80 >> (i % 8);
    }
}

static char *
parse_ipv6_masked(const char *s, struct in6_addr *ip, struct in6_addr *mask)
{
    const char *slash = strchr(s, '/');
    size_t len = slash ? (size_t) (slash - s) : strlen(s);
    char *addr = xmemdup0(s, len);
    bool ok = inet_pton(AF_INET6, addr, ip) == 1;
    free(addr);
    if (!ok) {
        return xasprintf("%s: invalid IPv6 address", s);
    }
    if (!slash) {
        memset(mask, 0xff, sizeof *mask);
        return NULL;
    }
    const char *m = slash + 1;
    if (inet_pton(AF_INET6, m, mask) == 1) {
        return NULL;
    }
    int prefix;
    if (str_to_int(m, 10, &prefix)) {
        if (prefix < 0 || prefix > 128) {
            return xasprintf("%s: IPv6 network prefix bits not between 0 "
                             "and 128, inclusive", s);
        }
        ipv6_prefix_mask(prefix, mask);
        return NULL;
    }
    return xasprintf("%s: invalid IPv6 address", s);
}

static char *
parse_ethernet(const char *s, struct eth_addr *ea, struct eth_addr *mask)
{
    const char *slash = strchr(s, '/');
    size_t len = slash ? (size_t) (slash - s) : strlen(s);
    char *addr = xmemdup0(s, len);
    bool ok = eth_addr_from_string(addr, ea);
    free(addr);
    if (!ok) {
        return xasprintf("%s: invalid Ethernet address", s);
    }
    if (!slash) {
        memset(mask, 0xff, sizeof *mask);
        return NULL;
    }
    if (!eth_addr_from_string(slash + 1, mask)) {
        return xasprintf("%s: invalid Ethernet address", s);
    }
    return NULL;
}

/* Flags. */

static const char *
tcp_flag_name(uint32_t bit)
{
    switch (bit) {
    case TCP_FIN: return "fin";
    case TCP_SYN: return "syn";
    case TCP_RST: return "rst";
    case TCP_PSH: return "psh";
    case TCP_ACK: return "ack";
    case TCP_URG: return "urg";
    case TCP_ECE: return "ece";
    case TCP_CWR: return "cwr";
    case TCP_NS: return "ns";
    case 0x200: return "[200]";
    case 0x400: return "[400]";
    case 0x800: return "[800]";
    default: return NULL;
    }
}

static const char *
tun_flag_name(uint32_t bit)
{
    return bit == 1 ? "oam" : NULL;
}

static const char *
ct_state_name(uint32_t bit)
{
    switch (bit) {
    case CS_NEW: return "new";
    case CS_ESTABLISHED: return "est";
    case CS_RELATED: return "rel";
    case CS_REPLY_DIR: return "rpl";
    case CS_INVALID: return "inv";
    case CS_TRACKED: return "trk";
    case CS_SRC_NAT: return "snat";
    case CS_DST_NAT: return "dnat";
    default: return NULL;
    }
}

/* Parses flag syntax: "name|name" (or a number, optionally "/mask") for an
 * exact match on ALLOWED bits, or "+name-name..." for a masked one. */
static char *
parse_flags(const char *s, const char *(*bit_name)(uint32_t),
            uint32_t allowed, const char *field_name, const char *what,
            uint32_t *valuep, uint32_t *maskp)
{
    uint32_t value = 0, mask = 0;

    if (isdigit((unsigned char) *s)) {
        char *tail;
        unsigned long long v = strtoull(s, &tail, 0);
        unsigned long long m = UINT32_MAX;
        if (*tail == '/') {
            m = strtoull(tail + 1, &tail, 0);
        }
        if (*tail) {
            return xasprintf("%s: bad syntax for %s", s, field_name);
        }
        if ((v | (m & UINT32_MAX)) & ~(unsigned long long) allowed
            && (v & ~(unsigned long long) allowed)) {
            return xasprintf("%s: unknown %s(s)", s, what);
        }
        *valuep = v & allowed;
        *maskp = m & allowed;
        return NULL;
    }

    bool masked = *s == '+' || *s == '-';
    const char *p = s;
    while (*p) {
        bool set = true;
        if (masked) {
            if (*p != '+' && *p != '-') {
                return xasprintf("%s: %s must be prefixed by '+' or '-'",
                                 s, what);
            }
            set = *p == '+';
            p++;
        }
        size_t len = strcspn(p, masked ? "+-" : "|");
        uint32_t bit = 0;
        for (int i = 0; i < 32; i++) {
            const char *name = bit_name(UINT32_C(1) << i);
            if (name && strlen(name) == len && !strncmp(name, p, len)
                && name[0] != '[') {
                bit = UINT32_C(1) << i;
                break;
            }
        }
        if (!bit) {
            /* 3.1 names the flag in "+a-b" syntax, the whole value in
             * "a|b" syntax. */
            char *bad = masked ? xmemdup0(p, len) : xstrdup(s);
            char *error = xasprintf("%s: unknown %s(s)", bad, what);
            free(bad);
            return error;
        }
        if (masked) {
            if (mask & bit) {
                char *name = xmemdup0(p, len);
                char *error = xasprintf("%s: Each %s can be specified only "
                                        "once", name, what);
                free(name);
                return error;
            }
            mask |= bit;
            if (set) {
                value |= bit;
            }
        } else {
            value |= bit;
        }
        p += len;
        if (!masked && *p == '|') {
            p++;
        }
    }
    *valuep = value;
    *maskp = masked ? mask : allowed;
    return NULL;
}

static void
format_flags_exact(struct ds *s, const char *(*bit_name)(uint32_t),
                   uint32_t flags)
{
    if (!flags) {
        ds_put_char(s, '0');
        return;
    }
    bool first = true;
    for (int i = 0; i < 32; i++) {
        uint32_t bit = UINT32_C(1) << i;
        if (flags & bit) {
            const char *name = bit_name(bit);
            if (!first) {
                ds_put_char(s, '|');
            }
            first = false;
            if (name) {
                ds_put_cstr(s, name);
            } else {
                ds_put_format(s, "0x%"PRIx32, bit);
            }
        }
    }
}

void
mf_format_flags_masked(struct ds *s, const char *(*bit_name)(uint32_t),
                       uint32_t flags, uint32_t mask, uint32_t max_mask)
{
    if (mask == max_mask) {
        format_flags_exact(s, bit_name, flags);
        return;
    }
    if (!mask) {
        ds_put_cstr(s, "0/0");
        return;
    }
    for (int i = 0; i < 32; i++) {
        uint32_t bit = UINT32_C(1) << i;
        if (mask & bit) {
            const char *name = bit_name(bit);
            ds_put_char(s, flags & bit ? '+' : '-');
            if (name) {
                ds_put_cstr(s, name);
            } else {
                ds_put_format(s, "[%"PRIx32"]", bit);
            }
        }
    }
}

const char *
mf_tcp_flag_name(uint32_t bit)
{
    return tcp_flag_name(bit);
}

const char *
mf_tun_flag_name(uint32_t bit)
{
    return tun_flag_name(bit);
}

const char *
mf_ct_state_name(uint32_t bit)
{
    return ct_state_name(bit);
}

void
mf_format_packet_type(ovs_be32 packet_type, struct ds *s)
{
    /* As 3.1 writes each number: hexadecimal above 9, else decimal. */
    uint16_t parts[2] = { pt_ns(packet_type), pt_ns_type(packet_type) };
    ds_put_char(s, '(');
    for (int i = 0; i < 2; i++) {
        ds_put_format(s, parts[i] > 9 ? "%s0x%"PRIx16 : "%s%"PRIu16,
                      i ? "," : "", parts[i]);
    }
    ds_put_char(s, ')');
}

/* Reads a 16-bit C integer at *SP (leading white space allowed). */
static bool
parse_u16(const char **sp, uint16_t *x)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(*sp, &end, 0);
    if (end == *sp || errno || v > UINT16_MAX) {
        return false;
    }
    *x = v;
    *sp = end;
    return true;
}

/* "(NS,TYPE)", with 3.1's errors. */
static char *
parse_packet_type(const char *s, ovs_be32 *packet_type)
{
    uint16_t ns, type;
    if (*s != '(') {
        return xasprintf("%s: bad syntax for packet type missing '('", s);
    }
    const char *p = s + 1;
    const char *ns_start = p;
    if (!parse_u16(&p, &ns)) {
        return xasprintf("%s: bad syntax for packet type ns", ns_start);
    }
    if (*p != ',') {
        return xasprintf("%s: bad syntax for packet type missing ','",
                         ns_start);
    }
    const char *type_start = ++p;
    if (!parse_u16(&p, &type)) {
        return xasprintf("%s: bad syntax for packet type ns_type",
                         type_start);
    }
    if (*p != ')' || p[1]) {
        return xasprintf("%s: bad syntax for packet type missing ')'",
                         type_start);
    }
    *packet_type = htonl(PACKET_TYPE(ns, type));
    return NULL;
}

static char *
parse_frag(const char *s, union mf_value *value, union mf_value *mask)
{
    static const struct {
        const char *name;
        uint8_t value, mask;
    } frags[] = {
        { "no", 0, FLOW_NW_FRAG_MASK },
        { "yes", FLOW_NW_FRAG_ANY, FLOW_NW_FRAG_ANY },
        { "first", FLOW_NW_FRAG_ANY, FLOW_NW_FRAG_MASK },
        { "later", FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER, FLOW_NW_FRAG_MASK },
        { "not_later", 0, FLOW_NW_FRAG_LATER },
    };
    for (size_t i = 0; i < ARRAY_SIZE(frags); i++) {
        if (!strcasecmp(s, frags[i].name)) {
            value->u8 = frags[i].value;
            if (mask) {
                mask->u8 = frags[i].mask;
            }
            return NULL;
        }
    }
    return xasprintf("%s: unknown fragment type (valid types are \"no\", "
                     "\"yes\", \"first\", \"later\", \"not_later\"", s);
}

char *
mf_parse(const struct mf_field *f, const char *s,
         const struct ofputil_port_map *port_map, union mf_value *value,
         union mf_value *mask)
{
    memset(value, 0, sizeof *value);
    if (mask) {
        memset(mask, 0, sizeof *mask);
    }
    union mf_value scratch_mask;
    union mf_value *m = mask ? mask : &scratch_mask;
    char *error = NULL;

    switch (f->string) {
    case MFS_DECIMAL:
    case MFS_HEXADECIMAL:
        error = parse_integer(f, s, value, m);
        break;

    case MFS_ETHERNET:
        error = parse_ethernet(s, &value->mac, &m->mac);
        break;

    case MFS_IPV4:
        error = parse_ipv4_masked(s, &value->be32, &m->be32);
        break;

    case MFS_IPV6:
        error = parse_ipv6_masked(s, &value->ipv6, &m->ipv6);
        break;

    case MFS_OFP_PORT:
    case MFS_OFP_PORT_OXM: {
        uint32_t port;
        if (!ofputil_port_from_string(s, port_map, &port)) {
            return xasprintf("%s: invalid or unknown port for %s", s,
                             f->name);
        }
        if (f->string == MFS_OFP_PORT) {
            value->be16 = htons(port);
        } else {
            value->be32 = ofputil_port_to_ofp11(port);
        }
        memset(m, 0xff, f->n_bytes);
        break;
    }

    case MFS_FRAG:
        error = parse_frag(s, value, m);
        break;

    case MFS_TNL_FLAGS:
    case MFS_TCP_FLAGS: {
        uint32_t v = 0, mk = 0;
        bool tcp = f->string == MFS_TCP_FLAGS;
        error = parse_flags(s, tcp ? tcp_flag_name : tun_flag_name,
                            tcp ? TCP_FLAGS_MASK : 1, f->name,
                            tcp ? "TCP flag" : "tunnel flag", &v, &mk);
        if (!error) {
            value->be16 = htons(v);
            m->be16 = htons(mk);
        }
        break;
    }

    case MFS_CT_STATE: {
        uint32_t v = 0, mk = 0;
        error = parse_flags(s, ct_state_name, CS_ALL_BITS, f->name,
                            "ct_state flag", &v, &mk);
        if (!error) {
            value->be32 = htonl(v);
            m->be32 = htonl(mk);
        }
        break;
    }

    case MFS_PACKET_TYPE:
        error = parse_packet_type(s, &value->be32);
        if (!error) {
            m->be32 = OVS_BE32_MAX;
        }
        break;
    }

    if (!error && !mask && !mf_value_is_all_ones(f, m)
        && !is_all_ones_bytes(m->b, f->n_bytes)) {
        error = xasprintf("%s: masks not allowed here", s);
    }
    if (!error && mask && f->maskable == MFM_NONE
        && !is_all_zeros_bytes(mask->b, f->n_bytes)
        && !is_all_ones_bytes(mask->b, f->n_bytes)) {
        error = xasprintf("%s: invalid mask for field %s", s, f->name);
    }
    return error;
}

char *
mf_parse_value(const struct mf_field *f, const char *s,
               const struct ofputil_port_map *port_map,
               union mf_value *value)
{
    union mf_value mask;
    char *error = mf_parse(f, s, port_map, value, &mask);
    if (!error && !is_all_ones_bytes(mask.b, f->n_bytes)
        && !mf_value_is_all_ones(f, &mask)) {
        error = xasprintf("%s: masks not allowed here", s);
    }
    return error;
}

char *
mf_parse_field(const struct mf_field *f, const char *s,
               const struct ofputil_port_map *port_map, struct match *match)
{
    union mf_value value, mask;
    char *error = mf_parse(f, s, port_map, &value, &mask);
    if (!error) {
        error = mf_set_checked(f, &value, &mask, match);
    }
    return error;
}

char *
mf_parse_subfield_match(const char *name, const char *s, struct match *match)
{
    struct mf_subfield sf;
    char *error = mf_parse_subfield(&sf, name);
    if (error) {
        return error;
    }

    uint8_t x[TUN_METADATA_MAX_LEN];
    const char *tail;
    int retval = ofputil_parse_int_bytes(s, x, sizeof x, &tail);
    if (retval == EINVAL || *tail) {
        return xasprintf("%s: cannot parse integer value: %s", name, s);
    } else if (retval == ERANGE || bitwise_rscan(x, sizeof x) >= (int) sf.n_bits) {
        return xasprintf("%s: value %s does not fit into %u bits", name, s,
                         sf.n_bits);
    }

    /* The subfield's bits join what MATCH says about the field already. */
    const struct mf_field *f = sf.field;
    union mf_value value, mask;
    mf_get(f, match, &value, &mask, NULL);
    bitwise_copy(x, sizeof x, 0, value.b, f->n_bytes, sf.ofs, sf.n_bits);
    bitwise_one(mask.b, f->n_bytes, sf.ofs, sf.n_bits);
    if (f->variable_len) {
        mf_set_wild(f, match);
    }
    return mf_set_checked(f, &value, &mask, match);
}

static bool
ipv4_mask_is_cidr(ovs_be32 mask)
{
    uint32_t x = ~ntohl(mask);
    return !(x & (x + 1));
}

static int
ipv4_mask_prefix(ovs_be32 mask)
{
    return __builtin_popcount(ntohl(mask));
}

void
mf_format_ipv4_masked(ovs_be32 ip, ovs_be32 mask, struct ds *s)
{
    const uint8_t *octets = (const uint8_t *) &ip;
    for (int i = 0; i < 4; i++) {
        if (i) {
            ds_put_char(s, '.');
        }
        ds_put_uint(s, octets[i]);
    }
    if (mask != OVS_BE32_MAX) {
        if (ipv4_mask_is_cidr(mask)) {
            ds_put_char(s, '/');
            ds_put_uint(s, ipv4_mask_prefix(mask));
        } else {
            ds_put_format(s, "/"IP_FMT, IP_ARGS(mask));
        }
    }
}

static int
ipv6_cidr_prefix(const struct in6_addr *mask)
{
    int bits = 0;
    int i = 0;
    for (; i < 16 && mask->s6_addr[i] == 0xff; i++) {
        bits += 8;
    }
    if (i < 16) {
        uint8_t b = mask->s6_addr[i];
        uint8_t inv = ~b;
        if (inv & (inv + 1)) {
            return -1;
        }
        bits += __builtin_popcount(b);
        for (i++; i < 16; i++) {
            if (mask->s6_addr[i]) {
                return -1;
            }
        }
    }
    return bits;
}

void
mf_format_ipv6_masked(const struct in6_addr *ip,
                      const struct in6_addr *mask, struct ds *s)
{
    char buf[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, ip, buf, sizeof buf);
    ds_put_cstr(s, buf);
    if (!ipv6_addr_is_exact(mask)) {
        int prefix = ipv6_cidr_prefix(mask);
        if (prefix >= 0) {
            ds_put_format(s, "/%d", prefix);
        } else {
            inet_ntop(AF_INET6, mask, buf, sizeof buf);
            ds_put_format(s, "/%s", buf);
        }
    }
}

void
mf_format(const struct mf_field *f, const union mf_value *value,
          const union mf_value *mask, const struct ofputil_port_map *port_map,
          struct ds *s)
{
    if (mask && is_all_ones_bytes(mask->b, f->n_bytes)) {
        mask = NULL;
    } else if (mask && is_all_zeros_bytes(mask->b, f->n_bytes)) {
        /* 3.1 prints a fully wildcarded value this way, whatever the
         * field's syntax (set_field:ANY->tun_id). */
        ds_put_cstr(s, "ANY");
        return;
    }

    switch (f->string) {
    case MFS_DECIMAL:
    case MFS_HEXADECIMAL:
        if (f->string == MFS_HEXADECIMAL) {
            /* 3.1 writes a zero hex value as a bare "0" (set_field:0->reg0,
             * reg0=0 in learn), unlike ds_put_hex()'s "0x0". */
            if (is_all_zeros_bytes(value->b, f->n_bytes)) {
                ds_put_char(s, '0');
            } else {
                ds_put_hex(s, value->b, f->n_bytes);
            }
        } else {
            unsigned long long int x = 0;
            for (size_t i = 0; i < f->n_bytes; i++) {
                x = (x << 8) | value->b[i];
            }
            ds_put_format(s, "%llu", x);
        }
        if (mask) {
            ds_put_char(s, '/');
            ds_put_hex(s, mask->b, f->n_bytes);
        }
        break;

    case MFS_ETHERNET:
        ds_put_format(s, ETH_ADDR_FMT, ETH_ADDR_ARGS(value->mac));
        if (mask) {
            ds_put_format(s, "/"ETH_ADDR_FMT, ETH_ADDR_ARGS(mask->mac));
        }
        break;

    case MFS_IPV4:
        mf_format_ipv4_masked(value->be32, mask ? mask->be32 : OVS_BE32_MAX,
                              s);
        break;

    case MFS_IPV6: {
        struct in6_addr all;
        memset(&all, 0xff, sizeof all);
        mf_format_ipv6_masked(&value->ipv6, mask ? &mask->ipv6 : &all, s);
        break;
    }

    case MFS_OFP_PORT:
        ofputil_format_port(ntohs(value->be16), port_map, s);
        break;

    case MFS_OFP_PORT_OXM: {
        uint32_t port;
        ofputil_port_from_ofp11(value->be32, &port);
        ofputil_format_port(port, port_map, s);
        break;
    }

    case MFS_FRAG: {
        uint8_t v = value->u8;
        uint8_t m = mask ? mask->u8 : FLOW_NW_FRAG_MASK;
        if (m == FLOW_NW_FRAG_MASK) {
            ds_put_cstr(s, v & FLOW_NW_FRAG_ANY
                        ? (v & FLOW_NW_FRAG_LATER ? "later" : "first")
                        : (v & FLOW_NW_FRAG_LATER ? "<error>" : "no"));
        } else if (m == FLOW_NW_FRAG_ANY) {
            ds_put_cstr(s, v & FLOW_NW_FRAG_ANY ? "yes" : "no");
        } else if (m == FLOW_NW_FRAG_LATER) {
            ds_put_cstr(s, v & FLOW_NW_FRAG_LATER ? "later" : "not_later");
        } else {
            ds_put_format(s, "%#"PRIx8"/%#"PRIx8, v, m);
        }
        break;
    }

    case MFS_TNL_FLAGS:
        mf_format_flags_masked(s, tun_flag_name, ntohs(value->be16),
                               mask ? ntohs(mask->be16) : 0xffff, 0xffff);
        break;

    case MFS_TCP_FLAGS:
        mf_format_flags_masked(s, tcp_flag_name, ntohs(value->be16),
                               mask ? ntohs(mask->be16) & TCP_FLAGS_MASK
                               : TCP_FLAGS_MASK, TCP_FLAGS_MASK);
        break;

    case MFS_CT_STATE:
        mf_format_flags_masked(s, ct_state_name, ntohl(value->be32),
                               mask ? ntohl(mask->be32) & CS_ALL_BITS
                               : CS_ALL_BITS, CS_ALL_BITS);
        break;

    case MFS_PACKET_TYPE:
        mf_format_packet_type(value->be32, s);
        break;
    }
}

/* Sub-fields. */

/* Reads a decimal bit number, perhaps negative, at *SP into *N (capped at
 * 999999 either way), advancing *SP.  False if there is no digit. */
static bool
read_bit_number(const char **sp, int *n)
{
    const char *s = *sp;
    bool negative = *s == '-';      /* 3.1 reads "-1" and then refuses it. */
    s += negative;
    if (!isdigit((unsigned char) *s)) {
        return false;
    }
    int x = 0;
    for (; isdigit((unsigned char) *s); s++) {
        if (x < 1000000) {
            x = x * 10 + (*s - '0');
        }
    }
    x = MIN(x, 999999);
    *n = negative ? -x : x;
    *sp = s;
    return true;
}

char *
mf_parse_subfield__(struct mf_subfield *sf, const char **sp)
{
    const char *s = *sp;
    size_t name_len = strcspn(s, "[-");
    const struct mf_field *field;

    /* An NXM/OXM name, perhaps with "_W", or a field name. */
    size_t nxm_len = name_len;
    if (nxm_len > 2 && !memcmp(&s[nxm_len - 2], "_W", 2)) {
        nxm_len -= 2;
    }
    field = mf_from_nxm_name(s, nxm_len);
    if (!field) {
        field = mf_from_name_len(s, name_len);
    }
    if (!field) {
        return xasprintf("%s: unknown field `%.*s'", *sp, (int) name_len, s);
    }

    const char *p = s + name_len;
    int start = 0;
    int end = field->n_bits - 1;
    if (*p == '[') {
        /* Bit numbers are read digit by digit, capped, so that no input
         * can overflow them (anything past the cap is out of range for
         * every field anyway). */
        const char *q = p + 1;
        bool ok;
        if (*q == ']') {
            ok = true;                  /* The whole field. */
        } else if ((ok = read_bit_number(&q, &start))) {
            end = start;
            if (!strncmp(q, "..", 2)) {
                q += 2;
                ok = read_bit_number(&q, &end);
            }
        }
        if (!ok || *q != ']') {
            return xasprintf("%s: syntax error expecting [] or [<bit>] or "
                             "[<start>..<end>]", *sp);
        }
        p = q + 1;
    }

    if (start > end) {
        return xasprintf("%s: starting bit %d is after ending bit %d",
                         *sp, start, end);
    } else if (start < 0 || start >= (int) field->n_bits) {
        return xasprintf("%s: starting bit %d is not valid because field "
                         "is only %d bits wide", *sp, start, field->n_bits);
    } else if (end >= (int) field->n_bits) {
        return xasprintf("%s: ending bit %d is not valid because field is "
                         "only %d bits wide", *sp, end, field->n_bits);
    }

    sf->field = field;
    sf->ofs = start;
    sf->n_bits = end - start + 1;
    *sp = p;
    return NULL;
}

char *
mf_parse_subfield(struct mf_subfield *sf, const char *s)
{
    char *error = mf_parse_subfield__(sf, &s);
    if (!error && s[0]) {
        error = xstrdup("unexpected input following field syntax");
    }
    return error;
}

void
mf_format_subfield(const struct mf_subfield *sf, struct ds *s)
{
    if (!sf->field) {
        ds_put_cstr(s, "<unknown>");
    } else {
        const char *name = mf_nxm_name(sf->field);
        ds_put_cstr(s, name ? name : sf->field->name);
    }

    if (sf->field && sf->ofs == 0 && sf->n_bits == sf->field->n_bits) {
        ds_put_cstr(s, "[]");
    } else if (sf->n_bits == 1) {
        ds_put_format(s, "[%u]", sf->ofs);
    } else {
        ds_put_format(s, "[%u..%u]", sf->ofs, sf->ofs + sf->n_bits - 1);
    }
}

bool
mf_subfield_is_valid(const struct mf_subfield *sf)
{
    return (sf->field && sf->n_bits
            && sf->ofs < sf->field->n_bits
            && sf->ofs + sf->n_bits <= sf->field->n_bits);
}

uint64_t
mf_get_subfield(const struct mf_subfield *sf, const struct flow *flow)
{
    union mf_value value;
    mf_get_value(sf->field, flow, &value);
    uint64_t x = 0;
    for (unsigned int i = 0; i < sf->n_bits && i < 64; i++) {
        unsigned int bit = sf->ofs + i;
        if ((value.b[sf->field->n_bytes - 1 - bit / 8] >> (bit % 8)) & 1) {
            x |= UINT64_C(1) << i;
        }
    }
    return x;
}

void
mf_set_subfield(const struct mf_subfield *sf, uint64_t x, struct flow *flow)
{
    union mf_value value, mask;
    memset(&value, 0, sizeof value);
    memset(&mask, 0, sizeof mask);
    ovs_be64 be = htonll(x);
    bitwise_copy(&be, sizeof be, 0, value.b, sf->field->n_bytes, sf->ofs,
                 MIN(sf->n_bits, 64));
    bitwise_one(mask.b, sf->field->n_bytes, sf->ofs, sf->n_bits);
    mf_set_flow_value_masked(sf->field, &value, &mask, flow);
}
