/* timeval: the monotonic and wall clocks, and the simulated clock.
 *
 * All timeouts in the project are computed from time_msec(), a monotonic
 * millisecond clock.  For deterministic tests a daemon's monotonic clock can
 * be frozen ("ovs-appctl time/stop") and then advanced by hand
 * ("ovs-appctl time/warp [TOTAL] MSECS"); timers registered with
 * poll_timer_wait_until() fire as the warped time passes them, so protocols
 * with timers (BFD, LACP, STP, reconnect backoff) are tested without sleeping.
 * The wall clock (time_wall_msec()) is never simulated.
 *
 * The clock is process-wide and safe to read from any thread.
 */
#ifndef TIMEVAL_H
#define TIMEVAL_H 1

#include <stdbool.h>
#include <time.h>

struct seq;

/* Monotonic time in milliseconds / seconds, simulated-clock aware. */
long long int time_msec(void);
time_t time_now(void);
/* Monotonic time in microseconds, never simulated (for benchmarks). */
long long int time_usec_real(void);
/* Wall-clock time in milliseconds since the epoch. */
long long int time_wall_msec(void);
time_t time_wall(void);
/* time_msec() when the process started (for "ms since start" in logs). */
long long int time_boot_msec(void);

/* Freezes the monotonic clock (as "time/stop" does). */
void time_stop(void);
bool time_is_stopped(void);
/* Advances a stopped clock by MSECS and wakes every thread's loop. */
void time_warp(long long int msecs);

/* Changes on every warp.  poll_timer_wait_until() waits on it instead of a
 * real-time timer while the clock is stopped. */
struct seq *timeval_warp_seq(void);

/* Registers time/stop and time/warp with unixctl.  time/warp with TOTAL
 * advances in steps of MSECS, letting the main loop run between steps, and
 * replies "warped" once all steps are done.  Call once from main(). */
void timeval_register_unixctl(void);
/* Makes each step of a "time/warp TOTAL MSECS", and the reply to any
 * time/warp, wait until SETTLED() returns true: a thread that does timed
 * work of its own (ofproto's monitor) says with it that it has done
 * everything due at the current simulated time, so that a warp in steps
 * lets it run at every step as the main loop does, and the caller's next
 * command sees what the warp brought.  Main thread; SETTLED is called on
 * it. */
void timeval_add_warp_gate(bool (*settled)(void));
/* Applies pending time/warp steps; call from the main loop's run phase. */
void timeval_run(void);
void timeval_wait(void);

/* Called by poll_block() around each sleep of the calling thread's loop.
 * A thread that stays awake (works without sleeping) for more than a second
 * gets a warning, "Unreasonably long NNNms poll interval (Ums user, Sms
 * system)", with its page faults, disk blocks and context switches when
 * there were any, as Open vSwitch's daemons log them: a stalled main loop
 * is what an operator must be told about first. */
void timeval_poll_sleeping(void);
void timeval_poll_awake(void);

#endif /* timeval.h */
