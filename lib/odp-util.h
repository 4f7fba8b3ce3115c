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
 *   PUSH_ETH      struct ovs_action_push_eth: an Ethernet header (these
 *                 addresses, the L3 packet type's Ethertype) on an L3
 *                 packet, which becomes an Ethernet frame
 *   POP_ETH       no argument: an Ethernet frame loses its header (and any
 *                 VLAN tags) and becomes an L3 packet of its Ethertype
 *   SAMPLE        nested: PROBABILITY u32 (UINT32_MAX = always), ACTIONS
 *                 nested action list
 *   CLONE         nested action list
 *   RECIRC        u32 recirculation id
 *   HASH          struct ovs_action_hash: "hash(l4(BASIS))" (or
 *                 "hash(sym_l4(BASIS))", ODP_HASH_ALG_SYM_L4): sets the
 *                 packet's dp_hash to a hash of its 5-tuple and BASIS
 *                 (odp-execute.h says which), which a following recirc's
 *                 lookup can match (balance-tcp bonds, ofproto/bond.h)
 *   TRUNC         struct ovs_action_trunc: the next output (userspace
 *                 action, tunnel push) sends the packet cut to MAX_LEN
 *   CT            nested OVS_CT_ATTR_*: COMMIT or FORCE_COMMIT flag,
 *                 ZONE u16, MARK u32 value then u32 mask (host order),
 *                 LABELS 16-byte value then 16-byte mask (network order,
 *                 as struct flow's ct_label), HELPER and TIMEOUT strings
 *                 (NUL-terminated), NAT nested OVS_NAT_ATTR_* (SRC or DST
 *                 flag, IP_MIN and IP_MAX of 4 or 16 bytes, PROTO_MIN and
 *                 PROTO_MAX u16 host order, PERSISTENT, PROTO_HASH,
 *                 PROTO_RANDOM flags); struct odp_ct_action below
 *   CT_CLEAR      no argument: the packet forgets its conntrack state
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
 * Inside tunnel(...), a field 3.1's key attributes leave out when zero
 * (addresses, tos, UDP ports; tun_id without the "key" flag) is not
 * printed whatever its mask; Geneve options as geneve({...}) and the
 * ERSPAN fields as erspan(ver=..,idx=..|dir=..,hwid=..) follow the
 * fields.
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

/* The action set(tunnel(...)): gives the packet the tunnel metadata T
 * (OVS_ACTION_ATTR_SET of a nested OVS_KEY_ATTR_TUNNEL) and the Geneve
 * options GENEVE (GENEVE_LEN bytes, raw as on the wire, see tnl-header.h;
 * none if GENEVE_LEN is 0) as OVS_TUNNEL_KEY_ATTR_GENEVE_OPTS.  The key is
 * sent only with FLOW_TNL_F_KEY in T's flags. */
#define ODP_GENEVE_OPTS_MAX 252
struct flow_tnl;
struct ofpbuf;
void odp_put_tunnel_action(const struct flow_tnl *t, const uint8_t *geneve,
                           size_t geneve_len, struct ofpbuf *);
/* Decodes ATTR, an OVS_KEY_ATTR_TUNNEL, into *T and, if GENEVE is
 * nonnull, its Geneve options into GENEVE (ODP_GENEVE_OPTS_MAX bytes) and
 * their length into *GENEVE_LEN (0 for none); false if malformed. */
bool odp_tunnel_from_attr(const struct nlattr *attr, struct flow_tnl *t,
                          uint8_t *geneve, size_t *geneve_len);

/* A ct() action's arguments, as its attributes carry them (the datapath
 * turns them into conntrack.h's struct ct_action).  Text, as 3.1:
 * ct(commit|force_commit,zone=N,mark=V/M,label=V/M,helper=NAME,
 * timeout=NAME,nat[(src|dst[=ADDR[-ADDR][:PORT[-PORT]]][,persistent]
 * [,hash|,random])]), every part optional; "ct" alone is ct(). */
struct odp_ct_action {
    bool commit, force_commit;      /* At most one. */
    uint16_t zone;
    bool has_mark;
    uint32_t mark_value, mark_mask;
    bool has_label;
    uint8_t label_value[16], label_mask[16];    /* Network order. */
    char helper[16];                /* "" for none, else "ftp" or "tftp". */
    char timeout[32];               /* "" for none: a timeout policy name
                                     * (the userspace datapath's names are
                                     * the policy ids in decimal). */
    bool has_nat;
    uint16_t nat_flags;             /* enum ct_nat_flags (conntrack.h). */
    uint8_t nat_addr_len;           /* 0 (no address), 4 or 16. */
    uint8_t nat_min_addr[16], nat_max_addr[16];  /* Network order. */
    uint16_t nat_min_port, nat_max_port;         /* 0: none. */
};

/* Appends a CT action with CT's arguments to ACTIONS. */
void odp_put_ct_action(struct ofpbuf *actions, const struct odp_ct_action *);
/* Decodes A, an OVS_ACTION_ATTR_CT, into *CT.  Returns false if it is
 * malformed (an unknown or badly sized argument, commit with
 * force_commit, an inconsistent nat) with a malloc'd reason in *ERROR if
 * ERROR is nonnull. */
bool odp_ct_action_from_attr(const struct nlattr *a, struct odp_ct_action *,
                             char **error);

/* True for the helpers this datapath has: "ftp" and "tftp". */
bool odp_ct_helper_is_known(const char *helper);

/* Megaflows.  MASK may be NULL for an exact-match flow. */
void odp_flow_format(const struct flow *key, const struct flow_wildcards *,
                     const struct odp_port_names *, bool verbose,
                     struct ds *);
char *odp_flow_from_string(const char *, const struct odp_port_names *,
                           struct flow *key, struct flow_wildcards *mask)
    OVS_WARN_UNUSED_RESULT;
/* The same, and *ERRNOP (if nonnull) says why it failed, as 3.1's parser
 * does: E2BIG when the flow or a nested key (tunnel, encap) would not fit
 * in a Netlink attribute as 3.1 encodes it (a key repeated thousands of
 * times), EINVAL for any other error, 0 on success. */
char *odp_flow_from_string_errno(const char *,
                                 const struct odp_port_names *,
                                 struct flow *key,
                                 struct flow_wildcards *mask, int *errnop)
    OVS_WARN_UNUSED_RESULT;

/* Adds to WC what a datapath flow for KEY matches beyond the fields a
 * translation looked at, as a datapath key implies them (3.1's keys
 * say each VLAN header by its TPID and VID, and an Ethernet type after the
 * last one means "no further VLAN header"): each VLAN header KEY has, by
 * TPID, VID and presence, and the absence of a further one. */
void odp_flow_mask_for_datapath(const struct flow *key,
                                struct flow_wildcards *wc);

/* Sets WC to every field a datapath key for FLOW has, as 3.1's exact
 * flows (megaflows disabled) match: the metadata, the packet type, the
 * Ethernet header and VLANs the packet has, and its L3, L4 (with TCP
 * flags) and ND fields. */
void odp_flow_wildcards_for_packet(const struct flow *,
                                   struct flow_wildcards *wc);

/* Actions.  Formatting tolerates malformed lists (prints what it can and
 * marks the rest); parsing appends attributes to ACTIONS. */
void odp_actions_format(const struct nlattr *actions, size_t actions_len,
                        const struct odp_port_names *, struct ds *);
char *odp_actions_from_string(const char *, const struct odp_port_names *,
                              struct ofpbuf *actions)
    OVS_WARN_UNUSED_RESULT;

/* Userspace-only actions (no kernel sees them; 3.1 numbers its own past
 * the kernel's list, these are past any kernel's):
 *
 *   TUNNEL_PUSH   struct tnl_push_action (tnl-header.h) up to its header,
 *                 then header_len bytes of header: "tnl_push(tnl_port(N),
 *                 header(...),out_port(N))": prepend the outer header in
 *                 place (the following actions output the packets;
 *                 out_port names the route's device, for reading)
 *   TUNNEL_POP    u32 port: "tnl_pop(N)": strip the outer header of the
 *                 tunnel type of datapath port N, fill the tunnel metadata
 *                 and run the packet through the datapath again as
 *                 received on port N */
/* The symmetric L4 hash algorithm of the HASH action: 3.1 numbers it 1,
 * after OVS_HASH_ALG_L4; older kernel headers do not name it. */
#define ODP_HASH_ALG_SYM_L4 1

#define OVS_ACTION_ATTR_TUNNEL_PUSH 100
#define OVS_ACTION_ATTR_TUNNEL_POP 101

/*   DROP          u32 reason (enum odp_drop_reason): "drop": the packets
 *                 go no further, counted in the coverage counter of the
 *                 reason (3.1's names, drop_action_*: its explicit drop
 *                 action).  It is the only action of its list (validation
 *                 says so; its text "drop" parses back as the empty
 *                 list, which drops too, uncounted).  Translation
 *                 puts one where 3.1 tests read the counter (a tunnel
 *                 packet marked ECN CE that is not ECN-capable); other
 *                 drops are the empty list, which also prints "drop". */
#define ODP_ACTION_ATTR_DROP 102

/*   LB_OUTPUT     u32 bond id: "lb_output(ID)": each packet leaves by the
 *                 member port of its bucket (flow hash & 0xff) in the
 *                 datapath's bond ID (dpif.h, "Bonds"). */
#define ODP_ACTION_ATTR_LB_OUTPUT 103

/* 3.1's enum xlate_error, the numbers its drop action carries. */
enum odp_drop_reason {
    ODP_DROP_OF_PIPELINE = 0,           /* The rules said so. */
    ODP_DROP_BRIDGE_NOT_FOUND,
    ODP_DROP_RECURSION_TOO_DEEP,
    ODP_DROP_TOO_MANY_RESUBMIT,
    ODP_DROP_STACK_TOO_DEEP,
    ODP_DROP_NO_RECIRCULATION_CONTEXT,
    ODP_DROP_RECIRCULATION_CONFLICT,
    ODP_DROP_TOO_MANY_MPLS_LABELS,
    ODP_DROP_INVALID_TUNNEL_METADATA,
    ODP_DROP_UNSUPPORTED_PACKET_TYPE,
    ODP_DROP_CONGESTION,
    ODP_DROP_FORWARDING_DISABLED,
    ODP_DROP_N_REASONS
};
void odp_put_drop_action(struct ofpbuf *actions, enum odp_drop_reason);

struct tnl_push_action;
/* Appends a tnl_push of DATA (DATA->header_len bytes of header). */
void odp_put_tnl_push_action(struct ofpbuf *actions,
                             const struct tnl_push_action *data);
void odp_put_tnl_pop_action(struct ofpbuf *actions, uint32_t port);

/* Whether ACTIONS_LEN bytes at ACTIONS are a well-formed action list:
 * whole attributes, known types with the right argument sizes, nested
 * lists well formed too.  On failure, *ERROR (if nonnull) gets a malloc'd
 * reason.  The executor runs only validated lists. */
bool odp_actions_validate(const struct nlattr *actions, size_t actions_len,
                          char **error);

/* Userspace action cookies
 * ========================
 *
 * The userdata of a "userspace" action the switch composes says why the
 * packet comes up: 3.1's kinds, printed as 3.1 prints them:
 *
 *   slow_path(REASONS)     the flow is handled packet by packet in
 *                          userspace (REASONS: names of SLOW_* bits, or 0)
 *   controller(reason=N,dont_send=N,continuation=N,recirc_id=N,
 *              rule_cookie=0xN,controller_id=N,max_len=N)
 *                          a packet for the controller; recirc_id names the
 *                          frozen translation state (ofproto/recirc.h)
 *
 * A cookie is a fixed-size struct in host byte order (it never leaves the
 * process); userdata of any other size prints as userdata(HEX). */

/* Why a flow is slow-pathed (3.1's reasons, names and descriptions). */
#define SLOW_PATH_REASONS                                               \
    SPR(SLOW_CFM, 0, "cfm", "Consists of CFM packets")                  \
    SPR(SLOW_BFD, 1, "bfd", "Consists of BFD packets")                  \
    SPR(SLOW_LACP, 2, "lacp", "Consists of LACP packets")               \
    SPR(SLOW_STP, 3, "stp", "Consists of STP packets")                  \
    SPR(SLOW_LLDP, 4, "lldp", "Consists of LLDP packets")               \
    SPR(SLOW_ACTION, 5, "action",                                       \
        "Uses action(s) not supported by datapath")                     \
    SPR(SLOW_MATCH, 6, "match", "Datapath can't match specifically enough")

enum slow_path_reason {
#define SPR(ENUM, BIT, NAME, EXPLANATION) ENUM = 1 << BIT,
    SLOW_PATH_REASONS
#undef SPR
};

/* The name ("action") and the explanation of the single reason BIT. */
const char *slow_path_reason_name(enum slow_path_reason);
const char *slow_path_reason_explain(enum slow_path_reason);

enum odp_cookie_type {
    ODP_COOKIE_SLOW_PATH = 1,
    ODP_COOKIE_CONTROLLER = 2,
};

struct odp_cookie {
    uint16_t type;                  /* enum odp_cookie_type. */
    uint16_t pad;
    union {
        struct {
            uint32_t reason;        /* SLOW_* bits. */
        } slow_path;
        struct {
            uint8_t dont_send;
            uint8_t continuation;
            uint16_t reason;        /* OFPR_*. */
            uint32_t recirc_id;
            uint32_t rule_cookie[2];/* ovs_be64, 4-byte aligned. */
            uint16_t controller_id;
            uint16_t max_len;
        } controller;
    };
};

/* Appends a userspace action with pid 0 and COOKIE as its userdata. */
void odp_put_userspace_cookie(struct ofpbuf *actions,
                              const struct odp_cookie *);
/* Reads USERDATA_LEN bytes of userdata as a cookie into *COOKIE; false if
 * they are not one. */
bool odp_cookie_from_userdata(const void *userdata, size_t userdata_len,
                              struct odp_cookie *);

/* Appends to ACTIONS a set of the datapath key TYPE
 * (OVS_KEY_ATTR_ETHERNET, IPV4, IPV6, TCP, UDP, SCTP, ICMP, ICMPV6, ARP,
 * ND) to the fields of VALUE under MASK: a plain set when MASK covers every
 * field of the key, else a masked one (value bits outside MASK zero). */
void odp_put_set_action(struct ofpbuf *actions, uint16_t type,
                        const struct flow *value, const struct flow *mask);

/* The names of OVS_FRAG_TYPE_* ("no", "first", "later") and the
 * conversion from nw_frag bits. */
uint8_t odp_frag_type_from_nw_frag(uint8_t nw_frag);
uint8_t odp_nw_frag_from_frag_type(uint8_t frag_type);

#endif /* odp-util.h */
