/* iface-cfm: the bridge's binding of CFM (lib/cfm.h) to Interface rows
 * (iface-protocol.h).
 *
 * An interface runs CFM while its cfm_mpid is set to an MPID valid in its
 * mode.  Its other_config keys, as 3.1 reads them: cfm_interval (ms,
 * default 1000), cfm_extended, cfm_demand, cfm_opstate ("up" or "down"),
 * cfm_ccm_vlan (1..4095 or "random"), cfm_ccm_pcp (1..7); a tunnel whose
 * key or in_key is "flow" accepts only CCMs with key 0.  Written back:
 * cfm_fault, cfm_fault_status, cfm_remote_mpids, cfm_remote_opstate
 * (extended mode only), cfm_health (while defined) and cfm_flap_count.
 *
 * Main thread only, like every binding. */
#include <config.h>
#include "iface-protocol.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cfm.h"
#include "netdev.h"
#include "port-protocol.h"
#include "smap.h"
#include "util.h"
#include "vlog.h"
#include "vswitchd/vswitch-idl.h"

VLOG_DEFINE_THIS_MODULE(iface_cfm);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

/* Parses an integer option VALUE within [MIN, MAX]; false if it is not
 * one. */
static bool
parse_int_in_range(const char *value, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long n = strtol(value, &end, 10);
    if (errno || end == value || *end || n < min || n > max) {
        return false;
    }
    *out = n;
    return true;
}

/* Reads CFG into S.  False if CFM cannot run with it (the MPID), which is
 * logged; other bad values are logged (if LOG_DEFAULTS, so that a row is
 * complained about once per change) and their default used. */
static bool
read_settings(const struct ovsrec_interface *cfg, struct cfm_settings *s,
              bool log_defaults)
{
    const struct smap *oc = &cfg->other_config;

    memset(s, 0, sizeof *s);
    if (!cfg->n_cfm_mpid) {
        return false;
    }
    s->extended = smap_get_bool(oc, "cfm_extended", false);
    int64_t mpid = *cfg->cfm_mpid;
    if (mpid < 0 || !cfm_mpid_is_valid(s->extended, mpid)) {
        VLOG_WARN_RL(&rl, "%s: CFM configuration failed: MPID %"PRId64" is "
                     "out of range (%s)", cfg->name, mpid,
                     (s->extended ? "at least 1"
                      : "1 to 8191, or more with cfm_extended"));
        return false;
    }
    s->mpid = mpid;

    s->interval = smap_get_int(oc, "cfm_interval", 0);
    if (s->interval <= 0) {
        s->interval = 1000;
    }
    s->demand = smap_get_bool(oc, "cfm_demand", false);

    const char *opstate = smap_get(oc, "cfm_opstate");
    /* 3.1 takes anything but "up" as down. */
    s->opup = !opstate || !strcasecmp(opstate, "up");
    if (log_defaults && opstate && !s->opup
        && strcasecmp(opstate, "down")) {
        VLOG_WARN_RL(&rl, "%s: cfm_opstate \"%s\" is neither up nor down, "
                     "taken as down", cfg->name, opstate);
    }

    const char *vlan = smap_get(oc, "cfm_ccm_vlan");
    long n;
    if (!vlan) {
        s->ccm_vlan = 0;
    } else if (!strcasecmp(vlan, "random")) {
        s->ccm_vlan = CFM_RANDOM_VLAN;
    } else if (parse_int_in_range(vlan, 1, 4095, &n)) {
        s->ccm_vlan = n;
    } else if (log_defaults) {
        VLOG_WARN_RL(&rl, "%s: cfm_ccm_vlan \"%s\" is not a VLAN ID (1 to "
                     "4095) or \"random\": CCMs go untagged", cfg->name,
                     vlan);
    }

    const char *pcp = smap_get(oc, "cfm_ccm_pcp");
    if (pcp) {
        if (parse_int_in_range(pcp, 0, 7, &n)) {
            s->ccm_pcp = n;
        } else if (log_defaults) {
            VLOG_WARN_RL(&rl, "%s: cfm_ccm_pcp \"%s\" is not a priority "
                         "(1 to 7): using 0", cfg->name, pcp);
        }
    }

    const char *key = smap_get(&cfg->options, "key");
    const char *in_key = smap_get(&cfg->options, "in_key");
    s->check_tnl_key = ((key && !strcmp(key, "flow"))
                        || (in_key && !strcmp(in_key, "flow")));
    return true;
}

static bool
cfm_wanted(const struct ovsrec_interface *cfg)
{
    struct cfm_settings s;
    return read_settings(cfg, &s, false);
}

static void
cfm_reconfigure(struct port_protocol *p, const struct ovsrec_interface *cfg)
{
    struct cfm_settings s;
    if (read_settings(cfg, &s, true) && !cfm_configure(cfm_from_protocol(p), &s)) {
        VLOG_WARN_RL(&rl, "%s: CFM configuration failed", cfg->name);
    }
}

static struct port_protocol *
cfm_iface_create(const struct ovsrec_interface *cfg, struct netdev *netdev,
                 void *owner)
{
    struct cfm *cfm = cfm_create(cfg->name, netdev, owner);
    cfm_reconfigure(cfm_protocol(cfm), cfg);
    return cfm_protocol(cfm);
}

static void
cfm_iface_destroy(struct port_protocol *p)
{
    cfm_destroy(cfm_from_protocol(p));
}

/* Status: each column is written only when it differs from the row. */

static bool
same_strings(char **a, size_t n_a, const char **b, size_t n_b)
{
    if (n_a != n_b) {
        return false;
    }
    for (size_t i = 0; i < n_b; i++) {
        size_t j;
        for (j = 0; j < n_a && strcmp(a[j], b[i]); j++) {
            continue;
        }
        if (j == n_a) {
            return false;
        }
    }
    return true;
}

static bool
same_integers(const int64_t *a, size_t n_a, const int64_t *b, size_t n_b)
{
    if (n_a != n_b) {
        return false;
    }
    for (size_t i = 0; i < n_b; i++) {
        size_t j;
        for (j = 0; j < n_a && a[j] != b[i]; j++) {
            continue;
        }
        if (j == n_a) {
            return false;
        }
    }
    return true;
}

static void
write_bool(const struct ovsrec_interface *cfg, const bool *value, size_t n)
{
    if (cfg->n_cfm_fault != n || (n && *cfg->cfm_fault != *value)) {
        ovsrec_interface_set_cfm_fault(cfg, value, n);
    }
}

static void
write_opstate(const struct ovsrec_interface *cfg, const char *value)
{
    const char *old = cfg->cfm_remote_opstate;
    bool same = old && value ? !strcmp(old, value) : old == value;
    if (!same) {
        ovsrec_interface_set_cfm_remote_opstate(cfg, value);
    }
}

static void
cfm_write_status(const struct port_protocol *p,
                 const struct ovsrec_interface *cfg)
{
    if (!p) {
        write_bool(cfg, NULL, 0);
        if (cfg->n_cfm_fault_status) {
            ovsrec_interface_set_cfm_fault_status(cfg, NULL, 0);
        }
        if (cfg->n_cfm_remote_mpids) {
            ovsrec_interface_set_cfm_remote_mpids(cfg, NULL, 0);
        }
        write_opstate(cfg, NULL);
        if (cfg->n_cfm_health) {
            ovsrec_interface_set_cfm_health(cfg, NULL, 0);
        }
        if (cfg->n_cfm_flap_count) {
            ovsrec_interface_set_cfm_flap_count(cfg, NULL, 0);
        }
        return;
    }

    struct cfm_status s;
    cfm_get_status(cfm_from_protocol(p), &s);

    bool faulted = s.faults != 0;
    write_bool(cfg, &faulted, 1);

    const char *reasons[CFM_FAULT_N_REASONS];
    size_t n = 0;
    for (int i = 0; i < CFM_FAULT_N_REASONS; i++) {
        if (s.faults & (1u << i)) {
            reasons[n++] = cfm_fault_reason_to_str(1u << i);
        }
    }
    if (!same_strings(cfg->cfm_fault_status, cfg->n_cfm_fault_status,
                      reasons, n)) {
        ovsrec_interface_set_cfm_fault_status(cfg, reasons, n);
    }

    /* MPIDs are 64-bit in extended mode; the column holds them as the
     * signed integers 3.1 writes. */
    int64_t *rmps = xmalloc((s.n_rmps ? s.n_rmps : 1) * sizeof *rmps);
    for (size_t i = 0; i < s.n_rmps; i++) {
        rmps[i] = (int64_t) s.rmps[i];
    }
    if (!same_integers(cfg->cfm_remote_mpids, cfg->n_cfm_remote_mpids,
                       rmps, s.n_rmps)) {
        ovsrec_interface_set_cfm_remote_mpids(cfg, rmps, s.n_rmps);
    }
    free(rmps);

    write_opstate(cfg, (s.remote_opstate < 0 ? NULL
                        : s.remote_opstate ? "up" : "down"));

    int64_t health = s.health;
    size_t n_health = s.health >= 0;
    if (!same_integers(cfg->cfm_health, cfg->n_cfm_health,
                       &health, n_health)) {
        ovsrec_interface_set_cfm_health(cfg, &health, n_health);
    }

    int64_t flaps = s.flap_count;
    if (!same_integers(cfg->cfm_flap_count, cfg->n_cfm_flap_count,
                       &flaps, 1)) {
        ovsrec_interface_set_cfm_flap_count(cfg, &flaps, 1);
    }
    free(s.rmps);
}

static const struct ovsdb_idl_column *const cfm_config_columns[] = {
    &ovsrec_interface_col_cfm_mpid,
    &ovsrec_interface_col_other_config,
    &ovsrec_interface_col_options,
    NULL,
};

static const struct ovsdb_idl_column *const cfm_status_columns[] = {
    &ovsrec_interface_col_cfm_fault,
    &ovsrec_interface_col_cfm_fault_status,
    &ovsrec_interface_col_cfm_remote_mpids,
    &ovsrec_interface_col_cfm_remote_opstate,
    &ovsrec_interface_col_cfm_health,
    &ovsrec_interface_col_cfm_flap_count,
    NULL,
};

const struct iface_protocol_ops cfm_iface_protocol = {
    .name = "cfm",
    .config_columns = cfm_config_columns,
    .status_columns = cfm_status_columns,
    .init = cfm_init,
    .wanted = cfm_wanted,
    .create = cfm_iface_create,
    .reconfigure = cfm_reconfigure,
    .destroy = cfm_iface_destroy,
    .write_status = cfm_write_status,
};
