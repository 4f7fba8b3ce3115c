# ovs-vswitchd.
sbin_PROGRAMS += vswitchd/ovs-vswitchd
vswitchd_ovs_vswitchd_SOURCES = \
	vswitchd/bridge.c \
	vswitchd/bridge.h \
	vswitchd/iface-bfd.c \
	vswitchd/iface-cfm.c \
	vswitchd/datapath-config.c \
	vswitchd/datapath-config.h \
	vswitchd/iface-protocol.c \
	vswitchd/iface-protocol.h \
	vswitchd/ovs-vswitchd.c \
	vswitchd/port-bond.c \
	vswitchd/port-bond.h \
	vswitchd/stats-writer.c \
	vswitchd/stats-writer.h
vswitchd_ovs_vswitchd_LDADD = ofproto/libofproto.a $(OVSREC_LIBS)
$(vswitchd_ovs_vswitchd_OBJECTS): vswitchd/vswitch-idl.h

# The Open_vSwitch database schema (the configuration ovs-vsctl writes and
# ovs-vswitchd reads).
pkgdata_DATA += vswitchd/vswitch.ovsschema
EXTRA_DIST += vswitchd/vswitch.ovsschema

# Open_vSwitch IDL (generated)
# ovsdb/ovsdb-idlc turns the schema into typed C accessors (struct
# ovsrec_bridge ...), generated into the build directory and compiled into
# lib/libovsrec.a.  Programs include "vswitchd/vswitch-idl.h" and link
# $(OVSREC_LIBS).
OVSDB_IDLC = $(PYTHON3) $(top_srcdir)/ovsdb/ovsdb-idlc
OVSREC_LIBS = lib/libovsrec.a $(OVS_LIBS)
EXTRA_DIST += ovsdb/ovsdb-idlc
noinst_LIBRARIES += lib/libovsrec.a
lib_libovsrec_a_SOURCES =
nodist_lib_libovsrec_a_SOURCES = \
	vswitchd/vswitch-idl.c \
	vswitchd/vswitch-idl.h
CLEANFILES += vswitchd/vswitch-idl.c vswitchd/vswitch-idl.h
$(lib_libovsrec_a_OBJECTS): vswitchd/vswitch-idl.h
vswitchd/vswitch-idl.h: $(srcdir)/vswitchd/vswitch.ovsschema $(srcdir)/ovsdb/ovsdb-idlc
	$(AM_V_GEN)$(MKDIR_P) vswitchd && \
	$(OVSDB_IDLC) --prefix=ovsrec_ --header=vswitch-idl.h \
	  c-idl-header $(srcdir)/vswitchd/vswitch.ovsschema > $@.tmp && \
	mv $@.tmp $@
vswitchd/vswitch-idl.c: $(srcdir)/vswitchd/vswitch.ovsschema $(srcdir)/ovsdb/ovsdb-idlc
	$(AM_V_GEN)$(MKDIR_P) vswitchd && \
	$(OVSDB_IDLC) --prefix=ovsrec_ --header=vswitch-idl.h \
	  c-idl-source $(srcdir)/vswitchd/vswitch.ovsschema > $@.tmp && \
	mv $@.tmp $@
