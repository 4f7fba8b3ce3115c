/* be-bytes: big-endian (network order) integers read from and written to
 * byte arrays, at any alignment.
 *
 * OpenFlow's actions, properties and matches are packed without regard to
 * the host's alignment, so their codecs read and write through these rather
 * than casting to ovs_be16/ovs_be32 pointers (which UBSan rightly calls
 * misaligned).  Pure functions: any thread. */
#ifndef BE_BYTES_H
#define BE_BYTES_H 1

#include <stdint.h>

static inline uint16_t
get_be16(const uint8_t *p)
{
    return (p[0] << 8) | p[1];
}

static inline uint32_t
get_be32(const uint8_t *p)
{
    return ((uint32_t) get_be16(p) << 16) | get_be16(p + 2);
}

static inline uint64_t
get_be64(const uint8_t *p)
{
    return ((uint64_t) get_be32(p) << 32) | get_be32(p + 4);
}

static inline void
put_be16(uint8_t *p, uint16_t x)
{
    p[0] = x >> 8;
    p[1] = x;
}

static inline void
put_be32(uint8_t *p, uint32_t x)
{
    put_be16(p, x >> 16);
    put_be16(p + 2, x);
}

static inline void
put_be64(uint8_t *p, uint64_t x)
{
    put_be32(p, x >> 32);
    put_be32(p + 4, x);
}

#endif /* be-bytes.h */
