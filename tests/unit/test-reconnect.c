#include <config.h>
#include "reconnect.h"

/* Unit tests for reconnect.h: the state machine is driven with explicit
 * timestamps, so no test sleeps or depends on the real clock. */

#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static struct reconnect *
new_fsm(long long int now)
{
    struct reconnect *fsm = reconnect_create(now);
    reconnect_set_name(fsm, "remote");
    reconnect_set_quiet(fsm, true);
    return fsm;
}

/* One failed connection attempt starting at NOW, from BACKOFF. */
static void
fail_attempt(struct reconnect *fsm, long long int now)
{
    ck_assert_int_eq(reconnect_run(fsm, now), RECONNECT_CONNECT);
    reconnect_connecting(fsm, now);
    ck_assert_str_eq(reconnect_get_state_name(fsm), "CONNECTING");
    reconnect_connect_failed(fsm, now, ECONNREFUSED);
    ck_assert_str_eq(reconnect_get_state_name(fsm), "BACKOFF");
}

START_TEST(test_starts_disabled)
{
    struct reconnect *fsm = new_fsm(0);

    ck_assert(!reconnect_is_enabled(fsm));
    ck_assert_str_eq(reconnect_get_state_name(fsm), "VOID");
    ck_assert_int_eq(reconnect_run(fsm, 1000000), 0);
    ck_assert_int_eq(reconnect_timeout(fsm, 0), -1);
    ck_assert_int_eq(reconnect_get_min_backoff(fsm), 1000);
    ck_assert_int_eq(reconnect_get_max_backoff(fsm), 8000);
    ck_assert_int_eq(reconnect_get_probe_interval(fsm), 5000);
    ck_assert_uint_eq(reconnect_get_last_connect_elapsed(fsm, 10), UINT_MAX);
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_first_attempt_is_immediate)
{
    struct reconnect *fsm = new_fsm(500);

    reconnect_enable(fsm, 500);
    ck_assert(reconnect_is_enabled(fsm));
    ck_assert_int_eq(reconnect_timeout(fsm, 500), 0);
    ck_assert_int_eq(reconnect_run(fsm, 500), RECONNECT_CONNECT);
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_backoff_doubles_to_max)
{
    struct reconnect *fsm = new_fsm(0);
    long long int now = 0;
    static const int expected[] = { 1000, 2000, 4000, 8000, 8000, 8000 };

    reconnect_set_probe_interval(fsm, 0);
    reconnect_enable(fsm, now);
    for (size_t i = 0; i < ARRAY_SIZE(expected); i++) {
        fail_attempt(fsm, now);
        ck_assert_int_eq(reconnect_timeout(fsm, now), expected[i]);
        /* Nothing to do until the backoff has fully elapsed. */
        ck_assert_int_eq(reconnect_run(fsm, now + expected[i] - 1), 0);
        now += expected[i];
        ck_assert_int_eq(reconnect_timeout(fsm, now), 0);
    }
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_custom_backoff_range)
{
    struct reconnect *fsm = new_fsm(0);
    long long int now = 0;
    static const int expected[] = { 250, 500, 1000, 1500, 1500 };

    reconnect_set_backoff(fsm, 250, 1500);
    reconnect_enable(fsm, now);
    for (size_t i = 0; i < ARRAY_SIZE(expected); i++) {
        fail_attempt(fsm, now);
        ck_assert_int_eq(reconnect_timeout(fsm, now), expected[i]);
        now += expected[i];
    }
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_backoff_resets_after_useful_connection)
{
    struct reconnect *fsm = new_fsm(0);
    long long int now = 0;

    reconnect_set_probe_interval(fsm, 0);
    reconnect_enable(fsm, now);
    fail_attempt(fsm, now);          /* 1000 */
    now += 1000;
    fail_attempt(fsm, now);          /* 2000 */
    now += 2000;
    fail_attempt(fsm, now);          /* 4000 */
    now += 4000;

    ck_assert_int_eq(reconnect_run(fsm, now), RECONNECT_CONNECT);
    reconnect_connecting(fsm, now);
    reconnect_connected(fsm, now);
    ck_assert(reconnect_is_connected(fsm));
    ck_assert_str_eq(reconnect_get_state_name(fsm), "ACTIVE");

    /* Data keeps flowing for longer than the backoff. */
    reconnect_activity(fsm, now + 5000);
    now += 6000;
    reconnect_disconnected(fsm, now, EOF);
    ck_assert(!reconnect_is_connected(fsm));
    ck_assert_int_eq(reconnect_timeout(fsm, now), 1000);
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_backoff_grows_if_connection_dies_at_once)
{
    struct reconnect *fsm = new_fsm(0);
    long long int now = 0;

    reconnect_set_probe_interval(fsm, 0);
    reconnect_enable(fsm, now);
    fail_attempt(fsm, now);          /* 1000 */
    now += 1000;
    fail_attempt(fsm, now);          /* 2000 */
    now += 2000;

    /* A peer that accepts and hangs up at once must not earn a reset. */
    ck_assert_int_eq(reconnect_run(fsm, now), RECONNECT_CONNECT);
    reconnect_connected(fsm, now);
    reconnect_disconnected(fsm, now + 10, EOF);
    ck_assert_int_eq(reconnect_timeout(fsm, now + 10), 4000);
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_connect_attempt_times_out)
{
    struct reconnect *fsm = new_fsm(0);

    reconnect_enable(fsm, 0);
    ck_assert_int_eq(reconnect_run(fsm, 0), RECONNECT_CONNECT);
    reconnect_connecting(fsm, 0);
    ck_assert_int_eq(reconnect_timeout(fsm, 0), 1000);
    ck_assert_int_eq(reconnect_run(fsm, 999), 0);
    ck_assert_int_eq(reconnect_run(fsm, 1000), RECONNECT_DISCONNECT);
    reconnect_disconnected(fsm, 1000, ETIMEDOUT);
    ck_assert_str_eq(reconnect_get_state_name(fsm), "BACKOFF");
    ck_assert_int_eq(reconnect_timeout(fsm, 1000), 1000);
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_probe_then_disconnect)
{
    struct reconnect *fsm = new_fsm(0);

    reconnect_enable(fsm, 0);
    ck_assert_int_eq(reconnect_run(fsm, 0), RECONNECT_CONNECT);
    reconnect_connected(fsm, 1000);
    ck_assert_int_eq(reconnect_timeout(fsm, 1000), 5000);

    /* Activity pushes the probe back. */
    reconnect_activity(fsm, 3000);
    ck_assert_int_eq(reconnect_run(fsm, 6000), 0);
    ck_assert_int_eq(reconnect_timeout(fsm, 6000), 2000);

    /* Silence for a whole interval: probe once, and go IDLE. */
    ck_assert_int_eq(reconnect_run(fsm, 7999), 0);
    ck_assert_int_eq(reconnect_run(fsm, 8000), RECONNECT_PROBE);
    ck_assert_str_eq(reconnect_get_state_name(fsm), "IDLE");
    ck_assert(reconnect_is_connected(fsm));
    ck_assert_int_eq(reconnect_run(fsm, 8001), 0);
    ck_assert_int_eq(reconnect_timeout(fsm, 8000), 5000);

    /* Another interval without an answer: disconnect. */
    ck_assert_int_eq(reconnect_run(fsm, 12999), 0);
    ck_assert_int_eq(reconnect_run(fsm, 13000), RECONNECT_DISCONNECT);
    reconnect_disconnected(fsm, 13000, ETIMEDOUT);
    ck_assert(!reconnect_is_connected(fsm));
    ck_assert_str_eq(reconnect_get_state_name(fsm), "BACKOFF");
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_probe_answered)
{
    struct reconnect *fsm = new_fsm(0);

    reconnect_enable(fsm, 0);
    reconnect_connected(fsm, 0);
    ck_assert_int_eq(reconnect_run(fsm, 5000), RECONNECT_PROBE);
    ck_assert_str_eq(reconnect_get_state_name(fsm), "IDLE");

    /* The echo reply counts as activity and brings the connection back to
     * ACTIVE, with a fresh interval. */
    reconnect_activity(fsm, 5500);
    ck_assert_str_eq(reconnect_get_state_name(fsm), "ACTIVE");
    ck_assert_int_eq(reconnect_run(fsm, 10000), 0);
    ck_assert_int_eq(reconnect_run(fsm, 10500), RECONNECT_PROBE);
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_probe_disabled)
{
    struct reconnect *fsm = new_fsm(0);

    reconnect_set_probe_interval(fsm, 0);
    reconnect_enable(fsm, 0);
    reconnect_connected(fsm, 0);
    ck_assert_int_eq(reconnect_timeout(fsm, 0), -1);
    ck_assert_int_eq(reconnect_run(fsm, 1000000000), 0);
    ck_assert_str_eq(reconnect_get_state_name(fsm), "ACTIVE");
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_probe_interval_minimum)
{
    struct reconnect *fsm = new_fsm(0);

    reconnect_set_probe_interval(fsm, 10);
    ck_assert_int_eq(reconnect_get_probe_interval(fsm), 1000);
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_probe_waits_for_receive_attempt)
{
    struct reconnect *fsm = new_fsm(0);

    reconnect_enable(fsm, 0);
    reconnect_connected(fsm, 0);

    /* The owner last tried to read before the deadline: it may simply have
     * been busy, so no probe yet. */
    reconnect_receive_attempted(fsm, 4000);
    ck_assert_int_eq(reconnect_run(fsm, 6000), 0);

    /* It read (and found nothing) after the deadline: now probe. */
    reconnect_receive_attempted(fsm, 6000);
    ck_assert_int_eq(reconnect_run(fsm, 6000), RECONNECT_PROBE);

    /* Same safeguard for the disconnect. */
    ck_assert_int_eq(reconnect_run(fsm, 12000), 0);
    reconnect_receive_attempted(fsm, 12000);
    ck_assert_int_eq(reconnect_run(fsm, 12000), RECONNECT_DISCONNECT);
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_passive)
{
    struct reconnect *fsm = new_fsm(0);

    reconnect_set_passive(fsm, true, 0);
    ck_assert(reconnect_is_passive(fsm));
    reconnect_enable(fsm, 0);
    ck_assert_int_eq(reconnect_run(fsm, 0), RECONNECT_CONNECT);
    reconnect_listening(fsm, 0);
    ck_assert_str_eq(reconnect_get_state_name(fsm), "LISTENING");

    /* Listening has no timeout. */
    ck_assert_int_eq(reconnect_timeout(fsm, 0), -1);
    ck_assert_int_eq(reconnect_run(fsm, 1000000), 0);

    reconnect_connected(fsm, 1000000);
    ck_assert(reconnect_is_connected(fsm));

    /* When the client leaves, listen again at once. */
    reconnect_disconnected(fsm, 1000100, EOF);
    ck_assert_str_eq(reconnect_get_state_name(fsm), "BACKOFF");
    ck_assert_int_eq(reconnect_run(fsm, 1000100), RECONNECT_CONNECT);
    reconnect_listening(fsm, 1000100);

    /* A listen error backs off like a failed connection. */
    reconnect_listen_error(fsm, 1000200, EADDRINUSE);
    ck_assert_str_eq(reconnect_get_state_name(fsm), "BACKOFF");
    ck_assert_int_eq(reconnect_timeout(fsm, 1000200), 1000);
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_max_tries)
{
    struct reconnect *fsm = new_fsm(0);

    reconnect_set_max_tries(fsm, 2);
    reconnect_enable(fsm, 0);
    fail_attempt(fsm, 0);
    ck_assert(reconnect_is_enabled(fsm));

    ck_assert_int_eq(reconnect_run(fsm, 1000), RECONNECT_CONNECT);
    reconnect_connect_failed(fsm, 1000, ECONNREFUSED);
    ck_assert(!reconnect_is_enabled(fsm));
    ck_assert_str_eq(reconnect_get_state_name(fsm), "VOID");
    ck_assert_int_eq(reconnect_run(fsm, 100000), 0);
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_single_try_ends_with_connection)
{
    struct reconnect *fsm = new_fsm(0);

    reconnect_set_max_tries(fsm, 1);
    reconnect_enable(fsm, 0);
    ck_assert_int_eq(reconnect_run(fsm, 0), RECONNECT_CONNECT);
    reconnect_connected(fsm, 0);
    reconnect_disconnected(fsm, 50000, EOF);
    ck_assert(!reconnect_is_enabled(fsm));
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_force_reconnect)
{
    struct reconnect *fsm = new_fsm(0);

    reconnect_enable(fsm, 0);
    reconnect_connected(fsm, 0);
    reconnect_activity(fsm, 3000);
    reconnect_force_reconnect(fsm, 3000);
    ck_assert_str_eq(reconnect_get_state_name(fsm), "RECONNECT");
    ck_assert(!reconnect_is_connected(fsm));
    ck_assert_int_eq(reconnect_run(fsm, 3000), RECONNECT_DISCONNECT);
    reconnect_disconnected(fsm, 3000, 0);
    ck_assert_str_eq(reconnect_get_state_name(fsm), "BACKOFF");
    /* The connection was fine: only the minimum backoff. */
    ck_assert_int_eq(reconnect_timeout(fsm, 3000), 1000);

    /* Forcing does nothing while backing off. */
    reconnect_force_reconnect(fsm, 3100);
    ck_assert_str_eq(reconnect_get_state_name(fsm), "BACKOFF");
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_disable_and_skip_backoff)
{
    struct reconnect *fsm = new_fsm(0);

    reconnect_enable(fsm, 0);
    fail_attempt(fsm, 0);
    fail_attempt(fsm, 1000);
    ck_assert_int_eq(reconnect_timeout(fsm, 1000), 2000);
    reconnect_skip_backoff(fsm, 1500);
    ck_assert_int_eq(reconnect_run(fsm, 1500), RECONNECT_CONNECT);

    reconnect_disable(fsm, 1500);
    ck_assert(!reconnect_is_enabled(fsm));
    ck_assert_int_eq(reconnect_run(fsm, 100000), 0);
    reconnect_destroy(fsm);
}
END_TEST

START_TEST(test_stats_and_elapsed)
{
    struct reconnect *fsm = new_fsm(100);
    struct reconnect_stats stats;

    reconnect_enable(fsm, 100);
    reconnect_get_stats(fsm, 100, &stats);
    unsigned int seqno0 = stats.seqno;
    ck_assert(!stats.is_connected);

    reconnect_connected(fsm, 200);
    reconnect_get_stats(fsm, 2200, &stats);
    ck_assert(stats.is_connected);
    ck_assert_uint_ne(stats.seqno, seqno0);
    ck_assert_uint_eq(stats.n_attempted_connections, 1);
    ck_assert_uint_eq(stats.n_successful_connections, 1);
    ck_assert_uint_eq(stats.msec_since_connect, 2000);
    ck_assert_uint_eq(stats.msec_since_disconnect, UINT_MAX);
    ck_assert_str_eq(stats.state, "ACTIVE");
    ck_assert_uint_eq(reconnect_get_last_connect_elapsed(fsm, 2200), 2000);

    unsigned int seqno1 = stats.seqno;
    reconnect_disconnected(fsm, 5200, EOF);
    reconnect_get_stats(fsm, 6200, &stats);
    ck_assert(!stats.is_connected);
    ck_assert_uint_ne(stats.seqno, seqno1);
    ck_assert_uint_eq(stats.msec_since_disconnect, 1000);
    ck_assert_uint_eq(stats.total_connected_duration, 5);
    ck_assert_uint_eq(reconnect_get_last_disconnect_elapsed(fsm, 6200), 1000);
    reconnect_destroy(fsm);
}
END_TEST

static Suite *
reconnect_suite(void)
{
    Suite *s = suite_create("reconnect");

    TCase *tc = tcase_create("basics");
    tcase_add_test(tc, test_starts_disabled);
    tcase_add_test(tc, test_first_attempt_is_immediate);
    tcase_add_test(tc, test_stats_and_elapsed);
    tcase_add_test(tc, test_disable_and_skip_backoff);
    suite_add_tcase(s, tc);

    tc = tcase_create("backoff");
    tcase_add_test(tc, test_backoff_doubles_to_max);
    tcase_add_test(tc, test_custom_backoff_range);
    tcase_add_test(tc, test_backoff_resets_after_useful_connection);
    tcase_add_test(tc, test_backoff_grows_if_connection_dies_at_once);
    tcase_add_test(tc, test_connect_attempt_times_out);
    tcase_add_test(tc, test_max_tries);
    tcase_add_test(tc, test_single_try_ends_with_connection);
    tcase_add_test(tc, test_force_reconnect);
    suite_add_tcase(s, tc);

    tc = tcase_create("probe");
    tcase_add_test(tc, test_probe_then_disconnect);
    tcase_add_test(tc, test_probe_answered);
    tcase_add_test(tc, test_probe_disabled);
    tcase_add_test(tc, test_probe_interval_minimum);
    tcase_add_test(tc, test_probe_waits_for_receive_attempt);
    suite_add_tcase(s, tc);

    tc = tcase_create("passive");
    tcase_add_test(tc, test_passive);
    suite_add_tcase(s, tc);

    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(reconnect_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
