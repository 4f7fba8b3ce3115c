/* ovs-dpctl: administers the datapaths.
 *
 * Open vSwitch's ovs-dpctl talks to the kernel datapath.  Ours has none:
 * datapaths live in the daemon that holds them (ovs-vswitchd), so this
 * tool is a thin client of that daemon's "dpctl/..." control commands
 * (lib/dpctl.h): "ovs-dpctl show -s" sends "dpctl/show -s" to
 * ovs-vswitchd's control socket and prints the answer, exactly as
 * "ovs-appctl dpctl/show -s" would.  --target (-t) names another daemon,
 * as ovs-appctl's does. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "command-line.h"
#include "daemon.h"
#include "dirs.h"
#include "jsonrpc.h"
#include "poll-loop.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

static noreturn void
usage(void)
{
    printf("%s: Open vSwitch datapath management utility\n"
           "usage: %s [OPTIONS] COMMAND [ARG...]\n"
           "  add-dp DP [IFACE...]     add new datapath DP (with IFACEs)\n"
           "  del-dp DP                delete local datapath DP\n"
           "  add-if DP IFACE...       add each IFACE as a port on DP\n"
           "  del-if DP IFACE...       delete each IFACE from DP\n"
           "  show                     show basic info on all datapaths\n"
           "  show DP...               show basic info on each DP\n"
           "  dump-flows [DP]          display flows in DP\n"
           "  add-flow [DP] FLOW ACTIONS add FLOW with ACTIONS to DP\n"
           "  mod-flow [DP] FLOW ACTIONS change FLOW actions to ACTIONS in DP\n"
           "  get-flow [DP] FLOW       fetch FLOW from DP\n"
           "  del-flow [DP] FLOW       delete FLOW from DP\n"
           "  del-flows [DP]           delete all flows from DP\n"
           "  set-rx-threads DP N      use N receive threads in DP\n"
           "Each IFACE on add-dp, add-if may be followed by comma-separated\n"
           "options (type=TYPE, port_no=N, pcap=FILE, ...).\n"
           "\nOptions:\n"
           "  -s, --statistics         print statistics for port or flow\n"
           "  -m, --more               increase verbosity of output\n"
           "  --clear                  reset existing stats to zero\n"
           "  --may-create             create flow if it doesn't exist\n"
           "  -t, --target=TARGET      daemon holding the datapaths\n"
           "                           (default: ovs-vswitchd)\n"
           "  -h, --help               display this help message\n"
           "  -V, --version            display version information\n",
           program_name, program_name);
    exit(EXIT_SUCCESS);
}

/* The control socket of TARGET: a path, or a program whose pid file is in
 * the run directory. */
static char *
target_socket(const char *target)
{
    if (strchr(target, '/')) {
        return xstrdup(target);
    }
    char *pidfile = xasprintf("%s/%s.pid", ovs_rundir(), target);
    pid_t pid = read_pidfile(pidfile);
    if (pid < 0) {
        ovs_fatal(-pid, "cannot read pidfile \"%s\" (is %s running?)",
                  pidfile, target);
    }
    free(pidfile);
    return xasprintf("%s/%s.%ld.ctl", ovs_rundir(), target, (long int) pid);
}

/* The program name a reply from TARGET's daemon starts its errors with
 * (the daemon's, as 3.1's daemons do it): TARGET itself, or the program of
 * a control socket path "DIR/PROGRAM.PID.ctl". */
static char *
target_program(const char *target)
{
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    return xmemdup0(base, slash ? strcspn(base, ".") : strlen(base));
}

int
main(int argc, char *argv[])
{
    static const struct option long_options[] = {
        {"statistics", no_argument, NULL, 's'},
        {"more", no_argument, NULL, 'm'},
        {"clear", no_argument, NULL, 'c'},
        {"may-create", no_argument, NULL, 'C'},
        {"target", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    const char *target = "ovs-vswitchd";
    /* Options are passed on to the daemon, in front of the arguments. */
    char **args = xcalloc(argc + 4, sizeof *args);
    int n_args = 0;

    set_program_name(argv[0]);
    vlog_set_levels(NULL, VLF_CONSOLE, VLL_WARN);
    signal(SIGPIPE, SIG_IGN);

    for (;;) {
        int c = getopt_long(argc, argv, "+smt:hV", long_options, NULL);
        if (c == -1) {
            break;
        }
        switch (c) {
        case 's':
            args[n_args++] = "-s";
            break;
        case 'm':
            args[n_args++] = "-m";
            break;
        case 'c':
            args[n_args++] = "--clear";
            break;
        case 'C':
            args[n_args++] = "--may-create";
            break;
        case 't':
            target = optarg;
            break;
        case 'h':
            usage();
        case 'V':
            ovs_print_version();
            exit(EXIT_SUCCESS);
        default:
            exit(EXIT_FAILURE);
        }
    }
    if (optind >= argc) {
        ovs_fatal(0, "missing command name; use --help for help");
    }
    char *command = xasprintf("dpctl/%s", argv[optind]);
    for (int i = optind + 1; i < argc; i++) {
        args[n_args++] = argv[i];
    }

    char *socket_name = target_socket(target);
    struct jsonrpc *client;
    int error = unixctl_client_create(socket_name, &client);
    if (error) {
        ovs_fatal(error, "cannot connect to \"%s\"", socket_name);
    }
    char *result, *cmd_error;
    error = unixctl_client_transact(client, command, n_args, args,
                                    &result, &cmd_error);
    jsonrpc_close(client);
    poll_loop_destroy_self();
    if (error) {
        ovs_fatal(error, "%s: transaction error", socket_name);
    }

    int status = EXIT_SUCCESS;
    if (cmd_error) {
        /* The error is this program's to report, as 3.1's ovs-dpctl, which
         * does the work itself, does: under this program's name. */
        char *daemon = target_program(target);
        const char *msg = cmd_error;
        size_t n = strlen(daemon);
        if (!strncmp(msg, daemon, n) && !strncmp(msg + n, ": ", 2)) {
            msg += n + 2;
        }
        fprintf(stderr, "%s: %s", program_name, msg);
        free(daemon);
        status = EXIT_FAILURE;
    } else if (result) {
        fputs(result, stdout);
    }
    free(result);
    free(cmd_error);
    free(socket_name);
    free(command);
    free(args);
    return status;
}
