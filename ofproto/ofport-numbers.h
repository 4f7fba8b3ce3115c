/* ofport-numbers: who holds which OpenFlow port number on one bridge.
 *
 * Switch ports are numbered 1 up to (not including) OFPP_MAX; a number is
 * held by one opaque holder (ovs-vswitchd's struct iface).  Automatic
 * numbers go up from the last one handed out and wrap around, so that a
 * number freed by a deleted port is not at once given to a new one
 * (controllers may still hold flows that name it).  The bridge's local
 * port (OFPP_LOCAL) is outside this range and not tracked here.
 *
 * The map owns its memory but not the holders. */
#ifndef OFPROTO_OFPORT_NUMBERS_H
#define OFPROTO_OFPORT_NUMBERS_H 1

#include <stdbool.h>
#include <stdint.h>
#include "hmap.h"

#include "openflow.h"        /* OFPP_MAX, OFPP_LOCAL. */

struct ofport_numbers {
    struct hmap holders;        /* struct ofport_holder, by number. */
    unsigned long *in_use;      /* OFPP_MAX bits, for the free search. */
    int next;                   /* Where the automatic search resumes. */
};

void ofport_numbers_init(struct ofport_numbers *);
void ofport_numbers_destroy(struct ofport_numbers *);

/* True if OFPORT is a switch port number (1 up to OFPP_MAX). */
bool ofport_is_switch_port(int64_t ofport);

/* The holder of OFPORT, or NULL if it is free. */
void *ofport_numbers_holder(const struct ofport_numbers *, int ofport);
/* Gives switch port number OFPORT, which must be free, to HOLDER. */
void ofport_numbers_take(struct ofport_numbers *, int ofport, void *holder);
/* Frees OFPORT (a no-op for a number that is not a held switch port). */
void ofport_numbers_release(struct ofport_numbers *, int ofport);
/* The next free number in the automatic order, or -1 if all are held. */
int ofport_numbers_next_free(struct ofport_numbers *);

#endif /* ofproto/ofport-numbers.h */
