#include <config.h>
#include "tree-member.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "hash.h"
#include "stp-bpdu.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

/* State changes are logged under 3.1's module, which tests filter on. */
VLOG_USE_MODULE(ofproto_dpif);

static struct tree_member *
tree_member_cast(const struct port_protocol *p)
{
    return CONTAINER_OF(p, struct tree_member, up);
}

static struct ovs_list all_bridges = OVS_LIST_INITIALIZER(&all_bridges);

static void register_commands(const struct tree_class *);

void
tree_bridge_init(struct tree_bridge *br, const struct tree_class *class,
                 const char *name)
{
    register_commands(class);
    br->class = class;
    ovs_list_push_back(&all_bridges, &br->node);
    br->name = xstrdup(name);
    ovs_mutex_init(&br->mutex);
    hmap_init(&br->members);
    br->driver = NULL;
    br->running_out = NULL;
    br->flush = false;
}

void
tree_bridge_destroy(struct tree_bridge *br)
{
    ovs_assert(hmap_is_empty(&br->members));
    ovs_list_remove(&br->node);
    hmap_destroy(&br->members);
    ovs_mutex_destroy(&br->mutex);
    free(br->name);
}

/* Runs the engine at NOW and reports what changed; returns the engine's
 * next deadline, which the driver gets when it is not the caller. */
static long long int
settle(struct tree_bridge *br, long long int now)
{
    long long int next = br->class->run(br, now);
    br->class->take_changes(br);
    return next;
}

void
tree_bridge_settle(struct tree_bridge *br)
{
    long long int next = settle(br, time_msec());
    if (br->driver && next != LLONG_MAX) {
        port_protocol_schedule(&br->driver->up, next);
    }
}

struct tree_member *
tree_bridge_find(const struct tree_bridge *br, int port_num)
{
    struct tree_member *m;
    HMAP_FOR_EACH_WITH_HASH (m, node, hash_int(port_num, 0), &br->members) {
        if (m->port_num == port_num) {
            return m;
        }
    }
    return NULL;
}

void
tree_bridge_send(struct tree_bridge *br, int port_num,
                 struct dp_packet *frame)
{
    struct tree_member *m = tree_bridge_find(br, port_num);
    if (!m) {
        dp_packet_delete(frame);
    } else if (m == br->driver && br->running_out) {
        dp_packet_batch_add_or_delete(br->running_out, frame);
    } else if (dp_packet_batch_add_or_delete(&m->pending, frame)) {
        port_protocol_schedule(&m->up, time_msec());
    }
}

static int
compare_port_nums(const void *a_, const void *b_)
{
    const struct tree_member *const *a = a_;
    const struct tree_member *const *b = b_;
    return (*a)->port_num < (*b)->port_num ? -1
           : (*a)->port_num > (*b)->port_num;
}

size_t
tree_bridge_sorted_members(const struct tree_bridge *br,
                           struct tree_member ***membersp)
{
    size_t n = hmap_count(&br->members);
    struct tree_member **members = xmalloc(MAX(n, 1) * sizeof *members);
    size_t i = 0;
    struct tree_member *m;
    HMAP_FOR_EACH (m, node, &br->members) {
        members[i++] = m;
    }
    qsort(members, n, sizeof *members, compare_port_nums);
    *membersp = members;
    return n;
}

void
tree_bridge_flush(struct tree_bridge *br)
{
    br->flush = true;
    if (br->driver) {
        port_protocol_changed(&br->driver->up);
    }
}

void
tree_member_init(struct tree_member *m, struct tree_bridge *br,
                 const struct port_protocol_class *class, const char *name,
                 int port_num, struct eth_addr mac, int state, void *owner)
{
    port_protocol_init(&m->up, class, owner);
    m->br = br;
    m->name = xstrdup(name);
    m->port_num = port_num;
    m->mac = mac;
    m->link = false;
    m->state = state;
    m->state_since = time_msec();
    m->n_log = 0;
    m->may_forward = m->may_learn = false;
    m->flush = false;
    dp_packet_batch_init(&m->pending);
    hmap_insert(&br->members, &m->node, hash_int(port_num, 0));
    if (!br->driver) {
        br->driver = m;
    }
}

void
tree_member_set_state(struct tree_member *m, int state, bool may_forward,
                      bool may_learn)
{
    if (state != m->state) {
        if (m->n_log < ARRAY_SIZE(m->log_to)) {
            m->log_from[m->n_log] = m->state;
            m->log_to[m->n_log++] = state;
        }
        m->state = state;
        m->state_since = time_msec();
    }
    if (may_learn != m->may_learn) {
        /* What the port learned before it stopped (or started) learning
         * may point the wrong way now, as 3.1 reasons too. */
        m->flush = true;
    }
    m->may_forward = may_forward;
    m->may_learn = may_learn;
    port_protocol_changed(&m->up);
}

void
tree_member_flush(struct tree_member *m)
{
    m->flush = true;
    port_protocol_changed(&m->up);
}

void
tree_member_set_link(struct tree_member *m, bool up)
{
    if (m && up != m->link) {
        struct tree_bridge *br = m->br;
        m->link = up;
        ovs_mutex_lock(&br->mutex);
        br->class->set_link(m, up);
        tree_bridge_settle(br);
        ovs_mutex_unlock(&br->mutex);
    }
}

void
tree_member_destroy(struct tree_member *m)
{
    if (!m) {
        return;
    }
    struct tree_bridge *br = m->br;
    ovs_mutex_lock(&br->mutex);
    br->class->remove(m);
    hmap_remove(&br->members, &m->node);
    if (br->driver == m) {
        /* Any other member will do: the engine runs the same. */
        br->driver = (hmap_is_empty(&br->members) ? NULL
                      : CONTAINER_OF(hmap_first(&br->members),
                                     struct tree_member, node));
    }
    dp_packet_batch_delete(&m->pending);
    tree_bridge_settle(br);
    ovs_mutex_unlock(&br->mutex);
    /* Off the change queue, where it may have gone before attachment. */
    port_protocol_detach(&m->up);
    free(m->name);
    br->class->free(m);
}

struct port_protocol *
tree_member_protocol(struct tree_member *m)
{
    return &m->up;
}

bool
tree_member_in(const struct tree_member *m, const struct tree_bridge *br)
{
    return m && br && m->br == br;
}

const struct tree_class *
tree_member_class(const struct tree_member *m)
{
    return m->br->class;
}

/* The per-port protocol. */

bool
tree_member_recognizes(const struct port_protocol *p OVS_UNUSED,
                       const struct flow *flow, struct flow_wildcards *wc)
{
    return stp_should_process_flow(flow, wc);
}

void
tree_member_receive(struct port_protocol *p, const struct flow *flow
                    OVS_UNUSED, const struct dp_packet *packet)
{
    struct tree_member *m = tree_member_cast(p);
    struct tree_bridge *br = m->br;
    ovs_mutex_lock(&br->mutex);
    /* The engine's timers first, so that the BPDU meets them as due. */
    br->class->run(br, time_msec());
    br->class->receive(m, dp_packet_data(packet), dp_packet_size(packet));
    tree_bridge_settle(br);
    ovs_mutex_unlock(&br->mutex);
}

long long int
tree_member_run(struct port_protocol *p, long long int now,
                const struct eth_addr port_mac OVS_UNUSED,
                struct dp_packet_batch *out)
{
    struct tree_member *m = tree_member_cast(p);
    struct tree_bridge *br = m->br;
    long long int next = LLONG_MAX;
    ovs_mutex_lock(&br->mutex);
    dp_packet_batch_move(out, &m->pending);
    if (m == br->driver) {
        br->running_out = out;
        next = settle(br, now);
        br->running_out = NULL;
    }
    ovs_mutex_unlock(&br->mutex);
    return next;
}

bool
tree_member_may_forward(const struct port_protocol *p)
{
    struct tree_member *m = tree_member_cast(p);
    ovs_mutex_lock(&m->br->mutex);
    bool may = m->may_forward;
    ovs_mutex_unlock(&m->br->mutex);
    return may;
}

bool
tree_member_may_learn(const struct port_protocol *p)
{
    struct tree_member *m = tree_member_cast(p);
    ovs_mutex_lock(&m->br->mutex);
    bool may = m->may_learn;
    ovs_mutex_unlock(&m->br->mutex);
    return may;
}

enum port_protocol_flush
tree_member_take_mac_flush(struct port_protocol *p)
{
    struct tree_member *m = tree_member_cast(p);
    struct tree_bridge *br = m->br;
    enum port_protocol_flush flush = PORT_PROTOCOL_FLUSH_NONE;
    ovs_mutex_lock(&br->mutex);
    if (br->flush) {
        flush = PORT_PROTOCOL_FLUSH_BRIDGE;
    } else if (m->flush) {
        flush = PORT_PROTOCOL_FLUSH_PORT;
    }
    br->flush = m->flush = false;
    ovs_mutex_unlock(&br->mutex);
    return flush;
}

void
tree_member_main_changed(struct port_protocol *p)
{
    struct tree_member *m = tree_member_cast(p);
    const struct tree_class *class = m->br->class;
    ovs_mutex_lock(&m->br->mutex);
    for (size_t i = 0; i < m->n_log; i++) {
        VLOG_DBG("port %s: %s state changed from %s to %s", m->name,
                 class->name, class->state_name(m->log_from[i]),
                 class->state_name(m->log_to[i]));
    }
    m->n_log = 0;
    ovs_mutex_unlock(&m->br->mutex);
}

void
tree_format_bridge_id(struct ds *ds, uint64_t id, int pad, int hello_time,
                      int max_age, int forward_delay)
{
    struct eth_addr mac = eth_addr_from_uint64(id);
    ds_put_format(ds, "  stp-priority%*s%"PRIu16"\n", pad, "",
                  (uint16_t) (id >> 48));
    ds_put_format(ds, "  stp-system-id   "ETH_ADDR_FMT"\n",
                  ETH_ADDR_ARGS(mac));
    ds_put_format(ds, "  stp-hello-time  %ds\n", hello_time);
    ds_put_format(ds, "  stp-max-age     %ds\n", max_age);
    ds_put_format(ds, "  stp-fwd-delay   %ds\n", forward_delay);
}

/* ovs-appctl. */

/* Calls CB for CLASS's bridge named NAME (all of its bridges if NAME is
 * NULL) with its mutex held; returns false if there is no such bridge. */
static bool
for_each_bridge(const struct tree_class *class, const char *name,
                void (*cb)(struct tree_bridge *, struct ds *), struct ds *ds)
{
    bool found = false;
    struct tree_bridge *br;
    LIST_FOR_EACH (br, node, &all_bridges) {
        if (br->class == class && (!name || !strcmp(br->name, name))) {
            ovs_mutex_lock(&br->mutex);
            cb(br, ds);
            ovs_mutex_unlock(&br->mutex);
            found = true;
        }
    }
    return found || !name;
}

static void
detect_topology_change(struct tree_bridge *br, struct ds *ds OVS_UNUSED)
{
    br->class->detect_topology_change(br);
    tree_bridge_settle(br);
}

static void
show_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
         void *class_)
{
    const struct tree_class *class = class_;
    struct ds ds = DS_EMPTY_INITIALIZER;
    if (for_each_bridge(class, argc > 1 ? argv[1] : NULL, class->format,
                        &ds)) {
        unixctl_command_reply(conn, ds_cstr(&ds));
    } else {
        unixctl_command_reply_error(conn, class->no_such);
    }
    ds_destroy(&ds);
}

static void
tcn_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
        void *class_)
{
    const struct tree_class *class = class_;
    if (for_each_bridge(class, argc > 1 ? argv[1] : NULL,
                        detect_topology_change, NULL)) {
        unixctl_command_reply(conn, "OK");
    } else {
        unixctl_command_reply_error(conn, class->no_such);
    }
}

static void
register_commands(const struct tree_class *class)
{
    static const struct tree_class *registered[4];
    size_t i;
    for (i = 0; i < ARRAY_SIZE(registered) && registered[i]; i++) {
        if (registered[i] == class) {
            return;
        }
    }
    ovs_assert(i < ARRAY_SIZE(registered));
    registered[i] = class;
    char *name = xasprintf("%s/tcn", class->command_prefix);
    unixctl_command_register(name, "[bridge]", 0, 1, tcn_cmd,
                             (void *) class);
    free(name);
    name = xasprintf("%s/show", class->command_prefix);
    unixctl_command_register(name, "[bridge]", 0, 1, show_cmd,
                             (void *) class);
    free(name);
}
