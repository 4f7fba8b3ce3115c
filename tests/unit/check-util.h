/* check-util: small helpers that many Check suites need, so that each
 * suite does not carry its own copy.
 *
 * Every helper fails the running test (ck_abort) instead of returning an
 * error: they are for inputs the test itself wrote. */
#ifndef TESTS_UNIT_CHECK_UTIL_H
#define TESTS_UNIT_CHECK_UTIL_H 1

#include <check.h>
#include <jansson.h>
#include <sched.h>
#include <stdbool.h>

/* Fails the test, naming the condition and where, if COND is false.  It
 * reports only failures: Check records every passing ck_assert*() through
 * the test runner, which is slow inside large loops. */
#define CHECK(COND)                                                     \
    do {                                                                \
        if (!(COND)) {                                                  \
            ck_abort_msg("%s:%d: check failed: %s",                     \
                         __FILE__, __LINE__, #COND);                    \
        }                                                               \
    } while (0)

#include <stddef.h>

struct ovsdb_error;

/* N, or N / DIVISOR (at least 1) when running under valgrind, which is
 * some 50 times slower: for loops whose length buys coverage of random
 * cases rather than checking one case (CI runs every suite under valgrind
 * as well, for memory errors). */
size_t check_iterations(size_t n, size_t divisor);

/* SIZE bytes at P as lower-case hex digits, no separators; the caller
 * frees the result. */
char *check_hex(const void *p, size_t size);

/* Parses S (any JSON value, scalars included); the caller owns the
 * result. */
json_t *check_json_parse(const char *s);

/* Fails the test with ERROR's text if ERROR is nonnull (and frees it). */
void check_ovsdb_ok(struct ovsdb_error *error);

/* Waits, yielding the CPU, until COND (evaluated once per try) holds;
 * fails the test if it never does.  The bound is a patience cap for a
 * slow or busy machine, not a timing requirement. */
#define CHECK_WAIT_FOR(COND)                                            \
    do {                                                                \
        bool ok_ = false;                                               \
        for (long i_ = 0; !(ok_ = (COND)) && i_ < 20000000; i_++) {     \
            sched_yield();                                              \
        }                                                               \
        ck_assert_msg(ok_, "timed out waiting for %s", #COND);          \
    } while (0)

#endif /* tests/unit/check-util.h */
