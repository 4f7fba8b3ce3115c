/* vsctl-dp: ovs-vsctl's datapath commands: capabilities and conntrack zone
 * timeout policies.
 *
 * Open_vSwitch.datapaths maps a datapath type ("system", "netdev") to its
 * Datapath row.  ovs-vswitchd fills in Datapath.capabilities; users set
 * Datapath.ct_zones, which maps a zone number to a CT_Zone row, whose
 * timeout_policy (optional) names a CT_Timeout_Policy row with the timeouts
 * in seconds.  Neither CT_Zone nor CT_Timeout_Policy is a root table: a row
 * nothing refers to any more is the server's to collect, so deleting a zone
 * only takes it out of ct_zones.
 *
 * The arguments are read as Open vSwitch 3.1 reads them, including its
 * leniencies, because scripts written against it must keep working:
 *
 *   - "zone=N": N in C's %i syntax (decimal, 0x hex or 0 octal), leading
 *     white space allowed, anything after the number ignored, wrapping
 *     modulo 2**64; error messages print the zone as an unsigned number.
 *   - each policy is the first "KEY=VALUE", "KEY:VALUE" or "KEY(VALUE)" of
 *     its argument (leading spaces and commas skipped); the value is read
 *     as C's atoi() reads it, so "5x" is 5, "" or "abc" is 0 and numbers
 *     wrap to 32 bits; the first of several policies with the same key
 *     counts.  Key names and value ranges are the schema's to check, so the
 *     server's "constraint violation" is what a user sees.
 *   - zones share CT_Timeout_Policy rows: a zone gets an existing row whose
 *     timeouts are the ones asked for, if there is one (see
 *     get_timeout_policy() for how Open vSwitch compares).
 *
 * Where Open vSwitch reads garbage (a zone argument without a number, a
 * policy argument without a key), we say what is wrong instead. */

#include <config.h>

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "shash.h"
#include "smap.h"
#include "vsctl.h"

/* The Datapath row for datapath type NAME, or NULL. */
static const struct ovsdb_idl_row *
find_datapath(struct vsctl_context *ctx, const char *name)
{
    const struct ovsdb_datum *dps = vsctl_read(ctx->ovs, "datapaths");
    union ovsdb_atom key = { .string = CONST_CAST(char *, name) };
    unsigned int idx = ovsdb_datum_find_key(dps, &key, OVSDB_TYPE_STRING);

    if (idx == UINT_MAX) {
        return NULL;
    }
    return ovsdb_idl_get_row_for_uuid(ctx->idl, VS_TABLE("Datapath"),
                                      &dps->values[idx].uuid);
}

/* The CT_Zone row of zone ZONE in datapath DP, or NULL. */
static const struct ovsdb_idl_row *
find_zone(struct vsctl_context *ctx, const struct ovsdb_idl_row *dp,
          int64_t zone)
{
    const struct ovsdb_datum *zones = vsctl_read(dp, "ct_zones");
    union ovsdb_atom key = { .integer = zone };
    unsigned int idx = ovsdb_datum_find_key(zones, &key, OVSDB_TYPE_INTEGER);

    if (idx == UINT_MAX) {
        return NULL;
    }
    return ovsdb_idl_get_row_for_uuid(ctx->idl, VS_TABLE("CT_Zone"),
                                      &zones->values[idx].uuid);
}

static int
digit_value(int c)
{
    return (c >= '0' && c <= '9' ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
            : 99);
}

/* Parses the "zone=N" argument ARG (see the comment at the top). */
static int64_t
parse_zone(const char *command, const char *arg)
{
    const char *p = arg;
    bool negative = false;
    uint64_t value = 0;
    int base = 10;

    if (strncmp(p, "zone=", 5)) {
        goto error;
    }
    p += 5;
    p += strspn(p, " \t\n\v\f\r");
    if (*p == '-' || *p == '+') {
        negative = *p++ == '-';
    }
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')
        && digit_value(p[2]) < 16) {
        base = 16;
        p += 2;
    } else if (p[0] == '0') {
        base = 8;
    }
    if (digit_value(*p) >= base) {
        goto error;
    }
    for (; digit_value(*p) < base; p++) {
        value = value * base + digit_value(*p);
    }
    return (int64_t) (negative ? -value : value);

error:
    vsctl_fatal("%s: \"%s\" is not a zone (expected zone=ZONE_ID)",
                command, arg);
}

/* C's atoi(): strtol() in base 10, then the low 32 bits as a signed
 * number. */
static int64_t
atoi_value(const char *s)
{
    uint32_t low = (uint32_t) (unsigned long) strtol(s, NULL, 10);
    return low >= UINT32_C(0x80000000) ? (int64_t) low - (INT64_C(1) << 32)
                                       : (int64_t) low;
}

/* Splits policy argument ARG into its key and value (see the comment at the
 * top): *KEY and *VALUE are malloc'd.  False if ARG holds no key at all. */
static bool
parse_policy(const char *arg, char **key, char **value)
{
    const char *p = arg + strspn(arg, ", \t\r\n");
    size_t key_len = strcspn(p, ":=(, \t\r\n");
    const char *v = p + key_len;
    size_t value_len = 0;

    if (!*p) {
        return false;
    }
    if (*v == ':' || *v == '=') {
        v++;
        value_len = strcspn(v, ", \t\r\n");
    } else if (*v == '(') {
        /* Up to the matching parenthesis. */
        int depth = 0;

        for (v++; v[value_len]; value_len++) {
            if (v[value_len] == '(') {
                depth++;
            } else if (v[value_len] == ')' && !depth--) {
                break;
            }
        }
    }
    *key = xmemdup0(p, key_len);
    *value = xmemdup0(v, value_len);
    return true;
}

/* Whether the timeouts of CT_Timeout_Policy row TP are WANTED (timeout name
 * -> int64_t *), comparing values in 32 bits as Open vSwitch does. */
static bool
timeouts_match(const struct ovsdb_idl_row *tp, const struct shash *wanted)
{
    const struct ovsdb_datum *t = vsctl_read(tp, "timeouts");

    if (t->n != shash_count(wanted)) {
        return false;
    }
    for (size_t i = 0; i < t->n; i++) {
        const int64_t *value = shash_find_data(wanted, t->keys[i].string);
        if (!value || (uint32_t) *value != (uint32_t) t->values[i].integer) {
            return false;
        }
    }
    return true;
}

/* The CT_Timeout_Policy row for the timeouts in ctx->argv[3...]: as in Open
 * vSwitch, an existing row (even one this transaction inserted) whose
 * timeouts are those arguments, read with the last of a key winning, or
 * else a new row, where the first of a key wins. */
static const struct ovsdb_idl_row *
get_timeout_policy(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_column *col = VS_COL("CT_Timeout_Policy",
                                                "timeouts");
    struct shash wanted = SHASH_INITIALIZER(&wanted);
    struct ovsdb_datum timeouts;

    ovsdb_datum_init_empty(&timeouts);
    for (int i = 3; i < ctx->argc; i++) {
        union ovsdb_atom key, value;
        char *value_s;

        if (!parse_policy(ctx->argv[i], &key.string, &value_s)) {
            vsctl_fatal("%s: \"%s\" is not a timeout policy (expected "
                        "KEY=VALUE)", ctx->argv[0], ctx->argv[i]);
        }
        value.integer = atoi_value(value_s);
        free(value_s);
        free(shash_replace(&wanted, key.string,
                           xmemdup(&value.integer, sizeof value.integer)));
        ovsdb_datum_add_unsafe(&timeouts, &key, &value, &col->type);
    }

    const struct ovsdb_idl_row *tp;
    VSCTL_FOR_EACH (tp, "CT_Timeout_Policy", ctx->idl) {
        if (timeouts_match(tp, &wanted)) {
            break;
        }
    }
    shash_destroy_free_data(&wanted);
    if (tp) {
        ovsdb_datum_destroy(&timeouts, &col->type);
        return tp;
    }

    ovsdb_datum_sort_unique(&timeouts, OVSDB_TYPE_STRING,
                            OVSDB_TYPE_INTEGER);
    tp = ovsdb_idl_txn_insert(ctx->txn, VS_TABLE("CT_Timeout_Policy"), NULL);
    ovsdb_idl_txn_write(tp, col, &timeouts);
    return tp;
}

static void
cmd_add_zone_tp(struct vsctl_context *ctx)
{
    bool may_exist = shash_find(ctx->options, "--may-exist") != NULL;
    int64_t zone_id = parse_zone(ctx->argv[0], ctx->argv[2]);
    const struct ovsdb_idl_row *dp = find_datapath(ctx, ctx->argv[1]);

    if (!dp) {
        vsctl_fatal("datapath %s does not exist", ctx->argv[1]);
    }
    const struct ovsdb_idl_row *zone = find_zone(ctx, dp, zone_id);
    if (zone && !may_exist) {
        vsctl_fatal("zone id %"PRIu64" already exists", (uint64_t) zone_id);
    }

    const struct ovsdb_idl_row *tp = get_timeout_policy(ctx);
    if (zone) {
        /* --may-exist: the zone gets the new policy. */
        vsctl_write_refs(zone, "timeout_policy", &tp, 1);
        return;
    }
    zone = ovsdb_idl_txn_insert(ctx->txn, VS_TABLE("CT_Zone"), NULL);
    vsctl_write_refs(zone, "timeout_policy", &tp, 1);

    const struct ovsdb_idl_column *col = VS_COL("Datapath", "ct_zones");
    union ovsdb_atom key = { .integer = zone_id };
    union ovsdb_atom value = { .uuid = *ovsdb_idl_row_get_uuid(zone) };
    struct ovsdb_datum d;
    ovsdb_datum_init_empty(&d);
    ovsdb_datum_add_unsafe(&d, &key, &value, &col->type);
    ovsdb_idl_txn_write_partial_add(dp, col, &d);
}

static void
cmd_del_zone_tp(struct vsctl_context *ctx)
{
    bool must_exist = !shash_find(ctx->options, "--if-exists");
    int64_t zone_id = parse_zone(ctx->argv[0], ctx->argv[2]);
    const struct ovsdb_idl_row *dp = find_datapath(ctx, ctx->argv[1]);

    if (!dp) {
        vsctl_fatal("datapath %s does not exist", ctx->argv[1]);
    }
    if (!find_zone(ctx, dp, zone_id)) {
        if (must_exist) {
            vsctl_fatal("zone id %"PRIu64" does not exist",
                        (uint64_t) zone_id);
        }
        return;
    }

    const struct ovsdb_idl_column *col = VS_COL("Datapath", "ct_zones");
    union ovsdb_atom key = { .integer = zone_id };
    struct ovsdb_datum d;
    ovsdb_datum_init_atom(&d, &key, OVSDB_TYPE_INTEGER);
    ovsdb_idl_txn_write_partial_remove(dp, col, &d);
}

static void
cmd_list_zone_tp(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_row *dp = find_datapath(ctx, ctx->argv[1]);

    if (!dp) {
        vsctl_fatal("datapath: %s record not found", ctx->argv[1]);
    }
    const struct ovsdb_datum *zones = vsctl_read(dp, "ct_zones");
    for (size_t i = 0; i < zones->n; i++) {
        const struct ovsdb_idl_row *zone = ovsdb_idl_get_row_for_uuid(
            ctx->idl, VS_TABLE("CT_Zone"), &zones->values[i].uuid);
        if (!zone) {
            continue;
        }
        ds_put_format(ctx->output, "Zone:%"PRId64", Timeout Policies:",
                      zones->keys[i].integer);
        const struct ovsdb_idl_row *tp = vsctl_read_ref(zone,
                                                        "timeout_policy", 0);
        if (tp) {
            const struct ovsdb_datum *t = vsctl_read(tp, "timeouts");
            for (size_t j = 0; j < t->n; j++) {
                ds_put_format(ctx->output, " %s=%"PRId64,
                              t->keys[j].string, t->values[j].integer);
            }
        } else {
            ds_put_cstr(ctx->output, " system default");
        }
        ds_put_char(ctx->output, '\n');
    }
}

static void
cmd_list_dp_cap(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_row *dp = find_datapath(ctx, ctx->argv[1]);

    if (!dp) {
        vsctl_fatal("datapath \"%s\" record not found", ctx->argv[1]);
    }

    /* Open vSwitch prints the capabilities in the order of its IDL's
     * string map, a hash table filled in key order: ours is the same hash
     * table, filled the same way. */
    const struct ovsdb_datum *caps = vsctl_read(dp, "capabilities");
    struct smap map = SMAP_INITIALIZER(&map);
    for (size_t i = 0; i < caps->n; i++) {
        smap_add(&map, caps->keys[i].string, caps->values[i].string);
    }

    const struct smap_node *node;
    bool first = true;
    SMAP_FOR_EACH (node, &map) {
        ds_put_format(ctx->output, "%s%s=%s", first ? "" : " ",
                      node->key, node->value);
        first = false;
    }
    ds_put_char(ctx->output, '\n');
    smap_destroy(&map);
}

/* Prerequisites. */

static void
pre_dp_cap(struct vsctl_context *ctx)
{
    vsctl_need(ctx, "Open_vSwitch", "datapaths");
    vsctl_need(ctx, "Datapath", "capabilities");
}

static void
pre_zone_tp(struct vsctl_context *ctx)
{
    vsctl_need(ctx, "Open_vSwitch", "datapaths");
    vsctl_need(ctx, "Datapath", "ct_zones");
    vsctl_need(ctx, "CT_Zone", "timeout_policy");
    vsctl_need(ctx, "CT_Timeout_Policy", "timeouts");
}

/* The arguments are left empty, as in Open vSwitch, whose --commands (for
 * bash completion) prints them so. */
const struct vsctl_command_syntax vsctl_dp_commands[] = {
    {"list-dp-cap", 1, 1, "", pre_dp_cap, cmd_list_dp_cap, NULL, "", false},
    {"add-zone-tp", 3, INT_MAX, "", pre_zone_tp, cmd_add_zone_tp, NULL,
     "--may-exist", true},
    {"del-zone-tp", 2, 2, "", pre_zone_tp, cmd_del_zone_tp, NULL,
     "--if-exists", true},
    {"list-zone-tp", 1, 1, "", pre_zone_tp, cmd_list_zone_tp, NULL, "",
     false},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, false},
};
