#include <config.h>
#include "ovs-rcu.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "list.h"
#include "ovs-thread.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovs_rcu);

/* UINT64_MAX in 'seen' means offline: the thread holds no pointers. */
#define OFFLINE UINT64_MAX

struct rcu_callback {
    void (*function)(void *);
    void *aux;
    uint64_t epoch;             /* Runs once every thread has seen this. */
};

struct rcu_thread {
    struct ovs_list node;       /* In 'threads'. */
    _Atomic uint64_t seen;      /* Epoch at the last quiescent point. */
    /* Callbacks this thread postponed, oldest first (epochs increase).
     * Only the owning thread touches them. */
    struct rcu_callback *cbs;
    size_t n_cbs, allocated_cbs;
};

static _Atomic uint64_t global_epoch = 1;
static struct ovs_mutex threads_mutex = OVS_MUTEX_INITIALIZER;
static struct ovs_list threads = OVS_LIST_INITIALIZER(&threads);
static pthread_key_t thread_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

_Thread_local bool ovsrcu_registered__;
static _Thread_local struct rcu_thread *self;

static void run_callbacks(struct rcu_thread *, uint64_t safe_epoch);
static uint64_t min_seen_by_others(const struct rcu_thread *);

/* Callbacks of threads that exited before their grace period ended, run
 * by the next thread that quiesces once it has.  Under threads_mutex. */
static struct rcu_callback *orphans;
static size_t n_orphans, allocated_orphans;
static _Atomic size_t n_orphans_hint;

/* An exiting thread holds no pointers any more; what it postponed is
 * handed over rather than waited for, since the threads it would wait for
 * may be waiting for it (in pthread_join()). */
static void
thread_exit(void *t_)
{
    struct rcu_thread *t = t_;
    ovs_mutex_lock(&threads_mutex);
    ovs_list_remove(&t->node);
    for (size_t i = 0; i < t->n_cbs; i++) {
        if (n_orphans >= allocated_orphans) {
            orphans = x2nrealloc(orphans, &allocated_orphans,
                                 sizeof *orphans);
        }
        orphans[n_orphans++] = t->cbs[i];
    }
    atomic_store(&n_orphans_hint, n_orphans);
    ovs_mutex_unlock(&threads_mutex);
    free(t->cbs);
    free(t);
    self = NULL;
    ovsrcu_registered__ = false;
}

/* Runs the orphans whose epoch is at most SAFE_EPOCH. */
static void
run_orphans(uint64_t safe_epoch)
{
    if (!atomic_load_explicit(&n_orphans_hint, memory_order_relaxed)) {
        return;
    }
    struct rcu_callback *ready = NULL;
    size_t n_ready = 0;
    ovs_mutex_lock(&threads_mutex);
    if (n_orphans) {
        ready = xmalloc(n_orphans * sizeof *ready);
        size_t kept = 0;
        for (size_t i = 0; i < n_orphans; i++) {
            if (orphans[i].epoch <= safe_epoch) {
                ready[n_ready++] = orphans[i];
            } else {
                orphans[kept++] = orphans[i];
            }
        }
        n_orphans = kept;
        atomic_store(&n_orphans_hint, n_orphans);
    }
    ovs_mutex_unlock(&threads_mutex);
    for (size_t i = 0; i < n_ready; i++) {
        ready[i].function(ready[i].aux);
    }
    free(ready);
}

static void
make_key(void)
{
    if (pthread_key_create(&thread_key, thread_exit)) {
        ovs_abort(0, "pthread_key_create failed");
    }
}

void
ovsrcu_register__(void)
{
    pthread_once(&key_once, make_key);
    struct rcu_thread *t = xzalloc(sizeof *t);
    ovs_mutex_lock(&threads_mutex);
    /* Under the mutex, so that a writer scanning the threads either sees
     * this one or finished before it could read anything. */
    atomic_store(&t->seen, atomic_load(&global_epoch));
    ovs_list_push_back(&threads, &t->node);
    ovs_mutex_unlock(&threads_mutex);
    pthread_setspecific(thread_key, t);
    self = t;
    ovsrcu_registered__ = true;
}

static struct rcu_thread *
get_self(void)
{
    ovsrcu_register();
    return self;
}

/* Marks the calling thread quiescent (at the current epoch, or OFFLINE),
 * and runs the callbacks whose grace period is over. */
static void
quiesce(bool offline)
{
    struct rcu_thread *t = get_self();
    atomic_store(&t->seen, offline ? OFFLINE : atomic_load(&global_epoch));
    if (t->n_cbs || atomic_load_explicit(&n_orphans_hint,
                                         memory_order_relaxed)) {
        uint64_t safe = min_seen_by_others(t);
        run_callbacks(t, safe);
        run_orphans(safe);
    }
}

void
ovsrcu_quiesce(void)
{
    quiesce(false);
}

void
ovsrcu_quiesce_start(void)
{
    quiesce(true);
}

void
ovsrcu_quiesce_end(void)
{
    struct rcu_thread *t = get_self();
    atomic_store(&t->seen, atomic_load(&global_epoch));
}

bool
ovsrcu_is_quiescent(void)
{
    return !ovsrcu_registered__ || atomic_load(&self->seen) == OFFLINE;
}

void
ovsrcu_postpone__(void (*function)(void *), void *aux)
{
    struct rcu_thread *t = get_self();
    if (t->n_cbs >= t->allocated_cbs) {
        t->cbs = x2nrealloc(t->cbs, &t->allocated_cbs, sizeof *t->cbs);
    }
    struct rcu_callback *cb = &t->cbs[t->n_cbs++];
    cb->function = function;
    cb->aux = aux;
    /* Every thread that quiesces from now on reads at least this epoch,
     * and by then it can no longer reach what the caller unlinked. */
    cb->epoch = atomic_fetch_add(&global_epoch, 1) + 1;
}

/* The oldest epoch any other online thread may still be reading in. */
static uint64_t
min_seen_by_others(const struct rcu_thread *me)
{
    uint64_t min = OFFLINE;
    struct rcu_thread *t;
    ovs_mutex_lock(&threads_mutex);
    LIST_FOR_EACH (t, node, &threads) {
        if (t != me) {
            uint64_t seen = atomic_load(&t->seen);
            min = MIN(min, seen);
        }
    }
    ovs_mutex_unlock(&threads_mutex);
    return min;
}

/* Runs T's callbacks whose epoch is at most SAFE_EPOCH.  Callbacks may
 * postpone more, so the runnable ones are taken off the queue first. */
static void
run_callbacks(struct rcu_thread *t, uint64_t safe_epoch)
{
    size_t n = 0;
    while (n < t->n_cbs && t->cbs[n].epoch <= safe_epoch) {
        n++;
    }
    if (!n) {
        return;
    }
    struct rcu_callback *ready = xmemdup(t->cbs, n * sizeof *ready);
    t->n_cbs -= n;
    memmove(t->cbs, t->cbs + n, t->n_cbs * sizeof *t->cbs);
    for (size_t i = 0; i < n; i++) {
        ready[i].function(ready[i].aux);
    }
    free(ready);
}

void
ovsrcu_synchronize(void)
{
    struct rcu_thread *t = get_self();
    uint64_t saved = atomic_load(&t->seen);
    do {
        uint64_t target = atomic_fetch_add(&global_epoch, 1) + 1;
        atomic_store(&t->seen, target);
        while (min_seen_by_others(t) < target) {
            struct timespec ts = { 0, 200 * 1000 };
            nanosleep(&ts, NULL);
        }
        run_callbacks(t, target);
        run_orphans(target);
    } while (t->n_cbs || atomic_load(&n_orphans_hint));
    if (saved == OFFLINE) {
        atomic_store(&t->seen, OFFLINE);
    }
}
