/* test-ovsdb-idl-vswitch: the generated Open_vSwitch IDL (ovsrec_*) in use,
 * the way ovs-vsctl uses it: adds a bridge with one port and interface to
 * the Open_vSwitch row (creating that row if the database has none), bumps
 * next_cfg, and prints what the replica then holds.
 *
 * Usage: test-ovsdb-idl-vswitch REMOTE BRIDGE
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ovsdb-idl.h"
#include "poll-loop.h"
#include "smap.h"
#include "util.h"
#include "vswitchd/vswitch-idl.h"

static void
print_replica(struct ovsdb_idl *idl)
{
    const struct ovsrec_open_vswitch *ovs;
    OVSREC_OPEN_VSWITCH_FOR_EACH (ovs, idl) {
        printf("Open_vSwitch: next_cfg=%"PRId64" bridges=%zu\n",
               ovs->next_cfg, ovs->n_bridges);
        for (size_t i = 0; i < ovs->n_bridges; i++) {
            const struct ovsrec_bridge *br = ovs->bridges[i];
            printf("  bridge %s: fail_mode=%s external_ids:owner=%s\n",
                   br->name, br->fail_mode ? br->fail_mode : "-",
                   smap_get_def(&br->external_ids, "owner", "-"));
            for (size_t j = 0; j < br->n_ports; j++) {
                const struct ovsrec_port *port = br->ports[j];
                printf("    port %s:", port->name);
                for (size_t k = 0; k < port->n_interfaces; k++) {
                    printf(" interface %s type=%s", port->interfaces[k]->name,
                           port->interfaces[k]->type);
                }
                putchar('\n');
            }
        }
    }
}

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    if (argc != 3) {
        ovs_fatal(0, "usage: %s REMOTE BRIDGE", argv[0]);
    }
    struct ovsdb_idl *idl = ovsdb_idl_create(argv[1], &ovsrec_idl_class,
                                             true, true);
    ovsdb_idl_wait_for_replica_block(idl);
    if (!ovsdb_idl_is_monitoring(idl)) {
        ovs_fatal(0, "%s: no replica", argv[1]);
    }

    enum ovsdb_idl_txn_status status;
    do {
        struct ovsdb_idl_txn *txn = ovsdb_idl_txn_create(idl);
        ovsdb_idl_txn_add_comment(txn, "test-ovsdb-idl-vswitch: add-br %s",
                                  argv[2]);
        const struct ovsrec_open_vswitch *ovs = ovsrec_open_vswitch_first(idl);
        if (!ovs) {
            ovs = ovsrec_open_vswitch_insert(txn);
        }
        struct ovsrec_interface *iface = ovsrec_interface_insert(txn);
        ovsrec_interface_set_name(iface, argv[2]);
        ovsrec_interface_set_type(iface, "internal");
        struct ovsrec_port *port = ovsrec_port_insert(txn);
        ovsrec_port_set_name(port, argv[2]);
        ovsrec_port_set_interfaces(port, &iface, 1);
        struct ovsrec_bridge *br = ovsrec_bridge_insert(txn);
        ovsrec_bridge_set_name(br, argv[2]);
        ovsrec_bridge_set_ports(br, &port, 1);
        ovsrec_bridge_set_fail_mode(br, "secure");
        ovsrec_bridge_update_external_ids_setkey(br, "owner", "test");
        ovsrec_open_vswitch_verify_bridges(ovs);
        ovsrec_open_vswitch_update_bridges_addvalue(ovs, br);
        ovsdb_idl_txn_increment(txn, &ovs->header_,
                                &ovsrec_open_vswitch_col_next_cfg, false);
        /* Rows made by the transaction are gone once it commits: keep the
         * uuid to ask for the server's. */
        struct uuid br_uuid = br->header_.uuid;
        status = ovsdb_idl_txn_commit_block(txn);
        printf("commit: %s", ovsdb_idl_txn_status_to_string(status));
        if (status == TXN_SUCCESS) {
            printf(", next_cfg=%"PRId64", bridge uuid known=%s",
                   ovsdb_idl_txn_get_increment_new_value(txn),
                   ovsdb_idl_txn_get_insert_uuid(txn, &br_uuid)
                   ? "yes" : "no");
        } else if (status == TXN_ERROR) {
            printf(", %s", ovsdb_idl_txn_get_error(txn));
        }
        putchar('\n');
        ovsdb_idl_txn_destroy(txn);
    } while (status == TXN_TRY_AGAIN);

    print_replica(idl);
    ovsdb_idl_destroy(idl);
    poll_loop_destroy_self();
    return status == TXN_SUCCESS ? 0 : 1;
}
