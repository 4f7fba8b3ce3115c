/* vsctl-misc: ovs-vsctl's commands for controllers, managers, SSL,
 * fail-mode and Auto Attach mappings, plus init, show and emer-reset. */

#include <config.h>

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sset.h"
#include "vsctl.h"

/* init: do_vsctl() already creates the Open_vSwitch row if missing. */
static void
cmd_init(struct vsctl_context *ctx OVS_UNUSED)
{
}

/* show. */

struct show_table {
    const char *table;
    const char *name_column;        /* NULL: print the uuid. */
    const char *columns[4];
};

static const struct show_table show_tables[] = {
    {"Open_vSwitch", NULL, {"manager_options", "bridges", "ovs_version"}},
    {"Bridge", "name", {"controller", "fail_mode", "datapath_type", "ports"}},
    {"Port", "name", {"tag", "trunks", "interfaces"}},
    {"Interface", "name", {"type", "options", "error", "bfd_status"}},
    {"Controller", "target", {"is_connected"}},
    {"Manager", "target", {"is_connected"}},
};

static const struct show_table *
find_show_table(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(show_tables); i++) {
        if (!strcmp(show_tables[i].table, name)) {
            return &show_tables[i];
        }
    }
    return NULL;
}

/* Prints ROW and, below it, what it refers to.  PATH holds the tables of
 * the rows above ROW: a row of one of those is printed without its
 * contents, which ends cycles.  A row that two rows refer to (a broken
 * database) is printed in full under both, as Open vSwitch does. */
static void
show_row(struct vsctl_context *ctx, const struct ovsdb_idl_row *row,
         int level, struct sset *path)
{
    const struct ovsdb_idl_table_class *tc = ovsdb_idl_row_get_class(row);
    const struct show_table *st = find_show_table(tc->name);
    char uuid_s[UUID_LEN + 1];

    uuid_format(ovsdb_idl_row_get_uuid(row), uuid_s);
    ds_put_char_multiple(ctx->output, ' ', level * 4);
    if (st->name_column) {
        const struct ovsdb_idl_column *col = vsctl_column(tc,
                                                          st->name_column);
        ds_put_format(ctx->output, "%s ", tc->name);
        ovsdb_datum_to_string(ovsdb_idl_read(row, col), &col->type,
                              ctx->output);
    } else {
        ds_put_cstr(ctx->output, uuid_s);
    }
    ds_put_char(ctx->output, '\n');

    if (!sset_add(path, tc->name)) {
        return;
    }
    for (size_t i = 0; i < ARRAY_SIZE(st->columns) && st->columns[i]; i++) {
        const struct ovsdb_idl_column *col = vsctl_column(tc, st->columns[i]);
        const struct ovsdb_datum *d = ovsdb_idl_read(row, col);
        const struct ovsdb_base_type *key = &col->type.key;

        if (ovsdb_base_type_is_ref(key) && !ovsdb_type_is_map(&col->type)
            && find_show_table(key->u.uuid.refTableName)) {
            const struct ovsdb_idl_table_class *ref_tc
                = vsctl_table(key->u.uuid.refTableName);
            for (size_t j = 0; j < d->n; j++) {
                const struct ovsdb_idl_row *ref
                    = ovsdb_idl_get_row_for_uuid(ctx->idl, ref_tc,
                                                 &d->keys[j].uuid);
                if (ref) {
                    show_row(ctx, ref, level + 1, path);
                }
            }
        } else if (!ovsdb_datum_is_default(d, &col->type)) {
            ds_put_char_multiple(ctx->output, ' ', (level + 1) * 4);
            ds_put_format(ctx->output, "%s: ", col->name);
            ovsdb_datum_to_string(d, &col->type, ctx->output);
            ds_put_char(ctx->output, '\n');
        }
    }
    sset_find_and_delete(path, tc->name);
}

static void
cmd_show(struct vsctl_context *ctx)
{
    struct sset path = SSET_INITIALIZER(&path);
    const struct ovsdb_idl_row *row;

    VSCTL_FOR_EACH (row, "Open_vSwitch", ctx->idl) {
        show_row(ctx, row, 0, &path);
    }
    sset_destroy(&path);
}

/* emer-reset. */

static void
delete_all_rows(struct vsctl_context *ctx, const char *table)
{
    const struct ovsdb_idl_row *row, *next;

    for (row = vsctl_first(ctx->idl, table); row; row = next) {
        next = vsctl_next(row);
        ovsdb_idl_txn_delete(row);
    }
}

static void
cmd_emer_reset(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_row *row;

    vsctl_clear_column(ctx->ovs, "manager_options");
    vsctl_clear_column(ctx->ovs, "ssl");

    VSCTL_FOR_EACH (row, "Bridge", ctx->idl) {
        static const char *const columns[] = {
            "controller", "fail_mode", "mirrors", "netflow", "sflow",
            "ipfix", "flood_vlans",
        };
        for (size_t i = 0; i < ARRAY_SIZE(columns); i++) {
            vsctl_clear_column(row, columns[i]);
        }
        /* Only the bridge's MAC address survives in other_config. */
        const char *hwaddr = vsctl_read_map_value(row, "other_config",
                                                  "hwaddr");
        char *saved = hwaddr ? xstrdup(hwaddr) : NULL;
        vsctl_clear_column(row, "other_config");
        if (saved) {
            vsctl_set_map_key(row, "other_config", "hwaddr", saved);
            free(saved);
        }
    }
    VSCTL_FOR_EACH (row, "Port", ctx->idl) {
        vsctl_clear_column(row, "other_config");
    }
    VSCTL_FOR_EACH (row, "Interface", ctx->idl) {
        vsctl_write_integer(row, "ingress_policing_rate", 0);
        vsctl_write_integer(row, "ingress_policing_burst", 0);
    }

    static const char *const tables[] = {
        "Mirror", "Controller", "Manager", "NetFlow", "SSL", "sFlow",
        "IPFIX", "Flow_Sample_Collector_Set",
    };
    for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
        delete_all_rows(ctx, tables[i]);
    }
    vsctl_cache_invalidate(ctx);
}

/* Controllers. */

static void
print_sorted_targets(struct vsctl_context *ctx,
                     const struct ovsdb_idl_row *row, const char *column)
{
    struct sset targets = SSET_INITIALIZER(&targets);
    const struct ovsdb_datum *d = vsctl_read(row, column);

    for (size_t i = 0; i < d->n; i++) {
        const struct ovsdb_idl_row *ref = vsctl_read_ref(row, column, i);
        if (ref) {
            sset_add(&targets, vsctl_read_string(ref, "target"));
        }
    }
    const char **sorted = sset_sort(&targets);
    for (size_t i = 0; i < sset_count(&targets); i++) {
        ds_put_format(ctx->output, "%s\n", sorted[i]);
    }
    free(sorted);
    sset_destroy(&targets);
}

static const struct ovsdb_idl_row *
bridge_row(struct vsctl_bridge *br)
{
    return br->parent ? br->parent->br_cfg : br->br_cfg;
}

static void
cmd_get_controller(struct vsctl_context *ctx)
{
    struct vsctl_bridge *br = vsctl_find_bridge(ctx, ctx->argv[1], true);
    print_sorted_targets(ctx, bridge_row(br), "controller");
}

static void
delete_refs(const struct ovsdb_idl_row *row, const char *column)
{
    const struct ovsdb_datum *d = vsctl_read(row, column);
    const struct ovsdb_idl_row **refs = xmalloc((d->n + 1) * sizeof *refs);
    size_t n = 0;

    for (size_t i = 0; i < d->n; i++) {
        const struct ovsdb_idl_row *ref = vsctl_read_ref(row, column, i);
        if (ref) {
            refs[n++] = ref;
        }
    }
    vsctl_clear_column(row, column);
    for (size_t i = 0; i < n; i++) {
        ovsdb_idl_txn_delete(refs[i]);
    }
    free(refs);
}

static void
cmd_del_controller(struct vsctl_context *ctx)
{
    struct vsctl_bridge *br = vsctl_find_real_bridge(ctx, ctx->argv[1],
                                                     true);
    delete_refs(br->br_cfg, "controller");
}

/* Inserts one row of TABLE per target; returns them. */
static const struct ovsdb_idl_row **
insert_targets(struct vsctl_context *ctx, const char *table,
               char **targets, size_t n)
{
    const char *probe = shash_find_data(ctx->options, "--inactivity-probe");
    const struct ovsdb_idl_row **rows = xmalloc(n * sizeof *rows);
    int64_t msecs = 0;

    if (probe) {
        msecs = atoll(probe);
        if (msecs < 0) {
            msecs = 0;
        }
    }
    for (size_t i = 0; i < n; i++) {
        rows[i] = ovsdb_idl_txn_insert(ctx->txn, VS_TABLE(table), NULL);
        vsctl_write_string(rows[i], "target", targets[i]);
        if (probe) {
            vsctl_write_integer(rows[i], "inactivity_probe", msecs);
        }
    }
    return rows;
}

static void
cmd_set_controller(struct vsctl_context *ctx)
{
    struct vsctl_bridge *br = vsctl_find_real_bridge(ctx, ctx->argv[1],
                                                     true);
    size_t n = ctx->argc - 2;

    delete_refs(br->br_cfg, "controller");
    const struct ovsdb_idl_row **rows = insert_targets(ctx, "Controller",
                                                       &ctx->argv[2], n);
    vsctl_write_refs(br->br_cfg, "controller", rows, n);
    free(rows);
}

/* Fail mode. */

static void
cmd_get_fail_mode(struct vsctl_context *ctx)
{
    struct vsctl_bridge *br = vsctl_find_bridge(ctx, ctx->argv[1], true);
    const struct ovsdb_datum *d = vsctl_read(bridge_row(br), "fail_mode");

    if (d->n) {
        ds_put_format(ctx->output, "%s\n", d->keys[0].string);
    }
}

static void
cmd_del_fail_mode(struct vsctl_context *ctx)
{
    struct vsctl_bridge *br = vsctl_find_real_bridge(ctx, ctx->argv[1],
                                                     true);
    vsctl_clear_column(br->br_cfg, "fail_mode");
}

static void
cmd_set_fail_mode(struct vsctl_context *ctx)
{
    struct vsctl_bridge *br = vsctl_find_real_bridge(ctx, ctx->argv[1],
                                                     true);
    const char *mode = ctx->argv[2];

    if (strcmp(mode, "standalone") && strcmp(mode, "secure")) {
        vsctl_fatal("fail-mode must be \"standalone\" or \"secure\"");
    }
    vsctl_write_string(br->br_cfg, "fail_mode", mode);
}

/* Managers. */

static void
cmd_get_manager(struct vsctl_context *ctx)
{
    print_sorted_targets(ctx, ctx->ovs, "manager_options");
}

static void
cmd_del_manager(struct vsctl_context *ctx)
{
    delete_refs(ctx->ovs, "manager_options");
}

static void
cmd_set_manager(struct vsctl_context *ctx)
{
    size_t n = ctx->argc - 1;

    delete_refs(ctx->ovs, "manager_options");
    const struct ovsdb_idl_row **rows = insert_targets(ctx, "Manager",
                                                       &ctx->argv[1], n);
    vsctl_write_refs(ctx->ovs, "manager_options", rows, n);
    free(rows);
}

/* SSL. */

static void
cmd_get_ssl(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_row *ssl = vsctl_read_ref(ctx->ovs, "ssl", 0);

    if (ssl) {
        ds_put_format(ctx->output, "Private key: %s\n",
                      vsctl_read_string(ssl, "private_key"));
        ds_put_format(ctx->output, "Certificate: %s\n",
                      vsctl_read_string(ssl, "certificate"));
        ds_put_format(ctx->output, "CA Certificate: %s\n",
                      vsctl_read_string(ssl, "ca_cert"));
        ds_put_format(ctx->output, "Bootstrap: %s\n",
                      vsctl_read_bool(ssl, "bootstrap_ca_cert")
                      ? "true" : "false");
    }
}

static void
cmd_del_ssl(struct vsctl_context *ctx)
{
    const struct ovsdb_idl_row *ssl = vsctl_read_ref(ctx->ovs, "ssl", 0);

    if (ssl) {
        vsctl_clear_column(ctx->ovs, "ssl");
        ovsdb_idl_txn_delete(ssl);
    }
}

static void
cmd_set_ssl(struct vsctl_context *ctx)
{
    bool bootstrap = shash_find(ctx->options, "--bootstrap") != NULL;

    cmd_del_ssl(ctx);
    const struct ovsdb_idl_row *ssl = ovsdb_idl_txn_insert(
        ctx->txn, VS_TABLE("SSL"), NULL);
    vsctl_write_string(ssl, "private_key", ctx->argv[1]);
    vsctl_write_string(ssl, "certificate", ctx->argv[2]);
    vsctl_write_string(ssl, "ca_cert", ctx->argv[3]);
    vsctl_write_bool(ssl, "bootstrap_ca_cert", bootstrap);
    vsctl_write_refs(ctx->ovs, "ssl", &ssl, 1);
}

/* Auto Attach: a bridge's AutoAttach row maps I-SIDs (keys) to VLANs
 * (values).  A fake bridge stands for its parent. */

/* Parses S as Open vSwitch does: leading digits, with what follows them
 * ignored; no digits at all is an error.  Range checks are the server's
 * (the schema's), so its "constraint violation" is what a user sees. */
static int64_t
aa_number(const char *s)
{
    char *end;
    unsigned long long int n = strtoull(s, &end, 10);

    if (end == s) {
        vsctl_fatal("Invalid argument %s", s);
    }
    return (int64_t) n;
}

static const struct ovsdb_idl_row *
aa_row(struct vsctl_bridge *br)
{
    return vsctl_read_ref(bridge_row(br), "auto_attach", 0);
}

static void
cmd_add_aa_mapping(struct vsctl_context *ctx)
{
    int64_t isid = aa_number(ctx->argv[2]);
    int64_t vlan = aa_number(ctx->argv[3]);
    struct vsctl_bridge *br = vsctl_find_bridge(ctx, ctx->argv[1], true);
    const struct ovsdb_idl_row *aa = aa_row(br);

    if (!aa) {
        aa = ovsdb_idl_txn_insert(ctx->txn, VS_TABLE("AutoAttach"), NULL);
        vsctl_write_refs(bridge_row(br), "auto_attach", &aa, 1);
    }

    /* Like an OVSDB "insert" mutation: an I-SID already mapped keeps its
     * VLAN. */
    const struct ovsdb_idl_column *col = VS_COL("AutoAttach", "mappings");
    union ovsdb_atom key = { .integer = isid };
    if (ovsdb_datum_find_key(ovsdb_idl_read(aa, col), &key,
                             OVSDB_TYPE_INTEGER) == UINT_MAX) {
        union ovsdb_atom value = { .integer = vlan };
        struct ovsdb_datum d;
        ovsdb_datum_clone(&d, ovsdb_idl_read(aa, col), &col->type);
        ovsdb_datum_add_unsafe(&d, &key, &value, &col->type);
        ovsdb_datum_sort_assert(&d, OVSDB_TYPE_INTEGER);
        ovsdb_idl_txn_write(aa, col, &d);
    }
}

static void
cmd_del_aa_mapping(struct vsctl_context *ctx)
{
    int64_t isid = aa_number(ctx->argv[2]);
    int64_t vlan = aa_number(ctx->argv[3]);
    struct vsctl_bridge *br = vsctl_find_bridge(ctx, ctx->argv[1], true);
    const struct ovsdb_idl_row *aa = aa_row(br);

    if (!aa) {
        return;
    }
    /* Only the exact pair goes: a different VLAN leaves it be. */
    const struct ovsdb_idl_column *col = VS_COL("AutoAttach", "mappings");
    const struct ovsdb_datum *cur = ovsdb_idl_read(aa, col);
    union ovsdb_atom key = { .integer = isid };
    unsigned int idx = ovsdb_datum_find_key(cur, &key, OVSDB_TYPE_INTEGER);
    if (idx != UINT_MAX && cur->values[idx].integer == vlan) {
        struct ovsdb_datum d;
        ovsdb_datum_clone(&d, cur, &col->type);
        ovsdb_datum_remove_unsafe(&d, idx, &col->type);
        ovsdb_datum_sort_assert(&d, OVSDB_TYPE_INTEGER);
        ovsdb_idl_txn_write(aa, col, &d);
    }
}

static void
cmd_get_aa_mapping(struct vsctl_context *ctx)
{
    struct vsctl_bridge *br = vsctl_find_bridge(ctx, ctx->argv[1], true);
    const struct ovsdb_idl_row *aa = aa_row(br);

    if (aa) {
        const struct ovsdb_datum *d = vsctl_read(aa, "mappings");
        for (size_t i = 0; i < d->n; i++) {
            ds_put_format(ctx->output, "%"PRId64" %"PRId64"\n",
                          d->keys[i].integer, d->values[i].integer);
        }
    }
}

/* Prerequisites. */

static void
pre_show(struct vsctl_context *ctx)
{
    for (size_t i = 0; i < ARRAY_SIZE(show_tables); i++) {
        const struct show_table *st = &show_tables[i];
        const struct ovsdb_idl_table_class *tc = vsctl_table(st->table);

        vsctl_need_table(ctx, tc);
        if (st->name_column) {
            vsctl_need(ctx, st->table, st->name_column);
        }
        for (size_t j = 0; j < ARRAY_SIZE(st->columns) && st->columns[j];
             j++) {
            vsctl_need(ctx, st->table, st->columns[j]);
        }
    }
}

static void
pre_emer_reset(struct vsctl_context *ctx)
{
    static const char *const bridge_columns[] = {
        "controller", "fail_mode", "mirrors", "netflow", "sflow", "ipfix",
        "flood_vlans", "other_config",
    };
    static const char *const tables[] = {
        "Mirror", "Controller", "Manager", "NetFlow", "SSL", "sFlow",
        "IPFIX", "Flow_Sample_Collector_Set",
    };

    vsctl_need(ctx, "Open_vSwitch", "manager_options");
    vsctl_need(ctx, "Open_vSwitch", "ssl");
    for (size_t i = 0; i < ARRAY_SIZE(bridge_columns); i++) {
        vsctl_need(ctx, "Bridge", bridge_columns[i]);
    }
    vsctl_need(ctx, "Port", "other_config");
    vsctl_need(ctx, "Interface", "ingress_policing_rate");
    vsctl_need(ctx, "Interface", "ingress_policing_burst");
    for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
        vsctl_need_table(ctx, vsctl_table(tables[i]));
    }
}

static void
pre_controller(struct vsctl_context *ctx)
{
    vsctl_need_bridge_cache(ctx);
    vsctl_need(ctx, "Bridge", "controller");
    vsctl_need(ctx, "Controller", "target");
    vsctl_need(ctx, "Controller", "inactivity_probe");
}

static void
pre_fail_mode(struct vsctl_context *ctx)
{
    vsctl_need_bridge_cache(ctx);
    vsctl_need(ctx, "Bridge", "fail_mode");
}

static void
pre_manager(struct vsctl_context *ctx)
{
    vsctl_need(ctx, "Open_vSwitch", "manager_options");
    vsctl_need(ctx, "Manager", "target");
    vsctl_need(ctx, "Manager", "inactivity_probe");
}

static void
pre_ssl(struct vsctl_context *ctx)
{
    vsctl_need(ctx, "Open_vSwitch", "ssl");
    vsctl_need(ctx, "SSL", "private_key");
    vsctl_need(ctx, "SSL", "certificate");
    vsctl_need(ctx, "SSL", "ca_cert");
    vsctl_need(ctx, "SSL", "bootstrap_ca_cert");
}

static void
pre_aa_mapping(struct vsctl_context *ctx)
{
    vsctl_need_bridge_cache(ctx);
    vsctl_need(ctx, "Bridge", "auto_attach");
    vsctl_need(ctx, "AutoAttach", "mappings");
}

const struct vsctl_command_syntax vsctl_ovs_commands[] = {
    {"init", 0, 0, "", NULL, cmd_init, NULL, "", true},
    {"show", 0, 0, "", pre_show, cmd_show, NULL, "", false},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, false},
};

const struct vsctl_command_syntax vsctl_switch_commands[] = {
    {"emer-reset", 0, 0, "", pre_emer_reset, cmd_emer_reset, NULL, "", true},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, false},
};

const struct vsctl_command_syntax vsctl_misc_commands[] = {
    {"get-controller", 1, 1, "BRIDGE", pre_controller, cmd_get_controller,
     NULL, "", false},
    {"del-controller", 1, 1, "BRIDGE", pre_controller, cmd_del_controller,
     NULL, "", true},
    {"set-controller", 1, INT_MAX, "BRIDGE TARGET...", pre_controller,
     cmd_set_controller, NULL, "--inactivity-probe=", true},
    {"get-fail-mode", 1, 1, "BRIDGE", pre_fail_mode, cmd_get_fail_mode, NULL,
     "", false},
    {"del-fail-mode", 1, 1, "BRIDGE", pre_fail_mode, cmd_del_fail_mode, NULL,
     "", true},
    {"set-fail-mode", 2, 2, "BRIDGE MODE", pre_fail_mode, cmd_set_fail_mode,
     NULL, "", true},
    {"get-manager", 0, 0, "", pre_manager, cmd_get_manager, NULL, "", false},
    {"del-manager", 0, 0, "", pre_manager, cmd_del_manager, NULL, "", true},
    {"set-manager", 1, INT_MAX, "TARGET...", pre_manager, cmd_set_manager,
     NULL, "--inactivity-probe=", true},
    {"get-ssl", 0, 0, "", pre_ssl, cmd_get_ssl, NULL, "", false},
    {"del-ssl", 0, 0, "", pre_ssl, cmd_del_ssl, NULL, "", true},
    {"set-ssl", 3, 3, "PRIVATE-KEY CERTIFICATE CA-CERT", pre_ssl, cmd_set_ssl,
     NULL, "--bootstrap", true},
    {"add-aa-mapping", 3, 3, "BRIDGE ARG ARG", pre_aa_mapping,
     cmd_add_aa_mapping, NULL, "", true},
    {"del-aa-mapping", 3, 3, "BRIDGE ARG ARG", pre_aa_mapping,
     cmd_del_aa_mapping, NULL, "", true},
    {"get-aa-mapping", 1, 1, "BRIDGE", pre_aa_mapping, cmd_get_aa_mapping,
     NULL, "", false},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, false},
};
