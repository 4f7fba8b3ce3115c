/* ip-addr: IPv4 and IPv6 addresses as one type, for tables that hold both.
 *
 * The routing table, the neighbour cache and tunnel headers keep every
 * address as a struct in6_addr; an IPv4 address is stored IPv4-mapped
 * (::ffff:a.b.c.d), and a prefix of an IPv4 address of length N is the
 * mapped prefix of length 96 + N.  This module converts, masks, parses
 * ("a.b.c.d[/N]", "x:y::z[/N]") and prints (mapped addresses as dotted
 * quads, others as RFC 5952 text) such addresses.
 *
 * Threads: pure functions, any thread.  Memory: parsers return NULL or a
 * malloc'd error the caller frees. */
#ifndef IP_ADDR_H
#define IP_ADDR_H 1

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include "types.h"
#include "util.h"

struct ds;

struct in6_addr in6_addr_mapped_ipv4(ovs_be32 ip);
/* Whether A is IPv4-mapped; if so, *IP (if nonnull) gets the address. */
bool in6_addr_get_mapped_ipv4(const struct in6_addr *a, ovs_be32 *ip);
/* Whether A names no address: all zeros, or the IPv4-mapped 0.0.0.0 (an
 * unset IPv4 address in a field that holds either family). */
bool in6_addr_is_unspecified(const struct in6_addr *a);
bool ipv6_addr_equals(const struct in6_addr *, const struct in6_addr *);
struct in6_addr ipv6_addr_bitand(const struct in6_addr *,
                                 const struct in6_addr *);
/* The mask of the first PLEN (0 to 128) bits. */
struct in6_addr ipv6_create_mask(unsigned int plen);
/* The number of leading one bits of MASK. */
unsigned int ipv6_mask_plen(const struct in6_addr *mask);

/* Prints A: dotted quad if it is IPv4-mapped, else IPv6 text. */
void ipv6_format_mapped(const struct in6_addr *a, struct ds *);
/* The same text in BUF, which it returns. */
const char *ipv6_string_mapped(char buf[INET6_ADDRSTRLEN],
                               const struct in6_addr *a);

/* Plain addresses: true on success. */
bool ip_parse(const char *s, ovs_be32 *ip);
bool ipv6_parse(const char *s, struct in6_addr *ip);

/* "ADDR[/PLEN]": the address with its host bits as given, and PLEN (32 or
 * 128 when absent). */
char *ip_parse_cidr(const char *s, ovs_be32 *ip, unsigned int *plen)
    OVS_WARN_UNUSED_RESULT;
char *ipv6_parse_cidr(const char *s, struct in6_addr *ip,
                      unsigned int *plen) OVS_WARN_UNUSED_RESULT;

#endif /* ip-addr.h */
