#include <config.h>
#include "reconnect.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "poll-loop.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(reconnect);

/* Bit flags so that sets of states can be tested in one expression. */
enum state {
    S_VOID = 1 << 0,
    S_BACKOFF = 1 << 1,
    S_CONNECTING = 1 << 2,
    S_LISTENING = 1 << 3,
    S_ACTIVE = 1 << 4,
    S_IDLE = 1 << 5,
    S_RECONNECT = 1 << 6
};

#define S_CONNECTED (S_ACTIVE | S_IDLE)

struct reconnect {
    /* Settings. */
    char *name;
    int min_backoff;
    int max_backoff;
    int probe_interval;
    bool passive;
    enum vlog_level info;           /* VLL_INFO, or VLL_DBG when quiet. */
    unsigned int max_tries;         /* UINT_MAX: unlimited. */
    unsigned int backoff_free_tries;

    /* State. */
    enum state state;
    long long int state_entered;
    int backoff;
    unsigned int backoff_free_left; /* Attempts left without backoff. */
    bool was_up_before_reconnect;   /* S_RECONNECT came from S_CONNECTED. */
    bool logging_suppressed;        /* Failing at max backoff: log at DBG. */
    long long int last_activity;
    long long int last_connected;     /* LLONG_MAX if never. */
    long long int last_disconnected;  /* LLONG_MAX if never. */
    long long int last_receive_attempt;

    /* Statistics. */
    long long int creation_time;
    unsigned int seqno;
    unsigned int n_attempted_connections;
    unsigned int n_successful_connections;
    unsigned long long int total_connected_msec;
};

static const char *
state_name(enum state state)
{
    switch (state) {
    case S_VOID: return "VOID";
    case S_BACKOFF: return "BACKOFF";
    case S_CONNECTING: return "CONNECTING";
    case S_LISTENING: return "LISTENING";
    case S_ACTIVE: return "ACTIVE";
    case S_IDLE: return "IDLE";
    case S_RECONNECT: return "RECONNECT";
    }
    return "***ERROR***";
}

struct reconnect *
reconnect_create(long long int now)
{
    struct reconnect *fsm = xzalloc(sizeof *fsm);

    fsm->name = xstrdup("void");
    fsm->min_backoff = RECONNECT_DEFAULT_MIN_BACKOFF;
    fsm->max_backoff = RECONNECT_DEFAULT_MAX_BACKOFF;
    fsm->probe_interval = RECONNECT_DEFAULT_PROBE_INTERVAL;
    fsm->info = VLL_INFO;
    fsm->max_tries = UINT_MAX;

    fsm->state = S_VOID;
    fsm->state_entered = now;
    fsm->last_activity = now;
    fsm->last_connected = LLONG_MAX;
    fsm->last_disconnected = LLONG_MAX;
    fsm->last_receive_attempt = LLONG_MAX;

    fsm->creation_time = now;
    return fsm;
}

void
reconnect_destroy(struct reconnect *fsm)
{
    if (fsm) {
        free(fsm->name);
        free(fsm);
    }
}

void
reconnect_set_quiet(struct reconnect *fsm, bool quiet)
{
    fsm->info = quiet ? VLL_DBG : VLL_INFO;
}

const char *
reconnect_get_name(const struct reconnect *fsm)
{
    return fsm->name;
}

void
reconnect_set_name(struct reconnect *fsm, const char *name)
{
    free(fsm->name);
    fsm->name = xstrdup(name ? name : "void");
}

int
reconnect_get_min_backoff(const struct reconnect *fsm)
{
    return fsm->min_backoff;
}

int
reconnect_get_max_backoff(const struct reconnect *fsm)
{
    return fsm->max_backoff;
}

void
reconnect_set_backoff(struct reconnect *fsm, int min_backoff, int max_backoff)
{
    fsm->min_backoff = (min_backoff > 0 ? min_backoff
                        : RECONNECT_DEFAULT_MIN_BACKOFF);
    fsm->max_backoff = (max_backoff > 0 ? max_backoff
                        : RECONNECT_DEFAULT_MAX_BACKOFF);
    if (fsm->max_backoff < fsm->min_backoff) {
        fsm->max_backoff = fsm->min_backoff;
    }
    if (fsm->state == S_BACKOFF && fsm->backoff > fsm->max_backoff) {
        fsm->backoff = fsm->max_backoff;
    }
}

void
reconnect_set_backoff_free_tries(struct reconnect *fsm, unsigned int n)
{
    fsm->backoff_free_tries = n;
    fsm->backoff_free_left = n;
}

int
reconnect_get_probe_interval(const struct reconnect *fsm)
{
    return fsm->probe_interval;
}

void
reconnect_set_probe_interval(struct reconnect *fsm, int probe_interval)
{
    /* Sub-second probing would mostly measure our own scheduling jitter. */
    fsm->probe_interval = probe_interval > 0 ? MAX(1000, probe_interval) : 0;
}

void
reconnect_set_max_tries(struct reconnect *fsm, unsigned int max_tries)
{
    fsm->max_tries = max_tries;
}

unsigned int
reconnect_get_max_tries(const struct reconnect *fsm)
{
    return fsm->max_tries;
}

static void
transition(struct reconnect *fsm, long long int now, enum state state)
{
    bool was_connected = (fsm->state & S_CONNECTED) != 0;
    bool is_connected = (state & S_CONNECTED) != 0;

    if (was_connected && !is_connected) {
        fsm->total_connected_msec += now - fsm->last_connected;
        fsm->last_disconnected = now;
        fsm->seqno++;
    } else if (!was_connected && is_connected) {
        fsm->last_connected = now;
        fsm->n_successful_connections++;
        fsm->seqno++;
    }
    if (state == S_CONNECTING) {
        fsm->n_attempted_connections++;
    }

    VLOG_DBG("%s: entering %s", fsm->name, state_name(state));
    fsm->state = state;
    fsm->state_entered = now;
}

/* Uses up one try, if any is left. */
static bool
may_retry(struct reconnect *fsm)
{
    if (fsm->max_tries == 0) {
        return false;
    }
    if (fsm->max_tries != UINT_MAX) {
        fsm->max_tries--;
    }
    return true;
}

bool
reconnect_is_passive(const struct reconnect *fsm)
{
    return fsm->passive;
}

void
reconnect_set_passive(struct reconnect *fsm, bool passive, long long int now)
{
    if (fsm->passive != passive) {
        fsm->passive = passive;
        /* An attempt of the old kind is pointless now: start over. */
        if (fsm->state & (S_CONNECTING | S_LISTENING)) {
            transition(fsm, now, S_BACKOFF);
        }
    }
}

bool
reconnect_is_enabled(const struct reconnect *fsm)
{
    return fsm->state != S_VOID;
}

void
reconnect_enable(struct reconnect *fsm, long long int now)
{
    if (fsm->state == S_VOID && may_retry(fsm)) {
        fsm->backoff = 0;
        transition(fsm, now, S_BACKOFF);
    }
}

void
reconnect_disable(struct reconnect *fsm, long long int now)
{
    if (fsm->state != S_VOID) {
        transition(fsm, now, S_VOID);
    }
}

void
reconnect_force_reconnect(struct reconnect *fsm, long long int now)
{
    if (fsm->state & (S_CONNECTING | S_LISTENING | S_CONNECTED)) {
        fsm->was_up_before_reconnect = (fsm->state & S_CONNECTED) != 0;
        transition(fsm, now, S_RECONNECT);
    }
}

void
reconnect_skip_backoff(struct reconnect *fsm, long long int now)
{
    if (fsm->state == S_BACKOFF) {
        fsm->backoff = 0;
        fsm->state_entered = now;
    }
}

void
reconnect_reset_backoff(struct reconnect *fsm)
{
    fsm->backoff = 0;
    fsm->logging_suppressed = false;
    /* In BACKOFF, a zero backoff also ends the wait already running. */
}

bool
reconnect_is_connected(const struct reconnect *fsm)
{
    return (fsm->state & S_CONNECTED) != 0;
}

static unsigned int
elapsed(long long int since, long long int now)
{
    if (since == LLONG_MAX) {
        return UINT_MAX;
    }
    long long int msec = now - since;
    return msec < 0 ? 0 : msec >= UINT_MAX ? UINT_MAX - 1 : msec;
}

unsigned int
reconnect_get_last_connect_elapsed(const struct reconnect *fsm,
                                   long long int now)
{
    return elapsed(fsm->last_connected, now);
}

unsigned int
reconnect_get_last_disconnect_elapsed(const struct reconnect *fsm,
                                      long long int now)
{
    return elapsed(fsm->last_disconnected, now);
}

static const char *
error_text(int error)
{
    return error == EOF ? "connection closed by peer" : ovs_strerror(error);
}

static void
grow_backoff(struct reconnect *fsm)
{
    if (fsm->backoff_free_left > 0) {
        fsm->backoff_free_left--;
        fsm->backoff = 0;
        return;
    }

    if (fsm->backoff < fsm->min_backoff) {
        fsm->backoff = fsm->min_backoff;
    } else if (fsm->backoff >= fsm->max_backoff / 2) {
        if (fsm->backoff == fsm->max_backoff && !fsm->logging_suppressed) {
            VLOG(fsm->info, "%s: continuing to reconnect in the background "
                 "but suppressing further logging", fsm->name);
            fsm->logging_suppressed = true;
        }
        fsm->backoff = fsm->max_backoff;
    } else {
        fsm->backoff *= 2;
    }
}

void
reconnect_disconnected(struct reconnect *fsm, long long int now, int error)
{
    if (fsm->state & (S_VOID | S_BACKOFF)) {
        return;
    }

    enum vlog_level level = fsm->logging_suppressed ? VLL_DBG : fsm->info;
    bool was_up = ((fsm->state & S_CONNECTED)
                   || (fsm->state == S_RECONNECT
                       && fsm->was_up_before_reconnect));

    if (fsm->state & S_CONNECTED) {
        if (error > 0) {
            VLOG(fsm->info == VLL_INFO ? VLL_WARN : VLL_DBG,
                 "%s: connection dropped (%s)", fsm->name,
                 ovs_strerror(error));
        } else if (error == EOF) {
            VLOG(fsm->info, "%s: connection closed by peer", fsm->name);
        } else {
            VLOG(fsm->info, "%s: connection closed", fsm->name);
        }
    } else if (fsm->state == S_LISTENING) {
        VLOG(fsm->info == VLL_INFO ? VLL_WARN : VLL_DBG,
             "%s: error listening for connections (%s)", fsm->name,
             error_text(error));
    } else if (fsm->state == S_CONNECTING) {
        VLOG(level, "%s: connection attempt failed (%s)", fsm->name,
             error ? error_text(error) : "timed out");
    }

    /* A connection that carried data for at least the current backoff was
     * worth having: start the backoff over.  One that died at once is
     * treated like a failed attempt, so a peer that accepts and immediately
     * hangs up cannot make us reconnect in a tight loop. */
    if (was_up
        && (fsm->passive
            || fsm->last_activity - fsm->last_connected >= fsm->backoff)) {
        fsm->backoff = fsm->passive ? 0 : fsm->min_backoff;
        fsm->backoff_free_left = fsm->backoff_free_tries;
        fsm->logging_suppressed = false;
    } else {
        grow_backoff(fsm);
    }
    if (fsm->backoff && !fsm->logging_suppressed) {
        VLOG(fsm->info, "%s: waiting %.3g seconds before %s", fsm->name,
             fsm->backoff / 1000.0,
             fsm->passive ? "trying to listen again" : "reconnect");
    }

    transition(fsm, now, may_retry(fsm) ? S_BACKOFF : S_VOID);
}

void
reconnect_connecting(struct reconnect *fsm, long long int now)
{
    if (fsm->state != S_CONNECTING) {
        VLOG(fsm->logging_suppressed ? VLL_DBG : fsm->info,
             "%s: %s...", fsm->name,
             fsm->passive ? "listening" : "connecting");
        transition(fsm, now, S_CONNECTING);
    }
}

void
reconnect_listening(struct reconnect *fsm, long long int now)
{
    if (fsm->state != S_LISTENING) {
        VLOG(fsm->info, "%s: listening...", fsm->name);
        transition(fsm, now, S_LISTENING);
    }
}

void
reconnect_listen_error(struct reconnect *fsm, long long int now, int error)
{
    if (fsm->state == S_LISTENING) {
        reconnect_disconnected(fsm, now, error);
    }
}

void
reconnect_connected(struct reconnect *fsm, long long int now)
{
    if (!(fsm->state & S_CONNECTED)) {
        if (!fsm->passive) {
            reconnect_connecting(fsm, now);
        }
        VLOG(fsm->info, "%s: connected", fsm->name);
        fsm->last_activity = now;
        fsm->logging_suppressed = false;
        transition(fsm, now, S_ACTIVE);
    }
}

void
reconnect_connect_failed(struct reconnect *fsm, long long int now, int error)
{
    reconnect_connecting(fsm, now);
    reconnect_disconnected(fsm, now, error);
}

void
reconnect_activity(struct reconnect *fsm, long long int now)
{
    if (fsm->state == S_IDLE) {
        transition(fsm, now, S_ACTIVE);
    }
    fsm->last_activity = now;
}

void
reconnect_receive_attempted(struct reconnect *fsm, long long int now)
{
    fsm->last_receive_attempt = now;
}

/* When the current state's timer runs out, or LLONG_MAX if it has none. */
static long long int
deadline(const struct reconnect *fsm)
{
    switch (fsm->state) {
    case S_VOID:
    case S_LISTENING:
        return LLONG_MAX;

    case S_BACKOFF:
        return fsm->state_entered + fsm->backoff;

    case S_CONNECTING:
        return fsm->state_entered + MAX(1000, fsm->backoff);

    case S_ACTIVE:
        if (fsm->probe_interval) {
            return (MAX(fsm->last_activity, fsm->state_entered)
                    + fsm->probe_interval);
        }
        return LLONG_MAX;

    case S_IDLE:
        if (fsm->probe_interval) {
            return fsm->state_entered + fsm->probe_interval;
        }
        return LLONG_MAX;

    case S_RECONNECT:
        return fsm->state_entered;
    }
    return LLONG_MAX;
}

enum reconnect_action
reconnect_run(struct reconnect *fsm, long long int now)
{
    long long int when = deadline(fsm);
    if (now < when) {
        return 0;
    }

    switch (fsm->state) {
    case S_VOID:
    case S_LISTENING:
        return 0;

    case S_BACKOFF:
        return RECONNECT_CONNECT;

    case S_CONNECTING:
        return RECONNECT_DISCONNECT;

    case S_ACTIVE:
        /* Only a peer we tried to hear from and did not counts as silent:
         * if we were too busy to read, the data may be sitting unread. */
        if (fsm->last_receive_attempt < when) {
            return 0;
        }
        VLOG_DBG("%s: idle %lld seconds, sending inactivity probe",
                 fsm->name, (now - fsm->last_activity) / 1000);
        transition(fsm, now, S_IDLE);
        return RECONNECT_PROBE;

    case S_IDLE:
        if (fsm->last_receive_attempt < when) {
            return 0;
        }
        VLOG(fsm->info == VLL_INFO ? VLL_WARN : VLL_DBG,
             "%s: no response to inactivity probe after %.3g seconds, "
             "disconnecting", fsm->name, (now - fsm->state_entered) / 1000.0);
        return RECONNECT_DISCONNECT;

    case S_RECONNECT:
        return RECONNECT_DISCONNECT;
    }
    return 0;
}

void
reconnect_wait(struct reconnect *fsm, long long int now OVS_UNUSED)
{
    long long int when = deadline(fsm);
    if (when != LLONG_MAX) {
        poll_timer_wait_until(when);
    }
}

int
reconnect_timeout(struct reconnect *fsm, long long int now)
{
    long long int when = deadline(fsm);
    if (when == LLONG_MAX) {
        return -1;
    }
    long long int msec = when - now;
    return msec <= 0 ? 0 : msec >= INT_MAX ? INT_MAX : msec;
}

const char *
reconnect_get_state_name(const struct reconnect *fsm)
{
    return state_name(fsm->state);
}

void
reconnect_get_stats(const struct reconnect *fsm, long long int now,
                    struct reconnect_stats *stats)
{
    bool connected = reconnect_is_connected(fsm);
    unsigned long long int total = fsm->total_connected_msec;
    if (connected) {
        total += now - fsm->last_connected;
    }

    stats->creation_time = fsm->creation_time;
    stats->last_activity = fsm->last_activity;
    stats->last_connected = fsm->last_connected;
    stats->last_disconnected = fsm->last_disconnected;
    stats->backoff = fsm->backoff;
    stats->seqno = fsm->seqno;
    stats->is_connected = connected;
    stats->msec_since_connect = reconnect_get_last_connect_elapsed(fsm, now);
    stats->msec_since_disconnect
        = reconnect_get_last_disconnect_elapsed(fsm, now);
    stats->total_connected_duration = total / 1000;
    stats->n_attempted_connections = fsm->n_attempted_connections;
    stats->n_successful_connections = fsm->n_successful_connections;
    stats->state = state_name(fsm->state);
    stats->state_elapsed = elapsed(fsm->state_entered, now);
}
