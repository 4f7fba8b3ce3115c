/* cfm: see cfm.h. */
#include <config.h>
#include "cfm.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow.h"
#include "hash.h"
#include "hmap.h"
#include "netdev.h"
#include "ovs-thread.h"
#include "packets.h"
#include "port-protocol.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(cfm);

#define ETH_TYPE_CFM 0x8902

/* Where CCMs go: 802.1ag's group address for MD level 0 (the level 3.1
 * sends and accepts; the last nibble is the level), or in extended mode
 * Open vSwitch's own address, so that extended CCMs never confuse a
 * standard implementation on the same wire. */
static const struct eth_addr ccm_dst_standard
    = { { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x30 } };
static const struct eth_addr ccm_dst_extended
    = { { 0x01, 0x23, 0x20, 0x00, 0x00, 0x30 } };

/* A CCM PDU as 3.1 sends it: the 802.1ag header and MAID, then, in the
 * space Y.1731 leaves zero, the extended mode's fields, then the End TLV.
 * 802.1ag's minimum is 75 bytes; Open vSwitch once sent 74 (no End TLV),
 * and 3.1 still accepts those. */
#define CCM_OPCODE 1
#define CCM_MAID_LEN 48
#define CCM_FIRST_TLV_OFFSET 70
#define CCM_FLAG_RDI 0x80
#define CCM_FLAG_INTERVAL 0x07
struct ccm_pdu {
    uint8_t mdlevel_version;    /* MD level (high 3 bits), version: 0. */
    uint8_t opcode;
    uint8_t flags;              /* RDI, interval code. */
    uint8_t first_tlv_offset;
    ovs_be32 seq;
    ovs_be16 mpid;              /* Extended: a hash of 'mpid64'. */
    uint8_t maid[CCM_MAID_LEN];
    ovs_be16 interval_ms_x;     /* Extended, interval code 0: the ms. */
    ovs_be64 mpid64;            /* Extended: the MPID. */
    uint8_t opdown;             /* Extended: sender operationally down. */
    uint8_t zero[5];
    uint8_t end_tlv;
} __attribute__((packed));
#define CCM_LEN 75
#define CCM_MIN_LEN 74
_Static_assert(sizeof(struct ccm_pdu) == CCM_LEN, "ccm_pdu");

/* More remote MPs than this are an "overflow" fault, not remembered. */
#define CFM_MAX_RMPS 256
/* Health is recomputed once per this many fault checks. */
#define CFM_HEALTH_CHECKS 6
/* Demand mode: a CCM must still come every this many intervals. */
#define CFM_DEMAND_CCM_INTERVALS 100

struct remote_mp {
    struct hmap_node node;      /* In cfm->remote_mps, by hash of mpid. */
    uint64_t mpid;
    bool recv;                  /* A CCM came since the last check. */
    bool opup;                  /* Its operational state (extended). */
    uint32_t seq;               /* Its last sequence number. */
    unsigned int n_healthy;     /* CCMs without fault since the last health
                                 * computation. */
    long long int last_rx;      /* When its last CCM came. */
};

struct cfm {
    struct port_protocol up;
    struct hmap_node name_node; /* In 'all_cfms', by hash of 'name'. */
    char *name;
    struct netdev *netdev;      /* The caller's, or NULL. */

    /* Everything below is guarded by 'cfm_mutex'. */

    /* Settings. */
    bool configured;
    uint64_t mpid;
    bool extended;
    bool demand;
    bool opup;
    bool check_tnl_key;
    uint16_t ccm_vlan;
    uint8_t ccm_pcp;
    uint8_t interval_code;      /* 1..7, or 0 (extended, any interval). */
    int interval_ms;

    /* Transmission. */
    uint32_t seq;               /* Of the last CCM sent. */
    long long int tx_deadline;
    long long int last_tx;      /* 0: never. */

    /* Reception and faults. */
    struct hmap remote_mps;
    long long int fault_deadline;
    bool booted;                /* A fault check has happened. */
    unsigned int fault;         /* As of the last check. */
    unsigned int recv_fault;    /* Seen in CCMs since the last check. */
    int fault_override;         /* -1 normal, 0 false, 1 true. */
    bool remote_opup;
    uint64_t flap_count;
    int health;                 /* -1: undefined. */
    unsigned int health_checks; /* Fault checks since health computed. */
    uint64_t *rmps;             /* Remote MPIDs as of the last check. */
    size_t n_rmps;

    /* Demand mode. */
    uint64_t rx_packets;        /* The device's count at the last check. */
    long long int demand_ccm_deadline; /* A CCM must come before this. */

    bool report_due;            /* The next run() reports a change (the
                                 * first status, a change of mode). */
};

static struct ovs_mutex cfm_mutex = OVS_MUTEX_INITIALIZER;
static struct hmap all_cfms = HMAP_INITIALIZER(&all_cfms);
static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(20, 30);

static const struct port_protocol_class cfm_class;

static const char *const fault_names[CFM_FAULT_N_REASONS] = {
    "recv", "rdi", "maid", "loopback", "overflow", "override",
};

const char *
cfm_fault_reason_to_str(enum cfm_fault_reason reason)
{
    for (int i = 0; i < CFM_FAULT_N_REASONS; i++) {
        if (reason == 1u << i) {
            return fault_names[i];
        }
    }
    return "<unknown>";
}

/* Appends the names of FAULT's reasons, separated by spaces. */
static void
put_faults(struct ds *ds, unsigned int fault)
{
    bool first = true;
    for (int i = 0; i < CFM_FAULT_N_REASONS; i++) {
        if (fault & (1u << i)) {
            ds_put_format(ds, "%s%s", first ? "" : " ", fault_names[i]);
            first = false;
        }
    }
}

/* The MAID every Open vSwitch CCM carries: MD name "ovs" as a character
 * string (format 4), short MA name "ovs" as a character string (format 2),
 * zero padded. */
static void
make_maid(uint8_t maid[CCM_MAID_LEN])
{
    memset(maid, 0, CCM_MAID_LEN);
    maid[0] = 4;
    maid[1] = 3;
    memcpy(&maid[2], "ovs", 3);
    maid[5] = 2;
    maid[6] = 3;
    memcpy(&maid[7], "ovs", 3);
}

static int
interval_code_to_ms(uint8_t code)
{
    static const int ms[8] = { 0, 3, 10, 100, 1000, 10000, 60000, 600000 };
    return ms[code & 7];
}

/* 802.1ag's code for the longest standard interval not above MS (the
 * shortest, 3 ms, for anything below). */
static uint8_t
ms_to_interval_code(int ms)
{
    for (uint8_t code = 7; code > 1; code--) {
        if (interval_code_to_ms(code) <= ms) {
            return code;
        }
    }
    return 1;
}

bool
cfm_mpid_is_valid(bool extended, uint64_t mpid)
{
    return mpid >= 1 && (extended || mpid <= 8191);
}

static uint32_t
hash_mpid(uint64_t mpid)
{
    return hash_uint64(mpid);
}

static struct cfm *
cfm_cast(const struct port_protocol *p)
{
    return CONTAINER_OF((struct port_protocol *) (uintptr_t) p, struct cfm, up);
}

struct port_protocol *
cfm_protocol(struct cfm *cfm)
{
    return &cfm->up;
}

struct cfm *
cfm_from_protocol(const struct port_protocol *p)
{
    return p->class == &cfm_class ? cfm_cast(p) : NULL;
}

const char *
cfm_name(const struct cfm *cfm)
{
    return cfm->name;
}

/* How long a remote MP may stay silent: 3.5 intervals, and in demand
 * mode at least 3.5 * 500 ms, which leaves time for the device's counters
 * to move. */
static long long int
fault_interval(const struct cfm *cfm)
{
    int base = cfm->demand ? MAX(cfm->interval_ms, 500) : cfm->interval_ms;
    return (long long int) base * 7 / 2;
}

static uint64_t
rx_packets(const struct cfm *cfm)
{
    if (!cfm->netdev) {
        return 0;
    }
    struct netdev_stats stats;
    netdev_get_stats(cfm->netdev, &stats);
    return stats.rx_packets == NETDEV_STAT_UNKNOWN ? 0 : stats.rx_packets;
}

static struct remote_mp *
find_rmp(const struct cfm *cfm, uint64_t mpid)
{
    struct remote_mp *rmp;
    HMAP_FOR_EACH_WITH_HASH (rmp, node, hash_mpid(mpid), &cfm->remote_mps) {
        if (rmp->mpid == mpid) {
            return rmp;
        }
    }
    return NULL;
}

static unsigned int
effective_fault(const struct cfm *cfm)
{
    return (cfm->fault_override >= 0
            ? (cfm->fault_override ? CFM_FAULT_OVERRIDE : 0)
            : cfm->fault);
}

struct cfm *
cfm_create(const char *name, struct netdev *netdev, void *owner)
{
    cfm_init();

    struct cfm *cfm = xzalloc(sizeof *cfm);
    port_protocol_init(&cfm->up, &cfm_class, owner);
    cfm->name = xstrdup(name);
    cfm->netdev = netdev;
    hmap_init(&cfm->remote_mps);
    cfm->opup = true;
    cfm->remote_opup = true;
    cfm->fault_override = -1;
    cfm->health = -1;
    cfm->tx_deadline = LLONG_MAX;
    cfm->fault_deadline = LLONG_MAX;
    cfm->report_due = true;

    ovs_mutex_lock(&cfm_mutex);
    hmap_insert(&all_cfms, &cfm->name_node, hash_string(cfm->name, 0));
    ovs_mutex_unlock(&cfm_mutex);
    return cfm;
}

bool
cfm_configure(struct cfm *cfm, const struct cfm_settings *s)
{
    if (!cfm_mpid_is_valid(s->extended, s->mpid) || s->interval <= 0) {
        return false;
    }

    uint8_t code = ms_to_interval_code(s->interval);
    int ms = interval_code_to_ms(code);
    if (s->extended && ms != s->interval) {
        /* Extended mode keeps the exact interval, on 16 bits. */
        code = 0;
        ms = MIN(s->interval, UINT16_MAX);
    }

    long long int now = time_msec();
    long long int wake = LLONG_MAX;

    ovs_mutex_lock(&cfm_mutex);
    if (cfm->configured && cfm->extended != s->extended) {
        /* The remote operational state appears or disappears. */
        cfm->report_due = true;
        wake = now;
    }
    cfm->configured = true;
    cfm->mpid = s->mpid;
    cfm->extended = s->extended;
    cfm->opup = s->opup;
    cfm->check_tnl_key = s->check_tnl_key;
    cfm->ccm_vlan = s->ccm_vlan;
    cfm->ccm_pcp = s->ccm_pcp & 7;

    if (s->extended && s->demand) {
        if (!cfm->demand) {
            /* Traffic counts from now on. */
            cfm->demand = true;
            cfm->rx_packets = rx_packets(cfm);
        }
    } else {
        cfm->demand = false;
    }

    if (code != cfm->interval_code || ms != cfm->interval_ms) {
        cfm->interval_code = code;
        cfm->interval_ms = ms;
        cfm->tx_deadline = now;
        cfm->fault_deadline = now + fault_interval(cfm);
        wake = now;
    }
    ovs_mutex_unlock(&cfm_mutex);

    if (wake != LLONG_MAX) {
        port_protocol_schedule(&cfm->up, wake);
    }
    return true;
}

void
cfm_destroy(struct cfm *cfm)
{
    if (!cfm) {
        return;
    }
    ovs_mutex_lock(&cfm_mutex);
    hmap_remove(&all_cfms, &cfm->name_node);
    ovs_mutex_unlock(&cfm_mutex);

    struct remote_mp *rmp;
    HMAP_FOR_EACH_POP (rmp, node, &cfm->remote_mps) {
        free(rmp);
    }
    hmap_destroy(&cfm->remote_mps);
    free(cfm->rmps);
    free(cfm->name);
    free(cfm);
}

/* The fault check, every fault interval: forgets the remote MPs that were
 * silent (unless demand mode vouches for the only one), recomputes the
 * faults, the remote operational state, every CFM_HEALTH_CHECKS checks the
 * health, and counts a flap when the fault goes on or off.  Returns
 * whether anything the database shows changed. */
static bool
check_faults(struct cfm *cfm, long long int now)
{
    unsigned int old_fault = cfm->fault;
    int old_health = cfm->health;
    bool old_remote_opup = cfm->remote_opup;
    size_t old_n_rmps = cfm->n_rmps;
    bool forgot_rmp = false;

    cfm->fault = cfm->recv_fault;
    cfm->recv_fault = 0;

    size_t n = hmap_count(&cfm->remote_mps);
    if (cfm->health_checks == CFM_HEALTH_CHECKS) {
        /* Health is defined for one remote MP only: the share of the CCMs
         * it should have sent in CFM_HEALTH_CHECKS fault intervals (3.5
         * CCMs each) that came without fault. */
        if (n > 1) {
            cfm->health = -1;
        } else if (!n) {
            cfm->health = 0;
        } else {
            struct remote_mp *rmp = CONTAINER_OF(hmap_first(&cfm->remote_mps),
                                                 struct remote_mp, node);
            unsigned int expected = CFM_HEALTH_CHECKS * 7 / 2;
            cfm->health = MIN(rmp->n_healthy * 100 / expected, 100);
            rmp->n_healthy = 0;
        }
        cfm->health_checks = 0;
    }
    cfm->health_checks++;

    bool demand_vouches = false;
    if (cfm->demand) {
        uint64_t rx = rx_packets(cfm);
        demand_vouches = (n == 1 && rx > cfm->rx_packets
                          && now < cfm->demand_ccm_deadline);
        cfm->rx_packets = rx;
    }

    free(cfm->rmps);
    cfm->rmps = xmalloc(MAX(n, 1) * sizeof *cfm->rmps);
    cfm->n_rmps = 0;

    bool any_up = false, any_down = false;
    struct remote_mp *rmp;
    HMAP_FOR_EACH_SAFE (rmp, node, &cfm->remote_mps) {
        if (!rmp->recv) {
            VLOG_INFO("%s: Received no CCM from RMP %"PRIu64" in the last "
                      "%lldms", cfm->name, rmp->mpid, now - rmp->last_rx);
            if (!demand_vouches) {
                hmap_remove(&cfm->remote_mps, &rmp->node);
                free(rmp);
                forgot_rmp = true;
            }
        } else {
            rmp->recv = false;
            if (rmp->opup) {
                any_up = true;
            } else {
                any_down = true;
            }
            cfm->rmps[cfm->n_rmps++] = rmp->mpid;
        }
    }
    if (any_down) {
        cfm->remote_opup = false;
    } else if (any_up) {
        cfm->remote_opup = true;
    }

    if (hmap_is_empty(&cfm->remote_mps)) {
        cfm->fault |= CFM_FAULT_RECV;
    }

    if (cfm->fault != old_fault) {
        if (!VLOG_DROP_INFO(&rl)) {
            struct ds ds = DS_EMPTY_INITIALIZER;
            ds_put_cstr(&ds, "from [");
            put_faults(&ds, old_fault);
            ds_put_cstr(&ds, "] to [");
            put_faults(&ds, cfm->fault);
            ds_put_char(&ds, ']');
            VLOG_INFO("%s: CFM faults changed %s.", cfm->name, ds_cstr(&ds));
            ds_destroy(&ds);
        }
        if (!old_fault || !cfm->fault) {
            cfm->flap_count++;
        }
    }

    cfm->booted = true;
    cfm->fault_deadline = now + fault_interval(cfm);
    return (cfm->fault != old_fault
            || cfm->health != old_health
            || cfm->remote_opup != old_remote_opup
            || cfm->n_rmps != old_n_rmps || forgot_rmp);
}

/* Builds the next CCM, from SRC. */
static struct dp_packet *
compose_ccm(struct cfm *cfm, long long int now, const struct eth_addr src)
{
    uint16_t vid = (cfm->ccm_vlan == CFM_RANDOM_VLAN
                    ? (uint16_t) random() : cfm->ccm_vlan) & 0xfff;
    bool tagged = vid || cfm->ccm_pcp;
    size_t size = ETH_HEADER_LEN + (tagged ? VLAN_HEADER_LEN : 0) + CCM_LEN;

    struct dp_packet *packet = dp_packet_new_with_headroom(size, 0);
    struct eth_header *eth = dp_packet_put_zeros(packet, ETH_HEADER_LEN);
    eth->eth_dst = cfm->extended ? ccm_dst_extended : ccm_dst_standard;
    eth->eth_src = src;
    if (tagged) {
        eth->eth_type = htons(ETH_TYPE_VLAN_8021Q);
        struct vlan_header *vlan = dp_packet_put_zeros(packet,
                                                       VLAN_HEADER_LEN);
        vlan->vlan_tci = htons(vid | (cfm->ccm_pcp << 13));
        vlan->vlan_next_type = htons(ETH_TYPE_CFM);
    } else {
        eth->eth_type = htons(ETH_TYPE_CFM);
    }

    struct ccm_pdu *ccm = dp_packet_put_zeros(packet, CCM_LEN);
    ccm->mdlevel_version = 0;
    ccm->opcode = CCM_OPCODE;
    ccm->flags = cfm->interval_code;
    if (cfm->booted && hmap_is_empty(&cfm->remote_mps)) {
        /* We hear nobody: tell them. */
        ccm->flags |= CCM_FLAG_RDI;
    }
    ccm->first_tlv_offset = CCM_FIRST_TLV_OFFSET;
    ccm->seq = htonl(++cfm->seq);
    make_maid(ccm->maid);
    if (cfm->extended) {
        ccm->mpid = htons(hash_mpid(cfm->mpid) & 0xffff);
        ccm->mpid64 = htonll(cfm->mpid);
        ccm->opdown = !cfm->opup;
    } else {
        ccm->mpid = htons(cfm->mpid);
    }
    if (!cfm->interval_code) {
        ccm->interval_ms_x = htons(cfm->interval_ms);
    }

    if (cfm->last_tx && now - cfm->last_tx > cfm->interval_ms * 3 / 2) {
        VLOG_INFO("%s: long delay of %lldms (expected %dms) sending CCM"
                  " seq %"PRIu32, cfm->name, now - cfm->last_tx,
                  cfm->interval_ms, cfm->seq);
    }
    cfm->last_tx = now;
    return packet;
}

/* port_protocol_class. */

static bool
cfm_recognizes(const struct port_protocol *p, const struct flow *flow,
               struct flow_wildcards *wc)
{
    const struct cfm *cfm = cfm_cast(p);

    if (wc) {
        wc->masks.dl_type = htons(0xffff);
    }
    if (flow->dl_type != htons(ETH_TYPE_CFM)) {
        return false;
    }
    if (wc) {
        memset(&wc->masks.dl_dst, 0xff, sizeof wc->masks.dl_dst);
    }

    ovs_mutex_lock(&cfm_mutex);
    bool extended = cfm->extended;
    bool check_tnl_key = cfm->check_tnl_key;
    ovs_mutex_unlock(&cfm_mutex);

    if (!eth_addr_equals(flow->dl_dst, extended ? ccm_dst_extended
                                                : ccm_dst_standard)) {
        return false;
    }
    if (check_tnl_key) {
        /* A tunnel with per-flow keys: CCMs come with key 0 only. */
        if (wc) {
            wc->masks.tunnel.tun_id = htonll(UINT64_MAX);
        }
        return flow->tunnel.tun_id == 0;
    }
    return true;
}

/* Returns PACKET's CCM, after the Ethernet header and any VLAN tags, or
 * NULL if it holds none of at least CCM_MIN_LEN bytes. */
static const struct ccm_pdu *
find_ccm(const struct dp_packet *packet)
{
    const uint8_t *data = dp_packet_data(packet);
    size_t size = dp_packet_size(packet);
    size_t ofs = ETH_HEADER_LEN;

    if (size < ofs) {
        return NULL;
    }
    ovs_be16 type = ((const struct eth_header *) data)->eth_type;
    while (type == htons(ETH_TYPE_VLAN_8021Q)
           || type == htons(ETH_TYPE_VLAN_8021AD)) {
        if (size < ofs + VLAN_HEADER_LEN) {
            return NULL;
        }
        type = ((const struct vlan_header *) (data + ofs))->vlan_next_type;
        ofs += VLAN_HEADER_LEN;
    }
    if (type != htons(ETH_TYPE_CFM) || size - ofs < CCM_MIN_LEN) {
        return NULL;
    }
    return (const struct ccm_pdu *) (data + ofs);
}

static void
cfm_receive(struct port_protocol *p, const struct flow *flow OVS_UNUSED,
            const struct dp_packet *packet)
{
    struct cfm *cfm = cfm_cast(p);
    const struct ccm_pdu *ccm = find_ccm(packet);
    const struct eth_header *eth = dp_packet_data(packet);
    long long int now = time_msec();

    ovs_mutex_lock(&cfm_mutex);
    if (!cfm->configured) {
        goto out;
    }
    if (!ccm) {
        VLOG_INFO_RL(&rl, "%s: Received an unparseable 802.1ag CCM "
                     "heartbeat.", cfm->name);
        goto out;
    }
    if (ccm->opcode != CCM_OPCODE) {
        VLOG_INFO_RL(&rl, "%s: Received an unsupported 802.1ag message. "
                     "(opcode %u)", cfm->name, ccm->opcode);
        goto out;
    }

    /* 802.1ag would raise a fault for an unexpected interval or MPID too;
     * like 3.1 we only log those, since a fault may reroute traffic and a
     * forged CCM should not be able to cause one cheaply.  A foreign MAID
     * is a fault. */
    uint8_t maid[CCM_MAID_LEN];
    make_maid(maid);
    if (memcmp(ccm->maid, maid, sizeof maid)) {
        cfm->recv_fault |= CFM_FAULT_MAID;
        VLOG_WARN_RL(&rl, "%s: Received unexpected remote MAID from MAC "
                     ETH_ADDR_FMT, cfm->name, ETH_ADDR_ARGS(eth->eth_src));
        goto out;
    }

    uint8_t code = ccm->flags & CCM_FLAG_INTERVAL;
    bool rdi = ccm->flags & CCM_FLAG_RDI;
    uint16_t interval_ms_x = ntohs(ccm->interval_ms_x);
    uint64_t mpid = cfm->extended ? ntohll(ccm->mpid64) : ntohs(ccm->mpid);
    bool opdown = cfm->extended && ccm->opdown;
    uint32_t seq = ntohl(ccm->seq);
    unsigned int fault = 0;

    if (code != cfm->interval_code) {
        VLOG_WARN_RL(&rl, "%s: received a CCM with an unexpected interval "
                     "(%"PRIu8") from RMP %"PRIu64, cfm->name, code, mpid);
    }
    if (cfm->extended && !code && interval_ms_x != cfm->interval_ms) {
        VLOG_WARN_RL(&rl, "%s: received a CCM with an unexpected extended "
                     "interval (%"PRIu16"ms) from RMP %"PRIu64, cfm->name,
                     interval_ms_x, mpid);
    }

    struct remote_mp *rmp = find_rmp(cfm, mpid);
    if (!rmp) {
        if (hmap_count(&cfm->remote_mps) < CFM_MAX_RMPS) {
            rmp = xzalloc(sizeof *rmp);
            rmp->mpid = mpid;
            hmap_insert(&cfm->remote_mps, &rmp->node, hash_mpid(mpid));
        } else {
            fault |= CFM_FAULT_OVERFLOW;
            VLOG_WARN_RL(&rl, "%s: dropped CCM with MPID %"PRIu64" from MAC "
                         ETH_ADDR_FMT, cfm->name, mpid,
                         ETH_ADDR_ARGS(eth->eth_src));
        }
    }
    if (rdi) {
        fault |= CFM_FAULT_RDI;
        VLOG_DBG("%s: RDI bit flagged from RMP %"PRIu64, cfm->name, mpid);
    }
    VLOG_DBG("%s: received CCM (seq %"PRIu32") (mpid %"PRIu64") "
             "(interval %"PRIu8") (RDI %s)", cfm->name, seq, mpid, code,
             rdi ? "true" : "false");

    if (rmp) {
        if (mpid == cfm->mpid) {
            fault |= CFM_FAULT_LOOPBACK;
            VLOG_WARN_RL(&rl, "%s: received CCM with local MPID %"PRIu64,
                         cfm->name, mpid);
        }
        if (rmp->seq && seq != rmp->seq + 1) {
            VLOG_WARN_RL(&rl, "%s: (mpid %"PRIu64") detected sequence "
                         "numbers which indicate possible connectivity "
                         "problems (previous %"PRIu32") (current %"PRIu32")",
                         cfm->name, mpid, rmp->seq, seq);
        }
        if (!fault) {
            rmp->n_healthy++;
            if (cfm->demand) {
                cfm->demand_ccm_deadline
                    = now + (long long int) CFM_DEMAND_CCM_INTERVALS
                            * cfm->interval_ms;
            }
        }
        rmp->recv = true;
        rmp->seq = seq;
        rmp->opup = !opdown;
        rmp->last_rx = now;
    }
    cfm->recv_fault |= fault;

out:
    ovs_mutex_unlock(&cfm_mutex);
}

static long long int
cfm_run(struct port_protocol *p, long long int now,
        const struct eth_addr port_mac, struct dp_packet_batch *out)
{
    struct cfm *cfm = cfm_cast(p);
    bool changed = false;
    long long int next;

    ovs_mutex_lock(&cfm_mutex);
    if (!cfm->configured) {
        ovs_mutex_unlock(&cfm_mutex);
        return LLONG_MAX;
    }
    if (cfm->report_due) {
        /* Reported from here, where the instance is surely attached (the
         * change queue forgets only attached instances). */
        cfm->report_due = false;
        changed = true;
    }
    if (now >= cfm->fault_deadline) {
        changed |= check_faults(cfm, now);
    }
    if (now >= cfm->tx_deadline) {
        dp_packet_batch_add(out, compose_ccm(cfm, now, port_mac));
        cfm->tx_deadline = now + cfm->interval_ms;
    }
    next = MIN(cfm->tx_deadline, cfm->fault_deadline);
    ovs_mutex_unlock(&cfm_mutex);

    if (changed) {
        port_protocol_changed(p);
    }
    return next;
}

/* A fault keeps the port from carrying traffic, and so does a remote MP
 * that says it is operationally down (extended mode). */
static bool
cfm_link_ok(const struct port_protocol *p)
{
    const struct cfm *cfm = cfm_cast(p);
    ovs_mutex_lock(&cfm_mutex);
    bool ok = !effective_fault(cfm) && (!cfm->extended || cfm->remote_opup);
    ovs_mutex_unlock(&cfm_mutex);
    return ok;
}

static const struct port_protocol_class cfm_class = {
    .name = "cfm",
    .slow_reason = SLOW_CFM,
    .recognizes = cfm_recognizes,
    .receive = cfm_receive,
    .run = cfm_run,
    .link_ok = cfm_link_ok,
};

/* Status. */

void
cfm_get_status(const struct cfm *cfm, struct cfm_status *s)
{
    ovs_mutex_lock(&cfm_mutex);
    s->faults = effective_fault(cfm);
    s->remote_opstate = cfm->extended ? cfm->remote_opup : -1;
    s->flap_count = cfm->flap_count;
    s->health = cfm->health;
    s->n_rmps = cfm->n_rmps;
    s->rmps = xmemdup(cfm->rmps, cfm->n_rmps * sizeof *cfm->rmps);
    ovs_mutex_unlock(&cfm_mutex);
}

unsigned int
cfm_get_fault(const struct cfm *cfm)
{
    ovs_mutex_lock(&cfm_mutex);
    unsigned int fault = effective_fault(cfm);
    ovs_mutex_unlock(&cfm_mutex);
    return fault;
}

/* unixctl. */

static struct cfm *
find_cfm(const char *name)
{
    struct cfm *cfm;
    HMAP_FOR_EACH_WITH_HASH (cfm, name_node, hash_string(name, 0),
                             &all_cfms) {
        if (!strcmp(cfm->name, name)) {
            return cfm;
        }
    }
    return NULL;
}

static void
show_one(struct ds *ds, const struct cfm *cfm, long long int now)
{
    ds_put_format(ds, "---- %s ----\n", cfm->name);
    ds_put_format(ds, "MPID %"PRIu64":%s%s\n", cfm->mpid,
                  cfm->extended ? " extended" : "",
                  cfm->fault_override >= 0 ? " fault_override" : "");
    unsigned int fault = effective_fault(cfm);
    if (fault) {
        ds_put_cstr(ds, "  fault: ");
        put_faults(ds, fault);
        ds_put_char(ds, '\n');
    }
    if (cfm->health < 0) {
        ds_put_cstr(ds, "  average health: undefined\n");
    } else {
        ds_put_format(ds, "  average health: %d\n", cfm->health);
    }
    ds_put_format(ds, "  opstate: %s\n", cfm->opup ? "up" : "down");
    ds_put_format(ds, "  remote_opstate: %s\n",
                  cfm->remote_opup ? "up" : "down");
    ds_put_format(ds, "  interval: %dms\n", cfm->interval_ms);
    ds_put_format(ds, "  next CCM tx: %lldms\n", cfm->tx_deadline - now);
    ds_put_format(ds, "  next fault check: %lldms\n",
                  cfm->fault_deadline - now);

    const struct remote_mp *rmp;
    HMAP_FOR_EACH (rmp, node, &cfm->remote_mps) {
        ds_put_format(ds, "Remote MPID %"PRIu64"\n", rmp->mpid);
        ds_put_format(ds, "  recv since check: %s\n",
                      rmp->recv ? "true" : "false");
        ds_put_format(ds, "  opstate: %s\n", rmp->opup ? "up" : "down");
    }
}

static int
compare_names(const void *a_, const void *b_)
{
    const struct cfm *const *a = a_;
    const struct cfm *const *b = b_;
    return strcmp((*a)->name, (*b)->name);
}

/* cfm/show [INTERFACE]: with no name, every configured instance, by name
 * (3.1's order is its hash table's; a sorted one reads better). */
static void
cfm_unixctl_show(struct unixctl_conn *conn, int argc, const char *argv[],
                 void *aux OVS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    long long int now = time_msec();

    ovs_mutex_lock(&cfm_mutex);
    if (argc > 1) {
        struct cfm *cfm = find_cfm(argv[1]);
        if (!cfm || !cfm->configured) {
            ovs_mutex_unlock(&cfm_mutex);
            unixctl_command_reply_error(conn, "no such CFM object");
            return;
        }
        show_one(&ds, cfm, now);
    } else {
        size_t n = 0;
        struct cfm **cfms = xmalloc(MAX(hmap_count(&all_cfms), 1)
                                    * sizeof *cfms);
        struct cfm *cfm;
        HMAP_FOR_EACH (cfm, name_node, &all_cfms) {
            if (cfm->configured) {
                cfms[n++] = cfm;
            }
        }
        qsort(cfms, n, sizeof *cfms, compare_names);
        for (size_t i = 0; i < n; i++) {
            show_one(&ds, cfms[i], now);
        }
        free(cfms);
    }
    ovs_mutex_unlock(&cfm_mutex);

    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

/* cfm/set-fault [INTERFACE] normal|false|true. */
static void
cfm_unixctl_set_fault(struct unixctl_conn *conn, int argc, const char *argv[],
                      void *aux OVS_UNUSED)
{
    int override;
    if (!port_protocol_parse_override(argv[argc - 1], &override)) {
        unixctl_command_reply_error(conn, "unknown fault string");
        return;
    }

    /* Collected under the lock, reported after it. */
    size_t n = 0;
    struct port_protocol **changed;

    ovs_mutex_lock(&cfm_mutex);
    changed = xmalloc(MAX(hmap_count(&all_cfms), 1) * sizeof *changed);
    if (argc > 2) {
        struct cfm *cfm = find_cfm(argv[1]);
        if (!cfm || !cfm->configured) {
            ovs_mutex_unlock(&cfm_mutex);
            free(changed);
            unixctl_command_reply_error(conn, "no such CFM object");
            return;
        }
        cfm->fault_override = override;
        changed[n++] = &cfm->up;
    } else {
        struct cfm *cfm;
        HMAP_FOR_EACH (cfm, name_node, &all_cfms) {
            cfm->fault_override = override;
            changed[n++] = &cfm->up;
        }
    }
    /* Queued under the lock: cfm_destroy() takes it too, so none of
     * these can be freed meanwhile. */
    for (size_t i = 0; i < n; i++) {
        if (changed[i]->port) {
            port_protocol_changed(changed[i]);
        }
    }
    ovs_mutex_unlock(&cfm_mutex);
    free(changed);

    unixctl_command_reply(conn, "OK");
}

void
cfm_init(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    if (ovsthread_once_start(&once)) {
        unixctl_command_register("cfm/show", "[interface]", 0, 1,
                                 cfm_unixctl_show, NULL);
        unixctl_command_register("cfm/set-fault",
                                 "[interface] normal|false|true", 1, 2,
                                 cfm_unixctl_set_fault, NULL);
        ovsthread_once_done(&once);
    }
}
