/* stp-bpdu: 802.1D BPDU encoding and decoding, 802.3/LLC framing. */
#include <config.h>

#include "stp-bpdu.h"

#include <string.h>
#include "be-bytes.h"
#include "dp-packet.h"
#include "flow.h"

/* Octet offsets in a configuration BPDU (802.1D-1998 9.3.1). */
enum {
    OFS_PROTOCOL = 0,           /* 2 octets. */
    OFS_VERSION = 2,
    OFS_TYPE = 3,
    OFS_FLAGS = 4,
    OFS_ROOT_ID = 5,            /* 8 octets. */
    OFS_ROOT_COST = 13,         /* 4 octets. */
    OFS_BRIDGE_ID = 17,         /* 8 octets. */
    OFS_PORT_ID = 25,           /* 2 octets each from here on. */
    OFS_MESSAGE_AGE = 27,
    OFS_MAX_AGE = 29,
    OFS_HELLO_TIME = 31,
    OFS_FORWARD_DELAY = 33
};

const struct eth_addr stp_group_address = {
    { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00 }
};

const char *
stp_bpdu_error_string(enum stp_bpdu_error error)
{
    switch (error) {
    case STP_BPDU_OK:
        return "no error";
    case STP_BPDU_RUNT:
        return "too short for its type";
    case STP_BPDU_BAD_PROTOCOL:
        return "unexpected protocol identifier";
    case STP_BPDU_BAD_TYPE:
        return "unexpected BPDU type";
    case STP_BPDU_BAD_AGE:
        return "message age not below max age";
    }
    return "unknown error";
}

enum stp_bpdu_error
stp_bpdu_decode(const void *data_, size_t size, struct stp_bpdu *bpdu)
{
    const uint8_t *data = data_;

    memset(bpdu, 0, sizeof *bpdu);
    if (size < STP_TCN_BPDU_LEN) {
        return STP_BPDU_RUNT;
    }
    if (get_be16(data + OFS_PROTOCOL) != STP_PROTOCOL_ID) {
        return STP_BPDU_BAD_PROTOCOL;
    }
    bpdu->version = data[OFS_VERSION];
    bpdu->type = data[OFS_TYPE];
    if (bpdu->type == STP_TYPE_TCN) {
        return STP_BPDU_OK;
    }
    if (bpdu->type != STP_TYPE_CONFIG) {
        return STP_BPDU_BAD_TYPE;
    }
    if (size < STP_CONFIG_BPDU_LEN) {
        return STP_BPDU_RUNT;
    }
    bpdu->flags = data[OFS_FLAGS];
    bpdu->root_id = get_be64(data + OFS_ROOT_ID);
    bpdu->root_path_cost = get_be32(data + OFS_ROOT_COST);
    bpdu->bridge_id = get_be64(data + OFS_BRIDGE_ID);
    bpdu->port_id = get_be16(data + OFS_PORT_ID);
    bpdu->message_age = get_be16(data + OFS_MESSAGE_AGE);
    bpdu->max_age = get_be16(data + OFS_MAX_AGE);
    bpdu->hello_time = get_be16(data + OFS_HELLO_TIME);
    bpdu->forward_delay = get_be16(data + OFS_FORWARD_DELAY);
    /* Information already as old as its own lifetime is worthless, and
     * recording it would start a message age timer that has expired. */
    if (bpdu->message_age >= bpdu->max_age) {
        return STP_BPDU_BAD_AGE;
    }
    return STP_BPDU_OK;
}

size_t
stp_bpdu_encode(const struct stp_bpdu *bpdu, uint8_t *buf)
{
    put_be16(buf + OFS_PROTOCOL, STP_PROTOCOL_ID);
    buf[OFS_VERSION] = bpdu->version;
    buf[OFS_TYPE] = bpdu->type;
    if (bpdu->type == STP_TYPE_TCN) {
        return STP_TCN_BPDU_LEN;
    }
    buf[OFS_FLAGS] = bpdu->flags;
    put_be64(buf + OFS_ROOT_ID, bpdu->root_id);
    put_be32(buf + OFS_ROOT_COST, bpdu->root_path_cost);
    put_be64(buf + OFS_BRIDGE_ID, bpdu->bridge_id);
    put_be16(buf + OFS_PORT_ID, bpdu->port_id);
    put_be16(buf + OFS_MESSAGE_AGE, bpdu->message_age);
    put_be16(buf + OFS_MAX_AGE, bpdu->max_age);
    put_be16(buf + OFS_HELLO_TIME, bpdu->hello_time);
    put_be16(buf + OFS_FORWARD_DELAY, bpdu->forward_delay);
    return STP_CONFIG_BPDU_LEN;
}

struct dp_packet *
stp_compose_frame(const void *bpdu, size_t len, struct eth_addr src)
{
    size_t frame_len = STP_FRAME_HEADER_LEN + len;
    size_t padded = frame_len < ETH_TOTAL_MIN ? ETH_TOTAL_MIN : frame_len;
    struct dp_packet *packet = dp_packet_new(padded);
    uint8_t *p = dp_packet_put_zeros(packet, padded);

    memcpy(p, stp_group_address.ea, ETH_ADDR_LEN);
    memcpy(p + ETH_ADDR_LEN, src.ea, ETH_ADDR_LEN);
    /* The length field counts the LLC header and the BPDU, not padding. */
    put_be16(p + 2 * ETH_ADDR_LEN, STP_LLC_LEN + len);
    p[ETH_HEADER_LEN] = STP_LLC_DSAP;
    p[ETH_HEADER_LEN + 1] = STP_LLC_SSAP;
    p[ETH_HEADER_LEN + 2] = STP_LLC_CNTL;
    memcpy(p + STP_FRAME_HEADER_LEN, bpdu, len);
    return packet;
}

bool
stp_parse_frame(const void *frame_, size_t size,
                const uint8_t **bpdu, size_t *bpdu_len)
{
    const uint8_t *frame = frame_;

    if (size < STP_FRAME_HEADER_LEN) {
        return false;
    }
    uint16_t length = get_be16(frame + 2 * ETH_ADDR_LEN);
    if (length >= ETH_TYPE_MIN
        || length < STP_LLC_LEN
        || length > size - ETH_HEADER_LEN) {
        return false;
    }
    if (frame[ETH_HEADER_LEN] != STP_LLC_DSAP
        || frame[ETH_HEADER_LEN + 1] != STP_LLC_SSAP
        || frame[ETH_HEADER_LEN + 2] != STP_LLC_CNTL) {
        return false;
    }
    *bpdu = frame + STP_FRAME_HEADER_LEN;
    *bpdu_len = length - STP_LLC_LEN;
    return true;
}

bool
stp_should_process_flow(const struct flow *flow, struct flow_wildcards *wc)
{
    if (wc) {
        memset(&wc->masks.dl_dst, 0xff, sizeof wc->masks.dl_dst);
    }
    if (!eth_addr_equals(flow->dl_dst, stp_group_address)) {
        return false;
    }
    if (wc) {
        wc->masks.dl_type = htons(UINT16_MAX);
    }
    /* flow-extract gives 802.3 frames without SNAP this dl_type. */
    return flow->dl_type == htons(FLOW_DL_TYPE_NONE);
}
