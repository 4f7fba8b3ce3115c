/* fatal-signal: see fatal-signal.h. */
#include <config.h>
#include "fatal-signal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "poll-loop.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(fatal_signal);

static const int fatal_signals[] = { SIGTERM, SIGINT, SIGHUP, SIGALRM };

struct hook {
    void (*hook_cb)(void *aux);
    void (*cancel_cb)(void *aux);
    void *aux;
    bool run_at_exit;
};

/* Everything below except the two signal-handler variables is protected by
 * 'mutex', because streams may add or remove files from any thread.  It is
 * recursive because a hook may itself remove a file from the list. */
static pthread_mutex_t mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static struct hook *hooks;
static size_t n_hooks, allocated_hooks;
static char **files;
static size_t n_files, allocated_files;
/* Set once the hooks have run, so a signal arriving during exit (or exit
 * after a signal) does not run them again. */
static bool hooks_ran;

/* The signal handler's only outputs: the first fatal signal seen, and a byte
 * in the self-pipe so that a thread blocked in poll_block() wakes up. */
static volatile sig_atomic_t stored_sig_nr;
static int signal_fds[2] = { -1, -1 };

/* The loop of the first thread that waits for signals keeps the pipe
 * registered all the time instead of in every iteration (see
 * poll_watch_create()); the pipe lives as long as the process.  Guarded by
 * 'mutex'. */
static struct poll_watch *signal_watch;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void
fatal_signal_handler(int sig_nr)
{
    int saved_errno = errno;
    if (!stored_sig_nr) {
        stored_sig_nr = sig_nr;
    }
    /* A full pipe already means "wake up", so a failed write is fine. */
    ssize_t retval OVS_UNUSED = write(signal_fds[1], "", 1);
    errno = saved_errno;
}

static void
run_hooks(bool at_exit)
{
    pthread_mutex_lock(&mutex);
    if (!hooks_ran) {
        hooks_ran = true;
        /* Newest first: a module registered later may depend on one
         * registered earlier still being intact. */
        for (size_t i = n_hooks; i-- > 0;) {
            if (!at_exit || hooks[i].run_at_exit) {
                hooks[i].hook_cb(hooks[i].aux);
            }
        }
    }
    pthread_mutex_unlock(&mutex);
}

static void
run_exit_hooks(void)
{
    /* stdio flushes its buffers only after every atexit() handler, so
     * without this a hook that removes a pidfile would announce the
     * process gone while its last output still sits in a buffer (a
     * detached "ovsdb-client transact" whose answer a waiting script
     * reads once the pidfile is gone). */
    fflush(NULL);
    run_hooks(true);
}

/* Unlinking is all a dying process can still do for its files; it is also
 * async-signal-safe, which matters if a hook ever runs from a handler. */
static void
unlink_files(void *aux OVS_UNUSED)
{
    for (size_t i = 0; i < n_files; i++) {
        unlink(files[i]);
    }
}

static void
cancel_files(void *aux OVS_UNUSED)
{
    for (size_t i = 0; i < n_files; i++) {
        free(files[i]);
    }
    n_files = 0;
}

/* Called at exit after the hooks, so leak checkers see the lists freed. */
static void
free_lists(void)
{
    pthread_mutex_lock(&mutex);
    cancel_files(NULL);
    free(files);
    files = NULL;
    allocated_files = 0;
    free(hooks);
    hooks = NULL;
    n_hooks = allocated_hooks = 0;
    pthread_mutex_unlock(&mutex);
}

static void
add_hook__(void (*hook_cb)(void *), void (*cancel_cb)(void *), void *aux,
           bool run_at_exit)
{
    if (n_hooks >= allocated_hooks) {
        hooks = x2nrealloc(hooks, &allocated_hooks, sizeof *hooks);
    }
    hooks[n_hooks++] = (struct hook) {
        .hook_cb = hook_cb,
        .cancel_cb = cancel_cb,
        .aux = aux,
        .run_at_exit = run_at_exit,
    };
}

static void
do_init(void)
{
    if (pipe2(signal_fds, O_NONBLOCK | O_CLOEXEC)) {
        ovs_fatal(errno, "could not create pipe for fatal signals");
    }

    for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++) {
        int sig_nr = fatal_signals[i];
        struct sigaction old_sa;
        if (sigaction(sig_nr, NULL, &old_sa)) {
            ovs_fatal(errno, "sigaction(%d) failed", sig_nr);
        }
        /* Respect an inherited SIG_IGN: "nohup ovs-vswitchd" must keep
         * surviving the terminal's hang-up. */
        if (old_sa.sa_handler == SIG_IGN) {
            continue;
        }
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = fatal_signal_handler;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        if (sigaction(sig_nr, &sa, NULL)) {
            ovs_fatal(errno, "sigaction(%d) failed", sig_nr);
        }
    }

    /* The file hook is the first one, so it runs last: other hooks may still
     * want to look at the files (say, a socket they announce closing on). */
    add_hook__(unlink_files, cancel_files, NULL, true);

    /* atexit() runs handlers in reverse order: free_lists() after the
     * hooks. */
    atexit(free_lists);
    atexit(run_exit_hooks);
}

void
fatal_signal_init(void)
{
    pthread_once(&init_once, do_init);
}

void
fatal_signal_add_hook(void (*hook_cb)(void *aux),
                      void (*cancel_cb)(void *aux),
                      void *aux, bool run_at_exit)
{
    fatal_signal_init();
    pthread_mutex_lock(&mutex);
    add_hook__(hook_cb, cancel_cb, aux, run_at_exit);
    pthread_mutex_unlock(&mutex);
}

void
fatal_signal_run(void)
{
    fatal_signal_init();

    int sig_nr = stored_sig_nr;
    if (!sig_nr) {
        /* Drain wake-ups that carried no signal of ours (a parent process
         * sharing the pipe across fork()), so they do not wake us again. */
        pthread_mutex_lock(&mutex);
        if (!signal_watch || poll_watch_may_be_ready(signal_watch)) {
            char buf[16];
            while (read(signal_fds[0], buf, sizeof buf) > 0) {
                continue;
            }
            if (signal_watch) {
                poll_watch_rearm(signal_watch);
            }
        }
        pthread_mutex_unlock(&mutex);
        return;
    }

    VLOG_WARN("terminating with signal %d (%s)", sig_nr, strsignal(sig_nr));
    run_hooks(false);
    fflush(stdout);
    fflush(stderr);

    /* Die by the signal itself, so whoever waits for us sees why. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig_nr, &sa, NULL);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, sig_nr);
    pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);
    raise(sig_nr);

    /* Not reached unless the signal is somehow ignored. */
    _exit(128 + sig_nr);
}

void
fatal_signal_wait(void)
{
    fatal_signal_init();
    pthread_mutex_lock(&mutex);
    if (!signal_watch) {
        signal_watch = poll_watch_create(signal_fds[0], POLLIN);
    }
    poll_watch_wait(signal_watch);
    pthread_mutex_unlock(&mutex);
}

void
fatal_signal_block(void)
{
    fatal_signal_wait();
    poll_block();
    fatal_signal_run();
}

void
fatal_ignore_sigpipe(void)
{
    signal(SIGPIPE, SIG_IGN);
}

void
fatal_signal_add_file_to_unlink(const char *file_name)
{
    fatal_signal_init();
    pthread_mutex_lock(&mutex);
    bool present = false;
    for (size_t i = 0; i < n_files; i++) {
        if (!strcmp(files[i], file_name)) {
            present = true;
            break;
        }
    }
    if (!present) {
        if (n_files >= allocated_files) {
            files = x2nrealloc(files, &allocated_files, sizeof *files);
        }
        files[n_files++] = xstrdup(file_name);
    }
    pthread_mutex_unlock(&mutex);
}

void
fatal_signal_remove_file_to_unlink(const char *file_name)
{
    fatal_signal_init();
    pthread_mutex_lock(&mutex);
    for (size_t i = 0; i < n_files; i++) {
        if (!strcmp(files[i], file_name)) {
            free(files[i]);
            files[i] = files[--n_files];
            break;
        }
    }
    pthread_mutex_unlock(&mutex);
}

int
fatal_signal_unlink_file_now(const char *file_name)
{
    int error = unlink(file_name) ? errno : 0;
    if (error && error != ENOENT) {
        VLOG_WARN("could not unlink \"%s\" (%s)",
                  file_name, ovs_strerror(error));
    }
    fatal_signal_remove_file_to_unlink(file_name);
    return error;
}

void
fatal_signal_fork(void)
{
    fatal_signal_init();
    pthread_mutex_lock(&mutex);
    /* hooks[0] is the file hook; keep it, but with an empty list. */
    for (size_t i = n_hooks; i-- > 0;) {
        if (hooks[i].cancel_cb) {
            hooks[i].cancel_cb(hooks[i].aux);
        }
    }
    n_hooks = 1;
    pthread_mutex_unlock(&mutex);

    /* A signal that arrived before the fork belongs to the parent. */
    stored_sig_nr = 0;
}
