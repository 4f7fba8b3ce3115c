# Fuzz targets.  With --enable-fuzz (clang), each target is a libFuzzer
# program: run it on a copy of its corpus, e.g.
#   tests/fuzz/fuzz-flow-extract -max_total_time=600 corpus-copy/
# (utilities/setup.sh fuzz does all of it).  In every build, a replay
# program runs the same function once over each file of the committed
# corpus, for the regression tests in tests/datapath-parse.at.
FUZZ_TARGETS = flow-extract odp-syntax ofp-decode tnl-pop lacp-pdu stp-bpdu rstp-bpdu ipf conntrack
EXTRA_DIST += tests/fuzz/corpus

if FUZZ
noinst_PROGRAMS += tests/fuzz/fuzz-flow-extract
tests_fuzz_fuzz_flow_extract_SOURCES = tests/fuzz/fuzz-flow-extract.c
tests_fuzz_fuzz_flow_extract_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_flow_extract_LDADD = $(OVS_LIBS)
noinst_PROGRAMS += tests/fuzz/fuzz-odp-syntax
tests_fuzz_fuzz_odp_syntax_SOURCES = tests/fuzz/fuzz-odp-syntax.c
tests_fuzz_fuzz_odp_syntax_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_odp_syntax_LDADD = $(OVS_LIBS)
noinst_PROGRAMS += tests/fuzz/fuzz-ofp-decode
tests_fuzz_fuzz_ofp_decode_SOURCES = tests/fuzz/fuzz-ofp-decode.c
tests_fuzz_fuzz_ofp_decode_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_ofp_decode_LDADD = $(OVS_LIBS)
noinst_PROGRAMS += tests/fuzz/fuzz-tnl-pop
tests_fuzz_fuzz_tnl_pop_SOURCES = tests/fuzz/fuzz-tnl-pop.c
tests_fuzz_fuzz_tnl_pop_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_tnl_pop_LDADD = $(OVS_LIBS)
noinst_PROGRAMS += tests/fuzz/fuzz-lacp-pdu
tests_fuzz_fuzz_lacp_pdu_SOURCES = tests/fuzz/fuzz-lacp-pdu.c
tests_fuzz_fuzz_lacp_pdu_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_lacp_pdu_LDADD = $(OVS_LIBS)
noinst_PROGRAMS += tests/fuzz/fuzz-stp-bpdu
tests_fuzz_fuzz_stp_bpdu_SOURCES = tests/fuzz/fuzz-stp-bpdu.c
tests_fuzz_fuzz_stp_bpdu_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_stp_bpdu_LDADD = $(OVS_LIBS)
noinst_PROGRAMS += tests/fuzz/fuzz-rstp-bpdu
tests_fuzz_fuzz_rstp_bpdu_SOURCES = tests/fuzz/fuzz-rstp-bpdu.c
tests_fuzz_fuzz_rstp_bpdu_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_rstp_bpdu_LDADD = $(OVS_LIBS)
noinst_PROGRAMS += tests/fuzz/fuzz-ipf
tests_fuzz_fuzz_ipf_SOURCES = tests/fuzz/fuzz-ipf.c
tests_fuzz_fuzz_ipf_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_ipf_LDADD = $(OVS_LIBS)
noinst_PROGRAMS += tests/fuzz/fuzz-conntrack
tests_fuzz_fuzz_conntrack_SOURCES = tests/fuzz/fuzz-conntrack.c
tests_fuzz_fuzz_conntrack_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_conntrack_LDADD = $(OVS_LIBS)
endif

check_PROGRAMS += tests/fuzz/replay-flow-extract
tests_fuzz_replay_flow_extract_SOURCES = \
	tests/fuzz/fuzz-flow-extract.c \
	tests/fuzz/replay-main.c
tests_fuzz_replay_flow_extract_CFLAGS = $(AM_CFLAGS)
tests_fuzz_replay_flow_extract_LDADD = $(OVS_LIBS)

check_PROGRAMS += tests/fuzz/replay-odp-syntax
tests_fuzz_replay_odp_syntax_SOURCES = \
	tests/fuzz/fuzz-odp-syntax.c \
	tests/fuzz/replay-main.c
tests_fuzz_replay_odp_syntax_CFLAGS = $(AM_CFLAGS)
tests_fuzz_replay_odp_syntax_LDADD = $(OVS_LIBS)

check_PROGRAMS += tests/fuzz/replay-ofp-decode
tests_fuzz_replay_ofp_decode_SOURCES = \
	tests/fuzz/fuzz-ofp-decode.c \
	tests/fuzz/replay-main.c
tests_fuzz_replay_ofp_decode_CFLAGS = $(AM_CFLAGS)
tests_fuzz_replay_ofp_decode_LDADD = $(OVS_LIBS)
check_PROGRAMS += tests/fuzz/replay-tnl-pop
tests_fuzz_replay_tnl_pop_SOURCES = \
	tests/fuzz/fuzz-tnl-pop.c \
	tests/fuzz/replay-main.c
tests_fuzz_replay_tnl_pop_CFLAGS = $(AM_CFLAGS)
tests_fuzz_replay_tnl_pop_LDADD = $(OVS_LIBS)
check_PROGRAMS += tests/fuzz/replay-lacp-pdu
tests_fuzz_replay_lacp_pdu_SOURCES = \
	tests/fuzz/fuzz-lacp-pdu.c \
	tests/fuzz/replay-main.c
tests_fuzz_replay_lacp_pdu_CFLAGS = $(AM_CFLAGS)
tests_fuzz_replay_lacp_pdu_LDADD = $(OVS_LIBS)
check_PROGRAMS += tests/fuzz/replay-stp-bpdu
tests_fuzz_replay_stp_bpdu_SOURCES = \
	tests/fuzz/fuzz-stp-bpdu.c \
	tests/fuzz/replay-main.c
tests_fuzz_replay_stp_bpdu_CFLAGS = $(AM_CFLAGS)
tests_fuzz_replay_stp_bpdu_LDADD = $(OVS_LIBS)
check_PROGRAMS += tests/fuzz/replay-rstp-bpdu
tests_fuzz_replay_rstp_bpdu_SOURCES = \
	tests/fuzz/fuzz-rstp-bpdu.c \
	tests/fuzz/replay-main.c
tests_fuzz_replay_rstp_bpdu_CFLAGS = $(AM_CFLAGS)
tests_fuzz_replay_rstp_bpdu_LDADD = $(OVS_LIBS)
check_PROGRAMS += tests/fuzz/replay-ipf
tests_fuzz_replay_ipf_SOURCES = \
	tests/fuzz/fuzz-ipf.c \
	tests/fuzz/replay-main.c
tests_fuzz_replay_ipf_CFLAGS = $(AM_CFLAGS)
tests_fuzz_replay_ipf_LDADD = $(OVS_LIBS)
check_PROGRAMS += tests/fuzz/replay-conntrack
tests_fuzz_replay_conntrack_SOURCES = \
	tests/fuzz/fuzz-conntrack.c \
	tests/fuzz/replay-main.c
tests_fuzz_replay_conntrack_CFLAGS = $(AM_CFLAGS)
tests_fuzz_replay_conntrack_LDADD = $(OVS_LIBS)

# The tnl-pop seeds: valid outer headers of every tunnel type, made with
# tnl_header_build() and tnl_header_push() (built on request only:
# make tests/fuzz/gen-tnl-pop-seeds; run it with the corpus directory).
EXTRA_PROGRAMS += tests/fuzz/gen-tnl-pop-seeds
tests_fuzz_gen_tnl_pop_seeds_SOURCES = tests/fuzz/gen-tnl-pop-seeds.c
tests_fuzz_gen_tnl_pop_seeds_LDADD = $(OVS_LIBS)

EXTRA_DIST += tests/fuzz/flow-extract.dict tests/fuzz/odp-syntax.dict \
	tests/fuzz/ofp-decode.dict tests/fuzz/tnl-pop.dict \
	tests/fuzz/lacp-pdu.dict \
	tests/fuzz/stp-bpdu.dict \
	tests/fuzz/rstp-bpdu.dict \
	tests/fuzz/ipf.dict \
	tests/fuzz/conntrack.dict tests/fuzz/gen-conntrack-seeds.py
