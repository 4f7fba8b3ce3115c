/* tnl-ports: which packets are tunnel packets for this switch, the
 * receive side of native tunneling.
 *
 * When translation outputs a packet to a device that has an IP address
 * (the LOCAL port of a bridge given one, typically) and the packet is
 * addressed to that device (its Ethernet address, no VLAN tag, one of its
 * IP addresses, not a fragment) with the IP protocol and, for UDP tunnels,
 * the destination port of one of the switch's tunnel datapath ports, the
 * packet is one of our tunnels' and translation decapsulates it
 * (tnl_pop(PORT)) instead of outputting it.
 *
 * Two sets make that decision:
 *
 *   - listening ports: each tunnel datapath port ("vxlan_sys_4789",
 *     "gre_sys", ...) with its protocol and UDP port, referenced once per
 *     OpenFlow tunnel port using it (tnl_ports_ref()/tnl_ports_unref(),
 *     from ofproto's tunnel map);
 *
 *   - endpoint devices: as in Open vSwitch 3.1, the devices that routes
 *     leave through (ovs-router.h), with their Ethernet and IP addresses.
 *     tnl_ports_run() reads the set again when the routing table changes
 *     and a device's addresses again when its netdev changes.
 *
 * `ovs-appctl tnl/ports/show [-v]` lists the listening ports ("NAME (PORT)
 * ref_cnt=N") or, with -v, every (device address, port) entry as a
 * datapath flow match.
 *
 * Threads and memory: the main thread changes both sets and publishes
 * their product as an immutable snapshot behind an RCU pointer
 * (ovs-rcu.h); tnl_ports_lookup() and tnl_ports_dev_*() (translation, any
 * thread) read the snapshot without locks.  A change that adds or drops
 * a reference to a port already listening publishes nothing, so 10,000
 * tunnels sharing one datapath port cost one entry per device address.
 * The module owns everything it allocates. */
#ifndef TNL_PORTS_H
#define TNL_PORTS_H 1

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

struct ds;
struct flow;
struct flow_wildcards;

/* Registers tnl/ports/show.  Main thread, once. */
void tnl_ports_init(void);

/* Main thread.  A tunnel port uses datapath port ODP_PORT, named DP_NAME,
 * of netdev type TYPE ("vxlan", "geneve", "gtpu": UDP to UDP_PORT, host
 * order; "gre", "ip6gre", "erspan", "ip6erspan": IP protocol 47).  The
 * first reference makes the port listen. */
void tnl_ports_ref(uint32_t odp_port, const char *dp_name, const char *type,
                   uint16_t udp_port);
/* Main thread.  Drops a reference tnl_ports_ref() took; the last stops the
 * port listening. */
void tnl_ports_unref(uint32_t odp_port);

/* Main loop: follows the routing table's devices and their addresses. */
void tnl_ports_run(void);
void tnl_ports_wait(void);

/* Any thread.  The listening datapath port FLOW (a packet being output to
 * an endpoint device) is addressed to, or DPIF_PORT_NONE.  Adds to WC the
 * fields the answer depended on. */
uint32_t tnl_ports_lookup(const struct flow *, struct flow_wildcards *);

/* Any thread.  Whether device NAME is an endpoint device with an IP
 * address, and whether ADDR (IPv4-mapped for IPv4) is one of them. */
bool tnl_ports_dev_has_ip(const char *name);
bool tnl_ports_dev_has_addr(const char *name, const struct in6_addr *addr);
/* Any thread.  Whether DST, the destination of an IPv6 packet, is one of
 * device NAME's addresses or the solicited-node multicast group of one
 * (ff02::1:ffXX:XXXX, the last 24 bits of the address). */
bool tnl_ports_dev_is_nd_dst(const char *name, const struct in6_addr *dst);
/* Any thread.  The Ethernet address of endpoint device NAME (the source
 * of the tunnel packets a route through it sends) into *MAC; false if
 * NAME is no endpoint device with an address. */
struct eth_addr;
bool tnl_ports_dev_get_mac(const char *name, struct eth_addr *mac);

/* Moves whenever what tnl_ports_lookup() and tnl_ports_dev_*() answer may
 * have changed. */
struct seq *tnl_ports_seq(void);

/* tnl/ports/show's text (VERBOSE: -v). */
void tnl_ports_show(struct ds *, bool verbose);

#endif /* tnl-ports.h */
