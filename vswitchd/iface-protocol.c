/* iface-protocol: the table of bindings (iface-protocol.h). */
#include <config.h>
#include "iface-protocol.h"

#include <stddef.h>

/* One line per protocol; at most IFACE_MAX_PROTOCOLS. */
const struct iface_protocol_ops *const iface_protocols[] = {
    &bfd_iface_protocol,
    &cfm_iface_protocol,
    NULL
};
