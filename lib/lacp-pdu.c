/* lacp-pdu: see lacp-pdu.h. */
#include <config.h>
#include "lacp-pdu.h"

#include <string.h>

#include "dynamic-string.h"
#include "packets.h"

const struct eth_addr lacp_eth_dst = { { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x02 } };

/* Offsets inside the LACPDU (after the Ethernet header).  Each information
 * TLV is 2 bytes of type and length, 15 of information, 3 reserved. */
#define OFS_SUBTYPE 0
#define OFS_VERSION 1
#define OFS_ACTOR_TLV 2
#define OFS_PARTNER_TLV 22
#define OFS_COLLECTOR_TLV 42
#define INFO_TLV_LEN 20
#define COLLECTOR_TLV_LEN 16

#define SUBTYPE_LACP 1
#define SUBTYPE_MARKER 2
#define TLV_ACTOR 1
#define TLV_PARTNER 2
#define TLV_COLLECTOR 3

bool
lacp_info_equal(const struct lacp_info *a, const struct lacp_info *b)
{
    return (a->sys_priority == b->sys_priority
            && eth_addr_equals(a->sys_id, b->sys_id)
            && a->key == b->key
            && a->port_priority == b->port_priority
            && a->port_id == b->port_id
            && a->state == b->state);
}

static uint16_t
get_be16(const uint8_t *p)
{
    return (uint16_t) (p[0] << 8 | p[1]);
}

static void
put_be16(uint8_t *p, uint16_t x)
{
    p[0] = x >> 8;
    p[1] = x & 0xff;
}

/* Reads the 15 bytes of information of an actor or partner TLV. */
static void
read_info(const uint8_t *p, struct lacp_info *info)
{
    info->sys_priority = get_be16(p);
    memcpy(info->sys_id.ea, p + 2, ETH_ADDR_LEN);
    info->key = get_be16(p + 8);
    info->port_priority = get_be16(p + 10);
    info->port_id = get_be16(p + 12);
    info->state = p[14];
}

static void
write_info(uint8_t *p, const struct lacp_info *info)
{
    put_be16(p, info->sys_priority);
    memcpy(p + 2, info->sys_id.ea, ETH_ADDR_LEN);
    put_be16(p + 8, info->key);
    put_be16(p + 10, info->port_priority);
    put_be16(p + 12, info->port_id);
    p[14] = info->state;
}

enum lacp_pdu_kind
lacp_pdu_parse(const void *frame_, size_t len, struct lacp_info *actor,
               struct lacp_info *partner)
{
    const uint8_t *frame = frame_;
    size_t ofs = 2 * ETH_ADDR_LEN;

    /* The Ethernet type, after any VLAN tags: translation recognises
     * LACPDUs by the flow's type, which is the one after the tags. */
    for (;;) {
        if (len < ofs + 2) {
            return LACP_PDU_BAD;
        }
        uint16_t type = get_be16(frame + ofs);
        ofs += 2;
        if (type == ETH_TYPE_VLAN_8021Q || type == ETH_TYPE_VLAN_8021AD) {
            ofs += 2;           /* The tag's TCI. */
            continue;
        }
        if (type != ETH_TYPE_SLOW_PROTOCOLS) {
            return LACP_PDU_BAD;
        }
        break;
    }

    /* 3.1 wants the whole PDU even for a marker: a shorter one is bad. */
    if (len - ofs < LACP_PDU_LEN) {
        return LACP_PDU_BAD;
    }
    const uint8_t *pdu = frame + ofs;
    if (pdu[OFS_SUBTYPE] == SUBTYPE_MARKER) {
        return LACP_PDU_MARKER;
    }
    /* The version is not checked: 802.1AX asks receivers to accept later
     * versions, which keep these fields where they are. */
    if (pdu[OFS_SUBTYPE] != SUBTYPE_LACP
        || pdu[OFS_ACTOR_TLV] != TLV_ACTOR
        || pdu[OFS_ACTOR_TLV + 1] != INFO_TLV_LEN
        || pdu[OFS_PARTNER_TLV] != TLV_PARTNER
        || pdu[OFS_PARTNER_TLV + 1] != INFO_TLV_LEN) {
        return LACP_PDU_BAD;
    }
    read_info(pdu + OFS_ACTOR_TLV + 2, actor);
    read_info(pdu + OFS_PARTNER_TLV + 2, partner);
    return LACP_PDU_LACP;
}

void
lacp_pdu_write(uint8_t pdu[LACP_PDU_LEN], const struct lacp_info *actor,
               const struct lacp_info *partner)
{
    memset(pdu, 0, LACP_PDU_LEN);
    pdu[OFS_SUBTYPE] = SUBTYPE_LACP;
    pdu[OFS_VERSION] = 1;
    pdu[OFS_ACTOR_TLV] = TLV_ACTOR;
    pdu[OFS_ACTOR_TLV + 1] = INFO_TLV_LEN;
    write_info(pdu + OFS_ACTOR_TLV + 2, actor);
    pdu[OFS_PARTNER_TLV] = TLV_PARTNER;
    pdu[OFS_PARTNER_TLV + 1] = INFO_TLV_LEN;
    write_info(pdu + OFS_PARTNER_TLV + 2, partner);
    /* Collector TLV: a maximum delay of 0, as 3.1 sends; the terminator
     * TLV and the padding after it are the zeros already there. */
    pdu[OFS_COLLECTOR_TLV] = TLV_COLLECTOR;
    pdu[OFS_COLLECTOR_TLV + 1] = COLLECTOR_TLV_LEN;
}

void
lacp_compose_pdu(uint8_t frame[LACP_FRAME_LEN], struct eth_addr src,
                 const struct lacp_info *actor,
                 const struct lacp_info *partner)
{
    memcpy(frame, lacp_eth_dst.ea, ETH_ADDR_LEN);
    memcpy(frame + ETH_ADDR_LEN, src.ea, ETH_ADDR_LEN);
    put_be16(frame + 2 * ETH_ADDR_LEN, ETH_TYPE_SLOW_PROTOCOLS);
    lacp_pdu_write(frame + ETH_HEADER_LEN, actor, partner);
}

void
lacp_state_format(struct ds *ds, uint8_t state)
{
    static const char *const names[8] = {
        "activity", "timeout", "aggregation", "synchronized",
        "collecting", "distributing", "defaulted", "expired",
    };
    for (int bit = 0; bit < 8; bit++) {
        if (state & (1u << bit)) {
            ds_put_char(ds, ' ');
            ds_put_cstr(ds, names[bit]);
        }
    }
}
