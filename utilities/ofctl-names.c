/* ofctl-names: the switch's port and table names, for --names.
 *
 * 3.1 accepts port names in flows (in_port=p1, output:p2) unless
 * --no-names, and prints names with --names (or on a terminal).  The
 * names come from the switch, each map over a connection of its own:
 * ports from the features reply (OpenFlow 1.0-1.2) or the port
 * descriptions (1.3+), tables from the table statistics (1.0-1.2) or the
 * table features (1.3+).  Each map is read at most once per switch name
 * and process, and kept until exit (ofctl_names_destroy() frees them).
 * Doing this exactly when 3.1 does also keeps transaction ids, which error
 * replies print, the same. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "list.h"
#include "ofctl.h"
#include "ofp-msgs.h"
#include "ofp-phy-port.h"
#include "ofp-port.h"
#include "ofp-switch.h"
#include "ofp-table.h"
#include "ofpbuf.h"
#include "shash.h"
#include "util.h"
#include "vconn.h"

/* Maps by switch name. */
static struct shash port_maps = SHASH_INITIALIZER(&port_maps);
static struct shash table_maps = SHASH_INITIALIZER(&table_maps);

void
ofctl_read_ports(const char *switch_name,
                 void (*cb)(const struct ofputil_phy_port *, void *aux),
                 void *aux)
{
    struct vconn *vconn;
    ofctl_open_vconn(switch_name, "mgmt", &vconn);
    enum ofp_version version = vconn_get_version(vconn);
    struct ofputil_phy_port pp;

    if (version < OFP13_VERSION) {
        struct ofpbuf *reply = ofctl_transact(
            vconn, ofputil_encode_features_request(version));
        struct ofpbuf b;
        ofpbuf_use_const(&b, reply->data, reply->size);
        struct ofputil_switch_features features;
        if (!ofputil_pull_switch_features(&b, &features)) {
            while (!ofputil_pull_phy_port(version, &b, &pp)) {
                cb(&pp, aux);
            }
        }
        ofpbuf_delete(reply);
    } else {
        struct ovs_list replies;
        ovs_list_init(&replies);
        ofctl_run(vconn_dump_multipart(
                      vconn,
                      ofputil_encode_port_desc_stats_request(version,
                                                             OFPP_NONE),
                      &replies),
                  "talking to %s", vconn_get_name(vconn));
        struct ofpbuf *reply;
        LIST_FOR_EACH (reply, list_node, &replies) {
            struct ofpbuf b;
            ofpbuf_use_const(&b, reply->data, reply->size);
            enum ofpraw raw;
            if (ofpraw_pull(&raw, &b)
                || ofptype_from_ofpraw(raw) != OFPTYPE_PORT_DESC_STATS_REPLY) {
                continue;
            }
            while (!ofputil_pull_port_desc_stats_reply(version, &b, &pp)) {
                cb(&pp, aux);
            }
        }
        ofpbuf_list_delete(&replies);
    }
    vconn_close(vconn);
}

static void
put_port(const struct ofputil_phy_port *pp, void *map)
{
    ofputil_port_map_put(map, pp->port_no, pp->name);
}

static struct ofputil_port_map *
read_port_map(const char *switch_name)
{
    struct ofputil_port_map *map = xmalloc(sizeof *map);
    ofputil_port_map_init(map);
    ofctl_read_ports(switch_name, put_port, map);
    return map;
}

static void
put_table(struct ofputil_table_map *map,
          const struct ofputil_table_features *tf)
{
    if (tf->name[0]) {
        ofputil_table_map_put(map, tf->table_id, tf->name);
    }
}

static struct ofputil_table_map *
read_table_map(const char *switch_name)
{
    struct ofputil_table_map *map = xmalloc(sizeof *map);
    ofputil_table_map_init(map);

    struct vconn *vconn;
    ofctl_open_vconn(switch_name, "mgmt", &vconn);
    enum ofp_version version = vconn_get_version(vconn);
    bool features = version >= OFP13_VERSION;

    struct ovs_list replies;
    ovs_list_init(&replies);
    ofctl_run(vconn_dump_multipart(
                  vconn,
                  (features
                   ? ofputil_encode_table_features_request(version)
                   : ofputil_encode_table_stats_request(version)),
                  &replies),
              "talking to %s", vconn_get_name(vconn));
    struct ofpbuf *reply;
    LIST_FOR_EACH (reply, list_node, &replies) {
        const struct ofp_header *oh = reply->data;
        if (oh->type == OFPT_ERROR) {
            continue;
        }
        struct ofpbuf b;
        ofpbuf_use_const(&b, reply->data, reply->size);
        for (;;) {
            struct ofputil_table_features tf;
            struct ofputil_table_stats ts;
            memset(&tf, 0, sizeof tf);
            int retval = (features
                          ? ofputil_decode_table_features(&b, &tf, true)
                          : ofputil_decode_table_stats_reply(&b, &ts, &tf));
            if (retval) {
                break;
            }
            if (!features) {
                tf.table_id = ts.table_id;
            }
            put_table(map, &tf);
        }
    }
    ofpbuf_list_delete(&replies);
    vconn_close(vconn);
    return map;
}

static const struct ofputil_port_map *
ofctl_get_port_map(const char *switch_name)
{
    struct ofputil_port_map *map = shash_find_data(&port_maps, switch_name);
    if (!map) {
        map = read_port_map(switch_name);
        shash_add(&port_maps, switch_name, map);
    }
    return map;
}

static const struct ofputil_table_map *
ofctl_get_table_map(const char *switch_name)
{
    struct ofputil_table_map *map = shash_find_data(&table_maps,
                                                    switch_name);
    if (!map) {
        map = read_table_map(switch_name);
        shash_add(&table_maps, switch_name, map);
    }
    return map;
}

const struct ofputil_port_map *
ofctl_ports_to_accept(const char *switch_name)
{
    return ofctl_opts.use_names ? ofctl_get_port_map(switch_name) : NULL;
}

const struct ofputil_table_map *
ofctl_tables_to_accept(const char *switch_name)
{
    return ofctl_opts.use_names ? ofctl_get_table_map(switch_name) : NULL;
}

bool
ofctl_should_show_names(void)
{
    return (ofctl_opts.use_names == 1
            || (ofctl_opts.use_names < 0 && isatty(STDOUT_FILENO)));
}

const struct ofputil_port_map *
ofctl_ports_to_show(const char *switch_name)
{
    return ofctl_should_show_names() ? ofctl_get_port_map(switch_name) : NULL;
}

const struct ofputil_table_map *
ofctl_tables_to_show(const char *switch_name)
{
    return (ofctl_should_show_names()
            ? ofctl_get_table_map(switch_name) : NULL);
}

void
ofctl_names_destroy(void)
{
    struct shash_node *node;
    SHASH_FOR_EACH (node, &port_maps) {
        ofputil_port_map_destroy(node->data);
        free(node->data);
    }
    shash_destroy(&port_maps);
    SHASH_FOR_EACH (node, &table_maps) {
        ofputil_table_map_destroy(node->data);
        free(node->data);
    }
    shash_destroy(&table_maps);
}
