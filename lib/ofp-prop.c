/* ofp-prop: property lists and message bodies.  See ofp-prop.h. */
#include <config.h>

#include "ofp-prop.h"

#include <string.h>
#include "ofpbuf.h"
#include "openflow.h"
#include "util.h"

enum ofperr
ofpprop_pull(struct ofpbuf *list, struct ofpbuf *property, uint16_t *type)
{
    if (list->size < sizeof(struct ofp_prop_header)) {
        return OFPERR_OFPBPC_BAD_LEN;
    }
    const struct ofp_prop_header *ph = list->data;
    size_t len = ntohs(ph->len);
    if (len < sizeof *ph || ROUND_UP(len, 8) > list->size) {
        return OFPERR_OFPBPC_BAD_LEN;
    }
    *type = ntohs(ph->type);
    ofpbuf_use_const(property, ph, len);
    ofpbuf_pull(list, ROUND_UP(len, 8));
    return 0;
}

void
ofpprop_put(struct ofpbuf *b, uint16_t type, const void *data, size_t len)
{
    struct ofp_prop_header *ph = ofpbuf_put_uninit(b, sizeof *ph);
    ph->type = htons(type);
    ph->len = htons(sizeof *ph + len);
    ofpbuf_put(b, data, len);
    ofpbuf_put_zeros(b, ROUND_UP(sizeof *ph + len, 8) - (sizeof *ph + len));
}

void
ofpprop_put_be16(struct ofpbuf *b, uint16_t type, ovs_be16 value)
{
    uint8_t body[4] = { 0 };
    memcpy(body, &value, sizeof value);
    ofpprop_put(b, type, body, sizeof body);
}

void
ofpprop_put_nested(struct ofpbuf *b, uint16_t type,
                   const struct ofpbuf *nested)
{
    struct ofp_prop_header *ph = ofpbuf_put_zeros(b, 8);
    ph->type = htons(type);
    ph->len = htons(8 + nested->size);
    ofpbuf_put(b, nested->data, nested->size);
    ofpbuf_put_zeros(b, ROUND_UP(nested->size, 8) - nested->size);
}

void
ofpprop_body(const struct ofpbuf *property, struct ofpbuf *body)
{
    ofpbuf_use_const(body, (const uint8_t *) property->data + 4,
                     property->size - 4);
}

enum ofperr
ofpprop_nested_body(const struct ofpbuf *property, struct ofpbuf *body)
{
    if (property->size < 8) {
        return OFPERR_OFPBPC_BAD_LEN;
    }
    ofpbuf_use_const(body, (const uint8_t *) property->data + 8,
                     property->size - 8);
    return 0;
}

enum ofperr
ofpmsg_pull_body(const struct ofp_header *oh, struct ofpbuf *body,
                 enum ofpraw *raw)
{
    ofpbuf_use_const(body, oh, ntohs(oh->length));
    return ofpraw_pull(raw, body);
}
