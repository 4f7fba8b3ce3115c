/* port-bond: a Port row's bond configuration, read into ofproto's bond
 * settings (ofproto/bond.h).
 *
 * The columns and keys are 3.1's: bond_mode (active-backup, the default,
 * balance-slb, balance-tcp), bond_updelay, bond_downdelay,
 * other_config:bond-hash-basis, bond-rebalance-interval (ms, default
 * 10000; below 1000 means 1000, 0 never), lacp-fallback-ab,
 * all-members-active, bond-primary,
 * and bond_active_slave (the active member's MAC, restored on start); and
 * the port's LACP settings (lib/lacp.h).
 * A bad value is logged and its default used, as 3.1 does.
 *
 * Main thread.  The settings point into ROW (bond-primary): use them
 * before the database changes. */
#ifndef VSWITCHD_PORT_BOND_H
#define VSWITCHD_PORT_BOND_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "packets.h"

struct bond_settings;
struct lacp_member_settings;
struct lacp_settings;
struct ovsrec_interface;
struct ovsrec_port;

void port_bond_settings(const struct ovsrec_port *row, struct bond_settings *);

/* How a bond's members notice their link, as 3.1 reads it:
 * other_config:bond-detect-mode "carrier" (the default: returns 0) or
 * "miimon" (returns bond-miimon-interval, ms, default 200; 0 or less is
 * the default); anything else is logged and taken as carrier. */
long long int port_bond_miimon_interval(const struct ovsrec_port *row);

/* LACP, as 3.1 reads it: Port lacp (active, passive; off or empty: none),
 * other_config:lacp-system-id (default: BRIDGE_MAC), lacp-system-priority
 * (1-65535, default 65535 for one member, 65534 for a bond of
 * N_MEMBERS), lacp-time (fast or slow, the default), lacp-fallback-ab.
 * Returns false if the port runs no LACP.  S->name points into ROW. */
bool port_lacp_settings(const struct ovsrec_port *row,
                        struct eth_addr bridge_mac, size_t n_members,
                        struct lacp_settings *s);
/* A member's: Interface other_config:lacp-port-id (1-65535, default
 * OFPORT), lacp-port-priority (1-65535, default 65535),
 * lacp-aggregation-key (0-65535, default 0: the bond's first member's
 * port ID); MAC is the interface's address.  S->name points into ROW. */
void port_lacp_member_settings(const struct ovsrec_interface *row,
                               uint16_t ofport, struct eth_addr mac,
                               struct lacp_member_settings *s);

#endif /* vswitchd/port-bond.h */
