/* reconnect: when to connect, probe and give up on a connection.
 *
 * This is a pure state machine: it never touches a socket or reads the clock.
 * Its owner (jsonrpc_session, the OpenFlow connection manager, ...) tells it
 * what happened, passing the current time from time_msec() as NOW, and asks
 * it what to do next:
 *
 *     action = reconnect_run(fsm, time_msec());
 *       RECONNECT_CONNECT     start connecting (active) or listening
 *                             (passive), then report reconnect_connecting() /
 *                             reconnect_listening() and later
 *                             reconnect_connected() or
 *                             reconnect_connect_failed() /
 *                             reconnect_listen_error()
 *       RECONNECT_DISCONNECT  drop the connection (or attempt), then report
 *                             reconnect_disconnected()
 *       RECONNECT_PROBE       send an inactivity probe (e.g. JSON-RPC "echo")
 *       0                     nothing to do
 *     reconnect_wait(fsm, time_msec());   // timer for the next action
 *
 * While connected the owner reports reconnect_activity() whenever data
 * arrives.  An owner may also report reconnect_receive_attempted() whenever
 * it tries to read: from its first such call on, a probe or probe timeout is
 * only acted on once a read attempt was made after the deadline, so a process
 * that was too busy to read is not mistaken for a dead peer.  Owners that
 * never call it (or call it with LLONG_MAX) get plain timer behaviour.
 *
 * States (reconnect_get_state_name() gives these names for logs):
 *
 *     VOID        disabled, or out of tries: does nothing
 *     BACKOFF     waiting before the next attempt
 *     CONNECTING  an active connection attempt is in progress
 *     LISTENING   passive: listening for a connection
 *     ACTIVE      connected, and data arrived recently
 *     IDLE        connected, no data for a probe interval: a probe was sent;
 *                 another interval without data means disconnect
 *     RECONNECT   reconnect_force_reconnect() was called: disconnect now
 *
 * Backoff: the first attempt after reconnect_enable() is immediate.  After
 * each failed attempt (or a connection that died before being useful for at
 * least the current backoff) the wait doubles, starting at min_backoff
 * (default 1000 ms) and capped at max_backoff (default 8000 ms).  A
 * connection that stayed up with activity for at least the current backoff
 * resets it, so the next attempt after it drops waits only min_backoff
 * (passive: relistens at once).
 *
 * Probes: with a nonzero probe interval (default 5000 ms; values below
 * 1000 ms are raised to 1000 ms) an ACTIVE connection without data for the
 * interval turns IDLE and reconnect_run() returns RECONNECT_PROBE once; still
 * no data after another interval returns RECONNECT_DISCONNECT.
 *
 * The fsm owns a copy of its name.  Not thread-safe: one owner thread.
 */
#ifndef RECONNECT_H
#define RECONNECT_H 1

#include <stdbool.h>

struct reconnect;

enum reconnect_action {
    RECONNECT_CONNECT = 1,
    RECONNECT_DISCONNECT,
    RECONNECT_PROBE
};

#define RECONNECT_DEFAULT_MIN_BACKOFF 1000
#define RECONNECT_DEFAULT_MAX_BACKOFF 8000
#define RECONNECT_DEFAULT_PROBE_INTERVAL 5000

/* Creates a disabled fsm (state VOID) with the default settings. */
struct reconnect *reconnect_create(long long int now);
void reconnect_destroy(struct reconnect *);

/* Quiet fsms log state changes at DBG instead of INFO/WARN. */
void reconnect_set_quiet(struct reconnect *, bool quiet);
const char *reconnect_get_name(const struct reconnect *);
void reconnect_set_name(struct reconnect *, const char *name);

int reconnect_get_min_backoff(const struct reconnect *);
int reconnect_get_max_backoff(const struct reconnect *);
/* MIN_BACKOFF <= 0 selects the default; MAX_BACKOFF is raised to at least
 * MIN_BACKOFF. */
void reconnect_set_backoff(struct reconnect *, int min_backoff,
                           int max_backoff);
/* The first N attempts after a connection happen without backoff. */
void reconnect_set_backoff_free_tries(struct reconnect *, unsigned int n);

int reconnect_get_probe_interval(const struct reconnect *);
/* 0 disables probing. */
void reconnect_set_probe_interval(struct reconnect *, int probe_interval);

/* Limits the number of connection attempts (default UINT_MAX, unlimited).
 * After the last allowed attempt fails or its connection ends, the fsm goes
 * VOID and stays there. */
void reconnect_set_max_tries(struct reconnect *, unsigned int max_tries);
unsigned int reconnect_get_max_tries(const struct reconnect *);

bool reconnect_is_passive(const struct reconnect *);
void reconnect_set_passive(struct reconnect *, bool passive,
                           long long int now);

bool reconnect_is_enabled(const struct reconnect *);
void reconnect_enable(struct reconnect *, long long int now);
void reconnect_disable(struct reconnect *, long long int now);

void reconnect_force_reconnect(struct reconnect *, long long int now);
/* Makes the current BACKOFF wait end now (e.g. the user asked to retry). */
void reconnect_skip_backoff(struct reconnect *, long long int now);
/* Forgets accumulated backoff: the next wait is min_backoff again. */
void reconnect_reset_backoff(struct reconnect *);

bool reconnect_is_connected(const struct reconnect *);
/* Milliseconds since the last successful connection / last disconnection
 * (UINT_MAX if it never happened). */
unsigned int reconnect_get_last_connect_elapsed(const struct reconnect *,
                                                long long int now);
unsigned int reconnect_get_last_disconnect_elapsed(const struct reconnect *,
                                                   long long int now);

/* Events reported by the owner.  ERROR is a positive errno value, EOF for an
 * orderly close, or 0 for a disconnect the owner chose. */
void reconnect_disconnected(struct reconnect *, long long int now, int error);
void reconnect_connecting(struct reconnect *, long long int now);
void reconnect_listening(struct reconnect *, long long int now);
void reconnect_listen_error(struct reconnect *, long long int now, int error);
void reconnect_connected(struct reconnect *, long long int now);
void reconnect_connect_failed(struct reconnect *, long long int now,
                              int error);
void reconnect_activity(struct reconnect *, long long int now);
void reconnect_receive_attempted(struct reconnect *, long long int now);

enum reconnect_action reconnect_run(struct reconnect *, long long int now);
/* Registers a poll timer for the next action's deadline (if any). */
void reconnect_wait(struct reconnect *, long long int now);
/* Milliseconds until the next action's deadline (0 if due), -1 if none. */
int reconnect_timeout(struct reconnect *, long long int now);

const char *reconnect_get_state_name(const struct reconnect *);

struct reconnect_stats {
    /* All times and durations in milliseconds. */
    long long int creation_time;      /* When the fsm was created. */
    long long int last_activity;      /* Last reconnect_activity(). */
    long long int last_connected;     /* Last reconnect_connected(). */
    long long int last_disconnected;  /* Last reconnect_disconnected(). */
    int backoff;                      /* Current backoff. */

    unsigned int seqno;               /* Changes on connect and disconnect. */

    bool is_connected;
    unsigned int msec_since_connect;     /* UINT_MAX if never. */
    unsigned int msec_since_disconnect;  /* UINT_MAX if never. */
    unsigned int total_connected_duration; /* Seconds, over all sessions. */
    unsigned int n_attempted_connections;
    unsigned int n_successful_connections;

    const char *state;                /* reconnect_get_state_name(). */
    unsigned int state_elapsed;       /* Milliseconds in this state. */
};

void reconnect_get_stats(const struct reconnect *, long long int now,
                         struct reconnect_stats *);

#endif /* reconnect.h */
