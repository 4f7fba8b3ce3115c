/* recirc: recirculation ids and the frozen translations they stand for.
 *
 * When translation cannot finish a packet's pipeline in one pass (after an
 * MPLS pop to IP, say, the next actions need the L3 header the datapath
 * has not parsed), it freezes what is left to do into a byte string (the
 * "frozen state", laid out by xlate.c) and ends the datapath actions with
 * recirc(ID).  The datapath then looks the packet up again with
 * recirc_id ID, and the upcall of that miss thaws the state by its id and
 * translates the rest.  As in 3.1, translation also freezes at each
 * packet for the controller: the datapath's controller cookie names the
 * state, which holds what the packet-in reports (the bridge, table, rule
 * cookie, pipeline fields, the action's userdata).
 *
 * This module keeps the states, one per distinct byte string, by id.  Ids
 * are handed out from 1 upwards and never reused (within 2^32), so a
 * datapath flow that names a state that is gone never meets a new one.
 *
 * References: recirc_alloc_id() returns an id with a new reference; an
 * equal state that still has references is shared (its id comes back).
 * Whoever keeps datapath flows that use an id holds a reference (the
 * upcall module, per flow; see struct recirc_refs) and releases it when
 * the flows go.  A state whose last reference is released can still be
 * found by its id (packets may be on their way back through the
 * datapath) for RECIRC_GRACE_MS, both of time_msec() and of real time
 * (a test's warped clock does not hurry it, a stopped one keeps it),
 * then it is freed.  It is not shared any more meanwhile: an
 * equal state gets a new id.
 *
 * Threads: any; one mutex inside. */
#ifndef OFPROTO_RECIRC_H
#define OFPROTO_RECIRC_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ofpbuf;

#define RECIRC_GRACE_MS 1000

/* The id of STATE (LEN bytes, copied), with a new reference. */
uint32_t recirc_alloc_id(const void *state, size_t len);
/* Takes a reference to ID if its state can still be found; false if not
 * (then nothing is held). */
bool recirc_ref_id(uint32_t id);
void recirc_unref_id(uint32_t id);
/* Appends the state of ID to OUT; false if ID has none (any more). */
bool recirc_find(uint32_t id, struct ofpbuf *out);
/* The number of states kept (with references or in their grace time). */
size_t recirc_count(void);

/* A set of references, owned by one holder (one translation, one
 * datapath flow).  recirc_refs_release() releases them all. */
struct recirc_refs {
    uint32_t *ids;
    size_t n, allocated;
};

#define RECIRC_REFS_INITIALIZER { NULL, 0, 0 }

static inline void
recirc_refs_init(struct recirc_refs *refs)
{
    refs->ids = NULL;
    refs->n = refs->allocated = 0;
}

/* Records a reference REFS now owns. */
void recirc_refs_add(struct recirc_refs *, uint32_t id);
/* Releases every reference and empties REFS (which stays usable). */
void recirc_refs_release(struct recirc_refs *);
/* Moves the references of SRC to DST (whose own are released first). */
void recirc_refs_move(struct recirc_refs *dst, struct recirc_refs *src);

#endif /* ofproto/recirc.h */
