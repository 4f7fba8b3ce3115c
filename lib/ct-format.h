/* ct-format: the connection tracker's entries and statistics as text,
 * in Open vSwitch 3.1's dpctl formats (dump-conntrack, ct-stats-show).
 *
 * An entry prints as
 *   udp,orig=(src=10.1.1.1,dst=10.1.1.2,sport=1,dport=2),reply=(src=...,
 *   dst=...,sport=2,dport=1),zone=1,mark=5,labels=0x1,
 *   protoinfo=(state=ESTABLISHED),helper=ftp
 * with zone, mark and labels only when nonzero, protoinfo for TCP only;
 * PRINT_STATS (-s) adds each direction's packets and bytes (when nonzero)
 * and ",timeout=N" (seconds left); VERBOSE (-m) adds ",id=N" and the
 * parent of a related connection as ",parent=(...)".
 *
 * Threads: pure functions; any thread. */
#ifndef CT_FORMAT_H
#define CT_FORMAT_H 1

#include <stdbool.h>
#include <stdint.h>
#include "conntrack.h"

struct ds;

void ct_format_entry(struct ds *, const struct ct_entry *, bool verbose,
                     bool print_stats);
/* "src=A,dst=B,sport=P,dport=Q" (ICMP: ",id=I,type=T,code=C"). */
void ct_format_tuple(struct ds *, const struct ct_tuple *);
/* "tcp", "udp", ... or the number. */
void ct_format_ipproto(struct ds *, uint8_t ip_proto);
/* The TCP state 3.1 shows for STATE: FIN_WAIT_2 as TIME_WAIT and
 * SYN_RECV as ESTABLISHED (what the kernel's tracker would say). */
enum ct_tcp_state ct_format_coalesce_tcp_state(enum ct_tcp_state);

#endif /* ct-format.h */
