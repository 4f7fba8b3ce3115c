/* Unit tests for unixctl: a server in the main thread and clients in other
 * threads (each thread has its own event loop), talking over a real Unix
 * socket in a private run directory.
 *
 * What they prove: commands receive their arguments and their replies reach
 * the client (with the newline the protocol promises); the server rejects
 * unknown commands, wrong argument counts and non-string arguments with
 * Open vSwitch's messages; replies may be deferred past the callback, even to
 * a client that has gone away; many clients are served at once; the built-in
 * commands and the socket's naming rules work. */
#include <config.h>
#include "unixctl.h"

#include <check.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dirs.h"
#include "dynamic-string.h"
#include "jsonrpc.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "util.h"

static char rundir[] = "/tmp/test-unixctl.XXXXXX";
static struct unixctl_server *server;

/* Set by the "test/defer" command: the connection whose answer is owed. */
static struct unixctl_conn *deferred_conn;

static void
echo_cb(struct unixctl_conn *conn, int argc, const char *argv[],
        void *aux OVS_UNUSED)
{
    if (argc == 1) {
        unixctl_command_reply(conn, NULL);
        return;
    }
    struct ds out = DS_EMPTY_INITIALIZER;
    for (int i = 1; i < argc; i++) {
        ds_put_format(&out, "%s%s", i > 1 ? " " : "", argv[i]);
    }
    unixctl_command_reply(conn, ds_cstr(&out));
    ds_destroy(&out);
}

static void
fail_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
        const char *argv[] OVS_UNUSED, void *aux)
{
    unixctl_command_reply_error(conn, aux);
}

static void
defer_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
         const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    ck_assert_ptr_null(deferred_conn);
    deferred_conn = conn;
}

static void
setup(void)
{
    ck_assert_int_eq(unixctl_server_create(NULL, &server), 0);
    ck_assert_ptr_nonnull(server);
    unixctl_command_register("test/echo", "[ARG...]", 0, 3, echo_cb, NULL);
    unixctl_command_register("test/fail", "", 0, 0, fail_cb, "it failed");
    unixctl_command_register("test/defer", "", 0, 0, defer_cb, NULL);
    deferred_conn = NULL;
}

static void
teardown(void)
{
    unixctl_server_destroy(server);
    server = NULL;
    poll_loop_destroy_self();
}

/* One client's work, done in its own thread. */
struct client {
    const char *command;
    int argc;
    char **argv;
    int n_repeat;               /* Transactions over one connection. */

    /* Results of the last transaction. */
    int error;
    char *result;
    char *err;
    int n_ok;                   /* Transactions whose result was right. */
    const char *expect;         /* Expected result, when checking n_ok. */

    atomic_bool done;
    struct poll_loop *server_loop;
};

static void
client_finish(struct client *c)
{
    atomic_store(&c->done, true);
    poll_loop_wake(c->server_loop);
}

static void *
client_main(void *c_)
{
    struct client *c = c_;
    struct jsonrpc *rpc;
    c->error = unixctl_client_create(unixctl_server_get_path(server), &rpc);
    for (int i = 0; !c->error && i < MAX(c->n_repeat, 1); i++) {
        free(c->result);
        free(c->err);
        c->error = unixctl_client_transact(rpc, c->command, c->argc, c->argv,
                                           &c->result, &c->err);
        if (!c->error && c->expect && c->result
            && !strcmp(c->result, c->expect)) {
            c->n_ok++;
        }
    }
    jsonrpc_close(rpc);
    client_finish(c);
    return NULL;
}

/* Runs the server loop until every client in CLIENTS is done, calling HOOK
 * (if any) on each iteration. */
static void
serve_until_done(struct client *clients, size_t n, void (*hook)(void))
{
    for (;;) {
        bool all_done = true;
        for (size_t i = 0; i < n; i++) {
            all_done = all_done && atomic_load(&clients[i].done);
        }
        if (all_done) {
            return;
        }
        unixctl_server_run(server);
        if (hook) {
            hook();
        }
        unixctl_server_wait(server);
        poll_block();
    }
}

static void
start_clients(struct client *clients, size_t n, pthread_t *threads,
              void *(*main_fn)(void *))
{
    for (size_t i = 0; i < n; i++) {
        clients[i].server_loop = poll_loop_self();
        atomic_init(&clients[i].done, false);
        threads[i] = ovs_thread_create("client", main_fn, &clients[i]);
    }
}

/* Runs one transaction of COMMAND with ARGV (NULL-terminated). */
static struct client
transact(const char *command, char **argv)
{
    struct client c = { .command = command, .argv = argv };
    while (argv && argv[c.argc]) {
        c.argc++;
    }
    pthread_t thread;
    start_clients(&c, 1, &thread, client_main);
    serve_until_done(&c, 1, NULL);
    xpthread_join(thread, NULL);
    return c;
}

static void
client_free(struct client *c)
{
    free(c->result);
    free(c->err);
}

static void
check_result(const char *command, char **argv, const char *expected)
{
    struct client c = transact(command, argv);
    ck_assert_int_eq(c.error, 0);
    ck_assert_ptr_null(c.err);
    ck_assert_ptr_nonnull(c.result);
    ck_assert_str_eq(c.result, expected);
    client_free(&c);
}

static void
check_error(const char *command, char **argv, const char *expected)
{
    struct client c = transact(command, argv);
    ck_assert_int_eq(c.error, 0);
    ck_assert_ptr_null(c.result);
    ck_assert_ptr_nonnull(c.err);
    ck_assert_str_eq(c.err, expected);
    client_free(&c);
}

START_TEST(test_command_gets_arguments)
{
    check_result("test/echo", (char *[]) { "a", "b c", "d", NULL },
                 "a b c d\n");
    check_result("test/echo", (char *[]) { "x", NULL }, "x\n");
}
END_TEST

START_TEST(test_empty_reply)
{
    /* No output at all: an empty result, not an error. */
    check_result("test/echo", NULL, "");
}
END_TEST

START_TEST(test_error_reply)
{
    check_error("test/fail", NULL, "it failed\n");
}
END_TEST

START_TEST(test_unknown_command)
{
    check_error("no/such", NULL,
                "\"no/such\" is not a valid command (use \"list-commands\" "
                "to see a list of valid commands)\n");
}
END_TEST

START_TEST(test_argument_count)
{
    check_error("test/echo", (char *[]) { "1", "2", "3", "4", NULL },
                "\"test/echo\" command takes at most 3 arguments\n");
    unixctl_command_register("test/two", "A B", 2, 2, echo_cb, NULL);
    check_error("test/two", (char *[]) { "1", NULL },
                "\"test/two\" command requires at least 2 arguments\n");
    check_result("test/two", (char *[]) { "1", "2", NULL }, "1 2\n");
}
END_TEST

START_TEST(test_reregister_replaces)
{
    unixctl_command_register("test/swap", "", 0, 0, fail_cb, "first");
    unixctl_command_register("test/swap", "", 0, 0, fail_cb, "second");
    check_error("test/swap", NULL, "second\n");
}
END_TEST

START_TEST(test_list_commands)
{
    struct client c = transact("list-commands", NULL);
    ck_assert_int_eq(c.error, 0);
    ck_assert_ptr_nonnull(c.result);
    const char *out = c.result;
    ck_assert(string_starts_with(out, "The available commands are:\n"));
    ck_assert_ptr_nonnull(strstr(out, "\n  test/echo               [ARG...]\n"));
    ck_assert_ptr_nonnull(strstr(out, "\n  list-commands           \n"));
    ck_assert_ptr_nonnull(strstr(out, "\n  version                 \n"));
    /* The standard modules registered theirs. */
    ck_assert_ptr_nonnull(strstr(out, "\n  vlog/set "));
    ck_assert_ptr_nonnull(strstr(out, "\n  coverage/show "));
    ck_assert_ptr_nonnull(strstr(out, "\n  time/warp "));
    /* Sorted by name. */
    const char *prev = NULL;
    for (const char *line = strchr(out, '\n') + 1; *line;
         line = strchr(line, '\n') + 1) {
        if (prev) {
            ck_assert_int_lt(strcmp(prev, line), 0);
        }
        prev = line;
    }
    client_free(&c);
}
END_TEST

START_TEST(test_version)
{
    char *expected = xasprintf("%s (Open vSwitch) 3.1.0\n"
                               "Open vSwitch NG %s\n",
                               program_name, ovs_ng_version_string());
    check_result("version", NULL, expected);
    free(expected);
}
END_TEST

static int defer_iterations;

/* Answers the deferred request a few loop iterations after it arrived, as a
 * multi-step command such as time/warp does. */
static void
reply_later_hook(void)
{
    if (deferred_conn) {
        if (++defer_iterations >= 3) {
            unixctl_command_reply(deferred_conn, "later");
            deferred_conn = NULL;
        } else {
            poll_immediate_wake();
        }
    }
}

START_TEST(test_deferred_reply)
{
    struct client c = { .command = "test/defer" };
    pthread_t thread;
    defer_iterations = 0;
    start_clients(&c, 1, &thread, client_main);
    serve_until_done(&c, 1, reply_later_hook);
    xpthread_join(thread, NULL);

    ck_assert_int_ge(defer_iterations, 3);
    ck_assert_int_eq(c.error, 0);
    ck_assert_str_eq(c.result, "later\n");
    client_free(&c);
}
END_TEST

/* Sends "test/defer" and hangs up without waiting for the answer. */
static void *
impatient_client_main(void *c_)
{
    struct client *c = c_;
    struct jsonrpc *rpc;
    c->error = unixctl_client_create(unixctl_server_get_path(server), &rpc);
    if (!c->error) {
        c->error = jsonrpc_send_block(
            rpc, jsonrpc_create_request("test/defer", json_array(), NULL));
        jsonrpc_close(rpc);
    }
    client_finish(c);
    return NULL;
}

/* Runs the server until "test/defer" has been received. */
static void
serve_until_deferred(void)
{
    for (;;) {
        unixctl_server_run(server);
        if (deferred_conn) {
            return;
        }
        unixctl_server_wait(server);
        poll_block();
    }
}

START_TEST(test_deferred_reply_after_hangup)
{
    struct client c = { 0 };
    pthread_t thread;
    start_clients(&c, 1, &thread, impatient_client_main);
    serve_until_done(&c, 1, NULL);
    xpthread_join(thread, NULL);
    ck_assert_int_eq(c.error, 0);

    /* Let the server receive the request (and see the hang-up), while
     * another client is served normally. */
    serve_until_deferred();
    check_result("test/echo", (char *[]) { "still", "alive", NULL },
                 "still alive\n");

    /* The answer to nobody fails to send and the connection is dropped,
     * without harm to the server (ASan and valgrind would catch a use
     * after free). */
    unixctl_command_reply(deferred_conn, "too late");
    deferred_conn = NULL;
    check_result("test/echo", (char *[]) { "ok", NULL }, "ok\n");
}
END_TEST

START_TEST(test_deferred_reply_pending_at_destroy)
{
    /* A server destroyed while a command still owes its answer frees the
     * connection (valgrind checks that nothing leaks). */
    struct client c = { 0 };
    pthread_t thread;
    start_clients(&c, 1, &thread, impatient_client_main);
    serve_until_done(&c, 1, NULL);
    xpthread_join(thread, NULL);
    serve_until_deferred();
    deferred_conn = NULL;
}
END_TEST

/* Sends a request whose argument is a number, not a string. */
static void *
non_string_client_main(void *c_)
{
    struct client *c = c_;
    struct jsonrpc *rpc;
    c->error = unixctl_client_create(unixctl_server_get_path(server), &rpc);
    if (!c->error) {
        json_t *params = json_pack("[si]", "x", 42);
        struct jsonrpc_msg *reply;
        c->error = jsonrpc_transact_block(
            rpc, jsonrpc_create_request("test/echo", params, NULL), &reply);
        if (!c->error) {
            if (reply->type == JSONRPC_ERROR && json_is_string(reply->error)) {
                c->err = xstrdup(json_string_value(reply->error));
            }
            jsonrpc_msg_destroy(reply);
        }
        jsonrpc_close(rpc);
    }
    client_finish(c);
    return NULL;
}

START_TEST(test_non_string_argument)
{
    struct client c = { 0 };
    pthread_t thread;
    start_clients(&c, 1, &thread, non_string_client_main);
    serve_until_done(&c, 1, NULL);
    xpthread_join(thread, NULL);
    ck_assert_int_eq(c.error, 0);
    ck_assert_ptr_nonnull(c.err);
    ck_assert_str_eq(c.err, "command has non-string argument: 42\n");
    client_free(&c);
}
END_TEST

START_TEST(test_many_clients)
{
    enum { N_CLIENTS = 8, N_REPEAT = 10 };
    struct client clients[N_CLIENTS];
    pthread_t threads[N_CLIENTS];
    char *argvs[N_CLIENTS][2];
    char *expected[N_CLIENTS];

    memset(clients, 0, sizeof clients);
    for (int i = 0; i < N_CLIENTS; i++) {
        argvs[i][0] = xasprintf("client%d", i);
        argvs[i][1] = NULL;
        expected[i] = xasprintf("client%d\n", i);
        clients[i].command = "test/echo";
        clients[i].argc = 1;
        clients[i].argv = argvs[i];
        clients[i].n_repeat = N_REPEAT;
        clients[i].expect = expected[i];
    }
    start_clients(clients, N_CLIENTS, threads, client_main);
    serve_until_done(clients, N_CLIENTS, NULL);
    for (int i = 0; i < N_CLIENTS; i++) {
        xpthread_join(threads[i], NULL);
        ck_assert_int_eq(clients[i].error, 0);
        ck_assert_int_eq(clients[i].n_ok, N_REPEAT);
        client_free(&clients[i]);
        free(argvs[i][0]);
        free(expected[i]);
    }
}
END_TEST

START_TEST(test_client_without_server)
{
    struct jsonrpc *rpc;
    char *path = xasprintf("%s/nobody.ctl", rundir);
    ck_assert_int_eq(unixctl_client_create(path, &rpc), ENOENT);
    ck_assert_ptr_null(rpc);
    free(path);
}
END_TEST

START_TEST(test_default_path)
{
    char *expected = xasprintf("%s/%s.%ld.ctl", rundir, program_name,
                               (long int) getpid());
    ck_assert_str_eq(unixctl_server_get_path(server), expected);
    struct stat s;
    ck_assert_int_eq(stat(expected, &s), 0);
    ck_assert(S_ISSOCK(s.st_mode));

    /* Destroying the server removes its socket. */
    unixctl_server_destroy(server);
    server = NULL;
    ck_assert_int_eq(stat(expected, &s), -1);
    ck_assert_int_eq(errno, ENOENT);
    free(expected);
}
END_TEST

START_TEST(test_explicit_paths)
{
    /* A relative name lives in the run directory. */
    struct unixctl_server *other;
    ck_assert_int_eq(unixctl_server_create("other.ctl", &other), 0);
    char *expected = xasprintf("%s/other.ctl", rundir);
    ck_assert_str_eq(unixctl_server_get_path(other), expected);
    ck_assert_int_eq(access(expected, F_OK), 0);
    unixctl_server_destroy(other);
    ck_assert_int_eq(access(expected, F_OK), -1);
    free(expected);

    /* "none" means no server at all. */
    ck_assert_int_eq(unixctl_server_create("none", &other), 0);
    ck_assert_ptr_null(other);
    ck_assert_ptr_null(unixctl_server_get_path(other));
    unixctl_server_run(other);
    unixctl_server_wait(other);
    unixctl_server_destroy(other);

    /* A directory that does not exist is an error, not a crash. */
    ck_assert_int_ne(unixctl_server_create("/nonexistent/dir/x.ctl", &other),
                     0);
    ck_assert_ptr_null(other);
}
END_TEST

static Suite *
unixctl_suite(void)
{
    Suite *s = suite_create("unixctl");

    TCase *tc = tcase_create("commands");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_command_gets_arguments);
    tcase_add_test(tc, test_empty_reply);
    tcase_add_test(tc, test_error_reply);
    tcase_add_test(tc, test_reregister_replaces);
    tcase_add_test(tc, test_list_commands);
    tcase_add_test(tc, test_version);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_unknown_command);
    tcase_add_test(tc, test_argument_count);
    tcase_add_test(tc, test_non_string_argument);
    tcase_add_test(tc, test_client_without_server);
    suite_add_tcase(s, tc);

    tc = tcase_create("deferred");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_deferred_reply);
    tcase_add_test(tc, test_deferred_reply_after_hangup);
    tcase_add_test(tc, test_deferred_reply_pending_at_destroy);
    suite_add_tcase(s, tc);

    tc = tcase_create("concurrency");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_many_clients);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);

    tc = tcase_create("paths");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_default_path);
    tcase_add_test(tc, test_explicit_paths);
    suite_add_tcase(s, tc);

    return s;
}

int
main(int argc OVS_UNUSED, char *argv[])
{
    set_program_name(argv[0]);
    if (!mkdtemp(rundir)) {
        ovs_fatal(errno, "mkdtemp failed");
    }
    setenv("OVS_RUNDIR", rundir, 1);

    SRunner *sr = srunner_create(unixctl_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);

    rmdir(rundir);
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
