/* libFuzzer target: the connection tracker's packet path (lib/conntrack*)
 * fed sequences of arbitrary frames under several ct() actions, so that
 * the protocol state machines, NAT and the FTP/TFTP helpers see packets
 * of the same connections in both directions.
 *
 * The input is a list of frames; each starts with two bytes:
 *   byte 0: bits 0-2 pick the ct() action (table ACTIONS below: commit,
 *           lookup, SNAT and DNAT over address and port ranges, bare nat,
 *           alg=ftp, alg=tftp with force, another zone with mark and
 *           label); bit 3 sends the frame reversed (addresses and ports
 *           swapped, as the other side would send it); bit 4 runs it
 *           after the previous frame in the same batch rather than alone;
 *           bits 5-7: advance the clock by that many seconds first
 *           (squared, so timeouts can pass);
 *   byte 1: the frame's length; that many bytes follow (fewer at the end).
 * What must hold after each batch: every packet is tracked in the action's
 * zone; a packet is never both new and established, nor invalid and
 * anything else but tracked; the tracker never holds more connections
 * than its limit; and a dump and a flush at the end work and leave
 * nothing (ASan checks for leaks after conntrack_destroy()).  Any
 * disagreement aborts, which libFuzzer reports as a crash. */
#include <config.h>

#include <arpa/inet.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "conntrack.h"
#include "dp-packet.h"
#include "flow-extract.h"
#include "flow.h"
#include "packets.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(COND) do { if (!(COND)) { abort(); } } while (0)

/* Small, so that the fuzzer reaches the limits. */
enum { FUZZ_MAXCONNS = 40, FUZZ_ZONE_LIMIT = 8, FUZZ_ZONE = 5 };

/* NAT ranges, both families, a few addresses and ports each so that
 * translations run out. */
static struct ct_nat_action snat4, dnat4, snat6, dnat6, bare_nat;

static void
init_nat(void)
{
    snat4 = (struct ct_nat_action) {
        .flags = CT_NAT_SRC, .has_addr = true,
        .min_addr.ipv4 = htonl(0xc0a80101), .max_addr.ipv4 = htonl(0xc0a80102),
        .min_port = 1000, .max_port = 1002,
    };
    dnat4 = (struct ct_nat_action) {
        .flags = CT_NAT_DST | CT_NAT_PROTO_HASH, .has_addr = true,
        .min_addr.ipv4 = htonl(0x0a000002), .max_addr.ipv4 = htonl(0x0a000003),
        .min_port = 80, .max_port = 81,
    };
    snat6 = snat4;
    snat6.min_addr.ipv4 = 0;
    snat6.max_addr.ipv4 = 0;
    inet_pton(AF_INET6, "fd00::1", &snat6.min_addr.ipv6);
    inet_pton(AF_INET6, "fd00::2", &snat6.max_addr.ipv6);
    dnat6 = dnat4;
    dnat6.min_addr.ipv4 = 0;
    dnat6.max_addr.ipv4 = 0;
    dnat6.flags = CT_NAT_DST | CT_NAT_PROTO_RANDOM;
    inet_pton(AF_INET6, "fc00::2", &dnat6.min_addr.ipv6);
    inet_pton(AF_INET6, "fc00::3", &dnat6.max_addr.ipv6);
    bare_nat = (struct ct_nat_action) { .flags = 0 };
}

/* Action number N (0..7) for packets of family V6. */
static struct ct_action
make_action(unsigned int n, bool v6)
{
    struct ct_action a;
    memset(&a, 0, sizeof a);
    switch (n) {
    case 0:
        a.commit = true;
        break;
    case 1:
        break;                          /* Lookup only. */
    case 2:
        a.commit = true;
        a.nat = v6 ? &snat6 : &snat4;
        break;
    case 3:
        a.commit = true;
        a.nat = v6 ? &dnat6 : &dnat4;
        break;
    case 4:
        a.nat = &bare_nat;              /* Translate what was NATed. */
        break;
    case 5:
        a.commit = true;
        a.alg = CT_ALG_FTP;
        break;
    case 6:
        a.commit = true;
        a.force = true;
        a.alg = CT_ALG_TFTP;
        break;
    default:
        a.commit = true;
        a.zone = FUZZ_ZONE;
        a.set_mark = true;
        a.mark_value = 0x1234;
        a.mark_mask = 0xffff;
        a.set_label = true;
        a.label_value.lo = 0x55;
        a.label_mask.lo = 0xff;
        break;
    }
    return a;
}

/* Swaps N bytes at A and B. */
static void
swap_bytes(uint8_t *a, uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t t = a[i];
        a[i] = b[i];
        b[i] = t;
    }
}

/* Turns P (already through flow_extract()) around: source and destination
 * addresses and, for TCP, UDP and SCTP, ports swapped (checksums stay
 * right: they sum both the same way). */
static void
reverse(struct dp_packet *p, const struct flow *flow)
{
    uint8_t *l3 = dp_packet_l3(p);
    size_t l3_size = l3 ? dp_packet_l3_size(p) : 0;
    if (flow->dl_type == htons(ETH_TYPE_IP) && l3_size >= IP_HEADER_LEN) {
        swap_bytes(l3 + 12, l3 + 16, 4);
    } else if (flow->dl_type == htons(ETH_TYPE_IPV6)
               && l3_size >= IPV6_HEADER_LEN) {
        swap_bytes(l3 + 8, l3 + 24, 16);
    } else {
        return;
    }
    uint8_t *l4 = dp_packet_l4(p);
    if (l4 && dp_packet_l4_size(p) >= 4
        && (flow->nw_proto == IPPROTO_TCP || flow->nw_proto == IPPROTO_UDP
            || flow->nw_proto == IPPROTO_SCTP)) {
        swap_bytes(l4, l4 + 2, 2);
    }
}

static void
check_packet(const struct dp_packet *p, const struct ct_action *a)
{
    uint32_t s = p->md.ct_state;
    CHECK(s & CS_TRACKED);
    CHECK(p->md.ct_zone == a->zone);
    CHECK(!((s & CS_NEW) && (s & CS_ESTABLISHED)));
    CHECK(!((s & CS_NEW) && (s & CS_REPLY_DIR)));
    if (s & CS_INVALID) {
        CHECK(!(s & (CS_NEW | CS_ESTABLISHED | CS_RELATED)));
    }
}

static bool
count_entry(const struct ct_entry *e, void *aux)
{
    size_t *n = aux;
    CHECK(e->orig.l3_type == AF_INET || e->orig.l3_type == AF_INET6);
    CHECK(e->reply.l3_type == e->orig.l3_type);
    (*n)++;
    return true;
}

static void
run_batch(struct conntrack *ct, struct dp_packet_batch *b, bool v6,
          const struct ct_action *a)
{
    if (!b->count) {
        return;
    }
    conntrack_execute(ct, b, v6 ? ETH_TYPE_IPV6 : ETH_TYPE_IP, a,
                      time_msec());
    struct dp_packet *p;
    DP_PACKET_BATCH_FOR_EACH (i, p, b) {
        check_packet(p, a);
    }
    dp_packet_batch_delete(b);
    CHECK(conntrack_get_nconns(ct) <= FUZZ_MAXCONNS);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool initialized;
    if (!initialized) {
        initialized = true;
        vlog_set_levels_from_string_assert("ANY:ANY:OFF");
        time_stop();
        init_nat();
    }

    struct conntrack *ct = conntrack_create();
    conntrack_set_maxconns(ct, FUZZ_MAXCONNS);
    conntrack_set_zone_limit(ct, FUZZ_ZONE, FUZZ_ZONE_LIMIT);

    /* One batch at a time, all of one family and one action, as a ct()
     * action sees them. */
    struct dp_packet_batch b;
    dp_packet_batch_init(&b);
    bool b_v6 = false;
    unsigned int b_action = 0;

    size_t i = 0;
    while (i + 2 <= size) {
        uint8_t op = data[i];
        size_t len = MIN(data[i + 1], size - i - 2);
        const uint8_t *frame = data + i + 2;
        i += 2 + len;

        unsigned int action = op & 7;
        bool reversed = op & 8;
        bool same_batch = op & 16;
        unsigned int warp = op >> 5;

        struct dp_packet *p = dp_packet_clone_data(frame, len);
        struct flow flow;
        flow_extract(p, &flow);
        bool v6 = flow.dl_type == htons(ETH_TYPE_IPV6);
        if (!v6 && flow.dl_type != htons(ETH_TYPE_IP)) {
            /* The datapath hands the tracker only IP packets. */
            dp_packet_delete(p);
            continue;
        }
        if (reversed) {
            reverse(p, &flow);
        }

        struct ct_action a = make_action(b_action, b_v6);
        if (b.count && (!same_batch || v6 != b_v6 || action != b_action
                        || warp || dp_packet_batch_is_full(&b))) {
            run_batch(ct, &b, b_v6, &a);
        }
        if (warp) {
            time_warp(warp * warp * 1000);
        }
        b_v6 = v6;
        b_action = action;
        dp_packet_batch_add(&b, p);
    }
    struct ct_action a = make_action(b_action, b_v6);
    run_batch(ct, &b, b_v6, &a);

    size_t n = 0;
    conntrack_dump(ct, NULL, count_entry, &n);
    CHECK(n <= FUZZ_MAXCONNS);
    uint16_t zone = FUZZ_ZONE;
    uint32_t limit, count;
    CHECK(conntrack_get_zone_limit(ct, FUZZ_ZONE, &limit, &count));
    CHECK(limit == FUZZ_ZONE_LIMIT && count <= FUZZ_ZONE_LIMIT);
    conntrack_flush(ct, &zone, NULL);
    CHECK(conntrack_get_zone_limit(ct, FUZZ_ZONE, &limit, &count));
    CHECK(count == 0);
    conntrack_flush(ct, NULL, NULL);
    CHECK(conntrack_get_nconns(ct) == 0);
    conntrack_destroy(ct);
    return 0;
}
