/* ovs-thread: creating named threads, and locks that cannot fail silently.
 *
 * The daemons run a handful of long-lived threads (handlers, revalidators,
 * the monitor), each with its own poll loop.  ovs_thread_create() starts one
 * with a name that shows up in `top -H`, in core dumps and in log messages.
 * When a thread exits, its poll loop (and any seq waits it left behind) is
 * freed automatically; the thread's creator joins it with xpthread_join().
 *
 * The locking wrappers exist because an error from pthread_mutex_lock() and
 * friends always means a bug (a relock, an unlock by the wrong thread, a
 * destroyed mutex).  They abort with the caller's source location and the
 * error instead of returning it, so callers never check.  Mutexes are
 * error-checking, so such bugs are caught rather than deadlocking.
 *
 *     static struct ovs_mutex mutex = OVS_MUTEX_INITIALIZER;
 *     ovs_mutex_lock(&mutex);
 *     ...
 *     ovs_mutex_unlock(&mutex);
 *
 * One-time initialization that must be finished before any thread uses its
 * result (the second caller waits for the first to finish):
 *
 *     static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
 *     if (ovsthread_once_start(&once)) {
 *         ...initialize...
 *         ovsthread_once_done(&once);
 *     }
 *
 * Nothing here allocates memory that the caller must free, except that a
 * mutex or rwlock initialized with *_init() is released with *_destroy().
 */
#ifndef OVS_THREAD_H
#define OVS_THREAD_H 1

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include "util.h"


/* Threads. */

/* Starts START(ARG) in a new thread named NAME (truncated to 15 characters
 * for the kernel; the full name is used in log messages).  Aborts if the
 * thread cannot be created. */
pthread_t ovs_thread_create(const char *name, void *(*start)(void *),
                            void *arg);
/* pthread_join() that aborts on error.  RETVAL may be NULL. */
void xpthread_join(pthread_t, void **retval);

/* True if the calling thread is the process's initial thread. */
bool ovs_thread_is_main(void);

/* A small number unique to the calling thread for the process's lifetime:
 * 0 for the main thread, then 1, 2, ... in order of first call. */
unsigned int ovsthread_id_self(void);

/* (A thread's name, as given to ovs_thread_create(), is available from
 * vlog_get_thread_name() in vlog.h.) */

/* Number of CPU cores the process may run on (at least 1). */
int count_cpu_cores(void);

/* Mutexes. */

struct ovs_mutex {
    pthread_mutex_t lock;
    const char *where;          /* Last locker's location, for debugging. */
};

#ifdef PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP
#define OVS_MUTEX_INITIALIZER \
    { PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP, "<unlocked>" }
#else
#define OVS_MUTEX_INITIALIZER { PTHREAD_MUTEX_INITIALIZER, "<unlocked>" }
#endif

void ovs_mutex_init(struct ovs_mutex *);
/* A mutex that the same thread may lock again (each lock needs an unlock). */
void ovs_mutex_init_recursive(struct ovs_mutex *);
void ovs_mutex_destroy(struct ovs_mutex *);

void ovs_mutex_lock_at(struct ovs_mutex *, const char *where);
#define ovs_mutex_lock(MUTEX) ovs_mutex_lock_at(MUTEX, OVS_SOURCE_LOCATOR)
/* Returns 0 if locked, EBUSY if another thread holds it. */
int ovs_mutex_trylock_at(struct ovs_mutex *, const char *where);
#define ovs_mutex_trylock(MUTEX) \
    ovs_mutex_trylock_at(MUTEX, OVS_SOURCE_LOCATOR)
void ovs_mutex_unlock_at(struct ovs_mutex *, const char *where);
#define ovs_mutex_unlock(MUTEX) ovs_mutex_unlock_at(MUTEX, OVS_SOURCE_LOCATOR)

/* Waits on COND, which must be used with MUTEX (held by the caller). */
void ovs_mutex_cond_wait(pthread_cond_t *, struct ovs_mutex *);

/* Reader-writer locks.  Writers are preferred, so a steady stream of readers
 * cannot starve a writer. */

struct ovs_rwlock {
    pthread_rwlock_t lock;
    const char *where;
};

void ovs_rwlock_init(struct ovs_rwlock *);
void ovs_rwlock_destroy(struct ovs_rwlock *);
void ovs_rwlock_rdlock_at(struct ovs_rwlock *, const char *where);
#define ovs_rwlock_rdlock(RW) ovs_rwlock_rdlock_at(RW, OVS_SOURCE_LOCATOR)
/* Returns 0 if locked for reading, or an error (EBUSY: a writer holds or,
 * writers being preferred, awaits it) without waiting. */
int ovs_rwlock_tryrdlock_at(struct ovs_rwlock *, const char *where);
#define ovs_rwlock_tryrdlock(RW) \
    ovs_rwlock_tryrdlock_at(RW, OVS_SOURCE_LOCATOR)
void ovs_rwlock_wrlock_at(struct ovs_rwlock *, const char *where);
#define ovs_rwlock_wrlock(RW) ovs_rwlock_wrlock_at(RW, OVS_SOURCE_LOCATOR)
void ovs_rwlock_unlock_at(struct ovs_rwlock *, const char *where);
#define ovs_rwlock_unlock(RW) ovs_rwlock_unlock_at(RW, OVS_SOURCE_LOCATOR)

/* Once-only initialization. */

struct ovsthread_once {
    atomic_bool done;
    struct ovs_mutex mutex;
};

#define OVSTHREAD_ONCE_INITIALIZER { false, OVS_MUTEX_INITIALIZER }

/* Returns true if the caller must run the initialization (and then call
 * ovsthread_once_done()); false once it has been completed, waiting first if
 * another thread is in the middle of it. */
bool ovsthread_once_start__(struct ovsthread_once *);
static inline bool
ovsthread_once_start(struct ovsthread_once *once)
{
    return (!atomic_load_explicit(&once->done, memory_order_acquire)
            && ovsthread_once_start__(once));
}
void ovsthread_once_done(struct ovsthread_once *);

#endif /* ovs-thread.h */
