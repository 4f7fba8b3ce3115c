/* libFuzzer target: fragment reassembly (lib/ipf.c) fed arbitrary
 * sequences of IPv4 and IPv6 fragments, raw frames, clock jumps and
 * setting changes.
 *
 * The input is a list of operations; each starts with an opcode byte:
 *   op % 8 == 0, 1, 2  an IPv4 fragment; 3, 4  an IPv6 fragment (op & 8:
 *                      with a destination options header first).  Then
 *                      5 bytes: id (1, few values so datagrams meet),
 *                      offset in 8-byte units (2), data length (2); op &
 *                      16 sets "more fragments", op & 32 picks zone 1.
 *                      The data bytes are PATTERN(datagram offset), the
 *                      same for every datagram, so any reassembled packet
 *                      must carry PATTERN throughout;
 *   op % 8 == 5        a raw frame: 1 length byte, then that many bytes;
 *   op % 8 == 6        runs the batch so far (it also runs when full);
 *   op % 8 == 7        op >> 3: 0..15 warp the clock by that many seconds,
 *                      16..23 set a minimum fragment size, 24..27 set
 *                      max-nfrags, 28..31 toggle a family.
 * Each batch goes through ipf_preprocess(), a fake tracker that NATs the
 * reassembled packets' source address, and ipf_postprocess().  What must
 * hold:
 *   - a reassembled packet has right lengths, a right IPv4 header
 *     checksum, no fragment bits or IPv6 fragment header, and PATTERN data;
 *   - what postprocessing gives back carries the tracker's verdict and
 *     address if it was a reassembled datagram's fragment;
 *   - counters balance: accepted = completed + expired + purged + held,
 *     and held <= max-nfrags;
 *   - nothing leaks (ipf_destroy() at the end; ASan checks).
 * Any disagreement aborts, which libFuzzer reports as a crash. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "csum.h"
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "flow.h"
#include "ipf.h"
#include "packets.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(COND) do { if (!(COND)) { abort(); } } while (0)

#define NAT_SRC 0xc0a80063          /* 192.168.0.99 */
#define FUZZ_CT_MARK 0x7777

static uint8_t
pattern(size_t i)
{
    return (i * 131) >> 3;
}

static const uint8_t eth_v4[ETH_HEADER_LEN] = {
    2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00 };
static const uint8_t eth_v6[ETH_HEADER_LEN] = {
    2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x86, 0xdd };

static void
put_pattern(struct dp_packet *p, size_t start, size_t len)
{
    uint8_t *d = dp_packet_put_uninit(p, len);
    for (size_t i = 0; i < len; i++) {
        d[i] = pattern(start + i);
    }
}

static struct dp_packet *
make_frag(bool v6, bool dstopts, uint8_t id, size_t start, size_t len,
          bool more)
{
    struct dp_packet *p = dp_packet_new(128 + len);
    if (!v6) {
        dp_packet_put(p, eth_v4, sizeof eth_v4);
        struct ip_header ip = {
            .ip_ihl_ver = 0x45, .ip_tot_len = htons(IP_HEADER_LEN + len),
            .ip_id = htons(id),
            .ip_frag_off = htons(((start / 8) & IP_FRAG_OFF_MASK)
                                 | (more ? IP_MORE_FRAGMENTS : 0)),
            .ip_ttl = 64, .ip_proto = IPPROTO_UDP,
            .ip_src = htonl(0x0a000001), .ip_dst = htonl(0x0a000002),
        };
        ip.ip_csum = csum(&ip, sizeof ip);
        dp_packet_put(p, &ip, sizeof ip);
    } else {
        dp_packet_put(p, eth_v6, sizeof eth_v6);
        size_t ext = dstopts ? 8 : 0;
        struct ipv6_header ip6 = {
            .ip6_vtc_flow = htonl(0x60000000),
            .ip6_plen = htons(ext + IPV6_FRAG_HEADER_LEN + len),
            .ip6_nxt = dstopts ? IPPROTO_DSTOPTS_ : IPPROTO_FRAGMENT_,
            .ip6_hlim = 64,
        };
        ip6.ip6_src.s6_addr[0] = ip6.ip6_dst.s6_addr[0] = 0xfc;
        ip6.ip6_src.s6_addr[15] = 1;
        ip6.ip6_dst.s6_addr[15] = 2;
        dp_packet_put(p, &ip6, sizeof ip6);
        if (dstopts) {
            uint8_t opts[8] = { IPPROTO_FRAGMENT_, 0, 1, 4, 0, 0, 0, 0 };
            dp_packet_put(p, opts, sizeof opts);
        }
        struct ipv6_frag_header fh = {
            .ip6f_nxt = IPPROTO_UDP,
            .ip6f_offlg = htons((start & IPV6_FRAG_OFF_MASK)
                                | (more ? IPV6_FRAG_MORE : 0)),
            .ip6f_ident = htonl(id),
        };
        dp_packet_put(p, &fh, sizeof fh);
    }
    put_pattern(p, start & 0xfff8, len);
    return p;
}

/* Checks reassembled packet R and plays the tracker on it. */
static void
check_and_track(struct dp_packet *r)
{
    const uint8_t *l3 = dp_packet_l3(r);
    CHECK(l3);
    size_t l3_size = dp_packet_l3_size(r);
    size_t data_ofs;
    if (l3[0] >> 4 == 4) {
        struct ip_header *ip = dp_packet_l3(r);
        size_t ihl = IP_IHL(ip->ip_ihl_ver) * 4;
        CHECK(ntohs(ip->ip_tot_len) == l3_size);
        CHECK(!(ntohs(ip->ip_frag_off)
                & (IP_MORE_FRAGMENTS | IP_FRAG_OFF_MASK)));
        CHECK(!csum(ip, ihl));
        data_ofs = ihl;
        ip->ip_csum = recalc_csum32(ip->ip_csum, ip->ip_src,
                                    htonl(NAT_SRC));
        ip->ip_src = htonl(NAT_SRC);
    } else {
        struct ipv6_header *ip6 = dp_packet_l3(r);
        CHECK(ntohs(ip6->ip6_plen) + IPV6_HEADER_LEN == l3_size);
        data_ofs = IPV6_HEADER_LEN;
        if (ip6->ip6_nxt == IPPROTO_DSTOPTS_ && !r->md.recirc_id) {
            data_ofs += 8;
            CHECK(l3[IPV6_HEADER_LEN] == IPPROTO_UDP);
        } else if (!r->md.recirc_id) {
            CHECK(ip6->ip6_nxt == IPPROTO_UDP);
        }
        ip6->ip6_src.s6_addr[15] = 0x63;
    }
    CHECK(data_ofs <= l3_size);
    for (size_t i = data_ofs; !r->md.recirc_id && i < l3_size; i++) {
        CHECK(l3[i] == pattern(i - data_ofs));
    }
    r->md.ct_state = CS_TRACKED | CS_NEW | CS_SRC_NAT;
    r->md.ct_mark = FUZZ_CT_MARK;
}

/* Counts what postprocessing gave back. */
struct emitted {
    size_t n;
};

static void
check_emitted(struct dp_packet *p)
{
    if (p->md.ct_state & CS_SRC_NAT) {
        /* A reassembled datagram's fragment: translated. */
        CHECK(p->md.ct_state == (CS_TRACKED | CS_NEW | CS_SRC_NAT));
        CHECK(p->md.ct_mark == FUZZ_CT_MARK);
        const uint8_t *l3 = dp_packet_l3(p);
        CHECK(l3);
        if (l3[0] >> 4 == 4) {
            const struct ip_header *ip = dp_packet_l3(p);
            CHECK(ip->ip_src == htonl(NAT_SRC));
            CHECK(!csum(ip, IP_IHL(ip->ip_ihl_ver) * 4));
        } else {
            const struct ipv6_header *ip6 = dp_packet_l3(p);
            CHECK(ip6->ip6_src.s6_addr[15] == 0x63);
        }
    }
}

static void
flush(struct dp_packet_batch *b, void *aux)
{
    struct emitted *e = aux;
    for (size_t i = 0; i < b->count; i++) {
        check_emitted(b->packets[i]);
        e->n++;
    }
    dp_packet_batch_delete(b);
}

static void
check_balance(struct ipf *ipf)
{
    struct ipf_status st;
    ipf_get_status(ipf, &st);
    uint64_t in = st.v4.n_accepted + st.v6.n_accepted;
    uint64_t out = (st.v4.n_completed + st.v4.n_expired + st.v4.n_purged
                    + st.v6.n_completed + st.v6.n_expired
                    + st.v6.n_purged);
    CHECK(in - out == st.nfrags);
    CHECK(st.nfrags <= IPF_MAX_NFRAGS_UPPER_BOUND);
}

static void
run_batch(struct ipf *ipf, struct dp_packet_batch *b, bool v6, int zone)
{
    struct dp_packet *in[NETDEV_MAX_BURST];
    size_t n_in = b->count;
    memcpy(in, b->packets, n_in * sizeof *in);

    ipf_preprocess(ipf, b, v6 ? ETH_TYPE_IPV6 : ETH_TYPE_IP, zone,
                   time_msec());
    for (size_t i = 0; i < b->count; i++) {
        struct dp_packet *p = b->packets[i];
        bool input = false;
        for (size_t j = 0; j < n_in; j++) {
            input |= in[j] == p;
        }
        if (!input) {
            check_and_track(p);
        } else {
            p->md.ct_state = CS_TRACKED | CS_INVALID;
        }
    }
    struct emitted e = { 0 };
    ipf_postprocess(ipf, b, time_msec(), flush, &e);
    flush(b, &e);
    check_balance(ipf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool initialized;
    if (!initialized) {
        initialized = true;
        vlog_set_levels_from_string_assert("ANY:ANY:OFF");
        time_stop();
    }

    struct ipf *ipf = ipf_create();
    /* Small limits so that the fuzzer reaches them. */
    CHECK(ipf_set_min_frag(ipf, false, 400));
    CHECK(ipf_set_min_frag(ipf, true, 400));
    CHECK(ipf_set_max_nfrags(ipf, 64));

    /* One batch per family and zone at a time, as a ct() action sees. */
    struct dp_packet_batch b;
    dp_packet_batch_init(&b);
    bool b_v6 = false;
    int b_zone = 0;

    size_t i = 0;
    while (i < size) {
        uint8_t op = data[i++];
        unsigned int kind = op % 8;
        if (kind <= 4) {
            if (size - i < 5) {
                break;
            }
            bool v6 = kind >= 3;
            uint8_t id = data[i] % 4;
            size_t start = ((data[i + 1] << 8) | data[i + 2]) % 8300 * 8;
            size_t len = ((data[i + 3] << 8) | data[i + 4]) % 1600;
            i += 5;
            int zone = (op & 32) ? 1 : 0;
            if (b.count && (v6 != b_v6 || zone != b_zone)) {
                run_batch(ipf, &b, b_v6, b_zone);
            }
            b_v6 = v6;
            b_zone = zone;
            struct dp_packet *p = make_frag(v6, op & 8, id, start, len,
                                            op & 16);
            struct flow flow;
            flow_extract(p, &flow);
            dp_packet_batch_add(&b, p);
        } else if (kind == 5) {
            if (size - i < 1) {
                break;
            }
            size_t len = MIN(data[i], size - i - 1);
            struct dp_packet *p = dp_packet_clone_data(data + i + 1, len);
            i += 1 + len;
            /* Its own datagrams: never mixed with the pattern ones. */
            p->md.recirc_id = 1;
            struct flow flow;
            flow_extract(p, &flow);
            bool v6 = flow.dl_type == htons(ETH_TYPE_IPV6);
            if (b.count && v6 != b_v6) {
                run_batch(ipf, &b, b_v6, b_zone);
            }
            b_v6 = v6;
            dp_packet_batch_add(&b, p);
        } else if (kind == 6) {
            run_batch(ipf, &b, b_v6, b_zone);
        } else {
            unsigned int arg = op >> 3;
            if (arg < 16) {
                time_warp(arg * 1000);
            } else if (arg < 24) {
                CHECK(ipf_set_min_frag(ipf, arg & 1, 400 + (arg & 6) * 200));
            } else if (arg < 28) {
                CHECK(ipf_set_max_nfrags(ipf, (arg - 24) * 40));
            } else {
                struct ipf_status st;
                ipf_get_status(ipf, &st);
                bool v6 = arg & 1;
                ipf_set_enabled(ipf, v6,
                                !(v6 ? st.v6.enabled : st.v4.enabled));
            }
        }
        if (dp_packet_batch_is_full(&b)) {
            run_batch(ipf, &b, b_v6, b_zone);
        }
    }
    run_batch(ipf, &b, b_v6, b_zone);

    struct ds s = DS_EMPTY_INITIALIZER;
    ipf_format_status(ipf, true, &s);
    CHECK(strstr(ds_cstr(&s), "Fragmentation Module Status"));
    ds_destroy(&s);
    ipf_destroy(ipf);
    return 0;
}
