/* ofp-actions-private: what the core of the action codec (ofp-actions.c,
 * ofp-actions-text.c) shares with the files that hold one family of
 * actions each (ofp-actions-ct.c, ofp-actions-mpls.c, ofp-actions-nx.c,
 * ofp-actions-encap.c, bundle.c, multipath.c).  Only those files include
 * it.
 *
 * A family file gives each of its actions four functions, which the core
 * calls from its switches:
 *
 *   enum ofperr decode_X(const uint8_t *p, size_t len, enum ofp_version,
 *                        struct ofpbuf *ofpacts);
 *       P is the whole wire action (LEN bytes, its header included, LEN a
 *       multiple of 8 and at least the action's minimum length, which the
 *       core checked).  Appends the ofpact.  On error OFPACTS may hold a
 *       partial action: the core restores its size.
 *   void encode_X(const struct ofpact_X *, struct ofpbuf *out,
 *                 enum ofp_version);
 *   void format_X(const struct ofpact_X *, const struct ofputil_port_map *,
 *                 const struct ofputil_table_map *, struct ds *);
 *   char *parse_X(char *arg, const struct ofpact_parse_ctx *);
 *       ARG is the text after "X:" or inside "X(...)", writable.  Returns a
 *       malloc'd error worded as ovs-ofctl 3.1 words it.
 *
 * Threads: pure functions; any thread. */
#ifndef OFP_ACTIONS_PRIVATE_H
#define OFP_ACTIONS_PRIVATE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-actions.h"

struct ds;
struct match;
struct ofpbuf;
struct ofputil_port_map;
struct ofputil_table_map;

/* Wire numbers shared by the files. */
enum {
    OFPAT_VENDOR = 0xffff,

    /* Nicira subtypes. */
    NXAST_RESUBMIT = 1, NXAST_SET_TUNNEL = 2, NXAST_SET_QUEUE = 4,
    NXAST_POP_QUEUE = 5, NXAST_REG_MOVE = 6, NXAST_REG_LOAD = 7,
    NXAST_NOTE = 8, NXAST_SET_TUNNEL64 = 9, NXAST_MULTIPATH = 10,
    NXAST_BUNDLE = 12, NXAST_BUNDLE_LOAD = 13, NXAST_RESUBMIT_TABLE = 14,
    NXAST_OUTPUT_REG = 15, NXAST_LEARN = 16, NXAST_EXIT = 17,
    NXAST_DEC_TTL = 18, NXAST_FIN_TIMEOUT = 19, NXAST_CONTROLLER = 20,
    NXAST_DEC_TTL_CNT_IDS = 21, NXAST_WRITE_METADATA = 22,
    NXAST_PUSH_MPLS = 23, NXAST_POP_MPLS = 24, NXAST_SET_MPLS_TTL = 25,
    NXAST_DEC_MPLS_TTL = 26, NXAST_STACK_PUSH = 27, NXAST_STACK_POP = 28,
    NXAST_SAMPLE = 29, NXAST_SET_MPLS_LABEL = 30, NXAST_SET_MPLS_TC = 31,
    NXAST_OUTPUT_REG2 = 32, NXAST_REG_LOAD2 = 33, NXAST_CONJUNCTION = 34,
    NXAST_CT = 35,
    NXAST_NAT = 36, NXAST_CONTROLLER2 = 37, NXAST_SAMPLE2 = 38,
    NXAST_OUTPUT_TRUNC = 39, NXAST_GROUP = 40, NXAST_SAMPLE3 = 41,
    NXAST_CLONE = 42, NXAST_CT_CLEAR = 43, NXAST_RESUBMIT_TABLE_CT = 44,
    NXAST_LEARN2 = 45, NXAST_ENCAP = 46, NXAST_DECAP = 47,
    NXAST_DEC_NSH_TTL = 48, NXAST_CHECK_PKT_LARGER = 49,
    NXAST_DELETE_FIELD = 50, NXAST_DEBUG_SLOW = 254,
    NXAST_DEBUG_RECIRC = 255,

    /* OpenFlow 1.1+ standard actions of the family files. */
    OFPAT11_SET_NW_ECN = 8, OFPAT11_SET_MPLS_LABEL = 13,
    OFPAT11_SET_MPLS_TC = 14, OFPAT11_SET_MPLS_TTL = 15,
    OFPAT11_DEC_MPLS_TTL = 16, OFPAT11_PUSH_MPLS = 19,
    OFPAT11_POP_MPLS = 20, OFPAT12_SET_FIELD = 25,
};

/* Encoding helpers.  ofpact_put_std() appends a zeroed standard action of
 * LEN bytes with its type and length set and returns it; ofpact_put_nx()
 * does the same for a Nicira action and returns its offset in OUT (the
 * buffer may move as the caller appends more).  ofpact_at() is the byte
 * at OFS.  ofpact_finish_nx() pads the action that starts at OFS to a
 * multiple of 8 bytes (at least MIN_LEN) and writes its length. */
uint8_t *ofpact_put_std(struct ofpbuf *out, uint16_t type, size_t len);
size_t ofpact_put_nx(struct ofpbuf *out, uint16_t subtype, size_t len);
uint8_t *ofpact_at(struct ofpbuf *out, size_t ofs);
void ofpact_finish_nx(struct ofpbuf *out, size_t ofs, size_t min_len);
/* The action list at ACTIONS, LEN bytes, as VERSION's actions, appended
 * to OUT (what clone and ct nest). */
void ofpacts_encode_nested(const struct ofpact *actions, size_t len,
                           struct ofpbuf *out, enum ofp_version);
/* A set_field of F to VALUE under MASK (NULL: exact) as VERSION writes
 * it (set_field or NXAST_REG_LOAD). */
void ofpact_encode_set_field_value(const struct mf_field *,
                                   const union mf_value *value,
                                   const union mf_value *mask,
                                   struct ofpbuf *out, enum ofp_version);

/* Decoding helpers. */
bool ofpact_is_all_zeros(const uint8_t *, size_t);
/* Decodes the LEN bytes of actions at P (nested in clone or ct),
 * appending to OFPACTS. */
enum ofperr ofpacts_decode_nested(const uint8_t *p, size_t len,
                                  enum ofp_version, struct ofpbuf *ofpacts);
/* Reads the NXM/OXM header of a sub-field's field at P (4 or 8 bytes
 * of the LEN left), the sub-field being OFS and N_BITS, into *SF; the
 * number of header bytes used goes into *HDR_LEN.  Checks the sub-field
 * lies within the field. */
enum ofperr ofpact_decode_subfield(const uint8_t *p, size_t len,
                                   unsigned int ofs, unsigned int n_bits,
                                   struct mf_subfield *sf, size_t *hdr_len);

/* Text helpers. */
struct ofpact_parse_ctx {
    const struct ofputil_port_map *port_map;
    const struct ofputil_table_map *table_map;
    struct ofpbuf *ofpacts;
    bool in_ct;                 /* Inside ct(...): nat is allowed. */
};
/* Parses the action list S into CTX->ofpacts (nested in clone or ct;
 * no instructions). */
char *ofpacts_parse_nested(const char *s, const struct ofpact_parse_ctx *)
    OVS_WARN_UNUSED_RESULT;

/* The hash field names of bundle and multipath ("eth_src", ...). */
const char *nx_hash_fields_to_string(enum nx_hash_fields);
bool nx_hash_fields_from_string(const char *, enum nx_hash_fields *);

/* The families.  Each has, for the ofpact types it owns:
 *   FAMILY_decode_nx(): the Nicira action P (LEN bytes, its header
 *     included, LEN a multiple of 8 and at least 16) of subtype SUBTYPE;
 *     appends the ofpact.  On error OFPACTS may hold a partial action:
 *     the core restores its size.
 *   FAMILY_encode(): appends A's wire form in VERSION.
 *   FAMILY_format(): appends A as 3.1 prints it.
 *   FAMILY_parse(): parses ARG, the text after "KEY:" or inside "KEY(...)"
 *     (writable), appending to CTX->ofpacts; returns a malloc'd error
 *     worded as 3.1's.
 *   FAMILY_check(): what 3.1 checks of A against the flow's MATCH before
 *     accepting the flow (0, OFPBAC_MATCH_INCONSISTENT, ...).  The match
 *     may be changed to what the packet is after A. */
#define OFPACT_FAMILY(FAMILY)                                               \
    enum ofperr FAMILY##_decode_nx(uint16_t subtype, const uint8_t *p,      \
                                   size_t len, enum ofp_version,            \
                                   struct ofpbuf *ofpacts);                 \
    void FAMILY##_encode(const struct ofpact *a, struct ofpbuf *out,        \
                         enum ofp_version);                                 \
    void FAMILY##_format(const struct ofpact *a,                            \
                         const struct ofputil_port_map *,                   \
                         const struct ofputil_table_map *, struct ds *);    \
    char *FAMILY##_parse(const char *key, char *arg,                        \
                         const struct ofpact_parse_ctx *)                   \
        OVS_WARN_UNUSED_RESULT;                                             \
    enum ofperr FAMILY##_check(const struct ofpact *a, struct match *match);

/* ct, nat, ct_clear (ofp-actions-ct.c). */
OFPACT_FAMILY(ofpact_ct)
/* MPLS push, pop, set and decrement (ofp-actions-mpls.c); also the
 * standard 1.1+ actions of type TYPE. */
OFPACT_FAMILY(ofpact_mpls)
enum ofperr ofpact_mpls_decode_std(uint16_t type, const uint8_t *p,
                                   size_t len, enum ofp_version,
                                   struct ofpbuf *ofpacts);
/* encap, decap, dec_nsh_ttl (ofp-actions-encap.c). */
OFPACT_FAMILY(ofpact_encap)
/* The other Nicira extensions (ofp-actions-nx.c): output_reg,
 * output(port=,max_len=), dec_ttl(ids), fin_timeout, conjunction, clone,
 * check_pkt_larger, push/pop (the stack), delete_field, sample,
 * debug_recirc, debug_slow. */
OFPACT_FAMILY(ofpact_nx)
/* bundle, bundle_load (bundle.c) and multipath (multipath.c). */
OFPACT_FAMILY(bundle)
OFPACT_FAMILY(multipath)

#endif /* ofp-actions-private.h */
