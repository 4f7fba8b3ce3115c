/* ovs-appctl: sends one command to a running daemon's control socket and
 * prints the answer.
 *
 * Exit status: 0 when the command succeeded, 2 when the daemon answered with
 * an error (the error text goes to stderr), 1 when the daemon could not be
 * reached at all (no pid file, nobody listening, connection lost).  With
 * --timeout, a daemon that does not answer in time ends the program the way
 * SIGALRM does (status 142 in a shell), after saying so on stderr.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command-line.h"
#include "daemon.h"
#include "dirs.h"
#include "jsonrpc.h"
#include "poll-loop.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

static noreturn void usage(void);

/* The --timeout value, for the alarm handler's message. */
static unsigned int timeout_secs;

static void
alarm_handler(int sig_nr)
{
    /* Only async-signal-safe calls here: format by hand, write(), raise. */
    char msg[128];
    int n = snprintf(msg, sizeof msg, "%s: timeout after %u seconds\n",
                     program_name, timeout_secs);
    if (n > 0) {
        ssize_t retval OVS_UNUSED = write(STDERR_FILENO, msg,
                                          MIN((size_t) n, sizeof msg - 1));
    }
    signal(sig_nr, SIG_DFL);
    raise(sig_nr);
}

static void
set_timeout(unsigned int secs)
{
    timeout_secs = secs;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = alarm_handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    alarm(secs);
}

static const char *
parse_command_line(int argc, char *argv[])
{
    enum {
        OPT_START = UCHAR_MAX + 1,
        VLOG_OPTION_ENUMS
    };
    static const struct option long_options[] = {
        {"target", required_argument, NULL, 't'},
        {"execute", no_argument, NULL, 'e'},
        {"help", no_argument, NULL, 'h'},
        {"option", no_argument, NULL, 'o'},
        {"version", no_argument, NULL, 'V'},
        {"timeout", required_argument, NULL, 'T'},
        VLOG_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    /* "+": options end at the command name, so the command's own arguments
     * may start with "-" ("ovs-appctl dpctl/dump-flows -m"). */
    char *options = ovs_cmdl_long_options_to_short_options(long_options);
    char *short_options = xasprintf("+%s", options);
    free(options);
    const char *target = NULL;
    bool e_given = false;

    for (;;) {
        int c = getopt_long(argc, argv, short_options, long_options, NULL);
        if (c == -1) {
            break;
        }

        switch (c) {
        case 't':
            if (target) {
                ovs_fatal(0, "-t or --target may be specified only once");
            }
            target = optarg;
            break;

        case 'e':
            /* Compatibility with old ovs-appctl: "-e COMMAND" is now just
             * "COMMAND". */
            if (e_given) {
                ovs_fatal(0, "-e or --execute may be specified only once");
            }
            e_given = true;
            break;

        case 'T': {
            unsigned int secs;
            if (!str_to_uint(optarg, 10, &secs) || !secs) {
                ovs_fatal(0, "value %s on -T or --timeout is invalid", optarg);
            }
            set_timeout(secs);
            break;
        }

        case 'h':
            free(short_options);
            usage();

        case 'o':
            ovs_cmdl_print_options(long_options);
            free(short_options);
            exit(EXIT_SUCCESS);

        case 'V':
            ovs_print_version();
            free(short_options);
            exit(EXIT_SUCCESS);

        VLOG_OPTION_HANDLERS

        case '?':
            exit(EXIT_FAILURE);

        default:
            abort();
        }
    }
    free(short_options);

    if (optind >= argc) {
        ovs_fatal(0, "at least one non-option argument is required "
                  "(use --help for help)");
    }
    return target ? target : "ovs-vswitchd";
}

static noreturn void
usage(void)
{
    printf("%s, for querying and controlling Open vSwitch daemons\n"
           "usage: %s [TARGET] COMMAND [ARG...]\n"
           "\n"
           "Targets:\n"
           "  -t, --target=TARGET  daemon to contact (default: ovs-vswitchd):\n"
           "                       a program name NAME, meaning the daemon\n"
           "                       whose pid file is %s/NAME.pid;\n"
           "                       a FILE.pid pid file; or the control\n"
           "                       socket itself (a name ending in .ctl or\n"
           "                       containing a slash)\n"
           "\n"
           "Commands every daemon understands:\n"
           "  list-commands      list the target's commands\n"
           "  version            print the target's version\n"
           "  vlog/list          show the logging levels\n"
           "  vlog/list-pattern  show the log line formats\n"
           "  vlog/set [SPEC]    change logging levels; SPEC is made of:\n"
           "      a module name (see vlog/list), or omitted for all;\n"
           "      a destination: console, syslog, file, or omitted for all;\n"
           "      a level: off, emer, err, warn, info, dbg (default dbg)\n"
           "  vlog/set PATTERN:DESTINATION:PATTERN\n"
           "                     set the log line format of DESTINATION\n"
           "  vlog/reopen        reopen the log file (after log rotation)\n"
           "\n"
           "Other options:\n"
           "  -T, --timeout=SECS give up after SECS seconds\n"
           "  -h, --help         print this help\n"
           "  -V, --version      print the version of %s\n"
           "\n"
           "Exit status: 0 on success, 2 if the command failed, 1 if the\n"
           "target could not be reached.\n",
           program_name, program_name, ovs_rundir(), program_name);
    exit(EXIT_SUCCESS);
}

/* Finds the control socket of the process whose pid file is PIDFILE_NAME.
 * The socket is named after the program, which a custom pid file name does
 * not tell, so: <rundir>/<stem>.<pid>.ctl if it exists (the usual case),
 * else any "*.<pid>.ctl" in the run directory or the pid file's directory. */
static char *
socket_from_pidfile(const char *pidfile_name, const char *stem)
{
    pid_t pid = read_pidfile(pidfile_name);
    if (pid < 0) {
        ovs_fatal(-pid, "cannot read pidfile \"%s\"", pidfile_name);
    }

    char *socket_name = xasprintf("%s/%s.%ld.ctl",
                                  ovs_rundir(), stem, (long int) pid);
    if (!access(socket_name, F_OK)) {
        return socket_name;
    }

    char *suffix = xasprintf(".%ld.ctl", (long int) pid);
    char *pidfile_dir = dir_name(pidfile_name);
    const char *dirs[] = { ovs_rundir(), pidfile_dir };
    char *found = NULL;
    for (size_t i = 0; i < ARRAY_SIZE(dirs) && !found; i++) {
        DIR *dir = opendir(dirs[i]);
        if (!dir) {
            continue;
        }
        struct dirent *de;
        while ((de = readdir(dir)) != NULL) {
            if (string_ends_with(de->d_name, suffix)
                && strlen(de->d_name) > strlen(suffix)) {
                found = xasprintf("%s/%s", dirs[i], de->d_name);
                break;
            }
        }
        closedir(dir);
    }
    free(suffix);
    free(pidfile_dir);

    if (found) {
        free(socket_name);
        return found;
    }
    /* Report the conventional name; connecting to it will explain. */
    return socket_name;
}

static char *
target_to_socket(const char *target)
{
    if (string_ends_with(target, ".pid")) {
        char *base = base_name(target);
        base[strlen(base) - strlen(".pid")] = '\0';
        char *socket_name = socket_from_pidfile(target, base);
        free(base);
        return socket_name;
    } else if (strchr(target, '/') || string_ends_with(target, ".ctl")) {
        return xstrdup(target);
    } else {
        char *pidfile_name = xasprintf("%s/%s.pid", ovs_rundir(), target);
        char *socket_name = socket_from_pidfile(pidfile_name, target);
        free(pidfile_name);
        return socket_name;
    }
}

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    /* Problems are reported by this program itself; only the rare warning
     * from the library (an unexpected reply, say) belongs on the console. */
    vlog_set_levels(NULL, VLF_CONSOLE, VLL_WARN);
    signal(SIGPIPE, SIG_IGN);

    unsigned int env_timeout = ovs_cmdl_env_timeout();
    if (env_timeout) {
        set_timeout(env_timeout);
    }
    const char *target = parse_command_line(argc, argv);
    char *socket_name = target_to_socket(target);

    struct jsonrpc *client;
    int error = unixctl_client_create(socket_name, &client);
    if (error) {
        ovs_fatal(error, "cannot connect to \"%s\"", socket_name);
    }

    const char *command = argv[optind];
    char *result, *cmd_error;
    error = unixctl_client_transact(client, command,
                                    argc - optind - 1, argv + optind + 1,
                                    &result, &cmd_error);
    jsonrpc_close(client);
    /* Lets libevent finish freeing the closed connection. */
    poll_loop_destroy_self();
    if (error) {
        ovs_fatal(error, "%s: transaction error", target);
    }

    int status = EXIT_SUCCESS;
    if (cmd_error) {
        fputs(cmd_error, stderr);
        ovs_error(0, "%s: server returned an error", target);
        status = 2;
    } else if (result) {
        fputs(result, stdout);
    }
    free(result);
    free(cmd_error);
    free(socket_name);
    return status;
}
