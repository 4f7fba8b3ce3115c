/* pin-cookie: what a packet sent to the controller carries through the
 * datapath.
 *
 * Translation (xlate.c) sends a packet to the controller with a
 * "userspace" datapath action; its userdata, the cookie, says everything
 * the packet_in will report that the packet itself does not: the bridge,
 * the OpenFlow input port, reason, table, rule cookie, max_len, the
 * controller id the action names, the pipeline fields as the actions left
 * them (tunnel, metadata, registers, pkt_mark, and the packet type of a
 * packet that is not Ethernet: what a packet_in's metadata match
 * reports) and the controller action's userdata.  The
 * handler thread that receives the upcall (upcall.c) decodes it into an
 * ofproto packet_in event.
 *
 * Layout (host byte order: it never leaves this process): a fixed header,
 * then only the pipeline fields that are nonzero (a bitmap in the header
 * says which), then the userdata.  So the usual cookie is small, and it
 * fits the datapath's upcall slot (PIN_COOKIE_MAX bytes) unless the
 * userdata is long.
 *
 * Threads: pure functions. */
#ifndef OFPROTO_PIN_COOKIE_H
#define OFPROTO_PIN_COOKIE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dpif-channel.h"
#include "flow.h"

struct ofpbuf;

/* The largest cookie an upcall carries. */
#define PIN_COOKIE_MAX DPIF_CHANNEL_USERDATA_MAX

struct pin_cookie {
    uint32_t ofproto_id;        /* struct ofproto's 'id'. */
    uint32_t in_port;           /* OpenFlow port number. */
    uint16_t max_len;           /* UINT16_MAX: the connection decides. */
    uint16_t controller_id;
    uint8_t reason;             /* OFPR_*, OFPR_IMPLICIT_MISS for a miss. */
    uint8_t table_id;
    ovs_be64 cookie;            /* The rule's; all ones for none. */
    const void *userdata;       /* controller(userdata=...), or NULL. */
    size_t userdata_len;
};

/* Appends to B the cookie for PC and the pipeline fields of FLOW.  Returns
 * false, appending nothing, if it would exceed PIN_COOKIE_MAX bytes. */
bool pin_cookie_encode(const struct pin_cookie *pc, const struct flow *flow,
                       struct ofpbuf *b);

/* Decodes the SIZE bytes at DATA into *PC (whose userdata then points into
 * DATA) and the pipeline fields of *FLOW (the rest of *FLOW zeroed, and
 * its in_port set to PC->in_port).  False if DATA is no cookie. */
bool pin_cookie_decode(const void *data, size_t size, struct pin_cookie *pc,
                       struct flow *flow);

#endif /* ofproto/pin-cookie.h */
