/* ofp-actions-ct: the connection tracking actions ct (NXAST_CT), nat
 * (NXAST_NAT, only inside ct) and ct_clear (NXAST_CT_CLEAR).  See
 * ofp-actions-private.h for the family interface. */
#include <config.h>
#include "ofp-actions-private.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "be-bytes.h"
#include "dynamic-string.h"
#include "match.h"
#include "nx-match.h"
#include "ofp-parse.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "packets.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_actions_ct);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

/* The helpers "alg=" names, by their well-known ports. */
#define CT_ALG_FTP 21
#define CT_ALG_TFTP 69

/* NXAST_NAT's "range present" bits. */
enum {
    NX_NAT_RANGE_IPV4_MIN = 1 << 0,
    NX_NAT_RANGE_IPV4_MAX = 1 << 1,
    NX_NAT_RANGE_IPV6_MIN = 1 << 2,
    NX_NAT_RANGE_IPV6_MAX = 1 << 3,
    NX_NAT_RANGE_PROTO_MIN = 1 << 4,
    NX_NAT_RANGE_PROTO_MAX = 1 << 5,
};

#define NX_CT_F_ALL (NX_CT_F_COMMIT | NX_CT_F_FORCE)
#define NX_NAT_F_ALL (NX_NAT_F_SRC | NX_NAT_F_DST | NX_NAT_F_PERSISTENT \
                      | NX_NAT_F_PROTO_HASH | NX_NAT_F_PROTO_RANDOM)

/* Decoding. */

static enum ofperr
decode_nat(const uint8_t *p, size_t len, struct ofpbuf *ofpacts)
{
    uint16_t flags = get_be16(p + 12);
    uint16_t present = get_be16(p + 14);
    if (!ofpact_is_all_zeros(p + 10, 2)) {
        return OFPERR_NXBRC_MUST_BE_ZERO;
    }
    if (flags & ~NX_NAT_F_ALL
        || ((flags & NX_NAT_F_SRC) && (flags & NX_NAT_F_DST))
        || ((flags & NX_NAT_F_PROTO_HASH)
            && (flags & NX_NAT_F_PROTO_RANDOM))) {
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }
    bool v4 = present & (NX_NAT_RANGE_IPV4_MIN | NX_NAT_RANGE_IPV4_MAX);
    bool v6 = present & (NX_NAT_RANGE_IPV6_MIN | NX_NAT_RANGE_IPV6_MAX);
    if ((v4 && v6) || present & ~0x3f
        || ((present & NX_NAT_RANGE_IPV4_MAX)
            && !(present & NX_NAT_RANGE_IPV4_MIN))
        || ((present & NX_NAT_RANGE_IPV6_MAX)
            && !(present & NX_NAT_RANGE_IPV6_MIN))
        || ((present & NX_NAT_RANGE_PROTO_MAX)
            && !(present & NX_NAT_RANGE_PROTO_MIN))) {
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }

    struct ofpact_nat *nat = OFPACT_PUT(ofpacts, OFPACT_NAT, ofpact_nat);
    nat->flags = flags;
    nat->range_af = v4 ? AF_INET : v6 ? AF_INET6 : AF_UNSPEC;
    const uint8_t *q = p + 16, *end = p + len;
#define TAKE(DST, N)                                \
    do {                                            \
        if (end - q < (N)) {                        \
            return OFPERR_OFPBAC_BAD_LEN;           \
        }                                           \
        memcpy(DST, q, N);                          \
        q += (N);                                   \
    } while (0)
    if (present & NX_NAT_RANGE_IPV4_MIN) {
        TAKE(&nat->range_addr.ipv4.min, 4);
    }
    if (present & NX_NAT_RANGE_IPV4_MAX) {
        TAKE(&nat->range_addr.ipv4.max, 4);
    }
    if (present & NX_NAT_RANGE_IPV6_MIN) {
        TAKE(&nat->range_addr.ipv6.min, 16);
    }
    if (present & NX_NAT_RANGE_IPV6_MAX) {
        TAKE(&nat->range_addr.ipv6.max, 16);
    }
    uint8_t be[2];
    if (present & NX_NAT_RANGE_PROTO_MIN) {
        TAKE(be, 2);
        nat->proto_min = get_be16(be);
    }
    if (present & NX_NAT_RANGE_PROTO_MAX) {
        TAKE(be, 2);
        nat->proto_max = get_be16(be);
    }
#undef TAKE
    if (!ofpact_is_all_zeros(q, end - q)) {
        return OFPERR_NXBRC_MUST_BE_ZERO;
    }
    return 0;
}

/* The field A changes if it is a set_field or a move, else NULL. */
static const struct mf_field *
nested_dst_field(const struct ofpact *a)
{
    if (a->type == OFPACT_SET_FIELD) {
        return ((const struct ofpact_set_field *) a)->field;
    } else if (a->type == OFPACT_REG_MOVE) {
        return ((const struct ofpact_reg_move *) a)->dst.field;
    }
    return NULL;
}

/* Whether ct may hold A among its nested actions: nat, and changes
 * (set_field, move) to ct_mark and ct_label. */
static bool
ct_may_nest(const struct ofpact *a)
{
    if (a->type == OFPACT_NAT) {
        return true;
    }
    const struct mf_field *dst = nested_dst_field(a);
    return dst && (dst->id == MFF_CT_MARK || dst->id == MFF_CT_LABEL);
}

static enum ofperr
decode_ct(const uint8_t *p, size_t len, enum ofp_version version,
          struct ofpbuf *ofpacts)
{
    size_t start = ofpacts->size;
    struct ofpact_conntrack *ct = ofpact_put(ofpacts, OFPACT_CT, sizeof *ct);
    ct->flags = get_be16(p + 10);
    if (ct->flags & ~NX_CT_F_ALL) {
        VLOG_WARN_RL(&rl, "invalid ct flags %#"PRIx16, ct->flags);
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }
    uint32_t zone_src = get_be32(p + 12);
    uint16_t zone = get_be16(p + 16);
    if (zone_src) {
        uint8_t hdr[4];
        put_be32(hdr, zone_src);
        size_t hdr_len;
        struct mf_subfield sf;
        enum ofperr error = ofpact_decode_subfield(hdr, 4, zone >> 6,
                                                   (zone & 63) + 1, &sf,
                                                   &hdr_len);
        if (error) {
            return error;
        }
        if (sf.n_bits != 16) {
            VLOG_WARN_RL(&rl, "zone n_bits %u not within valid range "
                         "[16..16]", sf.n_bits);
            return OFPERR_OFPBAC_BAD_SET_LEN;
        }
        ct->zone_src = sf;
    } else {
        ct->zone_imm = zone;
    }
    ct->recirc_table = p[18];
    if (!ofpact_is_all_zeros(p + 19, 3)) {
        return OFPERR_NXBRC_MUST_BE_ZERO;
    }
    ct->alg = get_be16(p + 22);

    enum ofperr error = ofpacts_decode_nested(p + 24, len - 24, version,
                                              ofpacts);
    if (error) {
        return error;
    }
    ct = ofpbuf_at_assert(ofpacts, start, sizeof *ct);
    ofpact_finish(ofpacts, &ct->ofpact);

    /* Without commit only a bare nat may be nested. */
    const struct ofpact *a;
    OFPACT_FOR_EACH (a, ct->actions, ofpact_ct_get_action_len(ct)) {
        if (!ct_may_nest(a)) {
            VLOG_WARN_RL(&rl, "ct action doesn't support nested action %s",
                         ofpact_name(a->type));
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        const struct ofpact_nat *nat = (const void *) a;
        if (!(ct->flags & NX_CT_F_COMMIT)
            && (a->type != OFPACT_NAT || nat->flags
                || nat->range_af != AF_UNSPEC)) {
            VLOG_WARN_RL(&rl, "CT action requires commit flag if actions "
                         "other than NAT without arguments are specified.");
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
    }
    if ((ct->flags & NX_CT_F_FORCE) && !(ct->flags & NX_CT_F_COMMIT)) {
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }
    return 0;
}

enum ofperr
ofpact_ct_decode_nx(uint16_t subtype, const uint8_t *p, size_t len,
                    enum ofp_version version, struct ofpbuf *ofpacts)
{
    switch (subtype) {
    case NXAST_CT:
        return decode_ct(p, len, version, ofpacts);
    case NXAST_NAT:
        return decode_nat(p, len, ofpacts);
    case NXAST_CT_CLEAR:
        if (!ofpact_is_all_zeros(p + 10, 6)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        OFPACT_PUT(ofpacts, OFPACT_CT_CLEAR, ofpact);
        return 0;
    }
    return OFPERR_OFPBAC_BAD_VENDOR_TYPE;
}

/* Encoding. */

static void
encode_nat(const struct ofpact_nat *nat, struct ofpbuf *out)
{
    size_t ofs = ofpact_put_nx(out, NXAST_NAT, 16);
    uint16_t present = 0;
    if (nat->range_af == AF_INET) {
        if (nat->range_addr.ipv4.min) {
            present |= NX_NAT_RANGE_IPV4_MIN;
            ofpbuf_put(out, &nat->range_addr.ipv4.min, 4);
        }
        if (nat->range_addr.ipv4.max) {
            present |= NX_NAT_RANGE_IPV4_MAX;
            ofpbuf_put(out, &nat->range_addr.ipv4.max, 4);
        }
    } else if (nat->range_af == AF_INET6) {
        static const struct in6_addr any;
        if (memcmp(&nat->range_addr.ipv6.min, &any, sizeof any)) {
            present |= NX_NAT_RANGE_IPV6_MIN;
            ofpbuf_put(out, &nat->range_addr.ipv6.min, 16);
        }
        if (memcmp(&nat->range_addr.ipv6.max, &any, sizeof any)) {
            present |= NX_NAT_RANGE_IPV6_MAX;
            ofpbuf_put(out, &nat->range_addr.ipv6.max, 16);
        }
    }
    uint8_t be[2];
    if (nat->proto_min) {
        present |= NX_NAT_RANGE_PROTO_MIN;
        put_be16(be, nat->proto_min);
        ofpbuf_put(out, be, 2);
    }
    if (nat->proto_max) {
        present |= NX_NAT_RANGE_PROTO_MAX;
        put_be16(be, nat->proto_max);
        ofpbuf_put(out, be, 2);
    }
    put_be16(ofpact_at(out, ofs) + 12, nat->flags);
    put_be16(ofpact_at(out, ofs) + 14, present);
    ofpact_finish_nx(out, ofs, 16);
}

void
ofpact_ct_encode(const struct ofpact *a, struct ofpbuf *out,
                 enum ofp_version version)
{
    switch (a->type) {
    case OFPACT_CT: {
        const struct ofpact_conntrack *ct = (const void *) a;
        size_t ofs = ofpact_put_nx(out, NXAST_CT, 24);
        uint8_t *p = ofpact_at(out, ofs);
        put_be16(p + 10, ct->flags);
        if (ct->zone_src.field) {
            put_be32(p + 12, mf_field_nxm_header(ct->zone_src.field));
            put_be16(p + 16, (ct->zone_src.ofs << 6)
                     | (ct->zone_src.n_bits - 1));
        } else {
            put_be16(p + 16, ct->zone_imm);
        }
        p[18] = ct->recirc_table;
        put_be16(p + 22, ct->alg);
        ofpacts_encode_nested(ct->actions, ofpact_ct_get_action_len(ct), out,
                              version);
        put_be16(ofpact_at(out, ofs) + 2, out->size - ofs);
        break;
    }
    case OFPACT_NAT:
        encode_nat((const struct ofpact_nat *) a, out);
        break;
    case OFPACT_CT_CLEAR:
        ofpact_put_nx(out, NXAST_CT_CLEAR, 16);
        break;
    default:
        ovs_abort(0, "%s: unexpected case", __func__);
    }
}

/* Text. */

static void
format_ipv6(const struct in6_addr *addr, struct ds *s)
{
    char buf[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, addr, buf, sizeof buf);
    ds_put_cstr(s, buf);
}

static void
format_nat(const struct ofpact_nat *nat, struct ds *s)
{
    ds_put_cstr(s, "nat");
    if (!(nat->flags & (NX_NAT_F_SRC | NX_NAT_F_DST))) {
        return;
    }
    ds_put_format(s, "(%s", nat->flags & NX_NAT_F_SRC ? "src" : "dst");
    if (nat->range_af == AF_INET && nat->range_addr.ipv4.min) {
        ds_put_format(s, "="IP_FMT, IP_ARGS(nat->range_addr.ipv4.min));
        if (nat->range_addr.ipv4.max
            && nat->range_addr.ipv4.max != nat->range_addr.ipv4.min) {
            ds_put_format(s, "-"IP_FMT, IP_ARGS(nat->range_addr.ipv4.max));
        }
    } else if (nat->range_af == AF_INET6) {
        static const struct in6_addr any;
        const struct in6_addr *min = &nat->range_addr.ipv6.min;
        const struct in6_addr *max = &nat->range_addr.ipv6.max;
        bool brackets = nat->proto_min != 0;
        ds_put_cstr(s, brackets ? "=[" : "=");
        format_ipv6(min, s);
        ds_put_cstr(s, brackets ? "]" : "");
        if (memcmp(max, &any, sizeof any) && memcmp(max, min, sizeof *min)) {
            ds_put_cstr(s, brackets ? "-[" : "-");
            format_ipv6(max, s);
            ds_put_cstr(s, brackets ? "]" : "");
        }
    }
    if (nat->proto_min) {
        ds_put_format(s, ":%"PRIu16, nat->proto_min);
        if (nat->proto_max && nat->proto_max != nat->proto_min) {
            ds_put_format(s, "-%"PRIu16, nat->proto_max);
        }
    }
    if (nat->flags & NX_NAT_F_PERSISTENT) {
        ds_put_cstr(s, ",persistent");
    }
    if (nat->flags & NX_NAT_F_PROTO_HASH) {
        ds_put_cstr(s, ",hash");
    }
    if (nat->flags & NX_NAT_F_PROTO_RANDOM) {
        ds_put_cstr(s, ",random");
    }
    ds_put_char(s, ')');
}

static void
format_ct(const struct ofpact_conntrack *ct,
          const struct ofputil_port_map *map,
          const struct ofputil_table_map *tables, struct ds *s)
{
    ds_put_cstr(s, "ct(");
    size_t start = s->length;
    if (ct->flags & NX_CT_F_COMMIT) {
        ds_put_cstr(s, "commit,");
    }
    if (ct->flags & NX_CT_F_FORCE) {
        ds_put_cstr(s, "force,");
    }
    if (ct->recirc_table != NX_CT_RECIRC_NONE) {
        ds_put_cstr(s, "table=");
        ofputil_format_table(ct->recirc_table, tables, s);
        ds_put_char(s, ',');
    }
    if (ct->zone_src.field) {
        ds_put_cstr(s, "zone=");
        mf_format_subfield(&ct->zone_src, s);
        ds_put_char(s, ',');
    } else if (ct->zone_imm) {
        ds_put_format(s, "zone=%"PRIu16",", ct->zone_imm);
    }
    /* A leading nat is printed on its own, the rest inside exec(). */
    const struct ofpact *actions = ct->actions;
    size_t len = ofpact_ct_get_action_len(ct);
    if (len && actions->type == OFPACT_NAT) {
        format_nat((const struct ofpact_nat *) actions, s);
        ds_put_char(s, ',');
        len -= OFPACT_ALIGN(actions->len);
        actions = ofpact_next(actions);
    }
    if (len) {
        ds_put_cstr(s, "exec(");
        ofpact_list_format(actions, len, map, tables, s);
        ds_put_cstr(s, "),");
    }
    if (ct->alg == CT_ALG_FTP) {
        ds_put_cstr(s, "alg=ftp,");
    } else if (ct->alg == CT_ALG_TFTP) {
        ds_put_cstr(s, "alg=tftp,");
    } else if (ct->alg) {
        ds_put_format(s, "alg=%"PRIu16",", ct->alg);
    }
    if (s->length > start) {
        ds_chomp(s, ',');
    }
    ds_put_char(s, ')');
}

void
ofpact_ct_format(const struct ofpact *a, const struct ofputil_port_map *map,
                 const struct ofputil_table_map *tables, struct ds *s)
{
    switch (a->type) {
    case OFPACT_CT:
        format_ct((const struct ofpact_conntrack *) a, map, tables, s);
        break;
    case OFPACT_NAT:
        format_nat((const struct ofpact_nat *) a, s);
        break;
    case OFPACT_CT_CLEAR:
        ds_put_cstr(s, "ct_clear");
        break;
    default:
        ovs_abort(0, "%s: unexpected case", __func__);
    }
}

/* Parses one address of a nat range at *SP: IPv4, or IPv6 (in brackets
 * when BRACKETED).  Advances *SP. */
static bool
parse_nat_addr(char **sp, int *af, void *addr)
{
    char *s = *sp;
    char buf[INET6_ADDRSTRLEN + 1];
    size_t n;
    if (*s == '[') {
        n = strcspn(s + 1, "]");
        if (s[1 + n] != ']' || n >= sizeof buf) {
            return false;
        }
        memcpy(buf, s + 1, n);
        buf[n] = '\0';
        if (inet_pton(AF_INET6, buf, addr) != 1
            || (*af != AF_UNSPEC && *af != AF_INET6)) {
            return false;
        }
        *af = AF_INET6;
        *sp = s + n + 2;
        return true;
    }
    /* Without brackets an IPv6 address runs to the next '-' (a colon is
     * part of it), an IPv4 one to the next '-' or ':'. */
    n = strcspn(s, "-");
    if (n < sizeof buf) {
        memcpy(buf, s, n);
        buf[n] = '\0';
        if (strchr(buf, ':') && inet_pton(AF_INET6, buf, addr) == 1
            && *af != AF_INET) {
            *af = AF_INET6;
            *sp = s + n;
            return true;
        }
    }
    n = strcspn(s, "-:");
    if (n >= sizeof buf) {
        return false;
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (inet_pton(AF_INET, buf, addr) != 1
        || (*af != AF_UNSPEC && *af != AF_INET)) {
        return false;
    }
    *af = AF_INET;
    *sp = s + n;
    return true;
}

static bool
parse_nat_port(char **sp, uint16_t *port)
{
    char *end;
    unsigned long x = strtoul(*sp, &end, 10);
    if (end == *sp || x > UINT16_MAX) {
        return false;
    }
    *port = x;
    *sp = end;
    return true;
}

/* "ADDR[-ADDR][:PORT[-PORT]]". */
static char *
parse_nat_range(char *arg, struct ofpact_nat *nat)
{
    char *s = arg;
    int af = AF_UNSPEC;
    union {
        ovs_be32 ipv4;
        struct in6_addr ipv6;
    } min, max;
    memset(&min, 0, sizeof min);
    memset(&max, 0, sizeof max);

    if (!parse_nat_addr(&s, &af, &min)) {
        return xasprintf("garbage (%s) after nat range \"%s\" (pos: %d)",
                         s, arg, (int) (s - arg));
    }
    if (*s == '-') {
        s++;
        if (!parse_nat_addr(&s, &af, &max)) {
            return xasprintf("garbage (%s) after nat range \"%s\" (pos: %d)",
                             s, arg, (int) (s - arg));
        }
    }
    if (*s == ':') {
        s++;
        if (!parse_nat_port(&s, &nat->proto_min)) {
            return xasprintf("garbage (%s) after nat range \"%s\" (pos: %d)",
                             s, arg, (int) (s - arg));
        }
        if (*s == '-') {
            s++;
            if (!parse_nat_port(&s, &nat->proto_max)) {
                return xasprintf("garbage (%s) after nat range \"%s\" "
                                 "(pos: %d)", s, arg, (int) (s - arg));
            }
        }
    }
    if (*s) {
        return xasprintf("garbage (%s) after nat range \"%s\" (pos: %d)",
                         s, arg, (int) (s - arg));
    }

    bool bad = false;
    if (af == AF_INET) {
        if (max.ipv4 && ntohl(max.ipv4) < ntohl(min.ipv4)) {
            bad = true;
        } else if (max.ipv4 == min.ipv4) {
            max.ipv4 = 0;
        }
        nat->range_addr.ipv4.min = min.ipv4;
        nat->range_addr.ipv4.max = max.ipv4;
    } else {
        static const struct in6_addr any;
        if (memcmp(&max.ipv6, &any, sizeof any)
            && memcmp(&max.ipv6, &min.ipv6, sizeof any) < 0) {
            bad = true;
        } else if (!memcmp(&max.ipv6, &min.ipv6, sizeof any)) {
            max.ipv6 = any;
        }
        nat->range_addr.ipv6.min = min.ipv6;
        nat->range_addr.ipv6.max = max.ipv6;
    }
    if (nat->proto_max && nat->proto_max < nat->proto_min) {
        bad = true;
    } else if (nat->proto_max == nat->proto_min) {
        nat->proto_max = 0;
    }
    if (bad) {
        return xasprintf("invalid nat range \"%s\"", arg);
    }
    /* An all-zero address (0.0.0.0) means none. */
    if (af == AF_INET ? !nat->range_addr.ipv4.min
        : !memcmp(&nat->range_addr.ipv6.min, &in6addr_any,
                   sizeof in6addr_any)) {
        af = AF_UNSPEC;
    }
    nat->range_af = af;
    return NULL;
}

static char *
parse_nat(char *arg, const struct ofpact_parse_ctx *ctx)
{
    if (!ctx->in_ct) {
        return xstrdup("Cannot have NAT action outside of \"ct\" action");
    }
    struct ofpbuf *ofpacts = ctx->ofpacts;
    size_t ofs = ofpacts->size;
    OFPACT_PUT(ofpacts, OFPACT_NAT, ofpact_nat);

    char *key, *value;
    while (ofputil_parse_key_value(&arg, &key, &value, NULL)) {
        struct ofpact_nat *nat = ofpbuf_at_assert(ofpacts, ofs, sizeof *nat);
        if (!strcmp(key, "src") || !strcmp(key, "dst")) {
            if (nat->flags & (NX_NAT_F_SRC | NX_NAT_F_DST)) {
                return xstrdup("May only specify one of \"src\" or "
                               "\"dst\".");
            }
            nat->flags |= !strcmp(key, "src") ? NX_NAT_F_SRC : NX_NAT_F_DST;
            if (*value) {
                char *error = parse_nat_range(value, nat);
                if (error) {
                    return error;
                }
            }
        } else if (!strcmp(key, "persistent")) {
            nat->flags |= NX_NAT_F_PERSISTENT;
        } else if (!strcmp(key, "hash")) {
            nat->flags |= NX_NAT_F_PROTO_HASH;
        } else if (!strcmp(key, "random")) {
            nat->flags |= NX_NAT_F_PROTO_RANDOM;
        } else {
            return xasprintf("invalid key \"%s\" in \"nat\" argument", key);
        }
    }
    struct ofpact_nat *nat = ofpbuf_at_assert(ofpacts, ofs, sizeof *nat);
    if (!(nat->flags & (NX_NAT_F_SRC | NX_NAT_F_DST))
        && (nat->flags || nat->range_af != AF_UNSPEC || nat->proto_min)) {
        return xstrdup("Flags allowed only with \"src\" or \"dst\".");
    }
    if ((nat->flags & NX_NAT_F_PROTO_HASH)
        && (nat->flags & NX_NAT_F_PROTO_RANDOM)) {
        return xstrdup("Both \"hash\" and \"random\" are not allowed.");
    }
    return NULL;
}

static char *
parse_ct(char *arg, const struct ofpact_parse_ctx *ctx)
{
    struct ofpbuf *ofpacts = ctx->ofpacts;
    size_t ofs = ofpacts->size;
    struct ofpact_conntrack *ct = ofpact_put(ofpacts, OFPACT_CT, sizeof *ct);
    ct->recirc_table = NX_CT_RECIRC_NONE;
    struct ofpact_parse_ctx nested = *ctx;
    nested.in_ct = true;

    char *key, *value, *error = NULL;
    while (!error && ofputil_parse_key_value(&arg, &key, &value, NULL)) {
        ct = ofpbuf_at_assert(ofpacts, ofs, sizeof *ct);
        if (!strcmp(key, "commit")) {
            ct->flags |= NX_CT_F_COMMIT;
        } else if (!strcmp(key, "force")) {
            ct->flags |= NX_CT_F_FORCE;
        } else if (!strcmp(key, "table")) {
            uint8_t table;
            if (!ofputil_table_from_string(value, ctx->table_map, &table)) {
                error = xasprintf("unknown table %s", value);
            } else if (table == NX_CT_RECIRC_NONE) {
                error = xasprintf("invalid table %#"PRIx8, table);
            } else {
                ct->recirc_table = table;
            }
        } else if (!strcmp(key, "zone")) {
            uint64_t x;
            char *num_error = ofputil_parse_uint(value, UINT16_MAX, &x);
            if (!num_error) {
                ct->zone_imm = x;
                ct->zone_src.field = NULL;
            } else {
                free(num_error);
                error = mf_parse_subfield(&ct->zone_src, value);
            }
        } else if (!strcmp(key, "alg")) {
            if (!strcmp(value, "ftp")) {
                ct->alg = CT_ALG_FTP;
            } else if (!strcmp(value, "tftp")) {
                ct->alg = CT_ALG_TFTP;
            } else {
                error = xasprintf("invalid conntrack helper \"%s\"", value);
            }
        } else if (!strcmp(key, "nat")) {
            error = parse_nat(value, &nested);
        } else if (!strcmp(key, "exec")) {
            size_t before = ofpacts->size;
            error = ofpacts_parse_nested(value, &nested);
            if (!error) {
                const struct ofpact *a;
                OFPACT_FOR_EACH (a, (const struct ofpact *)
                                 ((uint8_t *) ofpacts->data + before),
                                 ofpacts->size - before) {
                    if (ct_may_nest(a)) {
                        continue;
                    }
                    const struct mf_field *dst = nested_dst_field(a);
                    if (dst) {
                        error = xasprintf(
                            "ct action doesn't support nested modification "
                            "of %s", dst->name);
                    } else {
                        error = xasprintf("ct action doesn't support nested "
                                          "action %s", ofpact_name(a->type));
                    }
                    break;
                }
            }
        } else {
            error = xasprintf("invalid argument to \"ct\" action: `%s'", key);
        }
    }
    if (error) {
        return error;
    }
    ct = ofpbuf_at_assert(ofpacts, ofs, sizeof *ct);
    if ((ct->flags & NX_CT_F_FORCE) && !(ct->flags & NX_CT_F_COMMIT)) {
        return xstrdup("\"force\" flag requires \"commit\" flag.");
    }
    ofpact_finish(ofpacts, &ct->ofpact);
    return NULL;
}

char *
ofpact_ct_parse(const char *key, char *arg,
                const struct ofpact_parse_ctx *ctx)
{
    if (!strcmp(key, "ct")) {
        return parse_ct(arg, ctx);
    } else if (!strcmp(key, "nat")) {
        return parse_nat(arg, ctx);
    } else {
        OFPACT_PUT(ctx->ofpacts, OFPACT_CT_CLEAR, ofpact);
        return NULL;
    }
}

/* Checks. */

static bool
match_dl_type_is(const struct match *m, uint16_t dl_type)
{
    return (m->wc.masks.dl_type == OVS_BE16_MAX
            && m->flow.dl_type == htons(dl_type));
}

static bool
match_nw_proto_is(const struct match *m, uint8_t proto)
{
    return m->wc.masks.nw_proto == UINT8_MAX && m->flow.nw_proto == proto;
}

static enum ofperr
check_nat(const struct ofpact_nat *nat, bool ip4, bool ip6)
{
    if ((!ip4 && !ip6)
        || (nat->range_af == AF_INET && !ip4)
        || (nat->range_af == AF_INET6 && !ip6)) {
        return OFPERR_OFPBAC_MATCH_INCONSISTENT;
    }
    return 0;
}

enum ofperr
ofpact_ct_check(const struct ofpact *a, struct match *m)
{
    bool ip4 = match_dl_type_is(m, ETH_TYPE_IP);
    bool ip6 = match_dl_type_is(m, ETH_TYPE_IPV6);

    switch (a->type) {
    case OFPACT_CT: {
        const struct ofpact_conntrack *ct = (const void *) a;
        if (!ip4 && !ip6) {
            return OFPERR_OFPBAC_MATCH_INCONSISTENT;
        }
        if ((ct->alg == CT_ALG_FTP && !match_nw_proto_is(m, IPPROTO_TCP))
            || (ct->alg == CT_ALG_TFTP
                && !match_nw_proto_is(m, IPPROTO_UDP))) {
            return OFPERR_OFPBAC_MATCH_INCONSISTENT;
        }
        if (ct->zone_src.field) {
            enum ofperr error = mf_check_src(&ct->zone_src, m);
            if (error) {
                return error;
            }
        }
        const struct ofpact *n;
        OFPACT_FOR_EACH (n, ct->actions, ofpact_ct_get_action_len(ct)) {
            enum ofperr error = (n->type == OFPACT_NAT
                                 ? check_nat((const void *) n, ip4, ip6)
                                 : ofpacts_check_prereqs(n,
                                                         OFPACT_ALIGN(n->len),
                                                         m));
            if (error) {
                return error;
            }
        }
        return 0;
    }
    case OFPACT_NAT:
        /* Only inside ct. */
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    default:
        return 0;
    }
}
