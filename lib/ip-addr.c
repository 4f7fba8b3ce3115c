/* ip-addr: see ip-addr.h. */
#include <config.h>
#include "ip-addr.h"

#include <arpa/inet.h>
#include <string.h>
#include "dynamic-string.h"

struct in6_addr
in6_addr_mapped_ipv4(ovs_be32 ip)
{
    struct in6_addr a;
    memset(&a, 0, sizeof a);
    a.s6_addr[10] = a.s6_addr[11] = 0xff;
    memcpy(&a.s6_addr[12], &ip, 4);
    return a;
}

bool
in6_addr_is_unspecified(const struct in6_addr *a)
{
    static const struct in6_addr any = IN6ADDR_ANY_INIT;
    ovs_be32 ip;
    return (ipv6_addr_equals(a, &any)
            || (in6_addr_get_mapped_ipv4(a, &ip) && !ip));
}

bool
in6_addr_get_mapped_ipv4(const struct in6_addr *a, ovs_be32 *ip)
{
    static const uint8_t prefix[12] = { [10] = 0xff, [11] = 0xff };
    if (memcmp(a->s6_addr, prefix, sizeof prefix)) {
        return false;
    }
    if (ip) {
        memcpy(ip, &a->s6_addr[12], 4);
    }
    return true;
}

bool
ipv6_addr_equals(const struct in6_addr *a, const struct in6_addr *b)
{
    return !memcmp(a, b, sizeof *a);
}

struct in6_addr
ipv6_addr_bitand(const struct in6_addr *a, const struct in6_addr *b)
{
    struct in6_addr r;
    for (int i = 0; i < 16; i++) {
        r.s6_addr[i] = a->s6_addr[i] & b->s6_addr[i];
    }
    return r;
}

struct in6_addr
ipv6_create_mask(unsigned int plen)
{
    struct in6_addr m;
    memset(&m, 0, sizeof m);
    if (plen > 128) {
        plen = 128;
    }
    for (unsigned int i = 0; i < plen / 8; i++) {
        m.s6_addr[i] = 0xff;
    }
    if (plen % 8) {
        m.s6_addr[plen / 8] = (uint8_t) (0xff << (8 - plen % 8));
    }
    return m;
}

unsigned int
ipv6_mask_plen(const struct in6_addr *mask)
{
    unsigned int n = 0;
    for (int i = 0; i < 16; i++) {
        uint8_t b = mask->s6_addr[i];
        while (b & 0x80) {
            n++;
            b <<= 1;
        }
        if (mask->s6_addr[i] != 0xff) {
            break;
        }
    }
    return n;
}

const char *
ipv6_string_mapped(char buf[INET6_ADDRSTRLEN], const struct in6_addr *a)
{
    ovs_be32 ip;
    if (in6_addr_get_mapped_ipv4(a, &ip)) {
        inet_ntop(AF_INET, &ip, buf, INET6_ADDRSTRLEN);
    } else {
        inet_ntop(AF_INET6, a, buf, INET6_ADDRSTRLEN);
    }
    return buf;
}

void
ipv6_format_mapped(const struct in6_addr *a, struct ds *ds)
{
    char buf[INET6_ADDRSTRLEN];
    ds_put_cstr(ds, ipv6_string_mapped(buf, a));
}

bool
ip_parse(const char *s, ovs_be32 *ip)
{
    return inet_pton(AF_INET, s, ip) == 1;
}

bool
ipv6_parse(const char *s, struct in6_addr *ip)
{
    return inet_pton(AF_INET6, s, ip) == 1;
}

/* Splits "ADDR/PLEN" into ADDR (copied into BUF) and PLEN (MAX if absent).
 * Returns an error or NULL. */
static char *
split_cidr(const char *s, char *buf, size_t size, unsigned int max,
           unsigned int *plen)
{
    const char *slash = strchr(s, '/');
    size_t len = slash ? (size_t) (slash - s) : strlen(s);
    if (len >= size) {
        return xasprintf("%s: invalid IP address", s);
    }
    memcpy(buf, s, len);
    buf[len] = '\0';
    *plen = max;
    if (slash && (!str_to_uint(slash + 1, 10, plen) || *plen > max
                  || !slash[1])) {
        return xasprintf("%s: invalid prefix length", s);
    }
    return NULL;
}

char *
ip_parse_cidr(const char *s, ovs_be32 *ip, unsigned int *plen)
{
    char buf[INET_ADDRSTRLEN];
    char *error = split_cidr(s, buf, sizeof buf, 32, plen);
    if (!error && !ip_parse(buf, ip)) {
        error = xasprintf("%s: invalid IP address", s);
    }
    return error;
}

char *
ipv6_parse_cidr(const char *s, struct in6_addr *ip, unsigned int *plen)
{
    char buf[INET6_ADDRSTRLEN];
    char *error = split_cidr(s, buf, sizeof buf, 128, plen);
    if (!error && !ipv6_parse(buf, ip)) {
        error = xasprintf("%s: invalid IPv6 address", s);
    }
    return error;
}
