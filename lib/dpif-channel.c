#include <config.h>
#include "dpif-channel.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "ovs-thread.h"
#include "poll-loop.h"
#include "util.h"

struct dpif_channel_set {
    struct ovs_mutex mutex;
    struct ovs_list ready;              /* dpif_channel.ready_node. */
    struct ovs_list sleepers;           /* dpif_channel_handler.sleep_node. */
};

struct dpif_channel {
    struct dpif_channel_set *set;
    uint32_t port;

    /* The ring: slot I lives at base + (I & mask) * stride.  Slot I's
     * sequence number is stored less I, in 'seqs' at the start of the same
     * mapping: the initial numbers (slot I free at position I) are then all
     * zero, which is what a fresh mapping reads, so creating a channel
     * touches none of its pages. */
    uint8_t *map;
    size_t map_size;
    uint8_t *base;
    size_t stride;
    uint64_t mask;
    size_t packet_max;
    _Atomic uint64_t *seqs;

    /* Producers reserve at 'head' (compare-and-swap); the one consumer
     * holding the channel claims at 'tail'. */
    _Atomic uint64_t head;
    uint64_t tail;                      /* Under set->mutex. */

    /* In set->ready, or alone.  'queued' says whether it is (or is about
     * to be) there; producers test it without the mutex. */
    _Atomic bool queued;
    struct ovs_list ready_node;

    /* Handler batches holding slots, plus one for the creator; the ring
     * is freed when this reaches zero. */
    unsigned int ref_cnt;               /* Under set->mutex. */

    _Atomic uint64_t n_queued, n_lost, n_received;
};

static struct dpif_channel_slot *
slot_at(const struct dpif_channel *ch, uint64_t pos)
{
    return (struct dpif_channel_slot *) (ch->base
                                         + (pos & ch->mask) * ch->stride);
}

static uint64_t
seq_load(const struct dpif_channel *ch, uint64_t pos, memory_order order)
{
    uint64_t i = pos & ch->mask;
    return atomic_load_explicit(&ch->seqs[i], order) + i;
}

static void
seq_store(struct dpif_channel *ch, uint64_t pos, uint64_t seq,
          memory_order order)
{
    uint64_t i = pos & ch->mask;
    atomic_store_explicit(&ch->seqs[i], seq - i, order);
}

/* The ring position a slot handed out by dpif_channel_reserve() is at. */
static uint64_t
slot_index(const struct dpif_channel *ch,
           const struct dpif_channel_slot *slot)
{
    return ((const uint8_t *) slot - ch->base) / ch->stride;
}

struct dpif_channel_set *
dpif_channel_set_create(void)
{
    struct dpif_channel_set *set = xzalloc(sizeof *set);
    ovs_mutex_init(&set->mutex);
    ovs_list_init(&set->ready);
    ovs_list_init(&set->sleepers);
    return set;
}

void
dpif_channel_set_destroy(struct dpif_channel_set *set)
{
    if (set) {
        ovs_assert(ovs_list_is_empty(&set->ready));
        ovs_assert(ovs_list_is_empty(&set->sleepers));
        ovs_mutex_destroy(&set->mutex);
        free(set);
    }
}

struct dpif_channel *
dpif_channel_create(struct dpif_channel_set *set, uint32_t port,
                    size_t n_slots, size_t packet_max)
{
    struct dpif_channel *ch = xzalloc(sizeof *ch);
    ch->set = set;
    ch->port = port;

    size_t n = 2;
    while (n < n_slots) {
        n *= 2;
    }
    ch->mask = n - 1;
    ch->packet_max = packet_max;
    ch->stride = ROUND_UP(sizeof(struct dpif_channel_slot) + packet_max, 64);
    size_t seqs_size = ROUND_UP(n * sizeof *ch->seqs, 64);
    ch->map_size = seqs_size + n * ch->stride;
    /* MAP_NORESERVE: pages are committed only when a slot is first
     * written, so a quiet port's ring costs almost nothing. */
    void *map = mmap(NULL, ch->map_size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED) {
        ovs_fatal(errno, "could not map an upcall ring of %zu bytes",
                  ch->map_size);
    }
    ch->map = map;
    ch->seqs = map;
    ch->base = ch->map + seqs_size;
    atomic_init(&ch->head, 0);
    atomic_init(&ch->queued, false);
    ovs_list_init(&ch->ready_node);
    ch->ref_cnt = 1;
    return ch;
}

static void
channel_unref_locked(struct dpif_channel *ch)
{
    if (!--ch->ref_cnt) {
        munmap(ch->map, ch->map_size);
        free(ch);
    }
}

void
dpif_channel_destroy(struct dpif_channel *ch)
{
    if (ch) {
        struct dpif_channel_set *set = ch->set;
        ovs_mutex_lock(&set->mutex);
        /* Unlisted but still 'queued', so no producer lists it again. */
        atomic_store(&ch->queued, true);
        ovs_list_remove(&ch->ready_node);
        ovs_list_init(&ch->ready_node);
        channel_unref_locked(ch);
        ovs_mutex_unlock(&set->mutex);
    }
}

struct dpif_channel_slot *
dpif_channel_reserve(struct dpif_channel *ch, size_t packet_len)
{
    if (packet_len > ch->packet_max) {
        atomic_fetch_add_explicit(&ch->n_lost, 1, memory_order_relaxed);
        return NULL;
    }

    uint64_t pos = atomic_load_explicit(&ch->head, memory_order_relaxed);
    for (;;) {
        uint64_t seq = seq_load(ch, pos, memory_order_acquire);
        if (seq == pos) {
            if (atomic_compare_exchange_weak_explicit(
                    &ch->head, &pos, pos + 1,
                    memory_order_relaxed, memory_order_relaxed)) {
                struct dpif_channel_slot *slot = slot_at(ch, pos);
                slot->packet_len = packet_len;
                return slot;
            }
            /* 'pos' was reloaded: try again there. */
        } else if (seq < pos) {
            /* The slot still holds the upcall from one lap ago. */
            atomic_fetch_add_explicit(&ch->n_lost, 1, memory_order_relaxed);
            return NULL;
        } else {
            pos = atomic_load_explicit(&ch->head, memory_order_relaxed);
        }
    }
}

/* Puts CH at the tail of the ready list and wakes one sleeping handler.
 * Called with the set's mutex held. */
static void
list_ready_locked(struct dpif_channel *ch)
{
    struct dpif_channel_set *set = ch->set;

    ovs_list_push_back(&set->ready, &ch->ready_node);
    if (!ovs_list_is_empty(&set->sleepers)) {
        struct dpif_channel_handler *h = CONTAINER_OF(
            ovs_list_pop_front(&set->sleepers),
            struct dpif_channel_handler, sleep_node);
        ovs_list_init(&h->sleep_node);
        poll_loop_wake(h->loop);
    }
}

void
dpif_channel_commit(struct dpif_channel *ch, struct dpif_channel_slot *slot)
{
    /* The position this slot was reserved at is its current seq; the
     * consumer at that position waits for seq == pos + 1. */
    uint64_t index = slot_index(ch, slot);
    uint64_t pos = seq_load(ch, index, memory_order_relaxed);
    seq_store(ch, index, pos + 1, memory_order_release);
    atomic_fetch_add_explicit(&ch->n_queued, 1, memory_order_relaxed);

    /* seq_cst exchange: pairs with the consumer's store of false followed
     * by its re-check of the ring, so one of the two lists the channel. */
    if (!atomic_exchange(&ch->queued, true)) {
        ovs_mutex_lock(&ch->set->mutex);
        list_ready_locked(ch);
        ovs_mutex_unlock(&ch->set->mutex);
    }
}

static bool
channel_has_upcall(const struct dpif_channel *ch)
{
    return seq_load(ch, ch->tail, memory_order_seq_cst) == ch->tail + 1;
}

void
dpif_channel_get_stats(const struct dpif_channel *ch_,
                       struct dpif_channel_stats *stats)
{
    struct dpif_channel *ch = (struct dpif_channel *) ch_;
    stats->n_queued = atomic_load_explicit(&ch->n_queued,
                                           memory_order_relaxed);
    stats->n_lost = atomic_load_explicit(&ch->n_lost, memory_order_relaxed);
    stats->n_received = atomic_load_explicit(&ch->n_received,
                                             memory_order_relaxed);
}

size_t
dpif_channel_resident_bytes(const struct dpif_channel *ch)
{
    size_t page = sysconf(_SC_PAGESIZE);
    size_t n_pages = DIV_ROUND_UP(ch->map_size, page);
    unsigned char *in_core = xmalloc(n_pages);
    size_t resident = 0;
    if (!mincore(ch->map, ch->map_size, in_core)) {
        for (size_t i = 0; i < n_pages; i++) {
            resident += (in_core[i] & 1) * page;
        }
    }
    free(in_core);
    return resident;
}

uint32_t
dpif_channel_port(const struct dpif_channel *ch)
{
    return ch->port;
}

size_t
dpif_channel_n_slots(const struct dpif_channel *ch)
{
    return ch->mask + 1;
}

void
dpif_channel_handler_init(struct dpif_channel_handler *h,
                          struct dpif_channel_set *set)
{
    h->set = set;
    ovs_list_init(&h->sleep_node);
    h->loop = NULL;
    h->n_held = 0;
}

void
dpif_channel_handler_uninit(struct dpif_channel_handler *h)
{
    dpif_channel_release(h);
    ovs_mutex_lock(&h->set->mutex);
    ovs_list_remove(&h->sleep_node);
    ovs_list_init(&h->sleep_node);
    ovs_mutex_unlock(&h->set->mutex);
}

void
dpif_channel_release(struct dpif_channel_handler *h)
{
    if (!h->n_held) {
        return;
    }

    ovs_mutex_lock(&h->set->mutex);
    for (size_t i = 0; i < h->n_held; i++) {
        struct dpif_channel *ch = h->held[i].channel;
        uint64_t pos = h->held[i].pos;
        /* Free for the producer one lap later. */
        seq_store(ch, pos, pos + ch->mask + 1, memory_order_release);
        /* recv took one reference per run of slots from one channel. */
        if (i + 1 == h->n_held || h->held[i + 1].channel != ch) {
            channel_unref_locked(ch);
        }
    }
    ovs_mutex_unlock(&h->set->mutex);
    h->n_held = 0;
}

size_t
dpif_channel_recv(struct dpif_channel_handler *h,
                  const struct dpif_channel_slot *slots[], size_t max)
{
    struct dpif_channel_set *set = h->set;
    size_t n = 0;

    dpif_channel_release(h);
    if (max > DPIF_CHANNEL_MAX_BATCH) {
        max = DPIF_CHANNEL_MAX_BATCH;
    }

    ovs_mutex_lock(&set->mutex);
    /* Awake now: a producer should wake someone else. */
    ovs_list_remove(&h->sleep_node);
    ovs_list_init(&h->sleep_node);

    while (n < max && !ovs_list_is_empty(&set->ready)) {
        struct dpif_channel *ch = CONTAINER_OF(ovs_list_pop_front(&set->ready),
                                               struct dpif_channel,
                                               ready_node);
        ovs_list_init(&ch->ready_node);

        size_t quantum = MIN(DPIF_CHANNEL_QUANTUM, max - n);
        size_t first = n;
        size_t taken = 0;
        while (taken < quantum && channel_has_upcall(ch)) {
            slots[n] = slot_at(ch, ch->tail);
            h->held[n].channel = ch;
            h->held[n].pos = ch->tail;
            ch->tail++;
            n++;
            taken++;
        }
        if (taken) {
            /* One reference per run of slots from one channel: a run that
             * continues the previous one (the channel came round again)
             * shares its reference. */
            if (!first || h->held[first - 1].channel != ch) {
                ch->ref_cnt++;
            }
            atomic_fetch_add_explicit(&ch->n_received, taken,
                                      memory_order_relaxed);
        }

        if (channel_has_upcall(ch)) {
            ovs_list_push_back(&set->ready, &ch->ready_node);
        } else {
            atomic_store(&ch->queued, false);
            /* A producer may have committed between the check and the
             * store, seen 'queued' still true and left it to us. */
            if (channel_has_upcall(ch) && !atomic_exchange(&ch->queued, true)) {
                ovs_list_push_back(&set->ready, &ch->ready_node);
            }
        }
    }

    /* More channels ready than this handler took: pass the work on. */
    if (!ovs_list_is_empty(&set->ready) && !ovs_list_is_empty(&set->sleepers)) {
        struct dpif_channel_handler *other = CONTAINER_OF(
            ovs_list_pop_front(&set->sleepers),
            struct dpif_channel_handler, sleep_node);
        ovs_list_init(&other->sleep_node);
        poll_loop_wake(other->loop);
    }
    ovs_mutex_unlock(&set->mutex);

    h->n_held = n;
    return n;
}

void
dpif_channel_wait(struct dpif_channel_handler *h)
{
    struct dpif_channel_set *set = h->set;

    ovs_mutex_lock(&set->mutex);
    if (!ovs_list_is_empty(&set->ready)) {
        poll_immediate_wake();
    } else if (ovs_list_is_empty(&h->sleep_node)) {
        h->loop = poll_loop_self();
        ovs_list_push_back(&set->sleepers, &h->sleep_node);
    }
    ovs_mutex_unlock(&set->mutex);
}

size_t
dpif_channel_n_sleeping(struct dpif_channel_set *set)
{
    ovs_mutex_lock(&set->mutex);
    size_t n = ovs_list_size(&set->sleepers);
    ovs_mutex_unlock(&set->mutex);
    return n;
}
