/* ovstest: one program for the test drivers that Open vSwitch's own suite
 * runs as "ovstest COMMAND ARGS..." (stp.at's "ovstest test-stp FILE",
 * rstp.at's "ovstest test-rstp FILE", ...), so that its tests exercise our
 * modules.
 *
 * A driver lives in a file of its own and registers itself with
 * OVSTEST_REGISTER(NAME, FUNCTION): no shared table to edit.  FUNCTION
 * gets the arguments after the command name (argv[0] is the command) and
 * returns the process's exit status. */
#ifndef OVSTEST_H
#define OVSTEST_H 1

typedef int ovstest_func(int argc, char *argv[]);

/* Called before main() by OVSTEST_REGISTER. */
void ovstest_register(const char *name, ovstest_func *);

#define OVSTEST_REGISTER(NAME, FUNCTION)                        \
    __attribute__((constructor)) static void                   \
    FUNCTION##_register(void)                                   \
    {                                                           \
        ovstest_register(NAME, FUNCTION);                       \
    }

#endif /* tests/ovstest.h */
