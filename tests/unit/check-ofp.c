/* check-ofp: helpers for the OpenFlow codec suites.  See check-ofp.h. */
#include <config.h>
#include "check-ofp.h"

#include <check.h>
#include <stdlib.h>
#include "check-util.h"
#include "ofp-print.h"
#include "ofpbuf.h"

struct ofpbuf *
check_ofp_from_hex(const char *hex)
{
    struct ofpbuf *b = ofpbuf_new(0);
    const char *end = ofpbuf_put_hex(b, hex, NULL);
    ck_assert_msg(!*end, "bad hex in test: %s", end);
    return b;
}

/* The offset of the first difference between A and B, or SIZE_MAX. */
static size_t
first_difference(const char *a, const char *b)
{
    size_t i = 0;
    while (a[i] && a[i] == b[i]) {
        i++;
    }
    return a[i] || b[i] ? i : SIZE_MAX;
}

void
check_ofp_msg(struct ofpbuf *b, const char *hex, const char *text)
{
    /* Messages can be long: report where they differ, not all of them. */
    char *got = check_hex(b->data, b->size);
    size_t i = first_difference(got, hex);
    ck_assert_msg(i == SIZE_MAX, "bytes differ at hex offset %zu: "
                  "expected ...%.40s, got ...%.40s", i, hex + i, got + i);
    free(got);
    char *s = ofp_to_string(b->data, b->size, NULL, 2);
    i = first_difference(s, text);
    ck_assert_msg(i == SIZE_MAX, "text differs at offset %zu: "
                  "expected ...%.60s, got ...%.60s", i, text + i, s + i);
    free(s);
    ofpbuf_delete(b);
}
