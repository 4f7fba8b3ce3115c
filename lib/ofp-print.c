/* ofp-print: OpenFlow messages as text.  See ofp-print.h. */
#include <config.h>

#include "ofp-print.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-actions.h"
#include "ofp-errors.h"
#include "ofp-flow.h"
#include "ofp-group.h"
#include "ofp-meter.h"
#include "ofp-monitor.h"
#include "ofp-msgs.h"
#include "ofp-packet.h"
#include "ofp-phy-port.h"
#include "ofp-port.h"
#include "ofp-bundle.h"
#include "ofp-ct.h"
#include "ofp-protocol.h"
#include "ofp-queue.h"
#include "ofp-requestforward.h"
#include "ofp-switch.h"
#include "ofp-table.h"
#include "ofp-tlv.h"
#include "ofpbuf.h"
#include "openflow.h"
#include "util.h"

/* Every per-message printer appends the body to S (the header line, up to
 * and including its colon, is already there) and returns 0, or an OpenFlow
 * error if the body does not decode; the caller then prints the error and
 * a hex dump of the whole message. */
typedef enum ofperr print_func(struct ds *s, const struct ofp_header *oh,
                               enum ofpraw raw,
                               const struct ofputil_port_map *port_map,
                               int verbosity);

void
ofp_header_to_string__(const struct ofp_header *oh, int raw, struct ds *s)
{
    ds_put_cstr(s, ofpraw_get_name(raw));
    if (oh->version != OFP10_VERSION) {
        const char *name = ofputil_version_short_name(oh->version);
        if (name) {
            ds_put_format(s, " (%s)", name);
        } else {
            ds_put_format(s, " (OF 0x%02"PRIx8")", oh->version);
        }
    }
    ds_put_format(s, " (xid=0x%"PRIx32"):", ntohl(oh->xid));
}

/* Multipart flags, printed after the header line when set. */
static void
print_stats_flags(struct ds *s, const struct ofp_header *oh)
{
    uint16_t flags = ofpmp_flags(oh);
    if (!flags) {
        return;
    }
    ds_put_cstr(s, " flags=");
    if (ofpmsg_is_stat_reply(oh) && flags & OFPSF_REPLY_MORE) {
        ds_put_cstr(s, "[more]");
        flags &= ~OFPSF_REPLY_MORE;
    }
    if (flags) {
        ds_put_format(s, "[***unknown flags 0x%04"PRIx16"***]", flags);
    }
}

/* ------------------------------------------------------------------ */
/* Per-message printers. */

static enum ofperr
print_nothing(struct ds *s OVS_UNUSED, const struct ofp_header *oh OVS_UNUSED,
              enum ofpraw raw OVS_UNUSED,
              const struct ofputil_port_map *pm OVS_UNUSED,
              int verbosity OVS_UNUSED)
{
    return 0;
}

static enum ofperr
print_hello(struct ds *s, const struct ofp_header *oh,
            enum ofpraw raw OVS_UNUSED,
            const struct ofputil_port_map *pm OVS_UNUSED,
            int verbosity OVS_UNUSED)
{
    uint32_t bitmap;
    bool ok = ofputil_decode_hello(oh, &bitmap);
    ds_put_cstr(s, "\n version bitmap: ");
    ofputil_format_version_bitmap(s, bitmap);
    ds_put_char(s, '\n');
    if (!ok) {
        ds_put_cstr(s, " unknown data in hello:\n");
        ds_put_hex_dump(s, oh, ntohs(oh->length), 0, true);
    }
    return 0;
}

static enum ofperr
print_error(struct ds *s, const struct ofp_header *oh,
            enum ofpraw raw OVS_UNUSED,
            const struct ofputil_port_map *pm, int verbosity OVS_UNUSED)
{
    struct ofpbuf payload;
    enum ofperr error = ofperr_decode_msg(oh, &payload);
    if (!error) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    ds_put_format(s, " %s\n", ofperr_get_name(error));
    if (error == OFPERR_OFPHFC_INCOMPATIBLE || error == OFPERR_OFPHFC_EPERM) {
        ds_put_printable(s, payload.data, payload.size);
        ds_put_char(s, '\n');
    } else {
        char *inner = ofp_to_string(payload.data, payload.size, pm, 1);
        ds_put_cstr(s, inner);
        free(inner);
    }
    return 0;
}

static enum ofperr
print_echo(struct ds *s, const struct ofp_header *oh,
           enum ofpraw raw OVS_UNUSED,
           const struct ofputil_port_map *pm OVS_UNUSED, int verbosity)
{
    size_t len = ntohs(oh->length) - sizeof *oh;
    ds_put_format(s, " %zu bytes of payload\n", len);
    if (verbosity > 1) {
        ds_put_hex_dump(s, oh + 1, len, 0, true);
    }
    return 0;
}

/* Ports sorted by number, as 3.1 lists them in features replies and port
 * description replies.  B holds the ports in VERSION's layout. */
static enum ofperr
print_phy_ports(struct ds *s, enum ofp_version version, struct ofpbuf *b)
{
    struct ofputil_phy_port *ports = NULL;
    size_t n = 0, allocated = 0;
    int retval;
    for (;;) {
        struct ofputil_phy_port pp;
        retval = ofputil_pull_phy_port(version, b, &pp);
        if (retval) {
            break;
        }
        if (n >= allocated) {
            allocated = allocated ? 2 * allocated : 8;
            ports = xrealloc(ports, allocated * sizeof *ports);
        }
        ports[n++] = pp;
    }
    /* The ports before a bad one are printed, then its error. */
    for (size_t i = 1; i < n; i++) {
        /* Insertion sort: port lists are short, and it is stable. */
        struct ofputil_phy_port pp = ports[i];
        size_t j = i;
        while (j > 0 && ports[j - 1].port_no > pp.port_no) {
            ports[j] = ports[j - 1];
            j--;
        }
        ports[j] = pp;
    }
    for (size_t i = 0; i < n; i++) {
        ofputil_phy_port_format(s, &ports[i], version, NULL);
    }
    free(ports);
    return retval == EOF ? 0 : retval;
}

static enum ofperr
print_features_reply(struct ds *s, const struct ofp_header *oh,
                     enum ofpraw raw OVS_UNUSED,
                     const struct ofputil_port_map *pm OVS_UNUSED,
                     int verbosity OVS_UNUSED)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    struct ofputil_switch_features f;
    enum ofperr error = ofputil_pull_switch_features(&b, &f);
    if (error) {
        return error;
    }
    ds_put_format(s, " dpid:%016"PRIx64"\n", f.datapath_id);
    ds_put_format(s, "n_tables:%"PRIu8", n_buffers:%"PRIu32,
                  f.n_tables, f.n_buffers);
    if (f.auxiliary_id) {
        ds_put_format(s, ", auxiliary_id:%"PRIu8, f.auxiliary_id);
    }
    ds_put_cstr(s, "\ncapabilities: ");
    ofputil_capabilities_format(s, f.capabilities);
    ds_put_char(s, '\n');
    if (oh->version == OFP10_VERSION && f.ofp10_actions) {
        ds_put_cstr(s, "actions: ");
        ofputil_ofp10_actions_format(s, f.ofp10_actions);
        ds_put_char(s, '\n');
    }
    if (ofputil_switch_features_has_ports(oh)) {
        return print_phy_ports(s, oh->version, &b);
    }
    return 0;
}

static enum ofperr
print_switch_config(struct ds *s, const struct ofp_header *oh,
                    enum ofpraw raw,
                    const struct ofputil_port_map *pm OVS_UNUSED,
                    int verbosity OVS_UNUSED)
{
    struct ofputil_switch_config config;
    enum ofperr error = (raw == OFPRAW_OFPT_SET_CONFIG
                         ? ofputil_decode_set_config(oh, &config)
                         : ofputil_decode_get_config_reply(oh, &config));
    if (error) {
        return error;
    }
    ds_put_format(s, " frags=%s", ofputil_frag_handling_to_string(
                      config.frag));
    if (config.invalid_ttl_to_controller > 0) {
        ds_put_cstr(s, " invalid_ttl_to_controller");
    }
    ds_put_format(s, " miss_send_len=%"PRIu16"\n", config.miss_send_len);
    return 0;
}

static enum ofperr
print_port_status(struct ds *s, const struct ofp_header *oh,
                  enum ofpraw raw OVS_UNUSED,
                  const struct ofputil_port_map *pm OVS_UNUSED,
                  int verbosity OVS_UNUSED)
{
    struct ofputil_port_status ps;
    enum ofperr error = ofputil_decode_port_status(oh, &ps);
    if (error) {
        return error;
    }
    ds_put_cstr(s, (ps.reason == OFPPR_ADD ? " ADD:"
                    : ps.reason == OFPPR_DELETE ? " DEL:" : " MOD:"));
    ofputil_phy_port_format(s, &ps.desc, oh->version, NULL);
    return 0;
}

/* The printers of lib/ofp-flow, ofp-packet, ofp-group and ofp-meter append
 * a message's body without its final newline; these add it. */
static enum ofperr
end_line(struct ds *s, enum ofperr error)
{
    if (!error) {
        ds_put_char(s, '\n');
    }
    return error;
}

static enum ofperr
print_flow_mod(struct ds *s, const struct ofp_header *oh,
               enum ofpraw raw OVS_UNUSED,
               const struct ofputil_port_map *pm, int verbosity)
{
    return end_line(s, ofputil_flow_mod_print(s, oh, pm, verbosity));
}

static enum ofperr
print_flow_stats_request(struct ds *s, const struct ofp_header *oh,
                         enum ofpraw raw OVS_UNUSED,
                         const struct ofputil_port_map *pm,
                         int verbosity OVS_UNUSED)
{
    return end_line(s, ofputil_flow_stats_request_print(s, oh, pm, NULL));
}

static enum ofperr
print_flow_stats_reply(struct ds *s, const struct ofp_header *oh,
                       enum ofpraw raw OVS_UNUSED,
                       const struct ofputil_port_map *pm,
                       int verbosity OVS_UNUSED)
{
    return end_line(s, ofputil_flow_stats_reply_print(s, oh, pm, NULL));
}

static enum ofperr
print_aggregate_reply(struct ds *s, const struct ofp_header *oh,
                      enum ofpraw raw OVS_UNUSED,
                      const struct ofputil_port_map *pm OVS_UNUSED,
                      int verbosity OVS_UNUSED)
{
    return end_line(s, ofputil_aggregate_stats_reply_print(s, oh));
}

static enum ofperr
print_flow_removed(struct ds *s, const struct ofp_header *oh,
                   enum ofpraw raw OVS_UNUSED,
                   const struct ofputil_port_map *pm, int verbosity OVS_UNUSED)
{
    return end_line(s, ofputil_flow_removed_print(s, oh, pm, NULL));
}

static enum ofperr
print_packet_in(struct ds *s, const struct ofp_header *oh,
                enum ofpraw raw OVS_UNUSED,
                const struct ofputil_port_map *pm, int verbosity)
{
    return end_line(s, ofputil_packet_in_print(s, oh, pm, NULL, verbosity));
}

static enum ofperr
print_packet_out(struct ds *s, const struct ofp_header *oh,
                 enum ofpraw raw OVS_UNUSED,
                 const struct ofputil_port_map *pm, int verbosity)
{
    return end_line(s, ofputil_packet_out_print(s, oh, pm, NULL, verbosity));
}

static enum ofperr
print_group_mod(struct ds *s, const struct ofp_header *oh,
                enum ofpraw raw OVS_UNUSED,
                const struct ofputil_port_map *pm, int verbosity OVS_UNUSED)
{
    return end_line(s, ofputil_group_mod_print(s, oh, pm));
}

static enum ofperr
print_requestforward(struct ds *s, const struct ofp_header *oh,
                     enum ofpraw raw OVS_UNUSED,
                     const struct ofputil_port_map *pm,
                     int verbosity OVS_UNUSED)
{
    return end_line(s, ofputil_requestforward_print(s, oh, pm));
}

static enum ofperr
print_group_desc(struct ds *s, const struct ofp_header *oh,
                 enum ofpraw raw OVS_UNUSED,
                 const struct ofputil_port_map *pm, int verbosity OVS_UNUSED)
{
    return end_line(s, ofputil_group_desc_print(s, oh, pm));
}

/* The group and meter printers that need nothing but the message. */
#define PRINT_BODY(NAME, FUNCTION)                                      \
    static enum ofperr                                                  \
    NAME(struct ds *s, const struct ofp_header *oh,                     \
         enum ofpraw raw OVS_UNUSED,                                    \
         const struct ofputil_port_map *pm OVS_UNUSED,                  \
         int verbosity OVS_UNUSED)                                      \
    {                                                                   \
        return end_line(s, FUNCTION(s, oh));                            \
    }
PRINT_BODY(print_group_request, ofputil_group_request_print)
PRINT_BODY(print_group_stats, ofputil_group_stats_print)
PRINT_BODY(print_group_features, ofputil_group_features_print)
PRINT_BODY(print_meter_mod, ofputil_meter_mod_print)
PRINT_BODY(print_meter_request, ofputil_meter_request_print)
PRINT_BODY(print_meter_config_reply, ofputil_meter_config_reply_print)
PRINT_BODY(print_meter_stats_reply, ofputil_meter_stats_reply_print)
PRINT_BODY(print_meter_features_reply, ofputil_meter_features_reply_print)

static enum ofperr
print_port_mod(struct ds *s, const struct ofp_header *oh,
               enum ofpraw raw OVS_UNUSED,
               const struct ofputil_port_map *pm, int verbosity OVS_UNUSED)
{
    struct ofputil_port_mod mod;
    enum ofperr error = ofputil_decode_port_mod(oh, &mod, true);
    if (error) {
        return error;
    }
    ds_put_char(s, ' ');
    ofputil_port_mod_format(s, &mod, pm);
    return 0;
}

static enum ofperr
print_table_mod(struct ds *s, const struct ofp_header *oh,
                enum ofpraw raw OVS_UNUSED,
                const struct ofputil_port_map *pm OVS_UNUSED,
                int verbosity OVS_UNUSED)
{
    struct ofputil_table_mod tm;
    enum ofperr error = ofputil_decode_table_mod(oh, &tm);
    if (error) {
        return error;
    }
    ofputil_table_mod_format(s, &tm, NULL);
    return 0;
}

static enum ofperr
print_role(struct ds *s, const struct ofp_header *oh,
           enum ofpraw raw OVS_UNUSED,
           const struct ofputil_port_map *pm OVS_UNUSED,
           int verbosity OVS_UNUSED)
{
    struct ofputil_role_request rr;
    enum ofperr error = ofputil_decode_role_message(oh, &rr);
    if (error) {
        return error;
    }
    ds_put_format(s, " role=%s", ofputil_role_to_string(rr.role));
    if (rr.have_generation_id) {
        ds_put_format(s, " generation_id=%"PRIu64, rr.generation_id);
    }
    ds_put_char(s, '\n');
    return 0;
}

static enum ofperr
print_role_status(struct ds *s, const struct ofp_header *oh,
                  enum ofpraw raw OVS_UNUSED,
                  const struct ofputil_port_map *pm OVS_UNUSED,
                  int verbosity OVS_UNUSED)
{
    struct ofputil_role_status rs;
    enum ofperr error = ofputil_decode_role_status(oh, &rs);
    if (error) {
        return error;
    }
    ds_put_format(s, " role=%s", ofputil_role_to_string(rs.role));
    if (rs.generation_id != UINT64_MAX) {
        ds_put_format(s, " generation_id=%"PRIu64, rs.generation_id);
    }
    ds_put_format(s, " reason=%s\n",
                  (rs.reason == OFPCRR_MASTER_REQUEST ? "primary_request"
                   : rs.reason == OFPCRR_CONFIG ? "configuration_changed"
                   : rs.reason == OFPCRR_EXPERIMENTER
                   ? "experimenter_data_changed" : "(unknown)"));
    return 0;
}

static enum ofperr
print_bundle_ctrl(struct ds *s, const struct ofp_header *oh,
                  enum ofpraw raw OVS_UNUSED,
                  const struct ofputil_port_map *pm OVS_UNUSED,
                  int verbosity OVS_UNUSED)
{
    struct ofputil_bundle_ctrl_msg bc;
    enum ofperr error = ofputil_decode_bundle_ctrl(oh, &bc);
    if (error) {
        return error;
    }
    ds_put_format(s, "\n bundle_id=%#"PRIx32" type=%s flags=", bc.bundle_id,
                  ofputil_bundle_ctrl_type_to_string(bc.type));
    ofputil_format_bundle_flags(s, bc.flags);
    ds_put_char(s, '\n');
    return 0;
}

static enum ofperr
print_bundle_add(struct ds *s, const struct ofp_header *oh,
                 enum ofpraw raw OVS_UNUSED,
                 const struct ofputil_port_map *pm, int verbosity)
{
    struct ofputil_bundle_add_msg badd;
    enum ofperr error = ofputil_decode_bundle_add(oh, &badd);
    if (error) {
        return error;
    }
    ds_put_format(s, "\n bundle_id=%#"PRIx32" flags=", badd.bundle_id);
    ofputil_format_bundle_flags(s, badd.flags);
    ds_put_char(s, '\n');
    char *inner = ofp_to_string(badd.msg, ntohs(badd.msg->length), pm,
                                verbosity);
    ds_put_cstr(s, inner);
    free(inner);
    return 0;
}

static enum ofperr
print_async_config(struct ds *s, const struct ofp_header *oh,
                   enum ofpraw raw OVS_UNUSED,
                   const struct ofputil_port_map *pm OVS_UNUSED,
                   int verbosity OVS_UNUSED)
{
    /* Whatever the message does not set prints as off. */
    struct ofputil_async_cfg basis, cfg;
    memset(&basis, 0, sizeof basis);
    enum ofperr error = ofputil_decode_set_async_config(oh, false, &basis,
                                                        &cfg);
    if (error) {
        return error;
    }
    ds_put_char(s, '\n');
    ofputil_format_set_async_config(s, &cfg);
    return 0;
}

static enum ofperr
print_desc_reply(struct ds *s, const struct ofp_header *oh,
                 enum ofpraw raw OVS_UNUSED,
                 const struct ofputil_port_map *pm OVS_UNUSED,
                 int verbosity OVS_UNUSED)
{
    struct ofputil_desc d;
    enum ofperr error = ofputil_decode_desc_stats_reply(oh, &d);
    if (error) {
        return error;
    }
    ds_put_format(s, "\nManufacturer: %s\n", d.mfr_desc);
    ds_put_format(s, "Hardware: %s\n", d.hw_desc);
    ds_put_format(s, "Software: %s\n", d.sw_desc);
    ds_put_format(s, "Serial Num: %s\n", d.serial_num);
    ds_put_format(s, "DP Description: %s\n", d.dp_desc);
    return 0;
}

/* The port a port desc or port stats request names, after LABEL. */
static enum ofperr
print_port_request(struct ds *s, const char *label, uint32_t port,
                   enum ofperr error, const struct ofputil_port_map *pm)
{
    if (!error) {
        ds_put_format(s, " %s=", label);
        ofputil_format_port(port, pm, s);
        ds_put_char(s, '\n');
    }
    return error;
}

static enum ofperr
print_port_desc_request(struct ds *s, const struct ofp_header *oh,
                        enum ofpraw raw OVS_UNUSED,
                        const struct ofputil_port_map *pm,
                        int verbosity OVS_UNUSED)
{
    uint32_t port;
    enum ofperr error = ofputil_decode_port_desc_stats_request(oh, &port);
    return print_port_request(s, "port", port, error, pm);
}

static enum ofperr
print_port_desc_reply(struct ds *s, const struct ofp_header *oh,
                      enum ofpraw raw OVS_UNUSED,
                      const struct ofputil_port_map *pm OVS_UNUSED,
                      int verbosity OVS_UNUSED)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    ofpraw_pull_assert(&b);
    ds_put_char(s, '\n');
    return print_phy_ports(s, oh->version, &b);
}

static enum ofperr
print_port_stats_request(struct ds *s, const struct ofp_header *oh,
                         enum ofpraw raw OVS_UNUSED,
                         const struct ofputil_port_map *pm,
                         int verbosity OVS_UNUSED)
{
    uint32_t port;
    enum ofperr error = ofputil_decode_port_stats_request(oh, &port);
    return print_port_request(s, "port_no", port, error, pm);
}

static enum ofperr
print_port_stats_reply(struct ds *s, const struct ofp_header *oh,
                       enum ofpraw raw OVS_UNUSED,
                       const struct ofputil_port_map *pm,
                       int verbosity OVS_UNUSED)
{
    /* The count is of the entries before any bad one, which then stops
     * the listing with its error. */
    ds_put_format(s, " %d ports\n", ofputil_count_port_stats(oh));
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    for (;;) {
        struct ofputil_port_stats ps;
        int retval = ofputil_decode_port_stats(&ps, &b);
        if (retval) {
            return retval == EOF ? 0 : retval;
        }
        ofputil_port_stats_format(s, &ps, pm);
    }
}

static enum ofperr
print_queue_stats_request(struct ds *s, const struct ofp_header *oh,
                          enum ofpraw raw OVS_UNUSED,
                          const struct ofputil_port_map *pm,
                          int verbosity OVS_UNUSED)
{
    struct ofputil_queue_stats_request rq;
    enum ofperr error = ofputil_decode_queue_stats_request(oh, &rq);
    if (!error) {
        ofputil_queue_stats_request_format(s, &rq, pm);
        ds_put_char(s, '\n');
    }
    return error;
}

static enum ofperr
print_queue_stats_reply(struct ds *s, const struct ofp_header *oh,
                        enum ofpraw raw OVS_UNUSED,
                        const struct ofputil_port_map *pm,
                        int verbosity OVS_UNUSED)
{
    /* As for ports: the count is of the entries that decode. */
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    int n = 0;
    struct ofputil_queue_stats qs;
    while (!ofputil_decode_queue_stats(&qs, &b)) {
        n++;
    }
    ds_put_format(s, " %d queues\n", n);
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    for (;;) {
        int retval = ofputil_decode_queue_stats(&qs, &b);
        if (retval) {
            return retval == EOF ? 0 : retval;
        }
        ofputil_queue_stats_format(s, &qs, pm);
    }
}

static enum ofperr
print_queue_config_request(struct ds *s, const struct ofp_header *oh,
                           enum ofpraw raw OVS_UNUSED,
                           const struct ofputil_port_map *pm,
                           int verbosity OVS_UNUSED)
{
    return ofputil_queue_get_config_request_print(s, oh, pm);
}

static enum ofperr
print_queue_config_reply(struct ds *s, const struct ofp_header *oh,
                         enum ofpraw raw OVS_UNUSED,
                         const struct ofputil_port_map *pm,
                         int verbosity OVS_UNUSED)
{
    return ofputil_queue_get_config_reply_print(s, oh, pm);
}

static enum ofperr
print_table_desc_reply(struct ds *s, const struct ofp_header *oh,
                       enum ofpraw raw OVS_UNUSED,
                       const struct ofputil_port_map *pm OVS_UNUSED,
                       int verbosity OVS_UNUSED)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    for (;;) {
        struct ofputil_table_desc td;
        int retval = ofputil_decode_table_desc(&b, &td);
        if (retval) {
            return retval == EOF ? 0 : retval;
        }
        ofputil_table_desc_format(s, &td, NULL);
    }
}

static enum ofperr
print_table_status(struct ds *s, const struct ofp_header *oh,
                   enum ofpraw raw OVS_UNUSED,
                   const struct ofputil_port_map *pm OVS_UNUSED,
                   int verbosity OVS_UNUSED)
{
    struct ofputil_table_status ts;
    enum ofperr error = ofputil_decode_table_status(oh, &ts);
    if (!error) {
        ofputil_table_status_format(s, &ts, NULL);
    }
    return error;
}

static enum ofperr
print_table_stats_reply(struct ds *s, const struct ofp_header *oh,
                        enum ofpraw raw OVS_UNUSED,
                        const struct ofputil_port_map *pm OVS_UNUSED,
                        int verbosity OVS_UNUSED)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    struct ofputil_table_stats_printer p;
    ofputil_table_stats_printer_init(&p, oh->version);
    int retval;
    for (;;) {
        struct ofputil_table_stats ts;
        struct ofputil_table_features tf;
        retval = ofputil_decode_table_stats_reply(&b, &ts, &tf);
        if (retval) {
            break;
        }
        ofputil_table_stats_printer_add(&p, s, &ts, &tf);
    }
    if (retval != EOF) {
        return retval;
    }
    ofputil_table_stats_printer_finish(&p, s);
    return 0;
}

/* A table features reply, or a request that sets features (1.5's says
 * its command, as 3.1 prints it, whenever it changes). */
static enum ofperr
print_table_features_reply(struct ds *s, const struct ofp_header *oh,
                           enum ofpraw raw,
                           const struct ofputil_port_map *pm OVS_UNUSED,
                           int verbosity OVS_UNUSED)
{
    static const char *const commands[] = {
        "replace", "modify", "enable", "disable",
    };
    bool request = raw == OFPRAW_OFPST13_TABLE_FEATURES_REQUEST;
    int last_command = -1;
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    struct ofputil_table_stats_printer p;
    ofputil_table_stats_printer_init(&p, oh->version);
    int retval;
    for (;;) {
        struct ofputil_table_features tf;
        retval = ofputil_decode_table_features(&b, &tf, true);
        if (retval) {
            break;
        }
        if (request && oh->version >= OFP15_VERSION
            && tf.command != last_command) {
            if (last_command >= 0) {
                ofputil_table_stats_printer_finish(&p, s);
                ofputil_table_stats_printer_init(&p, oh->version);
            }
            last_command = tf.command;
            if (tf.command < ARRAY_SIZE(commands)) {
                ds_put_format(s, "\n  command: %s", commands[tf.command]);
            } else {
                ds_put_format(s, "\n  command: %"PRIu8, tf.command);
            }
        }
        ofputil_table_stats_printer_add(&p, s, NULL, &tf);
    }
    if (retval != EOF) {
        return retval;
    }
    ofputil_table_stats_printer_finish(&p, s);
    return 0;
}

static enum ofperr
print_set_flow_format(struct ds *s, const struct ofp_header *oh,
                      enum ofpraw raw OVS_UNUSED,
                      const struct ofputil_port_map *pm OVS_UNUSED,
                      int verbosity OVS_UNUSED)
{
    const struct nx_set_flow_format *sff = ofpmsg_body(oh);
    uint32_t format = ntohl(sff->format);
    ds_put_format(s, " format=%s\n",
                  ofputil_nx_flow_format_is_valid(format)
                  ? ofputil_nx_flow_format_to_string(format) : "(unknown)");
    return 0;
}

static enum ofperr
print_flow_mod_table_id(struct ds *s, const struct ofp_header *oh,
                        enum ofpraw raw OVS_UNUSED,
                        const struct ofputil_port_map *pm OVS_UNUSED,
                        int verbosity OVS_UNUSED)
{
    const struct nx_flow_mod_table_id *nfmti = ofpmsg_body(oh);
    ds_put_format(s, " %s\n", nfmti->set ? "enable" : "disable");
    return 0;
}

static enum ofperr
print_set_controller_id(struct ds *s, const struct ofp_header *oh,
                        enum ofpraw raw OVS_UNUSED,
                        const struct ofputil_port_map *pm OVS_UNUSED,
                        int verbosity OVS_UNUSED)
{
    /* 3.1 prints the id whatever the padding holds. */
    const struct nx_controller_id *nci = ofpmsg_body(oh);
    ds_put_format(s, " id=%"PRIu16"\n", ntohs(nci->controller_id));
    return 0;
}

static enum ofperr
print_ct_flush_zone(struct ds *s, const struct ofp_header *oh,
                    enum ofpraw raw OVS_UNUSED,
                    const struct ofputil_port_map *pm OVS_UNUSED,
                    int verbosity OVS_UNUSED)
{
    /* 3.1 prints the zone whatever the padding holds. */
    const struct nx_zone_id *nzi = ofpmsg_body(oh);
    ds_put_format(s, " zone_id=%"PRIu16"\n", ntohs(nzi->zone_id));
    return 0;
}

static enum ofperr
print_ct_flush(struct ds *s, const struct ofp_header *oh,
               enum ofpraw raw OVS_UNUSED,
               const struct ofputil_port_map *pm OVS_UNUSED,
               int verbosity OVS_UNUSED)
{
    struct ofputil_ct_match match;
    bool with_zone;
    uint16_t zone;
    enum ofperr error = ofputil_decode_ct_flush(oh, &match, &with_zone,
                                                &zone);
    if (error) {
        return error;
    }
    ds_put_format(s, " zone=%"PRIu16" ", zone);
    ofputil_ct_match_format(s, &match);
    ds_put_char(s, '\n');
    return 0;
}

static enum ofperr
print_set_packet_in_format(struct ds *s, const struct ofp_header *oh,
                           enum ofpraw raw OVS_UNUSED,
                           const struct ofputil_port_map *pm OVS_UNUSED,
                           int verbosity OVS_UNUSED)
{
    enum ofputil_packet_in_format format;
    enum ofperr error = ofputil_decode_set_packet_in_format(oh, &format);
    if (error) {
        return error;
    }
    ds_put_format(s, " format=%s\n",
                  ofputil_packet_in_format_to_string(format));
    return 0;
}

static enum ofperr
print_flow_monitor_request(struct ds *s, const struct ofp_header *oh,
                           enum ofpraw raw OVS_UNUSED,
                           const struct ofputil_port_map *pm,
                           int verbosity OVS_UNUSED)
{
    return ofputil_flow_monitor_request_print(s, oh, pm, NULL);
}

static enum ofperr
print_flow_monitor_reply(struct ds *s, const struct ofp_header *oh,
                         enum ofpraw raw OVS_UNUSED,
                         const struct ofputil_port_map *pm,
                         int verbosity OVS_UNUSED)
{
    return ofputil_flow_monitor_reply_print(s, oh, pm, NULL);
}

static enum ofperr
print_flow_monitor_cancel(struct ds *s, const struct ofp_header *oh,
                          enum ofpraw raw OVS_UNUSED,
                          const struct ofputil_port_map *pm OVS_UNUSED,
                          int verbosity OVS_UNUSED)
{
    return ofputil_flow_monitor_cancel_print(s, oh);
}

static enum ofperr
print_tlv_table_mod(struct ds *s, const struct ofp_header *oh,
                    enum ofpraw raw OVS_UNUSED,
                    const struct ofputil_port_map *pm OVS_UNUSED,
                    int verbosity OVS_UNUSED)
{
    struct ofputil_tlv_table_mod ttm;
    enum ofperr error = ofputil_decode_tlv_table_mod(oh, &ttm);
    if (error) {
        return error;
    }
    ofputil_format_tlv_table_mod(s, &ttm);
    ds_put_char(s, '\n');
    ofputil_tlv_table_mod_uninit(&ttm);
    return 0;
}

static enum ofperr
print_tlv_table_reply(struct ds *s, const struct ofp_header *oh,
                      enum ofpraw raw OVS_UNUSED,
                      const struct ofputil_port_map *pm OVS_UNUSED,
                      int verbosity OVS_UNUSED)
{
    struct ofputil_tlv_table_reply ttr;
    enum ofperr error = ofputil_decode_tlv_table_reply(oh, &ttr);
    if (error) {
        return error;
    }
    ofputil_format_tlv_table_reply(s, &ttr);
    ds_put_char(s, '\n');
    ofputil_tlv_table_reply_uninit(&ttr);
    return 0;
}

/* The printer for TYPE, or NULL if there is none yet.  Requests and
 * replies whose whole meaning is their header print nothing more. */
static print_func *
printer_for_type(enum ofptype type)
{
    switch (type) {
    case OFPTYPE_HELLO: return print_hello;
    case OFPTYPE_ERROR: return print_error;
    case OFPTYPE_ECHO_REQUEST:
    case OFPTYPE_ECHO_REPLY: return print_echo;
    case OFPTYPE_FEATURES_REQUEST:
    case OFPTYPE_GET_CONFIG_REQUEST:
    case OFPTYPE_BARRIER_REQUEST:
    case OFPTYPE_BARRIER_REPLY:
    case OFPTYPE_GET_ASYNC_REQUEST:
    case OFPTYPE_DESC_STATS_REQUEST:
    case OFPTYPE_TABLE_STATS_REQUEST:
    case OFPTYPE_TABLE_DESC_REQUEST: return print_nothing;
    case OFPTYPE_TABLE_FEATURES_STATS_REQUEST:
        return print_table_features_reply;
    case OFPTYPE_TABLE_DESC_REPLY: return print_table_desc_reply;
    case OFPTYPE_FEATURES_REPLY: return print_features_reply;
    case OFPTYPE_GET_CONFIG_REPLY:
    case OFPTYPE_SET_CONFIG: return print_switch_config;
    case OFPTYPE_PORT_STATUS: return print_port_status;
    case OFPTYPE_FLOW_MOD: return print_flow_mod;
    case OFPTYPE_PORT_MOD: return print_port_mod;
    case OFPTYPE_TABLE_MOD: return print_table_mod;
    case OFPTYPE_ROLE_REQUEST:
    case OFPTYPE_ROLE_REPLY: return print_role;
    case OFPTYPE_ROLE_STATUS: return print_role_status;
    case OFPTYPE_BUNDLE_CONTROL: return print_bundle_ctrl;
    case OFPTYPE_BUNDLE_ADD_MESSAGE: return print_bundle_add;
    case OFPTYPE_GET_ASYNC_REPLY:
    case OFPTYPE_SET_ASYNC_CONFIG: return print_async_config;
    case OFPTYPE_DESC_STATS_REPLY: return print_desc_reply;
    case OFPTYPE_PORT_DESC_STATS_REQUEST: return print_port_desc_request;
    case OFPTYPE_PORT_DESC_STATS_REPLY: return print_port_desc_reply;
    case OFPTYPE_PORT_STATS_REQUEST: return print_port_stats_request;
    case OFPTYPE_PORT_STATS_REPLY: return print_port_stats_reply;
    case OFPTYPE_TABLE_STATS_REPLY: return print_table_stats_reply;
    case OFPTYPE_TABLE_FEATURES_STATS_REPLY:
        return print_table_features_reply;
    case OFPTYPE_SET_FLOW_FORMAT: return print_set_flow_format;
    case OFPTYPE_FLOW_MOD_TABLE_ID: return print_flow_mod_table_id;
    case OFPTYPE_SET_PACKET_IN_FORMAT: return print_set_packet_in_format;
    case OFPTYPE_SET_CONTROLLER_ID: return print_set_controller_id;
    case OFPTYPE_CT_FLUSH_ZONE: return print_ct_flush_zone;
    case OFPTYPE_CT_FLUSH: return print_ct_flush;

    case OFPTYPE_PACKET_IN: return print_packet_in;
    case OFPTYPE_FLOW_REMOVED: return print_flow_removed;
    case OFPTYPE_PACKET_OUT: return print_packet_out;
    case OFPTYPE_GROUP_MOD: return print_group_mod;
    case OFPTYPE_METER_MOD: return print_meter_mod;
    case OFPTYPE_REQUESTFORWARD: return print_requestforward;
    case OFPTYPE_FLOW_STATS_REQUEST:
    case OFPTYPE_AGGREGATE_STATS_REQUEST: return print_flow_stats_request;
    case OFPTYPE_FLOW_STATS_REPLY: return print_flow_stats_reply;
    case OFPTYPE_AGGREGATE_STATS_REPLY: return print_aggregate_reply;
    case OFPTYPE_GROUP_STATS_REQUEST:
    case OFPTYPE_GROUP_DESC_STATS_REQUEST:
    case OFPTYPE_GROUP_FEATURES_STATS_REQUEST: return print_group_request;
    case OFPTYPE_GROUP_STATS_REPLY: return print_group_stats;
    case OFPTYPE_GROUP_DESC_STATS_REPLY: return print_group_desc;
    case OFPTYPE_GROUP_FEATURES_STATS_REPLY: return print_group_features;
    case OFPTYPE_METER_STATS_REQUEST:
    case OFPTYPE_METER_CONFIG_STATS_REQUEST:
    case OFPTYPE_METER_FEATURES_STATS_REQUEST: return print_meter_request;
    case OFPTYPE_METER_CONFIG_STATS_REPLY: return print_meter_config_reply;
    case OFPTYPE_METER_STATS_REPLY: return print_meter_stats_reply;
    case OFPTYPE_METER_FEATURES_STATS_REPLY:
        return print_meter_features_reply;
    case OFPTYPE_FLOW_MONITOR_STATS_REQUEST: return print_flow_monitor_request;
    case OFPTYPE_FLOW_MONITOR_STATS_REPLY: return print_flow_monitor_reply;
    case OFPTYPE_FLOW_MONITOR_CANCEL: return print_flow_monitor_cancel;
    case OFPTYPE_FLOW_MONITOR_PAUSED:
    case OFPTYPE_FLOW_MONITOR_RESUMED: return print_nothing;
    case OFPTYPE_QUEUE_STATS_REQUEST: return print_queue_stats_request;
    case OFPTYPE_QUEUE_STATS_REPLY: return print_queue_stats_reply;
    case OFPTYPE_NXT_TLV_TABLE_MOD: return print_tlv_table_mod;
    case OFPTYPE_NXT_TLV_TABLE_REQUEST: return print_nothing;
    case OFPTYPE_NXT_TLV_TABLE_REPLY: return print_tlv_table_reply;

    case OFPTYPE_QUEUE_GET_CONFIG_REQUEST:
    case OFPTYPE_QUEUE_DESC_STATS_REQUEST: return print_queue_config_request;
    case OFPTYPE_QUEUE_GET_CONFIG_REPLY:
    case OFPTYPE_QUEUE_DESC_STATS_REPLY: return print_queue_config_reply;

    case OFPTYPE_FLOW_AGE: return print_nothing;

    case OFPTYPE_TABLE_STATUS: return print_table_status;

    /* Not printed yet (the header and a hex dump): resume. */
    case OFPTYPE_NXT_RESUME:
        return NULL;
    }
    return NULL;
}

char *
ofp_to_string(const void *data, size_t len,
              const struct ofputil_port_map *port_map, int verbosity)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    const struct ofp_header *oh = data;

    if (!len) {
        ds_put_cstr(&s, "OpenFlow message is empty\n");
        return ds_steal_cstr(&s);
    } else if (len < sizeof *oh) {
        ds_put_format(&s, "OpenFlow packet too short (only %zu bytes):\n",
                      len);
    } else if (ntohs(oh->length) > len) {
        enum ofpraw raw;
        if (!ofpraw_decode_partial(&raw, oh, len)) {
            ofp_header_to_string__(oh, raw, &s);
            ds_put_char(&s, '\n');
        }
        ds_put_format(&s, "(***truncated to %zu bytes from %"PRIu16"***)\n",
                      len, ntohs(oh->length));
    } else if (ntohs(oh->length) < len) {
        ds_put_format(&s, "(***only uses %"PRIu16" bytes out of %zu***)\n",
                      ntohs(oh->length), len);
    } else {
        enum ofpraw raw;
        enum ofperr error = ofpraw_decode(&raw, oh);
        if (!error) {
            ofp_header_to_string__(oh, raw, &s);
            if (ofpmsg_is_stat_request(oh) || ofpmsg_is_stat_reply(oh)) {
                print_stats_flags(&s, oh);
            }
            print_func *printer = printer_for_type(ofptype_from_ofpraw(raw));
            if (!printer) {
                /* No decoder for this type: the header, then the bytes. */
                ds_put_char(&s, '\n');
            } else {
                size_t header_len = s.length;
                error = printer(&s, oh, raw, port_map, verbosity);
                if (!error) {
                    if (s.length == header_len) {
                        ds_put_char(&s, '\n');
                    }
                    if (verbosity >= 5) {
                        /* 3.1's -mmmm on a reply: the bytes too. */
                        ds_put_hex_dump(&s, data, len, 0, true);
                    }
                    return ds_steal_cstr(&s);
                }
                /* What the printer wrote before it failed stays, as 3.1
                 * shows it. */
                if (s.string[s.length - 1] != '\n') {
                    ds_put_char(&s, ' ');
                }
            }
        }
        if (error) {
            ds_put_format(&s, "***decode error: %s***\n",
                          ofperr_get_name(error));
        }
    }
    ds_put_hex_dump(&s, data, len, 0, true);
    return ds_steal_cstr(&s);
}

void
ofp_print(FILE *stream, const void *oh, size_t len,
          const struct ofputil_port_map *port_map, int verbosity)
{
    char *s = ofp_to_string(oh, len, port_map, verbosity);
    fputs(s, stream);
    free(s);
}

char *
ofp_hex_to_string(const char *hex, const struct ofputil_port_map *port_map,
                  int verbosity, char **errorp)
{
    struct ofpbuf b;
    ofpbuf_init(&b, strlen(hex) / 2);
    const char *p = hex;
    for (;;) {
        while (isspace((unsigned char) *p)) {
            p++;
        }
        if (!*p) {
            break;
        }
        if (!isxdigit((unsigned char) p[0])
            || !isxdigit((unsigned char) p[1])) {
            ofpbuf_uninit(&b);
            *errorp = xstrdup("trailing garbage following hex bytes");
            return NULL;
        }
        char byte[3] = { p[0], p[1], '\0' };
        uint8_t value = strtoul(byte, NULL, 16);
        ofpbuf_put(&b, &value, 1);
        p += 2;
    }
    *errorp = NULL;
    char *s = ofp_to_string(b.data, b.size, port_map, verbosity);
    ofpbuf_uninit(&b);
    return s;
}
