/* learn: see learn.h. */
#include <config.h>
#include "learn.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "be-bytes.h"
#include "dynamic-string.h"
#include "flow.h"
#include "match.h"
#include "nx-match.h"
#include "ofp-flow.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "text-parse.h"
#include "util.h"

#define NXAST_LEARN 16
#define NXAST_LEARN2 45

/* Bytes of the fixed parts: nx_action_learn and nx_action_learn2. */
#define LEARN_LEN 32
#define LEARN2_LEN 40

static struct ofpact_learn *
learn_header(struct ofpbuf *ofpacts, size_t ofs)
{
    return ofpbuf_at_assert(ofpacts, ofs, sizeof(struct ofpact_learn));
}

/* The bytes a spec with HEADER needs after its header. */
static size_t
spec_min_len(uint16_t header)
{
    unsigned int n_bits = header & NX_LEARN_N_BITS_MASK;
    size_t len = 0;
    if ((header & NX_LEARN_SRC_MASK) == NX_LEARN_SRC_FIELD) {
        len += 6;
    } else {
        len += 2 * DIV_ROUND_UP(n_bits, 16);
    }
    uint16_t dst = header & NX_LEARN_DST_MASK;
    if (dst == NX_LEARN_DST_MATCH || dst == NX_LEARN_DST_LOAD) {
        len += 6;
    }
    return len;
}

/* A 32-bit field header and offset, as a spec names a sub-field.  A
 * masked header, or one of the wrong length, names no field. */
static enum ofperr
get_subfield(const uint8_t *p, unsigned int n_bits, struct mf_subfield *sf)
{
    uint32_t header = get_be32(p);
    const struct mf_field *f = mf_from_nxm_header(header);
    if (!f || nxm_hasmask(header) || nxm_length(header) != f->n_bytes) {
        return OFPERR_OFPBAC_BAD_SET_TYPE;
    }
    sf->field = f;
    sf->ofs = get_be16(p + 4);
    sf->n_bits = n_bits;
    return 0;
}

enum ofperr
learn_decode(const uint8_t *p, size_t len, bool learn2,
             struct ofpbuf *ofpacts)
{
    if (len < (learn2 ? LEARN2_LEN : LEARN_LEN)) {
        return OFPERR_OFPBAC_BAD_LEN;
    }
    if (learn2 && get_be16(p + 38)) {
        return OFPERR_NXBAC_MUST_BE_ZERO;
    }
    size_t ofs = ofpacts->size;
    struct ofpact_learn *learn = ofpact_put(ofpacts, OFPACT_LEARN,
                                            sizeof *learn);
    learn->idle_timeout = get_be16(p + 10);
    learn->hard_timeout = get_be16(p + 12);
    learn->priority = get_be16(p + 14);
    memcpy(&learn->cookie, p + 16, 8);
    learn->flags = get_be16(p + 24);
    learn->table_id = p[26];
    learn->fin_idle_timeout = get_be16(p + 28);
    learn->fin_hard_timeout = get_be16(p + 30);
    if (p[27] || learn->table_id == 0xff) {
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }

    const uint8_t *q = p + LEARN_LEN, *end = p + len;
    if (learn2) {
        learn->limit = get_be32(p + 32);
        uint16_t result_ofs = get_be16(p + 36);
        if (learn->flags & ~(NX_LEARN_F_SEND_FLOW_REM
                             | NX_LEARN_F_DELETE_LEARNED
                             | NX_LEARN_F_WRITE_RESULT)) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        q = p + LEARN2_LEN;
        if (learn->flags & NX_LEARN_F_WRITE_RESULT) {
            struct ofpbuf b;
            ofpbuf_use_const(&b, q, end - q);
            const struct mf_field *f;
            enum ofperr error = nx_pull_header(&b, &f, NULL);
            if (error) {
                return error;
            }
            if (!f->writable) {
                return OFPERR_OFPBAC_BAD_SET_ARGUMENT;
            }
            learn->result_dst.field = f;
            learn->result_dst.ofs = result_ofs;
            learn->result_dst.n_bits = 1;
            q = b.data;
        } else if (result_ofs) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
    } else if (learn->flags & ~(NX_LEARN_F_SEND_FLOW_REM
                                | NX_LEARN_F_DELETE_LEARNED)) {
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }

    /* Specs, until the end or a zero header (then only padding). */
    while (end - q >= 2) {
        uint16_t header = get_be16(q);
        if (!header) {
            break;
        }
        q += 2;
        struct ofpact_learn_spec spec;
        memset(&spec, 0, sizeof spec);
        spec.src_type = header & NX_LEARN_SRC_MASK;
        spec.dst_type = header & NX_LEARN_DST_MASK;
        spec.n_bits = header & NX_LEARN_N_BITS_MASK;
        if (spec.dst_type == NX_LEARN_DST_RESERVED
            || (spec.dst_type == NX_LEARN_DST_OUTPUT
                && spec.src_type == NX_LEARN_SRC_IMMEDIATE)) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
        if ((size_t) (end - q) < spec_min_len(header)) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        enum ofperr error;
        if (spec.src_type == NX_LEARN_SRC_FIELD) {
            error = get_subfield(q, spec.n_bits, &spec.src);
            if (error) {
                return error;
            }
            q += 6;
        } else {
            size_t wire_bytes = 2 * DIV_ROUND_UP(spec.n_bits, 16);
            /* The value's DIV_ROUND_UP(n_bits, 8) bytes, as 3.1 keeps them,
             * at most the low 128 bits: a wider immediate fits no field,
             * which learn_check() reports. */
            size_t keep = MIN(DIV_ROUND_UP(spec.n_bits, 8),
                              sizeof spec.imm);
            memcpy(spec.imm + sizeof spec.imm - keep,
                   q + wire_bytes - keep, keep);
            q += wire_bytes;
        }
        if (spec.dst_type == NX_LEARN_DST_MATCH
            || spec.dst_type == NX_LEARN_DST_LOAD) {
            error = get_subfield(q, spec.n_bits, &spec.dst);
            if (error) {
                return error;
            }
            q += 6;
        }
        ofpbuf_put(ofpacts, &spec, sizeof spec);
        learn = learn_header(ofpacts, ofs);
        learn->n_specs++;
    }
    for (; q < end; q++) {
        if (*q) {
            return OFPERR_OFPBAC_BAD_ARGUMENT;
        }
    }
    learn = learn_header(ofpacts, ofs);
    ofpact_finish(ofpacts, &learn->ofpact);
    return learn_check(learn_header(ofpacts, ofs), NULL);
}

/* SF's field header: NXM's 32-bit one. */
static void
put_subfield(struct ofpbuf *out, const struct mf_subfield *sf)
{
    uint8_t *p = ofpbuf_put_uninit(out, 6);
    put_be32(p, mf_field_nxm_header(sf->field));
    put_be16(p + 4, sf->ofs);
}

void
learn_encode(const struct ofpact_learn *learn, struct ofpbuf *out)
{
    bool learn2 = (learn->limit
                   || (learn->flags & NX_LEARN_F_WRITE_RESULT));
    size_t ofs = out->size;
    uint8_t *p = ofpbuf_put_zeros(out, learn2 ? LEARN2_LEN : LEARN_LEN);
    put_be16(p, 0xffff);
    put_be32(p + 4, NX_VENDOR_ID);
    put_be16(p + 8, learn2 ? NXAST_LEARN2 : NXAST_LEARN);
    put_be16(p + 10, learn->idle_timeout);
    put_be16(p + 12, learn->hard_timeout);
    put_be16(p + 14, learn->priority);
    memcpy(p + 16, &learn->cookie, 8);
    put_be16(p + 24, learn->flags);
    p[26] = learn->table_id;
    put_be16(p + 28, learn->fin_idle_timeout);
    put_be16(p + 30, learn->fin_hard_timeout);
    if (learn2) {
        put_be32(p + 32, learn->limit);
        if (learn->flags & NX_LEARN_F_WRITE_RESULT) {
            put_be16(p + 36, learn->result_dst.ofs);
            nx_put_field_header(out, learn->result_dst.field, 0, false);
        }
    }
    for (uint32_t i = 0; i < learn->n_specs; i++) {
        const struct ofpact_learn_spec *spec = &learn->specs[i];
        put_be16(ofpbuf_put_uninit(out, 2),
              spec->n_bits | spec->src_type | spec->dst_type);
        if (spec->src_type == NX_LEARN_SRC_FIELD) {
            put_subfield(out, &spec->src);
        } else {
            size_t wire_bytes = 2 * DIV_ROUND_UP(spec->n_bits, 16);
            uint8_t *bits = ofpbuf_put_zeros(out, wire_bytes);
            size_t keep = MIN(wire_bytes, sizeof spec->imm);
            memcpy(bits + wire_bytes - keep,
                   spec->imm + sizeof spec->imm - keep, keep);
        }
        if (spec->dst_type == NX_LEARN_DST_MATCH
            || spec->dst_type == NX_LEARN_DST_LOAD) {
            put_subfield(out, &spec->dst);
        }
    }
    size_t len = ROUND_UP(out->size - ofs, 8);
    ofpbuf_put_zeros(out, len - (out->size - ofs));
    put_be16((uint8_t *) out->data + ofs + 2, len);
}

/* Sets SF's bits in MATCH to the N_BITS-bit value right-aligned in the 16
 * bytes at VALUE, and makes MATCH look at them. */
static void
match_set_subfield(const struct mf_subfield *sf, const uint8_t value[16],
                   struct match *match)
{
    const struct mf_field *f = sf->field;
    union mf_value v, m;
    mf_get_value(f, &match->flow, &v);
    mf_get_mask(f, &match->wc, &m);
    bitwise_copy(value, 16, 0, v.b, f->n_bytes, sf->ofs, sf->n_bits);
    bitwise_one(m.b, f->n_bytes, sf->ofs, sf->n_bits);
    mf_set(f, &v, &m, match);
}

enum ofperr
learn_check(const struct ofpact_learn *learn, const struct match *src_match)
{
    struct match dst_match;
    match_init_catchall(&dst_match);
    for (uint32_t i = 0; i < learn->n_specs; i++) {
        const struct ofpact_learn_spec *spec = &learn->specs[i];
        enum ofperr error;
        if (spec->src_type == NX_LEARN_SRC_FIELD) {
            error = mf_check_src(&spec->src, src_match);
            if (error) {
                return error;
            }
        }
        switch (spec->dst_type) {
        case NX_LEARN_DST_MATCH:
            error = mf_check_src(&spec->dst, &dst_match);
            if (error) {
                return error;
            }
            if (spec->src_type == NX_LEARN_SRC_IMMEDIATE) {
                match_set_subfield(&spec->dst, spec->imm, &dst_match);
            }
            break;
        case NX_LEARN_DST_LOAD:
            error = mf_check_dst(&spec->dst, &dst_match);
            if (error) {
                return error;
            }
            break;
        default:
            break;
        }
    }
    return 0;
}

/* Text. */

/* 3.1's hex for an immediate: "0x" and the digits without leading zeros,
 * or "0". */
static void
put_imm_hex(struct ds *s, const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n && !p[i]) {
        i++;
    }
    if (i == n) {
        ds_put_char(s, '0');
        return;
    }
    ds_put_format(s, "0x%"PRIx8, p[i++]);
    for (; i < n; i++) {
        ds_put_format(s, "%02"PRIx8, p[i]);
    }
}

void
learn_format(const struct ofpact_learn *learn,
             const struct ofputil_table_map *tables, struct ds *s)
{
    ds_put_cstr(s, "learn(table=");
    ofputil_format_table(learn->table_id, tables, s);
    if (learn->idle_timeout != OFP_FLOW_PERMANENT) {
        ds_put_format(s, ",idle_timeout=%"PRIu16, learn->idle_timeout);
    }
    if (learn->hard_timeout != OFP_FLOW_PERMANENT) {
        ds_put_format(s, ",hard_timeout=%"PRIu16, learn->hard_timeout);
    }
    if (learn->fin_idle_timeout) {
        ds_put_format(s, ",fin_idle_timeout=%"PRIu16,
                      learn->fin_idle_timeout);
    }
    if (learn->fin_hard_timeout) {
        ds_put_format(s, ",fin_hard_timeout=%"PRIu16,
                      learn->fin_hard_timeout);
    }
    if (learn->priority != OFP_DEFAULT_PRIORITY) {
        ds_put_format(s, ",priority=%"PRIu16, learn->priority);
    }
    if (learn->flags & NX_LEARN_F_SEND_FLOW_REM) {
        ds_put_cstr(s, ",send_flow_rem");
    }
    if (learn->flags & NX_LEARN_F_DELETE_LEARNED) {
        ds_put_cstr(s, ",delete_learned");
    }
    if (learn->cookie) {
        ds_put_format(s, ",cookie=%#"PRIx64, ntohll(learn->cookie));
    }
    if (learn->limit) {
        ds_put_format(s, ",limit=%"PRIu32, learn->limit);
    }
    if (learn->flags & NX_LEARN_F_WRITE_RESULT) {
        ds_put_cstr(s, ",result_dst=");
        mf_format_subfield(&learn->result_dst, s);
    }

    for (uint32_t i = 0; i < learn->n_specs; i++) {
        const struct ofpact_learn_spec *spec = &learn->specs[i];
        size_t n_bytes = MIN(DIV_ROUND_UP(spec->n_bits, 8),
                             sizeof spec->imm);
        const uint8_t *imm = spec->imm + sizeof spec->imm - n_bytes;
        ds_put_char(s, ',');
        switch (spec->src_type | spec->dst_type) {
        case NX_LEARN_SRC_IMMEDIATE | NX_LEARN_DST_MATCH: {
            const struct mf_field *f = spec->dst.field;
            if (spec->dst.ofs == 0 && spec->dst.n_bits == f->n_bits) {
                union mf_value value;
                memset(&value, 0, sizeof value);
                memcpy(&value.b[f->n_bytes - MIN(n_bytes, f->n_bytes)],
                       imm + n_bytes - MIN(n_bytes, f->n_bytes),
                       MIN(n_bytes, f->n_bytes));
                ds_put_format(s, "%s=", f->name);
                mf_format(f, &value, NULL, NULL, s);
            } else {
                mf_format_subfield(&spec->dst, s);
                ds_put_char(s, '=');
                put_imm_hex(s, imm, n_bytes);
            }
            break;
        }
        case NX_LEARN_SRC_FIELD | NX_LEARN_DST_MATCH:
            mf_format_subfield(&spec->dst, s);
            if (spec->src.field != spec->dst.field
                || spec->src.ofs != spec->dst.ofs) {
                ds_put_char(s, '=');
                mf_format_subfield(&spec->src, s);
            }
            break;
        case NX_LEARN_SRC_IMMEDIATE | NX_LEARN_DST_LOAD:
            ds_put_cstr(s, "load:");
            put_imm_hex(s, imm, n_bytes);
            ds_put_cstr(s, "->");
            mf_format_subfield(&spec->dst, s);
            break;
        case NX_LEARN_SRC_FIELD | NX_LEARN_DST_LOAD:
            ds_put_cstr(s, "load:");
            mf_format_subfield(&spec->src, s);
            ds_put_cstr(s, "->");
            mf_format_subfield(&spec->dst, s);
            break;
        case NX_LEARN_SRC_FIELD | NX_LEARN_DST_OUTPUT:
            ds_put_cstr(s, "output:");
            mf_format_subfield(&spec->src, s);
            break;
        }
    }
    ds_put_char(s, ')');
}

static char *
check_nxm_name(const char *orig, const char *name,
               const struct mf_subfield *sf)
{
    if (!mf_field_nxm_header(sf->field)) {
        return xasprintf("%s: experimenter OXM field '%s' not supported",
                         orig, name);
    }
    return NULL;
}

/* "load:VALUE->DST" or "load:SRC->DST". */
static char *
parse_spec_load(const char *value, struct ofpact_learn_spec *spec)
{
    const char *arrow = strstr(value, "->");
    if (arrow == value) {
        return xasprintf("load: missing source before `->' in `%s'", value);
    }
    if (!arrow) {
        return xasprintf("load: missing `->' in `%s'", value);
    }
    uint8_t imm[128];
    const char *tail;
    if (!ofputil_parse_int_bytes(value, imm, sizeof imm, &tail) && tail != value) {
        if (tail != arrow) {
            return xasprintf("load: garbage before `->' in `%s'", value);
        }
        struct mf_subfield dst;
        char *error = mf_parse_subfield(&dst, arrow + 2);
        if (error) {
            return error;
        }
        error = check_nxm_name(value, arrow + 2, &dst);
        if (error) {
            return error;
        }
        if (!bitwise_is_all_zeros(imm, sizeof imm, dst.n_bits,
                                  8 * sizeof imm - dst.n_bits)) {
            return xasprintf("%s: value does not fit into %u bits", value,
                             dst.n_bits);
        }
        spec->n_bits = dst.n_bits;
        spec->src_type = NX_LEARN_SRC_IMMEDIATE;
        spec->dst_type = NX_LEARN_DST_LOAD;
        spec->dst = dst;
        memcpy(spec->imm, imm + sizeof imm - sizeof spec->imm,
               sizeof spec->imm);
        return NULL;
    }

    /* A move's syntax. */
    struct mf_subfield src, dst;
    const char *s = value;
    char *error = mf_parse_subfield__(&src, &s);
    if (error) {
        return error;
    }
    if (strncmp(s, "->", 2)) {
        return xasprintf("%s: missing `->' following source", value);
    }
    error = mf_parse_subfield(&dst, s + 2);
    if (error) {
        return error;
    }
    if (src.n_bits != dst.n_bits) {
        return xasprintf("%s: source field is %u bits wide but destination "
                         "is %u bits wide", value, src.n_bits, dst.n_bits);
    }
    spec->n_bits = src.n_bits;
    spec->src_type = NX_LEARN_SRC_FIELD;
    spec->src = src;
    spec->dst_type = NX_LEARN_DST_LOAD;
    spec->dst = dst;
    return NULL;
}

/* "DST", "DST=SRC" or "DST=VALUE".  MATCH: the learned match so far, for
 * the prerequisites of later specs. */
static char *
parse_spec_match(const char *orig, const char *name, const char *value,
                 const struct mf_subfield *dst,
                 const struct ofputil_port_map *map,
                 struct ofpact_learn_spec *spec, struct match *match)
{
    char *error = check_nxm_name(orig, name, dst);
    if (error) {
        return error;
    }
    spec->dst = *dst;
    spec->n_bits = dst->n_bits;
    spec->dst_type = NX_LEARN_DST_MATCH;
    if (!*value) {
        spec->src = *dst;
        spec->src_type = NX_LEARN_SRC_FIELD;
        return NULL;
    }

    struct mf_subfield src;
    error = mf_parse_subfield(&src, value);
    if (!error) {
        if (src.n_bits != dst->n_bits) {
            return xasprintf("%s: bit widths of %s (%u) and %s (%u) differ",
                             orig, name, src.n_bits, value, dst->n_bits);
        }
        spec->src = src;
        spec->src_type = NX_LEARN_SRC_FIELD;
        return NULL;
    }

    /* An immediate value: the field's own syntax for the whole field, an
     * integer for part of it. */
    const struct mf_field *f = dst->field;
    union mf_value imm;
    memset(&imm, 0, sizeof imm);
    char *imm_error = NULL;
    if (dst->ofs == 0 && dst->n_bits == f->n_bits) {
        union mf_value mask;
        imm_error = mf_parse(f, value, map, &imm, &mask);
        if (!imm_error && !mf_value_is_all_ones(f, &mask)) {
            imm_error = xasprintf("%s: wildcards not allowed here", value);
        }
    } else {
        const char *tail;
        if (ofputil_parse_int_bytes(value, imm.b, f->n_bytes, &tail) || *tail) {
            imm_error = xasprintf("%s: cannot parse integer value", orig);
        } else if (!bitwise_is_all_zeros(imm.b, f->n_bytes, dst->n_bits,
                                         f->n_bytes * 8 - dst->n_bits)) {
            struct ds ds = DS_EMPTY_INITIALIZER;
            mf_format(f, &imm, NULL, NULL, &ds);
            imm_error = xasprintf("%s: value %s does not fit into %u bits",
                                  orig, ds_cstr(&ds), dst->n_bits);
            ds_destroy(&ds);
        }
    }
    if (imm_error) {
        char *err = xasprintf("%s: %s value %s cannot be parsed as a "
                              "subfield (%s) or an immediate value (%s)",
                              orig, name, value, error, imm_error);
        free(error);
        free(imm_error);
        return err;
    }
    free(error);
    spec->src_type = NX_LEARN_SRC_IMMEDIATE;
    /* Either way the value is the field's low bits: the spec keeps it
     * right-aligned. */
    bitwise_copy(imm.b, f->n_bytes, 0, spec->imm, sizeof spec->imm, 0,
                 dst->n_bits);
    match_set_subfield(dst, spec->imm, match);
    return NULL;
}

static char *
parse_spec(const char *orig, const char *name, const char *value,
           const struct ofputil_port_map *map,
           struct ofpact_learn_spec *spec, struct match *match)
{
    struct mf_subfield dst;
    char *error = mf_parse_subfield(&dst, name);
    if (!error) {
        return parse_spec_match(orig, name, value, &dst, map, spec, match);
    }
    free(error);
    if (!strcmp(name, "load")) {
        return parse_spec_load(value, spec);
    } else if (!strcmp(name, "output")) {
        error = mf_parse_subfield(&spec->src, value);
        if (error) {
            return error;
        }
        spec->n_bits = spec->src.n_bits;
        spec->src_type = NX_LEARN_SRC_FIELD;
        spec->dst_type = NX_LEARN_DST_OUTPUT;
        return NULL;
    }
    return xasprintf("%s: unknown keyword %s", orig, name);
}

char *
learn_parse(char *arg, const struct ofputil_port_map *map,
            const struct ofputil_table_map *tables, struct ofpbuf *ofpacts)
{
    char *orig = xstrdup(arg);
    size_t ofs = ofpacts->size;
    struct ofpact_learn *learn = ofpact_put(ofpacts, OFPACT_LEARN,
                                            sizeof *learn);
    learn->idle_timeout = OFP_FLOW_PERMANENT;
    learn->hard_timeout = OFP_FLOW_PERMANENT;
    learn->priority = OFP_DEFAULT_PRIORITY;
    learn->table_id = 1;

    struct match match;
    match_init_catchall(&match);
    char *key, *value, *error = NULL;
    while (!error && ofputil_parse_key_value(&arg, &key, &value, NULL)) {
        learn = learn_header(ofpacts, ofs);
        if (!strcmp(key, "table")) {
            if (!ofputil_table_from_string(value, tables,
                                           &learn->table_id)) {
                error = xasprintf("unknown table \"%s\"", value);
            } else if (learn->table_id == 255) {
                error = xasprintf("%s: table id 255 not valid for `learn' "
                                  "action", orig);
            }
        } else if (!strcmp(key, "priority")) {
            error = ofputil_parse_u16(value, &learn->priority);
        } else if (!strcmp(key, "idle_timeout")) {
            error = ofputil_parse_u16(value, &learn->idle_timeout);
        } else if (!strcmp(key, "hard_timeout")) {
            error = ofputil_parse_u16(value, &learn->hard_timeout);
        } else if (!strcmp(key, "fin_idle_timeout")) {
            error = ofputil_parse_u16(value, &learn->fin_idle_timeout);
        } else if (!strcmp(key, "fin_hard_timeout")) {
            error = ofputil_parse_u16(value, &learn->fin_hard_timeout);
        } else if (!strcmp(key, "cookie")) {
            uint64_t cookie;
            error = ofputil_parse_uint(value, UINT64_MAX, &cookie);
            if (!error) {
                learn->cookie = htonll(cookie);
            }
        } else if (!strcmp(key, "send_flow_rem")) {
            learn->flags |= NX_LEARN_F_SEND_FLOW_REM;
        } else if (!strcmp(key, "delete_learned")) {
            learn->flags |= NX_LEARN_F_DELETE_LEARNED;
        } else if (!strcmp(key, "limit")) {
            error = ofputil_parse_u32(value, &learn->limit);
        } else if (!strcmp(key, "result_dst")) {
            learn->flags |= NX_LEARN_F_WRITE_RESULT;
            error = mf_parse_subfield(&learn->result_dst, value);
            if (!error && !learn->result_dst.field->writable) {
                error = xasprintf("%s is read-only", value);
            } else if (!error && learn->result_dst.n_bits != 1) {
                error = xstrdup("result_dst in 'learn' action must be a "
                                "single bit");
            }
        } else {
            struct ofpact_learn_spec spec;
            memset(&spec, 0, sizeof spec);
            error = parse_spec(orig, key, value, map, &spec, &match);
            if (!error) {
                ofpbuf_put(ofpacts, &spec, sizeof spec);
                learn_header(ofpacts, ofs)->n_specs++;
            }
        }
    }
    free(orig);
    if (error) {
        ofpacts->size = ofs;
        return error;
    }
    ofpact_finish(ofpacts, &learn_header(ofpacts, ofs)->ofpact);
    return NULL;
}

/* Execution. */

void
learn_mask(const struct ofpact_learn *learn, struct flow_wildcards *wc)
{
    for (uint32_t i = 0; i < learn->n_specs; i++) {
        const struct ofpact_learn_spec *spec = &learn->specs[i];
        if (spec->src_type == NX_LEARN_SRC_FIELD) {
            struct match m;
            match_init_catchall(&m);
            uint8_t ones[16];
            memset(ones, 0xff, sizeof ones);
            match_set_subfield(&spec->src, ones, &m);
            flow_wildcards_or(wc, &m.wc);
        }
    }
}

/* SF's bits of FLOW, right-aligned in VALUE. */
static void
read_subfield(const struct mf_subfield *sf, const struct flow *flow,
              uint8_t value[16])
{
    union mf_value v;
    mf_get_value(sf->field, flow, &v);
    memset(value, 0, 16);
    bitwise_copy(v.b, sf->field->n_bytes, sf->ofs, value, 16, 0,
                 sf->n_bits);
}

void
learn_execute(const struct ofpact_learn *learn, const struct flow *flow,
              struct ofputil_flow_mod *fm, struct ofpbuf *ofpacts)
{
    memset(fm, 0, sizeof *fm);
    match_init_catchall(&fm->match);
    fm->priority = learn->priority;
    fm->new_cookie = learn->cookie;
    fm->table_id = learn->table_id;
    fm->command = OFPFC_MODIFY_STRICT;
    fm->idle_timeout = learn->idle_timeout;
    fm->hard_timeout = learn->hard_timeout;
    fm->buffer_id = UINT32_MAX;
    fm->out_port = OFPP_NONE;
    fm->out_group = UINT32_MAX;
    if (learn->flags & NX_LEARN_F_SEND_FLOW_REM) {
        fm->flags |= OFPUTIL_FF_SEND_FLOW_REM;
    }

    size_t start = ofpacts->size;
    for (uint32_t i = 0; i < learn->n_specs; i++) {
        const struct ofpact_learn_spec *spec = &learn->specs[i];
        uint8_t value[16];
        if (spec->src_type == NX_LEARN_SRC_FIELD) {
            read_subfield(&spec->src, flow, value);
        } else {
            memcpy(value, spec->imm, sizeof value);
        }
        switch (spec->dst_type) {
        case NX_LEARN_DST_MATCH:
            match_set_subfield(&spec->dst, value, &fm->match);
            break;
        case NX_LEARN_DST_LOAD: {
            const struct mf_field *f = spec->dst.field;
            struct ofpact_set_field *sf = OFPACT_PUT(ofpacts,
                                                     OFPACT_SET_FIELD,
                                                     ofpact_set_field);
            sf->ofpact.raw = OFPACT_RAW_REG_LOAD;
            sf->field = f;
            bitwise_copy(value, 16, 0, sf->value.b, f->n_bytes,
                         spec->dst.ofs, spec->n_bits);
            bitwise_one(sf->mask.b, f->n_bytes, spec->dst.ofs,
                        spec->n_bits);
            break;
        }
        case NX_LEARN_DST_OUTPUT:
            /* A port number that fits 16 bits and names a destination. */
            if (spec->n_bits <= 16
                || bitwise_is_all_zeros(value, 16, 16, 112)) {
                uint32_t port = get_be16(value + 14);
                if (port < OFPP_MAX || port == OFPP_IN_PORT
                    || port == OFPP_FLOOD || port == OFPP_LOCAL
                    || port == OFPP_ALL) {
                    struct ofpact_output *o = OFPACT_PUT(ofpacts,
                                                         OFPACT_OUTPUT,
                                                         ofpact_output);
                    o->port = port;
                }
            }
            break;
        }
    }
    fm->ofpacts = (const struct ofpact *) ((uint8_t *) ofpacts->data
                                           + start);
    fm->ofpacts_len = ofpacts->size - start;
}
