/* tree-member: what the two spanning trees in the switch (STP,
 * ofproto/stp-member.h; RSTP, ofproto/rstp-member.h) share: a bridge's
 * engine behind one mutex, and its ports as per-port protocols
 * (lib/port-protocol.h) that run by the same rules.
 *
 *   - Translation (or the datapath's control-packet sink) hands a member
 *     the BPDUs that arrive on its port, whatever the port's state
 *     (tree_member_recognizes()).
 *   - One member, the driver, runs the engine's timers from the schedule
 *     on the monitor thread; the others run only to send what the engine
 *     composed for their port meanwhile, so a hello costs one engine run
 *     per bridge, not one per port.
 *   - After every event (a timer, a BPDU, a configuration or link change,
 *     a command) the engine module reports each port whose state changed
 *     (tree_member_set_state()): the member queues itself on the change
 *     queue, and the main thread, taking it, logs the change ("port P:
 *     RSTP state changed from A to B", module ofproto_dpif, as 3.1 logs
 *     it), rereads may_forward()/may_learn(), and forgets the addresses
 *     the port learned if its learning started or stopped (as 3.1 does)
 *     or the engine asked for a flush.
 *
 * So a quiet tree costs one timer per hello time per bridge on the monitor
 * thread, and nothing on the main thread.
 *
 * An engine module embeds struct tree_bridge and struct tree_member in its
 * own structures, fills a struct tree_class, and builds its port protocol
 * class with TREE_PROTOCOL_CLASS.
 *
 * Threads and memory: the main thread creates, configures and destroys
 * bridges and members; it detaches a member from its port (ofproto) before
 * destroying it, and destroys a bridge after its members.  The bridge's
 * mutex guards the engine and the fields marked so, which the monitor,
 * handler and datapath threads reach through the members. */
#ifndef OFPROTO_TREE_MEMBER_H
#define OFPROTO_TREE_MEMBER_H 1

#include <stdbool.h>
#include <stddef.h>
#include "dp-packet.h"
#include "hmap.h"
#include "list.h"
#include "ovs-thread.h"
#include "packets.h"
#include "port-protocol.h"

struct ds;
struct tree_bridge;
struct tree_member;

struct tree_class {
    const char *name;                   /* "STP", "RSTP". */
    const char *(*state_name)(int state);

    /* The rest run with the bridge's mutex held. */

    /* Runs the engine's timers at NOW (ms); returns when it must run
     * next (LLONG_MAX: not before some event). */
    long long int (*run)(struct tree_bridge *, long long int now);
    /* FRAME (LEN bytes, Ethernet header on) arrived on M's port. */
    void (*receive)(struct tree_member *m, const void *frame, size_t len);
    /* Reports what the engine changed since last asked, through
     * tree_member_set_state() and tree_member_flush(). */
    void (*take_changes)(struct tree_bridge *);
    /* M's link went up or down. */
    void (*set_link)(struct tree_member *m, bool up);
    /* Takes M out of the engine (M is destroyed next). */
    void (*remove)(struct tree_member *m);
    /* Frees the module's structure around M (mutex not held). */
    void (*free)(struct tree_member *m);

    /* ovs-appctl PREFIX/show [BRIDGE] and PREFIX/tcn [BRIDGE], registered
     * with the class's first bridge; an unknown bridge gets NO_SUCH (each
     * in 3.1's words).  FORMAT appends the bridge's report, and
     * DETECT_TOPOLOGY_CHANGE makes the engine announce a topology change
     * (both with the mutex held). */
    const char *command_prefix;
    const char *no_such;
    void (*format)(struct tree_bridge *, struct ds *);
    void (*detect_topology_change)(struct tree_bridge *);
};

struct tree_bridge {
    const struct tree_class *class;
    struct ovs_list node;           /* All bridges (main thread). */
    char *name;
    struct ovs_mutex mutex;
    struct hmap members;            /* By port_num (mutex). */
    struct tree_member *driver;     /* Runs the engine's timers (mutex). */
    /* While the driver runs: where frames for its own port go (mutex). */
    struct dp_packet_batch *running_out;
    bool flush;                     /* Forget every address (mutex). */
};

struct tree_member {
    struct port_protocol up;
    struct tree_bridge *br;
    struct hmap_node node;          /* In br->members (mutex). */
    char *name;
    int port_num;                   /* The engine's port number. */
    struct eth_addr mac;            /* Source of its frames. */
    bool link;                      /* Main thread. */

    /* Mutex. */
    int state;                      /* As last reported. */
    long long int state_since;      /* time_msec() when it began. */
    int log_from[8], log_to[8];     /* Changes not logged yet. */
    size_t n_log;
    bool may_forward, may_learn;
    bool flush;                     /* Forget the port's addresses. */
    struct dp_packet_batch pending; /* Frames composed while another
                                     * member ran the engine. */
};

/* Bridge NAME of CLASS with no members (main thread: it registers the
 * class's commands the first time). */
void tree_bridge_init(struct tree_bridge *, const struct tree_class *,
                      const char *name);
/* After its last member is gone. */
void tree_bridge_destroy(struct tree_bridge *);

/* With the mutex held, after the engine may have changed: reports the
 * changes and reschedules the driver for the engine's next timer. */
void tree_bridge_settle(struct tree_bridge *);

/* With the mutex held: sends FRAME (which this takes) out of member
 * PORT_NUM's port, or deletes it if there is no such member. */
void tree_bridge_send(struct tree_bridge *, int port_num, struct dp_packet *);
struct tree_member *tree_bridge_find(const struct tree_bridge *,
                                     int port_num);
/* With the mutex held: the members sorted by port number, in a malloc'd
 * array for the caller to free; returns their number. */
size_t tree_bridge_sorted_members(const struct tree_bridge *,
                                  struct tree_member ***members);
/* With the mutex held: every address the bridge learned goes. */
void tree_bridge_flush(struct tree_bridge *);

/* With the mutex held: M, of protocol CLASS, joins BR as port PORT_NUM
 * (which no member of BR has) in STATE; OWNER is its change-queue owner
 * (the bridge's interface). */
void tree_member_init(struct tree_member *m, struct tree_bridge *br,
                      const struct port_protocol_class *class,
                      const char *name, int port_num, struct eth_addr mac,
                      int state, void *owner);
/* With the mutex held: the engine reports M's STATE, and whether it may
 * forward and learn in it, because something about the port changed (its
 * role, say): M is queued whether or not these did, so that its status is
 * written again. */
void tree_member_set_state(struct tree_member *, int state, bool may_forward,
                           bool may_learn);
/* With the mutex held: the addresses M's port learned go. */
void tree_member_flush(struct tree_member *);

/* Main thread: M's link is up (both link and administrative state) or
 * down. */
void tree_member_set_link(struct tree_member *, bool up);
/* Main thread: takes M out of its tree and frees it (NULL: nothing).  M
 * must be detached from its port. */
void tree_member_destroy(struct tree_member *);
struct port_protocol *tree_member_protocol(struct tree_member *);
/* Whether M (NULL: none) is one of BR's (NULL: none) members. */
bool tree_member_in(const struct tree_member *m, const struct tree_bridge *br);
const struct tree_class *tree_member_class(const struct tree_member *);

/* The per-port protocol's functions, the same for both trees. */
bool tree_member_recognizes(const struct port_protocol *, const struct flow *,
                            struct flow_wildcards *);
void tree_member_receive(struct port_protocol *, const struct flow *,
                         const struct dp_packet *);
long long int tree_member_run(struct port_protocol *, long long int now,
                              const struct eth_addr port_mac,
                              struct dp_packet_batch *out);
bool tree_member_may_forward(const struct port_protocol *);
bool tree_member_may_learn(const struct port_protocol *);
enum port_protocol_flush tree_member_take_mac_flush(struct port_protocol *);
void tree_member_main_changed(struct port_protocol *);

#define TREE_PROTOCOL_CLASS(NAME, BLOCK_NAME)           \
    {                                                   \
        .name = NAME,                                   \
        .slow_reason = SLOW_STP,                        \
        .recognizes = tree_member_recognizes,           \
        .receive = tree_member_receive,                 \
        .run = tree_member_run,                         \
        .may_forward = tree_member_may_forward,         \
        .may_learn = tree_member_may_learn,             \
        .block_name = BLOCK_NAME,                       \
        .take_mac_flush = tree_member_take_mac_flush,   \
        .main_changed = tree_member_main_changed,       \
    }

/* For stp/show and rstp/show: BRIDGE_ID's lines (priority, system id,
 * times in seconds), as 3.1 prints them; its two commands put PAD spaces
 * after "stp-priority". */
void tree_format_bridge_id(struct ds *, uint64_t bridge_id, int pad,
                           int hello_time, int max_age, int forward_delay);

#endif /* ofproto/tree-member.h */
