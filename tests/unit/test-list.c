/* Unit tests for list.h. */
#include <config.h>
#include "list.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

struct element {
    int value;
    struct ovs_list node;
};

/* Checks that LIST holds exactly VALUES[0..N-1] in order, both ways. */
static void
check_list(const struct ovs_list *list, const int *values, size_t n)
{
    const struct element *e;
    size_t i = 0;

    LIST_FOR_EACH (e, node, list) {
        ck_assert_uint_lt(i, n);
        ck_assert_int_eq(e->value, values[i]);
        i++;
    }
    ck_assert_uint_eq(i, n);

    LIST_FOR_EACH_REVERSE (e, node, list) {
        ck_assert_uint_gt(i, 0);
        i--;
        ck_assert_int_eq(e->value, values[i]);
    }
    ck_assert_uint_eq(i, 0);

    ck_assert_uint_eq(ovs_list_size(list), n);
    ck_assert(ovs_list_is_empty(list) == (n == 0));
    ck_assert(ovs_list_is_singleton(list) == (n == 1));
    ck_assert(ovs_list_is_short(list) == (n <= 1));
    if (n) {
        ck_assert_int_eq(CONTAINER_OF(ovs_list_front(list), struct element,
                                      node)->value, values[0]);
        ck_assert_int_eq(CONTAINER_OF(ovs_list_back(list), struct element,
                                      node)->value, values[n - 1]);
    }
}

/* Puts N elements with values 0..N-1 on LIST in order. */
static struct element *
make_list(struct ovs_list *list, size_t n, int base)
{
    struct element *elements = calloc(n + 1, sizeof *elements);
    ovs_list_init(list);
    for (size_t i = 0; i < n; i++) {
        elements[i].value = base + (int) i;
        ovs_list_push_back(list, &elements[i].node);
    }
    return elements;
}

START_TEST(test_empty)
{
    struct ovs_list list = OVS_LIST_INITIALIZER(&list);
    check_list(&list, NULL, 0);

    struct element *e = NULL;
    int n = 0;
    LIST_FOR_EACH_SAFE (e, node, &list) {
        n++;
    }
    LIST_FOR_EACH_POP (e, node, &list) {
        n++;
    }
    ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(test_push_pop)
{
    struct element e[4] = { { .value = 0 }, { .value = 1 },
                            { .value = 2 }, { .value = 3 } };
    struct ovs_list list;

    ovs_list_init(&list);
    ovs_list_push_back(&list, &e[1].node);
    check_list(&list, (int[]) { 1 }, 1);
    ovs_list_push_front(&list, &e[0].node);
    ovs_list_push_back(&list, &e[3].node);
    check_list(&list, (int[]) { 0, 1, 3 }, 3);

    /* Insert before an element in the middle. */
    ovs_list_insert(&e[3].node, &e[2].node);
    check_list(&list, (int[]) { 0, 1, 2, 3 }, 4);

    ck_assert_ptr_eq(ovs_list_pop_front(&list), &e[0].node);
    ck_assert_ptr_eq(ovs_list_pop_back(&list), &e[3].node);
    check_list(&list, (int[]) { 1, 2 }, 2);

    /* Removing returns the follower (the head after the last element). */
    ck_assert_ptr_eq(ovs_list_remove(&e[1].node), &e[2].node);
    ck_assert_ptr_eq(ovs_list_remove(&e[2].node), &list);
    check_list(&list, NULL, 0);
}
END_TEST

START_TEST(test_remove_each_position)
{
    /* Remove every possible element from lists of every small length. */
    for (size_t n = 1; n <= 8; n++) {
        for (size_t victim = 0; victim < n; victim++) {
            struct ovs_list list;
            struct element *elements = make_list(&list, n, 0);
            int expected[8];
            size_t m = 0;
            for (size_t i = 0; i < n; i++) {
                if (i != victim) {
                    expected[m++] = (int) i;
                }
            }
            ovs_list_remove(&elements[victim].node);
            check_list(&list, expected, m);
            free(elements);
        }
    }
}
END_TEST

START_TEST(test_splice)
{
    struct ovs_list a, b;
    struct element *ea = make_list(&a, 5, 0);     /* 0 1 2 3 4 */
    struct element *eb = make_list(&b, 3, 10);    /* 10 11 12 */

    /* Move [1, 3) from A to before 11 in B. */
    ovs_list_splice(&eb[1].node, &ea[1].node, &ea[3].node);
    check_list(&a, (int[]) { 0, 3, 4 }, 3);
    check_list(&b, (int[]) { 10, 1, 2, 11, 12 }, 5);

    /* An empty range is a no-op. */
    ovs_list_splice(&b, &ea[3].node, &ea[3].node);
    check_list(&a, (int[]) { 0, 3, 4 }, 3);
    check_list(&b, (int[]) { 10, 1, 2, 11, 12 }, 5);

    /* Within one list: move the tail [11, end) to the front. */
    ovs_list_splice(b.next, &eb[1].node, &b);
    check_list(&b, (int[]) { 11, 12, 10, 1, 2 }, 5);

    /* Everything from B to the end of A. */
    ovs_list_push_back_all(&a, &b);
    check_list(&a, (int[]) { 0, 3, 4, 11, 12, 10, 1, 2 }, 8);
    check_list(&b, NULL, 0);

    /* push_back_all of an empty list changes nothing. */
    ovs_list_push_back_all(&a, &b);
    check_list(&a, (int[]) { 0, 3, 4, 11, 12, 10, 1, 2 }, 8);
    check_list(&b, NULL, 0);

    free(ea);
    free(eb);
}
END_TEST

START_TEST(test_replace)
{
    struct ovs_list list;
    struct element *elements = make_list(&list, 3, 0);
    struct element newcomer = { .value = 42 };

    ovs_list_replace(&newcomer.node, &elements[1].node);
    check_list(&list, (int[]) { 0, 42, 2 }, 3);
    ovs_list_replace(&elements[1].node, &newcomer.node);
    check_list(&list, (int[]) { 0, 1, 2 }, 3);
    free(elements);
}
END_TEST

START_TEST(test_moved)
{
    struct ovs_list *head = malloc(sizeof *head);
    struct element *elements = make_list(head, 4, 0);

    /* Copy the head elsewhere, as realloc() would. */
    struct ovs_list moved = *head;
    memset(head, 0xcc, sizeof *head);
    ovs_list_moved(&moved, head);
    check_list(&moved, (int[]) { 0, 1, 2, 3 }, 4);

    /* An empty list's stale links point at the old address. */
    struct ovs_list *empty = malloc(sizeof *empty);
    ovs_list_init(empty);
    struct ovs_list moved_empty = *empty;
    ovs_list_moved(&moved_empty, empty);
    check_list(&moved_empty, NULL, 0);

    free(empty);
    free(head);
    free(elements);
}
END_TEST

START_TEST(test_poison)
{
    struct element e;
    ovs_list_poison(&e.node);
    ck_assert_ptr_eq(e.node.next, OVS_LIST_POISON);
    ck_assert_ptr_eq(e.node.prev, OVS_LIST_POISON);
}
END_TEST

START_TEST(test_for_each_safe)
{
    struct ovs_list list;
    ovs_list_init(&list);
    for (int i = 0; i < 10; i++) {
        struct element *e = malloc(sizeof *e);
        e->value = i;
        ovs_list_push_back(&list, &e->node);
    }

    /* Remove and free the odd elements while iterating. */
    struct element *e;
    int visited = 0;
    LIST_FOR_EACH_SAFE (e, node, &list) {
        visited++;
        if (e->value % 2) {
            ovs_list_remove(&e->node);
            free(e);
        }
    }
    ck_assert_int_eq(visited, 10);
    check_list(&list, (int[]) { 0, 2, 4, 6, 8 }, 5);

    /* The 4-argument form: remove multiples of 4. */
    struct element *next;
    visited = 0;
    LIST_FOR_EACH_SAFE (e, next, node, &list) {
        visited++;
        if (e->value % 4 == 0) {
            ovs_list_remove(&e->node);
            free(e);
        }
    }
    ck_assert_int_eq(visited, 5);
    check_list(&list, (int[]) { 2, 6 }, 2);

    /* Remove everything. */
    LIST_FOR_EACH_SAFE (e, node, &list) {
        ovs_list_remove(&e->node);
        free(e);
    }
    check_list(&list, NULL, 0);
}
END_TEST

START_TEST(test_for_each_pop)
{
    struct ovs_list list;
    ovs_list_init(&list);
    for (int i = 0; i < 5; i++) {
        struct element *e = malloc(sizeof *e);
        e->value = i;
        ovs_list_push_back(&list, &e->node);
    }

    struct element *e;
    int expected = 0;
    LIST_FOR_EACH_POP (e, node, &list) {
        ck_assert_int_eq(e->value, expected++);
        ck_assert_uint_eq(ovs_list_size(&list), (size_t) (5 - expected));
        free(e);
    }
    ck_assert_int_eq(expected, 5);
    ck_assert(ovs_list_is_empty(&list));
}
END_TEST

START_TEST(test_for_each_continue)
{
    struct ovs_list list;
    struct element *elements = make_list(&list, 6, 0);
    struct element *e = &elements[2];
    int sum = 0;

    LIST_FOR_EACH_CONTINUE (e, node, &list) {
        sum += e->value;
    }
    ck_assert_int_eq(sum, 3 + 4 + 5);

    /* Breaking out leaves the iterator on the element. */
    LIST_FOR_EACH (e, node, &list) {
        if (e->value == 4) {
            break;
        }
    }
    ck_assert_ptr_eq(e, &elements[4]);

    e = &elements[2];
    sum = 0;
    LIST_FOR_EACH_REVERSE_CONTINUE (e, node, &list) {
        sum += e->value;
    }
    ck_assert_int_eq(sum, 1 + 0);
    free(elements);
}
END_TEST

static Suite *
list_suite(void)
{
    Suite *s = suite_create("list");
    TCase *tc = tcase_create("list");
    tcase_add_test(tc, test_empty);
    tcase_add_test(tc, test_push_pop);
    tcase_add_test(tc, test_remove_each_position);
    tcase_add_test(tc, test_splice);
    tcase_add_test(tc, test_replace);
    tcase_add_test(tc, test_moved);
    tcase_add_test(tc, test_poison);
    tcase_add_test(tc, test_for_each_safe);
    tcase_add_test(tc, test_for_each_pop);
    tcase_add_test(tc, test_for_each_continue);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(list_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
