/* ofp-table: table statistics, features and table mod.  See
 * ofp-table.h. */
#include <config.h>

#include "ofp-table.h"

#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "list.h"
#include "ofp-msgs.h"
#include "ofp-prop.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "util.h"

/* Table mod property types (1.4+). */
enum {
    OFPTMPT14_EVICTION = 2,
    OFPTMPT14_VACANCY = 3,
};

/* Instruction types (OFPIT_*), as numbered on the wire. */
enum {
    OFPIT_GOTO_TABLE_ = 1,
    OFPIT_WRITE_METADATA_ = 2,
    OFPIT_WRITE_ACTIONS_ = 3,
    OFPIT_APPLY_ACTIONS_ = 4,
    OFPIT_CLEAR_ACTIONS_ = 5,
    OFPIT_METER_ = 6,
};
#define OFPIT_VALID_MASK 0x7e

/* ------------------------------------------------------------------ */
/* Field bitmaps. */

static void
fb_set(struct ofputil_field_bitmap *fb, enum mf_field_id id)
{
    fb->bits[id / 64] |= UINT64_C(1) << (id % 64);
}

static bool
fb_get(const struct ofputil_field_bitmap *fb, enum mf_field_id id)
{
    return (fb->bits[id / 64] >> (id % 64)) & 1;
}

static bool
fb_is_empty(const struct ofputil_field_bitmap *fb)
{
    for (size_t i = 0; i < ARRAY_SIZE(fb->bits); i++) {
        if (fb->bits[i]) {
            return false;
        }
    }
    return true;
}

/* Adds the field with OXM field number FIELD (class OPENFLOW_BASIC), if
 * this program knows it. */
static void
fb_set_oxm_basic(struct ofputil_field_bitmap *fb, unsigned int field)
{
    uint64_t header = ((uint64_t) OFPXMC12_OPENFLOW_BASIC << 16)
                      | (field << 9);
    const struct mf_field *mf = mf_from_nxm_header(header);
    if (mf) {
        fb_set(fb, mf->id);
    }
}

/* The OXM field number (class OPENFLOW_BASIC) of ID in VERSION, or -1:
 * only a field that VERSION names with a standard OXM code. */
static int
oxm_basic_field(enum mf_field_id id, enum ofp_version version)
{
    const struct mf_field *f = mf_from_id(id);
    for (size_t i = 0; i < ARRAY_SIZE(f->oxm); i++) {
        uint64_t header = f->oxm[i].header;
        if (header && (header >> 16) == OFPXMC12_OPENFLOW_BASIC
            && f->oxm[i].version && f->oxm[i].version <= version) {
            return (header >> 9) & 0x7f;
        }
    }
    return -1;
}

static uint64_t
fb_to_oxm_bits(const struct ofputil_field_bitmap *fb,
               enum ofp_version version)
{
    uint64_t bits = 0;
    for (int id = 0; id < MFF_N_IDS; id++) {
        if (fb_get(fb, id)) {
            int field = oxm_basic_field(id, version);
            if (field >= 0 && field < 64) {
                bits |= UINT64_C(1) << field;
            }
        }
    }
    return bits;
}

static void
fb_from_oxm_bits(struct ofputil_field_bitmap *fb, uint64_t bits)
{
    for (int field = 0; field < 64; field++) {
        if (bits & (UINT64_C(1) << field)) {
            fb_set_oxm_basic(fb, field);
        }
    }
}

/* OpenFlow 1.0 wildcard bits and the fields they stand for. */
static const struct {
    uint32_t wc;
    enum mf_field_id id;
} ofp10_wildcards[] = {
    { OFPFW10_IN_PORT, MFF_IN_PORT },
    { OFPFW10_DL_VLAN, MFF_VLAN_VID },
    { OFPFW10_DL_SRC, MFF_ETH_SRC },
    { OFPFW10_DL_DST, MFF_ETH_DST },
    { OFPFW10_DL_TYPE, MFF_ETH_TYPE },
    { OFPFW10_NW_PROTO, MFF_IP_PROTO },
    { OFPFW10_TP_SRC, MFF_TCP_SRC },
    { OFPFW10_TP_DST, MFF_TCP_DST },
    { OFPFW10_NW_SRC_MASK, MFF_IPV4_SRC },
    { OFPFW10_NW_DST_MASK, MFF_IPV4_DST },
    { OFPFW10_DL_VLAN_PCP, MFF_VLAN_PCP },
    { OFPFW10_NW_TOS, MFF_IP_DSCP },
};

/* OpenFlow 1.1 match/wildcard bits (OFPFMF11_*) and their fields.  The
 * MPLS bits have no field here and are dropped. */
static const struct {
    uint32_t bit;
    enum mf_field_id id;
} ofp11_match_bits[] = {
    { 1 << 0, MFF_IN_PORT },
    { 1 << 1, MFF_VLAN_VID },
    { 1 << 2, MFF_VLAN_PCP },
    { 1 << 3, MFF_ETH_TYPE },
    { 1 << 4, MFF_IP_DSCP },
    { 1 << 5, MFF_IP_PROTO },
    { 1 << 6, MFF_TCP_SRC },
    { 1 << 7, MFF_TCP_DST },
    { 1 << 11, MFF_ETH_SRC },
    { 1 << 12, MFF_ETH_DST },
    { 1 << 13, MFF_IPV4_SRC },
    { 1 << 14, MFF_IPV4_DST },
    { 1 << 15, MFF_METADATA },
};

static void
fb_from_ofp11_bits(struct ofputil_field_bitmap *fb, uint32_t bits)
{
    for (size_t i = 0; i < ARRAY_SIZE(ofp11_match_bits); i++) {
        if (bits & ofp11_match_bits[i].bit) {
            fb_set(fb, ofp11_match_bits[i].id);
        }
    }
}

static uint32_t
fb_to_ofp11_bits(const struct ofputil_field_bitmap *fb)
{
    uint32_t bits = 0;
    for (size_t i = 0; i < ARRAY_SIZE(ofp11_match_bits); i++) {
        if (fb_get(fb, ofp11_match_bits[i].id)) {
            bits |= ofp11_match_bits[i].bit;
        }
    }
    return bits;
}

/* ------------------------------------------------------------------ */
/* Table statistics. */

struct ofpbuf *
ofputil_encode_table_stats_request(enum ofp_version version)
{
    return ofpraw_alloc(OFPRAW_OFPST_TABLE_REQUEST, version, 0);
}

static void
put_name(char dst[OFP_MAX_TABLE_NAME_LEN], const char *src)
{
    size_t len = strnlen(src, OFP_MAX_TABLE_NAME_LEN);
    memcpy(dst, src, len);
    memset(dst + len, 0, OFP_MAX_TABLE_NAME_LEN - len);
}

static void
get_name(char dst[OFP_MAX_TABLE_NAME_LEN], const char *src)
{
    size_t len = strnlen(src, OFP_MAX_TABLE_NAME_LEN);
    if (len >= OFP_MAX_TABLE_NAME_LEN) {
        len = OFP_MAX_TABLE_NAME_LEN - 1;
    }
    memcpy(dst, src, len);
    memset(dst + len, 0, OFP_MAX_TABLE_NAME_LEN - len);
}

static uint32_t
miss_to_ofp11_config(enum ofputil_table_miss miss)
{
    return (miss == OFPUTIL_TABLE_MISS_CONTINUE ? OFPTC11_TABLE_MISS_CONTINUE
            : miss == OFPUTIL_TABLE_MISS_DROP ? OFPTC11_TABLE_MISS_DROP
            : OFPTC11_TABLE_MISS_CONTROLLER);
}

static enum ofputil_table_miss
miss_from_ofp11_config(uint32_t config)
{
    switch (config & OFPTC11_TABLE_MISS_MASK) {
    case OFPTC11_TABLE_MISS_CONTROLLER: return OFPUTIL_TABLE_MISS_CONTROLLER;
    case OFPTC11_TABLE_MISS_CONTINUE: return OFPUTIL_TABLE_MISS_CONTINUE;
    case OFPTC11_TABLE_MISS_DROP: return OFPUTIL_TABLE_MISS_DROP;
    default:
        /* The fourth value is undefined; 3.1 reads it as "controller". */
        return OFPUTIL_TABLE_MISS_CONTROLLER;
    }
}

void
ofputil_append_table_stats_reply(struct ofpbuf *reply,
                                 const struct ofputil_table_stats *ts,
                                 const struct ofputil_table_features *tf)
{
    const struct ofp_header *oh = reply->header;
    enum ofp_version version = oh->version;
    if (version == OFP10_VERSION) {
        struct ofp10_table_stats *out = ofpbuf_put_zeros(reply, sizeof *out);
        out->table_id = ts->table_id;
        put_name(out->name, tf->name);
        uint32_t wc = 0;
        for (size_t i = 0; i < ARRAY_SIZE(ofp10_wildcards); i++) {
            if (fb_get(&tf->wildcard, ofp10_wildcards[i].id)) {
                wc |= ofp10_wildcards[i].wc;
            }
        }
        out->wildcards = htonl(wc);
        out->max_entries = htonl(tf->max_entries);
        out->active_count = htonl(ts->active_count);
        out->lookup_count = htonll(ts->lookup_count);
        out->matched_count = htonll(ts->matched_count);
    } else if (version == OFP11_VERSION) {
        struct ofp11_table_stats *out = ofpbuf_put_zeros(reply, sizeof *out);
        out->table_id = ts->table_id;
        put_name(out->name, tf->name);
        out->wildcards = htonl(fb_to_ofp11_bits(&tf->wildcard));
        out->match = htonl(fb_to_ofp11_bits(&tf->match));
        out->instructions = htonl(tf->nonmiss.instructions);
        out->write_actions = htonl(tf->nonmiss.write.actions);
        out->apply_actions = htonl(tf->nonmiss.apply.actions);
        out->config = htonl(miss_to_ofp11_config(tf->miss_config));
        out->max_entries = htonl(tf->max_entries);
        out->active_count = htonl(ts->active_count);
        out->lookup_count = htonll(ts->lookup_count);
        out->matched_count = htonll(ts->matched_count);
    } else if (version == OFP12_VERSION) {
        struct ofp12_table_stats *out = ofpbuf_put_zeros(reply, sizeof *out);
        out->table_id = ts->table_id;
        put_name(out->name, tf->name);
        out->match = htonll(fb_to_oxm_bits(&tf->match, version));
        out->wildcards = htonll(fb_to_oxm_bits(&tf->wildcard, version));
        out->write_actions = htonl(tf->nonmiss.write.actions);
        out->apply_actions = htonl(tf->nonmiss.apply.actions);
        out->write_setfields = htonll(fb_to_oxm_bits(
                                          &tf->nonmiss.write.set_fields,
                                          version));
        out->apply_setfields = htonll(fb_to_oxm_bits(
                                          &tf->nonmiss.apply.set_fields,
                                          version));
        out->metadata_match = htonll(tf->metadata_match);
        out->metadata_write = htonll(tf->metadata_write);
        out->instructions = htonl(tf->nonmiss.instructions);
        out->config = htonl(miss_to_ofp11_config(tf->miss_config));
        out->max_entries = htonl(tf->max_entries);
        out->active_count = htonl(ts->active_count);
        out->lookup_count = htonll(ts->lookup_count);
        out->matched_count = htonll(ts->matched_count);
    } else {
        struct ofp13_table_stats *out = ofpbuf_put_zeros(reply, sizeof *out);
        out->table_id = ts->table_id;
        out->active_count = htonl(ts->active_count);
        out->lookup_count = htonll(ts->lookup_count);
        out->matched_count = htonll(ts->matched_count);
    }
    ofpmsg_update_length(reply);
}

int
ofputil_decode_table_stats_reply(struct ofpbuf *msg,
                                 struct ofputil_table_stats *ts,
                                 struct ofputil_table_features *tf)
{
    memset(ts, 0, sizeof *ts);
    memset(tf, 0, sizeof *tf);

    enum ofpraw raw;
    enum ofperr error = (msg->header ? ofpraw_decode(&raw, msg->header)
                         : ofpraw_pull(&raw, msg));
    if (error) {
        return error;
    }
    if (!msg->size) {
        return EOF;
    }

    switch (raw) {
    case OFPRAW_OFPST10_TABLE_REPLY: {
        const struct ofp10_table_stats *in = ofpbuf_try_pull(msg,
                                                             sizeof *in);
        if (!in) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        tf->layout = OFPUTIL_TFL_OF10;
        ts->table_id = tf->table_id = in->table_id;
        get_name(tf->name, in->name);
        uint32_t wc = ntohl(in->wildcards);
        for (size_t i = 0; i < ARRAY_SIZE(ofp10_wildcards); i++) {
            if (wc & ofp10_wildcards[i].wc) {
                fb_set(&tf->match, ofp10_wildcards[i].id);
                fb_set(&tf->wildcard, ofp10_wildcards[i].id);
            }
        }
        tf->max_entries = ntohl(in->max_entries);
        ts->active_count = ntohl(in->active_count);
        ts->lookup_count = ntohll(in->lookup_count);
        ts->matched_count = ntohll(in->matched_count);
        return 0;
    }
    case OFPRAW_OFPST11_TABLE_REPLY: {
        const struct ofp11_table_stats *in = ofpbuf_try_pull(msg,
                                                             sizeof *in);
        if (!in) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        tf->layout = OFPUTIL_TFL_OF11;
        ts->table_id = tf->table_id = in->table_id;
        get_name(tf->name, in->name);
        fb_from_ofp11_bits(&tf->match, ntohl(in->match));
        fb_from_ofp11_bits(&tf->wildcard, ntohl(in->wildcards));
        tf->nonmiss.instructions = ntohl(in->instructions)
                                   & OFPIT_VALID_MASK & ~(1u << OFPIT_METER_);
        /* 1.1 action types 0..24, without the TTL copies. */
        uint64_t valid = 0x1ffffff & ~(UINT64_C(3) << 11);
        /* 3.1 reads 1.1's write_actions as what both instructions
         * support. */
        tf->nonmiss.write.actions = ntohl(in->write_actions) & valid;
        tf->nonmiss.apply.actions = tf->nonmiss.write.actions;
        tf->miss_config = miss_from_ofp11_config(ntohl(in->config));
        tf->max_entries = ntohl(in->max_entries);
        tf->miss = tf->nonmiss;
        ts->active_count = ntohl(in->active_count);
        ts->lookup_count = ntohll(in->lookup_count);
        ts->matched_count = ntohll(in->matched_count);
            return 0;
    }
    case OFPRAW_OFPST12_TABLE_REPLY: {
        const struct ofp12_table_stats *in = ofpbuf_try_pull(msg,
                                                             sizeof *in);
        if (!in) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        tf->layout = OFPUTIL_TFL_OF12;
        ts->table_id = tf->table_id = in->table_id;
        get_name(tf->name, in->name);
        fb_from_oxm_bits(&tf->match, ntohll(in->match));
        fb_from_oxm_bits(&tf->wildcard, ntohll(in->wildcards));
        /* 1.2 action types: output, then 15..25 (1.1's set_* became
         * set_field), without the TTL copies. */
        uint64_t valid = 1 | (UINT64_C(0x7ff) << 15);
        tf->nonmiss.write.actions = ntohl(in->write_actions) & valid;
        tf->nonmiss.apply.actions = ntohl(in->apply_actions) & valid;
        fb_from_oxm_bits(&tf->nonmiss.write.set_fields,
                         ntohll(in->write_setfields));
        fb_from_oxm_bits(&tf->nonmiss.apply.set_fields,
                         ntohll(in->apply_setfields));
        tf->metadata_match = ntohll(in->metadata_match);
        tf->metadata_write = ntohll(in->metadata_write);
        tf->nonmiss.instructions = ntohl(in->instructions)
                                   & OFPIT_VALID_MASK & ~(1u << OFPIT_METER_);
        tf->miss_config = miss_from_ofp11_config(ntohl(in->config));
        tf->max_entries = ntohl(in->max_entries);
        tf->miss = tf->nonmiss;
        ts->active_count = ntohl(in->active_count);
        ts->lookup_count = ntohll(in->lookup_count);
        ts->matched_count = ntohll(in->matched_count);
        return 0;
    }
    case OFPRAW_OFPST13_TABLE_REPLY: {
        const struct ofp13_table_stats *in = ofpbuf_try_pull(msg,
                                                             sizeof *in);
        if (!in) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        tf->layout = OFPUTIL_TFL_NONE;
        ts->table_id = tf->table_id = in->table_id;
        ts->active_count = ntohl(in->active_count);
        ts->lookup_count = ntohll(in->lookup_count);
        ts->matched_count = ntohll(in->matched_count);
        return 0;
    }
    default:
        return OFPERR_OFPBRC_BAD_TYPE;
    }
}

/* ------------------------------------------------------------------ */
/* Table features. */

struct ofpbuf *
ofputil_encode_table_features_request(enum ofp_version version)
{
    return ofpraw_alloc(OFPRAW_OFPST13_TABLE_FEATURES_REQUEST, version, 0);
}

/* 1.2+ action types this program names (output, 15..25 without the TTL
 * copies at 11 and 12). */
#define OFP12_ACTIONS_VALID (1 | (UINT64_C(0x7ff) << 15))

static void
put_prop(struct ofpbuf *b, uint16_t type, const void *body, size_t len)
{
    struct ofp_prop_header *ph = ofpbuf_put_uninit(b, sizeof *ph);
    ph->type = htons(type);
    ph->len = htons(sizeof *ph + len);
    ofpbuf_put(b, body, len);
    ofpbuf_put_zeros(b, ROUND_UP(sizeof *ph + len, 8) - (sizeof *ph + len));
}

static void
put_instructions_prop(struct ofpbuf *b, uint16_t type, uint32_t insts)
{
    struct ofpbuf body;
    ofpbuf_init(&body, 32);
    for (int t = 1; t <= OFPIT_METER_; t++) {
        if (insts & (1u << t)) {
            ovs_be16 hdr[2] = { htons(t), htons(4) };
            ofpbuf_put(&body, hdr, sizeof hdr);
        }
    }
    put_prop(b, type, body.data, body.size);
    ofpbuf_uninit(&body);
}

static void
put_next_tables_prop(struct ofpbuf *b, uint16_t type, const uint64_t next[4])
{
    uint8_t ids[256];
    size_t n = 0;
    for (int t = 0; t < 256; t++) {
        if ((next[t / 64] >> (t % 64)) & 1) {
            ids[n++] = t;
        }
    }
    put_prop(b, type, ids, n);
}

static void
put_actions_prop(struct ofpbuf *b, uint16_t type, uint64_t actions)
{
    struct ofpbuf body;
    ofpbuf_init(&body, 64);
    for (int t = 0; t < 64; t++) {
        if (actions & (UINT64_C(1) << t)) {
            ovs_be16 hdr[2] = { htons(t), htons(4) };
            ofpbuf_put(&body, hdr, sizeof hdr);
        }
    }
    put_prop(b, type, body.data, body.size);
    ofpbuf_uninit(&body);
}

static void
put_fields_prop(struct ofpbuf *b, uint16_t type,
                const struct ofputil_field_bitmap *fields,
                const struct ofputil_field_bitmap *masks,
                enum ofp_version version)
{
    struct ofpbuf body;
    ofpbuf_init(&body, 64);
    for (int id = 0; id < MFF_N_IDS; id++) {
        if (!fb_get(fields, id)) {
            continue;
        }
        uint64_t header = mf_oxm_header(id, version);
        if (!header) {
            continue;
        }
        if (masks && fb_get(masks, id)) {
            /* Masked: the HM bit, and twice the length. */
            header = nxm_make_wild(header);
        }
        ovs_be32 be = htonl(header);
        ofpbuf_put(&body, &be, sizeof be);
        if (nxm_is_experimenter(header)) {
            ovs_be32 experimenter = htonl(nxm_vendor(header));
            ofpbuf_put(&body, &experimenter, sizeof experimenter);
        }
    }
    put_prop(b, type, body.data, body.size);
    ofpbuf_uninit(&body);
}

void
ofputil_start_table_features_request(struct ovs_list *requests,
                                     enum ofp_version version)
{
    ovs_list_init(requests);
    struct ofpbuf *msg = ofpraw_alloc(OFPRAW_OFPST13_TABLE_FEATURES_REQUEST,
                                      version, 0);
    ovs_list_push_back(requests, &msg->list_node);
}

static bool
bits_subset(const uint64_t *a, const uint64_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i] & ~b[i]) {
            return false;
        }
    }
    return true;
}

static bool
instruction_features_subset(
    const struct ofputil_table_instruction_features *a,
    const struct ofputil_table_instruction_features *b)
{
    return (bits_subset(a->next, b->next, ARRAY_SIZE(a->next))
            && !(a->instructions & ~b->instructions)
            && !(a->write.actions & ~b->write.actions)
            && !(a->apply.actions & ~b->apply.actions)
            && bits_subset(a->write.set_fields.bits, b->write.set_fields.bits,
                           ARRAY_SIZE(a->write.set_fields.bits))
            && bits_subset(a->apply.set_fields.bits, b->apply.set_fields.bits,
                           ARRAY_SIZE(a->apply.set_fields.bits)));
}

bool
ofputil_table_features_are_superset(
    const struct ofputil_table_features *cur,
    const struct ofputil_table_features *req)
{
    size_t n = ARRAY_SIZE(cur->match.bits);
    return (!(req->metadata_match & ~cur->metadata_match)
            && !(req->metadata_write & ~cur->metadata_write)
            && !(req->capabilities & ~cur->capabilities)
            && req->max_entries <= cur->max_entries
            && instruction_features_subset(&req->nonmiss, &cur->nonmiss)
            && instruction_features_subset(&req->miss, &cur->miss)
            && bits_subset(req->match.bits, cur->match.bits, n)
            && bits_subset(req->mask.bits, cur->mask.bits, n)
            && bits_subset(req->wildcard.bits, cur->wildcard.bits, n));
}

/* TF's properties, in the order 3.1 writes them. */
static void
put_table_features_props(struct ofpbuf *reply,
                         const struct ofputil_table_features *tf,
                         enum ofp_version version)
{
    for (int miss = 0; miss < 2; miss++) {
        const struct ofputil_table_instruction_features *f
            = miss ? &tf->miss : &tf->nonmiss;
        put_instructions_prop(reply, OFPTFPT13_INSTRUCTIONS + miss,
                              f->instructions);
        put_next_tables_prop(reply, OFPTFPT13_NEXT_TABLES + miss, f->next);
        put_actions_prop(reply, OFPTFPT13_WRITE_ACTIONS + miss,
                         f->write.actions);
        put_actions_prop(reply, OFPTFPT13_APPLY_ACTIONS + miss,
                         f->apply.actions);
    }
    put_fields_prop(reply, OFPTFPT13_MATCH, &tf->match, &tf->mask, version);
    put_fields_prop(reply, OFPTFPT13_WILDCARDS, &tf->wildcard, NULL,
                    version);
    for (int miss = 0; miss < 2; miss++) {
        const struct ofputil_table_instruction_features *f
            = miss ? &tf->miss : &tf->nonmiss;
        put_fields_prop(reply, OFPTFPT13_WRITE_SETFIELD + miss,
                        &f->write.set_fields, NULL, version);
        put_fields_prop(reply, OFPTFPT13_APPLY_SETFIELD + miss,
                        &f->apply.set_fields, NULL, version);
    }
}

void
ofputil_append_table_features(const struct ofputil_table_features *tf,
                              struct ovs_list *replies)
{
    enum ofp_version version = ofpmp_version(replies);
    struct ofpbuf *reply = ofpbuf_from_list(ovs_list_back(replies));
    size_t start_ofs = reply->size;

    struct ofp13_table_features *otf = ofpbuf_put_zeros(reply, sizeof *otf);
    otf->table_id = tf->table_id;
    if (version >= OFP15_VERSION) {
        otf->command = tf->command;
    }
    put_name(otf->name, tf->name);
    otf->metadata_match = htonll(tf->metadata_match);
    otf->metadata_write = htonll(tf->metadata_write);
    otf->capabilities = htonl(tf->capabilities);
    otf->max_entries = htonl(tf->max_entries);
    if (!tf->fixed_only) {
        put_table_features_props(reply, tf, version);
    }

    otf = ofpbuf_at_assert(reply, start_ofs, sizeof *otf);
    otf->length = htons(reply->size - start_ofs);
    ofpmp_postappend(replies, start_ofs);
}

/* Parses a property body that is a list of 4-byte instruction or action
 * headers (type, length) into a bitmap of types below LIMIT.  Other
 * types are skipped, or if UNKNOWN_IS_ERROR (instructions, whose set is
 * closed) OFPTFFC_BAD_FEATURES, experimenter ones excepted. */
static enum ofperr
parse_type_list(const uint8_t *p, size_t len, unsigned int limit,
                bool unknown_is_error, uint64_t *bits)
{
    *bits = 0;
    while (len > 0) {
        if (len < 4) {
            return OFPERR_OFPBPC_BAD_LEN;
        }
        uint16_t type = (p[0] << 8) | p[1];
        uint16_t elen = (p[2] << 8) | p[3];
        if (elen < 4 || elen > len) {
            return OFPERR_OFPBPC_BAD_LEN;
        }
        if (type < limit) {
            *bits |= UINT64_C(1) << type;
        } else if (unknown_is_error && type != 0xffff) {
            return OFPERR_OFPTFFC_BAD_FEATURES;
        }
        p += elen;
        len -= elen;
    }
    return 0;
}

/* Parses a list of OXM headers into FIELDS (and, for masked headers,
 * MASKS).  Experimenter OXMs (8 bytes) and unknown fields are skipped. */
static enum ofperr
parse_oxm_list(const uint8_t *p, size_t len,
               struct ofputil_field_bitmap *fields,
               struct ofputil_field_bitmap *masks)
{
    while (len > 0) {
        if (len < 4) {
            return OFPERR_OFPBMC_BAD_LEN;
        }
        uint32_t h = ((uint32_t) p[0] << 24) | (p[1] << 16) | (p[2] << 8)
                     | p[3];
        size_t hlen = (h >> 16) == OFPXMC12_EXPERIMENTER ? 8 : 4;
        if (hlen > len) {
            return OFPERR_OFPBMC_BAD_LEN;
        }
        /* A header whose length does not fit its field (twice the field
         * for a masked one) names nothing; 3.1 skips it. */
        uint64_t header = h;
        if (hlen == 8) {
            header |= (uint64_t) (((uint32_t) p[4] << 24) | (p[5] << 16)
                                  | (p[6] << 8) | p[7]) << 32;
        }
        const struct mf_field *mf = mf_from_nxm_header(header);
        bool masked = nxm_hasmask(header);
        if (mf && nxm_payload_len(header) == mf->n_bytes * (masked ? 2 : 1)
            && (!masked || mf->maskable != MFM_NONE)) {
            fb_set(fields, mf->id);
            if (masks && masked) {
                fb_set(masks, mf->id);
            }
        }
        p += hlen;
        len -= hlen;
    }
    return 0;
}

int
ofputil_decode_table_features(struct ofpbuf *msg,
                              struct ofputil_table_features *tf, bool loose)
{
    memset(tf, 0, sizeof *tf);

    enum ofpraw raw;
    enum ofperr error = (msg->header ? ofpraw_decode(&raw, msg->header)
                         : ofpraw_pull(&raw, msg));
    if (error) {
        return error;
    }
    if (raw != OFPRAW_OFPST13_TABLE_FEATURES_REPLY
        && raw != OFPRAW_OFPST13_TABLE_FEATURES_REQUEST) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    const struct ofp_header *oh = msg->header;
    tf->layout = (oh->version >= OFP14_VERSION ? OFPUTIL_TFL_OF14
                  : OFPUTIL_TFL_OF13);
    if (!msg->size) {
        return EOF;
    }
    if (msg->size < sizeof(struct ofp13_table_features)) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    const struct ofp13_table_features *otf = msg->data;
    size_t len = ntohs(otf->length);
    if (len < sizeof *otf || len % 8 || len > msg->size) {
        return OFPERR_OFPBPC_BAD_LEN;
    }
    ofpbuf_pull(msg, len);

    if (otf->table_id > OFPTT_MAX) {
        return OFPERR_OFPTFFC_BAD_TABLE;
    }
    tf->table_id = otf->table_id;
    if (oh->version >= OFP15_VERSION) {
        tf->command = otf->command;
    }
    get_name(tf->name, otf->name);
    tf->metadata_match = ntohll(otf->metadata_match);
    tf->metadata_write = ntohll(otf->metadata_write);
    tf->capabilities = ntohl(otf->capabilities);
    tf->max_entries = ntohl(otf->max_entries);

    const uint8_t *p = (const uint8_t *) (otf + 1);
    size_t left = len - sizeof *otf;
    uint32_t seen = 0;
    while (left > 0) {
        if (left < 4) {
            return OFPERR_OFPBPC_BAD_LEN;
        }
        uint16_t type = (p[0] << 8) | p[1];
        uint16_t plen = (p[2] << 8) | p[3];
        if (plen < 4 || (size_t) ROUND_UP(plen, 8) > left) {
            return OFPERR_OFPBPC_BAD_LEN;
        }
        const uint8_t *body = p + 4;
        size_t blen = plen - 4;
        bool miss = type & 1;
        struct ofputil_table_instruction_features *f
            = miss ? &tf->miss : &tf->nonmiss;
        uint64_t bits;
        switch (type) {
        case OFPTFPT13_INSTRUCTIONS:
        case OFPTFPT13_INSTRUCTIONS_MISS:
            error = parse_type_list(body, blen, OFPIT_METER_ + 1, true,
                                    &bits);
            f->instructions = bits & OFPIT_VALID_MASK;
            break;
        case OFPTFPT13_NEXT_TABLES:
        case OFPTFPT13_NEXT_TABLES_MISS:
            for (size_t i = 0; i < blen; i++) {
                f->next[body[i] / 64] |= UINT64_C(1) << (body[i] % 64);
            }
            break;
        case OFPTFPT13_WRITE_ACTIONS:
        case OFPTFPT13_WRITE_ACTIONS_MISS:
            error = parse_type_list(body, blen, 64, false, &bits);
            f->write.actions = bits & OFP12_ACTIONS_VALID;
            break;
        case OFPTFPT13_APPLY_ACTIONS:
        case OFPTFPT13_APPLY_ACTIONS_MISS:
            error = parse_type_list(body, blen, 64, false, &bits);
            f->apply.actions = bits & OFP12_ACTIONS_VALID;
            break;
        case OFPTFPT13_MATCH:
            error = parse_oxm_list(body, blen, &tf->match, &tf->mask);
            break;
        case OFPTFPT13_WILDCARDS:
            error = parse_oxm_list(body, blen, &tf->wildcard, NULL);
            break;
        case OFPTFPT13_WRITE_SETFIELD:
        case OFPTFPT13_WRITE_SETFIELD_MISS:
            error = parse_oxm_list(body, blen, &f->write.set_fields, NULL);
            break;
        case OFPTFPT13_APPLY_SETFIELD:
        case OFPTFPT13_APPLY_SETFIELD_MISS:
            error = parse_oxm_list(body, blen, &f->apply.set_fields, NULL);
            break;
        case OFPTFPT13_EXPERIMENTER:
        case OFPTFPT13_EXPERIMENTER_MISS:
            if (plen < sizeof(struct ofp_prop_experimenter)) {
                return OFPERR_OFPBPC_BAD_LEN;
            }
            break;
        default:
            if (!loose) {
                return OFPERR_OFPBPC_BAD_TYPE;
            }
            break;
        }
        if (error) {
            return error;
        }
        if (type < 32) {
            seen |= 1u << type;
        }
        p += ROUND_UP(plen, 8);
        left -= ROUND_UP(plen, 8);
    }

    /* Every non-miss property must be there (in 1.5, unless there are
     * none: the table's fixed part alone, as in a modify of its name); a
     * missing miss property means "same as for other flows". */
    static const uint8_t required[] = {
        OFPTFPT13_INSTRUCTIONS, OFPTFPT13_NEXT_TABLES,
        OFPTFPT13_WRITE_ACTIONS, OFPTFPT13_APPLY_ACTIONS, OFPTFPT13_MATCH,
        OFPTFPT13_WILDCARDS, OFPTFPT13_WRITE_SETFIELD,
        OFPTFPT13_APPLY_SETFIELD,
    };
    if (!seen && oh->version >= OFP15_VERSION) {
        tf->fixed_only = true;
        return 0;
    }
    for (size_t i = 0; i < ARRAY_SIZE(required); i++) {
        if (!(seen & (1u << required[i]))) {
            return OFPERR_OFPTFFC_BAD_FEATURES;
        }
    }
    if (!(seen & (1u << OFPTFPT13_INSTRUCTIONS_MISS))) {
        tf->miss.instructions = tf->nonmiss.instructions;
    }
    if (!(seen & (1u << OFPTFPT13_NEXT_TABLES_MISS))) {
        memcpy(tf->miss.next, tf->nonmiss.next, sizeof tf->miss.next);
    }
    if (!(seen & (1u << OFPTFPT13_WRITE_ACTIONS_MISS))) {
        tf->miss.write.actions = tf->nonmiss.write.actions;
    }
    if (!(seen & (1u << OFPTFPT13_APPLY_ACTIONS_MISS))) {
        tf->miss.apply.actions = tf->nonmiss.apply.actions;
    }
    if (!(seen & (1u << OFPTFPT13_WRITE_SETFIELD_MISS))) {
        tf->miss.write.set_fields = tf->nonmiss.write.set_fields;
    }
    if (!(seen & (1u << OFPTFPT13_APPLY_SETFIELD_MISS))) {
        tf->miss.apply.set_fields = tf->nonmiss.apply.set_fields;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Printing. */

/* Names of the instruction types in the order 3.1 lists them. */
static const struct {
    int type;
    const char *name;
} instruction_names[] = {
    { OFPIT_METER_, "meter" },
    { OFPIT_APPLY_ACTIONS_, "apply_actions" },
    { OFPIT_CLEAR_ACTIONS_, "clear_actions" },
    { OFPIT_WRITE_ACTIONS_, "write_actions" },
    { OFPIT_WRITE_METADATA_, "write_metadata" },
    { OFPIT_GOTO_TABLE_, "goto_table" },
};

/* Action types (1.1+ numbering) with the names of the actions they
 * decode to, in the order 3.1 lists them. */
static const struct {
    int type;
    const char *name;
} action_names[] = {
    { 0, "output" }, { 22, "group" }, { 25, "set_field" },
    { 1, "set_vlan_vid" }, { 2, "set_vlan_pcp" }, { 18, "strip_vlan" },
    { 17, "push_vlan" }, { 3, "mod_dl_src" }, { 4, "mod_dl_dst" },
    { 5, "mod_nw_src" }, { 6, "mod_nw_dst" }, { 7, "mod_nw_tos" },
    { 8, "mod_nw_ecn" }, { 23, "mod_nw_ttl" }, { 9, "mod_tp_src" },
    { 10, "mod_tp_dst" }, { 24, "dec_ttl" }, { 13, "set_mpls_label" },
    { 14, "set_mpls_tc" }, { 15, "set_mpls_ttl" }, { 16, "dec_mpls_ttl" },
    { 19, "push_mpls" }, { 20, "pop_mpls" }, { 21, "set_queue" },
};

/* Whether NAME is BASE followed by the decimal number N. */
static bool
is_numbered(const char *name, const char *base, size_t base_len, long n)
{
    if (strncmp(name, base, base_len)) {
        return false;
    }
    char buf[32];
    snprintf(buf, sizeof buf, "%ld", n);
    return !strcmp(name + base_len, buf);
}

/* Appends NAMES[0..N-1] as 3.1 lists fields: names that share the part up
 * to their first '_' are grouped as "prefix_{rest,rest}", recursively
 * ("tun_{id,ipv6_{src,dst}}"), and runs of three or more names that count
 * up by one ("reg0", "reg1", ...) become "reg0...reg15".  SEP separates
 * the items (a space at the top, a comma inside braces). */
static void
format_name_list(struct ds *s, const char *names[], size_t n, char sep)
{
    for (size_t i = 0; i < n; ) {
        if (i) {
            ds_put_char(s, sep);
        }
        const char *name = names[i];
        const char *us = strchr(name, '_');
        size_t j = i + 1;
        if (us) {
            size_t plen = us - name + 1;
            while (j < n && !strncmp(names[j], name, plen)) {
                j++;
            }
            if (j - i > 1) {
                const char *rests[MFF_N_IDS];
                for (size_t k = i; k < j; k++) {
                    rests[k - i] = names[k] + plen;
                }
                ds_put_buffer(s, name, plen);
                ds_put_char(s, '{');
                format_name_list(s, rests, j - i, ',');
                ds_put_char(s, '}');
                i = j;
                continue;
            }
        } else {
            /* A numbered run: BASE then digits, counting up by one. */
            size_t base_len = strlen(name);
            while (base_len && name[base_len - 1] >= '0'
                   && name[base_len - 1] <= '9') {
                base_len--;
            }
            if (base_len < strlen(name)) {
                long first = strtol(name + base_len, NULL, 10);
                while (j < n && is_numbered(names[j], name, base_len,
                                            first + (long) (j - i))) {
                    j++;
                }
                if (j - i >= 3) {
                    ds_put_format(s, "%s...%s", name, names[j - 1]);
                    i = j;
                    continue;
                }
                j = i + 1;
            }
        }
        ds_put_cstr(s, name);
        i = j;
    }
}

/* The fields of FB, in field order, as 3.1 lists them. */
static void
format_fields(struct ds *s, const struct ofputil_field_bitmap *fb)
{
    const char *names[MFF_N_IDS];
    size_t n = 0;
    for (int id = 0; id < MFF_N_IDS; id++) {
        if (fb_get(fb, id)) {
            names[n++] = mf_from_id(id)->name;
        }
    }
    format_name_list(s, names, n, ' ');
}

static void
format_next_tables(struct ds *s, const uint64_t next[4])
{
    bool first = true;
    for (int t = 0; t < 256; ) {
        if (!((next[t / 64] >> (t % 64)) & 1)) {
            t++;
            continue;
        }
        int end = t;
        while (end + 1 < 256 && (next[(end + 1) / 64] >> ((end + 1) % 64))
                                 & 1) {
            end++;
        }
        ds_put_format(s, "%s%d", first ? "" : ",", t);
        if (end > t) {
            ds_put_format(s, "-%d", end);
        }
        first = false;
        t = end + 1;
    }
}

static bool
action_features_equal(const struct ofputil_table_instruction_features *f)
{
    return (f->write.actions == f->apply.actions
            && !memcmp(&f->write.set_fields, &f->apply.set_fields,
                       sizeof f->write.set_fields));
}

static void
format_action_features(struct ds *s, uint64_t actions,
                       const struct ofputil_field_bitmap *set_fields)
{
    ds_put_cstr(s, "        actions:");
    for (size_t i = 0; i < ARRAY_SIZE(action_names); i++) {
        if (actions & (UINT64_C(1) << action_names[i].type)) {
            ds_put_format(s, " %s", action_names[i].name);
        }
    }
    ds_put_char(s, '\n');
    if (!fb_is_empty(set_fields)) {
        ds_put_cstr(s, "        supported on Set-Field: ");
        format_fields(s, set_fields);
        ds_put_char(s, '\n');
    }
}

static bool
instruction_features_empty(const struct ofputil_table_instruction_features
                           *f)
{
    static const struct ofputil_table_instruction_features zero;
    return !memcmp(f, &zero, sizeof *f);
}

/* PREV is the previous table's features of the same kind, or NULL: when
 * its actions are the same, 3.1 says so instead of listing them. */
static void
format_instruction_features(struct ds *s, const char *title,
                            const struct ofputil_table_instruction_features
                            *f,
                            const struct ofputil_table_instruction_features
                            *prev)
{
    ds_put_format(s, "    instructions (%s):\n", title);
    if (f->next[0] || f->next[1] || f->next[2] || f->next[3]) {
        ds_put_cstr(s, "      next tables: ");
        format_next_tables(s, f->next);
        ds_put_char(s, '\n');
    }
    if (f->instructions) {
        ds_put_cstr(s, "      instructions:");
        for (size_t i = 0; i < ARRAY_SIZE(instruction_names); i++) {
            if (f->instructions & (1u << instruction_names[i].type)) {
                ds_put_format(s, " %s", instruction_names[i].name);
            }
        }
        ds_put_char(s, '\n');
    }
    if (prev && f->write.actions == prev->write.actions
        && f->apply.actions == prev->apply.actions
        && !memcmp(&f->write.set_fields, &prev->write.set_fields,
                   sizeof f->write.set_fields)
        && !memcmp(&f->apply.set_fields, &prev->apply.set_fields,
                   sizeof f->apply.set_fields)) {
        ds_put_cstr(s, "      (same actions)\n");
    } else if (action_features_equal(f)) {
        ds_put_cstr(s, "      Write-Actions and Apply-Actions features:\n");
        format_action_features(s, f->write.actions, &f->write.set_fields);
    } else {
        ds_put_cstr(s, "      Write-Actions features:\n");
        format_action_features(s, f->write.actions, &f->write.set_fields);
        ds_put_cstr(s, "      Apply-Actions features:\n");
        format_action_features(s, f->apply.actions, &f->apply.set_fields);
    }
}

static bool
matching_equal(const struct ofputil_table_features *a,
               const struct ofputil_table_features *b)
{
    return (!memcmp(&a->match, &b->match, sizeof a->match)
            && !memcmp(&a->mask, &b->mask, sizeof a->mask)
            && !memcmp(&a->wildcard, &b->wildcard, sizeof a->wildcard));
}

/* Whether two tables' instruction features are the same, for 3.1's
 * abbreviations: the next tables are left out, since each table usually
 * differs there (it can go only to later tables). */
static bool
instruction_features_equal_but_next(
    const struct ofputil_table_instruction_features *a,
    const struct ofputil_table_instruction_features *b)
{
    return (a->instructions == b->instructions
            && a->write.actions == b->write.actions
            && a->apply.actions == b->apply.actions
            && !memcmp(&a->write.set_fields, &b->write.set_fields,
                       sizeof a->write.set_fields)
            && !memcmp(&a->apply.set_fields, &b->apply.set_fields,
                       sizeof a->apply.set_fields));
}

static bool
instructions_equal(const struct ofputil_table_features *a,
                   const struct ofputil_table_features *b)
{
    return (instruction_features_equal_but_next(&a->nonmiss, &b->nonmiss)
            && instruction_features_equal_but_next(&a->miss, &b->miss));
}

/* Equal apart from the table id and name. */
static bool
features_equal(const struct ofputil_table_features *a,
               const struct ofputil_table_features *b)
{
    return (a->metadata_match == b->metadata_match
            && a->metadata_write == b->metadata_write
            && a->max_entries == b->max_entries
            && a->miss_config == b->miss_config
            && a->layout == b->layout
            && instructions_equal(a, b) && matching_equal(a, b));
}

static void
format_matching(struct ds *s, const struct ofputil_table_features *tf)
{
    if (fb_is_empty(&tf->match)) {
        return;
    }
    struct ofputil_field_bitmap arbitrary, optional, exact;
    memset(&arbitrary, 0, sizeof arbitrary);
    memset(&optional, 0, sizeof optional);
    memset(&exact, 0, sizeof exact);
    for (int id = 0; id < MFF_N_IDS; id++) {
        if (!fb_get(&tf->match, id)) {
            continue;
        }
        if (fb_get(&tf->mask, id)) {
            fb_set(&arbitrary, id);
        } else if (fb_get(&tf->wildcard, id)) {
            fb_set(&optional, id);
        } else {
            fb_set(&exact, id);
        }
    }
    ds_put_cstr(s, "    matching:\n");
    if (!fb_is_empty(&arbitrary)) {
        ds_put_cstr(s, "      arbitrary mask: ");
        format_fields(s, &arbitrary);
        ds_put_char(s, '\n');
    }
    if (!fb_is_empty(&optional)) {
        ds_put_cstr(s, "      exact match or wildcard: ");
        format_fields(s, &optional);
        ds_put_char(s, '\n');
    }
    if (!fb_is_empty(&exact)) {
        ds_put_cstr(s, "      must exact match: ");
        format_fields(s, &exact);
        ds_put_char(s, '\n');
    }
}

/* The features part of a table block.  PREV is the previous table's, or
 * NULL. */
static void
format_features(struct ds *s, const struct ofputil_table_features *tf,
                const struct ofputil_table_features *prev)
{
    if (tf->layout == OFPUTIL_TFL_NONE) {
        return;
    }
    if (prev && features_equal(tf, prev)) {
        ds_put_cstr(s, "    (same features)\n");
        return;
    }
    if (tf->metadata_match || tf->metadata_write) {
        ds_put_format(s, "    metadata: match=%#"PRIx64" write=%#"PRIx64"\n",
                      tf->metadata_match, tf->metadata_write);
    }
    if (tf->layout == OFPUTIL_TFL_OF14) {
        ds_put_format(s, "    eviction: %ssupported\n",
                      tf->capabilities & OFPTC14_EVICTION ? "" : "not ");
        ds_put_format(s, "    vacancy events: %ssupported\n",
                      tf->capabilities & OFPTC14_VACANCY_EVENTS
                      ? "" : "not ");
    }
    if (tf->layout == OFPUTIL_TFL_OF11 || tf->layout == OFPUTIL_TFL_OF12) {
        ds_put_format(s, "    config=%s\n",
                      (tf->miss_config == OFPUTIL_TABLE_MISS_CONTINUE
                       ? "continue"
                       : tf->miss_config == OFPUTIL_TABLE_MISS_DROP
                       ? "drop" : "controller"));
    }
    ds_put_format(s, "    max_entries=%"PRIu32"\n", tf->max_entries);

    if (prev && instructions_equal(tf, prev)
        && !instruction_features_empty(&tf->nonmiss)) {
        ds_put_cstr(s, "    (same instructions)\n");
    } else if (!instruction_features_empty(&tf->nonmiss)
               || !instruction_features_empty(&tf->miss)) {
        /* 3.1 never abbreviates 1.1 table stats' actions. */
        const struct ofputil_table_features *aprev
            = tf->layout == OFPUTIL_TFL_OF11 ? NULL : prev;
        if (!memcmp(&tf->nonmiss, &tf->miss, sizeof tf->miss)) {
            format_instruction_features(s, "table miss and others",
                                        &tf->nonmiss,
                                        aprev ? &aprev->nonmiss : NULL);
        } else {
            format_instruction_features(s, "other than table miss",
                                        &tf->nonmiss,
                                        aprev ? &aprev->nonmiss : NULL);
            format_instruction_features(s, "table miss", &tf->miss,
                                        aprev ? &aprev->miss : NULL);
        }
    }

    if (prev && matching_equal(tf, prev) && !fb_is_empty(&tf->match)) {
        ds_put_cstr(s, "    (same matching)\n");
    } else {
        format_matching(s, tf);
    }
}

void
ofputil_table_stats_printer_init(struct ofputil_table_stats_printer *p,
                                 enum ofp_version version)
{
    memset(p, 0, sizeof *p);
    p->version = version;
    p->first_ditto = p->last_ditto = -1;
}

/* Layout, as 3.1 writes it: every table entry starts with a newline; a
 * full block and a ditto range end with one, a named ditto line does not,
 * so blocks are separated by blank lines and consecutive ditto lines are
 * not. */
static void
flush_dittos(struct ofputil_table_stats_printer *p, struct ds *s)
{
    if (p->first_ditto < 0) {
        return;
    }
    if (p->first_ditto == p->last_ditto) {
        ds_put_format(s, "\n  table %d: ditto\n", p->first_ditto);
    } else {
        ds_put_format(s, "\n  tables %d...%d: ditto\n",
                      p->first_ditto, p->last_ditto);
    }
    p->first_ditto = p->last_ditto = -1;
}

static bool
stats_equal(const struct ofputil_table_stats *a,
            const struct ofputil_table_stats *b)
{
    return (a->active_count == b->active_count
            && a->lookup_count == b->lookup_count
            && a->matched_count == b->matched_count);
}

void
ofputil_table_stats_printer_add(struct ofputil_table_stats_printer *p,
                                struct ds *s,
                                const struct ofputil_table_stats *stats,
                                const struct ofputil_table_features *tf)
{
    bool ditto = (p->have_prev
                  && (!stats || stats_equal(stats, &p->prev_stats))
                  && features_equal(tf, &p->prev_features));
    if (ditto) {
        if (tf->name[0]) {
            flush_dittos(p, s);
            ds_put_format(s, "\n  table %"PRIu8" (\"%s\"): ditto",
                          tf->table_id, tf->name);
        } else {
            if (p->first_ditto < 0) {
                p->first_ditto = tf->table_id;
            }
            p->last_ditto = tf->table_id;
        }
    } else {
        flush_dittos(p, s);
        ds_put_format(s, "\n  table %"PRIu8, tf->table_id);
        if (tf->name[0]) {
            ds_put_format(s, " (\"%s\")", tf->name);
        }
        ds_put_cstr(s, ":\n");
        if (stats) {
            ds_put_format(s, "    active=%"PRIu32", lookup=%"PRIu64
                          ", matched=%"PRIu64"\n", stats->active_count,
                          stats->lookup_count, stats->matched_count);
        }
        format_features(s, tf, p->have_prev ? &p->prev_features : NULL);
    }
    p->have_prev = true;
    if (stats) {
        p->prev_stats = *stats;
    }
    p->prev_features = *tf;
}

void
ofputil_table_stats_printer_finish(struct ofputil_table_stats_printer *p,
                                   struct ds *s)
{
    flush_dittos(p, s);
    if (s->length && s->string[s->length - 1] != '\n') {
        ds_put_char(s, '\n');
    }
}

/* ------------------------------------------------------------------ */
/* Table mod. */

struct ofpbuf *
ofputil_encode_table_mod(const struct ofputil_table_mod *tm,
                         enum ofp_version version)
{
    struct ofpbuf *b = ofpraw_alloc(version >= OFP14_VERSION
                                    ? OFPRAW_OFPT14_TABLE_MOD
                                    : OFPRAW_OFPT11_TABLE_MOD, version, 0);
    struct ofp11_table_mod *otm = b->msg;
    otm->table_id = tm->table_id;
    uint32_t config = 0;
    if (version <= OFP12_VERSION) {
        config = miss_to_ofp11_config(tm->miss);
    } else if (version >= OFP14_VERSION) {
        config = ((tm->eviction ? OFPTC14_EVICTION : 0)
                  | (tm->vacancy_events ? OFPTC14_VACANCY_EVENTS : 0));
    }
    otm->config = htonl(config);
    if (version >= OFP14_VERSION && tm->has_eviction_prop) {
        ovs_be32 flags = htonl(tm->eviction_flags);
        put_prop(b, OFPTMPT14_EVICTION, &flags, sizeof flags);
    }
    if (version >= OFP14_VERSION && tm->vacancy_events) {
        uint8_t vacancy[4] = { tm->vacancy_down, tm->vacancy_up, 0, 0 };
        put_prop(b, OFPTMPT14_VACANCY, vacancy, sizeof vacancy);
    }
    ofpmsg_update_length(b);
    return b;
}

enum ofperr
ofputil_decode_table_mod(const struct ofp_header *oh,
                         struct ofputil_table_mod *tm)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error = ofpmsg_pull_body(oh, &b, &raw);
    if (error) {
        return error;
    }
    if (raw != OFPRAW_OFPT11_TABLE_MOD && raw != OFPRAW_OFPT14_TABLE_MOD) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    memset(tm, 0, sizeof *tm);
    tm->eviction_flags = UINT32_MAX;
    const struct ofp11_table_mod *otm = ofpbuf_pull(&b, sizeof *otm);
    tm->table_id = otm->table_id;
    uint32_t config = ntohl(otm->config);
    if (oh->version <= OFP12_VERSION) {
        tm->miss = miss_from_ofp11_config(config);
    } else if (oh->version >= OFP14_VERSION) {
        tm->has_flags14 = true;
        tm->eviction = (config & OFPTC14_EVICTION) != 0;
        tm->vacancy_events = (config & OFPTC14_VACANCY_EVENTS) != 0;
        while (b.size > 0) {
            struct ofpbuf prop;
            uint16_t type;
            error = ofpprop_pull(&b, &prop, &type);
            if (error) {
                return error;
            }
            const uint8_t *body = (const uint8_t *) prop.data + 4;
            if (type == OFPTMPT14_VACANCY) {
                if (prop.size != 8) {
                    return OFPERR_OFPBPC_BAD_LEN;
                }
                if (body[0] > 100 || body[1] > 100 || body[0] > body[1]) {
                    return OFPERR_OFPBPC_BAD_VALUE;
                }
                tm->vacancy_down = body[0];
                tm->vacancy_up = body[1];
            } else if (type == OFPTMPT14_EVICTION) {
                if (prop.size != 8) {
                    return OFPERR_OFPBPC_BAD_LEN;
                }
                tm->has_eviction_prop = true;
                tm->eviction_flags = ((uint32_t) body[0] << 24
                                      | (uint32_t) body[1] << 16
                                      | (uint32_t) body[2] << 8 | body[3]);
            } else {
                return OFPERR_OFPBRC_BAD_TYPE;
            }
        }
    }
    tm->miss = oh->version <= OFP12_VERSION ? tm->miss
               : OFPUTIL_TABLE_MISS_DEFAULT;
    return 0;
}

void
ofputil_table_mod_format(struct ds *s, const struct ofputil_table_mod *tm,
                         const struct ofputil_table_map *table_map)
{
    if (tm->table_id == OFPTT_ALL) {
        ds_put_cstr(s, " table_id: ALL_TABLES");
    } else {
        ds_put_cstr(s, " table_id=");
        ofputil_format_table(tm->table_id, table_map, s);
    }
    if (tm->miss != OFPUTIL_TABLE_MISS_DEFAULT) {
        ds_put_format(s, ", flow_miss_config=%s",
                      (tm->miss == OFPUTIL_TABLE_MISS_CONTINUE ? "continue"
                       : tm->miss == OFPUTIL_TABLE_MISS_DROP ? "drop"
                       : "controller"));
    }
    if (tm->has_flags14) {
        ds_put_format(s, ", eviction=%s, vacancy=%s",
                      (tm->has_eviction_prop ? "***error***"
                       : tm->eviction ? "on" : "off"),
                      tm->vacancy_events ? "on" : "off");
        if (tm->vacancy_events) {
            ds_put_format(s, " vacancy:%"PRIu8",%"PRIu8,
                          tm->vacancy_down, tm->vacancy_up);
        }
    }
    ds_put_char(s, '\n');
}

struct ofpbuf *
ofputil_encode_table_desc_request(enum ofp_version version)
{
    return ofpraw_alloc(OFPRAW_OFPST14_TABLE_DESC_REQUEST, version, 0);
}

static enum ofperr pull_table_desc(struct ofpbuf *,
                                   struct ofputil_table_desc *);

int
ofputil_decode_table_desc(struct ofpbuf *msg, struct ofputil_table_desc *td)
{
    if (!msg->header) {
        enum ofpraw raw;
        enum ofperr error = ofpraw_pull(&raw, msg);
        if (error) {
            return error;
        }
    }
    if (!msg->size) {
        return EOF;
    }
    return pull_table_desc(msg, td);
}

/* Pulls one struct ofp14_table_desc and its properties from MSG. */
static enum ofperr
pull_table_desc(struct ofpbuf *msg, struct ofputil_table_desc *td)
{
    /* length (2), table_id, pad, config (4), properties. */
    const uint8_t *head = msg->data;
    size_t len = msg->size >= 8 ? (size_t) (head[0] << 8 | head[1]) : 0;
    if (len < 8 || len > msg->size) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    memset(td, 0, sizeof *td);
    td->table_id = head[2];
    uint32_t config = ((uint32_t) head[4] << 24 | (uint32_t) head[5] << 16
                       | (uint32_t) head[6] << 8 | head[7]);
    td->eviction = (config & OFPTC14_EVICTION) != 0;
    td->vacancy_events = (config & OFPTC14_VACANCY_EVENTS) != 0;
    td->eviction_flags = UINT32_MAX;
    struct ofpbuf props;
    ofpbuf_use_const(&props, head + 8, len - 8);
    ofpbuf_pull(msg, len);
    while (props.size > 0) {
        struct ofpbuf prop;
        uint16_t type;
        enum ofperr error = ofpprop_pull(&props, &prop, &type);
        if (error) {
            return error;
        }
        const uint8_t *body = (const uint8_t *) prop.data + 4;
        if (type == OFPTMPT14_EVICTION) {
            if (prop.size != 8) {
                return OFPERR_OFPBPC_BAD_LEN;
            }
            td->eviction_flags = ((uint32_t) body[0] << 24
                                  | (uint32_t) body[1] << 16
                                  | (uint32_t) body[2] << 8 | body[3]);
        } else if (type == OFPTMPT14_VACANCY) {
            if (prop.size != 8) {
                return OFPERR_OFPBPC_BAD_LEN;
            }
            if (body[0] > 100 || body[1] > 100 || body[0] > body[1]) {
                return OFPERR_OFPBPC_BAD_VALUE;
            }
            td->vacancy_down = body[0];
            td->vacancy_up = body[1];
            td->vacancy = body[2];
        }
    }
    return 0;
}

void
ofputil_table_desc_format(struct ds *s, const struct ofputil_table_desc *td,
                          const struct ofputil_table_map *table_map)
{
    ds_put_cstr(s, "\n  table ");
    ofputil_format_table(td->table_id, table_map, s);
    ds_put_format(s, ":\n   eviction=%s eviction_flags=",
                  td->eviction ? "on" : "off");
    static const char *const flag_names[] = {
        "OTHER", "IMPORTANCE", "LIFETIME",
    };
    if (td->eviction_flags == UINT32_MAX) {
        /* No eviction property. */
        ds_put_cstr(s, "(default)");
    }
    bool first = true;
    for (size_t i = 0; i < 32 && td->eviction_flags != UINT32_MAX; i++) {
        if (td->eviction_flags & (1u << i)) {
            if (!first) {
                ds_put_char(s, '|');
            }
            first = false;
            if (i < ARRAY_SIZE(flag_names)) {
                ds_put_cstr(s, flag_names[i]);
            } else {
                ds_put_format(s, "0x%"PRIx32, 1u << i);
            }
        }
    }
    if (td->vacancy_events) {
        ds_put_format(s, "\n   vacancy=on vacancy_down=%"PRIu8"%% "
                      "vacancy_up=%"PRIu8"%% vacancy=%"PRIu8"%%\n",
                      td->vacancy_down, td->vacancy_up, td->vacancy);
    } else {
        ds_put_cstr(s, "\n   vacancy=off\n");
    }
}

/* Appends TD to REPLY as a struct ofp14_table_desc with its properties. */
static void
put_table_desc(struct ofpbuf *reply, const struct ofputil_table_desc *td)
{
    size_t start_ofs = reply->size;
    /* length (2), table_id, pad, config (4). */
    uint8_t *head = ofpbuf_put_zeros(reply, 8);
    head[2] = td->table_id;
    uint32_t config = ((td->eviction ? OFPTC14_EVICTION : 0)
                       | (td->vacancy_events ? OFPTC14_VACANCY_EVENTS : 0));
    ovs_be32 config_be = htonl(config);
    memcpy(head + 4, &config_be, sizeof config_be);
    ovs_be32 flags = htonl(td->eviction_flags);
    put_prop(reply, OFPTMPT14_EVICTION, &flags, sizeof flags);
    if (td->vacancy_events) {
        uint8_t vacancy[4] = { td->vacancy_down, td->vacancy_up,
                               td->vacancy, 0 };
        put_prop(reply, OFPTMPT14_VACANCY, vacancy, sizeof vacancy);
    }
    ovs_be16 len = htons(reply->size - start_ofs);
    memcpy((uint8_t *) reply->data + start_ofs, &len, sizeof len);
}

void
ofputil_append_table_desc_reply(const struct ofputil_table_desc *td,
                                struct ovs_list *replies)
{
    struct ofpbuf *reply = ofpmp_reserve(replies, 0);
    size_t start_ofs = reply->size;
    put_table_desc(reply, td);
    ofpmp_postappend(replies, start_ofs);
}

/* ------------------------------------------------------------------ */
/* Table status (1.4+): reason (1), pad (7), a table description. */

struct ofpbuf *
ofputil_encode_table_status(const struct ofputil_table_status *ts,
                            enum ofp_version version)
{
    struct ofpbuf *msg = ofpraw_alloc_xid(OFPRAW_OFPT14_TABLE_STATUS,
                                          version, htonl(0), 0);
    uint8_t *head = msg->msg;   /* The raw's fixed part: reason, pad. */
    head[0] = ts->reason;
    put_table_desc(msg, &ts->desc);
    ofpmsg_update_length(msg);
    return msg;
}

enum ofperr
ofputil_decode_table_status(const struct ofp_header *oh,
                            struct ofputil_table_status *ts)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofpraw raw;
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }
    if (b.size < 8) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    const uint8_t *head = ofpbuf_pull(&b, 8);
    if (head[0] != OFPTR_VACANCY_DOWN && head[0] != OFPTR_VACANCY_UP) {
        return OFPERR_OFPBPC_BAD_VALUE;
    }
    ts->reason = head[0];
    return pull_table_desc(&b, &ts->desc);
}

void
ofputil_table_status_format(struct ds *s, const struct ofputil_table_status *ts,
                            const struct ofputil_table_map *table_map)
{
    ds_put_format(s, " reason=%s\ntable_desc:-",
                  ts->reason == OFPTR_VACANCY_DOWN ? "VACANCY_DOWN"
                  : "VACANCY_UP");
    ofputil_table_desc_format(s, &ts->desc, table_map);
}
