# ovs-appctl and, later, the other command-line tools.
