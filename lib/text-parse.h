/* text-parse: numbers, byte strings and "key=value" lists, read by one rule
 * wherever the project's text syntaxes have them (ovs-ofctl's flows,
 * actions, groups, meters and packet-outs; ovs-dpctl's datapath flows).
 *
 * The number rule, as Open vSwitch 3.1's tools read field values: decimal,
 * octal (leading 0) or hex ("0x" and any number of hex digits, none
 * meaning 0), an optional '+', never a '-' (a negative number is out of
 * range, not wrapped), the whole text consumed, and the value
 * range-checked against its destination.  A destination wider than 64
 * bits (a 128-bit register, a Geneve option) takes hex beyond 64 bits.
 *
 * Byte strings are pairs of hex digits (ofpbuf_put_hex() in ofpbuf.h).
 *
 * Errors come back as malloc'd strings worded as ovs-ofctl 3.1 words them,
 * or as errno values where the caller words the error itself.
 *
 * Threads: pure functions. */
#ifndef TEXT_PARSE_H
#define TEXT_PARSE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util.h"

/* Parses all of S as a number no greater than MAX into *VALUE.  On error
 * returns "missing required numeric argument" (S empty) or "invalid
 * numeric format S" (malloc'd) and leaves *VALUE alone. */
char *ofputil_parse_uint(const char *s, uint64_t max, uint64_t *value)
    OVS_WARN_UNUSED_RESULT;
/* The same, saying only whether S is such a number. */
bool ofputil_scan_uint(const char *s, uint64_t max, uint64_t *value);
/* The same for 16- and 32-bit destinations. */
char *ofputil_parse_u16(const char *s, uint16_t *value)
    OVS_WARN_UNUSED_RESULT;
char *ofputil_parse_u32(const char *s, uint32_t *value)
    OVS_WARN_UNUSED_RESULT;

/* Parses the number at the start of S into the N-byte big-endian integer
 * at P (zeroed first), stopping at the first character that cannot
 * continue it; *TAIL points there.  Returns 0, EINVAL (no number at S) or
 * ERANGE (the number does not fit in N bytes, or is negative).  Leading
 * zeros of a hex number do not count against N. */
int ofputil_parse_int_bytes(const char *s, uint8_t *p, size_t n,
                            const char **tail);

/* Splits the next "key:value", "key=value" or "key(value)" off *SP, a
 * writable string, as 3.1's option parser does: commas and white space
 * separate items, parentheses nest (within a value too), a key alone has
 * the value "", and "key(value)->dst" (check_pkt_larger's form) gives the
 * value "value->dst".  *SEP, if SEP is nonnull, is the character that
 * ended the key ('\0' at the end, ',' or white space for a key alone).
 * Returns false when nothing is left. */
bool ofputil_parse_key_value(char **sp, char **key, char **value, char *sep);

/* Whether SEP, as ofputil_parse_key_value() stored it, gave its key a
 * value (so "key=" has the value "" and "key" has none). */
static inline bool
ofputil_key_has_value(char sep)
{
    return sep == ':' || sep == '=' || sep == '(';
}

#endif /* text-parse.h */
