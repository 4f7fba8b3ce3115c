/* ofproto-rules: the OpenFlow tables' rules: flow_mod, queries, timeouts
 * and the flow_removed events they produce (ofproto.h says the semantics,
 * ofproto-private.h the threading).  Main thread only, except
 * rule_credit_stats(). */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "ofp-actions.h"
#include "ofp-flow.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "ofproto-private.h"
#include "xlate.h"
#include "ofp-monitor.h"
#include "seq.h"
#include "timeval.h"
#include "util.h"

COVERAGE_DEFINE(ofproto_flow_mod);
COVERAGE_DEFINE(ofproto_rule_expired);
COVERAGE_DEFINE(ofproto_flow_removed_dropped);

static struct rule_actions *
rule_actions_create(const struct ofpact *ofpacts, size_t ofpacts_len)
{
    struct rule_actions *a = xmalloc(sizeof *a + ofpacts_len);
    a->ofpacts_len = ofpacts_len;
    if (ofpacts_len) {
        memcpy(a->ofpacts, ofpacts, ofpacts_len);
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
rule_create(struct ofproto *ofproto, const struct ofputil_flow_mod *fm,
            uint8_t table_id)
{
    struct rule *rule = xzalloc(sizeof *rule);
    cls_rule_init(&rule->cr, &fm->match.flow, &fm->match.wc, fm->priority);
    rule->ofproto = ofproto;
    rule->table_id = table_id;
    rule->cookie = fm->new_cookie == OVS_BE64_MAX ? 0 : fm->new_cookie;
    rule->idle_timeout = fm->idle_timeout;
    rule->hard_timeout = fm->hard_timeout;
    rule->flags = fm->flags;
    rule->importance = fm->importance;
    rule->created = rule->modified = time_msec();
    atomic_init(&rule->n_packets, 0);
    atomic_init(&rule->n_bytes, 0);
    atomic_init(&rule->used, 0);
    ovsrcu_set_hidden(&rule->actions,
                      rule_actions_create(fm->ofpacts, fm->ofpacts_len));
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

void
ofproto_set_flow_change_cb(struct ofproto *ofproto,
                           void (*cb)(const struct ofproto_flow_change *,
                                      void *aux),
                           void *aux)
{
    ofproto->flow_change_cb = cb;
    ofproto->flow_change_aux = aux;
}

void
ofproto_set_change_origin(struct ofproto *ofproto, const void *origin,
                          ovs_be32 xid)
{
    ofproto->change_origin = origin;
    ofproto->change_xid = xid;
    ofproto->change_serial++;
}

uint64_t
ofproto_get_change_seqno(const struct ofproto *ofproto)
{
    return ofproto->change_seqno;
}

static void rule_to_info(const struct rule *, struct ofproto_rule_info *);

/* Tells the flow monitors that RULE was added, removed (for REASON) or
 * modified (its actions were OLD). */
static void
rule_report_change(struct ofproto *ofproto, const struct rule *rule,
                   int event, uint8_t reason, const struct rule_actions *old)
{
    if (!ofproto->flow_change_cb || rule->hidden) {
        return;
    }
    struct ofproto_rule_info info;
    rule_to_info(rule, &info);
    struct ofproto_flow_change change = {
        .event = event,
        .reason = reason,
        .rule = &info,
        .old_ofpacts = old ? old->ofpacts : NULL,
        .old_ofpacts_len = old ? old->ofpacts_len : 0,
        .origin = ofproto->change_origin,
        .xid = ofproto->change_xid,
        .origin_serial = ofproto->change_serial,
    };
    ofproto->flow_change_cb(&change, ofproto->flow_change_aux);
}

/* The changes reported since the last call are one operation's: the
 * monitors send them together (3.1 sends one reply per operation), and
 * the tables' vacancy is looked at now. */
static void
rule_report_flush(struct ofproto *ofproto)
{
    ofproto_check_vacancy(ofproto);
    if (ofproto->flow_change_cb) {
        ofproto->flow_change_cb(NULL, ofproto->flow_change_aux);
    }
}

/* Queues a flow_removed event for RULE if it asked for one.  The queue is
 * bounded: with nobody draining it (no controller) old events would only
 * pile up, so beyond the bound new ones are dropped and counted. */
static void
rule_send_removed(struct ofproto *ofproto, const struct rule *rule,
                  uint8_t reason)
{
    rule_report_change(ofproto, rule, OFPFME_REMOVED, reason, NULL);
    if (!(rule->flags & OFPUTIL_FF_SEND_FLOW_REM)) {
        return;
    }
    if (ovs_list_size(&ofproto->flow_removed) >= OFPROTO_MAX_EVENTS) {
        COVERAGE_INC(ofproto_flow_removed_dropped);
        return;
    }
    struct ofproto_flow_removed *fr = xzalloc(sizeof *fr);
    ofproto_rule_get_match(rule, &fr->match);
    fr->priority = rule->cr.priority;
    fr->cookie = rule->cookie;
    fr->table_id = rule->table_id;
    fr->reason = reason;
    long long int age = MAX(time_msec() - rule->created, 0);
    fr->duration_sec = age / 1000;
    fr->duration_nsec = (age % 1000) * 1000000;
    fr->idle_timeout = rule->idle_timeout;
    fr->hard_timeout = rule->hard_timeout;
    fr->packet_count = atomic_load(&((struct rule *) rule)->n_packets);
    fr->byte_count = atomic_load(&((struct rule *) rule)->n_bytes);
    ovs_list_push_back(&ofproto->flow_removed, &fr->list_node);
    seq_change(ofproto->events_seq);
}

bool
ofproto_pop_flow_removed(struct ofproto *ofproto,
                         struct ofproto_flow_removed *out)
{
    if (ovs_list_is_empty(&ofproto->flow_removed)) {
        return false;
    }
    struct ofproto_flow_removed *fr = CONTAINER_OF(
        ovs_list_pop_front(&ofproto->flow_removed),
        struct ofproto_flow_removed, list_node);
    *out = *fr;
    free(fr);
    return true;
}

void
ofproto_flush_flow_removed(struct ofproto *ofproto)
{
    struct ofproto_flow_removed fr;
    while (ofproto_pop_flow_removed(ofproto, &fr)) {
        continue;
    }
    struct ofproto_packet_in pin;
    while (ofproto_pop_packet_in(ofproto, &pin)) {
        free(pin.packet);
    }
    struct ofproto_port_status ps;
    while (ofproto_pop_port_status(ofproto, &ps)) {
        continue;
    }
    struct ofproto_table_status ts;
    while (ofproto_pop_table_status(ofproto, &ts)) {
        continue;
    }
}

/* The bookkeeping of a rule that went (already invisible in the version
 * to be published): counts, expiry, delete_learned, and its removal from
 * the classifier once readers are done with it. */
static void
rule_retire(struct ofproto *ofproto, struct rule *rule)
{
    rule->removed = true;
    if (rule->idle_timeout || rule->hard_timeout) {
        ovs_list_remove(&rule->expirable_node);
    }
    ofproto->n_rules--;
    ofproto->tables[rule->table_id].n_rules--;
    ofproto_learn_rule_removed(ofproto, rule);
    ovsrcu_postpone(rule_remove_cb, rule);
}

/* Makes RULE invisible from VERSION on and queues its removal. */
static void
rule_delete(struct ofproto *ofproto, struct rule *rule, ovs_version_t version)
{
    cls_rule_make_invisible_in_version(&rule->cr, version);
    rule_retire(ofproto, rule);
}

static void
publish_version(struct ofproto *ofproto, ovs_version_t version)
{
    for (int i = 0; i < OFPROTO_N_TABLES; i++) {
        classifier_publish(&ofproto->tables[i].cls);
    }
    atomic_store_explicit(&ofproto->tables_version, version,
                          memory_order_release);
    seq_change(ofproto->backer->reval_seq);
    /* Flows learned by rules that just went, if they asked for it. */
    ofproto_unlearn(ofproto);
}

/* Whether the list (nested write_actions included) sends to PORT (an
 * output, enqueue or controller action) or to GROUP. */
bool
ofproto_ofpacts_reference(const struct ofpact *ofpacts, size_t len,
                          uint32_t port, uint32_t group)
{
    const struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        switch ((enum ofpact_type) a->type) {
        case OFPACT_OUTPUT:
            if (((const struct ofpact_output *) a)->port == port) {
                return true;
            }
            break;
        case OFPACT_ENQUEUE:
            if (((const struct ofpact_enqueue *) a)->port == port) {
                return true;
            }
            break;
        case OFPACT_CONTROLLER:
            if (port == OFPP_CONTROLLER) {
                return true;
            }
            break;
        case OFPACT_GROUP:
            if (((const struct ofpact_group *) a)->group_id == group) {
                return true;
            }
            break;
        case OFPACT_WRITE_ACTIONS: {
            const struct ofpact_nest *on = (const struct ofpact_nest *) a;
            if (ofproto_ofpacts_reference(on->actions,
                                  ofpact_nest_get_action_len(on), port,
                                  group)) {
                return true;
            }
            break;
        }
        default:
            break;
        }
    }
    return false;
}

void
ofproto_flow_query_init(struct ofproto_flow_query *q)
{
    memset(q, 0, sizeof *q);
    match_init_catchall(&q->match);
    q->priority = OFP_DEFAULT_PRIORITY;
    q->table_id = OFPTT_ALL;
    q->out_port = OFPP_NONE;
    q->out_group = OFPG_ANY;
}

static bool
rule_selected(const struct rule *rule, const struct ofproto_flow_query *q)
{
    if ((rule->cookie ^ q->cookie) & q->cookie_mask) {
        return false;
    }
    if (q->out_port != OFPP_NONE || q->out_group != OFPG_ANY) {
        const struct rule_actions *a = ovsrcu_get(&rule->actions);
        if (q->out_port != OFPP_NONE
            && !ofproto_ofpacts_reference(a->ofpacts, a->ofpacts_len, q->out_port,
                                  UINT32_MAX - 1)) {
            return false;
        }
        if (q->out_group != OFPG_ANY
            && !ofproto_ofpacts_reference(a->ofpacts, a->ofpacts_len, UINT32_MAX - 1,
                                  q->out_group)) {
            return false;
        }
    }
    return true;
}

/* Brings the order of table TABLE_ID (OFPTT_ALL: every table) up to date
 * for the writer's own queries while a batch defers it. */
static void
sync_tables(struct ofproto *ofproto, uint8_t table_id)
{
    int first = table_id == OFPTT_ALL ? 0 : table_id;
    int last = table_id == OFPTT_ALL ? OFPROTO_N_TABLES - 1 : table_id;
    for (int t = first; t <= last && t < OFPROTO_N_TABLES; t++) {
        classifier_sync(&ofproto->tables[t].cls);
    }
}

/* Rules Q selects, visible at VERSION, appended to *RULES. */
static void
collect_rules(struct ofproto *ofproto, const struct ofproto_flow_query *q,
              ovs_version_t version, struct rule ***rules, size_t *n)
{
    /* A batch under way defers the tables' order: see its own rules. */
    sync_tables(ofproto, q->table_id);
    struct cls_rule target;
    cls_rule_init(&target, &q->match.flow, &q->match.wc, q->priority);
    size_t allocated = *n;
    int first = q->table_id == OFPTT_ALL ? 0 : q->table_id;
    int last = q->table_id == OFPTT_ALL ? OFPROTO_N_TABLES - 1 : q->table_id;
    for (int t = first; t <= last; t++) {
        const struct cls_rule *cr;
        CLS_FOR_EACH_TARGET (cr, &ofproto->tables[t].cls, &target,
                             q->strict ? CLS_ITER_STRICT : CLS_ITER_LOOSE,
                             version) {
            struct rule *rule = CONTAINER_OF(cr, struct rule, cr);
            bool visible = (!rule->hidden
                            || (q->with_internal
                                && rule->table_id == OFPROTO_INTERNAL_TABLE));
            if (!rule->removed && visible && rule_selected(rule, q)) {
                if (*n >= allocated) {
                    *rules = x2nrealloc(*rules, &allocated, sizeof **rules);
                }
                (*rules)[(*n)++] = rule;
            }
        }
    }
    cls_rule_destroy(&target);
}

/* Output ports a switch can have (ofp-actions' annotate refuses the same
 * ports; a flow_mod built in a program may not have gone through it), and
 * groups and meters that exist. */
enum ofperr
ofproto_check_actions(const struct ofproto *ofproto,
                      const struct ofpact *ofpacts, size_t len)
{
    enum ofperr error = xlate_check_actions(ofpacts, len);
    if (error) {
        return error;
    }
    const struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        if (a->type == OFPACT_GROUP
            && !ofproto_group_lookup(
                ofproto, ((const struct ofpact_group *) a)->group_id)) {
            return OFPERR_OFPBAC_BAD_OUT_GROUP;
        }
        if (a->type == OFPACT_METER
            && !ofproto_meter_lookup(
                ofproto, ((const struct ofpact_meter *) a)->meter_id)) {
            return OFPERR_OFPMMFC_INVALID_METER;
        }
        if (a->type == OFPACT_OUTPUT
            && !ofputil_port_is_valid_output(
                ((const struct ofpact_output *) a)->port)) {
            return OFPERR_OFPBAC_BAD_OUT_PORT;
        }
        if (a->type == OFPACT_WRITE_ACTIONS) {
            const struct ofpact_nest *on = (const struct ofpact_nest *) a;
            enum ofperr error = ofproto_check_actions(
                ofproto, on->actions, ofpact_nest_get_action_len(on));
            if (error) {
                return error;
            }
        }
    }
    return 0;
}

/* Flow_mods, alone or in bundles: a batch applied all or nothing.
 *
 * Every change of the batch happens at the one version V the tables will
 * have next: new rules (adds, and the replacement of each rule a modify
 * changes, so that a rule's actions never change under a reader) are
 * inserted at V, replaced and deleted rules become invisible from V.  Each
 * flow_mod of the batch sees the effect of those before it (lookups at V),
 * readers see none of it until V is published.  The bookkeeping that
 * cannot be taken back (rule counts, timeouts, flow_removed events, the
 * deferred removal) is done only once every flow_mod succeeded; a failure
 * undoes the batch's changes instead, newest first. */
struct batch_change {
    struct rule *added;         /* Inserted at V, or NULL. */
    struct rule *removed;       /* Invisible from V, or NULL. */
    bool deleted;               /* REMOVED by a delete: flow_removed. */
    bool by_add;                /* ADDED replaces REMOVED by an add (not a
                                 * modify). */
    uint8_t reason;             /* Its OFPRR_*, if DELETED. */
};

struct batch {
    struct batch_change *changes;
    size_t n, allocated;
};

static void
batch_record(struct batch *b, struct rule *added, struct rule *removed,
             bool deleted)
{
    if (b->n >= b->allocated) {
        b->changes = x2nrealloc(b->changes, &b->allocated,
                                sizeof *b->changes);
    }
    b->changes[b->n++] = (struct batch_change) {
        .added = added, .removed = removed, .deleted = deleted,
        .reason = OFPRR_DELETE,
    };
}

enum ofperr
ofproto_check_flow_mod_table(uint8_t table_id)
{
    if (table_id == OFPROTO_N_TABLES - 1) {
        /* The last table is 3.1's internal one: no controller changes it
         * (it is not announced in the features reply either). */
        return OFPERR_OFPBRC_EPERM;
    }
    if (table_id >= OFPROTO_N_TABLES && table_id != OFPTT_ALL) {
        return OFPERR_OFPBRC_BAD_TABLE_ID;
    }
    return 0;
}

/* Common checks of one flow_mod, before it touches anything. */
static enum ofperr
check_flow_mod(const struct ofproto *ofproto,
               const struct ofputil_flow_mod *fm)
{
    enum ofperr error = ofproto_check_flow_mod_table(fm->table_id);
    if (error) {
        return error;
    }
    if (fm->priority < 0 || fm->priority > UINT16_MAX) {
        return OFPERR_OFPFMFC_BAD_PRIORITY;
    }
    if (fm->command > OFPFC_DELETE_STRICT) {
        return OFPERR_OFPFMFC_BAD_COMMAND;
    }
    if (fm->command != OFPFC_DELETE && fm->command != OFPFC_DELETE_STRICT) {
        return ofproto_check_actions(ofproto, fm->ofpacts, fm->ofpacts_len);
    }
    return 0;
}

static void
batch_replace(struct batch *b, struct rule *old, struct rule *new,
              ovs_version_t version, bool keep_counts, bool by_add)
{
    if (keep_counts) {
        atomic_store(&new->n_packets, atomic_load(&old->n_packets));
        atomic_store(&new->n_bytes, atomic_load(&old->n_bytes));
        atomic_store(&new->used, atomic_load(&old->used));
        new->created = old->created;
    }
    cls_rule_make_invisible_in_version(&old->cr, version);
    classifier_insert(&old->ofproto->tables[new->table_id].cls, &new->cr,
                      version);
    batch_record(b, new, old, false);
    b->changes[b->n - 1].by_add = by_add;
}

/* How many rules TABLE_ID holds at the batch's version. */
static size_t
batch_table_rules(const struct ofproto *ofproto, uint8_t table_id,
                  const struct batch *b)
{
    size_t n = ofproto->tables[table_id].n_rules;
    for (size_t i = 0; i < b->n; i++) {
        const struct batch_change *c = &b->changes[i];
        n += c->added && c->added->table_id == table_id;
        n -= c->removed && c->removed->table_id == table_id;
    }
    return n;
}

/* Evicts, in the batch, rules of TABLE_ID while it holds more than MAX
 * rules.  OFPFMFC_TABLE_FULL if the table does not evict or has nothing
 * it may evict. */
static enum ofperr
batch_evict(struct ofproto *ofproto, uint8_t table_id, size_t max,
            ovs_version_t version, struct batch *b)
{
    const struct oftable *table = &ofproto->tables[table_id];
    for (size_t n = batch_table_rules(ofproto, table_id, b); n > max; n--) {
        struct rule *victim = (oftable_evicts(table)
                               ? ofproto_eviction_victim(ofproto, table_id,
                                                         version)
                               : NULL);
        if (!victim) {
            return OFPERR_OFPFMFC_TABLE_FULL;
        }
        cls_rule_make_invisible_in_version(&victim->cr, version);
        batch_record(b, NULL, victim, true);
        b->changes[b->n - 1].reason = OFPRR_EVICTION;
    }
    return 0;
}

static enum ofperr
batch_add(struct ofproto *ofproto, const struct ofputil_flow_mod *fm,
          ovs_version_t version, struct batch *b)
{
    uint8_t table_id = fm->table_id == OFPTT_ALL ? 0 : fm->table_id;
    struct classifier *cls = &ofproto->tables[table_id].cls;
    struct rule *rule = rule_create(ofproto, fm, table_id);

    sync_tables(ofproto, table_id);
    const struct cls_rule *old_cr = classifier_find_rule_exactly(
        cls, &rule->cr, version);
    if (!old_cr && fm->flags & OFPUTIL_FF_CHECK_OVERLAP
        && classifier_rule_overlaps(cls, &rule->cr, version)) {
        rule_free(rule);
        return OFPERR_OFPFMFC_OVERLAP;
    }
    if (old_cr) {
        batch_replace(b, CONTAINER_OF(old_cr, struct rule, cr), rule,
                      version, !(fm->flags & OFPUTIL_FF_RESET_COUNTS), true);
    } else {
        /* A new rule needs room under the table's limit. */
        unsigned int max_flows = ofproto->tables[table_id].max_flows;
        if (max_flows != UINT_MAX) {
            enum ofperr error = (max_flows
                                 ? batch_evict(ofproto, table_id,
                                               max_flows - 1, version, b)
                                 : OFPERR_OFPFMFC_TABLE_FULL);
            if (error) {
                rule_free(rule);
                return error;
            }
        }
        classifier_insert(cls, &rule->cr, version);
        batch_record(b, rule, NULL, false);
    }
    return 0;
}

/* A copy of OLD with FM's actions (and cookie, if it modifies it). */
static struct rule *
rule_modified_copy(const struct rule *old, const struct ofputil_flow_mod *fm)
{
    struct rule *rule = xzalloc(sizeof *rule);
    cls_rule_clone(&rule->cr, &old->cr);
    rule->ofproto = old->ofproto;
    rule->table_id = old->table_id;
    rule->cookie = fm->modify_cookie ? fm->new_cookie : old->cookie;
    rule->idle_timeout = old->idle_timeout;
    rule->hard_timeout = old->hard_timeout;
    rule->flags = old->flags;
    rule->importance = old->importance;
    rule->created = old->created;
    rule->modified = time_msec();
    atomic_init(&rule->n_packets, 0);
    atomic_init(&rule->n_bytes, 0);
    atomic_init(&rule->used, 0);
    ovsrcu_set_hidden(&rule->actions,
                      rule_actions_create(fm->ofpacts, fm->ofpacts_len));
    return rule;
}

static enum ofperr batch_flow_mod__(struct ofproto *,
                                    const struct ofputil_flow_mod *,
                                    ovs_version_t, struct batch *);

static enum ofperr
batch_flow_mod(struct ofproto *ofproto, const struct ofputil_flow_mod *fm,
               ovs_version_t version, struct batch *b)
{
    /* tun_metadata lies where the TLV map says. */
    struct ofputil_flow_mod remapped = *fm;
    struct ofpact *ofpacts_copy;
    enum ofperr error = ofproto_tlv_check_flow_mod(ofproto, &remapped,
                                                   &ofpacts_copy);
    if (!error) {
        error = check_flow_mod(ofproto, &remapped);
    }
    if (!error) {
        error = batch_flow_mod__(ofproto, &remapped, version, b);
    }
    free(ofpacts_copy);
    return error;
}

static enum ofperr
batch_flow_mod__(struct ofproto *ofproto, const struct ofputil_flow_mod *fm,
                 ovs_version_t version, struct batch *b)
{
    if (fm->command == OFPFC_ADD) {
        return batch_add(ofproto, fm, version, b);
    }

    struct ofproto_flow_query q = {
        .match = fm->match,
        .priority = fm->priority,
        .strict = (fm->command == OFPFC_MODIFY_STRICT
                   || fm->command == OFPFC_DELETE_STRICT),
        .table_id = fm->table_id,
        /* Open vSwitch applies out_port/out_group to modify too. */
        .out_port = fm->out_port,
        .out_group = fm->out_group,
        .cookie = fm->cookie,
        .cookie_mask = fm->cookie_mask,
    };
    struct rule **rules = NULL;
    size_t n = 0;
    enum ofperr error = 0;
    collect_rules(ofproto, &q, version, &rules, &n);
    if (fm->command == OFPFC_DELETE || fm->command == OFPFC_DELETE_STRICT) {
        for (size_t i = 0; i < n; i++) {
            cls_rule_make_invisible_in_version(&rules[i]->cr, version);
            batch_record(b, NULL, rules[i], true);
        }
    } else if (n) {
        for (size_t i = 0; i < n; i++) {
            batch_replace(b, rules[i], rule_modified_copy(rules[i], fm),
                          version, !(fm->flags & OFPUTIL_FF_RESET_COUNTS),
                          false);
        }
    } else if (fm->new_cookie != OVS_BE64_MAX && !fm->cookie_mask) {
        /* A modify that selects nothing adds the flow when it carries
         * a cookie for it: OpenFlow 1.0 and 1.1 modifies without a
         * cookie mask, as 3.1 decodes them. */
        error = batch_add(ofproto, fm, version, b);
    }
    free(rules);
    return error;
}

/* The batch succeeded: what changes cannot be undone happens now. */
static void
batch_finish(struct ofproto *ofproto, struct batch *b)
{
    for (size_t i = 0; i < b->n; i++) {
        struct batch_change *c = &b->changes[i];
        if (c->added) {
            ofproto->n_rules++;
            ofproto->tables[c->added->table_id].n_rules++;
            rule_schedule_expiry(ofproto, c->added);
            c->added->modify_seqno = ++ofproto->change_seqno;
            c->added->add_seqno = (c->removed ? c->removed->add_seqno
                                   : c->added->modify_seqno);
            if (!c->removed || c->by_add) {
                /* As 3.1 reports it, an add that replaces a flow is an
                 * addition too. */
                rule_report_change(ofproto, c->added, OFPFME_ADDED, 0, NULL);
            } else {
                /* A modify counts when it changed the actions or the
                 * cookie; monitors filtering on out_port see the old
                 * actions too. */
                const struct rule_actions *old
                    = ovsrcu_get(&c->removed->actions);
                const struct rule_actions *new
                    = ovsrcu_get(&c->added->actions);
                bool new_actions = !ofpact_list_equal(
                    old->ofpacts, old->ofpacts_len,
                    new->ofpacts, new->ofpacts_len);
                if (new_actions || c->added->cookie != c->removed->cookie) {
                    rule_report_change(ofproto, c->added, OFPFME_MODIFIED,
                                       0, new_actions ? old : NULL);
                }
            }
        }
        if (c->removed) {
            if (c->deleted) {
                rule_send_removed(ofproto, c->removed, c->reason);
            }
            rule_retire(ofproto, c->removed);
        }
    }
    rule_report_flush(ofproto);
}

/* The batch failed: newest first, each change is taken back.  A rule
 * inserted at V was never visible, yet a lookup may be walking the
 * classifier, so it leaves the way every rule does. */
static void
batch_undo(struct batch *b, ovs_version_t version)
{
    for (size_t i = b->n; i-- > 0; ) {
        struct batch_change *c = &b->changes[i];
        if (c->added) {
            cls_rule_make_invisible_in_version(&c->added->cr, version);
            ovsrcu_postpone(rule_remove_cb, c->added);
        }
        if (c->removed) {
            cls_rule_restore_visibility(&c->removed->cr);
        }
    }
}

/* The batch as other modules drive it (ofproto-private.h). */
struct ofproto_batch {
    struct ofproto *ofproto;
    ovs_version_t version;
    struct batch b;
};

struct ofproto_batch *
ofproto_batch_begin(struct ofproto *ofproto)
{
    struct ofproto_batch *ob = xzalloc(sizeof *ob);
    ob->ofproto = ofproto;
    ob->version = ofproto_tables_version(ofproto) + 1;
    for (int i = 0; i < OFPROTO_N_TABLES; i++) {
        classifier_defer(&ofproto->tables[i].cls);
    }
    return ob;
}

enum ofperr
ofproto_batch_flow_mod(struct ofproto_batch *ob,
                       const struct ofputil_flow_mod *fm)
{
    COVERAGE_INC(ofproto_flow_mod);
    return batch_flow_mod(ob->ofproto, fm, ob->version, &ob->b);
}

void
ofproto_batch_delete_group_rules(struct ofproto_batch *ob, uint32_t group_id)
{
    struct ofproto_flow_query q;
    ofproto_flow_query_init(&q);
    q.out_group = group_id;
    struct rule **rules = NULL;
    size_t n = 0;
    collect_rules(ob->ofproto, &q, ob->version, &rules, &n);
    for (size_t i = 0; i < n; i++) {
        cls_rule_make_invisible_in_version(&rules[i]->cr, ob->version);
        batch_record(&ob->b, NULL, rules[i], true);
        ob->b.changes[ob->b.n - 1].reason = OFPRR_GROUP_DELETE;
    }
    free(rules);
}

void
ofproto_batch_commit(struct ofproto_batch *ob)
{
    batch_finish(ob->ofproto, &ob->b);
    publish_version(ob->ofproto, ob->version);
    free(ob->b.changes);
    free(ob);
}

void
ofproto_batch_abort(struct ofproto_batch *ob)
{
    batch_undo(&ob->b, ob->version);
    /* Nothing changed: readers keep the version they have. */
    for (int i = 0; i < OFPROTO_N_TABLES; i++) {
        classifier_publish(&ob->ofproto->tables[i].cls);
    }
    free(ob->b.changes);
    free(ob);
}

enum ofperr
ofproto_flow_mod_batch(struct ofproto *ofproto,
                       const struct ofputil_flow_mod *fms, size_t n,
                       size_t *failed)
{
    struct ofproto_batch *ob = ofproto_batch_begin(ofproto);
    for (size_t i = 0; i < n; i++) {
        enum ofperr error = ofproto_batch_flow_mod(ob, &fms[i]);
        if (error) {
            *failed = i;
            ofproto_batch_abort(ob);
            return error;
        }
    }
    ofproto_batch_commit(ob);
    return 0;
}

/* One flow_mod is a batch of one: every change to the tables goes through
 * the same code, so what follows a change (counts, timeouts, flow_removed)
 * is done in one place. */
enum ofperr
ofproto_flow_mod(struct ofproto *ofproto, const struct ofputil_flow_mod *fm)
{
    size_t failed;
    return ofproto_flow_mod_batch(ofproto, fm, 1, &failed);
}

void
ofproto_table_evict_excess(struct ofproto *ofproto, uint8_t table_id)
{
    const struct oftable *table = &ofproto->tables[table_id];
    if (table->max_flows == UINT_MAX || table->n_rules <= table->max_flows
        || !oftable_evicts(table)) {
        return;
    }
    /* Whatever cannot go (no timeout) stays: the rest is committed. */
    struct ofproto_batch *ob = ofproto_batch_begin(ofproto);
    batch_evict(ofproto, table_id, table->max_flows, ob->version, &ob->b);
    ofproto_batch_commit(ob);
}

void
ofproto_delete_group_rules(struct ofproto *ofproto, uint32_t group_id)
{
    ovs_version_t version = ofproto_tables_version(ofproto) + 1;
    struct ofproto_flow_query q;
    ofproto_flow_query_init(&q);
    q.out_group = group_id;
    struct rule **rules = NULL;
    size_t n = 0;
    collect_rules(ofproto, &q, version - 1, &rules, &n);
    if (n) {
        for (int i = 0; i < OFPROTO_N_TABLES; i++) {
            classifier_defer(&ofproto->tables[i].cls);
        }
        for (size_t i = 0; i < n; i++) {
            rule_send_removed(ofproto, rules[i], OFPRR_GROUP_DELETE);
            rule_delete(ofproto, rules[i], version);
        }
        rule_report_flush(ofproto);
        publish_version(ofproto, version);
    }
    free(rules);
}

/* Whether the list (nested write_actions included) uses meter METER_ID. */
static bool
ofpacts_use_meter(const struct ofpact *ofpacts, size_t len, uint32_t meter_id)
{
    const struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        if (a->type == OFPACT_METER
            && ((const struct ofpact_meter *) a)->meter_id == meter_id) {
            return true;
        }
        if (a->type == OFPACT_WRITE_ACTIONS) {
            const struct ofpact_nest *on = (const struct ofpact_nest *) a;
            if (ofpacts_use_meter(on->actions, ofpact_nest_get_action_len(on),
                                  meter_id)) {
                return true;
            }
        }
    }
    return false;
}

/* The visible rules that use meter METER_ID (the caller frees the
 * array). */
static struct rule **
collect_meter_rules(struct ofproto *ofproto, uint32_t meter_id,
                    ovs_version_t version, size_t *np)
{
    struct ofproto_flow_query q;
    ofproto_flow_query_init(&q);
    struct rule **rules = NULL;
    size_t n = 0;
    collect_rules(ofproto, &q, version, &rules, &n);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        const struct rule_actions *a = ovsrcu_get(&rules[i]->actions);
        if (ofpacts_use_meter(a->ofpacts, a->ofpacts_len, meter_id)) {
            rules[kept++] = rules[i];
        }
    }
    *np = kept;
    return rules;
}

void
ofproto_delete_meter_rules(struct ofproto *ofproto, uint32_t meter_id)
{
    ovs_version_t version = ofproto_tables_version(ofproto) + 1;
    size_t n;
    struct rule **rules = collect_meter_rules(ofproto, meter_id, version - 1,
                                              &n);
    if (n) {
        for (int i = 0; i < OFPROTO_N_TABLES; i++) {
            classifier_defer(&ofproto->tables[i].cls);
        }
        for (size_t i = 0; i < n; i++) {
            rule_send_removed(ofproto, rules[i], OFPRR_METER_DELETE);
            rule_delete(ofproto, rules[i], version);
        }
        rule_report_flush(ofproto);
        publish_version(ofproto, version);
    }
    free(rules);
}

uint32_t
ofproto_count_meter_rules(struct ofproto *ofproto, uint32_t meter_id)
{
    size_t n;
    free(collect_meter_rules(ofproto, meter_id,
                             ofproto_tables_version(ofproto), &n));
    return n;
}

uint32_t
ofproto_count_group_rules(struct ofproto *ofproto, uint32_t group_id)
{
    struct ofproto_flow_query q;
    ofproto_flow_query_init(&q);
    q.out_group = group_id;
    struct rule **rules = NULL;
    size_t n = 0;
    collect_rules(ofproto, &q, ofproto_tables_version(ofproto), &rules, &n);
    free(rules);
    return n;
}

void
ofproto_flush_flows(struct ofproto *ofproto)
{
    ovs_version_t version = ofproto_tables_version(ofproto) + 1;
    struct ofproto_flow_query q;
    ofproto_flow_query_init(&q);
    struct rule **rules = NULL;
    size_t n = 0;
    collect_rules(ofproto, &q, version - 1, &rules, &n);
    for (int i = 0; i < OFPROTO_N_TABLES; i++) {
        classifier_defer(&ofproto->tables[i].cls);
    }
    for (size_t i = 0; i < n; i++) {
        /* No flow_removed here, but monitors hear of it (as in 3.1). */
        rule_report_change(ofproto, rules[i], OFPFME_REMOVED, OFPRR_DELETE,
                           NULL);
        rule_delete(ofproto, rules[i], version);
    }
    rule_report_flush(ofproto);
    free(rules);
    publish_version(ofproto, version);
}

size_t
ofproto_count_rules(const struct ofproto *ofproto)
{
    return ofproto->n_rules;
}

void
ofproto_get_table_stats(struct ofproto *ofproto, uint8_t table_id,
                        struct ofproto_table_stats *ts)
{
    struct oftable *t = &ofproto->tables[table_id];
    ts->n_rules = t->n_rules;
    ts->n_lookups = atomic_load_explicit(&t->n_lookups, memory_order_relaxed);
    ts->n_matched = atomic_load_explicit(&t->n_matched, memory_order_relaxed);
}

/* A selected rule and its place in the order 3.1 lists rules in: by
 * table, priority (highest first), then, for a small table such as tests
 * look at, where its cmap puts them: subtable by subtable in the order
 * the classifier walks them, and in a subtable in insertion order (a rule
 * that replaced another keeps that one's place; one deleted and added
 * again goes last). */
struct found_rule {
    struct rule *rule;
    size_t group;               /* Walk position of its subtable's first. */
    uint64_t seq;
};

static int
compare_found_rules(const void *a_, const void *b_)
{
    const struct found_rule *a = a_, *b = b_;
    const struct rule *ra = a->rule, *rb = b->rule;
    if (ra->table_id != rb->table_id) {
        return ra->table_id < rb->table_id ? -1 : 1;
    }
    if (ra->cr.priority != rb->cr.priority) {
        return ra->cr.priority > rb->cr.priority ? -1 : 1;
    }
    if (a->group != b->group) {
        return a->group < b->group ? -1 : 1;
    }
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void
rule_to_info(const struct rule *rule, struct ofproto_rule_info *info)
{
    const struct rule_actions *a = ovsrcu_get(&rule->actions);
    info->table_id = rule->table_id;
    info->priority = rule->cr.priority;
    ofproto_rule_get_match(rule, &info->match);
    info->cookie = rule->cookie;
    info->idle_timeout = rule->idle_timeout;
    info->hard_timeout = rule->hard_timeout;
    info->flags = rule->flags;
    info->importance = rule->importance;
    info->created = rule->created;
    info->modified = rule->modified;
    long long int used = atomic_load(&rule->used);
    info->used = used ? used : rule->created;
    /* NO_PKT_COUNTS and NO_BYT_COUNTS only allow a switch not to count;
     * this one counts anyway and says so, as 3.1 does. */
    info->n_packets = atomic_load(&rule->n_packets);
    info->n_bytes = atomic_load(&rule->n_bytes);
    info->ofpacts_len = a->ofpacts_len;
    info->ofpacts = a->ofpacts;
    info->add_seqno = rule->add_seqno;
    info->modify_seqno = rule->modify_seqno;
}

void
ofproto_query_rules_each(struct ofproto *ofproto,
                         const struct ofproto_flow_query *q,
                         void (*cb)(const struct ofproto_rule_info *,
                                    void *aux),
                         void *aux)
{
    struct rule **rules = NULL;
    size_t n = 0;
    collect_rules(ofproto, q, ofproto_tables_version(ofproto), &rules, &n);

    /* Sorting small records rather than the infos themselves (a whole
     * match each) keeps a large dump's sort cheap, and one info filled at
     * a time keeps its memory flat. */
    struct found_rule *found = n ? xmalloc(n * sizeof *found) : NULL;
    uint64_t prev_subtable = 0;
    for (size_t i = 0; i < n; i++) {
        /* The walk visits each subtable's rules together. */
        uint64_t subtable;
        found[i].rule = rules[i];
        cls_rule_get_rank(&rules[i]->cr, &subtable, &found[i].seq);
        found[i].group = (i && subtable == prev_subtable
                          && rules[i]->table_id == rules[i - 1]->table_id
                          ? found[i - 1].group : i);
        prev_subtable = subtable;
    }
    free(rules);
    /* A table of one priority (the common case of a large table) comes
     * out of the classifier already in order: check before sorting. */
    size_t in_order = 1;
    while (in_order < n && compare_found_rules(&found[in_order - 1],
                                               &found[in_order]) < 0) {
        in_order++;
    }
    if (in_order < n) {
        qsort(found, n, sizeof *found, compare_found_rules);
    }

    /* A large table's rules lie all over the heap, and a dump touches each
     * once: fetching a few rules (and their actions) ahead overlaps the
     * cache misses that otherwise take most of a dump's time. */
    enum { RULE_AHEAD = 8, ACTIONS_AHEAD = 4 };
    struct ofproto_rule_info info;
    for (size_t i = 0; i < n; i++) {
        if (i + RULE_AHEAD < n) {
            __builtin_prefetch(found[i + RULE_AHEAD].rule);
        }
        if (i + ACTIONS_AHEAD < n) {
            __builtin_prefetch(
                ovsrcu_get(&found[i + ACTIONS_AHEAD].rule->actions));
        }
        rule_to_info(found[i].rule, &info);
        cb(&info, aux);
    }
    free(found);
}

struct rule_info_array {
    struct ofproto_rule_info *infos;
    size_t n, allocated;
};

static void
copy_rule_info(const struct ofproto_rule_info *info, void *array_)
{
    struct rule_info_array *array = array_;
    if (array->n >= array->allocated) {
        array->infos = x2nrealloc(array->infos, &array->allocated,
                                  sizeof *array->infos);
    }
    struct ofproto_rule_info *copy = &array->infos[array->n++];
    *copy = *info;
    copy->ofpacts = (info->ofpacts_len
                     ? xmemdup(info->ofpacts, info->ofpacts_len) : NULL);
}

void
ofproto_query_rules(struct ofproto *ofproto,
                    const struct ofproto_flow_query *q,
                    struct ofproto_rule_info **infosp, size_t *np)
{
    struct rule_info_array array = { NULL, 0, 0 };
    ofproto_query_rules_each(ofproto, q, copy_rule_info, &array);
    *infosp = array.infos;
    *np = array.n;
}

void
ofproto_dump_rules(struct ofproto *ofproto, struct ofproto_rule_info **infosp,
                   size_t *np)
{
    struct ofproto_flow_query q;
    ofproto_flow_query_init(&q);
    q.with_internal = true;
    ofproto_query_rules(ofproto, &q, infosp, np);
}

void
ofproto_rule_infos_free(struct ofproto_rule_info *infos, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free((void *) infos[i].ofpacts);
    }
    free(infos);
}

/* Timeouts: only the rules that have one are looked at, and only when the
 * earliest is due. */
void
ofproto_expire_rules(struct ofproto *ofproto)
{
    long long int now = time_msec();
    if (ofproto->next_expiry != LLONG_MIN && now < ofproto->next_expiry) {
        return;
    }

    struct rule **expired = NULL;
    uint8_t *reasons = NULL;
    size_t n = 0, allocated = 0;
    long long int next = LLONG_MAX;
    struct rule *rule;
    LIST_FOR_EACH (rule, expirable_node, &ofproto->expirable) {
        long long int hard = LLONG_MAX, idle = LLONG_MAX;
        if (rule->hard_timeout) {
            hard = rule->modified + rule->hard_timeout * 1000LL;
        }
        if (rule->idle_timeout) {
            long long int used = atomic_load(&rule->used);
            used = MAX(used, rule->created);
            idle = used + rule->idle_timeout * 1000LL;
        }
        if (now >= MIN(hard, idle)) {
            if (n >= allocated) {
                expired = x2nrealloc(expired, &allocated, sizeof *expired);
                reasons = xrealloc(reasons, allocated);
            }
            reasons[n] = now >= hard ? OFPRR_HARD_TIMEOUT
                                     : OFPRR_IDLE_TIMEOUT;
            expired[n++] = rule;
        } else {
            next = MIN(next, MIN(hard, idle));
        }
    }
    if (n) {
        ovs_version_t version = ofproto_tables_version(ofproto) + 1;
        for (int i = 0; i < OFPROTO_N_TABLES; i++) {
            classifier_defer(&ofproto->tables[i].cls);
        }
        for (size_t i = 0; i < n; i++) {
            COVERAGE_INC(ofproto_rule_expired);
            rule_send_removed(ofproto, expired[i], reasons[i]);
            rule_delete(ofproto, expired[i], version);
        }
        rule_report_flush(ofproto);
        publish_version(ofproto, version);
    }
    free(expired);
    free(reasons);
    /* Idle deadlines move with traffic the revalidators push up: look
     * again at least once a second while any rule has one. */
    ofproto->next_expiry = ovs_list_is_empty(&ofproto->expirable)
                           ? LLONG_MAX : MIN(next, now + 1000);
}

void
ofproto_add_default_rule(struct ofproto *ofproto)
{
    uint64_t stub[64 / 8];
    struct ofpbuf ofpacts;
    ofpbuf_use_stub(&ofpacts, stub, sizeof stub);
    OFPACT_PUT(&ofpacts, OFPACT_OUTPUT, ofpact_output)->port = OFPP_NORMAL;

    struct ofputil_flow_mod fm;
    ofproto_flow_mod_init(&fm);
    fm.priority = 0;
    fm.ofpacts = ofpacts.data;
    fm.ofpacts_len = ofpacts.size;
    ofproto_flow_mod(ofproto, &fm);
    ofpbuf_uninit(&ofpacts);
}

void
ofproto_set_fail_open(struct ofproto *ofproto, bool fail_open)
{
    if (fail_open == (ofproto->fail_open_rule != NULL)) {
        return;
    }
    ovs_version_t version = ofproto_tables_version(ofproto) + 1;
    struct classifier *cls = &ofproto->tables[0].cls;
    classifier_defer(cls);
    if (fail_open) {
        uint64_t stub[64 / 8];
        struct ofpbuf ofpacts;
        ofpbuf_use_stub(&ofpacts, stub, sizeof stub);
        OFPACT_PUT(&ofpacts, OFPACT_OUTPUT, ofpact_output)->port
            = OFPP_NORMAL;
        struct ofputil_flow_mod fm;
        ofproto_flow_mod_init(&fm);
        fm.ofpacts = ofpacts.data;
        fm.ofpacts_len = ofpacts.size;
        struct rule *rule = rule_create(ofproto, &fm, 0);
        ofpbuf_uninit(&ofpacts);
        /* cls_rule_init() took OpenFlow's default priority; this one is
         * above every priority OpenFlow can give. */
        cls_rule_destroy(&rule->cr);
        cls_rule_init(&rule->cr, &fm.match.flow, &fm.match.wc,
                      OFPROTO_FAIL_OPEN_PRIORITY);
        rule->hidden = true;
        ovs_list_init(&rule->expirable_node);
        classifier_insert(cls, &rule->cr, version);
        ofproto->fail_open_rule = rule;
    } else {
        struct rule *rule = ofproto->fail_open_rule;
        ofproto->fail_open_rule = NULL;
        ofproto->n_rules++;     /* rule_delete() counts it out. */
        ofproto->tables[0].n_rules++;
        rule_delete(ofproto, rule, version);
    }
    publish_version(ofproto, version);
}

/* Internal rules.  They are not counted in n_rules (OpenFlow's tables
 * know nothing of them), so they leave without rule_retire(). */

ovs_version_t
ofproto_internal_begin(struct ofproto *ofproto)
{
    classifier_defer(&ofproto->tables[OFPROTO_INTERNAL_TABLE].cls);
    return ofproto_tables_version(ofproto) + 1;
}

struct rule *
ofproto_internal_rule_add(struct ofproto *ofproto, ovs_version_t version,
                          const struct match *match, uint16_t priority,
                          const struct ofpact *ofpacts, size_t ofpacts_len)
{
    struct ofputil_flow_mod fm;
    ofproto_flow_mod_init(&fm);
    fm.match = *match;
    fm.priority = priority;
    fm.ofpacts = ofpacts;
    fm.ofpacts_len = ofpacts_len;
    struct rule *rule = rule_create(ofproto, &fm, OFPROTO_INTERNAL_TABLE);
    rule->hidden = true;
    ovs_list_init(&rule->expirable_node);
    classifier_insert(&ofproto->tables[OFPROTO_INTERNAL_TABLE].cls,
                      &rule->cr, version);
    return rule;
}

void
ofproto_internal_rule_set_actions(struct rule *rule,
                                  const struct ofpact *ofpacts,
                                  size_t ofpacts_len)
{
    void *old = (void *) ovsrcu_get_protected(&rule->actions);
    ovsrcu_set(&rule->actions, rule_actions_create(ofpacts, ofpacts_len));
    ovsrcu_postpone(free, old);
}

void
ofproto_internal_rule_delete(struct ofproto *ofproto OVS_UNUSED,
                             ovs_version_t version, struct rule *rule)
{
    cls_rule_make_invisible_in_version(&rule->cr, version);
    rule->removed = true;
    ovsrcu_postpone(rule_remove_cb, rule);
}

void
ofproto_internal_commit(struct ofproto *ofproto, ovs_version_t version)
{
    publish_version(ofproto, version);
}

uint64_t
ofproto_rule_get_n_bytes(const struct rule *rule)
{
    return atomic_load_explicit(&((struct rule *) rule)->n_bytes,
                                memory_order_relaxed);
}

void
ofproto_flow_mod_init(struct ofputil_flow_mod *fm)
{
    memset(fm, 0, sizeof *fm);
    match_init_catchall(&fm->match);
    fm->priority = OFP_DEFAULT_PRIORITY;
    fm->command = OFPFC_ADD;
    fm->table_id = 0;
    fm->buffer_id = UINT32_MAX;
    fm->out_port = OFPP_NONE;
    fm->out_group = OFPG_ANY;
}
