/* types: integer types that say their byte order, and a 128-bit value.
 *
 * A field declared ovs_be16/ovs_be32/ovs_be64 holds network byte order, as
 * it sits in a packet header; plain uintN_t fields hold host order.  The
 * compiler does not enforce the difference: the names are for the reader,
 * so that a missing htons() stands out in review. */
#ifndef TYPES_H
#define TYPES_H 1

#include <stdint.h>

typedef uint16_t ovs_be16;
typedef uint32_t ovs_be32;
typedef uint64_t ovs_be64;

/* A 128-bit value in host order, as two 64-bit halves. */
typedef struct {
    uint64_t hi, lo;
} ovs_u128;

#endif /* types.h */
