#include <config.h>
#include "dpif.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "conntrack.h"
#include "dpif-provider.h"
#include "flow.h"
#include "netdev.h"
#include "smap.h"
#include "sset.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(dpif);

/* The dummy classes join only once dpif_enable_dummy() has run (before any
 * other thread starts, so readers need no lock). */
static const struct dpif_class *dpif_classes[] = {
    &dpif_netdev_class,
    NULL,
    NULL,
};
static size_t n_dpif_classes = 1;

void
dpif_enable_dummy(bool system_too)
{
    if (n_dpif_classes == 1) {
        dpif_classes[n_dpif_classes++] = &dpif_dummy_class;
        if (system_too) {
            dpif_classes[n_dpif_classes++] = &dpif_system_dummy_class;
        }
    }
}

static const struct dpif_class *
find_class(const char *type)
{
    if (!type || !type[0]) {
        type = "netdev";
    }
    for (size_t i = 0; i < n_dpif_classes; i++) {
        if (!strcmp(dpif_classes[i]->type, type)) {
            return dpif_classes[i];
        }
    }
    return NULL;
}

bool
dpif_type_is_supported(const char *type)
{
    return find_class(type) != NULL;
}

const char *
dpif_port_open_type(const char *dp_type, const char *port_type)
{
    const struct dpif_class *class = find_class(dp_type);
    if (class && class->dummy && port_type
        && !strcmp(port_type, "internal")) {
        return "dummy-internal";
    }
    return port_type;
}

bool
dpif_port_name_is_reserved(const char *name)
{
    static const char *const tunnel_prefixes[] = {
        "bareudp_sys", "erspan_sys", "genev_sys", "gre_sys", "gtpu_sys",
        "ip6erspan_sys", "ip6gre_sys", "lisp_sys", "stt_sys", "vxlan_sys",
    };
    for (size_t i = 0; i < ARRAY_SIZE(tunnel_prefixes); i++) {
        if (!strncmp(name, tunnel_prefixes[i], strlen(tunnel_prefixes[i]))) {
            return true;
        }
    }
    if (!strncmp(name, "ovs-", 4)) {
        for (size_t i = 0; i < n_dpif_classes; i++) {
            if (!strcmp(name + 4, dpif_classes[i]->type)) {
                return true;
            }
        }
    }
    return false;
}

static int
do_open(const char *name, const char *type, bool create, struct dpif **dpifp)
{
    *dpifp = NULL;
    const struct dpif_class *class = find_class(type);
    if (!class) {
        VLOG_WARN("could not %s datapath %s of unknown type %s",
                  create ? "create" : "open", name, type);
        return EAFNOSUPPORT;
    }
    if (!name[0]) {
        return EINVAL;
    }
    struct dpif *dpif;
    int error = class->open(class, name, create, &dpif);
    if (!error) {
        dpif->dpif_class = class;
        dpif->name = xstrdup(name);
        dpif->base_name = xasprintf("%s@%s", class->type, name);
        *dpifp = dpif;
    }
    return error;
}

int
dpif_create(const char *name, const char *type, struct dpif **dpifp)
{
    return do_open(name, type, true, dpifp);
}

int
dpif_open(const char *name, const char *type, struct dpif **dpifp)
{
    return do_open(name, type, false, dpifp);
}

void
dpif_close(struct dpif *dpif)
{
    if (dpif) {
        free(dpif->name);
        free(dpif->base_name);
        dpif->dpif_class->close(dpif);
    }
}

int
dpif_delete(struct dpif *dpif)
{
    int error = dpif->dpif_class->destroy(dpif);
    dpif_close(dpif);
    return error;
}

void
dpif_enumerate(const char *type, struct sset *names)
{
    const struct dpif_class *class = find_class(type);
    if (class) {
        class->enumerate(class, names);
    }
}

void
dpif_enumerate_types(struct sset *types)
{
    for (size_t i = 0; i < n_dpif_classes; i++) {
        sset_add(types, dpif_classes[i]->type);
    }
}

const char *
dpif_name(const struct dpif *dpif)
{
    return dpif->name;
}

const char *
dpif_type(const struct dpif *dpif)
{
    return dpif->dpif_class->type;
}

const char *
dpif_base_name(const struct dpif *dpif)
{
    return dpif->base_name;
}

void
dpif_run(struct dpif *dpif)
{
    dpif->dpif_class->run(dpif);
}

void
dpif_wait(struct dpif *dpif)
{
    dpif->dpif_class->wait(dpif);
}

int
dpif_set_config(struct dpif *dpif, const struct smap *other_config)
{
    const char *s = smap_get(other_config, "n-rx-threads");
    if (!s) {
        return dpif_set_n_rx_threads(dpif, 1);
    }
    char *end;
    unsigned long n = strtoul(s, &end, 10);
    if (*end || !n || n > 64) {
        VLOG_WARN("%s: other_config:n-rx-threads=%s is not a number from 1 "
                  "to 64", dpif->base_name, s);
        return EINVAL;
    }
    return dpif_set_n_rx_threads(dpif, n);
}

int
dpif_set_n_rx_threads(struct dpif *dpif, unsigned int n)
{
    if (!n || n > 64) {
        return EINVAL;
    }
    return dpif->dpif_class->set_n_rx_threads(dpif, n);
}

unsigned int
dpif_get_n_rx_threads(const struct dpif *dpif)
{
    return dpif->dpif_class->get_n_rx_threads(dpif);
}

int
dpif_get_dp_stats(const struct dpif *dpif, struct dpif_dp_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    return dpif->dpif_class->get_stats(dpif, stats);
}

void
dpif_port_destroy(struct dpif_port *port)
{
    if (port) {
        free(port->name);
        free(port->type);
    }
}

int
dpif_port_add(struct dpif *dpif, struct netdev *netdev, uint32_t *port_nop)
{
    int error = dpif->dpif_class->port_add(dpif, netdev, port_nop);
    if (error) {
        VLOG_WARN("%s: failed to add %s as port (%s)", dpif->base_name,
                  netdev_get_name(netdev), ovs_strerror(error));
    } else {
        VLOG_DBG("%s: added %s as port %"PRIu32, dpif->base_name,
                 netdev_get_name(netdev), *port_nop);
    }
    return error;
}

int
dpif_port_del(struct dpif *dpif, uint32_t port_no)
{
    return dpif->dpif_class->port_del(dpif, port_no);
}

int
dpif_port_query_by_number(const struct dpif *dpif, uint32_t port_no,
                          struct dpif_port *port)
{
    memset(port, 0, sizeof *port);
    return dpif->dpif_class->port_query_by_number(dpif, port_no, port);
}

int
dpif_port_query_by_name(const struct dpif *dpif, const char *name,
                        struct dpif_port *port)
{
    memset(port, 0, sizeof *port);
    return dpif->dpif_class->port_query_by_name(dpif, name, port);
}

void
dpif_port_list(const struct dpif *dpif, struct dpif_port **ports,
               size_t *n_ports)
{
    dpif->dpif_class->port_list(dpif, ports, n_ports);
}

void
dpif_port_list_free(struct dpif_port *ports, size_t n_ports)
{
    for (size_t i = 0; i < n_ports; i++) {
        dpif_port_destroy(&ports[i]);
    }
    free(ports);
}

int
dpif_port_get_stats(const struct dpif *dpif, uint32_t port_no,
                    struct dpif_port_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    return dpif->dpif_class->port_get_stats(dpif, port_no, stats);
}

int
dpif_flow_put(struct dpif *dpif, enum dpif_flow_put_flags flags,
              const struct flow *key, const struct flow_wildcards *mask,
              const struct nlattr *actions, size_t actions_len,
              struct dpif_flow_stats *stats)
{
    if (stats) {
        memset(stats, 0, sizeof *stats);
    }
    return dpif->dpif_class->flow_put(dpif, flags, key, mask, actions,
                                      actions_len, stats);
}

int
dpif_flow_del(struct dpif *dpif, const struct flow *key,
              const struct flow_wildcards *mask,
              struct dpif_flow_stats *stats)
{
    if (stats) {
        memset(stats, 0, sizeof *stats);
    }
    return dpif->dpif_class->flow_del(dpif, key, mask, stats);
}

int
dpif_flow_flush(struct dpif *dpif)
{
    return dpif->dpif_class->flow_flush(dpif);
}

int
dpif_flow_get(const struct dpif *dpif, const struct flow *key,
              const struct flow_wildcards *mask, struct dpif_flow *flow,
              void **actions_buf)
{
    *actions_buf = NULL;
    return dpif->dpif_class->flow_get(dpif, key, mask, flow, actions_buf);
}

struct dpif_flow_dump *
dpif_flow_dump_create(const struct dpif *dpif)
{
    struct dpif_flow_dump *dump = dpif->dpif_class->flow_dump_create(dpif);
    dump->terse_idle_before = LLONG_MAX;
    dump->terse_quiet_before = LLONG_MIN;
    return dump;
}

void
dpif_flow_dump_set_terse(struct dpif_flow_dump *dump,
                         long long int idle_before,
                         long long int quiet_before)
{
    dump->terse_idle_before = idle_before;
    dump->terse_quiet_before = quiet_before;
}

void
dpif_flow_dump_set_given_keys(struct dpif_flow_dump *dump)
{
    dump->given_keys = true;
}

struct dpif_flow_dump_thread *
dpif_flow_dump_thread_create(struct dpif_flow_dump *dump)
{
    return dump->dpif->dpif_class->flow_dump_thread_create(dump);
}

int
dpif_flow_dump_next(struct dpif_flow_dump_thread *thread,
                    struct dpif_flow *flows, int max)
{
    return thread->dump->dpif->dpif_class->flow_dump_next(thread, flows, max);
}

void
dpif_flow_dump_thread_destroy(struct dpif_flow_dump_thread *thread)
{
    if (thread) {
        thread->dump->dpif->dpif_class->flow_dump_thread_destroy(thread);
    }
}

int
dpif_flow_dump_destroy(struct dpif_flow_dump *dump)
{
    return dump->dpif->dpif_class->flow_dump_destroy(dump);
}

int
dpif_execute(struct dpif *dpif, struct dp_packet_batch *batch,
             const struct nlattr *actions, size_t actions_len)
{
    return dpif->dpif_class->execute(dpif, batch, actions, actions_len);
}

int
dpif_meter_set(struct dpif *dpif, uint32_t meter_id,
               const struct dpif_meter_config *config)
{
    if (meter_id >= DPIF_METER_MAX || config->n_bands > DPIF_METER_MAX_BANDS) {
        return EINVAL;
    }
    return (dpif->dpif_class->meter_set
            ? dpif->dpif_class->meter_set(dpif, meter_id, config)
            : EOPNOTSUPP);
}

int
dpif_meter_get(const struct dpif *dpif, uint32_t meter_id,
               struct dpif_meter_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    return (dpif->dpif_class->meter_get
            ? dpif->dpif_class->meter_get(dpif, meter_id, stats)
            : EOPNOTSUPP);
}

struct conntrack *
dpif_conntrack(const struct dpif *dpif)
{
    return (dpif->dpif_class->conntrack
            ? dpif->dpif_class->conntrack(dpif) : NULL);
}

struct ipf *
dpif_ipf(const struct dpif *dpif)
{
    return dpif->dpif_class->ipf ? dpif->dpif_class->ipf(dpif) : NULL;
}

int
dpif_ct_set_timeout_policy(struct dpif *dpif, uint32_t id,
                           const uint32_t *seconds)
{
    struct conntrack *ct = dpif_conntrack(dpif);
    if (!ct) {
        return EOPNOTSUPP;
    } else if (!id) {
        return EINVAL;          /* 0 is the default policy's. */
    }
    conntrack_set_policy(ct, id, seconds);
    return 0;
}

int
dpif_ct_del_timeout_policy(struct dpif *dpif, uint32_t id)
{
    struct conntrack *ct = dpif_conntrack(dpif);
    if (!ct) {
        return EOPNOTSUPP;
    }
    conntrack_del_policy(ct, id);
    return 0;
}

char *
dpif_ct_timeout_policy_name(const struct dpif *dpif, uint32_t id)
{
    return dpif_conntrack(dpif) ? xasprintf("%"PRIu32, id) : NULL;
}

bool
dpif_supports_lb_output(const struct dpif *dpif)
{
    return dpif->dpif_class->bond_add != NULL;
}

int
dpif_bond_add(struct dpif *dpif, uint32_t bond_id,
              const uint32_t ports[DPIF_BOND_N_BUCKETS])
{
    return (dpif->dpif_class->bond_add
            ? dpif->dpif_class->bond_add(dpif, bond_id, ports)
            : EOPNOTSUPP);
}

int
dpif_bond_del(struct dpif *dpif, uint32_t bond_id)
{
    return (dpif->dpif_class->bond_del
            ? dpif->dpif_class->bond_del(dpif, bond_id)
            : EOPNOTSUPP);
}

int
dpif_bond_stats_get(const struct dpif *dpif, uint32_t bond_id,
                    uint64_t n_bytes[DPIF_BOND_N_BUCKETS])
{
    memset(n_bytes, 0, DPIF_BOND_N_BUCKETS * sizeof *n_bytes);
    return (dpif->dpif_class->bond_stats_get
            ? dpif->dpif_class->bond_stats_get(dpif, bond_id, n_bytes)
            : EOPNOTSUPP);
}

int
dpif_meter_del(struct dpif *dpif, uint32_t meter_id,
               struct dpif_meter_stats *stats)
{
    if (stats) {
        memset(stats, 0, sizeof *stats);
    }
    return (dpif->dpif_class->meter_del
            ? dpif->dpif_class->meter_del(dpif, meter_id, stats)
            : EOPNOTSUPP);
}

void
dpif_operate(struct dpif *dpif, struct dpif_op **ops, size_t n_ops)
{
    for (size_t i = 0; i < n_ops; i++) {
        struct dpif_op *op = ops[i];
        if (op->type == DPIF_OP_FLOW_PUT && op->put.stats) {
            memset(op->put.stats, 0, sizeof *op->put.stats);
        }
    }
    if (dpif->dpif_class->operate) {
        dpif->dpif_class->operate(dpif, ops, n_ops);
        return;
    }
    for (size_t i = 0; i < n_ops; i++) {
        struct dpif_op *op = ops[i];
        if (op->type == DPIF_OP_FLOW_PUT) {
            op->error = dpif->dpif_class->flow_put(
                dpif, op->put.flags, op->put.key, op->put.mask,
                op->put.actions, op->put.actions_len, op->put.stats);
        } else {
            op->error = dpif->dpif_class->execute(
                dpif, op->execute.batch, op->execute.actions,
                op->execute.actions_len);
        }
    }
}

int
dpif_handlers_set(struct dpif *dpif, uint32_t n_handlers)
{
    return dpif->dpif_class->handlers_set(dpif, n_handlers);
}

size_t
dpif_recv(struct dpif *dpif, uint32_t handler_id,
          struct dpif_upcall *upcalls, size_t max)
{
    return dpif->dpif_class->recv(dpif, handler_id, upcalls,
                                  MIN(max, DPIF_RECV_MAX));
}

void
dpif_recv_release(struct dpif *dpif, uint32_t handler_id)
{
    dpif->dpif_class->recv_release(dpif, handler_id);
}

void
dpif_recv_wait(struct dpif *dpif, uint32_t handler_id)
{
    dpif->dpif_class->recv_wait(dpif, handler_id);
}

void
dpif_set_control_sink(struct dpif *dpif, dpif_control_sink_cb *cb,
                      void *aux)
{
    if (dpif->dpif_class->set_control_sink) {
        dpif->dpif_class->set_control_sink(dpif, cb, aux);
    }
}

uint32_t
dpif_flow_hash(const struct flow *key, const struct flow_wildcards *mask)
{
    return flow_hash(key, flow_hash(&mask->masks, 0));
}
