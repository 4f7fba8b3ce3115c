/* ovstest's main(): runs the registered driver that argv[1] names. */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include "ovstest.h"
#include "util.h"

#define OVSTEST_MAX_COMMANDS 32

struct ovstest_command {
    const char *name;
    ovstest_func *func;
};

static struct ovstest_command commands[OVSTEST_MAX_COMMANDS];
static size_t n_commands;

void
ovstest_register(const char *name, ovstest_func *func)
{
    /* Constructors run before main(): too many is a build mistake. */
    ovs_assert(n_commands < OVSTEST_MAX_COMMANDS);
    commands[n_commands++] = (struct ovstest_command) { name, func };
}

static void
usage(FILE *stream)
{
    fprintf(stream, "usage: ovstest COMMAND [ARG...]\ncommands:\n");
    for (size_t i = 0; i < n_commands; i++) {
        fprintf(stream, "  %s\n", commands[i].name);
    }
}

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    if (argc < 2) {
        usage(stderr);
        return 1;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < n_commands; i++) {
        if (!strcmp(argv[1], commands[i].name)) {
            return commands[i].func(argc - 1, argv + 1);
        }
    }
    fprintf(stderr, "ovstest: unknown command \"%s\" (ovstest --help lists "
            "them)\n", argv[1]);
    return 1;
}
