#include <config.h>
#include "poll-loop.h"

#include <errno.h>
#include <event2/event.h>
#include <event2/thread.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "coverage.h"
#include "list.h"
#include "seq.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(poll_loop);

COVERAGE_DEFINE(poll_wakeup);
COVERAGE_DEFINE(poll_zero_timeout);

/* A thread's loop.  Only its own thread touches it, except wake_event, which
 * other threads activate through poll_loop_wake(); libevent's own locking
 * (evthread_use_pthreads) makes that safe. */
struct poll_loop {
    struct event_base *base;

    /* Never added, only activated, so it costs the base nothing while idle;
     * persistent so that it can be activated again after it ran. */
    struct event *wake_event;

    /* The earliest deadline asked for in this iteration (LLONG_MAX: none),
     * armed in poll_block() on one reusable timer event. */
    long long int timer_when;
    struct event *timer_event;

    /* Events for poll_fd_wait(), recycled across iterations so that a steady
     * loop does not allocate: fd_events[0 .. n_fd_waits - 1] are registered
     * in this iteration, the rest of the n_fd_events are idle spares. */
    struct event **fd_events;
    size_t n_fd_waits;
    size_t n_fd_events;
    size_t allocated_fd_events;

    /* Every poll_watch of this loop, so that destroying the loop can
     * detach them (their owners may outlive it). */
    struct ovs_list watches;

    /* Set by poll_immediate_wake(); 'immediate_where' is the first caller's
     * location, for the debug log. */
    bool immediate;
    const char *immediate_where;
};

static pthread_key_t loop_key;
static pthread_once_t loop_once = PTHREAD_ONCE_INIT;
static __thread struct poll_loop *current_loop;

static void loop_destroy(struct poll_loop *);

static void
loop_key_destructor(void *loop)
{
    /* At thread exit, glibc has already cleared the key; clear the fast
     * pointer too so nothing in the destructors below finds a dying loop. */
    current_loop = NULL;
    loop_destroy(loop);
}

/* libevent's own diagnostics go to our log (module "libevent") instead of
 * straight to stderr, so that they obey vlog/set and reach the log file. */
VLOG_DEFINE_MODULE(libevent);

static void
libevent_log_cb(int severity, const char *msg)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);
    enum vlog_level level = (severity >= EVENT_LOG_ERR ? VLL_ERR
                             : severity == EVENT_LOG_WARN ? VLL_WARN
                             : VLL_DBG);
    if (vlog_is_enabled(&VLM_libevent, level)) {
        vlog_rate_limit(&VLM_libevent, level, &rl, "%s", msg);
    }
}

static void
loop_init_once(void)
{
    event_set_log_callback(libevent_log_cb);

    /* Must precede the creation of every base, or the bases would have no
     * locks and could not be woken from another thread. */
    if (evthread_use_pthreads()) {
        ovs_abort(0, "evthread_use_pthreads failed");
    }
    int error = pthread_key_create(&loop_key, loop_key_destructor);
    if (error) {
        ovs_abort(error, "pthread_key_create failed");
    }
}

static void
wake_cb(evutil_socket_t fd OVS_UNUSED, short int what OVS_UNUSED,
        void *loop OVS_UNUSED)
{
    /* Running at all is the point: a callback that ran ends
     * event_base_loop(EVLOOP_ONCE). */
}

struct poll_watch {
    struct ovs_list node;       /* In loop->watches. */
    struct poll_loop *loop;     /* NULL once the loop is gone. */
    struct event *event;        /* One-shot: inactive once fired. */
    int fd;
    short int events;           /* POLLIN and/or POLLOUT. */
    bool ready;                 /* Fired and not rearmed since. */
};

static struct poll_loop *get_loop(void);

static void
watch_cb(evutil_socket_t fd OVS_UNUSED, short int what OVS_UNUSED,
         void *watch_)
{
    struct poll_watch *watch = watch_;
    watch->ready = true;
}

struct poll_watch *
poll_watch_create(int fd, short int events)
{
    struct poll_loop *loop = get_loop();
    short int what = ((events & POLLIN ? EV_READ : 0)
                      | (events & POLLOUT ? EV_WRITE : 0));
    ovs_assert(fd >= 0 && what);

    struct poll_watch *watch = xzalloc(sizeof *watch);
    watch->loop = loop;
    watch->fd = fd;
    watch->events = events;
    watch->event = event_new(loop->base, fd, what, watch_cb, watch);
    if (!watch->event) {
        ovs_abort(0, "event_new failed");
    }
    if (event_add(watch->event, NULL)) {
        /* As in poll_fd_wait(): an fd epoll refuses is always "ready". */
        watch->ready = true;
    }
    ovs_list_push_back(&loop->watches, &watch->node);
    return watch;
}

void
poll_watch_destroy(struct poll_watch *watch)
{
    if (watch) {
        if (watch->loop) {
            ovs_list_remove(&watch->node);
            event_free(watch->event);
        }
        free(watch);
    }
}

static bool
watch_is_mine(const struct poll_watch *watch)
{
    return watch->loop && watch->loop == current_loop;
}

bool
poll_watch_may_be_ready(const struct poll_watch *watch)
{
    return watch->ready || !watch_is_mine(watch);
}

void
poll_watch_rearm(struct poll_watch *watch)
{
    if (watch->ready && watch_is_mine(watch)) {
        watch->ready = event_add(watch->event, NULL) != 0;
    }
}

void
poll_watch_wait(struct poll_watch *watch)
{
    if (!watch_is_mine(watch)) {
        poll_fd_wait(watch->fd, watch->events);
    } else if (watch->ready) {
        poll_immediate_wake();
    }
}

static struct poll_loop *
loop_create(void)
{
    pthread_once(&loop_once, loop_init_once);

    struct poll_loop *loop = xzalloc(sizeof *loop);
    loop->base = event_base_new();
    if (!loop->base) {
        ovs_abort(0, "event_base_new failed");
    }
    loop->wake_event = event_new(loop->base, -1, EV_PERSIST, wake_cb, loop);
    loop->timer_event = evtimer_new(loop->base, wake_cb, loop);
    if (!loop->wake_event || !loop->timer_event) {
        ovs_abort(0, "event_new failed");
    }
    loop->timer_when = LLONG_MAX;
    ovs_list_init(&loop->watches);

    pthread_setspecific(loop_key, loop);
    return loop;
}

static void
loop_destroy(struct poll_loop *loop)
{
    if (!loop) {
        return;
    }

    /* First drop this thread's seq waits: they point to this loop, and once
     * seq_woke() returns no other thread can reach it to wake it. */
    seq_woke();

    struct poll_watch *watch;
    LIST_FOR_EACH_POP (watch, node, &loop->watches) {
        event_free(watch->event);
        watch->event = NULL;
        watch->loop = NULL;
    }

    for (size_t i = 0; i < loop->n_fd_events; i++) {
        event_free(loop->fd_events[i]);
    }
    free(loop->fd_events);
    event_free(loop->timer_event);
    event_free(loop->wake_event);
    event_base_free(loop->base);
    free(loop);
}

static struct poll_loop *
get_loop(void)
{
    struct poll_loop *loop = current_loop;
    if (OVS_UNLIKELY(!loop)) {
        loop = current_loop = loop_create();
    }
    return loop;
}

struct event_base *
poll_loop_base(void)
{
    return get_loop()->base;
}

struct poll_loop *
poll_loop_self(void)
{
    return get_loop();
}

void
poll_loop_wake(struct poll_loop *loop)
{
    /* Thread-safe in libevent: queues the event as active and, if the owner
     * is blocked in epoll, writes to the base's notification pipe.  If the
     * owner is not blocked, the event stays active and its next
     * event_base_loop() returns at once, so the wake is never lost. */
    event_active(loop->wake_event, EV_READ, 0);
}

void
poll_loop_destroy_self(void)
{
    struct poll_loop *loop = current_loop;
    if (loop) {
        current_loop = NULL;
        pthread_setspecific(loop_key, NULL);
        loop_destroy(loop);
    }
}

void
poll_fd_wait(int fd, short int events)
{
    struct poll_loop *loop = get_loop();
    short int what = ((events & POLLIN ? EV_READ : 0)
                      | (events & POLLOUT ? EV_WRITE : 0));

    ovs_assert(fd >= 0);
    ovs_assert(what);

    struct event *ev;
    if (loop->n_fd_waits < loop->n_fd_events) {
        ev = loop->fd_events[loop->n_fd_waits];
        event_assign(ev, loop->base, fd, what, wake_cb, loop);
    } else {
        if (loop->n_fd_events >= loop->allocated_fd_events) {
            loop->fd_events = x2nrealloc(loop->fd_events,
                                         &loop->allocated_fd_events,
                                         sizeof *loop->fd_events);
        }
        ev = event_new(loop->base, fd, what, wake_cb, loop);
        if (!ev) {
            ovs_abort(0, "event_new failed");
        }
        loop->fd_events[loop->n_fd_events++] = ev;
    }
    loop->n_fd_waits++;

    if (event_add(ev, NULL)) {
        /* epoll refuses some fds that poll() would report at once (regular
         * files), and a closed fd is a caller bug that poll() would report
         * as POLLNVAL.  Either way, poll() would not block: neither do we. */
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
        VLOG_DBG_RL(&rl, "cannot wait on fd %d (%s), waking at once "
                    "(libevent logs the cause as a warning)",
                    fd, ovs_strerror(errno));
        poll_immediate_wake_at("poll_fd_wait");
    }
}

void
poll_timer_wait_until(long long int when)
{
    struct poll_loop *loop = get_loop();
    if (when < loop->timer_when) {
        loop->timer_when = when;
    }
}

void
poll_timer_wait(long long int msec)
{
    long long int now = time_msec();
    long long int when;

    if (msec <= 0) {
        when = LLONG_MIN;
    } else if (msec >= LLONG_MAX - now) {
        when = LLONG_MAX;
    } else {
        when = now + msec;
    }
    poll_timer_wait_until(when);
}

void
poll_immediate_wake_at(const char *where)
{
    struct poll_loop *loop = get_loop();
    if (!loop->immediate) {
        loop->immediate = true;
        loop->immediate_where = where;
    }
}

/* Without the macro, for callers that take the function's address. */
#undef poll_immediate_wake
void
poll_immediate_wake(void)
{
    poll_immediate_wake_at(NULL);
}

/* Turns the iteration's earliest deadline into something that ends the
 * block: an immediate wake if it has passed, a real-time timer if the clock
 * runs, or a wait on the warp seq if the clock is stopped (a real-time timer
 * would then fire too early or, once time stops for good, mean nothing). */
static void
arm_timer(struct poll_loop *loop)
{
    if (loop->timer_when == LLONG_MAX) {
        return;
    }

    /* Read the warp seq before the clock: a warp that lands after we looked
     * at the clock then changes the value we wait on, and wakes us. */
    struct seq *warp_seq = timeval_warp_seq();
    uint64_t warp_value = seq_read(warp_seq);
    long long int now = time_msec();

    if (loop->timer_when <= now) {
        poll_immediate_wake_at("timer expired");
    } else if (time_is_stopped()) {
        seq_wait(warp_seq, warp_value);
    } else {
        long long int msec = loop->timer_when - now;
        struct timeval tv = {
            .tv_sec = msec / 1000,
            .tv_usec = (msec % 1000) * 1000,
        };
        if (evtimer_add(loop->timer_event, &tv)) {
            ovs_abort(0, "evtimer_add failed");
        }
    }
}

void
poll_block(void)
{
    struct poll_loop *loop = get_loop();

    /* Coverage keeps no timer of its own; sampling here costs one time check
     * per wake-up and lets an idle thread stay asleep. */
    coverage_run();

    arm_timer(loop);

    bool immediate = loop->immediate;
    if (immediate) {
        VLOG_DBG("wakeup at once: poll_immediate_wake() from %s",
                 loop->immediate_where ? loop->immediate_where : "(unknown)");
    }

    /* NO_EXIT_ON_EMPTY: with only seq waits (or nothing) registered the base
     * has no pending events, yet we must still sleep until woken. */
    int flags = EVLOOP_NO_EXIT_ON_EMPTY | (immediate ? EVLOOP_NONBLOCK
                                                      : EVLOOP_ONCE);
    timeval_poll_sleeping();
    if (event_base_loop(loop->base, flags) < 0) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
        VLOG_ERR_RL(&rl, "event_base_loop failed (%s)", ovs_strerror(errno));
    }
    timeval_poll_awake();

    /* Forget this iteration's waits.  Fired one-shot events are already
     * inactive; event_del() is harmless on them and needed on the rest. */
    for (size_t i = 0; i < loop->n_fd_waits; i++) {
        event_del(loop->fd_events[i]);
    }
    loop->n_fd_waits = 0;
    event_del(loop->timer_event);
    loop->timer_when = LLONG_MAX;
    loop->immediate = false;
    loop->immediate_where = NULL;
    seq_woke();

    COVERAGE_INC(poll_wakeup);
    if (immediate) {
        COVERAGE_INC(poll_zero_timeout);
    }
}
