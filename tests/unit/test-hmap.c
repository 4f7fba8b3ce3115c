/* Unit tests for hmap.h. */
#include <config.h>
#include "hmap.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"
#include "hash.h"

#define CHECK_EQ(A, B) CHECK((A) == (B))

struct element {
    int value;
    struct hmap_node node;
};

typedef size_t hash_func(int value);

static size_t
good_hash(int value)
{
    return hash_int(value, 0);
}

static size_t
identity_hash(int value)
{
    return value;
}

/* Every node in one chain. */
static size_t
constant_hash(int value OVS_UNUSED)
{
    return 123;
}

/* Few distinct hashes, so chains mix equal and unequal hashes. */
static size_t
mod_hash(int value)
{
    return value % 4;
}

static hash_func *const hash_funcs[] = {
    good_hash, identity_hash, constant_hash, mod_hash,
};

static int
compare_ints(const void *a_, const void *b_)
{
    const int *a = a_, *b = b_;
    return *a < *b ? -1 : *a > *b;
}

/* Checks that MAP holds exactly the N distinct VALUES, through every way of
 * looking at it. */
static void
check_hmap(const struct hmap *map, const int *values, size_t n,
           hash_func *hash)
{
    CHECK_EQ(hmap_count(map), n);
    CHECK(hmap_is_empty(map) == (n == 0));

    /* Full iteration sees each value once. */
    int *seen = malloc((n + 1) * sizeof *seen);
    size_t i = 0;
    struct element *e;
    HMAP_FOR_EACH (e, node, map) {
        CHECK(i < n);
        seen[i++] = e->value;
    }
    CHECK(e == NULL);
    CHECK_EQ(i, n);

    int *sorted = malloc((n + 1) * sizeof *sorted);
    if (n) {
        memcpy(sorted, values, n * sizeof *values);
    }
    qsort(seen, n, sizeof *seen, compare_ints);
    qsort(sorted, n, sizeof *sorted, compare_ints);
    for (i = 0; i < n; i++) {
        CHECK_EQ(seen[i], sorted[i]);
    }

    /* Lookup by hash finds each value exactly once. */
    for (i = 0; i < n; i++) {
        size_t count = 0;
        HMAP_FOR_EACH_WITH_HASH (e, node, hash(values[i]), map) {
            CHECK_EQ(e->node.hash, hash(values[i]));
            count += e->value == values[i];
            CHECK(hmap_contains(map, &e->node));
        }
        CHECK_EQ(count, 1);
    }

    /* Load factor stays bounded: at most 2 nodes per bucket on average. */
    CHECK(n / 2 <= map->mask);

    free(seen);
    free(sorted);
}

static struct element *
make_elements(size_t n)
{
    struct element *elements = calloc(n + 1, sizeof *elements);
    for (size_t i = 0; i < n; i++) {
        elements[i].value = (int) i;
    }
    return elements;
}

START_TEST(test_empty)
{
    struct hmap map = HMAP_INITIALIZER(&map);
    check_hmap(&map, NULL, 0, good_hash);
    ck_assert_ptr_null(hmap_first(&map));
    ck_assert_ptr_null(hmap_first_with_hash(&map, 5));
    ck_assert_ptr_null(hmap_random_node(&map));
    /* Nothing was allocated for an empty map. */
    ck_assert_ptr_eq(map.buckets, &map.one);
    hmap_destroy(&map);

    hmap_init(&map);
    ck_assert_ptr_eq(map.buckets, &map.one);
    hmap_shrink(&map);
    hmap_expand(&map);
    check_hmap(&map, NULL, 0, good_hash);
    hmap_destroy(&map);
}
END_TEST

/* Inserts N elements one by one and removes them again, checking the map
 * after each step, for every hash function. */
START_TEST(test_insert_remove)
{
    enum { N = 200 };
    int values[N];

    for (size_t h = 0; h < ARRAY_SIZE(hash_funcs); h++) {
        hash_func *hash = hash_funcs[h];
        struct element *elements = make_elements(N);
        struct hmap map;

        hmap_init(&map);
        for (int i = 0; i < N; i++) {
            hmap_insert(&map, &elements[i].node, hash(i));
            values[i] = i;
            check_hmap(&map, values, i + 1, hash);
        }

        /* Removal never shrinks on its own. */
        size_t grown_mask = map.mask;
        ck_assert_uint_ge(grown_mask, N / 2);

        /* Remove from the middle outwards in an order unrelated to
         * insertion. */
        int n = N;
        for (int step = 0; step < N; step++) {
            int victim = (step * 7) % n;
            int value = values[victim];
            ck_assert(hmap_contains(&map, &elements[value].node));
            hmap_remove(&map, &elements[value].node);
            ck_assert(!hmap_contains(&map, &elements[value].node));
            values[victim] = values[--n];
            check_hmap(&map, values, n, hash);
            ck_assert_uint_eq(map.mask, grown_mask);
        }

        hmap_shrink(&map);
        ck_assert_uint_eq(map.mask, 0);
        ck_assert_ptr_eq(map.buckets, &map.one);
        hmap_destroy(&map);
        free(elements);
    }
}
END_TEST

START_TEST(test_many_nodes_grow_and_shrink)
{
    enum { N = 20000 };
    struct element *elements = make_elements(N);
    int *values = malloc(N * sizeof *values);
    struct hmap map;

    hmap_init(&map);
    for (int i = 0; i < N; i++) {
        hmap_insert(&map, &elements[i].node, good_hash(i));
        values[i] = i;
    }
    check_hmap(&map, values, N, good_hash);

    /* Remove 99% of the nodes, then shrink: the table follows and every
     * remaining node is still found. */
    int kept = 0;
    for (int i = 0; i < N; i++) {
        if (i % 100) {
            hmap_remove(&map, &elements[i].node);
        } else {
            values[kept++] = i;
        }
    }
    size_t before = map.mask;
    hmap_shrink(&map);
    ck_assert_uint_lt(map.mask, before);
    check_hmap(&map, values, kept, good_hash);

    /* hmap_expand() on a map that is not crowded does nothing. */
    size_t mask = map.mask;
    hmap_expand(&map);
    ck_assert_uint_eq(map.mask, mask);

    hmap_destroy(&map);
    free(values);
    free(elements);
}
END_TEST

START_TEST(test_colliding_hashes)
{
    /* Hashes that differ but land in the same bucket: WITH_HASH must
     * filter, IN_BUCKET must not. */
    struct element a = { .value = 1 }, b = { .value = 2 }, c = { .value = 3 };
    struct hmap map = HMAP_INITIALIZER(&map);
    struct element *e;

    hmap_insert(&map, &a.node, 0x10);
    hmap_insert(&map, &b.node, 0x20);
    hmap_insert(&map, &c.node, 0x10);
    size_t bucket_mates = 0;
    HMAP_FOR_EACH_IN_BUCKET (e, node, 0x10, &map) {
        if (e->node.hash == 0x20) {
            bucket_mates++;
        }
    }
    /* With 3 nodes the table has at most 4 buckets, so 0x10 and 0x20
     * share one. */
    ck_assert_uint_le(map.mask, 3);
    ck_assert_uint_eq(bucket_mates, 1);

    int sum = 0;
    HMAP_FOR_EACH_WITH_HASH (e, node, 0x10, &map) {
        sum += e->value;
    }
    ck_assert_int_eq(sum, 1 + 3);

    struct hmap_node *first = hmap_first_with_hash(&map, 0x10);
    ck_assert_ptr_nonnull(first);
    struct hmap_node *second = hmap_next_with_hash(first);
    ck_assert_ptr_nonnull(second);
    ck_assert_ptr_null(hmap_next_with_hash(second));
    ck_assert_ptr_null(hmap_first_with_hash(&map, 0x30));
    hmap_destroy(&map);
}
END_TEST

START_TEST(test_safe_iteration)
{
    enum { N = 1000 };
    struct hmap map = HMAP_INITIALIZER(&map);
    struct element *e;

    for (int i = 0; i < N; i++) {
        e = malloc(sizeof *e);
        e->value = i;
        hmap_insert(&map, &e->node, mod_hash(i) * 1000 + i % 7);
    }

    /* Delete and free every odd element while iterating. */
    size_t visited = 0;
    HMAP_FOR_EACH_SAFE (e, node, &map) {
        visited++;
        if (e->value % 2) {
            hmap_remove(&map, &e->node);
            free(e);
        }
    }
    ck_assert_ptr_null(e);
    ck_assert_uint_eq(visited, N);
    ck_assert_uint_eq(hmap_count(&map), N / 2);
    HMAP_FOR_EACH (e, node, &map) {
        ck_assert_int_eq(e->value % 2, 0);
    }

    /* The 4-argument form, with the successor in a caller variable:
     * delete every element whose value is a multiple of 4. */
    struct element *next;
    visited = 0;
    HMAP_FOR_EACH_SAFE (e, next, node, &map) {
        visited++;
        if (e->value % 4 == 0) {
            hmap_remove(&map, &e->node);
            free(e);
        }
    }
    ck_assert_ptr_null(e);
    ck_assert_uint_eq(visited, N / 2);
    ck_assert_uint_eq(hmap_count(&map), N / 4);

    /* Delete everything while iterating. */
    visited = 0;
    HMAP_FOR_EACH_SAFE (e, node, &map) {
        hmap_remove(&map, &e->node);
        free(e);
        visited++;
    }
    ck_assert_uint_eq(visited, N / 4);
    ck_assert(hmap_is_empty(&map));
    hmap_destroy(&map);
}
END_TEST

START_TEST(test_pop)
{
    enum { N = 300 };
    struct hmap map = HMAP_INITIALIZER(&map);
    struct element *e;
    bool seen[N] = { false };

    for (int i = 0; i < N; i++) {
        e = malloc(sizeof *e);
        e->value = i;
        hmap_insert(&map, &e->node, identity_hash(i));
    }

    size_t popped = 0;
    HMAP_FOR_EACH_POP (e, node, &map) {
        /* Already removed by the time the body runs. */
        ck_assert(!hmap_contains(&map, &e->node));
        ck_assert(!seen[e->value]);
        seen[e->value] = true;
        popped++;
        ck_assert_uint_eq(hmap_count(&map), N - popped);
        free(e);
    }
    ck_assert_uint_eq(popped, N);
    ck_assert(hmap_is_empty(&map));
    hmap_destroy(&map);
}
END_TEST

START_TEST(test_reserve_and_insert_fast)
{
    enum { N = 1000 };
    struct element *elements = make_elements(N);
    int values[N];
    struct hmap map;

    hmap_init(&map);
    hmap_reserve(&map, N);
    size_t mask = map.mask;
    ck_assert_uint_ge(mask, N / 2);
    for (int i = 0; i < N; i++) {
        hmap_insert_fast(&map, &elements[i].node, good_hash(i));
        values[i] = i;
    }
    /* Reserved room was enough: no resize happened. */
    ck_assert_uint_eq(map.mask, mask);
    check_hmap(&map, values, N, good_hash);

    /* Reserving less than is present never shrinks. */
    hmap_reserve(&map, 1);
    ck_assert_uint_eq(map.mask, mask);

    /* hmap_clear() forgets nodes but keeps the buckets for reuse. */
    struct hmap_node **buckets = map.buckets;
    hmap_clear(&map);
    ck_assert(hmap_is_empty(&map));
    ck_assert_ptr_null(hmap_first(&map));
    ck_assert_ptr_eq(map.buckets, buckets);
    for (int i = 0; i < 10; i++) {
        hmap_insert(&map, &elements[i].node, good_hash(i));
    }
    check_hmap(&map, values, 10, good_hash);

    hmap_destroy(&map);
    free(elements);
}
END_TEST

START_TEST(test_replace)
{
    struct element old = { .value = 5 }, new = { .value = 5 };
    struct element other = { .value = 6 };
    struct hmap map = HMAP_INITIALIZER(&map);
    struct element *e;

    hmap_insert(&map, &other.node, constant_hash(6));
    hmap_insert(&map, &old.node, constant_hash(5));
    hmap_replace(&map, &old.node, &new.node);

    ck_assert_uint_eq(hmap_count(&map), 2);
    ck_assert(hmap_contains(&map, &new.node));
    ck_assert(!hmap_contains(&map, &old.node));
    ck_assert(hmap_contains(&map, &other.node));
    size_t n = 0;
    HMAP_FOR_EACH (e, node, &map) {
        ck_assert(e == &new || e == &other);
        n++;
    }
    ck_assert_uint_eq(n, 2);
    hmap_destroy(&map);
}
END_TEST

START_TEST(test_swap_and_moved)
{
    enum { N = 50 };
    struct element *elements = make_elements(N);
    struct element single = { .value = 1000 };
    int values[N];
    struct hmap big, small;

    hmap_init(&big);
    hmap_init(&small);
    for (int i = 0; i < N; i++) {
        hmap_insert(&big, &elements[i].node, good_hash(i));
        values[i] = i;
    }
    hmap_insert(&small, &single.node, good_hash(1000));

    /* SMALL uses its inline bucket: swapping must re-aim it. */
    hmap_swap(&big, &small);
    check_hmap(&small, values, N, good_hash);
    int one = 1000;
    check_hmap(&big, &one, 1, good_hash);
    ck_assert_ptr_eq(big.buckets, &big.one);

    /* Copying the struct elsewhere and calling hmap_moved(). */
    struct hmap *copy = malloc(sizeof *copy);
    memcpy(copy, &big, sizeof big);
    memset(&big, 0xcc, sizeof big);
    hmap_moved(copy);
    check_hmap(copy, &one, 1, good_hash);

    hmap_destroy(copy);
    hmap_destroy(&small);
    free(copy);
    free(elements);
}
END_TEST

START_TEST(test_node_null_and_random)
{
    struct element e = { .value = 1 };
    hmap_node_nullify(&e.node);
    ck_assert(hmap_node_is_null(&e.node));

    enum { N = 64 };
    struct element *elements = make_elements(N);
    struct hmap map = HMAP_INITIALIZER(&map);
    for (int i = 0; i < N; i++) {
        hmap_insert(&map, &elements[i].node, good_hash(i));
        ck_assert(!hmap_node_is_null(&elements[i].node));
    }
    for (int i = 0; i < 100; i++) {
        struct hmap_node *node = hmap_random_node(&map);
        ck_assert_ptr_nonnull(node);
        ck_assert(hmap_contains(&map, node));
    }
    hmap_destroy(&map);
    free(elements);
}
END_TEST

START_TEST(test_first_next)
{
    enum { N = 100 };
    struct element *elements = make_elements(N);
    struct hmap map = HMAP_INITIALIZER(&map);
    for (int i = 0; i < N; i++) {
        hmap_insert(&map, &elements[i].node, identity_hash(i * 3));
    }
    size_t n = 0;
    for (struct hmap_node *node = hmap_first(&map); node;
         node = hmap_next(&map, node)) {
        n++;
    }
    ck_assert_uint_eq(n, N);

    /* HMAP_FOR_EACH_CONTINUE picks up after the given node. */
    struct element *e = CONTAINER_OF(hmap_first(&map), struct element, node);
    n = 1;
    HMAP_FOR_EACH_CONTINUE (e, node, &map) {
        n++;
    }
    ck_assert_uint_eq(n, N);

    hmap_destroy(&map);
    free(elements);
}
END_TEST

static Suite *
hmap_suite(void)
{
    Suite *s = suite_create("hmap");
    TCase *tc = tcase_create("hmap");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_empty);
    tcase_add_test(tc, test_insert_remove);
    tcase_add_test(tc, test_many_nodes_grow_and_shrink);
    tcase_add_test(tc, test_colliding_hashes);
    tcase_add_test(tc, test_safe_iteration);
    tcase_add_test(tc, test_pop);
    tcase_add_test(tc, test_reserve_and_insert_fast);
    tcase_add_test(tc, test_replace);
    tcase_add_test(tc, test_swap_and_moved);
    tcase_add_test(tc, test_node_null_and_random);
    tcase_add_test(tc, test_first_next);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(hmap_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
