/* nx-match: matches as NXM and OXM TLVs.
 *
 * NXM (Nicira Extended Match, OpenFlow 1.0 with extensions) and OXM
 * (OpenFlow 1.2+) encode a match as a sequence of type-length-value
 * entries, each a field's value and optionally a mask (see ofp-fields.h
 * for the header layout).  OXM wraps the sequence in struct
 * ofp11_match_header; both are padded to a multiple of 8 bytes.
 *
 * Encoding writes the fields of a struct match in a fixed order that
 * satisfies every prerequisite before the field that needs it, exactly as
 * Open vSwitch orders them (so messages compare byte for byte), and skips
 * fields whose prerequisites the match does not establish.
 *
 * Decoding (strict) rejects, with the OpenFlow error for each: a truncated
 * entry or length not matching the field (OFPBMC_BAD_LEN, or BAD_FIELD for
 * an unknown or mis-sized header), value bits outside the mask
 * (BAD_WILDCARDS), a mask on a field that cannot be masked or a bad mask
 * (BAD_MASK), an out-of-range value (BAD_VALUE), a field whose
 * prerequisites are not matched earlier (BAD_PREREQ), a field given twice
 * (DUP_FIELD).  The loose variants skip unknown fields and prerequisite
 * checks, for reading what a switch reports.
 *
 * Threads: pure functions over caller-owned buffers. */
#ifndef NX_MATCH_H
#define NX_MATCH_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-fields.h"
#include "openflow.h"

struct ds;
struct match;
struct ofpbuf;

/* The pseudo-field that lets NXM flow mods and flow stats requests match
 * on the cookie. */
#define NXM_NX_COOKIE NXM_HEADER(0x0001, 30, 0, 8)

/* Appends MATCH (and, if COOKIE_MASK is nonzero, the cookie) as NXM,
 * padded to 8 bytes.  Returns the length without padding. */
int nx_put_match(struct ofpbuf *, const struct match *,
                 ovs_be64 cookie, ovs_be64 cookie_mask);
/* Appends struct ofp11_match_header and MATCH as VERSION's OXM, padded.
 * Returns the length without padding (header included). */
int oxm_put_match(struct ofpbuf *, const struct match *, enum ofp_version);
/* Appends the OXM entries alone. */
void oxm_put_raw(struct ofpbuf *, const struct match *, enum ofp_version);

/* Pulls MATCH_LEN bytes of NXM, plus padding to 8, from B.  COOKIE and
 * COOKIE_MASK may be NULL (then a cookie entry is BAD_FIELD). */
enum ofperr nx_pull_match(struct ofpbuf *b, unsigned int match_len,
                          struct match *, ovs_be64 *cookie,
                          ovs_be64 *cookie_mask);
enum ofperr nx_pull_match_loose(struct ofpbuf *b, unsigned int match_len,
                                struct match *, ovs_be64 *cookie,
                                ovs_be64 *cookie_mask);
/* Pulls an ofp11_match_header, its OXM entries and padding from B. */
enum ofperr oxm_pull_match(struct ofpbuf *b, struct match *);
enum ofperr oxm_pull_match_loose(struct ofpbuf *b, struct match *);
/* Decodes LEN bytes of bare OXM entries. */
enum ofperr oxm_decode_match(const void *, size_t len, bool loose,
                             struct match *);

/* Single headers and entries, for actions that name fields. */
void nx_put_header(struct ofpbuf *, enum mf_field_id, enum ofp_version,
                   bool masked);
/* The same with F's own header (mf_field_oxm_header()): actions encode
 * their sub-fields so. */
void nx_put_field_header(struct ofpbuf *, const struct mf_field *,
                         enum ofp_version, bool masked);
/* An entry for F: masked if MASK is given and not all ones.  A
 * variable-length field's entry holds only its value's and mask's
 * significant (low-order, right-aligned) bytes, as 3.1 writes it. */
void nx_put_entry(struct ofpbuf *, const struct mf_field *,
                  enum ofp_version, const union mf_value *value,
                  const union mf_value *mask);
/* Pulls a header; MASKED NULL means a masked header is BAD_MASK. */
enum ofperr nx_pull_header(struct ofpbuf *, const struct mf_field **,
                           bool *masked);
/* Pulls a header and value (and mask; MASK NULL means none allowed).  In
 * an action (IS_ACTION) unknown fields are OFPBAC_BAD_SET_TYPE. */
enum ofperr nx_pull_entry(struct ofpbuf *, const struct mf_field **,
                          union mf_value *value, union mf_value *mask,
                          bool is_action);
/* Whether F can take MASK: any mask if F is fully maskable, else only all
 * ones or all zeros (3.1's rule for matches and group fields). */
bool mf_is_mask_valid(const struct mf_field *, const union mf_value *mask);
/* The 32-bit NXM or OXM header for ID, preferring NXM; 0 if ID needs an
 * experimenter header or has none. */
uint32_t mf_nxm_header(enum mf_field_id);
uint32_t mf_field_nxm_header(const struct mf_field *);

/* Checks a sub-field used as a source or destination of an action, for a
 * flow that matches MATCH (NULL: no prerequisite check):
 * OFPBAC_BAD_SET_LEN for a bad range, MATCH_INCONSISTENT for unmet
 * prerequisites, BAD_SET_ARGUMENT for a read-only destination. */
enum ofperr mf_check_src(const struct mf_subfield *, const struct match *);
enum ofperr mf_check_dst(const struct mf_subfield *, const struct match *);

/* "NXM_OF_IN_PORT(0001), NXM_NX_REG0_W(00000005/0000ffff)" and back (the
 * form ovs-ofctl parse-nx-match uses). */
char *nx_match_to_string(const uint8_t *, unsigned int len);
char *oxm_match_to_string(const struct ofpbuf *, unsigned int len);
/* Appends the NXM (OXM with header) for S; returns its unpadded length or
 * a negative value with *ERROR set to a malloc'd message. */
int nx_match_from_string(const char *, struct ofpbuf *, char **error);
int oxm_match_from_string(const char *, struct ofpbuf *, char **error);

#endif /* nx-match.h */
