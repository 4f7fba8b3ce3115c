/* check-ofp: helpers for the Check suites of the OpenFlow message codecs
 * (test-ofp-switch, test-ofp-phy-port, test-ofp-table, test-ofp-print).
 *
 * Like check-util, every helper fails the running test rather than
 * returning an error. */
#ifndef TESTS_UNIT_CHECK_OFP_H
#define TESTS_UNIT_CHECK_OFP_H 1

#include <stddef.h>

struct ofpbuf;

/* A new ofpbuf holding the bytes HEX spells (spaces allowed). */
struct ofpbuf *check_ofp_from_hex(const char *hex);

/* Checks that the message in B is the bytes HEX and that ofp_to_string()
 * prints it as TEXT (Open vSwitch 3.1's text for those bytes), reporting
 * where they first differ; then frees B. */
void check_ofp_msg(struct ofpbuf *b, const char *hex, const char *text);

#endif /* tests/unit/check-ofp.h */
