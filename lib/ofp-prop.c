/* ofp-prop: property lists and message bodies.  See ofp-prop.h. */
#include <config.h>

#include "ofp-prop.h"

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

enum ofperr
ofpmsg_pull_body(const struct ofp_header *oh, struct ofpbuf *body,
                 enum ofpraw *raw)
{
    ofpbuf_use_const(body, oh, ntohs(oh->length));
    return ofpraw_pull(raw, body);
}
