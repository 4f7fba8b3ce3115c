/* vsctl-bridge: ovs-vsctl's bridge, port and interface commands.
 *
 * The cache: who contains whom, by name.  A "fake bridge" is a Port of a
 * real bridge with fake_bridge=true and a VLAN tag: ovs-vsctl shows it as a
 * bridge of its own, owning the ports of its parent that carry the same
 * tag.  The cache is built once per transaction attempt (one pass over
 * bridges, ports and interfaces) and then kept up to date by the commands
 * that change it; a generic command that writes drops it.
 *
 * Changes to Open_vSwitch.bridges and Bridge.ports are partial updates, so
 * adding a port to a bridge with thousands of ports sends one uuid, and
 * nothing here verifies those columns: the server's name indexes catch
 * concurrent duplicates. */

#include <config.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "smap.h"
#include "sset.h"
#include "vlog.h"
#include "vsctl.h"

/* The cache's warnings go to ovs-vsctl's own module, "vsctl" (defined in
 * ovs-vsctl.c), as in Open vSwitch, where users filter them by that name. */
extern struct vlog_module VLM_vsctl;
static struct vlog_module *const this_module = &VLM_vsctl;

void
vsctl_context_init(struct vsctl_context *ctx, struct vsctl_command *command,
                   struct ovsdb_idl *idl, struct ovsdb_idl_txn *txn,
                   struct ovsdb_symbol_table *symtab,
                   const struct ovsdb_idl_row *ovs)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->command = command;
    if (command) {
        ctx->argc = command->argc;
        ctx->argv = command->argv;
        ctx->options = &command->options;
        ctx->output = &command->output;
        ctx->table = &command->table;
    }
    ctx->idl = idl;
    ctx->txn = txn;
    ctx->symtab = symtab;
    ctx->ovs = ovs;
    shash_init(&ctx->bridges);
    shash_init(&ctx->ports);
    shash_init(&ctx->ifaces);
}

static void
free_bridge(struct vsctl_bridge *br)
{
    shash_destroy(&br->ports);
    shash_destroy(&br->children);
    free(br->name);
    free(br);
}

static void
free_port(struct vsctl_port *port)
{
    shash_destroy(&port->ifaces);
    free(port);
}

void
vsctl_cache_invalidate(struct vsctl_context *ctx)
{
    if (!ctx->cache_valid) {
        return;
    }
    struct shash_node *node;
    SHASH_FOR_EACH (node, &ctx->bridges) {
        free_bridge(node->data);
    }
    SHASH_FOR_EACH (node, &ctx->ports) {
        free_port(node->data);
    }
    shash_clear_free_data(&ctx->ifaces);
    shash_clear(&ctx->bridges);
    shash_clear(&ctx->ports);
    ctx->cache_valid = false;
}

void
vsctl_cache_note_write(struct vsctl_context *ctx,
                       const struct ovsdb_idl_table_class *tc,
                       const struct ovsdb_idl_column *column)
{
    /* What vsctl_cache_populate() and its helpers read. */
    static const struct {
        const char *table;
        const char *column;
    } inputs[] = {
        { "Open_vSwitch", "bridges" },
        { "Bridge", "name" },
        { "Bridge", "ports" },
        { "Port", "name" },
        { "Port", "interfaces" },
        { "Port", "tag" },
        { "Port", "fake_bridge" },
        { "Interface", "name" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(inputs); i++) {
        if (!strcmp(tc->name, inputs[i].table)
            && !strcmp(column->name, inputs[i].column)) {
            vsctl_cache_invalidate(ctx);
            return;
        }
    }
}

void
vsctl_context_done(struct vsctl_context *ctx)
{
    vsctl_cache_invalidate(ctx);
    shash_destroy(&ctx->bridges);
    shash_destroy(&ctx->ports);
    shash_destroy(&ctx->ifaces);
}

static struct vsctl_bridge *
add_bridge_to_cache(struct vsctl_context *ctx,
                    const struct ovsdb_idl_row *br_cfg, const char *name,
                    struct vsctl_bridge *parent, int vlan)
{
    struct vsctl_bridge *br = xzalloc(sizeof *br);

    br->br_cfg = br_cfg;
    br->name = xstrdup(name);
    br->parent = parent;
    br->vlan = vlan;
    shash_init(&br->ports);
    shash_init(&br->children);
    if (parent) {
        shash_add(&parent->children, name, br);
    }
    shash_add(&ctx->bridges, name, br);
    return br;
}

static struct vsctl_port *
add_port_to_cache(struct vsctl_context *ctx, struct vsctl_bridge *br,
                  const struct ovsdb_idl_row *port_cfg)
{
    struct vsctl_port *port = xzalloc(sizeof *port);
    const char *name = vsctl_read_string(port_cfg, "name");

    port->port_cfg = port_cfg;
    port->bridge = br;
    shash_init(&port->ifaces);
    shash_add(&br->ports, name, port);
    shash_add(&ctx->ports, name, port);
    return port;
}

static struct vsctl_iface *
add_iface_to_cache(struct vsctl_context *ctx, struct vsctl_port *port,
                   const struct ovsdb_idl_row *iface_cfg)
{
    struct vsctl_iface *iface = xzalloc(sizeof *iface);
    const char *name = vsctl_read_string(iface_cfg, "name");

    iface->iface_cfg = iface_cfg;
    iface->port = port;
    shash_add(&port->ifaces, name, iface);
    shash_add(&ctx->ifaces, name, iface);
    return iface;
}

static bool
port_is_fake_bridge(const struct ovsdb_idl_row *port_cfg, int64_t *vlan)
{
    return (vsctl_read_bool(port_cfg, "fake_bridge")
            && vsctl_read_integer(port_cfg, "tag", vlan)
            && *vlan >= 0 && *vlan <= 4095);
}

static struct vsctl_bridge *
find_vlan_bridge(struct vsctl_bridge *parent, int vlan)
{
    struct shash_node *node;

    SHASH_FOR_EACH (node, &parent->children) {
        struct vsctl_bridge *child = node->data;
        if (child->vlan == vlan) {
            return child;
        }
    }
    return NULL;
}

void
vsctl_cache_populate(struct vsctl_context *ctx)
{
    const struct ovsdb_datum *bridges;
    struct sset seen_bridges = SSET_INITIALIZER(&seen_bridges);

    if (ctx->cache_valid) {
        return;
    }
    ctx->cache_valid = true;

    /* Real bridges and their fake bridges first. */
    bridges = vsctl_read(ctx->ovs, "bridges");
    for (size_t i = 0; i < bridges->n; i++) {
        const struct ovsdb_idl_row *br_cfg = vsctl_read_ref(ctx->ovs,
                                                            "bridges", i);
        if (!br_cfg) {
            continue;
        }
        const char *name = vsctl_read_string(br_cfg, "name");
        if (!sset_add(&seen_bridges, name)) {
            VLOG_WARN("%s: database contains duplicate bridge name", name);
            continue;
        }
        struct vsctl_bridge *br = add_bridge_to_cache(ctx, br_cfg, name,
                                                      NULL, 0);
        const struct ovsdb_datum *ports = vsctl_read(br_cfg, "ports");
        for (size_t j = 0; j < ports->n; j++) {
            const struct ovsdb_idl_row *port_cfg = vsctl_read_ref(br_cfg,
                                                                  "ports", j);
            int64_t vlan;
            if (port_cfg && port_is_fake_bridge(port_cfg, &vlan)) {
                const char *port_name = vsctl_read_string(port_cfg, "name");
                if (sset_add(&seen_bridges, port_name)) {
                    add_bridge_to_cache(ctx, NULL, port_name, br, vlan);
                }
            }
        }
    }
    sset_destroy(&seen_bridges);

    /* Then ports and interfaces. */
    for (size_t i = 0; i < bridges->n; i++) {
        const struct ovsdb_idl_row *br_cfg = vsctl_read_ref(ctx->ovs,
                                                            "bridges", i);
        if (!br_cfg) {
            continue;
        }
        struct vsctl_bridge *br = shash_find_data(
            &ctx->bridges, vsctl_read_string(br_cfg, "name"));
        if (!br || br->br_cfg != br_cfg) {
            continue;
        }
        const struct ovsdb_datum *ports = vsctl_read(br_cfg, "ports");
        for (size_t j = 0; j < ports->n; j++) {
            const struct ovsdb_idl_row *port_cfg = vsctl_read_ref(br_cfg,
                                                                  "ports", j);
            if (!port_cfg) {
                continue;
            }
            const char *port_name = vsctl_read_string(port_cfg, "name");
            struct vsctl_port *old = shash_find_data(&ctx->ports, port_name);
            if (old) {
                if (old->port_cfg == port_cfg) {
                    VLOG_WARN("%s: port is in multiple bridges (%s and %s)",
                              port_name, br->name, old->bridge->name);
                    old->shared = true;
                } else {
                    VLOG_WARN("%s: database contains duplicate port name",
                              port_name);
                }
                continue;
            }

            struct vsctl_bridge *owner = br;
            int64_t tag;
            if (vsctl_read_integer(port_cfg, "tag", &tag)
                && vsctl_read(port_cfg, "tag")->n == 1
                && tag >= 0 && tag <= 4095) {
                struct vsctl_bridge *fake = find_vlan_bridge(br, tag);
                if (fake) {
                    owner = fake;
                }
            }
            struct vsctl_port *port = add_port_to_cache(ctx, owner, port_cfg);

            const struct ovsdb_datum *ifaces = vsctl_read(port_cfg,
                                                          "interfaces");
            for (size_t k = 0; k < ifaces->n; k++) {
                const struct ovsdb_idl_row *iface_cfg
                    = vsctl_read_ref(port_cfg, "interfaces", k);
                if (!iface_cfg) {
                    continue;
                }
                const char *iface_name = vsctl_read_string(iface_cfg, "name");
                struct vsctl_iface *old_iface
                    = shash_find_data(&ctx->ifaces, iface_name);
                if (old_iface) {
                    if (old_iface->iface_cfg == iface_cfg) {
                        VLOG_WARN("%s: interface is in multiple ports "
                                  "(%s and %s)", iface_name,
                                  vsctl_read_string(
                                      old_iface->port->port_cfg, "name"),
                                  port_name);
                        old_iface->shared = true;
                    } else {
                        VLOG_WARN("%s: database contains duplicate "
                                  "interface name", iface_name);
                    }
                    continue;
                }
                add_iface_to_cache(ctx, port, iface_cfg);
            }
        }
    }
}

struct vsctl_bridge *
vsctl_find_bridge(struct vsctl_context *ctx, const char *name,
                  bool must_exist)
{
    vsctl_cache_populate(ctx);
    struct vsctl_bridge *br = shash_find_data(&ctx->bridges, name);
    if (must_exist && !br) {
        vsctl_fatal("no bridge named %s", name);
    }
    return br;
}

struct vsctl_bridge *
vsctl_find_real_bridge(struct vsctl_context *ctx, const char *name,
                       bool must_exist)
{
    struct vsctl_bridge *br = vsctl_find_bridge(ctx, name, must_exist);
    if (br && br->parent) {
        vsctl_fatal("%s is a fake bridge", name);
    }
    return br;
}

static struct vsctl_port *
find_port(struct vsctl_context *ctx, const char *name, bool must_exist)
{
    vsctl_cache_populate(ctx);
    struct vsctl_port *port = shash_find_data(&ctx->ports, name);
    if (port && !strcmp(name, port->bridge->name)) {
        port = NULL;
    }
    if (must_exist && !port) {
        vsctl_fatal("no port named %s", name);
    }
    return port;
}

static struct vsctl_iface *
find_iface(struct vsctl_context *ctx, const char *name, bool must_exist)
{
    vsctl_cache_populate(ctx);
    struct vsctl_iface *iface = shash_find_data(&ctx->ifaces, name);
    if (iface && !strcmp(name, iface->port->bridge->name)) {
        iface = NULL;
    }
    if (must_exist && !iface) {
        vsctl_fatal("no interface named %s", name);
    }
    return iface;
}

/* The real bridge row that holds BR's ports. */
static const struct ovsdb_idl_row *
real_br_cfg(const struct vsctl_bridge *br)
{
    return br->parent ? br->parent->br_cfg : br->br_cfg;
}

static void
check_conflicts(struct vsctl_context *ctx, const char *name, char *msg)
{
    struct vsctl_iface *iface;
    struct vsctl_port *port;

    vsctl_cache_populate(ctx);
    if (shash_find(&ctx->bridges, name)) {
        vsctl_fatal("%s because a bridge named %s already exists",
                    msg, name);
    }
    port = shash_find_data(&ctx->ports, name);
    if (port) {
        vsctl_fatal("%s because a port named %s already exists on "
                    "bridge %s", msg, name, port->bridge->name);
    }
    iface = shash_find_data(&ctx->ifaces, name);
    if (iface) {
        vsctl_fatal("%s because an interface named %s already exists "
                    "on bridge %s", msg, name, iface->port->bridge->name);
    }
    free(msg);
}

/* Deleting from the database and the cache. */

/* Drops IFACE from the cache and deletes its row, unless KEEP_ROW or the
 * interface is shared. */
static void
del_cached_iface(struct vsctl_context *ctx, struct vsctl_iface *iface,
                 bool keep_row)
{
    const char *name = vsctl_read_string(iface->iface_cfg, "name");
    shash_find_and_delete(&iface->port->ifaces, name);
    shash_find_and_delete(&ctx->ifaces, name);
    if (!keep_row && !iface->shared) {
        ovsdb_idl_txn_delete(iface->iface_cfg);
    }
    free(iface);
}

static void
del_cached_port(struct vsctl_context *ctx, struct vsctl_port *port)
{
    struct shash_node *node;

    /* A shared port stays for its other bridge, with its interfaces. */
    SHASH_FOR_EACH_SAFE (node, &port->ifaces) {
        del_cached_iface(ctx, node->data, port->shared);
    }
    const char *name = vsctl_read_string(port->port_cfg, "name");
    shash_find_and_delete(&port->bridge->ports, name);
    shash_find_and_delete(&ctx->ports, name);
    if (!port->shared) {
        ovsdb_idl_txn_delete(port->port_cfg);
    }
    free_port(port);
}

/* Removes PORT from its bridge's ports (a partial update) and deletes it
 * and its interfaces. */
static void
del_port(struct vsctl_context *ctx, struct vsctl_port *port)
{
    vsctl_remove_ref(real_br_cfg(port->bridge), "ports", port->port_cfg);
    del_cached_port(ctx, port);
}

static void
del_bridge(struct vsctl_context *ctx, struct vsctl_bridge *br)
{
    struct shash_node *node;

    SHASH_FOR_EACH_SAFE (node, &br->children) {
        del_bridge(ctx, node->data);
    }
    if (br->br_cfg) {
        /* A real bridge: its ports and interfaces go with it (the server
         * collects rows nothing refers to), so there is no need to list
         * them all in the transaction. */
        SHASH_FOR_EACH_SAFE (node, &br->ports) {
            del_cached_port(ctx, node->data);
        }
        vsctl_remove_ref(ctx->ovs, "bridges", br->br_cfg);
        ovsdb_idl_txn_delete(br->br_cfg);
    } else {
        SHASH_FOR_EACH_SAFE (node, &br->ports) {
            del_port(ctx, node->data);
        }
        shash_find_and_delete(&br->parent->children, br->name);
    }
    shash_find_and_delete(&ctx->bridges, br->name);
    free_bridge(br);
}

/* Commands. */

static void
cmd_add_br(struct vsctl_context *ctx)
{
    bool may_exist = shash_find(ctx->options, "--may-exist") != NULL;
    const char *br_name = ctx->argv[1];
    const char *parent_name = NULL;
    int vlan = 0;

    if (!br_name[0]) {
        vsctl_fatal("bridge name must not be empty string");
    }
    if (ctx->argc == 4) {
        parent_name = ctx->argv[2];
        vlan = atoi(ctx->argv[3]);
        if (vlan < 0 || vlan > 4095) {
            vsctl_fatal("%s: vlan must be between 0 and 4095", ctx->argv[0]);
        }
    } else if (ctx->argc != 2) {
        vsctl_fatal("'%s' command takes exactly 1 or 3 arguments",
                    ctx->argv[0]);
    }

    vsctl_cache_populate(ctx);
    if (may_exist) {
        struct vsctl_bridge *br = vsctl_find_bridge(ctx, br_name, false);
        if (br) {
            if (!parent_name) {
                if (br->parent) {
                    vsctl_fatal("\"--may-exist add-br %s\" but %s is "
                                "a VLAN bridge for VLAN %d",
                                br_name, br_name, br->vlan);
                }
            } else {
                if (!br->parent) {
                    vsctl_fatal("\"--may-exist add-br %s %s %d\" but %s "
                                "is not a VLAN bridge",
                                br_name, parent_name, vlan, br_name);
                } else if (strcmp(br->parent->name, parent_name)) {
                    vsctl_fatal("\"--may-exist add-br %s %s %d\" but %s "
                                "has the wrong parent %s",
                                br_name, parent_name, vlan,
                                br_name, br->parent->name);
                } else if (br->vlan != vlan) {
                    vsctl_fatal("\"--may-exist add-br %s %s %d\" but %s "
                                "is a VLAN bridge for the wrong VLAN %d",
                                br_name, parent_name, vlan, br_name,
                                br->vlan);
                }
            }
            return;
        }
    }
    check_conflicts(ctx, br_name,
                    xasprintf("cannot create a bridge named %s", br_name));

    const struct ovsdb_idl_row *iface, *port;
    if (!parent_name) {
        iface = ovsdb_idl_txn_insert(ctx->txn, VS_TABLE("Interface"), NULL);
        vsctl_write_string(iface, "name", br_name);
        vsctl_write_string(iface, "type", "internal");

        port = ovsdb_idl_txn_insert(ctx->txn, VS_TABLE("Port"), NULL);
        vsctl_write_string(port, "name", br_name);
        vsctl_write_refs(port, "interfaces", &iface, 1);

        const struct ovsdb_idl_row *br_cfg
            = ovsdb_idl_txn_insert(ctx->txn, VS_TABLE("Bridge"), NULL);
        vsctl_write_string(br_cfg, "name", br_name);
        vsctl_write_refs(br_cfg, "ports", &port, 1);

        vsctl_add_ref(ctx->ovs, "bridges", br_cfg);

        struct vsctl_bridge *br = add_bridge_to_cache(ctx, br_cfg, br_name,
                                                      NULL, 0);
        add_iface_to_cache(ctx, add_port_to_cache(ctx, br, port), iface);
    } else {
        struct vsctl_bridge *parent = vsctl_find_bridge(ctx, parent_name,
                                                        false);
        if (parent && parent->parent) {
            vsctl_fatal("cannot create bridge with fake bridge as parent");
        }
        if (!parent) {
            vsctl_fatal("parent bridge %s does not exist", parent_name);
        }
        struct vsctl_bridge *sibling = find_vlan_bridge(parent, vlan);
        if (sibling) {
            vsctl_fatal("bridge %s already has a child VLAN bridge %s on "
                        "VLAN %d", parent_name, sibling->name, vlan);
        }

        iface = ovsdb_idl_txn_insert(ctx->txn, VS_TABLE("Interface"), NULL);
        vsctl_write_string(iface, "name", br_name);
        vsctl_write_string(iface, "type", "internal");

        port = ovsdb_idl_txn_insert(ctx->txn, VS_TABLE("Port"), NULL);
        vsctl_write_string(port, "name", br_name);
        vsctl_write_refs(port, "interfaces", &iface, 1);
        vsctl_write_bool(port, "fake_bridge", true);
        vsctl_write_integer(port, "tag", vlan);

        vsctl_add_ref(parent->br_cfg, "ports", port);

        /* Ports of the parent already on this VLAN now belong to the new
         * bridge: the cache is rebuilt rather than patched. */
        vsctl_cache_invalidate(ctx);
    }
}

static void
cmd_del_br(struct vsctl_context *ctx)
{
    bool must_exist = !shash_find(ctx->options, "--if-exists");
    struct vsctl_bridge *br = vsctl_find_bridge(ctx, ctx->argv[1],
                                                must_exist);
    if (br) {
        del_bridge(ctx, br);
    }
}

static void
output_sorted(struct sset *names, struct ds *output)
{
    const char **sorted = sset_sort(names);
    for (size_t i = 0; i < sset_count(names); i++) {
        ds_put_format(output, "%s\n", sorted[i]);
    }
    free(sorted);
}

static void
cmd_list_br(struct vsctl_context *ctx)
{
    bool real = shash_find(ctx->options, "--real") != NULL;
    bool fake = shash_find(ctx->options, "--fake") != NULL;
    struct sset names = SSET_INITIALIZER(&names);
    struct shash_node *node;

    if (!real && !fake) {
        real = fake = true;
    }
    vsctl_cache_populate(ctx);
    SHASH_FOR_EACH (node, &ctx->bridges) {
        struct vsctl_bridge *br = node->data;
        if (br->parent ? fake : real) {
            sset_add(&names, br->name);
        }
    }
    output_sorted(&names, ctx->output);
    sset_destroy(&names);
}

static void
cmd_br_exists(struct vsctl_context *ctx)
{
    if (!vsctl_find_bridge(ctx, ctx->argv[1], false)) {
        exit(2);
    }
}

static void
cmd_br_to_vlan(struct vsctl_context *ctx)
{
    struct vsctl_bridge *br = vsctl_find_bridge(ctx, ctx->argv[1], true);
    ds_put_format(ctx->output, "%d\n", br->vlan);
}

static void
cmd_br_to_parent(struct vsctl_context *ctx)
{
    struct vsctl_bridge *br = vsctl_find_bridge(ctx, ctx->argv[1], true);
    if (br->parent) {
        br = br->parent;
    }
    ds_put_format(ctx->output, "%s\n", br->name);
}

#define FAKE_BRIDGE_PREFIX "fake-bridge-"

static void
cmd_br_set_external_id(struct vsctl_context *ctx)
{
    struct vsctl_bridge *br = vsctl_find_bridge(ctx, ctx->argv[1], true);
    const char *value = ctx->argc > 3 ? ctx->argv[3] : NULL;

    if (br->br_cfg) {
        vsctl_set_map_key(br->br_cfg, "external_ids", ctx->argv[2], value);
    } else {
        struct vsctl_port *port = shash_find_data(&ctx->ports, br->name);
        char *key = xasprintf(FAKE_BRIDGE_PREFIX "%s", ctx->argv[2]);
        vsctl_set_map_key(port->port_cfg, "external_ids", key, value);
        free(key);
    }
}

static void
cmd_br_get_external_id(struct vsctl_context *ctx)
{
    struct vsctl_bridge *br = vsctl_find_bridge(ctx, ctx->argv[1], true);
    const struct ovsdb_idl_row *row;
    const char *prefix;

    if (br->br_cfg) {
        row = br->br_cfg;
        prefix = "";
    } else {
        row = ((struct vsctl_port *) shash_find_data(&ctx->ports,
                                                     br->name))->port_cfg;
        prefix = FAKE_BRIDGE_PREFIX;
    }

    const struct ovsdb_datum *ids = vsctl_read(row, "external_ids");
    size_t prefix_len = strlen(prefix);
    if (ctx->argc > 2) {
        char *key = xasprintf("%s%s", prefix, ctx->argv[2]);
        const char *value = vsctl_read_map_value(row, "external_ids", key);
        if (value) {
            ds_put_format(ctx->output, "%s\n", value);
        }
        free(key);
    } else {
        for (size_t i = 0; i < ids->n; i++) {
            const char *key = ids->keys[i].string;
            if (!strncmp(key, prefix, prefix_len)) {
                ds_put_format(ctx->output, "%s=%s\n", key + prefix_len,
                              ids->values[i].string);
            }
        }
    }
}

static void
cmd_list_ports(struct vsctl_context *ctx)
{
    struct vsctl_bridge *br = vsctl_find_bridge(ctx, ctx->argv[1], true);
    struct sset names = SSET_INITIALIZER(&names);
    struct shash_node *node;

    SHASH_FOR_EACH (node, &br->ports) {
        if (strcmp(node->name, br->name)) {
            sset_add(&names, node->name);
        }
    }
    output_sorted(&names, ctx->output);
    sset_destroy(&names);
}

static void
cmd_list_ifaces(struct vsctl_context *ctx)
{
    struct vsctl_bridge *br = vsctl_find_bridge(ctx, ctx->argv[1], true);
    struct sset names = SSET_INITIALIZER(&names);
    struct shash_node *node, *inode;

    SHASH_FOR_EACH (node, &br->ports) {
        struct vsctl_port *port = node->data;
        SHASH_FOR_EACH (inode, &port->ifaces) {
            if (strcmp(inode->name, br->name)) {
                sset_add(&names, inode->name);
            }
        }
    }
    output_sorted(&names, ctx->output);
    sset_destroy(&names);
}

static void
cmd_port_to_br(struct vsctl_context *ctx)
{
    struct vsctl_port *port = find_port(ctx, ctx->argv[1], true);
    ds_put_format(ctx->output, "%s\n", port->bridge->name);
}

static void
cmd_iface_to_br(struct vsctl_context *ctx)
{
    struct vsctl_iface *iface = find_iface(ctx, ctx->argv[1], true);
    ds_put_format(ctx->output, "%s\n", iface->port->bridge->name);
}

/* Sets a column of a new row from a "column[:key]=value" argument, through
 * the generic "set" machinery. */
static void
set_new_row_column(struct vsctl_context *ctx,
                   const struct ovsdb_idl_row *row, const char *arg)
{
    const struct vsctl_command_syntax *set = vsctl_find_command("set");
    struct vsctl_context sub = *ctx;
    char *uuid = xasprintf(UUID_FMT, UUID_ARGS(ovsdb_idl_row_get_uuid(row)));
    char *argv[] = { "set", CONST_CAST(char *, "Port"), uuid,
                     CONST_CAST(char *, arg) };
    struct shash no_options = SHASH_INITIALIZER(&no_options);

    sub.argc = 4;
    sub.argv = argv;
    sub.options = &no_options;
    sub.cache_valid = false;
    set->run(&sub);
    free(uuid);
}

static void
add_port(struct vsctl_context *ctx, const char *br_name,
         const char *port_name, bool may_exist, bool fake_iface,
         char **iface_names, int n_ifaces, char **settings, int n_settings)
{
    /* An empty name would make a port or device that nothing can name. */
    if (!port_name[0]) {
        vsctl_fatal("port name must not be empty string");
    }
    for (int i = 0; i < n_ifaces; i++) {
        if (!iface_names[i][0]) {
            vsctl_fatal("interface name must not be empty string");
        }
    }

    vsctl_cache_populate(ctx);
    if (may_exist) {
        struct vsctl_port *port = find_port(ctx, port_name, false);
        if (port) {
            struct sset want = SSET_INITIALIZER(&want);
            struct sset have = SSET_INITIALIZER(&have);
            struct shash_node *node;
            struct ds command = DS_EMPTY_INITIALIZER;

            if (n_ifaces == 1 && !strcmp(iface_names[0], port_name)) {
                ds_put_format(&command, "--may-exist add-port %s %s",
                              br_name, port_name);
            } else {
                ds_put_format(&command, "--may-exist add-bond %s %s",
                              br_name, port_name);
                for (int i = 0; i < n_ifaces; i++) {
                    ds_put_format(&command, " %s", iface_names[i]);
                }
            }

            sset_add_array(&want, iface_names, n_ifaces);
            SHASH_FOR_EACH (node, &port->ifaces) {
                sset_add(&have, node->name);
            }

            /* As in Open vSwitch, a port on another bridge is reported
             * before a BR_NAME that does not exist. */
            struct vsctl_bridge *br = vsctl_find_bridge(ctx, br_name, false);
            if (port->bridge != br) {
                vsctl_fatal("\"%s\" but %s is actually attached to bridge %s",
                            ds_cstr(&command), port_name, port->bridge->name);
            }
            if (!sset_equals(&want, &have)) {
                char *list = sset_join(&have, ", ", "");
                vsctl_fatal("\"%s\" but %s actually has interface(s) %s",
                            ds_cstr(&command), port_name, list);
            }
            sset_destroy(&want);
            sset_destroy(&have);
            ds_destroy(&command);
            return;
        }
    }
    check_conflicts(ctx, port_name,
                    xasprintf("cannot create a port named %s", port_name));
    for (int i = 0; i < n_ifaces; i++) {
        check_conflicts(ctx, iface_names[i],
                        xasprintf("cannot create an interface named %s",
                                  iface_names[i]));
    }
    struct vsctl_bridge *br = vsctl_find_bridge(ctx, br_name, true);

    const struct ovsdb_idl_row **ifaces = xmalloc(n_ifaces * sizeof *ifaces);
    for (int i = 0; i < n_ifaces; i++) {
        ifaces[i] = ovsdb_idl_txn_insert(ctx->txn, VS_TABLE("Interface"),
                                         NULL);
        vsctl_write_string(ifaces[i], "name", iface_names[i]);
        vsctl_expect_iface_setup(ifaces[i]);
    }

    const struct ovsdb_idl_row *port_cfg
        = ovsdb_idl_txn_insert(ctx->txn, VS_TABLE("Port"), NULL);
    vsctl_write_string(port_cfg, "name", port_name);
    vsctl_write_refs(port_cfg, "interfaces", ifaces, n_ifaces);
    if (fake_iface) {
        vsctl_write_bool(port_cfg, "bond_fake_iface", true);
    }
    if (br->parent) {
        vsctl_write_integer(port_cfg, "tag", br->vlan);
    }
    for (int i = 0; i < n_settings; i++) {
        set_new_row_column(ctx, port_cfg, settings[i]);
    }

    vsctl_add_ref(real_br_cfg(br), "ports", port_cfg);

    struct vsctl_port *port = add_port_to_cache(ctx, br, port_cfg);
    for (int i = 0; i < n_ifaces; i++) {
        add_iface_to_cache(ctx, port, ifaces[i]);
    }
    free(ifaces);
}

static void
cmd_add_port(struct vsctl_context *ctx)
{
    bool may_exist = shash_find(ctx->options, "--may-exist") != NULL;

    add_port(ctx, ctx->argv[1], ctx->argv[2], may_exist, false,
             &ctx->argv[2], 1, &ctx->argv[3], ctx->argc - 3);
}

/* Splits add-bond's arguments after BRIDGE and BOND into interfaces and
 * "COLUMN[:KEY]=VALUE" settings: returns how many interfaces. */
static int
add_bond_n_ifaces(const struct vsctl_context *ctx)
{
    for (int i = 3; i < ctx->argc; i++) {
        if (strchr(ctx->argv[i], '=')) {
            return i - 3;
        }
    }
    return ctx->argc - 3;
}

static void
cmd_add_bond(struct vsctl_context *ctx)
{
    bool may_exist = shash_find(ctx->options, "--may-exist") != NULL;
    bool fake_iface = shash_find(ctx->options, "--fake-iface") != NULL;
    int n_ifaces = add_bond_n_ifaces(ctx);

    if (n_ifaces < 2) {
        vsctl_fatal("add-bond requires at least 2 interfaces, but only "
                    "%d were specified", n_ifaces);
    }

    add_port(ctx, ctx->argv[1], ctx->argv[2], may_exist, fake_iface,
             &ctx->argv[3], n_ifaces, &ctx->argv[3 + n_ifaces],
             ctx->argc - 3 - n_ifaces);
}

/* Turns a port into a bond, or adds to one: one more interface. */
static void
cmd_add_bond_iface(struct vsctl_context *ctx)
{
    bool may_exist = shash_find(ctx->options, "--may-exist") != NULL;
    struct vsctl_port *port = find_port(ctx, ctx->argv[1], true);
    const char *iface_name = ctx->argv[2];

    /* As add-bond (Open vSwitch 3.1's add-bond-iface lets it through). */
    if (!iface_name[0]) {
        vsctl_fatal("interface name must not be empty string");
    }
    if (may_exist) {
        struct vsctl_iface *iface = find_iface(ctx, iface_name, false);
        if (iface) {
            if (iface->port != port) {
                vsctl_fatal("\"--may-exist add-bond-iface %s %s\" but %s is "
                            "actually attached to port %s",
                            ctx->argv[1], iface_name, iface_name,
                            vsctl_read_string(iface->port->port_cfg,
                                              "name"));
            }
            return;
        }
    }
    check_conflicts(ctx, iface_name,
                    xasprintf("cannot create an interface named %s",
                              iface_name));

    const struct ovsdb_idl_row *iface_cfg
        = ovsdb_idl_txn_insert(ctx->txn, VS_TABLE("Interface"), NULL);
    vsctl_write_string(iface_cfg, "name", iface_name);
    vsctl_expect_iface_setup(iface_cfg);
    vsctl_add_ref(port->port_cfg, "interfaces", iface_cfg);
    add_iface_to_cache(ctx, port, iface_cfg);
}

/* Takes an interface out of its port, which must keep at least one. */
static void
cmd_del_bond_iface(struct vsctl_context *ctx)
{
    bool must_exist = !shash_find(ctx->options, "--if-exists");
    const char *iface_name = ctx->argv[ctx->argc - 1];
    struct vsctl_iface *iface = find_iface(ctx, iface_name, must_exist);

    if (!iface) {
        return;
    }
    if (ctx->argc == 3) {
        /* The bond must exist even with --if-exists. */
        struct vsctl_port *port = find_port(ctx, ctx->argv[1], true);
        if (iface->port != port) {
            vsctl_fatal("port %s does not have an interface %s",
                        ctx->argv[1], iface_name);
        }
    }

    /* The schema wants at least one interface per port: count them in the
     * database (the cache leaves out one that another port lists too). */
    const struct ovsdb_idl_row *port_cfg = iface->port->port_cfg;
    if (vsctl_read(port_cfg, "interfaces")->n <= 1) {
        vsctl_fatal("cannot delete last interface from port %s",
                    vsctl_read_string(port_cfg, "name"));
    }
    vsctl_remove_ref(port_cfg, "interfaces", iface->iface_cfg);
    del_cached_iface(ctx, iface, false);
}

static void
cmd_del_port(struct vsctl_context *ctx)
{
    bool must_exist = !shash_find(ctx->options, "--if-exists");
    bool with_iface = shash_find(ctx->options, "--with-iface") != NULL;
    const char *target = ctx->argv[ctx->argc - 1];
    struct vsctl_port *port;

    vsctl_cache_populate(ctx);
    port = shash_find_data(&ctx->ports, target);
    if (port && !strcmp(target, port->bridge->name)) {
        /* A bridge's local port goes only with the bridge; with
         * --if-exists there is simply no such (ordinary) port. */
        if (!must_exist) {
            return;
        }
        vsctl_fatal("cannot delete port %s because it is the local port "
                    "for bridge %s (deleting this port requires deleting "
                    "the entire bridge)", target, port->bridge->name);
    }
    if (!with_iface) {
        port = find_port(ctx, target, must_exist);
    } else {
        port = find_port(ctx, target, false);
        if (!port) {
            struct vsctl_iface *iface = find_iface(ctx, target, false);
            if (iface) {
                port = iface->port;
            }
        }
        if (must_exist && !port) {
            vsctl_fatal("no port or interface named %s", target);
        }
    }
    if (!port) {
        return;
    }

    if (ctx->argc == 3) {
        struct vsctl_bridge *br = vsctl_find_bridge(ctx, ctx->argv[1], true);
        if (port->bridge != br) {
            if (port->bridge->parent == br) {
                vsctl_fatal("bridge %s does not have a port %s (although "
                            "its child bridge %s does)",
                            ctx->argv[1], ctx->argv[2], port->bridge->name);
            } else {
                vsctl_fatal("bridge %s does not have a port %s",
                            ctx->argv[1], ctx->argv[2]);
            }
        }
    }
    del_port(ctx, port);
}

/* Prerequisites. */

void
vsctl_need_bridge_cache(struct vsctl_context *ctx)
{
    vsctl_need(ctx, "Open_vSwitch", "bridges");
    vsctl_need(ctx, "Bridge", "name");
    vsctl_need(ctx, "Bridge", "ports");
    vsctl_need(ctx, "Port", "name");
    vsctl_need(ctx, "Port", "fake_bridge");
    vsctl_need(ctx, "Port", "tag");
    vsctl_need(ctx, "Port", "interfaces");
    vsctl_need(ctx, "Interface", "name");
}

static void
pre_cache_only(struct vsctl_context *ctx)
{
    vsctl_need_bridge_cache(ctx);
}

static void
pre_add_br(struct vsctl_context *ctx)
{
    vsctl_need_bridge_cache(ctx);
    vsctl_need(ctx, "Interface", "type");
}

static void
pre_external_id(struct vsctl_context *ctx)
{
    vsctl_need_bridge_cache(ctx);
    vsctl_need(ctx, "Bridge", "external_ids");
    vsctl_need(ctx, "Port", "external_ids");
}

/* What add-port, add-bond and add-bond-iface need besides the cache: what
 * ovs-vsctl checks in new interfaces once ovs-vswitchd applied the change
 * (see vsctl_expect_iface_setup()). */
static void
pre_new_ifaces(struct vsctl_context *ctx)
{
    vsctl_need_bridge_cache(ctx);
    vsctl_need(ctx, "Interface", "ofport");
    vsctl_need(ctx, "Interface", "error");
}

static void
pre_add_port(struct vsctl_context *ctx)
{
    pre_new_ifaces(ctx);
    vsctl_need_set_columns(ctx, VS_TABLE("Port"), &ctx->argv[3],
                           ctx->argc - 3);
}

static void
pre_add_bond(struct vsctl_context *ctx)
{
    int n_ifaces = add_bond_n_ifaces(ctx);

    pre_new_ifaces(ctx);
    vsctl_need(ctx, "Port", "bond_fake_iface");
    vsctl_need_set_columns(ctx, VS_TABLE("Port"), &ctx->argv[3 + n_ifaces],
                           ctx->argc - 3 - n_ifaces);
}

const struct vsctl_command_syntax vsctl_bridge_commands[] = {
    {"add-br", 1, 3, "NEW-BRIDGE [PARENT] [NEW-VLAN]", pre_add_br,
     cmd_add_br, NULL, "--may-exist", true},
    {"del-br", 1, 1, "BRIDGE", pre_cache_only, cmd_del_br, NULL,
     "--if-exists", true},
    {"list-br", 0, 0, "", pre_cache_only, cmd_list_br, NULL,
     "--real,--fake", false},
    {"br-exists", 1, 1, "BRIDGE", pre_cache_only, cmd_br_exists, NULL, "",
     false},
    {"br-to-vlan", 1, 1, "BRIDGE", pre_cache_only, cmd_br_to_vlan, NULL, "",
     false},
    {"br-to-parent", 1, 1, "BRIDGE", pre_cache_only, cmd_br_to_parent, NULL,
     "", false},
    {"br-set-external-id", 2, 3, "BRIDGE KEY [VALUE]", pre_external_id,
     cmd_br_set_external_id, NULL, "", true},
    {"br-get-external-id", 1, 2, "BRIDGE [KEY]", pre_external_id,
     cmd_br_get_external_id, NULL, "", false},
    {"list-ports", 1, 1, "BRIDGE", pre_cache_only, cmd_list_ports, NULL, "",
     false},
    {"add-port", 2, INT_MAX, "BRIDGE NEW-PORT [COLUMN[:KEY]=VALUE]...",
     pre_add_port, cmd_add_port, NULL, "--may-exist", true},
    {"add-bond", 4, INT_MAX, "BRIDGE BOND IFACE... [COLUMN[:KEY]=VALUE]...",
     pre_add_bond, cmd_add_bond, NULL, "--may-exist,--fake-iface", true},
    {"add-bond-iface", 2, 2, "BOND IFACE", pre_new_ifaces,
     cmd_add_bond_iface, NULL, "--may-exist", true},
    {"del-bond-iface", 1, 2, "[BOND] IFACE", pre_cache_only,
     cmd_del_bond_iface, NULL, "--if-exists", true},
    {"del-port", 1, 2, "[BRIDGE] PORT|IFACE", pre_cache_only, cmd_del_port,
     NULL, "--if-exists,--with-iface", true},
    {"port-to-br", 1, 1, "PORT", pre_cache_only, cmd_port_to_br, NULL, "",
     false},
    {"list-ifaces", 1, 1, "BRIDGE", pre_cache_only, cmd_list_ifaces, NULL,
     "", false},
    {"iface-to-br", 1, 1, "IFACE", pre_cache_only, cmd_iface_to_br, NULL,
     "", false},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, false},
};
