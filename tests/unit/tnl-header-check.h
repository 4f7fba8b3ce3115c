/* tnl-header-check: what the tunnel header suites (test-native-tnl,
 * test-gtpu) both check of a built header's text. */
#ifndef TESTS_UNIT_TNL_HEADER_CHECK_H
#define TESTS_UNIT_TNL_HEADER_CHECK_H 1

#include <check.h>
#include <string.h>
#include "dynamic-string.h"
#include "tnl-header.h"

/* Checks that D prints as EXPECT and that the text parses back to the same
 * type and bytes. */
static inline void
check_tnl_header_text(const struct tnl_push_action *d, const char *expect)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    tnl_header_format(d, &ds);
    ck_assert_str_eq(ds_cstr(&ds), expect);

    struct tnl_push_action back;
    const char *s = ds_cstr(&ds);
    char *error = tnl_header_parse(&s, &back);
    ck_assert_msg(!error, "%s", error);
    ck_assert_str_eq(s, "");
    ck_assert_uint_eq(back.header_len, d->header_len);
    ck_assert_uint_eq(back.tnl_type, d->tnl_type);
    ck_assert(!memcmp(back.header, d->header, d->header_len));
    ds_destroy(&ds);
}

#endif /* tnl-header-check.h */
