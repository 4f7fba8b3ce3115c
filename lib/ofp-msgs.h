/* ofp-msgs: OpenFlow message framing, in every version.
 *
 * An OpenFlow message starts with struct ofp_header.  Which message it is
 * depends on the version and, for some types, on more header: statistics
 * (multipart) messages add a stats type, 1.0 and 1.1+ with different
 * header sizes, and vendor (experimenter) messages add a vendor id and a
 * subtype, again in two shapes for plain and statistics messages.  Several
 * messages also changed layout or number between versions.
 *
 * Two enumerations name messages:
 *
 *   enum ofpraw   one concrete wire form: a type number (and stats type,
 *                 vendor, subtype) valid in a range of versions, with one
 *                 body layout.  Encoders pick the raw form for the version
 *                 they speak; the raw form fixes the header and what body
 *                 lengths are valid.
 *
 *   enum ofptype  what a message means, one value for all the raw forms
 *                 of the same message (OFPTYPE_FLOW_MOD covers the 1.0,
 *                 1.1+ and Nicira flow mods).  Dispatchers switch on this.
 *
 * Decoding (ofpraw_decode(), ofptype_decode(), ofpraw_pull()) checks the
 * header completely: the length is at least the header's size and valid
 * for the body layout, the type is known in the version, the vendor and
 * subtype are known.  Failures are OpenFlow errors to send back
 * (OFPBRC_BAD_LEN, BAD_TYPE, BAD_STAT, BAD_VENDOR, BAD_SUBTYPE,
 * BAD_VERSION), so a switch answers any malformed header correctly before
 * a body decoder runs.
 *
 * Encoding (ofpraw_alloc*(), ofpraw_put*()) writes the header for a raw
 * form in a version, zero-filling the fixed part of the body, and leaves
 * the ofpbuf's HEADER pointing at the header and MSG at the body.  Callers
 * append the variable part and then call ofpmsg_update_length().
 *
 * Multipart replies that may exceed one message use the ofpmp_*()
 * helpers: a list of ofpbufs that grows a new part (flagged "more" in the
 * previous one) whenever an append would overflow 64 kB.
 *
 * Threads: the tables are constant; the only shared state is the xid
 * counter of alloc_xid(), which is atomic. */
#ifndef OFP_MSGS_H
#define OFP_MSGS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "openflow.h"

struct ds;
struct ofpbuf;
struct ovs_list;

enum ofpraw {
    /* Immutable messages (any version number). */
    OFPRAW_OFPT_HELLO,
    OFPRAW_OFPT_ERROR,
    OFPRAW_OFPT_ECHO_REQUEST,
    OFPRAW_OFPT_ECHO_REPLY,

    /* Switch configuration. */
    OFPRAW_OFPT_FEATURES_REQUEST,
    OFPRAW_OFPT10_FEATURES_REPLY,   /* Ports follow. */
    OFPRAW_OFPT11_FEATURES_REPLY,   /* 1.1-1.2, ports follow. */
    OFPRAW_OFPT13_FEATURES_REPLY,   /* 1.3+, no ports. */
    OFPRAW_OFPT_GET_CONFIG_REQUEST,
    OFPRAW_OFPT_GET_CONFIG_REPLY,
    OFPRAW_OFPT_SET_CONFIG,

    /* Asynchronous messages. */
    OFPRAW_OFPT10_PACKET_IN,
    OFPRAW_OFPT11_PACKET_IN,
    OFPRAW_OFPT12_PACKET_IN,
    OFPRAW_OFPT13_PACKET_IN,
    OFPRAW_NXT_PACKET_IN,
    OFPRAW_NXT_PACKET_IN2,
    OFPRAW_OFPT10_FLOW_REMOVED,
    OFPRAW_OFPT11_FLOW_REMOVED,
    OFPRAW_NXT_FLOW_REMOVED,
    OFPRAW_OFPT10_PORT_STATUS,
    OFPRAW_OFPT11_PORT_STATUS,
    OFPRAW_OFPT14_PORT_STATUS,

    /* Controller commands. */
    OFPRAW_OFPT10_PACKET_OUT,
    OFPRAW_OFPT11_PACKET_OUT,
    OFPRAW_OFPT10_FLOW_MOD,
    OFPRAW_OFPT11_FLOW_MOD,
    OFPRAW_NXT_FLOW_MOD,
    OFPRAW_OFPT11_GROUP_MOD,
    OFPRAW_OFPT15_GROUP_MOD,
    OFPRAW_NXT_GROUP_MOD,           /* 1.0: the 1.5 layout, NX vendor. */
    OFPRAW_OFPT10_PORT_MOD,
    OFPRAW_OFPT11_PORT_MOD,
    OFPRAW_OFPT14_PORT_MOD,
    OFPRAW_OFPT11_TABLE_MOD,
    OFPRAW_OFPT14_TABLE_MOD,

    /* Barriers. */
    OFPRAW_OFPT10_BARRIER_REQUEST,
    OFPRAW_OFPT11_BARRIER_REQUEST,
    OFPRAW_OFPT10_BARRIER_REPLY,
    OFPRAW_OFPT11_BARRIER_REPLY,

    /* Queue configuration. */
    OFPRAW_OFPT10_QUEUE_GET_CONFIG_REQUEST,
    OFPRAW_OFPT11_QUEUE_GET_CONFIG_REQUEST,
    OFPRAW_OFPT10_QUEUE_GET_CONFIG_REPLY,
    OFPRAW_OFPT11_QUEUE_GET_CONFIG_REPLY,

    /* Roles and asynchronous configuration. */
    OFPRAW_OFPT12_ROLE_REQUEST,
    OFPRAW_NXT_ROLE_REQUEST,
    OFPRAW_OFPT12_ROLE_REPLY,
    OFPRAW_NXT_ROLE_REPLY,
    OFPRAW_OFPT13_GET_ASYNC_REQUEST,
    OFPRAW_OFPT14_GET_ASYNC_REQUEST,
    OFPRAW_OFPT13_GET_ASYNC_REPLY,
    OFPRAW_OFPT14_GET_ASYNC_REPLY,
    OFPRAW_OFPT13_SET_ASYNC,
    OFPRAW_NXT_SET_ASYNC_CONFIG,
    OFPRAW_NXT_SET_ASYNC_CONFIG2,
    OFPRAW_OFPT14_SET_ASYNC,
    OFPRAW_OFPT13_METER_MOD,
    OFPRAW_ONFT13_ROLE_STATUS,
    OFPRAW_OFPT14_ROLE_STATUS,
    OFPRAW_OFPT14_TABLE_STATUS,
    OFPRAW_OFPT14_REQUESTFORWARD,
    OFPRAW_ONFT13_REQUESTFORWARD,
    OFPRAW_NXT_REQUESTFORWARD,      /* 1.0-1.2. */
    OFPRAW_OFPT14_BUNDLE_CONTROL,
    OFPRAW_ONFT13_BUNDLE_CONTROL,
    OFPRAW_OFPT14_BUNDLE_ADD_MESSAGE,
    OFPRAW_ONFT13_BUNDLE_ADD_MESSAGE,

    /* Standard statistics. */
    OFPRAW_OFPST_DESC_REQUEST,
    OFPRAW_OFPST_DESC_REPLY,
    OFPRAW_OFPST10_FLOW_REQUEST,
    OFPRAW_OFPST11_FLOW_REQUEST,
    OFPRAW_NXST_FLOW_REQUEST,
    OFPRAW_OFPST10_FLOW_REPLY,
    OFPRAW_OFPST11_FLOW_REPLY,
    OFPRAW_OFPST13_FLOW_REPLY,
    OFPRAW_NXST_FLOW_REPLY,
    OFPRAW_OFPST10_AGGREGATE_REQUEST,
    OFPRAW_OFPST11_AGGREGATE_REQUEST,
    OFPRAW_NXST_AGGREGATE_REQUEST,
    OFPRAW_OFPST_AGGREGATE_REPLY,       /* 1.0-1.4: fixed counters. */
    OFPRAW_OFPST15_AGGREGATE_REPLY,     /* 1.5: OXS statistics. */
    OFPRAW_NXST_AGGREGATE_REPLY,
    OFPRAW_OFPST_TABLE_REQUEST,
    OFPRAW_OFPST10_TABLE_REPLY,
    OFPRAW_OFPST11_TABLE_REPLY,
    OFPRAW_OFPST12_TABLE_REPLY,
    OFPRAW_OFPST13_TABLE_REPLY,
    OFPRAW_OFPST10_PORT_REQUEST,
    OFPRAW_OFPST11_PORT_REQUEST,
    OFPRAW_OFPST10_PORT_REPLY,
    OFPRAW_OFPST11_PORT_REPLY,
    OFPRAW_OFPST13_PORT_REPLY,
    OFPRAW_OFPST14_PORT_REPLY,
    OFPRAW_OFPST10_QUEUE_REQUEST,
    OFPRAW_OFPST11_QUEUE_REQUEST,
    OFPRAW_OFPST10_QUEUE_REPLY,
    OFPRAW_OFPST11_QUEUE_REPLY,
    OFPRAW_OFPST13_QUEUE_REPLY,
    OFPRAW_OFPST14_QUEUE_REPLY,
    OFPRAW_OFPST14_QUEUE_DESC_REQUEST,
    OFPRAW_OFPST14_QUEUE_DESC_REPLY,
    OFPRAW_OFPST11_GROUP_REQUEST,
    OFPRAW_NXST_GROUP_REQUEST,
    OFPRAW_OFPST11_GROUP_REPLY,
    OFPRAW_OFPST13_GROUP_REPLY,
    OFPRAW_NXST_GROUP_REPLY,
    OFPRAW_OFPST11_GROUP_DESC_REQUEST,
    OFPRAW_OFPST15_GROUP_DESC_REQUEST,
    OFPRAW_NXST_GROUP_DESC_REQUEST,
    OFPRAW_OFPST11_GROUP_DESC_REPLY,
    OFPRAW_NXST_GROUP_DESC_REPLY,
    OFPRAW_OFPST12_GROUP_FEATURES_REQUEST,
    OFPRAW_NXST_GROUP_FEATURES_REQUEST,
    OFPRAW_OFPST12_GROUP_FEATURES_REPLY,
    OFPRAW_NXST_GROUP_FEATURES_REPLY,
    OFPRAW_OFPST13_METER_REQUEST,
    OFPRAW_OFPST13_METER_REPLY,
    OFPRAW_OFPST13_METER_CONFIG_REQUEST,
    OFPRAW_OFPST13_METER_CONFIG_REPLY,
    OFPRAW_OFPST13_METER_FEATURES_REQUEST,
    OFPRAW_OFPST13_METER_FEATURES_REPLY,
    OFPRAW_OFPST13_TABLE_FEATURES_REQUEST,
    OFPRAW_OFPST13_TABLE_FEATURES_REPLY,
    OFPRAW_OFPST14_TABLE_DESC_REQUEST,
    OFPRAW_OFPST14_TABLE_DESC_REPLY,
    OFPRAW_OFPST10_PORT_DESC_REQUEST,
    OFPRAW_OFPST15_PORT_DESC_REQUEST,
    OFPRAW_OFPST10_PORT_DESC_REPLY,
    OFPRAW_OFPST11_PORT_DESC_REPLY,
    OFPRAW_OFPST14_PORT_DESC_REPLY,
    OFPRAW_OFPST14_FLOW_MONITOR_REQUEST,
    OFPRAW_NXST_FLOW_MONITOR_REQUEST,
    OFPRAW_OFPST14_FLOW_MONITOR_REPLY,
    OFPRAW_NXST_FLOW_MONITOR_REPLY,
    OFPRAW_ONFST13_FLOW_MONITOR_REQUEST,
    OFPRAW_ONFST13_FLOW_MONITOR_REPLY,

    /* Other Nicira extensions. */
    OFPRAW_NXT_SET_FLOW_FORMAT,
    OFPRAW_NXT_FLOW_MOD_TABLE_ID,
    OFPRAW_NXT_SET_PACKET_IN_FORMAT,
    OFPRAW_NXT_FLOW_AGE,
    OFPRAW_NXT_SET_CONTROLLER_ID,
    OFPRAW_NXT_FLOW_MONITOR_CANCEL,
    OFPRAW_NXT_FLOW_MONITOR_PAUSED,
    OFPRAW_NXT_FLOW_MONITOR_RESUMED,
    OFPRAW_ONFT13_FLOW_MONITOR_CANCEL,
    OFPRAW_ONFT13_FLOW_MONITOR_PAUSED,
    OFPRAW_ONFT13_FLOW_MONITOR_RESUMED,
    OFPRAW_NXT_RESUME,
    OFPRAW_NXT_CT_FLUSH_ZONE,
    OFPRAW_NXT_CT_FLUSH,
    OFPRAW_NXT_TLV_TABLE_MOD,
    OFPRAW_NXT_TLV_TABLE_REQUEST,
    OFPRAW_NXT_TLV_TABLE_REPLY,

    OFPRAW_N_RAWS
};

enum ofptype {
    OFPTYPE_HELLO,
    OFPTYPE_ERROR,
    OFPTYPE_ECHO_REQUEST,
    OFPTYPE_ECHO_REPLY,
    OFPTYPE_FEATURES_REQUEST,
    OFPTYPE_FEATURES_REPLY,
    OFPTYPE_GET_CONFIG_REQUEST,
    OFPTYPE_GET_CONFIG_REPLY,
    OFPTYPE_SET_CONFIG,
    OFPTYPE_PACKET_IN,
    OFPTYPE_FLOW_REMOVED,
    OFPTYPE_PORT_STATUS,
    OFPTYPE_PACKET_OUT,
    OFPTYPE_FLOW_MOD,
    OFPTYPE_GROUP_MOD,
    OFPTYPE_PORT_MOD,
    OFPTYPE_TABLE_MOD,
    OFPTYPE_BARRIER_REQUEST,
    OFPTYPE_BARRIER_REPLY,
    OFPTYPE_QUEUE_GET_CONFIG_REQUEST,
    OFPTYPE_QUEUE_GET_CONFIG_REPLY,
    OFPTYPE_ROLE_REQUEST,
    OFPTYPE_ROLE_REPLY,
    OFPTYPE_GET_ASYNC_REQUEST,
    OFPTYPE_GET_ASYNC_REPLY,
    OFPTYPE_SET_ASYNC_CONFIG,
    OFPTYPE_METER_MOD,
    OFPTYPE_ROLE_STATUS,
    OFPTYPE_TABLE_STATUS,
    OFPTYPE_REQUESTFORWARD,
    OFPTYPE_BUNDLE_CONTROL,
    OFPTYPE_BUNDLE_ADD_MESSAGE,
    OFPTYPE_DESC_STATS_REQUEST,
    OFPTYPE_DESC_STATS_REPLY,
    OFPTYPE_FLOW_STATS_REQUEST,
    OFPTYPE_FLOW_STATS_REPLY,
    OFPTYPE_AGGREGATE_STATS_REQUEST,
    OFPTYPE_AGGREGATE_STATS_REPLY,
    OFPTYPE_TABLE_STATS_REQUEST,
    OFPTYPE_TABLE_STATS_REPLY,
    OFPTYPE_PORT_STATS_REQUEST,
    OFPTYPE_PORT_STATS_REPLY,
    OFPTYPE_QUEUE_STATS_REQUEST,
    OFPTYPE_QUEUE_STATS_REPLY,
    OFPTYPE_QUEUE_DESC_STATS_REQUEST,
    OFPTYPE_QUEUE_DESC_STATS_REPLY,
    OFPTYPE_GROUP_STATS_REQUEST,
    OFPTYPE_GROUP_STATS_REPLY,
    OFPTYPE_GROUP_DESC_STATS_REQUEST,
    OFPTYPE_GROUP_DESC_STATS_REPLY,
    OFPTYPE_GROUP_FEATURES_STATS_REQUEST,
    OFPTYPE_GROUP_FEATURES_STATS_REPLY,
    OFPTYPE_METER_STATS_REQUEST,
    OFPTYPE_METER_STATS_REPLY,
    OFPTYPE_METER_CONFIG_STATS_REQUEST,
    OFPTYPE_METER_CONFIG_STATS_REPLY,
    OFPTYPE_METER_FEATURES_STATS_REQUEST,
    OFPTYPE_METER_FEATURES_STATS_REPLY,
    OFPTYPE_TABLE_FEATURES_STATS_REQUEST,
    OFPTYPE_TABLE_FEATURES_STATS_REPLY,
    OFPTYPE_TABLE_DESC_REQUEST,
    OFPTYPE_TABLE_DESC_REPLY,
    OFPTYPE_PORT_DESC_STATS_REQUEST,
    OFPTYPE_PORT_DESC_STATS_REPLY,
    OFPTYPE_FLOW_MONITOR_STATS_REQUEST,
    OFPTYPE_FLOW_MONITOR_STATS_REPLY,
    OFPTYPE_SET_FLOW_FORMAT,
    OFPTYPE_FLOW_MOD_TABLE_ID,
    OFPTYPE_SET_PACKET_IN_FORMAT,
    OFPTYPE_FLOW_AGE,
    OFPTYPE_SET_CONTROLLER_ID,
    OFPTYPE_FLOW_MONITOR_CANCEL,
    OFPTYPE_FLOW_MONITOR_PAUSED,
    OFPTYPE_FLOW_MONITOR_RESUMED,
    OFPTYPE_NXT_RESUME,
    OFPTYPE_CT_FLUSH_ZONE,
    OFPTYPE_CT_FLUSH,
    OFPTYPE_NXT_TLV_TABLE_MOD,
    OFPTYPE_NXT_TLV_TABLE_REQUEST,
    OFPTYPE_NXT_TLV_TABLE_REPLY,
};

/* Decoding.  OH must point at ntohs(OH->length) readable bytes (the
 * caller checked that much; see ofpmsg_check_framing()). */
enum ofperr ofpraw_decode(enum ofpraw *, const struct ofp_header *oh);
enum ofperr ofptype_decode(enum ofptype *, const struct ofp_header *oh);
/* Decodes the header of the message in B (B->data at its start, B->size
 * its length) and pulls the whole header off, leaving B->header at the
 * message and B->msg (and B->data) at the body.  On error B is unchanged. */
enum ofperr ofpraw_pull(enum ofpraw *, struct ofpbuf *b);
/* The same, for a message the caller already knows to be valid. */
enum ofpraw ofpraw_pull_assert(struct ofpbuf *b);
/* Like ofpraw_decode() but only needs LENGTH bytes of a message whose
 * header may say it is longer (for printing truncated captures): checks
 * only as much as those bytes allow. */
enum ofperr ofpraw_decode_partial(enum ofpraw *, const struct ofp_header *,
                                  size_t length);

enum ofptype ofptype_from_ofpraw(enum ofpraw);
/* "OFPT_FLOW_MOD", "NXST_FLOW request", ... */
const char *ofpraw_get_name(enum ofpraw);
/* The size of RAW's header (including vendor and stats headers) in
 * VERSION. */
size_t ofpraw_header_size(enum ofpraw, enum ofp_version);
/* Whether RAW exists in VERSION. */
bool ofpraw_is_valid_in(enum ofpraw, enum ofp_version);
/* The raw form of the reply to the multipart request RAW in VERSION. */
enum ofpraw ofpraw_stats_request_to_reply(enum ofpraw, enum ofp_version);

/* Encoding.  EXTRA_TAILROOM is a hint for what the caller will append.
 * alloc() takes a fresh xid (alloc_xid()); _reply() copies REQUEST's
 * version and xid. */
struct ofpbuf *ofpraw_alloc(enum ofpraw, enum ofp_version,
                            size_t extra_tailroom);
struct ofpbuf *ofpraw_alloc_xid(enum ofpraw, enum ofp_version, ovs_be32 xid,
                                size_t extra_tailroom);
struct ofpbuf *ofpraw_alloc_reply(enum ofpraw, const struct ofp_header *req,
                                  size_t extra_tailroom);
/* The reply to the multipart request REQUEST. */
struct ofpbuf *ofpraw_alloc_stats_reply(const struct ofp_header *request,
                                        size_t extra_tailroom);
void ofpraw_put(enum ofpraw, enum ofp_version, struct ofpbuf *);
void ofpraw_put_xid(enum ofpraw, enum ofp_version, ovs_be32 xid,
                    struct ofpbuf *);
void ofpraw_put_reply(enum ofpraw, const struct ofp_header *req,
                      struct ofpbuf *);

/* A new transaction id, counting up from 1 in each process. */
ovs_be32 alloc_xid(void);
/* Makes the next alloc_xid() return NEXT (for tools that must reproduce a
 * sequence). */
void set_next_xid(uint32_t next);

/* Sets the length field of the message that B->header points at to cover
 * everything from there to the end of B. */
void ofpmsg_update_length(struct ofpbuf *);
/* The body of OH: what follows all of its headers.  OH must be valid. */
const void *ofpmsg_body(const struct ofp_header *oh);
bool ofpmsg_is_stat_request(const struct ofp_header *);
bool ofpmsg_is_stat_reply(const struct ofp_header *);

/* Multipart message flags (the OFPSF_REPLY_MORE bit and the rest). */
uint16_t ofpmp_flags(const struct ofp_header *);
bool ofpmp_more(const struct ofp_header *);
void ofpmp_set_more(struct ofp_header *, bool more);

/* Multipart replies as a list of ofpbufs (linked by list_node).  Every
 * part's length field stays current through ofpmp_append() and
 * ofpmp_postappend(); a caller that writes into a part some other way
 * (after ofpmp_reserve()) calls ofpmp_postappend() when done. */
void ofpmp_init(struct ovs_list *, const struct ofp_header *request);
/* Makes room for LEN bytes in the last part, starting a new part (and
 * setting "more" on the previous one) if it would go past 64 kB.  Returns
 * the part that will hold them. */
struct ofpbuf *ofpmp_reserve(struct ovs_list *, size_t len);
void *ofpmp_append(struct ovs_list *, size_t len);
/* After appending a variable-length record that started at START_OFS of
 * the last part: if the part is now too long, moves the record into a new
 * part. */
void ofpmp_postappend(struct ovs_list *, size_t start_ofs);
enum ofp_version ofpmp_version(struct ovs_list *);
enum ofpraw ofpmp_decode_raw(struct ovs_list *);

#endif /* ofp-msgs.h */
