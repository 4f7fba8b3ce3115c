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
 *     metadata   tunnel, metadata, registers, marks, in_port
 *     L2         Ethernet addresses and type, VLAN headers
 *     L3         IPv4/IPv6 addresses, label, frag, tos, ttl, protocol,
 *                ARP/ND addresses, TCP flags
 *     L4         transport ports (ICMP type and code), IGMP group
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
};

#define FLOW_TNL_F_DONT_FRAGMENT (1 << 0)
#define FLOW_TNL_F_CSUM          (1 << 1)
#define FLOW_TNL_F_KEY           (1 << 2)
#define FLOW_TNL_F_OAM           (1 << 3)

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

struct flow {
    /* Metadata. */
    struct flow_tnl tunnel;
    ovs_be64 metadata;              /* OpenFlow metadata field. */
    uint32_t regs[FLOW_N_REGS];     /* OpenFlow registers. */
    uint32_t skb_priority;
    uint32_t pkt_mark;
    uint32_t dp_hash;               /* Datapath-computed hash. */
    uint32_t in_port;               /* Datapath or OpenFlow port number. */
    uint32_t recirc_id;
    uint32_t conj_id;               /* Conjunction id (OpenFlow "conj_id"). */
    uint32_t actset_output;         /* OpenFlow 1.5 action set output. */
    uint32_t pad0;

    /* L2. */
    struct eth_addr dl_dst;
    struct eth_addr dl_src;
    ovs_be16 dl_type;               /* Ethernet type, after VLAN headers. */
    uint8_t pad1[2];
    union flow_vlan_hdr vlans[FLOW_MAX_VLAN_HEADERS]; /* Outermost first. */

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
    uint8_t pad2[2];

    /* L4. */
    ovs_be16 tp_src;                /* Source port, or ICMP type. */
    ovs_be16 tp_dst;                /* Destination port, or ICMP code. */
    ovs_be32 igmp_group_ip4;
};

#define FLOW_U64S (sizeof(struct flow) / sizeof(uint64_t))

_Static_assert(sizeof(struct flow) % sizeof(uint64_t) == 0,
               "struct flow must be a whole number of 64-bit words");
_Static_assert(FLOW_U64S <= 64, "a miniflow map has one bit per flow word");

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

/* The compact form: MAP has bit I set when word I of the flow is stored;
 * VALUES holds the stored words in increasing I.  A word that is zero may
 * be left out, so two miniflows of the same flow compare equal through
 * miniflow_equal() only when built the same way (miniflow_create() always
 * leaves zero words out). */
struct miniflow {
    uint64_t map;
    uint64_t values[];
};

static inline unsigned int
miniflow_n_values(const struct miniflow *mf)
{
    return __builtin_popcountll(mf->map);
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
    uint64_t bit = UINT64_C(1) << idx;
    if (!(mf->map & bit)) {
        return 0;
    }
    return mf->values[__builtin_popcountll(mf->map & (bit - 1))];
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
