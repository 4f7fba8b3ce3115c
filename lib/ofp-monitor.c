/* ofp-monitor: flow monitor requests, updates, cancel, pause and resume.
 * See ofp-monitor.h. */
#include <config.h>
#include "ofp-monitor.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "list.h"
#include "nx-match.h"
#include "ofp-actions.h"
#include "ofp-flow.h"
#include "ofp-match.h"
#include "ofp-msgs.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_monitor);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

/* ONF's 1.3 request: the Nicira one with a 32-bit port and an OXM match. */
struct onf13_flow_monitor_request {
    ovs_be32 id;
    ovs_be16 flags;
    ovs_be16 match_len;         /* OXM match length, its header included. */
    ovs_be32 out_port;
    uint8_t table_id;
    uint8_t zeros[3];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct onf13_flow_monitor_request) == 16);

struct ofp14_flow_monitor_request {
    ovs_be32 monitor_id;
    ovs_be32 out_port;
    ovs_be32 out_group;
    ovs_be16 flags;             /* OFPFMF14_*. */
    uint8_t table_id;
    uint8_t command;            /* OFPFMC14_*. */
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp14_flow_monitor_request) == 16);

enum {
    OFPFMF14_INITIAL = 1 << 0,
    OFPFMF14_ADD = 1 << 1,
    OFPFMF14_REMOVED = 1 << 2,
    OFPFMF14_MODIFY = 1 << 3,
    OFPFMF14_INSTRUCTIONS = 1 << 4,
    OFPFMF14_NO_ABBREV = 1 << 5,
    OFPFMF14_ONLY_OWN = 1 << 6,
};

struct ofp14_flow_update_full {
    ovs_be16 length;
    ovs_be16 event;
    uint8_t table_id;
    uint8_t reason;
    ovs_be16 idle_timeout;
    ovs_be16 hard_timeout;
    ovs_be16 priority;
    uint8_t zeros[4];
    ovs_be64 cookie;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp14_flow_update_full) == 24);

/* Abbreviated, paused and resumed updates share this shape (paused and
 * resumed with zeros where the xid is). */
struct flow_update_short {
    ovs_be16 length;
    ovs_be16 event;
    ovs_be32 xid;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct flow_update_short) == 8);

static bool
is_zeros(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
}

/* Requests. */

/* "NXST_FLOW_MONITOR": RAW's name without " request" or " reply", as 3.1
 * names these messages in its warnings. */
static int
stats_name_len(enum ofpraw raw)
{
    const char *name = ofpraw_get_name(raw);
    const char *space = strchr(name, ' ');
    return space ? space - name : (int) strlen(name);
}

/* FLAGS are Nicira's; WIRE_FLAGS what the message said, for the log. */
static enum ofperr
check_nx_flags(enum ofpraw raw, uint16_t flags, uint16_t wire_flags)
{
    /* A monitor that reports neither additions, deletions nor changes is
     * refused even with "initial", as 3.1 does. */
    if (flags & ~NXFMF_ALL
        || !(flags & (NXFMF_ADD | NXFMF_DELETE | NXFMF_MODIFY))) {
        VLOG_WARN_RL(&rl, "%.*s has bad flags %#"PRIx16,
                     stats_name_len(raw), ofpraw_get_name(raw), wire_flags);
        return OFPERR_OFPMOFC_BAD_FLAGS;
    }
    return 0;
}

static uint16_t
nx_flags_from_ofp14(uint16_t of14)
{
    uint16_t nx = of14 & (OFPFMF14_INITIAL | OFPFMF14_ADD | OFPFMF14_REMOVED
                          | OFPFMF14_MODIFY | OFPFMF14_INSTRUCTIONS);
    if (of14 & OFPFMF14_ONLY_OWN) {
        nx |= NXFMF_OWN;
    }
    /* Bits with no Nicira meaning land outside NXFMF_ALL. */
    if (of14 & ~(OFPFMF14_INITIAL | OFPFMF14_ADD | OFPFMF14_REMOVED
                 | OFPFMF14_MODIFY | OFPFMF14_INSTRUCTIONS
                 | OFPFMF14_ONLY_OWN)) {
        nx |= 0x8000;
    }
    return nx;
}

static uint16_t
nx_flags_to_ofp14(uint16_t nx)
{
    uint16_t of14 = nx & (NXFMF_INITIAL | NXFMF_ADD | NXFMF_DELETE
                          | NXFMF_MODIFY | NXFMF_ACTIONS);
    if (nx & NXFMF_OWN) {
        of14 |= OFPFMF14_ONLY_OWN;
    }
    return of14;
}

/* Pulls the headers off a fresh MSG; returns its raw form in *RAWP. */
static enum ofperr
pull_headers(struct ofpbuf *msg, enum ofpraw *rawp)
{
    if (!msg->header) {
        return ofpraw_pull(rawp, msg);
    }
    return ofpraw_decode(rawp, msg->header);
}

int
ofputil_decode_flow_monitor_request(struct ofputil_flow_monitor_request *rq,
                                    struct ofpbuf *msg)
{
    enum ofpraw raw;
    enum ofperr error = pull_headers(msg, &raw);
    if (error) {
        return error;
    }
    if (!msg->size) {
        return EOF;
    }

    memset(rq, 0, sizeof *rq);
    rq->command = OFPFMC14_ADD;
    rq->out_group = OFPG_ANY;
    match_init_catchall(&rq->match);

    if (raw == OFPRAW_NXST_FLOW_MONITOR_REQUEST) {
        const struct nx_flow_monitor_request *nfmr
            = ofpbuf_try_pull(msg, sizeof *nfmr);
        if (!nfmr) {
            VLOG_WARN_RL(&rl, "%.*s request has %"PRIu32" leftover bytes "
                         "at end", stats_name_len(raw), ofpraw_get_name(raw),
                         msg->size);
            return OFPERR_OFPBRC_BAD_LEN;
        }
        rq->id = ntohl(nfmr->id);
        rq->flags = ntohs(nfmr->flags);
        rq->out_port = ntohs(nfmr->out_port);
        rq->table_id = nfmr->table_id;
        error = check_nx_flags(raw, rq->flags, rq->flags);
        if (error) {
            return error;
        }
        if (!is_zeros(nfmr->zeros, sizeof nfmr->zeros)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        return nx_pull_match(msg, ntohs(nfmr->match_len), &rq->match,
                             NULL, NULL);
    } else if (raw == OFPRAW_ONFST13_FLOW_MONITOR_REQUEST) {
        const struct onf13_flow_monitor_request *ofmr
            = ofpbuf_try_pull(msg, sizeof *ofmr);
        if (!ofmr) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        rq->id = ntohl(ofmr->id);
        rq->flags = ntohs(ofmr->flags);
        rq->table_id = ofmr->table_id;
        error = ofputil_port_from_ofp11(ofmr->out_port, &rq->out_port);
        if (!error) {
            error = check_nx_flags(raw, rq->flags, rq->flags);
        }
        if (error) {
            return error;
        }
        if (!is_zeros(ofmr->zeros, sizeof ofmr->zeros)) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
        return oxm_pull_match(msg, &rq->match);
    } else {
        const struct ofp14_flow_monitor_request *ofmr
            = ofpbuf_try_pull(msg, sizeof *ofmr);
        if (!ofmr) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        rq->id = ntohl(ofmr->monitor_id);
        rq->flags = nx_flags_from_ofp14(ntohs(ofmr->flags));
        rq->out_group = ntohl(ofmr->out_group);
        rq->table_id = ofmr->table_id;
        if (ofmr->command > OFPFMC14_DELETE) {
            return OFPERR_OFPMOFC_BAD_COMMAND;
        }
        rq->command = ofmr->command;
        error = ofputil_port_from_ofp11(ofmr->out_port, &rq->out_port);
        if (error) {
            return error;
        }
        if (rq->command != OFPFMC14_DELETE) {
            error = check_nx_flags(raw, rq->flags, ntohs(ofmr->flags));
            if (error) {
                return error;
            }
        }
        return oxm_pull_match(msg, &rq->match);
    }
}

static enum ofpraw
request_raw(enum ofp_version version)
{
    return (version < OFP13_VERSION ? OFPRAW_NXST_FLOW_MONITOR_REQUEST
            : version == OFP13_VERSION ? OFPRAW_ONFST13_FLOW_MONITOR_REQUEST
            : OFPRAW_OFPST14_FLOW_MONITOR_REQUEST);
}

void
ofputil_append_flow_monitor_request(
    const struct ofputil_flow_monitor_request *rq, struct ofpbuf *msg,
    enum ofp_version version)
{
    if (!msg->size) {
        ofpraw_put_xid(request_raw(version), version, alloc_xid(), msg);
    }

    size_t start = msg->size;
    if (version < OFP13_VERSION) {
        ofpbuf_put_zeros(msg, sizeof(struct nx_flow_monitor_request));
        int match_len = nx_put_match(msg, &rq->match, 0, 0);
        struct nx_flow_monitor_request *nfmr
            = (void *) ((char *) msg->data + start);
        nfmr->id = htonl(rq->id);
        nfmr->flags = htons(rq->flags);
        nfmr->out_port = htons(rq->out_port);
        nfmr->match_len = htons(match_len);
        nfmr->table_id = rq->table_id;
    } else if (version == OFP13_VERSION) {
        ofpbuf_put_zeros(msg, sizeof(struct onf13_flow_monitor_request));
        int match_len = oxm_put_match(msg, &rq->match, version);
        struct onf13_flow_monitor_request *ofmr
            = (void *) ((char *) msg->data + start);
        ofmr->id = htonl(rq->id);
        ofmr->flags = htons(rq->flags);
        ofmr->match_len = htons(match_len);
        ofmr->out_port = ofputil_port_to_ofp11(rq->out_port);
        ofmr->table_id = rq->table_id;
    } else {
        ofpbuf_put_zeros(msg, sizeof(struct ofp14_flow_monitor_request));
        oxm_put_match(msg, &rq->match, version);
        struct ofp14_flow_monitor_request *ofmr
            = (void *) ((char *) msg->data + start);
        ofmr->monitor_id = htonl(rq->id);
        ofmr->out_port = ofputil_port_to_ofp11(rq->out_port);
        ofmr->out_group = htonl(rq->out_group);
        ofmr->flags = htons(nx_flags_to_ofp14(rq->flags));
        ofmr->table_id = rq->table_id;
        ofmr->command = rq->command;
    }
    ofpmsg_update_length(msg);
}

static void
format_flags(struct ds *s, uint16_t flags)
{
    static const char *const names[] = {
        "initial", "add", "delete", "modify", "actions", "own",
    };
    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        if (flags & (1u << i)) {
            ds_put_format(s, "%s,", names[i]);
        }
    }
    ds_chomp(s, ',');
}

void
ofputil_flow_monitor_request_format(
    struct ds *s, const struct ofputil_flow_monitor_request *rq,
    const struct ofputil_port_map *port_map,
    const struct ofputil_table_map *table_map)
{
    ds_put_format(s, " id=%"PRIu32, rq->id);
    if (rq->command == OFPFMC14_DELETE) {
        ds_put_cstr(s, " command=delete");
        return;
    }
    ds_put_cstr(s, " flags=");
    format_flags(s, rq->flags);
    if (rq->out_port != OFPP_NONE) {
        ds_put_cstr(s, " out_port=");
        ofputil_format_port(rq->out_port, port_map, s);
    }
    if (rq->out_group != OFPG_ANY) {
        ds_put_format(s, " out_group=%"PRIu32, rq->out_group);
    }
    if (rq->table_id != 0xff) {
        ds_put_cstr(s, " table=");
        ofputil_format_table(rq->table_id, table_map, s);
    }
    ds_put_char(s, ' ');
    match_format(&rq->match, port_map, s, OFP_DEFAULT_PRIORITY);
    ds_chomp(s, ' ');
}

enum ofperr
ofputil_flow_monitor_request_print(struct ds *s, const struct ofp_header *oh,
                                   const struct ofputil_port_map *port_map,
                                   const struct ofputil_table_map *table_map)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    for (;;) {
        struct ofputil_flow_monitor_request rq;
        int retval = ofputil_decode_flow_monitor_request(&rq, &b);
        if (retval) {
            if (retval == EOF) {
                ds_put_char(s, '\n');
                return 0;
            }
            return retval;
        }
        ds_put_char(s, '\n');
        ofputil_flow_monitor_request_format(s, &rq, port_map, table_map);
    }
}

/* Updates. */

static enum ofperr
nx_event_to_ofp(uint16_t nx_event, enum ofp_flow_update_event *event)
{
    switch (nx_event) {
    case NXFME_ADDED: *event = OFPFME_ADDED; return 0;
    case NXFME_DELETED: *event = OFPFME_REMOVED; return 0;
    case NXFME_MODIFIED: *event = OFPFME_MODIFIED; return 0;
    case NXFME_ABBREV: *event = OFPFME_ABBREV; return 0;
    }
    return OFPERR_NXBRC_FM_BAD_EVENT;
}

static uint16_t
nx_event_from_ofp(enum ofp_flow_update_event event)
{
    switch (event) {
    case OFPFME_INITIAL:
    case OFPFME_ADDED: return NXFME_ADDED;
    case OFPFME_REMOVED: return NXFME_DELETED;
    case OFPFME_MODIFIED: return NXFME_MODIFIED;
    case OFPFME_ABBREV: return NXFME_ABBREV;
    case OFPFME_PAUSED:
    case OFPFME_RESUMED:
        break;
    }
    abort();
}

int
ofputil_decode_flow_update(struct ofputil_flow_update *update,
                           struct ofpbuf *msg, struct ofpbuf *ofpacts)
{
    enum ofpraw raw;
    enum ofperr error = pull_headers(msg, &raw);
    if (error) {
        return error;
    }
    if (!msg->size) {
        return EOF;
    }
    enum ofp_version version = ((const struct ofp_header *) msg->header)
                               ->version;

    memset(update, 0, sizeof *update);
    match_init_catchall(&update->match);
    if (msg->size < sizeof(struct flow_update_short)) {
        goto bad_len;
    }
    const struct flow_update_short *fus = msg->data;
    size_t length = ntohs(fus->length);
    if (length < sizeof *fus || length > msg->size || length % 8) {
        goto bad_len;
    }
    uint16_t event = ntohs(fus->event);

    if (raw != OFPRAW_OFPST14_FLOW_MONITOR_REPLY) {
        error = nx_event_to_ofp(event, &update->event);
        if (error) {
            VLOG_WARN_RL(&rl, "NXST_FLOW_MONITOR reply has bad event %"
                         PRIu16, event);
            return error;
        }
    } else if (event > OFPFME_RESUMED) {
        /* 3.1 names the Nicira form whatever the version. */
        VLOG_WARN_RL(&rl, "NXST_FLOW_MONITOR reply has bad event %"PRIu16,
                     event);
        return OFPERR_NXBRC_FM_BAD_EVENT;
    } else {
        update->event = event;
    }

    switch (update->event) {
    case OFPFME_ABBREV:
        if (length != sizeof *fus) {
            goto bad_len;
        }
        update->xid = fus->xid;
        ofpbuf_pull(msg, length);
        return 0;
    case OFPFME_PAUSED:
    case OFPFME_RESUMED:
        if (length != sizeof *fus) {
            goto bad_len;
        }
        ofpbuf_pull(msg, length);
        return 0;
    case OFPFME_INITIAL:
    case OFPFME_ADDED:
    case OFPFME_REMOVED:
    case OFPFME_MODIFIED:
        break;
    }

    if (length < sizeof(struct nx_flow_update_full)) {
        goto bad_len;
    }
    struct ofpbuf body;
    ofpbuf_use_const(&body, msg->data, length);
    ofpbuf_pull(msg, length);

    if (raw == OFPRAW_OFPST14_FLOW_MONITOR_REPLY) {
        const struct ofp14_flow_update_full *ofuf
            = ofpbuf_pull(&body, sizeof *ofuf);
        update->reason = ofuf->reason;
        update->idle_timeout = ntohs(ofuf->idle_timeout);
        update->hard_timeout = ntohs(ofuf->hard_timeout);
        update->table_id = ofuf->table_id;
        update->priority = ntohs(ofuf->priority);
        update->cookie = ofuf->cookie;
        error = oxm_pull_match(&body, &update->match);
    } else {
        const struct nx_flow_update_full *nfuf
            = ofpbuf_pull(&body, sizeof *nfuf);
        update->reason = ntohs(nfuf->reason);
        update->idle_timeout = ntohs(nfuf->idle_timeout);
        update->hard_timeout = ntohs(nfuf->hard_timeout);
        update->table_id = nfuf->table_id;
        update->priority = ntohs(nfuf->priority);
        update->cookie = nfuf->cookie;
        if (raw == OFPRAW_NXST_FLOW_MONITOR_REPLY) {
            error = nx_pull_match(&body, ntohs(nfuf->match_len),
                                  &update->match, NULL, NULL);
        } else {
            error = oxm_pull_match(&body, &update->match);
        }
    }
    if (error) {
        return error;
    }

    size_t ofpacts_start = ofpacts->size;
    error = (version >= OFP13_VERSION
             ? ofpacts_pull_openflow_instructions(&body, body.size, version,
                                                  ofpacts)
             : ofpacts_pull_openflow_actions(&body, body.size, version,
                                             ofpacts));
    if (error) {
        return error;
    }
    update->ofpacts_len = ofpacts->size - ofpacts_start;
    update->ofpacts = (update->ofpacts_len
                       ? (const struct ofpact *) ((const char *) ofpacts->data
                                                  + ofpacts_start)
                       : NULL);
    return 0;

bad_len:
    VLOG_WARN_RL(&rl, "%.*s reply has %"PRIu32" leftover bytes at end",
                 stats_name_len(raw), ofpraw_get_name(raw), msg->size);
    return OFPERR_OFPBRC_BAD_LEN;
}

void
ofputil_start_flow_update(struct ovs_list *replies,
                          const struct ofp_header *request)
{
    ofpmp_init(replies, request);
}

void
ofputil_start_flow_update_async(struct ovs_list *replies,
                                enum ofp_version version)
{
    struct ofpbuf *request = ofpraw_alloc_xid(request_raw(version), version,
                                              htonl(0), 0);
    ofpmp_init(replies, request->data);
    ofpbuf_delete(request);
}

void
ofputil_append_flow_update(const struct ofputil_flow_update *update,
                           struct ovs_list *replies)
{
    enum ofp_version version = ofpmp_version(replies);
    struct ofpbuf *msg = ofpmp_reserve(replies, 0);
    size_t start = msg->size;

    if (update->event == OFPFME_ABBREV || update->event == OFPFME_PAUSED
        || update->event == OFPFME_RESUMED) {
        struct flow_update_short *fus = ofpbuf_put_zeros(msg, sizeof *fus);
        fus->length = htons(sizeof *fus);
        fus->event = htons(version >= OFP14_VERSION ? update->event
                           : nx_event_from_ofp(update->event));
        if (update->event == OFPFME_ABBREV) {
            fus->xid = update->xid;
        }
    } else if (version >= OFP14_VERSION) {
        ofpbuf_put_zeros(msg, sizeof(struct ofp14_flow_update_full));
        oxm_put_match(msg, &update->match, version);
        if (update->ofpacts_len) {
            ofpacts_put_openflow_instructions(update->ofpacts,
                                              update->ofpacts_len, msg,
                                              version);
        }
        struct ofp14_flow_update_full *ofuf
            = (void *) ((char *) msg->data + start);
        ofuf->length = htons(msg->size - start);
        ofuf->event = htons(update->event);
        ofuf->table_id = update->table_id;
        ofuf->reason = update->reason;
        ofuf->idle_timeout = htons(update->idle_timeout);
        ofuf->hard_timeout = htons(update->hard_timeout);
        ofuf->priority = htons(update->priority);
        ofuf->cookie = update->cookie;
    } else {
        ofpbuf_put_zeros(msg, sizeof(struct nx_flow_update_full));
        int match_len;
        if (version < OFP13_VERSION) {
            match_len = nx_put_match(msg, &update->match, 0, 0);
            if (update->ofpacts_len) {
                ofpacts_put_openflow_actions(update->ofpacts,
                                             update->ofpacts_len, msg,
                                             version);
            }
        } else {
            match_len = oxm_put_match(msg, &update->match, version);
            if (update->ofpacts_len) {
                ofpacts_put_openflow_instructions(update->ofpacts,
                                                  update->ofpacts_len, msg,
                                                  version);
            }
        }
        struct nx_flow_update_full *nfuf
            = (void *) ((char *) msg->data + start);
        nfuf->length = htons(msg->size - start);
        nfuf->event = htons(nx_event_from_ofp(update->event));
        nfuf->reason = htons(update->reason);
        nfuf->priority = htons(update->priority);
        nfuf->idle_timeout = htons(update->idle_timeout);
        nfuf->hard_timeout = htons(update->hard_timeout);
        nfuf->match_len = htons(match_len);
        nfuf->table_id = update->table_id;
        nfuf->cookie = update->cookie;
    }
    ofpmp_postappend(replies, start);
}

static const char *
event_name(enum ofp_flow_update_event event)
{
    switch (event) {
    case OFPFME_INITIAL: return "INITIAL";
    case OFPFME_ADDED: return "ADDED";
    case OFPFME_REMOVED: return "DELETED";
    case OFPFME_MODIFIED: return "MODIFIED";
    case OFPFME_ABBREV: return "ABBREV";
    case OFPFME_PAUSED: return "PAUSED";
    case OFPFME_RESUMED: return "RESUMED";
    }
    return "<unknown>";
}

void
ofputil_flow_update_format(struct ds *s,
                           const struct ofputil_flow_update *update,
                           const struct ofputil_port_map *port_map,
                           const struct ofputil_table_map *table_map)
{
    ds_put_format(s, "event=%s", event_name(update->event));
    if (update->event == OFPFME_ABBREV) {
        ds_put_format(s, " xid=%#"PRIx32, ntohl(update->xid));
        return;
    } else if (update->event == OFPFME_PAUSED
               || update->event == OFPFME_RESUMED) {
        return;
    } else if (update->event == OFPFME_REMOVED) {
        char buf[32];
        ds_put_format(s, " reason=%s", ofp_flow_removed_reason_to_string(
                          update->reason, buf, sizeof buf));
    }
    ds_put_cstr(s, " table=");
    ofputil_format_table(update->table_id, table_map, s);
    if (update->idle_timeout) {
        ds_put_format(s, " idle_timeout=%"PRIu16, update->idle_timeout);
    }
    if (update->hard_timeout) {
        ds_put_format(s, " hard_timeout=%"PRIu16, update->hard_timeout);
    }
    ds_put_format(s, " cookie=%#"PRIx64" ", ntohll(update->cookie));
    match_format(&update->match, port_map, s, OFP_DEFAULT_PRIORITY);
    if (update->ofpacts_len) {
        if (s->string[s->length - 1] != ' ') {
            ds_put_char(s, ' ');
        }
        ds_put_cstr(s, "actions=");
        ofpact_list_format(update->ofpacts, update->ofpacts_len, port_map,
                           table_map, s);
    } else {
        ds_chomp(s, ' ');
    }
}

enum ofperr
ofputil_flow_monitor_reply_print(struct ds *s, const struct ofp_header *oh,
                                 const struct ofputil_port_map *port_map,
                                 const struct ofputil_table_map *table_map)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 64);
    int retval;
    for (;;) {
        struct ofputil_flow_update update;
        ofpbuf_clear(&ofpacts);
        retval = ofputil_decode_flow_update(&update, &b, &ofpacts);
        if (retval) {
            break;
        }
        ds_put_cstr(s, "\n ");
        ofputil_flow_update_format(s, &update, port_map, table_map);
    }
    ofpbuf_uninit(&ofpacts);
    if (retval != EOF) {
        return retval;
    }
    ds_put_char(s, '\n');
    return 0;
}

/* Cancel, pause, resume. */

struct ofpbuf *
ofputil_encode_flow_monitor_cancel(uint32_t id, enum ofp_version version)
{
    if (version >= OFP14_VERSION) {
        struct ofputil_flow_monitor_request rq = {
            .id = id,
            .command = OFPFMC14_DELETE,
            .out_port = OFPP_NONE,
            .out_group = OFPG_ANY,
            .table_id = 0xff,
        };
        match_init_catchall(&rq.match);
        struct ofpbuf *msg = ofpbuf_new(64);
        ofputil_append_flow_monitor_request(&rq, msg, version);
        return msg;
    }
    struct ofpbuf *msg = ofpraw_alloc(version < OFP13_VERSION
                                      ? OFPRAW_NXT_FLOW_MONITOR_CANCEL
                                      : OFPRAW_ONFT13_FLOW_MONITOR_CANCEL,
                                      version, 0);
    struct nx_flow_monitor_cancel *nfmc = msg->msg;
    nfmc->id = htonl(id);
    return msg;
}

enum ofperr
ofputil_decode_flow_monitor_cancel(const struct ofp_header *oh, uint32_t *id)
{
    const struct nx_flow_monitor_cancel *nfmc = ofpmsg_body(oh);
    *id = ntohl(nfmc->id);
    return 0;
}

enum ofperr
ofputil_flow_monitor_cancel_print(struct ds *s, const struct ofp_header *oh)
{
    uint32_t id;
    enum ofperr error = ofputil_decode_flow_monitor_cancel(oh, &id);
    if (!error) {
        ds_put_format(s, " id=%"PRIu32"\n", id);
    }
    return error;
}

struct ofpbuf *
ofputil_encode_flow_monitor_pause(enum ofp_flow_update_event event,
                                  enum ofp_version version)
{
    ovs_assert(event == OFPFME_PAUSED || event == OFPFME_RESUMED);
    if (version < OFP14_VERSION) {
        bool paused = event == OFPFME_PAUSED;
        enum ofpraw raw = (version < OFP13_VERSION
                           ? (paused ? OFPRAW_NXT_FLOW_MONITOR_PAUSED
                              : OFPRAW_NXT_FLOW_MONITOR_RESUMED)
                           : (paused ? OFPRAW_ONFT13_FLOW_MONITOR_PAUSED
                              : OFPRAW_ONFT13_FLOW_MONITOR_RESUMED));
        return ofpraw_alloc_xid(raw, version, htonl(0), 0);
    }
    struct ovs_list replies;
    ofputil_start_flow_update_async(&replies, version);
    struct ofputil_flow_update update = { .event = event };
    ofputil_append_flow_update(&update, &replies);
    ovs_assert(ovs_list_is_singleton(&replies));
    return ofpbuf_from_list(ovs_list_pop_front(&replies));
}
