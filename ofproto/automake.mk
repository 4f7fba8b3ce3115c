# ofproto: the OpenFlow switch over the datapath (tables, translation,
# NORMAL and MAC learning, upcall handlers and revalidators, unixctl).
noinst_LIBRARIES += ofproto/libofproto.a
ofproto_libofproto_a_SOURCES = \
	ofproto/connmgr.c \
	ofproto/connmgr.h \
	ofproto/bond.c \
	ofproto/bond.h \
	ofproto/bond-rules.c \
	ofproto/bond-rules.h \
	ofproto/lacp-member.c \
	ofproto/lacp-member.h \
	ofproto/rstp-member.c \
	ofproto/rstp-member.h \
	ofproto/stp-member.c \
	ofproto/stp-member.h \
	ofproto/tree-member.c \
	ofproto/tree-member.h \
	ofproto/mac-learning.c \
	ofproto/mac-learning.h \
	ofproto/monitor.c \
	ofproto/monitor.h \
	ofproto/ofport-numbers.c \
	ofproto/ofport-numbers.h \
	ofproto/ofport-patch.c \
	ofproto/ofport-patch.h \
	ofproto/ofconn.c \
	ofproto/ofmonitor.c \
	ofproto/ofmonitor.h \
	ofproto/ofconn.h \
	ofproto/ofconn-bundle.c \
	ofproto/ofconn-bundle.h \
	ofproto/ofconn-table-features.c \
	ofproto/ofconn-table-features.h \
	ofproto/ofproto.c \
	ofproto/ofproto.h \
	ofproto/ofproto-eviction.c \
	ofproto/ofproto-learn.c \
	ofproto/ofproto-groups.c \
	ofproto/ofproto-meters.c \
	ofproto/ofproto-private.h \
	ofproto/ofproto-rules.c \
	ofproto/ofproto-table-config.c \
	ofproto/ofproto-tlv.c \
	ofproto/pinsched.c \
	ofproto/pinsched.h \
	ofproto/recirc.c \
	ofproto/recirc.h \
	ofproto/ofproto-unixctl.c \
	ofproto/upcall.c \
	ofproto/upcall.h \
	ofproto/tunnel.c \
	ofproto/tunnel.h \
	ofproto/xlate.c \
	ofproto/xlate.h \
	ofproto/xlate-commit.c \
	ofproto/xlate-commit.h \
	ofproto/ct-zones.c \
	ofproto/ct-zones.h \
	ofproto/xlate-ct.c \
	ofproto/xlate-ct.h \
	ofproto/xlate-mpls.c \
	ofproto/xlate-mpls.h \
	ofproto/xlate-trace.c \
	ofproto/xlate-trace.h
OFPROTO_LIBS = ofproto/libofproto.a $(OVS_LIBS)
