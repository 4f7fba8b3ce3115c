/* rstp: the engine's interface (see rstp.h): bridges, ports, management,
 * time and received BPDUs.  The state machines are in rstp-sm.c. */
#include <config.h>
#include "rstp.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "rstp-private.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(rstp);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

const char *
rstp_state_name(enum rstp_state state)
{
    switch (state) {
    case RSTP_DISABLED:
        return "Disabled";
    case RSTP_LEARNING:
        return "Learning";
    case RSTP_FORWARDING:
        return "Forwarding";
    case RSTP_DISCARDING:
        return "Discarding";
    }
    return "Unknown";
}

const char *
rstp_port_role_name(enum rstp_port_role role)
{
    switch (role) {
    case RSTP_ROLE_ROOT:
        return "Root";
    case RSTP_ROLE_DESIGNATED:
        return "Designated";
    case RSTP_ROLE_ALTERNATE:
        return "Alternate";
    case RSTP_ROLE_BACKUP:
        return "Backup";
    case RSTP_ROLE_DISABLED:
        return "Disabled";
    }
    return "Unknown";
}

bool
rstp_forward_in_state(enum rstp_state state)
{
    return state == RSTP_FORWARDING;
}

bool
rstp_learn_in_state(enum rstp_state state)
{
    return state == RSTP_LEARNING || state == RSTP_FORWARDING;
}

/* Ports. */

static struct rstp_port *
find_port(const struct rstp *rstp, int port_no)
{
    struct rstp_port *p;

    HMAP_FOR_EACH_WITH_HASH (p, node, hash_int(port_no, 0), &rstp->ports) {
        if (p->port_no == port_no) {
            return p;
        }
    }
    return NULL;
}

void
rstp_port_note_change(struct rstp_port *p)
{
    if (!p->queued) {
        p->queued = true;
        ovs_list_push_back(&p->rstp->changed, &p->changed_node);
    }
}

static char *
port_error(const struct rstp *rstp, int port_no)
{
    return xasprintf("%s: no RSTP port %d", rstp->name, port_no);
}

/* Bridge. */

static bool
valid_priority(int priority)
{
    return priority >= RSTP_MIN_PRIORITY && priority <= RSTP_MAX_PRIORITY;
}

static char *
priority_error(const char *name, int priority)
{
    return xasprintf("%s: bridge priority %d is not between %d and %d",
                     name, priority, RSTP_MIN_PRIORITY, RSTP_MAX_PRIORITY);
}

struct rstp *
rstp_create(const char *name, uint64_t address, int priority,
            rstp_send_bpdu_func *send_bpdu, void *aux, char **errorp)
{
    if (!valid_priority(priority)) {
        *errorp = priority_error(name, priority);
        return NULL;
    }
    *errorp = NULL;

    struct rstp *rstp = xzalloc(sizeof *rstp);
    rstp->name = xstrdup(name);
    rstp->send_bpdu = send_bpdu;
    rstp->aux = aux;
    hmap_init(&rstp->ports);
    ovs_list_init(&rstp->port_list);
    ovs_list_init(&rstp->changed);
    rstp->address = address & UINT64_C(0xffffffffffff);
    /* 802.1D priorities go in steps; in-range values round down. */
    rstp->priority = priority - priority % RSTP_PRIORITY_STEP;
    rstp->ageing_time = RSTP_DEFAULT_AGEING_TIME;
    rstp->force_protocol_version = RSTP_FORCE_RSTP;
    rstp->max_age = RSTP_DEFAULT_MAX_AGE;
    rstp->forward_delay = RSTP_DEFAULT_FORWARD_DELAY;
    rstp->transmit_hold_count = RSTP_DEFAULT_TRANSMIT_HOLD_COUNT;
    rstp->last_tick = LLONG_MIN;
    rstp_sm_bridge_changed(rstp);
    rstp->prs_begin = true;
    rstp_sm_run(rstp);
    return rstp;
}

void
rstp_destroy(struct rstp *rstp)
{
    if (!rstp) {
        return;
    }
    struct rstp_port *p, *next;
    LIST_FOR_EACH_SAFE (p, next, list_node, &rstp->port_list) {
        ovs_list_remove(&p->list_node);
        hmap_remove(&rstp->ports, &p->node);
        free(p);
    }
    hmap_destroy(&rstp->ports);
    free(rstp->name);
    free(rstp);
}

const char *
rstp_get_name(const struct rstp *rstp)
{
    return rstp->name;
}

/* Bridge management: each setter validates, applies, and lets the machines
 * react at once. */

char *
rstp_set_bridge_address(struct rstp *rstp, uint64_t address)
{
    rstp->address = address & UINT64_C(0xffffffffffff);
    rstp_sm_bridge_changed(rstp);
    rstp_sm_run(rstp);
    return NULL;
}

char *
rstp_set_bridge_priority(struct rstp *rstp, int priority)
{
    if (!valid_priority(priority)) {
        return priority_error(rstp->name, priority);
    }
    priority -= priority % RSTP_PRIORITY_STEP;
    if (priority != rstp->priority) {
        rstp->priority = priority;
        rstp_sm_bridge_changed(rstp);
        rstp_sm_run(rstp);
    }
    return NULL;
}

char *
rstp_set_ageing_time(struct rstp *rstp, int seconds)
{
    if (seconds < RSTP_MIN_AGEING_TIME || seconds > RSTP_MAX_AGEING_TIME) {
        return xasprintf("%s: ageing time %d is not between %d and %d",
                         rstp->name, seconds, RSTP_MIN_AGEING_TIME,
                         RSTP_MAX_AGEING_TIME);
    }
    rstp->ageing_time = seconds;
    return NULL;
}

int
rstp_get_ageing_time(const struct rstp *rstp)
{
    return rstp->ageing_time;
}

char *
rstp_set_force_protocol_version(struct rstp *rstp, int version)
{
    if (version != RSTP_FORCE_STP_COMPATIBLE && version != RSTP_FORCE_RSTP) {
        return xasprintf("%s: force protocol version %d is neither %d (STP "
                         "compatible) nor %d (RSTP)", rstp->name, version,
                         RSTP_FORCE_STP_COMPATIBLE, RSTP_FORCE_RSTP);
    }
    if (version != rstp->force_protocol_version) {
        rstp->force_protocol_version = version;
        rstp_sm_protocol_version_changed(rstp);
        rstp_sm_run(rstp);
    }
    return NULL;
}

/* 17.14: 2 * (Forward Delay - 1) >= Max Age >= 2 * (Hello Time + 1). */
static char *
set_times(struct rstp *rstp, int max_age, int forward_delay)
{
    if (max_age < RSTP_MIN_MAX_AGE || max_age > RSTP_MAX_MAX_AGE) {
        return xasprintf("%s: max age %d is not between %d and %d",
                         rstp->name, max_age, RSTP_MIN_MAX_AGE,
                         RSTP_MAX_MAX_AGE);
    }
    if (forward_delay < RSTP_MIN_FORWARD_DELAY
        || forward_delay > RSTP_MAX_FORWARD_DELAY) {
        return xasprintf("%s: forward delay %d is not between %d and %d",
                         rstp->name, forward_delay, RSTP_MIN_FORWARD_DELAY,
                         RSTP_MAX_FORWARD_DELAY);
    }
    if (2 * (forward_delay - 1) < max_age
        || max_age < 2 * (RSTP_HELLO_TIME + 1)) {
        return xasprintf("%s: max age %d and forward delay %d break "
                         "2 * (forward delay - 1) >= max age >= "
                         "2 * (hello time + 1)", rstp->name, max_age,
                         forward_delay);
    }
    if (max_age != rstp->max_age || forward_delay != rstp->forward_delay) {
        rstp->max_age = max_age;
        rstp->forward_delay = forward_delay;
        rstp_sm_bridge_changed(rstp);
        rstp_sm_run(rstp);
    }
    return NULL;
}

char *
rstp_set_max_age(struct rstp *rstp, int seconds)
{
    return set_times(rstp, seconds, rstp->forward_delay);
}

char *
rstp_set_forward_delay(struct rstp *rstp, int seconds)
{
    return set_times(rstp, rstp->max_age, seconds);
}

char *
rstp_set_transmit_hold_count(struct rstp *rstp, int count)
{
    if (count < RSTP_MIN_TRANSMIT_HOLD_COUNT
        || count > RSTP_MAX_TRANSMIT_HOLD_COUNT) {
        return xasprintf("%s: transmit hold count %d is not between %d and "
                         "%d", rstp->name, count,
                         RSTP_MIN_TRANSMIT_HOLD_COUNT,
                         RSTP_MAX_TRANSMIT_HOLD_COUNT);
    }
    rstp->transmit_hold_count = count;
    rstp_sm_run(rstp);
    return NULL;
}

/* Time. */

long long int
rstp_run(struct rstp *rstp, long long int now)
{
    if (rstp->last_tick == LLONG_MIN || now < rstp->last_tick
        || rstp->clock_stopped) {
        /* First run, the clock went back, or the last run said it needed
         * no tick (no port was enabled, so the caller did not call): start
         * counting from now, lest a port enabled since then see its
         * timers expire at once. */
        rstp->last_tick = now;
    }
    /* Catching up after a long sleep would only replay timeouts that have
     * all expired anyway; a few ticks are enough to expire them all. */
    int ticks = 0;
    while (now - rstp->last_tick >= 1000) {
        rstp->last_tick += 1000;
        if (ticks++ < 2 * RSTP_MAX_MAX_AGE) {
            struct rstp_port *p;

            LIST_FOR_EACH (p, list_node, &rstp->port_list) {
                rstp_sm_tick(p);
            }
            rstp_sm_run(rstp);
        }
    }
    rstp->clock_stopped = !rstp->n_enabled;
    return rstp->clock_stopped ? LLONG_MAX : rstp->last_tick + 1000;
}

/* Received BPDUs. */

static void
count_error(struct rstp *rstp, struct rstp_port *p, int port_no,
            const char *why)
{
    rstp->rx_errors++;
    if (p) {
        p->stats.error_count++;
    }
    VLOG_DBG_RL(&rl, "%s: port %d: dropped BPDU: %s", rstp->name, port_no,
                why);
}

void
rstp_receive_bpdu(struct rstp *rstp, int port_no, const void *data,
                  size_t len)
{
    struct rstp_port *p = find_port(rstp, port_no);
    struct rstp_bpdu bpdu;
    const char *error;

    if (!p) {
        count_error(rstp, NULL, port_no, "no such port");
        return;
    }
    error = rstp_bpdu_decode(data, len, &bpdu);
    if (error) {
        count_error(rstp, p, port_no, error);
        return;
    }
    if (!p->port_enabled) {
        /* A port that is down hears nothing (17.23's DISCARD). */
        return;
    }
    /* 9.3.4: our own BPDU looped back to the port that sent it. */
    if (bpdu.type != RSTP_BPDU_TCN
        && (bpdu.bridge_id & UINT64_C(0xffffffffffff)) == rstp->address
        && (bpdu.port_id & 0xfff) == (p->port_id & 0xfff)) {
        count_error(rstp, p, port_no, "own BPDU looped back");
        return;
    }
    /* An STP-compatible bridge takes RST BPDUs as Configuration BPDUs
     * (17.13.4 with 9.3.4). */
    if (bpdu.type == RSTP_BPDU_RST
        && rstp->force_protocol_version < RSTP_FORCE_RSTP) {
        bpdu.type = RSTP_BPDU_CONFIG;
        bpdu.flags &= RSTP_FLAG_TC | RSTP_FLAG_TC_ACK;
    }
    p->stats.rx_count++;
    p->rcvd = bpdu;
    p->rcvd_bpdu = true;
    rstp_sm_run(rstp);
}

/* Bridge status. */

uint64_t
rstp_get_bridge_id(const struct rstp *rstp)
{
    return rstp->bridge_id;
}

uint64_t
rstp_get_designated_root(const struct rstp *rstp)
{
    return rstp->root_priority.root_id;
}

bool
rstp_is_root_bridge(const struct rstp *rstp)
{
    return rstp->root_priority.root_id == rstp->bridge_id;
}

uint32_t
rstp_get_root_path_cost(const struct rstp *rstp)
{
    return rstp->root_priority.root_path_cost;
}

int
rstp_get_root_port(const struct rstp *rstp)
{
    return rstp->root_port ? rstp->root_port->port_no : 0;
}

uint16_t
rstp_get_root_port_id(const struct rstp *rstp)
{
    return rstp->root_port_id;
}

void
rstp_get_status(const struct rstp *rstp, struct rstp_status *s)
{
    *s = (struct rstp_status) {
        .bridge_id = rstp->bridge_id,
        .root_id = rstp->root_priority.root_id,
        .designated_id = rstp->root_priority.designated_bridge_id,
        .root_path_cost = rstp->root_priority.root_path_cost,
        .designated_port_id = rstp->root_priority.designated_port_id,
        .bridge_port_id = rstp->root_priority.bridge_port_id,
        .root_port = rstp_get_root_port(rstp),
        .root_hello_time = rstp->root_times.hello_time,
        .root_max_age = rstp->root_times.max_age,
        .root_forward_delay = rstp->root_times.forward_delay,
        .hello_time = rstp->bridge_times.hello_time,
        .max_age = rstp->bridge_times.max_age,
        .forward_delay = rstp->bridge_times.forward_delay,
    };
}

unsigned long long int
rstp_get_rx_errors(const struct rstp *rstp)
{
    return rstp->rx_errors;
}

bool
rstp_check_and_reset_fdb_flush(struct rstp *rstp)
{
    bool flush = rstp->fdb_flush;
    rstp->fdb_flush = false;
    return flush;
}

size_t
rstp_take_changed_ports(struct rstp *rstp, int **portsp)
{
    size_t n = ovs_list_size(&rstp->changed);
    int *ports = n ? xmalloc(n * sizeof *ports) : NULL;
    size_t i = 0;
    struct rstp_port *p, *next;

    LIST_FOR_EACH_SAFE (p, next, changed_node, &rstp->changed) {
        ovs_list_remove(&p->changed_node);
        p->queued = false;
        ports[i++] = p->port_no;
    }
    *portsp = ports;
    return n;
}

void
rstp_detect_topology_change(struct rstp *rstp)
{
    struct rstp_port *p;

    LIST_FOR_EACH (p, list_node, &rstp->port_list) {
        rstp_sm_detect_topology_change(p);
    }
    rstp_sm_run(rstp);
}

uint32_t
rstp_path_cost_for_speed(unsigned long long int mbps)
{
    /* Table 17-3: 20,000,000,000 / speed in kb/s, by decade. */
    static const struct {
        unsigned long long int mbps;
        uint32_t cost;
    } table[] = {
        { 10000000, 2 }, { 1000000, 20 }, { 100000, 200 }, { 10000, 2000 },
        { 1000, 20000 }, { 100, 200000 }, { 10, 2000000 }, { 1, 20000000 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
        if (mbps >= table[i].mbps) {
            return table[i].cost;
        }
    }
    return RSTP_DEFAULT_PATH_COST;
}

/* Port management. */

char *
rstp_add_port(struct rstp *rstp, int port_no)
{
    if (port_no < 1 || port_no > RSTP_MAX_PORT_NUMBER) {
        return xasprintf("%s: RSTP port number %d is not between 1 and %d",
                         rstp->name, port_no, RSTP_MAX_PORT_NUMBER);
    }
    if (find_port(rstp, port_no)) {
        return xasprintf("%s: RSTP port %d already exists", rstp->name,
                         port_no);
    }

    struct rstp_port *p = xzalloc(sizeof *p);
    p->rstp = rstp;
    p->port_no = port_no;
    p->priority = RSTP_DEFAULT_PORT_PRIORITY;
    p->port_id = (p->priority << 8) | port_no;
    p->path_cost = RSTP_DEFAULT_PATH_COST;
    p->auto_edge = true;
    hmap_insert(&rstp->ports, &p->node, hash_int(port_no, 0));

    /* Keep the list in port order: role selection breaks no ties by list
     * order, but the order machines run in is then reproducible. */
    struct rstp_port *q;
    struct ovs_list *before = &rstp->port_list;
    LIST_FOR_EACH (q, list_node, &rstp->port_list) {
        if (q->port_no > port_no) {
            before = &q->list_node;
            break;
        }
    }
    ovs_list_insert(before, &p->list_node);

    rstp_sm_begin_port(p);
    rstp_sm_run(rstp);
    return NULL;
}

void
rstp_remove_port(struct rstp *rstp, int port_no)
{
    struct rstp_port *p = find_port(rstp, port_no);

    if (p) {
        if (p->port_enabled) {
            rstp->n_enabled--;
        }
        if (p->queued) {
            ovs_list_remove(&p->changed_node);
        }
        if (rstp->root_port == p) {
            rstp->root_port = NULL;
        }
        ovs_list_remove(&p->list_node);
        hmap_remove(&rstp->ports, &p->node);
        free(p);
        /* The remaining ports choose roles again without it. */
        rstp_sm_bridge_changed(rstp);
        rstp_sm_run(rstp);
    }
}

bool
rstp_has_port(const struct rstp *rstp, int port_no)
{
    return find_port(rstp, port_no) != NULL;
}

char *
rstp_port_set_priority(struct rstp *rstp, int port_no, int priority)
{
    struct rstp_port *p = find_port(rstp, port_no);

    if (!p) {
        return port_error(rstp, port_no);
    }
    if (priority < RSTP_MIN_PORT_PRIORITY
        || priority > RSTP_MAX_PORT_PRIORITY) {
        return xasprintf("%s: port %d: priority %d is not between %d and %d",
                         rstp->name, port_no, priority,
                         RSTP_MIN_PORT_PRIORITY, RSTP_MAX_PORT_PRIORITY);
    }
    priority -= priority % RSTP_PORT_PRIORITY_STEP;
    if (priority != p->priority) {
        p->priority = priority;
        p->port_id = (priority << 8) | port_no;
        p->reselect = true;
        p->selected = false;
        rstp_sm_run(rstp);
    }
    return NULL;
}

char *
rstp_port_set_path_cost(struct rstp *rstp, int port_no, uint32_t cost)
{
    struct rstp_port *p = find_port(rstp, port_no);

    if (!p) {
        return port_error(rstp, port_no);
    }
    if (cost < RSTP_MIN_PATH_COST || cost > RSTP_MAX_PATH_COST) {
        return xasprintf("%s: port %d: path cost %"PRIu32" is not between "
                         "%d and %d", rstp->name, port_no, cost,
                         RSTP_MIN_PATH_COST, RSTP_MAX_PATH_COST);
    }
    if (cost != p->path_cost) {
        p->path_cost = cost;
        p->reselect = true;
        p->selected = false;
        rstp_sm_run(rstp);
    }
    return NULL;
}

char *
rstp_port_set_admin_edge(struct rstp *rstp, int port_no, bool admin_edge)
{
    struct rstp_port *p = find_port(rstp, port_no);

    if (!p) {
        return port_error(rstp, port_no);
    }
    p->admin_edge = admin_edge;
    rstp_sm_run(rstp);
    return NULL;
}

char *
rstp_port_set_auto_edge(struct rstp *rstp, int port_no, bool auto_edge)
{
    struct rstp_port *p = find_port(rstp, port_no);

    if (!p) {
        return port_error(rstp, port_no);
    }
    p->auto_edge = auto_edge;
    rstp_sm_run(rstp);
    return NULL;
}

char *
rstp_port_set_mcheck(struct rstp *rstp, int port_no)
{
    struct rstp_port *p = find_port(rstp, port_no);

    if (!p) {
        return port_error(rstp, port_no);
    }
    /* 17.19.13: meaningful only while the bridge runs RSTP. */
    if (rstp->force_protocol_version >= RSTP_FORCE_RSTP) {
        p->mcheck = true;
        rstp_sm_run(rstp);
    }
    return NULL;
}

char *
rstp_port_set_enabled(struct rstp *rstp, int port_no, bool enabled)
{
    struct rstp_port *p = find_port(rstp, port_no);

    if (!p) {
        return port_error(rstp, port_no);
    }
    if (enabled != p->port_enabled) {
        p->port_enabled = enabled;
        rstp->n_enabled += enabled ? 1 : -1;
        if (enabled) {
            /* A port coming up starts transmitting afresh. */
            p->new_info = true;
            p->tx_count = 0;
        }
        VLOG_DBG("%s: port %d %s", rstp->name, port_no,
                 enabled ? "enabled" : "disabled");
        rstp_sm_run(rstp);
        rstp_sm_update_state(p);
    }
    return NULL;
}

/* Port status. */

enum rstp_state
rstp_port_get_state(const struct rstp *rstp, int port_no)
{
    const struct rstp_port *p = find_port(rstp, port_no);
    return p ? p->state : RSTP_DISABLED;
}

enum rstp_port_role
rstp_port_get_role(const struct rstp *rstp, int port_no)
{
    const struct rstp_port *p = find_port(rstp, port_no);
    return p ? p->role : RSTP_ROLE_DISABLED;
}

uint16_t
rstp_port_get_id(const struct rstp *rstp, int port_no)
{
    const struct rstp_port *p = find_port(rstp, port_no);
    return p ? p->port_id : 0;
}

bool
rstp_port_may_forward(const struct rstp *rstp, int port_no)
{
    return rstp_forward_in_state(rstp_port_get_state(rstp, port_no));
}

bool
rstp_port_may_learn(const struct rstp *rstp, int port_no)
{
    return rstp_learn_in_state(rstp_port_get_state(rstp, port_no));
}

bool
rstp_port_is_oper_edge(const struct rstp *rstp, int port_no)
{
    const struct rstp_port *p = find_port(rstp, port_no);
    return p && p->oper_edge;
}

bool
rstp_port_check_and_reset_fdb_flush(struct rstp *rstp, int port_no)
{
    struct rstp_port *p = find_port(rstp, port_no);
    bool flush = p && p->flush_pending;

    if (p) {
        p->flush_pending = false;
    }
    return flush;
}

bool
rstp_port_get_status(const struct rstp *rstp, int port_no,
                     struct rstp_port_status *s)
{
    const struct rstp_port *p = find_port(rstp, port_no);

    memset(s, 0, sizeof *s);
    if (!p) {
        return false;
    }
    s->port_id = p->port_id;
    s->state = p->state;
    s->role = p->role;
    s->priority = p->priority;
    s->path_cost = p->path_cost;
    s->designated_bridge_id = p->port_priority.designated_bridge_id;
    s->designated_port_id = p->port_priority.designated_port_id;
    s->designated_path_cost = p->port_priority.root_path_cost;
    s->stats = p->stats;
    return true;
}

void
rstp_port_get_stats(const struct rstp *rstp, int port_no,
                    struct rstp_port_stats *stats)
{
    const struct rstp_port *p = find_port(rstp, port_no);

    if (p) {
        *stats = p->stats;
    } else {
        memset(stats, 0, sizeof *stats);
    }
}
