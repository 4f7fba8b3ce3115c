/* ovs-vswitchd: the switch daemon.
 *
 * At this stage of the project the daemon is only its skeleton: it
 * daemonizes, serves its control socket (ovs-appctl: list-commands,
 * version, the vlog, coverage and time commands, exit) and sleeps until
 * asked for something.
 * Later versions connect to the database named on the command line, build
 * bridges from it and forward packets; this file is where they plug into
 * the main loop.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command-line.h"
#include "coverage.h"
#include "daemon.h"
#include "dirs.h"
#include "fatal-signal.h"
#include "poll-loop.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(vswitchd);

static noreturn void usage(void);

/* Set by the "exit" command; the main loop then winds down. */
static bool exiting;

static void
exit_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
        const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    /* "--cleanup" matters once there is datapath state to remove; with
     * none yet, both forms simply exit. */
    exiting = true;
    unixctl_command_reply(conn, NULL);
}

/* Returns the database name (newly allocated); stores --unixctl's value in
 * *UNIXCTL_PATHP (newly allocated, or NULL). */
static char *
parse_options(int argc, char *argv[], char **unixctl_pathp)
{
    enum {
        OPT_UNIXCTL = UCHAR_MAX + 1,
        DAEMON_OPTION_ENUMS,
        VLOG_OPTION_ENUMS
    };
    static const struct option long_options[] = {
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {"unixctl", required_argument, NULL, OPT_UNIXCTL},
        DAEMON_LONG_OPTIONS,
        VLOG_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    char *short_options = ovs_cmdl_long_options_to_short_options(long_options);

    *unixctl_pathp = NULL;
    for (;;) {
        int c = getopt_long(argc, argv, short_options, long_options, NULL);
        if (c == -1) {
            break;
        }

        switch (c) {
        case 'h':
            free(short_options);
            usage();

        case 'V':
            ovs_print_version();
            free(short_options);
            exit(EXIT_SUCCESS);

        case OPT_UNIXCTL:
            free(*unixctl_pathp);
            *unixctl_pathp = xstrdup(optarg);
            break;

        DAEMON_OPTION_HANDLERS
        VLOG_OPTION_HANDLERS

        case '?':
            exit(EXIT_FAILURE);

        default:
            abort();
        }
    }
    free(short_options);

    argc -= optind;
    argv += optind;
    switch (argc) {
    case 0:
        return xasprintf("unix:%s/db.sock", ovs_rundir());
    case 1:
        return xstrdup(argv[0]);
    default:
        ovs_fatal(0, "at most one non-option argument accepted; "
                  "use --help for usage");
    }
}

static noreturn void
usage(void)
{
    printf("%s: Open vSwitch daemon\n"
           "usage: %s [OPTIONS] [DATABASE]\n"
           "where DATABASE is a socket on which ovsdb-server is listening\n"
           "      (default: \"unix:%s/db.sock\").\n"
           "\n"
           "This version only runs the daemon's framework (control socket,\n"
           "logging, counters); connecting to the database and switching\n"
           "packets arrive with later versions.\n",
           program_name, program_name, ovs_rundir());
    daemon_usage();
    vlog_usage();
    printf("\nOther options:\n"
           "  --unixctl=SOCKET        override default control socket name\n"
           "  -h, --help              display this help message\n"
           "  -V, --version           display version information\n");
    exit(EXIT_SUCCESS);
}

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);

    char *unixctl_path;
    char *remote = parse_options(argc, argv, &unixctl_path);
    fatal_ignore_sigpipe();

    daemonize_start();

    struct unixctl_server *unixctl;
    int error = unixctl_server_create(unixctl_path, &unixctl);
    if (error) {
        exit(EXIT_FAILURE);
    }
    unixctl_command_register("exit", "[--cleanup]", 0, 1, exit_cb, NULL);

    VLOG_INFO("%s (Open vSwitch NG) %s", program_name, ovs_version_string());
    VLOG_INFO("database %s: not connecting, the database connection arrives "
              "with a later version", remote);

    daemonize_complete();

    /* Nothing here schedules a timer: an idle daemon sleeps until a client,
     * a signal or a time/warp needs it. */
    while (!exiting) {
        fatal_signal_run();
        unixctl_server_run(unixctl);
        timeval_run();
        coverage_run();

        fatal_signal_wait();
        unixctl_server_wait(unixctl);
        timeval_wait();
        if (exiting) {
            poll_immediate_wake();
        }
        poll_block();
    }

    unixctl_server_destroy(unixctl);
    /* Lets libevent finish freeing the closed connections. */
    poll_loop_destroy_self();
    free(unixctl_path);
    free(remote);
    return 0;
}
