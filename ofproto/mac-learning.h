/* mac-learning: the NORMAL action's table of where each MAC address lives.
 *
 * One table per bridge maps (Ethernet address, VLAN) to the bundle (a
 * switch port as NORMAL sees it) where a packet from that address last
 * arrived.  NORMAL learns from every packet's source address and looks
 * up its destination; an address not in the table, or a multicast one,
 * is flooded.
 *
 * Aging: an entry expires IDLE_TIME seconds after it was last learned or
 * refreshed (other_config:mac-aging-time, default 300, clamped to 15..3600
 * as Open vSwitch does).  Size: at most MAX_ENTRIES entries
 * (other_config:mac-table-size, default 2048); learning a new address in a
 * full table evicts the entry refreshed longest ago.  Entries keep a
 * least-recently-refreshed list, so expiry and eviction look only at the
 * head: mac_learning_run() costs what expires, not the table size.
 *
 * Change signal: every change that can alter a forwarding decision (a new
 * address, an address that moved to another port, an expiry, an eviction,
 * a flush) changes CHANGE_SEQ, the seq given at creation; revalidators
 * wait on it to re-check datapath flows.  A refresh of an entry on the same
 * port changes nothing.
 *
 * Threads: any thread may look up and learn (upcall handlers and
 * revalidators do); the table's rwlock makes it safe (readers share it,
 * learning takes it for writing only when something changes).  Creation,
 * configuration, run/wait, flushes and destruction belong to the main
 * thread.  PORT values are the caller's opaque pointers: the caller flushes
 * a port's entries (mac_learning_flush_port()) before the port's memory
 * goes, and a lookup's answer is only meaningful while the caller keeps the
 * port alive by its own means (ofproto's xlate lock). */
#ifndef OFPROTO_MAC_LEARNING_H
#define OFPROTO_MAC_LEARNING_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "packets.h"

struct ds;
struct mac_learning;
struct seq;

#define MAC_DEFAULT_IDLE_TIME 300
#define MAC_MIN_IDLE_TIME 15
#define MAC_MAX_IDLE_TIME 3600
#define MAC_DEFAULT_MAX 2048

struct mac_learning_stats {
    uint64_t n_learned;         /* New entries. */
    uint64_t n_expired;         /* Aged out. */
    uint64_t n_evicted;         /* Pushed out by a full table. */
    uint64_t n_moved;           /* Relearned on another port. */
};

struct mac_learning *mac_learning_create(unsigned int idle_time,
                                         struct seq *change_seq);
void mac_learning_destroy(struct mac_learning *);
/* Changes the aging time (seconds, clamped) and the size limit (at least
 * 1); a smaller limit evicts at once. */
void mac_learning_set_idle_time(struct mac_learning *, unsigned int);
void mac_learning_set_max_entries(struct mac_learning *, size_t);
unsigned int mac_learning_get_idle_time(const struct mac_learning *);
size_t mac_learning_get_max_entries(const struct mac_learning *);

/* The port of (MAC, VLAN), or NULL. */
void *mac_learning_lookup(struct mac_learning *, struct eth_addr mac,
                          uint16_t vlan);
/* Records that MAC is on PORT in VLAN, refreshing its age.  Returns true
 * if this changed where MAC is (a new entry or a move). */
bool mac_learning_learn(struct mac_learning *, struct eth_addr mac,
                        uint16_t vlan, void *port);

/* Expires what is due; returns how many entries went. */
size_t mac_learning_run(struct mac_learning *);
/* Wakes the caller's poll loop when the next entry is due. */
void mac_learning_wait(struct mac_learning *);

void mac_learning_flush(struct mac_learning *);
/* Forgets every entry on PORT. */
void mac_learning_flush_port(struct mac_learning *, void *port);

size_t mac_learning_count(struct mac_learning *);
/* Up to MAX entries not on port EXCEPT (oldest first), stored in MACS[]
 * and VLANS[]; returns how many. */
size_t mac_learning_collect(struct mac_learning *, const void *except,
                            struct eth_addr *macs, uint16_t *vlans,
                            size_t max);
void mac_learning_get_stats(struct mac_learning *,
                            struct mac_learning_stats *);

/* Appends "fdb/show" lines (oldest first): "%5s  %4d  MAC  %3d" with the
 * port name from PORT_NAME(AUX, PORT). */
void mac_learning_format(struct mac_learning *, struct ds *,
                         const char *(*port_name)(void *aux, void *port),
                         void *aux);

#endif /* ofproto/mac-learning.h */
