/* command-line: see command-line.h. */
#include <config.h>
#include "command-line.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(command_line);

char *
ovs_cmdl_long_options_to_short_options(const struct option *options)
{
    size_t n = 0;
    for (const struct option *o = options; o->name; o++) {
        n++;
    }

    /* At most three characters per option ("x::") plus the terminator. */
    char *short_options = xmalloc(3 * n + 1);
    char *p = short_options;
    for (const struct option *o = options; o->name; o++) {
        /* Only options that report a character through 'val' (not through
         * 'flag') have a short form. */
        if (!o->flag && o->val > 0 && o->val <= UCHAR_MAX
            && isalnum(o->val)) {
            *p++ = o->val;
            if (o->has_arg == required_argument) {
                *p++ = ':';
            } else if (o->has_arg == optional_argument) {
                *p++ = ':';
                *p++ = ':';
            }
        }
    }
    *p = '\0';
    return short_options;
}

void
ovs_cmdl_print_options(const struct option *options)
{
    for (const struct option *o = options; o->name; o++) {
        const char *arg = (o->has_arg == required_argument ? "=ARG"
                           : o->has_arg == optional_argument ? "[=ARG]"
                           : "");
        printf("--%s%s\n", o->name, arg);
        if (!o->flag && o->val > 0 && o->val <= UCHAR_MAX
            && isalnum(o->val)) {
            printf("-%c%s\n", o->val,
                   o->has_arg == no_argument ? "" : " ARG");
        }
    }
}

void
ovs_cmdl_run_command(struct ovs_cmdl_context *ctx,
                     const struct ovs_cmdl_command commands[])
{
    if (ctx->argc < 1) {
        ovs_fatal(0, "missing command name; use --help for help");
    }

    const char *name = ctx->argv[0];
    for (const struct ovs_cmdl_command *c = commands; c->name; c++) {
        if (!strcmp(c->name, name)) {
            int n_arg = ctx->argc - 1;
            if (n_arg < c->min_args) {
                ovs_fatal(0, "'%s' command requires at least %d arguments",
                          name, c->min_args);
            } else if (n_arg > c->max_args) {
                ovs_fatal(0, "'%s' command takes at most %d arguments",
                          name, c->max_args);
            }
            c->handler(ctx);
            return;
        }
    }
    ovs_fatal(0, "unknown command '%s'; use --help for help", name);
}

void
ovs_cmdl_print_commands(const struct ovs_cmdl_command commands[])
{
    for (const struct ovs_cmdl_command *c = commands; c->name; c++) {
        if (c->usage && c->usage[0]) {
            printf("%s %s\n", c->name, c->usage);
        } else {
            printf("%s\n", c->name);
        }
    }
}

unsigned int
ovs_cmdl_env_timeout(void)
{
    const char *s = getenv("OVS_CTL_TIMEOUT");
    unsigned int secs;
    return s && *s && str_to_uint(s, 10, &secs) ? secs : 0;
}
