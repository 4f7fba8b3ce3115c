/* Unit tests for seq and connectivity_seq: changes wake waiters, in every
 * interleaving of change and wait, and waiters never outlive their seq or
 * their thread.
 *
 * A blocked thread in these tests has no wake source except the seq under
 * test, so a lost wake-up is a hang (reported by Check as a timeout).  The
 * tests that race a change against a wait repeat many times so that both
 * orders (change before the wait, change while blocked) occur. */
#include <config.h>
#include "seq.h"

#include <check.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "connectivity.h"
#include "coverage.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "util.h"

static void
teardown(void)
{
    poll_loop_destroy_self();
}

START_TEST(test_change_moves_value)
{
    struct seq *seq = seq_create();
    uint64_t a = seq_read(seq);
    ck_assert_uint_eq(seq_read(seq), a);

    seq_change(seq);
    uint64_t b = seq_read(seq);
    ck_assert_uint_gt(b, a);

    seq_change(seq);
    ck_assert_uint_gt(seq_read(seq), b);

    /* Values are never shared between seqs either. */
    struct seq *other = seq_create();
    ck_assert_uint_ne(seq_read(other), seq_read(seq));

    seq_destroy(other);
    seq_destroy(seq);
    seq_destroy(NULL);
}
END_TEST

START_TEST(test_change_before_wait_wakes_at_once)
{
    struct seq *seq = seq_create();

    /* The race-free pattern: read, (something changes), wait with the value
     * read.  The block must not sleep through the change. */
    uint64_t seen = seq_read(seq);
    seq_change(seq);

    unsigned long long int zt = coverage_read_counter("poll_zero_timeout");
    seq_wait(seq, seen);
    poll_block();
    ck_assert_uint_eq(coverage_read_counter("poll_zero_timeout"), zt + 1);

    seq_destroy(seq);
}
END_TEST

START_TEST(test_change_after_wait_before_block_wakes)
{
    struct seq *seq = seq_create();

    seq_wait(seq, seq_read(seq));
    seq_change(seq);            /* Same thread, before it blocks. */
    poll_block();

    seq_destroy(seq);
}
END_TEST

/* One changer thread, one waiting (main) thread. */

struct changer {
    struct seq *seq;
    pthread_barrier_t barrier;
    int rounds;
};

static void *
changer_main(void *changer_)
{
    struct changer *changer = changer_;

    for (int i = 0; i < changer->rounds; i++) {
        pthread_barrier_wait(&changer->barrier);
        seq_change(changer->seq);
    }
    return NULL;
}

START_TEST(test_wait_is_one_shot)
{
    struct seq *seq = seq_create();

    /* Waited on, then woken by something else: the wait must be dropped. */
    seq_wait(seq, seq_read(seq));
    poll_immediate_wake();
    poll_block();

    /* A change now must not reach us: the next block waits only for a
     * helper's change of another seq, and must still see that change. */
    seq_change(seq);

    struct changer changer = { .seq = seq_create(), .rounds = 1 };
    pthread_barrier_init(&changer.barrier, NULL, 2);
    pthread_t thread = ovs_thread_create("changer", changer_main, &changer);

    uint64_t seen = seq_read(changer.seq);
    seq_wait(changer.seq, seen);
    pthread_barrier_wait(&changer.barrier);
    poll_block();
    ck_assert_uint_ne(seq_read(changer.seq), seen);

    xpthread_join(thread, NULL);
    pthread_barrier_destroy(&changer.barrier);
    seq_destroy(changer.seq);
    seq_destroy(seq);
}
END_TEST

START_TEST(test_change_from_other_thread_wakes_blocked_thread)
{
    struct changer changer = { .seq = seq_create(), .rounds = 500 };
    pthread_barrier_init(&changer.barrier, NULL, 2);
    pthread_t thread = ovs_thread_create("changer", changer_main, &changer);

    for (int i = 0; i < changer.rounds; i++) {
        uint64_t seen = seq_read(changer.seq);
        pthread_barrier_wait(&changer.barrier);
        seq_wait(changer.seq, seen);
        poll_block();           /* Only the change can end this. */
        ck_assert_uint_ne(seq_read(changer.seq), seen);
    }

    xpthread_join(thread, NULL);
    pthread_barrier_destroy(&changer.barrier);
    seq_destroy(changer.seq);
}
END_TEST

/* Ping-pong: each thread runs the full run/wait/block pattern on the other's
 * seq.  It terminates only if no change is ever missed. */

struct pingpong {
    struct seq *seqs[2];
    atomic_int turn;            /* Whose move it is: 0 or 1. */
    int rounds;
};

static void
pingpong_play(struct pingpong *pp, int me)
{
    int moves = 0;
    while (moves < pp->rounds) {
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

START_TEST(test_pingpong_never_loses_a_change)
{
    struct pingpong pp = {
        .seqs = { seq_create(), seq_create() },
        .turn = 0,
        .rounds = 2000,
    };
    pthread_t thread = ovs_thread_create("pong", pingpong_main, &pp);

    pingpong_play(&pp, 0);

    xpthread_join(thread, NULL);
    seq_destroy(pp.seqs[0]);
    seq_destroy(pp.seqs[1]);
}
END_TEST

/* Many waiters on one seq. */

enum { N_WAITERS = 8 };

struct crowd {
    struct seq *seq;
    pthread_barrier_t barrier;
    atomic_int n_woken;
};

static void *
crowd_member_main(void *crowd_)
{
    struct crowd *crowd = crowd_;

    uint64_t seen = seq_read(crowd->seq);
    seq_wait(crowd->seq, seen);
    pthread_barrier_wait(&crowd->barrier);
    poll_block();
    if (seq_read(crowd->seq) != seen) {
        atomic_fetch_add(&crowd->n_woken, 1);
    }
    return NULL;
}

START_TEST(test_all_waiters_wake)
{
    struct crowd crowd = { .seq = seq_create(), .n_woken = 0 };
    pthread_barrier_init(&crowd.barrier, NULL, N_WAITERS + 1);

    pthread_t threads[N_WAITERS];
    for (int i = 0; i < N_WAITERS; i++) {
        threads[i] = ovs_thread_create("waiter", crowd_member_main, &crowd);
    }

    /* Every member has registered its wait before this returns. */
    pthread_barrier_wait(&crowd.barrier);
    seq_change(crowd.seq);

    for (int i = 0; i < N_WAITERS; i++) {
        xpthread_join(threads[i], NULL);
    }
    ck_assert_int_eq(atomic_load(&crowd.n_woken), N_WAITERS);

    pthread_barrier_destroy(&crowd.barrier);
    seq_destroy(crowd.seq);
}
END_TEST

/* Lifetime. */

struct doomed {
    struct seq *seq;
    sem_t registered;
};

static void *
doomed_waiter_main(void *doomed_)
{
    struct doomed *doomed = doomed_;

    seq_wait(doomed->seq, seq_read(doomed->seq));
    sem_post(&doomed->registered);
    poll_block();               /* Ended by seq_destroy(). */
    return NULL;
}

START_TEST(test_destroy_with_waiter_wakes_it)
{
    struct doomed doomed = { .seq = seq_create() };
    sem_init(&doomed.registered, 0, 0);
    pthread_t thread = ovs_thread_create("doomed", doomed_waiter_main,
                                         &doomed);

    sem_wait(&doomed.registered);
    seq_destroy(doomed.seq);

    xpthread_join(thread, NULL);
    sem_destroy(&doomed.registered);
}
END_TEST

START_TEST(test_destroy_with_own_waiter)
{
    struct seq *seq = seq_create();
    struct seq *keep = seq_create();

    seq_wait(keep, seq_read(keep));
    seq_wait(seq, seq_read(seq));
    seq_destroy(seq);           /* Our own wait on it goes too... */
    poll_block();               /* ...and it wakes us... */

    seq_change(keep);           /* ...while the other wait, now dropped, */
    seq_destroy(keep);          /* can be changed and destroyed safely. */
}
END_TEST

static void *
exiting_waiter_main(void *seq)
{
    /* Exits with its wait still registered. */
    seq_wait(seq, seq_read(seq));
    return NULL;
}

START_TEST(test_thread_exit_drops_its_waits)
{
    struct seq *seq = seq_create();

    pthread_t thread = ovs_thread_create("exiting", exiting_waiter_main, seq);
    xpthread_join(thread, NULL);

    /* The thread and its loop are gone; waking must not touch them
     * (ASan/valgrind would catch a use after free). */
    seq_change(seq);
    seq_destroy(seq);
}
END_TEST

START_TEST(test_loop_destroy_drops_waits)
{
    struct seq *seq = seq_create();

    seq_wait(seq, seq_read(seq));
    poll_loop_destroy_self();
    seq_change(seq);

    seq_destroy(seq);
}
END_TEST

START_TEST(test_same_seq_waited_twice)
{
    struct seq *seq = seq_create();
    uint64_t seen = seq_read(seq);

    seq_wait(seq, seen);
    seq_wait(seq, seen);
    seq_change(seq);
    poll_block();
    seq_destroy(seq);
}
END_TEST

/* connectivity_seq. */

static void *
get_connectivity_main(void *aux OVS_UNUSED)
{
    return connectivity_seq_get();
}

START_TEST(test_connectivity_seq_is_singleton)
{
    enum { N = 4 };
    pthread_t threads[N];
    for (int i = 0; i < N; i++) {
        threads[i] = ovs_thread_create("conn", get_connectivity_main, NULL);
    }
    struct seq *mine = connectivity_seq_get();
    ck_assert_ptr_nonnull(mine);
    for (int i = 0; i < N; i++) {
        void *theirs;
        xpthread_join(threads[i], &theirs);
        ck_assert_ptr_eq(theirs, mine);
    }

    uint64_t seen = seq_read(mine);
    seq_change(connectivity_seq_get());
    ck_assert_uint_ne(seq_read(mine), seen);
}
END_TEST

static Suite *
seq_suite(void)
{
    Suite *s = suite_create("seq");

    TCase *tc = tcase_create("single-thread");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, test_change_moves_value);
    tcase_add_test(tc, test_change_before_wait_wakes_at_once);
    tcase_add_test(tc, test_change_after_wait_before_block_wakes);
    tcase_add_test(tc, test_same_seq_waited_twice);
    suite_add_tcase(s, tc);

    tc = tcase_create("threads");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_wait_is_one_shot);
    tcase_add_test(tc, test_change_from_other_thread_wakes_blocked_thread);
    tcase_add_test(tc, test_pingpong_never_loses_a_change);
    tcase_add_test(tc, test_all_waiters_wake);
    suite_add_tcase(s, tc);

    tc = tcase_create("lifetime");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, test_destroy_with_waiter_wakes_it);
    tcase_add_test(tc, test_destroy_with_own_waiter);
    tcase_add_test(tc, test_thread_exit_drops_its_waits);
    tcase_add_test(tc, test_loop_destroy_drops_waits);
    suite_add_tcase(s, tc);

    tc = tcase_create("connectivity");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, test_connectivity_seq_is_singleton);
    suite_add_tcase(s, tc);

    return s;
}

int
main(int argc OVS_UNUSED, char *argv[])
{
    set_program_name(argv[0]);

    SRunner *sr = srunner_create(seq_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
