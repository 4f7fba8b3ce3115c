/* ofp-requestforward: see ofp-requestforward.h. */
#include <config.h>
#include "ofp-requestforward.h"

#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-msgs.h"
#include "ofpbuf.h"
#include "util.h"

/* GM, but with BUCKETS for its buckets (borrowed: GM's list holds shallow
 * copies of them, actions shared, for the encoder alone). */
static struct ofpbuf *
encode_group_mod_with(enum ofp_version version,
                      const struct ofputil_group_mod *gm_,
                      const struct ovs_list *buckets)
{
    struct ofputil_group_mod *gm = xmemdup(gm_, sizeof *gm);
    ovs_list_init(&gm->buckets);
    struct ofputil_bucket *copies = xmalloc(MAX(ovs_list_size(buckets), 1)
                                            * sizeof *copies);
    size_t i = 0;
    const struct ofputil_bucket *b;
    LIST_FOR_EACH (b, list_node, buckets) {
        copies[i] = *b;
        ovs_list_push_back(&gm->buckets, &copies[i].list_node);
        i++;
    }
    struct ofpbuf *msg = ofputil_encode_group_mod(version, gm);
    free(copies);
    free(gm);
    return msg;
}

struct ofpbuf *
ofputil_encode_requestforward(const struct ofputil_requestforward *rf,
                              enum ofp_version version)
{
    struct ofpbuf *inner;
    if (rf->reason == OFPRFR_GROUP_MOD) {
        /* A shallow copy: the bucket list is borrowed, never freed here. */
        struct ofputil_group_mod gm = *rf->group_mod;
        const struct ovs_list *buckets = &rf->group_mod->buckets;
        if (gm.command == OFPGC_ADD_OR_MOD) {
            gm.command = OFPGC11_ADD;
        } else if (version >= OFP11_VERSION && version < OFP15_VERSION
                   && rf->new_buckets
                   && (gm.command == OFPGC15_INSERT_BUCKET
                       || gm.command == OFPGC15_REMOVE_BUCKET)) {
            gm.command = OFPGC11_MODIFY;
            gm.type = rf->new_type;
            gm.command_bucket_id = OFPG15_BUCKET_ALL;
            buckets = rf->new_buckets;
        }
        inner = encode_group_mod_with(version, &gm, buckets);
    } else {
        ovs_assert(version >= OFP13_VERSION);
        inner = ofputil_encode_meter_mod(version, rf->meter_mod);
    }
    struct ofp_header *inner_oh = inner->data;
    inner_oh->xid = rf->xid;

    enum ofpraw raw = (version >= OFP14_VERSION ? OFPRAW_OFPT14_REQUESTFORWARD
                       : version == OFP13_VERSION
                       ? OFPRAW_ONFT13_REQUESTFORWARD
                       : OFPRAW_NXT_REQUESTFORWARD);
    struct ofpbuf *msg = ofpraw_alloc_xid(raw, version, htonl(0),
                                          inner->size);
    /* The fixed part of the body is the inner message's header. */
    memcpy(msg->msg, inner->data, sizeof *inner_oh);
    ofpbuf_put(msg, (const uint8_t *) inner->data + sizeof *inner_oh,
               inner->size - sizeof *inner_oh);
    ofpbuf_delete(inner);
    ofpmsg_update_length(msg);
    return msg;
}

/* The inner message of OH, checked as far as its header. */
static enum ofperr
pull_inner(const struct ofp_header *oh, const struct ofp_header **innerp,
           enum ofpraw *inner_raw)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofpraw raw;
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }
    if (raw != OFPRAW_OFPT14_REQUESTFORWARD
        && raw != OFPRAW_ONFT13_REQUESTFORWARD
        && raw != OFPRAW_NXT_REQUESTFORWARD) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    /* The raw form guarantees a whole header's worth. */
    const struct ofp_header *inner = b.data;
    if (ntohs(inner->length) < sizeof *inner
        || ntohs(inner->length) > b.size) {
        return OFPERR_OFPBFC_MSG_BAD_LEN;
    }
    if (inner->version != oh->version) {
        return OFPERR_OFPBRC_BAD_VERSION;
    }
    error = ofpraw_decode(inner_raw, inner);
    if (error) {
        return error;
    }
    *innerp = inner;
    return 0;
}

enum ofperr
ofputil_decode_requestforward(const struct ofp_header *oh,
                              struct ofputil_requestforward *rf)
{
    memset(rf, 0, sizeof *rf);
    const struct ofp_header *inner;
    enum ofpraw raw;
    enum ofperr error = pull_inner(oh, &inner, &raw);
    if (error) {
        return error;
    }
    rf->xid = inner->xid;
    switch (raw) {
    case OFPRAW_OFPT11_GROUP_MOD:
    case OFPRAW_OFPT15_GROUP_MOD:
    case OFPRAW_NXT_GROUP_MOD:
        rf->reason = OFPRFR_GROUP_MOD;
        rf->group_mod = xmalloc(sizeof *rf->group_mod);
        error = ofputil_decode_group_mod(inner, rf->group_mod);
        if (error) {
            free(rf->group_mod);
            rf->group_mod = NULL;
        }
        return error;

    case OFPRAW_OFPT13_METER_MOD: {
        struct ofpbuf bands;
        ofpbuf_init(&bands, 64);
        rf->reason = OFPRFR_METER_MOD;
        rf->meter_mod = xmalloc(sizeof *rf->meter_mod);
        error = ofputil_decode_meter_mod(inner, rf->meter_mod, &bands);
        if (error) {
            free(rf->meter_mod);
            rf->meter_mod = NULL;
        } else {
            rf->meter_mod->meter.bands = xmemdup(bands.data,
                                                 MAX(bands.size, 1));
        }
        ofpbuf_uninit(&bands);
        return error;
    }

    default:
        return OFPERR_OFPBRC_BAD_TYPE;
    }
}

void
ofputil_uninit_requestforward(struct ofputil_requestforward *rf)
{
    if (rf->group_mod) {
        ofputil_uninit_group_mod(rf->group_mod);
        free(rf->group_mod);
        rf->group_mod = NULL;
    }
    if (rf->meter_mod) {
        free(rf->meter_mod->meter.bands);
        free(rf->meter_mod);
        rf->meter_mod = NULL;
    }
}

enum ofperr
ofputil_requestforward_print(struct ds *s, const struct ofp_header *oh,
                             const struct ofputil_port_map *port_map)
{
    struct ofputil_requestforward rf;
    enum ofperr error = ofputil_decode_requestforward(oh, &rf);
    if (error) {
        return error;
    }
    ofputil_uninit_requestforward(&rf);

    /* The inner message prints as itself, after the reason. */
    const struct ofp_header *inner;
    enum ofpraw raw;
    pull_inner(oh, &inner, &raw);
    if (rf.reason == OFPRFR_GROUP_MOD) {
        ds_put_cstr(s, " reason=group_mod");
        return ofputil_group_mod_print(s, inner, port_map);
    } else {
        ds_put_cstr(s, " reason=meter_mod");
        return ofputil_meter_mod_print(s, inner);
    }
}
