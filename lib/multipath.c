/* multipath: the Nicira multipath action, NXAST_MULTIPATH
 * (struct ofpact_multipath): a hash of chosen fields of the packet mapped
 * to one of N links, whose number goes into a field.  The codec (see
 * ofp-actions-private.h for the family interface) and the names of the
 * hash fields that bundle shares. */
#include <config.h>
#include "ofp-actions-private.h"

#include <stdlib.h>
#include <string.h>
#include "be-bytes.h"
#include "dynamic-string.h"
#include "match.h"
#include "nx-match.h"
#include "ofpbuf.h"
#include "text-parse.h"
#include "util.h"

static const char *const hash_field_names[] = {
    [NX_HASH_FIELDS_ETH_SRC] = "eth_src",
    [NX_HASH_FIELDS_SYMMETRIC_L4] = "symmetric_l4",
    [NX_HASH_FIELDS_SYMMETRIC_L3L4] = "symmetric_l3l4",
    [NX_HASH_FIELDS_SYMMETRIC_L3L4_UDP] = "symmetric_l3l4+udp",
    [NX_HASH_FIELDS_NW_SRC] = "nw_src",
    [NX_HASH_FIELDS_NW_DST] = "nw_dst",
    [NX_HASH_FIELDS_SYMMETRIC_L3] = "symmetric_l3",
};

const char *
nx_hash_fields_to_string(enum nx_hash_fields fields)
{
    return (fields < ARRAY_SIZE(hash_field_names) ? hash_field_names[fields]
            : "<unknown>");
}

bool
nx_hash_fields_from_string(const char *s, enum nx_hash_fields *fields)
{
    for (size_t i = 0; i < ARRAY_SIZE(hash_field_names); i++) {
        if (!strcasecmp(s, hash_field_names[i])) {
            *fields = i;
            return true;
        }
    }
    return false;
}

static const char *const algorithm_names[] = {
    [NX_MP_ALG_MODULO_N] = "modulo_n",
    [NX_MP_ALG_HASH_THRESHOLD] = "hash_threshold",
    [NX_MP_ALG_HRW] = "hrw",
    [NX_MP_ALG_ITER_HASH] = "iter_hash",
};

enum ofperr
multipath_decode_nx(uint16_t subtype OVS_UNUSED, const uint8_t *p,
                    size_t len OVS_UNUSED, enum ofp_version version OVS_UNUSED,
                    struct ofpbuf *ofpacts)
{
    uint16_t fields = get_be16(p + 10);
    uint16_t algorithm = get_be16(p + 16);
    uint16_t ofs_nbits = get_be16(p + 26);
    if (!ofpact_is_all_zeros(p + 14, 2) || !ofpact_is_all_zeros(p + 24, 2)) {
        return OFPERR_NXBRC_MUST_BE_ZERO;
    }
    if (fields >= ARRAY_SIZE(hash_field_names)
        || algorithm >= ARRAY_SIZE(algorithm_names)) {
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }
    struct mf_subfield dst;
    size_t hdr_len;
    enum ofperr error = ofpact_decode_subfield(p + 28, 4, ofs_nbits >> 6,
                                               (ofs_nbits & 63) + 1, &dst,
                                               &hdr_len);
    if (!error) {
        error = mf_check_dst(&dst, NULL);
    }
    if (error) {
        return error;
    }
    struct ofpact_multipath *mp = OFPACT_PUT(ofpacts, OFPACT_MULTIPATH,
                                             ofpact_multipath);
    mp->fields = fields;
    mp->basis = get_be16(p + 12);
    mp->algorithm = algorithm;
    mp->max_link = get_be16(p + 18);
    mp->arg = get_be32(p + 20);
    mp->dst = dst;
    if (dst.n_bits < 16 && mp->max_link >= (1u << dst.n_bits)) {
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }
    return 0;
}

void
multipath_encode(const struct ofpact *a, struct ofpbuf *out,
                 enum ofp_version version OVS_UNUSED)
{
    const struct ofpact_multipath *mp = (const void *) a;
    size_t ofs = ofpact_put_nx(out, NXAST_MULTIPATH, 32);
    uint8_t *p = ofpact_at(out, ofs);
    put_be16(p + 10, mp->fields);
    put_be16(p + 12, mp->basis);
    put_be16(p + 16, mp->algorithm);
    put_be16(p + 18, mp->max_link);
    put_be32(p + 20, mp->arg);
    put_be16(p + 26, (mp->dst.ofs << 6) | (mp->dst.n_bits - 1));
    put_be32(p + 28, mf_field_nxm_header(mp->dst.field));
}

void
multipath_format(const struct ofpact *a,
                 const struct ofputil_port_map *map OVS_UNUSED,
                 const struct ofputil_table_map *tables OVS_UNUSED,
                 struct ds *s)
{
    const struct ofpact_multipath *mp = (const void *) a;
    ds_put_format(s, "multipath(%s,%"PRIu16",%s,%d,%"PRIu32",",
                  nx_hash_fields_to_string(mp->fields), mp->basis,
                  (mp->algorithm < ARRAY_SIZE(algorithm_names)
                   ? algorithm_names[mp->algorithm] : "<unknown>"),
                  mp->max_link + 1, mp->arg);
    mf_format_subfield(&mp->dst, s);
    ds_put_char(s, ')');
}

/* "FIELDS, BASIS, ALGORITHM, N_LINKS, ARG, DST". */
char *
multipath_parse(const char *key OVS_UNUSED, char *arg,
                const struct ofpact_parse_ctx *ctx)
{
    char *copy = xstrdup(arg), *save = NULL;
    char *fields = strtok_r(arg, ", ", &save);
    char *basis = strtok_r(NULL, ", ", &save);
    char *algorithm = strtok_r(NULL, ", ", &save);
    char *n_links_s = strtok_r(NULL, ", ", &save);
    char *arg_s = strtok_r(NULL, ", ", &save);
    char *dst_s = strtok_r(NULL, ", ", &save);
    char *error = NULL;
    struct ofpact_multipath mp;
    memset(&mp, 0, sizeof mp);

    if (!dst_s) {
        error = xasprintf("%s: not enough arguments to multipath action",
                          copy);
        goto out;
    }
    enum nx_hash_fields f;
    if (!nx_hash_fields_from_string(fields, &f)) {
        error = xasprintf("%s: unknown fields `%s'", copy, fields);
        goto out;
    }
    mp.fields = f;
    error = ofputil_parse_u16(basis, &mp.basis);
    if (error) {
        goto out;
    }
    size_t i;
    for (i = 0; i < ARRAY_SIZE(algorithm_names); i++) {
        if (!strcasecmp(algorithm, algorithm_names[i])) {
            break;
        }
    }
    if (i == ARRAY_SIZE(algorithm_names)) {
        error = xasprintf("%s: unknown algorithm `%s'", copy, algorithm);
        goto out;
    }
    mp.algorithm = i;
    uint64_t n_links = 0;
    error = ofputil_parse_uint(n_links_s, UINT32_MAX, &n_links);
    free(error);
    error = NULL;
    if (!n_links || n_links > 65536) {
        error = xasprintf("%s: n_links %s is not in valid range 1 to 65536",
                          copy, n_links_s);
        goto out;
    }
    mp.max_link = n_links - 1;
    error = ofputil_parse_u32(arg_s, &mp.arg);
    if (error) {
        goto out;
    }
    error = mf_parse_subfield(&mp.dst, dst_s);
    if (error) {
        goto out;
    }
    if (mp.dst.n_bits < 16 && n_links > (1 << mp.dst.n_bits)) {
        error = xasprintf("%s: %d-bit destination field has %u possible "
                          "values, less than specified n_links %d", copy,
                          mp.dst.n_bits, 1u << mp.dst.n_bits, (int) n_links);
        goto out;
    }
    struct ofpact_multipath *put = OFPACT_PUT(ctx->ofpacts, OFPACT_MULTIPATH,
                                              ofpact_multipath);
    mp.ofpact = put->ofpact;
    *put = mp;

out:
    free(copy);
    return error;
}

enum ofperr
multipath_check(const struct ofpact *a, struct match *m)
{
    return mf_check_dst(&((const struct ofpact_multipath *) a)->dst, m);
}
