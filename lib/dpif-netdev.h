/* dpif-netdev: the userspace datapath ("netdev" type of dpif.h).
 *
 * Threads and where a packet goes
 * -------------------------------
 *
 *   rx thread (N of them, "n-rx-threads", default 1; each port belongs to
 *   one, assigned round-robin):
 *       epoll_wait() on its ports' receive fds
 *       -> netdev_rxq_recv(): up to 32 packets from one port
 *       -> flow_extract() and the flow hash, per packet
 *       -> exact-match cache (emc.h, one per rx thread)
 *       -> on a cache miss, the megaflow classifier (dpcls.h), batched
 *       -> a hit: the flow's actions on the packets of that flow, with its
 *          statistics bumped; a miss: an upcall written into a slot of the
 *          input port's channel (dpif-channel.h), or counted lost.  A
 *          userspace action whose cookie slow-paths only per-port
 *          protocols calls the control-packet sink (dpif.h) right here
 *          first, and queues no upcall if it consumed the packet.
 *   handler threads (the layer above: ofproto's, or a test's): dpif_recv()
 *       reads upcalls in place, decides, installs flows with
 *       dpif_flow_put() and sends the packet on with dpif_execute().
 *   main thread: ports, configuration, dpif_run() (deferred frees).
 *
 * No per-packet allocation and no lock that another thread may hold for
 * long on the rx path: packets are the receive queue's (ring frames read
 * in place), keys live in the thread's arrays, upcalls go into
 * preallocated ring slots.  Statistics are relaxed atomics.
 *
 * Concurrency and freeing
 * -----------------------
 *
 * One mutex per datapath serializes writers: flow put/del/flush, port
 * add/del, configuration.  Readers never take it:
 *
 *   - The control-packet sink record is published atomically and read
 *     inside dp-epoch sections; replacing it waits for a grace period.
 *   - Flows and the classifier are read inside dp-epoch sections (an rx
 *     thread enters one per epoll wake-up, never across a sleep).  A
 *     deleted flow is unlinked from the classifier, marked dead, and its
 *     memory handed to dp_epoch_postpone() once its reference count drops
 *     to zero: RCU-style deferral with per-thread read sections (epochs).
 *   - The exact-match caches hold flows by reference (a count in the
 *     flow), so a cached pointer is never dangling; a dead flow found in
 *     a cache is dropped, and every rx thread sweeps its cache when the
 *     datapath's deletion counter moved.
 *   - A flow's actions are replaced on modify by publishing a new block
 *     (atomic pointer) and postponing the free of the old one.
 *   - The port table (port number -> port) is an array published
 *     atomically; port deletion publishes a new table and waits for the
 *     grace period (dp_epoch_synchronize()) on the main thread before
 *     closing the netdev.
 *   - Port changes and rx thread count changes stop and restart the rx
 *     threads (rare, and simpler than handing ports between live
 *     threads); their caches start empty.
 *   - The connection tracker (conntrack.h), one per datapath, created
 *     with it and destroyed with its last reference, locks for itself:
 *     rx threads run ct() through it, handlers (dpif_execute()) and the
 *     main thread (dpctl, dpif_conntrack()) call it concurrently.
 *
 * Nothing here is called directly: use dpif.h (type "netdev"); this
 * header holds only the design notes above. */
#ifndef DPIF_NETDEV_H
#define DPIF_NETDEV_H 1

#endif /* dpif-netdev.h */
