/* Unit tests for smap.h. */
#include <config.h>
#include "smap.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_add_get)
{
    struct smap smap = SMAP_INITIALIZER(&smap);
    ck_assert(smap_is_empty(&smap));
    ck_assert_ptr_null(smap_get(&smap, "k"));
    ck_assert_str_eq(smap_get_def(&smap, "k", "dflt"), "dflt");

    struct smap_node *node = smap_add(&smap, "key", "value");
    ck_assert_str_eq(node->key, "key");
    ck_assert_str_eq(node->value, "value");
    ck_assert_ptr_eq(smap_get_node(&smap, "key"), node);
    ck_assert_str_eq(smap_get(&smap, "key"), "value");
    ck_assert_str_eq(smap_get_def(&smap, "key", "dflt"), "value");
    ck_assert(smap_contains(&smap, "key"));
    /* Prefixes and extensions of a key are different keys. */
    ck_assert(!smap_contains(&smap, "ke"));
    ck_assert(!smap_contains(&smap, "keys"));

    /* smap_add() copies its arguments. */
    char k[] = "k2", v[] = "v2";
    smap_add(&smap, k, v);
    k[0] = v[0] = 'X';
    ck_assert_str_eq(smap_get(&smap, "k2"), "v2");

    smap_add_nocopy(&smap, xstrdup("owned"), xstrdup("yes"));
    ck_assert_str_eq(smap_get(&smap, "owned"), "yes");
    smap_add_format(&smap, "fmt", "%d-%s", 7, "x");
    ck_assert_str_eq(smap_get(&smap, "fmt"), "7-x");
    smap_add(&smap, "", "empty key");
    ck_assert_str_eq(smap_get(&smap, ""), "empty key");
    ck_assert_uint_eq(smap_count(&smap), 5);

    /* smap_add_once() refuses an existing key. */
    ck_assert(!smap_add_once(&smap, "key", "other"));
    ck_assert_str_eq(smap_get(&smap, "key"), "value");
    ck_assert(smap_add_once(&smap, "new", "n"));
    ck_assert_uint_eq(smap_count(&smap), 6);

    smap_destroy(&smap);
}
END_TEST

START_TEST(test_replace_remove_steal)
{
    struct smap smap;
    smap_init(&smap);

    smap_replace(&smap, "a", "1");          /* Adds when absent. */
    smap_replace(&smap, "a", "2");          /* Replaces when present. */
    ck_assert_uint_eq(smap_count(&smap), 1);
    ck_assert_str_eq(smap_get(&smap, "a"), "2");
    smap_replace_nocopy(&smap, "a", xstrdup("3"));
    smap_replace_nocopy(&smap, "b", xstrdup("4"));
    ck_assert_str_eq(smap_get(&smap, "a"), "3");
    ck_assert_str_eq(smap_get(&smap, "b"), "4");

    ck_assert(smap_remove(&smap, "a"));
    ck_assert(!smap_remove(&smap, "a"));
    ck_assert(!smap_contains(&smap, "a"));

    char *value = smap_steal(&smap, smap_get_node(&smap, "b"));
    ck_assert_str_eq(value, "4");
    free(value);
    ck_assert(smap_is_empty(&smap));

    smap_add(&smap, "c", "5");
    smap_remove_node(&smap, smap_get_node(&smap, "c"));
    ck_assert(smap_is_empty(&smap));

    /* smap_add() does not check for duplicates. */
    smap_add(&smap, "dup", "1");
    smap_add(&smap, "dup", "2");
    ck_assert_uint_eq(smap_count(&smap), 2);

    smap_clear(&smap);
    ck_assert(smap_is_empty(&smap));
    smap_add(&smap, "after", "clear");
    ck_assert_str_eq(smap_get(&smap, "after"), "clear");
    smap_destroy(&smap);
}
END_TEST

START_TEST(test_typed_getters)
{
    struct smap smap = SMAP_INITIALIZER(&smap);
    smap_add(&smap, "t", "true");
    smap_add(&smap, "T", "TRUE");
    smap_add(&smap, "f", "false");
    smap_add(&smap, "junk", "yes");
    smap_add(&smap, "int", "-42");
    smap_add(&smap, "big", "99999999999");
    smap_add(&smap, "trail", "12x");
    smap_add(&smap, "empty", "");
    smap_add(&smap, "ull", "18446744073709551615");
    smap_add(&smap, "ullover", "18446744073709551616");
    smap_add(&smap, "neg1", "-1");

    ck_assert(smap_get_bool(&smap, "t", false));
    ck_assert(smap_get_bool(&smap, "T", false));
    ck_assert(!smap_get_bool(&smap, "f", true));
    ck_assert(smap_get_bool(&smap, "junk", true));
    ck_assert(!smap_get_bool(&smap, "junk", false));
    ck_assert(smap_get_bool(&smap, "missing", true));
    ck_assert(!smap_get_bool(&smap, "missing", false));

    ck_assert_int_eq(smap_get_int(&smap, "int", 0), -42);
    ck_assert_int_eq(smap_get_int(&smap, "big", 5), 5);
    ck_assert_int_eq(smap_get_int(&smap, "trail", 5), 5);
    ck_assert_int_eq(smap_get_int(&smap, "empty", 5), 5);
    ck_assert_int_eq(smap_get_int(&smap, "missing", 9), 9);

    ck_assert_uint_eq(smap_get_uint(&smap, "int", 3), 3);
    ck_assert_uint_eq(smap_get_uint(&smap, "neg1", 3), 3);
    smap_replace(&smap, "int", "4000000000");
    ck_assert_uint_eq(smap_get_uint(&smap, "int", 3), 4000000000u);

    ck_assert(smap_get_ullong(&smap, "ull", 0) == 18446744073709551615ULL);
    ck_assert(smap_get_ullong(&smap, "ullover", 7) == 7);
    ck_assert(smap_get_ullong(&smap, "neg1", 7) == 7);
    ck_assert(smap_get_ullong(&smap, "trail", 7) == 7);
    ck_assert(smap_get_ullong(&smap, "empty", 7) == 7);
    ck_assert(smap_get_ullong(&smap, "big", 7) == 99999999999ULL);
    smap_destroy(&smap);
}
END_TEST

START_TEST(test_equals_clone_swap)
{
    struct smap a = SMAP_INITIALIZER(&a), b = SMAP_INITIALIZER(&b);
    ck_assert(smap_equals(&a, &b));

    smap_add(&a, "x", "1");
    smap_add(&a, "y", "2");
    smap_add(&b, "y", "2");
    ck_assert(!smap_equals(&a, &b));
    smap_add(&b, "x", "one");
    ck_assert(!smap_equals(&a, &b));        /* Same keys, other value. */
    smap_replace(&b, "x", "1");
    ck_assert(smap_equals(&a, &b));
    smap_remove(&b, "y");
    smap_add(&b, "z", "2");
    ck_assert(!smap_equals(&a, &b));        /* Same size, other keys. */

    struct smap c;
    smap_clone(&c, &a);
    ck_assert(smap_equals(&c, &a));
    smap_replace(&c, "x", "changed");
    ck_assert_str_eq(smap_get(&a, "x"), "1");

    smap_swap(&a, &c);
    ck_assert_str_eq(smap_get(&a, "x"), "changed");
    ck_assert_str_eq(smap_get(&c, "x"), "1");

    struct smap *moved = malloc(sizeof *moved);
    memcpy(moved, &c, sizeof c);
    smap_moved(moved);
    ck_assert_str_eq(smap_get(moved, "y"), "2");

    smap_destroy(&a);
    smap_destroy(&b);
    smap_destroy(moved);
    free(moved);

    /* A one-element map lives in the inline bucket; moving must work. */
    struct smap one = SMAP_INITIALIZER(&one);
    smap_add(&one, "k", "v");
    struct smap copy = one;
    smap_moved(&copy);
    ck_assert_str_eq(smap_get(&copy, "k"), "v");
    smap_destroy(&copy);
}
END_TEST

START_TEST(test_sort)
{
    struct smap smap = SMAP_INITIALIZER(&smap);
    ck_assert_ptr_null(smap_sort(&smap));

    const char *keys[] = { "options", "a", "Zeta", "b10", "b2", "" };
    for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
        smap_add_format(&smap, keys[i], "v%zu", i);
    }
    const struct smap_node **nodes = smap_sort(&smap);
    const char *expected[] = { "", "Zeta", "a", "b10", "b2", "options" };
    for (size_t i = 0; i < ARRAY_SIZE(expected); i++) {
        ck_assert_str_eq(nodes[i]->key, expected[i]);
        ck_assert_str_eq(nodes[i]->value, smap_get(&smap, expected[i]));
    }
    free(nodes);
    smap_destroy(&smap);
}
END_TEST

START_TEST(test_json)
{
    struct smap smap = SMAP_INITIALIZER(&smap);
    smap_add(&smap, "stp-enable", "true");
    smap_add(&smap, "quote\"d", "v\\al");

    json_t *json = smap_to_json(&smap);
    ck_assert(json_is_object(json));
    ck_assert_uint_eq(json_object_size(json), 2);
    ck_assert_str_eq(json_string_value(json_object_get(json, "stp-enable")),
                     "true");

    struct smap back;
    smap_from_json(&back, json);
    ck_assert(smap_equals(&back, &smap));
    smap_destroy(&back);
    json_decref(json);

    /* Non-string members are skipped. */
    json_error_t error;
    json = json_loads("{\"a\": \"1\", \"b\": 2, \"c\": null, \"d\": \"x\"}",
                      0, &error);
    ck_assert_ptr_nonnull(json);
    smap_from_json(&back, json);
    ck_assert_uint_eq(smap_count(&back), 2);
    ck_assert_str_eq(smap_get(&back, "a"), "1");
    ck_assert_str_eq(smap_get(&back, "d"), "x");
    smap_destroy(&back);
    json_decref(json);

    /* An empty map is an empty object. */
    struct smap empty = SMAP_INITIALIZER(&empty);
    json = smap_to_json(&empty);
    char *text = json_dumps(json, 0);
    ck_assert_str_eq(text, "{}");
    free(text);
    json_decref(json);

    smap_destroy(&smap);
}
END_TEST

START_TEST(test_for_each_safe)
{
    struct smap smap = SMAP_INITIALIZER(&smap);
    for (int i = 0; i < 50; i++) {
        char key[16];
        snprintf(key, sizeof key, "k%d", i);
        smap_add_format(&smap, key, "%d", i);
    }

    struct smap_node *node;
    int visited = 0;
    SMAP_FOR_EACH_SAFE (node, &smap) {
        visited++;
        if (atoi(node->value) % 2) {
            smap_remove_node(&smap, node);
        }
    }
    ck_assert_int_eq(visited, 50);
    ck_assert_uint_eq(smap_count(&smap), 25);
    SMAP_FOR_EACH (node, &smap) {
        ck_assert_int_eq(atoi(node->value) % 2, 0);
    }

    /* The older 3-argument form. */
    struct smap_node *next;
    visited = 0;
    SMAP_FOR_EACH_SAFE (node, next, &smap) {
        visited++;
        smap_remove_node(&smap, node);
    }
    ck_assert_int_eq(visited, 25);
    ck_assert(smap_is_empty(&smap));
    smap_destroy(&smap);
}
END_TEST

static Suite *
smap_suite(void)
{
    Suite *s = suite_create("smap");
    TCase *tc = tcase_create("smap");
    tcase_add_test(tc, test_add_get);
    tcase_add_test(tc, test_replace_remove_steal);
    tcase_add_test(tc, test_typed_getters);
    tcase_add_test(tc, test_equals_clone_swap);
    tcase_add_test(tc, test_sort);
    tcase_add_test(tc, test_json);
    tcase_add_test(tc, test_for_each_safe);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(smap_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
