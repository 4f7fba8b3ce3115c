/* gen-tnl-pop-seeds DIR: writes the seed corpus of the tnl-pop fuzz target
 * (and of flow-extract, which pops too) into DIR, one file per frame, named
 * after what it is: valid outer frames of every tunnel type over IPv4 and
 * IPv6, made the way the switch makes them (tnl_header_build(), then
 * tnl_header_push() onto an inner frame), plus GTP-U frames written by
 * hand (extension headers and signalling the switch does not build).
 * A developer tool, built only on request; the corpus it wrote is
 * committed under tests/fuzz/corpus/tnl-pop. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "csum.h"
#include "dp-packet.h"
#include "flow.h"
#include "ip-addr.h"
#include "packets.h"
#include "tnl-header.h"
#include "tunnel-config.h"
#include "util.h"

/* An inner Ethernet + IPv4 + UDP frame with 6 bytes of payload. */
static const uint8_t inner_eth[] = {
    0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x08, 0x00,
    0x45, 0x00, 0x00, 0x22, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
    0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0x02,
    0x04, 0xd2, 0x16, 0x2e, 0x00, 0x0e, 0x00, 0x00,
    'h', 'e', 'l', 'l', 'o', '\n',
};
#define INNER_IP_OFS 14

static void
write_file(const char *dir, const char *name, const void *data, size_t size)
{
    char *path = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
        ovs_fatal(errno, "%s", path);
    }
    free(path);
}

struct seed {
    const char *name;
    enum tnl_type type;
    bool ipv6;
    uint16_t flags;             /* FLOW_TNL_F_*: CSUM, OAM, DF. */
    bool gre_key, gre_seq;
    bool gpe;
    bool ip_inner;              /* GRE or VXLAN-GPE carrying bare IPv4. */
    uint8_t erspan_ver;
    bool geneve_opts;
};

static const struct seed seeds[] = {
    { "vxlan-ipv4", TNL_TYPE_VXLAN, false, 0, false, false, false, false,
      0, false },
    { "vxlan-ipv4-csum", TNL_TYPE_VXLAN, false, FLOW_TNL_F_CSUM, false,
      false, false, false, 0, false },
    { "vxlan-ipv6", TNL_TYPE_VXLAN, true, 0, false, false, false, false,
      0, false },
    { "vxlan-gpe-ipv4-inner", TNL_TYPE_VXLAN, false, 0, false, false, true,
      true, 0, false },
    { "geneve-ipv4", TNL_TYPE_GENEVE, false, 0, false, false, false, false,
      0, false },
    { "geneve-ipv4-opts", TNL_TYPE_GENEVE, false, FLOW_TNL_F_OAM, false,
      false, false, false, 0, true },
    { "geneve-ipv6-opts", TNL_TYPE_GENEVE, true, 0, false, false, false,
      false, 0, true },
    { "gre-ipv4", TNL_TYPE_GRE, false, 0, false, false, false, false, 0,
      false },
    { "gre-ipv4-csum-key-seq", TNL_TYPE_GRE, false, FLOW_TNL_F_CSUM, true,
      true, false, false, 0, false },
    { "gre-ipv4-key-ip-inner", TNL_TYPE_GRE, false, 0, true, false, false,
      true, 0, false },
    { "ip6gre-csum-key-seq", TNL_TYPE_IP6GRE, true, FLOW_TNL_F_CSUM, true,
      true, false, false, 0, false },
    { "erspan-v1-ipv4", TNL_TYPE_ERSPAN, false, 0, false, false, false,
      false, 1, false },
    { "erspan-v2-ipv4", TNL_TYPE_ERSPAN, false, 0, false, false, false,
      false, 2, false },
    { "ip6erspan-v1", TNL_TYPE_IP6ERSPAN, true, 0, false, false, false,
      false, 1, false },
    { "ip6erspan-v2", TNL_TYPE_IP6ERSPAN, true, 0, false, false, false,
      false, 2, false },
};

/* Two Geneve options: class 0x0102 type 0x80 (critical) with 4 bytes,
 * class 0xffff type 0x01 with 8 bytes. */
static const uint8_t geneve_opts[] = {
    0x01, 0x02, 0x80, 0x01, 0xde, 0xad, 0xbe, 0xef,
    0xff, 0xff, 0x01, 0x02, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
};

static void
write_seed(const char *dir, const struct seed *s)
{
    struct flow_tnl tnl;
    memset(&tnl, 0, sizeof tnl);
    struct in6_addr src;
    if (s->ipv6) {
        ipv6_parse("2001:db8::1", &src);
        ipv6_parse("2001:db8::2", &tnl.ipv6_dst);
    } else {
        src = in6_addr_mapped_ipv4(htonl(0x0a000001));
        tnl.ip_dst = htonl(0x0a000002);
    }
    tnl.tun_id = htonll(s->erspan_ver ? 0x123 : 0x7b);
    tnl.ip_ttl = 64;
    tnl.ip_tos = 0x10;
    tnl.flags = s->flags;
    tnl.erspan_ver = s->erspan_ver;
    tnl.erspan_idx = 0x7;
    tnl.erspan_dir = 1;
    tnl.erspan_hwid = 0x3;

    struct tunnel_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.out_key_present = s->gre_key;
    cfg.set_seq = s->gre_seq;
    cfg.exts = s->gpe ? TUNNEL_EXT_VXLAN_GPE : 0;
    cfg.erspan_ver_flow = cfg.erspan_idx_flow = true;
    cfg.erspan_dir_flow = cfg.erspan_hwid_flow = true;

    struct tnl_header_params p = {
        .type = s->type,
        .cfg = &cfg,
        .tnl = &tnl,
        .packet_type = (s->ip_inner && s->gpe ? htonl(PT_IPV4)
                        : s->ip_inner ? htonl(PACKET_TYPE(PT_NS_ETHERTYPE,
                                                          ETH_TYPE_IP))
                        : htonl(PT_ETH)),
        .dmac = { { 0, 0, 0, 0, 0, 0x0b } },
        .smac = { { 0, 0, 0, 0, 0, 0x0a } },
        .src = src,
        .geneve_opts = s->geneve_opts ? geneve_opts : NULL,
        .geneve_opts_len = s->geneve_opts ? sizeof geneve_opts : 0,
    };
    struct tnl_push_action push;
    memset(&push, 0, sizeof push);
    int error = tnl_header_build(&p, &push);
    if (error) {
        ovs_fatal(error, "%s: cannot build", s->name);
    }

    const uint8_t *inner = s->ip_inner ? inner_eth + INNER_IP_OFS : inner_eth;
    size_t inner_len = sizeof inner_eth - (s->ip_inner ? INNER_IP_OFS : 0);
    struct dp_packet *packet = dp_packet_new_with_headroom(
        inner_len, TNL_PUSH_HEADER_SIZE);
    dp_packet_put(packet, inner, inner_len);
    packet->md.packet_type = p.packet_type;
    tnl_header_push(packet, &push);
    struct dp_packet *check = dp_packet_clone(packet);
    if (tnl_header_pop(check, s->type)) {
        ovs_fatal(0, "%s: the switch refuses its own frame", s->name);
    }
    dp_packet_delete(check);
    write_file(dir, s->name, dp_packet_data(packet), dp_packet_size(packet));
    dp_packet_delete(packet);
}

/* Ethernet + IPv4 + UDP to 2152 + GTP-U (FLAGS, MSGTYPE, TEID 0x1234),
 * the N bytes EXTRA after its mandatory header (optional fields,
 * extension headers), then the inner IPv4 packet, written by hand, so
 * that the seeds have what the switch does not build itself: extension
 * headers and signalling messages. */
static void
write_gtpu_seed(const char *dir, const char *name, uint8_t flags,
                uint8_t msgtype, const uint8_t *extra, size_t n_extra)
{
    size_t ip_len = sizeof inner_eth - INNER_IP_OFS;
    size_t gtp_len = n_extra + ip_len;
    size_t udp_len = 8 + 8 + gtp_len;
    size_t tot = 20 + udp_len;
    uint8_t f[14 + 20 + 8 + 8 + 16 + sizeof inner_eth];
    size_t n = 0;
    ovs_assert(n_extra <= 16);
    static const uint8_t eth[] = { 0, 0, 0, 0, 0, 0x0b, 0, 0, 0, 0, 0, 0x0a,
                                   0x08, 0x00 };
    memcpy(f, eth, sizeof eth);
    n += sizeof eth;
    uint8_t ip[20] = { 0x45, 0, tot >> 8, tot & 0xff, 0, 0, 0x40, 0, 64,
                       IPPROTO_UDP, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2 };
    ovs_be16 c = csum(ip, sizeof ip);
    memcpy(ip + 10, &c, 2);
    memcpy(f + n, ip, sizeof ip);
    n += sizeof ip;
    uint8_t udp[8] = { 0x80, 0x00, TNL_GTPU_PORT >> 8, TNL_GTPU_PORT & 0xff,
                       udp_len >> 8, udp_len & 0xff, 0, 0 };
    memcpy(f + n, udp, sizeof udp);
    n += sizeof udp;
    uint8_t gtp[8] = { flags, msgtype, gtp_len >> 8, gtp_len & 0xff,
                       0, 0, 0x12, 0x34 };
    memcpy(f + n, gtp, sizeof gtp);
    n += sizeof gtp;
    if (n_extra) {
        memcpy(f + n, extra, n_extra);
        n += n_extra;
    }
    memcpy(f + n, inner_eth + INNER_IP_OFS, ip_len);
    n += ip_len;
    write_file(dir, name, f, n);
}

static void
write_gtpu_seeds(const char *dir)
{
    /* A plain G-PDU; one with a sequence number; one with a PDU session
     * container extension header (type 0x85, one word); an echo request
     * (message type 1, kept whole by a pop). */
    static const uint8_t seq[] = { 0x00, 0x07, 0, 0 };
    static const uint8_t ext[] = { 0, 0, 0, 0x85, 1, 0x10, 0x05, 0 };
    write_gtpu_seed(dir, "gtpu-ipv4", 0x30, 0xff, NULL, 0);
    write_gtpu_seed(dir, "gtpu-ipv4-seq", 0x32, 0xff, seq, sizeof seq);
    write_gtpu_seed(dir, "gtpu-ipv4-ext", 0x34, 0xff, ext, sizeof ext);
    write_gtpu_seed(dir, "gtpu-echo-request", 0x32, 1, seq, sizeof seq);
}

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    if (argc != 2) {
        ovs_fatal(0, "usage: %s DIR", argv[0]);
    }
    for (size_t i = 0; i < ARRAY_SIZE(seeds); i++) {
        write_seed(argv[1], &seeds[i]);
    }
    write_gtpu_seeds(argv[1]);
    return 0;
}
