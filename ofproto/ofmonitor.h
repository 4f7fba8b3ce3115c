/* ofmonitor: OpenFlow flow monitors on one connection.
 *
 * A controller asks, with a flow monitor request (lib/ofp-monitor.h), to
 * hear about changes to the flows that match a filter (table, out_port,
 * out_group, match) and of which kinds (initial dump, add, delete, modify,
 * with or without actions, its own changes in full or abbreviated).  Each
 * connection keeps its monitors by id in 'ofconn->monitors'; they go with
 * the connection (or a reconnection of it).
 *
 * ofproto reports every table change through the callback connmgr sets
 * (ofproto_set_flow_change_cb()), which hands it to ofmonitor_report() for
 * each connection: matching monitors' flags are combined into one update,
 * full, or abbreviated (the request's xid, once per request) for a change
 * the connection made itself without the "own" flag, and queued until the
 * operation's end (a null change: ofmonitor_flush()).
 *
 * Threads: main thread only.  A monitor belongs to its connection and is
 * freed by ofmonitor_destroy_all(). */
#ifndef OFPROTO_OFMONITOR_H
#define OFPROTO_OFMONITOR_H 1

#include "ofp-errors.h"

struct ofconn;
struct ofp_header;
struct ofproto_flow_change;

/* NXST/ONFST/OFPMP flow monitor request: adds (or in 1.4+ modifies or
 * deletes) the monitors and replies with the initial dump. */
enum ofperr ofmonitor_handle_request(struct ofconn *,
                                     const struct ofp_header *);
/* NXT/ONFT flow monitor cancel. */
enum ofperr ofmonitor_handle_cancel(struct ofconn *,
                                    const struct ofp_header *);
/* Adds CHANGE to OFCONN's pending updates if one of its monitors wants
 * it; ofmonitor_flush() sends them, in one reply (more if it grows past
 * 64 kB), as 3.1 sends one operation's updates. */
void ofmonitor_report(struct ofconn *, const struct ofproto_flow_change *);
void ofmonitor_flush(struct ofconn *);
/* Frees every monitor of OFCONN. */
void ofmonitor_destroy_all(struct ofconn *);

/* Pause and resume, as 3.1: once more than 128 kB of a connection's
 * updates wait for the kernel, its monitors pause ("paused" is sent):
 * only removals of flows added before go out.  When the backlog is gone,
 * ofmonitor_run() sends every flow added or modified meanwhile that a
 * monitor selects, as ADDED, then "resumed".  Rules carry the seqnos
 * that say which (ofproto_rule_info's add_seqno, modify_seqno). */
void ofmonitor_run(struct ofconn *);
void ofmonitor_wait(struct ofconn *);

#endif /* ofproto/ofmonitor.h */
