/* Unit tests for dp-meter.h: the userspace datapath's token buckets, with
 * the clock given explicitly, and the meter action in odp-execute (the
 * packets it drops out of a stolen batch are freed, under ASan). */
#include <config.h>
#include "dp-meter.h"

#include <check.h>
#include <errno.h>
#include <linux/openvswitch.h>
#include <string.h>
#include "dp-packet.h"
#include "netlink.h"
#include "odp-execute.h"
#include "ofpbuf.h"
#include "timeval.h"

/* A batch of N packets of SIZE bytes. */
static void
batch_make(struct dp_packet_batch *b, size_t n, size_t size)
{
    uint8_t data[1500];
    memset(data, 0xab, sizeof data);
    dp_packet_batch_init(b);
    for (size_t i = 0; i < n; i++) {
        dp_packet_batch_add(b, dp_packet_clone_data(data, size));
    }
}

/* Runs N packets of SIZE bytes through meter ID at NOW; returns how many
 * passed. */
static size_t
run(struct dp_meter_table *t, uint32_t id, size_t n, size_t size,
    long long int now)
{
    struct dp_packet_batch b, all;
    batch_make(&b, n, size);
    all = b;
    dp_meter_table_run(t, id, &b, now);
    size_t kept = b.count;
    /* The packets stay the caller's, dropped or not. */
    dp_packet_batch_delete(&all);
    return kept;
}

static void
config_one(struct dpif_meter_config *c, bool kbps, uint32_t rate,
           uint32_t burst)
{
    memset(c, 0, sizeof *c);
    c->kbps = kbps;
    c->n_bands = 1;
    c->bands[0].rate = rate;
    c->bands[0].burst_size = burst;
}

START_TEST(test_pktps_refills_with_time)
{
    struct dp_meter_table *t = dp_meter_table_create();
    struct dpif_meter_config c;
    config_one(&c, false, 5, 0);        /* Burst: the rate. */
    ck_assert_int_eq(dp_meter_table_set(t, 7, &c), 0);
    long long int now = time_msec();

    ck_assert_uint_eq(run(t, 7, 8, 60, now), 5);
    ck_assert_uint_eq(run(t, 7, 1, 60, now), 0);
    /* 200 ms refill one packet; a second, the whole burst (no more). */
    ck_assert_uint_eq(run(t, 7, 3, 60, now + 200), 1);
    ck_assert_uint_eq(run(t, 7, 9, 60, now + 5200), 5);
    /* Time going backwards refills nothing. */
    ck_assert_uint_eq(run(t, 7, 1, 60, now), 0);

    struct dpif_meter_stats s;
    ck_assert_int_eq(dp_meter_table_get(t, 7, &s), 0);
    ck_assert_uint_eq(s.packet_in_count, 22);
    ck_assert_uint_eq(s.byte_in_count, 22 * 60);
    ck_assert_uint_eq(s.n_bands, 1);
    ck_assert_uint_eq(s.band_packets[0], 11);
    ck_assert_uint_eq(s.band_bytes[0], 11 * 60);

    /* Setting it again starts anew. */
    ck_assert_int_eq(dp_meter_table_set(t, 7, &c), 0);
    ck_assert_int_eq(dp_meter_table_get(t, 7, &s), 0);
    ck_assert_uint_eq(s.packet_in_count, 0);
    ck_assert_uint_eq(run(t, 7, 6, 60, time_msec()), 5);
    dp_meter_table_destroy(t);
}
END_TEST

/* Several bands: each pays when it can; a packet some cannot pay for is
 * counted on the fastest of those (3.1's counts for the same traffic). */
START_TEST(test_kbps_bands)
{
    struct dp_meter_table *t = dp_meter_table_create();
    struct dpif_meter_config c;
    memset(&c, 0, sizeof c);
    c.kbps = true;
    c.n_bands = 2;
    c.bands[0] = (struct dpif_meter_band) { .rate = 1, .burst_size = 1 };
    c.bands[1] = (struct dpif_meter_band) { .rate = 100, .burst_size = 2 };
    ck_assert_int_eq(dp_meter_table_set(t, 1, &c), 0);
    long long int now = time_msec();
    ck_assert_uint_eq(run(t, 1, 6, 42, now), 2);
    struct dpif_meter_stats s;
    ck_assert_int_eq(dp_meter_table_get(t, 1, &s), 0);
    ck_assert_uint_eq(s.band_packets[0], 3);
    ck_assert_uint_eq(s.band_packets[1], 1);
    ck_assert_uint_eq(run(t, 1, 6, 42, now + 1000), 2);
    ck_assert_int_eq(dp_meter_table_get(t, 1, &s), 0);
    ck_assert_uint_eq(s.band_packets[0], 6);
    ck_assert_uint_eq(s.band_packets[1], 2);
    ck_assert_uint_eq(s.band_bytes[1], 84);
    dp_meter_table_destroy(t);
}
END_TEST

START_TEST(test_missing_meter)
{
    struct dp_meter_table *t = dp_meter_table_create();
    struct dpif_meter_stats s;
    ck_assert_uint_eq(run(t, 3, 4, 60, time_msec()), 4);
    ck_assert_int_eq(dp_meter_table_get(t, 3, &s), ENOENT);
    ck_assert_int_eq(dp_meter_table_del(t, 3, &s), ENOENT);
    struct dpif_meter_config c;
    config_one(&c, false, 1, 0);
    ck_assert_int_eq(dp_meter_table_set(t, 3, &c), 0);
    ck_assert_uint_eq(run(t, 3, 4, 60, time_msec()), 1);
    ck_assert_int_eq(dp_meter_table_del(t, 3, &s), 0);
    ck_assert_uint_eq(s.packet_in_count, 4);
    ck_assert_uint_eq(s.band_packets[0], 3);
    ck_assert_uint_eq(run(t, 3, 4, 60, time_msec()), 4);
    dp_meter_table_destroy(t);
}
END_TEST

/* odp-execute hands the meter action to the datapath and, for batches it
 * owns (clone's copies), frees what the meter dropped. */
struct exec_aux {
    struct dp_meter_table *t;
    size_t n_output;
};

static void
exec_cb(void *aux_, struct dp_packet_batch *batch, const struct nlattr *a,
        bool should_steal, const struct odp_execute_rest *rest OVS_UNUSED)
{
    struct exec_aux *aux = aux_;
    if (nl_attr_type(a) == OVS_ACTION_ATTR_METER) {
        ck_assert(!should_steal);
        dp_meter_table_run(aux->t, nl_attr_get_u32(a), batch, time_msec());
        return;
    }
    ck_assert_uint_eq(nl_attr_type(a), OVS_ACTION_ATTR_OUTPUT);
    aux->n_output += batch->count;
    if (should_steal) {
        dp_packet_batch_delete(batch);
    }
}

START_TEST(test_meter_action)
{
    struct exec_aux aux = { .t = dp_meter_table_create() };
    struct dpif_meter_config c;
    config_one(&c, false, 2, 0);
    ck_assert_int_eq(dp_meter_table_set(aux.t, 0, &c), 0);

    /* clone(meter(0),1),2: the clone's copies are metered and the
     * originals all go to 2. */
    struct ofpbuf acts;
    ofpbuf_init(&acts, 64);
    size_t ofs = nl_msg_start_nested(&acts, OVS_ACTION_ATTR_CLONE);
    nl_msg_put_u32(&acts, OVS_ACTION_ATTR_METER, 0);
    nl_msg_put_u32(&acts, OVS_ACTION_ATTR_OUTPUT, 1);
    nl_msg_end_nested(&acts, ofs);
    nl_msg_put_u32(&acts, OVS_ACTION_ATTR_OUTPUT, 2);

    struct dp_packet_batch b;
    batch_make(&b, 5, 60);
    odp_execute_actions(&aux, &b, false, acts.data, acts.size, exec_cb);
    ck_assert_uint_eq(aux.n_output, 2 + 5);
    ck_assert_uint_eq(b.count, 5);
    dp_packet_batch_delete(&b);

    /* Stolen at the top: the dropped ones are freed too. */
    aux.n_output = 0;
    batch_make(&b, 4, 60);
    ofpbuf_clear(&acts);
    nl_msg_put_u32(&acts, OVS_ACTION_ATTR_METER, 0);
    nl_msg_put_u32(&acts, OVS_ACTION_ATTR_OUTPUT, 1);
    odp_execute_actions(&aux, &b, true, acts.data, acts.size, exec_cb);
    ck_assert_uint_eq(aux.n_output, 0);     /* The bucket is empty. */

    ofpbuf_uninit(&acts);
    dp_meter_table_destroy(aux.t);
}
END_TEST

static Suite *
dp_meter_suite(void)
{
    Suite *s = suite_create("dp-meter");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_pktps_refills_with_time);
    tcase_add_test(tc, test_kbps_bands);
    tcase_add_test(tc, test_missing_meter);
    tcase_add_test(tc, test_meter_action);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(dp_meter_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
