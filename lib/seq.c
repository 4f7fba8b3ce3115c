#include <config.h>
#include "seq.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "coverage.h"
#include "list.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "util.h"

COVERAGE_DEFINE(seq_change);

/* One mutex guards every seq's waiter list and every thread's waiter list.
 * seq_change() is rare next to seq_read(), which never takes it, so a single
 * lock keeps the two-list bookkeeping simple without costing the readers. */
static struct ovs_mutex seq_mutex = OVS_MUTEX_INITIALIZER;

/* Values come from one process-wide counter, so a value is never reused, not
 * even by another seq: a stale value can never match a fresh seq by luck. */
static uint64_t seq_next = 1;   /* Guarded by seq_mutex. */

struct seq {
    _Atomic uint64_t value;     /* Written under seq_mutex, read lock-free. */
    struct ovs_list waiters;    /* Of seq_waiter.seq_node; under seq_mutex. */
};

/* One seq_wait() call that has not yet been satisfied.  It sits on two lists
 * at once, so that both ends can drop it in O(1): the seq's list (seq_change()
 * wakes and frees everything on it) and the waiting thread's list (the thread
 * frees its leftovers once poll_block() returns). */
struct seq_waiter {
    struct seq *seq;
    struct poll_loop *loop;     /* The waiting thread's loop, to wake it. */
    struct ovs_list seq_node;   /* In seq->waiters. */
    struct ovs_list thread_node;/* In the waiting thread's thread_waiters. */
};

/* The calling thread's outstanding waiters.  Other threads unlink entries
 * from it (under seq_mutex) when they wake them, which is safe because the
 * thread drains it in seq_woke() before its loop, and the thread, go away:
 * poll-loop calls seq_woke() when it destroys a loop, including at thread
 * exit. */
static __thread struct ovs_list thread_waiters;
static __thread bool thread_waiters_initialized;

/* How many waiters this thread added since its last seq_woke().  Only this
 * thread touches it, so seq_woke() can skip the mutex in the common case of
 * an iteration that waited on no seq. */
static __thread size_t thread_n_added;

static struct ovs_list *
get_thread_waiters(void)
{
    if (!thread_waiters_initialized) {
        ovs_list_init(&thread_waiters);
        thread_waiters_initialized = true;
    }
    return &thread_waiters;
}

struct seq *
seq_create(void)
{
    struct seq *seq = xmalloc(sizeof *seq);

    ovs_mutex_lock(&seq_mutex);
    atomic_init(&seq->value, seq_next++);
    ovs_list_init(&seq->waiters);
    ovs_mutex_unlock(&seq_mutex);

    return seq;
}

static void
waiter_destroy(struct seq_waiter *waiter)
{
    ovs_list_remove(&waiter->seq_node);
    ovs_list_remove(&waiter->thread_node);
    free(waiter);
}

/* Wakes and frees every waiter of SEQ.  Caller holds seq_mutex, which is what
 * keeps each waiter's loop alive while we wake it. */
static void
seq_wake_waiters(struct seq *seq)
{
    struct seq_waiter *waiter;

    LIST_FOR_EACH_SAFE (waiter, seq_node, &seq->waiters) {
        poll_loop_wake(waiter->loop);
        waiter_destroy(waiter);
    }
}

void
seq_destroy(struct seq *seq)
{
    if (!seq) {
        return;
    }

    ovs_mutex_lock(&seq_mutex);
    seq_wake_waiters(seq);
    ovs_mutex_unlock(&seq_mutex);

    free(seq);
}

void
seq_change(struct seq *seq)
{
    COVERAGE_INC(seq_change);

    ovs_mutex_lock(&seq_mutex);
    atomic_store_explicit(&seq->value, seq_next++, memory_order_release);
    seq_wake_waiters(seq);
    ovs_mutex_unlock(&seq_mutex);
}

uint64_t
seq_read(const struct seq *seq)
{
    /* Acquire pairs with the release in seq_change(): whatever the changer
     * wrote before bumping the value is visible to a reader that sees the
     * new value. */
    return atomic_load_explicit(&((struct seq *) seq)->value,
                                memory_order_acquire);
}

void
seq_wait(const struct seq *seq_, uint64_t value)
{
    struct seq *seq = (struct seq *) seq_;
    /* Fetched before locking: the first call in a thread creates its loop,
     * which is no work to do under a process-wide mutex. */
    struct poll_loop *loop = poll_loop_self();

    /* Compared under the mutex: seq_change() bumps the value and collects
     * the waiters in one critical section, so either we see the new value
     * here or our waiter is on the list it wakes.  Nothing falls between. */
    ovs_mutex_lock(&seq_mutex);
    if (atomic_load_explicit(&seq->value, memory_order_relaxed) != value) {
        ovs_mutex_unlock(&seq_mutex);
        poll_immediate_wake();
        return;
    }

    struct seq_waiter *waiter = xmalloc(sizeof *waiter);
    waiter->seq = seq;
    waiter->loop = loop;
    ovs_list_push_back(&seq->waiters, &waiter->seq_node);
    ovs_list_push_back(get_thread_waiters(), &waiter->thread_node);
    ovs_mutex_unlock(&seq_mutex);
    thread_n_added++;
}

void
seq_woke(void)
{
    if (!thread_n_added) {
        return;
    }
    thread_n_added = 0;

    struct ovs_list *list = &thread_waiters;
    ovs_mutex_lock(&seq_mutex);
    while (!ovs_list_is_empty(list)) {
        struct seq_waiter *waiter = CONTAINER_OF(list->next,
                                                 struct seq_waiter,
                                                 thread_node);
        waiter_destroy(waiter);
    }
    ovs_mutex_unlock(&seq_mutex);
}
