#include <config.h>
#include "ovsdb-error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "json-print.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_error);

struct ovsdb_error {
    const char *tag;            /* String constant, never freed. */
    char *details;              /* Malloc'd, or NULL. */
    char *syntax;               /* Compact JSON of the bad input, or NULL. */
    int errno_;                 /* Nonzero for I/O errors. */
};

static struct ovsdb_error *
ovsdb_error_valist(const char *tag, const char *details, va_list args)
{
    struct ovsdb_error *error = xmalloc(sizeof *error);
    error->tag = tag ? tag : "ovsdb error";
    error->details = details ? xvasprintf(details, args) : NULL;
    error->syntax = NULL;
    error->errno_ = 0;
    return error;
}

struct ovsdb_error *
ovsdb_error(const char *tag, const char *details, ...)
{
    va_list args;
    va_start(args, details);
    struct ovsdb_error *error = ovsdb_error_valist(tag, details, args);
    va_end(args);
    return error;
}

struct ovsdb_error *
ovsdb_io_error(int errno_value, const char *details, ...)
{
    va_list args;
    va_start(args, details);
    struct ovsdb_error *error = ovsdb_error_valist("I/O error", details,
                                                   args);
    va_end(args);
    error->errno_ = errno_value;
    return error;
}

/* Serializes JSON the way Open vSwitch quotes it in the text form:
 * compact, members sorted, reals with 15 significant digits. */
static char *
json_to_compact_string(const json_t *json)
{
    return json_print_to_string(json, JSON_PRINT_SORT);
}

struct ovsdb_error *
ovsdb_syntax_error(const json_t *json, const char *tag,
                   const char *details, ...)
{
    va_list args;
    va_start(args, details);
    struct ovsdb_error *error = ovsdb_error_valist(tag ? tag : "syntax error",
                                                   details, args);
    va_end(args);
    if (json) {
        error->syntax = json_to_compact_string(json);
    }
    return error;
}

struct ovsdb_error *
ovsdb_wrap_error(struct ovsdb_error *error, const char *details, ...)
{
    if (!error) {
        return NULL;
    }

    va_list args;
    va_start(args, details);
    char *context = xvasprintf(details, args);
    va_end(args);

    if (error->details) {
        char *combined = xasprintf("%s: %s", context, error->details);
        free(context);
        free(error->details);
        error->details = combined;
    } else {
        error->details = context;
    }
    return error;
}

struct ovsdb_error *
ovsdb_internal_error__(struct ovsdb_error *inner, const char *where,
                       const char *details, ...)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    ds_put_format(&ds, "%s: ", where);
    if (details) {
        va_list args;
        va_start(args, details);
        ds_put_format_valist(&ds, details, args);
        va_end(args);
    }
    ds_put_format(&ds, " (%s)", PACKAGE_STRING);
    if (inner) {
        char *s = ovsdb_error_to_string_free(inner);
        ds_put_format(&ds, " (generated from: %s)", s);
        free(s);
    }

    struct ovsdb_error *error = ovsdb_error("internal error", "%s",
                                            ds_cstr(&ds));
    ds_destroy(&ds);

    char *s = ovsdb_error_to_string(error);
    VLOG_ERR("%s", s);
    free(s);
    return error;
}

struct ovsdb_error *
ovsdb_not_supported_error(const char *details, ...)
{
    va_list args;
    va_start(args, details);
    struct ovsdb_error *error = ovsdb_error_valist("not supported", details,
                                                   args);
    va_end(args);
    return error;
}

void
ovsdb_error_destroy(struct ovsdb_error *error)
{
    if (error) {
        free(error->details);
        free(error->syntax);
        free(error);
    }
}

struct ovsdb_error *
ovsdb_error_clone(const struct ovsdb_error *old)
{
    if (!old) {
        return NULL;
    }
    struct ovsdb_error *new = xmalloc(sizeof *new);
    new->tag = old->tag;
    new->details = old->details ? xstrdup(old->details) : NULL;
    new->syntax = old->syntax ? xstrdup(old->syntax) : NULL;
    new->errno_ = old->errno_;
    return new;
}

const char *
ovsdb_error_get_tag(const struct ovsdb_error *error)
{
    return error->tag;
}

json_t *
ovsdb_error_to_json(const struct ovsdb_error *error)
{
    json_t *json = json_object();

    json_object_set_new(json, "error", json_string(error->tag));
    if (error->details) {
        json_object_set_new(json, "details", json_string(error->details));
    }
    /* Open vSwitch's extensions to the RFC 7047 error object. */
    if (error->syntax) {
        json_object_set_new(json, "syntax", json_string(error->syntax));
    }
    if (error->errno_) {
        json_object_set_new(json, "io-error",
                            json_string(ovs_retval_to_string(error->errno_)));
    }
    return json;
}

json_t *
ovsdb_error_to_json_free(struct ovsdb_error *error)
{
    json_t *json = ovsdb_error_to_json(error);
    ovsdb_error_destroy(error);
    return json;
}

char *
ovsdb_error_to_string(const struct ovsdb_error *error)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    if (error->syntax) {
        ds_put_format(&ds, "syntax \"%s\": ", error->syntax);
    }
    ds_put_cstr(&ds, error->tag);
    if (error->details) {
        ds_put_format(&ds, ": %s", error->details);
    }
    if (error->errno_) {
        ds_put_format(&ds, " (%s)", ovs_retval_to_string(error->errno_));
    }
    return ds_steal_cstr(&ds);
}

char *
ovsdb_error_to_string_free(struct ovsdb_error *error)
{
    char *s = ovsdb_error_to_string(error);
    ovsdb_error_destroy(error);
    return s;
}

void
ovsdb_error_assert(struct ovsdb_error *error)
{
    if (error) {
        char *s = ovsdb_error_to_string_free(error);
        VLOG_ABORT("unexpected ovsdb error: %s", s);
    }
}

void
ovsdb_error_check_fatal(struct ovsdb_error *error)
{
    if (error) {
        char *s = ovsdb_error_to_string_free(error);
        ovs_fatal(0, "%s", s);
    }
}
