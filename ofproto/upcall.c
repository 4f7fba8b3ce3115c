/* upcall: see upcall.h. */
#include <config.h>
#include "upcall.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "dp-packet.h"
#include "dpif.h"
#include "dynamic-string.h"
#include "hash.h"
#include "hmap.h"
#include "list.h"
#include "ofproto-private.h"
#include "odp-util.h"
#include "recirc.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "seq.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"
#include "tunnel.h"
#include "xlate.h"

VLOG_DEFINE_THIS_MODULE(ofproto_dpif_upcall);

COVERAGE_DEFINE(upcall_packet_in);
COVERAGE_DEFINE(upcall_bad_userdata);
COVERAGE_DEFINE(upcall_batch);
COVERAGE_DEFINE(upcall_miss);
COVERAGE_DEFINE(upcall_slow_path);
COVERAGE_DEFINE(upcall_flow_installed);
COVERAGE_DEFINE(upcall_flow_limit_hit);
COVERAGE_DEFINE(revalidate_dump);
COVERAGE_DEFINE(revalidate_idle_deleted);
COVERAGE_DEFINE(revalidate_mask_deleted);
COVERAGE_DEFINE(revalidate_modified);

#define REVALIDATE_INTERVAL 500     /* ms between dumps while flows exist. */
#define FULL_DUMP_EVERY 10          /* Dumps. */
#define DEFAULT_FLOW_LIMIT 200000
#define DEFAULT_MAX_IDLE 10000

static atomic_uint flow_limit = DEFAULT_FLOW_LIMIT;
static atomic_uint max_idle = DEFAULT_MAX_IDLE;
static atomic_bool enable_megaflows = true;

struct ukey {
    struct hmap_node hmap_node;     /* In udpif->ukeys. */
    struct flow key;                /* Masked. */
    struct flow_wildcards mask;
    struct dpif_flow_stats stats;   /* As of the last dump that read it. */
    uint64_t dump_seq;              /* Last dump that saw it. */
    /* Made by a handler at install time and not swept yet: the dump that
     * ends before the next sweep may have started before the flow was
     * there. */
    bool fresh;
    /* The recirculation ids the flow's actions and key use, held as long
     * as the flow is known. */
    struct recirc_refs recircs;
    /* For a flow the handler installed with recirculation ids: the key of
     * the packet it translated (owned; NULL for other flows).  Revalidation
     * translates that packet again, as 3.1 does with its ukey's key: the
     * frozen states hold packet fields the megaflow may wildcard (a
     * tunnel's TTL, Geneve options no rule read), so translating the
     * masked key would freeze a different state each time, allocate a new
     * id and rewrite the datapath flow on every revalidation. */
    struct flow *xlate_key;
};

static void
ukey_free(struct ukey *ukey)
{
    recirc_refs_release(&ukey->recircs);
    free(ukey->xlate_key);
    free(ukey);
}

struct handler {
    struct udpif *udpif;
    uint32_t id;
    pthread_t thread;
};

struct revalidator {
    struct udpif *udpif;
    unsigned int index;             /* 0 is the leader. */
    pthread_t thread;
};

struct udpif_waiter {
    struct ovs_list node;
    struct unixctl_conn *conn;
    uint64_t target;                /* n_dumps to reach. */
};

struct udpif {
    struct dpif_backer *backer;
    struct dpif *dpif;

    struct handler *handlers;
    unsigned int n_handlers;
    struct revalidator *revalidators;
    unsigned int n_revalidators;
    pthread_barrier_t barrier;
    atomic_bool exit;
    struct seq *exit_seq;

    /* Revalidation, set by the leader between barriers. */
    struct dpif_flow_dump *dump;
    /* Whether this round ends the threads.  The leader decides before the
     * barrier and every revalidator reads the decision after it: each
     * reading 'exit' for itself could split them, leaving some at the
     * next barrier waiting for ones that left. */
    bool revalidators_exit;
    uint64_t dump_seq_value;        /* Current dump's number. */
    bool need_revalidate;           /* Tables changed since last dump. */
    /* revalidator/purge: requests made (any thread bumps it) and the
     * count the last purging dump served (leader).  'purging' says
     * whether the current dump deletes every flow (leader sets it before
     * the dump; revalidators read it after the barrier).  A purge goes
     * through the dump, so that the flows' last statistics still reach
     * their rules; a request made during a dump waits for the next. */
    _Atomic uint64_t purge_requests;
    uint64_t purges_served;
    uint64_t purge_target;
    bool purging;
    long long int dump_start;
    long long int prev_dump_start;  /* The previous dump's dump_start. */
    /* Whether this dump reads every flow's ukey (and so may sweep the
     * ukeys of flows that are gone): when revalidating, purging, and
     * every FULL_DUMP_EVERY dumps.  Other dumps skip flows that saw no
     * packet since the previous dump. */
    bool full_dump;
    _Atomic uint64_t n_dumps;       /* Completed. */
    struct seq *dump_done_seq;      /* Changes when a dump completes. */
    struct seq *request_seq;        /* Asks the leader for a dump. */
    struct seq *flows_added_seq;    /* Handlers installed flows. */
    atomic_uint n_flows, max_n_flows, avg_n_flows;
    atomic_llong dump_duration;

    struct ovs_mutex ukeys_mutex;
    struct hmap ukeys;

    struct ovs_list waiters;        /* struct udpif_waiter (main thread). */
    uint64_t dump_done_seen;        /* dump_done_seq as of the last
                                     * udpif_run() (main thread). */
};

void
udpif_set_flow_limit(unsigned int limit)
{
    atomic_store(&flow_limit, limit ? limit : DEFAULT_FLOW_LIMIT);
}

unsigned int
udpif_get_flow_limit(void)
{
    return atomic_load(&flow_limit);
}

void
udpif_set_megaflows(bool enable)
{
    atomic_store(&enable_megaflows, enable);
}

void
udpif_set_max_idle(unsigned int ms)
{
    atomic_store(&max_idle, ms ? ms : DEFAULT_MAX_IDLE);
}

/* Ukeys. */

static struct ukey *
ukey_find(struct udpif *udpif, const struct flow *key,
          const struct flow_wildcards *mask, uint32_t hash)
{
    struct ukey *ukey;
    HMAP_FOR_EACH_WITH_HASH (ukey, hmap_node, hash, &udpif->ukeys) {
        if (flow_wildcards_equal(&ukey->mask, mask)
            && flow_equal(&ukey->key, key)) {
            return ukey;
        }
    }
    return NULL;
}

/* The ukey of the flow KEY (masked) under MASK, created if needed.  HASH
 * is dpif_flow_hash(KEY, MASK), which a dump reports with each flow. */
static struct ukey *
ukey_get(struct udpif *udpif, const struct flow *key,
         const struct flow_wildcards *mask, uint32_t hash)
{
    ovs_mutex_lock(&udpif->ukeys_mutex);
    struct ukey *ukey = ukey_find(udpif, key, mask, hash);
    if (!ukey) {
        ukey = xzalloc(sizeof *ukey);
        ukey->key = *key;
        ukey->mask = *mask;
        hmap_insert(&udpif->ukeys, &ukey->hmap_node, hash);
    }
    ovs_mutex_unlock(&udpif->ukeys_mutex);
    return ukey;
}

/* Forgets the ukey of a flow the revalidator deleted. */
static void
ukey_forget(struct udpif *udpif, const struct dpif_flow *f)
{
    ovs_mutex_lock(&udpif->ukeys_mutex);
    struct ukey *ukey = ukey_find(udpif, &f->key, &f->mask, f->hash);
    if (ukey) {
        hmap_remove(&udpif->ukeys, &ukey->hmap_node);
        ukey_free(ukey);
    }
    ovs_mutex_unlock(&udpif->ukeys_mutex);
}

/* A handler installed the flow KEY under MASK whose translation holds
 * references to recirculation ids: its ukey keeps them from now on. */
static void
ukey_install_refs(struct udpif *udpif, const struct flow *key,
                  const struct flow_wildcards *mask,
                  struct recirc_refs *refs)
{
    struct flow masked;
    flow_apply_mask(&masked, key, mask);
    uint32_t hash = dpif_flow_hash(&masked, mask);
    ovs_mutex_lock(&udpif->ukeys_mutex);
    struct ukey *ukey = ukey_find(udpif, &masked, mask, hash);
    if (!ukey) {
        ukey = xzalloc(sizeof *ukey);
        ukey->key = masked;
        ukey->mask = *mask;
        ukey->fresh = true;
        hmap_insert(&udpif->ukeys, &ukey->hmap_node, hash);
    }
    if (!ukey->xlate_key) {
        ukey->xlate_key = xmemdup(key, sizeof *key);
    }
    recirc_refs_move(&ukey->recircs, refs);
    ovs_mutex_unlock(&udpif->ukeys_mutex);
}

/* Handlers. */

/* What a handler keeps per upcall of a batch. */
struct upcall {
    struct xlate_out xout;
    struct flow_wildcards mask;     /* Of the flow installed. */
    struct ofpbuf install_actions;  /* Of the flow installed. */
    struct dp_packet_batch batch;
    struct dpif_op put, execute;
    bool install;
};

/* Translates the packet of DU, with its side effects: MAC learning, and
 * statistics (CREDIT_STATS: a miss's first packet, which no datapath flow
 * counted). */
static void
translate_upcall(struct udpif *udpif, const struct dpif_upcall *du,
                 struct upcall *u, bool credit_stats)
{
    xlate_out_init(&u->xout);
    const struct ofport *ofport = backer_flow_to_ofport(udpif->backer,
                                                        du->key);
    if (ofport) {
        struct xlate_in xin = {
            .ofproto = ofport->ofproto,
            .flow = *du->key,
            .packet = &du->packet,
            .may_learn = true,
            .n_packets = credit_stats,
            .n_bytes = credit_stats ? dp_packet_size(&du->packet) : 0,
            .used = time_msec(),
        };
        xin.flow.in_port = ofport->ofp_port;
        xlate_actions(&xin, &u->xout);
        xlate_wc_to_datapath(&xin, &u->xout.wc);
    }
    /* Bridges share the datapath: a megaflow always names its port.  A
     * tunnel's datapath port is shared by many tunnels: the megaflow also
     * names the outer header that chose (or found no) tunnel port, so a
     * drop for an unknown tunnel does not swallow the known ones. */
    tnl_wc_init(du->key, &u->xout.wc);
    WC_MASK_FIELD(&u->xout.wc, in_port);
    WC_MASK_FIELD(&u->xout.wc, recirc_id);
}

/* The megaflow a flow for KEY installs: what translation looked at, and
 * what a datapath key implies (odp_flow_mask_for_datapath()); or, with
 * megaflows disabled, every field of the packet. */
static void
install_mask(const struct flow *key, const struct xlate_out *xout,
             struct flow_wildcards *mask)
{
    if (atomic_load(&enable_megaflows)) {
        *mask = xout->wc;
        odp_flow_mask_for_datapath(key, mask);
    } else {
        odp_flow_wildcards_for_packet(key, mask);
    }
}

/* A controller cookie's upcall: the packet-in translation asked for, as
 * the frozen state it names says (recirc.h).  xlate_rwlock held for
 * reading. */
static void
handle_packet_in(const struct dpif_upcall *du, const struct odp_cookie *c)
{
    struct frozen_packet_in state;
    if (c->controller.dont_send) {
        return;
    }
    if (!xlate_frozen_packet_in(c->controller.recirc_id, &state)) {
        COVERAGE_INC(upcall_bad_userdata);
        return;
    }
    COVERAGE_INC(upcall_packet_in);
    if (state.conntracked) {
        /* The connection's fields as the datapath tracked the packet, and
         * the type that says which of its addresses they are. */
        struct flow *md = &state.metadata;
        const struct flow *key = du->key;
        md->ct_state = key->ct_state;
        md->ct_zone = key->ct_zone;
        md->ct_mark = key->ct_mark;
        memcpy(md->ct_label, key->ct_label, sizeof md->ct_label);
        md->ct_nw_proto = key->ct_nw_proto;
        md->ct_nw_src = key->ct_nw_src;
        md->ct_nw_dst = key->ct_nw_dst;
        md->ct_ipv6_src = key->ct_ipv6_src;
        md->ct_ipv6_dst = key->ct_ipv6_dst;
        md->ct_tp_src = key->ct_tp_src;
        md->ct_tp_dst = key->ct_tp_dst;
        md->dl_type = key->dl_type;
    }
    ofproto_queue_packet_in(state.ofproto, dp_packet_data(&du->packet),
                            dp_packet_size(&du->packet), c, &state);
    free(state.userdata);
}

/* What the handler does with DU, translated into U (xlate_rwlock held for
 * reading): a miss or a slow-pathed flow's packet is translated (the
 * latter is counted by its datapath flow, so it credits no statistics),
 * a controller cookie's packet becomes a packet-in. */
static void
process_upcall(struct udpif *udpif, const struct dpif_upcall *du,
               struct upcall *u)
{
    if (du->type == DPIF_UC_MISS) {
        translate_upcall(udpif, du, u, true);
        return;
    }
    struct odp_cookie cookie;
    if (du->userdata
        && odp_cookie_from_userdata(du->userdata, du->userdata_len,
                                    &cookie)) {
        if (cookie.type == ODP_COOKIE_SLOW_PATH) {
            COVERAGE_INC(upcall_slow_path);
            translate_upcall(udpif, du, u, false);
            return;
        }
        handle_packet_in(du, &cookie);
    } else {
        COVERAGE_INC(upcall_bad_userdata);
    }
    xlate_out_init(&u->xout);
}

static void
handle_batch(struct udpif *udpif, struct dpif_upcall *dus, size_t n)
{
    struct upcall *upcalls = xmalloc(n * sizeof *upcalls);
    struct dpif_op *ops[2 * DPIF_RECV_MAX];
    size_t n_ops = 0;

    COVERAGE_INC(upcall_batch);
    unsigned int limit = atomic_load(&flow_limit);

    ovs_rwlock_rdlock(&xlate_rwlock);
    for (size_t i = 0; i < n; i++) {
        process_upcall(udpif, &dus[i], &upcalls[i]);
    }
    ovs_rwlock_unlock(&xlate_rwlock);

    for (size_t i = 0; i < n; i++) {
        struct upcall *u = &upcalls[i];
        const struct dpif_upcall *du = &dus[i];
        const struct nlattr *actions = u->xout.odp_actions.data;
        size_t actions_len = u->xout.odp_actions.size;

        /* Each install counts at once, so concurrent handlers and a big
         * batch stay within the limit; the revalidators set the count
         * back to the datapath's after each dump. */
        u->install = false;
        ofpbuf_init(&u->install_actions, 0);
        if (du->type == DPIF_UC_MISS) {
            if (atomic_fetch_add(&udpif->n_flows, 1) < limit) {
                u->install = true;
            } else {
                atomic_fetch_sub(&udpif->n_flows, 1);
                COVERAGE_INC(upcall_flow_limit_hit);
            }
        }
        if (u->install) {
            COVERAGE_INC(upcall_miss);
            install_mask(du->key, &u->xout, &u->mask);
            xlate_install_actions(&u->xout, &u->install_actions);
            u->put = (struct dpif_op) {
                .type = DPIF_OP_FLOW_PUT,
                .put = {
                    .flags = DPIF_FP_CREATE,
                    .key = du->key,
                    .mask = &u->mask,
                    .actions = u->install_actions.data,
                    .actions_len = u->install_actions.size,
                },
            };
            ops[n_ops++] = &u->put;
        }
        if (actions_len) {
            dp_packet_batch_init_packet(&u->batch,
                                        (struct dp_packet *) &du->packet);
            u->execute = (struct dpif_op) {
                .type = DPIF_OP_EXECUTE,
                .execute = {
                    .batch = &u->batch,
                    .actions = actions,
                    .actions_len = actions_len,
                },
            };
            ops[n_ops++] = &u->execute;
        }
    }
    dpif_operate(udpif->dpif, ops, n_ops);

    bool installed = false;
    for (size_t i = 0; i < n; i++) {
        struct upcall *u = &upcalls[i];
        if (u->install && !u->put.error) {
            /* Most flows get their ukey when a revalidator first finds
             * them with packets, from zero statistics, which is what a new
             * flow has (the packet executed here was credited by the
             * translation).  Most new flows of a flood never see a second
             * packet, so this keeps their setup cheap.  A flow that
             * recirculates gets its ukey now, to hold its ids. */
            if (u->xout.recircs.n) {
                ukey_install_refs(udpif, dus[i].key, &u->mask,
                                  &u->xout.recircs);
            }
            COVERAGE_INC(upcall_flow_installed);
            installed = true;
        } else if (u->install) {
            atomic_fetch_sub(&udpif->n_flows, 1);
        }
        /* A push may have moved a packet off its ring slot. */
        dp_packet_uninit((struct dp_packet *) &dus[i].packet);
        ofpbuf_uninit(&u->install_actions);
        xlate_out_uninit(&u->xout);
    }
    free(upcalls);
    if (installed) {
        seq_change(udpif->flows_added_seq);
    }
}

static void *
handler_main(void *h_)
{
    struct handler *h = h_;
    struct udpif *udpif = h->udpif;
    struct dpif_upcall dus[DPIF_RECV_MAX];

    for (;;) {
        uint64_t exit_seq = seq_read(udpif->exit_seq);
        if (atomic_load(&udpif->exit)) {
            break;
        }
        size_t n = dpif_recv(udpif->dpif, h->id, dus, DPIF_RECV_MAX);
        if (n) {
            handle_batch(udpif, dus, n);
            dpif_recv_release(udpif->dpif, h->id);
            ovsrcu_quiesce();
        } else {
            dpif_recv_wait(udpif->dpif, h->id);
            seq_wait(udpif->exit_seq, exit_seq);
            ovsrcu_quiesce_start();
            poll_block();
            ovsrcu_quiesce_end();
        }
    }
    ovsrcu_quiesce_start();
    return NULL;
}

/* Revalidators. */

enum reval_result { KEEP, MODIFY, DELETE };

/* Whether F is to go: a purge, idle for max-idle, or over the flow limit
 * and idle for 100 ms. */
static bool
flow_is_expired(struct udpif *udpif, const struct dpif_flow *f,
                long long int now, unsigned int n_flows)
{
    long long int idle = now - (f->stats.used ? f->stats.used : f->created);
    return (udpif->purging || idle >= atomic_load(&max_idle)
            || (n_flows > atomic_load(&flow_limit) && idle >= 100));
}

static enum reval_result
revalidate_flow(struct udpif *udpif, const struct dpif_flow *f,
                struct ukey *ukey, long long int now, bool need_revalidate,
                unsigned int n_flows, struct ofpbuf *new_actions)
{
    bool expired = flow_is_expired(udpif, f, now, n_flows);
    uint64_t delta_packets = f->stats.n_packets >= ukey->stats.n_packets
                             ? f->stats.n_packets - ukey->stats.n_packets
                             : f->stats.n_packets;
    uint64_t delta_bytes = f->stats.n_bytes >= ukey->stats.n_bytes
                           ? f->stats.n_bytes - ukey->stats.n_bytes
                           : f->stats.n_bytes;
    if (expired) {
        COVERAGE_INC(revalidate_idle_deleted);
        if (!delta_packets) {
            return DELETE;
        }
        /* What it carried since the last dump still goes to its rules
         * (and bonds' loads) before it goes. */
        need_revalidate = false;
    } else if (!delta_packets && !need_revalidate) {
        return KEEP;
    }

    const struct ofport *ofport = backer_flow_to_ofport(udpif->backer,
                                                        &f->key);
    struct xlate_out xout;
    xlate_out_init(&xout);
    if (ofport) {
        /* (A handler may give the ukey its key meanwhile.) */
        ovs_mutex_lock(&udpif->ukeys_mutex);
        struct flow flow = ukey->xlate_key ? *ukey->xlate_key : f->key;
        ovs_mutex_unlock(&udpif->ukeys_mutex);
        struct xlate_in xin = {
            .ofproto = ofport->ofproto,
            .flow = flow,
            .may_learn = delta_packets > 0,
            .n_packets = delta_packets,
            .n_bytes = delta_bytes,
            .used = f->stats.used,
        };
        xin.flow.in_port = ofport->ofp_port;
        xlate_actions(&xin, &xout);
        xlate_wc_to_datapath(&xin, &xout.wc);
    }
    tnl_wc_init(&f->key, &xout.wc);     /* As translate_upcall(). */
    WC_MASK_FIELD(&xout.wc, in_port);
    WC_MASK_FIELD(&xout.wc, recirc_id);
    /* The flow now uses the ids of this translation. */
    ovs_mutex_lock(&udpif->ukeys_mutex);
    recirc_refs_move(&ukey->recircs, &xout.recircs);
    ovs_mutex_unlock(&udpif->ukeys_mutex);

    enum reval_result result = expired ? DELETE : KEEP;
    if (need_revalidate) {
        struct ofpbuf actions;
        ofpbuf_init(&actions, 0);
        xlate_install_actions(&xout, &actions);
        if (flow_wildcards_has_extra(&xout.wc, &f->mask)) {
            COVERAGE_INC(revalidate_mask_deleted);
            result = DELETE;
        } else if (actions.size != f->actions_len
                   || (f->actions_len
                       && memcmp(actions.data, f->actions,
                                 f->actions_len))) {
            /* (A drop flow has no actions, and maybe no buffer.) */
            COVERAGE_INC(revalidate_modified);
            if (actions.size) {
                ofpbuf_put(new_actions, actions.data, actions.size);
            }
            result = MODIFY;
        }
        ofpbuf_uninit(&actions);
    }
    xlate_out_uninit(&xout);
    return result;
}

#define DUMP_BATCH 50

static void
revalidate(struct revalidator *r)
{
    struct udpif *udpif = r->udpif;
    struct dpif_flow_dump_thread *thread
        = dpif_flow_dump_thread_create(udpif->dump);
    struct dpif_flow flows[DUMP_BATCH];
    unsigned int n_flows = atomic_load(&udpif->n_flows);
    int n;

    while ((n = dpif_flow_dump_next(thread, flows, DUMP_BATCH)) > 0) {
        long long int now = time_msec();
        enum reval_result results[DUMP_BATCH];
        struct ofpbuf new_actions[DUMP_BATCH];

        ovs_rwlock_rdlock(&xlate_rwlock);
        for (int i = 0; i < n; i++) {
            const struct dpif_flow *f = &flows[i];
            ofpbuf_init(&new_actions[i], 0);
            if (f->terse) {
                results[i] = KEEP;
                continue;
            }
            if (!udpif->full_dump
                && f->stats.used < udpif->prev_dump_start) {
                /* No packet since the previous dump read this flow, so its
                 * statistics are what its ukey holds and nothing asks for
                 * a fresh translation: only its age matters, and the ukey
                 * need not be looked up at all.  (This keeps a dump of
                 * many quiet flows cheap.) */
                results[i] = (flow_is_expired(udpif, f, now, n_flows)
                              ? DELETE : KEEP);
                continue;
            }
            struct ukey *ukey = ukey_get(udpif, &f->key, &f->mask, f->hash);
            results[i] = revalidate_flow(udpif, f, ukey, now,
                                         udpif->need_revalidate, n_flows,
                                         &new_actions[i]);
            ukey->stats = f->stats;
            ukey->dump_seq = udpif->dump_seq_value;
        }
        ovs_rwlock_unlock(&xlate_rwlock);

        for (int i = 0; i < n; i++) {
            const struct dpif_flow *f = &flows[i];
            if (results[i] == DELETE) {
                dpif_flow_del(udpif->dpif, &f->key, &f->mask, NULL);
                ukey_forget(udpif, f);
            } else if (results[i] == MODIFY) {
                dpif_flow_put(udpif->dpif, DPIF_FP_MODIFY, &f->key,
                              &f->mask, new_actions[i].data,
                              new_actions[i].size, NULL);
            }
            ofpbuf_uninit(&new_actions[i]);
        }
        ovsrcu_quiesce();
    }
    dpif_flow_dump_thread_destroy(thread);
}

/* The leader, between dumps: forgets the ukeys of flows that are gone. */
static void
sweep_ukeys(struct udpif *udpif)
{
    ovs_mutex_lock(&udpif->ukeys_mutex);
    struct ukey *ukey;
    HMAP_FOR_EACH_SAFE (ukey, hmap_node, &udpif->ukeys) {
        if (ukey->fresh) {
            ukey->fresh = false;
        } else if (ukey->dump_seq != udpif->dump_seq_value) {
            hmap_remove(&udpif->ukeys, &ukey->hmap_node);
            ukey_free(ukey);
        }
    }
    ovs_mutex_unlock(&udpif->ukeys_mutex);
}

static void
barrier_wait(struct udpif *udpif)
{
    ovsrcu_quiesce_start();
    pthread_barrier_wait(&udpif->barrier);
    ovsrcu_quiesce_end();
}

static void *
revalidator_main(void *r_)
{
    struct revalidator *r = r_;
    struct udpif *udpif = r->udpif;
    bool leader = r->index == 0;
    uint64_t reval_seen = 0, request_seen = 0;

    if (leader) {
        reval_seen = seq_read(udpif->backer->reval_seq);
        request_seen = seq_read(udpif->request_seq);
    }
    for (;;) {
        if (leader) {
            /* Decide when to dump: sleep until something asks for it. */
            for (;;) {
                uint64_t exit_seq = seq_read(udpif->exit_seq);
                if (atomic_load(&udpif->exit)) {
                    break;
                }
                uint64_t reval = seq_read(udpif->backer->reval_seq);
                uint64_t added = seq_read(udpif->flows_added_seq);
                uint64_t request = seq_read(udpif->request_seq);
                long long int now = time_msec();
                bool have_flows = atomic_load(&udpif->n_flows) > 0;
                /* New flows alone do not call for a dump: they only arm
                 * the periodic one.  Dumping on every installation would
                 * make a flood of new flows cost a dump of every flow per
                 * handler batch. */
                if (reval != reval_seen || request != request_seen
                    || atomic_load(&udpif->purge_requests)
                       != udpif->purges_served
                    || (have_flows
                        && now >= udpif->dump_start + REVALIDATE_INTERVAL)) {
                    udpif->need_revalidate = reval != reval_seen;
                    reval_seen = reval;
                    request_seen = request;
                    break;
                }
                seq_wait(udpif->exit_seq, exit_seq);
                seq_wait(udpif->backer->reval_seq, reval);
                seq_wait(udpif->request_seq, request);
                if (have_flows) {
                    poll_timer_wait_until(udpif->dump_start
                                          + REVALIDATE_INTERVAL);
                } else {
                    /* Wake for the first flows, to start the timer. */
                    seq_wait(udpif->flows_added_seq, added);
                }
                ovsrcu_quiesce_start();
                poll_block();
                ovsrcu_quiesce_end();
            }
            udpif->revalidators_exit = atomic_load(&udpif->exit);
            if (!udpif->revalidators_exit) {
                COVERAGE_INC(revalidate_dump);
                udpif->prev_dump_start = udpif->dump_start;
                udpif->dump_start = time_msec();
                udpif->dump_seq_value++;
                udpif->purge_target = atomic_load(&udpif->purge_requests);
                udpif->purging = udpif->purge_target != udpif->purges_served;
                udpif->full_dump = (udpif->need_revalidate
                                    || udpif->purging
                                    || !(udpif->dump_seq_value
                                         % FULL_DUMP_EVERY));
                struct dpif_dp_stats stats;
                if (!dpif_get_dp_stats(udpif->dpif, &stats)) {
                    atomic_store(&udpif->n_flows, stats.n_flows);
                }
                udpif->dump = dpif_flow_dump_create(udpif->dpif);
                if (!udpif->full_dump) {
                    /* Flows quiet since the previous dump that are not
                     * about to expire are kept without a look: the
                     * datapath need not copy them out whole. */
                    long long int idle_limit
                        = (atomic_load(&udpif->n_flows)
                           > atomic_load(&flow_limit)
                           ? 100 : atomic_load(&max_idle));
                    dpif_flow_dump_set_terse(
                        udpif->dump, udpif->dump_start - idle_limit,
                        udpif->prev_dump_start);
                }
            }
        }

        barrier_wait(udpif);
        if (udpif->revalidators_exit) {
            break;
        }
        revalidate(r);
        barrier_wait(udpif);

        if (leader) {
            dpif_flow_dump_destroy(udpif->dump);
            udpif->dump = NULL;
            if (udpif->full_dump) {
                sweep_ukeys(udpif);
            }
            if (udpif->purging) {
                udpif->purges_served = udpif->purge_target;
                udpif->purging = false;
            }
            long long int duration = time_msec() - udpif->dump_start;
            atomic_store(&udpif->dump_duration, duration);
            struct dpif_dp_stats stats;
            if (!dpif_get_dp_stats(udpif->dpif, &stats)) {
                unsigned int nf = stats.n_flows;
                atomic_store(&udpif->n_flows, nf);
                if (nf > atomic_load(&udpif->max_n_flows)) {
                    atomic_store(&udpif->max_n_flows, nf);
                }
                unsigned int avg = atomic_load(&udpif->avg_n_flows);
                atomic_store(&udpif->avg_n_flows, (avg + nf) / 2);
            }
            atomic_fetch_add(&udpif->n_dumps, 1);
            seq_change(udpif->dump_done_seq);
        }
    }
    ovsrcu_quiesce_start();
    return NULL;
}

/* Threads. */

static void
udpif_stop_threads(struct udpif *udpif)
{
    if (!udpif->n_handlers && !udpif->n_revalidators) {
        return;
    }
    atomic_store(&udpif->exit, true);
    seq_change(udpif->exit_seq);
    for (unsigned int i = 0; i < udpif->n_handlers; i++) {
        xpthread_join(udpif->handlers[i].thread, NULL);
    }
    for (unsigned int i = 0; i < udpif->n_revalidators; i++) {
        xpthread_join(udpif->revalidators[i].thread, NULL);
    }
    if (udpif->n_revalidators) {
        pthread_barrier_destroy(&udpif->barrier);
    }
    dpif_handlers_set(udpif->dpif, 0);
    free(udpif->handlers);
    free(udpif->revalidators);
    udpif->handlers = NULL;
    udpif->revalidators = NULL;
    udpif->n_handlers = udpif->n_revalidators = 0;
    atomic_store(&udpif->exit, false);
}

void
udpif_set_threads(struct udpif *udpif, unsigned int n_handlers,
                  unsigned int n_revalidators)
{
    if (n_handlers == udpif->n_handlers
        && n_revalidators == udpif->n_revalidators) {
        return;
    }
    udpif_stop_threads(udpif);
    if (!n_handlers || !n_revalidators) {
        return;
    }
    int error = dpif_handlers_set(udpif->dpif, n_handlers);
    if (error) {
        VLOG_ERR("%s: could not set %u handlers (%s)",
                 dpif_name(udpif->dpif), n_handlers, ovs_strerror(error));
        return;
    }
    udpif->n_handlers = n_handlers;
    udpif->handlers = xcalloc(n_handlers, sizeof *udpif->handlers);
    for (unsigned int i = 0; i < n_handlers; i++) {
        struct handler *h = &udpif->handlers[i];
        h->udpif = udpif;
        h->id = i;
        h->thread = ovs_thread_create("handler", handler_main, h);
    }
    udpif->n_revalidators = n_revalidators;
    udpif->revalidators = xcalloc(n_revalidators,
                                  sizeof *udpif->revalidators);
    pthread_barrier_init(&udpif->barrier, NULL, n_revalidators);
    for (unsigned int i = 0; i < n_revalidators; i++) {
        struct revalidator *r = &udpif->revalidators[i];
        r->udpif = udpif;
        r->index = i;
        r->thread = ovs_thread_create("revalidator", revalidator_main, r);
    }
}

struct udpif *
udpif_create(struct dpif_backer *backer)
{
    struct udpif *udpif = xzalloc(sizeof *udpif);
    udpif->backer = backer;
    udpif->dpif = backer->dpif;
    atomic_init(&udpif->exit, false);
    atomic_init(&udpif->purge_requests, 0);
    atomic_init(&udpif->n_dumps, 0);
    atomic_init(&udpif->n_flows, 0);
    atomic_init(&udpif->max_n_flows, 0);
    atomic_init(&udpif->avg_n_flows, 0);
    atomic_init(&udpif->dump_duration, 0);
    udpif->exit_seq = seq_create();
    udpif->dump_done_seq = seq_create();
    udpif->request_seq = seq_create();
    udpif->flows_added_seq = seq_create();
    ovs_mutex_init(&udpif->ukeys_mutex);
    hmap_init(&udpif->ukeys);
    ovs_list_init(&udpif->waiters);
    return udpif;
}

void
udpif_destroy(struct udpif *udpif)
{
    if (!udpif) {
        return;
    }
    udpif_stop_threads(udpif);
    struct udpif_waiter *w;
    LIST_FOR_EACH_POP (w, node, &udpif->waiters) {
        unixctl_command_reply_error(w->conn, "datapath is going away");
        free(w);
    }
    struct ukey *ukey;
    HMAP_FOR_EACH_SAFE (ukey, hmap_node, &udpif->ukeys) {
        hmap_remove(&udpif->ukeys, &ukey->hmap_node);
        ukey_free(ukey);
    }
    hmap_destroy(&udpif->ukeys);
    ovs_mutex_destroy(&udpif->ukeys_mutex);
    seq_destroy(udpif->exit_seq);
    seq_destroy(udpif->dump_done_seq);
    seq_destroy(udpif->request_seq);
    seq_destroy(udpif->flows_added_seq);
    free(udpif);
}

void
udpif_run(struct udpif *udpif)
{
    /* Read before the count, so that a dump that ends after the count was
     * taken still wakes the main loop: re-reading the seq in udpif_wait()
     * could miss it, and then nothing would ask for another dump. */
    udpif->dump_done_seen = seq_read(udpif->dump_done_seq);
    uint64_t n_dumps = atomic_load(&udpif->n_dumps);
    struct udpif_waiter *w;
    LIST_FOR_EACH_SAFE (w, node, &udpif->waiters) {
        if (n_dumps >= w->target) {
            ovs_list_remove(&w->node);
            unixctl_command_reply(w->conn, NULL);
            free(w);
        }
    }
    if (!ovs_list_is_empty(&udpif->waiters)) {
        /* Keep the leader going until the waiters are served. */
        seq_change(udpif->request_seq);
    }
}

void
udpif_wait(struct udpif *udpif)
{
    if (!ovs_list_is_empty(&udpif->waiters)) {
        seq_wait(udpif->dump_done_seq, udpif->dump_done_seen);
        if (atomic_load(&udpif->n_dumps)
            >= CONTAINER_OF(ovs_list_front(&udpif->waiters),
                            struct udpif_waiter, node)->target) {
            poll_immediate_wake();
        }
    }
}

void
udpif_wait_for_revalidation(struct udpif *udpif, struct unixctl_conn *conn)
{
    if (!udpif->n_revalidators) {
        unixctl_command_reply(conn, NULL);
        return;
    }
    struct udpif_waiter *w = xmalloc(sizeof *w);
    w->conn = conn;
    /* A dump in progress may have started before the call. */
    w->target = atomic_load(&udpif->n_dumps) + 2;
    ovs_list_push_back(&udpif->waiters, &w->node);
    seq_change(udpif->request_seq);
}

void
udpif_purge(struct udpif *udpif, struct unixctl_conn *conn)
{
    if (!udpif->n_revalidators) {
        dpif_flow_flush(udpif->dpif);
        atomic_store(&udpif->n_flows, 0);
        if (conn) {
            unixctl_command_reply(conn, NULL);
        }
        return;
    }
    atomic_fetch_add(&udpif->purge_requests, 1);
    if (conn) {
        /* The dump that starts next serves the request. */
        udpif_wait_for_revalidation(udpif, conn);
    } else {
        seq_change(udpif->request_seq);
    }
}

size_t
udpif_n_ukeys(struct udpif *udpif)
{
    ovs_mutex_lock(&udpif->ukeys_mutex);
    size_t n = hmap_count(&udpif->ukeys);
    ovs_mutex_unlock(&udpif->ukeys_mutex);
    return n;
}

unsigned int
udpif_n_handlers(const struct udpif *udpif)
{
    return udpif->n_handlers;
}

unsigned int
udpif_n_revalidators(const struct udpif *udpif)
{
    return udpif->n_revalidators;
}

void
udpif_format(struct udpif *udpif, struct ds *s)
{
    struct dpif_dp_stats stats;
    unsigned int n_flows = atomic_load(&udpif->n_flows);
    if (!dpif_get_dp_stats(udpif->dpif, &stats)) {
        n_flows = stats.n_flows;
    }
    ds_put_format(s, "%s:\n", dpif_base_name(udpif->dpif));
    ds_put_format(s, "  flows         : (current %u) (avg %u) (max %u) "
                  "(limit %u)\n", n_flows, atomic_load(&udpif->avg_n_flows),
                  atomic_load(&udpif->max_n_flows),
                  atomic_load(&flow_limit));
    ds_put_format(s, "  dump duration : %lldms\n",
                  (long long int) atomic_load(&udpif->dump_duration));
    ds_put_format(s, "  ufid enabled : false\n");
    ds_put_char(s, '\n');
    size_t n_ukeys = udpif_n_ukeys(udpif);
    for (unsigned int i = 0; i < udpif->n_revalidators; i++) {
        /* Keys are shared by all revalidators: the first reports them. */
        ds_put_format(s, "  %u: (keys %zu)\n", i,
                      i ? (size_t) 0 : n_ukeys);
    }
}
