/* conntrack-proto: the per-protocol state machines and timeouts.
 *
 * TCP follows each side's sequence space the way stateful firewalls have
 * since Guido van Rooij's "Real Stateful TCP Packet Filtering": each side
 * has the highest sequence it sent (seq_lo) and the highest the other side
 * allows it (seq_hi, from the other side's ack plus window); a segment
 * must end inside the window, start at most one window back, and ack at
 * most one window ahead.  A connection picked up mid-stream (its first
 * packet not a SYN) starts with unknown window scaling and the widest
 * window, and is kept as long as segments look sane.  States are 3.1's
 * (ct_tcp_state), kept per side, and pick the timeout.
 *
 * UDP and other protocols: first packet, more from the same side, then
 * both sides seen.  ICMP echo-like exchanges: request, then reply.
 *
 * Everything here runs under the connection's lock (conntrack.c). */
#include <config.h>
#include "conntrack-private.h"

#include <arpa/inet.h>
#include <string.h>
#include "dp-packet.h"
#include "packets.h"

#define TCP_MAX_WSCALE 14
/* Slack for acks: a window plus a full-size segment. */
#define ACK_WINDOW_SLACK (0xffff + 1500)

static inline bool seq_lt(uint32_t a, uint32_t b) { return (int32_t) (a - b) < 0; }
static inline bool seq_le(uint32_t a, uint32_t b) { return (int32_t) (a - b) <= 0; }
static inline bool seq_gt(uint32_t a, uint32_t b) { return (int32_t) (a - b) > 0; }
static inline bool seq_ge(uint32_t a, uint32_t b) { return (int32_t) (a - b) >= 0; }

enum ct_proto_class
ct_proto_class(uint8_t nw_proto, bool ipv6)
{
    if (nw_proto == IPPROTO_TCP) {
        return CT_PROTO_TCP;
    }
    if (nw_proto == (ipv6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP)) {
        return CT_PROTO_ICMP;
    }
    return CT_PROTO_OTHER;
}

bool
ct_tcp_flags_invalid(uint16_t flags)
{
    if (flags & TCP_SYN) {
        /* A SYN opens: it cannot also close or reset. */
        if (flags & (TCP_RST | TCP_FIN)) {
            return true;
        }
    } else if (!(flags & (TCP_ACK | TCP_RST))) {
        /* Past the SYN, every segment acks something or resets. */
        return true;
    }
    /* FIN, PSH and URG only make sense with an ACK. */
    return !(flags & TCP_ACK) && (flags & (TCP_FIN | TCP_PSH | TCP_URG));
}

/* The window scale option of TCP's SYN: CT_WSCALE_ON | shift, or 0. */
static uint8_t
tcp_wscale_option(const struct tcp_header *tcp, size_t hdr_len)
{
    const uint8_t *opt = (const uint8_t *) (tcp + 1);
    const uint8_t *end = (const uint8_t *) tcp + hdr_len;
    uint8_t result = 0;

    while (opt < end) {
        uint8_t kind = opt[0];
        if (kind == 0) {                /* End of options. */
            break;
        } else if (kind == 1) {         /* No-op padding. */
            opt++;
            continue;
        }
        if (end - opt < 2) {
            break;
        }
        size_t len = MAX(opt[1], 2);
        if (kind == 3 && opt[1] == 3 && end - opt >= 3) {
            result = CT_WSCALE_ON | MIN(opt[2], TCP_MAX_WSCALE);
        }
        opt += len;
    }
    return result;
}

static const struct tcp_header *
pkt_tcp(const struct dp_packet *pkt)
{
    return dp_packet_l4(pkt);
}

/* The timeout that TCP states SRC and DST (of the sender and receiver of
 * the last segment) call for. */
static enum ct_timeout
tcp_timeout(uint8_t a, uint8_t b)
{
    if (a >= CT_TCP_FIN_WAIT_2 && b >= CT_TCP_FIN_WAIT_2) {
        return CT_TM_TCP_CLOSE;
    } else if (a >= CT_TCP_CLOSING && b >= CT_TCP_CLOSING) {
        return CT_TM_TCP_TIME_WAIT;
    } else if (a < CT_TCP_ESTABLISHED || b < CT_TCP_ESTABLISHED) {
        return CT_TM_TCP_SYN_RECV;
    } else if (a >= CT_TCP_CLOSING || b >= CT_TCP_CLOSING) {
        return CT_TM_TCP_FIN_WAIT;
    }
    return CT_TM_TCP_ESTABLISHED;
}

static void
tcp_init(struct conn *conn, const struct ct_pkt_info *info,
         const struct dp_packet *pkt)
{
    const struct tcp_header *tcp = pkt_tcp(pkt);
    struct ct_tcp_peer *orig = &conn->tcp[0], *reply = &conn->tcp[1];
    uint16_t flags = info->tcp_flags;

    memset(conn->tcp, 0, sizeof conn->tcp);
    orig->seq_lo = ntohl(tcp->tcp_seq);
    orig->seq_hi = orig->seq_lo + info->l4_payload_len + 1;
    if (flags & TCP_SYN) {
        orig->seq_hi++;
        orig->wscale = tcp_wscale_option(tcp,
                                         TCP_OFFSET(ntohs(tcp->tcp_ctl)) * 4);
    } else {
        /* Picked up mid-stream: scaling was negotiated out of sight. */
        orig->wscale = reply->wscale = CT_WSCALE_UNKNOWN;
    }
    if (flags & TCP_FIN) {
        orig->seq_hi++;
    }
    orig->max_win = MAX(ntohs(tcp->tcp_winsz), 1);
    if (orig->wscale & CT_WSCALE_SHIFT_MASK) {
        uint8_t shift = orig->wscale & CT_WSCALE_SHIFT_MASK;
        orig->max_win = DIV_ROUND_UP(orig->max_win, 1u << shift);
    }
    reply->seq_hi = 1;
    reply->max_win = 1;
    orig->state = CT_TCP_SYN_SENT;
    reply->state = CT_TCP_CLOSED;
    conn->tm = CT_TM_TCP_SYN_SENT;
}

static enum ct_update
tcp_update(struct conn *conn, const struct ct_pkt_info *info,
           const struct dp_packet *pkt, bool reply, bool seq_check)
{
    const struct tcp_header *tcp = pkt_tcp(pkt);
    struct ct_tcp_peer *src = &conn->tcp[reply ? 1 : 0];
    struct ct_tcp_peer *dst = &conn->tcp[reply ? 0 : 1];
    uint16_t flags = info->tcp_flags;
    uint32_t win = ntohs(tcp->tcp_winsz);
    uint8_t sws = 0, dws = 0;

    if (ct_tcp_flags_invalid(flags)) {
        return CT_UPDATE_INVALID;
    }

    if ((flags & (TCP_SYN | TCP_ACK)) == TCP_SYN) {
        if (src->state >= CT_TCP_FIN_WAIT_2
            && dst->state >= CT_TCP_FIN_WAIT_2) {
            /* Port reuse: both sides were done. */
            src->state = dst->state = CT_TCP_CLOSED;
            return CT_UPDATE_RESTART;
        } else if (src->state <= CT_TCP_SYN_SENT) {
            /* A repeated SYN before any answer. */
            src->state = CT_TCP_SYN_SENT;
            conn->tm = CT_TM_TCP_SYN_SENT;
            return CT_UPDATE_VALID_NEW;
        }
    }

    if (!(flags & TCP_SYN)) {
        if ((src->wscale & CT_WSCALE_ON) && (dst->wscale & CT_WSCALE_ON)) {
            sws = src->wscale & CT_WSCALE_SHIFT_MASK;
            dws = dst->wscale & CT_WSCALE_SHIFT_MASK;
        } else if ((src->wscale & CT_WSCALE_UNKNOWN)
                   && (dst->wscale & CT_WSCALE_UNKNOWN)) {
            sws = dws = TCP_MAX_WSCALE;
        }
    }

    uint32_t seq = ntohl(tcp->tcp_seq);
    uint32_t wire_seq = seq;
    uint32_t ack = ntohl(tcp->tcp_ack);
    uint32_t end = seq + info->l4_payload_len
                   + !!(flags & TCP_SYN) + !!(flags & TCP_FIN);
    bool check_ack = true;

    if (src->state < CT_TCP_SYN_SENT) {
        /* This side's first segment: the SYN-ACK, or a mid-stream pick-up
         * from the side that was silent. */
        if ((flags & TCP_SYN) && (dst->wscale & CT_WSCALE_ON)) {
            src->wscale = tcp_wscale_option(
                tcp, TCP_OFFSET(ntohs(tcp->tcp_ctl)) * 4);
            if (src->wscale & CT_WSCALE_ON) {
                sws = src->wscale & CT_WSCALE_SHIFT_MASK;
                win = DIV_ROUND_UP(win, 1u << sws);
                dws = dst->wscale & CT_WSCALE_SHIFT_MASK;
            } else {
                /* Only one side offered scaling: nobody scales. */
                dst->max_win <<= dst->wscale & CT_WSCALE_SHIFT_MASK;
                dst->wscale = 0;
            }
        }
        src->seq_lo = seq;
        src->state = CT_TCP_SYN_SENT;
        uint32_t reach = end + MAX(1u, dst->max_win << dws);
        if (src->seq_hi == 1 || seq_ge(reach, src->seq_hi)) {
            src->seq_hi = reach;
            /* New or picked-up: what it acks is not known yet. */
            check_ack = false;
        }
        if (win > src->max_win) {
            src->max_win = win;
        }
    }

    if (!(flags & TCP_ACK)
        || (ack == 0 && (flags & (TCP_ACK | TCP_RST)) == (TCP_ACK | TCP_RST))) {
        /* Nothing acked (or a stack that resets with a zero ack). */
        ack = dst->seq_lo;
    }
    if (seq == end) {
        /* Pure acks carry no sequence space: don't hold them to it. */
        seq = end = src->seq_lo;
    }

    int32_t ackskew = check_ack ? (int32_t) (dst->seq_lo - ack) : 0;
    bool in_window
        = (seq_ge(src->seq_hi, end)
           && seq_ge(seq, src->seq_lo - (dst->max_win << dws))
           && ackskew >= -ACK_WINDOW_SLACK
           && ackskew <= (ACK_WINDOW_SLACK << sws)
           /* A reset must hit the expected sequence (or one off). */
           && (!(flags & TCP_RST) || wire_seq == src->seq_lo
               || wire_seq == src->seq_lo + 1 || wire_seq + 1 == src->seq_lo));

    if (in_window || !seq_check) {
        src->max_win = MAX(src->max_win, win);
        if (seq_gt(end, src->seq_lo)) {
            src->seq_lo = end;
        }
        if (seq_ge(ack + (win << sws), dst->seq_hi)) {
            dst->seq_hi = ack + MAX(win << sws, 1u);
        }
        if ((flags & TCP_SYN) && src->state < CT_TCP_SYN_SENT) {
            src->state = CT_TCP_SYN_SENT;
        }
        if ((flags & TCP_FIN) && src->state < CT_TCP_CLOSING) {
            src->state = CT_TCP_CLOSING;
        }
        if (flags & TCP_ACK) {
            if (dst->state == CT_TCP_SYN_SENT) {
                dst->state = CT_TCP_ESTABLISHED;
            } else if (dst->state == CT_TCP_CLOSING) {
                dst->state = CT_TCP_FIN_WAIT_2;
            }
        }
        if (flags & TCP_RST) {
            src->state = dst->state = CT_TCP_TIME_WAIT;
        }
        conn->tm = tcp_timeout(src->state, dst->state);
        return CT_UPDATE_VALID;
    }

    /* Outside the window, but within a window of slack around it while
     * the connection is still opening or already closed: stacks that
     * shotgun SYNs, pick-ups, stray FINs after a close.  Let it through
     * without touching the timeout, so a flood cannot keep it alive. */
    if ((dst->state < CT_TCP_SYN_SENT || dst->state >= CT_TCP_FIN_WAIT_2
         || src->state >= CT_TCP_FIN_WAIT_2)
        && seq_ge(src->seq_hi + ACK_WINDOW_SLACK, end)
        && seq_ge(seq, src->seq_lo - ACK_WINDOW_SLACK)) {
        src->max_win = MAX(src->max_win, win);
        if (seq_gt(end, src->seq_lo)) {
            src->seq_lo = end;
        }
        if (seq_ge(ack + (win << sws), dst->seq_hi)) {
            dst->seq_hi = ack + MAX(win << sws, 1u);
        }
        if ((flags & TCP_FIN) && src->state < CT_TCP_CLOSING) {
            src->state = CT_TCP_CLOSING;
        }
        if (flags & TCP_RST) {
            src->state = dst->state = CT_TCP_TIME_WAIT;
        }
        return CT_UPDATE_VALID;
    }
    return CT_UPDATE_INVALID;
}

bool
ct_proto_valid_new(const struct ct_pkt_info *info,
                   const struct dp_packet *pkt OVS_UNUSED)
{
    switch (ct_proto_class(info->key.nw_proto, info->key.is_ipv6)) {
    case CT_PROTO_TCP:
        /* A SYN opens, anything else sane picks up an established
         * stream; a SYN-ACK alone is half an opening and does not. */
        return (!ct_tcp_flags_invalid(info->tcp_flags)
                && (info->tcp_flags & (TCP_SYN | TCP_ACK))
                   != (TCP_SYN | TCP_ACK));
    case CT_PROTO_ICMP: {
        /* Only the asking half of an exchange opens one. */
        uint8_t t = info->key.icmp_type;
        return (info->key.is_ipv6 ? t == 128
                : t == ICMP4_ECHO_REQUEST || t == 13 || t == 15);
    }
    case CT_PROTO_OTHER:
    default:
        return true;
    }
}

void
ct_proto_init(struct conn *conn, const struct ct_pkt_info *info,
              const struct dp_packet *pkt)
{
    switch (conn->proto) {
    case CT_PROTO_TCP:
        tcp_init(conn, info, pkt);
        break;
    case CT_PROTO_ICMP:
        conn->icmp = CT_ICMP_FIRST;
        conn->tm = CT_TM_ICMP_FIRST;
        break;
    case CT_PROTO_OTHER:
    default:
        conn->other = CT_OTHER_FIRST;
        conn->tm = (info->key.nw_proto == IPPROTO_UDP ? CT_TM_UDP_FIRST
                    : CT_TM_OTHER_FIRST);
        break;
    }
}

enum ct_update
ct_proto_update(struct conn *conn, const struct ct_pkt_info *info,
                const struct dp_packet *pkt, bool reply, bool seq_check)
{
    bool udp = conn->node[0].key.nw_proto == IPPROTO_UDP;

    switch (conn->proto) {
    case CT_PROTO_TCP:
        return tcp_update(conn, info, pkt, reply, seq_check);
    case CT_PROTO_ICMP:
        if (reply) {
            conn->icmp = CT_ICMP_REPLY;
        }
        conn->tm = (conn->icmp == CT_ICMP_REPLY ? CT_TM_ICMP_REPLY
                    : CT_TM_ICMP_FIRST);
        return conn->icmp == CT_ICMP_REPLY ? CT_UPDATE_VALID
                                           : CT_UPDATE_VALID_NEW;
    case CT_PROTO_OTHER:
    default:
        if (reply) {
            conn->other = CT_OTHER_BIDIR;
        } else if (conn->other == CT_OTHER_FIRST) {
            conn->other = CT_OTHER_MULTIPLE;
        }
        switch (conn->other) {
        case CT_OTHER_FIRST:
            conn->tm = udp ? CT_TM_UDP_FIRST : CT_TM_OTHER_FIRST;
            break;
        case CT_OTHER_MULTIPLE:
            conn->tm = udp ? CT_TM_UDP_SINGLE : CT_TM_OTHER_MULTIPLE;
            break;
        case CT_OTHER_BIDIR:
        default:
            conn->tm = udp ? CT_TM_UDP_MULTIPLE : CT_TM_OTHER_BIDIR;
            break;
        }
        return conn->other == CT_OTHER_BIDIR ? CT_UPDATE_VALID
                                             : CT_UPDATE_VALID_NEW;
    }
}

/* Timeout names and defaults
 * ========================== */

static const char *const timeout_names[CT_TM_N] = {
    [CT_TM_TCP_SYN_SENT] = "tcp_syn_sent",
    [CT_TM_TCP_SYN_RECV] = "tcp_syn_recv",
    [CT_TM_TCP_ESTABLISHED] = "tcp_established",
    [CT_TM_TCP_FIN_WAIT] = "tcp_fin_wait",
    [CT_TM_TCP_CLOSE_WAIT] = "tcp_close_wait",
    [CT_TM_TCP_LAST_ACK] = "tcp_last_ack",
    [CT_TM_TCP_TIME_WAIT] = "tcp_time_wait",
    [CT_TM_TCP_CLOSE] = "tcp_close",
    [CT_TM_TCP_SYN_SENT2] = "tcp_syn_sent2",
    [CT_TM_TCP_RETRANSMIT] = "tcp_retransmit",
    [CT_TM_TCP_UNACK] = "tcp_unack",
    [CT_TM_UDP_FIRST] = "udp_first",
    [CT_TM_UDP_SINGLE] = "udp_single",
    [CT_TM_UDP_MULTIPLE] = "udp_multiple",
    [CT_TM_ICMP_FIRST] = "icmp_first",
    [CT_TM_ICMP_REPLY] = "icmp_reply",
};

const char *
ct_timeout_name(enum ct_timeout tm)
{
    return (unsigned) tm < CT_TM_N ? timeout_names[tm] : NULL;
}

bool
ct_timeout_from_name(const char *name, enum ct_timeout *tm)
{
    for (int i = 0; i < CT_TM_N; i++) {
        if (timeout_names[i] && !strcmp(timeout_names[i], name)) {
            *tm = i;
            return true;
        }
    }
    return false;
}

/* 3.1's userspace defaults, in seconds.  The states its tracker never
 * enters (close_wait, last_ack, syn_sent2, retransmit, unack) get the
 * Linux defaults, so a policy that sets them reads back sensibly.  Other
 * IP protocols are timed like UDP, as in 3.1. */
void
ct_policy_defaults(struct ct_policy_values *v)
{
    static const uint32_t defaults[CT_TM_N] = {
        [CT_TM_TCP_SYN_SENT] = 30,
        [CT_TM_TCP_SYN_RECV] = 30,
        [CT_TM_TCP_ESTABLISHED] = 24 * 60 * 60,
        [CT_TM_TCP_FIN_WAIT] = 15 * 60,
        [CT_TM_TCP_CLOSE_WAIT] = 60,
        [CT_TM_TCP_LAST_ACK] = 30,
        [CT_TM_TCP_TIME_WAIT] = 45,
        [CT_TM_TCP_CLOSE] = 30,
        [CT_TM_TCP_SYN_SENT2] = 120,
        [CT_TM_TCP_RETRANSMIT] = 300,
        [CT_TM_TCP_UNACK] = 300,
        [CT_TM_UDP_FIRST] = 60,
        [CT_TM_UDP_SINGLE] = 60,
        [CT_TM_UDP_MULTIPLE] = 30,
        [CT_TM_ICMP_FIRST] = 60,
        [CT_TM_ICMP_REPLY] = 30,
        [CT_TM_OTHER_FIRST] = 60,
        [CT_TM_OTHER_MULTIPLE] = 60,
        [CT_TM_OTHER_BIDIR] = 30,
    };
    memcpy(v->seconds, defaults, sizeof defaults);
}
