/* command-line: small helpers for getopt_long() based programs.
 *
 * ovs_cmdl_long_options_to_short_options() derives getopt_long()'s short
 * option string from the long option table, so each option is written once:
 * an entry whose 'val' is a printable character also becomes a short option,
 * with ':' or '::' appended for a required or optional argument.
 *
 * Tools with subcommands ("ovs-foo show BRIDGE") describe them in a table of
 * struct ovs_cmdl_command terminated by an entry with a NULL name, and let
 * ovs_cmdl_run_command() find the command, check its argument count and call
 * it.  Error messages follow Open vSwitch's wording.
 */
#ifndef COMMAND_LINE_H
#define COMMAND_LINE_H 1

#include <getopt.h>

/* Returns a newly allocated short option string for OPTIONS (terminated by an
 * entry with a NULL name); the caller frees it. */
char *ovs_cmdl_long_options_to_short_options(const struct option *options);

/* Prints every option in OPTIONS, one per line, as "--name" or "-c" (with
 * "=ARG" / "[=ARG]" for options that take one): what "--options" prints, for
 * shell completion. */
void ovs_cmdl_print_options(const struct option *options);

/* The seconds in the environment variable OVS_CTL_TIMEOUT (0 if it is
 * unset or not a number): how long ovs-vsctl, ovs-appctl, ovs-ofctl and
 * ovsdb-client wait at most when no --timeout option says, as 3.1's tools
 * do (Open vSwitch's test suite sets it, so that a test that waits for what
 * never happens fails instead of hanging).  Each tool arms its alarm with
 * it before reading its options, and a --timeout option re-arms it. */
unsigned int ovs_cmdl_env_timeout(void);

/* What a subcommand handler receives: ARGV[0] is the command name. */
struct ovs_cmdl_context {
    int argc;
    char **argv;
    void *pvt;          /* Caller's data, passed through untouched. */
};

struct ovs_cmdl_command {
    const char *name;   /* NULL ends the table. */
    const char *usage;  /* Argument synopsis for help output, may be NULL. */
    int min_args;
    int max_args;
    void (*handler)(struct ovs_cmdl_context *);
};

/* Runs the command CTX->argv[0] from COMMANDS.  An unknown command or a wrong
 * argument count is fatal (ovs_fatal() with the usual messages). */
void ovs_cmdl_run_command(struct ovs_cmdl_context *ctx,
                          const struct ovs_cmdl_command commands[]);
/* Prints the names of COMMANDS, one per line, with their usage. */
void ovs_cmdl_print_commands(const struct ovs_cmdl_command commands[]);

#endif /* command-line.h */
