/* Unit tests for timeval: the simulated clock that timer-driven protocols are
 * tested on.  Tests that depend on the clock still running come first,
 * because stopping is permanent and CK_FORK=no runs every test in one
 * process. */
#include <config.h>
#include "timeval.h"

#include <check.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "poll-loop.h"
#include "seq.h"
#include "util.h"
#include "vlog.h"

static void
sleep_msec(long msec)
{
    struct timespec ts = { msec / 1000, (msec % 1000) * 1000000 };
    while (nanosleep(&ts, &ts)) {
        continue;
    }
}

START_TEST(test_warp_of_running_clock_stops_it)
{
    ck_assert(!time_is_stopped());

    /* A running clock moves with real time. */
    long long int t0 = time_msec();
    sleep_msec(5);
    ck_assert_int_ge(time_msec(), t0 + 5);

    /* Warping it stops it first, then advances from the current time. */
    long long int before = time_msec();
    time_warp(100);
    ck_assert(time_is_stopped());
    long long int after = time_msec();
    ck_assert_int_ge(after, before + 100);

    sleep_msec(5);
    ck_assert_int_eq(time_msec(), after);
}
END_TEST

START_TEST(test_stop_freezes_monotonic_clock)
{
    time_stop();
    ck_assert(time_is_stopped());

    long long int frozen = time_msec();
    time_t frozen_sec = time_now();
    sleep_msec(20);
    ck_assert_int_eq(time_msec(), frozen);
    ck_assert_int_eq(time_now(), frozen_sec);

    /* Stopping again is harmless and does not move the clock. */
    time_stop();
    ck_assert_int_eq(time_msec(), frozen);
}
END_TEST

START_TEST(test_warp_advances_exactly)
{
    time_stop();
    long long int t0 = time_msec();

    time_warp(1234);
    ck_assert_int_eq(time_msec(), t0 + 1234);
    ck_assert_int_eq(time_now(), (t0 + 1234) / 1000);

    time_warp(1);
    time_warp(0);
    time_warp(65000);
    ck_assert_int_eq(time_msec(), t0 + 1234 + 1 + 65000);
}
END_TEST

START_TEST(test_warp_changes_seq)
{
    struct seq *seq = timeval_warp_seq();
    ck_assert_ptr_nonnull(seq);
    ck_assert_ptr_eq(timeval_warp_seq(), seq);

    uint64_t v0 = seq_read(seq);
    time_warp(10);
    uint64_t v1 = seq_read(seq);
    ck_assert_uint_ne(v1, v0);

    /* Even a warp by zero tells waiters to re-check their timers. */
    time_warp(0);
    ck_assert_uint_ne(seq_read(seq), v1);
}
END_TEST

START_TEST(test_real_clocks_not_simulated)
{
    time_stop();

    long long int u0 = time_usec_real();
    sleep_msec(3);
    ck_assert_int_ge(time_usec_real(), u0 + 3000);

    /* The wall clock keeps real time whatever the monotonic clock does. */
    time_warp(10LL * 24 * 3600 * 1000);
    time_t now = time(NULL);
    long long int wall = time_wall_msec();
    ck_assert_int_le(llabs(wall / 1000 - (long long int) now), 1);
    ck_assert_int_le(llabs((long long int) time_wall() - now), 1);
}
END_TEST

struct warper {
    int n_warps;
};

static void *
warp_thread(void *aux)
{
    struct warper *w = aux;
    for (int i = 0; i < w->n_warps; i++) {
        time_warp(1);
        (void) time_msec();
    }
    return NULL;
}

START_TEST(test_concurrent_warps_add_up)
{
    enum { N_THREADS = 4, N_WARPS = 2000 };
    pthread_t threads[N_THREADS];
    struct warper w = { N_WARPS };

    time_stop();
    long long int t0 = time_msec();
    for (int i = 0; i < N_THREADS; i++) {
        ck_assert_int_eq(pthread_create(&threads[i], NULL, warp_thread, &w),
                         0);
    }
    for (int i = 0; i < N_THREADS; i++) {
        pthread_join(threads[i], NULL);
    }
    ck_assert_int_eq(time_msec(), t0 + N_THREADS * N_WARPS);
}
END_TEST

static void *
warp_later_thread(void *aux)
{
    long long int *msecs = aux;
    time_warp(*msecs);
    return NULL;
}

/* A timer on a stopped clock fires when another thread warps past it,
 * without waiting for real time (the test would time out otherwise). */
START_TEST(test_warp_fires_stopped_timer)
{
    time_stop();
    long long int deadline = time_msec() + 3600 * 1000;
    long long int warp = 3600 * 1000;
    pthread_t thread;

    poll_timer_wait_until(deadline);
    ck_assert_int_eq(pthread_create(&thread, NULL, warp_later_thread, &warp),
                     0);
    poll_block();
    pthread_join(thread, NULL);
    ck_assert_int_ge(time_msec(), deadline);
}
END_TEST

/* A thread awake for over a second is told of, in 3.1's words, with the
 * page faults it took meanwhile. */
START_TEST(test_long_poll_interval_is_logged)
{
    char name[] = "/tmp/test-timeval-XXXXXX";
    int fd = mkstemp(name);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(vlog_set_log_file(name), 0);

    timeval_poll_awake();
    long long int start = time_msec();
    size_t n = 0;
    while (time_msec() < start + 1100) {
        /* Fresh pages, so that there are faults to report. */
        char *p = xmalloc(1 << 20);
        memset(p, n++, 1 << 20);
        free(p);
    }
    timeval_poll_sleeping();
    vlog_close_log_file();

    FILE *f = fopen(name, "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    bool interval = false, faults = false;
    while (fgets(line, sizeof line, f)) {
        long long int awake, user, sys;
        const char *w = strstr(line, "|timeval|WARN|");
        if (!w) {
            continue;
        }
        w += strlen("|timeval|WARN|");
        if (sscanf(w, "Unreasonably long %lldms poll interval (%lldms user, "
                   "%lldms system)", &awake, &user, &sys) == 3) {
            ck_assert_int_ge(awake, 1100);
            interval = true;
        }
        long minor, major;
        if (sscanf(w, "faults: %ld minor, %ld major", &minor, &major) == 2) {
            ck_assert_int_gt(minor, 0);
            faults = true;
        }
    }
    fclose(f);
    unlink(name);
    ck_assert(interval);
    ck_assert(faults);
}
END_TEST

static Suite *
timeval_suite(void)
{
    Suite *s = suite_create("timeval");

    TCase *running = tcase_create("running clock");
    tcase_add_test(running, test_long_poll_interval_is_logged);
    tcase_add_test(running, test_warp_of_running_clock_stops_it);
    suite_add_tcase(s, running);

    TCase *stopped = tcase_create("stopped clock");
    tcase_add_test(stopped, test_stop_freezes_monotonic_clock);
    tcase_add_test(stopped, test_warp_advances_exactly);
    tcase_add_test(stopped, test_warp_changes_seq);
    tcase_add_test(stopped, test_real_clocks_not_simulated);
    suite_add_tcase(s, stopped);

    TCase *threads = tcase_create("threads");
    tcase_add_test(threads, test_concurrent_warps_add_up);
    tcase_add_test(threads, test_warp_fires_stopped_timer);
    suite_add_tcase(s, threads);

    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(timeval_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
