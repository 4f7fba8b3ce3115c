# Benchmarks: each prints figures; none decides pass or fail.

noinst_PROGRAMS += bench/seq-latency
bench_seq_latency_SOURCES = bench/seq-latency.c
bench_seq_latency_LDADD = $(OVS_LIBS)

# OVSDB: load generator for bench/ovsdb.sh (ours against Open vSwitch's).
noinst_PROGRAMS += bench/ovsdb-load
bench_ovsdb_load_SOURCES = bench/ovsdb-load.c
bench_ovsdb_load_LDADD = $(OVS_LIBS)
EXTRA_DIST += bench/ovsdb.sh bench/ovsdb-bench.ovsschema bench/vsctl.sh

# The datapath: upcall channels (bench/upcall-bench), forwarding and
# descriptors (bench/datapath.sh, which also runs upcall-bench), and the
# UDP generator it runs inside a network namespace.
noinst_PROGRAMS += bench/upcall-bench bench/udp-blast
bench_upcall_bench_SOURCES = bench/upcall-bench.c
bench_upcall_bench_LDADD = $(OVS_LIBS)
bench_udp_blast_SOURCES = bench/udp-blast.c
bench_udp_blast_LDADD = $(OVS_LIBS)
EXTRA_DIST += bench/datapath.sh

# Switching: ours against Open vSwitch 3.1 (forwarding, flow setup,
# fairness, idle cost), with a generator of frames that are each a new flow.
noinst_PROGRAMS += bench/eth-blast
bench_eth_blast_SOURCES = bench/eth-blast.c
bench_eth_blast_LDADD = $(OVS_LIBS)
EXTRA_DIST += bench/switching.sh bench/tunnels.sh

# Classifier: ClassBench replay (bench/classbench.sh runs it, and builds
# the same harness against Open vSwitch's classifier for comparison).
noinst_PROGRAMS += bench/classbench
bench_classbench_SOURCES = \
	bench/classbench.c \
	bench/classbench-harness.c \
	bench/classbench-harness.h
bench_classbench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bench
bench_classbench_LDADD = bench/libclassbench.a $(OVS_LIBS)
# The loader and the flow mapping, shared with the unit suites.
noinst_LIBRARIES += bench/libclassbench.a
bench_libclassbench_a_SOURCES = \
	bench/classbench-flow.c \
	bench/classbench-flow.h \
	bench/classbench-load.c \
	bench/classbench-load.h
bench_libclassbench_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bench
EXTRA_DIST += bench/classbench.sh bench/classbench-ovs.c

# OpenFlow: flow_mods, dump-flows and packet-ins, ours against Open vSwitch
# 3.1 (bench/ofctl.sh), with a controller that only counts packet-ins.
noinst_PROGRAMS += bench/ofp-sink
bench_ofp_sink_SOURCES = bench/ofp-sink.c
bench_ofp_sink_LDADD = $(OVS_LIBS)
EXTRA_DIST += bench/ofctl.sh bench/switch-lib.sh

# Connection tracking: ours against Open vSwitch 3.1 (bench/conntrack.sh:
# connection setup through a ct() firewall and DNAT, established pps,
# memory per connection), with a TCP connect/request/response/close load.
noinst_PROGRAMS += bench/tcp-crr
bench_tcp_crr_SOURCES = bench/tcp-crr.c
bench_tcp_crr_LDADD = $(OVS_LIBS)
EXTRA_DIST += bench/conntrack.sh
