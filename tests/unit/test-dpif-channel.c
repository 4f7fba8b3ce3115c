/* Unit tests for dpif-channel.h, the per-port upcall rings shared by all
 * handlers: order and wrap-around, a full ring loses and counts, slots
 * read in place stay claimed until released, round-robin service across
 * channels, one sleeping handler woken per ready channel, and several
 * producers and handlers at once. */
#include <config.h>
#include "dpif-channel.h"

#include <check.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ovs-thread.h"
#include "poll-loop.h"
#include "seq.h"
#include "util.h"
#include "check-util.h"

/* Commits an upcall on CH whose packet is the 4 bytes of ID; false if
 * the ring refused it. */
static bool
put(struct dpif_channel *ch, uint32_t id)
{
    struct dpif_channel_slot *slot = dpif_channel_reserve(ch, sizeof id);
    if (!slot) {
        return false;
    }
    slot->type = DPIF_CHANNEL_MISS;
    slot->port = dpif_channel_port(ch);
    memcpy(slot->packet, &id, sizeof id);
    dpif_channel_commit(ch, slot);
    return true;
}

static uint32_t
id_of(const struct dpif_channel_slot *slot)
{
    uint32_t id;
    memcpy(&id, slot->packet, sizeof id);
    return id;
}

START_TEST(test_order_and_wrap_around)
{
    struct dpif_channel_set *set = dpif_channel_set_create();
    struct dpif_channel *ch = dpif_channel_create(set, 3, 8, 64);
    struct dpif_channel_handler h;
    const struct dpif_channel_slot *slots[DPIF_CHANNEL_MAX_BATCH];
    uint32_t next_put = 0, next_get = 0;

    ck_assert_uint_eq(dpif_channel_n_slots(ch), 8);
    dpif_channel_handler_init(&h, set);
    /* 100 rounds of 5 over an 8-slot ring: many laps. */
    for (int round = 0; round < 100; round++) {
        for (int i = 0; i < 5; i++) {
            ck_assert(put(ch, next_put++));
        }
        size_t n = dpif_channel_recv(&h, slots, DPIF_CHANNEL_MAX_BATCH);
        ck_assert_uint_eq(n, 5);
        for (size_t i = 0; i < n; i++) {
            ck_assert_uint_eq(slots[i]->port, 3);
            ck_assert_uint_eq(slots[i]->packet_len, 4);
            ck_assert_uint_eq(id_of(slots[i]), next_get++);
        }
        dpif_channel_release(&h);
    }
    ck_assert_uint_eq(dpif_channel_recv(&h, slots, 64), 0);

    struct dpif_channel_stats stats;
    dpif_channel_get_stats(ch, &stats);
    ck_assert_uint_eq(stats.n_queued, 500);
    ck_assert_uint_eq(stats.n_received, 500);
    ck_assert_uint_eq(stats.n_lost, 0);

    dpif_channel_handler_uninit(&h);
    dpif_channel_destroy(ch);
    dpif_channel_set_destroy(set);
}
END_TEST

/* A port's ring is deep (to ride out a handler's scheduling gaps), so a
 * switch with thousands of quiet ports must not pay for the depth: making
 * a channel writes none of its ring, sequence numbers included. */
START_TEST(test_new_channels_commit_no_memory)
{
    enum { N_CHANNELS = 100, N_SLOTS = 2048 };
    struct dpif_channel_set *set = dpif_channel_set_create();
    struct dpif_channel **chs = xcalloc(N_CHANNELS, sizeof *chs);

    for (int i = 0; i < N_CHANNELS; i++) {
        chs[i] = dpif_channel_create(set, i, N_SLOTS, 1522);
        ck_assert_uint_eq(dpif_channel_n_slots(chs[i]), N_SLOTS);
        ck_assert_uint_eq(dpif_channel_resident_bytes(chs[i]), 0);
    }

    /* Each still works from its first slot on, and an upcall commits
     * only the pages it wrote: far less than the ring. */
    ck_assert(put(chs[N_CHANNELS - 1], 7));
    size_t resident = dpif_channel_resident_bytes(chs[N_CHANNELS - 1]);
    ck_assert_uint_gt(resident, 0);
    ck_assert_uint_le(resident, 4 * (size_t) sysconf(_SC_PAGESIZE));
    struct dpif_channel_handler h;
    const struct dpif_channel_slot *slots[DPIF_CHANNEL_MAX_BATCH];
    dpif_channel_handler_init(&h, set);
    ck_assert_uint_eq(dpif_channel_recv(&h, slots, DPIF_CHANNEL_MAX_BATCH), 1);
    ck_assert_uint_eq(id_of(slots[0]), 7);
    dpif_channel_release(&h);
    dpif_channel_handler_uninit(&h);

    for (int i = 0; i < N_CHANNELS; i++) {
        dpif_channel_destroy(chs[i]);
    }
    free(chs);
    dpif_channel_set_destroy(set);
}
END_TEST

START_TEST(test_full_ring_loses_and_counts)
{
    struct dpif_channel_set *set = dpif_channel_set_create();
    struct dpif_channel *ch = dpif_channel_create(set, 1, 8, 64);
    struct dpif_channel_handler h;
    const struct dpif_channel_slot *slots[DPIF_CHANNEL_MAX_BATCH];
    struct dpif_channel_stats stats;

    dpif_channel_handler_init(&h, set);
    for (uint32_t i = 0; i < 8; i++) {
        ck_assert(put(ch, i));
    }
    ck_assert(!put(ch, 8));
    /* A packet bigger than a slot is lost too. */
    ck_assert_ptr_null(dpif_channel_reserve(ch, 65));
    dpif_channel_get_stats(ch, &stats);
    ck_assert_uint_eq(stats.n_lost, 2);

    /* Claimed slots are read in place: the ring stays full until the
     * handler releases them. */
    ck_assert_uint_eq(dpif_channel_recv(&h, slots, 64), 8);
    ck_assert(!put(ch, 9));
    ck_assert_uint_eq(id_of(slots[0]), 0);
    ck_assert_uint_eq(id_of(slots[7]), 7);
    dpif_channel_release(&h);
    for (uint32_t i = 10; i < 18; i++) {
        ck_assert(put(ch, i));
    }
    ck_assert_uint_eq(dpif_channel_recv(&h, slots, 64), 8);
    ck_assert_uint_eq(id_of(slots[0]), 10);
    dpif_channel_get_stats(ch, &stats);
    ck_assert_uint_eq(stats.n_lost, 3);
    ck_assert_uint_eq(stats.n_queued, 16);

    /* Destroying a channel whose slots a handler still holds is safe: the
     * ring goes when the handler lets go. */
    dpif_channel_destroy(ch);
    ck_assert_uint_eq(id_of(slots[7]), 17);
    dpif_channel_handler_uninit(&h);
    dpif_channel_set_destroy(set);
}
END_TEST

START_TEST(test_round_robin_across_channels)
{
    struct dpif_channel_set *set = dpif_channel_set_create();
    struct dpif_channel *flood = dpif_channel_create(set, 1, 256, 64);
    struct dpif_channel *quiet = dpif_channel_create(set, 2, 256, 64);
    struct dpif_channel *third = dpif_channel_create(set, 3, 256, 64);
    struct dpif_channel_handler h;
    const struct dpif_channel_slot *slots[DPIF_CHANNEL_MAX_BATCH];

    dpif_channel_handler_init(&h, set);
    for (uint32_t i = 0; i < 256; i++) {
        ck_assert(put(flood, i));
    }
    /* The quiet ports' upcalls come after 256 of the flood's. */
    ck_assert(put(quiet, 1000));
    ck_assert(put(quiet, 1001));
    ck_assert(put(third, 2000));

    /* One batch: a quantum from the flood, then the quiet ones, then the
     * flood again. */
    size_t n = dpif_channel_recv(&h, slots, DPIF_CHANNEL_MAX_BATCH);
    ck_assert_uint_eq(n, DPIF_CHANNEL_MAX_BATCH);
    size_t i;
    for (i = 0; i < DPIF_CHANNEL_QUANTUM; i++) {
        ck_assert_uint_eq(slots[i]->port, 1);
    }
    ck_assert_uint_eq(slots[i]->port, 2);
    ck_assert_uint_eq(id_of(slots[i]), 1000);
    ck_assert_uint_eq(id_of(slots[i + 1]), 1001);
    ck_assert_uint_eq(slots[i + 2]->port, 3);
    for (i += 3; i < n; i++) {
        ck_assert_uint_eq(slots[i]->port, 1);
    }

    /* The rest drains in order, the flood alone. */
    uint32_t expect = n - 3;
    while ((n = dpif_channel_recv(&h, slots, 64)) > 0) {
        for (i = 0; i < n; i++) {
            ck_assert_uint_eq(id_of(slots[i]), expect++);
        }
    }
    ck_assert_uint_eq(expect, 256);

    dpif_channel_handler_uninit(&h);
    dpif_channel_destroy(flood);
    dpif_channel_destroy(quiet);
    dpif_channel_destroy(third);
    dpif_channel_set_destroy(set);
}
END_TEST

/* Handler threads for the threaded tests. */
struct handler_arg {
    struct dpif_channel_set *set;
    atomic_bool *stop;
    struct seq *stop_seq;
    _Atomic uint64_t received;
    _Atomic uint64_t wakeups;       /* Returns from poll_block(). */
    _Atomic uint8_t *seen;          /* Optional: times each id arrived. */
    uint32_t n_per_producer;
};

static void *
handler_main(void *arg_)
{
    struct handler_arg *arg = arg_;
    struct dpif_channel_handler h;
    const struct dpif_channel_slot *slots[DPIF_CHANNEL_MAX_BATCH];

    dpif_channel_handler_init(&h, arg->set);
    for (;;) {
        uint64_t stop_seq = seq_read(arg->stop_seq);
        if (atomic_load(arg->stop)) {
            break;
        }
        size_t n = dpif_channel_recv(&h, slots, DPIF_CHANNEL_MAX_BATCH);
        for (size_t i = 0; i < n; i++) {
            if (arg->seen) {
                uint32_t id = id_of(slots[i]);
                atomic_fetch_add(&arg->seen[(id >> 24) * arg->n_per_producer
                                            + (id & 0xffffff)], 1);
            }
        }
        atomic_fetch_add(&arg->received, n);
        dpif_channel_release(&h);
        if (!n) {
            dpif_channel_wait(&h);
            seq_wait(arg->stop_seq, stop_seq);
            poll_block();
            atomic_fetch_add(&arg->wakeups, 1);
        }
    }
    dpif_channel_handler_uninit(&h);
    return NULL;
}

START_TEST(test_one_sleeping_handler_woken_per_channel)
{
    struct dpif_channel_set *set = dpif_channel_set_create();
    struct dpif_channel *ch = dpif_channel_create(set, 1, 64, 64);
    atomic_bool stop = false;
    struct seq *stop_seq = seq_create();
    struct handler_arg args[2];
    pthread_t threads[2];

    for (int i = 0; i < 2; i++) {
        memset(&args[i], 0, sizeof args[i]);
        args[i].set = set;
        args[i].stop = &stop;
        args[i].stop_seq = stop_seq;
        threads[i] = ovs_thread_create("test_handler", handler_main, &args[i]);
    }
    CHECK_WAIT_FOR(dpif_channel_n_sleeping(set) == 2);

    for (uint32_t k = 0; k < 20; k++) {
        ck_assert(put(ch, k));
        CHECK_WAIT_FOR(atomic_load(&args[0].received)
                 + atomic_load(&args[1].received) == k + 1);
        CHECK_WAIT_FOR(dpif_channel_n_sleeping(set) == 2);
        /* One handler woke for the upcall; the other slept through. */
        ck_assert_uint_eq(atomic_load(&args[0].wakeups)
                          + atomic_load(&args[1].wakeups), k + 1);
    }

    atomic_store(&stop, true);
    seq_change(stop_seq);
    for (int i = 0; i < 2; i++) {
        xpthread_join(threads[i], NULL);
    }
    dpif_channel_destroy(ch);
    dpif_channel_set_destroy(set);
    seq_destroy(stop_seq);
}
END_TEST

struct producer_arg {
    struct dpif_channel *channels[2];
    uint32_t id;
    uint32_t n;
    uint64_t n_put;
};

static void *
producer_main(void *arg_)
{
    struct producer_arg *arg = arg_;
    for (uint32_t s = 0; s < arg->n; s++) {
        if (put(arg->channels[s % 2], arg->id << 24 | s)) {
            arg->n_put++;
        }
    }
    return NULL;
}

START_TEST(test_producers_and_handlers_in_parallel)
{
    enum { N_PRODUCERS = 2, N_HANDLERS = 2, N_EACH = 20000 };
    struct dpif_channel_set *set = dpif_channel_set_create();
    struct dpif_channel *chs[2] = {
        dpif_channel_create(set, 1, 64, 64),
        dpif_channel_create(set, 2, 64, 64),
    };
    atomic_bool stop = false;
    struct seq *stop_seq = seq_create();
    struct handler_arg hargs[N_HANDLERS];
    pthread_t hthreads[N_HANDLERS];
    struct producer_arg pargs[N_PRODUCERS];
    pthread_t pthreads[N_PRODUCERS];
    _Atomic uint8_t *seen = xzalloc(N_PRODUCERS * N_EACH * sizeof *seen);

    for (int i = 0; i < N_HANDLERS; i++) {
        memset(&hargs[i], 0, sizeof hargs[i]);
        hargs[i].set = set;
        hargs[i].stop = &stop;
        hargs[i].stop_seq = stop_seq;
        hargs[i].seen = seen;
        hargs[i].n_per_producer = N_EACH;
        hthreads[i] = ovs_thread_create("test_handler", handler_main,
                                        &hargs[i]);
    }
    for (int i = 0; i < N_PRODUCERS; i++) {
        pargs[i] = (struct producer_arg) { { chs[0], chs[1] }, i, N_EACH, 0 };
        pthreads[i] = ovs_thread_create("test_producer", producer_main,
                                        &pargs[i]);
    }
    uint64_t n_put = 0;
    for (int i = 0; i < N_PRODUCERS; i++) {
        xpthread_join(pthreads[i], NULL);
        n_put += pargs[i].n_put;
    }
    CHECK_WAIT_FOR(atomic_load(&hargs[0].received)
             + atomic_load(&hargs[1].received) == n_put);

    /* Every upcall was either delivered or counted lost. */
    uint64_t lost = 0, queued = 0;
    for (int i = 0; i < 2; i++) {
        struct dpif_channel_stats stats;
        dpif_channel_get_stats(chs[i], &stats);
        lost += stats.n_lost;
        queued += stats.n_queued;
    }
    ck_assert_uint_eq(queued, n_put);
    ck_assert_uint_eq(queued + lost, N_PRODUCERS * N_EACH);
    /* ...and delivered once. */
    uint64_t n_seen = 0;
    for (int i = 0; i < N_PRODUCERS * N_EACH; i++) {
        ck_assert_uint_le(atomic_load(&seen[i]), 1);
        n_seen += atomic_load(&seen[i]);
    }
    ck_assert_uint_eq(n_seen, n_put);
    free(seen);

    atomic_store(&stop, true);
    seq_change(stop_seq);
    for (int i = 0; i < N_HANDLERS; i++) {
        xpthread_join(hthreads[i], NULL);
    }
    dpif_channel_destroy(chs[0]);
    dpif_channel_destroy(chs[1]);
    dpif_channel_set_destroy(set);
    seq_destroy(stop_seq);
}
END_TEST

static Suite *
channel_suite(void)
{
    Suite *s = suite_create("dpif-channel");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_order_and_wrap_around);
    tcase_add_test(tc, test_full_ring_loses_and_counts);
    tcase_add_test(tc, test_new_channels_commit_no_memory);
    tcase_add_test(tc, test_round_robin_across_channels);
    tcase_add_test(tc, test_one_sleeping_handler_woken_per_channel);
    tcase_add_test(tc, test_producers_and_handlers_in_parallel);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(channel_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
