/* rstp-bpdu: the wire format of spanning tree BPDUs (802.1D-2004 clause 9:
 * Configuration, Topology Change Notification and RST BPDUs) and of the
 * 802.3/LLC frame that carries them to 01:80:c2:00:00:00.
 *
 * Pure functions on caller buffers: no state, no locks, any thread.
 * rstp_bpdu_decode() validates as 9.3.4 asks (protocol identifier, type,
 * length; a version 2 type 2 BPDU is an RST BPDU, an RST BPDU from an
 * older version is not) and never reads past LEN, so it is safe on
 * arbitrary bytes (tests/fuzz/fuzz-rstp-bpdu.c).  Nothing here allocates
 * except rstp_compose_frame(), which appends to the caller's packet. */
#ifndef RSTP_BPDU_H
#define RSTP_BPDU_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "packets.h"

struct dp_packet;
struct flow;
struct flow_wildcards;

/* BPDU types (9.3, octet 4). */
enum rstp_bpdu_type {
    RSTP_BPDU_CONFIG = 0x00,
    RSTP_BPDU_TCN = 0x80,
    RSTP_BPDU_RST = 0x02,
};

/* Flags (9.3.3, octet 5).  A Configuration BPDU uses only TC and TC_ACK. */
#define RSTP_FLAG_TC           0x01
#define RSTP_FLAG_PROPOSAL     0x02
#define RSTP_FLAG_ROLE_MASK    0x0c
#define RSTP_FLAG_ROLE_SHIFT   2
#define RSTP_FLAG_LEARNING     0x10
#define RSTP_FLAG_FORWARDING   0x20
#define RSTP_FLAG_AGREEMENT    0x40
#define RSTP_FLAG_TC_ACK       0x80

/* The port role encoded in an RST BPDU's flags. */
enum rstp_bpdu_role {
    RSTP_BPDU_ROLE_UNKNOWN = 0,
    RSTP_BPDU_ROLE_ALT_BACKUP = 1,
    RSTP_BPDU_ROLE_ROOT = 2,
    RSTP_BPDU_ROLE_DESIGNATED = 3,
};

/* Sizes on the wire. */
#define RSTP_TCN_BPDU_LEN 4
#define RSTP_CONFIG_BPDU_LEN 35
#define RSTP_RST_BPDU_LEN 36
#define RSTP_BPDU_MAX_LEN RSTP_RST_BPDU_LEN

/* A decoded BPDU, host byte order.  Times are whole seconds (the wire
 * carries 1/256 s; decoding rounds to the nearest second, 17.19.21's
 * "rounded to the nearest whole second").  For a TCN BPDU only type and
 * version mean anything. */
struct rstp_bpdu {
    enum rstp_bpdu_type type;
    uint8_t version;
    uint8_t flags;
    uint64_t root_id;
    uint32_t root_path_cost;
    uint64_t bridge_id;
    uint16_t port_id;
    uint16_t message_age;
    uint16_t max_age;
    uint16_t hello_time;
    uint16_t forward_delay;
};

/* Encodes BPDU into BUF (at least RSTP_BPDU_MAX_LEN bytes) and returns its
 * length: 4 for TCN, 35 for Configuration, 36 for RST BPDUs. */
size_t rstp_bpdu_encode(const struct rstp_bpdu *, uint8_t *buf);

/* Decodes the LEN bytes at DATA into *BPDU.  Returns NULL if they are a
 * valid BPDU, otherwise a static string saying why not. */
const char *rstp_bpdu_decode(const void *data, size_t len,
                             struct rstp_bpdu *bpdu);

/* The role an RST BPDU's flags carry. */
static inline enum rstp_bpdu_role
rstp_bpdu_role(const struct rstp_bpdu *bpdu)
{
    return (bpdu->flags & RSTP_FLAG_ROLE_MASK) >> RSTP_FLAG_ROLE_SHIFT;
}

/* The frames. */

extern const struct eth_addr rstp_bpdu_dst;     /* 01:80:c2:00:00:00 */
#define RSTP_LLC_SAP 0x42
#define RSTP_LLC_CONTROL 0x03                    /* UI */
#define RSTP_FRAME_HEADER_LEN (14 + 3)           /* 802.3 + LLC. */

/* Appends to PACKET (empty) the 802.3 frame from PORT_MAC to
 * 01:80:c2:00:00:00 carrying the LEN bytes of BPDU behind an LLC header,
 * padded to the 60-byte Ethernet minimum. */
void rstp_compose_frame(struct dp_packet *packet, struct eth_addr port_mac,
                        const void *bpdu, size_t len);

/* Finds the BPDU in the LEN bytes of FRAME (an 802.3/LLC frame as composed
 * above).  Returns the BPDU's bytes and stores their number (the length
 * field's count less the LLC header) in *BPDU_LEN, or NULL if FRAME is not
 * a spanning tree frame. */
const void *rstp_frame_bpdu(const void *frame, size_t len, size_t *bpdu_len);

/* Whether FLOW is a spanning tree frame (its destination is the bridge
 * group address).  Sets in WC (if nonnull) the bits it looked at. */
bool rstp_flow_is_bpdu(const struct flow *, struct flow_wildcards *wc);

#endif /* rstp-bpdu.h */
