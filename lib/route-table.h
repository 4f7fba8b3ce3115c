/* route-table: the kernel's routing table, copied into the switch's own
 * (ovs-router.h) as Cached routes.
 *
 * At start and whenever the kernel reports a route or address change
 * (an rtnetlink socket subscribed to the IPv4 and IPv6 route and address
 * groups, watched by the main loop), every Cached route is dropped and the
 * kernel's tables are read again, as Open vSwitch 3.1 does: unicast routes
 * as they are, local routes (the host's own addresses) with the "local"
 * flag.  Nothing polls: an unchanged kernel table costs nothing.  With
 * ovs-vswitchd's --disable-system-route (ovs_router_disable_system_
 * routing_table()) none of this runs.
 *
 * Threads: main thread only.  Memory: the sockets are the module's; it
 * allocates nothing that outlives a call. */
#ifndef ROUTE_TABLE_H
#define ROUTE_TABLE_H 1

/* Opens the socket and reads the kernel's table (once; does nothing when
 * system routes are disabled). */
void route_table_init(void);
void route_table_run(void);
void route_table_wait(void);

#endif /* route-table.h */
