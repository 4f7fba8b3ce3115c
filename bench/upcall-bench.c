/* bench/upcall-bench: misses through the upcall channels (dpif-channel.h)
 * with a trivial handler, as the datapath's rx threads produce them.
 *
 * usage: upcall-bench [--smoke]
 *
 * Prints, never judges:
 *   misses/s, 1 producer -> 1 channel -> N handlers (N = 1, 2)
 *       upcalls of a 64-byte packet with its key written into ring slots
 *       and read in place by handler threads that count them.
 *   idle port's delivered share while another port floods
 *       one producer floods port A as fast as it can; another thread
 *       sends to port B every 20 us; 1 handler.  Prints the share of B's
 *       upcalls that reached the handler and the share of A's that did. */
#include <config.h>

#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "dpif-channel.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "seq.h"
#include "util.h"

struct handler {
    struct dpif_channel_set *set;
    atomic_bool *stop;
    struct seq *stop_seq;
    _Atomic uint64_t by_port[3];
};

static void *
handler_main(void *h_)
{
    struct handler *h = h_;
    struct dpif_channel_handler ch;
    const struct dpif_channel_slot *slots[DPIF_CHANNEL_MAX_BATCH];

    dpif_channel_handler_init(&ch, h->set);
    for (;;) {
        uint64_t stop_seq = seq_read(h->stop_seq);
        if (atomic_load(h->stop)) {
            break;
        }
        size_t n = dpif_channel_recv(&ch, slots, DPIF_CHANNEL_MAX_BATCH);
        for (size_t i = 0; i < n; i++) {
            atomic_fetch_add_explicit(&h->by_port[slots[i]->port % 3], 1,
                                      memory_order_relaxed);
        }
        if (!n) {
            dpif_channel_wait(&ch);
            seq_wait(h->stop_seq, stop_seq);
            poll_block();
        }
    }
    dpif_channel_handler_uninit(&ch);
    return NULL;
}

static double
now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool
put(struct dpif_channel *ch, const uint8_t *pkt)
{
    struct dpif_channel_slot *slot = dpif_channel_reserve(ch, 64);
    if (!slot) {
        return false;
    }
    slot->type = DPIF_CHANNEL_MISS;
    slot->port = dpif_channel_port(ch);
    memset(&slot->key, 0, sizeof slot->key);
    slot->key.in_port = slot->port;
    memcpy(slot->packet, pkt, 64);
    dpif_channel_commit(ch, slot);
    return true;
}

struct run {
    struct dpif_channel_set *set;
    struct handler *handlers;
    pthread_t *threads;
    int n;
    atomic_bool stop;
    struct seq *stop_seq;
};

static void
run_start(struct run *r, int n_handlers)
{
    r->set = dpif_channel_set_create();
    r->n = n_handlers;
    r->handlers = xcalloc(n_handlers, sizeof *r->handlers);
    r->threads = xcalloc(n_handlers, sizeof *r->threads);
    atomic_init(&r->stop, false);
    r->stop_seq = seq_create();
    for (int i = 0; i < n_handlers; i++) {
        r->handlers[i].set = r->set;
        r->handlers[i].stop = &r->stop;
        r->handlers[i].stop_seq = r->stop_seq;
        r->threads[i] = ovs_thread_create("handler", handler_main,
                                          &r->handlers[i]);
    }
}

static uint64_t
run_received(struct run *r, int port)
{
    uint64_t n = 0;
    for (int i = 0; i < r->n; i++) {
        n += atomic_load(&r->handlers[i].by_port[port]);
    }
    return n;
}

static void
run_stop(struct run *r)
{
    atomic_store(&r->stop, true);
    seq_change(r->stop_seq);
    for (int i = 0; i < r->n; i++) {
        xpthread_join(r->threads[i], NULL);
    }
    seq_destroy(r->stop_seq);
    free(r->handlers);
    free(r->threads);
    dpif_channel_set_destroy(r->set);
}

static void
throughput(int n_handlers, uint64_t n_upcalls)
{
    uint8_t pkt[64] = { 0 };
    struct run r;
    run_start(&r, n_handlers);
    struct dpif_channel *ch = dpif_channel_create(r.set, 1, 256, 1600);

    double start = now_sec();
    uint64_t sent = 0, refused = 0;
    while (sent < n_upcalls) {
        if (put(ch, pkt)) {
            sent++;
        } else {
            refused++;          /* Ring full: the handlers are behind. */
            sched_yield();
        }
    }
    while (run_received(&r, 1) < sent) {
        sched_yield();
    }
    double secs = now_sec() - start;
    printf("misses/s, 1 producer -> 1 channel -> %d handler%s: ours %.0f "
           "(%"PRIu64" upcalls in %.3f s, %"PRIu64" times the ring was "
           "full)\n", n_handlers, n_handlers > 1 ? "s" : "",
           sent / secs, sent, secs, refused);
    dpif_channel_destroy(ch);
    run_stop(&r);
}

struct quiet_arg {
    struct dpif_channel *ch;
    atomic_bool *stop;
    uint64_t sent, refused;
};

static void *
quiet_main(void *arg_)
{
    struct quiet_arg *arg = arg_;
    uint8_t pkt[64] = { 1 };
    while (!atomic_load(arg->stop)) {
        if (put(arg->ch, pkt)) {
            arg->sent++;
        } else {
            arg->refused++;
        }
        usleep(20);
    }
    return NULL;
}

static void
fairness(double seconds)
{
    uint8_t pkt[64] = { 0 };
    struct run r;
    run_start(&r, 1);
    struct dpif_channel *flood = dpif_channel_create(r.set, 1, 256, 1600);
    struct dpif_channel *quiet = dpif_channel_create(r.set, 2, 256, 1600);
    atomic_bool stop_quiet = false;
    struct quiet_arg qa = { quiet, &stop_quiet, 0, 0 };
    pthread_t qt = ovs_thread_create("quiet", quiet_main, &qa);

    uint64_t flood_sent = 0, flood_lost = 0;
    double end = now_sec() + seconds;
    while (now_sec() < end) {
        for (int i = 0; i < 1000; i++) {
            if (put(flood, pkt)) {
                flood_sent++;
            } else {
                flood_lost++;
            }
        }
    }
    atomic_store(&stop_quiet, true);
    xpthread_join(qt, NULL);
    while (run_received(&r, 1) < flood_sent
           || run_received(&r, 2) < qa.sent) {
        sched_yield();
    }
    uint64_t quiet_total = qa.sent + qa.refused;
    uint64_t flood_total = flood_sent + flood_lost;
    printf("idle port's delivered share while another port floods: ours "
           "%.1f%% (%"PRIu64" of %"PRIu64"; flooding port: %.1f%% of "
           "%"PRIu64" delivered)\n",
           quiet_total ? 100.0 * run_received(&r, 2) / quiet_total : 0.0,
           run_received(&r, 2), quiet_total,
           flood_total ? 100.0 * flood_sent / flood_total : 0.0,
           flood_total);
    dpif_channel_destroy(flood);
    dpif_channel_destroy(quiet);
    run_stop(&r);
}

int
main(int argc, char *argv[])
{
    bool smoke = argc > 1 && !strcmp(argv[1], "--smoke");
    set_program_name(argv[0]);
    setvbuf(stdout, NULL, _IOLBF, 0);
    throughput(1, smoke ? 20000 : 5000000);
    throughput(2, smoke ? 20000 : 5000000);
    fairness(smoke ? 0.2 : 3.0);
    poll_loop_destroy_self();
    return 0;
}
