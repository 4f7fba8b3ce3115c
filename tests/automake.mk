# Unit tests (Check) and the autotest suite.
UNIT_TEST_LIBS = tests/unit/libcheckutil.a $(OVS_LIBS) $(CHECK_LIBS)
UNIT_TEST_FLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)

# Helpers shared by the Check suites (check-util.h).
noinst_LIBRARIES += tests/unit/libcheckutil.a
tests_unit_libcheckutil_a_SOURCES = \
	tests/unit/check-util.c \
	tests/unit/check-util.h
tests_unit_libcheckutil_a_CFLAGS = $(UNIT_TEST_FLAGS)

# Check suites, one program per module: add "tests/unit/test-NAME" to
# UNIT_TESTS and define its _SOURCES, _CFLAGS = $(UNIT_TEST_FLAGS) and
# _LDADD = $(UNIT_TEST_LIBS).
UNIT_TESTS =

# Unit suites: containers, hashing, strings, buffers.
UNIT_TESTS += \
	tests/unit/test-hash \
	tests/unit/test-hmap \
	tests/unit/test-list \
	tests/unit/test-dynamic-string \
	tests/unit/test-sset \
	tests/unit/test-smap \
	tests/unit/test-ofpbuf \
	tests/unit/test-text-parse
tests_unit_test_hash_SOURCES = tests/unit/test-hash.c
tests_unit_test_hash_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_hash_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_hmap_SOURCES = tests/unit/test-hmap.c
tests_unit_test_hmap_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_hmap_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_list_SOURCES = tests/unit/test-list.c
tests_unit_test_list_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_list_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_dynamic_string_SOURCES = tests/unit/test-dynamic-string.c
tests_unit_test_dynamic_string_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_dynamic_string_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_sset_SOURCES = tests/unit/test-sset.c
tests_unit_test_sset_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_sset_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_smap_SOURCES = tests/unit/test-smap.c
tests_unit_test_smap_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_smap_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ofpbuf_SOURCES = tests/unit/test-ofpbuf.c
tests_unit_test_ofpbuf_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofpbuf_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_text_parse_SOURCES = tests/unit/test-text-parse.c
tests_unit_test_text_parse_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_text_parse_LDADD = $(UNIT_TEST_LIBS)

# Unit suites: clock, logging, coverage counters.
UNIT_TESTS += \
	tests/unit/test-timeval \
	tests/unit/test-vlog \
	tests/unit/test-coverage
tests_unit_test_timeval_SOURCES = tests/unit/test-timeval.c
tests_unit_test_timeval_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_timeval_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_vlog_SOURCES = tests/unit/test-vlog.c
tests_unit_test_vlog_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_vlog_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_coverage_SOURCES = tests/unit/test-coverage.c
tests_unit_test_coverage_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_coverage_LDADD = $(UNIT_TEST_LIBS)

# Unit suites: event loop, change sequences, threads.
UNIT_TESTS += \
	tests/unit/test-poll-loop \
	tests/unit/test-seq \
	tests/unit/test-port-protocol \
	tests/unit/test-bfd \
	tests/unit/test-cfm \
	tests/unit/test-lacp \
	tests/unit/test-rstp-bpdu \
	tests/unit/test-ovs-thread
tests_unit_test_poll_loop_SOURCES = tests/unit/test-poll-loop.c
tests_unit_test_poll_loop_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_poll_loop_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_seq_SOURCES = tests/unit/test-seq.c
tests_unit_test_seq_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_seq_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_port_protocol_SOURCES = tests/unit/test-port-protocol.c
tests_unit_test_port_protocol_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_port_protocol_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_bfd_SOURCES = tests/unit/test-bfd.c
tests_unit_test_bfd_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_bfd_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_cfm_SOURCES = tests/unit/test-cfm.c
tests_unit_test_cfm_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_cfm_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_lacp_SOURCES = tests/unit/test-lacp.c
tests_unit_test_lacp_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_lacp_LDADD = $(UNIT_TEST_LIBS)
UNIT_TESTS += tests/unit/test-stp-bpdu
tests_unit_test_stp_bpdu_SOURCES = tests/unit/test-stp-bpdu.c
tests_unit_test_stp_bpdu_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_stp_bpdu_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_rstp_bpdu_SOURCES = tests/unit/test-rstp-bpdu.c
tests_unit_test_rstp_bpdu_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_rstp_bpdu_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ovs_thread_SOURCES = tests/unit/test-ovs-thread.c
tests_unit_test_ovs_thread_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ovs_thread_LDADD = $(UNIT_TEST_LIBS)

# Unit suites: streams, TLS, reconnect, JSON-RPC.
UNIT_TESTS += \
	tests/unit/test-reconnect \
	tests/unit/test-jsonrpc \
	tests/unit/test-stream
tests_unit_test_reconnect_SOURCES = tests/unit/test-reconnect.c
tests_unit_test_reconnect_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_reconnect_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_jsonrpc_SOURCES = tests/unit/test-jsonrpc.c
tests_unit_test_jsonrpc_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_jsonrpc_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_stream_SOURCES = tests/unit/test-stream.c
tests_unit_test_stream_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_stream_LDADD = $(UNIT_TEST_LIBS)
UNIT_TESTS += tests/unit/test-vconn
tests_unit_test_vconn_SOURCES = tests/unit/test-vconn.c
tests_unit_test_vconn_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_vconn_LDADD = $(UNIT_TEST_LIBS)
# The JSON-RPC client and server that tests/jsonrpc.at drives.
check_PROGRAMS += tests/test-jsonrpc
tests_test_jsonrpc_SOURCES = tests/test-jsonrpc.c
tests_test_jsonrpc_LDADD = $(OVS_LIBS)

# Unit suite: native tunneling (routing table, neighbour cache, headers).
UNIT_TESTS += tests/unit/test-native-tnl
tests_unit_test_native_tnl_SOURCES = tests/unit/test-native-tnl.c \
	tests/unit/tnl-header-check.h
tests_unit_test_native_tnl_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_native_tnl_LDADD = $(UNIT_TEST_LIBS)

# Unit suite: GTP-U in native tunneling (header, push, pop, text).
UNIT_TESTS += tests/unit/test-gtpu
tests_unit_test_gtpu_SOURCES = tests/unit/test-gtpu.c \
	tests/unit/tnl-header-check.h
tests_unit_test_gtpu_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_gtpu_LDADD = $(UNIT_TEST_LIBS)

# Unit suite: stream record/replay.
UNIT_TESTS += tests/unit/test-replay
tests_unit_test_replay_SOURCES = tests/unit/test-replay.c
tests_unit_test_replay_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_replay_LDADD = $(UNIT_TEST_LIBS)

# Unit suites: unixctl, daemon support, directories.
UNIT_TESTS += \
	tests/unit/test-unixctl \
	tests/unit/test-daemon
tests_unit_test_unixctl_SOURCES = tests/unit/test-unixctl.c
tests_unit_test_unixctl_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_unixctl_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_daemon_SOURCES = tests/unit/test-daemon.c
tests_unit_test_daemon_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_daemon_LDADD = $(UNIT_TEST_LIBS)

# Unit suites: OVSDB data model (uuid, errors, types, data, schemas).
UNIT_TESTS += \
	tests/unit/test-uuid \
	tests/unit/test-shash \
	tests/unit/test-ovsdb-error \
	tests/unit/test-ovsdb-types \
	tests/unit/test-ovsdb-data \
	tests/unit/test-ovsdb-schema
tests_unit_test_uuid_SOURCES = tests/unit/test-uuid.c
tests_unit_test_uuid_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_uuid_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_shash_SOURCES = tests/unit/test-shash.c
tests_unit_test_shash_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_shash_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ovsdb_error_SOURCES = tests/unit/test-ovsdb-error.c
tests_unit_test_ovsdb_error_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ovsdb_error_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ovsdb_types_SOURCES = tests/unit/test-ovsdb-types.c
tests_unit_test_ovsdb_types_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ovsdb_types_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ovsdb_data_SOURCES = tests/unit/test-ovsdb-data.c
tests_unit_test_ovsdb_data_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ovsdb_data_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ovsdb_schema_SOURCES = tests/unit/test-ovsdb-schema.c
tests_unit_test_ovsdb_schema_CFLAGS = $(UNIT_TEST_FLAGS) \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_unit_test_ovsdb_schema_LDADD = $(UNIT_TEST_LIBS)

# Unit suites: OVSDB engine (rows, tables, conditions, mutations, txns).
UNIT_TESTS += \
	tests/unit/test-ovsdb-engine \
	tests/unit/test-ovsdb-condition \
	tests/unit/test-ovsdb-execution \
	tests/unit/test-ovsdb-rbac
tests_unit_test_ovsdb_engine_SOURCES = tests/unit/test-ovsdb-engine.c
tests_unit_test_ovsdb_engine_CFLAGS = $(UNIT_TEST_FLAGS) -I$(top_srcdir)/ovsdb
tests_unit_test_ovsdb_engine_LDADD = ovsdb/libovsdb.a $(UNIT_TEST_LIBS)
tests_unit_test_ovsdb_condition_SOURCES = tests/unit/test-ovsdb-condition.c
tests_unit_test_ovsdb_condition_CFLAGS = $(UNIT_TEST_FLAGS) -I$(top_srcdir)/ovsdb
tests_unit_test_ovsdb_condition_LDADD = ovsdb/libovsdb.a $(UNIT_TEST_LIBS)
tests_unit_test_ovsdb_execution_SOURCES = tests/unit/test-ovsdb-execution.c
tests_unit_test_ovsdb_execution_CFLAGS = $(UNIT_TEST_FLAGS) -I$(top_srcdir)/ovsdb
tests_unit_test_ovsdb_execution_LDADD = ovsdb/libovsdb.a $(UNIT_TEST_LIBS)
tests_unit_test_ovsdb_rbac_SOURCES = tests/unit/test-ovsdb-rbac.c
tests_unit_test_ovsdb_rbac_CFLAGS = $(UNIT_TEST_FLAGS) -I$(top_srcdir)/ovsdb
tests_unit_test_ovsdb_rbac_LDADD = ovsdb/libovsdb.a $(UNIT_TEST_LIBS)

# Unit suites: OVSDB storage (log format, database files).
UNIT_TESTS += \
	tests/unit/test-ovsdb-log \
	tests/unit/test-ovsdb-file
tests_unit_test_ovsdb_file_SOURCES = tests/unit/test-ovsdb-file.c
tests_unit_test_ovsdb_file_CFLAGS = $(UNIT_TEST_FLAGS) -I$(top_srcdir)/ovsdb
tests_unit_test_ovsdb_file_LDADD = ovsdb/libovsdb.a $(UNIT_TEST_LIBS)
tests_unit_test_ovsdb_log_SOURCES = tests/unit/test-ovsdb-log.c
tests_unit_test_ovsdb_log_CFLAGS = $(UNIT_TEST_FLAGS) -I$(top_srcdir)/ovsdb
tests_unit_test_ovsdb_log_LDADD = ovsdb/libovsdb.a $(UNIT_TEST_LIBS)

# Unit suites: output tables.
UNIT_TESTS += \
	tests/unit/test-table
tests_unit_test_table_SOURCES = tests/unit/test-table.c
tests_unit_test_table_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_table_LDADD = $(UNIT_TEST_LIBS)

# Unit suites: network devices and packets.
UNIT_TESTS += \
	tests/unit/test-packets \
	tests/unit/test-flow \
	tests/unit/test-netdev
tests_unit_test_flow_SOURCES = tests/unit/test-flow.c
tests_unit_test_flow_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_flow_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_packets_SOURCES = tests/unit/test-packets.c
tests_unit_test_packets_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_packets_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_netdev_SOURCES = tests/unit/test-netdev.c
tests_unit_test_netdev_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_netdev_LDADD = $(UNIT_TEST_LIBS)

# Unit suites: datapath packets, flow extraction, datapath flow syntax and
# action execution.
UNIT_TESTS += \
	tests/unit/test-dp-packet \
	tests/unit/test-flow-extract \
	tests/unit/test-odp-util \
	tests/unit/test-odp-execute \
	tests/unit/test-dp-meter \
	tests/unit/test-dp-bond \
	tests/unit/test-ipf
tests_unit_test_ipf_SOURCES = tests/unit/test-ipf.c
tests_unit_test_ipf_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ipf_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_dp_bond_SOURCES = tests/unit/test-dp-bond.c
tests_unit_test_dp_bond_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_dp_bond_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_dp_meter_SOURCES = tests/unit/test-dp-meter.c
tests_unit_test_dp_meter_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_dp_meter_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_odp_execute_SOURCES = tests/unit/test-odp-execute.c
tests_unit_test_odp_execute_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_odp_execute_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_odp_util_SOURCES = tests/unit/test-odp-util.c
tests_unit_test_odp_util_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_odp_util_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_flow_extract_SOURCES = tests/unit/test-flow-extract.c
tests_unit_test_flow_extract_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_flow_extract_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_dp_packet_SOURCES = tests/unit/test-dp-packet.c
tests_unit_test_dp_packet_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_dp_packet_LDADD = $(UNIT_TEST_LIBS)

# Unit suite: conntrack entries as dpctl prints them.
UNIT_TESTS += tests/unit/test-ct-format
tests_unit_test_ct_format_SOURCES = tests/unit/test-ct-format.c
tests_unit_test_ct_format_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ct_format_LDADD = $(UNIT_TEST_LIBS)

# Unit suites: the OpenFlow classifier (random rule sets, ClassBench,
# concurrent lookups).
UNIT_TESTS += \
	tests/unit/test-classifier \
	tests/unit/test-classifier-classbench
tests_unit_test_classifier_SOURCES = tests/unit/test-classifier.c
tests_unit_test_classifier_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_classifier_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_classifier_classbench_SOURCES = \
	tests/unit/test-classifier-classbench.c
tests_unit_test_classifier_classbench_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/bench \
	-DCLASSBENCH_DIR='"$(abs_top_srcdir)/../shared/classbench"'
tests_unit_test_classifier_classbench_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_classifier_classbench_LDADD = bench/libclassbench.a \
	$(UNIT_TEST_LIBS)
UNIT_TESTS += tests/unit/test-classifier-threads
tests_unit_test_classifier_threads_SOURCES = tests/unit/test-classifier-threads.c
tests_unit_test_classifier_threads_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_classifier_threads_LDADD = $(UNIT_TEST_LIBS)

# Suites with threads that "make check-tsan" runs in a ThreadSanitizer
# build (configure --enable-tsan; utilities/setup.sh does it in CI).
TSAN_TESTS = tests/unit/test-classifier-threads \
	tests/unit/test-conntrack \
	tests/unit/test-ofproto-threads \
	tests/unit/test-dpif-channel \
	tests/unit/test-dpif-netdev \
	tests/unit/test-stats-writer

# Unit suites: ofproto (rules, translation, NORMAL, MAC learning) and its
# threads.
UNIT_TESTS += tests/unit/test-ofproto tests/unit/test-ofproto-threads
UNIT_TESTS += tests/unit/test-tunnel
tests_unit_test_tunnel_SOURCES = tests/unit/test-tunnel.c
tests_unit_test_tunnel_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_tunnel_LDADD = ofproto/libofproto.a $(UNIT_TEST_LIBS)
tests_unit_test_ofproto_SOURCES = tests/unit/test-ofproto.c
tests_unit_test_ofproto_SOURCES += tests/unit/ofproto-test-util.h
tests_unit_test_ofproto_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofproto_LDADD = ofproto/libofproto.a $(UNIT_TEST_LIBS)
tests_unit_test_ofproto_threads_SOURCES = tests/unit/test-ofproto-threads.c
tests_unit_test_ofproto_threads_SOURCES += tests/unit/ofproto-test-util.h
tests_unit_test_ofproto_threads_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofproto_threads_LDADD = ofproto/libofproto.a $(UNIT_TEST_LIBS)

# Unit suite: OpenFlow port numbers.
UNIT_TESTS += tests/unit/test-ofport-numbers
tests_unit_test_ofport_numbers_SOURCES = \
	tests/unit/test-ofport-numbers.c \
	ofproto/ofport-numbers.c
tests_unit_test_ofport_numbers_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofport_numbers_LDADD = $(UNIT_TEST_LIBS)

# Unit suite: the controller packet_in rate limiter.
UNIT_TESTS += tests/unit/test-pinsched
tests_unit_test_pinsched_SOURCES = \
	tests/unit/test-pinsched.c \
	ofproto/pinsched.c
tests_unit_test_pinsched_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_pinsched_LDADD = $(UNIT_TEST_LIBS)

# Unit suites: the OpenFlow codec (expected values are Open vSwitch 3.1's).
UNIT_TESTS += \
	tests/unit/test-nx-match \
	tests/unit/test-ofp-msgs \
	tests/unit/test-ofp-fields \
	tests/unit/test-ofp-port \
	tests/unit/test-ofp-actions \
	tests/unit/test-ofp-match \
	tests/unit/test-ofp-flow \
	tests/unit/test-ofp-parse
UNIT_TESTS += tests/unit/test-ofp-packet
UNIT_TESTS += tests/unit/test-ofp-meter
UNIT_TESTS += tests/unit/test-ofp-tlv
tests_unit_test_ofp_tlv_SOURCES = tests/unit/test-ofp-tlv.c
tests_unit_test_ofp_tlv_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_tlv_LDADD = $(UNIT_TEST_LIBS)
UNIT_TESTS += tests/unit/test-ofp-monitor
tests_unit_test_ofp_monitor_SOURCES = tests/unit/test-ofp-monitor.c \
	tests/unit/check-ofp.c tests/unit/check-ofp.h
tests_unit_test_ofp_monitor_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_monitor_LDADD = $(UNIT_TEST_LIBS)
UNIT_TESTS += tests/unit/test-ofp-group
tests_unit_test_ofp_group_SOURCES = tests/unit/test-ofp-group.c
tests_unit_test_ofp_group_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_group_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ofp_meter_SOURCES = tests/unit/test-ofp-meter.c
tests_unit_test_ofp_meter_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_meter_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ofp_packet_SOURCES = tests/unit/test-ofp-packet.c
tests_unit_test_ofp_packet_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_packet_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ofp_parse_SOURCES = tests/unit/test-ofp-parse.c
tests_unit_test_ofp_parse_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_parse_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ofp_flow_SOURCES = tests/unit/test-ofp-flow.c
tests_unit_test_ofp_flow_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_flow_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ofp_match_SOURCES = tests/unit/test-ofp-match.c
tests_unit_test_ofp_match_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_match_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ofp_actions_SOURCES = tests/unit/test-ofp-actions.c
tests_unit_test_ofp_actions_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_actions_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ofp_fields_SOURCES = tests/unit/test-ofp-fields.c
tests_unit_test_ofp_fields_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_fields_LDADD = $(UNIT_TEST_LIBS)
UNIT_TESTS += tests/unit/test-ofp-ct
tests_unit_test_ofp_ct_SOURCES = tests/unit/test-ofp-ct.c
tests_unit_test_ofp_ct_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_ct_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ofp_port_SOURCES = tests/unit/test-ofp-port.c
tests_unit_test_ofp_port_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_port_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ofp_msgs_SOURCES = tests/unit/test-ofp-msgs.c
tests_unit_test_ofp_msgs_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_msgs_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_nx_match_SOURCES = tests/unit/test-nx-match.c
tests_unit_test_nx_match_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_nx_match_LDADD = $(UNIT_TEST_LIBS)

# Unit suites: switch, port and table messages and the message printer
# (expected bytes and text are Open vSwitch 3.1's).
UNIT_TESTS += \
	tests/unit/test-ofp-switch \
	tests/unit/test-ofp-phy-port \
	tests/unit/test-ofp-table \
	tests/unit/test-ofp-queue \
	tests/unit/test-ofp-print
tests_unit_test_ofp_queue_SOURCES = \
	tests/unit/test-ofp-queue.c \
	tests/unit/check-ofp.c \
	tests/unit/check-ofp.h
tests_unit_test_ofp_queue_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_queue_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ofp_switch_SOURCES = \
	tests/unit/test-ofp-switch.c \
	tests/unit/check-ofp.c \
	tests/unit/check-ofp.h
tests_unit_test_ofp_switch_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_switch_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ofp_phy_port_SOURCES = \
	tests/unit/test-ofp-phy-port.c \
	tests/unit/check-ofp.c \
	tests/unit/check-ofp.h
tests_unit_test_ofp_phy_port_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_phy_port_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ofp_table_SOURCES = \
	tests/unit/test-ofp-table.c \
	tests/unit/check-ofp.c \
	tests/unit/check-ofp.h
tests_unit_test_ofp_table_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_table_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_ofp_print_SOURCES = \
	tests/unit/test-ofp-print.c \
	tests/unit/check-ofp.c \
	tests/unit/check-ofp.h \
	tests/unit/ofp-print-cases.inc
tests_unit_test_ofp_print_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ofp_print_LDADD = $(UNIT_TEST_LIBS)
EXTRA_DIST += \
	tests/unit/ofp-print-cases.hex \
	tests/unit/gen-ofp-print-cases.py

# Unit suites: the userspace datapath.
UNIT_TESTS += \
	tests/unit/test-conntrack \
	tests/unit/test-dpcls \
	tests/unit/test-dpif-channel \
	tests/unit/test-dpif-netdev \
	tests/unit/test-stats-writer
tests_unit_test_dpif_netdev_SOURCES = tests/unit/test-dpif-netdev.c
tests_unit_test_dpif_netdev_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_dpif_netdev_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_conntrack_SOURCES = tests/unit/test-conntrack.c
tests_unit_test_conntrack_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_conntrack_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_dpcls_SOURCES = tests/unit/test-dpcls.c
tests_unit_test_dpcls_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_dpcls_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_stats_writer_SOURCES = tests/unit/test-stats-writer.c \
	vswitchd/stats-writer.c vswitchd/stats-writer.h
tests_unit_test_stats_writer_CFLAGS = $(UNIT_TEST_FLAGS) -I$(srcdir)/vswitchd
tests_unit_test_stats_writer_LDADD = $(UNIT_TEST_LIBS)
tests_unit_test_dpif_channel_SOURCES = tests/unit/test-dpif-channel.c
tests_unit_test_dpif_channel_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_dpif_channel_LDADD = $(UNIT_TEST_LIBS)

check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)

# Helper programs the autotest suite runs (check_PROGRAMS += ...).
check_PROGRAMS += tests/test-pcap
tests_test_pcap_SOURCES = tests/test-pcap.c
tests_test_pcap_LDADD = $(OVS_LIBS)
# The datapath flow and action syntax from the command line
# (tests/datapath-parse.at).
check_PROGRAMS += tests/test-odp
tests_test_odp_SOURCES = tests/test-odp.c
tests_test_odp_LDADD = $(OVS_LIBS)

# Autotest suite.
TESTSUITE_AT = \
	tests/testsuite.at \
	tests/ovs-macros.at \
	tests/daemon.at \
	tests/jsonrpc.at \
	tests/ovsdb-macros.at \
	tests/ovsdb-tool.at \
	tests/ovsdb-execution.at \
	tests/ovsdb-server.at \
	tests/ovsdb-monitor.at \
	tests/ovsdb-idl-py.at \
	tests/ovsdb-idl.at \
	tests/ovsdb-client.at \
	tests/ovsdb-server-main.at \
	tests/ovsdb-replication.at \
	tests/ovsdb-relay.at \
	tests/ovsdb-cluster.at \
	tests/ovsdb-rbac.at \
	tests/ovsdb-replay.at \
	tests/ovs-vsctl.at \
	tests/stream-ssl.at \
	tests/vswitchd.at \
	tests/switching.at \
	tests/patch-ports.at \
	tests/cfm.at \
	tests/bonds.at \
	tests/stp-switch.at \
	tests/stp-sim.at \
	tests/tunnel-ports.at \
	tests/switching-system.at \
	tests/datapath.at \
	tests/datapath-parse.at \
	tests/conntrack-dp.at \
	tests/conntrack.at \
	tests/conntrack-system.at \
	tests/native-tnl.at \
	tests/tunnel-system.at \
	tests/bond-system.at \
	tests/stp-system.at \
	tests/bench.at \
	tests/interop-osken.at
# ovs-ofctl against Open vSwitch 3.1's (utilities/ofctl.h).
TESTSUITE_AT += tests/ofctl-macros.at tests/ofctl-target.at tests/ofctl-flows.at \
	tests/ofctl-switch.at tests/ofctl-monitor.at tests/ofctl-bundle.at
TESTSUITE_AT += tests/ofproto-ofctl.at tests/ofproto-semantics.at tests/ofproto-learn.at \
	tests/ofproto-groups.at tests/ofproto-bundle.at tests/ofctl-flowmon.at tests/bfd.at
EXTRA_DIST += tests/ofp-raw.py tests/ofp-counting-controller.py tests/tcp-segment.py tests/udp-echo.py tests/ip-frag.py \
	tests/ofp-scripted-controller.py
TESTSUITE = $(srcdir)/tests/testsuite
AUTOM4TE = autom4te
AUTOTEST = $(AUTOM4TE) -l autotest
EXTRA_DIST += $(TESTSUITE_AT) $(TESTSUITE) tests/atlocal.in tests/package.m4 \
	tests/osken-run.py
DISTCLEANFILES += tests/atlocal

$(srcdir)/tests/package.m4: $(top_srcdir)/configure.ac
	$(AM_V_GEN){ \
	  echo '# Signature of the current package.'; \
	  echo 'm4_define([AT_PACKAGE_NAME],      [$(PACKAGE_NAME)])'; \
	  echo 'm4_define([AT_PACKAGE_TARNAME],   [$(PACKAGE_TARNAME)])'; \
	  echo 'm4_define([AT_PACKAGE_VERSION],   [$(PACKAGE_VERSION)])'; \
	  echo 'm4_define([AT_PACKAGE_STRING],    [$(PACKAGE_STRING)])'; \
	  echo 'm4_define([AT_PACKAGE_BUGREPORT], [$(PACKAGE_BUGREPORT)])'; \
	} > $@.tmp && mv $@.tmp $@

$(TESTSUITE): $(TESTSUITE_AT) $(srcdir)/tests/package.m4
	$(AM_V_GEN)$(AUTOTEST) -I '$(srcdir)' -I '$(srcdir)/tests' -o $@.tmp $@.at && mv $@.tmp $@

AUTOTEST_PATH = $(abs_builddir)/utilities:$(abs_builddir)/vswitchd:$(abs_builddir)/tests:$(abs_builddir)/ovsdb

# Runs after the Check suites in "make check".
check-local: tests/atlocal $(TESTSUITE) $(check_PROGRAMS) $(bin_PROGRAMS) $(sbin_PROGRAMS)
	$(SHELL) '$(TESTSUITE)' -C tests AUTOTEST_PATH='$(AUTOTEST_PATH)' $(TESTSUITEFLAGS)

clean-local:
	test ! -f '$(TESTSUITE)' || $(SHELL) '$(TESTSUITE)' -C tests --clean

# The unit suites under valgrind: any leak or invalid access fails.
check-valgrind: $(UNIT_TESTS)
	@set -e; for t in $(UNIT_TESTS); do \
	  echo "valgrind $$t"; \
	  CK_FORK=no $(VALGRIND) --quiet --leak-check=full --show-leak-kinds=definite,indirect,possible \
	    --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=1 ./$$t >/dev/null; \
	done; echo "valgrind: no errors in $(words $(UNIT_TESTS)) unit suites"
.PHONY: check-valgrind

# The threaded suites under ThreadSanitizer: any data race fails.
check-tsan: $(TSAN_TESTS)
	@set -e; if test "$(enable_tsan)" != yes; then \
	  echo "check-tsan: configure with --enable-tsan first" >&2; exit 1; fi; \
	for t in $(TSAN_TESTS); do \
	  echo "tsan $$t"; \
	  CK_FORK=no TSAN_OPTIONS="halt_on_error=1 exitcode=66" ./$$t >/dev/null; \
	done; echo "tsan: no data races in $(words $(TSAN_TESTS)) suites"
.PHONY: check-tsan

# IDL tests: the C IDL over code generated from tests/idltest.ovsschema
# (test-ovsdb-idl, driven by tests/ovsdb-idl.at), the generated Open_vSwitch
# IDL (test-ovsdb-idl-vswitch), and a Check suite of the IDL's local side.
IDLTEST_IDL_FILES = tests/idltest-idl.c tests/idltest-idl.h
EXTRA_DIST += tests/idltest.ovsschema
CLEANFILES += $(IDLTEST_IDL_FILES)
tests/idltest-idl.h: $(srcdir)/tests/idltest.ovsschema $(srcdir)/ovsdb/ovsdb-idlc
	$(AM_V_GEN)$(MKDIR_P) tests && \
	$(OVSDB_IDLC) --prefix=idltest_ --header=idltest-idl.h \
	  c-idl-header $(srcdir)/tests/idltest.ovsschema > $@.tmp && \
	mv $@.tmp $@
tests/idltest-idl.c: $(srcdir)/tests/idltest.ovsschema $(srcdir)/ovsdb/ovsdb-idlc
	$(AM_V_GEN)$(MKDIR_P) tests && \
	$(OVSDB_IDLC) --prefix=idltest_ --header=idltest-idl.h \
	  c-idl-source $(srcdir)/tests/idltest.ovsschema > $@.tmp && \
	mv $@.tmp $@
check_PROGRAMS += tests/test-ovsdb-idl tests/test-ovsdb-idl-vswitch
tests_test_ovsdb_idl_SOURCES = tests/test-ovsdb-idl.c
nodist_tests_test_ovsdb_idl_SOURCES = $(IDLTEST_IDL_FILES)
tests_test_ovsdb_idl_LDADD = $(OVS_LIBS)
$(tests_test_ovsdb_idl_OBJECTS): tests/idltest-idl.h
tests_test_ovsdb_idl_vswitch_SOURCES = tests/test-ovsdb-idl-vswitch.c
tests_test_ovsdb_idl_vswitch_LDADD = $(OVSREC_LIBS)
$(tests_test_ovsdb_idl_vswitch_OBJECTS): vswitchd/vswitch-idl.h
UNIT_TESTS += tests/unit/test-ovsdb-idl
tests_unit_test_ovsdb_idl_SOURCES = tests/unit/test-ovsdb-idl.c
nodist_tests_unit_test_ovsdb_idl_SOURCES = $(IDLTEST_IDL_FILES)
tests_unit_test_ovsdb_idl_CFLAGS = $(UNIT_TEST_FLAGS)
tests_unit_test_ovsdb_idl_LDADD = $(UNIT_TEST_LIBS)
$(tests_unit_test_ovsdb_idl_OBJECTS): tests/idltest-idl.h

# ovstest: the drivers Open vSwitch's own suite runs as "ovstest COMMAND"
# (tests/ovstest.h); built with the programs so tests/ovs-suite.sh finds it.
noinst_PROGRAMS += tests/ovstest
tests_ovstest_SOURCES = tests/ovstest.c tests/ovstest.h \
	tests/sim-lexer.c tests/sim-lexer.h \
	tests/test-stp.c \
	tests/test-rstp.c
tests_ovstest_LDADD = $(OVS_LIBS)
