/* dp-epoch: epoch-based deferred freeing for data read without locks.
 *
 * The userspace datapath's receive threads look up flows, subtables and
 * ports without taking any lock, while handler and main threads add and
 * delete them.  A writer that unlinks an object cannot free it at once: a
 * reader may have loaded the pointer just before.  This module answers
 * "when may it be freed?" with epochs (RCU-style deferral with explicit
 * read sections):
 *
 *   - A reader brackets each stretch of lock-free reading with
 *     dp_epoch_enter() and dp_epoch_exit().  A receive thread does so once
 *     per poll iteration (a batch from each of its ports), never across a
 *     sleep, so an idle thread never holds anything back.  Pointers loaded
 *     inside a section must not be used after dp_epoch_exit(), except
 *     through a reference count the object itself keeps (see dpif-netdev's
 *     flows, which the exact-match cache holds by reference).
 *   - A writer first makes the object unreachable (unlinks it, or swaps
 *     the pointer that led to it), then calls dp_epoch_postpone(FN, ARG).
 *     FN(ARG) runs once every thread that was inside a section when the
 *     object was unlinked has left it.
 *
 * The global epoch is a counter.  Entering a section records the current
 * value in the thread's slot (with a full fence, so the record is visible
 * before any pointer the section loads); postponing stamps the callback
 * with the current value and advances the counter.  A callback stamped E
 * may run when every thread is outside a section or entered at an epoch
 * greater than E.  Callbacks run from dp_epoch_reclaim(), which writers
 * call (dp_epoch_postpone() does so itself every few callbacks) and the
 * main loop calls through dpif_run(); dp_epoch_synchronize() waits until
 * every callback postponed so far has run.
 *
 * Cost for a reader: two stores and a fence per section; no lock, no
 * allocation.  dp_epoch_postpone() allocates a small record (never from a
 * receive thread's per-packet path, except when a flow's last reference,
 * held by an exact-match cache, is dropped there).
 *
 * Why not lib/ovs-rcu: its grace period waits for every online thread
 * to quiesce, and classifier readers (handlers) stay online between
 * batches.  Port deletion waits for a grace period with the datapath
 * mutex held; a handler online and blocked on that mutex (flow put)
 * would never quiesce.  Here only open sections are waited for, and a
 * section never blocks.
 *
 * Thread safety: every function may be called from any thread.  A thread
 * gets its slot on its first dp_epoch_enter(); the slot is released when
 * the thread exits.  Sections do not nest. */
#ifndef DP_EPOCH_H
#define DP_EPOCH_H 1

#include <stdbool.h>

void dp_epoch_enter(void);
void dp_epoch_exit(void);
/* Whether the calling thread is inside a section (for assertions). */
bool dp_epoch_in_section(void);

/* Runs FN(ARG) once no reader can still hold what the caller just
 * unlinked.  May run it before returning (if no reader is active). */
void dp_epoch_postpone(void (*fn)(void *), void *arg);

/* Runs the postponed callbacks whose grace period has passed.  Returns
 * the number still waiting. */
unsigned int dp_epoch_reclaim(void);

/* Waits until every callback postponed before the call has run.  Must not
 * be called inside a section. */
void dp_epoch_synchronize(void);

#endif /* dp-epoch.h */
