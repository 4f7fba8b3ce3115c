/* lacp-pdu: the bytes of the Link Aggregation Control Protocol (IEEE
 * 802.1AX, formerly 802.3ad clause 43): reading and writing LACPDUs and
 * the Ethernet frames that carry them, and printing the state bits with
 * the words Open vSwitch 3.1's lacp/show uses.
 *
 * An LACPDU is a "slow protocol" frame (Ethernet type 0x8809) sent to the
 * group address 01:80:c2:00:00:02, which bridges never forward.  After the
 * Ethernet header come 110 bytes: subtype 1 (LACP; 2 is the marker
 * protocol), version 1, then three TLVs: the actor's information (type 1,
 * length 20), the partner's as the actor sees it (type 2, length 20) and
 * the collector's (type 3, length 16), then zero padding.  The actor and
 * partner TLVs each carry a system priority and ID, an aggregation key,
 * a port priority and number, and a state octet (enum lacp_state_bits).
 *
 * This module is pure functions over caller-owned buffers: any thread may
 * call it, and it allocates nothing (but what the caller's ds grows). */
#ifndef LACP_PDU_H
#define LACP_PDU_H 1

#include <stddef.h>
#include <stdint.h>
#include "packets.h"

struct ds;

#define ETH_TYPE_SLOW_PROTOCOLS 0x8809
#define LACP_PDU_LEN 110                        /* After the Ethernet header. */
#define LACP_FRAME_LEN (ETH_HEADER_LEN + LACP_PDU_LEN)  /* Untagged. */

/* Where LACPDUs go: the slow protocols' group address. */
extern const struct eth_addr lacp_eth_dst;

/* The state octet of an actor or partner TLV. */
enum lacp_state_bits {
    LACP_STATE_ACTIVITY = 0x01,      /* Active (sends unasked) or passive. */
    LACP_STATE_TIMEOUT = 0x02,       /* Wants fast (1 s) transmissions. */
    LACP_STATE_AGGREGATION = 0x04,   /* The link may be aggregated. */
    LACP_STATE_SYNC = 0x08,          /* Attached to the right aggregator. */
    LACP_STATE_COLLECTING = 0x10,    /* Receives on the link. */
    LACP_STATE_DISTRIBUTING = 0x20,  /* Sends on the link. */
    LACP_STATE_DEFAULTED = 0x40,     /* Uses default partner information. */
    LACP_STATE_EXPIRED = 0x80,       /* Its partner information expired. */
};

/* One actor or partner TLV, in host byte order. */
struct lacp_info {
    uint16_t sys_priority;
    struct eth_addr sys_id;
    uint16_t key;
    uint16_t port_priority;
    uint16_t port_id;
    uint8_t state;              /* enum lacp_state_bits. */
};

bool lacp_info_equal(const struct lacp_info *, const struct lacp_info *);

/* What lacp_pdu_parse() found. */
enum lacp_pdu_kind {
    LACP_PDU_BAD,               /* Not a well-formed LACPDU or marker PDU. */
    LACP_PDU_LACP,              /* An LACPDU: *ACTOR and *PARTNER are set. */
    LACP_PDU_MARKER,            /* A marker protocol PDU (not answered). */
};

/* Parses the Ethernet frame FRAME of LEN bytes (any 802.1Q/802.1ad tags
 * are skipped).  A frame that is too short for a whole PDU, not of type
 * 0x8809, or whose TLV headers are not the LACPDU's is LACP_PDU_BAD.
 * ACTOR and PARTNER are written only for LACP_PDU_LACP. */
enum lacp_pdu_kind lacp_pdu_parse(const void *frame, size_t len,
                                  struct lacp_info *actor,
                                  struct lacp_info *partner);

/* Writes the LACPDU (the part after the Ethernet header) carrying ACTOR
 * and PARTNER into PDU. */
void lacp_pdu_write(uint8_t pdu[LACP_PDU_LEN], const struct lacp_info *actor,
                    const struct lacp_info *partner);

/* Writes a whole LACPDU frame into FRAME: to lacp_eth_dst, from SRC (the
 * sending member's own address), type 0x8809, then the LACPDU. */
void lacp_compose_pdu(uint8_t frame[LACP_FRAME_LEN], struct eth_addr src,
                      const struct lacp_info *actor,
                      const struct lacp_info *partner);

/* Appends STATE's set bits as 3.1's lacp/show prints them, each preceded
 * by a space: " activity timeout aggregation synchronized collecting
 * distributing defaulted expired" (in that order). */
void lacp_state_format(struct ds *, uint8_t state);

#endif /* lacp-pdu.h */
