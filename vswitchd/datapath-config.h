/* datapath-config: the database's Datapath table, as far as the switch
 * acts on it: each datapath type's ct zones and their CT_Timeout_Policy
 * rows, handed to ofproto/ct-zones.h.
 *
 * The bridge calls datapath_config_track() once after creating its IDL,
 * and datapath_config_run() after each reconfiguration pass;
 * datapath_config_run() does something only when the Open_vSwitch
 * table's datapaths column or a Datapath, CT_Zone or CT_Timeout_Policy
 * row changed (FULL: the bridge did a full pass, so look anyway).  A
 * timeout key the switch does not know is logged and skipped.
 *
 * Main thread. */
#ifndef VSWITCHD_DATAPATH_CONFIG_H
#define VSWITCHD_DATAPATH_CONFIG_H 1

#include <stdbool.h>

struct ovsdb_idl;
struct ovsrec_open_vswitch;

void datapath_config_track(struct ovsdb_idl *);
void datapath_config_run(struct ovsdb_idl *, const struct ovsrec_open_vswitch *,
                         bool full);

#endif /* vswitchd/datapath-config.h */
