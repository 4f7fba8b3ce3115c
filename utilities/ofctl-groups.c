/* ofctl-groups: groups and meters.
 *
 * add-group SWITCH GROUP, add-groups SWITCH FILE (one group a line, "-"
 * for stdin), mod-group, del-groups SWITCH [GROUP], insert-buckets and
 * remove-buckets SWITCH [GROUP] parse the group text (as lib/ofp-group
 * reads 3.1's syntax), bring the connection to a protocol the groups can
 * use (OpenFlow 1.0 carries groups as Nicira extensions, and only 1.0 and
 * 1.5 have bucket commands), and send each group_mod followed by a
 * barrier (mod-group modifies, or with --may-create adds or modifies); with
 * --bundle, as one atomic bundle instead (ofctl_bundle_transact()).
 * dump-groups SWITCH [GROUP_ID] prints the group descriptions,
 * dump-group-stats SWITCH [GROUP] their counters, dump-group-features
 * SWITCH what the switch's groups can do.  add-meter, mod-meter,
 * del-meters, dump-meters and meter-stats do the same for meters, which
 * need OpenFlow 1.3 or later.  As in 3.1, a group or meter to send is
 * parsed with the switch's port names (read on connections of their own
 * first). */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "command-line.h"
#include "dynamic-string.h"
#include "list.h"
#include "ofctl.h"
#include "ofp-group.h"
#include "ofp-meter.h"
#include "ofp-print.h"
#include "ofpbuf.h"
#include "util.h"
#include "vconn.h"

/* Parsed group_mods on their way to a switch, and the protocols all of
 * them can use.  Each group_mod is allocated on its own: its bucket list
 * head must not move. */
struct group_mods {
    struct ofputil_group_mod **gms;
    size_t n, allocated;
    enum ofputil_protocol usable;
};

static void
group_mods_parse(struct group_mods *mods, int command, const char *string,
                 const struct ofputil_port_map *port_map,
                 const char *file_name, int line_number)
{
    if (mods->n >= mods->allocated) {
        mods->gms = x2nrealloc(mods->gms, &mods->allocated,
                               sizeof *mods->gms);
    }
    enum ofputil_protocol usable;
    struct ofputil_group_mod *gm = xmalloc(sizeof *gm);
    char *error = parse_ofp_group_mod_str(gm, command, string, port_map,
                                          &usable);
    if (error) {
        free(gm);
        if (file_name) {
            ovs_fatal(0, "%s:%d: %s", file_name, line_number, error);
        }
        ovs_fatal(0, "%s", error);
    }
    mods->usable &= usable;
    mods->gms[mods->n++] = gm;
}

struct ofpbuf *
ofctl_encode_group_mod(const struct ofputil_group_mod *gm,
                       enum ofp_version version)
{
    /* 3.1's encoder refuses a bucket command in OpenFlow 1.1 to 1.4 (which
     * the insert's usable protocols let through). */
    if (version >= OFP11_VERSION && version <= OFP14_VERSION
        && (gm->command == OFPGC15_INSERT_BUCKET
            || gm->command == OFPGC15_REMOVE_BUCKET)) {
        ovs_fatal(0, "%s needs OpenFlow 1.5 or later ('-O OpenFlow15')",
                  gm->command == OFPGC15_INSERT_BUCKET ? "insert-bucket"
                  : "remove-bucket");
    }
    return ofputil_encode_group_mod(version, gm);
}

/* Sends MODS (freeing them) to SWITCH_NAME: every one then a barrier, or
 * with --bundle as one bundle. */
static void
group_mods_send(const char *switch_name, struct group_mods *mods)
{
    if (ofctl_opts.bundle) {
        /* Bundles need OpenFlow 1.3 or later (3.1 says so in the usable
         * protocols of its error). */
        mods->usable &= OFPUTIL_P_OF13_UP;
    }
    struct vconn *vconn;
    ofctl_open_vconn_for_flow_mod(switch_name, mods->usable, &vconn);
    enum ofp_version version = vconn_get_version(vconn);

    /* Without --bundle, one at a time, each with its barrier (and so its
     * xids), as 3.1: an error stops the program before the next group
     * goes. */
    struct ovs_list requests = OVS_LIST_INITIALIZER(&requests);
    for (size_t i = 0; i < mods->n; i++) {
        struct ofpbuf *msg = ofctl_encode_group_mod(mods->gms[i], version);
        ofputil_uninit_group_mod(mods->gms[i]);
        free(mods->gms[i]);
        if (ofctl_opts.bundle) {
            ovs_list_push_back(&requests, &msg->list_node);
        } else {
            ofctl_transact_noreply(vconn, msg);
        }
    }
    free(mods->gms);
    if (ofctl_opts.bundle) {
        ofctl_bundle_transact(vconn, &requests);
    }
    vconn_close(vconn);
}

/* Parses every group in FILE_NAME ("-": standard input) into MODS, as
 * group_mods of COMMAND, or of OFPGC11_ADD with a command word allowed at
 * the start of each line (COMMAND_WORDS, as 3.1 reads add-groups files);
 * fatal on error. */
static void
group_mods_parse_file(struct group_mods *mods, const char *file_name,
                      int command, bool command_words,
                      const struct ofputil_port_map *port_map)
{
    FILE *stream = !strcmp(file_name, "-") ? stdin : fopen(file_name, "r");
    if (!stream) {
        ovs_fatal(0, "%s: open failed (%s)", file_name, ovs_strerror(errno));
    }
    struct ds line = DS_EMPTY_INITIALIZER;
    int line_number = 0;
    while (!ds_get_preprocessed_line(&line, stream, &line_number)) {
        const char *text = ds_cstr(&line);
        int line_command = (command_words
                            ? parse_ofp_group_mod_command(&text) : command);
        group_mods_parse(mods, line_command, text, port_map, file_name,
                         line_number);
    }
    ds_destroy(&line);
    if (stream != stdin) {
        fclose(stream);
    }
}

/* Parses a group_mod of COMMAND from STRING for SWITCH_NAME and sends it;
 * STRING "-" reads groups from standard input instead, one per line (with
 * a command word allowed on each for an add, as in add-groups). */
static void
send_group_mod(const char *switch_name, int command, const char *string)
{
    ofctl_tables_to_accept(switch_name);
    const struct ofputil_port_map *port_map
        = ofctl_ports_to_accept(switch_name);

    struct group_mods mods = { .usable = OFPUTIL_P_ANY };
    if (!strcmp(string, "-")) {
        group_mods_parse_file(&mods, string, command,
                              command == OFPGC11_ADD, port_map);
    } else {
        group_mods_parse(&mods, command, string, port_map, NULL, 0);
    }
    group_mods_send(switch_name, &mods);
}

void
ofctl_add_group(struct ovs_cmdl_context *ctx)
{
    send_group_mod(ctx->argv[1], OFPGC11_ADD, ctx->argv[2]);
}

void
ofctl_add_groups(struct ovs_cmdl_context *ctx)
{
    const char *switch_name = ctx->argv[1];
    ofctl_tables_to_accept(switch_name);
    const struct ofputil_port_map *port_map
        = ofctl_ports_to_accept(switch_name);

    struct group_mods mods = { .usable = OFPUTIL_P_ANY };
    group_mods_parse_file(&mods, ctx->argv[2], OFPGC11_ADD, true, port_map);
    group_mods_send(switch_name, &mods);
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
                   ctx->argc > 2 ? ctx->argv[2] : "");
}

void
ofctl_insert_buckets(struct ovs_cmdl_context *ctx)
{
    send_group_mod(ctx->argv[1], OFPGC15_INSERT_BUCKET,
                   ctx->argc > 2 ? ctx->argv[2] : "");
}

void
ofctl_remove_buckets(struct ovs_cmdl_context *ctx)
{
    send_group_mod(ctx->argv[1], OFPGC15_REMOVE_BUCKET,
                   ctx->argc > 2 ? ctx->argv[2] : "");
}

void
ofctl_dump_group_features(struct ovs_cmdl_context *ctx)
{
    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    ofctl_dump_transaction(ctx->argv[1], vconn,
                           ofputil_encode_group_features_request(
                               vconn_get_version(vconn)));
    vconn_close(vconn);
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

/* parse-group GROUP: what add-group would send, without a switch: the
 * usable protocols, the lowest version -O allows that can carry the group,
 * and the group_mod as ofp-print shows it. */
void
ofctl_parse_group(struct ovs_cmdl_context *ctx)
{
    struct ofputil_group_mod gm;
    enum ofputil_protocol usable;
    char *error = parse_ofp_group_mod_str(&gm, OFPGC11_ADD, ctx->argv[1],
                                          NULL, &usable);
    if (error) {
        ovs_fatal(0, "%s", error);
    }
    char *usable_s = ofputil_protocols_to_string(usable);
    printf("usable protocols: %s\n", usable_s);
    free(usable_s);

    enum ofputil_protocol candidates = usable & ofctl_opts.allowed_protocols;
    if (!candidates) {
        ovs_fatal(0, "no usable protocol");
    }
    enum ofp_version version = ofputil_protocol_to_ofp_version(
        candidates & -candidates);
    printf("chosen version: %s\n", ofputil_version_to_string(version));

    struct ofpbuf *msg = ofputil_encode_group_mod(version, &gm);
    ofp_print(stdout, msg->data, msg->size, NULL, ofctl_opts.verbosity);
    ofpbuf_delete(msg);
    ofputil_uninit_group_mod(&gm);
}
