/* timeval: see timeval.h. */
#include <config.h>
#include "timeval.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "ovs-thread.h"
#include "poll-loop.h"
#include "seq.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(timeval);

/* Per thread: when its loop last woke up, and its CPU time then. */
static _Thread_local long long int last_wakeup_msec;
static _Thread_local struct rusage last_wakeup_usage;

/* Awake longer than this (real time) is worth a warning. */
#define LONG_POLL_INTERVAL_MSEC 1000

/* The simulated clock.
 *
 * While running, time_msec() reads CLOCK_MONOTONIC directly.  Once stopped,
 * it returns 'frozen_msec', which only time_warp() moves.  'frozen_msec' is
 * written before 'stopped' is set (release) and read after 'stopped' is seen
 * (acquire), so a reader never sees a stopped clock with a stale value.
 * Writers serialize on 'clock_mutex' so concurrent warps add up. */
static atomic_bool stopped;
static atomic_llong frozen_msec;
static struct ovs_mutex clock_mutex = OVS_MUTEX_INITIALIZER;

static long long int boot_msec;

/* A pending "time/warp LARGE_MSECS MSECS": the main loop applies one step of
 * 'step_msec' per iteration until 'remaining_msec' is used up, then answers
 * 'conn'.  Only the main thread (which runs unixctl callbacks and
 * timeval_run()) touches this. */
static struct {
    struct unixctl_conn *conn;
    long long int remaining_msec;
    long long int step_msec;
    long long int held_since_usec;  /* Real time a gate first held the
                                     * next step, or 0. */
} large_warp;

/* Warp gates (timeval_add_warp_gate()), main thread only. */
#define MAX_WARP_GATES 4
static bool (*warp_gates[MAX_WARP_GATES])(void);
static size_t n_warp_gates;
/* A gate that stays shut this long (real time) is passed anyway, so that a
 * stuck thread cannot hang a time/warp forever. */
#define WARP_GATE_MAX_USEC (2 * 1000 * 1000)

static bool warp_gates_open(void);

static long long int
timespec_to_msec(const struct timespec *ts)
{
    return (long long int) ts->tv_sec * 1000 + ts->tv_nsec / 1000000;
}

static long long int
read_clock_msec(clockid_t id)
{
    struct timespec ts;

    if (clock_gettime(id, &ts)) {
        ovs_abort(errno, "clock_gettime failed");
    }
    return timespec_to_msec(&ts);
}

static long long int
real_monotonic_msec(void)
{
    return read_clock_msec(CLOCK_MONOTONIC);
}

static void record_boot_time(void) __attribute__((constructor));
static void
record_boot_time(void)
{
    boot_msec = real_monotonic_msec();
}

long long int
time_msec(void)
{
    if (atomic_load_explicit(&stopped, memory_order_acquire)) {
        return atomic_load_explicit(&frozen_msec, memory_order_relaxed);
    }
    return real_monotonic_msec();
}

time_t
time_now(void)
{
    return time_msec() / 1000;
}

long long int
time_boot_msec(void)
{
    return boot_msec;
}

long long int
time_usec_real(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts)) {
        ovs_abort(errno, "clock_gettime failed");
    }
    return (long long int) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

long long int
time_wall_msec(void)
{
    return read_clock_msec(CLOCK_REALTIME);
}

time_t
time_wall(void)
{
    return time(NULL);
}

/* Stops the clock; the caller holds clock_mutex. */
static void
stop_locked(void)
{
    if (!atomic_load_explicit(&stopped, memory_order_relaxed)) {
        atomic_store_explicit(&frozen_msec, real_monotonic_msec(),
                              memory_order_relaxed);
        atomic_store_explicit(&stopped, true, memory_order_release);
    }
}

void
time_stop(void)
{
    ovs_mutex_lock(&clock_mutex);
    stop_locked();
    ovs_mutex_unlock(&clock_mutex);
}

bool
time_is_stopped(void)
{
    return atomic_load_explicit(&stopped, memory_order_acquire);
}

struct seq *
timeval_warp_seq(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    static struct seq *warp_seq;

    if (ovsthread_once_start(&once)) {
        warp_seq = seq_create();
        ovsthread_once_done(&once);
    }
    return warp_seq;
}

void
time_warp(long long int msecs)
{
    ovs_mutex_lock(&clock_mutex);
    stop_locked();
    if (msecs > 0) {
        atomic_fetch_add_explicit(&frozen_msec, msecs, memory_order_relaxed);
    }
    ovs_mutex_unlock(&clock_mutex);

    /* Even a zero warp changes the seq: a caller warping by 0 still expects
     * every loop to re-check its timers once. */
    seq_change(timeval_warp_seq());
}

/* time/stop and time/warp. */

static void
time_stop_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
             const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    time_stop();
    unixctl_command_reply(conn, NULL);
}

/* Parses a time/warp argument: a non-negative decimal number of
 * milliseconds.  On error returns a message for the caller to free. */
static char *
parse_msecs(const char *what, const char *s, long long int *msecs)
{
    if (!str_to_llong(s, 10, msecs) || *msecs < 0) {
        return xasprintf("invalid %s \"%s\" (expected a non-negative "
                         "number of milliseconds)", what, s);
    }
    return NULL;
}

static void
time_warp_cb(struct unixctl_conn *conn, int argc, const char *argv[],
             void *aux OVS_UNUSED)
{
    long long int total, step;
    char *error;

    if (large_warp.conn) {
        unixctl_command_reply_error(conn, "A previous time/warp command is "
                                    "still in progress");
        return;
    }

    if (argc > 2) {
        error = parse_msecs("LARGE_MSECS", argv[1], &total);
        if (!error) {
            error = parse_msecs("MSECS", argv[2], &step);
        }
        if (!error && !step && total) {
            error = xstrdup("MSECS must be positive when LARGE_MSECS is "
                            "nonzero");
        }
    } else {
        error = parse_msecs("MSECS", argv[1], &total);
        step = total;
    }
    if (error) {
        unixctl_command_reply_error(conn, error);
        free(error);
        return;
    }

    if (argc <= 2 || total <= step) {
        /* A single step: nothing to spread over loop iterations, but a
         * gate still at work holds the reply (timeval_run() sends it; a
         * program without gates never gets here). */
        time_warp(total);
        if (warp_gates_open()) {
            unixctl_command_reply(conn, "warped");
        } else {
            large_warp.conn = conn;
            large_warp.remaining_msec = 0;
            large_warp.step_msec = 0;
            poll_immediate_wake();
        }
        return;
    }

    large_warp.conn = conn;
    large_warp.remaining_msec = total;
    large_warp.step_msec = step;
    timeval_run();
}

void
timeval_add_warp_gate(bool (*settled)(void))
{
    ovs_assert(n_warp_gates < MAX_WARP_GATES);
    for (size_t i = 0; i < n_warp_gates; i++) {
        if (warp_gates[i] == settled) {
            return;
        }
    }
    warp_gates[n_warp_gates++] = settled;
}

/* Whether every gate lets the next step of a large warp go. */
static bool
warp_gates_open(void)
{
    for (size_t i = 0; i < n_warp_gates; i++) {
        if (!warp_gates[i]()) {
            long long int now = time_usec_real();
            if (!large_warp.held_since_usec) {
                large_warp.held_since_usec = now;
            }
            if (now - large_warp.held_since_usec < WARP_GATE_MAX_USEC) {
                return false;
            }
            VLOG_WARN("time/warp: a thread did not finish its work at the "
                      "simulated time within %d s; warping anyway",
                      WARP_GATE_MAX_USEC / 1000000);
            break;
        }
    }
    large_warp.held_since_usec = 0;
    return true;
}

void
timeval_run(void)
{
    if (!large_warp.conn) {
        return;
    }
    if (!warp_gates_open()) {
        /* Another thread still works at this simulated time; look again
         * at once (a warp is short, and this is what it waits for). */
        poll_immediate_wake();
        return;
    }

    if (large_warp.remaining_msec > 0) {
        long long int step = MIN(large_warp.step_msec,
                                 large_warp.remaining_msec);
        time_warp(step);
        large_warp.remaining_msec -= step;
        /* Let every module run once at this simulated time before the
         * next step, as if that much time had really passed; after the
         * last step, the reply waits for the gates too, so that what the
         * caller looks at next (cfm/show, the database) is what that
         * time brought. */
        poll_immediate_wake();
    } else {
        struct unixctl_conn *conn = large_warp.conn;

        large_warp.conn = NULL;
        unixctl_command_reply(conn, "warped");
    }
}

void
timeval_wait(void)
{
    if (large_warp.conn) {
        poll_immediate_wake();
    }
}

void
timeval_register_unixctl(void)
{
    unixctl_command_register("time/stop", "", 0, 0, time_stop_cb, NULL);
    unixctl_command_register("time/warp", "[large_msecs] msecs", 1, 2,
                             time_warp_cb, NULL);
}

static long long int
timeval_diff_msec(const struct timeval *a, const struct timeval *b)
{
    return ((a->tv_sec - b->tv_sec) * 1000LL
            + (a->tv_usec - b->tv_usec) / 1000);
}

void
timeval_poll_sleeping(void)
{
    if (!last_wakeup_msec) {
        return;                 /* First sleep of this thread. */
    }
    long long int awake = real_monotonic_msec() - last_wakeup_msec;
    if (awake > LONG_POLL_INTERVAL_MSEC) {
        /* 3.1's lines, word for word; each at most once a second per
         * thread by construction, so without a rate limit that would drop
         * the details of one stall. */
        const struct rusage *last = &last_wakeup_usage;
        struct rusage usage;
        getrusage(RUSAGE_THREAD, &usage);
        VLOG_WARN("Unreasonably long %lldms poll interval "
                  "(%lldms user, %lldms system)", awake,
                  timeval_diff_msec(&usage.ru_utime, &last->ru_utime),
                  timeval_diff_msec(&usage.ru_stime, &last->ru_stime));
        if (usage.ru_minflt > last->ru_minflt
            || usage.ru_majflt > last->ru_majflt) {
            VLOG_WARN("faults: %ld minor, %ld major",
                      usage.ru_minflt - last->ru_minflt,
                      usage.ru_majflt - last->ru_majflt);
        }
        if (usage.ru_inblock > last->ru_inblock
            || usage.ru_oublock > last->ru_oublock) {
            VLOG_WARN("disk: %ld reads, %ld writes",
                      usage.ru_inblock - last->ru_inblock,
                      usage.ru_oublock - last->ru_oublock);
        }
        if (usage.ru_nvcsw > last->ru_nvcsw
            || usage.ru_nivcsw > last->ru_nivcsw) {
            VLOG_WARN("context switches: %ld voluntary, %ld involuntary",
                      usage.ru_nvcsw - last->ru_nvcsw,
                      usage.ru_nivcsw - last->ru_nivcsw);
        }
    }
}

void
timeval_poll_awake(void)
{
    last_wakeup_msec = real_monotonic_msec();
    getrusage(RUSAGE_THREAD, &last_wakeup_usage);
}
