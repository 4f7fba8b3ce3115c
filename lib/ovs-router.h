/* ovs-router: the switch's own IP routing table, for native tunneling.
 *
 * A packet leaving through a tunnel port gets an outer IP header whose
 * destination is the tunnel's remote address; this table says which
 * bridge (or device) that address is reached through, from which local
 * source address, and via which gateway (whose MAC the neighbour cache,
 * tnl-neigh-cache.h, then gives).  IPv4 and IPv6 routes live in one table,
 * IPv4 ones IPv4-mapped (ip-addr.h), so an IPv4 /N is a /96+N.
 *
 * Routes come from three places, as in Open vSwitch 3.1:
 *   - "User" routes: `ovs-appctl ovs/route/add PREFIX/LEN DEV [GW]
 *     [pkt_mark=N]` (and ovs/route/del); priority LEN + 32;
 *   - "Cached" routes: ovs_router_insert(), called for the kernel's routes
 *     (route-table reading over rtnetlink, unless ovs-vswitchd runs with
 *     --disable-system-route, which also makes ovs_router_insert() a
 *     no-op as in 3.1); priority LEN;
 *   - "local" Cached routes, for the switch's own addresses: priority
 *     LEN + 64, and the only ones a given source address may match.
 * Each route belongs to one pkt_mark (0 unless given), and a lookup
 * sees only the routes of its packet's mark.  A lookup returns the highest-priority route whose prefix holds
 * the destination.  A route's source address is the address of its device
 * that shares the longest prefix with the destination (or else with the
 * gateway); a route whose device has no such address is refused, as 3.1
 * refuses it.
 *
 * Threads and memory: the table is an immutable snapshot published through
 * an RCU pointer (ovs-rcu.h).  Readers (ovs_router_lookup(), from handler
 * threads translating an output to a tunnel) load it and search it without
 * any lock and never wait for the main thread; writers (main thread:
 * unixctl commands, the bridge, the route reader) serialize on a mutex,
 * build a new snapshot with the change and publish it, freeing the old one
 * after a grace period.  A lookup probes one hash table per distinct
 * (priority, prefix length) in the table, highest priority first, so it
 * costs at most one probe per prefix length in use whatever the number of
 * routes; a change costs a rebuild, linear in the routes (tables change
 * rarely and are read per flow setup).  ovs_router_seq() moves whenever
 * the table changes, so that translations that used it can be
 * revalidated. */
#ifndef OVS_ROUTER_H
#define OVS_ROUTER_H 1

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

struct ds;

/* Registers the ovs/route/... commands (once; main thread). */
void ovs_router_init(void);

/* --disable-system-route: Cached routes are not kept (ovs_router_insert()
 * does nothing and the kernel's table is not read), for tests. */
void ovs_router_disable_system_routing_table(void);
bool ovs_router_use_system_routing_table(void);

/* Looks up DST for packets of MARK.  If SRC is nonnull and not ::, it is
 * the source the caller wants: the lookup fails unless SRC is one of our
 * addresses (a local route holds it); otherwise *SRC receives the route's
 * source address.  On success, OUT_DEV receives the route's device (a
 * bridge name) and *GW its gateway (:: when the destination is on
 * link).  Any thread. */
bool ovs_router_lookup(uint32_t mark, const struct in6_addr *dst,
                       char out_dev[IFNAMSIZ], struct in6_addr *src,
                       struct in6_addr *gw);

/* Adds or replaces a Cached route (LOCAL: one of our addresses), as the
 * kernel's table or the bridge reports it.  DST/PLEN in IPv4-mapped form
 * for IPv4 (PLEN 96 + N).  GW may be NULL.  Does nothing when system
 * routes are disabled.  Returns 0, or an errno value: EADDRNOTAVAIL when
 * DEV has no address to send from.  Main thread. */
int ovs_router_insert(uint32_t mark, const struct in6_addr *dst,
                      unsigned int plen, bool local, const char *dev,
                      const struct in6_addr *gw);

/* Adds or replaces a User route, as ovs/route/add does.  Same return
 * values.  Main thread. */
int ovs_router_add_user(uint32_t mark, const struct in6_addr *dst,
                        unsigned int plen, const char *dev,
                        const struct in6_addr *gw);

/* Deletes the User route for exactly DST/PLEN and MARK; false if there
 * is none.  Main thread. */
bool ovs_router_del_user(uint32_t mark, const struct in6_addr *dst,
                         unsigned int plen);

/* Deletes every Cached route (for a re-read of the kernel's table, and at
 * exit), or only those through DEV when DEV is nonnull.  Main thread. */
void ovs_router_flush(const char *dev);

/* Batches: between begin and end, additions and deletions (main thread)
 * are collected and published as one new table at the end, and each
 * device's addresses are asked for once; readers see the table as it was
 * before until then.  For reading a whole kernel table: one rebuild
 * instead of one per route. */
void ovs_router_batch_begin(void);
void ovs_router_batch_end(void);

/* Appends "Route Table:" and one line per route, as ovs/route/show. */
void ovs_router_show(struct ds *);

/* Adds to DEVICES the device of every route (native tunneling's
 * endpoint devices, tnl-ports.h).  Any thread. */
struct sset;
void ovs_router_get_devices(struct sset *devices);

/* Moves when a route is added or deleted. */
struct seq *ovs_router_seq(void);

#endif /* ovs-router.h */
