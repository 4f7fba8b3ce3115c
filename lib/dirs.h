/* dirs: where the project's files live at run time.
 *
 * Every daemon and tool agrees on a handful of directories: the run
 * directory (pid files, control sockets, the database socket), the log
 * directory, the database directory, the configuration directory, the
 * package data directory (schemas) and the binary directory.  Each has a
 * compiled-in default chosen by configure, and each can be moved at run time
 * through an environment variable of the same name: OVS_RUNDIR, OVS_LOGDIR,
 * OVS_DBDIR, OVS_SYSCONFDIR, OVS_PKGDATADIR, OVS_BINDIR.  That is how the
 * test suite gives every test a private directory without root.
 *
 * The database directory has one extra fallback, as in Open vSwitch: without
 * OVS_DBDIR but with OVS_SYSCONFDIR set, it is $OVS_SYSCONFDIR/openvswitch.
 *
 * Each value is computed on the first call and never changes afterwards (a
 * later setenv() has no effect), so the returned strings are valid for the
 * life of the process, are owned by this module, and may be read from any
 * thread.
 */
#ifndef DIRS_H
#define DIRS_H 1

const char *ovs_rundir(void);
const char *ovs_logdir(void);
const char *ovs_dbdir(void);
const char *ovs_sysconfdir(void);
const char *ovs_pkgdatadir(void);
const char *ovs_bindir(void);

#endif /* dirs.h */
