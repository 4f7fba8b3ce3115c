/* vsctl-parse: splits ovs-vsctl's command line into commands.
 *
 * Commands are separated by "--".  Each may start with its own options
 * ("--if-exists", "--id=@name" ...), which must be among those its entry in
 * the command table lists.  Options given before the first command that are
 * not global options (main() collects them in LOCAL_OPTIONS) belong to the
 * first command. */

#include <config.h>

#include <stdlib.h>
#include <string.h>
#include "vsctl.h"

static void
check_options(const struct vsctl_command_syntax *syntax,
              const struct shash *options, const char *command_name)
{
    struct shash_node *node;

    SHASH_FOR_EACH (node, options) {
        /* Find NAME as a whole entry in the comma-separated list. */
        const char *list = syntax->options;
        size_t len = strlen(node->name);
        const char *p = list;
        int end = -1;

        while (p && *p) {
            const char *s = strstr(p, node->name);
            if (!s) {
                break;
            }
            if ((s == list || s[-1] == ',')
                && (s[len] == '\0' || s[len] == ',' || s[len] == '=')) {
                end = s[len];
                break;
            }
            p = s + 1;
        }
        if (end < 0) {
            vsctl_fatal("'%s' command has no '%s' option",
                        command_name, node->name);
        }
        if ((end == '=') != (node->data != NULL)) {
            if (end == '=') {
                vsctl_fatal("missing argument to '%s' option on '%s' "
                            "command", node->name, command_name);
            } else {
                vsctl_fatal("'%s' option on '%s' does not accept an "
                            "argument", node->name, command_name);
            }
        }
    }
}

static void
parse_command(int argc, char *argv[], struct shash *local_options,
              struct vsctl_command *command)
{
    const struct vsctl_command_syntax *syntax;
    int i;

    shash_init(&command->options);
    shash_swap(local_options, &command->options);
    for (i = 0; i < argc; i++) {
        const char *option = argv[i];
        const char *equals;
        char *key, *value;

        if (option[0] != '-') {
            break;
        }
        equals = strchr(option, '=');
        if (equals) {
            key = xmemdup0(option, equals - option);
            value = xstrdup(equals + 1);
        } else {
            key = xstrdup(option);
            value = NULL;
        }
        if (shash_find(&command->options, key)) {
            vsctl_fatal("'%s' option specified multiple times", argv[i]);
        }
        shash_add_nocopy(&command->options, key, value);
    }
    if (i == argc) {
        vsctl_fatal("missing command name (use --help for help)");
    }

    syntax = vsctl_find_command(argv[i]);
    if (!syntax) {
        vsctl_fatal("unknown command '%s'; use --help for help", argv[i]);
    }
    check_options(syntax, &command->options, argv[i]);

    int n_args = argc - i - 1;
    if (n_args < syntax->min_args) {
        vsctl_fatal("'%s' command requires at least %d arguments",
                    syntax->name, syntax->min_args);
    } else if (n_args > syntax->max_args) {
        for (int j = i + 1; j < argc; j++) {
            if (argv[j][0] == '-') {
                vsctl_fatal("'%s' command takes at most %d arguments "
                            "(note that options must precede command "
                            "names and follow a \"--\" argument)",
                            syntax->name, syntax->max_args);
            }
        }
        vsctl_fatal("'%s' command takes at most %d arguments",
                    syntax->name, syntax->max_args);
    }

    command->syntax = syntax;
    command->argc = n_args + 1;
    command->argv = &argv[i];
    ds_init(&command->output);
    command->table = NULL;
}

struct vsctl_command *
vsctl_parse_commands(int argc, char *argv[], struct shash *local_options,
                     size_t *n_commandsp)
{
    struct vsctl_command *commands;
    size_t n_commands = 0, max_commands = 1;
    int start = 0;

    /* Allocated once: a command's shash must not move. */
    for (int i = 0; i < argc; i++) {
        max_commands += !strcmp(argv[i], "--");
    }
    commands = xcalloc(max_commands, sizeof *commands);

    for (int i = 0; i <= argc; i++) {
        if (i == argc || !strcmp(argv[i], "--")) {
            if (i > start) {
                parse_command(i - start, &argv[start], local_options,
                              &commands[n_commands++]);
            } else if (i == argc && !shash_is_empty(local_options)) {
                vsctl_fatal("missing command name (use --help for help)");
            }
            start = i + 1;
        }
    }
    if (!n_commands) {
        vsctl_fatal("missing command name (use --help for help)");
    }
    *n_commandsp = n_commands;
    return commands;
}

void
vsctl_command_destroy(struct vsctl_command *command)
{
    shash_destroy_free_data(&command->options);
    ds_destroy(&command->output);
}
