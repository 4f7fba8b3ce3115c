/* Unit tests for ipf.h: IPv4 and IPv6 reassembly in and out of order,
 * the fragments given back after the tracker with its header rewrites and
 * metadata, expiry by the simulated clock, refused fragments (overlapping,
 * duplicate, too small) and their counters, the limits (max-nfrags, a
 * flood), settings and the status text. */
#include <config.h>
#include "ipf.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "csum.h"
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "flow.h"
#include "ovs-thread.h"
#include "packets.h"
#include "timeval.h"
#include "util.h"

#define SRC4 htonl(0x0a010101)      /* 10.1.1.1 */
#define DST4 htonl(0x0a010102)      /* 10.1.1.2 */
#define NAT4 htonl(0xc0a80001)      /* 192.168.0.1 */

static const uint8_t eth_v4[ETH_HEADER_LEN] = {
    0x50, 0x54, 0, 0, 0, 0x0a, 0x50, 0x54, 0, 0, 0, 0x09, 0x08, 0x00 };
static const uint8_t eth_v6[ETH_HEADER_LEN] = {
    0x50, 0x54, 0, 0, 0, 0x0a, 0x50, 0x54, 0, 0, 0, 0x09, 0x86, 0xdd };

/* A UDP datagram of LEN bytes (header included), checksummed for SRC and
 * DST (IPv4 if V6 is NULL). */
static uint8_t *
make_udp(size_t len, ovs_be32 src, ovs_be32 dst,
         const struct in6_addr *v6_src, const struct in6_addr *v6_dst)
{
    uint8_t *d = xmalloc(len);
    for (size_t i = UDP_HEADER_LEN; i < len; i++) {
        d[i] = i * 7;
    }
    struct udp_header *udp = (struct udp_header *) d;
    udp->udp_src = htons(1234);
    udp->udp_dst = htons(5678);
    udp->udp_len = htons(len);
    udp->udp_csum = 0;
    uint32_t partial = (v6_src
                        ? csum_pseudo_ipv6(v6_src, v6_dst, IPPROTO_UDP, len)
                        : csum_pseudo_ipv4(src, dst, IPPROTO_UDP, len));
    udp->udp_csum = csum_finish(csum_continue(partial, d, len));
    return d;
}

static bool
udp_csum_ok(const uint8_t *d, size_t len, ovs_be32 src, ovs_be32 dst,
            const struct in6_addr *v6_src, const struct in6_addr *v6_dst)
{
    uint32_t partial = (v6_src
                        ? csum_pseudo_ipv6(v6_src, v6_dst, IPPROTO_UDP, len)
                        : csum_pseudo_ipv4(src, dst, IPPROTO_UDP, len));
    return csum_finish(csum_continue(partial, d, len)) == 0;
}

static void
extract(struct dp_packet *p)
{
    struct flow flow;
    flow_extract(p, &flow);
}

/* An IPv4 fragment of datagram DATA: bytes [START, START + LEN). */
static struct dp_packet *
v4_frag(const uint8_t *data, size_t start, size_t len, bool more,
        uint16_t id, ovs_be32 src)
{
    struct dp_packet *p = dp_packet_new(ETH_HEADER_LEN + IP_HEADER_LEN + len);
    dp_packet_put(p, eth_v4, sizeof eth_v4);
    struct ip_header ip = {
        .ip_ihl_ver = 0x45, .ip_tot_len = htons(IP_HEADER_LEN + len),
        .ip_id = htons(id),
        .ip_frag_off = htons((start / 8) | (more ? IP_MORE_FRAGMENTS : 0)),
        .ip_ttl = 64, .ip_proto = IPPROTO_UDP, .ip_src = src,
        .ip_dst = DST4,
    };
    ip.ip_csum = csum(&ip, sizeof ip);
    dp_packet_put(p, &ip, sizeof ip);
    dp_packet_put(p, data + start, len);
    extract(p);
    return p;
}

/* The same with OPTS_LEN (a multiple of 4) bytes of NOP options. */
static struct dp_packet *
v4_frag_opts(const uint8_t *data, size_t start, size_t len, bool more,
             uint16_t id, size_t opts_len)
{
    size_t ihl = IP_HEADER_LEN + opts_len;
    struct dp_packet *p = dp_packet_new(ETH_HEADER_LEN + ihl + len);
    dp_packet_put(p, eth_v4, sizeof eth_v4);
    uint8_t hdr[60];
    struct ip_header ip = {
        .ip_ihl_ver = 0x40 | (ihl / 4), .ip_tot_len = htons(ihl + len),
        .ip_id = htons(id),
        .ip_frag_off = htons((start / 8) | (more ? IP_MORE_FRAGMENTS : 0)),
        .ip_ttl = 64, .ip_proto = IPPROTO_UDP, .ip_src = SRC4,
        .ip_dst = DST4,
    };
    memcpy(hdr, &ip, sizeof ip);
    memset(hdr + IP_HEADER_LEN, 1, opts_len);
    ovs_be16 c = csum(hdr, ihl);
    memcpy(hdr + offsetof(struct ip_header, ip_csum), &c, sizeof c);
    dp_packet_put(p, hdr, ihl);
    dp_packet_put(p, data + start, len);
    extract(p);
    return p;
}

static struct in6_addr
v6_addr(uint8_t last)
{
    struct in6_addr a = { .s6_addr = { 0xfc } };
    a.s6_addr[15] = last;
    return a;
}

/* An IPv6 fragment, with a destination options header before the
 * fragment header if DSTOPTS. */
static struct dp_packet *
v6_frag(const uint8_t *data, size_t start, size_t len, bool more,
        uint32_t id, bool dstopts)
{
    struct dp_packet *p = dp_packet_new(128 + len);
    dp_packet_put(p, eth_v6, sizeof eth_v6);
    size_t ext = dstopts ? 8 : 0;
    struct ipv6_header ip6 = {
        .ip6_vtc_flow = htonl(0x60000000),
        .ip6_plen = htons(ext + IPV6_FRAG_HEADER_LEN + len),
        .ip6_nxt = dstopts ? IPPROTO_DSTOPTS_ : IPPROTO_FRAGMENT_,
        .ip6_hlim = 64, .ip6_src = v6_addr(1), .ip6_dst = v6_addr(2),
    };
    dp_packet_put(p, &ip6, sizeof ip6);
    if (dstopts) {
        /* Next: fragment; length 0 (8 bytes); a PadN option of 4. */
        uint8_t opts[8] = { IPPROTO_FRAGMENT_, 0, 1, 4, 0, 0, 0, 0 };
        dp_packet_put(p, opts, sizeof opts);
    }
    struct ipv6_frag_header fh = {
        .ip6f_nxt = IPPROTO_UDP,
        .ip6f_offlg = htons(start | (more ? IPV6_FRAG_MORE : 0)),
        .ip6f_ident = htonl(id),
    };
    dp_packet_put(p, &fh, sizeof fh);
    dp_packet_put(p, data + start, len);
    extract(p);
    return p;
}

static void
batch_of(struct dp_packet_batch *b, struct dp_packet **pkts, size_t n)
{
    dp_packet_batch_init(b);
    for (size_t i = 0; i < n; i++) {
        dp_packet_batch_add(b, pkts[i]);
    }
}

/* Collects what ipf_postprocess() flushes. */
struct collector {
    struct dp_packet *pkts[256];
    size_t n;
};

static void
collect(struct dp_packet_batch *b, void *aux)
{
    struct collector *c = aux;
    for (size_t i = 0; i < b->count; i++) {
        ck_assert_uint_lt(c->n, 256);
        c->pkts[c->n++] = b->packets[i];
    }
    b->count = 0;
}

static void
collect_and_delete(struct dp_packet_batch *b, void *aux OVS_UNUSED)
{
    dp_packet_batch_delete(b);
}

static void
no_flush(struct dp_packet_batch *b OVS_UNUSED, void *aux OVS_UNUSED)
{
    ck_abort_msg("unexpected flush");
}

static struct ipf_status
status(struct ipf *ipf)
{
    struct ipf_status st;
    ipf_get_status(ipf, &st);
    return st;
}

static const struct ip_header *
ip4(const struct dp_packet *p)
{
    return dp_packet_l3(p);
}

/* Checks that R is the reassembled IPv4 datagram DATA of LEN bytes. */
static void
check_reassembled_v4(const struct dp_packet *r, const uint8_t *data,
                     size_t len)
{
    const struct ip_header *ip = ip4(r);
    ck_assert_ptr_nonnull(ip);
    ck_assert_uint_eq(ntohs(ip->ip_tot_len), IP_HEADER_LEN + len);
    ck_assert_uint_eq(ntohs(ip->ip_frag_off), 0);
    ck_assert_uint_eq(csum(ip, IP_HEADER_LEN), 0);
    ck_assert_uint_eq(dp_packet_l3_size(r), IP_HEADER_LEN + len);
    ck_assert_uint_eq(r->l4_ofs, ETH_HEADER_LEN + IP_HEADER_LEN);
    ck_assert_uint_eq(r->payload_ofs, r->l4_ofs + UDP_HEADER_LEN);
    ck_assert(!memcmp(dp_packet_l4(r), data, len));
    ck_assert(udp_csum_ok(dp_packet_l4(r), len, ip->ip_src, ip->ip_dst,
                          NULL, NULL));
}

/* The NAT a tracker would do to R: new source address and port, with the
 * IP and UDP checksums updated; and a verdict in the metadata. */
static void
fake_conntrack_v4(struct dp_packet *r)
{
    struct ip_header *ip = dp_packet_l3(r);
    struct udp_header *udp = dp_packet_l4(r);
    ip->ip_csum = recalc_csum32(ip->ip_csum, ip->ip_src, NAT4);
    udp->udp_csum = recalc_csum32(udp->udp_csum, ip->ip_src, NAT4);
    ip->ip_src = NAT4;
    udp->udp_csum = recalc_csum16(udp->udp_csum, udp->udp_src, htons(4000));
    udp->udp_src = htons(4000);
    r->md.ct_state = CS_TRACKED | CS_NEW | CS_SRC_NAT;
    r->md.ct_zone = 9;
    r->md.ct_mark = 0x55;
    r->md.ct_label[15] = 7;
    r->md.ct_nw_proto = IPPROTO_UDP;
    r->md.ct_nw_src = SRC4;
}

/* Puts the data of IPv4 fragments PKTS back together into a buffer of LEN
 * bytes (for checking what postprocessing emitted). */
static void
join_v4(struct dp_packet **pkts, size_t n, uint8_t *out, size_t len)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        const struct ip_header *ip = ip4(pkts[i]);
        size_t start = (ntohs(ip->ip_frag_off) & IP_FRAG_OFF_MASK) * 8;
        size_t flen = ntohs(ip->ip_tot_len) - IP_HEADER_LEN;
        ck_assert_uint_le(start + flen, len);
        memcpy(out + start, (const uint8_t *) ip + IP_HEADER_LEN, flen);
        total += flen;
    }
    ck_assert_uint_eq(total, len);
}

START_TEST(test_v4_in_order_and_postprocess)
{
    struct ipf *ipf = ipf_create();
    size_t len = 3000;
    uint8_t *data = make_udp(len, SRC4, DST4, NULL, NULL);
    struct dp_packet *f[3] = {
        v4_frag(data, 0, 1480, true, 7, SRC4),
        v4_frag(data, 1480, 1480, true, 7, SRC4),
        v4_frag(data, 2960, 40, false, 7, SRC4),
    };
    struct dp_packet_batch b;
    batch_of(&b, f, 3);
    ipf_preprocess(ipf, &b, ETH_TYPE_IP, 9, time_msec());
    ck_assert_uint_eq(b.count, 1);
    struct dp_packet *r = b.packets[0];
    check_reassembled_v4(r, data, len);

    struct ipf_status st = status(ipf);
    ck_assert_uint_eq(st.v4.n_accepted, 3);
    ck_assert_uint_eq(st.nfrags, 3);

    fake_conntrack_v4(r);
    ipf_postprocess(ipf, &b, time_msec(), no_flush, NULL);
    ck_assert_uint_eq(b.count, 3);
    for (size_t i = 0; i < 3; i++) {
        const struct dp_packet *p = b.packets[i];
        ck_assert_ptr_eq(p, f[i]);      /* The original packets... */
        const struct ip_header *ip = ip4(p);
        ck_assert_uint_eq(ip->ip_src, NAT4);        /* ...translated. */
        ck_assert_uint_eq(csum(ip, IP_HEADER_LEN), 0);
        ck_assert_uint_eq(p->md.ct_state, CS_TRACKED | CS_NEW | CS_SRC_NAT);
        ck_assert_uint_eq(p->md.ct_zone, 9);
        ck_assert_uint_eq(p->md.ct_mark, 0x55);
        ck_assert_uint_eq(p->md.ct_label[15], 7);
        ck_assert_uint_eq(p->md.ct_nw_src, SRC4);
    }
    /* The datagram the fragments make is the NATed one, and its UDP
     * checksum (carried by the first fragment) is right. */
    uint8_t *joined = xmalloc(len);
    join_v4(b.packets, 3, joined, len);
    const struct udp_header *udp = (const struct udp_header *) joined;
    ck_assert_uint_eq(ntohs(udp->udp_src), 4000);
    ck_assert(udp_csum_ok(joined, len, NAT4, DST4, NULL, NULL));
    ck_assert(!memcmp(joined + UDP_HEADER_LEN, data + UDP_HEADER_LEN,
                      len - UDP_HEADER_LEN));

    st = status(ipf);
    ck_assert_uint_eq(st.v4.n_completed, 3);
    ck_assert_uint_eq(st.nfrags, 0);

    dp_packet_batch_delete(&b);
    free(joined);
    free(data);
    ipf_destroy(ipf);
}
END_TEST

START_TEST(test_v4_out_of_order_other_packets_kept)
{
    struct ipf *ipf = ipf_create();
    size_t len = 3000;
    uint8_t *data = make_udp(len, SRC4, DST4, NULL, NULL);
    /* Last, first, middle, each in its own batch with a non-fragment. */
    size_t starts[3] = { 2960, 0, 1480 };
    size_t lens[3] = { 40, 1480, 1480 };
    struct dp_packet *r = NULL;
    for (size_t i = 0; i < 3; i++) {
        struct dp_packet *plain = v4_frag(data, 0, 100, false, 1, SRC4);
        struct dp_packet *fr = v4_frag(data, starts[i], lens[i],
                                       starts[i] != 2960, 8, SRC4);
        struct dp_packet *pk[2] = { fr, plain };
        struct dp_packet_batch b;
        batch_of(&b, pk, 2);
        ipf_preprocess(ipf, &b, ETH_TYPE_IP, 0, time_msec());
        if (i < 2) {
            ck_assert_uint_eq(b.count, 1);
            ck_assert_ptr_eq(b.packets[0], plain);
            ipf_postprocess(ipf, &b, time_msec(), no_flush, NULL);
            ck_assert_uint_eq(b.count, 1);
        } else {
            /* The reassembled packet takes the completing fragment's
             * place. */
            ck_assert_uint_eq(b.count, 2);
            r = b.packets[0];
            ck_assert_ptr_eq(b.packets[1], plain);
            check_reassembled_v4(r, data, len);
            ipf_postprocess(ipf, &b, time_msec(), no_flush, NULL);
            ck_assert_uint_eq(b.count, 4);
            ck_assert_ptr_eq(b.packets[3], plain);
            /* In datagram order. */
            for (size_t j = 0; j < 3; j++) {
                size_t off = (ntohs(ip4(b.packets[j])->ip_frag_off)
                              & IP_FRAG_OFF_MASK) * 8;
                ck_assert_uint_eq(off, j * 1480);
            }
        }
        dp_packet_batch_delete(&b);
    }
    ck_assert_uint_eq(status(ipf).v4.n_completed, 3);
    free(data);
    ipf_destroy(ipf);
}
END_TEST

static void
v6_case(bool dstopts, bool reverse)
{
    struct ipf *ipf = ipf_create();
    struct in6_addr src = v6_addr(1), dst = v6_addr(2);
    size_t len = 3000;
    uint8_t *data = make_udp(len, 0, 0, &src, &dst);
    struct dp_packet *f[3] = {
        v6_frag(data, 0, 1400, true, 0x12345, dstopts),
        v6_frag(data, 1400, 1400, true, 0x12345, dstopts),
        v6_frag(data, 2800, 200, false, 0x12345, dstopts),
    };
    if (reverse) {
        struct dp_packet *t = f[0];
        f[0] = f[2];
        f[2] = t;
    }
    struct dp_packet_batch b;
    batch_of(&b, f, 3);
    ipf_preprocess(ipf, &b, ETH_TYPE_IPV6, 0, time_msec());
    ck_assert_uint_eq(b.count, 1);
    struct dp_packet *r = b.packets[0];
    const struct ipv6_header *ip6 = dp_packet_l3(r);
    size_t ext = dstopts ? 8 : 0;
    ck_assert_uint_eq(ntohs(ip6->ip6_plen), ext + len);
    ck_assert_uint_eq(dp_packet_l3_size(r), IPV6_HEADER_LEN + ext + len);
    if (dstopts) {
        ck_assert_uint_eq(ip6->ip6_nxt, IPPROTO_DSTOPTS_);
        ck_assert_uint_eq(((const uint8_t *) (ip6 + 1))[0], IPPROTO_UDP);
    } else {
        ck_assert_uint_eq(ip6->ip6_nxt, IPPROTO_UDP);
    }
    ck_assert_uint_eq(r->l4_ofs, ETH_HEADER_LEN + IPV6_HEADER_LEN + ext);
    ck_assert(!memcmp(dp_packet_l4(r), data, len));
    ck_assert(udp_csum_ok(dp_packet_l4(r), len, 0, 0, &src, &dst));

    /* NAT of the destination address and port. */
    struct in6_addr nat = v6_addr(0x99);
    struct ipv6_header *wip6 = dp_packet_l3(r);
    struct udp_header *udp = dp_packet_l4(r);
    udp->udp_csum = recalc_csum128(udp->udp_csum, &wip6->ip6_dst, &nat);
    wip6->ip6_dst = nat;
    udp->udp_csum = recalc_csum16(udp->udp_csum, udp->udp_dst, htons(80));
    udp->udp_dst = htons(80);
    r->md.ct_state = CS_TRACKED | CS_NEW | CS_DST_NAT;

    ipf_postprocess(ipf, &b, time_msec(), no_flush, NULL);
    ck_assert_uint_eq(b.count, 3);
    uint8_t *joined = xzalloc(len);
    size_t total = 0;
    for (size_t i = 0; i < 3; i++) {
        const struct dp_packet *p = b.packets[i];
        const struct ipv6_header *h = dp_packet_l3(p);
        ck_assert(!memcmp(&h->ip6_dst, &nat, sizeof nat));
        ck_assert_uint_eq(p->md.ct_state, CS_TRACKED | CS_NEW | CS_DST_NAT);
        const uint8_t *fh = (const uint8_t *) (h + 1) + ext;
        size_t start = ntohs(*(const ovs_be16 *) (fh + 2)) & 0xfff8;
        size_t flen = ntohs(h->ip6_plen) - ext - IPV6_FRAG_HEADER_LEN;
        memcpy(joined + start, fh + IPV6_FRAG_HEADER_LEN, flen);
        total += flen;
    }
    ck_assert_uint_eq(total, len);
    ck_assert(udp_csum_ok(joined, len, 0, 0, &src, &nat));
    ck_assert_uint_eq(ntohs(((struct udp_header *) joined)->udp_dst), 80);
    struct ipf_status st = status(ipf);
    ck_assert_uint_eq(st.v6.n_accepted, 3);
    ck_assert_uint_eq(st.v6.n_completed, 3);
    ck_assert_uint_eq(st.v4.n_accepted, 0);
    free(joined);
    free(data);
    dp_packet_batch_delete(&b);
    ipf_destroy(ipf);
}

START_TEST(test_v6_in_order) { v6_case(false, false); } END_TEST
START_TEST(test_v6_out_of_order) { v6_case(false, true); } END_TEST
START_TEST(test_v6_ext_headers) { v6_case(true, false); } END_TEST
START_TEST(test_v6_ext_headers_out_of_order) { v6_case(true, true); }
END_TEST

START_TEST(test_expiry)
{
    time_stop();
    struct ipf *ipf = ipf_create();
    uint8_t *data = make_udp(3000, SRC4, DST4, NULL, NULL);
    struct dp_packet *f = v4_frag(data, 0, 1480, true, 3, SRC4);
    struct dp_packet_batch b;
    batch_of(&b, &f, 1);
    ipf_preprocess(ipf, &b, ETH_TYPE_IP, 0, time_msec());
    ck_assert_uint_eq(b.count, 0);

    time_warp(IPF_LIST_TIMEOUT_MS - 1);
    ipf_expire(ipf, time_msec());
    ck_assert_uint_eq(status(ipf).nfrags, 1);

    time_warp(1);
    /* The next batch of any kind expires it. */
    dp_packet_batch_init(&b);
    ipf_preprocess(ipf, &b, ETH_TYPE_IP, 0, time_msec());
    struct ipf_status st = status(ipf);
    ck_assert_uint_eq(st.nfrags, 0);
    ck_assert_uint_eq(st.v4.n_expired, 1);

    /* Its other fragments then start a new datagram that cannot
     * complete. */
    struct dp_packet *last = v4_frag(data, 1480, 1520, false, 3, SRC4);
    batch_of(&b, &last, 1);
    ipf_preprocess(ipf, &b, ETH_TYPE_IP, 0, time_msec());
    ck_assert_uint_eq(b.count, 0);
    ck_assert_uint_eq(status(ipf).nfrags, 1);
    free(data);
    ipf_destroy(ipf);
}
END_TEST

START_TEST(test_overlap_rejected)
{
    struct ipf *ipf = ipf_create();
    uint8_t *data = make_udp(3000, SRC4, DST4, NULL, NULL);
    /* First fragment 0..1480; the last starts 8 bytes early. */
    struct dp_packet *f[2] = {
        v4_frag(data, 0, 1480, true, 4, SRC4),
        v4_frag(data, 1472, 1528, false, 4, SRC4),
    };
    struct dp_packet_batch b;
    batch_of(&b, f, 2);
    ipf_preprocess(ipf, &b, ETH_TYPE_IP, 0, time_msec());
    ck_assert_uint_eq(b.count, 0);
    struct ipf_status st = status(ipf);
    ck_assert_uint_eq(st.v4.n_accepted, 1);
    ck_assert_uint_eq(st.v4.n_overlapped, 1);
    ck_assert_uint_eq(st.v4.n_purged, 1);
    ck_assert_uint_eq(st.nfrags, 0);

    /* The right fragments now: the datagram stays invalid. */
    struct dp_packet *g[2] = {
        v4_frag(data, 0, 1480, true, 4, SRC4),
        v4_frag(data, 1480, 1520, false, 4, SRC4),
    };
    batch_of(&b, g, 2);
    ipf_preprocess(ipf, &b, ETH_TYPE_IP, 0, time_msec());
    ck_assert_uint_eq(b.count, 0);
    st = status(ipf);
    ck_assert_uint_eq(st.v4.n_overlapped, 3);
    ck_assert_uint_eq(st.v4.n_completed, 0);

    struct ds s = DS_EMPTY_INITIALIZER;
    ipf_format_status(ipf, true, &s);
    ck_assert_ptr_nonnull(strstr(ds_cstr(&s),
        "(src=10.1.1.1,dst=10.1.1.2,recirc_id=0,ip_id=4,dl_type=0x800,"
        "zone=0,nw_proto=17,num_fragments=0,state=reassemble fail)\n"));
    ds_destroy(&s);
    free(data);
    ipf_destroy(ipf);
}
END_TEST

START_TEST(test_duplicate_dropped_datagram_completes)
{
    struct ipf *ipf = ipf_create();
    size_t len = 3000;
    uint8_t *data = make_udp(len, SRC4, DST4, NULL, NULL);
    struct dp_packet *f[3] = {
        v4_frag(data, 0, 1480, true, 5, SRC4),
        v4_frag(data, 0, 1480, true, 5, SRC4),
        v4_frag(data, 1480, 1520, false, 5, SRC4),
    };
    struct dp_packet_batch b;
    batch_of(&b, f, 3);
    ipf_preprocess(ipf, &b, ETH_TYPE_IP, 0, time_msec());
    ck_assert_uint_eq(b.count, 1);
    check_reassembled_v4(b.packets[0], data, len);
    ck_assert_uint_eq(status(ipf).v4.n_overlapped, 1);
    ipf_postprocess(ipf, &b, time_msec(), no_flush, NULL);
    ck_assert_uint_eq(b.count, 2);
    dp_packet_batch_delete(&b);
    free(data);
    ipf_destroy(ipf);
}
END_TEST

START_TEST(test_too_small)
{
    struct ipf *ipf = ipf_create();
    uint8_t *data = make_udp(3000, SRC4, DST4, NULL, NULL);
    /* 20 + 600 bytes, not last: below 1200. */
    struct dp_packet *f[2] = {
        v4_frag(data, 0, 600, true, 6, SRC4),
        v4_frag(data, 600, 100, false, 6, SRC4),   /* A short last: ok. */
    };
    struct dp_packet_batch b;
    batch_of(&b, f, 2);
    ipf_preprocess(ipf, &b, ETH_TYPE_IP, 0, time_msec());
    ck_assert_uint_eq(b.count, 0);
    struct ipf_status st = status(ipf);
    ck_assert_uint_eq(st.v4.n_too_small, 1);
    ck_assert_uint_eq(st.v4.n_accepted, 1);

    /* With the minimum at 600, the same fragment is taken and the
     * datagram (700 bytes) completes. */
    ck_assert(ipf_set_min_frag(ipf, false, 600));
    struct dp_packet *g = v4_frag(data, 0, 600, true, 6, SRC4);
    batch_of(&b, &g, 1);
    ipf_preprocess(ipf, &b, ETH_TYPE_IP, 0, time_msec());
    ck_assert_uint_eq(b.count, 1);
    ck_assert_uint_eq(ntohs(ip4(b.packets[0])->ip_tot_len), 720);
    ipf_postprocess(ipf, &b, time_msec(), no_flush, NULL);
    ck_assert_uint_eq(b.count, 2);
    dp_packet_batch_delete(&b);
    free(data);
    ipf_destroy(ipf);
}
END_TEST

START_TEST(test_max_nfrags)
{
    struct ipf *ipf = ipf_create();
    ck_assert(ipf_set_max_nfrags(ipf, 10));
    uint8_t *data = make_udp(3000, SRC4, DST4, NULL, NULL);
    struct dp_packet *f[20];
    for (size_t i = 0; i < 20; i++) {
        f[i] = v4_frag(data, 0, 1480, true, 100 + i, SRC4);
    }
    struct dp_packet_batch b;
    batch_of(&b, f, 20);
    ipf_preprocess(ipf, &b, ETH_TYPE_IP, 0, time_msec());
    /* Ten held, ten left to the tracker untouched. */
    ck_assert_uint_eq(b.count, 10);
    for (size_t i = 0; i < 10; i++) {
        ck_assert_ptr_eq(b.packets[i], f[10 + i]);
    }
    struct ipf_status st = status(ipf);
    ck_assert_uint_eq(st.nfrags, 10);
    ck_assert_uint_eq(st.v4.n_accepted, 10);
    dp_packet_batch_delete(&b);
    free(data);
    ipf_destroy(ipf);
}
END_TEST

/* Many fragments of many datagrams, all sizes and offsets: memory stays
 * within max-nfrags. */
START_TEST(test_flood_bounded)
{
    struct ipf *ipf = ipf_create();
    ck_assert(ipf_set_max_nfrags(ipf, 100));
    ck_assert(ipf_set_min_frag(ipf, false, 400));
    uint8_t *data = make_udp(65000, SRC4, DST4, NULL, NULL);
    unsigned int seed = 12345;
    for (int round = 0; round < 300; round++) {
        struct dp_packet *f[NETDEV_MAX_BURST];
        for (size_t i = 0; i < NETDEV_MAX_BURST; i++) {
            seed = seed * 1103515245 + 12345;
            size_t start = (seed >> 8) % 8000 * 8;
            size_t len = 400 + (seed >> 4) % 64 * 8;
            f[i] = v4_frag(data, start, len, (seed & 3) != 0,
                           (seed >> 16) % 500, SRC4);
        }
        struct dp_packet_batch b;
        batch_of(&b, f, NETDEV_MAX_BURST);
        ipf_preprocess(ipf, &b, ETH_TYPE_IP, round % 3, time_msec());
        ipf_postprocess(ipf, &b, time_msec(), collect_and_delete, NULL);
        dp_packet_batch_delete(&b);
        ck_assert_uint_le(status(ipf).nfrags, 100);
    }
    /* Lists are bounded too: at most max-nfrags lines in the dump. */
    struct ds s = DS_EMPTY_INITIALIZER;
    ipf_format_status(ipf, true, &s);
    size_t lines = 0;
    for (const char *p = ds_cstr(&s); (p = strstr(p, "(src=")); p++) {
        lines++;
    }
    ck_assert_uint_le(lines, 100);
    ds_destroy(&s);
    free(data);
    ipf_destroy(ipf);
}
END_TEST

/* IPv6 counters are their own; an atomic fragment and a malformed one
 * are left to the tracker. */
START_TEST(test_v6_refusals)
{
    struct ipf *ipf = ipf_create();
    struct in6_addr src = v6_addr(1), dst = v6_addr(2);
    uint8_t *data = make_udp(3000, 0, 0, &src, &dst);
    struct dp_packet *f[5] = {
        v6_frag(data, 0, 400, true, 1, false),      /* 448 < 1280. */
        v6_frag(data, 0, 1400, true, 2, true),
        v6_frag(data, 1392, 1608, false, 2, true),  /* Overlaps by 8. */
        v6_frag(data, 0, 3000, false, 3, false),    /* Atomic. */
        v6_frag(data, 0, 1404, true, 4, false),     /* Not 8-aligned. */
    };
    struct dp_packet_batch b;
    batch_of(&b, f, 5);
    ipf_preprocess(ipf, &b, ETH_TYPE_IPV6, 0, time_msec());
    ck_assert_uint_eq(b.count, 2);
    ck_assert_ptr_eq(b.packets[0], f[3]);
    ck_assert_ptr_eq(b.packets[1], f[4]);
    struct ipf_status st = status(ipf);
    ck_assert_uint_eq(st.v6.n_too_small, 1);
    ck_assert_uint_eq(st.v6.n_accepted, 1);
    ck_assert_uint_eq(st.v6.n_overlapped, 1);
    ck_assert_uint_eq(st.v6.n_purged, 1);
    ck_assert_uint_eq(st.v4.n_too_small + st.v4.n_overlapped, 0);
    ck_assert_uint_eq(st.nfrags, 0);
    dp_packet_batch_delete(&b);
    free(data);
    ipf_destroy(ipf);
}
END_TEST

/* The largest datagram reassembles; with IPv4 options in its first
 * fragment it would pass 65535 bytes, so it is invalid. */
static void
big_case(size_t opts_len)
{
    struct ipf *ipf = ipf_create();
    size_t len = 65512, flen = 1480, n = DIV_ROUND_UP(len, flen);
    uint8_t *data = make_udp(len, SRC4, DST4, NULL, NULL);
    struct dp_packet_batch b;
    dp_packet_batch_init(&b);
    for (size_t i = 0; i < n; i++) {
        size_t start = i * flen;
        size_t this_len = MIN(flen, len - start);
        dp_packet_batch_add(&b, v4_frag_opts(data, start, this_len,
                                             i + 1 < n, 99,
                                             i ? 0 : opts_len));
        if (dp_packet_batch_is_full(&b) || i + 1 == n) {
            ipf_preprocess(ipf, &b, ETH_TYPE_IP, 0, time_msec());
        }
    }
    struct ipf_status st = status(ipf);
    ck_assert_uint_eq(st.v4.n_accepted, n);
    if (!opts_len) {
        ck_assert_uint_eq(b.count, 1);
        check_reassembled_v4(b.packets[0], data, len);
        ipf_postprocess(ipf, &b, time_msec(), collect_and_delete, NULL);
        dp_packet_batch_delete(&b);
        ck_assert_uint_eq(status(ipf).v4.n_completed, n);
    } else {
        ck_assert_uint_eq(b.count, 0);
        ck_assert_uint_eq(st.v4.n_purged, n);
        ck_assert_uint_eq(st.nfrags, 0);
    }
    free(data);
    ipf_destroy(ipf);
}

START_TEST(test_largest_datagram) { big_case(0); } END_TEST
START_TEST(test_too_big_datagram) { big_case(40); } END_TEST

/* A datagram of 40 fragments: more than a batch holds on the way out. */
START_TEST(test_postprocess_overflow)
{
    struct ipf *ipf = ipf_create();
    ck_assert(ipf_set_min_frag(ipf, false, 400));
    size_t n = 40, flen = 384, len = n * flen;
    uint8_t *data = make_udp(len, SRC4, DST4, NULL, NULL);
    struct dp_packet_batch b;
    dp_packet_batch_init(&b);
    struct dp_packet *orig[40];
    for (size_t i = 0; i < n; i++) {
        orig[i] = v4_frag(data, i * flen, flen, i + 1 < n, 77, SRC4);
        dp_packet_batch_add(&b, orig[i]);
        if (dp_packet_batch_is_full(&b) || i + 1 == n) {
            ipf_preprocess(ipf, &b, ETH_TYPE_IP, 0, time_msec());
        }
    }
    ck_assert_uint_eq(b.count, 1);
    check_reassembled_v4(b.packets[0], data, len);

    struct collector c = { .n = 0 };
    ipf_postprocess(ipf, &b, time_msec(), collect, &c);
    ck_assert_uint_eq(c.n, NETDEV_MAX_BURST);
    ck_assert_uint_eq(b.count, n - NETDEV_MAX_BURST);
    collect(&b, &c);
    for (size_t i = 0; i < n; i++) {
        ck_assert_ptr_eq(c.pkts[i], orig[i]);
        dp_packet_delete(c.pkts[i]);
    }
    ck_assert_uint_eq(status(ipf).v4.n_completed, n);
    free(data);
    ipf_destroy(ipf);
}
END_TEST

START_TEST(test_disabled_family_untouched)
{
    struct ipf *ipf = ipf_create();
    ipf_set_enabled(ipf, false, false);
    uint8_t *data = make_udp(3000, SRC4, DST4, NULL, NULL);
    struct dp_packet *f = v4_frag(data, 0, 1480, true, 9, SRC4);
    struct dp_packet_batch b;
    batch_of(&b, &f, 1);
    ipf_preprocess(ipf, &b, ETH_TYPE_IP, 0, time_msec());
    ck_assert_uint_eq(b.count, 1);
    ck_assert_ptr_eq(b.packets[0], f);
    /* IPv6 is still on. */
    struct ipf_status st = status(ipf);
    ck_assert(!st.v4.enabled);
    ck_assert(st.v6.enabled);
    ck_assert_uint_eq(st.v4.n_accepted, 0);
    ipf_set_enabled(ipf, false, true);
    ipf_preprocess(ipf, &b, ETH_TYPE_IP, 0, time_msec());
    ck_assert_uint_eq(b.count, 0);
    free(data);
    ipf_destroy(ipf);
}
END_TEST

START_TEST(test_settings_and_status_text)
{
    struct ipf *ipf = ipf_create();
    struct ipf_status st = status(ipf);
    ck_assert(st.v4.enabled && st.v6.enabled);
    ck_assert_uint_eq(st.max_nfrags, 1000);
    ck_assert_uint_eq(st.v4.min_frag_size, 1200);
    ck_assert_uint_eq(st.v6.min_frag_size, 1280);

    ck_assert(!ipf_set_min_frag(ipf, false, 399));
    ck_assert(!ipf_set_max_nfrags(ipf, 5001));
    ck_assert(ipf_set_max_nfrags(ipf, 5000));
    ck_assert(ipf_set_min_frag(ipf, false, 1000));
    ck_assert(ipf_set_max_nfrags(ipf, 500));
    ck_assert(ipf_set_min_frag(ipf, true, 400));
    ck_assert(ipf_set_min_frag(ipf, true, 1280));

    struct ds s = DS_EMPTY_INITIALIZER;
    ipf_format_status(ipf, true, &s);
    ck_assert_str_eq(ds_cstr(&s),
        "        Fragmentation Module Status\n"
        "        ---------------------------\n"
        "        v4 enabled: 1\n"
        "        v6 enabled: 1\n"
        "        max num frags (v4/v6): 500\n"
        "        num frag: 0\n"
        "        min v4 frag size: 1000\n"
        "        v4 frags accepted: 0\n"
        "        v4 frags completed: 0\n"
        "        v4 frags expired: 0\n"
        "        v4 frags too small: 0\n"
        "        v4 frags overlapped: 0\n"
        "        v4 frags purged: 0\n"
        "        min v6 frag size: 1280\n"
        "        v6 frags accepted: 0\n"
        "        v6 frags completed: 0\n"
        "        v6 frags expired: 0\n"
        "        v6 frags too small: 0\n"
        "        v6 frags overlapped: 0\n"
        "        v6 frags purged: 0\n"
        "\n"
        "        Fragment Lists:\n"
        "\n");

    /* A held IPv6 fragment shows in the lists. */
    struct in6_addr src = v6_addr(1), dst = v6_addr(2);
    uint8_t *data = make_udp(3000, 0, 0, &src, &dst);
    struct dp_packet *f = v6_frag(data, 1400, 1400, true, 42, false);
    struct dp_packet_batch b;
    batch_of(&b, &f, 1);
    ipf_preprocess(ipf, &b, ETH_TYPE_IPV6, 3, time_msec());
    ds_clear(&s);
    ipf_format_status(ipf, true, &s);
    ck_assert_ptr_nonnull(strstr(ds_cstr(&s),
        "        num frag: 1\n"));
    ck_assert_ptr_nonnull(strstr(ds_cstr(&s),
        "        v6 frags accepted: 1\n"));
    ck_assert_ptr_nonnull(strstr(ds_cstr(&s),
        "        Fragment Lists:\n\n"
        "(src=fc00::1,dst=fc00::2,recirc_id=0,ip_id=42,dl_type=0x86dd,"
        "zone=3,nw_proto=0,num_fragments=1,state=other frag)\n"));
    /* Without -m, no lists. */
    ds_clear(&s);
    ipf_format_status(ipf, false, &s);
    ck_assert_ptr_null(strstr(ds_cstr(&s), "Fragment Lists"));
    ds_destroy(&s);
    free(data);
    ipf_destroy(ipf);
}
END_TEST

/* Receive threads reassembling concurrently, the main thread reading the
 * status meanwhile: every datagram comes back whole. */
struct worker {
    struct ipf *ipf;
    const uint8_t *data;
    uint16_t zone;
    size_t n_back;
};

static void *
worker_main(void *w_)
{
    struct worker *w = w_;
    for (int round = 0; round < 200; round++) {
        /* Ten datagrams of three fragments, interleaved in 30 packets. */
        struct dp_packet *f[30];
        for (size_t d = 0; d < 10; d++) {
            uint16_t id = round * 10 + d;
            f[d] = v4_frag(w->data, 1480, 1480, true, id, SRC4);
            f[10 + d] = v4_frag(w->data, 2960, 40, false, id, SRC4);
            f[20 + d] = v4_frag(w->data, 0, 1480, true, id, SRC4);
        }
        struct dp_packet_batch b;
        batch_of(&b, f, 30);
        ipf_preprocess(w->ipf, &b, ETH_TYPE_IP, w->zone, time_msec());
        if (b.count != 10) {
            return NULL;        /* Reported by n_back. */
        }
        struct collector c = { .n = 0 };
        ipf_postprocess(w->ipf, &b, time_msec(), collect, &c);
        collect(&b, &c);
        w->n_back += c.n;
        for (size_t i = 0; i < c.n; i++) {
            dp_packet_delete(c.pkts[i]);
        }
    }
    return NULL;
}

START_TEST(test_threads)
{
    struct ipf *ipf = ipf_create();
    uint8_t *data = make_udp(3000, SRC4, DST4, NULL, NULL);
    /* Same ids, different zones: distinct datagrams. */
    struct worker w[2] = {
        { .ipf = ipf, .data = data, .zone = 1 },
        { .ipf = ipf, .data = data, .zone = 2 },
    };
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
        t[i] = ovs_thread_create("ipf-worker", worker_main, &w[i]);
    }
    for (int i = 0; i < 100; i++) {
        struct ds s = DS_EMPTY_INITIALIZER;
        ipf_format_status(ipf, true, &s);
        ds_destroy(&s);
        ipf_set_min_frag(ipf, true, 400 + i);
    }
    for (int i = 0; i < 2; i++) {
        xpthread_join(t[i], NULL);
        ck_assert_uint_eq(w[i].n_back, 200 * 30);
    }
    struct ipf_status st = status(ipf);
    ck_assert_uint_eq(st.v4.n_accepted, 2 * 200 * 30);
    ck_assert_uint_eq(st.v4.n_completed, 2 * 200 * 30);
    ck_assert_uint_eq(st.nfrags, 0);
    free(data);
    ipf_destroy(ipf);
}
END_TEST

static Suite *
ipf_suite(void)
{
    Suite *s = suite_create("ipf");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_v4_in_order_and_postprocess);
    tcase_add_test(tc, test_v4_out_of_order_other_packets_kept);
    tcase_add_test(tc, test_v6_in_order);
    tcase_add_test(tc, test_v6_out_of_order);
    tcase_add_test(tc, test_v6_ext_headers);
    tcase_add_test(tc, test_v6_ext_headers_out_of_order);
    tcase_add_test(tc, test_expiry);
    tcase_add_test(tc, test_overlap_rejected);
    tcase_add_test(tc, test_duplicate_dropped_datagram_completes);
    tcase_add_test(tc, test_too_small);
    tcase_add_test(tc, test_max_nfrags);
    tcase_add_test(tc, test_flood_bounded);
    tcase_add_test(tc, test_postprocess_overflow);
    tcase_add_test(tc, test_disabled_family_untouched);
    tcase_add_test(tc, test_settings_and_status_text);
    tcase_add_test(tc, test_threads);
    tcase_add_test(tc, test_largest_datagram);
    tcase_add_test(tc, test_v6_refusals);
    tcase_add_test(tc, test_too_big_datagram);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ipf_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
