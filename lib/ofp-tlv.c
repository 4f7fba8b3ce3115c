/* ofp-tlv: the TLV map messages.  See ofp-tlv.h. */
#include <config.h>

#include "ofp-tlv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-fields.h"
#include "ofp-msgs.h"
#include "ofpbuf.h"
#include "util.h"
#include "vlog.h"

/* 3.1 logs these decoding errors as its match module. */
VLOG_USE_MODULE(ofp_match);

static void
put_maps(struct ofpbuf *b, const struct ofputil_tlv_map *maps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct nx_tlv_map *m = ofpbuf_put_zeros(b, sizeof *m);
        m->option_class = htons(maps[i].option_class);
        m->option_type = maps[i].option_type;
        m->option_len = maps[i].option_len;
        m->index = htons(maps[i].index);
    }
}

/* Decodes the mappings that fill the rest of B.  With CHECK (a table
 * mod), refuses what no switch can map. */
static enum ofperr
pull_maps(struct ofpbuf *b, bool check, struct ofputil_tlv_map **mapsp,
          size_t *n_mapsp)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
    size_t n = b->size / sizeof(struct nx_tlv_map);
    struct ofputil_tlv_map *maps = xcalloc(n ? n : 1, sizeof *maps);
    for (size_t i = 0; i < n; i++) {
        const struct nx_tlv_map *m = ofpbuf_pull(b, sizeof *m);
        maps[i] = (struct ofputil_tlv_map) {
            .option_class = ntohs(m->option_class),
            .option_type = m->option_type,
            .option_len = m->option_len,
            .index = ntohs(m->index),
        };
        if (!check) {
            continue;
        }
        if (maps[i].option_len % 4
            || maps[i].option_len > TUN_METADATA_MAX_LEN) {
            VLOG_WARN_RL(&rl, "tlv table option length (%u) is not a valid "
                         "option size", maps[i].option_len);
            free(maps);
            return OFPERR_NXTTMFC_BAD_OPT_LEN;
        }
        if (maps[i].index >= TUN_METADATA_NUM_OPTS) {
            VLOG_WARN_RL(&rl, "tlv table field index (%u) is too large "
                         "(max %u)", maps[i].index,
                         TUN_METADATA_NUM_OPTS - 1);
            free(maps);
            return OFPERR_NXTTMFC_BAD_FIELD_IDX;
        }
    }
    if (b->size) {
        free(maps);
        return OFPERR_OFPBRC_BAD_LEN;
    }
    *mapsp = maps;
    *n_mapsp = n;
    return 0;
}

struct ofpbuf *
ofputil_encode_tlv_table_mod(enum ofp_version version,
                             const struct ofputil_tlv_table_mod *ttm)
{
    struct ofpbuf *b = ofpraw_alloc(OFPRAW_NXT_TLV_TABLE_MOD, version, 0);
    struct nx_tlv_table_mod *nx = b->msg;
    nx->command = htons(ttm->command);
    put_maps(b, ttm->mappings, ttm->n_mappings);
    ofpmsg_update_length(b);
    return b;
}

enum ofperr
ofputil_decode_tlv_table_mod(const struct ofp_header *oh,
                             struct ofputil_tlv_table_mod *ttm)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    ofpraw_pull_assert(&b);
    const struct nx_tlv_table_mod *nx = ofpbuf_pull(&b, sizeof *nx);
    ttm->command = ntohs(nx->command);
    if (ttm->command > NXTTMC_CLEAR) {
        return OFPERR_NXTTMFC_BAD_COMMAND;
    }
    return pull_maps(&b, true, &ttm->mappings, &ttm->n_mappings);
}

struct ofpbuf *
ofputil_encode_tlv_table_request(enum ofp_version version)
{
    return ofpraw_alloc(OFPRAW_NXT_TLV_TABLE_REQUEST, version, 0);
}

struct ofpbuf *
ofputil_encode_tlv_table_reply(const struct ofp_header *request,
                               const struct ofputil_tlv_table_reply *ttr)
{
    struct ofpbuf *b = ofpraw_alloc_reply(OFPRAW_NXT_TLV_TABLE_REPLY,
                                          request, 0);
    struct nx_tlv_table_reply *nx = b->msg;
    nx->max_option_space = htonl(ttr->max_option_space);
    nx->max_fields = htons(ttr->max_fields);
    put_maps(b, ttr->mappings, ttr->n_mappings);
    ofpmsg_update_length(b);
    return b;
}

enum ofperr
ofputil_decode_tlv_table_reply(const struct ofp_header *oh,
                               struct ofputil_tlv_table_reply *ttr)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    ofpraw_pull_assert(&b);
    const struct nx_tlv_table_reply *nx = ofpbuf_pull(&b, sizeof *nx);
    ttr->max_option_space = ntohl(nx->max_option_space);
    ttr->max_fields = ntohs(nx->max_fields);
    return pull_maps(&b, false, &ttr->mappings, &ttr->n_mappings);
}

void
ofputil_tlv_table_mod_uninit(struct ofputil_tlv_table_mod *ttm)
{
    free(ttm->mappings);
    ttm->mappings = NULL;
    ttm->n_mappings = 0;
}

void
ofputil_tlv_table_reply_uninit(struct ofputil_tlv_table_reply *ttr)
{
    free(ttr->mappings);
    ttr->mappings = NULL;
    ttr->n_mappings = 0;
}

/* Reads "NAME=NUMBER" at *SP as a C integer of up to 64 bits, keeping its
 * low bits (3.1 reads "class=0x1ffff" as class 0xffff). */
static bool
parse_keyword_number(const char **sp, const char *name, uint64_t *x)
{
    size_t len = strlen(name);
    if (strncmp(*sp, name, len) || (*sp)[len] != '=') {
        return false;
    }
    const char *start = *sp + len + 1;
    char *end;
    errno = 0;
    *x = strtoull(start, &end, 0);
    if (end == start || errno || *start == '-') {
        return false;
    }
    *sp = end;
    return true;
}

static bool
parse_one_map(const char **sp, struct ofputil_tlv_map *map)
{
    const char *s = *sp;
    uint64_t class, type, len, idx;
    if (*s++ != '{'
        || !parse_keyword_number(&s, "class", &class) || *s++ != ','
        || !parse_keyword_number(&s, "type", &type) || *s++ != ','
        || !parse_keyword_number(&s, "len", &len)
        || strncmp(s, "}->tun_metadata", 15)) {
        return false;
    }
    s += 15;
    char *end;
    errno = 0;
    idx = strtoull(s, &end, 10);
    if (end == s || errno) {
        return false;
    }
    *map = (struct ofputil_tlv_map) {
        .option_class = class,
        .option_type = type,
        .option_len = len,
        .index = idx,
    };
    *sp = end;
    return true;
}

char *
parse_ofp_tlv_table_mod_str(struct ofputil_tlv_table_mod *ttm,
                            uint16_t command, const char *s)
{
    ttm->command = command;
    ttm->mappings = NULL;
    ttm->n_mappings = 0;

    size_t allocated = 0;
    while (*s) {
        if (ttm->n_mappings >= allocated) {
            ttm->mappings = x2nrealloc(ttm->mappings, &allocated,
                                       sizeof *ttm->mappings);
        }
        if (!parse_one_map(&s, &ttm->mappings[ttm->n_mappings])) {
            ofputil_tlv_table_mod_uninit(ttm);
            return xstrdup("invalid tlv mapping");
        }
        ttm->n_mappings++;
        if (*s == ',') {
            s++;
        } else if (*s) {
            ofputil_tlv_table_mod_uninit(ttm);
            return xstrdup("invalid tlv mapping");
        }
    }
    return NULL;
}

static void
format_maps(struct ds *s, const struct ofputil_tlv_map *maps, size_t n)
{
    ds_put_cstr(s, "  class  type  length  match field\n");
    ds_put_cstr(s, " ------  ----  ------  --------------");
    for (size_t i = 0; i < n; i++) {
        ds_put_format(s, "\n %#6"PRIx16" %#5"PRIx8" %7"PRIu8"  "
                      "tun_metadata%"PRIu16, maps[i].option_class,
                      maps[i].option_type, maps[i].option_len,
                      maps[i].index);
    }
}

void
ofputil_format_tlv_table_mod(struct ds *s,
                             const struct ofputil_tlv_table_mod *ttm)
{
    switch (ttm->command) {
    case NXTTMC_ADD:
        ds_put_cstr(s, "\n ADD");
        break;
    case NXTTMC_DELETE:
        ds_put_cstr(s, "\n DEL");
        break;
    case NXTTMC_CLEAR:
        ds_put_cstr(s, "\n CLEAR");
        return;
    }
    ds_put_cstr(s, " mapping table:\n");
    format_maps(s, ttm->mappings, ttm->n_mappings);
}

void
ofputil_format_tlv_table_reply(struct ds *s,
                               const struct ofputil_tlv_table_reply *ttr)
{
    unsigned int allocated = 0;
    for (size_t i = 0; i < ttr->n_mappings; i++) {
        allocated += ttr->mappings[i].option_len;
    }
    ds_put_format(s, "\n max option space=%"PRIu32" max fields=%"PRIu16"\n",
                  ttr->max_option_space, ttr->max_fields);
    ds_put_format(s, " allocated option space=%u\n", allocated);
    ds_put_cstr(s, "\n mapping table:\n");
    format_maps(s, ttr->mappings, ttr->n_mappings);
}
