/* xlate-trace: the account of one translation that ofproto/trace prints.
 *
 * Translation adds nodes as it goes: each table lookup (the rule found, or
 * "No match."), each action it runs, and its notes ("-> ..."), warnings
 * (">> ...") and errors.  The actions of a table's rule, and the tables
 * those actions resubmit to, nest under the table's node.
 *
 * xtrace_format() prints the tree in Open vSwitch 3.1's layout, which
 * scripts and test suites compare character for character: every node
 * sits one step (4 spaces) deeper than its level, except a node that can
 * have children (a bridge or a table) and is the last of its siblings,
 * which stays at its level with its children.  That is why a rule whose
 * last action resubmits shows the next table at its own depth, so chains
 * of tail resubmits stay flat, while a resubmit in the middle of a list
 * indents what it leads to.
 *
 * Memory: the trace owns every node (xtrace_destroy() frees them).
 * Threads: one thread at a time (ofproto/trace runs it in the main thread). */
#ifndef OFPROTO_XLATE_TRACE_H
#define OFPROTO_XLATE_TRACE_H 1

#include "list.h"
#include "util.h"

struct ds;

enum xtrace_type {
    XTRACE_BRIDGE,              /* "bridge("br0")" underlined. */
    XTRACE_TABLE,               /* " 0. in_port=1, priority 32768". */
    XTRACE_ACTION,              /* "output:2". */
    XTRACE_DETAIL,              /* " -> text". */
    XTRACE_WARN,                /* " >> text". */
    XTRACE_ERROR,               /* " >>>> text <<<<". */
};

struct xtrace_node {
    struct ovs_list node;       /* In the parent's 'subs' or the top list. */
    enum xtrace_type type;
    char *text;
    struct ovs_list subs;       /* Nested nodes (bridges and tables). */
};

struct xtrace {
    struct ovs_list top;        /* Nodes at the outermost level. */
    struct ovs_list *cur;       /* Where xtrace_add() appends. */
};

void xtrace_init(struct xtrace *);
void xtrace_destroy(struct xtrace *);

/* Appends a node of TYPE with the printf-formatted text at the current
 * place and returns it. */
struct xtrace_node *xtrace_add(struct xtrace *, enum xtrace_type,
                               const char *format, ...)
    OVS_PRINTF_FORMAT(3, 4);

/* Makes NODE's children the current place; returns the previous place, for
 * xtrace_leave(). */
struct ovs_list *xtrace_enter(struct xtrace *, struct xtrace_node *node);
void xtrace_leave(struct xtrace *, struct ovs_list *previous);

/* Appends the tree, as ofproto/trace prints it, to S. */
void xtrace_format(const struct xtrace *, struct ds *s);

#endif /* ofproto/xlate-trace.h */
