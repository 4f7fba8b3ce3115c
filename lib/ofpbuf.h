/* ofpbuf: a byte buffer with room to grow at both ends.
 *
 * Packets and protocol messages are built and parsed in ofpbufs.  The
 * buffer is one allocation [BASE, BASE + ALLOCATED) holding the payload
 * [DATA, DATA + SIZE); the space before DATA is headroom, the space after
 * is tailroom.  Encoders append with ofpbuf_put*() and prepend headers with
 * ofpbuf_push*(); decoders consume from the front with ofpbuf_pull() and
 * ofpbuf_try_pull().
 *
 * Where the memory comes from (SOURCE):
 *   OFPBUF_MALLOC  heap; the ofpbuf owns BASE and grows it with realloc.
 *   OFPBUF_STACK   caller's fixed memory (ofpbuf_use_stack()); growing past
 *                  it is a bug and aborts.  Good for "must fit" encoders.
 *   OFPBUF_STUB    caller's memory as a first guess (ofpbuf_use_stub());
 *                  on overflow the contents move to the heap and the ofpbuf
 *                  becomes OFPBUF_MALLOC, transparently.  Always call
 *                  ofpbuf_uninit() on a stub buffer: it may have moved.
 * ofpbuf_use_const() wraps read-only data for parsing: never write to it.
 *
 * Growing may move the data.  Pointers into the buffer kept by the caller
 * go stale then, except HEADER and MSG, which the ofpbuf rebases itself.
 * Those two conventionally point at the current message's outer header and
 * body while a message is being built or parsed.
 *
 * LIST_NODE lets callers queue buffers without another allocation; the
 * ofpbuf never touches it.
 */
#ifndef OFPBUF_H
#define OFPBUF_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "list.h"
#include "util.h"

struct ds;

enum ofpbuf_source {
    OFPBUF_MALLOC,
    OFPBUF_STACK,
    OFPBUF_STUB,
};

struct ofpbuf {
    void *base;                 /* First byte of the allocation. */
    void *data;                 /* First byte of the payload. */
    uint32_t size;              /* Payload bytes. */
    uint32_t allocated;         /* Bytes at BASE. */
    void *header;               /* Outer header, or NULL; kept valid. */
    void *msg;                  /* Message body, or NULL; kept valid. */
    struct ovs_list list_node;  /* For the caller's queues. */
    enum ofpbuf_source source;
};

/* An empty stub buffer over the array STUB, for static initialization. */
#define OFPBUF_STUB_INITIALIZER(STUB) {                                 \
        .base = (STUB),                                                 \
        .data = (STUB),                                                 \
        .size = 0,                                                      \
        .allocated = sizeof (STUB),                                     \
        .header = NULL,                                                 \
        .msg = NULL,                                                    \
        .list_node = OVS_LIST_POISON_INITIALIZER,                       \
        .source = OFPBUF_STUB,                                          \
    }

/* A read-only buffer over SIZE bytes at DATA, for parsing. */
#define OFPBUF_CONST_INITIALIZER(DATA, SIZE) {                          \
        .base = (void *) (DATA),                                        \
        .data = (void *) (DATA),                                        \
        .size = (SIZE),                                                 \
        .allocated = (SIZE),                                            \
        .header = NULL,                                                 \
        .msg = NULL,                                                    \
        .list_node = OVS_LIST_POISON_INITIALIZER,                       \
        .source = OFPBUF_STACK,                                         \
    }

void ofpbuf_use_stack(struct ofpbuf *, void *base, size_t allocated);
void ofpbuf_use_stub(struct ofpbuf *, void *base, size_t allocated);
/* Wraps SIZE bytes of read-only DATA (cast away; the caller promises not to
 * write). */
void ofpbuf_use_const(struct ofpbuf *, const void *data, size_t size);
void ofpbuf_use_ds(struct ofpbuf *, const struct ds *);

/* Heap buffer with room for SIZE bytes. */
void ofpbuf_init(struct ofpbuf *, size_t size);
void ofpbuf_uninit(struct ofpbuf *);
/* Uninit then init with SIZE. */
void ofpbuf_reinit(struct ofpbuf *, size_t size);

struct ofpbuf *ofpbuf_new(size_t size);
struct ofpbuf *ofpbuf_new_with_headroom(size_t size, size_t headroom);
/* Heap copies; HEADER and MSG are carried over to the same offsets. */
struct ofpbuf *ofpbuf_clone(const struct ofpbuf *);
struct ofpbuf *ofpbuf_clone_with_headroom(const struct ofpbuf *,
                                          size_t headroom);
struct ofpbuf *ofpbuf_clone_data(const void *, size_t);
struct ofpbuf *ofpbuf_clone_data_with_headroom(const void *, size_t,
                                               size_t headroom);
/* Frees B and its data; NULL is a no-op. */
void ofpbuf_delete(struct ofpbuf *);

/* SIZE bytes at OFFSET into the payload, or NULL if out of range. */
static inline void *
ofpbuf_at(const struct ofpbuf *b, size_t offset, size_t size)
{
    return (offset <= b->size && size <= b->size - offset
            ? (char *) b->data + offset
            : NULL);
}

/* Like ofpbuf_at() but the range must be there. */
static inline void *
ofpbuf_at_assert(const struct ofpbuf *b, size_t offset, size_t size)
{
    ovs_assert(offset <= b->size && size <= b->size - offset);
    return (char *) b->data + offset;
}

/* First byte past the payload. */
static inline void *
ofpbuf_tail(const struct ofpbuf *b)
{
    return (char *) b->data + b->size;
}

/* First byte past the allocation. */
static inline void *
ofpbuf_end(const struct ofpbuf *b)
{
    return (char *) b->base + b->allocated;
}

static inline size_t
ofpbuf_headroom(const struct ofpbuf *b)
{
    return (char *) b->data - (char *) b->base;
}

static inline size_t
ofpbuf_tailroom(const struct ofpbuf *b)
{
    return (char *) ofpbuf_end(b) - (char *) ofpbuf_tail(b);
}

/* Ensure at least SIZE bytes of headroom / tailroom, moving the data if
 * needed. */
void ofpbuf_prealloc_headroom(struct ofpbuf *, size_t size);
void ofpbuf_prealloc_tailroom(struct ofpbuf *, size_t size);

/* Appending.  Each returns a pointer to the new bytes (valid until the
 * buffer next grows). */
void *ofpbuf_put_uninit(struct ofpbuf *, size_t size);
void *ofpbuf_put_zeros(struct ofpbuf *, size_t size);
void *ofpbuf_put(struct ofpbuf *, const void *, size_t size);
/* Appends the bytes that S spells as pairs of hex digits; white space and
 * dots ("00.01.02", as notes and userdata print) between pairs are
 * allowed.  This is the one byte-string rule of every text syntax.
 * Returns the first unparsed character of S.  N, if nonnull, receives the
 * number of bytes appended. */
char *ofpbuf_put_hex(struct ofpbuf *, const char *s, size_t *n);
/* Turns SIZE bytes of tailroom into headroom; the buffer must be empty. */
void ofpbuf_reserve(struct ofpbuf *, size_t size);
/* Turns HEADROOM bytes into headroom, then makes sure at least TAILROOM
 * bytes of tailroom are left; the buffer must be empty. */
void ofpbuf_reserve_with_tailroom(struct ofpbuf *, size_t headroom,
                                  size_t tailroom);

/* Prepending.  Each returns the new start of the payload. */
void *ofpbuf_push_uninit(struct ofpbuf *, size_t size);
void *ofpbuf_push_zeros(struct ofpbuf *, size_t size);
void *ofpbuf_push(struct ofpbuf *, const void *, size_t size);

/* Removes SIZE bytes from the front and returns a pointer to them.  The
 * buffer must hold them. */
static inline void *
ofpbuf_pull(struct ofpbuf *b, size_t size)
{
    ovs_assert(b->size >= size);
    void *data = b->data;
    b->data = (char *) b->data + size;
    b->size -= size;
    return data;
}

/* Like ofpbuf_pull() but returns NULL, consuming nothing, if the buffer is
 * shorter than SIZE. */
static inline void *
ofpbuf_try_pull(struct ofpbuf *b, size_t size)
{
    return b->size >= size ? ofpbuf_pull(b, size) : NULL;
}

/* Empties the payload and moves DATA back to BASE. */
static inline void
ofpbuf_clear(struct ofpbuf *b)
{
    b->data = b->base;
    b->size = 0;
}

/* Returns the payload as a malloc'd block the caller frees (copied unless
 * B's own heap block starts with it), and leaves B an empty heap buffer. */
void *ofpbuf_steal_data(struct ofpbuf *);
/* Shrinks the allocation to the payload (heap buffers only). */
void ofpbuf_trim(struct ofpbuf *);
/* Moves the payload DELTA bytes (negative: towards BASE) inside the
 * allocation; it must stay inside. */
void ofpbuf_shift(struct ofpbuf *, int delta);
/* Removes SIZE bytes from the end. */
static inline void
ofpbuf_truncate_tail(struct ofpbuf *b, size_t size)
{
    ovs_assert(b->size >= size);
    b->size -= size;
}

static inline bool
ofpbuf_equal(const struct ofpbuf *a, const struct ofpbuf *b)
{
    return a->size == b->size
           && (a->size == 0 || !memcmp(a->data, b->data, a->size));
}

/* Whether ofpbuf_pull()/ofpbuf_try_pull() have used up the payload. */
static inline bool
ofpbuf_is_empty(const struct ofpbuf *b)
{
    return b->size == 0;
}

/* Hex dump of the payload (ds_put_hex_dump() format) preceded by a line
 * describing the buffer.  Newly allocated. */
char *ofpbuf_to_string(const struct ofpbuf *, size_t maxbytes);

/* The ofpbuf whose LIST_NODE is LIST. */
static inline struct ofpbuf *
ofpbuf_from_list(const struct ovs_list *list)
{
    return CONTAINER_OF(list, struct ofpbuf, list_node);
}
/* Deletes every ofpbuf on LIST (linked by LIST_NODE). */
void ofpbuf_list_delete(struct ovs_list *);

#endif /* ofpbuf.h */
