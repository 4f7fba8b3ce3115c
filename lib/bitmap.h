/* bitmap: fixed-size bit arrays in unsigned longs, e.g. one bit per column
 * of a table for "which columns changed".  Allocation is the caller's:
 * bitmap_allocate() returns zeroed memory to free with bitmap_free(). */
#ifndef BITMAP_H
#define BITMAP_H 1

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

#define BITMAP_ULONG_BITS (sizeof(unsigned long) * CHAR_BIT)

static inline size_t
bitmap_n_longs(size_t n_bits)
{
    return (n_bits + BITMAP_ULONG_BITS - 1) / BITMAP_ULONG_BITS;
}

static inline unsigned long *
bitmap_allocate(size_t n_bits)
{
    return xcalloc(bitmap_n_longs(n_bits), sizeof(unsigned long));
}

static inline void
bitmap_free(unsigned long *bitmap)
{
    free(bitmap);
}

static inline bool
bitmap_is_set(const unsigned long *bitmap, size_t offset)
{
    return (bitmap[offset / BITMAP_ULONG_BITS]
            >> (offset % BITMAP_ULONG_BITS)) & 1;
}

static inline void
bitmap_set1(unsigned long *bitmap, size_t offset)
{
    bitmap[offset / BITMAP_ULONG_BITS] |= 1UL << (offset % BITMAP_ULONG_BITS);
}

static inline void
bitmap_set0(unsigned long *bitmap, size_t offset)
{
    bitmap[offset / BITMAP_ULONG_BITS]
        &= ~(1UL << (offset % BITMAP_ULONG_BITS));
}

static inline bool
bitmap_is_all_zeros(const unsigned long *bitmap, size_t n_bits)
{
    for (size_t i = 0; i < n_bits; i++) {
        if (bitmap_is_set(bitmap, i)) {
            return false;
        }
    }
    return true;
}

#endif /* bitmap.h */
