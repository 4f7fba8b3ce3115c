/* bfd: see bfd.h.
 *
 * The session follows RFC 5880's state variables (bfd.SessionState,
 * bfd.LocalDiag, the discriminators, the intervals) with Open vSwitch 3.1's
 * additions: decay (stretch the receive interval while the port sees no
 * traffic but BFD's own), forwarding_if_rx (call the port forwarding while
 * data arrives even if the session is down), a forwarding override for
 * tests, and a count of forwarding flaps.
 *
 * Intervals are kept in milliseconds; the wire carries microseconds. */
#include <config.h>
#include "bfd.h"

#include <arpa/inet.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "coverage.h"
#include "csum.h"
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow.h"
#include "hash.h"
#include "hmap.h"
#include "netdev.h"
#include "ovs-thread.h"
#include "packets.h"
#include "smap.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(bfd);

COVERAGE_DEFINE(bfd_rx_control);
COVERAGE_DEFINE(bfd_rx_invalid);
COVERAGE_DEFINE(bfd_tx_control);

#define BFD_VERSION 1
#define BFD_DEFAULT_MULT 3
#define BFD_DEFAULT_MIN_TX 100      /* ms */
#define BFD_DEFAULT_MIN_RX 1000     /* ms */
/* RFC 5880 6.8.3: while not Up, transmit no faster than once a second. */
#define BFD_SLOW_TX 1000            /* ms */
/* The link-local addresses 3.1 uses when bfd_src_ip / bfd_dst_ip are
 * unset. */
#define BFD_DEFAULT_SRC_IP 0xa9fe0101   /* 169.254.1.1 */
#define BFD_DEFAULT_DST_IP 0xa9fe0100   /* 169.254.1.0 */

/* The second byte of a control packet: state in the top two bits, then
 * the P F C A D M flags. */
enum bfd_flags {
    BFD_FLAG_MULTIPOINT = 1 << 0,
    BFD_FLAG_DEMAND = 1 << 1,
    BFD_FLAG_AUTH = 1 << 2,
    BFD_FLAG_CPI = 1 << 3,          /* Control Plane Independent. */
    BFD_FLAG_FINAL = 1 << 4,
    BFD_FLAG_POLL = 1 << 5,
};
#define BFD_FLAGS_MASK 0x3f
#define BFD_STATE_SHIFT 6

/* Ordered as on the wire, so "> BFD_DOWN" means Init or Up. */
enum bfd_state {
    BFD_ADMIN_DOWN = 0,
    BFD_DOWN = 1,
    BFD_INIT = 2,
    BFD_UP = 3,
};

enum bfd_diag {
    BFD_DIAG_NONE = 0,
    BFD_DIAG_EXPIRED = 1,
    BFD_DIAG_ECHO_FAILED = 2,
    BFD_DIAG_NEIGHBOR_DOWN = 3,
    BFD_DIAG_FWD_RESET = 4,
    BFD_DIAG_PATH_DOWN = 5,
    BFD_DIAG_CPATH_DOWN = 6,
    BFD_DIAG_ADMIN_DOWN = 7,
    BFD_DIAG_RCPATH_DOWN = 8,
};
#define BFD_DIAG_MASK 0x1f
#define BFD_VERSION_SHIFT 5

/* A control packet (RFC 5880 4.1) without authentication.  Reached only
 * through dp_packet_at(), which checks the length; the 32-bit fields are
 * read with memcpy since the UDP payload of an Ethernet frame is only
 * 2-byte aligned. */
struct bfd_msg {
    uint8_t vers_diag;
    uint8_t state_flags;
    uint8_t mult;
    uint8_t length;
    uint8_t my_disc[4];
    uint8_t your_disc[4];
    uint8_t min_tx[4];              /* Desired Min TX Interval, us. */
    uint8_t min_rx[4];              /* Required Min RX Interval, us. */
    uint8_t min_rx_echo[4];
};
_Static_assert(sizeof(struct bfd_msg) == BFD_PACKET_LEN, "bfd_msg");

static uint32_t
get_be32(const uint8_t p[4])
{
    ovs_be32 x;
    memcpy(&x, p, 4);
    return ntohl(x);
}

static void
put_be32(uint8_t p[4], uint32_t value)
{
    ovs_be32 x = htonl(value);
    memcpy(p, &x, 4);
}

struct bfd {
    struct port_protocol up;
    struct hmap_node name_node;     /* In 'sessions_by_name'. */
    struct hmap_node disc_node;     /* In 'sessions_by_disc'. */
    char *name;                     /* The interface's. */
    struct netdev *netdev;          /* Not ours; may be NULL. */

    /* Everything below: 'bfd_mutex'. */

    /* Configuration. */
    bool cpath_down;
    bool oam;                       /* Set the tunnel OAM flag on tx. */
    bool check_tnl_key;             /* Accept only tun_id 0. */
    bool forwarding_if_rx;
    uint8_t mult;                   /* bfd.DetectMult. */
    struct eth_addr local_eth_src;  /* Zero: the port's address. */
    struct eth_addr local_eth_dst;  /* Zero: 00:23:20:00:00:01. */
    struct eth_addr rmt_eth_dst;    /* Nonzero: accept only this dl_dst. */
    ovs_be32 ip_src, ip_dst;
    uint16_t udp_src;               /* RFC 5881: 49152..65535, fixed. */
    long long int cfg_min_tx, cfg_min_rx;
    int decay_min_rx;               /* 0: no decay. */

    /* RFC 5880 state variables. */
    enum bfd_state state;
    enum bfd_diag diag;
    uint32_t disc;                  /* bfd.LocalDiscr. */
    enum bfd_state rmt_state;
    enum bfd_diag rmt_diag;
    uint32_t rmt_disc;
    uint8_t rmt_flags;              /* Flags of the last packet received. */
    uint8_t rmt_mult;
    uint8_t flags;                  /* BFD_FLAG_POLL / _FINAL we send. */

    /* Intervals in effect, and those a poll sequence is negotiating. */
    long long int min_tx;           /* bfd.DesiredMinTxInterval. */
    long long int min_rx;           /* bfd.RequiredMinRxInterval. */
    long long int poll_min_tx, poll_min_rx;
    long long int rmt_min_tx, rmt_min_rx;

    /* Timers (time_msec() values). */
    long long int last_tx;
    long long int next_tx;          /* 0: at once. */
    long long int detect_time;      /* RFC 5880 6.8.4. */

    /* Forwarding. */
    bool last_forwarding;
    int forwarding_override;        /* -1 none, 0 false, 1 true. */
    uint64_t flap_count;

    /* forwarding_if_rx: data was seen until this time... */
    long long int forwarding_if_rx_detect_time;
    /* ...and a control packet must have arrived within 100 min_rx. */
    long long int demand_rx_bfd_time;
    uint64_t rx_packets_seen;       /* netdev rx counter last looked at. */

    /* Decay. */
    bool in_decay;
    int decay_rx_ctl;               /* Control packets since the last
                                     * decay check. */
    uint64_t decay_rx_packets;      /* netdev rx counter at that check. */
    long long int decay_detect_time;
};

static struct ovs_mutex bfd_mutex = OVS_MUTEX_INITIALIZER;
static struct hmap sessions_by_name = HMAP_INITIALIZER(&sessions_by_name);
static struct hmap sessions_by_disc = HMAP_INITIALIZER(&sessions_by_disc);

/* Invalid packets and bad settings are logged at most this often. */
static struct vlog_rate_limit bfd_rl = VLOG_RATE_LIMIT_INIT(20, 20);

static void bfd_set_state(struct bfd *, enum bfd_state, enum bfd_diag,
                          long long int now);
static bool bfd_update_forwarding(struct bfd *, long long int now);
static void bfd_poll(struct bfd *);
static void bfd_put_details(struct ds *, struct bfd *, long long int now);
static unixctl_cb_func bfd_unixctl_show;
static unixctl_cb_func bfd_unixctl_set_forwarding;

/* Names, as 3.1 prints them. */

static const char *
bfd_state_str(enum bfd_state state)
{
    switch (state) {
    case BFD_ADMIN_DOWN: return "admin_down";
    case BFD_DOWN: return "down";
    case BFD_INIT: return "init";
    case BFD_UP: return "up";
    }
    return "invalid";
}

static const char *
bfd_diag_str(enum bfd_diag diag)
{
    switch (diag) {
    case BFD_DIAG_NONE: return "No Diagnostic";
    case BFD_DIAG_EXPIRED: return "Control Detection Time Expired";
    case BFD_DIAG_ECHO_FAILED: return "Echo Function Failed";
    case BFD_DIAG_NEIGHBOR_DOWN: return "Neighbor Signaled Session Down";
    case BFD_DIAG_FWD_RESET: return "Forwarding Plane Reset";
    case BFD_DIAG_PATH_DOWN: return "Path Down";
    case BFD_DIAG_CPATH_DOWN: return "Concatenated Path Down";
    case BFD_DIAG_ADMIN_DOWN: return "Administratively Down";
    case BFD_DIAG_RCPATH_DOWN: return "Reverse Concatenated Path Down";
    }
    return "Invalid Diagnostic";
}

/* Writes FLAGS as words ("poll final"), or "none". */
static void
bfd_put_flags(struct ds *ds, uint8_t flags)
{
    static const struct {
        uint8_t bit;
        const char *name;
    } names[] = {
        { BFD_FLAG_MULTIPOINT, "multipoint" },
        { BFD_FLAG_DEMAND, "demand" },
        { BFD_FLAG_AUTH, "auth" },
        { BFD_FLAG_CPI, "ctl" },
        { BFD_FLAG_FINAL, "final" },
        { BFD_FLAG_POLL, "poll" },
    };
    bool any = false;
    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        if (flags & names[i].bit) {
            ds_put_format(ds, "%s%s", any ? " " : "", names[i].name);
            any = true;
        }
    }
    if (!any) {
        ds_put_cstr(ds, "none");
    }
}

/* Intervals (RFC 5880 6.8.2, 6.8.3, 6.8.7). */

static long long int
bfd_min_tx(const struct bfd *bfd)
{
    return bfd->state == BFD_UP ? bfd->min_tx : MAX(bfd->min_tx, BFD_SLOW_TX);
}

static long long int
bfd_tx_interval(const struct bfd *bfd)
{
    return MAX(bfd_min_tx(bfd), bfd->rmt_min_rx);
}

static long long int
bfd_rx_interval(const struct bfd *bfd)
{
    return MAX(bfd->min_rx, bfd->rmt_min_tx);
}

static bool
bfd_in_poll(const struct bfd *bfd)
{
    return (bfd->flags & BFD_FLAG_POLL) != 0;
}

/* The next periodic transmission: the interval less a random 0-25%
 * (RFC 5880 6.8.7), 10-25% with a multiplier of 1, so that two sessions
 * do not lock step. */
static void
bfd_set_next_tx(struct bfd *bfd)
{
    long long int interval = bfd_tx_interval(bfd);
    long long int jitter = (bfd->mult == 1
                            ? 10 + (long long int) random_below(16)
                            : (long long int) random_below(26));
    bfd->next_tx = bfd->last_tx + interval - interval * jitter / 100;
}

/* The port's receive counter (0 without a netdev). */
static uint64_t
bfd_rx_packets(const struct bfd *bfd)
{
    if (!bfd->netdev) {
        return 0;
    }
    struct netdev_stats stats;
    netdev_get_stats(bfd->netdev, &stats);
    return stats.rx_packets == NETDEV_STAT_UNKNOWN ? 0 : stats.rx_packets;
}

static void
bfd_status_changed(struct bfd *bfd)
{
    port_protocol_changed(&bfd->up);
}

/* forwarding_if_rx: traffic seen now keeps the port forwarding for the
 * detection time (at least 2 s). */
static void
bfd_forwarding_if_rx_update(struct bfd *bfd, long long int now)
{
    long long int span = bfd_rx_interval(bfd) * bfd->mult;
    bfd->forwarding_if_rx_detect_time = MAX(span, 2000) + now;
}

/* Looks at the port's receive counter: traffic since the last look counts
 * for forwarding_if_rx as received now.  (Every reader of the forwarding
 * state looks first, and the monitor looks at every run, so "now" is at
 * most one transmit interval late.) */
static void
bfd_sample_rx(struct bfd *bfd, long long int now)
{
    if (!bfd->forwarding_if_rx || !bfd->netdev) {
        return;
    }
    uint64_t rx = bfd_rx_packets(bfd);
    if (rx != bfd->rx_packets_seen) {
        bfd->rx_packets_seen = rx;
        bfd_forwarding_if_rx_update(bfd, now);
    }
}

/* Decay: restarts counting control packets against all packets. */
static void
bfd_decay_update(struct bfd *bfd, long long int now)
{
    bfd->decay_rx_packets = bfd_rx_packets(bfd);
    bfd->decay_rx_ctl = 0;
    bfd->decay_detect_time = MAX(bfd->decay_min_rx, 2000) + now;
}

/* Decay: if the port received hardly more than BFD's own packets since
 * the last check (twice their count, since the device's counter is not
 * read at the same moment the control packets are counted), the session
 * asks its peer to send slower. */
static void
bfd_try_decay(struct bfd *bfd, long long int now)
{
    int64_t received = bfd_rx_packets(bfd) - bfd->decay_rx_packets;
    int64_t expected = 2 * MAX(bfd->decay_rx_ctl, 1);
    bfd->in_decay = received <= expected;
    bfd_decay_update(bfd, now);
}

/* Starts a poll sequence (RFC 5880 6.5) to announce the configured
 * intervals, unless one is running, a Final is owed, or the session is
 * down (then the new intervals simply apply). */
static void
bfd_poll(struct bfd *bfd)
{
    if (bfd->state > BFD_DOWN && !bfd_in_poll(bfd)
        && !(bfd->flags & BFD_FLAG_FINAL)) {
        bfd->poll_min_tx = bfd->cfg_min_tx;
        bfd->poll_min_rx = bfd->in_decay ? bfd->decay_min_rx : bfd->cfg_min_rx;
        bfd->flags |= BFD_FLAG_POLL;
        bfd->next_tx = 0;
        VLOG_INFO_RL(&bfd_rl, "%s: Initiating poll sequence", bfd->name);
    }
}

/* The earliest moment the session has something to do. */
static long long int
bfd_next_deadline(const struct bfd *bfd, long long int now)
{
    long long int next = bfd->flags & BFD_FLAG_FINAL ? now : bfd->next_tx;
    if (bfd->state > BFD_DOWN) {
        next = MIN(next, bfd->detect_time);
    }
    if (bfd->state == BFD_UP && bfd->decay_min_rx > 0) {
        next = MIN(next, bfd->decay_detect_time);
    }
    if (bfd->forwarding_if_rx) {
        /* The forwarding state changes when these pass. */
        if (bfd->forwarding_if_rx_detect_time > now) {
            next = MIN(next, bfd->forwarding_if_rx_detect_time);
        }
        if (bfd->demand_rx_bfd_time > now) {
            next = MIN(next, bfd->demand_rx_bfd_time);
        }
    }
    return next;
}

/* Computes whether the port may forward; a change of the computed value
 * (the override aside) is a flap and a status change. */
static bool
bfd_update_forwarding(struct bfd *bfd, long long int now)
{
    if (bfd->forwarding_override != -1) {
        return bfd->forwarding_override == 1;
    }

    bfd_sample_rx(bfd, now);
    bool rx_alive = (bfd->forwarding_if_rx
                     && bfd->forwarding_if_rx_detect_time > now
                     && bfd->demand_rx_bfd_time > now);
    bool forwarding = ((bfd->state == BFD_UP || rx_alive)
                       && bfd->rmt_diag != BFD_DIAG_PATH_DOWN
                       && bfd->rmt_diag != BFD_DIAG_CPATH_DOWN
                       && bfd->rmt_diag != BFD_DIAG_RCPATH_DOWN);
    if (forwarding != bfd->last_forwarding) {
        bfd->last_forwarding = forwarding;
        bfd->flap_count++;
        bfd_status_changed(bfd);
    }
    return forwarding;
}

static void
bfd_set_state(struct bfd *bfd, enum bfd_state state, enum bfd_diag diag,
              long long int now)
{
    if (bfd->cpath_down) {
        diag = BFD_DIAG_CPATH_DOWN;
    }
    if (bfd->state == state && bfd->diag == diag) {
        return;
    }

    if (!VLOG_DROP_INFO(&bfd_rl)) {
        struct ds ds = DS_EMPTY_INITIALIZER;
        ds_put_format(&ds, "%s: BFD state change: %s->%s \"%s\"->\"%s\".\n",
                      bfd->name, bfd_state_str(bfd->state),
                      bfd_state_str(state), bfd_diag_str(bfd->diag),
                      bfd_diag_str(diag));
        bfd_put_details(&ds, bfd, now);
        VLOG_INFO("%s", ds_cstr(&ds));
        ds_destroy(&ds);
    }

    bfd->state = state;
    bfd->diag = diag;
    if (state <= BFD_DOWN) {
        /* The peer is forgotten: a new session starts from scratch. */
        bfd->rmt_state = BFD_DOWN;
        bfd->rmt_diag = BFD_DIAG_NONE;
        bfd->rmt_min_rx = 1;
        bfd->rmt_min_tx = 0;
        bfd->rmt_flags = 0;
        bfd->rmt_disc = 0;
        if (bfd->in_decay) {
            bfd->min_rx = bfd->cfg_min_rx;
            bfd->in_decay = false;
        }
    }
    if (state == BFD_UP && bfd->decay_min_rx) {
        bfd_decay_update(bfd, now);
    }
    /* The transmit interval depends on the state (no faster than once a
     * second until Up), so the next packet follows the new one rather
     * than the interval of the state just left: a session that comes Up
     * tells its peer within its Up interval. */
    if (bfd->next_tx) {
        bfd_set_next_tx(bfd);
    }
    bfd_status_changed(bfd);
}

/* A random nonzero discriminator no other session here has (RFC 5880
 * 6.8.1 asks for random and unique). */
static uint32_t
bfd_generate_discriminator(void)
{
    for (;;) {
        uint32_t disc = random_below(UINT32_MAX) + 1;
        bool taken = false;
        struct bfd *other;
        HMAP_FOR_EACH_WITH_HASH (other, disc_node, disc, &sessions_by_disc) {
            if (other->disc == disc) {
                taken = true;
                break;
            }
        }
        if (!taken) {
            return disc;
        }
    }
}

static void
bfd_parse_ip(const struct bfd *bfd, const char *key, const char *text,
             uint32_t def, ovs_be32 *ip)
{
    struct in_addr addr;
    if (text && text[0]) {
        if (inet_pton(AF_INET, text, &addr) == 1) {
            *ip = addr.s_addr;
            return;
        }
        VLOG_ERR_RL(&bfd_rl, "%s: bfd:%s \"%s\" is not a valid IP address",
                    bfd->name, key, text);
    }
    *ip = htonl(def);
}

static void
bfd_parse_mac(const struct bfd *bfd, const char *key, const char *text,
              struct eth_addr *mac)
{
    memset(mac, 0, sizeof *mac);
    if (text && text[0] && !eth_addr_from_string(text, mac)) {
        VLOG_WARN_RL(&bfd_rl, "%s: bfd:%s \"%s\" is not a valid Ethernet "
                     "address", bfd->name, key, text);
        memset(mac, 0, sizeof *mac);
    }
}

/* Applies CFG.  Comparisons with the previous values decide what needs a
 * poll sequence, as in 3.1. */
static void
bfd_configure__(struct bfd *bfd, const struct smap *cfg, long long int now)
{
    bool need_poll = false;
    bool min_rx_changed = false;

    int old_mult = bfd->mult;
    int mult = smap_get_int(cfg, "mult", BFD_DEFAULT_MULT);
    if (mult < 1 || mult > 255) {
        VLOG_INFO_RL(&bfd_rl, "%s: bfd:mult %d is out of range 1...255, "
                     "using %d", bfd->name, mult, BFD_DEFAULT_MULT);
        mult = BFD_DEFAULT_MULT;
    }
    bfd->mult = mult;

    bfd->oam = smap_get_bool(cfg, "oam", false);
    bfd->check_tnl_key = smap_get_bool(cfg, "check_tnl_key", false);

    long long int min_tx = MAX(smap_get_int(cfg, "min_tx",
                                            BFD_DEFAULT_MIN_TX), 1);
    if (min_tx != bfd->cfg_min_tx) {
        bfd->cfg_min_tx = min_tx;
        /* Slowing down must wait for the peer's Final; speeding up
         * (or any change while not Up) may apply at once. */
        if (bfd->state != BFD_UP
            || (!bfd_in_poll(bfd) && min_tx < bfd->min_tx)) {
            bfd->min_tx = min_tx;
        }
        need_poll = true;
    }

    long long int min_rx = MAX(smap_get_int(cfg, "min_rx",
                                            BFD_DEFAULT_MIN_RX), 1);
    if (min_rx != bfd->cfg_min_rx) {
        bfd->cfg_min_rx = min_rx;
        if (bfd->state != BFD_UP
            || (!bfd_in_poll(bfd) && min_rx > bfd->min_rx)) {
            bfd->min_rx = min_rx;
        }
        min_rx_changed = true;
        need_poll = true;
    }

    int decay_min_rx = smap_get_int(cfg, "decay_min_rx", 0);
    if (decay_min_rx != bfd->decay_min_rx || min_rx_changed) {
        if (decay_min_rx > 0 && decay_min_rx < bfd->cfg_min_rx) {
            VLOG_WARN("%s: decay_min_rx cannot be less than %lld ms",
                      bfd->name, bfd->cfg_min_rx);
            bfd->decay_min_rx = 0;
        } else {
            bfd->decay_min_rx = MAX(decay_min_rx, 0);
        }
        bfd->in_decay = false;
        bfd_decay_update(bfd, now);
        need_poll = true;
    }

    bool cpath_down = smap_get_bool(cfg, "cpath_down", false);
    if (cpath_down != bfd->cpath_down) {
        bfd->cpath_down = cpath_down;
        /* Re-derives the diagnostic: Concatenated Path Down, or none. */
        bfd_set_state(bfd, bfd->state, BFD_DIAG_NONE, now);
        need_poll = true;
    }

    bfd_parse_mac(bfd, "bfd_local_src_mac",
                  smap_get(cfg, "bfd_local_src_mac"), &bfd->local_eth_src);
    bfd_parse_mac(bfd, "bfd_local_dst_mac",
                  smap_get(cfg, "bfd_local_dst_mac"), &bfd->local_eth_dst);
    bfd_parse_mac(bfd, "bfd_remote_dst_mac",
                  smap_get(cfg, "bfd_remote_dst_mac"), &bfd->rmt_eth_dst);
    bfd_parse_ip(bfd, "bfd_src_ip", smap_get(cfg, "bfd_src_ip"),
                 BFD_DEFAULT_SRC_IP, &bfd->ip_src);
    bfd_parse_ip(bfd, "bfd_dst_ip", smap_get(cfg, "bfd_dst_ip"),
                 BFD_DEFAULT_DST_IP, &bfd->ip_dst);

    bool forwarding_if_rx = smap_get_bool(cfg, "forwarding_if_rx", false);
    if (forwarding_if_rx != bfd->forwarding_if_rx) {
        bfd->forwarding_if_rx = forwarding_if_rx;
        /* Traffic counts only from now on. */
        bfd->rx_packets_seen = bfd_rx_packets(bfd);
        if (bfd->state == BFD_UP && forwarding_if_rx) {
            bfd_forwarding_if_rx_update(bfd, now);
        } else {
            bfd->forwarding_if_rx_detect_time = 0;
        }
    } else if (bfd->state == BFD_UP && forwarding_if_rx && old_mult != mult) {
        bfd_forwarding_if_rx_update(bfd, now);
    }

    if (need_poll) {
        bfd_poll(bfd);
    }
    /* The forwarding state may follow from the new settings. */
    bfd_update_forwarding(bfd, now);
}

void
bfd_init(void)
{
    static bool registered;

    if (!registered) {
        registered = true;
        unixctl_command_register("bfd/show", "[interface]", 0, 1,
                                 bfd_unixctl_show, NULL);
        unixctl_command_register("bfd/set-forwarding",
                                 "[interface] normal|false|true", 1, 2,
                                 bfd_unixctl_set_forwarding, NULL);
    }
}

struct bfd *
bfd_create(const char *name, const struct smap *cfg, struct netdev *netdev,
           void *owner)
{
    /* RFC 5881 4: one source port per session, unique if possible. */
    static unsigned int next_udp_src;

    bfd_init();

    struct bfd *bfd = xzalloc(sizeof *bfd);
    port_protocol_init(&bfd->up, &bfd_class, owner);
    bfd->name = xstrdup(name);
    bfd->netdev = netdev;
    bfd->forwarding_override = -1;
    bfd->state = BFD_DOWN;
    bfd->diag = BFD_DIAG_NONE;
    bfd->rmt_state = BFD_DOWN;
    bfd->rmt_diag = BFD_DIAG_NONE;
    bfd->rmt_min_rx = 1;
    bfd->min_tx = BFD_SLOW_TX;
    bfd->mult = BFD_DEFAULT_MULT;

    long long int now = time_msec();
    ovs_mutex_lock(&bfd_mutex);
    bfd->udp_src = 49152 + next_udp_src++ % 16384;
    bfd->disc = bfd_generate_discriminator();
    hmap_insert(&sessions_by_disc, &bfd->disc_node, bfd->disc);
    hmap_insert(&sessions_by_name, &bfd->name_node, hash_string(name, 0));
    bfd_decay_update(bfd, now);
    bfd_configure__(bfd, cfg, now);
    bfd_status_changed(bfd);
    ovs_mutex_unlock(&bfd_mutex);

    /* next_tx is 0: the first packet goes at the first run. */
    port_protocol_schedule(&bfd->up, now);
    return bfd;
}

void
bfd_reconfigure(struct bfd *bfd, const struct smap *cfg)
{
    long long int now = time_msec();
    ovs_mutex_lock(&bfd_mutex);
    bfd_configure__(bfd, cfg, now);
    long long int next = bfd_next_deadline(bfd, now);
    ovs_mutex_unlock(&bfd_mutex);
    /* A new interval or multiplier changes the deadlines, not
     * necessarily to earlier ones: run now and let run() say. */
    port_protocol_schedule(&bfd->up, MIN(next, now));
}

void
bfd_destroy(struct bfd *bfd)
{
    if (!bfd) {
        return;
    }
    ovs_assert(!bfd->up.port);
    /* Not attached, but possibly still on the change queue. */
    port_protocol_detach(&bfd->up);

    ovs_mutex_lock(&bfd_mutex);
    hmap_remove(&sessions_by_name, &bfd->name_node);
    hmap_remove(&sessions_by_disc, &bfd->disc_node);
    ovs_mutex_unlock(&bfd_mutex);

    free(bfd->name);
    free(bfd);
}

struct port_protocol *
bfd_protocol(struct bfd *bfd)
{
    return &bfd->up;
}

struct bfd *
bfd_from_protocol(const struct port_protocol *p)
{
    ovs_assert(p->class == &bfd_class);
    return CONTAINER_OF(p, struct bfd, up);
}

bool
bfd_forwarding(const struct bfd *bfd_)
{
    struct bfd *bfd = (struct bfd *) bfd_;
    ovs_mutex_lock(&bfd_mutex);
    bool forwarding = bfd_update_forwarding(bfd, time_msec());
    ovs_mutex_unlock(&bfd_mutex);
    return forwarding;
}

void
bfd_get_status(const struct bfd *bfd_, struct smap *smap)
{
    struct bfd *bfd = (struct bfd *) bfd_;
    ovs_mutex_lock(&bfd_mutex);
    bool forwarding = bfd_update_forwarding(bfd, time_msec());
    smap_add(smap, "forwarding", forwarding ? "true" : "false");
    smap_add(smap, "state", bfd_state_str(bfd->state));
    smap_add(smap, "diagnostic", bfd_diag_str(bfd->diag));
    smap_add_format(smap, "flap_count", "%"PRIu64, bfd->flap_count);
    smap_add(smap, "remote_state", bfd_state_str(bfd->rmt_state));
    smap_add(smap, "remote_diagnostic", bfd_diag_str(bfd->rmt_diag));
    ovs_mutex_unlock(&bfd_mutex);
}

/* Logging of control packets. */

static void
bfd_log_msg(enum vlog_level level, const struct bfd_msg *msg,
            const char *what, struct bfd *bfd, long long int now)
{
    if (vlog_should_drop(THIS_MODULE, level, &bfd_rl)) {
        return;
    }
    struct ds ds = DS_EMPTY_INITIALIZER;
    uint32_t min_tx = get_be32(msg->min_tx);
    uint32_t min_rx = get_be32(msg->min_rx);
    uint32_t min_rx_echo = get_be32(msg->min_rx_echo);
    ds_put_format(&ds, "%s: %s.\n  vers:%d diag:\"%s\" state:%s mult:%u "
                  "length:%u\n  flags: ", bfd->name, what,
                  msg->vers_diag >> BFD_VERSION_SHIFT,
                  bfd_diag_str(msg->vers_diag & BFD_DIAG_MASK),
                  bfd_state_str(msg->state_flags >> BFD_STATE_SHIFT),
                  msg->mult, msg->length);
    bfd_put_flags(&ds, msg->state_flags & BFD_FLAGS_MASK);
    ds_put_format(&ds, "\n  my_disc:0x%"PRIx32" your_disc:0x%"PRIx32
                  "\n  min_tx:%"PRIu32"us (%"PRIu32"ms)"
                  "\n  min_rx:%"PRIu32"us (%"PRIu32"ms)"
                  "\n  min_rx_echo:%"PRIu32"us (%"PRIu32"ms)",
                  get_be32(msg->my_disc), get_be32(msg->your_disc),
                  min_tx, min_tx / 1000, min_rx, min_rx / 1000,
                  min_rx_echo, min_rx_echo / 1000);
    bfd_put_details(&ds, bfd, now);
    VLOG(level, "%s", ds_cstr(&ds));
    ds_destroy(&ds);
}

/* The class. */

/* Whether DIFF (the port number's bits that differ from BFD's) is zero;
 * marks in WC the bits that decide it: all of tp_dst on a match, else only
 * the highest differing bit, which is enough to tell that this is not
 * BFD's port and keeps the megaflow wide for other UDP traffic. */
static bool
bfd_tp_dst_matches(const struct flow *flow, struct flow_wildcards *wc)
{
    uint16_t diff = ntohs(flow->tp_dst) ^ BFD_DEST_PORT;
    if (wc) {
        if (diff) {
            int lead = __builtin_clz((unsigned int) diff << 16);
            wc->masks.tp_dst |= htons(0x8000 >> lead);
        } else {
            wc->masks.tp_dst = htons(UINT16_MAX);
        }
    }
    return !diff;
}

static bool
bfd_recognizes(const struct port_protocol *p, const struct flow *flow,
               struct flow_wildcards *wc)
{
    struct bfd *bfd = bfd_from_protocol(p);

    ovs_mutex_lock(&bfd_mutex);
    struct eth_addr rmt_eth_dst = bfd->rmt_eth_dst;
    ovs_be32 ip_src = bfd->ip_src;
    bool check_tnl_key = bfd->check_tnl_key;
    ovs_mutex_unlock(&bfd_mutex);

    if (!eth_addr_is_zero(rmt_eth_dst)) {
        if (wc) {
            memset(&wc->masks.dl_dst, 0xff, sizeof wc->masks.dl_dst);
        }
        if (!eth_addr_equals(rmt_eth_dst, flow->dl_dst)) {
            return false;
        }
    }
    if (flow->dl_type != htons(ETH_TYPE_IP)) {
        return false;
    }
    if (wc) {
        wc->masks.nw_proto = UINT8_MAX;
    }
    if (flow->nw_proto != IPPROTO_UDP
        || flow->nw_frag & FLOW_NW_FRAG_LATER
        || !bfd_tp_dst_matches(flow, wc)) {
        return false;
    }
    /* With its own source address configured the session takes only
     * packets addressed to it; with the default any address will do.
     * (Like 3.1, a mismatch leaves nw_dst out of the megaflow, so the
     * megaflows of overlay traffic to port 3784 stay as 3.1 writes them.) */
    if (ip_src != htonl(BFD_DEFAULT_SRC_IP)) {
        if (ip_src != flow->nw_dst) {
            return false;
        }
        if (wc) {
            wc->masks.nw_dst = htonl(UINT32_MAX);
        }
    }
    if (check_tnl_key) {
        if (wc) {
            wc->masks.tunnel.tun_id = htonll(UINT64_MAX);
        }
        return flow->tunnel.tun_id == htonll(0);
    }
    return true;
}

/* The UDP payload of PACKET and its length, or NULL. */
static const uint8_t *
bfd_udp_payload(const struct dp_packet *packet, size_t *len)
{
    if (packet->l4_ofs == DP_PACKET_OFS_NONE) {
        return NULL;
    }
    size_t ofs = (size_t) packet->l4_ofs + UDP_HEADER_LEN;
    if (ofs > dp_packet_size(packet)) {
        return NULL;
    }
    *len = dp_packet_size(packet) - ofs;
    return (const uint8_t *) dp_packet_data(packet) + ofs;
}

/* Counts and logs a dropped control packet. */
static void
bfd_drop(struct bfd *bfd, const struct bfd_msg *msg, const char *why,
         long long int now)
{
    COVERAGE_INC(bfd_rx_invalid);
    bfd_log_msg(VLL_WARN, msg, why, bfd, now);
}

/* RFC 5880 6.8.6, reception of a control packet. */
static void
bfd_receive__(struct bfd *bfd, const struct flow *flow,
              const struct dp_packet *packet, long long int now)
{
    size_t len = 0;
    const uint8_t *payload = bfd_udp_payload(packet, &len);
    if (!payload) {
        COVERAGE_INC(bfd_rx_invalid);
        return;
    }

    /* Counted for decay before validation, as 3.1 does: what matters
     * there is how much of the port's traffic is BFD's. */
    bfd->decay_rx_ctl++;

    if (flow->nw_ttl != 255) {
        /* RFC 5881 5: a single-hop packet that crossed a router is not
         * from our neighbour. */
        COVERAGE_INC(bfd_rx_invalid);
        VLOG_DBG_RL(&bfd_rl, "%s: dropping BFD control message with TTL %d",
                    bfd->name, flow->nw_ttl);
        return;
    }
    if (len < BFD_PACKET_LEN) {
        COVERAGE_INC(bfd_rx_invalid);
        VLOG_INFO_RL(&bfd_rl, "%s: Received too-short BFD control message "
                     "(only %zu bytes long, at least %d required).",
                     bfd->name, len, BFD_PACKET_LEN);
        return;
    }
    const struct bfd_msg *msg = (const struct bfd_msg *) payload;
    uint8_t flags = msg->state_flags & BFD_FLAGS_MASK;
    enum bfd_state rmt_state = msg->state_flags >> BFD_STATE_SHIFT;

    bfd_log_msg(VLL_DBG, msg, "Received BFD control message", bfd, now);

    if (msg->vers_diag >> BFD_VERSION_SHIFT != BFD_VERSION) {
        bfd_drop(bfd, msg, "Incorrect version", now);
        return;
    }
    /* Authentication is not supported, so an authenticated packet can
     * never be accepted; checked before the length, which it changes. */
    if (flags & BFD_FLAG_AUTH) {
        bfd_drop(bfd, msg, "Authenticated control message with "
                 "authentication disabled", now);
        return;
    }
    if (msg->length != BFD_PACKET_LEN) {
        if (msg->length < BFD_PACKET_LEN || msg->length > len) {
            bfd_drop(bfd, msg, "Unexpected length", now);
            return;
        }
        /* Longer, and within the payload: trailing bytes are ignored. */
        bfd_log_msg(VLL_WARN, msg, "Unexpected length", bfd, now);
    }
    if (!msg->mult) {
        bfd_drop(bfd, msg, "Zero multiplier", now);
        return;
    }
    if (flags & BFD_FLAG_MULTIPOINT) {
        bfd_drop(bfd, msg, "Unsupported multipoint flag", now);
        return;
    }
    if (!get_be32(msg->my_disc)) {
        bfd_drop(bfd, msg, "NULL my_disc", now);
        return;
    }
    uint32_t your_disc = get_be32(msg->your_disc);
    if (your_disc) {
        /* The session is chosen by port, not by discriminator, so a
         * packet for another session is simply not ours. */
        if (your_disc != bfd->disc) {
            bfd_drop(bfd, msg, "Incorrect your_disc", now);
            return;
        }
    } else if (rmt_state > BFD_DOWN) {
        bfd_drop(bfd, msg, "Null your_disc", now);
        return;
    }
    COVERAGE_INC(bfd_rx_control);

    if (bfd->rmt_state != rmt_state) {
        bfd_status_changed(bfd);
    }
    enum bfd_diag rmt_diag = msg->vers_diag & BFD_DIAG_MASK;
    if (bfd->rmt_diag != rmt_diag) {
        bfd_status_changed(bfd);
    }
    bfd->rmt_disc = get_be32(msg->my_disc);
    bfd->rmt_state = rmt_state;
    bfd->rmt_flags = flags;
    bfd->rmt_diag = rmt_diag;

    if (flags & BFD_FLAG_FINAL && bfd_in_poll(bfd)) {
        /* The peer acknowledged the intervals we polled with. */
        bfd->min_tx = bfd->poll_min_tx;
        bfd->min_rx = bfd->poll_min_rx;
        bfd->flags &= ~BFD_FLAG_POLL;
        bfd_log_msg(VLL_INFO, msg, "Poll sequence terminated", bfd, now);
    }
    if (flags & BFD_FLAG_POLL) {
        /* RFC 5880 6.5: answer at once with Final, and give up our own
         * poll (a packet may not carry both). */
        bfd->flags &= ~BFD_FLAG_POLL;
        bfd->flags |= BFD_FLAG_FINAL;
    }

    if (bfd->rmt_mult != msg->mult) {
        VLOG_INFO("Interface %s remote mult value %d changed to %d",
                  bfd->name, bfd->rmt_mult, msg->mult);
        bfd->rmt_mult = msg->mult;
    }

    long long int rmt_min_rx = MAX(get_be32(msg->min_rx) / 1000, 1);
    if (bfd->rmt_min_rx != rmt_min_rx) {
        bfd->rmt_min_rx = rmt_min_rx;
        if (bfd->next_tx) {
            bfd_set_next_tx(bfd);
        }
        bfd_log_msg(VLL_INFO, msg, "New remote min_rx", bfd, now);
    }
    bfd->rmt_min_tx = MAX(get_be32(msg->min_tx) / 1000, 1);
    bfd->detect_time = bfd_rx_interval(bfd) * bfd->rmt_mult + now;

    if (bfd->state == BFD_ADMIN_DOWN) {
        VLOG_DBG_RL(&bfd_rl, "%s: administratively down, dropping control "
                    "message", bfd->name);
        return;
    }

    if (rmt_state == BFD_ADMIN_DOWN) {
        if (bfd->state != BFD_DOWN) {
            bfd_set_state(bfd, BFD_DOWN, BFD_DIAG_NEIGHBOR_DOWN, now);
        }
    } else {
        switch (bfd->state) {
        case BFD_DOWN:
            if (rmt_state == BFD_DOWN) {
                bfd_set_state(bfd, BFD_INIT, bfd->diag, now);
            } else if (rmt_state == BFD_INIT) {
                bfd_set_state(bfd, BFD_UP, bfd->diag, now);
            }
            break;
        case BFD_INIT:
            if (rmt_state > BFD_DOWN) {
                bfd_set_state(bfd, BFD_UP, bfd->diag, now);
            }
            break;
        case BFD_UP:
            if (rmt_state <= BFD_DOWN) {
                bfd_set_state(bfd, BFD_DOWN, BFD_DIAG_NEIGHBOR_DOWN, now);
                bfd_log_msg(VLL_INFO, msg, "Remote signaled STATE_DOWN",
                            bfd, now);
            }
            break;
        case BFD_ADMIN_DOWN:
            break;
        }
    }

    if (bfd->forwarding_if_rx) {
        bfd->demand_rx_bfd_time = now + 100 * bfd->cfg_min_rx;
    }
}

static void
bfd_receive(struct port_protocol *p, const struct flow *flow,
            const struct dp_packet *packet)
{
    struct bfd *bfd = bfd_from_protocol(p);
    long long int now = time_msec();

    ovs_mutex_lock(&bfd_mutex);
    bfd_update_forwarding(bfd, now);
    bfd_receive__(bfd, flow, packet, now);
    bfd_update_forwarding(bfd, now);
    long long int next = bfd_next_deadline(bfd, now);
    ovs_mutex_unlock(&bfd_mutex);

    port_protocol_schedule(p, next);
}

/* Composes a control packet from BFD's state into a new packet. */
static struct dp_packet *
bfd_compose(struct bfd *bfd, const struct eth_addr port_mac,
            long long int now)
{
    if (bfd->next_tx) {
        long long int delay = now - bfd->next_tx;
        long long int interval = bfd_tx_interval(bfd);
        if (delay > interval * 3 / 2) {
            VLOG_INFO("%s: long delay of %lldms (expected %lldms) sending "
                      "BFD control message", bfd->name, delay, interval);
        }
    }
    /* RFC 5880 6.5: never Poll and Final together. */
    ovs_assert(!(bfd->flags & BFD_FLAG_POLL)
               || !(bfd->flags & BFD_FLAG_FINAL));

    size_t size = (ETH_HEADER_LEN + IP_HEADER_LEN + UDP_HEADER_LEN
                   + BFD_PACKET_LEN);
    struct dp_packet *packet = dp_packet_new(size);

    struct eth_header *eth = dp_packet_put_zeros(packet, sizeof *eth);
    static const struct eth_addr bfd_eth_dst = {
        { 0x00, 0x23, 0x20, 0x00, 0x00, 0x01 }
    };
    eth->eth_src = (eth_addr_is_zero(bfd->local_eth_src)
                    ? port_mac : bfd->local_eth_src);
    eth->eth_dst = (eth_addr_is_zero(bfd->local_eth_dst)
                    ? bfd_eth_dst : bfd->local_eth_dst);
    eth->eth_type = htons(ETH_TYPE_IP);

    struct ip_header *ip = dp_packet_put_zeros(packet, sizeof *ip);
    ip->ip_ihl_ver = 4 << 4 | 5;
    ip->ip_tos = 0xc0;              /* Precedence: internetwork control. */
    ip->ip_tot_len = htons(IP_HEADER_LEN + UDP_HEADER_LEN + BFD_PACKET_LEN);
    ip->ip_ttl = 255;               /* RFC 5881 5. */
    ip->ip_proto = IPPROTO_UDP;
    ip->ip_src = bfd->ip_src;
    ip->ip_dst = bfd->ip_dst;
    ip->ip_csum = csum(ip, sizeof *ip);

    struct udp_header *udp = dp_packet_put_zeros(packet, sizeof *udp);
    udp->udp_src = htons(bfd->udp_src);
    udp->udp_dst = htons(BFD_DEST_PORT);
    udp->udp_len = htons(UDP_HEADER_LEN + BFD_PACKET_LEN);
    /* UDP checksum 0: none, allowed over IPv4. */

    struct bfd_msg *msg = dp_packet_put_zeros(packet, sizeof *msg);
    msg->vers_diag = BFD_VERSION << BFD_VERSION_SHIFT | bfd->diag;
    msg->state_flags = bfd->state << BFD_STATE_SHIFT | bfd->flags;
    msg->mult = bfd->mult;
    msg->length = BFD_PACKET_LEN;
    put_be32(msg->my_disc, bfd->disc);
    put_be32(msg->your_disc, bfd->rmt_disc);
    /* While polling, announce the intervals being negotiated. */
    long long int min_tx = bfd_in_poll(bfd) ? bfd->poll_min_tx
                                            : bfd_min_tx(bfd);
    long long int min_rx = bfd_in_poll(bfd) ? bfd->poll_min_rx : bfd->min_rx;
    put_be32(msg->min_tx, min_tx * 1000);
    put_be32(msg->min_rx, min_rx * 1000);
    put_be32(msg->min_rx_echo, 0);

    packet->l3_ofs = ETH_HEADER_LEN;
    packet->l4_ofs = ETH_HEADER_LEN + IP_HEADER_LEN;
    packet->payload_ofs = packet->l4_ofs + UDP_HEADER_LEN;
    if (bfd->oam) {
        packet->md.tunnel.flags |= FLOW_TNL_F_OAM;
    }

    bfd->flags &= ~BFD_FLAG_FINAL;
    bfd_log_msg(VLL_DBG, msg, "Sending BFD Message", bfd, now);
    bfd->last_tx = now;
    bfd_set_next_tx(bfd);
    COVERAGE_INC(bfd_tx_control);
    return packet;
}

static long long int
bfd_run(struct port_protocol *p, long long int now,
        const struct eth_addr port_mac, struct dp_packet_batch *out)
{
    struct bfd *bfd = bfd_from_protocol(p);

    ovs_mutex_lock(&bfd_mutex);
    bool was_in_decay = bfd->in_decay;

    if (bfd->state > BFD_DOWN && now >= bfd->detect_time) {
        bfd_set_state(bfd, BFD_DOWN, BFD_DIAG_EXPIRED, now);
    }
    bfd_update_forwarding(bfd, now);

    if (bfd->state == BFD_UP && bfd->decay_min_rx > 0
        && now >= bfd->decay_detect_time) {
        bfd_try_decay(bfd, now);
    }

    /* Intervals not yet in effect (a poll that was refused while another
     * ran, or a decay change) are polled for now. */
    if (bfd->min_tx != bfd->cfg_min_tx
        || (bfd->min_rx != bfd->cfg_min_rx
            && bfd->min_rx != bfd->decay_min_rx)
        || bfd->in_decay != was_in_decay) {
        bfd_poll(bfd);
    }

    if ((bfd->flags & BFD_FLAG_FINAL || now >= bfd->next_tx)
        && !dp_packet_batch_is_full(out)) {
        dp_packet_batch_add(out, bfd_compose(bfd, port_mac, now));
    }

    long long int next = bfd_next_deadline(bfd, now);
    ovs_mutex_unlock(&bfd_mutex);

    /* Everything due has been done, so the next deadline is later; the
     * guard keeps a mistake from spinning the monitor. */
    return MAX(next, now + 1);
}

static bool
bfd_link_ok(const struct port_protocol *p)
{
    return bfd_forwarding(bfd_from_protocol(p));
}

const struct port_protocol_class bfd_class = {
    .name = "bfd",
    .slow_reason = SLOW_BFD,
    .recognizes = bfd_recognizes,
    .receive = bfd_receive,
    .run = bfd_run,
    .link_ok = bfd_link_ok,
};

/* unixctl. */

static void
bfd_put_details(struct ds *ds, struct bfd *bfd, long long int now)
{
    ds_put_format(ds, "  Forwarding: %s\n",
                  bfd_update_forwarding(bfd, now) ? "true" : "false");
    ds_put_format(ds, "  Detect Multiplier: %d\n", bfd->mult);
    ds_put_format(ds, "  Concatenated Path Down: %s\n",
                  bfd->cpath_down ? "true" : "false");
    ds_put_format(ds, "  TX Interval: Approx %lldms\n", bfd_tx_interval(bfd));
    ds_put_format(ds, "  RX Interval: Approx %lldms\n", bfd_rx_interval(bfd));
    ds_put_format(ds, "  Detect Time: now %+lldms\n", bfd->detect_time - now);
    ds_put_format(ds, "  Next TX Time: now %+lldms\n", bfd->next_tx - now);
    ds_put_format(ds, "  Last TX Time: now %+lldms\n", bfd->last_tx - now);
    ds_put_cstr(ds, "\n");

    ds_put_cstr(ds, "  Local Flags: ");
    bfd_put_flags(ds, bfd->flags);
    ds_put_format(ds, "\n  Local Session State: %s\n",
                  bfd_state_str(bfd->state));
    ds_put_format(ds, "  Local Diagnostic: %s\n", bfd_diag_str(bfd->diag));
    ds_put_format(ds, "  Local Discriminator: 0x%"PRIx32"\n", bfd->disc);
    ds_put_format(ds, "  Local Minimum TX Interval: %lldms\n",
                  bfd_min_tx(bfd));
    ds_put_format(ds, "  Local Minimum RX Interval: %lldms\n", bfd->min_rx);
    ds_put_cstr(ds, "\n");

    ds_put_cstr(ds, "  Remote Flags: ");
    bfd_put_flags(ds, bfd->rmt_flags);
    ds_put_format(ds, "\n  Remote Session State: %s\n",
                  bfd_state_str(bfd->rmt_state));
    ds_put_format(ds, "  Remote Diagnostic: %s\n",
                  bfd_diag_str(bfd->rmt_diag));
    ds_put_format(ds, "  Remote Discriminator: 0x%"PRIx32"\n", bfd->rmt_disc);
    ds_put_format(ds, "  Remote Minimum TX Interval: %lldms\n",
                  bfd->rmt_min_tx);
    ds_put_format(ds, "  Remote Minimum RX Interval: %lldms\n",
                  bfd->rmt_min_rx);
    ds_put_format(ds, "  Remote Detect Multiplier: %d\n", bfd->rmt_mult);
}

static struct bfd *
bfd_find_by_name(const char *name)
{
    struct bfd *bfd;
    HMAP_FOR_EACH_WITH_HASH (bfd, name_node, hash_string(name, 0),
                             &sessions_by_name) {
        if (!strcmp(bfd->name, name)) {
            return bfd;
        }
    }
    return NULL;
}

static int
compare_bfd_names(const void *a_, const void *b_)
{
    const struct bfd *const *a = a_;
    const struct bfd *const *b = b_;
    return strcmp((*a)->name, (*b)->name);
}

/* Every session, sorted by name so that the output is stable; the caller
 * frees the array. */
static struct bfd **
bfd_all_sorted(size_t *n)
{
    *n = hmap_count(&sessions_by_name);
    struct bfd **all = xmalloc(MAX(*n, 1) * sizeof *all);
    size_t i = 0;
    struct bfd *bfd;
    HMAP_FOR_EACH (bfd, name_node, &sessions_by_name) {
        all[i++] = bfd;
    }
    qsort(all, *n, sizeof *all, compare_bfd_names);
    return all;
}

static void
bfd_unixctl_show(struct unixctl_conn *conn, int argc, const char *argv[],
                 void *aux OVS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    long long int now = time_msec();

    ovs_mutex_lock(&bfd_mutex);
    if (argc > 1) {
        struct bfd *bfd = bfd_find_by_name(argv[1]);
        if (!bfd) {
            ovs_mutex_unlock(&bfd_mutex);
            unixctl_command_reply_error(conn, "no such bfd object");
            return;
        }
        bfd_put_details(&ds, bfd, now);
    } else {
        size_t n;
        struct bfd **all = bfd_all_sorted(&n);
        for (size_t i = 0; i < n; i++) {
            ds_put_format(&ds, "---- %s ----\n", all[i]->name);
            bfd_put_details(&ds, all[i], now);
        }
        free(all);
    }
    ovs_mutex_unlock(&bfd_mutex);

    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

static void
bfd_unixctl_set_forwarding(struct unixctl_conn *conn, int argc,
                           const char *argv[], void *aux OVS_UNUSED)
{
    int override;
    if (!port_protocol_parse_override(argv[argc - 1], &override)) {
        unixctl_command_reply_error(conn, "unknown fault string");
        return;
    }

    long long int now = time_msec();
    ovs_mutex_lock(&bfd_mutex);
    if (argc > 2) {
        struct bfd *bfd = bfd_find_by_name(argv[1]);
        if (!bfd) {
            ovs_mutex_unlock(&bfd_mutex);
            unixctl_command_reply_error(conn, "no such BFD object");
            return;
        }
        bfd->forwarding_override = override;
        bfd_update_forwarding(bfd, now);
        bfd_status_changed(bfd);
    } else {
        struct bfd *bfd;
        HMAP_FOR_EACH (bfd, name_node, &sessions_by_name) {
            bfd->forwarding_override = override;
            bfd_update_forwarding(bfd, now);
            bfd_status_changed(bfd);
        }
    }
    ovs_mutex_unlock(&bfd_mutex);
    unixctl_command_reply(conn, "OK");
}
