# Benchmarks: each prints figures; none decides pass or fail.

noinst_PROGRAMS += bench/seq-latency
bench_seq_latency_SOURCES = bench/seq-latency.c
bench_seq_latency_LDADD = $(OVS_LIBS)

# OVSDB: load generator for bench/ovsdb.sh (ours against Open vSwitch's).
noinst_PROGRAMS += bench/ovsdb-load
bench_ovsdb_load_SOURCES = bench/ovsdb-load.c
bench_ovsdb_load_LDADD = $(OVS_LIBS)
EXTRA_DIST += bench/ovsdb.sh bench/ovsdb-bench.ovsschema bench/vsctl.sh
