/* ofproto: see ofproto.h for the model, ofproto-private.h for the thread
 * rules.  The comments here say why. */
#include <config.h>
#include "ofproto.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "bitmap.h"
#include "coverage.h"
#include "dp-packet.h"
#include "dpif.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "hash.h"
#include "mac-learning.h"
#include "netdev.h"
#include "ofproto-private.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "seq.h"
#include "shash.h"
#include "timeval.h"
#include "upcall.h"
#include "util.h"
#include "vlog.h"
#include "xlate.h"

VLOG_DEFINE_THIS_MODULE(ofproto);

COVERAGE_DEFINE(ofproto_flow_mod);
COVERAGE_DEFINE(ofproto_rule_expired);
COVERAGE_DEFINE(ofproto_port_changed);

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

static const char *
backer_dp_name(const char *type)
{
    return !strcmp(type, "netdev") ? "ovs-netdev" : type;
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
    const char *name = backer_dp_name(type);
    int error = dpif_create(name, type, &dpif);
    if (error == EEXIST) {
        error = dpif_open(name, type, &dpif);
    }
    if (error) {
        VLOG_ERR("could not create datapath %s of type %s (%s)", name, type,
                 ovs_strerror(error));
        *errorp = error;
        return NULL;
    }
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

/* Rules. */

static struct rule_actions *
rule_actions_create(const struct ofpact *ofpacts, size_t n)
{
    struct rule_actions *a = xmalloc(sizeof *a + n * sizeof *ofpacts);
    a->n = n;
    if (n) {
        memcpy(a->ofpacts, ofpacts, n * sizeof *ofpacts);
    }
    return a;
}

void
rule_credit_stats(struct rule *rule, uint64_t n_packets, uint64_t n_bytes,
                  long long int used)
{
    atomic_fetch_add_explicit(&rule->n_packets, n_packets,
                              memory_order_relaxed);
    atomic_fetch_add_explicit(&rule->n_bytes, n_bytes, memory_order_relaxed);
    long long int old = atomic_load_explicit(&rule->used,
                                             memory_order_relaxed);
    while (used > old
           && !atomic_compare_exchange_weak_explicit(
               &rule->used, &old, used, memory_order_relaxed,
               memory_order_relaxed)) {
        continue;
    }
}

static void
rule_free(struct rule *rule)
{
    cls_rule_destroy(&rule->cr);
    free((void *) ovsrcu_get_protected(&rule->actions));
    free(rule);
}

/* Second step of removal, a grace period after the rule became invisible:
 * no lookup at a version that sees it can still be running. */
static void
rule_remove_cb(struct rule *rule)
{
    classifier_remove(&rule->ofproto->tables[rule->table_id].cls, &rule->cr);
    ovsrcu_postpone(rule_free, rule);
}

static struct rule *
rule_create(struct ofproto *ofproto, const struct ofproto_flow_mod *fm,
            uint8_t table_id)
{
    struct rule *rule = xzalloc(sizeof *rule);
    cls_rule_init(&rule->cr, &fm->match, &fm->wc, fm->priority);
    rule->ofproto = ofproto;
    rule->table_id = table_id;
    rule->cookie = fm->cookie;
    rule->idle_timeout = fm->idle_timeout;
    rule->hard_timeout = fm->hard_timeout;
    rule->flags = fm->flags;
    rule->created = rule->modified = time_msec();
    atomic_init(&rule->n_packets, 0);
    atomic_init(&rule->n_bytes, 0);
    atomic_init(&rule->used, 0);
    ovsrcu_set_hidden(&rule->actions,
                      rule_actions_create(fm->ofpacts, fm->n_ofpacts));
    return rule;
}

static void
rule_schedule_expiry(struct ofproto *ofproto, struct rule *rule)
{
    if (rule->idle_timeout || rule->hard_timeout) {
        ovs_list_push_back(&ofproto->expirable, &rule->expirable_node);
        ofproto->next_expiry = LLONG_MIN;   /* Recompute. */
    } else {
        ovs_list_init(&rule->expirable_node);
    }
}

/* Makes RULE invisible from VERSION on and queues its removal. */
static void
rule_delete(struct ofproto *ofproto, struct rule *rule, ovs_version_t version)
{
    cls_rule_make_invisible_in_version(&rule->cr, version);
    rule->removed = true;
    if (rule->idle_timeout || rule->hard_timeout) {
        ovs_list_remove(&rule->expirable_node);
    }
    ofproto->n_rules--;
    ovsrcu_postpone(rule_remove_cb, rule);
}

static void
publish_version(struct ofproto *ofproto, ovs_version_t version)
{
    for (int i = 0; i < OFPROTO_N_TABLES; i++) {
        classifier_publish(&ofproto->tables[i].cls);
    }
    atomic_store_explicit(&ofproto->tables_version, version,
                          memory_order_release);
    backer_tables_changed(ofproto->backer);
}

void
ofproto_flow_mod_init(struct ofproto_flow_mod *fm)
{
    memset(fm, 0, sizeof *fm);
    fm->command = OFPROTO_FM_ADD;
    flow_wildcards_init_catchall(&fm->wc);
    fm->priority = 32768;
    fm->out_port = OFPP_NONE;
}

static bool
rule_selected(const struct rule *rule, const struct ofproto_flow_mod *fm)
{
    if ((rule->cookie ^ fm->cookie) & fm->cookie_mask) {
        return false;
    }
    if (fm->out_port != OFPP_NONE) {
        const struct rule_actions *a = ovsrcu_get(&rule->actions);
        if (!ofpacts_output_to_port(a->ofpacts, a->n, fm->out_port)) {
            return false;
        }
    }
    return true;
}

/* Rules of table TABLE_ID selected by FM (strict or loose), visible at
 * VERSION, into *RULES. */
static void
collect_rules(struct ofproto *ofproto, const struct ofproto_flow_mod *fm,
              const struct cls_rule *target, bool strict,
              ovs_version_t version, struct rule ***rules, size_t *n,
              size_t *allocated)
{
    int first = fm->table_id == 255 ? 0 : fm->table_id;
    int last = fm->table_id == 255 ? OFPROTO_N_TABLES - 1 : fm->table_id;
    for (int t = first; t <= last; t++) {
        const struct cls_rule *cr;
        CLS_FOR_EACH_TARGET (cr, &ofproto->tables[t].cls, target,
                             strict ? CLS_ITER_STRICT : CLS_ITER_LOOSE,
                             version) {
            struct rule *rule = CONTAINER_OF(cr, struct rule, cr);
            if (!rule->removed && rule_selected(rule, fm)) {
                if (*n >= *allocated) {
                    *rules = x2nrealloc(*rules, allocated, sizeof **rules);
                }
                (*rules)[(*n)++] = rule;
            }
        }
    }
}

static int
add_rule(struct ofproto *ofproto, const struct ofproto_flow_mod *fm,
         ovs_version_t version)
{
    if (fm->table_id >= OFPROTO_N_TABLES) {
        return EINVAL;
    }
    struct classifier *cls = &ofproto->tables[fm->table_id].cls;
    struct rule *rule = rule_create(ofproto, fm, fm->table_id);

    if (fm->flags & OFPROTO_FF_CHECK_OVERLAP
        && classifier_rule_overlaps(cls, &rule->cr, version - 1)) {
        rule_free(rule);
        return EEXIST;
    }
    const struct cls_rule *old_cr = classifier_find_rule_exactly(
        cls, &rule->cr, version - 1);
    if (old_cr) {
        struct rule *old = CONTAINER_OF(old_cr, struct rule, cr);
        /* A replaced rule keeps its counters unless asked otherwise. */
        if (!(fm->flags & OFPROTO_FF_RESET_COUNTS)) {
            atomic_store(&rule->n_packets, atomic_load(&old->n_packets));
            atomic_store(&rule->n_bytes, atomic_load(&old->n_bytes));
            atomic_store(&rule->used, atomic_load(&old->used));
            rule->created = old->created;
        }
        rule_delete(ofproto, old, version);
    }
    classifier_insert(cls, &rule->cr, version);
    ofproto->n_rules++;
    rule_schedule_expiry(ofproto, rule);
    return 0;
}

static void
modify_rules(struct ofproto *ofproto, struct rule **rules, size_t n,
             const struct ofproto_flow_mod *fm)
{
    long long int now = time_msec();
    for (size_t i = 0; i < n; i++) {
        struct rule *rule = rules[i];
        const struct rule_actions *old = ovsrcu_get_protected(&rule->actions);
        ovsrcu_set(&rule->actions,
                   rule_actions_create(fm->ofpacts, fm->n_ofpacts));
        ovsrcu_postpone(free, (void *) old);
        rule->modified = now;
        if (fm->flags & OFPROTO_FF_RESET_COUNTS) {
            atomic_store(&rule->n_packets, 0);
            atomic_store(&rule->n_bytes, 0);
        }
    }
}

int
ofproto_flow_mod(struct ofproto *ofproto, const struct ofproto_flow_mod *fm)
{
    COVERAGE_INC(ofproto_flow_mod);
    if (fm->table_id == 255 && fm->command == OFPROTO_FM_ADD) {
        return EINVAL;
    }
    if (fm->priority < 0 || fm->priority > UINT16_MAX) {
        return EINVAL;
    }

    ovs_version_t version = ofproto_tables_version(ofproto) + 1;
    for (int i = 0; i < OFPROTO_N_TABLES; i++) {
        classifier_defer(&ofproto->tables[i].cls);
    }

    int error = 0;
    if (fm->command == OFPROTO_FM_ADD) {
        error = add_rule(ofproto, fm, version);
    } else {
        struct cls_rule target;
        cls_rule_init(&target, &fm->match, &fm->wc, fm->priority);
        bool strict = (fm->command == OFPROTO_FM_MODIFY_STRICT
                       || fm->command == OFPROTO_FM_DELETE_STRICT);
        struct rule **rules = NULL;
        size_t n = 0, allocated = 0;
        collect_rules(ofproto, fm, &target, strict, version - 1, &rules, &n,
                      &allocated);
        cls_rule_destroy(&target);

        if (fm->command == OFPROTO_FM_DELETE
            || fm->command == OFPROTO_FM_DELETE_STRICT) {
            for (size_t i = 0; i < n; i++) {
                rule_delete(ofproto, rules[i], version);
            }
        } else if (n) {
            modify_rules(ofproto, rules, n, fm);
        } else if (fm->modify_may_add && fm->table_id != 255) {
            error = add_rule(ofproto, fm, version);
        }
        free(rules);
    }
    publish_version(ofproto, version);
    return error;
}

void
ofproto_flush_flows(struct ofproto *ofproto)
{
    struct ofproto_flow_mod fm;
    ofproto_flow_mod_init(&fm);
    fm.command = OFPROTO_FM_DELETE;
    fm.table_id = 255;
    ofproto_flow_mod(ofproto, &fm);
}

size_t
ofproto_count_rules(const struct ofproto *ofproto)
{
    return ofproto->n_rules;
}

static int
compare_rule_infos(const void *a_, const void *b_)
{
    const struct ofproto_rule_info *a = a_, *b = b_;
    if (a->table_id != b->table_id) {
        return a->table_id < b->table_id ? -1 : 1;
    }
    return a->priority > b->priority ? -1 : a->priority < b->priority;
}

void
ofproto_dump_rules(struct ofproto *ofproto, struct ofproto_rule_info **infosp,
                   size_t *np)
{
    struct ofproto_rule_info *infos = NULL;
    size_t n = 0, allocated = 0;
    ovs_version_t version = ofproto_tables_version(ofproto);

    for (int t = 0; t < OFPROTO_N_TABLES; t++) {
        const struct cls_rule *cr;
        CLS_FOR_EACH_TARGET (cr, &ofproto->tables[t].cls, NULL,
                             CLS_ITER_LOOSE, version) {
            const struct rule *rule = CONTAINER_OF(cr, struct rule, cr);
            if (n >= allocated) {
                infos = x2nrealloc(infos, &allocated, sizeof *infos);
            }
            struct ofproto_rule_info *info = &infos[n++];
            const struct rule_actions *a = ovsrcu_get(&rule->actions);
            info->table_id = t;
            info->priority = cr->priority;
            cls_rule_get_match(cr, &info->match, &info->wc);
            info->cookie = rule->cookie;
            info->idle_timeout = rule->idle_timeout;
            info->hard_timeout = rule->hard_timeout;
            info->flags = rule->flags;
            info->created = rule->created;
            long long int used = atomic_load(&rule->used);
            info->used = used ? used : rule->created;
            info->n_packets = atomic_load(&rule->n_packets);
            info->n_bytes = atomic_load(&rule->n_bytes);
            info->n_ofpacts = a->n;
            info->ofpacts = a->n ? xmemdup(a->ofpacts,
                                           a->n * sizeof *a->ofpacts) : NULL;
        }
    }
    if (n) {
        qsort(infos, n, sizeof *infos, compare_rule_infos);
    }
    *infosp = infos;
    *np = n;
}

void
ofproto_rule_infos_free(struct ofproto_rule_info *infos, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(infos[i].ofpacts);
    }
    free(infos);
}

/* Timeouts: only the rules that have one are looked at, and only when the
 * earliest is due. */
static void
expire_rules(struct ofproto *ofproto)
{
    long long int now = time_msec();
    if (ofproto->next_expiry != LLONG_MIN && now < ofproto->next_expiry) {
        return;
    }

    struct rule **expired = NULL;
    size_t n = 0, allocated = 0;
    long long int next = LLONG_MAX;
    struct rule *rule;
    LIST_FOR_EACH (rule, expirable_node, &ofproto->expirable) {
        long long int deadline = LLONG_MAX;
        if (rule->hard_timeout) {
            deadline = rule->modified + rule->hard_timeout * 1000LL;
        }
        if (rule->idle_timeout) {
            long long int used = atomic_load(&rule->used);
            used = MAX(used, rule->created);
            deadline = MIN(deadline, used + rule->idle_timeout * 1000LL);
        }
        if (now >= deadline) {
            if (n >= allocated) {
                expired = x2nrealloc(expired, &allocated, sizeof *expired);
            }
            expired[n++] = rule;
        } else {
            next = MIN(next, deadline);
        }
    }
    if (n) {
        ovs_version_t version = ofproto_tables_version(ofproto) + 1;
        for (size_t i = 0; i < n; i++) {
            COVERAGE_INC(ofproto_rule_expired);
            rule_delete(ofproto, expired[i], version);
        }
        publish_version(ofproto, version);
    }
    free(expired);
    /* Idle deadlines move with traffic the revalidators push up: look
     * again at least once a second while any rule has one. */
    ofproto->next_expiry = ovs_list_is_empty(&ofproto->expirable)
                           ? LLONG_MAX : MIN(next, now + 1000);
}

/* Bridges. */

static void
add_default_rule(struct ofproto *ofproto)
{
    struct ofpact normal = { .type = OFPACT_OUTPUT, .port = OFPP_NORMAL };
    struct ofproto_flow_mod fm;
    ofproto_flow_mod_init(&fm);
    fm.priority = 0;
    fm.ofpacts = &normal;
    fm.n_ofpacts = 1;
    ofproto_flow_mod(ofproto, &fm);
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

int
ofproto_create(const char *name, const char *datapath_type,
               struct ofproto **ofprotop)
{
    *ofprotop = NULL;
    ofproto_init();
    if (datapath_type[0] && strcmp(datapath_type, "netdev")) {
        return EAFNOSUPPORT;
    }
    if (ofproto_lookup(name)) {
        return EEXIST;
    }
    int error = 0;
    struct dpif_backer *backer = backer_ref("netdev", &error);
    if (!backer) {
        return error;
    }

    struct ofproto *ofproto = xzalloc(sizeof *ofproto);
    ofproto->name = xstrdup(name);
    ofproto->backer = backer;
    ofproto->fail_mode = OFPROTO_FAIL_STANDALONE;
    for (int i = 0; i < OFPROTO_N_TABLES; i++) {
        classifier_init(&ofproto->tables[i].cls);
    }
    atomic_init(&ofproto->tables_version, OVS_VERSION_MIN);
    ovs_list_init(&ofproto->expirable);
    ofproto->next_expiry = LLONG_MAX;
    hmap_init(&ofproto->ports);
    hmap_init(&ofproto->bundles);
    ofproto->ml = mac_learning_create(MAC_DEFAULT_IDLE_TIME,
                                      backer->reval_seq);

    xlate_write_lock();
    hmap_insert(&all_ofprotos, &ofproto->hmap_node, hash_string(name, 0));
    xlate_write_unlock();

    add_default_rule(ofproto);
    *ofprotop = ofproto;
    return 0;
}

static void ofport_destroy(struct ofport *);
static void bundle_destroy(struct ofbundle *);

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

    xlate_write_lock();
    hmap_remove(&all_ofprotos, &ofproto->hmap_node);
    xlate_write_unlock();

    /* Every rule out, then wait for the translators that might still be
     * looking at them and run the removals and frees. */
    ofproto_flush_flows(ofproto);
    ovsrcu_synchronize();
    for (int i = 0; i < OFPROTO_N_TABLES; i++) {
        classifier_destroy(&ofproto->tables[i].cls);
    }
    hmap_destroy(&ofproto->ports);
    hmap_destroy(&ofproto->bundles);
    mac_learning_destroy(ofproto->ml);
    backer_tables_changed(ofproto->backer);
    backer_unref(ofproto->backer);
    free(ofproto->name);
    free(ofproto);
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

void
ofproto_set_fail_mode(struct ofproto *ofproto, enum ofproto_fail_mode mode)
{
    if (mode == ofproto->fail_mode) {
        return;
    }
    ofproto->fail_mode = mode;
    ofproto_flush_flows(ofproto);
    if (mode == OFPROTO_FAIL_STANDALONE) {
        add_default_rule(ofproto);
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
ofproto_set_mac_table_config(struct ofproto *ofproto, unsigned int idle_time,
                             size_t max_entries)
{
    mac_learning_set_idle_time(ofproto->ml, idle_time);
    mac_learning_set_max_entries(ofproto->ml, max_entries);
}

void
ofproto_run(struct ofproto *ofproto)
{
    mac_learning_run(ofproto->ml);
    expire_rules(ofproto);
}

void
ofproto_wait(struct ofproto *ofproto)
{
    mac_learning_wait(ofproto->ml);
    if (ofproto->next_expiry != LLONG_MAX) {
        poll_timer_wait_until(ofproto->next_expiry == LLONG_MIN
                              ? 0 : ofproto->next_expiry);
    }
}

void
ofproto_run_global(void)
{
    struct shash_node *node;
    SHASH_FOR_EACH (node, &backers) {
        struct dpif_backer *backer = node->data;
        dpif_run(backer->dpif);
        udpif_run(backer->udpif);
    }
}

void
ofproto_wait_global(void)
{
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

int
ofproto_port_add(struct ofproto *ofproto, struct netdev *netdev,
                 uint16_t ofp_port)
{
    if (ofproto_get_port(ofproto, ofp_port)) {
        return EEXIST;
    }
    struct dpif *dpif = ofproto->backer->dpif;
    uint32_t odp_port = DPIF_PORT_NONE;
    int error = dpif_port_add(dpif, netdev, &odp_port);
    if (error) {
        return error;
    }

    struct ofport *port = xzalloc(sizeof *port);
    port->ofproto = ofproto;
    /* Our own reference: reopening by name shares the netdev. */
    if (netdev_open(netdev_get_name(netdev), netdev_get_type(netdev),
                    &port->netdev)) {
        port->netdev = NULL;
    }
    port->name = xstrdup(netdev_get_name(netdev));
    port->ofp_port = ofp_port;
    port->odp_port = odp_port;
    port->may_enable = netdev_get_carrier(netdev);
    ovs_list_init(&port->bundle_node);

    xlate_write_lock();
    hmap_insert(&ofproto->ports, &port->hmap_node, hash_int(ofp_port, 0));
    hmap_insert(&ofproto->backer->odp_to_ofport, &port->odp_node,
                hash_int(odp_port, 0));
    xlate_write_unlock();
    backer_tables_changed(ofproto->backer);
    return 0;
}

static void
ofport_destroy(struct ofport *port)
{
    struct ofproto *ofproto = port->ofproto;

    xlate_write_lock();
    hmap_remove(&ofproto->ports, &port->hmap_node);
    hmap_remove(&ofproto->backer->odp_to_ofport, &port->odp_node);
    if (port->bundle) {
        ovs_list_remove(&port->bundle_node);
        port->bundle = NULL;
    }
    xlate_write_unlock();

    dpif_port_del(ofproto->backer->dpif, port->odp_port);
    backer_tables_changed(ofproto->backer);
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
    bool may_enable = netdev_get_carrier(port->netdev);
    if (may_enable != port->may_enable) {
        xlate_write_lock();
        port->may_enable = may_enable;
        xlate_write_unlock();
        if (!may_enable && port->bundle) {
            /* Addresses learned there are unreachable now. */
            mac_learning_flush_port(ofproto->ml, port->bundle);
        }
        backer_tables_changed(ofproto->backer);
    }
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

/* Frees BUNDLE; the xlate lock is not held. */
static void
bundle_destroy(struct ofbundle *bundle)
{
    struct ofproto *ofproto = bundle->ofproto;

    xlate_write_lock();
    mac_learning_flush_port(ofproto->ml, bundle);
    struct ofport *port;
    LIST_FOR_EACH_SAFE (port, bundle_node, &bundle->ports) {
        ovs_list_remove(&port->bundle_node);
        ovs_list_init(&port->bundle_node);
        port->bundle = NULL;
    }
    hmap_remove(&ofproto->bundles, &bundle->hmap_node);
    xlate_write_unlock();

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
            ovs_list_remove(&port->bundle_node);
            ovs_list_init(&port->bundle_node);
            port->bundle = NULL;
            vlan_changed = true;
        }
    }
    for (size_t i = 0; i < s->n_members; i++) {
        port = ofproto_get_port(ofproto, s->members[i]);
        if (port && port->bundle != bundle) {
            if (port->bundle) {
                ovs_list_remove(&port->bundle_node);
            }
            port->bundle = bundle;
            ovs_list_push_back(&bundle->ports, &port->bundle_node);
        }
    }
    if (vlan_changed) {
        mac_learning_flush_port(ofproto->ml, bundle);
    }
    xlate_write_unlock();
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

int
ofproto_packet_out(struct ofproto *ofproto, const void *data, size_t size,
                   uint16_t in_port, const struct ofpact *ofpacts,
                   size_t n_ofpacts)
{
    if (size < ETH_HEADER_LEN) {
        return EINVAL;
    }
    struct dp_packet *packet = dp_packet_clone_data(data, size);
    const struct ofport *port = ofproto_get_port(ofproto, in_port);
    packet->md.in_port = port ? port->odp_port : DPIF_PORT_LOCAL;

    struct flow flow;
    flow_extract(packet, &flow);
    flow.in_port = in_port;

    struct xlate_in xin = {
        .ofproto = ofproto,
        .flow = flow,
        .ofpacts = ofpacts,
        .n_ofpacts = n_ofpacts,
    };
    struct xlate_out xout;
    xlate_out_init(&xout);
    ovs_rwlock_rdlock(&xlate_rwlock);
    xlate_actions(&xin, &xout);
    ovs_rwlock_unlock(&xlate_rwlock);

    struct dp_packet_batch batch;
    dp_packet_batch_init_packet(&batch, packet);
    int error = dpif_execute(ofproto->backer->dpif, &batch,
                             xout.odp_actions.data, xout.odp_actions.size);
    xlate_out_uninit(&xout);
    dp_packet_delete(packet);
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

