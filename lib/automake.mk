noinst_LIBRARIES += lib/libovs.a
lib_libovs_a_SOURCES = \
	lib/util.c lib/util.h \
	lib/text-parse.c lib/text-parse.h

# Containers, hashing, strings, buffers.
lib_libovs_a_SOURCES += \
	lib/dynamic-string.c \
	lib/dynamic-string.h \
	lib/hash.c \
	lib/hash.h \
	lib/hmap.c \
	lib/hmap.h \
	lib/list.h \
	lib/ofpbuf.c \
	lib/ofpbuf.h \
	lib/smap.c \
	lib/smap.h \
	lib/sset.c \
	lib/sset.h

# Clock, logging, coverage counters.
lib_libovs_a_SOURCES += \
	lib/coverage.c \
	lib/coverage.h \
	lib/timeval.c \
	lib/timeval.h \
	lib/vlog.c \
	lib/vlog.h

# Event loop, change sequences, threads.
lib_libovs_a_SOURCES += \
	lib/connectivity.c \
	lib/connectivity.h \
	lib/ovs-thread.c \
	lib/ovs-thread.h \
	lib/poll-loop.c \
	lib/poll-loop.h \
	lib/seq.c \
	lib/seq.h

# Streams, TLS, reconnect, JSON-RPC.
lib_libovs_a_SOURCES += \
	lib/jsonrpc.c \
	lib/jsonrpc.h \
	lib/jsonrpc-msg.c \
	lib/jsonrpc-session.c \
	lib/reconnect.c \
	lib/reconnect.h \
	lib/socket-util.c \
	lib/socket-util.h \
	lib/replay.c \
	lib/replay.h \
	lib/stream.c \
	lib/stream.h \
	lib/stream-provider.h \
	lib/stream-replay.c \
	lib/stream-socket.c \
	lib/stream-ssl.c \
	lib/stream-ssl.h

# unixctl, daemon support, directories, command-line helpers.
lib_libovs_a_SOURCES += \
	lib/unixctl.h \
	lib/unixctl.c \
	lib/daemon.c \
	lib/daemon.h \
	lib/dirs.c \
	lib/dirs.h \
	lib/command-line.c \
	lib/command-line.h \
	lib/fatal-signal.c \
	lib/fatal-signal.h \
	lib/process.c \
	lib/process.h

# OVSDB data model: UUIDs, errors, types, atoms and datums, schemas.
lib_libovs_a_SOURCES += \
	lib/bitmap.h \
	lib/ovsdb-data.c \
	lib/ovsdb-data.h \
	lib/ovsdb-error.c \
	lib/ovsdb-error.h \
	lib/ovsdb-parser.c \
	lib/ovsdb-parser.h \
	lib/ovsdb-schema.c \
	lib/ovsdb-schema.h \
	lib/ovsdb-types.c \
	lib/ovsdb-types.h \
	lib/shash.c \
	lib/shash.h \
	lib/uuid.c \
	lib/uuid.h

# Output tables (table, list, csv, json, html) for the command-line tools.
lib_libovs_a_SOURCES += \
	lib/json-print.c \
	lib/json-print.h \
	lib/table.c \
	lib/table.h

# OVSDB IDL: the client-side replica and its transactions.
lib_libovs_a_SOURCES += \
	lib/ovsdb-idl.c \
	lib/ovsdb-idl.h \
	lib/ovsdb-idl-private.h \
	lib/ovsdb-idl-provider.h \
	lib/ovsdb-idl-txn.c \
	lib/ovsdb-server-status.c \
	lib/ovsdb-server-status.h

# Flow keys, their masks and compact forms.
lib_libovs_a_SOURCES += \
	lib/flow.c \
	lib/flow.h \
	lib/mpls.c \
	lib/mpls.h \
	lib/types.h

# Datapath packets: buffers, parsing into flows, datapath flow and action
# syntax, action execution.
lib_libovs_a_SOURCES += \
	lib/csum.c \
	lib/csum.h \
	lib/dp-packet.c \
	lib/dp-packet.h \
	lib/flow-extract.c \
	lib/flow-extract.h \
	lib/flow-select.c \
	lib/flow-select.h \
	lib/netlink.c \
	lib/netlink.h \
	lib/odp-execute.c \
	lib/odp-execute.h \
	lib/odp-util.c \
	lib/odp-util.h

# Fragment reassembly in front of the connection tracker.
lib_libovs_a_SOURCES += \
	lib/ipf.c \
	lib/ipf.h

# The OpenFlow classifier: tuple space search with prefix tries, and the
# RCU-style deferral and versions its lock-free readers rely on.
lib_libovs_a_SOURCES += \
	lib/classifier.c \
	lib/classifier.h \
	lib/classifier-private.h \
	lib/cls-find.c \
	lib/cls-lookup.c \
	lib/cls-order.c \
	lib/cls-table.c \
	lib/ovs-rcu.c \
	lib/ovs-rcu.h \
	lib/prefix-trie.c \
	lib/prefix-trie.h \
	lib/versions.h

# Network devices.
lib_libovs_a_SOURCES += \
	lib/netdev.c \
	lib/netdev.h \
	lib/netdev-dummy.c \
	lib/netdev-dummy-link.c \
	lib/netdev-dummy-link.h \
	lib/netdev-vport.c \
	lib/netdev-vport.h \
	lib/tunnel-options.c \
	lib/tunnel-options.h \
	lib/netdev-linux.c \
	lib/netdev-patch.c \
	lib/netdev-patch.h \
	lib/netdev-provider.h \
	lib/packets.c \
	lib/packets.h \
	lib/ip-addr.c \
	lib/ip-addr.h

# Native tunneling: the switch's routing table, neighbour cache, and the
# encapsulation headers tnl_push/tnl_pop carry.
lib_libovs_a_SOURCES += \
	lib/ovs-router.c \
	lib/ovs-router.h \
	lib/route-table.c \
	lib/route-table.h \
	lib/tnl-neigh-cache.c \
	lib/tnl-neigh-cache.h \
	lib/tnl-ports.c \
	lib/tnl-ports.h \
	lib/tnl-header.c \
	lib/tnl-header.h \
	lib/tnl-header-private.h \
	lib/tnl-header-text.c

# The userspace datapath: deferred freeing, megaflow classifier, exact-match
# cache, upcall channels.
lib_libovs_a_SOURCES += \
	lib/conntrack.c \
	lib/conntrack.h \
	lib/conntrack-alg.c \
	lib/conntrack-key.c \
	lib/conntrack-nat.c \
	lib/conntrack-private.h \
	lib/conntrack-proto.c \
	lib/dp-epoch.c \
	lib/dp-bond.c \
	lib/dp-bond.h \
	lib/dp-meter.c \
	lib/dp-meter.h \
	lib/ct-dpif.c \
	lib/ct-dpif.h \
	lib/ct-format.c \
	lib/ct-format.h \
	lib/dpctl.c \
	lib/dpctl.h \
	lib/dpif.c \
	lib/dpif.h \
	lib/dpif-netdev.c \
	lib/dpif-netdev.h \
	lib/dpif-provider.h \
	lib/dp-epoch.h \
	lib/dpcls.c \
	lib/dpcls.h \
	lib/dpif-channel.c \
	lib/dpif-channel.h \
	lib/emc.c \
	lib/emc.h \
	lib/pcap-file.c \
	lib/pcap-file.h \
	lib/upcall-sink.c \
	lib/upcall-sink.h

# OpenFlow: wire formats, errors, message framing, versions and protocols.
lib_libovs_a_SOURCES += \
	lib/openflow.h \
	lib/ofp-errors.c \
	lib/ofp-errors.h \
	lib/ofp-msgs.c \
	lib/ofp-msgs.h \
	lib/ofp-protocol.c \
	lib/ofp-protocol.h

# OpenFlow: fields, matches, ports.
lib_libovs_a_SOURCES += \
	lib/be-bytes.h \
	lib/match.c \
	lib/match.h \
	lib/nx-match.c \
	lib/nx-match.h \
	lib/learn.c \
	lib/learn.h \
	lib/ofp-actions.c \
	lib/ofp-actions.h \
	lib/ofp-actions-text.c \
	lib/ofp-actions-private.h \
	lib/ofp-actions-ct.c \
	lib/ofp-actions-encap.c \
	lib/ofp-actions-mpls.c \
	lib/ofp-actions-nx.c \
	lib/bundle.c \
	lib/multipath.c \
	lib/ofp-fields.c \
	lib/ofp-fields.h \
	lib/ofp-fields-text.c \
	lib/ofp-flow.c \
	lib/ofp-flow.h \
	lib/ofp-flow-removed.c \
	lib/ofp-flow-stats.c \
	lib/ofp-group.c \
	lib/ofp-group.h \
	lib/ofp-meter.c \
	lib/ofp-meter.h \
	lib/ofp-monitor.c \
	lib/ofp-monitor.h \
	lib/ofp-packet.c \
	lib/ofp-packet.h \
	lib/ofp-match.c \
	lib/ofp-match.h \
	lib/ofp-match11.c \
	lib/ofp-parse.c \
	lib/ofp-parse.h \
	lib/ofp-port.c \
	lib/ofp-port.h \
	lib/ofp-tlv.c \
	lib/ofp-tlv.h \
	lib/tun-metadata.c \
	lib/tun-metadata.h \
	lib/tunnel-config.h \
	lib/heap.c \
	lib/heap.h \
	lib/port-protocol.c \
	lib/bfd.c \
	lib/bfd.h \
	lib/stp.c \
	lib/stp.h \
	lib/stp-bpdu.c \
	lib/stp-bpdu.h \
	lib/cfm.c \
	lib/cfm.h \
	lib/lacp.c \
	lib/lacp.h \
	lib/lacp-pdu.c \
	lib/lacp-pdu.h \
	lib/port-protocol.h \
	lib/rstp.c \
	lib/rstp.h \
	lib/rstp-bpdu.c \
	lib/rstp-bpdu.h \
	lib/rstp-private.h \
	lib/rstp-sm.c \
	lib/rstp-sm.h \
	lib/rstp-sm-info.c \
	lib/rstp-sm-role.c

# OpenFlow: switch, port and table messages, and the message printer.
lib_libovs_a_SOURCES += \
	lib/ofp-phy-port.c \
	lib/ofp-phy-port.h \
	lib/ofp-print.c \
	lib/ofp-print.h \
	lib/ofp-prop.c \
	lib/ofp-prop.h \
	lib/ofp-queue.c \
	lib/ofp-queue.h \
	lib/ofp-bundle.c \
	lib/ofp-bundle.h \
	lib/ofp-ct.c \
	lib/ofp-ct.h \
	lib/ofp-requestforward.c \
	lib/ofp-requestforward.h \
	lib/ofp-switch.c \
	lib/ofp-switch.h \
	lib/ofp-table.c \
	lib/ofp-table.h

# OpenFlow connections: messages over streams, kept up by reconnect.
lib_libovs_a_SOURCES += \
	lib/rconn.c \
	lib/rconn.h \
	lib/vconn.c \
	lib/vconn.h
