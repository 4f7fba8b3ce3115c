/* coverage: named event counters, cheap enough for the hottest paths.
 *
 * A coverage counter answers "how often does this happen?" in a running
 * daemon without a debugger: `ovs-appctl coverage/show` prints every counter
 * that has been hit with its average rate over the last 5 seconds, minute and
 * hour.  The event loop counts its wake-ups ("poll_wakeup") this way, so a
 * busy-looping daemon is visible at a glance.
 *
 * Usage, in one .c file per counter (the name must be a C identifier and
 * unique in the program; a second definition is a link error):
 *
 *     COVERAGE_DEFINE(flow_extract);
 *     ...
 *     COVERAGE_INC(flow_extract);
 *     COVERAGE_ADD(flow_extract, n_packets);
 *
 * Counters register themselves before main() runs, so counters that were
 * never hit are known too ("N events never hit").
 *
 * Cost and threads: an increment is one relaxed atomic add on a counter that
 * has its own cache line, so any thread may count at any time and totals are
 * exact.  Rates are sampled by coverage_run(), which the main loop calls on
 * every iteration; it never schedules a wake-up of its own, so an idle daemon
 * stays asleep, and when it finally runs after a long sleep it catches up by
 * spreading the counts over the 5-second intervals it missed.  Times come from
 * time_msec(), so the rates follow the simulated clock (time/warp).
 *
 * Nothing here allocates memory the caller must free, except the strings
 * returned by the *_to_string() style functions noted below.
 */
#ifndef COVERAGE_H
#define COVERAGE_H 1

#include <stdbool.h>
#include <stdint.h>

struct ds;

/* Sampling period of the "last 5 seconds" rate, in milliseconds. */
#define COVERAGE_RUN_INTERVAL 5000
/* Number of sampling periods in a minute, and minutes in an hour. */
#define COVERAGE_MIN_AVG_LEN (60000 / COVERAGE_RUN_INTERVAL)
#define COVERAGE_HR_AVG_LEN 60

/* One counter.  Defined by COVERAGE_DEFINE; private to coverage.c except for
 * 'count', which COVERAGE_ADD updates. */
struct coverage_counter {
    unsigned long long int count;   /* Total so far (relaxed atomics). */
    const char *name;
    struct coverage_counter *next;  /* In coverage.c's list of counters. */

    /* Rate history, owned by coverage_run() (under coverage.c's mutex). */
    unsigned long long int last_total;  /* 'count' at the last sample. */
    unsigned long long int min[COVERAGE_MIN_AVG_LEN]; /* Per 5-s period. */
    unsigned long long int hr[COVERAGE_HR_AVG_LEN];   /* Per minute. */
} __attribute__((aligned(64)));

/* Adds COUNTER to the global list (done by COVERAGE_DEFINE's constructor). */
void coverage_counter_register(struct coverage_counter *);

#define COVERAGE_DEFINE(COUNTER)                                            \
    extern struct coverage_counter counter_##COUNTER;                       \
    struct coverage_counter counter_##COUNTER = { .name = #COUNTER };       \
    static void coverage_register_##COUNTER(void)                           \
        __attribute__((constructor));                                       \
    static void                                                             \
    coverage_register_##COUNTER(void)                                       \
    {                                                                       \
        coverage_counter_register(&counter_##COUNTER);                      \
    }                                                                       \
    struct coverage_define_dummy_##COUNTER /* swallows the semicolon */

#define COVERAGE_ADD(COUNTER, AMOUNT)                                       \
    ((void) __atomic_fetch_add(&counter_##COUNTER.count,                    \
                               (unsigned long long int) (AMOUNT),           \
                               __ATOMIC_RELAXED))
#define COVERAGE_INC(COUNTER) COVERAGE_ADD(COUNTER, 1)

/* Total count of the counter named NAME, 0 if there is no such counter. */
unsigned long long int coverage_read_counter(const char *name);
/* Like coverage_read_counter(), but tells whether NAME exists. */
bool coverage_lookup(const char *name, unsigned long long int *count);

/* Samples the rates if one or more 5-second periods have ended since the
 * last sample.  Call from the main loop's run phase; cheap otherwise. */
void coverage_run(void);

/* Appends the `coverage/show` text to OUT. */
void coverage_show(struct ds *out);
/* Logs the `coverage/show` text at INFO level, one line per counter (for
 * diagnosing a stall, e.g. an unreasonably long poll interval). */
void coverage_log(void);

/* Registers coverage/show and coverage/read-counter with unixctl. */
void coverage_register_unixctl(void);

#endif /* coverage.h */
