/* ovs-vswitchd: the switch daemon.
 *
 * It connects to the database named on the command line, holds its
 * "ovs_vswitchd" lock, and keeps bridges, ports and interfaces in step with
 * it (bridge.c), reporting their state back.  It serves its control socket
 * (ovs-appctl: list-commands, version, the vlog, coverage and time
 * commands, exit).  Forwarding packets arrives with the datapath; this
 * file is where each part plugs into the main loop.
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
#include "dpctl.h"
#include "dpif.h"
#include "upcall-sink.h"
#include "dirs.h"
#include "fatal-signal.h"
#include "dynamic-string.h"
#include "netdev.h"
#include "ofproto.h"
#include "ovs-rcu.h"
#include "ovs-router.h"
#include "route-table.h"
#include "poll-loop.h"
#include "timeval.h"
#include "tnl-header.h"
#include "tnl-neigh-cache.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"
#include "bridge.h"

VLOG_DEFINE_THIS_MODULE(vswitchd);

static noreturn void usage(void);

/* Set by the "exit" command; the main loop then winds down. */
static bool exiting;
/* "exit --cleanup": also remove the devices the switch created. */
static bool cleanup;

static void
exit_cb(struct unixctl_conn *conn, int argc, const char *argv[],
        void *aux OVS_UNUSED)
{
    if (argc > 1 && strcmp(argv[1], "--cleanup")) {
        unixctl_command_reply_error(conn, "unknown option");
        return;
    }
    cleanup = argc > 1;
    exiting = true;
    unixctl_command_reply(conn, NULL);
}

static void
memory_show_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
               const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    ofproto_get_memory_usage(&s);
    ds_put_char(&s, '\n');
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

/* Returns the database name (newly allocated); stores --unixctl's value in
 * *UNIXCTL_PATHP (newly allocated, or NULL). */
static char *
parse_options(int argc, char *argv[], char **unixctl_pathp)
{
    enum {
        OPT_UNIXCTL = UCHAR_MAX + 1,
        OPT_ENABLE_DUMMY,
        OPT_DISABLE_SYSTEM,
        OPT_DISABLE_SYSTEM_ROUTE,
        DAEMON_OPTION_ENUMS,
        VLOG_OPTION_ENUMS
    };
    static const struct option long_options[] = {
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {"unixctl", required_argument, NULL, OPT_UNIXCTL},
        {"enable-dummy", optional_argument, NULL, OPT_ENABLE_DUMMY},
        {"disable-system", no_argument, NULL, OPT_DISABLE_SYSTEM},
        {"disable-system-route", no_argument, NULL, OPT_DISABLE_SYSTEM_ROUTE},
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

        case OPT_ENABLE_DUMMY:
            if (!optarg) {
                netdev_enable_dummy(NETDEV_DUMMY_ADD);
            } else if (!strcmp(optarg, "system")) {
                netdev_enable_dummy(NETDEV_DUMMY_SYSTEM);
            } else if (!strcmp(optarg, "override")) {
                netdev_enable_dummy(NETDEV_DUMMY_OVERRIDE);
            } else {
                ovs_fatal(0, "--enable-dummy: unknown argument \"%s\" "
                          "(\"system\" or \"override\" accepted)", optarg);
            }
            dpif_enable_dummy(optarg != NULL);
            break;

        case OPT_DISABLE_SYSTEM:
            /* Open vSwitch's way of keeping its kernel datapath out of a
             * run; every bridge here is on the userspace datapath
             * already, so scripts written for it work unchanged. */
            break;

        case OPT_DISABLE_SYSTEM_ROUTE:
            /* Keeps the kernel's routing table out of native tunneling's
             * (only ovs/route/add routes count), for tests. */
            ovs_router_disable_system_routing_table();
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
           "Bridges, ports and interfaces come from the database; every\n"
           "bridge switches on the userspace datapath and speaks OpenFlow\n"
           "on RUNDIR/BRIDGE.mgmt and to its controllers.\n",
           program_name, program_name, ovs_rundir());
    daemon_usage();
    vlog_usage();
    printf("\nOther options:\n"
           "  --unixctl=SOCKET        override default control socket name\n"
           "  --enable-dummy[=system|override]\n"
           "                          allow \"dummy\" interfaces and the\n"
           "                          \"dummy\" datapath type (for tests);\n"
           "                          with system, \"system\" interfaces\n"
           "                          are dummies, with override every one\n"
           "  --disable-system        accepted for compatibility (there is\n"
           "                          no kernel datapath to disable)\n"
           "  --disable-system-route  keep the kernel's routes out of native\n"
           "                          tunneling's routing table\n"
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
    /* Datapaths made with dpctl/add-dp live in this process (the bridges
     * get theirs with ofproto). */
    dpctl_unixctl_register();
    upcall_sink_register_commands();
    unixctl_command_register("memory/show", "", 0, 0, memory_show_cb, NULL);
    /* Native tunneling's routing table and neighbour cache. */
    ovs_router_init();
    route_table_init();
    tnl_neigh_cache_init();
    tnl_header_init();
    ofproto_init();

    vlog_log_start_banner(THIS_MODULE);
    bridge_init(remote);

    daemonize_complete();

    /* Nothing here schedules a timer: an idle daemon sleeps until a client,
     * a signal or a time/warp needs it. */
    while (!exiting) {
        fatal_signal_run();
        bridge_run();
        netdev_run();
        dpctl_run();
        tnl_neigh_cache_run();
        route_table_run();
        unixctl_server_run(unixctl);
        timeval_run();
        coverage_run();

        fatal_signal_wait();
        bridge_wait();
        netdev_wait();
        tnl_neigh_cache_wait();
        route_table_wait();
        unixctl_server_wait(unixctl);
        timeval_wait();
        if (exiting) {
            poll_immediate_wake();
        }
        /* Offline while asleep: handler and revalidator threads need not
         * wait for us to free what the tables no longer hold. */
        ovsrcu_quiesce_start();
        poll_block();
        ovsrcu_quiesce_end();
    }

    ofproto_exit();
    upcall_sink_exit();
    dpctl_exit();
    bridge_exit(cleanup);
    ovsrcu_synchronize();
    unixctl_server_destroy(unixctl);
    /* Lets libevent finish freeing the closed connections. */
    poll_loop_destroy_self();
    free(unixctl_path);
    free(remote);
    return 0;
}
