/* ofp-actions: OpenFlow actions and instructions, decoded.
 *
 * Representation
 * --------------
 * Actions and instructions of every version decode into one form, a list
 * of "ofpacts" packed in a buffer: each starts with struct ofpact (type,
 * length) and is padded to a multiple of OFPACT_ALIGNTO bytes, so
 * translation walks a flow's actions with OFPACT_FOR_EACH without
 * allocating.  Instructions are ofpacts too: OFPACT_METER first, then
 * the Apply-Actions actions, which are bare ofpacts, then
 * OFPACT_CLEAR_ACTIONS, OFPACT_WRITE_ACTIONS with the action set nested
 * inside it, OFPACT_WRITE_METADATA and OFPACT_GOTO_TABLE, in that order;
 * an OpenFlow 1.0 flow is the same list without instructions.  An empty
 * list means drop.
 *
 * The buffer that holds a list is owned by its creator (typically a
 * struct ofpbuf the decoder appended to); nothing inside points outside
 * the list, except `field` pointers into the constant field table.
 *
 * What is here
 * ------------
 * output (with max_len to the controller), controller(...) with reason,
 * id, max_len and userdata (NXAST_CONTROLLER and NXAST_CONTROLLER2),
 * enqueue, group, mod_vlan_vid, mod_vlan_pcp, strip_vlan/pop_vlan,
 * push_vlan, mod_dl_src/dst, mod_nw_src/dst, mod_nw_tos, mod_nw_ttl,
 * mod_tp_src/dst, dec_ttl, set_queue, pop_queue, set_field, load
 * (NXAST_REG_LOAD and NXAST_REG_LOAD2), move (NXAST_REG_MOVE), set_tunnel/set_tunnel64,
 * resubmit (NXAST_RESUBMIT and NXAST_RESUBMIT_TABLE), learn
 * (NXAST_LEARN and NXAST_LEARN2, see learn.h), note, exit; the
 * instructions meter, apply_actions, clear_actions, write_actions,
 * write_metadata (NXAST_WRITE_METADATA in 1.0) and goto_table (resubmit
 * in 1.0, as Open vSwitch does).  Also, each family in a file of its own
 * behind ofp-actions-private.h: ct, nat, ct_clear (ofp-actions-ct.c);
 * the MPLS actions (ofp-actions-mpls.c); encap, decap, dec_nsh_ttl
 * (ofp-actions-encap.c); bundle, bundle_load (bundle.c); multipath
 * (multipath.c); and output:FIELD, output(port=,max_len=), dec_ttl(ids),
 * fin_timeout, conjunction, clone, check_pkt_larger, push/pop,
 * delete_field, sample, resubmit(...,ct), debug_recirc and debug_slow
 * (ofp-actions-nx.c); mod_nw_ecn is here.
 *
 * Decoding checks every length, vendor, subtype and argument and returns
 * the OpenFlow error for what is wrong (OFPBAC_BAD_TYPE, BAD_LEN,
 * BAD_VENDOR, BAD_VENDOR_TYPE, BAD_ARGUMENT, BAD_OUT_PORT, BAD_SET_*,
 * OFPBIC_* for instructions, NXBRC_MUST_BE_ZERO for padding).
 *
 * Encoding writes the form each version knows, as 3.1 does: a set_field
 * is a standard action in 1.0 and 1.1 where one sets the field, else
 * NXAST_REG_LOAD (64-bit runs of the mask) or NXAST_REG_LOAD2 (one NXM/OXM
 * entry: for a variable-length field such as tun_metadataN, a field with
 * only an experimenter OXM code, or one that arrived so); OFPAT_SET_FIELD
 * in 1.2 to 1.4 when it sets the whole field (else as in 1.0) and always
 * in 1.5.  A variable-length field's entry is as long as its value's
 * significant bytes (nx_put_entry()).  mod_nw_tos is set_field:N->ip_dscp
 * in 1.2+.  Decoding remembers in ofpact.raw which wire form
 * an action arrived in where the text shows it ("load:" versus
 * "set_field:", "strip_vlan" versus "pop_vlan").  A few actions depend on
 * the flow's match in 1.2+ (mod_tp_src needs the IP protocol, mod_vlan_vid
 * pushes a tag when the flow has none): ofpacts_annotate() records what
 * the match says before encoding.  Actions a version cannot carry at all
 * (push_vlan, group and meter in 1.0) are for the caller to rule out
 * beforehand with ofpacts_encodable_in().
 *
 * Text follows ovs-ofctl 3.1: ofpacts_parse_actions()/_instructions()
 * accept its syntax and ofpact_list_format() prints the list as 3.1 prints a
 * flow's actions ("output:1,mod_vlan_vid:5", "resubmit(,2)",
 * "load:0x1->NXM_NX_REG0[]", "drop").
 *
 * Threads: pure functions over caller-owned buffers; any thread. */
#ifndef OFP_ACTIONS_H
#define OFP_ACTIONS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-fields.h"
#include "openflow.h"

struct ds;
struct match;
struct ofpbuf;
struct ofputil_port_map;
struct ofputil_table_map;

enum ofpact_type {
    /* Output. */
    OFPACT_OUTPUT,
    OFPACT_GROUP,
    OFPACT_CONTROLLER,
    OFPACT_ENQUEUE,
    OFPACT_OUTPUT_REG,
    OFPACT_OUTPUT_TRUNC,
    OFPACT_BUNDLE,

    /* Header changes. */
    OFPACT_SET_VLAN_VID,
    OFPACT_SET_VLAN_PCP,
    OFPACT_STRIP_VLAN,
    OFPACT_PUSH_VLAN,
    OFPACT_SET_ETH_SRC,
    OFPACT_SET_ETH_DST,
    OFPACT_SET_IPV4_SRC,
    OFPACT_SET_IPV4_DST,
    OFPACT_SET_IP_DSCP,
    OFPACT_SET_IP_TTL,
    OFPACT_SET_L4_SRC_PORT,
    OFPACT_SET_L4_DST_PORT,
    OFPACT_REG_MOVE,
    OFPACT_SET_FIELD,
    OFPACT_DEC_TTL,
    OFPACT_SET_IP_ECN,
    OFPACT_SET_MPLS_LABEL,
    OFPACT_SET_MPLS_TC,
    OFPACT_SET_MPLS_TTL,
    OFPACT_DEC_MPLS_TTL,
    OFPACT_PUSH_MPLS,
    OFPACT_POP_MPLS,
    OFPACT_DEC_NSH_TTL,
    OFPACT_DELETE_FIELD,
    OFPACT_ENCAP,
    OFPACT_DECAP,
    OFPACT_STACK_PUSH,
    OFPACT_STACK_POP,

    /* Metadata. */
    OFPACT_SET_TUNNEL,
    OFPACT_SET_QUEUE,
    OFPACT_POP_QUEUE,

    /* Flow table interaction. */
    OFPACT_RESUBMIT,
    OFPACT_LEARN,
    OFPACT_CONJUNCTION,
    OFPACT_MULTIPATH,
    OFPACT_FIN_TIMEOUT,

    /* Control flow and connection tracking. */
    OFPACT_CLONE,
    OFPACT_CHECK_PKT_LARGER,
    OFPACT_CT,
    OFPACT_CT_CLEAR,
    OFPACT_NAT,

    /* Other. */
    OFPACT_NOTE,
    OFPACT_EXIT,
    OFPACT_SAMPLE,
    OFPACT_DEBUG_RECIRC,
    OFPACT_DEBUG_SLOW,

    /* Instructions, in the order they must appear. */
    OFPACT_METER,
    OFPACT_CLEAR_ACTIONS,
    OFPACT_WRITE_ACTIONS,
    OFPACT_WRITE_METADATA,
    OFPACT_GOTO_TABLE,

    N_OFPACTS
};

#define OFPACT_ALIGNTO 8
#define OFPACT_ALIGN(SIZE) ROUND_UP(SIZE, OFPACT_ALIGNTO)

/* The wire form an action arrived in (or should leave in), where it
 * matters for re-encoding and printing.  OFPACT_RAW_NONE: the default. */
enum ofpact_raw {
    OFPACT_RAW_NONE = 0,
    OFPACT_RAW_POP_VLAN,            /* Written "pop_vlan". */
    OFPACT_RAW_REG_LOAD,            /* A set_field written "load:". */
    OFPACT_RAW_REG_LOAD2,           /* A set_field that arrived as
                                     * NXAST_REG_LOAD2 (and leaves so). */
    OFPACT_RAW_SET_TUNNEL64,        /* Written "set_tunnel64:". */
    OFPACT_RAW_RESUBMIT_TABLE,      /* Written "resubmit(PORT,TABLE)". */
    OFPACT_RAW_CONTROLLER2,         /* Arrived as NXAST_CONTROLLER2. */
    OFPACT_RAW_DEC_TTL_CNT_IDS,     /* Written "dec_ttl(ID...)". */
    OFPACT_RAW_RESUBMIT_CT,         /* Written "resubmit(PORT,TABLE,ct)". */
};

struct ofpact {
    uint8_t type;                   /* enum ofpact_type. */
    uint8_t raw;                    /* enum ofpact_raw. */
    uint16_t len;                   /* Bytes, this header included. */
    uint8_t pad[4];
};
_Static_assert(sizeof(struct ofpact) == 8, "ofpact header");

static inline struct ofpact *
ofpact_next(const struct ofpact *a)
{
    return (struct ofpact *) ((uint8_t *) a + OFPACT_ALIGN(a->len));
}

static inline const struct ofpact *
ofpact_end(const struct ofpact *a, size_t len)
{
    return (const struct ofpact *) ((const uint8_t *) a + len);
}

#define OFPACT_FOR_EACH(POS, OFPACTS, OFPACTS_LEN)                      \
    for ((POS) = (OFPACTS); (POS) < ofpact_end(OFPACTS, OFPACTS_LEN);  \
         (POS) = ofpact_next(POS))

/* OFPACT_OUTPUT. */
struct ofpact_output {
    struct ofpact ofpact;
    uint32_t port;
    uint16_t max_len;               /* For OFPP_CONTROLLER. */
};

/* OFPACT_GROUP. */
struct ofpact_group {
    struct ofpact ofpact;
    uint32_t group_id;
};

/* OFPACT_CONTROLLER: packet-in with a reason, controller id, userdata. */
struct ofpact_controller {
    struct ofpact ofpact;
    uint16_t max_len;
    uint16_t controller_id;
    uint8_t reason;                 /* OFPR_*. */
    bool pause;
    uint16_t userdata_len;
    uint8_t userdata[];             /* Followed by USERDATA_LEN bytes. */
};

/* OFPACT_ENQUEUE. */
struct ofpact_enqueue {
    struct ofpact ofpact;
    uint32_t port;
    uint32_t queue;
};

/* OFPACT_SET_VLAN_VID / _PCP.  PUSH_VLAN_IF_NEEDED: the 1.0 semantics
 * ("mod_vlan_vid" adds a tag if there is none).  FLOW_HAS_VLAN is filled
 * in by ofpacts_annotate() for encoding to 1.2+. */
struct ofpact_vlan_vid {
    struct ofpact ofpact;
    uint16_t vlan_vid;
    bool push_vlan_if_needed;
    bool flow_has_vlan;
};
struct ofpact_vlan_pcp {
    struct ofpact ofpact;
    uint8_t vlan_pcp;
    bool push_vlan_if_needed;
    bool flow_has_vlan;
};

/* OFPACT_PUSH_VLAN. */
struct ofpact_push_vlan {
    struct ofpact ofpact;
    ovs_be16 ethertype;
};

/* OFPACT_SET_ETH_SRC, OFPACT_SET_ETH_DST. */
struct ofpact_mac {
    struct ofpact ofpact;
    struct eth_addr mac;
};

/* OFPACT_SET_IPV4_SRC, OFPACT_SET_IPV4_DST. */
struct ofpact_ipv4 {
    struct ofpact ofpact;
    ovs_be32 ipv4;
};

/* OFPACT_SET_IP_DSCP (the TOS byte's DSCP bits in place), _TTL. */
struct ofpact_dscp {
    struct ofpact ofpact;
    uint8_t dscp;
};
struct ofpact_ip_ttl {
    struct ofpact ofpact;
    uint8_t ttl;
};

/* OFPACT_SET_L4_SRC_PORT, _DST_PORT.  FLOW_IP_PROTO is filled in by
 * ofpacts_annotate() so that 1.2+ can name the right field. */
struct ofpact_l4_port {
    struct ofpact ofpact;
    uint16_t port;
    uint8_t flow_ip_proto;
};

/* OFPACT_REG_MOVE. */
struct ofpact_reg_move {
    struct ofpact ofpact;
    struct mf_subfield src;
    struct mf_subfield dst;
};

/* OFPACT_SET_FIELD: FIELD's bits under MASK become VALUE's. */
struct ofpact_set_field {
    struct ofpact ofpact;
    const struct mf_field *field;
    union mf_value value;
    union mf_value mask;
};

/* Walks the runs of consecutive 1 bits in SF's mask, at most 64 bits each
 * (the sub-fields an NXAST_REG_LOAD can write): start with *START and
 * *N_BITS zero; each call moves them to the next run and stores its bits
 * of the value in *VALUE, or returns false after the last. */
bool ofpact_set_field_next_run(const struct ofpact_set_field *,
                               unsigned int *start, unsigned int *n_bits,
                               uint64_t *value);

/* OFPACT_SET_TUNNEL. */
struct ofpact_tunnel {
    struct ofpact ofpact;
    uint64_t tun_id;
};

/* OFPACT_SET_QUEUE. */
struct ofpact_queue {
    struct ofpact ofpact;
    uint32_t queue_id;
};

/* OFPACT_RESUBMIT.  IN_PORT OFPP_IN_PORT: the packet's own; TABLE_ID 255:
 * the current table. */
struct ofpact_resubmit {
    struct ofpact ofpact;
    uint32_t in_port;
    uint8_t table_id;
};

/* OFPACT_LEARN: the learn action (learn.h has its wire form, text and
 * execution).  The fixed part is followed by N_SPECS struct
 * ofpact_learn_spec. */
#define NX_LEARN_F_SEND_FLOW_REM  (1 << 0)
#define NX_LEARN_F_DELETE_LEARNED (1 << 1)
#define NX_LEARN_F_WRITE_RESULT   (1 << 2)   /* result_dst is set. */

/* A spec's header on the wire: source and destination kinds, width. */
#define NX_LEARN_N_BITS_MASK    0x3ff
#define NX_LEARN_SRC_FIELD      (0 << 13)
#define NX_LEARN_SRC_IMMEDIATE  (1 << 13)
#define NX_LEARN_SRC_MASK       (1 << 13)
#define NX_LEARN_DST_MATCH      (0 << 11)
#define NX_LEARN_DST_LOAD       (1 << 11)
#define NX_LEARN_DST_OUTPUT     (2 << 11)
#define NX_LEARN_DST_RESERVED   (3 << 11)
#define NX_LEARN_DST_MASK       (3 << 11)

struct ofpact_learn_spec {
    struct mf_subfield src;     /* NX_LEARN_SRC_FIELD. */
    struct mf_subfield dst;     /* NX_LEARN_DST_MATCH or _LOAD. */
    uint16_t src_type;          /* NX_LEARN_SRC_*. */
    uint16_t dst_type;          /* NX_LEARN_DST_*. */
    uint16_t n_bits;
    /* NX_LEARN_SRC_IMMEDIATE: the value, right-aligned (big-endian) in
     * the last DIV_ROUND_UP(n_bits, 8) bytes. */
    uint8_t imm[16];
};

struct ofpact_learn {
    struct ofpact ofpact;
    uint16_t idle_timeout, hard_timeout, fin_idle_timeout, fin_hard_timeout;
    uint16_t priority;
    uint16_t flags;             /* NX_LEARN_F_*. */
    uint8_t table_id;
    ovs_be64 cookie;
    uint32_t limit;             /* 0: no limit. */
    struct mf_subfield result_dst;  /* NX_LEARN_F_WRITE_RESULT. */
    uint32_t n_specs;
    struct ofpact_learn_spec specs[];
};

/* OFPACT_OUTPUT_REG: output to the port number in SRC. */
struct ofpact_output_reg {
    struct ofpact ofpact;
    uint16_t max_len;
    struct mf_subfield src;
};

/* OFPACT_OUTPUT_TRUNC: output to PORT, the packet cut to MAX_LEN bytes. */
struct ofpact_output_trunc {
    struct ofpact ofpact;
    uint32_t port;
    uint32_t max_len;
};

/* The flow fields that bundle and multipath hash (NX_HASH_FIELDS_*, their
 * wire numbers). */
enum nx_hash_fields {
    NX_HASH_FIELDS_ETH_SRC,
    NX_HASH_FIELDS_SYMMETRIC_L4,
    NX_HASH_FIELDS_SYMMETRIC_L3L4,
    NX_HASH_FIELDS_SYMMETRIC_L3L4_UDP,
    NX_HASH_FIELDS_NW_SRC,
    NX_HASH_FIELDS_NW_DST,
    NX_HASH_FIELDS_SYMMETRIC_L3,
};

/* OFPACT_BUNDLE: bundle (output to the chosen member) or, when DST.field
 * is set, bundle_load (the chosen member's port number into DST).  See
 * bundle.h. */
enum nx_bd_algorithm {
    NX_BD_ALG_ACTIVE_BACKUP = 0,
    NX_BD_ALG_HRW = 1,
};
struct ofpact_bundle {
    struct ofpact ofpact;
    uint16_t algorithm;             /* enum nx_bd_algorithm. */
    uint16_t fields;                /* enum nx_hash_fields. */
    uint16_t basis;
    struct mf_subfield dst;
    uint16_t n_members;
    /* OpenFlow port numbers, appended right after the header. */
    _Alignas(OFPACT_ALIGNTO) uint32_t members[];
};
_Static_assert(offsetof(struct ofpact_bundle, members)
               == sizeof(struct ofpact_bundle), "bundle members");

/* OFPACT_MULTIPATH: one of MAX_LINK + 1 links, by a hash, into DST.  See
 * multipath.h. */
enum nx_mp_algorithm {
    NX_MP_ALG_MODULO_N = 0,
    NX_MP_ALG_HASH_THRESHOLD = 1,
    NX_MP_ALG_HRW = 2,
    NX_MP_ALG_ITER_HASH = 3,
};
struct ofpact_multipath {
    struct ofpact ofpact;
    uint16_t fields;                /* enum nx_hash_fields. */
    uint16_t basis;
    uint16_t algorithm;             /* enum nx_mp_algorithm. */
    uint16_t max_link;              /* Number of links - 1. */
    uint32_t arg;
    struct mf_subfield dst;
};

/* OFPACT_SET_IP_ECN: the two ECN bits of the TOS byte. */
struct ofpact_ecn {
    struct ofpact ofpact;
    uint8_t ecn;
};

/* OFPACT_DEC_TTL: dec_ttl, whose packet-ins at TTL 0 or 1 go to the
 * controllers with these ids (one id 0 for plain dec_ttl). */
struct ofpact_cnt_ids {
    struct ofpact ofpact;
    uint16_t n_controllers;
    uint16_t cnt_ids[];
};
_Static_assert(offsetof(struct ofpact_cnt_ids, cnt_ids)
               == sizeof(struct ofpact_cnt_ids), "dec_ttl ids");

/* MPLS: OFPACT_SET_MPLS_LABEL (20 bits), _TC (3 bits), _TTL;
 * OFPACT_PUSH_MPLS and OFPACT_POP_MPLS with an Ethertype (the MPLS one
 * pushed, the one the packet has after the pop).  OFPACT_DEC_MPLS_TTL is
 * a bare struct ofpact. */
struct ofpact_mpls_label {
    struct ofpact ofpact;
    uint32_t label;
};
struct ofpact_mpls_tc {
    struct ofpact ofpact;
    uint8_t tc;
};
struct ofpact_mpls_ttl {
    struct ofpact ofpact;
    uint8_t ttl;
};
struct ofpact_mpls_ethertype {
    struct ofpact ofpact;
    ovs_be16 ethertype;
};

/* OFPACT_STACK_PUSH, OFPACT_STACK_POP. */
struct ofpact_stack {
    struct ofpact ofpact;
    struct mf_subfield subfield;
};

/* OFPACT_DELETE_FIELD. */
struct ofpact_delete_field {
    struct ofpact ofpact;
    const struct mf_field *field;
};

/* OFPACT_ENCAP: push a header of NEW_PKT_TYPE; PROPS_LEN bytes of its
 * properties follow, in their wire form (class, type, length, value,
 * each padded to 8 bytes).  OFPACT_DECAP: pop the outer header; the
 * packet is then of NEW_PKT_TYPE (PT_USE_NEXT_PROTO: as the popped header
 * says). */
struct ofpact_encap {
    struct ofpact ofpact;
    uint32_t new_pkt_type;
    uint16_t props_len;
    _Alignas(OFPACT_ALIGNTO) uint8_t props[];
};
_Static_assert(offsetof(struct ofpact_encap, props)
               == sizeof(struct ofpact_encap), "encap properties");
struct ofpact_decap {
    struct ofpact ofpact;
    uint32_t new_pkt_type;
};

/* OFPACT_FIN_TIMEOUT: the rule's timeouts after a TCP FIN or RST. */
struct ofpact_fin_timeout {
    struct ofpact ofpact;
    uint16_t fin_idle_timeout;
    uint16_t fin_hard_timeout;
};

/* OFPACT_CONJUNCTION: clause CLAUSE (0-based) of N_CLAUSES of conjunctive
 * match ID. */
struct ofpact_conjunction {
    struct ofpact ofpact;
    uint8_t clause;
    uint8_t n_clauses;
    uint32_t id;
};

/* OFPACT_CLONE uses struct ofpact_nest.  OFPACT_CHECK_PKT_LARGER: DST (one
 * bit) becomes whether the packet is longer than PKT_LEN bytes. */
struct ofpact_check_pkt_larger {
    struct ofpact ofpact;
    uint16_t pkt_len;
    struct mf_subfield dst;
};

/* OFPACT_CT: the packet through the connection tracker.  ZONE_SRC.field
 * names the zone's sub-field, or is NULL for the zone ZONE_IMM;
 * RECIRC_TABLE is NX_CT_RECIRC_NONE or the table the packet comes back
 * to; ALG the helper's port (21: ftp, 69: tftp) or 0.  The nested actions
 * (nat and the exec actions) follow the header. */
#define NX_CT_F_COMMIT (1 << 0)
#define NX_CT_F_FORCE  (1 << 1)
#define NX_CT_RECIRC_NONE 0xff
struct ofpact_conntrack {
    struct ofpact ofpact;
    uint16_t flags;
    uint16_t zone_imm;
    struct mf_subfield zone_src;
    uint16_t alg;
    uint8_t recirc_table;
    _Alignas(OFPACT_ALIGNTO) struct ofpact actions[];
};
_Static_assert(offsetof(struct ofpact_conntrack, actions)
               == sizeof(struct ofpact_conntrack),
               "ct's nested actions follow its header");
static inline size_t
ofpact_ct_get_action_len(const struct ofpact_conntrack *oc)
{
    return oc->ofpact.len - sizeof *oc;
}

/* OFPACT_NAT, only inside ct. */
#define NX_NAT_F_SRC          (1 << 0)
#define NX_NAT_F_DST          (1 << 1)
#define NX_NAT_F_PERSISTENT   (1 << 2)
#define NX_NAT_F_PROTO_HASH   (1 << 3)
#define NX_NAT_F_PROTO_RANDOM (1 << 4)
struct ofpact_nat {
    struct ofpact ofpact;
    uint16_t flags;
    int range_af;                   /* AF_UNSPEC, AF_INET or AF_INET6. */
    union {
        struct { ovs_be32 min, max; } ipv4;
        struct { struct in6_addr min, max; } ipv6;
    } range_addr;
    uint16_t proto_min, proto_max;  /* 0: not given. */
};

/* OFPACT_SAMPLE: SAMPLING_PORT is OFPP_NONE when not given; DIRECTION is
 * NX_ACTION_SAMPLE_*. */
enum nx_action_sample_direction {
    NX_ACTION_SAMPLE_DEFAULT = 0,
    NX_ACTION_SAMPLE_INGRESS = 1,
    NX_ACTION_SAMPLE_EGRESS = 2,
};
struct ofpact_sample {
    struct ofpact ofpact;
    uint16_t probability;           /* Out of 65535. */
    uint32_t collector_set_id;
    uint32_t obs_domain_id;
    uint32_t obs_point_id;
    uint32_t sampling_port;
    uint8_t direction;
};

/* OFPACT_NOTE. */
struct ofpact_note {
    struct ofpact ofpact;
    uint16_t length;
    uint8_t data[];
};

/* OFPACT_WRITE_ACTIONS: a nested list follows the header. */
struct ofpact_nest {
    struct ofpact ofpact;
    struct ofpact actions[];
};
static inline size_t
ofpact_nest_get_action_len(const struct ofpact_nest *on)
{
    return on->ofpact.len - sizeof *on;
}

/* OFPACT_METER. */
struct ofpact_meter {
    struct ofpact ofpact;
    uint32_t meter_id;
};

/* OFPACT_WRITE_METADATA. */
struct ofpact_metadata {
    struct ofpact ofpact;
    ovs_be64 metadata;
    ovs_be64 mask;
};

/* OFPACT_GOTO_TABLE. */
struct ofpact_goto_table {
    struct ofpact ofpact;
    uint8_t table_id;
};

/* Building lists.  ofpact_put() appends the zeroed fixed part (LEN bytes)
 * of a variable-length action and makes OFPACTS->header point at it; the
 * caller appends its tail and then calls ofpact_finish(), which sets the
 * length and pads.  ofpact_put_fixed() (OFPACT_PUT) does both for an
 * action of fixed size. */
void *ofpact_put(struct ofpbuf *ofpacts, enum ofpact_type, size_t len);
void ofpact_finish(struct ofpbuf *ofpacts, struct ofpact *);
void *ofpact_put_fixed(struct ofpbuf *ofpacts, enum ofpact_type, size_t len);
#define OFPACT_PUT(OFPACTS, TYPE, STRUCT) \
    ((struct STRUCT *) ofpact_put_fixed(OFPACTS, TYPE, sizeof(struct STRUCT)))

/* "output", "set_field", ... */
const char *ofpact_name(enum ofpact_type);
bool ofpact_is_instruction(enum ofpact_type);

/* Decoding.  Appends to OFPACTS; on error OFPACTS keeps its old size.  The
 * ACTIONS_LEN bytes are pulled from OPENFLOW in any case. */
enum ofperr ofpacts_pull_openflow_actions(struct ofpbuf *openflow,
                                          unsigned int actions_len,
                                          enum ofp_version,
                                          struct ofpbuf *ofpacts);
/* Instructions (1.1+) or, in 1.0, actions. */
enum ofperr ofpacts_pull_openflow_instructions(struct ofpbuf *openflow,
                                               unsigned int instructions_len,
                                               enum ofp_version,
                                               struct ofpbuf *ofpacts);

/* Whether every action in the list has a form in VERSION. */
bool ofpacts_encodable_in(const struct ofpact[], size_t len,
                          enum ofp_version);
/* Records in the actions what MATCH says about the flow (its IP protocol,
 * whether it has a VLAN tag; mod_tp_src/dst on a flow that is not TCP, UDP
 * or SCTP record none, and encode as 1.1's action in 1.2+ as 3.1 does).
 * Returns OFPBAC_BAD_OUT_PORT for an output or enqueue to a port no switch
 * takes (ANY, 0xff00..0xfff7), as 3.1 refuses such flows ("actions are
 * invalid with specified match"). */
enum ofperr ofpacts_annotate(struct ofpact[], size_t len,
                             const struct match *);
/* OFPBAC_MATCH_INCONSISTENT (logged as 3.1 logs it) if a set_field or load
 * writes, or a move reads or writes, a field whose prerequisites MATCH does
 * not establish (set_field:1->tcp_src without "tcp"; vlan_vid also needs a
 * tag), and a learn's learn_check() error, as 3.1 checks flows in
 * ovs-ofctl and in the switch.  Each action is checked against the packet
 * the actions before it leave (after pop_mpls:0x0800, IPv4 fields may be
 * used). */
enum ofperr ofpacts_check_prereqs(const struct ofpact[], size_t len,
                                  const struct match *);
/* OFPBIC_BAD_TABLE_ID if a goto_table does not go forward from TABLE_ID
 * (not checked for 255, "any table") or goes to N_TABLES or beyond (not
 * checked when N_TABLES is 255), as 3.1 checks a flow's instructions. */
enum ofperr ofpacts_check_goto_table(const struct ofpact[], size_t len,
                                     uint8_t table_id, uint8_t n_tables);

/* Encoding.  Returns the number of bytes appended.  The list must be
 * encodable in VERSION. */
size_t ofpacts_put_openflow_actions(const struct ofpact[], size_t len,
                                    struct ofpbuf *openflow,
                                    enum ofp_version);
/* Instructions in 1.1+; actions (instructions converted as 3.1 does) in
 * 1.0. */
size_t ofpacts_put_openflow_instructions(const struct ofpact[], size_t len,
                                         struct ofpbuf *openflow,
                                         enum ofp_version);

bool ofpact_list_equal(const struct ofpact *, size_t, const struct ofpact *,
                   size_t);

/* Text. */
/* PORT_MAP and TABLE_MAP (either may be NULL) name ports and tables
 * (resubmit, goto_table, ct's and learn's table) in the text, as 3.1's
 * --names does. */
void ofpact_list_format(const struct ofpact *, size_t len,
                        const struct ofputil_port_map *,
                        const struct ofputil_table_map *, struct ds *);
/* Parse S (the part after "actions=") into OFPACTS, appending.  Errors
 * are malloc'd and worded as 3.1 words them; on error OFPACTS keeps its
 * old size. */
char *ofpacts_parse_actions(const char *s, const struct ofputil_port_map *,
                            const struct ofputil_table_map *,
                            struct ofpbuf *ofpacts) OVS_WARN_UNUSED_RESULT;
char *ofpacts_parse_instructions(const char *s,
                                 const struct ofputil_port_map *,
                                 const struct ofputil_table_map *,
                                 struct ofpbuf *ofpacts)
    OVS_WARN_UNUSED_RESULT;

/* The packet-in reason names ("no_match", "action", "invalid_ttl",
 * "action_set", "group", "packet_out"). */
const char *ofputil_packet_in_reason_to_string(uint8_t reason, char *buf,
                                               size_t bufsize);
bool ofputil_packet_in_reason_from_string(const char *, uint8_t *reason);

#endif /* ofp-actions.h */
