/* hash: fast, well-mixed 32-bit hashes for in-memory tables.
 *
 * These hashes feed struct hmap and friends.  They are not cryptographic and
 * not stable across versions: never store them on disk or send them on the
 * wire.  The construction follows the well-known murmur3 shape: every 32-bit
 * word is scrambled and folded into a running state with hash_add(), and
 * hash_finish() avalanches the state so that every input bit affects every
 * output bit.  That final step is what lets hmap use the low bits of a hash
 * as a bucket index.
 *
 * Usage:
 *     uint32_t h = basis;
 *     h = hash_add(h, a);
 *     h = hash_add64(h, b);
 *     h = hash_finish(h, n_bytes_hashed);
 *
 * or one of the convenience wrappers (hash_bytes(), hash_string(),
 * hash_int(), ...), each of which takes a BASIS so that callers can chain
 * hashes of several fields or seed different tables differently.
 *
 * Nothing here allocates memory.
 */
#ifndef HASH_H
#define HASH_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t
hash_rot(uint32_t x, int k)
{
    return (x << k) | (x >> (32 - k));
}

/* Folds the 32-bit word DATA into the running state HASH. */
static inline uint32_t
hash_add(uint32_t hash, uint32_t data)
{
    data *= 0xcc9e2d51;
    data = hash_rot(data, 15);
    data *= 0x1b873593;

    hash ^= data;
    hash = hash_rot(hash, 13);
    return hash * 5 + 0xe6546b64;
}

/* Folds the 64-bit word DATA into HASH as two 32-bit words. */
static inline uint32_t
hash_add64(uint32_t hash, uint64_t data)
{
    return hash_add(hash_add(hash, (uint32_t) data), (uint32_t) (data >> 32));
}

/* Avalanches HASH.  FINAL is normally the number of bytes hashed, so that
 * inputs that differ only in trailing zeros hash differently. */
static inline uint32_t
hash_finish(uint32_t hash, uint32_t final)
{
    hash ^= final;
    hash ^= hash >> 16;
    hash *= 0x85ebca6b;
    hash ^= hash >> 13;
    hash *= 0xc2b2ae35;
    hash ^= hash >> 16;
    return hash;
}

/* Hashes N bytes at P, which need not be aligned. */
uint32_t hash_bytes(const void *p, size_t n, uint32_t basis);

/* Hashes N 32-bit words at P (which must be 4-byte aligned). */
static inline uint32_t
hash_words(const uint32_t *p, size_t n, uint32_t basis)
{
    uint32_t hash = basis;
    for (size_t i = 0; i < n; i++) {
        hash = hash_add(hash, p[i]);
    }
    return hash_finish(hash, (uint32_t) (n * 4));
}

/* Hashes N 64-bit words at P (which must be 8-byte aligned). */
static inline uint32_t
hash_words64(const uint64_t *p, size_t n, uint32_t basis)
{
    uint32_t hash = basis;
    for (size_t i = 0; i < n; i++) {
        hash = hash_add64(hash, p[i]);
    }
    return hash_finish(hash, (uint32_t) (n * 8));
}

static inline uint32_t
hash_string(const char *s, uint32_t basis)
{
    return hash_bytes(s, strlen(s), basis);
}

static inline uint32_t
hash_int(uint32_t x, uint32_t basis)
{
    return hash_finish(hash_add(basis, x), 4);
}

static inline uint32_t
hash_uint64_basis(uint64_t x, uint32_t basis)
{
    return hash_finish(hash_add64(basis, x), 8);
}

static inline uint32_t
hash_uint64(uint64_t x)
{
    return hash_uint64_basis(x, 0);
}

/* Hashes the pointer value itself, not what it points to. */
static inline uint32_t
hash_pointer(const void *p, uint32_t basis)
{
    return hash_uint64_basis((uint64_t) (uintptr_t) p, basis);
}

static inline uint32_t
hash_boolean(bool b, uint32_t basis)
{
    /* Two arbitrary, well-separated constants. */
    return hash_int(b ? 0x9e3779b9 : 0x7f4a7c15, basis);
}

/* Combines two hashes, order-sensitively. */
static inline uint32_t
hash_2words(uint32_t a, uint32_t b)
{
    return hash_finish(hash_add(hash_add(0, a), b), 8);
}

#endif /* hash.h */
