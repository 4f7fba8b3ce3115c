/* ofproto-text: flows and matches in OpenFlow's text syntax, the subset
 * that ofproto/trace, bridge/dump-flows and NORMAL's fields need.
 *
 * ovs-ofctl's syntax: "in_port=1,dl_src=..,dl_vlan=10,ip,nw_dst=10.0.0.0/8,
 * tcp_dst=80" with protocol shorthands (eth, ip, ipv6, arp, icmp, tcp, udp,
 * sctp, tcp6, udp6, icmp6).  This is a small stand-in, written for trace:
 * the OpenFlow engineer's lib/ofp-* parser and formatter replace it.
 *
 * Threads: pure functions on the caller's memory. */
#ifndef OFPROTO_OFPROTO_TEXT_H
#define OFPROTO_OFPROTO_TEXT_H 1

#include <stdbool.h>
#include <stdint.h>
#include "util.h"

struct ds;
struct flow;
struct flow_wildcards;

/* Port naming for both directions (NULL callbacks: numbers only). */
struct ofp_port_names {
    const char *(*name_of)(void *aux, uint16_t port);
    bool (*number_of)(void *aux, const char *name, uint16_t *port);
    void *aux;
};

/* The fields WC requires, value/mask where partly masked; nothing for a
 * catch-all.  With PRIORITY >= 0, "priority=N" goes where ovs-ofctl puts
 * it (after the protocol shorthand). */
void ofp_match_format(const struct flow *, const struct flow_wildcards *,
                      int priority, const struct ofp_port_names *,
                      struct ds *);
/* Every field that applies to FLOW's protocols (ofproto/trace's "Flow:"). */
void ofp_flow_format(const struct flow *, const struct ofp_port_names *,
                     struct ds *);
/* Parses a match; fields left out are wildcarded.  "priority=N" goes to
 * *PRIORITY if nonnull (else it is an error).  NULL or a malloc'd error. */
char *ofp_match_parse(const char *, const struct ofp_port_names *,
                      struct flow *, struct flow_wildcards *, int *priority)
    OVS_WARN_UNUSED_RESULT;

#endif /* ofproto/ofproto-text.h */
