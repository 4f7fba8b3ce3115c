/* lacp: the Link Aggregation Control Protocol (IEEE 802.1AX) engine of one
 * bond, as Open vSwitch 3.1 runs it.
 *
 * What it does
 * ------------
 * A bond (one "lacp object", named after its port) has members, the
 * bond's interfaces.  On each member the engine sends LACPDUs saying who
 * we are (the "actor": system ID and priority, the member's port ID and
 * priority, the bond's aggregation key, and a state octet) and what we
 * last heard from the other end (the "partner").  From the partner's
 * LACPDUs it decides which members may carry traffic:
 *
 *   status     Each member is "current" (heard from within 3 intervals of
 *              our own rate: 3 s fast, 90 s slow), "expired" (silent past
 *              that: the partner's info is kept but loses its sync bit and
 *              gains the fast-timeout bit, for 3 s more) or "defaulted"
 *              (silent for that too, or never heard: no partner).
 *   attached   Which members join the aggregate: those not defaulted,
 *              whose partner is not ourselves (a loopback), and whose
 *              partner has the same system and key as the best one (the
 *              "lead", by the priority of whichever system, ours or the
 *              partner's, ranks first).  The bond is "negotiated" when a
 *              lead exists.
 *   may_enable A member may carry traffic when it is attached and its
 *              partner says it is in sync; or, with fallback_ab, when it is
 *              defaulted and no member is negotiated (the bond then falls
 *              back to active-backup instead of dropping all traffic).
 *
 * Timers: a member transmits at once when what it would say changed (or
 * when the partner's view of us is wrong), else every 1 s if the partner
 * asked for fast timeouts, every 30 s if not.  A passive bond transmits
 * only on members whose partner has been heard (so passive + passive never
 * negotiates).  lacp_run() does what is due and returns the next deadline:
 * the caller keeps it on a timer heap (ofproto's monitor), nothing polls.
 *
 * Threads and locking
 * -------------------
 * One module mutex, lacp_mutex (static in lacp.c), guards every lacp
 * object, its members and the registry of live objects (by name, for
 * lacp/show).  Every function below takes it itself, so any thread may
 * call any of them: handler or datapath threads lacp_process_packet(), the
 * monitor thread lacp_run(), the main thread the rest.  The unixctl
 * commands lacp/show and lacp/show-stats run on the main thread and take
 * lacp_mutex too.  Callbacks (the send callback of lacp_run() and the
 * change callback) are called with lacp_mutex NOT held, so they may call
 * back into this module.  A caller that wants a consistent series of
 * calls (configure, then register each member) serialises with its own
 * lock; the engine never holds lacp_mutex across calls.  Frames are sent
 * after lacp_run() has released lacp_mutex, so the caller must not
 * unregister a member (and free what its aux points to) while lacp_run()
 * runs for the same bond: as with the per-port protocols, detach the bond
 * from the thread that runs it first.
 *
 * Changes
 * -------
 * When a member's visible state (status, attached, may_enable, partner
 * information) changes, the engine marks the member changed, moves
 * connectivity_seq and calls the object's change callback, if any, once
 * per call that changed something.  The integration then takes the
 * changed members (lacp_take_changed_members()) or asks one
 * (lacp_member_take_changed()): both check and clear, so a bond updates
 * only the members that changed.
 *
 * Time: lacp_run() uses the NOW it is given; the other functions, which
 * start receive timers, use time_msec() (so the simulated clock of
 * time/stop and time/warp drives both).
 *
 * Memory: lacp_create() returns an object with one reference;
 * lacp_ref()/lacp_unref() count them, and the last unref frees it and its
 * members.  Member "aux" pointers are the caller's handles (the bond's
 * member), never dereferenced here.  Names in settings are copied.  Frames
 * given to the send callback are valid only during the call. */
#ifndef LACP_H
#define LACP_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lacp-pdu.h"
#include "packets.h"

struct ds;
struct flow;
struct flow_wildcards;
struct lacp;

/* Timer values (ms), from 802.1AX. */
#define LACP_FAST_TX_INTERVAL 1000
#define LACP_SLOW_TX_INTERVAL 30000
#define LACP_RX_MULTIPLIER 3    /* Timeouts are this many intervals. */

/* A bond's LACP state, as bond/show's "lacp_status" prints it. */
enum lacp_status {
    LACP_NEGOTIATED,            /* Some member found a partner to attach. */
    LACP_CONFIGURED,            /* LACP is on but nothing is negotiated. */
    LACP_DISABLED,              /* LACP is off (no lacp object). */
};
/* "negotiated", "configured", "off". */
const char *lacp_status_description(enum lacp_status);

struct lacp_settings {
    const char *name;           /* The bond's (its port's) name. */
    struct eth_addr id;         /* System ID: must not be zero. */
    uint16_t priority;          /* System priority. */
    bool active;                /* Active (else passive) mode. */
    bool fast;                  /* Ask the partner for fast (1 s) LACPDUs;
                                 * also sets our receive timeout. */
    bool fallback_ab;           /* lacp-fallback-ab: see "may_enable". */
};

struct lacp_member_settings {
    const char *name;           /* The interface's name. */
    uint16_t id;                /* Port ID. */
    uint16_t priority;          /* Port priority. */
    uint16_t key;               /* Aggregation key, 0: the port ID of the
                                 * bond's first member. */
    struct eth_addr mac;        /* Source address of its LACPDUs. */
};

/* Registers lacp/show and lacp/show-stats (main thread, at start-up, so
 * that they answer before any object exists; lacp_create() makes sure of
 * it too). */
void lacp_init(void);

/* Creation, references, settings.  A new object does nothing until
 * lacp_configure() succeeds. */
struct lacp *lacp_create(void);
struct lacp *lacp_ref(const struct lacp *);
void lacp_unref(struct lacp *);
/* Applies S; returns false, changing nothing (and logging why), if S is
 * invalid (no name, a zero system ID). */
bool lacp_configure(struct lacp *, const struct lacp_settings *s);
bool lacp_is_active(const struct lacp *);

/* CB(AUX) is called after any call that changed some member's visible
 * state (from the thread that made the call, without lacp_mutex held).
 * NULL: none. */
void lacp_set_change_callback(struct lacp *, void (*cb)(void *aux),
                              void *aux);

/* Members.  Registering an already registered MEMBER_AUX updates its
 * settings (a new port ID, priority or key expires its partner, when
 * active or negotiated, to renegotiate quickly).  A new member's carrier
 * is down until lacp_member_carrier_changed() says otherwise. */
void lacp_member_register(struct lacp *, void *member_aux,
                          const struct lacp_member_settings *);
void lacp_member_unregister(struct lacp *, const void *member_aux);
/* The member's link went up or down (LACP is nil for convenience). */
void lacp_member_carrier_changed(struct lacp *, const void *member_aux,
                                 bool carrier_up);

/* Receives the Ethernet frame FRAME (LEN bytes) that arrived on
 * MEMBER_AUX and that lacp_recognizes() accepted.  A malformed or short
 * PDU is counted (rx errors) and dropped; a marker PDU is counted; a PDU
 * on a member whose carrier is down is dropped (and connectivity_seq
 * moves, so that the caller re-reads the carrier).  Returns whether some
 * member's visible state changed.  Afterwards lacp_next_deadline() tells
 * when lacp_run() is next due (at once, if a reply is due). */
bool lacp_process_packet(struct lacp *, const void *member_aux,
                         const void *frame, size_t len);

/* Transmission callback: send FRAME (LEN bytes, a whole Ethernet frame
 * from lacp_compose_pdu()) out of MEMBER_AUX. */
typedef void lacp_send_cb(void *member_aux, const void *frame, size_t len,
                          void *cb_aux);

/* Does what is due at NOW: expires partners whose time is up, recomputes
 * attachment, transmits what is due through SEND (with CB_AUX).  Returns
 * the next deadline, LLONG_MAX if none. */
long long int lacp_run(struct lacp *, long long int now, lacp_send_cb *send,
                       void *cb_aux);
/* When lacp_run() is next due: LLONG_MIN if at once (something changed
 * since it last ran), LLONG_MAX if never. */
long long int lacp_next_deadline(const struct lacp *);

/* Whether FLOW is an LACP (slow protocols) frame, which a port with LACP
 * consumes.  Sets in WC (if nonnull) the fields it looked at. */
bool lacp_recognizes(const struct flow *, struct flow_wildcards *wc);

/* State for bonds.  LACP may be nil: lacp_status() is then
 * LACP_DISABLED, lacp_member_may_enable() true, and the other getters
 * false. */
enum lacp_status lacp_status(const struct lacp *);
bool lacp_member_may_enable(const struct lacp *, const void *member_aux);
/* Whether the member's partner information is not defaulted (current or
 * expired): the Interface's lacp_current. */
bool lacp_member_is_current(const struct lacp *, const void *member_aux);

/* A member's information and counters. */
struct lacp_member_stats {
    struct lacp_info actor;     /* What we send. */
    struct lacp_info partner;   /* What we last heard (zero: defaulted). */
    bool current, expired, defaulted, attached, may_enable, carrier_up;
    uint32_t rx_pdus;           /* Every frame received, bad ones too. */
    uint32_t rx_errors;         /* Malformed or short. */
    uint32_t rx_markers;        /* Marker PDUs. */
    uint32_t tx_pdus;
    uint32_t link_expired;      /* Times current -> expired. */
    uint32_t link_defaulted;    /* Times expired -> defaulted. */
    uint32_t carrier_changed;
};
/* Fills *STATS; false if MEMBER_AUX is not registered. */
bool lacp_get_member_stats(const struct lacp *, const void *member_aux,
                           struct lacp_member_stats *stats);

/* Check and clear: whether MEMBER_AUX's visible state changed since it
 * was last taken. */
bool lacp_member_take_changed(struct lacp *, const void *member_aux);
/* Takes every changed member: stores in *AUXES a malloc'd array (the
 * caller frees it) of their aux pointers and returns how many. */
size_t lacp_take_changed_members(struct lacp *, void ***auxes);

/* lacp/show and lacp/show-stats output for the object named NAME, or for
 * all (in creation order) if NAME is null.  Returns false, appending
 * nothing, if there is no object named NAME. */
bool lacp_show(struct ds *, const char *name);
bool lacp_show_stats(struct ds *, const char *name);

#endif /* lacp.h */
