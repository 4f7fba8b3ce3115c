#include <config.h>
#include "ovs-thread.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovs_thread);

/* Every failure below is a programming error, never a runtime condition, so
 * the wrappers abort (leaving a core) and name the caller's location. */
static void
check_result(int error, const char *function, const char *where)
{
    if (OVS_UNLIKELY(error)) {
        ovs_abort(error, "%s: %s failed", where ? where : "?", function);
    }
}

/* Threads. */

struct thread_start {
    void *(*start)(void *);
    void *arg;
    char *name;
};

static void *
thread_trampoline(void *aux_)
{
    struct thread_start *aux = aux_;
    void *(*start)(void *) = aux->start;
    void *arg = aux->arg;

    /* The kernel keeps at most 15 characters; vlog keeps the full name. */
    char kernel_name[16];
    snprintf(kernel_name, sizeof kernel_name, "%s", aux->name);
    pthread_setname_np(pthread_self(), kernel_name);
    vlog_set_thread_name(aux->name);
    (void) ovsthread_id_self();

    free(aux->name);
    free(aux);

    return start(arg);
}

pthread_t
ovs_thread_create(const char *name, void *(*start)(void *), void *arg)
{
    struct thread_start *aux = xmalloc(sizeof *aux);
    aux->start = start;
    aux->arg = arg;
    aux->name = xstrdup(name);

    pthread_t thread;
    int error = pthread_create(&thread, NULL, thread_trampoline, aux);
    if (error) {
        ovs_abort(error, "failed to create thread \"%s\"", name);
    }
    return thread;
}

void
xpthread_join(pthread_t thread, void **retval)
{
    check_result(pthread_join(thread, retval), "pthread_join", NULL);
}

/* The initial thread is the one that runs constructors. */
static pthread_t main_thread;
static bool main_thread_known;

static void record_main_thread(void) __attribute__((constructor));
static void
record_main_thread(void)
{
    main_thread = pthread_self();
    main_thread_known = true;
}

bool
ovs_thread_is_main(void)
{
    return main_thread_known && pthread_equal(main_thread, pthread_self());
}

unsigned int
ovsthread_id_self(void)
{
    /* UINT_MAX until assigned.  The main thread always gets 0 so that ids
     * are stable however threads race for their first call. */
    static __thread unsigned int id = UINT_MAX;
    static atomic_uint next_id = 1;

    if (OVS_UNLIKELY(id == UINT_MAX)) {
        id = (ovs_thread_is_main() ? 0
              : atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed));
    }
    return id;
}

int
count_cpu_cores(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    static int n_cores;

    if (ovsthread_once_start(&once)) {
        cpu_set_t set;
        if (!sched_getaffinity(0, sizeof set, &set)) {
            n_cores = CPU_COUNT(&set);
        }
        if (n_cores <= 0) {
            long int n = sysconf(_SC_NPROCESSORS_ONLN);
            n_cores = n > 0 ? n : 1;
        }
        ovsthread_once_done(&once);
    }
    return n_cores;
}

/* Mutexes. */

static void
mutex_init_type(struct ovs_mutex *mutex, int type)
{
    pthread_mutexattr_t attr;

    check_result(pthread_mutexattr_init(&attr), "pthread_mutexattr_init",
                 NULL);
    check_result(pthread_mutexattr_settype(&attr, type),
                 "pthread_mutexattr_settype", NULL);
    check_result(pthread_mutex_init(&mutex->lock, &attr),
                 "pthread_mutex_init", NULL);
    pthread_mutexattr_destroy(&attr);
    mutex->where = "<unlocked>";
}

void
ovs_mutex_init(struct ovs_mutex *mutex)
{
    mutex_init_type(mutex, PTHREAD_MUTEX_ERRORCHECK);
}

void
ovs_mutex_init_recursive(struct ovs_mutex *mutex)
{
    mutex_init_type(mutex, PTHREAD_MUTEX_RECURSIVE);
}

void
ovs_mutex_destroy(struct ovs_mutex *mutex)
{
    check_result(pthread_mutex_destroy(&mutex->lock), "pthread_mutex_destroy",
                 mutex->where);
    mutex->where = "<destroyed>";
}

void
ovs_mutex_lock_at(struct ovs_mutex *mutex, const char *where)
{
    check_result(pthread_mutex_lock(&mutex->lock), "pthread_mutex_lock",
                 where);
    mutex->where = where;
}

int
ovs_mutex_trylock_at(struct ovs_mutex *mutex, const char *where)
{
    int error = pthread_mutex_trylock(&mutex->lock);
    if (!error) {
        mutex->where = where;
    } else if (error != EBUSY) {
        check_result(error, "pthread_mutex_trylock", where);
    }
    return error;
}

void
ovs_mutex_unlock_at(struct ovs_mutex *mutex, const char *where)
{
    /* Only the holder may write 'where'; if we are not the holder the unlock
     * fails below and we abort, so a racy write here never matters. */
    const char *locked_at = mutex->where;

    mutex->where = "<unlocked>";
    int error = pthread_mutex_unlock(&mutex->lock);
    if (error) {
        mutex->where = locked_at;
        check_result(error, "pthread_mutex_unlock", where);
    }
}

void
ovs_mutex_cond_wait(pthread_cond_t *cond, struct ovs_mutex *mutex)
{
    const char *where = mutex->where;

    check_result(pthread_cond_wait(cond, &mutex->lock), "pthread_cond_wait",
                 where);
    mutex->where = where;
}

/* Reader-writer locks. */

void
ovs_rwlock_init(struct ovs_rwlock *rwlock)
{
    pthread_rwlockattr_t attr;

    check_result(pthread_rwlockattr_init(&attr), "pthread_rwlockattr_init",
                 NULL);
#ifdef PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP
    /* glibc prefers readers by default, which lets readers starve writers. */
    pthread_rwlockattr_setkind_np(&attr,
                                  PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
#endif
    check_result(pthread_rwlock_init(&rwlock->lock, &attr),
                 "pthread_rwlock_init", NULL);
    pthread_rwlockattr_destroy(&attr);
    rwlock->where = "<unlocked>";
}

void
ovs_rwlock_destroy(struct ovs_rwlock *rwlock)
{
    check_result(pthread_rwlock_destroy(&rwlock->lock),
                 "pthread_rwlock_destroy", rwlock->where);
}

void
ovs_rwlock_rdlock_at(struct ovs_rwlock *rwlock, const char *where)
{
    check_result(pthread_rwlock_rdlock(&rwlock->lock),
                 "pthread_rwlock_rdlock", where);
    /* 'where' is not recorded for readers: many may hold the lock at once,
     * and writing a shared field from all of them would be a data race. */
}

int
ovs_rwlock_tryrdlock_at(struct ovs_rwlock *rwlock, const char *where)
{
    int error = pthread_rwlock_tryrdlock(&rwlock->lock);
    /* EAGAIN: too many readers; EDEADLK: this thread is the writer.  Both
     * are "not now" to a caller that must not wait. */
    if (error && error != EBUSY && error != EAGAIN && error != EDEADLK) {
        check_result(error, "pthread_rwlock_tryrdlock", where);
    }
    return error;
}

void
ovs_rwlock_wrlock_at(struct ovs_rwlock *rwlock, const char *where)
{
    check_result(pthread_rwlock_wrlock(&rwlock->lock),
                 "pthread_rwlock_wrlock", where);
    rwlock->where = where;
}

void
ovs_rwlock_unlock_at(struct ovs_rwlock *rwlock, const char *where)
{
    check_result(pthread_rwlock_unlock(&rwlock->lock),
                 "pthread_rwlock_unlock", where);
}

/* Once-only initialization. */

bool
ovsthread_once_start__(struct ovsthread_once *once)
{
    ovs_mutex_lock(&once->mutex);
    if (atomic_load_explicit(&once->done, memory_order_relaxed)) {
        /* Another thread finished while we waited for the mutex. */
        ovs_mutex_unlock(&once->mutex);
        return false;
    }
    return true;               /* Mutex stays held until _done(). */
}

void
ovsthread_once_done(struct ovsthread_once *once)
{
    atomic_store_explicit(&once->done, true, memory_order_release);
    ovs_mutex_unlock(&once->mutex);
}
