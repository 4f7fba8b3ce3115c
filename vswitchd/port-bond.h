/* port-bond: a Port row's bond configuration, read into ofproto's bond
 * settings (ofproto/bond.h).
 *
 * The columns and keys are 3.1's: bond_mode (active-backup, the default,
 * balance-slb, balance-tcp), bond_updelay, bond_downdelay,
 * other_config:bond-hash-basis, bond-rebalance-interval (ms, default
 * 10000; below 1000 means 1000, 0 never), lacp-fallback-ab,
 * all-members-active, bond-primary,
 * and bond_active_slave (the active member's MAC, restored on start).
 * A bad value is logged and its default used, as 3.1 does.
 *
 * Main thread.  The settings point into ROW (bond-primary): use them
 * before the database changes. */
#ifndef VSWITCHD_PORT_BOND_H
#define VSWITCHD_PORT_BOND_H 1

struct bond_settings;
struct ovsrec_port;

void port_bond_settings(const struct ovsrec_port *row, struct bond_settings *);

#endif /* vswitchd/port-bond.h */
