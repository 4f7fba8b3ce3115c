/* dpif: the datapath interface.
 *
 * A datapath moves packets between its ports according to flows installed
 * from above, and hands up (an "upcall") every packet that no flow
 * matches or whose actions say "userspace".  ofproto (the OpenFlow
 * switch, its upcall handler and revalidator threads) and ovs-dpctl talk
 * to any datapath through this interface; each type of datapath is one
 * provider (dpif-provider.h):
 *
 *   "netdev"   the userspace datapath (dpif-netdev.c), living in this
 *              process, forwarding between netdevs with its own receive
 *              threads.  Open vSwitch calls its userspace datapath type
 *              "netdev" too.
 *   "system"   a kernel datapath, reached over Netlink: not provided (no
 *              openvswitch module here), but nothing below assumes the
 *              datapath is in this process: keys cross as struct flow and
 *              struct flow_wildcards (a kernel provider would convert them
 *              to OVS_KEY_ATTR_* attributes), actions as Netlink attributes
 *              numbered as <linux/openvswitch.h>'s OVS_ACTION_ATTR_*, and
 *              upcalls as views of the packet, key, hash and layer offsets.
 *
 * Names and lifetime.  Datapaths have names unique per type ("ovs-netdev",
 * "br0").  dpif_create() makes a datapath, dpif_open() opens an existing
 * one; either returns a handle that dpif_close() gives back.  A datapath
 * lives until dpif_delete() (closing the last handle does not destroy
 * it).  Port numbers: port 0 is the datapath's local port, named after the
 * datapath (type "internal"); others are numbered from 1.
 *
 * Flows.  A flow is a key under a mask (a megaflow) with actions.  The
 * key's bits outside the mask are ignored.  dpif_flow_put() creates or
 * modifies (DPIF_FP_*), dpif_flow_del() deletes, dpif_flow_get() reads
 * one, dpif_flow_flush() deletes all.  A dump (dpif_flow_dump_*) walks
 * every flow with its statistics; it may be advanced by several threads
 * at once (each with its own dump thread), each call returning a few flows,
 * and flows added or deleted meanwhile may or may not be seen, but one
 * present throughout is seen once.
 *
 * Upcalls.  dpif_handlers_set(N) makes handlers 0..N-1.  Each handler
 * thread calls dpif_recv() with its id to take up to DPIF_RECV_MAX
 * upcalls at once, reads them in place (they stay valid until that
 * handler's next dpif_recv() or dpif_recv_release()), and sleeps with
 * dpif_recv_wait() + poll_block().  Every port has one upcall channel that
 * all handlers share (dpif-channel.h): channels are served round-robin,
 * one sleeping handler is woken per channel that becomes ready, and a
 * full channel loses the upcall and counts it on the port and datapath.
 *
 * Control-packet sink.  A slow-pathed flow's packet (a userspace action
 * whose cookie is ODP_COOKIE_SLOW_PATH) whose reasons are only per-port
 * protocols' (SLOW_CFM, SLOW_BFD, SLOW_LACP, SLOW_STP, SLOW_LLDP, see
 * DPIF_CONTROL_SLOW_REASONS) is offered first to the sink registered with
 * dpif_set_control_sink(), on the thread executing the flow's actions
 * (a receive thread, or whichever thread called dpif_execute()/
 * dpif_operate()), inside the datapath's own lock-free read section.  A
 * sink that consumes it returns true and no upcall is queued; false sends
 * it up as before.  So a switch's steady BFD/CFM traffic costs neither a
 * handler wake-up nor a translation per packet.  The sink must never
 * block for long (it may take short-held mutexes; any lock it cannot have
 * at once, it must try and decline) and must not call back into the
 * datapath.  A provider without sinks (NULL set_control_sink) queues
 * upcalls as always.
 *
 * Threads.  dpif_recv(), dpif_recv_wait() and dpif_recv_release() may be
 * called by the handler that owns the id; every other function may be
 * called from any thread (a provider serializes what needs it), except
 * dpif_create/open/close/delete, dpif_run/wait and port add/delete, which
 * belong to the main thread. */
#ifndef DPIF_H
#define DPIF_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dp-packet.h"
#include "flow.h"

struct dpif;
struct ds;
struct netdev;
struct nlattr;
struct smap;
struct sset;

#define DPIF_PORT_NONE UINT32_MAX
#define DPIF_PORT_LOCAL 0

/* Datapaths. */
int dpif_create(const char *name, const char *type, struct dpif **);
int dpif_open(const char *name, const char *type, struct dpif **);
void dpif_close(struct dpif *);
/* Destroys the datapath (its flows, ports and threads) and closes the
 * handle. */
int dpif_delete(struct dpif *);
/* Adds to NAMES the name of every datapath of TYPE. */
void dpif_enumerate(const char *type, struct sset *names);
/* Adds to TYPES every type dpif_create() accepts. */
void dpif_enumerate_types(struct sset *types);
/* Whether dpif_create() accepts TYPE ("" means "netdev"). */
bool dpif_type_is_supported(const char *type);
/* Whether NAME is one a datapath keeps for its own ports, so that no
 * interface may take it: "ovs-TYPE" for each datapath TYPE (a datapath's
 * own device), and the names of the ports datapaths give tunnel types
 * ("vxlan_sys_4789", ..., any name beginning "vxlan_sys", "genev_sys",
 * "gre_sys", ...), as Open vSwitch reserves them. */
bool dpif_port_name_is_reserved(const char *name);

/* Makes the "dummy" datapath type available: the userspace datapath under
 * another name, for tests, numbering ports after their names (see
 * dpif-provider.h); with SYSTEM_TOO, the "system" type too (there is no
 * kernel datapath here to serve it).  Call from the main thread before any
 * datapath opens; ovs-vswitchd does for --enable-dummy (SYSTEM_TOO for
 * =system and =override). */
void dpif_enable_dummy(bool system_too);

/* The netdev type a port of PORT_TYPE (an Interface's "type") opens as on
 * a datapath of DP_TYPE: on the dummy datapath an "internal" port is a
 * "dummy-internal" device, everything else opens as named.  The result is
 * PORT_TYPE itself or a static string. */
const char *dpif_port_open_type(const char *dp_type, const char *port_type);
const char *dpif_name(const struct dpif *);
const char *dpif_type(const struct dpif *);
/* "TYPE@NAME", as ovs-dpctl prints it. */
const char *dpif_base_name(const struct dpif *);

/* Housekeeping on the main thread: deferred frees, subtable ranking. */
void dpif_run(struct dpif *);
void dpif_wait(struct dpif *);

/* Configuration: "n-rx-threads" (receive threads, default 1).  Unknown
 * keys are ignored (the caller passes Open_vSwitch's other_config). */
int dpif_set_config(struct dpif *, const struct smap *other_config);
int dpif_set_n_rx_threads(struct dpif *, unsigned int n);
unsigned int dpif_get_n_rx_threads(const struct dpif *);

struct dpif_dp_stats {
    uint64_t n_hit;             /* Packets that matched a flow. */
    uint64_t n_missed;          /* Packets that matched no flow. */
    uint64_t n_lost;            /* Upcalls dropped (full channel). */
    uint64_t n_flows;
    uint64_t n_masks;           /* Megaflow subtables. */
    uint64_t n_mask_hit;        /* Subtables probed for n_hit packets. */
    uint64_t n_emc_hit;         /* Of n_hit, found in the exact-match cache. */
};
int dpif_get_dp_stats(const struct dpif *, struct dpif_dp_stats *);

/* Ports. */
struct dpif_port {
    char *name;
    char *type;
    uint32_t port_no;
};
void dpif_port_destroy(struct dpif_port *);

/* Adds NETDEV as a port (the datapath takes its own reference).  If
 * *PORT_NOP is DPIF_PORT_NONE, picks the number and stores it there. */
int dpif_port_add(struct dpif *, struct netdev *, uint32_t *port_nop);
int dpif_port_del(struct dpif *, uint32_t port_no);
int dpif_port_query_by_number(const struct dpif *, uint32_t port_no,
                              struct dpif_port *);
int dpif_port_query_by_name(const struct dpif *, const char *name,
                            struct dpif_port *);
/* Every port, in port number order (the caller frees with
 * dpif_port_list_free()). */
void dpif_port_list(const struct dpif *, struct dpif_port **ports,
                    size_t *n_ports);
void dpif_port_list_free(struct dpif_port *, size_t n_ports);

struct dpif_port_stats {
    uint64_t n_hit, n_missed, n_lost;   /* As in struct dpif_dp_stats. */
    uint64_t n_upcalls;                 /* Queued to the port's channel. */
    uint64_t n_malformed;               /* Packets with a bad header. */
};
int dpif_port_get_stats(const struct dpif *, uint32_t port_no,
                        struct dpif_port_stats *);

/* Flows. */
struct dpif_flow_stats {
    uint64_t n_packets;
    uint64_t n_bytes;
    long long int used;         /* time_msec() of the last packet, 0 never. */
    uint16_t tcp_flags;         /* OR of the TCP flags seen (host order). */
};

enum dpif_flow_put_flags {
    DPIF_FP_CREATE = 1 << 0,    /* May create a flow. */
    DPIF_FP_MODIFY = 1 << 1,    /* May modify an existing flow. */
    DPIF_FP_ZERO_STATS = 1 << 2 /* Clear a modified flow's statistics. */
};

/* Creates or modifies the flow KEY under MASK with ACTIONS (Netlink
 * attributes; copied).  EEXIST if it exists without DPIF_FP_MODIFY, ENOENT
 * if it does not without DPIF_FP_CREATE.  Stores the previous statistics
 * in *STATS if nonnull (zero for a new flow). */
int dpif_flow_put(struct dpif *, enum dpif_flow_put_flags,
                  const struct flow *key, const struct flow_wildcards *mask,
                  const struct nlattr *actions, size_t actions_len,
                  struct dpif_flow_stats *stats);
/* Deletes the flow KEY under MASK (ENOENT if none), with its final
 * statistics in *STATS if nonnull. */
int dpif_flow_del(struct dpif *, const struct flow *key,
                  const struct flow_wildcards *mask,
                  struct dpif_flow_stats *stats);
int dpif_flow_flush(struct dpif *);

/* A flow as get and dump return it.  ACTIONS points into memory of the
 * call that returned it (see each). */
struct dpif_flow {
    bool terse;                 /* Only hash, created, stats: see
                                 * dpif_flow_dump_set_terse(). */
    struct flow key;            /* Masked (unless the dump was asked for
                                 * given keys). */
    struct flow_wildcards mask;
    uint32_t hash;              /* dpif_flow_hash(&masked key, &mask). */
    long long int created;      /* time_msec() when installed. */
    const struct nlattr *actions;
    size_t actions_len;
    struct dpif_flow_stats stats;
};

/* A hash of a datapath flow's masked KEY and MASK.  The datapath computes
 * it once when it installs a flow and reports it with every dump, so that
 * whoever keeps state per flow (the revalidators' keys) finds it without
 * hashing whole flows on every dump. */
uint32_t dpif_flow_hash(const struct flow *key,
                        const struct flow_wildcards *mask);

/* Reads the flow KEY under MASK into *FLOW (ENOENT if none), its key as
 * given (dpif_flow_dump_set_given_keys()); its actions are copied into
 * *ACTIONS_BUF (malloc'd; the caller frees). */
int dpif_flow_get(const struct dpif *, const struct flow *key,
                  const struct flow_wildcards *mask, struct dpif_flow *,
                  void **actions_buf);

struct dpif_flow_dump;
struct dpif_flow_dump_thread;
struct dpif_flow_dump *dpif_flow_dump_create(const struct dpif *);
struct dpif_flow_dump_thread *dpif_flow_dump_thread_create(
    struct dpif_flow_dump *);
/* Asks DUMP to report flows terse (dpif_flow 'terse': 'hash', 'created' and
 * 'stats' filled, nothing else) when they had no packet since QUIET_BEFORE
 * but were used (or, never used, created) after IDLE_BEFORE: a revalidator
 * keeps such flows as they are, and copying each one's key and mask was
 * most of the cost of dumping many quiet flows.  Call before the first
 * dpif_flow_dump_next(); without it every flow comes whole. */
void dpif_flow_dump_set_terse(struct dpif_flow_dump *,
                              long long int idle_before,
                              long long int quiet_before);
/* Asks DUMP to report each flow's key as the datapath was given it (the
 * packet's or the text's values in the wildcarded fields too), not
 * masked, as 3.1 prints datapath flows.  Call before the first
 * dpif_flow_dump_next(). */
void dpif_flow_dump_set_given_keys(struct dpif_flow_dump *);
/* Fills up to MAX flows; 0 at the end.  Their actions stay valid until
 * the thread's next call or its destruction. */
int dpif_flow_dump_next(struct dpif_flow_dump_thread *,
                        struct dpif_flow *flows, int max);
void dpif_flow_dump_thread_destroy(struct dpif_flow_dump_thread *);
int dpif_flow_dump_destroy(struct dpif_flow_dump *);

/* Execution: applies ACTIONS to every packet of BATCH as the datapath
 * would (each packet's md.in_port is its input port, and its md as a
 * whole the state it is in: an upcall's packet from dpif_recv() has the
 * metadata of its key, conntrack state included), from the calling
 * thread.  The caller keeps the packets. */
int dpif_execute(struct dpif *, struct dp_packet_batch *,
                 const struct nlattr *actions, size_t actions_len);

/* Meters: token buckets the "meter" action (OVS_ACTION_ATTR_METER, a u32
 * meter id) runs packets through.  Each band has a rate (kbit/s with
 * 'kbps', else packets/s) and a bucket of 'burst_size' (kbit or packets;
 * 0: the rate), full when the meter is set, refilled at the rate by the
 * elapsed time_msec().  A packet costs its bits (kbps) or one packet:
 * each band whose bucket can pay pays, and if some cannot, the packet
 * goes over the one of highest rate among those, which drops it and
 * counts it (as 3.1's userspace datapath does).
 *
 * dpif_meter_set() creates or replaces meter METER_ID (below
 * DPIF_METER_MAX; replacing starts its counters and buckets anew);
 * dpif_meter_get() reads its counters; dpif_meter_del() removes it
 * (counters into STATS if nonnull).  A meter action naming no meter
 * passes packets.  ENOENT for a meter that is not there.  Any thread. */
#define DPIF_METER_MAX 262144
#define DPIF_METER_MAX_BANDS 8

struct dpif_meter_band {
    uint32_t rate;
    uint32_t burst_size;
};

struct dpif_meter_config {
    bool kbps;                  /* Else packets per second. */
    size_t n_bands;
    struct dpif_meter_band bands[DPIF_METER_MAX_BANDS];
};

struct dpif_meter_stats {
    uint64_t packet_in_count, byte_in_count;
    size_t n_bands;
    uint64_t band_packets[DPIF_METER_MAX_BANDS];
    uint64_t band_bytes[DPIF_METER_MAX_BANDS];
};

int dpif_meter_set(struct dpif *, uint32_t meter_id,
                   const struct dpif_meter_config *);
int dpif_meter_get(const struct dpif *, uint32_t meter_id,
                   struct dpif_meter_stats *);
int dpif_meter_del(struct dpif *, uint32_t meter_id,
                   struct dpif_meter_stats *);

/* Bonds for the lb_output action (ODP_ACTION_ATTR_LB_OUTPUT, a u32 bond
 * id): dpif_bond_add() creates or replaces bond BOND_ID, PORTS[i] the
 * datapath port of bucket i (UINT32_MAX: none); lb_output(BOND_ID) sends
 * each packet by the bucket of its flow hash's low 8 bits.
 * dpif_bond_stats_get() reads each bucket's bytes so far.  ENOENT for a
 * bond that is not there; EOPNOTSUPP from a datapath without them
 * (dpif_supports_lb_output()).  Any thread. */
#define DPIF_BOND_N_BUCKETS 256
bool dpif_supports_lb_output(const struct dpif *);
int dpif_bond_add(struct dpif *, uint32_t bond_id,
                  const uint32_t ports[DPIF_BOND_N_BUCKETS]);
int dpif_bond_del(struct dpif *, uint32_t bond_id);
int dpif_bond_stats_get(const struct dpif *, uint32_t bond_id,
                        uint64_t n_bytes[DPIF_BOND_N_BUCKETS]);

/* Connection tracking.  The ct() action (odp-util.h) runs packets
 * through the datapath's connection tracker (conntrack.h), which
 * dpif_conntrack() returns for dpctl's commands (dump, flush, limits,
 * ...): it lives as long as the datapath, and any thread may call it.
 * NULL from a datapath that tracks nothing.
 *
 * Timeout policies: dpif_ct_set_timeout_policy() sets policy ID (nonzero)
 * to SECONDS (CT_TM_N entries, conntrack.h's enum ct_timeout; 0 keeps a
 * default; EINVAL for id 0) and dpif_ct_del_timeout_policy() removes it
 * (if there is one): connections that used it get the defaults.
 * dpif_ct_timeout_policy_name() returns the malloc'd name a ct() action's
 * timeout= uses for policy ID: the userspace datapath's is the id in
 * decimal, as 3.1's.  EOPNOTSUPP (NULL name) without a tracker. */
struct conntrack;
struct conntrack *dpif_conntrack(const struct dpif *);

/* The fragment reassembly in front of the tracker (ipf.h), for dpctl's
 * ipf-* commands: lives as long as the datapath, any thread may call it.
 * NULL from a datapath that reassembles nothing. */
struct ipf;
struct ipf *dpif_ipf(const struct dpif *);

int dpif_ct_set_timeout_policy(struct dpif *, uint32_t id,
                               const uint32_t *seconds);
int dpif_ct_del_timeout_policy(struct dpif *, uint32_t id);
char *dpif_ct_timeout_policy_name(const struct dpif *, uint32_t id);

/* Batches.  An upcall handler installs all the megaflows of
 * a batch of misses and executes all its packets with one call:
 * dpif_operate() runs OPS in order, puts under one acquisition of the
 * provider's writer lock and executes in one read section, and stores
 * each op's result in its ERROR (and a put's previous statistics in its
 * STATS, if nonnull).  Semantics per op are those of dpif_flow_put() and
 * dpif_execute(). */
enum dpif_op_type {
    DPIF_OP_FLOW_PUT,
    DPIF_OP_EXECUTE,
};

struct dpif_op {
    enum dpif_op_type type;
    int error;                  /* Set by dpif_operate(). */
    union {
        struct {
            enum dpif_flow_put_flags flags;
            const struct flow *key;
            const struct flow_wildcards *mask;
            const struct nlattr *actions;
            size_t actions_len;
            struct dpif_flow_stats *stats;
        } put;
        struct {
            struct dp_packet_batch *batch;
            const struct nlattr *actions;
            size_t actions_len;
        } execute;
    };
};

void dpif_operate(struct dpif *, struct dpif_op **ops, size_t n_ops);

/* Upcalls. */
#define DPIF_RECV_MAX 64

enum dpif_upcall_type {
    DPIF_UC_MISS,               /* No flow matched. */
    DPIF_UC_ACTION,             /* A "userspace" action. */
};

struct dpif_upcall {
    enum dpif_upcall_type type;
    const struct flow *key;     /* Parsed key, in place. */
    uint32_t hash;              /* The datapath's flow hash. */
    struct dp_packet packet;    /* Foreign, over the channel's slot bytes;
                                 * layer offsets and md.in_port set. */
    const struct nlattr *userdata;  /* From the action, or NULL. */
    size_t userdata_len;
};

int dpif_handlers_set(struct dpif *, uint32_t n_handlers);
/* Receives up to MAX (at most DPIF_RECV_MAX) upcalls for handler
 * HANDLER_ID into UPCALLS; returns how many (0: none ready). */
size_t dpif_recv(struct dpif *, uint32_t handler_id,
                 struct dpif_upcall *upcalls, size_t max);
void dpif_recv_release(struct dpif *, uint32_t handler_id);
void dpif_recv_wait(struct dpif *, uint32_t handler_id);

/* The control-packet sink (see the top of this file).  PACKET arrived with
 * datapath key KEY (in_port a datapath port number, tunnel metadata as
 * the datapath decapsulated it); SLOW_REASONS is the cookie's SLOW_* bits,
 * all within DPIF_CONTROL_SLOW_REASONS.  Returns true if it consumed the
 * packet.  PACKET and KEY are the caller's: the sink copies what it keeps. */
typedef bool dpif_control_sink_cb(const struct dp_packet *packet,
                                  const struct flow *key,
                                  uint32_t slow_reasons, void *aux);
/* The SLOW_* reasons (odp-util.h) a sink is offered packets for. */
#define DPIF_CONTROL_SLOW_REASONS 0x1f  /* CFM, BFD, LACP, STP, LLDP. */

/* Main thread: makes CB(..., AUX) the sink of DPIF's datapath (one per
 * datapath, shared by its handles; the last call wins), or removes it
 * (CB NULL).  On return no thread is still running a sink replaced by the
 * call, so the caller may free what the old AUX pointed to.  Must not be
 * called from a sink. */
void dpif_set_control_sink(struct dpif *, dpif_control_sink_cb *,
                           void *aux);

#endif /* dpif.h */
