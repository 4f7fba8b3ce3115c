/* rstp-sm-role: moving a port into its role and state: Port Role
 * Transitions (17.29) and Port State Transition (17.30), with the
 * conditions and procedures only they use.  See rstp-sm.h. */
#include <config.h>
#include "rstp-sm.h"

#include "vlog.h"

VLOG_USE_MODULE(rstp_sm);

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

/* 17.29 Port Role Transitions. */

void
rstp_prt_enter(struct rstp_port *p, enum prt_state s)
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

bool
rstp_prt_step(struct rstp_port *p)
{
    int next = prt_next(p);
    if (next < 0) {
        return false;
    }
    rstp_prt_enter(p, next);
    return true;
}

/* 17.30 Port State Transition. */

void
rstp_pst_enter(struct rstp_port *p, enum pst_state s)
{
    p->pst = s;
    p->learning = s != PST_DISCARDING;
    p->forwarding = s == PST_FORWARDING;
    if (p->learning) {
        p->may_have_macs = true;
    }
    rstp_sm_update_state(p);
}

bool
rstp_pst_step(struct rstp_port *p)
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
    rstp_pst_enter(p, next);
    return true;
}

