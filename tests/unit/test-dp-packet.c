/* Unit tests for dp-packet.h: headroom, layer offsets that follow their
 * headers through pushes and pulls, foreign bytes that are never freed,
 * batches and the receive pool's reuse. */
#include <config.h>
#include "dp-packet.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"

static void
fill_pattern(uint8_t *p, size_t n, uint8_t seed)
{
    for (size_t i = 0; i < n; i++) {
        p[i] = seed + i;
    }
}

START_TEST(test_new_put_push_pull)
{
    struct dp_packet *p = dp_packet_new(64);
    ck_assert_uint_eq(dp_packet_size(p), 0);
    ck_assert_uint_eq(dp_packet_headroom(p), DP_PACKET_HEADROOM);
    ck_assert(p->l3_ofs == DP_PACKET_OFS_NONE);

    uint8_t frame[60];
    fill_pattern(frame, sizeof frame, 1);
    dp_packet_put(p, frame, sizeof frame);
    ck_assert_uint_eq(dp_packet_size(p), 60);
    ck_assert(!memcmp(dp_packet_data(p), frame, 60));

    /* A push uses the headroom: the bytes do not move. */
    void *before = dp_packet_data(p);
    p->l3_ofs = 14;
    p->l4_ofs = 34;
    uint8_t tag[4] = { 0x81, 0x00, 0x00, 0x05 };
    dp_packet_push(p, tag, sizeof tag);
    ck_assert_ptr_eq((char *) dp_packet_data(p) + 4, before);
    ck_assert_uint_eq(p->l3_ofs, 18);
    ck_assert_uint_eq(p->l4_ofs, 38);
    ck_assert_uint_eq(((uint8_t *) dp_packet_l3(p))[0], frame[14]);

    /* Pulling past l3 clears it. */
    dp_packet_pull(p, 20);
    ck_assert(p->l3_ofs == DP_PACKET_OFS_NONE);
    ck_assert_uint_eq(p->l4_ofs, 18);
    ck_assert_uint_eq(((uint8_t *) dp_packet_l4(p))[0], frame[34]);
    dp_packet_delete(p);
}
END_TEST

START_TEST(test_push_beyond_headroom_keeps_bytes)
{
    struct dp_packet *p = dp_packet_new_with_headroom(16, 2);
    uint8_t frame[16];
    fill_pattern(frame, sizeof frame, 7);
    dp_packet_put(p, frame, sizeof frame);
    p->l3_ofs = 14;
    uint8_t hdr[40];
    fill_pattern(hdr, sizeof hdr, 100);
    dp_packet_push(p, hdr, sizeof hdr);
    ck_assert_uint_eq(dp_packet_size(p), 56);
    ck_assert(!memcmp(dp_packet_data(p), hdr, 40));
    ck_assert(!memcmp((uint8_t *) dp_packet_data(p) + 40, frame, 16));
    ck_assert_uint_eq(p->l3_ofs, 54);
    /* Tailroom grows too. */
    for (int i = 0; i < 1000; i++) {
        *(uint8_t *) dp_packet_put_uninit(p, 1) = i;
    }
    ck_assert_uint_eq(dp_packet_size(p), 1056);
    ck_assert_uint_eq(((uint8_t *) dp_packet_data(p))[1055], 999 & 0xff);
    dp_packet_delete(p);
}
END_TEST

START_TEST(test_insert_and_remove_front)
{
    struct dp_packet p;
    dp_packet_init(&p, 64);
    uint8_t frame[34];
    fill_pattern(frame, sizeof frame, 0);
    dp_packet_put(&p, frame, sizeof frame);
    p.l3_ofs = 14;
    p.l4_ofs = 34;

    uint8_t *tag = dp_packet_insert_front(&p, 12, 4);
    memcpy(tag, "\x81\x00\x00\x0a", 4);
    ck_assert_uint_eq(dp_packet_size(&p), 38);
    ck_assert(!memcmp(dp_packet_data(&p), frame, 12));
    ck_assert(!memcmp((uint8_t *) dp_packet_data(&p) + 16, frame + 12, 22));
    ck_assert_uint_eq(p.l3_ofs, 18);
    ck_assert_uint_eq(p.l4_ofs, 38);
    p.l2_5_ofs = 12;

    dp_packet_remove_front(&p, 12, 4);
    ck_assert_uint_eq(dp_packet_size(&p), 34);
    ck_assert(!memcmp(dp_packet_data(&p), frame, 34));
    ck_assert(p.l2_5_ofs == DP_PACKET_OFS_NONE);
    ck_assert_uint_eq(p.l3_ofs, 14);
    dp_packet_uninit(&p);
}
END_TEST

/* A foreign packet writes in place and never frees the owner's block;
 * growing past it moves the bytes to the heap and leaves the block
 * untouched from then on. */
START_TEST(test_foreign_bytes)
{
    uint8_t slot[80];
    memset(slot, 0xee, sizeof slot);
    fill_pattern(slot + 8, 60, 3);

    struct dp_packet p;
    dp_packet_use_foreign(&p, slot, sizeof slot, 8, 60);
    ck_assert_ptr_eq(dp_packet_data(&p), slot + 8);
    ((uint8_t *) dp_packet_data(&p))[0] = 0x42;
    ck_assert_uint_eq(slot[8], 0x42);

    /* 8 bytes of headroom: a 4-byte tag fits in place. */
    dp_packet_insert_front(&p, 12, 4);
    ck_assert(p.source == DPBUF_FOREIGN);
    ck_assert_ptr_eq(dp_packet_data(&p), slot + 4);

    /* 20 more do not: the frame moves to the heap. */
    dp_packet_push_uninit(&p, 20);
    ck_assert(p.source == DPBUF_MALLOC);
    ck_assert_uint_eq(dp_packet_size(&p), 84);
    ck_assert_uint_eq(((uint8_t *) dp_packet_data(&p))[20], 0x42);
    slot[4] = 0x99;         /* The block is not referenced any more. */
    ck_assert_uint_eq(((uint8_t *) dp_packet_data(&p))[20], 0x42);
    dp_packet_uninit(&p);   /* Frees the heap copy only (valgrind/ASan). */
}
END_TEST

START_TEST(test_clone_is_deep)
{
    struct dp_packet *p = dp_packet_clone_data("abcdefghijklmnop", 16);
    p->l3_ofs = 4;
    p->md.in_port = 7;
    dp_packet_set_hash(p, 0x1234);
    struct dp_packet *c = dp_packet_clone(p);
    ck_assert_ptr_ne(dp_packet_data(c), dp_packet_data(p));
    ck_assert(!memcmp(dp_packet_data(c), "abcdefghijklmnop", 16));
    ck_assert_uint_eq(c->l3_ofs, 4);
    ck_assert_uint_eq(c->md.in_port, 7);
    ck_assert(dp_packet_hash_valid(c) && c->hash == 0x1234);
    ((char *) dp_packet_data(c))[0] = 'X';
    ck_assert_int_eq(((char *) dp_packet_data(p))[0], 'a');
    dp_packet_delete(c);
    dp_packet_delete(p);
}
END_TEST

START_TEST(test_batch)
{
    struct dp_packet_batch b, copy;
    dp_packet_batch_init(&b);
    for (int i = 0; i < NETDEV_MAX_BURST; i++) {
        uint8_t byte = i;
        dp_packet_batch_add(&b, dp_packet_clone_data(&byte, 1));
    }
    ck_assert(dp_packet_batch_is_full(&b));
    dp_packet_batch_clone(&copy, &b);
    struct dp_packet *p;
    int n = 0;
    DP_PACKET_BATCH_FOR_EACH (i, p, &copy) {
        ck_assert_uint_eq(*(uint8_t *) dp_packet_data(p), i);
        ck_assert_ptr_ne(p, b.packets[i]);
        n++;
    }
    ck_assert_int_eq(n, NETDEV_MAX_BURST);
    dp_packet_batch_delete(&copy);
    dp_packet_batch_delete(&b);
    ck_assert_uint_eq(dp_packet_batch_size(&b), 0);
}
END_TEST

/* The pool's packets come back to their slots on every reset, even one
 * that grew onto the heap, so a receive loop never mallocs per packet. */
START_TEST(test_rx_pool_reuse)
{
    struct dp_packet_rx_pool pool;
    dp_packet_rx_pool_init(&pool, 256, 64);
    for (int round = 0; round < 3; round++) {
        dp_packet_rx_pool_reset(&pool);
        struct dp_packet_batch batch;
        dp_packet_batch_init(&batch);
        for (size_t i = 0; i < 4; i++) {
            struct dp_packet *p = dp_packet_rx_pool_packet(&pool, i);
            ck_assert_ptr_eq(dp_packet_base(p), pool.block + i * 256);
            ck_assert_uint_eq(dp_packet_headroom(p), 64);
            ck_assert_uint_eq(dp_packet_tailroom(p), 192);
            ck_assert_uint_eq(p->md.in_port, 0);
            memset(dp_packet_data(p), (int) i, 100);
            dp_packet_set_size(p, 100);
            p->md.in_port = 5;
            dp_packet_batch_add(&batch, p);
        }
        /* One packet outgrows its slot. */
        dp_packet_push_uninit(batch.packets[1], 100);
        ck_assert(batch.packets[1]->source == DPBUF_MALLOC);
    }
    dp_packet_rx_pool_destroy(&pool);
}
END_TEST

START_TEST(test_format_hex)
{
    struct dp_packet *p = dp_packet_clone_data("\x00\x01\xab", 3);
    struct ds s = DS_EMPTY_INITIALIZER;
    dp_packet_format_hex(&s, p);
    ck_assert_str_eq(ds_cstr(&s), "3 bytes: 0001ab");
    ds_destroy(&s);
    dp_packet_delete(p);
}
END_TEST

static Suite *
dp_packet_suite(void)
{
    Suite *s = suite_create("dp-packet");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_new_put_push_pull);
    tcase_add_test(tc, test_push_beyond_headroom_keeps_bytes);
    tcase_add_test(tc, test_insert_and_remove_front);
    tcase_add_test(tc, test_foreign_bytes);
    tcase_add_test(tc, test_clone_is_deep);
    tcase_add_test(tc, test_batch);
    tcase_add_test(tc, test_rx_pool_reuse);
    tcase_add_test(tc, test_format_hex);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(dp_packet_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
