/* netlink: building and walking Netlink attributes (struct nlattr).
 *
 * Datapath actions are a sequence of Netlink attributes with Linux's
 * OVS_ACTION_ATTR_* numbering (<linux/openvswitch.h>), so that a kernel
 * datapath provider could take them unchanged.  Each attribute is a 4-byte
 * header (length including the header, type) followed by its payload,
 * padded to a multiple of 4 bytes (NLA_ALIGN); a nested attribute's
 * payload is itself such a sequence.
 *
 * Building appends to a struct ofpbuf (the caller owns it).  Walking never
 * trusts lengths: NL_ATTR_FOR_EACH stops at the first attribute whose
 * length is shorter than its header or runs past the list, and
 * nl_attr_list_is_valid() tells whether the whole list (and, recursively,
 * the nested lists named by the caller) is well formed, so a consumer
 * that validated once may then walk with plain accessors.
 *
 * Pure functions over caller memory; any thread. */
#ifndef NETLINK_H
#define NETLINK_H 1

#include <linux/netlink.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "types.h"

struct ofpbuf;

/* Building. */
void *nl_msg_put_unspec_uninit(struct ofpbuf *, uint16_t type, size_t size);
void *nl_msg_put_unspec_zero(struct ofpbuf *, uint16_t type, size_t size);
void nl_msg_put_unspec(struct ofpbuf *, uint16_t type, const void *,
                       size_t size);
void nl_msg_put_flag(struct ofpbuf *, uint16_t type);
void nl_msg_put_u8(struct ofpbuf *, uint16_t type, uint8_t);
void nl_msg_put_u16(struct ofpbuf *, uint16_t type, uint16_t);
void nl_msg_put_be16(struct ofpbuf *, uint16_t type, ovs_be16);
void nl_msg_put_u32(struct ofpbuf *, uint16_t type, uint32_t);
void nl_msg_put_u64(struct ofpbuf *, uint16_t type, uint64_t);
/* Starts a nested attribute; returns its offset in the buffer, for
 * nl_msg_end_nested(), which fixes up its length. */
size_t nl_msg_start_nested(struct ofpbuf *, uint16_t type);
void nl_msg_end_nested(struct ofpbuf *, size_t offset);

/* Reading (the attribute must have been validated: see above). */
static inline uint16_t
nl_attr_type(const struct nlattr *a)
{
    return a->nla_type & NLA_TYPE_MASK;
}

static inline const void *
nl_attr_get(const struct nlattr *a)
{
    return (const uint8_t *) a + NLA_HDRLEN;
}

static inline size_t
nl_attr_get_size(const struct nlattr *a)
{
    return a->nla_len - NLA_HDRLEN;
}

static inline ovs_be16
nl_attr_get_be16(const struct nlattr *a)
{
    ovs_be16 v;
    memcpy(&v, nl_attr_get(a), sizeof v);
    return v;
}

static inline uint32_t
nl_attr_get_u32(const struct nlattr *a)
{
    uint32_t v;
    memcpy(&v, nl_attr_get(a), sizeof v);
    return v;
}

/* The attribute after A, and how many bytes a list has left after A. */
static inline const struct nlattr *
nl_attr_next(const struct nlattr *a)
{
    return (const struct nlattr *) ((const uint8_t *) a
                                    + NLA_ALIGN(a->nla_len));
}

/* Whether the LEFT bytes at A start with a whole attribute. */
static inline bool
nl_attr_is_whole(const struct nlattr *a, size_t left)
{
    return (left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN
            && a->nla_len <= left);
}

static inline size_t
nl_attr_left_after(const struct nlattr *a, size_t left)
{
    size_t used = NLA_ALIGN(a->nla_len);
    return used < left ? left - used : 0;
}

/* Walks the attributes of a list; stops at the end or at the first
 * malformed attribute. */
#define NL_ATTR_FOR_EACH(ITER, LEFT, ATTRS, ATTRS_LEN)                  \
    for ((ITER) = (ATTRS), (LEFT) = (ATTRS_LEN);                        \
         nl_attr_is_whole(ITER, LEFT);                                  \
         (LEFT) = nl_attr_left_after(ITER, LEFT),                       \
         (ITER) = nl_attr_next(ITER))

#define NL_NESTED_FOR_EACH(ITER, LEFT, A)                               \
    NL_ATTR_FOR_EACH(ITER, LEFT, (const struct nlattr *) nl_attr_get(A), \
                     nl_attr_get_size(A))

/* Whether LEN bytes at ATTRS are a list of whole attributes, exactly.
 * IS_NESTED(type, depth), if nonnull, says which attribute types hold a
 * nested list to check as well; DEPTH counts from 0 for the top list.
 * Lists deeper than 16 levels are refused. */
bool nl_attr_list_is_valid(const struct nlattr *attrs, size_t len,
                           bool (*is_nested)(uint16_t type, int depth));

/* The first attribute of type TYPE in the list, or NULL. */
const struct nlattr *nl_attr_find(const struct nlattr *attrs, size_t len,
                                  uint16_t type);

#endif /* netlink.h */
