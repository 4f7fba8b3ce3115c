/* tun-metadata: Geneve options as tun_metadata0..63.  See tun-metadata.h. */
#include <config.h>

#include "tun-metadata.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "dynamic-string.h"
#include "match.h"
#include "ofp-fields.h"
#include "ofp-tlv.h"
#include "util.h"

static inline uint64_t
opt_bit(unsigned int idx)
{
    return UINT64_C(1) << idx;
}

/* Bytes of the N-byte big-endian value P that matter: N minus its leading
 * zero bytes. */
static unsigned int
significant_len(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n && !p[i]) {
        i++;
    }
    return n - i;
}

static bool
all_bytes(const uint8_t *p, size_t n, uint8_t byte)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] != byte) {
            return false;
        }
    }
    return true;
}

void
tun_md_layout_init(struct tun_md_layout *layout)
{
    memset(layout, 0, sizeof *layout);
}

/* The pool offsets of the LEN bytes of field IDX under LAYOUT, in order,
 * into OFS.  Returns LEN, or fewer if the table maps less. */
static unsigned int
field_offsets(const struct tun_md_layout *layout, unsigned int idx,
              uint8_t ofs[TUN_METADATA_MAX_LEN])
{
    if (!layout->tab) {
        const struct tun_md_field *f = &layout->fields[idx];
        for (unsigned int i = 0; i < f->len; i++) {
            ofs[i] = f->ofs + i;
        }
        return f->len;
    }

    const struct tun_table *tab = layout->tab;
    unsigned int len = tab->entries[idx].len, n = 0;
    for (unsigned int c = 0; c < TUN_MD_N_CHUNKS && n < len; c++) {
        if (tab->owner[c] == idx) {
            for (unsigned int i = 0; i < TUN_MD_CHUNK && n < len; i++) {
                ofs[n++] = c * TUN_MD_CHUNK + i;
            }
        }
    }
    return n;
}

/* Copies field IDX of POOL (laid out as LAYOUT says) right-aligned into
 * OUT (TUN_METADATA_MAX_LEN bytes).  Returns the field's length. */
static unsigned int
pool_read(const struct tun_md_layout *layout, unsigned int idx,
          const uint8_t *pool, uint8_t *out)
{
    uint8_t ofs[TUN_METADATA_MAX_LEN];
    unsigned int len = field_offsets(layout, idx, ofs);
    memset(out, 0, TUN_METADATA_MAX_LEN);
    for (unsigned int i = 0; i < len; i++) {
        out[TUN_METADATA_MAX_LEN - len + i] = pool[ofs[i]];
    }
    return len;
}

/* Writes the last LEN bytes of the right-aligned IN into field IDX of
 * POOL. */
static void
pool_write(const struct tun_md_layout *layout, unsigned int idx,
           uint8_t *pool, const uint8_t *in)
{
    uint8_t ofs[TUN_METADATA_MAX_LEN];
    unsigned int len = field_offsets(layout, idx, ofs);
    for (unsigned int i = 0; i < len; i++) {
        pool[ofs[i]] = in[TUN_METADATA_MAX_LEN - len + i];
    }
}

char *
tun_md_set_match(struct match *match, unsigned int idx, const uint8_t *value,
                 const uint8_t *mask)
{
    struct tun_md_layout *layout = &match->tun_md;
    if (match->wc.masks.tun_metadata.present & opt_bit(idx)) {
        return xasprintf("field tun_metadata%u set multiple times", idx);
    }

    bool masked = mask && !all_bytes(mask, TUN_METADATA_MAX_LEN, 0xff);
    unsigned int len = significant_len(value, TUN_METADATA_MAX_LEN);
    if (masked) {
        len = MAX(len, significant_len(mask, TUN_METADATA_MAX_LEN));
    }
    if (!layout->tab) {
        if (layout->used + len > TUN_METADATA_TOT_OPT_SIZE) {
            return xasprintf("field tun_metadata%u exceeds maximum size for "
                             "tunnel metadata (used %u, max %d)", idx,
                             layout->used + len, TUN_METADATA_TOT_OPT_SIZE);
        }
        layout->fields[idx] = (struct tun_md_field) {
            .ofs = layout->used, .len = len, .masked = masked,
        };
        layout->used += len;
    } else {
        unsigned int mapped_len;
        if (!tun_table_field_len(layout->tab, idx, &mapped_len)) {
            return xasprintf("field tun_metadata%u is not mapped", idx);
        } else if (len > mapped_len) {
            return xasprintf("field tun_metadata%u exceeds its mapped length "
                             "(%u > %u)", idx, len, mapped_len);
        }
        layout->fields[idx] = (struct tun_md_field) {
            .len = mapped_len, .masked = masked,
        };
    }

    uint8_t v[TUN_METADATA_MAX_LEN], m[TUN_METADATA_MAX_LEN];
    for (size_t i = 0; i < TUN_METADATA_MAX_LEN; i++) {
        m[i] = masked ? mask[i] : 0xff;
        v[i] = value[i] & m[i];
    }
    pool_write(layout, idx, match->flow.tun_metadata.opts, v);
    pool_write(layout, idx, match->wc.masks.tun_metadata.opts, m);
    match->flow.tun_metadata.present |= opt_bit(idx);
    match->wc.masks.tun_metadata.present |= opt_bit(idx);
    return NULL;
}

void
tun_md_set_wild(struct match *match, unsigned int idx)
{
    if (!(match->wc.masks.tun_metadata.present & opt_bit(idx))) {
        return;
    }
    uint8_t zero[TUN_METADATA_MAX_LEN];
    memset(zero, 0, sizeof zero);
    pool_write(&match->tun_md, idx, match->flow.tun_metadata.opts, zero);
    pool_write(&match->tun_md, idx, match->wc.masks.tun_metadata.opts, zero);
    match->flow.tun_metadata.present &= ~opt_bit(idx);
    match->wc.masks.tun_metadata.present &= ~opt_bit(idx);
}

bool
tun_md_get_match(const struct match *match, unsigned int idx,
                 uint8_t *value, uint8_t *mask, unsigned int *lenp)
{
    uint8_t scratch[TUN_METADATA_MAX_LEN];
    value = value ? value : scratch;
    mask = mask ? mask : scratch;
    if (!(match->wc.masks.tun_metadata.present & opt_bit(idx))) {
        memset(value, 0, TUN_METADATA_MAX_LEN);
        memset(mask, 0, TUN_METADATA_MAX_LEN);
        if (lenp) {
            *lenp = 0;
        }
        return false;
    }
    unsigned int len = pool_read(&match->tun_md, idx,
                                 match->flow.tun_metadata.opts, value);
    pool_read(&match->tun_md, idx, match->wc.masks.tun_metadata.opts, mask);
    if (lenp) {
        *lenp = len;
    }
    return match->tun_md.fields[idx].masked;
}

/* LEN bytes as hex: "0x..." without leading zeros, or "0". */
static void
put_hex(struct ds *s, const uint8_t *p, unsigned int len)
{
    if (all_bytes(p, len, 0)) {
        ds_put_char(s, '0');
    } else {
        ds_put_hex(s, p, len);
    }
}

void
tun_md_format(const struct match *match, struct ds *s)
{
    uint64_t fields = match->wc.masks.tun_metadata.present;
    for (; fields; fields &= fields - 1) {
        unsigned int idx = __builtin_ctzll(fields);
        uint8_t value[TUN_METADATA_MAX_LEN], mask[TUN_METADATA_MAX_LEN];
        unsigned int len;
        bool masked = tun_md_get_match(match, idx, value, mask, &len);
        const uint8_t *v = value + TUN_METADATA_MAX_LEN - len;
        const uint8_t *m = mask + TUN_METADATA_MAX_LEN - len;

        ds_put_format(s, "tun_metadata%u", idx);
        if (!(match->flow.tun_metadata.present & opt_bit(idx))) {
            ds_put_cstr(s, "=NP");
        } else if (!(masked && all_bytes(m, len, 0))
                   && (len || !match->tun_md.tab)) {
            /* A field given with a mask prints it, as it came.  (An
             * option a TLV map gives no data is only there or not: its
             * name alone, as 3.1 prints it.) */
            ds_put_char(s, '=');
            put_hex(s, v, len);
            if (masked) {
                ds_put_char(s, '/');
                put_hex(s, m, len);
            }
        }
        ds_put_char(s, ',');
    }
}

/* TLV maps. */

void
tun_table_init(struct tun_table *tab)
{
    memset(tab->entries, 0, sizeof tab->entries);
    memset(tab->owner, TUN_MD_NO_OWNER, sizeof tab->owner);
}

unsigned int
tun_table_space_used(const struct tun_table *tab)
{
    unsigned int used = 0;
    for (size_t i = 0; i < TUN_METADATA_NUM_OPTS; i++) {
        if (tab->entries[i].mapped) {
            used += tab->entries[i].len;
        }
    }
    return used;
}

bool
tun_table_field_len(const struct tun_table *tab, unsigned int idx,
                    unsigned int *len)
{
    if (idx >= TUN_METADATA_NUM_OPTS || !tab->entries[idx].mapped) {
        return false;
    }
    *len = tab->entries[idx].len;
    return true;
}

static void
table_unmap(struct tun_table *tab, unsigned int idx)
{
    tab->entries[idx].mapped = false;
    for (size_t c = 0; c < TUN_MD_N_CHUNKS; c++) {
        if (tab->owner[c] == idx) {
            tab->owner[c] = TUN_MD_NO_OWNER;
        }
    }
}

static enum ofperr
table_add(struct tun_table *tab, const struct ofputil_tlv_map *map)
{
    struct tun_table_entry *e = &tab->entries[map->index];
    if (e->mapped) {
        return OFPERR_NXTTMFC_ALREADY_MAPPED;
    }
    for (size_t i = 0; i < TUN_METADATA_NUM_OPTS; i++) {
        const struct tun_table_entry *other = &tab->entries[i];
        if (other->mapped && other->opt_class == map->option_class
            && other->type == map->option_type) {
            return OFPERR_NXTTMFC_DUP_ENTRY;
        }
    }

    unsigned int need = map->option_len / TUN_MD_CHUNK, free_chunks = 0;
    for (size_t c = 0; c < TUN_MD_N_CHUNKS; c++) {
        free_chunks += tab->owner[c] == TUN_MD_NO_OWNER;
    }
    if (free_chunks < need) {
        return OFPERR_NXTTMFC_TABLE_FULL;
    }
    for (size_t c = 0; c < TUN_MD_N_CHUNKS && need; c++) {
        if (tab->owner[c] == TUN_MD_NO_OWNER) {
            tab->owner[c] = map->index;
            need--;
        }
    }
    *e = (struct tun_table_entry) {
        .mapped = true,
        .opt_class = map->option_class,
        .type = map->option_type,
        .len = map->option_len,
    };
    return 0;
}

enum ofperr
tun_table_mod(struct tun_table *tab, uint16_t command,
              const struct ofputil_tlv_map *maps, size_t n_maps,
              bool (*in_use)(unsigned int idx, void *aux), void *aux)
{
    struct tun_table new = *tab;
    enum ofperr error = 0;

    switch (command) {
    case NXTTMC_ADD:
        for (size_t i = 0; i < n_maps && !error; i++) {
            error = table_add(&new, &maps[i]);
        }
        break;

    case NXTTMC_DELETE:
        for (size_t i = 0; i < n_maps && !error; i++) {
            unsigned int idx = maps[i].index;
            if (new.entries[idx].mapped) {
                if (in_use(idx, aux)) {
                    error = OFPERR_NXTTMFC_INVALID_TLV_DEL;
                } else {
                    table_unmap(&new, idx);
                }
            }
        }
        break;

    case NXTTMC_CLEAR:
        for (unsigned int idx = 0; idx < TUN_METADATA_NUM_OPTS && !error;
             idx++) {
            if (new.entries[idx].mapped) {
                if (in_use(idx, aux)) {
                    error = OFPERR_NXTTMFC_INVALID_TLV_DEL;
                } else {
                    table_unmap(&new, idx);
                }
            }
        }
        break;

    default:
        error = OFPERR_NXTTMFC_BAD_COMMAND;
        break;
    }

    if (!error) {
        *tab = new;
    }
    return error;
}

enum ofperr
tun_md_remap(struct match *match, const struct tun_table *tab)
{
    uint64_t fields = match->wc.masks.tun_metadata.present;
    if (!fields && !match->tun_md.tab) {
        match->tun_md.tab = tab;
        return 0;
    }

    struct flow_tun_metadata value = { .present = 0 };
    struct flow_tun_metadata mask = { .present = 0 };
    struct tun_md_layout layout;
    tun_md_layout_init(&layout);
    layout.tab = tab;

    for (; fields; fields &= fields - 1) {
        unsigned int idx = __builtin_ctzll(fields);
        if (!tab->entries[idx].mapped) {
            return OFPERR_NXFMFC_INVALID_TLV_FIELD;
        }
        uint8_t v[TUN_METADATA_MAX_LEN], m[TUN_METADATA_MAX_LEN];
        unsigned int len;
        bool masked = tun_md_get_match(match, idx, v, m, &len);
        unsigned int mapped_len = tab->entries[idx].len;
        if (len > mapped_len) {
            return OFPERR_OFPBMC_BAD_LEN;
        }
        if (!masked) {
            /* Exact on the whole option, zero-extended. */
            memset(m, 0xff, TUN_METADATA_MAX_LEN);
        }
        pool_write(&layout, idx, value.opts, v);
        pool_write(&layout, idx, mask.opts, m);
        layout.fields[idx] = (struct tun_md_field) {
            .len = mapped_len,
            .masked = masked,
        };
    }
    value.present = match->flow.tun_metadata.present;
    mask.present = match->wc.masks.tun_metadata.present;
    match->flow.tun_metadata = value;
    match->wc.masks.tun_metadata = mask;
    match->tun_md = layout;
    tun_md_layout_from_table(match, tab);
    return 0;
}

void
tun_md_layout_from_table(struct match *match, const struct tun_table *tab)
{
    struct tun_md_layout *layout = &match->tun_md;
    tun_md_layout_init(layout);
    layout->tab = tab;
    uint64_t fields = match->wc.masks.tun_metadata.present;
    for (; fields; fields &= fields - 1) {
        unsigned int idx = __builtin_ctzll(fields);
        uint8_t m[TUN_METADATA_MAX_LEN];
        unsigned int len = pool_read(layout, idx,
                                     match->wc.masks.tun_metadata.opts, m);
        layout->fields[idx] = (struct tun_md_field) {
            .len = len,
            .masked = !len || !all_bytes(m + TUN_METADATA_MAX_LEN - len,
                                         len, 0xff),
        };
    }
}

/* Geneve options <-> pool. */

int
tun_md_from_geneve_udpif(const struct tun_table *tab, struct flow *flow)
{
    if (!(flow->tunnel.flags & FLOW_TNL_F_UDPIF)) {
        return 0;
    }
    const uint8_t *raw = flow->tun_metadata.opts;
    size_t len = flow->tun_metadata.present;
    if (len > sizeof flow->tun_metadata.opts) {
        return EINVAL;
    }
    struct tun_md_layout layout = { .tab = tab };
    struct flow_tun_metadata out;
    memset(&out, 0, sizeof out);
    for (size_t ofs = 0; ofs < len; ) {
        if (len - ofs < 4) {
            return EINVAL;
        }
        uint16_t opt_class = raw[ofs] << 8 | raw[ofs + 1];
        uint8_t type = raw[ofs + 2];
        unsigned int data_len = (raw[ofs + 3] & 0x1f) * 4;
        if (data_len > len - ofs - 4) {
            return EINVAL;
        }
        bool mapped = false;
        for (unsigned int idx = 0; idx < TUN_METADATA_NUM_OPTS; idx++) {
            const struct tun_table_entry *e = &tab->entries[idx];
            if (!e->mapped || e->opt_class != opt_class || e->type != type) {
                continue;
            }
            if (e->len != data_len) {
                return EINVAL;
            }
            uint8_t value[TUN_METADATA_MAX_LEN];
            memset(value, 0, sizeof value);
            memcpy(value + TUN_METADATA_MAX_LEN - data_len,
                   raw + ofs + 4, data_len);
            pool_write(&layout, idx, out.opts, value);
            out.present |= opt_bit(idx);
            mapped = true;
            break;
        }
        if (!mapped && type & 0x80) {
            return EINVAL;
        }
        ofs += 4 + data_len;
    }
    flow->tun_metadata = out;
    flow->tunnel.flags &= ~FLOW_TNL_F_UDPIF;
    return 0;
}

size_t
tun_md_to_geneve(const struct tun_table *tab,
                 const struct flow_tun_metadata *md, uint8_t *buf,
                 size_t max)
{
    struct tun_md_layout layout = { .tab = tab };
    size_t len = 0;
    for (unsigned int idx = 0; idx < TUN_METADATA_NUM_OPTS; idx++) {
        const struct tun_table_entry *e = &tab->entries[idx];
        if (!(md->present & opt_bit(idx)) || !e->mapped) {
            continue;
        }
        if (len + 4 + e->len > max) {
            return SIZE_MAX;
        }
        uint8_t value[TUN_METADATA_MAX_LEN];
        unsigned int n = pool_read(&layout, idx, md->opts, value);
        buf[len] = e->opt_class >> 8;
        buf[len + 1] = e->opt_class;
        buf[len + 2] = e->type;
        buf[len + 3] = n / 4;
        memcpy(buf + len + 4, value + TUN_METADATA_MAX_LEN - n, n);
        len += 4 + n;
    }
    return len;
}

/* Megaflows over Geneve options. */

void
tun_md_mask_for_output(const struct tun_table *tab,
                       const struct flow_tun_metadata *md,
                       struct flow_tun_metadata *mask)
{
    struct tun_md_layout layout = { .tab = tab };
    uint8_t ones[TUN_METADATA_MAX_LEN];
    memset(ones, 0xff, sizeof ones);
    for (unsigned int idx = 0; idx < TUN_METADATA_NUM_OPTS; idx++) {
        if (md->present & opt_bit(idx) && tab->entries[idx].mapped) {
            mask->present |= opt_bit(idx);
            pool_write(&layout, idx, mask->opts, ones);
        }
    }
}

/* The mapping of Geneve option CLASS/TYPE in TAB, or -1. */
static int
table_find(const struct tun_table *tab, uint16_t opt_class, uint8_t type)
{
    for (unsigned int idx = 0; idx < TUN_METADATA_NUM_OPTS; idx++) {
        const struct tun_table_entry *e = &tab->entries[idx];
        if (e->mapped && e->opt_class == opt_class && e->type == type) {
            return idx;
        }
    }
    return -1;
}

void
tun_md_wc_to_udpif(const struct tun_table *tab, const struct flow *flow,
                   struct flow_wildcards *wc)
{
    if (!(flow->tunnel.flags & FLOW_TNL_F_UDPIF)) {
        return;
    }
    const struct flow_tun_metadata decoded = wc->masks.tun_metadata;
    struct flow_tun_metadata *m = &wc->masks.tun_metadata;
    memset(m, 0, sizeof *m);
    /* The options' length, and that they are raw. */
    m->present = UINT64_MAX;
    wc->masks.tunnel.flags |= FLOW_TNL_F_UDPIF;

    struct tun_md_layout layout = { .tab = tab };
    const uint8_t *raw = flow->tun_metadata.opts;
    size_t len = MIN(flow->tun_metadata.present, sizeof m->opts);
    for (size_t ofs = 0; ofs < len; ) {
        size_t data_len = len - ofs >= 4 ? (raw[ofs + 3] & 0x1f) * 4 : 0;
        if (len - ofs < 4 || data_len > len - ofs - 4) {
            /* Malformed: translation dropped the packet for these very
             * bytes, so match them all. */
            memset(m->opts + ofs, 0xff, len - ofs);
            break;
        }
        /* Which options there are, in which order, decides what every
         * tun_metadataN is (present or not, mapped or refused). */
        memset(m->opts + ofs, 0xff, 4);
        int idx = table_find(tab, raw[ofs] << 8 | raw[ofs + 1], raw[ofs + 2]);
        if (idx >= 0 && tab->entries[idx].len == data_len) {
            /* A mapped option's data is tun_metadataIDX: as much of it
             * as translation looked at.  (Of two options of the same
             * class and type the last one counts; matching both is
             * narrower, never wrong.) */
            uint8_t bits[TUN_METADATA_MAX_LEN];
            pool_read(&layout, idx, decoded.opts, bits);
            memcpy(m->opts + ofs + 4, bits + TUN_METADATA_MAX_LEN - data_len,
                   data_len);
        }
        /* An unmapped option's data is seen by nobody, and a mapped one
         * of another length is refused whatever its data. */
        ofs += 4 + data_len;
    }
}

/* A packet's tun_metadataN, for translation. */

void
tun_md_flow_get(const struct tun_table *tab,
                const struct flow_tun_metadata *md, unsigned int idx,
                uint8_t *value)
{
    struct tun_md_layout layout = { .tab = tab };
    if (md->present & opt_bit(idx)) {
        pool_read(&layout, idx, md->opts, value);
    } else {
        memset(value, 0, TUN_METADATA_MAX_LEN);
    }
}

void
tun_md_flow_set(const struct tun_table *tab, struct flow_tun_metadata *md,
                unsigned int idx, const uint8_t *value,
                const uint8_t *mask)
{
    if (!tab->entries[idx].mapped) {
        return;
    }
    struct tun_md_layout layout = { .tab = tab };
    uint8_t old[TUN_METADATA_MAX_LEN], new[TUN_METADATA_MAX_LEN];
    /* An option that was absent starts from zero. */
    tun_md_flow_get(tab, md, idx, old);
    for (size_t i = 0; i < TUN_METADATA_MAX_LEN; i++) {
        new[i] = (old[i] & ~mask[i]) | (value[i] & mask[i]);
    }
    pool_write(&layout, idx, md->opts, new);
    md->present |= opt_bit(idx);
}

void
tun_md_wc_add(const struct tun_table *tab, struct flow_tun_metadata *mask,
              unsigned int idx, const uint8_t *bits)
{
    if (!tab->entries[idx].mapped) {
        return;
    }
    struct tun_md_layout layout = { .tab = tab };
    uint8_t old[TUN_METADATA_MAX_LEN];
    pool_read(&layout, idx, mask->opts, old);
    for (size_t i = 0; i < TUN_METADATA_MAX_LEN; i++) {
        old[i] |= bits[i];
    }
    pool_write(&layout, idx, mask->opts, old);
    mask->present |= opt_bit(idx);
}
