/* Unit tests for ovsdb-error.h: the error objects and text forms that
 * clients and operators see, as Open vSwitch 3.1 prints them. */
#include <config.h>
#include "ovsdb-error.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Compact JSON text with sorted keys, for comparing whole objects. */
static char *
to_text(json_t *json)
{
    char *s = json_dumps(json, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(json);
    return s;
}

START_TEST(test_plain_error)
{
    struct ovsdb_error *error = ovsdb_error("constraint violation",
                                            "%d is not in the valid range "
                                            "%d to %d (inclusive)", 5, 0, 4);
    ck_assert_str_eq(ovsdb_error_get_tag(error), "constraint violation");

    char *s = ovsdb_error_to_string(error);
    ck_assert_str_eq(s, "constraint violation: 5 is not in the valid range "
                     "0 to 4 (inclusive)");
    free(s);

    s = to_text(ovsdb_error_to_json(error));
    ck_assert_str_eq(s, "{\"details\":\"5 is not in the valid range 0 to 4 "
                     "(inclusive)\",\"error\":\"constraint violation\"}");
    free(s);

    /* A clone is independent of the original. */
    struct ovsdb_error *clone = ovsdb_error_clone(error);
    ovsdb_error_destroy(error);
    s = ovsdb_error_to_string_free(clone);
    ck_assert_str_eq(s, "constraint violation: 5 is not in the valid range "
                     "0 to 4 (inclusive)");
    free(s);

    /* No details: the object has only "error". */
    s = to_text(ovsdb_error_to_json_free(ovsdb_error("timed out", NULL)));
    ck_assert_str_eq(s, "{\"error\":\"timed out\"}");
    free(s);
    s = ovsdb_error_to_string_free(ovsdb_error("timed out", NULL));
    ck_assert_str_eq(s, "timed out");
    free(s);

    ck_assert_ptr_null(ovsdb_error_clone(NULL));
    ovsdb_error_destroy(NULL);
}
END_TEST

START_TEST(test_syntax_error)
{
    json_t *bad = json_pack("{s:s,s:{}}", "name", "1x", "tables");
    struct ovsdb_error *error = ovsdb_syntax_error(
        bad, NULL, "Parsing database schema failed: Type mismatch for "
        "member '%s'.", "name");
    json_decref(bad);           /* The error keeps its own copy. */

    ck_assert_str_eq(ovsdb_error_get_tag(error), "syntax error");
    char *s = ovsdb_error_to_string(error);
    ck_assert_str_eq(s, "syntax \"{\"name\":\"1x\",\"tables\":{}}\": syntax "
                     "error: Parsing database schema failed: Type mismatch "
                     "for member 'name'.");
    free(s);

    /* Open vSwitch adds the input as "syntax" to the RFC 7047 object. */
    s = to_text(ovsdb_error_to_json_free(error));
    ck_assert_str_eq(s, "{\"details\":\"Parsing database schema failed: Type "
                     "mismatch for member 'name'.\",\"error\":\"syntax "
                     "error\",\"syntax\":\"{\\\"name\\\":\\\"1x\\\","
                     "\\\"tables\\\":{}}\"}");
    free(s);

    /* Reals are quoted with 15 significant digits, as OVS prints them. */
    json_t *real = json_pack("{s:f,s:f}", "maxReal", 0.30000000000000004,
                             "minReal", 1.0);
    s = ovsdb_error_to_string_free(ovsdb_syntax_error(real, NULL,
                                                      "minReal exceeds "
                                                      "maxReal"));
    json_decref(real);
    ck_assert_str_eq(s, "syntax \"{\"maxReal\":0.3,\"minReal\":1}\": syntax "
                     "error: minReal exceeds maxReal");
    free(s);

    /* Another tag, and no JSON. */
    s = ovsdb_error_to_string_free(ovsdb_syntax_error(NULL, "unknown "
                                                      "database", "x"));
    ck_assert_str_eq(s, "unknown database: x");
    free(s);
}
END_TEST

START_TEST(test_io_error)
{
    struct ovsdb_error *error = ovsdb_io_error(ENOENT, "%s: open failed",
                                               "/nonexistent");
    ck_assert_str_eq(ovsdb_error_get_tag(error), "I/O error");
    char *s = ovsdb_error_to_string(error);
    ck_assert_str_eq(s, "I/O error: /nonexistent: open failed "
                     "(No such file or directory)");
    free(s);

    s = to_text(ovsdb_error_to_json_free(error));
    ck_assert_str_eq(s, "{\"details\":\"/nonexistent: open failed\","
                     "\"error\":\"I/O error\","
                     "\"io-error\":\"No such file or directory\"}");
    free(s);

    s = ovsdb_error_to_string_free(ovsdb_io_error(EOF, "%s: truncated",
                                                  "db"));
    ck_assert_str_eq(s, "I/O error: db: truncated (End of file)");
    free(s);
}
END_TEST

START_TEST(test_wrap_error)
{
    ck_assert_ptr_null(ovsdb_wrap_error(NULL, "ignored"));

    json_t *bad = json_string("1.0");
    struct ovsdb_error *error = ovsdb_syntax_error(
        bad, NULL, "schema version \"1.0\" not in format x.y.z");
    json_decref(bad);
    error = ovsdb_wrap_error(error, "failed to parse \"%s\" as ovsdb schema",
                             "s.json");
    ck_assert_str_eq(ovsdb_error_get_tag(error), "syntax error");
    char *s = ovsdb_error_to_string_free(error);
    ck_assert_str_eq(s, "syntax \"\"1.0\"\": syntax error: failed to parse "
                     "\"s.json\" as ovsdb schema: schema version \"1.0\" not "
                     "in format x.y.z");
    free(s);

    /* An error without details gets the context as its details. */
    error = ovsdb_wrap_error(ovsdb_error("timed out", NULL), "db %d", 3);
    s = ovsdb_error_to_string_free(error);
    ck_assert_str_eq(s, "timed out: db 3");
    free(s);
}
END_TEST

START_TEST(test_internal_and_not_supported)
{
    struct ovsdb_error *error = ovsdb_internal_error(
        ovsdb_error("constraint violation", "inner"), "bad %s", "state");
    ck_assert_str_eq(ovsdb_error_get_tag(error), "internal error");
    char *s = ovsdb_error_to_string_free(error);
    ck_assert_ptr_nonnull(strstr(s, "test-ovsdb-error.c:"));
    ck_assert_ptr_nonnull(strstr(s, "bad state"));
    ck_assert_ptr_nonnull(strstr(s, "constraint violation: inner"));
    free(s);

    error = ovsdb_not_supported_error("%s is not supported", "clustering");
    ck_assert_str_eq(ovsdb_error_get_tag(error), "not supported");
    s = ovsdb_error_to_string_free(error);
    ck_assert_str_eq(s, "not supported: clustering is not supported");
    free(s);

    ovsdb_error_assert(NULL);   /* No error: returns. */
}
END_TEST

static Suite *
ovsdb_error_suite(void)
{
    Suite *s = suite_create("ovsdb-error");
    TCase *tc = tcase_create("ovsdb-error");
    tcase_add_test(tc, test_plain_error);
    tcase_add_test(tc, test_syntax_error);
    tcase_add_test(tc, test_io_error);
    tcase_add_test(tc, test_wrap_error);
    tcase_add_test(tc, test_internal_and_not_supported);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ovsdb_error_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
