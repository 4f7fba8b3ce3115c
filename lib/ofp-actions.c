/* ofp-actions: the list representation, and actions and instructions on
 * the wire in every version.  Text is in ofp-actions-text.c. */
#include <config.h>
#include "ofp-actions.h"

#include <string.h>
#include "be-bytes.h"
#include "learn.h"
#include "match.h"
#include "nx-match.h"
#include "ofp-port.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"
#include "packets.h"
#include "util.h"
#include "vlog.h"
#include "ofp-actions-private.h"

VLOG_DEFINE_THIS_MODULE(ofp_actions);

#define IP_DSCP_MASK 0xfc
#define IP_ECN_MASK 0x03

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

static void encode_action(const struct ofpact *, struct ofpbuf *,
                          enum ofp_version);
static bool encode_set_field_as_std(const struct ofpact_set_field *,
                                    struct ofpbuf *, enum ofp_version);

/* Wire numbers. */
enum {
    /* OpenFlow 1.0 actions. */
    OFPAT10_OUTPUT = 0, OFPAT10_SET_VLAN_VID = 1, OFPAT10_SET_VLAN_PCP = 2,
    OFPAT10_STRIP_VLAN = 3, OFPAT10_SET_DL_SRC = 4, OFPAT10_SET_DL_DST = 5,
    OFPAT10_SET_NW_SRC = 6, OFPAT10_SET_NW_DST = 7, OFPAT10_SET_NW_TOS = 8,
    OFPAT10_SET_TP_SRC = 9, OFPAT10_SET_TP_DST = 10, OFPAT10_ENQUEUE = 11,

    /* OpenFlow 1.1 only. */
    OFPAT11_SET_VLAN_VID = 1, OFPAT11_SET_VLAN_PCP = 2,
    OFPAT11_SET_DL_SRC = 3, OFPAT11_SET_DL_DST = 4, OFPAT11_SET_NW_SRC = 5,
    OFPAT11_SET_NW_DST = 6, OFPAT11_SET_NW_TOS = 7, OFPAT11_SET_TP_SRC = 9,
    OFPAT11_SET_TP_DST = 10,

    /* OpenFlow 1.1+. */
    OFPAT11_OUTPUT = 0, OFPAT11_PUSH_VLAN = 17, OFPAT11_POP_VLAN = 18,
    OFPAT11_SET_QUEUE = 21, OFPAT11_GROUP = 22, OFPAT11_SET_NW_TTL = 23,
    OFPAT11_DEC_NW_TTL = 24,
    OFPAT15_COPY_FIELD = 28, OFPAT15_METER = 29,

    /* NXAST_CONTROLLER2 properties. */
    NXAC2PT_MAX_LEN = 0, NXAC2PT_CONTROLLER_ID = 1, NXAC2PT_REASON = 2,
    NXAC2PT_USERDATA = 3, NXAC2PT_PAUSE = 4,

    /* Instructions. */
    OFPIT11_GOTO_TABLE = 1, OFPIT11_WRITE_METADATA = 2,
    OFPIT11_WRITE_ACTIONS = 3, OFPIT11_APPLY_ACTIONS = 4,
    OFPIT11_CLEAR_ACTIONS = 5, OFPIT13_METER = 6,
};

/* The list. */

void *
ofpact_put(struct ofpbuf *ofpacts, enum ofpact_type type, size_t len)
{
    ofpacts->header = ofpbuf_put_zeros(ofpacts, len);
    struct ofpact *a = ofpacts->header;
    a->type = type;
    a->len = len;
    return a;
}

void
ofpact_finish(struct ofpbuf *ofpacts, struct ofpact *a)
{
    ptrdiff_t len = (uint8_t *) ofpbuf_tail(ofpacts) - (uint8_t *) a;
    ovs_assert(len > 0 && len <= UINT16_MAX);
    a->len = len;
    ofpbuf_put_zeros(ofpacts, OFPACT_ALIGN(len) - len);
}

void *
ofpact_put_fixed(struct ofpbuf *ofpacts, enum ofpact_type type, size_t len)
{
    struct ofpact *a = ofpact_put(ofpacts, type, len);
    ofpact_finish(ofpacts, a);
    return a;
}

static const char *const ofpact_names[N_OFPACTS] = {
    [OFPACT_OUTPUT] = "output",
    [OFPACT_GROUP] = "group",
    [OFPACT_CONTROLLER] = "controller",
    [OFPACT_ENQUEUE] = "enqueue",
    [OFPACT_SET_VLAN_VID] = "mod_vlan_vid",
    [OFPACT_SET_VLAN_PCP] = "mod_vlan_pcp",
    [OFPACT_STRIP_VLAN] = "strip_vlan",
    [OFPACT_PUSH_VLAN] = "push_vlan",
    [OFPACT_SET_ETH_SRC] = "mod_dl_src",
    [OFPACT_SET_ETH_DST] = "mod_dl_dst",
    [OFPACT_SET_IPV4_SRC] = "mod_nw_src",
    [OFPACT_SET_IPV4_DST] = "mod_nw_dst",
    [OFPACT_SET_IP_DSCP] = "mod_nw_tos",
    [OFPACT_SET_IP_TTL] = "mod_nw_ttl",
    [OFPACT_SET_L4_SRC_PORT] = "mod_tp_src",
    [OFPACT_SET_L4_DST_PORT] = "mod_tp_dst",
    [OFPACT_REG_MOVE] = "move",
    [OFPACT_SET_FIELD] = "set_field",
    [OFPACT_DEC_TTL] = "dec_ttl",
    [OFPACT_SET_TUNNEL] = "set_tunnel",
    [OFPACT_SET_QUEUE] = "set_queue",
    [OFPACT_POP_QUEUE] = "pop_queue",
    [OFPACT_RESUBMIT] = "resubmit",
    [OFPACT_LEARN] = "learn",
    [OFPACT_NOTE] = "note",
    [OFPACT_EXIT] = "exit",
    [OFPACT_METER] = "meter",
    [OFPACT_CLEAR_ACTIONS] = "clear_actions",
    [OFPACT_WRITE_ACTIONS] = "write_actions",
    [OFPACT_WRITE_METADATA] = "write_metadata",
    [OFPACT_GOTO_TABLE] = "goto_table",
    [OFPACT_OUTPUT_REG] = "output_reg",
    [OFPACT_OUTPUT_TRUNC] = "output_trunc",
    [OFPACT_BUNDLE] = "bundle",
    [OFPACT_SET_IP_ECN] = "mod_nw_ecn",
    [OFPACT_SET_MPLS_LABEL] = "set_mpls_label",
    [OFPACT_SET_MPLS_TC] = "set_mpls_tc",
    [OFPACT_SET_MPLS_TTL] = "set_mpls_ttl",
    [OFPACT_DEC_MPLS_TTL] = "dec_mpls_ttl",
    [OFPACT_PUSH_MPLS] = "push_mpls",
    [OFPACT_POP_MPLS] = "pop_mpls",
    [OFPACT_DEC_NSH_TTL] = "dec_nsh_ttl",
    [OFPACT_DELETE_FIELD] = "delete_field",
    [OFPACT_ENCAP] = "encap",
    [OFPACT_DECAP] = "decap",
    [OFPACT_STACK_PUSH] = "push",
    [OFPACT_STACK_POP] = "pop",
    [OFPACT_CONJUNCTION] = "conjunction",
    [OFPACT_MULTIPATH] = "multipath",
    [OFPACT_FIN_TIMEOUT] = "fin_timeout",
    [OFPACT_CLONE] = "clone",
    [OFPACT_CHECK_PKT_LARGER] = "check_pkt_larger",
    [OFPACT_CT] = "ct",
    [OFPACT_CT_CLEAR] = "ct_clear",
    [OFPACT_NAT] = "nat",
    [OFPACT_SAMPLE] = "sample",
    [OFPACT_DEBUG_RECIRC] = "debug_recirc",
    [OFPACT_DEBUG_SLOW] = "debug_slow",
};

const char *
ofpact_name(enum ofpact_type type)
{
    return type < N_OFPACTS ? ofpact_names[type] : "<unknown>";
}

bool
ofpact_is_instruction(enum ofpact_type type)
{
    return type >= OFPACT_METER && type < N_OFPACTS;
}

bool
ofpact_list_equal(const struct ofpact *a, size_t a_len,
              const struct ofpact *b, size_t b_len)
{
    return a_len == b_len && (!a_len || !memcmp(a, b, a_len));
}

/* Decoding. */

bool
ofpact_is_all_zeros(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
}

/* An output port as the switch may accept it: an ordinary port (0 too, as
 * 3.1 takes "output:0") or a reserved port that names a destination. */
static enum ofperr
check_output_port(uint32_t port)
{
    if (port < OFPP_MAX || (port != OFPP_NONE && port >= OFPP_IN_PORT)) {
        return 0;
    }
    return OFPERR_OFPBAC_BAD_OUT_PORT;
}

/* Enqueue takes an ordinary port, IN_PORT or LOCAL. */
static enum ofperr
check_enqueue_port(uint32_t port)
{
    return (port < OFPP_MAX || port == OFPP_IN_PORT || port == OFPP_LOCAL
            ? 0 : OFPERR_OFPBAC_BAD_OUT_PORT);
}

static enum ofperr
decode_output_to(struct ofpbuf *ofpacts, uint32_t port, uint16_t max_len)
{
    enum ofperr error = check_output_port(port);
    if (!error) {
        struct ofpact_output *out = OFPACT_PUT(ofpacts, OFPACT_OUTPUT,
                                              ofpact_output);
        out->port = port;
        out->max_len = max_len;
    }
    return error;
}

static enum ofperr
decode_port(const uint8_t *p, enum ofp_version version, uint32_t *port)
{
    if (version == OFP10_VERSION) {
        *port = get_be16(p);
        return 0;
    }
    ovs_be32 be;
    memcpy(&be, p, 4);
    return ofputil_port_from_ofp11(be, port);
}

/* dec_ttl without controller ids: one id, 0. */
static void
put_plain_dec_ttl(struct ofpbuf *ofpacts)
{
    struct ofpact_cnt_ids *ids = ofpact_put(ofpacts, OFPACT_DEC_TTL,
                                            sizeof *ids);
    uint16_t zero = 0;
    ofpbuf_put(ofpacts, &zero, sizeof zero);
    ids = ofpacts->header;
    ids->n_controllers = 1;
    ofpact_finish(ofpacts, &ids->ofpact);
}

/* NXAST_REG_LOAD: a set_field of a sub-field. */
static enum ofperr
decode_reg_load(const uint8_t *p, struct ofpbuf *ofpacts)
{
    uint16_t ofs_nbits = get_be16(p + 10);
    struct ofpbuf hb;
    ofpbuf_use_const(&hb, p + 12, 4);
    const struct mf_field *field;
    enum ofperr error = nx_pull_header(&hb, &field, NULL);
    if (error) {
        return (error == OFPERR_OFPBMC_BAD_FIELD
                ? OFPERR_OFPBAC_BAD_SET_TYPE : error);
    }
    struct mf_subfield dst = { field, ofs_nbits >> 6, (ofs_nbits & 63) + 1 };
    error = mf_check_dst(&dst, NULL);
    if (error) {
        return error;
    }
    uint64_t value = get_be64(p + 16);
    if (dst.n_bits < 64 && value >> dst.n_bits) {
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }

    struct ofpact_set_field *sf = OFPACT_PUT(ofpacts, OFPACT_SET_FIELD,
                                            ofpact_set_field);
    sf->ofpact.raw = OFPACT_RAW_REG_LOAD;
    sf->field = field;
    uint8_t v[8];
    for (int i = 7; i >= 0; i--, value >>= 8) {
        v[i] = value;
    }
    bitwise_copy(v, 8, 0, sf->value.b, field->n_bytes, dst.ofs, dst.n_bits);
    bitwise_one(sf->mask.b, field->n_bytes, dst.ofs, dst.n_bits);
    return 0;
}

/* NXAST_REG_LOAD2: a set_field as one NXM/OXM entry, masked or not, that
 * starts 10 bytes in (after the subtype) and is followed by zero padding.
 * A variable-length field's value is right-aligned (nx_pull_entry()):
 * which part of it a switch's TLV map lets through is for the switch to
 * say (ofproto-tlv.c). */
static enum ofperr
decode_reg_load2(const uint8_t *p, size_t len, struct ofpbuf *ofpacts)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, p + 10, len - 10);
    const struct mf_field *field;
    union mf_value value, mask;
    enum ofperr error = nx_pull_entry(&b, &field, &value, &mask, true);
    if (error) {
        return error;
    }
    if (!ofpact_is_all_zeros(b.data, b.size) || !field->writable) {
        return OFPERR_OFPBAC_BAD_SET_ARGUMENT;
    }
    struct ofpact_set_field *sf = OFPACT_PUT(ofpacts, OFPACT_SET_FIELD,
                                            ofpact_set_field);
    sf->ofpact.raw = OFPACT_RAW_REG_LOAD2;
    sf->field = field;
    /* The entry's value has no 1-bits outside its mask (nx_pull_entry()
     * checked), so it is the set_field's value as it is. */
    memcpy(sf->value.b, value.b, field->n_bytes);
    memcpy(sf->mask.b, mask.b, field->n_bytes);
    return 0;
}

/* The part NXAST_REG_MOVE and OFPAT15_COPY_FIELD share: two field
 * headers in the LEN bytes at HDRS (then zero padding), and the bit
 * ranges. */
static enum ofperr
decode_move(unsigned int n_bits, unsigned int src_ofs, unsigned int dst_ofs,
            const uint8_t *hdrs, size_t len, struct ofpbuf *ofpacts)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, hdrs, len);
    const struct mf_field *src, *dst;
    enum ofperr error = nx_pull_header(&b, &src, NULL);
    if (!error) {
        error = nx_pull_header(&b, &dst, NULL);
    }
    if (error) {
        return error;
    }
    if (!ofpact_is_all_zeros(b.data, b.size)) {
        return OFPERR_NXBRC_MUST_BE_ZERO;
    }
    struct mf_subfield s = { src, src_ofs, n_bits };
    struct mf_subfield d = { dst, dst_ofs, n_bits };
    error = mf_check_src(&s, NULL);
    if (!error) {
        error = mf_check_dst(&d, NULL);
    }
    if (error) {
        return error;
    }
    struct ofpact_reg_move *move = OFPACT_PUT(ofpacts, OFPACT_REG_MOVE,
                                              ofpact_reg_move);
    move->src = s;
    move->dst = d;
    return 0;
}

static enum ofperr
decode_reg_move(const uint8_t *p, size_t len, struct ofpbuf *ofpacts)
{
    return decode_move(get_be16(p + 10), get_be16(p + 12), get_be16(p + 14),
                       p + 16, len - 16, ofpacts);
}

/* OFPAT15_COPY_FIELD: the standard form of a move. */
static enum ofperr
decode_copy_field(const uint8_t *p, size_t len, struct ofpbuf *ofpacts)
{
    if (len < 16) {
        return OFPERR_OFPBAC_BAD_LEN;
    }
    if (!ofpact_is_all_zeros(p + 10, 2)) {
        return OFPERR_NXBRC_MUST_BE_ZERO;
    }
    return decode_move(get_be16(p + 4), get_be16(p + 6), get_be16(p + 8),
                       p + 12, len - 12, ofpacts);
}

static enum ofperr
decode_controller2(const uint8_t *p, size_t len, struct ofpbuf *ofpacts)
{
    if (!ofpact_is_all_zeros(p + 10, 6)) {
        return OFPERR_NXBRC_MUST_BE_ZERO;
    }
    size_t start = ofpacts->size;
    struct ofpact_controller *oc = ofpact_put(ofpacts, OFPACT_CONTROLLER,
                                              sizeof *oc);
    oc->ofpact.raw = OFPACT_RAW_CONTROLLER2;
    oc->max_len = UINT16_MAX;
    oc->reason = OFPR_ACTION;

    const uint8_t *q = p + 16, *end = p + len;
    while (q < end) {
        if (end - q < 4) {
            goto bad_len;
        }
        uint16_t type = get_be16(q), plen = get_be16(q + 2);
        if (plen < 4 || ROUND_UP(plen, 8) > end - q) {
            goto bad_len;
        }
        const uint8_t *v = q + 4;
        size_t vlen = plen - 4;
        switch (type) {
        case NXAC2PT_MAX_LEN:
            if (vlen != 2) {
                goto bad_len;
            }
            oc->max_len = get_be16(v);
            break;
        case NXAC2PT_CONTROLLER_ID:
            if (vlen != 2) {
                goto bad_len;
            }
            oc->controller_id = get_be16(v);
            break;
        case NXAC2PT_REASON:
            if (vlen != 1) {
                goto bad_len;
            }
            oc->reason = v[0];
            break;
        case NXAC2PT_USERDATA:
            ofpbuf_put(ofpacts, v, vlen);
            oc = ofpacts->header;
            oc->userdata_len += vlen;
            break;
        case NXAC2PT_PAUSE:
            oc->pause = true;
            break;
        default:
            ofpacts->size = start;
            return OFPERR_OFPBPC_BAD_TYPE;
        }
        q += ROUND_UP(plen, 8);
    }
    ofpact_finish(ofpacts, &oc->ofpact);
    return 0;

bad_len:
    ofpacts->size = start;
    return OFPERR_OFPBPC_BAD_LEN;
}

static enum ofperr
decode_nx(const uint8_t *p, size_t len, enum ofp_version version,
          struct ofpbuf *ofpacts)
{
    uint16_t subtype = get_be16(p + 8);

    /* The length each subtype must have: exactly, or at least ("min"). */
    struct nx_len {
        uint8_t len;
        bool min;
        enum ofp_version since;     /* Decoded from this version on. */
    };
#define EXACT(N) { N, false, OFP10_VERSION }
#define AT_LEAST(N) { N, true, OFP10_VERSION }
    static const struct nx_len lengths[] = {
        [NXAST_RESUBMIT] = EXACT(16), [NXAST_SET_TUNNEL] = EXACT(16),
        [NXAST_SET_QUEUE] = EXACT(16), [NXAST_POP_QUEUE] = EXACT(16),
        [NXAST_REG_MOVE] = AT_LEAST(16), [NXAST_REG_LOAD] = EXACT(24),
        [NXAST_NOTE] = AT_LEAST(16), [NXAST_SET_TUNNEL64] = EXACT(24),
        [NXAST_MULTIPATH] = EXACT(32), [NXAST_BUNDLE] = AT_LEAST(32),
        [NXAST_BUNDLE_LOAD] = AT_LEAST(32), [NXAST_RESUBMIT_TABLE] = EXACT(16),
        [NXAST_OUTPUT_REG] = EXACT(24), [NXAST_LEARN] = AT_LEAST(16),
        [NXAST_EXIT] = EXACT(16), [NXAST_DEC_TTL] = EXACT(16),
        [NXAST_FIN_TIMEOUT] = EXACT(16), [NXAST_CONTROLLER] = EXACT(16),
        [NXAST_DEC_TTL_CNT_IDS] = AT_LEAST(16),
        [NXAST_WRITE_METADATA] = EXACT(32), [NXAST_PUSH_MPLS] = EXACT(16),
        [NXAST_POP_MPLS] = EXACT(16), [NXAST_SET_MPLS_TTL] = EXACT(16),
        [NXAST_DEC_MPLS_TTL] = EXACT(16), [NXAST_STACK_PUSH] = EXACT(24),
        [NXAST_STACK_POP] = EXACT(24), [NXAST_SAMPLE] = EXACT(24),
        [NXAST_SET_MPLS_LABEL] = EXACT(16), [NXAST_SET_MPLS_TC] = EXACT(16),
        [NXAST_OUTPUT_REG2] = AT_LEAST(24), [NXAST_REG_LOAD2] = AT_LEAST(16),
        [NXAST_CONJUNCTION] = EXACT(16),
        [NXAST_CT] = AT_LEAST(24), [NXAST_NAT] = AT_LEAST(16),
        [NXAST_CONTROLLER2] = AT_LEAST(16), [NXAST_SAMPLE2] = EXACT(32),
        [NXAST_OUTPUT_TRUNC] = EXACT(16), [NXAST_GROUP] = EXACT(16),
        [NXAST_SAMPLE3] = EXACT(32), [NXAST_CLONE] = AT_LEAST(16),
        [NXAST_CT_CLEAR] = EXACT(16), [NXAST_RESUBMIT_TABLE_CT] = EXACT(16),
        [NXAST_LEARN2] = AT_LEAST(16),
        [NXAST_ENCAP] = { 16, true, OFP13_VERSION },
        [NXAST_DECAP] = { 16, false, OFP13_VERSION },
        [NXAST_DEC_NSH_TTL] = { 16, false, OFP13_VERSION },
        [NXAST_CHECK_PKT_LARGER] = EXACT(24),
        [NXAST_DELETE_FIELD] = AT_LEAST(24),
        [NXAST_DEBUG_SLOW] = EXACT(16), [NXAST_DEBUG_RECIRC] = EXACT(16),
    };
#undef EXACT
#undef AT_LEAST
    const struct nx_len *nl = (subtype < ARRAY_SIZE(lengths)
                               && lengths[subtype].len
                               ? &lengths[subtype] : NULL);
    if (!nl || version < nl->since) {
        VLOG_WARN_RL(&rl, "unknown %s action for vendor %#"PRIx32" and "
                     "type %"PRIu16, ofputil_version_to_string(version),
                     (uint32_t) NX_VENDOR_ID, subtype);
        return OFPERR_OFPBAC_BAD_VENDOR_TYPE;
    }
    if (version >= OFP15_VERSION
        && (subtype == NXAST_REG_LOAD || subtype == NXAST_REG_LOAD2
            || subtype == NXAST_REG_MOVE)) {
        /* 1.5 has set_field with masks and copy_field instead. */
        return OFPERR_OFPBAC_BAD_VENDOR_TYPE;
    }
    if (nl->min ? len < nl->len : len != nl->len) {
        return OFPERR_OFPBAC_BAD_LEN;
    }

    switch (subtype) {
    case NXAST_RESUBMIT:
    case NXAST_RESUBMIT_TABLE: {
        if (subtype == NXAST_RESUBMIT_TABLE && !ofpact_is_all_zeros(p + 13, 3)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        struct ofpact_resubmit *r = OFPACT_PUT(ofpacts, OFPACT_RESUBMIT,
                                              ofpact_resubmit);
        r->in_port = get_be16(p + 10);
        r->table_id = subtype == NXAST_RESUBMIT ? 255 : p[12];
        if (subtype == NXAST_RESUBMIT_TABLE) {
            r->ofpact.raw = OFPACT_RAW_RESUBMIT_TABLE;
        }
        return 0;
    }
    case NXAST_SET_TUNNEL:
    case NXAST_SET_TUNNEL64: {
        struct ofpact_tunnel *t = OFPACT_PUT(ofpacts, OFPACT_SET_TUNNEL,
                                            ofpact_tunnel);
        if (subtype == NXAST_SET_TUNNEL) {
            t->tun_id = get_be32(p + 12);
        } else {
            t->tun_id = get_be64(p + 16);
            t->ofpact.raw = OFPACT_RAW_SET_TUNNEL64;
        }
        return 0;
    }
    case NXAST_SET_QUEUE:
        OFPACT_PUT(ofpacts, OFPACT_SET_QUEUE, ofpact_queue)->queue_id
            = get_be32(p + 12);
        return 0;
    case NXAST_POP_QUEUE:
        OFPACT_PUT(ofpacts, OFPACT_POP_QUEUE, ofpact);
        return 0;
    case NXAST_REG_MOVE:
        return decode_reg_move(p, len, ofpacts);
    case NXAST_REG_LOAD:
        return decode_reg_load(p, ofpacts);
    case NXAST_REG_LOAD2:
        return decode_reg_load2(p, len, ofpacts);
    case NXAST_NOTE: {
        struct ofpact_note *note = ofpact_put(ofpacts, OFPACT_NOTE,
                                              sizeof *note);
        note->length = len - 10;
        ofpbuf_put(ofpacts, p + 10, len - 10);
        ofpact_finish(ofpacts, ofpacts->header);
        return 0;
    }
    case NXAST_EXIT:
        OFPACT_PUT(ofpacts, OFPACT_EXIT, ofpact);
        return 0;
    case NXAST_DEC_TTL:
        put_plain_dec_ttl(ofpacts);
        return 0;
    case NXAST_CONTROLLER: {
        struct ofpact_controller *oc = ofpact_put(ofpacts, OFPACT_CONTROLLER,
                                                  sizeof *oc);
        oc->max_len = get_be16(p + 10);
        oc->controller_id = get_be16(p + 12);
        oc->reason = p[14];
        ofpact_finish(ofpacts, &oc->ofpact);
        return 0;
    }
    case NXAST_WRITE_METADATA: {
        if (!ofpact_is_all_zeros(p + 10, 6)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        struct ofpact_metadata *md = OFPACT_PUT(ofpacts, OFPACT_WRITE_METADATA,
                                               ofpact_metadata);
        memcpy(&md->metadata, p + 16, 8);
        memcpy(&md->mask, p + 24, 8);
        return 0;
    }
    case NXAST_CONTROLLER2:
        return decode_controller2(p, len, ofpacts);
    case NXAST_LEARN:
    case NXAST_LEARN2:
        return learn_decode(p, len, subtype == NXAST_LEARN2, ofpacts);
    case NXAST_GROUP:
        if (version != OFP10_VERSION) {
            return OFPERR_OFPBAC_BAD_VENDOR_TYPE;
        }
        OFPACT_PUT(ofpacts, OFPACT_GROUP, ofpact_group)->group_id
            = get_be32(p + 12);
        return 0;
    case NXAST_CT:
    case NXAST_NAT:
    case NXAST_CT_CLEAR:
        return ofpact_ct_decode_nx(subtype, p, len, version, ofpacts);
    case NXAST_PUSH_MPLS:
    case NXAST_POP_MPLS:
    case NXAST_SET_MPLS_TTL:
    case NXAST_DEC_MPLS_TTL:
    case NXAST_SET_MPLS_LABEL:
    case NXAST_SET_MPLS_TC:
        return ofpact_mpls_decode_nx(subtype, p, len, version, ofpacts);
    case NXAST_ENCAP:
    case NXAST_DECAP:
    case NXAST_DEC_NSH_TTL:
        return ofpact_encap_decode_nx(subtype, p, len, version, ofpacts);
    case NXAST_BUNDLE:
    case NXAST_BUNDLE_LOAD:
        return bundle_decode_nx(subtype, p, len, version, ofpacts);
    case NXAST_MULTIPATH:
        return multipath_decode_nx(subtype, p, len, version, ofpacts);
    case NXAST_OUTPUT_REG:
    case NXAST_OUTPUT_REG2:
    case NXAST_OUTPUT_TRUNC:
    case NXAST_DEC_TTL_CNT_IDS:
    case NXAST_FIN_TIMEOUT:
    case NXAST_CONJUNCTION:
    case NXAST_CLONE:
    case NXAST_CHECK_PKT_LARGER:
    case NXAST_STACK_PUSH:
    case NXAST_STACK_POP:
    case NXAST_DELETE_FIELD:
    case NXAST_DEBUG_SLOW:
    case NXAST_DEBUG_RECIRC:
    case NXAST_SAMPLE:
    case NXAST_SAMPLE2:
    case NXAST_SAMPLE3:
    case NXAST_RESUBMIT_TABLE_CT:
        return ofpact_nx_decode_nx(subtype, p, len, version, ofpacts);
    }
    ovs_abort(0, "%s: unexpected case", __func__);
}

static enum ofperr
decode_set_field(const uint8_t *p, size_t len, enum ofp_version version,
                 struct ofpbuf *ofpacts)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, p + 4, len - 4);
    const struct mf_field *field;
    union mf_value value, mask;
    enum ofperr error = nx_pull_entry(&b, &field, &value,
                                      version >= OFP15_VERSION ? &mask : NULL,
                                      true);
    if (error) {
        return (error == OFPERR_OFPBMC_BAD_MASK
                ? OFPERR_OFPBAC_BAD_SET_MASK : error);
    }
    if (!ofpact_is_all_zeros(b.data, b.size)) {
        return OFPERR_OFPBAC_BAD_SET_ARGUMENT;
    }
    if (version < OFP15_VERSION) {
        mf_value_set_all_ones(field, &mask);
    }
    /* 3.1 refuses read-only fields, and OXM's 32-bit in_port, as a bad
     * argument. */
    if (!field->writable || field->id == MFF_IN_PORT_OXM) {
        return OFPERR_OFPBAC_BAD_SET_ARGUMENT;
    }
    if (!mf_is_value_valid(field, &value)) {
        return OFPERR_OFPBAC_BAD_SET_ARGUMENT;
    }
    struct ofpact_set_field *sf = OFPACT_PUT(ofpacts, OFPACT_SET_FIELD,
                                            ofpact_set_field);
    sf->field = field;
    for (size_t i = 0; i < field->n_bytes; i++) {
        sf->value.b[i] = value.b[i] & mask.b[i];
        sf->mask.b[i] = mask.b[i];
    }
    return 0;
}

/* Decodes the standard action at P (LEN bytes, already checked to be a
 * multiple of 8 and at least 8). */
static enum ofperr
decode_std(const uint8_t *p, size_t len, enum ofp_version version,
           struct ofpbuf *ofpacts)
{
    uint16_t type = get_be16(p);
    enum ofperr error;
    uint32_t port;

#define WANT_LEN(N) if (len != (N)) return OFPERR_OFPBAC_BAD_LEN
    if (version == OFP10_VERSION) {
        switch (type) {
        case OFPAT10_OUTPUT:
            WANT_LEN(8);
            return decode_output_to(ofpacts, get_be16(p + 4),
                                    get_be16(p + 6));
        case OFPAT10_ENQUEUE: {
            WANT_LEN(16);
            port = get_be16(p + 4);
            error = check_enqueue_port(port);
            if (error) {
                return error;
            }
            struct ofpact_enqueue *eq = OFPACT_PUT(ofpacts, OFPACT_ENQUEUE,
                                                  ofpact_enqueue);
            eq->port = port;
            eq->queue = get_be32(p + 12);
            return 0;
        }
        case OFPAT10_STRIP_VLAN:
            WANT_LEN(8);
            OFPACT_PUT(ofpacts, OFPACT_STRIP_VLAN, ofpact);
            return 0;
        }
    } else {
        switch (type) {
        case OFPAT11_OUTPUT:
            WANT_LEN(16);
            error = decode_port(p + 4, version, &port);
            return (error ? error
                    : decode_output_to(ofpacts, port, get_be16(p + 8)));
        case OFPAT11_PUSH_VLAN: {
            WANT_LEN(8);
            uint16_t ethertype = get_be16(p + 4);
            if (ethertype != ETH_TYPE_VLAN_8021Q
                && ethertype != ETH_TYPE_VLAN_8021AD) {
                return OFPERR_OFPBAC_BAD_ARGUMENT;
            }
            OFPACT_PUT(ofpacts, OFPACT_PUSH_VLAN, ofpact_push_vlan)->ethertype
                = htons(ethertype);
            return 0;
        }
        case OFPAT11_POP_VLAN:
            WANT_LEN(8);
            OFPACT_PUT(ofpacts, OFPACT_STRIP_VLAN, ofpact)->raw
                = OFPACT_RAW_POP_VLAN;
            return 0;
        case OFPAT11_SET_QUEUE:
            WANT_LEN(8);
            OFPACT_PUT(ofpacts, OFPACT_SET_QUEUE, ofpact_queue)->queue_id
                = get_be32(p + 4);
            return 0;
        case OFPAT11_GROUP:
            WANT_LEN(8);
            OFPACT_PUT(ofpacts, OFPACT_GROUP, ofpact_group)->group_id
                = get_be32(p + 4);
            return 0;
        case OFPAT11_SET_NW_TTL:
            WANT_LEN(8);
            OFPACT_PUT(ofpacts, OFPACT_SET_IP_TTL, ofpact_ip_ttl)->ttl = p[4];
            return 0;
        case OFPAT11_DEC_NW_TTL:
            WANT_LEN(8);
            put_plain_dec_ttl(ofpacts);
            return 0;
        case OFPAT11_SET_NW_ECN:
            if (version == OFP11_VERSION) {
                WANT_LEN(8);
                if (p[4] & ~IP_ECN_MASK) {
                    return OFPERR_OFPBAC_BAD_ARGUMENT;
                }
                OFPACT_PUT(ofpacts, OFPACT_SET_IP_ECN, ofpact_ecn)->ecn = p[4];
                return 0;
            }
            break;
        case OFPAT11_SET_MPLS_LABEL:
        case OFPAT11_SET_MPLS_TC:
        case OFPAT11_SET_MPLS_TTL:
        case OFPAT11_DEC_MPLS_TTL:
        case OFPAT11_PUSH_MPLS:
        case OFPAT11_POP_MPLS:
            return ofpact_mpls_decode_std(type, p, len, version, ofpacts);
        case OFPAT12_SET_FIELD:
            if (version >= OFP12_VERSION) {
                return decode_set_field(p, len, version, ofpacts);
            }
            break;
        case OFPAT15_COPY_FIELD:
            if (version >= OFP15_VERSION) {
                return decode_copy_field(p, len, ofpacts);
            }
            break;
        case OFPAT15_METER:
            if (version >= OFP15_VERSION) {
                WANT_LEN(8);
                OFPACT_PUT(ofpacts, OFPACT_METER, ofpact_meter)->meter_id
                    = get_be32(p + 4);
                return 0;
            }
            break;
        }
    }

    /* The header-rewriting actions of 1.0 and 1.1 (numbered differently,
     * laid out alike). */
    if (version <= OFP11_VERSION) {
        bool v10 = version == OFP10_VERSION;
        int vid = v10 ? OFPAT10_SET_VLAN_VID : OFPAT11_SET_VLAN_VID;
        int pcp = v10 ? OFPAT10_SET_VLAN_PCP : OFPAT11_SET_VLAN_PCP;
        int dl_src = v10 ? OFPAT10_SET_DL_SRC : OFPAT11_SET_DL_SRC;
        int dl_dst = v10 ? OFPAT10_SET_DL_DST : OFPAT11_SET_DL_DST;
        int nw_src = v10 ? OFPAT10_SET_NW_SRC : OFPAT11_SET_NW_SRC;
        int nw_dst = v10 ? OFPAT10_SET_NW_DST : OFPAT11_SET_NW_DST;
        int nw_tos = v10 ? OFPAT10_SET_NW_TOS : OFPAT11_SET_NW_TOS;
        int tp_src = v10 ? OFPAT10_SET_TP_SRC : OFPAT11_SET_TP_SRC;
        int tp_dst = v10 ? OFPAT10_SET_TP_DST : OFPAT11_SET_TP_DST;

        if (type == vid) {
            WANT_LEN(8);
            uint16_t v = get_be16(p + 4);
            if (v & ~VLAN_VID_MASK) {
                return OFPERR_OFPBAC_BAD_ARGUMENT;
            }
            struct ofpact_vlan_vid *a = OFPACT_PUT(ofpacts,
                                                  OFPACT_SET_VLAN_VID,
                                                  ofpact_vlan_vid);
            a->vlan_vid = v;
            a->push_vlan_if_needed = v10;
            return 0;
        } else if (type == pcp) {
            WANT_LEN(8);
            if (p[4] & ~7) {
                return OFPERR_OFPBAC_BAD_ARGUMENT;
            }
            struct ofpact_vlan_pcp *a = OFPACT_PUT(ofpacts,
                                                  OFPACT_SET_VLAN_PCP,
                                                  ofpact_vlan_pcp);
            a->vlan_pcp = p[4];
            a->push_vlan_if_needed = v10;
            return 0;
        } else if (type == dl_src || type == dl_dst) {
            WANT_LEN(16);
            struct ofpact_mac *a = OFPACT_PUT(ofpacts,
                                             (type == dl_src
                                              ? OFPACT_SET_ETH_SRC
                                              : OFPACT_SET_ETH_DST),
                                             ofpact_mac);
            memcpy(&a->mac, p + 4, 6);
            return 0;
        } else if (type == nw_src || type == nw_dst) {
            WANT_LEN(8);
            struct ofpact_ipv4 *a = OFPACT_PUT(ofpacts,
                                              (type == nw_src
                                               ? OFPACT_SET_IPV4_SRC
                                               : OFPACT_SET_IPV4_DST),
                                              ofpact_ipv4);
            memcpy(&a->ipv4, p + 4, 4);
            return 0;
        } else if (type == nw_tos) {
            WANT_LEN(8);
            if (p[4] & ~IP_DSCP_MASK) {
                return OFPERR_OFPBAC_BAD_ARGUMENT;
            }
            OFPACT_PUT(ofpacts, OFPACT_SET_IP_DSCP, ofpact_dscp)->dscp = p[4];
            return 0;
        } else if (type == tp_src || type == tp_dst) {
            WANT_LEN(8);
            OFPACT_PUT(ofpacts,
                      (type == tp_src
                       ? OFPACT_SET_L4_SRC_PORT : OFPACT_SET_L4_DST_PORT),
                      ofpact_l4_port)->port = get_be16(p + 4);
            return 0;
        }
    }
#undef WANT_LEN

    VLOG_WARN_RL(&rl, "unknown action type %"PRIu16, type);
    return OFPERR_OFPBAC_BAD_TYPE;
}

static enum ofperr
decode_actions(const uint8_t *p, size_t len, enum ofp_version version,
               struct ofpbuf *ofpacts)
{
    while (len) {
        if (len < 8) {
            return OFPERR_OFPBAC_BAD_LEN;
        }
        uint16_t type = get_be16(p);
        size_t alen = get_be16(p + 2);
        if (alen < 8 || alen % 8 || alen > len) {
            VLOG_WARN_RL(&rl, "action of type %"PRIu16" has bad length "
                         "%zu (%zu bytes left)",
                         type, alen, len);
            return OFPERR_OFPBAC_BAD_LEN;
        }

        enum ofperr error;
        if (type == OFPAT_VENDOR) {
            if (alen < 16) {
                return OFPERR_OFPBAC_BAD_LEN;
            }
            uint32_t vendor = get_be32(p + 4);
            if (vendor != NX_VENDOR_ID) {
                VLOG_WARN_RL(&rl, "unknown action vendor %#"PRIx32, vendor);
                return OFPERR_OFPBAC_BAD_VENDOR;
            }
            error = decode_nx(p, alen, version, ofpacts);
        } else {
            error = decode_std(p, alen, version, ofpacts);
        }
        if (error) {
            return error;
        }
        p += alen;
        len -= alen;
    }
    return 0;
}

enum ofperr
ofpacts_decode_nested(const uint8_t *p, size_t len, enum ofp_version version,
                      struct ofpbuf *ofpacts)
{
    return decode_actions(p, len, version, ofpacts);
}

enum ofperr
ofpact_decode_subfield(const uint8_t *p, size_t len, unsigned int ofs,
                       unsigned int n_bits, struct mf_subfield *sf,
                       size_t *hdr_len)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, p, len);
    const struct mf_field *field;
    enum ofperr error = nx_pull_header(&b, &field, NULL);
    if (error) {
        return error;
    }
    *hdr_len = len - b.size;
    sf->field = field;
    sf->ofs = ofs;
    sf->n_bits = n_bits;
    return mf_check_src(sf, NULL);
}

enum ofperr
ofpacts_pull_openflow_actions(struct ofpbuf *openflow,
                              unsigned int actions_len,
                              enum ofp_version version,
                              struct ofpbuf *ofpacts)
{
    if (actions_len % 8) {
        VLOG_WARN_RL(&rl, "OpenFlow message actions length %u is not a "
                     "multiple of 8", actions_len);
        return OFPERR_OFPBRC_BAD_LEN;
    }
    if (openflow->size < actions_len) {
        VLOG_WARN_RL(&rl, "OpenFlow message actions length %u exceeds "
                     "remaining message length (%"PRIu32")",
                     actions_len, openflow->size);
        return OFPERR_OFPBRC_BAD_LEN;
    }
    const uint8_t *p = ofpbuf_pull(openflow, actions_len);
    size_t start = ofpacts->size;
    enum ofperr error = decode_actions(p, actions_len, version, ofpacts);
    if (error) {
        ofpacts->size = start;
    }
    return error;
}

static const char *
instruction_name(uint16_t type)
{
    switch (type) {
    case OFPIT11_GOTO_TABLE: return "goto_table";
    case OFPIT11_WRITE_METADATA: return "write_metadata";
    case OFPIT11_WRITE_ACTIONS: return "write_actions";
    case OFPIT11_APPLY_ACTIONS: return "apply_actions";
    case OFPIT11_CLEAR_ACTIONS: return "clear_actions";
    case OFPIT13_METER: return "meter";
    default: return "<unknown>";
    }
}

static enum ofperr
decode_instructions(const uint8_t *p, size_t len, enum ofp_version version,
                    struct ofpbuf *ofpacts)
{
    /* The instructions in the order of enum ofpact_type's instructions,
     * with Apply-Actions first: where each one is, if present. */
    enum { I_METER, I_APPLY, I_CLEAR, I_WRITE, I_META, I_GOTO, N_I };
    const uint8_t *at[N_I] = { NULL };
    size_t lens[N_I] = { 0 };

    while (len) {
        if (len < 8) {
            return OFPERR_OFPBIC_BAD_LEN;
        }
        uint16_t type = get_be16(p);
        size_t ilen = get_be16(p + 2);
        if (ilen < 8 || ilen % 8 || ilen > len) {
            return OFPERR_OFPBIC_BAD_LEN;
        }
        int slot;
        switch (type) {
        case OFPIT13_METER:
            /* 1.5 made the meter an action. */
            if (version < OFP13_VERSION || version >= OFP15_VERSION) {
                return OFPERR_OFPBIC_UNKNOWN_INST;
            }
            slot = I_METER;
            break;
        case OFPIT11_APPLY_ACTIONS: slot = I_APPLY; break;
        case OFPIT11_CLEAR_ACTIONS: slot = I_CLEAR; break;
        case OFPIT11_WRITE_ACTIONS: slot = I_WRITE; break;
        case OFPIT11_WRITE_METADATA: slot = I_META; break;
        case OFPIT11_GOTO_TABLE: slot = I_GOTO; break;
        case 0xffff:
            return OFPERR_OFPBIC_BAD_EXPERIMENTER;
        default:
            return OFPERR_OFPBIC_UNKNOWN_INST;
        }
        if (at[slot]) {
            VLOG_WARN_RL(&rl, "duplicate %s instruction",
                         instruction_name(type));
            return (version >= OFP13_VERSION ? OFPERR_OFPBIC_DUP_INST
                    : OFPERR_OFPBIC_UNSUP_INST);
        }
        at[slot] = p;
        lens[slot] = ilen;
        p += ilen;
        len -= ilen;
    }

    if (at[I_METER]) {
        if (lens[I_METER] != 8) {
            return OFPERR_OFPBIC_BAD_LEN;
        }
        OFPACT_PUT(ofpacts, OFPACT_METER, ofpact_meter)->meter_id
            = get_be32(at[I_METER] + 4);
    }
    if (at[I_APPLY]) {
        enum ofperr error = decode_actions(at[I_APPLY] + 8,
                                           lens[I_APPLY] - 8, version,
                                           ofpacts);
        if (error) {
            return error;
        }
    }
    if (at[I_CLEAR]) {
        if (lens[I_CLEAR] != 8) {
            return OFPERR_OFPBIC_BAD_LEN;
        }
        OFPACT_PUT(ofpacts, OFPACT_CLEAR_ACTIONS, ofpact);
    }
    if (at[I_WRITE]) {
        size_t ofs = ofpacts->size;
        ofpact_put(ofpacts, OFPACT_WRITE_ACTIONS, sizeof(struct ofpact_nest));
        enum ofperr error = decode_actions(at[I_WRITE] + 8,
                                           lens[I_WRITE] - 8, version,
                                           ofpacts);
        if (error) {
            return error;
        }
        ofpact_finish(ofpacts, ofpbuf_at_assert(ofpacts, ofs,
                                                sizeof(struct ofpact)));
    }
    if (at[I_META]) {
        if (lens[I_META] != 24) {
            return OFPERR_OFPBIC_BAD_LEN;
        }
        struct ofpact_metadata *md = OFPACT_PUT(ofpacts, OFPACT_WRITE_METADATA,
                                               ofpact_metadata);
        memcpy(&md->metadata, at[I_META] + 8, 8);
        memcpy(&md->mask, at[I_META] + 16, 8);
    }
    if (at[I_GOTO]) {
        if (lens[I_GOTO] != 8) {
            return OFPERR_OFPBIC_BAD_LEN;
        }
        OFPACT_PUT(ofpacts, OFPACT_GOTO_TABLE, ofpact_goto_table)->table_id
            = at[I_GOTO][4];
    }
    return 0;
}

enum ofperr
ofpacts_pull_openflow_instructions(struct ofpbuf *openflow,
                                   unsigned int instructions_len,
                                   enum ofp_version version,
                                   struct ofpbuf *ofpacts)
{
    if (version == OFP10_VERSION) {
        return ofpacts_pull_openflow_actions(openflow, instructions_len,
                                             version, ofpacts);
    }
    if (instructions_len % 8) {
        return OFPERR_OFPBIC_BAD_LEN;
    }
    if (openflow->size < instructions_len) {
        return OFPERR_OFPBIC_BAD_LEN;
    }
    const uint8_t *p = ofpbuf_pull(openflow, instructions_len);
    size_t start = ofpacts->size;
    enum ofperr error = decode_instructions(p, instructions_len, version,
                                            ofpacts);
    if (error) {
        ofpacts->size = start;
    }
    return error;
}

/* Checks and annotation. */

bool
ofpacts_encodable_in(const struct ofpact ofpacts[], size_t len,
                     enum ofp_version version)
{
    const struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        switch (a->type) {
        case OFPACT_PUSH_VLAN:
            if (version < OFP11_VERSION) {
                return false;
            }
            break;
        case OFPACT_SET_MPLS_LABEL:
        case OFPACT_SET_MPLS_TC:
            /* 1.2+ write these as set_field, of a field that must be
             * known. */
            if (version >= OFP12_VERSION
                && !mf_from_name(a->type == OFPACT_SET_MPLS_LABEL
                                 ? "mpls_label" : "mpls_tc")) {
                return false;
            }
            break;
        case OFPACT_METER:
        case OFPACT_ENCAP:
            /* encap is NXAST_ENCAP, which only 1.3+ decode (3.1). */
            if (version < OFP13_VERSION) {
                return false;
            }
            break;
        case OFPACT_WRITE_ACTIONS:
        case OFPACT_CLONE:
            if (!ofpacts_encodable_in(((const struct ofpact_nest *) a)
                                      ->actions,
                                      ofpact_nest_get_action_len(
                                          (const struct ofpact_nest *) a),
                                      version)) {
                return false;
            }
            break;
        case OFPACT_CT: {
            const struct ofpact_conntrack *oc = (const void *) a;
            if (!ofpacts_encodable_in(oc->actions,
                                      ofpact_ct_get_action_len(oc),
                                      version)) {
                return false;
            }
            break;
        }
        default:
            break;
        }
    }
    return true;
}

/* Whether a set_field (or load) to F fits MATCH: F's prerequisites, and
 * for vlan_vid a tag in the match, which 3.1 also requires. */
static bool
set_field_fits_match(const struct mf_field *f, const struct match *match)
{
    if (f->id == MFF_VLAN_VID
        && !((match->wc.masks.vlans[0].tci & htons(VLAN_CFI))
             && flow_vlan_present(&match->flow.vlans[0]))) {
        return false;
    }
    return mf_are_match_prereqs_ok(f, match);
}

static enum ofperr
check_prereqs__(const struct ofpact ofpacts[], size_t len, struct match *m)
{
    const struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        switch (a->type) {
        case OFPACT_SET_FIELD: {
            const struct mf_field *f
                = ((const struct ofpact_set_field *) a)->field;
            if (!set_field_fits_match(f, m)) {
                VLOG_WARN_RL(&rl, "set_field %s lacks correct prerequisites",
                             f->name);
                return OFPERR_OFPBAC_MATCH_INCONSISTENT;
            }
            break;
        }
        case OFPACT_REG_MOVE: {
            const struct ofpact_reg_move *rm
                = (const struct ofpact_reg_move *) a;
            if (!mf_are_match_prereqs_ok(rm->src.field, m)) {
                VLOG_WARN_RL(&rl, "source field %s lacks correct "
                             "prerequisites", rm->src.field->name);
                return OFPERR_OFPBAC_MATCH_INCONSISTENT;
            }
            if (!mf_are_match_prereqs_ok(rm->dst.field, m)) {
                VLOG_WARN_RL(&rl, "destination field %s lacks correct "
                             "prerequisites", rm->dst.field->name);
                return OFPERR_OFPBAC_MATCH_INCONSISTENT;
            }
            break;
        }
        /* The actions before change what the packet has, as 3.1 follows
         * them: a pushed tag may be set, a popped one not. */
        case OFPACT_PUSH_VLAN:
        case OFPACT_SET_VLAN_VID:
        case OFPACT_SET_VLAN_PCP:
            m->flow.vlans[0].tci |= htons(VLAN_CFI);
            m->wc.masks.vlans[0].tci |= htons(VLAN_CFI);
            break;
        case OFPACT_STRIP_VLAN:
            m->flow.vlans[0].tci = 0;
            m->wc.masks.vlans[0].tci = OVS_BE16_MAX;
            break;
        case OFPACT_WRITE_ACTIONS:
        case OFPACT_CLONE: {
            const struct ofpact_nest *on = (const struct ofpact_nest *) a;
            struct match nested = *m;
            enum ofperr error = check_prereqs__(
                on->actions, ofpact_nest_get_action_len(on), &nested);
            if (error) {
                return error;
            }
            break;
        }
        case OFPACT_LEARN: {
            /* Its source fields as the actions before left the packet (a
             * pop_mpls to IPv4 makes IPv4 fields usable). */
            enum ofperr error = learn_check((const struct ofpact_learn *) a,
                                            m);
            if (error) {
                return error;
            }
            break;
        }
        case OFPACT_CT:
        case OFPACT_NAT:
        case OFPACT_CT_CLEAR: {
            enum ofperr error = ofpact_ct_check(a, m);
            if (error) {
                return error;
            }
            break;
        }
        case OFPACT_SET_MPLS_LABEL:
        case OFPACT_SET_MPLS_TC:
        case OFPACT_SET_MPLS_TTL:
        case OFPACT_DEC_MPLS_TTL:
        case OFPACT_PUSH_MPLS:
        case OFPACT_POP_MPLS: {
            enum ofperr error = ofpact_mpls_check(a, m);
            if (error) {
                return error;
            }
            break;
        }
        case OFPACT_ENCAP:
        case OFPACT_DECAP:
        case OFPACT_DEC_NSH_TTL: {
            enum ofperr error = ofpact_encap_check(a, m);
            if (error) {
                return error;
            }
            break;
        }
        case OFPACT_BUNDLE: {
            enum ofperr error = bundle_check(a, m);
            if (error) {
                return error;
            }
            break;
        }
        case OFPACT_MULTIPATH: {
            enum ofperr error = multipath_check(a, m);
            if (error) {
                return error;
            }
            break;
        }
        case OFPACT_OUTPUT_REG:
        case OFPACT_OUTPUT_TRUNC:
        case OFPACT_FIN_TIMEOUT:
        case OFPACT_CONJUNCTION:
        case OFPACT_CHECK_PKT_LARGER:
        case OFPACT_STACK_PUSH:
        case OFPACT_STACK_POP:
        case OFPACT_DELETE_FIELD:
        case OFPACT_SAMPLE:
        case OFPACT_RESUBMIT:
        case OFPACT_DEC_TTL: {
            enum ofperr error = ofpact_nx_check(a, m);
            if (error) {
                return error;
            }
            break;
        }
        default:
            break;
        }
    }
    return 0;
}

enum ofperr
ofpacts_check_prereqs(const struct ofpact ofpacts[], size_t len,
                      const struct match *match)
{
    struct match m = *match;
    return check_prereqs__(ofpacts, len, &m);
}

enum ofperr
ofpacts_check_goto_table(const struct ofpact ofpacts[], size_t len,
                         uint8_t table_id, uint8_t n_tables)
{
    const struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        if (a->type == OFPACT_GOTO_TABLE) {
            uint8_t next = ((const struct ofpact_goto_table *) a)->table_id;
            if ((table_id != 255 && next <= table_id)
                || (n_tables != 255 && next >= n_tables)) {
                return OFPERR_OFPBIC_BAD_TABLE_ID;
            }
        }
    }
    return 0;
}

enum ofperr
ofpacts_annotate(struct ofpact ofpacts[], size_t len,
                 const struct match *match)
{
    bool has_vlan = ((match->wc.masks.vlans[0].tci & htons(VLAN_CFI))
                     && flow_vlan_present(&match->flow.vlans[0]));
    uint8_t proto = (match->wc.masks.nw_proto == UINT8_MAX
                     && match->wc.masks.dl_type == OVS_BE16_MAX
                     && flow_is_ip_any(&match->flow)
                     ? match->flow.nw_proto : 0);
    struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        switch (a->type) {
        case OFPACT_OUTPUT:
            if (check_output_port(((struct ofpact_output *) a)->port)) {
                return OFPERR_OFPBAC_BAD_OUT_PORT;
            }
            break;
        case OFPACT_ENQUEUE:
            if (check_enqueue_port(((struct ofpact_enqueue *) a)->port)) {
                return OFPERR_OFPBAC_BAD_OUT_PORT;
            }
            break;
        case OFPACT_SET_VLAN_VID:
            ((struct ofpact_vlan_vid *) a)->flow_has_vlan = has_vlan;
            has_vlan = true;
            break;
        case OFPACT_SET_VLAN_PCP:
            ((struct ofpact_vlan_pcp *) a)->flow_has_vlan = has_vlan;
            has_vlan = true;
            break;
        case OFPACT_PUSH_VLAN:
            has_vlan = true;
            break;
        case OFPACT_STRIP_VLAN:
            has_vlan = false;
            break;
        case OFPACT_SET_L4_SRC_PORT:
        case OFPACT_SET_L4_DST_PORT:
            /* Without TCP, UDP or SCTP in the match only 1.0 and NXM can
             * carry the flow (ofputil_flow_mod_usable_protocols()); 1.2+
             * then get 1.1's action, as from 3.1. */
            ((struct ofpact_l4_port *) a)->flow_ip_proto
                = (proto == IPPROTO_TCP || proto == IPPROTO_UDP
                   || proto == IPPROTO_SCTP ? proto : 0);
            break;
        case OFPACT_WRITE_ACTIONS:
        case OFPACT_CLONE: {
            struct ofpact_nest *on = (struct ofpact_nest *) a;
            enum ofperr error = ofpacts_annotate(
                on->actions, ofpact_nest_get_action_len(on), match);
            if (error) {
                return error;
            }
            break;
        }
        case OFPACT_CT: {
            struct ofpact_conntrack *oc = (struct ofpact_conntrack *) a;
            enum ofperr error = ofpacts_annotate(
                oc->actions, ofpact_ct_get_action_len(oc), match);
            if (error) {
                return error;
            }
            break;
        }
        default:
            break;
        }
    }
    return 0;
}

/* Encoding. */

uint8_t *
ofpact_put_std(struct ofpbuf *out, uint16_t type, size_t len)
{
    uint8_t *p = ofpbuf_put_zeros(out, len);
    p[0] = type >> 8;
    p[1] = type;
    p[2] = len >> 8;
    p[3] = len;
    return p;
}

size_t
ofpact_put_nx(struct ofpbuf *out, uint16_t subtype, size_t len)
{
    size_t ofs = out->size;
    uint8_t *p = ofpact_put_std(out, OFPAT_VENDOR, len);
    put_be32(p + 4, NX_VENDOR_ID);
    put_be16(p + 8, subtype);
    return ofs;
}

uint8_t *
ofpact_at(struct ofpbuf *out, size_t ofs)
{
    return (uint8_t *) out->data + ofs;
}

void
ofpact_finish_nx(struct ofpbuf *out, size_t ofs, size_t min_len)
{
    size_t len = MAX(min_len, ROUND_UP(out->size - ofs, 8));
    ofpbuf_put_zeros(out, len - (out->size - ofs));
    put_be16(ofpact_at(out, ofs) + 2, len);
}

static void
put_output(struct ofpbuf *out, uint32_t port, uint16_t max_len,
           enum ofp_version version)
{
    if (version == OFP10_VERSION) {
        uint8_t *p = ofpact_put_std(out, OFPAT10_OUTPUT, 8);
        put_be16(p + 4, port);
        put_be16(p + 6, max_len);
    } else {
        uint8_t *p = ofpact_put_std(out, OFPAT11_OUTPUT, 16);
        ovs_be32 be = ofputil_port_to_ofp11(port);
        memcpy(p + 4, &be, 4);
        put_be16(p + 8, max_len);
    }
}

bool
ofpact_set_field_next_run(const struct ofpact_set_field *sf,
                          unsigned int *start, unsigned int *n_bits,
                          uint64_t *value)
{
    const struct mf_field *f = sf->field;
    unsigned int n = f->n_bytes;
    unsigned int bit = *start + *n_bits;
    while (bit < f->n_bits && bitwise_is_all_zeros(sf->mask.b, n, bit, 1)) {
        bit++;
    }
    if (bit >= f->n_bits) {
        return false;
    }
    *start = bit;
    while (bit < f->n_bits && bit - *start < 64
           && !bitwise_is_all_zeros(sf->mask.b, n, bit, 1)) {
        bit++;
    }
    *n_bits = bit - *start;
    uint8_t v[8] = { 0 };
    bitwise_copy(sf->value.b, n, *start, v, 8, 0, *n_bits);
    *value = get_be64(v);
    return true;
}

/* NXAST_REG_LOAD of SF's contiguous runs of mask bits. */
static void
put_reg_load(struct ofpbuf *out, const struct ofpact_set_field *sf)
{
    unsigned int start = 0, n_bits = 0;
    uint64_t value;
    while (ofpact_set_field_next_run(sf, &start, &n_bits, &value)) {
        size_t ofs = ofpact_put_nx(out, NXAST_REG_LOAD, 24);
        put_be16(ofpact_at(out, ofs) + 10, (start << 6) | (n_bits - 1));
        put_be32(ofpact_at(out, ofs) + 12, mf_field_nxm_header(sf->field));
        put_be64(ofpact_at(out, ofs) + 16, value);
    }
}

/* OFPAT12_SET_FIELD of F's VALUE (exact). */
static void
put_set_field_std(struct ofpbuf *out, const struct mf_field *f,
                  const union mf_value *value, enum ofp_version version)
{
    size_t ofs = out->size;
    ofpact_put_std(out, OFPAT12_SET_FIELD, 4);
    nx_put_entry(out, f, version, value, NULL);
    size_t len = ROUND_UP(out->size - ofs, 8);
    ofpbuf_put_zeros(out, len - (out->size - ofs));
    put_be16(ofpact_at(out, ofs) + 2, len);
}

static void
put_set_field_u(struct ofpbuf *out, enum mf_field_id id, uint64_t x,
                enum ofp_version version)
{
    const struct mf_field *f = mf_from_id(id);
    union mf_value value;
    memset(&value, 0, sizeof value);
    for (int i = f->n_bytes - 1; i >= 0; i--, x >>= 8) {
        value.b[i] = x;
    }
    put_set_field_std(out, f, &value, version);
}



/* In 1.0 and 1.1, a set_field of a field that a standard action sets is
 * written as that action, as 3.1 writes it.  Returns false if there is
 * none. */
static bool
encode_set_field_as_std(const struct ofpact_set_field *sf,
                        struct ofpbuf *out, enum ofp_version version)
{
    union {
        struct ofpact_mac mac;
        struct ofpact_ipv4 ipv4;
        struct ofpact_dscp dscp;
        struct ofpact_l4_port l4;
        struct ofpact_vlan_vid vid;
        struct ofpact_vlan_pcp pcp;
        struct ofpact_ecn ecn;
    } u;
    memset(&u, 0, sizeof u);
    const union mf_value *v = &sf->value;
    enum ofpact_type type;

    switch (sf->field->id) {
    case MFF_ETH_SRC:
    case MFF_ETH_DST:
        type = (sf->field->id == MFF_ETH_SRC
                ? OFPACT_SET_ETH_SRC : OFPACT_SET_ETH_DST);
        u.mac.mac = v->mac;
        break;
    case MFF_IPV4_SRC:
    case MFF_IPV4_DST:
        type = (sf->field->id == MFF_IPV4_SRC
                ? OFPACT_SET_IPV4_SRC : OFPACT_SET_IPV4_DST);
        u.ipv4.ipv4 = v->be32;
        break;
    case MFF_IP_DSCP:
        type = OFPACT_SET_IP_DSCP;
        u.dscp.dscp = v->u8;
        break;
    case MFF_IP_DSCP_SHIFTED:
        type = OFPACT_SET_IP_DSCP;
        u.dscp.dscp = v->u8 << 2;
        break;
    case MFF_IP_ECN:
        if (version != OFP11_VERSION) {
            /* 1.0 has no action of its own for ECN (see OFPACT_SET_IP_ECN,
             * which writes this set_field in 1.0). */
            return false;
        }
        type = OFPACT_SET_IP_ECN;
        u.ecn.ecn = v->u8;
        break;
    case MFF_TCP_SRC: case MFF_UDP_SRC: case MFF_SCTP_SRC:
        type = OFPACT_SET_L4_SRC_PORT;
        u.l4.port = ntohs(v->be16);
        break;
    case MFF_TCP_DST: case MFF_UDP_DST: case MFF_SCTP_DST:
        type = OFPACT_SET_L4_DST_PORT;
        u.l4.port = ntohs(v->be16);
        break;
    case MFF_VLAN_VID:
        if (!(ntohs(v->be16) & VLAN_CFI)) {
            return false;
        }
        type = OFPACT_SET_VLAN_VID;
        u.vid.vlan_vid = ntohs(v->be16) & VLAN_VID_MASK;
        break;
    case MFF_DL_VLAN:
        type = OFPACT_SET_VLAN_VID;
        u.vid.vlan_vid = ntohs(v->be16) & VLAN_VID_MASK;
        break;
    case MFF_VLAN_PCP:
    case MFF_DL_VLAN_PCP:
        type = OFPACT_SET_VLAN_PCP;
        u.pcp.vlan_pcp = v->u8;
        break;
    default:
        return false;
    }
    struct ofpact *a = (struct ofpact *) &u;
    a->type = type;
    a->len = sizeof u;
    encode_action(a, out, version);
    return true;
}

/* OFPAT12_SET_FIELD (1.2+) or NXAST_REG_LOAD2 (1.0 to 1.4, VERSION 0 for
 * its NXM headers) of SF as one entry: masked unless SF sets the whole
 * field, as long as a variable-length field's value needs
 * (nx_put_entry()), padded with zeros to 8 bytes. */
static void
put_set_field_entry(struct ofpbuf *out, const struct ofpact_set_field *sf,
                    enum ofp_version version)
{
    size_t ofs = out->size;
    if (version) {
        ofpact_put_std(out, OFPAT12_SET_FIELD, 4);
    } else {
        ofpact_put_nx(out, NXAST_REG_LOAD2, 10);
    }
    /* A mask of all the field's bits is no mask, whatever the bits of its
     * bytes beyond them (vlan_vid's 13 of 16, ip_dscp's 6 of 8). */
    bool exact = mf_value_is_all_ones(sf->field, &sf->mask);
    nx_put_entry(out, sf->field, version, &sf->value,
                 exact ? NULL : &sf->mask);
    size_t len = ROUND_UP(out->size - ofs, 8);
    ofpbuf_put_zeros(out, len - (out->size - ofs));
    put_be16(ofpact_at(out, ofs) + 2, len);
}

/* SF as Nicira actions: NXAST_REG_LOAD2 where NXAST_REG_LOAD cannot say it
 * (a variable-length field, whose 64-bit runs would name bits a TLV map
 * may not have; a field with no NXM or plain OXM header) or where it
 * arrived so, else the NXAST_REG_LOADs of its mask's runs, as 3.1 does. */
static void
put_set_field_nx(struct ofpbuf *out, const struct ofpact_set_field *sf)
{
    if (sf->ofpact.raw == OFPACT_RAW_REG_LOAD2 || sf->field->variable_len
        || !mf_field_nxm_header(sf->field)) {
        put_set_field_entry(out, sf, 0);
    } else {
        put_reg_load(out, sf);
    }
}

static void
encode_set_field(const struct ofpact_set_field *sf, struct ofpbuf *out,
                 enum ofp_version version)
{
    bool from_nx = (sf->ofpact.raw == OFPACT_RAW_REG_LOAD
                    || sf->ofpact.raw == OFPACT_RAW_REG_LOAD2);
    if (version >= OFP15_VERSION) {
        /* 1.5 has masked set_field and neither NXAST_REG_LOAD nor
         * NXAST_REG_LOAD2. */
        put_set_field_entry(out, sf, version);
    } else if (from_nx) {
        put_set_field_nx(out, sf);
    } else if (version <= OFP11_VERSION) {
        if (!mf_value_is_all_ones(sf->field, &sf->mask)
            || !encode_set_field_as_std(sf, out, version)) {
            put_set_field_nx(out, sf);
        }
    } else if (mf_value_is_all_ones(sf->field, &sf->mask)) {
        put_set_field_entry(out, sf, version);
    } else {
        put_set_field_nx(out, sf);
    }
}

static void
encode_controller(const struct ofpact_controller *oc, struct ofpbuf *out)
{
    if (oc->userdata_len || oc->pause
        || oc->ofpact.raw == OFPACT_RAW_CONTROLLER2) {
        size_t ofs = ofpact_put_nx(out, NXAST_CONTROLLER2, 16);
        if (oc->max_len != UINT16_MAX) {
            uint8_t *p = ofpact_put_std(out, NXAC2PT_MAX_LEN, 8);
            put_be16(p + 2, 6);
            put_be16(p + 4, oc->max_len);
        }
        if (oc->controller_id) {
            uint8_t *p = ofpact_put_std(out, NXAC2PT_CONTROLLER_ID, 8);
            put_be16(p + 2, 6);
            put_be16(p + 4, oc->controller_id);
        }
        if (oc->reason != OFPR_ACTION) {
            uint8_t *p = ofpact_put_std(out, NXAC2PT_REASON, 8);
            put_be16(p + 2, 5);
            p[4] = oc->reason;
        }
        if (oc->userdata_len) {
            size_t plen = 4 + oc->userdata_len;
            uint8_t *p = ofpact_put_std(out, NXAC2PT_USERDATA, ROUND_UP(plen, 8));
            put_be16(p + 2, plen);
            memcpy(p + 4, oc->userdata, oc->userdata_len);
        }
        if (oc->pause) {
            uint8_t *p = ofpact_put_std(out, NXAC2PT_PAUSE, 8);
            put_be16(p + 2, 4);
        }
        put_be16(ofpact_at(out, ofs) + 2, out->size - ofs);
    } else {
        size_t ofs = ofpact_put_nx(out, NXAST_CONTROLLER, 16);
        put_be16(ofpact_at(out, ofs) + 10, oc->max_len);
        put_be16(ofpact_at(out, ofs) + 12, oc->controller_id);
        ofpact_at(out, ofs)[14] = oc->reason;
    }
}

static void
encode_action(const struct ofpact *a, struct ofpbuf *out,
              enum ofp_version version)
{
    bool v10 = version == OFP10_VERSION;
    bool v11 = version == OFP11_VERSION;
    uint8_t *p;
    size_t ofs;

    switch ((enum ofpact_type) a->type) {
    case OFPACT_OUTPUT: {
        const struct ofpact_output *o = (const struct ofpact_output *) a;
        put_output(out, o->port, o->max_len, version);
        break;
    }
    case OFPACT_GROUP:
        if (v10) {
            ofs = ofpact_put_nx(out, NXAST_GROUP, 16);
            put_be32(ofpact_at(out, ofs) + 12,
                     ((const struct ofpact_group *) a)->group_id);
        } else {
            p = ofpact_put_std(out, OFPAT11_GROUP, 8);
            put_be32(p + 4, ((const struct ofpact_group *) a)->group_id);
        }
        break;
    case OFPACT_CONTROLLER:
        encode_controller((const struct ofpact_controller *) a, out);
        break;
    case OFPACT_ENQUEUE: {
        const struct ofpact_enqueue *eq = (const struct ofpact_enqueue *) a;
        if (v10) {
            p = ofpact_put_std(out, OFPAT10_ENQUEUE, 16);
            put_be16(p + 4, eq->port);
            put_be32(p + 12, eq->queue);
        } else {
            /* What 3.1 writes for it: set the queue, output, and pop
             * the queue again. */
            p = ofpact_put_std(out, OFPAT11_SET_QUEUE, 8);
            put_be32(p + 4, eq->queue);
            put_output(out, eq->port, 0, version);
            ofpact_put_nx(out, NXAST_POP_QUEUE, 16);
        }
        break;
    }
    case OFPACT_SET_VLAN_VID: {
        const struct ofpact_vlan_vid *vv = (const struct ofpact_vlan_vid *) a;
        if (v11 && vv->push_vlan_if_needed && !vv->flow_has_vlan) {
            p = ofpact_put_std(out, OFPAT11_PUSH_VLAN, 8);
            put_be16(p + 4, ETH_TYPE_VLAN_8021Q);
        }
        if (v10 || v11) {
            p = ofpact_put_std(out, v10 ? OFPAT10_SET_VLAN_VID
                        : OFPAT11_SET_VLAN_VID, 8);
            put_be16(p + 4, vv->vlan_vid);
        } else {
            if (vv->push_vlan_if_needed && !vv->flow_has_vlan) {
                p = ofpact_put_std(out, OFPAT11_PUSH_VLAN, 8);
                put_be16(p + 4, ETH_TYPE_VLAN_8021Q);
            }
            put_set_field_u(out, MFF_VLAN_VID, vv->vlan_vid | VLAN_CFI,
                            version);
        }
        break;
    }
    case OFPACT_SET_VLAN_PCP: {
        const struct ofpact_vlan_pcp *vp = (const struct ofpact_vlan_pcp *) a;
        if (v11 && vp->push_vlan_if_needed && !vp->flow_has_vlan) {
            p = ofpact_put_std(out, OFPAT11_PUSH_VLAN, 8);
            put_be16(p + 4, ETH_TYPE_VLAN_8021Q);
        }
        if (v10 || v11) {
            p = ofpact_put_std(out, v10 ? OFPAT10_SET_VLAN_PCP
                        : OFPAT11_SET_VLAN_PCP, 8);
            p[4] = vp->vlan_pcp;
        } else {
            if (vp->push_vlan_if_needed && !vp->flow_has_vlan) {
                p = ofpact_put_std(out, OFPAT11_PUSH_VLAN, 8);
                put_be16(p + 4, ETH_TYPE_VLAN_8021Q);
            }
            put_set_field_u(out, MFF_VLAN_PCP, vp->vlan_pcp, version);
        }
        break;
    }
    case OFPACT_STRIP_VLAN:
        ofpact_put_std(out, v10 ? OFPAT10_STRIP_VLAN : OFPAT11_POP_VLAN, 8);
        break;
    case OFPACT_PUSH_VLAN:
        p = ofpact_put_std(out, OFPAT11_PUSH_VLAN, 8);
        memcpy(p + 4, &((const struct ofpact_push_vlan *) a)->ethertype, 2);
        break;
    case OFPACT_SET_ETH_SRC:
    case OFPACT_SET_ETH_DST: {
        const struct ofpact_mac *m = (const struct ofpact_mac *) a;
        bool src = a->type == OFPACT_SET_ETH_SRC;
        if (v10 || v11) {
            p = ofpact_put_std(out, (v10
                              ? (src ? OFPAT10_SET_DL_SRC : OFPAT10_SET_DL_DST)
                              : (src ? OFPAT11_SET_DL_SRC
                                 : OFPAT11_SET_DL_DST)), 16);
            memcpy(p + 4, &m->mac, 6);
        } else {
            union mf_value v;
            memset(&v, 0, sizeof v);
            v.mac = m->mac;
            put_set_field_std(out, mf_from_id(src ? MFF_ETH_SRC
                                              : MFF_ETH_DST), &v, version);
        }
        break;
    }
    case OFPACT_SET_IPV4_SRC:
    case OFPACT_SET_IPV4_DST: {
        const struct ofpact_ipv4 *ip = (const struct ofpact_ipv4 *) a;
        bool src = a->type == OFPACT_SET_IPV4_SRC;
        if (v10 || v11) {
            p = ofpact_put_std(out, (v10
                              ? (src ? OFPAT10_SET_NW_SRC : OFPAT10_SET_NW_DST)
                              : (src ? OFPAT11_SET_NW_SRC
                                 : OFPAT11_SET_NW_DST)), 8);
            memcpy(p + 4, &ip->ipv4, 4);
        } else {
            put_set_field_u(out, src ? MFF_IPV4_SRC : MFF_IPV4_DST,
                            ntohl(ip->ipv4), version);
        }
        break;
    }
    case OFPACT_SET_IP_DSCP: {
        uint8_t dscp = ((const struct ofpact_dscp *) a)->dscp;
        if (v10 || v11) {
            p = ofpact_put_std(out, v10 ? OFPAT10_SET_NW_TOS : OFPAT11_SET_NW_TOS, 8);
            p[4] = dscp;
        } else {
            put_set_field_u(out, MFF_IP_DSCP_SHIFTED, dscp >> 2, version);
        }
        break;
    }
    case OFPACT_SET_IP_TTL: {
        uint8_t ttl = ((const struct ofpact_ip_ttl *) a)->ttl;
        if (v10) {
            /* 1.0 has no such action: 3.1 loads the TTL field. */
            struct ofpact_set_field sf;
            memset(&sf, 0, sizeof sf);
            sf.field = mf_from_id(MFF_IP_TTL);
            sf.value.u8 = ttl;
            sf.mask.u8 = 0xff;
            put_reg_load(out, &sf);
        } else {
            p = ofpact_put_std(out, OFPAT11_SET_NW_TTL, 8);
            p[4] = ttl;
        }
        break;
    }
    case OFPACT_SET_L4_SRC_PORT:
    case OFPACT_SET_L4_DST_PORT: {
        const struct ofpact_l4_port *l4 = (const struct ofpact_l4_port *) a;
        bool src = a->type == OFPACT_SET_L4_SRC_PORT;
        if (v10 || v11 || !l4->flow_ip_proto) {
            /* Without a transport protocol from the match (a packet_out's,
             * or a flow that 3.1 would refuse) there is no set_field to
             * choose: 3.1 then sends 1.1's action, which 1.2+ still
             * decode, and the switch answers OFPBAC_MATCH_INCONSISTENT. */
            p = ofpact_put_std(out, (v10
                              ? (src ? OFPAT10_SET_TP_SRC : OFPAT10_SET_TP_DST)
                              : (src ? OFPAT11_SET_TP_SRC
                                 : OFPAT11_SET_TP_DST)), 8);
            put_be16(p + 4, l4->port);
        } else {
            enum mf_field_id id;
            if (l4->flow_ip_proto == IPPROTO_TCP) {
                id = src ? MFF_TCP_SRC : MFF_TCP_DST;
            } else if (l4->flow_ip_proto == IPPROTO_UDP) {
                id = src ? MFF_UDP_SRC : MFF_UDP_DST;
            } else {
                id = src ? MFF_SCTP_SRC : MFF_SCTP_DST;
            }
            put_set_field_u(out, id, l4->port, version);
        }
        break;
    }
    case OFPACT_REG_MOVE: {
        const struct ofpact_reg_move *m = (const struct ofpact_reg_move *) a;
        if (version >= OFP15_VERSION) {
            ofs = out->size;
            p = ofpact_put_std(out, OFPAT15_COPY_FIELD, 12);
            put_be16(p + 4, m->src.n_bits);
            put_be16(p + 6, m->src.ofs);
            put_be16(p + 8, m->dst.ofs);
            nx_put_field_header(out, m->src.field, version, false);
            nx_put_field_header(out, m->dst.field, version, false);
            size_t len = ROUND_UP(out->size - ofs, 8);
            ofpbuf_put_zeros(out, len - (out->size - ofs));
            put_be16(ofpact_at(out, ofs) + 2, len);
            break;
        }
        ofs = ofpact_put_nx(out, NXAST_REG_MOVE, 16);
        put_be16(ofpact_at(out, ofs) + 10, m->src.n_bits);
        put_be16(ofpact_at(out, ofs) + 12, m->src.ofs);
        put_be16(ofpact_at(out, ofs) + 14, m->dst.ofs);
        /* NXM names where a field has one, in every version (3.1). */
        nx_put_field_header(out, m->src.field, 0, false);
        nx_put_field_header(out, m->dst.field, 0, false);
        size_t len = ROUND_UP(out->size - ofs, 8);
        ofpbuf_put_zeros(out, len - (out->size - ofs));
        put_be16(ofpact_at(out, ofs) + 2, len);
        break;
    }
    case OFPACT_SET_FIELD:
        encode_set_field((const struct ofpact_set_field *) a, out, version);
        break;
    case OFPACT_DEC_TTL:
        if (a->raw == OFPACT_RAW_DEC_TTL_CNT_IDS) {
            ofpact_nx_encode(a, out, version);
        } else if (v10) {
            ofpact_put_nx(out, NXAST_DEC_TTL, 16);
        } else {
            ofpact_put_std(out, OFPAT11_DEC_NW_TTL, 8);
        }
        break;
    case OFPACT_SET_IP_ECN: {
        uint8_t ecn = ((const struct ofpact_ecn *) a)->ecn;
        if (v11) {
            p = ofpact_put_std(out, OFPAT11_SET_NW_ECN, 8);
            p[4] = ecn;
        } else {
            union mf_value value;
            memset(&value, 0, sizeof value);
            value.u8 = ecn;
            ofpact_encode_set_field_value(mf_from_id(MFF_IP_ECN), &value,
                                          NULL, out, version);
        }
        break;
    }
    case OFPACT_CT:
    case OFPACT_CT_CLEAR:
    case OFPACT_NAT:
        ofpact_ct_encode(a, out, version);
        break;
    case OFPACT_SET_MPLS_LABEL:
    case OFPACT_SET_MPLS_TC:
    case OFPACT_SET_MPLS_TTL:
    case OFPACT_DEC_MPLS_TTL:
    case OFPACT_PUSH_MPLS:
    case OFPACT_POP_MPLS:
        ofpact_mpls_encode(a, out, version);
        break;
    case OFPACT_ENCAP:
    case OFPACT_DECAP:
    case OFPACT_DEC_NSH_TTL:
        ofpact_encap_encode(a, out, version);
        break;
    case OFPACT_BUNDLE:
        bundle_encode(a, out, version);
        break;
    case OFPACT_MULTIPATH:
        multipath_encode(a, out, version);
        break;
    case OFPACT_OUTPUT_REG:
    case OFPACT_OUTPUT_TRUNC:
    case OFPACT_FIN_TIMEOUT:
    case OFPACT_CONJUNCTION:
    case OFPACT_CLONE:
    case OFPACT_CHECK_PKT_LARGER:
    case OFPACT_STACK_PUSH:
    case OFPACT_STACK_POP:
    case OFPACT_DELETE_FIELD:
    case OFPACT_SAMPLE:
    case OFPACT_DEBUG_RECIRC:
    case OFPACT_DEBUG_SLOW:
        ofpact_nx_encode(a, out, version);
        break;
    case OFPACT_SET_TUNNEL: {
        const struct ofpact_tunnel *t = (const struct ofpact_tunnel *) a;
        if (version >= OFP12_VERSION) {
            put_set_field_u(out, MFF_TUN_ID, t->tun_id, version);
        } else if (t->tun_id > UINT32_MAX
                   || a->raw == OFPACT_RAW_SET_TUNNEL64) {
            ofs = ofpact_put_nx(out, NXAST_SET_TUNNEL64, 24);
            put_be64(ofpact_at(out, ofs) + 16, t->tun_id);
        } else {
            ofs = ofpact_put_nx(out, NXAST_SET_TUNNEL, 16);
            put_be32(ofpact_at(out, ofs) + 12, t->tun_id);
        }
        break;
    }
    case OFPACT_SET_QUEUE: {
        uint32_t q = ((const struct ofpact_queue *) a)->queue_id;
        if (v10) {
            ofs = ofpact_put_nx(out, NXAST_SET_QUEUE, 16);
            put_be32(ofpact_at(out, ofs) + 12, q);
        } else {
            p = ofpact_put_std(out, OFPAT11_SET_QUEUE, 8);
            put_be32(p + 4, q);
        }
        break;
    }
    case OFPACT_POP_QUEUE:
        ofpact_put_nx(out, NXAST_POP_QUEUE, 16);
        break;
    case OFPACT_RESUBMIT: {
        const struct ofpact_resubmit *r = (const struct ofpact_resubmit *) a;
        if (a->raw == OFPACT_RAW_RESUBMIT_CT) {
            ofpact_nx_encode(a, out, version);
        } else if (r->table_id == 255
                   && a->raw != OFPACT_RAW_RESUBMIT_TABLE) {
            ofs = ofpact_put_nx(out, NXAST_RESUBMIT, 16);
            put_be16(ofpact_at(out, ofs) + 10, r->in_port);
        } else {
            ofs = ofpact_put_nx(out, NXAST_RESUBMIT_TABLE, 16);
            put_be16(ofpact_at(out, ofs) + 10, r->in_port);
            ofpact_at(out, ofs)[12] = r->table_id;
        }
        break;
    }
    case OFPACT_NOTE: {
        const struct ofpact_note *note = (const struct ofpact_note *) a;
        ofs = ofpact_put_nx(out, NXAST_NOTE, 10);
        ofpbuf_put(out, note->data, note->length);
        size_t len = MAX(16, ROUND_UP(out->size - ofs, 8));
        ofpbuf_put_zeros(out, len - (out->size - ofs));
        put_be16(ofpact_at(out, ofs) + 2, len);
        break;
    }
    case OFPACT_EXIT:
        ofpact_put_nx(out, NXAST_EXIT, 16);
        break;
    case OFPACT_LEARN:
        learn_encode((const struct ofpact_learn *) a, out);
        break;
    case OFPACT_WRITE_METADATA: {
        /* Only reached in 1.0 (instructions are encoded elsewhere). */
        const struct ofpact_metadata *md = (const struct ofpact_metadata *) a;
        ofs = ofpact_put_nx(out, NXAST_WRITE_METADATA, 32);
        memcpy(ofpact_at(out, ofs) + 16, &md->metadata, 8);
        memcpy(ofpact_at(out, ofs) + 24, &md->mask, 8);
        break;
    }
    case OFPACT_GOTO_TABLE:
        /* 1.0: a resubmit to the table, as 3.1 writes it. */
        ofs = ofpact_put_nx(out, NXAST_RESUBMIT_TABLE, 16);
        put_be16(ofpact_at(out, ofs) + 10, OFPP_IN_PORT);
        ofpact_at(out, ofs)[12] = ((const struct ofpact_goto_table *) a)->table_id;
        break;
    case OFPACT_METER:
        if (version >= OFP15_VERSION) {
            p = ofpact_put_std(out, OFPAT15_METER, 8);
            put_be32(p + 4, ((const struct ofpact_meter *) a)->meter_id);
        }
        break;
    case OFPACT_CLEAR_ACTIONS:
    case OFPACT_WRITE_ACTIONS:
        /* 1.0 has no action set: 3.1 leaves these out. */
        break;
    case N_OFPACTS:
    default:
        ovs_abort(0, "%s: unexpected case", __func__);
    }
}

size_t
ofpacts_put_openflow_actions(const struct ofpact ofpacts[], size_t len,
                             struct ofpbuf *out, enum ofp_version version)
{
    size_t start = out->size;
    const struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        /* 1.0 has no instructions: the encoder writes those it can as
         * Nicira actions (goto_table, write_metadata) and leaves out the
         * rest, as 3.1 does. */
        if (!ofpact_is_instruction(a->type) || version == OFP10_VERSION) {
            encode_action(a, out, version);
        }
    }
    return out->size - start;
}

void
ofpacts_encode_nested(const struct ofpact *actions, size_t len,
                      struct ofpbuf *out, enum ofp_version version)
{
    ofpacts_put_openflow_actions(actions, len, out, version);
}

void
ofpact_encode_set_field_value(const struct mf_field *f,
                              const union mf_value *value,
                              const union mf_value *mask,
                              struct ofpbuf *out, enum ofp_version version)
{
    struct ofpact_set_field sf;
    memset(&sf, 0, sizeof sf);
    sf.ofpact.type = OFPACT_SET_FIELD;
    sf.ofpact.len = sizeof sf;
    sf.field = f;
    sf.value = *value;
    if (mask) {
        sf.mask = *mask;
    } else {
        mf_value_set_all_ones(f, &sf.mask);
    }
    encode_set_field(&sf, out, version);
}

size_t
ofpacts_put_openflow_instructions(const struct ofpact ofpacts[], size_t len,
                                  struct ofpbuf *out,
                                  enum ofp_version version)
{
    size_t start = out->size;
    const struct ofpact *a;

    if (version == OFP10_VERSION) {
        OFPACT_FOR_EACH (a, ofpacts, len) {
            encode_action(a, out, version);
        }
        return out->size - start;
    }

    /* Meter first, then Apply-Actions for the bare actions, then the rest
     * in list order (the order enum ofpact_type gives them). */
    bool meter_action = version >= OFP15_VERSION;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        if (a->type == OFPACT_METER && !meter_action) {
            uint8_t *p = ofpact_put_std(out, OFPIT13_METER, 8);
            put_be32(p + 4, ((const struct ofpact_meter *) a)->meter_id);
        }
    }
    size_t apply = SIZE_MAX;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        if (!ofpact_is_instruction(a->type)
            || (a->type == OFPACT_METER && meter_action)) {
            if (apply == SIZE_MAX) {
                apply = out->size;
                ofpact_put_std(out, OFPIT11_APPLY_ACTIONS, 8);
            }
            encode_action(a, out, version);
        }
    }
    if (apply != SIZE_MAX) {
        put_be16(ofpact_at(out, apply) + 2, out->size - apply);
    }
    OFPACT_FOR_EACH (a, ofpacts, len) {
        switch (a->type) {
        case OFPACT_CLEAR_ACTIONS:
            ofpact_put_std(out, OFPIT11_CLEAR_ACTIONS, 8);
            break;
        case OFPACT_WRITE_ACTIONS: {
            const struct ofpact_nest *on = (const struct ofpact_nest *) a;
            size_t ofs = out->size;
            ofpact_put_std(out, OFPIT11_WRITE_ACTIONS, 8);
            ofpacts_put_openflow_actions(on->actions,
                                         ofpact_nest_get_action_len(on),
                                         out, version);
            put_be16(ofpact_at(out, ofs) + 2, out->size - ofs);
            break;
        }
        case OFPACT_WRITE_METADATA: {
            const struct ofpact_metadata *md
                = (const struct ofpact_metadata *) a;
            uint8_t *p = ofpact_put_std(out, OFPIT11_WRITE_METADATA, 24);
            memcpy(p + 8, &md->metadata, 8);
            memcpy(p + 16, &md->mask, 8);
            break;
        }
        case OFPACT_GOTO_TABLE: {
            uint8_t *p = ofpact_put_std(out, OFPIT11_GOTO_TABLE, 8);
            p[4] = ((const struct ofpact_goto_table *) a)->table_id;
            break;
        }
        default:
            break;
        }
    }
    return out->size - start;
}
