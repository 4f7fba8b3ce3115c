/* ofproto-table-config: table_mod, table desc and the database's table
 * settings (see ofproto.h).  Main thread only; the miss config is an
 * atomic the translators read. */
#include <config.h>
#include "ofproto.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "classifier.h"
#include "coverage.h"
#include "ofp-fields.h"
#include "ofp-table.h"
#include "ofproto-private.h"
#include "seq.h"
#include "util.h"

/* Tables 0 to 253 exist for OpenFlow (features say 254). */
#define N_OPENFLOW_TABLES (OFPROTO_N_TABLES - 1)

COVERAGE_DEFINE(ofproto_table_status_dropped);

/* The share of T's flow limit still free, in percent (rounded down); an
 * unlimited table always has room. */
static uint8_t
oftable_vacancy(const struct oftable *t)
{
    return (t->max_flows == UINT_MAX || !t->max_flows ? 100
            : t->n_rules >= t->max_flows ? 0
            : (t->max_flows - t->n_rules) * 100ULL / t->max_flows);
}

static void
table_mod__(struct ofproto *ofproto, struct oftable *t,
            const struct ofputil_table_mod *tm)
{
    if (tm->miss != OFPUTIL_TABLE_MISS_DEFAULT
        && tm->miss != atomic_load(&t->miss_config)) {
        atomic_store(&t->miss_config, tm->miss);
        /* Datapath flows made from the old miss behaviour are wrong. */
        seq_change(ofproto->backer->reval_seq);
    }
    if (tm->has_flags14) {
        t->eviction = tm->eviction;
        t->vacancy_events = tm->vacancy_events;
        t->vacancy_down = tm->vacancy_down;
        t->vacancy_up = tm->vacancy_up;
        t->vacancy_next = (oftable_vacancy(t) >= t->vacancy_up
                           ? OFPTR_VACANCY_DOWN : OFPTR_VACANCY_UP);
        ofproto_table_evict_excess(ofproto, t - ofproto->tables);
    }
}

enum ofperr
ofproto_table_mod(struct ofproto *ofproto, const struct ofputil_table_mod *tm)
{
    /* An eviction property's flags are taken and ignored, as 3.1 does:
     * eviction follows the switch's own policy. */
    if (tm->table_id == N_OPENFLOW_TABLES) {
        /* The last table exists, but not for OpenFlow (as 3.1's hidden
         * one), so it may not be changed. */
        return OFPERR_OFPTMFC_EPERM;
    }
    if (tm->table_id == OFPTT_ALL) {
        for (int i = 0; i < N_OPENFLOW_TABLES; i++) {
            table_mod__(ofproto, &ofproto->tables[i], tm);
        }
    } else {
        table_mod__(ofproto, &ofproto->tables[tm->table_id], tm);
    }
    return 0;
}

void
ofproto_get_table_desc(const struct ofproto *ofproto, uint8_t table_id,
                       struct ofputil_table_desc *td)
{
    const struct oftable *t = &ofproto->tables[table_id];
    *td = (struct ofputil_table_desc) {
        .table_id = table_id,
        .eviction = t->eviction,
        .eviction_flags = OFPUTIL_EVICTION_FLAGS_DEFAULT,
        .vacancy_events = t->vacancy_events,
        .vacancy_down = t->vacancy_down,
        .vacancy_up = t->vacancy_up,
        .vacancy = oftable_vacancy(t),
    };
}

void
ofproto_check_vacancy(struct ofproto *ofproto)
{
    for (int i = 0; i < N_OPENFLOW_TABLES; i++) {
        struct oftable *t = &ofproto->tables[i];
        if (!t->vacancy_events) {
            continue;
        }
        uint8_t vacancy = oftable_vacancy(t);
        uint8_t reason;
        if (t->vacancy_next == OFPTR_VACANCY_DOWN
            && vacancy < t->vacancy_down) {
            reason = OFPTR_VACANCY_DOWN;
            t->vacancy_next = OFPTR_VACANCY_UP;
        } else if (t->vacancy_next == OFPTR_VACANCY_UP
                   && vacancy > t->vacancy_up) {
            reason = OFPTR_VACANCY_UP;
            t->vacancy_next = OFPTR_VACANCY_DOWN;
        } else {
            continue;
        }
        /* Bounded as the other events: nobody may be draining them. */
        if (ovs_list_size(&ofproto->table_status) >= OFPROTO_MAX_EVENTS) {
            COVERAGE_INC(ofproto_table_status_dropped);
            continue;
        }
        struct ofproto_table_status *ts = xzalloc(sizeof *ts);
        ts->ts.reason = reason;
        ofproto_get_table_desc(ofproto, i, &ts->ts.desc);
        ovs_list_push_back(&ofproto->table_status, &ts->list_node);
        seq_change(ofproto->events_seq);
    }
}

bool
ofproto_pop_table_status(struct ofproto *ofproto,
                         struct ofproto_table_status *out)
{
    if (ovs_list_is_empty(&ofproto->table_status)) {
        return false;
    }
    struct ofproto_table_status *ts = CONTAINER_OF(
        ovs_list_pop_front(&ofproto->table_status),
        struct ofproto_table_status, list_node);
    *out = *ts;
    free(ts);
    return true;
}

static bool
same_string(const char *a, const char *b)
{
    return a ? b && !strcmp(a, b) : !b;
}

void
ofproto_configure_table(struct ofproto *ofproto, uint8_t table_id,
                        const struct ofproto_table_settings *s)
{
    struct oftable *t = &ofproto->tables[table_id];
    if (!same_string(t->name, s->name)) {
        free(t->name);
        t->name = s->name ? xstrdup(s->name) : NULL;
        if (t->name) {
            /* The database's name replaces OpenFlow's for good, as in
             * 3.1. */
            free(t->of_name);
            t->of_name = NULL;
        }
    }
    t->max_flows = s->max_flows;
    t->evict_config = s->enable_eviction;
    if (t->n_groups != s->n_groups
        || (s->n_groups
            && memcmp(t->groups, s->groups, s->n_groups * sizeof *s->groups))) {
        free(t->groups);
        t->groups = (s->n_groups
                     ? xmemdup(s->groups, s->n_groups * sizeof *s->groups)
                     : NULL);
        t->n_groups = s->n_groups;
    }
    if (s->use_default_prefixes) {
        static const enum cls_prefix_field defaults[] = {
            CLS_PREFIX_NW_DST, CLS_PREFIX_NW_SRC,
        };
        classifier_set_prefix_fields(&t->cls, defaults,
                                     ARRAY_SIZE(defaults));
    } else {
        classifier_set_prefix_fields(&t->cls, s->prefixes, s->n_prefixes);
    }
    ofproto_table_evict_excess(ofproto, table_id);
}

const char *
ofproto_get_table_name(const struct ofproto *ofproto, uint8_t table_id)
{
    const struct oftable *t = &ofproto->tables[table_id];
    return t->name ? t->name : t->of_name;
}

bool
ofproto_may_set_table_name(const struct ofproto *ofproto, uint8_t table_id,
                           const char *name)
{
    const struct oftable *t = &ofproto->tables[table_id];
    return !t->name || !strcmp(t->name, name);
}

void
ofproto_set_table_name(struct ofproto *ofproto, uint8_t table_id,
                       const char *name)
{
    struct oftable *t = &ofproto->tables[table_id];
    if (!t->name) {
        free(t->of_name);
        t->of_name = name[0] ? xstrdup(name) : NULL;
    }
}

unsigned int
ofproto_get_table_max_flows(const struct ofproto *ofproto, uint8_t table_id)
{
    return ofproto->tables[table_id].max_flows;
}
