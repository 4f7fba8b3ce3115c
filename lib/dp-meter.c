/* dp-meter: see dp-meter.h. */
#include <config.h>
#include "dp-meter.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dp-packet.h"
#include "hash.h"
#include "hmap.h"
#include "ovs-thread.h"
#include "timeval.h"
#include "util.h"

/* Buckets hold thousandths: bits for kbps bands (kbit/s times ms is
 * bits), thousandths of a packet for pktps ones (packets/s times ms). */
struct dp_meter_band {
    uint32_t rate;
    uint64_t capacity;          /* burst_size * 1000. */
    uint64_t tokens;
    uint64_t n_packets, n_bytes;    /* Dropped here. */
};

struct dp_meter {
    struct hmap_node node;      /* In the table's 'meters', by id. */
    uint32_t id;
    bool kbps;
    long long int last_fill;    /* time_msec() of the last refill. */
    uint64_t packet_in_count, byte_in_count;
    size_t n_bands;
    struct dp_meter_band bands[DPIF_METER_MAX_BANDS];
};

struct dp_meter_table {
    struct ovs_mutex mutex;
    struct hmap meters;
};

struct dp_meter_table *
dp_meter_table_create(void)
{
    struct dp_meter_table *t = xmalloc(sizeof *t);
    ovs_mutex_init(&t->mutex);
    hmap_init(&t->meters);
    return t;
}

void
dp_meter_table_destroy(struct dp_meter_table *t)
{
    if (t) {
        struct dp_meter *m;
        HMAP_FOR_EACH_POP (m, node, &t->meters) {
            free(m);
        }
        hmap_destroy(&t->meters);
        ovs_mutex_destroy(&t->mutex);
        free(t);
    }
}

static struct dp_meter *
meter_find(const struct dp_meter_table *t, uint32_t id)
{
    struct dp_meter *m;
    HMAP_FOR_EACH_WITH_HASH (m, node, hash_int(id, 0), &t->meters) {
        if (m->id == id) {
            return m;
        }
    }
    return NULL;
}

int
dp_meter_table_set(struct dp_meter_table *t, uint32_t id,
                   const struct dpif_meter_config *config)
{
    struct dp_meter *m = xzalloc(sizeof *m);
    m->id = id;
    m->kbps = config->kbps;
    m->last_fill = time_msec();
    m->n_bands = MIN(config->n_bands, DPIF_METER_MAX_BANDS);
    for (size_t i = 0; i < m->n_bands; i++) {
        const struct dpif_meter_band *b = &config->bands[i];
        uint32_t burst = b->burst_size ? b->burst_size : b->rate;
        m->bands[i].rate = b->rate;
        m->bands[i].capacity = (uint64_t) burst * 1000;
        m->bands[i].tokens = m->bands[i].capacity;
    }

    ovs_mutex_lock(&t->mutex);
    struct dp_meter *old = meter_find(t, id);
    if (old) {
        hmap_remove(&t->meters, &old->node);
        free(old);
    }
    hmap_insert(&t->meters, &m->node, hash_int(id, 0));
    ovs_mutex_unlock(&t->mutex);
    return 0;
}

static void
meter_get_stats(const struct dp_meter *m, struct dpif_meter_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    stats->packet_in_count = m->packet_in_count;
    stats->byte_in_count = m->byte_in_count;
    stats->n_bands = m->n_bands;
    for (size_t i = 0; i < m->n_bands; i++) {
        stats->band_packets[i] = m->bands[i].n_packets;
        stats->band_bytes[i] = m->bands[i].n_bytes;
    }
}

int
dp_meter_table_get(struct dp_meter_table *t, uint32_t id,
                   struct dpif_meter_stats *stats)
{
    ovs_mutex_lock(&t->mutex);
    const struct dp_meter *m = meter_find(t, id);
    if (m) {
        meter_get_stats(m, stats);
    }
    ovs_mutex_unlock(&t->mutex);
    return m ? 0 : ENOENT;
}

int
dp_meter_table_del(struct dp_meter_table *t, uint32_t id,
                   struct dpif_meter_stats *stats)
{
    ovs_mutex_lock(&t->mutex);
    struct dp_meter *m = meter_find(t, id);
    if (m) {
        if (stats) {
            meter_get_stats(m, stats);
        }
        hmap_remove(&t->meters, &m->node);
        free(m);
    }
    ovs_mutex_unlock(&t->mutex);
    return m ? 0 : ENOENT;
}

static void
meter_refill(struct dp_meter *m, long long int now)
{
    if (now <= m->last_fill) {
        return;
    }
    /* Beyond this much time every bucket is full anyway; capping keeps
     * the product below from overflowing. */
    uint64_t elapsed = MIN(now - m->last_fill, 1000LL * 1000 * 1000);
    m->last_fill = now;
    for (size_t i = 0; i < m->n_bands; i++) {
        struct dp_meter_band *b = &m->bands[i];
        uint64_t add = elapsed * b->rate;
        b->tokens = (add >= b->capacity - b->tokens ? b->capacity
                     : b->tokens + add);
    }
}

void
dp_meter_table_run(struct dp_meter_table *t, uint32_t id,
                   struct dp_packet_batch *batch, long long int now)
{
    ovs_mutex_lock(&t->mutex);
    struct dp_meter *m = meter_find(t, id);
    if (!m) {
        ovs_mutex_unlock(&t->mutex);
        return;
    }
    meter_refill(m, now);
    size_t kept = 0;
    for (size_t i = 0; i < batch->count; i++) {
        struct dp_packet *p = batch->packets[i];
        uint32_t size = dp_packet_size(p);
        uint64_t cost = m->kbps ? (uint64_t) size * 8 : 1000;
        m->packet_in_count++;
        m->byte_in_count += size;

        /* Every band that can pay does; the packet goes over the band of
         * highest rate among those that cannot, if any. */
        struct dp_meter_band *over = NULL;
        for (size_t j = 0; j < m->n_bands; j++) {
            struct dp_meter_band *b = &m->bands[j];
            if (b->tokens >= cost) {
                b->tokens -= cost;
            } else if (!over || b->rate > over->rate) {
                over = b;
            }
        }
        if (over) {
            over->n_packets++;
            over->n_bytes += size;
            continue;
        }
        batch->packets[kept++] = p;
    }
    batch->count = kept;
    ovs_mutex_unlock(&t->mutex);
}
