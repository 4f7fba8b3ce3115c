/* ofproto-tlv: a switch's TLV map (Geneve options as tun_metadata0..63):
 * NXT_TLV_TABLE_MOD and NXT_TLV_TABLE_REQUEST, and what flows may say
 * about tun_metadata given the map.  Main thread only. */
#include <config.h>

#include "ofproto-private.h"

#include <stdlib.h>
#include <string.h>
#include "classifier.h"
#include "learn.h"
#include "match.h"
#include "ofp-actions.h"
#include "ofp-fields.h"
#include "ofp-flow.h"
#include "ofp-tlv.h"
#include "tun-metadata.h"
#include "util.h"

static bool
is_tun_metadata(const struct mf_field *f)
{
    return f && f->id >= MFF_TUN_METADATA0 && f->id <= MFF_TUN_METADATA63;
}

/* The bits a set_field SET writes, as a sub-field for the checks below.  A
 * load (NXAST_REG_LOAD) names its bits: those from its mask's lowest 1-bit
 * to its highest.  A whole-entry set_field (OFPAT_SET_FIELD or
 * NXAST_REG_LOAD2) of a tun_metadata field names none: its value takes the
 * field's mapped width, whatever its length (fit_set_fields()). */
static struct mf_subfield
set_field_bits(const struct ofpact_set_field *set)
{
    const struct mf_field *f = set->field;
    struct mf_subfield sf = { .field = f, .ofs = 0, .n_bits = f->n_bits };
    if (set->ofpact.raw == OFPACT_RAW_REG_LOAD) {
        int high = bitwise_rscan(set->mask.b, f->n_bytes);
        unsigned int low = 0;
        while (high >= 0 && bitwise_is_all_zeros(set->mask.b, f->n_bytes,
                                                 low, 1)) {
            low++;
        }
        sf.ofs = high >= 0 ? low : 0;
        sf.n_bits = high >= 0 ? high - low + 1 : 0;
    } else if (is_tun_metadata(f)) {
        sf.n_bits = 0;
    }
    return sf;
}

/* Calls CB(SF, AUX) for every sub-field the actions read or write, until
 * CB returns nonzero, and returns that.  A set_field is passed as a
 * temporary sub-field of the bits it writes (set_field_bits()).  (An action that names fields must be
 * listed here for the TLV map to account for it.) */
static enum ofperr
for_each_field(const struct ofpact *ofpacts, size_t len,
               enum ofperr (*cb)(const struct mf_subfield *,
                                 const void *aux),
               const void *aux)
{
    const struct ofpact *a;
    enum ofperr error = 0;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        switch (a->type) {
        case OFPACT_SET_FIELD: {
            const struct ofpact_set_field *set = (const void *) a;
            struct mf_subfield sf = set_field_bits(set);
            error = cb(&sf, aux);
            break;
        }
        case OFPACT_REG_MOVE: {
            const struct ofpact_reg_move *rm = (const void *) a;
            error = cb(&rm->src, aux);
            if (!error) {
                error = cb(&rm->dst, aux);
            }
            break;
        }
        case OFPACT_LEARN: {
            const struct ofpact_learn *learn = (const void *) a;
            for (uint32_t i = 0; i < learn->n_specs && !error; i++) {
                const struct ofpact_learn_spec *spec = &learn->specs[i];
                if (spec->src_type == NX_LEARN_SRC_FIELD) {
                    error = cb(&spec->src, aux);
                }
                if (!error && spec->dst_type != NX_LEARN_DST_OUTPUT) {
                    error = cb(&spec->dst, aux);
                }
            }
            break;
        }
        case OFPACT_STACK_PUSH:
        case OFPACT_STACK_POP:
            error = cb(&((const struct ofpact_stack *) a)->subfield, aux);
            break;
        case OFPACT_OUTPUT_REG:
            error = cb(&((const struct ofpact_output_reg *) a)->src, aux);
            break;
        case OFPACT_MULTIPATH:
            error = cb(&((const struct ofpact_multipath *) a)->dst, aux);
            break;
        case OFPACT_BUNDLE: {
            const struct ofpact_bundle *b = (const void *) a;
            if (b->dst.field) {
                error = cb(&b->dst, aux);
            }
            break;
        }
        case OFPACT_CHECK_PKT_LARGER:
            error = cb(&((const struct ofpact_check_pkt_larger *) a)->dst,
                       aux);
            break;
        case OFPACT_CT: {
            const struct ofpact_conntrack *ct = (const void *) a;
            if (ct->zone_src.field) {
                error = cb(&ct->zone_src, aux);
            }
            if (!error) {
                error = for_each_field(ct->actions,
                                       ofpact_ct_get_action_len(ct), cb, aux);
            }
            break;
        }
        case OFPACT_WRITE_ACTIONS:
        case OFPACT_CLONE: {
            const struct ofpact_nest *on = (const void *) a;
            error = for_each_field(on->actions,
                                   ofpact_nest_get_action_len(on), cb, aux);
            break;
        }
        default:
            break;
        }
        if (error) {
            return error;
        }
    }
    return 0;
}

/* Whether a tun_metadata field use fits TABLE, the map. */
static enum ofperr
check_field_use(const struct mf_subfield *sf, const void *table_)
{
    const struct tun_table *table = table_;
    if (!is_tun_metadata(sf->field)) {
        return 0;
    }
    unsigned int len;
    if (!tun_table_field_len(table, sf->field->id - MFF_TUN_METADATA0,
                             &len)) {
        return OFPERR_NXFMFC_INVALID_TLV_FIELD;
    }
    return sf->ofs + sf->n_bits > len * 8 ? OFPERR_OFPBAC_BAD_SET_LEN : 0;
}

/* How many low-order bytes of F's VALUE (right-aligned) are significant. */
static unsigned int
significant_bytes(const struct mf_field *f, const union mf_value *value)
{
    unsigned int i = 0;
    while (i < f->n_bytes && !value->b[i]) {
        i++;
    }
    return f->n_bytes - i;
}

/* Makes every set_field of a tun_metadata field in the LEN bytes of
 * OFPACTS (a copy the caller owns) say what 3.1's switch makes of it,
 * reading it into a field of the width TABLE maps the field to.  A
 * whole-entry set_field's entry is as long as the value's (and a mask's)
 * significant bytes (nx_put_entry()); if that is longer than the mapped
 * width, only the entry's first bytes count, the value's most significant
 * ones.  A mask that covers the mapped width is no mask: the set_field
 * sets the whole field. */
static void
fit_set_fields(struct ofpact *ofpacts, size_t len,
               const struct tun_table *table)
{
    struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        if (a->type == OFPACT_SET_FIELD) {
            struct ofpact_set_field *set = (struct ofpact_set_field *) a;
            const struct mf_field *f = set->field;
            unsigned int width;
            if (!is_tun_metadata(f)
                || !tun_table_field_len(table, f->id - MFF_TUN_METADATA0,
                                        &width)) {
                continue;
            }
            bool masked = !mf_value_is_all_ones(f, &set->mask);
            unsigned int n = significant_bytes(f, &set->value);
            if (masked) {
                n = MAX(n, significant_bytes(f, &set->mask));
            }
            if (a->raw != OFPACT_RAW_REG_LOAD && n > width) {
                unsigned int drop = n - width;
                memmove(&set->value.b[drop], set->value.b, f->n_bytes - drop);
                memset(set->value.b, 0, drop);
                if (masked) {
                    memmove(&set->mask.b[drop], set->mask.b,
                            f->n_bytes - drop);
                    memset(set->mask.b, 0, drop);
                }
            }
            unsigned int ofs = f->n_bytes - MIN(width, f->n_bytes);
            bool covers = true;
            for (unsigned int i = ofs; i < f->n_bytes; i++) {
                covers &= set->mask.b[i] == 0xff;
            }
            if (covers) {
                memset(set->mask.b, 0xff, f->n_bytes);
            }
        } else if (a->type == OFPACT_WRITE_ACTIONS
                   || a->type == OFPACT_CLONE) {
            struct ofpact_nest *on = (struct ofpact_nest *) a;
            fit_set_fields(on->actions, ofpact_nest_get_action_len(on),
                           table);
        } else if (a->type == OFPACT_CT) {
            struct ofpact_conntrack *ct = (struct ofpact_conntrack *) a;
            fit_set_fields(ct->actions, ofpact_ct_get_action_len(ct), table);
        }
    }
}

static enum ofperr
find_tun_metadata(const struct mf_subfield *sf, const void *aux OVS_UNUSED)
{
    return is_tun_metadata(sf->field);
}

/* Points a tun_metadata sub-field at the switch's copy of its field.  SF
 * lies in a list ofproto_tlv_check_flow_mod() copied, so writing it is
 * sound. */
static enum ofperr
use_switch_field(const struct mf_subfield *sf, const void *ofproto_)
{
    const struct ofproto *ofproto = ofproto_;
    if (is_tun_metadata(sf->field)) {
        struct mf_subfield *w = (struct mf_subfield *) sf;
        w->field = &ofproto->tlv_fields[sf->field->id - MFF_TUN_METADATA0];
    }
    return 0;
}

enum ofperr
ofproto_tlv_check_flow_mod(const struct ofproto *ofproto,
                           struct ofputil_flow_mod *fm,
                           struct ofpact **ofpacts_copy)
{
    *ofpacts_copy = NULL;
    enum ofperr error = for_each_field(fm->ofpacts, fm->ofpacts_len,
                                       check_field_use, &ofproto->tun_table);
    if (error) {
        return error;
    }
    if (for_each_field(fm->ofpacts, fm->ofpacts_len, find_tun_metadata,
                       NULL)) {
        /* Sub-fields, unlike set_field values, carry the field's length
         * in their header: 3.1 gives the map's. */
        *ofpacts_copy = xmemdup(fm->ofpacts, fm->ofpacts_len);
        for_each_field(*ofpacts_copy, fm->ofpacts_len, use_switch_field,
                       ofproto);
        fit_set_fields(*ofpacts_copy, fm->ofpacts_len, &ofproto->tun_table);
        fm->ofpacts = *ofpacts_copy;
    }
    return tun_md_remap(&fm->match, &ofproto->tun_table);
}

enum ofperr
ofproto_tlv_check_match(const struct ofproto *ofproto, struct match *match)
{
    return tun_md_remap(match, &ofproto->tun_table);
}

void
ofproto_rule_get_match(const struct rule *rule, struct match *match)
{
    cls_rule_get_match(&rule->cr, &match->flow, &match->wc);
    tun_md_layout_from_table(match, &rule->ofproto->tun_table);
}

static enum ofperr
field_is(const struct mf_subfield *sf, const void *id_)
{
    const enum mf_field_id *id = id_;
    return sf->field && sf->field->id == *id;
}

/* Whether a flow of OFPROTO matches on, or has an action with, field
 * tun_metadataIDX: such a mapping must stay. */
static bool
tlv_field_in_use(unsigned int idx, void *ofproto_)
{
    struct ofproto *ofproto = ofproto_;
    enum mf_field_id id = MFF_TUN_METADATA(idx);
    for (int t = 0; t < OFPROTO_N_TABLES; t++) {
        const struct cls_rule *cr;
        CLS_FOR_EACH (cr, &ofproto->tables[t].cls) {
            const struct rule *rule = CONTAINER_OF(cr, struct rule, cr);
            struct match match;
            cls_rule_get_match(cr, &match.flow, &match.wc);
            if (match.wc.masks.tun_metadata.present & (UINT64_C(1) << idx)) {
                return true;
            }
            const struct rule_actions *a = ovsrcu_get(&rule->actions);
            if (for_each_field(a->ofpacts, a->ofpacts_len, field_is, &id)) {
                return true;
            }
        }
    }
    return false;
}

/* Makes OFPROTO's copies of the tun_metadata fields say the map's lengths
 * in their NXM headers.  A mapping a flow uses does not change, so the
 * fields its actions point to keep their meaning. */
static void
update_tlv_fields(struct ofproto *ofproto)
{
    for (unsigned int idx = 0; idx < TUN_METADATA_NUM_OPTS; idx++) {
        struct mf_field *f = &ofproto->tlv_fields[idx];
        *f = *mf_from_id(MFF_TUN_METADATA(idx));
        unsigned int len;
        if (tun_table_field_len(&ofproto->tun_table, idx, &len)) {
            f->nxm_header = NXM_HEADER(nxm_class(f->nxm_header),
                                       nxm_field(f->nxm_header), 0, len);
        }
    }
}

void
ofproto_tlv_init(struct ofproto *ofproto)
{
    tun_table_init(&ofproto->tun_table);
    update_tlv_fields(ofproto);
}

enum ofperr
ofproto_tlv_table_mod(struct ofproto *ofproto,
                      const struct ofputil_tlv_table_mod *ttm)
{
    enum ofperr error = tun_table_mod(&ofproto->tun_table, ttm->command,
                                      ttm->mappings, ttm->n_mappings,
                                      tlv_field_in_use, ofproto);
    if (!error) {
        update_tlv_fields(ofproto);
    }
    return error;
}

struct ofpbuf *
ofproto_tlv_table_reply(const struct ofproto *ofproto,
                        const struct ofp_header *request)
{
    struct ofputil_tlv_map maps[TUN_METADATA_NUM_OPTS];
    struct ofputil_tlv_table_reply ttr = {
        .max_option_space = TUN_METADATA_TOT_OPT_SIZE,
        .max_fields = TUN_METADATA_NUM_OPTS,
        .mappings = maps,
        .n_mappings = 0,
    };
    for (unsigned int i = 0; i < TUN_METADATA_NUM_OPTS; i++) {
        const struct tun_table_entry *e = &ofproto->tun_table.entries[i];
        if (e->mapped) {
            maps[ttr.n_mappings++] = (struct ofputil_tlv_map) {
                .option_class = e->opt_class,
                .option_type = e->type,
                .option_len = e->len,
                .index = i,
            };
        }
    }
    return ofputil_encode_tlv_table_reply(request, &ttr);
}
