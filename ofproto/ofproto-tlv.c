/* ofproto-tlv: a switch's TLV map (Geneve options as tun_metadata0..63):
 * NXT_TLV_TABLE_MOD and NXT_TLV_TABLE_REQUEST, and what flows may say
 * about tun_metadata given the map.  Main thread only. */
#include <config.h>

#include "ofproto-private.h"

#include <stdlib.h>
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

/* Calls CB(FIELD, OFS, N_BITS, AUX) for every field the actions read or
 * write, until CB returns nonzero, and returns that.  (An action that
 * names fields must be listed here for the TLV map to account for it.) */
static enum ofperr
for_each_field(const struct ofpact *ofpacts, size_t len,
               enum ofperr (*cb)(const struct mf_field *, unsigned int ofs,
                                 unsigned int n_bits, void *aux),
               void *aux)
{
    const struct ofpact *a;
    enum ofperr error = 0;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        switch (a->type) {
        case OFPACT_SET_FIELD: {
            const struct ofpact_set_field *sf = (const void *) a;
            error = cb(sf->field, 0, sf->field->n_bits, aux);
            break;
        }
        case OFPACT_REG_MOVE: {
            const struct ofpact_reg_move *rm = (const void *) a;
            error = cb(rm->src.field, rm->src.ofs, rm->src.n_bits, aux);
            if (!error) {
                error = cb(rm->dst.field, rm->dst.ofs, rm->dst.n_bits, aux);
            }
            break;
        }
        case OFPACT_LEARN: {
            const struct ofpact_learn *learn = (const void *) a;
            for (uint32_t i = 0; i < learn->n_specs && !error; i++) {
                const struct ofpact_learn_spec *spec = &learn->specs[i];
                if (spec->src_type == NX_LEARN_SRC_FIELD) {
                    error = cb(spec->src.field, spec->src.ofs,
                               spec->src.n_bits, aux);
                }
                if (!error && spec->dst_type != NX_LEARN_DST_OUTPUT) {
                    error = cb(spec->dst.field, spec->dst.ofs,
                               spec->dst.n_bits, aux);
                }
            }
            break;
        }
        case OFPACT_WRITE_ACTIONS: {
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

/* Whether a tun_metadata field use fits OFPROTO's map. */
struct field_use_check {
    const struct tun_table *table;
};

static enum ofperr
check_field_use(const struct mf_field *f, unsigned int ofs,
                unsigned int n_bits, void *check_)
{
    const struct field_use_check *check = check_;
    const struct tun_table *table = check->table;
    if (!is_tun_metadata(f)) {
        return 0;
    }
    unsigned int len;
    if (!tun_table_field_len(table, f->id - MFF_TUN_METADATA0, &len)) {
        return OFPERR_NXFMFC_INVALID_TLV_FIELD;
    }
    return ofs + n_bits > len * 8 ? OFPERR_OFPBAC_BAD_SET_LEN : 0;
}

enum ofperr
ofproto_tlv_check_flow_mod(const struct ofproto *ofproto,
                           struct ofputil_flow_mod *fm)
{
    struct field_use_check check = { &ofproto->tun_table };
    enum ofperr error = for_each_field(fm->ofpacts, fm->ofpacts_len,
                                       check_field_use, &check);
    return error ? error : tun_md_remap(&fm->match, &ofproto->tun_table);
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

struct field_search {
    enum mf_field_id id;
};

static enum ofperr
field_is(const struct mf_field *f, unsigned int ofs OVS_UNUSED,
         unsigned int n_bits OVS_UNUSED, void *search_)
{
    const struct field_search *search = search_;
    return f && f->id == search->id;
}

/* Whether a flow of OFPROTO matches on, or has an action with, field
 * tun_metadataIDX: such a mapping must stay. */
static bool
tlv_field_in_use(unsigned int idx, void *ofproto_)
{
    struct ofproto *ofproto = ofproto_;
    struct field_search search = { MFF_TUN_METADATA(idx) };
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
            if (for_each_field(a->ofpacts, a->ofpacts_len, field_is,
                               &search)) {
                return true;
            }
        }
    }
    return false;
}

enum ofperr
ofproto_tlv_table_mod(struct ofproto *ofproto,
                      const struct ofputil_tlv_table_mod *ttm)
{
    return tun_table_mod(&ofproto->tun_table, ttm->command, ttm->mappings,
                         ttm->n_mappings, tlv_field_in_use, ofproto);
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
