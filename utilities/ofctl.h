/* ofctl: the pieces of ovs-ofctl, shared between its files.
 *
 * ovs-ofctl talks OpenFlow to a switch (or any OpenFlow peer) and must
 * print and exit exactly as Open vSwitch 3.1's ovs-ofctl does, so scripts
 * written against 3.1 keep working.  The program is split by job:
 *
 *   ovs-ofctl.c       options, the command table, usage and main();
 *   ofctl-target.c    turning a SWITCH argument into an OpenFlow connection
 *                     (bridge name, socket path, unix:/tcp:/ssl:), version
 *                     negotiation, switching an OpenFlow 1.0 connection's
 *                     flow format, and the "send and check the answer"
 *                     helpers every command uses;
 *   ofctl-print.c     the ofp-print command (messages are printed by
 *                     lib/ofp-print everywhere);
 *   ofctl-tlv.c       the TLV map commands (add-, del-, dump-tlv-map);
 *   ofctl-codec.c     the offline codec commands: parse-nx-match,
 *                     parse-oxm, parse-ofp10-match, parse-ofp11-match,
 *                     check-vlan, ofp-parse;
 *   ofctl-flows.c     flow text: parse-flow(s), add-flow(s), mod-flows,
 *                     del-flows, and the usable protocols of a flow;
 *   ofctl-dump.c      dump-flows (with --sort/--rsort) and dump-aggregate;
 *   ofctl-replace.c   diff-flows and replace-flows;
 *   ofctl-names.c     the switch's port and table names (--names);
 *   ofctl-switch.c    show, dump-desc, dump-tables, dump-table-features,
 *                     dump-ports, dump-ports-desc, mod-port;
 *   ofctl-groups.c    groups and meters;
 *   ofctl-bundle.c    the bundle command (flows, groups and packet-outs
 *                     from a file, as one bundle);
 *   ofctl-packet.c    packet-out;
 *   ofctl-pcap.c      parse-pcap;
 *   ofctl-echo.c      probe, ping, benchmark;
 *   ofctl-ct.c        ct-flush-zone, ct-flush;
 *   ofctl-monitor.c   monitor and snoop (a daemon with unixctl commands).
 *
 * Errors: like 3.1, every failure ends the program through ovs_fatal()
 * (exit status 1, "ovs-ofctl: ..." on stderr), and an OpenFlow error reply
 * from the switch is printed (to stderr) and ends it with status 1 too.
 * Nothing here outlives a command, so the helpers may exit; memory handed
 * back by them belongs to the caller, and the commands free what they
 * allocate so that valgrind and ASan stay quiet.
 *
 * Threads: main thread only, except the --timeout watchdog in
 * ovs-ofctl.c, which only raises SIGALRM. */
#ifndef OFCTL_H
#define OFCTL_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "ofp-protocol.h"
#include "openflow.h"

struct ofpbuf;
struct ovs_cmdl_context;
struct ovs_list;
struct vconn;

/* The command-line options the commands read, set once by main(). */
struct ofctl_options {
    /* -O/--protocols: the OpenFlow versions to offer, and the protocols
     * (version plus 1.0 flow format) those versions allow. */
    uint32_t allowed_versions;
    enum ofputil_protocol allowed_protocols;
    bool strict;                /* --strict: exact matches in mod/del. */
    int verbosity;              /* -m/--more, each one adds 1. */
    int use_names;              /* --names 1, --no-names 0, else -1. */
    bool show_stats;            /* false for --no-stats. */
    bool readd;                 /* --readd: replace-flows re-adds all. */
    bool may_create;            /* --may-create: mod-group may add. */
    bool bundle;                /* --bundle: flow changes as a bundle. */
    int packet_in_format;       /* -P: enum ofputil_packet_in_format, or
                                 * -1 to let monitor choose. */
    bool timestamp;             /* --timestamp: monitor, snoop. */
    char *unixctl_path;         /* --unixctl: monitor, snoop. */
};
extern struct ofctl_options ofctl_opts;
/* What main() returns once the command is done (diff-flows: 2 when the
 * sources differ), so that it can clean up first. */
extern int ofctl_exit_status;

/* Opening connections (ofctl-target.c). */

/* Opens SWITCH as 3.1 does (see ofctl-target.c), negotiates a version and
 * returns the vconn in *VCONNP and the protocol it speaks (the version's
 * base protocol; in 1.0 the standard flow format with table ids off).
 * SUFFIX is the socket suffix for bridge names: "mgmt", or "snoop".
 * Every failure is fatal with 3.1's message. */
enum ofputil_protocol ofctl_open_vconn(const char *name, const char *suffix,
                                       struct vconn **vconnp);

/* Opens SWITCH and brings the connection to a protocol in USABLE (and in
 * the allowed protocols), switching a 1.0 connection's flow format or
 * table-id setting as 3.1 does (the lowest usable protocol first).  Fatal
 * when none is possible. */
enum ofputil_protocol ofctl_open_vconn_for_flow_mod(
    const char *name, enum ofputil_protocol usable, struct vconn **vconnp);

/* Switches VCONN, which speaks *CUR, to WANT with the Nicira messages
 * 1.0 needs (nothing if *CUR is WANT).  Returns false if the switch
 * refused; *CUR is what the connection speaks then. */
bool ofctl_try_set_protocol(struct vconn *, enum ofputil_protocol want,
                            enum ofputil_protocol *cur);

/* Sends REQUEST on VCONN followed by a barrier; an error reply is printed
 * and ends the program (status 1).  Takes REQUEST. */
void ofctl_transact_noreply(struct vconn *, struct ofpbuf *request);
/* The same for a list of requests (struct ofpbuf's list_node). */
void ofctl_transact_multiple_noreply(struct vconn *, struct ovs_list *);
/* The versions a bundle may use out of ALLOWED: those with bundles (1.3,
 * with ONF's extension, and later), or else 1.4 alone, as 3.1 picks
 * them for --bundle and the bundle command. */
uint32_t ofctl_bundle_versions(uint32_t allowed);
/* --bundle: sends REQUESTS (taking them) as one atomic, ordered bundle
 * (OpenFlow 1.4, or ONF's extension in 1.3) and commits it; errors are
 * printed as 3.1 prints them ("Error NAME for: REQUEST") and end the
 * program (status 1). */
void ofctl_bundle_transact(struct vconn *, struct ovs_list *requests);
/* Sends the multipart REQUEST (taking it) and puts every part of the reply
 * into REPLIES, which the caller frees with ofpbuf_list_delete().  An error
 * reply is printed and ends the program. */
void ofctl_dump_multipart(struct vconn *, struct ofpbuf *request,
                          struct ovs_list *replies);
/* The same for a multipart request sent in parts, REQUESTS (taken; one
 * xid, every part but the last flagged "more"). */
void ofctl_transact_multipart(struct vconn *, struct ovs_list *requests,
                              struct ovs_list *replies);
/* Sends REQUEST and returns its reply (the caller frees it).  Fatal on a
 * connection failure. */
struct ofpbuf *ofctl_transact(struct vconn *, struct ofpbuf *request);

/* Ends the program with 3.1's wording for a failed exchange with VCONN:
 * "ovs-ofctl: talking to NAME (strerror)". */
void ofctl_run(int error, const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3);

/* Port and table names (ofctl-names.c).  The maps belong to the module.
 * "to_accept": the maps for parsing a flow sent to SWITCH_NAME (NULL with
 * --no-names); "to_show": the maps for printing (NULL unless --names or
 * stdout is a terminal).  Each is read from the switch on first use. */
struct ofputil_port_map;
struct ofputil_table_map;
const struct ofputil_port_map *ofctl_ports_to_accept(const char *switch_name);
const struct ofputil_table_map *ofctl_tables_to_accept(
    const char *switch_name);
const struct ofputil_port_map *ofctl_ports_to_show(const char *switch_name);
const struct ofputil_table_map *ofctl_tables_to_show(
    const char *switch_name);
bool ofctl_should_show_names(void);
/* Reads SWITCH_NAME's ports over a connection of their own (a features
 * request in 1.0-1.2, port descriptions in 1.3+) and calls CB for each. */
struct ofputil_phy_port;
void ofctl_read_ports(const char *switch_name,
                      void (*cb)(const struct ofputil_phy_port *, void *aux),
                      void *aux);
void ofctl_names_destroy(void);

/* Commands. */
void ofctl_ofp_print(struct ovs_cmdl_context *);
void ofctl_encode_error_reply(struct ovs_cmdl_context *);
void ofctl_print_error(struct ovs_cmdl_context *);
void ofctl_parse_flow(struct ovs_cmdl_context *);
void ofctl_parse_flows(struct ovs_cmdl_context *);
void ofctl_parse_nx_match(struct ovs_cmdl_context *);
void ofctl_parse_oxm(struct ovs_cmdl_context *);
void ofctl_parse_ofp10_match(struct ovs_cmdl_context *);
void ofctl_parse_ofp11_match(struct ovs_cmdl_context *);
void ofctl_check_vlan(struct ovs_cmdl_context *);
void ofctl_ofp_parse(struct ovs_cmdl_context *);
void ofctl_add_tlv_map(struct ovs_cmdl_context *);
void ofctl_del_tlv_map(struct ovs_cmdl_context *);
void ofctl_dump_tlv_map(struct ovs_cmdl_context *);
void ofctl_add_flow(struct ovs_cmdl_context *);
void ofctl_add_flows(struct ovs_cmdl_context *);
void ofctl_mod_flows(struct ovs_cmdl_context *);
void ofctl_del_flows(struct ovs_cmdl_context *);
void ofctl_dump_flows(struct ovs_cmdl_context *);
void ofctl_dump_aggregate(struct ovs_cmdl_context *);
void ofctl_diff_flows(struct ovs_cmdl_context *);
void ofctl_replace_flows(struct ovs_cmdl_context *);
void ofctl_show(struct ovs_cmdl_context *);
void ofctl_dump_desc(struct ovs_cmdl_context *);
void ofctl_dump_tables(struct ovs_cmdl_context *);
void ofctl_dump_table_features(struct ovs_cmdl_context *);
void ofctl_dump_ports(struct ovs_cmdl_context *);
void ofctl_dump_ports_desc(struct ovs_cmdl_context *);
void ofctl_mod_port(struct ovs_cmdl_context *);
void ofctl_queue_stats(struct ovs_cmdl_context *);
void ofctl_dump_table_desc(struct ovs_cmdl_context *);
void ofctl_mod_table(struct ovs_cmdl_context *);
void ofctl_queue_get_config(struct ovs_cmdl_context *);
void ofctl_add_group(struct ovs_cmdl_context *);
void ofctl_add_groups(struct ovs_cmdl_context *);
void ofctl_insert_buckets(struct ovs_cmdl_context *);
void ofctl_remove_buckets(struct ovs_cmdl_context *);
void ofctl_dump_group_features(struct ovs_cmdl_context *);
void ofctl_del_groups(struct ovs_cmdl_context *);
void ofctl_mod_group(struct ovs_cmdl_context *);
void ofctl_dump_group_stats(struct ovs_cmdl_context *);
void ofctl_parse_group(struct ovs_cmdl_context *);
void ofctl_bundle(struct ovs_cmdl_context *);
void ofctl_mod_meter(struct ovs_cmdl_context *);
void ofctl_del_meters(struct ovs_cmdl_context *);
void ofctl_meter_stats(struct ovs_cmdl_context *);
void ofctl_dump_groups(struct ovs_cmdl_context *);
void ofctl_add_meter(struct ovs_cmdl_context *);
void ofctl_dump_meters(struct ovs_cmdl_context *);
void ofctl_packet_out(struct ovs_cmdl_context *);
void ofctl_parse_pcap(struct ovs_cmdl_context *);
void ofctl_probe(struct ovs_cmdl_context *);
void ofctl_ping(struct ovs_cmdl_context *);
void ofctl_benchmark(struct ovs_cmdl_context *);
void ofctl_monitor(struct ovs_cmdl_context *);
void ofctl_snoop(struct ovs_cmdl_context *);
void ofctl_ct_flush_zone(struct ovs_cmdl_context *);
void ofctl_ct_flush(struct ovs_cmdl_context *);

/* GM as a message of VERSION; fatal, with 3.1's message, for a bucket
 * command in 1.1-1.4 (ofctl-groups.c). */
struct ofputil_group_mod;
struct ofpbuf *ofctl_encode_group_mod(const struct ofputil_group_mod *,
                                      enum ofp_version);

/* Sends REQUEST on VCONN (taking it) and prints every reply (an error
 * reply too) as 3.1 does, with SWITCH_NAME's names if they are to be
 * shown (never if SWITCH_NAME is NULL) (ofctl-dump.c).  REQUEST is a
 * multipart request, or a request with one reply. */
void ofctl_dump_transaction(const char *switch_name, struct vconn *,
                            struct ofpbuf *request);

/* Opens SWITCH_NAME for a flow dump that can use USABLE, switching the
 * protocol as 3.1 does for dumps (ofctl-dump.c). */
enum ofputil_protocol ofctl_open_vconn_for_flow_dump(
    const char *switch_name, enum ofputil_protocol usable, struct vconn **);
/* Sends the flow stats REQUEST (taking it) and calls CB for every flow of
 * every reply; FS and its actions are valid only during the call.  An
 * error reply is printed and ends the program. */
struct ofputil_flow_stats;
void ofctl_dump_flow_stats(struct vconn *, struct ofpbuf *request,
                           void (*cb)(const struct ofputil_flow_stats *fs,
                                      void *aux),
                           void *aux);

/* --sort (DESCENDING false) or --rsort with FIELD_NAME, NULL or
 * "priority" for the priority; fatal for an unknown field
 * (ofctl-dump.c). */
void ofctl_add_sort_criterion(const char *field_name, bool descending);

#endif /* ofctl.h */
