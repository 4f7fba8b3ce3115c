#include <config.h>
#include "stp-member.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "dp-packet.h"
#include "dynamic-string.h"
#include "ovs-thread.h"
#include "port-protocol.h"
#include "stp.h"
#include "stp-bpdu.h"
#include "tree-member.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(stp_member);

struct stp_bridge {
    struct tree_bridge tree;
    struct stp_bridge_settings settings;    /* As applied (main). */
    struct stp *stp;                /* Engine (tree.mutex). */
};

struct stp_member {
    struct tree_member tree;
};

static const struct tree_class stp_tree_class;
static void stp_tree_format(struct tree_bridge *, struct ds *);
static void stp_tree_detect_topology_change(struct tree_bridge *);
static const struct port_protocol_class stp_member_class
    = TREE_PROTOCOL_CLASS("stp", "STP");

static struct stp_bridge *
stp_bridge_cast(const struct tree_bridge *tree)
{
    return CONTAINER_OF(tree, struct stp_bridge, tree);
}

static struct stp_port *
member_port(const struct tree_member *m)
{
    return stp_get_port(stp_bridge_cast(m->br)->stp, m->port_num - 1);
}

/* The engine's send_bpdu callback (bridge mutex held). */
static void
send_bpdu(const void *bpdu, size_t len, int port_no, void *br_)
{
    struct stp_bridge *br = br_;
    struct tree_member *m = tree_bridge_find(&br->tree, port_no + 1);
    if (m) {
        tree_bridge_send(&br->tree, m->port_num,
                         stp_compose_frame(bpdu, len, m->mac));
    }
}

/* The tree's class. */

static const char *
stp_tree_state_name(int state)
{
    return stp_state_name(state);
}

static long long int
stp_tree_run(struct tree_bridge *tree, long long int now)
{
    return stp_run(stp_bridge_cast(tree)->stp, now);
}

static void
stp_tree_receive(struct tree_member *m, const void *frame, size_t len)
{
    stp_received_frame(member_port(m), frame, len);
}

static void
stp_tree_take_changes(struct tree_bridge *tree)
{
    struct stp *stp = stp_bridge_cast(tree)->stp;
    struct stp_port *p;
    while ((p = stp_take_changed_port(stp))) {
        struct tree_member *m = tree_bridge_find(tree, stp_port_no(p) + 1);
        if (m) {
            tree_member_set_state(m, stp_port_get_state(p),
                                  stp_port_may_forward(p),
                                  stp_port_may_learn(p));
        }
    }
    if (stp_check_and_reset_fdb_flush(stp)) {
        tree_bridge_flush(tree);
    }
}

static void
stp_tree_set_link(struct tree_member *m, bool up)
{
    if (up) {
        stp_port_enable(member_port(m));
    } else {
        stp_port_disable(member_port(m));
    }
}

static void
stp_tree_remove(struct tree_member *m)
{
    stp_port_disable(member_port(m));
}

static void
stp_tree_free(struct tree_member *m)
{
    free(CONTAINER_OF(m, struct stp_member, tree));
}

static const struct tree_class stp_tree_class = {
    .name = "STP",
    .state_name = stp_tree_state_name,
    .run = stp_tree_run,
    .receive = stp_tree_receive,
    .take_changes = stp_tree_take_changes,
    .set_link = stp_tree_set_link,
    .remove = stp_tree_remove,
    .free = stp_tree_free,
    .command_prefix = "stp",
    .no_such = "no such stp object",
    .format = stp_tree_format,
    .detect_topology_change = stp_tree_detect_topology_change,
};

static void
apply_bridge_settings(struct stp_bridge *br,
                      const struct stp_bridge_settings *s)
{
    const char *name = br->tree.name;
    const char *error = stp_set_bridge_priority(br->stp, s->priority);
    if (error) {
        VLOG_ERR("bridge %s: stp-priority: %s", name, error);
        stp_set_bridge_priority(br->stp, STP_DEFAULT_BRIDGE_PRIORITY);
    }
    error = stp_set_timers(br->stp, s->hello_time, s->max_age,
                           s->forward_delay);
    if (error) {
        VLOG_ERR("bridge %s: STP timers: %s", name, error);
        stp_set_timers(br->stp, STP_DEFAULT_HELLO_TIME, STP_DEFAULT_MAX_AGE,
                       STP_DEFAULT_FWD_DELAY);
    }
    stp_set_bridge_id(br->stp, eth_addr_to_uint64(s->system_id));
    br->settings = *s;
}

struct stp_bridge *
stp_bridge_create(const char *name, const struct stp_bridge_settings *s)
{
    struct stp_bridge *br = xzalloc(sizeof *br);
    tree_bridge_init(&br->tree, &stp_tree_class, name);
    br->stp = stp_create(name, eth_addr_to_uint64(s->system_id), send_bpdu,
                         br);
    ovs_mutex_lock(&br->tree.mutex);
    apply_bridge_settings(br, s);
    tree_bridge_settle(&br->tree);
    ovs_mutex_unlock(&br->tree.mutex);
    return br;
}

void
stp_bridge_configure(struct stp_bridge *br,
                     const struct stp_bridge_settings *s)
{
    if (!memcmp(s, &br->settings, sizeof *s)) {
        return;
    }
    ovs_mutex_lock(&br->tree.mutex);
    apply_bridge_settings(br, s);
    tree_bridge_settle(&br->tree);
    ovs_mutex_unlock(&br->tree.mutex);
}

void
stp_bridge_destroy(struct stp_bridge *br)
{
    if (br) {
        stp_destroy(br->stp);
        tree_bridge_destroy(&br->tree);
        free(br);
    }
}

const struct tree_bridge *
stp_bridge_tree(const struct stp_bridge *br)
{
    return br ? &br->tree : NULL;
}

static void
apply_port_settings(struct tree_member *m, const struct stp_port_settings *s)
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

struct tree_member *
stp_member_create(struct stp_bridge *br, const char *name,
                  struct eth_addr mac, const struct stp_port_settings *s,
                  void *owner)
{
    if (s->port_num < 1 || s->port_num > STP_MAX_PORTS) {
        VLOG_ERR("port %s: invalid stp-port-num", name);
        return NULL;
    }
    ovs_mutex_lock(&br->tree.mutex);
    if (tree_bridge_find(&br->tree, s->port_num)) {
        ovs_mutex_unlock(&br->tree.mutex);
        VLOG_ERR("port %s: duplicate stp-port-num %d, disabling", name,
                 s->port_num);
        return NULL;
    }
    struct stp_member *sm = xzalloc(sizeof *sm);
    struct tree_member *m = &sm->tree;
    tree_member_init(m, &br->tree, &stp_member_class, name, s->port_num,
                     mac, STP_DISABLED, owner);
    apply_port_settings(m, s);
    struct stp_port *p = member_port(m);
    tree_member_set_state(m, stp_port_get_state(p), stp_port_may_forward(p),
                          stp_port_may_learn(p));
    tree_bridge_settle(&br->tree);
    ovs_mutex_unlock(&br->tree.mutex);
    return m;
}

bool
stp_member_configure(struct tree_member *m, const struct stp_port_settings *s)
{
    if (m->br->class != &stp_tree_class || s->port_num != m->port_num) {
        /* A new number is a new port for the tree: the caller makes a new
         * member. */
        return false;
    }
    ovs_mutex_lock(&m->br->mutex);
    apply_port_settings(m, s);
    tree_bridge_settle(m->br);
    ovs_mutex_unlock(&m->br->mutex);
    return true;
}

void
stp_bridge_get_status(struct stp_bridge *br, struct stp_bridge_status *st)
{
    ovs_mutex_lock(&br->tree.mutex);
    st->bridge_id = stp_get_bridge_id(br->stp);
    st->designated_root = stp_get_designated_root(br->stp);
    st->root_path_cost = stp_get_root_path_cost(br->stp);
    ovs_mutex_unlock(&br->tree.mutex);
}

bool
stp_member_get_status(struct tree_member *m, struct stp_port_status *st)
{
    if (!m || m->br->class != &stp_tree_class) {
        return false;
    }
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
    return true;
}

/* ovs-appctl stp/show. */

static void
stp_tree_format(struct tree_bridge *tree, struct ds *ds)
{
    struct stp_bridge *br = stp_bridge_cast(tree);
    struct stp *stp = br->stp;
    ds_put_format(ds, "---- %s ----\n", br->tree.name);
    ds_put_cstr(ds, "Root ID:\n");
    tree_format_bridge_id(ds, stp_get_designated_root(stp), 2,
                          stp_get_hello_time(stp) / 1000,
                          stp_get_max_age(stp) / 1000,
                          stp_get_forward_delay(stp) / 1000);
    struct stp_port *root = stp_get_root_port(stp);
    if (!root) {
        ds_put_cstr(ds, "  This bridge is the root\n");
    } else {
        struct tree_member *rm = tree_bridge_find(&br->tree,
                                                  stp_port_no(root) + 1);
        ds_put_format(ds, "  root-port       %s\n", rm ? rm->name : "");
        ds_put_format(ds, "  root-path-cost  %u\n",
                      stp_get_root_path_cost(stp));
    }
    ds_put_cstr(ds, "\nBridge ID:\n");
    tree_format_bridge_id(ds, stp_get_bridge_id(stp), 2,
                          br->settings.hello_time / 1000,
                          br->settings.max_age / 1000,
                          br->settings.forward_delay / 1000);
    ds_put_cstr(ds, "\n");
    ds_put_format(ds, "  %-11.10s%-11.10s%-11.10s%-6.5s%-8.7s\n",
                  "Interface", "Role", "State", "Cost", "Pri.Nbr");
    ds_put_cstr(ds, "  ---------- ---------- ---------- ----- -------\n");
    struct tree_member **members;
    size_t n = tree_bridge_sorted_members(&br->tree, &members);
    for (size_t i = 0; i < n; i++) {
        struct tree_member *m = members[i];
        if (!m->link) {
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
    free(members);
    ds_put_cstr(ds, "\n");
}
static void
stp_tree_detect_topology_change(struct tree_bridge *tree)
{
    stp_detect_topology_change(stp_bridge_cast(tree)->stp);
}
