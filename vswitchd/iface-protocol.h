/* iface-protocol: how the bridge turns an Interface row into per-port
 * protocol instances (BFD, CFM, ...; lib/port-protocol.h) and writes their
 * status back.
 *
 * Each protocol has one binding, a struct iface_protocol_ops in its own
 * file (vswitchd/iface-bfd.c, ...), listed in iface_protocols[].  The
 * bridge knows no protocol by name: for every interface whose row changed
 * it asks each binding whether the row wants the protocol, creates,
 * reconfigures or destroys the instance accordingly, attaches it to the
 * interface's OpenFlow port while it has one (ofproto/monitor.h), and
 * calls write_status() when the instance reported a change
 * (port_protocol_changed()) or the interface's status is written anyway.
 *
 * Everything here runs on the main thread.  An instance belongs to the
 * bridge's interface; the bridge detaches it from ofproto before calling
 * destroy(). */
#ifndef VSWITCHD_IFACE_PROTOCOL_H
#define VSWITCHD_IFACE_PROTOCOL_H 1

#include <stdbool.h>

struct netdev;
struct ovsdb_idl_column;
struct ovsrec_interface;
struct port_protocol;

struct iface_protocol_ops {
    const char *name;                           /* "bfd" */
    /* Interface columns it reads (followed for reconfiguration) and
     * writes (never alerting us); NULL-terminated. */
    const struct ovsdb_idl_column *const *config_columns;
    const struct ovsdb_idl_column *const *status_columns;
    /* Called once at start-up (registers the protocol's unixctl
     * commands, so that they answer before any instance exists); may be
     * NULL. */
    void (*init)(void);
    /* Whether CFG enables the protocol. */
    bool (*wanted)(const struct ovsrec_interface *cfg);
    /* An instance for interface CFG, whose device NETDEV outlives it,
     * with OWNER as its port_protocol owner.  A bad setting is logged and
     * its default used, as 3.1 does. */
    struct port_protocol *(*create)(const struct ovsrec_interface *cfg,
                                    struct netdev *netdev, void *owner);
    /* CFG changed and still wants the protocol. */
    void (*reconfigure)(struct port_protocol *,
                        const struct ovsrec_interface *cfg);
    /* Frees a detached instance. */
    void (*destroy)(struct port_protocol *);
    /* Writes P's status into CFG's status columns, or with P NULL clears
     * them; writes only what differs from what CFG holds. */
    void (*write_status)(const struct port_protocol *p,
                         const struct ovsrec_interface *cfg);
};

/* The bindings, NULL-terminated (iface-protocol.c). */
#define IFACE_MAX_PROTOCOLS 6
extern const struct iface_protocol_ops *const iface_protocols[];

/* The bindings, one line each. */
extern const struct iface_protocol_ops bfd_iface_protocol;   /* iface-bfd.c */
extern const struct iface_protocol_ops cfm_iface_protocol;   /* iface-cfm.c */

#endif /* vswitchd/iface-protocol.h */
