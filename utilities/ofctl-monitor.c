/* ofctl-monitor: "ovs-ofctl monitor" and "ovs-ofctl snoop".
 *
 * Both sit on one OpenFlow connection and print every message that arrives
 * on stderr (as 3.1 does, so that a test can redirect the stream with
 * ofctl/set-output-file), until the connection ends or "ovs-appctl -t
 * ovs-ofctl exit".  monitor first configures its connection to the switch
 * (miss_send_len, invalid_ttl, packet-in format) and answers echo
 * requests; snoop connects to a bridge's snoop socket and only listens.
 *
 * The process is a daemon in the sense of lib/daemon (--detach, --pidfile,
 * --no-chdir) with a unixctl server (--unixctl) serving the commands Open
 * vSwitch's own tests drive it with: ofctl/send, ofctl/packet-out,
 * ofctl/barrier,
 * ofctl/set-output-file, ofctl/block, ofctl/unblock and exit.
 *
 * Threads: main thread only.  Everything here lives until the command
 * ends. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "command-line.h"
#include "daemon.h"
#include "dynamic-string.h"
#include "fatal-signal.h"
#include "ofctl.h"
#include "ofp-monitor.h"
#include "ofp-msgs.h"
#include "ofp-packet.h"
#include "ofp-parse.h"
#include "ofp-print.h"
#include "ofp-protocol.h"
#include "ofp-switch.h"
#include "ofpbuf.h"
#include "poll-loop.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vconn.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofctl_monitor);

/* What the unixctl commands share with the receive loop. */
struct monitor_state {
    struct vconn *vconn;
    struct unixctl_conn *barrier_conn;  /* Waits for a barrier reply. */
    bool blocked;               /* ofctl/block: stop reading. */
    bool exiting;
};

static void
monitor_exit(struct unixctl_conn *conn, int argc OVS_UNUSED,
             const char *argv[] OVS_UNUSED, void *state_)
{
    struct monitor_state *state = state_;
    state->exiting = true;
    unixctl_command_reply(conn, NULL);
}

/* ofctl/send HEX...: each argument is one message, printed ("send: ...")
 * before it goes out; every failure is reported and the reply is an error
 * if any failed. */
static void
monitor_send(struct unixctl_conn *conn, int argc, const char *argv[],
             void *state_)
{
    struct monitor_state *state = state_;
    struct ds reply = DS_EMPTY_INITIALIZER;
    bool ok = true;

    for (int i = 1; i < argc; i++) {
        struct ofpbuf *msg = ofpbuf_new(0);
        const char *end = ofpbuf_put_hex(msg, argv[i], NULL);
        while (isspace((unsigned char) *end)) {
            end++;
        }
        if (*end) {
            ds_put_cstr(&reply, "Trailing garbage in hex data\n");
            ofpbuf_delete(msg);
            ok = false;
            continue;
        }
        const struct ofp_header *oh = msg->data;
        if (msg->size < sizeof *oh || ntohs(oh->length) != msg->size) {
            ds_put_cstr(&reply, "Message size does not match length in "
                        "OpenFlow header\n");
            ofpbuf_delete(msg);
            ok = false;
            continue;
        }

        fprintf(stderr, "send: ");
        ofp_print(stderr, msg->data, msg->size, NULL, ofctl_opts.verbosity);

        int error = vconn_send_block(state->vconn, msg);
        if (error) {
            ds_put_format(&reply, "%s\n", ovs_strerror(error));
            ok = false;
        } else {
            ds_put_cstr(&reply, "sent\n");
        }
    }

    if (ok) {
        unixctl_command_reply(conn, ds_cstr(&reply));
    } else {
        unixctl_command_reply_error(conn, ds_cstr(&reply));
    }
    ds_destroy(&reply);
}

/* ofctl/packet-out "in_port=P packet=HEX actions=A": sends that packet_out
 * on the monitored connection, printed on stderr as it goes; the reply is
 * empty, or the parse or send error. */
static void
monitor_packet_out(struct unixctl_conn *conn, int argc OVS_UNUSED,
                   const char *argv[], void *state_)
{
    struct monitor_state *state = state_;
    struct vconn *vconn = state->vconn;
    const char *name = vconn_get_name(vconn);
    enum ofputil_protocol protocol = ofputil_protocol_from_ofp_version(
        vconn_get_version(vconn));
    struct ds reply = DS_EMPTY_INITIALIZER;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 64);

    struct ofputil_packet_out po;
    enum ofputil_protocol usable;
    ofctl_tables_to_accept(name);
    char *error = parse_ofp_packet_out_str(&po, argv[1],
                                           ofctl_ports_to_accept(name),
                                           &ofpacts, &usable);
    if (error) {
        ds_put_format(&reply, "%s\n", error);
        free(error);
    } else {
        if (!(usable & protocol)) {
            ds_put_cstr(&reply, "PACKET_OUT actions are incompatible with "
                        "the OpenFlow connection.\n");
        } else {
            struct ofpbuf *msg = ofputil_encode_packet_out(&po, protocol);
            ofp_print(stderr, msg->data, msg->size, ofctl_ports_to_show(name),
                      ofctl_opts.verbosity);
            int send_error = vconn_send_block(vconn, msg);
            if (send_error) {
                ds_put_format(&reply, "%s\n", ovs_strerror(send_error));
            }
        }
        free((void *) po.packet);
    }

    if (reply.length) {
        unixctl_command_reply_error(conn, ds_cstr(&reply));
    } else {
        unixctl_command_reply(conn, NULL);
    }
    ds_destroy(&reply);
    ofpbuf_uninit(&ofpacts);
}

/* ofctl/barrier: sends a barrier request and answers once its reply has
 * been printed, so that a test knows everything before it was seen. */
static void
monitor_barrier(struct unixctl_conn *conn, int argc OVS_UNUSED,
                const char *argv[] OVS_UNUSED, void *state_)
{
    struct monitor_state *state = state_;
    if (state->barrier_conn) {
        unixctl_command_reply_error(conn, "already waiting for barrier "
                                    "reply");
        return;
    }
    struct ofpbuf *msg = ofputil_encode_barrier_request(
        vconn_get_version(state->vconn));
    int error = vconn_send_block(state->vconn, msg);
    if (error) {
        unixctl_command_reply_error(conn, ovs_strerror(error));
    } else {
        state->barrier_conn = conn;
    }
}

/* ofctl/set-output-file FILE: from now on the output goes to FILE. */
static void
monitor_set_output_file(struct unixctl_conn *conn, int argc OVS_UNUSED,
                        const char *argv[], void *state_ OVS_UNUSED)
{
    int fd = open(argv[1], O_CREAT | O_TRUNC | O_WRONLY, 0666);
    if (fd < 0) {
        unixctl_command_reply_error(conn, ovs_strerror(errno));
        return;
    }
    fflush(stderr);
    dup2(fd, STDERR_FILENO);
    close(fd);
    unixctl_command_reply(conn, NULL);
}

static void
monitor_block(struct unixctl_conn *conn, int argc OVS_UNUSED,
              const char *argv[] OVS_UNUSED, void *state_)
{
    struct monitor_state *state = state_;
    if (state->blocked) {
        unixctl_command_reply(conn, "already blocking");
    } else {
        state->blocked = true;
        unixctl_command_reply(conn, NULL);
    }
}

static void
monitor_unblock(struct unixctl_conn *conn, int argc OVS_UNUSED,
                const char *argv[] OVS_UNUSED, void *state_)
{
    struct monitor_state *state = state_;
    if (state->blocked) {
        state->blocked = false;
        unixctl_command_reply(conn, NULL);
    } else {
        unixctl_command_reply(conn, "already unblocked");
    }
}

/* Prints what arrives on VCONN until the connection ends (fatal, as 3.1:
 * "vconn_recv: End of file") or "exit".  Takes VCONN. */
static void
monitor_vconn(struct vconn *vconn, bool reply_to_echo_requests)
{
    struct monitor_state state = { .vconn = vconn };

    daemon_save_fd(STDERR_FILENO);
    daemonize_start();
    struct unixctl_server *server;
    int error = unixctl_server_create(ofctl_opts.unixctl_path, &server);
    if (error) {
        ovs_fatal(error, "failed to create unixctl server");
    }
    unixctl_command_register("exit", "", 0, 0, monitor_exit, &state);
    unixctl_command_register("ofctl/send", "OFMSG...", 1, INT_MAX,
                             monitor_send, &state);
    unixctl_command_register("ofctl/packet-out",
                             "\"in_port=<port> packet=<hex data> "
                             "actions=...\"", 1, 1, monitor_packet_out,
                             &state);
    unixctl_command_register("ofctl/barrier", "", 0, 0, monitor_barrier,
                             &state);
    unixctl_command_register("ofctl/set-output-file", "FILE", 1, 1,
                             monitor_set_output_file, &state);
    unixctl_command_register("ofctl/block", "", 0, 0, monitor_block,
                             &state);
    unixctl_command_register("ofctl/unblock", "", 0, 0, monitor_unblock,
                             &state);
    daemonize_complete();

    for (;;) {
        unixctl_server_run(server);

        while (!state.blocked) {
            struct ofpbuf *msg;
            int retval = vconn_recv(vconn, &msg);
            if (retval == EAGAIN) {
                break;
            }
            ofctl_run(retval, "vconn_recv");

            if (ofctl_opts.timestamp) {
                char *s = xastrftime_msec("%Y-%m-%d %H:%M:%S.###: ",
                                          time_wall_msec(), true);
                fputs(s, stderr);
                free(s);
            }
            ofp_print(stderr, msg->data, msg->size,
                      ofctl_ports_to_show(vconn_get_name(vconn)),
                      ofctl_opts.verbosity + 2);
            fflush(stderr);

            enum ofptype type;
            if (!ofptype_decode(&type, msg->data)) {
                if (type == OFPTYPE_BARRIER_REPLY && state.barrier_conn) {
                    unixctl_command_reply(state.barrier_conn, NULL);
                    state.barrier_conn = NULL;
                } else if (type == OFPTYPE_ECHO_REQUEST
                           && reply_to_echo_requests) {
                    error = vconn_send_block(
                        vconn, ofputil_encode_echo_reply(msg->data));
                    if (error) {
                        ovs_fatal(error, "failed to send echo reply");
                    }
                }
            }
            ofpbuf_delete(msg);
        }

        if (state.exiting) {
            break;
        }

        vconn_run(vconn);
        vconn_run_wait(vconn);
        if (!state.blocked) {
            vconn_recv_wait(vconn);
        }
        unixctl_server_wait(server);
        /* A signal (kill, --timeout's alarm) ends the monitor from here,
         * its pidfile removed, as 3.1's does. */
        fatal_signal_block();
    }
    vconn_close(vconn);
    unixctl_server_destroy(server);
}

static void
fetch_switch_config(struct vconn *vconn, struct ofputil_switch_config *config)
{
    struct ofpbuf *request = ofputil_encode_get_config_request(
        vconn_get_version(vconn));
    ovs_be32 xid = ((struct ofp_header *) request->data)->xid;
    struct ofpbuf *reply = ofctl_transact(vconn, request);
    const struct ofp_header *oh = reply->data;
    enum ofptype type;
    if (ofptype_decode(&type, oh) || type != OFPTYPE_GET_CONFIG_REPLY) {
        ovs_fatal(0, "%s: bad reply to config request",
                  vconn_get_name(vconn));
    }
    if (oh->xid != xid) {
        ovs_fatal(0, "%s: bad reply to config request",
                  vconn_get_name(vconn));
    }
    if (ofputil_decode_get_config_reply(oh, config)) {
        ovs_fatal(0, "%s: bad reply to config request",
                  vconn_get_name(vconn));
    }
    ofpbuf_delete(reply);
}

static void
set_switch_config(struct vconn *vconn,
                  const struct ofputil_switch_config *config)
{
    ofctl_transact_noreply(vconn, ofputil_encode_set_config(
                               config, vconn_get_version(vconn)));
}

static void
set_invalid_ttl_to_controller(struct vconn *vconn)
{
    struct ofputil_switch_config config;
    fetch_switch_config(vconn, &config);
    if (config.invalid_ttl_to_controller != 1) {
        config.invalid_ttl_to_controller = 1;
        set_switch_config(vconn, &config);

        /* Whether it took. */
        fetch_switch_config(vconn, &config);
        if (config.invalid_ttl_to_controller != 1) {
            ovs_fatal(0, "setting invalid_ttl_to_controller failed (this "
                      "switch probably doesn't support this OpenFlow 1.1+ "
                      "feature)");
        }
    }
}

/* Asks for FORMAT; a refusal is fatal only if MUST_SUCCEED (the user asked
 * for it with -P). */
static bool
set_packet_in_format(struct vconn *vconn,
                     enum ofputil_packet_in_format format, bool must_succeed)
{
    struct ofpbuf *request = ofputil_encode_set_packet_in_format(
        vconn_get_version(vconn), format);
    if (must_succeed) {
        ofctl_transact_noreply(vconn, request);
        return true;
    }
    struct ofpbuf *reply;
    ofctl_run(vconn_transact_noreply(vconn, request, &reply),
              "talking to %s", vconn_get_name(vconn));
    if (reply) {
        if (VLOG_IS_DBG_ENABLED()) {
            char *s = ofp_to_string(reply->data, reply->size, NULL, 2);
            VLOG_DBG("%s: failed to set packet in format to %s, "
                     "controller replied: %s.", vconn_get_name(vconn),
                     ofputil_packet_in_format_to_string(format), s);
            free(s);
        }
        ofpbuf_delete(reply);
        return false;
    }
    return true;
}

/* watch:SPEC: asks the switch for a flow monitor and prints its reply (the
 * initial dump) on stdout, as 3.1 does; the updates that follow arrive
 * with the other asynchronous messages. */
static void
send_flow_monitor_request(const char *switch_name, struct vconn *vconn,
                          const char *spec)
{
    struct ofputil_flow_monitor_request rq;
    enum ofputil_protocol usable;
    char *error = parse_flow_monitor_request(
        &rq, spec, ofctl_ports_to_accept(switch_name),
        ofctl_tables_to_accept(switch_name), &usable);
    if (error) {
        ovs_fatal(0, "%s", error);
    }
    enum ofputil_protocol allowed = ofctl_opts.allowed_protocols;
    if (!(usable & allowed)) {
        char *allowed_s = ofputil_protocols_to_string(allowed);
        char *usable_s = ofputil_protocols_to_string(usable);
        ovs_fatal(0, "none of the usable flow formats (%s) is among the "
                  "allowed flow formats (%s)", usable_s, allowed_s);
    }

    struct ofpbuf *msg = ofpbuf_new(64);
    ofputil_append_flow_monitor_request(&rq, msg, vconn_get_version(vconn));
    ofctl_dump_transaction(switch_name, vconn, msg);
    fflush(stdout);
}

void
ofctl_monitor(struct ovs_cmdl_context *ctx)
{
    /* invalid_ttl: a flag of OpenFlow 1.1 and 1.2 that Open vSwitch also
     * takes in 1.0. */
    for (int i = 2; i < ctx->argc; i++) {
        if (!strcmp(ctx->argv[i], "invalid_ttl")) {
            uint32_t usable = ((1u << OFP10_VERSION) | (1u << OFP11_VERSION)
                               | (1u << OFP12_VERSION));
            if (!(ofctl_opts.allowed_versions & usable)) {
                struct ds versions = DS_EMPTY_INITIALIZER;
                ofputil_format_version_bitmap_names(&versions, usable);
                ovs_fatal(0, "invalid_ttl requires one of the OpenFlow "
                          "versions %s but none is enabled (use -O)",
                          ds_cstr(&versions));
            }
            ofctl_opts.allowed_versions &= usable;
            break;
        }
    }

    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    for (int i = 2; i < ctx->argc; i++) {
        const char *arg = ctx->argv[i];
        if (isdigit((unsigned char) *arg)) {
            struct ofputil_switch_config config;
            fetch_switch_config(vconn, &config);
            config.miss_send_len = atoi(arg);
            set_switch_config(vconn, &config);
        } else if (!strcmp(arg, "invalid_ttl")) {
            set_invalid_ttl_to_controller(vconn);
        } else if (!strncmp(arg, "watch:", 6)) {
            send_flow_monitor_request(ctx->argv[1], vconn, arg + 6);
        } else {
            /* "resume" (continuations) is not implemented. */
            ovs_fatal(0, "%s: unsupported \"monitor\" argument", arg);
        }
    }

    if (ofctl_opts.packet_in_format >= 0) {
        set_packet_in_format(vconn, ofctl_opts.packet_in_format, true);
    } else if (!set_packet_in_format(vconn, OFPUTIL_PACKET_IN_NXT2, false)
               && vconn_get_version(vconn) == OFP10_VERSION) {
        /* A switch without NXT_PACKET_IN2 may still have Nicira's older
         * format, which only 1.0 needs (1.1+ have the fields in theirs). */
        set_packet_in_format(vconn, OFPUTIL_PACKET_IN_NXT, false);
    }

    monitor_vconn(vconn, true);
}

void
ofctl_snoop(struct ovs_cmdl_context *ctx)
{
    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "snoop", &vconn);
    monitor_vconn(vconn, false);
}
