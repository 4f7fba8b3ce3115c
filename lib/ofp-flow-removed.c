/* ofp-flow-removed: flow_removed messages in every version. */
#include <config.h>
#include "ofp-flow.h"

#include <string.h>
#include "dynamic-string.h"
#include "nx-match.h"
#include "ofp-match.h"
#include "ofp-msgs.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "util.h"

/* OpenFlow 1.5's flow_removed: this, the OXM match, OXS statistics. */
struct ofp15_flow_removed {
    uint8_t table_id;
    uint8_t reason;
    ovs_be16 priority;
    ovs_be16 idle_timeout;
    ovs_be16 hard_timeout;
    ovs_be64 cookie;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp15_flow_removed) == 16);

enum ofperr
ofputil_decode_flow_removed(struct ofputil_flow_removed *fr,
                            const struct ofp_header *oh)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofpraw raw;
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }

    memset(fr, 0, sizeof *fr);
    if (raw == OFPRAW_OFPT10_FLOW_REMOVED) {
        const struct ofp10_flow_removed *ofr = ofpbuf_pull(&b, sizeof *ofr);
        ofputil_match_from_ofp10_match(&ofr->match, &fr->match);
        ofputil_normalize_match_quiet(&fr->match);
        fr->priority = ntohs(ofr->priority);
        fr->reason = ofr->reason;
        fr->table_id = OFPTT_ALL;
        fr->cookie = ofr->cookie;
        fr->duration_sec = ntohl(ofr->duration_sec);
        fr->duration_nsec = ntohl(ofr->duration_nsec);
        fr->idle_timeout = ntohs(ofr->idle_timeout);
        fr->packet_count = ntohll(ofr->packet_count);
        fr->byte_count = ntohll(ofr->byte_count);
    } else if (raw == OFPRAW_OFPT11_FLOW_REMOVED
               && oh->version >= OFP15_VERSION) {
        const struct ofp15_flow_removed *ofr = ofpbuf_pull(&b, sizeof *ofr);
        error = oxm_pull_match(&b, &fr->match);
        if (error) {
            return error;
        }
        struct ofputil_oxs_stats st;
        error = ofputil_pull_oxs_stats(&b, &st);
        if (error) {
            return error;
        }
        fr->priority = ntohs(ofr->priority);
        fr->reason = ofr->reason;
        fr->table_id = ofr->table_id;
        fr->cookie = ofr->cookie;
        fr->duration_sec = st.duration_sec;
        fr->duration_nsec = st.duration_nsec;
        fr->idle_timeout = ntohs(ofr->idle_timeout);
        fr->hard_timeout = ntohs(ofr->hard_timeout);
        fr->packet_count = st.packet_count;
        fr->byte_count = st.byte_count;
    } else if (raw == OFPRAW_OFPT11_FLOW_REMOVED) {
        const struct ofp11_flow_removed *ofr = ofpbuf_pull(&b, sizeof *ofr);
        error = (oh->version == OFP11_VERSION
                 ? ofputil_pull_ofp11_match(&b, &fr->match)
                 : oxm_pull_match(&b, &fr->match));
        if (error) {
            return error;
        }
        fr->priority = ntohs(ofr->priority);
        fr->reason = ofr->reason;
        fr->table_id = ofr->table_id;
        fr->cookie = ofr->cookie;
        fr->duration_sec = ntohl(ofr->duration_sec);
        fr->duration_nsec = ntohl(ofr->duration_nsec);
        fr->idle_timeout = ntohs(ofr->idle_timeout);
        fr->hard_timeout = ntohs(ofr->hard_timeout);
        fr->packet_count = ntohll(ofr->packet_count);
        fr->byte_count = ntohll(ofr->byte_count);
    } else if (raw == OFPRAW_NXT_FLOW_REMOVED) {
        const struct nx_flow_removed *nfr = ofpbuf_pull(&b, sizeof *nfr);
        error = nx_pull_match(&b, ntohs(nfr->match_len), &fr->match,
                              NULL, NULL);
        if (error) {
            return error;
        }
        if (b.size) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        fr->priority = ntohs(nfr->priority);
        fr->reason = nfr->reason;
        fr->table_id = nfr->table_id ? nfr->table_id - 1 : OFPTT_ALL;
        fr->cookie = nfr->cookie;
        fr->duration_sec = ntohl(nfr->duration_sec);
        fr->duration_nsec = ntohl(nfr->duration_nsec);
        fr->idle_timeout = ntohs(nfr->idle_timeout);
        fr->packet_count = ntohll(nfr->packet_count);
        fr->byte_count = ntohll(nfr->byte_count);
    } else {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    return 0;
}

struct ofpbuf *
ofputil_encode_flow_removed(const struct ofputil_flow_removed *fr,
                            enum ofputil_protocol protocol)
{
    enum ofp_version version = ofputil_protocol_to_ofp_version(protocol);
    struct ofpbuf *msg;

    if (protocol & OFPUTIL_P_OF10_STD_ANY) {
        msg = ofpraw_alloc_xid(OFPRAW_OFPT10_FLOW_REMOVED, OFP10_VERSION,
                               htonl(0), 0);
        struct ofp10_flow_removed *ofr = msg->msg;
        ofputil_match_to_ofp10_match(&fr->match, &ofr->match);
        ofr->cookie = fr->cookie;
        ofr->priority = htons(fr->priority);
        ofr->reason = fr->reason;
        ofr->duration_sec = htonl(fr->duration_sec);
        ofr->duration_nsec = htonl(fr->duration_nsec);
        ofr->idle_timeout = htons(fr->idle_timeout);
        ofr->packet_count = htonll(fr->packet_count);
        ofr->byte_count = htonll(fr->byte_count);
    } else if (protocol & OFPUTIL_P_OF10_NXM_ANY) {
        msg = ofpraw_alloc_xid(OFPRAW_NXT_FLOW_REMOVED, OFP10_VERSION,
                               htonl(0), 0);
        size_t ofs = (uint8_t *) msg->msg - (uint8_t *) msg->data;
        int match_len = nx_put_match(msg, &fr->match, 0, 0);
        struct nx_flow_removed *nfr = ofpbuf_at_assert(msg, ofs,
                                                       sizeof *nfr);
        nfr->cookie = fr->cookie;
        nfr->priority = htons(fr->priority);
        nfr->reason = fr->reason;
        /* NXT_FLOW_REMOVED carries the table plus one, 0 for "unknown". */
        nfr->table_id = fr->table_id == OFPTT_ALL ? 0 : fr->table_id + 1;
        nfr->duration_sec = htonl(fr->duration_sec);
        nfr->duration_nsec = htonl(fr->duration_nsec);
        nfr->idle_timeout = htons(fr->idle_timeout);
        nfr->match_len = htons(match_len);
        nfr->packet_count = htonll(fr->packet_count);
        nfr->byte_count = htonll(fr->byte_count);
    } else if (version >= OFP15_VERSION) {
        msg = ofpraw_alloc_xid(OFPRAW_OFPT11_FLOW_REMOVED, version,
                               htonl(0), 64);
        /* The raw form reserves 1.1's 40 bytes; 1.5's fixed part is 16. */
        size_t ofs = (uint8_t *) msg->msg - (uint8_t *) msg->data;
        msg->size = ofs + sizeof(struct ofp15_flow_removed);
        oxm_put_match(msg, &fr->match, version);
        struct ofputil_oxs_stats st = {
            .duration_sec = fr->duration_sec,
            .duration_nsec = fr->duration_nsec,
            .idle_age = -1,
            .packet_count = fr->packet_count,
            .byte_count = fr->byte_count,
        };
        ofputil_put_oxs_stats(msg, &st, (OFPUTIL_OXS_DURATION
                                         | OFPUTIL_OXS_PACKET_COUNT
                                         | OFPUTIL_OXS_BYTE_COUNT));
        struct ofp15_flow_removed *ofr = ofpbuf_at_assert(msg, ofs,
                                                          sizeof *ofr);
        ofr->table_id = fr->table_id;
        ofr->reason = fr->reason;
        ofr->priority = htons(fr->priority);
        ofr->idle_timeout = htons(fr->idle_timeout);
        ofr->hard_timeout = htons(fr->hard_timeout);
        ofr->cookie = fr->cookie;
    } else {
        msg = ofpraw_alloc_xid(OFPRAW_OFPT11_FLOW_REMOVED, version,
                               htonl(0), 0);
        size_t ofs = (uint8_t *) msg->msg - (uint8_t *) msg->data;
        if (version == OFP11_VERSION) {
            struct ofp11_match *om = ofpbuf_put_uninit(msg, sizeof *om);
            ofputil_match_to_ofp11_match(&fr->match, om);
        } else {
            oxm_put_match(msg, &fr->match, version);
        }
        struct ofp11_flow_removed *ofr = ofpbuf_at_assert(msg, ofs,
                                                          sizeof *ofr);
        ofr->cookie = fr->cookie;
        ofr->priority = htons(fr->priority);
        ofr->reason = fr->reason;
        ofr->table_id = fr->table_id;
        ofr->duration_sec = htonl(fr->duration_sec);
        ofr->duration_nsec = htonl(fr->duration_nsec);
        ofr->idle_timeout = htons(fr->idle_timeout);
        ofr->hard_timeout = htons(fr->hard_timeout);
        ofr->packet_count = htonll(fr->packet_count);
        ofr->byte_count = htonll(fr->byte_count);
    }
    ofpmsg_update_length(msg);
    return msg;
}

const char *
ofp_flow_removed_reason_to_string(uint8_t reason, char *buf, size_t bufsize)
{
    switch (reason) {
    case OFPRR_IDLE_TIMEOUT: return "idle";
    case OFPRR_HARD_TIMEOUT: return "hard";
    case OFPRR_DELETE: return "delete";
    case OFPRR_GROUP_DELETE: return "group_delete";
    case OFPRR_EVICTION: return "eviction";
    case OFPRR_METER_DELETE: return "meter_delete";
    default:
        snprintf(buf, bufsize, "%d", (int) reason);
        return buf;
    }
}

void
ofputil_flow_removed_format(struct ds *s,
                            const struct ofputil_flow_removed *fr,
                            const struct ofputil_port_map *port_map,
                            const struct ofputil_table_map *table_map)
{
    char reasonbuf[16];
    ds_put_char(s, ' ');
    match_format(&fr->match, port_map, s, fr->priority);
    ds_put_format(s, " reason=%s",
                  ofp_flow_removed_reason_to_string(fr->reason, reasonbuf,
                                                    sizeof reasonbuf));
    if (fr->table_id != OFPTT_ALL) {
        ds_put_cstr(s, " table_id=");
        ofputil_format_table(fr->table_id, table_map, s);
    }
    if (fr->cookie) {
        ds_put_format(s, " cookie:0x%"PRIx64, ntohll(fr->cookie));
    }
    ds_put_cstr(s, " duration");
    ofputil_format_duration(s, fr->duration_sec, fr->duration_nsec);
    ds_put_format(s, " idle%"PRIu16, fr->idle_timeout);
    if (fr->hard_timeout) {
        ds_put_format(s, " hard%"PRIu16, fr->hard_timeout);
    }
    ds_put_format(s, " pkts%"PRIu64" bytes%"PRIu64,
                  fr->packet_count, fr->byte_count);
}

enum ofperr
ofputil_flow_removed_print(struct ds *s, const struct ofp_header *oh,
                           const struct ofputil_port_map *port_map,
                           const struct ofputil_table_map *table_map)
{
    struct ofputil_flow_removed fr;
    enum ofperr error = ofputil_decode_flow_removed(&fr, oh);
    if (!error) {
        ofputil_flow_removed_format(s, &fr, port_map, table_map);
    }
    return error;
}
