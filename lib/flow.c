#include <config.h>
#include "flow.h"

#include <string.h>
#include "hash.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(flow);

const uint8_t flow_stage_end[FLOW_N_STAGES] = {
    FLOW_STAGE_METADATA_END,
    FLOW_STAGE_L2_END,
    FLOW_STAGE_L3_END,
    FLOW_STAGE_L4_END,
};

bool
flow_equal(const struct flow *a, const struct flow *b)
{
    return !memcmp(a, b, sizeof *a);
}

uint32_t
flow_hash(const struct flow *flow, uint32_t basis)
{
    return hash_words64(flow_u64s_const(flow), FLOW_U64S, basis);
}

void
flow_clear_conntrack(struct flow *flow)
{
    flow->ct_state = 0;
    flow->ct_mark = 0;
    flow->ct_zone = 0;
    flow->ct_nw_proto = 0;
    flow->ct_nw_src = flow->ct_nw_dst = 0;
    flow->ct_tp_src = flow->ct_tp_dst = 0;
    memset(flow->ct_label, 0, sizeof flow->ct_label);
    memset(&flow->ct_ipv6_src, 0, sizeof flow->ct_ipv6_src);
    memset(&flow->ct_ipv6_dst, 0, sizeof flow->ct_ipv6_dst);
}

void
flow_wildcards_init_catchall(struct flow_wildcards *wc)
{
    memset(&wc->masks, 0, sizeof wc->masks);
}

void
flow_wildcards_init_exact(struct flow_wildcards *wc)
{
    memset(&wc->masks, 0xff, sizeof wc->masks);
}

bool
flow_wildcards_is_catchall(const struct flow_wildcards *wc)
{
    const uint64_t *m = flow_u64s_const(&wc->masks);
    for (size_t i = 0; i < FLOW_U64S; i++) {
        if (m[i]) {
            return false;
        }
    }
    return true;
}

bool
flow_wildcards_equal(const struct flow_wildcards *a,
                     const struct flow_wildcards *b)
{
    return flow_equal(&a->masks, &b->masks);
}

void
flow_wildcards_or(struct flow_wildcards *dst, const struct flow_wildcards *src)
{
    uint64_t *d = flow_u64s(&dst->masks);
    const uint64_t *s = flow_u64s_const(&src->masks);
    for (size_t i = 0; i < FLOW_U64S; i++) {
        d[i] |= s[i];
    }
}

bool
flow_wildcards_has_extra(const struct flow_wildcards *a,
                         const struct flow_wildcards *b)
{
    const uint64_t *am = flow_u64s_const(&a->masks);
    const uint64_t *bm = flow_u64s_const(&b->masks);
    for (size_t i = 0; i < FLOW_U64S; i++) {
        if (am[i] & ~bm[i]) {
            return true;
        }
    }
    return false;
}

void
flow_apply_mask(struct flow *dst, const struct flow *src,
                const struct flow_wildcards *wc)
{
    uint64_t *d = flow_u64s(dst);
    const uint64_t *s = flow_u64s_const(src);
    const uint64_t *m = flow_u64s_const(&wc->masks);
    for (size_t i = 0; i < FLOW_U64S; i++) {
        d[i] = s[i] & m[i];
    }
}

bool
flow_equal_under_mask(const struct flow *a, const struct flow *b,
                      const struct flow_wildcards *wc)
{
    const uint64_t *ap = flow_u64s_const(a);
    const uint64_t *bp = flow_u64s_const(b);
    const uint64_t *m = flow_u64s_const(&wc->masks);
    for (size_t i = 0; i < FLOW_U64S; i++) {
        if ((ap[i] ^ bp[i]) & m[i]) {
            return false;
        }
    }
    return true;
}

/* Builds the miniflow of the words of VALUES selected by MAP. */
static struct miniflow *
miniflow_gather(const uint64_t *values, const struct flowmap *map)
{
    struct miniflow *mf = xmalloc(miniflow_size(flowmap_n_bits(map)));
    mf->map = *map;
    unsigned int n = 0;
    size_t unit;
    uint64_t bits;
    unsigned int idx;
    FLOWMAP_FOR_EACH_INDEX (idx, unit, bits, map) {
        mf->values[n++] = values[idx];
    }
    return mf;
}

static struct flowmap
flow_nonzero_map(const struct flow *flow)
{
    const uint64_t *v = flow_u64s_const(flow);
    struct flowmap map = { { 0 } };
    for (size_t i = 0; i < FLOW_U64S; i++) {
        if (v[i]) {
            flowmap_set(&map, i);
        }
    }
    return map;
}

struct miniflow *
miniflow_create(const struct flow *flow)
{
    struct flowmap map = flow_nonzero_map(flow);
    return miniflow_gather(flow_u64s_const(flow), &map);
}

struct miniflow *
miniflow_create_masked(const struct flow *flow,
                       const struct flow_wildcards *wc)
{
    struct flow masked;
    flow_apply_mask(&masked, flow, wc);
    struct flowmap map = flow_nonzero_map(&wc->masks);
    return miniflow_gather(flow_u64s_const(&masked), &map);
}

void
miniflow_expand(const struct miniflow *mf, struct flow *flow)
{
    uint64_t *v = flow_u64s(flow);
    memset(flow, 0, sizeof *flow);
    unsigned int n = 0;
    size_t unit;
    uint64_t bits;
    unsigned int idx;
    FLOWMAP_FOR_EACH_INDEX (idx, unit, bits, &mf->map) {
        v[idx] = mf->values[n++];
    }
}

bool
miniflow_equal(const struct miniflow *a, const struct miniflow *b)
{
    return flowmap_equal(&a->map, &b->map)
           && !memcmp(a->values, b->values,
                      miniflow_n_values(a) * sizeof a->values[0]);
}

uint32_t
miniflow_hash(const struct miniflow *mf, uint32_t basis)
{
    return hash_words64(mf->values, miniflow_n_values(mf), basis);
}

/* Hashes the same words, in the same order, as miniflow_hash() of the
 * miniflow_create_masked() of FLOW under MASK, so that the two agree. */
uint32_t
flow_hash_in_minimask(const struct flow *flow, const struct miniflow *mask,
                      uint32_t basis)
{
    const uint64_t *v = flow_u64s_const(flow);
    uint32_t hash = basis;
    unsigned int n = 0;
    size_t unit;
    uint64_t bits;
    unsigned int idx;
    FLOWMAP_FOR_EACH_INDEX (idx, unit, bits, &mask->map) {
        hash = hash_add64(hash, v[idx] & mask->values[n++]);
    }
    return hash_finish(hash, n * 8);
}

bool
flow_equal_in_minimask(const struct flow *flow, const struct miniflow *mask,
                       const struct miniflow *match)
{
    const uint64_t *v = flow_u64s_const(flow);
    unsigned int n = 0;
    size_t unit;
    uint64_t bits;
    unsigned int idx;
    FLOWMAP_FOR_EACH_INDEX (idx, unit, bits, &mask->map) {
        if ((v[idx] & mask->values[n]) != match->values[n]) {
            return false;
        }
        n++;
    }
    return true;
}
