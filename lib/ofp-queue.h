/* ofp-queue: OpenFlow queue statistics and queue configuration, decoded.
 *
 * Queue statistics (OFPST_QUEUE): a request names a port (OFPP_ANY for
 * every port; 1.0 writes that as OFPP_ALL) and a queue (OFPQ_ALL for
 * every queue); the reply lists per queue its transmitted bytes, packets
 * and errors (UINT64_MAX: unknown) and, in 1.3+, how long it has existed.
 *
 * Queue configuration: in 1.0-1.3 OFPT_QUEUE_GET_CONFIG_REQUEST names a
 * port (1.1+ also OFPP_ANY) and its reply lists that port's queues with
 * their minimum and maximum rates; 1.4+ replaces both with the multipart
 * OFPST_QUEUE_DESC, whose request also names a queue.  Rates are in tenths
 * of a percent of the port's speed; OFPUTIL_QUEUE_RATE_NONE when a queue
 * has no such rate (no property on the wire).
 *
 * Decoders check every length and return the OpenFlow error Open vSwitch
 * 3.1 returns (OFPQOFC_BAD_PORT for a configuration request naming a
 * reserved port).  "pull" functions take one record off an ofpbuf and
 * return EOF when it is empty.  Encoders return ofpbufs the caller owns.
 *
 * Threads: pure functions. */
#ifndef OFP_QUEUE_H
#define OFP_QUEUE_H 1

#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "openflow.h"

struct ds;
struct ofpbuf;
struct ofputil_port_map;
struct ovs_list;

#define OFPQ_ALL 0xffffffff

/* Queue statistics. */
struct ofputil_queue_stats_request {
    uint32_t port_no;           /* OFPP_ANY: every port. */
    uint32_t queue_id;          /* OFPQ_ALL: every queue. */
};

struct ofpbuf *ofputil_encode_queue_stats_request(
    enum ofp_version, const struct ofputil_queue_stats_request *);
enum ofperr ofputil_decode_queue_stats_request(
    const struct ofp_header *, struct ofputil_queue_stats_request *);
/* " port=LOCAL queue=ALL" as 3.1 prints a request. */
void ofputil_queue_stats_request_format(
    struct ds *, const struct ofputil_queue_stats_request *,
    const struct ofputil_port_map *);

struct ofputil_queue_stats {
    uint32_t port_no;
    uint32_t queue_id;
    uint64_t tx_bytes, tx_packets, tx_errors;   /* UINT64_MAX: unknown. */
    uint32_t duration_sec, duration_nsec;       /* UINT32_MAX: unknown. */
};

/* Appends QS to the multipart reply REPLIES (ofpmp_init()). */
void ofputil_append_queue_stat(struct ovs_list *replies,
                               const struct ofputil_queue_stats *qs);
/* Pulls one entry from a queue stats reply B (B->data at the message start
 * the first time).  Returns 0, EOF or an OpenFlow error. */
int ofputil_decode_queue_stats(struct ofputil_queue_stats *,
                               struct ofpbuf *b);
/* "  port 1 queue 0: bytes=..., pkts=..., errors=..., duration=...\n". */
void ofputil_queue_stats_format(struct ds *,
                                const struct ofputil_queue_stats *,
                                const struct ofputil_port_map *);

/* Queue configuration. */
#define OFPUTIL_QUEUE_RATE_NONE UINT16_MAX

struct ofputil_queue_config {
    uint32_t port;
    uint32_t queue;
    uint16_t min_rate, max_rate;    /* 1/10 %; OFPUTIL_QUEUE_RATE_NONE. */
};

/* A get-config (1.0-1.3) or queue desc (1.4+) request for PORT (OFPP_ANY:
 * every port; not in 1.0) and, 1.4+ only, QUEUE (OFPQ_ALL: every one). */
struct ofpbuf *ofputil_encode_queue_get_config_request(enum ofp_version,
                                                       uint32_t port,
                                                       uint32_t queue);
enum ofperr ofputil_decode_queue_get_config_request(const struct ofp_header *,
                                                    uint32_t *port,
                                                    uint32_t *queue);
/* Starts REPLIES, the answer to the get-config or queue desc REQUEST, and
 * appends each queue to it: one message before 1.4, a multipart reply
 * after. */
void ofputil_start_queue_get_config_reply(const struct ofp_header *request,
                                          struct ovs_list *replies);
void ofputil_append_queue_get_config_reply(const struct ofputil_queue_config *,
                                           struct ovs_list *replies);
/* Pulls one queue from reply B (B->data at the message start the first
 * time; before 1.4 every queue gets the port of the message).  Returns 0,
 * EOF or an OpenFlow error. */
int ofputil_pull_queue_get_config_reply(struct ofpbuf *b,
                                        struct ofputil_queue_config *);
/* The body of a get-config or queue desc request or reply as 3.1 prints
 * it (after the header line's colon). */
enum ofperr ofputil_queue_get_config_request_print(
    struct ds *, const struct ofp_header *, const struct ofputil_port_map *);
enum ofperr ofputil_queue_get_config_reply_print(
    struct ds *, const struct ofp_header *, const struct ofputil_port_map *);

#endif /* ofp-queue.h */
