/* odp-util: datapath flows and actions as text, in Open vSwitch's syntax.
 *
 * This is the language of `ovs-dpctl dump-flows` and `ovs-dpctl add-flow`
 * (and the dpctl commands of ovs-appctl), exactly as Open vSwitch 3.1
 * prints and accepts it, so that scripts and people reading dumps see
 * the same text from either switch.
 *
 * Encoding
 * --------
 *
 * A megaflow is a struct flow (the key) and a struct flow_wildcards (the
 * mask): that is what the dpif interface takes.  Actions are a sequence
 * of Netlink attributes (netlink.h) numbered as Linux's OVS_ACTION_ATTR_*
 * with the argument layouts of <linux/openvswitch.h>:
 *
 *   OUTPUT        u32 port
 *   USERSPACE     nested: PID u32, USERDATA bytes, EGRESS_TUN_PORT u32,
 *                 ACTIONS flag
 *   SET           nested: one OVS_KEY_ATTR_{ETHERNET,IPV4,IPV6,TCP,UDP,
 *                 SCTP,PRIORITY,SKB_MARK,VLAN} with the new value
 *   SET_MASKED    the same, with the value followed by a mask of the same
 *                 size: only the mask's bits change
 *   PUSH_VLAN     struct ovs_action_push_vlan (TCI with VLAN_CFI set)
 *   POP_VLAN      no argument
 *   SAMPLE        nested: PROBABILITY u32 (UINT32_MAX = always), ACTIONS
 *                 nested action list
 *   CLONE         nested action list
 *   RECIRC        u32 recirculation id
 *
 * An empty action list drops the packet; its text is "drop".
 *
 * Text
 * ----
 *
 * odp_flow_format() prints a megaflow as `in_port(1),eth(src=..,dst=..),
 * eth_type(0x0800),ipv4(src=..,dst=..,proto=..,tos=..,ttl=..,frag=no),
 * tcp(src=..,dst=..)`.  A field whose mask is all ones is printed as its
 * value, a partly masked one as value/mask, a wildcarded one not at all
 * (or as value/0 when VERBOSE, which prints every field that applies, as
 * `dump-flows -m` does).  Which keys appear follows 3.1: metadata keys
 * (skb_priority, tunnel, skb_mark, recirc_id, dp_hash, in_port) when
 * their mask is nonzero; eth() always; a VLAN as eth_type(TPID),vlan(..),
 * encap(..) with the rest of the key inside encap; the L3 key that the
 * exact Ethernet type names (ipv4, ipv6, arp) when any of its fields is
 * masked; the L4 key (tcp, udp, sctp, icmp, icmpv6) when the IP protocol
 * is exact and the packet is not a later fragment; tcp_flags after tcp;
 * nd after icmpv6 for neighbour solicitations and advertisements.
 *
 * odp_flow_from_string() parses the same text (keys in any order, spaces
 * after commas allowed).  A field left out of a key is wildcarded; a key
 * left out wildcards all its fields.  The key keeps the value bits the
 * text gave under a partial mask (3.1 prints them back so): apply the
 * mask (flow_apply_mask()) before using the key for matching.  An exact eth_type that is not a VLAN
 * TPID also requires "no further VLAN header" (the VLAN's mask is set with
 * a zero value), as a kernel datapath does; so a megaflow that never
 * looked at the VLAN prints and parses back to the same text, but with
 * that bit of mask added.
 *
 * Errors: parse functions return NULL on success, otherwise a malloc'd
 * message naming the position, "syntax error at TEXT" where TEXT is the
 * input from the key or action that failed to its end (as 3.1 says it for
 * keys), sometimes preceded by what was wrong.  The caller frees it.
 * Outputs are unspecified after an error.
 *
 * Port names: with a struct odp_port_names, output ports and in_port are
 * printed as names where a name is known and names are accepted in input.
 *
 * Threads: pure functions; any thread. */
#ifndef ODP_UTIL_H
#define ODP_UTIL_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util.h"

struct ds;
struct flow;
struct flow_wildcards;
struct nlattr;
struct ofpbuf;

struct odp_port_names {
    /* PORT's name, or NULL to print the number. */
    const char *(*name_of)(void *aux, uint32_t port);
    /* NAME's port number into *PORT; false if there is no such port. */
    bool (*number_of)(void *aux, const char *name, uint32_t *port);
    void *aux;
};

/* Megaflows.  MASK may be NULL for an exact-match flow. */
void odp_flow_format(const struct flow *key, const struct flow_wildcards *,
                     const struct odp_port_names *, bool verbose,
                     struct ds *);
char *odp_flow_from_string(const char *, const struct odp_port_names *,
                           struct flow *key, struct flow_wildcards *mask)
    OVS_WARN_UNUSED_RESULT;

/* Actions.  Formatting tolerates malformed lists (prints what it can and
 * marks the rest); parsing appends attributes to ACTIONS. */
void odp_actions_format(const struct nlattr *actions, size_t actions_len,
                        const struct odp_port_names *, struct ds *);
char *odp_actions_from_string(const char *, const struct odp_port_names *,
                              struct ofpbuf *actions)
    OVS_WARN_UNUSED_RESULT;

/* Whether ACTIONS_LEN bytes at ACTIONS are a well-formed action list:
 * whole attributes, known types with the right argument sizes, nested
 * lists well formed too.  On failure, *ERROR (if nonnull) gets a malloc'd
 * reason.  The executor runs only validated lists. */
bool odp_actions_validate(const struct nlattr *actions, size_t actions_len,
                          char **error);

/* The names of OVS_FRAG_TYPE_* ("no", "first", "later") and the
 * conversion from nw_frag bits. */
uint8_t odp_frag_type_from_nw_frag(uint8_t nw_frag);
uint8_t odp_nw_frag_from_frag_type(uint8_t frag_type);

#endif /* odp-util.h */
