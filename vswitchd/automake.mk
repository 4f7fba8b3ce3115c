# ovs-vswitchd.
