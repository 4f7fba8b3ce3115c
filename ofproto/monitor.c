/* monitor: see monitor.h. */
#include <config.h>
#include "monitor.h"

#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include "coverage.h"
#include "dp-packet.h"
#include "dpif.h"
#include "ofproto-private.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "port-protocol.h"
#include "seq.h"
#include "timeval.h"
#include "tun-metadata.h"
#include "util.h"
#include "vlog.h"

/* 3.1's module name, which operators and its tests know. */
VLOG_DEFINE_THIS_MODULE(ofproto_dpif_monitor);

COVERAGE_DEFINE(monitor_wakeup);
COVERAGE_DEFINE(monitor_sent);
/* Control packets the datapath offered that the sink handed back because
 * the translation lock was not free at once (they went up as upcalls). */
COVERAGE_DEFINE(monitor_sink_busy);

/* How many instances run per hold of the translation lock. */
#define MONITOR_BATCH 64

static pthread_t monitor_thread;
static bool monitor_started;
/* Instances attached to ports (main thread): the thread runs while there
 * is one, as 3.1's does. */
static size_t n_attached;
static _Atomic bool monitor_exiting;
static struct seq *monitor_exit_seq;

/* Runs P, which is due, and sends what it composed (read lock held). */
static void
monitor_run_one(struct port_protocol *p, long long int now)
{
    struct ofport *port = p->port;
    struct dp_packet_batch out;
    dp_packet_batch_init(&out);
    long long int next = p->class->run(p, now, port->pp.hw_addr, &out);

    struct dp_packet *packet;
    DP_PACKET_BATCH_FOR_EACH (i, packet, &out) {
        int error = ofport_send_packet(port, packet);
        if (error) {
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
            VLOG_WARN_RL(&rl, "%s: sending %s packet failed (%s)",
                         port->name, p->class->name, ovs_strerror(error));
        }
        COVERAGE_INC(monitor_sent);
        dp_packet_delete(packet);
    }
    port_protocol_put_back(p, next);
}

static void *
monitor_main(void *arg OVS_UNUSED)
{
    struct seq *sched_seq = port_protocol_schedule_seq();
    VLOG_INFO("monitor thread created");
    while (!atomic_load(&monitor_exiting)) {
        uint64_t exit_seen = seq_read(monitor_exit_seq);
        uint64_t sched_seen = seq_read(sched_seq);
        COVERAGE_INC(monitor_wakeup);

        long long int now = time_msec();
        struct port_protocol *due[MONITOR_BATCH];
        for (;;) {
            ovs_rwlock_rdlock(&xlate_rwlock);
            size_t n = port_protocol_take_due(now, due, MONITOR_BATCH);
            for (size_t i = 0; i < n; i++) {
                monitor_run_one(due[i], now);
            }
            ovs_rwlock_unlock(&xlate_rwlock);
            if (n < MONITOR_BATCH) {
                break;
            }
        }

        long long int next = port_protocol_next_deadline();
        if (next != LLONG_MAX) {
            poll_timer_wait_until(next);
        }
        seq_wait(sched_seq, sched_seen);
        seq_wait(monitor_exit_seq, exit_seen);
        ovsrcu_quiesce_start();
        poll_block();
        ovsrcu_quiesce_end();
    }
    VLOG_INFO("monitor thread terminated");
    ovsrcu_quiesce_start();
    return NULL;
}

static void
monitor_start(void)
{
    if (!monitor_started) {
        monitor_started = true;
        monitor_exit_seq = seq_create();
        atomic_store(&monitor_exiting, false);
        monitor_thread = ovs_thread_create("monitor", monitor_main, NULL);
        /* Under a simulated clock, each step of a warp waits for the
         * monitor to have run what the step made due. */
        timeval_add_warp_gate(port_protocol_settled);
    }
}

void
ofproto_monitor_exit(void)
{
    if (monitor_started) {
        atomic_store(&monitor_exiting, true);
        seq_change(monitor_exit_seq);
        xpthread_join(monitor_thread, NULL);
        seq_destroy(monitor_exit_seq);
        monitor_exit_seq = NULL;
        monitor_started = false;
    }
}

int
ofproto_port_attach_protocol(struct ofproto *ofproto, uint16_t ofp_port,
                             struct port_protocol *p)
{
    struct ofport *port = ofproto_get_port(ofproto, ofp_port);
    if (!port) {
        return ENOENT;
    }
    if (port->n_protocols >= OFPORT_MAX_PROTOCOLS) {
        return ENOSPC;
    }
    monitor_start();
    ovs_rwlock_wrlock(&xlate_rwlock);
    port->protocols[port->n_protocols++] = p;
    port_protocol_attach(p, port);
    n_attached++;
    ovs_rwlock_unlock(&xlate_rwlock);
    /* Its packets are its own from now on, and the port's liveness
     * counts it. */
    seq_change(ofproto->backer->reval_seq);
    ofproto_port_changed(ofproto, ofp_port);
    return 0;
}

void
ofproto_port_detach_protocol(struct ofproto *ofproto,
                             struct port_protocol *p)
{
    struct ofport *port = p->port;
    if (!port || port->ofproto != ofproto) {
        return;
    }
    ovs_rwlock_wrlock(&xlate_rwlock);
    for (size_t i = 0; i < port->n_protocols; i++) {
        if (port->protocols[i] == p) {
            port->protocols[i] = port->protocols[--port->n_protocols];
            break;
        }
    }
    port_protocol_detach(p);
    n_attached--;
    ovs_rwlock_unlock(&xlate_rwlock);
    ofproto_monitor_stop_if_idle();
    seq_change(ofproto->backer->reval_seq);
    ofproto_port_changed(ofproto, port->ofp_port);
}

void
ofport_detach_protocol_locked(struct ofport *port, struct port_protocol *p)
{
    for (size_t i = 0; i < port->n_protocols; i++) {
        if (port->protocols[i] == p) {
            port->protocols[i] = port->protocols[--port->n_protocols];
            n_attached--;
            break;
        }
    }
    port_protocol_detach(p);
}

void
ofport_detach_protocols(struct ofport *port)
{
    for (size_t i = 0; i < port->n_protocols; i++) {
        port_protocol_detach(port->protocols[i]);
    }
    n_attached -= port->n_protocols;
    port->n_protocols = 0;
}

void
ofproto_monitor_stop_if_idle(void)
{
    if (!n_attached) {
        ofproto_monitor_exit();
    }
}

/* The control-packet sink (dpif.h) of BACKER_'s datapath: runs on the
 * thread executing the datapath flow, so it never waits for the
 * translation lock.  Does what translation's port-protocol step does
 * (xlate.c), for the protocols the flow was slow-pathed for, without an
 * upcall. */
static bool
monitor_control_sink(const struct dp_packet *packet, const struct flow *key,
                     uint32_t slow_reasons, void *backer_)
{
    const struct dpif_backer *backer = backer_;

    if (key->recirc_id) {
        /* Translation thaws a frozen state for these first. */
        return false;
    }
    if (ovs_rwlock_tryrdlock(&xlate_rwlock)) {
        COVERAGE_INC(monitor_sink_busy);
        return false;
    }
    bool consumed = false;
    struct ofport *port = backer_flow_to_ofport(backer, key);
    if (port && port->n_protocols) {
        /* The packet as translation sees it: its OpenFlow port, and Geneve
         * options laid out by the bridge's TLV map. */
        struct flow flow = *key;
        flow.in_port = port->ofp_port;
        if (!tun_md_from_geneve_udpif(&port->ofproto->tun_table, &flow)) {
            for (size_t i = 0; i < port->n_protocols; i++) {
                struct port_protocol *p = port->protocols[i];
                if (p->class->slow_reason & slow_reasons
                    && p->class->recognizes(p, &flow, NULL)) {
                    p->class->receive(p, &flow, packet);
                    consumed = true;
                    break;
                }
            }
        }
    }
    ovs_rwlock_unlock(&xlate_rwlock);
    return consumed;
}

void
ofproto_monitor_add_backer(struct dpif_backer *backer)
{
    dpif_set_control_sink(backer->dpif, monitor_control_sink, backer);
}

void
ofproto_monitor_remove_backer(struct dpif_backer *backer)
{
    dpif_set_control_sink(backer->dpif, NULL, NULL);
}
