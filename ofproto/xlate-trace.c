/* xlate-trace: see xlate-trace.h. */
#include <config.h>
#include "xlate-trace.h"

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "flow.h"
#include "match.h"
#include "mpls.h"
#include "openflow.h"
#include "packets.h"

void
xtrace_init(struct xtrace *t)
{
    ovs_list_init(&t->top);
    t->cur = &t->top;
}

static void
free_nodes(struct ovs_list *nodes)
{
    struct xtrace_node *n;
    LIST_FOR_EACH_POP (n, node, nodes) {
        free_nodes(&n->subs);
        free(n->text);
        free(n);
    }
}

void
xtrace_destroy(struct xtrace *t)
{
    if (t) {
        free_nodes(&t->top);
    }
}

struct xtrace_node *
xtrace_add(struct xtrace *t, enum xtrace_type type, const char *format, ...)
{
    struct xtrace_node *n = xmalloc(sizeof *n);
    n->type = type;
    va_list args;
    va_start(args, format);
    n->text = xvasprintf(format, args);
    va_end(args);
    ovs_list_init(&n->subs);
    ovs_list_push_back(t->cur, &n->node);
    return n;
}

struct ovs_list *
xtrace_enter(struct xtrace *t, struct xtrace_node *n)
{
    struct ovs_list *previous = t->cur;
    t->cur = &n->subs;
    return previous;
}

void
xtrace_leave(struct xtrace *t, struct ovs_list *previous)
{
    t->cur = previous;
}

/* Whether a node of TYPE never has children. */
static bool
is_leaf_type(enum xtrace_type type)
{
    return type != XTRACE_BRIDGE && type != XTRACE_TABLE;
}

static void
format_nodes(const struct ovs_list *nodes, int level, struct ds *s)
{
    const struct xtrace_node *n;
    LIST_FOR_EACH (n, node, nodes) {
        /* See xlate-trace.h for why the last container of a list does not
         * indent. */
        int step = n->node.next != nodes || is_leaf_type(n->type);
        int indent = (level + step) * 4;

        if (n->type == XTRACE_BRIDGE) {
            ds_put_char(s, '\n');
        }
        ds_put_char_multiple(s, ' ', indent);
        switch (n->type) {
        case XTRACE_BRIDGE:
            ds_put_format(s, "%s\n", n->text);
            ds_put_char_multiple(s, ' ', indent);
            ds_put_char_multiple(s, '-', strlen(n->text));
            ds_put_char(s, '\n');
            break;
        case XTRACE_TABLE:
        case XTRACE_ACTION:
            ds_put_format(s, "%s\n", n->text);
            break;
        case XTRACE_DETAIL:
            ds_put_format(s, " -> %s\n", n->text);
            break;
        case XTRACE_WARN:
            ds_put_format(s, " >> %s\n", n->text);
            break;
        case XTRACE_ERROR:
            ds_put_format(s, " >>>> %s <<<<\n", n->text);
            break;
        }
        format_nodes(&n->subs, level + 2 * step, s);
    }
}

void
xtrace_format(const struct xtrace *t, struct ds *s)
{
    format_nodes(&t->top, 0, s);
}
