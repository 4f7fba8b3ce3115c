/* tnl-neigh-cache: IP -> MAC bindings learned on bridges, for native
 * tunneling.
 *
 * To send a tunnelled packet the switch needs the Ethernet address of the
 * next hop (the route's gateway, or the remote end itself) on the bridge
 * the route leaves through.  It learns them by snooping (translation hands
 * every ARP reply, gratuitous ARP, and IPv6 neighbour advertisement with a
 * target link-layer address that it sees on a bridge to
 * tnl_neigh_snoop()), or from `ovs-appctl tnl/neigh/set BRIDGE IP MAC`.
 * An entry lives for the aging time (15 minutes by default; `ovs-appctl
 * tnl/neigh/aging [SECS]`, 1 to 3600) after it was last learned or used;
 * `tnl/neigh/show` lists the entries (expired ones not yet swept marked
 * STALE), `tnl/neigh/flush` empties the cache.  Addresses are IPv6, IPv4
 * ones IPv4-mapped (ip-addr.h).
 *
 * Threads and memory: entries are chained in an array of hash buckets
 * whose pointers are RCU-published (ovs-rcu.h).  tnl_neigh_lookup() (any
 * thread: handler threads building a tunnel header) follows them with no
 * lock and never blocks; the only write it makes is the entry's expiry
 * time, an atomic.  Writers (snooping from handler threads, the commands
 * and the sweep from the main thread) serialize on a mutex: a changed MAC
 * replaces the entry, removal unlinks it and frees it after a grace
 * period, growth publishes a new bucket array of copies.  A snoop that
 * finds the same binding only refreshes the expiry, without the mutex.
 * Expired entries are swept by tnl_neigh_cache_run() (main loop) at the
 * earliest expiry time, which tnl_neigh_cache_wait() sets a timer for;
 * lookups ignore expired entries meanwhile. */
#ifndef TNL_NEIGH_CACHE_H
#define TNL_NEIGH_CACHE_H 1

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include "packets.h"

struct ds;
struct flow;
struct flow_wildcards;
struct seq;

#define TNL_NEIGH_DEFAULT_AGING_MS (15 * 60 * 1000)
#define TNL_NEIGH_MAX_AGING_S 3600

/* Registers tnl/neigh/... (and 3.1's older tnl/arp/... names).  Main thread,
 * once. */
void tnl_neigh_cache_init(void);

/* The MAC of DST on bridge BR_NAME into *MAC: 0, or ENOENT if there is no
 * live entry.  Refreshes the entry's expiry.  Any thread. */
int tnl_neigh_lookup(const char *br_name, const struct in6_addr *dst,
                     struct eth_addr *mac);

/* Learns (or refreshes) DST at MAC on BR_NAME.  Any thread. */
void tnl_neigh_set(const char *br_name, const struct in6_addr *dst,
                   struct eth_addr mac);

/* If FLOW, seen on bridge BR_NAME, is an ARP reply or gratuitous ARP
 * with a nonzero sender MAC, or an IPv6 neighbour advertisement with a
 * target link-layer address, learns the binding when ALLOW_UPDATE and
 * returns 0; otherwise returns EINVAL.  Adds to WC (if nonnull) the
 * fields the decision and the learned binding depend on, so that a
 * megaflow installed for it sends every such packet up again.  Any
 * thread. */
int tnl_neigh_snoop(const struct flow *flow, struct flow_wildcards *wc,
                    const char *br_name, bool allow_update);

/* Forgets every entry of BR_NAME (a bridge that went away), or every
 * entry when BR_NAME is NULL.  Any thread. */
void tnl_neigh_flush(const char *br_name);

/* The aging time in milliseconds, and setting it (1 s to 1 h; entries
 * that would now live longer are shortened). */
unsigned int tnl_neigh_get_aging_ms(void);
bool tnl_neigh_set_aging_s(unsigned int secs);

/* Appends tnl/neigh/show's table. */
void tnl_neigh_show(struct ds *);

/* Sweeps expired entries when it is time to; wait sets the timer.  Main
 * loop. */
void tnl_neigh_cache_run(void);
void tnl_neigh_cache_wait(void);

/* Moves when a binding is learned, changed or removed. */
struct seq *tnl_neigh_seq(void);

#endif /* tnl-neigh-cache.h */
