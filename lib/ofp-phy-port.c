/* ofp-phy-port: port descriptions, status, mod and statistics.  See
 * ofp-phy-port.h. */
#include <config.h>

#include "ofp-phy-port.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "list.h"
#include "ofp-msgs.h"
#include "ofp-prop.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Bit conversions. */

/* 1.0's feature bits 7..11 (copper, fiber, autoneg, pause, pause_asym)
 * are 1.1's 11..15; 1.1's 7..10 (40G, 100G, 1T, other) do not exist in
 * 1.0. */
static uint32_t
features_from_ofp10(uint32_t f10)
{
    return (f10 & 0x7f) | ((f10 & 0xf80) << 4);
}

static uint32_t
features_to_ofp10(uint32_t f)
{
    return (f & 0x7f) | ((f >> 4) & 0xf80);
}

#define FEATURES11_MASK 0xffff
#define CONFIG10_MASK 0x7f
#define CONFIG11_MASK (OFPUTIL_PC_PORT_DOWN | OFPUTIL_PC_NO_RECV \
                       | OFPUTIL_PC_NO_FWD | OFPUTIL_PC_NO_PACKET_IN)
#define STATE10_MASK (OFPUTIL_PS_LINK_DOWN | OFPUTIL_PS_STP_MASK)
#define STATE11_MASK (OFPUTIL_PS_LINK_DOWN | OFPUTIL_PS_BLOCKED \
                      | OFPUTIL_PS_LIVE)

static uint32_t
config_mask(enum ofp_version version)
{
    return version == OFP10_VERSION ? CONFIG10_MASK : CONFIG11_MASK;
}

uint64_t
netdev_features_to_bps(uint32_t features, uint64_t default_bps)
{
    static const struct {
        uint32_t bits;
        uint64_t bps;
    } speeds[] = {
        { NETDEV_F_1TB_FD, UINT64_C(1000000000000) },
        { NETDEV_F_100GB_FD, UINT64_C(100000000000) },
        { NETDEV_F_40GB_FD, UINT64_C(40000000000) },
        { NETDEV_F_10GB_FD, UINT64_C(10000000000) },
        { NETDEV_F_1GB_HD | NETDEV_F_1GB_FD, UINT64_C(1000000000) },
        { NETDEV_F_100MB_HD | NETDEV_F_100MB_FD, UINT64_C(100000000) },
        { NETDEV_F_10MB_HD | NETDEV_F_10MB_FD, UINT64_C(10000000) },
    };
    for (size_t i = 0; i < ARRAY_SIZE(speeds); i++) {
        if (features & speeds[i].bits) {
            return speeds[i].bps;
        }
    }
    return default_bps;
}

/* ------------------------------------------------------------------ */
/* Port descriptions. */

static void
copy_name(char dst[OFP_MAX_PORT_NAME_LEN], const char *src)
{
    size_t len = strnlen(src, OFP_MAX_PORT_NAME_LEN);
    if (len >= OFP_MAX_PORT_NAME_LEN) {
        len = OFP_MAX_PORT_NAME_LEN - 1;
    }
    memcpy(dst, src, len);
    memset(dst + len, 0, OFP_MAX_PORT_NAME_LEN - len);
}

static enum ofperr
port_from_ofp11(ovs_be32 wire, uint32_t *port)
{
    return ofputil_port_from_ofp11(wire, port);
}

static int
pull_ofp10_port(struct ofpbuf *b, struct ofputil_phy_port *pp)
{
    const struct ofp10_phy_port *op = ofpbuf_try_pull(b, sizeof *op);
    if (!op) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    pp->port_no = ntohs(op->port_no);
    pp->hw_addr = op->hw_addr;
    copy_name(pp->name, op->name);
    pp->config = ntohl(op->config) & CONFIG10_MASK;
    pp->state = ntohl(op->state) & STATE10_MASK;
    pp->curr = features_from_ofp10(ntohl(op->curr));
    pp->advertised = features_from_ofp10(ntohl(op->advertised));
    pp->supported = features_from_ofp10(ntohl(op->supported));
    pp->peer = features_from_ofp10(ntohl(op->peer));
    pp->curr_speed = netdev_features_to_bps(pp->curr, 0) / 1000;
    pp->max_speed = netdev_features_to_bps(pp->supported, 0) / 1000;
    return 0;
}

static int
pull_ofp11_port(struct ofpbuf *b, struct ofputil_phy_port *pp)
{
    const struct ofp11_port *op = ofpbuf_try_pull(b, sizeof *op);
    if (!op) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    enum ofperr error = port_from_ofp11(op->port_no, &pp->port_no);
    if (error) {
        return error;
    }
    pp->hw_addr = op->hw_addr;
    copy_name(pp->name, op->name);
    pp->config = ntohl(op->config) & CONFIG11_MASK;
    pp->state = ntohl(op->state) & STATE11_MASK;
    pp->curr = ntohl(op->curr) & FEATURES11_MASK;
    pp->advertised = ntohl(op->advertised) & FEATURES11_MASK;
    pp->supported = ntohl(op->supported) & FEATURES11_MASK;
    pp->peer = ntohl(op->peer) & FEATURES11_MASK;
    pp->curr_speed = ntohl(op->curr_speed);
    pp->max_speed = ntohl(op->max_speed);
    return 0;
}

/* 1.4 port descriptions and port statistics are records of a fixed part
 * of MIN_LEN bytes, whose 16-bit length field at LEN_OFS covers it and the
 * properties after it.  Pulls one from B: *RECORD points at it, *PROPS
 * covers its properties.  OFPBRC_BAD_LEN if it is short or overruns B. */
static enum ofperr
pull_ofp14_record(struct ofpbuf *b, size_t min_len, size_t len_ofs,
                  const void **record, struct ofpbuf *props)
{
    if (b->size < min_len) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    ovs_be16 be_len;
    memcpy(&be_len, (const char *) b->data + len_ofs, sizeof be_len);
    size_t len = ntohs(be_len);
    if (len < min_len || len > b->size) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    *record = b->data;
    ofpbuf_use_const(props, (const char *) b->data + min_len,
                     len - min_len);
    ofpbuf_pull(b, len);
    return 0;
}

static int
pull_ofp14_port(struct ofpbuf *b, struct ofputil_phy_port *pp)
{
    const struct ofp14_port *op;
    struct ofpbuf props;
    enum ofperr error = pull_ofp14_record(
        b, sizeof *op, offsetof(struct ofp14_port, length),
        (const void **) &op, &props);
    if (error) {
        return error;
    }

    error = port_from_ofp11(op->port_no, &pp->port_no);
    if (error) {
        return error;
    }
    pp->hw_addr = op->hw_addr;
    copy_name(pp->name, op->name);
    pp->config = ntohl(op->config) & CONFIG11_MASK;
    pp->state = ntohl(op->state) & STATE11_MASK;
    pp->curr = pp->advertised = pp->supported = pp->peer = 0;
    pp->curr_speed = pp->max_speed = 0;

    while (props.size > 0) {
        struct ofpbuf prop;
        uint16_t type;
        enum ofperr error = ofpprop_pull(&props, &prop, &type);
        if (error) {
            return error;
        }
        /* Other properties (optical, experimenter) are not ours to
         * understand; skipping them is what a reader should do. */
        if (type == OFPPDPT14_ETHERNET) {
            const struct ofp14_port_desc_prop_ethernet *eth = prop.data;
            if (prop.size != sizeof *eth) {
                return OFPERR_OFPBPC_BAD_LEN;
            }
            pp->curr = ntohl(eth->curr) & FEATURES11_MASK;
            pp->advertised = ntohl(eth->advertised) & FEATURES11_MASK;
            pp->supported = ntohl(eth->supported) & FEATURES11_MASK;
            pp->peer = ntohl(eth->peer) & FEATURES11_MASK;
            pp->curr_speed = ntohl(eth->curr_speed);
            pp->max_speed = ntohl(eth->max_speed);
        }
    }
    return 0;
}

int
ofputil_pull_phy_port(enum ofp_version version, struct ofpbuf *b,
                      struct ofputil_phy_port *pp)
{
    memset(pp, 0, sizeof *pp);
    if (!b->size) {
        return EOF;
    }
    return (version == OFP10_VERSION ? pull_ofp10_port(b, pp)
            : version <= OFP13_VERSION ? pull_ofp11_port(b, pp)
            : pull_ofp14_port(b, pp));
}

void
ofputil_put_phy_port(enum ofp_version version,
                     const struct ofputil_phy_port *pp, struct ofpbuf *b)
{
    if (version == OFP10_VERSION) {
        struct ofp10_phy_port *op = ofpbuf_put_zeros(b, sizeof *op);
        op->port_no = htons(pp->port_no);
        op->hw_addr = pp->hw_addr;
        copy_name(op->name, pp->name);
        op->config = htonl(pp->config & CONFIG10_MASK);
        op->state = htonl(pp->state & STATE10_MASK);
        op->curr = htonl(features_to_ofp10(pp->curr));
        op->advertised = htonl(features_to_ofp10(pp->advertised));
        op->supported = htonl(features_to_ofp10(pp->supported));
        op->peer = htonl(features_to_ofp10(pp->peer));
    } else if (version <= OFP13_VERSION) {
        struct ofp11_port *op = ofpbuf_put_zeros(b, sizeof *op);
        op->port_no = ofputil_port_to_ofp11(pp->port_no);
        op->hw_addr = pp->hw_addr;
        copy_name(op->name, pp->name);
        op->config = htonl(pp->config & CONFIG11_MASK);
        op->state = htonl(pp->state & STATE11_MASK);
        op->curr = htonl(pp->curr);
        op->advertised = htonl(pp->advertised);
        op->supported = htonl(pp->supported);
        op->peer = htonl(pp->peer);
        op->curr_speed = htonl(pp->curr_speed);
        op->max_speed = htonl(pp->max_speed);
    } else {
        struct ofp14_port *op = ofpbuf_put_zeros(b, sizeof *op);
        op->port_no = ofputil_port_to_ofp11(pp->port_no);
        op->length = htons(sizeof *op
                           + sizeof(struct ofp14_port_desc_prop_ethernet));
        op->hw_addr = pp->hw_addr;
        copy_name(op->name, pp->name);
        op->config = htonl(pp->config & CONFIG11_MASK);
        op->state = htonl(pp->state & STATE11_MASK);
        struct ofp14_port_desc_prop_ethernet *eth
            = ofpbuf_put_zeros(b, sizeof *eth);
        eth->type = htons(OFPPDPT14_ETHERNET);
        eth->length = htons(sizeof *eth);
        eth->curr = htonl(pp->curr);
        eth->advertised = htonl(pp->advertised);
        eth->supported = htonl(pp->supported);
        eth->peer = htonl(pp->peer);
        eth->curr_speed = htonl(pp->curr_speed);
        eth->max_speed = htonl(pp->max_speed);
    }
}

/* Appends the names of the bits of BITS, space-separated, from NAMES
 * (indexed by bit number; NULL for none), or "0" if there are none. */
static void
format_bit_names(struct ds *s, uint32_t bits, const char *const names[],
                 size_t n_names)
{
    if (!bits) {
        ds_put_char(s, '0');
        return;
    }
    bool first = true;
    for (size_t i = 0; i < 32; i++) {
        if (!(bits & (1u << i))) {
            continue;
        }
        if (!first) {
            ds_put_char(s, ' ');
        }
        first = false;
        if (i < n_names && names[i]) {
            ds_put_cstr(s, names[i]);
        } else {
            ds_put_format(s, "0x%"PRIx32, 1u << i);
        }
    }
}

static const char *const config_names[] = {
    "PORT_DOWN", "NO_STP", "NO_RECV", "NO_RECV_STP", "NO_FLOOD", "NO_FWD",
    "NO_PACKET_IN",
};
static const char *const state_names[] = { "LINK_DOWN", "BLOCKED", "LIVE" };
static const char *const feature_names[] = {
    "10MB-HD", "10MB-FD", "100MB-HD", "100MB-FD", "1GB-HD", "1GB-FD",
    "10GB-FD", "40GB-FD", "100GB-FD", "1TB-FD", "OTHER", "COPPER", "FIBER",
    "AUTO_NEG", "AUTO_PAUSE", "AUTO_PAUSE_ASYM",
};

static void
format_port_config(struct ds *s, uint32_t config)
{
    format_bit_names(s, config, config_names, ARRAY_SIZE(config_names));
}

static void
format_port_state(struct ds *s, uint32_t state)
{
    /* The STP state is a two-bit field, not flags.  LISTEN (0) is what a
     * switch without STP reports, so it is not printed; another state is
     * printed directly followed by the flags, without a space (3.1's
     * output, which ovs-ofctl users may parse). */
    uint32_t stp = state & OFPUTIL_PS_STP_MASK;
    state &= ~OFPUTIL_PS_STP_MASK;
    if (stp) {
        ds_put_cstr(s, (stp == OFPUTIL_PS_STP_LEARN ? "STP_LEARN"
                        : stp == OFPUTIL_PS_STP_FORWARD ? "STP_FORWARD"
                        : "STP_BLOCK"));
        if (state) {
            format_bit_names(s, state, state_names, ARRAY_SIZE(state_names));
        }
    } else {
        format_bit_names(s, state, state_names, ARRAY_SIZE(state_names));
    }
}

void
ofputil_netdev_features_format(struct ds *s, uint32_t features)
{
    format_bit_names(s, features, feature_names, ARRAY_SIZE(feature_names));
}

void
ofputil_phy_port_format(struct ds *s, const struct ofputil_phy_port *pp,
                        enum ofp_version version OVS_UNUSED,
                        const struct ofputil_port_map *port_map OVS_UNUSED)
{
    /* The name stops at its first unprintable byte, so a hostile name
     * cannot write escapes to a terminal. */
    char name[OFP_MAX_PORT_NAME_LEN];
    size_t n = 0;
    while (n < sizeof name - 1 && pp->name[n]
           && isprint((unsigned char) pp->name[n])) {
        name[n] = pp->name[n];
        n++;
    }
    name[n] = '\0';

    ds_put_char(s, ' ');
    ofputil_format_port(pp->port_no, NULL, s);
    ds_put_format(s, "(%s): addr:"ETH_ADDR_FMT"\n", name,
                  ETH_ADDR_ARGS(pp->hw_addr));
    ds_put_cstr(s, "     config:     ");
    format_port_config(s, pp->config);
    ds_put_cstr(s, "\n     state:      ");
    format_port_state(s, pp->state);
    ds_put_char(s, '\n');
    static const struct {
        const char *label;
        size_t offset;
    } feats[] = {
        { "     current:    ", offsetof(struct ofputil_phy_port, curr) },
        { "     advertised: ",
          offsetof(struct ofputil_phy_port, advertised) },
        { "     supported:  ",
          offsetof(struct ofputil_phy_port, supported) },
        { "     peer:       ", offsetof(struct ofputil_phy_port, peer) },
    };
    for (size_t i = 0; i < ARRAY_SIZE(feats); i++) {
        uint32_t f;
        memcpy(&f, (const char *) pp + feats[i].offset, sizeof f);
        if (f) {
            ds_put_cstr(s, feats[i].label);
            ofputil_netdev_features_format(s, f);
            ds_put_char(s, '\n');
        }
    }
    ds_put_format(s, "     speed: %"PRIu32" Mbps now, %"PRIu32" Mbps max\n",
                  pp->curr_speed / 1000, pp->max_speed / 1000);
}

/* ------------------------------------------------------------------ */
/* Port description multipart. */

struct ofpbuf *
ofputil_encode_port_desc_stats_request(enum ofp_version version,
                                       uint32_t port)
{
    if (version >= OFP15_VERSION) {
        struct ofpbuf *b = ofpraw_alloc(OFPRAW_OFPST15_PORT_DESC_REQUEST,
                                        version, 0);
        struct ofp15_port_desc_request *req = b->msg;
        req->port_no = ofputil_port_to_ofp11(port);
        return b;
    }
    return ofpraw_alloc(OFPRAW_OFPST10_PORT_DESC_REQUEST, version, 0);
}

enum ofperr
ofputil_decode_port_desc_stats_request(const struct ofp_header *oh,
                                       uint32_t *port)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error = ofpmsg_pull_body(oh, &b, &raw);
    if (error) {
        return error;
    }
    if (raw == OFPRAW_OFPST10_PORT_DESC_REQUEST) {
        *port = OFPP_ANY;
        return 0;
    } else if (raw == OFPRAW_OFPST15_PORT_DESC_REQUEST) {
        const struct ofp15_port_desc_request *req = b.msg;
        return port_from_ofp11(req->port_no, port);
    }
    return OFPERR_OFPBRC_BAD_TYPE;
}

void
ofputil_append_port_desc_stats_reply(const struct ofputil_phy_port *pp,
                                     struct ovs_list *replies)
{
    struct ofpbuf *reply = ofpbuf_from_list(ovs_list_back(replies));
    size_t start_ofs = reply->size;
    ofputil_put_phy_port(ofpmp_version(replies), pp, reply);
    ofpmp_postappend(replies, start_ofs);
}

int
ofputil_pull_port_desc_stats_reply(enum ofp_version version,
                                   struct ofpbuf *b,
                                   struct ofputil_phy_port *pp)
{
    return ofputil_pull_phy_port(version, b, pp);
}

/* ------------------------------------------------------------------ */
/* Port status. */

struct ofpbuf *
ofputil_encode_port_status(const struct ofputil_port_status *ps,
                           enum ofp_version version)
{
    enum ofpraw raw = (version == OFP10_VERSION ? OFPRAW_OFPT10_PORT_STATUS
                       : version <= OFP13_VERSION ? OFPRAW_OFPT11_PORT_STATUS
                       : OFPRAW_OFPT14_PORT_STATUS);
    struct ofpbuf *b = ofpraw_alloc_xid(raw, version, htonl(0), 0);
    /* The raw form's fixed body covers the reason and, before 1.4, the
     * port too; rebuild the body from the reason on. */
    ofpbuf_truncate_tail(b, (const char *) ofpbuf_tail(b)
                            - (const char *) b->msg);
    struct ofp_port_status *ops = ofpbuf_put_zeros(b, sizeof *ops);
    ops->reason = ps->reason;
    ofputil_put_phy_port(version, &ps->desc, b);
    ofpmsg_update_length(b);
    return b;
}

enum ofperr
ofputil_decode_port_status(const struct ofp_header *oh,
                           struct ofputil_port_status *ps)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error = ofpmsg_pull_body(oh, &b, &raw);
    if (error) {
        return error;
    }
    if (ofptype_from_ofpraw(raw) != OFPTYPE_PORT_STATUS) {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    const struct ofp_port_status *ops = ofpbuf_pull(&b, sizeof *ops);
    if (ops->reason > OFPPR_MODIFY) {
        return OFPERR_NXBRC_BAD_REASON;
    }
    ps->reason = ops->reason;
    int retval = ofputil_pull_phy_port(oh->version, &b, &ps->desc);
    if (retval == EOF) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    return retval ? retval : b.size ? OFPERR_OFPBRC_BAD_LEN : 0;
}

/* ------------------------------------------------------------------ */
/* Port mod. */

struct ofpbuf *
ofputil_encode_port_mod(const struct ofputil_port_mod *pm,
                        enum ofp_version version)
{
    struct ofpbuf *b;
    if (version == OFP10_VERSION) {
        b = ofpraw_alloc(OFPRAW_OFPT10_PORT_MOD, version, 0);
        struct ofp10_port_mod *opm = b->msg;
        opm->port_no = htons(pm->port_no);
        opm->hw_addr = pm->hw_addr;
        opm->config = htonl(pm->config & CONFIG10_MASK);
        opm->mask = htonl(pm->mask & CONFIG10_MASK);
        opm->advertise = htonl(features_to_ofp10(pm->advertise));
    } else if (version <= OFP13_VERSION) {
        b = ofpraw_alloc(OFPRAW_OFPT11_PORT_MOD, version, 0);
        struct ofp11_port_mod *opm = b->msg;
        opm->port_no = ofputil_port_to_ofp11(pm->port_no);
        opm->hw_addr = pm->hw_addr;
        opm->config = htonl(pm->config & CONFIG11_MASK);
        opm->mask = htonl(pm->mask & CONFIG11_MASK);
        opm->advertise = htonl(pm->advertise);
    } else {
        b = ofpraw_alloc(OFPRAW_OFPT14_PORT_MOD, version, 0);
        struct ofp14_port_mod *opm = b->msg;
        opm->port_no = ofputil_port_to_ofp11(pm->port_no);
        opm->hw_addr = pm->hw_addr;
        opm->config = htonl(pm->config & CONFIG11_MASK);
        opm->mask = htonl(pm->mask & CONFIG11_MASK);
        if (pm->advertise) {
            struct ofp14_port_mod_prop_ethernet *eth
                = ofpbuf_put_zeros(b, sizeof *eth);
            eth->type = htons(OFPPMPT14_ETHERNET);
            eth->length = htons(sizeof *eth);
            eth->advertise = htonl(pm->advertise);
        }
        ofpmsg_update_length(b);
    }
    return b;
}

enum ofperr
ofputil_decode_port_mod(const struct ofp_header *oh,
                        struct ofputil_port_mod *pm, bool loose)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error = ofpmsg_pull_body(oh, &b, &raw);
    if (error) {
        return error;
    }
    memset(pm, 0, sizeof *pm);
    uint32_t config, mask;
    if (raw == OFPRAW_OFPT10_PORT_MOD) {
        const struct ofp10_port_mod *opm = b.msg;
        pm->port_no = ntohs(opm->port_no);
        pm->hw_addr = opm->hw_addr;
        config = ntohl(opm->config);
        mask = ntohl(opm->mask);
        pm->advertise = features_from_ofp10(ntohl(opm->advertise));
    } else if (raw == OFPRAW_OFPT11_PORT_MOD) {
        const struct ofp11_port_mod *opm = b.msg;
        error = ofputil_port_from_ofp11(opm->port_no, &pm->port_no);
        if (error) {
            return error;
        }
        pm->hw_addr = opm->hw_addr;
        config = ntohl(opm->config);
        mask = ntohl(opm->mask);
        pm->advertise = ntohl(opm->advertise);
    } else if (raw == OFPRAW_OFPT14_PORT_MOD) {
        const struct ofp14_port_mod *opm = ofpbuf_pull(&b, sizeof *opm);
        error = ofputil_port_from_ofp11(opm->port_no, &pm->port_no);
        if (error) {
            return error;
        }
        pm->hw_addr = opm->hw_addr;
        config = ntohl(opm->config);
        mask = ntohl(opm->mask);
        while (b.size > 0) {
            struct ofpbuf prop;
            uint16_t type;
            error = ofpprop_pull(&b, &prop, &type);
            if (error) {
                return error;
            }
            if (type == OFPPMPT14_ETHERNET) {
                const struct ofp14_port_mod_prop_ethernet *eth = prop.data;
                if (prop.size != sizeof *eth) {
                    return OFPERR_OFPBPC_BAD_LEN;
                }
                pm->advertise = ntohl(eth->advertise);
            } else if (!loose) {
                return OFPERR_OFPBPC_BAD_TYPE;
            }
        }
    } else {
        return OFPERR_OFPBRC_BAD_TYPE;
    }

    uint32_t valid = config_mask(oh->version);
    if ((config | mask) & ~valid) {
        if (!loose) {
            return OFPERR_OFPPMFC_BAD_CONFIG;
        }
    }
    pm->config = config & valid;
    pm->mask = mask & valid;
    return 0;
}

void
ofputil_port_mod_format(struct ds *s, const struct ofputil_port_mod *pm,
                        const struct ofputil_port_map *port_map)
{
    ds_put_cstr(s, "port: ");
    ofputil_format_port(pm->port_no, port_map, s);
    ds_put_format(s, ": addr:"ETH_ADDR_FMT"\n", ETH_ADDR_ARGS(pm->hw_addr));
    ds_put_cstr(s, "     config: ");
    format_port_config(s, pm->config);
    ds_put_cstr(s, "\n     mask:   ");
    format_port_config(s, pm->mask);
    ds_put_cstr(s, "\n     advertise: ");
    if (pm->advertise) {
        ofputil_netdev_features_format(s, pm->advertise);
    } else {
        ds_put_cstr(s, "UNCHANGED");
    }
    ds_put_char(s, '\n');
}

/* ------------------------------------------------------------------ */
/* Port statistics. */

struct ofpbuf *
ofputil_encode_dump_ports_request(enum ofp_version version, uint32_t port)
{
    struct ofpbuf *b;
    if (version == OFP10_VERSION) {
        b = ofpraw_alloc(OFPRAW_OFPST10_PORT_REQUEST, version, 0);
        struct ofp10_port_stats_request *req = b->msg;
        req->port_no = htons(port);
    } else {
        b = ofpraw_alloc(OFPRAW_OFPST11_PORT_REQUEST, version, 0);
        struct ofp11_port_stats_request *req = b->msg;
        req->port_no = ofputil_port_to_ofp11(port);
    }
    return b;
}

enum ofperr
ofputil_decode_port_stats_request(const struct ofp_header *oh,
                                  uint32_t *port)
{
    struct ofpbuf b;
    enum ofpraw raw;
    enum ofperr error = ofpmsg_pull_body(oh, &b, &raw);
    if (error) {
        return error;
    }
    if (raw == OFPRAW_OFPST10_PORT_REQUEST) {
        const struct ofp10_port_stats_request *req = b.msg;
        *port = ntohs(req->port_no);
        return 0;
    } else if (raw == OFPRAW_OFPST11_PORT_REQUEST) {
        const struct ofp11_port_stats_request *req = b.msg;
        return ofputil_port_from_ofp11(req->port_no, port);
    }
    return OFPERR_OFPBRC_BAD_TYPE;
}

/* The twelve counters in the order of the 1.0/1.1 wire layout. */
static void
counters_to_wire(const struct ofputil_port_stats *ps, ovs_be64 w[12])
{
    const uint64_t c[12] = {
        ps->rx_packets, ps->tx_packets, ps->rx_bytes, ps->tx_bytes,
        ps->rx_dropped, ps->tx_dropped, ps->rx_errors, ps->tx_errors,
        ps->rx_frame_errors, ps->rx_over_errors, ps->rx_crc_errors,
        ps->collisions,
    };
    for (int i = 0; i < 12; i++) {
        w[i] = htonll(c[i]);
    }
}

static void
counters_from_wire(struct ofputil_port_stats *ps, const ovs_be64 w[12])
{
    uint64_t *c[12] = {
        &ps->rx_packets, &ps->tx_packets, &ps->rx_bytes, &ps->tx_bytes,
        &ps->rx_dropped, &ps->tx_dropped, &ps->rx_errors, &ps->tx_errors,
        &ps->rx_frame_errors, &ps->rx_over_errors, &ps->rx_crc_errors,
        &ps->collisions,
    };
    for (int i = 0; i < 12; i++) {
        *c[i] = ntohll(w[i]);
    }
}

/* Open vSwitch's Intel experimenter properties of 1.4+ port stats.  The
 * RFC 2819 one (experimenter type 1: a 4-byte pad, then 21 64-bit packet
 * size and error counters) goes with every port, as 3.1 sends it; we
 * count none of them, so all are unknown.  The custom one (type 2): a
 * 2-byte pad and a 16-bit count, then per counter a length byte, the
 * name, and a 64-bit value.  Both padded to 8 bytes. */
#define INTEL_PORT_STATS_RFC2819 1
#define INTEL_PORT_STATS_CUSTOM 2
#define INTEL_RFC2819_N_COUNTERS 21

static void
put_intel_prop_end(struct ofpbuf *b, size_t start)
{
    struct ofp_prop_experimenter *exp = ofpbuf_at_assert(b, start,
                                                         sizeof *exp);
    exp->len = htons(b->size - start);
    ofpbuf_put_zeros(b, ROUND_UP(b->size, 8) - b->size);
}

static void
put_rfc2819_stats(struct ofpbuf *b)
{
    size_t start = b->size;
    struct ofp_prop_experimenter *exp = ofpbuf_put_zeros(b, sizeof *exp);
    exp->type = htons(0xffff);
    exp->experimenter = htonl(INTEL_VENDOR_ID);
    exp->exp_type = htonl(INTEL_PORT_STATS_RFC2819);
    ofpbuf_put_zeros(b, 4);
    memset(ofpbuf_put_uninit(b, INTEL_RFC2819_N_COUNTERS * 8), 0xff,
           INTEL_RFC2819_N_COUNTERS * 8);
    put_intel_prop_end(b, start);
}

static void
put_custom_stats(struct ofpbuf *b, const struct ofputil_port_stats *ps)
{
    size_t start = b->size;
    struct ofp_prop_experimenter *exp = ofpbuf_put_zeros(b, sizeof *exp);
    exp->type = htons(0xffff);
    exp->experimenter = htonl(INTEL_VENDOR_ID);
    exp->exp_type = htonl(INTEL_PORT_STATS_CUSTOM);
    ofpbuf_put_zeros(b, 2);
    ovs_be16 n = htons(ps->n_custom);
    ofpbuf_put(b, &n, sizeof n);
    for (size_t i = 0; i < ps->n_custom; i++) {
        const struct ofputil_custom_stat *c = &ps->custom[i];
        uint8_t len = strnlen(c->name, sizeof c->name - 1);
        ofpbuf_put(b, &len, 1);
        ofpbuf_put(b, c->name, len);
        ovs_be64 value = htonll(c->value);
        ofpbuf_put(b, &value, sizeof value);
    }
    put_intel_prop_end(b, start);
}

void
ofputil_append_port_stat(struct ovs_list *replies,
                         const struct ofputil_port_stats *ps)
{
    enum ofp_version version = ofpmp_version(replies);
    ovs_be64 w[12];
    counters_to_wire(ps, w);
    if (version == OFP10_VERSION) {
        struct ofp10_port_stats *op = ofpmp_append(replies, sizeof *op);
        memset(op, 0, sizeof *op);
        op->port_no = htons(ps->port_no);
        memcpy(&op->rx_packets, w, sizeof w);
    } else if (version <= OFP12_VERSION) {
        struct ofp11_port_stats *op = ofpmp_append(replies, sizeof *op);
        memset(op, 0, sizeof *op);
        op->port_no = ofputil_port_to_ofp11(ps->port_no);
        memcpy(&op->rx_packets, w, sizeof w);
    } else if (version == OFP13_VERSION) {
        struct ofp13_port_stats *op = ofpmp_append(replies, sizeof *op);
        memset(op, 0, sizeof *op);
        op->ps.port_no = ofputil_port_to_ofp11(ps->port_no);
        memcpy(&op->ps.rx_packets, w, sizeof w);
        op->duration_sec = htonl(ps->duration_sec);
        op->duration_nsec = htonl(ps->duration_nsec);
    } else {
        struct ofpbuf entry;
        ofpbuf_init(&entry, 512);
        struct ofp14_port_stats *op = ofpbuf_put_zeros(&entry, sizeof *op);
        op->port_no = ofputil_port_to_ofp11(ps->port_no);
        op->duration_sec = htonl(ps->duration_sec);
        op->duration_nsec = htonl(ps->duration_nsec);
        memcpy(&op->rx_packets, w, 8 * sizeof w[0]);
        struct ofp14_port_stats_prop_ethernet *eth
            = ofpbuf_put_zeros(&entry, sizeof *eth);
        eth->type = htons(OFPPSPT14_ETHERNET);
        eth->length = htons(sizeof *eth);
        memcpy(&eth->rx_frame_err, &w[8], 4 * sizeof w[0]);
        put_rfc2819_stats(&entry);
        if (ps->n_custom) {
            put_custom_stats(&entry, ps);
        }
        op = entry.data;
        op->length = htons(entry.size);
        memcpy(ofpmp_append(replies, entry.size), entry.data, entry.size);
        ofpbuf_uninit(&entry);
    }
}

/* Reads the custom counters (above); other experimenter properties are
 * skipped. */
static enum ofperr
pull_custom_stats(const struct ofpbuf *prop, struct ofputil_port_stats *ps)
{
    const struct ofp_prop_experimenter *exp = prop->data;
    if (prop->size < sizeof *exp + 4) {
        return prop->size < sizeof *exp ? OFPERR_OFPBPC_BAD_LEN : 0;
    }
    if (ntohl(exp->experimenter) != INTEL_VENDOR_ID
        || ntohl(exp->exp_type) != INTEL_PORT_STATS_CUSTOM) {
        return 0;
    }
    const uint8_t *p = (const uint8_t *) (exp + 1) + 4;
    const uint8_t *end = (const uint8_t *) prop->data + prop->size;
    while (p < end) {
        size_t len = *p;
        if ((size_t) (end - p) < 1 + len + 8) {
            return OFPERR_OFPBPC_BAD_LEN;
        }
        if (ps->n_custom < ARRAY_SIZE(ps->custom)) {
            struct ofputil_custom_stat *c = &ps->custom[ps->n_custom++];
            size_t copy = MIN(len, sizeof c->name - 1);
            memcpy(c->name, p + 1, copy);
            c->name[copy] = '\0';
            ovs_be64 value;
            memcpy(&value, p + 1 + len, sizeof value);
            c->value = ntohll(value);
        }
        p += 1 + len + 8;
    }
    return 0;
}

static int
pull_ofp14_port_stats(struct ofputil_port_stats *ps, struct ofpbuf *b)
{
    const struct ofp14_port_stats *op;
    struct ofpbuf props;
    enum ofperr error = pull_ofp14_record(
        b, sizeof *op, offsetof(struct ofp14_port_stats, length),
        (const void **) &op, &props);
    if (error) {
        return error;
    }

    error = ofputil_port_from_ofp11(op->port_no, &ps->port_no);
    if (error) {
        return error;
    }
    ps->duration_sec = ntohl(op->duration_sec);
    ps->duration_nsec = ntohl(op->duration_nsec);
    ovs_be64 w[12];
    memcpy(w, &op->rx_packets, 8 * sizeof w[0]);
    /* Without the Ethernet property these are unknown. */
    for (int i = 8; i < 12; i++) {
        w[i] = OVS_BE64_MAX;
    }
    while (props.size > 0) {
        struct ofpbuf prop;
        uint16_t type;
        error = ofpprop_pull(&props, &prop, &type);
        if (error) {
            return error;
        }
        if (type == OFPPSPT14_ETHERNET) {
            const struct ofp14_port_stats_prop_ethernet *eth = prop.data;
            if (prop.size != sizeof *eth) {
                return OFPERR_OFPBPC_BAD_LEN;
            }
            memcpy(&w[8], &eth->rx_frame_err, 4 * sizeof w[0]);
        } else if (type == 0xffff) {
            error = pull_custom_stats(&prop, ps);
            if (error) {
                return error;
            }
        }
    }
    counters_from_wire(ps, w);
    return 0;
}

int
ofputil_decode_port_stats(struct ofputil_port_stats *ps, struct ofpbuf *b)
{
    memset(ps, 0, sizeof *ps);
    ps->duration_sec = ps->duration_nsec = UINT32_MAX;

    enum ofpraw raw;
    if (!b->header) {
        enum ofperr error = ofpraw_pull(&raw, b);
        if (error) {
            return error;
        }
    } else {
        enum ofperr error = ofpraw_decode(&raw, b->header);
        if (error) {
            return error;
        }
    }
    if (!b->size) {
        return EOF;
    }

    if (raw == OFPRAW_OFPST10_PORT_REPLY) {
        const struct ofp10_port_stats *op = ofpbuf_try_pull(b, sizeof *op);
        if (!op) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        ps->port_no = ntohs(op->port_no);
        ovs_be64 w[12];
        memcpy(w, &op->rx_packets, sizeof w);
        counters_from_wire(ps, w);
        return 0;
    } else if (raw == OFPRAW_OFPST11_PORT_REPLY
               || raw == OFPRAW_OFPST13_PORT_REPLY) {
        const struct ofp11_port_stats *op = b->data;
        size_t len = (raw == OFPRAW_OFPST13_PORT_REPLY
                      ? sizeof(struct ofp13_port_stats) : sizeof *op);
        if (!ofpbuf_try_pull(b, len)) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        enum ofperr error = ofputil_port_from_ofp11(op->port_no,
                                                    &ps->port_no);
        if (error) {
            return error;
        }
        ovs_be64 w[12];
        memcpy(w, &op->rx_packets, sizeof w);
        counters_from_wire(ps, w);
        if (raw == OFPRAW_OFPST13_PORT_REPLY) {
            const struct ofp13_port_stats *op13 = (const void *) op;
            ps->duration_sec = ntohl(op13->duration_sec);
            ps->duration_nsec = ntohl(op13->duration_nsec);
        }
        return 0;
    } else if (raw == OFPRAW_OFPST14_PORT_REPLY) {
        return pull_ofp14_port_stats(ps, b);
    }
    return OFPERR_OFPBRC_BAD_TYPE;
}

int
ofputil_count_port_stats(const struct ofp_header *oh)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    int n = 0;
    for (;;) {
        struct ofputil_port_stats ps;
        if (ofputil_decode_port_stats(&ps, &b)) {
            return n;
        }
        n++;
    }
}

static void
format_counter(struct ds *s, const char *name, uint64_t value, bool more)
{
    ds_put_format(s, "%s=", name);
    if (value == UINT64_MAX) {
        ds_put_char(s, '?');
    } else {
        ds_put_format(s, "%"PRIu64, value);
    }
    if (more) {
        ds_put_cstr(s, ", ");
    }
}

void
ofputil_port_stats_format(struct ds *s, const struct ofputil_port_stats *ps,
                          const struct ofputil_port_map *port_map)
{
    ds_put_cstr(s, "  port ");
    if (ps->port_no < 10) {
        ds_put_char(s, ' ');
    }
    ofputil_format_port(ps->port_no, port_map, s);
    ds_put_cstr(s, ": rx ");
    format_counter(s, "pkts", ps->rx_packets, true);
    format_counter(s, "bytes", ps->rx_bytes, true);
    format_counter(s, "drop", ps->rx_dropped, true);
    format_counter(s, "errs", ps->rx_errors, true);
    format_counter(s, "frame", ps->rx_frame_errors, true);
    format_counter(s, "over", ps->rx_over_errors, true);
    format_counter(s, "crc", ps->rx_crc_errors, false);
    ds_put_cstr(s, "\n           tx ");
    format_counter(s, "pkts", ps->tx_packets, true);
    format_counter(s, "bytes", ps->tx_bytes, true);
    format_counter(s, "drop", ps->tx_dropped, true);
    format_counter(s, "errs", ps->tx_errors, true);
    format_counter(s, "coll", ps->collisions, false);
    ds_put_char(s, '\n');
    if (ps->duration_sec != UINT32_MAX) {
        /* Whole seconds print without a fraction, as in 3.1. */
        ds_put_format(s, "           duration=%"PRIu32, ps->duration_sec);
        if (ps->duration_nsec) {
            ds_put_format(s, ".%03"PRIu32, ps->duration_nsec / 1000000);
        }
        ds_put_cstr(s, "s\n");
    }
    if (ps->n_custom) {
        ds_put_cstr(s, "           CUSTOM Statistics");
        for (size_t i = 0; i < ps->n_custom; i++) {
            ds_put_cstr(s, i % 3 ? " " : "\n                      ");
            ds_put_format(s, "%s=%"PRIu64",", ps->custom[i].name,
                          ps->custom[i].value);
        }
        ds_put_char(s, '\n');
    }
}
