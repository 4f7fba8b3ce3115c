/* ofp-tlv: the TLV map messages, Nicira's NXT_TLV_TABLE_MOD,
 * NXT_TLV_TABLE_REQUEST and NXT_TLV_TABLE_REPLY, which map Geneve options
 * to the fields tun_metadata0..63 (see tun-metadata.h for what a switch
 * does with them).
 *
 * Text: a map is written as ovs-ofctl's add-tlv-map takes it,
 * "{class=0xffff,type=0,len=4}->tun_metadata0,..."; messages print as
 * 3.1's ofp-print prints them.
 *
 * Memory: decoders and the parser fill MAPPINGS with a malloc'd array that
 * the caller frees with ofputil_tlv_maps_uninit().  Threads: values only. */
#ifndef OFP_TLV_H
#define OFP_TLV_H 1

#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "openflow.h"
#include "util.h"

struct ds;
struct ofpbuf;
struct ofp_header;

struct ofputil_tlv_map {
    uint16_t option_class;
    uint8_t option_type;
    uint8_t option_len;         /* Option data bytes. */
    uint16_t index;             /* tun_metadataINDEX. */
};

struct ofputil_tlv_table_mod {
    uint16_t command;           /* NXTTMC_ADD, _DELETE or _CLEAR. */
    struct ofputil_tlv_map *mappings;
    size_t n_mappings;
};

struct ofputil_tlv_table_reply {
    uint32_t max_option_space;
    uint16_t max_fields;
    struct ofputil_tlv_map *mappings;
    size_t n_mappings;
};

struct ofpbuf *ofputil_encode_tlv_table_mod(
    enum ofp_version, const struct ofputil_tlv_table_mod *);
/* Errors: OFPBRC_BAD_LEN, NXTTMFC_BAD_OPT_LEN (a length that is not a
 * multiple of 4 up to 124), NXTTMFC_BAD_FIELD_IDX (index 64 or more), each
 * logged as 3.1 logs it. */
enum ofperr ofputil_decode_tlv_table_mod(const struct ofp_header *,
                                         struct ofputil_tlv_table_mod *);
struct ofpbuf *ofputil_encode_tlv_table_request(enum ofp_version);
struct ofpbuf *ofputil_encode_tlv_table_reply(
    const struct ofp_header *request, const struct ofputil_tlv_table_reply *);
enum ofperr ofputil_decode_tlv_table_reply(const struct ofp_header *,
                                           struct ofputil_tlv_table_reply *);
void ofputil_tlv_table_mod_uninit(struct ofputil_tlv_table_mod *);
void ofputil_tlv_table_reply_uninit(struct ofputil_tlv_table_reply *);

/* Parses S (a map, as above; may be empty) into TTM with COMMAND.  Returns
 * NULL or a malloc'd error ("invalid tlv mapping"). */
char *parse_ofp_tlv_table_mod_str(struct ofputil_tlv_table_mod *,
                                  uint16_t command, const char *s)
    OVS_WARN_UNUSED_RESULT;

/* The body of ofp-print's text for each message. */
void ofputil_format_tlv_table_mod(struct ds *,
                                  const struct ofputil_tlv_table_mod *);
void ofputil_format_tlv_table_reply(struct ds *,
                                    const struct ofputil_tlv_table_reply *);

#endif /* ofp-tlv.h */
