/* uuid: 128-bit universally unique identifiers (RFC 4122), as OVSDB uses
 * them to name rows.
 *
 * A struct uuid holds the 128 bits as four 32-bit words in the order they
 * are printed, so UUID_FMT/UUID_ARGS print the canonical 8-4-4-4-12 form.
 * uuid_generate() makes random (version 4) UUIDs from the kernel's random
 * source, so two processes never hand out the same row name.  No memory is
 * allocated by this module except by uuid_to_string().
 */
#ifndef UUID_H
#define UUID_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct uuid {
    uint32_t parts[4];
};

/* Length of the canonical text form, without a null terminator. */
#define UUID_LEN 36

#define UUID_FMT "%08x-%04x-%04x-%04x-%04x%08x"
#define UUID_ARGS(UUID)                                 \
    ((unsigned int) ((UUID)->parts[0])),                \
    ((unsigned int) ((UUID)->parts[1] >> 16)),          \
    ((unsigned int) ((UUID)->parts[1] & 0xffff)),       \
    ((unsigned int) ((UUID)->parts[2] >> 16)),          \
    ((unsigned int) ((UUID)->parts[2] & 0xffff)),       \
    ((unsigned int) ((UUID)->parts[3]))

/* The first 8 hex digits, the short form logs and show-log use. */
#define UUID_SHORT_FMT "%08x"
#define UUID_SHORT_ARGS(UUID) ((unsigned int) ((UUID)->parts[0]))

/* Random UUIDs are uniformly distributed, so any word is a good hash. */
static inline uint32_t
uuid_hash(const struct uuid *uuid)
{
    return uuid->parts[0];
}

static inline bool
uuid_equals(const struct uuid *a, const struct uuid *b)
{
    return (a->parts[0] == b->parts[0] && a->parts[1] == b->parts[1]
            && a->parts[2] == b->parts[2] && a->parts[3] == b->parts[3]);
}

/* Stores a new random version 4 UUID in *UUID. */
void uuid_generate(struct uuid *);

/* A random number in [0, N) (0 if N is 0), from the same source as
 * uuid_generate(), so that a replayed run (replay.h) draws the same ones. */
uint64_t random_below(uint64_t n);

void uuid_zero(struct uuid *);
bool uuid_is_zero(const struct uuid *);

/* Compares A and B as 128-bit numbers: <0, 0, >0. */
int uuid_compare_3way(const struct uuid *a, const struct uuid *b);

/* Parses S (exactly the 36-character 8-4-4-4-12 form, either case) into
 * *UUID.  Returns false and zeroes *UUID if S is not a UUID. */
bool uuid_from_string(struct uuid *, const char *s);

/* Like uuid_from_string() but for the first 36 bytes of S (which need not be
 * null-terminated after them). */
bool uuid_from_string_prefix(struct uuid *, const char *s);

/* Returns true if S is a prefix of a UUID in text form (as ovs-vsctl accepts
 * abbreviated row names): 4 or more hex digits with dashes where they
 * belong.  Returns the number of hex digits in it via *N_HEX if nonnull. */
bool uuid_is_partial_string(const char *s, size_t *n_hex);

/* Writes the canonical text form of UUID, null-terminated, into S.  Same as
 * snprintf() with UUID_FMT, but cheap enough for every row of every
 * message a busy server sends. */
void uuid_format(const struct uuid *, char s[UUID_LEN + 1]);

/* Returns the canonical text form of UUID in a new string the caller
 * frees. */
char *uuid_to_string(const struct uuid *);

#endif /* uuid.h */
