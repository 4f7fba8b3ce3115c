/* ofp-flow-stats: flow and aggregate statistics requests and replies. */
#include <config.h>
#include "ofp-flow.h"

#include <errno.h>
#include <string.h>
#include "dynamic-string.h"
#include "list.h"
#include "nx-match.h"
#include "ofp-actions.h"
#include "ofp-match.h"
#include "ofp-msgs.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_flow);

/* OpenFlow 1.5's flow stats entry: this, the OXM match, the OXS
 * statistics, the instructions. */
struct ofp15_flow_desc {
    ovs_be16 length;
    uint8_t pad[2];
    uint8_t table_id;
    uint8_t reason;
    ovs_be16 priority;
    ovs_be16 idle_timeout;
    ovs_be16 hard_timeout;
    ovs_be16 flags;
    ovs_be16 importance;
    ovs_be64 cookie;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp15_flow_desc) == 24);

void
ofputil_format_duration(struct ds *s, uint32_t sec, uint32_t nsec)
{
    /* 3.1's form: whole seconds alone; milliseconds as three decimals;
     * anything finer with as many decimals as it takes. */
    ds_put_uint(s, sec);
    if (nsec) {
        if (nsec % 1000000 == 0) {
            /* Every dumped flow has one: no printf here. */
            uint32_t ms = nsec / 1000000;
            char digits[4] = {
                '.', '0' + ms / 100, '0' + ms / 10 % 10, '0' + ms % 10
            };
            ds_put_buffer(s, digits, sizeof digits);
        } else {
            ds_put_format(s, ".%09"PRIu32, nsec);
            while (s->string[s->length - 1] == '0') {
                s->length--;
            }
            s->string[s->length] = '\0';
        }
    }
    ds_put_char(s, 's');
}

void
ofputil_format_flow_flags(struct ds *s, uint16_t flags)
{
    static const char *const names[] = {
        "send_flow_rem", "check_overlap", "reset_counts",
        "no_packet_counts", "no_byte_counts",
    };
    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        if (flags & (1u << i)) {
            ds_put_format(s, "%s ", names[i]);
        }
    }
}

/* OpenFlow 1.5's statistics (OXS): a 4-byte header (reserved, length)
 * and TLVs of class OFPXSC_OPENFLOW_BASIC (0x8002), padded to 8. */

#define OXS_CLASS 0x8002
enum { OXS_DURATION = 0, OXS_IDLE_TIME = 1, OXS_FLOW_COUNT = 3,
       OXS_PACKET_COUNT = 4, OXS_BYTE_COUNT = 5 };

static void
put_oxs(struct ofpbuf *b, unsigned int field, const void *value, size_t len)
{
    uint8_t header[4] = { OXS_CLASS >> 8, OXS_CLASS & 0xff, field << 1,
                          len };
    ofpbuf_put(b, header, sizeof header);
    ofpbuf_put(b, value, len);
}

static void
put_oxs_time(struct ofpbuf *b, unsigned int field, uint32_t sec,
             uint32_t nsec)
{
    ovs_be32 value[2] = { htonl(sec), htonl(nsec) };
    put_oxs(b, field, value, sizeof value);
}

static void
put_oxs_u64(struct ofpbuf *b, unsigned int field, uint64_t n)
{
    ovs_be64 value = htonll(n);
    put_oxs(b, field, &value, sizeof value);
}

/* Starts an OXS statistics block in B; returns where, for oxs_end(). */
static size_t
oxs_begin(struct ofpbuf *b)
{
    size_t start = b->size;
    ofpbuf_put_zeros(b, 4);
    return start;
}

/* Writes the length of the block that began at START and pads it. */
static void
oxs_end(struct ofpbuf *b, size_t start)
{
    uint8_t *h = ofpbuf_at_assert(b, start, 4);
    size_t len = b->size - start;
    h[2] = len >> 8;
    h[3] = len;
    ofpbuf_put_zeros(b, ROUND_UP(len, 8) - len);
}

void
ofputil_put_oxs_stats(struct ofpbuf *b, const struct ofputil_oxs_stats *st,
                      unsigned int fields)
{
    size_t start = oxs_begin(b);
    if (fields & OFPUTIL_OXS_DURATION) {
        put_oxs_time(b, OXS_DURATION, st->duration_sec, st->duration_nsec);
    }
    if (fields & OFPUTIL_OXS_IDLE_TIME && st->idle_age >= 0) {
        put_oxs_time(b, OXS_IDLE_TIME, st->idle_age, 0);
    }
    if (fields & OFPUTIL_OXS_FLOW_COUNT) {
        ovs_be32 n = htonl(st->flow_count);
        put_oxs(b, OXS_FLOW_COUNT, &n, sizeof n);
    }
    if (fields & OFPUTIL_OXS_PACKET_COUNT && st->packet_count != UINT64_MAX) {
        put_oxs_u64(b, OXS_PACKET_COUNT, st->packet_count);
    }
    if (fields & OFPUTIL_OXS_BYTE_COUNT && st->byte_count != UINT64_MAX) {
        put_oxs_u64(b, OXS_BYTE_COUNT, st->byte_count);
    }
    oxs_end(b, start);
}

enum ofperr
ofputil_pull_oxs_stats(struct ofpbuf *b, struct ofputil_oxs_stats *st)
{
    memset(st, 0, sizeof *st);
    st->idle_age = -1;
    st->packet_count = st->byte_count = UINT64_MAX;

    const uint8_t *h = ofpbuf_try_pull(b, 4);
    if (!h) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    size_t len = (h[2] << 8) | h[3];
    if (len < 4 || ROUND_UP(len, 8) - 4 > b->size) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    const uint8_t *p = ofpbuf_pull(b, ROUND_UP(len, 8) - 4);
    size_t left = len - 4;
    while (left) {
        if (left < 4 || 4 + (size_t) p[3] > left) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        unsigned int class = (p[0] << 8) | p[1];
        unsigned int field = p[2] >> 1;
        size_t vlen = p[3];
        const uint8_t *v = p + 4;
        if (class == OXS_CLASS) {
            ovs_be32 w[2];
            ovs_be64 q;
            switch (field) {
            case OXS_DURATION:
            case OXS_IDLE_TIME:
                if (vlen != 8) {
                    return OFPERR_OFPBRC_BAD_LEN;
                }
                memcpy(w, v, 8);
                if (field == OXS_DURATION) {
                    st->duration_sec = ntohl(w[0]);
                    st->duration_nsec = ntohl(w[1]);
                } else {
                    st->idle_age = MIN(ntohl(w[0]), INT32_MAX);
                }
                break;
            case OXS_FLOW_COUNT:
                if (vlen != 4) {
                    return OFPERR_OFPBRC_BAD_LEN;
                }
                memcpy(w, v, 4);
                st->flow_count = ntohl(w[0]);
                break;
            case OXS_PACKET_COUNT:
            case OXS_BYTE_COUNT:
                if (vlen != 8) {
                    return OFPERR_OFPBRC_BAD_LEN;
                }
                memcpy(&q, v, 8);
                *(field == OXS_PACKET_COUNT ? &st->packet_count
                  : &st->byte_count) = ntohll(q);
                break;
            default:
                break;
            }
        }
        p += 4 + vlen;
        left -= 4 + vlen;
    }
    return 0;
}

/* Requests. */

enum ofperr
ofputil_decode_flow_stats_request(struct ofputil_flow_stats_request *fsr,
                                  const struct ofp_header *oh)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofpraw raw;
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }

    memset(fsr, 0, sizeof *fsr);
    fsr->out_group = OFPG_ANY;
    switch ((int) raw) {
    case OFPRAW_OFPST10_FLOW_REQUEST:
    case OFPRAW_OFPST10_AGGREGATE_REQUEST: {
        const struct ofp10_flow_stats_request *r = ofpbuf_pull(&b, sizeof *r);
        fsr->aggregate = raw == OFPRAW_OFPST10_AGGREGATE_REQUEST;
        ofputil_match_from_ofp10_match(&r->match, &fsr->match);
        ofputil_normalize_match_quiet(&fsr->match);
        fsr->table_id = r->table_id;
        fsr->out_port = ntohs(r->out_port);
        break;
    }
    case OFPRAW_NXST_FLOW_REQUEST:
    case OFPRAW_NXST_AGGREGATE_REQUEST: {
        const struct nx_flow_stats_request *r = ofpbuf_pull(&b, sizeof *r);
        fsr->aggregate = raw == OFPRAW_NXST_AGGREGATE_REQUEST;
        error = nx_pull_match(&b, ntohs(r->match_len), &fsr->match,
                              &fsr->cookie, &fsr->cookie_mask);
        if (error) {
            return error;
        }
        if (b.size) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        fsr->table_id = r->table_id;
        fsr->out_port = ntohs(r->out_port);
        break;
    }
    case OFPRAW_OFPST11_FLOW_REQUEST:
    case OFPRAW_OFPST11_AGGREGATE_REQUEST: {
        const struct ofp11_flow_stats_request *r = ofpbuf_pull(&b, sizeof *r);
        fsr->aggregate = raw == OFPRAW_OFPST11_AGGREGATE_REQUEST;
        fsr->table_id = r->table_id;
        error = ofputil_port_from_ofp11(r->out_port, &fsr->out_port);
        if (error) {
            return error;
        }
        fsr->out_group = ntohl(r->out_group);
        fsr->cookie = r->cookie;
        fsr->cookie_mask = r->cookie_mask;
        error = (oh->version == OFP11_VERSION
                 ? ofputil_pull_ofp11_match(&b, &fsr->match)
                 : oxm_pull_match(&b, &fsr->match));
        if (error) {
            return error;
        }
        break;
    }
    default:
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    return 0;
}

struct ofpbuf *
ofputil_encode_flow_stats_request(const struct ofputil_flow_stats_request *fsr,
                                  enum ofputil_protocol protocol)
{
    enum ofp_version version = ofputil_protocol_to_ofp_version(protocol);
    struct ofpbuf *msg;

    if (protocol & OFPUTIL_P_OF10_STD_ANY) {
        msg = ofpraw_alloc(fsr->aggregate ? OFPRAW_OFPST10_AGGREGATE_REQUEST
                           : OFPRAW_OFPST10_FLOW_REQUEST, OFP10_VERSION, 0);
        struct ofp10_flow_stats_request *r = msg->msg;
        ofputil_match_to_ofp10_match(&fsr->match, &r->match);
        r->table_id = fsr->table_id;
        r->out_port = htons(fsr->out_port);
    } else if (protocol & OFPUTIL_P_OF10_NXM_ANY) {
        msg = ofpraw_alloc(fsr->aggregate ? OFPRAW_NXST_AGGREGATE_REQUEST
                           : OFPRAW_NXST_FLOW_REQUEST, OFP10_VERSION, 0);
        size_t ofs = (uint8_t *) msg->msg - (uint8_t *) msg->data;
        int match_len = nx_put_match(msg, &fsr->match, fsr->cookie,
                                     fsr->cookie_mask);
        struct nx_flow_stats_request *r = ofpbuf_at_assert(msg, ofs,
                                                           sizeof *r);
        r->out_port = htons(fsr->out_port);
        r->match_len = htons(match_len);
        r->table_id = fsr->table_id;
    } else {
        msg = ofpraw_alloc(fsr->aggregate ? OFPRAW_OFPST11_AGGREGATE_REQUEST
                           : OFPRAW_OFPST11_FLOW_REQUEST, version, 0);
        size_t ofs = (uint8_t *) msg->msg - (uint8_t *) msg->data;
        if (version == OFP11_VERSION) {
            struct ofp11_match *om = ofpbuf_put_uninit(msg, sizeof *om);
            ofputil_match_to_ofp11_match(&fsr->match, om);
        } else {
            oxm_put_match(msg, &fsr->match, version);
        }
        struct ofp11_flow_stats_request *r = ofpbuf_at_assert(msg, ofs,
                                                              sizeof *r);
        r->table_id = fsr->table_id;
        r->out_port = ofputil_port_to_ofp11(fsr->out_port);
        r->out_group = htonl(fsr->out_group);
        r->cookie = fsr->cookie;
        r->cookie_mask = fsr->cookie_mask;
    }
    ofpmsg_update_length(msg);
    return msg;
}

void
ofputil_flow_stats_request_format(struct ds *s,
                                  const struct ofputil_flow_stats_request *fsr,
                                  const struct ofputil_port_map *port_map,
                                  const struct ofputil_table_map *table_map)
{
    if (fsr->table_id != OFPTT_ALL) {
        ds_put_cstr(s, " table=");
        ofputil_format_table(fsr->table_id, table_map, s);
    }
    if (fsr->out_port != OFPP_ANY) {
        ds_put_cstr(s, " out_port=");
        ofputil_format_port(fsr->out_port, port_map, s);
    }
    size_t before = s->length;
    ds_put_char(s, ' ');
    match_format(&fsr->match, port_map, s, OFP_DEFAULT_PRIORITY);
    if (s->length == before + 1) {
        ds_truncate(s, before);
    }
}

enum ofperr
ofputil_flow_stats_request_print(struct ds *s, const struct ofp_header *oh,
                                 const struct ofputil_port_map *port_map,
                                 const struct ofputil_table_map *table_map)
{
    struct ofputil_flow_stats_request fsr;
    enum ofperr error = ofputil_decode_flow_stats_request(&fsr, oh);
    if (!error) {
        ofputil_flow_stats_request_format(s, &fsr, port_map, table_map);
    }
    return error;
}

/* Replies. */

int
ofputil_decode_flow_stats_reply(struct ofputil_flow_stats *fs,
                                struct ofpbuf *msg, bool flow_age_extension,
                                struct ofpbuf *ofpacts)
{
    enum ofpraw raw;
    enum ofperr error = (msg->header ? ofpraw_decode(&raw, msg->header)
                         : ofpraw_pull(&raw, msg));
    if (error) {
        return error;
    }
    const struct ofp_header *oh = msg->header;
    enum ofp_version version = oh->version;

    if (!msg->size) {
        return EOF;
    }

    memset(fs, 0, sizeof *fs);
    fs->idle_age = -1;
    fs->hard_age = -1;
    size_t instructions_len;

    if (raw == OFPRAW_OFPST13_FLOW_REPLY && version >= OFP15_VERSION) {
        /* 1.5: struct ofp15_flow_desc, match, OXS statistics,
         * instructions. */
        const struct ofp15_flow_desc *ofd = ofpbuf_try_pull(msg,
                                                            sizeof *ofd);
        if (!ofd) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        size_t length = ntohs(ofd->length);
        if (length < sizeof *ofd || length - sizeof *ofd > msg->size) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        size_t before = msg->size;
        error = oxm_pull_match_loose(msg, &fs->match);
        if (error) {
            return error;
        }
        struct ofputil_oxs_stats st;
        error = ofputil_pull_oxs_stats(msg, &st);
        if (error) {
            return error;
        }
        size_t used = before - msg->size;
        if (length < sizeof *ofd + used) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        instructions_len = length - sizeof *ofd - used;
        fs->table_id = ofd->table_id;
        fs->priority = ntohs(ofd->priority);
        fs->idle_timeout = ntohs(ofd->idle_timeout);
        fs->hard_timeout = ntohs(ofd->hard_timeout);
        fs->flags = ntohs(ofd->flags);
        fs->importance = ntohs(ofd->importance);
        fs->cookie = ofd->cookie;
        fs->duration_sec = st.duration_sec;
        fs->duration_nsec = st.duration_nsec;
        fs->idle_age = st.idle_age;
        fs->packet_count = st.packet_count;
        fs->byte_count = st.byte_count;
    } else if (raw == OFPRAW_OFPST11_FLOW_REPLY
               || raw == OFPRAW_OFPST13_FLOW_REPLY) {
        const struct ofp11_flow_stats *ofs = ofpbuf_try_pull(msg,
                                                             sizeof *ofs);
        if (!ofs) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        size_t length = ntohs(ofs->length);
        if (length < sizeof *ofs || length - sizeof *ofs > msg->size) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        size_t before = msg->size;
        const struct ofp11_match_header *omh
            = msg->size >= sizeof *omh ? msg->data : NULL;
        error = (omh && omh->type == htons(OFPMT_STANDARD)
                 ? ofputil_pull_ofp11_match(msg, &fs->match)
                 : oxm_pull_match_loose(msg, &fs->match));
        if (error) {
            return error;
        }
        size_t match_len = before - msg->size;
        if (length < sizeof *ofs + match_len) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        instructions_len = length - sizeof *ofs - match_len;
        fs->table_id = ofs->table_id;
        fs->duration_sec = ntohl(ofs->duration_sec);
        fs->duration_nsec = ntohl(ofs->duration_nsec);
        fs->priority = ntohs(ofs->priority);
        fs->idle_timeout = ntohs(ofs->idle_timeout);
        fs->hard_timeout = ntohs(ofs->hard_timeout);
        if (version >= OFP13_VERSION) {
            fs->flags = ntohs(ofs->flags);
        }
        if (version >= OFP14_VERSION) {
            fs->importance = ntohs(ofs->importance);
        }
        fs->cookie = ofs->cookie;
        fs->packet_count = ntohll(ofs->packet_count);
        fs->byte_count = ntohll(ofs->byte_count);
    } else if (raw == OFPRAW_OFPST10_FLOW_REPLY) {
        const struct ofp10_flow_stats *ofs = ofpbuf_try_pull(msg,
                                                             sizeof *ofs);
        if (!ofs) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        size_t length = ntohs(ofs->length);
        if (length < sizeof *ofs || length - sizeof *ofs > msg->size) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        instructions_len = length - sizeof *ofs;
        ofputil_match_from_ofp10_match(&ofs->match, &fs->match);
        ofputil_normalize_match_quiet(&fs->match);
        fs->table_id = ofs->table_id;
        fs->duration_sec = ntohl(ofs->duration_sec);
        fs->duration_nsec = ntohl(ofs->duration_nsec);
        fs->priority = ntohs(ofs->priority);
        fs->idle_timeout = ntohs(ofs->idle_timeout);
        fs->hard_timeout = ntohs(ofs->hard_timeout);
        fs->cookie = ofs->cookie;
        fs->packet_count = ntohll(ofs->packet_count);
        fs->byte_count = ntohll(ofs->byte_count);
    } else if (raw == OFPRAW_NXST_FLOW_REPLY) {
        const struct nx_flow_stats *nfs = ofpbuf_try_pull(msg, sizeof *nfs);
        if (!nfs) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        size_t length = ntohs(nfs->length);
        size_t match_len = ntohs(nfs->match_len);
        if (length < sizeof *nfs + ROUND_UP(match_len, 8)
            || length - sizeof *nfs > msg->size) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        error = nx_pull_match_loose(msg, match_len, &fs->match, NULL, NULL);
        if (error) {
            return error;
        }
        instructions_len = length - sizeof *nfs - ROUND_UP(match_len, 8);
        fs->table_id = nfs->table_id;
        fs->duration_sec = ntohl(nfs->duration_sec);
        fs->duration_nsec = ntohl(nfs->duration_nsec);
        fs->priority = ntohs(nfs->priority);
        fs->idle_timeout = ntohs(nfs->idle_timeout);
        fs->hard_timeout = ntohs(nfs->hard_timeout);
        if (flow_age_extension) {
            /* The wire holds the age plus one, so that 0 means unknown. */
            if (nfs->idle_age) {
                fs->idle_age = ntohs(nfs->idle_age) - 1;
            }
            if (nfs->hard_age) {
                fs->hard_age = ntohs(nfs->hard_age) - 1;
            }
        }
        fs->cookie = nfs->cookie;
        fs->packet_count = ntohll(nfs->packet_count);
        fs->byte_count = ntohll(nfs->byte_count);
    } else {
        return OFPERR_OFPBRC_BAD_TYPE;
    }

    error = ofpacts_pull_openflow_instructions(msg, instructions_len,
                                               version, ofpacts);
    if (error) {
        return error;
    }
    fs->ofpacts = ofpacts->data;
    fs->ofpacts_len = ofpacts->size;
    return 0;
}

/* Ages on the NXST wire: seconds plus one, 0 for unknown, at most
 * UINT16_MAX. */
static ovs_be16
encode_age(int age)
{
    return (age < 0 ? htons(0)
            : age < UINT16_MAX ? htons(age + 1) : htons(UINT16_MAX));
}

void
ofputil_append_flow_stats_reply(const struct ofputil_flow_stats *fs,
                                struct ovs_list *replies)
{
    enum ofp_version version = ofpmp_version(replies);
    enum ofpraw raw = ofpmp_decode_raw(replies);
    struct ofpbuf *reply = ofpmp_reserve(replies, 256 + fs->ofpacts_len);
    size_t start_ofs = reply->size;

    if (raw == OFPRAW_OFPST13_FLOW_REPLY && version >= OFP15_VERSION) {
        ofpbuf_put_zeros(reply, sizeof(struct ofp15_flow_desc));
        oxm_put_match(reply, &fs->match, version);
        struct ofputil_oxs_stats st = {
            .duration_sec = fs->duration_sec,
            .duration_nsec = fs->duration_nsec,
            .idle_age = fs->idle_age,
            .packet_count = fs->packet_count,
            .byte_count = fs->byte_count,
        };
        ofputil_put_oxs_stats(reply, &st, (OFPUTIL_OXS_DURATION
                                           | OFPUTIL_OXS_IDLE_TIME
                                           | OFPUTIL_OXS_PACKET_COUNT
                                           | OFPUTIL_OXS_BYTE_COUNT));
        ofpacts_put_openflow_instructions(fs->ofpacts, fs->ofpacts_len,
                                          reply, version);
        struct ofp15_flow_desc *ofd = ofpbuf_at_assert(reply, start_ofs,
                                                       sizeof *ofd);
        ofd->length = htons(reply->size - start_ofs);
        ofd->table_id = fs->table_id;
        ofd->priority = htons(fs->priority);
        ofd->idle_timeout = htons(fs->idle_timeout);
        ofd->hard_timeout = htons(fs->hard_timeout);
        ofd->flags = htons(fs->flags);
        ofd->importance = htons(fs->importance);
        ofd->cookie = fs->cookie;
    } else if (raw == OFPRAW_OFPST11_FLOW_REPLY
               || raw == OFPRAW_OFPST13_FLOW_REPLY) {
        ofpbuf_put_zeros(reply, sizeof(struct ofp11_flow_stats));
        /* 3.1's switch answers 1.1 with an OXM match here (its requests
         * and flow_removed use the standard match), with NXM codes for
         * the fields whose OXM codes came in 1.2; so does this one, and
         * decoding takes either. */
        oxm_put_match(reply, &fs->match, version);
        ofpacts_put_openflow_instructions(fs->ofpacts, fs->ofpacts_len,
                                          reply, version);
        struct ofp11_flow_stats *ofs = ofpbuf_at_assert(reply, start_ofs,
                                                        sizeof *ofs);
        ofs->length = htons(reply->size - start_ofs);
        ofs->table_id = fs->table_id;
        ofs->duration_sec = htonl(fs->duration_sec);
        ofs->duration_nsec = htonl(fs->duration_nsec);
        ofs->priority = htons(fs->priority);
        ofs->idle_timeout = htons(fs->idle_timeout);
        ofs->hard_timeout = htons(fs->hard_timeout);
        if (version >= OFP13_VERSION) {
            ofs->flags = htons(fs->flags);
        }
        if (version >= OFP14_VERSION) {
            ofs->importance = htons(fs->importance);
        }
        ofs->cookie = fs->cookie;
        ofs->packet_count = htonll(fs->packet_count);
        ofs->byte_count = htonll(fs->byte_count);
    } else if (raw == OFPRAW_OFPST10_FLOW_REPLY) {
        ofpbuf_put_zeros(reply, sizeof(struct ofp10_flow_stats));
        ofpacts_put_openflow_actions(fs->ofpacts, fs->ofpacts_len, reply,
                                     OFP10_VERSION);
        struct ofp10_flow_stats *ofs = ofpbuf_at_assert(reply, start_ofs,
                                                        sizeof *ofs);
        ofs->length = htons(reply->size - start_ofs);
        ofs->table_id = fs->table_id;
        ofputil_match_to_ofp10_match(&fs->match, &ofs->match);
        ofs->duration_sec = htonl(fs->duration_sec);
        ofs->duration_nsec = htonl(fs->duration_nsec);
        ofs->priority = htons(fs->priority);
        ofs->idle_timeout = htons(fs->idle_timeout);
        ofs->hard_timeout = htons(fs->hard_timeout);
        ofs->cookie = fs->cookie;
        ofs->packet_count = htonll(fs->packet_count);
        ofs->byte_count = htonll(fs->byte_count);
    } else {
        ovs_assert(raw == OFPRAW_NXST_FLOW_REPLY);
        ofpbuf_put_zeros(reply, sizeof(struct nx_flow_stats));
        int match_len = nx_put_match(reply, &fs->match, 0, 0);
        ofpacts_put_openflow_actions(fs->ofpacts, fs->ofpacts_len, reply,
                                     OFP10_VERSION);
        struct nx_flow_stats *nfs = ofpbuf_at_assert(reply, start_ofs,
                                                     sizeof *nfs);
        nfs->length = htons(reply->size - start_ofs);
        nfs->table_id = fs->table_id;
        nfs->duration_sec = htonl(fs->duration_sec);
        nfs->duration_nsec = htonl(fs->duration_nsec);
        nfs->priority = htons(fs->priority);
        nfs->idle_timeout = htons(fs->idle_timeout);
        nfs->hard_timeout = htons(fs->hard_timeout);
        nfs->match_len = htons(match_len);
        nfs->idle_age = encode_age(fs->idle_age);
        nfs->hard_age = encode_age(fs->hard_age);
        nfs->cookie = fs->cookie;
        nfs->packet_count = htonll(fs->packet_count);
        nfs->byte_count = htonll(fs->byte_count);
    }
    /* An entry that no message could hold (a 16-bit length) is left out
     * of the reply, as 3.1 does; the rest of the dump goes on. */
    size_t header_size = (char *) reply->msg - (char *) reply->data;
    if (reply->size - start_ofs > UINT16_MAX - header_size) {
        reply->size = start_ofs;
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
        VLOG_WARN_RL(&rl, "Flow exceeded the maximum flow statistics reply "
                     "size and was excluded from the response set");
    }
    ofpmp_postappend(replies, start_ofs);
}

static void
format_count(struct ds *s, const char *name, uint64_t count)
{
    ds_put_cstr(s, name);
    ds_put_char(s, '=');
    if (count == UINT64_MAX) {
        ds_put_char(s, '?');
    } else {
        ds_put_uint(s, count);
    }
    ds_put_cstr(s, ", ");
}

void
ofputil_flow_stats_format(struct ds *s, const struct ofputil_flow_stats *fs,
                          const struct ofputil_port_map *port_map,
                          const struct ofputil_table_map *table_map,
                          bool show_stats)
{
    if (show_stats || fs->cookie) {
        ds_put_format(s, " cookie=0x%"PRIx64", ", ntohll(fs->cookie));
    } else {
        ds_put_char(s, ' ');
    }
    if (show_stats) {
        ds_put_cstr(s, "duration=");
        ofputil_format_duration(s, fs->duration_sec, fs->duration_nsec);
        ds_put_cstr(s, ", ");
    }
    bool named_table = false;
    if (table_map) {
        struct ds name = DS_EMPTY_INITIALIZER;
        ofputil_format_table(fs->table_id, table_map, &name);
        char number[4];
        snprintf(number, sizeof number, "%"PRIu8, fs->table_id);
        named_table = strcmp(ds_cstr(&name), number) != 0;
        ds_destroy(&name);
    }
    if (show_stats || fs->table_id || named_table) {
        ds_put_cstr(s, "table=");
        ofputil_format_table(fs->table_id, table_map, s);
        ds_put_cstr(s, ", ");
    }
    if (show_stats) {
        format_count(s, "n_packets", fs->packet_count);
        format_count(s, "n_bytes", fs->byte_count);
    }
    if (fs->idle_timeout) {
        ds_put_cstr(s, "idle_timeout=");
        ds_put_uint(s, fs->idle_timeout);
        ds_put_cstr(s, ", ");
    }
    if (fs->hard_timeout) {
        ds_put_cstr(s, "hard_timeout=");
        ds_put_uint(s, fs->hard_timeout);
        ds_put_cstr(s, ", ");
    }
    ofputil_format_flow_flags(s, fs->flags);
    if (fs->importance) {
        ds_put_cstr(s, "importance=");
        ds_put_uint(s, fs->importance);
        ds_put_cstr(s, ", ");
    }
    if (show_stats && fs->idle_age >= 0) {
        ds_put_cstr(s, "idle_age=");
        ds_put_uint(s, fs->idle_age);
        ds_put_cstr(s, ", ");
    }
    if (show_stats && fs->hard_age >= 0
        && (uint32_t) fs->hard_age != fs->duration_sec) {
        ds_put_cstr(s, "hard_age=");
        ds_put_uint(s, fs->hard_age);
        ds_put_cstr(s, ", ");
    }

    size_t before = s->length;
    match_format(&fs->match, port_map, s, fs->priority);
    if (s->length != before) {
        ds_put_char(s, ' ');
    }
    ds_put_cstr(s, "actions=");
    ofpact_list_format(fs->ofpacts, fs->ofpacts_len, port_map, table_map, s);
}

enum ofperr
ofputil_flow_stats_reply_print(struct ds *s, const struct ofp_header *oh,
                               const struct ofputil_port_map *port_map,
                               const struct ofputil_table_map *table_map)
{
    struct ofpbuf b, ofpacts;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    ofpbuf_init(&ofpacts, 64);
    enum ofperr error = 0;
    for (;;) {
        struct ofputil_flow_stats fs;
        ofpbuf_clear(&ofpacts);
        int retval = ofputil_decode_flow_stats_reply(&fs, &b, true, &ofpacts);
        if (retval) {
            if (retval != EOF) {
                error = retval;
            }
            break;
        }
        ds_put_char(s, '\n');
        ofputil_flow_stats_format(s, &fs, port_map, table_map, true);
    }
    ofpbuf_uninit(&ofpacts);
    return error;
}

/* Aggregate statistics. */

struct ofpbuf *
ofputil_encode_aggregate_stats_reply(const struct ofputil_aggregate_stats *as,
                                     const struct ofp_header *request)
{
    struct ofpbuf *msg = ofpraw_alloc_stats_reply(request, 0);
    if (request->version >= OFP15_VERSION) {
        /* 1.5's ofp_stats, in 3.1's order: packets, bytes, flows. */
        size_t start = oxs_begin(msg);
        put_oxs_u64(msg, OXS_PACKET_COUNT, as->packet_count);
        put_oxs_u64(msg, OXS_BYTE_COUNT, as->byte_count);
        ovs_be32 n = htonl(as->flow_count);
        put_oxs(msg, OXS_FLOW_COUNT, &n, sizeof n);
        oxs_end(msg, start);
    } else {
        struct ofp_aggregate_stats_reply *r = msg->msg;
        r->packet_count = htonll(as->packet_count);
        r->byte_count = htonll(as->byte_count);
        r->flow_count = htonl(as->flow_count);
    }
    ofpmsg_update_length(msg);
    return msg;
}

enum ofperr
ofputil_decode_aggregate_stats_reply(struct ofputil_aggregate_stats *as,
                                     const struct ofp_header *oh)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofpraw raw;
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }
    if (raw == OFPRAW_OFPST15_AGGREGATE_REPLY) {
        struct ofputil_oxs_stats st;
        error = ofputil_pull_oxs_stats(&b, &st);
        if (error) {
            return error;
        }
        as->packet_count = st.packet_count;
        as->byte_count = st.byte_count;
        as->flow_count = st.flow_count;
        return 0;
    }
    if (raw != OFPRAW_OFPST_AGGREGATE_REPLY
        && raw != OFPRAW_NXST_AGGREGATE_REPLY) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    const struct ofp_aggregate_stats_reply *r = ofpbuf_try_pull(&b,
                                                                sizeof *r);
    if (!r) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    as->packet_count = ntohll(r->packet_count);
    as->byte_count = ntohll(r->byte_count);
    as->flow_count = ntohl(r->flow_count);
    return 0;
}

void
ofputil_aggregate_stats_format(struct ds *s,
                               const struct ofputil_aggregate_stats *as)
{
    ds_put_format(s, " packet_count=%"PRIu64" byte_count=%"PRIu64
                  " flow_count=%"PRIu32,
                  as->packet_count, as->byte_count, as->flow_count);
}

enum ofperr
ofputil_aggregate_stats_reply_print(struct ds *s, const struct ofp_header *oh)
{
    struct ofputil_aggregate_stats as;
    enum ofperr error = ofputil_decode_aggregate_stats_reply(&as, oh);
    if (!error) {
        ofputil_aggregate_stats_format(s, &as);
    }
    return error;
}
