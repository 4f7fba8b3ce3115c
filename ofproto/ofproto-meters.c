/* ofproto-meters: a bridge's OpenFlow meters: meter_mod, the meter
 * config, stats and features replies.  ofproto.h says the semantics,
 * ofproto-private.h the threading (main thread, except lookups by
 * translators with xlate_rwlock held).  The datapath does the metering
 * (dpif.h's "Meters"); this module keeps the OpenFlow view and the map
 * from OpenFlow meter ids to the datapath's. */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bitmap.h"
#include "coverage.h"
#include "dpif.h"
#include "hash.h"
#include "ofp-meter.h"
#include "ofp-msgs.h"
#include "ofproto-private.h"
#include "seq.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_USE_MODULE(ofproto);

COVERAGE_DEFINE(ofproto_meter_mod);

/* Datapath meter ids in use, in the whole process (main thread). */
static unsigned long *dp_meter_ids;

static bool
dp_meter_id_alloc(uint32_t *idp)
{
    if (!dp_meter_ids) {
        dp_meter_ids = bitmap_allocate(DPIF_METER_MAX);
    }
    for (uint32_t id = 0; id < DPIF_METER_MAX; id++) {
        if (!bitmap_is_set(dp_meter_ids, id)) {
            bitmap_set1(dp_meter_ids, id);
            *idp = id;
            return true;
        }
    }
    return false;
}

static void
dp_meter_id_free(uint32_t id)
{
    bitmap_set0(dp_meter_ids, id);
}

struct ofmeter *
ofproto_meter_lookup(const struct ofproto *ofproto, uint32_t meter_id)
{
    struct ofmeter *m;
    HMAP_FOR_EACH_WITH_HASH (m, hmap_node, hash_int(meter_id, 0),
                             &ofproto->meters) {
        if (m->meter_id == meter_id) {
            return m;
        }
    }
    return NULL;
}

static void
meter_set_config(struct ofmeter *m, const struct ofputil_meter_config *mc)
{
    free(m->bands);
    m->flags = mc->flags;
    m->n_bands = mc->n_bands;
    m->bands = xmemdup(mc->bands, MAX(mc->n_bands, 1) * sizeof *mc->bands);
}

/* Gives the datapath M's configuration (new counters, full buckets). */
static enum ofperr
meter_install(struct ofproto *ofproto, const struct ofmeter *m)
{
    struct dpif_meter_config dc = {
        .kbps = !(m->flags & OFPMF13_PKTPS),
        .n_bands = m->n_bands,
    };
    for (size_t i = 0; i < m->n_bands; i++) {
        dc.bands[i].rate = m->bands[i].rate;
        /* Without the burst flag a band's burst is its rate (one
         * second's worth), as in 3.1's userspace datapath. */
        dc.bands[i].burst_size = (m->flags & OFPMF13_BURST
                                  ? m->bands[i].burst_size : 0);
    }
    int error = dpif_meter_set(ofproto->backer->dpif, m->dp_meter_id, &dc);
    if (error) {
        VLOG_WARN("%s: meter %"PRIu32" refused by the datapath (%s)",
                  ofproto->name, m->meter_id, ovs_strerror(error));
        return OFPERR_OFPMMFC_UNKNOWN;
    }
    return 0;
}

static void
meter_free(struct ofproto *ofproto, struct ofmeter *m)
{
    dpif_meter_del(ofproto->backer->dpif, m->dp_meter_id, NULL);
    dp_meter_id_free(m->dp_meter_id);
    free(m->bands);
    free(m);
}

static enum ofperr
check_meter_config(const struct ofputil_meter_config *mc)
{
    uint32_t id = mc->meter_id;
    if (!id || (id > OFPM13_MAX && id != OFPM13_SLOWPATH
                && id != OFPM13_CONTROLLER)) {
        return OFPERR_OFPMMFC_INVALID_METER;
    }
    if (mc->n_bands > DPIF_METER_MAX_BANDS) {
        return OFPERR_OFPMMFC_OUT_OF_BANDS;
    }
    for (size_t i = 0; i < mc->n_bands; i++) {
        /* dscp_remark is not done by the userspace datapath (3.1 refuses
         * it the same way). */
        if (mc->bands[i].type != OFPMBT13_DROP) {
            return OFPERR_OFPMMFC_BAD_BAND;
        }
        if (!mc->bands[i].rate) {
            return OFPERR_OFPMMFC_BAD_RATE;
        }
    }
    return 0;
}

static enum ofperr
add_meter(struct ofproto *ofproto, const struct ofputil_meter_config *mc)
{
    if (ofproto_meter_lookup(ofproto, mc->meter_id)) {
        return OFPERR_OFPMMFC_METER_EXISTS;
    }
    struct ofmeter *m = xzalloc(sizeof *m);
    if (!dp_meter_id_alloc(&m->dp_meter_id)) {
        free(m);
        return OFPERR_OFPMMFC_OUT_OF_METERS;
    }
    m->meter_id = mc->meter_id;
    m->created = time_msec();
    meter_set_config(m, mc);
    enum ofperr error = meter_install(ofproto, m);
    if (error) {
        dp_meter_id_free(m->dp_meter_id);
        free(m->bands);
        free(m);
        return error;
    }
    ovs_rwlock_wrlock(&xlate_rwlock);
    hmap_insert(&ofproto->meters, &m->hmap_node, hash_int(m->meter_id, 0));
    ovs_rwlock_unlock(&xlate_rwlock);
    seq_change(ofproto->backer->reval_seq);
    return 0;
}

static enum ofperr
modify_meter(struct ofproto *ofproto, const struct ofputil_meter_config *mc)
{
    struct ofmeter *m = ofproto_meter_lookup(ofproto, mc->meter_id);
    if (!m) {
        return OFPERR_OFPMMFC_UNKNOWN_METER;
    }
    /* Translators read only the datapath id, which stays. */
    meter_set_config(m, mc);
    return meter_install(ofproto, m);
}

static void
delete_meter(struct ofproto *ofproto, struct ofmeter *m)
{
    ofproto_delete_meter_rules(ofproto, m->meter_id);
    ovs_rwlock_wrlock(&xlate_rwlock);
    hmap_remove(&ofproto->meters, &m->hmap_node);
    ovs_rwlock_unlock(&xlate_rwlock);
    meter_free(ofproto, m);
    seq_change(ofproto->backer->reval_seq);
}

enum ofperr
ofproto_meter_mod(struct ofproto *ofproto, const struct ofputil_meter_mod *mm)
{
    COVERAGE_INC(ofproto_meter_mod);
    const struct ofputil_meter_config *mc = &mm->meter;
    if (mm->command == OFPMC13_DELETE) {
        if (mc->meter_id == OFPM13_ALL) {
            struct ofmeter *m;
            HMAP_FOR_EACH_SAFE (m, hmap_node, &ofproto->meters) {
                delete_meter(ofproto, m);
            }
        } else {
            struct ofmeter *m = ofproto_meter_lookup(ofproto, mc->meter_id);
            if (m) {
                delete_meter(ofproto, m);
            }
        }
        return 0;
    }
    enum ofperr error = check_meter_config(mc);
    if (error) {
        return error;
    }
    switch (mm->command) {
    case OFPMC13_ADD:
        return add_meter(ofproto, mc);
    case OFPMC13_MODIFY:
        return modify_meter(ofproto, mc);
    default:
        return OFPERR_OFPMMFC_BAD_COMMAND;
    }
}

static int
compare_meter_ids(const void *a_, const void *b_)
{
    const struct ofmeter *const *a = a_, *const *b = b_;
    return ((*a)->meter_id < (*b)->meter_id ? -1
            : (*a)->meter_id > (*b)->meter_id);
}

/* The meters METER_ID selects, by meter id; NULL (and an error) for a
 * meter that is not there.  The caller frees the array. */
static struct ofmeter **
select_meters(const struct ofproto *ofproto, uint32_t meter_id, size_t *np,
              enum ofperr *errorp)
{
    size_t n = 0;
    struct ofmeter **meters;
    *errorp = 0;
    if (meter_id == OFPM13_ALL) {
        meters = xmalloc(MAX(hmap_count(&ofproto->meters), 1)
                         * sizeof *meters);
        struct ofmeter *m;
        HMAP_FOR_EACH (m, hmap_node, &ofproto->meters) {
            meters[n++] = m;
        }
        qsort(meters, n, sizeof *meters, compare_meter_ids);
    } else {
        struct ofmeter *m = ofproto_meter_lookup(ofproto, meter_id);
        if (!m) {
            *errorp = OFPERR_OFPMMFC_UNKNOWN_METER;
            *np = 0;
            return NULL;
        }
        meters = xmalloc(sizeof *meters);
        meters[n++] = m;
    }
    *np = n;
    return meters;
}

enum ofperr
ofproto_append_meter_configs(struct ofproto *ofproto, uint32_t meter_id,
                             struct ovs_list *replies)
{
    size_t n;
    enum ofperr error;
    struct ofmeter **meters = select_meters(ofproto, meter_id, &n, &error);
    for (size_t i = 0; i < n; i++) {
        const struct ofmeter *m = meters[i];
        struct ofputil_meter_config mc = {
            .meter_id = m->meter_id,
            .flags = m->flags,
            .n_bands = m->n_bands,
            .bands = m->bands,
        };
        ofputil_append_meter_config(replies, &mc);
    }
    free(meters);
    return error;
}

enum ofperr
ofproto_append_meter_stats(struct ofproto *ofproto, uint32_t meter_id,
                           struct ovs_list *replies)
{
    size_t n;
    enum ofperr error;
    struct ofmeter **meters = select_meters(ofproto, meter_id, &n, &error);
    long long int now = time_msec();
    for (size_t i = 0; i < n; i++) {
        const struct ofmeter *m = meters[i];
        struct dpif_meter_stats ds;
        dpif_meter_get(ofproto->backer->dpif, m->dp_meter_id, &ds);
        struct ofputil_meter_band_stats bs[DPIF_METER_MAX_BANDS];
        memset(bs, 0, sizeof bs);
        for (size_t j = 0; j < m->n_bands && j < DPIF_METER_MAX_BANDS; j++) {
            bs[j].packet_count = ds.band_packets[j];
            bs[j].byte_count = ds.band_bytes[j];
        }
        long long int age = MAX(now - m->created, 0);
        struct ofputil_meter_stats ms = {
            .meter_id = m->meter_id,
            .flow_count = ofproto_count_meter_rules(ofproto, m->meter_id),
            .packet_in_count = ds.packet_in_count,
            .byte_in_count = ds.byte_in_count,
            .duration_sec = age / 1000,
            .duration_nsec = (age % 1000) * 1000000,
            .n_bands = m->n_bands,
            .bands = bs,
        };
        ofputil_append_meter_stats(replies, &ms);
    }
    free(meters);
    return error;
}

void
ofproto_get_meter_features(struct ofputil_meter_features *mf)
{
    *mf = (struct ofputil_meter_features) {
        .max_meters = DPIF_METER_MAX,
        .band_types = 1u << OFPMBT13_DROP,
        .capabilities = (OFPMF13_KBPS | OFPMF13_PKTPS | OFPMF13_BURST
                         | OFPMF13_STATS),
        .max_bands = DPIF_METER_MAX_BANDS,
        .max_color = 0,
    };
}

void
ofproto_destroy_meters(struct ofproto *ofproto)
{
    struct ofmeter *m;
    ovs_rwlock_wrlock(&xlate_rwlock);
    HMAP_FOR_EACH_POP (m, hmap_node, &ofproto->meters) {
        meter_free(ofproto, m);
    }
    ovs_rwlock_unlock(&xlate_rwlock);
    hmap_destroy(&ofproto->meters);
}
