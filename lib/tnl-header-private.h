/* tnl-header-private: what tnl-header.c (building, pushing, popping) and
 * tnl-header-text.c (the tnl_push text) share: header constants and
 * byte-order helpers for headers that may sit at any alignment.  Private
 * to those two files. */
#ifndef TNL_HEADER_PRIVATE_H
#define TNL_HEADER_PRIVATE_H 1

#include <stdbool.h>
#include <stdint.h>
#include "tnl-header.h"

/* ERSPAN (GRE protocol 0x88be/0x22eb, with a sequence number). */
#define ERSPAN_BASE_HLEN 4              /* ver(4) vlan(12) cos/en/t(6) sid(10) */
#define ERSPAN_V1_MDSIZE 4              /* reserved(12) index(20) */
#define ERSPAN_V2_MDSIZE 8              /* timestamp(32), sgt(16), flags(16) */

/* VXLAN-GPE (options:exts=gpe): flags byte 0x0c (I and P), the O bit
 * (OAM, dropped), and the next protocol in the header's last byte before
 * the VNI. */
#define VXLAN_GPE_FLAG_P 0x04000000
#define VXLAN_GPE_FLAG_O 0x01000000
#define VXLAN_GPE_USED_BITS (VXLAN_GPE_FLAG_P | VXLAN_GPE_FLAG_O | 0xff)
#define VXLAN_GPE_NP_IPV4 1
#define VXLAN_GPE_NP_IPV6 2
#define VXLAN_GPE_NP_ETHERNET 3
#define VXLAN_GPE_NP_NSH 4

/* GTP-U (3GPP TS 29.281), over UDP port 2152: flags (version 3 bits,
 * protocol type, reserved, E, S, PN), message type, the length of what
 * follows the 8-byte mandatory header, the TEID.  With any of E, S, PN
 * the 4 optional bytes follow: sequence number (16), N-PDU number (8),
 * next extension header type (8); with E, extension headers follow them,
 * each LENGTH (first byte) 4-byte words ending in the next type. */
#define GTPU_HLEN 8
#define GTPU_OPT_LEN 4
#define GTPU_FLAGS_DEFAULT 0x30         /* Version 1, protocol type GTP. */
#define GTPU_FLAG_E 0x04
#define GTPU_FLAG_S 0x02
#define GTPU_FLAG_PN 0x01
#define GTPU_FLAGS_OPT (GTPU_FLAG_E | GTPU_FLAG_S | GTPU_FLAG_PN)
#define GTPU_MSGTYPE_GPDU 255           /* A user packet (T-PDU). */

static inline bool
is_gre_type(uint32_t type)
{
    return type == TNL_TYPE_GRE || type == TNL_TYPE_IP6GRE;
}

static inline bool
is_erspan_type(uint32_t type)
{
    return type == TNL_TYPE_ERSPAN || type == TNL_TYPE_IP6ERSPAN;
}

static inline bool
is_udp_type(uint32_t type)
{
    return (type == TNL_TYPE_VXLAN || type == TNL_TYPE_GENEVE
            || type == TNL_TYPE_GTPU);
}

static inline void
put_be16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}

static inline void
put_be32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}

static inline uint16_t
get_be16(const uint8_t *p)
{
    return (uint16_t) (p[0] << 8 | p[1]);
}

static inline uint32_t
get_be32(const uint8_t *p)
{
    return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16
           | (uint32_t) p[2] << 8 | p[3];
}

/* Whether header bytes H (Ethernet first) are over IPv6. */
static inline bool
header_is_ipv6(const uint8_t *h)
{
    return get_be16(h + 12) == ETH_TYPE_IPV6;
}

#endif /* tnl-header-private.h */
