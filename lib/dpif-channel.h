/* dpif-channel: upcall channels, one per datapath port, shared by every
 * handler thread.
 *
 * A packet that misses the datapath's flow table (or meets a "userspace"
 * action) must reach an upcall handler thread with its parsed key.  Open
 * vSwitch gave each handler its own socket per port (ports x handlers
 * descriptors, and unfair service under load); here each port has one
 * channel, a ring of preallocated slots, and every handler may serve every
 * channel:
 *
 *   - A receive thread reserves a slot with dpif_channel_reserve(), writes
 *     the packet bytes, key, hash and layer offsets straight into it and
 *     publishes it with dpif_channel_commit().  No allocation, no copy
 *     beyond writing the slot, no system call.  A full ring refuses the
 *     reservation and counts the upcall as lost on that channel.
 *   - A channel that turns from empty to non-empty joins the set's ready
 *     list, and exactly one sleeping handler is woken for it.  While it
 *     stays non-empty it stays listed and producers touch no lock.
 *   - dpif_channel_recv() takes up to DPIF_CHANNEL_QUANTUM upcalls from
 *     the channel at the head of the ready list, puts the channel back at
 *     the tail if it has more, and moves on to the next, until it has MAX
 *     upcalls (at most DPIF_CHANNEL_MAX_BATCH) or the list is empty.  So
 *     channels are served round-robin and a port flooding misses cannot
 *     starve a quiet one.
 *   - The handler reads the slots in place.  They stay claimed until the
 *     same handler's next dpif_channel_recv() or dpif_channel_release().
 *
 * The ring is a bounded queue in the manner of Vyukov's: each slot carries
 * a sequence number that says whether it is free for the producer at a
 * position or full for the consumer at that position, so producers on
 * several threads (receive threads, and any thread executing a
 * "userspace" action) reserve with one compare-and-swap, and a slot is
 * released independently of its neighbours.  Consumers of one channel are
 * serialized by the ready list: a channel is in the hands of at most one
 * handler at a time.
 *
 * Memory: each ring is one anonymous mapping of N_SLOTS * stride bytes,
 * allocated up front but committed by the kernel only as slots are first
 * written, so a quiet port costs address space, not memory (the slots'
 * sequence numbers are kept at the start of the mapping in a form whose
 * initial value is zero, so creating a channel writes none of it).  No file
 * descriptor belongs to a channel or to a handler: waking goes through
 * the handler threads' poll loops (poll_loop_wake()).
 *
 * Lifetime: the set owns its channels' ready list; the caller creates and
 * destroys channels (dpif_channel_destroy() may be called while handlers
 * still hold slots of the channel: the ring is freed when the last of them
 * releases).  Producers must stop using a channel before it is destroyed
 * (the datapath reaches channels through ports freed by dp-epoch).
 *
 * Threads: every function may be called from any thread, except that a
 * struct dpif_channel_handler belongs to one thread at a time. */
#ifndef DPIF_CHANNEL_H
#define DPIF_CHANNEL_H 1

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "flow.h"
#include "list.h"

#define DPIF_CHANNEL_MAX_BATCH 64   /* Upcalls per dpif_channel_recv(). */
#define DPIF_CHANNEL_QUANTUM 16     /* Per channel per round. */
/* Room for a "userspace" action's userdata: ofproto's packet_in cookie
 * with every pipeline field and some controller(userdata=...). */
#define DPIF_CHANNEL_USERDATA_MAX 512

enum dpif_channel_upcall_type {
    DPIF_CHANNEL_MISS,              /* No flow matched. */
    DPIF_CHANNEL_ACTION,            /* A "userspace" action. */
};

/* One upcall, as the producer writes it and the handler reads it. */
struct dpif_channel_slot {
    uint8_t type;                   /* enum dpif_channel_upcall_type. */
    uint8_t pad[3];
    uint32_t port;                  /* Datapath port it came in on. */
    uint32_t hash;                  /* Flow hash computed by the parser. */
    uint32_t packet_len;
    uint16_t l2_ofs, l3_ofs, l4_ofs;    /* UINT16_MAX: layer absent. */
    uint16_t userdata_len;
    uint8_t userdata[DPIF_CHANNEL_USERDATA_MAX];
    struct flow key;
    uint8_t packet[];               /* packet_len bytes. */
};

struct dpif_channel;
struct dpif_channel_set;

/* A handler thread's state: what it holds, whether it sleeps. */
struct dpif_channel_handler {
    struct dpif_channel_set *set;
    struct ovs_list sleep_node;     /* In the set's sleepers, or alone. */
    struct poll_loop *loop;         /* Its thread's loop, while sleeping. */
    size_t n_held;
    struct {
        struct dpif_channel *channel;
        uint64_t pos;
    } held[DPIF_CHANNEL_MAX_BATCH];
};

struct dpif_channel_set *dpif_channel_set_create(void);
/* All channels must have been destroyed and every handler uninitialized. */
void dpif_channel_set_destroy(struct dpif_channel_set *);

/* A channel of N_SLOTS (rounded up to a power of 2) slots, each holding a
 * packet of up to PACKET_MAX bytes, for datapath port PORT. */
struct dpif_channel *dpif_channel_create(struct dpif_channel_set *,
                                         uint32_t port, size_t n_slots,
                                         size_t packet_max);
void dpif_channel_destroy(struct dpif_channel *);

/* Producer side.  Returns a slot for an upcall of PACKET_LEN bytes to fill,
 * or NULL (counted as lost) if the ring is full or the packet does not fit
 * a slot. */
struct dpif_channel_slot *dpif_channel_reserve(struct dpif_channel *,
                                               size_t packet_len);
void dpif_channel_commit(struct dpif_channel *, struct dpif_channel_slot *);

struct dpif_channel_stats {
    uint64_t n_queued;              /* Upcalls committed. */
    uint64_t n_lost;                /* Refused: full ring, too big. */
    uint64_t n_received;            /* Taken by handlers. */
};
void dpif_channel_get_stats(const struct dpif_channel *,
                            struct dpif_channel_stats *);
uint32_t dpif_channel_port(const struct dpif_channel *);
size_t dpif_channel_n_slots(const struct dpif_channel *);
/* Bytes of CH's ring (slots and sequence numbers) the kernel has
 * committed: zero until upcalls first pass through. */
size_t dpif_channel_resident_bytes(const struct dpif_channel *);

/* Handler side. */
void dpif_channel_handler_init(struct dpif_channel_handler *,
                               struct dpif_channel_set *);
/* Releases what the handler holds and forgets it. */
void dpif_channel_handler_uninit(struct dpif_channel_handler *);

/* Releases the slots HANDLER holds, then claims up to MAX (at most
 * DPIF_CHANNEL_MAX_BATCH) upcalls, round-robin across ready channels, into
 * SLOTS.  Returns how many. */
size_t dpif_channel_recv(struct dpif_channel_handler *,
                         const struct dpif_channel_slot *slots[], size_t max);
/* Gives back the slots from HANDLER's last dpif_channel_recv(). */
void dpif_channel_release(struct dpif_channel_handler *);
/* Makes the calling thread's next poll_block() return when an upcall is
 * ready for HANDLER (at once if one is).  Of the handlers sleeping, one
 * is woken per channel that becomes ready. */
void dpif_channel_wait(struct dpif_channel_handler *);

/* How many handlers are asleep waiting for upcalls (for tests). */
size_t dpif_channel_n_sleeping(struct dpif_channel_set *);

#endif /* dpif-channel.h */
