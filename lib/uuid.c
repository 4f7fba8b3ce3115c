#include <config.h>
#include "uuid.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include "replay.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(uuid);

/* Fills BUF with N bytes from the kernel's random source.  getrandom() only
 * fails on a kernel too old for it or when interrupted; neither is worth
 * limping on with weaker randomness, because duplicate row UUIDs would
 * corrupt databases. */
static void
get_random_bytes(void *buf, size_t n)
{
    /* A replayed run makes the UUIDs its recording made (replay.h). */
    if (replay_take_random(buf, n)) {
        return;
    }

    uint8_t *p = buf;

    while (n > 0) {
        ssize_t retval = getrandom(p, n, 0);
        if (retval < 0) {
            if (errno == EINTR) {
                continue;
            }
            ovs_abort(errno, "getrandom failed");
        }
        p += retval;
        n -= retval;
    }
    replay_put_random(buf, p - (uint8_t *) buf);
}

/* A server makes two UUIDs per transaction (the row version and the
 * transaction id), and a getrandom() system call for each would cost as
 * much as the rest of a small commit.  Each thread draws random bytes from
 * the kernel in blocks instead.  A forked child must not hand out its
 * parent's bytes again, so fork empties the pool of the forking thread (the
 * only thread a child has). */
struct random_pool {
    uint8_t bytes[4096];
    size_t used;                /* Bytes already handed out. */
};

static __thread struct random_pool random_pool = {
    .used = sizeof random_pool.bytes
};

static void
random_pool_discard(void)
{
    random_pool.used = sizeof random_pool.bytes;
}

static void
random_pool_init(void)
{
    pthread_atfork(NULL, NULL, random_pool_discard);
}

static void
take_random_bytes(void *buf, size_t n)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, random_pool_init);

    struct random_pool *pool = &random_pool;
    if (n > sizeof pool->bytes) {
        get_random_bytes(buf, n);
        return;
    }
    if (sizeof pool->bytes - pool->used < n) {
        get_random_bytes(pool->bytes, sizeof pool->bytes);
        pool->used = 0;
    }
    memcpy(buf, pool->bytes + pool->used, n);
    /* Bytes handed out are not kept around. */
    memset(pool->bytes + pool->used, 0, n);
    pool->used += n;
}

void
uuid_generate(struct uuid *uuid)
{
    take_random_bytes(uuid->parts, sizeof uuid->parts);

    /* Version 4 in the high nibble of the third group, and the RFC 4122
     * variant (binary 10) in the top bits of the fourth group. */
    uuid->parts[1] = (uuid->parts[1] & ~UINT32_C(0xf000)) | 0x4000;
    uuid->parts[2] = (uuid->parts[2] & ~UINT32_C(0xc0000000)) | 0x80000000;
}

uint64_t
random_below(uint64_t n)
{
    uint64_t x;
    take_random_bytes(&x, sizeof x);
    return n ? x % n : 0;
}

void
uuid_zero(struct uuid *uuid)
{
    memset(uuid, 0, sizeof *uuid);
}

bool
uuid_is_zero(const struct uuid *uuid)
{
    return !(uuid->parts[0] | uuid->parts[1] | uuid->parts[2]
             | uuid->parts[3]);
}

int
uuid_compare_3way(const struct uuid *a, const struct uuid *b)
{
    for (int i = 0; i < 4; i++) {
        if (a->parts[i] != b->parts[i]) {
            return a->parts[i] < b->parts[i] ? -1 : 1;
        }
    }
    return 0;
}

static bool
is_dash_position(size_t i)
{
    return i == 8 || i == 13 || i == 18 || i == 23;
}

bool
uuid_from_string_prefix(struct uuid *uuid, const char *s)
{
    uint32_t parts[4] = { 0, 0, 0, 0 };
    size_t n_hex = 0;

    for (size_t i = 0; i < UUID_LEN; i++) {
        if (is_dash_position(i)) {
            if (s[i] != '-') {
                goto error;
            }
        } else {
            int v = hexit_value((unsigned char) s[i]);
            if (v < 0) {
                goto error;
            }
            parts[n_hex / 8] = (parts[n_hex / 8] << 4) | v;
            n_hex++;
        }
    }
    memcpy(uuid->parts, parts, sizeof parts);
    return true;

error:
    uuid_zero(uuid);
    return false;
}

bool
uuid_from_string(struct uuid *uuid, const char *s)
{
    if (strnlen(s, UUID_LEN + 1) != UUID_LEN) {
        uuid_zero(uuid);
        return false;
    }
    return uuid_from_string_prefix(uuid, s);
}

bool
uuid_is_partial_string(const char *s, size_t *n_hexp)
{
    size_t n_hex = 0;
    size_t i;

    for (i = 0; s[i]; i++) {
        if (i >= UUID_LEN) {
            return false;
        }
        if (is_dash_position(i)) {
            if (s[i] != '-') {
                return false;
            }
        } else if (hexit_value((unsigned char) s[i]) < 0) {
            return false;
        } else {
            n_hex++;
        }
    }
    if (n_hex < 4) {
        return false;
    }
    if (n_hexp) {
        *n_hexp = n_hex;
    }
    return true;
}

/* Writes the N_DIGITS low-order hex digits of VALUE at S. */
static char *
put_hex(char *s, uint32_t value, int n_digits)
{
    static const char xdigits[] = "0123456789abcdef";
    for (int i = n_digits - 1; i >= 0; i--) {
        s[i] = xdigits[value & 15];
        value >>= 4;
    }
    return s + n_digits;
}

void
uuid_format(const struct uuid *uuid, char s[UUID_LEN + 1])
{
    /* The layout of UUID_FMT: 8-4-4-4-4+8 digits. */
    char *p = put_hex(s, uuid->parts[0], 8);
    *p++ = '-';
    p = put_hex(p, uuid->parts[1] >> 16, 4);
    *p++ = '-';
    p = put_hex(p, uuid->parts[1] & 0xffff, 4);
    *p++ = '-';
    p = put_hex(p, uuid->parts[2] >> 16, 4);
    *p++ = '-';
    p = put_hex(p, uuid->parts[2] & 0xffff, 4);
    p = put_hex(p, uuid->parts[3], 8);
    *p = '\0';
}

char *
uuid_to_string(const struct uuid *uuid)
{
    char *s = xmalloc(UUID_LEN + 1);
    uuid_format(uuid, s);
    return s;
}
