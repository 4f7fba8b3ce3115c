# ovs-appctl and, later, the other command-line tools.
bin_PROGRAMS += utilities/ovs-appctl
utilities_ovs_appctl_SOURCES = utilities/ovs-appctl.c
utilities_ovs_appctl_LDADD = $(OVS_LIBS)

# ovs-vsctl.
bin_PROGRAMS += utilities/ovs-vsctl
utilities_ovs_vsctl_SOURCES = \
	utilities/ovs-vsctl.c \
	utilities/vsctl.h \
	utilities/vsctl-parse.c \
	utilities/vsctl-db.c \
	utilities/vsctl-bridge.c \
	utilities/vsctl-misc.c \
	utilities/vsctl-dp.c
utilities_ovs_vsctl_LDADD = $(OVSREC_LIBS)
$(utilities_ovs_vsctl_OBJECTS): vswitchd/vswitch-idl.h

# ovs-dpctl: a thin client of the dpctl/* commands of the daemon holding
# the datapaths.
bin_PROGRAMS += utilities/ovs-dpctl
utilities_ovs_dpctl_SOURCES = utilities/ovs-dpctl.c
utilities_ovs_dpctl_LDADD = $(OVS_LIBS)

# ovs-ofctl: OpenFlow switch management (see utilities/ofctl.h).
bin_PROGRAMS += utilities/ovs-ofctl
utilities_ovs_ofctl_SOURCES = \
	utilities/ovs-ofctl.c \
	utilities/ofctl.h \
	utilities/ofctl-target.c \
	utilities/ofctl-print.c \
	utilities/ofctl-codec.c \
	utilities/ofctl-tlv.c \
	utilities/ofctl-flows.c \
	utilities/ofctl-ct.c \
	utilities/ofctl-dump.c \
	utilities/ofctl-replace.c \
	utilities/ofctl-names.c \
	utilities/ofctl-switch.c \
	utilities/ofctl-groups.c \
	utilities/ofctl-bundle.c \
	utilities/ofctl-packet.c \
	utilities/ofctl-pcap.c \
	utilities/ofctl-echo.c \
	utilities/ofctl-monitor.c
utilities_ovs_ofctl_LDADD = $(OVS_LIBS)
