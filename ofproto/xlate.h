/* xlate: translation of a packet through a bridge's OpenFlow tables into
 * datapath actions.
 *
 * Given a flow (in_port as an OpenFlow port number), xlate_actions() looks
 * the flow up in table 0, runs the rule's actions (and those of the rules
 * that resubmit leads to, up to XLATE_MAX_RESUBMIT_DEPTH deep), and writes
 * the datapath actions that do the same to a packet: outputs (with the VLAN
 * and Ethernet changes made so far committed just before each), and
 * nothing at all for a drop.  Alongside, it collects in XOUT->wc every bit
 * of the flow that any decision looked at (each lookup's wildcards, the
 * fields NORMAL and actions examined), so the megaflow installed is as
 * wide as the rules allow.
 *
 * Output to a patch port (ofport-patch.h) goes on in the peer's bridge,
 * with that bridge's tables, as 3.1 does (xlate.c, "Patch ports"); both
 * bridges share the datapath, so it all ends in one list of actions.
 *
 * NORMAL is the learning switch (mac-learning.h): it learns the source
 * address on the input bundle's VLAN when XIN->may_learn, then sends to
 * the learned bundle of the destination or floods the VLAN, tagging and
 * untagging per each bundle's VLAN mode (ofproto.h).
 *
 * Per-port protocols (port-protocol.h): a packet that one of the protocols
 * attached to its input port recognises is that protocol's, not the
 * tables': translation hands it over (when XIN->packet is there) and
 * slow-paths the datapath flow for the protocol, so that every such packet
 * comes up.  Translation asks each attached protocol the same question and
 * knows none of them by name.
 *
 * Side effects are explicit in XIN: may_learn (MAC learning), stats
 * (credited to every rule the translation went through: the handler's
 * first packet, a revalidator's pushed deltas), packet (protocols' control
 * packets) and trace (the account ofproto/trace prints, xlate-trace.h).
 * Without them translation only reads.
 *
 * Threads: any thread, with xlate_rwlock held for reading and inside an
 * RCU read period (ofproto-private.h). */
#ifndef OFPROTO_XLATE_H
#define OFPROTO_XLATE_H 1

#include <stdbool.h>
#include <stdint.h>
#include "flow.h"
#include "list.h"
#include "ofp-actions.h"
#include "ofp-errors.h"
#include "odp-util.h"
#include "ofpbuf.h"
#include "recirc.h"

struct dp_packet;
struct ofpact;
struct xtrace;
struct ofproto;

#define XLATE_MAX_RESUBMIT_DEPTH 64
/* Table lookups in one translation, at most (3.1's limit). */
#define XLATE_MAX_RESUBMITS 4096

struct xlate_in {
    struct ofproto *ofproto;
    struct flow flow;           /* in_port: OpenFlow port number. */
    bool may_learn;
    uint64_t n_packets, n_bytes;    /* Credited to the rules, if nonzero. */
    long long int used;
    struct xtrace *trace;       /* ofproto/trace's account, or NULL. */
    /* The packet itself, when there is one to act on: a per-port
     * protocol's control packet (port-protocol.h) goes to the protocol. */
    const struct dp_packet *packet;
    /* A per-port protocol's own transmission (ofport_send_packet()): a
     * port's spanning tree state does not hold it back. */
    bool control;
    /* Packet-out: run these instead of looking up table 0. */
    const struct ofpact *ofpacts;
    size_t ofpacts_len;         /* Bytes. */
    /* ofproto/trace: where each ct(table=N) appends a struct
     * xlate_ct_recirc, so that the trace can follow the tracked copy of
     * the packet (NULL: nobody follows). */
    struct ovs_list *ct_recircs;
};

/* A copy of the packet that ct(table=N) sent back through the datapath,
 * as a trace follows it: FLOW is the packet's at the ct() with its
 * recirc_id and ct_zone; NAT, if HAS_NAT, what the ct() translated with.
 * The node holds a reference to RECIRC_ID (recirc.h); the trace frees
 * it with xlate_ct_recirc_destroy(). */
struct xlate_ct_recirc {
    struct ovs_list node;
    uint32_t recirc_id;
    struct flow flow;
    bool has_nat;
    struct ofpact_nat nat;
};
void xlate_ct_recirc_destroy(struct xlate_ct_recirc *);

struct xlate_out {
    struct flow_wildcards wc;
    struct ofpbuf odp_actions;
    uint64_t odp_actions_stub[256 / 8];
    struct flow final_flow;     /* The flow after every action. */
    /* Nonzero: the datapath cannot carry out 'odp_actions' (SLOW_*
     * reasons, odp-util.h), so the flow installed sends each packet up to
     * be translated and executed in userspace (xlate_install_actions()). */
    enum slow_path_reason slow;
    /* References to the recirculation ids the actions use or the flow's
     * recirc_id names: the datapath flow's holder keeps them as long as
     * it keeps the flow (recirc.h); xlate_out_uninit() releases what is
     * left here. */
    struct recirc_refs recircs;
};

/* Whether translation carries out every action in the list (nested lists
 * included): 0, or OFPBAC_BAD_TYPE for the first it does not (NSH,
 * encap/decap, sample, conjunction, fin_timeout, check_pkt_larger),
 * logged.  The switch refuses flow_mods, packet_outs and group buckets
 * with such actions rather than accept them and drop what they mean. */
enum ofperr xlate_check_actions(const struct ofpact *, size_t ofpacts_len);

void xlate_out_init(struct xlate_out *);
void xlate_out_uninit(struct xlate_out *);
void xlate_actions(const struct xlate_in *, struct xlate_out *);
/* Turns WC, the wildcards xlate_actions() gathered translating XIN (as
 * ofproto/trace shows them), into the mask of the datapath flow: for a
 * packet with raw Geneve options, about the options as the datapath has
 * them (tun_md_wc_to_udpif()).  Under xlate_rwlock, like XIN's
 * translation. */
void xlate_wc_to_datapath(const struct xlate_in *, struct flow_wildcards *);

/* The actions of the datapath flow for XOUT: its actions, or for a
 * slow-pathed one a userspace action with a slow_path cookie, appended to
 * ACTIONS. */
void xlate_install_actions(const struct xlate_out *, struct ofpbuf *actions);

/* What the frozen state of a packet for the controller says (recirc.h):
 * the bridge, the table and rule cookie, the packet's metadata as the
 * actions left it (the OpenFlow in_port, the packet type, tunnel,
 * metadata, registers, pkt_mark; the rest zero) and the controller
 * action's userdata, which the caller frees. */
struct frozen_packet_in {
    struct ofproto *ofproto;
    uint8_t table_id;
    ovs_be64 rule_cookie;
    struct flow metadata;
    bool conntracked;           /* The packet's ct_* fields are the
                                 * pipeline's at the controller action
                                 * (else they read as zero). */
    void *userdata;
    size_t userdata_len;
};

/* Fills *PIN from the state of recirculation id ID; false if ID names none
 * or its bridge is gone.  xlate_rwlock held for reading. */
bool xlate_frozen_packet_in(uint32_t id, struct frozen_packet_in *pin);

/* A recirculation id whose packets, when they come back, are looked up in
 * OFPROTO's internal table (OFPROTO_INTERNAL_TABLE) with nothing else of
 * the pipeline (every register and metadata zero, in_port OFPP_NONE), as
 * 3.1's bonds recirculate.  OWNER (a bond's name) makes the id its own:
 * two owners never share one.  The caller holds the reference and
 * releases it with recirc_unref_id().  Any thread. */
uint32_t xlate_alloc_internal_recirc_id(const struct ofproto *ofproto,
                                        const char *owner);

#endif /* ofproto/xlate.h */
