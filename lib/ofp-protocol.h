/* ofp-protocol: OpenFlow versions, "protocols" and version negotiation.
 *
 * A connection speaks one OpenFlow version, agreed in the hello exchange
 * (ofputil_decode_hello(): the highest version in both sides' bitmaps).
 * Within OpenFlow 1.0, a connection can further switch its flow format
 * from the standard 1.0 match to Nicira's NXM (NXT_SET_FLOW_FORMAT) and
 * turn on the table id in flow_mod commands (NXT_FLOW_MOD_TABLE_ID).  A
 * "protocol" is one such combination: a version plus, for 1.0, the flow
 * format and table-id setting.  Sets of protocols (a bitmask) say what an
 * operation can be expressed in: a flow that matches a register has usable
 * protocols NXM and OXM, never plain OpenFlow 1.0.
 *
 * Names follow Open vSwitch so that options and messages read the same:
 * versions "OpenFlow10".."OpenFlow15" (accepted in any case); protocols
 * "OpenFlow10-table_id", "OpenFlow10+table_id", "NXM-table_id",
 * "NXM+table_id", "OpenFlow11", "OXM-OpenFlow12".."OXM-OpenFlow15", and
 * the groups "OpenFlow10", "NXM", "OXM", "any".
 *
 * Threads: pure functions and constant tables. */
#ifndef OFP_PROTOCOL_H
#define OFP_PROTOCOL_H 1

#include <stdbool.h>
#include <stdint.h>
#include "openflow.h"
#include "ofp-errors.h"
#include "util.h"

struct ds;
struct ofpbuf;
struct ofp_header;

enum ofputil_protocol {
    OFPUTIL_P_OF10_STD = 1 << 0,      /* 1.0 match, no table ids. */
    OFPUTIL_P_OF10_STD_TID = 1 << 1,  /* 1.0 match, table ids on. */
    OFPUTIL_P_OF10_NXM = 1 << 2,      /* NXM match, no table ids. */
    OFPUTIL_P_OF10_NXM_TID = 1 << 3,  /* NXM match, table ids on. */
    OFPUTIL_P_OF11_STD = 1 << 4,
    OFPUTIL_P_OF12_OXM = 1 << 5,
    OFPUTIL_P_OF13_OXM = 1 << 6,
    OFPUTIL_P_OF14_OXM = 1 << 7,
    OFPUTIL_P_OF15_OXM = 1 << 8,

#define OFPUTIL_P_OF10_STD_ANY (OFPUTIL_P_OF10_STD | OFPUTIL_P_OF10_STD_TID)
#define OFPUTIL_P_OF10_NXM_ANY (OFPUTIL_P_OF10_NXM | OFPUTIL_P_OF10_NXM_TID)
#define OFPUTIL_P_OF10_ANY (OFPUTIL_P_OF10_STD_ANY | OFPUTIL_P_OF10_NXM_ANY)
#define OFPUTIL_P_ANY_OXM (OFPUTIL_P_OF12_OXM | OFPUTIL_P_OF13_OXM | \
                           OFPUTIL_P_OF14_OXM | OFPUTIL_P_OF15_OXM)
#define OFPUTIL_P_NXM_OXM_ANY (OFPUTIL_P_OF10_NXM_ANY | OFPUTIL_P_ANY_OXM)
#define OFPUTIL_P_OF11_UP (OFPUTIL_P_OF11_STD | OFPUTIL_P_ANY_OXM)
#define OFPUTIL_P_OF12_UP (OFPUTIL_P_ANY_OXM)
#define OFPUTIL_P_OF13_UP (OFPUTIL_P_OF13_OXM | OFPUTIL_P_OF14_OXM | \
                           OFPUTIL_P_OF15_OXM)
#define OFPUTIL_P_OF14_UP (OFPUTIL_P_OF14_OXM | OFPUTIL_P_OF15_OXM)
#define OFPUTIL_P_OF15_UP OFPUTIL_P_OF15_OXM
#define OFPUTIL_P_TID (OFPUTIL_P_OF10_STD_TID | OFPUTIL_P_OF10_NXM_TID | \
                       OFPUTIL_P_OF11_STD | OFPUTIL_P_ANY_OXM)
#define OFPUTIL_P_NONE 0
    OFPUTIL_P_ANY = (1 << 9) - 1,
};

/* Versions. */
#define OFPUTIL_SUPPORTED_VERSIONS ((1u << OFP10_VERSION) | \
                                    (1u << OFP11_VERSION) | \
                                    (1u << OFP12_VERSION) | \
                                    (1u << OFP13_VERSION) | \
                                    (1u << OFP14_VERSION) | \
                                    (1u << OFP15_VERSION))
/* What ovs-ofctl and a bridge allow unless told otherwise. */
#define OFPUTIL_DEFAULT_VERSIONS (1u << OFP10_VERSION)

/* "OpenFlow10" for OFP10_VERSION; NULL for an unknown version. */
const char *ofputil_version_to_string(enum ofp_version);
/* OFP10_VERSION for "OpenFlow10" (any case); 0 if unknown. */
enum ofp_version ofputil_version_from_string(const char *);
/* "OF1.3" style short name used in message headers. */
const char *ofputil_version_short_name(enum ofp_version);
/* Parses a comma-separated list of version names into a bitmap (bit V for
 * version V).  Returns NULL or a malloc'd error ("Unknown OpenFlow
 * version: \"X\""). */
char *ofputil_versions_from_string(const char *, uint32_t *bitmap)
    OVS_WARN_UNUSED_RESULT;
/* "OpenFlow10, OpenFlow11" (comma and space separated). */
void ofputil_format_version_bitmap_names(struct ds *, uint32_t bitmap);
/* "0x01, 0x04" as a hello prints. */
void ofputil_format_version_bitmap(struct ds *, uint32_t bitmap);

/* Protocols. */
enum ofp_version ofputil_protocol_to_ofp_version(enum ofputil_protocol);
/* Every protocol usable in VERSION (with the table-id off for 1.0 and
 * the standard flow format). */
enum ofputil_protocol ofputil_protocol_from_ofp_version(enum ofp_version);
/* All protocols of the versions in BITMAP. */
enum ofputil_protocol ofputil_protocols_from_version_bitmap(uint32_t);
uint32_t ofputil_protocols_to_version_bitmap(enum ofputil_protocol);
bool ofputil_protocol_is_valid(enum ofputil_protocol);
/* PROTOCOL with the flow_mod table id turned on or off. */
enum ofputil_protocol ofputil_protocol_set_tid(enum ofputil_protocol,
                                               bool enable);
enum ofputil_protocol ofputil_protocol_to_base(enum ofputil_protocol);
/* The protocol with the base (version and flow format) of NEW_BASE and the
 * table-id setting of CUR. */
enum ofputil_protocol ofputil_protocol_set_base(
    enum ofputil_protocol cur, enum ofputil_protocol new_base);

/* The name of a single protocol ("NXM+table_id"). */
const char *ofputil_protocol_to_string(enum ofputil_protocol);
/* A set of protocols, with groups abbreviated: "NXM,OXM". */
char *ofputil_protocols_to_string(enum ofputil_protocol);
void ofputil_format_protocols(struct ds *, enum ofputil_protocol);
/* Parses a comma-separated list of protocol names; 0 on error. */
enum ofputil_protocol ofputil_protocols_from_string(const char *);

/* Messages that switch a 1.0 connection's protocol.  Returns the message
 * that takes a connection speaking CURRENT towards WANT, and sets *NEXT to
 * the protocol it will then speak; NULL when nothing needs sending.  Call
 * again until it returns NULL (the flow format and table id are two
 * separate messages). */
struct ofpbuf *ofputil_encode_set_protocol(enum ofputil_protocol current,
                                           enum ofputil_protocol want,
                                           enum ofputil_protocol *next);

/* NXT_SET_FLOW_FORMAT. */
struct ofpbuf *ofputil_encode_nx_set_flow_format(enum ofputil_protocol);
enum ofputil_protocol ofputil_nx_flow_format_to_protocol(uint32_t format);
bool ofputil_nx_flow_format_is_valid(uint32_t format);
const char *ofputil_nx_flow_format_to_string(uint32_t format);
/* NXT_FLOW_MOD_TABLE_ID. */
struct ofpbuf *ofputil_encode_nx_flow_mod_table_id(bool enable);

/* Packet-in formats (NXT_SET_PACKET_IN_FORMAT). */
enum ofputil_packet_in_format {
    OFPUTIL_PACKET_IN_STD = NXPIF_STANDARD,
    OFPUTIL_PACKET_IN_NXT = NXPIF_NXT_PACKET_IN,
    OFPUTIL_PACKET_IN_NXT2 = NXPIF_NXT_PACKET_IN2,
};
bool ofputil_packet_in_format_is_valid(uint32_t);
int ofputil_packet_in_format_from_string(const char *);
const char *ofputil_packet_in_format_to_string(uint32_t);
struct ofpbuf *ofputil_encode_set_packet_in_format(
    enum ofp_version, enum ofputil_packet_in_format);
enum ofperr ofputil_decode_set_packet_in_format(
    const struct ofp_header *, enum ofputil_packet_in_format *);

/* NXT_SET_CONTROLLER_ID: the id a connection takes, so that controller
 * actions naming that id reach it (0 until set).  Decoding refuses
 * nonzero padding (NXBRC_MUST_BE_ZERO), as 3.1's switch does. */
struct ofpbuf *ofputil_encode_set_controller_id(enum ofp_version,
                                                uint16_t id);
enum ofperr ofputil_decode_set_controller_id(const struct ofp_header *,
                                             uint16_t *id);

/* Hello.  encode: a hello offering the versions in BITMAP (at least one),
 * with a version bitmap element unless BITMAP is 1.0 up to its highest
 * version with no gaps.  decode: the versions the peer offers; false if the
 * hello is malformed (the bitmap is then the implied one).  negotiate:
 * the highest common version, or 0. */
struct ofpbuf *ofputil_encode_hello(uint32_t version_bitmap);
bool ofputil_decode_hello(const struct ofp_header *, uint32_t *bitmap);
enum ofp_version ofputil_negotiate_version(uint32_t ours, uint32_t theirs);

/* Echo. */
struct ofpbuf *ofputil_encode_echo_request(enum ofp_version);
struct ofpbuf *ofputil_encode_echo_reply(const struct ofp_header *request);
/* Barrier. */
struct ofpbuf *ofputil_encode_barrier_request(enum ofp_version);

#endif /* ofp-protocol.h */
