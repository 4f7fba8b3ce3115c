#include <config.h>
#include "rstp-member.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "dp-packet.h"
#include "dynamic-string.h"
#include "stp-bpdu.h"
#include "tree-member.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(rstp_member);

struct rstp_bridge {
    struct tree_bridge tree;
    struct rstp_bridge_settings settings;   /* As asked (main). */
    struct rstp *rstp;              /* Engine (tree.mutex). */
};

struct rstp_member {
    struct tree_member tree;
    struct rstp_port_settings settings;     /* As asked (main). */
};

static const struct tree_class rstp_tree_class;
static const struct port_protocol_class rstp_member_class
    = TREE_PROTOCOL_CLASS("rstp", "RSTP");

static void rstp_tree_format(struct tree_bridge *, struct ds *);
static void rstp_tree_detect_topology_change(struct tree_bridge *);

static struct rstp_bridge *
rstp_bridge_cast(const struct tree_bridge *tree)
{
    return CONTAINER_OF(tree, struct rstp_bridge, tree);
}

static struct rstp *
member_engine(const struct tree_member *m)
{
    return rstp_bridge_cast(m->br)->rstp;
}

/* A port in the tree is Discarding while its link is down, as 3.1 says
 * (the engine calls that Disabled). */
static enum rstp_state
member_state(const struct tree_member *m)
{
    enum rstp_state state = rstp_port_get_state(member_engine(m),
                                                m->port_num);
    return state == RSTP_DISABLED ? RSTP_DISCARDING : state;
}

static void
report_state(struct tree_member *m)
{
    enum rstp_state state = member_state(m);
    tree_member_set_state(m, state, rstp_forward_in_state(state),
                          rstp_learn_in_state(state));
}

/* The engine's send_bpdu callback (bridge mutex held). */
static void
send_bpdu(const void *bpdu, size_t len, int port_no, void *br_)
{
    struct rstp_bridge *br = br_;
    struct tree_member *m = tree_bridge_find(&br->tree, port_no);
    if (m) {
        tree_bridge_send(&br->tree, port_no,
                         stp_compose_frame(bpdu, len, m->mac));
    }
}

/* The tree's class. */

static const char *
rstp_tree_state_name(int state)
{
    return rstp_state_name(state);
}

static long long int
rstp_tree_run(struct tree_bridge *tree, long long int now)
{
    return rstp_run(rstp_bridge_cast(tree)->rstp, now);
}

static void
rstp_tree_receive(struct tree_member *m, const void *frame, size_t len)
{
    const uint8_t *bpdu;
    size_t bpdu_len;
    if (!stp_parse_frame(frame, len, &bpdu, &bpdu_len)) {
        /* The engine counts it as a malformed BPDU on the port. */
        bpdu = frame;
        bpdu_len = 0;
    }
    rstp_receive_bpdu(member_engine(m), m->port_num, bpdu, bpdu_len);
}

static void
rstp_tree_take_changes(struct tree_bridge *tree)
{
    struct rstp *rstp = rstp_bridge_cast(tree)->rstp;
    int *ports;
    size_t n = rstp_take_changed_ports(rstp, &ports);
    for (size_t i = 0; i < n; i++) {
        struct tree_member *m = tree_bridge_find(tree, ports[i]);
        if (m) {
            report_state(m);
            if (rstp_port_check_and_reset_fdb_flush(rstp, ports[i])) {
                tree_member_flush(m);
            }
        }
    }
    free(ports);
    /* Each port's flush was taken with it. */
    rstp_check_and_reset_fdb_flush(rstp);
}

static void
rstp_tree_set_link(struct tree_member *m, bool up)
{
    free(rstp_port_set_enabled(member_engine(m), m->port_num, up));
}

static void
rstp_tree_remove(struct tree_member *m)
{
    rstp_remove_port(member_engine(m), m->port_num);
}

static void
rstp_tree_free(struct tree_member *m)
{
    free(CONTAINER_OF(m, struct rstp_member, tree));
}

static const struct tree_class rstp_tree_class = {
    .name = "RSTP",
    .state_name = rstp_tree_state_name,
    .run = rstp_tree_run,
    .receive = rstp_tree_receive,
    .take_changes = rstp_tree_take_changes,
    .set_link = rstp_tree_set_link,
    .remove = rstp_tree_remove,
    .free = rstp_tree_free,
    .command_prefix = "rstp",
    .no_such = "No such RSTP object",
    .format = rstp_tree_format,
    .detect_topology_change = rstp_tree_detect_topology_change,
};

/* Logs and frees ERROR, if any, from setting KEY on WHAT's NAME. */
static void
log_setting_error(const char *what, const char *name, const char *key,
                  char *error)
{
    if (error) {
        VLOG_ERR("%s %s: %s: %s", what, name, key, error);
        free(error);
    }
}

/* Applies the settings in S that differ from OLD (all if OLD is NULL). */
static void
apply_bridge_settings(struct rstp_bridge *br,
                      const struct rstp_bridge_settings *s,
                      const struct rstp_bridge_settings *old)
{
    struct rstp *rstp = br->rstp;
    const char *name = br->tree.name;
#define APPLY(FIELD, KEY, CALL)                                  \
    if (!old || s->FIELD != old->FIELD) {                        \
        log_setting_error("bridge", name, KEY, CALL);            \
    }
    if (!old || !eth_addr_equals(s->address, old->address)) {
        log_setting_error("bridge", name, "rstp-address",
                          rstp_set_bridge_address(
                              rstp, eth_addr_to_uint64(s->address)));
    }
    APPLY(priority, "rstp-priority",
          rstp_set_bridge_priority(rstp, s->priority));
    APPLY(ageing_time, "rstp-ageing-time",
          rstp_set_ageing_time(rstp, s->ageing_time));
    APPLY(force_protocol_version, "rstp-force-protocol-version",
          rstp_set_force_protocol_version(rstp, s->force_protocol_version));
    APPLY(max_age, "rstp-max-age", rstp_set_max_age(rstp, s->max_age));
    APPLY(forward_delay, "rstp-forward-delay",
          rstp_set_forward_delay(rstp, s->forward_delay));
    APPLY(transmit_hold_count, "rstp-transmit-hold-count",
          rstp_set_transmit_hold_count(rstp, s->transmit_hold_count));
#undef APPLY
    br->settings = *s;
}

struct rstp_bridge *
rstp_bridge_create(const char *name, const struct rstp_bridge_settings *s)
{
    struct rstp_bridge *br = xzalloc(sizeof *br);
    tree_bridge_init(&br->tree, &rstp_tree_class, name);
    char *error;
    br->rstp = rstp_create(name, eth_addr_to_uint64(s->address),
                           RSTP_DEFAULT_PRIORITY, send_bpdu, br, &error);
    ovs_assert(br->rstp);
    ovs_mutex_lock(&br->tree.mutex);
    struct rstp_bridge_settings defaults = {
        .address = s->address,
        .priority = RSTP_DEFAULT_PRIORITY,
        .ageing_time = RSTP_DEFAULT_AGEING_TIME,
        .force_protocol_version = RSTP_FORCE_RSTP,
        .max_age = RSTP_DEFAULT_MAX_AGE,
        .forward_delay = RSTP_DEFAULT_FORWARD_DELAY,
        .transmit_hold_count = RSTP_DEFAULT_TRANSMIT_HOLD_COUNT,
    };
    apply_bridge_settings(br, s, &defaults);
    tree_bridge_settle(&br->tree);
    ovs_mutex_unlock(&br->tree.mutex);
    return br;
}

void
rstp_bridge_configure(struct rstp_bridge *br,
                      const struct rstp_bridge_settings *s)
{
    if (!memcmp(s, &br->settings, sizeof *s)) {
        return;
    }
    ovs_mutex_lock(&br->tree.mutex);
    struct rstp_bridge_settings old = br->settings;
    apply_bridge_settings(br, s, &old);
    tree_bridge_settle(&br->tree);
    ovs_mutex_unlock(&br->tree.mutex);
}

void
rstp_bridge_destroy(struct rstp_bridge *br)
{
    if (br) {
        rstp_destroy(br->rstp);
        tree_bridge_destroy(&br->tree);
        free(br);
    }
}

void
rstp_bridge_get_status(struct rstp_bridge *br, struct rstp_status *s)
{
    ovs_mutex_lock(&br->tree.mutex);
    rstp_get_status(br->rstp, s);
    ovs_mutex_unlock(&br->tree.mutex);
}

const struct tree_bridge *
rstp_bridge_tree(const struct rstp_bridge *br)
{
    return br ? &br->tree : NULL;
}

/* Applies the settings of S that differ from OLD (all if OLD is NULL). */
static void
apply_port_settings(struct rstp_member *rm,
                    const struct rstp_port_settings *s,
                    const struct rstp_port_settings *old)
{
    struct tree_member *m = &rm->tree;
    struct rstp *rstp = member_engine(m);
    int num = m->port_num;
    if (!old || s->priority != old->priority) {
        log_setting_error("port", m->name, "rstp-port-priority",
                          rstp_port_set_priority(rstp, num, s->priority));
    }
    if (!old || s->path_cost != old->path_cost) {
        log_setting_error("port", m->name, "rstp-path-cost",
                          rstp_port_set_path_cost(rstp, num, s->path_cost));
    }
    if (!old || s->admin_edge != old->admin_edge) {
        free(rstp_port_set_admin_edge(rstp, num, s->admin_edge));
    }
    if (!old || s->auto_edge != old->auto_edge) {
        free(rstp_port_set_auto_edge(rstp, num, s->auto_edge));
    }
    if (s->mcheck && (!old || !old->mcheck)) {
        free(rstp_port_set_mcheck(rstp, num));
    }
    rm->settings = *s;
}

/* The lowest port number no member of BR has, 0 if none is free. */
static int
lowest_free_port_num(const struct rstp_bridge *br)
{
    for (int num = 1; num <= RSTP_MAX_PORT_NUMBER; num++) {
        if (!tree_bridge_find(&br->tree, num)) {
            return num;
        }
    }
    return 0;
}

struct tree_member *
rstp_member_create(struct rstp_bridge *br, const char *name,
                   struct eth_addr mac, const struct rstp_port_settings *s,
                   void *owner)
{
    if (s->port_num < 0 || s->port_num > RSTP_MAX_PORT_NUMBER) {
        VLOG_ERR("port %s: invalid rstp-port-num", name);
        return NULL;
    }
    ovs_mutex_lock(&br->tree.mutex);
    int num = s->port_num;
    if (!num) {
        num = (s->preferred_num >= 1 && s->preferred_num <= RSTP_MAX_PORT_NUMBER
               && !tree_bridge_find(&br->tree, s->preferred_num)
               ? s->preferred_num : lowest_free_port_num(br));
    }
    if (!num || tree_bridge_find(&br->tree, num)) {
        ovs_mutex_unlock(&br->tree.mutex);
        if (num) {
            VLOG_ERR("port %s: duplicate rstp-port-num %d, disabling", name,
                     num);
        } else {
            VLOG_ERR("port %s: too many RSTP ports, disabling", name);
        }
        return NULL;
    }
    char *error = rstp_add_port(br->rstp, num);
    if (error) {
        ovs_mutex_unlock(&br->tree.mutex);
        VLOG_ERR("port %s: %s", name, error);
        free(error);
        return NULL;
    }
    struct rstp_member *rm = xzalloc(sizeof *rm);
    struct tree_member *m = &rm->tree;
    tree_member_init(m, &br->tree, &rstp_member_class, name, num, mac,
                     RSTP_DISABLED, owner);
    apply_port_settings(rm, s, NULL);
    report_state(m);
    tree_bridge_settle(&br->tree);
    ovs_mutex_unlock(&br->tree.mutex);
    return m;
}

bool
rstp_member_configure(struct tree_member *m,
                      const struct rstp_port_settings *s)
{
    if (m->br->class != &rstp_tree_class
        || (s->port_num && s->port_num != m->port_num)) {
        return false;
    }
    struct rstp_member *rm = CONTAINER_OF(m, struct rstp_member, tree);
    if (!memcmp(s, &rm->settings, sizeof *s)) {
        return true;
    }
    ovs_mutex_lock(&m->br->mutex);
    struct rstp_port_settings old = rm->settings;
    apply_port_settings(rm, s, &old);
    tree_bridge_settle(m->br);
    ovs_mutex_unlock(&m->br->mutex);
    return true;
}

bool
rstp_member_get_status(struct tree_member *m, struct rstp_port_status *s)
{
    if (!m || m->br->class != &rstp_tree_class) {
        return false;
    }
    ovs_mutex_lock(&m->br->mutex);
    rstp_port_get_status(member_engine(m), m->port_num, s);
    s->state = member_state(m);
    ovs_mutex_unlock(&m->br->mutex);
    return true;
}

/* ovs-appctl rstp/show. */

static void
rstp_tree_format(struct tree_bridge *tree, struct ds *ds)
{
    struct rstp_bridge *br = rstp_bridge_cast(tree);
    struct rstp_status st;
    rstp_get_status(br->rstp, &st);
    ds_put_format(ds, "---- %s ----\n", br->tree.name);
    ds_put_cstr(ds, "Root ID:\n");
    struct tree_member *root = (st.root_port
                                ? tree_bridge_find(&br->tree, st.root_port)
                                : NULL);
    if (!root) {
        tree_format_bridge_id(ds, st.bridge_id, 4, st.hello_time,
                              st.max_age, st.forward_delay);
        ds_put_cstr(ds, "  This bridge is the root\n");
    } else {
        tree_format_bridge_id(ds, st.root_id, 4, st.root_hello_time,
                              st.root_max_age, st.root_forward_delay);
        ds_put_format(ds, "  root-port       %s\n", root->name);
        ds_put_format(ds, "  root-path-cost  %"PRIu32"\n",
                      st.root_path_cost);
    }
    ds_put_cstr(ds, "\nBridge ID:\n");
    tree_format_bridge_id(ds, st.bridge_id, 4, st.hello_time, st.max_age,
                          st.forward_delay);
    ds_put_cstr(ds, "\n");
    ds_put_format(ds, "  %-11.10s%-11.10s%-11.10s%-9.8s%-8.7s\n",
                  "Interface", "Role", "State", "Cost", "Pri.Nbr");
    ds_put_cstr(ds, "  ---------- ---------- ---------- -------- -------\n");
    struct tree_member **members;
    size_t n = tree_bridge_sorted_members(&br->tree, &members);
    for (size_t i = 0; i < n; i++) {
        struct tree_member *m = members[i];
        struct rstp_port_status ps;
        rstp_port_get_status(br->rstp, m->port_num, &ps);
        ds_put_format(ds, "  %-11.10s", m->name);
        ds_put_format(ds, "%-11.10s", rstp_port_role_name(ps.role));
        ds_put_format(ds, "%-11.10s", rstp_state_name(member_state(m)));
        ds_put_format(ds, "%-9"PRIu32, ps.path_cost);
        ds_put_format(ds, "%d.%d\n", ps.priority, m->port_num);
    }
    free(members);
    ds_put_cstr(ds, "\n");
}

static void
rstp_tree_detect_topology_change(struct tree_bridge *tree)
{
    rstp_detect_topology_change(rstp_bridge_cast(tree)->rstp);
}
