/* process: child processes that a daemon starts and then watches from its
 * main loop.
 *
 * ovsdb-server --run=COMMAND is the user: it runs COMMAND in a shell and
 * exits when COMMAND does.  The loop learns of a child's death without
 * polling: a SIGCHLD handler writes a byte to a self-pipe (the only thing a
 * handler may safely do), process_wait() makes poll_block() wake on that
 * pipe, and process_run() reaps with waitpid(WNOHANG).
 *
 *     struct process *p;
 *     int error = process_start_shell(command, &p);
 *     ...
 *     for (;;) {
 *         process_run();
 *         if (process_exited(p)) { ... process_status(p) ... }
 *         process_wait(p);
 *         poll_block();
 *     }
 *     process_destroy(p);
 *
 * Main thread only.  The caller owns each struct process and frees it with
 * process_destroy(), which does not kill a child still running (it is left
 * to run and reaped by nobody; callers that care wait first). */
#ifndef PROCESS_H
#define PROCESS_H 1

#include <stdbool.h>
#include <sys/types.h>

struct process;

/* Starts "/bin/sh -c COMMAND" with the caller's stdin, stdout and stderr.
 * Returns 0 and the new process in *PROCESSP, or an errno value. */
int process_start_shell(const char *command, struct process **processp);
void process_destroy(struct process *);

pid_t process_pid(const struct process *);
/* Reaps every started child that has exited.  Cheap when none has. */
void process_run(void);
bool process_exited(const struct process *);
/* The wait status of an exited process (as from waitpid()). */
int process_status(const struct process *);
/* Makes the next poll_block() wake when P exits (at once if it has). */
void process_wait(const struct process *);

/* Describes a wait status: "exit status 3", "killed (Killed)", ...  The
 * caller frees the result. */
char *process_status_msg(int status);

#endif /* process.h */
