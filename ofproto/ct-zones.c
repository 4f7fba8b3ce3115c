/* ct-zones: see ct-zones.h. */
#include <config.h>
#include "ct-zones.h"

#include <stdlib.h>
#include <string.h>
#include "dpif.h"
#include "hash.h"
#include "hmap.h"
#include "shash.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ct_zones);

struct zone_node {
    struct hmap_node node;      /* In zones_of_type's 'zones', by zone. */
    struct ct_zone_policy policy;
    char *name;                 /* The datapath's name for it, or NULL if
                                 * no datapath of the type has it yet. */
};

/* The policies of one datapath type. */
struct zones_of_type {
    struct hmap zones;
};

static struct shash types = SHASH_INITIALIZER(&types);

static uint32_t
policy_id(uint16_t zone)
{
    return (uint32_t) zone + 1;
}

static struct zone_node *
zone_find(const struct zones_of_type *t, uint16_t zone)
{
    struct zone_node *z;
    HMAP_FOR_EACH_WITH_HASH (z, node, hash_int(zone, 0), &t->zones) {
        if (z->policy.zone == zone) {
            return z;
        }
    }
    return NULL;
}

/* Sets Z's policy in DPIF and records its name. */
static void
zone_apply(struct zone_node *z, struct dpif *dpif)
{
    free(z->name);
    z->name = NULL;
    int error = dpif_ct_set_timeout_policy(dpif, policy_id(z->policy.zone),
                                           z->policy.seconds);
    if (error) {
        VLOG_WARN("%s: timeout policy of ct zone %"PRIu16" not set (%s)",
                  dpif_name(dpif), z->policy.zone, ovs_strerror(error));
        return;
    }
    z->name = dpif_ct_timeout_policy_name(dpif, policy_id(z->policy.zone));
}

static void
zone_destroy(struct zone_node *z)
{
    free(z->name);
    free(z);
}

void
ct_zones_set(const char *dp_type, struct dpif *dpif,
             const struct ct_zone_policy *zones, size_t n)
{
    struct zones_of_type *t = shash_find_data(&types, dp_type);
    if (!t) {
        t = xzalloc(sizeof *t);
        hmap_init(&t->zones);
        shash_add(&types, dp_type, t);
    }
    /* A zone that keeps the same timeouts is left alone; one whose
     * timeouts change gets them set again (its connections take them as
     * they are next seen). */
    struct hmap kept = HMAP_INITIALIZER(&kept);
    for (size_t i = 0; i < n; i++) {
        struct zone_node *z = zone_find(t, zones[i].zone);
        if (z) {
            hmap_remove(&t->zones, &z->node);
        } else {
            z = xzalloc(sizeof *z);
        }
        if (!z->name || memcmp(&z->policy, &zones[i], sizeof z->policy)) {
            z->policy = zones[i];
            if (dpif) {
                zone_apply(z, dpif);
            }
        }
        hmap_insert(&kept, &z->node, hash_int(z->policy.zone, 0));
    }
    struct zone_node *z;
    HMAP_FOR_EACH_POP (z, node, &t->zones) {
        if (dpif) {
            dpif_ct_del_timeout_policy(dpif, policy_id(z->policy.zone));
        }
        zone_destroy(z);
    }
    hmap_swap(&kept, &t->zones);
    hmap_destroy(&kept);
    if (hmap_is_empty(&t->zones)) {
        shash_find_and_delete(&types, dp_type);
        hmap_destroy(&t->zones);
        free(t);
    }
}

void
ct_zones_dpif_created(const char *dp_type, struct dpif *dpif)
{
    struct zones_of_type *t = shash_find_data(&types, dp_type);
    if (t) {
        struct zone_node *z;
        HMAP_FOR_EACH (z, node, &t->zones) {
            zone_apply(z, dpif);
        }
    }
}

const char *
ct_zones_timeout_policy(const char *dp_type, uint16_t zone)
{
    const struct zones_of_type *t = shash_find_data(&types, dp_type);
    const struct zone_node *z = t ? zone_find(t, zone) : NULL;
    return z ? z->name : NULL;
}
