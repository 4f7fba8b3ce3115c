/* tunnel: ofproto's map of tunnel ports.
 *
 * Every OpenFlow port whose netdev is a tunnel (lib/netdev-vport.h) is in
 * this map, which does two things:
 *
 *   - receive: a packet arriving on a tunnel's shared datapath port
 *     ("gre_sys", "vxlan_sys_4789", ...) carries its outer header as
 *     tunnel metadata in its flow; tnl_port_receive() finds the OpenFlow
 *     port it came in on from (datapath port, key, outer source, outer
 *     destination, packet type), trying as Open vSwitch 3.1 does: an
 *     exact key before key=flow, an exact remote before remote_ip=flow,
 *     and an exact local address, then any local address, then
 *     local_ip=flow; each try is one hash lookup.
 *
 *   - send: tnl_port_send() gives the flow the tunnel metadata the port's
 *     options say (addresses, key, TOS/TTL, flags, ERSPAN fields) and
 *     returns the datapath port to output to.
 *
 * The datapath ports are shared: one per (datapath, type, UDP port),
 * opened on the first tunnel that needs it and deleted with the last, so
 * 10,000 tunnels cost one datapath port and no descriptors.
 *
 * Threads: the main thread changes the map (tnl_port_add/_reconfigure/
 * _del) and takes xlate_rwlock (ofproto-private.h) for writing around
 * each change; translators (handler and revalidator threads, trace) call
 * the lookup functions with xlate_rwlock held for reading, and may keep a
 * returned ofport until they release it.
 *
 * Memory: the map owns its entries; struct ofport points to its entry. */
#ifndef OFPROTO_TUNNEL_H
#define OFPROTO_TUNNEL_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ds;
struct dpif_backer;
struct flow;
struct flow_wildcards;
struct netdev;
struct ofport;

/* Main thread.  Makes PORT (whose netdev is a tunnel) a tunnel port:
 * takes a reference on its shared datapath port and stores that number in
 * *ODP_PORTP.  Returns 0 or an errno value: EEXIST if another tunnel
 * port already has the same receive match (logged, as 3.1 does), or the
 * datapath port could not be added. */
int tnl_port_add(struct dpif_backer *, struct ofport *port,
                 uint32_t *odp_portp);
/* Main thread.  Re-reads PORT's tunnel configuration (after its netdev
 * changed); moves it to another datapath port if the type's UDP port
 * changed, updating PORT->odp_port.  Returns true if anything changed (the
 * datapath flows need revalidation). */
bool tnl_port_reconfigure(struct ofport *port);
/* Main thread.  Takes PORT out of the map, dropping its datapath port
 * reference. */
void tnl_port_del(struct ofport *port);

/* Whether FLOW came in through a tunnel (has outer addresses). */
bool tnl_port_should_receive(const struct flow *);
/* The OpenFlow port FLOW (in_port a datapath port of BACKER) arrived on,
 * or NULL (logged, rate-limited: "receive tunnel port not found"). */
struct ofport *tnl_port_receive(const struct dpif_backer *,
                                const struct flow *);
/* For a flow that came in through a tunnel: the tunnel fields the lookup
 * used become exact in WC, as 3.1's megaflows have them. */
void tnl_wc_init(const struct flow *, struct flow_wildcards *);
/* ECN on decapsulation (RFC 6040): an outer CE marks the inner packet CE;
 * false if the packet must be dropped (outer CE, inner not ECN-capable;
 * logged). */
bool tnl_process_ecn(struct flow *);
/* Whether PORT is a tunnel port (reader). */
bool tnl_port_is_tunnel(const struct ofport *);
/* Whether PORT is a tunnel that carries IP packets without an Ethernet
 * header (options:packet_type=legacy_l3, or an IP-only type such as
 * gtpu): translation pops the Ethernet header before output to it and
 * gives what it receives a zero one (reader). */
bool tnl_port_is_l3(const struct ofport *);
/* Sets FLOW's tunnel metadata for output through tunnel PORT and returns
 * the datapath port to output to.  Fields of the inner packet the outer
 * header copies (inherited TOS/TTL, ECN) become exact in WC. */
uint32_t tnl_port_send(const struct ofport *, struct flow *,
                       struct flow_wildcards *);
/* The Geneve options a packet of FLOW leaving through PORT carries: for a
 * Geneve port, every present tun_metadataN of FLOW through PORT's
 * bridge's TLV map (tun_md_to_geneve()) into BUF (MAX bytes), returning
 * their length or SIZE_MAX if they do not fit; 0 for another port.
 * Reader. */
size_t tnl_port_geneve_opts(const struct ofport *, const struct flow *,
                            uint8_t *buf, size_t max);
/* Native tunneling: builds into *PUSH (tnl_port and out_port left to the
 * caller) the outer header of a packet of FLOW, whose tunnel metadata is
 * as tnl_port_send() left it, leaving through tunnel PORT from SMAC and
 * SRC (IPv4-mapped for IPv4) to the next hop DMAC; Geneve options come
 * from FLOW's tun_metadata through PORT's bridge's TLV map.  Returns 0,
 * EOPNOTSUPP for a type without native encapsulation (lisp, stt),
 * or tnl_header_build()'s errors.  Reader. */
struct eth_addr;
struct in6_addr;
struct tnl_push_action;
int tnl_port_build_header(const struct ofport *, const struct flow *,
                          struct eth_addr dmac, struct eth_addr smac,
                          const struct in6_addr *src,
                          struct tnl_push_action *push);
/* "gre: key=5, remote_ip=1.1.1.1": the port's type and the options that
 * differ from the defaults, sorted, as dpif/show prints them (main
 * thread). */
void tnl_port_format(const struct ofport *, struct ds *);

/* Native tunneling ("tnl_push_pop"): whether translation may encapsulate
 * and decapsulate in the datapath (tnl_push/tnl_pop) instead of handing
 * the packet to the tunnel's datapath port with set(tunnel(...)).  The
 * datapath says whether it can (tnl_set_push_pop_supported(), main
 * thread, at start); `ovs-appctl dpif/set-dp-features BR tnl_push_pop
 * false` turns it off at run time, as Open vSwitch's tests do (and
 * `ofproto/tnl-push-pop on|off`, the older spelling).  Until the datapath
 * supports it, it is off and cannot be turned on.  Any thread may read
 * tnl_push_pop_enabled(). */
bool tnl_push_pop_enabled(void);
void tnl_set_push_pop_supported(bool);
/* Registers ofproto/list-tunnels, dpif/set-dp-features,
 * dpif/show-dp-features and
 * ofproto/tnl-push-pop (main thread, once). */
void tnl_unixctl_register(void);

#endif /* ofproto/tunnel.h */
