#include <config.h>
#include "dp-packet.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"

void
dp_packet_reset_offsets(struct dp_packet *p)
{
    p->l2_5_ofs = DP_PACKET_OFS_NONE;
    p->l3_ofs = DP_PACKET_OFS_NONE;
    p->l4_ofs = DP_PACKET_OFS_NONE;
    p->payload_ofs = DP_PACKET_OFS_NONE;
    p->hash_valid = false;
    p->hash = 0;
    /* Not the Geneve options: nothing reads them without the flag. */
    pkt_metadata_init(&p->md, 0);
    p->md.tun_opts_len = 0;
}

static void
dp_packet_use(struct dp_packet *p, void *base, size_t allocated,
              size_t data_ofs, size_t size, enum dp_packet_source source)
{
    ovs_assert(allocated <= UINT32_MAX);
    ovs_assert(data_ofs <= allocated && size <= allocated - data_ofs);
    p->base = base;
    p->allocated = allocated;
    p->data_ofs = data_ofs;
    p->size = size;
    p->source = source;
    p->heap_struct = false;
    dp_packet_reset_offsets(p);
}

void
dp_packet_init_with_headroom(struct dp_packet *p, size_t capacity,
                             size_t headroom)
{
    size_t allocated = capacity + headroom;
    dp_packet_use(p, allocated ? xmalloc(allocated) : NULL, allocated,
                  headroom, 0, DPBUF_MALLOC);
}

void
dp_packet_init(struct dp_packet *p, size_t capacity)
{
    dp_packet_init_with_headroom(p, capacity, DP_PACKET_HEADROOM);
}

void
dp_packet_use_foreign(struct dp_packet *p, void *base, size_t allocated,
                      size_t data_ofs, size_t size)
{
    dp_packet_use(p, base, allocated, data_ofs, size, DPBUF_FOREIGN);
}

void
dp_packet_uninit(struct dp_packet *p)
{
    if (p && p->source == DPBUF_MALLOC) {
        free(p->base);
        p->base = NULL;
        p->allocated = p->data_ofs = p->size = 0;
    }
}

struct dp_packet *
dp_packet_new_with_headroom(size_t capacity, size_t headroom)
{
    struct dp_packet *p = xmalloc(sizeof *p);
    dp_packet_init_with_headroom(p, capacity, headroom);
    p->heap_struct = true;
    return p;
}

struct dp_packet *
dp_packet_new(size_t capacity)
{
    return dp_packet_new_with_headroom(capacity, DP_PACKET_HEADROOM);
}

struct dp_packet *
dp_packet_clone_data(const void *data, size_t size)
{
    struct dp_packet *p = dp_packet_new(size);
    dp_packet_put(p, data, size);
    return p;
}

struct dp_packet *
dp_packet_clone(const struct dp_packet *src)
{
    /* Keep the source's headroom (at least the default) so that offsets
     * and later pushes behave the same on the copy. */
    size_t headroom = MAX(dp_packet_headroom(src), DP_PACKET_HEADROOM);
    struct dp_packet *p = dp_packet_new_with_headroom(src->size, headroom);
    dp_packet_put(p, dp_packet_data(src), src->size);
    p->l2_5_ofs = src->l2_5_ofs;
    p->l3_ofs = src->l3_ofs;
    p->l4_ofs = src->l4_ofs;
    p->payload_ofs = src->payload_ofs;
    p->hash = src->hash;
    p->hash_valid = src->hash_valid;
    p->md = src->md;
    return p;
}

void
dp_packet_delete(struct dp_packet *p)
{
    if (p) {
        dp_packet_uninit(p);
        if (p->heap_struct) {
            free(p);
        }
    }
}

void
dp_packet_clear(struct dp_packet *p, size_t headroom)
{
    p->data_ofs = MIN(headroom, p->allocated);
    p->size = 0;
    dp_packet_reset_offsets(p);
}

/* Moves the frame into a new heap block with at least NEW_HEADROOM bytes
 * before it and NEW_TAILROOM after it. */
static void
dp_packet_resize(struct dp_packet *p, size_t new_headroom,
                 size_t new_tailroom)
{
    size_t allocated = new_headroom + p->size + new_tailroom;
    ovs_assert(allocated <= UINT32_MAX);
    uint8_t *base = xmalloc(allocated ? allocated : 1);
    memcpy(base + new_headroom, dp_packet_data(p), p->size);
    if (p->source == DPBUF_MALLOC) {
        free(p->base);
    }
    p->base = base;
    p->allocated = allocated;
    p->data_ofs = new_headroom;
    p->source = DPBUF_MALLOC;
}

void
dp_packet_prealloc_headroom(struct dp_packet *p, size_t size)
{
    if (size > dp_packet_headroom(p)) {
        dp_packet_resize(p, MAX(size, DP_PACKET_HEADROOM),
                         dp_packet_tailroom(p));
    }
}

void
dp_packet_prealloc_tailroom(struct dp_packet *p, size_t size)
{
    if (size > dp_packet_tailroom(p)) {
        /* Grow geometrically so that appending byte by byte is linear. */
        dp_packet_resize(p, dp_packet_headroom(p),
                         MAX(size, 64 + (size_t) p->size));
    }
}

void *
dp_packet_put_uninit(struct dp_packet *p, size_t size)
{
    dp_packet_prealloc_tailroom(p, size);
    void *tail = dp_packet_tail(p);
    p->size += size;
    return tail;
}

void *
dp_packet_put_zeros(struct dp_packet *p, size_t size)
{
    void *dst = dp_packet_put_uninit(p, size);
    memset(dst, 0, size);
    return dst;
}

void *
dp_packet_put(struct dp_packet *p, const void *data, size_t size)
{
    void *dst = dp_packet_put_uninit(p, size);
    if (size) {
        memcpy(dst, data, size);
    }
    return dst;
}

static void
shift_ofs(uint16_t *ofs, size_t at, long delta)
{
    if (*ofs == DP_PACKET_OFS_NONE || *ofs < at) {
        return;
    }
    long moved = (long) *ofs + delta;
    *ofs = moved < (long) at || moved >= DP_PACKET_OFS_NONE
           ? DP_PACKET_OFS_NONE : (uint16_t) moved;
}

/* Adds DELTA to every offset at or past AT; an offset that would fall
 * before AT (its header was removed) is cleared. */
static void
dp_packet_shift_offsets(struct dp_packet *p, size_t at, long delta)
{
    shift_ofs(&p->l2_5_ofs, at, delta);
    shift_ofs(&p->l3_ofs, at, delta);
    shift_ofs(&p->l4_ofs, at, delta);
    shift_ofs(&p->payload_ofs, at, delta);
}

void *
dp_packet_push_uninit(struct dp_packet *p, size_t size)
{
    dp_packet_prealloc_headroom(p, size);
    p->data_ofs -= size;
    p->size += size;
    dp_packet_shift_offsets(p, 0, size);
    return dp_packet_data(p);
}

void *
dp_packet_push(struct dp_packet *p, const void *data, size_t size)
{
    void *dst = dp_packet_push_uninit(p, size);
    if (size) {
        memcpy(dst, data, size);
    }
    return dst;
}

void *
dp_packet_pull(struct dp_packet *p, size_t size)
{
    ovs_assert(size <= p->size);
    void *old = dp_packet_data(p);
    p->data_ofs += size;
    p->size -= size;
    /* An offset inside the removed bytes lands below 0: cleared. */
    dp_packet_shift_offsets(p, 0, -(long) size);
    return old;
}

void
dp_packet_set_size(struct dp_packet *p, size_t size)
{
    ovs_assert(size <= p->allocated - p->data_ofs);
    p->size = size;
}

void *
dp_packet_insert_front(struct dp_packet *p, size_t offset, size_t size)
{
    ovs_assert(offset <= p->size);
    dp_packet_prealloc_headroom(p, size);
    uint8_t *old = dp_packet_data(p);
    p->data_ofs -= size;
    p->size += size;
    memmove(old - size, old, offset);
    dp_packet_shift_offsets(p, offset, size);
    return old - size + offset;
}

void
dp_packet_remove_front(struct dp_packet *p, size_t offset, size_t size)
{
    ovs_assert(offset <= p->size && size <= p->size - offset);
    uint8_t *old = dp_packet_data(p);
    memmove(old + size, old, offset);
    p->data_ofs += size;
    p->size -= size;
    /* Headers that started inside the removed range are gone. */
    uint16_t *ofss[] = { &p->l2_5_ofs, &p->l3_ofs, &p->l4_ofs,
                         &p->payload_ofs };
    for (size_t i = 0; i < ARRAY_SIZE(ofss); i++) {
        uint16_t o = *ofss[i];
        if (o != DP_PACKET_OFS_NONE && o >= offset) {
            *ofss[i] = o < offset + size ? DP_PACKET_OFS_NONE : o - size;
        }
    }
}

void
dp_packet_batch_clone(struct dp_packet_batch *dst,
                      const struct dp_packet_batch *src)
{
    dp_packet_batch_init(dst);
    for (size_t i = 0; i < src->count; i++) {
        dp_packet_batch_add(dst, dp_packet_clone(src->packets[i]));
    }
}

bool
dp_packet_batch_add_or_delete(struct dp_packet_batch *b,
                              struct dp_packet *packet)
{
    if (dp_packet_batch_is_full(b)) {
        dp_packet_delete(packet);
        return false;
    }
    dp_packet_batch_add(b, packet);
    return true;
}

void
dp_packet_batch_move(struct dp_packet_batch *dst, struct dp_packet_batch *src)
{
    for (size_t i = 0; i < src->count; i++) {
        dp_packet_batch_add_or_delete(dst, src->packets[i]);
    }
    src->count = 0;
}

void
dp_packet_batch_delete(struct dp_packet_batch *b)
{
    for (size_t i = 0; i < b->count; i++) {
        dp_packet_delete(b->packets[i]);
    }
    b->count = 0;
}

void
dp_packet_rx_pool_init(struct dp_packet_rx_pool *pool, size_t frame_size,
                       size_t headroom)
{
    ovs_assert(headroom < frame_size);
    pool->frame_size = frame_size;
    pool->headroom = headroom;
    pool->block = xmalloc(frame_size * NETDEV_MAX_BURST);
    for (size_t i = 0; i < NETDEV_MAX_BURST; i++) {
        dp_packet_use_foreign(&pool->packets[i],
                              pool->block + i * frame_size, frame_size,
                              headroom, 0);
    }
}

void
dp_packet_rx_pool_destroy(struct dp_packet_rx_pool *pool)
{
    for (size_t i = 0; i < NETDEV_MAX_BURST; i++) {
        dp_packet_uninit(&pool->packets[i]);
    }
    free(pool->block);
    pool->block = NULL;
}

void
dp_packet_rx_pool_reset(struct dp_packet_rx_pool *pool)
{
    for (size_t i = 0; i < NETDEV_MAX_BURST; i++) {
        struct dp_packet *p = &pool->packets[i];
        if (p->source != DPBUF_FOREIGN
            || p->base != pool->block + i * pool->frame_size) {
            /* It grew onto the heap: back to its slot. */
            dp_packet_uninit(p);
            dp_packet_use_foreign(p, pool->block + i * pool->frame_size,
                                  pool->frame_size, pool->headroom, 0);
        } else {
            dp_packet_clear(p, pool->headroom);
        }
    }
}

void
dp_packet_format_hex(struct ds *out, const struct dp_packet *p)
{
    const uint8_t *bytes = dp_packet_data(p);
    ds_put_format(out, "%"PRIu32" bytes: ", p->size);
    for (uint32_t i = 0; i < p->size; i++) {
        ds_put_format(out, "%02x", bytes[i]);
    }
}
