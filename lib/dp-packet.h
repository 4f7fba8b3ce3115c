/* dp-packet: a packet on its way through the datapath.
 *
 * A struct dp_packet is the bytes of one Ethernet frame plus what the
 * datapath learns about it: where each protocol layer starts (set by
 * flow_extract()), the flow hash once someone computed it, and the
 * metadata that travels with the packet but is not in its bytes (input
 * port, skb priority, mark, recirculation id, tunnel).
 *
 * Memory
 * ------
 *
 * The bytes live in one block [BASE, BASE + ALLOCATED).  The frame is
 * [DATA, DATA + SIZE) inside it; the space before DATA is headroom, so
 * that push_vlan or an encapsulation header is a pointer move, not a copy.
 * Who owns the block is the packet's SOURCE:
 *
 *   DPBUF_MALLOC   the packet owns BASE (heap) and frees it.
 *
 *   DPBUF_FOREIGN  somebody else owns BASE: a slot of an mmap'd AF_PACKET
 *                  ring, a slot of an upcall ring, a receive pool's buffer,
 *                  a caller's stack array.  The packet may read and write
 *                  the bytes in place, but never frees them.  The owner
 *                  must keep the bytes valid, and must not hand the slot
 *                  back to the kernel or to the next writer, until the
 *                  packet is finished with: in the datapath that is when
 *                  the batch the packet belongs to has been executed (the
 *                  receive thread returns its ring slots after
 *                  dp_execute of the batch returns).  A packet that must
 *                  outlive that moment (queued, or sent on later) is
 *                  copied with dp_packet_clone(), which is always
 *                  DPBUF_MALLOC.  If a foreign packet has to grow past its
 *                  block (a push with no headroom left), its bytes move to
 *                  the heap and it becomes DPBUF_MALLOC by itself; the
 *                  foreign block is then no longer referenced.
 *
 * The struct itself is either the caller's (dp_packet_init*(),
 * dp_packet_use_foreign(), a receive pool's array) or allocated by
 * dp_packet_new()/dp_packet_clone(); dp_packet_delete() frees it only in
 * the second case, so the same "delete" works on every packet the datapath
 * drops or consumes.
 *
 * Layer offsets
 * -------------
 *
 * L2 is DATA itself.  The l2_5 (first VLAN tag), l3, l4 and payload
 * offsets count bytes from DATA; UINT16_MAX means "no such layer" (a layer
 * that was truncated or malformed is not set, nor any after it).  The
 * push and pull helpers for the front of the frame keep the offsets
 * pointing at the same headers.
 *
 * Batches
 * -------
 *
 * A struct dp_packet_batch is up to NETDEV_MAX_BURST packet pointers: what
 * a receive call returns and what an action list is executed on.  A
 * receive thread keeps a struct dp_packet_rx_pool, NETDEV_MAX_BURST
 * packets with a buffer each in a single allocation, and refills it on
 * every receive without a malloc per packet (dp_packet_rx_pool_reset()).
 *
 * Threads: a packet and a batch belong to one thread at a time; nothing
 * here locks.
 */
#ifndef DP_PACKET_H
#define DP_PACKET_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "flow.h"
#include "util.h"

/* The most packets a receive call returns and a batch holds. */
#define NETDEV_MAX_BURST 32

/* Headroom a new packet gets: enough for two VLAN tags and a tunnel
 * header (IPv6 + UDP + Geneve with options) without moving the frame. */
#define DP_PACKET_HEADROOM 128

/* Metadata: what the datapath knows about a packet beyond its bytes.  The
 * same fields are the metadata stage of the packet's flow key. */
struct pkt_metadata {
    uint32_t in_port;           /* Datapath port number. */
    uint32_t skb_priority;
    uint32_t pkt_mark;
    uint32_t recirc_id;
    uint32_t dp_hash;
    ovs_be32 packet_type;       /* PT_ETH (0): an Ethernet frame; else what
                                 * the frame starts with, e.g. PT_IPV4 for
                                 * a packet-out of an IPv4 packet. */
    struct flow_tnl tunnel;     /* All zero if not tunnelled. */
    uint32_t ct_state;          /* CS_* bits (flow.h) from the last ct()
                                 * action; 0: not tracked, and then the
                                 * ct_* fields after tun_opts mean
                                 * nothing. */

    /* The Geneve options of a packet that tnl_pop decapsulated, raw, as on
     * the wire: meaningful only while tunnel.flags has FLOW_TNL_F_UDPIF
     * (flow_extract() then copies them into the flow's tun_metadata, see
     * tnl-header.h).  Kept last so that pkt_metadata_init() need not
     * clear them for every received packet. */
    uint8_t tun_opts_len;
    uint8_t tun_opts[252];

    /* What the connection tracker (conntrack.h) says of the packet, read
     * only while ct_state is nonzero (so pkt_metadata_init() need not
     * clear it either): the connection's zone, mark and label, and its
     * original direction's tuple, which also names the connection again
     * to a later ct() in the same zone after NAT rewrote the headers. */
    uint16_t ct_zone;
    uint8_t ct_nw_proto;        /* Original tuple: IP protocol, 0 if the
                                 * packet is in no connection. */
    bool ct_orig_ipv6;          /* Its addresses are ct_ipv6_*. */
    uint32_t ct_mark;
    uint8_t ct_label[16];       /* Network order, as in struct flow. */
    ovs_be32 ct_nw_src, ct_nw_dst;
    struct in6_addr ct_ipv6_src, ct_ipv6_dst;
    ovs_be16 ct_tp_src, ct_tp_dst;
};

/* Clears MD, but for the Geneve options that nothing reads unless
 * tunnel.flags says so, and sets its input port. */
static inline void
pkt_metadata_init(struct pkt_metadata *md, uint32_t in_port)
{
    memset(md, 0, offsetof(struct pkt_metadata, tun_opts_len));
    md->in_port = in_port;
}

enum dp_packet_source {
    DPBUF_MALLOC,               /* BASE is the packet's, on the heap. */
    DPBUF_FOREIGN,              /* BASE belongs to somebody else. */
};

#define DP_PACKET_OFS_NONE UINT16_MAX

struct dp_packet {
    void *base;                 /* Start of the block. */
    uint32_t allocated;         /* Bytes at BASE. */
    uint32_t data_ofs;          /* Headroom: DATA is BASE + data_ofs. */
    uint32_t size;              /* Frame bytes at DATA. */
    enum dp_packet_source source;
    bool heap_struct;           /* dp_packet_delete() frees the struct. */
    bool hash_valid;            /* 'hash' has been computed. */

    /* Layer offsets from DATA, or DP_PACKET_OFS_NONE. */
    uint16_t l2_5_ofs;          /* First VLAN (or MPLS) header. */
    uint16_t l3_ofs;            /* Network header. */
    uint16_t l4_ofs;            /* Transport header (or ICMP, ARP none). */
    uint16_t payload_ofs;       /* First byte after the L4 header. */

    uint32_t hash;              /* Flow hash, if hash_valid. */
    struct pkt_metadata md;
};

/* Construction and destruction. */
void dp_packet_init(struct dp_packet *, size_t capacity);
void dp_packet_init_with_headroom(struct dp_packet *, size_t capacity,
                                  size_t headroom);
/* Wraps a foreign block: the frame is SIZE bytes at BASE + DATA_OFS, and
 * the DATA_OFS bytes before it may be used as headroom. */
void dp_packet_use_foreign(struct dp_packet *, void *base, size_t allocated,
                           size_t data_ofs, size_t size);
/* Frees the bytes if the packet owns them.  The struct stays usable for
 * another dp_packet_init*(). */
void dp_packet_uninit(struct dp_packet *);

struct dp_packet *dp_packet_new(size_t capacity);
struct dp_packet *dp_packet_new_with_headroom(size_t capacity,
                                              size_t headroom);
/* A heap packet holding a copy of SIZE bytes at DATA. */
struct dp_packet *dp_packet_clone_data(const void *data, size_t size);
/* A heap copy of PACKET: bytes, offsets, hash and metadata. */
struct dp_packet *dp_packet_clone(const struct dp_packet *);
/* Uninits PACKET and frees the struct if dp_packet_new/clone made it. */
void dp_packet_delete(struct dp_packet *);

/* Forgets the frame, offsets, hash and metadata, keeping the block: the
 * packet is empty with HEADROOM bytes of headroom (clamped to the block). */
void dp_packet_clear(struct dp_packet *, size_t headroom);
/* Clears offsets, hash and metadata only. */
void dp_packet_reset_offsets(struct dp_packet *);

static inline void *
dp_packet_base(const struct dp_packet *p)
{
    return p->base;
}

static inline void *
dp_packet_data(const struct dp_packet *p)
{
    return (char *) p->base + p->data_ofs;
}

static inline uint32_t
dp_packet_size(const struct dp_packet *p)
{
    return p->size;
}

static inline void *
dp_packet_tail(const struct dp_packet *p)
{
    return (char *) dp_packet_data(p) + p->size;
}

static inline size_t
dp_packet_headroom(const struct dp_packet *p)
{
    return p->data_ofs;
}

static inline size_t
dp_packet_tailroom(const struct dp_packet *p)
{
    return p->allocated - p->data_ofs - p->size;
}

/* The SIZE bytes at OFFSET from DATA, or NULL if the frame is shorter. */
static inline void *
dp_packet_at(const struct dp_packet *p, size_t offset, size_t size)
{
    return (offset <= p->size && size <= p->size - offset
            ? (char *) dp_packet_data(p) + offset : NULL);
}

/* Making room, adding and removing bytes.  Growing may move the frame
 * (and turn a foreign packet into a heap one): pointers into it go stale,
 * offsets do not. */
void dp_packet_prealloc_headroom(struct dp_packet *, size_t size);
void dp_packet_prealloc_tailroom(struct dp_packet *, size_t size);
void *dp_packet_put_uninit(struct dp_packet *, size_t size);
void *dp_packet_put_zeros(struct dp_packet *, size_t size);
void *dp_packet_put(struct dp_packet *, const void *, size_t size);
/* Adds SIZE bytes before DATA.  Every layer offset moves by SIZE, so
 * offsets keep naming the same headers. */
void *dp_packet_push_uninit(struct dp_packet *, size_t size);
void *dp_packet_push(struct dp_packet *, const void *, size_t size);
/* Removes SIZE bytes from the front (the frame must have them); offsets
 * that fall inside the removed bytes become DP_PACKET_OFS_NONE. */
void *dp_packet_pull(struct dp_packet *, size_t size);
/* Sets the frame's length to SIZE, shorter or longer (within the block:
 * SIZE may not exceed size + tailroom), e.g. after a receiver wrote SIZE
 * bytes at DATA. */
void dp_packet_set_size(struct dp_packet *, size_t size);

/* Inserts SIZE bytes at OFFSET from DATA by moving the OFFSET bytes before
 * it into the headroom (so a VLAN tag after the MAC addresses costs a
 * 12-byte move).  Offsets at or past OFFSET keep naming their headers.
 * Returns the inserted (uninitialized) bytes. */
void *dp_packet_insert_front(struct dp_packet *, size_t offset, size_t size);
/* The reverse: removes SIZE bytes at OFFSET (the frame must have them) by
 * moving the OFFSET bytes before them forward. */
void dp_packet_remove_front(struct dp_packet *, size_t offset, size_t size);

/* Layers. */
static inline void *
dp_packet_layer(const struct dp_packet *p, uint16_t ofs)
{
    return ofs != DP_PACKET_OFS_NONE ? (char *) dp_packet_data(p) + ofs
                                     : NULL;
}

static inline void *dp_packet_eth(const struct dp_packet *p)
{ return p->size ? dp_packet_data(p) : NULL; }
static inline void *dp_packet_l2_5(const struct dp_packet *p)
{ return dp_packet_layer(p, p->l2_5_ofs); }
static inline void *dp_packet_l3(const struct dp_packet *p)
{ return dp_packet_layer(p, p->l3_ofs); }
static inline void *dp_packet_l4(const struct dp_packet *p)
{ return dp_packet_layer(p, p->l4_ofs); }
static inline void *dp_packet_payload(const struct dp_packet *p)
{ return dp_packet_layer(p, p->payload_ofs); }

/* Bytes from a layer to the end of the frame (0 if the layer is absent). */
static inline size_t
dp_packet_layer_size(const struct dp_packet *p, uint16_t ofs)
{
    return ofs != DP_PACKET_OFS_NONE && ofs <= p->size ? p->size - ofs : 0;
}

static inline size_t dp_packet_l3_size(const struct dp_packet *p)
{ return dp_packet_layer_size(p, p->l3_ofs); }
static inline size_t dp_packet_l4_size(const struct dp_packet *p)
{ return dp_packet_layer_size(p, p->l4_ofs); }

/* The flow hash. */
static inline void
dp_packet_set_hash(struct dp_packet *p, uint32_t hash)
{
    p->hash = hash;
    p->hash_valid = true;
}

static inline bool
dp_packet_hash_valid(const struct dp_packet *p)
{
    return p->hash_valid;
}

/* Batches. */
struct dp_packet_batch {
    size_t count;
    struct dp_packet *packets[NETDEV_MAX_BURST];
};

static inline void
dp_packet_batch_init(struct dp_packet_batch *b)
{
    b->count = 0;
}

static inline size_t
dp_packet_batch_size(const struct dp_packet_batch *b)
{
    return b->count;
}

static inline bool
dp_packet_batch_is_full(const struct dp_packet_batch *b)
{
    return b->count >= NETDEV_MAX_BURST;
}

/* Appends PACKET; a full batch is a caller bug (asserts). */
static inline void
dp_packet_batch_add(struct dp_packet_batch *b, struct dp_packet *packet)
{
    ovs_assert(b->count < NETDEV_MAX_BURST);
    b->packets[b->count++] = packet;
}

/* A batch of one. */
static inline void
dp_packet_batch_init_packet(struct dp_packet_batch *b, struct dp_packet *p)
{
    b->count = 1;
    b->packets[0] = p;
}

#define DP_PACKET_BATCH_FOR_EACH(IDX, PACKET, BATCH)                      \
    for (size_t IDX = 0;                                                  \
         IDX < (BATCH)->count && ((PACKET) = (BATCH)->packets[IDX], 1);   \
         IDX++)

/* DST gets heap copies of SRC's packets. */
void dp_packet_batch_clone(struct dp_packet_batch *dst,
                           const struct dp_packet_batch *src);
/* dp_packet_delete() of every packet; the batch is then empty. */
void dp_packet_batch_delete(struct dp_packet_batch *);
/* Moves SRC's packets to the end of DST, deleting those DST has no room
 * for; SRC is then empty. */
void dp_packet_batch_move(struct dp_packet_batch *dst,
                          struct dp_packet_batch *src);
/* Adds PACKET (taken over) to B, or deletes it if B is full.  Returns
 * whether it was added. */
bool dp_packet_batch_add_or_delete(struct dp_packet_batch *b,
                                   struct dp_packet *packet);

/* A receive thread's reusable packets: NETDEV_MAX_BURST packets, each over
 * a FRAME_SIZE-byte buffer (headroom included) carved from one block the
 * pool owns.  The packets are DPBUF_FOREIGN over the pool's block: they
 * never free it, and one that grew onto the heap is returned to its slot
 * (its heap bytes freed) by the next reset. */
struct dp_packet_rx_pool {
    uint8_t *block;
    size_t frame_size;
    size_t headroom;
    struct dp_packet packets[NETDEV_MAX_BURST];
};

void dp_packet_rx_pool_init(struct dp_packet_rx_pool *, size_t frame_size,
                            size_t headroom);
void dp_packet_rx_pool_destroy(struct dp_packet_rx_pool *);
/* Makes every packet of the pool empty again, with the configured
 * headroom and metadata cleared.  A receiver then writes a frame at
 * dp_packet_data() of packet I (dp_packet_tailroom() bytes of room), sets
 * its length with dp_packet_set_size() and adds it to its batch. */
void dp_packet_rx_pool_reset(struct dp_packet_rx_pool *);

static inline struct dp_packet *
dp_packet_rx_pool_packet(struct dp_packet_rx_pool *pool, size_t i)
{
    ovs_assert(i < NETDEV_MAX_BURST);
    return &pool->packets[i];
}

/* Appends "SIZE bytes: HEX" to OUT, for logs and test messages. */
struct ds;
void dp_packet_format_hex(struct ds *out, const struct dp_packet *);

#endif /* dp-packet.h */
