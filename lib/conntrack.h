/* conntrack: the userspace datapath's connection tracker.
 *
 * The datapath's ct() action hands a batch of IPv4 or IPv6 packets to
 * conntrack_execute(), which finds (or, on commit, creates) each packet's
 * connection in its zone, moves the connection's protocol state machine
 * (TCP with sequence-window checks, UDP, ICMP/ICMPv6 with the errors
 * related to a connection, any other IP protocol), applies NAT, and writes
 * the result into the packet's metadata (pkt_metadata's ct_* fields, see
 * dp-packet.h): ct_state, ct_zone, ct_mark, ct_label and the original
 * direction's tuple.  The flow key after a recirculation carries them, so
 * OpenFlow rules can match ct_state=+trk+est and so on.
 *
 * A connection is identified by its original-direction tuple (addresses,
 * protocol, ports or ICMP id/type/code) in a zone, and found from either
 * direction: the reply tuple (after NAT, what the other side sends back)
 * is a second key of the same connection.  Expectations (from the FTP and
 * TFTP helpers) let a later, otherwise new connection be marked related
 * to its parent.
 *
 * Concurrency
 * -----------
 * Any thread may call any function here; the datapath's receive threads
 * call conntrack_execute() concurrently, the main thread dumps and flushes
 * (dpctl), and the tracker's own sweeper thread expires connections.
 * Lookups take no lock: the connection table is read inside a dp_epoch
 * section (dp-epoch.h) and a connection is freed only through
 * dp_epoch_postpone() after it was unlinked, so a reader never waits on a
 * writer.  Insertions and removals serialize on a lock per bucket group;
 * a connection's mutable state (protocol state, expiry, mark, label,
 * counters) is updated under the connection's own lock.  The header of
 * conntrack.c details the scheme.
 *
 * Expiry
 * ------
 * Each connection expires a timeout after its last packet; the timeout
 * depends on its protocol and state and on the zone's timeout policy.  A
 * lookup treats an expired connection as gone (so "ovs-appctl time/warp"
 * expires connections at once), and the sweeper frees expired connections
 * from per-timeout lists kept in expiry order, so its cost follows the
 * connections that are due, not how many there are.
 *
 * Time is time_msec() (timeval.h), so the simulated clock works.
 *
 * Memory: the tracker owns its connections and expectations; callers own
 * the packets, the action arguments and the dump entries they pass in. */
#ifndef CONNTRACK_H
#define CONNTRACK_H 1

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "types.h"

struct dp_packet;
struct dp_packet_batch;
struct ds;

struct conntrack;

/* Creates a tracker, and starts its sweeper thread. */
struct conntrack *conntrack_create(void);
/* Stops the sweeper and frees every connection.  No other call may be in
 * progress or follow. */
void conntrack_destroy(struct conntrack *);

/* ct() action arguments
 * ===================== */

/* A NAT address: IPv4 or IPv6 according to the packets' type. */
union ct_addr {
    ovs_be32 ipv4;
    struct in6_addr ipv6;
};

enum ct_nat_flags {
    CT_NAT_SRC = 1 << 0,            /* Source NAT (SNAT). */
    CT_NAT_DST = 1 << 1,            /* Destination NAT (DNAT). */
    CT_NAT_PERSISTENT = 1 << 2,     /* Same address for a client. */
    CT_NAT_PROTO_HASH = 1 << 3,     /* Port chosen by a hash. */
    CT_NAT_PROTO_RANDOM = 1 << 4,   /* Port chosen at random. */
};

/* nat(...) inside ct().  With neither CT_NAT_SRC nor CT_NAT_DST ("nat"
 * alone), packets of a connection that was NATed when committed are
 * translated (and un-translated in reply) but nothing new is set up. */
struct ct_nat_action {
    uint16_t flags;                 /* enum ct_nat_flags. */
    bool has_addr;                  /* min_addr..max_addr given. */
    union ct_addr min_addr, max_addr;
    uint16_t min_port, max_port;    /* Host order; 0 0: keep the port. */
};

/* Application-layer helpers (the ct action's alg=). */
enum ct_alg {
    CT_ALG_NONE,
    CT_ALG_FTP,
    CT_ALG_TFTP,
};

/* One ct() action, as the datapath decodes it. */
struct ct_action {
    uint16_t zone;
    bool commit;                    /* Create the connection if new. */
    bool force;                     /* Commit; a connection this packet
                                     * meets in the reply direction is
                                     * deleted and committed anew. */
    bool set_mark;                  /* On commit: mark = (mark & ~mark_mask)
                                     * | (mark_value & mark_mask). */
    uint32_t mark_value, mark_mask;
    bool set_label;                 /* Likewise for the 128-bit label. */
    ovs_u128 label_value, label_mask;
    enum ct_alg alg;
    const struct ct_nat_action *nat;    /* NULL: no nat. */
    uint32_t timeout_policy;        /* 0: the default timeouts; else a
                                     * policy set by conntrack_set_policy. */
};

/* Tracks each packet of BATCH, all of Ethernet type DL_TYPE (ETH_TYPE_IP
 * or ETH_TYPE_IPV6, host order), and sets its pkt_metadata ct fields.
 * Packets are never dropped here: one the tracker cannot make sense of
 * (truncated, bad checksum, a fragment, impossible TCP flags, out of
 * window, an ICMP error about no known connection) gets ct_state =
 * trk|inv.  A new connection past a limit (maxconns, zone limit) is
 * not committed and its packet is trk|inv too (3.1 leaves it trk|new;
 * see docs/conntrack.md); one for which NAT finds no free translation
 * is not committed and stays trk|new, as in 3.1.  NAT
 * rewrites the packets' headers (and checksums) in place. */
void conntrack_execute(struct conntrack *, struct dp_packet_batch *,
                       uint16_t dl_type, const struct ct_action *,
                       long long int now);

/* ct_clear: forgets PACKET's tracking state (all its ct_* metadata). */
void conntrack_clear_packet(struct dp_packet *);

/* Tuples and dump entries (dpctl)
 * =============================== */

struct ct_tuple {
    uint8_t l3_type;                /* AF_INET or AF_INET6. */
    uint8_t ip_proto;
    union ct_addr src, dst;
    ovs_be16 src_port, dst_port;    /* TCP, UDP, SCTP ports. */
    ovs_be16 icmp_id;               /* ICMP/ICMPv6 echo id... */
    uint8_t icmp_type, icmp_code;   /* ...type and code. */
};

/* TCP states of one side, with 3.1's names (ct_tcp_state_name()). */
enum ct_tcp_state {
    CT_TCP_CLOSED, CT_TCP_LISTEN, CT_TCP_SYN_SENT, CT_TCP_SYN_RECV,
    CT_TCP_ESTABLISHED, CT_TCP_CLOSE_WAIT, CT_TCP_FIN_WAIT_1,
    CT_TCP_CLOSING, CT_TCP_LAST_ACK, CT_TCP_FIN_WAIT_2, CT_TCP_TIME_WAIT,
    CT_TCP_N_STATES
};
const char *ct_tcp_state_name(enum ct_tcp_state);

struct ct_counters {
    uint64_t packets, bytes;
};

/* One connection as dpctl/dump-conntrack shows it. */
struct ct_entry {
    struct ct_tuple orig, reply;
    struct ct_tuple master;         /* Parent of a related connection. */
    bool has_master;
    uint16_t zone;
    uint32_t mark;
    ovs_u128 label;
    uint32_t id;                    /* Unique, for -m. */
    struct ct_counters orig_counters, reply_counters;   /* For -s. */
    long long int created_ms;       /* time_msec() at commit. */
    uint32_t timeout_s;             /* Seconds left before expiry. */
    enum ct_tcp_state tcp_state;    /* TCP only: the original side's state
                                     * (3.1 prints one state). */
    const char *helper;             /* "ftp", "tftp" or NULL. */
};

/* Dumps the connections of zone *ZONE (every zone if ZONE is NULL):
 * CB(ENTRY, AUX) for each, in no particular order; stops early if CB
 * returns false. */
void conntrack_dump(struct conntrack *, const uint16_t *zone,
                    bool (*cb)(const struct ct_entry *, void *aux),
                    void *aux);

/* Deletes the connections of zone *ZONE (all if ZONE is NULL) or, with
 * TUPLE, the one connection whose original or reply tuple is TUPLE in
 * that zone (0 if ZONE is NULL).  Returns 0, or ENOENT if TUPLE names no
 * connection. */
int conntrack_flush(struct conntrack *, const uint16_t *zone,
                    const struct ct_tuple *tuple);

/* Connection counts by IP protocol and, for TCP, by state (of the
 * original side), in zone *ZONE or all (dpctl/ct-stats-show). */
void conntrack_get_stats(struct conntrack *, const uint16_t *zone,
                         uint32_t n_by_proto[256],
                         uint32_t n_tcp_by_state[CT_TCP_N_STATES]);

/* Bucket occupancy (dpctl/ct-bkts): fills up to N_BUCKETS counts of the
 * connection table's buckets and returns the table's bucket count. */
size_t conntrack_get_buckets(struct conntrack *, uint32_t *counts,
                             size_t n_buckets);

/* Limits
 * ====== */

/* The most connections the tracker holds (default 3000000, as 3.1);
 * a new connection past it is not committed (it stays trk|new, as in
 * 3.1) and counted (coverage conntrack_full, conntrack_zone_full). */
void conntrack_set_maxconns(struct conntrack *, uint32_t);
uint32_t conntrack_get_maxconns(const struct conntrack *);
uint32_t conntrack_get_nconns(const struct conntrack *);

/* Per-zone limits (0: unlimited).  ZONE_DEFAULT names the default limit
 * of zones without one of their own. */
#define CT_ZONE_DEFAULT (-1)
void conntrack_set_zone_limit(struct conntrack *, int zone, uint32_t limit);
/* Removes ZONE's own limit (it goes back to the default). */
void conntrack_del_zone_limit(struct conntrack *, int zone);
/* ZONE's limit and its connection count.  Returns false if ZONE has no
 * limit of its own (then *LIMIT is the default). */
bool conntrack_get_zone_limit(struct conntrack *, int zone,
                              uint32_t *limit, uint32_t *count);

/* Timeout policies
 * ================ */

/* The timeouts one policy sets, in seconds; 0 keeps the default.  Names
 * are the CT_Timeout_Policy table's keys (tcp_syn_sent, ..., udp_first,
 * udp_single, udp_multiple, icmp_first, icmp_reply). */
enum ct_timeout {
    CT_TM_TCP_SYN_SENT, CT_TM_TCP_SYN_RECV, CT_TM_TCP_ESTABLISHED,
    CT_TM_TCP_FIN_WAIT, CT_TM_TCP_CLOSE_WAIT, CT_TM_TCP_LAST_ACK,
    CT_TM_TCP_TIME_WAIT, CT_TM_TCP_CLOSE, CT_TM_TCP_SYN_SENT2,
    CT_TM_TCP_RETRANSMIT, CT_TM_TCP_UNACK,
    CT_TM_UDP_FIRST, CT_TM_UDP_SINGLE, CT_TM_UDP_MULTIPLE,
    CT_TM_ICMP_FIRST, CT_TM_ICMP_REPLY,
    CT_TM_OTHER_FIRST, CT_TM_OTHER_MULTIPLE, CT_TM_OTHER_BIDIR,
    CT_TM_N
};
/* The database key of T ("tcp_syn_sent", ...), or NULL for the ones the
 * table has no key for. */
const char *ct_timeout_name(enum ct_timeout);
bool ct_timeout_from_name(const char *, enum ct_timeout *);

/* Sets policy ID (nonzero) to SECONDS[CT_TM_N] (0 entries: default; the
 * CT_TM_OTHER_* ones left 0 take the policy's UDP values, since 3.1 times
 * other protocols like UDP).  Connections committed with the policy use
 * it from their next packet on; deleting it brings back the defaults. */
void conntrack_set_policy(struct conntrack *, uint32_t id,
                          const uint32_t seconds[CT_TM_N]);
void conntrack_del_policy(struct conntrack *, uint32_t id);

/* Sequence checking of TCP (dpctl/ct-enable-tcp-seq-chk,
 * ct-disable-tcp-seq-chk): when off, out-of-window segments are not
 * marked invalid. */
void conntrack_set_tcp_seq_chk(struct conntrack *, bool enabled);
bool conntrack_get_tcp_seq_chk(const struct conntrack *);

#endif /* conntrack.h */
