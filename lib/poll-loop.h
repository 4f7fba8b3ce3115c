/* poll-loop: the per-thread run/wait/block cycle, built on libevent.
 *
 * Every thread that runs modules owns one libevent event_base, created on
 * first use.  A loop iteration looks like this:
 *
 *     for (;;) {
 *         module_run();        // do whatever work is ready; never block
 *         module_wait();       // register what should end the next block:
 *                              //   poll_fd_wait(), poll_timer_wait_until(),
 *                              //   seq_wait(), poll_immediate_wake()
 *         poll_block();        // sleep until one of those happens
 *     }
 *
 * The waits registered in one iteration are one-shot: poll_block() consumes
 * them all, so every *_wait() must be called again on each iteration.  A wait
 * function that calls poll_immediate_wake() when nothing is really ready makes
 * the thread spin at 100% CPU; the "poll_wakeup" coverage counter (one per
 * return from poll_block()) makes that visible.
 *
 * Long-lived libevent objects such as bufferevents may also be attached to
 * the thread's base (poll_loop_base()); their callbacks run inside
 * poll_block() and also end the block.
 *
 * Timers use the monotonic clock of timeval.h, so they follow the simulated
 * clock: while it is stopped, a timer fires only once time/warp passes it.
 *
 * Every function here acts on the calling thread's loop only, except
 * poll_loop_wake(), which may be called from any thread.
 */
#ifndef POLL_LOOP_H
#define POLL_LOOP_H 1

#include <poll.h>
#include <stdbool.h>
#include "util.h"

struct event_base;
struct poll_loop;

/* Wakes when FD is readable (POLLIN) and/or writable (POLLOUT). */
void poll_fd_wait(int fd, short int events);

/* Long-lived fd waits.
 *
 * poll_fd_wait() registers a wait for one iteration; a watch stays
 * registered with the calling thread's loop for as long as its owner keeps
 * it, which saves the per-iteration registration for an fd that is waited
 * on all the time but rarely ready, such as a listening socket.  It must
 * only watch an fd that lives at least as long as the watch (the owner
 * destroys the watch before closing the fd), because a closed and reused
 * fd number would silently stop being watched.
 *
 * When the fd becomes ready the watch fires once, ends poll_block() and
 * stays "ready" (and unregistered) until the owner, having drained the fd
 * (e.g. accept() returned EAGAIN), calls poll_watch_rearm().  So a ready fd
 * its owner ignores cannot make the loop spin.  A watch belongs to the
 * thread that created it; poll_watch_wait() from another thread falls back
 * to poll_fd_wait(). */
struct poll_watch *poll_watch_create(int fd, short int events);
void poll_watch_destroy(struct poll_watch *);
/* True if the fd may be ready: it fired and was not rearmed since, or the
 * calling thread is not the watch's (then nothing is known). */
bool poll_watch_may_be_ready(const struct poll_watch *);
void poll_watch_rearm(struct poll_watch *);
/* Makes poll_block() wake when the fd is ready (at once if it already
 * is). */
void poll_watch_wait(struct poll_watch *);

/* Wakes after MSEC milliseconds (0 or less: at once). */
void poll_timer_wait(long long int msec);
/* Wakes when time_msec() reaches WHEN; WHEN <= now wakes at once.
 * LLONG_MAX never wakes. */
void poll_timer_wait_until(long long int when);

/* Makes the next poll_block() return at once. */
void poll_immediate_wake(void);
/* The same, recording WHERE ("file.c:123") so that the debug log can say who
 * keeps a thread from sleeping.  poll_immediate_wake() calls pass their own
 * location through the macro below. */
void poll_immediate_wake_at(const char *where);
#define poll_immediate_wake() poll_immediate_wake_at(OVS_SOURCE_LOCATOR)

/* Blocks until one of the registered events happens, then forgets them.
 * Counts "poll_wakeup" on every return, and also "poll_zero_timeout" when it
 * did not sleep at all (poll_immediate_wake(), an already expired timer, or a
 * seq that had already changed).  Samples coverage rates (coverage_run()). */
void poll_block(void);

/* The calling thread's libevent base, for attaching bufferevents. */
struct event_base *poll_loop_base(void);

/* The calling thread's loop, as a handle another thread may wake. */
struct poll_loop *poll_loop_self(void);
/* Ends LOOP's current or next poll_block() at once; callable from any
 * thread (this is how seq_change() wakes waiters). */
void poll_loop_wake(struct poll_loop *);

/* The loop of a thread is freed automatically when the thread exits; the
 * main thread may free its own early (e.g. before exit(), so that leak
 * checkers see nothing) with this.  Anything the caller attached to
 * poll_loop_base() must be freed first.  A later poll_*() call in the same
 * thread creates a fresh loop.  A loop handle from poll_loop_self() must not
 * be woken after its thread's loop is freed; seq waits are dropped safely. */
void poll_loop_destroy_self(void);

#endif /* poll-loop.h */
