/* ofport-patch: see ofport-patch.h. */
#include <config.h>
#include "ofport-patch.h"

#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "hmap.h"
#include "netdev.h"
#include "netdev-patch.h"
#include "ofproto-private.h"
#include "seq.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofport_patch);

/* Every patch port of every bridge, by name (port names are interface
 * names, unique in the switch). */
static struct hmap patch_ports = HMAP_INITIALIZER(&patch_ports);

static struct ofport *
patch_port_lookup(const char *name)
{
    struct ofport *port;
    HMAP_FOR_EACH_WITH_HASH (port, patch_node, hash_string(name, 0),
                             &patch_ports) {
        if (!strcmp(port->name, name)) {
            return port;
        }
    }
    return NULL;
}

/* Both ends' devices report a change, so that the bridge rewrites their
 * Interface status (error column), and the datapath flows that crossed or
 * would cross are translated again. */
static void
pairing_changed(struct ofport *port)
{
    if (port->netdev) {
        netdev_patch_status_changed(port->netdev);
    }
    seq_change(port->ofproto->backer->reval_seq);
}

static void
unpair(struct ofport *port)
{
    struct ofport *peer = port->peer;
    if (!peer) {
        return;
    }
    ovs_rwlock_wrlock(&xlate_rwlock);
    peer->peer = NULL;
    port->peer = NULL;
    ovs_rwlock_unlock(&xlate_rwlock);
    VLOG_DBG("%s: patch port no longer paired with %s", port->name,
             peer->name);
    pairing_changed(peer);
}

/* Pairs PORT with the port its peer option names, if that one names PORT
 * back and shares its datapath. */
static void
pair(struct ofport *port)
{
    unpair(port);
    free(port->patch_peer);
    const char *peer_name = netdev_patch_peer(port->netdev);
    port->patch_peer = peer_name ? xstrdup(peer_name) : NULL;

    struct ofport *peer = peer_name ? patch_port_lookup(peer_name) : NULL;
    if (peer && peer != port
        && peer->ofproto->backer == port->ofproto->backer
        && peer->patch_peer && !strcmp(peer->patch_peer, port->name)) {
        unpair(peer);
        ovs_rwlock_wrlock(&xlate_rwlock);
        port->peer = peer;
        peer->peer = port;
        ovs_rwlock_unlock(&xlate_rwlock);
        VLOG_DBG("%s: patch port paired with %s", port->name, peer->name);
        pairing_changed(peer);
    }
    pairing_changed(port);
}

void
ofport_patch_added(struct ofport *port)
{
    if (!netdev_is_patch(port->netdev)) {
        return;
    }
    port->is_patch = true;
    hmap_insert(&patch_ports, &port->patch_node, hash_string(port->name, 0));
    pair(port);
}

void
ofport_patch_removed(struct ofport *port)
{
    if (!port->is_patch) {
        return;
    }
    unpair(port);
    hmap_remove(&patch_ports, &port->patch_node);
    free(port->patch_peer);
    port->patch_peer = NULL;
    port->is_patch = false;
}

void
ofport_patch_changed(struct ofport *port)
{
    if (!port->is_patch) {
        return;
    }
    const char *peer_name = netdev_patch_peer(port->netdev);
    if (peer_name && port->patch_peer
        && !strcmp(peer_name, port->patch_peer)) {
        return;
    }
    pair(port);
}

char *
ofport_patch_error(const struct ofport *port)
{
    if (!port->is_patch || port->peer || !port->patch_peer) {
        return NULL;
    }
    return xasprintf("No usable peer '%s' exists in '%s' datapath.",
                     port->patch_peer, port->ofproto->backer->type);
}

void
ofport_patch_count(const struct ofport *from, const struct ofport *to,
                   uint64_t n_packets, uint64_t n_bytes)
{
    if (from->netdev && to->netdev) {
        netdev_patch_count_crossing(from->netdev, to->netdev, n_packets,
                                    n_bytes);
    }
}
