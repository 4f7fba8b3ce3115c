/* ofproto: see ofproto.h for the model, ofproto-private.h for the thread
 * rules.  The comments here say why. */
#include <config.h>
#include "ofproto.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bitmap.h"
#include "bond.h"
#include "bond-rules.h"
#include "ct-zones.h"
#include "lacp-member.h"
#include "rstp-member.h"
#include "stp-member.h"
#include "tree-member.h"
#include "coverage.h"
#include "dp-packet.h"
#include "dpif.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "hash.h"
#include "mac-learning.h"
#include "monitor.h"
#include "netdev-vport.h"
#include "netdev.h"
#include "netdev-patch.h"
#include "ofp-packet.h"
#include "ofp-group.h"
#include "ofp-meter.h"
#include "ofp-phy-port.h"
#include "ofport-patch.h"
#include "ofproto-private.h"
#include "ovs-thread.h"
#include "odp-util.h"
#include "ovs-router.h"
#include "poll-loop.h"
#include "port-protocol.h"
#include "seq.h"
#include "shash.h"
#include "timeval.h"
#include "tnl-neigh-cache.h"
#include "tnl-ports.h"
#include "tun-metadata.h"
#include "tunnel.h"
#include "upcall.h"
#include "util.h"
#include "vlog.h"
#include "xlate.h"

VLOG_DEFINE_THIS_MODULE(ofproto);

COVERAGE_DEFINE(ofproto_port_changed);
COVERAGE_DEFINE(ofproto_packet_in_dropped);
COVERAGE_DEFINE(ofproto_port_status_dropped);

struct ovs_rwlock xlate_rwlock;
struct hmap all_ofprotos = HMAP_INITIALIZER(&all_ofprotos);

/* Backers by type. */
static struct shash backers = SHASH_INITIALIZER(&backers);

static unsigned int n_handlers_setting, n_revalidators_setting;

void
ofproto_init(void)
{
    static bool inited;
    if (!inited) {
        inited = true;
        ovs_rwlock_init(&xlate_rwlock);
        ofproto_unixctl_init();
        tnl_ports_init();
        /* The userspace datapath encapsulates and decapsulates itself. */
        tnl_set_push_pop_supported(true);
    }
}

static void
xlate_write_lock(void)
{
    ovs_rwlock_wrlock(&xlate_rwlock);
}

static void
xlate_write_unlock(void)
{
    ovs_rwlock_unlock(&xlate_rwlock);
}

/* Thread counts as Open vSwitch chooses them when not configured. */
static void
default_thread_counts(unsigned int *n_handlers, unsigned int *n_revalidators)
{
    int cores = count_cpu_cores();
    if (cores < 1) {
        cores = 1;
    }
    unsigned int r = n_revalidators_setting
                     ? n_revalidators_setting : (unsigned int) cores / 4 + 1;
    unsigned int h = n_handlers_setting
                     ? n_handlers_setting
                     : MAX((unsigned int) cores > r ? cores - r : 1, 1);
    *n_handlers = h;
    *n_revalidators = r;
}

/* Backers. */

/* Open vSwitch's names: one datapath per type, "ovs-TYPE". */
static char *
backer_dp_name(const char *type)
{
    return xasprintf("ovs-%s", type);
}

/* Says what the datapath of BACKER supports, in 3.1's log lines: 3.1
 * probes its datapath for each feature and logs the answer, and scripts
 * (Open vSwitch's own system tests among them) read those lines to decide
 * what to test.  Ours is the userspace datapath, whose features are known
 * without probing; only what it really has is announced. */
static void
backer_log_features(const struct dpif_backer *backer)
{
    const char *name = dpif_name(backer->dpif);
    VLOG_INFO("%s: Datapath supports recirculation", name);
    VLOG_INFO("%s: VLAN header stack length probed as %d", name,
              FLOW_MAX_VLAN_HEADERS);
    VLOG_INFO("%s: MPLS label stack length probed as %d", name,
              FLOW_MAX_MPLS_LABELS);
    VLOG_INFO("%s: Datapath supports truncate action", name);
    VLOG_INFO("%s: Datapath supports clone action", name);
    VLOG_INFO("%s: Datapath supports ct_clear action", name);
    VLOG_INFO("%s: Datapath supports timeout policy in conntrack action",
              name);
    static const char *const ct_keys[] = {
        "ct_state", "ct_zone", "ct_mark", "ct_label", "ct_state_nat",
        "ct_orig_tuple", "ct_orig_tuple6",
    };
    for (size_t i = 0; i < ARRAY_SIZE(ct_keys); i++) {
        VLOG_INFO("%s: Datapath supports %s", name, ct_keys[i]);
    }
}

static struct dpif_backer *
backer_ref(const char *type, int *errorp)
{
    struct dpif_backer *backer = shash_find_data(&backers, type);
    if (backer) {
        backer->refcount++;
        return backer;
    }

    struct dpif *dpif;
    char *name = backer_dp_name(type);
    int error = dpif_create(name, type, &dpif);
    if (error == EEXIST) {
        error = dpif_open(name, type, &dpif);
    }
    if (error) {
        VLOG_ERR("could not create datapath %s of type %s (%s)", name, type,
                 ovs_strerror(error));
        free(name);
        *errorp = error;
        return NULL;
    }
    free(name);
    /* Flows left by a previous life of this process mean nothing now. */
    dpif_flow_flush(dpif);

    backer = xzalloc(sizeof *backer);
    backer->type = xstrdup(type);
    backer->dpif = dpif;
    backer->refcount = 1;
    hmap_init(&backer->odp_to_ofport);
    backer->reval_seq = seq_create();
    backer->udpif = udpif_create(backer);
    shash_add(&backers, type, backer);
    backer_log_features(backer);
    ofproto_monitor_add_backer(backer);
    ovs_rwlock_wrlock(&xlate_rwlock);
    ct_zones_dpif_created(type, dpif);
    ovs_rwlock_unlock(&xlate_rwlock);

    unsigned int h, r;
    default_thread_counts(&h, &r);
    udpif_set_threads(backer->udpif, h, r);
    return backer;
}

static void
backer_unref(struct dpif_backer *backer)
{
    if (--backer->refcount) {
        return;
    }
    shash_find_and_delete(&backers, backer->type);
    ofproto_monitor_remove_backer(backer);
    udpif_destroy(backer->udpif);
    hmap_destroy(&backer->odp_to_ofport);
    dpif_delete(backer->dpif);
    seq_destroy(backer->reval_seq);
    free(backer->type);
    free(backer);
}

struct dpif_backer *
ofproto_get_backer(const char *type)
{
    return shash_find_data(&backers, type);
}

struct dpif_backer *
ofproto_first_backer(void)
{
    struct shash_node *node = shash_first(&backers);
    return node ? node->data : NULL;
}

struct ofport *
backer_odp_to_ofport(const struct dpif_backer *backer, uint32_t odp_port)
{
    struct ofport *port;
    HMAP_FOR_EACH_WITH_HASH (port, odp_node, hash_int(odp_port, 0),
                             &backer->odp_to_ofport) {
        if (port->odp_port == odp_port) {
            return port;
        }
    }
    return NULL;
}

struct ofport *
backer_flow_to_ofport(const struct dpif_backer *backer,
                      const struct flow *flow)
{
    return (tnl_port_should_receive(flow)
            ? tnl_port_receive(backer, flow)
            : backer_odp_to_ofport(backer, flow->in_port));
}

const char *
backer_port_name(void *backer_, uint32_t odp_port)
{
    struct ofport *port = backer_odp_to_ofport(backer_, odp_port);
    return port ? port->name : NULL;
}

void
ofproto_set_threads(unsigned int n_handlers, unsigned int n_revalidators)
{
    n_handlers_setting = n_handlers;
    n_revalidators_setting = n_revalidators;
    unsigned int h, r;
    default_thread_counts(&h, &r);
    struct shash_node *node;
    SHASH_FOR_EACH (node, &backers) {
        struct dpif_backer *backer = node->data;
        udpif_set_threads(backer->udpif, h, r);
    }
}

void
ofproto_set_flow_limit(unsigned int limit)
{
    udpif_set_flow_limit(limit);
}

void
ofproto_set_max_idle(unsigned int max_idle_ms)
{
    udpif_set_max_idle(max_idle_ms);
}

const char *
ofproto_datapath_version(void)
{
    return "<built-in>";
}

static void
backer_tables_changed(struct dpif_backer *backer)
{
    seq_change(backer->reval_seq);
}

struct ofproto *
ofproto_lookup(const char *name)
{
    struct ofproto *ofproto;
    HMAP_FOR_EACH_WITH_HASH (ofproto, hmap_node, hash_string(name, 0),
                             &all_ofprotos) {
        if (!strcmp(ofproto->name, name)) {
            return ofproto;
        }
    }
    return NULL;
}

void
ofproto_set_ct_zone_policies(const char *dp_type,
                             const struct ct_zone_policy *zones, size_t n)
{
    struct dpif_backer *backer = ofproto_get_backer(dp_type);
    ovs_rwlock_wrlock(&xlate_rwlock);
    ct_zones_set(dp_type, backer ? backer->dpif : NULL, zones, n);
    ovs_rwlock_unlock(&xlate_rwlock);
}

int
ofproto_create(const char *name, const char *datapath_type,
               struct ofproto **ofprotop)
{
    *ofprotop = NULL;
    ofproto_init();
    const char *type = datapath_type[0] ? datapath_type : "netdev";
    if (!dpif_type_is_supported(type)) {
        return EAFNOSUPPORT;
    }
    if (ofproto_lookup(name)) {
        return EEXIST;
    }
    int error = 0;
    struct dpif_backer *backer = backer_ref(type, &error);
    if (!backer) {
        return error;
    }

    struct ofproto *ofproto = xzalloc(sizeof *ofproto);
    ofproto->name = xstrdup(name);
    ofproto->backer = backer;
    ofproto->fail_mode = OFPROTO_FAIL_STANDALONE;
    for (int i = 0; i < OFPROTO_N_TABLES; i++) {
        classifier_init(&ofproto->tables[i].cls);
        ofproto->tables[i].max_flows = UINT_MAX;
        atomic_init(&ofproto->tables[i].n_lookups, 0);
        atomic_init(&ofproto->tables[i].n_matched, 0);
    }
    atomic_init(&ofproto->tables_version, OVS_VERSION_MIN);
    ovs_list_init(&ofproto->expirable);
    ofproto->next_expiry = LLONG_MAX;
    ovs_list_init(&ofproto->flow_removed);
    ovs_list_init(&ofproto->port_status);
    ovs_list_init(&ofproto->table_status);
    ofproto->events_seq = seq_create();
    ovs_mutex_init(&ofproto->pin_mutex);
    ovs_list_init(&ofproto->packet_ins);
    ovs_list_init(&ofproto->packet_ins_taken);
    ofproto_learn_init(ofproto);
    atomic_init(&ofproto->miss_to_controller, false);
    static uint32_t next_id = 1;
    ofproto->id = next_id++;
    hmap_init(&ofproto->ports);
    hmap_init(&ofproto->bundles);
    heap_init(&ofproto->bond_timers);
    hmap_init(&ofproto->groups);
    hmap_init(&ofproto->meters);
    ofproto_tlv_init(ofproto);
    ofproto->ml = mac_learning_create(MAC_DEFAULT_IDLE_TIME,
                                      backer->reval_seq);

    xlate_write_lock();
    hmap_insert(&all_ofprotos, &ofproto->hmap_node, hash_string(name, 0));
    xlate_write_unlock();

    ofproto_add_default_rule(ofproto);
    *ofprotop = ofproto;
    return 0;
}

static void ofport_destroy(struct ofport *);
static bool port_is_live(const struct ofport *);
static bool port_may_enable(const struct ofport *);
static void bundle_destroy(struct ofbundle *);
static void bundle_remove_port(struct ofport *);
static void bundle_configure_lacp(struct ofbundle *,
                                  const struct ofproto_bundle_settings *);
static void ofproto_run_bonds(struct ofproto *, bool all);

void
ofproto_destroy(struct ofproto *ofproto)
{
    if (!ofproto) {
        return;
    }
    struct ofbundle *bundle;
    HMAP_FOR_EACH_SAFE (bundle, hmap_node, &ofproto->bundles) {
        bundle_destroy(bundle);
    }
    struct ofport *port;
    HMAP_FOR_EACH_SAFE (port, hmap_node, &ofproto->ports) {
        ofport_destroy(port);
    }
    stp_bridge_destroy(ofproto->stp);
    rstp_bridge_destroy(ofproto->rstp);

    xlate_write_lock();
    hmap_remove(&all_ofprotos, &ofproto->hmap_node);
    xlate_write_unlock();

    /* Every rule out, then wait for the translators that might still be
     * looking at them and run the removals and frees. */
    ofproto_set_fail_open(ofproto, false);
    ofproto_flush_flows(ofproto);
    ovsrcu_synchronize();
    for (int i = 0; i < OFPROTO_N_TABLES; i++) {
        struct oftable *table = &ofproto->tables[i];
        classifier_destroy(&table->cls);
        free(table->name);
        free(table->of_name);
        free(table->groups);
    }
    ofproto_destroy_groups(ofproto);
    ofproto_destroy_meters(ofproto);
    hmap_destroy(&ofproto->ports);
    hmap_destroy(&ofproto->bundles);
    heap_destroy(&ofproto->bond_timers);
    free(ofproto->bond_mac_changed);
    mac_learning_destroy(ofproto->ml);
    ofproto_flush_flow_removed(ofproto);
    ofproto_learn_destroy(ofproto);
    struct ofproto_packet_in pin;
    while (ofproto_pop_packet_in(ofproto, &pin)) {
        free(pin.packet);
    }
    ovs_mutex_destroy(&ofproto->pin_mutex);
    seq_destroy(ofproto->events_seq);
    backer_tables_changed(ofproto->backer);
    backer_unref(ofproto->backer);
    if (hmap_is_empty(&all_ofprotos)) {
        /* Nothing left for it to run. */
        ofproto_monitor_exit();
    }
    free(ofproto->name);
    free(ofproto);
}

struct ofproto *
ofproto_lookup_by_id(uint32_t id)
{
    struct ofproto *ofproto;
    HMAP_FOR_EACH (ofproto, hmap_node, &all_ofprotos) {
        if (ofproto->id == id) {
            return ofproto;
        }
    }
    return NULL;
}
/* Adds to MD (a packet-in's pipeline fields) the Geneve options FLOW
 * carries, laid out as OFPROTO's TLV map lays them out, as 3.1 reports
 * them.  The map must outlive MD's encoding: the packet-in is OFPROTO's. */
static void
packet_in_add_tun_metadata(const struct ofproto *ofproto, struct match *md,
                           const struct flow *flow)
{
    const struct tun_table *tab = &ofproto->tun_table;
    uint64_t present = flow->tun_metadata.present;
    if (!present || flow->tunnel.flags & FLOW_TNL_F_UDPIF) {
        return;
    }
    uint8_t ones[TUN_METADATA_MAX_LEN];
    memset(ones, 0xff, sizeof ones);
    for (; present; present &= present - 1) {
        unsigned int idx = __builtin_ctzll(present);
        uint8_t value[TUN_METADATA_MAX_LEN];
        if (tab->entries[idx].mapped) {
            tun_md_flow_get(tab, &flow->tun_metadata, idx, value);
            tun_md_flow_set(tab, &md->flow.tun_metadata, idx, value, ones);
            tun_md_flow_set(tab, &md->wc.masks.tun_metadata, idx, ones,
                            ones);
        }
    }
    tun_md_layout_from_table(md, tab);
}


void
ofproto_queue_packet_in(struct ofproto *ofproto, const void *packet,
                        size_t size, const struct odp_cookie *cookie,
                        const struct frozen_packet_in *state)
{
    struct ofproto_packet_in *pin = xzalloc(sizeof *pin);
    pin->packet = xmalloc(size + state->userdata_len + 1);
    memcpy(pin->packet, packet, size);
    pin->packet_len = size;
    if (state->userdata_len) {
        uint8_t *userdata = (uint8_t *) pin->packet + size;
        memcpy(userdata, state->userdata, state->userdata_len);
        pin->userdata = userdata;
        pin->userdata_len = state->userdata_len;
    }
    pin->reason = cookie->controller.reason;
    pin->table_id = state->table_id;
    memcpy(&pin->cookie, cookie->controller.rule_cookie, sizeof pin->cookie);
    pin->max_len = cookie->controller.max_len;
    pin->controller_id = cookie->controller.controller_id;
    pin->in_port = state->metadata.in_port;
    ofputil_packet_in_metadata_from_flow(&pin->flow_metadata,
                                         &state->metadata);
    packet_in_add_tun_metadata(ofproto, &pin->flow_metadata,
                               &state->metadata);

    ovs_mutex_lock(&ofproto->pin_mutex);
    bool full = ofproto->n_packet_ins >= OFPROTO_MAX_EVENTS;
    bool was_empty = ovs_list_is_empty(&ofproto->packet_ins);
    if (!full) {
        ovs_list_push_back(&ofproto->packet_ins, &pin->list_node);
        ofproto->n_packet_ins++;
    }
    ovs_mutex_unlock(&ofproto->pin_mutex);
    if (full) {
        COVERAGE_INC(ofproto_packet_in_dropped);
        free(pin->packet);
        free(pin);
    } else if (was_empty) {
        /* Only the first of a run needs to wake the main thread: it takes
         * the whole list when it drains, after reading the seq, so what is
         * appended before then goes with it. */
        seq_change(ofproto->events_seq);
    }
}

bool
ofproto_pop_packet_in(struct ofproto *ofproto, struct ofproto_packet_in *out)
{
    if (ovs_list_is_empty(&ofproto->packet_ins_taken)) {
        /* One lock for everything queued so far, not one per packet. */
        ovs_mutex_lock(&ofproto->pin_mutex);
        ovs_list_push_back_all(&ofproto->packet_ins_taken,
                               &ofproto->packet_ins);
        ofproto->n_packet_ins = 0;
        ovs_mutex_unlock(&ofproto->pin_mutex);
        if (ovs_list_is_empty(&ofproto->packet_ins_taken)) {
            return false;
        }
    }
    struct ofproto_packet_in *pin = CONTAINER_OF(
        ovs_list_pop_front(&ofproto->packet_ins_taken),
        struct ofproto_packet_in, list_node);
    *out = *pin;
    free(pin);
    return true;
}

void
ofproto_set_miss_to_controller(struct ofproto *ofproto, bool miss)
{
    if (miss != atomic_load(&ofproto->miss_to_controller)) {
        atomic_store(&ofproto->miss_to_controller, miss);
        /* Datapath flows translated the other way must be fixed. */
        backer_tables_changed(ofproto->backer);
    }
}

struct seq *
ofproto_events_seq(const struct ofproto *ofproto)
{
    return ofproto->events_seq;
}

const char *
ofproto_name(const struct ofproto *ofproto)
{
    return ofproto->name;
}

const char *
ofproto_datapath_name(const struct ofproto *ofproto)
{
    return dpif_name(ofproto->backer->dpif);
}

/* Empties the tables and deletes every group and meter, as 3.1 does when
 * a bridge's controllers or fail mode change. */
static void
ofproto_flush(struct ofproto *ofproto)
{
    ofproto_flush_flows(ofproto);
    struct ofputil_group_mod gm = {
        .command = OFPGC11_DELETE,
        .group_id = OFPG_ALL,
    };
    ovs_list_init(&gm.buckets);
    ofproto_group_mod(ofproto, &gm);
    struct ofputil_meter_mod mm = {
        .command = OFPMC13_DELETE,
        .meter.meter_id = OFPM13_ALL,
    };
    ofproto_meter_mod(ofproto, &mm);
}

void
ofproto_set_fail_mode(struct ofproto *ofproto, enum ofproto_fail_mode mode)
{
    if (mode == ofproto->fail_mode) {
        return;
    }
    ofproto->fail_mode = mode;
    ofproto_flush(ofproto);
    if (mode == OFPROTO_FAIL_STANDALONE && !ofproto->has_controllers) {
        ofproto_add_default_rule(ofproto);
    }
}

enum ofproto_fail_mode
ofproto_get_fail_mode(const struct ofproto *ofproto)
{
    return ofproto->fail_mode;
}

void
ofproto_set_has_controllers(struct ofproto *ofproto, bool has_controllers)
{
    if (has_controllers == ofproto->has_controllers) {
        return;
    }
    ofproto->has_controllers = has_controllers;
    ofproto_flush(ofproto);
    if (ofproto->fail_mode == OFPROTO_FAIL_STANDALONE && !has_controllers) {
        ofproto_add_default_rule(ofproto);
    }
}

void
ofproto_set_datapath_id(struct ofproto *ofproto, uint64_t dpid)
{
    ofproto->datapath_id = dpid;
}

uint64_t
ofproto_get_datapath_id(const struct ofproto *ofproto)
{
    return ofproto->datapath_id;
}

void
ofproto_set_forward_bpdu(struct ofproto *ofproto, bool forward_bpdu)
{
    if (forward_bpdu != ofproto->forward_bpdu) {
        xlate_write_lock();
        ofproto->forward_bpdu = forward_bpdu;
        xlate_write_unlock();
        backer_tables_changed(ofproto->backer);
    }
}

void
ofproto_set_mac_table_config(struct ofproto *ofproto, unsigned int idle_time,
                             size_t max_entries)
{
    mac_learning_set_idle_time(ofproto->ml, idle_time);
    mac_learning_set_max_entries(ofproto->ml, max_entries);
}

void
ofproto_run(struct ofproto *ofproto)
{
    ofproto_run_bonds(ofproto, false);
    mac_learning_run(ofproto->ml);
    ofproto->events_seen = seq_read(ofproto->events_seq);
    ofproto_run_learn(ofproto);
    ofproto_expire_rules(ofproto);
}

void
ofproto_wait(struct ofproto *ofproto)
{
    mac_learning_wait(ofproto->ml);
    /* Translators queue learned flows and change events_seq. */
    seq_wait(ofproto->events_seq, ofproto->events_seen);
    if (ofproto->next_expiry != LLONG_MAX) {
        poll_timer_wait_until(ofproto->next_expiry == LLONG_MIN
                              ? 0 : ofproto->next_expiry);
    }
    if (!heap_is_empty(&ofproto->bond_timers)) {
        long long int when = heap_min(&ofproto->bond_timers)->key;
        if (when != LLONG_MAX) {
            poll_timer_wait_until(when == LLONG_MIN ? 0 : when);
        }
    }
}

/* Native tunneling's tables as translation last saw them: when a route,
 * a neighbour or an endpoint changes, every datapath flow is translated
 * again (a tunnel's header depends on all three). */
static uint64_t router_seen, neigh_seen, tnl_ports_seen;
/* bond_get_changed_seq() as last seen. */
static uint64_t bonds_seen;

uint64_t ofproto_run_round;

void
ofproto_run_global(void)
{
    ofproto_run_round++;
    tnl_ports_run();
    uint64_t router = seq_read(ovs_router_seq());
    uint64_t neigh = seq_read(tnl_neigh_seq());
    uint64_t ports = seq_read(tnl_ports_seq());
    bool tnl_changed = (router != router_seen || neigh != neigh_seen
                        || ports != tnl_ports_seen);
    router_seen = router;
    neigh_seen = neigh;
    tnl_ports_seen = ports;

    struct seq *bonds = bond_get_changed_seq();
    if (bonds && seq_read(bonds) != bonds_seen) {
        /* An ovs-appctl bond command changed forwarding. */
        bonds_seen = seq_read(bonds);
        struct ofproto *ofproto;
        HMAP_FOR_EACH (ofproto, hmap_node, &all_ofprotos) {
            ofproto_run_bonds(ofproto, true);
        }
    }

    struct shash_node *node;
    SHASH_FOR_EACH (node, &backers) {
        struct dpif_backer *backer = node->data;
        if (tnl_changed) {
            seq_change(backer->reval_seq);
        }
        dpif_run(backer->dpif);
        udpif_run(backer->udpif);
    }
}

void
ofproto_wait_global(void)
{
    tnl_ports_wait();
    seq_wait(ovs_router_seq(), router_seen);
    seq_wait(tnl_neigh_seq(), neigh_seen);
    seq_wait(tnl_ports_seq(), tnl_ports_seen);
    if (bond_get_changed_seq()) {
        seq_wait(bond_get_changed_seq(), bonds_seen);
    }
    struct shash_node *node;
    SHASH_FOR_EACH (node, &backers) {
        struct dpif_backer *backer = node->data;
        dpif_wait(backer->dpif);
        udpif_wait(backer->udpif);
    }
}

void
ofproto_exit(void)
{
    ofproto_monitor_exit();
    struct shash_node *node;
    SHASH_FOR_EACH (node, &backers) {
        struct dpif_backer *backer = node->data;
        udpif_set_threads(backer->udpif, 0, 0);
    }
}

/* Ports. */

struct ofport *
ofproto_get_port(const struct ofproto *ofproto, uint16_t ofp_port)
{
    struct ofport *port;
    HMAP_FOR_EACH_WITH_HASH (port, hmap_node, hash_int(ofp_port, 0),
                             &ofproto->ports) {
        if (port->ofp_port == ofp_port) {
            return port;
        }
    }
    return NULL;
}

bool
ofproto_port_exists(const struct ofproto *ofproto, uint16_t ofp_port)
{
    return ofproto_get_port(ofproto, ofp_port) != NULL;
}

uint32_t
ofproto_port_get_odp_port(const struct ofproto *ofproto, uint16_t ofp_port)
{
    const struct ofport *port = ofproto_get_port(ofproto, ofp_port);
    return port ? port->odp_port : UINT32_MAX;
}

struct netdev *
ofproto_port_get_netdev(const struct ofproto *ofproto, uint16_t ofp_port)
{
    const struct ofport *port = ofproto_get_port(ofproto, ofp_port);
    return port ? port->netdev : NULL;
}

char *
ofproto_port_get_error(const struct ofproto *ofproto, uint16_t ofp_port)
{
    const struct ofport *port = ofproto_get_port(ofproto, ofp_port);
    return port ? ofport_patch_error(port) : NULL;
}

static void queue_port_status(struct ofproto *, uint8_t reason,
                              const struct ofputil_phy_port *,
                              const struct ofputil_phy_port *old,
                              const void *source);

int
ofproto_port_add(struct ofproto *ofproto, struct netdev *netdev,
                 uint16_t ofp_port)
{
    if (ofproto_get_port(ofproto, ofp_port)) {
        return EEXIST;
    }
    struct dpif *dpif = ofproto->backer->dpif;
    uint32_t odp_port = DPIF_PORT_NONE;
    /* A patch port is no datapath port: translation crosses it.  Tunnels
     * share their type's datapath port (tunnel.h). */
    bool is_patch = netdev_is_patch(netdev);
    bool is_tunnel = netdev_get_tunnel_config(netdev) != NULL;
    if (!is_patch && !is_tunnel) {
        int error = dpif_port_add(dpif, netdev, &odp_port);
        if (error) {
            return error;
        }
    }

    struct ofport *port = xzalloc(sizeof *port);
    port->ofproto = ofproto;
    port->created = time_msec();
    /* Our own reference: reopening by name shares the netdev. */
    if (netdev_open(netdev_get_name(netdev), netdev_get_type(netdev),
                    &port->netdev)) {
        port->netdev = NULL;
    }
    port->name = xstrdup(netdev_get_name(netdev));
    port->ofp_port = ofp_port;
    if (is_tunnel) {
        /* Tunnels share their type's datapath port (tunnel.h). */
        int error = port->netdev ? tnl_port_add(ofproto->backer, port,
                                                &odp_port) : ENODEV;
        if (error) {
            netdev_close(port->netdev);
            free(port->name);
            free(port);
            return error;
        }
    }
    port->odp_port = odp_port;
    port->may_enable = port_may_enable(port);
    port->live = port_is_live(port);
    port->learns = true;
    port->lacp_enabled = true;
    ovs_list_init(&port->bundle_node);

    ofport_get_phy_port(port, &port->pp);

    xlate_write_lock();
    hmap_insert(&ofproto->ports, &port->hmap_node, hash_int(ofp_port, 0));
    if (!is_patch && !port->tnl) {
        hmap_insert(&ofproto->backer->odp_to_ofport, &port->odp_node,
                    hash_int(odp_port, 0));
    }
    xlate_write_unlock();
    ofport_patch_added(port);
    backer_tables_changed(ofproto->backer);
    /* As in 3.1, a port is announced before it is found live: the add
     * without OFPPS_LIVE; the caller's ofproto_port_changed(), once the
     * port's protocols are attached, sends the modify that sets it (so
     * that a port whose BFD is not up yet is never announced live). */
    port->pp.state &= ~OFPUTIL_PS_LIVE;
    queue_port_status(ofproto, OFPPR_ADD, &port->pp, NULL, NULL);
    return 0;
}

/* Whether PORT's link is up and the port administratively up (the
 * spanning tree leaves out the others). */
static bool
ofport_link_up(const struct ofport *port)
{
    enum netdev_flags flags = 0;
    return (port->netdev && !netdev_get_flags(port->netdev, &flags)
            && flags & NETDEV_UP && netdev_get_carrier(port->netdev));
}

/* Spanning trees: STP or RSTP, each bridge at most one at a time (the
 * caller turns one off before it turns the other on). */

static void
ofport_drop_tree(struct ofport *port)
{
    if (port->tree) {
        ofproto_port_detach_protocol(port->ofproto,
                                     tree_member_protocol(port->tree));
        tree_member_destroy(port->tree);
        port->tree = NULL;
        ofproto_port_changed(port->ofproto, port->ofp_port);
    }
}

/* PORT leaves tree BR if it is in it (BR may be NULL). */
static void
ofport_leave_tree(struct ofport *port, const struct tree_bridge *br)
{
    if (tree_member_in(port->tree, br)) {
        ofport_drop_tree(port);
    }
}

/* Every port of OFPROTO leaves tree BR, which goes away next. */
static void
ofproto_leave_tree(struct ofproto *ofproto, const struct tree_bridge *br)
{
    struct ofport *port;
    HMAP_FOR_EACH (port, hmap_node, &ofproto->ports) {
        ofport_leave_tree(port, br);
    }
}

static void
ofport_attach_tree(struct ofport *port, struct tree_member *m)
{
    port->tree = m;
    if (m) {
        ofproto_port_attach_protocol(port->ofproto, port->ofp_port,
                                     tree_member_protocol(m));
    }
}

void
ofproto_set_stp(struct ofproto *ofproto, const struct stp_bridge_settings *s)
{
    if (!s) {
        if (ofproto->stp) {
            ofproto_leave_tree(ofproto, stp_bridge_tree(ofproto->stp));
            stp_bridge_destroy(ofproto->stp);
            ofproto->stp = NULL;
        }
    } else if (!ofproto->stp) {
        ofproto->stp = stp_bridge_create(ofproto->name, s);
    } else {
        stp_bridge_configure(ofproto->stp, s);
    }
}

bool
ofproto_has_stp(const struct ofproto *ofproto)
{
    return ofproto->stp != NULL;
}

bool
ofproto_get_stp_status(const struct ofproto *ofproto,
                       struct stp_bridge_status *st)
{
    if (!ofproto->stp) {
        return false;
    }
    stp_bridge_get_status(ofproto->stp, st);
    return true;
}

bool
ofproto_port_get_stp_status(const struct ofproto *ofproto, uint16_t ofp_port,
                            struct stp_port_status *st)
{
    const struct ofport *port = ofproto_get_port(ofproto, ofp_port);
    return port && stp_member_get_status(port->tree, st);
}

void
ofproto_port_set_stp(struct ofproto *ofproto, uint16_t ofp_port,
                     const struct stp_port_settings *s, void *owner)
{
    struct ofport *port = ofproto_get_port(ofproto, ofp_port);
    if (!port) {
        return;
    }
    if (!s || !ofproto->stp) {
        ofport_leave_tree(port, stp_bridge_tree(ofproto->stp));
        return;
    }
    if (port->tree && stp_member_configure(port->tree, s)) {
        return;
    }
    ofport_drop_tree(port);
    ofport_attach_tree(port, stp_member_create(ofproto->stp, port->name,
                                               port->pp.hw_addr, s, owner));
}

void
ofproto_set_rstp(struct ofproto *ofproto,
                 const struct rstp_bridge_settings *s)
{
    if (!s) {
        if (ofproto->rstp) {
            ofproto_leave_tree(ofproto, rstp_bridge_tree(ofproto->rstp));
            rstp_bridge_destroy(ofproto->rstp);
            ofproto->rstp = NULL;
        }
    } else if (!ofproto->rstp) {
        ofproto->rstp = rstp_bridge_create(ofproto->name, s);
    } else {
        rstp_bridge_configure(ofproto->rstp, s);
    }
}

bool
ofproto_has_rstp(const struct ofproto *ofproto)
{
    return ofproto->rstp != NULL;
}

bool
ofproto_get_rstp_status(const struct ofproto *ofproto, struct rstp_status *s)
{
    if (!ofproto->rstp) {
        return false;
    }
    rstp_bridge_get_status(ofproto->rstp, s);
    return true;
}

bool
ofproto_port_get_rstp_status(const struct ofproto *ofproto,
                             uint16_t ofp_port, struct rstp_port_status *s)
{
    const struct ofport *port = ofproto_get_port(ofproto, ofp_port);
    return port && rstp_member_get_status(port->tree, s);
}

void
ofproto_port_set_rstp(struct ofproto *ofproto, uint16_t ofp_port,
                      const struct rstp_port_settings *s, void *owner)
{
    struct ofport *port = ofproto_get_port(ofproto, ofp_port);
    if (!port) {
        return;
    }
    if (!s || !ofproto->rstp) {
        ofport_leave_tree(port, rstp_bridge_tree(ofproto->rstp));
        return;
    }
    if (port->tree && rstp_member_configure(port->tree, s)) {
        return;
    }
    ofport_drop_tree(port);
    ofport_attach_tree(port, rstp_member_create(ofproto->rstp, port->name,
                                                port->pp.hw_addr, s, owner));
}

/* Tells PORT's bond whether the member may carry traffic: its link, and
 * LACP if the port runs it. */
static void
bundle_update_member(struct ofport *port)
{
    struct ofbundle *bundle = port->bundle;
    if (bundle && bundle->bond) {
        bond_member_set_may_enable(bundle->bond, port, port->may_enable);
        if (bundle->lacp) {
            enum lacp_status st = lacp_status(lacp_bond_get_lacp(
                                                  bundle->lacp));
            bond_set_lacp_status(bundle->bond,
                                 st == LACP_NEGOTIATED ? BOND_LACP_NEGOTIATED
                                 : st == LACP_CONFIGURED
                                 ? BOND_LACP_CONFIGURED : BOND_LACP_OFF);
        }
        heap_change(&port->ofproto->bond_timers, &bundle->bond_node,
                    LLONG_MIN);
    }
}

/* Rereads what LACP says of PORT (its carrier goes to LACP first). */
static void
ofport_update_lacp(struct ofport *port)
{
    if (!port->lacp_member) {
        return;
    }
    lacp_member_set_carrier(port->lacp_member,
                            port->netdev && netdev_get_carrier(port->netdev),
                            (port->netdev
                             ? netdev_get_carrier_resets(port->netdev) : 0));
    bool enabled = lacp_member_enabled(port->lacp_member);
    if (enabled != port->lacp_enabled) {
        xlate_write_lock();
        port->lacp_enabled = enabled;
        xlate_write_unlock();
        backer_tables_changed(port->ofproto->backer);
    }
    bundle_update_member(port);
}

void
ofproto_port_await_lacp(struct ofproto *ofproto, uint16_t ofp_port)
{
    struct ofport *port = ofproto_get_port(ofproto, ofp_port);
    if (port && !port->lacp_member) {
        xlate_write_lock();
        port->lacp_enabled = false;
        xlate_write_unlock();
    }
}

bool
ofproto_port_get_lacp_current(const struct ofproto *ofproto,
                              uint16_t ofp_port, bool *current)
{
    const struct ofport *port = ofproto_get_port(ofproto, ofp_port);
    if (!port || !port->lacp_member) {
        return false;
    }
    *current = lacp_member_current(port->lacp_member);
    return true;
}

/* Rereads the spanning tree port state PORT's protocols set, and forgets
 * the learned addresses if one of them saw the topology change. */
static void
ofport_update_port_state(struct ofport *port)
{
    struct ofproto *ofproto = port->ofproto;
    for (size_t i = 0; i < port->n_protocols; i++) {
        struct port_protocol *p = port->protocols[i];
        if (p->class->main_changed) {
            p->class->main_changed(p);
        }
    }
    const struct port_protocol *blocker = port_protocols_forward_blocker(
        port->protocols, port->n_protocols);
    const char *fwd_blocker = blocker ? blocker->class->block_name : NULL;
    bool learns = port_protocols_may_learn(port->protocols,
                                           port->n_protocols);
    if (fwd_blocker != port->fwd_blocker || learns != port->learns) {
        xlate_write_lock();
        port->fwd_blocker = fwd_blocker;
        port->learns = learns;
        xlate_write_unlock();
        backer_tables_changed(ofproto->backer);
    }
    enum port_protocol_flush flush = PORT_PROTOCOL_FLUSH_NONE;
    for (size_t i = 0; i < port->n_protocols; i++) {
        struct port_protocol *p = port->protocols[i];
        if (p->class->take_mac_flush) {
            /* Asked once: the question clears the answer. */
            enum port_protocol_flush f = p->class->take_mac_flush(p);
            flush = MAX(flush, f);
        }
    }
    if (flush == PORT_PROTOCOL_FLUSH_BRIDGE) {
        mac_learning_flush(ofproto->ml);
        backer_tables_changed(ofproto->backer);
    } else if (flush == PORT_PROTOCOL_FLUSH_PORT && port->bundle) {
        mac_learning_flush_port(ofproto->ml, port->bundle);
        backer_tables_changed(ofproto->backer);
    }
}

/* Whether the protocols on PORT (BFD, CFM, ...) let it carry traffic. */
static bool
port_protocols_allow(const struct ofport *port)
{
    return port_protocols_link_ok(port->protocols, port->n_protocols);
}

/* A port NORMAL may use: its link is up, its protocols agree, and LACP,
 * if it runs it, has it in the aggregate (as in 3.1, this is also what
 * OpenFlow sees as LIVE). */
static bool
port_may_enable(const struct ofport *port)
{
    return (port->netdev && netdev_get_carrier(port->netdev)
            && port_protocols_allow(port) && port->lacp_enabled);
}

/* A port fast failover may use: NORMAL may, and it is not
 * administratively down (OpenFlow's PORT_DOWN). */
static bool
port_is_live(const struct ofport *port)
{
    enum netdev_flags flags = 0;
    if (!port->netdev) {
        return false;
    }
    netdev_get_flags(port->netdev, &flags);
    return (flags & NETDEV_UP) && port_may_enable(port);
}

void
ofport_get_phy_port(const struct ofport *port, struct ofputil_phy_port *pp)
{
    memset(pp, 0, sizeof *pp);
    pp->port_no = port->ofp_port;
    if (port->netdev) {
        netdev_get_etheraddr(port->netdev, &pp->hw_addr);
    }
    snprintf(pp->name, sizeof pp->name, "%s", port->name);
    enum netdev_flags flags = 0;
    if (port->netdev) {
        netdev_get_flags(port->netdev, &flags);
    }
    pp->config = port->config;
    if (!(flags & NETDEV_UP)) {
        pp->config |= OFPUTIL_PC_PORT_DOWN;
    }
    if (!port->netdev || !netdev_get_carrier(port->netdev)) {
        pp->state |= OFPUTIL_PS_LINK_DOWN;
    } else if (port_protocols_allow(port) && port->lacp_enabled) {
        /* As in 3.1, a BFD session down, a CFM fault or a member LACP
         * leaves out of the aggregate takes "live" away but leaves the link
         * up. */
        pp->state |= OFPUTIL_PS_LIVE;
    }
}

/* Queues a port_status event (bounded, as the other events). */
static void
queue_port_status(struct ofproto *ofproto, uint8_t reason,
                  const struct ofputil_phy_port *desc,
                  const struct ofputil_phy_port *old, const void *source)
{
    if (ovs_list_size(&ofproto->port_status) >= OFPROTO_MAX_EVENTS) {
        COVERAGE_INC(ofproto_port_status_dropped);
        return;
    }
    struct ofproto_port_status *ps = xzalloc(sizeof *ps);
    ps->reason = reason;
    ps->source = source;
    if (old) {
        ps->has_old_desc = true;
        ps->old_desc = *old;
    }
    ps->desc = *desc;
    ovs_list_push_back(&ofproto->port_status, &ps->list_node);
    seq_change(ofproto->events_seq);
}

bool
ofproto_pop_port_status(struct ofproto *ofproto,
                        struct ofproto_port_status *out)
{
    if (ovs_list_is_empty(&ofproto->port_status)) {
        return false;
    }
    struct ofproto_port_status *ps = CONTAINER_OF(
        ovs_list_pop_front(&ofproto->port_status),
        struct ofproto_port_status, list_node);
    *out = *ps;
    free(ps);
    return true;
}

static void
ofport_destroy(struct ofport *port)
{
    struct ofproto *ofproto = port->ofproto;

    bool is_patch = port->is_patch;
    ofport_patch_removed(port);
    xlate_write_lock();
    /* Their owners keep them, no longer driven by anyone. */
    ofport_detach_protocols(port);
    hmap_remove(&ofproto->ports, &port->hmap_node);
    if (!is_patch && !port->tnl) {
        hmap_remove(&ofproto->backer->odp_to_ofport, &port->odp_node);
    }
    bundle_remove_port(port);
    xlate_write_unlock();
    ofproto_monitor_stop_if_idle();
    /* Detached with the others above. */
    tree_member_destroy(port->tree);
    port->tree = NULL;

    if (port->tnl) {
        tnl_port_del(port);
    } else if (!is_patch) {
        dpif_port_del(ofproto->backer->dpif, port->odp_port);
    }
    backer_tables_changed(ofproto->backer);
    /* Neighbours learned through it go with it (a bridge's go with its
     * LOCAL port), as in 3.1. */
    tnl_neigh_flush(port->name);
    if (port->netdev) {
        netdev_close(port->netdev);
    }
    free(port->name);
    free(port);
}

void
ofproto_port_del(struct ofproto *ofproto, uint16_t ofp_port)
{
    struct ofport *port = ofproto_get_port(ofproto, ofp_port);
    if (port) {
        queue_port_status(ofproto, OFPPR_DELETE, &port->pp, NULL, NULL);
        ofport_destroy(port);
    }
}

int
ofproto_port_set_number(struct ofproto *ofproto, uint16_t old_ofp_port,
                        uint16_t new_ofp_port)
{
    struct ofport *port = ofproto_get_port(ofproto, old_ofp_port);
    if (!port) {
        return ENOENT;
    }
    if (old_ofp_port == new_ofp_port) {
        return 0;
    }
    if (ofproto_get_port(ofproto, new_ofp_port)) {
        return EEXIST;
    }
    xlate_write_lock();
    hmap_remove(&ofproto->ports, &port->hmap_node);
    port->ofp_port = new_ofp_port;
    hmap_insert(&ofproto->ports, &port->hmap_node,
                hash_int(new_ofp_port, 0));
    xlate_write_unlock();
    backer_tables_changed(ofproto->backer);
    /* To a controller a renumbered port is one gone and one new. */
    queue_port_status(ofproto, OFPPR_DELETE, &port->pp, NULL, NULL);
    port->pp.port_no = new_ofp_port;
    queue_port_status(ofproto, OFPPR_ADD, &port->pp, NULL, NULL);
    return 0;
}

void
ofproto_port_changed(struct ofproto *ofproto, uint16_t ofp_port)
{
    struct ofport *port = ofproto_get_port(ofproto, ofp_port);
    if (!port || !port->netdev) {
        return;
    }
    COVERAGE_INC(ofproto_port_changed);
    ofport_patch_changed(port);
    if (port->tnl && tnl_port_reconfigure(port)) {
        backer_tables_changed(ofproto->backer);
    }
    /* What the protocols say first: LACP is part of the port's LIVE. */
    tree_member_set_link(port->tree, ofport_link_up(port));
    ofport_update_port_state(port);
    ofport_update_lacp(port);
    struct ofputil_phy_port pp;
    ofport_get_phy_port(port, &pp);
    if (memcmp(&pp, &port->pp, sizeof pp)) {
        struct ofputil_phy_port old = port->pp;
        port->pp = pp;
        queue_port_status(ofproto, OFPPR_MODIFY, &pp, &old, NULL);
    }
    bool may_enable = port_may_enable(port);
    bool live = port_is_live(port);
    if (live != port->live) {
        /* Fast failover groups choose by it. */
        xlate_write_lock();
        port->live = live;
        xlate_write_unlock();
        backer_tables_changed(ofproto->backer);
    }
    if (may_enable != port->may_enable) {
        xlate_write_lock();
        port->may_enable = may_enable;
        xlate_write_unlock();
        bundle_update_member(port);
        if (!may_enable && port->bundle) {
            /* Addresses learned there are unreachable now. */
            mac_learning_flush_port(ofproto->ml, port->bundle);
        }
        backer_tables_changed(ofproto->backer);
    }
}

enum ofperr
ofproto_port_mod(struct ofproto *ofproto, const struct ofputil_port_mod *pm,
                 const void *source)
{
    struct ofport *port = ofproto_get_port(ofproto, pm->port_no);
    if (!port) {
        return OFPERR_OFPPMFC_BAD_PORT;
    }
    if (!eth_addr_equals(port->pp.hw_addr, pm->hw_addr)) {
        return OFPERR_OFPPMFC_BAD_HW_ADDR;
    }
    uint32_t toggle = (pm->config ^ port->pp.config) & pm->mask;
    if (toggle & OFPUTIL_PC_PORT_DOWN) {
        bool down = pm->config & OFPUTIL_PC_PORT_DOWN;
        if (!port->netdev
            || netdev_update_flags(port->netdev, down ? NETDEV_UP : 0,
                                   down ? 0 : NETDEV_UP)) {
            /* The device stays as it was, and so does the bit. */
            toggle &= ~OFPUTIL_PC_PORT_DOWN;
        }
    }
    if (toggle) {
        xlate_write_lock();
        port->config ^= toggle & ~OFPUTIL_PC_PORT_DOWN;
        xlate_write_unlock();
        /* The device's new state (carrier lost with the admin state, say)
         * comes in its own port_status once the bridge sees the device
         * change, as in 3.1: this one reports the config alone. */
        struct ofputil_phy_port old = port->pp;
        port->pp.config ^= toggle;
        /* Liveness follows the carrier at once (taking a dummy port down
         * drops it), so this modify already says the port is not live. */
        port->pp.state &= ~OFPUTIL_PS_LIVE;
        if (port->netdev && netdev_get_carrier(port->netdev)) {
            port->pp.state |= OFPUTIL_PS_LIVE;
        }
        queue_port_status(ofproto, OFPPR_MODIFY, &port->pp, &old, source);
        /* Datapath flows translated with the old bits must be fixed. */
        backer_tables_changed(ofproto->backer);
    }
    if (pm->advertise) {
        VLOG_DBG("%s: port %s: advertised features are not configurable "
                 "on this datapath", ofproto->name, port->name);
    }
    return 0;
}

/* Bundles. */

static struct ofbundle *
bundle_lookup(const struct ofproto *ofproto, void *aux)
{
    struct ofbundle *b;
    HMAP_FOR_EACH_WITH_HASH (b, hmap_node, hash_pointer(aux, 0),
                             &ofproto->bundles) {
        if (b->aux == aux) {
            return b;
        }
    }
    return NULL;
}

static void bundle_set_bond_rules(struct ofbundle *, bool wanted);

/* Frees BUNDLE; the xlate lock is not held. */
static void
bundle_destroy(struct ofbundle *bundle)
{
    struct ofproto *ofproto = bundle->ofproto;

    xlate_write_lock();
    mac_learning_flush_port(ofproto->ml, bundle);
    struct ofport *port;
    LIST_FOR_EACH_SAFE (port, bundle_node, &bundle->ports) {
        bundle_remove_port(port);
    }
    hmap_remove(&ofproto->bundles, &bundle->hmap_node);
    xlate_write_unlock();
    ofproto_monitor_stop_if_idle();
    lacp_bond_destroy(bundle->lacp);

    if (bundle->bond) {
        heap_remove(&ofproto->bond_timers, &bundle->bond_node);
        bundle_set_bond_rules(bundle, false);
        bond_destroy(bundle->bond);
    }
    for (size_t i = 0; i < ofproto->n_bond_mac_changed; i++) {
        if (ofproto->bond_mac_changed[i] == bundle->aux) {
            ofproto->bond_mac_changed[i]
                = ofproto->bond_mac_changed[--ofproto->n_bond_mac_changed];
            break;
        }
    }
    backer_tables_changed(ofproto->backer);
    free(bundle->name);
    bitmap_free(bundle->trunks);
    free(bundle);
}

static bool
trunks_equal(const unsigned long *a, const unsigned long *b)
{
    if (!a || !b) {
        return a == b;
    }
    return !memcmp(a, b, bitmap_n_longs(4096) * sizeof *a);
}

/* Takes PORT out of its bundle's LACP, if it runs it; xlate lock held for
 * writing, so no lacp_run() is running (the monitor runs under it). */
static void
ofport_drop_lacp_locked(struct ofport *port)
{
    if (port->lacp_member) {
        ofport_detach_protocol_locked(port,
                                      lacp_member_protocol(port->lacp_member));
        lacp_member_destroy(port->lacp_member);
        port->lacp_member = NULL;
        port->lacp_enabled = true;
    }
}

/* Takes PORT out of its bundle (and the bundle's bond), if any; xlate
 * lock held for writing. */
static void
bundle_remove_port(struct ofport *port)
{
    ofport_drop_lacp_locked(port);
    if (port->bundle) {
        if (port->bundle->bond) {
            bond_member_unregister(port->bundle->bond, port);
        }
        ovs_list_remove(&port->bundle_node);
        ovs_list_init(&port->bundle_node);
        port->bundle = NULL;
    }
}

/* Bonds. */

/* Gives BUNDLE's bond a recirculation id and internal rules (bond-rules.h)
 * if WANTED (balance-tcp), takes them away if not. */
static void
bundle_set_bond_rules(struct ofbundle *bundle, bool wanted)
{
    if (wanted && !bundle->bond_rules) {
        bundle->bond_rules = bond_rules_create(bundle->ofproto,
                                               bundle->name);
        bond_set_recirc_id(bundle->bond,
                           bond_rules_recirc_id(bundle->bond_rules));
    } else if (!wanted && bundle->bond_rules) {
        /* Translations stop recirculating first; packets on their way back
         * find no rule and are dropped. */
        bond_set_recirc_id(bundle->bond, 0);
        bond_rules_destroy(bundle->bond_rules);
        bundle->bond_rules = NULL;
    }
}

/* Brings the internal rules of BUNDLE's bond up to its bucket map (if it
 * changed).  Returns true if a rule changed. */
static bool
bundle_update_bond_rules(struct ofbundle *bundle)
{
    void *members[BOND_N_BUCKETS];
    uint32_t ports[BOND_N_BUCKETS], odp_ports[BOND_N_BUCKETS];
    uint64_t seq = bond_get_buckets(bundle->bond, members);
    for (int i = 0; i < BOND_N_BUCKETS; i++) {
        const struct ofport *port = members[i];
        ports[i] = port ? port->ofp_port : OFPP_NONE;
        odp_ports[i] = port && !port->is_patch ? port->odp_port : UINT32_MAX;
    }
    uint32_t id, basis;
    bool lb_output;
    bond_get_recirc(bundle->bond, &id, &basis, &lb_output);
    return bond_rules_update(bundle->bond_rules, seq, ports, odp_ports,
                             lb_output);
}

/* Makes BUNDLE a bond with settings S (its ports the members), or no
 * bond if S is NULL. */
static void
bundle_configure_bond(struct ofbundle *bundle, const struct bond_settings *s)
{
    struct ofproto *ofproto = bundle->ofproto;
    if (!s) {
        if (bundle->bond) {
            heap_remove(&ofproto->bond_timers, &bundle->bond_node);
            bundle_set_bond_rules(bundle, false);
            bond_destroy(bundle->bond);
            xlate_write_lock();
            bundle->bond = NULL;
            xlate_write_unlock();
        }
        return;
    }
    struct bond_settings copy;
    if (s->use_lb_output && !dpif_supports_lb_output(ofproto->backer->dpif)) {
        /* 3.1's words. */
        VLOG_WARN("%s: Datapath does not support 'lb_output' action, "
                  "disabled.", bundle->name);
        copy = *s;
        copy.use_lb_output = false;
        s = &copy;
    }
    if (!bundle->bond) {
        bond_init();
        struct bond *bond = bond_create(bundle->name, s);
        xlate_write_lock();
        bundle->bond = bond;
        xlate_write_unlock();
        heap_node_init(&bundle->bond_node);
        heap_insert(&ofproto->bond_timers, &bundle->bond_node, LLONG_MIN);
    } else {
        bond_reconfigure(bundle->bond, s);
        heap_change(&ofproto->bond_timers, &bundle->bond_node, LLONG_MIN);
    }
    bundle_set_bond_rules(bundle, s->mode == BM_TCP);
    struct ofport *port;
    LIST_FOR_EACH (port, bundle_node, &bundle->ports) {
        bond_member_register(bundle->bond, port, port->name,
                             port->pp.hw_addr);
        bond_member_set_may_enable(bundle->bond, port, port->may_enable);
    }
}

/* Runs LACP on BUNDLE's members as S says (none if S->lacp is NULL). */
static void
bundle_configure_lacp(struct ofbundle *bundle,
                      const struct ofproto_bundle_settings *s)
{
    struct ofproto *ofproto = bundle->ofproto;
    struct ofport *port;
    if (bundle->lacp && (!s->lacp
                         || !lacp_bond_configure(bundle->lacp, s->lacp))) {
        xlate_write_lock();
        LIST_FOR_EACH (port, bundle_node, &bundle->ports) {
            ofport_drop_lacp_locked(port);
        }
        xlate_write_unlock();
        ofproto_monitor_stop_if_idle();
        lacp_bond_destroy(bundle->lacp);
        bundle->lacp = NULL;
        if (bundle->bond) {
            bond_set_lacp_status(bundle->bond, BOND_LACP_OFF);
        }
        /* The members carry traffic by their links alone again. */
        LIST_FOR_EACH (port, bundle_node, &bundle->ports) {
            ofproto_port_changed(ofproto, port->ofp_port);
        }
    }
    if (!s->lacp || (!bundle->lacp
                     && !(bundle->lacp = lacp_bond_create(s->lacp)))) {
        /* Members that waited for LACP (ofproto_port_await_lacp()) carry
         * traffic by their links. */
        LIST_FOR_EACH (port, bundle_node, &bundle->ports) {
            if (!port->lacp_member && !port->lacp_enabled) {
                xlate_write_lock();
                port->lacp_enabled = true;
                xlate_write_unlock();
                ofproto_port_changed(ofproto, port->ofp_port);
            }
        }
        return;
    }
    for (size_t i = 0; i < s->n_members; i++) {
        port = ofproto_get_port(ofproto, s->members[i]);
        if (!port || port->bundle != bundle) {
            continue;
        }
        if (port->lacp_member) {
            lacp_member_reconfigure(port->lacp_member, &s->lacp_members[i]);
        } else {
            port->lacp_member = lacp_member_create(bundle->lacp,
                                                   &s->lacp_members[i],
                                                   s->member_owners[i]);
            ofproto_port_attach_protocol(
                ofproto, port->ofp_port,
                lacp_member_protocol(port->lacp_member));
        }
        ofproto_port_changed(ofproto, port->ofp_port);
    }
}

/* Sends, out of ACTIVE, a learning packet for every address NORMAL learned
 * elsewhere than on BUNDLE (bond.h), after a failover. */
static void
bundle_send_learning_packets(struct ofbundle *bundle, struct ofport *active)
{
    enum { MAX_LEARNING = 4096 };
    struct eth_addr *macs = xmalloc(MAX_LEARNING * sizeof *macs);
    uint16_t *vlans = xmalloc(MAX_LEARNING * sizeof *vlans);
    size_t n = mac_learning_collect(bundle->ofproto->ml, bundle, macs,
                                    vlans, MAX_LEARNING);
    ovs_rwlock_rdlock(&xlate_rwlock);
    for (size_t i = 0; i < n; i++) {
        struct dp_packet *packet = dp_packet_new(64);
        bond_compose_learning_packet(packet, macs[i], vlans[i]);
        int error = ofport_send_packet(active, packet);
        if (error) {
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
            VLOG_WARN_RL(&rl, "bond %s: sending learning packet on %s "
                         "failed (%s)", bundle->name, active->name,
                         ovs_strerror(error));
        }
        dp_packet_delete(packet);
    }
    ovs_rwlock_unlock(&xlate_rwlock);
    free(macs);
    free(vlans);
}

/* Runs the bonds that are due (all of them when ALL, after an ovs-appctl
 * bond command). */
static void
ofproto_run_bonds(struct ofproto *ofproto, bool all)
{
    long long int now = time_msec();
    bool changed = false;
    if (all) {
        struct ofbundle *b;
        HMAP_FOR_EACH (b, hmap_node, &ofproto->bundles) {
            if (b->bond) {
                heap_change(&ofproto->bond_timers, &b->bond_node, LLONG_MIN);
            }
        }
        changed = true;
    }
    while (!heap_is_empty(&ofproto->bond_timers)
           && heap_min(&ofproto->bond_timers)->key <= now) {
        struct ofbundle *b = CONTAINER_OF(heap_min(&ofproto->bond_timers),
                                          struct ofbundle, bond_node);
        if (b->bond_rules) {
            /* The buckets' loads, for a rebalance, are what their rules
             * counted. */
            uint64_t delta[BOND_N_BUCKETS];
            bond_rules_take_deltas(b->bond_rules, delta);
            bond_account_buckets(b->bond, delta);
        }
        long long int next = bond_run(b->bond, now, &changed);
        heap_change(&ofproto->bond_timers, &b->bond_node, next);
        if (b->bond_rules && bundle_update_bond_rules(b)) {
            changed = true;
        }
        void *active;
        if (bond_take_learning_needed(b->bond, &active)) {
            bundle_send_learning_packets(b, active);
        }
        if (bond_take_active_mac_changed(b->bond) && !b->bond_mac_queued) {
            b->bond_mac_queued = true;
            if (ofproto->n_bond_mac_changed
                >= ofproto->allocated_bond_mac_changed) {
                ofproto->bond_mac_changed = x2nrealloc(
                    ofproto->bond_mac_changed,
                    &ofproto->allocated_bond_mac_changed,
                    sizeof *ofproto->bond_mac_changed);
            }
            ofproto->bond_mac_changed[ofproto->n_bond_mac_changed++]
                = b->aux;
        }
    }
    if (changed) {
        backer_tables_changed(ofproto->backer);
    }
}

size_t
ofproto_take_bond_changes(struct ofproto *ofproto, void ***auxes)
{
    size_t n = ofproto->n_bond_mac_changed;
    for (size_t i = 0; i < n; i++) {
        struct ofbundle *b = bundle_lookup(ofproto,
                                           ofproto->bond_mac_changed[i]);
        if (b) {
            b->bond_mac_queued = false;
        }
    }
    *auxes = ofproto->bond_mac_changed;
    ofproto->bond_mac_changed = NULL;
    ofproto->n_bond_mac_changed = ofproto->allocated_bond_mac_changed = 0;
    return n;
}

struct eth_addr
ofproto_bundle_get_active_member_mac(struct ofproto *ofproto, void *aux)
{
    const struct ofbundle *bundle = bundle_lookup(ofproto, aux);
    struct eth_addr zero = { { 0 } };
    return bundle && bundle->bond ? bond_get_active_member_mac(bundle->bond)
                                  : zero;
}

void
ofproto_bundle_register(struct ofproto *ofproto, void *aux,
                        const struct ofproto_bundle_settings *s)
{
    struct ofbundle *bundle = bundle_lookup(ofproto, aux);
    bool vlan_changed = false;

    xlate_write_lock();
    if (!bundle) {
        bundle = xzalloc(sizeof *bundle);
        bundle->ofproto = ofproto;
        bundle->aux = aux;
        bundle->name = xstrdup(s->name);
        bundle->vlan = -1;
        bundle->created_round = ofproto_run_round;
        ovs_list_init(&bundle->ports);
        hmap_insert(&ofproto->bundles, &bundle->hmap_node,
                    hash_pointer(aux, 0));
    } else if (strcmp(bundle->name, s->name)) {
        free(bundle->name);
        bundle->name = xstrdup(s->name);
    }

    if (bundle->vlan_mode != s->vlan_mode || bundle->vlan != s->vlan
        || !trunks_equal(bundle->trunks, s->trunks)) {
        vlan_changed = true;
        bundle->vlan_mode = s->vlan_mode;
        bundle->vlan = s->vlan;
        bitmap_free(bundle->trunks);
        bundle->trunks = NULL;
        if (s->trunks) {
            bundle->trunks = bitmap_allocate(4096);
            memcpy(bundle->trunks, s->trunks,
                   bitmap_n_longs(4096) * sizeof *s->trunks);
        }
    }

    /* Members: drop those no longer listed, add the new ones in order. */
    struct ofport *port;
    LIST_FOR_EACH_SAFE (port, bundle_node, &bundle->ports) {
        bool listed = false;
        for (size_t i = 0; i < s->n_members; i++) {
            listed |= s->members[i] == port->ofp_port;
        }
        if (!listed) {
            bundle_remove_port(port);
            vlan_changed = true;
        }
    }
    for (size_t i = 0; i < s->n_members; i++) {
        port = ofproto_get_port(ofproto, s->members[i]);
        if (port && port->bundle != bundle) {
            bundle_remove_port(port);
            port->bundle = bundle;
            ovs_list_push_back(&bundle->ports, &port->bundle_node);
        }
    }
    if (vlan_changed) {
        mac_learning_flush_port(ofproto->ml, bundle);
    }
    xlate_write_unlock();
    ofproto_monitor_stop_if_idle();
    bundle_configure_bond(bundle, s->n_members > 1 ? s->bond : NULL);
    bundle_configure_lacp(bundle, s);
    backer_tables_changed(ofproto->backer);
}

void
ofproto_bundle_unregister(struct ofproto *ofproto, void *aux)
{
    struct ofbundle *bundle = bundle_lookup(ofproto, aux);
    if (bundle) {
        bundle_destroy(bundle);
    }
}

/* Packet out. */

/* Runs OFPACTS on PACKET, whose parsed form is FLOW, as a packet_out does
 * (xlate_rwlock held for reading).  The caller keeps PACKET. */
static int
execute_packet(struct ofproto *ofproto, struct dp_packet *packet,
               const struct flow *flow, const struct ofpact *ofpacts,
               size_t ofpacts_len, bool control)
{
    /* A packet sent out is a packet seen, as in 3.1: NORMAL learns its
     * source MAC, learn actions learn from it, and the rules it is
     * resubmitted through count it (it never makes a datapath flow, so
     * nothing else would).  A protocol's control packet that reaches its
     * peer through a patch port is handed over on the way. */
    struct xlate_in xin = {
        .ofproto = ofproto,
        .flow = *flow,
        .packet = packet,
        .may_learn = true,
        .n_packets = 1,
        .n_bytes = dp_packet_size(packet),
        .used = time_msec(),
        .ofpacts = ofpacts,
        .ofpacts_len = ofpacts_len,
        .control = control,
    };
    struct xlate_out xout;
    xlate_out_init(&xout);
    xlate_actions(&xin, &xout);

    struct dp_packet_batch batch;
    dp_packet_batch_init_packet(&batch, packet);
    int error = dpif_execute(ofproto->backer->dpif, &batch,
                             xout.odp_actions.data, xout.odp_actions.size);
    xlate_out_uninit(&xout);
    return error;
}

int
ofproto_packet_out(struct ofproto *ofproto,
                   const struct ofputil_packet_out *po)
{
    ovs_be32 packet_type = ofputil_packet_out_type(po);
    if (packet_type == htonl(PT_ETH) && po->packet_len < ETH_HEADER_LEN) {
        return EINVAL;
    }
    const struct flow *md = &po->flow_metadata.flow;
    uint32_t in_port = md->in_port;
    struct dp_packet *packet = dp_packet_clone_data(po->packet,
                                                    po->packet_len);
    /* From a port that is not one of the bridge's (CONTROLLER, NONE), the
     * packet enters the datapath as from the bridge's own port, so that
     * whatever comes back up for it (after a recirculation) finds the
     * bridge again. */
    const struct ofport *port = ofproto_get_port(ofproto, in_port);
    if (!port) {
        port = ofproto_get_port(ofproto, OFPP_LOCAL);
    }
    packet->md.in_port = port ? port->odp_port : DPIF_PORT_LOCAL;
    packet->md.packet_type = packet_type;

    struct flow flow;
    flow_extract(packet, &flow);
    flow.in_port = in_port;
    /* The pipeline fields the controller set (1.5 packet_outs carry
     * them); zero unless it did. */
    flow.tunnel = md->tunnel;
    flow.tun_metadata = md->tun_metadata;
    flow.metadata = md->metadata;
    memcpy(flow.regs, md->regs, sizeof flow.regs);
    flow.pkt_mark = md->pkt_mark;

    ovs_rwlock_rdlock(&xlate_rwlock);
    int error = execute_packet(ofproto, packet, &flow, po->ofpacts,
                               po->ofpacts_len, false);
    ovs_rwlock_unlock(&xlate_rwlock);
    dp_packet_delete(packet);
    return error;
}

int
ofport_send_packet(struct ofport *port, struct dp_packet *packet)
{
    struct ofproto *ofproto = port->ofproto;
    packet->md.in_port = DPIF_PORT_LOCAL;
    /* A protocol may ask for the tunnel header's OAM bit (BFD's "oam"):
     * translation takes it from the flow, and the packet itself carries
     * no tunnel. */
    uint16_t oam = packet->md.tunnel.flags & FLOW_TNL_F_OAM;
    packet->md.tunnel.flags &= ~FLOW_TNL_F_OAM;
    struct flow flow;
    flow_extract(packet, &flow);
    flow.in_port = OFPP_NONE;
    flow.tunnel.flags |= oam;

    uint64_t stub[64 / 8];
    struct ofpbuf ofpacts;
    ofpbuf_use_stub(&ofpacts, stub, sizeof stub);
    OFPACT_PUT(&ofpacts, OFPACT_OUTPUT, ofpact_output)->port = port->ofp_port;
    int error = execute_packet(ofproto, packet, &flow, ofpacts.data,
                               ofpacts.size, true);
    ofpbuf_uninit(&ofpacts);
    return error;
}

int
ofport_inject_packet(const struct ofport *port, struct dp_packet *packet)
{
    packet->md.in_port = port->odp_port;
    struct flow flow;
    flow_extract(packet, &flow);
    flow.in_port = port->ofp_port;

    uint64_t stub[64 / 8];
    struct ofpbuf ofpacts;
    ofpbuf_use_stub(&ofpacts, stub, sizeof stub);
    OFPACT_PUT(&ofpacts, OFPACT_OUTPUT, ofpact_output)->port = OFPP_TABLE;
    int error = execute_packet(port->ofproto, packet, &flow, ofpacts.data,
                               ofpacts.size, false);
    ofpbuf_uninit(&ofpacts);
    return error;
}

void
ofproto_get_memory_usage(struct ds *s)
{
    size_t n_ports = 0, n_rules = 0, n_ukeys = 0;
    unsigned int n_handlers = 0, n_revalidators = 0;
    struct ofproto *ofproto;
    HMAP_FOR_EACH (ofproto, hmap_node, &all_ofprotos) {
        n_ports += hmap_count(&ofproto->ports);
        n_rules += ofproto->n_rules;
    }
    struct shash_node *node;
    SHASH_FOR_EACH (node, &backers) {
        struct dpif_backer *backer = node->data;
        n_ukeys += udpif_n_ukeys(backer->udpif);
        n_handlers += udpif_n_handlers(backer->udpif);
        n_revalidators += udpif_n_revalidators(backer->udpif);
    }
    ds_put_format(s, "handlers:%u ports:%zu revalidators:%u rules:%zu "
                  "udpif keys:%zu", n_handlers, n_ports, n_revalidators,
                  n_rules, n_ukeys);
}

