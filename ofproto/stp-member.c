#include <config.h>
#include "stp-member.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "dp-packet.h"
#include "dynamic-string.h"
#include "list.h"
#include "ovs-thread.h"
#include "port-protocol.h"
#include "stp.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

/* State changes are logged under 3.1's module, which tests filter on. */
VLOG_USE_MODULE(ofproto_dpif);

struct stp_bridge {
    struct ovs_list node;           /* In all_bridges (main thread). */
    char *name;
    struct stp_bridge_settings settings;    /* As applied (main). */

    struct ovs_mutex mutex;
    struct stp *stp;                /* Engine (mutex). */
    struct stp_member *members[STP_MAX_PORTS + 1];  /* By port number,
                                                     * 1-based (mutex). */
    /* The member whose run() drives the engine's timers (mutex): the
     * others run only to send what the engine composed for them, so a
     * hello costs one engine run, not one per port. */
    struct stp_member *driver;
    /* Where the engine's send_bpdu callback puts frames (mutex). */
    struct stp_member *running;
    struct dp_packet_batch *running_out;
    bool flush;                     /* Topology change seen (mutex). */
};

struct stp_member {
    struct port_protocol up;
    struct stp_bridge *br;
    char *name;
    int port_num;                   /* 1-255. */
    struct eth_addr mac;
    bool link;                      /* Main thread. */

    /* Mutex. */
    enum stp_state state;           /* As last taken from the engine. */
    long long int state_since;      /* time_msec() when it began. */
    /* State changes not logged yet, oldest first: the main thread logs
     * them (main_changed()). */
    enum stp_state log_from[8], log_to[8];
    size_t n_log;
    bool may_forward, may_learn;
    struct dp_packet_batch pending; /* BPDUs composed for this port while
                                     * another member ran the engine. */
};

static struct ovs_list all_bridges = OVS_LIST_INITIALIZER(&all_bridges);

static uint64_t
eth_addr_to_uint64(struct eth_addr ea)
{
    uint64_t v = 0;
    for (int i = 0; i < ETH_ADDR_LEN; i++) {
        v = (v << 8) | ea.ea[i];
    }
    return v;
}

static struct eth_addr
eth_addr_from_uint64(uint64_t v)
{
    struct eth_addr ea;
    for (int i = ETH_ADDR_LEN - 1; i >= 0; i--) {
        ea.ea[i] = v;
        v >>= 8;
    }
    return ea;
}
static const struct port_protocol_class stp_member_class;

static struct stp_member *
stp_member_cast(const struct port_protocol *p)
{
    return CONTAINER_OF(p, struct stp_member, up);
}

static struct stp_port *
member_port(const struct stp_member *m)
{
    return stp_get_port(m->br->stp, m->port_num - 1);
}

/* The engine's send_bpdu callback (bridge mutex held). */
static void
send_bpdu(const void *bpdu, size_t len, int port_no, void *br_)
{
    struct stp_bridge *br = br_;
    struct stp_member *m = (port_no >= 0 && port_no < STP_MAX_PORTS
                            ? br->members[port_no + 1] : NULL);
    if (!m) {
        return;
    }
    struct dp_packet *packet = stp_compose_frame(bpdu, len, m->mac);
    if (m == br->running && br->running_out) {
        dp_packet_batch_add_or_delete(br->running_out, packet);
    } else if (dp_packet_batch_add_or_delete(&m->pending, packet)) {
        port_protocol_schedule(&m->up, time_msec());
    }
}

/* Takes what the engine changed (bridge mutex held): logs and queues the
 * ports whose state changed, notes a topology change, and keeps the
 * driver scheduled for the engine's next timer. */
static void
take_changes(struct stp_bridge *br)
{
    struct stp_port *p;
    while ((p = stp_take_changed_port(br->stp))) {
        struct stp_member *m = br->members[stp_port_no(p) + 1];
        if (!m) {
            continue;
        }
        enum stp_state state = stp_port_get_state(p);
        if (state != m->state) {
            if (m->n_log < ARRAY_SIZE(m->log_to)) {
                m->log_from[m->n_log] = m->state;
                m->log_to[m->n_log++] = state;
            }
            m->state = state;
            m->state_since = time_msec();
        }
        m->may_forward = stp_port_may_forward(p);
        m->may_learn = stp_port_may_learn(p);
        port_protocol_changed(&m->up);
    }
    if (stp_check_and_reset_fdb_flush(br->stp)) {
        br->flush = true;
        if (br->driver) {
            port_protocol_changed(&br->driver->up);
        }
    }
    long long int next = stp_time_to_next(br->stp);
    if (br->driver && next != LLONG_MAX) {
        port_protocol_schedule(&br->driver->up, time_msec() + next);
    }
}

static void
apply_bridge_settings(struct stp_bridge *br,
                      const struct stp_bridge_settings *s)
{
    const char *error = stp_set_bridge_priority(br->stp, s->priority);
    if (error) {
        VLOG_ERR("bridge %s: stp-priority: %s", br->name, error);
        stp_set_bridge_priority(br->stp, STP_DEFAULT_BRIDGE_PRIORITY);
    }
    error = stp_set_timers(br->stp, s->hello_time, s->max_age,
                           s->forward_delay);
    if (error) {
        VLOG_ERR("bridge %s: STP timers: %s", br->name, error);
        stp_set_timers(br->stp, STP_DEFAULT_HELLO_TIME, STP_DEFAULT_MAX_AGE,
                       STP_DEFAULT_FWD_DELAY);
    }
    stp_set_bridge_id(br->stp, eth_addr_to_uint64(s->system_id));
    br->settings = *s;
}

struct stp_bridge *
stp_bridge_create(const char *name, const struct stp_bridge_settings *s)
{
    stp_bridge_init_commands();
    struct stp_bridge *br = xzalloc(sizeof *br);
    br->name = xstrdup(name);
    ovs_mutex_init(&br->mutex);
    char *stp_name = xasprintf("%s", name);
    br->stp = stp_create(stp_name, eth_addr_to_uint64(s->system_id),
                         send_bpdu, br);
    free(stp_name);
    ovs_mutex_lock(&br->mutex);
    apply_bridge_settings(br, s);
    stp_run(br->stp, time_msec());
    take_changes(br);
    ovs_mutex_unlock(&br->mutex);
    ovs_list_push_back(&all_bridges, &br->node);
    return br;
}

void
stp_bridge_configure(struct stp_bridge *br,
                     const struct stp_bridge_settings *s)
{
    if (!memcmp(s, &br->settings, sizeof *s)) {
        return;
    }
    ovs_mutex_lock(&br->mutex);
    apply_bridge_settings(br, s);
    take_changes(br);
    ovs_mutex_unlock(&br->mutex);
}

void
stp_bridge_destroy(struct stp_bridge *br)
{
    if (br) {
        ovs_list_remove(&br->node);
        stp_destroy(br->stp);
        ovs_mutex_destroy(&br->mutex);
        free(br->name);
        free(br);
    }
}

static void
apply_port_settings(struct stp_member *m, const struct stp_port_settings *s)
{
    struct stp_port *p = member_port(m);
    const char *error = stp_port_set_priority(p, s->priority);
    if (error) {
        VLOG_ERR("port %s: stp-port-priority: %s", m->name, error);
        stp_port_set_priority(p, STP_DEFAULT_PORT_PRIORITY);
    }
    error = stp_port_set_path_cost(p, s->path_cost);
    if (error) {
        VLOG_ERR("port %s: stp-path-cost: %s", m->name, error);
        stp_port_set_path_cost(p, STP_DEFAULT_PATH_COST);
    }
}

struct stp_member *
stp_member_create(struct stp_bridge *br, const char *name,
                  struct eth_addr mac, const struct stp_port_settings *s,
                  void *owner)
{
    if (s->port_num < 1 || s->port_num > STP_MAX_PORTS) {
        VLOG_ERR("port %s: invalid stp-port-num", name);
        return NULL;
    }
    ovs_mutex_lock(&br->mutex);
    if (br->members[s->port_num]) {
        ovs_mutex_unlock(&br->mutex);
        VLOG_ERR("port %s: duplicate stp-port-num %d, disabling", name,
                 s->port_num);
        return NULL;
    }
    struct stp_member *m = xzalloc(sizeof *m);
    port_protocol_init(&m->up, &stp_member_class, owner);
    m->br = br;
    m->name = xstrdup(name);
    m->port_num = s->port_num;
    m->mac = mac;
    m->state = STP_DISABLED;
    m->state_since = time_msec();
    dp_packet_batch_init(&m->pending);
    br->members[m->port_num] = m;
    if (!br->driver) {
        br->driver = m;
    }
    apply_port_settings(m, s);
    struct stp_port *p = member_port(m);
    m->may_forward = stp_port_may_forward(p);
    m->may_learn = stp_port_may_learn(p);
    take_changes(br);
    ovs_mutex_unlock(&br->mutex);
    return m;
}

bool
stp_member_configure(struct stp_member *m, const struct stp_port_settings *s)
{
    struct stp_bridge *br = m->br;
    ovs_mutex_lock(&br->mutex);
    if (s->port_num != m->port_num) {
        /* A new number is a new port for the tree: the caller makes a new
         * member. */
        ovs_mutex_unlock(&br->mutex);
        return false;
    }
    apply_port_settings(m, s);
    take_changes(br);
    ovs_mutex_unlock(&br->mutex);
    return true;
}

void
stp_member_destroy(struct stp_member *m)
{
    if (!m) {
        return;
    }
    struct stp_bridge *br = m->br;
    ovs_mutex_lock(&br->mutex);
    stp_port_disable(member_port(m));
    br->members[m->port_num] = NULL;
    if (br->driver == m) {
        br->driver = NULL;
        for (int i = 1; i <= STP_MAX_PORTS && !br->driver; i++) {
            br->driver = br->members[i];
        }
    }
    dp_packet_batch_delete(&m->pending);
    take_changes(br);
    ovs_mutex_unlock(&br->mutex);
    port_protocol_detach(&m->up);
    free(m->name);
    free(m);
}

struct port_protocol *
stp_member_protocol(struct stp_member *m)
{
    return &m->up;
}

int
stp_member_port_num(const struct stp_member *m)
{
    return m->port_num;
}

void
stp_member_set_link(struct stp_member *m, bool up)
{
    if (up == m->link) {
        return;
    }
    m->link = up;
    struct stp_bridge *br = m->br;
    ovs_mutex_lock(&br->mutex);
    if (up) {
        stp_port_enable(member_port(m));
    } else {
        stp_port_disable(member_port(m));
    }
    take_changes(br);
    ovs_mutex_unlock(&br->mutex);
}

void
stp_bridge_get_status(struct stp_bridge *br, struct stp_bridge_status *st)
{
    ovs_mutex_lock(&br->mutex);
    st->bridge_id = stp_get_bridge_id(br->stp);
    st->designated_root = stp_get_designated_root(br->stp);
    st->root_path_cost = stp_get_root_path_cost(br->stp);
    ovs_mutex_unlock(&br->mutex);
}

void
stp_member_get_status(struct stp_member *m, struct stp_port_status *st)
{
    ovs_mutex_lock(&m->br->mutex);
    struct stp_port *p = member_port(m);
    st->port_id = stp_port_get_id(p);
    st->state = stp_state_name(stp_port_get_state(p));
    st->role = stp_role_name(stp_port_get_role(p));
    st->state_since = m->state_since;
    struct stp_port_counters c;
    stp_port_get_counters(p, &c);
    st->tx_bpdus = c.tx_bpdus;
    st->rx_bpdus = c.rx_bpdus;
    st->rx_errors = c.rx_errors;
    ovs_mutex_unlock(&m->br->mutex);
}

/* The per-port protocol. */

static bool
stp_member_recognizes(const struct port_protocol *p OVS_UNUSED,
                      const struct flow *flow, struct flow_wildcards *wc)
{
    return stp_should_process_flow(flow, wc);
}

static void
stp_member_receive(struct port_protocol *p, const struct flow *flow
                   OVS_UNUSED, const struct dp_packet *packet)
{
    struct stp_member *m = stp_member_cast(p);
    struct stp_bridge *br = m->br;
    ovs_mutex_lock(&br->mutex);
    stp_run(br->stp, time_msec());
    stp_received_frame(member_port(m), dp_packet_data(packet),
                       dp_packet_size(packet));
    take_changes(br);
    ovs_mutex_unlock(&br->mutex);
}

static long long int
stp_member_run(struct port_protocol *p, long long int now,
               const struct eth_addr port_mac OVS_UNUSED,
               struct dp_packet_batch *out)
{
    struct stp_member *m = stp_member_cast(p);
    struct stp_bridge *br = m->br;
    long long int next = LLONG_MAX;
    ovs_mutex_lock(&br->mutex);
    dp_packet_batch_move(out, &m->pending);
    if (m == br->driver) {
        br->running = m;
        br->running_out = out;
        next = stp_run(br->stp, now);
        br->running = NULL;
        br->running_out = NULL;
        take_changes(br);
    }
    ovs_mutex_unlock(&br->mutex);
    return next;
}

static bool
stp_member_may_forward(const struct port_protocol *p)
{
    struct stp_member *m = stp_member_cast(p);
    ovs_mutex_lock(&m->br->mutex);
    bool may = m->may_forward;
    ovs_mutex_unlock(&m->br->mutex);
    return may;
}

static bool
stp_member_may_learn(const struct port_protocol *p)
{
    struct stp_member *m = stp_member_cast(p);
    ovs_mutex_lock(&m->br->mutex);
    bool may = m->may_learn;
    ovs_mutex_unlock(&m->br->mutex);
    return may;
}

static bool
stp_member_take_mac_flush(struct port_protocol *p)
{
    struct stp_member *m = stp_member_cast(p);
    ovs_mutex_lock(&m->br->mutex);
    bool flush = m->br->flush;
    m->br->flush = false;
    ovs_mutex_unlock(&m->br->mutex);
    return flush;
}

static void
stp_member_main_changed(struct port_protocol *p)
{
    struct stp_member *m = stp_member_cast(p);
    ovs_mutex_lock(&m->br->mutex);
    for (size_t i = 0; i < m->n_log; i++) {
        VLOG_DBG("port %s: STP state changed from %s to %s", m->name,
                 stp_state_name(m->log_from[i]),
                 stp_state_name(m->log_to[i]));
    }
    m->n_log = 0;
    ovs_mutex_unlock(&m->br->mutex);
}

static const struct port_protocol_class stp_member_class = {
    .name = "stp",
    .slow_reason = SLOW_STP,
    .recognizes = stp_member_recognizes,
    .receive = stp_member_receive,
    .run = stp_member_run,
    .may_forward = stp_member_may_forward,
    .may_learn = stp_member_may_learn,
    .block_name = "STP",
    .take_mac_flush = stp_member_take_mac_flush,
    .main_changed = stp_member_main_changed,
};

/* ovs-appctl. */

static struct stp_bridge *
stp_bridge_find(const char *name)
{
    struct stp_bridge *br;
    LIST_FOR_EACH (br, node, &all_bridges) {
        if (!strcmp(br->name, name)) {
            return br;
        }
    }
    return NULL;
}

static void
put_bridge_id(struct ds *ds, uint64_t id, int hello, int max_age,
              int fwd_delay)
{
    struct eth_addr mac = eth_addr_from_uint64(id);
    ds_put_format(ds, "  stp-priority  %"PRIu16"\n", (uint16_t) (id >> 48));
    ds_put_format(ds, "  stp-system-id   "ETH_ADDR_FMT"\n",
                  ETH_ADDR_ARGS(mac));
    ds_put_format(ds, "  stp-hello-time  %ds\n", hello / 1000);
    ds_put_format(ds, "  stp-max-age     %ds\n", max_age / 1000);
    ds_put_format(ds, "  stp-fwd-delay   %ds\n", fwd_delay / 1000);
}

static void
stp_bridge_format(struct stp_bridge *br, struct ds *ds)
{
    ovs_mutex_lock(&br->mutex);
    struct stp *stp = br->stp;
    ds_put_format(ds, "---- %s ----\n", br->name);
    ds_put_cstr(ds, "Root ID:\n");
    put_bridge_id(ds, stp_get_designated_root(stp), stp_get_hello_time(stp),
                  stp_get_max_age(stp), stp_get_forward_delay(stp));
    struct stp_port *root = stp_get_root_port(stp);
    if (!root) {
        ds_put_cstr(ds, "  This bridge is the root\n");
    } else {
        struct stp_member *rm = br->members[stp_port_no(root) + 1];
        ds_put_format(ds, "  root-port       %s\n", rm ? rm->name : "");
        ds_put_format(ds, "  root-path-cost  %u\n",
                      stp_get_root_path_cost(stp));
    }
    ds_put_cstr(ds, "\nBridge ID:\n");
    put_bridge_id(ds, stp_get_bridge_id(stp), br->settings.hello_time,
                  br->settings.max_age, br->settings.forward_delay);
    ds_put_cstr(ds, "\n");
    ds_put_format(ds, "  %-11.10s%-11.10s%-11.10s%-6.5s%-8.7s\n",
                  "Interface", "Role", "State", "Cost", "Pri.Nbr");
    ds_put_cstr(ds, "  ---------- ---------- ---------- ----- -------\n");
    for (int i = 1; i <= STP_MAX_PORTS; i++) {
        struct stp_member *m = br->members[i];
        if (!m || !m->link) {
            continue;
        }
        struct stp_port *p = member_port(m);
        int id = stp_port_get_id(p);
        ds_put_format(ds, "  %-11.10s", m->name);
        ds_put_format(ds, "%-11.10s",
                      stp_role_name(stp_port_get_role(p)));
        ds_put_format(ds, "%-11.10s",
                      stp_state_name(stp_port_get_state(p)));
        ds_put_format(ds, "%-6d", stp_port_get_path_cost(p));
        ds_put_format(ds, "%d.%d\n", id >> 8, id & 0xff);
    }
    ds_put_cstr(ds, "\n");
    ovs_mutex_unlock(&br->mutex);
}

static void
stp_show_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
             void *aux OVS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    if (argc > 1) {
        struct stp_bridge *br = stp_bridge_find(argv[1]);
        if (!br) {
            unixctl_command_reply_error(conn, "no such stp object");
            return;
        }
        stp_bridge_format(br, &ds);
    } else {
        struct stp_bridge *br;
        LIST_FOR_EACH (br, node, &all_bridges) {
            stp_bridge_format(br, &ds);
        }
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

static void
stp_tcn_one(struct stp_bridge *br)
{
    ovs_mutex_lock(&br->mutex);
    stp_detect_topology_change(br->stp);
    take_changes(br);
    ovs_mutex_unlock(&br->mutex);
}

static void
stp_tcn_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
            void *aux OVS_UNUSED)
{
    if (argc > 1) {
        struct stp_bridge *br = stp_bridge_find(argv[1]);
        if (!br) {
            unixctl_command_reply_error(conn, "no such stp object");
            return;
        }
        stp_tcn_one(br);
    } else {
        struct stp_bridge *br;
        LIST_FOR_EACH (br, node, &all_bridges) {
            stp_tcn_one(br);
        }
    }
    unixctl_command_reply(conn, "OK");
}

void
stp_bridge_init_commands(void)
{
    static bool done;
    if (!done) {
        done = true;
        unixctl_command_register("stp/tcn", "[bridge]", 0, 1, stp_tcn_cmd,
                                 NULL);
        unixctl_command_register("stp/show", "[bridge]", 0, 1, stp_show_cmd,
                                 NULL);
    }
}
