/* fatal-signal: clean up before the process dies.
 *
 * A daemon leaves files behind that must not outlive it: its pid file, its
 * control socket, the sockets it listens on.  This module runs registered
 * hooks when the process is ended by SIGTERM, SIGINT, SIGHUP or SIGALRM, and
 * (for hooks registered with RUN_AT_EXIT) when it calls exit().
 *
 * Signal handlers may do almost nothing safely, so the handler only records
 * the signal and writes a byte to a self-pipe.  The main loop calls
 * fatal_signal_wait() (which makes poll_block() wake on that pipe) and
 * fatal_signal_run(), which runs the hooks and then re-raises the signal with
 * its default action, so the process still dies "by" the signal and a parent
 * shell sees it.  A program that never runs a loop can call
 * fatal_signal_run() at convenient points instead.
 *
 * Usage:
 *
 *     fatal_signal_add_file_to_unlink("/run/openvswitch/foo.pid");
 *     ...
 *     for (;;) {
 *         fatal_signal_run();
 *         ...
 *         fatal_signal_wait();
 *         poll_block();
 *     }
 *
 * Hooks run at most once, in the reverse order of registration.  All
 * functions initialize the module on first use.  A child created by fork()
 * that is going to do something else than the parent (exec a helper, say)
 * calls fatal_signal_fork() so that it does not run the parent's hooks; the
 * daemon's own detached child keeps them, because it takes over the
 * parent's files.
 *
 * File names passed in are copied; the module owns its copies.
 */
#ifndef FATAL_SIGNAL_H
#define FATAL_SIGNAL_H 1

#include <stdbool.h>

/* Installs the signal handlers.  Called implicitly by every other function;
 * explicit calls are harmless. */
void fatal_signal_init(void);

/* poll_block() for a program's blocking helpers (connect, send and receive
 * and wait): waits on the signal pipe too and runs fatal_signal_run()
 * after, so a signal that arrives while a tool waits ends it from its own
 * thread, hooks run, as it would from a main loop.  Main thread only. */
void fatal_signal_block(void);

/* Registers HOOK_CB(AUX) to run when a fatal signal arrives, and also at
 * exit() if RUN_AT_EXIT.  CANCEL_CB(AUX), if nonnull, runs instead in a
 * child process after fatal_signal_fork(), so the child can drop whatever AUX
 * holds without performing the parent's cleanup. */
void fatal_signal_add_hook(void (*hook_cb)(void *aux),
                           void (*cancel_cb)(void *aux),
                           void *aux, bool run_at_exit);

/* Processes a signal recorded by the handler: runs the hooks, then dies by
 * the signal.  Does nothing if no signal arrived. */
void fatal_signal_run(void);
/* Makes the next poll_block() wake when a fatal signal arrives. */
void fatal_signal_wait(void);

/* Makes a broken pipe an EPIPE error instead of a death. */
void fatal_ignore_sigpipe(void);

/* Files unlinked on a fatal signal or at exit. */
void fatal_signal_add_file_to_unlink(const char *file_name);
void fatal_signal_remove_file_to_unlink(const char *file_name);
/* Unlinks FILE_NAME now and forgets it.  Returns 0 or a positive errno value
 * (logging it, unless it is ENOENT). */
int fatal_signal_unlink_file_now(const char *file_name);

/* Call in a child after fork(): cancels every hook (calling its CANCEL_CB)
 * and forgets the files to unlink, so the child's exit leaves the parent's
 * files alone. */
void fatal_signal_fork(void);

#endif /* fatal-signal.h */
