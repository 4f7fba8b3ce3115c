#include <config.h>
#include "dp-epoch.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include "list.h"
#include "ovs-thread.h"
#include "util.h"

/* One per thread that ever entered a section.  EPOCH is 0 outside a
 * section, else the global epoch the thread saw when it entered. */
struct epoch_thread {
    struct ovs_list node;               /* In 'threads'. */
    _Atomic uint64_t epoch;
};

struct epoch_cb {
    struct ovs_list node;               /* In 'pending'. */
    uint64_t stamp;
    void (*fn)(void *);
    void *arg;
};

static _Atomic uint64_t global_epoch = 1;

static struct ovs_mutex threads_mutex = OVS_MUTEX_INITIALIZER;
static struct ovs_list threads = OVS_LIST_INITIALIZER(&threads);

static struct ovs_mutex pending_mutex = OVS_MUTEX_INITIALIZER;
static struct ovs_list pending = OVS_LIST_INITIALIZER(&pending);
static unsigned int n_pending;

static pthread_key_t thread_key;
static _Thread_local struct epoch_thread *self;

static void
epoch_thread_exit(void *self_)
{
    struct epoch_thread *t = self_;

    ovs_mutex_lock(&threads_mutex);
    ovs_list_remove(&t->node);
    ovs_mutex_unlock(&threads_mutex);
    free(t);
}

static struct epoch_thread *
epoch_self(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (OVS_LIKELY(self)) {
        return self;
    }
    if (ovsthread_once_start(&once)) {
        ovs_assert(!pthread_key_create(&thread_key, epoch_thread_exit));
        ovsthread_once_done(&once);
    }
    self = xzalloc(sizeof *self);
    atomic_init(&self->epoch, 0);
    ovs_mutex_lock(&threads_mutex);
    ovs_list_push_back(&threads, &self->node);
    ovs_mutex_unlock(&threads_mutex);
    /* The main thread never runs key destructors; its record stays listed
     * (outside any section) until the process exits. */
    pthread_setspecific(thread_key, self);
    return self;
}

void
dp_epoch_enter(void)
{
    struct epoch_thread *t = epoch_self();
    ovs_assert(!atomic_load_explicit(&t->epoch, memory_order_relaxed));
    /* seq_cst: the record must be visible to a reclaimer before this
     * thread loads any pointer the section will follow. */
    atomic_store(&t->epoch, atomic_load(&global_epoch));
}

void
dp_epoch_exit(void)
{
    atomic_store_explicit(&self->epoch, 0, memory_order_release);
}

bool
dp_epoch_in_section(void)
{
    return self && atomic_load_explicit(&self->epoch, memory_order_relaxed);
}

/* The oldest epoch a thread is reading in, or UINT64_MAX if none is. */
static uint64_t
oldest_reader(void)
{
    uint64_t oldest = UINT64_MAX;

    ovs_mutex_lock(&threads_mutex);
    struct epoch_thread *t;
    LIST_FOR_EACH (t, node, &threads) {
        uint64_t e = atomic_load(&t->epoch);
        if (e && e < oldest) {
            oldest = e;
        }
    }
    ovs_mutex_unlock(&threads_mutex);
    return oldest;
}

unsigned int
dp_epoch_reclaim(void)
{
    struct ovs_list ready = OVS_LIST_INITIALIZER(&ready);

    ovs_mutex_lock(&pending_mutex);
    if (n_pending) {
        uint64_t oldest = oldest_reader();
        struct epoch_cb *cb;
        LIST_FOR_EACH_SAFE (cb, node, &pending) {
            if (cb->stamp < oldest) {
                ovs_list_remove(&cb->node);
                ovs_list_push_back(&ready, &cb->node);
                n_pending--;
            }
        }
    }
    unsigned int left = n_pending;
    ovs_mutex_unlock(&pending_mutex);

    struct epoch_cb *cb;
    LIST_FOR_EACH_POP (cb, node, &ready) {
        cb->fn(cb->arg);
        free(cb);
    }
    return left;
}

void
dp_epoch_postpone(void (*fn)(void *), void *arg)
{
    struct epoch_cb *cb = xmalloc(sizeof *cb);
    cb->fn = fn;
    cb->arg = arg;
    /* The caller unlinked the object before this point; a reader that
     * enters from now on sees an epoch greater than the stamp and cannot
     * find the object. */
    cb->stamp = atomic_fetch_add(&global_epoch, 1);

    ovs_mutex_lock(&pending_mutex);
    ovs_list_push_back(&pending, &cb->node);
    bool reclaim = ++n_pending % 64 == 1;
    ovs_mutex_unlock(&pending_mutex);

    if (reclaim && !dp_epoch_in_section()) {
        dp_epoch_reclaim();
    }
}

void
dp_epoch_synchronize(void)
{
    ovs_assert(!dp_epoch_in_section());

    /* Postpone a marker and wait for every callback up to it. */
    uint64_t target = atomic_fetch_add(&global_epoch, 1);
    for (;;) {
        ovs_mutex_lock(&pending_mutex);
        bool older_pending = false;
        struct epoch_cb *cb;
        LIST_FOR_EACH (cb, node, &pending) {
            if (cb->stamp <= target) {
                older_pending = true;
                break;
            }
        }
        ovs_mutex_unlock(&pending_mutex);
        if (!older_pending && oldest_reader() > target) {
            return;
        }
        dp_epoch_reclaim();
        sched_yield();
    }
}
