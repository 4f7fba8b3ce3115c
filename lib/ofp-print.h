/* ofp-print: OpenFlow messages as text, exactly as Open vSwitch 3.1's
 * "ovs-ofctl ofp-print" and "ovs-ofctl monitor" print them.
 *
 * ofp_to_string() prints one message: a header line naming the raw form
 * ("OFPT_FEATURES_REPLY", "OFPST_PORT reply", "NXT_ROLE_REQUEST"), the
 * version when it is not 1.0 ("(OF1.3)"), the xid, then the body as the
 * message's own printer writes it.  Bad input never crashes and never
 * reads past LEN; it prints the forms 3.1 prints:
 *
 *   - no bytes:                "OpenFlow message is empty";
 *   - fewer than 8 bytes:      "OpenFlow packet too short (only N bytes):"
 *                              and a hex dump;
 *   - header length > LEN:     the header line if the bytes there name a
 *                              message, "(***truncated to N bytes from
 *                              M***)" and a hex dump;
 *   - header length < LEN:     "(***only uses M bytes out of N***)" + hex;
 *   - header that does not decode: "***decode error: OFPBRC_...***" + hex;
 *   - body that does not decode:   header line, whatever the printer had
 *                              printed before the bad part (3.1 shows the
 *                              ports before a bad one, for example), then
 *                              "***decode error: ...***" and a hex dump.
 *
 * One switch on enum ofptype dispatches to per-message printers, so a new
 * message type is one case.  A type without a printer prints its header
 * line and then, like the forms above, a hex dump of the message.
 *
 * VERBOSITY is ovs-ofctl's (ofp-print's default is 2): above 1, echo
 * payloads are dumped in hex too; an error's embedded request is printed
 * at verbosity 1, as 3.1 does.  PORT_MAP (may be NULL) names ports for
 * --names.
 *
 * Memory: the returned strings are malloc'd and the caller frees them.
 * Threads: no shared state. */
#ifndef OFP_PRINT_H
#define OFP_PRINT_H 1

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ds;
struct ofp_header;
struct ofputil_port_map;
struct ofputil_table_map;

/* The text of the message OH of LEN bytes, ending in a newline. */
char *ofp_to_string(const void *oh, size_t len,
                    const struct ofputil_port_map *, int verbosity);
/* Writes ofp_to_string() to STREAM. */
void ofp_print(FILE *stream, const void *oh, size_t len,
               const struct ofputil_port_map *, int verbosity);

/* Parses HEX (hex digits, with any spaces and newlines between bytes, as
 * "ovs-ofctl ofp-print" takes them) and prints the message.  On bad hex
 * returns NULL and sets *ERRORP to a malloc'd message ("Trailing garbage
 * in hex data"), as 3.1's ovs-ofctl reports it. */
char *ofp_hex_to_string(const char *hex, const struct ofputil_port_map *,
                        int verbosity, char **errorp);

/* Appends the header line ("OFPT_HELLO (OF1.3) (xid=0x1):") for the
 * message OH, whose header decoded as RAW (an enum ofpraw). */
void ofp_header_to_string__(const struct ofp_header *, int raw, struct ds *);

#endif /* ofp-print.h */
