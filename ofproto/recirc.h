/* recirc: recirculation ids and the frozen translation states they name.
 *
 * Translation freezes where a packet has to come back from the datapath
 * to userspace and userspace must know what translation knew there.
 * Today that is every packet for the controller (as 3.1 freezes at each
 * controller action): the datapath's userspace action carries only a
 * cookie with the reason, max_len, controller id and rule cookie, and the
 * recirculation id of the frozen state, which holds the rest of what the
 * packet-in reports.  Each distinct state has one id, allocated from 1
 * up, so identical translations name the same id and the datapath actions
 * of a flow stay the same when it is translated again.
 *
 * Lifetime: references.  recirc_alloc() returns the id of a referenced
 * state equal to the one given, or of a new one, and takes a reference
 * for the caller.  Whoever keeps the id in a datapath flow's actions
 * keeps a reference (upcall.c's keys) and drops it when the flow goes.
 * A state without references is no longer found by recirc_alloc(), but
 * recirc_get() still finds it for RECIRC_LINGER_MS of real time, so that
 * packets already on their way up (a packet-out's, an executed upcall's)
 * find it; recirc_run() frees it after that.
 *
 * Threads: any thread (one mutex inside), but recirc_run() and
 * recirc_flush() belong to the main thread. */
#ifndef OFPROTO_RECIRC_H
#define OFPROTO_RECIRC_H 1

#include <stddef.h>
#include <stdint.h>
#include "flow.h"

#define RECIRC_LINGER_MS 5000

struct frozen_state {
    uint32_t ofproto_id;        /* struct ofproto's 'id'. */
    uint8_t table_id;           /* Where translation was. */
    ovs_be64 rule_cookie;       /* Of the rule being run; all ones: none. */
    /* The packet's metadata as translation had it: the OpenFlow in_port,
     * the packet type and the pipeline fields (frozen_metadata_init());
     * everything else zero. */
    struct flow metadata;
    const void *userdata;       /* The action's userdata (controller's). */
    size_t userdata_len;
};

/* Sets *METADATA to FLOW's in_port, packet type and pipeline fields
 * (tunnel, metadata, registers, pkt_mark), the rest zero. */
void frozen_metadata_init(struct flow *metadata, const struct flow *flow);

/* The id of STATE (copied), with a reference for the caller. */
uint32_t recirc_alloc(const struct frozen_state *);
void recirc_ref(uint32_t id);
void recirc_unref(uint32_t id);

/* Copies the state of ID into *STATE, whose userdata the caller frees;
 * false if ID names none. */
bool recirc_get(uint32_t id, struct frozen_state *);

/* Frees the states unreferenced for RECIRC_LINGER_MS. */
void recirc_run(void);
/* Frees every unreferenced state at once (the last bridge is gone). */
void recirc_flush(void);

#endif /* ofproto/recirc.h */
