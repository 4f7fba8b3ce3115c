/* text-parse: one rule for numbers and key=value lists in text syntaxes. */
#include <config.h>
#include "text-parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int
ofputil_parse_int_bytes(const char *s, uint8_t *p, size_t n,
                        const char **tail)
{
    memset(p, 0, n);
    *tail = s;
    if (s[0] == '-') {
        return isdigit((unsigned char) s[1]) ? ERANGE : EINVAL;
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        /* Hex may be wider than strtoull() reads: fill from the least
         * significant end. */
        const char *start = s + 2, *end = start;
        while (hexit_value((unsigned char) *end) >= 0) {
            end++;
        }
        *tail = end;
        while (start < end && *start == '0') {
            start++;
        }
        size_t n_digits = end - start;
        if (DIV_ROUND_UP(n_digits, 2) > n) {
            return ERANGE;
        }
        for (size_t i = 0; i < n_digits; i++) {
            int v = hexit_value((unsigned char) end[-1 - (ptrdiff_t) i]);
            p[n - 1 - i / 2] |= i % 2 ? v << 4 : v;
        }
        return 0;
    }
    if (!isdigit((unsigned char) s[s[0] == '+'])) {
        return EINVAL;
    }
    char *end;
    errno = 0;
    unsigned long long int x = strtoull(s, &end, 0);
    *tail = end;
    if (errno == ERANGE || (n < 8 && x >> (n * 8))) {
        return ERANGE;
    }
    for (size_t i = 0; i < n && i < 8; i++) {
        p[n - 1 - i] = x >> (i * 8);
    }
    return 0;
}

bool
ofputil_scan_uint(const char *s, uint64_t max, uint64_t *value)
{
    uint8_t bytes[8];
    const char *tail;
    if (ofputil_parse_int_bytes(s, bytes, sizeof bytes, &tail) || *tail) {
        return false;
    }
    uint64_t x = 0;
    for (size_t i = 0; i < sizeof bytes; i++) {
        x = (x << 8) | bytes[i];
    }
    if (x > max) {
        return false;
    }
    *value = x;
    return true;
}

char *
ofputil_parse_uint(const char *s, uint64_t max, uint64_t *value)
{
    if (!*s) {
        return xstrdup("missing required numeric argument");
    }
    return (ofputil_scan_uint(s, max, value) ? NULL
            : xasprintf("invalid numeric format %s", s));
}

char *
ofputil_parse_u16(const char *s, uint16_t *value)
{
    uint64_t x;
    char *error = ofputil_parse_uint(s, UINT16_MAX, &x);
    if (!error) {
        *value = x;
    }
    return error;
}

char *
ofputil_parse_u32(const char *s, uint32_t *value)
{
    uint64_t x;
    char *error = ofputil_parse_uint(s, UINT32_MAX, &x);
    if (!error) {
        *value = x;
    }
    return error;
}

bool
ofputil_parse_key_value(char **sp, char **key, char **value, char *sepp)
{
    char *s = *sp + strspn(*sp, ", \t\r\n");
    if (!*s) {
        *sp = s;
        return false;
    }
    *key = s;
    size_t key_len = strcspn(s, ":=(, \t\r\n");
    char sep = s[key_len];
    if (sepp) {
        *sepp = sep;
    }
    s += key_len;
    if (sep == '(') {
        int depth = 1;
        char *v = ++s;
        for (; *s && depth; s++) {
            depth += *s == '(' ? 1 : *s == ')' ? -1 : 0;
        }
        (*key)[key_len] = '\0';
        if (!depth) {
            s[-1] = '\0';
            if (!strncmp(s, "->", 2)) {
                /* "check_pkt_larger(LEN)->DST": the value is "LEN->DST". */
                size_t n = strcspn(s, ", \t\r\n");
                memmove(s - 1, s, n);
                s[n - 1] = '\0';
                s += n;
                if (*s) {
                    s++;
                }
            }
        }
        *value = v;
    } else if (sep == ':' || sep == '=') {
        char *v = ++s;
        int depth = 0;
        for (; *s; s++) {
            if (*s == '(') {
                depth++;
            } else if (*s == ')' && depth) {
                depth--;
            } else if (!depth && strchr(", \t\r\n", *s)) {
                break;
            }
        }
        (*key)[key_len] = '\0';
        if (*s) {
            *s++ = '\0';
        }
        *value = v;
    } else {
        (*key)[key_len] = '\0';
        if (sep) {
            s++;
        }
        *value = "";
    }
    *sp = s;
    return true;
}
