/* ofp-switch: the switch-wide OpenFlow messages, decoded.
 *
 * This module turns the messages that describe or configure the switch
 * as a whole into one version-independent form each, and back:
 *
 *   features     OFPT_FEATURES_REQUEST/REPLY.  1.0 to 1.2 replies carry the
 *                ports (struct ofputil_phy_port, lib/ofp-phy-port.h) after
 *                the fixed part; 1.3+ replies carry none and add the
 *                auxiliary connection id.  1.0 replies also carry the
 *                supported-actions bitmap.
 *   config       OFPT_GET_CONFIG_REQUEST/REPLY and OFPT_SET_CONFIG:
 *                fragment handling, invalid-TTL-to-controller (1.1, 1.2)
 *                and miss_send_len.
 *   desc         OFPST_DESC / OFPMP_DESC: five fixed-size strings.
 *   barrier      OFPT_BARRIER_REQUEST/REPLY (two numbers: 1.0, 1.1+).
 *   role         OFPT_ROLE_REQUEST/REPLY (1.2+) and Nicira's
 *                NXT_ROLE_REQUEST/REPLY (any version, 1.0 in practice);
 *                OFPT_ROLE_STATUS (1.4+).
 *   async        OFPT_GET_ASYNC_REQUEST/REPLY, OFPT_SET_ASYNC (1.3's fixed
 *                bitmaps, 1.4+'s properties) and NXT_SET_ASYNC_CONFIG
 *                (1.0): one struct, ofputil_async_cfg, for all.
 *
 * Decoders take a whole message (its header already checked by
 * ofpraw_decode(), so the body is as long as its raw form allows) and
 * check the body's own fields, returning the OpenFlow error Open vSwitch
 * 3.1 returns.  Encoders return a new ofpbuf the caller owns (send it or
 * ofpbuf_delete() it).  Replies copy the request's version and xid.
 *
 * Threads: pure functions and constant tables; callable from any
 * thread. */
#ifndef OFP_SWITCH_H
#define OFP_SWITCH_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-protocol.h"
#include "openflow.h"

struct ds;
struct ofpbuf;
struct ofputil_phy_port;

/* ------------------------------------------------------------------ */
/* Features. */

/* Capabilities, version-independent.  The bits are 1.0's where 1.0 has
 * them; GROUP_STATS (1.1+'s bit 3) is moved to bit 4 where 1.0 has its
 * STP. */
enum ofputil_capabilities {
    OFPUTIL_C_FLOW_STATS = 1 << 0,
    OFPUTIL_C_TABLE_STATS = 1 << 1,
    OFPUTIL_C_PORT_STATS = 1 << 2,
    OFPUTIL_C_STP = 1 << 3,              /* 1.0 only. */
    OFPUTIL_C_GROUP_STATS = 1 << 4,      /* 1.1+. */
    OFPUTIL_C_IP_REASM = 1 << 5,
    OFPUTIL_C_QUEUE_STATS = 1 << 6,
    OFPUTIL_C_ARP_MATCH_IP = 1 << 7,     /* 1.0, 1.1. */
    OFPUTIL_C_PORT_BLOCKED = 1 << 8,     /* 1.2+. */
    OFPUTIL_C_BUNDLES = 1 << 9,          /* 1.4+. */
    OFPUTIL_C_FLOW_MONITORING = 1 << 10, /* 1.4+. */
};

struct ofputil_switch_features {
    uint64_t datapath_id;
    uint32_t n_buffers;
    uint8_t n_tables;
    uint8_t auxiliary_id;       /* 1.3+; 0 otherwise. */
    uint32_t capabilities;      /* OFPUTIL_C_*. */
    uint32_t ofp10_actions;     /* 1.0 only: 1 << OFPAT10_* supported. */
};

/* The 1.0 actions bitmap a switch offers that supports every 1.0 action
 * (what 3.1 sends). */
#define OFPUTIL_OFP10_ACTIONS_ALL 0xfff

struct ofpbuf *ofputil_encode_features_request(enum ofp_version);

/* Starts a features reply to a request in VERSION with xid XID.  For 1.0
 * to 1.2 append ports with ofputil_put_switch_features_port() (in port
 * number order, as 3.1 prints them), then call ofpmsg_update_length(). */
struct ofpbuf *ofputil_encode_switch_features(
    const struct ofputil_switch_features *, enum ofp_version,
    ovs_be32 xid);
/* Appends PP to a features reply B in B's version; nothing in 1.3+. */
void ofputil_put_switch_features_port(const struct ofputil_phy_port *,
                                      struct ofpbuf *b);
/* Decodes the fixed part of the features reply in B (B->data at the
 * message) and pulls it, leaving B at the ports (1.0-1.2; pull them with
 * ofputil_pull_phy_port()) or empty (1.3+). */
enum ofperr ofputil_pull_switch_features(struct ofpbuf *b,
                                         struct ofputil_switch_features *);
/* Whether a features reply carries ports (1.0-1.2). */
bool ofputil_switch_features_has_ports(const struct ofp_header *);
/* Whether features reply B (being built) has room for one more port: a
 * 1.0-1.2 message is at most 65,535 bytes, so a switch with more ports
 * than fit (about 1,360 in 1.0) sends as many as fit. */
bool ofputil_switch_features_has_room(const struct ofpbuf *b);
/* For a client: whether the features reply REPLY lists all the switch's
 * ports.  A reply with no room for one more is taken as cut short, as
 * 3.1 takes it: its ports are dropped from REPLY and the caller asks for
 * the port descriptions instead. */
bool ofputil_switch_features_ports_complete(struct ofpbuf *reply);

/* "FLOW_STATS TABLE_STATS ..." as 3.1 prints capabilities. */
void ofputil_capabilities_format(struct ds *, uint32_t capabilities);
/* "output enqueue set_vlan_vid ..." for a 1.0 actions bitmap. */
void ofputil_ofp10_actions_format(struct ds *, uint32_t actions);

/* ------------------------------------------------------------------ */
/* Switch configuration. */

enum ofputil_frag_handling {
    OFPUTIL_FRAG_NORMAL = OFPC_FRAG_NORMAL,     /* "normal". */
    OFPUTIL_FRAG_DROP = OFPC_FRAG_DROP,         /* "drop". */
    OFPUTIL_FRAG_REASM = OFPC_FRAG_REASM,       /* "reassemble". */
    OFPUTIL_FRAG_NX_MATCH = OFPC_FRAG_NX_MATCH, /* "nx-match". */
};
const char *ofputil_frag_handling_to_string(enum ofputil_frag_handling);
bool ofputil_frag_handling_from_string(const char *,
                                       enum ofputil_frag_handling *);

struct ofputil_switch_config {
    enum ofputil_frag_handling frag;
    /* 1.1 and 1.2 only: send packets with an invalid TTL to the
     * controller.  -1 when the version has no such flag. */
    int invalid_ttl_to_controller;
    uint16_t miss_send_len;
};

struct ofpbuf *ofputil_encode_get_config_request(enum ofp_version);
struct ofpbuf *ofputil_encode_get_config_reply(
    const struct ofp_header *request, const struct ofputil_switch_config *);
struct ofpbuf *ofputil_encode_set_config(const struct ofputil_switch_config *,
                                         enum ofp_version);
/* Both decode any flag bits 3.1 accepts: unknown bits are ignored (3.1
 * does), a fragment mode above 3 is impossible (2 bits). */
enum ofperr ofputil_decode_get_config_reply(const struct ofp_header *,
                                            struct ofputil_switch_config *);
enum ofperr ofputil_decode_set_config(const struct ofp_header *,
                                      struct ofputil_switch_config *);

/* ------------------------------------------------------------------ */
/* Switch description (OFPST_DESC). */

/* Each string has room for a full wire field and its terminator. */
struct ofputil_desc {
    char mfr_desc[DESC_STR_LEN + 1];
    char hw_desc[DESC_STR_LEN + 1];
    char sw_desc[DESC_STR_LEN + 1];
    char serial_num[SERIAL_NUM_LEN + 1];
    char dp_desc[DESC_STR_LEN + 1];
};

struct ofpbuf *ofputil_encode_desc_stats_request(enum ofp_version);
/* Strings longer than their field are cut; every field is NUL-padded. */
struct ofpbuf *ofputil_encode_desc_stats_reply(
    const struct ofp_header *request, const struct ofputil_desc *);
/* Every string comes back NUL-terminated, even if the wire field was
 * full. */
enum ofperr ofputil_decode_desc_stats_reply(const struct ofp_header *,
                                            struct ofputil_desc *);

/* ------------------------------------------------------------------ */
/* Barrier. */

/* ofputil_encode_barrier_request() is in ofp-protocol.h. */
struct ofpbuf *ofputil_encode_barrier_reply(const struct ofp_header *request);

/* ------------------------------------------------------------------ */
/* Roles. */

/* A role request or reply, in OpenFlow 1.2's terms whatever its wire
 * form (NX_ROLE_OTHER is EQUAL, NX_ROLE_MASTER MASTER, NX_ROLE_SLAVE
 * SLAVE; the Nicira form has no generation id and no NOCHANGE). */
struct ofputil_role_request {
    uint32_t role;              /* OFPCR12_ROLE_*. */
    bool have_generation_id;
    uint64_t generation_id;
};

/* Encodes a request in VERSION: OFPT_ROLE_REQUEST in 1.2+, NXT_ROLE_REQUEST
 * in 1.0 and 1.1. */
struct ofpbuf *ofputil_encode_role_request(const struct ofputil_role_request *,
                                           enum ofp_version);
/* Decodes a role request or reply of either form.  Errors:
 * OFPRRFC_BAD_ROLE for an unknown role (or NOCHANGE in the Nicira
 * form). */
enum ofperr ofputil_decode_role_message(const struct ofp_header *,
                                        struct ofputil_role_request *);
/* The reply to REQUEST (same form) reporting RR. */
struct ofpbuf *ofputil_encode_role_reply(const struct ofp_header *request,
                                         const struct ofputil_role_request *);
/* "equal", "master", "slave", "nochange". */
const char *ofputil_role_to_string(uint32_t role);

/* Role status (1.4+, and ONF's extension in 1.3): the switch tells a
 * controller its role changed. */
enum ofp14_controller_role_reason {
    OFPCRR_MASTER_REQUEST = 0,
    OFPCRR_CONFIG = 1,
    OFPCRR_EXPERIMENTER = 2,
};
struct ofputil_role_status {
    uint32_t role;              /* OFPCR12_ROLE_*. */
    uint8_t reason;             /* OFPCRR_*. */
    uint64_t generation_id;     /* UINT64_MAX: none. */
};
struct ofpbuf *ofputil_encode_role_status(const struct ofputil_role_status *,
                                          enum ofp_version);
enum ofperr ofputil_decode_role_status(const struct ofp_header *,
                                       struct ofputil_role_status *);

/* ------------------------------------------------------------------ */
/* Asynchronous message configuration. */

/* The kinds of asynchronous message a controller can filter, each with a
 * bitmap of reasons (bit R for reason R of that message). */
enum ofputil_async_msg_type {
    OAM_PACKET_IN,              /* OFPR_* */
    OAM_PORT_STATUS,            /* OFPPR_* */
    OAM_FLOW_REMOVED,           /* OFPRR_* */
    OAM_ROLE_STATUS,            /* OFPCRR_* (1.4+) */
    OAM_TABLE_STATUS,           /* OFPTR_* (1.4+) */
    OAM_REQUESTFORWARD,         /* OFPRFR_* (1.4+) */
    OAM_N_TYPES
};
const char *ofputil_async_msg_type_to_string(enum ofputil_async_msg_type);

/* What a connection receives: MASTER applies to master and equal roles,
 * SLAVE to slave. */
struct ofputil_async_cfg {
    uint32_t master[OAM_N_TYPES];
    uint32_t slave[OAM_N_TYPES];
};

/* The defaults the specification gives for VERSION (3.1's). */
struct ofputil_async_cfg ofputil_async_cfg_default(enum ofp_version);

struct ofpbuf *ofputil_encode_get_async_request(enum ofp_version);
/* OFPT_GET_ASYNC_REPLY for REQUEST's version: 1.3's three pairs of
 * 32-bit masks, or 1.4+'s properties (one per type and role). */
struct ofpbuf *ofputil_encode_get_async_reply(
    const struct ofp_header *request, const struct ofputil_async_cfg *);
/* A set-async message for VERSION carrying the types in OAMS (bit per
 * enum ofputil_async_msg_type; 1.0-1.3 always carry the first three):
 * NXT_SET_ASYNC_CONFIG in 1.0-1.2, OFPT_SET_ASYNC in 1.3+. */
struct ofpbuf *ofputil_encode_set_async_config(
    const struct ofputil_async_cfg *, uint32_t oams, enum ofp_version);
/* Decodes a set-async message or a get-async reply of any form into
 * *CFG, starting from BASIS (1.4+ messages may carry only some types).
 * The fixed layouts (1.0-1.3) drop reason bits they cannot carry.  In
 * the 1.4+ properties, an unknown property is OFPACFC_UNSUPPORTED and a
 * reason bit the type does not have OFPACFC_INVALID, unless LOOSE (as a
 * controller reading a reply may want), which ignores and drops them.
 * A property of a bad length is OFPBPC_BAD_LEN. */
enum ofperr ofputil_decode_set_async_config(
    const struct ofp_header *, bool loose,
    const struct ofputil_async_cfg *basis, struct ofputil_async_cfg *cfg);

/* The body 3.1 prints for an async config (the " master:" / " slave:"
 * blocks). */
void ofputil_format_set_async_config(struct ds *,
                                     const struct ofputil_async_cfg *);

#endif /* ofp-switch.h */
