/* flow: the flow key, and its compact and masked forms.
 *
 * A flow key is everything the switch can match a packet on: metadata the
 * packet carries with it (input port, tunnel, registers) and the header
 * fields the datapath extracts from it.  The same struct serves the
 * datapath's megaflows (in_port is then a datapath port number) and the
 * OpenFlow tables (in_port is an OpenFlow port number), so a lookup in one
 * and an install in the other never translate between two key types.
 *
 * Layout
 * ------
 *
 * struct flow is an array of FLOW_U64S 64-bit words in disguise: every
 * algorithm that does not care what a field means (hashing, masking,
 * comparing, the classifier's subtables, the datapath's megaflow cache)
 * walks it word by word through flow_u64s().  The fields fall into four
 * stages, in the order a classifier looks at them, each starting on a word
 * boundary so that a lookup can stop after any stage and have touched only
 * the words before it:
 *
 *     metadata   tunnel (and its Geneve options), metadata, registers,
 *                marks, in_port, packet type, connection tracking state
 *     L2         Ethernet addresses and type, VLAN headers, MPLS labels
 *     L3         IPv4/IPv6 addresses, label, frag, tos, ttl, protocol,
 *                ARP/ND addresses, TCP flags, NSH
 *     L4         transport ports (ICMP type and code), IGMP group, ND
 *                reserved word
 *
 * Facts that carry over from Open vSwitch so that OpenFlow and datapath
 * flows mean the same here: ARP packets keep their opcode in nw_proto and
 * their protocol addresses in nw_src/nw_dst; ICMP and ICMPv6 keep type and
 * code in tp_src and tp_dst; a VLAN header is present when VLAN_CFI is set
 * in its tci; nw_frag holds FLOW_NW_FRAG_* bits.
 *
 * Masks
 * -----
 *
 * struct flow_wildcards is a struct flow whose bits say "this bit matters"
 * (1) or "any value" (0).  The classifier returns one from a lookup (the
 * bits it had to examine) and the datapath installs a megaflow under it.
 *
 * Compact form
 * ------------
 *
 * A struct miniflow stores only the nonzero words of a flow (or of a mask):
 * a 64-bit map says which words of struct flow are present, followed by
 * their values in order.  Rules and megaflows keep their match this way, so
 * a rule on two fields costs two words, not FLOW_U64S.  The caller owns a
 * miniflow and frees it with free(); a miniflow never points elsewhere.
 *
 * Everything here works on values the caller owns and is thread-safe in
 * the way plain data is: concurrent readers are fine, writers need the
 * caller's own exclusion. */
#ifndef FLOW_H
#define FLOW_H 1

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "packets.h"
#include "types.h"

struct ds;

#define FLOW_N_REGS 16          /* OpenFlow registers reg0...reg15. */
#define FLOW_MAX_VLAN_HEADERS 2 /* 802.1ad outer tag + 802.1Q inner tag. */

/* VLAN tci bits as a flow holds them (host order after ntohs()). */
#define VLAN_VID_MASK 0x0fff
#define VLAN_CFI      0x1000    /* In a flow: "this VLAN header is present". */
#define VLAN_PCP_MASK 0xe000
#define VLAN_PCP_SHIFT 13

/* nw_frag bits. */
#define FLOW_NW_FRAG_ANY   (1 << 0) /* Any fragment, first or later. */
#define FLOW_NW_FRAG_LATER (1 << 1) /* A fragment other than the first. */
#define FLOW_NW_FRAG_MASK  (FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER)

/* Tunnel metadata: the outer header a packet arrived in, or the one it
 * leaves in.  All zero for a packet that was not tunnelled. */
struct flow_tnl {
    ovs_be32 ip_dst;
    ovs_be32 ip_src;
    struct in6_addr ipv6_dst;
    struct in6_addr ipv6_src;
    ovs_be64 tun_id;
    uint16_t flags;             /* FLOW_TNL_F_*. */
    uint8_t ip_tos;
    uint8_t ip_ttl;
    ovs_be16 tp_src;
    ovs_be16 tp_dst;
    ovs_be16 gbp_id;            /* VXLAN group based policy id. */
    uint8_t gbp_flags;
    uint8_t erspan_ver;         /* ERSPAN version: 1 or 2. */
    uint32_t erspan_idx;        /* ERSPAN v1 index (20 bits). */
    uint8_t erspan_dir;         /* ERSPAN v2 direction (1 bit). */
    uint8_t erspan_hwid;        /* ERSPAN v2 hardware id (6 bits). */
    uint8_t gtpu_flags;         /* GTP-U header flags. */
    uint8_t gtpu_msgtype;       /* GTP-U message type. */
    uint8_t pad[4];
};

#define FLOW_TNL_F_DONT_FRAGMENT (1 << 0)
#define FLOW_TNL_F_CSUM          (1 << 1)
#define FLOW_TNL_F_KEY           (1 << 2)
#define FLOW_TNL_F_OAM           (1 << 3)
/* tun_metadata holds a packet's Geneve options raw, as the datapath found
 * them: PRESENT is their length in bytes and OPTS the options as on the
 * wire (not laid out by a TLV map).  Only datapath keys have it; see
 * tnl-header.h and tun_md_from_geneve_udpif(). */
#define FLOW_TNL_F_UDPIF         (1 << 4)

/* Geneve options as OpenFlow sees them: tun_metadata0 ... tun_metadata63.
 * A switch's TLV map (tun-metadata.h) gives each mapped option a place in
 * OPTS; bit I of PRESENT says that option I is in the packet (or, in a
 * mask, that the match cares whether it is).  All zero for a packet
 * without options. */
#define TUN_METADATA_NUM_OPTS 64
#define TUN_METADATA_TOT_OPT_SIZE 256
struct flow_tun_metadata {
    uint64_t present;
    uint8_t opts[TUN_METADATA_TOT_OPT_SIZE];
};

/* One VLAN header: TPID (0x8100 or 0x88a8) and TCI, both network order.
 * A header that is absent is all zero; one that is present has VLAN_CFI
 * set in tci (the wire's CFI/DEI bit is not kept). */
union flow_vlan_hdr {
    ovs_be32 qtag;
    struct {
        ovs_be16 tpid;
        ovs_be16 tci;
    };
};

/* MPLS label stack entries, outermost first: label (20 bits), traffic
 * class (3), bottom of stack (1), TTL (8), as on the wire. */
#define FLOW_MAX_MPLS_LABELS 3
#define MPLS_LABEL_MASK  0xfffff000
#define MPLS_LABEL_SHIFT 12
#define MPLS_TC_MASK     0x00000e00
#define MPLS_TC_SHIFT    9
#define MPLS_BOS_MASK    0x00000100
#define MPLS_BOS_SHIFT   8
#define MPLS_TTL_MASK    0x000000ff

/* A Network Service Header's base and service path headers, and its four
 * fixed-size (MD type 1) contexts. */
struct flow_nsh {
    uint8_t flags;
    uint8_t ttl;                /* 6 bits. */
    uint8_t mdtype;
    uint8_t np;                 /* Next protocol. */
    ovs_be32 path_hdr;          /* Service path id (24) << 8 | index (8). */
    ovs_be32 context[4];
};
#define NSH_SPI_MASK  0xffffff00
#define NSH_SPI_SHIFT 8
#define NSH_SI_MASK   0x000000ff

/* Connection tracking state bits (ct_state). */
#define CS_NEW         (1 << 0)
#define CS_ESTABLISHED (1 << 1)
#define CS_RELATED     (1 << 2)
#define CS_REPLY_DIR   (1 << 3)
#define CS_INVALID     (1 << 4)
#define CS_TRACKED     (1 << 5)
#define CS_SRC_NAT     (1 << 6)
#define CS_DST_NAT     (1 << 7)
#define CS_ALL_BITS    0xff

/* Packet types (packet_type): a namespace (16 bits) and a type in it.
 * Namespace 0 is OpenFlow's own (type 0: Ethernet), namespace 1 names an
 * L3 packet by its Ethertype. */
#define PT_NS_ONF       0
#define PT_NS_ETHERTYPE 1
#define PACKET_TYPE(NS, TYPE) (((uint32_t) (NS) << 16) | (TYPE))
#define PT_ETH  PACKET_TYPE(PT_NS_ONF, 0)
#define PT_IPV4 PACKET_TYPE(PT_NS_ETHERTYPE, ETH_TYPE_IP)
#define PT_IPV6 PACKET_TYPE(PT_NS_ETHERTYPE, ETH_TYPE_IPV6)
#define PT_NSH  PACKET_TYPE(PT_NS_ETHERTYPE, 0x894f)
#define PT_MPLS PACKET_TYPE(PT_NS_ETHERTYPE, 0x8847)
#define PT_MPLS_MC PACKET_TYPE(PT_NS_ETHERTYPE, 0x8848)
/* decap's "the popped header says what follows". */
#define PT_USE_NEXT_PROTO PACKET_TYPE(PT_NS_ONF, 0xfffe)
static inline uint16_t pt_ns(ovs_be32 pt) { return ntohl(pt) >> 16; }
static inline uint16_t pt_ns_type(ovs_be32 pt) { return ntohl(pt) & 0xffff; }

struct flow {
    /* Metadata. */
    struct flow_tnl tunnel;
    struct flow_tun_metadata tun_metadata;
    ovs_be64 metadata;              /* OpenFlow metadata field. */
    uint32_t regs[FLOW_N_REGS];     /* OpenFlow registers. */
    uint32_t skb_priority;
    uint32_t pkt_mark;
    uint32_t dp_hash;               /* Datapath-computed hash. */
    uint32_t in_port;               /* Datapath or OpenFlow port number. */
    uint32_t recirc_id;
    uint32_t conj_id;               /* Conjunction id (OpenFlow "conj_id"). */
    uint32_t actset_output;         /* OpenFlow 1.5 action set output. */
    ovs_be32 packet_type;           /* PACKET_TYPE(ns, type); 0: Ethernet. */
    uint32_t ct_state;              /* CS_* bits. */
    uint32_t ct_mark;
    uint16_t ct_zone;
    uint8_t ct_nw_proto;            /* Original direction's IP protocol, */
    uint8_t pad0;
    ovs_be32 ct_nw_src;             /* ...addresses... */
    ovs_be32 ct_nw_dst;
    ovs_be16 ct_tp_src;             /* ...and ports. */
    ovs_be16 ct_tp_dst;
    uint8_t ct_label[16];           /* 128 bits, network order. */
    struct in6_addr ct_ipv6_src;
    struct in6_addr ct_ipv6_dst;

    /* L2. */
    struct eth_addr dl_dst;
    struct eth_addr dl_src;
    ovs_be16 dl_type;               /* Ethernet type, after VLAN headers. */
    uint8_t pad1[2];
    union flow_vlan_hdr vlans[FLOW_MAX_VLAN_HEADERS]; /* Outermost first. */
    ovs_be32 mpls_lse[FLOW_MAX_MPLS_LABELS];
    uint8_t pad2[4];

    /* L3. */
    struct in6_addr ipv6_src;
    struct in6_addr ipv6_dst;
    ovs_be32 ipv6_label;            /* Low 20 bits: the flow label. */
    ovs_be32 nw_src;                /* IPv4 source, or ARP SPA. */
    ovs_be32 nw_dst;                /* IPv4 destination, or ARP TPA. */
    uint8_t nw_frag;                /* FLOW_NW_FRAG_* bits. */
    uint8_t nw_tos;                 /* DSCP and ECN. */
    uint8_t nw_ttl;                 /* TTL or hop limit. */
    uint8_t nw_proto;               /* IP protocol, or low 8 bits of ARP op. */
    struct in6_addr nd_target;      /* IPv6 neighbour discovery target. */
    struct eth_addr arp_sha;        /* ARP SHA, or ND source link address. */
    struct eth_addr arp_tha;        /* ARP THA, or ND target link address. */
    ovs_be16 tcp_flags;             /* Low 12 bits of the TCP flags. */
    uint8_t nd_options_type;        /* Type of the first ND option. */
    uint8_t pad3;
    struct flow_nsh nsh;

    /* L4. */
    ovs_be16 tp_src;                /* Source port, or ICMP type. */
    ovs_be16 tp_dst;                /* Destination port, or ICMP code. */
    ovs_be32 igmp_group_ip4;
    ovs_be32 nd_reserved;           /* ND message's reserved word. */
    uint8_t pad4[4];
};

#define FLOW_U64S (sizeof(struct flow) / sizeof(uint64_t))

/* A miniflow's map has one bit per word of struct flow, in this many
 * 64-bit units. */
#define FLOWMAP_UNITS 2

_Static_assert(sizeof(struct flow) % sizeof(uint64_t) == 0,
               "struct flow must be a whole number of 64-bit words");
_Static_assert(FLOW_U64S <= FLOWMAP_UNITS * 64,
               "a miniflow map has one bit per flow word");
_Static_assert(sizeof(struct flow_tnl) % sizeof(uint64_t) == 0,
               "tunnel metadata is whole words");

/* The word index of a field's first byte, and of its last byte. */
#define FLOW_U64_OFS(FIELD) (offsetof(struct flow, FIELD) / sizeof(uint64_t))
#define FLOW_U64_END(FIELD)                                             \
    ((offsetof(struct flow, FIELD) + sizeof(((struct flow *) 0)->FIELD) \
      + sizeof(uint64_t) - 1) / sizeof(uint64_t))

/* The classifier's stages: stage I covers words [0, flow_stage_end[I]). */
enum { FLOW_N_STAGES = 4 };
#define FLOW_STAGE_METADATA_END FLOW_U64_OFS(dl_dst)
#define FLOW_STAGE_L2_END       FLOW_U64_OFS(ipv6_src)
#define FLOW_STAGE_L3_END       FLOW_U64_OFS(tp_src)
#define FLOW_STAGE_L4_END       FLOW_U64S
extern const uint8_t flow_stage_end[FLOW_N_STAGES];

_Static_assert(offsetof(struct flow, dl_dst) % 8 == 0, "L2 stage alignment");
_Static_assert(offsetof(struct flow, ipv6_src) % 8 == 0, "L3 stage alignment");
_Static_assert(offsetof(struct flow, tp_src) % 8 == 0, "L4 stage alignment");

static inline const uint64_t *
flow_u64s_const(const struct flow *flow)
{
    return (const uint64_t *) flow;
}

static inline uint64_t *
flow_u64s(struct flow *flow)
{
    return (uint64_t *) flow;
}

bool flow_equal(const struct flow *, const struct flow *);
uint32_t flow_hash(const struct flow *, uint32_t basis);

/* VLAN helpers: the VID, PCP and presence of the outermost header. */
/* Whether F is an IPv4 or IPv6 packet. */
static inline bool
flow_is_ip_any(const struct flow *f)
{
    return (f->dl_type == htons(ETH_TYPE_IP)
            || f->dl_type == htons(ETH_TYPE_IPV6));
}

static inline bool
flow_vlan_present(const union flow_vlan_hdr *vlan)
{
    return (vlan->tci & htons(VLAN_CFI)) != 0;
}

static inline uint16_t
flow_vlan_vid(const union flow_vlan_hdr *vlan)
{
    return ntohs(vlan->tci) & VLAN_VID_MASK;
}

static inline uint8_t
flow_vlan_pcp(const union flow_vlan_hdr *vlan)
{
    return (ntohs(vlan->tci) & VLAN_PCP_MASK) >> VLAN_PCP_SHIFT;
}

/* Wildcards: a mask over struct flow. */
struct flow_wildcards {
    struct flow masks;
};

/* Zeroes FLOW's connection tracking fields (ct_state through
 * ct_ipv6_dst): an untracked packet's. */
void flow_clear_conntrack(struct flow *);

void flow_wildcards_init_catchall(struct flow_wildcards *);
void flow_wildcards_init_exact(struct flow_wildcards *);
bool flow_wildcards_is_catchall(const struct flow_wildcards *);
bool flow_wildcards_equal(const struct flow_wildcards *,
                          const struct flow_wildcards *);
/* DST |= SRC: DST now requires every bit either required. */
void flow_wildcards_or(struct flow_wildcards *dst,
                       const struct flow_wildcards *src);
/* Whether A requires a bit that B does not. */
bool flow_wildcards_has_extra(const struct flow_wildcards *a,
                              const struct flow_wildcards *b);
/* Sets every bit of FIELD in WC: "this decision looked at FIELD".
 * Usage: WC_MASK_FIELD(wc, nw_src). */
#define WC_MASK_FIELD(WC, FIELD) \
    memset(&(WC)->masks.FIELD, 0xff, sizeof (WC)->masks.FIELD)

/* DST = SRC & WC. */
void flow_apply_mask(struct flow *dst, const struct flow *src,
                     const struct flow_wildcards *);
/* Whether A and B agree on every bit WC requires. */
bool flow_equal_under_mask(const struct flow *a, const struct flow *b,
                           const struct flow_wildcards *);

/* The compact form: bit I of MAP (bit I % 64 of unit I / 64) is set when
 * word I of the flow is stored; VALUES holds the stored words in
 * increasing I.  A word that is zero may be left out, so two miniflows of
 * the same flow compare equal through miniflow_equal() only when built the
 * same way (miniflow_create() always leaves zero words out). */
struct flowmap {
    uint64_t bits[FLOWMAP_UNITS];
};

struct miniflow {
    struct flowmap map;
    uint64_t values[];
};

static inline bool
flowmap_equal(const struct flowmap *a, const struct flowmap *b)
{
    for (size_t i = 0; i < FLOWMAP_UNITS; i++) {
        if (a->bits[i] != b->bits[i]) {
            return false;
        }
    }
    return true;
}

static inline bool
flowmap_is_set(const struct flowmap *map, unsigned int idx)
{
    return (map->bits[idx / 64] >> (idx % 64)) & 1;
}

static inline void
flowmap_set(struct flowmap *map, unsigned int idx)
{
    map->bits[idx / 64] |= UINT64_C(1) << (idx % 64);
}

static inline unsigned int
flowmap_n_bits(const struct flowmap *map)
{
    unsigned int n = 0;
    for (size_t i = 0; i < FLOWMAP_UNITS; i++) {
        n += __builtin_popcountll(map->bits[i]);
    }
    return n;
}

/* Iterates IDX (unsigned int) over the word indexes set in MAP, in
 * increasing order.  UNIT and BITS are the caller's scratch variables:
 *     size_t unit; uint64_t bits; unsigned int idx;
 *     FLOWMAP_FOR_EACH_INDEX (idx, unit, bits, &mf->map) { ... }
 * ("break" would only leave the current unit: return or goto instead.) */
#define FLOWMAP_FOR_EACH_INDEX(IDX, UNIT, BITS, MAP)                    \
    for ((UNIT) = 0; (UNIT) < FLOWMAP_UNITS; (UNIT)++)                  \
        for ((BITS) = (MAP)->bits[UNIT];                                \
             (BITS) && ((IDX) = (UNIT) * 64 + __builtin_ctzll(BITS), 1); \
             (BITS) &= (BITS) - 1)

static inline unsigned int
miniflow_n_values(const struct miniflow *mf)
{
    return flowmap_n_bits(&mf->map);
}

static inline size_t
miniflow_size(unsigned int n_values)
{
    return sizeof(struct miniflow) + n_values * sizeof(uint64_t);
}

/* The value of word IDX of the flow (zero when it is not stored). */
static inline uint64_t
miniflow_get(const struct miniflow *mf, unsigned int idx)
{
    unsigned int unit = idx / 64;
    uint64_t bit = UINT64_C(1) << (idx % 64);
    if (!(mf->map.bits[unit] & bit)) {
        return 0;
    }
    unsigned int pos = __builtin_popcountll(mf->map.bits[unit] & (bit - 1));
    for (unsigned int i = 0; i < unit; i++) {
        pos += __builtin_popcountll(mf->map.bits[i]);
    }
    return mf->values[pos];
}

/* Allocates the miniflow of FLOW's nonzero words.  The caller frees it. */
struct miniflow *miniflow_create(const struct flow *);
/* The same for FLOW & MASK, storing only the words MASK has any bit of
 * (a zero word under a nonzero mask word is stored: it must match zero). */
struct miniflow *miniflow_create_masked(const struct flow *,
                                        const struct flow_wildcards *);
/* Writes MF back out as a full flow. */
void miniflow_expand(const struct miniflow *, struct flow *);
bool miniflow_equal(const struct miniflow *, const struct miniflow *);
uint32_t miniflow_hash(const struct miniflow *, uint32_t basis);

/* For lookups: MASK is a miniflow of mask words (miniflow_create() of a
 * flow_wildcards' masks).  The hash of FLOW's words under MASK, the same
 * for two flows that agree on MASK's bits; and whether FLOW & MASK equals
 * MATCH, a miniflow_create_masked() under the same mask. */
uint32_t flow_hash_in_minimask(const struct flow *,
                               const struct miniflow *mask, uint32_t basis);
bool flow_equal_in_minimask(const struct flow *, const struct miniflow *mask,
                            const struct miniflow *match);

#endif /* flow.h */
