/* ofp-protocol: versions, protocols, hello.  See ofp-protocol.h. */
#include <config.h>

#include "ofp-protocol.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "dynamic-string.h"
#include "ofp-msgs.h"
#include "ofpbuf.h"
#include "packets.h"
#include "util.h"

static const char *const version_names[] = {
    [OFP10_VERSION] = "OpenFlow10",
    [OFP11_VERSION] = "OpenFlow11",
    [OFP12_VERSION] = "OpenFlow12",
    [OFP13_VERSION] = "OpenFlow13",
    [OFP14_VERSION] = "OpenFlow14",
    [OFP15_VERSION] = "OpenFlow15",
};

static const char *const version_short_names[] = {
    [OFP10_VERSION] = "OF1.0",
    [OFP11_VERSION] = "OF1.1",
    [OFP12_VERSION] = "OF1.2",
    [OFP13_VERSION] = "OF1.3",
    [OFP14_VERSION] = "OF1.4",
    [OFP15_VERSION] = "OF1.5",
};

const char *
ofputil_version_to_string(enum ofp_version version)
{
    return (version >= OFP10_VERSION && version <= OFP15_VERSION
            ? version_names[version] : NULL);
}

const char *
ofputil_version_short_name(enum ofp_version version)
{
    return (version >= OFP10_VERSION && version <= OFP15_VERSION
            ? version_short_names[version] : NULL);
}

enum ofp_version
ofputil_version_from_string(const char *s)
{
    for (int v = OFP10_VERSION; v <= OFP15_VERSION; v++) {
        if (!strcasecmp(s, version_names[v])) {
            return v;
        }
    }
    return 0;
}

char *
ofputil_versions_from_string(const char *s_, uint32_t *bitmap)
{
    char *s = xstrdup(s_);
    char *save = NULL;
    uint32_t result = 0;
    for (char *tok = strtok_r(s, ", \t", &save); tok;
         tok = strtok_r(NULL, ", \t", &save)) {
        enum ofp_version v = ofputil_version_from_string(tok);
        if (!v) {
            char *error = xasprintf("Unknown OpenFlow version: \"%s\"", tok);
            free(s);
            return error;
        }
        result |= 1u << v;
    }
    free(s);
    *bitmap = result;
    return NULL;
}

void
ofputil_format_version_bitmap_names(struct ds *s, uint32_t bitmap)
{
    bool first = true;
    for (int v = OFP10_VERSION; v <= OFP15_VERSION; v++) {
        if (bitmap & (1u << v)) {
            ds_put_format(s, "%s%s", first ? "" : ", ", version_names[v]);
            first = false;
        }
    }
}

void
ofputil_format_version_bitmap(struct ds *s, uint32_t bitmap)
{
    bool first = true;
    for (int v = 0; v < 32; v++) {
        if (bitmap & (1u << v)) {
            ds_put_format(s, "%s0x%02x", first ? "" : ", ", v);
            first = false;
        }
    }
}

/* Protocols. */

static const struct {
    enum ofputil_protocol protocol;
    const char *name;
} protocol_names[] = {
    { OFPUTIL_P_OF10_STD, "OpenFlow10-table_id" },
    { OFPUTIL_P_OF10_STD_TID, "OpenFlow10+table_id" },
    { OFPUTIL_P_OF10_NXM, "NXM-table_id" },
    { OFPUTIL_P_OF10_NXM_TID, "NXM+table_id" },
    { OFPUTIL_P_OF11_STD, "OpenFlow11" },
    { OFPUTIL_P_OF12_OXM, "OXM-OpenFlow12" },
    { OFPUTIL_P_OF13_OXM, "OXM-OpenFlow13" },
    { OFPUTIL_P_OF14_OXM, "OXM-OpenFlow14" },
    { OFPUTIL_P_OF15_OXM, "OXM-OpenFlow15" },
};

/* Groups, tried in this order when printing a set. */
static const struct {
    enum ofputil_protocol protocols;
    const char *name;
} protocol_groups[] = {
    { OFPUTIL_P_ANY, "any" },
    { OFPUTIL_P_OF10_STD_ANY, "OpenFlow10" },
    { OFPUTIL_P_OF10_NXM_ANY, "NXM" },
    { OFPUTIL_P_ANY_OXM, "OXM" },
};

enum ofp_version
ofputil_protocol_to_ofp_version(enum ofputil_protocol protocol)
{
    switch (protocol) {
    case OFPUTIL_P_OF10_STD:
    case OFPUTIL_P_OF10_STD_TID:
    case OFPUTIL_P_OF10_NXM:
    case OFPUTIL_P_OF10_NXM_TID:
        return OFP10_VERSION;
    case OFPUTIL_P_OF11_STD:
        return OFP11_VERSION;
    case OFPUTIL_P_OF12_OXM:
        return OFP12_VERSION;
    case OFPUTIL_P_OF13_OXM:
        return OFP13_VERSION;
    case OFPUTIL_P_OF14_OXM:
        return OFP14_VERSION;
    case OFPUTIL_P_OF15_OXM:
        return OFP15_VERSION;
    default:
        return 0;
    }
}

enum ofputil_protocol
ofputil_protocol_from_ofp_version(enum ofp_version version)
{
    switch (version) {
    case OFP10_VERSION: return OFPUTIL_P_OF10_STD;
    case OFP11_VERSION: return OFPUTIL_P_OF11_STD;
    case OFP12_VERSION: return OFPUTIL_P_OF12_OXM;
    case OFP13_VERSION: return OFPUTIL_P_OF13_OXM;
    case OFP14_VERSION: return OFPUTIL_P_OF14_OXM;
    case OFP15_VERSION: return OFPUTIL_P_OF15_OXM;
    default: return 0;
    }
}

enum ofputil_protocol
ofputil_protocols_from_version_bitmap(uint32_t bitmap)
{
    enum ofputil_protocol protocols = 0;
    if (bitmap & (1u << OFP10_VERSION)) {
        protocols |= OFPUTIL_P_OF10_ANY;
    }
    for (int v = OFP11_VERSION; v <= OFP15_VERSION; v++) {
        if (bitmap & (1u << v)) {
            protocols |= ofputil_protocol_from_ofp_version(v);
        }
    }
    return protocols;
}

uint32_t
ofputil_protocols_to_version_bitmap(enum ofputil_protocol protocols)
{
    uint32_t bitmap = 0;
    for (size_t i = 0; i < ARRAY_SIZE(protocol_names); i++) {
        if (protocols & protocol_names[i].protocol) {
            bitmap |= 1u << ofputil_protocol_to_ofp_version(
                protocol_names[i].protocol);
        }
    }
    return bitmap;
}

bool
ofputil_protocol_is_valid(enum ofputil_protocol protocol)
{
    return protocol && !(protocol & (protocol - 1))
           && (protocol & OFPUTIL_P_ANY) == protocol;
}

enum ofputil_protocol
ofputil_protocol_set_tid(enum ofputil_protocol protocol, bool enable)
{
    switch (protocol) {
    case OFPUTIL_P_OF10_STD:
    case OFPUTIL_P_OF10_STD_TID:
        return enable ? OFPUTIL_P_OF10_STD_TID : OFPUTIL_P_OF10_STD;
    case OFPUTIL_P_OF10_NXM:
    case OFPUTIL_P_OF10_NXM_TID:
        return enable ? OFPUTIL_P_OF10_NXM_TID : OFPUTIL_P_OF10_NXM;
    default:
        return protocol;
    }
}

enum ofputil_protocol
ofputil_protocol_to_base(enum ofputil_protocol protocol)
{
    return ofputil_protocol_set_tid(protocol, false);
}

enum ofputil_protocol
ofputil_protocol_set_base(enum ofputil_protocol cur,
                          enum ofputil_protocol new_base)
{
    bool tid = (cur & OFPUTIL_P_TID) != 0;
    return ofputil_protocol_set_tid(new_base, tid);
}

const char *
ofputil_protocol_to_string(enum ofputil_protocol protocol)
{
    for (size_t i = 0; i < ARRAY_SIZE(protocol_groups); i++) {
        if (protocol == protocol_groups[i].protocols) {
            return protocol_groups[i].name;
        }
    }
    for (size_t i = 0; i < ARRAY_SIZE(protocol_names); i++) {
        if (protocol == protocol_names[i].protocol) {
            return protocol_names[i].name;
        }
    }
    return NULL;
}

void
ofputil_format_protocols(struct ds *s, enum ofputil_protocol protocols)
{
    size_t start = s->length;
    for (size_t i = 0; i < ARRAY_SIZE(protocol_groups) && protocols; i++) {
        enum ofputil_protocol g = protocol_groups[i].protocols;
        if ((protocols & g) == g) {
            ds_put_format(s, "%s,", protocol_groups[i].name);
            protocols &= ~g;
        }
    }
    for (size_t i = 0; i < ARRAY_SIZE(protocol_names) && protocols; i++) {
        enum ofputil_protocol p = protocol_names[i].protocol;
        if (protocols & p) {
            ds_put_format(s, "%s,", protocol_names[i].name);
            protocols &= ~p;
        }
    }
    if (s->length > start) {
        ds_truncate(s, s->length - 1);
    } else {
        ds_put_cstr(s, "none");
    }
}

char *
ofputil_protocols_to_string(enum ofputil_protocol protocols)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    ofputil_format_protocols(&s, protocols);
    return ds_steal_cstr(&s);
}

static enum ofputil_protocol
protocol_from_name(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(protocol_names); i++) {
        if (!strcasecmp(name, protocol_names[i].name)) {
            return protocol_names[i].protocol;
        }
    }
    for (size_t i = 0; i < ARRAY_SIZE(protocol_groups); i++) {
        if (!strcasecmp(name, protocol_groups[i].name)) {
            return protocol_groups[i].protocols;
        }
    }
    return 0;
}

enum ofputil_protocol
ofputil_protocols_from_string(const char *s_)
{
    char *s = xstrdup(s_);
    char *save = NULL;
    enum ofputil_protocol protocols = 0;
    for (char *tok = strtok_r(s, ", \t", &save); tok;
         tok = strtok_r(NULL, ", \t", &save)) {
        enum ofputil_protocol p = protocol_from_name(tok);
        if (!p) {
            free(s);
            return 0;
        }
        protocols |= p;
    }
    free(s);
    return protocols;
}

/* Switching a 1.0 connection's protocol. */

struct ofpbuf *
ofputil_encode_nx_set_flow_format(enum ofputil_protocol protocol)
{
    struct ofpbuf *msg = ofpraw_alloc(OFPRAW_NXT_SET_FLOW_FORMAT,
                                      OFP10_VERSION, 0);
    struct nx_set_flow_format *sff = msg->msg;
    sff->format = htonl(protocol & OFPUTIL_P_OF10_NXM_ANY
                        ? NXFF_NXM : NXFF_OPENFLOW10);
    return msg;
}

bool
ofputil_nx_flow_format_is_valid(uint32_t format)
{
    return format == NXFF_OPENFLOW10 || format == NXFF_NXM;
}

enum ofputil_protocol
ofputil_nx_flow_format_to_protocol(uint32_t format)
{
    return (format == NXFF_NXM ? OFPUTIL_P_OF10_NXM
            : format == NXFF_OPENFLOW10 ? OFPUTIL_P_OF10_STD : 0);
}

const char *
ofputil_nx_flow_format_to_string(uint32_t format)
{
    return (format == NXFF_NXM ? "nxm"
            : format == NXFF_OPENFLOW10 ? "openflow10" : "unknown");
}

struct ofpbuf *
ofputil_encode_nx_flow_mod_table_id(bool enable)
{
    struct ofpbuf *msg = ofpraw_alloc(OFPRAW_NXT_FLOW_MOD_TABLE_ID,
                                      OFP10_VERSION, 0);
    struct nx_flow_mod_table_id *nfmti = msg->msg;
    nfmti->set = enable;
    return msg;
}

struct ofpbuf *
ofputil_encode_set_protocol(enum ofputil_protocol current,
                            enum ofputil_protocol want,
                            enum ofputil_protocol *next)
{
    enum ofp_version cur_version = ofputil_protocol_to_ofp_version(current);
    enum ofp_version want_version = ofputil_protocol_to_ofp_version(want);
    *next = current;
    if (cur_version != want_version || cur_version != OFP10_VERSION) {
        /* Only 1.0 connections have anything to switch. */
        return NULL;
    }

    enum ofputil_protocol cur_base = ofputil_protocol_to_base(current);
    enum ofputil_protocol want_base = ofputil_protocol_to_base(want);
    if (cur_base != want_base) {
        *next = ofputil_protocol_set_base(current, want_base);
        return ofputil_encode_nx_set_flow_format(want_base);
    }

    bool cur_tid = (current & OFPUTIL_P_TID) != 0;
    bool want_tid = (want & OFPUTIL_P_TID) != 0;
    if (cur_tid != want_tid) {
        *next = ofputil_protocol_set_tid(current, want_tid);
        return ofputil_encode_nx_flow_mod_table_id(want_tid);
    }
    return NULL;
}

/* Packet-in formats. */

static const char *const packet_in_format_names[] = {
    [NXPIF_STANDARD] = "standard",
    [NXPIF_NXT_PACKET_IN] = "nxt_packet_in",
    [NXPIF_NXT_PACKET_IN2] = "nxt_packet_in2",
};

bool
ofputil_packet_in_format_is_valid(uint32_t format)
{
    return format <= NXPIF_NXT_PACKET_IN2;
}

int
ofputil_packet_in_format_from_string(const char *s)
{
    if (!strcmp(s, "standard") || !strcmp(s, "openflow10")) {
        return NXPIF_STANDARD;
    }
    for (int i = 0; i < (int) ARRAY_SIZE(packet_in_format_names); i++) {
        if (!strcmp(s, packet_in_format_names[i])) {
            return i;
        }
    }
    return -1;
}

const char *
ofputil_packet_in_format_to_string(uint32_t format)
{
    return (format < ARRAY_SIZE(packet_in_format_names)
            ? packet_in_format_names[format] : "unknown");
}

struct ofpbuf *
ofputil_encode_set_packet_in_format(enum ofp_version version,
                                    enum ofputil_packet_in_format format)
{
    struct ofpbuf *msg = ofpraw_alloc(OFPRAW_NXT_SET_PACKET_IN_FORMAT,
                                      version, 0);
    struct nx_set_packet_in_format *spif = msg->msg;
    spif->format = htonl(format);
    return msg;
}

enum ofperr
ofputil_decode_set_packet_in_format(const struct ofp_header *oh,
                                    enum ofputil_packet_in_format *format)
{
    const struct nx_set_packet_in_format *spif = ofpmsg_body(oh);
    uint32_t f = ntohl(spif->format);
    if (!ofputil_packet_in_format_is_valid(f)) {
        return OFPERR_OFPBRC_EPERM;
    }
    *format = f;
    return 0;
}

struct ofpbuf *
ofputil_encode_set_controller_id(enum ofp_version version, uint16_t id)
{
    struct ofpbuf *msg = ofpraw_alloc(OFPRAW_NXT_SET_CONTROLLER_ID,
                                      version, 0);
    struct nx_controller_id *nci = msg->msg;
    nci->controller_id = htons(id);
    return msg;
}

enum ofperr
ofputil_decode_set_controller_id(const struct ofp_header *oh, uint16_t *id)
{
    const struct nx_controller_id *nci = ofpmsg_body(oh);
    for (size_t i = 0; i < sizeof nci->zero; i++) {
        if (nci->zero[i]) {
            return OFPERR_NXBRC_MUST_BE_ZERO;
        }
    }
    *id = ntohs(nci->controller_id);
    return 0;
}

/* Hello. */

struct ofpbuf *
ofputil_encode_hello(uint32_t bitmap)
{
    ovs_assert(bitmap & OFPUTIL_SUPPORTED_VERSIONS);
    enum ofp_version max = 31 - __builtin_clz(bitmap);
    struct ofpbuf *msg = ofpraw_alloc(OFPRAW_OFPT_HELLO, max, 0);

    /* A peer that sees no bitmap assumes every version up to MAX. */
    uint32_t implied = (1u << (max + 1)) - 2;
    if (bitmap != implied) {
        struct ofp_hello_elem_header *elem = ofpbuf_put_zeros(msg,
                                                              sizeof *elem);
        elem->type = htons(OFPHET_VERSIONBITMAP);
        elem->length = htons(sizeof *elem + 4);
        ovs_be32 be = htonl(bitmap);
        ofpbuf_put(msg, &be, 4);
        ofpmsg_update_length(msg);
    }
    return msg;
}

bool
ofputil_decode_hello(const struct ofp_header *oh, uint32_t *bitmapp)
{
    size_t len = ntohs(oh->length);
    uint32_t bitmap = oh->version >= 1 && oh->version < 32
                      ? (uint32_t) ((UINT64_C(1) << (oh->version + 1)) - 2)
                      : UINT32_MAX - 1;
    bool ok = true;

    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, len);
    ofpbuf_pull(&b, sizeof *oh);
    while (b.size > 0) {
        const struct ofp_hello_elem_header *elem = b.data;
        if (b.size < sizeof *elem) {
            ok = false;
            break;
        }
        size_t elen = ntohs(elem->length);
        if (elen < sizeof *elem || ROUND_UP(elen, 8) > b.size) {
            /* Elements are padded to 8 bytes; tolerate a missing pad on
             * the last one. */
            if (elen < sizeof *elem || elen > b.size) {
                ok = false;
                break;
            }
        }
        if (ntohs(elem->type) == OFPHET_VERSIONBITMAP) {
            size_t n_words = (elen - sizeof *elem) / 4;
            if (!n_words || (elen - sizeof *elem) % 4) {
                ok = false;
            } else {
                const ovs_be32 *words = (const void *) (elem + 1);
                bitmap = ntohl(words[0]) & ~1u;
            }
        }
        ofpbuf_pull(&b, MIN(ROUND_UP(elen, 8), b.size));
    }
    *bitmapp = bitmap;
    return ok;
}

enum ofp_version
ofputil_negotiate_version(uint32_t ours, uint32_t theirs)
{
    uint32_t common = ours & theirs;
    return common ? 31 - __builtin_clz(common) : 0;
}

/* Echo and barrier. */

struct ofpbuf *
ofputil_encode_echo_request(enum ofp_version version)
{
    return ofpraw_alloc_xid(OFPRAW_OFPT_ECHO_REQUEST, version, htonl(0), 0);
}

struct ofpbuf *
ofputil_encode_echo_reply(const struct ofp_header *rq)
{
    size_t len = ntohs(rq->length);
    struct ofpbuf *msg = ofpraw_alloc_reply(OFPRAW_OFPT_ECHO_REPLY, rq,
                                            len - sizeof *rq);
    ofpbuf_put(msg, rq + 1, len - sizeof *rq);
    ofpmsg_update_length(msg);
    return msg;
}

struct ofpbuf *
ofputil_encode_barrier_request(enum ofp_version version)
{
    return ofpraw_alloc(version == OFP10_VERSION
                        ? OFPRAW_OFPT10_BARRIER_REQUEST
                        : OFPRAW_OFPT11_BARRIER_REQUEST, version, 0);
}
