/* xlate-mpls: the datapath actions that give a packet a flow's MPLS label
 * stack.
 *
 * Translation changes its flow's stack (push_mpls, pop_mpls, the MPLS
 * fields) and, before each output, commits the changes: BASE is the flow
 * as the datapath packet now is, FLOW as the actions made it.  The entries
 * at the bottom that the two stacks share stay; above them the packet's
 * extra entries are popped (or, for the last one when FLOW has an entry to
 * put there, rewritten with a set(mpls(...))), then FLOW's extra entries
 * are pushed, outermost last.  An intermediate pop leaves the MPLS type
 * (a pop_mpls must name an MPLS type while a stack remains); the last one
 * names FLOW's type.  BASE keeps its L3 and L4 fields through pushes and
 * pops: the headers are still in the packet under the stack, and a flow
 * restored after a group bucket or clone compares against them.
 *
 * Threads: pure function over the caller's values. */
#ifndef OFPROTO_XLATE_MPLS_H
#define OFPROTO_XLATE_MPLS_H 1

struct flow;
struct ofpbuf;

/* Appends to ODP the actions that make BASE's stack FLOW's, and updates
 * BASE (its stack and type) to match. */
void xlate_mpls_commit(const struct flow *flow, struct flow *base,
                       struct ofpbuf *odp);

#endif /* ofproto/xlate-mpls.h */
