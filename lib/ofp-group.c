/* ofp-group: group_mod and the group multipart messages. */
#include <config.h>
#include "ofp-group.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "dynamic-string.h"
#include "nx-match.h"
#include "ofp-actions.h"
#include "ofp-flow.h"
#include "ofp-msgs.h"
#include "ofp-parse.h"
#include "ofp-port.h"
#include "ofp-prop.h"
#include "ofpbuf.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_group);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

/* Buckets. */

void
ofputil_bucket_list_destroy(struct ovs_list *buckets)
{
    struct ofputil_bucket *b, *next;
    LIST_FOR_EACH_SAFE (b, next, list_node, buckets) {
        ovs_list_remove(&b->list_node);
        free(b->ofpacts);
        free(b);
    }
}

void
ofputil_uninit_group_mod(struct ofputil_group_mod *gm)
{
    ofputil_bucket_list_destroy(&gm->buckets);
}

void
ofputil_uninit_group_desc(struct ofputil_group_desc *gd)
{
    ofputil_bucket_list_destroy(&gd->buckets);
}

const char *
ofputil_group_type_to_string(uint8_t type)
{
    static const char *const names[] = { "all", "select", "indirect", "ff" };
    return type < ARRAY_SIZE(names) ? names[type] : "unknown";
}

/* A bucket's own copy of OFPACTS; never NULL, so that walking an empty
 * list does no arithmetic on a null pointer. */
static struct ofpact *
copy_ofpacts(const struct ofpbuf *ofpacts)
{
    struct ofpact *copy = xmalloc(MAX(ofpacts->size, 1));
    if (ofpacts->size) {
        memcpy(copy, ofpacts->data, ofpacts->size);
    }
    return copy;
}

static struct ofputil_bucket *
new_bucket(struct ovs_list *buckets, const struct ofpbuf *ofpacts)
{
    struct ofputil_bucket *b = xzalloc(sizeof *b);
    b->watch_port = OFPP_ANY;
    b->watch_group = OFPG_ANY;
    b->ofpacts = copy_ofpacts(ofpacts);
    b->ofpacts_len = ofpacts->size;
    ovs_list_push_back(buckets, &b->list_node);
    return b;
}

/* Pulls BUCKETS_LEN bytes of 1.1-1.4 buckets off MSG. */
static enum ofperr
pull_ofp11_buckets(struct ofpbuf *msg, size_t buckets_len,
                   enum ofp_version version, struct ovs_list *buckets)
{
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 64);
    uint32_t bucket_id = 0;
    enum ofperr error = 0;
    while (buckets_len > 0) {
        const struct ofp11_bucket *ob
            = (buckets_len < sizeof *ob ? NULL
               : ofpbuf_try_pull(msg, sizeof *ob));
        if (!ob) {
            error = OFPERR_OFPGMFC_BAD_BUCKET;
            break;
        }
        size_t ob_len = ntohs(ob->len);
        if (ob_len < sizeof *ob || ob_len > buckets_len) {
            error = OFPERR_OFPGMFC_BAD_BUCKET;
            break;
        }
        buckets_len -= ob_len;
        ofpbuf_clear(&ofpacts);
        error = ofpacts_pull_openflow_actions(msg, ob_len - sizeof *ob,
                                              version, &ofpacts);
        if (error) {
            break;
        }
        uint32_t watch_port;
        if (ofputil_port_from_ofp11(ob->watch_port, &watch_port)) {
            error = OFPERR_OFPGMFC_BAD_WATCH;
            break;
        }
        struct ofputil_bucket *b = new_bucket(buckets, &ofpacts);
        b->weight = ntohs(ob->weight);
        b->watch_port = watch_port;
        b->watch_group = ntohl(ob->watch_group);
        b->bucket_id = bucket_id++;
    }
    ofpbuf_uninit(&ofpacts);
    if (error) {
        ofputil_bucket_list_destroy(buckets);
    }
    return error;
}

static bool
buckets_have_duplicate_ids(const struct ovs_list *buckets)
{
    const struct ofputil_bucket *a, *b;
    LIST_FOR_EACH (a, list_node, buckets) {
        LIST_FOR_EACH (b, list_node, buckets) {
            if (a == b) {
                break;
            }
            if (a->bucket_id == b->bucket_id) {
                return true;
            }
        }
    }
    return false;
}

/* Pulls BUCKETS_LEN bytes of 1.5 buckets (also NXT_GROUP_MOD's) of a
 * group of GROUP_TYPE off MSG; their actions are in ACTIONS_VERSION's
 * encoding.  A select bucket without a weight property weighs 1. */
static enum ofperr
pull_ofp15_buckets(struct ofpbuf *msg, size_t buckets_len,
                   enum ofp_version actions_version, uint8_t group_type,
                   struct ovs_list *buckets)
{
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 64);
    enum ofperr error = 0;
    while (buckets_len > 0) {
        const struct ofp15_bucket *ob
            = (buckets_len < sizeof *ob ? NULL
               : ofpbuf_try_pull(msg, sizeof *ob));
        if (!ob) {
            error = OFPERR_OFPGMFC_BAD_BUCKET;
            break;
        }
        size_t ob_len = ntohs(ob->len);
        size_t actions_len = ntohs(ob->action_array_len);
        if (ob_len < sizeof *ob || ob_len > buckets_len
            || actions_len > ob_len - sizeof *ob) {
            error = OFPERR_OFPGMFC_BAD_BUCKET;
            break;
        }
        buckets_len -= ob_len;
        ofpbuf_clear(&ofpacts);
        error = ofpacts_pull_openflow_actions(msg, actions_len,
                                              actions_version, &ofpacts);
        if (error) {
            break;
        }
        struct ofputil_bucket *b = new_bucket(buckets, &ofpacts);
        b->weight = group_type == OFPGT11_SELECT ? 1 : 0;
        b->bucket_id = ntohl(ob->bucket_id);
        if (b->bucket_id > OFPG15_BUCKET_MAX) {
            VLOG_WARN_RL(&rl, "bucket id (%"PRIu32") is out of range",
                         b->bucket_id);
            error = OFPERR_OFPGMFC_BAD_BUCKET;
            break;
        }

        size_t props_len = ob_len - sizeof *ob - actions_len;
        const uint8_t *p = ofpbuf_pull(msg, props_len);
        while (props_len) {
            if (props_len < 4) {
                error = OFPERR_OFPBPC_BAD_LEN;
                break;
            }
            uint16_t type = (p[0] << 8) | p[1];
            size_t len = (p[2] << 8) | p[3];
            if (len < 4 || ROUND_UP(len, 8) > props_len) {
                error = OFPERR_OFPBPC_BAD_LEN;
                break;
            }
            if (type == OFPGBPT15_WEIGHT) {
                if (len != 8) {
                    error = OFPERR_OFPBPC_BAD_LEN;
                    break;
                }
                b->weight = (p[4] << 8) | p[5];
            } else if (type == OFPGBPT15_WATCH_PORT
                       || type == OFPGBPT15_WATCH_GROUP) {
                if (len != 8) {
                    error = OFPERR_OFPBPC_BAD_LEN;
                    break;
                }
                ovs_be32 value;
                memcpy(&value, p + 4, 4);
                if (type == OFPGBPT15_WATCH_GROUP) {
                    b->watch_group = ntohl(value);
                } else if (ofputil_port_from_ofp11(value, &b->watch_port)) {
                    error = OFPERR_OFPGMFC_BAD_WATCH;
                    break;
                }
            } else {
                error = OFPERR_OFPBPC_BAD_TYPE;
                break;
            }
            p += ROUND_UP(len, 8);
            props_len -= ROUND_UP(len, 8);
        }
        if (error) {
            break;
        }
    }
    ofpbuf_uninit(&ofpacts);
    if (!error && buckets_have_duplicate_ids(buckets)) {
        VLOG_WARN_RL(&rl, "Duplicate bucket id");
        error = OFPERR_OFPGMFC_BAD_BUCKET;
    }
    if (error) {
        ofputil_bucket_list_destroy(buckets);
    }
    return error;
}

static void
put_ofp11_buckets(struct ofpbuf *msg, const struct ovs_list *buckets,
                  enum ofp_version version)
{
    const struct ofputil_bucket *b;
    LIST_FOR_EACH (b, list_node, buckets) {
        size_t start = msg->size;
        ofpbuf_put_zeros(msg, sizeof(struct ofp11_bucket));
        ofpacts_put_openflow_actions(b->ofpacts, b->ofpacts_len, msg,
                                     version);
        struct ofp11_bucket *ob = ofpbuf_at_assert(msg, start, sizeof *ob);
        ob->len = htons(msg->size - start);
        ob->weight = htons(b->weight);
        ob->watch_port = ofputil_port_to_ofp11(b->watch_port);
        ob->watch_group = htonl(b->watch_group);
    }
}

static void
put_prop_32(struct ofpbuf *msg, uint16_t type, uint32_t value, bool is16)
{
    uint8_t prop[8] = { type >> 8, type & 0xff, 0, 8 };
    if (is16) {
        prop[4] = value >> 8;
        prop[5] = value;
    } else {
        ovs_be32 v = htonl(value);
        memcpy(prop + 4, &v, 4);
    }
    ofpbuf_put(msg, prop, sizeof prop);
}

/* 1.5 buckets; as 3.1 writes them, select buckets carry their weight
 * (other buckets only a nonzero one) and buckets the port and group they
 * watch, if any. */
static void
put_ofp15_buckets(struct ofpbuf *msg, const struct ovs_list *buckets,
                  uint8_t group_type, enum ofp_version actions_version)
{
    const struct ofputil_bucket *b;
    LIST_FOR_EACH (b, list_node, buckets) {
        size_t start = msg->size;
        ofpbuf_put_zeros(msg, sizeof(struct ofp15_bucket));
        size_t actions_len = ofpacts_put_openflow_actions(
            b->ofpacts, b->ofpacts_len, msg, actions_version);
        if (group_type == OFPGT11_SELECT || b->weight) {
            put_prop_32(msg, OFPGBPT15_WEIGHT, b->weight, true);
        }
        if (b->watch_port != OFPP_ANY) {
            put_prop_32(msg, OFPGBPT15_WATCH_PORT,
                        ntohl(ofputil_port_to_ofp11(b->watch_port)), false);
        }
        if (b->watch_group != OFPG_ANY) {
            put_prop_32(msg, OFPGBPT15_WATCH_GROUP, b->watch_group, false);
        }
        struct ofp15_bucket *ob = ofpbuf_at_assert(msg, start, sizeof *ob);
        ob->len = htons(msg->size - start);
        ob->action_array_len = htons(actions_len);
        ob->bucket_id = htonl(b->bucket_id);
    }
}

/* Group properties. */

/* Adds field F with MASK to PROPS, keeping the fields in id order. */
static bool
group_props_add_field(struct ofputil_group_props *props,
                      const struct mf_field *f, const union mf_value *mask)
{
    size_t i = 0;
    while (i < props->n_fields && props->fields[i].id < f->id) {
        i++;
    }
    if (i < props->n_fields && props->fields[i].id == f->id) {
        return false;
    }
    memmove(&props->fields[i + 1], &props->fields[i],
            (props->n_fields - i) * sizeof props->fields[i]);
    props->fields[i].id = f->id;
    props->fields[i].mask = *mask;
    props->n_fields++;
    return true;
}

/* The fields of a "hash" selection method: NXM/OXM headers, each followed
 * by a mask of its field's width. */
static enum ofperr
pull_group_fields(struct ofpbuf *b, struct ofputil_group_props *props)
{
    while (b->size) {
        const struct mf_field *f;
        union mf_value mask;
        enum ofperr error = nx_pull_entry(b, &f, &mask, NULL, false);
        if (error) {
            return error;
        }
        if (!mf_is_mask_valid(f, &mask)) {
            return OFPERR_OFPBMC_BAD_MASK;
        }
        if (!group_props_add_field(props, f, &mask)) {
            return OFPERR_OFPBMC_DUP_FIELD;
        }
    }
    return 0;
}

static enum ofperr
pull_selection_method(struct ofpbuf *prop, uint8_t group_type,
                      struct ofputil_group_props *props)
{
    const struct ntr_group_prop_selection_method *sm = prop->data;
    if (prop->size < sizeof *sm) {
        VLOG_WARN_RL(&rl, "ntr selection method property length %"PRIu32
                     " is not valid", prop->size);
        return OFPERR_OFPBPC_BAD_LEN;
    }
    if (group_type != OFPGT11_SELECT) {
        VLOG_WARN_RL(&rl, "ntr selection method property is only allowed "
                     "for select groups");
        return OFPERR_OFPBPC_BAD_VALUE;
    }
    size_t method_len = strnlen(sm->selection_method,
                                sizeof sm->selection_method);
    if (method_len == sizeof sm->selection_method) {
        VLOG_WARN_RL(&rl, "ntr selection method is not null terminated");
        return OFPERR_OFPBPC_BAD_VALUE;
    }
    if (strcmp(sm->selection_method, "hash")
        && strcmp(sm->selection_method, "dp_hash")) {
        VLOG_WARN_RL(&rl, "ntr selection method '%s' is not supported",
                     sm->selection_method);
        return OFPERR_OFPBPC_BAD_VALUE;
    }
    memset(props, 0, sizeof *props);
    memcpy(props->selection_method, sm->selection_method, method_len);
    props->selection_method_param = ntohll(sm->selection_method_param);

    ofpbuf_pull(prop, sizeof *sm);
    if (!strcmp(props->selection_method, "dp_hash") && prop->size) {
        VLOG_WARN_RL(&rl, "ntr selection method dp_hash does not support "
                     "fields");
        return OFPERR_OFPBPC_BAD_VALUE;
    }
    enum ofperr error = pull_group_fields(prop, props);
    if (error) {
        VLOG_WARN_RL(&rl, "ntr selection method fields are invalid");
    }
    return error;
}

/* Pulls the group properties that make up the rest of B (1.5 and Nicira's
 * layout) into PROPS, for a group of GROUP_TYPE. */
static enum ofperr
pull_group_props(struct ofpbuf *b, uint8_t group_type,
                 struct ofputil_group_props *props)
{
    memset(props, 0, sizeof *props);
    while (b->size) {
        struct ofpbuf prop;
        uint16_t type;
        enum ofperr error = ofpprop_pull(b, &prop, &type);
        if (error) {
            return error;
        }
        if (type != OFPGPT15_EXPERIMENTER) {
            VLOG_WARN_RL(&rl, "unknown group property type %"PRIu16, type);
            return OFPERR_OFPBPC_BAD_TYPE;
        }
        if (prop.size < 12) {
            return OFPERR_OFPBPC_BAD_LEN;
        }
        const uint8_t *p = prop.data;
        uint32_t experimenter = ((uint32_t) p[4] << 24 | p[5] << 16
                                 | p[6] << 8 | p[7]);
        uint32_t exp_type = ((uint32_t) p[8] << 24 | p[9] << 16
                             | p[10] << 8 | p[11]);
        if ((experimenter == NTR_VENDOR_ID
             || experimenter == NTR_COMPAT_VENDOR_ID)
            && exp_type == NTRT_SELECTION_METHOD) {
            error = pull_selection_method(&prop, group_type, props);
        } else {
            VLOG_WARN_RL(&rl, "unknown group property type for exp_id %#"
                         PRIx32", exp_type %"PRIu32, experimenter, exp_type);
            error = OFPERR_OFPBPC_BAD_EXP_TYPE;
        }
        if (error) {
            return error;
        }
    }
    return 0;
}

/* Appends PROPS (nothing without a selection method) in VERSION, whose
 * OXM or NXM headers name the fields. */
static void
put_group_props(struct ofpbuf *msg, const struct ofputil_group_props *props,
                enum ofp_version version)
{
    if (!props->selection_method[0]) {
        return;
    }
    size_t start = msg->size;
    struct ntr_group_prop_selection_method *sm
        = ofpbuf_put_zeros(msg, sizeof *sm);
    sm->type = htons(OFPGPT15_EXPERIMENTER);
    sm->experimenter = htonl(NTR_VENDOR_ID);
    sm->exp_type = htonl(NTRT_SELECTION_METHOD);
    memcpy(sm->selection_method, props->selection_method,
           sizeof sm->selection_method);
    sm->selection_method_param = htonll(props->selection_method_param);
    for (size_t i = 0; i < props->n_fields; i++) {
        const struct mf_field *f = mf_from_id(props->fields[i].id);
        nx_put_header(msg, f->id, version, false);
        ofpbuf_put(msg, &props->fields[i].mask, f->n_bytes);
    }
    sm = ofpbuf_at_assert(msg, start, sizeof *sm);
    sm->length = htons(msg->size - start);
    ofpbuf_put_zeros(msg, ROUND_UP(msg->size - start, 8)
                     - (msg->size - start));
}

static void
format_group_props(struct ds *s, const struct ofputil_group_props *props)
{
    if (props->selection_method[0]) {
        ds_put_format(s, ",selection_method=%s", props->selection_method);
        if (props->selection_method_param) {
            ds_put_format(s, ",selection_method_param=%"PRIu64,
                          props->selection_method_param);
        }
    }
    if (!props->n_fields) {
        return;
    }
    ds_put_cstr(s, props->n_fields == 1 ? ",fields=" : ",fields(");
    for (size_t i = 0; i < props->n_fields; i++) {
        const struct ofputil_group_field *gf = &props->fields[i];
        const struct mf_field *f = mf_from_id(gf->id);
        if (i) {
            ds_put_char(s, ',');
        }
        ds_put_cstr(s, f->name);
        if (!mf_value_is_all_ones(f, &gf->mask)) {
            ds_put_char(s, '=');
            mf_format(f, &gf->mask, NULL, NULL, s);
        }
    }
    if (props->n_fields > 1) {
        ds_put_char(s, ')');
    }
}

/* group_mod. */

static bool
bucket_has_liveness(const struct ofputil_bucket *b)
{
    return b->watch_port != OFPP_ANY || b->watch_group != OFPG_ANY;
}

/* What 3.1 checks of a decoded group_mod, in its order. */
static enum ofperr
check_group_mod(const struct ofputil_group_mod *gm)
{
    if (gm->type > OFPGT11_FF) {
        return OFPERR_OFPGMFC_BAD_TYPE;
    }
    switch (gm->command) {
    case OFPGC11_ADD:
    case OFPGC11_MODIFY:
    case OFPGC11_DELETE:
    case OFPGC15_INSERT_BUCKET:
    case OFPGC15_REMOVE_BUCKET:
    case OFPGC_ADD_OR_MOD:
        break;
    default:
        return OFPERR_OFPGMFC_BAD_COMMAND;
    }
    if (gm->type == OFPGT11_INDIRECT && gm->command != OFPGC11_DELETE
        && !ovs_list_is_singleton(&gm->buckets)) {
        return OFPERR_OFPGMFC_INVALID_GROUP;
    }
    if (gm->command == OFPGC15_REMOVE_BUCKET
        && !ovs_list_is_empty(&gm->buckets)) {
        return OFPERR_OFPGMFC_BAD_BUCKET;
    }
    const struct ofputil_bucket *b;
    LIST_FOR_EACH (b, list_node, &gm->buckets) {
        /* An inserted bucket's group type is not known here. */
        if (b->weight && gm->type != OFPGT11_SELECT
            && gm->command != OFPGC15_INSERT_BUCKET) {
            return OFPERR_OFPGMFC_INVALID_GROUP;
        }
        if (gm->type == OFPGT11_FF ? !bucket_has_liveness(b)
            : gm->type != OFPGT11_SELECT && bucket_has_liveness(b)) {
            return (gm->type == OFPGT11_FF ? OFPERR_OFPGMFC_INVALID_GROUP
                    : OFPERR_OFPGMFC_WATCH_UNSUPPORTED);
        }
    }
    return 0;
}

/* 1.5's command bucket id: "all" but for the bucket commands, which take
 * a bucket id, first or last (and remove also all), as 3.1 checks. */
static enum ofperr
check_command_bucket_id(uint16_t command, uint32_t id)
{
    bool ok;
    switch (command) {
    case OFPGC15_INSERT_BUCKET:
        ok = (id <= OFPG15_BUCKET_MAX || id == OFPG15_BUCKET_FIRST
              || id == OFPG15_BUCKET_LAST);
        break;
    case OFPGC15_REMOVE_BUCKET:
        ok = (id <= OFPG15_BUCKET_MAX || id == OFPG15_BUCKET_FIRST
              || id == OFPG15_BUCKET_LAST || id == OFPG15_BUCKET_ALL);
        break;
    default:
        ok = id == OFPG15_BUCKET_ALL;
        break;
    }
    if (!ok) {
        VLOG_WARN_RL(&rl, "group command bucket id (%"PRIu32") is out of "
                     "range", id);
        return OFPERR_OFPGMFC_BAD_BUCKET;
    }
    return 0;
}

/* Whether messages of RAW and VERSION use 1.5's group layout (1.0's
 * Nicira group_mod does). */
static bool
is_ofp15_layout(enum ofp_version version)
{
    return version == OFP10_VERSION || version >= OFP15_VERSION;
}

enum ofperr
ofputil_decode_group_mod(const struct ofp_header *oh,
                         struct ofputil_group_mod *gm)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofpraw raw;
    memset(gm, 0, sizeof *gm);
    ovs_list_init(&gm->buckets);
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }

    if (raw == OFPRAW_OFPT11_GROUP_MOD) {
        const struct ofp11_group_mod *ogm = ofpbuf_pull(&b, sizeof *ogm);
        gm->command = ntohs(ogm->command);
        gm->type = ogm->type;
        gm->group_id = ntohl(ogm->group_id);
        gm->command_bucket_id = OFPG15_BUCKET_ALL;
        error = pull_ofp11_buckets(&b, b.size, oh->version, &gm->buckets);
        /* 1.1-1.4 deletions carry no buckets, as 3.1 checks. */
        if (!error && gm->command == OFPGC11_DELETE
            && !ovs_list_is_empty(&gm->buckets)) {
            error = OFPERR_OFPGMFC_INVALID_GROUP;
        }
    } else if (raw == OFPRAW_OFPT15_GROUP_MOD
               || raw == OFPRAW_NXT_GROUP_MOD) {
        const struct ofp15_group_mod *ogm = ofpbuf_pull(&b, sizeof *ogm);
        gm->command = ntohs(ogm->command);
        gm->type = ogm->type;
        gm->group_id = ntohl(ogm->group_id);
        gm->command_bucket_id = ntohl(ogm->command_bucket_id);
        error = check_command_bucket_id(gm->command, gm->command_bucket_id);
        if (error) {
            return error;
        }
        size_t buckets_len = ntohs(ogm->bucket_array_len);
        if (buckets_len > b.size) {
            return OFPERR_OFPGMFC_BAD_BUCKET;
        }
        error = pull_ofp15_buckets(&b, buckets_len, oh->version, gm->type,
                                   &gm->buckets);
        if (!error) {
            error = pull_group_props(&b, gm->type, &gm->props);
        }
    } else {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    if (!error) {
        error = check_group_mod(gm);
    }
    if (error) {
        ofputil_bucket_list_destroy(&gm->buckets);
    }
    return error;
}

struct ofpbuf *
ofputil_encode_group_mod(enum ofp_version version,
                         const struct ofputil_group_mod *gm)
{
    struct ofpbuf *msg;
    if (!is_ofp15_layout(version)) {
        msg = ofpraw_alloc(OFPRAW_OFPT11_GROUP_MOD, version, 0);
        struct ofp11_group_mod *ogm = msg->msg;
        ogm->command = htons(gm->command);
        ogm->type = gm->type;
        ogm->group_id = htonl(gm->group_id);
        put_ofp11_buckets(msg, &gm->buckets, version);
    } else {
        msg = ofpraw_alloc(version == OFP10_VERSION ? OFPRAW_NXT_GROUP_MOD
                           : OFPRAW_OFPT15_GROUP_MOD, version, 0);
        size_t ofs = (uint8_t *) msg->msg - (uint8_t *) msg->data;
        put_ofp15_buckets(msg, &gm->buckets, gm->type, version);
        struct ofp15_group_mod *ogm = ofpbuf_at_assert(msg, ofs,
                                                       sizeof *ogm);
        ogm->command = htons(gm->command);
        ogm->type = gm->type;
        ogm->group_id = htonl(gm->group_id);
        ogm->bucket_array_len = htons(msg->size - ofs - sizeof *ogm);
        ogm->command_bucket_id = htonl(gm->command_bucket_id);
        put_group_props(msg, &gm->props, version);
    }
    ofpmsg_update_length(msg);
    return msg;
}

/* Text. */

static void
format_group_id(struct ds *s, uint32_t group_id)
{
    if (group_id == OFPG_ALL) {
        ds_put_cstr(s, "ALL");
    } else if (group_id == OFPG_ANY) {
        ds_put_cstr(s, "ANY");
    } else {
        ds_put_format(s, "%"PRIu32, group_id);
    }
}

static void
format_bucket_id(struct ds *s, uint32_t bucket_id)
{
    if (bucket_id == OFPG15_BUCKET_FIRST) {
        ds_put_cstr(s, "first");
    } else if (bucket_id == OFPG15_BUCKET_LAST) {
        ds_put_cstr(s, "last");
    } else if (bucket_id == OFPG15_BUCKET_ALL) {
        ds_put_cstr(s, "all");
    } else {
        ds_put_format(s, "%"PRIu32, bucket_id);
    }
}

static void
format_group(struct ds *s, uint32_t group_id, uint8_t type,
             const struct ovs_list *buckets,
             const struct ofputil_group_props *props,
             const struct ofputil_port_map *port_map, bool bucket_ids,
             bool suppress_type)
{
    ds_put_format(s, "group_id=%"PRIu32, group_id);
    if (!suppress_type) {
        ds_put_format(s, ",type=%s", ofputil_group_type_to_string(type));
    }
    format_group_props(s, props);
    const struct ofputil_bucket *b;
    LIST_FOR_EACH (b, list_node, buckets) {
        ds_put_cstr(s, ",bucket=");
        if (bucket_ids) {
            ds_put_format(s, "bucket_id:%"PRIu32",", b->bucket_id);
        }
        if (b->weight != (type == OFPGT11_SELECT ? 1 : 0)) {
            ds_put_format(s, "weight:%"PRIu16",", b->weight);
        }
        if (b->watch_port != OFPP_ANY) {
            ds_put_cstr(s, "watch_port:");
            ofputil_format_port(b->watch_port, port_map, s);
            ds_put_char(s, ',');
        }
        if (b->watch_group != OFPG_ANY) {
            ds_put_format(s, "watch_group:%"PRIu32",", b->watch_group);
        }
        ds_put_cstr(s, "actions=");
        ofpact_list_format(b->ofpacts, b->ofpacts_len, port_map, NULL, s);
    }
}

enum ofperr
ofputil_group_mod_print(struct ds *s, const struct ofp_header *oh,
                        const struct ofputil_port_map *port_map)
{
    struct ofputil_group_mod gm;
    enum ofperr error = ofputil_decode_group_mod(oh, &gm);
    if (error) {
        return error;
    }
    ds_put_cstr(s, "\n ");
    bool bucket_command = false;
    switch (gm.command) {
    case OFPGC11_ADD: ds_put_cstr(s, "ADD"); break;
    case OFPGC11_MODIFY: ds_put_cstr(s, "MOD"); break;
    case OFPGC_ADD_OR_MOD: ds_put_cstr(s, "ADD_OR_MOD"); break;
    case OFPGC11_DELETE: ds_put_cstr(s, "DEL"); break;
    case OFPGC15_INSERT_BUCKET:
        ds_put_cstr(s, "INSERT_BUCKET");
        bucket_command = true;
        break;
    case OFPGC15_REMOVE_BUCKET:
        ds_put_cstr(s, "REMOVE_BUCKET");
        bucket_command = true;
        break;
    }
    ds_put_char(s, ' ');
    if (bucket_command && is_ofp15_layout(oh->version)) {
        ds_put_cstr(s, "command_bucket_id:");
        format_bucket_id(s, gm.command_bucket_id);
        ds_put_char(s, ',');
    }
    format_group(s, gm.group_id, gm.type, &gm.buckets, &gm.props, port_map,
                 is_ofp15_layout(oh->version), bucket_command);
    ofputil_uninit_group_mod(&gm);
    return 0;
}

/* add-group / mod-group / del-groups text. */

/* "eth_dst,ip_dst=255.255.0.0,tcp_dst": the fields a "hash" selection
 * method hashes, each with an optional mask. */
static char *
parse_group_fields(char *s, const struct ofputil_port_map *port_map,
                   struct ofputil_group_props *props)
{
    char *name, *value;
    while (ofputil_parse_key_value(&s, &name, &value, NULL)) {
        const struct mf_field *f = mf_from_name(name);
        if (!f) {
            return xasprintf("%s: unknown field %s", value, name);
        }
        union mf_value mask;
        if (*value) {
            union mf_value wild;
            char *error = mf_parse(f, value, port_map, &mask, &wild);
            if (error) {
                return error;
            }
            if (!mf_value_is_all_ones(f, &wild)) {
                return xasprintf("%s: wildcards not allowed here", value);
            }
            if (!mf_is_mask_valid(f, &mask)) {
                return xasprintf("%s: invalid mask for field %s", value,
                                 name);
            }
        } else {
            memset(&mask, 0, sizeof mask);
            mf_value_set_all_ones(f, &mask);
        }
        if (!group_props_add_field(props, f, &mask)) {
            return xasprintf("%s: duplicate field", name);
        }
    }
    return NULL;
}

/* One bucket's text ("weight:10,watch_port:1,actions=output:1", the
 * actions also bare) into B, with defaults for a group of GROUP_TYPE. */
static char *
parse_bucket(char *text, uint8_t group_type, struct ofputil_bucket *b,
             const struct ofputil_port_map *port_map, struct ofpbuf *ofpacts)
{
    b->weight = group_type == OFPGT11_SELECT ? 1 : 0;
    b->watch_port = OFPP_ANY;
    b->watch_group = OFPG_ANY;
    b->bucket_id = OFPG15_BUCKET_ALL;   /* Not given, so far. */

    /* Whatever is not a bucket keyword is an action, in order. */
    struct ds actions = DS_EMPTY_INITIALIZER;
    char *error = NULL;
    char *key, *value, sep;
    while (!error && ofputil_parse_key_value(&text, &key, &value, &sep)) {
        uint64_t x;
        if (!strcasecmp(key, "weight")) {
            char *e = (*value ? ofputil_parse_uint(value, UINT16_MAX, &x)
                       : xstrdup("empty"));
            if (e) {
                free(e);
                error = xasprintf("invalid weight \"%s\"", value);
            } else {
                b->weight = x;
            }
        } else if (!strcasecmp(key, "watch_port")) {
            if (!ofputil_port_from_string(value, port_map, &b->watch_port)
                || (b->watch_port >= OFPP_MAX && b->watch_port != OFPP_ANY)) {
                error = xasprintf("%s: invalid watch_port", value);
            }
        } else if (!strcasecmp(key, "watch_group")) {
            error = ofputil_parse_u32(value, &b->watch_group);
        } else if (!strcasecmp(key, "bucket_id")) {
            error = ofputil_parse_u32(value, &b->bucket_id);
            if (!error && b->bucket_id > OFPG15_BUCKET_MAX) {
                error = xasprintf("invalid bucket_id id %"PRIu32,
                                  b->bucket_id);
            }
        } else if (!strcasecmp(key, "action") || !strcasecmp(key, "actions")) {
            ds_put_format(&actions, "%s,", value);
        } else if (sep == '(') {
            ds_put_format(&actions, "%s(%s),", key, value);
        } else if (sep == ':' || sep == '=') {
            ds_put_format(&actions, "%s%c%s,", key, sep, value);
        } else {
            ds_put_format(&actions, "%s,", key);
        }
    }
    if (!error) {
        ds_chomp(&actions, ',');
        if (!actions.length) {
            error = xstrdup("bucket must specify actions");
        } else if (group_type == OFPGT11_FF && b->watch_port == OFPP_ANY
                   && b->watch_group == OFPG_ANY) {
            error = xstrdup("fast failover bucket requires watch_port or "
                            "watch_group");
        }
    }
    if (!error) {
        ofpbuf_clear(ofpacts);
        error = ofpacts_parse_actions(ds_cstr(&actions), port_map, NULL,
                                      ofpacts);
    }
    ds_destroy(&actions);
    if (error) {
        return error;
    }
    b->ofpacts = copy_ofpacts(ofpacts);
    b->ofpacts_len = ofpacts->size;
    return NULL;
}

/* Buckets without a bucket_id are numbered in order from a counter that
 * starts at 0 and skips the ids that buckets after them name (so an id
 * that an earlier bucket names may be taken again, and the decoder then
 * refuses the duplicate), as 3.1 numbers them. */
static void
number_buckets(struct ovs_list *buckets)
{
    size_t n = ovs_list_size(buckets);
    struct ofputil_bucket **v = xmalloc(MAX(n, 1) * sizeof *v);
    size_t i = 0;
    struct ofputil_bucket *b;
    LIST_FOR_EACH (b, list_node, buckets) {
        v[i++] = b;
    }
    uint32_t next_id = 0;
    for (i = 0; i < n; i++) {
        if (v[i]->bucket_id != OFPG15_BUCKET_ALL) {
            continue;
        }
        for (size_t j = i + 1; j < n; j++) {
            if (v[j]->bucket_id == next_id) {
                next_id++;
                j = i;          /* Check the new id from the start. */
            }
        }
        v[i]->bucket_id = next_id++;
    }
    free(v);
}

int
parse_ofp_group_mod_command(const char **sp)
{
    static const struct {
        const char *name;
        int command;
    } words[] = {
        { "add", OFPGC11_ADD },
        { "delete", OFPGC11_DELETE },
        { "modify", OFPGC11_MODIFY },
        { "add_or_mod", OFPGC_ADD_OR_MOD },
        { "insert_bucket", OFPGC15_INSERT_BUCKET },
        { "remove_bucket", OFPGC15_REMOVE_BUCKET },
    };
    const char *s = *sp + strspn(*sp, " \t\r\n");
    size_t len = strcspn(s, ", \t\r\n");
    for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
        if (!strncmp(s, words[i].name, len)) {
            *sp = s + len;
            return words[i].command;
        }
    }
    *sp = s;
    return OFPGC11_ADD;
}

static char *
parse_group__(struct ofputil_group_mod *gm, char *string,
              const struct ofputil_port_map *port_map)
{
    /* What each command takes. */
    int command = gm->command;
    bool takes_type = (command == OFPGC11_ADD || command == OFPGC11_MODIFY
                       || command == OFPGC_ADD_OR_MOD);
    bool takes_buckets = takes_type || command == OFPGC15_INSERT_BUCKET;
    bool takes_command_bucket_id = (command == OFPGC15_INSERT_BUCKET
                                    || command == OFPGC15_REMOVE_BUCKET);
    bool command_bucket_id_all_ok = command == OFPGC15_REMOVE_BUCKET;

    if (command == OFPGC11_DELETE && !*string) {
        gm->group_id = OFPG_ALL;
        return NULL;
    }

    /* The buckets come last, and parse once the type is known. */
    char *bucket_text = strstr(string, "bucket=");
    if (bucket_text) {
        if (!takes_buckets) {
            return xstrdup("bucket is not needed");
        }
        *bucket_text = '\0';
        bucket_text += strlen("bucket=");
    }

    bool have_type = false, have_command_bucket_id = false;
    struct ofputil_group_props *props = &gm->props;
    char *name, *value;
    while (ofputil_parse_key_value(&string, &name, &value, NULL)) {
        char *error = NULL;
        if (!strcmp(name, "command_bucket_id")) {
            if (!takes_command_bucket_id) {
                return xstrdup("command bucket id is not needed");
            }
            if (!strcmp(value, "all")) {
                gm->command_bucket_id = OFPG15_BUCKET_ALL;
            } else if (!strcmp(value, "first")) {
                gm->command_bucket_id = OFPG15_BUCKET_FIRST;
            } else if (!strcmp(value, "last")) {
                gm->command_bucket_id = OFPG15_BUCKET_LAST;
            } else {
                error = ofputil_parse_u32(value, &gm->command_bucket_id);
                if (!error && gm->command_bucket_id > OFPG15_BUCKET_MAX
                    && gm->command_bucket_id != OFPG15_BUCKET_FIRST
                    && gm->command_bucket_id != OFPG15_BUCKET_LAST
                    && gm->command_bucket_id != OFPG15_BUCKET_ALL) {
                    error = xasprintf("invalid command bucket id %"PRIu32,
                                      gm->command_bucket_id);
                }
            }
            if (!error && gm->command_bucket_id == OFPG15_BUCKET_ALL
                && !command_bucket_id_all_ok) {
                error = xstrdup("command_bucket_id=all is not permitted");
            }
            have_command_bucket_id = true;
        } else if (!strcmp(name, "group_id")) {
            if (!strcmp(value, "all")) {
                gm->group_id = OFPG_ALL;
            } else {
                error = ofputil_parse_u32(value, &gm->group_id);
                if (!error && gm->group_id > OFPG_MAX
                    && gm->group_id != OFPG_ALL) {
                    error = xasprintf("invalid group id %"PRIu32,
                                      gm->group_id);
                }
            }
        } else if (!strcmp(name, "type")) {
            if (!takes_type) {
                return xstrdup("type is not needed");
            }
            if (!strcmp(value, "all")) {
                gm->type = OFPGT11_ALL;
            } else if (!strcmp(value, "select")) {
                gm->type = OFPGT11_SELECT;
            } else if (!strcmp(value, "indirect")) {
                gm->type = OFPGT11_INDIRECT;
            } else if (!strcmp(value, "ff")
                       || !strcmp(value, "fast_failover")) {
                gm->type = OFPGT11_FF;
            } else {
                return xasprintf("invalid group type %s", value);
            }
            have_type = true;
        } else if (!strcmp(name, "selection_method")) {
            if (!takes_type) {
                return xstrdup("selection method is not needed");
            }
            if (strlen(value) >= sizeof props->selection_method) {
                return xasprintf("selection method is longer than %zu "
                                 "bytes long",
                                 sizeof props->selection_method - 1);
            }
            memset(props->selection_method, 0,
                   sizeof props->selection_method);
            strcpy(props->selection_method, value);
        } else if (!strcmp(name, "selection_method_param")) {
            if (!takes_type) {
                return xstrdup("selection method param is not needed");
            }
            error = ofputil_parse_uint(value, UINT64_MAX,
                                 &props->selection_method_param);
        } else if (!strcmp(name, "fields")) {
            if (!takes_type) {
                return xstrdup("fields are not needed");
            }
            error = parse_group_fields(value, port_map, props);
        } else {
            return xasprintf("unknown keyword %s", name);
        }
        if (error) {
            return error;
        }
    }

    if (gm->group_id == OFPG_ANY) {
        return xstrdup("must specify a group_id");
    }
    if (takes_type && !have_type) {
        return xstrdup("must specify a type");
    }
    if (props->n_fields && strcmp(props->selection_method, "hash")) {
        return xstrdup("fields may only be specified with "
                       "\"selection_method=hash\"");
    }
    if (!props->selection_method[0] && props->selection_method_param) {
        return xstrdup("selection_method_param is only allowed with "
                       "\"selection_method\"");
    }
    if (takes_command_bucket_id && !command_bucket_id_all_ok
        && !have_command_bucket_id) {
        return xstrdup("must specify a command bucket id");
    }

    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 64);
    while (bucket_text) {
        char *next = strstr(bucket_text, "bucket=");
        if (next) {
            *next = '\0';
            next += strlen("bucket=");
        }
        struct ofputil_bucket *b = xzalloc(sizeof *b);
        char *error = parse_bucket(bucket_text, gm->type, b, port_map,
                                   &ofpacts);
        if (error) {
            free(b);
            ofpbuf_uninit(&ofpacts);
            return error;
        }
        ovs_list_push_back(&gm->buckets, &b->list_node);
        /* Buckets inserted into a group whose type the text does not say
         * may have any weight, as in 3.1. */
        if (takes_type && gm->type != OFPGT11_SELECT && b->weight) {
            ofpbuf_uninit(&ofpacts);
            return xstrdup("Only select groups can have bucket weights.");
        }
        bucket_text = next;
    }
    ofpbuf_uninit(&ofpacts);
    number_buckets(&gm->buckets);

    if (gm->type == OFPGT11_INDIRECT
        && ovs_list_size(&gm->buckets) > 1) {
        return xstrdup("Indirect groups can have at most one bucket.");
    }
    return NULL;
}

char *
parse_ofp_group_mod_str(struct ofputil_group_mod *gm, int command,
                        const char *string,
                        const struct ofputil_port_map *port_map,
                        enum ofputil_protocol *usable_protocols)
{
    memset(gm, 0, sizeof *gm);
    ovs_list_init(&gm->buckets);
    gm->command = command;
    gm->group_id = OFPG_ANY;
    gm->command_bucket_id = OFPG15_BUCKET_ALL;

    char *copy = xstrdup(string);
    char *error = parse_group__(gm, copy, port_map);
    free(copy);
    if (error) {
        ofputil_bucket_list_destroy(&gm->buckets);
        *usable_protocols = OFPUTIL_P_NONE;
    } else {
        /* Bucket commands exist in 1.5, and as Nicira's in 1.0; 3.1 lets an
         * insert through to 1.1-1.4 too, where its encoder then gives up.
         * The selection method goes only in 1.5 and Nicira's 1.0 messages,
         * and other versions leave it out, as 3.1 does. */
        *usable_protocols = (command == OFPGC15_REMOVE_BUCKET
                             ? OFPUTIL_P_OF15_UP | OFPUTIL_P_OF10_ANY
                             : OFPUTIL_P_OF11_UP | OFPUTIL_P_OF10_ANY);
    }
    return error;
}

/* Group desc. */

struct ofpbuf *
ofputil_encode_group_desc_request(enum ofp_version version, uint32_t group_id)
{
    struct ofpbuf *msg;
    if (version >= OFP15_VERSION) {
        msg = ofpraw_alloc(OFPRAW_OFPST15_GROUP_DESC_REQUEST, version, 0);
        struct ofp15_group_desc_request *r = msg->msg;
        r->group_id = htonl(group_id);
    } else if (version == OFP10_VERSION) {
        msg = ofpraw_alloc(OFPRAW_NXST_GROUP_DESC_REQUEST, version, 0);
        struct ofp15_group_desc_request *r = msg->msg;
        r->group_id = htonl(group_id);
    } else {
        msg = ofpraw_alloc(OFPRAW_OFPST11_GROUP_DESC_REQUEST, version, 0);
    }
    ofpmsg_update_length(msg);
    return msg;
}

enum ofperr
ofputil_decode_group_desc_request(const struct ofp_header *oh,
                                  uint32_t *group_id)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofpraw raw;
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }
    if (raw == OFPRAW_OFPST11_GROUP_DESC_REQUEST) {
        *group_id = OFPG_ALL;
    } else if (raw == OFPRAW_OFPST15_GROUP_DESC_REQUEST
               || raw == OFPRAW_NXST_GROUP_DESC_REQUEST) {
        const struct ofp15_group_desc_request *r = ofpbuf_pull(&b,
                                                               sizeof *r);
        *group_id = ntohl(r->group_id);
    } else {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    return 0;
}

void
ofputil_append_group_desc_reply(const struct ofputil_group_desc *gd,
                                const struct ovs_list *buckets,
                                struct ovs_list *replies)
{
    enum ofp_version version = ofpmp_version(replies);
    struct ofpbuf *reply = ofpmp_reserve(replies, 256);
    size_t start = reply->size;
    if (!is_ofp15_layout(version)) {
        ofpbuf_put_zeros(reply, sizeof(struct ofp11_group_desc_stats));
        put_ofp11_buckets(reply, buckets, version);
        struct ofp11_group_desc_stats *ogds
            = ofpbuf_at_assert(reply, start, sizeof *ogds);
        ogds->length = htons(reply->size - start);
        ogds->type = gd->type;
        ogds->group_id = htonl(gd->group_id);
    } else {
        ofpbuf_put_zeros(reply, sizeof(struct ofp15_group_desc_stats));
        put_ofp15_buckets(reply, buckets, gd->type, version);
        size_t buckets_len = (reply->size - start
                              - sizeof(struct ofp15_group_desc_stats));
        put_group_props(reply, &gd->props, version);
        struct ofp15_group_desc_stats *ogds
            = ofpbuf_at_assert(reply, start, sizeof *ogds);
        ogds->length = htons(reply->size - start);
        ogds->type = gd->type;
        ogds->group_id = htonl(gd->group_id);
        ogds->bucket_list_len = htons(buckets_len);
    }
    ofpmp_postappend(replies, start);
}

/* Starts or continues decoding the multipart reply MSG. */
static int
reply_start(struct ofpbuf *msg)
{
    enum ofpraw raw;
    enum ofperr error = (msg->header ? ofpraw_decode(&raw, msg->header)
                         : ofpraw_pull(&raw, msg));
    if (error) {
        return error;
    }
    return msg->size ? 0 : EOF;
}

int
ofputil_decode_group_desc_reply(struct ofputil_group_desc *gd,
                                struct ofpbuf *msg, enum ofp_version version)
{
    memset(gd, 0, sizeof *gd);
    ovs_list_init(&gd->buckets);
    int retval = reply_start(msg);
    if (retval) {
        return retval;
    }
    if (!is_ofp15_layout(version)) {
        const struct ofp11_group_desc_stats *ogds
            = ofpbuf_try_pull(msg, sizeof *ogds);
        if (!ogds) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        size_t length = ntohs(ogds->length);
        if (length < sizeof *ogds || length - sizeof *ogds > msg->size) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        gd->type = ogds->type;
        gd->group_id = ntohl(ogds->group_id);
        return pull_ofp11_buckets(msg, length - sizeof *ogds, version,
                                  &gd->buckets);
    } else {
        const struct ofp15_group_desc_stats *ogds
            = ofpbuf_try_pull(msg, sizeof *ogds);
        if (!ogds) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        size_t length = ntohs(ogds->length);
        size_t buckets_len = ntohs(ogds->bucket_list_len);
        if (length < sizeof *ogds || length - sizeof *ogds > msg->size
            || buckets_len > length - sizeof *ogds) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        gd->type = ogds->type;
        gd->group_id = ntohl(ogds->group_id);
        enum ofperr error = pull_ofp15_buckets(msg, buckets_len, version,
                                               gd->type, &gd->buckets);
        if (!error) {
            struct ofpbuf props;
            ofpbuf_use_const(&props, ofpbuf_pull(msg, length - sizeof *ogds
                                                 - buckets_len),
                             length - sizeof *ogds - buckets_len);
            error = pull_group_props(&props, gd->type, &gd->props);
            if (error) {
                ofputil_bucket_list_destroy(&gd->buckets);
            }
        }
        return error;
    }
}

void
ofputil_group_desc_format(struct ds *s, const struct ofputil_group_desc *gd,
                          const struct ofputil_port_map *port_map,
                          enum ofp_version version)
{
    format_group(s, gd->group_id, gd->type, &gd->buckets, &gd->props,
                 port_map,
                 is_ofp15_layout(version), false);
}

enum ofperr
ofputil_group_desc_print(struct ds *s, const struct ofp_header *oh,
                         const struct ofputil_port_map *port_map)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    for (;;) {
        struct ofputil_group_desc gd;
        int retval = ofputil_decode_group_desc_reply(&gd, &b, oh->version);
        if (retval) {
            return retval == EOF ? 0 : retval;
        }
        ds_put_cstr(s, "\n ");
        ofputil_group_desc_format(s, &gd, port_map, oh->version);
        ofputil_uninit_group_desc(&gd);
    }
}

/* Group stats. */

struct ofpbuf *
ofputil_encode_group_stats_request(enum ofp_version version,
                                   uint32_t group_id)
{
    struct ofpbuf *msg = ofpraw_alloc(version == OFP10_VERSION
                                      ? OFPRAW_NXST_GROUP_REQUEST
                                      : OFPRAW_OFPST11_GROUP_REQUEST,
                                      version, 0);
    struct ofp11_group_stats_request *r = msg->msg;
    r->group_id = htonl(group_id);
    ofpmsg_update_length(msg);
    return msg;
}

enum ofperr
ofputil_decode_group_stats_request(const struct ofp_header *oh,
                                   uint32_t *group_id)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofpraw raw;
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }
    if (raw != OFPRAW_OFPST11_GROUP_REQUEST
        && raw != OFPRAW_NXST_GROUP_REQUEST) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    const struct ofp11_group_stats_request *r = ofpbuf_pull(&b, sizeof *r);
    *group_id = ntohl(r->group_id);
    return 0;
}

void
ofputil_append_group_stats(struct ovs_list *replies,
                           const struct ofputil_group_stats *gs)
{
    enum ofp_version version = ofpmp_version(replies);
    bool has_duration = version >= OFP13_VERSION || version == OFP10_VERSION;
    size_t base = (has_duration ? sizeof(struct ofp13_group_stats)
                   : sizeof(struct ofp11_group_stats));
    size_t len = base + gs->n_buckets * sizeof(struct ofp11_bucket_counter);
    uint8_t *p = ofpmp_append(replies, len);
    struct ofp11_group_stats *ogs = (void *) p;
    ogs->length = htons(len);
    ogs->group_id = htonl(gs->group_id);
    ogs->ref_count = htonl(gs->ref_count);
    ogs->packet_count = htonll(gs->packet_count);
    ogs->byte_count = htonll(gs->byte_count);
    if (has_duration) {
        struct ofp13_group_stats *ogs13 = (void *) p;
        ogs13->duration_sec = htonl(gs->duration_sec);
        ogs13->duration_nsec = htonl(gs->duration_nsec);
    }
    struct ofp11_bucket_counter *bc = (void *) (p + base);
    for (size_t i = 0; i < gs->n_buckets; i++) {
        bc[i].packet_count = htonll(gs->bucket_stats[i].packet_count);
        bc[i].byte_count = htonll(gs->bucket_stats[i].byte_count);
    }
}

int
ofputil_decode_group_stats_reply(struct ofpbuf *msg,
                                 struct ofputil_group_stats *gs)
{
    memset(gs, 0, sizeof *gs);
    int retval = reply_start(msg);
    if (retval) {
        return retval;
    }
    enum ofp_version version = ((const struct ofp_header *) msg->header)
                               ->version;
    bool has_duration = version >= OFP13_VERSION || version == OFP10_VERSION;
    size_t base = (has_duration ? sizeof(struct ofp13_group_stats)
                   : sizeof(struct ofp11_group_stats));
    if (msg->size < base) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    const struct ofp11_group_stats *ogs = msg->data;
    size_t length = ntohs(ogs->length);
    if (length < base || length > msg->size
        || (length - base) % sizeof(struct ofp11_bucket_counter)) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    const uint8_t *p = ofpbuf_pull(msg, length);
    gs->group_id = ntohl(ogs->group_id);
    gs->ref_count = ntohl(ogs->ref_count);
    gs->packet_count = ntohll(ogs->packet_count);
    gs->byte_count = ntohll(ogs->byte_count);
    if (has_duration) {
        const struct ofp13_group_stats *ogs13 = (const void *) p;
        gs->duration_sec = ntohl(ogs13->duration_sec);
        gs->duration_nsec = ntohl(ogs13->duration_nsec);
    } else {
        gs->duration_sec = gs->duration_nsec = UINT32_MAX;
    }
    gs->n_buckets = (length - base) / sizeof(struct ofp11_bucket_counter);
    gs->bucket_stats = xcalloc(gs->n_buckets ? gs->n_buckets : 1,
                               sizeof *gs->bucket_stats);
    const struct ofp11_bucket_counter *bc = (const void *) (p + base);
    for (size_t i = 0; i < gs->n_buckets; i++) {
        gs->bucket_stats[i].packet_count = ntohll(bc[i].packet_count);
        gs->bucket_stats[i].byte_count = ntohll(bc[i].byte_count);
    }
    return 0;
}

static void
format_count(struct ds *s, const char *name, uint64_t count)
{
    if (count == UINT64_MAX) {
        ds_put_format(s, "%s=?", name);
    } else {
        ds_put_format(s, "%s=%"PRIu64, name, count);
    }
}

enum ofperr
ofputil_group_stats_print(struct ds *s, const struct ofp_header *oh)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    for (;;) {
        struct ofputil_group_stats gs;
        int retval = ofputil_decode_group_stats_reply(&b, &gs);
        if (retval) {
            return retval == EOF ? 0 : retval;
        }
        ds_put_format(s, "\n group_id=%"PRIu32, gs.group_id);
        if (gs.duration_sec != UINT32_MAX) {
            ds_put_cstr(s, ",duration=");
            ofputil_format_duration(s, gs.duration_sec, gs.duration_nsec);
        }
        ds_put_format(s, ",ref_count=%"PRIu32",", gs.ref_count);
        format_count(s, "packet_count", gs.packet_count);
        ds_put_char(s, ',');
        format_count(s, "byte_count", gs.byte_count);
        for (size_t i = 0; i < gs.n_buckets; i++) {
            ds_put_format(s, ",bucket%zu:", i);
            format_count(s, "packet_count",
                         gs.bucket_stats[i].packet_count);
            ds_put_char(s, ',');
            format_count(s, "byte_count", gs.bucket_stats[i].byte_count);
        }
        free(gs.bucket_stats);
    }
}

/* Group features. */

/* Each announced action's name and its bit in 1.0's, 1.1's and 1.2+'s
 * action numbering (-1: none). */
static const struct {
    const char *name;
    int8_t bit10, bit11, bit12;
} group_actions[OFPUTIL_N_GA] = {
    [OFPUTIL_GA_OUTPUT] = { "output", 0, 0, 0 },
    [OFPUTIL_GA_GROUP] = { "group", -1, 22, 22 },
    [OFPUTIL_GA_SET_FIELD] = { "set_field", -1, -1, 25 },
    [OFPUTIL_GA_SET_VLAN_VID] = { "set_vlan_vid", 1, 1, -1 },
    [OFPUTIL_GA_SET_VLAN_PCP] = { "set_vlan_pcp", 2, 2, -1 },
    [OFPUTIL_GA_STRIP_VLAN] = { "strip_vlan", 3, 18, 18 },
    [OFPUTIL_GA_PUSH_VLAN] = { "push_vlan", -1, 17, 17 },
    [OFPUTIL_GA_SET_DL_SRC] = { "mod_dl_src", 4, 3, -1 },
    [OFPUTIL_GA_SET_DL_DST] = { "mod_dl_dst", 5, 4, -1 },
    [OFPUTIL_GA_SET_NW_SRC] = { "mod_nw_src", 6, 5, -1 },
    [OFPUTIL_GA_SET_NW_DST] = { "mod_nw_dst", 7, 6, -1 },
    [OFPUTIL_GA_SET_NW_TOS] = { "mod_nw_tos", 8, 7, -1 },
    [OFPUTIL_GA_SET_NW_ECN] = { "mod_nw_ecn", -1, 8, -1 },
    [OFPUTIL_GA_SET_NW_TTL] = { "mod_nw_ttl", -1, 23, 23 },
    [OFPUTIL_GA_SET_TP_SRC] = { "mod_tp_src", 9, 9, -1 },
    [OFPUTIL_GA_SET_TP_DST] = { "mod_tp_dst", 10, 10, -1 },
    [OFPUTIL_GA_DEC_TTL] = { "dec_ttl", -1, 24, 24 },
    [OFPUTIL_GA_SET_MPLS_LABEL] = { "set_mpls_label", -1, 13, -1 },
    [OFPUTIL_GA_SET_MPLS_TC] = { "set_mpls_tc", -1, 14, -1 },
    [OFPUTIL_GA_SET_MPLS_TTL] = { "set_mpls_ttl", -1, 15, 15 },
    [OFPUTIL_GA_DEC_MPLS_TTL] = { "dec_mpls_ttl", -1, 16, 16 },
    [OFPUTIL_GA_PUSH_MPLS] = { "push_mpls", -1, 19, 19 },
    [OFPUTIL_GA_POP_MPLS] = { "pop_mpls", -1, 20, 20 },
    [OFPUTIL_GA_SET_QUEUE] = { "set_queue", -1, 21, 21 },
    [OFPUTIL_GA_ENQUEUE] = { "enqueue", 11, -1, -1 },
};

static int
group_action_bit(size_t i, enum ofp_version version)
{
    return (version == OFP10_VERSION ? group_actions[i].bit10
            : version == OFP11_VERSION ? group_actions[i].bit11
            : group_actions[i].bit12);
}

static ovs_be32
group_actions_to_wire(uint64_t ofpacts, enum ofp_version version)
{
    uint32_t wire = 0;
    for (size_t i = 0; i < OFPUTIL_N_GA; i++) {
        int bit = group_action_bit(i, version);
        if (ofpacts & (UINT64_C(1) << i) && bit >= 0) {
            wire |= 1u << bit;
        }
    }
    return htonl(wire);
}

static uint64_t
group_actions_from_wire(ovs_be32 wire_be, enum ofp_version version)
{
    uint32_t wire = ntohl(wire_be);
    uint64_t ofpacts = 0;
    for (size_t i = 0; i < OFPUTIL_N_GA; i++) {
        int bit = group_action_bit(i, version);
        if (bit >= 0 && wire & (1u << bit)) {
            ofpacts |= UINT64_C(1) << i;
        }
    }
    return ofpacts;
}

struct ofpbuf *
ofputil_encode_group_features_request(enum ofp_version version)
{
    struct ofpbuf *msg = ofpraw_alloc(version <= OFP11_VERSION
                                      ? OFPRAW_NXST_GROUP_FEATURES_REQUEST
                                      : OFPRAW_OFPST12_GROUP_FEATURES_REQUEST,
                                      version, 0);
    ofpmsg_update_length(msg);
    return msg;
}

struct ofpbuf *
ofputil_encode_group_features_reply(const struct ofputil_group_features *gf,
                                    const struct ofp_header *request)
{
    struct ofpbuf *msg = ofpraw_alloc_stats_reply(request, 0);
    struct ofp12_group_features_stats *r = msg->msg;
    r->types = htonl(gf->types);
    r->capabilities = htonl(gf->capabilities);
    for (int i = 0; i < 4; i++) {
        r->max_groups[i] = htonl(gf->max_groups[i]);
        r->actions[i] = group_actions_to_wire(gf->ofpacts[i],
                                              request->version);
    }
    ofpmsg_update_length(msg);
    return msg;
}

enum ofperr
ofputil_decode_group_features_reply(const struct ofp_header *oh,
                                    struct ofputil_group_features *gf)
{
    enum ofpraw raw;
    enum ofperr error = ofpraw_decode(&raw, oh);
    if (error) {
        return error;
    }
    if (raw != OFPRAW_OFPST12_GROUP_FEATURES_REPLY
        && raw != OFPRAW_NXST_GROUP_FEATURES_REPLY) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    const struct ofp12_group_features_stats *r = ofpmsg_body(oh);
    gf->types = ntohl(r->types);
    gf->capabilities = ntohl(r->capabilities);
    for (int i = 0; i < 4; i++) {
        gf->max_groups[i] = ntohl(r->max_groups[i]);
        gf->ofpacts[i] = group_actions_from_wire(r->actions[i],
                                                 oh->version);
    }
    return 0;
}

enum ofperr
ofputil_group_features_print(struct ds *s, const struct ofp_header *oh)
{
    struct ofputil_group_features gf;
    enum ofperr error = ofputil_decode_group_features_reply(oh, &gf);
    if (error) {
        return error;
    }
    static const char *const type_names[] = {
        "all", "select", "indirect", "fast failover",
    };
    ds_put_format(s, "\n Group table:\n    Types:  0x%"PRIx32
                  "\n    Capabilities:  0x%"PRIx32, gf.types,
                  gf.capabilities);
    for (int i = 0; i < 4; i++) {
        if (gf.types & (1u << i)) {
            ds_put_format(s, "\n    %s group:\n       max_groups=%#"PRIx32
                          "\n       actions: ", type_names[i],
                          gf.max_groups[i]);
            for (size_t j = 0; j < OFPUTIL_N_GA; j++) {
                if (gf.ofpacts[i] & (UINT64_C(1) << j)) {
                    ds_put_format(s, "%s ", group_actions[j].name);
                }
            }
            ds_chomp(s, ' ');
        }
    }
    return 0;
}

enum ofperr
ofputil_group_request_print(struct ds *s, const struct ofp_header *oh)
{
    enum ofptype type;
    enum ofperr error = ofptype_decode(&type, oh);
    if (error) {
        return error;
    }
    uint32_t group_id;
    if (type == OFPTYPE_GROUP_DESC_STATS_REQUEST) {
        error = ofputil_decode_group_desc_request(oh, &group_id);
    } else if (type == OFPTYPE_GROUP_STATS_REQUEST) {
        error = ofputil_decode_group_stats_request(oh, &group_id);
    } else if (type == OFPTYPE_GROUP_FEATURES_STATS_REQUEST) {
        return 0;
    } else {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    if (!error) {
        ds_put_cstr(s, " group_id=");
        format_group_id(s, group_id);
    }
    return error;
}
