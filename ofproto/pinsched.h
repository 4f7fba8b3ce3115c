/* pinsched: the rate limit on packet_ins to one controller connection
 * (Controller:controller_rate_limit and controller_burst_limit).
 *
 * A token bucket fills at RATE packets per second up to BURST packets and
 * starts full.  A packet_in that finds a token and nothing queued goes out
 * at once ("bypassed"); otherwise it waits in the queue of its input port
 * ("queued").  The queues are drained round-robin across ports as tokens
 * come, so one busy port cannot starve the others.  When BURST packets
 * already wait, the oldest packet of the longest queue is dropped
 * ("dropped") to make room.  Counters and the backlog are what 3.1 shows
 * in Controller:status as packet-in-{miss,action}-{bypassed,queued,
 * dropped,backlog}.
 *
 * Time is the project's clock (time_msec()), so tests drive it with
 * time/warp; pinsched_wait() arms a timer only while packets wait, for the
 * moment the next token comes: an idle scheduler never wakes anyone.
 *
 * Threads: main thread only (the connection manager's).  The scheduler
 * owns the messages queued in it; those it hands back on a TXQ list are
 * the caller's. */
#ifndef OFPROTO_PINSCHED_H
#define OFPROTO_PINSCHED_H 1

#include <stdint.h>
#include "list.h"

struct ofpbuf;

struct pinsched_stats {
    uint64_t n_backlog;         /* Waiting now. */
    uint64_t n_bypassed;        /* Sent at once. */
    uint64_t n_queued;          /* Had to wait (some later dropped). */
    uint64_t n_dropped;         /* Dropped from a full queue. */
};

/* RATE packets per second (at most 1000 if RATE <= 0), BURST packets
 * (RATE / 4, at least 1, if BURST <= 0). */
struct pinsched *pinsched_create(int rate, int burst);
void pinsched_set_limits(struct pinsched *, int rate, int burst);
void pinsched_destroy(struct pinsched *);

/* Takes MSG, a packet_in for a packet received on PORT: appends it to TXQ
 * (a list of struct ofpbuf, by list_node) to be sent now, queues it, or
 * drops an older one to queue it. */
void pinsched_send(struct pinsched *, uint32_t port, struct ofpbuf *msg,
                   struct ovs_list *txq);
/* Appends to TXQ the queued messages whose tokens have come. */
void pinsched_run(struct pinsched *, struct ovs_list *txq);
void pinsched_wait(struct pinsched *);
/* Drops every queued message (the connection they were for is gone). */
void pinsched_flush(struct pinsched *);
void pinsched_get_stats(const struct pinsched *, struct pinsched_stats *);

#endif /* ofproto/pinsched.h */
