/* ofp-meter: meter_mod and the meter multipart messages (1.3+). */
#include <config.h>
#include "ofp-meter.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "list.h"
#include "ofp-flow.h"
#include "ofp-msgs.h"
#include "ofp-parse.h"
#include "ofpbuf.h"
#include "util.h"

/* Bands: every band type 3.1 knows is 16 bytes on the wire. */
static enum ofperr
pull_bands(struct ofpbuf *msg, size_t len, uint16_t *n_bands,
           struct ofpbuf *bands)
{
    const uint8_t *p = ofpbuf_try_pull(msg, len);
    if (!p) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    size_t start = bands->size;
    uint16_t n = 0;
    while (len >= sizeof(struct ofp13_meter_band_drop)) {
        const struct ofp13_meter_band_header *h = (const void *) p;
        if (ntohs(h->len) != sizeof(struct ofp13_meter_band_drop)) {
            bands->size = start;
            return OFPERR_OFPBRC_BAD_LEN;
        }
        uint16_t type = ntohs(h->type);
        if (type != OFPMBT13_DROP && type != OFPMBT13_DSCP_REMARK) {
            bands->size = start;
            return OFPERR_OFPMMFC_BAD_BAND;
        }
        struct ofputil_meter_band *mb = ofpbuf_put_zeros(bands, sizeof *mb);
        mb->type = type;
        mb->rate = ntohl(h->rate);
        mb->burst_size = ntohl(h->burst_size);
        if (type == OFPMBT13_DSCP_REMARK) {
            mb->prec_level
                = ((const struct ofp13_meter_band_dscp_remark *) p)->prec_level;
        }
        n++;
        p += sizeof(struct ofp13_meter_band_drop);
        len -= sizeof(struct ofp13_meter_band_drop);
    }
    if (len) {
        bands->size = start;
        return OFPERR_OFPBRC_BAD_LEN;
    }
    *n_bands = n;
    return 0;
}

static void
put_bands(struct ofpbuf *msg, const struct ofputil_meter_band *bands,
          uint16_t n_bands)
{
    for (size_t i = 0; i < n_bands; i++) {
        struct ofp13_meter_band_dscp_remark *b
            = ofpbuf_put_zeros(msg, sizeof *b);
        b->hdr.type = htons(bands[i].type);
        b->hdr.len = htons(sizeof *b);
        b->hdr.rate = htonl(bands[i].rate);
        b->hdr.burst_size = htonl(bands[i].burst_size);
        if (bands[i].type == OFPMBT13_DSCP_REMARK) {
            b->prec_level = bands[i].prec_level;
        }
    }
}

/* meter_mod. */

enum ofperr
ofputil_decode_meter_mod(const struct ofp_header *oh,
                         struct ofputil_meter_mod *mm, struct ofpbuf *bands)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofpraw raw;
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }
    if (raw != OFPRAW_OFPT13_METER_MOD) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    const struct ofp13_meter_mod *omm = ofpbuf_pull(&b, sizeof *omm);

    memset(mm, 0, sizeof *mm);
    mm->command = ntohs(omm->command);
    if (mm->command != OFPMC13_ADD && mm->command != OFPMC13_MODIFY
        && mm->command != OFPMC13_DELETE) {
        return OFPERR_OFPMMFC_BAD_COMMAND;
    }
    mm->meter.meter_id = ntohl(omm->meter_id);
    if (mm->command == OFPMC13_DELETE) {
        /* A delete's flags and bands mean nothing. */
        mm->meter.bands = bands->data;
        return 0;
    }
    mm->meter.flags = ntohs(omm->flags);
    if (mm->meter.flags & OFPMF13_KBPS && mm->meter.flags & OFPMF13_PKTPS) {
        return OFPERR_OFPMMFC_BAD_FLAGS;
    }
    size_t start = bands->size;
    error = pull_bands(&b, b.size, &mm->meter.n_bands, bands);
    if (error) {
        return error;
    }
    mm->meter.bands = (struct ofputil_meter_band *) ((uint8_t *) bands->data
                                                     + start);
    return 0;
}

struct ofpbuf *
ofputil_encode_meter_mod(enum ofp_version version,
                         const struct ofputil_meter_mod *mm)
{
    struct ofpbuf *msg = ofpraw_alloc(OFPRAW_OFPT13_METER_MOD, version,
                                      mm->meter.n_bands * 16);
    struct ofp13_meter_mod *omm = msg->msg;
    omm->command = htons(mm->command);
    if (mm->command != OFPMC13_DELETE) {
        omm->flags = htons(mm->meter.flags);
    }
    omm->meter_id = htonl(mm->meter.meter_id);
    if (mm->command != OFPMC13_DELETE) {
        put_bands(msg, mm->meter.bands, mm->meter.n_bands);
    }
    ofpmsg_update_length(msg);
    return msg;
}

/* Text. */

static void
format_meter_id(struct ds *s, uint32_t meter_id, char separator)
{
    ds_put_format(s, "meter%c", separator);
    if (meter_id <= OFPM13_MAX) {
        ds_put_format(s, "%"PRIu32, meter_id);
    } else if (meter_id == OFPM13_SLOWPATH) {
        ds_put_cstr(s, "slowpath");
    } else if (meter_id == OFPM13_CONTROLLER) {
        ds_put_cstr(s, "controller");
    } else if (meter_id == OFPM13_ALL) {
        ds_put_cstr(s, "all");
    } else {
        ds_put_cstr(s, "unknown");
    }
}

static void
format_meter_flags(struct ds *s, uint16_t flags)
{
    static const char *const names[] = { "kbps", "pktps", "burst", "stats" };
    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        if (flags & (1u << i)) {
            ds_put_format(s, "%s ", names[i]);
        }
    }
    flags &= ~0xf;
    if (flags) {
        ds_put_format(s, "flags:0x%"PRIx16" ", flags);
    }
}

static void
format_band(struct ds *s, uint16_t flags, const struct ofputil_meter_band *mb)
{
    ds_put_cstr(s, "\ntype=");
    if (mb->type == OFPMBT13_DROP) {
        ds_put_cstr(s, "drop");
    } else if (mb->type == OFPMBT13_DSCP_REMARK) {
        ds_put_cstr(s, "dscp_remark");
    } else {
        ds_put_format(s, "%"PRIu16, mb->type);
    }
    ds_put_format(s, " rate=%"PRIu32, mb->rate);
    if (flags & OFPMF13_BURST) {
        ds_put_format(s, " burst_size=%"PRIu32, mb->burst_size);
    }
    if (mb->type == OFPMBT13_DSCP_REMARK) {
        ds_put_format(s, " prec_level=%"PRIu8, mb->prec_level);
    }
}

void
ofputil_format_meter_config(struct ds *s,
                            const struct ofputil_meter_config *mc)
{
    format_meter_id(s, mc->meter_id, '=');
    ds_put_char(s, ' ');
    format_meter_flags(s, mc->flags);
    ds_put_cstr(s, "bands=");
    for (size_t i = 0; i < mc->n_bands; i++) {
        format_band(s, mc->flags, &mc->bands[i]);
    }
}

enum ofperr
ofputil_meter_mod_print(struct ds *s, const struct ofp_header *oh)
{
    struct ofputil_meter_mod mm;
    struct ofpbuf bands;
    ofpbuf_init(&bands, 64);
    enum ofperr error = ofputil_decode_meter_mod(oh, &mm, &bands);
    if (!error) {
        static const char *const commands[] = { "ADD", "MOD", "DEL" };
        ds_put_format(s, " %s ", commands[mm.command]);
        ofputil_format_meter_config(s, &mm.meter);
    }
    ofpbuf_uninit(&bands);
    return error;
}

/* Parses a uint32 for a band or meter key. */
static char *
parse_meter_id(const char *value, uint32_t *meter_id)
{
    if (!strcmp(value, "all")) {
        *meter_id = OFPM13_ALL;
    } else if (!strcmp(value, "controller")) {
        *meter_id = OFPM13_CONTROLLER;
    } else if (!strcmp(value, "slowpath")) {
        *meter_id = OFPM13_SLOWPATH;
    } else {
        return ofputil_parse_u32(value, meter_id);
    }
    return NULL;
}

static char *
parse_bands(char *s, struct ofpbuf *bands)
{
    struct ofputil_meter_band *band = NULL;
    char *name, *value, sep;
    while (ofputil_parse_key_value(&s, &name, &value, &sep)) {
        if (!ofputil_key_has_value(sep)) {
            value = NULL;
        }
        if (!value) {
            return xasprintf("field %s missing value", name);
        }
        if (!strcmp(name, "type")) {
            band = ofpbuf_put_zeros(bands, sizeof *band);
            if (!strcmp(value, "drop")) {
                band->type = OFPMBT13_DROP;
            } else if (!strcmp(value, "dscp_remark")) {
                band->type = OFPMBT13_DSCP_REMARK;
            } else {
                return xasprintf("field %s unknown value %s", name, value);
            }
            /* 0 marks "no rate given"; 3.1 refuses a rate of 0 too. */
        } else if (!band) {
            return xstrdup("band must start with the 'type' keyword");
        } else if (!strcmp(name, "rate")) {
            char *error = ofputil_parse_u32(value, &band->rate);
            if (error) {
                return error;
            }
        } else if (!strcmp(name, "burst_size")) {
            char *error = ofputil_parse_u32(value, &band->burst_size);
            if (error) {
                return error;
            }
        } else if (!strcmp(name, "prec_level")) {
            uint64_t x;
            char *error = ofputil_parse_uint(value, UINT8_MAX, &x);
            if (error) {
                free(error);
                return xasprintf("invalid prec_level \"%s\"", value);
            }
            band->prec_level = x;
        } else {
            return xasprintf("unknown keyword %s", name);
        }
    }
    size_t n = bands->size / sizeof *band;
    const struct ofputil_meter_band *all = bands->data;
    for (size_t i = 0; i < n; i++) {
        if (!all[i].rate) {
            return xstrdup("band must have 'rate'");
        }
        if (all[i].type != OFPMBT13_DSCP_REMARK && all[i].prec_level) {
            return xstrdup("Only 'dscp_remark' band may have 'prec_level'");
        }
    }
    return NULL;
}

static char *
parse_meter__(struct ofputil_meter_mod *mm, char *string, int command,
              struct ofpbuf *bands)
{
    bool have_meter = false;
    char *band_text = NULL;

    /* Everything from "band=" or "bands=" on describes bands. */
    char *b = strstr(string, "band");
    if (b && command != OFPMC13_DELETE) {
        char *eq = strchr(b, '=');
        if (eq) {
            *b = '\0';
            band_text = eq + 1;
        }
    }

    char *name, *value, sep;
    while (ofputil_parse_key_value(&string, &name, &value, &sep)) {
        if (!ofputil_key_has_value(sep)) {
            value = NULL;
        }
        if (command != OFPMC13_DELETE && !value) {
            if (!strcmp(name, "kbps")) {
                mm->meter.flags |= OFPMF13_KBPS;
                continue;
            } else if (!strcmp(name, "pktps")) {
                mm->meter.flags |= OFPMF13_PKTPS;
                continue;
            } else if (!strcmp(name, "burst")) {
                mm->meter.flags |= OFPMF13_BURST;
                continue;
            } else if (!strcmp(name, "stats")) {
                mm->meter.flags |= OFPMF13_STATS;
                continue;
            }
        }
        if (!value) {
            return xasprintf("field %s missing value", name);
        }
        if (!strcmp(name, "meter")) {
            char *error = parse_meter_id(value, &mm->meter.meter_id);
            if (error) {
                return error;
            }
            have_meter = true;
        } else {
            return xasprintf("unknown keyword %s", name);
        }
    }

    if (!have_meter) {
        return xstrdup("must specify 'meter'");
    }
    if (command == OFPMC13_DELETE) {
        return NULL;
    }
    if (!(mm->meter.flags & (OFPMF13_KBPS | OFPMF13_PKTPS))) {
        return xstrdup("meter must specify either 'kbps' or 'pktps'");
    }
    if (!band_text) {
        return xstrdup("must specify bands");
    }
    char *error = parse_bands(band_text, bands);
    if (error) {
        return error;
    }
    if (!bands->size) {
        return xstrdup("must specify bands");
    }
    return NULL;
}

char *
parse_ofp_meter_mod_str(struct ofputil_meter_mod *mm, const char *string,
                        int command, enum ofputil_protocol *usable_protocols)
{
    memset(mm, 0, sizeof *mm);
    mm->command = command;
    *usable_protocols = OFPUTIL_P_OF13_UP;

    struct ofpbuf bands;
    ofpbuf_init(&bands, 64);
    char *copy = xstrdup(string);
    char *error = parse_meter__(mm, copy, command, &bands);
    free(copy);
    if (error) {
        ofpbuf_uninit(&bands);
        memset(mm, 0, sizeof *mm);
        *usable_protocols = OFPUTIL_P_NONE;
        return error;
    }
    mm->meter.n_bands = bands.size / sizeof *mm->meter.bands;
    mm->meter.bands = ofpbuf_steal_data(&bands);
    return NULL;
}

/* Requests. */

static enum ofpraw
request_raw(enum ofputil_meter_request_type type)
{
    return (type == OFPUTIL_METER_FEATURES
            ? OFPRAW_OFPST13_METER_FEATURES_REQUEST
            : type == OFPUTIL_METER_CONFIG
            ? OFPRAW_OFPST13_METER_CONFIG_REQUEST
            : OFPRAW_OFPST13_METER_REQUEST);
}

struct ofpbuf *
ofputil_encode_meter_request(enum ofp_version version,
                             enum ofputil_meter_request_type type,
                             uint32_t meter_id)
{
    struct ofpbuf *msg = ofpraw_alloc(request_raw(type), version, 0);
    if (type != OFPUTIL_METER_FEATURES) {
        struct ofp13_meter_multipart_request *r = msg->msg;
        r->meter_id = htonl(meter_id);
    }
    ofpmsg_update_length(msg);
    return msg;
}

enum ofperr
ofputil_decode_meter_request(const struct ofp_header *oh, uint32_t *meter_id)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofpraw raw;
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }
    if (raw == OFPRAW_OFPST13_METER_FEATURES_REQUEST) {
        *meter_id = OFPM13_ALL;
        return 0;
    }
    if (raw != OFPRAW_OFPST13_METER_REQUEST
        && raw != OFPRAW_OFPST13_METER_CONFIG_REQUEST) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    const struct ofp13_meter_multipart_request *r = ofpbuf_try_pull(&b,
                                                                    sizeof *r);
    if (!r) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    *meter_id = ntohl(r->meter_id);
    return 0;
}

enum ofperr
ofputil_meter_request_print(struct ds *s, const struct ofp_header *oh)
{
    enum ofpraw raw;
    enum ofperr error = ofpraw_decode(&raw, oh);
    uint32_t meter_id;
    if (!error) {
        error = ofputil_decode_meter_request(oh, &meter_id);
    }
    if (!error && raw != OFPRAW_OFPST13_METER_FEATURES_REQUEST) {
        ds_put_char(s, ' ');
        format_meter_id(s, meter_id, '=');
    }
    return error;
}

/* Replies. */

void
ofputil_append_meter_config(struct ovs_list *replies,
                            const struct ofputil_meter_config *mc)
{
    struct ofpbuf *msg = ofpmp_reserve(replies, 8 + 16 * mc->n_bands);
    size_t start = msg->size;
    ofpbuf_put_zeros(msg, sizeof(struct ofp13_meter_config));
    put_bands(msg, mc->bands, mc->n_bands);
    struct ofp13_meter_config *c = ofpbuf_at_assert(msg, start, sizeof *c);
    c->length = htons(msg->size - start);
    c->flags = htons(mc->flags);
    c->meter_id = htonl(mc->meter_id);
    ofpmp_postappend(replies, start);
}

void
ofputil_append_meter_stats(struct ovs_list *replies,
                           const struct ofputil_meter_stats *ms)
{
    size_t len = sizeof(struct ofp13_meter_stats)
                 + ms->n_bands * sizeof(struct ofp13_meter_band_stats);
    struct ofp13_meter_stats *r = ofpmp_append(replies, len);
    r->meter_id = htonl(ms->meter_id);
    r->len = htons(len);
    r->flow_count = htonl(ms->flow_count);
    r->packet_in_count = htonll(ms->packet_in_count);
    r->byte_in_count = htonll(ms->byte_in_count);
    r->duration_sec = htonl(ms->duration_sec);
    r->duration_nsec = htonl(ms->duration_nsec);
    struct ofp13_meter_band_stats *bs = (void *) (r + 1);
    for (size_t i = 0; i < ms->n_bands; i++) {
        bs[i].packet_band_count = htonll(ms->bands[i].packet_count);
        bs[i].byte_band_count = htonll(ms->bands[i].byte_count);
    }
}

struct ofpbuf *
ofputil_encode_meter_features_reply(const struct ofputil_meter_features *mf,
                                    const struct ofp_header *request)
{
    struct ofpbuf *msg = ofpraw_alloc_stats_reply(request, 0);
    struct ofp13_meter_features *r = msg->msg;
    r->max_meter = htonl(mf->max_meters);
    r->band_types = htonl(mf->band_types);
    r->capabilities = htonl(mf->capabilities);
    r->max_bands = mf->max_bands;
    r->max_color = mf->max_color;
    ofpmsg_update_length(msg);
    return msg;
}

/* Starts or continues decoding the reply MSG (see
 * ofputil_decode_flow_stats_reply() for the protocol). */
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
ofputil_decode_meter_config(struct ofpbuf *msg,
                            struct ofputil_meter_config *mc,
                            struct ofpbuf *bands)
{
    int retval = reply_start(msg);
    if (retval) {
        return retval;
    }
    const struct ofp13_meter_config *c = ofpbuf_try_pull(msg, sizeof *c);
    if (!c) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    size_t len = ntohs(c->length);
    if (len < sizeof *c || len - sizeof *c > msg->size) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    memset(mc, 0, sizeof *mc);
    mc->meter_id = ntohl(c->meter_id);
    mc->flags = ntohs(c->flags);
    ofpbuf_clear(bands);
    enum ofperr error = pull_bands(msg, len - sizeof *c, &mc->n_bands,
                                   bands);
    if (error) {
        return error;
    }
    mc->bands = bands->data;
    return 0;
}

int
ofputil_decode_meter_stats(struct ofpbuf *msg,
                           struct ofputil_meter_stats *ms,
                           struct ofpbuf *bands)
{
    int retval = reply_start(msg);
    if (retval) {
        return retval;
    }
    const struct ofp13_meter_stats *r = ofpbuf_try_pull(msg, sizeof *r);
    if (!r) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    size_t len = ntohs(r->len);
    if (len < sizeof *r || len - sizeof *r > msg->size
        || (len - sizeof *r) % sizeof(struct ofp13_meter_band_stats)) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    memset(ms, 0, sizeof *ms);
    ms->meter_id = ntohl(r->meter_id);
    ms->flow_count = ntohl(r->flow_count);
    ms->packet_in_count = ntohll(r->packet_in_count);
    ms->byte_in_count = ntohll(r->byte_in_count);
    ms->duration_sec = ntohl(r->duration_sec);
    ms->duration_nsec = ntohl(r->duration_nsec);
    ms->n_bands = (len - sizeof *r) / sizeof(struct ofp13_meter_band_stats);
    ofpbuf_clear(bands);
    const struct ofp13_meter_band_stats *bs
        = ofpbuf_pull(msg, len - sizeof *r);
    for (size_t i = 0; i < ms->n_bands; i++) {
        struct ofputil_meter_band_stats *b = ofpbuf_put_zeros(bands,
                                                              sizeof *b);
        b->packet_count = ntohll(bs[i].packet_band_count);
        b->byte_count = ntohll(bs[i].byte_band_count);
    }
    ms->bands = bands->data;
    return 0;
}

void
ofputil_decode_meter_features(const struct ofp_header *oh,
                              struct ofputil_meter_features *mf)
{
    const struct ofp13_meter_features *r = ofpmsg_body(oh);
    mf->max_meters = ntohl(r->max_meter);
    mf->band_types = ntohl(r->band_types);
    mf->capabilities = ntohl(r->capabilities);
    mf->max_bands = r->max_bands;
    mf->max_color = r->max_color;
}

enum ofperr
ofputil_meter_config_reply_print(struct ds *s, const struct ofp_header *oh)
{
    struct ofpbuf b, bands;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    ofpbuf_init(&bands, 64);
    enum ofperr error = 0;
    for (bool first = true; ; first = false) {
        struct ofputil_meter_config mc;
        int retval = ofputil_decode_meter_config(&b, &mc, &bands);
        if (retval) {
            error = retval == EOF ? 0 : retval;
            break;
        }
        ds_put_cstr(s, first ? "\n" : "\n\n");
        ofputil_format_meter_config(s, &mc);
    }
    ofpbuf_uninit(&bands);
    return error;
}

enum ofperr
ofputil_meter_stats_reply_print(struct ds *s, const struct ofp_header *oh)
{
    struct ofpbuf b, bands;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    ofpbuf_init(&bands, 64);
    enum ofperr error = 0;
    for (bool first = true; ; first = false) {
        struct ofputil_meter_stats ms;
        int retval = ofputil_decode_meter_stats(&b, &ms, &bands);
        if (retval) {
            error = retval == EOF ? 0 : retval;
            break;
        }
        /* Meters are set apart by a blank line, as in config replies. */
        ds_put_cstr(s, first ? "\n" : "\n\n");
        format_meter_id(s, ms.meter_id, ':');
        ds_put_format(s, " flow_count:%"PRIu32" packet_in_count:%"PRIu64
                      " byte_in_count:%"PRIu64" duration:",
                      ms.flow_count, ms.packet_in_count, ms.byte_in_count);
        ofputil_format_duration(s, ms.duration_sec, ms.duration_nsec);
        ds_put_cstr(s, " bands:");
        for (size_t i = 0; i < ms.n_bands; i++) {
            ds_put_format(s, "\n%zu: packet_count:%"PRIu64
                          " byte_count:%"PRIu64, i,
                          ms.bands[i].packet_count, ms.bands[i].byte_count);
        }
    }
    ofpbuf_uninit(&bands);
    return error;
}

enum ofperr
ofputil_meter_features_reply_print(struct ds *s, const struct ofp_header *oh)
{
    enum ofpraw raw;
    enum ofperr error = ofpraw_decode(&raw, oh);
    if (error) {
        return error;
    }
    struct ofputil_meter_features mf;
    ofputil_decode_meter_features(oh, &mf);
    ds_put_format(s, "\nmax_meter:%"PRIu32" max_bands:%"PRIu8
                  " max_color:%"PRIu8"\n", mf.max_meters, mf.max_bands,
                  mf.max_color);
    ds_put_cstr(s, "band_types: ");
    if (mf.band_types & (1u << OFPMBT13_DROP)) {
        ds_put_cstr(s, "drop ");
    }
    if (mf.band_types & (1u << OFPMBT13_DSCP_REMARK)) {
        ds_put_cstr(s, "dscp_remark ");
    }
    ds_chomp(s, ' ');
    ds_put_cstr(s, "\ncapabilities: ");
    format_meter_flags(s, mf.capabilities);
    ds_chomp(s, ' ');
    return 0;
}
