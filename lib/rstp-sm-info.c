/* rstp-sm-info: what a port knows and which role it should have: priority
 * vectors (17.6), the receive procedures of 17.21, Port Information
 * (17.27) and Port Role Selection (17.28).  See rstp-sm.h. */
#include <config.h>
#include "rstp-sm.h"

#include <string.h>

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
    return ((a->designated_bridge_id & RSTP_ADDRESS_MASK)
            == (b->designated_bridge_id & RSTP_ADDRESS_MASK)
            && ((a->designated_port_id & RSTP_PORT_NUMBER_MASK)
                == (b->designated_port_id & RSTP_PORT_NUMBER_MASK)));
}

static bool
times_equal(const struct rstp_times *a, const struct rstp_times *b)
{
    return (a->message_age == b->message_age && a->max_age == b->max_age
            && a->forward_delay == b->forward_delay
            && a->hello_time == b->hello_time);
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
            || ((p->port_priority.designated_bridge_id & RSTP_ADDRESS_MASK)
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
                              & RSTP_ADDRESS_MASK) == rstp->address);
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

/* 17.27 Port Information. */

void
rstp_pim_enter(struct rstp_port *p, enum pim_state s)
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

bool
rstp_pim_step(struct rstp_port *p)
{
    enum pim_state next;

    if (!p->port_enabled && p->info_is != INFO_DISABLED) {
        rstp_pim_enter(p, PIM_DISABLED);
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
    rstp_pim_enter(p, next);
    return true;
}

/* 17.28 Port Role Selection (one per bridge). */

bool
rstp_prs_step(struct rstp *rstp)
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

