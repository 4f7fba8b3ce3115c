/* See ct-format.h.  3.1's lib/ct-dpif.c is the reference for the text. */
#include <config.h>
#include "ct-format.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "dynamic-string.h"

void
ct_format_ipproto(struct ds *ds, uint8_t ip_proto)
{
    const char *name = (ip_proto == IPPROTO_ICMP ? "icmp"
                        : ip_proto == IPPROTO_ICMPV6 ? "icmpv6"
                        : ip_proto == IPPROTO_TCP ? "tcp"
                        : ip_proto == IPPROTO_UDP ? "udp"
                        : ip_proto == IPPROTO_SCTP ? "sctp"
                        : ip_proto == IPPROTO_UDPLITE ? "udplite"
                        : ip_proto == IPPROTO_DCCP ? "dccp"
                        : ip_proto == IPPROTO_IGMP ? "igmp"
                        : NULL);
    if (name) {
        ds_put_cstr(ds, name);
    } else {
        ds_put_format(ds, "%u", ip_proto);
    }
}

static void
format_addr(struct ds *ds, int af, const union ct_addr *a)
{
    char buf[INET6_ADDRSTRLEN];
    inet_ntop(af, af == AF_INET ? (const void *) &a->ipv4
              : (const void *) &a->ipv6, buf, sizeof buf);
    ds_put_cstr(ds, buf);
}

void
ct_format_tuple(struct ds *ds, const struct ct_tuple *t)
{
    if (t->l3_type != AF_INET && t->l3_type != AF_INET6) {
        ds_put_format(ds, "Unsupported address family: %u", t->l3_type);
        return;
    }
    ds_put_cstr(ds, "src=");
    format_addr(ds, t->l3_type, &t->src);
    ds_put_cstr(ds, ",dst=");
    format_addr(ds, t->l3_type, &t->dst);
    if (t->ip_proto == IPPROTO_ICMP || t->ip_proto == IPPROTO_ICMPV6) {
        ds_put_format(ds, ",id=%u,type=%u,code=%u", ntohs(t->icmp_id),
                      t->icmp_type, t->icmp_code);
    } else {
        ds_put_format(ds, ",sport=%u,dport=%u", ntohs(t->src_port),
                      ntohs(t->dst_port));
    }
}

static void
format_counters(struct ds *ds, const struct ct_counters *c)
{
    if (c->packets || c->bytes) {
        ds_put_format(ds, ",packets=%"PRIu64",bytes=%"PRIu64, c->packets,
                      c->bytes);
    }
}

enum ct_tcp_state
ct_format_coalesce_tcp_state(enum ct_tcp_state state)
{
    return (state == CT_TCP_FIN_WAIT_2 ? CT_TCP_TIME_WAIT
            : state == CT_TCP_SYN_RECV ? CT_TCP_ESTABLISHED
            : state);
}

void
ct_format_entry(struct ds *ds, const struct ct_entry *e, bool verbose,
                bool print_stats)
{
    ct_format_ipproto(ds, e->orig.ip_proto);
    ds_put_cstr(ds, ",orig=(");
    ct_format_tuple(ds, &e->orig);
    if (print_stats) {
        format_counters(ds, &e->orig_counters);
    }
    ds_put_cstr(ds, "),reply=(");
    ct_format_tuple(ds, &e->reply);
    if (print_stats) {
        format_counters(ds, &e->reply_counters);
    }
    ds_put_char(ds, ')');
    if (verbose) {
        ds_put_format(ds, ",id=%"PRIu32, e->id);
    }
    if (e->zone) {
        ds_put_format(ds, ",zone=%"PRIu16, e->zone);
    }
    if (print_stats) {
        ds_put_format(ds, ",timeout=%"PRIu32, e->timeout_s);
    }
    if (e->mark) {
        ds_put_format(ds, ",mark=%"PRIu32, e->mark);
    }
    if (e->label.hi || e->label.lo) {
        /* Hex without leading zeros, as 3.1's ds_put_hex(). */
        if (e->label.hi) {
            ds_put_format(ds, ",labels=0x%"PRIx64"%016"PRIx64, e->label.hi,
                          e->label.lo);
        } else {
            ds_put_format(ds, ",labels=0x%"PRIx64, e->label.lo);
        }
    }
    if (e->orig.ip_proto == IPPROTO_TCP) {
        /* 3.1 shows one state, coalesced so, even with -m for this
         * tracker (it keeps no per-side flags to show). */
        ds_put_format(ds, ",protoinfo=(state=%s)", ct_tcp_state_name(
                          ct_format_coalesce_tcp_state(e->tcp_state)));
    }
    if (e->helper) {
        ds_put_format(ds, ",helper=%s", e->helper);
    }
    if (verbose && e->has_master) {
        ds_put_cstr(ds, ",parent=(");
        ct_format_tuple(ds, &e->master);
        ds_put_char(ds, ')');
    }
}
