/* stp: the IEEE 802.1D-1998 Spanning Tree Protocol, one instance per
 * bridge, as a pure state machine.
 *
 * What it is
 * ----------
 *
 * The engine keeps, for one bridge and its ports, the protocol's variables
 * (clause 8.5: designated root, root path cost, root port, per-port
 * designated bridge/port/cost, port states) and runs the procedures of
 * clause 8.6-8.8 on three kinds of event: time passing (stp_tick() or
 * stp_run()), a BPDU arriving on a port (stp_received_bpdu() or
 * stp_received_frame()), and management changes (priorities, costs,
 * timers, ports enabled or disabled).  It owns no thread, no socket and no
 * clock: the caller says how much time passed, and the engine hands the
 * BPDUs it wants sent to the caller's send_bpdu callback, synchronously,
 * from within the call that produced them.
 *
 * Time is kept in the protocol's own unit, 1/256 s (the unit of the
 * BPDU's time fields); stp_tick() converts milliseconds and carries the
 * left-over fraction to the next call, so frequent small ticks lose no
 * time.  stp_run() takes an absolute time in ms and returns when it next
 * has something to do, so the caller can sleep on a timer heap instead of
 * polling.
 *
 * Wire format
 * -----------
 *
 * A BPDU, as send_bpdu() receives it and stp_received_bpdu() takes it, is
 * the bare 802.1D BPDU: 35 bytes for a configuration BPDU, 4 for a
 * topology change notification, with no Ethernet or LLC header.  Framing
 * is the caller's, with the helpers of stp-bpdu.h: stp_compose_frame()
 * wraps a BPDU in the 802.3 frame Open vSwitch sends (destination
 * 01:80:c2:00:00:00, the port's MAC as source, length field, LLC 0x42
 * 0x42 0x03, padded to 60 bytes), stp_received_frame() unwraps one, and
 * stp_should_process_flow() recognises one in a parsed flow.
 *
 * Threads
 * -------
 *
 * None of this is thread-safe: an instance and its ports are used by one
 * thread at a time, and the caller serialises (the integration into the
 * switch will hold its own lock around every call).  Different instances
 * share nothing but the log rate limiters, so distinct bridges may run
 * concurrently on different threads.  send_bpdu() runs in the middle of
 * the engine's procedures, so it must not call back into the same
 * instance: it sends or queues the BPDU and returns.  stp_state_name(),
 * stp_role_name() and the stp-bpdu.h functions touch no instance and may
 * run anywhere.
 *
 * Memory
 * ------
 *
 * stp_create() returns an instance owned by the caller, freed with
 * stp_destroy().  Its ports (STP_MAX_PORTS of them, all disabled at first)
 * are part of it: a struct stp_port pointer is valid until the instance is
 * destroyed.  Strings returned by the name and error functions are static.
 * The BPDU passed to send_bpdu() is valid only during the call. */
#ifndef STP_H
#define STP_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "stp-bpdu.h"

/* A bridge identifier: priority in the top 16 bits, MAC in the low 48. */
typedef uint64_t stp_identifier;

#define STP_MAX_PORTS 255

#define STP_DEFAULT_BRIDGE_PRIORITY 32768
#define STP_DEFAULT_PORT_PRIORITY 128
#define STP_DEFAULT_PATH_COST 2         /* 802.1D-1998's for 10 Gb/s. */

/* Bridge timers, in ms (802.1D-1998 table 8-3 defaults). */
#define STP_DEFAULT_HELLO_TIME 2000
#define STP_DEFAULT_MAX_AGE 20000
#define STP_DEFAULT_FWD_DELAY 15000

/* Port states (clause 8.4).  Bits, so that a caller can test a set. */
enum stp_state {
    STP_DISABLED = 1 << 0,
    STP_LISTENING = 1 << 1,
    STP_LEARNING = 1 << 2,
    STP_FORWARDING = 1 << 3,
    STP_BLOCKING = 1 << 4
};

/* Port roles, as stp/show prints them. */
enum stp_role {
    STP_ROLE_ROOT,
    STP_ROLE_DESIGNATED,
    STP_ROLE_ALTERNATE,
    STP_ROLE_DISABLED
};

/* "disabled", "listening", "learning", "forwarding", "blocking". */
const char *stp_state_name(enum stp_state);
/* "root", "designated", "alternate", "disabled". */
const char *stp_role_name(enum stp_role);
/* Whether a port in STATE relays frames / learns source addresses. */
bool stp_forward_in_state(enum stp_state);
bool stp_learn_in_state(enum stp_state);

/* Asks the caller to send BPDU (LEN bytes, no framing) out of port
 * PORT_NO. */
typedef void stp_send_bpdu_func(const void *bpdu, size_t len, int port_no,
                                void *aux);

/* The bridge. */

/* Creates an instance called NAME (for log messages) with BRIDGE_ID; if
 * the top 16 bits of BRIDGE_ID are 0 the default priority is used.  All
 * ports start disabled.  The bridge believes itself root until it hears
 * better. */
struct stp *stp_create(const char *name, stp_identifier bridge_id,
                       stp_send_bpdu_func *send_bpdu, void *aux);
void stp_destroy(struct stp *);

/* Changes the MAC part (low 48 bits) of the bridge id. */
void stp_set_bridge_id(struct stp *, stp_identifier bridge_id);
/* Changes the priority part.  Returns NULL, or a static error message if
 * PRIORITY is outside 0...65535 (then nothing changes). */
const char *stp_set_bridge_priority(struct stp *, int priority);
/* Sets the timers this bridge advertises when it is root, in ms.  Returns
 * NULL, or a static error message (nothing changes) unless hello time is
 * 1-10 s, max age 6-40 s, forward delay 4-30 s, and
 * 2 * (forward delay - 1 s) >= max age >= 2 * (hello time + 1 s). */
const char *stp_set_timers(struct stp *, int hello_ms, int max_age_ms,
                           int forward_delay_ms);

/* Time.  stp_tick(): MS milliseconds have passed.  stp_run(): the time is
 * NOW (ms, any monotonic origin; the first call only sets the origin);
 * returns the time by which it must run again, LLONG_MAX if never (no
 * timer running). */
void stp_tick(struct stp *, int ms);
long long int stp_run(struct stp *, long long int now);
/* Milliseconds until the next timer expires (after the time already fed
 * in), LLONG_MAX if none runs. */
long long int stp_time_to_next(const struct stp *);

/* Queries. */
const char *stp_get_name(const struct stp *);
stp_identifier stp_get_bridge_id(const struct stp *);
stp_identifier stp_get_designated_root(const struct stp *);
bool stp_is_root_bridge(const struct stp *);
unsigned int stp_get_root_path_cost(const struct stp *);
/* The root port, NULL when the bridge is root. */
struct stp_port *stp_get_root_port(struct stp *);
/* Timers in use now (learned from the root unless this bridge is root),
 * in ms. */
int stp_get_hello_time(const struct stp *);
int stp_get_max_age(const struct stp *);
int stp_get_forward_delay(const struct stp *);
/* True once after a topology change was detected or announced by the
 * root: the caller should age out its MAC table. */
bool stp_check_and_reset_fdb_flush(struct stp *);
/* stp/tcn: acts as if this bridge had detected a topology change (the
 * root announces it, another bridge tells the root). */
void stp_detect_topology_change(struct stp *);
/* Ports whose state changed since they were last returned here, each once,
 * in the order they first changed.  Returns NULL when there is none. */
struct stp_port *stp_take_changed_port(struct stp *);

/* Ports.  PORT_NO is 0...STP_MAX_PORTS-1; the caller maps its own port
 * numbers onto these. */
struct stp_port *stp_get_port(struct stp *, int port_no);
int stp_port_no(const struct stp_port *);
struct stp *stp_port_get_stp(struct stp_port *);

/* A disabled port starts blocking (and, if it becomes root or designated,
 * listening) when enabled; disabling gives up everything learned on it. */
void stp_port_enable(struct stp_port *);
void stp_port_disable(struct stp_port *);
/* Return NULL, or a static error message if the value is out of range
 * (priority 0-255, path cost 1-65535).  A port's identifier is its
 * priority << 8 | (PORT_NO + 1), unique within the bridge by
 * construction. */
const char *stp_port_set_priority(struct stp_port *, int priority);
const char *stp_port_set_path_cost(struct stp_port *, int path_cost);
/* 802.1D's recommended path cost for a link of SPEED Mb/s. */
uint16_t stp_speed_to_path_cost(unsigned int speed_mbps);
/* Whether a port that starts or stops forwarding counts as a topology
 * change (on by default; off suits edge ports). */
void stp_port_set_change_detection(struct stp_port *, bool enabled);

enum stp_state stp_port_get_state(const struct stp_port *);
enum stp_role stp_port_get_role(const struct stp_port *);
/* The port identifier: priority << 8 | number. */
int stp_port_get_id(const struct stp_port *);
int stp_port_get_path_cost(const struct stp_port *);
bool stp_port_may_forward(const struct stp_port *);
bool stp_port_may_learn(const struct stp_port *);

struct stp_port_counters {
    uint64_t tx_bpdus;          /* BPDUs handed to send_bpdu(). */
    uint64_t rx_bpdus;          /* Valid BPDUs processed. */
    uint64_t rx_errors;         /* Malformed BPDUs or frames dropped. */
};
void stp_port_get_counters(const struct stp_port *,
                           struct stp_port_counters *);

/* Receiving.  stp_received_bpdu() takes a bare BPDU (after the LLC
 * header); stp_received_frame() a whole 802.3 frame as
 * stp_compose_frame() makes it (trailing padding allowed).  Malformed
 * input is dropped, counted in rx_errors and logged (rate-limited).
 * Nothing is done on a disabled port.  Either may call send_bpdu(). */
void stp_received_bpdu(struct stp_port *, const void *bpdu, size_t len);
void stp_received_frame(struct stp_port *, const void *frame, size_t len);

#endif /* stp.h */
