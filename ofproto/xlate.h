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
 * NORMAL is the learning switch (mac-learning.h): it learns the source
 * address on the input bundle's VLAN when XIN->may_learn, then sends to
 * the learned bundle of the destination or floods the VLAN, tagging and
 * untagging per each bundle's VLAN mode (ofproto.h).
 *
 * Side effects are explicit in XIN: may_learn (MAC learning), stats
 * (credited to every rule the translation went through: the handler's
 * first packet, a revalidator's pushed deltas) and trace (a text account
 * for ofproto/trace).  Without them translation only reads.
 *
 * Threads: any thread, with xlate_rwlock held for reading and inside an
 * RCU read period (ofproto-private.h). */
#ifndef OFPROTO_XLATE_H
#define OFPROTO_XLATE_H 1

#include <stdbool.h>
#include <stdint.h>
#include "flow.h"
#include "ofpbuf.h"

struct ds;
struct ofpact;
struct ofproto;

#define XLATE_MAX_RESUBMIT_DEPTH 64

struct xlate_in {
    struct ofproto *ofproto;
    struct flow flow;           /* in_port: OpenFlow port number. */
    bool may_learn;
    uint64_t n_packets, n_bytes;    /* Credited to the rules, if nonzero. */
    long long int used;
    struct ds *trace;           /* ofproto/trace's account, or NULL. */
    /* Packet-out: run these instead of looking up table 0. */
    const struct ofpact *ofpacts;
    size_t ofpacts_len;         /* Bytes. */
};

struct xlate_out {
    struct flow_wildcards wc;
    struct ofpbuf odp_actions;
    uint64_t odp_actions_stub[256 / 8];
    struct flow final_flow;     /* The flow after every action. */
};

/* The userdata of the "userspace" datapath action that sends a packet to
 * the controller (an output to CONTROLLER, a controller action, a table
 * miss, a TTL that ran out): what the packet-in will say.  The handler
 * that receives the packet (upcall.c) turns it into an ofproto event.
 * Plain host-order bytes: it never leaves this process. */
#define XLATE_PIN_MAGIC 0x50494e31      /* "PIN1". */
struct xlate_pin_cookie {
    uint32_t magic;
    uint32_t ofproto_id;        /* struct ofproto's 'id'. */
    uint32_t in_port;           /* OpenFlow port number. */
    uint16_t max_len;           /* UINT16_MAX: the connection decides. */
    uint16_t controller_id;
    uint8_t reason;             /* OFPR_*, OFPR_IMPLICIT_MISS for a miss. */
    uint8_t table_id;
    uint8_t pad[2];
    ovs_be64 cookie;            /* The rule's; all ones for a miss. */
    ovs_be64 metadata;
    uint32_t regs[FLOW_N_REGS];
    ovs_be32 packet_type;
    uint8_t pad2[4];
};

void xlate_out_init(struct xlate_out *);
void xlate_out_uninit(struct xlate_out *);
void xlate_actions(const struct xlate_in *, struct xlate_out *);

#endif /* ofproto/xlate.h */
