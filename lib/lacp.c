/* lacp: see lacp.h. */
#include <config.h>
#include "lacp.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "connectivity.h"
#include "dynamic-string.h"
#include "flow.h"
#include "hash.h"
#include "hmap.h"
#include "list.h"
#include "ovs-thread.h"
#include "seq.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(lacp);

enum member_status {
    MEMBER_CURRENT,             /* Partner heard within the timeout. */
    MEMBER_EXPIRED,             /* Partner silent; its info kept a while. */
    MEMBER_DEFAULTED,           /* No partner. */
};

/* What the integration sees of a member: a change of any of it is
 * reported (lacp_take_changed_members()). */
struct member_view {
    int status;                 /* enum member_status, -1: never reported. */
    bool attached;
    bool may_enable;
    struct lacp_info partner;
};

struct member {
    struct hmap_node node;      /* In lacp->members, by hash of 'aux'. */
    struct lacp *lacp;
    void *aux;                  /* The caller's handle. */
    char *name;
    uint64_t order;             /* Registration order (the key member is
                                 * the earliest registered). */

    /* Settings. */
    uint16_t port_id;
    uint16_t port_priority;
    uint16_t key;               /* 0: the key member's port ID. */
    struct eth_addr mac;

    /* Protocol state. */
    enum member_status status;
    bool attached;              /* In the aggregate. */
    bool carrier_up;
    struct lacp_info partner;   /* Zero while defaulted. */
    struct lacp_info ntt_actor; /* What the partner last said it knows of
                                 * us, then what we last sent: when our
                                 * actor differs from it, we need to
                                 * transmit. */
    long long int tx_deadline;  /* Periodic transmission (if it may). */
    long long int rx_deadline;  /* current_while / expiry; LLONG_MAX while
                                 * defaulted. */

    /* Change reporting. */
    struct member_view reported;
    bool changed;               /* Since last taken. */

    /* Counters. */
    uint32_t rx_pdus;
    uint32_t rx_errors;
    uint32_t rx_markers;
    uint32_t tx_pdus;
    uint32_t link_expired;
    uint32_t link_defaulted;
    uint32_t carrier_changed;
};

struct lacp {
    struct ovs_list list_node;  /* In 'all_lacps', in creation order. */
    struct hmap_node name_node; /* In 'lacps_by_name' once configured. */
    char *name;                 /* NULL until configured. */
    int ref_cnt;

    /* Settings. */
    struct eth_addr sys_id;
    uint16_t sys_priority;
    bool active;
    bool fast;
    bool fallback_ab;

    struct hmap members;
    struct member *key_member;  /* Whose key (or port ID) is the bond's. */
    uint64_t next_order;

    bool negotiated;            /* Some member attached. */
    bool update;                /* Attachment must be recomputed. */
    bool run_due;               /* lacp_run() is due at once. */
    long long int next_deadline; /* As of the last lacp_run(), lowered by
                                  * calls since. */

    void (*change_cb)(void *aux);
    void *change_aux;
};

/* lacp_mutex guards everything below and every lacp object. */
static struct ovs_mutex lacp_mutex = OVS_MUTEX_INITIALIZER;
static struct ovs_list all_lacps = OVS_LIST_INITIALIZER(&all_lacps);
static struct hmap lacps_by_name = HMAP_INITIALIZER(&lacps_by_name);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

static unixctl_cb_func lacp_unixctl_show, lacp_unixctl_show_stats;

const char *
lacp_status_description(enum lacp_status status)
{
    switch (status) {
    case LACP_NEGOTIATED:
        return "negotiated";
    case LACP_CONFIGURED:
        return "configured";
    case LACP_DISABLED:
        return "off";
    }
    return "<unknown>";
}

/* Members. */

static uint32_t
hash_aux(const void *aux)
{
    return hash_uint64_basis((uint64_t) (uintptr_t) aux, 0);
}

static struct member *
member_lookup(const struct lacp *lacp, const void *aux)
{
    struct member *m;
    HMAP_FOR_EACH_WITH_HASH (m, node, hash_aux(aux), &lacp->members) {
        if (m->aux == aux) {
            return m;
        }
    }
    return NULL;
}

static long long int
min_ll(long long int a, long long int b)
{
    return a < b ? a : b;
}

static void
member_set_defaulted(struct member *m)
{
    memset(&m->partner, 0, sizeof m->partner);
    m->status = MEMBER_DEFAULTED;
    m->rx_deadline = LLONG_MAX;
    m->lacp->update = true;
}

/* The partner fell silent (or the link changed): keep its information for
 * one fast timeout more, but no longer in sync, and as if it had asked
 * for fast transmissions so that we probe it quickly. */
static void
member_set_expired(struct member *m, long long int now)
{
    m->status = MEMBER_EXPIRED;
    m->partner.state |= LACP_STATE_TIMEOUT;
    m->partner.state &= ~LACP_STATE_SYNC;
    m->rx_deadline = now + LACP_RX_MULTIPLIER * LACP_FAST_TX_INTERVAL;
    m->lacp->run_due = true;
}

static bool
member_may_enable__(const struct member *m)
{
    return m->attached && ((m->partner.state & LACP_STATE_SYNC)
                           || (m->lacp->fallback_ab
                               && m->status == MEMBER_DEFAULTED));
}

/* A passive bond speaks only to a partner it has heard from. */
static bool
member_may_tx(const struct member *m)
{
    return m->carrier_up && (m->lacp->active
                             || m->status != MEMBER_DEFAULTED);
}

static uint16_t
lacp_key(const struct lacp *lacp)
{
    const struct member *k = lacp->key_member;
    return k ? (k->key ? k->key : k->port_id) : 0;
}

/* What M says about us in its LACPDUs. */
static void
member_get_actor(const struct member *m, struct lacp_info *actor)
{
    const struct lacp *lacp = m->lacp;
    uint8_t state = 0;

    if (lacp->active) {
        state |= LACP_STATE_ACTIVITY;
    }
    if (lacp->fast) {
        state |= LACP_STATE_TIMEOUT;
    }
    if (m->attached) {
        state |= LACP_STATE_SYNC;
    }
    if (m->status == MEMBER_DEFAULTED) {
        state |= LACP_STATE_DEFAULTED;
    }
    if (m->status == MEMBER_EXPIRED) {
        state |= LACP_STATE_EXPIRED;
    }
    if (hmap_count(&lacp->members) > 1) {
        state |= LACP_STATE_AGGREGATION;
    }
    /* Before anything negotiated, 3.1 keeps every member collecting and
     * distributing, so that a partner without LACP still gets traffic
     * through with fallback. */
    if (m->attached || !lacp->negotiated) {
        state |= LACP_STATE_COLLECTING | LACP_STATE_DISTRIBUTING;
    }

    actor->sys_priority = lacp->sys_priority;
    actor->sys_id = lacp->sys_id;
    actor->key = lacp_key(lacp);
    actor->port_priority = m->port_priority;
    actor->port_id = m->port_id;
    actor->state = state;
}

/* The port information of whichever end of M's link has the better
 * system (lower priority value, then lower system ID): what ranks links
 * when choosing the lead.  Key and state are left zero. */
static void
member_get_priority(const struct member *m, struct lacp_info *pri)
{
    const struct lacp *lacp = m->lacp;
    bool ours;

    if (lacp->sys_priority != m->partner.sys_priority) {
        ours = lacp->sys_priority < m->partner.sys_priority;
    } else {
        ours = memcmp(lacp->sys_id.ea, m->partner.sys_id.ea,
                      ETH_ADDR_LEN) < 0;
    }
    if (ours) {
        member_get_actor(m, pri);
    } else {
        *pri = m->partner;
    }
    pri->key = 0;
    pri->state = 0;
}

/* Orders priorities, best (lowest) first: system priority, system ID, port
 * priority, port ID. */
static int
priority_compare(const struct lacp_info *a, const struct lacp_info *b)
{
    if (a->sys_priority != b->sys_priority) {
        return a->sys_priority < b->sys_priority ? -1 : 1;
    }
    int c = memcmp(a->sys_id.ea, b->sys_id.ea, ETH_ADDR_LEN);
    if (c) {
        return c;
    }
    if (a->port_priority != b->port_priority) {
        return a->port_priority < b->port_priority ? -1 : 1;
    }
    if (a->port_id != b->port_id) {
        return a->port_id < b->port_id ? -1 : 1;
    }
    return 0;
}

/* Whether two actors differ in what 802.1AX says must be transmitted:
 * port, port priority, system, system priority, key, and the activity,
 * timeout, sync and aggregation bits (not collecting, distributing,
 * defaulted, expired). */
static bool
actor_needs_tx(const struct lacp_info *a, const struct lacp_info *b)
{
    uint8_t bits = (LACP_STATE_ACTIVITY | LACP_STATE_TIMEOUT
                    | LACP_STATE_SYNC | LACP_STATE_AGGREGATION);
    return ((a->state ^ b->state) & bits
            || a->port_id != b->port_id
            || a->port_priority != b->port_priority
            || a->key != b->key
            || a->sys_priority != b->sys_priority
            || !eth_addr_equals(a->sys_id, b->sys_id));
}

/* Recomputes which members are attached and whether the bond is
 * negotiated.  The lead is the attachable member of best priority,
 * preferring one whose partner is in sync; a member that is already
 * current and attached anchors the choice, so that a new partner system
 * cannot take the aggregate away from a working one.  Only members whose
 * partner matches the lead's system and key stay attached. */
static void
lacp_update_attached(struct lacp *lacp)
{
    struct member *lead = NULL, *lead_current = NULL, *m;
    struct lacp_info lead_pri;
    bool lead_enable = false;

    lacp->update = false;
    lacp->run_due = true;       /* Our actors' sync bits may change. */
    memset(&lead_pri, 0, sizeof lead_pri);

    HMAP_FOR_EACH (m, node, &lacp->members) {
        if (m->status == MEMBER_CURRENT && m->attached) {
            struct lacp_info pri;
            member_get_priority(m, &pri);
            if (!lead_current || priority_compare(&pri, &lead_pri) < 0) {
                lead_current = m;
                lead = m;
                lead_pri = pri;
                lead_enable = true;
            }
        }
    }

    HMAP_FOR_EACH (m, node, &lacp->members) {
        m->attached = false;

        if (eth_addr_equals(m->partner.sys_id, lacp->sys_id)) {
            VLOG_WARN_RL(&rl, "member %s: Loopback detected. Interface is "
                         "connected to its own bond", m->name);
            continue;
        }
        if (m->status == MEMBER_DEFAULTED) {
            /* Fallback: defaulted members carry traffic as long as no
             * lead turns up (see below). */
            m->attached = lacp->fallback_ab;
            continue;
        }

        struct lacp_info pri;
        member_get_priority(m, &pri);
        bool enable = member_may_enable__(m);

        if (!lead_current
            || eth_addr_equals(m->partner.sys_id,
                               lead_current->partner.sys_id)) {
            m->attached = true;
        }
        if (m->attached
            && (!lead
                || enable > lead_enable
                || (enable == lead_enable
                    && priority_compare(&pri, &lead_pri) < 0))) {
            lead = m;
            lead_enable = enable;
            lead_pri = pri;
        }
    }

    lacp->negotiated = lead != NULL;
    if (lead) {
        HMAP_FOR_EACH (m, node, &lacp->members) {
            if ((lacp->fallback_ab && m->status == MEMBER_DEFAULTED)
                || lead->partner.key != m->partner.key
                || !eth_addr_equals(lead->partner.sys_id,
                                    m->partner.sys_id)) {
                m->attached = false;
            }
        }
    }
}

static void
member_get_view(const struct member *m, struct member_view *v)
{
    memset(v, 0, sizeof *v);
    v->status = m->status;
    v->attached = m->attached;
    v->may_enable = member_may_enable__(m);
    v->partner = m->partner;
}

static bool
view_equal(const struct member_view *a, const struct member_view *b)
{
    return (a->status == b->status && a->attached == b->attached
            && a->may_enable == b->may_enable
            && lacp_info_equal(&a->partner, &b->partner));
}

/* Brings attachment up to date, marks the members whose visible state
 * changed and returns whether any did (then connectivity_seq moves).  It
 * looks at this bond's members only. */
static bool
lacp_settle(struct lacp *lacp)
{
    struct member *m;
    bool any = false;

    if (lacp->update) {
        lacp_update_attached(lacp);
    }
    HMAP_FOR_EACH (m, node, &lacp->members) {
        struct member_view v;
        member_get_view(m, &v);
        if (!view_equal(&v, &m->reported)) {
            m->reported = v;
            m->changed = true;
            any = true;
        }
    }
    if (any) {
        seq_change(connectivity_seq_get());
    }
    return any;
}

/* Calls LACP's change callback if CHANGED (lacp_mutex held: it is
 * released before the call). */
static void
unlock_and_notify(struct lacp *lacp, bool changed)
{
    void (*cb)(void *) = changed ? lacp->change_cb : NULL;
    void *aux = lacp->change_aux;
    ovs_mutex_unlock(&lacp_mutex);
    if (cb) {
        cb(aux);
    }
}

static void
member_destroy(struct member *m)
{
    struct lacp *lacp = m->lacp;

    hmap_remove(&lacp->members, &m->node);
    lacp->update = true;
    lacp->run_due = true;
    if (lacp->key_member == m) {
        /* The key passes to the earliest registered of the others. */
        struct member *o;
        lacp->key_member = NULL;
        HMAP_FOR_EACH (o, node, &lacp->members) {
            if (!lacp->key_member || o->order < lacp->key_member->order) {
                lacp->key_member = o;
            }
        }
    }
    free(m->name);
    free(m);
}

/* Objects. */

void
lacp_init(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (ovsthread_once_start(&once)) {
        unixctl_command_register("lacp/show", "[port]", 0, 1,
                                 lacp_unixctl_show, NULL);
        unixctl_command_register("lacp/show-stats", "[port]", 0, 1,
                                 lacp_unixctl_show_stats, NULL);
        ovsthread_once_done(&once);
    }
}

struct lacp *
lacp_create(void)
{
    lacp_init();

    struct lacp *lacp = xzalloc(sizeof *lacp);
    hmap_init(&lacp->members);
    lacp->ref_cnt = 1;
    lacp->next_deadline = LLONG_MAX;

    ovs_mutex_lock(&lacp_mutex);
    ovs_list_push_back(&all_lacps, &lacp->list_node);
    ovs_mutex_unlock(&lacp_mutex);
    return lacp;
}

struct lacp *
lacp_ref(const struct lacp *lacp_)
{
    struct lacp *lacp = (struct lacp *) lacp_;
    if (lacp) {
        ovs_mutex_lock(&lacp_mutex);
        lacp->ref_cnt++;
        ovs_mutex_unlock(&lacp_mutex);
    }
    return lacp;
}

void
lacp_unref(struct lacp *lacp)
{
    if (!lacp) {
        return;
    }
    ovs_mutex_lock(&lacp_mutex);
    if (--lacp->ref_cnt > 0) {
        ovs_mutex_unlock(&lacp_mutex);
        return;
    }
    struct member *m;
    HMAP_FOR_EACH_SAFE (m, node, &lacp->members) {
        member_destroy(m);
    }
    ovs_list_remove(&lacp->list_node);
    if (lacp->name) {
        hmap_remove(&lacps_by_name, &lacp->name_node);
    }
    ovs_mutex_unlock(&lacp_mutex);

    hmap_destroy(&lacp->members);
    free(lacp->name);
    free(lacp);
}

bool
lacp_configure(struct lacp *lacp, const struct lacp_settings *s)
{
    if (!s->name || !s->name[0]) {
        VLOG_WARN("lacp: configuration without a name ignored");
        return false;
    }
    if (eth_addr_is_zero(s->id)) {
        VLOG_WARN("%s: LACP system ID must not be zero", s->name);
        return false;
    }

    ovs_mutex_lock(&lacp_mutex);
    if (!lacp->name || strcmp(lacp->name, s->name)) {
        if (lacp->name) {
            hmap_remove(&lacps_by_name, &lacp->name_node);
        }
        free(lacp->name);
        lacp->name = xstrdup(s->name);
        hmap_insert(&lacps_by_name, &lacp->name_node,
                    hash_string(lacp->name, 0));
    }
    if (!eth_addr_equals(lacp->sys_id, s->id)
        || lacp->sys_priority != s->priority) {
        lacp->sys_id = s->id;
        lacp->sys_priority = s->priority;
        lacp->update = true;
    }
    if (lacp->fallback_ab != s->fallback_ab) {
        lacp->fallback_ab = s->fallback_ab;
        lacp->update = true;
    }
    lacp->active = s->active;
    lacp->fast = s->fast;
    lacp->run_due = true;       /* What we say may have changed. */
    bool changed = lacp_settle(lacp);
    unlock_and_notify(lacp, changed);
    return true;
}

bool
lacp_is_active(const struct lacp *lacp)
{
    ovs_mutex_lock(&lacp_mutex);
    bool active = lacp->active;
    ovs_mutex_unlock(&lacp_mutex);
    return active;
}

void
lacp_set_change_callback(struct lacp *lacp, void (*cb)(void *aux), void *aux)
{
    ovs_mutex_lock(&lacp_mutex);
    lacp->change_cb = cb;
    lacp->change_aux = aux;
    ovs_mutex_unlock(&lacp_mutex);
}

void
lacp_member_register(struct lacp *lacp, void *aux,
                     const struct lacp_member_settings *s)
{
    long long int now = time_msec();

    ovs_mutex_lock(&lacp_mutex);
    struct member *m = member_lookup(lacp, aux);
    if (!m) {
        m = xzalloc(sizeof *m);
        m->lacp = lacp;
        m->aux = aux;
        m->order = lacp->next_order++;
        m->tx_deadline = LLONG_MIN;
        m->reported.status = -1;
        hmap_insert(&lacp->members, &m->node, hash_aux(aux));
        member_set_defaulted(m);
        if (!lacp->key_member) {
            lacp->key_member = m;
        }
        lacp->run_due = true;
    }
    const char *name = s->name ? s->name : "";
    if (!m->name || strcmp(m->name, name)) {
        free(m->name);
        m->name = xstrdup(name);
    }
    m->mac = s->mac;
    if (m->port_id != s->id || m->port_priority != s->priority
        || m->key != s->key) {
        m->port_id = s->id;
        m->port_priority = s->priority;
        m->key = s->key;
        lacp->update = true;
        lacp->run_due = true;
        /* Our identity on this link changed: renegotiate quickly. */
        if (lacp->active || lacp->negotiated) {
            member_set_expired(m, now);
        }
    }
    bool changed = lacp_settle(lacp);
    unlock_and_notify(lacp, changed);
}

void
lacp_member_unregister(struct lacp *lacp, const void *aux)
{
    ovs_mutex_lock(&lacp_mutex);
    struct member *m = member_lookup(lacp, aux);
    bool changed = false;
    if (m) {
        member_destroy(m);
        changed = lacp_settle(lacp);
    }
    unlock_and_notify(lacp, changed);
}

void
lacp_member_carrier_changed(struct lacp *lacp, const void *aux,
                            bool carrier_up)
{
    if (!lacp) {
        return;
    }
    long long int now = time_msec();

    ovs_mutex_lock(&lacp_mutex);
    struct member *m = member_lookup(lacp, aux);
    bool changed = false;
    if (m) {
        /* Whatever we knew of the partner may be stale now. */
        if (m->status == MEMBER_CURRENT || lacp->active) {
            member_set_expired(m, now);
        }
        if (m->carrier_up != carrier_up) {
            m->carrier_up = carrier_up;
            m->carrier_changed++;
        }
        lacp->run_due = true;
        changed = lacp_settle(lacp);
    }
    unlock_and_notify(lacp, changed);
}

/* The earliest time M needs lacp_run(). */
static long long int
member_deadline(const struct member *m)
{
    long long int d = LLONG_MAX;
    if (member_may_tx(m)) {
        d = m->tx_deadline;
    }
    if (m->status != MEMBER_DEFAULTED) {
        d = min_ll(d, m->rx_deadline);
    }
    return d;
}

bool
lacp_process_packet(struct lacp *lacp, const void *aux, const void *frame,
                    size_t len)
{
    long long int now = time_msec();
    struct lacp_info actor_tlv, partner_tlv;
    bool changed = false;

    ovs_mutex_lock(&lacp_mutex);
    struct member *m = member_lookup(lacp, aux);
    if (!m) {
        goto out;
    }
    m->rx_pdus++;

    switch (lacp_pdu_parse(frame, len, &actor_tlv, &partner_tlv)) {
    case LACP_PDU_LACP:
        break;
    case LACP_PDU_MARKER:
        /* We send no markers, so a marker response is never awaited, and
         * 3.1 answers no marker requests either. */
        m->rx_markers++;
        VLOG_DBG("%s: received a LACP marker PDU", m->name);
        goto out;
    case LACP_PDU_BAD:
    default:
        m->rx_errors++;
        VLOG_WARN_RL(&rl, "%s: received an unparsable LACP PDU on %s "
                     "(%zu bytes)", lacp->name ? lacp->name : "(unnamed)",
                     m->name, len);
        goto out;
    }

    /* Some NICs report carrier late: a PDU on a link we believe down is
     * dropped, and connectivity_seq moves so that the caller reads the
     * carrier again. */
    if (!m->carrier_up) {
        VLOG_INFO_RL(&rl, "%s: carrier state is DOWN, dropping received "
                     "LACP PDU", m->name);
        seq_change(connectivity_seq_get());
        goto out;
    }

    m->status = MEMBER_CURRENT;
    m->rx_deadline = now + LACP_RX_MULTIPLIER * (lacp->fast
                                                 ? LACP_FAST_TX_INTERVAL
                                                 : LACP_SLOW_TX_INTERVAL);
    m->ntt_actor = partner_tlv;
    if (!lacp_info_equal(&m->partner, &actor_tlv)) {
        m->partner = actor_tlv;
        lacp->update = true;
    }
    changed = lacp_settle(lacp);

    /* A reply is due now if the partner's view of us is wrong. */
    struct lacp_info actor;
    member_get_actor(m, &actor);
    if (member_may_tx(m) && actor_needs_tx(&actor, &m->ntt_actor)) {
        lacp->run_due = true;
    }
    lacp->next_deadline = min_ll(lacp->next_deadline, member_deadline(m));

out:
    unlock_and_notify(lacp, changed);
    return changed;
}

/* A frame lacp_run() composed, sent once lacp_mutex is released. */
struct pending_tx {
    void *aux;
    uint8_t frame[LACP_FRAME_LEN];
};

long long int
lacp_run(struct lacp *lacp, long long int now, lacp_send_cb *send,
         void *cb_aux)
{
    struct pending_tx *tx = NULL;
    size_t n_tx = 0;
    struct member *m;

    ovs_mutex_lock(&lacp_mutex);
    if (!lacp->name) {
        /* Not configured: nothing to say yet. */
        lacp->run_due = false;
        lacp->next_deadline = LLONG_MAX;
        ovs_mutex_unlock(&lacp_mutex);
        return LLONG_MAX;
    }

    HMAP_FOR_EACH (m, node, &lacp->members) {
        if (m->status != MEMBER_DEFAULTED && m->rx_deadline <= now) {
            if (m->status == MEMBER_CURRENT) {
                member_set_expired(m, now);
                m->link_expired++;
            } else {
                member_set_defaulted(m);
                m->link_defaulted++;
            }
        }
    }
    bool changed = lacp_settle(lacp);

    long long int next = LLONG_MAX;
    HMAP_FOR_EACH (m, node, &lacp->members) {
        if (member_may_tx(m)) {
            struct lacp_info actor;
            member_get_actor(m, &actor);
            if (m->tx_deadline <= now
                || actor_needs_tx(&actor, &m->ntt_actor)) {
                if (!tx) {
                    tx = xmalloc(hmap_count(&lacp->members) * sizeof *tx);
                }
                m->ntt_actor = actor;
                tx[n_tx].aux = m->aux;
                lacp_compose_pdu(tx[n_tx].frame, m->mac, &actor, &m->partner);
                n_tx++;
                m->tx_pdus++;
                /* The partner's timeout bit sets our rate. */
                m->tx_deadline = now + (m->partner.state & LACP_STATE_TIMEOUT
                                        ? LACP_FAST_TX_INTERVAL
                                        : LACP_SLOW_TX_INTERVAL);
            }
        }
        next = min_ll(next, member_deadline(m));
    }
    lacp->run_due = false;
    lacp->next_deadline = next;
    unlock_and_notify(lacp, changed);

    for (size_t i = 0; i < n_tx; i++) {
        send(tx[i].aux, tx[i].frame, LACP_FRAME_LEN, cb_aux);
    }
    free(tx);
    return next;
}

long long int
lacp_next_deadline(const struct lacp *lacp)
{
    ovs_mutex_lock(&lacp_mutex);
    long long int d = (!lacp->name ? LLONG_MAX
                       : lacp->run_due ? LLONG_MIN
                       : lacp->next_deadline);
    ovs_mutex_unlock(&lacp_mutex);
    return d;
}

bool
lacp_recognizes(const struct flow *flow, struct flow_wildcards *wc)
{
    /* 3.1 consumes every slow-protocols frame on an LACP port, whatever
     * its subtype or destination; only the type is looked at. */
    if (wc) {
        wc->masks.dl_type = htons(0xffff);
    }
    return flow->dl_type == htons(ETH_TYPE_SLOW_PROTOCOLS);
}

/* State for bonds. */

enum lacp_status
lacp_status(const struct lacp *lacp)
{
    if (!lacp) {
        return LACP_DISABLED;
    }
    ovs_mutex_lock(&lacp_mutex);
    bool negotiated = lacp->negotiated;
    ovs_mutex_unlock(&lacp_mutex);
    return negotiated ? LACP_NEGOTIATED : LACP_CONFIGURED;
}

bool
lacp_member_may_enable(const struct lacp *lacp, const void *aux)
{
    if (!lacp) {
        return true;
    }
    ovs_mutex_lock(&lacp_mutex);
    const struct member *m = member_lookup(lacp, aux);
    bool may = m && member_may_enable__(m);
    ovs_mutex_unlock(&lacp_mutex);
    return may;
}

bool
lacp_member_is_current(const struct lacp *lacp, const void *aux)
{
    if (!lacp) {
        return false;
    }
    ovs_mutex_lock(&lacp_mutex);
    const struct member *m = member_lookup(lacp, aux);
    bool current = m && m->status != MEMBER_DEFAULTED;
    ovs_mutex_unlock(&lacp_mutex);
    return current;
}

bool
lacp_get_member_stats(const struct lacp *lacp, const void *aux,
                      struct lacp_member_stats *s)
{
    if (!lacp) {
        return false;
    }
    ovs_mutex_lock(&lacp_mutex);
    const struct member *m = member_lookup(lacp, aux);
    if (m) {
        memset(s, 0, sizeof *s);
        member_get_actor(m, &s->actor);
        s->partner = m->partner;
        s->current = m->status == MEMBER_CURRENT;
        s->expired = m->status == MEMBER_EXPIRED;
        s->defaulted = m->status == MEMBER_DEFAULTED;
        s->attached = m->attached;
        s->may_enable = member_may_enable__(m);
        s->carrier_up = m->carrier_up;
        s->rx_pdus = m->rx_pdus;
        s->rx_errors = m->rx_errors;
        s->rx_markers = m->rx_markers;
        s->tx_pdus = m->tx_pdus;
        s->link_expired = m->link_expired;
        s->link_defaulted = m->link_defaulted;
        s->carrier_changed = m->carrier_changed;
    }
    ovs_mutex_unlock(&lacp_mutex);
    return m != NULL;
}

bool
lacp_member_take_changed(struct lacp *lacp, const void *aux)
{
    if (!lacp) {
        return false;
    }
    ovs_mutex_lock(&lacp_mutex);
    struct member *m = member_lookup(lacp, aux);
    bool changed = m && m->changed;
    if (m) {
        m->changed = false;
    }
    ovs_mutex_unlock(&lacp_mutex);
    return changed;
}

size_t
lacp_take_changed_members(struct lacp *lacp, void ***auxesp)
{
    struct member *m;
    size_t n = 0;

    ovs_mutex_lock(&lacp_mutex);
    void **auxes = xmalloc((hmap_count(&lacp->members) + 1) * sizeof *auxes);
    HMAP_FOR_EACH (m, node, &lacp->members) {
        if (m->changed) {
            m->changed = false;
            auxes[n++] = m->aux;
        }
    }
    ovs_mutex_unlock(&lacp_mutex);
    *auxesp = auxes;
    return n;
}

/* lacp/show and lacp/show-stats. */

static struct lacp *
lacp_find(const char *name)
{
    struct lacp *lacp;
    HMAP_FOR_EACH_WITH_HASH (lacp, name_node, hash_string(name, 0),
                             &lacps_by_name) {
        if (!strcmp(lacp->name, name)) {
            return lacp;
        }
    }
    return NULL;
}

static int
compare_member_names(const void *a_, const void *b_)
{
    const struct member *const *a = a_;
    const struct member *const *b = b_;
    return strcmp((*a)->name, (*b)->name);
}

/* LACP's members sorted by name, in a malloc'd array. */
static struct member **
sorted_members(const struct lacp *lacp, size_t *n)
{
    struct member **members = xmalloc((hmap_count(&lacp->members) + 1)
                                      * sizeof *members);
    struct member *m;
    *n = 0;
    HMAP_FOR_EACH (m, node, &lacp->members) {
        members[(*n)++] = m;
    }
    qsort(members, *n, sizeof *members, compare_member_names);
    return members;
}

static void
put_info(struct ds *ds, const char *who, const struct lacp_info *info)
{
    ds_put_format(ds, "  %s sys_id: " ETH_ADDR_FMT "\n", who,
                  ETH_ADDR_ARGS(info->sys_id));
    ds_put_format(ds, "  %s sys_priority: %u\n", who, info->sys_priority);
    ds_put_format(ds, "  %s port_id: %u\n", who, info->port_id);
    ds_put_format(ds, "  %s port_priority: %u\n", who, info->port_priority);
    ds_put_format(ds, "  %s key: %u\n", who, info->key);
    ds_put_format(ds, "  %s state:", who);
    lacp_state_format(ds, info->state);
    ds_put_char(ds, '\n');
}

static void
print_details(struct ds *ds, const struct lacp *lacp)
{
    static const char *const status_names[] = {
        [MEMBER_CURRENT] = "current",
        [MEMBER_EXPIRED] = "expired",
        [MEMBER_DEFAULTED] = "defaulted",
    };

    ds_put_format(ds, "---- %s ----\n", lacp->name);
    ds_put_format(ds, "  status: %s%s\n",
                  lacp->active ? "active" : "passive",
                  lacp->negotiated ? " negotiated" : "");
    ds_put_format(ds, "  sys_id: " ETH_ADDR_FMT "\n",
                  ETH_ADDR_ARGS(lacp->sys_id));
    ds_put_format(ds, "  sys_priority: %u\n", lacp->sys_priority);
    if (lacp->key_member) {
        ds_put_format(ds, "  aggregation key: %u\n", lacp_key(lacp));
    } else {
        ds_put_cstr(ds, "  aggregation key: none\n");
    }
    ds_put_format(ds, "  lacp_time: %s\n", lacp->fast ? "fast" : "slow");

    size_t n;
    struct member **members = sorted_members(lacp, &n);
    for (size_t i = 0; i < n; i++) {
        const struct member *m = members[i];
        struct lacp_info actor;

        member_get_actor(m, &actor);
        ds_put_format(ds, "\nmember: %s: %s %s\n", m->name,
                      status_names[m->status],
                      m->attached ? "attached" : "detached");
        ds_put_format(ds, "  port_id: %u\n", m->port_id);
        ds_put_format(ds, "  port_priority: %u\n", m->port_priority);
        ds_put_format(ds, "  may_enable: %s\n",
                      member_may_enable__(m) ? "true" : "false");
        ds_put_char(ds, '\n');
        put_info(ds, "actor", &actor);
        ds_put_char(ds, '\n');
        put_info(ds, "partner", &m->partner);
    }
    free(members);
}

static void
print_stats(struct ds *ds, const struct lacp *lacp)
{
    ds_put_format(ds, "---- %s statistics ----\n", lacp->name);

    size_t n;
    struct member **members = sorted_members(lacp, &n);
    for (size_t i = 0; i < n; i++) {
        const struct member *m = members[i];
        ds_put_format(ds, "\nmember: %s:\n", m->name);
        ds_put_format(ds, "  TX PDUs: %"PRIu32"\n", m->tx_pdus);
        ds_put_format(ds, "  RX PDUs: %"PRIu32"\n", m->rx_pdus);
        ds_put_format(ds, "  RX Bad PDUs: %"PRIu32"\n", m->rx_errors);
        ds_put_format(ds, "  RX Marker Request PDUs: %"PRIu32"\n",
                      m->rx_markers);
        ds_put_format(ds, "  Link Expired: %"PRIu32"\n", m->link_expired);
        ds_put_format(ds, "  Link Defaulted: %"PRIu32"\n",
                      m->link_defaulted);
        ds_put_format(ds, "  Carrier Status Changed: %"PRIu32"\n",
                      m->carrier_changed);
    }
    free(members);
}

static bool
show__(struct ds *ds, const char *name,
       void (*print)(struct ds *, const struct lacp *))
{
    bool found = true;

    ovs_mutex_lock(&lacp_mutex);
    if (name) {
        const struct lacp *lacp = lacp_find(name);
        if (lacp) {
            print(ds, lacp);
        } else {
            found = false;
        }
    } else {
        const struct lacp *lacp;
        LIST_FOR_EACH (lacp, list_node, &all_lacps) {
            if (lacp->name) {
                print(ds, lacp);
            }
        }
    }
    ovs_mutex_unlock(&lacp_mutex);
    return found;
}

bool
lacp_show(struct ds *ds, const char *name)
{
    return show__(ds, name, print_details);
}

bool
lacp_show_stats(struct ds *ds, const char *name)
{
    return show__(ds, name, print_stats);
}

static void
unixctl_show__(struct unixctl_conn *conn, int argc, const char *argv[],
               bool (*show)(struct ds *, const char *))
{
    struct ds ds;
    ds_init(&ds);
    if (show(&ds, argc > 1 ? argv[1] : NULL)) {
        unixctl_command_reply(conn, ds_cstr(&ds));
    } else {
        unixctl_command_reply_error(conn, "no such lacp object");
    }
    ds_destroy(&ds);
}

static void
lacp_unixctl_show(struct unixctl_conn *conn, int argc, const char *argv[],
                  void *aux OVS_UNUSED)
{
    unixctl_show__(conn, argc, argv, lacp_show);
}

static void
lacp_unixctl_show_stats(struct unixctl_conn *conn, int argc,
                        const char *argv[], void *aux OVS_UNUSED)
{
    unixctl_show__(conn, argc, argv, lacp_show_stats);
}
