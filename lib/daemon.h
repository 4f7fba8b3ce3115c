/* daemon: what every daemon does to become one.
 *
 * The shared command-line options, handled here so all daemons spell and
 * behave the same:
 *
 *   --detach             run in the background.  The foreground process
 *                        exits only once the daemon has finished starting
 *                        (pid file written, control socket listening), so a
 *                        script may talk to it as soon as the command returns.
 *                        The daemon turns console logging off as it forks
 *                        and lets go of the terminal when start-up is
 *                        complete: after the command returns, nothing more
 *                        reaches the caller's stdout or stderr.  A daemon
 *                        that fails to start says why on stderr and the
 *                        command exits with the daemon's status.
 *   --no-chdir           with --detach, keep the working directory instead of
 *                        moving to "/".
 *   --pidfile[=FILE]     write the process id to FILE (default
 *                        <rundir>/<program>.pid; a relative FILE is taken
 *                        relative to the run directory), locked for the life
 *                        of the process and removed when it exits.
 *   --overwrite-pidfile  take over a pid file even if another running
 *                        process holds it (otherwise starting fails).
 *   --monitor            run a monitor process that restarts the daemon when
 *                        it crashes (dies by SIGSEGV, SIGABRT, SIGBUS, ...),
 *                        but not when it exits or is killed by SIGTERM/SIGKILL.
 *
 * Usage in main():
 *
 *     enum {
 *         OPT_FIRST = UCHAR_MAX + 1,  // keep clear of short options
 *         DAEMON_OPTION_ENUMS,
 *         VLOG_OPTION_ENUMS,
 *     };
 *     static const struct option long_options[] = {
 *         DAEMON_LONG_OPTIONS, VLOG_LONG_OPTIONS, ..., {NULL, 0, NULL, 0},
 *     };
 *     ...
 *     switch (c) {
 *     DAEMON_OPTION_HANDLERS
 *     VLOG_OPTION_HANDLERS
 *     ...
 *     }
 *     ...
 *     daemonize_start();          // forks; only the daemon returns
 *     unixctl_server_create(...); // things a client expects to find
 *     daemonize_complete();       // the foreground process may now exit
 *
 * Without --detach, daemonize_start() still writes the pid file and
 * daemonize_complete() does nothing visible, so the same code serves both.
 *
 * The pid file is written to FILE.tmp, locked with an fcntl() write lock and
 * renamed into place; the lock is what tells a live pid file from a stale one
 * (see read_pidfile()).  Strings passed in are copied.
 */
#ifndef DAEMON_H
#define DAEMON_H 1

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#define DAEMON_OPTION_ENUMS                     \
    OPT_DETACH,                                 \
    OPT_NO_CHDIR,                               \
    OPT_OVERWRITE_PIDFILE,                      \
    OPT_PIDFILE,                                \
    OPT_MONITOR

#define DAEMON_LONG_OPTIONS                                             \
    {"detach",            no_argument, NULL, OPT_DETACH},               \
    {"no-chdir",          no_argument, NULL, OPT_NO_CHDIR},             \
    {"pidfile",           optional_argument, NULL, OPT_PIDFILE},        \
    {"overwrite-pidfile", no_argument, NULL, OPT_OVERWRITE_PIDFILE},    \
    {"monitor",           no_argument, NULL, OPT_MONITOR}

#define DAEMON_OPTION_HANDLERS                  \
    case OPT_DETACH:                            \
        set_detach();                           \
        break;                                  \
                                                \
    case OPT_NO_CHDIR:                          \
        set_no_chdir();                         \
        break;                                  \
                                                \
    case OPT_PIDFILE:                           \
        set_pidfile(optarg);                    \
        break;                                  \
                                                \
    case OPT_OVERWRITE_PIDFILE:                 \
        ignore_existing_pidfile();              \
        break;                                  \
                                                \
    case OPT_MONITOR:                           \
        daemon_set_monitor();                   \
        break;

/* Option setters (what the handlers above call). */
void set_detach(void);
bool get_detach(void);
void set_no_chdir(void);
void daemon_set_monitor(void);
/* Whether --monitor was given. */
bool daemon_is_monitored(void);
void ignore_existing_pidfile(void);
/* NAME NULL means the default <rundir>/<program>.pid. */
void set_pidfile(const char *name);
/* The pid file's absolute name, or NULL if --pidfile was not given. */
const char *get_pidfile(void);

/* Keeps standard file descriptor FD (0, 1 or 2) open across --detach
 * instead of pointing it at /dev/null, for a daemon whose output is its
 * job (ovs-ofctl monitor prints what it receives on stderr).  Call it
 * before daemonize_start(). */
void daemon_save_fd(int fd);

/* Prints the daemon options' help to stdout. */
void daemon_usage(void);

/* See the comment at the top of the file.  daemonize_start() exits the
 * process with a message if the pid file cannot be created or is held by
 * another running process. */
void daemonize_start(void);
void daemonize_complete(void);
/* Both at once, for daemons with nothing to set up in between. */
void daemonize(void);

/* Reads the pid of the process that holds pid file FILE_NAME.  Returns the
 * pid, or a negative errno value: -ENOENT if there is no such file, -ESRCH
 * if it exists but no process holds its lock (a stale file left by a
 * crash), -EINVAL if its contents are not a pid. */
pid_t read_pidfile(const char *file_name);

#endif /* daemon.h */
