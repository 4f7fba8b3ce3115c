#include <config.h>
#include "classifier.h"

#include <string.h>
#include <arpa/inet.h>
#include "classifier-private.h"
#include "util.h"

/* classifier_lookup(): tuple space search with staged lookup and wildcard
 * tracking, the prefix tries, and the bulk pruning of grouped subtables
 * (see classifier.h and docs/classifier.md).  Lookups only read; what they
 * read is published by the writer with release stores and freed after a
 * grace period. */

struct trie_ctx {
    bool done;
    unsigned int maskbits;
    struct prefix_plens plens;
};

/* ORs into WC the subtable's mask words at positions [0, END). */
static inline void
fold_mask(uint64_t *wc, const struct cls_subtable *st, unsigned int end)
{
    for (unsigned int i = 0; i < end; i++) {
        wc[st->word_idx[i]] |= st->word_mask[i];
    }
}

/* ORs the first N_BITS bits of prefix field D into WC. */
static void
wc_set_prefix(struct flow_wildcards *wc, const struct cls_prefix_field_def *d,
              unsigned int n_bits)
{
    uint8_t *p = (uint8_t *) &wc->masks + d->ofs;
    unsigned int full = n_bits / 8;
    memset(p, 0xff, full);
    if (n_bits % 8) {
        p[full] |= (uint8_t) (0xff << (8 - n_bits % 8));
    }
}

/* Looks FLOW up in trie I of TRIES, once per lookup. */
static inline struct trie_ctx *
trie_ctx_get(const struct cls_tries *tries, unsigned int i,
             struct trie_ctx ctx[], const struct flow *flow)
{
    if (!ctx[i].done) {
        const struct cls_trie *t = &tries->tries[i];
        const struct cls_prefix_field_def *d = &cls_prefix_field_defs[t->field];
        uint32_t key[4];
        prefix_trie_key_from_be(key, (const uint8_t *) flow + d->ofs,
                                d->n_bytes);
        ctx[i].maskbits = prefix_trie_lookup(&t->trie, key, d->n_bytes * 8,
                                             &ctx[i].plens);
        ctx[i].done = true;
    }
    return &ctx[i];
}

/* Whether a trie on one of FIELDS rules ST out in STAGE; if so, ORs into
 * WC the address bits that showed it.  A subtable whose prefix length L on
 * the field is not among the lengths matching the packet cannot match, and
 * the trie's first maskbits bits say so (see prefix-trie.h).  The first
 * min(L, maskbits) would do too, but maskbits is the same for every
 * subtable the trie rules out, which keeps the number of distinct
 * megaflow masks down. */
static inline bool
tries_rule_out(const struct cls_subtable *st, const struct cls_stage *stage,
               const struct cls_tries *tries, uint8_t fields,
               struct trie_ctx ctx[], const struct flow *flow,
               struct flow_wildcards *wc)
{
    if (!(stage->trie_fields & fields)) {
        return false;
    }
    for (unsigned int i = 0; i < tries->n; i++) {
        const struct cls_trie *t = &tries->tries[i];
        unsigned int plen = st->plen[t->field];
        if (!plen || !(stage->trie_fields & fields & (1u << t->field))) {
            continue;
        }
        const struct trie_ctx *c = trie_ctx_get(tries, i, ctx, flow);
        if (!prefix_plens_has(&c->plens, plen)) {
            wc_set_prefix(wc, &cls_prefix_field_defs[t->field],
                          c->maskbits);
            return true;
        }
    }
    return false;
}

static inline bool
match_values_equal(const struct cls_subtable *st, const uint64_t *fw,
                   const struct cls_match *m)
{
    for (unsigned int i = 0; i < st->n_words; i++) {
        if ((fw[st->word_idx[i]] & st->word_mask[i]) != m->values[i]) {
            return false;
        }
    }
    return true;
}

/* The first rule visible at VERSION in the list whose match equals FLOW's
 * under ST's mask, given the hash of those words. */
static inline const struct cls_match *
find_visible(const struct cls_subtable *st, const uint64_t *fw,
             uint32_t hash, ovs_version_t version)
{
    const struct cls_rtable *t = ovsrcu_get(&st->rules);
    for (size_t i = hash & t->mask;; i = (i + 1) & t->mask) {
        const struct cls_match *head = ovsrcu_get(&t->slots[i].head);
        if (!head) {
            return NULL;
        }
        if (head != CLS_TOMBSTONE
            && atomic_load_explicit(&t->slots[i].hash,
                                    memory_order_relaxed) == hash
            && match_values_equal(st, fw, head)) {
            for (const struct cls_match *m = head; m;
                 m = ovsrcu_get(&m->next)) {
                if (cls_match_visible(m, version)) {
                    return m;
                }
            }
            return NULL;
        }
    }
}

static inline uint64_t
hash_range(const struct cls_subtable *st, const uint64_t *fw,
           unsigned int start, unsigned int end, uint64_t h)
{
    for (unsigned int w = start; w < end; w++) {
        h = cls_hash_add(h, fw[st->word_idx[w]] & st->word_mask[w]);
    }
    return h;
}

static const struct cls_match *
find_match(const struct cls_subtable *st, const struct flow *flow,
           ovs_version_t version)
{
    const uint64_t *fw = flow_u64s_const(flow);
    uint32_t hash = cls_hash_finish(hash_range(st, fw, 0, st->n_words, 0),
                                    st->n_words);
    return find_visible(st, fw, hash, version);
}

/* Staged lookup in ST, from stage FIRST on (the stages before it are known
 * to match, H being the running hash of their words), consulting the tries
 * on TRIE_FIELDS. */
static const struct cls_match *
find_match_wc(const struct cls_subtable *st, unsigned int first, uint64_t h,
              const struct flow *flow, ovs_version_t version,
              const struct cls_tries *tries, uint8_t trie_fields,
              struct trie_ctx ctx[], struct flow_wildcards *wc)
{
    const uint64_t *fw = flow_u64s_const(flow);
    uint64_t *ww = flow_u64s(&wc->masks);
    unsigned int last = st->n_stages - 1;

    for (unsigned int s = first;; s++) {
        const struct cls_stage *stage = &st->stages[s];
        if (tries && tries_rule_out(st, stage, tries, trie_fields, ctx, flow,
                                    wc)) {
            fold_mask(ww, st, stage->start);
            return NULL;
        }
        h = hash_range(st, fw, stage->start, stage->end, h);
        if (s == last) {
            break;
        }
        if (!cls_stage_contains(stage, cls_hash_finish(h, stage->end))) {
            fold_mask(ww, st, stage->end);
            return NULL;
        }
    }

    const struct cls_match *m = find_visible(st, fw,
                                             cls_hash_finish(h, st->n_words),
                                             version);
    if (!m && st->ports_plen) {
        /* Only the port bits that the rules' ports disagree on. */
        const struct cls_stage *stage = &st->stages[last];
        uint32_t key;
        struct prefix_plens plens;
        prefix_trie_key_from_be(&key, (const uint8_t *) flow + PORTS_OFS, 4);
        key &= st->ports_mask;
        unsigned int mbits = prefix_trie_lookup(&st->ports_trie, &key,
                                                st->ports_plen, &plens);
        uint32_t bits = htonl(st->ports_mask
                              & (mbits ? UINT32_MAX << (32 - mbits) : 0));
        uint32_t cur;
        memcpy(&cur, (uint8_t *) &wc->masks + PORTS_OFS, 4);
        cur |= bits;
        memcpy((uint8_t *) &wc->masks + PORTS_OFS, &cur, 4);
        fold_mask(ww, st, stage->start);
        return NULL;
    }
    fold_mask(ww, st, st->n_words);
    return m;
}

/* One subtable, from its first stage, any tries. */
static inline const struct cls_match *
visit_subtable(const struct cls_subtable *st, const struct flow *flow,
               ovs_version_t version, const struct cls_tries *tries,
               uint8_t trie_fields, struct trie_ctx ctx[],
               struct flow_wildcards *wc)
{
    if (!st->n_stages) {
        return find_visible(st, flow_u64s_const(flow), cls_hash_finish(0, 0),
                            version);
    } else if (wc) {
        return find_match_wc(st, 0, 0, flow, version, tries, trie_fields,
                             ctx, wc);
    } else {
        return find_match(st, flow, version);
    }
}

/* The lookup that visits every subtable in turn until none can do better:
 * without wildcards, and for very many subtables. */
static const struct cls_match *
lookup_each(const struct cls_subtable_vec *vec, ovs_version_t version,
            const struct flow *flow, struct flow_wildcards *wc)
{
    const struct cls_tries *tries = wc ? vec->tries : NULL;
    struct trie_ctx ctx[CLS_MAX_TRIES];
    memset(ctx, 0, sizeof ctx);
    const struct cls_match *best = NULL;
    for (size_t i = 0; i < vec->n; i++) {
        const struct cls_subtable_entry *e = &vec->entries[i];
        /* At equal priority an earlier rule may still be ahead. */
        if (best && e->max_priority < best->priority) {
            break;
        }
        const struct cls_match *m = visit_subtable(
            e->subtable, flow, version, tries, tries ? tries->fields : 0,
            ctx, wc);
        if (m && (!best || cls_match_outranks(m, best))) {
            best = m;
        }
    }
    return best;
}

#define MAX_MAP_WORDS 64        /* Bulk lookups up to 4096 subtables. */

static inline bool
group_matches(const struct cls_group *g, const uint64_t *fw)
{
    for (unsigned int i = 0; i < g->n_words; i++) {
        if ((fw[g->word_idx[i]] & g->mask[i]) != g->value[i]) {
            return false;
        }
    }
    return true;
}

/* Whether MAP has a bit below K. */
static inline bool
map_any_below(const uint64_t *map, size_t k)
{
    size_t w = 0;
    for (; w < k / 64; w++) {
        if (map[w]) {
            return true;
        }
    }
    return k % 64 && (map[w] & ((UINT64_C(1) << (k % 64)) - 1));
}

/* The first entry of VEC that cannot hold a rule of PRIORITY. */
static size_t
first_below_priority(const struct cls_subtable_vec *vec, int priority)
{
    size_t lo = 0, hi = vec->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (vec->entries[mid].max_priority < priority) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

/* Walks the bulk tries on 32-bit fields side by side, so that their cache
 * misses overlap (they are independent, and usually both needed). */
static void
bulk_tries_walk(const struct cls_subtable_vec *vec, struct trie_ctx ctx[],
                const struct flow *flow)
{
    const struct prefix_trie *tries[CLS_MAX_TRIES];
    uint32_t keys[CLS_MAX_TRIES];
    unsigned int n_bits[CLS_MAX_TRIES], maskbits[CLS_MAX_TRIES];
    struct prefix_plens plens[CLS_MAX_TRIES];
    unsigned int which[CLS_MAX_TRIES];
    size_t n = 0;
    for (unsigned int b = 0; b < vec->n_bulk; b++) {
        const struct cls_trie *t = &vec->tries->tries[vec->bulk_trie[b]];
        const struct cls_prefix_field_def *d = &cls_prefix_field_defs[t->field];
        if (d->n_bytes == 4) {
            tries[n] = &t->trie;
            prefix_trie_key_from_be(&keys[n], (const uint8_t *) flow + d->ofs,
                                    4);
            n_bits[n] = 32;
            which[n++] = vec->bulk_trie[b];
        }
    }
    if (n > 1) {
        prefix_trie_lookup_many32(tries, keys, n_bits, n, maskbits, plens);
        for (size_t i = 0; i < n; i++) {
            ctx[which[i]].done = true;
            ctx[which[i]].maskbits = maskbits[i];
            ctx[which[i]].plens = plens[i];
        }
    }
}

/* The lookup with wildcards: the same answer and the same bits as
 * lookup_each(), but grouped subtables are compared with the packet once
 * per group and pruned by the L3 tries in bulk, so that only the subtables
 * the tries leave are visited.  The bits the skipped subtables would have
 * added are added at the end, for those that come before the point where
 * the visit stopped. */
static const struct cls_match *
lookup_bulk(const struct cls_subtable_vec *vec, ovs_version_t version,
            const struct flow *flow, struct flow_wildcards *wc)
{
    const size_t n_words = vec->n_map_words;
    const struct cls_tries *tries = vec->tries;
    const uint64_t *fw = flow_u64s_const(flow);
    struct trie_ctx ctx[CLS_MAX_TRIES];
    uint64_t cand[MAX_MAP_WORDS];
    uint64_t pruned[CLS_MAX_TRIES][MAX_MAP_WORDS];

    memset(ctx, 0, sizeof ctx);
    memcpy(cand, vec->ungrouped, n_words * 8);
    for (unsigned int g = 0; g < vec->n_groups; g++) {
        if (group_matches(&vec->groups[g], fw)) {
            const uint64_t *members = vec->groups[g].members;
            for (size_t w = 0; w < n_words; w++) {
                cand[w] |= members[w];
            }
        }
    }

    bulk_tries_walk(vec, ctx, flow);
    for (unsigned int b = 0; b < vec->n_bulk; b++) {
        const uint64_t *maps = vec->plen_maps[b];
        const uint64_t *unprunable = maps;
        bool any = false;
        for (size_t w = 0; w < n_words; w++) {
            if (cand[w] & ~unprunable[w]) {
                any = true;
                break;
            }
        }
        if (!any) {
            memset(pruned[b], 0, n_words * 8);
            continue;
        }
        const struct trie_ctx *c = trie_ctx_get(tries, vec->bulk_trie[b], ctx,
                                                flow);
        uint64_t viable[MAX_MAP_WORDS];
        memcpy(viable, unprunable, n_words * 8);
        for (int half = 0; half < 2; half++) {
            for (uint64_t bits = c->plens.bits[half]; bits; bits &= bits - 1) {
                unsigned int plen = half * 64 + __builtin_ctzll(bits) + 1;
                if (plen < vec->n_plens[b]) {
                    const uint64_t *map = &maps[plen * n_words];
                    for (size_t w = 0; w < n_words; w++) {
                        viable[w] |= map[w];
                    }
                }
            }
        }
        for (size_t w = 0; w < n_words; w++) {
            pruned[b][w] = cand[w] & ~viable[w];
            cand[w] &= viable[w];
        }
    }

    const struct cls_match *best = NULL;
    /* Grouped subtables start past their L2 stage: only tries on fields
     * of later stages that were not used in bulk can still apply. */
    const uint8_t other_fields = vec->other_trie_fields;
    for (size_t w = 0; w < n_words; w++) {
        for (uint64_t bits = cand[w]; bits; bits &= bits - 1) {
            size_t i = w * 64 + __builtin_ctzll(bits);
            const struct cls_subtable_entry *e = &vec->entries[i];
            if (best && e->max_priority < best->priority) {
                goto done;
            }
            const struct cls_subtable *st = e->subtable;
            const struct cls_match *m;
            if (!(vec->ungrouped[w] & (UINT64_C(1) << (i % 64)))) {
                m = find_match_wc(st, e->first_stage, e->pre_hash, flow,
                                  version, tries, other_fields, ctx, wc);
            } else {
                m = visit_subtable(st, flow, version, tries,
                                   tries ? tries->fields : 0, ctx, wc);
            }
            if (m && (!best || cls_match_outranks(m, best))) {
                best = m;
            }
        }
    }
done:;
    /* What the subtables that were not visited, before the stop, would
     * have added. */
    size_t k = best ? first_below_priority(vec, best->priority) : vec->n;
    for (unsigned int b = 0; b < vec->n_bulk; b++) {
        if (!map_any_below(pruned[b], k)) {
            continue;
        }
        const struct trie_ctx *c = &ctx[vec->bulk_trie[b]];
        const struct cls_trie *t = &tries->tries[vec->bulk_trie[b]];
        wc_set_prefix(wc, &cls_prefix_field_defs[t->field], c->maskbits);
    }
    uint64_t *ww = flow_u64s(&wc->masks);
    for (unsigned int g = 0; g < vec->n_groups; g++) {
        const struct cls_group *group = &vec->groups[g];
        if (group->n_words && map_any_below(group->members, k)) {
            for (unsigned int i = 0; i < group->n_words; i++) {
                ww[group->word_idx[i]] |= group->mask[i];
            }
        }
    }
    return best;
}

const struct cls_rule *
classifier_lookup(const struct classifier *cls, ovs_version_t version,
                  const struct flow *flow, struct flow_wildcards *wc)
{
    ovsrcu_register();
    const struct cls_subtable_vec *vec = ovsrcu_get(&cls->subtables_vec);
    const struct cls_match *best
        = (wc && vec->n_map_words <= MAX_MAP_WORDS
           ? lookup_bulk(vec, version, flow, wc)
           : lookup_each(vec, version, flow, wc));
    return best ? best->cls_rule : NULL;
}

