/* rstp-sm: the state machines of 802.1D-2004 clause 17 (17.21 procedures,
 * 17.23 to 17.31 machines) over the variables in rstp-private.h.
 *
 * Each machine is a step function: it looks at the variables, and if one of
 * its transitions holds it enters the new state (doing that state's
 * actions) and says so.  A state left unconditionally ("UCT" in the
 * standard) passes straight on in the same step.  rstp_sm_run() steps all
 * machines of a bridge until none moves, which is how the standard's
 * machines behave when every transition is taken as soon as its condition
 * holds. */
#include <config.h>
#include "rstp-private.h"

#include <string.h>
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(rstp_sm);

#define ADDRESS_MASK UINT64_C(0xffffffffffff)
#define PORT_NUMBER_MASK 0x0fff

/* Safeguard: a bridge settles in a few steps per port; a bug that made two
 * machines chase each other must not hang the switch. */
#define MAX_ROUNDS 10000

/* 17.20: conditions and parameters. */

static bool
rstp_version(const struct rstp *rstp)
{
    return rstp->force_protocol_version >= 2;
}

static uint16_t
hello_time(const struct rstp_port *p)
{
    return p->designated_times.hello_time;
}

static uint16_t
fwd_delay(const struct rstp_port *p)
{
    return p->designated_times.forward_delay;
}

static uint16_t
max_age(const struct rstp_port *p)
{
    return p->designated_times.max_age;
}

/* 17.20.5 forwardDelay: with RSTP the hello time suffices, since the
 * partner answers proposals; with STP we wait the full delay. */
static uint16_t
forward_delay(const struct rstp_port *p)
{
    return p->send_rstp ? hello_time(p) : fwd_delay(p);
}

/* 17.20.4 EdgeDelay.  Every port is taken as point-to-point (our links are
 * full duplex), so it is always the migrate time. */
static uint16_t
edge_delay(const struct rstp_port *p OVS_UNUSED)
{
    return RSTP_MIGRATE_TIME;
}

/* 17.20.3 allSynced: every port is settled in its selected role and in
 * sync, the root port excepted (it is the one asking). */
static bool
all_synced(const struct rstp *rstp)
{
    struct rstp_port *p;

    LIST_FOR_EACH (p, list_node, &rstp->port_list) {
        if (!p->selected || p->role != p->selected_role || p->updt_info
            || (!p->synced && p->role != RSTP_ROLE_ROOT)) {
            return false;
        }
    }
    return true;
}

/* 17.20.10 reRooted: no other port was recently a root port. */
static bool
re_rooted(const struct rstp_port *port)
{
    struct rstp_port *p;

    LIST_FOR_EACH (p, list_node, &port->rstp->port_list) {
        if (p != port && p->rr_while) {
            return false;
        }
    }
    return true;
}

/* Priority vectors (17.6). */

static int
cmp_u64(uint64_t a, uint64_t b)
{
    return a < b ? -1 : a > b;
}

/* Compares the four components a message carries. */
static int
priority_cmp4(const struct rstp_priority *a, const struct rstp_priority *b)
{
    int c = cmp_u64(a->root_id, b->root_id);
    if (!c) {
        c = cmp_u64(a->root_path_cost, b->root_path_cost);
    }
    if (!c) {
        c = cmp_u64(a->designated_bridge_id, b->designated_bridge_id);
    }
    if (!c) {
        c = cmp_u64(a->designated_port_id, b->designated_port_id);
    }
    return c;
}

/* Adds the receiving port, which breaks ties between two ports that hear
 * the same designated port (root selection only). */
static int
priority_cmp5(const struct rstp_priority *a, const struct rstp_priority *b)
{
    int c = priority_cmp4(a, b);
    return c ? c : cmp_u64(a->bridge_port_id, b->bridge_port_id);
}

/* Whether two vectors come from the same designated port, whatever
 * priorities its bridge and port had then (17.6's second case of
 * "superior"). */
static bool
same_designated_port(const struct rstp_priority *a,
                     const struct rstp_priority *b)
{
    return ((a->designated_bridge_id & ADDRESS_MASK)
            == (b->designated_bridge_id & ADDRESS_MASK)
            && ((a->designated_port_id & PORT_NUMBER_MASK)
                == (b->designated_port_id & PORT_NUMBER_MASK)));
}

static bool
times_equal(const struct rstp_times *a, const struct rstp_times *b)
{
    return (a->message_age == b->message_age && a->max_age == b->max_age
            && a->forward_delay == b->forward_delay
            && a->hello_time == b->hello_time);
}

/* Reporting. */

static void
set_role(struct rstp_port *p, enum rstp_port_role role)
{
    if (p->role != role) {
        p->role = role;
        rstp_port_note_change(p);
    }
}

void
rstp_sm_update_state(struct rstp_port *p)
{
    enum rstp_state state = (!p->port_enabled ? RSTP_DISABLED
                             : p->pst == PST_FORWARDING ? RSTP_FORWARDING
                             : p->pst == PST_LEARNING ? RSTP_LEARNING
                             : RSTP_DISCARDING);
    if (p->state != state) {
        VLOG_DBG("%s: port %d: %s -> %s", p->rstp->name, p->port_no,
                 rstp_state_name(p->state), rstp_state_name(state));
        p->state = state;
        rstp_port_note_change(p);
    }
}

/* 17.21 procedures. */

/* 17.21.1 betterorsameInfo(). */
static bool
better_or_same_info(const struct rstp_port *p, enum rstp_info_is new_info_is)
{
    if (new_info_is == INFO_RECEIVED && p->info_is == INFO_RECEIVED) {
        return priority_cmp4(&p->msg_priority, &p->port_priority) <= 0;
    } else if (new_info_is == INFO_MINE && p->info_is == INFO_MINE) {
        return priority_cmp4(&p->designated_priority, &p->port_priority) <= 0;
    }
    return false;
}

/* The role the received BPDU claims for its sender (a Configuration BPDU
 * always comes from a designated port). */
static enum rstp_bpdu_role
rcvd_role(const struct rstp_port *p)
{
    switch (p->rcvd.type) {
    case RSTP_BPDU_CONFIG:
        return RSTP_BPDU_ROLE_DESIGNATED;
    case RSTP_BPDU_RST:
        return rstp_bpdu_role(&p->rcvd);
    case RSTP_BPDU_TCN:
    default:
        return RSTP_BPDU_ROLE_UNKNOWN;
    }
}

static uint16_t
clamp(uint16_t x, uint16_t min, uint16_t max)
{
    return x < min ? min : x > max ? max : x;
}

/* 17.21.8 rcvInfo(): also fills msgPriority and msgTimes. */
static enum rstp_rcvd_info
rcv_info(struct rstp_port *p)
{
    const struct rstp_bpdu *b = &p->rcvd;
    enum rstp_bpdu_role role = rcvd_role(p);

    if (role == RSTP_BPDU_ROLE_UNKNOWN) {
        return RCVD_OTHER;
    }
    p->msg_priority = (struct rstp_priority) {
        .root_id = b->root_id,
        .root_path_cost = b->root_path_cost,
        .designated_bridge_id = b->bridge_id,
        .designated_port_id = b->port_id,
        .bridge_port_id = p->port_id,
    };
    /* The partner's timer values become ours if it is on the root path:
     * nonsense (a Max Age of 0, a Hello Time of 200 s) is held to the
     * ranges management could have set (17.13, 17.14). */
    p->msg_times = (struct rstp_times) {
        .message_age = b->message_age,
        .max_age = clamp(b->max_age, RSTP_MIN_MAX_AGE, RSTP_MAX_MAX_AGE),
        .forward_delay = clamp(b->forward_delay, RSTP_MIN_FORWARD_DELAY,
                               RSTP_MAX_FORWARD_DELAY),
        .hello_time = clamp(b->hello_time, 1, 10),
    };

    int cmp = priority_cmp4(&p->msg_priority, &p->port_priority);
    if (role == RSTP_BPDU_ROLE_DESIGNATED) {
        if (cmp < 0
            || (cmp > 0 && same_designated_port(&p->msg_priority,
                                                &p->port_priority))
            || (!cmp && !times_equal(&p->msg_times, &p->port_times))) {
            return RCVD_SUPERIOR_DESIGNATED;
        }
        return !cmp ? RCVD_REPEATED_DESIGNATED : RCVD_INFERIOR_DESIGNATED;
    } else if (cmp >= 0) {
        return RCVD_INFERIOR_ROOT_ALTERNATE;
    }
    return RCVD_OTHER;
}

/* 17.21.11 recordProposal(). */
static void
record_proposal(struct rstp_port *p)
{
    if (rcvd_role(p) == RSTP_BPDU_ROLE_DESIGNATED
        && p->rcvd.flags & RSTP_FLAG_PROPOSAL) {
        p->proposed = true;
    }
}

/* 17.21.17 setTcFlags(). */
static void
set_tc_flags(struct rstp_port *p)
{
    if (p->rcvd.type == RSTP_BPDU_TCN) {
        p->rcvd_tcn = true;
        return;
    }
    if (p->rcvd.flags & RSTP_FLAG_TC) {
        p->rcvd_tc = true;
    }
    if (p->rcvd.flags & RSTP_FLAG_TC_ACK) {
        p->rcvd_tc_ack = true;
    }
}

/* 17.21.10 recordDispute(): a designated port that hears inferior
 * information from a port that is learning or forwarding must not
 * forward itself. */
static void
record_dispute(struct rstp_port *p)
{
    if (p->rcvd.type == RSTP_BPDU_RST && p->rcvd.flags & RSTP_FLAG_LEARNING) {
        p->disputed = true;
        p->agreed = false;
    }
}

/* 17.21.9 recordAgreement(). */
static void
record_agreement(struct rstp_port *p)
{
    if (rstp_version(p->rstp) && p->rcvd.type == RSTP_BPDU_RST
        && p->rcvd.flags & RSTP_FLAG_AGREEMENT) {
        p->agreed = true;
        p->proposing = false;
    } else {
        p->agreed = false;
    }
}

/* 17.21.23 updtRcvdInfoWhile(). */
static void
updt_rcvd_info_while(struct rstp_port *p)
{
    const struct rstp_times *t = &p->port_times;
    p->rcvd_info_while = (t->message_age + 1 <= t->max_age
                          ? 3 * t->hello_time : 0);
}

/* 17.21.7 newTcWhile(). */
static void
new_tc_while(struct rstp_port *p)
{
    if (!p->tc_while) {
        if (p->send_rstp) {
            p->tc_while = hello_time(p) + 1;
            p->new_info = true;
        } else {
            p->tc_while = p->rstp->root_times.max_age
                          + p->rstp->root_times.forward_delay;
        }
    }
}

/* 17.21.18 setTcPropTree(). */
static void
set_tc_prop_tree(struct rstp_port *port)
{
    struct rstp_port *p;

    LIST_FOR_EACH (p, list_node, &port->rstp->port_list) {
        if (p != port) {
            p->tc_prop = true;
        }
    }
}

/* 17.21.14 setSyncTree() and 17.21.15 setReRootTree(). */
static void
set_sync_tree(struct rstp *rstp)
{
    struct rstp_port *p;

    LIST_FOR_EACH (p, list_node, &rstp->port_list) {
        p->sync = true;
    }
}

static void
set_re_root_tree(struct rstp *rstp)
{
    struct rstp_port *p;

    LIST_FOR_EACH (p, list_node, &rstp->port_list) {
        p->re_root = true;
    }
}

/* The filtering database forgets what this port learned (17.19.7
 * fdbFlush): the switch does it when it takes the change, so to the
 * machines it is done at once. */
static void
flush_fdb(struct rstp_port *p)
{
    p->fdb_flush = false;
    if (p->may_have_macs || p->learning) {
        p->may_have_macs = p->learning;
        p->flush_pending = true;
        p->rstp->fdb_flush = true;
        rstp_port_note_change(p);
    }
}

/* 17.21.19 txConfig(), 17.21.20 txRstp(), 17.21.21 txTcn(). */
static void
transmit(struct rstp_port *p, enum rstp_bpdu_type type)
{
    struct rstp_bpdu bpdu = { .type = type };
    uint8_t buf[RSTP_BPDU_MAX_LEN];

    if (type != RSTP_BPDU_TCN) {
        const struct rstp_priority *v = &p->designated_priority;
        const struct rstp_times *t = &p->designated_times;

        bpdu.root_id = v->root_id;
        bpdu.root_path_cost = v->root_path_cost;
        bpdu.bridge_id = v->designated_bridge_id;
        bpdu.port_id = v->designated_port_id;
        bpdu.message_age = t->message_age;
        bpdu.max_age = t->max_age;
        bpdu.hello_time = t->hello_time;
        bpdu.forward_delay = t->forward_delay;
        if (p->tc_while) {
            bpdu.flags |= RSTP_FLAG_TC;
        }
    }
    if (type == RSTP_BPDU_CONFIG && p->tc_ack) {
        bpdu.flags |= RSTP_FLAG_TC_ACK;
    }
    if (type == RSTP_BPDU_RST) {
        enum rstp_bpdu_role role = (p->role == RSTP_ROLE_ROOT
                                    ? RSTP_BPDU_ROLE_ROOT
                                    : p->role == RSTP_ROLE_DESIGNATED
                                    ? RSTP_BPDU_ROLE_DESIGNATED
                                    : RSTP_BPDU_ROLE_ALT_BACKUP);
        bpdu.version = 2;
        bpdu.flags |= role << RSTP_FLAG_ROLE_SHIFT;
        if (p->proposing) {
            bpdu.flags |= RSTP_FLAG_PROPOSAL;
        }
        if (p->learning) {
            bpdu.flags |= RSTP_FLAG_LEARNING;
        }
        if (p->forwarding) {
            bpdu.flags |= RSTP_FLAG_FORWARDING;
        }
        if (p->agree) {
            bpdu.flags |= RSTP_FLAG_AGREEMENT;
        }
    }
    size_t len = rstp_bpdu_encode(&bpdu, buf);
    p->stats.tx_count++;
    p->rstp->send_bpdu(buf, len, p->port_no, p->rstp->aux);
}

/* 17.21.25 updtRolesTree(), with 17.21.2 clearReselectTree() before it and
 * 17.21.16 setSelectedTree() after it: Port Role Selection's
 * ROLE_SELECTION state. */
static void
updt_roles_tree(struct rstp *rstp)
{
    struct rstp_priority best = rstp->bridge_priority;
    struct rstp_port *root_port = NULL;
    struct rstp_port *p;

    LIST_FOR_EACH (p, list_node, &rstp->port_list) {
        p->reselect = false;
    }

    /* The root path priority vector of each port with received
     * information, except information this bridge sent itself. */
    LIST_FOR_EACH (p, list_node, &rstp->port_list) {
        if (p->info_is != INFO_RECEIVED
            || ((p->port_priority.designated_bridge_id & ADDRESS_MASK)
                == rstp->address)) {
            continue;
        }
        struct rstp_priority cand = p->port_priority;
        uint64_t cost = (uint64_t) cand.root_path_cost + p->path_cost;
        cand.root_path_cost = cost > UINT32_MAX ? UINT32_MAX : cost;
        cand.bridge_port_id = p->port_id;
        if (priority_cmp5(&cand, &best) < 0) {
            best = cand;
            root_port = p;
        }
    }
    rstp->root_priority = best;
    rstp->root_port_id = root_port ? root_port->port_id : 0;
    rstp->root_port = root_port;
    if (root_port) {
        rstp->root_times = root_port->port_times;
        rstp->root_times.message_age++;
    } else {
        rstp->root_times = rstp->bridge_times;
    }

    LIST_FOR_EACH (p, list_node, &rstp->port_list) {
        p->designated_priority = (struct rstp_priority) {
            .root_id = best.root_id,
            .root_path_cost = best.root_path_cost,
            .designated_bridge_id = rstp->bridge_id,
            .designated_port_id = p->port_id,
            .bridge_port_id = p->port_id,
        };
        p->designated_times = rstp->root_times;
        p->designated_times.hello_time = rstp->bridge_times.hello_time;

        switch (p->info_is) {
        case INFO_DISABLED:
            p->selected_role = RSTP_ROLE_DISABLED;
            break;
        case INFO_AGED:
            p->selected_role = RSTP_ROLE_DESIGNATED;
            p->updt_info = true;
            break;
        case INFO_MINE:
            p->selected_role = RSTP_ROLE_DESIGNATED;
            if (priority_cmp4(&p->port_priority, &p->designated_priority)
                || !times_equal(&p->port_times, &p->designated_times)) {
                p->updt_info = true;
            }
            break;
        case INFO_RECEIVED:
            if (p == root_port) {
                p->selected_role = RSTP_ROLE_ROOT;
                p->updt_info = false;
            } else if (priority_cmp4(&p->designated_priority,
                                     &p->port_priority) >= 0) {
                /* The LAN has a better designated port than we could be:
                 * another bridge's (alternate) or our own (backup). */
                bool ours = ((p->port_priority.designated_bridge_id
                              & ADDRESS_MASK) == rstp->address);
                p->selected_role = (ours ? RSTP_ROLE_BACKUP
                                    : RSTP_ROLE_ALTERNATE);
                p->updt_info = false;
            } else {
                p->selected_role = RSTP_ROLE_DESIGNATED;
                p->updt_info = true;
            }
            break;
        }
    }

    LIST_FOR_EACH (p, list_node, &rstp->port_list) {
        p->selected = true;
    }
}

/* 17.23 Port Receive. */

static void
prx_enter(struct rstp_port *p, enum prx_state s)
{
    p->prx = s;
    switch (s) {
    case PRX_DISCARD:
        p->rcvd_bpdu = p->rcvd_rstp = p->rcvd_stp = false;
        p->rcvd_msg = false;
        p->edge_delay_while = RSTP_MIGRATE_TIME;
        break;
    case PRX_RECEIVE:
        /* 17.21.22 updtBPDUVersion(). */
        if (p->rcvd.type == RSTP_BPDU_RST) {
            p->rcvd_rstp = true;
        } else {
            p->rcvd_stp = true;
        }
        p->oper_edge = p->rcvd_bpdu = false;
        p->rcvd_msg = true;
        p->edge_delay_while = RSTP_MIGRATE_TIME;
        break;
    }
}

static bool
prx_step(struct rstp_port *p)
{
    if ((p->rcvd_bpdu || p->edge_delay_while != RSTP_MIGRATE_TIME)
        && !p->port_enabled) {
        prx_enter(p, PRX_DISCARD);
        return true;
    }
    switch (p->prx) {
    case PRX_DISCARD:
        if (p->rcvd_bpdu && p->port_enabled) {
            prx_enter(p, PRX_RECEIVE);
            return true;
        }
        break;
    case PRX_RECEIVE:
        if (p->rcvd_bpdu && p->port_enabled && !p->rcvd_msg) {
            prx_enter(p, PRX_RECEIVE);
            return true;
        }
        break;
    }
    return false;
}

/* 17.24 Port Protocol Migration. */

static void
ppm_enter(struct rstp_port *p, enum ppm_state s)
{
    p->ppm = s;
    switch (s) {
    case PPM_CHECKING_RSTP:
        p->mcheck = false;
        p->send_rstp = rstp_version(p->rstp);
        p->mdelay_while = RSTP_MIGRATE_TIME;
        break;
    case PPM_SELECTING_STP:
        p->send_rstp = false;
        p->mdelay_while = RSTP_MIGRATE_TIME;
        break;
    case PPM_SENSING:
        p->rcvd_rstp = p->rcvd_stp = false;
        break;
    }
}

static bool
ppm_step(struct rstp_port *p)
{
    enum ppm_state next;

    switch (p->ppm) {
    case PPM_CHECKING_RSTP:
        if (!p->mdelay_while) {
            next = PPM_SENSING;
        } else if (p->mdelay_while != RSTP_MIGRATE_TIME && !p->port_enabled) {
            next = PPM_CHECKING_RSTP;
        } else {
            return false;
        }
        break;
    case PPM_SELECTING_STP:
        if (!p->mdelay_while || !p->port_enabled || p->mcheck) {
            next = PPM_SENSING;
        } else {
            return false;
        }
        break;
    case PPM_SENSING:
        if (!p->port_enabled || p->mcheck
            || (rstp_version(p->rstp) && !p->send_rstp && p->rcvd_rstp)) {
            next = PPM_CHECKING_RSTP;
        } else if (p->send_rstp && p->rcvd_stp) {
            next = PPM_SELECTING_STP;
        } else {
            return false;
        }
        break;
    default:
        return false;
    }
    ppm_enter(p, next);
    return true;
}

/* 17.25 Bridge Detection. */

static bool
bdm_step(struct rstp_port *p)
{
    switch (p->bdm) {
    case BDM_EDGE:
        if ((!p->port_enabled && !p->admin_edge) || !p->oper_edge) {
            p->bdm = BDM_NOT_EDGE;
            p->oper_edge = false;
            return true;
        }
        break;
    case BDM_NOT_EDGE:
        if ((!p->port_enabled && p->admin_edge)
            || (!p->edge_delay_while && p->auto_edge && p->send_rstp
                && p->proposing)) {
            p->bdm = BDM_EDGE;
            p->oper_edge = true;
            return true;
        }
        break;
    }
    return false;
}

/* 17.26 Port Transmit. */

static void
ptx_enter(struct rstp_port *p, enum ptx_state s)
{
    p->ptx = s;
    switch (s) {
    case PTX_TRANSMIT_INIT:
        p->new_info = true;
        p->tx_count = 0;
        break;
    case PTX_IDLE:
        p->hello_when = hello_time(p);
        break;
    case PTX_TRANSMIT_PERIODIC:
        p->new_info = (p->new_info || p->role == RSTP_ROLE_DESIGNATED
                       || (p->role == RSTP_ROLE_ROOT && p->tc_while));
        break;
    case PTX_TRANSMIT_CONFIG:
        p->new_info = false;
        transmit(p, RSTP_BPDU_CONFIG);
        p->tx_count++;
        p->tc_ack = false;
        break;
    case PTX_TRANSMIT_TCN:
        p->new_info = false;
        transmit(p, RSTP_BPDU_TCN);
        p->tx_count++;
        break;
    case PTX_TRANSMIT_RSTP:
        p->new_info = false;
        transmit(p, RSTP_BPDU_RST);
        p->tx_count++;
        p->tc_ack = false;
        break;
    }
}

static bool
ptx_step(struct rstp_port *p)
{
    if (p->ptx != PTX_IDLE) {
        /* Every state but IDLE passes on unconditionally. */
        ptx_enter(p, PTX_IDLE);
        return true;
    }
    /* A port that is down, or has no role yet, says nothing. */
    if (!p->selected || p->updt_info || !p->port_enabled
        || p->role == RSTP_ROLE_DISABLED) {
        return false;
    }
    bool may_send = (p->new_info && p->tx_count < p->rstp->transmit_hold_count
                     && p->hello_when);
    enum ptx_state next;
    if (!p->hello_when) {
        next = PTX_TRANSMIT_PERIODIC;
    } else if (may_send && p->send_rstp) {
        next = PTX_TRANSMIT_RSTP;
    } else if (may_send && p->role == RSTP_ROLE_ROOT) {
        next = PTX_TRANSMIT_TCN;
    } else if (may_send && p->role == RSTP_ROLE_DESIGNATED) {
        next = PTX_TRANSMIT_CONFIG;
    } else {
        return false;
    }
    ptx_enter(p, next);
    return true;
}

/* 17.27 Port Information. */

static void
pim_enter(struct rstp_port *p, enum pim_state s)
{
    p->pim = s;
    switch (s) {
    case PIM_DISABLED:
        p->rcvd_msg = false;
        p->proposing = p->proposed = p->agree = p->agreed = false;
        p->rcvd_info_while = 0;
        p->info_is = INFO_DISABLED;
        p->reselect = true;
        p->selected = false;
        break;
    case PIM_AGED:
        p->info_is = INFO_AGED;
        p->reselect = true;
        p->selected = false;
        break;
    case PIM_UPDATE:
        p->proposing = p->proposed = false;
        p->agreed = p->agreed && better_or_same_info(p, INFO_MINE);
        p->synced = p->synced && p->agreed;
        p->port_priority = p->designated_priority;
        p->port_times = p->designated_times;
        p->updt_info = false;
        p->info_is = INFO_MINE;
        p->new_info = true;
        break;
    case PIM_CURRENT:
        break;
    case PIM_RECEIVE:
        p->rcvd_info = rcv_info(p);
        break;
    case PIM_SUPERIOR_DESIGNATED:
        p->agreed = p->proposing = false;
        record_proposal(p);
        set_tc_flags(p);
        p->agree = p->agree && better_or_same_info(p, INFO_RECEIVED);
        p->port_priority = p->msg_priority;     /* recordPriority() */
        p->port_times = p->msg_times;           /* recordTimes() */
        updt_rcvd_info_while(p);
        p->info_is = INFO_RECEIVED;
        p->reselect = true;
        p->selected = false;
        p->rcvd_msg = false;
        break;
    case PIM_REPEATED_DESIGNATED:
        record_proposal(p);
        set_tc_flags(p);
        updt_rcvd_info_while(p);
        p->rcvd_msg = false;
        break;
    case PIM_INFERIOR_DESIGNATED:
        record_dispute(p);
        p->rcvd_msg = false;
        break;
    case PIM_NOT_DESIGNATED:
        record_agreement(p);
        set_tc_flags(p);
        p->rcvd_msg = false;
        break;
    case PIM_OTHER:
        /* A TCN BPDU carries no priority information, only its
         * notification (17.21.17 says setTcFlags() records it). */
        if (p->rcvd.type == RSTP_BPDU_TCN) {
            set_tc_flags(p);
        }
        p->rcvd_msg = false;
        break;
    }
}

static bool
pim_step(struct rstp_port *p)
{
    enum pim_state next;

    if (!p->port_enabled && p->info_is != INFO_DISABLED) {
        pim_enter(p, PIM_DISABLED);
        return true;
    }
    switch (p->pim) {
    case PIM_DISABLED:
        if (p->rcvd_msg) {
            next = PIM_DISABLED;
        } else if (p->port_enabled) {
            next = PIM_AGED;
        } else {
            return false;
        }
        break;
    case PIM_AGED:
        if (p->selected && p->updt_info) {
            next = PIM_UPDATE;
        } else {
            return false;
        }
        break;
    case PIM_CURRENT:
        if (p->selected && p->updt_info) {
            next = PIM_UPDATE;
        } else if (p->info_is == INFO_RECEIVED && !p->rcvd_info_while
                   && !p->updt_info && !p->rcvd_msg) {
            next = PIM_AGED;
        } else if (p->rcvd_msg && !p->updt_info) {
            next = PIM_RECEIVE;
        } else {
            return false;
        }
        break;
    case PIM_RECEIVE:
        switch (p->rcvd_info) {
        case RCVD_SUPERIOR_DESIGNATED:
            next = PIM_SUPERIOR_DESIGNATED;
            break;
        case RCVD_REPEATED_DESIGNATED:
            next = PIM_REPEATED_DESIGNATED;
            break;
        case RCVD_INFERIOR_DESIGNATED:
            next = PIM_INFERIOR_DESIGNATED;
            break;
        case RCVD_INFERIOR_ROOT_ALTERNATE:
            next = PIM_NOT_DESIGNATED;
            break;
        case RCVD_OTHER:
        default:
            next = PIM_OTHER;
            break;
        }
        break;
    case PIM_UPDATE:
    case PIM_SUPERIOR_DESIGNATED:
    case PIM_REPEATED_DESIGNATED:
    case PIM_INFERIOR_DESIGNATED:
    case PIM_NOT_DESIGNATED:
    case PIM_OTHER:
    default:
        next = PIM_CURRENT;
        break;
    }
    pim_enter(p, next);
    return true;
}

/* 17.28 Port Role Selection (one per bridge). */

static bool
prs_step(struct rstp *rstp)
{
    struct rstp_port *p;

    if (rstp->prs_begin) {
        /* INIT_BRIDGE: 17.21.24 updtRoleDisabledTree(). */
        rstp->prs_begin = false;
        LIST_FOR_EACH (p, list_node, &rstp->port_list) {
            p->selected_role = RSTP_ROLE_DISABLED;
        }
        updt_roles_tree(rstp);
        return true;
    }
    LIST_FOR_EACH (p, list_node, &rstp->port_list) {
        if (p->reselect) {
            updt_roles_tree(rstp);
            return true;
        }
    }
    return false;
}

/* 17.29 Port Role Transitions. */

static void
prt_enter(struct rstp_port *p, enum prt_state s)
{
    p->prt = s;
    switch (s) {
    case PRT_INIT_PORT:
        set_role(p, RSTP_ROLE_DISABLED);
        p->learn = p->forward = false;
        p->synced = false;
        p->sync = p->re_root = true;
        p->rr_while = fwd_delay(p);
        p->fd_while = max_age(p);
        p->rb_while = 0;
        break;
    case PRT_DISABLE_PORT:
        set_role(p, p->selected_role);
        p->learn = p->forward = false;
        break;
    case PRT_DISABLED_PORT:
        p->fd_while = max_age(p);
        p->synced = true;
        p->rr_while = 0;
        p->sync = p->re_root = false;
        break;

    case PRT_ROOT_PORT:
        set_role(p, RSTP_ROLE_ROOT);
        p->rr_while = fwd_delay(p);
        break;
    case PRT_ROOT_PROPOSED:
        set_sync_tree(p->rstp);
        p->proposed = false;
        break;
    case PRT_ROOT_AGREED:
        p->proposed = p->sync = false;
        p->agree = true;
        p->new_info = true;
        break;
    case PRT_REROOT:
        set_re_root_tree(p->rstp);
        break;
    case PRT_REROOTED:
        p->re_root = false;
        break;
    case PRT_ROOT_LEARN:
        p->fd_while = forward_delay(p);
        p->learn = true;
        break;
    case PRT_ROOT_FORWARD:
        p->fd_while = 0;
        p->forward = true;
        break;

    case PRT_DESIGNATED_PORT:
        set_role(p, RSTP_ROLE_DESIGNATED);
        break;
    case PRT_DESIGNATED_PROPOSE:
        p->proposing = true;
        p->edge_delay_while = edge_delay(p);
        p->new_info = true;
        break;
    case PRT_DESIGNATED_SYNCED:
        p->rr_while = 0;
        p->synced = true;
        p->sync = false;
        break;
    case PRT_DESIGNATED_RETIRED:
        p->re_root = false;
        break;
    case PRT_DESIGNATED_DISCARD:
        p->learn = p->forward = p->disputed = false;
        p->fd_while = forward_delay(p);
        break;
    case PRT_DESIGNATED_LEARN:
        p->learn = true;
        p->fd_while = forward_delay(p);
        break;
    case PRT_DESIGNATED_FORWARD:
        p->forward = true;
        p->fd_while = 0;
        p->agreed = p->send_rstp;
        break;

    case PRT_BLOCK_PORT:
        set_role(p, p->selected_role);
        p->learn = p->forward = false;
        break;
    case PRT_ALTERNATE_PORT:
        p->fd_while = forward_delay(p);
        p->synced = true;
        p->rr_while = 0;
        p->sync = p->re_root = false;
        break;
    case PRT_ALTERNATE_PROPOSED:
        set_sync_tree(p->rstp);
        p->proposed = false;
        break;
    case PRT_ALTERNATE_AGREED:
        p->proposed = false;
        p->agree = true;
        p->new_info = true;
        break;
    case PRT_BACKUP_PORT:
        p->rb_while = 2 * hello_time(p);
        break;
    }
}

/* The state Port Role Transitions moves to, or -1 to stay. */
static int
prt_next(struct rstp_port *p)
{
    bool settled = p->selected && !p->updt_info;

    /* Entering a role: the selected one differs from the current one. */
    if (p->role != p->selected_role && settled) {
        switch (p->selected_role) {
        case RSTP_ROLE_DISABLED:
            return PRT_DISABLE_PORT;
        case RSTP_ROLE_ROOT:
            return PRT_ROOT_PORT;
        case RSTP_ROLE_DESIGNATED:
            return PRT_DESIGNATED_PORT;
        case RSTP_ROLE_ALTERNATE:
        case RSTP_ROLE_BACKUP:
        default:
            return PRT_BLOCK_PORT;
        }
    }

    switch (p->prt) {
    case PRT_INIT_PORT:
        return PRT_DISABLE_PORT;
    case PRT_DISABLE_PORT:
        if (settled && !p->learning && !p->forwarding) {
            return PRT_DISABLED_PORT;
        }
        break;
    case PRT_DISABLED_PORT:
        if (settled && (p->fd_while != max_age(p) || p->sync || p->re_root
                        || !p->synced)) {
            return PRT_DISABLED_PORT;
        }
        break;

    case PRT_ROOT_PROPOSED:
    case PRT_ROOT_AGREED:
    case PRT_REROOT:
    case PRT_REROOTED:
    case PRT_ROOT_LEARN:
    case PRT_ROOT_FORWARD:
        return PRT_ROOT_PORT;
    case PRT_ROOT_PORT:
        if (!settled) {
            break;
        }
        if (p->proposed && !p->agree) {
            return PRT_ROOT_PROPOSED;
        }
        /* (agree first: all_synced() looks at every port.) */
        if ((!p->agree && all_synced(p->rstp))
            || (p->proposed && p->agree)) {
            return PRT_ROOT_AGREED;
        }
        if (!p->forward && !p->re_root) {
            return PRT_REROOT;
        }
        if (p->rr_while != fwd_delay(p)) {
            return PRT_ROOT_PORT;
        }
        if (p->re_root && p->forward) {
            return PRT_REROOTED;
        }
        if (!p->fd_while
            || (re_rooted(p) && !p->rb_while && rstp_version(p->rstp))) {
            if (!p->learn) {
                return PRT_ROOT_LEARN;
            } else if (!p->forward) {
                return PRT_ROOT_FORWARD;
            }
        }
        break;

    case PRT_DESIGNATED_PROPOSE:
    case PRT_DESIGNATED_SYNCED:
    case PRT_DESIGNATED_RETIRED:
    case PRT_DESIGNATED_DISCARD:
    case PRT_DESIGNATED_LEARN:
    case PRT_DESIGNATED_FORWARD:
        return PRT_DESIGNATED_PORT;
    case PRT_DESIGNATED_PORT:
        if (!settled) {
            break;
        }
        if (!p->forward && !p->agreed && !p->proposing && !p->oper_edge) {
            return PRT_DESIGNATED_PROPOSE;
        }
        if ((!p->learning && !p->forwarding && !p->synced)
            || (p->agreed && !p->synced) || (p->oper_edge && !p->synced)
            || (p->sync && p->synced)) {
            return PRT_DESIGNATED_SYNCED;
        }
        if (!p->rr_while && p->re_root) {
            return PRT_DESIGNATED_RETIRED;
        }
        if (((p->sync && !p->synced) || (p->re_root && p->rr_while)
             || p->disputed)
            && !p->oper_edge && (p->learn || p->forward)) {
            return PRT_DESIGNATED_DISCARD;
        }
        if ((!p->fd_while || p->agreed || p->oper_edge)
            && (!p->rr_while || !p->re_root) && !p->sync) {
            if (!p->learn) {
                return PRT_DESIGNATED_LEARN;
            } else if (!p->forward) {
                return PRT_DESIGNATED_FORWARD;
            }
        }
        break;

    case PRT_BLOCK_PORT:
        if (settled && !p->learning && !p->forwarding) {
            return PRT_ALTERNATE_PORT;
        }
        break;
    case PRT_ALTERNATE_PROPOSED:
    case PRT_ALTERNATE_AGREED:
    case PRT_BACKUP_PORT:
        return PRT_ALTERNATE_PORT;
    case PRT_ALTERNATE_PORT:
        if (!settled) {
            break;
        }
        if (p->proposed && !p->agree) {
            return PRT_ALTERNATE_PROPOSED;
        }
        /* (agree first: all_synced() looks at every port.) */
        if ((!p->agree && all_synced(p->rstp))
            || (p->proposed && p->agree)) {
            return PRT_ALTERNATE_AGREED;
        }
        if (p->role == RSTP_ROLE_BACKUP && p->rb_while != 2 * hello_time(p)) {
            return PRT_BACKUP_PORT;
        }
        if (p->fd_while != forward_delay(p) || p->sync || p->re_root
            || !p->synced) {
            return PRT_ALTERNATE_PORT;
        }
        break;
    }
    return -1;
}

static bool
prt_step(struct rstp_port *p)
{
    int next = prt_next(p);
    if (next < 0) {
        return false;
    }
    prt_enter(p, next);
    return true;
}

/* 17.30 Port State Transition. */

static void
pst_enter(struct rstp_port *p, enum pst_state s)
{
    p->pst = s;
    p->learning = s != PST_DISCARDING;
    p->forwarding = s == PST_FORWARDING;
    if (p->learning) {
        p->may_have_macs = true;
    }
    rstp_sm_update_state(p);
}

static bool
pst_step(struct rstp_port *p)
{
    enum pst_state next;

    switch (p->pst) {
    case PST_DISCARDING:
        if (!p->learn) {
            return false;
        }
        next = PST_LEARNING;
        break;
    case PST_LEARNING:
        if (!p->learn) {
            next = PST_DISCARDING;
        } else if (p->forward) {
            next = PST_FORWARDING;
        } else {
            return false;
        }
        break;
    case PST_FORWARDING:
        if (p->forward) {
            return false;
        }
        next = PST_DISCARDING;
        break;
    default:
        return false;
    }
    pst_enter(p, next);
    return true;
}

/* 17.31 Topology Change. */

static void
tcm_enter(struct rstp_port *p, enum tcm_state s)
{
    p->tcm = s;
    switch (s) {
    case TCM_INACTIVE:
        p->fdb_flush = true;
        flush_fdb(p);
        p->tc_while = 0;
        p->tc_ack = false;
        break;
    case TCM_LEARNING:
        p->rcvd_tc = p->rcvd_tcn = p->rcvd_tc_ack = false;
        p->tc_prop = false;
        break;
    case TCM_DETECTED:
        new_tc_while(p);
        set_tc_prop_tree(p);
        p->new_info = true;
        break;
    case TCM_ACTIVE:
        break;
    case TCM_NOTIFIED_TCN:
        new_tc_while(p);
        break;
    case TCM_NOTIFIED_TC:
        p->rcvd_tcn = p->rcvd_tc = false;
        if (p->role == RSTP_ROLE_DESIGNATED) {
            p->tc_ack = true;
        }
        set_tc_prop_tree(p);
        break;
    case TCM_PROPAGATING:
        new_tc_while(p);
        p->fdb_flush = true;
        flush_fdb(p);
        p->tc_prop = false;
        break;
    case TCM_ACKNOWLEDGED:
        p->tc_while = 0;
        p->rcvd_tc_ack = false;
        break;
    }
}

static bool
tcm_step(struct rstp_port *p)
{
    bool root_or_designated = (p->role == RSTP_ROLE_ROOT
                               || p->role == RSTP_ROLE_DESIGNATED);
    bool notified = (p->rcvd_tc || p->rcvd_tcn || p->rcvd_tc_ack
                     || p->tc_prop);
    enum tcm_state next;

    switch (p->tcm) {
    case TCM_INACTIVE:
        if (!p->learn || p->fdb_flush) {
            return false;
        }
        next = TCM_LEARNING;
        break;
    case TCM_LEARNING:
        if (root_or_designated && p->forward && !p->oper_edge) {
            next = TCM_DETECTED;
        } else if (!root_or_designated && !(p->learn || p->learning)
                   && !notified) {
            next = TCM_INACTIVE;
        } else if (notified) {
            next = TCM_LEARNING;
        } else {
            return false;
        }
        break;
    case TCM_ACTIVE:
        if (!root_or_designated || p->oper_edge) {
            next = TCM_LEARNING;
        } else if (p->rcvd_tcn) {
            next = TCM_NOTIFIED_TCN;
        } else if (p->rcvd_tc) {
            next = TCM_NOTIFIED_TC;
        } else if (p->tc_prop && !p->oper_edge) {
            next = TCM_PROPAGATING;
        } else if (p->rcvd_tc_ack) {
            next = TCM_ACKNOWLEDGED;
        } else {
            return false;
        }
        break;
    case TCM_NOTIFIED_TCN:
        next = TCM_NOTIFIED_TC;
        break;
    case TCM_DETECTED:
    case TCM_NOTIFIED_TC:
    case TCM_PROPAGATING:
    case TCM_ACKNOWLEDGED:
    default:
        next = TCM_ACTIVE;
        break;
    }
    tcm_enter(p, next);
    return true;
}

/* Driving the machines. */

void
rstp_sm_begin_port(struct rstp_port *p)
{
    /* The timers' parameters come from designatedTimes, which role
     * selection fills; until then the bridge's own. */
    p->designated_times = p->rstp->bridge_times;
    p->port_times = p->rstp->bridge_times;
    p->selected_role = RSTP_ROLE_DISABLED;
    p->role = RSTP_ROLE_DISABLED;
    p->state = RSTP_DISABLED;

    prx_enter(p, PRX_DISCARD);
    ppm_enter(p, PPM_CHECKING_RSTP);
    p->bdm = p->admin_edge ? BDM_EDGE : BDM_NOT_EDGE;
    p->oper_edge = p->admin_edge;
    ptx_enter(p, PTX_TRANSMIT_INIT);
    pim_enter(p, PIM_DISABLED);
    prt_enter(p, PRT_INIT_PORT);
    pst_enter(p, PST_DISCARDING);
    tcm_enter(p, TCM_INACTIVE);
}

void
rstp_sm_run(struct rstp *rstp)
{
    for (int round = 0; round < MAX_ROUNDS; round++) {
        struct rstp_port *p;
        bool moved = false;

        LIST_FOR_EACH (p, list_node, &rstp->port_list) {
            moved = prx_step(p) || moved;
            moved = ppm_step(p) || moved;
            moved = bdm_step(p) || moved;
            moved = ptx_step(p) || moved;
            moved = pim_step(p) || moved;
        }
        moved = prs_step(rstp) || moved;
        LIST_FOR_EACH (p, list_node, &rstp->port_list) {
            moved = prt_step(p) || moved;
            moved = pst_step(p) || moved;
            moved = tcm_step(p) || moved;
        }
        if (!moved) {
            return;
        }
    }
    VLOG_ERR("%s: state machines did not settle after %d rounds",
             rstp->name, MAX_ROUNDS);
}

void
rstp_sm_tick(struct rstp_port *p)
{
    uint16_t *timers[] = {
        &p->edge_delay_while, &p->fd_while, &p->hello_when,
        &p->mdelay_while, &p->rb_while, &p->rcvd_info_while, &p->rr_while,
        &p->tc_while,
    };
    for (size_t i = 0; i < ARRAY_SIZE(timers); i++) {
        if (*timers[i]) {
            (*timers[i])--;
        }
    }
    if (p->tx_count) {
        p->tx_count--;
    }
    if (p->port_enabled) {
        p->stats.uptime++;
    }
}

void
rstp_sm_bridge_changed(struct rstp *rstp)
{
    struct rstp_port *p;

    rstp->bridge_id = (((uint64_t) rstp->priority << 48)
                       | (rstp->address & ADDRESS_MASK));
    rstp->bridge_priority = (struct rstp_priority) {
        .root_id = rstp->bridge_id,
        .designated_bridge_id = rstp->bridge_id,
    };
    rstp->bridge_times = (struct rstp_times) {
        .max_age = rstp->max_age,
        .forward_delay = rstp->forward_delay,
        .hello_time = RSTP_HELLO_TIME,
    };
    /* 17.13: new bridge parameters take effect through role selection. */
    LIST_FOR_EACH (p, list_node, &rstp->port_list) {
        p->reselect = true;
        p->selected = false;
    }
}

void
rstp_sm_protocol_version_changed(struct rstp *rstp)
{
    struct rstp_port *p;

    /* Port Protocol Migration starts over, which picks the BPDU format
     * the new version calls for, and the next BPDU goes out in it. */
    LIST_FOR_EACH (p, list_node, &rstp->port_list) {
        ppm_enter(p, PPM_CHECKING_RSTP);
        p->new_info = true;
    }
}
