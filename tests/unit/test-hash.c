/* Unit tests for hash.h: the properties struct hmap relies on. */
#include <config.h>
#include "hash.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"

static int
popcount32(uint32_t x)
{
    return __builtin_popcount(x);
}

START_TEST(test_bytes_deterministic_and_basis_sensitive)
{
    const char *s = "open vswitch";
    ck_assert_uint_eq(hash_bytes(s, strlen(s), 0), hash_bytes(s, strlen(s), 0));
    ck_assert_uint_ne(hash_bytes(s, strlen(s), 0), hash_bytes(s, strlen(s), 1));
    ck_assert_uint_eq(hash_string(s, 7), hash_bytes(s, strlen(s), 7));
    ck_assert_uint_ne(hash_string("br0", 0), hash_string("br1", 0));
}
END_TEST

START_TEST(test_bytes_alignment_independent)
{
    /* The same bytes at every alignment must hash the same, or lookups of
     * keys copied into packed structures would fail. */
    const char *text = "the quick brown fox jumps";
    size_t n = strlen(text);
    char buf[64];

    uint32_t expected = hash_bytes(text, n, 42);
    for (int shift = 0; shift < 8; shift++) {
        memcpy(buf + shift, text, n);
        ck_assert_uint_eq(hash_bytes(buf + shift, n, 42), expected);
    }
}
END_TEST

START_TEST(test_bytes_length_matters)
{
    /* Zero padding of the tail must not make different lengths collide. */
    const char data[8] = { 'a', 'b', 0, 0, 0, 0, 0, 0 };
    uint32_t seen[9];
    for (size_t n = 0; n <= 8; n++) {
        seen[n] = hash_bytes(data, n, 0);
        for (size_t m = 0; m < n; m++) {
            ck_assert_uint_ne(seen[m], seen[n]);
        }
    }
}
END_TEST

START_TEST(test_words_match_bytes)
{
    uint32_t words[5] = { 1, 0xdeadbeef, 3, 0, 0xffffffff };
    for (size_t n = 0; n <= 5; n++) {
        ck_assert_uint_eq(hash_words(words, n, 99),
                          hash_bytes(words, n * 4, 99));
    }
}
END_TEST

START_TEST(test_int_is_collision_free)
{
    /* Every step of hash_int() is a bijection on 32 bits, so no two inputs
     * may collide; check a large range. */
    enum { N = 1 << 16 };
    uint32_t *hashes = malloc(N * sizeof *hashes);
    for (uint32_t i = 0; i < N; i++) {
        hashes[i] = hash_int(i, 0);
    }
    /* Sort and look for neighbours that are equal. */
    for (size_t gap = N / 2; gap > 0; gap /= 2) {   /* shell sort */
        for (size_t i = gap; i < N; i++) {
            uint32_t tmp = hashes[i];
            size_t j = i;
            for (; j >= gap && hashes[j - gap] > tmp; j -= gap) {
                hashes[j] = hashes[j - gap];
            }
            hashes[j] = tmp;
        }
    }
    for (size_t i = 1; i < N; i++) {
        CHECK(hashes[i - 1] != hashes[i]);
    }
    free(hashes);
}
END_TEST

START_TEST(test_int_avalanche)
{
    /* Flipping one input bit should flip about half of the output bits;
     * hmap uses only the low bits, so weak mixing would cluster buckets. */
    long long int total = 0, samples = 0;
    for (uint32_t x = 0; x < 2000; x++) {
        uint32_t h = hash_int(x * 2654435761u, 0);
        for (int bit = 0; bit < 32; bit++) {
            uint32_t h2 = hash_int((x * 2654435761u) ^ (1u << bit), 0);
            int flipped = popcount32(h ^ h2);
            CHECK(flipped > 0);
            total += flipped;
            samples++;
        }
    }
    double mean = (double) total / samples;
    ck_assert(mean > 15.0 && mean < 17.0);
}
END_TEST

START_TEST(test_low_bits_spread)
{
    /* Sequential keys must spread evenly over a power-of-2 table. */
    enum { BUCKETS = 256, KEYS = BUCKETS * 64 };
    int counts[BUCKETS] = { 0 };
    for (uint32_t i = 0; i < KEYS; i++) {
        counts[hash_int(i, 0) & (BUCKETS - 1)]++;
    }
    for (int b = 0; b < BUCKETS; b++) {
        ck_assert_int_gt(counts[b], 64 / 2);
        ck_assert_int_lt(counts[b], 64 * 2);
    }

    /* Same for strings that differ only in their last character. */
    int scounts[16] = { 0 };
    char name[16];
    for (int i = 0; i < 16 * 64; i++) {
        snprintf(name, sizeof name, "port%d", i);
        scounts[hash_string(name, 0) & 15]++;
    }
    for (int b = 0; b < 16; b++) {
        ck_assert_int_gt(scounts[b], 64 / 2);
        ck_assert_int_lt(scounts[b], 64 * 2);
    }
}
END_TEST

START_TEST(test_wrappers)
{
    ck_assert_uint_ne(hash_uint64(1), hash_uint64(1ULL << 32));
    ck_assert_uint_eq(hash_uint64(5), hash_uint64_basis(5, 0));
    ck_assert_uint_ne(hash_uint64_basis(5, 0), hash_uint64_basis(5, 1));

    int x;
    ck_assert_uint_eq(hash_pointer(&x, 3),
                      hash_uint64_basis((uintptr_t) &x, 3));
    ck_assert_uint_ne(hash_pointer(&x, 0), hash_pointer(&x + 1, 0));

    ck_assert_uint_ne(hash_boolean(true, 0), hash_boolean(false, 0));
    ck_assert_uint_ne(hash_boolean(true, 0), hash_boolean(true, 1));

    ck_assert_uint_ne(hash_int(7, 0), hash_int(7, 1));
    ck_assert_uint_ne(hash_2words(1, 2), hash_2words(2, 1));

    /* hash_add()/hash_finish() chains are order-sensitive. */
    uint32_t a = hash_finish(hash_add(hash_add(0, 1), 2), 8);
    uint32_t b = hash_finish(hash_add(hash_add(0, 2), 1), 8);
    ck_assert_uint_ne(a, b);
    ck_assert_uint_ne(hash_finish(hash_add64(0, 1), 8),
                      hash_finish(hash_add64(0, 1ULL << 32), 8));

    uint64_t words64[2] = { 1, 2 };
    ck_assert_uint_eq(hash_words64(words64, 2, 0),
                      hash_words64(words64, 2, 0));
    ck_assert_uint_ne(hash_words64(words64, 2, 0),
                      hash_words64(words64, 1, 0));
}
END_TEST

static Suite *
hash_suite(void)
{
    Suite *s = suite_create("hash");
    TCase *tc = tcase_create("hash");
    tcase_add_test(tc, test_bytes_deterministic_and_basis_sensitive);
    tcase_add_test(tc, test_bytes_alignment_independent);
    tcase_add_test(tc, test_bytes_length_matters);
    tcase_add_test(tc, test_words_match_bytes);
    tcase_add_test(tc, test_wrappers);
    suite_add_tcase(s, tc);

    TCase *quality = tcase_create("quality");
    tcase_set_timeout(quality, 60);
    tcase_add_test(quality, test_int_is_collision_free);
    tcase_add_test(quality, test_int_avalanche);
    tcase_add_test(quality, test_low_bits_spread);
    suite_add_tcase(s, quality);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(hash_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
