#include <config.h>
#include "bond-rules.h"

#include <stdlib.h>
#include <string.h>
#include "match.h"
#include "ofp-actions.h"
#include "ofpbuf.h"
#include "ofproto-private.h"
#include "recirc.h"
#include "util.h"
#include "xlate.h"

/* 3.1's priority for the rules after a recirculation. */
#define BOND_RULE_PRIORITY 20

struct bond_rules {
    struct ofproto *ofproto;
    uint32_t recirc_id;
    bool synced;                        /* 'seq' was applied once. */
    uint64_t seq;                       /* The bucket map applied. */
    struct rule *rules[BOND_N_BUCKETS]; /* NULL: no rule. */
    uint32_t ports[BOND_N_BUCKETS];     /* Each rule's output. */
    uint64_t seen_bytes[BOND_N_BUCKETS];/* Counters as last read. */
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

bool
bond_rules_update(struct bond_rules *br, uint64_t seq,
                  const uint32_t ports[BOND_N_BUCKETS])
{
    if (br->synced && seq == br->seq) {
        return false;
    }
    br->synced = true;
    br->seq = seq;

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

void
bond_rules_take_deltas(struct bond_rules *br, uint64_t delta[BOND_N_BUCKETS])
{
    for (int i = 0; i < BOND_N_BUCKETS; i++) {
        delta[i] = 0;
        if (br->rules[i]) {
            uint64_t n = ofproto_rule_get_n_bytes(br->rules[i]);
            delta[i] = n - br->seen_bytes[i];
            br->seen_bytes[i] = n;
        }
    }
}
