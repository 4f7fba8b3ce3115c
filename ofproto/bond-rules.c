#include <config.h>
#include "bond-rules.h"

#include <stdlib.h>
#include <string.h>
#include "dpif.h"
#include "match.h"
#include "ofp-actions.h"
#include "ofpbuf.h"
#include "ofproto-private.h"
#include "recirc.h"
#include "util.h"
#include "vlog.h"
#include "xlate.h"

VLOG_DEFINE_THIS_MODULE(bond_rules);

/* 3.1's priority for the rules after a recirculation. */
#define BOND_RULE_PRIORITY 20

struct bond_rules {
    struct ofproto *ofproto;
    uint32_t recirc_id;
    bool synced;                        /* 'seq' was applied once. */
    bool lb_output;                     /* The datapath holds the map. */
    uint64_t seq;                       /* The bucket map applied. */
    struct rule *rules[BOND_N_BUCKETS]; /* NULL: no rule. */
    uint32_t ports[BOND_N_BUCKETS];     /* Each rule's output. */
    uint64_t seen_bytes[BOND_N_BUCKETS];/* Counters (the rules' or the
                                         * datapath's) as last read. */
};

struct bond_rules *
bond_rules_create(struct ofproto *ofproto, const char *bond_name)
{
    struct bond_rules *br = xzalloc(sizeof *br);
    br->ofproto = ofproto;
    br->recirc_id = xlate_alloc_internal_recirc_id(ofproto, bond_name);
    return br;
}

void
bond_rules_destroy(struct bond_rules *br)
{
    if (!br) {
        return;
    }
    ovs_version_t version = ofproto_internal_begin(br->ofproto);
    for (int i = 0; i < BOND_N_BUCKETS; i++) {
        if (br->rules[i]) {
            ofproto_internal_rule_delete(br->ofproto, version, br->rules[i]);
        }
    }
    ofproto_internal_commit(br->ofproto, version);
    if (br->lb_output) {
        dpif_bond_del(br->ofproto->backer->dpif, br->recirc_id);
    }
    recirc_unref_id(br->recirc_id);
    free(br);
}

uint32_t
bond_rules_recirc_id(const struct bond_rules *br)
{
    return br->recirc_id;
}

static void
put_output(struct ofpbuf *ofpacts, uint32_t port)
{
    ofpbuf_clear(ofpacts);
    struct ofpact_output *out = OFPACT_PUT(ofpacts, OFPACT_OUTPUT,
                                           ofpact_output);
    out->port = port;
    out->max_len = 0;
}

/* Makes each bucket's rule output to PORTS[i] (OFPP_NONE: no rule).
 * Returns true if any rule changed. */
static bool
sync_rules(struct bond_rules *br, const uint32_t ports[BOND_N_BUCKETS])
{
    uint64_t stub[64 / 8];
    struct ofpbuf ofpacts;
    ofpbuf_use_stub(&ofpacts, stub, sizeof stub);
    ovs_version_t version = 0;
    bool versioned = false;     /* Rules added or deleted: commit. */
    bool changed = false;
    for (int i = 0; i < BOND_N_BUCKETS; i++) {
        uint32_t port = ports[i];
        struct rule *rule = br->rules[i];
        if (rule ? port == br->ports[i] : port == OFPP_NONE) {
            continue;
        }
        changed = true;
        if (rule && port != OFPP_NONE) {
            /* The bucket moved: the same rule outputs elsewhere, its
             * counters (the bucket's load) kept. */
            put_output(&ofpacts, port);
            ofproto_internal_rule_set_actions(rule, ofpacts.data,
                                              ofpacts.size);
            br->ports[i] = port;
            continue;
        }
        if (!versioned) {
            version = ofproto_internal_begin(br->ofproto);
            versioned = true;
        }
        if (rule) {
            ofproto_internal_rule_delete(br->ofproto, version, rule);
            br->rules[i] = NULL;
            br->seen_bytes[i] = 0;
        } else if (port != OFPP_NONE) {
            struct match match;
            match_init_catchall(&match);
            match.flow.recirc_id = br->recirc_id;
            match.wc.masks.recirc_id = UINT32_MAX;
            match.flow.dp_hash = i;
            match.wc.masks.dp_hash = BOND_N_BUCKETS - 1;
            put_output(&ofpacts, port);
            br->rules[i] = ofproto_internal_rule_add(
                br->ofproto, version, &match, BOND_RULE_PRIORITY,
                ofpacts.data, ofpacts.size);
            br->seen_bytes[i] = 0;
        }
        br->ports[i] = port;
    }
    if (versioned) {
        ofproto_internal_commit(br->ofproto, version);
    }
    ofpbuf_uninit(&ofpacts);
    return changed;
}

bool
bond_rules_update(struct bond_rules *br, uint64_t seq,
                  const uint32_t ports[BOND_N_BUCKETS],
                  const uint32_t odp_ports[BOND_N_BUCKETS], bool lb_output)
{
    if (br->synced && seq == br->seq && lb_output == br->lb_output) {
        return false;
    }
    bool mode_changed = !br->synced || lb_output != br->lb_output;
    br->synced = true;
    br->seq = seq;
    if (mode_changed) {
        /* The counters now come from elsewhere. */
        memset(br->seen_bytes, 0, sizeof br->seen_bytes);
    }

    struct dpif *dpif = br->ofproto->backer->dpif;
    if (lb_output) {
        /* No rules: lb_output does not come back to the tables. */
        uint32_t no_ports[BOND_N_BUCKETS];
        for (int i = 0; i < BOND_N_BUCKETS; i++) {
            no_ports[i] = OFPP_NONE;
        }
        sync_rules(br, no_ports);
        int error = dpif_bond_add(dpif, br->recirc_id, odp_ports);
        if (error) {
            VLOG_WARN("bond with recirculation id %"PRIu32": the datapath "
                      "refused its buckets (%s)", br->recirc_id,
                      ovs_strerror(error));
        }
        br->lb_output = true;
        return true;
    }
    if (br->lb_output) {
        dpif_bond_del(dpif, br->recirc_id);
        br->lb_output = false;
    }
    return sync_rules(br, ports) || mode_changed;
}

void
bond_rules_take_deltas(struct bond_rules *br, uint64_t delta[BOND_N_BUCKETS])
{
    if (br->lb_output) {
        uint64_t n[BOND_N_BUCKETS];
        dpif_bond_stats_get(br->ofproto->backer->dpif, br->recirc_id, n);
        for (int i = 0; i < BOND_N_BUCKETS; i++) {
            delta[i] = n[i] - br->seen_bytes[i];
            br->seen_bytes[i] = n[i];
        }
        return;
    }
    for (int i = 0; i < BOND_N_BUCKETS; i++) {
        delta[i] = 0;
        if (br->rules[i]) {
            uint64_t n = ofproto_rule_get_n_bytes(br->rules[i]);
            delta[i] = n - br->seen_bytes[i];
            br->seen_bytes[i] = n;
        }
    }
}
