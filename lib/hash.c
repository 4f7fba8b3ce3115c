#include <config.h>
#include "hash.h"

#include <string.h>

uint32_t
hash_bytes(const void *p_, size_t n, uint32_t basis)
{
    const uint8_t *p = p_;
    uint32_t hash = basis;
    size_t left = n;

    /* memcpy() is how C reads an unaligned word without undefined
     * behaviour; compilers turn it into a single load. */
    while (left >= 4) {
        uint32_t word;
        memcpy(&word, p, 4);
        hash = hash_add(hash, word);
        p += 4;
        left -= 4;
    }

    if (left) {
        /* The tail goes in as a zero-padded word; hash_finish() mixes in N,
         * so "ab" and "ab\0" still differ. */
        uint32_t word = 0;
        memcpy(&word, p, left);
        hash = hash_add(hash, word);
    }

    return hash_finish(hash, (uint32_t) n);
}
