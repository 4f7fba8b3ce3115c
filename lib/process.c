#include <config.h>
#include "process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fatal-signal.h"
#include "list.h"
#include "poll-loop.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(process);

struct process {
    struct ovs_list node;       /* In 'processes' until reaped. */
    pid_t pid;
    bool exited;
    int status;
};

/* Children started and not yet reaped. */
static struct ovs_list processes = OVS_LIST_INITIALIZER(&processes);
static int sigchld_fds[2] = { -1, -1 };

static void
sigchld_handler(int sig OVS_UNUSED)
{
    int saved_errno = errno;
    ssize_t n = write(sigchld_fds[1], "", 1);
    (void) n;                   /* A full pipe already says "wake up". */
    errno = saved_errno;
}

static void
process_init(void)
{
    if (sigchld_fds[0] >= 0) {
        return;
    }
    if (pipe2(sigchld_fds, O_NONBLOCK | O_CLOEXEC)) {
        ovs_fatal(errno, "could not create pipe for SIGCHLD");
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = sigchld_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_NOCLDSTOP | SA_RESTART;
    if (sigaction(SIGCHLD, &sa, NULL)) {
        ovs_fatal(errno, "sigaction(SIGCHLD) failed");
    }
}

int
process_start_shell(const char *command, struct process **processp)
{
    process_init();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        *processp = NULL;
        return errno;
    }
    if (!pid) {
        /* The child is about to become something else: it must not run
         * the daemon's exit hooks (removing its pid file, its sockets). */
        fatal_signal_fork();
        signal(SIGCHLD, SIG_DFL);
        execl("/bin/sh", "sh", "-c", command, (char *) NULL);
        _exit(127);
    }

    struct process *p = xzalloc(sizeof *p);
    p->pid = pid;
    ovs_list_push_back(&processes, &p->node);
    *processp = p;
    return 0;
}

void
process_destroy(struct process *p)
{
    if (p) {
        if (!p->exited) {
            ovs_list_remove(&p->node);
        }
        free(p);
    }
}

pid_t
process_pid(const struct process *p)
{
    return p->pid;
}

void
process_run(void)
{
    if (sigchld_fds[0] < 0) {
        return;
    }
    char buf[64];
    while (read(sigchld_fds[0], buf, sizeof buf) > 0) {
        continue;
    }

    struct process *p, *next;
    LIST_FOR_EACH_SAFE (p, next, node, &processes) {
        int status;
        pid_t retval;
        do {
            retval = waitpid(p->pid, &status, WNOHANG);
        } while (retval < 0 && errno == EINTR);
        if (retval == p->pid) {
            p->exited = true;
            p->status = status;
            ovs_list_remove(&p->node);
        }
    }
}

bool
process_exited(const struct process *p)
{
    return p->exited;
}

int
process_status(const struct process *p)
{
    return p->status;
}

void
process_wait(const struct process *p)
{
    if (p->exited) {
        poll_immediate_wake();
    } else {
        poll_fd_wait(sigchld_fds[0], POLLIN);
    }
}

char *
process_status_msg(int status)
{
    if (WIFEXITED(status)) {
        return xasprintf("exit status %d", WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        return xasprintf("killed (%s)%s", strsignal(sig),
                         WCOREDUMP(status) ? ", core dumped" : "");
    } else {
        return xasprintf("terminated abnormally (%x)", (unsigned) status);
    }
}
