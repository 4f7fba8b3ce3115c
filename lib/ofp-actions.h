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
 * (NXAST_REG_LOAD), move (NXAST_REG_MOVE), set_tunnel/set_tunnel64,
 * resubmit (NXAST_RESUBMIT and NXAST_RESUBMIT_TABLE), learn
 * (NXAST_LEARN and NXAST_LEARN2, see learn.h), note, exit; the
 * instructions meter, apply_actions, clear_actions, write_actions,
 * write_metadata (NXAST_WRITE_METADATA in 1.0) and goto_table (resubmit
 * in 1.0, as Open vSwitch does).  Not yet: conjunction, multipath,
 * bundle, output_reg, stack push/pop, MPLS, sample, clone, ct, ...; they
 * decode as OFPBAC_BAD_VENDOR_TYPE (Nicira) or OFPBAC_BAD_TYPE and do not
 * parse.
 *
 * Decoding checks every length, vendor, subtype and argument and returns
 * the OpenFlow error for what is wrong (OFPBAC_BAD_TYPE, BAD_LEN,
 * BAD_VENDOR, BAD_VENDOR_TYPE, BAD_ARGUMENT, BAD_OUT_PORT, BAD_SET_*,
 * OFPBIC_* for instructions, NXBRC_MUST_BE_ZERO for padding).
 *
 * Encoding writes the form each version knows (a set_field is
 * NXAST_REG_LOAD in 1.0 and 1.1 and OFPAT_SET_FIELD in 1.2+, mod_nw_tos is
 * set_field:N->ip_dscp in 1.2+), remembering in ofpact.raw which wire form
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
 * Names: ofproto/ofpact.h, ofproto's interim action list, still owns the
 * names ofpacts_format() and ofpacts_equal(); the list functions here are
 * ofpact_list_format() and ofpact_list_equal() so that both can link into
 * one program until ofproto moves to this module.
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

enum ofpact_type {
    /* Output. */
    OFPACT_OUTPUT,
    OFPACT_GROUP,
    OFPACT_CONTROLLER,
    OFPACT_ENQUEUE,

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

    /* Metadata. */
    OFPACT_SET_TUNNEL,
    OFPACT_SET_QUEUE,
    OFPACT_POP_QUEUE,

    /* Flow table interaction. */
    OFPACT_RESUBMIT,
    OFPACT_LEARN,

    /* Other. */
    OFPACT_NOTE,
    OFPACT_EXIT,

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
    OFPACT_RAW_SET_TUNNEL64,        /* Written "set_tunnel64:". */
    OFPACT_RAW_RESUBMIT_TABLE,      /* Written "resubmit(PORT,TABLE)". */
    OFPACT_RAW_CONTROLLER2,         /* Arrived as NXAST_CONTROLLER2. */
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
 * takes (ANY, 0xff00..0xfff7), and a learn's check error, as 3.1 refuses
 * such flows ("actions are invalid with specified match"). */
enum ofperr ofpacts_annotate(struct ofpact[], size_t len,
                             const struct match *);
/* OFPBAC_MATCH_INCONSISTENT (logged as 3.1 logs it) if a set_field or load
 * writes, or a move reads or writes, a field whose prerequisites MATCH does
 * not establish (set_field:1->tcp_src without "tcp"; vlan_vid also needs a
 * tag), as 3.1 checks flows in ovs-ofctl and in the switch. */
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
void ofpact_list_format(const struct ofpact *, size_t len,
                    const struct ofputil_port_map *, struct ds *);
/* Parse S (the part after "actions=") into OFPACTS, appending.  Errors
 * are malloc'd and worded as 3.1 words them; on error OFPACTS keeps its
 * old size. */
char *ofpacts_parse_actions(const char *s, const struct ofputil_port_map *,
                            struct ofpbuf *ofpacts) OVS_WARN_UNUSED_RESULT;
char *ofpacts_parse_instructions(const char *s,
                                 const struct ofputil_port_map *,
                                 struct ofpbuf *ofpacts)
    OVS_WARN_UNUSED_RESULT;

/* The packet-in reason names ("no_match", "action", "invalid_ttl",
 * "action_set", "group", "packet_out"). */
const char *ofputil_packet_in_reason_to_string(uint8_t reason, char *buf,
                                               size_t bufsize);
bool ofputil_packet_in_reason_from_string(const char *, uint8_t *reason);

#endif /* ofp-actions.h */
