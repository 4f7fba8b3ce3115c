/* lacp-member: LACP (lib/lacp.h) on a bond's members, as per-port
 * protocols (lib/port-protocol.h).
 *
 * A port with LACP has one struct lacp_bond, which holds its LACP engine,
 * and one struct lacp_member per member port, a per-port protocol attached
 * to that port: translation hands it the member's LACPDUs (the datapath's
 * control-packet sink does, without an upcall), the monitor thread runs
 * the engine's timers from it and sends what the engine composed out of
 * the member, and a change of the engine's view of a member queues every
 * member of the bond on the change queue, so that the main thread
 * re-reads may_enable and lacp_current for those members only.
 *
 * The engine registers each member under its struct lacp_member, so
 * lacp_member_may_enable(bond->lacp, member) and the like take a struct
 * lacp_member pointer.
 *
 * Threads and memory: the main thread creates, configures and destroys
 * bonds and members; it detaches a member from its port (ofproto) before
 * destroying it, and destroys a bond after its members.  receive() and
 * run() run on other threads; the bond's mutex guards its member list and
 * each member's frames waiting to be sent. */
#ifndef OFPROTO_LACP_MEMBER_H
#define OFPROTO_LACP_MEMBER_H 1

#include "lacp.h"

struct lacp_bond;
struct lacp_member;
struct port_protocol;

/* A bond's LACP with settings S, or NULL (logged) if S is invalid. */
struct lacp_bond *lacp_bond_create(const struct lacp_settings *s);
/* Returns false, changing nothing, if S is invalid. */
bool lacp_bond_configure(struct lacp_bond *, const struct lacp_settings *s);
void lacp_bond_destroy(struct lacp_bond *);
struct lacp *lacp_bond_get_lacp(const struct lacp_bond *);

/* A member of BOND with settings S, whose change-queue owner is OWNER
 * (port_protocol's owner: the bridge's interface). */
struct lacp_member *lacp_member_create(struct lacp_bond *,
                                       const struct lacp_member_settings *s,
                                       void *owner);
void lacp_member_reconfigure(struct lacp_member *,
                             const struct lacp_member_settings *s);
/* Frees M, which must not be attached. */
void lacp_member_destroy(struct lacp_member *);
struct port_protocol *lacp_member_protocol(struct lacp_member *);
/* M's link is UP or not, and its device has counted CARRIER_RESETS
 * carrier changes (netdev_get_carrier_resets()).  As 3.1 does, the engine
 * hears that the link went down only when the count moved (a real link
 * that flapped: renegotiate); a link that is merely seen down (an
 * administratively downed dummy device) leaves LACP as it was, and a link
 * seen up is reported up.  A new member's link is down. */
void lacp_member_set_carrier(struct lacp_member *, bool up,
                             uint64_t carrier_resets);
bool lacp_member_enabled(const struct lacp_member *);
bool lacp_member_current(const struct lacp_member *);

#endif /* ofproto/lacp-member.h */
