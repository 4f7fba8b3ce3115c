/* flow-select: see flow-select.h. */
#include <config.h>
#include "flow-select.h"

#include "flow.h"
#include "hash.h"
#include "openflow.h"
#include "packets.h"

/* Folds A and B into HASH the same way whichever is which. */
static uint32_t
hash_pair(uint32_t hash, const void *a_, const void *b_, size_t n)
{
    const uint8_t *a = a_, *b = b_;
    for (size_t i = 0; i < n; i += 4) {
        uint32_t x = 0, y = 0;
        for (size_t j = i; j < i + 4 && j < n; j++) {
            x = x << 8 | a[j];
            y = y << 8 | b[j];
        }
        hash = hash_add(hash, x ^ y);
    }
    return hash;
}

static bool
is_ip(const struct flow *f)
{
    return (f->dl_type == htons(ETH_TYPE_IP)
            || f->dl_type == htons(ETH_TYPE_IPV6));
}

/* The IP addresses: one of them (SRC or DST) or both, symmetrically. */
static uint32_t
hash_addresses(const struct flow *f, uint32_t hash, bool src, bool dst,
               struct flow_wildcards *wc)
{
    bool ip4 = f->dl_type == htons(ETH_TYPE_IP);
    if (src && dst) {
        if (ip4) {
            if (wc) {
                WC_MASK_FIELD(wc, nw_src);
                WC_MASK_FIELD(wc, nw_dst);
            }
            return hash_pair(hash, &f->nw_src, &f->nw_dst, 4);
        }
        if (wc) {
            WC_MASK_FIELD(wc, ipv6_src);
            WC_MASK_FIELD(wc, ipv6_dst);
        }
        return hash_pair(hash, &f->ipv6_src, &f->ipv6_dst, 16);
    }
    if (ip4) {
        const ovs_be32 *a = src ? &f->nw_src : &f->nw_dst;
        if (wc) {
            if (src) {
                WC_MASK_FIELD(wc, nw_src);
            } else {
                WC_MASK_FIELD(wc, nw_dst);
            }
        }
        return hash_add(hash, *a);
    }
    const struct in6_addr *a = src ? &f->ipv6_src : &f->ipv6_dst;
    if (wc) {
        if (src) {
            WC_MASK_FIELD(wc, ipv6_src);
        } else {
            WC_MASK_FIELD(wc, ipv6_dst);
        }
    }
    return hash_bytes(a, sizeof *a, hash);
}

/* The protocol and, for the protocols UDP_TOO says, the ports. */
static uint32_t
hash_l4(const struct flow *f, uint32_t hash, bool udp_too,
        struct flow_wildcards *wc)
{
    if (wc) {
        WC_MASK_FIELD(wc, nw_proto);
        WC_MASK_FIELD(wc, nw_frag);
    }
    hash = hash_add(hash, f->nw_proto);
    if ((f->nw_proto == IPPROTO_TCP || f->nw_proto == IPPROTO_SCTP
         || (udp_too && f->nw_proto == IPPROTO_UDP))
        && !(f->nw_frag & FLOW_NW_FRAG_LATER)) {
        if (wc) {
            WC_MASK_FIELD(wc, tp_src);
            WC_MASK_FIELD(wc, tp_dst);
        }
        hash = hash_pair(hash, &f->tp_src, &f->tp_dst, 2);
    }
    return hash;
}

uint32_t
flow_hash_nx_fields(const struct flow *f, enum nx_hash_fields fields,
                    uint16_t basis, struct flow_wildcards *wc)
{
    uint32_t hash = basis;
    if (wc) {
        WC_MASK_FIELD(wc, dl_type);
    }
    switch (fields) {
    case NX_HASH_FIELDS_ETH_SRC:
        if (wc) {
            WC_MASK_FIELD(wc, dl_src);
        }
        return hash_bytes(&f->dl_src, sizeof f->dl_src, basis);

    case NX_HASH_FIELDS_SYMMETRIC_L4:
        if (wc) {
            WC_MASK_FIELD(wc, dl_src);
            WC_MASK_FIELD(wc, dl_dst);
            wc->masks.vlans[0].tci |= htons(VLAN_VID_MASK | VLAN_CFI);
        }
        hash = hash_pair(hash, &f->dl_src, &f->dl_dst, sizeof f->dl_src);
        hash = hash_add(hash, ntohs(f->dl_type));
        hash = hash_add(hash, ntohs(f->vlans[0].tci) & VLAN_VID_MASK);
        if (is_ip(f)) {
            hash = hash_addresses(f, hash, true, true, wc);
            hash = hash_l4(f, hash, false, wc);
        }
        break;

    case NX_HASH_FIELDS_SYMMETRIC_L3L4:
    case NX_HASH_FIELDS_SYMMETRIC_L3L4_UDP:
        if (is_ip(f)) {
            hash = hash_addresses(f, hash, true, true, wc);
            hash = hash_l4(f, hash,
                           fields == NX_HASH_FIELDS_SYMMETRIC_L3L4_UDP, wc);
        }
        break;

    case NX_HASH_FIELDS_NW_SRC:
    case NX_HASH_FIELDS_NW_DST:
    case NX_HASH_FIELDS_SYMMETRIC_L3:
        if (is_ip(f)) {
            hash = hash_addresses(f, hash,
                                  fields != NX_HASH_FIELDS_NW_DST,
                                  fields != NX_HASH_FIELDS_NW_SRC, wc);
        }
        break;
    }
    return hash_finish(hash, 0);
}

uint16_t
multipath_select(const struct ofpact_multipath *mp, const struct flow *f,
                 struct flow_wildcards *wc)
{
    uint32_t hash = flow_hash_nx_fields(f, mp->fields, mp->basis, wc);
    uint32_t n_links = (uint32_t) mp->max_link + 1;

    switch (mp->algorithm) {
    case NX_MP_ALG_MODULO_N:
        return hash % n_links;
    case NX_MP_ALG_HASH_THRESHOLD:
        return ((uint64_t) hash * n_links) >> 32;
    case NX_MP_ALG_HRW: {
        uint16_t best = 0;
        uint32_t best_weight = 0;
        for (uint32_t link = 0; link < n_links; link++) {
            uint32_t weight = hash_int(link, hash);
            if (!link || weight > best_weight) {
                best = link;
                best_weight = weight;
            }
        }
        return best;
    }
    case NX_MP_ALG_ITER_HASH:
    default: {
        uint32_t mask = 1;
        while (mask < n_links) {
            mask <<= 1;
        }
        mask--;
        for (uint32_t i = 0; ; i++) {
            hash = hash_int(i, hash);
            if ((hash & mask) <= mp->max_link) {
                return hash & mask;
            }
        }
    }
    }
}

uint32_t
bundle_select(const struct ofpact_bundle *b, const struct flow *f,
              struct flow_wildcards *wc,
              bool (*enabled)(uint32_t port, void *aux), void *aux)
{
    if (b->algorithm == NX_BD_ALG_ACTIVE_BACKUP) {
        for (uint16_t i = 0; i < b->n_members; i++) {
            if (enabled(b->members[i], aux)) {
                return b->members[i];
            }
        }
        return OFPP_NONE;
    }

    uint32_t hash = flow_hash_nx_fields(f, b->fields, b->basis, wc);
    uint32_t best = OFPP_NONE, best_weight = 0;
    for (uint16_t i = 0; i < b->n_members; i++) {
        uint32_t port = b->members[i];
        if (!enabled(port, aux)) {
            continue;
        }
        uint32_t weight = hash_int(port, hash);
        if (best == OFPP_NONE || weight > best_weight) {
            best = port;
            best_weight = weight;
        }
    }
    return best;
}
