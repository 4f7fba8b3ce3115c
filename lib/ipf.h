/* ipf: IPv4 and IPv6 fragment reassembly in front of the connection tracker.
 *
 * What
 * ----
 * The tracker (conntrack.h) needs whole datagrams: only the first fragment
 * carries the L4 header, and NAT must rewrite ports and the L4 checksum of
 * the whole datagram.  The datapath's ct() action therefore runs
 *
 *     ipf_preprocess()  ->  conntrack_execute()  ->  ipf_postprocess()
 *
 * on its batch.  ipf_preprocess() takes every fragment out of the batch and
 * holds it in the list of its datagram, keyed by (source, destination,
 * protocol, IP id, zone, recirculation id, family).  The fragment that
 * completes a datagram makes a reassembled packet (one unfragmented IPv4
 * or IPv6 packet with right lengths and checksums, the IPv6 fragment
 * header removed, layer offsets set by flow_extract()) that is added to
 * the batch in its place.  ipf_postprocess() replaces each reassembled
 * packet by the ORIGINAL fragments: the tracker's verdict (ct_state, zone,
 * mark, label, original tuple) is copied into each fragment's metadata,
 * the addresses of the reassembled packet into each fragment's L3 header
 * (fixing the IPv4 header checksum), and the reassembled packet's L4
 * bytes into the first fragment (NAT's ports and L4 checksum).  So the
 * wire sees the fragments the sender sent, translated.
 *
 * What is refused (as Open vSwitch 3.1 does, see docs/conntrack.md):
 *   - a fragment that is not the last one and is shorter (L3 bytes) than
 *     the family's minimum fragment size: dropped, "too small";
 *   - a fragment overlapping one already held for its datagram, exact
 *     duplicates included: dropped, "overlapped".  A partial overlap (or
 *     a fragment inconsistent with the datagram's known end) also makes
 *     the whole datagram invalid: its held fragments are dropped
 *     ("purged") and any later fragment of it is dropped ("overlapped")
 *     until the list's timeout, so it is never reassembled (RFC 5722);
 *   - a datagram that would exceed 65535 bytes: made invalid the same way;
 *   - a datagram not complete within 15 s of its first fragment: its
 *     fragments are dropped, "expired".
 * Fragments the module cannot hold because of its limits (at most
 * max-nfrags fragments in total, a per-datagram maximum derived from the
 * minimum fragment size, as many datagram lists as max-nfrags) and
 * malformed ones (bad header checksum or lengths, a non-last fragment
 * whose data is not a multiple of 8 bytes) are left in the batch
 * untouched: the tracker then judges them as it judges any packet.
 *
 * Threads
 * -------
 * The datapath's receive threads call ipf_preprocess() and
 * ipf_postprocess() concurrently; the main thread changes settings, reads
 * the status and may call ipf_expire().  All held state (the lists, the
 * held fragments, the reassembled packets handed out, the counters) is
 * under one mutex, taken only when a batch has a fragment, when a list is
 * due to expire, or when reassembled packets are out; a batch without
 * fragments costs one header test per packet and a few atomic loads.
 * Settings are atomics, read without the lock.
 *
 * Memory
 * ------
 * The module owns the fragments it holds (a fragment taken from the batch
 * is kept if it is a heap packet, else cloned and the original deleted),
 * and deletes those it drops: so the batch given to ipf_preprocess() must
 * be the caller's to free.  A caller executing a batch it does not own
 * (the datapath's top-level, non-stolen action lists) gives copies of its
 * fragments instead and takes the originals out of its batch
 * (dpif-netdev.c's exec_ct_frags()).
 * A reassembled packet added to the batch is the caller's like any batch
 * packet, but the caller must hand it back to ipf_postprocess() (the ct()
 * action always does, right after the tracker): that deletes it and emits
 * the fragments, which are then the caller's.  Held fragments are bounded
 * by max-nfrags (default 1000, at most 5000), so a flood of fragments
 * costs bounded memory and time.  ipf_destroy() frees everything held. */
#ifndef IPF_H
#define IPF_H 1

#include <stdbool.h>
#include <stdint.h>

struct dp_packet;
struct dp_packet_batch;
struct ds;

/* Defaults and bounds (3.1's). */
#define IPF_V4_MIN_FRAG_DEFAULT 1200
#define IPF_V6_MIN_FRAG_DEFAULT 1280
#define IPF_MIN_FRAG_LOWER_BOUND 400
#define IPF_MAX_NFRAGS_DEFAULT 1000
#define IPF_MAX_NFRAGS_UPPER_BOUND 5000
#define IPF_LIST_TIMEOUT_MS 15000

struct ipf;

/* Both families enabled, default sizes and limits. */
struct ipf *ipf_create(void);
/* Frees every held fragment and list.  No other call may be in progress
 * or follow.  Reassembled packets still out with a caller are the
 * caller's to delete. */
void ipf_destroy(struct ipf *);

/* Before the tracker: takes the fragments of BATCH (all of Ethernet type
 * DL_TYPE, host order: ETH_TYPE_IP or ETH_TYPE_IPV6; other types are left
 * alone), holding them or dropping them as the header says, and appends a
 * reassembled packet for each datagram they complete.  ZONE is the ct()
 * zone (part of the key); NOW is time_msec(). */
void ipf_preprocess(struct ipf *, struct dp_packet_batch *batch,
                    uint16_t dl_type, uint16_t zone, long long int now);

/* Receives a batch that filled up during ipf_postprocess(): it must take
 * (send on or delete) all of BATCH's packets and leave BATCH empty. */
typedef void ipf_flush_cb(struct dp_packet_batch *batch, void *aux);

/* After the tracker: replaces each reassembled packet of BATCH by its
 * fragments, in the batch's order, carrying over the tracker's metadata
 * and rewritten headers.  A datagram may have more fragments than a batch
 * holds: when BATCH is full, FLUSH(BATCH, AUX) is called to take what it
 * has so far, and filling continues; BATCH holds the rest on return.
 * FLUSH may not be NULL.  It is called without the module's lock, so it
 * may run actions that come back to the module (recirculation).
 * NOW is time_msec() (expiry). */
void ipf_postprocess(struct ipf *, struct dp_packet_batch *batch,
                     long long int now, ipf_flush_cb *flush, void *aux);

/* Drops the held fragments of datagrams whose timeout passed by NOW
 * (counted "expired").  ipf_preprocess() does it too; the main thread may
 * call it so that memory is returned when no fragment arrives. */
void ipf_expire(struct ipf *, long long int now);

/* Whether the family (V6) is reassembled: a caller that must copy its
 * fragments before handing them over (the ct() action on packets it does
 * not own) asks first, so that a disabled family costs no copy. */
bool ipf_is_enabled(struct ipf *, bool v6);

/* When ipf_expire() next has something to do: LLONG_MAX while nothing is
 * held, so that an idle module costs its caller no timer. */
long long int ipf_next_expiry(struct ipf *);

/* Settings (dpctl/ipf-set-enabled, ipf-set-disabled, ipf-set-min-frag,
 * ipf-set-max-nfrags).  V6 selects the family. */
void ipf_set_enabled(struct ipf *, bool v6, bool enabled);
/* Returns false (nothing changed) if SIZE is below
 * IPF_MIN_FRAG_LOWER_BOUND. */
bool ipf_set_min_frag(struct ipf *, bool v6, uint32_t size);
/* Returns false (nothing changed) if N exceeds
 * IPF_MAX_NFRAGS_UPPER_BOUND. */
bool ipf_set_max_nfrags(struct ipf *, uint32_t n);

/* Status (dpctl/ipf-get-status). */
struct ipf_family_status {
    bool enabled;
    uint32_t min_frag_size;
    uint64_t n_accepted;        /* Fragments taken and held. */
    uint64_t n_completed;       /* Held fragments sent on after
                                 * reassembly. */
    uint64_t n_expired;         /* Held fragments dropped at timeout. */
    uint64_t n_too_small;       /* Non-last fragments below the minimum. */
    uint64_t n_overlapped;      /* Fragments overlapping held ones. */
    uint64_t n_purged;          /* Held fragments of invalid datagrams. */
};

struct ipf_status {
    uint32_t max_nfrags;
    uint32_t nfrags;            /* Fragments held now. */
    struct ipf_family_status v4, v6;
};

void ipf_get_status(struct ipf *, struct ipf_status *);

/* Appends dpctl/ipf-get-status's text to OUT, as 3.1 prints it; with
 * MORE (-m, --more) also the datagram lists, one line each. */
void ipf_format_status(struct ipf *, bool more, struct ds *out);

#endif /* ipf.h */
