/* tun-metadata: Geneve options as the match fields tun_metadata0..63.
 *
 * A Geneve packet carries options, each a (class, type) and 0 to 124
 * bytes of data.  A switch's TLV map (struct tun_table, changed by
 * NXT_TLV_TABLE_MOD) says which option each field tun_metadataN stands
 * for, how long it is and where its data sits in the 256-byte option pool
 * of struct flow (struct flow_tun_metadata).  Bit N of the pool's PRESENT
 * word says that option N is in the packet.
 *
 * A match needs to know where each of its tun_metadataN is in the pool and
 * how long it is: struct tun_md_layout, kept in struct match.  There are
 * two kinds of layout:
 *
 *   - dynamic, for a match parsed from text or decoded without a switch's
 *     map (ovs-ofctl): each field gets, in the order the match is built,
 *     the next bytes of the pool, as many as its value (and mask) need
 *     once leading zero bytes are dropped (3.1's rule, so that the same
 *     match encodes and prints as 3.1's), remembering whether it was
 *     given a mask;
 *   - a switch's, where every field lies where the TLV map puts it with
 *     the map's length: tun_md_remap() turns a dynamically laid out match
 *     into that (the switch does it to every match it receives), and
 *     tun_md_layout_from_table() describes a match the switch stored.
 *
 * Values handed in and out are right-aligned in TUN_METADATA_MAX_LEN bytes
 * (union mf_value's tun_metadata), as NXM entries zero-extend them.
 *
 * Threads: values only; a tun_table belongs to its switch, which changes
 * it only from its main thread and only in entries no flow uses. */
#ifndef TUN_METADATA_H
#define TUN_METADATA_H 1

#include <stdbool.h>
#include <stdint.h>
#include "flow.h"
#include "ofp-errors.h"
#include "util.h"

struct ds;
struct match;

struct tun_table;

/* Where one tun_metadataN of a dynamically laid out match lives (meaningful
 * only when the match's mask has bit N of tun_metadata.present). */
struct tun_md_field {
    uint8_t ofs;                /* Offset in the option pool. */
    uint8_t len;                /* Bytes of value, 0 to 124. */
    bool masked;                /* Given with a mask. */
};

struct tun_md_layout {
    /* A switch's map, which places every field (TAB's entries may be
     * split into 4-byte chunks anywhere in the pool), or NULL for a
     * dynamic layout described by FIELDS and USED. */
    const struct tun_table *tab;
    struct tun_md_field fields[TUN_METADATA_NUM_OPTS];
    uint16_t used;              /* Bytes handed out. */
};

void tun_md_layout_init(struct tun_md_layout *);

/* Makes MATCH match tun_metadataIDX on VALUE under MASK (NULL: exactly),
 * laid out dynamically.  Returns NULL, or a malloc'd error: the field was
 * already set in MATCH, or it does not fit in the pool. */
char *tun_md_set_match(struct match *, unsigned int idx,
                       const uint8_t *value, const uint8_t *mask)
    OVS_WARN_UNUSED_RESULT;
/* Stops MATCH matching on tun_metadataIDX. */
void tun_md_set_wild(struct match *, unsigned int idx);
/* tun_metadataIDX of MATCH: VALUE and MASK right-aligned (either may be
 * NULL), *LEN (if nonnull) its length.  Returns whether it was given a
 * mask.  All zero if MATCH does not match on it. */
bool tun_md_get_match(const struct match *, unsigned int idx,
                      uint8_t *value, uint8_t *mask, unsigned int *len);
/* Appends "tun_metadataN=0x...[/0x...]," for every tun_metadataN MATCH
 * matches on ("tun_metadataN," for presence alone, "=NP" for absence). */
void tun_md_format(const struct match *, struct ds *);

/* A switch's TLV map.  The pool is handed out in 4-byte chunks, first fit
 * (so a mapping may be split: 3.1 allocates so, and a table that 3.1
 * accepts must be accepted here too); OWNER says which field has each
 * chunk. */
#define TUN_MD_CHUNK 4
#define TUN_MD_N_CHUNKS (TUN_METADATA_TOT_OPT_SIZE / TUN_MD_CHUNK)
#define TUN_MD_NO_OWNER 0xff

struct tun_table_entry {
    bool mapped;
    uint16_t opt_class;
    uint8_t type;
    uint8_t len;                /* 0 to 124, a multiple of 4. */
};

struct tun_table {
    struct tun_table_entry entries[TUN_METADATA_NUM_OPTS];
    uint8_t owner[TUN_MD_N_CHUNKS];
};

void tun_table_init(struct tun_table *);
/* Bytes of the pool the mapped options take. */
unsigned int tun_table_space_used(const struct tun_table *);

/* Changes TABLE as NXT_TLV_TABLE_MOD COMMAND (NXTTMC_*) with MAPPINGS asks,
 * all or nothing.  IN_USE(IDX, AUX) says whether a flow uses field IDX
 * (a mapping in use may not be deleted).  Errors: NXTTMFC_BAD_COMMAND,
 * BAD_OPT_LEN, BAD_FIELD_IDX, ALREADY_MAPPED, DUP_ENTRY, TABLE_FULL,
 * INVALID_TLV_DEL. */
struct ofputil_tlv_map;
enum ofperr tun_table_mod(struct tun_table *, uint16_t command,
                          const struct ofputil_tlv_map *mappings,
                          size_t n_mappings,
                          bool (*in_use)(unsigned int idx, void *aux),
                          void *aux);

/* Lays MATCH's tun_metadata fields out as TABLE does, for a switch:
 * NXFMFC_INVALID_TLV_FIELD for a field TABLE does not map, OFPBMC_BAD_LEN
 * for one longer than its mapping.  A shorter value is zero-extended; an
 * exact one becomes exact over the mapping's length. */
enum ofperr tun_md_remap(struct match *, const struct tun_table *);
/* Describes MATCH, laid out as TABLE does, in MATCH's layout (for encoding
 * and printing what a switch stored): each field with TABLE's length,
 * masked if its mask is not all ones.  TABLE must outlive MATCH's use. */
void tun_md_layout_from_table(struct match *, const struct tun_table *);
/* Whether TABLE maps field IDX, and for how many bytes. */
bool tun_table_field_len(const struct tun_table *, unsigned int idx,
                         unsigned int *len);

/* Geneve options on the wire and a switch's pool.
 *
 * The datapath hands up a tunnelled packet's Geneve options raw (the
 * "UDPIF" form: tunnel.flags has FLOW_TNL_F_UDPIF, tun_metadata.present is
 * their length in bytes and opts the options as on the wire, see flow.h
 * and tnl-header.h).  tun_md_from_geneve_udpif() lays them out as TABLE
 * maps them, in place in FLOW: every option TABLE maps (same class, type
 * and length) sets its tun_metadataN and present bit; an unmapped option
 * is skipped unless it is critical (type bit 0x80).  Returns 0, or EINVAL
 * (FLOW unchanged) for malformed options, an unmapped critical option, or
 * a mapped one of another length, as 3.1 refuses them.  A FLOW without
 * the flag is left alone.
 *
 * tun_md_to_geneve() does the reverse for a packet leaving through a
 * Geneve port: the options for every present tun_metadataN of MD, in
 * index order, into BUF (at most MAX bytes); returns their length, or
 * SIZE_MAX if they do not fit.  The result is what tnl_header_build()
 * takes as geneve_opts. */
int tun_md_from_geneve_udpif(const struct tun_table *, struct flow *);

size_t tun_md_to_geneve(const struct tun_table *,
                        const struct flow_tun_metadata *md,
                        uint8_t *buf, size_t max);

/* Megaflows over Geneve options.
 *
 * Translation decodes a packet's options through the TLV map and looks
 * at tun_metadataN: the wildcards it gathers are about the decoded
 * fields (so ofproto/trace shows "tun_metadata0=0xb/0xf").  The datapath
 * matches the options raw.
 *
 * tun_md_mask_for_output() notes in MASK (a megaflow's, decoded) that an
 * output copies every present mapped tun_metadataN of MD into Geneve
 * options: their presence and all their bits.
 *
 * tun_md_wc_to_udpif() turns WC, gathered translating the raw FLOW (with
 * FLOW_TNL_F_UDPIF; nothing happens for another), into the mask of the
 * datapath flow: the options' length, and every option's class, type and
 * length exactly (which options a packet has and in which order decides
 * every field's presence); a mapped option's data under the mask WC has
 * for its tun_metadataN; an unmapped option's data not at all.  TABLE is
 * the map translation used. */
void tun_md_mask_for_output(const struct tun_table *,
                            const struct flow_tun_metadata *md,
                            struct flow_tun_metadata *mask);
void tun_md_wc_to_udpif(const struct tun_table *, const struct flow *,
                        struct flow_wildcards *);

/* A packet's tun_metadataIDX, laid out as TAB maps it, for translation
 * (the generic field accessors of ofp-fields.h cannot reach it).
 *
 * tun_md_flow_get(): its value right-aligned in VALUE, zero if absent.
 * tun_md_flow_set(): writes the bits of VALUE under MASK (right-aligned)
 * into it, which makes it present (an absent one starts from zero); a
 * field TAB does not map is left alone.
 * tun_md_wc_add(): adds BITS (right-aligned) and its present bit to
 * MASK, a megaflow's.  VALUE, MASK and BITS are TUN_METADATA_MAX_LEN
 * bytes (ofp-fields.h). */
void tun_md_flow_get(const struct tun_table *,
                     const struct flow_tun_metadata *md, unsigned int idx,
                     uint8_t *value);
void tun_md_flow_set(const struct tun_table *, struct flow_tun_metadata *md,
                     unsigned int idx,
                     const uint8_t *value,
                     const uint8_t *mask);
void tun_md_wc_add(const struct tun_table *, struct flow_tun_metadata *mask,
                   unsigned int idx,
                   const uint8_t *bits);

#endif /* tun-metadata.h */
