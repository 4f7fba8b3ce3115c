/* ofconn-table-features: OFPMP_TABLE_FEATURES for a connection (see the
 * header).  Main thread only. */
#include <config.h>
#include "ofconn-table-features.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "connmgr.h"
#include "list.h"
#include "ofconn.h"
#include "ofp-fields.h"
#include "ofp-msgs.h"
#include "ofp-table.h"
#include "ofpbuf.h"
#include "ofproto-private.h"
#include "openflow.h"
#include "util.h"

/* Tables 0 to 253 exist for OpenFlow. */
#define N_OPENFLOW_TABLES (OFPROTO_N_TABLES - 1)

/* The most a request's parts may take together: every table's features
 * take well under this. */
#define MAX_REQUEST_BYTES (4 * 1024 * 1024)

static void
field_bitmap_set(struct ofputil_field_bitmap *fb, enum mf_field_id id)
{
    fb->bits[id / 64] |= UINT64_C(1) << (id % 64);
}

/* A table matches (and may omit) every field, with a mask where the field
 * takes one; it has the instructions and actions translation runs
 * (xlate.c), set_field on every writable field, goto any later table. */
void
ofproto_table_features(const struct ofproto *ofproto, uint8_t table_id,
                       struct ofputil_table_features *tf)
{
    memset(tf, 0, sizeof *tf);
    tf->table_id = table_id;
    const char *name = ofproto_get_table_name(ofproto, table_id);
    if (name) {
        ovs_strzcpy(tf->name, name, sizeof tf->name);
    }
    unsigned int max_flows = ofproto_get_table_max_flows(ofproto, table_id);
    tf->max_entries = max_flows == UINT_MAX ? 1000000 : max_flows;
    tf->metadata_match = tf->metadata_write = UINT64_MAX;
    tf->miss_config = OFPUTIL_TABLE_MISS_DEFAULT;

    struct ofputil_table_instruction_features *inf = &tf->nonmiss;
    for (int t = table_id + 1; t < OFPROTO_N_TABLES - 1; t++) {
        inf->next[t / 64] |= UINT64_C(1) << (t % 64);
    }
    /* OFPIT_* bit numbers: goto_table 1, write_metadata 2, write_actions
     * 3, apply_actions 4, clear_actions 5, meter 6. */
    inf->instructions = ((table_id < OFPROTO_N_TABLES - 2 ? 1u << 1 : 0)
                         | 1u << 2 | 1u << 3 | 1u << 4 | 1u << 5 | 1u << 6);
    /* OFPAT 1.1+ numbers: output 0, set_mpls_ttl 15, dec_mpls_ttl 16,
     * push_vlan 17, pop_vlan 18, push_mpls 19, pop_mpls 20, set_queue 21,
     * group 22, set_nw_ttl 23, dec_nw_ttl 24, set_field 25. */
    uint64_t actions = (1u << 0 | 1u << 15 | 1u << 16 | 1u << 17 | 1u << 18
                        | 1u << 19 | 1u << 20 | 1u << 21 | 1u << 22
                        | 1u << 23 | 1u << 24 | 1u << 25);
    inf->write.actions = inf->apply.actions = actions;
    for (int id = 0; id < MFF_N_IDS; id++) {
        const struct mf_field *f = mf_from_id(id);
        field_bitmap_set(&tf->match, id);
        field_bitmap_set(&tf->wildcard, id);
        if (f->maskable == MFM_FULLY) {
            field_bitmap_set(&tf->mask, id);
        }
        if (f->writable) {
            field_bitmap_set(&inf->write.set_fields, id);
            field_bitmap_set(&inf->apply.set_fields, id);
        }
    }
    tf->miss = tf->nonmiss;
}

/* The tables REQUEST (its parts, decoded) lists, for OFPROTO: checked
 * whole, then their names set. */
static enum ofperr
change_tables(struct ofproto *ofproto,
              const struct ofputil_table_features *tfs, size_t n,
              enum ofp_version version)
{
    bool listed[N_OPENFLOW_TABLES] = { false };
    bool replace = false;
    for (size_t i = 0; i < n; i++) {
        const struct ofputil_table_features *tf = &tfs[i];
        if (tf->table_id >= N_OPENFLOW_TABLES || listed[tf->table_id]) {
            return OFPERR_OFPTFFC_BAD_TABLE;
        }
        listed[tf->table_id] = true;

        uint8_t command = (version >= OFP15_VERSION ? tf->command
                           : OFPTFC15_REPLACE);
        if (command > OFPTFC15_DISABLE) {
            return OFPERR_OFPTFFC_BAD_COMMAND;
        } else if (command == OFPTFC15_ENABLE
                   || command == OFPTFC15_DISABLE) {
            return OFPERR_OFPTFFC_EPERM;
        }
        replace |= command == OFPTFC15_REPLACE;

        struct ofputil_table_features cur;
        ofproto_table_features(ofproto, tf->table_id, &cur);
        if (!ofputil_table_features_are_superset(&cur, tf)
            || !ofproto_may_set_table_name(ofproto, tf->table_id,
                                           tf->name)) {
            return OFPERR_OFPTFFC_EPERM;
        }
    }
    if (replace && n != N_OPENFLOW_TABLES) {
        /* The pipeline's tables cannot come or go. */
        return OFPERR_OFPTFFC_EPERM;
    }
    for (size_t i = 0; i < n; i++) {
        ofproto_set_table_name(ofproto, tfs[i].table_id, tfs[i].name);
    }
    return 0;
}

/* Decodes the request in PARTS and carries it out. */
static enum ofperr
handle_request(struct ofproto *ofproto, const struct ovs_list *parts,
               enum ofp_version version)
{
    struct ofputil_table_features *tfs = NULL;
    size_t n = 0, allocated = 0;
    enum ofperr error = 0;
    const struct ofpbuf *part;
    LIST_FOR_EACH (part, list_node, parts) {
        struct ofpbuf b;
        ofpbuf_use_const(&b, part->data, part->size);
        int retval;
        do {
            if (n >= allocated) {
                tfs = x2nrealloc(tfs, &allocated, sizeof *tfs);
            }
            retval = ofputil_decode_table_features(&b, &tfs[n], false);
        } while (!retval && ++n);
        if (retval != EOF) {
            error = retval;
            break;
        }
    }
    if (!error && n) {
        error = change_tables(ofproto, tfs, n, version);
    }
    free(tfs);
    return error;
}

enum ofperr
ofconn_handle_table_features_request(struct ofconn *ofconn,
                                     const struct ofp_header *oh)
{
    struct ovs_list *parts = &ofconn->table_features_parts;
    size_t bytes = ntohs(oh->length);
    if (!ovs_list_is_empty(parts)) {
        const struct ofpbuf *first = ofpbuf_from_list(ovs_list_front(parts));
        const struct ofp_header *first_oh = first->data;
        if (first_oh->xid != oh->xid) {
            ofconn_table_features_clear(ofconn);
        }
    }
    const struct ofpbuf *part;
    LIST_FOR_EACH (part, list_node, parts) {
        bytes += part->size;
    }
    if (bytes > MAX_REQUEST_BYTES) {
        ofconn_table_features_clear(ofconn);
        return OFPERR_OFPBRC_MULTIPART_BUFFER_OVERFLOW;
    }
    ovs_list_push_back(parts,
                       &ofpbuf_clone_data(oh, ntohs(oh->length))->list_node);
    if (ofpmp_more(oh)) {
        return 0;
    }

    struct ofproto *ofproto = connmgr_get_ofproto(ofconn->mgr);
    enum ofperr error = handle_request(ofproto, parts, oh->version);
    ofconn_table_features_clear(ofconn);
    if (error) {
        return error;
    }

    struct ovs_list replies;
    ofpmp_init(&replies, oh);
    for (int i = 0; i < N_OPENFLOW_TABLES; i++) {
        struct ofputil_table_features tf;
        ofproto_table_features(ofproto, i, &tf);
        ofputil_append_table_features(&tf, &replies);
    }
    ofconn_send_replies(ofconn, &replies, NULL);
    return 0;
}

void
ofconn_table_features_clear(struct ofconn *ofconn)
{
    ofpbuf_list_delete(&ofconn->table_features_parts);
}
