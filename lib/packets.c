#include <config.h>
#include "packets.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>
#include "util.h"

bool
eth_addr_is_zero(struct eth_addr a)
{
    static const struct eth_addr zero;
    return eth_addr_equals(a, zero);
}

bool
eth_addr_is_multicast(struct eth_addr a)
{
    /* The I/G bit, the first bit on the wire. */
    return (a.ea[0] & 0x01) != 0;
}

bool
eth_addr_equals(struct eth_addr a, struct eth_addr b)
{
    return !memcmp(a.ea, b.ea, ETH_ADDR_LEN);
}

uint64_t
eth_addr_to_uint64(struct eth_addr ea)
{
    uint64_t v = 0;
    for (int i = 0; i < ETH_ADDR_LEN; i++) {
        v = (v << 8) | ea.ea[i];
    }
    return v;
}

bool
eth_addr_is_reserved(struct eth_addr ea)
{
    /* Besides the IEEE range, the addresses 3.1 lists. */
    static const uint64_t others[] = {
        0x00e02b000000ULL, 0x00e02b000004ULL, 0x00e02b000006ULL,
        0x01000c000000ULL, 0x01000cccccccULL, 0x01000ccccccdULL,
        0x01000ccdcdcdULL,
        0x01000cccccc0ULL, 0x01000cccccc1ULL, 0x01000cccccc2ULL,
        0x01000cccccc3ULL, 0x01000cccccc4ULL, 0x01000cccccc5ULL,
        0x01000cccccc6ULL, 0x01000cccccc7ULL,
    };
    uint64_t v = eth_addr_to_uint64(ea);
    if ((v & ~UINT64_C(0xf)) == 0x0180c2000000ULL) {
        return true;
    }
    for (size_t i = 0; i < ARRAY_SIZE(others); i++) {
        if (v == others[i]) {
            return true;
        }
    }
    return false;
}

struct eth_addr
eth_addr_from_uint64(uint64_t v)
{
    struct eth_addr ea;
    for (int i = ETH_ADDR_LEN - 1; i >= 0; i--) {
        ea.ea[i] = v;
        v >>= 8;
    }
    return ea;
}

static int
hex_digit_value(char c)
{
    return (c >= '0' && c <= '9' ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
            : -1);
}

bool
eth_addr_from_string(const char *s, struct eth_addr *ea)
{
    struct eth_addr parsed;

    for (int i = 0; i < ETH_ADDR_LEN; i++) {
        if (i > 0 && *s++ != ':') {
            return false;
        }
        int hi = hex_digit_value(*s);
        if (hi < 0) {
            return false;
        }
        s++;
        int lo = hex_digit_value(*s);
        if (lo < 0) {
            parsed.ea[i] = hi;      /* A single digit, e.g. "0:1:...". */
        } else {
            parsed.ea[i] = hi * 16 + lo;
            s++;
        }
    }
    if (*s) {
        return false;
    }
    *ea = parsed;
    return true;
}

struct eth_addr
eth_addr_random(void)
{
    struct eth_addr ea;
    size_t got = 0;

    while (got < sizeof ea.ea) {
        ssize_t n = getrandom(ea.ea + got, sizeof ea.ea - got, 0);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            ovs_abort(errno, "getrandom failed");
        }
        got += n;
    }
    ea.ea[0] &= ~0x01;          /* Unicast. */
    ea.ea[0] |= 0x02;           /* Locally administered. */
    return ea;
}

bool
ipv6_addr_is_zero(const struct in6_addr *a)
{
    static const struct in6_addr zero;
    return !memcmp(a, &zero, sizeof zero);
}

bool
ipv6_addr_is_exact(const struct in6_addr *a)
{
    for (size_t i = 0; i < sizeof a->s6_addr; i++) {
        if (a->s6_addr[i] != 0xff) {
            return false;
        }
    }
    return true;
}
