/* port-protocol: the one interface of the per-port protocols (BFD, CFM,
 * and in time LACP, STP, RSTP, LLDP), and the two structures that let them
 * scale: a timer schedule and a change queue.
 *
 * A protocol instance (struct port_protocol, embedded in the module's own
 * struct, such as struct bfd) watches one port of one bridge.  ofproto
 * drives every instance the same way, through its class, and knows no
 * protocol by name:
 *
 *   recognise  Translation asks each instance attached to the input port
 *              whether a packet is one of its control packets
 *              (class->recognizes(), which marks in the megaflow the fields
 *              it looked at).  A recognised packet is consumed: when the
 *              packet itself is at hand (a handler's upcall, or the
 *              monitor's own transmission arriving through a patch port)
 *              it goes to class->receive(), and the datapath flow is
 *              slow-pathed with class->slow_reason.  The datapath offers
 *              the next ones to the monitor's control-packet sink
 *              (dpif.h, ofproto/monitor.c), which asks recognizes() again
 *              (wildcards NULL) and calls receive() on the datapath's
 *              thread, with no upcall.
 *
 *   transmit   One schedule, a min-heap by deadline, holds every attached
 *              instance.  The monitor thread (ofproto/monitor.h) sleeps
 *              until the earliest deadline and runs only the instances due
 *              (class->run()), which compose what they send and return
 *              their next deadline.  A module that must run sooner (a poll
 *              to answer, a changed interval) calls
 *              port_protocol_schedule() from any thread.
 *
 *   report     A module whose visible state changed (a session came up, a
 *              fault appeared) calls port_protocol_changed(): the instance
 *              goes on the change queue, once however often it changes
 *              before it is taken, and connectivity_seq moves.  The main
 *              thread takes the queue (port_protocol_take_changed()) and
 *              updates liveness and the database for those instances
 *              only.
 *
 * So nothing sweeps the instances: an idle switch with ten thousand BFD
 * sessions costs its main thread nothing, and each monitor wake-up costs
 * the sessions that are due.
 *
 * Threads and memory
 * ------------------
 *
 * A module creates and frees its instances on the main thread, and owns
 * them.  ofproto attaches an instance to a port (port_protocol_attach(),
 * which puts it in the schedule) and detaches it (port_protocol_detach(),
 * which takes it out of the schedule and the change queue) with its
 * translation lock held for writing; translators and the monitor use
 * instances only with that lock held for reading.  So once detached an
 * instance is referenced by no other thread and its module may free it.
 *
 * class->recognizes() may run on any translating thread and on the
 * datapath's threads (through the control-packet sink, with no
 * wildcards), class->receive() on handler threads, the monitor thread and
 * the datapath's threads, class->run() on the
 * monitor thread, all concurrently with the main thread reading status:
 * the module guards its instance state with its own lock.  The schedule
 * and the change queue each have a mutex of their own, never held while a
 * class function runs, so a class function may call
 * port_protocol_schedule() and port_protocol_changed(). */
#ifndef PORT_PROTOCOL_H
#define PORT_PROTOCOL_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "heap.h"
#include "list.h"
#include "odp-util.h"
#include "packets.h"

struct dp_packet;
struct dp_packet_batch;
struct flow;
struct flow_wildcards;
struct port_protocol;
struct seq;

/* What the bridge must forget of the addresses it learned. */
enum port_protocol_flush {
    PORT_PROTOCOL_FLUSH_NONE,
    PORT_PROTOCOL_FLUSH_PORT,       /* Those learned on this port. */
    PORT_PROTOCOL_FLUSH_BRIDGE,     /* All of them. */
};

struct port_protocol_class {
    const char *name;                   /* "bfd", "cfm", ... */
    enum slow_path_reason slow_reason;  /* SLOW_BFD, SLOW_CFM, ... */

    /* Whether FLOW, which arrived on P's port, is one of P's control
     * packets.  Sets in WC (if nonnull) every bit of FLOW it examined. */
    bool (*recognizes)(const struct port_protocol *p, const struct flow *,
                       struct flow_wildcards *wc);

    /* A recognised packet: FLOW is its parsed form, PACKET its bytes. */
    void (*receive)(struct port_protocol *p, const struct flow *,
                    const struct dp_packet *packet);

    /* P's deadline has come (NOW >= it): does what is due (transmit,
     * expire timers), adding the packets to send out of P's port to OUT,
     * an empty batch (heap-allocated with dp_packet_new*(); the caller
     * sends and deletes them), and returns the next deadline (LLONG_MAX:
     * none).  PORT_MAC is the port's Ethernet address. */
    long long int (*run)(struct port_protocol *p, long long int now,
                         const struct eth_addr port_mac,
                         struct dp_packet_batch *out);

    /* Whether the protocol lets the port carry traffic (BFD forwarding,
     * no CFM fault).  NULL: it has no say. */
    bool (*link_ok)(const struct port_protocol *p);

    /* A spanning tree's port state (STP, RSTP): whether the port may
     * carry data, and whether what it receives may teach NORMAL where
     * addresses are.  NULL: no say.  ofproto rereads them when the
     * instance comes off the change queue, so a module changes them only
     * with port_protocol_changed().  A port that may not forward still
     * sends and receives its protocols' control packets.  BLOCK_NAME is
     * what translation's notes call the protocol ("STP not in forwarding
     * state, skipping output"). */
    bool (*may_forward)(const struct port_protocol *p);
    bool (*may_learn)(const struct port_protocol *p);
    const char *block_name;

    /* Whether the protocol saw a topology change since last asked (check
     * and clear), so that the bridge must forget the addresses it learned
     * on this port or on all ports.  NULL: never.  Asked when the instance
     * comes off the change queue. */
    enum port_protocol_flush (*take_mac_flush)(struct port_protocol *p);

    /* Main thread, when the instance comes off the change queue, before
     * ofproto rereads it: whatever the module does there (log what
     * changed, as 3.1 logs it from its main thread).  NULL: nothing. */
    void (*main_changed)(struct port_protocol *p);
};

/* The part of an instance this module and ofproto use; the module embeds
 * it and leaves it alone after port_protocol_init(). */
struct port_protocol {
    const struct port_protocol_class *class;
    void *owner;                /* The module's user's (the bridge's
                                 * interface), for the change queue. */
    void *port;                 /* ofproto's, while attached; else NULL. */

    /* Schedule (schedule mutex). */
    struct heap_node sched_node;
    long long int deadline;     /* Wanted while not attached or running. */
    bool running;               /* Taken by the monitor right now. */

    /* Change queue (queue mutex). */
    struct ovs_list changed_node;
    bool queued;
};

/* Initializes P of CLASS for OWNER: not attached, not queued, and with
 * no deadline (the module asks for its first run with
 * port_protocol_schedule()). */
void port_protocol_init(struct port_protocol *,
                        const struct port_protocol_class *, void *owner);

/* The schedule. */

/* Asks that P run no later than WHEN (any thread).  An earlier deadline
 * it already has stands. */
void port_protocol_schedule(struct port_protocol *, long long int when);

/* ofproto, with its translation lock held for writing: P (not attached)
 * joins the schedule at its deadline, with PORT as its port; or leaves
 * the schedule and the change queue.  Detaching an instance that is not
 * attached takes it off the change queue only (its module does that
 * before freeing it, since it may have queued itself before attachment). */
void port_protocol_attach(struct port_protocol *, void *port);
void port_protocol_detach(struct port_protocol *);

/* The monitor: fills DUE with up to MAX attached instances whose deadline
 * is at most NOW, earliest first, and returns how many.  Each is the
 * monitor's until it hands it back with port_protocol_put_back() and its
 * next deadline (a schedule() meanwhile for an earlier time wins). */
size_t port_protocol_take_due(long long int now, struct port_protocol **due,
                              size_t max);
void port_protocol_put_back(struct port_protocol *, long long int next);
/* Whether nothing is due at the current time_msec() and the monitor runs
 * nothing: what a simulated clock's warp waits for before its next step
 * (timeval_add_warp_gate()). */
bool port_protocol_settled(void);
/* The earliest deadline in the schedule, LLONG_MAX if none. */
long long int port_protocol_next_deadline(void);
/* Changes when an instance's deadline moves earlier than it was (the
 * monitor waits on it along with its timer). */
struct seq *port_protocol_schedule_seq(void);

/* The change queue. */

/* P's visible state changed (any thread): queues it and moves
 * connectivity_seq. */
void port_protocol_changed(struct port_protocol *);
/* Main thread: empties the queue into a malloc'd array of the queued
 * instances, in the order they were queued, stored in *CHANGED for the
 * caller to free; returns their number.  An instance that changes again
 * afterwards is queued again. */
size_t port_protocol_take_changed(struct port_protocol ***changed);

/* The override argument of the modules' test commands (bfd/set-forwarding,
 * cfm/set-fault): "true" 1, "false" 0, "normal" -1 (case does not
 * matter).  Returns false for anything else. */
bool port_protocol_parse_override(const char *s, int *override);

/* The first instance in PROTOCOLS[] whose port state forbids forwarding,
 * or NULL; and whether none forbids learning. */
const struct port_protocol *port_protocols_forward_blocker(
    struct port_protocol *const *protocols, size_t n);
bool port_protocols_may_learn(struct port_protocol *const *protocols,
                              size_t n);

/* Whether the attached instances in PROTOCOLS[] allow traffic: true if
 * none has a say, else if any of those that do allows it (as in 3.1, a
 * port with both BFD and CFM carries traffic while either is happy). */
bool port_protocols_link_ok(struct port_protocol *const *protocols,
                            size_t n);

#endif /* port-protocol.h */
