/* bridge: turns the Open_vSwitch database into running bridges, and
 * reports their state back into it.
 *
 * ovs-vswitchd keeps one IDL replica of the database (vswitchd/vswitch-idl)
 * and holds the database lock "ovs_vswitchd", so that only one switch
 * daemon configures a given database; a second one waits, doing nothing,
 * until the lock is free.
 *
 * Whenever the replica changes, bridge_run() reconciles its bridges, ports
 * and interfaces with the database: what disappeared is closed, what
 * appeared is opened (a netdev per interface) and numbered (an OpenFlow
 * port number per interface, honoring "ofport_request", kept stable across
 * reconfigurations and restarts through the "ofport" column).  An
 * interface that cannot be set up gets ofport -1 and the reason in its
 * "error" column, plus a log line.
 *
 * The handshake with ovs-vsctl: a client that wants to know when its change
 * took effect increments Open_vSwitch:next_cfg in its transaction and waits
 * for cur_cfg to reach that value.  bridge_run() copies next_cfg into
 * cur_cfg in the same transaction that reports the new interfaces' ofport
 * and error, so a client that sees cur_cfg move also sees their status.
 *
 * Status writes go through a list of interfaces whose reported state may
 * be stale; the work per wake-up follows what changed, not how many
 * interfaces exist.
 *
 * Everything is owned by this module; call from the main thread. */
#ifndef VSWITCHD_BRIDGE_H
#define VSWITCHD_BRIDGE_H 1

#include <stdbool.h>

/* Connects to the database at REMOTE (e.g. "unix:/run/db.sock"). */
void bridge_init(const char *remote);
/* Closes every bridge.  With DELETE_DEVICES, devices the switch created
 * are removed (ovs-appctl exit --cleanup); without, they go away with the
 * process anyway today, since nothing persists them. */
void bridge_exit(bool delete_devices);

void bridge_run(void);
void bridge_wait(void);

#endif /* vswitchd/bridge.h */
