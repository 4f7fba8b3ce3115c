/* seq-latency: how fast does seq_change() in one thread wake another?
 *
 * Two workloads, each over --iterations changes (default 100000):
 *
 *   latency   A waiter thread runs the run/wait/block pattern on one seq.
 *             The changer stamps the time, calls seq_change(), and waits for
 *             the waiter to acknowledge (through a second seq) before the next
 *             change.  The waiter measures stamp-to-wake for each change.
 *             The waiter may or may not be asleep yet when a change lands, as
 *             in a real daemon; both cases are in the figures.
 *
 *   pingpong  Two threads each wait on their own seq and change the other's:
 *             the rate of full round trips.
 *
 * Output: one "name value unit" line per figure, for scripts.  The program
 * never judges the figures; it exits 0 unless it was used wrongly.
 */
#include <config.h>

#include <getopt.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ovs-thread.h"
#include "poll-loop.h"
#include "seq.h"
#include "util.h"

static long long int
now_nsec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Latency workload. */

struct latency {
    struct seq *change;         /* Changed by the changer. */
    struct seq *ack;            /* Changed by the waiter after each wake. */
    _Atomic long long int stamp;    /* now_nsec() just before the change. */
    uint64_t initial;           /* 'change' value before the first change,
                                 * read before the waiter starts. */
    int iterations;
    long long int *samples;     /* Nanoseconds, one per change. */
};

static void *
latency_waiter_main(void *l_)
{
    struct latency *l = l_;
    uint64_t last = l->initial;
    int n = 0;

    while (n < l->iterations) {
        uint64_t seen = seq_read(l->change);
        if (seen != last) {
            long long int woke = now_nsec();
            l->samples[n++] = woke - atomic_load(&l->stamp);
            last = seen;
            seq_change(l->ack);
            continue;
        }
        seq_wait(l->change, seen);
        poll_block();
    }
    return NULL;
}

static int
compare_ll(const void *a_, const void *b_)
{
    long long int a = *(const long long int *) a_;
    long long int b = *(const long long int *) b_;
    return a < b ? -1 : a > b;
}

static void
run_latency(int iterations)
{
    struct latency l = {
        .change = seq_create(),
        .ack = seq_create(),
        .iterations = iterations,
        .samples = xcalloc(iterations, sizeof *l.samples),
    };
    l.initial = seq_read(l.change);

    pthread_t waiter = ovs_thread_create("seq-waiter", latency_waiter_main,
                                         &l);
    long long int start = now_nsec();
    for (int i = 0; i < iterations; i++) {
        uint64_t ack = seq_read(l.ack);
        atomic_store(&l.stamp, now_nsec());
        seq_change(l.change);
        while (seq_read(l.ack) == ack) {
            seq_wait(l.ack, ack);
            poll_block();
        }
    }
    long long int elapsed = now_nsec() - start;
    xpthread_join(waiter, NULL);

    qsort(l.samples, iterations, sizeof *l.samples, compare_ll);
    size_t p99 = (size_t) ((iterations - 1) * 0.99);
    printf("seq_latency_iterations %d count\n", iterations);
    printf("seq_wake_latency_min %.3f us\n", l.samples[0] / 1000.0);
    printf("seq_wake_latency_median %.3f us\n",
           l.samples[(iterations - 1) / 2] / 1000.0);
    printf("seq_wake_latency_p99 %.3f us\n", l.samples[p99] / 1000.0);
    printf("seq_wake_latency_max %.3f us\n",
           l.samples[iterations - 1] / 1000.0);
    printf("seq_wakeups_per_sec %.0f wakeups/s\n",
           iterations / (elapsed / 1e9));

    free(l.samples);
    seq_destroy(l.change);
    seq_destroy(l.ack);
}

/* Ping-pong workload. */

struct pingpong {
    struct seq *seqs[2];
    _Atomic int turn;
    int iterations;
};

static void
pingpong_play(struct pingpong *pp, int me)
{
    int moves = 0;
    while (moves < pp->iterations) {
        uint64_t seen = seq_read(pp->seqs[me]);
        if (atomic_load(&pp->turn) == me) {
            atomic_store(&pp->turn, !me);
            seq_change(pp->seqs[!me]);
            moves++;
            continue;
        }
        seq_wait(pp->seqs[me], seen);
        poll_block();
    }
}

static void *
pingpong_main(void *pp)
{
    pingpong_play(pp, 1);
    return NULL;
}

static void
run_pingpong(int iterations)
{
    struct pingpong pp = {
        .seqs = { seq_create(), seq_create() },
        .turn = 0,
        .iterations = iterations,
    };

    long long int start = now_nsec();
    pthread_t pong = ovs_thread_create("seq-pong", pingpong_main, &pp);
    pingpong_play(&pp, 0);
    xpthread_join(pong, NULL);
    long long int elapsed = now_nsec() - start;

    printf("seq_pingpong_round_trips %d count\n", iterations);
    printf("seq_pingpong_round_trips_per_sec %.0f round-trips/s\n",
           iterations / (elapsed / 1e9));
    printf("seq_pingpong_round_trip_mean %.3f us\n",
           elapsed / 1000.0 / iterations);

    seq_destroy(pp.seqs[0]);
    seq_destroy(pp.seqs[1]);
}

static void
usage(void)
{
    printf("%s: seq_change() to wake-up latency across threads\n"
           "usage: %s [OPTIONS]\n"
           "  --iterations=N   changes per workload (default 100000)\n"
           "  --mode=MODE      latency, pingpong or all (default all)\n"
           "  -h, --help       print this help\n",
           program_name, program_name);
}

int
main(int argc, char *argv[])
{
    static const struct option long_options[] = {
        {"iterations", required_argument, NULL, 'n'},
        {"mode", required_argument, NULL, 'm'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int iterations = 100000;
    const char *mode = "all";

    set_program_name(argv[0]);
    for (;;) {
        int c = getopt_long(argc, argv, "n:m:h", long_options, NULL);
        if (c == -1) {
            break;
        }
        switch (c) {
        case 'n':
            if (!str_to_int(optarg, 10, &iterations) || iterations < 1) {
                ovs_fatal(0, "--iterations: positive integer expected");
            }
            break;
        case 'm':
            mode = optarg;
            break;
        case 'h':
            usage();
            return 0;
        default:
            exit(EXIT_FAILURE);
        }
    }
    if (optind < argc) {
        ovs_fatal(0, "unexpected argument \"%s\" (use --help)", argv[optind]);
    }

    bool all = !strcmp(mode, "all");
    if (!all && strcmp(mode, "latency") && strcmp(mode, "pingpong")) {
        ovs_fatal(0, "--mode: latency, pingpong or all expected");
    }
    if (all || !strcmp(mode, "latency")) {
        run_latency(iterations);
    }
    if (all || !strcmp(mode, "pingpong")) {
        run_pingpong(iterations);
    }

    poll_loop_destroy_self();
    return 0;
}
