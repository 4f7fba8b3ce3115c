/* ofp-actions-mpls: push_mpls, pop_mpls, set_mpls_label, set_mpls_tc,
 * set_mpls_ttl and dec_mpls_ttl, as Nicira actions in OpenFlow 1.0,
 * OpenFlow 1.1's standard actions, and from 1.2 on set_field for the label
 * and TC with the standard TTL, push and pop actions (see
 * ofp-actions-private.h for the family interface). */
#include <config.h>
#include "ofp-actions-private.h"

#include <stdlib.h>
#include <string.h>
#include "be-bytes.h"
#include "dynamic-string.h"
#include "match.h"
#include "ofp-parse.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"
#include "packets.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_actions_mpls);

#define MPLS_LABEL_MAX 0xfffff
#define MPLS_TC_MAX 7

static bool
eth_type_mpls(uint16_t ethertype)
{
    return ethertype == ETH_TYPE_MPLS || ethertype == ETH_TYPE_MPLS_MCAST;
}

static enum ofperr
put_push_pop(struct ofpbuf *ofpacts, enum ofpact_type type,
             uint16_t ethertype)
{
    if (type == OFPACT_PUSH_MPLS && !eth_type_mpls(ethertype)) {
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }
    OFPACT_PUT(ofpacts, type, ofpact_mpls_ethertype)->ethertype
        = htons(ethertype);
    return 0;
}

static enum ofperr
put_label(struct ofpbuf *ofpacts, uint32_t label)
{
    if (label > MPLS_LABEL_MAX) {
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }
    OFPACT_PUT(ofpacts, OFPACT_SET_MPLS_LABEL, ofpact_mpls_label)->label
        = label;
    return 0;
}

static enum ofperr
put_tc(struct ofpbuf *ofpacts, uint8_t tc)
{
    if (tc > MPLS_TC_MAX) {
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }
    OFPACT_PUT(ofpacts, OFPACT_SET_MPLS_TC, ofpact_mpls_tc)->tc = tc;
    return 0;
}

enum ofperr
ofpact_mpls_decode_nx(uint16_t subtype, const uint8_t *p,
                      size_t len OVS_UNUSED, enum ofp_version version OVS_UNUSED,
                      struct ofpbuf *ofpacts)
{
    switch (subtype) {
    case NXAST_PUSH_MPLS:
    case NXAST_POP_MPLS:
        if (!ofpact_is_all_zeros(p + 12, 4)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        return put_push_pop(ofpacts, (subtype == NXAST_PUSH_MPLS
                                      ? OFPACT_PUSH_MPLS : OFPACT_POP_MPLS),
                            get_be16(p + 10));
    case NXAST_SET_MPLS_LABEL:
        if (!ofpact_is_all_zeros(p + 10, 2)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        return put_label(ofpacts, get_be32(p + 12));
    case NXAST_SET_MPLS_TC:
    case NXAST_SET_MPLS_TTL:
        if (!ofpact_is_all_zeros(p + 11, 5)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        if (subtype == NXAST_SET_MPLS_TC) {
            return put_tc(ofpacts, p[10]);
        }
        OFPACT_PUT(ofpacts, OFPACT_SET_MPLS_TTL, ofpact_mpls_ttl)->ttl
            = p[10];
        return 0;
    case NXAST_DEC_MPLS_TTL:
        if (!ofpact_is_all_zeros(p + 10, 6)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        OFPACT_PUT(ofpacts, OFPACT_DEC_MPLS_TTL, ofpact);
        return 0;
    }
    return OFPERR_OFPBAC_BAD_VENDOR_TYPE;
}

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

enum ofperr
ofpact_mpls_decode_std(uint16_t type, const uint8_t *p, size_t len,
                       enum ofp_version version, struct ofpbuf *ofpacts)
{
    if (len != 8) {
        return OFPERR_OFPBAC_BAD_LEN;
    }
    switch (type) {
    case OFPAT11_SET_MPLS_LABEL:
    case OFPAT11_SET_MPLS_TC:
        /* 1.2 replaced these by set_field. */
        if (version != OFP11_VERSION) {
            return OFPERR_OFPBAC_BAD_TYPE;
        }
        return (type == OFPAT11_SET_MPLS_LABEL
                ? put_label(ofpacts, get_be32(p + 4))
                : put_tc(ofpacts, p[4]));
    case OFPAT11_SET_MPLS_TTL:
        if (version >= OFP12_VERSION) {
            VLOG_INFO_RL(&rl, "OFPAT_SET_MPLS_TTL is deprecated in %s (use "
                         "Set-Field)", ofputil_version_to_string(version));
        }
        OFPACT_PUT(ofpacts, OFPACT_SET_MPLS_TTL, ofpact_mpls_ttl)->ttl = p[4];
        return 0;
    case OFPAT11_DEC_MPLS_TTL:
        OFPACT_PUT(ofpacts, OFPACT_DEC_MPLS_TTL, ofpact);
        return 0;
    case OFPAT11_PUSH_MPLS:
    case OFPAT11_POP_MPLS:
        return put_push_pop(ofpacts, (type == OFPAT11_PUSH_MPLS
                                      ? OFPACT_PUSH_MPLS : OFPACT_POP_MPLS),
                            get_be16(p + 4));
    }
    return OFPERR_OFPBAC_BAD_TYPE;
}

void
ofpact_mpls_encode(const struct ofpact *a, struct ofpbuf *out,
                   enum ofp_version version)
{
    bool v10 = version == OFP10_VERSION;
    size_t ofs;
    uint8_t *p;

    switch (a->type) {
    case OFPACT_PUSH_MPLS:
    case OFPACT_POP_MPLS: {
        bool push = a->type == OFPACT_PUSH_MPLS;
        ovs_be16 ethertype = ((const struct ofpact_mpls_ethertype *) a)
                             ->ethertype;
        if (v10) {
            ofs = ofpact_put_nx(out, push ? NXAST_PUSH_MPLS : NXAST_POP_MPLS,
                                16);
            memcpy(ofpact_at(out, ofs) + 10, &ethertype, 2);
        } else {
            p = ofpact_put_std(out, push ? OFPAT11_PUSH_MPLS
                               : OFPAT11_POP_MPLS, 8);
            memcpy(p + 4, &ethertype, 2);
        }
        break;
    }
    case OFPACT_SET_MPLS_LABEL: {
        uint32_t label = ((const struct ofpact_mpls_label *) a)->label;
        if (v10) {
            ofs = ofpact_put_nx(out, NXAST_SET_MPLS_LABEL, 16);
            put_be32(ofpact_at(out, ofs) + 12, label);
        } else if (version == OFP11_VERSION) {
            p = ofpact_put_std(out, OFPAT11_SET_MPLS_LABEL, 8);
            put_be32(p + 4, label);
        } else {
            union mf_value v;
            memset(&v, 0, sizeof v);
            v.be32 = htonl(label);
            ofpact_encode_set_field_value(mf_from_name("mpls_label"), &v,
                                          NULL, out, version);
        }
        break;
    }
    case OFPACT_SET_MPLS_TC: {
        uint8_t tc = ((const struct ofpact_mpls_tc *) a)->tc;
        if (v10) {
            ofs = ofpact_put_nx(out, NXAST_SET_MPLS_TC, 16);
            ofpact_at(out, ofs)[10] = tc;
        } else if (version == OFP11_VERSION) {
            p = ofpact_put_std(out, OFPAT11_SET_MPLS_TC, 8);
            p[4] = tc;
        } else {
            union mf_value v;
            memset(&v, 0, sizeof v);
            v.u8 = tc;
            ofpact_encode_set_field_value(mf_from_name("mpls_tc"), &v, NULL,
                                          out, version);
        }
        break;
    }
    case OFPACT_SET_MPLS_TTL: {
        uint8_t ttl = ((const struct ofpact_mpls_ttl *) a)->ttl;
        if (v10) {
            ofs = ofpact_put_nx(out, NXAST_SET_MPLS_TTL, 16);
            ofpact_at(out, ofs)[10] = ttl;
        } else {
            p = ofpact_put_std(out, OFPAT11_SET_MPLS_TTL, 8);
            p[4] = ttl;
        }
        break;
    }
    case OFPACT_DEC_MPLS_TTL:
        if (v10) {
            ofpact_put_nx(out, NXAST_DEC_MPLS_TTL, 16);
        } else {
            ofpact_put_std(out, OFPAT11_DEC_MPLS_TTL, 8);
        }
        break;
    default:
        ovs_abort(0, "%s: unexpected case", __func__);
    }
}

void
ofpact_mpls_format(const struct ofpact *a,
                   const struct ofputil_port_map *map OVS_UNUSED,
                   const struct ofputil_table_map *tables OVS_UNUSED,
                   struct ds *s)
{
    switch (a->type) {
    case OFPACT_PUSH_MPLS:
    case OFPACT_POP_MPLS:
        ds_put_format(s, "%s:0x%04"PRIx16, ofpact_name(a->type),
                      ntohs(((const struct ofpact_mpls_ethertype *) a)
                            ->ethertype));
        break;
    case OFPACT_SET_MPLS_LABEL:
        ds_put_format(s, "set_mpls_label(%"PRIu32")",
                      ((const struct ofpact_mpls_label *) a)->label);
        break;
    case OFPACT_SET_MPLS_TC:
        ds_put_format(s, "set_mpls_tc(%"PRIu8")",
                      ((const struct ofpact_mpls_tc *) a)->tc);
        break;
    case OFPACT_SET_MPLS_TTL:
        ds_put_format(s, "set_mpls_ttl(%"PRIu8")",
                      ((const struct ofpact_mpls_ttl *) a)->ttl);
        break;
    case OFPACT_DEC_MPLS_TTL:
        ds_put_cstr(s, "dec_mpls_ttl");
        break;
    default:
        ovs_abort(0, "%s: unexpected case", __func__);
    }
}

char *
ofpact_mpls_parse(const char *key, char *arg,
                  const struct ofpact_parse_ctx *ctx)
{
    struct ofpbuf *ofpacts = ctx->ofpacts;
    uint64_t x;
    char *error;

    if (!strcmp(key, "push_mpls") || !strcmp(key, "pop_mpls")) {
        error = ofputil_parse_uint(arg, UINT16_MAX, &x);
        if (error) {
            free(error);
            return xasprintf("invalid %s \"%s\"", key, arg);
        }
        /* A push of a non-MPLS type is refused when decoded, as by 3.1. */
        OFPACT_PUT(ofpacts, (!strcmp(key, "push_mpls")
                             ? OFPACT_PUSH_MPLS : OFPACT_POP_MPLS),
                   ofpact_mpls_ethertype)->ethertype = htons(x);
    } else if (!strcmp(key, "set_mpls_label")) {
        error = ofputil_parse_uint(arg, UINT32_MAX, &x);
        if (error) {
            free(error);
            return xasprintf("invalid numeric format %s", arg);
        }
        if (x > MPLS_LABEL_MAX) {
            return xasprintf("%s: not a valid MPLS label", arg);
        }
        put_label(ofpacts, x);
    } else if (!strcmp(key, "set_mpls_tc")) {
        error = ofputil_parse_uint(arg, UINT8_MAX, &x);
        if (error || x > MPLS_TC_MAX) {
            free(error);
            return xasprintf("%s: not a valid MPLS TC", arg);
        }
        put_tc(ofpacts, x);
    } else if (!strcmp(key, "set_mpls_ttl")) {
        error = ofputil_parse_uint(arg, UINT8_MAX, &x);
        if (error) {
            free(error);
            return xasprintf("invalid MPLS TTL \"%s\"", arg);
        }
        OFPACT_PUT(ofpacts, OFPACT_SET_MPLS_TTL, ofpact_mpls_ttl)->ttl = x;
    } else {
        OFPACT_PUT(ofpacts, OFPACT_DEC_MPLS_TTL, ofpact);
    }
    return NULL;
}

enum ofperr
ofpact_mpls_check(const struct ofpact *a, struct match *m)
{
    /* What the packet is after the action, for the actions that follow
     * (their usable protocols depend on it; ofp-parse.c). */
    if (a->type == OFPACT_PUSH_MPLS || a->type == OFPACT_POP_MPLS) {
        m->flow.dl_type = ((const struct ofpact_mpls_ethertype *) a)
                          ->ethertype;
        m->wc.masks.dl_type = OVS_BE16_MAX;
    }
    return 0;
}
