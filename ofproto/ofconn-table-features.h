/* ofconn-table-features: OFPMP_TABLE_FEATURES (OpenFlow 1.3+) for a
 * connection.
 *
 * A request without a body asks for every table's features.  One with a
 * body would set them; the switch takes from it, as 3.1 does, only the
 * tables' names: every table it lists must ask for no more than the table
 * has (fields, instructions, actions, next tables, metadata bits,
 * capabilities, max_entries; else OFPTFFC_EPERM), a 1.3 or 1.4 request
 * (1.5: command replace) must list the whole pipeline, 1.5's modify the
 * tables it changes, and enable and disable are refused (OFPTFFC_EPERM);
 * a name the database gave a table stays (another one is OFPTFFC_EPERM).
 * Either way the reply is every table's features.  A request in several
 * parts (flag "more", one xid) is gathered per connection until its last
 * part; a part with another xid drops the parts before it.
 *
 * Threads: main thread only, as ofconn. */
#ifndef OFPROTO_OFCONN_TABLE_FEATURES_H
#define OFPROTO_OFCONN_TABLE_FEATURES_H 1

#include <stdint.h>
#include "ofp-errors.h"

struct ofconn;
struct ofp_header;
struct ofproto;
struct ofputil_table_features;

/* What OFPROTO's table TABLE_ID can do, with its name and flow limit
 * (max_entries 1,000,000 for an unlimited table, as 3.1 reports it). */
void ofproto_table_features(const struct ofproto *, uint8_t table_id,
                            struct ofputil_table_features *);

enum ofperr ofconn_handle_table_features_request(struct ofconn *,
                                                 const struct ofp_header *);
/* Drops the parts of a request gathered so far. */
void ofconn_table_features_clear(struct ofconn *);

#endif /* ofproto/ofconn-table-features.h */
