/* ofp-switch: switch-wide messages.  See ofp-switch.h. */
#include <config.h>

#include "ofp-switch.h"

#include <inttypes.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-msgs.h"
#include "ofp-prop.h"
#include "ofp-phy-port.h"
#include "ofpbuf.h"
#include "packets.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_switch);

/* Copies the C string SRC into the fixed wire field DST of N bytes,
 * cutting it and NUL-padding. */
static void
put_fixed_string(char *dst, size_t n, const char *src)
{
    size_t len = strnlen(src, n);
    memcpy(dst, src, len);
    memset(dst + len, 0, n - len);
}

/* Copies the wire field SRC of N bytes, which need not be terminated,
 * into the C string DST of DST_SIZE bytes (cutting it if it must). */
static void
get_fixed_string(char *dst, size_t dst_size, const char *src, size_t n)
{
    size_t len = strnlen(src, n);
    if (len >= dst_size) {
        len = dst_size - 1;
    }
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* ------------------------------------------------------------------ */
/* Features. */

struct ofpbuf *
ofputil_encode_features_request(enum ofp_version version)
{
    return ofpraw_alloc(OFPRAW_OFPT_FEATURES_REQUEST, version, 0);
}

/* Capability bits: the wire bit, the internal bit and the versions that
 * have it. */
struct cap_map {
    uint32_t wire;
    uint32_t internal;
    enum ofp_version min, max;
};
static const struct cap_map cap_maps[] = {
    { OFPC_FLOW_STATS, OFPUTIL_C_FLOW_STATS, OFP10_VERSION, 0xff },
    { OFPC_TABLE_STATS, OFPUTIL_C_TABLE_STATS, OFP10_VERSION, 0xff },
    { OFPC_PORT_STATS, OFPUTIL_C_PORT_STATS, OFP10_VERSION, 0xff },
    { OFPC10_STP, OFPUTIL_C_STP, OFP10_VERSION, OFP10_VERSION },
    { OFPC11_GROUP_STATS, OFPUTIL_C_GROUP_STATS, OFP11_VERSION, 0xff },
    { OFPC_IP_REASM, OFPUTIL_C_IP_REASM, OFP10_VERSION, 0xff },
    { OFPC_QUEUE_STATS, OFPUTIL_C_QUEUE_STATS, OFP10_VERSION, 0xff },
    { OFPC_ARP_MATCH_IP, OFPUTIL_C_ARP_MATCH_IP, OFP10_VERSION,
      OFP11_VERSION },
    { OFPC12_PORT_BLOCKED, OFPUTIL_C_PORT_BLOCKED, OFP12_VERSION, 0xff },
    { OFPC14_BUNDLES, OFPUTIL_C_BUNDLES, OFP14_VERSION, 0xff },
    { OFPC14_FLOW_MONITORING, OFPUTIL_C_FLOW_MONITORING, OFP14_VERSION,
      0xff },
};

static uint32_t
capabilities_from_wire(uint32_t wire, enum ofp_version version)
{
    uint32_t caps = 0;
    for (size_t i = 0; i < ARRAY_SIZE(cap_maps); i++) {
        const struct cap_map *m = &cap_maps[i];
        if (version >= m->min && version <= m->max && wire & m->wire) {
            caps |= m->internal;
        }
    }
    return caps;
}

static uint32_t
capabilities_to_wire(uint32_t caps, enum ofp_version version)
{
    uint32_t wire = 0;
    for (size_t i = 0; i < ARRAY_SIZE(cap_maps); i++) {
        const struct cap_map *m = &cap_maps[i];
        if (version >= m->min && version <= m->max && caps & m->internal) {
            wire |= m->wire;
        }
    }
    return wire;
}

static enum ofpraw
features_reply_raw(enum ofp_version version)
{
    return (version == OFP10_VERSION ? OFPRAW_OFPT10_FEATURES_REPLY
            : version <= OFP12_VERSION ? OFPRAW_OFPT11_FEATURES_REPLY
            : OFPRAW_OFPT13_FEATURES_REPLY);
}

struct ofpbuf *
ofputil_encode_switch_features(const struct ofputil_switch_features *f,
                               enum ofp_version version, ovs_be32 xid)
{
    struct ofpbuf *b = ofpraw_alloc_xid(features_reply_raw(version), version,
                                        xid, 0);
    struct ofp_switch_features *osf = b->msg;
    osf->datapath_id = htonll(f->datapath_id);
    osf->n_buffers = htonl(f->n_buffers);
    osf->n_tables = f->n_tables;
    if (version >= OFP13_VERSION) {
        osf->auxiliary_id = f->auxiliary_id;
    }
    osf->capabilities = htonl(capabilities_to_wire(f->capabilities, version));
    if (version == OFP10_VERSION) {
        osf->actions = htonl(f->ofp10_actions);
    }
    return b;
}

bool
ofputil_switch_features_has_ports(const struct ofp_header *oh)
{
    return oh->version < OFP13_VERSION;
}

bool
ofputil_switch_features_has_room(const struct ofpbuf *b)
{
    const struct ofp_header *oh = b->data;
    size_t port_len = (oh->version == OFP10_VERSION
                       ? sizeof(struct ofp10_phy_port)
                       : sizeof(struct ofp11_port));
    return b->size + port_len <= UINT16_MAX;
}

bool
ofputil_switch_features_ports_complete(struct ofpbuf *reply)
{
    struct ofp_header *oh = reply->data;
    if (!ofputil_switch_features_has_ports(oh)) {
        return false;
    }
    if (ofputil_switch_features_has_room(reply)) {
        return true;
    }
    reply->size = sizeof *oh + sizeof(struct ofp_switch_features);
    oh->length = htons(reply->size);
    return false;
}

void
ofputil_put_switch_features_port(const struct ofputil_phy_port *pp,
                                 struct ofpbuf *b)
{
    const struct ofp_header *oh = b->header;
    if (ofputil_switch_features_has_ports(oh)) {
        ofputil_put_phy_port(oh->version, pp, b);
    }
}

enum ofperr
ofputil_pull_switch_features(struct ofpbuf *b,
                             struct ofputil_switch_features *f)
{
    const struct ofp_header *oh = b->data;
    enum ofpraw raw;
    enum ofperr error = ofpraw_pull(&raw, b);
    if (error) {
        return error;
    }
    if (ofptype_from_ofpraw(raw) != OFPTYPE_FEATURES_REPLY) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    const struct ofp_switch_features *osf
        = ofpbuf_pull(b, sizeof *osf);
    memset(f, 0, sizeof *f);
    f->datapath_id = ntohll(osf->datapath_id);
    f->n_buffers = ntohl(osf->n_buffers);
    f->n_tables = osf->n_tables;
    if (oh->version >= OFP13_VERSION) {
        f->auxiliary_id = osf->auxiliary_id;
    }
    f->capabilities = capabilities_from_wire(ntohl(osf->capabilities),
                                             oh->version);
    if (oh->version == OFP10_VERSION) {
        f->ofp10_actions = ntohl(osf->actions);
    }
    return 0;
}

static const char *const capability_names[] = {
    "FLOW_STATS", "TABLE_STATS", "PORT_STATS", "STP", "GROUP_STATS",
    "IP_REASM", "QUEUE_STATS", "ARP_MATCH_IP", "PORT_BLOCKED", "BUNDLES",
    "FLOW_MONITORING",
};

void
ofputil_capabilities_format(struct ds *s, uint32_t caps)
{
    if (!caps) {
        ds_put_char(s, '0');
        return;
    }
    bool first = true;
    for (size_t i = 0; i < ARRAY_SIZE(capability_names); i++) {
        if (caps & (1u << i)) {
            if (!first) {
                ds_put_char(s, ' ');
            }
            ds_put_cstr(s, capability_names[i]);
            first = false;
        }
    }
}

void
ofputil_ofp10_actions_format(struct ds *s, uint32_t actions)
{
    /* Printed in the order of the actions' internal forms, which puts
     * enqueue (OFPAT10 number 11) right after output. */
    static const struct {
        int bit;
        const char *name;
    } names[] = {
        { 0, "output" }, { 11, "enqueue" }, { 1, "set_vlan_vid" },
        { 2, "set_vlan_pcp" }, { 3, "strip_vlan" }, { 4, "mod_dl_src" },
        { 5, "mod_dl_dst" }, { 6, "mod_nw_src" }, { 7, "mod_nw_dst" },
        { 8, "mod_nw_tos" }, { 9, "mod_tp_src" }, { 10, "mod_tp_dst" },
    };
    bool first = true;
    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        if (actions & (1u << names[i].bit)) {
            if (!first) {
                ds_put_char(s, ' ');
            }
            ds_put_cstr(s, names[i].name);
            first = false;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Switch configuration. */

static const char *const frag_names[] = {
    [OFPUTIL_FRAG_NORMAL] = "normal",
    [OFPUTIL_FRAG_DROP] = "drop",
    [OFPUTIL_FRAG_REASM] = "reassemble",
    [OFPUTIL_FRAG_NX_MATCH] = "nx-match",
};

const char *
ofputil_frag_handling_to_string(enum ofputil_frag_handling frag)
{
    return (unsigned int) frag < ARRAY_SIZE(frag_names)
           ? frag_names[frag] : "<error>";
}

bool
ofputil_frag_handling_from_string(const char *s,
                                  enum ofputil_frag_handling *frag)
{
    for (size_t i = 0; i < ARRAY_SIZE(frag_names); i++) {
        if (!strcasecmp(s, frag_names[i])) {
            *frag = i;
            return true;
        }
    }
    return false;
}

struct ofpbuf *
ofputil_encode_get_config_request(enum ofp_version version)
{
    return ofpraw_alloc(OFPRAW_OFPT_GET_CONFIG_REQUEST, version, 0);
}

static void
put_switch_config(const struct ofputil_switch_config *config,
                  enum ofp_version version, struct ofpbuf *b)
{
    struct ofp_switch_config *osc = b->msg;
    uint16_t flags = config->frag & OFPC_FRAG_MASK;
    if (version < OFP13_VERSION && config->invalid_ttl_to_controller == 1) {
        flags |= OFPC_INVALID_TTL_TO_CONTROLLER;
    }
    osc->flags = htons(flags);
    osc->miss_send_len = htons(config->miss_send_len);
}

struct ofpbuf *
ofputil_encode_get_config_reply(const struct ofp_header *request,
                                const struct ofputil_switch_config *config)
{
    struct ofpbuf *b = ofpraw_alloc_reply(OFPRAW_OFPT_GET_CONFIG_REPLY,
                                          request, 0);
    put_switch_config(config, request->version, b);
    return b;
}

struct ofpbuf *
ofputil_encode_set_config(const struct ofputil_switch_config *config,
                          enum ofp_version version)
{
    struct ofpbuf *b = ofpraw_alloc(OFPRAW_OFPT_SET_CONFIG, version, 0);
    put_switch_config(config, version, b);
    return b;
}

/* Decodes OH, which must be of raw form WANT.  Returns whether the flags
 * had only bits the version defines (before 1.3 the invalid-TTL bit is
 * one of them). */
static enum ofperr
decode_switch_config(const struct ofp_header *oh, enum ofpraw want,
                     struct ofputil_switch_config *config, bool *flags_ok)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error = ofpmsg_pull_body(oh, &b, &raw);
    if (error) {
        return error;
    }
    if (raw != want) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    const struct ofp_switch_config *osc = b.msg;
    uint16_t flags = ntohs(osc->flags);
    uint16_t valid = OFPC_FRAG_MASK;
    config->frag = flags & OFPC_FRAG_MASK;
    config->miss_send_len = ntohs(osc->miss_send_len);
    if (oh->version < OFP13_VERSION) {
        valid |= OFPC_INVALID_TTL_TO_CONTROLLER;
        config->invalid_ttl_to_controller
            = (flags & OFPC_INVALID_TTL_TO_CONTROLLER) != 0;
    } else {
        config->invalid_ttl_to_controller = -1;
    }
    *flags_ok = !(flags & ~valid);
    return 0;
}

enum ofperr
ofputil_decode_get_config_reply(const struct ofp_header *oh,
                                struct ofputil_switch_config *config)
{
    bool flags_ok;
    /* A reply reports what the switch does; extra bits are its own. */
    return decode_switch_config(oh, OFPRAW_OFPT_GET_CONFIG_REPLY, config,
                                &flags_ok);
}

enum ofperr
ofputil_decode_set_config(const struct ofp_header *oh,
                          struct ofputil_switch_config *config)
{
    bool flags_ok;
    enum ofperr error = decode_switch_config(oh, OFPRAW_OFPT_SET_CONFIG,
                                             config, &flags_ok);
    return error ? error : flags_ok ? 0 : OFPERR_OFPSCFC_BAD_FLAGS;
}

/* ------------------------------------------------------------------ */
/* Description. */

struct ofpbuf *
ofputil_encode_desc_stats_request(enum ofp_version version)
{
    return ofpraw_alloc(OFPRAW_OFPST_DESC_REQUEST, version, 0);
}

struct ofpbuf *
ofputil_encode_desc_stats_reply(const struct ofp_header *request,
                                const struct ofputil_desc *d)
{
    /* The raw form's fixed body is the whole description. */
    struct ofpbuf *b = ofpraw_alloc_stats_reply(request, 0);
    struct ofp_desc_stats *ods = b->msg;
    put_fixed_string(ods->mfr_desc, sizeof ods->mfr_desc, d->mfr_desc);
    put_fixed_string(ods->hw_desc, sizeof ods->hw_desc, d->hw_desc);
    put_fixed_string(ods->sw_desc, sizeof ods->sw_desc, d->sw_desc);
    put_fixed_string(ods->serial_num, sizeof ods->serial_num,
                     d->serial_num);
    put_fixed_string(ods->dp_desc, sizeof ods->dp_desc, d->dp_desc);
    return b;
}

enum ofperr
ofputil_decode_desc_stats_reply(const struct ofp_header *oh,
                                struct ofputil_desc *d)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error = ofpmsg_pull_body(oh, &b, &raw);
    if (error) {
        return error;
    }
    if (raw != OFPRAW_OFPST_DESC_REPLY) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    const struct ofp_desc_stats *ods = b.msg;
    memset(d, 0, sizeof *d);
    get_fixed_string(d->mfr_desc, sizeof d->mfr_desc, ods->mfr_desc,
                     sizeof ods->mfr_desc);
    get_fixed_string(d->hw_desc, sizeof d->hw_desc, ods->hw_desc,
                     sizeof ods->hw_desc);
    get_fixed_string(d->sw_desc, sizeof d->sw_desc, ods->sw_desc,
                     sizeof ods->sw_desc);
    get_fixed_string(d->serial_num, sizeof d->serial_num, ods->serial_num,
                     sizeof ods->serial_num);
    get_fixed_string(d->dp_desc, sizeof d->dp_desc, ods->dp_desc,
                     sizeof ods->dp_desc);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Barrier. */

struct ofpbuf *
ofputil_encode_barrier_reply(const struct ofp_header *request)
{
    return ofpraw_alloc_reply(request->version == OFP10_VERSION
                              ? OFPRAW_OFPT10_BARRIER_REPLY
                              : OFPRAW_OFPT11_BARRIER_REPLY, request, 0);
}

/* ------------------------------------------------------------------ */
/* Roles. */

static uint32_t
nx_role_to_ofp12(uint32_t nx_role)
{
    return (nx_role == NX_ROLE_MASTER ? OFPCR12_ROLE_MASTER
            : nx_role == NX_ROLE_SLAVE ? OFPCR12_ROLE_SLAVE
            : OFPCR12_ROLE_EQUAL);
}

static uint32_t
ofp12_role_to_nx(uint32_t role)
{
    return (role == OFPCR12_ROLE_MASTER ? NX_ROLE_MASTER
            : role == OFPCR12_ROLE_SLAVE ? NX_ROLE_SLAVE
            : NX_ROLE_OTHER);
}

static struct ofpbuf *
encode_role(enum ofpraw ofp12_raw, enum ofpraw nx_raw,
            const struct ofputil_role_request *rr, enum ofp_version version,
            const struct ofp_header *request)
{
    bool nx = request ? request->type == OFPT_VENDOR
                      : version < OFP12_VERSION;
    enum ofpraw raw = nx ? nx_raw : ofp12_raw;
    struct ofpbuf *b = (request ? ofpraw_alloc_reply(raw, request, 0)
                        : ofpraw_alloc(raw, version, 0));
    if (nx) {
        struct nx_role_request *nrr = b->msg;
        nrr->role = htonl(ofp12_role_to_nx(rr->role));
    } else {
        struct ofp12_role_request *orr = b->msg;
        orr->role = htonl(rr->role);
        orr->generation_id = htonll(rr->have_generation_id
                                    ? rr->generation_id : UINT64_MAX);
    }
    return b;
}

struct ofpbuf *
ofputil_encode_role_request(const struct ofputil_role_request *rr,
                            enum ofp_version version)
{
    return encode_role(OFPRAW_OFPT12_ROLE_REQUEST, OFPRAW_NXT_ROLE_REQUEST,
                       rr, version, NULL);
}

struct ofpbuf *
ofputil_encode_role_reply(const struct ofp_header *request,
                          const struct ofputil_role_request *rr)
{
    return encode_role(OFPRAW_OFPT12_ROLE_REPLY, OFPRAW_NXT_ROLE_REPLY,
                       rr, request->version, request);
}

enum ofperr
ofputil_decode_role_message(const struct ofp_header *oh,
                            struct ofputil_role_request *rr)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error = ofpmsg_pull_body(oh, &b, &raw);
    if (error) {
        return error;
    }
    memset(rr, 0, sizeof *rr);
    if (raw == OFPRAW_OFPT12_ROLE_REQUEST || raw == OFPRAW_OFPT12_ROLE_REPLY) {
        const struct ofp12_role_request *orr = b.msg;
        uint32_t role = ntohl(orr->role);
        if (role > OFPCR12_ROLE_SLAVE) {
            return OFPERR_OFPRRFC_BAD_ROLE;
        }
        rr->role = role;
        /* All-ones is "no generation id"; NOCHANGE never carries one. */
        uint64_t gen = ntohll(orr->generation_id);
        if (role != OFPCR12_ROLE_NOCHANGE && gen != UINT64_MAX) {
            rr->have_generation_id = true;
            rr->generation_id = gen;
        }
        return 0;
    } else if (raw == OFPRAW_NXT_ROLE_REQUEST
               || raw == OFPRAW_NXT_ROLE_REPLY) {
        const struct nx_role_request *nrr = b.msg;
        uint32_t role = ntohl(nrr->role);
        if (role > NX_ROLE_SLAVE) {
            return OFPERR_OFPRRFC_BAD_ROLE;
        }
        rr->role = nx_role_to_ofp12(role);
        return 0;
    }
    return OFPERR_OFPBRC_BAD_TYPE;
}

const char *
ofputil_role_to_string(uint32_t role)
{
    switch (role) {
    case OFPCR12_ROLE_NOCHANGE: return "nochange";
    case OFPCR12_ROLE_EQUAL: return "equal";
    case OFPCR12_ROLE_MASTER: return "primary";
    case OFPCR12_ROLE_SLAVE: return "secondary";
    default: return "<unknown>";
    }
}

struct ofpbuf *
ofputil_encode_role_status(const struct ofputil_role_status *rs,
                           enum ofp_version version)
{
    /* 1.3 has ONF's extension of the same body. */
    struct ofpbuf *b = ofpraw_alloc_xid(version == OFP13_VERSION
                                        ? OFPRAW_ONFT13_ROLE_STATUS
                                        : OFPRAW_OFPT14_ROLE_STATUS,
                                        version, htonl(0), 0);
    struct ofp14_role_status *ors = b->msg;
    ors->role = htonl(rs->role);
    ors->reason = rs->reason;
    ors->generation_id = htonll(rs->generation_id);
    return b;
}

enum ofperr
ofputil_decode_role_status(const struct ofp_header *oh,
                           struct ofputil_role_status *rs)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error = ofpmsg_pull_body(oh, &b, &raw);
    if (error) {
        return error;
    }
    if (raw != OFPRAW_OFPT14_ROLE_STATUS && raw != OFPRAW_ONFT13_ROLE_STATUS) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    const struct ofp14_role_status *ors = b.msg;
    uint32_t role = ntohl(ors->role);
    if (role > OFPCR12_ROLE_SLAVE) {
        return OFPERR_OFPRRFC_BAD_ROLE;
    }
    rs->role = role;
    rs->reason = ors->reason;
    rs->generation_id = ntohll(ors->generation_id);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Asynchronous configuration. */

/* Per message type: its printed name, the names of its reason bits, the
 * bits valid in 1.4+ and before 1.4 (where the fixed layout has only the
 * first three types), and the 1.4 property type of its slave form (the
 * master form is one more). */
struct oam_info {
    const char *name;
    const char *const *reasons;
    size_t n_reasons;
    uint32_t valid14;
    uint32_t valid10;
    uint16_t slave_prop;
};

static const char *const packet_in_reasons[] = {
    "no_match", "action", "invalid_ttl", "action_set", "group",
    "packet_out",
};
static const char *const port_status_reasons[] = { "add", "delete",
                                                   "modify" };
static const char *const flow_removed_reasons[] = {
    "idle", "hard", "delete", "group_delete", "meter_delete", "eviction",
};
static const char *const role_status_reasons[] = {
    "primary_request", "configuration_changed", "experimenter_data_changed",
};
static const char *const table_status_reasons[] = {
    NULL, NULL, NULL, "vacancy_down", "vacancy_up",
};
static const char *const requestforward_reasons[] = {
    "group_mod_request", "meter_mod_request",
};

static const struct oam_info oam_infos[OAM_N_TYPES] = {
    [OAM_PACKET_IN] = { "PACKET_IN", packet_in_reasons,
                        ARRAY_SIZE(packet_in_reasons), 0x3f, 0x7, 0 },
    [OAM_PORT_STATUS] = { "PORT_STATUS", port_status_reasons,
                          ARRAY_SIZE(port_status_reasons), 0x7, 0x7, 2 },
    [OAM_FLOW_REMOVED] = { "FLOW_REMOVED", flow_removed_reasons,
                           ARRAY_SIZE(flow_removed_reasons), 0x3f, 0x3f,
                           4 },
    [OAM_ROLE_STATUS] = { "ROLE_STATUS", role_status_reasons,
                          ARRAY_SIZE(role_status_reasons), 0x7, 0, 6 },
    [OAM_TABLE_STATUS] = { "TABLE_STATUS", table_status_reasons,
                           ARRAY_SIZE(table_status_reasons), 0x18, 0, 8 },
    [OAM_REQUESTFORWARD] = { "REQUESTFORWARD", requestforward_reasons,
                             ARRAY_SIZE(requestforward_reasons), 0x3, 0,
                             10 },
};

const char *
ofputil_async_msg_type_to_string(enum ofputil_async_msg_type type)
{
    return type < OAM_N_TYPES ? oam_infos[type].name : "<unknown>";
}

struct ofputil_async_cfg
ofputil_async_cfg_default(enum ofp_version version)
{
    /* 3.1's defaults: a master (or equal) controller gets packet-ins for
     * every reason but an invalid TTL, every port status, and flow
     * removals (in 1.4+ for every reason, in 1.3 for idle, hard, delete
     * and group_delete, before only the first three); a slave only port
     * status.  Role, table status and
     * request-forward messages are off until asked for. */
    struct ofputil_async_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.master[OAM_PACKET_IN] = 0x3f & ~(1u << OFPR_INVALID_TTL);
    cfg.master[OAM_PORT_STATUS] = 0x7;
    cfg.slave[OAM_PORT_STATUS] = 0x7;
    cfg.master[OAM_FLOW_REMOVED] = (version >= OFP14_VERSION ? 0x3f
                                    : version == OFP13_VERSION ? 0xf
                                    : 0x7);
    return cfg;
}

struct ofpbuf *
ofputil_encode_get_async_request(enum ofp_version version)
{
    return ofpraw_alloc(version >= OFP14_VERSION
                        ? OFPRAW_OFPT14_GET_ASYNC_REQUEST
                        : OFPRAW_OFPT13_GET_ASYNC_REQUEST, version, 0);
}

/* The fixed layout: three pairs (master, slave) of masks, each limited
 * to the reasons that layout can carry. */
static void
put_legacy_async(const struct ofputil_async_cfg *cfg,
                 struct ofp13_async_config *ac)
{
    /* Six words in order: packet-in, port status, flow removed, each
     * master then slave. */
    ovs_be32 words[6];
    for (int type = 0; type < 3; type++) {
        uint32_t valid = oam_infos[type].valid10;
        words[type * 2] = htonl(cfg->master[type] & valid);
        words[type * 2 + 1] = htonl(cfg->slave[type] & valid);
    }
    memcpy(ac, words, sizeof words);
}

static void
put_async_props(const struct ofputil_async_cfg *cfg, uint32_t oams,
                struct ofpbuf *b)
{
    for (int type = 0; type < OAM_N_TYPES; type++) {
        if (!(oams & (1u << type))) {
            continue;
        }
        for (int master = 0; master < 2; master++) {
            struct ofp_prop_header *ph = ofpbuf_put_zeros(b, 8);
            ph->type = htons(oam_infos[type].slave_prop + master);
            ph->len = htons(8);
            ovs_be32 mask = htonl(master ? cfg->master[type]
                                  : cfg->slave[type]);
            memcpy(ph + 1, &mask, sizeof mask);
        }
    }
}

struct ofpbuf *
ofputil_encode_get_async_reply(const struct ofp_header *request,
                               const struct ofputil_async_cfg *cfg)
{
    struct ofpbuf *b;
    if (request->version >= OFP14_VERSION) {
        b = ofpraw_alloc_reply(OFPRAW_OFPT14_GET_ASYNC_REPLY, request, 0);
        put_async_props(cfg, (1u << OAM_N_TYPES) - 1, b);
    } else {
        b = ofpraw_alloc_reply(OFPRAW_OFPT13_GET_ASYNC_REPLY, request, 0);
        put_legacy_async(cfg, b->msg);
    }
    ofpmsg_update_length(b);
    return b;
}

struct ofpbuf *
ofputil_encode_set_async_config(const struct ofputil_async_cfg *cfg,
                                uint32_t oams, enum ofp_version version)
{
    struct ofpbuf *b;
    if (version >= OFP14_VERSION) {
        b = ofpraw_alloc(OFPRAW_OFPT14_SET_ASYNC, version, 0);
        put_async_props(cfg, oams, b);
    } else {
        b = ofpraw_alloc(version == OFP13_VERSION ? OFPRAW_OFPT13_SET_ASYNC
                         : OFPRAW_NXT_SET_ASYNC_CONFIG, version, 0);
        put_legacy_async(cfg, b->msg);
    }
    ofpmsg_update_length(b);
    return b;
}

static struct vlog_rate_limit async_rl = VLOG_RATE_LIMIT_INIT(1, 5);

enum ofperr
ofputil_decode_set_async_config(const struct ofp_header *oh, bool loose,
                                const struct ofputil_async_cfg *basis,
                                struct ofputil_async_cfg *cfg)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error = ofpmsg_pull_body(oh, &b, &raw);
    if (error) {
        return error;
    }
    *cfg = *basis;
    if (raw == OFPRAW_OFPT13_SET_ASYNC || raw == OFPRAW_NXT_SET_ASYNC_CONFIG
        || raw == OFPRAW_OFPT13_GET_ASYNC_REPLY) {
        /* The fixed layout: bits it cannot mean are dropped, never an
         * error (3.1 reads it that way). */
        ovs_be32 words[6];
        OFP_ASSERT(sizeof words == sizeof(struct ofp13_async_config));
        memcpy(words, b.msg, sizeof words);
        for (int type = 0; type < 3; type++) {
            uint32_t valid = oam_infos[type].valid10;
            cfg->master[type] = ntohl(words[type * 2]) & valid;
            cfg->slave[type] = ntohl(words[type * 2 + 1]) & valid;
        }
        return 0;
    } else if (raw != OFPRAW_OFPT14_SET_ASYNC
               && raw != OFPRAW_OFPT14_GET_ASYNC_REPLY
               && raw != OFPRAW_NXT_SET_ASYNC_CONFIG2) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }

    while (b.size > 0) {
        struct ofpbuf prop;
        uint16_t type;
        error = ofpprop_pull(&b, &prop, &type);
        if (error) {
            return error;
        }
        if (type >= 2 * OAM_N_TYPES) {
            /* Experimenter properties included: none is understood. */
            if (!loose) {
                VLOG_WARN_RL(&async_rl, "unknown async config property "
                             "type %"PRIu16, type);
                return OFPERR_OFPACFC_UNSUPPORTED;
            }
            continue;
        }
        if (prop.size != 8) {
            return OFPERR_OFPBPC_BAD_LEN;
        }
        int oam = type / 2;
        bool master = type & 1;
        ovs_be32 be_mask;
        memcpy(&be_mask, (const char *) prop.data + 4, sizeof be_mask);
        uint32_t mask = ntohl(be_mask);
        uint32_t valid = oam_infos[oam].valid14;
        if (mask & ~valid) {
            if (!loose) {
                VLOG_WARN_RL(&async_rl, "bad value %#"PRIx32" for %s "
                             "(allowed mask %#"PRIx32")", mask,
                             oam_infos[oam].name, valid);
                return OFPERR_OFPACFC_INVALID;
            }
            mask &= valid;
        }
        if (master) {
            cfg->master[oam] = mask;
        } else {
            cfg->slave[oam] = mask;
        }
    }
    return 0;
}

static void
format_async_role(struct ds *s, const uint32_t masks[OAM_N_TYPES])
{
    for (int type = 0; type < OAM_N_TYPES; type++) {
        const struct oam_info *info = &oam_infos[type];
        ds_put_format(s, "%16s:", info->name);
        if (!masks[type]) {
            ds_put_cstr(s, " (off)");
        }
        for (size_t bit = 0; bit < 32; bit++) {
            if (masks[type] & (1u << bit)) {
                if (bit < info->n_reasons && info->reasons[bit]) {
                    ds_put_format(s, " %s", info->reasons[bit]);
                } else {
                    ds_put_format(s, " %zu", bit);
                }
            }
        }
        ds_put_char(s, '\n');
    }
}

void
ofputil_format_set_async_config(struct ds *s,
                                const struct ofputil_async_cfg *cfg)
{
    ds_put_cstr(s, " primary:\n");
    format_async_role(s, cfg->master);
    ds_put_cstr(s, "\n secondary:\n");
    format_async_role(s, cfg->slave);
}
