/* ofp-actions-encap: encap (NXAST_ENCAP: Ethernet, NSH with its md_type
 * and TLV properties, MPLS), decap (NXAST_DECAP) and dec_nsh_ttl
 * (NXAST_DEC_NSH_TTL), which Open vSwitch 3.1 reads only in OpenFlow 1.3
 * and later (see ofp-actions-private.h for the family interface). */
#include <config.h>
#include "ofp-actions-private.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "be-bytes.h"
#include "dynamic-string.h"
#include "match.h"
#include "ofp-parse.h"
#include "ofpbuf.h"
#include "util.h"

/* Encap property class and types (NSH's). */
#define ED_PROP_CLASS_NSH 4
#define ED_PROP_NSH_MD_TYPE 1
#define ED_PROP_NSH_TLV 2

/* Walks the properties in PROPS (LEN bytes), checking each; returns 0 or
 * the error. */
static enum ofperr
check_props(const uint8_t *props, size_t len)
{
    while (len) {
        if (len < 4) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        uint16_t class = get_be16(props);
        uint8_t type = props[2], plen = props[3];
        if (plen < 4 || ROUND_UP(plen, 8) > len) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        if (class != ED_PROP_CLASS_NSH) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        if (type == ED_PROP_NSH_MD_TYPE) {
            if (plen != 5 || (props[4] != 1 && props[4] != 2)) {
                return OFPERR_OFPBAC_BAD_ARGUMENT;
            }
        } else if (type == ED_PROP_NSH_TLV) {
            if (plen < 8 || 8 + ROUND_UP(props[7], 8) != plen) {
                return OFPERR_OFPBAC_BAD_LEN;
            }
        } else {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        props += ROUND_UP(plen, 8);
        len -= ROUND_UP(plen, 8);
    }
    return 0;
}

enum ofperr
ofpact_encap_decode_nx(uint16_t subtype, const uint8_t *p, size_t len,
                       enum ofp_version version OVS_UNUSED,
                       struct ofpbuf *ofpacts)
{
    uint32_t new_pkt_type = get_be32(p + 12);
    switch (subtype) {
    case NXAST_ENCAP: {
        if (new_pkt_type != PT_ETH && new_pkt_type != PT_NSH
            && new_pkt_type != PT_MPLS && new_pkt_type != PT_MPLS_MC) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        enum ofperr error = check_props(p + 16, len - 16);
        if (error) {
            return error;
        }
        if (new_pkt_type != PT_NSH && len > 16) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        struct ofpact_encap *e = ofpact_put(ofpacts, OFPACT_ENCAP,
                                            sizeof *e);
        e->new_pkt_type = new_pkt_type;
        e->props_len = len - 16;
        ofpbuf_put(ofpacts, p + 16, len - 16);
        ofpact_finish(ofpacts, ofpacts->header);
        return 0;
    }
    case NXAST_DECAP:
        if (!ofpact_is_all_zeros(p + 10, 2)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        OFPACT_PUT(ofpacts, OFPACT_DECAP, ofpact_decap)->new_pkt_type
            = new_pkt_type;
        return 0;
    case NXAST_DEC_NSH_TTL:
        OFPACT_PUT(ofpacts, OFPACT_DEC_NSH_TTL, ofpact);
        return 0;
    }
    return OFPERR_OFPBAC_BAD_VENDOR_TYPE;
}

void
ofpact_encap_encode(const struct ofpact *a, struct ofpbuf *out,
                    enum ofp_version version OVS_UNUSED)
{
    size_t ofs;
    switch (a->type) {
    case OFPACT_ENCAP: {
        const struct ofpact_encap *e = (const void *) a;
        ofs = ofpact_put_nx(out, NXAST_ENCAP, 16);
        put_be32(ofpact_at(out, ofs) + 12, e->new_pkt_type);
        ofpbuf_put(out, e->props, e->props_len);
        put_be16(ofpact_at(out, ofs) + 2, out->size - ofs);
        break;
    }
    case OFPACT_DECAP:
        ofs = ofpact_put_nx(out, NXAST_DECAP, 16);
        put_be32(ofpact_at(out, ofs) + 12,
                 ((const struct ofpact_decap *) a)->new_pkt_type);
        break;
    case OFPACT_DEC_NSH_TTL:
        ofpact_put_nx(out, NXAST_DEC_NSH_TTL, 16);
        break;
    default:
        ovs_abort(0, "%s: unexpected case", __func__);
    }
}

static const char *
encap_header_name(uint32_t pkt_type)
{
    switch (pkt_type) {
    case PT_ETH: return "ethernet";
    case PT_NSH: return "nsh";
    case PT_MPLS: return "mpls";
    case PT_MPLS_MC: return "mpls_mc";
    default: return NULL;
    }
}

static void
format_props(const uint8_t *props, size_t len, struct ds *s)
{
    while (len >= 4) {
        uint8_t type = props[2], plen = props[3];
        if (type == ED_PROP_NSH_MD_TYPE) {
            ds_put_format(s, "md_type=%"PRIu8",", props[4]);
        } else if (type == ED_PROP_NSH_TLV) {
            ds_put_format(s, "tlv(%#"PRIx16",%"PRIu8",0x", get_be16(props + 4),
                          props[6]);
            for (unsigned int i = 0; i < props[7]; i++) {
                ds_put_format(s, "%02"PRIx8, props[8 + i]);
            }
            ds_put_cstr(s, "),");
        }
        props += ROUND_UP(plen, 8);
        len -= ROUND_UP(plen, 8);
    }
}

void
ofpact_encap_format(const struct ofpact *a,
                    const struct ofputil_port_map *map OVS_UNUSED,
                    const struct ofputil_table_map *tables OVS_UNUSED,
                    struct ds *s)
{
    switch (a->type) {
    case OFPACT_ENCAP: {
        const struct ofpact_encap *e = (const void *) a;
        const char *name = encap_header_name(e->new_pkt_type);
        ds_put_cstr(s, "encap(");
        if (name) {
            ds_put_cstr(s, name);
        } else {
            ds_put_format(s, "packet_type(ns=%"PRIu32",type=%#"PRIx32")",
                          e->new_pkt_type >> 16, e->new_pkt_type & 0xffff);
        }
        if (e->props_len) {
            ds_put_char(s, '(');
            format_props(e->props, e->props_len, s);
            ds_chomp(s, ',');
            ds_put_char(s, ')');
        }
        ds_put_char(s, ')');
        break;
    }
    case OFPACT_DECAP: {
        uint32_t t = ((const struct ofpact_decap *) a)->new_pkt_type;
        if (t == PT_USE_NEXT_PROTO) {
            ds_put_cstr(s, "decap()");
        } else {
            ds_put_format(s, "decap(packet_type(ns=%"PRIu32",type=%#"PRIx32
                          "))", t >> 16, t & 0xffff);
        }
        break;
    }
    case OFPACT_DEC_NSH_TTL:
        ds_put_cstr(s, "dec_nsh_ttl");
        break;
    default:
        ovs_abort(0, "%s: unexpected case", __func__);
    }
}

/* Appends an NSH property of TYPE with the LEN bytes at VALUE (an md_type
 * byte, or a TLV's class, type, length and value) to OFPACTS, padded. */
static void
put_prop(struct ofpbuf *ofpacts, uint8_t type, const void *value,
         size_t len, size_t plen)
{
    uint8_t hdr[4] = { 0, ED_PROP_CLASS_NSH, type, plen };
    ofpbuf_put(ofpacts, hdr, 4);
    ofpbuf_put(ofpacts, value, len);
    ofpbuf_put_zeros(ofpacts, ROUND_UP(4 + len, 8) - 4 - len);
}

/* "tlv(CLASS,TYPE,0xVALUE)". */
static char *
parse_tlv(char *arg, struct ofpbuf *ofpacts)
{
    unsigned int class, type;
    int n = 0;
    char hex[2 * 255 + 1];
    if (sscanf(arg, "%i,%i,0x%510[0-9a-fA-F]%n", &class, &type, hex, &n) != 3
        || arg[n] || class > UINT16_MAX || type > UINT8_MAX) {
        return xasprintf("Invalid NSH TLV header: %s", arg);
    }
    size_t len = (strlen(hex) + 1) / 2;
    uint8_t value[4 + 255];
    put_be16(value, class);
    value[2] = type;
    value[3] = len;
    /* An odd number of digits: the first byte has one. */
    const char *h = hex;
    for (size_t i = 0; i < len; i++) {
        char byte[3] = { 0 };
        size_t digits = (i == 0 && strlen(hex) % 2) ? 1 : 2;
        memcpy(byte, h, digits);
        h += digits;
        value[4 + i] = strtoul(byte, NULL, 16);
    }
    put_prop(ofpacts, ED_PROP_NSH_TLV, value, 4 + len,
             8 + ROUND_UP(len, 8));
    return NULL;
}

static char *
parse_nsh_props(char *arg, struct ofpbuf *ofpacts)
{
    char *key, *value;
    while (ofputil_parse_key_value(&arg, &key, &value, NULL)) {
        if (!strcmp(key, "md_type")) {
            if (strcmp(value, "1") && strcmp(value, "2")) {
                return xstrdup("invalid md_type");
            }
            uint8_t md_type = atoi(value);
            put_prop(ofpacts, ED_PROP_NSH_MD_TYPE, &md_type, 1, 5);
        } else if (!strcmp(key, "tlv")) {
            char *error = parse_tlv(value, ofpacts);
            if (error) {
                return error;
            }
        } else {
            return xasprintf("Invalid property: %s", key);
        }
    }
    return NULL;
}

static char *
parse_encap(char *arg, const struct ofpact_parse_ctx *ctx)
{
    struct ofpbuf *ofpacts = ctx->ofpacts;
    char *key, *value;
    char sep;
    if (!ofputil_parse_key_value(&arg, &key, &value, &sep)) {
        return xstrdup("Missing encap hdr: ");
    }
    static const struct {
        const char *name;
        uint32_t pkt_type;
    } headers[] = {
        { "ethernet", PT_ETH }, { "nsh", PT_NSH }, { "mpls", PT_MPLS },
        { "mpls_mc", PT_MPLS_MC },
    };
    size_t i;
    for (i = 0; i < ARRAY_SIZE(headers); i++) {
        if (!strcmp(key, headers[i].name)) {
            break;
        }
    }
    if (i == ARRAY_SIZE(headers)) {
        return xasprintf("Encap hdr not supported: %s", value);
    }
    size_t ofs = ofpacts->size;
    struct ofpact_encap *e = ofpact_put(ofpacts, OFPACT_ENCAP, sizeof *e);
    e->new_pkt_type = headers[i].pkt_type;
    if (headers[i].pkt_type == PT_NSH && sep == '(') {
        char *error = parse_nsh_props(value, ofpacts);
        if (error) {
            return error;
        }
    }
    e = ofpbuf_at_assert(ofpacts, ofs, sizeof *e);
    e->props_len = ofpacts->size - ofs - sizeof *e;
    ofpact_finish(ofpacts, &e->ofpact);
    return NULL;
}

static char *
parse_decap(char *arg, const struct ofpact_parse_ctx *ctx)
{
    uint32_t pkt_type = PT_USE_NEXT_PROTO;
    char *key, *value;
    if (ofputil_parse_key_value(&arg, &key, &value, NULL)) {
        if (strcmp(key, "packet_type")) {
            return xasprintf("Invalid decap argument: %s", key);
        }
        int ns = -1, type = -1;
        char *k, *v;
        while (ofputil_parse_key_value(&value, &k, &v, NULL)) {
            if (!strcmp(k, "ns")) {
                ns = strtol(v, NULL, 0);
            } else if (!strcmp(k, "type")) {
                type = strtol(v, NULL, 0);
            }
        }
        if (ns < 0) {
            return xstrdup("Missing packet_type attribute ns");
        } else if (type < 0) {
            return xstrdup("Missing packet_type attribute type");
        }
        pkt_type = PACKET_TYPE(ns & 0xffff, type & 0xffff);
    }
    OFPACT_PUT(ctx->ofpacts, OFPACT_DECAP, ofpact_decap)->new_pkt_type
        = pkt_type;
    return NULL;
}

char *
ofpact_encap_parse(const char *key, char *arg,
                   const struct ofpact_parse_ctx *ctx)
{
    if (!strcmp(key, "encap")) {
        return parse_encap(arg, ctx);
    } else if (!strcmp(key, "decap")) {
        return parse_decap(arg, ctx);
    } else {
        OFPACT_PUT(ctx->ofpacts, OFPACT_DEC_NSH_TTL, ofpact);
        return NULL;
    }
}

enum ofperr
ofpact_encap_check(const struct ofpact *a OVS_UNUSED,
                   struct match *m OVS_UNUSED)
{
    /* What the packet is after an encap or decap is not tracked in the
     * match: 3.1 does not either, beyond what usable protocols say. */
    return 0;
}
