/* dirs: see dirs.h. */
#include <config.h>
#include "dirs.h"

#include <pthread.h>
#include <stdlib.h>

#include "util.h"

/* The compiled-in defaults arrive from Makefile.am as string macros that
 * share their names with the environment variables; give them names that say
 * which is which. */
static const char default_rundir[] = OVS_RUNDIR;
static const char default_logdir[] = OVS_LOGDIR;
static const char default_dbdir[] = OVS_DBDIR;
static const char default_sysconfdir[] = OVS_SYSCONFDIR;
static const char default_pkgdatadir[] = OVS_PKGDATADIR;
static const char default_bindir[] = OVS_BINDIR;

/* Written once under 'once', read-only afterwards, so readers need no lock.
 * They live until exit. */
static char *rundir;
static char *logdir;
static char *dbdir;
static char *sysconfdir;
static char *pkgdatadir;
static char *bindir;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static const char *
nonempty_env(const char *variable)
{
    const char *value = getenv(variable);
    return value && value[0] ? value : NULL;
}

/* Copies, so a later setenv() cannot pull the strings from under readers. */
static char *
env_or_default(const char *variable, const char *fallback)
{
    const char *value = nonempty_env(variable);
    return xstrdup(value ? value : fallback);
}

static void
compute_dirs(void)
{
    rundir = env_or_default("OVS_RUNDIR", default_rundir);
    logdir = env_or_default("OVS_LOGDIR", default_logdir);
    sysconfdir = env_or_default("OVS_SYSCONFDIR", default_sysconfdir);
    pkgdatadir = env_or_default("OVS_PKGDATADIR", default_pkgdatadir);
    bindir = env_or_default("OVS_BINDIR", default_bindir);

    /* An overridden configuration directory drags the database along, so a
     * test that only sets OVS_SYSCONFDIR still keeps its database private. */
    const char *env_dbdir = nonempty_env("OVS_DBDIR");
    const char *env_sysconfdir = nonempty_env("OVS_SYSCONFDIR");
    if (env_dbdir) {
        dbdir = xstrdup(env_dbdir);
    } else if (env_sysconfdir) {
        dbdir = xasprintf("%s/openvswitch", env_sysconfdir);
    } else {
        dbdir = xstrdup(default_dbdir);
    }
}

static void
init_dirs(void)
{
    pthread_once(&once, compute_dirs);
}

const char *
ovs_rundir(void)
{
    init_dirs();
    return rundir;
}

const char *
ovs_logdir(void)
{
    init_dirs();
    return logdir;
}

const char *
ovs_dbdir(void)
{
    init_dirs();
    return dbdir;
}

const char *
ovs_sysconfdir(void)
{
    init_dirs();
    return sysconfdir;
}

const char *
ovs_pkgdatadir(void)
{
    init_dirs();
    return pkgdatadir;
}

const char *
ovs_bindir(void)
{
    init_dirs();
    return bindir;
}
