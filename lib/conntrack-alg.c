/* conntrack-alg: expectations and the FTP and TFTP helpers.
 *
 * FTP announces each data connection on its control connection: the
 * client's PORT (IPv4) or EPRT command names where the server should
 * connect, the server's 227 (PASV) or 229 (EPSV) reply names where the
 * client should.  TFTP answers a request from a new server port to the
 * client's port.  Each announcement becomes an expectation, and the data
 * connection, new to the tracker, is then "related" to its control
 * connection and inherits its mark and label (and, if it was NATed, a
 * matching translation).
 *
 * Under NAT the address inside an FTP command must be the translated one:
 * the command is rewritten in place, which changes the segment's length,
 * so later sequence numbers from that side and acks from the other are
 * shifted by the difference (the "skew") for the rest of the connection.
 * The state machine always sees the sender's own sequence space: acks are
 * shifted back before it runs (ct_alg_pre), sequence numbers forward
 * after (ct_alg_post).
 *
 * Threads: see conntrack-private.h. */
#include <config.h>
#include "conntrack-private.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "csum.h"
#include "dp-packet.h"
#include "hash.h"
#include "packets.h"

/* Expectations
 * ============ */

void
ct_expect_init(struct ct_expectations *e, uint32_t basis)
{
    ovs_mutex_init(&e->mutex);
    hmap_init(&e->map);
    atomic_init(&e->n, 0);
    e->basis = basis;
}

void
ct_expect_destroy(struct ct_expectations *e)
{
    struct ct_expect *x;
    HMAP_FOR_EACH_POP (x, node, &e->map) {
        free(x);
    }
    hmap_destroy(&e->map);
    ovs_mutex_destroy(&e->mutex);
}

static uint32_t
expect_hash(const struct ct_expectations *e, const struct ct_key *key)
{
    return hash_bytes(key, sizeof *key, e->basis);
}

static struct ct_expect *
expect_lookup__(struct ct_expectations *e, const struct ct_key *key,
                uint32_t hash)
{
    struct ct_expect *x;
    HMAP_FOR_EACH_WITH_HASH (x, node, hash, &e->map) {
        if (!memcmp(&x->key, key, sizeof *key)) {
            return x;
        }
    }
    return NULL;
}

bool
ct_expect_find(struct ct_expectations *e, const struct ct_key *key,
               bool remove, struct ct_expect *out)
{
    if (!atomic_load_explicit(&e->n, memory_order_relaxed)) {
        return false;
    }
    struct ct_key k = *key;
    k.src_port = 0;
    uint32_t hash = expect_hash(e, &k);

    ovs_mutex_lock(&e->mutex);
    struct ct_expect *x = expect_lookup__(e, &k, hash);
    if (x) {
        *out = *x;
        if (remove) {
            hmap_remove(&e->map, &x->node);
            atomic_fetch_sub_explicit(&e->n, 1, memory_order_relaxed);
            free(x);
        }
    }
    ovs_mutex_unlock(&e->mutex);
    return x != NULL;
}

void
ct_expect_forget_parent(struct ct_expectations *e, uint32_t parent_id)
{
    if (!atomic_load_explicit(&e->n, memory_order_relaxed)) {
        return;
    }
    ovs_mutex_lock(&e->mutex);
    struct ct_expect *x, *next;
    HMAP_FOR_EACH_SAFE (x, next, node, &e->map) {
        if (x->parent_id == parent_id) {
            hmap_remove(&e->map, &x->node);
            atomic_fetch_sub_explicit(&e->n, 1, memory_order_relaxed);
            free(x);
        }
    }
    ovs_mutex_unlock(&e->mutex);
}

/* Expects a connection to PORT announced by a packet of PARENT travelling
 * in direction REPLY: from the side that received the announcement to
 * the side that made it. */
static void
expect_add(struct ct_expectations *e, const struct conn *parent, bool reply,
           ovs_be16 port)
{
    const struct ct_key *o = &parent->node[0].key;
    const struct ct_key *r = &parent->node[1].key;
    bool dnat = parent->nat.flags & CT_NAT_DST;
    struct ct_expect *x = xzalloc(sizeof *x);

    x->key.zone = o->zone;
    x->key.nw_proto = o->nw_proto;
    x->key.is_ipv6 = o->is_ipv6;
    x->key.dst_port = port;
    if (!reply) {
        /* The original side announced: the reply side connects to it, to
         * the address it knows it by. */
        x->key.src = r->src;
        x->key.dst = r->dst;
        x->nat_reply_dst = dnat;
        x->nat_addr = dnat ? o->dst : o->src;
    } else {
        x->key.src = o->src;
        x->key.dst = o->dst;
        x->nat_reply_dst = !dnat;
        x->nat_addr = dnat ? r->src : r->dst;
    }
    x->has_nat = parent->nat.flags != 0;
    x->parent = *o;
    x->parent_id = parent->id;
    x->parent_mark = parent->mark;
    x->parent_label = parent->label;

    uint32_t hash = expect_hash(e, &x->key);
    ovs_mutex_lock(&e->mutex);
    if (expect_lookup__(e, &x->key, hash)) {
        free(x);
    } else {
        hmap_insert(&e->map, &x->node, hash);
        atomic_fetch_add_explicit(&e->n, 1, memory_order_relaxed);
    }
    ovs_mutex_unlock(&e->mutex);
}

/* FTP commands
 * ============ */

enum ftp_cmd { FTP_NONE, FTP_PORT, FTP_PASV, FTP_EPRT, FTP_EPSV };

/* What an FTP command says, and where its address text is. */
struct ftp_parsed {
    enum ftp_cmd cmd;
    union ct_addr addr;             /* PORT, PASV, EPRT. */
    bool has_addr, addr_ipv6;
    uint16_t port;
    size_t addr_ofs, addr_len;      /* In the payload. */
};

/* Parses up to N decimal digits at P (END bounds it) into *VALUE. */
static const char *
parse_uint(const char *p, const char *end, unsigned max, unsigned *value)
{
    unsigned v = 0;
    const char *start = p;
    while (p < end && isdigit((unsigned char) *p) && p - start < 6) {
        v = v * 10 + (*p - '0');
        p++;
    }
    if (p == start || v > max) {
        return NULL;
    }
    *value = v;
    return p;
}

/* "h1,h2,h3,h4,p1,p2" at P. */
static bool
parse_six(const char *base, const char *p, const char *end,
          struct ftp_parsed *f)
{
    unsigned v[6];
    const char *start = p;
    const char *addr_end = NULL;
    for (int i = 0; i < 6; i++) {
        p = parse_uint(p, end, 255, &v[i]);
        if (!p) {
            return false;
        }
        if (i == 3) {
            addr_end = p;
        }
        if (i < 5) {
            if (p >= end || *p != ',') {
                return false;
            }
            p++;
        }
    }
    uint32_t a = (v[0] << 24) | (v[1] << 16) | (v[2] << 8) | v[3];
    f->addr.ipv4 = htonl(a);
    f->has_addr = true;
    f->addr_ipv6 = false;
    f->port = v[4] * 256 + v[5];
    f->addr_ofs = start - base;
    f->addr_len = addr_end - start;
    return true;
}

/* "|1|a.b.c.d|port|" or "|2|v6|port|" (any delimiter), for EPRT; with
 * NEED_ADDR false, "|||port|" for EPSV. */
static bool
parse_extended(const char *base, const char *p, const char *end,
               bool need_addr, struct ftp_parsed *f)
{
    if (p >= end) {
        return false;
    }
    char d = *p++;
    const char *fields[3];
    size_t lens[3];
    for (int i = 0; i < 3; i++) {
        const char *q = memchr(p, d, end - p);
        if (!q) {
            return false;
        }
        fields[i] = p;
        lens[i] = q - p;
        p = q + 1;
    }
    unsigned port;
    if (!parse_uint(fields[2], fields[2] + lens[2], 65535, &port)
        || lens[2] > 5) {
        return false;
    }
    f->port = port;
    if (!need_addr) {
        return lens[0] == 0 && lens[1] == 0;
    }
    char text[INET6_ADDRSTRLEN];
    if (lens[1] == 0 || lens[1] >= sizeof text || lens[0] != 1) {
        return false;
    }
    memcpy(text, fields[1], lens[1]);
    text[lens[1]] = '\0';
    if (fields[0][0] == '1') {
        f->addr_ipv6 = false;
        memset(&f->addr, 0, sizeof f->addr);
        if (inet_pton(AF_INET, text, &f->addr.ipv4) != 1) {
            return false;
        }
    } else if (fields[0][0] == '2') {
        f->addr_ipv6 = true;
        if (inet_pton(AF_INET6, text, &f->addr.ipv6) != 1) {
            return false;
        }
    } else {
        return false;
    }
    f->has_addr = true;
    f->addr_ofs = fields[1] - base;
    f->addr_len = lens[1];
    return true;
}

static bool
ftp_parse(const char *pl, size_t n, struct ftp_parsed *f)
{
    const char *end = pl + n;
    memset(f, 0, sizeof *f);
    if (n >= 5 && !strncasecmp(pl, "PORT ", 5)) {
        f->cmd = FTP_PORT;
        return parse_six(pl, pl + 5, end, f);
    } else if (n >= 5 && !strncasecmp(pl, "EPRT ", 5)) {
        f->cmd = FTP_EPRT;
        return parse_extended(pl, pl + 5, end, true, f);
    } else if (n >= 4 && !strncmp(pl, "227 ", 4)) {
        /* "227 Entering Passive Mode (h1,h2,h3,h4,p1,p2)." */
        f->cmd = FTP_PASV;
        const char *p = memchr(pl, '(', n);
        if (!p) {
            for (p = pl + 4; p < end && !isdigit((unsigned char) *p); p++) {
                continue;
            }
        } else {
            p++;
        }
        return parse_six(pl, p, end, f);
    } else if (n >= 4 && !strncmp(pl, "229 ", 4)) {
        /* "229 Entering Extended Passive Mode (|||port|)" */
        f->cmd = FTP_EPSV;
        const char *p = memchr(pl, '(', n);
        return p && parse_extended(pl, p + 1, end, false, f);
    }
    return false;
}

/* Packet surgery
 * ============== */

static struct tcp_header *
pkt_tcp(struct dp_packet *pkt, const struct ct_pkt_info *info)
{
    return (struct tcp_header *) ((uint8_t *) dp_packet_data(pkt)
                                  + info->l4_ofs);
}

/* Adds DELTA to TCP's sequence number (or, with ACK, its ack number). */
static void
adjust_seq_field(struct tcp_header *tcp, bool ack, int32_t delta)
{
    ovs_be32 old = ack ? tcp->tcp_ack : tcp->tcp_seq;
    ovs_be32 new = htonl(ntohl(old) + (uint32_t) delta);
    tcp->tcp_csum = recalc_csum32(tcp->tcp_csum, old, new);
    if (ack) {
        tcp->tcp_ack = new;
    } else {
        tcp->tcp_seq = new;
    }
}

void
ct_alg_pre(struct conn *conn, struct dp_packet *pkt,
           const struct ct_pkt_info *info, bool reply)
{
    int32_t other_skew = conn->seq_skew[!reply];
    if (conn->alg != CT_ALG_FTP || !other_skew || info->icmp_error
        || !(info->tcp_flags & TCP_ACK)) {
        return;
    }
    /* The other side's data was lengthened: its acks count the extra
     * bytes, which this side never sent. */
    struct tcp_header *tcp = pkt_tcp(pkt, info);
    adjust_seq_field(tcp, true, -other_skew);
}

/* Replaces the LEN bytes at OFS of the TCP payload by TEXT, resizing the
 * packet.  Returns the change in length. */
static int
replace_payload(struct dp_packet *pkt, struct ct_pkt_info *info,
                size_t payload_ofs, size_t ofs, size_t len, const char *text)
{
    size_t new_len = strlen(text);
    int delta = (int) new_len - (int) len;
    size_t at = payload_ofs + ofs;          /* From the packet's data. */
    size_t old_size = dp_packet_size(pkt);

    if (delta > 0) {
        dp_packet_put_uninit(pkt, delta);
    }
    uint8_t *data = dp_packet_data(pkt);
    memmove(data + at + new_len, data + at + len, old_size - at - len);
    memcpy(data + at, text, new_len);
    if (delta < 0) {
        dp_packet_set_size(pkt, old_size + delta);
    }

    /* Lengths and checksums of the headers before it. */
    uint8_t *l3 = dp_packet_l3(pkt);
    info->l4_len += delta;
    info->l3_len += delta;
    struct tcp_header *tcp = pkt_tcp(pkt, info);
    uint32_t pseudo;
    if (!info->key.is_ipv6) {
        struct ip_header *ip = (struct ip_header *) l3;
        ip->ip_tot_len = htons(ntohs(ip->ip_tot_len) + delta);
        ip->ip_csum = 0;
        ip->ip_csum = csum(ip, IP_IHL(ip->ip_ihl_ver) * 4);
        pseudo = csum_pseudo_ipv4(ip->ip_src, ip->ip_dst, IPPROTO_TCP,
                                  info->l4_len);
    } else {
        struct ipv6_header *ip6 = (struct ipv6_header *) l3;
        struct in6_addr s, d;
        ip6->ip6_plen = htons(ntohs(ip6->ip6_plen) + delta);
        memcpy(&s, &ip6->ip6_src, 16);
        memcpy(&d, &ip6->ip6_dst, 16);
        pseudo = csum_pseudo_ipv6(&s, &d, IPPROTO_TCP, info->l4_len);
    }
    tcp->tcp_csum = 0;
    tcp->tcp_csum = csum_finish(csum_continue(pseudo, tcp, info->l4_len));
    return delta;
}

static void
packet_src(const struct dp_packet *pkt, bool ipv6, union ct_addr *a)
{
    memset(a, 0, sizeof *a);
    if (!ipv6) {
        const struct ip_header *ip = dp_packet_l3(pkt);
        a->ipv4 = ip->ip_src;
    } else {
        const struct ipv6_header *ip6 = dp_packet_l3(pkt);
        memcpy(&a->ipv6, &ip6->ip6_src, 16);
    }
}

static void
ftp_post(struct ct_expectations *e, struct conn *conn,
         struct dp_packet *pkt, struct ct_pkt_info *info, bool reply,
         bool nat)
{
    struct tcp_header *tcp = pkt_tcp(pkt, info);
    uint32_t wire_seq = ntohl(tcp->tcp_seq);
    bool retransmit = (conn->skew_set[reply]
                       && wire_seq == conn->skew_seq[reply]);

    /* Shift this side's sequence numbers by what earlier rewrites added
     * (a retransmitted command by what was added before it). */
    int32_t skew = retransmit ? conn->skew_prev[reply]
                              : conn->seq_skew[reply];
    if (skew && nat) {
        adjust_seq_field(tcp, false, skew);
    }

    size_t hlen = TCP_OFFSET(ntohs(tcp->tcp_ctl)) * 4;
    if (info->l4_len <= hlen) {
        return;
    }
    size_t payload_ofs = info->l4_ofs + hlen;
    size_t plen = info->l4_len - hlen;
    const char *pl = (const char *) dp_packet_data(pkt) + payload_ofs;
    struct ftp_parsed f;
    if (!ftp_parse(pl, plen, &f) || !f.port) {
        return;
    }

    bool ipv6 = info->key.is_ipv6;
    if (f.has_addr) {
        /* Only an announcement of the sender's own address counts: one
         * naming a third host would open a hole towards it. */
        union ct_addr src;
        packet_src(pkt, ipv6, &src);
        if (f.addr_ipv6 != ipv6
            || (ipv6 ? memcmp(&src.ipv6, &f.addr.ipv6, 16)
                     : src.ipv4 != f.addr.ipv4)) {
            return;
        }
    }
    expect_add(e, conn, reply, htons(f.port));

    if (!nat || !conn->nat.flags || !f.has_addr) {
        return;
    }
    /* The receiver knows the sender by its translated address. */
    const union ct_addr *seen = (reply ? &conn->node[0].key.dst
                                       : &conn->node[1].key.dst);
    char text[INET6_ADDRSTRLEN];
    if (ipv6) {
        if (!memcmp(&seen->ipv6, &f.addr.ipv6, 16)
            || !inet_ntop(AF_INET6, &seen->ipv6, text, sizeof text)) {
            return;
        }
    } else {
        if (seen->ipv4 == f.addr.ipv4) {
            return;
        }
        uint32_t a = ntohl(seen->ipv4);
        char sep = f.cmd == FTP_EPRT ? '.' : ',';
        snprintf(text, sizeof text, "%u%c%u%c%u%c%u", a >> 24, sep,
                 (a >> 16) & 0xff, sep, (a >> 8) & 0xff, sep, a & 0xff);
    }
    int delta = replace_payload(pkt, info, payload_ofs, f.addr_ofs,
                                f.addr_len, text);
    if (!retransmit) {
        conn->skew_prev[reply] = conn->seq_skew[reply];
        conn->seq_skew[reply] += delta;
        conn->skew_seq[reply] = wire_seq;
        conn->skew_set[reply] = true;
    }
}

void
ct_alg_post(struct ct_expectations *e, struct conn *conn,
            struct dp_packet *pkt, struct ct_pkt_info *info, bool reply,
            bool nat)
{
    if (info->icmp_error) {
        return;
    }
    if (conn->alg == CT_ALG_FTP && info->key.nw_proto == IPPROTO_TCP) {
        ftp_post(e, conn, pkt, info, reply, nat);
    } else if (conn->alg == CT_ALG_TFTP && info->key.nw_proto == IPPROTO_UDP
               && !reply) {
        /* The server answers from a new port to the client's. */
        expect_add(e, conn, false, conn->node[0].key.src_port);
    }
}
