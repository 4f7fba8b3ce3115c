/* datapath-config: see datapath-config.h. */
#include <config.h>
#include "datapath-config.h"

#include <stdlib.h>
#include "conntrack.h"
#include "ct-zones.h"
#include "ofproto.h"
#include "ovsdb-idl.h"
#include "sset.h"
#include "util.h"
#include "vlog.h"
#include "vswitchd/vswitch-idl.h"

VLOG_DEFINE_THIS_MODULE(datapath_config);

/* The datapath types given policies last time, so that a type that loses
 * its Datapath row loses them too. */
static struct sset configured_types = SSET_INITIALIZER(&configured_types);

void
datapath_config_track(struct ovsdb_idl *idl)
{
    ovsdb_idl_track_add_column(idl, &ovsrec_open_vswitch_col_datapaths);
    ovsdb_idl_track_add_column(idl, &ovsrec_datapath_col_ct_zones);
    ovsdb_idl_track_add_column(idl, &ovsrec_ct_zone_col_timeout_policy);
    ovsdb_idl_track_add_column(idl, &ovsrec_ct_timeout_policy_col_timeouts);
}

static bool
datapath_config_changed(struct ovsdb_idl *idl,
                        const struct ovsrec_open_vswitch *ovs)
{
    return ((ovs && ovsrec_open_vswitch_is_updated(
                 ovs, OVSREC_OPEN_VSWITCH_COL_DATAPATHS))
            || ovsrec_datapath_track_get_first(idl)
            || ovsrec_ct_zone_track_get_first(idl)
            || ovsrec_ct_timeout_policy_track_get_first(idl));
}

/* ROW's timeouts into POLICY. */
static void
read_policy(const char *dp_type, uint16_t zone,
            const struct ovsrec_ct_timeout_policy *row,
            struct ct_zone_policy *policy)
{
    policy->zone = zone;
    for (size_t i = 0; i < row->n_timeouts; i++) {
        enum ct_timeout t;
        int64_t secs = row->value_timeouts[i];
        if (!ct_timeout_from_name(row->key_timeouts[i], &t)) {
            VLOG_WARN("%s: ct zone %"PRIu16": unknown timeout \"%s\" "
                      "ignored", dp_type, zone, row->key_timeouts[i]);
        } else if (secs < 0 || secs > UINT32_MAX) {
            VLOG_WARN("%s: ct zone %"PRIu16": timeout %s=%"PRId64" out of "
                      "range, ignored", dp_type, zone, row->key_timeouts[i],
                      secs);
        } else {
            policy->seconds[t] = secs;
        }
    }
}

void
datapath_config_run(struct ovsdb_idl *idl,
                    const struct ovsrec_open_vswitch *ovs, bool full)
{
    if (!full && !datapath_config_changed(idl, ovs)) {
        return;
    }
    struct sset types = SSET_INITIALIZER(&types);
    for (size_t i = 0; ovs && i < ovs->n_datapaths; i++) {
        const char *type = ovs->key_datapaths[i];
        const struct ovsrec_datapath *dp = ovs->value_datapaths[i];
        struct ct_zone_policy *zones = xcalloc(dp->n_ct_zones + 1,
                                               sizeof *zones);
        size_t n = 0;
        for (size_t j = 0; j < dp->n_ct_zones; j++) {
            int64_t zone = dp->key_ct_zones[j];
            const struct ovsrec_ct_zone *z = dp->value_ct_zones[j];
            if (zone < 0 || zone > UINT16_MAX) {
                VLOG_WARN("%s: ct zone %"PRId64" out of range, ignored",
                          type, zone);
            } else if (z->timeout_policy) {
                read_policy(type, zone, z->timeout_policy, &zones[n++]);
            }
        }
        ofproto_set_ct_zone_policies(type, zones, n);
        free(zones);
        sset_add(&types, type);
    }
    const char *type;
    SSET_FOR_EACH (type, &configured_types) {
        if (!sset_contains(&types, type)) {
            ofproto_set_ct_zone_policies(type, NULL, 0);
        }
    }
    sset_swap(&types, &configured_types);
    sset_destroy(&types);
}
