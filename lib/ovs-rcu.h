/* ovs-rcu: freeing memory that lock-free readers may still be looking at.
 *
 * A writer that unlinks an object from a structure read without locks
 * (a classifier rule, a trie node, a hash table being resized) cannot free
 * it at once: a reader on another thread may be in the middle of reading
 * it.  It hands the object to ovsrcu_postpone() instead, and the free runs
 * after a grace period: once every thread that reads such structures has
 * passed a quiescent state since the call.
 *
 * The scheme is quiescent-state-based (QSBR), with one global epoch:
 *
 *   - A reader thread is "online" from its first ovsrcu call (lookups in
 *     RCU-protected modules call ovsrcu_register() for it).  While online
 *     it must call ovsrcu_quiesce() regularly at a point where it holds no
 *     pointer into any protected structure (a handler after each batch, a
 *     main loop once per iteration).  ovsrcu_quiesce_start() takes the
 *     thread offline before it blocks for long; ovsrcu_quiesce_end() brings
 *     it back.  A thread that exits is forgotten automatically; callbacks
 *     it postponed and whose grace period had not ended by then run on the
 *     next thread that quiesces after it has (a thread whose callbacks
 *     must run on itself calls ovsrcu_synchronize() before it exits).
 *   - ovsrcu_postpone() bumps the epoch and queues the callback with it.
 *     The callback runs on the same thread, when it next calls
 *     ovsrcu_quiesce(), ovsrcu_quiesce_start() or ovsrcu_synchronize()
 *     after every online thread has quiesced at or after that epoch.  (So
 *     a writer's callbacks run in the writer's thread and may modify what
 *     only the writer modifies, e.g. remove a rule from a classifier.)
 *
 * Readers never wait and never lock: quiescing is one atomic store.  Only
 * writers take the internal mutex.  A reader that stays online without
 * quiescing delays frees (memory grows) but never makes them unsafe.
 *
 * Callbacks may themselves call ovsrcu_postpone().  ovsrcu_synchronize()
 * waits (sleeping in short steps) until every other online thread has
 * quiesced, then runs the calling thread's callbacks, again until none is
 * left; a program calls it before exiting so that nothing postponed is
 * leaked.  It must not be called while another online thread waits for
 * the caller (e.g. in pthread_join() on it) without quiescing.
 *
 * Pointers that readers follow are C11 atomics: writers publish with a
 * release store after initializing the object, readers load with acquire
 * (ovsrcu_get() and ovsrcu_set() below say so in one word). */
#ifndef OVS_RCU_H
#define OVS_RCU_H 1

#include <stdatomic.h>
#include <stdbool.h>

#define OVSRCU_TYPE(TYPE) _Atomic(TYPE)
#define ovsrcu_get(VAR) atomic_load_explicit(VAR, memory_order_acquire)
#define ovsrcu_get_protected(VAR) atomic_load_explicit(VAR, memory_order_relaxed)
#define ovsrcu_set(VAR, VALUE) \
    atomic_store_explicit(VAR, VALUE, memory_order_release)
#define ovsrcu_set_hidden(VAR, VALUE) \
    atomic_store_explicit(VAR, VALUE, memory_order_relaxed)

/* Makes the calling thread a reader (online).  Cheap when already one. */
void ovsrcu_register__(void);
extern _Thread_local bool ovsrcu_registered__;
static inline void
ovsrcu_register(void)
{
    if (!ovsrcu_registered__) {
        ovsrcu_register__();
    }
}

void ovsrcu_quiesce(void);
void ovsrcu_quiesce_start(void);
void ovsrcu_quiesce_end(void);
bool ovsrcu_is_quiescent(void);

void ovsrcu_postpone__(void (*function)(void *aux), void *aux);
/* Calls FUNCTION(ARG) after a grace period.  FUNCTION may take any pointer
 * type. */
#define ovsrcu_postpone(FUNCTION, ARG)                                  \
    ((void) sizeof ((FUNCTION)(ARG), 1),                                \
     ovsrcu_postpone__((void (*)(void *)) (FUNCTION), ARG))

void ovsrcu_synchronize(void);

#endif /* ovs-rcu.h */
