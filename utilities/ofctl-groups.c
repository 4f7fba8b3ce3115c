/* ofctl-groups: groups and meters.
 *
 * add-group SWITCH GROUP and del-groups SWITCH [GROUP] parse the group
 * text (as lib/ofp-group reads 3.1's syntax), bring the connection to a
 * protocol the group can use (OpenFlow 1.0 carries groups as Nicira
 * extensions), and send the group_mod followed by a barrier (mod-group
 * modifies, or with --may-create adds or modifies); dump-groups SWITCH
 * [GROUP_ID] prints the group descriptions and dump-group-stats SWITCH
 * [GROUP] their counters.  add-meter, mod-meter, del-meters, dump-meters
 * and meter-stats do the same for meters, which need OpenFlow 1.3 or
 * later.  As in 3.1, a group or meter to send is parsed
 * with the switch's port names (read on connections of their own first). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "command-line.h"
#include "ofctl.h"
#include "ofp-group.h"
#include "ofp-meter.h"
#include "ofpbuf.h"
#include "util.h"
#include "vconn.h"

/* Parses a group_mod of COMMAND from STRING for SWITCH_NAME and sends it. */
static void
send_group_mod(const char *switch_name, int command, const char *string)
{
    ofctl_tables_to_accept(switch_name);
    const struct ofputil_port_map *port_map
        = ofctl_ports_to_accept(switch_name);

    struct ofputil_group_mod gm;
    enum ofputil_protocol usable;
    char *error = parse_ofp_group_mod_str(&gm, command, string, port_map,
                                          &usable);
    if (error) {
        ovs_fatal(0, "%s", error);
    }

    struct vconn *vconn;
    ofctl_open_vconn_for_flow_mod(switch_name, usable, &vconn);
    ofctl_transact_noreply(vconn, ofputil_encode_group_mod(
                               vconn_get_version(vconn), &gm));
    ofputil_uninit_group_mod(&gm);
    vconn_close(vconn);
}

void
ofctl_add_group(struct ovs_cmdl_context *ctx)
{
    send_group_mod(ctx->argv[1], OFPGC11_ADD, ctx->argv[2]);
}

void
ofctl_mod_group(struct ovs_cmdl_context *ctx)
{
    send_group_mod(ctx->argv[1],
                   ofctl_opts.may_create ? OFPGC_ADD_OR_MOD : OFPGC11_MODIFY,
                   ctx->argv[2]);
}

void
ofctl_del_groups(struct ovs_cmdl_context *ctx)
{
    /* Without GROUP, every group. */
    send_group_mod(ctx->argv[1], OFPGC11_DELETE,
                   ctx->argc > 2 ? ctx->argv[2] : "group_id=all");
}

/* A group id as dump-groups takes it: a number, "all" or "any". */
static uint32_t
parse_group_id(const char *s)
{
    unsigned int id;
    if (!strcasecmp(s, "all")) {
        return OFPG_ALL;
    } else if (!strcasecmp(s, "any")) {
        return OFPG_ANY;
    } else if (str_to_uint(s, 0, &id)) {
        return id;
    }
    ovs_fatal(0, "%s is not a valid group ID.  (Valid group IDs are 32-bit "
              "nonnegative integers or the keywords ANY or ALL.)", s);
}

void
ofctl_dump_groups(struct ovs_cmdl_context *ctx)
{
    uint32_t group_id = ctx->argc > 2 ? parse_group_id(ctx->argv[2])
                                      : OFPG_ALL;
    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    ofctl_dump_transaction(ctx->argv[1], vconn,
                           ofputil_encode_group_desc_request(
                               vconn_get_version(vconn), group_id));
    vconn_close(vconn);
}

void
ofctl_dump_group_stats(struct ovs_cmdl_context *ctx)
{
    /* 3.1 reads the group as a group_mod's text (with the names). */
    ofctl_tables_to_accept(ctx->argv[1]);
    struct ofputil_group_mod gm;
    enum ofputil_protocol usable;
    char *error = parse_ofp_group_mod_str(
        &gm, OFPGC11_DELETE, ctx->argc > 2 ? ctx->argv[2] : "",
        ofctl_ports_to_accept(ctx->argv[1]), &usable);
    if (error) {
        ovs_fatal(0, "%s", error);
    }
    uint32_t group_id = ctx->argc > 2 ? gm.group_id : OFPG_ALL;
    ofputil_uninit_group_mod(&gm);

    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    ofctl_dump_transaction(ctx->argv[1], vconn,
                           ofputil_encode_group_stats_request(
                               vconn_get_version(vconn), group_id));
    vconn_close(vconn);
}

/* Parses a meter_mod of COMMAND from STRING and sends it to SWITCH_NAME. */
static void
send_meter_mod(const char *switch_name, int command, const char *string)
{
    struct ofputil_meter_mod mm;
    enum ofputil_protocol usable;
    char *error = parse_ofp_meter_mod_str(&mm, string, command, &usable);
    if (error) {
        ovs_fatal(0, "%s", error);
    }

    struct vconn *vconn;
    ofctl_open_vconn_for_flow_mod(switch_name, usable, &vconn);
    ofctl_transact_noreply(vconn, ofputil_encode_meter_mod(
                               vconn_get_version(vconn), &mm));
    free(mm.meter.bands);
    vconn_close(vconn);
}

void
ofctl_mod_meter(struct ovs_cmdl_context *ctx)
{
    send_meter_mod(ctx->argv[1], OFPMC13_MODIFY, ctx->argv[2]);
}

void
ofctl_del_meters(struct ovs_cmdl_context *ctx)
{
    send_meter_mod(ctx->argv[1], OFPMC13_DELETE,
                   ctx->argc > 2 ? ctx->argv[2] : "meter=all");
}

void
ofctl_add_meter(struct ovs_cmdl_context *ctx)
{
    send_meter_mod(ctx->argv[1], OFPMC13_ADD, ctx->argv[2]);
}

static void
dump_meters(struct ovs_cmdl_context *ctx, enum ofputil_meter_request_type type)
{
    struct ofputil_meter_mod mm;
    enum ofputil_protocol usable;
    mm.meter.meter_id = OFPM13_ALL;
    mm.meter.bands = NULL;
    if (ctx->argc > 2) {
        char *error = parse_ofp_meter_mod_str(&mm, ctx->argv[2],
                                              OFPMC13_DELETE, &usable);
        if (error) {
            ovs_fatal(0, "%s", error);
        }
    } else {
        usable = OFPUTIL_P_OF13_UP;
    }

    struct vconn *vconn;
    ofctl_open_vconn_for_flow_mod(ctx->argv[1], usable, &vconn);
    ofctl_dump_transaction(ctx->argv[1], vconn,
                           ofputil_encode_meter_request(
                               vconn_get_version(vconn),
                               type, mm.meter.meter_id));
    free(mm.meter.bands);
    vconn_close(vconn);
}

void
ofctl_dump_meters(struct ovs_cmdl_context *ctx)
{
    dump_meters(ctx, OFPUTIL_METER_CONFIG);
}

void
ofctl_meter_stats(struct ovs_cmdl_context *ctx)
{
    dump_meters(ctx, OFPUTIL_METER_STATS);
}
