#include <config.h>
#include "odp-util.h"
#include "tnl-header.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/openvswitch.h>
#include <stdlib.h>
#include <string.h>
#include "conntrack.h"
#include "dynamic-string.h"
#include "flow.h"
#include "mpls.h"
#include "netlink.h"
#include "ofpbuf.h"
#include "packets.h"
#include "text-parse.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(odp_util);

/* Fields
 * ======
 *
 * Every "name=value[/mask]" field of every key is described once, by its
 * kind (how it is printed and parsed) and where it lives in struct flow,
 * so that printing and parsing cannot disagree. */

enum field_kind {
    FK_DEC_U8,          /* uint8_t, decimal (proto, ttl). */
    FK_HEX_U8,          /* uint8_t, hex (tos, tclass). */
    FK_DEC_BE16,        /* ovs_be16, decimal (ports). */
    FK_U8_IN_BE16,      /* ICMP type or code kept in an ovs_be16. */
    FK_LABEL,           /* ovs_be32 IPv6 flow label, hex. */
    FK_IPV4,            /* ovs_be32. */
    FK_IPV6,            /* struct in6_addr. */
    FK_ETH,             /* struct eth_addr. */
    FK_FRAG,            /* nw_frag bits as no/first/later. */
    FK_HEX_BE64,        /* ovs_be64 (tunnel id). */
};

struct field {
    const char *name;
    enum field_kind kind;
    size_t ofs;         /* In struct flow. */
};

#define F(NAME, KIND, MEMBER) { NAME, KIND, offsetof(struct flow, MEMBER) }

static const struct field eth_fields[] = {
    F("src", FK_ETH, dl_src),
    F("dst", FK_ETH, dl_dst),
};
static const struct field ipv4_fields[] = {
    F("src", FK_IPV4, nw_src),
    F("dst", FK_IPV4, nw_dst),
    F("proto", FK_DEC_U8, nw_proto),
    F("tos", FK_HEX_U8, nw_tos),
    F("ttl", FK_DEC_U8, nw_ttl),
    F("frag", FK_FRAG, nw_frag),
};
static const struct field ipv6_fields[] = {
    F("src", FK_IPV6, ipv6_src),
    F("dst", FK_IPV6, ipv6_dst),
    F("label", FK_LABEL, ipv6_label),
    F("proto", FK_DEC_U8, nw_proto),
    F("tclass", FK_HEX_U8, nw_tos),
    F("hlimit", FK_DEC_U8, nw_ttl),
    F("frag", FK_FRAG, nw_frag),
};
static const struct field arp_fields[] = {
    F("sip", FK_IPV4, nw_src),
    F("tip", FK_IPV4, nw_dst),
    F("op", FK_DEC_U8, nw_proto),
    F("sha", FK_ETH, arp_sha),
    F("tha", FK_ETH, arp_tha),
};
static const struct field ports_fields[] = {
    F("src", FK_DEC_BE16, tp_src),
    F("dst", FK_DEC_BE16, tp_dst),
};
static const struct field icmp_fields[] = {
    F("type", FK_U8_IN_BE16, tp_src),
    F("code", FK_U8_IN_BE16, tp_dst),
};
static const struct field nd_fields[] = {
    F("target", FK_IPV6, nd_target),
    F("sll", FK_ETH, arp_sha),
    F("tll", FK_ETH, arp_tha),
};
static const struct field tunnel_fields[] = {
    F("tun_id", FK_HEX_BE64, tunnel.tun_id),
    F("src", FK_IPV4, tunnel.ip_src),
    F("dst", FK_IPV4, tunnel.ip_dst),
    F("ipv6_src", FK_IPV6, tunnel.ipv6_src),
    F("ipv6_dst", FK_IPV6, tunnel.ipv6_dst),
    F("tos", FK_HEX_U8, tunnel.ip_tos),
    F("ttl", FK_DEC_U8, tunnel.ip_ttl),
    F("tp_src", FK_DEC_BE16, tunnel.tp_src),
    F("tp_dst", FK_DEC_BE16, tunnel.tp_dst),
};
/* "gtpu(flags=0x30,msgtype=255)" inside tunnel(...). */
/* The original direction's tuple of the packet's connection (ct_state
 * has trk and the tracker knew it): "ct_tuple4(src=..,dst=..,proto=..,
 * tp_src=..,tp_dst=..)", ct_tuple6 with IPv6 addresses, as 3.1. */
static const struct field ct_tuple4_fields[] = {
    F("src", FK_IPV4, ct_nw_src),
    F("dst", FK_IPV4, ct_nw_dst),
    F("proto", FK_DEC_U8, ct_nw_proto),
    F("tp_src", FK_DEC_BE16, ct_tp_src),
    F("tp_dst", FK_DEC_BE16, ct_tp_dst),
};
static const struct field ct_tuple6_fields[] = {
    F("src", FK_IPV6, ct_ipv6_src),
    F("dst", FK_IPV6, ct_ipv6_dst),
    F("proto", FK_DEC_U8, ct_nw_proto),
    F("tp_src", FK_DEC_BE16, ct_tp_src),
    F("tp_dst", FK_DEC_BE16, ct_tp_dst),
};
static const struct field gtpu_fields[] = {
    F("flags", FK_HEX_U8, tunnel.gtpu_flags),
    F("msgtype", FK_DEC_U8, tunnel.gtpu_msgtype),
};
#undef F

/* 3.1's attribute for the GTP-U flags and message type (u8 each) in
 * OVS_KEY_ATTR_TUNNEL, which only its userspace datapath knows: the next
 * number after the kernel's ERSPAN options. */
#define ODP_TUNNEL_KEY_ATTR_GTPU_OPTS (OVS_TUNNEL_KEY_ATTR_ERSPAN_OPTS + 1)

static size_t
field_size(enum field_kind kind)
{
    switch (kind) {
    case FK_DEC_U8: case FK_HEX_U8: case FK_FRAG: return 1;
    case FK_DEC_BE16: case FK_U8_IN_BE16: return 2;
    case FK_LABEL: case FK_IPV4: return 4;
    case FK_IPV6: return 16;
    case FK_ETH: return 6;
    case FK_HEX_BE64: return 8;
    }
    return 0;
}

/* The mask bits that mean "exactly this value" for a field kind. */
static void
field_exact_mask(enum field_kind kind, uint8_t *mask)
{
    size_t n = field_size(kind);
    memset(mask, 0xff, n);
    if (kind == FK_U8_IN_BE16) {
        mask[0] = 0;                    /* htons(0xff). */
    } else if (kind == FK_LABEL) {
        ovs_be32 m = htonl(IPV6_LABEL_MASK);
        memcpy(mask, &m, 4);
    } else if (kind == FK_FRAG) {
        mask[0] = FLOW_NW_FRAG_MASK;
    }
}

static bool
field_mask_is_zero(enum field_kind kind, const uint8_t *mask)
{
    for (size_t i = 0; i < field_size(kind); i++) {
        if (mask[i]) {
            return false;
        }
    }
    return true;
}

/* Whether MASK covers every bit the exact mask has (a WC_MASK_FIELD mask
 * of all ones counts as exact too). */
static bool
field_mask_is_exact(enum field_kind kind, const uint8_t *mask)
{
    uint8_t exact[16];
    field_exact_mask(kind, exact);
    for (size_t i = 0; i < field_size(kind); i++) {
        if ((mask[i] & exact[i]) != exact[i]) {
            return false;
        }
    }
    return true;
}

static uint64_t
field_get_uint(enum field_kind kind, const uint8_t *p)
{
    switch (kind) {
    case FK_DEC_U8: case FK_HEX_U8: case FK_FRAG:
        return p[0];
    case FK_DEC_BE16: case FK_U8_IN_BE16: {
        ovs_be16 v;
        memcpy(&v, p, 2);
        return ntohs(v);
    }
    case FK_LABEL: {
        ovs_be32 v;
        memcpy(&v, p, 4);
        return ntohl(v);
    }
    case FK_HEX_BE64: {
        ovs_be64 v;
        memcpy(&v, p, 8);
        return ntohll(v);
    }
    case FK_IPV4: case FK_IPV6: case FK_ETH:
        break;
    }
    return 0;
}

static void
field_put_uint(enum field_kind kind, uint64_t x, uint8_t *p)
{
    switch (kind) {
    case FK_DEC_U8: case FK_HEX_U8: case FK_FRAG:
        p[0] = x;
        break;
    case FK_DEC_BE16: case FK_U8_IN_BE16: {
        ovs_be16 v = htons(x);
        memcpy(p, &v, 2);
        break;
    }
    case FK_LABEL: {
        ovs_be32 v = htonl(x);
        memcpy(p, &v, 4);
        break;
    }
    case FK_HEX_BE64: {
        ovs_be64 v = htonll(x);
        memcpy(p, &v, 8);
        break;
    }
    case FK_IPV4: case FK_IPV6: case FK_ETH:
        break;
    }
}

static const char *
frag_name(uint8_t nw_frag)
{
    return (nw_frag == 0 ? "no"
            : nw_frag == FLOW_NW_FRAG_ANY ? "first"
            : nw_frag == (FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER) ? "later"
            : NULL);
}

static void
format_field_value(struct ds *ds, enum field_kind kind, const uint8_t *p,
                   bool is_mask)
{
    switch (kind) {
    case FK_IPV4: {
        ovs_be32 a;
        memcpy(&a, p, 4);
        ds_put_format(ds, IP_FMT, IP_ARGS(a));
        return;
    }
    case FK_IPV6: {
        char buf[INET6_ADDRSTRLEN];
        inet_ntop(AF_INET6, p, buf, sizeof buf);
        ds_put_cstr(ds, buf);
        return;
    }
    case FK_ETH: {
        struct eth_addr ea;
        memcpy(&ea, p, 6);
        ds_put_format(ds, ETH_ADDR_FMT, ETH_ADDR_ARGS(ea));
        return;
    }
    case FK_FRAG:
        if (!is_mask && frag_name(p[0])) {
            ds_put_cstr(ds, frag_name(p[0]));
            return;
        }
        break;
    case FK_DEC_U8: case FK_DEC_BE16: case FK_U8_IN_BE16:
    case FK_HEX_U8: case FK_LABEL: case FK_HEX_BE64:
        break;
    }
    /* Only the bits the field has: an ICMP type is 8 bits even if the
     * word holding it came from tcp(src=8080), a label 20. */
    uint64_t x = field_get_uint(kind, p);
    if (kind == FK_U8_IN_BE16) {
        x &= 0xff;
    } else if (kind == FK_LABEL) {
        x &= IPV6_LABEL_MASK;
    }
    if (!is_mask && (kind == FK_DEC_U8 || kind == FK_DEC_BE16
                     || kind == FK_U8_IN_BE16)) {
        ds_put_format(ds, "%"PRIu64, x);
    } else {
        ds_put_format(ds, "%#"PRIx64, x);
    }
}

/* Appends "name=value[/mask]" (or nothing, when the mask is zero and not
 * VERBOSE) and says whether it did. */
static bool
format_field(struct ds *ds, const struct field *f, const struct flow *key,
             const struct flow *mask, bool verbose, bool *first)
{
    const uint8_t *k = (const uint8_t *) key + f->ofs;
    const uint8_t *m = (const uint8_t *) mask + f->ofs;
    if ((!verbose || f->kind == FK_FRAG) && field_mask_is_zero(f->kind, m)) {
        /* (3.1 prints no frag= at all for a key that does not match it.) */
        return false;
    }
    if (!*first) {
        ds_put_char(ds, ',');
    }
    *first = false;
    ds_put_format(ds, "%s=", f->name);
    format_field_value(ds, f->kind, k, false);
    if (!field_mask_is_exact(f->kind, m)) {
        ds_put_char(ds, '/');
        format_field_value(ds, f->kind, m, true);
    }
    return true;
}

static void
format_fields(struct ds *ds, const struct field *fields, size_t n,
              const struct flow *key, const struct flow *mask, bool verbose)
{
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        format_field(ds, &fields[i], key, mask, verbose, &first);
    }
}

static bool
fields_any_masked(const struct field *fields, size_t n,
                  const struct flow *mask)
{
    for (size_t i = 0; i < n; i++) {
        if (!field_mask_is_zero(fields[i].kind,
                                (const uint8_t *) mask + fields[i].ofs)) {
            return true;
        }
    }
    return false;
}

/* Flag sets (tcp_flags, tunnel flags)
 * =================================== */

struct flag_name {
    uint32_t bit;
    const char *name;
};

static const struct flag_name tcp_flag_names[] = {
    { TCP_FIN, "fin" }, { TCP_SYN, "syn" }, { TCP_RST, "rst" },
    { TCP_PSH, "psh" }, { TCP_ACK, "ack" }, { TCP_URG, "urg" },
    { TCP_ECE, "ece" }, { TCP_CWR, "cwr" }, { TCP_NS, "ns" },
    { 0, NULL },
};

static const struct flag_name tnl_flag_names[] = {
    { FLOW_TNL_F_OAM, "oam" }, { FLOW_TNL_F_DONT_FRAGMENT, "df" },
    { FLOW_TNL_F_CSUM, "csum" }, { FLOW_TNL_F_KEY, "key" },
    { 0, NULL },
};

static const char *
flag_bit_name(const struct flag_name *names, uint32_t bit)
{
    for (; names->name; names++) {
        if (names->bit == bit) {
            return names->name;
        }
    }
    return NULL;
}

/* Names first in table order, then unnamed bits as [hex]. */
static void
for_each_flag_bit(const struct flag_name *names, uint32_t bits,
                  uint32_t all, void (*cb)(struct ds *, const char *name,
                                           uint32_t bit, bool set,
                                           bool *first),
                  uint32_t value, struct ds *ds)
{
    bool first = true;
    for (const struct flag_name *n = names; n->name; n++) {
        if (bits & n->bit) {
            cb(ds, n->name, n->bit, (value & n->bit) != 0, &first);
        }
    }
    for (uint32_t bit = 1; bit && bit <= all; bit <<= 1) {
        if ((bits & bit) && !flag_bit_name(names, bit)) {
            cb(ds, NULL, bit, (value & bit) != 0, &first);
        }
    }
}

static void
put_flag_exact(struct ds *ds, const char *name, uint32_t bit, bool set,
               bool *first)
{
    if (!*first) {
        ds_put_char(ds, '|');
    }
    *first = false;
    if (name) {
        ds_put_cstr(ds, name);
    } else {
        ds_put_format(ds, "[%"PRIx32"]", bit);
    }
    (void) set;
}

static void
put_flag_masked(struct ds *ds, const char *name, uint32_t bit, bool set,
                bool *first)
{
    ds_put_char(ds, set ? '+' : '-');
    if (name) {
        ds_put_cstr(ds, name);
    } else {
        ds_put_format(ds, "[%"PRIx32"]", bit);
    }
    *first = false;
}

static void
format_flags(struct ds *ds, const struct flag_name *names, uint32_t value,
             uint32_t mask, uint32_t all)
{
    if ((mask & all) == all) {
        if (!(value & all)) {
            ds_put_char(ds, '0');
        } else {
            for_each_flag_bit(names, value & all, all, put_flag_exact,
                              value, ds);
        }
    } else {
        for_each_flag_bit(names, mask & all, all, put_flag_masked, value,
                          ds);
    }
}

/* Megaflow printing
 * ================= */

static void
begin_key(struct ds *ds, bool *first, const char *name)
{
    if (!*first) {
        ds_put_char(ds, ',');
    }
    *first = false;
    ds_put_format(ds, "%s(", name);
}

static void
format_u32_key(struct ds *ds, bool *first, const char *name, uint32_t key,
               uint32_t mask, bool verbose)
{
    if (!mask && !verbose) {
        return;
    }
    begin_key(ds, first, name);
    ds_put_format(ds, "%#"PRIx32, key);
    if (mask != UINT32_MAX) {
        ds_put_format(ds, "/%#"PRIx32, mask);
    }
    ds_put_char(ds, ')');
}

/* Geneve options
 * ==============
 *
 * A tunnel key with FLOW_TNL_F_UDPIF carries its Geneve options raw in
 * tun_metadata: present is their length in bytes, opts the options as on
 * the wire (4-byte header: class, type, then the data length in 4-byte
 * units in the low 5 bits of the fourth byte; then the data).  A mask
 * lays its bits over the same bytes; its present is all ones when the
 * options' length is matched.  The text, as 3.1 writes it:
 * geneve({class=0x..,type=0x..,len=N,0xDATA[/0xMASK]}...), where a
 * header field wildcarded is left out, one partly masked gets "/0x..",
 * and data whose mask is all zero is left out. */

static bool
bytes_all(const uint8_t *p, size_t n, uint8_t byte)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] != byte) {
            return false;
        }
    }
    return true;
}

/* N bytes as one hex number, "0" when all zero (as 3.1 prints them). */
static void
put_geneve_hex(struct ds *ds, const uint8_t *p, size_t n)
{
    if (bytes_all(p, n, 0)) {
        ds_put_char(ds, '0');
    } else {
        ds_put_hex(ds, p, n);
    }
}

/* Appends the options OPTS (LEN bytes) under MASK (NULL: exact), or a
 * note saying where they stop making sense. */
static void
format_geneve_opts(struct ds *ds, const uint8_t *opts, const uint8_t *mask,
                   size_t len)
{
    static const uint8_t ones[4] = { 0xff, 0xff, 0xff, 0xff };
    size_t ofs = 0;
    while (ofs < len) {
        if (len - ofs < 4) {
            ds_put_format(ds, "opt len %zu less than minimum 4",
                          len - ofs);
            return;
        }
        const uint8_t *o = opts + ofs;
        const uint8_t *m = mask ? mask + ofs : ones;
        unsigned int data_len = (o[3] & 0x1f) * 4;
        if (4 + data_len > len - ofs) {
            ds_put_format(ds, "opt len %u greater than remaining %zu",
                          4 + data_len, len - ofs);
            return;
        }
        uint16_t cls = o[0] << 8 | o[1], cls_mask = m[0] << 8 | m[1];
        /* The length's mask covers its 5 bits; all of them is exact. */
        uint8_t len_mask = (m[3] & 0x1f) == 0x1f ? 0xff : m[3] & 0x1f;

        ds_put_char(ds, '{');
        if (cls_mask) {
            ds_put_format(ds, "class=%#"PRIx16, cls);
            if (cls_mask != UINT16_MAX) {
                ds_put_format(ds, "/%#"PRIx16, cls_mask);
            }
            ds_put_char(ds, ',');
        }
        if (m[2]) {
            ds_put_format(ds, "type=%#"PRIx8, o[2]);
            if (m[2] != UINT8_MAX) {
                ds_put_format(ds, "/%#"PRIx8, m[2]);
            }
            ds_put_char(ds, ',');
        }
        if (len_mask) {
            ds_put_format(ds, "len=%u", data_len);
            if (len_mask != UINT8_MAX) {
                ds_put_format(ds, "/%#"PRIx8, len_mask);
            }
            ds_put_char(ds, ',');
        }
        const uint8_t *dm = mask ? m + 4 : NULL;
        if (data_len && (!dm || !bytes_all(dm, data_len, 0))) {
            put_geneve_hex(ds, o + 4, data_len);
            if (dm && !bytes_all(dm, data_len, 0xff)) {
                ds_put_char(ds, '/');
                put_geneve_hex(ds, dm, data_len);
            }
        } else {
            ds_chomp(ds, ',');
        }
        ds_put_char(ds, '}');
        ofs += 4 + data_len;
    }
}

/* ERSPAN metadata in a tunnel key
 * ===============================
 *
 * "erspan(ver=N,idx=0xN)" (version 1) or "erspan(ver=N,dir=N,hwid=0xN)"
 * (version 2) inside tunnel(...), each field with an optional /mask, as
 * 3.1 writes OVS_TUNNEL_KEY_ATTR_ERSPAN_OPTS.  The fields are those of
 * the OpenFlow fields tun_erspan_*, as wide as they are there: a mask
 * covering all of a field's bits is exact (printed without "/"), and a
 * field whose mask is zero is left out. */

enum erspan_key_field { ERSPAN_VER, ERSPAN_IDX, ERSPAN_DIR, ERSPAN_HWID };

static const struct {
    const char *name;
    uint32_t bits;              /* All of the field's bits. */
    bool hex;
} erspan_key_fields[] = {
    [ERSPAN_VER] = { "ver", 0xf, false },
    [ERSPAN_IDX] = { "idx", 0xfffff, true },
    [ERSPAN_DIR] = { "dir", 0x1, false },
    [ERSPAN_HWID] = { "hwid", 0x3f, true },
};

static uint32_t
erspan_field_get(const struct flow_tnl *t, enum erspan_key_field f)
{
    switch (f) {
    case ERSPAN_VER: return t->erspan_ver;
    case ERSPAN_IDX: return t->erspan_idx;
    case ERSPAN_DIR: return t->erspan_dir;
    case ERSPAN_HWID: return t->erspan_hwid;
    }
    return 0;
}

static void
erspan_field_set(struct flow_tnl *t, enum erspan_key_field f, uint32_t x)
{
    switch (f) {
    case ERSPAN_VER: t->erspan_ver = x; break;
    case ERSPAN_IDX: t->erspan_idx = x; break;
    case ERSPAN_DIR: t->erspan_dir = x; break;
    case ERSPAN_HWID: t->erspan_hwid = x; break;
    }
}

/* Whether the text of KEY under MASK has an erspan(): as for the other
 * tunnel fields, when a field the mask covers holds a nonzero value. */
static bool
erspan_key_is_visible(const struct flow_tnl *key, const struct flow_tnl *mask)
{
    for (size_t i = 0; i < ARRAY_SIZE(erspan_key_fields); i++) {
        if (erspan_field_get(key, i) & erspan_field_get(mask, i)
            & erspan_key_fields[i].bits) {
            return true;
        }
    }
    return false;
}

static void
format_erspan_key(struct ds *ds, const struct flow_tnl *key,
                  const struct flow_tnl *mask)
{
    ds_put_cstr(ds, "erspan(");
    bool first = true;
    for (size_t i = 0; i < ARRAY_SIZE(erspan_key_fields); i++) {
        uint32_t bits = erspan_key_fields[i].bits;
        uint32_t m = erspan_field_get(mask, i) & bits;
        if (!m) {
            continue;
        }
        uint32_t v = erspan_field_get(key, i) & bits;
        ds_put_format(ds, first ? "%s=" : ",%s=", erspan_key_fields[i].name);
        ds_put_format(ds, erspan_key_fields[i].hex ? "%#"PRIx32 : "%"PRIu32,
                      v);
        if (m != bits) {
            ds_put_format(ds, "/%#"PRIx32, m);
        }
        first = false;
    }
    ds_put_char(ds, ')');
}

/* Whether tunnel field F of KEY is in the key as 3.1 encodes it: the
 * addresses, TOS and UDP ports only when nonzero, the TTL always, the
 * tunnel id when nonzero or when the key says it has one ("key" flag). */
static bool
tunnel_field_in_key(const struct field *f, const struct flow *key)
{
    const uint8_t *k = (const uint8_t *) key + f->ofs;
    if (f->ofs == offsetof(struct flow, tunnel.ip_ttl)) {
        return true;
    } else if (f->ofs == offsetof(struct flow, tunnel.tun_id)
               && key->tunnel.flags & FLOW_TNL_F_KEY) {
        return true;
    }
    return !field_mask_is_zero(f->kind, k);
}

/* Whether the tunnel has GTP-U metadata that MASK covers: both nonzero,
 * as 3.1 puts its attribute in a key only then. */
static bool
gtpu_is_visible(const struct flow *key, const struct flow *mask)
{
    return (key->tunnel.gtpu_flags && key->tunnel.gtpu_msgtype
            && fields_any_masked(gtpu_fields, ARRAY_SIZE(gtpu_fields),
                                 mask));
}

static bool
tunnel_is_visible(const struct flow *key, const struct flow *mask)
{
    if (key->tunnel.flags & mask->tunnel.flags & 0xf) {
        return true;
    }
    for (size_t i = 0; i < ARRAY_SIZE(tunnel_fields); i++) {
        const struct field *f = &tunnel_fields[i];
        const uint8_t *k = (const uint8_t *) key + f->ofs;
        const uint8_t *m = (const uint8_t *) mask + f->ofs;
        if (!field_mask_is_zero(f->kind, m)
            && !field_mask_is_zero(f->kind, k)) {
            return true;
        }
    }
    if (erspan_key_is_visible(&key->tunnel, &mask->tunnel)
        || gtpu_is_visible(key, mask)) {
        return true;
    }
    /* Geneve options print when their length is matched. */
    return (key->tunnel.flags & FLOW_TNL_F_UDPIF
            && mask->tun_metadata.present);
}

/* ",gtpu(flags=..,msgtype=..)" when gtpu_is_visible(). */
static void
format_gtpu(struct ds *ds, const struct flow *key, const struct flow *mask,
            bool *first)
{
    if (!gtpu_is_visible(key, mask)) {
        return;
    }
    ds_put_cstr(ds, *first ? "gtpu(" : ",gtpu(");
    format_fields(ds, gtpu_fields, ARRAY_SIZE(gtpu_fields), key, mask,
                  false);
    ds_put_char(ds, ')');
    *first = false;
}

static void
format_tunnel(struct ds *ds, bool *first, const struct flow *key,
              const struct flow *mask, bool verbose)
{
    /* Only a tunnelled key has tunnel fields (as a kernel key has an
     * OVS_KEY_ATTR_TUNNEL only then), and a megaflow's mask may cover
     * tunnel fields of a packet that had no tunnel, which 3.1 does not
     * print.  Judge "tunnelled" only from what the text will show: a
     * nonzero value in a field the mask covers, or a flag set that the
     * mask covers.  A value under a zero mask (tun_id=0x5/0) is not
     * printed, so it must not decide either, or the text printed would
     * parse back to a key that prints nothing. */
    if (!tunnel_is_visible(key, mask)) {
        return;
    }
    begin_key(ds, first, "tunnel");
    bool ffirst = true;
    for (size_t i = 0; i < ARRAY_SIZE(tunnel_fields); i++) {
        /* A field a key leaves out is not printed, whatever the mask (a
         * megaflow matching tos=0 prints no "tos=0", as in 3.1). */
        if (tunnel_field_in_key(&tunnel_fields[i], key)) {
            format_field(ds, &tunnel_fields[i], key, mask, false, &ffirst);
        }
    }
    if (key->tunnel.flags & FLOW_TNL_F_UDPIF && mask->tun_metadata.present) {
        size_t len = MIN(key->tun_metadata.present,
                         sizeof key->tun_metadata.opts);
        ds_put_cstr(ds, ffirst ? "geneve(" : ",geneve(");
        format_geneve_opts(ds, key->tun_metadata.opts,
                           mask->tun_metadata.opts, len);
        ds_put_char(ds, ')');
        ffirst = false;
    }
    if (erspan_key_is_visible(&key->tunnel, &mask->tunnel)) {
        ds_put_cstr(ds, ffirst ? "" : ",");
        format_erspan_key(ds, &key->tunnel, &mask->tunnel);
        ffirst = false;
    }
    format_gtpu(ds, key, mask, &ffirst);
    /* (UDPIF alone in the mask is geneve()'s, not a flag of the text.) */
    if (mask->tunnel.flags & ~FLOW_TNL_F_UDPIF) {
        if (!ffirst) {
            ds_put_char(ds, ',');
        }
        ds_put_cstr(ds, "flags(");
        format_flags(ds, tnl_flag_names, key->tunnel.flags,
                     mask->tunnel.flags, 0xf);
        ds_put_char(ds, ')');
    }
    ds_put_char(ds, ')');
}

static void
format_port(struct ds *ds, uint32_t port, const struct odp_port_names *names)
{
    const char *name = names && names->name_of
                       ? names->name_of(names->aux, port) : NULL;
    if (name) {
        ds_put_cstr(ds, name);
    } else {
        ds_put_format(ds, "%"PRIu32, port);
    }
}

static void
format_eth_type(struct ds *ds, bool *first, ovs_be16 key, ovs_be16 mask)
{
    begin_key(ds, first, "eth_type");
    ds_put_format(ds, "0x%04"PRIx16, ntohs(key));
    if (mask != htons(0xffff)) {
        ds_put_format(ds, "/0x%04"PRIx16, ntohs(mask));
    }
    ds_put_char(ds, ')');
}

static void
format_l4(struct ds *ds, bool *first, const struct flow *key,
          const struct flow *mask, bool verbose, bool is_ipv6)
{
    uint8_t proto = key->nw_proto;
    const char *name = (proto == IPPROTO_TCP ? "tcp"
                        : proto == IPPROTO_UDP ? "udp"
                        : proto == IPPROTO_SCTP ? "sctp"
                        : proto == IPPROTO_ICMP && !is_ipv6 ? "icmp"
                        : proto == IPPROTO_ICMPV6 && is_ipv6 ? "icmpv6"
                        : NULL);
    if (!name) {
        return;
    }
    bool is_icmp = proto == IPPROTO_ICMP || proto == IPPROTO_ICMPV6;
    const struct field *fields = is_icmp ? icmp_fields : ports_fields;
    if (verbose || fields_any_masked(fields, 2, mask)) {
        begin_key(ds, first, name);
        format_fields(ds, fields, 2, key, mask, verbose);
        ds_put_char(ds, ')');
    }
    if (proto == IPPROTO_TCP && mask->tcp_flags) {
        begin_key(ds, first, "tcp_flags");
        format_flags(ds, tcp_flag_names, ntohs(key->tcp_flags),
                     ntohs(mask->tcp_flags), TCP_FLAGS_MASK);
        ds_put_char(ds, ')');
    }
    if (proto == IPPROTO_ICMPV6 && is_ipv6) {
        uint16_t type = ntohs(key->tp_src);
        bool is_nd = ((type == ND_NEIGHBOR_SOLICIT
                       || type == ND_NEIGHBOR_ADVERT) && !key->tp_dst
                      && field_mask_is_exact(FK_U8_IN_BE16,
                                             (const uint8_t *)
                                             &mask->tp_src));
        if (fields_any_masked(nd_fields, ARRAY_SIZE(nd_fields), mask)
            || (verbose && is_nd)) {
            begin_key(ds, first, "nd");
            format_fields(ds, nd_fields, ARRAY_SIZE(nd_fields), key, mask,
                          verbose);
            ds_put_char(ds, ')');
        }
    }
}

/* MPLS label stacks: "label=L,tc=T,ttl=N,bos=B" per entry, outermost
 * first, as 3.1 prints them: the values alone when every entry is exact
 * (MASK NULL), otherwise every field with its mask. */
static void
format_mpls_lses(struct ds *ds, const ovs_be32 *key, const ovs_be32 *mask,
                 int n)
{
    for (int i = 0; i < n; i++) {
        if (i) {
            ds_put_char(ds, ',');
        }
        ovs_be32 k = key[i];
        if (!mask) {
            ds_put_format(ds, "label=%"PRIu32",tc=%u,ttl=%u,bos=%d",
                          mpls_lse_label(k), mpls_lse_tc(k), mpls_lse_ttl(k),
                          mpls_lse_bos(k));
        } else {
            ovs_be32 m = mask[i];
            ds_put_format(ds, "label=%"PRIu32"/0x%"PRIx32",tc=%u/%x,"
                          "ttl=%u/0x%x,bos=%d/%x",
                          mpls_lse_label(k), mpls_lse_label(m),
                          mpls_lse_tc(k), mpls_lse_tc(m),
                          mpls_lse_ttl(k), mpls_lse_ttl(m),
                          mpls_lse_bos(k), mpls_lse_bos(m));
        }
    }
}

/* The mpls() key: as many entries as the key's stack holds. */
static void
format_mpls_key(struct ds *ds, bool *first, const struct flow *key,
                const struct flow *mask, bool verbose)
{
    int n = flow_mpls_depth(key, NULL);
    bool any = false, exact = true;
    for (int i = 0; i < n; i++) {
        any |= mask->mpls_lse[i] != 0;
        exact &= mask->mpls_lse[i] == htonl(UINT32_MAX);
    }
    if (!n || (!any && !verbose)) {
        return;
    }
    begin_key(ds, first, "mpls");
    format_mpls_lses(ds, key->mpls_lse, exact ? NULL : mask->mpls_lse, n);
    ds_put_char(ds, ')');
}

static void
format_l3(struct ds *ds, bool *first, const struct flow *key,
          const struct flow *mask, bool verbose)
{
    if (mask->dl_type != htons(0xffff)) {
        return;
    }
    uint16_t type = ntohs(key->dl_type);
    const struct field *fields;
    size_t n;
    const char *name;
    if (type == ETH_TYPE_IP) {
        fields = ipv4_fields, n = ARRAY_SIZE(ipv4_fields), name = "ipv4";
    } else if (type == ETH_TYPE_IPV6) {
        fields = ipv6_fields, n = ARRAY_SIZE(ipv6_fields), name = "ipv6";
    } else if (type == ETH_TYPE_ARP || type == ETH_TYPE_RARP) {
        fields = arp_fields, n = ARRAY_SIZE(arp_fields), name = "arp";
    } else if (eth_type_mpls(key->dl_type)) {
        format_mpls_key(ds, first, key, mask, verbose);
        return;
    } else {
        return;
    }
    if (verbose || fields_any_masked(fields, n, mask)) {
        begin_key(ds, first, name);
        format_fields(ds, fields, n, key, mask, verbose);
        ds_put_char(ds, ')');
    }
    if (fields != arp_fields && (mask->nw_proto == 0xff || verbose)
        && !(key->nw_frag & FLOW_NW_FRAG_LATER)) {
        format_l4(ds, first, key, mask, verbose, type == ETH_TYPE_IPV6);
    }
}

/* "vid=N[/M],pcp=N[/M][,cfi=0]", as 3.1 prints a VLAN: each field whose
 * value or mask is nonzero (all when VERBOSE), its mask when partial; and,
 * for a key (IS_KEY), cfi=0 when the "present" bit is clear. */
static void
format_vlan_tci(struct ds *ds, uint16_t tci, uint16_t mask, bool verbose,
                bool is_key)
{
    uint16_t vid = tci & VLAN_VID_MASK, vid_mask = mask & VLAN_VID_MASK;
    uint16_t pcp = (tci & VLAN_PCP_MASK) >> VLAN_PCP_SHIFT;
    uint16_t pcp_mask = (mask & VLAN_PCP_MASK) >> VLAN_PCP_SHIFT;
    bool first = true;
    if (verbose || vid || vid_mask) {
        ds_put_format(ds, "vid=%u", vid);
        if (vid_mask != VLAN_VID_MASK) {
            ds_put_format(ds, "/%#x", vid_mask);
        }
        first = false;
    }
    if (verbose || pcp || pcp_mask) {
        ds_put_format(ds, "%spcp=%u", first ? "" : ",", pcp);
        if (pcp_mask != 7) {
            ds_put_format(ds, "/%#x", pcp_mask);
        }
        first = false;
    }
    if (is_key && !(tci & VLAN_CFI)) {
        ds_put_format(ds, "%scfi=0", first ? "" : ",");
    }
}

static void
format_after_eth(struct ds *ds, bool *first, const struct flow *key,
                 const struct flow *mask, bool verbose, int level)
{
    if (level < FLOW_MAX_VLAN_HEADERS
        && flow_vlan_present(&key->vlans[level])) {
        const union flow_vlan_hdr *v = &key->vlans[level];
        const union flow_vlan_hdr *vm = &mask->vlans[level];
        format_eth_type(ds, first, v->tpid, vm->tpid);

        begin_key(ds, first, "vlan");
        format_vlan_tci(ds, ntohs(v->tci), ntohs(vm->tci), verbose, true);
        ds_put_char(ds, ')');

        begin_key(ds, first, "encap");
        bool efirst = true;
        format_after_eth(ds, &efirst, key, mask, verbose, level + 1);
        ds_put_char(ds, ')');
        return;
    }
    if (mask->dl_type || verbose) {
        format_eth_type(ds, first, key->dl_type, mask->dl_type);
    }
    format_l3(ds, first, key, mask, verbose);
}

static const struct flag_name ct_state_names[] = {
    { CS_NEW, "new" }, { CS_ESTABLISHED, "est" }, { CS_RELATED, "rel" },
    { CS_REPLY_DIR, "rpl" }, { CS_INVALID, "inv" }, { CS_TRACKED, "trk" },
    { CS_SRC_NAT, "snat" }, { CS_DST_NAT, "dnat" },
    { 0, NULL },
};

/* A 128-bit big-endian number in hex as 3.1 prints one: "0", or "0x"
 * and its digits without leading zeros. */
static void
format_u128_hex(struct ds *ds, const uint8_t p[16])
{
    size_t i = 0;
    while (i < 16 && !p[i]) {
        i++;
    }
    if (i == 16) {
        ds_put_char(ds, '0');
        return;
    }
    ds_put_format(ds, "0x%"PRIx8, p[i]);
    for (i++; i < 16; i++) {
        ds_put_format(ds, "%02"PRIx8, p[i]);
    }
}

/* The conntrack keys, as 3.1's userspace datapath prints them: ct_state
 * as +flag/-flag for the bits its mask covers (hex when VERBOSE or exact),
 * the others in hex, then the original direction's tuple.  A packet has
 * them after a ct() action (conntrack.h), for the lookup after the next
 * recirculation. */
static void
format_ct_keys(struct ds *ds, bool *first, const struct flow *key,
               const struct flow *mask, bool verbose)
{
    if (mask->ct_state || verbose) {
        begin_key(ds, first, "ct_state");
        if (verbose || mask->ct_state == UINT32_MAX) {
            ds_put_format(ds, "%#"PRIx32, key->ct_state);
            if (mask->ct_state != UINT32_MAX) {
                ds_put_format(ds, "/%#"PRIx32, mask->ct_state);
            }
        } else {
            for_each_flag_bit(ct_state_names, mask->ct_state, UINT32_MAX,
                              put_flag_masked, key->ct_state, ds);
        }
        ds_put_char(ds, ')');
    }
    if (mask->ct_zone || verbose) {
        begin_key(ds, first, "ct_zone");
        ds_put_format(ds, "%#"PRIx16, key->ct_zone);
        if (mask->ct_zone != UINT16_MAX) {
            ds_put_format(ds, "/%#"PRIx16, mask->ct_zone);
        }
        ds_put_char(ds, ')');
    }
    format_u32_key(ds, first, "ct_mark", key->ct_mark, mask->ct_mark,
                   verbose);
    static const uint8_t zero[16];
    static const uint8_t ones[16] = {
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    };
    if (memcmp(mask->ct_label, zero, 16) || verbose) {
        begin_key(ds, first, "ct_label");
        format_u128_hex(ds, key->ct_label);
        if (memcmp(mask->ct_label, ones, 16)) {
            ds_put_char(ds, '/');
            format_u128_hex(ds, mask->ct_label);
        }
        ds_put_char(ds, ')');
    }

    /* ct_tuple6 for IPv6 (its addresses say so even where the Ethernet
     * type is wildcarded), else ct_tuple4; as 3.1, not for a packet in no
     * connection (its tuple is all zero). */
    bool v6 = (key->dl_type == htons(ETH_TYPE_IPV6)
               || fields_any_masked(ct_tuple6_fields, 2, mask));
    const struct field *tf = v6 ? ct_tuple6_fields : ct_tuple4_fields;
    bool any = key->ct_nw_proto || key->ct_tp_src || key->ct_tp_dst;
    for (size_t i = 0; i < 2 && !any; i++) {
        const uint8_t *f = (const uint8_t *) key + tf[i].ofs;
        for (size_t j = 0; j < field_size(tf[i].kind); j++) {
            any |= f[j] != 0;
        }
    }
    if (any && (verbose
                || fields_any_masked(tf, ARRAY_SIZE(ct_tuple4_fields),
                                     mask))) {
        begin_key(ds, first, v6 ? "ct_tuple6" : "ct_tuple4");
        format_fields(ds, tf, ARRAY_SIZE(ct_tuple4_fields), key, mask,
                      verbose);
        ds_put_char(ds, ')');
    }
}

/* packet_type(ns=N,id=0xN) and, for an Ethernet packet, eth(...), as
 * 3.1's userspace datapath prints them.  Flows the switch installs match
 * the packet type exactly and show eth() only when they match an address;
 * a flow whose packet type is wildcarded (ovs-dpctl's, written without
 * packet_type) is an Ethernet one and always shows eth(...). */
static void
format_packet_type_and_eth(struct ds *ds, bool *first, const struct flow *key,
                           const struct flow *mask, bool verbose)
{
    if (mask->packet_type || verbose) {
        uint32_t pt = ntohl(key->packet_type), pm = ntohl(mask->packet_type);
        begin_key(ds, first, "packet_type");
        ds_put_format(ds, "ns=%"PRIu32, pt >> 16);
        if ((pm >> 16) != 0xffff) {
            ds_put_format(ds, "/%#"PRIx32, pm >> 16);
        }
        ds_put_format(ds, ",id=%#"PRIx32, pt & 0xffff);
        if ((pm & 0xffff) != 0xffff) {
            ds_put_format(ds, "/%#"PRIx32, pm & 0xffff);
        }
        ds_put_char(ds, ')');
    }
    if (key->packet_type != htonl(PT_ETH)) {
        return;
    }
    if (verbose || !mask->packet_type
        || fields_any_masked(eth_fields, ARRAY_SIZE(eth_fields), mask)) {
        begin_key(ds, first, "eth");
        format_fields(ds, eth_fields, ARRAY_SIZE(eth_fields), key, mask,
                      verbose);
        ds_put_char(ds, ')');
    }
}

void
odp_flow_format(const struct flow *key, const struct flow_wildcards *wc,
                const struct odp_port_names *names, bool verbose,
                struct ds *ds)
{
    struct flow_wildcards exact;
    if (!wc) {
        flow_wildcards_init_exact(&exact);
        wc = &exact;
    }
    const struct flow *mask = &wc->masks;
    bool first = true;

    format_u32_key(ds, &first, "skb_priority", key->skb_priority,
                   mask->skb_priority, verbose);
    format_tunnel(ds, &first, key, mask, verbose);
    format_u32_key(ds, &first, "skb_mark", key->pkt_mark, mask->pkt_mark,
                   verbose);
    format_ct_keys(ds, &first, key, mask, verbose);
    format_u32_key(ds, &first, "recirc_id", key->recirc_id, mask->recirc_id,
                   verbose);
    format_u32_key(ds, &first, "dp_hash", key->dp_hash, mask->dp_hash,
                   verbose);
    if (mask->in_port || verbose) {
        begin_key(ds, &first, "in_port");
        format_port(ds, key->in_port, names);
        if (mask->in_port != UINT32_MAX) {
            ds_put_format(ds, "/%#"PRIx32, mask->in_port);
        }
        ds_put_char(ds, ')');
    }
    format_packet_type_and_eth(ds, &first, key, mask, verbose);
    format_after_eth(ds, &first, key, mask, verbose, 0);
}

void
odp_flow_mask_for_datapath(const struct flow *key, struct flow_wildcards *wc)
{
    for (int i = 0; i < FLOW_MAX_VLAN_HEADERS; i++) {
        union flow_vlan_hdr *m = &wc->masks.vlans[i];
        if (!flow_vlan_present(&key->vlans[i])) {
            m->tpid = m->tci = htons(0xffff);
            break;
        }
        m->tpid = htons(0xffff);
        m->tci |= htons(VLAN_VID_MASK | VLAN_CFI);
    }
}

static void
mask_fields(const struct field *fields, size_t n, struct flow *mask)
{
    for (size_t i = 0; i < n; i++) {
        field_exact_mask(fields[i].kind, (uint8_t *) mask + fields[i].ofs);
    }
}

void
odp_flow_wildcards_for_packet(const struct flow *flow,
                              struct flow_wildcards *wc)
{
    struct flow *m = &wc->masks;
    flow_wildcards_init_catchall(wc);
    m->skb_priority = m->pkt_mark = m->recirc_id = m->dp_hash = UINT32_MAX;
    m->in_port = UINT32_MAX;
    m->ct_state = CS_ALL_BITS;
    m->ct_zone = UINT16_MAX;
    m->ct_mark = UINT32_MAX;
    memset(m->ct_label, 0xff, sizeof m->ct_label);
    m->packet_type = htonl(UINT32_MAX);
    if (flow->tunnel.ip_dst || !ipv6_addr_is_zero(&flow->tunnel.ipv6_dst)) {
        mask_fields(tunnel_fields, ARRAY_SIZE(tunnel_fields), m);
        mask_fields(gtpu_fields, ARRAY_SIZE(gtpu_fields), m);
        m->tunnel.flags = UINT16_MAX;
        if (flow->tunnel.flags & FLOW_TNL_F_UDPIF) {
            /* Raw Geneve options: all of them. */
            m->tun_metadata.present = UINT64_MAX;
            memset(m->tun_metadata.opts, 0xff,
                   MIN(flow->tun_metadata.present,
                       sizeof m->tun_metadata.opts));
        }
    }
    if (flow->packet_type == htonl(PT_ETH)) {
        mask_fields(eth_fields, ARRAY_SIZE(eth_fields), m);
    }
    m->dl_type = htons(0xffff);
    odp_flow_mask_for_datapath(flow, wc);
    for (int i = 0; i < FLOW_MAX_VLAN_HEADERS; i++) {
        if (flow_vlan_present(&flow->vlans[i])) {
            m->vlans[i].tci = htons(0xffff);
        }
    }

    uint16_t type = ntohs(flow->dl_type);
    bool is_ipv6 = type == ETH_TYPE_IPV6;
    if (type == ETH_TYPE_IP || is_ipv6) {
        if (is_ipv6) {
            mask_fields(ipv6_fields, ARRAY_SIZE(ipv6_fields), m);
        } else {
            mask_fields(ipv4_fields, ARRAY_SIZE(ipv4_fields), m);
        }
        if (flow->nw_frag & FLOW_NW_FRAG_LATER) {
            return;
        }
        switch (flow->nw_proto) {
        case IPPROTO_TCP:
            m->tcp_flags = htons(0xffff);
            /* Fall through. */
        case IPPROTO_UDP:
        case IPPROTO_SCTP:
            mask_fields(ports_fields, ARRAY_SIZE(ports_fields), m);
            break;
        case IPPROTO_ICMP:
        case IPPROTO_ICMPV6:
            if ((flow->nw_proto == IPPROTO_ICMP) == !is_ipv6) {
                mask_fields(icmp_fields, ARRAY_SIZE(icmp_fields), m);
                uint16_t icmp_type = ntohs(flow->tp_src);
                if (is_ipv6 && !flow->tp_dst
                    && (icmp_type == ND_NEIGHBOR_SOLICIT
                        || icmp_type == ND_NEIGHBOR_ADVERT)) {
                    mask_fields(nd_fields, ARRAY_SIZE(nd_fields), m);
                }
            }
            break;
        }
    } else if (type == ETH_TYPE_ARP || type == ETH_TYPE_RARP) {
        mask_fields(arp_fields, ARRAY_SIZE(arp_fields), m);
    }
}

/* Parsing helpers
 * =============== */

struct parser {
    const char *s;
    const struct odp_port_names *names;
    /* Bytes the fields parsed so far take as Netlink attributes in 3.1's
     * encoding of a nested key (see "Size limits" below); only the
     * tunnel key reads it. */
    size_t nested_bytes;
    /* Why the last error happened, as an errno value: 0 (EINVAL) for a
     * plain syntax error, E2BIG for a key too long to encode. */
    int error;
};

/* The size of an attribute with a PAYLOAD-byte argument. */
static size_t
attr_size(size_t payload)
{
    return NLA_HDRLEN + NLA_ALIGN(payload);
}

static void
skip_spaces(struct parser *p)
{
    while (isspace((unsigned char) *p->s)) {
        p->s++;
    }
}

static bool
match_char(struct parser *p, char c)
{
    if (*p->s == c) {
        p->s++;
        return true;
    }
    return false;
}

/* After an item of a parenthesized list: ')' ends the list, ',' leads
 * to the next item, anything else is an error. */
enum list_step { LIST_MORE, LIST_END, LIST_BAD };

static enum list_step
next_list_item(struct parser *p)
{
    skip_spaces(p);
    return (match_char(p, ')') ? LIST_END
            : match_char(p, ',') ? LIST_MORE : LIST_BAD);
}

/* Reads [a-zA-Z0-9_] into NAME (up to SIZE - 1); false if none. */
static bool
read_name(struct parser *p, char *name, size_t size)
{
    size_t n = 0;
    while (isalnum((unsigned char) p->s[n]) || p->s[n] == '_'
           || p->s[n] == '-' || p->s[n] == '.') {
        n++;
    }
    if (!n || n >= size) {
        return false;
    }
    memcpy(name, p->s, n);
    name[n] = '\0';
    p->s += n;
    return true;
}

/* Reads up to one of the characters in STOP (or the end) into a new
 * string. */
static char *
read_token(struct parser *p, const char *stop)
{
    size_t n = strcspn(p->s, stop);
    char *token = xmemdup0(p->s, n);
    p->s += n;
    return token;
}

static bool
parse_field_text(enum field_kind kind, const char *s, bool is_mask,
                 uint8_t *out)
{
    switch (kind) {
    case FK_IPV4: {
        struct in_addr a;
        if (inet_pton(AF_INET, s, &a) != 1) {
            return false;
        }
        memcpy(out, &a.s_addr, 4);
        return true;
    }
    case FK_IPV6: {
        struct in6_addr a;
        if (inet_pton(AF_INET6, s, &a) != 1) {
            return false;
        }
        memcpy(out, &a, 16);
        return true;
    }
    case FK_ETH: {
        struct eth_addr ea;
        if (!eth_addr_from_string(s, &ea)) {
            return false;
        }
        memcpy(out, &ea, 6);
        return true;
    }
    case FK_FRAG:
        if (!is_mask) {
            if (!strcmp(s, "no")) {
                out[0] = 0;
                return true;
            } else if (!strcmp(s, "first")) {
                out[0] = FLOW_NW_FRAG_ANY;
                return true;
            } else if (!strcmp(s, "later")) {
                out[0] = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
                return true;
            }
            return false;
        }
        break;
    case FK_DEC_U8: case FK_HEX_U8: case FK_DEC_BE16: case FK_U8_IN_BE16:
    case FK_LABEL: case FK_HEX_BE64:
        break;
    }

    uint64_t max = (kind == FK_DEC_BE16 ? UINT16_MAX
                    : kind == FK_LABEL ? IPV6_LABEL_MASK
                    : kind == FK_HEX_BE64 ? UINT64_MAX
                    : UINT8_MAX);
    uint64_t x;
    if (!ofputil_scan_uint(s, max, &x)) {
        return false;
    }
    field_put_uint(kind, x, out);
    return true;
}

/* Parses "name=value[/mask],..." up to the closing ')' (consumed) into the
 * fields of KEY and MASK.  EXTRA, if nonnull, gets a chance at a field
 * name the table lacks ("flags(...)" of tunnel). */
static bool
parse_fields(struct parser *p, const struct field *fields, size_t n,
             struct flow *key, struct flow *mask,
             bool (*extra)(struct parser *, const char *name,
                           struct flow *key, struct flow *mask))
{
    skip_spaces(p);
    if (match_char(p, ')')) {
        return true;
    }
    for (;;) {
        char name[32];
        skip_spaces(p);
        if (!read_name(p, name, sizeof name)) {
            return false;
        }
        const struct field *f = NULL;
        for (size_t i = 0; i < n; i++) {
            if (!strcmp(fields[i].name, name)) {
                f = &fields[i];
                break;
            }
        }
        if (!f) {
            if (!extra || !extra(p, name, key, mask)) {
                return false;
            }
        } else {
            if (!match_char(p, '=')) {
                return false;
            }
            uint8_t *k = (uint8_t *) key + f->ofs;
            uint8_t *m = (uint8_t *) mask + f->ofs;
            p->nested_bytes += attr_size(field_size(f->kind));
            char *value = read_token(p, "/,)");
            bool ok = parse_field_text(f->kind, value, false, k);
            free(value);
            if (!ok) {
                return false;
            }
            if (match_char(p, '/')) {
                char *mtext = read_token(p, ",)");
                ok = parse_field_text(f->kind, mtext, true, m);
                free(mtext);
                if (!ok) {
                    return false;
                }
            } else {
                field_exact_mask(f->kind, m);
            }
        }
        enum list_step step = next_list_item(p);
        if (step == LIST_END) {
            return true;
        } else if (step == LIST_BAD) {
            return false;
        }
    }
}

/* Flags: "0", "name|name|[hex]" (exact), "+name-name" (masked) or a
 * number with an optional /mask, up to ')' (consumed). */
static bool
parse_flags(struct parser *p, const struct flag_name *names, uint32_t all,
            uint32_t *value, uint32_t *mask)
{
    char *text = read_token(p, ")");
    bool ok = match_char(p, ')');
    const char *s = text;
    *value = *mask = 0;

    if (!ok || !*s) {
        ok = false;
    } else if (isdigit((unsigned char) *s)) {
        char *slash = strchr(text, '/');
        uint64_t v, m = all;
        if (slash) {
            *slash = '\0';
        }
        ok = ofputil_scan_uint(text, all, &v) && (!slash
                                           || ofputil_scan_uint(slash + 1, all, &m));
        *value = v & m;
        *mask = m;
    } else {
        bool masked = *s == '+' || *s == '-';
        if (!masked) {
            *mask = all;
        }
        while (ok && *s) {
            bool set = true;
            if (masked) {
                if (*s != '+' && *s != '-') {
                    ok = false;
                    break;
                }
                set = *s++ == '+';
            }
            size_t n = strcspn(s, masked ? "+-" : "|");
            uint32_t bit = 0;
            for (const struct flag_name *f = names; f->name; f++) {
                if (strlen(f->name) == n && !strncmp(f->name, s, n)) {
                    bit = f->bit;
                }
            }
            if (!bit && n > 2 && s[0] == '[' && s[n - 1] == ']') {
                char *hex = xmemdup0(s + 1, n - 2);
                char *end;
                unsigned long x = strtoul(hex, &end, 16);
                if (!*end && *hex && x && !(x & (x - 1)) && (x & all)) {
                    bit = x;
                }
                free(hex);
            }
            if (!bit) {
                ok = false;
                break;
            }
            if (set) {
                *value |= bit;
            }
            if (masked) {
                *mask |= bit;
            }
            s += n;
            if (!masked && *s) {
                if (*s != '|' || !s[1]) {
                    ok = false;
                    break;
                }
                s++;
            }
        }
    }
    free(text);
    return ok;
}

/* Reads "NUMBER[/MASK]" into the N-byte big-endian *VALUE and *MASK (all
 * ones without a mask), stopping at ',', '}' or ')'. */
static bool
parse_geneve_number(struct parser *p, uint8_t *value, uint8_t *mask,
                    size_t n)
{
    const char *tail;
    if (ofputil_parse_int_bytes(p->s, value, n, &tail)) {
        return false;
    }
    p->s = tail;
    if (match_char(p, '/')) {
        if (ofputil_parse_int_bytes(p->s, mask, n, &tail)) {
            return false;
        }
        p->s = tail;
    } else {
        memset(mask, 0xff, n);
    }
    return true;
}

/* Parses the options of "geneve(" (consumed) up to its ')' (consumed)
 * into OPTS and MASK (at most MAX bytes each), and their length into
 * *LEN.  A header field left out is wildcarded, as is data left out. */
static bool
parse_geneve_opts(struct parser *p, uint8_t *opts, uint8_t *mask,
                  size_t max, size_t *lenp)
{
    size_t len = 0;
    while (match_char(p, '{')) {
        if (max - len < 4) {
            return false;
        }
        uint8_t *o = opts + len, *m = mask + len;
        memset(o, 0, 4);
        memset(m, 0, 4);
        unsigned int data_len = 0;
        bool data_seen = false;
        while (!match_char(p, '}')) {
            if (data_seen) {
                return false;
            }
            if (!strncmp(p->s, "class=", 6)) {
                p->s += 6;
                if (!parse_geneve_number(p, o, m, 2)) {
                    return false;
                }
            } else if (!strncmp(p->s, "type=", 5)) {
                p->s += 5;
                if (!parse_geneve_number(p, o + 2, m + 2, 1)) {
                    return false;
                }
            } else if (!strncmp(p->s, "len=", 4)) {
                p->s += 4;
                uint8_t l, lm;
                if (!parse_geneve_number(p, &l, &lm, 1)
                    || l > 124 || l % 4 || 4 + l > max - len) {
                    return false;
                }
                data_len = l;
                o[3] = l / 4;
                m[3] = lm;
            } else {
                /* The data, which comes last, as wide as "len" says. */
                memset(o + 4, 0, data_len);
                memset(m + 4, 0, data_len);
                if (data_len && !parse_geneve_number(p, o + 4, m + 4,
                                                     data_len)) {
                    return false;
                }
                data_seen = true;
            }
            if (!match_char(p, ',') && *p->s != '}') {
                return false;
            }
        }
        if (!data_seen) {
            memset(o + 4, 0, data_len);
            memset(m + 4, 0, data_len);
        }
        len += 4 + data_len;
    }
    if (!match_char(p, ')')) {
        return false;
    }
    *lenp = len;
    return true;
}

/* Parses the fields of "erspan(" (consumed) up to its ')' (consumed) into
 * KEY and MASK.  A field may come once; one left out is wildcarded. */
static bool
parse_erspan_key(struct parser *p, struct flow_tnl *key, struct flow_tnl *mask)
{
    bool seen[ARRAY_SIZE(erspan_key_fields)] = { false };
    skip_spaces(p);
    if (match_char(p, ')')) {
        return true;
    }
    for (;;) {
        char name[8];
        skip_spaces(p);
        if (!read_name(p, name, sizeof name) || !match_char(p, '=')) {
            return false;
        }
        size_t f = 0;
        while (f < ARRAY_SIZE(erspan_key_fields)
               && strcmp(erspan_key_fields[f].name, name)) {
            f++;
        }
        if (f == ARRAY_SIZE(erspan_key_fields) || seen[f]) {
            return false;
        }
        seen[f] = true;
        uint32_t bits = erspan_key_fields[f].bits;
        uint64_t v, m = bits;
        char *text = read_token(p, "/,)");
        bool ok = ofputil_scan_uint(text, bits, &v);
        free(text);
        if (ok && match_char(p, '/')) {
            text = read_token(p, ",)");
            ok = ofputil_scan_uint(text, bits, &m);
            free(text);
        }
        if (!ok) {
            return false;
        }
        erspan_field_set(key, f, v);
        erspan_field_set(mask, f, m);

        enum list_step step = next_list_item(p);
        if (step == LIST_END) {
            return true;
        } else if (step == LIST_BAD) {
            return false;
        }
    }
}

static bool
parse_tunnel_extra(struct parser *p, const char *name, struct flow *key,
                   struct flow *mask)
{
    if (!strcmp(name, "erspan") && match_char(p, '(')) {
        /* 3.1's struct erspan_metadata: an int version, then 4 bytes. */
        p->nested_bytes += attr_size(8);
        return parse_erspan_key(p, &key->tunnel, &mask->tunnel);
    }
    if (!strcmp(name, "geneve") && match_char(p, '(')) {
        size_t len;
        if (!parse_geneve_opts(p, key->tun_metadata.opts,
                               mask->tun_metadata.opts,
                               ODP_GENEVE_OPTS_MAX, &len)) {
            return false;
        }
        p->nested_bytes += attr_size(len);
        /* The options raw, their length exact (see "Geneve options"). */
        key->tun_metadata.present = len;
        mask->tun_metadata.present = UINT64_MAX;
        key->tunnel.flags |= FLOW_TNL_F_UDPIF;
        mask->tunnel.flags |= FLOW_TNL_F_UDPIF;
        return true;
    }
    if (!strcmp(name, "gtpu") && match_char(p, '(')) {
        return parse_fields(p, gtpu_fields, ARRAY_SIZE(gtpu_fields), key,
                            mask, NULL);
    }
    if (strcmp(name, "flags") || !match_char(p, '(')) {
        return false;
    }
    uint32_t value, m;
    if (match_char(p, ')')) {
        /* "flags()": none of them, as 3.1 writes a tunnel without any. */
        value = 0;
        m = 0xf;
    } else if (!parse_flags(p, tnl_flag_names, 0xf, &value, &m)) {
        return false;
    }
    /* Each flag but "key" is an attribute without argument. */
    p->nested_bytes += NLA_HDRLEN * __builtin_popcount(
        value & (FLOW_TNL_F_OAM | FLOW_TNL_F_DONT_FRAGMENT | FLOW_TNL_F_CSUM));
    /* (FLOW_TNL_F_UDPIF is no flag of the text: geneve() set it.) */
    key->tunnel.flags = (key->tunnel.flags & FLOW_TNL_F_UDPIF) | value;
    mask->tunnel.flags = (mask->tunnel.flags & FLOW_TNL_F_UDPIF) | m;
    return true;
}

/* "erspan(ver=1,idx=N)" or "erspan(ver=2,dir=N,hwid=N)" in
 * set(tunnel(...)), as format_tunnel_action() prints them. */
static bool
parse_erspan(struct parser *p, struct flow_tnl *t)
{
    uint64_t ver = 0, idx = 0, dir = 0, hwid = 0;
    bool have_idx = false, have_v2 = false;
    if (!match_char(p, '(')) {
        return false;
    }
    for (;;) {
        char name[8];
        skip_spaces(p);
        if (!read_name(p, name, sizeof name) || !match_char(p, '=')) {
            return false;
        }
        char *text = read_token(p, ",)");
        uint64_t v;
        bool ok = ofputil_scan_uint(text, UINT32_MAX, &v);
        free(text);
        if (!ok) {
            return false;
        } else if (!strcmp(name, "ver")) {
            ver = v;
        } else if (!strcmp(name, "idx")) {
            idx = v;
            have_idx = true;
        } else if (!strcmp(name, "dir")) {
            dir = v;
            have_v2 = true;
        } else if (!strcmp(name, "hwid")) {
            hwid = v;
            have_v2 = true;
        } else {
            return false;
        }
        if (match_char(p, ')')) {
            break;
        }
        if (!match_char(p, ',')) {
            return false;
        }
    }
    if (ver == 1 && !have_v2 && idx <= 0xfffff) {
        t->erspan_ver = 1;
        t->erspan_idx = idx;
        return true;
    }
    if (ver == 2 && !have_idx && dir <= 1 && hwid <= 0x3f) {
        t->erspan_ver = 2;
        t->erspan_dir = dir;
        t->erspan_hwid = hwid;
        return true;
    }
    return false;
}

static bool
parse_set_tunnel_extra(struct parser *p, const char *name, struct flow *key,
                       struct flow *mask)
{
    if (!strcmp(name, "erspan")) {
        return !key->tunnel.erspan_ver && parse_erspan(p, &key->tunnel);
    }
    return parse_tunnel_extra(p, name, key, mask);
}

static bool
parse_u32_arg(struct parser *p, uint32_t *value, uint32_t *mask)
{
    char *text = read_token(p, "/)");
    uint64_t v, m = UINT32_MAX;
    bool ok = ofputil_scan_uint(text, UINT32_MAX, &v);
    free(text);
    if (ok && match_char(p, '/')) {
        text = read_token(p, ")");
        ok = ofputil_scan_uint(text, UINT32_MAX, &m);
        free(text);
    }
    if (!ok || !match_char(p, ')')) {
        return false;
    }
    *value = v & m;
    *mask = m;
    return true;
}

static bool
parse_port_arg(struct parser *p, uint32_t *port, uint32_t *mask)
{
    const char *start = p->s;
    if (parse_u32_arg(p, port, mask)) {
        return true;
    }
    p->s = start;
    char *name = read_token(p, ")");
    bool ok = (*name && p->names && p->names->number_of
               && p->names->number_of(p->names->aux, name, port)
               && match_char(p, ')'));
    free(name);
    *mask = UINT32_MAX;
    return ok;
}

static bool
is_vlan_tpid_value(uint16_t type)
{
    return type == ETH_TYPE_VLAN_8021Q || type == ETH_TYPE_VLAN_8021AD;
}

static bool
parse_vlan_fields(struct parser *p, union flow_vlan_hdr *v,
                  union flow_vlan_hdr *vm)
{
    uint16_t tci = VLAN_CFI, tci_mask = VLAN_CFI;
    skip_spaces(p);
    if (!match_char(p, ')')) {
        for (;;) {
            char name[16];
            skip_spaces(p);
            if (!read_name(p, name, sizeof name) || !match_char(p, '=')) {
                return false;
            }
            char *text = read_token(p, "/,)");
            uint64_t x, m;
            uint64_t max = (!strcmp(name, "vid") ? VLAN_VID_MASK
                            : !strcmp(name, "pcp") ? 7
                            : !strcmp(name, "cfi") ? 1 : 0);
            bool ok = max && ofputil_scan_uint(text, max, &x);
            free(text);
            m = max;
            if (ok && match_char(p, '/')) {
                text = read_token(p, ",)");
                ok = ofputil_scan_uint(text, max, &m);
                free(text);
            }
            if (!ok) {
                return false;
            }
            if (max == VLAN_VID_MASK) {
                tci = (tci & ~VLAN_VID_MASK) | x;
                tci_mask = (tci_mask & ~VLAN_VID_MASK) | m;
            } else if (max == 7) {
                tci = (tci & ~VLAN_PCP_MASK) | (x << VLAN_PCP_SHIFT);
                tci_mask = (tci_mask & ~VLAN_PCP_MASK) | (m << VLAN_PCP_SHIFT);
            } else {
                tci = (tci & ~VLAN_CFI) | (x ? VLAN_CFI : 0);
                tci_mask = (tci_mask & ~VLAN_CFI) | (m ? VLAN_CFI : 0);
            }
            skip_spaces(p);
            if (match_char(p, ')')) {
                break;
            }
            if (!match_char(p, ',')) {
                return false;
            }
        }
    }
    v->tci = htons(tci);
    vm->tci = htons(tci_mask);
    return true;
}

/* "label=L[/M],tc=T[/M],ttl=N[/M],bos=B[/M],..." up to ')' (consumed):
 * each field names the next entry that does not have it yet, so
 * "label=1,tc=2,label=3" is two entries.  Fields left out are
 * wildcarded.  Returns the number of entries (0 on error). */
static int
parse_mpls_lses(struct parser *p, ovs_be32 *key, ovs_be32 *mask)
{
    static const struct {
        const char *name;
        uint32_t bits;
    } fields[] = {
        { "label", MPLS_LABEL_MASK }, { "tc", MPLS_TC_MASK },
        { "ttl", MPLS_TTL_MASK }, { "bos", MPLS_BOS_MASK },
    };
    int seen[ARRAY_SIZE(fields)] = { 0 };
    int n = 0;

    memset(key, 0, FLOW_MAX_MPLS_LABELS * sizeof *key);
    memset(mask, 0, FLOW_MAX_MPLS_LABELS * sizeof *mask);
    for (;;) {
        char name[16];
        skip_spaces(p);
        if (!read_name(p, name, sizeof name) || !match_char(p, '=')) {
            return 0;
        }
        size_t f = 0;
        while (f < ARRAY_SIZE(fields) && strcmp(fields[f].name, name)) {
            f++;
        }
        if (f == ARRAY_SIZE(fields) || seen[f] >= FLOW_MAX_MPLS_LABELS) {
            return 0;
        }
        uint32_t max = fields[f].bits >> __builtin_ctz(fields[f].bits);
        uint64_t v, m = max;
        char *text = read_token(p, "/,)");
        bool ok = ofputil_scan_uint(text, max, &v);
        free(text);
        if (ok && match_char(p, '/')) {
            text = read_token(p, ",)");
            ok = ofputil_scan_uint(text, max, &m);
            free(text);
        }
        if (!ok) {
            return 0;
        }
        int i = seen[f]++;
        mpls_lse_set_field(&key[i], fields[f].bits, v);
        mpls_lse_set_field(&mask[i], fields[f].bits, m);
        n = MAX(n, seen[f]);

        enum list_step step = next_list_item(p);
        if (step == LIST_END) {
            return n;
        } else if (step == LIST_BAD) {
            return 0;
        }
    }
}

/* "N" or "N/M" (numbers in C syntax) of at most MAX into *VALUE and
 * *MASK (MAX when absent), the value masked. */
static bool
parse_uint_masked(const char *s, uint64_t max, uint64_t *value,
                  uint64_t *mask)
{
    char *text = xstrdup(s);
    char *slash = strchr(text, '/');
    if (slash) {
        *slash = '\0';
    }
    uint64_t v, m = max;
    bool ok = (ofputil_scan_uint(text, max, &v)
               && (!slash || ofputil_scan_uint(slash + 1, max, &m)));
    free(text);
    *value = v & m;
    *mask = m;
    return ok;
}

/* packet_type(ns=N[/M],id=N[/M]). */
static bool
parse_packet_type_arg(struct parser *p, ovs_be32 *key, ovs_be32 *mask)
{
    char *text = read_token(p, ")");
    bool ok = match_char(p, ')') && !strncmp(text, "ns=", 3);
    char *comma = ok ? strchr(text, ',') : NULL;
    uint64_t ns, ns_mask, id, id_mask;
    if (comma) {
        *comma = '\0';
    }
    ok = (comma && !strncmp(comma + 1, "id=", 3)
          && parse_uint_masked(text + 3, UINT16_MAX, &ns, &ns_mask)
          && parse_uint_masked(comma + 4, UINT16_MAX, &id, &id_mask));
    free(text);
    if (ok) {
        *key = htonl(ns << 16 | id);
        *mask = htonl(ns_mask << 16 | id_mask);
    }
    return ok;
}

/* A 128-bit number ("0x" and up to 32 hex digits, or 0) into P[16], big
 * endian. */
static bool
parse_u128(const char *s, uint8_t p[16])
{
    memset(p, 0, 16);
    if (!strcmp(s, "0")) {
        return true;
    }
    if (strncmp(s, "0x", 2) && strncmp(s, "0X", 2)) {
        return false;
    }
    s += 2;
    size_t n = strlen(s);
    if (!n || n > 32 || strspn(s, "0123456789abcdefABCDEF") != n) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        char c = s[n - 1 - i];
        int x = isdigit((unsigned char) c) ? c - '0'
                : tolower((unsigned char) c) - 'a' + 10;
        p[15 - i / 2] |= x << (i % 2 ? 4 : 0);
    }
    return true;
}

/* ct_label(N[/M]). */
static bool
parse_ct_label_arg(struct parser *p, uint8_t key[16], uint8_t mask[16])
{
    char *text = read_token(p, ")");
    bool ok = match_char(p, ')');
    char *slash = strchr(text, '/');
    if (slash) {
        *slash = '\0';
    }
    ok = ok && parse_u128(text, key);
    if (ok && slash) {
        ok = parse_u128(slash + 1, mask);
    } else {
        memset(mask, 0xff, 16);
    }
    for (int i = 0; i < 16; i++) {
        key[i] &= mask[i];
    }
    free(text);
    return ok;
}

/* ct_zone(N[/M]). */
static bool
parse_ct_zone_arg(struct parser *p, uint16_t *key, uint16_t *mask)
{
    char *text = read_token(p, ")");
    uint64_t v, m;
    bool ok = (match_char(p, ')')
               && parse_uint_masked(text, UINT16_MAX, &v, &m));
    free(text);
    *key = v;
    *mask = m;
    return ok;
}

/* Whether the text at P, after a comma and spaces, starts with NAME(. */
static bool
next_key_is(const struct parser *p, const char *name)
{
    const char *s = p->s;
    while (isspace((unsigned char) *s)) {
        s++;
    }
    if (*s != ',') {
        return false;
    }
    s++;
    while (isspace((unsigned char) *s)) {
        s++;
    }
    size_t n = strlen(name);
    return !strncmp(s, name, n) && s[n] == '(';
}

/* Size limits
 * ===========
 *
 * 3.1 parses a flow into Netlink attributes, whose length is 16 bits: a
 * flow whose attributes would not fit (thousands of repeated keys), or a
 * nested key (tunnel, encap) whose attributes would not, is refused with
 * E2BIG, "syntax error at KEY" naming the key at the top level that
 * overflowed.  Our parser fills a struct flow, where a repeated field just
 * overwrites, but it counts the bytes 3.1's encoding would take, so that
 * the same text is refused the same way. */

/* The argument size of each key with a fixed one, as in
 * <linux/openvswitch.h>. */
static size_t
key_payload_size(const char *name)
{
    static const struct {
        const char *name;
        size_t size;
    } sizes[] = {
        { "in_port", 4 }, { "skb_priority", 4 }, { "skb_mark", 4 },
        { "recirc_id", 4 }, { "dp_hash", 4 }, { "eth", 12 },
        { "eth_type", 2 }, { "vlan", 2 }, { "ipv4", 12 }, { "ipv6", 40 },
        { "arp", 22 }, { "tcp", 4 }, { "udp", 4 }, { "sctp", 4 },
        { "icmp", 2 }, { "icmpv6", 2 }, { "nd", 28 }, { "packet_type", 4 },
        { "ct_state", 4 }, { "ct_zone", 2 }, { "ct_mark", 4 },
        { "ct_label", 16 }, { "tcp_flags", 2 }, { "ct_tuple4", 13 },
        { "ct_tuple6", 37 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
        if (!strcmp(sizes[i].name, name)) {
            return sizes[i].size;
        }
    }
    return 0;
}

/* The most a nested attribute may hold, and a whole flow. */
#define NESTED_MAX (UINT16_MAX - NLA_HDRLEN)
#define FLOW_MAX UINT16_MAX

/* Parses keys up to CLOSE ('\0' at the top, ')' inside encap(), which is
 * consumed).  LEVEL is the VLAN nesting depth.  Adds to *BYTES what the
 * keys take as 3.1's Netlink attributes. */
static char *
parse_keys(struct parser *p, struct flow *key, struct flow *mask, int level,
           char close, size_t *bytes)
{
    skip_spaces(p);
    if (close && match_char(p, close)) {
        return NULL;
    }
    while (*p->s) {
        const char *start = p->s;
        char name[32];
        bool ok = read_name(p, name, sizeof name) && match_char(p, '(');
        if (!ok) {
            goto error;
        }
        size_t payload = key_payload_size(name);
        if (!strcmp(name, "in_port")) {
            ok = parse_port_arg(p, &key->in_port, &mask->in_port);
        } else if (!strcmp(name, "skb_priority")) {
            ok = parse_u32_arg(p, &key->skb_priority, &mask->skb_priority);
        } else if (!strcmp(name, "skb_mark")) {
            ok = parse_u32_arg(p, &key->pkt_mark, &mask->pkt_mark);
        } else if (!strcmp(name, "recirc_id")) {
            ok = parse_u32_arg(p, &key->recirc_id, &mask->recirc_id);
        } else if (!strcmp(name, "dp_hash")) {
            ok = parse_u32_arg(p, &key->dp_hash, &mask->dp_hash);
        } else if (!strcmp(name, "tunnel")) {
            p->nested_bytes = 0;
            ok = parse_fields(p, tunnel_fields, ARRAY_SIZE(tunnel_fields),
                              key, mask, parse_tunnel_extra);
            payload = p->nested_bytes;
            if (ok && payload > NESTED_MAX) {
                p->error = E2BIG;
                ok = false;
            }
            /* A tunnel key is present, and says so in the flags, as 3.1's
             * netlink form implies "key" from the key's attribute. */
            if (ok && mask->tunnel.tun_id) {
                key->tunnel.flags |= FLOW_TNL_F_KEY;
            }
        } else if (!strcmp(name, "eth")) {
            ok = parse_fields(p, eth_fields, ARRAY_SIZE(eth_fields), key,
                              mask, NULL);
        } else if (!strcmp(name, "eth_type")) {
            uint32_t v, m;
            ok = parse_u32_arg(p, &v, &m);
            if (ok && m == UINT32_MAX) {
                m = 0xffff;
            }
            ok = ok && v <= 0xffff && m <= 0xffff;
            if (ok && m == 0xffff && is_vlan_tpid_value(v)
                && level < FLOW_MAX_VLAN_HEADERS && next_key_is(p, "vlan")) {
                key->vlans[level].tpid = htons(v);
                mask->vlans[level].tpid = htons(0xffff);
            } else if (ok) {
                key->dl_type = htons(v & m);
                mask->dl_type = htons(m);
                if (m == 0xffff && level < FLOW_MAX_VLAN_HEADERS) {
                    /* No (further) VLAN header. */
                    memset(&key->vlans[level], 0, sizeof key->vlans[level]);
                    memset(&mask->vlans[level], 0xff,
                           sizeof mask->vlans[level]);
                }
            }
        } else if (!strcmp(name, "vlan")) {
            /* Only right after eth_type(TPID), which set the TPID. */
            ok = (level < FLOW_MAX_VLAN_HEADERS
                  && mask->vlans[level].tpid == htons(0xffff)
                  && is_vlan_tpid_value(ntohs(key->vlans[level].tpid))
                  && !mask->vlans[level].tci
                  && parse_vlan_fields(p, &key->vlans[level],
                                       &mask->vlans[level]));
        } else if (!strcmp(name, "encap")) {
            ok = (level < FLOW_MAX_VLAN_HEADERS
                  && flow_vlan_present(&key->vlans[level]));
            if (ok) {
                size_t inner = 0;
                char *error = parse_keys(p, key, mask, level + 1, ')',
                                         &inner);
                if (error && p->error != E2BIG) {
                    return error;
                }
                free(error);
                payload = inner;
                ok = !error;
            }
        } else if (!strcmp(name, "ipv4")) {
            ok = parse_fields(p, ipv4_fields, ARRAY_SIZE(ipv4_fields), key,
                              mask, NULL);
        } else if (!strcmp(name, "ipv6")) {
            ok = parse_fields(p, ipv6_fields, ARRAY_SIZE(ipv6_fields), key,
                              mask, NULL);
        } else if (!strcmp(name, "arp")) {
            ok = parse_fields(p, arp_fields, ARRAY_SIZE(arp_fields), key,
                              mask, NULL);
        } else if (!strcmp(name, "tcp") || !strcmp(name, "udp")
                   || !strcmp(name, "sctp")) {
            ok = parse_fields(p, ports_fields, ARRAY_SIZE(ports_fields), key,
                              mask, NULL);
        } else if (!strcmp(name, "icmp") || !strcmp(name, "icmpv6")) {
            ok = parse_fields(p, icmp_fields, ARRAY_SIZE(icmp_fields), key,
                              mask, NULL);
        } else if (!strcmp(name, "nd")) {
            ok = parse_fields(p, nd_fields, ARRAY_SIZE(nd_fields), key,
                              mask, NULL);
        } else if (!strcmp(name, "mpls")) {
            int n = parse_mpls_lses(p, key->mpls_lse, mask->mpls_lse);
            ok = n > 0;
            payload = n * sizeof(ovs_be32);
        } else if (!strcmp(name, "packet_type")) {
            ok = parse_packet_type_arg(p, &key->packet_type,
                                       &mask->packet_type);
        } else if (!strcmp(name, "ct_state")) {
            ok = parse_flags(p, ct_state_names, UINT32_MAX, &key->ct_state,
                             &mask->ct_state);
        } else if (!strcmp(name, "ct_zone")) {
            ok = parse_ct_zone_arg(p, &key->ct_zone, &mask->ct_zone);
        } else if (!strcmp(name, "ct_mark")) {
            ok = parse_u32_arg(p, &key->ct_mark, &mask->ct_mark);
        } else if (!strcmp(name, "ct_label")) {
            ok = parse_ct_label_arg(p, key->ct_label, mask->ct_label);
        } else if (!strcmp(name, "ct_tuple4") || !strcmp(name, "ct_tuple6")) {
            ok = parse_fields(p, (name[8] == '4' ? ct_tuple4_fields
                                  : ct_tuple6_fields),
                              ARRAY_SIZE(ct_tuple4_fields), key, mask, NULL);
        } else if (!strcmp(name, "tcp_flags")) {
            uint32_t v, m;
            ok = parse_flags(p, tcp_flag_names, TCP_FLAGS_MASK, &v, &m);
            key->tcp_flags = htons(v);
            mask->tcp_flags = htons(m == TCP_FLAGS_MASK ? 0xffff : m);
        } else {
            ok = false;
        }
        *bytes += attr_size(payload);
        if (ok && *bytes > (close ? NESTED_MAX : FLOW_MAX)) {
            p->error = E2BIG;
            ok = false;
        }
        if (!ok) {
            p->s = start;
            goto error;
        }
        skip_spaces(p);
        if (close ? match_char(p, close) : !*p->s) {
            return NULL;
        }
        if (!match_char(p, ',')) {
            goto error;
        }
        skip_spaces(p);
        continue;

    error:
        return xasprintf("syntax error at %s", p->s);
    }
    if (close) {
        return xasprintf("syntax error at %s (missing `%c')", p->s, close);
    }
    return NULL;
}

char *
odp_flow_from_string_errno(const char *s, const struct odp_port_names *names,
                           struct flow *key, struct flow_wildcards *wc,
                           int *errnop)
{
    struct parser p = { .s = s, .names = names };
    memset(key, 0, sizeof *key);
    flow_wildcards_init_catchall(wc);
    /* The key keeps the bits the text gave even where the mask is zero:
     * 3.1 prints them back that way (src=00:01:02:03:04:05/ff:ff:ff:00:00:00),
     * and whoever matches on the flow masks it anyway. */
    size_t bytes = 0;
    char *error = parse_keys(&p, key, &wc->masks, 0, '\0', &bytes);
    if (errnop) {
        *errnop = !error ? 0 : p.error ? p.error : EINVAL;
    }
    return error;
}

char *
odp_flow_from_string(const char *s, const struct odp_port_names *names,
                     struct flow *key, struct flow_wildcards *wc)
{
    return odp_flow_from_string_errno(s, names, key, wc, NULL);
}

/* Set actions: OVS_KEY_ATTR_* structs <-> flow fields
 * ==================================================== */

uint8_t
odp_frag_type_from_nw_frag(uint8_t nw_frag)
{
    return (!(nw_frag & FLOW_NW_FRAG_ANY) ? OVS_FRAG_TYPE_NONE
            : nw_frag & FLOW_NW_FRAG_LATER ? OVS_FRAG_TYPE_LATER
            : OVS_FRAG_TYPE_FIRST);
}

uint8_t
odp_nw_frag_from_frag_type(uint8_t frag_type)
{
    return (frag_type == OVS_FRAG_TYPE_NONE ? 0
            : frag_type == OVS_FRAG_TYPE_FIRST ? FLOW_NW_FRAG_ANY
            : FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER);
}

/* A settable key: its text name, OVS_KEY_ATTR type, struct size, the
 * fields as the text shows them, and the conversions. */
struct set_key {
    const char *name;
    uint16_t type;
    size_t size;
    const struct field *fields;
    size_t n_fields;
    void (*to_flow)(const void *attr, struct flow *, bool is_mask);
    void (*from_flow)(const struct flow *, void *attr, bool is_mask);
};

static void
eth_to_flow(const void *a, struct flow *f, bool is_mask)
{
    const struct ovs_key_ethernet *k = a;
    memcpy(&f->dl_src, k->eth_src, 6);
    memcpy(&f->dl_dst, k->eth_dst, 6);
    (void) is_mask;
}

static void
eth_from_flow(const struct flow *f, void *a, bool is_mask)
{
    struct ovs_key_ethernet *k = a;
    memcpy(k->eth_src, &f->dl_src, 6);
    memcpy(k->eth_dst, &f->dl_dst, 6);
    (void) is_mask;
}

static void
ipv4_to_flow(const void *a, struct flow *f, bool is_mask)
{
    const struct ovs_key_ipv4 *k = a;
    f->nw_src = k->ipv4_src;
    f->nw_dst = k->ipv4_dst;
    f->nw_proto = k->ipv4_proto;
    f->nw_tos = k->ipv4_tos;
    f->nw_ttl = k->ipv4_ttl;
    f->nw_frag = (is_mask ? (k->ipv4_frag ? FLOW_NW_FRAG_MASK : 0)
                  : odp_nw_frag_from_frag_type(k->ipv4_frag));
}

static void
ipv4_from_flow(const struct flow *f, void *a, bool is_mask)
{
    struct ovs_key_ipv4 *k = a;
    k->ipv4_src = f->nw_src;
    k->ipv4_dst = f->nw_dst;
    k->ipv4_proto = f->nw_proto;
    k->ipv4_tos = f->nw_tos;
    k->ipv4_ttl = f->nw_ttl;
    k->ipv4_frag = (is_mask ? (f->nw_frag ? 0xff : 0)
                    : odp_frag_type_from_nw_frag(f->nw_frag));
}

static void
ipv6_to_flow(const void *a, struct flow *f, bool is_mask)
{
    const struct ovs_key_ipv6 *k = a;
    memcpy(&f->ipv6_src, k->ipv6_src, 16);
    memcpy(&f->ipv6_dst, k->ipv6_dst, 16);
    f->ipv6_label = k->ipv6_label;
    f->nw_proto = k->ipv6_proto;
    f->nw_tos = k->ipv6_tclass;
    f->nw_ttl = k->ipv6_hlimit;
    f->nw_frag = (is_mask ? (k->ipv6_frag ? FLOW_NW_FRAG_MASK : 0)
                  : odp_nw_frag_from_frag_type(k->ipv6_frag));
}

static void
ipv6_from_flow(const struct flow *f, void *a, bool is_mask)
{
    struct ovs_key_ipv6 *k = a;
    memcpy(k->ipv6_src, &f->ipv6_src, 16);
    memcpy(k->ipv6_dst, &f->ipv6_dst, 16);
    k->ipv6_label = f->ipv6_label;
    k->ipv6_proto = f->nw_proto;
    k->ipv6_tclass = f->nw_tos;
    k->ipv6_hlimit = f->nw_ttl;
    k->ipv6_frag = (is_mask ? (f->nw_frag ? 0xff : 0)
                    : odp_frag_type_from_nw_frag(f->nw_frag));
}

static void
ports_to_flow(const void *a, struct flow *f, bool is_mask)
{
    const ovs_be16 *k = a;      /* ovs_key_tcp/udp/sctp: src, dst. */
    f->tp_src = k[0];
    f->tp_dst = k[1];
    (void) is_mask;
}

static void
ports_from_flow(const struct flow *f, void *a, bool is_mask)
{
    ovs_be16 *k = a;
    k[0] = f->tp_src;
    k[1] = f->tp_dst;
    (void) is_mask;
}

static void
arp_to_flow(const void *a, struct flow *f, bool is_mask)
{
    const struct ovs_key_arp *k = a;
    f->nw_src = k->arp_sip;
    f->nw_dst = k->arp_tip;
    /* The flow keeps the low 8 bits of the opcode. */
    f->nw_proto = ntohs(k->arp_op) & 0xff;
    memcpy(&f->arp_sha, k->arp_sha, 6);
    memcpy(&f->arp_tha, k->arp_tha, 6);
    (void) is_mask;
}

static void
arp_from_flow(const struct flow *f, void *a, bool is_mask)
{
    struct ovs_key_arp *k = a;
    k->arp_sip = f->nw_src;
    k->arp_tip = f->nw_dst;
    k->arp_op = htons(is_mask && f->nw_proto == 0xff ? 0xffff : f->nw_proto);
    memcpy(k->arp_sha, &f->arp_sha, 6);
    memcpy(k->arp_tha, &f->arp_tha, 6);
}

static void
nd_to_flow(const void *a, struct flow *f, bool is_mask)
{
    const struct ovs_key_nd *k = a;
    memcpy(&f->nd_target, k->nd_target, 16);
    memcpy(&f->arp_sha, k->nd_sll, 6);
    memcpy(&f->arp_tha, k->nd_tll, 6);
    (void) is_mask;
}

static void
nd_from_flow(const struct flow *f, void *a, bool is_mask)
{
    struct ovs_key_nd *k = a;
    memcpy(k->nd_target, &f->nd_target, 16);
    memcpy(k->nd_sll, &f->arp_sha, 6);
    memcpy(k->nd_tll, &f->arp_tha, 6);
    (void) is_mask;
}

static void
icmp_to_flow(const void *a, struct flow *f, bool is_mask)
{
    const uint8_t *k = a;       /* ovs_key_icmp/icmpv6: type, code. */
    f->tp_src = htons(k[0]);
    f->tp_dst = htons(k[1]);
    (void) is_mask;
}

static void
icmp_from_flow(const struct flow *f, void *a, bool is_mask)
{
    uint8_t *k = a;
    k[0] = ntohs(f->tp_src);
    k[1] = ntohs(f->tp_dst);
    (void) is_mask;
}

static const struct set_key set_keys[] = {
    { "eth", OVS_KEY_ATTR_ETHERNET, sizeof(struct ovs_key_ethernet),
      eth_fields, ARRAY_SIZE(eth_fields), eth_to_flow, eth_from_flow },
    { "ipv4", OVS_KEY_ATTR_IPV4, sizeof(struct ovs_key_ipv4),
      ipv4_fields, ARRAY_SIZE(ipv4_fields), ipv4_to_flow, ipv4_from_flow },
    { "ipv6", OVS_KEY_ATTR_IPV6, sizeof(struct ovs_key_ipv6),
      ipv6_fields, ARRAY_SIZE(ipv6_fields), ipv6_to_flow, ipv6_from_flow },
    { "tcp", OVS_KEY_ATTR_TCP, sizeof(struct ovs_key_tcp),
      ports_fields, 2, ports_to_flow, ports_from_flow },
    { "udp", OVS_KEY_ATTR_UDP, sizeof(struct ovs_key_udp),
      ports_fields, 2, ports_to_flow, ports_from_flow },
    { "sctp", OVS_KEY_ATTR_SCTP, sizeof(struct ovs_key_sctp),
      ports_fields, 2, ports_to_flow, ports_from_flow },
    { "icmp", OVS_KEY_ATTR_ICMP, sizeof(struct ovs_key_icmp),
      icmp_fields, 2, icmp_to_flow, icmp_from_flow },
    { "icmpv6", OVS_KEY_ATTR_ICMPV6, sizeof(struct ovs_key_icmpv6),
      icmp_fields, 2, icmp_to_flow, icmp_from_flow },
    { "arp", OVS_KEY_ATTR_ARP, sizeof(struct ovs_key_arp),
      arp_fields, ARRAY_SIZE(arp_fields), arp_to_flow, arp_from_flow },
    { "nd", OVS_KEY_ATTR_ND, sizeof(struct ovs_key_nd),
      nd_fields, ARRAY_SIZE(nd_fields), nd_to_flow, nd_from_flow },
};

static const struct set_key *
set_key_by_type(uint16_t type)
{
    for (size_t i = 0; i < ARRAY_SIZE(set_keys); i++) {
        if (set_keys[i].type == type) {
            return &set_keys[i];
        }
    }
    return NULL;
}

/* Tunnel metadata as an action argument
 * =====================================
 *
 * set(tunnel(...)) carries OVS_KEY_ATTR_TUNNEL: nested
 * OVS_TUNNEL_KEY_ATTR_* attributes as <linux/openvswitch.h> lays them out
 * (the key only with the "key" flag, addresses and ports only when set).
 * ERSPAN options are OVS_TUNNEL_KEY_ATTR_ERSPAN_OPTS: version (u8), then
 * the v1 index (be32) or the v2 direction and hardware id (u8 each).
 * GTP-U's flags and message type are ODP_TUNNEL_KEY_ATTR_GTPU_OPTS (u8
 * each), only when both are nonzero, as 3.1 sends them. */

void
odp_put_tunnel_action(const struct flow_tnl *t, const uint8_t *geneve,
                      size_t geneve_len, struct ofpbuf *actions)
{
    static const struct in6_addr any = IN6ADDR_ANY_INIT;
    size_t set = nl_msg_start_nested(actions, OVS_ACTION_ATTR_SET);
    size_t tun = nl_msg_start_nested(actions, OVS_KEY_ATTR_TUNNEL);
    if (t->flags & FLOW_TNL_F_KEY) {
        nl_msg_put_unspec(actions, OVS_TUNNEL_KEY_ATTR_ID, &t->tun_id, 8);
    }
    if (t->ip_src) {
        nl_msg_put_unspec(actions, OVS_TUNNEL_KEY_ATTR_IPV4_SRC, &t->ip_src, 4);
    }
    if (t->ip_dst) {
        nl_msg_put_unspec(actions, OVS_TUNNEL_KEY_ATTR_IPV4_DST, &t->ip_dst, 4);
    }
    if (memcmp(&t->ipv6_src, &any, sizeof any)) {
        nl_msg_put_unspec(actions, OVS_TUNNEL_KEY_ATTR_IPV6_SRC,
                          &t->ipv6_src, sizeof t->ipv6_src);
    }
    if (memcmp(&t->ipv6_dst, &any, sizeof any)) {
        nl_msg_put_unspec(actions, OVS_TUNNEL_KEY_ATTR_IPV6_DST,
                          &t->ipv6_dst, sizeof t->ipv6_dst);
    }
    if (t->ip_tos) {
        nl_msg_put_u8(actions, OVS_TUNNEL_KEY_ATTR_TOS, t->ip_tos);
    }
    nl_msg_put_u8(actions, OVS_TUNNEL_KEY_ATTR_TTL, t->ip_ttl);
    if (t->flags & FLOW_TNL_F_DONT_FRAGMENT) {
        nl_msg_put_flag(actions, OVS_TUNNEL_KEY_ATTR_DONT_FRAGMENT);
    }
    if (t->flags & FLOW_TNL_F_CSUM) {
        nl_msg_put_flag(actions, OVS_TUNNEL_KEY_ATTR_CSUM);
    }
    if (t->flags & FLOW_TNL_F_OAM) {
        nl_msg_put_flag(actions, OVS_TUNNEL_KEY_ATTR_OAM);
    }
    if (t->tp_src) {
        nl_msg_put_be16(actions, OVS_TUNNEL_KEY_ATTR_TP_SRC, t->tp_src);
    }
    if (t->tp_dst) {
        nl_msg_put_be16(actions, OVS_TUNNEL_KEY_ATTR_TP_DST, t->tp_dst);
    }
    if (geneve_len) {
        nl_msg_put_unspec(actions, OVS_TUNNEL_KEY_ATTR_GENEVE_OPTS, geneve,
                          geneve_len);
    }
    if (t->erspan_ver == 1 || t->erspan_ver == 2) {
        uint8_t opts[8] = { t->erspan_ver };
        if (t->erspan_ver == 1) {
            ovs_be32 idx = htonl(t->erspan_idx);
            memcpy(&opts[4], &idx, 4);
        } else {
            opts[4] = t->erspan_dir;
            opts[5] = t->erspan_hwid;
        }
        nl_msg_put_unspec(actions, OVS_TUNNEL_KEY_ATTR_ERSPAN_OPTS, opts,
                          sizeof opts);
    }
    if (t->gtpu_flags && t->gtpu_msgtype) {
        uint8_t opts[2] = { t->gtpu_flags, t->gtpu_msgtype };
        nl_msg_put_unspec(actions, ODP_TUNNEL_KEY_ATTR_GTPU_OPTS, opts,
                          sizeof opts);
    }
    nl_msg_end_nested(actions, tun);
    nl_msg_end_nested(actions, set);
}

bool
odp_tunnel_from_attr(const struct nlattr *attr, struct flow_tnl *t,
                     uint8_t *geneve, size_t *geneve_len)
{
    const struct nlattr *a;
    size_t left;

    memset(t, 0, sizeof *t);
    if (geneve_len) {
        *geneve_len = 0;
    }
    if (!nl_attr_is_whole(nl_attr_get(attr), nl_attr_get_size(attr))) {
        return false;
    }
    NL_NESTED_FOR_EACH (a, left, attr) {
        size_t len = nl_attr_get_size(a);
        const void *p = nl_attr_get(a);
        switch (nl_attr_type(a)) {
        case OVS_TUNNEL_KEY_ATTR_ID:
            if (len != 8) return false;
            memcpy(&t->tun_id, p, 8);
            t->flags |= FLOW_TNL_F_KEY;
            break;
        case OVS_TUNNEL_KEY_ATTR_IPV4_SRC:
            if (len != 4) return false;
            memcpy(&t->ip_src, p, 4);
            break;
        case OVS_TUNNEL_KEY_ATTR_IPV4_DST:
            if (len != 4) return false;
            memcpy(&t->ip_dst, p, 4);
            break;
        case OVS_TUNNEL_KEY_ATTR_IPV6_SRC:
            if (len != 16) return false;
            memcpy(&t->ipv6_src, p, 16);
            break;
        case OVS_TUNNEL_KEY_ATTR_IPV6_DST:
            if (len != 16) return false;
            memcpy(&t->ipv6_dst, p, 16);
            break;
        case OVS_TUNNEL_KEY_ATTR_TOS:
            if (len != 1) return false;
            t->ip_tos = *(const uint8_t *) p;
            break;
        case OVS_TUNNEL_KEY_ATTR_TTL:
            if (len != 1) return false;
            t->ip_ttl = *(const uint8_t *) p;
            break;
        case OVS_TUNNEL_KEY_ATTR_DONT_FRAGMENT:
            t->flags |= FLOW_TNL_F_DONT_FRAGMENT;
            break;
        case OVS_TUNNEL_KEY_ATTR_CSUM:
            t->flags |= FLOW_TNL_F_CSUM;
            break;
        case OVS_TUNNEL_KEY_ATTR_OAM:
            t->flags |= FLOW_TNL_F_OAM;
            break;
        case OVS_TUNNEL_KEY_ATTR_TP_SRC:
            if (len != 2) return false;
            memcpy(&t->tp_src, p, 2);
            break;
        case OVS_TUNNEL_KEY_ATTR_TP_DST:
            if (len != 2) return false;
            memcpy(&t->tp_dst, p, 2);
            break;
        case OVS_TUNNEL_KEY_ATTR_GENEVE_OPTS:
            /* Whole options, each a 4-byte header and its data. */
            if (len % 4 || len > ODP_GENEVE_OPTS_MAX) {
                return false;
            }
            if (geneve) {
                memcpy(geneve, p, len);
                *geneve_len = len;
            }
            break;
        case OVS_TUNNEL_KEY_ATTR_ERSPAN_OPTS: {
            const uint8_t *o = p;
            if (len != 8) return false;
            t->erspan_ver = o[0];
            /* Only what an ERSPAN header can carry (and the text can
             * say): version 1 with a 20-bit index, or version 2 with a
             * 1-bit direction and a 6-bit hardware id. */
            if (o[0] == 1) {
                ovs_be32 idx;
                memcpy(&idx, &o[4], 4);
                t->erspan_idx = ntohl(idx);
                if (t->erspan_idx > 0xfffff) return false;
            } else if (o[0] == 2) {
                t->erspan_dir = o[4];
                t->erspan_hwid = o[5];
                if (t->erspan_dir > 1 || t->erspan_hwid > 0x3f) return false;
            } else {
                return false;
            }
            break;
        }
        case ODP_TUNNEL_KEY_ATTR_GTPU_OPTS: {
            const uint8_t *o = p;
            if (len != 2) return false;
            t->gtpu_flags = o[0];
            t->gtpu_msgtype = o[1];
            break;
        }
        default:
            return false;
        }
    }
    return true;
}

/* "tunnel(tun_id=0x5,src=2.2.2.2,dst=1.1.1.1,ttl=64,flags(df|key))", in
 * 3.1's order. */
static void
format_tunnel_action(struct ds *ds, const struct flow_tnl *t,
                     const uint8_t *geneve, size_t geneve_len)
{
    static const struct in6_addr any = IN6ADDR_ANY_INIT;
    struct flow key, mask;
    memset(&key, 0, sizeof key);
    memset(&mask, 0, sizeof mask);
    key.tunnel = *t;
    if (t->flags & FLOW_TNL_F_KEY) {
        mask.tunnel.tun_id = htonll(UINT64_MAX);
    }
    mask.tunnel.ip_src = t->ip_src ? htonl(UINT32_MAX) : 0;
    mask.tunnel.ip_dst = t->ip_dst ? htonl(UINT32_MAX) : 0;
    if (memcmp(&t->ipv6_src, &any, sizeof any)) {
        memset(&mask.tunnel.ipv6_src, 0xff, sizeof mask.tunnel.ipv6_src);
    }
    if (memcmp(&t->ipv6_dst, &any, sizeof any)) {
        memset(&mask.tunnel.ipv6_dst, 0xff, sizeof mask.tunnel.ipv6_dst);
    }
    mask.tunnel.ip_tos = t->ip_tos ? UINT8_MAX : 0;
    mask.tunnel.ip_ttl = UINT8_MAX;
    mask.tunnel.tp_src = t->tp_src ? htons(UINT16_MAX) : 0;
    mask.tunnel.tp_dst = t->tp_dst ? htons(UINT16_MAX) : 0;

    ds_put_cstr(ds, "tunnel(");
    bool first = true;
    for (size_t i = 0; i < ARRAY_SIZE(tunnel_fields); i++) {
        format_field(ds, &tunnel_fields[i], &key, &mask, false, &first);
    }
    if (geneve_len) {
        ds_put_cstr(ds, ",geneve(");
        format_geneve_opts(ds, geneve, NULL, geneve_len);
        ds_put_char(ds, ')');
    }
    if (t->erspan_ver == 1) {
        ds_put_format(ds, ",erspan(ver=1,idx=%#"PRIx32")", t->erspan_idx);
    } else if (t->erspan_ver == 2) {
        ds_put_format(ds, ",erspan(ver=2,dir=%"PRIu8",hwid=%#"PRIx8")",
                      t->erspan_dir, t->erspan_hwid);
    }
    if (t->gtpu_flags && t->gtpu_msgtype) {
        ds_put_format(ds, ",gtpu(flags=%#"PRIx8",msgtype=%"PRIu8")",
                      t->gtpu_flags, t->gtpu_msgtype);
    }
    ds_put_cstr(ds, ",flags(");
    format_flags(ds, tnl_flag_names, t->flags, UINT32_MAX, 0xf);
    ds_put_cstr(ds, "))");
}

/* Action formatting
 * ================= */

static void format_action_list(const struct nlattr *, size_t,
                               const struct odp_port_names *, struct ds *);

static void
format_hex_bytes(struct ds *ds, const void *data_, size_t n)
{
    const uint8_t *data = data_;
    for (size_t i = 0; i < n; i++) {
        ds_put_format(ds, "%02x", data[i]);
    }
}

static void
format_set(struct ds *ds, const struct nlattr *a, bool masked)
{
    const struct nlattr *k = nl_attr_get(a);
    size_t len = nl_attr_get_size(a);
    if (!nl_attr_is_whole(k, len)) {
        ds_put_cstr(ds, "set(<malformed>)");
        return;
    }
    uint16_t type = nl_attr_type(k);
    size_t size = nl_attr_get_size(k);
    const uint8_t *value = nl_attr_get(k);
    const uint8_t *mask = masked ? value + size / 2 : NULL;
    size_t vsize = masked ? size / 2 : size;

    ds_put_cstr(ds, "set(");
    if (type == OVS_KEY_ATTR_TUNNEL && !masked) {
        struct flow_tnl t;
        uint8_t geneve[ODP_GENEVE_OPTS_MAX];
        size_t geneve_len;
        if (odp_tunnel_from_attr(k, &t, geneve, &geneve_len)) {
            format_tunnel_action(ds, &t, geneve, geneve_len);
            ds_put_char(ds, ')');
            return;
        }
    }
    const struct set_key *sk = set_key_by_type(type);
    if (sk && vsize == sk->size && (!masked || size == 2 * sk->size)) {
        struct flow fk, fm;
        memset(&fk, 0, sizeof fk);
        memset(&fm, 0, sizeof fm);
        sk->to_flow(value, &fk, false);
        if (masked) {
            sk->to_flow(mask, &fm, true);
        } else {
            for (size_t i = 0; i < sk->n_fields; i++) {
                field_exact_mask(sk->fields[i].kind,
                                 (uint8_t *) &fm + sk->fields[i].ofs);
            }
        }
        ds_put_format(ds, "%s(", sk->name);
        format_fields(ds, sk->fields, sk->n_fields, &fk, &fm, false);
        ds_put_cstr(ds, "))");
        return;
    }
    if ((type == OVS_KEY_ATTR_PRIORITY || type == OVS_KEY_ATTR_SKB_MARK)
        && vsize == 4 && (!masked || size == 8)) {
        uint32_t v, m = UINT32_MAX;
        memcpy(&v, value, 4);
        if (masked) {
            memcpy(&m, mask, 4);
        }
        bool first = true;
        format_u32_key(ds, &first, type == OVS_KEY_ATTR_PRIORITY
                       ? "skb_priority" : "skb_mark", v, m, true);
        ds_put_char(ds, ')');
        return;
    }
    if (type == OVS_KEY_ATTR_MPLS && vsize == 4 && (!masked || size == 8)) {
        ovs_be32 lse, lse_mask = htonl(UINT32_MAX);
        memcpy(&lse, value, 4);
        if (masked) {
            memcpy(&lse_mask, mask, 4);
        }
        ds_put_cstr(ds, "mpls(");
        bool exact = lse_mask == htonl(UINT32_MAX);
        format_mpls_lses(ds, &lse, exact ? NULL : &lse_mask, 1);
        ds_put_cstr(ds, "))");
        return;
    }
    if (type == OVS_KEY_ATTR_VLAN && vsize == 2 && (!masked || size == 4)) {
        ovs_be16 tci, tci_mask = htons(0xffff);
        memcpy(&tci, value, 2);
        if (masked) {
            memcpy(&tci_mask, mask, 2);
        }
        ds_put_cstr(ds, "vlan(");
        format_vlan_tci(ds, ntohs(tci), ntohs(tci_mask), false, false);
        ds_put_cstr(ds, "))");
        return;
    }
    ds_put_format(ds, "key%"PRIu16"(", type);
    format_hex_bytes(ds, value, size);
    ds_put_cstr(ds, "))");
}

/* Userspace cookies. */

static const struct {
    const char *name, *explanation;
} slow_path_reasons[] = {
#define SPR(ENUM, BIT, NAME, EXPLANATION) [BIT] = { NAME, EXPLANATION },
    SLOW_PATH_REASONS
#undef SPR
};

static int
slow_path_reason_bit(enum slow_path_reason reason)
{
    for (size_t i = 0; i < ARRAY_SIZE(slow_path_reasons); i++) {
        if (reason == 1u << i) {
            return i;
        }
    }
    return -1;
}

const char *
slow_path_reason_name(enum slow_path_reason reason)
{
    int bit = slow_path_reason_bit(reason);
    return bit < 0 ? NULL : slow_path_reasons[bit].name;
}

const char *
slow_path_reason_explain(enum slow_path_reason reason)
{
    int bit = slow_path_reason_bit(reason);
    return bit < 0 ? NULL : slow_path_reasons[bit].explanation;
}

void
odp_put_userspace_cookie(struct ofpbuf *actions,
                         const struct odp_cookie *cookie)
{
    size_t ofs = nl_msg_start_nested(actions, OVS_ACTION_ATTR_USERSPACE);
    nl_msg_put_u32(actions, OVS_USERSPACE_ATTR_PID, 0);
    nl_msg_put_unspec(actions, OVS_USERSPACE_ATTR_USERDATA, cookie,
                      sizeof *cookie);
    nl_msg_end_nested(actions, ofs);
}

bool
odp_cookie_from_userdata(const void *userdata, size_t len,
                         struct odp_cookie *cookie)
{
    if (len != sizeof *cookie) {
        return false;
    }
    memcpy(cookie, userdata, sizeof *cookie);
    return (cookie->type == ODP_COOKIE_SLOW_PATH
            || cookie->type == ODP_COOKIE_CONTROLLER);
}

static ovs_be64
cookie_rule_cookie(const struct odp_cookie *c)
{
    ovs_be64 x;
    memcpy(&x, c->controller.rule_cookie, sizeof x);
    return x;
}

static void
format_userdata(struct ds *ds, const void *data, size_t len)
{
    struct odp_cookie c;
    if (!odp_cookie_from_userdata(data, len, &c)) {
        ds_put_cstr(ds, "userdata(");
        format_hex_bytes(ds, data, len);
        ds_put_char(ds, ')');
    } else if (c.type == ODP_COOKIE_SLOW_PATH) {
        ds_put_cstr(ds, "slow_path(");
        if (!c.slow_path.reason) {
            ds_put_char(ds, '0');
        }
        for (uint32_t bits = c.slow_path.reason; bits; bits &= bits - 1) {
            uint32_t bit = bits & -bits;
            const char *name = slow_path_reason_name(bit);
            if (name) {
                ds_put_cstr(ds, name);
            } else {
                ds_put_format(ds, "0x%"PRIx32, bit);
            }
            if (bits & (bits - 1)) {
                ds_put_char(ds, ',');
            }
        }
        ds_put_char(ds, ')');
    } else {
        ds_put_format(ds, "controller(reason=%"PRIu16",dont_send=%d,"
                      "continuation=%d,recirc_id=%"PRIu32",rule_cookie=%#"
                      PRIx64",controller_id=%"PRIu16",max_len=%"PRIu16")",
                      c.controller.reason, c.controller.dont_send != 0,
                      c.controller.continuation != 0, c.controller.recirc_id,
                      ntohll(cookie_rule_cookie(&c)),
                      c.controller.controller_id, c.controller.max_len);
    }
}

static void
format_userspace(struct ds *ds, const struct nlattr *a)
{
    const struct nlattr *u;
    size_t left;
    ds_put_cstr(ds, "userspace(");
    bool first = true;
    NL_NESTED_FOR_EACH (u, left, a) {
        uint16_t type = nl_attr_type(u);
        if (!first) {
            ds_put_char(ds, ',');
        }
        first = false;
        if (type == OVS_USERSPACE_ATTR_PID && nl_attr_get_size(u) == 4) {
            ds_put_format(ds, "pid=%"PRIu32, nl_attr_get_u32(u));
        } else if (type == OVS_USERSPACE_ATTR_USERDATA) {
            format_userdata(ds, nl_attr_get(u), nl_attr_get_size(u));
        } else if (type == OVS_USERSPACE_ATTR_ACTIONS) {
            ds_put_cstr(ds, "actions");
        } else if (type == OVS_USERSPACE_ATTR_EGRESS_TUN_PORT
                   && nl_attr_get_size(u) == 4) {
            ds_put_format(ds, "tunnel_out_port=%"PRIu32, nl_attr_get_u32(u));
        } else {
            ds_put_format(ds, "attr%"PRIu16, type);
        }
    }
    ds_put_char(ds, ')');
}

static void
format_sample(struct ds *ds, const struct nlattr *a,
              const struct odp_port_names *names)
{
    const struct nlattr *s;
    size_t left;
    double pct = 0;
    ds_put_cstr(ds, "sample(");
    NL_NESTED_FOR_EACH (s, left, a) {
        if (nl_attr_type(s) == OVS_SAMPLE_ATTR_PROBABILITY
            && nl_attr_get_size(s) == 4) {
            pct = nl_attr_get_u32(s) * 100.0 / UINT32_MAX;
        }
    }
    ds_put_format(ds, "sample=%.1f%%,actions(", pct);
    NL_NESTED_FOR_EACH (s, left, a) {
        if (nl_attr_type(s) == OVS_SAMPLE_ATTR_ACTIONS) {
            format_action_list(nl_attr_get(s), nl_attr_get_size(s), names,
                               ds);
        }
    }
    ds_put_cstr(ds, "))");
}

/* Conntrack actions
 * ================= */

void
odp_put_ct_action(struct ofpbuf *actions, const struct odp_ct_action *ct)
{
    size_t ofs = nl_msg_start_nested(actions, OVS_ACTION_ATTR_CT);
    if (ct->commit) {
        nl_msg_put_flag(actions, OVS_CT_ATTR_COMMIT);
    } else if (ct->force_commit) {
        nl_msg_put_flag(actions, OVS_CT_ATTR_FORCE_COMMIT);
    }
    if (ct->zone) {
        nl_msg_put_u16(actions, OVS_CT_ATTR_ZONE, ct->zone);
    }
    if (ct->has_mark) {
        uint32_t vm[2] = { ct->mark_value, ct->mark_mask };
        nl_msg_put_unspec(actions, OVS_CT_ATTR_MARK, vm, sizeof vm);
    }
    if (ct->has_label) {
        uint8_t vm[32];
        memcpy(vm, ct->label_value, 16);
        memcpy(vm + 16, ct->label_mask, 16);
        nl_msg_put_unspec(actions, OVS_CT_ATTR_LABELS, vm, sizeof vm);
    }
    if (ct->helper[0]) {
        nl_msg_put_unspec(actions, OVS_CT_ATTR_HELPER, ct->helper,
                          strnlen(ct->helper, sizeof ct->helper - 1) + 1);
    }
    if (ct->timeout[0]) {
        nl_msg_put_unspec(actions, OVS_CT_ATTR_TIMEOUT, ct->timeout,
                          strnlen(ct->timeout, sizeof ct->timeout - 1) + 1);
    }
    if (ct->has_nat) {
        size_t nat = nl_msg_start_nested(actions, OVS_CT_ATTR_NAT);
        uint16_t f = ct->nat_flags;
        if (f & (CT_NAT_SRC | CT_NAT_DST)) {
            nl_msg_put_flag(actions, (f & CT_NAT_SRC ? OVS_NAT_ATTR_SRC
                                      : OVS_NAT_ATTR_DST));
            size_t len = ct->nat_addr_len;
            if (len) {
                nl_msg_put_unspec(actions, OVS_NAT_ATTR_IP_MIN,
                                  ct->nat_min_addr, len);
                /* As 3.1: the maximum only when it is above the
                 * minimum. */
                if (memcmp(ct->nat_max_addr, ct->nat_min_addr, len) > 0) {
                    nl_msg_put_unspec(actions, OVS_NAT_ATTR_IP_MAX,
                                      ct->nat_max_addr, len);
                }
                if (ct->nat_min_port) {
                    nl_msg_put_u16(actions, OVS_NAT_ATTR_PROTO_MIN,
                                   ct->nat_min_port);
                    if (ct->nat_max_port > ct->nat_min_port) {
                        nl_msg_put_u16(actions, OVS_NAT_ATTR_PROTO_MAX,
                                       ct->nat_max_port);
                    }
                }
            }
            if (f & CT_NAT_PERSISTENT) {
                nl_msg_put_flag(actions, OVS_NAT_ATTR_PERSISTENT);
            }
            if (f & CT_NAT_PROTO_HASH) {
                nl_msg_put_flag(actions, OVS_NAT_ATTR_PROTO_HASH);
            }
            if (f & CT_NAT_PROTO_RANDOM) {
                nl_msg_put_flag(actions, OVS_NAT_ATTR_PROTO_RANDOM);
            }
        }
        nl_msg_end_nested(actions, nat);
    }
    nl_msg_end_nested(actions, ofs);
}

bool
odp_ct_helper_is_known(const char *helper)
{
    return !strcmp(helper, "ftp") || !strcmp(helper, "tftp");
}

/* A timeout policy name is a word (letters, digits, '_', '-', '.'), so
 * that it prints inside ct(...) and parses back. */
static bool
ct_timeout_name_is_valid(const char *name)
{
    size_t n = strlen(name);
    return n && strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRST"
                       "UVWXYZ0123456789_-.") == n;
}

/* A NUL-terminated string of 2 to SIZE bytes (with the NUL) into OUT. */
static bool
ct_string_from_attr(const struct nlattr *a, char *out, size_t size)
{
    const char *s = nl_attr_get(a);
    size_t len = nl_attr_get_size(a);
    if (len < 2 || len > size || s[len - 1] || strlen(s) != len - 1) {
        return false;
    }
    memcpy(out, s, len);
    return true;
}

static bool
ct_nat_from_attr(const struct nlattr *nat, struct odp_ct_action *ct,
                 char **error)
{
    const struct nlattr *a;
    size_t left;
    bool have_min = false, have_max = false;
    bool have_pmin = false, have_pmax = false;
    size_t max_len = 0;

    if (!nl_attr_list_is_valid(nl_attr_get(nat), nl_attr_get_size(nat),
                               NULL)) {
        *error = xstrdup("malformed nat arguments");
        return false;
    }
    ct->has_nat = true;
    NL_NESTED_FOR_EACH (a, left, nat) {
        uint16_t type = nl_attr_type(a);
        size_t size = nl_attr_get_size(a);
        uint16_t flag = 0;
        switch (type) {
        case OVS_NAT_ATTR_SRC: flag = CT_NAT_SRC; break;
        case OVS_NAT_ATTR_DST: flag = CT_NAT_DST; break;
        case OVS_NAT_ATTR_PERSISTENT: flag = CT_NAT_PERSISTENT; break;
        case OVS_NAT_ATTR_PROTO_HASH: flag = CT_NAT_PROTO_HASH; break;
        case OVS_NAT_ATTR_PROTO_RANDOM: flag = CT_NAT_PROTO_RANDOM; break;
        case OVS_NAT_ATTR_IP_MIN:
        case OVS_NAT_ATTR_IP_MAX: {
            bool *have = type == OVS_NAT_ATTR_IP_MIN ? &have_min : &have_max;
            if ((size != 4 && size != 16) || *have) {
                *error = xstrdup("nat address must be given once, of 4 or "
                                 "16 bytes");
                return false;
            }
            *have = true;
            memcpy(type == OVS_NAT_ATTR_IP_MIN ? ct->nat_min_addr
                   : ct->nat_max_addr, nl_attr_get(a), size);
            if (type == OVS_NAT_ATTR_IP_MIN) {
                ct->nat_addr_len = size;
            } else {
                max_len = size;
            }
            continue;
        }
        case OVS_NAT_ATTR_PROTO_MIN:
        case OVS_NAT_ATTR_PROTO_MAX: {
            bool *have = (type == OVS_NAT_ATTR_PROTO_MIN ? &have_pmin
                          : &have_pmax);
            if (size != 2 || *have) {
                *error = xstrdup("nat port must be given once, as 2 bytes");
                return false;
            }
            *have = true;
            uint16_t port;
            memcpy(&port, nl_attr_get(a), 2);
            *(type == OVS_NAT_ATTR_PROTO_MIN ? &ct->nat_min_port
              : &ct->nat_max_port) = port;
            continue;
        }
        default:
            *error = xasprintf("unknown nat argument %"PRIu16, type);
            return false;
        }
        if (size || ct->nat_flags & flag) {
            *error = xstrdup("bad nat flag");
            return false;
        }
        ct->nat_flags |= flag;
    }

    /* The rules 3.1 prints "nat(error...)" for. */
    uint16_t f = ct->nat_flags;
    bool has_type = f & (CT_NAT_SRC | CT_NAT_DST);
    if (!has_type && (f || have_min || have_max || have_pmin || have_pmax)) {
        *error = xstrdup("nat options allowed only with \"src\" or \"dst\"");
    } else if ((f & CT_NAT_SRC) && (f & CT_NAT_DST)) {
        *error = xstrdup("nat with both \"src\" and \"dst\"");
    } else if ((f & CT_NAT_PROTO_HASH) && (f & CT_NAT_PROTO_RANDOM)) {
        *error = xstrdup("nat with both \"hash\" and \"random\"");
    } else if (have_pmin && !have_min) {
        *error = xstrdup("nat port range without an address");
    } else if ((have_max && !have_min) || (have_pmax && !have_pmin)) {
        *error = xstrdup("nat range maximum without a minimum");
    } else if (have_max && max_len != ct->nat_addr_len) {
        *error = xstrdup("nat address sizes do not match");
    } else if ((have_max && memcmp(ct->nat_max_addr, ct->nat_min_addr,
                                   ct->nat_addr_len) < 0)
               || (have_pmax && ct->nat_max_port < ct->nat_min_port)) {
        *error = xstrdup("nat range maximum below its minimum");
    } else {
        return true;
    }
    return false;
}

bool
odp_ct_action_from_attr(const struct nlattr *attr, struct odp_ct_action *ct,
                        char **errorp)
{
    char *dummy = NULL;
    char **error = errorp ? errorp : &dummy;
    const struct nlattr *a;
    size_t left;
    uint32_t seen = 0;

    memset(ct, 0, sizeof *ct);
    if (!nl_attr_list_is_valid(nl_attr_get(attr), nl_attr_get_size(attr),
                               NULL)) {
        *error = xstrdup("malformed ct arguments");
        goto error;
    }
    NL_NESTED_FOR_EACH (a, left, attr) {
        uint16_t type = nl_attr_type(a);
        size_t size = nl_attr_get_size(a);
        bool ok;
        if (type < 32 && seen & (1u << type)) {
            *error = xasprintf("ct argument %"PRIu16" given twice", type);
            goto error;
        }
        seen |= type < 32 ? 1u << type : 0;
        switch (type) {
        case OVS_CT_ATTR_COMMIT:
            ok = !size;
            ct->commit = true;
            break;
        case OVS_CT_ATTR_FORCE_COMMIT:
            ok = !size;
            ct->force_commit = true;
            break;
        case OVS_CT_ATTR_ZONE:
            ok = size == 2;
            if (ok) {
                memcpy(&ct->zone, nl_attr_get(a), 2);
            }
            break;
        case OVS_CT_ATTR_MARK:
            ok = size == 8;
            if (ok) {
                uint32_t vm[2];
                memcpy(vm, nl_attr_get(a), sizeof vm);
                ct->has_mark = true;
                ct->mark_value = vm[0];
                ct->mark_mask = vm[1];
            }
            break;
        case OVS_CT_ATTR_LABELS:
            ok = size == 32;
            if (ok) {
                ct->has_label = true;
                memcpy(ct->label_value, nl_attr_get(a), 16);
                memcpy(ct->label_mask, (const uint8_t *) nl_attr_get(a) + 16,
                       16);
            }
            break;
        case OVS_CT_ATTR_HELPER:
            ok = ct_string_from_attr(a, ct->helper, sizeof ct->helper);
            break;
        case OVS_CT_ATTR_TIMEOUT:
            ok = ct_string_from_attr(a, ct->timeout, sizeof ct->timeout);
            if (ok && !ct_timeout_name_is_valid(ct->timeout)) {
                *error = xstrdup("ct timeout policy name is not a word");
                goto error;
            }
            break;
        case OVS_CT_ATTR_NAT:
            if (!ct_nat_from_attr(a, ct, error)) {
                goto error;
            }
            ok = true;
            break;
        default:
            *error = xasprintf("unknown ct argument %"PRIu16, type);
            goto error;
        }
        if (!ok) {
            *error = xasprintf("ct argument %"PRIu16" has a bad length %zu",
                               type, size);
            goto error;
        }
    }
    if (ct->commit && ct->force_commit) {
        *error = xstrdup("ct with both commit and force_commit");
        goto error;
    }
    free(dummy);
    return true;

error:
    free(dummy);
    return false;
}

/* One NAT address of LEN bytes; IPv6 in brackets when BRACKET (a port
 * follows), as 3.1. */
static void
format_nat_addr(struct ds *ds, const uint8_t *addr, size_t len, bool bracket)
{
    char buf[INET6_ADDRSTRLEN];
    inet_ntop(len == 4 ? AF_INET : AF_INET6, addr, buf, sizeof buf);
    ds_put_format(ds, bracket && len == 16 ? "[%s]" : "%s", buf);
}

static void
format_ct_nat(struct ds *ds, const struct odp_ct_action *ct)
{
    uint16_t f = ct->nat_flags;
    ds_put_cstr(ds, "nat");
    if (!(f & (CT_NAT_SRC | CT_NAT_DST))) {
        return;
    }
    ds_put_cstr(ds, f & CT_NAT_SRC ? "(src" : "(dst");
    size_t len = ct->nat_addr_len;
    if (len) {
        static const uint8_t zero[16];
        bool bracket = ct->nat_min_port != 0;
        ds_put_char(ds, '=');
        format_nat_addr(ds, ct->nat_min_addr, len, bracket);
        if (memcmp(ct->nat_max_addr, zero, len)
            && memcmp(ct->nat_max_addr, ct->nat_min_addr, len)) {
            ds_put_char(ds, '-');
            format_nat_addr(ds, ct->nat_max_addr, len, bracket);
        }
        if (ct->nat_min_port) {
            ds_put_format(ds, ":%"PRIu16, ct->nat_min_port);
            if (ct->nat_max_port && ct->nat_max_port != ct->nat_min_port) {
                ds_put_format(ds, "-%"PRIu16, ct->nat_max_port);
            }
        }
    }
    if (f & CT_NAT_PERSISTENT) {
        ds_put_cstr(ds, ",persistent");
    }
    if (f & CT_NAT_PROTO_HASH) {
        ds_put_cstr(ds, ",hash");
    }
    if (f & CT_NAT_PROTO_RANDOM) {
        ds_put_cstr(ds, ",random");
    }
    ds_put_char(ds, ')');
}

static void
format_ct(struct ds *ds, const struct nlattr *a)
{
    struct odp_ct_action ct;
    if (!odp_ct_action_from_attr(a, &ct, NULL)) {
        ds_put_cstr(ds, "ct(error)");   /* As 3.1. */
        return;
    }
    ds_put_cstr(ds, "ct");
    size_t start = ds->length;
    ds_put_char(ds, '(');
    if (ct.commit) {
        ds_put_cstr(ds, "commit,");
    }
    if (ct.force_commit) {
        ds_put_cstr(ds, "force_commit,");
    }
    if (ct.zone) {
        ds_put_format(ds, "zone=%"PRIu16",", ct.zone);
    }
    if (ct.has_mark) {
        ds_put_format(ds, "mark=%#"PRIx32"/%#"PRIx32",", ct.mark_value,
                      ct.mark_mask);
    }
    if (ct.has_label) {
        static const uint8_t ones[16] = {
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        };
        ds_put_cstr(ds, "label=");
        format_u128_hex(ds, ct.label_value);
        if (memcmp(ct.label_mask, ones, 16)) {
            ds_put_char(ds, '/');
            format_u128_hex(ds, ct.label_mask);
        }
        ds_put_char(ds, ',');
    }
    if (ct.helper[0]) {
        ds_put_format(ds, "helper=%s,", ct.helper);
    }
    if (ct.timeout[0]) {
        ds_put_format(ds, "timeout=%s,", ct.timeout);
    }
    if (ct.has_nat) {
        format_ct_nat(ds, &ct);
    }
    ds_chomp(ds, ',');
    if (ds->length == start + 1) {
        ds_truncate(ds, start);         /* Plain "ct". */
    } else {
        ds_put_char(ds, ')');
    }
}

static void
format_action(struct ds *ds, const struct nlattr *a,
              const struct odp_port_names *names)
{
    uint16_t type = nl_attr_type(a);
    size_t size = nl_attr_get_size(a);

    switch (type) {
    case OVS_ACTION_ATTR_OUTPUT:
        if (size == 4) {
            format_port(ds, nl_attr_get_u32(a), names);
            return;
        }
        break;
    case OVS_ACTION_ATTR_USERSPACE:
        format_userspace(ds, a);
        return;
    case OVS_ACTION_ATTR_SET:
    case OVS_ACTION_ATTR_SET_MASKED:
        format_set(ds, a, type == OVS_ACTION_ATTR_SET_MASKED);
        return;
    case OVS_ACTION_ATTR_PUSH_VLAN:
        if (size == sizeof(struct ovs_action_push_vlan)) {
            const struct ovs_action_push_vlan *pv = nl_attr_get(a);
            uint16_t tci = ntohs(pv->vlan_tci);
            ds_put_cstr(ds, "push_vlan(");
            if (pv->vlan_tpid != htons(ETH_TYPE_VLAN_8021Q)) {
                ds_put_format(ds, "tpid=0x%04"PRIx16",",
                              ntohs(pv->vlan_tpid));
            }
            ds_put_format(ds, "vid=%u,pcp=%u", tci & VLAN_VID_MASK,
                          (tci & VLAN_PCP_MASK) >> VLAN_PCP_SHIFT);
            if (!(tci & VLAN_CFI)) {
                ds_put_cstr(ds, ",cfi=0");
            }
            ds_put_char(ds, ')');
            return;
        }
        break;
    case OVS_ACTION_ATTR_POP_VLAN:
        ds_put_cstr(ds, "pop_vlan");
        return;
    case OVS_ACTION_ATTR_CT:
        format_ct(ds, a);
        return;
    case OVS_ACTION_ATTR_CT_CLEAR:
        if (!size) {
            ds_put_cstr(ds, "ct_clear");
            return;
        }
        break;
    case OVS_ACTION_ATTR_POP_ETH:
        ds_put_cstr(ds, "pop_eth");
        return;
    case OVS_ACTION_ATTR_PUSH_ETH:
        if (size == sizeof(struct ovs_action_push_eth)) {
            const struct ovs_action_push_eth *pe = nl_attr_get(a);
            struct eth_addr src, dst;
            memcpy(src.ea, pe->addresses.eth_src, ETH_ADDR_LEN);
            memcpy(dst.ea, pe->addresses.eth_dst, ETH_ADDR_LEN);
            ds_put_format(ds, "push_eth(src="ETH_ADDR_FMT",dst="ETH_ADDR_FMT
                          ")", ETH_ADDR_ARGS(src), ETH_ADDR_ARGS(dst));
            return;
        }
        break;
    case OVS_ACTION_ATTR_PUSH_MPLS:
        if (size == sizeof(struct ovs_action_push_mpls)) {
            const struct ovs_action_push_mpls *pm = nl_attr_get(a);
            ds_put_cstr(ds, "push_mpls(");
            format_mpls_lses(ds, &pm->mpls_lse, NULL, 1);
            ds_put_format(ds, ",eth_type=0x%"PRIx16")",
                          ntohs(pm->mpls_ethertype));
            return;
        }
        break;
    case OVS_ACTION_ATTR_POP_MPLS:
        if (size == sizeof(ovs_be16)) {
            ds_put_format(ds, "pop_mpls(eth_type=0x%"PRIx16")",
                          ntohs(nl_attr_get_be16(a)));
            return;
        }
        break;
    case OVS_ACTION_ATTR_SAMPLE:
        format_sample(ds, a, names);
        return;
    case OVS_ACTION_ATTR_CLONE:
        ds_put_cstr(ds, "clone(");
        format_action_list(nl_attr_get(a), size, names, ds);
        ds_put_char(ds, ')');
        return;
    case OVS_ACTION_ATTR_RECIRC:
        if (size == 4) {
            ds_put_format(ds, "recirc(%#"PRIx32")", nl_attr_get_u32(a));
            return;
        }
        break;
    case ODP_ACTION_ATTR_LB_OUTPUT:
        if (size == 4) {
            ds_put_format(ds, "lb_output(%"PRIu32")", nl_attr_get_u32(a));
            return;
        }
        break;
    case OVS_ACTION_ATTR_HASH:
        if (size == sizeof(struct ovs_action_hash)) {
            const struct ovs_action_hash *h = nl_attr_get(a);
            if (h->hash_alg == OVS_HASH_ALG_L4) {
                ds_put_format(ds, "hash(l4(%"PRIu32"))", h->hash_basis);
            } else if (h->hash_alg == ODP_HASH_ALG_SYM_L4) {
                ds_put_format(ds, "hash(sym_l4(%"PRIu32"))", h->hash_basis);
            } else {
                /* 3.1's words for an algorithm it does not know. */
                ds_put_format(ds, "hash(Unknown hash algorithm(%"PRIu32"))",
                              h->hash_alg);
            }
            return;
        }
        break;
    case OVS_ACTION_ATTR_METER:
        if (size == 4) {
            ds_put_format(ds, "meter(%"PRIu32")", nl_attr_get_u32(a));
            return;
        }
        break;
    case OVS_ACTION_ATTR_TRUNC:
        if (size == sizeof(struct ovs_action_trunc)) {
            const struct ovs_action_trunc *t = nl_attr_get(a);
            ds_put_format(ds, "trunc(%"PRIu32")", t->max_len);
            return;
        }
        break;
    case ODP_ACTION_ATTR_DROP:
        if (size == 4) {
            ds_put_cstr(ds, "drop");    /* As 3.1 prints it, any reason. */
            return;
        }
        break;
    case OVS_ACTION_ATTR_TUNNEL_POP:
        if (size == 4) {
            ds_put_cstr(ds, "tnl_pop(");
            format_port(ds, nl_attr_get_u32(a), names);
            ds_put_char(ds, ')');
            return;
        }
        break;
    case OVS_ACTION_ATTR_TUNNEL_PUSH:
        if (size >= TNL_PUSH_ACTION_FIXED
            && size <= sizeof(struct tnl_push_action)) {
            struct tnl_push_action data;
            memset(&data, 0, sizeof data);
            memcpy(&data, nl_attr_get(a), size);
            data.header_len = MIN(data.header_len,
                                  size - TNL_PUSH_ACTION_FIXED);
            ds_put_cstr(ds, "tnl_push(tnl_port(");
            format_port(ds, data.tnl_port, names);
            ds_put_cstr(ds, "),");
            tnl_header_format(&data, ds);
            ds_put_cstr(ds, ",out_port(");
            format_port(ds, data.out_port, names);
            ds_put_cstr(ds, "))");
            return;
        }
        break;
    default:
        break;
    }
    ds_put_format(ds, "action%"PRIu16"(", type);
    format_hex_bytes(ds, nl_attr_get(a), size);
    ds_put_char(ds, ')');
}

static void
format_action_list(const struct nlattr *actions, size_t len,
                   const struct odp_port_names *names, struct ds *ds)
{
    const struct nlattr *a;
    size_t left;
    bool first = true;
    NL_ATTR_FOR_EACH (a, left, actions, len) {
        if (!first) {
            ds_put_char(ds, ',');
        }
        first = false;
        format_action(ds, a, names);
    }
    if (left) {
        ds_put_format(ds, "%s<%zu bytes left over>", first ? "" : ",", left);
    } else if (first) {
        ds_put_cstr(ds, "drop");
    }
}

void
odp_actions_format(const struct nlattr *actions, size_t len,
                   const struct odp_port_names *names, struct ds *ds)
{
    format_action_list(actions, len, names, ds);
}

/* Action parsing
 * ============== */

static char *parse_action_list(struct parser *, struct ofpbuf *,
                               char close, int depth, const char *outer);

/* slow_path(0) or slow_path(NAME[,NAME]...), after the '('. */
static bool
parse_slow_path_cookie(struct parser *p, struct odp_cookie *c)
{
    memset(c, 0, sizeof *c);
    c->type = ODP_COOKIE_SLOW_PATH;
    char *text = read_token(p, ")");
    bool ok = match_char(p, ')') && *text;
    if (ok && strcmp(text, "0")) {
        char *save = NULL;
        for (char *name = strtok_r(text, ",", &save); ok && name;
             name = strtok_r(NULL, ",", &save)) {
            int bit = -1;
            for (size_t i = 0; i < ARRAY_SIZE(slow_path_reasons); i++) {
                if (!strcmp(name, slow_path_reasons[i].name)) {
                    bit = i;
                }
            }
            ok = bit >= 0;
            if (ok) {
                c->slow_path.reason |= 1u << bit;
            }
        }
    }
    free(text);
    return ok;
}

/* controller(reason=N,dont_send=N,continuation=N,recirc_id=N,
 * rule_cookie=N,controller_id=N,max_len=N), after the '(': every field,
 * in this order, as 3.1 requires. */
static bool
parse_controller_cookie(struct parser *p, struct odp_cookie *c)
{
    static const struct {
        const char *name;
        uint64_t max;
    } fields[] = {
        { "reason", UINT16_MAX }, { "dont_send", 1 }, { "continuation", 1 },
        { "recirc_id", UINT32_MAX }, { "rule_cookie", UINT64_MAX },
        { "controller_id", UINT16_MAX }, { "max_len", UINT16_MAX },
    };
    uint64_t x[ARRAY_SIZE(fields)];
    for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
        size_t n = strlen(fields[i].name);
        if (i && !match_char(p, ',')) {
            return false;
        }
        if (strncmp(p->s, fields[i].name, n) || p->s[n] != '=') {
            return false;
        }
        p->s += n + 1;
        char *text = read_token(p, ",)");
        bool ok = ofputil_scan_uint(text, fields[i].max, &x[i]);
        free(text);
        if (!ok) {
            return false;
        }
    }
    if (!match_char(p, ')')) {
        return false;
    }
    memset(c, 0, sizeof *c);
    c->type = ODP_COOKIE_CONTROLLER;
    c->controller.reason = x[0];
    c->controller.dont_send = x[1];
    c->controller.continuation = x[2];
    c->controller.recirc_id = x[3];
    ovs_be64 rule_cookie = htonll(x[4]);
    memcpy(c->controller.rule_cookie, &rule_cookie, sizeof rule_cookie);
    c->controller.controller_id = x[5];
    c->controller.max_len = x[6];
    return true;
}

static bool
parse_userspace(struct parser *p, struct ofpbuf *actions)
{
    size_t ofs = nl_msg_start_nested(actions, OVS_ACTION_ATTR_USERSPACE);
    bool have_pid = false;
    for (;;) {
        char name[32];
        skip_spaces(p);
        if (!read_name(p, name, sizeof name)) {
            return false;
        }
        if (!strcmp(name, "pid") || !strcmp(name, "tunnel_out_port")) {
            uint64_t x;
            char *text;
            if (!match_char(p, '=')) {
                return false;
            }
            text = read_token(p, ",)");
            bool ok = ofputil_scan_uint(text, UINT32_MAX, &x);
            free(text);
            if (!ok) {
                return false;
            }
            if (name[0] == 'p') {
                if (have_pid) {
                    return false;
                }
                have_pid = true;
            }
            nl_msg_put_u32(actions, name[0] == 'p'
                           ? OVS_USERSPACE_ATTR_PID
                           : OVS_USERSPACE_ATTR_EGRESS_TUN_PORT, x);
        } else if (!strcmp(name, "userdata")) {
            if (!match_char(p, '(')) {
                return false;
            }
            char *text = read_token(p, ")");
            struct ofpbuf bytes;
            ofpbuf_init(&bytes, 16);
            bool ok = (match_char(p, ')')
                       && !*ofpbuf_put_hex(&bytes, text, NULL));
            free(text);
            if (ok) {
                nl_msg_put_unspec(actions, OVS_USERSPACE_ATTR_USERDATA,
                                  bytes.data, bytes.size);
            }
            ofpbuf_uninit(&bytes);
            if (!ok) {
                return false;
            }
        } else if (!strcmp(name, "slow_path")
                   || !strcmp(name, "controller")) {
            struct odp_cookie c;
            if (!match_char(p, '(')
                || !(name[0] == 's' ? parse_slow_path_cookie(p, &c)
                                    : parse_controller_cookie(p, &c))) {
                return false;
            }
            nl_msg_put_unspec(actions, OVS_USERSPACE_ATTR_USERDATA, &c,
                              sizeof c);
        } else if (!strcmp(name, "actions")) {
            nl_msg_put_flag(actions, OVS_USERSPACE_ATTR_ACTIONS);
        } else {
            return false;
        }
        enum list_step step = next_list_item(p);
        if (step == LIST_END) {
            break;
        } else if (step == LIST_BAD) {
            return false;
        }
    }
    nl_msg_end_nested(actions, ofs);
    return have_pid;
}

/* A set of key SK to VALUE under MASK: plain when MASK covers every field,
 * else masked.  With MASK_VALUE, the value's bits outside MASK are
 * cleared (the text parser keeps what the text gave). */
static void
put_set(struct ofpbuf *actions, const struct set_key *sk,
        const struct flow *value, const struct flow *mask, bool mask_value)
{
    bool all_exact = true;
    for (size_t j = 0; j < sk->n_fields; j++) {
        if (!field_mask_is_exact(sk->fields[j].kind,
                                 (const uint8_t *) mask + sk->fields[j].ofs)) {
            all_exact = false;
        }
    }
    size_t ofs = nl_msg_start_nested(actions, all_exact
                                     ? OVS_ACTION_ATTR_SET
                                     : OVS_ACTION_ATTR_SET_MASKED);
    uint8_t *k = nl_msg_put_unspec_zero(actions, sk->type,
                                        all_exact ? sk->size : 2 * sk->size);
    sk->from_flow(value, k, false);
    if (!all_exact) {
        sk->from_flow(mask, k + sk->size, true);
        if (mask_value) {
            for (size_t i = 0; i < sk->size; i++) {
                k[i] &= k[sk->size + i];
            }
        }
    }
    nl_msg_end_nested(actions, ofs);
}

void
odp_put_set_action(struct ofpbuf *actions, uint16_t type,
                   const struct flow *value, const struct flow *mask)
{
    const struct set_key *sk = set_key_by_type(type);
    ovs_assert(sk);
    put_set(actions, sk, value, mask, true);
}

static bool
parse_set(struct parser *p, struct ofpbuf *actions)
{
    char name[32];
    if (!read_name(p, name, sizeof name) || !match_char(p, '(')) {
        return false;
    }
    struct flow fk, fm;
    memset(&fk, 0, sizeof fk);
    memset(&fm, 0, sizeof fm);

    for (size_t i = 0; i < ARRAY_SIZE(set_keys); i++) {
        const struct set_key *sk = &set_keys[i];
        if (strcmp(sk->name, name)) {
            continue;
        }
        if (!parse_fields(p, sk->fields, sk->n_fields, &fk, &fm, NULL)
            || !match_char(p, ')')) {
            return false;
        }
        put_set(actions, sk, &fk, &fm, false);
        return true;
    }

    if (!strcmp(name, "tunnel")) {
        if (!parse_fields(p, tunnel_fields, ARRAY_SIZE(tunnel_fields),
                          &fk, &fm, parse_set_tunnel_extra)
            || !match_char(p, ')')) {
            return false;
        }
        size_t geneve_len = (fk.tunnel.flags & FLOW_TNL_F_UDPIF
                             ? fk.tun_metadata.present : 0);
        odp_put_tunnel_action(&fk.tunnel, fk.tun_metadata.opts, geneve_len,
                              actions);
        return true;
    }

    if (!strcmp(name, "skb_priority") || !strcmp(name, "skb_mark")) {
        uint32_t v, m;
        if (!parse_u32_arg(p, &v, &m) || !match_char(p, ')')) {
            return false;
        }
        uint16_t type = name[4] == 'p' ? OVS_KEY_ATTR_PRIORITY
                                       : OVS_KEY_ATTR_SKB_MARK;
        bool exact = m == UINT32_MAX;
        size_t ofs = nl_msg_start_nested(actions, exact
                                         ? OVS_ACTION_ATTR_SET
                                         : OVS_ACTION_ATTR_SET_MASKED);
        uint32_t vm[2] = { v, m };
        nl_msg_put_unspec(actions, type, vm, exact ? 4 : 8);
        nl_msg_end_nested(actions, ofs);
        return true;
    }

    if (!strcmp(name, "mpls")) {
        ovs_be32 lses[FLOW_MAX_MPLS_LABELS], masks[FLOW_MAX_MPLS_LABELS];
        if (parse_mpls_lses(p, lses, masks) != 1 || !match_char(p, ')')) {
            return false;
        }
        bool exact = masks[0] == htonl(UINT32_MAX);
        size_t ofs = nl_msg_start_nested(actions, exact
                                         ? OVS_ACTION_ATTR_SET
                                         : OVS_ACTION_ATTR_SET_MASKED);
        ovs_be32 vm[2] = { lses[0], masks[0] };
        nl_msg_put_unspec(actions, OVS_KEY_ATTR_MPLS, vm,
                          exact ? 4 : sizeof vm);
        nl_msg_end_nested(actions, ofs);
        return true;
    }

    if (!strcmp(name, "vlan")) {
        union flow_vlan_hdr v, vm;
        if (!parse_vlan_fields(p, &v, &vm) || !match_char(p, ')')) {
            return false;
        }
        /* The present bit is not a field of the header: never set. */
        ovs_be16 tm[2] = { v.tci & ~htons(VLAN_CFI),
                           vm.tci & ~htons(VLAN_CFI) };
        size_t ofs = nl_msg_start_nested(actions,
                                         OVS_ACTION_ATTR_SET_MASKED);
        nl_msg_put_unspec(actions, OVS_KEY_ATTR_VLAN, tm, sizeof tm);
        nl_msg_end_nested(actions, ofs);
        return true;
    }
    return false;
}

static bool
parse_push_vlan(struct parser *p, struct ofpbuf *actions)
{
    struct ovs_action_push_vlan pv = {
        .vlan_tpid = htons(ETH_TYPE_VLAN_8021Q),
    };
    uint16_t tci = VLAN_CFI;
    for (;;) {
        char name[16];
        uint64_t x;
        skip_spaces(p);
        if (!read_name(p, name, sizeof name) || !match_char(p, '=')) {
            return false;
        }
        char *text = read_token(p, ",)");
        bool ok = ofputil_scan_uint(text, 0xffff, &x);
        free(text);
        if (!ok) {
            return false;
        }
        if (!strcmp(name, "vid") && x <= VLAN_VID_MASK) {
            tci = (tci & ~VLAN_VID_MASK) | x;
        } else if (!strcmp(name, "pcp") && x <= 7) {
            tci = (tci & ~VLAN_PCP_MASK) | (x << VLAN_PCP_SHIFT);
        } else if (!strcmp(name, "cfi") && x <= 1) {
            tci = (tci & ~VLAN_CFI) | (x ? VLAN_CFI : 0);
        } else if (!strcmp(name, "tpid")) {
            pv.vlan_tpid = htons(x);
        } else {
            return false;
        }
        enum list_step step = next_list_item(p);
        if (step == LIST_END) {
            break;
        } else if (step == LIST_BAD) {
            return false;
        }
    }
    pv.vlan_tci = htons(tci);
    nl_msg_put_unspec(actions, OVS_ACTION_ATTR_PUSH_VLAN, &pv, sizeof pv);
    return true;
}

/* "src=MAC,dst=MAC)", both, in either order. */
static bool
parse_push_eth(struct parser *p, struct ofpbuf *actions)
{
    struct ovs_action_push_eth pe;
    memset(&pe, 0, sizeof pe);
    bool have_src = false, have_dst = false;
    for (;;) {
        char name[8];
        struct eth_addr ea;
        skip_spaces(p);
        if (!read_name(p, name, sizeof name) || !match_char(p, '=')) {
            return false;
        }
        char *text = read_token(p, ",)");
        bool ok = eth_addr_from_string(text, &ea);
        free(text);
        if (!ok) {
            return false;
        }
        if (!strcmp(name, "src") && !have_src) {
            memcpy(pe.addresses.eth_src, ea.ea, ETH_ADDR_LEN);
            have_src = true;
        } else if (!strcmp(name, "dst") && !have_dst) {
            memcpy(pe.addresses.eth_dst, ea.ea, ETH_ADDR_LEN);
            have_dst = true;
        } else {
            return false;
        }
        enum list_step step = next_list_item(p);
        if (step == LIST_END) {
            break;
        } else if (step == LIST_BAD) {
            return false;
        }
    }
    if (!have_src || !have_dst) {
        return false;
    }
    nl_msg_put_unspec(actions, OVS_ACTION_ATTR_PUSH_ETH, &pe, sizeof pe);
    return true;
}

/* "label=L,tc=T,ttl=N,bos=B,eth_type=0xTYPE)": every field once, in
 * any order; the type must be MPLS's. */
static bool
parse_push_mpls(struct parser *p, struct ofpbuf *actions)
{
    static const char *const names[] = {
        "label", "tc", "ttl", "bos", "eth_type",
    };
    static const uint32_t max[] = {
        MPLS_LABEL_MASK >> MPLS_LABEL_SHIFT, 7, 255, 1, 0xffff,
    };
    uint64_t values[ARRAY_SIZE(names)];
    bool seen[ARRAY_SIZE(names)] = { false };

    for (size_t n = 0; n < ARRAY_SIZE(names); n++) {
        char name[16];
        skip_spaces(p);
        if (n && !match_char(p, ',')) {
            return false;
        }
        skip_spaces(p);
        if (!read_name(p, name, sizeof name) || !match_char(p, '=')) {
            return false;
        }
        size_t f = 0;
        while (f < ARRAY_SIZE(names) && strcmp(names[f], name)) {
            f++;
        }
        if (f == ARRAY_SIZE(names) || seen[f]) {
            return false;
        }
        char *text = read_token(p, ",)");
        bool ok = ofputil_scan_uint(text, max[f], &values[f]);
        free(text);
        if (!ok) {
            return false;
        }
        seen[f] = true;
    }
    skip_spaces(p);
    ovs_be16 eth_type = htons(values[4]);
    if (!match_char(p, ')') || !eth_type_mpls(eth_type)) {
        return false;
    }
    struct ovs_action_push_mpls pm = {
        .mpls_lse = mpls_lse_build(values[0], values[1], values[3],
                                   values[2]),
        .mpls_ethertype = eth_type,
    };
    nl_msg_put_unspec(actions, OVS_ACTION_ATTR_PUSH_MPLS, &pm, sizeof pm);
    return true;
}

static bool
parse_pop_mpls(struct parser *p, struct ofpbuf *actions)
{
    skip_spaces(p);
    if (strncmp(p->s, "eth_type=", 9)) {
        return false;
    }
    p->s += 9;
    char *text = read_token(p, ")");
    uint64_t type;
    bool ok = ofputil_scan_uint(text, 0xffff, &type) && match_char(p, ')');
    free(text);
    if (ok) {
        nl_msg_put_be16(actions, OVS_ACTION_ATTR_POP_MPLS, htons(type));
    }
    return ok;
}

/* hash(l4(BASIS)) or hash(sym_l4(BASIS)), after "hash(". */
static bool
parse_hash(struct parser *p, struct ofpbuf *actions)
{
    struct ovs_action_hash h = { .hash_alg = OVS_HASH_ALG_L4 };
    skip_spaces(p);
    if (!strncmp(p->s, "l4(", 3)) {
        p->s += 3;
    } else if (!strncmp(p->s, "sym_l4(", 7)) {
        h.hash_alg = ODP_HASH_ALG_SYM_L4;
        p->s += 7;
    } else {
        return false;
    }
    uint32_t mask;
    if (!parse_u32_arg(p, &h.hash_basis, &mask) || mask != UINT32_MAX
        || !match_char(p, ')')) {
        return false;
    }
    nl_msg_put_unspec(actions, OVS_ACTION_ATTR_HASH, &h, sizeof h);
    return true;
}

static char *
parse_sample(struct parser *p, struct ofpbuf *actions, int depth,
             const char *outer, bool *ok)
{
    static const char prefix[] = "sample=";
    *ok = false;
    if (strncmp(p->s, prefix, strlen(prefix))) {
        return NULL;
    }
    p->s += strlen(prefix);
    char *text = read_token(p, "%");
    char *end;
    double pct = strtod(text, &end);
    bool good = *text && !*end && pct >= 0 && pct <= 100;
    free(text);
    if (!good || !match_char(p, '%') || !match_char(p, ',')) {
        return NULL;
    }
    skip_spaces(p);
    if (strncmp(p->s, "actions(", 8)) {
        return NULL;
    }
    p->s += 8;
    size_t ofs = nl_msg_start_nested(actions, OVS_ACTION_ATTR_SAMPLE);
    nl_msg_put_u32(actions, OVS_SAMPLE_ATTR_PROBABILITY,
                   (uint32_t) (pct / 100.0 * UINT32_MAX + 0.5));
    size_t inner = nl_msg_start_nested(actions, OVS_SAMPLE_ATTR_ACTIONS);
    char *error = parse_action_list(p, actions, ')', depth + 1, outer);
    if (error) {
        return error;
    }
    nl_msg_end_nested(actions, inner);
    nl_msg_end_nested(actions, ofs);
    *ok = match_char(p, ')');
    return NULL;
}

/* A port number or name up to ')', which is left unread. */
static bool
parse_port_paren(struct parser *p, uint32_t *port)
{
    char *text = read_token(p, ")");
    uint64_t v;
    bool ok = false;
    if (ofputil_scan_uint(text, UINT32_MAX, &v)) {
        *port = v;
        ok = true;
    } else if (p->names && p->names->number_of) {
        ok = p->names->number_of(p->names->aux, text, port);
    }
    free(text);
    return ok;
}

/* "tnl_port(N),header(...),out_port(N))" after "tnl_push(". */
static char *
parse_tnl_push(struct parser *p, struct ofpbuf *actions, bool *ok)
{
    struct tnl_push_action data;
    memset(&data, 0, sizeof data);
    *ok = false;
    if (strncmp(p->s, "tnl_port(", 9)) {
        return NULL;
    }
    p->s += 9;
    if (!parse_port_paren(p, &data.tnl_port) || !match_char(p, ')')
        || !match_char(p, ',')) {
        return NULL;
    }
    char *error = tnl_header_parse(&p->s, &data);
    if (error) {
        return error;
    }
    if (strncmp(p->s, ",out_port(", 10)) {
        return NULL;
    }
    p->s += 10;
    if (!parse_port_paren(p, &data.out_port) || !match_char(p, ')')
        || !match_char(p, ')')) {
        return NULL;
    }
    odp_put_tnl_push_action(actions, &data);
    *ok = true;
    return NULL;
}

void
odp_put_tnl_push_action(struct ofpbuf *actions,
                        const struct tnl_push_action *data)
{
    nl_msg_put_unspec(actions, OVS_ACTION_ATTR_TUNNEL_PUSH, data,
                      TNL_PUSH_ACTION_FIXED + data->header_len);
}

void
odp_put_tnl_pop_action(struct ofpbuf *actions, uint32_t port)
{
    nl_msg_put_u32(actions, OVS_ACTION_ATTR_TUNNEL_POP, port);
}

void
odp_put_drop_action(struct ofpbuf *actions, enum odp_drop_reason reason)
{
    nl_msg_put_u32(actions, ODP_ACTION_ATTR_DROP, reason);
}

/* One NAT address: IPv4, or IPv6 bare or in brackets; LEN says which
 * (and must match it if nonzero). */
static bool
parse_nat_addr(struct parser *p, uint8_t addr[16], uint8_t *len)
{
    /* IPv4 first: "10.0.0.1:80" is an address and a port. */
    size_t n = strspn(p->s, "0123456789.");
    char *text = xmemdup0(p->s, n);
    struct in_addr a4;
    bool ok = false;
    if (n && inet_pton(AF_INET, text, &a4) == 1 && *len != 16) {
        memcpy(addr, &a4, 4);
        *len = 4;
        p->s += n;
        ok = true;
    } else if (*len != 4) {
        bool bracket = *p->s == '[';
        const char *start = p->s + bracket;
        n = strspn(start, "0123456789abcdefABCDEF:.");
        free(text);
        text = xmemdup0(start, n);
        if ((!bracket || start[n] == ']')
            && inet_pton(AF_INET6, text, addr) == 1) {
            *len = 16;
            p->s = start + n + bracket;
            ok = true;
        }
    }
    free(text);
    return ok;
}

static bool
parse_nat_port(struct parser *p, uint16_t *port)
{
    size_t n = strspn(p->s, "0123456789");
    char *text = xmemdup0(p->s, n);
    uint64_t x;
    bool ok = ofputil_scan_uint(text, UINT16_MAX, &x);
    free(text);
    if (ok) {
        *port = x;
        p->s += n;
    }
    return ok;
}

/* nat(...) after "nat(": src or dst with an optional =range, and the
 * flags, to the ')' (consumed). */
static bool
parse_ct_nat(struct parser *p, struct odp_ct_action *ct)
{
    for (;;) {
        char name[16];
        uint16_t flag;
        skip_spaces(p);
        if (!read_name(p, name, sizeof name)) {
            return false;
        }
        if (!strcmp(name, "src") || !strcmp(name, "dst")) {
            flag = name[0] == 's' ? CT_NAT_SRC : CT_NAT_DST;
            if (match_char(p, '=')) {
                if (!parse_nat_addr(p, ct->nat_min_addr, &ct->nat_addr_len)) {
                    return false;
                }
                memcpy(ct->nat_max_addr, ct->nat_min_addr, 16);
                if (match_char(p, '-')
                    && !parse_nat_addr(p, ct->nat_max_addr,
                                       &ct->nat_addr_len)) {
                    return false;
                }
                if (match_char(p, ':')) {
                    if (!parse_nat_port(p, &ct->nat_min_port)) {
                        return false;
                    }
                    ct->nat_max_port = ct->nat_min_port;
                    if (match_char(p, '-')
                        && !parse_nat_port(p, &ct->nat_max_port)) {
                        return false;
                    }
                }
            }
        } else if (!strcmp(name, "persistent")) {
            flag = CT_NAT_PERSISTENT;
        } else if (!strcmp(name, "hash")) {
            flag = CT_NAT_PROTO_HASH;
        } else if (!strcmp(name, "random")) {
            flag = CT_NAT_PROTO_RANDOM;
        } else {
            return false;
        }
        ct->nat_flags |= flag;
        enum list_step step = next_list_item(p);
        if (step == LIST_END) {
            break;
        } else if (step == LIST_BAD) {
            return false;
        }
    }
    uint16_t f = ct->nat_flags;
    size_t len = ct->nat_addr_len;
    return (!((f & CT_NAT_SRC) && (f & CT_NAT_DST))
            && !((f & CT_NAT_PROTO_HASH) && (f & CT_NAT_PROTO_RANDOM))
            && (f & (CT_NAT_SRC | CT_NAT_DST) || !f)
            && (!len || memcmp(ct->nat_max_addr, ct->nat_min_addr, len) >= 0)
            && ct->nat_max_port >= ct->nat_min_port);
}

/* A name of 1 to SIZE - 1 characters up to ',' or ')'. */
static bool
parse_ct_string(struct parser *p, char *out, size_t size)
{
    size_t n = strcspn(p->s, ",)");
    if (!n || n >= size) {
        return false;
    }
    memcpy(out, p->s, n);
    out[n] = '\0';
    p->s += n;
    return true;
}

/* A hex number (with or without 0x) into *X, up to a character in STOP. */
static bool
parse_ct_hex32(struct parser *p, const char *stop, uint32_t *x)
{
    char *text = read_token(p, stop);
    const char *digits = (!strncmp(text, "0x", 2) || !strncmp(text, "0X", 2)
                          ? text + 2 : text);
    size_t n = strlen(digits);
    bool ok = n && n <= 8 && strspn(digits, "0123456789abcdefABCDEF") == n;
    if (ok) {
        *x = strtoul(digits, NULL, 16);
    }
    free(text);
    return ok;
}

/* The arguments of ct(...) after "ct(", to the ')' (consumed). */
static bool
parse_ct(struct parser *p, struct odp_ct_action *ct)
{
    skip_spaces(p);
    if (match_char(p, ')')) {
        return true;
    }
    for (;;) {
        char name[16];
        skip_spaces(p);
        if (!read_name(p, name, sizeof name)) {
            return false;
        }
        bool ok;
        if (!strcmp(name, "commit")) {
            ok = ct->commit = true;
        } else if (!strcmp(name, "force_commit")) {
            ok = ct->force_commit = true;
        } else if (!strcmp(name, "nat")) {
            ct->has_nat = true;
            ok = !match_char(p, '(') || parse_ct_nat(p, ct);
        } else if (!match_char(p, '=')) {
            ok = false;
        } else if (!strcmp(name, "zone")) {
            char *text = read_token(p, ",)");
            uint64_t x;
            ok = ofputil_scan_uint(text, UINT16_MAX, &x);
            free(text);
            ct->zone = ok ? x : 0;
        } else if (!strcmp(name, "mark")) {
            ct->mark_mask = UINT32_MAX;
            ok = (parse_ct_hex32(p, "/,)", &ct->mark_value)
                  && (!match_char(p, '/')
                      || parse_ct_hex32(p, ",)", &ct->mark_mask)));
            /* Kept even with a zero mask (which sets nothing), so that
             * what prints parses back the same. */
            ct->has_mark = true;
        } else if (!strcmp(name, "label")) {
            char *text = read_token(p, ",)");
            char *slash = strchr(text, '/');
            if (slash) {
                *slash = '\0';
            }
            ok = parse_u128(text, ct->label_value);
            if (ok && slash) {
                ok = parse_u128(slash + 1, ct->label_mask);
            } else {
                memset(ct->label_mask, 0xff, 16);
            }
            free(text);
            ct->has_label = true;
        } else if (!strcmp(name, "helper")) {
            ok = (parse_ct_string(p, ct->helper, sizeof ct->helper)
                  && odp_ct_helper_is_known(ct->helper));
        } else if (!strcmp(name, "timeout")) {
            ok = (parse_ct_string(p, ct->timeout, sizeof ct->timeout)
                  && ct_timeout_name_is_valid(ct->timeout));
        } else {
            ok = false;
        }
        if (!ok) {
            return false;
        }
        enum list_step step = next_list_item(p);
        if (step == LIST_END) {
            break;
        } else if (step == LIST_BAD) {
            return false;
        }
    }
    return !(ct->commit && ct->force_commit);
}

/* One action at P, appended to ACTIONS.  Returns an error from a nested
 * list (already positioned), or NULL with *OK saying whether this action
 * parsed. */
static char *
parse_action(struct parser *p, struct ofpbuf *actions, int depth, bool *ok)
{
    char name[64];
    const char *start = p->s;

    *ok = false;
    if (isdigit((unsigned char) *p->s)) {
        char *text = read_token(p, ",) \t");
        uint64_t port;
        *ok = ofputil_scan_uint(text, UINT32_MAX, &port);
        free(text);
        if (*ok) {
            nl_msg_put_u32(actions, OVS_ACTION_ATTR_OUTPUT, port);
        }
        return NULL;
    }
    if (!read_name(p, name, sizeof name)) {
        return NULL;
    }
    if (!strcmp(name, "pop_vlan") || !strcmp(name, "pop_eth")) {
        nl_msg_put_flag(actions, (name[4] == 'v' ? OVS_ACTION_ATTR_POP_VLAN
                                  : OVS_ACTION_ATTR_POP_ETH));
        *ok = true;
        return NULL;
    }
    if (!strcmp(name, "ct_clear")) {
        nl_msg_put_flag(actions, OVS_ACTION_ATTR_CT_CLEAR);
        *ok = true;
        return NULL;
    }
    if (!strcmp(name, "ct")) {
        struct odp_ct_action ct;
        memset(&ct, 0, sizeof ct);
        if (!match_char(p, '(') || parse_ct(p, &ct)) {
            odp_put_ct_action(actions, &ct);
            *ok = true;
        }
        return NULL;
    }
    if (!match_char(p, '(')) {
        /* A port name? */
        uint32_t port;
        if (p->names && p->names->number_of
            && p->names->number_of(p->names->aux, name, &port)) {
            nl_msg_put_u32(actions, OVS_ACTION_ATTR_OUTPUT, port);
            *ok = true;
        }
        return NULL;
    }
    if (!strcmp(name, "userspace")) {
        *ok = parse_userspace(p, actions);
    } else if (!strcmp(name, "set")) {
        *ok = parse_set(p, actions);
    } else if (!strcmp(name, "push_vlan")) {
        *ok = parse_push_vlan(p, actions);
    } else if (!strcmp(name, "push_eth")) {
        *ok = parse_push_eth(p, actions);
    } else if (!strcmp(name, "push_mpls")) {
        *ok = parse_push_mpls(p, actions);
    } else if (!strcmp(name, "pop_mpls")) {
        *ok = parse_pop_mpls(p, actions);
    } else if (!strcmp(name, "recirc") || !strcmp(name, "meter")
               || !strcmp(name, "trunc") || !strcmp(name, "lb_output")) {
        uint32_t v, m;
        *ok = parse_u32_arg(p, &v, &m) && m == UINT32_MAX;
        if (*ok) {
            nl_msg_put_u32(actions, (name[0] == 'r' ? OVS_ACTION_ATTR_RECIRC
                                     : name[0] == 'm' ? OVS_ACTION_ATTR_METER
                                     : name[0] == 'l' ? ODP_ACTION_ATTR_LB_OUTPUT
                                     : OVS_ACTION_ATTR_TRUNC), v);
        }
    } else if (!strcmp(name, "hash")) {
        *ok = parse_hash(p, actions);
    } else if (!strcmp(name, "tnl_pop")) {
        uint32_t port;
        *ok = parse_port_paren(p, &port) && match_char(p, ')');
        if (*ok) {
            odp_put_tnl_pop_action(actions, port);
        }
    } else if (!strcmp(name, "tnl_push")) {
        return parse_tnl_push(p, actions, ok);
    } else if (!strcmp(name, "sample")) {
        return parse_sample(p, actions, depth, start, ok);
    } else if (!strcmp(name, "clone")) {
        size_t ofs = nl_msg_start_nested(actions, OVS_ACTION_ATTR_CLONE);
        char *error = parse_action_list(p, actions, ')', depth + 1, start);
        if (error) {
            return error;
        }
        nl_msg_end_nested(actions, ofs);
        *ok = true;
    }
    return NULL;
}

/* Parses a comma-separated action list up to CLOSE (consumed if ')'). */
static char *
parse_action_list(struct parser *p, struct ofpbuf *actions, char close,
                  int depth, const char *outer)
{
    if (depth > 8) {
        return xasprintf("syntax error at %s (actions nested too deeply)",
                         p->s);
    }
    skip_spaces(p);
    if (close && match_char(p, close)) {
        return NULL;
    }
    size_t list_start = actions->size;
    for (;;) {
        const char *start = p->s;

        if (!strncmp(p->s, "drop", 4)
            && (!p->s[4] || p->s[4] == close || isspace((unsigned char)
                                                        p->s[4]))) {
            /* "drop" is the whole list or nothing. */
            p->s += 4;
            skip_spaces(p);
            if (actions->size != list_start
                || !(close ? match_char(p, close) : !*p->s)) {
                return xasprintf("syntax error at %s (drop must be the "
                                 "only action)", start);
            }
            return NULL;
        }

        bool ok;
        char *error = parse_action(p, actions, depth, &ok);
        if (error) {
            return error;
        }
        if (!ok) {
            return xasprintf("syntax error at %s", start);
        }
        skip_spaces(p);
        if (close ? match_char(p, close) : !*p->s) {
            return NULL;
        }
        if (close && !*p->s) {
            return xasprintf("syntax error at %s (missing `%c')", outer,
                             close);
        }
        if (!match_char(p, ',')) {
            return xasprintf("syntax error at %s", p->s);
        }
        skip_spaces(p);
        if (!*p->s || *p->s == close) {
            return xasprintf("syntax error at %s (missing action)", p->s);
        }
    }
}

char *
odp_actions_from_string(const char *s, const struct odp_port_names *names,
                        struct ofpbuf *actions)
{
    struct parser p = { .s = s, .names = names };
    skip_spaces(&p);
    if (!*p.s) {
        return xstrdup("syntax error at  (no actions: use \"drop\")");
    }
    return parse_action_list(&p, actions, '\0', 0, s);
}

/* Validation
 * ========== */

static bool
validate_list(const struct nlattr *actions, size_t len, int depth,
              char **error);

static bool
validate_set(const struct nlattr *a, bool masked, char **error)
{
    const struct nlattr *k = nl_attr_get(a);
    size_t len = nl_attr_get_size(a);
    if (!nl_attr_is_whole(k, len) || NLA_ALIGN(k->nla_len) < len) {
        *error = xstrdup("set action must hold exactly one key");
        return false;
    }
    uint16_t type = nl_attr_type(k);
    size_t size = nl_attr_get_size(k);
    size_t want;
    if (type == OVS_KEY_ATTR_TUNNEL) {
        /* Tunnel metadata for a tunnel port's output (xlate's
         * set(tunnel(...))): nested, never masked. */
        struct flow_tnl t;
        if (masked || !odp_tunnel_from_attr(k, &t, NULL, NULL)) {
            *error = xstrdup("set(tunnel(...)) must be unmasked and hold "
                             "well-formed tunnel key attributes");
            return false;
        }
        return true;
    }
    const struct set_key *sk = set_key_by_type(type);
    if (sk) {
        want = sk->size;
    } else if (type == OVS_KEY_ATTR_PRIORITY
               || type == OVS_KEY_ATTR_SKB_MARK) {
        want = 4;
    } else if (type == OVS_KEY_ATTR_VLAN) {
        want = 2;
    } else if (type == OVS_KEY_ATTR_MPLS) {
        want = sizeof(struct ovs_key_mpls);     /* The top entry. */
    } else {
        *error = xasprintf("set of key type %"PRIu16" is not supported",
                           type);
        return false;
    }
    if (size != (masked ? 2 * want : want)) {
        *error = xasprintf("set of key type %"PRIu16" has %zu bytes, "
                           "not %zu", type, size, masked ? 2 * want : want);
        return false;
    }
    return true;
}

static bool
validate_action(const struct nlattr *a, int depth, char **error)
{
    uint16_t type = nl_attr_type(a);
    size_t size = nl_attr_get_size(a);
    switch (type) {
    case OVS_ACTION_ATTR_TUNNEL_PUSH:
        if (size < TNL_PUSH_ACTION_FIXED
            || size > sizeof(struct tnl_push_action)) {
            break;
        }
        return tnl_header_validate(nl_attr_get(a), size, error);
    case OVS_ACTION_ATTR_OUTPUT:
    case OVS_ACTION_ATTR_RECIRC:
    case OVS_ACTION_ATTR_METER:
    case OVS_ACTION_ATTR_TUNNEL_POP:
    case OVS_ACTION_ATTR_TRUNC:
    case ODP_ACTION_ATTR_LB_OUTPUT:
        if (size != 4) {
            break;
        }
        return true;
    case OVS_ACTION_ATTR_HASH:
        if (size != sizeof(struct ovs_action_hash)
            || (((const struct ovs_action_hash *) nl_attr_get(a))->hash_alg
                > ODP_HASH_ALG_SYM_L4)) {
            break;
        }
        return true;
    case ODP_ACTION_ATTR_DROP:
        if (size != 4 || nl_attr_get_u32(a) >= ODP_DROP_N_REASONS) {
            break;
        }
        return true;
    case OVS_ACTION_ATTR_CT: {
        struct odp_ct_action ct;
        if (!odp_ct_action_from_attr(a, &ct, error)) {
            return false;
        }
        if (ct.helper[0] && !odp_ct_helper_is_known(ct.helper)) {
            *error = xasprintf("ct helper \"%s\" is not supported (only "
                               "ftp and tftp)", ct.helper);
            return false;
        }
        return true;
    }
    case OVS_ACTION_ATTR_POP_VLAN:
    case OVS_ACTION_ATTR_POP_ETH:
    case OVS_ACTION_ATTR_CT_CLEAR:
        if (size) {
            break;
        }
        return true;
    case OVS_ACTION_ATTR_PUSH_ETH:
        if (size != sizeof(struct ovs_action_push_eth)) {
            break;
        }
        return true;
    case OVS_ACTION_ATTR_PUSH_VLAN:
        if (size != sizeof(struct ovs_action_push_vlan)) {
            break;
        }
        return true;
    case OVS_ACTION_ATTR_PUSH_MPLS:
        if (size != sizeof(struct ovs_action_push_mpls)) {
            break;
        }
        if (!eth_type_mpls(((const struct ovs_action_push_mpls *)
                            nl_attr_get(a))->mpls_ethertype)) {
            *error = xstrdup("push_mpls with a type that is not MPLS's");
            return false;
        }
        return true;
    case OVS_ACTION_ATTR_POP_MPLS:
        if (size != sizeof(ovs_be16)) {
            break;
        }
        return true;
    case OVS_ACTION_ATTR_SET:
    case OVS_ACTION_ATTR_SET_MASKED:
        return validate_set(a, type == OVS_ACTION_ATTR_SET_MASKED, error);
    case OVS_ACTION_ATTR_USERSPACE: {
        const struct nlattr *u;
        size_t left;
        bool have_pid = false;
        if (!nl_attr_list_is_valid(nl_attr_get(a), size, NULL)) {
            break;
        }
        NL_NESTED_FOR_EACH (u, left, a) {
            uint16_t ut = nl_attr_type(u);
            size_t us = nl_attr_get_size(u);
            if ((ut == OVS_USERSPACE_ATTR_PID && us == 4 && !have_pid)
                || (ut == OVS_USERSPACE_ATTR_EGRESS_TUN_PORT && us == 4)
                || (ut == OVS_USERSPACE_ATTR_ACTIONS && !us)
                || ut == OVS_USERSPACE_ATTR_USERDATA) {
                have_pid |= ut == OVS_USERSPACE_ATTR_PID;
                continue;
            }
            *error = xstrdup("bad userspace action argument");
            return false;
        }
        if (!have_pid) {
            *error = xstrdup("userspace action without pid");
            return false;
        }
        return true;
    }
    case OVS_ACTION_ATTR_SAMPLE: {
        const struct nlattr *s;
        size_t left;
        bool have_prob = false, have_actions = false;
        if (!nl_attr_list_is_valid(nl_attr_get(a), size, NULL)) {
            break;
        }
        NL_NESTED_FOR_EACH (s, left, a) {
            uint16_t st = nl_attr_type(s);
            if (st == OVS_SAMPLE_ATTR_PROBABILITY
                && nl_attr_get_size(s) == 4 && !have_prob) {
                have_prob = true;
            } else if (st == OVS_SAMPLE_ATTR_ACTIONS && !have_actions) {
                have_actions = true;
                if (!validate_list(nl_attr_get(s), nl_attr_get_size(s),
                                   depth + 1, error)) {
                    return false;
                }
            } else {
                *error = xstrdup("bad sample action argument");
                return false;
            }
        }
        if (!have_prob || !have_actions) {
            *error = xstrdup("sample action needs a probability and "
                             "actions");
            return false;
        }
        return true;
    }
    case OVS_ACTION_ATTR_CLONE:
        return validate_list(nl_attr_get(a), size, depth + 1, error);
    default:
        *error = xasprintf("unsupported action type %"PRIu16, type);
        return false;
    }
    *error = xasprintf("action type %"PRIu16" has a bad length %zu", type,
                       size);
    return false;
}

static bool
validate_list(const struct nlattr *actions, size_t len, int depth,
              char **error)
{
    if (depth > 8) {
        *error = xstrdup("actions nested too deeply");
        return false;
    }
    if (!nl_attr_list_is_valid(actions, len, NULL)) {
        *error = xstrdup("malformed action list");
        return false;
    }
    const struct nlattr *a;
    size_t left;
    NL_ATTR_FOR_EACH (a, left, actions, len) {
        if (!validate_action(a, depth, error)) {
            return false;
        }
        /* The drop action is a list of its own: it prints as "drop",
         * which is the whole list or nothing. */
        if (nl_attr_type(a) == ODP_ACTION_ATTR_DROP
            && NLA_ALIGN(a->nla_len) != len) {
            *error = xstrdup("drop must be the only action of its list");
            return false;
        }
    }
    return true;
}

bool
odp_actions_validate(const struct nlattr *actions, size_t len, char **error)
{
    char *dummy = NULL;
    bool ok = validate_list(actions, len, 0, error ? error : &dummy);
    free(dummy);
    return ok;
}
