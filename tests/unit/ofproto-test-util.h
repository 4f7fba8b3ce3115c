/* Helpers shared by the ofproto unit suites: flows and flow_mods from
 * ovs-ofctl's text syntax, through lib/ofp-parse. */
#ifndef TESTS_UNIT_OFPROTO_TEST_UTIL_H
#define TESTS_UNIT_OFPROTO_TEST_UTIL_H 1

#include <check.h>
#include <stdlib.h>
#include "match.h"
#include "ofp-flow.h"
#include "ofp-parse.h"
#include "ofpbuf.h"
#include "ofproto.h"

/* Parses S (a match in ovs-ofctl syntax) into FLOW; fields S leaves out
 * are zero.  Returns false (and frees the error) if S does not parse. */
static inline bool
test_parse_flow(const char *s, struct flow *flow)
{
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 0);
    char *error = parse_ofp_flow_mod_str(&fm, s, NULL, OFPFC_DELETE,
                                         &ofpacts);
    ofpbuf_uninit(&ofpacts);
    if (error) {
        free(error);
        return false;
    }
    flow_apply_mask(flow, &fm.match.flow, &fm.match.wc);
    /* A match says nothing of the TPID; a packet with a tag has one. */
    if (flow->vlans[0].tci & htons(VLAN_CFI) && !flow->vlans[0].tpid) {
        flow->vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    }
    return true;
}

/* Applies "S" as ovs-ofctl's add-flow/mod-flows/del-flows would (COMMAND
 * OFPFC_*), and returns ofproto_flow_mod()'s answer. */
static inline enum ofperr
test_flow_mod(struct ofproto *ofproto, uint16_t command, const char *s)
{
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 0);
    char *error = parse_ofp_flow_mod_str(&fm, s, NULL, command, &ofpacts);
    ck_assert_msg(!error, "%s: %s", s, error);
    enum ofperr retval = ofproto_flow_mod(ofproto, &fm);
    ofpbuf_uninit(&ofpacts);
    return retval;
}

#endif /* tests/unit/ofproto-test-util.h */
