/* ct-zones: connection tracking timeout policies by zone.
 *
 * The database's Datapath table gives each datapath type a map from ct
 * zones to CT_Timeout_Policy rows.  The bridge hands the whole map of a
 * type to ct_zones_set() after each change; this module gives each zone
 * with a policy a datapath policy of its own (id zone + 1, so the same
 * zone always has the same id and nothing has to be counted), sets it in
 * the type's datapath when there is one (and again when one is created),
 * and removes those no zone uses any more.  Translation asks
 * ct_zones_timeout_policy() for the name a ct(commit) in a zone carries.
 *
 * Threads: the main thread sets (ct_zones_set(), ct_zones_dpif_created())
 * with xlate_rwlock held for writing (ofproto.c takes it); translation
 * reads (ct_zones_timeout_policy()) with it held for reading.
 *
 * Memory: the module copies what it is given; the returned name belongs to
 * the module and stays valid while the caller holds xlate_rwlock. */
#ifndef OFPROTO_CT_ZONES_H
#define OFPROTO_CT_ZONES_H 1

#include <stddef.h>
#include <stdint.h>
#include "conntrack.h"

struct dpif;

/* One zone's policy: its timeouts in seconds by enum ct_timeout (0: the
 * datapath's default). */
struct ct_zone_policy {
    uint16_t zone;
    uint32_t seconds[CT_TM_N];
};

/* Sets the policies of datapath type DP_TYPE to the N in ZONES (each zone
 * at most once); zones not among them go back to the defaults.  DPIF is
 * the type's datapath, or NULL if there is none yet. */
void ct_zones_set(const char *dp_type, struct dpif *dpif,
                  const struct ct_zone_policy *zones, size_t n);
/* Applies what ct_zones_set() holds for DP_TYPE to DPIF, the type's new
 * datapath. */
void ct_zones_dpif_created(const char *dp_type, struct dpif *dpif);
/* The timeout policy name of ZONE in DP_TYPE's datapath, or NULL if the
 * zone has none. */
const char *ct_zones_timeout_policy(const char *dp_type, uint16_t zone);

#endif /* ofproto/ct-zones.h */
