/* The classifier's two open-addressed hash tables: list heads by full hash
 * (struct cls_rtable) and per-stage hash sets (struct cls_hset).  One
 * writer, lock-free readers: slots change in place by single atomic
 * stores, and a table that runs out of empty slots is rebuilt, published
 * and the old one freed after a grace period. */
#include <config.h>
#include "classifier-private.h"

#include <stdlib.h>
#include <string.h>
#include "util.h"

#define MIN_SLOTS 8

static size_t
slots_for(size_t n)             /* Keeps the load at most 1/2. */
{
    size_t slots = MIN_SLOTS;
    while (slots < 2 * n) {
        slots *= 2;
    }
    return slots;
}

/* Rule table. */

struct cls_rtable *
cls_rtable_create(size_t n_slots)
{
    struct cls_rtable *t = xzalloc(sizeof *t + n_slots * sizeof t->slots[0]);
    t->mask = n_slots - 1;
    return t;
}

struct cls_match *
cls_rtable_find_head(const struct cls_rtable *t, uint32_t hash,
                     const uint64_t values[], unsigned int n_words)
{
    for (size_t i = hash & t->mask;; i = (i + 1) & t->mask) {
        struct cls_match *head = ovsrcu_get(&t->slots[i].head);
        if (!head) {
            return NULL;
        }
        if (head != CLS_TOMBSTONE
            && atomic_load_explicit(&t->slots[i].hash,
                                    memory_order_relaxed) == hash
            && !memcmp(head->values, values, n_words * sizeof *values)) {
            return head;
        }
    }
}

/* Puts HEAD in T, which has room, without growing. */
static void
rtable_put(struct cls_rtable *t, struct cls_match *head)
{
    for (size_t i = head->hash & t->mask;; i = (i + 1) & t->mask) {
        struct cls_match *cur = ovsrcu_get_protected(&t->slots[i].head);
        if (!cur || cur == CLS_TOMBSTONE) {
            atomic_store_explicit(&t->slots[i].hash, head->hash,
                                  memory_order_relaxed);
            ovsrcu_set(&t->slots[i].head, head);
            t->n_heads++;
            t->n_used += !cur;
            return;
        }
    }
}

static void
rtable_rebuild(OVSRCU_TYPE(struct cls_rtable *) *tp, size_t n_heads)
{
    struct cls_rtable *old = ovsrcu_get_protected(tp);
    struct cls_rtable *t = cls_rtable_create(slots_for(n_heads));
    for (size_t i = 0; i <= old->mask; i++) {
        struct cls_match *head = ovsrcu_get_protected(&old->slots[i].head);
        if (head && head != CLS_TOMBSTONE) {
            rtable_put(t, head);
        }
    }
    ovsrcu_set(tp, t);
    ovsrcu_postpone(free, old);
}

void
cls_rtable_insert(OVSRCU_TYPE(struct cls_rtable *) *tp,
                  struct cls_match *head)
{
    struct cls_rtable *t = ovsrcu_get_protected(tp);
    if ((t->n_used + 1) * 4 > (t->mask + 1) * 3) {
        rtable_rebuild(tp, t->n_heads + 1);
        t = ovsrcu_get_protected(tp);
    }
    rtable_put(t, head);
}

static size_t
rtable_slot_of(const struct cls_rtable *t, const struct cls_match *head)
{
    for (size_t i = head->hash & t->mask;; i = (i + 1) & t->mask) {
        struct cls_match *cur = ovsrcu_get_protected(&t->slots[i].head);
        ovs_assert(cur);
        if (cur == head) {
            return i;
        }
    }
}

void
cls_rtable_replace_head(struct cls_rtable *t, struct cls_match *old,
                        struct cls_match *new_head)
{
    ovsrcu_set(&t->slots[rtable_slot_of(t, old)].head, new_head);
}

void
cls_rtable_remove(OVSRCU_TYPE(struct cls_rtable *) *tp,
                  struct cls_match *head)
{
    struct cls_rtable *t = ovsrcu_get_protected(tp);
    ovsrcu_set(&t->slots[rtable_slot_of(t, head)].head, CLS_TOMBSTONE);
    t->n_heads--;
    if (t->mask + 1 > MIN_SLOTS && t->n_heads * 8 < t->mask + 1) {
        rtable_rebuild(tp, t->n_heads);
    }
}

/* Stage hash sets. */

#define HSET_EMPTY 0
#define HSET_TOMBSTONE 1

static inline uint32_t hset_hash(uint64_t slot) { return slot >> 32; }
static inline uint32_t hset_state(uint64_t slot) { return (uint32_t) slot; }
static inline uint64_t
hset_slot(uint32_t hash, uint32_t state)
{
    return (uint64_t) hash << 32 | state;
}

struct cls_hset *
cls_hset_create(size_t n_slots)
{
    struct cls_hset *s = xzalloc(sizeof *s + n_slots * sizeof s->slots[0]);
    s->mask = n_slots - 1;
    return s;
}

bool
cls_hset_contains(const struct cls_hset *s, uint32_t hash)
{
    for (size_t i = hash & s->mask;; i = (i + 1) & s->mask) {
        uint64_t slot = atomic_load_explicit(&s->slots[i],
                                             memory_order_relaxed);
        uint32_t state = hset_state(slot);
        if (state == HSET_EMPTY) {
            return false;
        }
        if (state != HSET_TOMBSTONE && hset_hash(slot) == hash) {
            return true;
        }
    }
}

/* The slot holding HASH in S, or SIZE_MAX. */
static size_t
hset_find(const struct cls_hset *s, uint32_t hash)
{
    for (size_t i = hash & s->mask;; i = (i + 1) & s->mask) {
        uint64_t slot = atomic_load_explicit(&s->slots[i],
                                             memory_order_relaxed);
        if (hset_state(slot) == HSET_EMPTY) {
            return SIZE_MAX;
        }
        if (hset_state(slot) != HSET_TOMBSTONE && hset_hash(slot) == hash) {
            return i;
        }
    }
}

static void
hset_put(struct cls_hset *s, uint32_t hash, uint32_t state)
{
    for (size_t i = hash & s->mask;; i = (i + 1) & s->mask) {
        uint64_t slot = atomic_load_explicit(&s->slots[i],
                                             memory_order_relaxed);
        if (hset_state(slot) <= HSET_TOMBSTONE) {
            atomic_store_explicit(&s->slots[i], hset_slot(hash, state),
                                  memory_order_release);
            s->n_hashes++;
            s->n_used += hset_state(slot) == HSET_EMPTY;
            return;
        }
    }
}

static void
hset_rebuild(struct cls_stage *stage, size_t n_hashes)
{
    struct cls_hset *old = ovsrcu_get_protected(&stage->index);
    struct cls_hset *s = cls_hset_create(slots_for(n_hashes));
    for (size_t i = 0; i <= old->mask; i++) {
        uint64_t slot = atomic_load_explicit(&old->slots[i],
                                             memory_order_relaxed);
        if (hset_state(slot) > HSET_TOMBSTONE) {
            hset_put(s, hset_hash(slot), hset_state(slot));
        }
    }
    ovsrcu_set(&stage->index, s);
    ovsrcu_postpone(free, old);
}

/* Keeps STAGE's SINGLE in step with its set: set only while the set holds
 * exactly one hash.  Called after the set changed, so a reader that still
 * uses the old SINGLE sees the state from before the change. */
static bool
hset_update_single(struct cls_stage *stage)
{
    struct cls_hset *s = ovsrcu_get_protected(&stage->index);
    uint64_t single = 0;
    if (s->n_hashes == 1) {
        for (size_t i = 0; i <= s->mask; i++) {
            uint64_t slot = atomic_load_explicit(&s->slots[i],
                                                 memory_order_relaxed);
            if (hset_state(slot) > HSET_TOMBSTONE) {
                single = hset_slot(hset_hash(slot), 1);
                break;
            }
        }
    }
    bool changed = !single != !atomic_load_explicit(&stage->single,
                                                    memory_order_relaxed);
    atomic_store_explicit(&stage->single, single, memory_order_release);
    return changed;
}

bool
cls_hset_add(struct cls_stage *stage, uint32_t hash)
{
    struct cls_hset *s = ovsrcu_get_protected(&stage->index);
    size_t i = hset_find(s, hash);
    if (i != SIZE_MAX) {
        uint64_t slot = atomic_load_explicit(&s->slots[i],
                                             memory_order_relaxed);
        atomic_store_explicit(&s->slots[i],
                              hset_slot(hash, hset_state(slot) + 1),
                              memory_order_relaxed);
        return false;
    }
    if ((s->n_used + 1) * 4 > (s->mask + 1) * 3) {
        hset_rebuild(stage, s->n_hashes + 1);
        s = ovsrcu_get_protected(&stage->index);
    }
    hset_put(s, hash, 2);
    return hset_update_single(stage);
}

bool
cls_hset_sub(struct cls_stage *stage, uint32_t hash)
{
    struct cls_hset *s = ovsrcu_get_protected(&stage->index);
    size_t i = hset_find(s, hash);
    ovs_assert(i != SIZE_MAX);
    uint64_t slot = atomic_load_explicit(&s->slots[i], memory_order_relaxed);
    uint32_t state = hset_state(slot);
    if (state > 2) {
        atomic_store_explicit(&s->slots[i], hset_slot(hash, state - 1),
                              memory_order_relaxed);
        return false;
    }
    /* The last rule with this hash: readers must stop finding it before
     * SINGLE can point at the one that remains. */
    bool was_single = s->n_hashes == 1;
    if (was_single) {
        atomic_store_explicit(&stage->single, 0, memory_order_release);
    }
    atomic_store_explicit(&s->slots[i], hset_slot(hash, HSET_TOMBSTONE),
                          memory_order_release);
    s->n_hashes--;
    if (s->mask + 1 > MIN_SLOTS && s->n_hashes * 8 < s->mask + 1) {
        hset_rebuild(stage, s->n_hashes);
    }
    return hset_update_single(stage) || was_single;
}
