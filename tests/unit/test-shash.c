/* Unit tests for shash.h. */
#include <config.h>
#include "shash.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

static int one = 1, two = 2, three = 3;

START_TEST(test_add_find)
{
    struct shash sh = SHASH_INITIALIZER(&sh);
    ck_assert(shash_is_empty(&sh));
    ck_assert_ptr_null(shash_find(&sh, "a"));
    ck_assert_ptr_null(shash_find_data(&sh, "a"));

    char name[] = "a";
    struct shash_node *node = shash_add(&sh, name, &one);
    name[0] = 'X';              /* The map keeps its own copy. */
    ck_assert_str_eq(node->name, "a");
    ck_assert_ptr_eq(shash_find(&sh, "a"), node);
    ck_assert_ptr_eq(shash_find_data(&sh, "a"), &one);
    ck_assert_ptr_null(shash_find(&sh, "X"));

    shash_add_nocopy(&sh, xstrdup("bb"), &two);
    ck_assert_ptr_eq(shash_find_data(&sh, "bb"), &two);
    ck_assert_ptr_null(shash_find(&sh, "b"));
    ck_assert_ptr_null(shash_find(&sh, "bbb"));

    /* shash_find_len() looks up a prefix of a longer string. */
    ck_assert_ptr_eq(shash_find_len(&sh, "bbxyz", 2)->data, &two);
    ck_assert_ptr_eq(shash_find_len(&sh, "a=b", 1)->data, &one);
    ck_assert_ptr_null(shash_find_len(&sh, "bbxyz", 3));

    ck_assert(!shash_add_once(&sh, "a", &three));
    ck_assert_ptr_eq(shash_find_data(&sh, "a"), &one);
    ck_assert(shash_add_once(&sh, "", &three));
    ck_assert_ptr_eq(shash_find_data(&sh, ""), &three);
    ck_assert_uint_eq(shash_count(&sh), 3);
    ck_assert_ptr_null(shash_first(&sh));
    shash_destroy(&sh);
}
END_TEST

START_TEST(test_replace_delete_steal)
{
    struct shash sh;
    shash_init(&sh);

    ck_assert_ptr_null(shash_replace(&sh, "k", &one));
    ck_assert_ptr_eq(shash_replace(&sh, "k", &two), &one);
    ck_assert_ptr_eq(shash_find_data(&sh, "k"), &two);
    ck_assert_uint_eq(shash_count(&sh), 1);
    ck_assert_ptr_eq(shash_first(&sh)->data, &two);

    shash_add_assert(&sh, "m", &three);
    ck_assert_ptr_eq(shash_find_and_delete(&sh, "m"), &three);
    ck_assert_ptr_null(shash_find_and_delete(&sh, "m"));
    ck_assert_ptr_null(shash_find(&sh, "m"));

    shash_add(&sh, "n", &one);
    ck_assert_ptr_eq(shash_find_and_delete_assert(&sh, "n"), &one);

    struct shash_node *node = shash_find(&sh, "k");
    ck_assert_ptr_eq(shash_delete(&sh, node), &two);
    ck_assert(shash_is_empty(&sh));

    node = shash_add(&sh, "steal", &one);
    char *name = shash_steal(&sh, node);
    ck_assert_str_eq(name, "steal");
    free(name);
    ck_assert(shash_is_empty(&sh));
    shash_destroy(&sh);
}
END_TEST

START_TEST(test_sort_and_iterate)
{
    struct shash sh = SHASH_INITIALIZER(&sh);
    ck_assert_ptr_null(shash_sort(&sh));

    static const char *names[] = { "delta", "alpha", "charlie", "bravo",
                                   "echo", "Alpha" };
    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        shash_add(&sh, names[i], names[i]);
    }

    const struct shash_node **sorted = shash_sort(&sh);
    static const char *expected[] = { "Alpha", "alpha", "bravo", "charlie",
                                      "delta", "echo" };
    for (size_t i = 0; i < ARRAY_SIZE(expected); i++) {
        ck_assert_str_eq(sorted[i]->name, expected[i]);
        ck_assert_str_eq(sorted[i]->data, expected[i]);
    }
    free(sorted);

    size_t n = 0;
    struct shash_node *node;
    SHASH_FOR_EACH (node, &sh) {
        ck_assert_str_eq(node->name, node->data);
        n++;
    }
    ck_assert_uint_eq(n, ARRAY_SIZE(names));

    SHASH_FOR_EACH_SAFE (node, &sh) {
        if (strchr(node->name, 'l')) {
            shash_delete(&sh, node);
        }
    }
    ck_assert_uint_eq(shash_count(&sh), 2);    /* bravo, echo */
    ck_assert_ptr_nonnull(shash_find(&sh, "bravo"));
    ck_assert_ptr_nonnull(shash_find(&sh, "echo"));

    shash_clear(&sh);
    ck_assert(shash_is_empty(&sh));
    shash_destroy(&sh);
}
END_TEST

START_TEST(test_equal_keys_swap_free_data)
{
    struct shash a = SHASH_INITIALIZER(&a);
    struct shash b = SHASH_INITIALIZER(&b);

    ck_assert(shash_equal_keys(&a, &b));
    shash_add(&a, "x", &one);
    ck_assert(!shash_equal_keys(&a, &b));
    shash_add(&b, "y", &one);
    ck_assert(!shash_equal_keys(&a, &b));
    shash_add(&b, "x", &two);
    shash_add(&a, "y", &three);
    ck_assert(shash_equal_keys(&a, &b));       /* Data do not matter. */

    shash_swap(&a, &b);
    ck_assert_ptr_eq(shash_find_data(&a, "x"), &two);
    ck_assert_ptr_eq(shash_find_data(&b, "x"), &one);
    shash_destroy(&a);
    shash_destroy(&b);

    /* Many nodes: survives growth, and frees malloc'd data. */
    struct shash big;
    shash_init(&big);
    for (int i = 0; i < 1000; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        shash_add(&big, name, xasprintf("d%d", i));
    }
    for (int i = 0; i < 1000; i++) {
        char name[16], data[16];
        snprintf(name, sizeof name, "n%d", i);
        snprintf(data, sizeof data, "d%d", i);
        ck_assert_str_eq(shash_find_data(&big, name), data);
    }
    struct shash moved = big;
    shash_moved(&moved);
    ck_assert_str_eq(shash_find_data(&moved, "n999"), "d999");
    shash_destroy_free_data(&moved);

    struct shash c = SHASH_INITIALIZER(&c);
    shash_add(&c, "z", xstrdup("data"));
    shash_clear_free_data(&c);
    ck_assert(shash_is_empty(&c));
    shash_destroy(&c);
}
END_TEST

static Suite *
shash_suite(void)
{
    Suite *s = suite_create("shash");
    TCase *tc = tcase_create("shash");
    tcase_add_test(tc, test_add_find);
    tcase_add_test(tc, test_replace_delete_steal);
    tcase_add_test(tc, test_sort_and_iterate);
    tcase_add_test(tc, test_equal_keys_swap_free_data);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(shash_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
