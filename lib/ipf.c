/* ipf: fragment reassembly for the connection tracker (see ipf.h).
 *
 * Data structures, all under ipf->mutex:
 *
 *   lists      hmap of struct ipf_list by key: the datagrams being
 *              reassembled (and, in state FAILED, the tombstones of
 *              invalid ones, which hold no fragment).
 *   expiry     the same lists in creation order, so in expiry order (all
 *              share one timeout): expiry looks at the front only.
 *   out        hmap of struct ipf_list by reassembled packet pointer: the
 *              datagrams whose reassembled packet is with the caller,
 *              waiting for ipf_postprocess().  Such a list has left
 *              'lists' and 'expiry'.
 *
 * Outside the mutex: the settings (atomics) and two atomic hints that let
 * a batch without fragments pass without locking: 'n_out' (lists in
 * 'out') and 'next_expiry' (the front of 'expiry', LLONG_MAX if none).
 *
 * A fragment's data is kept as the whole packet; 'start'/'end' say which
 * bytes of the datagram's fragmentable part it carries, and 'data_ofs'
 * where those bytes start in the packet. */
#include <config.h>
#include "ipf.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "csum.h"
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "flow.h"
#include "hash.h"
#include "hmap.h"
#include "list.h"
#include "ovs-thread.h"
#include "packets.h"
#include "util.h"

/* Largest IPv4 header; largest datagram of either family (IPv4 total
 * length, IPv6 payload length). */
#define IPV4_MAX_HDR_LEN 60
#define IP_MAX_DATAGRAM 65535

struct ipf_key {
    struct in6_addr src, dst;   /* IPv4: the address in the first 4 bytes,
                                 * the rest zero. */
    uint32_t id;                /* IPv4 16-bit id or IPv6 32-bit ident. */
    uint32_t recirc_id;
    uint16_t zone;
    uint8_t proto;              /* IPv4 protocol; IPv6: the fragment
                                 * header's next header. */
    uint8_t v6;
};

enum ipf_list_state {
    IPF_OTHER_SEEN,             /* Neither first nor last yet. */
    IPF_FIRST_SEEN,
    IPF_LAST_SEEN,
    IPF_FIRST_LAST_SEEN,        /* Both ends, a hole in between. */
    IPF_COMPLETE,               /* Reassembled, packet with the caller. */
    IPF_FAILED,                 /* Invalid datagram: a tombstone. */
};

/* 3.1's names for the states, as "ipf-get-status -m" shows them. */
static const char *
ipf_state_name(enum ipf_list_state state)
{
    switch (state) {
    case IPF_OTHER_SEEN: return "other frag";
    case IPF_FIRST_SEEN: return "first frag";
    case IPF_LAST_SEEN: return "last frag";
    case IPF_FIRST_LAST_SEEN: return "first/last frag";
    case IPF_COMPLETE: return "complete";
    case IPF_FAILED: return "reassemble fail";
    }
    return "unknown";
}

struct ipf_frag {
    struct dp_packet *packet;
    uint32_t start, end;        /* Datagram data bytes [start, end). */
    uint16_t data_ofs;          /* Where they start in 'packet'. */
};

struct ipf_list {
    struct hmap_node node;      /* In 'lists' by key, or 'out' by packet. */
    struct ovs_list exp_node;   /* In 'expiry' while in 'lists'. */
    struct ipf_key key;
    long long int expiration;
    enum ipf_list_state state;
    bool have_first, have_last;
    uint32_t total;             /* Data length, once the last is seen. */
    struct ipf_frag *frags;     /* Sorted by 'start' (no overlaps). */
    size_t n_frags, allocated;
    struct dp_packet *reassembled;  /* IPF_COMPLETE: the packet out. */
    uint16_t reass_data_ofs;    /* Where its data starts in it. */
};

enum ipf_counter {
    IPF_ACCEPTED, IPF_COMPLETED, IPF_EXPIRED, IPF_TOO_SMALL,
    IPF_OVERLAPPED, IPF_PURGED, IPF_N_COUNTERS
};

struct ipf {
    struct ovs_mutex mutex;
    struct hmap lists;          /* Of struct ipf_list by key hash. */
    struct ovs_list expiry;     /* Of struct ipf_list, oldest first. */
    struct hmap out;            /* Of struct ipf_list by packet hash. */
    uint32_t nfrags;            /* Fragments held, all lists. */
    uint64_t counters[2][IPF_N_COUNTERS];   /* [v6][counter]. */

    /* Settings, read without the mutex. */
    atomic_bool enabled[2];
    atomic_uint min_frag[2];
    atomic_uint max_nfrags;

    /* Hints read without the mutex (see the file's header). */
    atomic_size_t n_out;
    atomic_llong next_expiry;
};

struct ipf *
ipf_create(void)
{
    struct ipf *ipf = xzalloc(sizeof *ipf);
    ovs_mutex_init(&ipf->mutex);
    hmap_init(&ipf->lists);
    ovs_list_init(&ipf->expiry);
    hmap_init(&ipf->out);
    for (int v6 = 0; v6 < 2; v6++) {
        atomic_init(&ipf->enabled[v6], true);
        atomic_init(&ipf->min_frag[v6], v6 ? IPF_V6_MIN_FRAG_DEFAULT
                                           : IPF_V4_MIN_FRAG_DEFAULT);
    }
    atomic_init(&ipf->max_nfrags, IPF_MAX_NFRAGS_DEFAULT);
    atomic_init(&ipf->n_out, 0);
    atomic_init(&ipf->next_expiry, LLONG_MAX);
    return ipf;
}

static void
ipf_list_free(struct ipf_list *list)
{
    for (size_t i = 0; i < list->n_frags; i++) {
        dp_packet_delete(list->frags[i].packet);
    }
    free(list->frags);
    free(list);
}

void
ipf_destroy(struct ipf *ipf)
{
    if (!ipf) {
        return;
    }
    struct ipf_list *list;
    HMAP_FOR_EACH_POP (list, node, &ipf->lists) {
        ipf_list_free(list);
    }
    HMAP_FOR_EACH_POP (list, node, &ipf->out) {
        ipf_list_free(list);
    }
    hmap_destroy(&ipf->lists);
    hmap_destroy(&ipf->out);
    ovs_mutex_destroy(&ipf->mutex);
    free(ipf);
}

/* Settings
 * ======== */

void
ipf_set_enabled(struct ipf *ipf, bool v6, bool enabled)
{
    atomic_store_explicit(&ipf->enabled[v6], enabled, memory_order_relaxed);
}

bool
ipf_set_min_frag(struct ipf *ipf, bool v6, uint32_t size)
{
    if (size < IPF_MIN_FRAG_LOWER_BOUND) {
        return false;
    }
    atomic_store_explicit(&ipf->min_frag[v6], size, memory_order_relaxed);
    return true;
}

bool
ipf_set_max_nfrags(struct ipf *ipf, uint32_t n)
{
    if (n > IPF_MAX_NFRAGS_UPPER_BOUND) {
        return false;
    }
    atomic_store_explicit(&ipf->max_nfrags, n, memory_order_relaxed);
    return true;
}

static bool
ipf_enabled(struct ipf *ipf, bool v6)
{
    return atomic_load_explicit(&ipf->enabled[v6], memory_order_relaxed);
}

static uint32_t
ipf_min_frag(struct ipf *ipf, bool v6)
{
    return atomic_load_explicit(&ipf->min_frag[v6], memory_order_relaxed);
}

/* The most fragments one datagram may have: its largest data split into
 * fragments of the smallest allowed size (3.1 bounds IPv4 lists so). */
static size_t
ipf_max_frags_per_list(struct ipf *ipf, bool v6)
{
    uint32_t min = ipf_min_frag(ipf, v6);
    uint32_t hdr = v6 ? IPV6_HEADER_LEN + IPV6_FRAG_HEADER_LEN
                      : IPV4_MAX_HDR_LEN;
    uint32_t min_data = min > hdr + 8 ? min - hdr : 8;
    return DIV_ROUND_UP(IP_MAX_DATAGRAM - (v6 ? 0 : IPV4_MAX_HDR_LEN),
                        min_data);
}

/* Parsing fragments
 * ================= */

struct ipf_frag_info {
    struct ipf_key key;
    uint32_t start, end;        /* Data bytes [start, end) it carries. */
    bool more;                  /* Not the last fragment. */
    uint32_t l3_len;            /* IPv4 total length, IPv6 40 + payload. */
    uint16_t data_ofs;          /* Data start, from the packet's DATA. */
    uint16_t hdr_len;           /* L3 bytes before the data (IPv4 header,
                                 * IPv6 header + unfragmentable part +
                                 * fragment header). */
    uint16_t prev_nxt_ofs;      /* IPv6: offset in L3 of the next-header
                                 * byte that names the fragment header. */
};

enum ipf_parse {
    IPF_NOT_FRAG,               /* Not a fragment, or malformed: leave. */
    IPF_FRAG,
};

static enum ipf_parse
ipf_parse_v4(const struct dp_packet *p, struct ipf_frag_info *fi)
{
    size_t l3_size = dp_packet_l3_size(p);
    const struct ip_header *ip = dp_packet_l3(p);
    if (!ip || l3_size < IP_HEADER_LEN || IP_VERSION(ip->ip_ihl_ver) != 4) {
        return IPF_NOT_FRAG;
    }
    uint16_t frag_off = ntohs(ip->ip_frag_off);
    if (!(frag_off & (IP_MORE_FRAGMENTS | IP_FRAG_OFF_MASK))) {
        return IPF_NOT_FRAG;
    }
    size_t ihl = IP_IHL(ip->ip_ihl_ver) * 4;
    size_t tot_len = ntohs(ip->ip_tot_len);
    if (ihl < IP_HEADER_LEN || tot_len < ihl || tot_len > l3_size
        || csum(ip, ihl)) {
        return IPF_NOT_FRAG;
    }
    memset(fi, 0, sizeof *fi);
    memcpy(&fi->key.src, &ip->ip_src, 4);
    memcpy(&fi->key.dst, &ip->ip_dst, 4);
    fi->key.id = ntohs(ip->ip_id);
    fi->key.recirc_id = p->md.recirc_id;
    fi->key.proto = ip->ip_proto;
    fi->key.v6 = false;
    fi->start = (frag_off & IP_FRAG_OFF_MASK) * 8;
    fi->end = fi->start + (tot_len - ihl);
    fi->more = frag_off & IP_MORE_FRAGMENTS;
    if (fi->more && (fi->end - fi->start) % 8) {
        return IPF_NOT_FRAG;    /* No valid datagram has it. */
    }
    fi->l3_len = tot_len;
    fi->data_ofs = p->l3_ofs + ihl;
    fi->hdr_len = ihl;
    return IPF_FRAG;
}

static enum ipf_parse
ipf_parse_v6(const struct dp_packet *p, struct ipf_frag_info *fi)
{
    size_t l3_size = dp_packet_l3_size(p);
    const uint8_t *l3 = dp_packet_l3(p);
    if (!l3 || l3_size < IPV6_HEADER_LEN) {
        return IPF_NOT_FRAG;
    }
    const struct ipv6_header *ip6 = (const struct ipv6_header *) l3;
    size_t l3_len = IPV6_HEADER_LEN + ntohs(ip6->ip6_plen);
    if ((l3[0] >> 4) != 6 || l3_len > l3_size) {
        return IPF_NOT_FRAG;
    }

    /* Walk the extension headers that may come before a fragment header:
     * hop-by-hop, routing, destination options, AH. */
    uint8_t nxt = ip6->ip6_nxt;
    size_t prev_nxt_ofs = offsetof(struct ipv6_header, ip6_nxt);
    size_t ofs = IPV6_HEADER_LEN;
    while (nxt != IPPROTO_FRAGMENT_) {
        if (nxt != IPPROTO_HOPOPTS_ && nxt != IPPROTO_ROUTING_
            && nxt != IPPROTO_DSTOPTS_ && nxt != IPPROTO_AH_) {
            return IPF_NOT_FRAG;
        }
        if (ofs + 2 > l3_len) {
            return IPF_NOT_FRAG;
        }
        const struct ipv6_ext_header *ext
            = (const struct ipv6_ext_header *) (l3 + ofs);
        size_t len = (nxt == IPPROTO_AH_ ? (ext->ip6e_len + 2) * 4
                                         : (ext->ip6e_len + 1) * 8);
        prev_nxt_ofs = ofs;
        nxt = ext->ip6e_nxt;
        ofs += len;
    }
    if (ofs + IPV6_FRAG_HEADER_LEN > l3_len) {
        return IPF_NOT_FRAG;
    }
    const struct ipv6_frag_header *fh
        = (const struct ipv6_frag_header *) (l3 + ofs);
    uint16_t offlg = ntohs(fh->ip6f_offlg);
    if (!(offlg & (IPV6_FRAG_OFF_MASK | IPV6_FRAG_MORE))) {
        /* An atomic fragment (RFC 6946) is a whole datagram. */
        return IPF_NOT_FRAG;
    }
    size_t hdr_len = ofs + IPV6_FRAG_HEADER_LEN;
    memset(fi, 0, sizeof *fi);
    memcpy(&fi->key.src, &ip6->ip6_src, sizeof fi->key.src);
    memcpy(&fi->key.dst, &ip6->ip6_dst, sizeof fi->key.dst);
    fi->key.id = ntohl(fh->ip6f_ident);
    fi->key.recirc_id = p->md.recirc_id;
    fi->key.proto = fh->ip6f_nxt;
    fi->key.v6 = true;
    fi->start = offlg & IPV6_FRAG_OFF_MASK;
    fi->end = fi->start + (l3_len - hdr_len);
    fi->more = offlg & IPV6_FRAG_MORE;
    if (fi->more && (fi->end - fi->start) % 8) {
        return IPF_NOT_FRAG;    /* RFC 8200 4.5: invalid. */
    }
    fi->l3_len = l3_len;
    fi->data_ofs = p->l3_ofs + hdr_len;
    fi->hdr_len = hdr_len;
    fi->prev_nxt_ofs = prev_nxt_ofs;
    return IPF_FRAG;
}

/* A fragment (possibly offset 0) cheaply recognized, before any lock. */
static enum ipf_parse
ipf_parse(const struct dp_packet *p, bool v6, struct ipf_frag_info *fi)
{
    return v6 ? ipf_parse_v6(p, fi) : ipf_parse_v4(p, fi);
}

/* Lists
 * ===== */

static uint32_t
ipf_key_hash(const struct ipf_key *key)
{
    return hash_bytes(key, sizeof *key, 0);
}

static struct ipf_list *
ipf_list_lookup(struct ipf *ipf, const struct ipf_key *key, uint32_t hash)
{
    struct ipf_list *list;
    HMAP_FOR_EACH_WITH_HASH (list, node, hash, &ipf->lists) {
        if (!memcmp(&list->key, key, sizeof *key)) {
            return list;
        }
    }
    return NULL;
}

static void
ipf_count(struct ipf *ipf, bool v6, enum ipf_counter c, uint64_t n)
{
    ipf->counters[v6][c] += n;
}

static void
ipf_update_next_expiry(struct ipf *ipf)
{
    long long int next = LLONG_MAX;
    if (!ovs_list_is_empty(&ipf->expiry)) {
        const struct ipf_list *front
            = CONTAINER_OF(ovs_list_front(&ipf->expiry), struct ipf_list,
                           exp_node);
        next = front->expiration;
    }
    atomic_store_explicit(&ipf->next_expiry, next, memory_order_relaxed);
}

/* Drops LIST's fragments, counting them as C. */
static void
ipf_list_drop_frags(struct ipf *ipf, struct ipf_list *list,
                    enum ipf_counter c)
{
    for (size_t i = 0; i < list->n_frags; i++) {
        dp_packet_delete(list->frags[i].packet);
    }
    ipf_count(ipf, list->key.v6, c, list->n_frags);
    ipf->nfrags -= list->n_frags;
    list->n_frags = 0;
}

/* Removes LIST from 'lists' and 'expiry' and frees it. */
static void
ipf_list_remove(struct ipf *ipf, struct ipf_list *list)
{
    hmap_remove(&ipf->lists, &list->node);
    ovs_list_remove(&list->exp_node);
    ipf_list_free(list);
}

static void
ipf_expire__(struct ipf *ipf, long long int now)
{
    while (!ovs_list_is_empty(&ipf->expiry)) {
        struct ipf_list *list
            = CONTAINER_OF(ovs_list_front(&ipf->expiry), struct ipf_list,
                           exp_node);
        if (list->expiration > now) {
            break;
        }
        ipf_list_drop_frags(ipf, list, IPF_EXPIRED);
        ipf_list_remove(ipf, list);
    }
    ipf_update_next_expiry(ipf);
}

bool
ipf_is_enabled(struct ipf *ipf, bool v6)
{
    return ipf_enabled(ipf, v6);
}

long long int
ipf_next_expiry(struct ipf *ipf)
{
    return atomic_load_explicit(&ipf->next_expiry, memory_order_relaxed);
}

void
ipf_expire(struct ipf *ipf, long long int now)
{
    if (now < atomic_load_explicit(&ipf->next_expiry,
                                   memory_order_relaxed)) {
        return;
    }
    ovs_mutex_lock(&ipf->mutex);
    ipf_expire__(ipf, now);
    ovs_mutex_unlock(&ipf->mutex);
}

/* Makes LIST a tombstone: its datagram is invalid. */
static void
ipf_list_fail(struct ipf *ipf, struct ipf_list *list)
{
    ipf_list_drop_frags(ipf, list, IPF_PURGED);
    list->state = IPF_FAILED;
}

/* Reassembly
 * ========== */

/* Builds the reassembled packet of LIST, complete and sorted.  FIRST_INFO
 * describes its first fragment's headers. */
static struct dp_packet *
ipf_reassemble(struct ipf_list *list, const struct ipf_frag_info *first)
{
    const struct ipf_frag *f0 = &list->frags[0];
    const struct dp_packet *p0 = f0->packet;
    bool v6 = list->key.v6;
    /* The first fragment's L2 and L3 headers; for IPv6 without the
     * fragment header. */
    size_t head = v6 ? f0->data_ofs - IPV6_FRAG_HEADER_LEN : f0->data_ofs;
    struct dp_packet *r = dp_packet_new(head + list->total);
    dp_packet_put(r, dp_packet_data(p0), head);
    for (size_t i = 0; i < list->n_frags; i++) {
        const struct ipf_frag *f = &list->frags[i];
        dp_packet_put(r, (const uint8_t *) dp_packet_data(f->packet)
                         + f->data_ofs, f->end - f->start);
    }
    r->md = p0->md;

    uint8_t *l3 = (uint8_t *) dp_packet_data(r) + p0->l3_ofs;
    if (!v6) {
        struct ip_header *ip = (struct ip_header *) l3;
        ip->ip_tot_len = htons(first->hdr_len + list->total);
        ip->ip_frag_off &= htons(IP_DONT_FRAGMENT);
        ip->ip_csum = 0;
        ip->ip_csum = csum(ip, first->hdr_len);
    } else {
        struct ipv6_header *ip6 = (struct ipv6_header *) l3;
        size_t unfrag = first->hdr_len - IPV6_FRAG_HEADER_LEN;
        ip6->ip6_plen = htons(unfrag - IPV6_HEADER_LEN + list->total);
        l3[first->prev_nxt_ofs] = list->key.proto;
    }

    struct flow flow;
    flow_extract(r, &flow);
    list->reass_data_ofs = head;
    return r;
}

/* Inserts FI's fragment P into LIST, or rejects it.  Returns true if P
 * was taken (held or dropped), false if it stays in the batch. */
static bool
ipf_list_add(struct ipf *ipf, struct ipf_list *list, struct dp_packet *p,
             const struct ipf_frag_info *fi, size_t max_frags)
{
    bool v6 = list->key.v6;

    /* Where it goes, and whether it overlaps. */
    size_t pos = 0;
    while (pos < list->n_frags && list->frags[pos].start < fi->start) {
        pos++;
    }
    bool dup = false, overlap = false;
    if (pos > 0 && list->frags[pos - 1].end > fi->start) {
        overlap = true;
    }
    if (pos < list->n_frags && list->frags[pos].start < fi->end) {
        const struct ipf_frag *next = &list->frags[pos];
        if (next->start == fi->start && next->end == fi->end) {
            dup = true;
        } else {
            overlap = true;
        }
    }
    /* Inconsistent with the datagram's end: past a known last fragment,
     * or a last fragment that ends before data already held. */
    if (list->have_last && (fi->end > list->total
                            || (!fi->more && fi->end != list->total))) {
        overlap = true;
    }
    if (!fi->more && list->n_frags
        && list->frags[list->n_frags - 1].end > fi->end) {
        overlap = true;
    }
    if (overlap || dup) {
        ipf_count(ipf, v6, IPF_OVERLAPPED, 1);
        dp_packet_delete(p);
        if (overlap) {
            ipf_list_fail(ipf, list);
        }
        return true;
    }

    if (list->n_frags >= max_frags) {
        return false;
    }

    /* Held: a heap packet is kept as it is, others are copied. */
    struct dp_packet *held = p;
    if (p->source != DPBUF_MALLOC || !p->heap_struct) {
        held = dp_packet_clone(p);
        dp_packet_delete(p);
    }
    if (list->n_frags >= list->allocated) {
        list->allocated = list->allocated ? 2 * list->allocated : 4;
        list->frags = xrealloc(list->frags,
                               list->allocated * sizeof *list->frags);
    }
    memmove(&list->frags[pos + 1], &list->frags[pos],
            (list->n_frags - pos) * sizeof *list->frags);
    list->frags[pos] = (struct ipf_frag) {
        .packet = held, .start = fi->start, .end = fi->end,
        .data_ofs = fi->data_ofs,
    };
    list->n_frags++;
    ipf->nfrags++;
    ipf_count(ipf, v6, IPF_ACCEPTED, 1);

    if (!fi->start) {
        list->have_first = true;
    }
    if (!fi->more) {
        list->have_last = true;
        list->total = fi->end;
    }
    list->state = (list->have_first && list->have_last ? IPF_FIRST_LAST_SEEN
                   : list->have_first ? IPF_FIRST_SEEN
                   : list->have_last ? IPF_LAST_SEEN
                   : IPF_OTHER_SEEN);
    return true;
}

/* Whether LIST (sorted, without overlaps) covers its whole datagram. */
static bool
ipf_list_complete(const struct ipf_list *list)
{
    if (!list->have_first || !list->have_last) {
        return false;
    }
    for (size_t i = 1; i < list->n_frags; i++) {
        if (list->frags[i - 1].end != list->frags[i].start) {
            return false;
        }
    }
    return list->frags[list->n_frags - 1].end == list->total;
}

/* Handles fragment P (described by FI).  Returns true if P was taken out
 * of the batch; *REASSEMBLED then may be a completed datagram's packet. */
static bool
ipf_handle_frag(struct ipf *ipf, struct dp_packet *p,
                struct ipf_frag_info *fi, uint16_t zone, long long int now,
                struct dp_packet **reassembled)
{
    bool v6 = fi->key.v6;
    *reassembled = NULL;
    fi->key.zone = zone;

    if (fi->more && fi->l3_len < ipf_min_frag(ipf, v6)) {
        ipf_count(ipf, v6, IPF_TOO_SMALL, 1);
        dp_packet_delete(p);
        return true;
    }

    uint32_t hash = ipf_key_hash(&fi->key);
    struct ipf_list *list = ipf_list_lookup(ipf, &fi->key, hash);
    if (list && list->state == IPF_FAILED) {
        /* The rest of an invalid datagram. */
        ipf_count(ipf, v6, IPF_OVERLAPPED, 1);
        dp_packet_delete(p);
        return true;
    }

    /* The datagram would be too big: invalid. */
    uint32_t unfrag = v6 ? fi->hdr_len - IPV6_FRAG_HEADER_LEN
                           - IPV6_HEADER_LEN
                         : fi->hdr_len;
    if (fi->end + unfrag > IP_MAX_DATAGRAM) {
        if (list) {
            ipf_list_fail(ipf, list);
        }
        ipf_count(ipf, v6, IPF_OVERLAPPED, 1);
        dp_packet_delete(p);
        return true;
    }

    uint32_t max_nfrags = atomic_load_explicit(&ipf->max_nfrags,
                                               memory_order_relaxed);
    bool full = ipf->nfrags >= max_nfrags;
    if (!list) {
        if (full) {
            return false;
        }
        /* At most as many lists as fragments may be held: that bounds
         * the tombstones too. */
        if (hmap_count(&ipf->lists) >= max_nfrags) {
            return false;
        }
        list = xzalloc(sizeof *list);
        list->key = fi->key;
        list->expiration = now + IPF_LIST_TIMEOUT_MS;
        list->state = IPF_OTHER_SEEN;
        hmap_insert(&ipf->lists, &list->node, hash);
        ovs_list_push_back(&ipf->expiry, &list->exp_node);
        if (ovs_list_is_singleton(&ipf->expiry)) {
            ipf_update_next_expiry(ipf);
        }
    }

    /* A full module still rejects overlaps (ipf_list_add() checks them
     * first), but holds nothing more. */
    size_t max_frags = full ? 0 : ipf_max_frags_per_list(ipf, v6);
    if (!ipf_list_add(ipf, list, p, fi, max_frags)) {
        if (!list->n_frags && list->state != IPF_FAILED) {
            ipf_list_remove(ipf, list);
            ipf_update_next_expiry(ipf);
        }
        return false;
    }
    if (list->state == IPF_FIRST_LAST_SEEN && ipf_list_complete(list)) {
        struct ipf_frag_info first;
        ovs_assert(ipf_parse(list->frags[0].packet, v6, &first)
                   == IPF_FRAG);
        /* The first fragment's headers may be longer than the others'
         * (IPv4 options, IPv6 extension headers). */
        uint32_t first_unfrag = v6 ? first.hdr_len - IPV6_FRAG_HEADER_LEN
                                     - IPV6_HEADER_LEN
                                   : first.hdr_len;
        if (first_unfrag + list->total > IP_MAX_DATAGRAM) {
            ipf_list_fail(ipf, list);
            return true;
        }
        struct dp_packet *r = ipf_reassemble(list, &first);
        hmap_remove(&ipf->lists, &list->node);
        ovs_list_remove(&list->exp_node);
        ipf_update_next_expiry(ipf);
        list->state = IPF_COMPLETE;
        list->reassembled = r;
        hmap_insert(&ipf->out, &list->node, hash_pointer(r, 0));
        atomic_fetch_add_explicit(&ipf->n_out, 1, memory_order_relaxed);
        *reassembled = r;
    }
    return true;
}

void
ipf_preprocess(struct ipf *ipf, struct dp_packet_batch *batch,
               uint16_t dl_type, uint16_t zone, long long int now)
{
    ipf_expire(ipf, now);

    bool v6;
    if (dl_type == ETH_TYPE_IP) {
        v6 = false;
    } else if (dl_type == ETH_TYPE_IPV6) {
        v6 = true;
    } else {
        return;
    }
    if (!ipf_enabled(ipf, v6)) {
        return;
    }

    /* Refill BATCH in place: packets that stay keep their order, each
     * reassembled packet goes where its completing fragment was (a
     * fragment taken frees the slot, so there is always room). */
    size_t n = batch->count;
    size_t kept = 0;
    bool locked = false;
    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = batch->packets[i];
        struct ipf_frag_info fi;
        if (ipf_parse(p, v6, &fi) != IPF_FRAG) {
            batch->packets[kept++] = p;
            continue;
        }
        if (!locked) {
            ovs_mutex_lock(&ipf->mutex);
            locked = true;
        }
        struct dp_packet *r;
        if (!ipf_handle_frag(ipf, p, &fi, zone, now, &r)) {
            batch->packets[kept++] = p;
        } else if (r) {
            batch->packets[kept++] = r;
        }
    }
    if (locked) {
        ovs_mutex_unlock(&ipf->mutex);
    }
    batch->count = kept;
}

/* Postprocessing
 * ============== */

/* Carries what the tracker did to R into FRAG, of LIST. */
static void
ipf_update_frag(const struct ipf_list *list, const struct ipf_frag *frag,
                const struct dp_packet *r)
{
    struct dp_packet *p = frag->packet;

    /* The tracker's verdict: ct_state and the ct fields after the tunnel
     * options (dp-packet.h keeps them last for this reason). */
    p->md.ct_state = r->md.ct_state;
    size_t ct_ofs = offsetof(struct pkt_metadata, ct_zone);
    memcpy((char *) &p->md + ct_ofs, (const char *) &r->md + ct_ofs,
           sizeof p->md - ct_ofs);

    /* Addresses (NAT). */
    if (!dp_packet_l3(r) || !dp_packet_l3(p)) {
        /* Nothing may have moved the headers; if something did, the
         * fragments keep theirs. */
    } else if (!list->key.v6) {
        struct ip_header *fip = dp_packet_l3(p);
        const struct ip_header *rip = dp_packet_l3(r);
        if (fip->ip_src != rip->ip_src) {
            fip->ip_csum = recalc_csum32(fip->ip_csum, fip->ip_src,
                                         rip->ip_src);
            fip->ip_src = rip->ip_src;
        }
        if (fip->ip_dst != rip->ip_dst) {
            fip->ip_csum = recalc_csum32(fip->ip_csum, fip->ip_dst,
                                         rip->ip_dst);
            fip->ip_dst = rip->ip_dst;
        }
    } else {
        struct ipv6_header *fip6 = dp_packet_l3(p);
        const struct ipv6_header *rip6 = dp_packet_l3(r);
        fip6->ip6_src = rip6->ip6_src;
        fip6->ip6_dst = rip6->ip6_dst;
    }

    /* The first fragment carries the L4 header: ports and checksum. */
    if (!frag->start) {
        size_t len = frag->end - frag->start;
        const uint8_t *src = dp_packet_at(r, list->reass_data_ofs, len);
        uint8_t *dst = dp_packet_at(p, frag->data_ofs, len);
        if (src && dst) {
            memcpy(dst, src, len);
        }
    }
}

static void
ipf_batch_add(struct dp_packet_batch *batch, struct dp_packet *p,
              ipf_flush_cb *flush, void *aux)
{
    if (dp_packet_batch_is_full(batch)) {
        flush(batch, aux);
        ovs_assert(!batch->count);
    }
    dp_packet_batch_add(batch, p);
}

void
ipf_postprocess(struct ipf *ipf, struct dp_packet_batch *batch,
                long long int now, ipf_flush_cb *flush, void *aux)
{
    ipf_expire(ipf, now);
    if (!atomic_load_explicit(&ipf->n_out, memory_order_relaxed)) {
        return;
    }

    /* Under the mutex, claim this batch's lists (they leave 'out', so
     * they are this thread's alone); rewrite and emit after unlocking,
     * since FLUSH may run actions that come back here. */
    struct ipf_list *mine[NETDEV_MAX_BURST];
    size_t n = batch->count;
    bool any = false;
    ovs_mutex_lock(&ipf->mutex);
    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = batch->packets[i];
        struct ipf_list *list;
        mine[i] = NULL;
        HMAP_FOR_EACH_WITH_HASH (list, node, hash_pointer(p, 0), &ipf->out) {
            if (list->reassembled == p) {
                hmap_remove(&ipf->out, &list->node);
                atomic_fetch_sub_explicit(&ipf->n_out, 1,
                                          memory_order_relaxed);
                ipf->nfrags -= list->n_frags;
                ipf_count(ipf, list->key.v6, IPF_COMPLETED, list->n_frags);
                mine[i] = list;
                any = true;
                break;
            }
        }
    }
    ovs_mutex_unlock(&ipf->mutex);
    if (!any) {
        return;
    }

    struct dp_packet *packets[NETDEV_MAX_BURST];
    memcpy(packets, batch->packets, n * sizeof *packets);
    dp_packet_batch_init(batch);
    for (size_t i = 0; i < n; i++) {
        struct ipf_list *list = mine[i];
        if (!list) {
            ipf_batch_add(batch, packets[i], flush, aux);
            continue;
        }
        for (size_t j = 0; j < list->n_frags; j++) {
            ipf_update_frag(list, &list->frags[j], packets[i]);
            ipf_batch_add(batch, list->frags[j].packet, flush, aux);
        }
        list->n_frags = 0;
        dp_packet_delete(packets[i]);
        ipf_list_free(list);
    }
}

/* Status
 * ====== */

void
ipf_get_status(struct ipf *ipf, struct ipf_status *st)
{
    memset(st, 0, sizeof *st);
    st->max_nfrags = atomic_load_explicit(&ipf->max_nfrags,
                                          memory_order_relaxed);
    ovs_mutex_lock(&ipf->mutex);
    st->nfrags = ipf->nfrags;
    for (int v6 = 0; v6 < 2; v6++) {
        struct ipf_family_status *f = v6 ? &st->v6 : &st->v4;
        const uint64_t *c = ipf->counters[v6];
        f->n_accepted = c[IPF_ACCEPTED];
        f->n_completed = c[IPF_COMPLETED];
        f->n_expired = c[IPF_EXPIRED];
        f->n_too_small = c[IPF_TOO_SMALL];
        f->n_overlapped = c[IPF_OVERLAPPED];
        f->n_purged = c[IPF_PURGED];
    }
    ovs_mutex_unlock(&ipf->mutex);
    for (int v6 = 0; v6 < 2; v6++) {
        struct ipf_family_status *f = v6 ? &st->v6 : &st->v4;
        f->enabled = ipf_enabled(ipf, v6);
        f->min_frag_size = ipf_min_frag(ipf, v6);
    }
}

static void
ipf_format_family(const char *name, const struct ipf_family_status *f,
                  struct ds *out)
{
    static const char *const pad = "        ";
    ds_put_format(out, "%smin %s frag size: %"PRIu32"\n",
                  pad, name, f->min_frag_size);
    ds_put_format(out, "%s%s frags accepted: %"PRIu64"\n",
                  pad, name, f->n_accepted);
    ds_put_format(out, "%s%s frags completed: %"PRIu64"\n",
                  pad, name, f->n_completed);
    ds_put_format(out, "%s%s frags expired: %"PRIu64"\n",
                  pad, name, f->n_expired);
    ds_put_format(out, "%s%s frags too small: %"PRIu64"\n",
                  pad, name, f->n_too_small);
    ds_put_format(out, "%s%s frags overlapped: %"PRIu64"\n",
                  pad, name, f->n_overlapped);
    ds_put_format(out, "%s%s frags purged: %"PRIu64"\n",
                  pad, name, f->n_purged);
}

static void
ipf_format_list(const struct ipf_list *list, struct ds *out)
{
    const struct ipf_key *k = &list->key;
    ds_put_cstr(out, "(src=");
    if (k->v6) {
        char buf[INET6_ADDRSTRLEN];
        ds_put_cstr(out, inet_ntop(AF_INET6, &k->src, buf, sizeof buf));
        ds_put_cstr(out, ",dst=");
        ds_put_cstr(out, inet_ntop(AF_INET6, &k->dst, buf, sizeof buf));
    } else {
        ovs_be32 src, dst;
        memcpy(&src, &k->src, 4);
        memcpy(&dst, &k->dst, 4);
        ds_put_format(out, IP_FMT",dst="IP_FMT, IP_ARGS(src), IP_ARGS(dst));
    }
    /* 3.1 keys IPv6 lists without the protocol and shows 0. */
    ds_put_format(out, ",recirc_id=%"PRIu32",ip_id=%"PRIu32",dl_type=0x%x,"
                  "zone=%u,nw_proto=%u,num_fragments=%zu,state=%s)\n",
                  k->recirc_id, k->id, k->v6 ? ETH_TYPE_IPV6 : ETH_TYPE_IP,
                  k->zone, k->v6 ? 0 : k->proto, list->n_frags,
                  ipf_state_name(list->state));
}

void
ipf_format_status(struct ipf *ipf, bool more, struct ds *out)
{
    struct ipf_status st;
    ipf_get_status(ipf, &st);
    ds_put_cstr(out, "        Fragmentation Module Status\n"
                     "        ---------------------------\n");
    ds_put_format(out, "        v4 enabled: %d\n", st.v4.enabled);
    ds_put_format(out, "        v6 enabled: %d\n", st.v6.enabled);
    ds_put_format(out, "        max num frags (v4/v6): %"PRIu32"\n",
                  st.max_nfrags);
    ds_put_format(out, "        num frag: %"PRIu32"\n", st.nfrags);
    ipf_format_family("v4", &st.v4, out);
    ipf_format_family("v6", &st.v6, out);
    if (more) {
        ds_put_cstr(out, "\n        Fragment Lists:\n\n");
        ovs_mutex_lock(&ipf->mutex);
        const struct ipf_list *list;
        HMAP_FOR_EACH (list, node, &ipf->lists) {
            ipf_format_list(list, out);
        }
        HMAP_FOR_EACH (list, node, &ipf->out) {
            ipf_format_list(list, out);
        }
        ovs_mutex_unlock(&ipf->mutex);
    }
}
