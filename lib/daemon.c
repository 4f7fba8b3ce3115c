/* daemon: see daemon.h. */
#include <config.h>
#include "daemon.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dirs.h"
#include "fatal-signal.h"
#include "process.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(daemon);

/* Options. */
static bool detach;
static bool chdir_ = true;
static bool monitor;
static bool overwrite_pidfile;
static char *pidfile;           /* Absolute name, NULL without --pidfile. */

/* The pid file stays open for as long as the process lives: closing any
 * descriptor of a file drops the process's fcntl() locks on it. */
static int pidfile_fd = -1;
static dev_t pidfile_dev;
static ino_t pidfile_ino;

/* Write end of the pipe the waiting foreground process reads; -1 when nobody
 * waits (not detached, already notified, or a child restarted by the
 * monitor). */
static int daemonize_fd = -1;
static bool completed;

void
set_detach(void)
{
    detach = true;
}

bool
get_detach(void)
{
    return detach;
}

void
set_no_chdir(void)
{
    chdir_ = false;
}

void
daemon_set_monitor(void)
{
    monitor = true;
}

bool
daemon_is_monitored(void)
{
    return monitor;
}

void
ignore_existing_pidfile(void)
{
    overwrite_pidfile = true;
}

void
set_pidfile(const char *name)
{
    free(pidfile);
    pidfile = (name
               ? abs_file_name(ovs_rundir(), name)
               : xasprintf("%s/%s.pid", ovs_rundir(), program_name));
}

const char *
get_pidfile(void)
{
    return pidfile;
}

void
daemon_usage(void)
{
    printf("\nDaemon options:\n"
           "  --detach                run in background as daemon\n"
           "  --monitor               restart the daemon if it crashes\n"
           "  --no-chdir              do not chdir to '/'\n"
           "  --pidfile[=FILE]        create pidfile (default: %s/%s.pid)\n"
           "  --overwrite-pidfile     with --pidfile, start even if already "
           "running\n",
           ovs_rundir(), program_name);
}

static pid_t
fork_or_die(void)
{
    /* Buffered output would otherwise be written by both processes. */
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        VLOG_FATAL("fork failed (%s)", ovs_strerror(errno));
    }
    return pid;
}

/* Forks.  The parent waits until the child reports that it has started (or
 * dies trying) and then exits; only the child returns. */
static void
fork_and_wait_for_startup(void)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC)) {
        VLOG_FATAL("pipe failed (%s)", ovs_strerror(errno));
    }

    pid_t pid = fork_or_die();
    if (pid > 0) {
        close(fds[1]);
        char c;
        ssize_t n;
        do {
            n = read(fds[0], &c, 1);
        } while (n < 0 && errno == EINTR);
        if (n == 1) {
            /* _exit(): the atexit() cleanup belongs to the child now. */
            _exit(0);
        }

        /* With --monitor our child is the monitor, which may still be
         * running (restarting the daemon that died), so do not wait for it
         * to exit. */
        int status;
        pid_t retval;
        do {
            retval = waitpid(pid, &status, monitor ? WNOHANG : 0);
        } while (retval < 0 && errno == EINTR);
        if (retval == pid && WIFEXITED(status) && WEXITSTATUS(status)) {
            /* The child said why on stderr before it exited; pass its
             * status on and add nothing. */
            _exit(WEXITSTATUS(status));
        } else if (retval == pid) {
            char *msg = process_status_msg(status);
            fprintf(stderr, "%s: fork child died before signaling startup "
                    "(%s)\n", program_name, msg);
            free(msg);
        } else {
            fprintf(stderr, "%s: daemon died before signaling startup\n",
                    program_name);
        }
        _exit(1);
    }

    close(fds[0]);
    daemonize_fd = fds[1];

    /* Once detached, a daemon writes nothing to the terminal it came from:
     * log lines go to the log file and syslog only.  Until start-up
     * completes, stderr stays the caller's, so a fatal error still says
     * why there (vlog_fatal() prints it without the console). */
    vlog_set_levels(NULL, VLF_CONSOLE, VLL_OFF);
}

/* Signals that a crash, not a decision, ended the daemon. */
static bool
is_crash_status(int status)
{
    if (!WIFSIGNALED(status)) {
        return false;
    }
    switch (WTERMSIG(status)) {
    case SIGABRT: case SIGALRM: case SIGBUS: case SIGFPE: case SIGILL:
    case SIGPIPE: case SIGSEGV: case SIGXCPU: case SIGXFSZ:
        return true;
    default:
        return false;
    }
}

static long long int
monotonic_msec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Standard fds that detaching leaves alone (daemon_save_fd()). */
static bool saved_fds[3];

void
daemon_save_fd(int fd)
{
    ovs_assert(fd >= 0 && fd < 3);
    saved_fds[fd] = true;
}

static void
close_standard_fds(void)
{
    int null_fd = open("/dev/null", O_RDWR);
    if (null_fd < 0) {
        VLOG_ERR("could not open /dev/null (%s)", ovs_strerror(errno));
        return;
    }
    for (int fd = 0; fd < 3; fd++) {
        if (!saved_fds[fd]) {
            dup2(null_fd, fd);
        }
    }
    if (null_fd > 2) {
        close(null_fd);
    }
}

static void
detach_from_cwd_and_stdio(void)
{
    if (chdir_ && chdir("/")) {
        VLOG_WARN("could not change directory to \"/\" (%s)",
                  ovs_strerror(errno));
    }
    close_standard_fds();
}

/* Becomes the monitor: forks the daemon, and forks it again each time it
 * crashes.  Returns only in a daemon child. */
static void
monitor_daemon(void)
{
    /* The monitor has no files of its own to clean up; a SIGTERM sent to it
     * should simply end it. */
    static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGALRM };
    for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
        signal(sigs[i], SIG_DFL);
    }

    long long int last_restart = LLONG_MIN;
    for (;;) {
        pid_t pid = fork_or_die();
        if (!pid) {
            return;
        }

        /* Only the first child reports start-up to the foreground
         * process; the monitor's copy must go so that the foreground
         * process sees end-of-file if that child dies. */
        if (daemonize_fd >= 0) {
            close(daemonize_fd);
            daemonize_fd = -1;
        }
        /* The monitor, too, must let go of the terminal (and of whatever
         * pipe the caller reads our output from). */
        if (detach) {
            detach_from_cwd_and_stdio();
        }

        int status;
        while (waitpid(pid, &status, 0) < 0) {
            if (errno != EINTR) {
                VLOG_FATAL("waitpid failed (%s)", ovs_strerror(errno));
            }
        }

        char *msg = process_status_msg(status);
        if (!is_crash_status(status)) {
            VLOG_INFO("pid %ld died, %s, exiting", (long) pid, msg);
            free(msg);
            exit(0);
        }

        /* A daemon that crashes at start-up must not make us fork as
         * fast as we can. */
        long long int now = monotonic_msec();
        if (last_restart != LLONG_MIN && now < last_restart + 10000) {
            VLOG_WARN("pid %ld died, %s, waiting until 10 seconds since "
                      "last restart", (long) pid, msg);
            long long int wait_ms = last_restart + 10000 - now;
            struct timespec ts = { wait_ms / 1000,
                                   (wait_ms % 1000) * 1000000 };
            while (nanosleep(&ts, &ts) && errno == EINTR) {
                continue;
            }
        }
        VLOG_ERR("pid %ld died, %s, restarting", (long) pid, msg);
        free(msg);
        last_restart = monotonic_msec();
    }
}

static int
lock_pidfile(int fd, int command)
{
    struct flock lck;
    memset(&lck, 0, sizeof lck);
    lck.l_type = F_WRLCK;
    lck.l_whence = SEEK_SET;
    lck.l_start = 0;
    lck.l_len = 0;

    int error;
    do {
        error = fcntl(fd, command, &lck) == -1 ? errno : 0;
    } while (error == EINTR);
    return error;
}

/* Removes the pid file at exit, but only if it is still ours: after
 * --overwrite-pidfile, a newer instance owns the name. */
static void
remove_pidfile_hook(void *aux OVS_UNUSED)
{
    struct stat s;
    if (pidfile && !stat(pidfile, &s)
        && s.st_dev == pidfile_dev && s.st_ino == pidfile_ino) {
        unlink(pidfile);
    }
}

static void
make_pidfile(void)
{
    long long int pid = getpid();
    char *tmpfile = xasprintf("%s.tmp", pidfile);
    fatal_signal_add_file_to_unlink(tmpfile);

    int fd = open(tmpfile, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        VLOG_FATAL("%s: create failed (%s)", tmpfile, ovs_strerror(errno));
    }
    int error = lock_pidfile(fd, F_SETLK);
    if (error) {
        VLOG_FATAL("%s: fcntl(F_SETLK) failed (%s)",
                   tmpfile, ovs_strerror(error));
    }

    char buf[32];
    int len = snprintf(buf, sizeof buf, "%lld\n", pid);
    if (write(fd, buf, len) != len) {
        VLOG_FATAL("%s: write failed (%s)", tmpfile, ovs_strerror(errno));
    }

    if (!overwrite_pidfile) {
        pid_t other = read_pidfile(pidfile);
        if (other > 0) {
            fatal_signal_unlink_file_now(tmpfile);
            VLOG_FATAL("%s: already running as pid %ld, aborting",
                       pidfile, (long) other);
        }
    }

    if (rename(tmpfile, pidfile)) {
        int rename_error = errno;
        fatal_signal_unlink_file_now(tmpfile);
        VLOG_FATAL("failed to rename \"%s\" to \"%s\" (%s)",
                   tmpfile, pidfile, ovs_strerror(rename_error));
    }
    fatal_signal_remove_file_to_unlink(tmpfile);
    free(tmpfile);

    struct stat s;
    if (fstat(fd, &s)) {
        VLOG_FATAL("%s: fstat failed (%s)", pidfile, ovs_strerror(errno));
    }
    if (pidfile_fd >= 0) {
        close(pidfile_fd);
    } else {
        fatal_signal_add_hook(remove_pidfile_hook, NULL, NULL, true);
    }
    pidfile_fd = fd;
    pidfile_dev = s.st_dev;
    pidfile_ino = s.st_ino;
}

void
daemonize_start(void)
{
    if (detach) {
        fork_and_wait_for_startup();
        /* Leave the terminal's session, so its hang-up does not reach us. */
        if (setsid() < 0) {
            VLOG_FATAL("setsid failed (%s)", ovs_strerror(errno));
        }
        if (monitor) {
            monitor_daemon();
        }
    } else if (monitor) {
        monitor_daemon();
    }

    if (pidfile) {
        make_pidfile();
    }
}

void
daemonize_complete(void)
{
    if (completed) {
        return;
    }
    completed = true;

    if (daemonize_fd >= 0) {
        ssize_t n;
        do {
            n = write(daemonize_fd, "", 1);
        } while (n < 0 && errno == EINTR);
        close(daemonize_fd);
        daemonize_fd = -1;
    }

    if (detach) {
        detach_from_cwd_and_stdio();
    }
}

void
daemonize(void)
{
    daemonize_start();
    daemonize_complete();
}

pid_t
read_pidfile(const char *file_name)
{
    /* F_GETLK never reports our own lock, so recognize our own file by its
     * identity (opening and closing it here would also drop that lock). */
    if (pidfile_fd >= 0) {
        struct stat s;
        if (!stat(file_name, &s)
            && s.st_dev == pidfile_dev && s.st_ino == pidfile_ino) {
            return getpid();
        }
    }

    int fd = open(file_name, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -errno;
    }

    pid_t pid;
    struct flock lck;
    memset(&lck, 0, sizeof lck);
    lck.l_type = F_WRLCK;
    lck.l_whence = SEEK_SET;
    if (fcntl(fd, F_GETLK, &lck)) {
        pid = -errno;
        goto out;
    }
    if (lck.l_type == F_UNLCK) {
        /* Nobody holds it: its writer died without cleaning up. */
        pid = -ESRCH;
        goto out;
    }

    char buf[32];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n < 0) {
        pid = -errno;
        goto out;
    }
    buf[n] = '\0';
    char *end;
    errno = 0;
    long value = strtol(buf, &end, 10);
    if (errno || end == buf || (*end && *end != '\n') || value <= 0) {
        pid = -EINVAL;
        goto out;
    }
    pid = value;

out:
    close(fd);
    return pid;
}
