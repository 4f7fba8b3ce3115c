/* bridge: the database's bridges, ports and interfaces, brought to life.
 * See bridge.h for the model; the comments here say why it is done so. */
#include <config.h>

#include "bridge.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <stdio.h>

#include "connectivity.h"
#include "coverage.h"
#include "dynamic-string.h"
#include "hash.h"
#include "hmap.h"
#include "iface-protocol.h"
#include "list.h"
#include "netdev.h"
#include "netdev-patch.h"
#include "bitmap.h"
#include "classifier.h"
#include "connmgr.h"
#include "dpif.h"
#include "ofp-fields.h"
#include "ofport-numbers.h"
#include "ofproto.h"
#include "monitor.h"
#include "port-protocol.h"
#include "ofp-protocol.h"
#include "ovsdb-idl.h"
#include "packets.h"
#include "poll-loop.h"
#include "port-bond.h"
#include "bond.h"
#include "lacp.h"
#include "rstp-member.h"
#include "stp-member.h"
#include "stp.h"
#include "seq.h"
#include "shash.h"
#include "smap.h"
#include "sset.h"
#include "stats-writer.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"
#include "vswitchd/vswitch-idl.h"
#include "datapath-config.h"

VLOG_DEFINE_THIS_MODULE(bridge);

COVERAGE_DEFINE(bridge_reconfigure);
COVERAGE_DEFINE(bridge_iface_status_written);
COVERAGE_DEFINE(bridge_protocol_changed);
COVERAGE_DEFINE(bridge_iface_stats_written);
COVERAGE_DEFINE(bridge_stats_checked);
/* Reconciliations with the database: the full one (first configuration,
 * lock regained, new connection) compares every object; the incremental one
 * follows the IDL's tracked changes. */
COVERAGE_DEFINE(bridge_reconfigure_full);
COVERAGE_DEFINE(bridge_reconfigure_incremental);
/* Objects a reconciliation or status pass did work for: an idle switch
 * adds nothing to these, whatever its size. */
COVERAGE_DEFINE(bridge_port_visited);
COVERAGE_DEFINE(bridge_iface_visited);

/* The datapath type this switch runs by default (its userspace datapath).
 * The empty type, which Open vSwitch's tools write by default, means it;
 * with --enable-dummy there is also "dummy" (dpif.h). */
#define DATAPATH_TYPE "netdev"

struct iface {
    struct hmap_node name_node;  /* In all_ifaces. */
    struct ovs_list port_node;   /* In port->ifaces. */
    struct ovs_list dirty_node;  /* In dirty_ifaces while 'dirty'. */
    bool dirty;                  /* Reported status may be stale. */
    struct ovs_list failed_node; /* In failed_ifaces while 'netdev' is
                                  * NULL, to be retried on the next
                                  * database change. */

    struct port *port;
    char *name;
    char *type;                  /* As in the database (not normalized), so
                                  * that a change of the column is seen. */
    const struct ovsrec_interface *cfg;

    struct netdev *netdev;       /* NULL if it could not be opened. */
    int ofport;                  /* 1..OFPP_MAX-1, OFPP_LOCAL, or -1. */
    bool ofport_requested;       /* 'ofport' came from ofport_request. */
    bool in_ofproto;             /* A port of the bridge's ofproto. */
    char *error;                 /* Why it is not (fully) set up, or NULL. */

    /* Link state as last seen, to count resets (up -> down). */
    bool carrier;
    int64_t link_resets;
    /* Counters as last written to "statistics". */
    struct netdev_stats stats;
    bool stats_written;

    /* Configuration last applied, to skip unchanged interfaces. */
    struct smap options;
    int64_t mtu_request;         /* 0 if none. */
    char *mac;                   /* NULL if none. */

    /* Per-port protocols: protocols[i] is iface_protocols[i]'s instance
     * or NULL; attached to the OpenFlow port while 'in_ofproto'. */
    struct port_protocol *protocols[IFACE_MAX_PROTOCOLS];
};

struct port {
    struct hmap_node name_node;  /* In bridge->ports. */
    struct bridge *bridge;
    char *name;
    const struct ovsrec_port *cfg;
    struct ovs_list ifaces;      /* struct iface's port_node. */
    struct ovs_list changed_node; /* In changed_ports while 'changed'. */
    bool changed;                /* NORMAL's view of it needs updating. */
    unsigned int seen;           /* Pass that last found it in the row. */
    /* The column its spanning tree's counters were last written to
     * (Port "statistics" for STP, "rstp_statistics" for RSTP), or NULL. */
    const char *tree_stats_column;
    /* A bond's fake interface (bond_fake_iface): an internal device named
     * after the port, in the switch as port 'fake_ofport', or NULL. */
    struct netdev *fake_netdev;
    int fake_ofport;
    struct ovs_list fake_node;   /* In bridge->fake_ports, with one. */
};

struct bridge {
    struct hmap_node name_node;  /* In all_bridges. */
    char *name;
    const struct ovsrec_bridge *cfg;
    struct hmap ports;           /* struct port's name_node. */
    char *datapath_type;         /* As configured when created. */
    struct ofport_numbers ofports;
    /* The bridge's local port device, which exists whether or not the
     * database lists an interface with the bridge's name. */
    struct netdev *local_netdev;
    struct ofproto *ofproto;     /* NULL if it could not be created. */
    struct connmgr *connmgr;     /* Its OpenFlow connections, with it. */
    uint64_t controller_status_seqno;   /* Last written to Controller. */
    bool status_dirty;           /* datapath_id etc. need writing. */
    /* Ports with a fake bond interface, whose OpenFlow port number is held
     * by the port, not an interface (bridge_ofport_holder()). */
    struct ovs_list fake_ports;
};

static struct ovsdb_idl *idl;
static struct ovsdb_idl_loop idl_loop;

static struct hmap all_bridges = HMAP_INITIALIZER(&all_bridges);
static struct hmap all_ifaces = HMAP_INITIALIZER(&all_ifaces);
static struct ovs_list dirty_ifaces = OVS_LIST_INITIALIZER(&dirty_ifaces);
static struct ovs_list failed_ifaces = OVS_LIST_INITIALIZER(&failed_ifaces);
static struct ovs_list changed_ports = OVS_LIST_INITIALIZER(&changed_ports);

/* The next reconciliation must compare everything (the tracked changes do
 * not describe the difference from what we hold). */
static bool need_full_reconfigure = true;

/* Replica seqno that the bridges were last reconciled with. */
static unsigned int reconfigured_seqno;
/* The Open_vSwitch row's daemon-written columns need (re)writing. */
static bool system_status_dirty = true;
static uint64_t last_connectivity_seq;
/* Interface statistics: written by their own thread (stats-writer.h), and
 * the connection seqno of it when everything was last handed over. */
static struct stats_writer *stats_writer;
static unsigned int stats_writer_seqno;
/* Interface statistics: how often (ms), and when next. */
static unsigned int stats_update_interval = 5000;
static long long int stats_next_update;
/* Set while another ovs-vswitchd holds the lock (logged once). */
static bool lock_contended;
/* True while we own the configuration (connected, locked): only then do
 * device changes matter, so only then does bridge_wait() wait for them. */
static bool configuring;
/* Whether the replica was live at the last bridge_run(). */
static bool was_monitoring;

static void bridge_destroy(struct bridge *);
static void iface_destroy(struct iface *);

/* Columns that ovs-vswitchd writes: replicated (to compare before writing)
 * but not alerting, so that our own writes do not wake us. */
static void
bridge_omit_own_status_columns(void)
{
    static const struct ovsdb_idl_column *const written[] = {
        &ovsrec_open_vswitch_col_cur_cfg,
        &ovsrec_open_vswitch_col_datapath_types,
        &ovsrec_open_vswitch_col_iface_types,
        &ovsrec_open_vswitch_col_ovs_version,
        &ovsrec_open_vswitch_col_db_version,
        &ovsrec_interface_col_ofport,
        &ovsrec_interface_col_error,
        &ovsrec_interface_col_mtu,
        &ovsrec_interface_col_mac_in_use,
        &ovsrec_interface_col_ifindex,
        &ovsrec_interface_col_admin_state,
        &ovsrec_interface_col_link_state,
        &ovsrec_interface_col_status,
        &ovsrec_interface_col_link_resets,
        &ovsrec_interface_col_link_speed,
        &ovsrec_interface_col_lacp_current,
        &ovsrec_bridge_col_datapath_id,
        &ovsrec_bridge_col_datapath_version,
        &ovsrec_port_col_bond_active_slave,
        &ovsrec_port_col_status,
        &ovsrec_port_col_rstp_status,
        &ovsrec_bridge_col_status,
        &ovsrec_bridge_col_rstp_status,
        &ovsrec_controller_col_is_connected,
        &ovsrec_controller_col_role,
        &ovsrec_controller_col_status,
    };
    for (size_t i = 0; i < ARRAY_SIZE(written); i++) {
        ovsdb_idl_omit_alert(idl, written[i]);
    }
    /* Counters move all the time (every tunnel's BFD packets move its
     * counters), so they are written but not replicated: the server then
     * sends no update back for each write, and the comparison before
     * writing uses the counters last written (iface->stats). */
    ovsdb_idl_omit(idl, &ovsrec_interface_col_statistics);
    ovsdb_idl_omit(idl, &ovsrec_port_col_statistics);
    ovsdb_idl_omit(idl, &ovsrec_port_col_rstp_statistics);
}

/* Columns whose changes the incremental reconciliation follows.  Only
 * tracked columns put a modified row on the IDL's change lists, so the
 * columns we write ourselves never show up there. */
static void
bridge_track_config_columns(void)
{
    static const struct ovsdb_idl_column *const config[] = {
        &ovsrec_open_vswitch_col_bridges,
        &ovsrec_open_vswitch_col_other_config,
        &ovsrec_bridge_col_name,
        &ovsrec_bridge_col_ports,
        &ovsrec_bridge_col_datapath_type,
        &ovsrec_bridge_col_other_config,
        &ovsrec_bridge_col_fail_mode,
        &ovsrec_bridge_col_stp_enable,
        &ovsrec_bridge_col_rstp_enable,
        &ovsrec_bridge_col_controller,
        /* What bridge_configure_controllers() reads of a Controller row,
         * so that changing it in place (set Controller br0 type=primary)
         * reconfigures too. */
        &ovsrec_controller_col_target,
        &ovsrec_controller_col_type,
        &ovsrec_controller_col_inactivity_probe,
        &ovsrec_controller_col_max_backoff,
        &ovsrec_controller_col_controller_rate_limit,
        &ovsrec_controller_col_controller_burst_limit,
        &ovsrec_port_col_name,
        &ovsrec_port_col_interfaces,
        &ovsrec_port_col_tag,
        &ovsrec_port_col_trunks,
        &ovsrec_port_col_vlan_mode,
        /* Bonds (port-bond.h). */
        &ovsrec_port_col_bond_mode,
        &ovsrec_port_col_bond_updelay,
        &ovsrec_port_col_bond_downdelay,
        &ovsrec_port_col_other_config,
        &ovsrec_port_col_lacp,
        &ovsrec_port_col_bond_fake_iface,
        &ovsrec_interface_col_name,
        &ovsrec_interface_col_other_config,
        &ovsrec_interface_col_type,
        &ovsrec_interface_col_options,
        &ovsrec_interface_col_mtu_request,
        &ovsrec_interface_col_mac,
        &ovsrec_interface_col_ofport_request,
    };
    for (size_t i = 0; i < ARRAY_SIZE(config); i++) {
        ovsdb_idl_track_add_column(idl, config[i]);
    }
}

void
bridge_init(const char *remote)
{
    idl = ovsdb_idl_create(remote, &ovsrec_idl_class, true, true);
    ovsdb_idl_set_lock(idl, "ovs_vswitchd");
    bridge_omit_own_status_columns();
    bridge_track_config_columns();
    datapath_config_track(idl);
    for (size_t i = 0; iface_protocols[i]; i++) {
        const struct iface_protocol_ops *ops = iface_protocols[i];
        for (size_t j = 0; ops->config_columns[j]; j++) {
            ovsdb_idl_track_add_column(idl, ops->config_columns[j]);
        }
        for (size_t j = 0; ops->status_columns[j]; j++) {
            ovsdb_idl_omit_alert(idl, ops->status_columns[j]);
        }
        if (ops->init) {
            ops->init();
        }
    }
    /* Their commands answer before any bond exists, as in 3.1. */
    bond_init();
    lacp_init();
    idl_loop = (struct ovsdb_idl_loop) OVSDB_IDL_LOOP_INITIALIZER(idl);
    stats_writer = stats_writer_create(remote, ovsrec_idl_class.database);
}

void
bridge_exit(bool delete_devices)
{
    struct bridge *br;
    HMAP_FOR_EACH_SAFE (br, name_node, &all_bridges) {
        bridge_destroy(br);
    }
    if (delete_devices) {
        netdev_close_all();
    }
    stats_writer_destroy(stats_writer);
    stats_writer = NULL;
    ovsdb_idl_loop_destroy(&idl_loop);
    ovsdb_idl_destroy(idl);
    idl = NULL;
}

/* Lookups. */

static struct bridge *
bridge_lookup(const char *name)
{
    struct bridge *br;
    HMAP_FOR_EACH_WITH_HASH (br, name_node, hash_string(name, 0),
                             &all_bridges) {
        if (!strcmp(br->name, name)) {
            return br;
        }
    }
    return NULL;
}

static struct port *
port_lookup(const struct bridge *br, const char *name)
{
    struct port *port;
    HMAP_FOR_EACH_WITH_HASH (port, name_node, hash_string(name, 0),
                             &br->ports) {
        if (!strcmp(port->name, name)) {
            return port;
        }
    }
    return NULL;
}

static struct iface *
iface_lookup(const char *name)
{
    struct iface *iface;
    HMAP_FOR_EACH_WITH_HASH (iface, name_node, hash_string(name, 0),
                             &all_ifaces) {
        if (!strcmp(iface->name, name)) {
            return iface;
        }
    }
    return NULL;
}

/* Queues PORT for port_configure_bundle() at the end of the pass. */
static void
port_mark_changed(struct port *port)
{
    if (!port->changed) {
        port->changed = true;
        ovs_list_push_back(&changed_ports, &port->changed_node);
    }
}

static void
iface_mark_dirty(struct iface *iface)
{
    if (!iface->dirty) {
        iface->dirty = true;
        ovs_list_push_back(&dirty_ifaces, &iface->dirty_node);
    }
}

static void iface_attach_protocols(struct iface *);

/* OpenFlow port numbers. */

static void
bridge_release_ofport(struct bridge *br, struct iface *iface)
{
    if (iface->in_ofproto) {
        ofproto_port_del(br->ofproto, iface->ofport);
        iface->in_ofproto = false;
    }
    ofport_numbers_release(&br->ofports, iface->ofport);
    iface->ofport = -1;
    iface->ofport_requested = false;
    port_mark_changed(iface->port);
}

static void
bridge_take_ofport(struct bridge *br, struct iface *iface, int ofport,
                   bool requested)
{
    ofport_numbers_take(&br->ofports, ofport, iface);
    iface->ofport = ofport;
    iface->ofport_requested = requested;
    iface_mark_dirty(iface);
    port_mark_changed(iface->port);
    if (br->ofproto && iface->netdev) {
        int error = ofproto_port_add(br->ofproto, iface->netdev, ofport);
        if (error) {
            free(iface->error);
            iface->error = xasprintf("could not add network device %s to "
                                     "ofproto (%s)", iface->name,
                                     ovs_strerror(error));
            VLOG_WARN("%s", iface->error);
        } else {
            iface->in_ofproto = true;
            iface_attach_protocols(iface);
            const char *lacp = iface->port->cfg->lacp;
            if (lacp && (!strcmp(lacp, "active")
                         || !strcmp(lacp, "passive"))) {
                /* Live once its port's LACP says so. */
                ofproto_port_await_lacp(br->ofproto, ofport);
            }
            /* Announced live only now, with its protocols' say. */
            ofproto_port_changed(br->ofproto, ofport);
        }
    }
}

static void bridge_number_iface(struct bridge *, struct iface *);
static void port_move_fake_iface(struct port *);

/* The interface that holds OpenFlow port number OFPORT, or NULL if none
 * does (a bond's fake interface that held it has moved to another). */
static struct iface *
bridge_ofport_holder(struct bridge *br, int ofport)
{
    void *holder = ofport_numbers_holder(&br->ofports, ofport);
    struct port *port;
    LIST_FOR_EACH (port, fake_node, &br->fake_ports) {
        if (holder == port) {
            port_move_fake_iface(port);
            return NULL;
        }
    }
    return holder;
}

/* Gives IFACE its OpenFlow port number.  A requested number wins over one
 * that was assigned automatically (its holder is renumbered); between two
 * requests for one number, the interface that had it keeps it.  Without a
 * request, the number in the "ofport" column is preferred, so numbers
 * survive a restart of the daemon. */
static void
bridge_number_iface(struct bridge *br, struct iface *iface)
{
    const struct ovsrec_interface *cfg = iface->cfg;

    if (!strcmp(iface->name, br->name)) {
        if (iface->ofport != OFPP_LOCAL) {
            iface->ofport = OFPP_LOCAL;
            iface_mark_dirty(iface);
        }
        return;
    }

    int64_t request = cfg->n_ofport_request ? cfg->ofport_request[0] : 0;
    if (ofport_is_switch_port(request)) {
        if (iface->ofport == request) {
            iface->ofport_requested = true;
            return;
        }
        struct iface *holder = bridge_ofport_holder(br, request);
        if (holder && holder->ofport_requested) {
            VLOG_INFO("bridge %s: interface %s requests OpenFlow port %"PRId64
                      ", which interface %s also requested and keeps",
                      br->name, iface->name, request, holder->name);
        } else {
            if (iface->ofport > 0) {
                bridge_release_ofport(br, iface);
            }
            if (holder) {
                bridge_release_ofport(br, holder);
                bridge_take_ofport(br, iface, request, true);
                bridge_number_iface(br, holder);
                VLOG_INFO("bridge %s: interface %s moved to OpenFlow port %d "
                          "to free port %"PRId64" for %s", br->name,
                          holder->name, holder->ofport, request,
                          iface->name);
            } else {
                bridge_take_ofport(br, iface, request, true);
            }
            return;
        }
    }

    if (iface->ofport > 0) {
        iface->ofport_requested = false;
        return;
    }
    int64_t previous = cfg->n_ofport ? cfg->ofport[0] : 0;
    if (ofport_is_switch_port(previous)
        && !bridge_ofport_holder(br, previous)) {
        bridge_take_ofport(br, iface, previous, false);
        return;
    }
    int ofport = ofport_numbers_next_free(&br->ofports);
    if (ofport < 0) {
        free(iface->error);
        iface->error = xasprintf("bridge %s has no free OpenFlow port "
                                 "number", br->name);
        VLOG_WARN("%s", iface->error);
        iface_mark_dirty(iface);
        return;
    }
    bridge_take_ofport(br, iface, ofport, false);
}

/* Gives the interfaces of BR that request a number they do not have (it
 * was taken when they asked) that number, if its holder does not hold it
 * by request. */
static void
bridge_meet_pending_requests(struct bridge *br)
{
    struct port *port;
    HMAP_FOR_EACH (port, name_node, &br->ports) {
        struct iface *iface;
        LIST_FOR_EACH (iface, port_node, &port->ifaces) {
            const struct ovsrec_interface *cfg = iface->cfg;
            int64_t request = (cfg->n_ofport_request
                               ? cfg->ofport_request[0] : 0);
            if (iface->netdev && ofport_is_switch_port(request)
                && iface->ofport != request) {
                const struct iface *holder
                    = bridge_ofport_holder(br, request);
                if (!holder || !holder->ofport_requested) {
                    bridge_number_iface(br, iface);
                }
            }
        }
    }
}

/* Numbers the N interfaces IFACES, whose configuration changed together.
 * Each one whose ofport_request now names another number first gives up
 * the number it has, and one that no longer requests its number no
 * longer holds it by request, as 3.1 does, so that requests moved around
 * within one change (p1, p2 and p3 going from 1 2 3 to 3 1 2) are all
 * met; a number given up goes to an interface that asked for it before
 * and did not get it. */
static void
bridge_number_changed_ifaces(struct iface **ifaces, size_t n)
{
    /* The bridges where a number was given up, or is no longer held by
     * request (a handful). */
    struct bridge **released = NULL;
    size_t n_released = 0, allocated_released = 0;
    for (size_t i = 0; i < n; i++) {
        struct iface *iface = ifaces[i];
        const struct ovsrec_interface *cfg = iface->cfg;
        int64_t request = cfg->n_ofport_request ? cfg->ofport_request[0] : 0;
        struct bridge *br = iface->port->bridge;
        if (iface->ofport == request || !ofport_is_switch_port(iface->ofport)
            || (!ofport_is_switch_port(request) && !iface->ofport_requested)) {
            continue;
        } else if (!ofport_is_switch_port(request)) {
            /* Its number is now anyone's who asks for it. */
            iface->ofport_requested = false;
        } else {
            bridge_release_ofport(br, iface);
        }
        size_t j = 0;
        while (j < n_released && released[j] != br) {
            j++;
        }
        if (j == n_released) {
            if (n_released >= allocated_released) {
                released = x2nrealloc(released, &allocated_released,
                                      sizeof *released);
            }
            released[n_released++] = br;
        }
    }
    for (size_t i = 0; i < n; i++) {
        bridge_number_iface(ifaces[i]->port->bridge, ifaces[i]);
    }
    for (size_t i = 0; i < n_released; i++) {
        bridge_meet_pending_requests(released[i]);
    }
    free(released);
}

/* Interfaces. */

static void
iface_set_error(struct iface *iface, char *error)
{
    free(iface->error);
    iface->error = error;
    if (error) {
        VLOG_WARN("%s", error);
    }
    iface_mark_dirty(iface);
}

/* Applies the interface's options, MTU and MAC requests to its netdev, if
 * they changed since they were last applied.  Returns false if the
 * interface may not stay a port: a patch port whose options were refused
 * (its peer would be the old one, or none), which, as in 3.1, the caller
 * takes out of its bridge until its options change again.  Any other
 * interface keeps its port number with a bad value (the error column says
 * what is wrong). */
static bool
iface_apply_config(struct iface *iface)
{
    const struct ovsrec_interface *cfg = iface->cfg;
    int64_t mtu_request = cfg->n_mtu_request ? cfg->mtu_request[0] : 0;
    const char *mac = cfg->mac;

    if (!iface->netdev) {
        return true;
    }
    COVERAGE_INC(bridge_iface_visited);
    bool options_changed = !smap_equals(&iface->options, &cfg->options);
    bool mtu_changed = mtu_request != iface->mtu_request;
    bool mac_changed = !(mac ? iface->mac && !strcmp(mac, iface->mac)
                             : !iface->mac);
    if (!options_changed && !mtu_changed && !mac_changed) {
        return true;
    }

    char *error = NULL;
    int retval = netdev_set_config(iface->netdev, &cfg->options, &error);
    bool options_refused = retval != 0 && netdev_is_patch(iface->netdev);
    if (retval) {
        if (!error) {
            error = xasprintf("%s: could not set configuration (%s)",
                              iface->name, ovs_strerror(retval));
        }
    }
    if (!error && mtu_request > 0) {
        retval = netdev_set_mtu(iface->netdev, mtu_request);
        if (retval) {
            error = xasprintf("%s: could not set MTU %"PRId64" (%s)",
                              iface->name, mtu_request,
                              ovs_strerror(retval));
        }
    }
    if (!error && mac) {
        struct eth_addr ea;
        if (!eth_addr_from_string(mac, &ea)) {
            error = xasprintf("%s: \"%s\" is not an Ethernet address",
                              iface->name, mac);
        } else if (eth_addr_is_multicast(ea)) {
            error = xasprintf("%s: cannot set MAC to multicast address %s",
                              iface->name, mac);
        } else if ((retval = netdev_set_etheraddr(iface->netdev, ea))) {
            error = xasprintf("%s: could not set MAC %s (%s)", iface->name,
                              mac, ovs_strerror(retval));
        }
    }

    /* Remember what was asked even when it failed: retrying an unchanged
     * bad value on every database change would only repeat the log. */
    smap_destroy(&iface->options);
    smap_clone(&iface->options, &cfg->options);
    iface->mtu_request = mtu_request;
    free(iface->mac);
    iface->mac = mac ? xstrdup(mac) : NULL;
    iface_set_error(iface, error);
    return !options_refused;
}

/* Per-port protocols (iface-protocol.h). */

static void
iface_attach_protocol(struct iface *iface, struct port_protocol *p)
{
    struct bridge *br = iface->port->bridge;
    int error = ofproto_port_attach_protocol(br->ofproto, iface->ofport, p);
    if (error) {
        VLOG_WARN("bridge %s: could not run %s on interface %s (%s)",
                  br->name, p->class->name, iface->name,
                  ovs_strerror(error));
    }
}

/* IFACE just got its OpenFlow port: its protocols start there. */
static void
iface_attach_protocols(struct iface *iface)
{
    for (size_t i = 0; iface_protocols[i]; i++) {
        if (iface->protocols[i]) {
            iface_attach_protocol(iface, iface->protocols[i]);
        }
    }
}

/* Brings IFACE's protocol instances in line with its row. */
static void
iface_configure_protocols(struct iface *iface)
{
    const struct ovsrec_interface *cfg = iface->cfg;
    struct bridge *br = iface->port->bridge;
    for (size_t i = 0; iface_protocols[i]; i++) {
        const struct iface_protocol_ops *ops = iface_protocols[i];
        struct port_protocol *p = iface->protocols[i];
        bool wanted = iface->netdev && ops->wanted(cfg);
        if (wanted && !p) {
            p = ops->create(cfg, iface->netdev, iface);
            iface->protocols[i] = p;
            if (iface->in_ofproto) {
                iface_attach_protocol(iface, p);
            }
            iface_mark_dirty(iface);
        } else if (wanted) {
            ops->reconfigure(p, cfg);
        } else if (p) {
            if (br->ofproto) {
                ofproto_port_detach_protocol(br->ofproto, p);
            }
            ops->destroy(p);
            iface->protocols[i] = NULL;
            iface_mark_dirty(iface);
        }
    }
}

static void
iface_destroy_protocols(struct iface *iface)
{
    struct bridge *br = iface->port->bridge;
    for (size_t i = 0; iface_protocols[i]; i++) {
        struct port_protocol *p = iface->protocols[i];
        if (p) {
            if (br->ofproto) {
                ofproto_port_detach_protocol(br->ofproto, p);
            }
            iface_protocols[i]->destroy(p);
            iface->protocols[i] = NULL;
        }
    }
}

static void
iface_write_protocols_status(const struct iface *iface)
{
    for (size_t i = 0; iface_protocols[i]; i++) {
        iface_protocols[i]->write_status(iface->protocols[i], iface->cfg);
    }
}

static void
iface_create(struct port *port, const struct ovsrec_interface *cfg)
{
    struct bridge *br = port->bridge;
    struct iface *iface = xzalloc(sizeof *iface);

    iface->port = port;
    iface->name = xstrdup(cfg->name);
    iface->type = xstrdup(cfg->type);
    iface->cfg = cfg;
    iface->ofport = -1;
    smap_init(&iface->options);
    hmap_insert(&all_ifaces, &iface->name_node, hash_string(iface->name, 0));
    ovs_list_push_back(&port->ifaces, &iface->port_node);
    ovs_list_push_back(&failed_ifaces, &iface->failed_node);
    iface_mark_dirty(iface);
    port_mark_changed(port);
    COVERAGE_INC(bridge_iface_visited);

    const char *dp_type = br->cfg->datapath_type;
    if (!dpif_type_is_supported(dp_type)) {
        struct sset types = SSET_INITIALIZER(&types);
        dpif_enumerate_types(&types);
        char *list = sset_join(&types, ", ", "");
        iface_set_error(iface, xasprintf("bridge %s: datapath type %s is "
                                         "not supported (only %s)",
                                         br->name, dp_type, list));
        free(list);
        sset_destroy(&types);
        return;
    }
    if (dpif_port_name_is_reserved(cfg->name)) {
        /* Logged in Open vSwitch's words, which leaves the error column
         * empty; we fill it in too, so that ovs-vsctl says why. */
        iface_set_error(iface, xasprintf("could not create interface %s, "
                                         "name is reserved", cfg->name));
        return;
    }

    /* The interface named after its bridge is the bridge's local port,
     * always the device the bridge created, whatever its type says. */
    const char *type = dpif_port_open_type(
        dp_type, !strcmp(cfg->name, br->name) ? "internal" : cfg->type);
    int error = netdev_open(cfg->name, type, &iface->netdev);
    if (error) {
        iface->netdev = NULL;
        iface_set_error(iface, xasprintf("could not open network device %s "
                                         "(%s)", cfg->name,
                                         ovs_strerror(error)));
        return;
    }
    ovs_list_remove(&iface->failed_node);
    netdev_update_flags(iface->netdev, 0, NETDEV_UP);
    netdev_queue_counters(iface->netdev);   /* Its first statistics. */
    /* Force the first application of the configuration. */
    iface->mtu_request = -1;
    if (!iface_apply_config(iface)) {
        /* Retried, as one that could not be opened, on the next change. */
        netdev_close(iface->netdev);
        iface->netdev = NULL;
        ovs_list_push_back(&failed_ifaces, &iface->failed_node);
        return;
    }
    iface_configure_protocols(iface);
    bridge_number_iface(br, iface);
    if (iface->ofport > 0) {
        VLOG_INFO("bridge %s: added interface %s on port %d",
                  br->name, iface->name, iface->ofport);
    }
}

static void
iface_destroy(struct iface *iface)
{
    struct bridge *br = iface->port->bridge;

    if (iface->ofport > 0) {
        VLOG_INFO("bridge %s: deleted interface %s on port %d",
                  br->name, iface->name, iface->ofport);
    }
    COVERAGE_INC(bridge_iface_visited);
    bridge_release_ofport(br, iface);
    iface_destroy_protocols(iface);
    if (iface->dirty) {
        ovs_list_remove(&iface->dirty_node);
    }
    if (!iface->netdev) {
        ovs_list_remove(&iface->failed_node);
    }
    hmap_remove(&all_ifaces, &iface->name_node);
    ovs_list_remove(&iface->port_node);
    if (iface->netdev) {
        netdev_close(iface->netdev);
    }
    smap_destroy(&iface->options);
    free(iface->mac);
    free(iface->error);
    free(iface->name);
    free(iface->type);
    free(iface);
}

/* Ports and bridges. */

static void port_configure_stp(struct port *);
static void port_configure_rstp(struct port *);
static void port_configure_fake_iface(struct port *);
static int64_t iface_link_speed(const struct iface *);
static void port_write_tree_stats(struct port *);

/* Gives NORMAL the port: its members and VLAN configuration. */
static void
port_configure_bundle(struct port *port)
{
    struct bridge *br = port->bridge;
    const struct ovsrec_port *cfg = port->cfg;
    if (!br->ofproto) {
        return;
    }
    COVERAGE_INC(bridge_port_visited);
    port_configure_fake_iface(port);

    uint16_t *members = xmalloc((ovs_list_size(&port->ifaces) + 1)
                                * sizeof *members);
    size_t n = 0;
    struct iface *iface;
    LIST_FOR_EACH (iface, port_node, &port->ifaces) {
        if (iface->in_ofproto || iface->ofport == OFPP_LOCAL) {
            members[n++] = iface->ofport;
        }
    }
    if (!n) {
        ofproto_bundle_unregister(br->ofproto, port);
        free(members);
        return;
    }

    struct ofproto_bundle_settings s = {
        .name = port->name,
        .members = members,
        .n_members = n,
        .vlan = cfg->n_tag && cfg->tag[0] >= 0 && cfg->tag[0] <= 4095
                ? cfg->tag[0] : -1,
    };
    /* The mode Open vSwitch infers: a tag makes an access port. */
    const char *mode = cfg->vlan_mode;
    if (!mode) {
        s.vlan_mode = s.vlan >= 0 ? PORT_VLAN_ACCESS : PORT_VLAN_TRUNK;
    } else if (!strcmp(mode, "access")) {
        s.vlan_mode = PORT_VLAN_ACCESS;
    } else if (!strcmp(mode, "native-tagged")) {
        s.vlan_mode = PORT_VLAN_NATIVE_TAGGED;
    } else if (!strcmp(mode, "native-untagged")) {
        s.vlan_mode = PORT_VLAN_NATIVE_UNTAGGED;
    } else {
        s.vlan_mode = PORT_VLAN_TRUNK;
    }
    if (s.vlan_mode == PORT_VLAN_ACCESS && s.vlan < 0) {
        s.vlan = 0;
    }
    if (s.vlan_mode != PORT_VLAN_ACCESS && s.vlan_mode != PORT_VLAN_TRUNK
        && s.vlan < 0) {
        s.vlan = 0;
    }
    unsigned long *trunks = NULL;
    if (cfg->n_trunks) {
        trunks = bitmap_allocate(4096);
        for (size_t i = 0; i < cfg->n_trunks; i++) {
            if (cfg->trunks[i] >= 0 && cfg->trunks[i] <= 4095) {
                bitmap_set1(trunks, cfg->trunks[i]);
            }
        }
    }
    s.trunks = trunks;
    struct bond_settings bond;
    if (n > 1) {
        port_bond_settings(cfg, &bond);
        s.bond = &bond;
    }
    /* A bond's members may watch their link by polling it (miimon). */
    long long int miimon = n > 1 ? port_bond_miimon_interval(cfg) : 0;
    LIST_FOR_EACH (iface, port_node, &port->ifaces) {
        if (iface->netdev) {
            netdev_set_miimon_interval(iface->netdev, miimon);
        }
    }
    struct lacp_settings lacp;
    struct lacp_member_settings *lacp_members = NULL;
    void **owners = NULL;
    struct eth_addr bridge_mac = { { 0 } };
    if (br->local_netdev) {
        netdev_get_etheraddr(br->local_netdev, &bridge_mac);
    }
    if (port_lacp_settings(cfg, bridge_mac, n, &lacp)) {
        lacp_members = xcalloc(n, sizeof *lacp_members);
        owners = xcalloc(n, sizeof *owners);
        size_t i = 0;
        LIST_FOR_EACH (iface, port_node, &port->ifaces) {
            if (iface->in_ofproto || iface->ofport == OFPP_LOCAL) {
                struct eth_addr mac = { { 0 } };
                if (iface->netdev) {
                    netdev_get_etheraddr(iface->netdev, &mac);
                }
                port_lacp_member_settings(iface->cfg, iface->ofport, mac,
                                          &lacp_members[i]);
                owners[i++] = iface;
            }
        }
        s.lacp = &lacp;
        s.lacp_members = lacp_members;
        s.member_owners = owners;
    }
    ofproto_bundle_register(br->ofproto, port, &s);
    free(lacp_members);
    free(owners);
    /* Their lacp_current, and the port's spanning tree status, may have
     * come or gone with the port's LACP or its bridge's tree: written
     * again where that may be (a port without either costs nothing). */
    bool stp = (ofproto_has_stp(br->ofproto) || ofproto_has_rstp(br->ofproto)
                || !smap_is_empty(&port->cfg->status)
                || !smap_is_empty(&port->cfg->rstp_status));
    LIST_FOR_EACH (iface, port_node, &port->ifaces) {
        if (s.lacp || iface->cfg->n_lacp_current || stp) {
            iface_mark_dirty(iface);
        }
    }
    port_configure_stp(port);
    port_configure_rstp(port);
    bitmap_free(trunks);
    free(members);
}

static struct port *
port_create(struct bridge *br, const struct ovsrec_port *cfg)
{
    struct port *port = xzalloc(sizeof *port);
    port->bridge = br;
    port->name = xstrdup(cfg->name);
    port->cfg = cfg;
    ovs_list_init(&port->ifaces);
    hmap_insert(&br->ports, &port->name_node, hash_string(port->name, 0));
    port_mark_changed(port);
    COVERAGE_INC(bridge_port_visited);
    return port;
}

static void
port_remove_fake_iface(struct port *port)
{
    struct bridge *br = port->bridge;
    if (port->fake_netdev) {
        ofproto_port_del(br->ofproto, port->fake_ofport);
        ofport_numbers_release(&br->ofports, port->fake_ofport);
        netdev_close(port->fake_netdev);
        port->fake_netdev = NULL;
        ovs_list_remove(&port->fake_node);
    }
}

/* A bond with bond_fake_iface has, as in 3.1, an internal device with the
 * port's name in the switch, for software that expects the bond to be a
 * device; it takes no part in NORMAL (it is no member of any bundle).
 * Adds or removes it as the port's configuration now asks. */
static void
port_configure_fake_iface(struct port *port)
{
    struct bridge *br = port->bridge;
    bool want = (br->ofproto && port->cfg && port->cfg->bond_fake_iface
                 && ovs_list_size(&port->ifaces) >= 2);
    if (want == (port->fake_netdev != NULL)) {
        return;
    }
    if (!want) {
        port_remove_fake_iface(port);
        return;
    }
    int ofport = ofport_numbers_next_free(&br->ofports);
    struct netdev *netdev;
    int error = (ofport < 0 ? EFBIG
                 : netdev_open(port->name,
                               dpif_port_open_type(br->datapath_type,
                                                   "internal"), &netdev));
    if (!error) {
        ofport_numbers_take(&br->ofports, ofport, port);
        error = ofproto_port_add(br->ofproto, netdev, ofport);
        if (error) {
            ofport_numbers_release(&br->ofports, ofport);
            netdev_close(netdev);
        }
    }
    if (error) {
        VLOG_WARN("port %s: could not add its fake bond interface (%s)",
                  port->name, ovs_strerror(error));
        return;
    }
    netdev_update_flags(netdev, 0, NETDEV_UP);
    ofproto_port_changed(br->ofproto, ofport);
    port->fake_netdev = netdev;
    port->fake_ofport = ofport;
    ovs_list_push_back(&br->fake_ports, &port->fake_node);
}

/* Gives PORT's fake interface another OpenFlow port number, so that an
 * interface may have the one it holds. */
static void
port_move_fake_iface(struct port *port)
{
    struct bridge *br = port->bridge;
    int ofport = ofport_numbers_next_free(&br->ofports);
    ofproto_port_del(br->ofproto, port->fake_ofport);
    ofport_numbers_release(&br->ofports, port->fake_ofport);
    if (ofport < 0 || ofproto_port_add(br->ofproto, port->fake_netdev,
                                       ofport)) {
        VLOG_WARN("port %s: could not renumber its fake bond interface",
                  port->name);
        netdev_close(port->fake_netdev);
        port->fake_netdev = NULL;
        ovs_list_remove(&port->fake_node);
        return;
    }
    ofport_numbers_take(&br->ofports, ofport, port);
    ofproto_port_changed(br->ofproto, ofport);
    port->fake_ofport = ofport;
}

static void
port_destroy(struct port *port)
{
    COVERAGE_INC(bridge_port_visited);
    port_remove_fake_iface(port);
    if (port->bridge->ofproto) {
        ofproto_bundle_unregister(port->bridge->ofproto, port);
    }
    struct iface *iface;
    LIST_FOR_EACH_SAFE (iface, port_node, &port->ifaces) {
        iface_destroy(iface);
    }
    if (port->changed) {
        ovs_list_remove(&port->changed_node);
    }
    hmap_remove(&port->bridge->ports, &port->name_node);
    free(port->name);
    free(port);
}

static struct bridge *
bridge_create(const struct ovsrec_bridge *cfg)
{
    struct bridge *br = xzalloc(sizeof *br);
    br->name = xstrdup(cfg->name);
    br->cfg = cfg;
    ovs_list_init(&br->fake_ports);
    br->datapath_type = xstrdup(cfg->datapath_type);
    hmap_init(&br->ports);
    ofport_numbers_init(&br->ofports);
    hmap_insert(&all_bridges, &br->name_node, hash_string(br->name, 0));

    int error = netdev_open(br->name,
                            dpif_port_open_type(cfg->datapath_type,
                                                "internal"),
                            &br->local_netdev);
    if (error) {
        br->local_netdev = NULL;
        VLOG_WARN("bridge %s: could not open local port %s (%s)",
                  br->name, br->name, ovs_strerror(error));
    } else {
        netdev_update_flags(br->local_netdev, 0, NETDEV_UP);
    }

    error = ofproto_create(br->name, cfg->datapath_type, &br->ofproto);
    if (error) {
        VLOG_ERR("bridge %s: could not create the switch (%s)", br->name,
                 ovs_strerror(error));
        br->ofproto = NULL;
    } else {
        if (br->local_netdev) {
            error = ofproto_port_add(br->ofproto, br->local_netdev,
                                     OFPP_LOCAL);
            if (error) {
                VLOG_WARN("bridge %s: could not add local port (%s)",
                          br->name, ovs_strerror(error));
            } else {
                ofproto_port_changed(br->ofproto, OFPP_LOCAL);
            }
        }
        br->connmgr = connmgr_create(br->ofproto, br->name);
        br->controller_status_seqno = UINT64_MAX;
    }
    VLOG_INFO("bridge %s: added", br->name);
    return br;
}

static void
bridge_destroy(struct bridge *br)
{
    struct port *port;
    HMAP_FOR_EACH_SAFE (port, name_node, &br->ports) {
        port_destroy(port);
    }
    connmgr_destroy(br->connmgr);
    ofproto_destroy(br->ofproto);
    if (br->local_netdev) {
        netdev_close(br->local_netdev);
    }
    VLOG_INFO("bridge %s: deleted", br->name);
    hmap_remove(&all_bridges, &br->name_node);
    hmap_destroy(&br->ports);
    ofport_numbers_destroy(&br->ofports);
    free(br->datapath_type);
    free(br->name);
    free(br);
}

/* Settings. */

/* Open_vSwitch other_config. */
static void
configure_global(const struct smap *oc)
{
    ofproto_set_threads(smap_get_uint(oc, "n-handler-threads", 0),
                        smap_get_uint(oc, "n-revalidator-threads", 0));
    ofproto_set_flow_limit(smap_get_uint(oc, "flow-limit", 0));
    ofproto_set_max_idle(smap_get_uint(oc, "max-idle", 0));
    ofproto_set_bundle_idle_timeout(smap_get_uint(oc, "bundle-idle-timeout",
                                                  0));
    stats_update_interval = MAX(smap_get_uint(oc, "stats-update-interval",
                                              5000), 5000);
}

/* The bridge's Ethernet address: other_config:hwaddr if valid, else its
 * local port's. */
static struct eth_addr
bridge_pick_hwaddr(struct bridge *br)
{
    struct eth_addr ea = { { 0 } };
    const char *hwaddr = smap_get(&br->cfg->other_config, "hwaddr");
    if (hwaddr && eth_addr_from_string(hwaddr, &ea)
        && !eth_addr_is_multicast(ea) && !eth_addr_is_zero(ea)) {
        if (br->local_netdev) {
            struct eth_addr cur;
            if (netdev_get_etheraddr(br->local_netdev, &cur)
                || !eth_addr_equals(cur, ea)) {
                netdev_set_etheraddr(br->local_netdev, ea);
            }
        }
        return ea;
    }
    if (br->local_netdev) {
        netdev_get_etheraddr(br->local_netdev, &ea);
    }
    return ea;
}

/* Bridge:controller to the connection manager.  Times in the database
 * are milliseconds; unset ones take Open vSwitch's defaults (a 5 s probe,
 * an 8 s maximum backoff). */
/* Bridge:protocols as a version bitmap; 0 (every supported version) when
 * empty, as Open vSwitch 3.1 reads it. */
static uint32_t
bridge_allowed_versions(const struct bridge *br)
{
    uint32_t versions = 0;
    for (size_t i = 0; i < br->cfg->n_protocols; i++) {
        enum ofp_version v = ofputil_version_from_string(br->cfg->protocols[i]);
        if (v) {
            versions |= 1u << v;
        } else {
            VLOG_WARN("bridge %s: unknown OpenFlow version \"%s\" in "
                      "protocols", br->name, br->cfg->protocols[i]);
        }
    }
    return versions;
}

static void
bridge_configure_controllers(struct bridge *br)
{
    uint32_t versions = bridge_allowed_versions(br);
    connmgr_set_allowed_versions(br->connmgr, versions);
    size_t n = br->cfg->n_controller;
    struct connmgr_controller_settings *cs = xcalloc(MAX(n, 1), sizeof *cs);
    for (size_t i = 0; i < n; i++) {
        const struct ovsrec_controller *c = br->cfg->controller[i];
        cs[i].target = c->target;
        cs[i].type = (!c->type ? CONNMGR_CONTROLLER_DEFAULT
                      : !strcmp(c->type, "service")
                      ? CONNMGR_CONTROLLER_SERVICE
                      : CONNMGR_CONTROLLER_PRIMARY);
        cs[i].probe_interval = (c->n_inactivity_probe
                                ? *c->inactivity_probe / 1000 : 5);
        cs[i].max_backoff = (c->n_max_backoff
                             ? MAX(*c->max_backoff / 1000, 1) : 8);
        cs[i].allowed_versions = versions;
        cs[i].rate_limit = (c->n_controller_rate_limit
                            ? *c->controller_rate_limit : 0);
        cs[i].burst_limit = (c->n_controller_burst_limit
                             ? *c->controller_burst_limit : 0);
    }
    connmgr_set_controllers(br->connmgr, cs, n);
    free(cs);
}

/* Controller:is_connected, role and status, written only when the
 * connection manager says something changed. */
static void
bridge_write_controller_status(struct bridge *br)
{
    uint64_t seqno = connmgr_status_seqno(br->connmgr);
    if (seqno == br->controller_status_seqno) {
        return;
    }
    br->controller_status_seqno = seqno;
    for (size_t i = 0; i < br->cfg->n_controller; i++) {
        const struct ovsrec_controller *c = br->cfg->controller[i];
        struct connmgr_status st;
        if (!connmgr_get_status(br->connmgr, c->target, &st)) {
            continue;
        }
        if (st.passive) {
            if (c->is_connected) {
                ovsrec_controller_set_is_connected(c, false);
            }
            if (c->role) {
                ovsrec_controller_set_role(c, NULL);
            }
            if (!smap_is_empty(&c->status)) {
                ovsrec_controller_set_status(c, NULL);
            }
            continue;
        }
        if (c->is_connected != st.is_connected) {
            ovsrec_controller_set_is_connected(c, st.is_connected);
        }
        if (!c->role || strcmp(c->role, st.role)) {
            ovsrec_controller_set_role(c, st.role);
        }
        struct smap status = SMAP_INITIALIZER(&status);
        smap_add(&status, "state", st.state);
        if (st.last_error) {
            smap_add(&status, "last_error",
                     st.last_error == EOF ? "End of file"
                                          : ovs_strerror(st.last_error));
        }
        if (st.has_packet_in_stats) {
            /* As 3.1 names them. */
            static const char *const names[] = { "miss", "action" };
            for (int j = 0; j < 2; j++) {
                const struct pinsched_stats *ps = j ? &st.action : &st.miss;
                const struct {
                    const char *name;
                    uint64_t value;
                } counters[] = {
                    { "backlog", ps->n_backlog },
                    { "bypassed", ps->n_bypassed },
                    { "dropped", ps->n_dropped },
                    { "queued", ps->n_queued },
                };
                for (size_t k = 0; k < ARRAY_SIZE(counters); k++) {
                    char key[64];
                    snprintf(key, sizeof key, "packet-in-%s-%s", names[j],
                             counters[k].name);
                    smap_add_format(&status, key, "%"PRIu64,
                                    counters[k].value);
                }
            }
        }
        if (!smap_equals(&status, &c->status)) {
            ovsrec_controller_set_status(c, &status);
        }
        smap_destroy(&status);
    }
}

/* The Flow_Table row for TABLE_ID in BR's flow_tables, or NULL. */
static const struct ovsrec_flow_table *
bridge_flow_table_cfg(const struct bridge *br, int table_id)
{
    for (size_t i = 0; i < br->cfg->n_flow_tables; i++) {
        if (br->cfg->key_flow_tables[i] == table_id) {
            return br->cfg->value_flow_tables[i];
        }
    }
    return NULL;
}

/* Applies a Flow_Table row (or its absence: the defaults) to one table,
 * as 3.1 reads it: invalid eviction groups and prefix fields are logged
 * and left out. */
static void
bridge_configure_table(struct bridge *br, int table_id,
                       const struct ovsrec_flow_table *cfg)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
    struct ofproto_table_settings s = {
        .max_flows = UINT_MAX,
        .use_default_prefixes = true,
    };
    struct mf_subfield *groups = NULL;
    enum cls_prefix_field prefixes[CLS_MAX_TRIES];
    if (cfg) {
        s.name = cfg->name;
        if (cfg->n_flow_limit && cfg->flow_limit[0] >= 0) {
            s.max_flows = MIN(cfg->flow_limit[0], UINT_MAX);
        }
        s.enable_eviction = (cfg->overflow_policy
                             && !strcmp(cfg->overflow_policy, "evict"));
        groups = xmalloc(MAX(cfg->n_groups, 1) * sizeof *groups);
        for (size_t i = 0; i < cfg->n_groups; i++) {
            char *error = mf_parse_subfield(&groups[s.n_groups],
                                            cfg->groups[i]);
            if (error) {
                VLOG_WARN_RL(&rl, "bridge %s table %d: ignoring invalid "
                             "eviction group %s (%s)", br->name, table_id,
                             cfg->groups[i], error);
                free(error);
            } else {
                s.n_groups++;
            }
        }
        s.groups = groups;
        if (cfg->n_prefixes) {
            s.use_default_prefixes = false;
            s.prefixes = prefixes;
            for (size_t i = 0; i < cfg->n_prefixes; i++) {
                enum cls_prefix_field field;
                if (!strcmp(cfg->prefixes[i], "none")) {
                    s.n_prefixes = 0;
                    break;
                } else if (!cls_prefix_field_from_name(cfg->prefixes[i],
                                                       &field)) {
                    VLOG_WARN_RL(&rl, "bridge %s table %d: ignoring "
                                 "unsupported prefix field %s", br->name,
                                 table_id, cfg->prefixes[i]);
                } else if (s.n_prefixes < CLS_MAX_TRIES) {
                    prefixes[s.n_prefixes++] = field;
                }
            }
        }
    }
    ofproto_configure_table(br->ofproto, table_id, &s);
    free(groups);
}

static void
bridge_configure_tables(struct bridge *br)
{
    /* Tables 0 to 253 are OpenFlow's. */
    for (int i = 0; i < OFPROTO_N_TABLES - 1; i++) {
        bridge_configure_table(br, i, bridge_flow_table_cfg(br, i));
    }
}

/* The bridge's Ethernet address, or zeros. */
static struct eth_addr
bridge_ea(const struct bridge *br)
{
    struct eth_addr ea = { { 0 } };
    if (br->local_netdev) {
        netdev_get_etheraddr(br->local_netdev, &ea);
    }
    return ea;
}

/* Other_config KEY of BR as an Ethernet address, else the bridge's own
 * (an invalid value logged). */
static struct eth_addr
bridge_ea_setting(const struct bridge *br, const char *key)
{
    const char *s = smap_get(&br->cfg->other_config, key);
    struct eth_addr ea;
    if (s && eth_addr_from_string(s, &ea)) {
        return ea;
    }
    ea = bridge_ea(br);
    if (s) {
        VLOG_ERR("bridge %s: invalid %s, defaulting to "ETH_ADDR_FMT,
                 br->name, key, ETH_ADDR_ARGS(ea));
    }
    return ea;
}

/* Spanning tree on the bridge: Bridge stp_enable with other_config
 * stp-system-id, stp-priority, stp-hello-time, stp-max-age,
 * stp-forward-delay (times in seconds), or rstp_enable with rstp-address,
 * rstp-priority, rstp-ageing-time, rstp-force-protocol-version,
 * rstp-max-age, rstp-forward-delay, rstp-transmit-hold-count.  Both on is
 * RSTP, as in 3.1.  Turning either on or off reconfigures every port
 * once. */
static void
bridge_configure_spanning_tree(struct bridge *br)
{
    bool had_stp = ofproto_has_stp(br->ofproto);
    bool had_rstp = ofproto_has_rstp(br->ofproto);
    bool enable_stp = br->cfg->stp_enable, enable_rstp = br->cfg->rstp_enable;
    const struct smap *oc = &br->cfg->other_config;
    if (enable_stp && enable_rstp) {
        VLOG_WARN("%s: RSTP and STP are mutually exclusive but both are "
                  "configured; enabling RSTP", br->name);
        enable_stp = false;
    }
    /* Off first, so that a port never has both. */
    if (!enable_stp) {
        ofproto_set_stp(br->ofproto, NULL);
    }
    if (!enable_rstp) {
        ofproto_set_rstp(br->ofproto, NULL);
    }
    if (enable_stp) {
        struct stp_bridge_settings s = {
            .system_id = bridge_ea_setting(br, "stp-system-id"),
            .priority = smap_get_int(oc, "stp-priority", 32768),
            .hello_time = smap_get_int(oc, "stp-hello-time", 2) * 1000,
            .max_age = smap_get_int(oc, "stp-max-age", 20) * 1000,
            .forward_delay = smap_get_int(oc, "stp-forward-delay", 15) * 1000,
        };
        ofproto_set_stp(br->ofproto, &s);
    }
    if (enable_rstp) {
        struct rstp_bridge_settings s;
        memset(&s, 0, sizeof s);    /* Compared whole. */
        s.address = bridge_ea_setting(br, "rstp-address");
        s.priority = smap_get_int(oc, "rstp-priority", RSTP_DEFAULT_PRIORITY);
        s.ageing_time = smap_get_int(oc, "rstp-ageing-time",
                                     RSTP_DEFAULT_AGEING_TIME);
        s.force_protocol_version = smap_get_int(
            oc, "rstp-force-protocol-version", RSTP_FORCE_RSTP);
        s.max_age = smap_get_int(oc, "rstp-max-age", RSTP_DEFAULT_MAX_AGE);
        s.forward_delay = smap_get_int(oc, "rstp-forward-delay",
                                       RSTP_DEFAULT_FORWARD_DELAY);
        s.transmit_hold_count = smap_get_int(
            oc, "rstp-transmit-hold-count", RSTP_DEFAULT_TRANSMIT_HOLD_COUNT);
        ofproto_set_rstp(br->ofproto, &s);
    }
    if (had_stp != ofproto_has_stp(br->ofproto)
        || had_rstp != ofproto_has_rstp(br->ofproto)) {
        br->status_dirty = true;
        struct port *port;
        HMAP_FOR_EACH (port, name_node, &br->ports) {
            port_mark_changed(port);
        }
    }
}

/* The interface of PORT that may take part in its bridge's spanning tree,
 * or NULL: a port that is a bond (logged, PROTOCOL naming the tree) or an
 * internal port takes no part. */
static struct iface *
port_tree_iface(const struct port *port, const char *protocol)
{
    if (ovs_list_is_empty(&port->ifaces)) {
        return NULL;
    }
    if (!ovs_list_is_singleton(&port->ifaces)) {
        VLOG_ERR("port %s: cannot enable %s on bonds, disabling",
                 port->name, protocol);
        return NULL;
    }
    struct iface *iface = CONTAINER_OF(ovs_list_front(&port->ifaces),
                                       struct iface, port_node);
    return (iface->type && !strcmp(iface->type, "internal") ? NULL : iface);
}

/* The port's part in its bridge's spanning tree (Port other_config
 * stp-enable, stp-port-num, stp-port-priority, stp-path-cost): one that is
 * not a bond nor an internal port, numbered by stp-port-num or else by
 * its OpenFlow port number, its path cost by its link speed unless set. */
static void
port_configure_stp(struct port *port)
{
    struct bridge *br = port->bridge;
    if (!br->ofproto || !ofproto_has_stp(br->ofproto)
        || ovs_list_is_empty(&port->ifaces)) {
        return;
    }
    const struct smap *oc = &port->cfg->other_config;
    struct iface *iface = (smap_get_bool(oc, "stp-enable", true)
                           ? port_tree_iface(port, "STP") : NULL);
    struct stp_port_settings s = {
        .port_num = smap_get_int(oc, "stp-port-num",
                                 iface ? iface->ofport : 0),
        .priority = smap_get_int(oc, "stp-port-priority", 128),
        /* Unset, from the link's speed (802.1D-1998's table, as 3.1). */
        .path_cost = smap_get_int(
            oc, "stp-path-cost",
            stp_speed_to_path_cost(iface ? iface_link_speed(iface) / 1000000
                                   : 0)),
    };
    if (iface && !smap_get(oc, "stp-port-num")
        && (s.port_num < 1 || s.port_num > 255)) {
        /* 802.1D numbers 255 ports; a bridge with more leaves the others
         * out of its tree, as 3.1 does. */
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
        VLOG_ERR_RL(&rl, "port %s: too many STP ports, disabling",
                    port->name);
        iface = NULL;
    }
    struct iface *each;
    LIST_FOR_EACH (each, port_node, &port->ifaces) {
        if (each->in_ofproto) {
            ofproto_port_set_stp(br->ofproto, each->ofport,
                                 each == iface ? &s : NULL, each);
        }
    }
}

/* The port's part in its bridge's rapid spanning tree (Port other_config
 * rstp-enable, rstp-port-num, rstp-port-priority, rstp-path-cost,
 * rstp-port-admin-edge, rstp-port-auto-edge, rstp-port-mcheck): as for
 * STP, one that is not a bond nor an internal port, numbered by
 * rstp-port-num or else by its OpenFlow port number if that is free and
 * in range, else the lowest free number; its path cost by its link speed
 * unless set. */
static void
port_configure_rstp(struct port *port)
{
    struct bridge *br = port->bridge;
    if (!br->ofproto || !ofproto_has_rstp(br->ofproto)
        || ovs_list_is_empty(&port->ifaces)) {
        return;
    }
    const struct smap *oc = &port->cfg->other_config;
    struct iface *iface = (smap_get_bool(oc, "rstp-enable", true)
                           ? port_tree_iface(port, "RSTP") : NULL);
    struct rstp_port_settings s;
    memset(&s, 0, sizeof s);        /* Compared whole. */
    const char *num = smap_get(oc, "rstp-port-num");
    s.port_num = num ? atoi(num) : 0;
    s.preferred_num = iface ? iface->ofport : 0;
    if (iface && num && (s.port_num < 1
                         || s.port_num > RSTP_MAX_PORT_NUMBER)) {
        VLOG_ERR("port %s: invalid rstp-port-num", port->name);
        iface = NULL;
    }
    s.priority = smap_get_int(oc, "rstp-port-priority",
                              RSTP_DEFAULT_PORT_PRIORITY);
    const char *cost = smap_get(oc, "rstp-path-cost");
    s.path_cost = (cost ? strtoul(cost, NULL, 10)
                   : rstp_path_cost_for_speed(
                       iface ? iface_link_speed(iface) / 1000000 : 0));
    s.admin_edge = smap_get_bool(oc, "rstp-port-admin-edge", false);
    s.auto_edge = smap_get_bool(oc, "rstp-port-auto-edge", true);
    s.mcheck = smap_get_bool(oc, "rstp-port-mcheck", false);
    struct iface *each;
    LIST_FOR_EACH (each, port_node, &port->ifaces) {
        if (each->in_ofproto) {
            ofproto_port_set_rstp(br->ofproto, each->ofport,
                                  each == iface ? &s : NULL, each);
        }
    }
}

static void
bridge_configure(struct bridge *br)
{
    if (!br->ofproto) {
        return;
    }
    /* Before anything else the tables hold: a change empties them. */
    ofproto_set_fail_mode(br->ofproto,
                          br->cfg->fail_mode
                          && !strcmp(br->cfg->fail_mode, "secure")
                          ? OFPROTO_FAIL_SECURE : OFPROTO_FAIL_STANDALONE);
    bridge_configure_controllers(br);
    bridge_configure_tables(br);
    const struct smap *oc = &br->cfg->other_config;
    ofproto_set_mac_table_config(br->ofproto,
                                 smap_get_uint(oc, "mac-aging-time", 300),
                                 smap_get_uint(oc, "mac-table-size", 2048));
    ofproto_set_forward_bpdu(br->ofproto,
                             smap_get_bool(oc, "forward-bpdu", false));

    uint64_t dpid = 0;
    const char *dpid_s = smap_get(oc, "datapath-id");
    if (dpid_s && strlen(dpid_s) == 16
        && strspn(dpid_s, "0123456789abcdefABCDEF") == 16) {
        dpid = strtoull(dpid_s, NULL, 16);
    }
    if (!dpid) {
        struct eth_addr ea = bridge_pick_hwaddr(br);
        for (int i = 0; i < ETH_ADDR_LEN; i++) {
            dpid = (dpid << 8) | ea.ea[i];
        }
    } else {
        bridge_pick_hwaddr(br);
    }
    if (dpid != ofproto_get_datapath_id(br->ofproto)) {
        ofproto_set_datapath_id(br->ofproto, dpid);
        br->status_dirty = true;
    }
    bridge_configure_spanning_tree(br);
}

/* An RSTP bridge identifier as 3.1 writes it: priority (4 bits), system
 * id extension (12 bits), address. */
static void
smap_add_rstp_id(struct smap *smap, const char *key, uint64_t id)
{
    smap_add_format(smap, key, "%01"PRIx8".%03"PRIx16".%012"PRIx64,
                    (uint8_t) (id >> 60), (uint16_t) ((id >> 48) & 0xfff),
                    id & UINT64_C(0xffffffffffff));
}

/* Bridge status: datapath_id and datapath_version. */
static void
bridge_write_status(struct bridge *br)
{
    const struct ovsrec_bridge *cfg = br->cfg;
    if (!br->ofproto) {
        return;
    }
    char dpid[17];
    snprintf(dpid, sizeof dpid, "%016"PRIx64,
             ofproto_get_datapath_id(br->ofproto));
    if (!cfg->datapath_id || strcmp(cfg->datapath_id, dpid)) {
        ovsrec_bridge_set_datapath_id(cfg, dpid);
    }
    const char *version = ofproto_datapath_version();
    if (!cfg->datapath_version || strcmp(cfg->datapath_version, version)) {
        ovsrec_bridge_set_datapath_version(cfg, version);
    }

    /* The spanning tree's keys, as 3.1 writes them. */
    struct smap status = SMAP_INITIALIZER(&status);
    struct stp_bridge_status stp;
    if (ofproto_get_stp_status(br->ofproto, &stp)) {
        smap_add_format(&status, "stp_bridge_id", "%04"PRIx16".%012"PRIx64,
                        (uint16_t) (stp.bridge_id >> 48),
                        stp.bridge_id & UINT64_C(0xffffffffffff));
        smap_add_format(&status, "stp_designated_root",
                        "%04"PRIx16".%012"PRIx64,
                        (uint16_t) (stp.designated_root >> 48),
                        stp.designated_root & UINT64_C(0xffffffffffff));
        smap_add_format(&status, "stp_root_path_cost", "%u",
                        stp.root_path_cost);
    }
    if (!smap_equals(&status, &cfg->status)) {
        ovsrec_bridge_set_status(cfg, &status);
    }
    smap_destroy(&status);

    struct smap rstp_status = SMAP_INITIALIZER(&rstp_status);
    struct rstp_status rstp;
    if (ofproto_get_rstp_status(br->ofproto, &rstp)) {
        smap_add_rstp_id(&rstp_status, "rstp_bridge_id", rstp.bridge_id);
        smap_add_format(&rstp_status, "rstp_root_path_cost", "%"PRIu32,
                        rstp.root_path_cost);
        smap_add_rstp_id(&rstp_status, "rstp_root_id", rstp.root_id);
        smap_add_rstp_id(&rstp_status, "rstp_designated_id",
                         rstp.designated_id);
        smap_add_format(&rstp_status, "rstp_designated_port_id", "%04"PRIx16,
                        rstp.designated_port_id);
        smap_add_format(&rstp_status, "rstp_bridge_port_id", "%04"PRIx16,
                        rstp.bridge_port_id);
    }
    if (!smap_equals(&rstp_status, &cfg->rstp_status)) {
        ovsrec_bridge_set_rstp_status(cfg, &rstp_status);
    }
    smap_destroy(&rstp_status);
}

/* A port's spanning tree status (single-interface ports; 3.1's keys). */
static void
port_write_stp_status(struct port *port)
{
    struct bridge *br = port->bridge;
    port_write_tree_stats(port);
    if (!br->ofproto || !ovs_list_is_singleton(&port->ifaces)) {
        return;
    }
    struct iface *iface = CONTAINER_OF(ovs_list_front(&port->ifaces),
                                       struct iface, port_node);
    struct smap status = SMAP_INITIALIZER(&status);
    struct stp_port_status stp;
    if (iface->in_ofproto
        && ofproto_port_get_stp_status(br->ofproto, iface->ofport, &stp)) {
        smap_add_format(&status, "stp_port_id", "%d", stp.port_id);
        smap_add(&status, "stp_state", stp.state);
        smap_add_format(&status, "stp_sec_in_state", "%lld",
                        (time_msec() - stp.state_since) / 1000);
        smap_add(&status, "stp_role", stp.role);
    }
    if (!smap_equals(&status, &port->cfg->status)) {
        ovsrec_port_set_status(port->cfg, &status);
    }
    smap_destroy(&status);

    struct smap rstp_status = SMAP_INITIALIZER(&rstp_status);
    struct rstp_port_status rstp;
    if (iface->in_ofproto
        && ofproto_port_get_rstp_status(br->ofproto, iface->ofport, &rstp)) {
        smap_add_format(&rstp_status, "rstp_port_id", "%04"PRIx16,
                        rstp.port_id);
        smap_add(&rstp_status, "rstp_port_role",
                 rstp_port_role_name(rstp.role));
        smap_add(&rstp_status, "rstp_port_state", rstp_state_name(rstp.state));
        smap_add_rstp_id(&rstp_status, "rstp_designated_bridge_id",
                         rstp.designated_bridge_id);
        smap_add_format(&rstp_status, "rstp_designated_port_id", "%04"PRIx16,
                        rstp.designated_port_id);
        smap_add_format(&rstp_status, "rstp_designated_path_cost", "%"PRIu32,
                        rstp.designated_path_cost);
    }
    if (!smap_equals(&rstp_status, &port->cfg->rstp_status)) {
        ovsrec_port_set_rstp_status(port->cfg, &rstp_status);
    }
    smap_destroy(&rstp_status);
}

/* Port bond_active_slave of the bonds whose active member changed. */
static void
bridge_write_bond_status(struct bridge *br)
{
    void **ports;
    size_t n = ofproto_take_bond_changes(br->ofproto, &ports);
    for (size_t i = 0; i < n; i++) {
        struct port *port = ports[i];
        struct eth_addr mac = ofproto_bundle_get_active_member_mac(
            br->ofproto, port);
        char s[18];             /* "xx:xx:xx:xx:xx:xx" */
        snprintf(s, sizeof s, ETH_ADDR_FMT, ETH_ADDR_ARGS(mac));
        if (!port->cfg->bond_active_slave
            || strcmp(port->cfg->bond_active_slave, s)) {
            ovsrec_port_set_bond_active_slave(port->cfg, s);
        }
    }
    free(ports);
}

/* Reconciliation. */

/* Where the database puts one interface. */
struct iface_placement {
    const struct ovsrec_bridge *br_cfg;
    const struct ovsrec_port *port_cfg;
    const struct ovsrec_interface *iface_cfg;
};

/* Fills BRIDGES (bridge name -> row), PORTS ("bridge\nport" -> row) and
 * IFACES (interface name -> struct iface_placement, malloc'd) with what
 * the database asks for.  A port listed by two bridges, or an interface by
 * two ports, goes to the first one met; the database allows it, so it is
 * logged rather than refused. */
static void
collect_wanted(const struct ovsrec_open_vswitch *ovs, struct shash *bridges,
               struct shash *ports, struct shash *ifaces)
{
    for (size_t i = 0; i < ovs->n_bridges; i++) {
        const struct ovsrec_bridge *br_cfg = ovs->bridges[i];
        if (!shash_add_once(bridges, br_cfg->name, br_cfg)) {
            continue;
        }
        for (size_t j = 0; j < br_cfg->n_ports; j++) {
            const struct ovsrec_port *port_cfg = br_cfg->ports[j];
            char *key = xasprintf("%s\n%s", br_cfg->name, port_cfg->name);
            bool port_claimed = false;
            for (size_t k = 0; k < port_cfg->n_interfaces; k++) {
                const struct ovsrec_interface *iface_cfg
                    = port_cfg->interfaces[k];
                struct iface_placement *other
                    = shash_find_data(ifaces, iface_cfg->name);
                if (other) {
                    static struct vlog_rate_limit rl
                        = VLOG_RATE_LIMIT_INIT(1, 5);
                    VLOG_WARN_RL(&rl, "interface %s is in port %s of bridge "
                                 "%s and in port %s of bridge %s; ignoring "
                                 "the second", iface_cfg->name,
                                 other->port_cfg->name, other->br_cfg->name,
                                 port_cfg->name, br_cfg->name);
                    continue;
                }
                struct iface_placement *p = xmalloc(sizeof *p);
                *p = (struct iface_placement) { br_cfg, port_cfg, iface_cfg };
                shash_add(ifaces, iface_cfg->name, p);
                port_claimed = true;
            }
            if (port_claimed || !port_cfg->n_interfaces) {
                shash_add_once(ports, key, port_cfg);
            }
            free(key);
        }
    }
}

/* Gives NORMAL the ports that changed in this pass. */
static void
bridge_configure_changed_ports(void)
{
    struct port *port;
    LIST_FOR_EACH_POP (port, changed_node, &changed_ports) {
        port->changed = false;
        port_configure_bundle(port);
    }
}

/* The full reconciliation: compares every bridge, port and interface with
 * the database by name.  Used when the tracked changes cannot be trusted to
 * describe the difference (see bridge_run()). */
static void
bridge_reconfigure_full(const struct ovsrec_open_vswitch *ovs)
{
    struct shash want_bridges = SHASH_INITIALIZER(&want_bridges);
    struct shash want_ports = SHASH_INITIALIZER(&want_ports);
    struct shash want_ifaces = SHASH_INITIALIZER(&want_ifaces);

    COVERAGE_INC(bridge_reconfigure_full);
    if (ovs) {
        collect_wanted(ovs, &want_bridges, &want_ports, &want_ifaces);
    }

    /* Remove first, so that a name that moves (an interface to another
     * port, a port to another bridge) is free when it is added again.  An
     * interface that could not be opened goes too, so that it is retried:
     * the device may have appeared since. */
    struct iface *iface;
    HMAP_FOR_EACH_SAFE (iface, name_node, &all_ifaces) {
        const struct iface_placement *p
            = shash_find_data(&want_ifaces, iface->name);
        COVERAGE_INC(bridge_iface_visited);
        if (!p || !iface->netdev
            || strcmp(p->br_cfg->name, iface->port->bridge->name)
            || strcmp(p->port_cfg->name, iface->port->name)
            || strcmp(p->iface_cfg->type, iface->type)) {
            iface_destroy(iface);
        }
    }
    struct bridge *br;
    HMAP_FOR_EACH_SAFE (br, name_node, &all_bridges) {
        br->cfg = shash_find_data(&want_bridges, br->name);
        if (!br->cfg || strcmp(br->cfg->datapath_type, br->datapath_type)) {
            bridge_destroy(br);
            continue;
        }
        struct port *port;
        HMAP_FOR_EACH_SAFE (port, name_node, &br->ports) {
            char *key = xasprintf("%s\n%s", br->name, port->name);
            port->cfg = shash_find_data(&want_ports, key);
            free(key);
            if (!port->cfg) {
                port_destroy(port);
            } else {
                port_mark_changed(port);
            }
        }
    }

    /* Then add or update. */
    struct shash_node *node;
    SHASH_FOR_EACH (node, &want_bridges) {
        const struct ovsrec_bridge *br_cfg = node->data;
        if (!bridge_lookup(br_cfg->name)) {
            bridge_create(br_cfg);
        }
    }
    SHASH_FOR_EACH (node, &want_ports) {
        const struct ovsrec_port *port_cfg = node->data;
        const char *br_name = node->name;
        size_t br_name_len = strchr(br_name, '\n') - br_name;
        char *name = xmemdup0(br_name, br_name_len);
        br = bridge_lookup(name);
        free(name);
        if (!port_lookup(br, port_cfg->name)) {
            port_create(br, port_cfg);
        }
    }
    /* In name order, so that interfaces added together are numbered
     * predictably (p1 before p2). */
    const struct shash_node **sorted = shash_sort(&want_ifaces);
    struct iface **renumber = xmalloc(shash_count(&want_ifaces)
                                      * sizeof *renumber);
    size_t n_renumber = 0;
    for (size_t i = 0; i < shash_count(&want_ifaces); i++) {
        const struct iface_placement *p = sorted[i]->data;
        br = bridge_lookup(p->br_cfg->name);
        struct port *port = port_lookup(br, p->port_cfg->name);
        iface = iface_lookup(p->iface_cfg->name);
        if (!iface) {
            iface_create(port, p->iface_cfg);
        } else {
            iface->cfg = p->iface_cfg;
            bool applied = iface_apply_config(iface);
            if (applied) {
                iface_configure_protocols(iface);
            }
            if (!applied) {
                iface_destroy(iface);
                iface_create(port, p->iface_cfg);
            } else if (iface->netdev) {
                renumber[n_renumber++] = iface;
            }
        }
    }
    bridge_number_changed_ifaces(renumber, n_renumber);
    free(renumber);

    free(sorted);
    shash_destroy(&want_bridges);
    shash_destroy(&want_ports);
    shash_destroy_free_data(&want_ifaces);

    if (ovs) {
        configure_global(&ovs->other_config);
    }
    HMAP_FOR_EACH (br, name_node, &all_bridges) {
        bridge_configure(br);
    }
    bridge_configure_changed_ports();
}

/* An interface that the current pass will create, in name order. */
struct iface_to_create {
    struct port *port;
    const struct ovsrec_interface *cfg;
};

static void
iface_plan_create(struct shash *to_create, struct port *port,
                  const struct ovsrec_interface *cfg)
{
    if (shash_find(to_create, cfg->name)) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
        VLOG_WARN_RL(&rl, "interface %s is listed by two ports; ignoring "
                     "the one in port %s", cfg->name, port->name);
        return;
    }
    struct iface_to_create *c = xmalloc(sizeof *c);
    *c = (struct iface_to_create) { port, cfg };
    shash_add(to_create, cfg->name, c);
}

/* Brings PORT's interfaces in line with its row: removes those no longer
 * listed, plans the new ones.  Costs the port's interfaces only. */
static void
port_sync_ifaces(struct port *port, struct shash *to_create)
{
    const struct ovsrec_port *cfg = port->cfg;
    struct iface *iface;
    LIST_FOR_EACH_SAFE (iface, port_node, &port->ifaces) {
        bool listed = false;
        for (size_t i = 0; i < cfg->n_interfaces && !listed; i++) {
            listed = cfg->interfaces[i] == iface->cfg;
        }
        if (!listed) {
            iface_destroy(iface);
        }
    }
    for (size_t i = 0; i < cfg->n_interfaces; i++) {
        const struct ovsrec_interface *iface_cfg = cfg->interfaces[i];
        struct iface *have = iface_lookup(iface_cfg->name);
        if (!have || have->port != port) {
            /* If another port holds it, that port may let it go later in
             * this pass: creation waits for the end. */
            iface_plan_create(to_create, port, iface_cfg);
        }
    }
    port_mark_changed(port);
}

/* Brings BR's ports in line with its "ports" column after the column
 * changed, in two steps so that a port that moves between two bridges in
 * one transaction leaves the first before it joins the second.  The column
 * is scanned for membership (a hash lookup per reference, no per-port
 * work); only new ports are built.  Ports whose rows were deleted are gone
 * already (the caller removes them first), so the sweep for the others
 * runs only when the counts show that a port left without its row being
 * deleted (it moved to another bridge). */
static void
bridge_sync_ports_remove(struct bridge *br)
{
    static unsigned int pass;
    const struct ovsrec_bridge *cfg = br->cfg;

    pass++;
    size_t n_found = 0;
    for (size_t i = 0; i < cfg->n_ports; i++) {
        struct port *port = port_lookup(br, cfg->ports[i]->name);
        if (port && port->seen != pass) {
            port->seen = pass;
            n_found++;
        }
    }
    if (n_found != hmap_count(&br->ports)) {
        struct port *port;
        HMAP_FOR_EACH_SAFE (port, name_node, &br->ports) {
            if (port->seen != pass) {
                port_destroy(port);
            }
        }
    }
}

static void
bridge_sync_ports_add(struct bridge *br, struct shash *to_create)
{
    const struct ovsrec_bridge *cfg = br->cfg;
    for (size_t i = 0; i < cfg->n_ports; i++) {
        const struct ovsrec_port *port_cfg = cfg->ports[i];
        struct port *port = port_lookup(br, port_cfg->name);
        if (!port) {
            port = port_create(br, port_cfg);
            port_sync_ifaces(port, to_create);
        } else if (port->cfg != port_cfg) {
            /* A new row under an old name: take the row's interfaces. */
            port->cfg = port_cfg;
            port_sync_ifaces(port, to_create);
        }
    }
}

/* Finds the port whose row is CFG, in whichever bridge holds it. */
static struct port *
port_lookup_by_cfg(const struct ovsrec_port *cfg)
{
    struct bridge *br;
    HMAP_FOR_EACH (br, name_node, &all_bridges) {
        struct port *port = port_lookup(br, cfg->name);
        if (port && port->cfg == cfg) {
            return port;
        }
    }
    return NULL;
}

static struct iface *
iface_lookup_by_cfg(const struct ovsrec_interface *cfg)
{
    struct iface *iface = iface_lookup(cfg->name);
    return iface && iface->cfg == cfg ? iface : NULL;
}

/* Whether the tracked changes include one that the incremental pass does
 * not handle: a renamed row (the schema makes names immutable, but a
 * replica may still show it) or a bridge's datapath type. */
static bool
tracked_changes_need_full_pass(void)
{
    const struct ovsrec_bridge *br_cfg;
    OVSREC_BRIDGE_FOR_EACH_TRACKED (br_cfg, idl) {
        if (!ovsrec_bridge_is_new(br_cfg) && !ovsrec_bridge_is_deleted(br_cfg)
            && (ovsrec_bridge_is_updated(br_cfg, OVSREC_BRIDGE_COL_NAME)
                || ovsrec_bridge_is_updated(br_cfg,
                                            OVSREC_BRIDGE_COL_DATAPATH_TYPE))) {
            return true;
        }
    }
    const struct ovsrec_port *port_cfg;
    OVSREC_PORT_FOR_EACH_TRACKED (port_cfg, idl) {
        if (!ovsrec_port_is_new(port_cfg) && !ovsrec_port_is_deleted(port_cfg)
            && ovsrec_port_is_updated(port_cfg, OVSREC_PORT_COL_NAME)) {
            return true;
        }
    }
    const struct ovsrec_interface *iface_cfg;
    OVSREC_INTERFACE_FOR_EACH_TRACKED (iface_cfg, idl) {
        if (!ovsrec_interface_is_new(iface_cfg)
            && !ovsrec_interface_is_deleted(iface_cfg)
            && ovsrec_interface_is_updated(iface_cfg,
                                           OVSREC_INTERFACE_COL_NAME)) {
            return true;
        }
    }
    return false;
}

/* The incremental reconciliation: visits the rows the IDL tracked as
 * inserted, deleted or changed in a configuration column since the last
 * pass, and the objects they belong to, never the whole configuration.
 * Adding one port to a bridge of 5,000 builds that port; the bridge's
 * "ports" column is only scanned for membership. */
static void
bridge_reconfigure_incremental(const struct ovsrec_open_vswitch *ovs)
{
    struct shash to_create = SHASH_INITIALIZER(&to_create);

    COVERAGE_INC(bridge_reconfigure_incremental);

    /* Deleted rows first, so that names they free can be taken again. */
    const struct ovsrec_interface *iface_cfg;
    OVSREC_INTERFACE_FOR_EACH_TRACKED (iface_cfg, idl) {
        if (ovsrec_interface_is_deleted(iface_cfg)) {
            struct iface *iface = iface_lookup_by_cfg(iface_cfg);
            if (iface) {
                port_mark_changed(iface->port);
                iface_destroy(iface);
            }
        }
    }
    const struct ovsrec_port *port_cfg;
    OVSREC_PORT_FOR_EACH_TRACKED (port_cfg, idl) {
        if (ovsrec_port_is_deleted(port_cfg)) {
            struct port *port = port_lookup_by_cfg(port_cfg);
            if (port) {
                port_destroy(port);
            }
        }
    }

    /* The set of bridges (a handful: compared in full). */
    bool bridges_changed = ovsrec_open_vswitch_is_updated(
        ovs, OVSREC_OPEN_VSWITCH_COL_BRIDGES);
    const struct ovsrec_bridge *br_cfg;
    OVSREC_BRIDGE_FOR_EACH_TRACKED (br_cfg, idl) {
        bridges_changed |= ovsrec_bridge_is_new(br_cfg)
                           || ovsrec_bridge_is_deleted(br_cfg);
    }
    if (bridges_changed) {
        struct bridge *br;
        HMAP_FOR_EACH_SAFE (br, name_node, &all_bridges) {
            bool listed = false;
            for (size_t i = 0; i < ovs->n_bridges && !listed; i++) {
                listed = ovs->bridges[i] == br->cfg;
            }
            if (!listed) {
                bridge_destroy(br);
            }
        }
        for (size_t i = 0; i < ovs->n_bridges; i++) {
            if (!bridge_lookup(ovs->bridges[i]->name)) {
                br = bridge_create(ovs->bridges[i]);
                bridge_sync_ports_add(br, &to_create);
            }
        }
    }

    /* Bridges whose list of ports changed: every removal, then every
     * addition. */
    for (int step = 0; step < 2; step++) {
        OVSREC_BRIDGE_FOR_EACH_TRACKED (br_cfg, idl) {
            if (!ovsrec_bridge_is_deleted(br_cfg)
                && ovsrec_bridge_is_updated(br_cfg,
                                            OVSREC_BRIDGE_COL_PORTS)) {
                struct bridge *br = bridge_lookup(br_cfg->name);
                if (br && br->cfg == br_cfg) {
                    if (step == 0) {
                        bridge_sync_ports_remove(br);
                    } else {
                        bridge_sync_ports_add(br, &to_create);
                    }
                }
            }
        }
    }

    /* Ports changed in place: their interfaces or VLAN settings. */
    OVSREC_PORT_FOR_EACH_TRACKED (port_cfg, idl) {
        if (!ovsrec_port_is_deleted(port_cfg)
            && !ovsrec_port_is_new(port_cfg)) {
            struct port *port = port_lookup_by_cfg(port_cfg);
            if (port) {
                if (ovsrec_port_is_updated(port_cfg,
                                           OVSREC_PORT_COL_INTERFACES)) {
                    port_sync_ifaces(port, &to_create);
                }
                port_mark_changed(port);
            }
        }
    }

    /* Interfaces changed in place.  A new type needs a new device. */
    struct iface **renumber = NULL;
    size_t n_renumber = 0, allocated_renumber = 0;
    OVSREC_INTERFACE_FOR_EACH_TRACKED (iface_cfg, idl) {
        if (ovsrec_interface_is_deleted(iface_cfg)
            || ovsrec_interface_is_new(iface_cfg)) {
            continue;
        }
        struct iface *iface = iface_lookup_by_cfg(iface_cfg);
        if (!iface) {
            continue;
        } else if (strcmp(iface->type, iface_cfg->type)) {
            struct port *port = iface->port;
            iface_destroy(iface);
            iface_plan_create(&to_create, port, iface_cfg);
        } else if (iface->netdev) {
            if (!iface_apply_config(iface)) {
                struct port *port = iface->port;
                iface_destroy(iface);
                iface_plan_create(&to_create, port, iface_cfg);
                continue;
            }
            iface_configure_protocols(iface);
            if (n_renumber >= allocated_renumber) {
                renumber = x2nrealloc(renumber, &allocated_renumber,
                                      sizeof *renumber);
            }
            renumber[n_renumber++] = iface;
        }
    }
    bridge_number_changed_ifaces(renumber, n_renumber);
    free(renumber);

    /* Interfaces whose device could not be opened are tried again: the
     * device may have appeared since. */
    struct ovs_list retry = OVS_LIST_INITIALIZER(&retry);
    ovs_list_splice(&retry, failed_ifaces.next, &failed_ifaces);
    struct iface *iface;
    LIST_FOR_EACH_SAFE (iface, failed_node, &retry) {
        struct port *port = iface->port;
        const struct ovsrec_interface *cfg = iface->cfg;
        iface_destroy(iface);
        iface_plan_create(&to_create, port, cfg);
    }

    /* New interfaces in name order, so that interfaces added together are
     * numbered predictably (p1 before p2). */
    const struct shash_node **sorted = shash_sort(&to_create);
    for (size_t i = 0; i < shash_count(&to_create); i++) {
        const struct iface_to_create *c = sorted[i]->data;
        struct iface *have = iface_lookup(c->cfg->name);
        if (!have) {
            iface_create(c->port, c->cfg);
        } else if (have->port != c->port) {
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
            VLOG_WARN_RL(&rl, "interface %s is in port %s of bridge %s and "
                         "in port %s of bridge %s; ignoring the second",
                         c->cfg->name, have->port->name,
                         have->port->bridge->name, c->port->name,
                         c->port->bridge->name);
        }
    }
    free(sorted);
    shash_destroy_free_data(&to_create);

    configure_global(&ovs->other_config);
    struct bridge *br;
    HMAP_FOR_EACH (br, name_node, &all_bridges) {
        bridge_configure(br);
    }
    bridge_configure_changed_ports();
}

/* Status reporting. */

static void
set_optional_int(const struct ovsrec_interface *cfg,
                 const int64_t *have, size_t n_have, bool valid, int64_t want,
                 void (*setter)(const struct ovsrec_interface *,
                                const int64_t *, size_t))
{
    if (valid ? !(n_have == 1 && have[0] == want) : n_have != 0) {
        setter(cfg, &want, valid ? 1 : 0);
    }
}

static void
set_string(const struct ovsrec_interface *cfg, const char *have,
           const char *want,
           void (*setter)(const struct ovsrec_interface *, const char *))
{
    if (want ? !have || strcmp(have, want) : have != NULL) {
        setter(cfg, want);
    }
}

/* IFACE's link speed in bit/s, or 0 if unknown.  Only system devices have
 * one; the kernel gives it in sysfs (in Mbit/s; an error or -1 while the
 * link is down or the driver does not know). */
static int64_t
iface_link_speed(const struct iface *iface)
{
    if (!iface->netdev || strcmp(netdev_get_type(iface->netdev), "system")
        || strchr(iface->name, '/') || iface->name[0] == '.') {
        return 0;
    }
    char path[64 + IFNAMSIZ];
    snprintf(path, sizeof path, "/sys/class/net/%s/speed", iface->name);
    FILE *file = fopen(path, "r");
    if (!file) {
        return 0;
    }
    long long int mbps;
    if (fscanf(file, "%lld", &mbps) != 1 || mbps <= 0) {
        mbps = 0;
    }
    fclose(file);
    return mbps * 1000000;
}

/* Writes IFACE's state into its row, only the columns whose value differs
 * (the IDL sends nothing for an empty transaction). */
static void
iface_write_status(struct iface *iface)
{
    const struct ovsrec_interface *cfg = iface->cfg;
    struct netdev *netdev = iface->netdev;

    COVERAGE_INC(bridge_iface_status_written);
    iface_write_protocols_status(iface);
    set_optional_int(cfg, cfg->ofport, cfg->n_ofport, true,
                     iface->ofport > 0 ? iface->ofport : -1,
                     ovsrec_interface_set_ofport);
    /* A port may exist and still not work (a patch port whose peer is
     * missing): the switch says why. */
    struct bridge *br = iface->port->bridge;
    char *port_error = (!iface->error && iface->in_ofproto
                        ? ofproto_port_get_error(br->ofproto, iface->ofport)
                        : NULL);
    set_string(cfg, cfg->error, iface->error ? iface->error : port_error,
               ovsrec_interface_set_error);
    free(port_error);

    port_write_stp_status(iface->port);

    /* lacp_current: whether LACP heard from the member's partner lately
     * (empty without LACP). */
    bool lacp_current = false;
    bool has_lacp = (iface->in_ofproto && br->ofproto
                     && ofproto_port_get_lacp_current(br->ofproto,
                                                      iface->ofport,
                                                      &lacp_current));
    if (has_lacp != (cfg->n_lacp_current > 0)
        || (has_lacp && *cfg->lacp_current != lacp_current)) {
        ovsrec_interface_set_lacp_current(cfg, has_lacp ? &lacp_current
                                                        : NULL, has_lacp);
    }

    int mtu = 0;
    bool have_mtu = netdev && !netdev_get_mtu(netdev, &mtu);
    set_optional_int(cfg, cfg->mtu, cfg->n_mtu, have_mtu, mtu,
                     ovsrec_interface_set_mtu);

    int ifindex = netdev ? netdev_get_ifindex(netdev) : 0;
    set_optional_int(cfg, cfg->ifindex, cfg->n_ifindex, netdev != NULL,
                     ifindex > 0 ? ifindex : 0, ovsrec_interface_set_ifindex);

    char mac[32] = "";
    struct eth_addr ea;
    if (netdev && !netdev_get_etheraddr(netdev, &ea)) {
        snprintf(mac, sizeof mac, ETH_ADDR_FMT, ETH_ADDR_ARGS(ea));
    }
    set_string(cfg, cfg->mac_in_use, mac[0] ? mac : NULL,
               ovsrec_interface_set_mac_in_use);

    enum netdev_flags flags = 0;
    bool have_flags = netdev && !netdev_get_flags(netdev, &flags);
    set_string(cfg, cfg->admin_state,
               have_flags ? (flags & NETDEV_UP ? "up" : "down") : NULL,
               ovsrec_interface_set_admin_state);
    bool carrier = netdev && netdev_get_carrier(netdev);
    if (iface->carrier && !carrier) {
        iface->link_resets++;
    }
    iface->carrier = carrier;
    set_string(cfg, cfg->link_state,
               netdev ? (carrier ? "up" : "down") : NULL,
               ovsrec_interface_set_link_state);
    set_optional_int(cfg, cfg->link_resets, cfg->n_link_resets,
                     netdev != NULL, iface->link_resets,
                     ovsrec_interface_set_link_resets);
    int64_t speed = carrier ? iface_link_speed(iface) : 0;
    set_optional_int(cfg, cfg->link_speed, cfg->n_link_speed, speed > 0,
                     speed, ovsrec_interface_set_link_speed);
}

/* The counters of PORT's spanning tree, 3.1's keys in 3.1's columns: a
 * BPDU sent or received moves its interface's counters too, so they are
 * written with those (and when the port's tree state changes); a port
 * that left its tree has its column emptied once. */
static void
port_write_tree_stats(struct port *port)
{
    struct bridge *br = port->bridge;
    struct iface *iface = (ovs_list_is_singleton(&port->ifaces)
                           ? CONTAINER_OF(ovs_list_front(&port->ifaces),
                                          struct iface, port_node)
                           : NULL);
    struct stp_port_status stp;
    struct rstp_port_status rstp;
    const char *column = NULL;
    const char *keys[4];
    int64_t values[4];
    size_t n = 0;
    if (!stats_writer || !br->ofproto || !iface || !iface->in_ofproto) {
        /* Nothing to write. */
    } else if (ofproto_port_get_stp_status(br->ofproto, iface->ofport,
                                           &stp)) {
        column = "statistics";
        keys[n] = "stp_tx_count", values[n++] = stp.tx_bpdus;
        keys[n] = "stp_rx_count", values[n++] = stp.rx_bpdus;
        keys[n] = "stp_error_count", values[n++] = stp.rx_errors;
    } else if (ofproto_port_get_rstp_status(br->ofproto, iface->ofport,
                                            &rstp)) {
        column = "rstp_statistics";
        keys[n] = "rstp_tx_count", values[n++] = rstp.stats.tx_count;
        keys[n] = "rstp_rx_count", values[n++] = rstp.stats.rx_count;
        keys[n] = "rstp_uptime", values[n++] = rstp.stats.uptime;
        keys[n] = "rstp_error_count", values[n++] = rstp.stats.error_count;
    }
    if (port->tree_stats_column && port->tree_stats_column != column) {
        stats_writer_put(stats_writer, "Port", port->tree_stats_column,
                         &port->cfg->header_.uuid, NULL, NULL, 0);
    }
    if (column) {
        stats_writer_put(stats_writer, "Port", column,
                         &port->cfg->header_.uuid, keys, values, n);
    }
    port->tree_stats_column = column;
}

/* Writes IFACE's counters if they moved since the last write. */
static void
iface_write_stats(struct iface *iface)
{
    struct netdev_stats st;
    netdev_get_stats(iface->netdev, &st);
    if (iface->stats_written && !memcmp(&st, &iface->stats, sizeof st)) {
        return;
    }
    COVERAGE_INC(bridge_iface_stats_written);
    iface->stats = st;
    iface->stats_written = true;
    static const char *const names[] = {
        "rx_bytes", "rx_dropped", "rx_errors", "rx_packets",
        "tx_bytes", "tx_dropped", "tx_errors", "tx_packets",
    };
    const uint64_t counts[] = {
        st.rx_bytes, st.rx_dropped, st.rx_errors, st.rx_packets,
        st.tx_bytes, st.tx_dropped, st.tx_errors, st.tx_packets,
    };
    /* The device's own counters join the common ones; unknown ones are
     * left out, as 3.1 does. */
    struct netdev_custom_counter custom[32];
    size_t n_custom = MIN(netdev_get_custom_stats(iface->netdev, custom,
                                                  ARRAY_SIZE(custom)),
                          ARRAY_SIZE(custom));
    const char *keys[ARRAY_SIZE(names) + ARRAY_SIZE(custom)];
    int64_t values[ARRAY_SIZE(keys)];
    size_t n = 0;
    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        if (counts[i] != NETDEV_STAT_UNKNOWN) {
            keys[n] = names[i];
            values[n++] = counts[i];
        }
    }
    for (size_t i = 0; i < n_custom; i++) {
        keys[n] = custom[i].name;
        values[n++] = custom[i].value;
    }
    stats_writer_put(stats_writer, "Interface", "statistics",
                     &iface->cfg->header_.uuid, keys, values, n);
    port_write_tree_stats(iface->port);
}

/* Writes TYPES into one of the Open_vSwitch row's set-of-strings columns
 * (now HAVE, N_HAVE) with SET, unless it already holds exactly them. */
static void
set_types_column(const struct ovsrec_open_vswitch *ovs,
                 const struct sset *types, char **have, size_t n_have,
                 void (*set)(const struct ovsrec_open_vswitch *,
                             const char **, size_t))
{
    struct sset old = SSET_INITIALIZER(&old);
    sset_add_array(&old, have, n_have);
    if (!sset_equals(types, &old)) {
        const char **sorted = sset_sort(types);
        set(ovs, sorted, sset_count(types));
        free(sorted);
    }
    sset_destroy(&old);
}

static void
write_system_status(const struct ovsrec_open_vswitch *ovs)
{
    if (ovs->cur_cfg != ovs->next_cfg) {
        ovsrec_open_vswitch_set_cur_cfg(ovs, ovs->next_cfg);
    }
    if (!system_status_dirty) {
        return;
    }
    system_status_dirty = false;

    const char *version = ovs_version_string();
    if (!ovs->ovs_version || strcmp(ovs->ovs_version, version)) {
        ovsrec_open_vswitch_set_ovs_version(ovs, version);
    }
    const char *db_version = ovsrec_get_db_version();
    if (!ovs->db_version || strcmp(ovs->db_version, db_version)) {
        ovsrec_open_vswitch_set_db_version(ovs, db_version);
    }

    struct sset types = SSET_INITIALIZER(&types);
    dpif_enumerate_types(&types);
    set_types_column(ovs, &types, ovs->datapath_types, ovs->n_datapath_types,
                     ovsrec_open_vswitch_set_datapath_types);
    sset_clear(&types);
    netdev_get_types(&types);
    set_types_column(ovs, &types, ovs->iface_types, ovs->n_iface_types,
                     ovsrec_open_vswitch_set_iface_types);
    sset_destroy(&types);
}

/* Queues the interfaces whose device changed since the last call: the
 * work follows the devices that changed, not how many there are. */
static void
bridge_collect_netdev_changes(void)
{
    last_connectivity_seq = seq_read(connectivity_seq_get());

    struct netdev *netdev;
    while ((netdev = netdev_pop_changed()) != NULL) {
        struct iface *iface = iface_lookup(netdev_get_name(netdev));
        if (iface && iface->netdev == netdev) {
            iface_mark_dirty(iface);
            struct bridge *br = iface->port->bridge;
            if (br->ofproto && iface->ofport > 0) {
                ofproto_port_changed(br->ofproto, iface->ofport);
            }
        }
    }

    /* Protocols that changed: their port's liveness and their status.
     * (An instance is queued only while attached, so its interface is in
     * its bridge's ofproto.) */
    struct port_protocol **changed;
    size_t n = port_protocol_take_changed(&changed);
    for (size_t i = 0; i < n; i++) {
        struct iface *iface = changed[i]->owner;
        struct bridge *br = iface->port->bridge;
        COVERAGE_INC(bridge_protocol_changed);
        iface_mark_dirty(iface);
        br->status_dirty = true;    /* A tree's root may have moved. */
        if (br->ofproto && iface->in_ofproto) {
            ofproto_port_changed(br->ofproto, iface->ofport);
        }
    }
    free(changed);
}

static void
bridge_requeue_all_stats(void)
{
    struct iface *iface;
    HMAP_FOR_EACH (iface, name_node, &all_ifaces) {
        iface->stats_written = false;
        if (iface->netdev) {
            netdev_queue_counters(iface->netdev);
        }
    }
}

static void
bridge_mark_all_dirty(void)
{
    struct iface *iface;
    HMAP_FOR_EACH (iface, name_node, &all_ifaces) {
        iface_mark_dirty(iface);
    }
    bridge_requeue_all_stats();
    struct bridge *br;
    HMAP_FOR_EACH (br, name_node, &all_bridges) {
        br->status_dirty = true;
    }
    system_status_dirty = true;
}

/* Tears everything down while another daemon owns the database. */
static bool
bridge_check_lock(void)
{
    if (ovsdb_idl_is_lock_contended(idl)) {
        if (!lock_contended) {
            lock_contended = true;
            VLOG_ERR("another ovs-vswitchd process is running, disabling "
                     "this process (pid %ld) until it goes away",
                     (long int) getpid());
            struct bridge *br;
            HMAP_FOR_EACH_SAFE (br, name_node, &all_bridges) {
                bridge_destroy(br);
            }
            reconfigured_seqno = 0;
            need_full_reconfigure = true;
        }
        return false;
    }
    if (!ovsdb_idl_has_lock(idl)) {
        return false;
    }
    if (lock_contended) {
        lock_contended = false;
        VLOG_INFO("acquired the database lock, configuring bridges");
        bridge_mark_all_dirty();
    }
    return true;
}

void
bridge_run(void)
{
    struct ovsdb_idl_txn *txn = ovsdb_idl_loop_run(&idl_loop);

    /* A new connection may be to a server that restarted and lost the
     * ephemeral status columns (mtu, admin_state, ...): report everything
     * again, once per connection. */
    bool monitoring = ovsdb_idl_is_monitoring(idl);
    if (monitoring && !was_monitoring) {
        bridge_mark_all_dirty();
        /* The replica may have been rebuilt (new rows for old ones). */
        need_full_reconfigure = true;
    }
    was_monitoring = monitoring;

    configuring = bridge_check_lock() && ovsdb_idl_has_ever_connected(idl);
    if (configuring) {
        const struct ovsrec_open_vswitch *ovs
            = ovsrec_open_vswitch_first(idl);
        unsigned int seqno = ovsdb_idl_get_seqno(idl);

        if (seqno != reconfigured_seqno) {
            reconfigured_seqno = seqno;
            COVERAGE_INC(bridge_reconfigure);
            bool full = (need_full_reconfigure || !ovs
                         || ovsrec_open_vswitch_is_new(ovs)
                         || tracked_changes_need_full_pass());
            if (full) {
                need_full_reconfigure = false;
                bridge_reconfigure_full(ovs);
            } else {
                bridge_reconfigure_incremental(ovs);
            }
            datapath_config_run(idl, ovs, full);
        }
        bridge_collect_netdev_changes();
        /* Deleted rows are freed here: nothing of ours points at them. */
        ovsdb_idl_track_clear(idl);

        if (txn && ovs) {
            write_system_status(ovs);
            struct iface *iface;
            LIST_FOR_EACH_POP (iface, dirty_node, &dirty_ifaces) {
                iface->dirty = false;
                iface_write_status(iface);
            }
            struct bridge *br;
            HMAP_FOR_EACH (br, name_node, &all_bridges) {
                if (br->status_dirty) {
                    br->status_dirty = false;
                    bridge_write_status(br);
                }
                if (br->ofproto) {
                    bridge_write_bond_status(br);
                }
                if (br->connmgr) {
                    bridge_write_controller_status(br);
                }
            }
            unsigned int writer_seqno = stats_writer_get_seqno(stats_writer);
            if (writer_seqno != stats_writer_seqno) {
                /* Its connection is new: what it had in flight may be
                 * lost, so every interface's counters go again. */
                stats_writer_seqno = writer_seqno;
                bridge_requeue_all_stats();
                stats_next_update = time_msec();
            }
            if (time_msec() >= stats_next_update) {
                /* Only the devices whose counters moved: an idle
                 * interface costs nothing here. */
                stats_next_update = time_msec() + stats_update_interval;
                struct netdev *netdev;
                while ((netdev = netdev_pop_moved_counters()) != NULL) {
                    iface = iface_lookup(netdev_get_name(netdev));
                    if (iface && iface->netdev == netdev) {
                        COVERAGE_INC(bridge_stats_checked);
                        iface_write_stats(iface);
                    }
                }
                stats_writer_flush(stats_writer);
            }
        }
    }

    struct bridge *br;
    HMAP_FOR_EACH (br, name_node, &all_bridges) {
        if (br->ofproto) {
            ofproto_run(br->ofproto);
            connmgr_run(br->connmgr);
        }
    }
    ofproto_run_global();

    if (ovsdb_idl_loop_commit_and_wait(&idl_loop) < 0) {
        /* The transaction failed (a row we wrote went away, or the
         * connection dropped): write everything again from the replica. */
        bridge_mark_all_dirty();
        poll_immediate_wake();
    }
}

void
bridge_wait(void)
{
    /* The database connection's wait was registered by bridge_run(), in
     * ovsdb_idl_loop_commit_and_wait(). */
    if (configuring) {
        seq_wait(connectivity_seq_get(), last_connectivity_seq);
        if (!hmap_is_empty(&all_ifaces)) {
            poll_timer_wait_until(stats_next_update);
        }
    }
    struct bridge *br;
    HMAP_FOR_EACH (br, name_node, &all_bridges) {
        if (br->ofproto) {
            ofproto_wait(br->ofproto);
            connmgr_wait(br->connmgr);
            if (connmgr_status_seqno(br->connmgr)
                != br->controller_status_seqno
                && !idl_loop.committing_txn) {
                /* Controller status to write back (while a commit is in
                 * flight, its reply wakes us). */
                poll_immediate_wake();
            }
        }
    }
    ofproto_wait_global();
}
