# ovs-vswitchd.
sbin_PROGRAMS += vswitchd/ovs-vswitchd
vswitchd_ovs_vswitchd_SOURCES = vswitchd/ovs-vswitchd.c
vswitchd_ovs_vswitchd_LDADD = $(OVS_LIBS)
