#include <config.h>
#include "netlink.h"

#include "ofpbuf.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netlink);

void *
nl_msg_put_unspec_uninit(struct ofpbuf *buf, uint16_t type, size_t size)
{
    size_t total = NLA_ALIGN(NLA_HDRLEN + size);
    ovs_assert(NLA_HDRLEN + size <= UINT16_MAX);
    struct nlattr *a = ofpbuf_put_zeros(buf, total);
    a->nla_len = NLA_HDRLEN + size;
    a->nla_type = type;
    return a + 1;
}

void *
nl_msg_put_unspec_zero(struct ofpbuf *buf, uint16_t type, size_t size)
{
    /* ofpbuf_put_zeros() already cleared the payload and the padding. */
    return nl_msg_put_unspec_uninit(buf, type, size);
}

void
nl_msg_put_unspec(struct ofpbuf *buf, uint16_t type, const void *data,
                  size_t size)
{
    void *dst = nl_msg_put_unspec_uninit(buf, type, size);
    if (size) {
        memcpy(dst, data, size);
    }
}

void
nl_msg_put_flag(struct ofpbuf *buf, uint16_t type)
{
    nl_msg_put_unspec(buf, type, NULL, 0);
}

void
nl_msg_put_u8(struct ofpbuf *buf, uint16_t type, uint8_t v)
{
    nl_msg_put_unspec(buf, type, &v, sizeof v);
}

void
nl_msg_put_u16(struct ofpbuf *buf, uint16_t type, uint16_t v)
{
    nl_msg_put_unspec(buf, type, &v, sizeof v);
}

void
nl_msg_put_be16(struct ofpbuf *buf, uint16_t type, ovs_be16 v)
{
    nl_msg_put_unspec(buf, type, &v, sizeof v);
}

void
nl_msg_put_u32(struct ofpbuf *buf, uint16_t type, uint32_t v)
{
    nl_msg_put_unspec(buf, type, &v, sizeof v);
}

void
nl_msg_put_u64(struct ofpbuf *buf, uint16_t type, uint64_t v)
{
    nl_msg_put_unspec(buf, type, &v, sizeof v);
}

size_t
nl_msg_start_nested(struct ofpbuf *buf, uint16_t type)
{
    size_t offset = buf->size;
    nl_msg_put_unspec(buf, type, NULL, 0);
    return offset;
}

void
nl_msg_end_nested(struct ofpbuf *buf, size_t offset)
{
    struct nlattr *a = ofpbuf_at_assert(buf, offset, sizeof *a);
    size_t len = buf->size - offset;
    ovs_assert(len <= UINT16_MAX);
    a->nla_len = len;
}

static bool
list_is_valid(const struct nlattr *attrs, size_t len,
              bool (*is_nested)(uint16_t, int), int depth)
{
    if (depth > 16) {
        return false;
    }
    const struct nlattr *a;
    size_t left;
    NL_ATTR_FOR_EACH (a, left, attrs, len) {
        if (is_nested && is_nested(nl_attr_type(a), depth)
            && !list_is_valid(nl_attr_get(a), nl_attr_get_size(a),
                              is_nested, depth + 1)) {
            return false;
        }
        if (NLA_ALIGN(a->nla_len) >= left) {
            /* The last one: padding may be missing at the very end. */
            return true;
        }
    }
    return left == 0;
}

bool
nl_attr_list_is_valid(const struct nlattr *attrs, size_t len,
                      bool (*is_nested)(uint16_t type, int depth))
{
    return list_is_valid(attrs, len, is_nested, 0);
}

const struct nlattr *
nl_attr_find(const struct nlattr *attrs, size_t len, uint16_t type)
{
    const struct nlattr *a;
    size_t left;
    NL_ATTR_FOR_EACH (a, left, attrs, len) {
        if (nl_attr_type(a) == type) {
            return a;
        }
    }
    return NULL;
}
