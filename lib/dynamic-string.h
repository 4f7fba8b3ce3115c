/* dynamic-string: a growable, always NUL-terminatable string builder.
 *
 * "struct ds" is how this code base builds text: log messages, command
 * replies, flow dumps.  Append to it with the ds_put_*() functions, which
 * grow the buffer geometrically, then read it with ds_cstr() or take it over
 * with ds_steal_cstr().
 *
 * Memory: the ds owns STRING.  ds_destroy() frees it; ds_steal_cstr() hands
 * it to the caller (who frees it with free()) and leaves the ds empty and
 * reusable.  A ds set up with DS_EMPTY_INITIALIZER or ds_init() holds no
 * memory until something is appended, so declaring one is free.
 *
 * Invariant: LENGTH <= ALLOCATED, and when STRING is nonnull it has room for
 * ALLOCATED + 1 bytes and STRING[LENGTH] is '\0' (ds_put_uninit() writes the
 * terminator too), so ds_cstr_ro() can hand out the buffer as is.  The
 * string may contain embedded NUL bytes (ds_put_buffer()).
 *
 * Usage:
 *     struct ds s = DS_EMPTY_INITIALIZER;
 *     ds_put_format(&s, "%d packets", n);
 *     puts(ds_cstr(&s));
 *     ds_destroy(&s);
 */
#ifndef DYNAMIC_STRING_H
#define DYNAMIC_STRING_H 1

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "util.h"

struct ds {
    char *string;       /* Null only while nothing has been allocated. */
    size_t length;      /* Bytes in use, not counting a terminator. */
    size_t allocated;   /* Usable bytes, not counting a terminator. */
};

#define DS_EMPTY_INITIALIZER { NULL, 0, 0 }

void ds_init(struct ds *);
/* Sets the length to 0, keeping the allocation. */
void ds_clear(struct ds *);
/* Shortens to at most NEW_LENGTH bytes. */
void ds_truncate(struct ds *, size_t new_length);
/* Makes room for at least MIN_LENGTH bytes (plus terminator) in total. */
void ds_reserve(struct ds *, size_t min_length);
/* Appends N bytes of unspecified content and returns a pointer to them, for
 * the caller to fill in.  The pointer is valid until the ds next grows. */
char *ds_put_uninit(struct ds *, size_t n);

static inline void
ds_put_char(struct ds *ds, char c)
{
    if (OVS_LIKELY(ds->length < ds->allocated)) {
        ds->string[ds->length++] = c;
        ds->string[ds->length] = '\0';
    } else {
        *ds_put_uninit(ds, 1) = c;
    }
}

void ds_put_char_multiple(struct ds *, char c, size_t n);
void ds_put_cstr(struct ds *, const char *);
/* N in decimal: what ds_put_format(ds, "%llu", n) writes, without the cost of
 * parsing a format, which dominates printing large flow dumps. */
void ds_put_uint(struct ds *, unsigned long long int n);
/* Appends S, which must be malloc'd, and frees it. */
void ds_put_and_free_cstr(struct ds *, char *s);
void ds_put_buffer(struct ds *, const char *, size_t n);
void ds_put_format(struct ds *, const char *, ...) OVS_PRINTF_FORMAT(2, 3);
void ds_put_format_valist(struct ds *, const char *, va_list)
    OVS_PRINTF_FORMAT(2, 0);
/* Appends the N bytes at S, writing each byte that is not printable ASCII
 * as a C octal escape ("\ooo"), so logs never carry raw control bytes. */
void ds_put_printable(struct ds *, const char *s, size_t n);
/* Appends BUF as "0x" followed by hex digits, most significant byte first,
 * without leading zeros ("0x0" for all zeros). */
void ds_put_hex(struct ds *, const void *buf, size_t size);
/* Appends a hex dump of BUF, 16 bytes per line, in the layout Open vSwitch
 * tools print:
 *   "00000010  61 62 63 64 65 66 67 68-69 6a 6b 6c 6d 6e 6f 70 |abcdefghijklmnop|\n"
 * OFFSET is added to the printed addresses (a buffer whose OFFSET is not a
 * multiple of 16 starts mid-line).  ASCII adds the |...| column, in which
 * unprintable bytes show as '.'; without it trailing spaces are dropped. */
void ds_put_hex_dump(struct ds *, const void *buf, size_t size,
                     uintptr_t offset, bool ascii);
/* Like ds_put_hex_dump() but omits lines whose bytes are all zero, for
 * dumping large, mostly empty structures. */
void ds_put_sparse_hex_dump(struct ds *, const void *buf, size_t size,
                            uintptr_t offset, bool ascii);
/* Appends WHEN_MSEC (milliseconds since the epoch) formatted by strftime()
 * FORMAT, local time or UTC.  "###" in FORMAT becomes the three-digit
 * millisecond part. */
void ds_put_strftime_msec(struct ds *, const char *format,
                          long long int when_msec, bool utc);
/* Returns a newly allocated string with the same formatting. */
char *xastrftime_msec(const char *format, long long int when_msec, bool utc);

/* Replaces the contents with the next line of FILE, without its newline.
 * Returns 0 on success, EOF at end of file with nothing read. */
int ds_get_line(struct ds *, FILE *);
/* Like ds_get_line() but strips "#" comments and leading and trailing white
 * space, and skips lines left empty.  LINE_NUMBER, if nonnull, is advanced
 * by the number of lines read. */
int ds_get_preprocessed_line(struct ds *, FILE *, int *line_number);

/* Returns the contents, NUL-terminated.  Never NULL (an empty ds gets a
 * one-byte allocation).  Valid until the ds is next modified. */
char *ds_cstr(struct ds *);
const char *ds_cstr_ro(const struct ds *);
/* Returns the contents and leaves the ds empty; the caller frees. */
char *ds_steal_cstr(struct ds *);
void ds_destroy(struct ds *);
void ds_swap(struct ds *, struct ds *);
/* Copies SOURCE into DST, which must not hold memory (it is overwritten). */
void ds_clone(struct ds *dst, const struct ds *source);

/* Last character, or EOF if empty. */
int ds_last(const struct ds *);
/* Removes a trailing C if present; returns whether it did. */
bool ds_chomp(struct ds *, int c);

#endif /* dynamic-string.h */
