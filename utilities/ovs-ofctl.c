/* ovs-ofctl: OpenFlow switch management, as Open vSwitch 3.1's tool.
 *
 * This file reads the options and dispatches the command; the commands
 * live in the ofctl-*.c files (see ofctl.h for the map).  Options, usage
 * text, messages and exit statuses follow 3.1, so that scripts and people
 * used to it see the same thing. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "command-line.h"
#include "daemon.h"
#include "dynamic-string.h"
#include "fatal-signal.h"
#include "ofctl.h"
#include "ofp-protocol.h"
#include "poll-loop.h"
#include "stream-ssl.h"
#include "util.h"
#include "vlog.h"

struct ofctl_options ofctl_opts = {
    .allowed_versions = OFPUTIL_DEFAULT_VERSIONS,
    .use_names = -1,
    .show_stats = true,
    .packet_in_format = -1,
};
int ofctl_exit_status = 0;

static noreturn void usage(void);
static void parse_options(int argc, char *argv[]);
static void set_timeout(unsigned int secs);

static const struct ovs_cmdl_command all_commands[] = {
    { "show", "switch", 1, 1, ofctl_show },
    { "dump-desc", "switch", 1, 1, ofctl_dump_desc },
    { "dump-tables", "switch", 1, 1, ofctl_dump_tables },
    { "dump-table-features", "switch", 1, 1, ofctl_dump_table_features },
    { "dump-ports", "switch [port]", 1, 2, ofctl_dump_ports },
    { "dump-ports-desc", "switch [port]", 1, 2, ofctl_dump_ports_desc },
    { "queue-stats", "switch [port [queue]]", 1, 3, ofctl_queue_stats },
    { "dump-table-desc", "switch", 1, 1, ofctl_dump_table_desc },
    { "mod-table", "switch table mod", 3, 3, ofctl_mod_table },
    { "queue-get-config", "switch [port [queue]]", 1, 3,
      ofctl_queue_get_config },
    { "mod-port", "switch iface act", 3, 3, ofctl_mod_port },
    { "probe", "target", 1, 1, ofctl_probe },
    { "ping", "target [n]", 1, 2, ofctl_ping },
    { "benchmark", "target n count", 3, 3, ofctl_benchmark },
    { "monitor", "switch [misslen] [invalid_ttl] [watch:[...]]", 1, 3,
      ofctl_monitor },
    { "snoop", "switch", 1, 1, ofctl_snoop },
    { "dump-flows", "switch", 1, 2, ofctl_dump_flows },
    { "dump-aggregate", "switch", 1, 2, ofctl_dump_aggregate },
    { "add-flow", "switch flow", 2, 2, ofctl_add_flow },
    { "replace-flows", "switch file", 2, 2, ofctl_replace_flows },
    { "diff-flows", "source1 source2", 2, 2, ofctl_diff_flows },
    { "add-flows", "switch file", 2, 2, ofctl_add_flows },
    { "mod-flows", "switch flow", 2, 2, ofctl_mod_flows },
    { "del-flows", "switch [flow]", 1, 2, ofctl_del_flows },
    { "packet-out", "switch \"in_port=<port> packet=<hex data> actions=...\"",
      2, INT_MAX, ofctl_packet_out },
    { "add-group", "switch group", 2, 2, ofctl_add_group },
    { "add-groups", "switch file", 2, 2, ofctl_add_groups },
    { "del-groups", "switch [group]", 1, 2, ofctl_del_groups },
    { "mod-group", "switch group", 2, 2, ofctl_mod_group },
    { "insert-buckets", "switch [group]", 1, 2, ofctl_insert_buckets },
    { "remove-buckets", "switch [group]", 1, 2, ofctl_remove_buckets },
    { "dump-group-features", "switch", 1, 1, ofctl_dump_group_features },
    { "dump-groups", "switch [group]", 1, 2, ofctl_dump_groups },
    { "dump-group-stats", "switch [group]", 1, 2, ofctl_dump_group_stats },
    { "add-meter", "switch meter", 2, 2, ofctl_add_meter },
    { "mod-meter", "switch meter", 2, 2, ofctl_mod_meter },
    { "del-meters", "switch [meter]", 1, 2, ofctl_del_meters },
    { "dump-meters", "switch [meter]", 1, 2, ofctl_dump_meters },
    { "meter-stats", "switch [meter]", 1, 2, ofctl_meter_stats },
    { "ct-flush-zone", "switch zone", 2, 2, ofctl_ct_flush_zone },
    { "ct-flush", "switch [zone=N] [ct-orig-tuple [ct-reply-tuple]]", 1, 4,
      ofctl_ct_flush },
    { "add-tlv-map", "switch map", 2, 2, ofctl_add_tlv_map },
    { "del-tlv-map", "switch [map]", 1, 2, ofctl_del_tlv_map },
    { "dump-tlv-map", "switch", 1, 1, ofctl_dump_tlv_map },
    { "ofp-print", "\"encoded openflow message\" [verbosity]", 1, 2,
      ofctl_ofp_print },
    { "encode-error-reply", NULL, 2, 2, ofctl_encode_error_reply },
    { "print-error", NULL, 1, 1, ofctl_print_error },
    { "parse-flow", NULL, 1, 1, ofctl_parse_flow },
    { "parse-flows", NULL, 1, 1, ofctl_parse_flows },
    { "parse-group", NULL, 1, 1, ofctl_parse_group },
    { "parse-pcap", "pcap...", 1, INT_MAX, ofctl_parse_pcap },
    { "bundle", "switch file", 2, 2, ofctl_bundle },
    { "parse-nx-match", NULL, 0, 0, ofctl_parse_nx_match },
    { "parse-nxm", NULL, 0, 0, ofctl_parse_nx_match },
    { "parse-oxm", NULL, 1, 1, ofctl_parse_oxm },
    { "parse-ofp10-match", NULL, 0, 0, ofctl_parse_ofp10_match },
    { "parse-ofp11-match", NULL, 0, 0, ofctl_parse_ofp11_match },
    { "check-vlan", NULL, 2, 2, ofctl_check_vlan },
    { "ofp-parse", "file", 1, 1, ofctl_ofp_parse },
    { NULL, NULL, 0, 0, NULL },
};

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    vlog_set_levels(NULL, VLF_CONSOLE, VLL_WARN);
    /* 3.1 shows how the flow parser normalized a match (INFO). */
    struct vlog_module *ofp_match = vlog_module_from_name("ofp_match");
    if (ofp_match) {
        vlog_set_levels(ofp_match, VLF_CONSOLE, VLL_INFO);
    }
    fatal_ignore_sigpipe();
    unsigned int env_timeout = ovs_cmdl_env_timeout();
    if (env_timeout) {
        set_timeout(env_timeout);
    }
    parse_options(argc, argv);

    struct ovs_cmdl_context ctx = {
        .argc = argc - optind,
        .argv = argv + optind,
    };
    ovs_cmdl_run_command(&ctx, all_commands);
    ofctl_names_destroy();
    free(ofctl_opts.unixctl_path);
    poll_loop_destroy_self();
    return ofctl_exit_status;
}

/* --timeout: 3.1 arms an alarm, and the process dies by SIGALRM (status
 * 142) with fatal_signal's "terminating with signal 14" warning.  Every wait
 * of ovs-ofctl is in lib's blocking helpers, which run fatal signals
 * (fatal_signal_block()), so arming the alarm is all it takes. */
static void
set_timeout(unsigned int secs)
{
    fatal_signal_init();
    alarm(secs);
}

static void
parse_options(int argc, char *argv[])
{
    enum {
        OPT_STRICT = UCHAR_MAX + 1,
        OPT_NAMES,
        OPT_NO_NAMES,
        OPT_NO_STATS,
        OPT_READD,
        OPT_MAY_CREATE,
        OPT_SORT,
        OPT_RSORT,
        OPT_TIMESTAMP,
        OPT_BUNDLE,
        OPT_UNIXCTL,
        DAEMON_OPTION_ENUMS,
        VLOG_OPTION_ENUMS,
        STREAM_SSL_OPTION_ENUMS,
    };
    static const struct option long_options[] = {
        {"timeout", required_argument, NULL, 't'},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"more", no_argument, NULL, 'm'},
        {"names", no_argument, NULL, OPT_NAMES},
        {"no-names", no_argument, NULL, OPT_NO_NAMES},
        {"no-stats", no_argument, NULL, OPT_NO_STATS},
        {"readd", no_argument, NULL, OPT_READD},
        {"may-create", no_argument, NULL, OPT_MAY_CREATE},
        {"sort", optional_argument, NULL, OPT_SORT},
        {"rsort", optional_argument, NULL, OPT_RSORT},
        {"help", no_argument, NULL, 'h'},
        {"option", no_argument, NULL, 'o'},
        {"version", no_argument, NULL, 'V'},
        {"protocols", required_argument, NULL, 'O'},
        {"flow-format", required_argument, NULL, 'F'},
        {"packet-in-format", required_argument, NULL, 'P'},
        {"timestamp", no_argument, NULL, OPT_TIMESTAMP},
        {"bundle", no_argument, NULL, OPT_BUNDLE},
        {"unixctl", required_argument, NULL, OPT_UNIXCTL},
        DAEMON_LONG_OPTIONS,
        VLOG_LONG_OPTIONS,
        STREAM_SSL_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    char *short_options = ovs_cmdl_long_options_to_short_options(long_options);
    enum ofputil_protocol flow_formats = OFPUTIL_P_ANY;

    for (;;) {
        int c = getopt_long(argc, argv, short_options, long_options, NULL);
        if (c == -1) {
            break;
        }

        switch (c) {
        case 't': {
            unsigned int secs;
            if (!str_to_uint(optarg, 10, &secs) || !secs) {
                ovs_fatal(0, "value %s on -t or --timeout is invalid",
                          optarg);
            }
            set_timeout(secs);
            break;
        }

        case 'O': {
            uint32_t versions;
            char *error = ofputil_versions_from_string(optarg, &versions);
            if (error) {
                ovs_fatal(0, "%s", error);
            }
            ofctl_opts.allowed_versions = versions;
            break;
        }

        case 'F':
            flow_formats = ofputil_protocols_from_string(optarg);
            if (!flow_formats) {
                ovs_fatal(0, "%s: unknown flow protocol", optarg);
            }
            break;

        case 'P': {
            int format = ofputil_packet_in_format_from_string(optarg);
            if (format < 0) {
                ovs_fatal(0, "unknown packet-in format `%s'", optarg);
            }
            ofctl_opts.packet_in_format = format;
            break;
        }

        case OPT_TIMESTAMP:
            ofctl_opts.timestamp = true;
            break;

        case OPT_BUNDLE:
            ofctl_opts.bundle = true;
            break;

        case OPT_UNIXCTL:
            free(ofctl_opts.unixctl_path);
            ofctl_opts.unixctl_path = xstrdup(optarg);
            break;

        case 'm':
            ofctl_opts.verbosity++;
            break;

        case OPT_STRICT:
            ofctl_opts.strict = true;
            break;

        case OPT_NAMES:
            ofctl_opts.use_names = 1;
            break;

        case OPT_NO_NAMES:
            ofctl_opts.use_names = 0;
            break;

        case OPT_NO_STATS:
            ofctl_opts.show_stats = false;
            break;

        case OPT_READD:
            ofctl_opts.readd = true;
            break;

        case OPT_MAY_CREATE:
            ofctl_opts.may_create = true;
            break;

        case OPT_SORT:
            ofctl_add_sort_criterion(optarg, false);
            break;

        case OPT_RSORT:
            ofctl_add_sort_criterion(optarg, true);
            break;

        case 'h':
            free(short_options);
            usage();

        case 'o':
            ovs_cmdl_print_options(long_options);
            free(short_options);
            exit(EXIT_SUCCESS);

        case 'V':
            ovs_print_version();
            printf("OpenFlow versions %#x:%#x\n", OFP10_VERSION,
                   OFP15_VERSION);
            free(short_options);
            exit(EXIT_SUCCESS);

        DAEMON_OPTION_HANDLERS
        VLOG_OPTION_HANDLERS
        STREAM_SSL_OPTION_HANDLERS

        case '?':
            exit(EXIT_FAILURE);

        default:
            abort();
        }
    }
    free(short_options);

    /* --bundle needs OpenFlow 1.3 (ONF's extension) or later: 3.1 keeps
     * the allowed versions that have bundles, or else uses 1.4. */
    if (ofctl_opts.bundle) {
        ofctl_opts.allowed_versions = ofctl_bundle_versions(
            ofctl_opts.allowed_versions);
    }

    /* -F narrows the protocols, and so the versions, that -O allows. */
    enum ofputil_protocol version_protocols
        = ofputil_protocols_from_version_bitmap(ofctl_opts.allowed_versions);
    if (!(flow_formats & version_protocols)) {
        char *protocols = ofputil_protocols_to_string(flow_formats);
        struct ds versions = DS_EMPTY_INITIALIZER;
        ofputil_format_version_bitmap_names(&versions,
                                            ofctl_opts.allowed_versions);
        ovs_fatal(0, "None of the enabled OpenFlow versions (%s) supports "
                  "any of the enabled flow formats (%s).  (Use -O to enable "
                  "additional OpenFlow versions or -F to enable additional "
                  "flow formats.)", ds_cstr(&versions), protocols);
    }
    ofctl_opts.allowed_protocols = flow_formats & version_protocols;
    ofctl_opts.allowed_versions &= ofputil_protocols_to_version_bitmap(
        ofctl_opts.allowed_protocols);
}

static noreturn void
usage(void)
{
    struct ds versions = DS_EMPTY_INITIALIZER;
    ofputil_format_version_bitmap_names(&versions, OFPUTIL_DEFAULT_VERSIONS);
    printf("%s: OpenFlow switch management utility\n"
           "usage: %s [OPTIONS] COMMAND [ARG...]\n"
           "\nFor OpenFlow switches:\n"
           "  show SWITCH                 show OpenFlow information\n"
           "  dump-desc SWITCH            print switch description\n"
           "  dump-tables SWITCH          print table stats\n"
           "  dump-table-features SWITCH  print table features\n"
           "  mod-port SWITCH IFACE ACT   modify port behavior\n"
           "  dump-ports SWITCH [PORT]    print port statistics\n"
           "  dump-table-desc SWITCH      print table description (OF1.4+)\n"
           "  mod-table SWITCH MOD        modify flow table behavior\n"
           "      OF1.1/1.2 MOD: controller, continue, drop\n"
           "      OF1.4+ MOD: evict, noevict, vacancy:low,high, novacancy\n"
           "  dump-ports-desc SWITCH [PORT]  print port descriptions\n"
           "  queue-stats SWITCH [PORT [QUEUE]]  dump queue stats\n"
           "  queue-get-config SWITCH [PORT]  print queue config for PORT\n"
           "  add-flow SWITCH FLOW        add flow described by FLOW\n"
           "  add-flows SWITCH FILE       add flows from FILE\n"
           "  mod-flows SWITCH FLOW       modify actions of matching FLOWs\n"
           "  del-flows SWITCH [FLOW]     delete matching FLOWs\n"
           "  dump-flows SWITCH [FLOW]    print matching FLOWs\n"
           "  dump-aggregate SWITCH [FLOW]  print aggregate stats for FLOWs\n"
           "  replace-flows SWITCH FILE   replace flows with those in FILE\n"
           "  diff-flows SOURCE1 SOURCE2  compare flows from two sources\n"
           "  packet-out SWITCH IN_PORT ACTIONS PACKET...\n"
           "                              execute ACTIONS on PACKET\n"
           "  add-group SWITCH GROUP      add group described by GROUP\n"
           "  add-groups SWITCH FILE      add group from FILE\n"
           "  [--may-create] mod-group SWITCH GROUP   modify specific group\n"
           "  del-groups SWITCH [GROUP]   delete matching GROUPs\n"
           "  insert-buckets SWITCH [GROUP] add buckets to GROUP\n"
           "  remove-buckets SWITCH [GROUP] remove buckets from GROUP\n"
           "  dump-group-features SWITCH  print group features\n"
           "  dump-groups SWITCH [GROUP]  print group description\n"
           "  dump-group-stats SWITCH [GROUP]  print group statistics\n"
           "  add-meter SWITCH METER      add meter described by METER\n"
           "  mod-meter SWITCH METER      modify specific METER\n"
           "  del-meters SWITCH [METER]   delete meters matching METER\n"
           "  dump-meters SWITCH [METER]  print METER configuration\n"
           "  meter-stats SWITCH [METER]  print meter statistics\n"
           "  ct-flush-zone SWITCH ZONE   flush conntrack entries in ZONE\n"
           "  ct-flush SWITCH [ZONE] [CT_ORIG_TUPLE [CT_REPLY_TUPLE]]\n"
           "                              flush conntrack entries specified\n"
           "                              by CT_ORIG/REPLY_TUPLE and ZONE\n"
           "  add-tlv-map SWITCH MAP      add TLV option MAPpings\n"
           "  del-tlv-map SWITCH [MAP] delete TLV option MAPpings\n"
           "  dump-tlv-map SWITCH      print TLV option mappings\n"
           "\nFor OpenFlow switches and controllers:\n"
           "  probe TARGET                probe whether TARGET is up\n"
           "  ping TARGET [N]             latency of N-byte echos\n"
           "  benchmark TARGET N COUNT    bandwidth of COUNT N-byte echos\n"
           "  monitor SWITCH [MISSLEN] [invalid_ttl] [watch:[...]]\n"
           "                              print packets received from SWITCH\n"
           "  snoop SWITCH                snoop on SWITCH and its controller\n"
           "SWITCH or TARGET is an active OpenFlow connection method.\n"
           "\nOther commands:\n"
           "  ofp-print HEX [VERBOSITY]   print the OpenFlow message HEX\n"
           "  parse-flow FLOW             print FLOW as a flow_mod\n"
           "  parse-flows FILE            the same for every flow in FILE\n"
           "  parse-pcap PCAP...          print the flow of each packet\n"
           "  ofp-parse FILE              print messages read from FILE\n"
           "\nActive OpenFlow connection methods:\n"
           "  tcp:HOST[:PORT]         PORT (default: 6653) at remote HOST\n"
           "  ssl:HOST[:PORT]         SSL PORT (default: 6653) at remote HOST\n"
           "  unix:FILE               Unix domain socket named FILE\n"
           "PKI configuration (required to use SSL):\n"
           "  -p, --private-key=FILE  file with private key\n"
           "  -c, --certificate=FILE  file with certificate for private key\n"
           "  -C, --ca-cert=FILE      file with peer CA certificate\n"
           "\nOpenFlow version options:\n"
           "  -V, --version           display version information\n"
           "  -O, --protocols         set allowed OpenFlow versions\n"
           "                          (default: %s)\n"
           "\nLogging options:\n"
           "  -vSPEC, --verbose=SPEC   set logging levels\n"
           "  -v, --verbose            set maximum verbosity level\n"
           "  --log-file[=FILE]        enable logging to specified FILE\n"
           "\nOther options:\n"
           "  --strict                    use strict match for flow commands\n"
           "  --readd                     replace flows that haven't changed\n"
           "  --sort[=field]              sort in ascending order\n"
           "  --rsort[=field]             sort in descending order\n"
           "  --no-stats                  do not print flow statistics\n"
           "  -F, --flow-format=FORMAT    force particular flow format\n"
           "  -P, --packet-in-format=FRMT force particular packet in format\n"
           "  -m, --more                  be more verbose printing OpenFlow\n"
           "  --timestamp                 (monitor, snoop) print timestamps\n"
           "  -t, --timeout=SECS          give up after SECS seconds\n"
           "  --names                     show port names instead of numbers\n"
           "  --no-names                  show port numbers, but not names\n"
           "  -h, --help                  display this help message\n"
           "  -V, --version               display version information\n"
           "  --unixctl=SOCKET            set control socket name\n",
           program_name, program_name, ds_cstr(&versions));
    ds_destroy(&versions);
    exit(EXIT_SUCCESS);
}
