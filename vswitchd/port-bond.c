#include <config.h>
#include "port-bond.h"

#include <string.h>
#include "bond.h"
#include "lacp.h"
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
    s->use_lb_output = smap_get_bool(oc, "lb-output-action", false);
    s->primary = smap_get(oc, "bond-primary");
    if (row->bond_active_slave
        && !eth_addr_from_string(row->bond_active_slave,
                                 &s->active_member_mac)) {
        VLOG_WARN_RL(&rl, "port %s: bond_active_slave %s is not an Ethernet "
                     "address", row->name, row->bond_active_slave);
    }
}

/* KEY in SMAP as an integer in MIN..MAX, else DEF. */
static int
smap_get_ranged(const struct smap *smap, const char *key, int min, int max,
                int def)
{
    int v = smap_get_int(smap, key, def);
    return v >= min && v <= max ? v : def;
}

bool
port_lacp_settings(const struct ovsrec_port *row, struct eth_addr bridge_mac,
                   size_t n_members, struct lacp_settings *s)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    const struct smap *oc = &row->other_config;

    if (!row->lacp || !strcmp(row->lacp, "off")) {
        return false;
    }
    memset(s, 0, sizeof *s);
    s->name = row->name;
    if (!strcmp(row->lacp, "active")) {
        s->active = true;
    } else if (strcmp(row->lacp, "passive")) {
        VLOG_WARN_RL(&rl, "port %s: unknown LACP mode %s", row->name,
                     row->lacp);
        return false;
    }
    s->id = bridge_mac;
    const char *id = smap_get(oc, "lacp-system-id");
    if (id && (!eth_addr_from_string(id, &s->id) || eth_addr_is_zero(s->id))) {
        VLOG_WARN_RL(&rl, "port %s: lacp-system-id %s is not a valid "
                     "Ethernet address", row->name, id);
        s->id = bridge_mac;
    }
    /* A bond's default is one better than a single link's, as in 3.1, so
     * that a partner prefers it. */
    s->priority = smap_get_ranged(oc, "lacp-system-priority", 1, UINT16_MAX,
                                  UINT16_MAX - (n_members > 1));
    const char *time = smap_get(oc, "lacp-time");
    s->fast = time && !strcmp(time, "fast");
    s->fallback_ab = smap_get_bool(oc, "lacp-fallback-ab", false);
    return true;
}

void
port_lacp_member_settings(const struct ovsrec_interface *row,
                          uint16_t ofport, struct eth_addr mac,
                          struct lacp_member_settings *s)
{
    const struct smap *oc = &row->other_config;
    memset(s, 0, sizeof *s);
    s->name = row->name;
    s->id = smap_get_ranged(oc, "lacp-port-id", 1, UINT16_MAX, ofport);
    s->priority = smap_get_ranged(oc, "lacp-port-priority", 1, UINT16_MAX,
                                  UINT16_MAX);
    s->key = smap_get_ranged(oc, "lacp-aggregation-key", 0, UINT16_MAX, 0);
    s->mac = mac;
}

long long int
port_bond_miimon_interval(const struct ovsrec_port *row)
{
    const char *mode = smap_get(&row->other_config, "bond-detect-mode");
    if (!mode || !strcmp(mode, "carrier")) {
        return 0;
    }
    if (strcmp(mode, "miimon")) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
        VLOG_WARN_RL(&rl, "port %s: unsupported bond-detect-mode %s, "
                     "defaulting to carrier", row->name, mode);
        return 0;
    }
    int interval = smap_get_int(&row->other_config, "bond-miimon-interval",
                                0);
    return interval > 0 ? interval : 200;
}
