/* rstp-bpdu: BPDU and frame encoding and validation (see rstp-bpdu.h). */
#include <config.h>
#include "rstp-bpdu.h"

#include <string.h>
#include "be-bytes.h"
#include "dp-packet.h"
#include "flow.h"

const struct eth_addr rstp_bpdu_dst = {{ 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00 }};

/* Offsets of the fields in a BPDU (802.1D-2004 9.3.1 to 9.3.3). */
enum {
    OFS_PROTOCOL = 0,
    OFS_VERSION = 2,
    OFS_TYPE = 3,
    OFS_FLAGS = 4,
    OFS_ROOT_ID = 5,
    OFS_ROOT_COST = 13,
    OFS_BRIDGE_ID = 17,
    OFS_PORT_ID = 25,
    OFS_MESSAGE_AGE = 27,
    OFS_MAX_AGE = 29,
    OFS_HELLO_TIME = 31,
    OFS_FORWARD_DELAY = 33,
    OFS_VERSION1_LEN = 35,
};

/* Times travel in units of 1/256 second. */
static uint16_t
time_to_wire(uint16_t seconds)
{
    /* 0xffff is the most the wire holds; it decodes to 256 s. */
    return seconds > 255 ? 0xffff : seconds << 8;
}

static uint16_t
time_from_wire(uint16_t units)
{
    return (units + 128) >> 8;
}

size_t
rstp_bpdu_encode(const struct rstp_bpdu *bpdu, uint8_t *buf)
{
    size_t len;

    switch (bpdu->type) {
    case RSTP_BPDU_TCN:
        len = RSTP_TCN_BPDU_LEN;
        break;
    case RSTP_BPDU_CONFIG:
        len = RSTP_CONFIG_BPDU_LEN;
        break;
    case RSTP_BPDU_RST:
    default:
        len = RSTP_RST_BPDU_LEN;
        break;
    }
    memset(buf, 0, len);
    put_be16(buf + OFS_PROTOCOL, 0);
    buf[OFS_VERSION] = bpdu->version;
    buf[OFS_TYPE] = bpdu->type;
    if (bpdu->type == RSTP_BPDU_TCN) {
        return len;
    }
    buf[OFS_FLAGS] = bpdu->flags;
    put_be64(buf + OFS_ROOT_ID, bpdu->root_id);
    put_be32(buf + OFS_ROOT_COST, bpdu->root_path_cost);
    put_be64(buf + OFS_BRIDGE_ID, bpdu->bridge_id);
    put_be16(buf + OFS_PORT_ID, bpdu->port_id);
    put_be16(buf + OFS_MESSAGE_AGE, time_to_wire(bpdu->message_age));
    put_be16(buf + OFS_MAX_AGE, time_to_wire(bpdu->max_age));
    put_be16(buf + OFS_HELLO_TIME, time_to_wire(bpdu->hello_time));
    put_be16(buf + OFS_FORWARD_DELAY, time_to_wire(bpdu->forward_delay));
    /* An RST BPDU's Version 1 Length is 0 (9.3.3). */
    return len;
}

const char *
rstp_bpdu_decode(const void *data, size_t len, struct rstp_bpdu *bpdu)
{
    const uint8_t *p = data;

    memset(bpdu, 0, sizeof *bpdu);
    if (len < RSTP_TCN_BPDU_LEN) {
        return "shorter than any BPDU";
    }
    if (get_be16(p + OFS_PROTOCOL) != 0) {
        return "unknown protocol identifier";
    }
    bpdu->version = p[OFS_VERSION];
    bpdu->type = p[OFS_TYPE];
    switch (p[OFS_TYPE]) {
    case RSTP_BPDU_TCN:
        return NULL;
    case RSTP_BPDU_CONFIG:
        if (len < RSTP_CONFIG_BPDU_LEN) {
            return "short Configuration BPDU";
        }
        break;
    case RSTP_BPDU_RST:
        /* 9.3.4 c): type 2 is an RST BPDU only from version 2 up. */
        if (bpdu->version < 2) {
            return "RST BPDU with a protocol version below 2";
        }
        if (len < RSTP_RST_BPDU_LEN) {
            return "short RST BPDU";
        }
        break;
    default:
        return "unknown BPDU type";
    }

    bpdu->flags = p[OFS_FLAGS];
    bpdu->root_id = get_be64(p + OFS_ROOT_ID);
    bpdu->root_path_cost = get_be32(p + OFS_ROOT_COST);
    bpdu->bridge_id = get_be64(p + OFS_BRIDGE_ID);
    bpdu->port_id = get_be16(p + OFS_PORT_ID);
    bpdu->message_age = time_from_wire(get_be16(p + OFS_MESSAGE_AGE));
    bpdu->max_age = time_from_wire(get_be16(p + OFS_MAX_AGE));
    bpdu->hello_time = time_from_wire(get_be16(p + OFS_HELLO_TIME));
    bpdu->forward_delay = time_from_wire(get_be16(p + OFS_FORWARD_DELAY));

    if (bpdu->type == RSTP_BPDU_CONFIG) {
        /* 9.3.4 a): a Configuration BPDU whose age has reached its Max
         * Age is stale (compared in whole seconds, as the machines see
         * them).  Its flags other than TC and TC Ack mean nothing. */
        if (bpdu->message_age >= bpdu->max_age) {
            return "Configuration BPDU older than its Max Age";
        }
        bpdu->flags &= RSTP_FLAG_TC | RSTP_FLAG_TC_ACK;
    }
    /* An RST BPDU whose role is "unknown" is valid: it carries no
     * priority information (17.21.8 takes it as OtherInfo), but it still
     * tells us the partner is a bridge that talks RSTP. */
    return NULL;
}

void
rstp_compose_frame(struct dp_packet *packet, struct eth_addr port_mac,
                   const void *bpdu, size_t len)
{
    uint8_t header[RSTP_FRAME_HEADER_LEN];

    memcpy(header, rstp_bpdu_dst.ea, ETH_ADDR_LEN);
    memcpy(header + ETH_ADDR_LEN, port_mac.ea, ETH_ADDR_LEN);
    /* An 802.3 length field counts the LLC header and the BPDU. */
    put_be16(header + 12, len + 3);
    header[14] = RSTP_LLC_SAP;
    header[15] = RSTP_LLC_SAP;
    header[16] = RSTP_LLC_CONTROL;
    dp_packet_put(packet, header, sizeof header);
    dp_packet_put(packet, bpdu, len);
    if (sizeof header + len < 60) {
        dp_packet_put_zeros(packet, 60 - (sizeof header + len));
    }
}

const void *
rstp_frame_bpdu(const void *frame_, size_t len, size_t *bpdu_len)
{
    const uint8_t *frame = frame_;

    if (len < RSTP_FRAME_HEADER_LEN
        || memcmp(frame, rstp_bpdu_dst.ea, ETH_ADDR_LEN)) {
        return NULL;
    }
    uint16_t length = get_be16(frame + 12);
    if (length < 3 || length > 1500 || length - 3 > len - RSTP_FRAME_HEADER_LEN
        || frame[14] != RSTP_LLC_SAP || frame[15] != RSTP_LLC_SAP
        || frame[16] != RSTP_LLC_CONTROL) {
        return NULL;
    }
    *bpdu_len = length - 3;
    return frame + RSTP_FRAME_HEADER_LEN;
}

bool
rstp_flow_is_bpdu(const struct flow *flow, struct flow_wildcards *wc)
{
    if (wc) {
        memset(&wc->masks.dl_dst, 0xff, sizeof wc->masks.dl_dst);
    }
    return eth_addr_equals(flow->dl_dst, rstp_bpdu_dst);
}
