/* Unit tests for dynamic-string.h. */
#include <config.h>
#include "dynamic-string.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Checks that DS holds exactly the LENGTH bytes at EXPECTED and is
 * terminated. */
static void
check_ds(struct ds *ds, const char *expected, size_t length)
{
    ck_assert_uint_eq(ds->length, length);
    ck_assert_uint_le(ds->length, ds->allocated);
    ck_assert_mem_eq(ds_cstr_ro(ds), expected, length);
    ck_assert_int_eq(ds_cstr_ro(ds)[length], '\0');
    ck_assert_ptr_eq(ds_cstr(ds), ds->string);
    ck_assert_int_eq(ds_cstr(ds)[length], '\0');
}

START_TEST(test_empty)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    ck_assert_str_eq(ds_cstr_ro(&s), "");
    ck_assert_int_eq(ds_last(&s), EOF);
    ck_assert(!ds_chomp(&s, 'x'));

    /* ds_cstr() never returns NULL, even before anything was added. */
    char *p = ds_cstr(&s);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(p, "");
    ds_destroy(&s);

    ds_init(&s);
    char *stolen = ds_steal_cstr(&s);
    ck_assert_str_eq(stolen, "");
    free(stolen);
    ds_destroy(&s);
    ds_destroy(&s);         /* Destroying twice is harmless. */
}
END_TEST

START_TEST(test_put_char_growth)
{
    enum { N = 100000 };
    struct ds s = DS_EMPTY_INITIALIZER;
    char *expected = malloc(N);
    int reallocs = 0;
    char *last = NULL;

    for (int i = 0; i < N; i++) {
        char c = 'a' + i % 26;
        ds_put_char(&s, c);
        expected[i] = c;
        if (s.string != last) {
            reallocs++;
            last = s.string;
        }
    }
    check_ds(&s, expected, N);
    /* Growth is geometric: far fewer reallocations than appends. */
    ck_assert_int_lt(reallocs, 40);

    free(expected);
    ds_destroy(&s);
}
END_TEST

START_TEST(test_put_cstr_buffer_multiple)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    ds_put_cstr(&s, "abc");
    ds_put_cstr(&s, "");
    ds_put_buffer(&s, "d\0e", 3);       /* Embedded NUL counts. */
    ds_put_char_multiple(&s, '-', 4);
    ds_put_char_multiple(&s, '!', 0);
    check_ds(&s, "abcd\0e----", 10);
    ds_put_and_free_cstr(&s, xstrdup(""));
    check_ds(&s, "abcd\0e----", 10);

    char *p = ds_put_uninit(&s, 3);
    memcpy(p, "xyz", 3);
    check_ds(&s, "abcd\0e----xyz", 13);

    ds_truncate(&s, 20);                /* Longer: no change. */
    check_ds(&s, "abcd\0e----xyz", 13);
    ds_truncate(&s, 2);
    check_ds(&s, "ab", 2);

    size_t allocated = s.allocated;
    ds_clear(&s);
    check_ds(&s, "", 0);
    ck_assert_uint_eq(s.allocated, allocated);

    ds_reserve(&s, 1000);
    ck_assert_uint_ge(s.allocated, 1000);
    check_ds(&s, "", 0);
    ds_destroy(&s);
}
END_TEST

static void OVS_PRINTF_FORMAT(2, 3)
put_via_valist(struct ds *s, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    ds_put_format_valist(s, format, args);
    va_end(args);
}

START_TEST(test_put_format)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    char expected[8192];
    size_t n = 0;

    /* Short appends that fit, then long ones that force a second try. */
    for (int i = 0; i < 200; i++) {
        ds_put_format(&s, "%d:%s;", i, i % 2 ? "odd" : "even");
        n += snprintf(expected + n, sizeof expected - n, "%d:%s;", i,
                      i % 2 ? "odd" : "even");
    }
    check_ds(&s, expected, n);

    char big[3000];
    memset(big, 'q', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ds_put_format(&s, "[%s]", big);
    n += snprintf(expected + n, sizeof expected - n, "[%s]", big);
    check_ds(&s, expected, n);

    /* The va_list flavour, including a retry after growth. */
    struct ds t = DS_EMPTY_INITIALIZER;
    put_via_valist(&t, "%s|%05d|%x", big, 42, 255);
    char want[3100];
    int len = snprintf(want, sizeof want, "%s|%05d|%x", big, 42, 255);
    check_ds(&t, want, len);

    /* Empty formatting output leaves an empty string. */
    struct ds u = DS_EMPTY_INITIALIZER;
    ds_put_format(&u, "%s", "");
    check_ds(&u, "", 0);

    ds_destroy(&s);
    ds_destroy(&t);
    ds_destroy(&u);
}
END_TEST

START_TEST(test_put_uint)
{
    static const unsigned long long int values[] = {
        0, 1, 9, 10, 99, 100, 65535, 4294967295ULL, 18446744073709551615ULL,
    };
    struct ds s = DS_EMPTY_INITIALIZER;
    char expected[512];
    size_t n = 0;

    /* Each value as printf writes it, appended after what came before. */
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        ds_put_uint(&s, values[i]);
        ds_put_char(&s, ',');
        n += snprintf(expected + n, sizeof expected - n, "%llu,", values[i]);
    }
    check_ds(&s, expected, n);
    ds_destroy(&s);
}
END_TEST

START_TEST(test_put_printable_and_hex)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    ds_put_printable(&s, "a b\n\x7f\xff~", 7);
    ck_assert_str_eq(ds_cstr(&s), "a b\\012\\177\\377~");

    ds_clear(&s);
    ds_put_hex(&s, (uint8_t[]) { 0x00, 0x00, 0x01, 0xab }, 4);
    ck_assert_str_eq(ds_cstr(&s), "0x1ab");

    ds_clear(&s);
    ds_put_hex(&s, (uint8_t[]) { 0x10, 0x02 }, 2);
    ck_assert_str_eq(ds_cstr(&s), "0x1002");

    ds_clear(&s);
    ds_put_hex(&s, (uint8_t[]) { 0, 0, 0 }, 3);
    ck_assert_str_eq(ds_cstr(&s), "0x0");

    ds_clear(&s);
    ds_put_hex(&s, "", 0);
    ck_assert_str_eq(ds_cstr(&s), "0x0");
    ds_destroy(&s);
}
END_TEST

START_TEST(test_hex_dump)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    const char *text = "abcdefghijklmnopqrs\001";

    ds_put_hex_dump(&s, text, 20, 0, true);
    ck_assert_str_eq(ds_cstr(&s),
        "00000000  61 62 63 64 65 66 67 68-69 6a 6b 6c 6d 6e 6f 70 "
        "|abcdefghijklmnop|\n"
        "00000010  71 72 73 01                                     "
        "|qrs.            |\n");

    /* Without ASCII, no trailing spaces. */
    ds_clear(&s);
    ds_put_hex_dump(&s, text, 20, 0, false);
    ck_assert_str_eq(ds_cstr(&s),
        "00000000  61 62 63 64 65 66 67 68-69 6a 6b 6c 6d 6e 6f 70\n"
        "00000010  71 72 73 01\n");

    /* A starting offset that is not a multiple of 16 starts mid-line. */
    ds_clear(&s);
    ds_put_hex_dump(&s, "ABCDEF", 6, 0x1c, true);
    ck_assert_str_eq(ds_cstr(&s),
        "00000010                                      41 42 43 44 "
        "|            ABCD|\n"
        "00000020  45 46                                           "
        "|EF              |\n");

    /* Exactly eight bytes: the dash separates groups, so without the
     * text column there is none (3.1's parse-oxm -m dumps). */
    ds_clear(&s);
    ds_put_hex_dump(&s, "12345678", 8, 0, false);
    ck_assert_str_eq(ds_cstr(&s),
        "00000000  31 32 33 34 35 36 37 38\n");

    ds_clear(&s);
    ds_put_and_free_cstr(&s, xasprintf("%d", 5));
    ds_put_hex_dump(&s, "", 0, 0, true);
    ck_assert_str_eq(ds_cstr(&s), "5");
    ds_clear(&s);
    ds_put_hex_dump(&s, "", 0, 0, true);
    ck_assert_str_eq(ds_cstr(&s), "");

    /* Sparse dump skips all-zero lines. */
    uint8_t sparse[48] = { 0 };
    sparse[33] = 0xee;
    ds_clear(&s);
    ds_put_sparse_hex_dump(&s, sparse, sizeof sparse, 0, false);
    ck_assert_str_eq(ds_cstr(&s),
        "00000020  00 ee 00 00 00 00 00 00-00 00 00 00 00 00 00 00\n");
    ds_destroy(&s);
}
END_TEST

START_TEST(test_strftime_msec)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    ds_put_strftime_msec(&s, "%Y-%m-%d %H:%M:%S.###", 1234567890123LL,
                         true);
    ck_assert_str_eq(ds_cstr(&s), "2009-02-13 23:31:30.123");

    /* Before the epoch the milliseconds stay in 0..999. */
    ds_clear(&s);
    ds_put_strftime_msec(&s, "%Y-%m-%dT%H:%M:%S.###Z", -1, true);
    ck_assert_str_eq(ds_cstr(&s), "1969-12-31T23:59:59.999Z");

    /* "%%" and a "###" next to other text; several "###". */
    ds_clear(&s);
    ds_put_strftime_msec(&s, "100%% ### ###", 7, true);
    ck_assert_str_eq(ds_cstr(&s), "100% 007 007");

    /* Appends rather than replaces. */
    ds_clear(&s);
    ds_put_cstr(&s, "at ");
    ds_put_strftime_msec(&s, "%H:%M", 0, true);
    ck_assert_str_eq(ds_cstr(&s), "at 00:00");

    ds_clear(&s);
    ds_put_strftime_msec(&s, "", 0, true);
    ck_assert_str_eq(ds_cstr(&s), "");

    char *str = xastrftime_msec("%Y ###", 86400000LL * 365 + 5, true);
    ck_assert_str_eq(str, "1971 005");
    free(str);
    ds_destroy(&s);
}
END_TEST

START_TEST(test_get_line)
{
    FILE *file = tmpfile();
    ck_assert_ptr_nonnull(file);
    fputs("one\ntwo\n\nlast", file);
    rewind(file);

    struct ds s = DS_EMPTY_INITIALIZER;
    ck_assert_int_eq(ds_get_line(&s, file), 0);
    ck_assert_str_eq(ds_cstr(&s), "one");
    ck_assert_int_eq(ds_get_line(&s, file), 0);
    ck_assert_str_eq(ds_cstr(&s), "two");
    ck_assert_int_eq(ds_get_line(&s, file), 0);
    ck_assert_str_eq(ds_cstr(&s), "");
    ck_assert_int_eq(ds_get_line(&s, file), 0);
    ck_assert_str_eq(ds_cstr(&s), "last");
    ck_assert_int_eq(ds_get_line(&s, file), EOF);
    fclose(file);

    file = tmpfile();
    fputs("  a # comment\n\n   # only a comment\n b c \t\n\n", file);
    rewind(file);
    int line = 0;
    ck_assert_int_eq(ds_get_preprocessed_line(&s, file, &line), 0);
    ck_assert_str_eq(ds_cstr(&s), "a");
    ck_assert_int_eq(line, 1);
    ck_assert_int_eq(ds_get_preprocessed_line(&s, file, &line), 0);
    ck_assert_str_eq(ds_cstr(&s), "b c");
    ck_assert_int_eq(line, 4);
    ck_assert_int_eq(ds_get_preprocessed_line(&s, file, NULL), EOF);
    fclose(file);
    ds_destroy(&s);
}
END_TEST

START_TEST(test_steal_swap_clone)
{
    struct ds a = DS_EMPTY_INITIALIZER, b = DS_EMPTY_INITIALIZER;

    ds_put_cstr(&a, "alpha");
    ds_put_cstr(&b, "beta");
    ds_swap(&a, &b);
    ck_assert_str_eq(ds_cstr(&a), "beta");
    ck_assert_str_eq(ds_cstr(&b), "alpha");

    struct ds c;
    ds_clone(&c, &a);
    ck_assert_str_eq(ds_cstr(&c), "beta");
    ck_assert_ptr_ne(c.string, a.string);
    ds_put_char(&c, '!');               /* The clone is independent. */
    ck_assert_str_eq(ds_cstr(&a), "beta");
    ck_assert_str_eq(ds_cstr(&c), "beta!");

    struct ds empty = DS_EMPTY_INITIALIZER, empty_clone;
    ds_clone(&empty_clone, &empty);
    ck_assert_str_eq(ds_cstr(&empty_clone), "");

    char *stolen = ds_steal_cstr(&b);
    ck_assert_str_eq(stolen, "alpha");
    ck_assert_uint_eq(b.length, 0);
    ck_assert_ptr_null(b.string);
    ds_put_cstr(&b, "reused");          /* Still usable after stealing. */
    ck_assert_str_eq(ds_cstr(&b), "reused");
    free(stolen);

    ds_destroy(&a);
    ds_destroy(&b);
    ds_destroy(&c);
    ds_destroy(&empty_clone);
}
END_TEST

START_TEST(test_last_and_chomp)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    ds_put_cstr(&s, "a, b, ");
    ck_assert_int_eq(ds_last(&s), ' ');
    ck_assert(ds_chomp(&s, ' '));
    ck_assert(ds_chomp(&s, ','));
    ck_assert(!ds_chomp(&s, ','));
    ck_assert_str_eq(ds_cstr(&s), "a, b");

    /* High-bit characters come back as nonnegative values. */
    ds_clear(&s);
    ds_put_char(&s, '\xe9');
    ck_assert_int_eq(ds_last(&s), 0xe9);
    ck_assert(ds_chomp(&s, '\xe9'));
    ck_assert_int_eq(ds_last(&s), EOF);
    ds_destroy(&s);
}
END_TEST

static Suite *
ds_suite(void)
{
    Suite *s = suite_create("dynamic-string");
    TCase *tc = tcase_create("dynamic-string");
    tcase_add_test(tc, test_empty);
    tcase_add_test(tc, test_put_char_growth);
    tcase_add_test(tc, test_put_cstr_buffer_multiple);
    tcase_add_test(tc, test_put_format);
    tcase_add_test(tc, test_put_uint);
    tcase_add_test(tc, test_put_printable_and_hex);
    tcase_add_test(tc, test_hex_dump);
    tcase_add_test(tc, test_strftime_msec);
    tcase_add_test(tc, test_get_line);
    tcase_add_test(tc, test_steal_swap_clone);
    tcase_add_test(tc, test_last_and_chomp);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ds_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
