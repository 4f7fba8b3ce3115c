/* ofp-actions-nx: the Nicira extension actions of simple layout (see
 * ofp-actions-private.h for the family interface): output:FIELD
 * (NXAST_OUTPUT_REG, _REG2), output(port=,max_len=) (NXAST_OUTPUT_TRUNC),
 * dec_ttl(ids) (NXAST_DEC_TTL_CNT_IDS), fin_timeout, conjunction, clone,
 * check_pkt_larger, push and pop (the field stack), delete_field, sample
 * (NXAST_SAMPLE, _SAMPLE2, _SAMPLE3), resubmit(...,ct)
 * (NXAST_RESUBMIT_TABLE_CT) and the debugging actions debug_recirc and
 * debug_slow. */
#include <config.h>
#include "ofp-actions-private.h"

#include <stdlib.h>
#include <string.h>
#include "be-bytes.h"
#include "dynamic-string.h"
#include "match.h"
#include "nx-match.h"
#include "ofp-parse.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "util.h"

/* The shortest packet output(port=,max_len=) may cut to: an Ethernet
 * header. */
#define OUTPUT_TRUNC_MIN_LEN 14

/* Decoding. */

static enum ofperr
decode_output_reg(uint16_t subtype, const uint8_t *p, size_t len,
                  struct ofpbuf *ofpacts)
{
    uint16_t ofs_nbits = get_be16(p + 10);
    uint16_t max_len;
    const uint8_t *hdr, *end = p + len;
    if (subtype == NXAST_OUTPUT_REG) {
        hdr = p + 12;
        max_len = get_be16(p + 16);
        if (!ofpact_is_all_zeros(p + 18, 6)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        end = p + 16;
    } else {
        max_len = get_be16(p + 12);
        hdr = p + 14;
    }
    struct mf_subfield src;
    size_t hdr_len;
    enum ofperr error = ofpact_decode_subfield(hdr, end - hdr,
                                               ofs_nbits >> 6,
                                               (ofs_nbits & 63) + 1, &src,
                                               &hdr_len);
    if (error) {
        return error;
    }
    if (subtype == NXAST_OUTPUT_REG2
        && !ofpact_is_all_zeros(hdr + hdr_len, end - hdr - hdr_len)) {
        return OFPERR_NXBRC_MUST_BE_ZERO;
    }
    struct ofpact_output_reg *o = OFPACT_PUT(ofpacts, OFPACT_OUTPUT_REG,
                                             ofpact_output_reg);
    o->max_len = max_len;
    o->src = src;
    return 0;
}

static enum ofperr
decode_dec_ttl_cnt_ids(const uint8_t *p, size_t len, struct ofpbuf *ofpacts)
{
    uint16_t n = get_be16(p + 10);
    if (!ofpact_is_all_zeros(p + 12, 4)) {
        return OFPERR_NXBRC_MUST_BE_ZERO;
    }
    if (len < 16 + 2 * (size_t) n) {
        return OFPERR_OFPBAC_BAD_LEN;
    }
    struct ofpact_cnt_ids *ids = ofpact_put(ofpacts, OFPACT_DEC_TTL,
                                            sizeof *ids);
    ids->ofpact.raw = OFPACT_RAW_DEC_TTL_CNT_IDS;
    for (uint16_t i = 0; i < n; i++) {
        uint16_t id = get_be16(p + 16 + 2 * i);
        ofpbuf_put(ofpacts, &id, sizeof id);
    }
    ids = ofpacts->header;
    ids->n_controllers = n;
    if (!ofpact_is_all_zeros(p + 16 + 2 * n, len - 16 - 2 * n)) {
        return OFPERR_NXBRC_MUST_BE_ZERO;
    }
    ofpact_finish(ofpacts, &ids->ofpact);
    return 0;
}

static enum ofperr
decode_sample(uint16_t subtype, const uint8_t *p, struct ofpbuf *ofpacts)
{
    struct ofpact_sample *s = OFPACT_PUT(ofpacts, OFPACT_SAMPLE,
                                         ofpact_sample);
    s->probability = get_be16(p + 10);
    s->collector_set_id = get_be32(p + 12);
    s->obs_domain_id = get_be32(p + 16);
    s->obs_point_id = get_be32(p + 20);
    s->sampling_port = OFPP_NONE;
    s->direction = NX_ACTION_SAMPLE_DEFAULT;
    if (subtype != NXAST_SAMPLE) {
        s->sampling_port = get_be16(p + 24);
    }
    if (subtype == NXAST_SAMPLE3) {
        s->direction = p[26];
        if (s->direction > NX_ACTION_SAMPLE_EGRESS) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
    }
    if (!s->probability) {
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }
    return 0;
}

static enum ofperr
decode_stack(uint16_t subtype, const uint8_t *p, size_t len,
             struct ofpbuf *ofpacts)
{
    struct mf_subfield sf;
    size_t hdr_len;
    enum ofperr error = ofpact_decode_subfield(p + 12, len - 12 - 2,
                                               get_be16(p + 10), 0, &sf,
                                               &hdr_len);
    if (error && error != OFPERR_OFPBAC_BAD_SET_LEN) {
        return error;
    }
    /* The bit count follows the header. */
    const uint8_t *q = p + 12 + (error ? 4 : hdr_len);
    sf.n_bits = get_be16(q);
    if (!ofpact_is_all_zeros(q + 2, p + len - q - 2)) {
        return OFPERR_NXBRC_MUST_BE_ZERO;
    }
    error = (subtype == NXAST_STACK_PUSH
             ? mf_check_src(&sf, NULL) : mf_check_dst(&sf, NULL));
    if (error) {
        return error;
    }
    OFPACT_PUT(ofpacts, (subtype == NXAST_STACK_PUSH
                         ? OFPACT_STACK_PUSH : OFPACT_STACK_POP),
               ofpact_stack)->subfield = sf;
    return 0;
}

enum ofperr
ofpact_nx_decode_nx(uint16_t subtype, const uint8_t *p, size_t len,
                    enum ofp_version version, struct ofpbuf *ofpacts)
{
    switch (subtype) {
    case NXAST_OUTPUT_REG:
    case NXAST_OUTPUT_REG2:
        return decode_output_reg(subtype, p, len, ofpacts);
    case NXAST_OUTPUT_TRUNC: {
        uint32_t port = get_be16(p + 10);
        uint32_t max_len = get_be32(p + 12);
        if (max_len < OUTPUT_TRUNC_MIN_LEN) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        struct ofpact_output_trunc *o = OFPACT_PUT(
            ofpacts, OFPACT_OUTPUT_TRUNC, ofpact_output_trunc);
        o->port = port;
        o->max_len = max_len;
        return 0;
    }
    case NXAST_DEC_TTL_CNT_IDS:
        return decode_dec_ttl_cnt_ids(p, len, ofpacts);
    case NXAST_FIN_TIMEOUT: {
        if (!ofpact_is_all_zeros(p + 14, 2)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        struct ofpact_fin_timeout *ft = OFPACT_PUT(
            ofpacts, OFPACT_FIN_TIMEOUT, ofpact_fin_timeout);
        ft->fin_idle_timeout = get_be16(p + 10);
        ft->fin_hard_timeout = get_be16(p + 12);
        return 0;
    }
    case NXAST_CONJUNCTION: {
        uint8_t clause = p[10], n_clauses = p[11];
        if (n_clauses < 2 || n_clauses > 64 || clause >= n_clauses) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        struct ofpact_conjunction *c = OFPACT_PUT(
            ofpacts, OFPACT_CONJUNCTION, ofpact_conjunction);
        c->clause = clause;
        c->n_clauses = n_clauses;
        c->id = get_be32(p + 12);
        return 0;
    }
    case NXAST_CLONE: {
        if (!ofpact_is_all_zeros(p + 10, 6)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        size_t ofs = ofpacts->size;
        ofpact_put(ofpacts, OFPACT_CLONE, sizeof(struct ofpact_nest));
        enum ofperr error = ofpacts_decode_nested(p + 16, len - 16, version,
                                                  ofpacts);
        if (error) {
            return error;
        }
        ofpact_finish(ofpacts, ofpbuf_at_assert(ofpacts, ofs,
                                                sizeof(struct ofpact)));
        return 0;
    }
    case NXAST_CHECK_PKT_LARGER: {
        struct mf_subfield dst;
        size_t hdr_len;
        enum ofperr error = ofpact_decode_subfield(p + 14, 4,
                                                   get_be16(p + 12), 1,
                                                   &dst, &hdr_len);
        if (!error) {
            error = mf_check_dst(&dst, NULL);
        }
        if (error) {
            return error;
        }
        if (!ofpact_is_all_zeros(p + 18, 6)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        struct ofpact_check_pkt_larger *c = OFPACT_PUT(
            ofpacts, OFPACT_CHECK_PKT_LARGER, ofpact_check_pkt_larger);
        c->pkt_len = get_be16(p + 10);
        c->dst = dst;
        return 0;
    }
    case NXAST_DEBUG_SLOW:
    case NXAST_DEBUG_RECIRC:
        if (!ofpact_is_all_zeros(p + 10, len - 10)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        OFPACT_PUT(ofpacts, (subtype == NXAST_DEBUG_SLOW ? OFPACT_DEBUG_SLOW
                             : OFPACT_DEBUG_RECIRC), ofpact);
        return 0;
    case NXAST_STACK_PUSH:
    case NXAST_STACK_POP:
        return decode_stack(subtype, p, len, ofpacts);
    case NXAST_DELETE_FIELD: {
        struct ofpbuf b;
        ofpbuf_use_const(&b, p + 10, len - 10);
        const struct mf_field *field;
        enum ofperr error = nx_pull_header(&b, &field, NULL);
        if (error) {
            return error;
        }
        if (!ofpact_is_all_zeros(b.data, b.size)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        OFPACT_PUT(ofpacts, OFPACT_DELETE_FIELD, ofpact_delete_field)->field
            = field;
        return 0;
    }
    case NXAST_SAMPLE:
    case NXAST_SAMPLE2:
    case NXAST_SAMPLE3:
        return decode_sample(subtype, p, ofpacts);
    case NXAST_RESUBMIT_TABLE_CT: {
        if (!ofpact_is_all_zeros(p + 13, 3)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        struct ofpact_resubmit *r = OFPACT_PUT(ofpacts, OFPACT_RESUBMIT,
                                               ofpact_resubmit);
        r->ofpact.raw = OFPACT_RAW_RESUBMIT_CT;
        r->in_port = get_be16(p + 10);
        r->table_id = p[12];
        return 0;
    }
    }
    return OFPERR_OFPBAC_BAD_VENDOR_TYPE;
}

/* Encoding. */

static void
encode_output_reg(const struct ofpact_output_reg *o, struct ofpbuf *out)
{
    uint16_t ofs_nbits = (o->src.ofs << 6) | (o->src.n_bits - 1);
    uint32_t header = mf_field_nxm_header(o->src.field);
    if (header) {
        size_t ofs = ofpact_put_nx(out, NXAST_OUTPUT_REG, 24);
        put_be16(ofpact_at(out, ofs) + 10, ofs_nbits);
        put_be32(ofpact_at(out, ofs) + 12, header);
        put_be16(ofpact_at(out, ofs) + 16, o->max_len);
    } else {
        /* A field that needs an experimenter header. */
        size_t ofs = ofpact_put_nx(out, NXAST_OUTPUT_REG2, 14);
        put_be16(ofpact_at(out, ofs) + 10, ofs_nbits);
        put_be16(ofpact_at(out, ofs) + 12, o->max_len);
        nx_put_field_header(out, o->src.field, 0, false);
        ofpact_finish_nx(out, ofs, 24);
    }
}

static void
encode_sample(const struct ofpact_sample *s, struct ofpbuf *out)
{
    uint16_t subtype = (s->direction != NX_ACTION_SAMPLE_DEFAULT
                        ? NXAST_SAMPLE3
                        : s->sampling_port != OFPP_NONE ? NXAST_SAMPLE2
                        : NXAST_SAMPLE);
    size_t ofs = ofpact_put_nx(out, subtype,
                               subtype == NXAST_SAMPLE ? 24 : 32);
    uint8_t *p = ofpact_at(out, ofs);
    put_be16(p + 10, s->probability);
    put_be32(p + 12, s->collector_set_id);
    put_be32(p + 16, s->obs_domain_id);
    put_be32(p + 20, s->obs_point_id);
    if (subtype != NXAST_SAMPLE) {
        put_be16(p + 24, s->sampling_port);
    }
    if (subtype == NXAST_SAMPLE3) {
        p[26] = s->direction;
    }
}

void
ofpact_nx_encode(const struct ofpact *a, struct ofpbuf *out,
                 enum ofp_version version)
{
    size_t ofs;
    switch (a->type) {
    case OFPACT_OUTPUT_REG:
        encode_output_reg((const struct ofpact_output_reg *) a, out);
        break;
    case OFPACT_OUTPUT_TRUNC: {
        const struct ofpact_output_trunc *o = (const void *) a;
        ofs = ofpact_put_nx(out, NXAST_OUTPUT_TRUNC, 16);
        put_be16(ofpact_at(out, ofs) + 10, o->port);
        put_be32(ofpact_at(out, ofs) + 12, o->max_len);
        break;
    }
    case OFPACT_DEC_TTL: {
        const struct ofpact_cnt_ids *ids = (const void *) a;
        ofs = ofpact_put_nx(out, NXAST_DEC_TTL_CNT_IDS, 16);
        put_be16(ofpact_at(out, ofs) + 10, ids->n_controllers);
        for (uint16_t i = 0; i < ids->n_controllers; i++) {
            uint8_t be[2];
            put_be16(be, ids->cnt_ids[i]);
            ofpbuf_put(out, be, 2);
        }
        ofpact_finish_nx(out, ofs, 16);
        break;
    }
    case OFPACT_FIN_TIMEOUT: {
        const struct ofpact_fin_timeout *ft = (const void *) a;
        ofs = ofpact_put_nx(out, NXAST_FIN_TIMEOUT, 16);
        put_be16(ofpact_at(out, ofs) + 10, ft->fin_idle_timeout);
        put_be16(ofpact_at(out, ofs) + 12, ft->fin_hard_timeout);
        break;
    }
    case OFPACT_CONJUNCTION: {
        const struct ofpact_conjunction *c = (const void *) a;
        ofs = ofpact_put_nx(out, NXAST_CONJUNCTION, 16);
        ofpact_at(out, ofs)[10] = c->clause;
        ofpact_at(out, ofs)[11] = c->n_clauses;
        put_be32(ofpact_at(out, ofs) + 12, c->id);
        break;
    }
    case OFPACT_CLONE: {
        const struct ofpact_nest *on = (const void *) a;
        ofs = ofpact_put_nx(out, NXAST_CLONE, 16);
        ofpacts_encode_nested(on->actions, ofpact_nest_get_action_len(on),
                              out, version);
        put_be16(ofpact_at(out, ofs) + 2, out->size - ofs);
        break;
    }
    case OFPACT_CHECK_PKT_LARGER: {
        const struct ofpact_check_pkt_larger *c = (const void *) a;
        ofs = ofpact_put_nx(out, NXAST_CHECK_PKT_LARGER, 24);
        put_be16(ofpact_at(out, ofs) + 10, c->pkt_len);
        put_be16(ofpact_at(out, ofs) + 12, c->dst.ofs);
        put_be32(ofpact_at(out, ofs) + 14, mf_field_nxm_header(c->dst.field));
        break;
    }
    case OFPACT_STACK_PUSH:
    case OFPACT_STACK_POP: {
        const struct ofpact_stack *st = (const void *) a;
        ofs = ofpact_put_nx(out, (a->type == OFPACT_STACK_PUSH
                                  ? NXAST_STACK_PUSH : NXAST_STACK_POP), 12);
        put_be16(ofpact_at(out, ofs) + 10, st->subfield.ofs);
        nx_put_field_header(out, st->subfield.field, 0, false);
        uint8_t be[2];
        put_be16(be, st->subfield.n_bits);
        ofpbuf_put(out, be, 2);
        ofpact_finish_nx(out, ofs, 24);
        break;
    }
    case OFPACT_DELETE_FIELD: {
        const struct ofpact_delete_field *df = (const void *) a;
        ofs = ofpact_put_nx(out, NXAST_DELETE_FIELD, 10);
        nx_put_field_header(out, df->field, 0, false);
        ofpact_finish_nx(out, ofs, 24);
        break;
    }
    case OFPACT_SAMPLE:
        encode_sample((const struct ofpact_sample *) a, out);
        break;
    case OFPACT_RESUBMIT: {
        const struct ofpact_resubmit *r = (const void *) a;
        ofs = ofpact_put_nx(out, NXAST_RESUBMIT_TABLE_CT, 16);
        put_be16(ofpact_at(out, ofs) + 10, r->in_port);
        ofpact_at(out, ofs)[12] = r->table_id;
        break;
    }
    case OFPACT_DEBUG_RECIRC:
        ofpact_put_nx(out, NXAST_DEBUG_RECIRC, 16);
        break;
    case OFPACT_DEBUG_SLOW:
        ofpact_put_nx(out, NXAST_DEBUG_SLOW, 16);
        break;
    default:
        ovs_abort(0, "%s: unexpected case", __func__);
    }
}

/* Text. */

void
ofpact_nx_format(const struct ofpact *a, const struct ofputil_port_map *map,
                 const struct ofputil_table_map *tables, struct ds *s)
{
    switch (a->type) {
    case OFPACT_OUTPUT_REG:
        ds_put_cstr(s, "output:");
        mf_format_subfield(&((const struct ofpact_output_reg *) a)->src, s);
        break;
    case OFPACT_OUTPUT_TRUNC: {
        const struct ofpact_output_trunc *o = (const void *) a;
        ds_put_cstr(s, "output(port=");
        ofputil_format_port(o->port, map, s);
        ds_put_format(s, ",max_len=%"PRIu32")", o->max_len);
        break;
    }
    case OFPACT_DEC_TTL: {
        const struct ofpact_cnt_ids *ids = (const void *) a;
        ds_put_cstr(s, "dec_ttl(");
        for (uint16_t i = 0; i < ids->n_controllers; i++) {
            ds_put_format(s, "%s%"PRIu16, i ? "," : "", ids->cnt_ids[i]);
        }
        ds_put_char(s, ')');
        break;
    }
    case OFPACT_FIN_TIMEOUT: {
        const struct ofpact_fin_timeout *ft = (const void *) a;
        ds_put_cstr(s, "fin_timeout(");
        if (ft->fin_idle_timeout) {
            ds_put_format(s, "idle_timeout=%"PRIu16",", ft->fin_idle_timeout);
        }
        if (ft->fin_hard_timeout) {
            ds_put_format(s, "hard_timeout=%"PRIu16",", ft->fin_hard_timeout);
        }
        ds_chomp(s, ',');
        ds_put_char(s, ')');
        break;
    }
    case OFPACT_CONJUNCTION: {
        const struct ofpact_conjunction *c = (const void *) a;
        ds_put_format(s, "conjunction(%"PRIu32",%d/%"PRIu8")", c->id,
                      c->clause + 1, c->n_clauses);
        break;
    }
    case OFPACT_CLONE: {
        const struct ofpact_nest *on = (const void *) a;
        ds_put_cstr(s, "clone(");
        ofpact_list_format(on->actions, ofpact_nest_get_action_len(on), map,
                           tables, s);
        ds_put_char(s, ')');
        break;
    }
    case OFPACT_CHECK_PKT_LARGER: {
        const struct ofpact_check_pkt_larger *c = (const void *) a;
        ds_put_format(s, "check_pkt_larger(%"PRIu16")->", c->pkt_len);
        mf_format_subfield(&c->dst, s);
        break;
    }
    case OFPACT_STACK_PUSH:
    case OFPACT_STACK_POP:
        ds_put_cstr(s, a->type == OFPACT_STACK_PUSH ? "push:" : "pop:");
        mf_format_subfield(&((const struct ofpact_stack *) a)->subfield, s);
        break;
    case OFPACT_DELETE_FIELD:
        ds_put_format(s, "delete_field:%s",
                      ((const struct ofpact_delete_field *) a)->field->name);
        break;
    case OFPACT_SAMPLE: {
        const struct ofpact_sample *sa = (const void *) a;
        ds_put_format(s, "sample(probability=%"PRIu16",collector_set_id=%"
                      PRIu32",obs_domain_id=%"PRIu32",obs_point_id=%"PRIu32,
                      sa->probability, sa->collector_set_id,
                      sa->obs_domain_id, sa->obs_point_id);
        if (sa->sampling_port != OFPP_NONE) {
            ds_put_cstr(s, ",sampling_port=");
            ofputil_format_port(sa->sampling_port, map, s);
        }
        if (sa->direction == NX_ACTION_SAMPLE_INGRESS) {
            ds_put_cstr(s, ",ingress");
        } else if (sa->direction == NX_ACTION_SAMPLE_EGRESS) {
            ds_put_cstr(s, ",egress");
        }
        ds_put_char(s, ')');
        break;
    }
    case OFPACT_DEBUG_RECIRC:
        ds_put_cstr(s, "debug_recirc");
        break;
    case OFPACT_DEBUG_SLOW:
        ds_put_cstr(s, "debug_slow");
        break;
    default:
        ovs_abort(0, "%s: unexpected case", __func__);
    }
}

static char *
parse_output_trunc(char *arg, const struct ofpact_parse_ctx *ctx)
{
    struct ofpact_output_trunc *o = OFPACT_PUT(ctx->ofpacts,
                                               OFPACT_OUTPUT_TRUNC,
                                               ofpact_output_trunc);
    char *key, *value;
    while (ofputil_parse_key_value(&arg, &key, &value, NULL)) {
        if (!strcmp(key, "port")) {
            if (!ofputil_port_from_string(value, ctx->port_map, &o->port)) {
                return xasprintf("output to unknown truncate port: %s",
                                 value);
            }
            if (o->port > OFPP_MAX && o->port != OFPP_LOCAL
                && o->port != OFPP_IN_PORT) {
                return xasprintf("output to unsupported truncate port: %s",
                                 value);
            }
        } else if (!strcmp(key, "max_len")) {
            char *end;
            unsigned long long x = strtoull(value, &end, 0);
            if (!*value || *end || x > UINT32_MAX) {
                return xasprintf("invalid numeric format %s", value);
            }
            if (x < OUTPUT_TRUNC_MIN_LEN) {
                return xasprintf("max_len %llu is less than the minimum "
                                 "value %d", x, OUTPUT_TRUNC_MIN_LEN);
            }
            o->max_len = x;
        } else {
            return xasprintf("invalid key '%s' in output_trunc argument",
                             key);
        }
    }
    return NULL;
}

static char *
parse_dec_ttl(char *arg, const struct ofpact_parse_ctx *ctx)
{
    struct ofpbuf *ofpacts = ctx->ofpacts;
    size_t ofs = ofpacts->size;
    struct ofpact_cnt_ids *ids = ofpact_put(ofpacts, OFPACT_DEC_TTL,
                                            sizeof *ids);
    uint16_t n = 0;
    if (*arg) {
        ids->ofpact.raw = OFPACT_RAW_DEC_TTL_CNT_IDS;
        /* 3.1 reads each id as atoi() does: no error, wrapped to 16
         * bits. */
        for (char *save, *tok = strtok_r(arg, ", ", &save); tok;
             tok = strtok_r(NULL, ", ", &save)) {
            uint16_t id = atoi(tok);
            ofpbuf_put(ofpacts, &id, sizeof id);
            n++;
        }
    }
    if (!n) {
        uint16_t zero = 0;
        ofpbuf_put(ofpacts, &zero, sizeof zero);
        n = 1;
    }
    ids = ofpbuf_at_assert(ofpacts, ofs, sizeof *ids);
    ids->n_controllers = n;
    ofpact_finish(ofpacts, &ids->ofpact);
    return NULL;
}

static char *
parse_fin_timeout(char *arg, const struct ofpact_parse_ctx *ctx)
{
    struct ofpact_fin_timeout *ft = OFPACT_PUT(ctx->ofpacts,
                                               OFPACT_FIN_TIMEOUT,
                                               ofpact_fin_timeout);
    char *key, *value;
    while (ofputil_parse_key_value(&arg, &key, &value, NULL)) {
        uint16_t *dst;
        if (!strcmp(key, "idle_timeout")) {
            dst = &ft->fin_idle_timeout;
        } else if (!strcmp(key, "hard_timeout")) {
            dst = &ft->fin_hard_timeout;
        } else {
            return xasprintf("invalid key '%s' in 'fin_timeout' argument",
                             key);
        }
        uint64_t x;
        char *error = ofputil_parse_uint(value, UINT16_MAX, &x);
        if (error) {
            free(error);
            return xasprintf("invalid %s \"%s\"", key, value);
        }
        *dst = x;
    }
    return NULL;
}

static char *
parse_conjunction(const char *arg, const struct ofpact_parse_ctx *ctx)
{
    uint32_t id;
    int clause, n_clauses, n = 0;
    if (sscanf(arg, "%"SCNi32" , %d / %d %n", &id, &clause, &n_clauses, &n)
        != 3 || arg[n]) {
        return xstrdup("\"conjunction\" syntax is \"conjunction(id,i/n)\"");
    }
    if (n_clauses < 2) {
        return xstrdup("conjunction must have at least 2 clauses");
    } else if (n_clauses > 64) {
        return xstrdup("conjunction must have at most 64 clauses");
    } else if (clause < 1) {
        return xstrdup("clause index must be positive");
    } else if (clause > n_clauses) {
        return xstrdup("clause index must be less than or equal to number "
                       "of clauses");
    }
    struct ofpact_conjunction *c = OFPACT_PUT(ctx->ofpacts,
                                              OFPACT_CONJUNCTION,
                                              ofpact_conjunction);
    c->id = id;
    c->clause = clause - 1;
    c->n_clauses = n_clauses;
    return NULL;
}

static char *
parse_clone(const char *arg, const struct ofpact_parse_ctx *ctx)
{
    struct ofpbuf *ofpacts = ctx->ofpacts;
    size_t ofs = ofpacts->size;
    ofpact_put(ofpacts, OFPACT_CLONE, sizeof(struct ofpact_nest));
    struct ofpact_parse_ctx nested = *ctx;
    nested.in_ct = false;
    char *error = ofpacts_parse_nested(arg, &nested);
    if (error) {
        return error;
    }
    ofpact_finish(ofpacts, ofpbuf_at_assert(ofpacts, ofs,
                                            sizeof(struct ofpact)));
    return NULL;
}

static char *
parse_check_pkt_larger(const char *arg, const struct ofpact_parse_ctx *ctx)
{
    const char *arrow = strstr(arg, "->");
    if (!arrow) {
        return xasprintf("%s: missing `->'", arg);
    }
    char *len_s = xmemdup0(arg, arrow - arg);
    uint64_t pkt_len;
    char *error = ofputil_parse_uint(len_s, UINT16_MAX, &pkt_len);
    if (error) {
        /* 3.1's message names no field here. */
        free(error);
        error = xasprintf("invalid (null) \"%s\"", len_s);
        free(len_s);
        return error;
    }
    free(len_s);
    struct mf_subfield dst;
    error = mf_parse_subfield(&dst, arrow + 2);
    if (error) {
        return error;
    }
    if (dst.n_bits != 1) {
        return xstrdup("Only 1-bit destination field is allowed");
    }
    struct ofpact_check_pkt_larger *c = OFPACT_PUT(
        ctx->ofpacts, OFPACT_CHECK_PKT_LARGER, ofpact_check_pkt_larger);
    c->pkt_len = pkt_len;
    c->dst = dst;
    return NULL;
}

static char *
parse_stack(bool push, const char *arg, const struct ofpact_parse_ctx *ctx)
{
    struct mf_subfield sf;
    char *error = mf_parse_subfield(&sf, arg);
    if (error) {
        return error;
    }
    OFPACT_PUT(ctx->ofpacts, push ? OFPACT_STACK_PUSH : OFPACT_STACK_POP,
               ofpact_stack)->subfield = sf;
    return NULL;
}

static char *
parse_sample(char *arg, const struct ofpact_parse_ctx *ctx)
{
    struct ofpact_sample *s = OFPACT_PUT(ctx->ofpacts, OFPACT_SAMPLE,
                                         ofpact_sample);
    s->sampling_port = OFPP_NONE;
    s->direction = NX_ACTION_SAMPLE_DEFAULT;

    char *key, *value;
    while (ofputil_parse_key_value(&arg, &key, &value, NULL)) {
        uint64_t x;
        char *error = NULL;
        if (!strcmp(key, "probability")) {
            error = ofputil_parse_uint(value, UINT16_MAX, &x);
            if (error) {
                free(error);
                return xasprintf("invalid probability \"%s\"", value);
            }
            if (!x) {
                return xasprintf("invalid probability value \"%s\"", value);
            }
            s->probability = x;
        } else if (!strcmp(key, "collector_set_id")) {
            error = ofputil_parse_u32(value, &s->collector_set_id);
        } else if (!strcmp(key, "obs_domain_id")) {
            error = ofputil_parse_u32(value, &s->obs_domain_id);
        } else if (!strcmp(key, "obs_point_id")) {
            error = ofputil_parse_u32(value, &s->obs_point_id);
        } else if (!strcmp(key, "sampling_port")) {
            if (!ofputil_port_from_string(value, ctx->port_map,
                                          &s->sampling_port)) {
                return xasprintf("%s: unknown port", value);
            }
        } else if (!strcmp(key, "ingress")) {
            s->direction = NX_ACTION_SAMPLE_INGRESS;
        } else if (!strcmp(key, "egress")) {
            s->direction = NX_ACTION_SAMPLE_EGRESS;
        } else {
            return xasprintf("invalid key \"%s\" in \"sample\" argument",
                             key);
        }
        if (error) {
            return error;
        }
    }
    if (!s->probability) {
        return xstrdup("non-zero \"probability\" must be specified on "
                       "sample");
    }
    return NULL;
}

char *
ofpact_nx_parse(const char *key, char *arg,
                const struct ofpact_parse_ctx *ctx)
{
    if (!strcmp(key, "output_trunc")) {
        return parse_output_trunc(arg, ctx);
    } else if (!strcmp(key, "output_reg")) {
        struct mf_subfield src;
        char *error = mf_parse_subfield(&src, arg);
        if (error) {
            return error;
        }
        struct ofpact_output_reg *o = OFPACT_PUT(ctx->ofpacts,
                                                 OFPACT_OUTPUT_REG,
                                                 ofpact_output_reg);
        o->src = src;
        o->max_len = UINT16_MAX;
        return NULL;
    } else if (!strcmp(key, "dec_ttl")) {
        return parse_dec_ttl(arg, ctx);
    } else if (!strcmp(key, "fin_timeout")) {
        return parse_fin_timeout(arg, ctx);
    } else if (!strcmp(key, "conjunction")) {
        return parse_conjunction(arg, ctx);
    } else if (!strcmp(key, "clone")) {
        return parse_clone(arg, ctx);
    } else if (!strcmp(key, "check_pkt_larger")) {
        return parse_check_pkt_larger(arg, ctx);
    } else if (!strcmp(key, "push") || !strcmp(key, "pop")) {
        return parse_stack(!strcmp(key, "push"), arg, ctx);
    } else if (!strcmp(key, "delete_field")) {
        const struct mf_field *f = mf_from_name(arg);
        if (!f) {
            return xasprintf("unknown field `%s'", arg);
        }
        OFPACT_PUT(ctx->ofpacts, OFPACT_DELETE_FIELD,
                   ofpact_delete_field)->field = f;
        return NULL;
    } else if (!strcmp(key, "sample")) {
        return parse_sample(arg, ctx);
    } else if (!strcmp(key, "debug_recirc")) {
        OFPACT_PUT(ctx->ofpacts, OFPACT_DEBUG_RECIRC, ofpact);
        return NULL;
    } else if (!strcmp(key, "debug_slow")) {
        OFPACT_PUT(ctx->ofpacts, OFPACT_DEBUG_SLOW, ofpact);
        return NULL;
    }
    ovs_abort(0, "%s: unexpected case", __func__);
}

/* Checks. */

/* The bits of the ct_state field. */
#define CS_NEW         (1 << 0)
#define CS_ESTABLISHED (1 << 1)
#define CS_RELATED     (1 << 2)
#define CS_REPLY_DIR   (1 << 3)
#define CS_INVALID     (1 << 4)
#define CS_TRACKED     (1 << 5)

/* Whether MATCH says the packet went through the connection tracker and
 * the state is valid: what a resubmit that looks up the original
 * direction's 5-tuple needs. */
static bool
match_has_valid_ct(const struct match *m)
{
    const struct mf_field *f = mf_from_name("ct_state");
    if (!f) {
        return false;
    }
    union mf_value value, mask;
    mf_get_value(f, &m->flow, &value);
    mf_get_mask(f, &m->wc, &mask);
    uint32_t v = ntohl(value.be32) & ntohl(mask.be32);
    uint32_t msk = ntohl(mask.be32);
    const uint32_t known = (CS_NEW | CS_ESTABLISHED | CS_RELATED
                            | CS_REPLY_DIR);
    return ((msk & CS_TRACKED) && (v & CS_TRACKED)
            && (((msk & CS_INVALID) && !(v & CS_INVALID)) || (v & known)));
}

enum ofperr
ofpact_nx_check(const struct ofpact *a, struct match *m)
{
    switch (a->type) {
    case OFPACT_OUTPUT_REG:
        return mf_check_src(&((const struct ofpact_output_reg *) a)->src, m);
    case OFPACT_CHECK_PKT_LARGER:
        return mf_check_dst(
            &((const struct ofpact_check_pkt_larger *) a)->dst, m);
    case OFPACT_STACK_PUSH:
        return mf_check_src(&((const struct ofpact_stack *) a)->subfield, m);
    case OFPACT_STACK_POP:
        return mf_check_dst(&((const struct ofpact_stack *) a)->subfield, m);
    case OFPACT_DELETE_FIELD: {
        /* Only a Geneve option (tun_metadataN) may be deleted. */
        enum mf_field_id id = ((const struct ofpact_delete_field *) a)
                              ->field->id;
        return (id >= MFF_TUN_METADATA0 && id <= MFF_TUN_METADATA63
                ? 0 : OFPERR_OFPBAC_BAD_ARGUMENT);
    }
    case OFPACT_RESUBMIT:
        if (a->raw == OFPACT_RAW_RESUBMIT_CT && !match_has_valid_ct(m)) {
            return OFPERR_OFPBAC_MATCH_INCONSISTENT;
        }
        return 0;
    case OFPACT_OUTPUT_TRUNC: {
        uint32_t port = ((const struct ofpact_output_trunc *) a)->port;
        return (port < OFPP_MAX || port == OFPP_LOCAL || port == OFPP_IN_PORT
                ? 0 : OFPERR_OFPBAC_BAD_OUT_PORT);
    }
    default:
        return 0;
    }
}
