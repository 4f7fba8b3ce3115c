/* ovsdb-error: the error values of the OVSDB engine and its tools.
 *
 * An error has a TAG, the RFC 7047 "error" string that a client matches on
 * ("syntax error", "constraint violation", "referential integrity
 * violation", "resources exhausted", "I/O error", "timed out", "not
 * supported", "not owner", "domain error", "range error", "unknown
 * database", ...) and an optional DETAILS text for people.  A syntax error
 * also remembers (a copy of) the JSON that was wrong, so the text form can
 * quote it, and an I/O error the errno value.
 *
 * ovsdb_wrap_error() prefixes context ("foo.db: ...") as a chain, the way a
 * message gains context on its way up without losing the original tag.
 *
 * Ownership: every function that returns a struct ovsdb_error * gives the
 * caller a new error, which the caller must pass on, destroy with
 * ovsdb_error_destroy() or consume with one of the *_free() functions.  A
 * NULL pointer means "no error" everywhere.
 */
#ifndef OVSDB_ERROR_H
#define OVSDB_ERROR_H 1

#include <jansson.h>
#include "util.h"

struct ovsdb_error;

/* A new error with TAG (a string constant, not copied) and DETAILS from a
 * printf-style format (may be NULL for none). */
struct ovsdb_error *ovsdb_error(const char *tag, const char *details, ...)
    OVS_PRINTF_FORMAT(2, 3) OVS_WARN_UNUSED_RESULT;

/* A new "I/O error" for errno value ERRNO_VALUE (EOF for an unexpected end
 * of file); the text form appends strerror(). */
struct ovsdb_error *ovsdb_io_error(int errno_value, const char *details, ...)
    OVS_PRINTF_FORMAT(2, 3) OVS_WARN_UNUSED_RESULT;

/* A new error with TAG (NULL means "syntax error") about the JSON value
 * JSON (may be NULL; copied). */
struct ovsdb_error *ovsdb_syntax_error(const json_t *json, const char *tag,
                                       const char *details, ...)
    OVS_PRINTF_FORMAT(3, 4) OVS_WARN_UNUSED_RESULT;

/* Returns ERROR with the context DETAILS put in front of its details
 * ("DETAILS: old details"; the tag and quoted syntax stay in front, so the
 * text form reads "syntax error: DETAILS: old details" as in OVS).  Takes
 * ownership of ERROR (NULL gives NULL). */
struct ovsdb_error *ovsdb_wrap_error(struct ovsdb_error *error,
                                     const char *details, ...)
    OVS_PRINTF_FORMAT(2, 3) OVS_WARN_UNUSED_RESULT;

/* An "internal error" naming the source location, for "cannot happen"
 * conditions that should still not crash a server; also logs it. */
#define ovsdb_internal_error(INNER, ...) \
    ovsdb_internal_error__(INNER, OVS_SOURCE_LOCATOR, __VA_ARGS__)
struct ovsdb_error *ovsdb_internal_error__(struct ovsdb_error *inner,
                                           const char *where,
                                           const char *details, ...)
    OVS_PRINTF_FORMAT(3, 4) OVS_WARN_UNUSED_RESULT;

/* The "not supported" error for a feature we recognize but do not do. */
struct ovsdb_error *ovsdb_not_supported_error(const char *details, ...)
    OVS_PRINTF_FORMAT(1, 2) OVS_WARN_UNUSED_RESULT;

void ovsdb_error_destroy(struct ovsdb_error *);
struct ovsdb_error *ovsdb_error_clone(const struct ovsdb_error *)
    OVS_WARN_UNUSED_RESULT;

const char *ovsdb_error_get_tag(const struct ovsdb_error *);

/* The RFC 7047 error object: {"error": TAG, "details": TEXT} (details only
 * when there are some), plus Open vSwitch's extensions "syntax" (the
 * compact JSON text of a syntax error's input) and "io-error" (strerror of
 * an I/O error's errno).  Returns a new reference. */
json_t *ovsdb_error_to_json(const struct ovsdb_error *);
json_t *ovsdb_error_to_json_free(struct ovsdb_error *);

/* The text form for people: "TAG: DETAILS" for most errors; for syntax
 * errors "syntax \"JSON\": TAG: DETAILS"; for I/O errors the details plus
 * " (strerror)".  The caller frees the string. */
char *ovsdb_error_to_string(const struct ovsdb_error *);
char *ovsdb_error_to_string_free(struct ovsdb_error *);

/* For command-line tools: if ERROR is nonnull, prints its text form as
 * "PROGRAM: TEXT" and exits with status 1 (ovs_fatal()).  Takes ownership
 * of ERROR. */
void ovsdb_error_check_fatal(struct ovsdb_error *);

/* If ERROR is nonnull, logs it and aborts: for errors that can only come
 * from a bug (e.g. a built-in schema that does not parse). */
void ovsdb_error_assert(struct ovsdb_error *);

#endif /* ovsdb-error.h */
