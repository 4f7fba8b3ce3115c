/* tunnel-config: what a tunnel interface's options say, parsed.
 *
 * An Interface of a tunnel type (vxlan, gre, geneve, erspan, ip6erspan,
 * ip6gre, gtpu, ...) is a netdev of that type whose options
 * (remote_ip, local_ip, key/in_key/out_key, dst_port, tos, ttl,
 * df_default, csum, egress_pkt_mark, packet_type, ...) become one struct
 * tunnel_config.  Three users share it:
 *
 *   - ofproto's tunnel map, which tells tunnel ports apart by
 *     (type, remote, local, key, dst_port) and says, for a packet leaving
 *     through one, which outer header fields it gets;
 *   - native tunneling, which builds the encapsulation header from it;
 *   - dpif/show, which prints the options that differ from the defaults.
 *
 * The struct is plain data: copy it freely.  A tunnel netdev's config is
 * replaced whole on reconfiguration (never edited in place), so a reader
 * holding a copy never sees half of a change. */
#ifndef TUNNEL_CONFIG_H
#define TUNNEL_CONFIG_H 1

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include "types.h"

/* Which packets a tunnel carries (options:packet_type). */
enum tunnel_pt_mode {
    TUNNEL_PT_LEGACY_L2,        /* Ethernet frames (the default). */
    TUNNEL_PT_LEGACY_L3,        /* IP packets without Ethernet header. */
    TUNNEL_PT_PTAP,             /* Either, with packet_type in the flow. */
};

struct tunnel_config {
    /* Key (VNI for vxlan/geneve, GRE key).  "flow": taken from or left
     * in the flow's tun_id instead of fixed. */
    bool in_key_present, in_key_flow;
    ovs_be64 in_key;
    bool out_key_present, out_key_flow;
    ovs_be64 out_key;

    /* Outer addresses: IPv4 as IPv4-mapped IPv6 (::ffff:a.b.c.d).
     * "flow": from the flow's tun_src/tun_dst. */
    struct in6_addr ipv6_src;   /* Unspecified (::): any local address. */
    struct in6_addr ipv6_dst;
    bool ip_src_flow, ip_dst_flow;

    ovs_be16 dst_port;          /* UDP tunnels: 0 for the type's default
                                 * is never stored; the default is filled
                                 * in (4789 vxlan, 6081 geneve, 2152
                                 * gtpu). */
    ovs_be16 payload_ethertype;

    uint8_t tos;                /* Outer TOS, unless tos_inherit. */
    bool tos_inherit;
    uint8_t ttl;                /* Outer TTL (64 default), unless
                                 * ttl_inherit. */
    bool ttl_inherit;
    bool csum;                  /* Outer checksum (GRE, UDP). */
    bool dont_fragment;         /* df_default (true by default). */

    uint32_t egress_pkt_mark;
    bool set_egress_pkt_mark;
    uint32_t exts;              /* TUNNEL_EXT_* (vxlan extensions). */
    enum tunnel_pt_mode pt_mode;

    /* ERSPAN. */
    bool set_seq;
    uint8_t erspan_ver, erspan_dir, erspan_hwid;
    uint32_t erspan_idx;
    bool erspan_ver_flow, erspan_idx_flow, erspan_dir_flow,
         erspan_hwid_flow;
};

/* options:exts for vxlan. */
#define TUNNEL_EXT_VXLAN_GBP  (1u << 0)
#define TUNNEL_EXT_VXLAN_GPE  (1u << 1)

#endif /* tunnel-config.h */
