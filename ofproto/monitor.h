/* monitor: the thread that runs the per-port protocols (port-protocol.h)
 * and the calls that attach them to ports.
 *
 * One monitor thread serves every bridge, while some protocol is attached
 * anywhere.  It sleeps until the earliest
 * deadline in the protocols' schedule (or until a protocol asks to run
 * sooner), takes only the instances that are due, runs them, and sends
 * what they composed out of their ports through translation, so that a
 * patch port or a tunnel does its part.  Its cost per wake-up is the
 * instances due, never the number of ports.  It runs them with the
 * translation lock held for reading, in batches, so ports (and their
 * instances) cannot go away under it and the main thread is never kept
 * waiting for long.
 *
 * It also provides each backer's control-packet sink (dpif.h): the
 * datapath hands a slow-pathed flow's BFD/CFM/... packet to the protocol
 * attached to its port on the datapath's own thread, with no upcall, the
 * translation lock taken with a try-lock (ofproto-private.h:
 * ofproto_monitor_add_backer()).
 *
 * Everything here is for the main thread.  The caller owns the instances:
 * it frees one only after detaching it (deleting a port detaches what is
 * attached to it). */
#ifndef OFPROTO_MONITOR_H
#define OFPROTO_MONITOR_H 1

#include <stdint.h>

struct ofproto;
struct port_protocol;

/* Attaches P (not attached anywhere) to port OFP_PORT of OFPROTO: its
 * packets are handed to it, it runs on its schedule, and its link_ok()
 * joins the port's liveness.  Starts the monitor thread on first use.
 * Returns 0, ENOENT (no such port) or ENOSPC (the port has as many as
 * it can hold). */
int ofproto_port_attach_protocol(struct ofproto *, uint16_t ofp_port,
                                 struct port_protocol *);
/* Detaches P if it is attached (to any port of OFPROTO). */
void ofproto_port_detach_protocol(struct ofproto *, struct port_protocol *);

/* Stops the monitor thread (before exit; it also stops when the last
 * protocol is detached, as 3.1's does, logging "monitor thread created"
 * and "monitor thread terminated"; the next attach starts it again). */
void ofproto_monitor_exit(void);

#endif /* ofproto/monitor.h */
