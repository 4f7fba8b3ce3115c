/* util: see util.h. */
#include <config.h>
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(util);

const char *program_name = "ovs";

static noreturn void
out_of_memory(void)
{
    fprintf(stderr, "%s: virtual memory exhausted\n", program_name);
    abort();
}

void
ovs_assert_failure(const char *file, int line, const char *condition)
{
    fprintf(stderr, "%s: %s:%d: assertion %s failed\n",
            program_name, file, line, condition);
    abort();
}

void *
xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p) {
        out_of_memory();
    }
    return p;
}

void *
xcalloc(size_t count, size_t size)
{
    void *p = count && size ? calloc(count, size) : calloc(1, 1);
    if (!p) {
        out_of_memory();
    }
    return p;
}

void *
xzalloc(size_t size)
{
    return xcalloc(1, size);
}

void *
xrealloc(void *p, size_t size)
{
    p = realloc(p, size ? size : 1);
    if (!p) {
        out_of_memory();
    }
    return p;
}

void *
xmemdup(const void *p, size_t size)
{
    void *copy = xmalloc(size);
    if (size) {
        memcpy(copy, p, size);
    }
    return copy;
}

char *
xmemdup0(const char *p, size_t length)
{
    char *copy = xmalloc(length + 1);
    if (length) {
        memcpy(copy, p, length);
    }
    copy[length] = '\0';
    return copy;
}

char *
xstrdup(const char *s)
{
    return xmemdup0(s, strlen(s));
}

char *
xvasprintf(const char *format, va_list args)
{
    va_list args2;
    va_copy(args2, args);
    int needed = vsnprintf(NULL, 0, format, args);
    char *s = xmalloc(needed + 1);
    vsnprintf(s, needed + 1, format, args2);
    va_end(args2);
    return s;
}

char *
xasprintf(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    char *s = xvasprintf(format, args);
    va_end(args);
    return s;
}

void *
x2nrealloc(void *p, size_t *n, size_t s)
{
    *n = *n == 0 ? 1 : 2 * *n;
    if (s && *n > SIZE_MAX / s) {
        out_of_memory();
    }
    return xrealloc(p, *n * s);
}

static void
print_error(int err_no, const char *format, va_list args)
{
    int saved_errno = errno;
    fprintf(stderr, "%s: ", program_name);
    vfprintf(stderr, format, args);
    if (err_no != 0) {
        fprintf(stderr, " (%s)", ovs_retval_to_string(err_no));
    }
    putc('\n', stderr);
    errno = saved_errno;
}

void
ovs_fatal_valist(int err_no, const char *format, va_list args)
{
    print_error(err_no, format, args);
    exit(EXIT_FAILURE);
}

void
ovs_fatal(int err_no, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    ovs_fatal_valist(err_no, format, args);
}

void
ovs_abort(int err_no, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    print_error(err_no, format, args);
    va_end(args);
    abort();
}

void
ovs_error_valist(int err_no, const char *format, va_list args)
{
    print_error(err_no, format, args);
}

void
ovs_error(int err_no, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    print_error(err_no, format, args);
    va_end(args);
}

void
set_program_name(const char *argv0)
{
    const char *slash = strrchr(argv0, '/');
    const char *name = slash ? slash + 1 : argv0;
    /* libtool-style wrappers prefix the real binary with "lt-". */
    if (!strncmp(name, "lt-", 3)) {
        name += 3;
    }
    program_name = name;
}

const char *
ovs_version_string(void)
{
    return OVS_COMPAT_VERSION;
}

const char *
ovs_ng_version_string(void)
{
    return PACKAGE_VERSION;
}

char *
ovs_version_text(void)
{
    return xasprintf("%s (Open vSwitch) %s\nOpen vSwitch NG %s\n", program_name,
                     OVS_COMPAT_VERSION, PACKAGE_VERSION);
}

void
ovs_print_version(void)
{
    char *text = ovs_version_text();
    fputs(text, stdout);
    free(text);
}

char *
nullable_xstrdup(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

void
ovs_strzcpy(char *dst, const char *src, size_t size)
{
    size_t n = strnlen(src, size - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

char *
follow_symlinks(const char *name)
{
    char *current = xstrdup(name);
    for (int i = 0; i < 40; i++) {
        char target[PATH_MAX];
        ssize_t n = readlink(current, target, sizeof target - 1);
        if (n < 0) {
            return current;     /* Not a link (or no such file): done. */
        }
        target[n] = '\0';

        char *next;
        const char *slash = strrchr(current, '/');
        if (target[0] == '/' || !slash) {
            next = xstrdup(target);
        } else {
            next = xasprintf("%.*s/%s", (int) (slash - current), current,
                             target);
        }
        free(current);
        current = next;
    }
    free(current);
    return xstrdup(name);
}

const char *
ovs_strerror(int error)
{
    static _Thread_local char buffer[128];
    if (error == EOF) {
        return "End of file";
    }
    /* GNU strerror_r returns a pointer that may or may not be BUFFER. */
    return strerror_r(error, buffer, sizeof buffer);
}

const char *
ovs_retval_to_string(int retval)
{
    return retval ? ovs_strerror(retval) : "Success";
}

bool
str_to_llong(const char *s, int base, long long int *x)
{
    char *tail;
    int save_errno = errno;
    errno = 0;
    long long int value = strtoll(s, &tail, base);
    bool ok = errno == 0 && tail != s && *tail == '\0';
    errno = save_errno;
    *x = ok ? value : 0;
    return ok;
}

bool
str_to_int(const char *s, int base, int *x)
{
    long long int ll;
    bool ok = str_to_llong(s, base, &ll) && ll >= INT_MIN && ll <= INT_MAX;
    *x = ok ? ll : 0;
    return ok;
}

bool
str_to_uint(const char *s, int base, unsigned int *x)
{
    long long int ll;
    bool ok = str_to_llong(s, base, &ll) && ll >= 0 && ll <= UINT_MAX;
    *x = ok ? ll : 0;
    return ok;
}

int
hexit_value(int c)
{
    return (c >= '0' && c <= '9' ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
            : -1);
}

bool
str_to_double(const char *s, double *d)
{
    char *tail;
    int save_errno = errno;
    errno = 0;
    double value = strtod(s, &tail);
    bool ok = errno == 0 && tail != s && *tail == '\0';
    errno = save_errno;
    *d = ok ? value : 0;
    return ok;
}

bool
string_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !memcmp(s + n - m, suffix, m);
}

bool
string_starts_with(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

char *
dir_name(const char *file_name)
{
    size_t len = strlen(file_name);
    while (len > 1 && file_name[len - 1] == '/') {
        len--;
    }
    while (len > 0 && file_name[len - 1] != '/') {
        len--;
    }
    while (len > 1 && file_name[len - 1] == '/') {
        len--;
    }
    return len ? xmemdup0(file_name, len) : xstrdup(".");
}

char *
base_name(const char *file_name)
{
    size_t end = strlen(file_name);
    while (end > 1 && file_name[end - 1] == '/') {
        end--;
    }
    size_t start = end;
    while (start > 0 && file_name[start - 1] != '/') {
        start--;
    }
    return end ? xmemdup0(file_name + start, end - start) : xstrdup("");
}

char *
abs_file_name(const char *dir, const char *file_name)
{
    if (file_name[0] == '/') {
        return xstrdup(file_name);
    }
    return xasprintf("%s/%s", dir && dir[0] ? dir : ".", file_name);
}
