/* rstp-sm: the RSTP state machines' driver (rstp_sm_run(), BEGIN, the
 * one-second tick) and the machines of a port's link: Port Receive
 * (17.23), Port Protocol Migration (17.24), Bridge Detection (17.25),
 * Port Transmit (17.26) and Topology Change (17.31).  See rstp-sm.h. */
#include <config.h>
#include "rstp-sm.h"

#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(rstp_sm);

/* Safeguard: a bridge settles in a few steps per port; a bug that made two
 * machines chase each other must not hang the switch. */
#define MAX_ROUNDS 10000

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

void
rstp_sm_detect_topology_change(struct rstp_port *p)
{
    if (p->tcm == TCM_ACTIVE && p->port_enabled) {
        tcm_enter(p, TCM_DETECTED);
    }
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
    rstp_pim_enter(p, PIM_DISABLED);
    rstp_prt_enter(p, PRT_INIT_PORT);
    rstp_pst_enter(p, PST_DISCARDING);
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
            moved = rstp_pim_step(p) || moved;
        }
        moved = rstp_prs_step(rstp) || moved;
        LIST_FOR_EACH (p, list_node, &rstp->port_list) {
            moved = rstp_prt_step(p) || moved;
            moved = rstp_pst_step(p) || moved;
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
                       | (rstp->address & RSTP_ADDRESS_MASK));
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

