/* bundle: the Nicira bundle and bundle_load actions, NXAST_BUNDLE and
 * NXAST_BUNDLE_LOAD (struct ofpact_bundle): one of a list of member ports,
 * the first live one (active_backup) or by a hash of the packet (hrw), as
 * the output port or loaded into a field.  The codec; see
 * ofp-actions-private.h for the family interface. */
#include <config.h>
#include "ofp-actions-private.h"

#include <stdlib.h>
#include <string.h>
#include "be-bytes.h"
#include "dynamic-string.h"
#include "match.h"
#include "nx-match.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "text-parse.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(bundle);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

/* The member type: OpenFlow ports, named by NXM_OF_IN_PORT's header. */
#define BUNDLE_MEMBER_TYPE_OFPORT 0x00000002

enum ofperr
bundle_decode_nx(uint16_t subtype, const uint8_t *p, size_t len,
                 enum ofp_version version OVS_UNUSED, struct ofpbuf *ofpacts)
{
    uint16_t algorithm = get_be16(p + 10);
    uint16_t fields = get_be16(p + 12);
    uint16_t basis = get_be16(p + 14);
    uint32_t member_type = get_be32(p + 16);
    uint16_t n_members = get_be16(p + 20);
    uint16_t ofs_nbits = get_be16(p + 22);
    uint32_t dst_header = get_be32(p + 24);

    if (!ofpact_is_all_zeros(p + 28, 4)) {
        return OFPERR_NXBRC_MUST_BE_ZERO;
    }
    if (algorithm != NX_BD_ALG_ACTIVE_BACKUP && algorithm != NX_BD_ALG_HRW) {
        VLOG_WARN_RL(&rl, "unsupported algorithm %"PRIu16, algorithm);
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }
    if (fields > NX_HASH_FIELDS_SYMMETRIC_L3) {
        VLOG_WARN_RL(&rl, "unsupported fields %"PRIu16, fields);
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }
    if (member_type != BUNDLE_MEMBER_TYPE_OFPORT) {
        VLOG_WARN_RL(&rl, "unsupported member type %"PRIu32, member_type);
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }
    if (32 + 2 * (size_t) n_members > len) {
        VLOG_WARN_RL(&rl, "Nicira action bundle only has %zu bytes "
                     "allocated for members.  %zu bytes are required for "
                     "%"PRIu16" members.", len - 32,
                     2 * (size_t) n_members, n_members);
        return OFPERR_OFPBAC_BAD_LEN;
    }

    struct mf_subfield dst = { NULL, 0, 0 };
    if (subtype == NXAST_BUNDLE_LOAD) {
        uint8_t hdr[4];
        put_be32(hdr, dst_header);
        size_t hdr_len;
        enum ofperr error = ofpact_decode_subfield(hdr, 4, ofs_nbits >> 6,
                                                   (ofs_nbits & 63) + 1,
                                                   &dst, &hdr_len);
        if (!error) {
            error = mf_check_dst(&dst, NULL);
        }
        if (error) {
            return error;
        }
        if (dst.n_bits < 16) {
            VLOG_WARN_RL(&rl, "bundle_load action requires at least 16 bit "
                         "destination.");
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
    } else if (ofs_nbits || dst_header) {
        VLOG_WARN_RL(&rl, "bundle action has nonzero reserved fields");
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }

    struct ofpact_bundle *b = ofpact_put(ofpacts, OFPACT_BUNDLE, sizeof *b);
    b->algorithm = algorithm;
    b->fields = fields;
    b->basis = basis;
    b->dst = dst;
    for (uint16_t i = 0; i < n_members; i++) {
        uint32_t port = get_be16(p + 32 + 2 * i);
        ofpbuf_put(ofpacts, &port, sizeof port);
    }
    b = ofpacts->header;
    b->n_members = n_members;
    ofpact_finish(ofpacts, &b->ofpact);
    return 0;
}

void
bundle_encode(const struct ofpact *a, struct ofpbuf *out,
              enum ofp_version version OVS_UNUSED)
{
    const struct ofpact_bundle *b = (const void *) a;
    size_t ofs = ofpact_put_nx(out, (b->dst.field ? NXAST_BUNDLE_LOAD
                                     : NXAST_BUNDLE), 32);
    uint8_t *p = ofpact_at(out, ofs);
    put_be16(p + 10, b->algorithm);
    put_be16(p + 12, b->fields);
    put_be16(p + 14, b->basis);
    put_be32(p + 16, BUNDLE_MEMBER_TYPE_OFPORT);
    put_be16(p + 20, b->n_members);
    if (b->dst.field) {
        put_be16(p + 22, (b->dst.ofs << 6) | (b->dst.n_bits - 1));
        put_be32(p + 24, mf_field_nxm_header(b->dst.field));
    }
    for (uint16_t i = 0; i < b->n_members; i++) {
        uint8_t be[2];
        put_be16(be, b->members[i]);
        ofpbuf_put(out, be, 2);
    }
    ofpact_finish_nx(out, ofs, 32);
}

void
bundle_format(const struct ofpact *a, const struct ofputil_port_map *map,
              const struct ofputil_table_map *tables OVS_UNUSED, struct ds *s)
{
    const struct ofpact_bundle *b = (const void *) a;
    ds_put_format(s, "%s(%s,%"PRIu16",%s,ofport,",
                  b->dst.field ? "bundle_load" : "bundle",
                  nx_hash_fields_to_string(b->fields), b->basis,
                  (b->algorithm == NX_BD_ALG_HRW ? "hrw"
                   : b->algorithm == NX_BD_ALG_ACTIVE_BACKUP
                   ? "active_backup" : "<unknown>"));
    if (b->dst.field) {
        mf_format_subfield(&b->dst, s);
        ds_put_char(s, ',');
    }
    ds_put_cstr(s, "members:");
    for (uint16_t i = 0; i < b->n_members; i++) {
        if (i) {
            ds_put_char(s, ',');
        }
        ofputil_format_port(b->members[i], map, s);
    }
    ds_put_char(s, ')');
}

/* "FIELDS, BASIS, ALGORITHM, ofport, [DST,] members:PORT..." */
char *
bundle_parse(const char *key, char *arg, const struct ofpact_parse_ctx *ctx)
{
    bool load = !strcmp(key, "bundle_load");
    char *copy = xstrdup(arg), *save = NULL, *error = NULL;
    const char *delims = ", ";
    char *fields = strtok_r(arg, delims, &save);
    char *basis = strtok_r(NULL, delims, &save);
    char *algorithm = strtok_r(NULL, delims, &save);
    char *member_type = strtok_r(NULL, delims, &save);
    char *dst_s = load ? strtok_r(NULL, delims, &save) : NULL;
    char *members = strtok_r(NULL, ": ", &save);
    struct ofpbuf *ofpacts = ctx->ofpacts;
    size_t ofs = ofpacts->size;

    if (!members) {
        error = xasprintf("%s: not enough arguments to %s action", copy, key);
        goto out;
    }
    if (strcasecmp(members, "members") && strcasecmp(members, "slaves")) {
        error = xasprintf("%s: missing member delimiter, expected `members', "
                          "got `%s'", copy, members);
        goto out;
    }

    struct ofpact_bundle *b = ofpact_put(ofpacts, OFPACT_BUNDLE, sizeof *b);
    uint16_t n = 0;
    /* The ports may be in brackets: "members:[2,3]". */
    for (char *port_s = strtok_r(NULL, ", []", &save); port_s;
         port_s = strtok_r(NULL, ", []", &save)) {
        uint32_t port;
        if (!ofputil_port_from_string(port_s, ctx->port_map, &port)) {
            error = xasprintf("%s: bad port number", port_s);
            goto out;
        }
        ofpbuf_put(ofpacts, &port, sizeof port);
        n++;
    }
    b = ofpbuf_at_assert(ofpacts, ofs, sizeof *b);
    b->n_members = n;
    error = ofputil_parse_u16(basis, &b->basis);
    if (error) {
        goto out;
    }

    enum nx_hash_fields f;
    if (!nx_hash_fields_from_string(fields, &f)) {
        error = xasprintf("%s: unknown fields `%s'", copy, fields);
        goto out;
    }
    b->fields = f;
    if (!strcasecmp(algorithm, "active_backup")) {
        b->algorithm = NX_BD_ALG_ACTIVE_BACKUP;
    } else if (!strcasecmp(algorithm, "hrw")) {
        b->algorithm = NX_BD_ALG_HRW;
    } else {
        error = xasprintf("%s: unknown algorithm `%s'", copy, algorithm);
        goto out;
    }
    if (strcasecmp(member_type, "ofport")) {
        error = xasprintf("%s: unknown member_type `%s'", copy, member_type);
        goto out;
    }
    if (dst_s) {
        error = mf_parse_subfield(&b->dst, dst_s);
        if (error) {
            goto out;
        }
    }
    ofpact_finish(ofpacts, &b->ofpact);

out:
    if (error) {
        ofpacts->size = ofs;
    }
    free(copy);
    return error;
}

enum ofperr
bundle_check(const struct ofpact *a, struct match *m)
{
    const struct ofpact_bundle *b = (const void *) a;
    if (b->dst.field) {
        enum ofperr error = mf_check_dst(&b->dst, m);
        if (error) {
            return error;
        }
    }
    for (uint16_t i = 0; i < b->n_members; i++) {
        uint32_t port = b->members[i];
        if (port >= OFPP_MAX && port != OFPP_LOCAL) {
            return OFPERR_OFPBAC_BAD_OUT_PORT;
        }
    }
    return 0;
}
