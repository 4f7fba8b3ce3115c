# ovs-vswitchd.
sbin_PROGRAMS += vswitchd/ovs-vswitchd
vswitchd_ovs_vswitchd_SOURCES = vswitchd/ovs-vswitchd.c
vswitchd_ovs_vswitchd_LDADD = $(OVS_LIBS)

# The Open_vSwitch database schema (the configuration ovs-vsctl writes and
# ovs-vswitchd reads).
pkgdata_DATA += vswitchd/vswitch.ovsschema
EXTRA_DIST += vswitchd/vswitch.ovsschema
