/* check-util: see check-util.h. */
#include <config.h>

#include "check-util.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include "ovsdb-error.h"
#include "util.h"
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

size_t
check_iterations(size_t n, size_t divisor)
{
    return RUNNING_ON_VALGRIND ? MAX(n / divisor, 1) : n;
}

json_t *
check_json_parse(const char *s)
{
    json_error_t error;
    json_t *json = json_loads(s, JSON_DECODE_ANY, &error);
    ck_assert_msg(json != NULL, "bad JSON in test: %s: %s", s, error.text);
    return json;
}

void
check_ovsdb_ok(struct ovsdb_error *error)
{
    if (error) {
        char *s = ovsdb_error_to_string_free(error);
        ck_abort_msg("unexpected error: %s", s);
    }
}

char *
check_hex(const void *p_, size_t size)
{
    const uint8_t *p = p_;
    char *s = xmalloc(2 * size + 1);
    for (size_t i = 0; i < size; i++) {
        snprintf(&s[2 * i], 3, "%02x", p[i]);
    }
    s[2 * size] = '\0';
    return s;
}
