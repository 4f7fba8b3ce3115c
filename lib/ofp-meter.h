/* ofp-meter: meter messages (OpenFlow 1.3+), decoded.
 *
 * A meter limits the rate of the flows that use it (instruction or, in
 * 1.5, action "meter:N").  It has flags (kbps or pktps, burst, stats) and
 * bands; a band fires above its rate: "drop" drops, "dscp_remark" raises
 * the drop precedence by PREC_LEVEL.
 *
 *   struct ofputil_meter_mod     a meter_mod: add, modify, delete.
 *   struct ofputil_meter_config  one meter in a meter config reply.
 *   struct ofputil_meter_stats   one meter's counters and its bands'.
 *   struct ofputil_meter_features the meter features reply.
 *
 * Memory: decoders put bands into the caller's BANDS ofpbuf and point
 * the struct at it; parse_ofp_meter_mod_str() mallocs the bands array,
 * which the caller frees (free(mm->meter.bands)).
 *
 * Text: parse_ofp_meter_mod_str() reads ovs-ofctl's add-meter syntax
 * ("meter=1,kbps,burst,band=type=drop,rate=1000,burst_size=100"); the
 * printers write dump-meters / ofp-print text.
 *
 * The *_print() functions decode a whole message and append what 3.1's
 * ofp-print writes after the header line ("OFPT_... (xid=0x1):"), without
 * the final newline, or return the decoding error and append nothing
 * useful; they are the per-type printers for lib/ofp-print.
 *
 * Threads: pure functions. */
#ifndef OFP_METER_H
#define OFP_METER_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-protocol.h"
#include "openflow.h"
#include "util.h"

struct ds;
struct ofpbuf;
struct ovs_list;

struct ofputil_meter_band {
    uint16_t type;              /* OFPMBT13_*. */
    uint8_t prec_level;         /* dscp_remark only. */
    uint32_t rate;
    uint32_t burst_size;
};

struct ofputil_meter_config {
    uint32_t meter_id;
    uint16_t flags;             /* OFPMF13_*. */
    uint16_t n_bands;
    struct ofputil_meter_band *bands;
};

struct ofputil_meter_mod {
    uint16_t command;           /* OFPMC13_*. */
    struct ofputil_meter_config meter;
};

struct ofputil_meter_band_stats {
    uint64_t packet_count;
    uint64_t byte_count;
};

struct ofputil_meter_stats {
    uint32_t meter_id;
    uint32_t flow_count;
    uint64_t packet_in_count;
    uint64_t byte_in_count;
    uint32_t duration_sec;
    uint32_t duration_nsec;
    uint16_t n_bands;
    struct ofputil_meter_band_stats *bands;
};

struct ofputil_meter_features {
    uint32_t max_meters;
    uint32_t band_types;        /* Bitmap of 1 << OFPMBT13_*. */
    uint32_t capabilities;      /* OFPMF13_*. */
    uint8_t max_bands;
    uint8_t max_color;
};

enum ofputil_meter_request_type {
    OFPUTIL_METER_FEATURES,
    OFPUTIL_METER_CONFIG,
    OFPUTIL_METER_STATS,
};

/* meter_mod.  Errors as 3.1: OFPMMFC_BAD_COMMAND, BAD_FLAGS, BAD_BAND,
 * OFPBRC_BAD_LEN. */
enum ofperr ofputil_decode_meter_mod(const struct ofp_header *,
                                     struct ofputil_meter_mod *,
                                     struct ofpbuf *bands);
struct ofpbuf *ofputil_encode_meter_mod(enum ofp_version,
                                        const struct ofputil_meter_mod *);
/* COMMAND is OFPMC13_ADD, MODIFY or DELETE ("meter=all" for every meter
 * in a delete). */
char *parse_ofp_meter_mod_str(struct ofputil_meter_mod *, const char *string,
                              int command,
                              enum ofputil_protocol *usable_protocols)
    OVS_WARN_UNUSED_RESULT;
enum ofperr ofputil_meter_mod_print(struct ds *, const struct ofp_header *);

/* Requests: features, config (dump-meters) and stats (meter-stats).
 * METER_ID OFPM13_ALL: every meter. */
struct ofpbuf *ofputil_encode_meter_request(enum ofp_version,
                                            enum ofputil_meter_request_type,
                                            uint32_t meter_id);
enum ofperr ofputil_decode_meter_request(const struct ofp_header *,
                                         uint32_t *meter_id);

/* Replies. */
void ofputil_append_meter_config(struct ovs_list *replies,
                                 const struct ofputil_meter_config *);
void ofputil_append_meter_stats(struct ovs_list *replies,
                                const struct ofputil_meter_stats *);
struct ofpbuf *ofputil_encode_meter_features_reply(
    const struct ofputil_meter_features *, const struct ofp_header *request);
/* Pull one meter off MSG (EOF when none left); bands go into BANDS. */
int ofputil_decode_meter_config(struct ofpbuf *msg,
                                struct ofputil_meter_config *,
                                struct ofpbuf *bands);
int ofputil_decode_meter_stats(struct ofpbuf *msg,
                               struct ofputil_meter_stats *,
                               struct ofpbuf *bands);
void ofputil_decode_meter_features(const struct ofp_header *,
                                   struct ofputil_meter_features *);

/* "meter=1 kbps burst stats bands=\ntype=drop rate=1000 burst_size=100"
 * as dump-meters prints one meter. */
void ofputil_format_meter_config(struct ds *,
                                 const struct ofputil_meter_config *);
enum ofperr ofputil_meter_config_reply_print(struct ds *,
                                             const struct ofp_header *);
enum ofperr ofputil_meter_stats_reply_print(struct ds *,
                                            const struct ofp_header *);
enum ofperr ofputil_meter_features_reply_print(struct ds *,
                                               const struct ofp_header *);
enum ofperr ofputil_meter_request_print(struct ds *,
                                        const struct ofp_header *);

#endif /* ofp-meter.h */
