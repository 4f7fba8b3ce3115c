/* upcall: a datapath's upcall handler and revalidator threads ("udpif").
 *
 * Handlers (other_config:n-handler-threads).  Each handler thread takes
 * up to DPIF_RECV_MAX upcalls at once from the datapath's channels
 * (dpif.h), translates the whole batch under one read acquisition of the
 * xlate lock, then installs every megaflow of the batch and executes
 * every packet of it in one dpif_operate() call.  A miss on
 * a port that belongs to no bridge installs a drop flow.  While the
 * datapath holds other_config:flow-limit flows or more, misses are
 * executed but not installed.
 *
 * Revalidators (other_config:n-revalidator-threads).  One leader decides
 * when to dump: 500 ms after the last dump while the datapath has flows,
 * at once when the backer's reval_seq moves (rule tables, MAC table or
 * port changes), when a handler installed the first flows, or when
 * revalidator/wait asks.  Then all revalidators walk the dump together.
 * For each flow: delete it if idle longer than other_config:max-idle
 * (default 10000 ms), or if the datapath is over its flow limit and the
 * flow is idle 100 ms; otherwise, if it carried packets since the last
 * dump or the tables changed, translate its key again, crediting the
 * packets to the rules it goes through (and refreshing learned MACs), and
 * delete it if the new decision needs bits its mask lacks, or fix its
 * actions in place if they differ.  After a dump, the keys of flows that
 * disappeared are forgotten.
 *
 * Each flow is known by a "ukey" (its key and mask, creation time and the
 * statistics last seen), kept in a table under a mutex: handlers add
 * ukeys, revalidators update the ukey of each flow they dump (a flow is
 * dumped once per dump, so one thread at a time), and only the leader,
 * between dumps, removes them.
 *
 * Threads: the functions below belong to the main thread.  Handler and
 * revalidator threads are RCU readers that quiesce between batches and
 * go offline while they sleep. */
#ifndef OFPROTO_UPCALL_H
#define OFPROTO_UPCALL_H 1

#include <stdbool.h>
#include <stddef.h>

struct dpif_backer;
struct ds;
struct unixctl_conn;
struct udpif;

struct udpif *udpif_create(struct dpif_backer *);
void udpif_destroy(struct udpif *);
/* Starts (or restarts with new counts) the threads. */
void udpif_set_threads(struct udpif *, unsigned int n_handlers,
                       unsigned int n_revalidators);
/* Replies to revalidator/wait requests whose dumps are done. */
void udpif_run(struct udpif *);
void udpif_wait(struct udpif *);

/* revalidator/wait: replies to CONN once two full dumps have started and
 * finished after this call (so every flow was checked since). */
void udpif_wait_for_revalidation(struct udpif *, struct unixctl_conn *);
/* revalidator/purge: the next dump deletes every datapath flow, crediting
 * what each carried since it was last read to its rules; replies to CONN
 * (if nonnull) once that dump is done. */
void udpif_purge(struct udpif *, struct unixctl_conn *conn);

void udpif_format(struct udpif *, struct ds *);
size_t udpif_n_ukeys(struct udpif *);
unsigned int udpif_n_handlers(const struct udpif *);
unsigned int udpif_n_revalidators(const struct udpif *);

/* Global settings: read by the threads at each batch or dump. */
void udpif_set_flow_limit(unsigned int);
void udpif_set_max_idle(unsigned int ms);
/* upcall/disable-megaflows: flows installed from then on match every field
 * of their packet (the caller purges the flows there are). */
void udpif_set_megaflows(bool enable);
unsigned int udpif_get_flow_limit(void);

#endif /* ofproto/upcall.h */
