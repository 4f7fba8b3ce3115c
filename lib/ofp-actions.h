/* ofp-actions: OpenFlow actions and instructions, decoded.
 *
 * Representation
 * --------------
 * Actions and instructions of every version decode into one form, a list
 * of "ofpacts" packed in a buffer: each starts with struct ofpact (type,
 * length) and is padded to a multiple of OFPACT_ALIGNTO bytes, so
 * translation walks a flow's actions with OFPACT_FOR_EACH without
 * allocating.  Instructions are ofpacts too (OFPACT_METER,
 * OFPACT_CLEAR_ACTIONS, OFPACT_WRITE_ACTIONS with the action set nested
 * inside it, OFPACT_WRITE_METADATA, OFPACT_GOTO_TABLE) and always come in
 * that order after the Apply-Actions actions, which are bare ofpacts; an
 * OpenFlow 1.0 flow is the same list without instructions.  An empty list
 * means drop.
 *
 * The buffer that holds a list is owned by its creator (typically a
 * struct ofpbuf the decoder appended to); nothing inside points outside
 * the list, except `field` pointers into the constant field table.
 *
 * Decoding checks every length, vendor, subtype and argument and returns
 * the OpenFlow error for what is wrong (OFPBAC_BAD_TYPE, BAD_LEN,
 * BAD_VENDOR, BAD_VENDOR_TYPE, BAD_ARGUMENT, BAD_OUT_PORT, BAD_SET_*,
 * OFPBIC_* for instructions, NXBRC_MUST_BE_ZERO for padding...).  A
 * decoded list is valid generically; ofpacts_check() then checks it
 * against a match (prerequisites of set_field, port ranges, goto_table
 * targets) and narrows the protocols that can carry it.
 *
 * Encoding writes the form each version knows (a set_field becomes
 * mod_nw_src in 1.0, OFPAT_SET_FIELD in 1.2+, NXAST_REG_LOAD for partial
 * writes before 1.5...), remembering in ofpact.raw which wire form an
 * action arrived in so that re-encoding keeps it.
 *
 * Text follows ovs-ofctl: ofpacts_parse_actions()/_instructions() accept
 * its syntax and ofpacts_format() prints it ("output:1,mod_vlan_vid:5",
 * "resubmit(,2)", "load:0x1->NXM_NX_REG0[]", "drop").
 *
 * Threads: pure functions over caller-owned buffers; any thread. */
#ifndef OFP_ACTIONS_H
#define OFP_ACTIONS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-fields.h"
#include "ofp-protocol.h"
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
    OFPACT_SET_IP_ECN,
    OFPACT_SET_IP_TTL,
    OFPACT_SET_L4_SRC_PORT,
    OFPACT_SET_L4_DST_PORT,
    OFPACT_REG_MOVE,
    OFPACT_SET_FIELD,
    OFPACT_STACK_PUSH,
    OFPACT_STACK_POP,
    OFPACT_DEC_TTL,

    /* Metadata. */
    OFPACT_SET_TUNNEL,
    OFPACT_SET_QUEUE,
    OFPACT_POP_QUEUE,
    OFPACT_FIN_TIMEOUT,

    /* Flow table interaction. */
    OFPACT_RESUBMIT,
    OFPACT_LEARN,
    OFPACT_CONJUNCTION,

    /* Other. */
    OFPACT_NOTE,
    OFPACT_EXIT,
    OFPACT_SAMPLE,
    OFPACT_CLONE,

    /* Instructions, in the order they must appear. */
    OFPACT_METER,
    OFPACT_CLEAR_ACTIONS,
    OFPACT_WRITE_ACTIONS,
    OFPACT_WRITE_METADATA,
    OFPACT_GOTO_TABLE,

    N_OFPACTS
};

/* Instruction types, in OpenFlow order.  Apply-Actions covers every
 * ofpact that is not itself an instruction. */
enum ovs_instruction_type {
    OVSINST_OFPIT13_METER,
    OVSINST_OFPIT11_APPLY_ACTIONS,
    OVSINST_OFPIT11_CLEAR_ACTIONS,
    OVSINST_OFPIT11_WRITE_ACTIONS,
    OVSINST_OFPIT11_WRITE_METADATA,
    OVSINST_OFPIT11_GOTO_TABLE,
    N_OVS_INSTRUCTIONS
};

#define OFPACT_ALIGNTO 8
#define OFPACT_ALIGN(SIZE) ROUND_UP(SIZE, OFPACT_ALIGNTO)

/* The wire form an action arrived in (or should leave in), where it
 * matters for re-encoding and printing.  OFPACT_RAW_NONE: the default. */
enum ofpact_raw {
    OFPACT_RAW_NONE = 0,
    OFPACT_RAW_STRIP_VLAN10,        /* "strip_vlan". */
    OFPACT_RAW_POP_VLAN11,          /* "pop_vlan". */
    OFPACT_RAW_REG_LOAD,            /* A set_field that is a "load". */
    OFPACT_RAW_REG_LOAD2,
    OFPACT_RAW_SET_TUNNEL64,
    OFPACT_RAW_RESUBMIT,            /* resubmit:PORT (no table). */
    OFPACT_RAW_RESUBMIT_TABLE,
    OFPACT_RAW_DEC_TTL_CNT_IDS,
    OFPACT_RAW_CONTROLLER2,
    OFPACT_RAW_OUTPUT_REG2,
    OFPACT_RAW_LEARN2,
    OFPACT_RAW_COPY_FIELD13,        /* ONF copy_field in 1.3. */
    OFPACT_RAW_SAMPLE2,
    OFPACT_RAW_SAMPLE3,
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

/* OFPACT_OUTPUT_REG: output to the port in a subfield. */
struct ofpact_output_reg {
    struct ofpact ofpact;
    uint16_t max_len;
    struct mf_subfield src;
};

/* OFPACT_OUTPUT_TRUNC. */
struct ofpact_output_trunc {
    struct ofpact ofpact;
    uint32_t port;
    uint32_t max_len;
};

/* OFPACT_SET_VLAN_VID / _PCP.  PUSH_VLAN_IF_NEEDED: the 1.0 semantics
 * ("mod_vlan_vid" adds a tag if there is none).  FLOW_HAS_VLAN is filled in
 * by ofpacts_check() for encoding to 1.1+. */
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

/* OFPACT_SET_IP_DSCP (the TOS byte's DSCP bits in place), _ECN, _TTL. */
struct ofpact_dscp {
    struct ofpact ofpact;
    uint8_t dscp;
};
struct ofpact_ecn {
    struct ofpact ofpact;
    uint8_t ecn;
};
struct ofpact_ip_ttl {
    struct ofpact ofpact;
    uint8_t ttl;
};

/* OFPACT_SET_L4_SRC_PORT, _DST_PORT.  FLOW_IP_PROTO is filled in by
 * ofpacts_check() so that 1.2+ can name the right field. */
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

/* OFPACT_SET_FIELD: FIELD's VALUE under MASK (both N_BYTES long) follow
 * the struct: value first, then mask. */
struct ofpact_set_field {
    struct ofpact ofpact;
    const struct mf_field *field;
    bool flow_has_vlan;
    uint8_t pad[7];
    union mf_value value;
    union mf_value mask;
};

/* OFPACT_STACK_PUSH, OFPACT_STACK_POP. */
struct ofpact_stack {
    struct ofpact ofpact;
    struct mf_subfield subfield;
};

/* OFPACT_DEC_TTL: controller ids to send a packet-in to when the TTL
 * expires. */
struct ofpact_cnt_ids {
    struct ofpact ofpact;
    uint16_t n_controllers;
    uint16_t cnt_ids[];
};

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

/* OFPACT_FIN_TIMEOUT. */
struct ofpact_fin_timeout {
    struct ofpact ofpact;
    uint16_t fin_idle_timeout;
    uint16_t fin_hard_timeout;
};

/* OFPACT_RESUBMIT.  IN_PORT OFPP_IN_PORT: the packet's own; TABLE_ID 255:
 * the current table. */
struct ofpact_resubmit {
    struct ofpact ofpact;
    uint32_t in_port;
    uint8_t table_id;
};

/* OFPACT_LEARN. */
enum {
    NX_LEARN_N_BITS_MASK = 0x3ff,
    NX_LEARN_SRC_FIELD = 0 << 13,
    NX_LEARN_SRC_IMMEDIATE = 1 << 13,
    NX_LEARN_SRC_MASK = 1 << 13,
    NX_LEARN_DST_MATCH = 0 << 11,
    NX_LEARN_DST_LOAD = 1 << 11,
    NX_LEARN_DST_OUTPUT = 2 << 11,
    NX_LEARN_DST_RESERVED = 3 << 11,
    NX_LEARN_DST_MASK = 3 << 11,
};
enum {
    NX_LEARN_F_SEND_FLOW_REM = 1 << 0,
    NX_LEARN_F_DELETE_LEARNED = 1 << 1,
    NX_LEARN_F_WRITE_RESULT = 1 << 2,
};
struct ofpact_learn_spec {
    uint16_t src_type;              /* NX_LEARN_SRC_*. */
    uint16_t dst_type;              /* NX_LEARN_DST_*. */
    uint16_t n_bits;
    struct mf_subfield src;         /* For NX_LEARN_SRC_FIELD. */
    struct mf_subfield dst;         /* For DST_MATCH and DST_LOAD. */
    union mf_value src_imm;         /* For NX_LEARN_SRC_IMMEDIATE, right
                                     * aligned in DST's field width. */
};
struct ofpact_learn {
    struct ofpact ofpact;
    uint16_t idle_timeout;
    uint16_t hard_timeout;
    uint16_t priority;
    uint8_t table_id;
    uint16_t flags;                 /* NX_LEARN_F_*. */
    ovs_be64 cookie;
    uint16_t fin_idle_timeout;
    uint16_t fin_hard_timeout;
    uint32_t limit;
    struct mf_subfield result_dst;
    uint32_t n_specs;
    struct ofpact_learn_spec specs[];
};

/* OFPACT_CONJUNCTION. */
struct ofpact_conjunction {
    struct ofpact ofpact;
    uint8_t clause;                 /* 0-based. */
    uint8_t n_clauses;
    uint32_t id;
};

/* OFPACT_NOTE. */
struct ofpact_note {
    struct ofpact ofpact;
    size_t length;
    uint8_t data[];
};

/* OFPACT_SAMPLE. */
struct ofpact_sample {
    struct ofpact ofpact;
    uint16_t probability;
    uint32_t collector_set_id;
    uint32_t obs_domain_id;
    uint32_t obs_point_id;
    uint32_t sampling_port;
    uint8_t direction;
};

/* OFPACT_CLONE, OFPACT_WRITE_ACTIONS: a nested list follows the header. */
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

/* Building lists.  ofpact_put() appends a zeroed ofpact of LEN bytes (the
 * fixed part) and makes OFPACTS->header point at it; variable-length
 * actions append their tail and then call ofpact_finish(), which sets the
 * length and pads. */
void *ofpact_put(struct ofpbuf *ofpacts, enum ofpact_type, size_t len);
void *ofpact_finish(struct ofpbuf *ofpacts, struct ofpact *);
#define OFPACT_PUT(OFPACTS, TYPE, STRUCT) \
    ((struct STRUCT *) ofpact_put(OFPACTS, TYPE, sizeof(struct STRUCT)))
struct ofpact_set_field *ofpact_put_set_field(struct ofpbuf *,
                                              const struct mf_field *,
                                              const union mf_value *value,
                                              const union mf_value *mask);

const char *ofpact_name(enum ofpact_type);
enum ovs_instruction_type ovs_instruction_type_from_ofpact_type(
    enum ofpact_type);
const char *ovs_instruction_name_from_type(enum ovs_instruction_type);

/* Decoding.  Appends to OFPACTS; on error OFPACTS keeps its old size. */
enum ofperr ofpacts_pull_openflow_actions(struct ofpbuf *openflow,
                                          unsigned int actions_len,
                                          enum ofp_version,
                                          struct ofpbuf *ofpacts);
/* Instructions (1.1+) or, in 1.0, actions.  Clears OFPACTS first. */
enum ofperr ofpacts_pull_openflow_instructions(struct ofpbuf *openflow,
                                               unsigned int instructions_len,
                                               enum ofp_version,
                                               struct ofpbuf *ofpacts);

/* Encoding.  Returns the number of bytes appended. */
size_t ofpacts_put_openflow_actions(const struct ofpact[], size_t len,
                                    struct ofpbuf *openflow,
                                    enum ofp_version);
void ofpacts_put_openflow_instructions(const struct ofpact[], size_t len,
                                       struct ofpbuf *openflow,
                                       enum ofp_version);

/* Checks ACTIONS against MATCH for a switch with MAX_PORTS ports and
 * N_TABLES tables, in table TABLE_ID (255: unknown), and narrows
 * *USABLE_PROTOCOLS to those that can express the pair.  May annotate
 * actions (flow_has_vlan, flow_ip_proto). */
enum ofperr ofpacts_check(struct ofpact[], size_t len, struct match *,
                          uint32_t max_ports, uint8_t table_id,
                          uint8_t n_tables,
                          enum ofputil_protocol *usable_protocols);
/* Like ofpacts_check() but treats any narrowing of PROTOCOL as
 * OFPBAC_MATCH_INCONSISTENT, as a switch must. */
enum ofperr ofpacts_check_consistency(struct ofpact[], size_t len,
                                      struct match *, uint32_t max_ports,
                                      uint8_t table_id, uint8_t n_tables,
                                      enum ofputil_protocol protocol);
enum ofperr ofpact_check_output_port(uint32_t port, uint32_t max_ports);

bool ofpacts_equal(const struct ofpact *, size_t, const struct ofpact *,
                   size_t);
/* Whether ACTIONS output to PORT or GROUP (for out_port / out_group
 * filters). */
bool ofpacts_output_to_port(const struct ofpact *, size_t, uint32_t port);
bool ofpacts_output_to_group(const struct ofpact *, size_t, uint32_t group);
/* The meter instruction's id, or 0. */
uint32_t ofpacts_get_meter(const struct ofpact *, size_t);

/* Text. */
struct ofpact_format_params {
    const struct ofputil_port_map *port_map;
    const struct ofputil_table_map *table_map;
    struct ds *s;
};
void ofpacts_format(const struct ofpact *, size_t len,
                    const struct ofpact_format_params *);

struct ofpact_parse_params {
    const struct ofputil_port_map *port_map;
    const struct ofputil_table_map *table_map;
    struct ofpbuf *ofpacts;
    enum ofputil_protocol *usable_protocols;
};
char *ofpacts_parse_actions(const char *, const struct ofpact_parse_params *)
    OVS_WARN_UNUSED_RESULT;
char *ofpacts_parse_instructions(const char *,
                                 const struct ofpact_parse_params *)
    OVS_WARN_UNUSED_RESULT;

/* The bitmap of OFPACT_* types an OpenFlow 1.0/1.1/1.2+ "actions"
 * capability bitmap names, and back (features replies, table stats). */
uint64_t ofpact_bitmap_from_openflow(ovs_be32, enum ofp_version);
ovs_be32 ofpact_bitmap_to_openflow(uint64_t, enum ofp_version);
void ofpact_bitmap_format(uint64_t, struct ds *);
uint32_t ovsinst_bitmap_from_openflow(ovs_be32, enum ofp_version);
ovs_be32 ovsinst_bitmap_to_openflow(uint32_t, enum ofp_version);

/* The packet-in reason names ("no_match", "action", "invalid_ttl",
 * "action_set", "group", "packet_out"). */
const char *ofputil_packet_in_reason_to_string(uint8_t reason, char *buf,
                                               size_t bufsize);
bool ofputil_packet_in_reason_from_string(const char *, uint8_t *reason);

#endif /* ofp-actions.h */
