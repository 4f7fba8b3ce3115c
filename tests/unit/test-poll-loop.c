/* Unit tests for poll-loop: what ends a poll_block(), and that waits are
 * one-shot.
 *
 * No test measures time.  A test proves that poll_block() returns by
 * returning (a wake-up that never comes is a hang, which Check reports as a
 * timeout), and proves why it returned by checking that the thing waited for
 * is really there (the pipe is readable, the clock passed the deadline, the
 * zero-timeout counter did or did not move).  Helper threads are ordered
 * with barriers; a helper's action may land before or during the block, and
 * both must end it. */
#include <config.h>
#include "poll-loop.h"

#include <check.h>
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "coverage.h"
#include "ovs-thread.h"
#include "timeval.h"
#include "util.h"

static unsigned long long int
wakeups(void)
{
    return coverage_read_counter("poll_wakeup");
}

static unsigned long long int
zero_timeouts(void)
{
    return coverage_read_counter("poll_zero_timeout");
}

static void
make_pipe(int fds[2])
{
    ck_assert_int_eq(pipe2(fds, O_NONBLOCK | O_CLOEXEC), 0);
}

static void
close_pipe(int fds[2])
{
    close(fds[0]);
    close(fds[1]);
}

static bool
is_readable(int fd)
{
    struct pollfd pfd = { .fd = fd, .events = POLLIN };
    return poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN);
}

/* Each test frees the main thread's loop, so leak checkers see a clean
 * process and every test starts from a fresh loop. */
static void
teardown(void)
{
    poll_loop_destroy_self();
}

/* A helper that waits at a barrier, then does one thing to wake the main
 * thread. */
struct helper {
    pthread_barrier_t barrier;
    int fd;                         /* Written to, if >= 0. */
    long long int warp_msec;        /* Warped by, in steps, if > 0. */
    long long int warp_step;
    struct poll_loop *loop;         /* Woken, if nonnull. */
};

static void *
helper_main(void *helper_)
{
    struct helper *helper = helper_;

    pthread_barrier_wait(&helper->barrier);
    if (helper->fd >= 0) {
        ck_assert_int_eq(write(helper->fd, "x", 1), 1);
    }
    for (long long int done = 0; done < helper->warp_msec;
         done += helper->warp_step) {
        time_warp(helper->warp_step);
    }
    if (helper->loop) {
        poll_loop_wake(helper->loop);
    }
    return NULL;
}

static pthread_t
helper_start(struct helper *helper)
{
    pthread_barrier_init(&helper->barrier, NULL, 2);
    return ovs_thread_create("helper", helper_main, helper);
}

static void
helper_finish(struct helper *helper, pthread_t thread)
{
    xpthread_join(thread, NULL);
    pthread_barrier_destroy(&helper->barrier);
}

/* Immediate wake. */

START_TEST(test_immediate_wake_returns_at_once)
{
    unsigned long long int zt = zero_timeouts();

    poll_immediate_wake();
    poll_block();

    ck_assert_uint_eq(zero_timeouts(), zt + 1);
}
END_TEST

START_TEST(test_wakeup_counter_once_per_block)
{
    unsigned long long int before = wakeups();

    for (int i = 0; i < 3; i++) {
        poll_immediate_wake();
        poll_block();
    }
    ck_assert_uint_eq(wakeups(), before + 3);
}
END_TEST

START_TEST(test_expired_timer_is_immediate)
{
    unsigned long long int zt = zero_timeouts();

    poll_timer_wait_until(time_msec());
    poll_block();
    poll_timer_wait(0);
    poll_block();
    poll_timer_wait(-5);
    poll_block();

    ck_assert_uint_eq(zero_timeouts(), zt + 3);
}
END_TEST

/* File descriptors. */

START_TEST(test_fd_wait_wakes_on_write_from_other_thread)
{
    int fds[2];
    make_pipe(fds);

    struct helper helper = { .fd = fds[1] };
    pthread_t thread = helper_start(&helper);

    unsigned long long int zt = zero_timeouts();
    poll_fd_wait(fds[0], POLLIN);
    pthread_barrier_wait(&helper.barrier);
    poll_block();

    ck_assert(is_readable(fds[0]));
    ck_assert_uint_eq(zero_timeouts(), zt);

    helper_finish(&helper, thread);
    close_pipe(fds);
}
END_TEST

START_TEST(test_fd_wait_pollout_on_writable_fd)
{
    int fds[2];
    make_pipe(fds);

    /* An empty pipe is writable, so this must not block. */
    poll_fd_wait(fds[1], POLLOUT);
    poll_block();

    close_pipe(fds);
}
END_TEST

START_TEST(test_fd_wait_on_regular_file_does_not_hang)
{
    /* epoll refuses regular files; poll() calls them always ready.  We must
     * behave like poll(), not sleep forever. */
    FILE *file = tmpfile();
    ck_assert_ptr_nonnull(file);

    poll_fd_wait(fileno(file), POLLIN);
    poll_block();

    fclose(file);
}
END_TEST

START_TEST(test_waits_are_one_shot)
{
    int ready[2], later[2];
    make_pipe(ready);
    make_pipe(later);

    /* Iteration 1: an immediate wake and a wait on a pipe that stays
     * readable forever (it is never drained). */
    ck_assert_int_eq(write(ready[1], "x", 1), 1);
    poll_immediate_wake();
    poll_fd_wait(ready[0], POLLIN);
    poll_block();

    /* Iteration 2: only a far timer and a pipe a helper writes to.  If
     * either wait of iteration 1 had survived, this block would end at once,
     * before the helper's write. */
    struct helper helper = { .fd = later[1] };
    pthread_t thread = helper_start(&helper);

    unsigned long long int zt = zero_timeouts();
    poll_timer_wait(1000LL * 1000 * 1000);
    poll_fd_wait(later[0], POLLIN);
    pthread_barrier_wait(&helper.barrier);
    poll_block();

    ck_assert_uint_eq(zero_timeouts(), zt);
    ck_assert(is_readable(later[0]));

    helper_finish(&helper, thread);
    close_pipe(ready);
    close_pipe(later);
}
END_TEST

START_TEST(test_many_fd_waits_reused_across_iterations)
{
    /* The loop recycles its fd events; many iterations with a varying number
     * of waits must keep working (and not leak, under ASan/valgrind). */
    enum { N = 16 };
    int fds[N][2];
    for (int i = 0; i < N; i++) {
        make_pipe(fds[i]);
    }
    for (int iter = 0; iter < 50; iter++) {
        int n = 1 + iter % N;
        int which = iter % n;
        ck_assert_int_eq(write(fds[which][1], "x", 1), 1);
        for (int i = 0; i < n; i++) {
            poll_fd_wait(fds[i][0], POLLIN);
        }
        poll_block();
        ck_assert(is_readable(fds[which][0]));
        char c;
        ck_assert_int_eq(read(fds[which][0], &c, 1), 1);
    }
    for (int i = 0; i < N; i++) {
        close_pipe(fds[i]);
    }
}
END_TEST

struct attached {
    int fd;
    int n_calls;
};

static void
attached_cb(evutil_socket_t fd OVS_UNUSED, short int what OVS_UNUSED,
            void *attached_)
{
    struct attached *attached = attached_;
    char c;
    ck_assert_int_eq(read(attached->fd, &c, 1), 1);
    attached->n_calls++;
}

START_TEST(test_attached_event_runs_and_ends_block)
{
    /* Long-lived libevent objects (bufferevents, in real use) attached to
     * the thread's base run their callbacks inside poll_block(), and a
     * callback that ran ends the block even with no poll_*_wait(). */
    int fds[2];
    make_pipe(fds);

    struct attached attached = { .fd = fds[0] };
    struct event *ev = event_new(poll_loop_base(), fds[0],
                                 EV_READ | EV_PERSIST, attached_cb,
                                 &attached);
    ck_assert_int_eq(event_add(ev, NULL), 0);

    struct helper helper = { .fd = fds[1] };
    pthread_t thread = helper_start(&helper);
    pthread_barrier_wait(&helper.barrier);
    poll_block();
    ck_assert_int_eq(attached.n_calls, 1);
    helper_finish(&helper, thread);

    /* Persistent events stay attached across iterations. */
    ck_assert_int_eq(write(fds[1], "y", 1), 1);
    poll_block();
    ck_assert_int_eq(attached.n_calls, 2);

    event_free(ev);
    close_pipe(fds);
}
END_TEST

/* Cross-thread wake. */

START_TEST(test_loop_wake_from_other_thread)
{
    struct helper helper = { .fd = -1, .loop = poll_loop_self() };
    pthread_t thread = helper_start(&helper);

    /* Nothing else is registered: only the helper's wake can end this. */
    pthread_barrier_wait(&helper.barrier);
    poll_block();

    helper_finish(&helper, thread);
}
END_TEST

START_TEST(test_loop_wake_before_block_is_not_lost)
{
    poll_loop_wake(poll_loop_self());
    poll_block();

    /* Consumed: the next block needs a wake source of its own. */
    poll_immediate_wake();
    poll_block();
}
END_TEST

/* Timers. */

START_TEST(test_timer_real_clock)
{
    /* In a process whose clock an earlier test stopped (CK_FORK=no), the
     * simulated-clock tests below cover timers instead. */
    if (time_is_stopped()) {
        return;
    }

    long long int deadline = time_msec() + 5;
    int iterations = 0;
    while (time_msec() < deadline) {
        poll_timer_wait_until(deadline);
        poll_block();
        iterations++;
    }
    ck_assert_int_ge(iterations, 1);
    ck_assert_int_ge(time_msec(), deadline);
}
END_TEST

START_TEST(test_timer_fires_on_warp)
{
    time_stop();
    long long int deadline = time_msec() + 100;

    struct helper helper = { .fd = -1, .warp_msec = 100, .warp_step = 100 };
    pthread_t thread = helper_start(&helper);

    poll_timer_wait_until(deadline);
    pthread_barrier_wait(&helper.barrier);
    poll_block();

    ck_assert_int_ge(time_msec(), deadline);
    helper_finish(&helper, thread);
}
END_TEST

START_TEST(test_timer_waits_through_partial_warps)
{
    /* The run/wait/block pattern keeps waiting while warps fall short of the
     * deadline and ends exactly once the clock reaches it. */
    time_stop();
    long long int start = time_msec();
    long long int deadline = start + 100;

    struct helper helper = { .fd = -1, .warp_msec = 100, .warp_step = 10 };
    pthread_t thread = helper_start(&helper);
    pthread_barrier_wait(&helper.barrier);

    while (time_msec() < deadline) {
        poll_timer_wait_until(deadline);
        poll_block();
    }
    ck_assert_int_eq(time_msec(), deadline);
    helper_finish(&helper, thread);
}
END_TEST

START_TEST(test_far_timer_with_stopped_clock_yields_to_fd)
{
    time_stop();
    long long int deadline = time_msec() + 1000;
    int fds[2];
    make_pipe(fds);

    struct helper helper = { .fd = fds[1] };
    pthread_t thread = helper_start(&helper);

    poll_timer_wait_until(deadline);
    poll_fd_wait(fds[0], POLLIN);
    pthread_barrier_wait(&helper.barrier);
    poll_block();

    /* Woken by the pipe; the stopped clock has not moved. */
    ck_assert(is_readable(fds[0]));
    ck_assert_int_lt(time_msec(), deadline);

    helper_finish(&helper, thread);
    close_pipe(fds);
}
END_TEST

/* Threads. */

static void *
loop_user_main(void *aux OVS_UNUSED)
{
    /* Creates this thread's loop and leaves a registered wait behind; the
     * thread-exit destructor must free both (checked by ASan/valgrind). */
    poll_immediate_wake();
    poll_block();
    poll_timer_wait(1000);
    return NULL;
}

START_TEST(test_thread_loops_are_independent_and_freed)
{
    pthread_t threads[4];
    for (int i = 0; i < 4; i++) {
        threads[i] = ovs_thread_create("loop-user", loop_user_main, NULL);
    }
    for (int i = 0; i < 4; i++) {
        xpthread_join(threads[i], NULL);
    }

    /* Another thread's waits never leak into ours: with only an immediate
     * wake registered here, we block exactly once per call. */
    ck_assert_ptr_ne(poll_loop_self(), NULL);
    poll_immediate_wake();
    poll_block();
}
END_TEST

START_TEST(test_loop_destroy_self_then_reuse)
{
    struct event_base *base = poll_loop_base();
    ck_assert_ptr_nonnull(base);
    poll_timer_wait(1000);
    poll_loop_destroy_self();

    /* A fresh loop, with none of the old waits. */
    poll_immediate_wake();
    poll_block();
}
END_TEST

static Suite *
poll_loop_suite(void)
{
    Suite *s = suite_create("poll-loop");

    TCase *tc = tcase_create("immediate");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, test_immediate_wake_returns_at_once);
    tcase_add_test(tc, test_wakeup_counter_once_per_block);
    tcase_add_test(tc, test_expired_timer_is_immediate);
    suite_add_tcase(s, tc);

    tc = tcase_create("fd");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, test_fd_wait_wakes_on_write_from_other_thread);
    tcase_add_test(tc, test_fd_wait_pollout_on_writable_fd);
    tcase_add_test(tc, test_fd_wait_on_regular_file_does_not_hang);
    tcase_add_test(tc, test_waits_are_one_shot);
    tcase_add_test(tc, test_many_fd_waits_reused_across_iterations);
    tcase_add_test(tc, test_attached_event_runs_and_ends_block);
    suite_add_tcase(s, tc);

    tc = tcase_create("wake");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, test_loop_wake_from_other_thread);
    tcase_add_test(tc, test_loop_wake_before_block_is_not_lost);
    suite_add_tcase(s, tc);

    /* The real-clock test first: the others stop the clock for good. */
    tc = tcase_create("timer");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, test_timer_real_clock);
    tcase_add_test(tc, test_timer_fires_on_warp);
    tcase_add_test(tc, test_timer_waits_through_partial_warps);
    tcase_add_test(tc, test_far_timer_with_stopped_clock_yields_to_fd);
    suite_add_tcase(s, tc);

    tc = tcase_create("threads");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, test_thread_loops_are_independent_and_freed);
    tcase_add_test(tc, test_loop_destroy_self_then_reuse);
    suite_add_tcase(s, tc);

    return s;
}

int
main(int argc OVS_UNUSED, char *argv[])
{
    set_program_name(argv[0]);

    SRunner *sr = srunner_create(poll_loop_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
