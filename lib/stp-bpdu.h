/* stp-bpdu: the wire format of 802.1D-1998 BPDUs (clause 9) and of the
 * 802.3/LLC frames that carry them.
 *
 * Pure functions over caller-supplied buffers: any thread may call them.
 * stp_compose_frame() returns a packet the caller owns; nothing else
 * allocates.  lib/stp.c is the main user; the unit tests and the fuzz
 * target drive these functions directly.
 *
 * Times in a BPDU (message age, max age, hello time, forward delay) are in
 * the wire's unit, 1/256 s, and are kept in that unit here. */
#ifndef STP_BPDU_H
#define STP_BPDU_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "packets.h"

struct dp_packet;
struct flow;
struct flow_wildcards;

#define STP_PROTOCOL_ID 0x0000
#define STP_PROTOCOL_VERSION 0

#define STP_TYPE_CONFIG 0x00
#define STP_TYPE_TCN 0x80

/* Configuration BPDU flags. */
#define STP_FLAG_TC 0x01            /* Topology change. */
#define STP_FLAG_TC_ACK 0x80        /* Topology change acknowledgement. */

#define STP_CONFIG_BPDU_LEN 35
#define STP_TCN_BPDU_LEN 4

/* 802.3 length field (2 bytes) sits where the Ethertype would, then LLC. */
#define STP_LLC_DSAP 0x42
#define STP_LLC_SSAP 0x42
#define STP_LLC_CNTL 0x03
#define STP_LLC_LEN 3
#define STP_FRAME_HEADER_LEN (ETH_HEADER_LEN + STP_LLC_LEN)

/* A decoded BPDU, host byte order. */
struct stp_bpdu {
    uint8_t type;               /* STP_TYPE_CONFIG or STP_TYPE_TCN. */
    uint8_t version;            /* As received (we send 0). */
    /* The rest only for STP_TYPE_CONFIG. */
    uint8_t flags;              /* STP_FLAG_*. */
    uint64_t root_id;
    uint32_t root_path_cost;
    uint64_t bridge_id;
    uint16_t port_id;
    uint16_t message_age;       /* 1/256 s. */
    uint16_t max_age;
    uint16_t hello_time;
    uint16_t forward_delay;
};

/* Why a BPDU was refused. */
enum stp_bpdu_error {
    STP_BPDU_OK,
    STP_BPDU_RUNT,              /* Shorter than its type needs. */
    STP_BPDU_BAD_PROTOCOL,      /* Protocol identifier not 0. */
    STP_BPDU_BAD_TYPE,          /* Neither config nor TCN (RST BPDUs too:
                                 * an 802.1D-1998 bridge ignores them). */
    STP_BPDU_BAD_AGE            /* Config: message age not below max age. */
};

/* Human-readable reason, for log messages. */
const char *stp_bpdu_error_string(enum stp_bpdu_error);

/* Decodes the bare BPDU in DATA (SIZE bytes) into *BPDU.  Octets past the
 * BPDU's own length are ignored and so is the protocol version: 802.1D
 * (9.3.4) decodes any version by type so that later versions interoperate.
 */
enum stp_bpdu_error stp_bpdu_decode(const void *data, size_t size,
                                    struct stp_bpdu *bpdu);
/* Encodes BPDU into BUF, which has room for STP_CONFIG_BPDU_LEN bytes;
 * returns the length written (35 or 4, by BPDU->type). */
size_t stp_bpdu_encode(const struct stp_bpdu *bpdu, uint8_t *buf);

/* 01:80:c2:00:00:00, the bridge group address BPDUs go to. */
extern const struct eth_addr stp_group_address;

/* Returns a new packet (the caller frees it with dp_packet_delete()) that
 * carries BPDU (LEN bytes) from SRC to the group address in an 802.3/LLC
 * frame padded to the Ethernet minimum. */
struct dp_packet *stp_compose_frame(const void *bpdu, size_t len,
                                    struct eth_addr src);
/* Finds the BPDU inside FRAME (SIZE bytes): stores it in *BPDU and
 * *BPDU_LEN and returns true, or returns false if FRAME is not a
 * well-formed 802.3 frame with LLC 0x42 0x42 0x03 (too short, an
 * Ethertype instead of a length, a length field that runs past the frame,
 * wrong LLC).  Padding after the length field's end is left out. */
bool stp_parse_frame(const void *frame, size_t size,
                     const uint8_t **bpdu, size_t *bpdu_len);
/* Whether FLOW is an STP frame: to the bridge group address, with an
 * 802.3 length instead of an Ethertype.  Marks in WC (if nonnull) the
 * fields it looked at. */
bool stp_should_process_flow(const struct flow *, struct flow_wildcards *);

#endif /* stp-bpdu.h */
