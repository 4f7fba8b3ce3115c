/* Unit tests for coverage counters: exact totals from many threads, the
 * coverage/show report and its rates on the simulated clock. */
#include <config.h>
#include "coverage.h"

#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "timeval.h"
#include "util.h"

COVERAGE_DEFINE(test_cov_alpha);
COVERAGE_DEFINE(test_cov_beta);
COVERAGE_DEFINE(test_cov_never);
COVERAGE_DEFINE(test_cov_threads);
COVERAGE_DEFINE(test_cov_rate);
COVERAGE_DEFINE(test_cov_zzz_last);

static char *
show(void)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    coverage_show(&s);
    return ds_steal_cstr(&s);
}

/* Returns a copy of the line of REPORT that reports COUNTER, or NULL. */
static char *
find_line(const char *report, const char *counter)
{
    size_t len = strlen(counter);
    for (const char *p = report; *p; ) {
        const char *end = strchr(p, '\n');
        if (!end) {
            end = p + strlen(p);
        }
        if (!strncmp(p, counter, len) && p[len] == ' ') {
            return xmemdup0(p, end - p);
        }
        p = *end ? end + 1 : end;
    }
    return NULL;
}

START_TEST(test_inc_add_read)
{
    unsigned long long int count;

    ck_assert_uint_eq(coverage_read_counter("test_cov_alpha"), 0);
    COVERAGE_INC(test_cov_alpha);
    ck_assert_uint_eq(coverage_read_counter("test_cov_alpha"), 1);
    COVERAGE_ADD(test_cov_alpha, 5);
    COVERAGE_ADD(test_cov_alpha, 0);
    ck_assert_uint_eq(coverage_read_counter("test_cov_alpha"), 6);

    /* Counters are independent. */
    ck_assert_uint_eq(coverage_read_counter("test_cov_beta"), 0);

    ck_assert(coverage_lookup("test_cov_alpha", &count));
    ck_assert_uint_eq(count, 6);
    ck_assert(coverage_lookup("test_cov_never", &count));
    ck_assert_uint_eq(count, 0);
    ck_assert(!coverage_lookup("no_such_counter", &count));
    ck_assert_uint_eq(coverage_read_counter("no_such_counter"), 0);

    /* Large amounts do not wrap at 32 bits. */
    COVERAGE_ADD(test_cov_beta, 5000000000ULL);
    ck_assert_uint_eq(coverage_read_counter("test_cov_beta"), 5000000000ULL);
}
END_TEST

enum { N_THREADS = 8, N_INCREMENTS = 100000 };

static void *
count_thread(void *aux OVS_UNUSED)
{
    for (int i = 0; i < N_INCREMENTS; i++) {
        COVERAGE_INC(test_cov_threads);
        if (i % 1000 == 0) {
            COVERAGE_ADD(test_cov_threads, 3);
        }
    }
    return NULL;
}

START_TEST(test_threads_sum_exactly)
{
    pthread_t threads[N_THREADS];
    unsigned long long int before = coverage_read_counter("test_cov_threads");

    for (int i = 0; i < N_THREADS; i++) {
        ck_assert_int_eq(pthread_create(&threads[i], NULL, count_thread,
                                        NULL), 0);
    }
    for (int i = 0; i < N_THREADS; i++) {
        pthread_join(threads[i], NULL);
    }

    unsigned long long int per_thread = N_INCREMENTS
                                        + 3 * (N_INCREMENTS / 1000);
    ck_assert_uint_eq(coverage_read_counter("test_cov_threads") - before,
                      N_THREADS * per_thread);
}
END_TEST

START_TEST(test_show_lists_hit_counters)
{
    COVERAGE_ADD(test_cov_alpha, 2);
    COVERAGE_ADD(test_cov_zzz_last, 7);

    char *report = show();
    const char *header = "Event coverage, avg rate over last: 5 seconds, "
                         "last minute, last hour,  hash=";
    ck_assert_int_eq(strncmp(report, header, strlen(header)), 0);
    const char *hash = report + strlen(header);
    ck_assert_int_eq(strspn(hash, "0123456789abcdef"), 8);
    ck_assert_int_eq(strncmp(hash + 8, ":\n", 2), 0);

    /* Hit counters are listed with their totals, in name order. */
    char *alpha = find_line(report, "test_cov_alpha");
    char *last = find_line(report, "test_cov_zzz_last");
    ck_assert_ptr_nonnull(alpha);
    ck_assert_ptr_nonnull(last);
    char *expected = xasprintf("%-24s %5.1f/sec %9.3f/sec %10.4f/sec   "
                               "total: %llu", "test_cov_zzz_last",
                               0.0, 0.0, 0.0, 7ULL);
    ck_assert_str_eq(last, expected);
    ck_assert(strstr(report, "\ntest_cov_alpha ")
              < strstr(report, "\ntest_cov_zzz_last "));

    /* Counters never hit are only counted. */
    char *never = find_line(report, "test_cov_never");
    ck_assert_ptr_null(never);
    const char *tail = strstr(report, " events never hit\n");
    ck_assert_ptr_nonnull(tail);
    ck_assert_str_eq(tail, " events never hit\n");
    while (tail > report && tail[-1] != '\n') {
        tail--;
    }
    ck_assert_int_ge(atoi(tail), 1);

    /* The hash changes with the set of counters that have been hit. */
    char *hash_before = xmemdup0(hash, 8);
    COVERAGE_INC(test_cov_never);
    char *report2 = show();
    never = find_line(report2, "test_cov_never");
    ck_assert_ptr_nonnull(never);
    free(never);
    ck_assert_int_ne(strncmp(report2 + strlen(header), hash_before, 8), 0);

    free(hash_before);
    free(report2);
    free(expected);
    free(alpha);
    free(last);
    free(report);
}
END_TEST

static void
assert_rate_line(const char *counter, double per_5s, double per_min,
                 double per_hour, unsigned long long int total)
{
    char *report = show();
    char *line = find_line(report, counter);
    char *expected = xasprintf("%-24s %5.1f/sec %9.3f/sec %10.4f/sec   "
                               "total: %llu", counter, per_5s, per_min,
                               per_hour, total);
    ck_assert_ptr_nonnull(line);
    ck_assert_str_eq(line, expected);
    free(expected);
    free(line);
    free(report);
}

START_TEST(test_rates_follow_simulated_clock)
{
    time_stop();
    coverage_run();             /* Starts the first 5-second period. */

    COVERAGE_ADD(test_cov_rate, 50);
    /* Nothing is sampled before the period ends. */
    time_warp(4999);
    coverage_run();
    assert_rate_line("test_cov_rate", 0.0, 0.0, 0.0, 50);

    time_warp(1);
    coverage_run();
    assert_rate_line("test_cov_rate", 50 / 5.0, 50 / 60.0, 50 / 3600.0, 50);

    /* A daemon that slept through a whole minute catches up in one call,
     * spreading the count over the 12 periods it missed. */
    COVERAGE_ADD(test_cov_rate, 120);
    time_warp(60000);
    coverage_run();
    assert_rate_line("test_cov_rate", 10 / 5.0, 120 / 60.0, 170 / 3600.0,
                     170);

    /* An idle period brings the short averages down. */
    time_warp(5000);
    coverage_run();
    assert_rate_line("test_cov_rate", 0.0, 110 / 60.0, 170 / 3600.0, 170);

    /* After more than an hour of idleness every average is zero. */
    time_warp(2 * 3600 * 1000);
    coverage_run();
    assert_rate_line("test_cov_rate", 0.0, 0.0, 0.0, 170);
}
END_TEST

static Suite *
coverage_suite(void)
{
    Suite *s = suite_create("coverage");

    TCase *counters = tcase_create("counters");
    tcase_add_test(counters, test_inc_add_read);
    tcase_add_test(counters, test_threads_sum_exactly);
    suite_add_tcase(s, counters);

    TCase *report = tcase_create("report");
    tcase_add_test(report, test_show_lists_hit_counters);
    tcase_add_test(report, test_rates_follow_simulated_clock);
    suite_add_tcase(s, report);

    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(coverage_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
