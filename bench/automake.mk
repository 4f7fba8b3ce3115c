# Benchmarks: each prints figures; none decides pass or fail.

noinst_PROGRAMS += bench/seq-latency
bench_seq_latency_SOURCES = bench/seq-latency.c
bench_seq_latency_LDADD = $(OVS_LIBS)
