/* coverage: see coverage.h. */
#include <config.h>
#include "coverage.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "hash.h"
#include "ovs-thread.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(coverage);

/* All counters, sorted by name, and the sampling state.  Increments never
 * take the mutex; it covers the list and the rate history. */
static struct ovs_mutex coverage_mutex = OVS_MUTEX_INITIALIZER;
static struct coverage_counter *counters;

/* Index of the next 5-second slot to fill, counting slots across an hour:
 * slot % COVERAGE_MIN_AVG_LEN is its place in min[], slot /
 * COVERAGE_MIN_AVG_LEN its minute in hr[]. */
static unsigned int next_slot;
/* time_msec() at which the slot being accumulated ends; LLONG_MIN until the
 * first coverage_run(). */
static long long int slot_end = LLONG_MIN;

#define N_SLOTS_PER_HOUR (COVERAGE_MIN_AVG_LEN * COVERAGE_HR_AVG_LEN)

void
coverage_counter_register(struct coverage_counter *counter)
{
    ovs_mutex_lock(&coverage_mutex);
    struct coverage_counter **pos = &counters;
    while (*pos && strcmp((*pos)->name, counter->name) < 0) {
        pos = &(*pos)->next;
    }
    counter->next = *pos;
    *pos = counter;
    ovs_mutex_unlock(&coverage_mutex);
}

static unsigned long long int
read_total(const struct coverage_counter *c)
{
    return __atomic_load_n(&c->count, __ATOMIC_RELAXED);
}

bool
coverage_lookup(const char *name, unsigned long long int *count)
{
    bool found = false;

    ovs_mutex_lock(&coverage_mutex);
    for (const struct coverage_counter *c = counters; c; c = c->next) {
        if (!strcmp(c->name, name)) {
            *count = read_total(c);
            found = true;
            break;
        }
    }
    ovs_mutex_unlock(&coverage_mutex);
    return found;
}

unsigned long long int
coverage_read_counter(const char *name)
{
    unsigned long long int count;
    return coverage_lookup(name, &count) ? count : 0;
}

/* Stores COUNT as the events of slot SLOT for C, keeping hr[] equal to the
 * sum of the slots of each minute. */
static void
record_slot(struct coverage_counter *c, unsigned int slot,
            unsigned long long int count)
{
    unsigned int m = slot % COVERAGE_MIN_AVG_LEN;
    unsigned int h = slot / COVERAGE_MIN_AVG_LEN;

    c->min[m] = count;
    /* The first slot of a minute starts that minute afresh, dropping what
     * it held an hour ago. */
    c->hr[h] = m == 0 ? count : c->hr[h] + count;
}

void
coverage_run(void)
{
    long long int now = time_msec();

    ovs_mutex_lock(&coverage_mutex);
    if (slot_end == LLONG_MIN) {
        slot_end = now + COVERAGE_RUN_INTERVAL;
        for (struct coverage_counter *c = counters; c; c = c->next) {
            c->last_total = read_total(c);
        }
    } else if (now >= slot_end) {
        /* One or more slots ended while we were not looking.  We cannot
         * tell when the events happened, so spread them evenly. */
        unsigned long long int n_slots
            = (now - slot_end) / COVERAGE_RUN_INTERVAL + 1;
        /* Slots older than an hour would be overwritten anyway. */
        unsigned int n_recorded = MIN(n_slots, N_SLOTS_PER_HOUR);

        for (struct coverage_counter *c = counters; c; c = c->next) {
            unsigned long long int total = read_total(c);
            unsigned long long int delta = total - c->last_total;
            unsigned long long int per_slot = delta / n_slots;
            unsigned long long int extra = delta % n_slots;

            c->last_total = total;
            for (unsigned int i = 0; i < n_recorded; i++) {
                unsigned int slot = (next_slot + i) % N_SLOTS_PER_HOUR;
                bool last = i == n_recorded - 1;
                record_slot(c, slot, per_slot + (last ? extra : 0));
            }
        }
        next_slot = (next_slot + n_recorded) % N_SLOTS_PER_HOUR;
        slot_end += n_slots * COVERAGE_RUN_INTERVAL;
    }
    ovs_mutex_unlock(&coverage_mutex);
}

static unsigned long long int
sum(const unsigned long long int *array, size_t n)
{
    unsigned long long int total = 0;
    for (size_t i = 0; i < n; i++) {
        total += array[i];
    }
    return total;
}

/* Appends the report to OUT.  The caller holds coverage_mutex. */
static void
put_report(struct ds *out)
{
    unsigned int last_slot = ((next_slot + N_SLOTS_PER_HOUR - 1)
                              % COVERAGE_MIN_AVG_LEN);
    unsigned int n_never_hit = 0;
    uint32_t hash = 0;
    struct ds body = DS_EMPTY_INITIALIZER;

    for (const struct coverage_counter *c = counters; c; c = c->next) {
        unsigned long long int total = read_total(c);
        if (!total) {
            n_never_hit++;
            continue;
        }
        /* The hash identifies which set of counters has been hit, so two
         * reports can be compared at a glance. */
        hash = hash_string(c->name, hash);
        ds_put_format(&body, "%-24s %5.1f/sec %9.3f/sec %10.4f/sec   "
                      "total: %llu\n", c->name,
                      c->min[last_slot] * 1000.0 / COVERAGE_RUN_INTERVAL,
                      sum(c->min, COVERAGE_MIN_AVG_LEN) / 60.0,
                      sum(c->hr, COVERAGE_HR_AVG_LEN) / 3600.0,
                      total);
    }

    ds_put_format(out, "Event coverage, avg rate over last: %d seconds, "
                  "last minute, last hour,  hash=%08"PRIx32":\n",
                  COVERAGE_RUN_INTERVAL / 1000, hash);
    ds_put_buffer(out, body.string ? body.string : "", body.length);
    ds_put_format(out, "%u events never hit\n", n_never_hit);
    ds_destroy(&body);
}

void
coverage_show(struct ds *out)
{
    ovs_mutex_lock(&coverage_mutex);
    put_report(out);
    ovs_mutex_unlock(&coverage_mutex);
}

void
coverage_log(void)
{
    struct ds report = DS_EMPTY_INITIALIZER;
    coverage_show(&report);

    /* One log message per line keeps each within syslog's line limits. */
    char *save_ptr = NULL;
    for (char *line = strtok_r(ds_cstr(&report), "\n", &save_ptr); line;
         line = strtok_r(NULL, "\n", &save_ptr)) {
        VLOG_INFO("%s", line);
    }
    ds_destroy(&report);
}

static void
coverage_unixctl_show(struct unixctl_conn *conn, int argc OVS_UNUSED,
                      const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    struct ds report = DS_EMPTY_INITIALIZER;

    coverage_show(&report);
    unixctl_command_reply(conn, ds_cstr(&report));
    ds_destroy(&report);
}

static void
coverage_unixctl_read_counter(struct unixctl_conn *conn, int argc OVS_UNUSED,
                              const char *argv[], void *aux OVS_UNUSED)
{
    unsigned long long int count;

    if (!coverage_lookup(argv[1], &count)) {
        unixctl_command_reply_error(conn, "No such counter");
        return;
    }
    char *reply = xasprintf("%llu\n", count);
    unixctl_command_reply(conn, reply);
    free(reply);
}

void
coverage_register_unixctl(void)
{
    unixctl_command_register("coverage/show", "", 0, 0,
                             coverage_unixctl_show, NULL);
    unixctl_command_register("coverage/read-counter", "COUNTER", 1, 1,
                             coverage_unixctl_read_counter, NULL);
}
