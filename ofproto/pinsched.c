/* pinsched: see pinsched.h. */
#include <config.h>
#include "pinsched.h"

#include <limits.h>
#include <stdlib.h>
#include "hash.h"
#include "hmap.h"
#include "ofpbuf.h"
#include "poll-loop.h"
#include "timeval.h"
#include "util.h"

/* A token is a thousandth of a packet, so a rate in packets per second is
 * tokens per millisecond. */
#define TOKENS_PER_PACKET 1000

struct port_queue {
    struct hmap_node hmap_node; /* In pinsched->queues, by port. */
    struct ovs_list rr_node;    /* In pinsched->busy while not empty. */
    uint32_t port;
    struct ovs_list packets;    /* struct ofpbuf, by list_node. */
    size_t n;
};

struct pinsched {
    long long int rate;         /* Tokens per ms (packets per second). */
    long long int capacity;     /* BURST packets' worth of tokens. */
    long long int tokens;
    long long int last_fill;    /* time_msec() of the last refill. */
    size_t burst;               /* Packets that may wait. */

    struct hmap queues;         /* struct port_queue, by port. */
    struct ovs_list busy;       /* Non-empty queues, round-robin order. */
    size_t n_backlog;
    struct pinsched_stats stats;
};

struct pinsched *
pinsched_create(int rate, int burst)
{
    struct pinsched *ps = xzalloc(sizeof *ps);
    hmap_init(&ps->queues);
    ovs_list_init(&ps->busy);
    pinsched_set_limits(ps, rate, burst);
    ps->tokens = ps->capacity;
    ps->last_fill = time_msec();
    return ps;
}

void
pinsched_set_limits(struct pinsched *ps, int rate, int burst)
{
    if (rate <= 0) {
        rate = 1000;
    }
    if (burst <= 0) {
        burst = rate / 4;
    }
    burst = MIN(MAX(burst, 1), INT_MAX / TOKENS_PER_PACKET);
    ps->rate = rate;
    ps->burst = burst;
    ps->capacity = (long long int) burst * TOKENS_PER_PACKET;
    ps->tokens = MIN(ps->tokens, ps->capacity);
}

static void
queue_destroy(struct pinsched *ps, struct port_queue *q)
{
    ofpbuf_list_delete(&q->packets);
    if (q->n) {
        ovs_list_remove(&q->rr_node);
    }
    hmap_remove(&ps->queues, &q->hmap_node);
    free(q);
}

void
pinsched_flush(struct pinsched *ps)
{
    struct port_queue *q;
    HMAP_FOR_EACH_SAFE (q, hmap_node, &ps->queues) {
        queue_destroy(ps, q);
    }
    ps->n_backlog = 0;
}

void
pinsched_destroy(struct pinsched *ps)
{
    if (ps) {
        pinsched_flush(ps);
        hmap_destroy(&ps->queues);
        free(ps);
    }
}

static void
refill(struct pinsched *ps)
{
    long long int now = time_msec();
    if (now > ps->last_fill) {
        long long int elapsed = now - ps->last_fill;
        long long int room = ps->capacity - ps->tokens;
        ps->tokens += (elapsed >= room / ps->rate + 1 ? room
                       : MIN(elapsed * ps->rate, room));
        ps->last_fill = now;
    }
}

static bool
take_token(struct pinsched *ps)
{
    refill(ps);
    if (ps->tokens >= TOKENS_PER_PACKET) {
        ps->tokens -= TOKENS_PER_PACKET;
        return true;
    }
    return false;
}

static struct port_queue *
queue_get(struct pinsched *ps, uint32_t port)
{
    struct port_queue *q;
    HMAP_FOR_EACH_WITH_HASH (q, hmap_node, hash_int(port, 0), &ps->queues) {
        if (q->port == port) {
            return q;
        }
    }
    q = xzalloc(sizeof *q);
    q->port = port;
    ovs_list_init(&q->packets);
    hmap_insert(&ps->queues, &q->hmap_node, hash_int(port, 0));
    return q;
}

/* Takes the oldest message of Q. */
static struct ofpbuf *
queue_pop(struct pinsched *ps, struct port_queue *q)
{
    struct ofpbuf *msg = CONTAINER_OF(ovs_list_pop_front(&q->packets),
                                      struct ofpbuf, list_node);
    ps->n_backlog--;
    if (!--q->n) {
        ovs_list_remove(&q->rr_node);
        /* An empty queue goes: ports come and go. */
        hmap_remove(&ps->queues, &q->hmap_node);
        free(q);
    }
    return msg;
}

static void
drop_one(struct pinsched *ps)
{
    struct port_queue *longest = NULL, *q;
    LIST_FOR_EACH (q, rr_node, &ps->busy) {
        if (!longest || q->n > longest->n) {
            longest = q;
        }
    }
    ofpbuf_delete(queue_pop(ps, longest));
    ps->stats.n_dropped++;
}

void
pinsched_send(struct pinsched *ps, uint32_t port, struct ofpbuf *msg,
              struct ovs_list *txq)
{
    if (!ps->n_backlog && take_token(ps)) {
        ps->stats.n_bypassed++;
        ovs_list_push_back(txq, &msg->list_node);
        return;
    }
    if (ps->n_backlog >= ps->burst) {
        drop_one(ps);
    }
    struct port_queue *q = queue_get(ps, port);
    if (!q->n) {
        ovs_list_push_back(&ps->busy, &q->rr_node);
    }
    ovs_list_push_back(&q->packets, &msg->list_node);
    q->n++;
    ps->n_backlog++;
    ps->stats.n_queued++;
}

void
pinsched_run(struct pinsched *ps, struct ovs_list *txq)
{
    /* A bounded batch per call, so a big burst cannot hold the main loop;
     * pinsched_wait() wakes at once while tokens remain. */
    for (int i = 0; i < 50 && ps->n_backlog && take_token(ps); i++) {
        struct port_queue *q = CONTAINER_OF(ovs_list_front(&ps->busy),
                                            struct port_queue, rr_node);
        /* The next port's turn comes before this one's again. */
        ovs_list_remove(&q->rr_node);
        ovs_list_push_back(&ps->busy, &q->rr_node);
        struct ofpbuf *msg = queue_pop(ps, q);
        ovs_list_push_back(txq, &msg->list_node);
    }
}

void
pinsched_wait(struct pinsched *ps)
{
    if (ps->n_backlog) {
        refill(ps);
        if (ps->tokens >= TOKENS_PER_PACKET) {
            poll_immediate_wake();
        } else {
            long long int missing = TOKENS_PER_PACKET - ps->tokens;
            poll_timer_wait_until(ps->last_fill
                                  + (missing + ps->rate - 1) / ps->rate);
        }
    }
}

void
pinsched_get_stats(const struct pinsched *ps, struct pinsched_stats *stats)
{
    *stats = ps->stats;
    stats->n_backlog = ps->n_backlog;
}
