#include <config.h>
#include "bond.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow.h"
#include "hash.h"
#include "hmap.h"
#include "ovs-thread.h"
#include "seq.h"
#include "shash.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(bond);

#define BOND_BUCKETS BOND_N_BUCKETS
#define BOND_MASK (BOND_BUCKETS - 1)

struct bond_member {
    struct hmap_node hmap_node;     /* In bond->members, by aux. */
    struct bond *bond;
    void *aux;
    char *name;
    struct eth_addr mac;

    bool may_enable;                /* Link usable, as the owner says. */
    bool enabled;                   /* Carrying traffic. */
    long long int delay_expires;    /* When 'enabled' follows 'may_enable'
                                     * (LLONG_MAX: not pending). */
    uint64_t load;                  /* Rebalance scratch: bytes. */
};

struct bond_bucket {
    struct bond_member *member;     /* NULL: none enabled. */
    _Atomic uint64_t tx_bytes;      /* Load, halved at each rebalance. */
};

struct bond {
    struct hmap_node hmap_node;     /* In all_bonds, by name. */
    char *name;
    struct ovs_rwlock rwlock;

    /* Settings. */
    enum bond_mode mode;
    uint32_t basis;
    int rebalance_interval;
    int updelay, downdelay;
    bool lacp_fallback_ab;
    bool all_members_active;
    bool use_lb_output;
    char *primary;
    enum bond_lacp_status lacp_status;

    struct hmap members;
    struct bond_member *active;
    struct eth_addr active_member_mac;
    bool learning_needed;           /* Active member changed. */
    bool mac_changed;               /* 'active_member_mac' changed. */

    struct bond_bucket buckets[BOND_BUCKETS];
    uint64_t buckets_seq;           /* Changes with any bucket's member. */
    uint32_t recirc_id;             /* The owner's; 0: no recirculation. */
    long long int next_rebalance;   /* LLONG_MAX: not balanced. */
    _Atomic bool loads_moved;
    bool members_changed;           /* A member was enabled or disabled
                                     * since the last rebalance. */
};

/* Every bond, for the unixctl commands (main thread). */
static struct hmap all_bonds = HMAP_INITIALIZER(&all_bonds);

bool
bond_mode_from_string(const char *s, enum bond_mode *mode)
{
    for (enum bond_mode m = BM_AB; m <= BM_TCP; m++) {
        if (!strcmp(s, bond_mode_to_string(m))) {
            *mode = m;
            return true;
        }
    }
    return false;
}

const char *
bond_mode_to_string(enum bond_mode mode)
{
    switch (mode) {
    case BM_AB:
        return "active-backup";
    case BM_SLB:
        return "balance-slb";
    case BM_TCP:
        return "balance-tcp";
    }
    return "unknown";
}

static const char *
lacp_status_to_string(enum bond_lacp_status s)
{
    return (s == BOND_LACP_NEGOTIATED ? "negotiated"
            : s == BOND_LACP_CONFIGURED ? "configured" : "off");
}

static bool
bond_is_balanced(const struct bond *bond)
{
    return bond->mode != BM_AB;
}

/* The mode that decides output now: a balance-tcp bond whose LACP has not
 * negotiated works as active-backup if it may fall back. */
static enum bond_mode
effective_mode(const struct bond *bond)
{
    if (bond->lacp_status == BOND_LACP_CONFIGURED && bond->lacp_fallback_ab) {
        return BM_AB;
    }
    return bond->mode;
}

static struct bond_member *
member_lookup(const struct bond *bond, const void *aux)
{
    struct bond_member *m;
    HMAP_FOR_EACH_WITH_HASH (m, hmap_node, hash_pointer(aux, 0),
                             &bond->members) {
        if (m->aux == aux) {
            return m;
        }
    }
    return NULL;
}

static struct bond_member *
member_by_name(const struct bond *bond, const char *name)
{
    struct bond_member *m;
    HMAP_FOR_EACH (m, hmap_node, &bond->members) {
        if (!strcmp(m->name, name)) {
            return m;
        }
    }
    return NULL;
}

/* Members sorted by name, so that choices and output do not depend on
 * hash order.  Caller frees. */
static struct bond_member **
sorted_members(const struct bond *bond)
{
    size_t n = hmap_count(&bond->members), i = 0;
    struct bond_member **v = xmalloc((n + 1) * sizeof *v);
    struct bond_member *m;
    HMAP_FOR_EACH (m, hmap_node, &bond->members) {
        v[i++] = m;
    }
    for (size_t a = 1; a < n; a++) {
        for (size_t b = a; b > 0 && strcmp(v[b - 1]->name, v[b]->name) > 0;
             b--) {
            struct bond_member *t = v[b];
            v[b] = v[b - 1];
            v[b - 1] = t;
        }
    }
    v[n] = NULL;
    return v;
}

/* The member that should be active: the primary if enabled, else the one
 * active before, else the first enabled one, else the one whose updelay
 * ends first. */
static struct bond_member *
choose_active(const struct bond *bond)
{
    struct bond_member **v = sorted_members(bond);
    struct bond_member *best = NULL;
    for (size_t i = 0; v[i] && !best; i++) {
        if (v[i]->enabled && bond->primary
            && !strcmp(v[i]->name, bond->primary)) {
            best = v[i];
        }
    }
    for (size_t i = 0; v[i] && !best; i++) {
        /* The one active before (across a restart, by its MAC). */
        if (v[i]->enabled
            && eth_addr_equals(v[i]->mac, bond->active_member_mac)) {
            best = v[i];
        }
    }
    for (size_t i = 0; v[i] && !best; i++) {
        if (v[i]->enabled) {
            best = v[i];
        }
    }
    for (size_t i = 0; v[i]; i++) {
        if (!best || (!best->enabled && v[i]->may_enable
                      && v[i]->delay_expires < best->delay_expires)) {
            if (v[i]->may_enable && v[i]->delay_expires != LLONG_MAX) {
                best = v[i];
            }
        }
    }
    free(v);
    return best;
}

/* Gives every bucket whose member is gone or disabled, and every bucket
 * that carried nothing yet, an enabled member, spreading them round robin:
 * so members that come up share the traffic still to come, and flows that
 * have a member keep it. */
static void
assign_buckets(struct bond *bond)
{
    struct bond_member **v = sorted_members(bond);
    size_t n_enabled = 0;
    for (size_t i = 0; v[i]; i++) {
        if (v[i]->enabled) {
            v[n_enabled++] = v[i];
        }
    }
    size_t next = 0;
    for (int i = 0; i < BOND_BUCKETS; i++) {
        struct bond_bucket *b = &bond->buckets[i];
        if (!b->member || !b->member->enabled
            || !atomic_load_explicit(&b->tx_bytes, memory_order_relaxed)) {
            struct bond_member *m = n_enabled ? v[next++ % n_enabled] : NULL;
            if (m != b->member) {
                b->member = m;
                bond->buckets_seq++;
            }
        }
    }
    free(v);
}

/* After any change of which members are enabled (write lock held). */
static void
update_active(struct bond *bond)
{
    struct bond_member *old = bond->active;
    bond->active = choose_active(bond);
    if (bond->active && !bond->active->enabled) {
        VLOG_INFO("bond %s: active member is now %s, skipping remaining "
                  "%lld ms updelay (since no member was enabled)",
                  bond->name, bond->active->name,
                  bond->active->delay_expires - time_msec());
        bond->active->enabled = true;
        bond->active->delay_expires = LLONG_MAX;
        bond->members_changed = true;
    }
    if (bond->active != old) {
        if (bond->active) {
            VLOG_INFO("bond %s: active member is now %s", bond->name,
                      bond->active->name);
            bond->active_member_mac = bond->active->mac;
            bond->learning_needed = true;
        } else {
            VLOG_INFO("bond %s: all members disabled", bond->name);
            memset(&bond->active_member_mac, 0,
                   sizeof bond->active_member_mac);
        }
        bond->mac_changed = true;
    }
    assign_buckets(bond);
}

static void
apply_settings(struct bond *bond, const struct bond_settings *s)
{
    bond->mode = s->mode;
    bond->basis = s->basis;
    bond->rebalance_interval = s->rebalance_interval;
    bond->updelay = MAX(0, s->up_delay);
    bond->downdelay = MAX(0, s->down_delay);
    bond->lacp_fallback_ab = s->lacp_fallback_ab;
    bond->all_members_active = s->all_members_active;
    bond->use_lb_output = s->use_lb_output;
    free(bond->primary);
    bond->primary = s->primary ? xstrdup(s->primary) : NULL;
    bond->next_rebalance = (bond_is_balanced(bond) && s->rebalance_interval
                            ? time_msec() + s->rebalance_interval
                            : LLONG_MAX);
}

struct bond *
bond_create(const char *name, const struct bond_settings *s)
{
    struct bond *bond = xzalloc(sizeof *bond);
    bond->name = xstrdup(name);
    ovs_rwlock_init(&bond->rwlock);
    hmap_init(&bond->members);
    apply_settings(bond, s);
    bond->active_member_mac = s->active_member_mac;
    hmap_insert(&all_bonds, &bond->hmap_node, hash_string(name, 0));
    return bond;
}

bool
bond_reconfigure(struct bond *bond, const struct bond_settings *s)
{
    ovs_rwlock_wrlock(&bond->rwlock);
    bool changed = (bond->mode != s->mode || bond->basis != s->basis
                    || bond->lacp_fallback_ab != s->lacp_fallback_ab
                    || bond->all_members_active != s->all_members_active
                    || bond->use_lb_output != s->use_lb_output
                    || !bond->primary != !s->primary
                    || (s->primary && strcmp(bond->primary, s->primary)));
    bool timers = (bond->rebalance_interval != s->rebalance_interval
                   || bond->mode != s->mode);
    long long int next_rebalance = bond->next_rebalance;
    apply_settings(bond, s);
    if (!timers) {
        bond->next_rebalance = next_rebalance;
    }
    if (changed) {
        update_active(bond);
    }
    ovs_rwlock_unlock(&bond->rwlock);
    return changed;
}

void
bond_destroy(struct bond *bond)
{
    if (!bond) {
        return;
    }
    hmap_remove(&all_bonds, &bond->hmap_node);
    struct bond_member *m;
    HMAP_FOR_EACH_POP (m, hmap_node, &bond->members) {
        free(m->name);
        free(m);
    }
    hmap_destroy(&bond->members);
    ovs_rwlock_destroy(&bond->rwlock);
    free(bond->primary);
    free(bond->name);
    free(bond);
}

const char *
bond_get_name(const struct bond *bond)
{
    return bond->name;
}

void
bond_member_register(struct bond *bond, void *aux, const char *name,
                     struct eth_addr mac)
{
    ovs_rwlock_wrlock(&bond->rwlock);
    struct bond_member *m = member_lookup(bond, aux);
    if (!m) {
        m = xzalloc(sizeof *m);
        m->bond = bond;
        m->aux = aux;
        m->delay_expires = LLONG_MAX;
        hmap_insert(&bond->members, &m->hmap_node, hash_pointer(aux, 0));
    }
    if (!m->name || strcmp(m->name, name)) {
        free(m->name);
        m->name = xstrdup(name);
    }
    m->mac = mac;
    ovs_rwlock_unlock(&bond->rwlock);
}

void
bond_member_unregister(struct bond *bond, void *aux)
{
    ovs_rwlock_wrlock(&bond->rwlock);
    struct bond_member *m = member_lookup(bond, aux);
    if (m) {
        hmap_remove(&bond->members, &m->hmap_node);
        for (int i = 0; i < BOND_BUCKETS; i++) {
            if (bond->buckets[i].member == m) {
                bond->buckets[i].member = NULL;
                bond->buckets_seq++;
            }
        }
        if (bond->active == m) {
            bond->active = NULL;
        }
        bond->members_changed |= m->enabled;
        free(m->name);
        free(m);
        update_active(bond);
    }
    ovs_rwlock_unlock(&bond->rwlock);
}

/* Enables or disables M now (write lock held). */
static void
member_enable(struct bond_member *m, bool enable)
{
    m->delay_expires = LLONG_MAX;
    if (m->enabled != enable) {
        m->enabled = enable;
        m->bond->members_changed = true;
        VLOG_INFO("member %s: %s", m->name, enable ? "enabled" : "disabled");
    }
}

void
bond_member_set_may_enable(struct bond *bond, void *aux, bool may_enable)
{
    ovs_rwlock_wrlock(&bond->rwlock);
    struct bond_member *m = member_lookup(bond, aux);
    if (m && m->may_enable != may_enable) {
        m->may_enable = may_enable;
        VLOG_INFO("member %s: link state %s", m->name,
                  may_enable ? "up" : "down");
        if (may_enable == m->enabled) {
            m->delay_expires = LLONG_MAX;
        } else {
            int delay = may_enable ? bond->updelay : bond->downdelay;
            m->delay_expires = time_msec() + delay;
            if (delay) {
                VLOG_INFO("member %s: will be %s if it stays %s for %d ms",
                          m->name, may_enable ? "enabled" : "disabled",
                          may_enable ? "up" : "down", delay);
            } else {
                member_enable(m, may_enable);
            }
        }
        update_active(bond);
    }
    ovs_rwlock_unlock(&bond->rwlock);
}

void
bond_set_lacp_status(struct bond *bond, enum bond_lacp_status status)
{
    ovs_rwlock_wrlock(&bond->rwlock);
    bond->lacp_status = status;
    ovs_rwlock_unlock(&bond->rwlock);
}

/* Moves buckets from the most loaded to the least loaded enabled member
 * while that narrows the gap (write lock held).  Returns true if any
 * moved. */
static bool
rebalance(struct bond *bond)
{
    struct bond_member **v = sorted_members(bond);
    size_t n = 0;
    for (size_t i = 0; v[i]; i++) {
        if (v[i]->enabled) {
            v[n++] = v[i];
            v[i]->load = 0;
        }
    }
    uint64_t loads[BOND_BUCKETS];
    for (int i = 0; i < BOND_BUCKETS; i++) {
        loads[i] = atomic_load_explicit(&bond->buckets[i].tx_bytes,
                                        memory_order_relaxed);
        if (bond->buckets[i].member) {
            bond->buckets[i].member->load += loads[i];
        }
    }
    bool moved = false;
    for (int round = 0; n > 1 && round < BOND_BUCKETS; round++) {
        struct bond_member *hi = v[0], *lo = v[0];
        for (size_t i = 1; i < n; i++) {
            hi = v[i]->load > hi->load ? v[i] : hi;
            lo = v[i]->load < lo->load ? v[i] : lo;
        }
        uint64_t gap = hi->load - lo->load;
        /* The bucket of HI whose move narrows the gap the most: one that
         * carries less than the gap, as close to half of it as possible. */
        int best = -1;
        for (int i = 0; i < BOND_BUCKETS; i++) {
            if (bond->buckets[i].member == hi && loads[i] && loads[i] < gap
                && (best < 0
                    || llabs((long long) (gap / 2) - (long long) loads[i])
                       < llabs((long long) (gap / 2)
                               - (long long) loads[best]))) {
                best = i;
            }
        }
        /* Not worth it under 10% of the busier one's load. */
        if (best < 0 || gap * 10 < hi->load) {
            break;
        }
        VLOG_INFO("bond %s: shift %"PRIu64"kB of load (with hash %d) from "
                  "%s to %s (now carrying %"PRIu64"kB and %"PRIu64"kB load, "
                  "respectively)", bond->name, loads[best] / 1024, best,
                  hi->name, lo->name, (hi->load - loads[best]) / 1024,
                  (lo->load + loads[best]) / 1024);
        bond->buckets[best].member = lo;
        bond->buckets_seq++;
        hi->load -= loads[best];
        lo->load += loads[best];
        moved = true;
    }
    free(v);
    /* Older traffic counts for less in the next round. */
    for (int i = 0; i < BOND_BUCKETS; i++) {
        atomic_store_explicit(&bond->buckets[i].tx_bytes, loads[i] / 2,
                              memory_order_relaxed);
    }
    return moved;
}

long long int
bond_run(struct bond *bond, long long int now, bool *changed)
{
    ovs_rwlock_wrlock(&bond->rwlock);
    long long int next = LLONG_MAX;
    bool enabled_changed = false;
    struct bond_member *m;
    HMAP_FOR_EACH (m, hmap_node, &bond->members) {
        if (m->delay_expires <= now) {
            member_enable(m, m->may_enable);
            enabled_changed = true;
        } else {
            next = MIN(next, m->delay_expires);
        }
    }
    if (enabled_changed) {
        update_active(bond);
        *changed = true;
    }
    if (bond->next_rebalance <= now) {
        /* Nothing to do unless loads moved, or a member came or went
         * (one that came up takes over loaded buckets). */
        bool moved = atomic_exchange_explicit(&bond->loads_moved, false,
                                              memory_order_relaxed);
        if ((moved || bond->members_changed) && rebalance(bond)) {
            *changed = true;
        }
        bond->members_changed = false;
        bond->next_rebalance = now + bond->rebalance_interval;
    }
    next = MIN(next, bond->next_rebalance);
    ovs_rwlock_unlock(&bond->rwlock);
    return next;
}

bool
bond_take_learning_needed(struct bond *bond, void **active_aux)
{
    ovs_rwlock_wrlock(&bond->rwlock);
    bool needed = bond->learning_needed && bond->active;
    *active_aux = bond->active ? bond->active->aux : NULL;
    bond->learning_needed = false;
    ovs_rwlock_unlock(&bond->rwlock);
    return needed;
}

void
bond_compose_learning_packet(struct dp_packet *packet, struct eth_addr mac,
                             uint16_t vlan)
{
    struct eth_header eth = {
        .eth_dst = { { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } },
        .eth_src = mac,
        .eth_type = htons(ETH_TYPE_RARP),
    };
    dp_packet_put(packet, &eth, sizeof eth);
    struct arp_eth_header rarp = {
        .ar_hrd = htons(ARP_HTYPE_ETH),
        .ar_pro = htons(ETH_TYPE_IP),
        .ar_hln = ETH_ADDR_LEN,
        .ar_pln = 4,
        .ar_op = htons(3),      /* Reverse request. */
        .ar_sha = mac,
        .ar_tha = mac,
    };
    dp_packet_put(packet, &rarp, sizeof rarp);
    if (vlan) {
        struct vlan_header tag = {
            .vlan_tci = htons(vlan & VLAN_VID_MASK),
            .vlan_next_type = eth.eth_type,
        };
        struct eth_header *e = dp_packet_data(packet);
        e->eth_type = htons(ETH_TYPE_VLAN_8021Q);
        memcpy(dp_packet_insert_front(packet, ETH_HEADER_LEN, sizeof tag),
               &tag, sizeof tag);
    }
}

bool
bond_take_active_mac_changed(struct bond *bond)
{
    ovs_rwlock_wrlock(&bond->rwlock);
    bool changed = bond->mac_changed;
    bond->mac_changed = false;
    ovs_rwlock_unlock(&bond->rwlock);
    return changed;
}

struct eth_addr
bond_get_active_member_mac(const struct bond *bond_)
{
    /* Reading takes the lock, which is not const. */
    struct bond *bond = (struct bond *) bond_;
    ovs_rwlock_rdlock(&bond->rwlock);
    struct eth_addr mac = bond->active_member_mac;
    ovs_rwlock_unlock(&bond->rwlock);
    return mac;
}

/* Translation. */

static uint32_t
hash_slb(const struct bond *bond, const struct flow *flow, uint16_t vlan)
{
    return hash_bytes(&flow->dl_src, sizeof flow->dl_src,
                      hash_int(vlan, bond->basis));
}

/* The 5-tuple, the same both ways (a connection's two directions use
 * one member). */
static uint32_t
hash_l4(const struct bond *bond, const struct flow *flow)
{
    uint32_t h = bond->basis;
    if (flow->dl_type == htons(ETH_TYPE_IP)) {
        h = hash_int(ntohl(flow->nw_src) ^ ntohl(flow->nw_dst), h);
    } else if (flow->dl_type == htons(ETH_TYPE_IPV6)) {
        for (int i = 0; i < 16; i++) {
            h = hash_int(flow->ipv6_src.s6_addr[i]
                         ^ flow->ipv6_dst.s6_addr[i], h);
        }
    } else {
        for (int i = 0; i < 6; i++) {
            h = hash_int(flow->dl_src.ea[i] ^ flow->dl_dst.ea[i], h);
        }
    }
    h = hash_int(ntohs(flow->dl_type), h);
    h = hash_int(flow->nw_proto, h);
    return hash_int(ntohs(flow->tp_src) ^ ntohs(flow->tp_dst), h);
}

static void
mask_l4(const struct flow *flow, struct flow_wildcards *wc)
{
    WC_MASK_FIELD(wc, dl_type);
    if (flow->dl_type == htons(ETH_TYPE_IP)) {
        WC_MASK_FIELD(wc, nw_src);
        WC_MASK_FIELD(wc, nw_dst);
    } else if (flow->dl_type == htons(ETH_TYPE_IPV6)) {
        WC_MASK_FIELD(wc, ipv6_src);
        WC_MASK_FIELD(wc, ipv6_dst);
    } else {
        WC_MASK_FIELD(wc, dl_src);
        WC_MASK_FIELD(wc, dl_dst);
    }
    WC_MASK_FIELD(wc, nw_proto);
    WC_MASK_FIELD(wc, tp_src);
    WC_MASK_FIELD(wc, tp_dst);
}

static struct bond_bucket *
bucket_for(struct bond *bond, enum bond_mode mode, const struct flow *flow,
           uint16_t vlan)
{
    uint32_t h = mode == BM_TCP ? hash_l4(bond, flow)
                                : hash_slb(bond, flow, vlan);
    return &bond->buckets[h & BOND_MASK];
}

void *
bond_choose_output(struct bond *bond, const struct flow *flow,
                   struct flow_wildcards *wc, uint16_t vlan)
{
    void *aux = NULL;
    ovs_rwlock_rdlock(&bond->rwlock);
    enum bond_mode mode = effective_mode(bond);
    if (bond->lacp_status == BOND_LACP_CONFIGURED && mode != BM_AB) {
        /* LACP did not negotiate and the bond may not fall back. */
    } else if (mode == BM_AB) {
        aux = bond->active ? bond->active->aux : NULL;
    } else if (mode == BM_TCP && bond->lacp_status != BOND_LACP_NEGOTIATED) {
        /* balance-tcp needs a negotiated partner. */
    } else {
        if (wc && mode == BM_TCP) {
            mask_l4(flow, wc);
        } else if (wc) {
            WC_MASK_FIELD(wc, dl_src);
        }
        struct bond_bucket *b = bucket_for(bond, mode, flow, vlan);
        aux = b->member ? b->member->aux : NULL;
    }
    ovs_rwlock_unlock(&bond->rwlock);
    return aux;
}

enum bond_verdict
bond_check_admissibility(struct bond *bond, const void *aux,
                         const struct flow *flow,
                         struct flow_wildcards *wc OVS_UNUSED)
{
    enum bond_verdict verdict = BV_DROP;
    ovs_rwlock_rdlock(&bond->rwlock);
    const struct bond_member *m = member_lookup(bond, aux);
    if (!m) {
        goto out;
    }
    /* A negotiated partner knows the bond: only disabled members are
     * suspect.  Without a partner, only a fallback bond receives. */
    if (bond->lacp_status == BOND_LACP_NEGOTIATED) {
        verdict = m->enabled || m->may_enable ? BV_ACCEPT : BV_DROP;
        goto out;
    } else if (bond->lacp_status == BOND_LACP_CONFIGURED
               && !bond->lacp_fallback_ab) {
        goto out;
    } else if (bond->lacp_status == BOND_LACP_OFF && bond->mode == BM_TCP) {
        goto out;
    }
    /* The upstream switch floods multicast to every member: take it from
     * one. */
    if (eth_addr_is_multicast(flow->dl_dst) && bond->active != m
        && !bond->all_members_active) {
        goto out;
    }
    switch (bond->mode) {
    case BM_TCP:
        if (!bond->lacp_fallback_ab) {
            break;
        }
        /* Fall through. */
    case BM_AB:
        verdict = bond->active == m ? BV_ACCEPT : BV_DROP;
        break;
    case BM_SLB:
        verdict = BV_DROP_IF_MOVED;
        break;
    }
out:
    ovs_rwlock_unlock(&bond->rwlock);
    return verdict;
}

void
bond_account(struct bond *bond, const struct flow *flow, uint16_t vlan,
             uint64_t n_bytes)
{
    ovs_rwlock_rdlock(&bond->rwlock);
    enum bond_mode mode = effective_mode(bond);
    if (mode != BM_AB && n_bytes) {
        struct bond_bucket *b = bucket_for(bond, mode, flow, vlan);
        atomic_fetch_add_explicit(&b->tx_bytes, n_bytes,
                                  memory_order_relaxed);
        atomic_store_explicit(&bond->loads_moved, true,
                              memory_order_relaxed);
    }
    ovs_rwlock_unlock(&bond->rwlock);
}

/* Recirculation. */

/* Whether balance-tcp hashes in the datapath (lock held). */
static bool
may_recirc(const struct bond *bond)
{
    return (bond->recirc_id && bond->mode == BM_TCP
            && effective_mode(bond) == BM_TCP);
}

void
bond_set_recirc_id(struct bond *bond, uint32_t recirc_id)
{
    ovs_rwlock_wrlock(&bond->rwlock);
    bond->recirc_id = recirc_id;
    ovs_rwlock_unlock(&bond->rwlock);
}

bool
bond_get_recirc(struct bond *bond, uint32_t *recirc_id, uint32_t *basis,
                bool *lb_output)
{
    ovs_rwlock_rdlock(&bond->rwlock);
    bool ok = may_recirc(bond);
    *recirc_id = ok ? bond->recirc_id : 0;
    *basis = ok ? bond->basis : 0;
    *lb_output = ok && bond->use_lb_output;
    ovs_rwlock_unlock(&bond->rwlock);
    return ok;
}

uint64_t
bond_get_buckets(struct bond *bond, void *members[BOND_N_BUCKETS])
{
    ovs_rwlock_rdlock(&bond->rwlock);
    for (int i = 0; i < BOND_BUCKETS; i++) {
        const struct bond_member *m = bond->buckets[i].member;
        members[i] = m ? m->aux : NULL;
    }
    uint64_t seq = bond->buckets_seq;
    ovs_rwlock_unlock(&bond->rwlock);
    return seq;
}

void
bond_account_buckets(struct bond *bond, const uint64_t delta[BOND_N_BUCKETS])
{
    /* Loads are atomics: the read lock keeps the bond as it is. */
    ovs_rwlock_rdlock(&bond->rwlock);
    for (int i = 0; i < BOND_BUCKETS; i++) {
        if (delta[i]) {
            atomic_fetch_add_explicit(&bond->buckets[i].tx_bytes, delta[i],
                                      memory_order_relaxed);
            atomic_store_explicit(&bond->loads_moved, true,
                                  memory_order_relaxed);
        }
    }
    ovs_rwlock_unlock(&bond->rwlock);
}

/* unixctl. */

static struct bond *
bond_find(const char *name)
{
    struct bond *bond;
    HMAP_FOR_EACH_WITH_HASH (bond, hmap_node, hash_string(name, 0),
                             &all_bonds) {
        if (!strcmp(bond->name, name)) {
            return bond;
        }
    }
    return NULL;
}

static int
compare_bond_names(const void *a_, const void *b_)
{
    const struct bond *const *a = a_, *const *b = b_;
    return strcmp((*a)->name, (*b)->name);
}

/* Every bond, sorted by name.  Caller frees. */
static struct bond **
sorted_bonds(size_t *n)
{
    struct bond **v = xmalloc((hmap_count(&all_bonds) + 1) * sizeof *v);
    struct bond *bond;
    *n = 0;
    HMAP_FOR_EACH (bond, hmap_node, &all_bonds) {
        v[(*n)++] = bond;
    }
    qsort(v, *n, sizeof *v, compare_bond_names);
    return v;
}

static void
bond_list_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
              const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    ds_put_cstr(&ds, "bond\ttype\trecircID\tmembers\n");
    size_t n;
    struct bond **bonds = sorted_bonds(&n);
    for (size_t i = 0; i < n; i++) {
        struct bond *bond = bonds[i];
        ovs_rwlock_rdlock(&bond->rwlock);
        ds_put_format(&ds, "%s\t%s\t%"PRIu32"\t", bond->name,
                      bond_mode_to_string(bond->mode), bond->recirc_id);
        struct bond_member **v = sorted_members(bond);
        for (size_t j = 0; v[j]; j++) {
            ds_put_format(&ds, "%s%s", j ? ", " : "", v[j]->name);
        }
        free(v);
        ds_put_char(&ds, '\n');
        ovs_rwlock_unlock(&bond->rwlock);
    }
    free(bonds);
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

static void
bond_format(struct bond *bond, struct ds *ds)
{
    ovs_rwlock_rdlock(&bond->rwlock);
    ds_put_format(ds, "---- %s ----\n", bond->name);
    ds_put_format(ds, "bond_mode: %s\n", bond_mode_to_string(bond->mode));
    if (may_recirc(bond)) {
        ds_put_format(ds, "bond may use recirculation: yes, Recirc-ID : %"
                      PRIu32"\n", bond->recirc_id);
    } else {
        ds_put_cstr(ds, "bond may use recirculation: no, Recirc-ID : -1\n");
    }
    ds_put_format(ds, "bond-hash-basis: %"PRIu32"\n", bond->basis);
    if (may_recirc(bond) && bond->use_lb_output) {
        ds_put_format(ds, "lb_output action: enabled, bond-id: %"PRIu32"\n",
                      bond->recirc_id);
    } else {
        ds_put_cstr(ds, "lb_output action: disabled, bond-id: -1\n");
    }
    if (bond->mode == BM_SLB) {
        ds_put_format(ds, "all members active: %s\n",
                      bond->all_members_active ? "true" : "false");
    }
    ds_put_format(ds, "updelay: %d ms\n", bond->updelay);
    ds_put_format(ds, "downdelay: %d ms\n", bond->downdelay);
    if (bond_is_balanced(bond) && bond->next_rebalance != LLONG_MAX) {
        ds_put_format(ds, "next rebalance: %lld ms\n",
                      bond->next_rebalance - time_msec());
    }
    ds_put_format(ds, "lacp_status: %s\n",
                  lacp_status_to_string(bond->lacp_status));
    ds_put_format(ds, "lacp_fallback_ab: %s\n",
                  bond->lacp_fallback_ab ? "true" : "false");
    ds_put_format(ds, "active-backup primary: %s%s\n",
                  bond->primary ? bond->primary : "<none>",
                  bond->primary && !member_by_name(bond, bond->primary)
                  ? " (no such member)" : "");
    struct bond_member *by_mac = NULL;
    struct bond_member **v = sorted_members(bond);
    for (size_t i = 0; v[i]; i++) {
        if (eth_addr_equals(v[i]->mac, bond->active_member_mac)) {
            by_mac = v[i];
        }
    }
    ds_put_format(ds, "active member mac: "ETH_ADDR_FMT"(%s)\n",
                  ETH_ADDR_ARGS(bond->active_member_mac),
                  by_mac ? by_mac->name : "none");
    for (size_t i = 0; v[i]; i++) {
        struct bond_member *m = v[i];
        ds_put_format(ds, "\nmember %s: %s\n", m->name,
                      m->enabled ? "enabled" : "disabled");
        if (m == bond->active) {
            ds_put_cstr(ds, "  active member\n");
        }
        if (m->delay_expires != LLONG_MAX) {
            ds_put_format(ds, "  %s expires in %lld ms\n",
                          m->enabled ? "downdelay" : "updelay",
                          m->delay_expires - time_msec());
        }
        ds_put_format(ds, "  may_enable: %s\n",
                      m->may_enable ? "true" : "false");
        if (!bond_is_balanced(bond)) {
            continue;
        }
        for (int h = 0; h < BOND_BUCKETS; h++) {
            uint64_t kb = atomic_load_explicit(&bond->buckets[h].tx_bytes,
                                               memory_order_relaxed) / 1024;
            if (bond->buckets[h].member == m && kb) {
                ds_put_format(ds, "  hash %d: %"PRIu64" kB load\n", h, kb);
            }
        }
    }
    free(v);
    ds_put_char(ds, '\n');
    ovs_rwlock_unlock(&bond->rwlock);
}

static void
bond_show_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
              void *aux OVS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    if (argc > 1) {
        struct bond *bond = bond_find(argv[1]);
        if (!bond) {
            unixctl_command_reply_error(conn, "no such bond");
            return;
        }
        bond_format(bond, &ds);
    } else {
        size_t n;
        struct bond **bonds = sorted_bonds(&n);
        for (size_t i = 0; i < n; i++) {
            bond_format(bonds[i], &ds);
        }
        free(bonds);
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

/* Finds "BOND MEMBER" of a command; replies the error and returns NULL if
 * either is unknown. */
static struct bond_member *
find_bond_member(struct unixctl_conn *conn, const char *bond_name,
                 const char *member_name)
{
    struct bond *bond = bond_find(bond_name);
    if (!bond) {
        unixctl_command_reply_error(conn, "no such bond");
        return NULL;
    }
    struct bond_member *m = member_by_name(bond, member_name);
    if (!m) {
        unixctl_command_reply_error(conn, "no such member");
    }
    return m;
}

/* Forwarding changed outside bond_run(): the owner revalidates when its
 * bonds' seq moves. */
static struct seq *bond_changed_seq;

static void
bond_set_active_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
                    const char *argv[], void *aux OVS_UNUSED)
{
    struct bond_member *m = find_bond_member(conn, argv[1], argv[2]);
    if (!m) {
        return;
    }
    struct bond *bond = m->bond;
    if (!m->enabled) {
        unixctl_command_reply_error(conn, "cannot make disabled member "
                                    "active");
        return;
    }
    ovs_rwlock_wrlock(&bond->rwlock);
    if (bond->active != m) {
        bond->active = m;
        bond->active_member_mac = m->mac;
        bond->learning_needed = true;
        bond->mac_changed = true;
        VLOG_INFO("bond %s: active member is now %s", bond->name, m->name);
        seq_change(bond_changed_seq);
    }
    ovs_rwlock_unlock(&bond->rwlock);
    unixctl_command_reply(conn, "done");
}

static void
bond_enable_member_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
                       const char *argv[], void *enable_)
{
    struct bond_member *m = find_bond_member(conn, argv[1], argv[2]);
    if (!m) {
        return;
    }
    struct bond *bond = m->bond;
    ovs_rwlock_wrlock(&bond->rwlock);
    member_enable(m, enable_ != NULL);
    update_active(bond);
    ovs_rwlock_unlock(&bond->rwlock);
    seq_change(bond_changed_seq);
    unixctl_command_reply(conn, "enable/disable member");
}

static void
bond_hash_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
              void *aux OVS_UNUSED)
{
    struct eth_addr mac;
    unsigned int vlan = 0, basis = 0;
    if (!eth_addr_from_string(argv[1], &mac)) {
        unixctl_command_reply_error(conn, "invalid mac");
        return;
    }
    if (argc > 2 && !str_to_uint(argv[2], 10, &vlan)) {
        unixctl_command_reply_error(conn, "invalid vlan");
        return;
    }
    if (argc > 3 && !str_to_uint(argv[3], 10, &basis)) {
        unixctl_command_reply_error(conn, "invalid basis");
        return;
    }
    struct bond fake = { .basis = basis };
    struct flow flow;
    memset(&flow, 0, sizeof flow);
    flow.dl_src = mac;
    char *reply = xasprintf("%u", hash_slb(&fake, &flow, vlan) & BOND_MASK);
    unixctl_command_reply(conn, reply);
    free(reply);
}

static void
bond_migrate_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
                 const char *argv[], void *aux OVS_UNUSED)
{
    struct bond *bond = bond_find(argv[1]);
    unsigned int hash;
    if (!bond) {
        unixctl_command_reply_error(conn, "no such bond");
        return;
    }
    if (bond->mode != BM_SLB) {
        unixctl_command_reply_error(conn, "not an SLB bond");
        return;
    }
    if (!str_to_uint(argv[2], 10, &hash) || hash > BOND_MASK) {
        unixctl_command_reply_error(conn, "bad hash");
        return;
    }
    struct bond_member *m = member_by_name(bond, argv[3]);
    if (!m) {
        unixctl_command_reply_error(conn, "no such member");
        return;
    }
    if (!m->enabled) {
        unixctl_command_reply_error(conn, "cannot migrate to disabled "
                                    "member");
        return;
    }
    ovs_rwlock_wrlock(&bond->rwlock);
    if (bond->buckets[hash].member != m) {
        bond->buckets[hash].member = m;
        bond->buckets_seq++;
    }
    ovs_rwlock_unlock(&bond->rwlock);
    seq_change(bond_changed_seq);
    unixctl_command_reply(conn, "migrated");
}

struct seq *
bond_get_changed_seq(void)
{
    return bond_changed_seq;
}

void
bond_init(void)
{
    static bool inited;
    if (inited) {
        return;
    }
    inited = true;
    bond_changed_seq = seq_create();
    unixctl_command_register("bond/list", "", 0, 0, bond_list_cmd, NULL);
    unixctl_command_register("bond/show", "[port]", 0, 1, bond_show_cmd,
                             NULL);
    unixctl_command_register("bond/migrate", "port hash member", 3, 3,
                             bond_migrate_cmd, NULL);
    unixctl_command_register("bond/set-active-member", "port member", 2, 2,
                             bond_set_active_cmd, NULL);
    unixctl_command_register("bond/set-active-slave", "port slave", 2, 2,
                             bond_set_active_cmd, NULL);
    unixctl_command_register("bond/enable-member", "port member", 2, 2,
                             bond_enable_member_cmd, (void *) 1);
    unixctl_command_register("bond/enable-slave", "port slave", 2, 2,
                             bond_enable_member_cmd, (void *) 1);
    unixctl_command_register("bond/disable-member", "port member", 2, 2,
                             bond_enable_member_cmd, NULL);
    unixctl_command_register("bond/disable-slave", "port slave", 2, 2,
                             bond_enable_member_cmd, NULL);
    unixctl_command_register("bond/hash", "mac [vlan] [basis]", 1, 3,
                             bond_hash_cmd, NULL);
}
