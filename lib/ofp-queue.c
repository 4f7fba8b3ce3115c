/* ofp-queue: queue statistics and configuration.  See ofp-queue.h. */
#include <config.h>

#include "ofp-queue.h"

#include <errno.h>
#include <string.h>
#include "dynamic-string.h"
#include "list.h"
#include "ofp-flow.h"
#include "ofp-msgs.h"
#include "ofp-port.h"
#include "ofp-prop.h"
#include "ofpbuf.h"
#include "util.h"

/* Wire layouts. */
struct ofp10_queue_stats_request {
    ovs_be16 port_no;
    uint8_t pad[2];
    ovs_be32 queue_id;
} __attribute__((packed));

struct ofp11_queue_stats_request {
    ovs_be32 port_no;
    ovs_be32 queue_id;
} __attribute__((packed));

/* 1.0's entry: a 16-bit port, then the counters (4-byte aligned). */
struct ofp10_queue_stats {
    ovs_be16 port_no;
    uint8_t pad[2];
    ovs_be32 queue_id;
    ovs_be64 tx_bytes, tx_packets, tx_errors;
} __attribute__((packed));

/* 1.1-1.2; 1.3 adds the duration; 1.4 puts a length first and may add
 * properties. */
struct ofp11_queue_stats {
    ovs_be32 port_no;
    ovs_be32 queue_id;
    ovs_be64 tx_bytes, tx_packets, tx_errors;
} __attribute__((packed));

struct ofp13_queue_stats {
    struct ofp11_queue_stats qs;
    ovs_be32 duration_sec, duration_nsec;
} __attribute__((packed));

struct ofp14_queue_stats {
    ovs_be16 length;
    uint8_t pad[6];
    struct ofp13_queue_stats qs;
} __attribute__((packed));

struct ofp10_queue_get_config_request {
    ovs_be16 port;
    uint8_t pad[2];
} __attribute__((packed));

struct ofp11_queue_get_config_request {
    ovs_be32 port;
    uint8_t pad[4];
} __attribute__((packed));

struct ofp10_queue_get_config_reply {
    ovs_be16 port;
    uint8_t pad[6];
} __attribute__((packed));

struct ofp11_queue_get_config_reply {
    ovs_be32 port;
    uint8_t pad[4];
} __attribute__((packed));

/* A queue in a 1.0 or 1.1 get-config reply, then its properties. */
struct ofp10_packet_queue {
    ovs_be32 queue_id;
    ovs_be16 len;
    uint8_t pad[2];
} __attribute__((packed));

/* 1.2 and 1.3. */
struct ofp12_packet_queue {
    ovs_be32 queue_id;
    ovs_be32 port;
    ovs_be16 len;
    uint8_t pad[6];
} __attribute__((packed));

/* A rate property of a 1.0-1.3 queue (OFPQT_MIN_RATE, 1.2+ MAX_RATE). */
struct ofp10_queue_prop_rate {
    ovs_be16 property;
    ovs_be16 len;
    uint8_t pad[4];
    ovs_be16 rate;
    uint8_t pad2[6];
} __attribute__((packed));

enum { OFPQT_MIN_RATE = 1, OFPQT_MAX_RATE = 2 };

struct ofp14_queue_desc_request {
    ovs_be32 port;
    ovs_be32 queue;
} __attribute__((packed));

struct ofp14_queue_desc {
    ovs_be32 port_no;
    ovs_be32 queue_id;
    ovs_be16 len;
    uint8_t pad[6];
} __attribute__((packed));

/* A rate property of a 1.4+ queue description. */
struct ofp14_queue_desc_prop_rate {
    ovs_be16 type;
    ovs_be16 length;
    ovs_be16 rate;
    uint8_t pad[2];
} __attribute__((packed));

enum { OFPQDPT14_MIN_RATE = 1, OFPQDPT14_MAX_RATE = 2 };

/* Queue statistics. */

struct ofpbuf *
ofputil_encode_queue_stats_request(
    enum ofp_version version, const struct ofputil_queue_stats_request *rq)
{
    struct ofpbuf *b;
    if (version == OFP10_VERSION) {
        b = ofpraw_alloc(OFPRAW_OFPST10_QUEUE_REQUEST, version, 0);
        struct ofp10_queue_stats_request *req = b->msg;
        /* 1.0 says "every port" with OFPP_ALL. */
        req->port_no = htons(rq->port_no == OFPP_ANY ? OFPP_ALL
                             : rq->port_no);
        req->queue_id = htonl(rq->queue_id);
    } else {
        b = ofpraw_alloc(OFPRAW_OFPST11_QUEUE_REQUEST, version, 0);
        struct ofp11_queue_stats_request *req = b->msg;
        req->port_no = ofputil_port_to_ofp11(rq->port_no);
        req->queue_id = htonl(rq->queue_id);
    }
    return b;
}

enum ofperr
ofputil_decode_queue_stats_request(const struct ofp_header *oh,
                                   struct ofputil_queue_stats_request *rq)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error = ofpmsg_pull_body(oh, &b, &raw);
    if (error) {
        return error;
    }
    if (raw == OFPRAW_OFPST10_QUEUE_REQUEST) {
        const struct ofp10_queue_stats_request *req = b.msg;
        uint16_t port = ntohs(req->port_no);
        rq->port_no = port == OFPP_ALL ? OFPP_ANY : port;
        rq->queue_id = ntohl(req->queue_id);
        return 0;
    } else if (raw == OFPRAW_OFPST11_QUEUE_REQUEST) {
        const struct ofp11_queue_stats_request *req = b.msg;
        rq->queue_id = ntohl(req->queue_id);
        return ofputil_port_from_ofp11(req->port_no, &rq->port_no);
    }
    return OFPERR_OFPBRC_BAD_TYPE;
}

static void
format_queue_id(struct ds *s, uint32_t queue)
{
    if (queue == OFPQ_ALL) {
        ds_put_cstr(s, "ALL");
    } else {
        ds_put_format(s, "%"PRIu32, queue);
    }
}

void
ofputil_queue_stats_request_format(
    struct ds *s, const struct ofputil_queue_stats_request *rq,
    const struct ofputil_port_map *port_map)
{
    ds_put_cstr(s, " port=");
    ofputil_format_port(rq->port_no, port_map, s);
    ds_put_cstr(s, " queue=");
    format_queue_id(s, rq->queue_id);
}

static void
counters_to_wire(const struct ofputil_queue_stats *qs,
                 struct ofp11_queue_stats *w)
{
    w->port_no = ofputil_port_to_ofp11(qs->port_no);
    w->queue_id = htonl(qs->queue_id);
    w->tx_bytes = htonll(qs->tx_bytes);
    w->tx_packets = htonll(qs->tx_packets);
    w->tx_errors = htonll(qs->tx_errors);
}

void
ofputil_append_queue_stat(struct ovs_list *replies,
                          const struct ofputil_queue_stats *qs)
{
    enum ofp_version version = ofpmp_version(replies);
    if (version == OFP10_VERSION) {
        struct ofp10_queue_stats *w = ofpmp_append(replies, sizeof *w);
        memset(w, 0, sizeof *w);
        w->port_no = htons(qs->port_no);
        w->queue_id = htonl(qs->queue_id);
        w->tx_bytes = htonll(qs->tx_bytes);
        w->tx_packets = htonll(qs->tx_packets);
        w->tx_errors = htonll(qs->tx_errors);
    } else if (version <= OFP12_VERSION) {
        struct ofp11_queue_stats *w = ofpmp_append(replies, sizeof *w);
        counters_to_wire(qs, w);
    } else {
        struct ofp13_queue_stats *w;
        if (version == OFP13_VERSION) {
            w = ofpmp_append(replies, sizeof *w);
        } else {
            struct ofp14_queue_stats *w14 = ofpmp_append(replies,
                                                         sizeof *w14);
            memset(w14, 0, sizeof *w14);
            w14->length = htons(sizeof *w14);
            w = &w14->qs;
        }
        counters_to_wire(qs, &w->qs);
        w->duration_sec = htonl(qs->duration_sec);
        w->duration_nsec = htonl(qs->duration_nsec);
    }
}

int
ofputil_decode_queue_stats(struct ofputil_queue_stats *qs, struct ofpbuf *b)
{
    memset(qs, 0, sizeof *qs);
    qs->duration_sec = qs->duration_nsec = UINT32_MAX;

    enum ofpraw raw;
    if (!b->header) {
        enum ofperr error = ofpraw_pull(&raw, b);
        if (error) {
            return error;
        }
    } else {
        enum ofperr error = ofpraw_decode(&raw, b->header);
        if (error) {
            return error;
        }
    }
    if (!b->size) {
        return EOF;
    }

    const struct ofp11_queue_stats *w;
    if (raw == OFPRAW_OFPST10_QUEUE_REPLY) {
        const struct ofp10_queue_stats *w10 = ofpbuf_try_pull(b,
                                                              sizeof *w10);
        if (!w10) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        qs->port_no = ntohs(w10->port_no);
        qs->queue_id = ntohl(w10->queue_id);
        qs->tx_bytes = ntohll(w10->tx_bytes);
        qs->tx_packets = ntohll(w10->tx_packets);
        qs->tx_errors = ntohll(w10->tx_errors);
        return 0;
    } else if (raw == OFPRAW_OFPST11_QUEUE_REPLY) {
        w = ofpbuf_try_pull(b, sizeof *w);
        if (!w) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
    } else if (raw == OFPRAW_OFPST13_QUEUE_REPLY
               || raw == OFPRAW_OFPST14_QUEUE_REPLY) {
        const struct ofp13_queue_stats *w13;
        if (raw == OFPRAW_OFPST13_QUEUE_REPLY) {
            w13 = ofpbuf_try_pull(b, sizeof *w13);
        } else {
            const struct ofp14_queue_stats *w14 = b->data;
            size_t len = b->size >= sizeof *w14 ? ntohs(w14->length) : 0;
            if (len < sizeof *w14 || len > b->size) {
                return OFPERR_OFPBRC_BAD_LEN;
            }
            /* Properties (none defined but experimenters') are skipped. */
            ofpbuf_pull(b, len);
            w13 = &w14->qs;
        }
        if (!w13) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        qs->duration_sec = ntohl(w13->duration_sec);
        qs->duration_nsec = ntohl(w13->duration_nsec);
        w = &w13->qs;
    } else {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    enum ofperr error = ofputil_port_from_ofp11(w->port_no, &qs->port_no);
    if (error) {
        return error;
    }
    qs->queue_id = ntohl(w->queue_id);
    qs->tx_bytes = ntohll(w->tx_bytes);
    qs->tx_packets = ntohll(w->tx_packets);
    qs->tx_errors = ntohll(w->tx_errors);
    return 0;
}

static void
format_count(struct ds *s, const char *name, uint64_t value)
{
    ds_put_format(s, "%s=", name);
    if (value == UINT64_MAX) {
        ds_put_char(s, '?');
    } else {
        ds_put_format(s, "%"PRIu64, value);
    }
    ds_put_cstr(s, ", ");
}

void
ofputil_queue_stats_format(struct ds *s, const struct ofputil_queue_stats *qs,
                           const struct ofputil_port_map *port_map)
{
    ds_put_cstr(s, "  port ");
    ofputil_format_port(qs->port_no, port_map, s);
    ds_put_cstr(s, " queue ");
    format_queue_id(s, qs->queue_id);
    ds_put_cstr(s, ": ");
    format_count(s, "bytes", qs->tx_bytes);
    format_count(s, "pkts", qs->tx_packets);
    format_count(s, "errors", qs->tx_errors);
    ds_put_cstr(s, "duration=");
    if (qs->duration_sec == UINT32_MAX) {
        ds_put_char(s, '?');
    } else {
        ofputil_format_duration(s, qs->duration_sec, qs->duration_nsec);
    }
    ds_put_char(s, '\n');
}

/* Queue configuration. */

struct ofpbuf *
ofputil_encode_queue_get_config_request(enum ofp_version version,
                                        uint32_t port, uint32_t queue)
{
    struct ofpbuf *b;
    if (version == OFP10_VERSION) {
        b = ofpraw_alloc(OFPRAW_OFPT10_QUEUE_GET_CONFIG_REQUEST, version, 0);
        struct ofp10_queue_get_config_request *req = b->msg;
        req->port = htons(port);
    } else if (version < OFP14_VERSION) {
        b = ofpraw_alloc(OFPRAW_OFPT11_QUEUE_GET_CONFIG_REQUEST, version, 0);
        struct ofp11_queue_get_config_request *req = b->msg;
        req->port = ofputil_port_to_ofp11(port);
    } else {
        b = ofpraw_alloc(OFPRAW_OFPST14_QUEUE_DESC_REQUEST, version, 0);
        struct ofp14_queue_desc_request *req = b->msg;
        req->port = ofputil_port_to_ofp11(port);
        req->queue = htonl(queue);
    }
    return b;
}

enum ofperr
ofputil_decode_queue_get_config_request(const struct ofp_header *oh,
                                        uint32_t *port, uint32_t *queue)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error = ofpmsg_pull_body(oh, &b, &raw);
    if (error) {
        return error;
    }
    *queue = OFPQ_ALL;
    if (raw == OFPRAW_OFPT10_QUEUE_GET_CONFIG_REQUEST) {
        const struct ofp10_queue_get_config_request *req = b.msg;
        *port = ntohs(req->port);
        /* 1.0 asks about one ordinary port at a time. */
        return *port < OFPP_MAX ? 0 : OFPERR_OFPQOFC_BAD_PORT;
    } else if (raw == OFPRAW_OFPT11_QUEUE_GET_CONFIG_REQUEST) {
        const struct ofp11_queue_get_config_request *req = b.msg;
        error = ofputil_port_from_ofp11(req->port, port);
        if (error) {
            return error;
        }
        return *port < OFPP_MAX || *port == OFPP_ANY
               ? 0 : OFPERR_OFPQOFC_BAD_PORT;
    } else if (raw == OFPRAW_OFPST14_QUEUE_DESC_REQUEST) {
        const struct ofp14_queue_desc_request *req = b.msg;
        *queue = ntohl(req->queue);
        return ofputil_port_from_ofp11(req->port, port);
    }
    return OFPERR_OFPBRC_BAD_TYPE;
}

void
ofputil_start_queue_get_config_reply(const struct ofp_header *request,
                                     struct ovs_list *replies)
{
    enum ofpraw raw;
    ovs_assert(!ofpraw_decode(&raw, request));
    if (raw == OFPRAW_OFPST14_QUEUE_DESC_REQUEST) {
        ofpmp_init(replies, request);
        return;
    }

    uint32_t port, queue;
    if (ofputil_decode_queue_get_config_request(request, &port, &queue)) {
        port = OFPP_ANY;
    }
    struct ofpbuf *reply;
    if (raw == OFPRAW_OFPT10_QUEUE_GET_CONFIG_REQUEST) {
        reply = ofpraw_alloc_reply(OFPRAW_OFPT10_QUEUE_GET_CONFIG_REPLY,
                                   request, 0);
        struct ofp10_queue_get_config_reply *r = reply->msg;
        r->port = htons(port);
    } else {
        reply = ofpraw_alloc_reply(OFPRAW_OFPT11_QUEUE_GET_CONFIG_REPLY,
                                   request, 0);
        struct ofp11_queue_get_config_reply *r = reply->msg;
        r->port = ofputil_port_to_ofp11(port);
    }
    ovs_list_init(replies);
    ovs_list_push_back(replies, &reply->list_node);
}

static void
put_rate10(struct ofpbuf *b, uint16_t property, uint16_t rate)
{
    if (rate != OFPUTIL_QUEUE_RATE_NONE) {
        struct ofp10_queue_prop_rate *p = ofpbuf_put_zeros(b, sizeof *p);
        p->property = htons(property);
        p->len = htons(sizeof *p);
        p->rate = htons(rate);
    }
}

static void
put_rate14(struct ofpbuf *b, uint16_t type, uint16_t rate)
{
    if (rate != OFPUTIL_QUEUE_RATE_NONE) {
        struct ofp14_queue_desc_prop_rate *p = ofpbuf_put_zeros(b,
                                                                sizeof *p);
        p->type = htons(type);
        p->length = htons(sizeof *p);
        p->rate = htons(rate);
    }
}

void
ofputil_append_queue_get_config_reply(const struct ofputil_queue_config *qc,
                                      struct ovs_list *replies)
{
    struct ofpbuf *reply = ofpbuf_from_list(ovs_list_back(replies));
    const struct ofp_header *oh = reply->header;
    enum ofp_version version = oh->version;

    if (version >= OFP14_VERSION) {
        uint64_t stub[64 / 8];
        struct ofpbuf entry;
        ofpbuf_use_stub(&entry, stub, sizeof stub);
        struct ofp14_queue_desc *d = ofpbuf_put_zeros(&entry, sizeof *d);
        d->port_no = ofputil_port_to_ofp11(qc->port);
        d->queue_id = htonl(qc->queue);
        put_rate14(&entry, OFPQDPT14_MIN_RATE, qc->min_rate);
        put_rate14(&entry, OFPQDPT14_MAX_RATE, qc->max_rate);
        d = entry.data;
        d->len = htons(entry.size);
        memcpy(ofpmp_append(replies, entry.size), entry.data, entry.size);
        ofpbuf_uninit(&entry);
        return;
    }

    size_t start = reply->size;
    if (version < OFP12_VERSION) {
        struct ofp10_packet_queue *q = ofpbuf_put_zeros(reply, sizeof *q);
        q->queue_id = htonl(qc->queue);
    } else {
        struct ofp12_packet_queue *q = ofpbuf_put_zeros(reply, sizeof *q);
        q->queue_id = htonl(qc->queue);
        q->port = ofputil_port_to_ofp11(qc->port);
    }
    put_rate10(reply, OFPQT_MIN_RATE, qc->min_rate);
    if (version >= OFP12_VERSION) {
        put_rate10(reply, OFPQT_MAX_RATE, qc->max_rate);
    }
    /* The queue's length field sits at the same offset in both forms'
     * first 8 bytes: after the 1.0 id, after the 1.2 id and port. */
    ovs_be16 len = htons(reply->size - start);
    size_t len_ofs = (version < OFP12_VERSION
                      ? offsetof(struct ofp10_packet_queue, len)
                      : offsetof(struct ofp12_packet_queue, len));
    memcpy((char *) reply->data + start + len_ofs, &len, sizeof len);
    ofpmsg_update_length(reply);
}

/* Reads the rate properties of a 1.0-1.3 queue (PROPS) into QC. */
static enum ofperr
pull_rates10(struct ofpbuf *props, struct ofputil_queue_config *qc)
{
    while (props->size) {
        const struct ofp10_queue_prop_rate *p = props->data;
        if (props->size < 8) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        size_t len = ntohs(p->len);
        if (len < 8 || len > props->size || len % 8) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        uint16_t property = ntohs(p->property);
        if (property == OFPQT_MIN_RATE || property == OFPQT_MAX_RATE) {
            if (len != sizeof *p) {
                return OFPERR_OFPBRC_BAD_LEN;
            }
            *(property == OFPQT_MIN_RATE ? &qc->min_rate : &qc->max_rate)
                = ntohs(p->rate);
        }
        ofpbuf_pull(props, len);
    }
    return 0;
}

static enum ofperr
pull_rates14(struct ofpbuf *props, struct ofputil_queue_config *qc)
{
    while (props->size) {
        struct ofpbuf prop;
        uint16_t type;
        enum ofperr error = ofpprop_pull(props, &prop, &type);
        if (error) {
            return error;
        }
        if (type == OFPQDPT14_MIN_RATE || type == OFPQDPT14_MAX_RATE) {
            const struct ofp14_queue_desc_prop_rate *p = prop.data;
            if (prop.size != sizeof *p) {
                return OFPERR_OFPBPC_BAD_LEN;
            }
            *(type == OFPQDPT14_MIN_RATE ? &qc->min_rate : &qc->max_rate)
                = ntohs(p->rate);
        }
    }
    return 0;
}

/* The port a 1.0-1.3 get-config reply B (already pulled) is about. */
static enum ofperr
queue_get_config_reply_port(const struct ofpbuf *b, uint32_t *port)
{
    const struct ofp_header *oh = b->header;
    if (oh->version == OFP10_VERSION) {
        const struct ofp10_queue_get_config_reply *r = b->msg;
        *port = ntohs(r->port);
        return 0;
    }
    const struct ofp11_queue_get_config_reply *r = b->msg;
    return ofputil_port_from_ofp11(r->port, port);
}

int
ofputil_pull_queue_get_config_reply(struct ofpbuf *b,
                                    struct ofputil_queue_config *qc)
{
    enum ofpraw raw;
    if (!b->header) {
        enum ofperr error = ofpraw_pull(&raw, b);
        if (error) {
            return error;
        }
        if (raw != OFPRAW_OFPST14_QUEUE_DESC_REPLY) {
            /* B->msg keeps pointing at the message's port. */
            ofpbuf_pull(b, 8);
        }
    } else {
        enum ofperr error = ofpraw_decode(&raw, b->header);
        if (error) {
            return error;
        }
    }
    if (!b->size) {
        return EOF;
    }

    qc->min_rate = qc->max_rate = OFPUTIL_QUEUE_RATE_NONE;
    enum ofp_version version = ((const struct ofp_header *) b->header)->version;
    struct ofpbuf props;
    if (raw == OFPRAW_OFPST14_QUEUE_DESC_REPLY) {
        const struct ofp14_queue_desc *d = b->data;
        size_t len = b->size >= sizeof *d ? ntohs(d->len) : 0;
        if (len < sizeof *d || len > b->size) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        ofpbuf_use_const(&props, d + 1, len - sizeof *d);
        ofpbuf_pull(b, len);
        qc->queue = ntohl(d->queue_id);
        enum ofperr error = ofputil_port_from_ofp11(d->port_no, &qc->port);
        return error ? error : pull_rates14(&props, qc);
    } else if (version < OFP12_VERSION) {
        const struct ofp10_packet_queue *q = b->data;
        size_t len = b->size >= sizeof *q ? ntohs(q->len) : 0;
        if (len < sizeof *q || len > b->size) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        ofpbuf_use_const(&props, q + 1, len - sizeof *q);
        ofpbuf_pull(b, len);
        qc->queue = ntohl(q->queue_id);
        enum ofperr error = queue_get_config_reply_port(b, &qc->port);
        if (error) {
            return error;
        }
    } else {
        const struct ofp12_packet_queue *q = b->data;
        size_t len = b->size >= sizeof *q ? ntohs(q->len) : 0;
        if (len < sizeof *q || len > b->size) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        ofpbuf_use_const(&props, q + 1, len - sizeof *q);
        ofpbuf_pull(b, len);
        qc->queue = ntohl(q->queue_id);
        enum ofperr error = queue_get_config_reply_port(b, &qc->port);
        if (error) {
            return error;
        }
    }
    return pull_rates10(&props, qc);
}

enum ofperr
ofputil_queue_get_config_request_print(struct ds *s,
                                       const struct ofp_header *oh,
                                       const struct ofputil_port_map *map)
{
    uint32_t port, queue;
    enum ofperr error = ofputil_decode_queue_get_config_request(oh, &port,
                                                                &queue);
    if (error) {
        return error;
    }
    ds_put_cstr(s, " port=");
    ofputil_format_port(port, map, s);
    if (queue != OFPQ_ALL) {
        ds_put_format(s, " queue=%"PRIu32, queue);
    }
    ds_put_char(s, '\n');
    return 0;
}

static void
format_rate(struct ds *s, const char *name, uint16_t rate)
{
    if (rate == OFPUTIL_QUEUE_RATE_NONE) {
        return;
    }
    ds_put_format(s, " %s:", name);
    if (rate <= 1000) {
        ds_put_format(s, "%u.%u%%", rate / 10, rate % 10);
    } else {
        ds_put_cstr(s, "(disabled)");
    }
}

enum ofperr
ofputil_queue_get_config_reply_print(struct ds *s,
                                     const struct ofp_header *oh,
                                     const struct ofputil_port_map *map)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));

    /* Each queue's port is printed where it changes (before 1.4 all of a
     * message's queues have its port). */
    uint32_t port = OFPP_NONE;
    bool first = true;
    for (;;) {
        struct ofputil_queue_config qc;
        int retval = ofputil_pull_queue_get_config_reply(&b, &qc);
        if (retval) {
            return retval == EOF ? 0 : retval;
        }
        if (first || qc.port != port) {
            ds_put_cstr(s, first ? " port=" : "port=");
            ofputil_format_port(qc.port, map, s);
            ds_put_char(s, '\n');
            port = qc.port;
        }
        first = false;
        ds_put_format(s, "queue %"PRIu32":", qc.queue);
        format_rate(s, "min_rate", qc.min_rate);
        format_rate(s, "max_rate", qc.max_rate);
        ds_put_char(s, '\n');
    }
}
