/* rstp: a Rapid Spanning Tree engine, 802.1D-2004 clause 17 (802.1w), one
 * instance per bridge.
 *
 * Design
 * ------
 *
 * The engine is the standard's state machines and nothing else: Port
 * Receive, Port Protocol Migration, Bridge Detection, Port Transmit, Port
 * Information, Port Role Selection, Port Role Transitions, Port State
 * Transition and Topology Change (lib/rstp-sm*.c), run over the variables
 * of 17.17 to 17.20 (lib/rstp-private.h).  Every event (a received BPDU, a
 * configuration change, a port going up or down, a second of time) sets
 * those variables and then runs the machines until none of them moves, so
 * the engine is always in a settled state between calls; BPDUs it composes
 * on the way go out at once through the caller's send callback.
 *
 * It is pure and clock-driven: no threads, no time source.  The caller
 * passes NOW (ms, any monotonic clock) to rstp_run(), which ticks the
 * timers once for every whole second elapsed since the last tick (the
 * standard's timers have one-second granularity) and returns when it next
 * needs to run; the caller keeps that on a timer heap (port-protocol.h's
 * schedule) and calls nothing in between.  A bridge with no enabled port
 * needs no tick at all (LLONG_MAX).
 *
 * The engine knows ports by number (1 to RSTP_MAX_PORT_NUMBER, the low 12
 * bits of the port identifier) and finds them by hash.  Per-port work
 * happens only where the protocol itself is per port (role selection
 * compares every port's information; the one-second tick decrements every
 * enabled port's timers).  What the switch must act on comes out as
 * queues: rstp_take_changed_ports() says which ports changed role, state or
 * need a MAC flush since last asked, so an integration touches only those.
 *
 * Threads
 * -------
 *
 * Not thread-safe: every function on one bridge (and its ports) must be
 * serialised by the caller (the integration holds its own lock).  Separate
 * bridges share nothing.  The send callback runs inside the call that
 * caused the transmission and must not call back into the same bridge.
 *
 * Memory
 * ------
 *
 * rstp_create() returns a bridge the caller owns and frees with
 * rstp_destroy(), which frees its ports too.  The engine copies the name;
 * the BPDU bytes given to the send callback are the engine's, valid only
 * during the callback.  Received BPDU bytes are only read during the call.
 * Functions returning "char *" return NULL on success, else an error
 * message the caller frees; nothing was changed then. */
#ifndef RSTP_H
#define RSTP_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rstp;

/* Bridge parameters (802.1D-2004 Table 17-1, 17-2, 17-3; 7.9.2).  The
 * bridge priority and port priority go in steps; other values in range
 * are rounded down to a step. */
#define RSTP_MIN_PRIORITY 0
#define RSTP_MAX_PRIORITY 61440
#define RSTP_PRIORITY_STEP 4096
#define RSTP_DEFAULT_PRIORITY 32768

#define RSTP_MIN_PORT_PRIORITY 0
#define RSTP_MAX_PORT_PRIORITY 240
#define RSTP_PORT_PRIORITY_STEP 16
#define RSTP_DEFAULT_PORT_PRIORITY 128

#define RSTP_MIN_AGEING_TIME 10
#define RSTP_MAX_AGEING_TIME 1000000
#define RSTP_DEFAULT_AGEING_TIME 300

#define RSTP_MIN_MAX_AGE 6
#define RSTP_MAX_MAX_AGE 40
#define RSTP_DEFAULT_MAX_AGE 20

#define RSTP_MIN_FORWARD_DELAY 4
#define RSTP_MAX_FORWARD_DELAY 30
#define RSTP_DEFAULT_FORWARD_DELAY 15

#define RSTP_MIN_TRANSMIT_HOLD_COUNT 1
#define RSTP_MAX_TRANSMIT_HOLD_COUNT 10
#define RSTP_DEFAULT_TRANSMIT_HOLD_COUNT 6

#define RSTP_HELLO_TIME 2           /* Fixed (Table 17-1). */
#define RSTP_MIGRATE_TIME 3         /* Fixed (Table 17-1). */

#define RSTP_MIN_PATH_COST 1
#define RSTP_MAX_PATH_COST 200000000
#define RSTP_DEFAULT_PATH_COST 2000 /* 17.14's 10 Gb/s figure. */

#define RSTP_MAX_PORT_NUMBER 4095

/* Force Protocol Version (17.13.4). */
enum rstp_force_protocol_version {
    RSTP_FORCE_STP_COMPATIBLE = 0,
    RSTP_FORCE_RSTP = 2,
};

enum rstp_state {
    RSTP_DISABLED,
    RSTP_LEARNING,
    RSTP_FORWARDING,
    RSTP_DISCARDING,
};

enum rstp_port_role {
    RSTP_ROLE_ROOT,
    RSTP_ROLE_DESIGNATED,
    RSTP_ROLE_ALTERNATE,
    RSTP_ROLE_BACKUP,
    RSTP_ROLE_DISABLED,
};

/* "Disabled", "Learning", "Forwarding", "Discarding"; "Root", "Designated",
 * "Alternate", "Backup", "Disabled" (Open vSwitch's names). */
const char *rstp_state_name(enum rstp_state);
const char *rstp_port_role_name(enum rstp_port_role);
bool rstp_forward_in_state(enum rstp_state);
bool rstp_learn_in_state(enum rstp_state);

/* Sends the LEN bytes of BPDU (the BPDU alone: the caller frames it with
 * rstp_compose_frame()) out of port PORT_NO. */
typedef void rstp_send_bpdu_func(const void *bpdu, size_t len, int port_no,
                                 void *aux);

/* Bridge. */

/* Creates a bridge named NAME with the 48-bit bridge ADDRESS (low bits of
 * the argument) and PRIORITY, and no ports.  On a bad priority returns
 * NULL and stores an error in *ERRORP. */
struct rstp *rstp_create(const char *name, uint64_t address, int priority,
                         rstp_send_bpdu_func *, void *aux, char **errorp);
void rstp_destroy(struct rstp *);

const char *rstp_get_name(const struct rstp *);

char *rstp_set_bridge_address(struct rstp *, uint64_t address);
char *rstp_set_bridge_priority(struct rstp *, int priority);
char *rstp_set_ageing_time(struct rstp *, int seconds);
char *rstp_set_force_protocol_version(struct rstp *, int version);
char *rstp_set_max_age(struct rstp *, int seconds);
char *rstp_set_forward_delay(struct rstp *, int seconds);
char *rstp_set_transmit_hold_count(struct rstp *, int count);
int rstp_get_ageing_time(const struct rstp *);

/* Ticks the timers for each whole second since the last tick (the first
 * call only starts the clock) and returns the next time (ms) rstp_run()
 * must be called: LLONG_MAX while no port is enabled, and then the next
 * call (made once a port is enabled) starts the clock again. */
long long int rstp_run(struct rstp *, long long int now);

/* A received BPDU (the bytes after the LLC header) on PORT_NO.  A
 * malformed one, or one on a port that does not exist, is dropped and
 * counted (rstp_get_rx_errors(), and the port's error counter). */
void rstp_receive_bpdu(struct rstp *, int port_no,
                       const void *bpdu, size_t len);

/* Bridge status. */
uint64_t rstp_get_bridge_id(const struct rstp *);
uint64_t rstp_get_designated_root(const struct rstp *);
bool rstp_is_root_bridge(const struct rstp *);
uint32_t rstp_get_root_path_cost(const struct rstp *);
/* The root port's number and identifier, 0 if this bridge is the root. */
int rstp_get_root_port(const struct rstp *);
uint16_t rstp_get_root_port_id(const struct rstp *);
/* Everything 3.1's Bridge rstp_status and rstp/show report, at once. */
struct rstp_status {
    uint64_t bridge_id;
    /* The root priority vector (17.18.6): the root, this bridge's cost to
     * it, and the designated bridge and port the root port hears it from
     * (this bridge's own when it is the root). */
    uint64_t root_id, designated_id;
    uint32_t root_path_cost;
    uint16_t designated_port_id, bridge_port_id;
    int root_port;              /* Port number, 0 if this is the root. */
    /* Seconds: the times the root's BPDUs carry as this bridge uses them
     * (17.18.7 rootTimes), and this bridge's own (17.18.4). */
    int root_hello_time, root_max_age, root_forward_delay;
    int hello_time, max_age, forward_delay;
};
void rstp_get_status(const struct rstp *, struct rstp_status *);

/* Malformed BPDUs dropped, on all ports (or on no port). */
unsigned long long int rstp_get_rx_errors(const struct rstp *);
/* Whether some port needs its learned MACs flushed since last asked
 * (clears the flag; rstp_port_check_and_reset_fdb_flush() says which). */
bool rstp_check_and_reset_fdb_flush(struct rstp *);
/* Stores in *PORTS a malloc'd array, for the caller to free, of the numbers
 * of the ports whose role or state changed, or that need a flush, since
 * last asked, each once; returns how many. */
size_t rstp_take_changed_ports(struct rstp *, int **ports);

/* The bridge announces a topology change (the operator's request, as
 * when one of its ports has just become forwarding): every forwarding
 * port that is not an edge sends TC and the others flush what they
 * learned (17.31 DETECTED).  Nothing happens on a bridge with no such
 * port. */
void rstp_detect_topology_change(struct rstp *);

/* The path cost 802.1D-2004 Table 17-3 recommends for a link of MBPS
 * Mb/s (0: unknown, taken as 10 Gb/s). */
uint32_t rstp_path_cost_for_speed(unsigned long long int mbps);

/* Ports.  Ports start disabled, with the default priority and path cost,
 * admin edge off, auto edge on. */

char *rstp_add_port(struct rstp *, int port_no);
void rstp_remove_port(struct rstp *, int port_no);
bool rstp_has_port(const struct rstp *, int port_no);

char *rstp_port_set_priority(struct rstp *, int port_no, int priority);
char *rstp_port_set_path_cost(struct rstp *, int port_no, uint32_t cost);
char *rstp_port_set_admin_edge(struct rstp *, int port_no, bool admin_edge);
char *rstp_port_set_auto_edge(struct rstp *, int port_no, bool auto_edge);
/* Forces the port to check again whether its partner talks RSTP (17.19.13,
 * the "mcheck" management request). */
char *rstp_port_set_mcheck(struct rstp *, int port_no);
/* Whether the port's MAC is operational and administratively enabled
 * (17.19.18 portEnabled). */
char *rstp_port_set_enabled(struct rstp *, int port_no, bool enabled);

/* Port status; a port that does not exist reads as disabled with no
 * counts. */
enum rstp_state rstp_port_get_state(const struct rstp *, int port_no);
enum rstp_port_role rstp_port_get_role(const struct rstp *, int port_no);
uint16_t rstp_port_get_id(const struct rstp *, int port_no);
/* Whether the switch may forward frames through, or learn addresses on,
 * the port (its state is Forwarding; Learning or Forwarding). */
bool rstp_port_may_forward(const struct rstp *, int port_no);
bool rstp_port_may_learn(const struct rstp *, int port_no);
bool rstp_port_is_oper_edge(const struct rstp *, int port_no);
bool rstp_port_check_and_reset_fdb_flush(struct rstp *, int port_no);

struct rstp_port_stats {
    unsigned long long int rx_count;    /* Valid BPDUs received. */
    unsigned long long int tx_count;    /* BPDUs sent. */
    unsigned long long int error_count; /* Malformed BPDUs dropped. */
    uint32_t uptime;                    /* Seconds enabled. */
};
void rstp_port_get_stats(const struct rstp *, int port_no,
                         struct rstp_port_stats *);

/* Everything 3.1's Port rstp_status and rstp/show report about PORT_NO at
 * once; false (with *S zeroed) if there is no such port. */
struct rstp_port_status {
    uint16_t port_id;
    enum rstp_state state;
    enum rstp_port_role role;
    int priority;
    uint32_t path_cost;
    /* The port priority vector (17.19.21): the designated bridge and port
     * of its LAN and their cost to the root. */
    uint64_t designated_bridge_id;
    uint16_t designated_port_id;
    uint32_t designated_path_cost;
    struct rstp_port_stats stats;
};
bool rstp_port_get_status(const struct rstp *, int port_no,
                          struct rstp_port_status *);

#endif /* rstp.h */
