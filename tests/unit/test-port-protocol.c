/* Unit tests for heap and port-protocol: the heap keeps its order through
 * any mix of inserts, removals and re-keying; the schedule hands the
 * monitor exactly the instances due, earliest first, and lets an earlier
 * request win over the deadline a run returns, and is "settled" (what a
 * warp waits for) only with nothing due or running; the change queue holds
 * an instance once however often it changes, forgets a detached one (even
 * one never attached), and moves connectivity_seq. */
#include <config.h>
#include "port-protocol.h"

#include <check.h>
#include <limits.h>
#include <stdlib.h>

#include "connectivity.h"
#include "heap.h"
#include "seq.h"
#include "timeval.h"
#include "util.h"

struct item {
    struct heap_node node;
    long long int key;
};

static int
compare_keys(const void *a_, const void *b_)
{
    long long int a = *(const long long int *) a_;
    long long int b = *(const long long int *) b_;
    return a < b ? -1 : a > b;
}

/* Pops everything from H and checks it comes out in the order of the N
 * keys in KEYS. */
static void
check_drain(struct heap *h, long long int *keys, size_t n)
{
    qsort(keys, n, sizeof *keys, compare_keys);
    ck_assert_uint_eq(heap_count(h), n);
    for (size_t i = 0; i < n; i++) {
        struct heap_node *min = heap_min(h);
        ck_assert_int_eq(min->key, keys[i]);
        heap_remove(h, min);
        ck_assert(!heap_node_in_heap(min));
    }
    ck_assert(heap_is_empty(h));
}

START_TEST(test_heap_random_operations)
{
    enum { N = 500 };
    struct item items[N];
    struct heap h;
    heap_init(&h);
    srand(7);
    for (size_t i = 0; i < N; i++) {
        heap_node_init(&items[i].node);
        items[i].key = rand() % 1000;
        heap_insert(&h, &items[i].node, items[i].key);
    }
    /* Remove a third, re-key a third (up and down). */
    for (size_t i = 0; i < N; i += 3) {
        heap_remove(&h, &items[i].node);
    }
    for (size_t i = 1; i < N; i += 3) {
        items[i].key = rand() % 2000 - 500;
        heap_change(&h, &items[i].node, items[i].key);
    }
    long long int keys[N];
    size_t n = 0;
    for (size_t i = 0; i < N; i++) {
        if (heap_node_in_heap(&items[i].node)) {
            keys[n++] = items[i].key;
        }
    }
    check_drain(&h, keys, n);
    heap_destroy(&h);
}
END_TEST

START_TEST(test_heap_destroy_releases_nodes)
{
    struct item a, b;
    struct heap h;
    heap_init(&h);
    heap_node_init(&a.node);
    heap_node_init(&b.node);
    heap_insert(&h, &a.node, 5);
    heap_insert(&h, &b.node, 3);
    heap_destroy(&h);
    ck_assert(!heap_node_in_heap(&a.node));
    ck_assert(!heap_node_in_heap(&b.node));
}
END_TEST

static const struct port_protocol_class test_class = {
    .name = "test",
    .slow_reason = SLOW_BFD,
};

static void
attach_at(struct port_protocol *p, long long int when)
{
    port_protocol_init(p, &test_class, NULL);
    port_protocol_schedule(p, when);
    port_protocol_attach(p, p);
}

START_TEST(test_schedule_takes_only_due)
{
    struct port_protocol p[4];
    const long long int when[4] = { 300, 100, 200, 1000 };
    for (size_t i = 0; i < 4; i++) {
        attach_at(&p[i], when[i]);
    }
    ck_assert_int_eq(port_protocol_next_deadline(), 100);

    struct port_protocol *due[4];
    ck_assert_uint_eq(port_protocol_take_due(50, due, 4), 0);
    size_t n = port_protocol_take_due(300, due, 4);
    ck_assert_uint_eq(n, 3);
    ck_assert_ptr_eq(due[0], &p[1]);
    ck_assert_ptr_eq(due[1], &p[2]);
    ck_assert_ptr_eq(due[2], &p[0]);
    /* Taken ones are not due again until put back. */
    ck_assert_int_eq(port_protocol_next_deadline(), 1000);
    ck_assert_uint_eq(port_protocol_take_due(5000, due, 4), 1);
    ck_assert_ptr_eq(due[0], &p[3]);

    for (size_t i = 0; i < 4; i++) {
        port_protocol_put_back(&p[i], 2000 + i);
    }
    ck_assert_int_eq(port_protocol_next_deadline(), 2000);
    for (size_t i = 0; i < 4; i++) {
        port_protocol_detach(&p[i]);
    }
    ck_assert_int_eq(port_protocol_next_deadline(), LLONG_MAX);
}
END_TEST

START_TEST(test_schedule_earlier_request_wins)
{
    struct port_protocol p;
    attach_at(&p, 100);
    struct seq *seq = port_protocol_schedule_seq();

    /* A later request changes nothing. */
    uint64_t seen = seq_read(seq);
    port_protocol_schedule(&p, 500);
    ck_assert_int_eq(port_protocol_next_deadline(), 100);
    ck_assert_uint_eq(seq_read(seq), seen);

    /* An earlier one moves it and wakes the monitor. */
    port_protocol_schedule(&p, 40);
    ck_assert_int_eq(port_protocol_next_deadline(), 40);
    ck_assert_uint_ne(seq_read(seq), seen);

    /* While running, a request is kept and beats a later next deadline. */
    struct port_protocol *due;
    ck_assert_uint_eq(port_protocol_take_due(40, &due, 1), 1);
    port_protocol_schedule(&p, 60);
    port_protocol_put_back(&p, 1000);
    ck_assert_int_eq(port_protocol_next_deadline(), 60);

    /* Without one, the next deadline stands. */
    ck_assert_uint_eq(port_protocol_take_due(60, &due, 1), 1);
    port_protocol_put_back(&p, 1000);
    ck_assert_int_eq(port_protocol_next_deadline(), 1000);
    port_protocol_detach(&p);
}
END_TEST

START_TEST(test_settled_waits_for_due_and_running)
{
    time_stop();
    long long int now = time_msec();
    struct port_protocol p;
    attach_at(&p, now + 100);
    ck_assert(port_protocol_settled());

    /* Due: not settled until the monitor has run it and put it back. */
    time_warp(100);
    ck_assert(!port_protocol_settled());
    struct port_protocol *due;
    ck_assert_uint_eq(port_protocol_take_due(time_msec(), &due, 1), 1);
    ck_assert(!port_protocol_settled());
    port_protocol_put_back(&p, time_msec() + 100);
    ck_assert(port_protocol_settled());

    /* Detached while running: not counted as running any more. */
    time_warp(100);
    ck_assert_uint_eq(port_protocol_take_due(time_msec(), &due, 1), 1);
    port_protocol_detach(&p);
    ck_assert(port_protocol_settled());
}
END_TEST

START_TEST(test_detach_unattached_leaves_queue)
{
    struct port_protocol p;
    port_protocol_init(&p, &test_class, NULL);
    port_protocol_changed(&p);
    port_protocol_detach(&p);
    struct port_protocol **changed;
    ck_assert_uint_eq(port_protocol_take_changed(&changed), 0);
    free(changed);
}
END_TEST

START_TEST(test_change_queue_once_per_instance)
{
    struct port_protocol a, b;
    attach_at(&a, 0);
    attach_at(&b, 0);
    struct seq *conn = connectivity_seq_get();

    uint64_t seen = seq_read(conn);
    port_protocol_changed(&a);
    ck_assert_uint_ne(seq_read(conn), seen);
    port_protocol_changed(&b);
    port_protocol_changed(&a);

    struct port_protocol **changed;
    size_t n = port_protocol_take_changed(&changed);
    ck_assert_uint_eq(n, 2);
    ck_assert_ptr_eq(changed[0], &a);
    ck_assert_ptr_eq(changed[1], &b);
    free(changed);
    ck_assert_uint_eq(port_protocol_take_changed(&changed), 0);

    /* Queued again after being taken; gone once detached. */
    port_protocol_changed(&a);
    port_protocol_changed(&b);
    port_protocol_detach(&a);
    n = port_protocol_take_changed(&changed);
    ck_assert_uint_eq(n, 1);
    ck_assert_ptr_eq(changed[0], &b);
    free(changed);
    port_protocol_detach(&b);
}
END_TEST

static bool link_state;

static bool
test_link_ok(const struct port_protocol *p OVS_UNUSED)
{
    return link_state;
}

START_TEST(test_link_ok_needs_every_opinion)
{
    static const struct port_protocol_class opinion = {
        .name = "opinion", .link_ok = test_link_ok,
    };
    struct port_protocol silent, voter;
    port_protocol_init(&silent, &test_class, NULL);
    port_protocol_init(&voter, &opinion, NULL);
    struct port_protocol *both[] = { &silent, &voter };

    ck_assert(port_protocols_link_ok(both, 0));
    ck_assert(port_protocols_link_ok(both, 1));
    link_state = false;
    ck_assert(!port_protocols_link_ok(both, 2));
    link_state = true;
    ck_assert(port_protocols_link_ok(both, 2));
}
END_TEST

static Suite *
port_protocol_suite(void)
{
    Suite *s = suite_create("port-protocol");
    TCase *tc = tcase_create("heap");
    tcase_add_test(tc, test_heap_random_operations);
    tcase_add_test(tc, test_heap_destroy_releases_nodes);
    suite_add_tcase(s, tc);

    tc = tcase_create("schedule");
    tcase_add_test(tc, test_schedule_takes_only_due);
    tcase_add_test(tc, test_schedule_earlier_request_wins);
    tcase_add_test(tc, test_settled_waits_for_due_and_running);
    suite_add_tcase(s, tc);

    tc = tcase_create("changes");
    tcase_add_test(tc, test_change_queue_once_per_instance);
    tcase_add_test(tc, test_detach_unattached_leaves_queue);
    tcase_add_test(tc, test_link_ok_needs_every_opinion);
    suite_add_tcase(s, tc);
    return s;
}

int
main(int argc OVS_UNUSED, char *argv[])
{
    set_program_name(argv[0]);
    SRunner *sr = srunner_create(port_protocol_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
