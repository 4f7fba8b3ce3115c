/* netdev-dummy-link: the cable between dummy devices.
 *
 * A dummy device with options:pstream=NAME listens on NAME (a passive
 * stream name, "punix:FILE" in tests) and one with options:stream=NAME
 * connects to it, reconnecting every 100 ms while it cannot; so two
 * switches, or two bridges of one switch, exchange packets without
 * touching the host's network, as Open vSwitch's test suite expects of its
 * dummy devices (stp.at, rstp.at, lacp.at, bond tests).
 *
 * On the wire each frame is its length (2 bytes, big-endian) and its bytes,
 * the framing 3.1's dummy devices use, so either switch's devices can be at
 * the other end.  A listener takes any number of connections: what the
 * device sends goes to each, and what any of them sends arrives.  A frame
 * shorter than an Ethernet header is a protocol error and closes that
 * connection.  Each connection keeps up to DUMMY_LINK_TXQ_MAX bytes
 * waiting for its socket; beyond that, frames are dropped and counted
 * (coverage dummy_link_tx_dropped).
 *
 * Threads and memory: a link is not thread-safe; its device's mutex
 * guards every call.  Any thread may send (the datapath's threads do),
 * which only queues the frame: the streams belong to the main thread's
 * event loop, so only the main thread touches them, in dummy_link_run(),
 * and opens, waits on and closes the link.  The link owns its streams and
 * buffers; received packets are the caller's. */
#ifndef NETDEV_DUMMY_LINK_H
#define NETDEV_DUMMY_LINK_H 1

#include <stdbool.h>
#include <stddef.h>

struct dp_packet;
struct dp_packet_batch;
struct dummy_link;

#define DUMMY_LINK_TXQ_MAX (256 * 1024)

/* Opens a link that listens on NAME (PASSIVE) or connects to it.  Returns
 * 0, or a positive errno value with a message in *ERRP (caller frees) if
 * NAME is not a valid name or (passive) cannot be listened on. */
int dummy_link_open(const char *name, bool passive, struct dummy_link **,
                    char **errp);
void dummy_link_close(struct dummy_link *);

const char *dummy_link_name(const struct dummy_link *);
bool dummy_link_is_passive(const struct dummy_link *);

/* Whether an active link is connected now (a passive one: false). */
bool dummy_link_is_connected(const struct dummy_link *);

/* Queues PACKET for every connected peer.  Returns true if it queued
 * anything: the main thread must then run the link (the caller wakes
 * it). */
bool dummy_link_send(struct dummy_link *, const struct dp_packet *);

/* Main thread: accepts and (re)connects, sends what waits, and adds the
 * frames that arrived to RX (heap packets, the caller's), stopping when RX
 * is full; returns true if more may be waiting. */
bool dummy_link_run(struct dummy_link *, struct dp_packet_batch *rx);
void dummy_link_wait(struct dummy_link *);

/* Whether nothing the link was given waits to be written to a socket
 * (for a simulated clock's warp, which should not run ahead of the
 * frames on the cables). */
bool dummy_link_is_idle(const struct dummy_link *);

#endif /* netdev-dummy-link.h */
