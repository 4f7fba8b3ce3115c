/* conntrack-private: what the connection tracker's files share.
 *
 * conntrack.c owns the table, the locks, expiry and the public functions;
 * conntrack-key.c turns a packet into the key of its connection (and an
 * ICMP error into the key of the connection it reports on);
 * conntrack-proto.c holds the per-protocol state machines (TCP window
 * tracking, UDP/other, ICMP) and the timeout names and defaults;
 * conntrack-nat.c rewrites packets for NAT.
 *
 * Threads: a struct conn's fields marked "lock" are read and written under
 * conn->lock; the keys, zone, id and creation time never change once the
 * connection is in the table and are read without a lock.  Memory: see
 * conntrack.c. */
#ifndef CONNTRACK_PRIVATE_H
#define CONNTRACK_PRIVATE_H 1

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "conntrack.h"
#include "hmap.h"
#include "list.h"
#include "ovs-thread.h"

struct dp_packet;

/* A connection's key in one direction.  Compared and hashed as bytes, so
 * always built from a zeroed struct. */
struct ct_key {
    union ct_addr src, dst;
    ovs_be16 src_port, dst_port;    /* TCP/UDP/SCTP ports; ICMP: both the
                                     * echo id. */
    uint8_t icmp_type, icmp_code;   /* ICMP/ICMPv6 only. */
    uint16_t zone;
    uint8_t nw_proto;
    uint8_t is_ipv6;
    uint8_t pad[2];
};

/* What conntrack-key.c found in a packet. */
struct ct_pkt_info {
    struct ct_key key;              /* The packet's own direction. */
    bool icmp_error;                /* KEY is the reversed key of the packet
                                     * an ICMP error quotes. */
    uint16_t tcp_flags;             /* TCP only. */
    uint32_t l4_payload_len;        /* TCP only: segment data length. */
    size_t l3_len;                  /* IP length (header included). */
    /* Where the headers NAT rewrites are, from the packet's data. */
    size_t l4_ofs, l4_len;
    /* ICMP errors: the quoted packet's headers (L4 possibly cut short). */
    size_t inner_l3_ofs, inner_l4_ofs, inner_l4_len;
    uint8_t inner_proto;
};

/* Fills INFO from PKT (of Ethernet type DL_TYPE, host order) for ZONE.
 * False if the packet cannot be tracked: not IP, a fragment, truncated,
 * a bad checksum, an ICMP error whose quoted packet makes no sense. */
bool ct_extract_key(const struct dp_packet *pkt, uint16_t dl_type,
                    uint16_t zone, struct ct_pkt_info *info);
/* The key of the other direction of the same connection (ICMP echo
 * request <-> reply and so on). */
void ct_key_reverse(const struct ct_key *in, struct ct_key *out);
/* Whether an ICMP(v6) type starts an exchange that has a reply (echo,
 * timestamp, information, ...): only those make connections. */
bool ct_icmp_type_has_reply(bool ipv6, uint8_t type);
void ct_key_to_tuple(const struct ct_key *, struct ct_tuple *);
void ct_tuple_to_key(const struct ct_tuple *, uint16_t zone,
                     struct ct_key *);

/* One side of a TCP connection, for window tracking. */
struct ct_tcp_peer {
    uint32_t seq_lo;                /* Highest sequence sent plus one. */
    uint32_t seq_hi;                /* Highest sequence the peer allows. */
    uint32_t max_win;               /* Largest window advertised (unscaled
                                     * when scaling is in use). */
    uint8_t wscale;                 /* CT_WSCALE_* | shift. */
    uint8_t state;                  /* enum ct_tcp_state. */
};
#define CT_WSCALE_SHIFT_MASK 0x0f
#define CT_WSCALE_ON 0x40           /* Window scale option seen. */
#define CT_WSCALE_UNKNOWN 0x80      /* Picked up mid-stream. */

/* Protocol families that have their own state machine. */
enum ct_proto_class { CT_PROTO_TCP, CT_PROTO_ICMP, CT_PROTO_OTHER };

enum ct_other_state { CT_OTHER_FIRST, CT_OTHER_MULTIPLE, CT_OTHER_BIDIR };
enum ct_icmp_state { CT_ICMP_FIRST, CT_ICMP_REPLY };

/* Result of moving a connection's state machine with one packet. */
enum ct_update {
    CT_UPDATE_VALID,                /* Established (or reply seen). */
    CT_UPDATE_VALID_NEW,            /* Fine, but still "new". */
    CT_UPDATE_INVALID,              /* Bad flags, out of window. */
    CT_UPDATE_RESTART,              /* A SYN on a closed connection: the
                                     * old one goes, a new one starts. */
};

/* One direction's entry in the table: a connection is found by both. */
struct ct_node {
    /* Chain of the bucket.  Two links: the table uses one, and a table
     * being built when it grows the other, so that readers still on the
     * old table walk chains nobody changes under them. */
    _Atomic(struct ct_node *) next[2];
    uint32_t hash;
    uint8_t dir;                    /* 0: original, 1: reply. */
    struct ct_key key;
};

/* How a connection's addresses and ports are rewritten (NAT). */
struct ct_nat_info {
    uint16_t flags;                 /* CT_NAT_SRC and/or CT_NAT_DST, or 0. */
};

enum ct_exp_state {
    CT_EXP_HELD,                    /* Off the lists: creator or sweeper
                                     * holds it. */
    CT_EXP_LISTED,                  /* On an expiry list. */
    CT_EXP_DEAD,                    /* Unlinked: if it was held, the
                                     * holder frees it; nobody files it
                                     * again. */
};

struct conn {
    struct ct_node node[2];         /* [0] original, [1] reply direction. */
    uint32_t id;
    long long int created;
    enum ct_proto_class proto;
    uint32_t tp_id;                 /* Timeout policy, 0: defaults. */
    enum ct_alg alg;
    bool has_master;
    struct ct_key master;           /* Parent's original key. */
    struct ct_nat_info nat;

    /* Whether the connection is reachable from the table; written under
     * the bucket locks of both keys. */
    atomic_bool linked;
    /* time_msec() after which the connection is gone. */
    atomic_llong expiration;

    struct ovs_mutex lock;
    uint32_t mark;                  /* lock */
    ovs_u128 label;                 /* lock */
    struct ct_counters counters[2]; /* lock */
    enum ct_timeout tm;             /* lock: the current timeout. */
    union {                         /* lock */
        struct ct_tcp_peer tcp[2];
        enum ct_other_state other;
        enum ct_icmp_state icmp;
    };

    /* FTP: how much NAT lengthened (or shortened) what each side sent,
     * so later sequence numbers and acks are shifted to match (lock). */
    int32_t seq_skew[2];
    uint32_t skew_seq[2];           /* Sequence of the last rewritten
                                     * command, not to count a
                                     * retransmission twice... */
    int32_t skew_prev[2];           /* ...and the skew before it. */
    bool skew_set[2];

    /* Expiry lists, under the tracker's exp_lock. */
    struct ovs_list exp_node;
    atomic_llong exp_stamp;         /* Expiry when filed (written under
                                     * exp_lock, read by packets). */
    enum ct_exp_state exp_state;
};

/* conntrack-nat.c.  The ATTEMPT-th candidate (0: preferred) for the reply
 * key of a connection with original key ORIG translated by NAT; HASH
 * spreads connections over the ranges.  False once every candidate has
 * been offered. */
bool ct_nat_candidate(const struct ct_key *orig,
                      const struct ct_nat_action *nat, uint32_t hash,
                      uint32_t attempt, struct ct_key *reply);
/* Rewrites PKT (described by INFO) for CONN, which NATs: to what the
 * other side expects if REPLY is false, back to the original if true.
 * Returns the CS_SRC_NAT / CS_DST_NAT bits for the packet. */
uint32_t ct_nat_packet(struct dp_packet *pkt, const struct ct_pkt_info *info,
                       const struct conn *conn, bool reply);

/* conntrack-alg.c: expectations and the FTP/TFTP helpers.
 *
 * An expectation says "a new connection with this key (any source port)
 * is related to that one": the helpers add them when they see a control
 * connection announce a data connection, and the tracker consumes one
 * when such a connection is committed.  Any thread; the table has its own
 * mutex, and an atomic count lets the tracker skip it while empty. */
struct ct_expect {
    struct hmap_node node;
    struct ct_key key;              /* Source port 0: any. */
    struct ct_key parent;           /* Parent's original key. */
    uint32_t parent_id;
    uint32_t parent_mark;
    ovs_u128 parent_label;
    bool has_nat;                   /* The parent was NATed: so is the
                                     * data connection, by... */
    bool nat_reply_dst;             /* ...its reply destination (SNAT) or
                                     * source (DNAT)... */
    union ct_addr nat_addr;         /* ...set to this. */
};

struct ct_expectations {
    struct ovs_mutex mutex;
    struct hmap map;                /* struct ct_expect, by key hash. */
    atomic_uint n;
    uint32_t basis;
};

void ct_expect_init(struct ct_expectations *, uint32_t basis);
void ct_expect_destroy(struct ct_expectations *);
/* Finds the expectation a new connection with KEY meets; copies it to
 * *OUT and, if REMOVE, deletes it.  False if there is none. */
bool ct_expect_find(struct ct_expectations *, const struct ct_key *key,
                    bool remove, struct ct_expect *out);
/* Forgets the expectations of connection PARENT_ID (it is gone). */
void ct_expect_forget_parent(struct ct_expectations *, uint32_t parent_id);

/* The helpers, for a packet of CONN (whose alg is set), under conn->lock,
 * after the state machine accepted it.  NAT says this ct() translates the
 * packet (the helper then rewrites addresses in FTP commands and applies
 * the sequence skew; a packet that a ct() in the zone already translated
 * is not shifted twice).  Before the state machine, ct_alg_pre() undoes
 * the skew in the acks a packet carries; call it only when translating. */
void ct_alg_pre(struct conn *, struct dp_packet *,
                const struct ct_pkt_info *, bool reply);
void ct_alg_post(struct ct_expectations *, struct conn *,
                 struct dp_packet *, struct ct_pkt_info *, bool reply,
                 bool nat);

/* Policies: per-timeout seconds, resolved (no zeros). */
struct ct_policy_values {
    uint32_t seconds[CT_TM_N];
};
void ct_policy_defaults(struct ct_policy_values *);

/* conntrack-proto.c: state machines.  They run under conn->lock and set
 * conn->tm to the timeout that now applies. */
enum ct_proto_class ct_proto_class(uint8_t nw_proto, bool ipv6);
/* Whether a packet may create a connection. */
bool ct_proto_valid_new(const struct ct_pkt_info *, const struct dp_packet *);
/* Initializes the protocol state of a new connection from its first
 * packet. */
void ct_proto_init(struct conn *, const struct ct_pkt_info *,
                   const struct dp_packet *);
enum ct_update ct_proto_update(struct conn *, const struct ct_pkt_info *,
                               const struct dp_packet *, bool reply,
                               bool seq_check);
/* TCP flag combinations no segment may carry. */
bool ct_tcp_flags_invalid(uint16_t flags);

#endif /* conntrack-private.h */
