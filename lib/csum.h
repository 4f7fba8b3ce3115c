/* csum: the Internet checksum (RFC 1071), its incremental update (RFC
 * 1624) and CRC32c (for SCTP).
 *
 * A "partial" sum is the 32-bit running total of 16-bit big-endian words
 * before folding; csum_finish() folds and complements it into the value a
 * header stores.  All checksums are returned in network byte order, ready
 * to store.  Pure functions: any thread may call them. */
#ifndef CSUM_H
#define CSUM_H 1

#include <stddef.h>
#include <stdint.h>
#include "types.h"

struct in6_addr;

/* Adds N bytes at DATA (an odd last byte is padded with zero) to PARTIAL.
 * DATA must start on an even offset of the summed region. */
uint32_t csum_continue(uint32_t partial, const void *data, size_t n);
ovs_be16 csum_finish(uint32_t partial);
/* The checksum of N bytes at DATA. */
ovs_be16 csum(const void *data, size_t n);

/* The pseudo-header sums for TCP/UDP/ICMPv6: addresses, protocol and the
 * L4 length (RFC 793 and RFC 8200 section 8.1). */
uint32_t csum_pseudo_ipv4(ovs_be32 src, ovs_be32 dst, uint8_t proto,
                          uint16_t l4_len);
uint32_t csum_pseudo_ipv6(const struct in6_addr *src,
                          const struct in6_addr *dst, uint8_t proto,
                          uint32_t l4_len);

/* The checksum that OLD_CSUM becomes when a 16-bit, 32-bit or 128-bit
 * field that it covers changes from OLD to NEW. */
ovs_be16 recalc_csum16(ovs_be16 old_csum, ovs_be16 old, ovs_be16 new);
ovs_be16 recalc_csum32(ovs_be16 old_csum, ovs_be32 old, ovs_be32 new);
ovs_be16 recalc_csum128(ovs_be16 old_csum, const void *old, const void *new);

/* CRC32c (Castagnoli) of N bytes, as SCTP stores it (RFC 4960 B): the
 * result is stored as-is in the header's checksum field. */
ovs_be32 crc32c(const void *data, size_t n);

#endif /* csum.h */
