/* connectivity: the one global sequence for "some link or protocol status
 * changed".
 *
 * Every change that can alter a port's observable status bumps this single
 * seq (with seq_change()):
 *
 *   - a netdev's carrier, administrative flags, MTU or addresses changing;
 *   - a BFD session, CFM endpoint, LACP partner, STP port state or bond slave
 *     changing status.
 *
 * Consumers such as ofproto's port refresh, bond and LACP processing and the
 * bridge's status write-back keep the last seq_read() value they handled.
 * While it is unchanged they skip their per-port loops entirely, so an idle
 * switch with thousands of ports and tunnels costs almost nothing per
 * wake-up.  When it has changed, they look only at the objects that queued
 * themselves as changed, not at every port.
 *
 * One seq rather than one per port keeps waiting cheap (one seq_wait() per
 * consumer per iteration) at the price of waking every consumer for any
 * change; since each consumer then touches only what changed, the cost of a
 * wake-up follows the amount of change, not the number of ports.
 *
 * The seq is created on first use and lives until the process exits; callers
 * must not destroy it.  Safe to use from any thread.
 */
#ifndef CONNECTIVITY_H
#define CONNECTIVITY_H 1

struct seq;

/* Returns the global connectivity seq (always the same object). */
struct seq *connectivity_seq_get(void);

#endif /* connectivity.h */
