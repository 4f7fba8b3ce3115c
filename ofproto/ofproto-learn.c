/* ofproto-learn: the flows learn actions install, and delete_learned.
 *
 * Translation may run in any thread, but only the main thread writes rules
 * (ofproto-private.h).  So a translation that runs a learn action with
 * side effects on builds the learned flow_mod at once (learn_execute())
 * and queues it here under 'learn_mutex'; the main thread applies the
 * queue from ofproto_run(), woken through 'events_seq'.  Applying a
 * learned flow that is already there with the same actions, cookie,
 * timeouts and flags only restarts its hard timeout, as 3.1's refresh
 * does; otherwise the flow is added, replacing a rule with the same match
 * and priority (whose counters it keeps).
 *
 * delete_learned: when a rule with such a learn action goes (deleted,
 * expired or replaced), and no rule left has a learn with delete_learned
 * for the same table and cookie, the flows of that table with that cookie
 * are deleted, as in 3.1. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "learn.h"
#include "ofp-actions.h"
#include "ofp-flow.h"
#include "ofpbuf.h"
#include "ofproto-private.h"
#include "seq.h"
#include "timeval.h"
#include "util.h"

COVERAGE_DEFINE(learn_queued);
COVERAGE_DEFINE(learn_dropped);
COVERAGE_DEFINE(learn_refreshed);
COVERAGE_DEFINE(learn_added);
COVERAGE_DEFINE(learn_over_limit);
COVERAGE_DEFINE(learn_unlearned);

struct learned_flow {
    struct ovs_list list_node;  /* In ofproto->learned. */
    struct ofputil_flow_mod fm; /* 'ofpacts' points into 'ofpacts'. */
    struct ofpbuf ofpacts;
    uint32_t limit;             /* The learn's; 0: none. */
};

/* A table and cookie whose learned flows are to go (main thread). */
struct unlearn {
    struct ovs_list list_node;  /* In ofproto->unlearn. */
    uint8_t table_id;
    ovs_be64 cookie;
};

void
ofproto_learn_init(struct ofproto *ofproto)
{
    ovs_mutex_init(&ofproto->learn_mutex);
    ovs_list_init(&ofproto->learned);
    ofproto->n_learned = 0;
    ovs_list_init(&ofproto->unlearn);
}

static void
learned_flow_free(struct learned_flow *lf)
{
    ofpbuf_uninit(&lf->ofpacts);
    free(lf);
}

void
ofproto_learn_destroy(struct ofproto *ofproto)
{
    struct learned_flow *lf;
    LIST_FOR_EACH_POP (lf, list_node, &ofproto->learned) {
        learned_flow_free(lf);
    }
    struct unlearn *u;
    LIST_FOR_EACH_POP (u, list_node, &ofproto->unlearn) {
        free(u);
    }
    ovs_mutex_destroy(&ofproto->learn_mutex);
}

/* The visible rule of TABLE_ID with exactly FM's match and priority. */
static struct rule *
find_rule_exactly(struct ofproto *ofproto, const struct ofputil_flow_mod *fm)
{
    struct cls_rule target;
    cls_rule_init(&target, &fm->match.flow, &fm->match.wc, fm->priority);
    const struct cls_rule *cr = classifier_find_rule_exactly(
        &ofproto->tables[fm->table_id].cls, &target,
        ofproto_tables_version(ofproto));
    cls_rule_destroy(&target);
    struct rule *rule = cr ? CONTAINER_OF(cr, struct rule, cr) : NULL;
    return rule && !rule->removed && !rule->hidden ? rule : NULL;
}

/* Calls CB for every visible rule of table TABLE_ID, or of every table if
 * TABLE_ID is OFPTT_ALL, until it returns true. */
static bool
any_rule(struct ofproto *ofproto, uint8_t table_id,
         bool (*cb)(const struct rule *, const void *aux), const void *aux)
{
    struct match catchall;
    match_init_catchall(&catchall);
    struct cls_rule target;
    cls_rule_init(&target, &catchall.flow, &catchall.wc, 0);
    ovs_version_t version = ofproto_tables_version(ofproto);
    int first = table_id == OFPTT_ALL ? 0 : table_id;
    int last = table_id == OFPTT_ALL ? OFPROTO_N_TABLES - 1 : table_id;
    bool found = false;
    for (int t = first; t <= last && !found; t++) {
        const struct cls_rule *cr;
        CLS_FOR_EACH_TARGET (cr, &ofproto->tables[t].cls, &target,
                             CLS_ITER_LOOSE, version) {
            const struct rule *rule = CONTAINER_OF(cr, struct rule, cr);
            if (!rule->removed && !rule->hidden && cb(rule, aux)) {
                found = true;
                break;
            }
        }
    }
    cls_rule_destroy(&target);
    return found;
}

struct cookie_count {
    ovs_be64 cookie;
    uint32_t limit;
    uint32_t *n;
};

static bool
count_cookie(const struct rule *rule, const void *aux_)
{
    const struct cookie_count *aux = aux_;
    return rule->cookie == aux->cookie && ++*aux->n >= aux->limit;
}

/* Any thread (translators reach RULE through the classifier). */
static bool
same_learned_flow(const struct rule *rule, const struct ofputil_flow_mod *fm)
{
    const struct rule_actions *a = ovsrcu_get(&rule->actions);
    return (rule->cookie == fm->new_cookie
            && rule->idle_timeout == fm->idle_timeout
            && rule->hard_timeout == fm->hard_timeout
            && rule->flags == fm->flags
            && ofpact_list_equal(a->ofpacts, a->ofpacts_len,
                                 fm->ofpacts, fm->ofpacts_len));
}

/* Any thread.  The rule of FM's table with exactly FM's match and priority
 * that a lookup at the current version sees (translators may iterate the
 * classifier; a rule's cookie, timeouts, flags and actions pointer do not
 * change once it is published, a modification being a new rule). */
static const struct rule *
find_visible_rule_exactly(struct ofproto *ofproto,
                          const struct ofputil_flow_mod *fm)
{
    struct cls_rule target;
    cls_rule_init(&target, &fm->match.flow, &fm->match.wc, fm->priority);
    const struct cls_rule *cr = classifier_find_rule_exactly(
        &ofproto->tables[fm->table_id].cls, &target,
        ofproto_tables_version(ofproto));
    cls_rule_destroy(&target);
    const struct rule *rule = cr ? CONTAINER_OF(cr, struct rule, cr) : NULL;
    return rule && !rule->hidden ? rule : NULL;
}

/* Any thread.  Whether TABLE_ID already holds LIMIT flows with COOKIE,
 * counting the flows queued for it and not yet applied. */
static bool
table_at_limit(struct ofproto *ofproto, uint8_t table_id, ovs_be64 cookie,
               uint32_t limit)
{
    uint32_t n = 0;
    ovs_mutex_lock(&ofproto->learn_mutex);
    const struct learned_flow *queued;
    LIST_FOR_EACH (queued, list_node, &ofproto->learned) {
        if (queued->fm.table_id == table_id
            && queued->fm.new_cookie == cookie) {
            n++;
        }
    }
    ovs_mutex_unlock(&ofproto->learn_mutex);
    if (n >= limit) {
        return true;
    }

    struct match catchall;
    match_init_catchall(&catchall);
    struct cls_rule target;
    cls_rule_init(&target, &catchall.flow, &catchall.wc, 0);
    const struct cls_rule *cr;
    CLS_FOR_EACH_TARGET (cr, &ofproto->tables[table_id].cls, &target,
                         CLS_ITER_LOOSE, ofproto_tables_version(ofproto)) {
        const struct rule *rule = CONTAINER_OF(cr, struct rule, cr);
        if (!rule->hidden && rule->cookie == cookie && ++n >= limit) {
            break;
        }
    }
    cls_rule_destroy(&target);
    return n >= limit;
}

bool
ofproto_learn(struct ofproto *ofproto, const struct ofpact_learn *learn,
              const struct flow *flow, bool side_effects)
{
    struct learned_flow *lf = xzalloc(sizeof *lf);
    ofpbuf_init(&lf->ofpacts, 64);
    learn_execute(learn, flow, &lf->fm, &lf->ofpacts);
    /* The buffer may have moved while the actions were appended. */
    lf->fm.ofpacts = lf->ofpacts.data;
    lf->limit = learn->limit;

    /* As in 3.1, learning a flow that is already there (same match,
     * priority, cookie, timeouts, flags and actions) succeeds whatever the
     * limit; a new one fails once the table has LIMIT flows with its
     * cookie. */
    bool learned = true;
    if (learn->limit) {
        const struct rule *rule = find_visible_rule_exactly(ofproto,
                                                            &lf->fm);
        if (!rule || !same_learned_flow(rule, &lf->fm)) {
            learned = !table_at_limit(ofproto, lf->fm.table_id,
                                      lf->fm.new_cookie, learn->limit);
        }
    }
    if (!learned) {
        COVERAGE_INC(learn_over_limit);
    }
    if (!learned || !side_effects) {
        learned_flow_free(lf);
        return learned;
    }

    ovs_mutex_lock(&ofproto->learn_mutex);
    bool full = ofproto->n_learned >= OFPROTO_MAX_EVENTS;
    if (!full) {
        ovs_list_push_back(&ofproto->learned, &lf->list_node);
        ofproto->n_learned++;
    }
    ovs_mutex_unlock(&ofproto->learn_mutex);
    if (full) {
        COVERAGE_INC(learn_dropped);
        learned_flow_free(lf);
        return false;
    }
    COVERAGE_INC(learn_queued);
    seq_change(ofproto->events_seq);
    return true;
}

static void
apply_learned_flow(struct ofproto *ofproto, struct learned_flow *lf)
{
    struct ofputil_flow_mod *fm = &lf->fm;
    struct rule *rule = find_rule_exactly(ofproto, fm);
    if (rule && same_learned_flow(rule, fm)) {
        /* Learning it again keeps it: its hard timeout starts over. */
        COVERAGE_INC(learn_refreshed);
        rule->modified = time_msec();
        return;
    }
    if (!rule && lf->limit) {
        /* The translator checked, but flows queued by other threads in
         * between may have filled the table since: it never goes over. */
        uint32_t n = 0;
        struct cookie_count aux = { fm->new_cookie, lf->limit, &n };
        if (any_rule(ofproto, fm->table_id, count_cookie, &aux)) {
            COVERAGE_INC(learn_over_limit);
            return;
        }
    }
    COVERAGE_INC(learn_added);
    fm->command = OFPFC_ADD;
    ofproto_flow_mod(ofproto, fm);
}

void
ofproto_run_learn(struct ofproto *ofproto)
{
    struct ovs_list queue;
    ovs_list_init(&queue);
    ovs_mutex_lock(&ofproto->learn_mutex);
    ovs_list_push_back_all(&queue, &ofproto->learned);
    ofproto->n_learned = 0;
    ovs_mutex_unlock(&ofproto->learn_mutex);

    struct learned_flow *lf;
    LIST_FOR_EACH_POP (lf, list_node, &queue) {
        apply_learned_flow(ofproto, lf);
        learned_flow_free(lf);
    }
}

/* The learn action with delete_learned in RULE's actions, if any. */
static const struct ofpact_learn *
rule_deleting_learn(const struct rule *rule, const struct ofpact_learn *like)
{
    const struct rule_actions *a = ovsrcu_get_protected(&rule->actions);
    const struct ofpact *p;
    OFPACT_FOR_EACH (p, a->ofpacts, a->ofpacts_len) {
        if (p->type == OFPACT_LEARN) {
            const struct ofpact_learn *learn = (const void *) p;
            if (learn->flags & NX_LEARN_F_DELETE_LEARNED
                && (!like || (learn->table_id == like->table_id
                              && learn->cookie == like->cookie))) {
                return learn;
            }
        }
    }
    return NULL;
}

void
ofproto_learn_rule_removed(struct ofproto *ofproto, const struct rule *rule)
{
    const struct ofpact *p;
    const struct rule_actions *a = ovsrcu_get_protected(&rule->actions);
    OFPACT_FOR_EACH (p, a->ofpacts, a->ofpacts_len) {
        const struct ofpact_learn *learn = (const void *) p;
        if (p->type != OFPACT_LEARN
            || !(learn->flags & NX_LEARN_F_DELETE_LEARNED)) {
            continue;
        }
        struct unlearn *u = xmalloc(sizeof *u);
        u->table_id = learn->table_id;
        u->cookie = learn->cookie;
        ovs_list_push_back(&ofproto->unlearn, &u->list_node);
    }
}

static bool
has_deleting_learn(const struct rule *rule, const void *like)
{
    return rule_deleting_learn(rule, like) != NULL;
}

void
ofproto_unlearn(struct ofproto *ofproto)
{
    struct unlearn *u;
    LIST_FOR_EACH_POP (u, list_node, &ofproto->unlearn) {
        struct ofpact_learn like = {
            .table_id = u->table_id,
            .cookie = u->cookie,
        };
        if (!any_rule(ofproto, OFPTT_ALL, has_deleting_learn, &like)) {
            COVERAGE_INC(learn_unlearned);
            struct ofputil_flow_mod fm;
            ofproto_flow_mod_init(&fm);
            fm.command = OFPFC_DELETE;
            fm.table_id = u->table_id;
            fm.cookie = u->cookie;
            fm.cookie_mask = OVS_BE64_MAX;
            fm.new_cookie = OVS_BE64_MAX;
            ofproto_flow_mod(ofproto, &fm);
        }
        free(u);
    }
}
