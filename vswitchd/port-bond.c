#include <config.h>
#include "port-bond.h"

#include <string.h>
#include "bond.h"
#include "smap.h"
#include "vlog.h"
#include "vswitchd/vswitch-idl.h"

VLOG_DEFINE_THIS_MODULE(port_bond);

void
port_bond_settings(const struct ovsrec_port *row, struct bond_settings *s)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    const struct smap *oc = &row->other_config;

    memset(s, 0, sizeof *s);
    s->mode = BM_AB;
    if (row->bond_mode && !bond_mode_from_string(row->bond_mode, &s->mode)) {
        VLOG_WARN_RL(&rl, "port %s: unknown bond_mode %s, defaulting to %s",
                     row->name, row->bond_mode, bond_mode_to_string(BM_AB));
    }
    s->basis = smap_get_int(oc, "bond-hash-basis", 0);
    s->rebalance_interval = smap_get_int(oc, "bond-rebalance-interval",
                                         10000);
    if (s->rebalance_interval < 0) {
        s->rebalance_interval = 10000;
    } else if (s->rebalance_interval && s->rebalance_interval < 1000) {
        s->rebalance_interval = 1000;
    }
    s->up_delay = row->bond_updelay > 0 ? row->bond_updelay : 0;
    s->down_delay = row->bond_downdelay > 0 ? row->bond_downdelay : 0;
    s->lacp_fallback_ab = smap_get_bool(oc, "lacp-fallback-ab", false);
    s->all_members_active = smap_get_bool(oc, "all-members-active", false);
    s->primary = smap_get(oc, "bond-primary");
    if (row->bond_active_slave
        && !eth_addr_from_string(row->bond_active_slave,
                                 &s->active_member_mac)) {
        VLOG_WARN_RL(&rl, "port %s: bond_active_slave %s is not an Ethernet "
                     "address", row->name, row->bond_active_slave);
    }
}
