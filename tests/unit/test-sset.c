/* Unit tests for sset.h. */
#include <config.h>
#include "sset.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Checks that SET holds exactly the N strings in NAMES (sorted). */
static void
check_sset(const struct sset *set, const char *const *names, size_t n)
{
    ck_assert_uint_eq(sset_count(set), n);
    ck_assert(sset_is_empty(set) == (n == 0));
    for (size_t i = 0; i < n; i++) {
        ck_assert(sset_contains(set, names[i]));
        struct sset_node *node = sset_find(set, names[i]);
        ck_assert_ptr_nonnull(node);
        ck_assert_str_eq(node->name, names[i]);
    }

    const char **sorted = sset_sort(set);
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(sorted[i], names[i]);
    }
    free(sorted);

    size_t visited = 0;
    const char *name;
    SSET_FOR_EACH (name, set) {
        ck_assert(sset_contains(set, name));
        visited++;
    }
    ck_assert_ptr_null(name);
    ck_assert_uint_eq(visited, n);
}

START_TEST(test_add_find_delete)
{
    struct sset set = SSET_INITIALIZER(&set);
    check_sset(&set, NULL, 0);
    ck_assert(!sset_contains(&set, "br0"));
    ck_assert_ptr_null(sset_find(&set, ""));

    struct sset_node *node = sset_add(&set, "br0");
    ck_assert_ptr_nonnull(node);
    ck_assert_str_eq(node->name, "br0");
    /* A duplicate is refused and changes nothing. */
    ck_assert_ptr_null(sset_add(&set, "br0"));
    ck_assert_ptr_nonnull(sset_add(&set, ""));
    sset_add_assert(&set, "eth0");
    sset_add_and_free(&set, xstrdup("br1"));
    ck_assert_ptr_null(sset_add_and_free(&set, xstrdup("br1")));
    check_sset(&set, (const char *[]) { "", "br0", "br1", "eth0" }, 4);

    /* The set keeps its own copy of the string. */
    char buf[] = "tmp";
    sset_add(&set, buf);
    buf[0] = 'X';
    ck_assert(sset_contains(&set, "tmp"));
    ck_assert(!sset_contains(&set, "Xmp"));

    ck_assert(sset_find_and_delete(&set, "tmp"));
    ck_assert(!sset_find_and_delete(&set, "tmp"));
    sset_find_and_delete_assert(&set, "");
    sset_delete(&set, sset_find(&set, "br0"));
    check_sset(&set, (const char *[]) { "br1", "eth0" }, 2);

    char *names[] = { "a", "b", "a", "eth0" };
    sset_add_array(&set, names, ARRAY_SIZE(names));
    check_sset(&set, (const char *[]) { "a", "b", "br1", "eth0" }, 4);

    sset_clear(&set);
    check_sset(&set, NULL, 0);
    sset_add(&set, "again");
    check_sset(&set, (const char *[]) { "again" }, 1);
    sset_destroy(&set);
}
END_TEST

START_TEST(test_many)
{
    enum { N = 2000 };
    struct sset set;
    char name[32];

    sset_init(&set);
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "port%d", i);
        ck_assert_ptr_nonnull(sset_add(&set, name));
    }
    ck_assert_uint_eq(sset_count(&set), N);
    for (int i = 0; i < N; i += 2) {
        snprintf(name, sizeof name, "port%d", i);
        ck_assert(sset_find_and_delete(&set, name));
    }
    ck_assert_uint_eq(sset_count(&set), N / 2);
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "port%d", i);
        ck_assert(sset_contains(&set, name) == (i % 2 == 1));
    }
    sset_destroy(&set);
}
END_TEST

START_TEST(test_pop)
{
    struct sset set = SSET_INITIALIZER(&set);
    sset_add(&set, "x");
    sset_add(&set, "y");
    sset_add(&set, "z");

    struct sset seen = SSET_INITIALIZER(&seen);
    char *name;
    SSET_FOR_EACH_POP (name, &set) {
        ck_assert(!sset_contains(&set, name));
        sset_add_and_free(&seen, name);
    }
    ck_assert(sset_is_empty(&set));
    ck_assert_ptr_null(sset_pop(&set));
    check_sset(&seen, (const char *[]) { "x", "y", "z" }, 3);
    sset_destroy(&seen);
    sset_destroy(&set);
}
END_TEST

START_TEST(test_equals_clone_swap)
{
    struct sset a = SSET_INITIALIZER(&a), b = SSET_INITIALIZER(&b);
    ck_assert(sset_equals(&a, &b));

    sset_add(&a, "one");
    sset_add(&a, "two");
    ck_assert(!sset_equals(&a, &b));
    sset_add(&b, "two");
    sset_add(&b, "three");
    /* Same size, different members. */
    ck_assert(!sset_equals(&a, &b));
    sset_find_and_delete(&b, "three");
    sset_add(&b, "one");
    ck_assert(sset_equals(&a, &b));
    ck_assert(sset_equals(&b, &a));

    struct sset c;
    sset_clone(&c, &a);
    ck_assert(sset_equals(&c, &a));
    sset_add(&c, "four");                   /* Independent of A. */
    ck_assert(!sset_contains(&a, "four"));

    sset_swap(&a, &c);
    check_sset(&a, (const char *[]) { "four", "one", "two" }, 3);
    check_sset(&c, (const char *[]) { "one", "two" }, 2);

    /* A struct copied elsewhere works after sset_moved(). */
    struct sset *moved = malloc(sizeof *moved);
    memcpy(moved, &c, sizeof c);
    sset_moved(moved);
    check_sset(moved, (const char *[]) { "one", "two" }, 2);

    sset_destroy(&a);
    sset_destroy(&b);
    sset_destroy(moved);
    free(moved);
}
END_TEST

START_TEST(test_sort_and_join)
{
    struct sset set = SSET_INITIALIZER(&set);

    const char **sorted = sset_sort(&set);
    ck_assert_ptr_nonnull(sorted);
    free(sorted);
    char *joined = sset_join(&set, ",", "\n");
    ck_assert_str_eq(joined, "");
    free(joined);

    sset_from_delimited_string(&set, "eth2, eth10,,eth1 ,  ", ", ");
    check_sset(&set, (const char *[]) { "eth1", "eth10", "eth2" }, 3);

    joined = sset_join(&set, ", ", ".");
    ck_assert_str_eq(joined, "eth1, eth10, eth2.");
    free(joined);

    /* strcmp() order, case-sensitive. */
    sset_add(&set, "Zed");
    sset_add(&set, "a");
    joined = sset_join(&set, " ", "");
    ck_assert_str_eq(joined, "Zed a eth1 eth10 eth2");
    free(joined);

    sset_from_delimited_string(&set, "", ",");
    ck_assert_uint_eq(sset_count(&set), 5);
    sset_destroy(&set);
}
END_TEST

START_TEST(test_for_each_safe)
{
    struct sset set = SSET_INITIALIZER(&set);
    char name[16];
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "%d", i);
        sset_add(&set, name);
    }

    const char *s;
    int visited = 0;
    SSET_FOR_EACH_SAFE (s, &set) {
        visited++;
        if (atoi(s) % 3 == 0) {
            /* S points into the node being deleted. */
            sset_find_and_delete(&set, s);
        }
    }
    ck_assert_int_eq(visited, 100);
    ck_assert_uint_eq(sset_count(&set), 66);
    SSET_FOR_EACH (s, &set) {
        ck_assert_int_ne(atoi(s) % 3, 0);
    }

    /* The older 3-argument form. */
    const char *next;
    visited = 0;
    SSET_FOR_EACH_SAFE (s, next, &set) {
        visited++;
        if (atoi(s) % 2 == 0) {
            sset_find_and_delete(&set, s);
        }
    }
    ck_assert_int_eq(visited, 66);
    ck_assert_uint_eq(sset_count(&set), 33);

    SSET_FOR_EACH_SAFE (s, &set) {
        sset_delete(&set, sset_find(&set, s));
    }
    ck_assert(sset_is_empty(&set));
    sset_destroy(&set);
}
END_TEST

static Suite *
sset_suite(void)
{
    Suite *s = suite_create("sset");
    TCase *tc = tcase_create("sset");
    tcase_add_test(tc, test_add_find_delete);
    tcase_add_test(tc, test_many);
    tcase_add_test(tc, test_pop);
    tcase_add_test(tc, test_equals_clone_swap);
    tcase_add_test(tc, test_sort_and_join);
    tcase_add_test(tc, test_for_each_safe);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(sset_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
