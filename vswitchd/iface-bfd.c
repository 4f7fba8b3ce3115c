/* iface-bfd: the bridge's binding of BFD (lib/bfd.h) to the database.
 *
 * The Interface `bfd` column configures a session ("enable" decides whether
 * there is one at all); `bfd_status` reports it.  The bridge calls these
 * ops on its main thread only (iface-protocol.h), creating one session per
 * interface that wants one and writing the status of the sessions that
 * queued themselves as changed. */
#include <config.h>

#include "bfd.h"
#include "iface-protocol.h"
#include "smap.h"
#include "vswitchd/vswitch-idl.h"

static const struct ovsdb_idl_column *const bfd_config_columns[] = {
    &ovsrec_interface_col_bfd,
    NULL,
};

static const struct ovsdb_idl_column *const bfd_status_columns[] = {
    &ovsrec_interface_col_bfd_status,
    NULL,
};

static bool
iface_bfd_wanted(const struct ovsrec_interface *cfg)
{
    return smap_get_bool(&cfg->bfd, "enable", false);
}

static struct port_protocol *
iface_bfd_create(const struct ovsrec_interface *cfg, struct netdev *netdev,
                 void *owner)
{
    return bfd_protocol(bfd_create(cfg->name, &cfg->bfd, netdev, owner));
}

static void
iface_bfd_reconfigure(struct port_protocol *p,
                      const struct ovsrec_interface *cfg)
{
    bfd_reconfigure(bfd_from_protocol(p), &cfg->bfd);
}

static void
iface_bfd_destroy(struct port_protocol *p)
{
    bfd_destroy(bfd_from_protocol(p));
}

/* Writes only a status that differs from the column, so that a session
 * that queued itself for a change the database already shows (or one
 * invisible there, such as a remote interval) costs no transaction. */
static void
iface_bfd_write_status(const struct port_protocol *p,
                       const struct ovsrec_interface *cfg)
{
    struct smap status = SMAP_INITIALIZER(&status);
    if (p) {
        bfd_get_status(bfd_from_protocol(p), &status);
    }
    if (!smap_equals(&status, &cfg->bfd_status)) {
        ovsrec_interface_set_bfd_status(cfg, &status);
    }
    smap_destroy(&status);
}

const struct iface_protocol_ops bfd_iface_protocol = {
    .name = "bfd",
    .config_columns = bfd_config_columns,
    .status_columns = bfd_status_columns,
    .init = bfd_init,
    .wanted = iface_bfd_wanted,
    .create = iface_bfd_create,
    .reconfigure = iface_bfd_reconfigure,
    .destroy = iface_bfd_destroy,
    .write_status = iface_bfd_write_status,
};
