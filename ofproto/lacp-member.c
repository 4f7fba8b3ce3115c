#include <config.h>
#include "lacp-member.h"

#include <limits.h>
#include <stdlib.h>
#include "dp-packet.h"
#include "list.h"
#include "ovs-thread.h"
#include "port-protocol.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(lacp_member);

struct lacp_bond {
    struct lacp *lacp;
    struct ovs_mutex mutex;
    struct ovs_list members;    /* struct lacp_member's node (mutex). */
};

struct lacp_member {
    struct port_protocol up;
    struct lacp_bond *bond;
    struct ovs_list node;       /* In bond->members (bond mutex). */
    /* Frames the engine composed for this member while another member's
     * run() ran it, for this member's next run() (bond mutex). */
    struct dp_packet_batch pending;
    /* The carrier last told to the engine (main thread): the engine
     * renegotiates at each report, so only changes are reported. */
    bool carrier;
    uint64_t carrier_resets;    /* The device's count, as last seen. */
};

static const struct port_protocol_class lacp_member_class;

static struct lacp_member *
lacp_member_cast(const struct port_protocol *p)
{
    return CONTAINER_OF(p, struct lacp_member, up);
}

/* The engine changed some member's view: every member of the bond goes
 * on the change queue (a bond has a handful). */
static void
lacp_bond_changed(void *bond_)
{
    struct lacp_bond *bond = bond_;
    ovs_mutex_lock(&bond->mutex);
    struct lacp_member *m;
    LIST_FOR_EACH (m, node, &bond->members) {
        port_protocol_changed(&m->up);
    }
    ovs_mutex_unlock(&bond->mutex);
}

struct lacp_bond *
lacp_bond_create(const struct lacp_settings *s)
{
    struct lacp *lacp = lacp_create();
    if (!lacp_configure(lacp, s)) {
        lacp_unref(lacp);
        return NULL;
    }
    struct lacp_bond *bond = xzalloc(sizeof *bond);
    bond->lacp = lacp;
    ovs_mutex_init(&bond->mutex);
    ovs_list_init(&bond->members);
    lacp_set_change_callback(lacp, lacp_bond_changed, bond);
    return bond;
}

/* Asks that the members run as soon as the engine wants to. */
static void
lacp_bond_schedule(struct lacp_bond *bond)
{
    long long int when = lacp_next_deadline(bond->lacp);
    if (when == LLONG_MAX) {
        return;
    }
    when = when == LLONG_MIN ? time_msec() : when;
    ovs_mutex_lock(&bond->mutex);
    struct lacp_member *m;
    LIST_FOR_EACH (m, node, &bond->members) {
        port_protocol_schedule(&m->up, when);
    }
    ovs_mutex_unlock(&bond->mutex);
}

bool
lacp_bond_configure(struct lacp_bond *bond, const struct lacp_settings *s)
{
    if (!lacp_configure(bond->lacp, s)) {
        return false;
    }
    lacp_bond_schedule(bond);
    return true;
}

void
lacp_bond_destroy(struct lacp_bond *bond)
{
    if (bond) {
        ovs_assert(ovs_list_is_empty(&bond->members));
        lacp_set_change_callback(bond->lacp, NULL, NULL);
        lacp_unref(bond->lacp);
        ovs_mutex_destroy(&bond->mutex);
        free(bond);
    }
}

struct lacp *
lacp_bond_get_lacp(const struct lacp_bond *bond)
{
    return bond->lacp;
}

struct lacp_member *
lacp_member_create(struct lacp_bond *bond,
                   const struct lacp_member_settings *s, void *owner)
{
    struct lacp_member *m = xzalloc(sizeof *m);
    port_protocol_init(&m->up, &lacp_member_class, owner);
    m->bond = bond;
    dp_packet_batch_init(&m->pending);
    ovs_mutex_lock(&bond->mutex);
    ovs_list_push_back(&bond->members, &m->node);
    ovs_mutex_unlock(&bond->mutex);
    lacp_member_register(bond->lacp, m, s);
    lacp_bond_schedule(bond);
    return m;
}

void
lacp_member_reconfigure(struct lacp_member *m,
                        const struct lacp_member_settings *s)
{
    lacp_member_register(m->bond->lacp, m, s);
    lacp_bond_schedule(m->bond);
}

void
lacp_member_destroy(struct lacp_member *m)
{
    if (!m) {
        return;
    }
    struct lacp_bond *bond = m->bond;
    lacp_member_unregister(bond->lacp, m);
    ovs_mutex_lock(&bond->mutex);
    ovs_list_remove(&m->node);
    dp_packet_batch_delete(&m->pending);
    ovs_mutex_unlock(&bond->mutex);
    /* It may have queued itself. */
    port_protocol_detach(&m->up);
    free(m);
}

struct port_protocol *
lacp_member_protocol(struct lacp_member *m)
{
    return &m->up;
}

void
lacp_member_set_carrier(struct lacp_member *m, bool up,
                        uint64_t carrier_resets)
{
    bool reset = carrier_resets != m->carrier_resets;
    m->carrier_resets = carrier_resets;
    if (!up && !reset) {
        return;
    }
    if (up != m->carrier || reset) {
        m->carrier = up;
        lacp_member_carrier_changed(m->bond->lacp, m, up);
        lacp_bond_schedule(m->bond);
    }
}

bool
lacp_member_enabled(const struct lacp_member *m)
{
    return lacp_member_may_enable(m->bond->lacp, m);
}

bool
lacp_member_current(const struct lacp_member *m)
{
    return lacp_member_is_current(m->bond->lacp, m);
}

/* The per-port protocol. */

static bool
lacp_member_recognizes(const struct port_protocol *p OVS_UNUSED,
                       const struct flow *flow, struct flow_wildcards *wc)
{
    return lacp_recognizes(flow, wc);
}

static void
lacp_member_receive(struct port_protocol *p, const struct flow *flow
                    OVS_UNUSED, const struct dp_packet *packet)
{
    struct lacp_member *m = lacp_member_cast(p);
    lacp_process_packet(m->bond->lacp, m, dp_packet_data(packet),
                        dp_packet_size(packet));
    /* A reply may be due at once. */
    lacp_bond_schedule(m->bond);
}

struct run_ctx {
    struct lacp_member *self;
    struct dp_packet_batch *out;
};

static void
lacp_member_send(void *member_aux, const void *frame, size_t len,
                 void *ctx_)
{
    struct run_ctx *ctx = ctx_;
    struct lacp_member *m = member_aux;
    struct dp_packet *packet = dp_packet_clone_data(frame, len);
    if (m == ctx->self) {
        dp_packet_batch_add_or_delete(ctx->out, packet);
        return;
    }
    /* Another member's: it goes out when that member runs, which it does
     * at once. */
    ovs_mutex_lock(&m->bond->mutex);
    dp_packet_batch_add_or_delete(&m->pending, packet);
    ovs_mutex_unlock(&m->bond->mutex);
    port_protocol_schedule(&m->up, time_msec());
}

static long long int
lacp_member_run(struct port_protocol *p, long long int now,
                const struct eth_addr port_mac OVS_UNUSED,
                struct dp_packet_batch *out)
{
    struct lacp_member *m = lacp_member_cast(p);
    struct run_ctx ctx = { .self = m, .out = out };
    long long int next = lacp_run(m->bond->lacp, now, lacp_member_send,
                                  &ctx);
    ovs_mutex_lock(&m->bond->mutex);
    dp_packet_batch_move(out, &m->pending);
    ovs_mutex_unlock(&m->bond->mutex);
    return next;
}

static const struct port_protocol_class lacp_member_class = {
    .name = "lacp",
    .slow_reason = SLOW_LACP,
    .recognizes = lacp_member_recognizes,
    .receive = lacp_member_receive,
    .run = lacp_member_run,
};
