/* ofp-prop: helpers the message decoders share: property lists and
 * message bodies.
 *
 * OpenFlow 1.4 and later put optional data in property lists: each
 * property is a 16-bit type, a 16-bit length that counts its 4-byte
 * header and body but not the padding that follows it to a multiple of 8
 * bytes.  ofpprop_pull() takes one property off the front of a list with
 * every length check the decoders need, so each decoder only looks at
 * types.
 *
 * The ofpprop_put*() functions append properties in the same layout.
 *
 * ofpmsg_pull_body() decodes a message's header (ofp-msgs.h) and points an
 * ofpbuf at its body, for decoders that then check the raw form.
 *
 * Memory: the ofpbufs these fill point into the caller's data; nothing is
 * allocated.  Threads: pure functions. */
#ifndef OFP_PROP_H
#define OFP_PROP_H 1

#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-msgs.h"

struct ofpbuf;

/* Pulls the property at the front of LIST, padding included.  *PROPERTY
 * then covers the property from its header to its declared length (so a
 * property struct can be laid over PROPERTY->data once PROPERTY->size is
 * checked) and *TYPE is its type.  Returns OFPBPC_BAD_LEN, and
 * leaves LIST alone, if the length is under 4 or the padded property runs
 * past LIST. */
enum ofperr ofpprop_pull(struct ofpbuf *list, struct ofpbuf *property,
                         uint16_t *type);

/* Appends a property of TYPE with the LEN bytes at DATA, padded to a
 * multiple of 8 bytes (the length field counts header and DATA). */
void ofpprop_put(struct ofpbuf *, uint16_t type, const void *data,
                 size_t len);
/* A 16-bit value, with two bytes of padding counted in the length, as
 * Open vSwitch writes such properties (8 bytes in all). */
void ofpprop_put_be16(struct ofpbuf *, uint16_t type, ovs_be16 value);
/* A property whose body is the nested property list NESTED, which starts
 * 8-aligned (after 4 bytes of padding). */
void ofpprop_put_nested(struct ofpbuf *, uint16_t type,
                        const struct ofpbuf *nested);
/* The body of PROPERTY (as ofpprop_pull() gave it) into *BODY; the nested
 * form skips the padding before a nested list (OFPBPC_BAD_LEN if there is
 * not that much). */
void ofpprop_body(const struct ofpbuf *property, struct ofpbuf *body);
enum ofperr ofpprop_nested_body(const struct ofpbuf *property,
                                struct ofpbuf *body);

/* Decodes the header of OH (whose length field the caller has checked
 * against what it holds) into *RAW and points *BODY at the body.
 * Returns the header's error, if any. */
enum ofperr ofpmsg_pull_body(const struct ofp_header *oh,
                             struct ofpbuf *body, enum ofpraw *raw);

#endif /* ofp-prop.h */
