/* ofp-monitor: OpenFlow flow monitor messages, in every version.
 *
 * A flow monitor asks a switch to report changes to its flow tables.
 * Three wire forms carry the same meaning:
 *
 *   OpenFlow 1.0-1.2  NXST_FLOW_MONITOR request/reply (NXM matches,
 *                     actions), NXT_FLOW_MONITOR_CANCEL, _PAUSED, _RESUMED.
 *   OpenFlow 1.3      ONF's extension 1870: ONFST_FLOW_MONITOR with the
 *                     Nicira layout but OXM matches and instructions, and
 *                     ONFT_FLOW_MONITOR_CANCEL (1870), _PAUSED (1871),
 *                     _RESUMED (1872).
 *   OpenFlow 1.4+     OFPMP_FLOW_MONITOR: requests carry a command (add,
 *                     modify, delete: the cancel), replies carry updates
 *                     including "paused" and "resumed" events.
 *
 * The decoded forms (struct ofputil_flow_monitor_request, struct
 * ofputil_flow_update) use Nicira's flag bits (NXFMF_*) and 1.4's event
 * numbers (OFPFME_*), whatever the version.
 *
 * Memory: decoders fill caller-owned structs; actions go into a
 * caller-owned ofpbuf and the update points into it.  Encoders return or
 * append to ofpbufs the caller owns.
 *
 * Threads: pure functions, any thread. */
#ifndef OFP_MONITOR_H
#define OFP_MONITOR_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "match.h"
#include "ofp-errors.h"
#include "openflow.h"

struct ds;
struct ofpbuf;
struct ovs_list;
struct ofputil_port_map;
struct ofputil_table_map;

/* OpenFlow 1.4's monitor commands. */
enum ofp14_flow_monitor_command {
    OFPFMC14_ADD = 0,
    OFPFMC14_MODIFY = 1,
    OFPFMC14_DELETE = 2,
};

/* Flow update events, 1.4's numbering (Nicira's ADDED is both INITIAL and
 * ADDED; Nicira's paused and resumed are separate messages). */
enum ofp_flow_update_event {
    OFPFME_INITIAL = 0,
    OFPFME_ADDED = 1,
    OFPFME_REMOVED = 2,
    OFPFME_MODIFIED = 3,
    OFPFME_ABBREV = 4,
    OFPFME_PAUSED = 5,
    OFPFME_RESUMED = 6,
};

#define NXFMF_ALL (NXFMF_INITIAL | NXFMF_ADD | NXFMF_DELETE | NXFMF_MODIFY \
                   | NXFMF_ACTIONS | NXFMF_OWN)

struct ofputil_flow_monitor_request {
    uint32_t id;
    enum ofp14_flow_monitor_command command;  /* ADD before 1.4. */
    uint16_t flags;             /* NXFMF_*. */
    uint32_t out_port;          /* 1.0 numbering; OFPP_NONE: any. */
    uint32_t out_group;         /* OFPG_ANY: any (1.4+ only). */
    uint8_t table_id;           /* 0xff: every table. */
    struct match match;
};

/* Pulls one request off MSG: the first call on a fresh ofpbuf (MSG->header
 * NULL, MSG->data at the message) pulls the headers too.  Returns 0, EOF
 * when no requests remain, or 3.1's error: OFPBRC_BAD_LEN,
 * OFPMOFC_BAD_FLAGS (unknown bits, or none of initial/add/delete/modify),
 * NXBRC_MUST_BE_ZERO, OFPMOFC_BAD_COMMAND, or a match error. */
int ofputil_decode_flow_monitor_request(struct ofputil_flow_monitor_request *,
                                        struct ofpbuf *msg);
/* Appends RQ to MSG in VERSION's form, starting the message first if MSG
 * is empty. */
void ofputil_append_flow_monitor_request(
    const struct ofputil_flow_monitor_request *, struct ofpbuf *msg,
    enum ofp_version);
/* " id=1 flags=initial,add table=0 ip" as 3.1 prints one request. */
void ofputil_flow_monitor_request_format(
    struct ds *, const struct ofputil_flow_monitor_request *,
    const struct ofputil_port_map *, const struct ofputil_table_map *);

/* One flow update.  For INITIAL, ADDED, REMOVED and MODIFIED every field
 * but XID; for ABBREV only XID; PAUSED and RESUMED nothing. */
struct ofputil_flow_update {
    enum ofp_flow_update_event event;
    uint8_t reason;             /* OFPRR_*, for REMOVED. */
    uint16_t idle_timeout;
    uint16_t hard_timeout;
    uint8_t table_id;
    uint16_t priority;
    ovs_be64 cookie;
    struct match match;
    const struct ofpact *ofpacts;
    size_t ofpacts_len;
    ovs_be32 xid;               /* ABBREV: the change's request. */
};

/* Pulls one update off MSG (see the request decoder for the first call);
 * actions are appended to OFPACTS, which the caller clears between calls.
 * Returns 0, EOF, or OFPBRC_BAD_LEN, NXBRC_FM_BAD_EVENT, match and action
 * errors. */
int ofputil_decode_flow_update(struct ofputil_flow_update *,
                               struct ofpbuf *msg, struct ofpbuf *ofpacts);
/* Starts a flow monitor reply to REQUEST in REPLIES (see ofpmp_init()). */
void ofputil_start_flow_update(struct ovs_list *replies,
                               const struct ofp_header *request);
/* Starts an unsolicited reply (xid 0) in VERSION. */
void ofputil_start_flow_update_async(struct ovs_list *replies,
                                     enum ofp_version);
/* Appends UPDATE to REPLIES.  Nicira and ONF forms cannot carry INITIAL
 * (sent as ADDED); PAUSED and RESUMED there are separate messages, see
 * ofputil_encode_flow_monitor_pause(). */
void ofputil_append_flow_update(const struct ofputil_flow_update *,
                                struct ovs_list *replies);
/* " event=ADDED table=0 cookie=0 ip actions=output:1" as 3.1 prints an
 * update (without the leading space). */
void ofputil_flow_update_format(struct ds *, const struct ofputil_flow_update *,
                                const struct ofputil_port_map *,
                                const struct ofputil_table_map *);

/* Cancel (1.0-1.3; 1.4+ cancels with a DELETE request). */
struct ofpbuf *ofputil_encode_flow_monitor_cancel(uint32_t id,
                                                  enum ofp_version);
enum ofperr ofputil_decode_flow_monitor_cancel(const struct ofp_header *,
                                               uint32_t *id);

/* "Paused" (EVENT OFPFME_PAUSED) or "resumed" (OFPFME_RESUMED) in VERSION:
 * a message of its own before 1.4, an update event in 1.4+. */
struct ofpbuf *ofputil_encode_flow_monitor_pause(enum ofp_flow_update_event,
                                                 enum ofp_version);

/* Bodies as ofp-print prints them (after the header line). */
enum ofperr ofputil_flow_monitor_request_print(
    struct ds *, const struct ofp_header *, const struct ofputil_port_map *,
    const struct ofputil_table_map *);
enum ofperr ofputil_flow_monitor_reply_print(
    struct ds *, const struct ofp_header *, const struct ofputil_port_map *,
    const struct ofputil_table_map *);
enum ofperr ofputil_flow_monitor_cancel_print(struct ds *,
                                              const struct ofp_header *);

#endif /* ofp-monitor.h */
