/* Unit tests for the daemon support modules: dirs (directory overrides from
 * the environment), command-line (short option strings, subcommand
 * dispatch), daemon (pid files) and fatal-signal (cleanup on signals and at
 * exit, wake-up of a blocked loop).
 *
 * Much of this is process-wide, once-only state (directories are computed
 * once, a pid file is locked by a process, a signal kills one), so most tests
 * fork a child to do the work and check its results and its exit status from
 * the parent.  Children end with _exit() or by a signal, never by returning
 * into Check. */
#include <config.h>
#include "daemon.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command-line.h"
#include "dirs.h"
#include "fatal-signal.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "util.h"

static char tmpdir[] = "/tmp/test-daemon.XXXXXX";

/* Waits for child PID, for at most about 10 seconds (a patience cap: a
 * child that hangs is a failure, not a slow machine), and returns its wait
 * status. */
static int
wait_child(pid_t pid)
{
    for (int i = 0; i < 1000; i++) {
        int status;
        pid_t retval = waitpid(pid, &status, WNOHANG);
        ck_assert_int_ge(retval, 0);
        if (retval == pid) {
            return status;
        }
        usleep(10000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    ck_abort_msg("child %ld hung", (long) pid);
    return -1;
}

static void
assert_exited(int status, int code)
{
    ck_assert_msg(WIFEXITED(status), "status %#x: not a normal exit", status);
    ck_assert_int_eq(WEXITSTATUS(status), code);
}

static void
assert_killed(int status, int sig_nr)
{
    ck_assert_msg(WIFSIGNALED(status), "status %#x: not killed", status);
    ck_assert_int_eq(WTERMSIG(status), sig_nr);
}

static pid_t
xfork(void)
{
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    return pid;
}

/* Reads everything from FD into a new string. */
static char *
read_all(int fd)
{
    size_t n = 0, allocated = 64;
    char *buf = xmalloc(allocated);
    for (;;) {
        if (n + 1 >= allocated) {
            buf = x2nrealloc(buf, &allocated, 1);
        }
        ssize_t retval = read(fd, buf + n, allocated - n - 1);
        if (retval <= 0) {
            break;
        }
        n += retval;
    }
    buf[n] = '\0';
    return buf;
}

static bool
file_exists(const char *name)
{
    return !access(name, F_OK);
}

/* Declares char VAR[] holding the name of file NAME in the temporary
 * directory.  On the stack, not the heap: children that exit() would
 * otherwise report the parent's allocations as leaks. */
#define TMP_FILE(VAR, NAME)                                     \
    char VAR[sizeof tmpdir + 64];                               \
    snprintf(VAR, sizeof VAR, "%s/%s", tmpdir, NAME)

/* dirs. */

static const char *const dir_variables[] = {
    "OVS_RUNDIR", "OVS_LOGDIR", "OVS_DBDIR", "OVS_SYSCONFDIR",
    "OVS_PKGDATADIR", "OVS_BINDIR",
};

/* In a child whose environment has no OVS_* variable except those in
 * SETTINGS ("NAME=VALUE" strings, NULL-terminated), reports the six
 * directories, one per line, in dir_variables[] order. */
static char *
dirs_in_child(const char *const settings[])
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = xfork();
    if (!pid) {
        close(fds[0]);
        for (size_t i = 0; i < ARRAY_SIZE(dir_variables); i++) {
            unsetenv(dir_variables[i]);
        }
        for (size_t i = 0; settings && settings[i]; i++) {
            putenv((char *) settings[i]);
        }
        dprintf(fds[1], "%s\n%s\n%s\n%s\n%s\n%s\n",
                ovs_rundir(), ovs_logdir(), ovs_dbdir(), ovs_sysconfdir(),
                ovs_pkgdatadir(), ovs_bindir());
        _exit(0);
    }
    close(fds[1]);
    char *out = read_all(fds[0]);
    close(fds[0]);
    assert_exited(wait_child(pid), 0);
    return out;
}

START_TEST(test_dirs_defaults)
{
    char *out = dirs_in_child(NULL);
    char *expected = xasprintf("%s\n%s\n%s\n%s\n%s\n%s\n",
                               OVS_RUNDIR, OVS_LOGDIR, OVS_DBDIR,
                               OVS_SYSCONFDIR, OVS_PKGDATADIR, OVS_BINDIR);
    ck_assert_str_eq(out, expected);
    free(expected);
    free(out);
}
END_TEST

START_TEST(test_dirs_each_override)
{
    char *out = dirs_in_child((const char *const[]) {
            "OVS_RUNDIR=/r", "OVS_LOGDIR=/l", "OVS_DBDIR=/d",
            "OVS_SYSCONFDIR=/s", "OVS_PKGDATADIR=/p", "OVS_BINDIR=/b",
            NULL });
    ck_assert_str_eq(out, "/r\n/l\n/d\n/s\n/p\n/b\n");
    free(out);

    /* One variable moves one directory only. */
    out = dirs_in_child((const char *const[]) { "OVS_LOGDIR=/only-log",
                                                NULL });
    char *expected = xasprintf("%s\n/only-log\n%s\n%s\n%s\n%s\n",
                               OVS_RUNDIR, OVS_DBDIR, OVS_SYSCONFDIR,
                               OVS_PKGDATADIR, OVS_BINDIR);
    ck_assert_str_eq(out, expected);
    free(expected);
    free(out);
}
END_TEST

START_TEST(test_dirs_dbdir_follows_sysconfdir)
{
    /* Without OVS_DBDIR, the database lives under the configuration
     * directory... */
    char *out = dirs_in_child((const char *const[]) { "OVS_SYSCONFDIR=/etc2",
                                                      NULL });
    char *expected = xasprintf("%s\n%s\n/etc2/openvswitch\n/etc2\n%s\n%s\n",
                               OVS_RUNDIR, OVS_LOGDIR, OVS_PKGDATADIR,
                               OVS_BINDIR);
    ck_assert_str_eq(out, expected);
    free(expected);
    free(out);

    /* ...but OVS_DBDIR wins. */
    out = dirs_in_child((const char *const[]) { "OVS_SYSCONFDIR=/etc2",
                                                "OVS_DBDIR=/db", NULL });
    ck_assert_ptr_nonnull(strstr(out, "\n/db\n/etc2\n"));
    free(out);
}
END_TEST

START_TEST(test_dirs_empty_means_default)
{
    char *out = dirs_in_child((const char *const[]) { "OVS_RUNDIR=", NULL });
    ck_assert(string_starts_with(out, OVS_RUNDIR "\n"));
    free(out);
}
END_TEST

static void *
read_rundir_main(void *aux OVS_UNUSED)
{
    return (void *) ovs_rundir();
}

START_TEST(test_dirs_fixed_after_first_use)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = xfork();
    if (!pid) {
        setenv("OVS_RUNDIR", "/first", 1);
        /* Threads racing on the first call all see one string. */
        pthread_t threads[4];
        for (int i = 0; i < 4; i++) {
            threads[i] = ovs_thread_create("dirs", read_rundir_main, NULL);
        }
        const char *results[4];
        for (int i = 0; i < 4; i++) {
            void *r;
            xpthread_join(threads[i], &r);
            results[i] = r;
        }
        setenv("OVS_RUNDIR", "/second", 1);
        bool same = true;
        for (int i = 0; i < 4; i++) {
            same = same && results[i] == ovs_rundir();
        }
        dprintf(fds[1], "%s %d\n", ovs_rundir(), same);
        _exit(0);
    }
    close(fds[1]);
    char *out = read_all(fds[0]);
    close(fds[0]);
    assert_exited(wait_child(pid), 0);
    ck_assert_str_eq(out, "/first 1\n");
    free(out);
}
END_TEST

/* command-line. */

START_TEST(test_short_options)
{
    static int flag;
    static const struct option options[] = {
        {"target", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},
        {"verbose", optional_argument, NULL, 'v'},
        {"long-only", no_argument, NULL, UCHAR_MAX + 1},
        {"flag", no_argument, &flag, 'f'},
        {"Version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    char *s = ovs_cmdl_long_options_to_short_options(options);
    ck_assert_str_eq(s, "t:hv::V");
    free(s);

    static const struct option none[] = { {NULL, 0, NULL, 0} };
    s = ovs_cmdl_long_options_to_short_options(none);
    ck_assert_str_eq(s, "");
    free(s);
}
END_TEST

START_TEST(test_short_options_drive_getopt)
{
    static const struct option options[] = {
        {"target", required_argument, NULL, 't'},
        {"verbose", optional_argument, NULL, 'v'},
        {NULL, 0, NULL, 0},
    };
    char *s = ovs_cmdl_long_options_to_short_options(options);
    char *argv[] = { "prog", "-t", "x", "-vdbg", "-v", "arg", NULL };
    int argc = ARRAY_SIZE(argv) - 1;
    optind = 0;
    ck_assert_int_eq(getopt_long(argc, argv, s, options, NULL), 't');
    ck_assert_str_eq(optarg, "x");
    ck_assert_int_eq(getopt_long(argc, argv, s, options, NULL), 'v');
    ck_assert_str_eq(optarg, "dbg");
    ck_assert_int_eq(getopt_long(argc, argv, s, options, NULL), 'v');
    ck_assert_ptr_null(optarg);
    ck_assert_int_eq(getopt_long(argc, argv, s, options, NULL), -1);
    ck_assert_str_eq(argv[optind], "arg");
    free(s);
}
END_TEST

static int handled_argc;
static char *handled_arg;

static void
record_handler(struct ovs_cmdl_context *ctx)
{
    handled_argc = ctx->argc;
    handled_arg = ctx->argc > 1 ? ctx->argv[1] : NULL;
    *(int *) ctx->pvt += 1;
}

static const struct ovs_cmdl_command test_commands[] = {
    {"show", "[BRIDGE]", 0, 1, record_handler},
    {"add", "A B", 2, 2, record_handler},
    {NULL, NULL, 0, 0, NULL},
};

/* Runs ARGV through ovs_cmdl_run_command() in a child; returns what the
 * child wrote on stderr and stores its wait status in *STATUS. */
static char *
run_command_in_child(char *argv[], int *status)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = xfork();
    if (!pid) {
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        int calls = 0;
        struct ovs_cmdl_context ctx = { .argv = argv, .pvt = &calls };
        while (argv[ctx.argc]) {
            ctx.argc++;
        }
        ovs_cmdl_run_command(&ctx, test_commands);
        _exit(calls == 1 ? 0 : 3);
    }
    close(fds[1]);
    char *err = read_all(fds[0]);
    close(fds[0]);
    *status = wait_child(pid);
    return err;
}

START_TEST(test_run_command)
{
    int calls = 0;
    char *argv[] = { "show", "br0", NULL };
    struct ovs_cmdl_context ctx = { .argc = 2, .argv = argv, .pvt = &calls };
    ovs_cmdl_run_command(&ctx, test_commands);
    ck_assert_int_eq(calls, 1);
    ck_assert_int_eq(handled_argc, 2);
    ck_assert_str_eq(handled_arg, "br0");

    int status;
    char *err = run_command_in_child((char *[]) { "add", "1", "2", NULL },
                                     &status);
    assert_exited(status, 0);
    ck_assert_str_eq(err, "");
    free(err);
}
END_TEST

START_TEST(test_run_command_errors)
{
    int status;
    char *err = run_command_in_child((char *[]) { "frob", NULL }, &status);
    assert_exited(status, 1);
    ck_assert_str_eq(err, "test-daemon: unknown command 'frob'; "
                     "use --help for help\n");
    free(err);

    err = run_command_in_child((char *[]) { "add", "1", NULL }, &status);
    assert_exited(status, 1);
    ck_assert_str_eq(err, "test-daemon: 'add' command requires at least 2 "
                     "arguments\n");
    free(err);

    err = run_command_in_child((char *[]) { "show", "a", "b", NULL },
                               &status);
    assert_exited(status, 1);
    ck_assert_str_eq(err, "test-daemon: 'show' command takes at most 1 "
                     "arguments\n");
    free(err);

    err = run_command_in_child((char *[]) { NULL }, &status);
    assert_exited(status, 1);
    ck_assert_str_eq(err, "test-daemon: missing command name; use --help "
                     "for help\n");
    free(err);
}
END_TEST

/* daemon: pid files. */

START_TEST(test_read_pidfile_missing)
{
    TMP_FILE(name, "missing.pid");
    ck_assert_int_eq(read_pidfile(name), -ENOENT);
}
END_TEST

START_TEST(test_read_pidfile_stale)
{
    /* Written, but nobody holds its lock: its writer died. */
    TMP_FILE(name, "stale.pid");
    FILE *f = fopen(name, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "%ld\n", (long) getpid());
    fclose(f);
    ck_assert_int_eq(read_pidfile(name), -ESRCH);
    unlink(name);
}
END_TEST

/* Forks a child that runs daemonize_start() (without --detach) with pid
 * file NAME, reports readiness on a pipe, and then waits for a byte on
 * another pipe before calling exit(0).  Returns the child's pid; the caller
 * writes to *RELEASE_FD to end it. */
static pid_t
start_pidfile_child(const char *name, int *release_fd)
{
    int ready[2], release[2];
    ck_assert_int_eq(pipe(ready), 0);
    ck_assert_int_eq(pipe(release), 0);
    pid_t pid = xfork();
    if (!pid) {
        close(ready[0]);
        close(release[1]);
        set_pidfile(name);
        daemonize_start();
        daemonize_complete();
        /* No ck_assert() in children: a failure must not resume the test
         * run in this process. */
        char c;
        if (write(ready[1], "", 1) != 1 || read(release[0], &c, 1) != 1) {
            exit(2);
        }
        exit(0);
    }
    close(ready[1]);
    close(release[0]);
    char c;
    ck_assert_int_eq(read(ready[0], &c, 1), 1);
    close(ready[0]);
    *release_fd = release[1];
    return pid;
}

START_TEST(test_pidfile_lifecycle)
{
    TMP_FILE(name, "live.pid");
    int release_fd;
    pid_t pid = start_pidfile_child(name, &release_fd);

    /* While the child lives, its pid file names it. */
    ck_assert_int_eq(read_pidfile(name), pid);
    FILE *f = fopen(name, "r");
    ck_assert_ptr_nonnull(f);
    long contents = 0;
    ck_assert_int_eq(fscanf(f, "%ld", &contents), 1);
    fclose(f);
    ck_assert_int_eq(contents, pid);

    /* A second process with the same pid file refuses to start. */
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t second = xfork();
    if (!second) {
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        set_pidfile(name);
        daemonize_start();
        _exit(0);
    }
    close(fds[1]);
    char *err = read_all(fds[0]);
    close(fds[0]);
    assert_exited(wait_child(second), 1);
    char *expected = xasprintf("%s: already running as pid %ld, aborting",
                               name, (long) pid);
    ck_assert_msg(strstr(err, expected), "stderr: %s", err);
    free(expected);
    free(err);
    ck_assert_int_eq(read_pidfile(name), pid);

    /* A normal exit removes the pid file. */
    ck_assert_int_eq(write(release_fd, "", 1), 1);
    close(release_fd);
    assert_exited(wait_child(pid), 0);
    ck_assert(!file_exists(name));
}
END_TEST

START_TEST(test_pidfile_removed_on_sigterm)
{
    TMP_FILE(name, "term.pid");
    int ready[2];
    ck_assert_int_eq(pipe(ready), 0);
    pid_t pid = xfork();
    if (!pid) {
        close(ready[0]);
        set_pidfile(name);
        daemonize_start();
        daemonize_complete();
        /* A daemon's main loop, with nothing to do. */
        for (bool first = true; ; first = false) {
            fatal_signal_run();
            fatal_signal_wait();
            if (first && write(ready[1], "", 1) != 1) {
                _exit(2);
            }
            poll_block();
        }
    }
    close(ready[1]);
    char c;
    ck_assert_int_eq(read(ready[0], &c, 1), 1);
    close(ready[0]);
    ck_assert_int_eq(read_pidfile(name), pid);

    ck_assert_int_eq(kill(pid, SIGTERM), 0);
    assert_killed(wait_child(pid), SIGTERM);
    ck_assert(!file_exists(name));
}
END_TEST

START_TEST(test_set_pidfile_names)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = xfork();
    if (!pid) {
        close(fds[0]);
        setenv("OVS_RUNDIR", "/run/x", 1);
        bool ok = !get_pidfile();
        set_pidfile(NULL);
        ok = ok && !strcmp(get_pidfile(), "/run/x/test-daemon.pid");
        set_pidfile("custom.pid");
        ok = ok && !strcmp(get_pidfile(), "/run/x/custom.pid");
        set_pidfile("/abs/name.pid");
        ok = ok && !strcmp(get_pidfile(), "/abs/name.pid");
        _exit(ok ? 0 : 1);
    }
    close(fds[1]);
    close(fds[0]);
    assert_exited(wait_child(pid), 0);
}
END_TEST

START_TEST(test_detach_waits_for_startup)
{
    /* With --detach, daemonize_start() returns in a grandchild; the
     * process that called it exits only after daemonize_complete(), by
     * which time the pid file exists. */
    TMP_FILE(name, "detached.pid");
    TMP_FILE(marker, "detached.ready");
    pid_t pid = xfork();
    if (!pid) {
        set_pidfile(name);
        set_detach();
        set_no_chdir();
        daemonize_start();
        /* Only the daemon gets here.  Take a moment, so a parent that
         * did not wait would be caught exiting before the marker. */
        usleep(100000);
        int fd = open(marker, O_CREAT | O_WRONLY, 0644);
        close(fd);
        daemonize_complete();
        /* Stay until the pid file has been looked at. */
        while (file_exists(marker)) {
            usleep(10000);
        }
        exit(0);
    }
    assert_exited(wait_child(pid), 0);
    ck_assert(file_exists(marker));
    pid_t daemon_pid = read_pidfile(name);
    ck_assert_int_gt(daemon_pid, 0);
    ck_assert_int_ne(daemon_pid, pid);
    unlink(marker);

    /* The daemon cleans up when it exits. */
    for (int i = 0; i < 1000 && file_exists(name); i++) {
        usleep(10000);
    }
    ck_assert(!file_exists(name));
}
END_TEST

/* fatal-signal. */

static void
write_marker_hook(void *file_name)
{
    int fd = open(file_name, O_CREAT | O_WRONLY, 0644);
    if (fd >= 0) {
        close(fd);
    }
}

static void
touch(const char *name)
{
    int fd = open(name, O_CREAT | O_WRONLY, 0644);
    ck_assert_int_ge(fd, 0);
    close(fd);
}

START_TEST(test_unlink_at_exit)
{
    TMP_FILE(keep, "keep");
    TMP_FILE(doomed, "doomed");
    touch(keep);
    touch(doomed);
    pid_t pid = xfork();
    if (!pid) {
        fatal_signal_add_file_to_unlink(doomed);
        fatal_signal_add_file_to_unlink(keep);
        fatal_signal_remove_file_to_unlink(keep);
        exit(0);
    }
    assert_exited(wait_child(pid), 0);
    ck_assert(!file_exists(doomed));
    ck_assert(file_exists(keep));
    unlink(keep);
}
END_TEST

START_TEST(test_unlink_file_now)
{
    TMP_FILE(name, "now");
    touch(name);
    fatal_signal_add_file_to_unlink(name);
    ck_assert_int_eq(fatal_signal_unlink_file_now(name), 0);
    ck_assert(!file_exists(name));
    ck_assert_int_eq(fatal_signal_unlink_file_now(name), ENOENT);
}
END_TEST

START_TEST(test_signal_runs_hooks_and_kills)
{
    TMP_FILE(doomed, "sig-doomed");
    TMP_FILE(hook_ran, "sig-hook-ran");
    touch(doomed);
    int ready[2];
    ck_assert_int_eq(pipe(ready), 0);

    pid_t pid = xfork();
    if (!pid) {
        close(ready[0]);
        fatal_signal_add_file_to_unlink(doomed);
        fatal_signal_add_hook(write_marker_hook, NULL, hook_ran, false);
        /* Blocks in poll_block() with nothing but the signal to wake it:
         * if the signal did not end the block, this child would hang. */
        fatal_signal_run();
        fatal_signal_wait();
        if (write(ready[1], "", 1) != 1) {
            _exit(2);
        }
        poll_block();
        fatal_signal_run();
        _exit(99);
    }
    close(ready[1]);
    char c;
    ck_assert_int_eq(read(ready[0], &c, 1), 1);
    close(ready[0]);
    /* The child may not be inside poll_block() yet; either way the pipe
     * byte must make the block end. */
    ck_assert_int_eq(kill(pid, SIGTERM), 0);
    assert_killed(wait_child(pid), SIGTERM);
    ck_assert(!file_exists(doomed));
    ck_assert(file_exists(hook_ran));
    unlink(hook_ran);
}
END_TEST

START_TEST(test_exit_runs_only_exit_hooks)
{
    TMP_FILE(at_exit, "at-exit");
    TMP_FILE(not_at_exit, "not-at-exit");
    pid_t pid = xfork();
    if (!pid) {
        fatal_signal_add_hook(write_marker_hook, NULL, at_exit, true);
        fatal_signal_add_hook(write_marker_hook, NULL, not_at_exit, false);
        exit(0);
    }
    assert_exited(wait_child(pid), 0);
    ck_assert(file_exists(at_exit));
    ck_assert(!file_exists(not_at_exit));
    unlink(at_exit);
}
END_TEST

static void
cancel_marker_hook(void *file_name)
{
    char *name = xasprintf("%s.cancelled", (char *) file_name);
    write_marker_hook(name);
    free(name);
}

START_TEST(test_fork_cancels_hooks)
{
    TMP_FILE(hook_file, "forked-hook");
    TMP_FILE(cancelled, "forked-hook.cancelled");
    TMP_FILE(doomed, "forked-doomed");
    touch(doomed);
    pid_t pid = xfork();
    if (!pid) {
        fatal_signal_add_file_to_unlink(doomed);
        fatal_signal_add_hook(write_marker_hook, cancel_marker_hook,
                              hook_file, true);
        /* A grandchild that forgets its parent's cleanup. */
        pid_t grandchild = fork();
        if (!grandchild) {
            fatal_signal_fork();
            exit(0);
        }
        int status;
        waitpid(grandchild, &status, 0);
        /* The grandchild cancelled instead of running, and left the file;
         * the child itself then cleans up normally. */
        bool ok = (WIFEXITED(status) && !WEXITSTATUS(status)
                   && file_exists(cancelled) && !file_exists(hook_file)
                   && file_exists(doomed));
        _exit(ok ? 0 : 1);
    }
    assert_exited(wait_child(pid), 0);
    unlink(cancelled);
    unlink(doomed);
}
END_TEST

static Suite *
daemon_suite(void)
{
    Suite *s = suite_create("daemon");

    TCase *tc = tcase_create("dirs");
    tcase_add_test(tc, test_dirs_defaults);
    tcase_add_test(tc, test_dirs_each_override);
    tcase_add_test(tc, test_dirs_dbdir_follows_sysconfdir);
    tcase_add_test(tc, test_dirs_empty_means_default);
    tcase_add_test(tc, test_dirs_fixed_after_first_use);
    suite_add_tcase(s, tc);

    tc = tcase_create("command-line");
    tcase_add_test(tc, test_short_options);
    tcase_add_test(tc, test_short_options_drive_getopt);
    tcase_add_test(tc, test_run_command);
    tcase_add_test(tc, test_run_command_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("pidfile");
    tcase_add_test(tc, test_read_pidfile_missing);
    tcase_add_test(tc, test_read_pidfile_stale);
    tcase_add_test(tc, test_pidfile_lifecycle);
    tcase_add_test(tc, test_pidfile_removed_on_sigterm);
    tcase_add_test(tc, test_set_pidfile_names);
    tcase_add_test(tc, test_detach_waits_for_startup);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);

    tc = tcase_create("fatal-signal");
    tcase_add_test(tc, test_unlink_at_exit);
    tcase_add_test(tc, test_unlink_file_now);
    tcase_add_test(tc, test_signal_runs_hooks_and_kills);
    tcase_add_test(tc, test_exit_runs_only_exit_hooks);
    tcase_add_test(tc, test_fork_cancels_hooks);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);

    return s;
}

int
main(int argc OVS_UNUSED, char *argv[])
{
    set_program_name(argv[0]);
    if (!mkdtemp(tmpdir)) {
        ovs_fatal(errno, "mkdtemp failed");
    }

    SRunner *sr = srunner_create(daemon_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);

    rmdir(tmpdir);
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
