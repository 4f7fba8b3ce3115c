/* check-util: see check-util.h. */
#include <config.h>

#include "check-util.h"

#include <check.h>
#include "ovsdb-error.h"

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
