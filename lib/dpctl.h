/* dpctl: the datapath commands of ovs-dpctl, as "dpctl/..." unixctl
 * commands of the daemon that holds the datapaths.
 *
 * Open vSwitch's ovs-dpctl talks to the kernel datapath over Netlink.  Ours
 * has no kernel datapath: datapaths live in a daemon (ovs-vswitchd), so
 * the daemon registers these commands and ovs-dpctl is a thin client that
 * sends "dpctl/COMMAND ARGS..." to its control socket, exactly what
 * "ovs-appctl dpctl/COMMAND ARGS..." does.  The commands, their arguments
 * and their output follow Open vSwitch 3.1's:
 *
 *   add-dp DP [IFACE...]        del-dp DP
 *   add-if DP IFACE[,OPT=VAL]... (type=TYPE, port_no=N; other options go
 *                               to the netdev: pcap=FILE, ...)
 *   del-if DP IFACE...          show [-s] [DP...]
 *   dump-flows [-m] [DP] [filter=FLOW]
 *   add-flow [DP] FLOW ACTIONS  mod-flow [--clear] [--may-create] [DP] FLOW ACTIONS
 *   get-flow [DP] FLOW          del-flow [DP] FLOW
 *   del-flows [DP]
 *   set-rx-threads DP N         (ours: the datapath's receive threads)
 *
 * DP is "[TYPE@]NAME"; TYPE defaults to "netdev", the only type here.
 * Where DP is optional, the one datapath in the process is used.  FLOW and
 * ACTIONS are in the datapath flow syntax of odp-util.h; an error names the
 * position in the text.
 *
 * Main thread only. */
#ifndef DPCTL_H
#define DPCTL_H 1

#include <stdbool.h>

/* Registers the dpctl/... commands. */
void dpctl_unixctl_register(void);

/* One flow as "dump-flows" prints it: key, statistics, actions (VERBOSE:
 * every field, as -m).  ofproto's dpif/dump-flows shares it. */
struct dpif_flow;
struct ds;
struct odp_port_names;
void dpctl_format_dpif_flow(struct ds *, const struct dpif_flow *,
                            const struct odp_port_names *, bool verbose);
/* Housekeeping for the datapaths the process holds (call each main loop
 * iteration). */
void dpctl_run(void);
/* Deletes every datapath the process holds (at exit). */
void dpctl_exit(void);

#endif /* dpctl.h */
