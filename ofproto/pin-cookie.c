/* pin-cookie: see pin-cookie.h. */
#include <config.h>
#include "pin-cookie.h"

#include <string.h>
#include "ofpbuf.h"
#include "util.h"

#define PIN_COOKIE_MAGIC 0x50494e32     /* "PIN2". */

struct pin_cookie_header {
    uint32_t magic;
    uint32_t ofproto_id;
    uint32_t in_port;
    uint16_t max_len;
    uint16_t controller_id;
    uint8_t reason;
    uint8_t table_id;
    uint16_t userdata_len;
    uint32_t fields;            /* Bit I: pipeline_fields[I] follows. */
    ovs_be64 cookie;
};

/* The pipeline fields a packet_in may report, where they are in a flow. */
#define REG_FIELD(I) { offsetof(struct flow, regs[I]), 4 }
static const struct {
    size_t ofs, len;
} pipeline_fields[] = {
    { offsetof(struct flow, tunnel.tun_id), 8 },
    { offsetof(struct flow, tunnel.ip_src), 4 },
    { offsetof(struct flow, tunnel.ip_dst), 4 },
    { offsetof(struct flow, tunnel.ipv6_src), 16 },
    { offsetof(struct flow, tunnel.ipv6_dst), 16 },
    { offsetof(struct flow, tunnel.flags), 2 },
    { offsetof(struct flow, metadata), 8 },
    { offsetof(struct flow, pkt_mark), 4 },
    { offsetof(struct flow, packet_type), 4 },
    REG_FIELD(0), REG_FIELD(1), REG_FIELD(2), REG_FIELD(3),
    REG_FIELD(4), REG_FIELD(5), REG_FIELD(6), REG_FIELD(7),
    REG_FIELD(8), REG_FIELD(9), REG_FIELD(10), REG_FIELD(11),
    REG_FIELD(12), REG_FIELD(13), REG_FIELD(14), REG_FIELD(15),
};
_Static_assert(FLOW_N_REGS == 16, "pipeline_fields lists every register");
_Static_assert(ARRAY_SIZE(pipeline_fields) <= 32, "one bit per field");

static bool
is_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
}

bool
pin_cookie_encode(const struct pin_cookie *pc, const struct flow *flow,
                  struct ofpbuf *b)
{
    const uint8_t *f = (const uint8_t *) flow;
    struct pin_cookie_header h = {
        .magic = PIN_COOKIE_MAGIC,
        .ofproto_id = pc->ofproto_id,
        .in_port = pc->in_port,
        .max_len = pc->max_len,
        .controller_id = pc->controller_id,
        .reason = pc->reason,
        .table_id = pc->table_id,
        .userdata_len = pc->userdata_len,
        .cookie = pc->cookie,
    };
    size_t size = sizeof h + pc->userdata_len;
    for (size_t i = 0; i < ARRAY_SIZE(pipeline_fields); i++) {
        if (!is_zero(f + pipeline_fields[i].ofs, pipeline_fields[i].len)) {
            h.fields |= 1u << i;
            size += pipeline_fields[i].len;
        }
    }
    if (size > PIN_COOKIE_MAX || pc->userdata_len > UINT16_MAX) {
        return false;
    }
    ofpbuf_put(b, &h, sizeof h);
    for (size_t i = 0; i < ARRAY_SIZE(pipeline_fields); i++) {
        if (h.fields & (1u << i)) {
            ofpbuf_put(b, f + pipeline_fields[i].ofs, pipeline_fields[i].len);
        }
    }
    if (pc->userdata_len) {
        ofpbuf_put(b, pc->userdata, pc->userdata_len);
    }
    return true;
}

bool
pin_cookie_decode(const void *data, size_t size, struct pin_cookie *pc,
                  struct flow *flow)
{
    struct pin_cookie_header h;
    if (size < sizeof h) {
        return false;
    }
    memcpy(&h, data, sizeof h);
    if (h.magic != PIN_COOKIE_MAGIC
        || h.fields >> ARRAY_SIZE(pipeline_fields)) {
        return false;
    }
    const uint8_t *p = (const uint8_t *) data + sizeof h;
    size_t left = size - sizeof h;

    memset(flow, 0, sizeof *flow);
    uint8_t *f = (uint8_t *) flow;
    for (size_t i = 0; i < ARRAY_SIZE(pipeline_fields); i++) {
        if (h.fields & (1u << i)) {
            size_t len = pipeline_fields[i].len;
            if (left < len) {
                return false;
            }
            memcpy(f + pipeline_fields[i].ofs, p, len);
            p += len;
            left -= len;
        }
    }
    if (left != h.userdata_len) {
        return false;
    }
    flow->in_port = h.in_port;
    *pc = (struct pin_cookie) {
        .ofproto_id = h.ofproto_id,
        .in_port = h.in_port,
        .max_len = h.max_len,
        .controller_id = h.controller_id,
        .reason = h.reason,
        .table_id = h.table_id,
        .cookie = h.cookie,
        .userdata = left ? p : NULL,
        .userdata_len = left,
    };
    return true;
}
