# ovs-appctl and, later, the other command-line tools.
bin_PROGRAMS += utilities/ovs-appctl
utilities_ovs_appctl_SOURCES = utilities/ovs-appctl.c
utilities_ovs_appctl_LDADD = $(OVS_LIBS)
