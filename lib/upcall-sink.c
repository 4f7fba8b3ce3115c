#include <config.h>
#include "upcall-sink.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "dpif.h"
#include "dynamic-string.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "seq.h"
#include "shash.h"
#include "unixctl.h"
#include "util.h"

#define SINK_MAX_PORTS 65536

struct sink {
    struct dpif *dpif;
    unsigned int n_threads;
    pthread_t *threads;
    struct sink_thread *args;
    atomic_bool stop;
    struct seq *stop_seq;
    _Atomic uint64_t *by_port;          /* SINK_MAX_PORTS counters. */
};

struct sink_thread {
    struct sink *sink;
    uint32_t id;
};

/* Datapath name -> struct sink. */
static struct shash sinks = SHASH_INITIALIZER(&sinks);

static void *
sink_main(void *arg_)
{
    struct sink_thread *arg = arg_;
    struct sink *sink = arg->sink;
    struct dpif_upcall upcalls[DPIF_RECV_MAX];

    for (;;) {
        uint64_t stop_seq = seq_read(sink->stop_seq);
        if (atomic_load(&sink->stop)) {
            break;
        }
        size_t n = dpif_recv(sink->dpif, arg->id, upcalls, DPIF_RECV_MAX);
        for (size_t i = 0; i < n; i++) {
            uint32_t port = upcalls[i].packet.md.in_port;
            if (port < SINK_MAX_PORTS) {
                atomic_fetch_add_explicit(&sink->by_port[port], 1,
                                          memory_order_relaxed);
            }
        }
        dpif_recv_release(sink->dpif, arg->id);
        if (!n) {
            dpif_recv_wait(sink->dpif, arg->id);
            seq_wait(sink->stop_seq, stop_seq);
            poll_block();
        }
    }
    return NULL;
}

static void
sink_destroy(struct sink *sink)
{
    atomic_store(&sink->stop, true);
    seq_change(sink->stop_seq);
    for (unsigned int i = 0; i < sink->n_threads; i++) {
        xpthread_join(sink->threads[i], NULL);
    }
    dpif_handlers_set(sink->dpif, 0);
    dpif_close(sink->dpif);
    seq_destroy(sink->stop_seq);
    free(sink->threads);
    free(sink->args);
    free(sink->by_port);
    free(sink);
}

static void
sink_start_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
               const char *argv[], void *aux OVS_UNUSED)
{
    char *end;
    unsigned long n = strtoul(argv[2], &end, 10);
    if (*end || !n || n > 256) {
        unixctl_command_reply_error(conn, "thread count must be 1 to 256");
        return;
    }
    struct sink *old = shash_find_and_delete(&sinks, argv[1]);
    if (old) {
        sink_destroy(old);
    }

    struct dpif *dpif;
    const char *at = strchr(argv[1], '@');
    int error = dpif_open(at ? at + 1 : argv[1], "netdev", &dpif);
    if (error) {
        unixctl_command_reply_error(conn, ovs_strerror(error));
        return;
    }
    struct sink *sink = xzalloc(sizeof *sink);
    sink->dpif = dpif;
    sink->n_threads = n;
    sink->stop_seq = seq_create();
    atomic_init(&sink->stop, false);
    sink->by_port = xcalloc(SINK_MAX_PORTS, sizeof *sink->by_port);
    sink->threads = xcalloc(n, sizeof *sink->threads);
    sink->args = xcalloc(n, sizeof *sink->args);
    dpif_handlers_set(dpif, n);
    for (unsigned int i = 0; i < n; i++) {
        sink->args[i] = (struct sink_thread) { sink, i };
        sink->threads[i] = ovs_thread_create("sink", sink_main,
                                             &sink->args[i]);
    }
    shash_add(&sinks, argv[1], sink);
    unixctl_command_reply(conn, NULL);
}

static void
sink_show_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
              const char *argv[], void *aux OVS_UNUSED)
{
    struct sink *sink = shash_find_data(&sinks, argv[1]);
    if (!sink) {
        unixctl_command_reply_error(conn, "no upcall sink on that datapath");
        return;
    }
    struct ds s = DS_EMPTY_INITIALIZER;
    uint64_t total = 0;
    for (uint32_t p = 0; p < SINK_MAX_PORTS; p++) {
        uint64_t c = atomic_load_explicit(&sink->by_port[p],
                                          memory_order_relaxed);
        if (c) {
            ds_put_format(&s, "port %"PRIu32": received %"PRIu64"\n", p, c);
            total += c;
        }
    }
    ds_put_format(&s, "total: received %"PRIu64"\n", total);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
sink_stop_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
              const char *argv[], void *aux OVS_UNUSED)
{
    struct sink *sink = shash_find_and_delete(&sinks, argv[1]);
    if (sink) {
        sink_destroy(sink);
    }
    unixctl_command_reply(conn, NULL);
}

void
upcall_sink_register_commands(void)
{
    unixctl_command_register("upcall-sink/start", "dp n_threads", 2, 2,
                             sink_start_cmd, NULL);
    unixctl_command_register("upcall-sink/show", "dp", 1, 1,
                             sink_show_cmd, NULL);
    unixctl_command_register("upcall-sink/stop", "dp", 1, 1,
                             sink_stop_cmd, NULL);
}

void
upcall_sink_exit(void)
{
    struct shash_node *node;
    SHASH_FOR_EACH_SAFE (node, &sinks) {
        struct sink *sink = node->data;
        shash_delete(&sinks, node);
        sink_destroy(sink);
    }
}
