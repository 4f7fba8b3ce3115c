/* upcall-sink: a trivial pool of upcall handler threads, for tests and
 * benchmarks of the datapath's upcall path before ofproto brings the
 * real handlers.
 *
 * "ovs-appctl upcall-sink/start DP N" starts N handler threads on datapath
 * DP (dpif_handlers_set(N)); each receives batches with dpif_recv(),
 * counts every upcall by input port, and drops it.  "upcall-sink/show DP"
 * prints, per port with upcalls, "port P: received R" and a total line;
 * "upcall-sink/stop DP" stops the threads.  Nothing here decides anything
 * about a packet: it measures delivery (who got what, how fast).
 *
 * Main thread only (the commands); the handler threads are its own. */
#ifndef UPCALL_SINK_H
#define UPCALL_SINK_H 1

void upcall_sink_register_commands(void);
/* Stops every sink (before the datapaths go, at exit). */
void upcall_sink_exit(void);

#endif /* upcall-sink.h */
