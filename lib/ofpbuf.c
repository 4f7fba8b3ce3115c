#include <config.h>
#include "ofpbuf.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"

static void
ofpbuf_use__(struct ofpbuf *b, void *base, size_t allocated, size_t size,
             enum ofpbuf_source source)
{
    ovs_assert(allocated <= UINT32_MAX);
    b->base = base;
    b->data = base;
    b->size = size;
    b->allocated = allocated;
    b->header = NULL;
    b->msg = NULL;
    ovs_list_poison(&b->list_node);
    b->source = source;
}

void
ofpbuf_use_stack(struct ofpbuf *b, void *base, size_t allocated)
{
    ofpbuf_use__(b, base, allocated, 0, OFPBUF_STACK);
}

void
ofpbuf_use_stub(struct ofpbuf *b, void *base, size_t allocated)
{
    ofpbuf_use__(b, base, allocated, 0, OFPBUF_STUB);
}

void
ofpbuf_use_const(struct ofpbuf *b, const void *data, size_t size)
{
    /* A full stack buffer: any attempt to grow it aborts, which is the best
     * available guard against writing to read-only memory. */
    ofpbuf_use__(b, (void *) data, size, size, OFPBUF_STACK);
}

void
ofpbuf_use_ds(struct ofpbuf *b, const struct ds *ds)
{
    ofpbuf_use_const(b, ds->string, ds->length);
}

void
ofpbuf_init(struct ofpbuf *b, size_t size)
{
    ofpbuf_use__(b, size ? xmalloc(size) : NULL, size, 0, OFPBUF_MALLOC);
}

void
ofpbuf_uninit(struct ofpbuf *b)
{
    if (b && b->source == OFPBUF_MALLOC) {
        free(b->base);
        b->base = b->data = NULL;
    }
}

void
ofpbuf_reinit(struct ofpbuf *b, size_t size)
{
    ofpbuf_uninit(b);
    ofpbuf_init(b, size);
}

struct ofpbuf *
ofpbuf_new(size_t size)
{
    struct ofpbuf *b = xmalloc(sizeof *b);
    ofpbuf_init(b, size);
    return b;
}

struct ofpbuf *
ofpbuf_new_with_headroom(size_t size, size_t headroom)
{
    struct ofpbuf *b = ofpbuf_new(size + headroom);
    ofpbuf_reserve(b, headroom);
    return b;
}

struct ofpbuf *
ofpbuf_clone_data_with_headroom(const void *data, size_t size,
                                size_t headroom)
{
    struct ofpbuf *b = ofpbuf_new_with_headroom(size, headroom);
    ofpbuf_put(b, data, size);
    return b;
}

struct ofpbuf *
ofpbuf_clone_data(const void *data, size_t size)
{
    return ofpbuf_clone_data_with_headroom(data, size, 0);
}

/* Whether P points into [START, END]. */
static bool
points_into(const void *p, const void *start, const void *end)
{
    uintptr_t x = (uintptr_t) p;
    return x >= (uintptr_t) start && x <= (uintptr_t) end;
}

struct ofpbuf *
ofpbuf_clone_with_headroom(const struct ofpbuf *b, size_t headroom)
{
    /* A decoder usually pulls the header off before cloning, leaving HEADER
     * pointing into the headroom.  Copy from the earliest of HEADER, MSG and
     * DATA so that the clone's HEADER points at real bytes too. */
    char *start = b->data;
    char *tail = ofpbuf_tail(b);
    if (b->header && points_into(b->header, b->base, start)) {
        start = b->header;
    }
    if (b->msg && points_into(b->msg, b->base, start)) {
        start = b->msg;
    }

    size_t lead = (char *) b->data - start;
    struct ofpbuf *new = ofpbuf_clone_data_with_headroom(start, tail - start,
                                                         headroom);
    ofpbuf_pull(new, lead);

    if (b->header && points_into(b->header, start, tail)) {
        new->header = (char *) new->data
                      + ((char *) b->header - (char *) b->data);
    }
    if (b->msg && points_into(b->msg, start, tail)) {
        new->msg = (char *) new->data + ((char *) b->msg - (char *) b->data);
    }
    return new;
}

struct ofpbuf *
ofpbuf_clone(const struct ofpbuf *b)
{
    return ofpbuf_clone_with_headroom(b, 0);
}

void
ofpbuf_delete(struct ofpbuf *b)
{
    if (b) {
        ofpbuf_uninit(b);
        free(b);
    }
}

/* Moves B into a new allocation with NEW_HEADROOM bytes before the payload
 * and NEW_TAILROOM after it, keeping HEADER and MSG pointing at the same
 * bytes.  As much of the old headroom as fits is carried over, because
 * HEADER often points at a header that was already pulled. */
static void
ofpbuf_resize__(struct ofpbuf *b, size_t new_headroom, size_t new_tailroom)
{
    size_t old_headroom = ofpbuf_headroom(b);
    size_t new_allocated = new_headroom + b->size + new_tailroom;
    size_t keep = MIN(old_headroom, new_headroom);
    char *old_data = b->data;
    char *new_base;

    /* Offsets, not pointers, survive the move: after free() the old
     * pointers may not even be compared. */
    ptrdiff_t header_ofs = b->header ? (char *) b->header - old_data : 0;
    ptrdiff_t msg_ofs = b->msg ? (char *) b->msg - old_data : 0;

    ovs_assert(new_allocated <= UINT32_MAX);
    switch (b->source) {
    case OFPBUF_MALLOC:
        if (new_headroom == old_headroom) {
            /* realloc() keeps the prefix, which is the headroom and the
             * payload: exactly what we want, often without copying. */
            new_base = xrealloc(b->base, new_allocated);
            break;
        }
        new_base = xmalloc(new_allocated);
        if (keep + b->size) {
            memcpy(new_base + new_headroom - keep, old_data - keep,
                   keep + b->size);
        }
        free(b->base);
        break;

    case OFPBUF_STUB:
        /* Outgrew the caller's memory: move to the heap for good. */
        new_base = xmalloc(new_allocated);
        if (keep + b->size) {
            memcpy(new_base + new_headroom - keep, old_data - keep,
                   keep + b->size);
        }
        b->source = OFPBUF_MALLOC;
        break;

    case OFPBUF_STACK:
    default:
        ovs_abort(0, "ofpbuf: fixed buffer of %"PRIu32" bytes cannot grow "
                  "to %zu bytes", b->allocated, new_allocated);
    }

    b->base = new_base;
    b->allocated = new_allocated;
    b->data = new_base + new_headroom;
    if (b->header) {
        b->header = (char *) b->data + header_ofs;
    }
    if (b->msg) {
        b->msg = (char *) b->data + msg_ofs;
    }
}

void
ofpbuf_prealloc_tailroom(struct ofpbuf *b, size_t size)
{
    if (size > ofpbuf_tailroom(b)) {
        /* Grow in proportion to the payload so that a long run of small
         * appends costs amortized O(1) per byte. */
        size_t new_tailroom = MAX(size, MAX(64, (size_t) b->size));
        ofpbuf_resize__(b, ofpbuf_headroom(b), new_tailroom);
    }
}

void
ofpbuf_prealloc_headroom(struct ofpbuf *b, size_t size)
{
    if (size > ofpbuf_headroom(b)) {
        ofpbuf_resize__(b, MAX(size, 64), ofpbuf_tailroom(b));
    }
}

void *
ofpbuf_put_uninit(struct ofpbuf *b, size_t size)
{
    ofpbuf_prealloc_tailroom(b, size);
    void *p = ofpbuf_tail(b);
    b->size += size;
    return p;
}

void *
ofpbuf_put_zeros(struct ofpbuf *b, size_t size)
{
    void *p = ofpbuf_put_uninit(b, size);
    if (size) {
        memset(p, 0, size);
    }
    return p;
}

void *
ofpbuf_put(struct ofpbuf *b, const void *data, size_t size)
{
    void *p = ofpbuf_put_uninit(b, size);
    if (size) {
        memcpy(p, data, size);
    }
    return p;
}


char *
ofpbuf_put_hex(struct ofpbuf *b, const char *s, size_t *n)
{
    size_t initial_size = b->size;

    for (;;) {
        while (isspace((unsigned char) *s) || *s == '.') {
            s++;
        }
        int hi = hexit_value((unsigned char) s[0]);
        int lo = hi < 0 ? -1 : hexit_value((unsigned char) s[1]);
        if (lo < 0) {
            break;
        }
        uint8_t byte = hi * 16 + lo;
        ofpbuf_put(b, &byte, 1);
        s += 2;
    }

    if (n) {
        *n = b->size - initial_size;
    }
    return (char *) s;
}

void
ofpbuf_reserve(struct ofpbuf *b, size_t size)
{
    ovs_assert(!b->size);
    ofpbuf_prealloc_tailroom(b, size);
    b->data = (char *) b->data + size;
}

void
ofpbuf_reserve_with_tailroom(struct ofpbuf *b, size_t headroom,
                             size_t tailroom)
{
    ovs_assert(!b->size);
    ofpbuf_prealloc_tailroom(b, headroom + tailroom);
    b->data = (char *) b->data + headroom;
}

void *
ofpbuf_push_uninit(struct ofpbuf *b, size_t size)
{
    ofpbuf_prealloc_headroom(b, size);
    b->data = (char *) b->data - size;
    b->size += size;
    return b->data;
}

void *
ofpbuf_push_zeros(struct ofpbuf *b, size_t size)
{
    void *p = ofpbuf_push_uninit(b, size);
    if (size) {
        memset(p, 0, size);
    }
    return p;
}

void *
ofpbuf_push(struct ofpbuf *b, const void *data, size_t size)
{
    void *p = ofpbuf_push_uninit(b, size);
    if (size) {
        memcpy(p, data, size);
    }
    return p;
}

void *
ofpbuf_steal_data(struct ofpbuf *b)
{
    void *p;

    if (b->source == OFPBUF_MALLOC && b->data == b->base && b->base) {
        p = b->base;
    } else {
        p = xmemdup(b->data, b->size);
        if (b->source == OFPBUF_MALLOC) {
            free(b->base);
        }
    }
    ofpbuf_use__(b, NULL, 0, 0, OFPBUF_MALLOC);
    return p;
}

void
ofpbuf_trim(struct ofpbuf *b)
{
    if (b->source == OFPBUF_MALLOC
        && (ofpbuf_headroom(b) || ofpbuf_tailroom(b))) {
        ofpbuf_resize__(b, 0, 0);
    }
}

void
ofpbuf_shift(struct ofpbuf *b, int delta)
{
    if (delta > 0) {
        ovs_assert((size_t) delta <= ofpbuf_tailroom(b));
    } else if (delta < 0) {
        ovs_assert((size_t) -(long long) delta <= ofpbuf_headroom(b));
    } else {
        return;
    }

    char *dst = (char *) b->data + delta;
    if (b->size) {
        memmove(dst, b->data, b->size);
    }
    /* HEADER and MSG follow the payload bytes they point at. */
    char *tail = ofpbuf_tail(b);
    if (b->header && points_into(b->header, b->data, tail)) {
        b->header = (char *) b->header + delta;
    }
    if (b->msg && points_into(b->msg, b->data, tail)) {
        b->msg = (char *) b->msg + delta;
    }
    b->data = dst;
}

char *
ofpbuf_to_string(const struct ofpbuf *b, size_t maxbytes)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    ds_put_format(&s, "size=%"PRIu32", allocated=%"PRIu32", head=%zu, "
                  "tail=%zu\n", b->size, b->allocated,
                  ofpbuf_headroom(b), ofpbuf_tailroom(b));
    ds_put_hex_dump(&s, b->data, MIN(b->size, maxbytes), 0, false);
    return ds_steal_cstr(&s);
}

void
ofpbuf_list_delete(struct ovs_list *list)
{
    struct ofpbuf *b;

    LIST_FOR_EACH_POP (b, list_node, list) {
        ofpbuf_delete(b);
    }
}
