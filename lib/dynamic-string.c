#include <config.h>
#include "dynamic-string.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void
ds_init(struct ds *ds)
{
    ds->string = NULL;
    ds->length = 0;
    ds->allocated = 0;
}

void
ds_clear(struct ds *ds)
{
    ds->length = 0;
    if (ds->string) {
        ds->string[0] = '\0';
    }
}

void
ds_truncate(struct ds *ds, size_t new_length)
{
    if (ds->length > new_length) {
        ds->length = new_length;
        ds->string[new_length] = '\0';
    }
}

void
ds_reserve(struct ds *ds, size_t min_length)
{
    if (!ds->string || min_length > ds->allocated) {
        /* At least double, so that a long run of small appends costs
         * amortized O(1) per byte. */
        size_t new_allocated = ds->allocated + MAX(min_length, ds->allocated);
        new_allocated = MAX(new_allocated, 8);
        bool was_null = !ds->string;
        ds->string = xrealloc(ds->string, new_allocated + 1);
        ds->allocated = new_allocated;
        if (was_null) {
            ds->string[ds->length] = '\0';
        }
    }
}

char *
ds_put_uninit(struct ds *ds, size_t n)
{
    ds_reserve(ds, ds->length + n);
    char *p = &ds->string[ds->length];
    ds->length += n;
    ds->string[ds->length] = '\0';
    return p;
}

void
ds_put_char_multiple(struct ds *ds, char c, size_t n)
{
    memset(ds_put_uninit(ds, n), c, n);
}

void
ds_put_buffer(struct ds *ds, const char *s, size_t n)
{
    if (n) {
        memcpy(ds_put_uninit(ds, n), s, n);
    }
}

void
ds_put_cstr(struct ds *ds, const char *s)
{
    ds_put_buffer(ds, s, strlen(s));
}

void
ds_put_uint(struct ds *ds, unsigned long long int n)
{
    char digits[20];
    size_t len = 0;
    do {
        digits[sizeof digits - ++len] = '0' + n % 10;
        n /= 10;
    } while (n);
    ds_put_buffer(ds, &digits[sizeof digits - len], len);
}

void
ds_put_and_free_cstr(struct ds *ds, char *s)
{
    ds_put_cstr(ds, s);
    free(s);
}

void
ds_put_format(struct ds *ds, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    ds_put_format_valist(ds, format, args);
    va_end(args);
}

void
ds_put_format_valist(struct ds *ds, const char *format, va_list args_)
{
    /* First try to format straight into the free space; most output is
     * short, so one vsnprintf() call usually does it. */
    size_t available = ds->string ? ds->allocated - ds->length + 1 : 0;
    va_list args;

    va_copy(args, args_);
    int needed = vsnprintf(ds->string ? &ds->string[ds->length] : NULL,
                           available, format, args);
    va_end(args);

    if (needed < 0) {
        ovs_abort(errno, "vsnprintf failed for format \"%s\"", format);
    }
    if ((size_t) needed < available) {
        ds->length += needed;
        return;
    }

    ds_reserve(ds, ds->length + needed);
    available = ds->allocated - ds->length + 1;
    va_copy(args, args_);
    needed = vsnprintf(&ds->string[ds->length], available, format, args);
    va_end(args);
    ovs_assert(needed >= 0 && (size_t) needed < available);
    ds->length += needed;
}

void
ds_put_printable(struct ds *ds, const char *s, size_t n)
{
    ds_reserve(ds, ds->length + n);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c >= 0x20 && c < 0x7f) {
            ds_put_char(ds, c);
        } else {
            ds_put_format(ds, "\\%03o", c);
        }
    }
}

void
ds_put_hex(struct ds *ds, const void *buf_, size_t size)
{
    const uint8_t *buf = buf_;
    size_t i = 0;

    ds_put_cstr(ds, "0x");
    while (i < size && !buf[i]) {
        i++;
    }
    if (i == size) {
        ds_put_char(ds, '0');
        return;
    }
    /* The first significant byte without its leading zero nibble. */
    ds_put_format(ds, "%"PRIx8, buf[i++]);
    for (; i < size; i++) {
        ds_put_format(ds, "%02"PRIx8, buf[i]);
    }
}

static void
put_hex_dump(struct ds *ds, const uint8_t *buf, size_t size, uintptr_t ofs,
             bool ascii, bool skip_zero_lines)
{
    enum { PER_LINE = 16 };

    while (size > 0) {
        /* Bytes [start, end) of this line of PER_LINE are present. */
        size_t start = ofs % PER_LINE;
        size_t end = MIN(PER_LINE, start + size);
        size_t n = end - start;

        bool all_zero = true;
        for (size_t i = 0; i < n; i++) {
            if (buf[i]) {
                all_zero = false;
                break;
            }
        }

        if (!(skip_zero_lines && all_zero)) {
            ds_put_format(ds, "%08"PRIxMAX"  ", (uintmax_t) (ofs - start));
            size_t i;
            for (i = 0; i < start; i++) {
                ds_put_cstr(ds, "   ");
            }
            for (; i < end; i++) {
                /* A dash splits the line into two groups of eight. */
                ds_put_format(ds, "%02x%c", buf[i - start],
                              i == PER_LINE / 2 - 1 ? '-' : ' ');
            }
            if (ascii) {
                ds_put_char_multiple(ds, ' ', 3 * (PER_LINE - end));
                ds_put_char(ds, '|');
                ds_put_char_multiple(ds, ' ', start);
                for (i = start; i < end; i++) {
                    uint8_t c = buf[i - start];
                    ds_put_char(ds, c >= 0x20 && c < 0x7f ? c : '.');
                }
                ds_put_char_multiple(ds, ' ', PER_LINE - end);
                ds_put_char(ds, '|');
            } else {
                /* Without the text column, a line ends at its last byte
                 * (even one that ends the first group of eight). */
                ds_chomp(ds, ' ');
                ds_chomp(ds, '-');
            }
            ds_put_char(ds, '\n');
        }

        ofs += n;
        buf += n;
        size -= n;
    }
}

void
ds_put_hex_dump(struct ds *ds, const void *buf, size_t size, uintptr_t ofs,
                bool ascii)
{
    put_hex_dump(ds, buf, size, ofs, ascii, false);
}

void
ds_put_sparse_hex_dump(struct ds *ds, const void *buf, size_t size,
                       uintptr_t ofs, bool ascii)
{
    put_hex_dump(ds, buf, size, ofs, ascii, true);
}

/* Returns FORMAT with every "###" replaced by MSEC as three digits.  Done
 * before strftime() because strftime() has no millisecond conversion. */
static char *
expand_msec(const char *format, int msec)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    for (const char *p = format; *p; ) {
        if (p[0] == '%' && p[1]) {
            /* Keep conversions such as "%#" intact. */
            ds_put_buffer(&s, p, 2);
            p += 2;
        } else if (!strncmp(p, "###", 3)) {
            ds_put_format(&s, "%03d", msec);
            p += 3;
        } else {
            ds_put_char(&s, *p++);
        }
    }
    return ds_steal_cstr(&s);
}

void
ds_put_strftime_msec(struct ds *ds, const char *format,
                     long long int when_msec, bool utc)
{
    /* Floor division, so times before the epoch still get 0..999 ms. */
    long long int secs = when_msec / 1000;
    int msec = when_msec % 1000;
    if (msec < 0) {
        msec += 1000;
        secs--;
    }

    time_t when = secs;
    struct tm tm;
    if (utc ? !gmtime_r(&when, &tm) : !localtime_r(&when, &tm)) {
        memset(&tm, 0, sizeof tm);
    }

    char *fmt = expand_msec(format, msec);
    if (*fmt) {
        /* strftime() returns 0 both for "too small" and for an empty
         * result, so grow a few times before concluding the latter. */
        for (size_t avail = 64; avail <= 64 * 1024; avail *= 4) {
            ds_reserve(ds, ds->length + avail);
            size_t used = strftime(&ds->string[ds->length],
                                   ds->allocated - ds->length + 1, fmt, &tm);
            if (used) {
                ds->length += used;
                break;
            }
        }
        ds->string[ds->length] = '\0';
    }
    free(fmt);
}

char *
xastrftime_msec(const char *format, long long int when_msec, bool utc)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    ds_put_strftime_msec(&s, format, when_msec, utc);
    return ds_steal_cstr(&s);
}

int
ds_get_line(struct ds *ds, FILE *file)
{
    ds_clear(ds);
    for (;;) {
        int c = getc(file);
        if (c == EOF) {
            return ds->length ? 0 : EOF;
        } else if (c == '\n') {
            return 0;
        }
        ds_put_char(ds, c);
    }
}

int
ds_get_preprocessed_line(struct ds *ds, FILE *file, int *line_number)
{
    while (!ds_get_line(ds, file)) {
        if (line_number) {
            (*line_number)++;
        }

        /* An empty line may have no buffer yet. */
        char *comment = ds->length ? memchr(ds->string, '#', ds->length)
                                   : NULL;
        if (comment) {
            ds_truncate(ds, comment - ds->string);
        }
        while (ds->length && isspace((unsigned char) ds_last(ds))) {
            ds_truncate(ds, ds->length - 1);
        }
        size_t skip = 0;
        while (skip < ds->length
               && isspace((unsigned char) ds->string[skip])) {
            skip++;
        }
        if (skip) {
            memmove(ds->string, ds->string + skip, ds->length - skip + 1);
            ds->length -= skip;
        }

        if (ds->length) {
            return 0;
        }
    }
    return EOF;
}

char *
ds_cstr(struct ds *ds)
{
    if (!ds->string) {
        ds_reserve(ds, 0);
    }
    ds->string[ds->length] = '\0';
    return ds->string;
}

const char *
ds_cstr_ro(const struct ds *ds)
{
    return ds->string ? ds->string : "";
}

char *
ds_steal_cstr(struct ds *ds)
{
    char *s = ds_cstr(ds);
    ds_init(ds);
    return s;
}

void
ds_destroy(struct ds *ds)
{
    free(ds->string);
    ds_init(ds);
}

void
ds_swap(struct ds *a, struct ds *b)
{
    struct ds tmp = *a;
    *a = *b;
    *b = tmp;
}

void
ds_clone(struct ds *dst, const struct ds *source)
{
    if (!source->string) {
        ds_init(dst);
        return;
    }
    dst->length = source->length;
    dst->allocated = source->length;
    dst->string = xmalloc(dst->allocated + 1);
    memcpy(dst->string, source->string, dst->length);
    dst->string[dst->length] = '\0';
}

int
ds_last(const struct ds *ds)
{
    return ds->length ? (unsigned char) ds->string[ds->length - 1] : EOF;
}

bool
ds_chomp(struct ds *ds, int c)
{
    if (ds->length && (unsigned char) ds->string[ds->length - 1]
                      == (unsigned char) c) {
        ds->string[--ds->length] = '\0';
        return true;
    }
    return false;
}
