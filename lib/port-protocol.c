/* port-protocol: see port-protocol.h. */
#include <config.h>
#include "port-protocol.h"

#include <limits.h>
#include <strings.h>
#include "connectivity.h"
#include "coverage.h"
#include "ovs-thread.h"
#include "seq.h"
#include "timeval.h"
#include "util.h"

COVERAGE_DEFINE(port_protocol_changed);
COVERAGE_DEFINE(port_protocol_run);

/* The schedule: attached instances by deadline.  An instance the monitor
 * is running stays in the heap with key LLONG_MAX, so that detaching it
 * needs no special case (the monitor runs under ofproto's read lock, so
 * that cannot happen while it runs anyway). */
static struct ovs_mutex sched_mutex = OVS_MUTEX_INITIALIZER;
static struct heap schedule = HEAP_INITIALIZER;
static struct seq *sched_seq;
static size_t n_running;        /* Taken by the monitor, not put back. */

/* The change queue. */
static struct ovs_mutex queue_mutex = OVS_MUTEX_INITIALIZER;
static struct ovs_list changed_list = OVS_LIST_INITIALIZER(&changed_list);

struct seq *
port_protocol_schedule_seq(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    if (ovsthread_once_start(&once)) {
        sched_seq = seq_create();
        ovsthread_once_done(&once);
    }
    return sched_seq;
}

void
port_protocol_init(struct port_protocol *p,
                   const struct port_protocol_class *class, void *owner)
{
    p->class = class;
    p->owner = owner;
    p->port = NULL;
    heap_node_init(&p->sched_node);
    p->deadline = LLONG_MAX;
    p->running = false;
    ovs_list_init(&p->changed_node);
    p->queued = false;
}

void
port_protocol_schedule(struct port_protocol *p, long long int when)
{
    bool earlier = false;
    ovs_mutex_lock(&sched_mutex);
    if (when < p->deadline) {
        p->deadline = when;
        if (heap_node_in_heap(&p->sched_node) && !p->running) {
            heap_change(&schedule, &p->sched_node, when);
            earlier = true;
        }
    }
    ovs_mutex_unlock(&sched_mutex);
    if (earlier) {
        seq_change(port_protocol_schedule_seq());
    }
}

void
port_protocol_attach(struct port_protocol *p, void *port)
{
    ovs_assert(!p->port);
    ovs_mutex_lock(&sched_mutex);
    p->port = port;
    p->running = false;
    heap_insert(&schedule, &p->sched_node, p->deadline);
    ovs_mutex_unlock(&sched_mutex);
    seq_change(port_protocol_schedule_seq());
}

void
port_protocol_detach(struct port_protocol *p)
{
    /* An instance never attached may still have queued itself (a module
     * reports state from creation on), so the queue is always cleared. */
    if (p->port) {
        ovs_mutex_lock(&sched_mutex);
        heap_remove(&schedule, &p->sched_node);
        if (p->running) {
            n_running--;
        }
        p->running = false;
        p->port = NULL;
        ovs_mutex_unlock(&sched_mutex);
    }

    ovs_mutex_lock(&queue_mutex);
    if (p->queued) {
        ovs_list_remove(&p->changed_node);
        p->queued = false;
    }
    ovs_mutex_unlock(&queue_mutex);
}

size_t
port_protocol_take_due(long long int now, struct port_protocol **due,
                       size_t max)
{
    size_t n = 0;
    ovs_mutex_lock(&sched_mutex);
    while (n < max && !heap_is_empty(&schedule)
           && heap_min(&schedule)->key <= now) {
        struct port_protocol *p = CONTAINER_OF(heap_min(&schedule),
                                               struct port_protocol,
                                               sched_node);
        /* Parked at the end until put back; a schedule() meanwhile only
         * lowers 'deadline'. */
        heap_change(&schedule, &p->sched_node, LLONG_MAX);
        p->running = true;
        p->deadline = LLONG_MAX;
        due[n++] = p;
        n_running++;
    }
    ovs_mutex_unlock(&sched_mutex);
    COVERAGE_ADD(port_protocol_run, n);
    return n;
}

void
port_protocol_put_back(struct port_protocol *p, long long int next)
{
    ovs_mutex_lock(&sched_mutex);
    if (next < p->deadline) {
        p->deadline = next;
    }
    if (p->running) {
        n_running--;
    }
    p->running = false;
    if (heap_node_in_heap(&p->sched_node)) {
        heap_change(&schedule, &p->sched_node, p->deadline);
    }
    ovs_mutex_unlock(&sched_mutex);
}

bool
port_protocol_settled(void)
{
    long long int now = time_msec();
    ovs_mutex_lock(&sched_mutex);
    bool settled = (!n_running
                    && (heap_is_empty(&schedule)
                        || heap_min(&schedule)->key > now));
    ovs_mutex_unlock(&sched_mutex);
    return settled;
}

long long int
port_protocol_next_deadline(void)
{
    ovs_mutex_lock(&sched_mutex);
    long long int next = (heap_is_empty(&schedule) ? LLONG_MAX
                          : heap_min(&schedule)->key);
    ovs_mutex_unlock(&sched_mutex);
    return next;
}

void
port_protocol_changed(struct port_protocol *p)
{
    COVERAGE_INC(port_protocol_changed);
    ovs_mutex_lock(&queue_mutex);
    if (!p->queued) {
        ovs_list_push_back(&changed_list, &p->changed_node);
        p->queued = true;
    }
    ovs_mutex_unlock(&queue_mutex);
    seq_change(connectivity_seq_get());
}

size_t
port_protocol_take_changed(struct port_protocol ***changedp)
{
    ovs_mutex_lock(&queue_mutex);
    size_t n = ovs_list_size(&changed_list);
    struct port_protocol **changed = n ? xmalloc(n * sizeof *changed) : NULL;
    for (size_t i = 0; i < n; i++) {
        struct port_protocol *p = CONTAINER_OF(
            ovs_list_pop_front(&changed_list), struct port_protocol,
            changed_node);
        ovs_list_init(&p->changed_node);
        p->queued = false;
        changed[i] = p;
    }
    ovs_mutex_unlock(&queue_mutex);
    *changedp = changed;
    return n;
}

const struct port_protocol *
port_protocols_forward_blocker(struct port_protocol *const *protocols,
                               size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct port_protocol *p = protocols[i];
        if (p->class->may_forward && !p->class->may_forward(p)) {
            return p;
        }
    }
    return NULL;
}

bool
port_protocols_may_learn(struct port_protocol *const *protocols, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct port_protocol *p = protocols[i];
        if (p->class->may_learn && !p->class->may_learn(p)) {
            return false;
        }
    }
    return true;
}

bool
port_protocols_link_ok(struct port_protocol *const *protocols, size_t n)
{
    bool any_say = false;
    for (size_t i = 0; i < n; i++) {
        const struct port_protocol *p = protocols[i];
        if (p->class->link_ok) {
            if (p->class->link_ok(p)) {
                return true;
            }
            any_say = true;
        }
    }
    return !any_say;
}

bool
port_protocol_parse_override(const char *s, int *override)
{
    if (!strcasecmp(s, "true")) {
        *override = 1;
    } else if (!strcasecmp(s, "false")) {
        *override = 0;
    } else if (!strcasecmp(s, "normal")) {
        *override = -1;
    } else {
        return false;
    }
    return true;
}
