/* stp: the 802.1D-1998 spanning tree engine (see stp.h).
 *
 * The procedures below follow clause 8.6-8.8 of the standard one for one,
 * so that each can be checked against its text: the protocol is subtle
 * and its interoperability tests assume exactly these steps. */
#include <config.h>

#include "stp.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(stp);

/* Rate limits for what the network can make us say. */
static struct vlog_rate_limit bad_bpdu_rl = VLOG_RATE_LIMIT_INIT(5, 20);
/* A flapping network detects topology changes all the time: a few are
 * worth a line each, then one a minute. */
static struct vlog_rate_limit topology_rl = VLOG_RATE_LIMIT_INIT(1, 5);

/* Timer values are in the wire's unit: 256 ticks per second. */
#define TICKS_PER_SEC 256

/* What a bridge adds to the age of the root's information it relays: one
 * tick, the least that still orders bridges by distance from the root. */
#define MESSAGE_AGE_INCREMENT 1

/* Hold time (8.5.3.14): the least time between two configuration BPDUs on
 * one port. */
#define HOLD_TIME TICKS_PER_SEC

struct stp_timer {
    bool active;
    int value;                  /* Ticks since started (counts up). */
};

struct stp_port {
    struct stp *stp;
    int port_id;                /* 8.5.5.1: priority << 8 | number. */
    enum stp_state state;       /* 8.5.5.2. */
    int path_cost;              /* 8.5.5.3. */
    stp_identifier designated_root;     /* 8.5.5.4. */
    unsigned int designated_cost;       /* 8.5.5.5. */
    stp_identifier designated_bridge;   /* 8.5.5.6. */
    int designated_port;                /* 8.5.5.7. */
    bool topology_change_ack;           /* 8.5.5.8. */
    bool config_pending;                /* 8.5.5.9. */
    bool change_detection_enabled;      /* 8.5.5.10. */

    struct stp_timer message_age_timer;     /* 8.5.6.1. */
    struct stp_timer forward_delay_timer;   /* 8.5.6.2. */
    struct stp_timer hold_timer;            /* 8.5.6.3. */

    struct stp_port_counters counters;

    /* On the changed-port queue (stp->changed[]). */
    bool state_changed;
};

struct stp {
    char *name;

    /* 8.5.3: bridge parameters.  Times in ticks. */
    stp_identifier designated_root;     /* 8.5.3.1. */
    unsigned int root_path_cost;        /* 8.5.3.2. */
    struct stp_port *root_port;         /* 8.5.3.3. */
    int max_age;                        /* 8.5.3.4: in use now. */
    int hello_time;                     /* 8.5.3.5. */
    int forward_delay;                  /* 8.5.3.6. */
    stp_identifier bridge_id;           /* 8.5.3.7. */
    int bridge_max_age;                 /* 8.5.3.8: ours, used as root. */
    int bridge_hello_time;              /* 8.5.3.9. */
    int bridge_forward_delay;           /* 8.5.3.10. */
    bool topology_change_detected;      /* 8.5.3.11. */
    bool topology_change;               /* 8.5.3.12. */

    /* 8.5.4: bridge timers. */
    struct stp_timer hello_timer;
    struct stp_timer tcn_timer;
    struct stp_timer topology_change_timer;

    /* Milliseconds fed in that did not yet make a whole tick. */
    int ms_remainder;
    /* stp_run()'s last NOW; LLONG_MIN before the first call. */
    long long int last_run;

    /* Ports: only [0, n_used) may be enabled, so that sweeps stop at the
     * highest port ever enabled rather than at STP_MAX_PORTS. */
    struct stp_port ports[STP_MAX_PORTS];
    int n_used;

    /* For the caller. */
    bool fdb_needs_flush;
    int changed[STP_MAX_PORTS];         /* FIFO of port numbers. */
    int changed_head, n_changed;

    stp_send_bpdu_func *send_bpdu;
    void *aux;
};

#define FOR_EACH_ENABLED_PORT(PORT, STP)                                \
    /* The cast lets const queries iterate too; they only read. */    \
    for (struct stp_port *PORT = (struct stp_port *) (STP)->ports;      \
         PORT < &(STP)->ports[(STP)->n_used]; PORT++)                   \
        if (PORT->state != STP_DISABLED)

static void configuration_update(struct stp *);
static void port_state_selection(struct stp *);
static void become_designated_port(struct stp_port *);
static void topology_change_detection(struct stp *);
static void config_bpdu_generation(struct stp *);
static void transmit_config(struct stp_port *);

/* Timers. */

static void
start_timer(struct stp_timer *timer, int value)
{
    timer->active = true;
    timer->value = value;
}

static void
stop_timer(struct stp_timer *timer)
{
    timer->active = false;
}

/* Advances TIMER by ELAPSED ticks; true if it reached TIMEOUT now (it
 * stops then). */
static bool
timer_expired(struct stp_timer *timer, int elapsed, int timeout)
{
    if (!timer->active) {
        return false;
    }
    timer->value += elapsed;
    if (timer->value >= timeout) {
        timer->active = false;
        return true;
    }
    return false;
}

static int
ms_to_ticks(long long int ms)
{
    return ms * TICKS_PER_SEC / 1000;
}

static int
ticks_to_ms(int ticks)
{
    return (long long int) ticks * 1000 / TICKS_PER_SEC;
}

/* Names and small predicates. */

const char *
stp_state_name(enum stp_state state)
{
    switch (state) {
    case STP_DISABLED:
        return "disabled";
    case STP_LISTENING:
        return "listening";
    case STP_LEARNING:
        return "learning";
    case STP_FORWARDING:
        return "forwarding";
    case STP_BLOCKING:
        return "blocking";
    }
    return "unknown";
}

const char *
stp_role_name(enum stp_role role)
{
    switch (role) {
    case STP_ROLE_ROOT:
        return "root";
    case STP_ROLE_DESIGNATED:
        return "designated";
    case STP_ROLE_ALTERNATE:
        return "alternate";
    case STP_ROLE_DISABLED:
        return "disabled";
    }
    return "unknown";
}

bool
stp_forward_in_state(enum stp_state state)
{
    return state == STP_FORWARDING;
}

bool
stp_learn_in_state(enum stp_state state)
{
    return state == STP_LEARNING || state == STP_FORWARDING;
}

static bool
is_root_bridge(const struct stp *stp)
{
    return stp->designated_root == stp->bridge_id;
}

/* 8.6.10.3.2 */
static bool
is_designated_port(const struct stp_port *p)
{
    return (p->designated_bridge == p->stp->bridge_id
            && p->designated_port == p->port_id);
}

static bool
designated_for_some_port(const struct stp *stp)
{
    FOR_EACH_ENABLED_PORT (p, stp) {
        if (p->designated_bridge == stp->bridge_id) {
            return true;
        }
    }
    return false;
}

static void
set_port_state(struct stp_port *p, enum stp_state state)
{
    if (state != p->state && !p->state_changed) {
        struct stp *stp = p->stp;
        int tail = (stp->changed_head + stp->n_changed) % STP_MAX_PORTS;

        p->state_changed = true;
        stp->changed[tail] = p - stp->ports;
        stp->n_changed++;
    }
    p->state = state;
}

/* Sending. */

static void
send_bpdu(struct stp_port *p, const struct stp_bpdu *bpdu)
{
    uint8_t buf[STP_CONFIG_BPDU_LEN];
    size_t len = stp_bpdu_encode(bpdu, buf);

    p->counters.tx_bpdus++;
    p->stp->send_bpdu(buf, len, p - p->stp->ports, p->stp->aux);
}

/* 8.6.1: sends a configuration BPDU on P, or marks it pending if the hold
 * timer says we sent one too recently. */
static void
transmit_config(struct stp_port *p)
{
    struct stp *stp = p->stp;
    bool root = is_root_bridge(stp);

    if (!root && !stp->root_port) {
        /* Only mid-way through a reconfiguration: nothing to say yet. */
        return;
    }
    if (p->hold_timer.active) {
        p->config_pending = true;
        return;
    }

    struct stp_bpdu bpdu = {
        .type = STP_TYPE_CONFIG,
        .version = STP_PROTOCOL_VERSION,
        .flags = ((p->topology_change_ack ? STP_FLAG_TC_ACK : 0)
                  | (stp->topology_change ? STP_FLAG_TC : 0)),
        .root_id = stp->designated_root,
        .root_path_cost = stp->root_path_cost,
        .bridge_id = stp->bridge_id,
        .port_id = p->port_id,
        .message_age = (root ? 0
                        : (stp->root_port->message_age_timer.value
                           + MESSAGE_AGE_INCREMENT)),
        .max_age = stp->max_age,
        .hello_time = stp->hello_time,
        .forward_delay = stp->forward_delay,
    };
    /* 8.6.1.3.3: information that old would be discarded on arrival. */
    if (bpdu.message_age < stp->max_age) {
        p->topology_change_ack = false;
        p->config_pending = false;
        send_bpdu(p, &bpdu);
        start_timer(&p->hold_timer, 0);
    }
}

/* 8.6.2.2: whether BPDU carries better information than P holds. */
static bool
supersedes_port_info(const struct stp_port *p, const struct stp_bpdu *bpdu)
{
    if (bpdu->root_id != p->designated_root) {
        return bpdu->root_id < p->designated_root;
    }
    if (bpdu->root_path_cost != p->designated_cost) {
        return bpdu->root_path_cost < p->designated_cost;
    }
    if (bpdu->bridge_id != p->designated_bridge) {
        return bpdu->bridge_id < p->designated_bridge;
    }
    /* Same bridge: another bridge's BPDU from the same designated bridge
     * always refreshes; our own (looped back) only if from a port as good
     * as the designated one. */
    return (bpdu->bridge_id != p->stp->bridge_id
            || bpdu->port_id <= p->designated_port);
}

/* 8.6.2.3 */
static void
record_config_information(struct stp_port *p, const struct stp_bpdu *bpdu)
{
    p->designated_root = bpdu->root_id;
    p->designated_cost = bpdu->root_path_cost;
    p->designated_bridge = bpdu->bridge_id;
    p->designated_port = bpdu->port_id;
    start_timer(&p->message_age_timer, bpdu->message_age);
}

/* 8.6.3.3 */
static void
record_config_timeout_values(struct stp *stp, const struct stp_bpdu *bpdu)
{
    stp->max_age = bpdu->max_age;
    stp->hello_time = bpdu->hello_time;
    stp->forward_delay = bpdu->forward_delay;
    stp->topology_change = (bpdu->flags & STP_FLAG_TC) != 0;
}

/* 8.6.4.3 */
static void
config_bpdu_generation(struct stp *stp)
{
    FOR_EACH_ENABLED_PORT (p, stp) {
        if (is_designated_port(p)) {
            transmit_config(p);
        }
    }
}

/* 8.6.6.3: a topology change notification towards the root. */
static void
transmit_tcn(struct stp *stp)
{
    struct stp_port *p = stp->root_port;
    if (p) {
        struct stp_bpdu bpdu = {
            .type = STP_TYPE_TCN,
            .version = STP_PROTOCOL_VERSION,
        };
        send_bpdu(p, &bpdu);
    }
}

/* 8.6.8.3.1: whether P is a better root port than the current best,
 * BEST. */
static bool
better_root_port(const struct stp_port *p, const struct stp_port *best)
{
    unsigned int p_cost = p->designated_cost + p->path_cost;
    unsigned int best_cost = best->designated_cost + best->path_cost;

    if (p->designated_root != best->designated_root) {
        return p->designated_root < best->designated_root;
    }
    if (p_cost != best_cost) {
        return p_cost < best_cost;
    }
    if (p->designated_bridge != best->designated_bridge) {
        return p->designated_bridge < best->designated_bridge;
    }
    if (p->designated_port != best->designated_port) {
        return p->designated_port < best->designated_port;
    }
    return p->port_id < best->port_id;
}

/* 8.6.8.3.1 */
static void
root_selection(struct stp *stp)
{
    struct stp_port *best = NULL;

    FOR_EACH_ENABLED_PORT (p, stp) {
        /* A candidate hears of a root better than ourselves from another
         * bridge. */
        if (!is_designated_port(p)
            && p->designated_root < stp->bridge_id
            && (!best || better_root_port(p, best))) {
            best = p;
        }
    }
    stp->root_port = best;
    if (best) {
        stp->designated_root = best->designated_root;
        stp->root_path_cost = best->designated_cost + best->path_cost;
    } else {
        stp->designated_root = stp->bridge_id;
        stp->root_path_cost = 0;
    }
}

/* 8.6.9.3 */
static void
become_designated_port(struct stp_port *p)
{
    struct stp *stp = p->stp;

    p->designated_root = stp->designated_root;
    p->designated_cost = stp->root_path_cost;
    p->designated_bridge = stp->bridge_id;
    p->designated_port = p->port_id;
}

/* 8.6.9.3: we become designated for every LAN where we offer a better path
 * to the root than the bridge designated there now. */
static void
designated_port_selection(struct stp *stp)
{
    FOR_EACH_ENABLED_PORT (p, stp) {
        if (is_designated_port(p)
            || p->designated_root != stp->designated_root
            || stp->root_path_cost < p->designated_cost
            || (stp->root_path_cost == p->designated_cost
                && (stp->bridge_id < p->designated_bridge
                    || (stp->bridge_id == p->designated_bridge
                        && p->port_id <= p->designated_port)))) {
            become_designated_port(p);
        }
    }
}

/* 8.6.7.3 */
static void
configuration_update(struct stp *stp)
{
    root_selection(stp);
    designated_port_selection(stp);
}

/* 8.6.12.3 */
static void
make_forwarding(struct stp_port *p)
{
    if (p->state == STP_BLOCKING) {
        set_port_state(p, STP_LISTENING);
        start_timer(&p->forward_delay_timer, 0);
    }
}

/* 8.6.13.3 */
static void
make_blocking(struct stp_port *p)
{
    if (p->state == STP_DISABLED || p->state == STP_BLOCKING) {
        return;
    }
    if ((p->state == STP_FORWARDING || p->state == STP_LEARNING)
        && p->change_detection_enabled) {
        topology_change_detection(p->stp);
    }
    set_port_state(p, STP_BLOCKING);
    stop_timer(&p->forward_delay_timer);
}

/* 8.6.11.3: root and designated ports head for forwarding, the others
 * block. */
static void
port_state_selection(struct stp *stp)
{
    FOR_EACH_ENABLED_PORT (p, stp) {
        if (p == stp->root_port) {
            p->config_pending = false;
            p->topology_change_ack = false;
            make_forwarding(p);
        } else if (is_designated_port(p)) {
            stop_timer(&p->message_age_timer);
            make_forwarding(p);
        } else {
            p->config_pending = false;
            p->topology_change_ack = false;
            make_blocking(p);
        }
    }
}

/* 8.6.14.3: the root announces a change in its BPDUs for a while; any
 * other bridge tells the root, repeating until acknowledged. */
static void
topology_change_detection(struct stp *stp)
{
    if (is_root_bridge(stp)) {
        stp->topology_change = true;
        start_timer(&stp->topology_change_timer, 0);
    } else if (!stp->topology_change_detected) {
        transmit_tcn(stp);
        start_timer(&stp->tcn_timer, 0);
    }
    stp->topology_change_detected = true;
    stp->fdb_needs_flush = true;
    VLOG_INFO_RL(&topology_rl, "%s: detected topology change.", stp->name);
}

void
stp_detect_topology_change(struct stp *stp)
{
    topology_change_detection(stp);
}

/* 8.6.15.3 */
static void
topology_change_acknowledged(struct stp *stp)
{
    stp->topology_change_detected = false;
    stop_timer(&stp->tcn_timer);
}

/* 8.6.16.3 */
static void
acknowledge_topology_change(struct stp_port *p)
{
    p->topology_change_ack = true;
    transmit_config(p);
}

/* What a bridge does on becoming root (end of 8.7.3, 8.8.2, 8.8.4). */
static void
become_root_bridge(struct stp *stp)
{
    stp->max_age = stp->bridge_max_age;
    stp->hello_time = stp->bridge_hello_time;
    stp->forward_delay = stp->bridge_forward_delay;
    topology_change_detection(stp);
    stop_timer(&stp->tcn_timer);
    config_bpdu_generation(stp);
    start_timer(&stp->hello_timer, 0);
}

/* 8.7.1: received a configuration BPDU on enabled port P. */
static void
received_config_bpdu(struct stp_port *p, const struct stp_bpdu *bpdu)
{
    struct stp *stp = p->stp;
    bool was_root = is_root_bridge(stp);

    if (supersedes_port_info(p, bpdu)) {
        record_config_information(p, bpdu);
        configuration_update(stp);
        port_state_selection(stp);
        if (was_root && !is_root_bridge(stp)) {
            stop_timer(&stp->hello_timer);
            if (stp->topology_change_detected) {
                stop_timer(&stp->topology_change_timer);
                transmit_tcn(stp);
                start_timer(&stp->tcn_timer, 0);
            }
        }
        if (p == stp->root_port) {
            record_config_timeout_values(stp, bpdu);
            config_bpdu_generation(stp);
            if (bpdu->flags & STP_FLAG_TC_ACK) {
                topology_change_acknowledged(stp);
            }
            if (bpdu->flags & STP_FLAG_TC) {
                /* The root says the topology changes: age out quickly. */
                stp->fdb_needs_flush = true;
            }
        }
    } else if (is_designated_port(p)) {
        /* Inferior information on a LAN we serve: correct the sender. */
        transmit_config(p);
    }
}

/* 8.7.2 */
static void
received_tcn_bpdu(struct stp_port *p)
{
    if (is_designated_port(p)) {
        topology_change_detection(p->stp);
        acknowledge_topology_change(p);
    }
}

/* 8.7.3 */
static void
hello_timer_expiry(struct stp *stp)
{
    config_bpdu_generation(stp);
    start_timer(&stp->hello_timer, 0);
}

/* 8.7.4: the information P held is too old: forget it. */
static void
message_age_timer_expiry(struct stp_port *p)
{
    struct stp *stp = p->stp;
    bool was_root = is_root_bridge(stp);

    become_designated_port(p);
    configuration_update(stp);
    port_state_selection(stp);
    if (is_root_bridge(stp) && !was_root) {
        become_root_bridge(stp);
    }
}

/* 8.7.5 */
static void
forward_delay_timer_expiry(struct stp_port *p)
{
    if (p->state == STP_LISTENING) {
        set_port_state(p, STP_LEARNING);
        start_timer(&p->forward_delay_timer, 0);
    } else if (p->state == STP_LEARNING) {
        set_port_state(p, STP_FORWARDING);
        if (designated_for_some_port(p->stp) && p->change_detection_enabled) {
            topology_change_detection(p->stp);
        }
    }
}

/* 8.7.6 */
static void
tcn_timer_expiry(struct stp *stp)
{
    transmit_tcn(stp);
    start_timer(&stp->tcn_timer, 0);
}

/* 8.7.7 */
static void
topology_change_timer_expiry(struct stp *stp)
{
    stp->topology_change_detected = false;
    stp->topology_change = false;
}

/* 8.7.8 */
static void
hold_timer_expiry(struct stp_port *p)
{
    if (p->config_pending) {
        transmit_config(p);
    }
}

/* 8.8.1's initialisation of one port, leaving it in STATE. */
static void
initialize_port(struct stp_port *p, enum stp_state state)
{
    become_designated_port(p);
    set_port_state(p, state);
    p->topology_change_ack = false;
    p->config_pending = false;
    p->change_detection_enabled = true;
    stop_timer(&p->message_age_timer);
    stop_timer(&p->forward_delay_timer);
    stop_timer(&p->hold_timer);
}

/* The bridge. */

struct stp *
stp_create(const char *name, stp_identifier bridge_id,
           stp_send_bpdu_func *send_bpdu_cb, void *aux)
{
    struct stp *stp = xzalloc(sizeof *stp);

    stp->name = xstrdup(name);
    stp->bridge_id = bridge_id;
    if (!(bridge_id >> 48)) {
        stp->bridge_id |= (uint64_t) STP_DEFAULT_BRIDGE_PRIORITY << 48;
    }
    stp->bridge_hello_time = ms_to_ticks(STP_DEFAULT_HELLO_TIME);
    stp->bridge_max_age = ms_to_ticks(STP_DEFAULT_MAX_AGE);
    stp->bridge_forward_delay = ms_to_ticks(STP_DEFAULT_FWD_DELAY);
    stp->hello_time = stp->bridge_hello_time;
    stp->max_age = stp->bridge_max_age;
    stp->forward_delay = stp->bridge_forward_delay;

    stp->designated_root = stp->bridge_id;
    stp->root_path_cost = 0;
    stp->root_port = NULL;
    start_timer(&stp->hello_timer, 0);
    stp->last_run = LLONG_MIN;

    stp->send_bpdu = send_bpdu_cb;
    stp->aux = aux;

    for (int i = 0; i < STP_MAX_PORTS; i++) {
        struct stp_port *p = &stp->ports[i];

        p->stp = stp;
        p->port_id = (STP_DEFAULT_PORT_PRIORITY << 8) | (i + 1);
        p->path_cost = STP_DEFAULT_PATH_COST;
        /* Disabled from the start is no state change to report. */
        p->state = STP_DISABLED;
        initialize_port(p, STP_DISABLED);
    }
    return stp;
}

void
stp_destroy(struct stp *stp)
{
    if (stp) {
        free(stp->name);
        free(stp);
    }
}

/* 8.8.4: a new bridge identifier, priority and address alike. */
static void
change_bridge_id(struct stp *stp, stp_identifier new_id)
{
    if (new_id == stp->bridge_id) {
        return;
    }

    bool was_root = is_root_bridge(stp);
    FOR_EACH_ENABLED_PORT (p, stp) {
        if (is_designated_port(p)) {
            p->designated_bridge = new_id;
        }
    }
    stp->bridge_id = new_id;
    configuration_update(stp);
    port_state_selection(stp);
    if (is_root_bridge(stp) && !was_root) {
        become_root_bridge(stp);
    }
}

#define MAC_BITS ((UINT64_C(1) << 48) - 1)

void
stp_set_bridge_id(struct stp *stp, stp_identifier bridge_id)
{
    change_bridge_id(stp, ((stp->bridge_id & ~MAC_BITS)
                           | (bridge_id & MAC_BITS)));
}

const char *
stp_set_bridge_priority(struct stp *stp, int priority)
{
    if (priority < 0 || priority > UINT16_MAX) {
        return "bridge priority must be between 0 and 65535";
    }
    change_bridge_id(stp, ((stp->bridge_id & MAC_BITS)
                           | ((uint64_t) priority << 48)));
    return NULL;
}

const char *
stp_set_timers(struct stp *stp, int hello_ms, int max_age_ms,
               int forward_delay_ms)
{
    if (hello_ms < 1000 || hello_ms > 10000) {
        return "hello time must be between 1 and 10 s";
    }
    if (max_age_ms < 6000 || max_age_ms > 40000) {
        return "max age must be between 6 and 40 s";
    }
    if (forward_delay_ms < 4000 || forward_delay_ms > 30000) {
        return "forward delay must be between 4 and 30 s";
    }
    if (max_age_ms < 2 * (hello_ms + 1000)) {
        return "max age must be at least 2 * (hello time + 1 s)";
    }
    if (2 * (forward_delay_ms - 1000) < max_age_ms) {
        return "max age must be at most 2 * (forward delay - 1 s)";
    }
    stp->bridge_hello_time = ms_to_ticks(hello_ms);
    stp->bridge_max_age = ms_to_ticks(max_age_ms);
    stp->bridge_forward_delay = ms_to_ticks(forward_delay_ms);
    if (is_root_bridge(stp)) {
        /* The root's timers are the ones in use: they apply at once and
         * reach the other bridges in the next hello. */
        stp->hello_time = stp->bridge_hello_time;
        stp->max_age = stp->bridge_max_age;
        stp->forward_delay = stp->bridge_forward_delay;
    }
    return NULL;
}

/* Time. */

/* 8.7: every timer, in the standard's order, having advanced ELAPSED
 * ticks. */
static void
run_timers(struct stp *stp, int elapsed)
{
    if (timer_expired(&stp->hello_timer, elapsed, stp->hello_time)) {
        hello_timer_expiry(stp);
    }
    if (timer_expired(&stp->tcn_timer, elapsed, stp->bridge_hello_time)) {
        tcn_timer_expiry(stp);
    }
    if (timer_expired(&stp->topology_change_timer, elapsed,
                      stp->max_age + stp->forward_delay)) {
        topology_change_timer_expiry(stp);
    }
    FOR_EACH_ENABLED_PORT (p, stp) {
        if (timer_expired(&p->message_age_timer, elapsed, stp->max_age)) {
            message_age_timer_expiry(p);
        }
    }
    FOR_EACH_ENABLED_PORT (p, stp) {
        if (timer_expired(&p->forward_delay_timer, elapsed,
                          stp->forward_delay)) {
            forward_delay_timer_expiry(p);
        }
        if (timer_expired(&p->hold_timer, elapsed, HOLD_TIME)) {
            hold_timer_expiry(p);
        }
    }
}

void
stp_tick(struct stp *stp, int ms)
{
    /* Keep the sum well inside int so that no conversion overflows. */
    long long int total = (long long int) MAX(ms, 0) + stp->ms_remainder;
    total = MIN(total, INT_MAX / TICKS_PER_SEC);
    int elapsed = ms_to_ticks(total);

    stp->ms_remainder = total - ticks_to_ms(elapsed);
    if (elapsed) {
        run_timers(stp, elapsed);
    }
}

static void
note_timer(const struct stp_timer *timer, int timeout, int *min_left)
{
    if (timer->active) {
        int left = MAX(timeout - timer->value, 0);
        *min_left = MIN(*min_left, left);
    }
}

long long int
stp_time_to_next(const struct stp *stp)
{
    int left = INT_MAX;

    note_timer(&stp->hello_timer, stp->hello_time, &left);
    note_timer(&stp->tcn_timer, stp->bridge_hello_time, &left);
    note_timer(&stp->topology_change_timer,
               stp->max_age + stp->forward_delay, &left);
    FOR_EACH_ENABLED_PORT (p, stp) {
        note_timer(&p->message_age_timer, stp->max_age, &left);
        note_timer(&p->forward_delay_timer, stp->forward_delay, &left);
        note_timer(&p->hold_timer, HOLD_TIME, &left);
    }
    if (left == INT_MAX) {
        return LLONG_MAX;
    }
    /* The least MS for which stp_tick(MS) makes LEFT whole ticks. */
    long long int ms = ((long long int) left * 1000 + TICKS_PER_SEC - 1)
                       / TICKS_PER_SEC - stp->ms_remainder;
    return MAX(ms, 0);
}

long long int
stp_run(struct stp *stp, long long int now)
{
    if (stp->last_run != LLONG_MIN && now > stp->last_run) {
        long long int ms = now - stp->last_run;
        stp_tick(stp, ms > INT_MAX / TICKS_PER_SEC
                      ? INT_MAX / TICKS_PER_SEC : (int) ms);
    }
    if (stp->last_run == LLONG_MIN || now > stp->last_run) {
        stp->last_run = now;
    }

    /* A timer can be overdue without time passing: one whose timeout
     * shrank under it (a BPDU from a new root with shorter timers) or that
     * restarts with a timeout of 0 (a root advertising a zero forward
     * delay).  Fire those now, a bounded number of times, so that no
     * caller spins on a deadline that never moves. */
    long long int next = stp_time_to_next(stp);
    for (int i = 0; i < 4 && next == 0; i++) {
        run_timers(stp, 0);
        next = stp_time_to_next(stp);
    }
    return next == LLONG_MAX ? LLONG_MAX : now + MAX(next, 1);
}

/* Queries. */

const char *
stp_get_name(const struct stp *stp)
{
    return stp->name;
}

stp_identifier
stp_get_bridge_id(const struct stp *stp)
{
    return stp->bridge_id;
}

stp_identifier
stp_get_designated_root(const struct stp *stp)
{
    return stp->designated_root;
}

bool
stp_is_root_bridge(const struct stp *stp)
{
    return is_root_bridge(stp);
}

unsigned int
stp_get_root_path_cost(const struct stp *stp)
{
    return stp->root_path_cost;
}

struct stp_port *
stp_get_root_port(struct stp *stp)
{
    return stp->root_port;
}

int
stp_get_hello_time(const struct stp *stp)
{
    return ticks_to_ms(stp->hello_time);
}

int
stp_get_max_age(const struct stp *stp)
{
    return ticks_to_ms(stp->max_age);
}

int
stp_get_forward_delay(const struct stp *stp)
{
    return ticks_to_ms(stp->forward_delay);
}

bool
stp_check_and_reset_fdb_flush(struct stp *stp)
{
    bool flush = stp->fdb_needs_flush;
    stp->fdb_needs_flush = false;
    return flush;
}

struct stp_port *
stp_take_changed_port(struct stp *stp)
{
    if (!stp->n_changed) {
        return NULL;
    }

    struct stp_port *p = &stp->ports[stp->changed[stp->changed_head]];
    stp->changed_head = (stp->changed_head + 1) % STP_MAX_PORTS;
    stp->n_changed--;
    p->state_changed = false;
    return p;
}

/* Ports. */

struct stp_port *
stp_get_port(struct stp *stp, int port_no)
{
    ovs_assert(port_no >= 0 && port_no < STP_MAX_PORTS);
    return &stp->ports[port_no];
}

int
stp_port_no(const struct stp_port *p)
{
    return p - p->stp->ports;
}

struct stp *
stp_port_get_stp(struct stp_port *p)
{
    return p->stp;
}

/* 8.8.1 */
void
stp_port_enable(struct stp_port *p)
{
    struct stp *stp = p->stp;

    if (p->state == STP_DISABLED) {
        stp->n_used = MAX(stp->n_used, stp_port_no(p) + 1);
        initialize_port(p, STP_BLOCKING);
        port_state_selection(stp);
    }
}

/* 8.8.2 */
void
stp_port_disable(struct stp_port *p)
{
    struct stp *stp = p->stp;

    if (p->state == STP_DISABLED) {
        return;
    }

    bool was_root = is_root_bridge(stp);
    become_designated_port(p);
    set_port_state(p, STP_DISABLED);
    p->topology_change_ack = false;
    p->config_pending = false;
    stop_timer(&p->message_age_timer);
    stop_timer(&p->forward_delay_timer);
    configuration_update(stp);
    port_state_selection(stp);
    if (is_root_bridge(stp) && !was_root) {
        become_root_bridge(stp);
    }
}

/* 8.8.5 */
static void
change_port_id(struct stp_port *p, int new_port_id)
{
    if (new_port_id == p->port_id) {
        return;
    }

    struct stp *stp = p->stp;
    if (is_designated_port(p)) {
        p->designated_port = new_port_id;
    }
    p->port_id = new_port_id;
    if (stp->bridge_id == p->designated_bridge
        && p->port_id < p->designated_port) {
        become_designated_port(p);
        port_state_selection(stp);
    }
}

const char *
stp_port_set_priority(struct stp_port *p, int priority)
{
    if (priority < 0 || priority > 255) {
        return "port priority must be between 0 and 255";
    }
    change_port_id(p, (priority << 8) | (p->port_id & 0xff));
    return NULL;
}

/* 8.8.6 */
const char *
stp_port_set_path_cost(struct stp_port *p, int path_cost)
{
    if (path_cost < 1 || path_cost > UINT16_MAX) {
        return "path cost must be between 1 and 65535";
    }
    if (path_cost != p->path_cost) {
        p->path_cost = path_cost;
        configuration_update(p->stp);
        port_state_selection(p->stp);
    }
    return NULL;
}

uint16_t
stp_speed_to_path_cost(unsigned int speed_mbps)
{
    /* 802.1D-1998 table 8-5's recommended values. */
    return (speed_mbps >= 10000 ? 2
            : speed_mbps >= 1000 ? 4
            : speed_mbps >= 100 ? 19
            : speed_mbps >= 16 ? 62
            : speed_mbps >= 10 ? 100
            : speed_mbps >= 4 ? 250
            : STP_DEFAULT_PATH_COST);
}

void
stp_port_set_change_detection(struct stp_port *p, bool enabled)
{
    p->change_detection_enabled = enabled;
}

enum stp_state
stp_port_get_state(const struct stp_port *p)
{
    return p->state;
}

enum stp_role
stp_port_get_role(const struct stp_port *p)
{
    if (p->state == STP_DISABLED) {
        return STP_ROLE_DISABLED;
    } else if (p == p->stp->root_port) {
        return STP_ROLE_ROOT;
    } else if (is_designated_port(p)) {
        return STP_ROLE_DESIGNATED;
    } else {
        return STP_ROLE_ALTERNATE;
    }
}

int
stp_port_get_id(const struct stp_port *p)
{
    return p->port_id;
}

int
stp_port_get_path_cost(const struct stp_port *p)
{
    return p->path_cost;
}

bool
stp_port_may_forward(const struct stp_port *p)
{
    return stp_forward_in_state(p->state);
}

bool
stp_port_may_learn(const struct stp_port *p)
{
    return stp_learn_in_state(p->state);
}

void
stp_port_get_counters(const struct stp_port *p,
                      struct stp_port_counters *counters)
{
    *counters = p->counters;
}

/* Receiving. */

void
stp_received_bpdu(struct stp_port *p, const void *data, size_t len)
{
    struct stp *stp = p->stp;
    struct stp_bpdu bpdu;

    if (p->state == STP_DISABLED) {
        return;
    }

    enum stp_bpdu_error error = stp_bpdu_decode(data, len, &bpdu);
    if (error) {
        p->counters.rx_errors++;
        VLOG_WARN_RL(&bad_bpdu_rl, "%s: port %d: dropped %zu-byte "
                     "BPDU: %s", stp->name, stp_port_no(p), len,
                     stp_bpdu_error_string(error));
        return;
    }
    p->counters.rx_bpdus++;
    if (bpdu.type == STP_TYPE_CONFIG) {
        received_config_bpdu(p, &bpdu);
    } else {
        received_tcn_bpdu(p);
    }
}

void
stp_received_frame(struct stp_port *p, const void *frame, size_t len)
{
    const uint8_t *bpdu;
    size_t bpdu_len;

    if (p->state == STP_DISABLED) {
        return;
    }
    if (!stp_parse_frame(frame, len, &bpdu, &bpdu_len)) {
        p->counters.rx_errors++;
        VLOG_WARN_RL(&bad_bpdu_rl, "%s: port %d: dropped malformed "
                     "%zu-byte STP frame", p->stp->name,
                     stp_port_no(p), len);
        return;
    }
    stp_received_bpdu(p, bpdu, bpdu_len);
}
