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
