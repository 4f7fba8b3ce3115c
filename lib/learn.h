/* learn: the Nicira "learn" action (struct ofpact_learn, ofp-actions.h).
 *
 * A learn action describes a flow to add when a packet runs it: each spec
 * takes a value (a sub-field of the packet, or an immediate) and puts it
 * in the new flow's match, or into a load action of the new flow, or
 * names the new flow's output port.  This module has everything about the
 * action that is not translation: its wire forms (NXAST_LEARN and, when a
 * limit or result_dst is given, NXAST_LEARN2), its checks with the
 * OpenFlow errors Open vSwitch 3.1 gives, its text as ovs-ofctl 3.1 reads
 * and prints it, and learn_execute(), which turns an action and a flow
 * into the flow_mod that installs the learned flow.
 *
 * Threads: pure functions over caller-owned buffers; any thread.  (Who may
 * apply the flow_mod is ofproto's business: ofproto-private.h.) */
#ifndef LEARN_H
#define LEARN_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-actions.h"
#include "ofp-errors.h"

struct ds;
struct flow;
struct flow_wildcards;
struct match;
struct ofpbuf;
struct ofputil_flow_mod;
struct ofputil_port_map;
struct ofputil_table_map;

/* Decodes the LEN-byte NXAST_LEARN (or NXAST_LEARN2 if LEARN2) action at P
 * (its vendor header included, LEN already a multiple of 8) and appends an
 * OFPACT_LEARN to OFPACTS.  On error OFPACTS may hold a partial action:
 * the caller restores its size. */
enum ofperr learn_decode(const uint8_t *p, size_t len, bool learn2,
                         struct ofpbuf *ofpacts);
/* Appends LEARN's wire form (always NXM field headers, every version). */
void learn_encode(const struct ofpact_learn *, struct ofpbuf *out);

/* Checks LEARN as 3.1 does before accepting a flow: sub-fields in range,
 * load destinations writable, each match destination's prerequisites
 * present in the learned match built so far and, if SRC_MATCH is nonnull,
 * each source field's prerequisites in the learning flow's match. */
enum ofperr learn_check(const struct ofpact_learn *,
                        const struct match *src_match);

/* "learn(table=1,...)" as 3.1 prints it (the table by its name in
 * TABLE_MAP, if it has one). */
void learn_format(const struct ofpact_learn *,
                  const struct ofputil_table_map *, struct ds *);
/* Parses ARG, the text inside "learn(...)" (modified), appending an
 * OFPACT_LEARN to OFPACTS; table= may be a name in TABLE_MAP.  Returns a
 * malloc'd error worded as 3.1's. */
char *learn_parse(char *arg, const struct ofputil_port_map *,
                  const struct ofputil_table_map *,
                  struct ofpbuf *ofpacts) OVS_WARN_UNUSED_RESULT;

/* Marks in WC the packet fields LEARN reads. */
void learn_mask(const struct ofpact_learn *, struct flow_wildcards *);
/* Fills FM with the flow LEARN learns from FLOW (an OFPFC_MODIFY_STRICT
 * that adds the flow if it is not there), its actions appended to
 * OFPACTS; FM->ofpacts points into OFPACTS. */
void learn_execute(const struct ofpact_learn *, const struct flow *,
                   struct ofputil_flow_mod *fm, struct ofpbuf *ofpacts);

#endif /* learn.h */
