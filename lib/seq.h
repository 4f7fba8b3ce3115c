/* seq: a change counter that threads can sleep on.
 *
 * A seq stands for "something about X changed".  The code that changes X calls
 * seq_change(); code that reacts to X remembers the last value of seq_read()
 * it acted on and does nothing while the value stays the same.  That is how a
 * run function avoids sweeping thousands of ports on every wake-up: when the
 * seq has not moved, nothing it cares about has changed.
 *
 * The race-free pattern
 * ---------------------
 *
 *     // run phase
 *     uint64_t seen = seq_read(seq);      (1) read FIRST
 *     if (seen != last_seen) {
 *         process_changes();              (2) then look at the state
 *         last_seen = seen;
 *     }
 *     // wait phase
 *     seq_wait(seq, seen);                (3) wait with the value from (1)
 *     poll_block();                       (4)
 *
 * Reading in (1) before processing in (2) is what makes this correct.  If a
 * change lands while (2) runs, or between (2) and (3), the value no longer
 * equals `seen`, so seq_wait() makes the next poll_block() return at once and
 * the change is picked up in the next iteration.  Had we read the value after
 * processing, a change made during processing would carry the new value, we
 * would wait for "something other than the new value", and we would sleep
 * through a change we never processed.
 *
 * A change after seq_wait() in (3) but before the thread actually sleeps in
 * (4) is not lost either: seq_change() wakes the thread's loop, and a loop
 * that is woken while not blocked returns from its next poll_block() at once.
 * Spurious wake-ups are possible (a change that was already processed may
 * still end one block); callers must simply re-check, as the pattern does.
 *
 * Threads and lifetime
 * --------------------
 *
 * Every function may be called from any thread.  seq_read() is a single
 * atomic load, cheap enough to call on every iteration of a hot loop.  Waits
 * are one-shot like all poll-loop waits: each is dropped when the waiting
 * thread's poll_block() returns (or the seq changes, or is destroyed, or the
 * thread exits), so seq_wait() must be repeated every iteration.
 *
 * The creator owns a seq and frees it with seq_destroy().  Destroying a seq
 * that threads are still waiting on is allowed: those threads are woken (they
 * will see a spurious wake-up) and no pointer to the freed seq survives.  A
 * caller must of course not use the seq after destroying it.
 */
#ifndef SEQ_H
#define SEQ_H 1

#include <stdint.h>

struct seq;

/* Returns a new seq with an arbitrary initial value.  Never returns NULL. */
struct seq *seq_create(void);
/* Frees SEQ, waking any thread still waiting on it.  NULL is a no-op. */
void seq_destroy(struct seq *);

/* Gives SEQ a new value and wakes every thread waiting on it. */
void seq_change(struct seq *);
/* Returns SEQ's current value.  Values only grow and are never reused. */
uint64_t seq_read(const struct seq *);

/* Makes the calling thread's next poll_block() return once SEQ's value is no
 * longer VALUE (at once if it already differs). */
void seq_wait(const struct seq *, uint64_t value);

/* For poll-loop only: drops every wait the calling thread registered, once
 * its poll_block() has returned or its loop is being destroyed. */
void seq_woke(void);

#endif /* seq.h */
