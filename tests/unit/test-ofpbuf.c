/* Unit tests for ofpbuf.h. */
#include <config.h>
#include "ofpbuf.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"

/* Checks B's invariants: payload inside the allocation, room adds up. */
static void
check_layout(const struct ofpbuf *b)
{
    ck_assert_uint_eq(ofpbuf_headroom(b) + b->size + ofpbuf_tailroom(b),
                      b->allocated);
    ck_assert_ptr_eq(ofpbuf_end(b), (char *) b->base + b->allocated);
    ck_assert_ptr_eq(ofpbuf_tail(b), (char *) b->data + b->size);
}

START_TEST(test_put_and_pull)
{
    struct ofpbuf b;
    ofpbuf_init(&b, 4);
    ck_assert_uint_eq(b.size, 0);
    ck_assert_uint_eq(b.source, OFPBUF_MALLOC);
    ck_assert_ptr_null(b.header);
    ck_assert_ptr_null(b.msg);

    ofpbuf_put(&b, "abcd", 4);
    ck_assert_ptr_eq(ofpbuf_put_zeros(&b, 3), (char *) b.data + 4);
    char *p = ofpbuf_put_uninit(&b, 2);
    memcpy(p, "xy", 2);
    ck_assert_uint_eq(b.size, 9);
    ck_assert_mem_eq(b.data, "abcd\0\0\0xy", 9);
    check_layout(&b);

    ck_assert_mem_eq(ofpbuf_pull(&b, 2), "ab", 2);
    ck_assert_uint_eq(b.size, 7);
    ck_assert_uint_eq(ofpbuf_headroom(&b), 2);
    ck_assert_mem_eq(b.data, "cd", 2);

    /* A short buffer: try_pull fails and consumes nothing. */
    ck_assert_ptr_null(ofpbuf_try_pull(&b, 8));
    ck_assert_uint_eq(b.size, 7);
    ck_assert_mem_eq(ofpbuf_try_pull(&b, 7), "cd\0\0\0xy", 7);
    ck_assert(ofpbuf_is_empty(&b));
    ck_assert_ptr_null(ofpbuf_try_pull(&b, 1));
    ck_assert_ptr_nonnull(ofpbuf_try_pull(&b, 0));

    ofpbuf_clear(&b);
    ck_assert_ptr_eq(b.data, b.base);
    ck_assert_uint_eq(b.size, 0);
    check_layout(&b);

    ofpbuf_put(&b, "xyz", 3);
    ofpbuf_truncate_tail(&b, 1);
    ck_assert_uint_eq(b.size, 2);

    ofpbuf_reinit(&b, 10);
    ck_assert_uint_eq(b.size, 0);
    ck_assert_uint_eq(ofpbuf_tailroom(&b), 10);
    ofpbuf_uninit(&b);
}
END_TEST

START_TEST(test_at)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, "0123456789", 10);

    ck_assert_ptr_eq(ofpbuf_at(&b, 0, 10), b.data);
    ck_assert_ptr_eq(ofpbuf_at(&b, 4, 6), (char *) b.data + 4);
    ck_assert_ptr_eq(ofpbuf_at(&b, 10, 0), (char *) b.data + 10);
    ck_assert_ptr_null(ofpbuf_at(&b, 4, 7));
    ck_assert_ptr_null(ofpbuf_at(&b, 11, 0));
    /* No wraparound when OFFSET + SIZE overflows. */
    ck_assert_ptr_null(ofpbuf_at(&b, SIZE_MAX, 2));
    ck_assert_ptr_null(ofpbuf_at(&b, 2, SIZE_MAX));
    ck_assert_mem_eq(ofpbuf_at_assert(&b, 3, 2), "34", 2);

    /* Pulling from a const buffer moves the view only. */
    ck_assert_mem_eq(ofpbuf_pull(&b, 3), "012", 3);
    ck_assert_ptr_null(ofpbuf_at(&b, 5, 3));
    ck_assert_mem_eq(ofpbuf_at(&b, 5, 2), "89", 2);
    ofpbuf_uninit(&b);                  /* Frees nothing. */
}
END_TEST

START_TEST(test_headroom_push)
{
    struct ofpbuf *b = ofpbuf_new_with_headroom(16, 8);
    ck_assert_uint_eq(ofpbuf_headroom(b), 8);
    ck_assert_uint_eq(ofpbuf_tailroom(b), 16);
    check_layout(b);

    void *base = b->base;
    ofpbuf_put(b, "payload", 7);
    ck_assert_ptr_eq(ofpbuf_push(b, "hdr:", 4), b->data);
    ofpbuf_push_zeros(b, 2);
    /* It fit in the headroom: no reallocation. */
    ck_assert_ptr_eq(b->base, base);
    ck_assert_uint_eq(ofpbuf_headroom(b), 2);
    ck_assert_mem_eq(b->data, "\0\0hdr:payload", 13);

    /* Pushing past the headroom moves the data and keeps it intact. */
    b->header = b->data;
    b->msg = (char *) b->data + 6;
    char big[100];
    memset(big, 'H', sizeof big);
    ofpbuf_push(b, big, sizeof big);
    ck_assert_uint_eq(b->size, 113);
    ck_assert_mem_eq(b->data, big, 100);
    ck_assert_mem_eq((char *) b->data + 100, "\0\0hdr:payload", 13);
    /* HEADER and MSG follow the bytes they pointed at. */
    ck_assert_ptr_eq(b->header, (char *) b->data + 100);
    ck_assert_mem_eq(b->msg, "payload", 7);
    check_layout(b);

    ofpbuf_prealloc_headroom(b, 500);
    ck_assert_uint_ge(ofpbuf_headroom(b), 500);
    ck_assert_mem_eq(b->msg, "payload", 7);
    ofpbuf_delete(b);
}
END_TEST

START_TEST(test_realloc_keeps_header_valid)
{
    struct ofpbuf b;
    ofpbuf_init(&b, 8);

    /* A decoder's usual pattern: the header was pulled already, so HEADER
     * points into the headroom while MSG points at the body. */
    ofpbuf_put(&b, "HEADbody", 8);
    b.header = ofpbuf_pull(&b, 4);
    b.msg = b.data;

    int moves = 0;
    void *base = b.base;
    for (int i = 0; i < 1000; i++) {
        ofpbuf_put(&b, "+", 1);
        if (b.base != base) {
            moves++;
            base = b.base;
        }
        if (memcmp(b.header, "HEAD", 4) || memcmp(b.msg, "body", 4)) {
            ck_abort_msg("header or msg lost after %d puts", i + 1);
        }
    }
    ck_assert_int_gt(moves, 0);
    /* Growth is geometric, not one reallocation per append. */
    ck_assert_int_lt(moves, 20);
    ck_assert_ptr_eq(b.header, (char *) b.data - 4);
    check_layout(&b);

    ofpbuf_prealloc_tailroom(&b, 100000);
    ck_assert_uint_ge(ofpbuf_tailroom(&b), 100000);
    ck_assert_mem_eq(b.header, "HEAD", 4);
    ck_assert_mem_eq(b.msg, "body", 4);
    ofpbuf_uninit(&b);
}
END_TEST

START_TEST(test_stub)
{
    uint64_t stub[32 / 8];
    struct ofpbuf b;
    ofpbuf_use_stub(&b, stub, sizeof stub);
    ck_assert_uint_eq(b.source, OFPBUF_STUB);

    ofpbuf_put(&b, "0123456789abcdef", 16);
    ofpbuf_put(&b, "0123456789abcdef", 16);
    /* Exactly full, still in the caller's memory. */
    ck_assert_ptr_eq(b.base, stub);
    ck_assert_uint_eq(b.source, OFPBUF_STUB);
    ck_assert_uint_eq(ofpbuf_tailroom(&b), 0);
    b.header = b.data;
    b.msg = (char *) b.data + 10;

    /* One more byte moves it to the heap transparently. */
    ofpbuf_put(&b, "!", 1);
    ck_assert_ptr_ne(b.base, stub);
    ck_assert_uint_eq(b.source, OFPBUF_MALLOC);
    ck_assert_uint_eq(b.size, 33);
    ck_assert_mem_eq(b.data, "0123456789abcdef0123456789abcdef!", 33);
    ck_assert_ptr_eq(b.header, b.data);
    ck_assert_ptr_eq(b.msg, (char *) b.data + 10);
    check_layout(&b);
    ofpbuf_uninit(&b);

    /* A stub that never overflows needs no freeing, but uninit is safe. */
    ofpbuf_use_stub(&b, stub, sizeof stub);
    ofpbuf_put(&b, "x", 1);
    ofpbuf_uninit(&b);

    /* Headroom growth on a stub also switches to the heap. */
    ofpbuf_use_stub(&b, stub, sizeof stub);
    ofpbuf_reserve(&b, 4);
    ofpbuf_put(&b, "data", 4);
    ofpbuf_push(&b, "prefix", 6);
    ck_assert_uint_eq(b.source, OFPBUF_MALLOC);
    ck_assert_mem_eq(b.data, "prefixdata", 10);
    ofpbuf_uninit(&b);

    /* The static initializer. */
    char sbuf[16];
    struct ofpbuf s = OFPBUF_STUB_INITIALIZER(sbuf);
    ofpbuf_put(&s, "0123456789", 10);
    ck_assert_ptr_eq(s.data, sbuf);
    ofpbuf_put(&s, "0123456789", 10);
    ck_assert_ptr_ne(s.data, sbuf);
    ck_assert_mem_eq(s.data, "01234567890123456789", 20);
    ofpbuf_uninit(&s);
}
END_TEST

START_TEST(test_stack_fits)
{
    char mem[16];
    struct ofpbuf b;
    ofpbuf_use_stack(&b, mem, sizeof mem);
    ofpbuf_reserve(&b, 4);
    ofpbuf_put(&b, "0123456789ab", 12);
    ofpbuf_push(&b, "HDR:", 4);
    ck_assert_ptr_eq(b.base, mem);
    ck_assert_mem_eq(mem, "HDR:0123456789ab", 16);
    ofpbuf_uninit(&b);
}
END_TEST

START_TEST(test_stack_overflow_aborts)
{
    char mem[8];
    struct ofpbuf b;
    ofpbuf_use_stack(&b, mem, sizeof mem);
    ofpbuf_put(&b, "0123456789", 10);
}
END_TEST

START_TEST(test_pull_too_much_aborts)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, "abc", 3);
    ofpbuf_pull(&b, 4);
}
END_TEST

START_TEST(test_reserve)
{
    struct ofpbuf b;
    ofpbuf_init(&b, 0);
    ofpbuf_reserve(&b, 20);
    ck_assert_uint_eq(ofpbuf_headroom(&b), 20);
    ck_assert_uint_eq(b.size, 0);
    check_layout(&b);
    ofpbuf_uninit(&b);

    ofpbuf_init(&b, 0);
    ofpbuf_reserve_with_tailroom(&b, 10, 30);
    ck_assert_uint_eq(ofpbuf_headroom(&b), 10);
    ck_assert_uint_ge(ofpbuf_tailroom(&b), 30);
    check_layout(&b);
    ofpbuf_uninit(&b);
}
END_TEST

START_TEST(test_clone)
{
    struct ofpbuf *b = ofpbuf_new(64);
    ofpbuf_put(b, "HDR-msg-body", 12);
    b->header = ofpbuf_pull(b, 4);      /* In the headroom now. */
    b->msg = (char *) b->data + 4;

    struct ofpbuf *c = ofpbuf_clone(b);
    ck_assert(ofpbuf_equal(b, c));
    ck_assert_ptr_ne(c->data, b->data);
    ck_assert_mem_eq(c->data, "msg-body", 8);
    ck_assert_mem_eq(c->header, "HDR-", 4);
    ck_assert_mem_eq(c->msg, "body", 4);
    ck_assert_uint_eq(c->source, OFPBUF_MALLOC);
    check_layout(c);

    struct ofpbuf *h = ofpbuf_clone_with_headroom(b, 32);
    ck_assert_uint_ge(ofpbuf_headroom(h), 32);
    ck_assert(ofpbuf_equal(b, h));
    ck_assert_mem_eq(h->header, "HDR-", 4);
    ck_assert_mem_eq(h->msg, "body", 4);

    struct ofpbuf *d = ofpbuf_clone_data("xyz", 3);
    ck_assert_uint_eq(d->size, 3);
    ck_assert_mem_eq(d->data, "xyz", 3);
    ck_assert(!ofpbuf_equal(b, d));
    ck_assert_ptr_null(d->header);

    struct ofpbuf *e = ofpbuf_clone_data_with_headroom("xyz", 3, 10);
    ck_assert_uint_eq(ofpbuf_headroom(e), 10);
    ck_assert(ofpbuf_equal(d, e));

    /* Empty buffers clone and compare fine. */
    struct ofpbuf *empty = ofpbuf_new(0);
    struct ofpbuf *empty2 = ofpbuf_clone(empty);
    ck_assert(ofpbuf_equal(empty, empty2));

    ofpbuf_delete(b);
    ofpbuf_delete(c);
    ofpbuf_delete(h);
    ofpbuf_delete(d);
    ofpbuf_delete(e);
    ofpbuf_delete(empty);
    ofpbuf_delete(empty2);
    ofpbuf_delete(NULL);
}
END_TEST

START_TEST(test_steal_trim_shift)
{
    /* Data at the start of its own heap block: handed over without copy. */
    struct ofpbuf b;
    ofpbuf_init(&b, 16);
    ofpbuf_put(&b, "hello", 5);
    void *base = b.base;
    char *p = ofpbuf_steal_data(&b);
    ck_assert_ptr_eq(p, base);
    ck_assert_mem_eq(p, "hello", 5);
    free(p);
    ck_assert_uint_eq(b.size, 0);
    ofpbuf_uninit(&b);                  /* Safe after stealing. */

    /* With headroom: a copy. */
    ofpbuf_init(&b, 16);
    ofpbuf_put(&b, "xxhello", 7);
    ofpbuf_pull(&b, 2);
    p = ofpbuf_steal_data(&b);
    ck_assert_mem_eq(p, "hello", 5);
    free(p);
    ofpbuf_uninit(&b);

    /* From a stub: a heap copy, stub untouched. */
    char stub[16];
    ofpbuf_use_stub(&b, stub, sizeof stub);
    ofpbuf_put(&b, "stub", 4);
    p = ofpbuf_steal_data(&b);
    ck_assert_ptr_ne(p, stub);
    ck_assert_mem_eq(p, "stub", 4);
    free(p);
    ofpbuf_uninit(&b);

    /* Trim drops headroom and tailroom. */
    struct ofpbuf *t = ofpbuf_new_with_headroom(100, 50);
    ofpbuf_put(t, "trim me", 7);
    t->msg = t->data;
    ofpbuf_trim(t);
    ck_assert_uint_eq(t->allocated, 7);
    ck_assert_uint_eq(ofpbuf_headroom(t), 0);
    ck_assert_mem_eq(t->data, "trim me", 7);
    ck_assert_ptr_eq(t->msg, t->data);
    ofpbuf_delete(t);

    /* Shift moves the payload within the allocation. */
    t = ofpbuf_new_with_headroom(10, 10);
    ofpbuf_put(t, "abc", 3);
    t->header = t->data;
    ofpbuf_shift(t, -10);
    ck_assert_ptr_eq(t->data, t->base);
    ck_assert_mem_eq(t->data, "abc", 3);
    ck_assert_ptr_eq(t->header, t->data);
    ofpbuf_shift(t, 5);
    ck_assert_uint_eq(ofpbuf_headroom(t), 5);
    ck_assert_mem_eq(t->data, "abc", 3);
    ck_assert_ptr_eq(t->header, t->data);
    ofpbuf_shift(t, 0);
    ck_assert_uint_eq(ofpbuf_headroom(t), 5);
    check_layout(t);
    ofpbuf_delete(t);
}
END_TEST

START_TEST(test_put_hex)
{
    struct ofpbuf b;
    size_t n;

    ofpbuf_init(&b, 0);
    char *end = ofpbuf_put_hex(&b, "01 02 0a FF", &n);
    ck_assert_str_eq(end, "");
    ck_assert_uint_eq(n, 4);
    ck_assert_mem_eq(b.data, "\x01\x02\x0a\xff", 4);

    end = ofpbuf_put_hex(&b, " 0102\n03 zz", &n);
    ck_assert_str_eq(end, "zz");
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(b.size, 7);

    /* An odd trailing hexit is not consumed. */
    end = ofpbuf_put_hex(&b, "aa b", NULL);
    ck_assert_str_eq(end, "b");
    ck_assert_uint_eq(b.size, 8);

    /* Dots separate pairs too, as notes and userdata print them. */
    end = ofpbuf_put_hex(&b, "00.11..22", &n);
    ck_assert_str_eq(end, "");
    ck_assert_uint_eq(n, 3);
    ck_assert_mem_eq((char *) b.data + 8, "\x00\x11\x22", 3);
    ofpbuf_uninit(&b);
}
END_TEST

START_TEST(test_to_string)
{
    struct ofpbuf *b = ofpbuf_new_with_headroom(32, 4);
    ofpbuf_put(b, "abcdefghijklmnopq", 17);
    char *s = ofpbuf_to_string(b, SIZE_MAX);
    ck_assert_str_eq(s,
        "size=17, allocated=36, head=4, tail=15\n"
        "00000000  61 62 63 64 65 66 67 68-69 6a 6b 6c 6d 6e 6f 70\n"
        "00000010  71\n");
    free(s);

    s = ofpbuf_to_string(b, 2);
    ck_assert_str_eq(s,
        "size=17, allocated=36, head=4, tail=15\n"
        "00000000  61 62\n");
    free(s);
    ofpbuf_delete(b);
}
END_TEST

START_TEST(test_list)
{
    struct ovs_list queue = OVS_LIST_INITIALIZER(&queue);
    for (int i = 0; i < 5; i++) {
        struct ofpbuf *b = ofpbuf_new(8);
        ofpbuf_put(b, &i, sizeof i);
        ovs_list_push_back(&queue, &b->list_node);
    }
    int expected = 0;
    struct ofpbuf *b;
    LIST_FOR_EACH (b, list_node, &queue) {
        ck_assert_mem_eq(b->data, &expected, sizeof expected);
        expected++;
    }
    ck_assert_ptr_eq(ofpbuf_from_list(queue.next)->list_node.prev, &queue);
    ofpbuf_list_delete(&queue);
    ck_assert(ovs_list_is_empty(&queue));
}
END_TEST

START_TEST(test_use_ds)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    ds_put_cstr(&ds, "text");

    struct ofpbuf b;
    ofpbuf_use_ds(&b, &ds);
    ck_assert_ptr_eq(b.data, ds.string);
    ck_assert_uint_eq(b.size, 4);
    ck_assert_uint_eq(ofpbuf_tailroom(&b), 0);
    ck_assert_mem_eq(ofpbuf_pull(&b, 2), "te", 2);
    ofpbuf_uninit(&b);              /* The ds still owns the memory. */
    ck_assert_str_eq(ds_cstr(&ds), "text");
    ds_destroy(&ds);
}
END_TEST

static Suite *
ofpbuf_suite(bool forking)
{
    Suite *s = suite_create("ofpbuf");
    TCase *tc = tcase_create("ofpbuf");
    tcase_add_test(tc, test_put_and_pull);
    tcase_add_test(tc, test_at);
    tcase_add_test(tc, test_headroom_push);
    tcase_add_test(tc, test_realloc_keeps_header_valid);
    tcase_add_test(tc, test_stub);
    tcase_add_test(tc, test_stack_fits);
    tcase_add_test(tc, test_reserve);
    tcase_add_test(tc, test_clone);
    tcase_add_test(tc, test_steal_trim_shift);
    tcase_add_test(tc, test_put_hex);
    tcase_add_test(tc, test_to_string);
    tcase_add_test(tc, test_list);
    tcase_add_test(tc, test_use_ds);
    suite_add_tcase(s, tc);

    /* Misuse must abort rather than corrupt memory.  These need a child
     * process, so they only run when Check forks. */
    if (forking) {
        TCase *death = tcase_create("aborts");
        tcase_add_test_raise_signal(death, test_stack_overflow_aborts,
                                    SIGABRT);
        tcase_add_test_raise_signal(death, test_pull_too_much_aborts,
                                    SIGABRT);
        suite_add_tcase(s, death);
    }
    return s;
}

int
main(void)
{
    const char *ck_fork = getenv("CK_FORK");
    bool forking = !ck_fork || strcmp(ck_fork, "no");
    SRunner *sr = srunner_create(ofpbuf_suite(forking));
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
