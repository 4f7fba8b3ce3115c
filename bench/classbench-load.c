#include "classbench-load.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *
error_at(const char *path, size_t line, const char *fmt, ...)
{
    char msg[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(msg, sizeof msg, fmt, args);
    va_end(args);
    size_t len = strlen(path) + strlen(msg) + 32;
    char *s = malloc(len);
    if (s) {
        snprintf(s, len, "%s:%zu: %s", path, line, msg);
    }
    return s;
}

static void *
grow(void *array, size_t *allocated, size_t elem)
{
    size_t n = *allocated ? *allocated * 2 : 1024;
    void *p = realloc(array, n * elem);
    if (!p) {
        abort();
    }
    *allocated = n;
    return p;
}

size_t
cb_range_to_prefixes(uint16_t lo, uint16_t hi, struct cb_port_prefix out[32])
{
    size_t n = 0;
    uint32_t cur = lo;
    while (cur <= hi) {
        /* The largest aligned block starting at CUR that fits. */
        unsigned int size_bits = cur ? __builtin_ctz(cur) : 16;
        while (size_bits > 0 && cur + (UINT32_C(1) << size_bits) - 1 > hi) {
            size_bits--;
        }
        out[n].value = cur;
        out[n].len = 16 - size_bits;
        n++;
        cur += UINT32_C(1) << size_bits;
    }
    return n;
}

static bool
parse_ip_prefix(const char *s, uint32_t *addr, uint8_t *len)
{
    unsigned int a, b, c, d, l;
    char end;
    if (sscanf(s, "%u.%u.%u.%u/%u%c", &a, &b, &c, &d, &l, &end) != 5
        || a > 255 || b > 255 || c > 255 || d > 255 || l > 32) {
        return false;
    }
    uint32_t v = a << 24 | b << 16 | c << 8 | d;
    *addr = l ? v & (UINT32_MAX << (32 - l)) : 0;
    *len = l;
    return true;
}

char *
cb_load_rules(const char *path, struct cb_rule **rulesp, size_t *np)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        return error_at(path, 0, "cannot open (%s)", strerror(errno));
    }
    struct cb_rule *rules = NULL;
    size_t n = 0, allocated = 0, line_no = 0;
    char line[512];
    char *error = NULL;
    while (fgets(line, sizeof line, f)) {
        line_no++;
        if (!strchr(line, '\n') && !feof(f)) {
            error = error_at(path, line_no, "line too long");
            break;
        }
        if (line[strspn(line, " \t\r\n")] == '\0') {
            continue;
        }
        char src[64], dst[64];
        unsigned int slo, shi, dlo, dhi, proto, pmask;
        if (line[0] != '@'
            || sscanf(line + 1, "%63s %63s %u : %u %u : %u %x/%x",
                      src, dst, &slo, &shi, &dlo, &dhi, &proto, &pmask) != 8) {
            error = error_at(path, line_no, "not a ClassBench rule");
            break;
        }
        if (n >= allocated) {
            rules = grow(rules, &allocated, sizeof *rules);
        }
        struct cb_rule *r = &rules[n];
        if (!parse_ip_prefix(src, &r->src, &r->src_len)
            || !parse_ip_prefix(dst, &r->dst, &r->dst_len)) {
            error = error_at(path, line_no, "bad address prefix");
            break;
        }
        if (slo > shi || shi > 65535 || dlo > dhi || dhi > 65535) {
            error = error_at(path, line_no, "bad port range");
            break;
        }
        if (proto > 255 || (pmask != 0 && pmask != 0xff)) {
            error = error_at(path, line_no, "bad protocol %#x/%#x",
                             proto, pmask);
            break;
        }
        r->sport_lo = slo;
        r->sport_hi = shi;
        r->dport_lo = dlo;
        r->dport_hi = dhi;
        r->proto_mask = pmask;
        r->proto = proto & pmask;
        n++;
    }
    fclose(f);
    if (error) {
        free(rules);
        return error;
    }
    *rulesp = rules;
    *np = n;
    return NULL;
}

char *
cb_load_trace(const char *trace_path, const char *expected_path,
              struct cb_packet **packetsp, size_t *np)
{
    FILE *f = fopen(trace_path, "r");
    if (!f) {
        return error_at(trace_path, 0, "cannot open (%s)", strerror(errno));
    }
    struct cb_packet *packets = NULL;
    size_t n = 0, allocated = 0, line_no = 0;
    char line[256];
    char *error = NULL;
    while (fgets(line, sizeof line, f)) {
        line_no++;
        if (line[strspn(line, " \t\r\n")] == '\0') {
            continue;
        }
        unsigned long long v[6];
        if (sscanf(line, "%llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
                   &v[3], &v[4], &v[5]) != 6
            || v[0] > UINT32_MAX || v[1] > UINT32_MAX || v[2] > 65535
            || v[3] > 65535 || v[4] > 255) {
            error = error_at(trace_path, line_no, "not a ClassBench header");
            break;
        }
        if (n >= allocated) {
            packets = grow(packets, &allocated, sizeof *packets);
        }
        packets[n++] = (struct cb_packet) {
            .src = v[0], .dst = v[1], .sport = v[2], .dport = v[3],
            .proto = v[4], .expected = -1,
        };
    }
    fclose(f);
    if (!error && expected_path) {
        f = fopen(expected_path, "r");
        if (!f) {
            error = error_at(expected_path, 0, "cannot open (%s)",
                             strerror(errno));
        } else {
            size_t i = 0;
            long long idx;
            while (!error && fscanf(f, "%lld", &idx) == 1) {
                if (i >= n) {
                    error = error_at(expected_path, i + 1,
                                     "more answers than the trace's %zu "
                                     "headers", n);
                } else if (idx < -1 || idx > INT32_MAX) {
                    error = error_at(expected_path, i + 1, "bad rule index");
                } else {
                    packets[i++].expected = idx;
                }
            }
            if (!error && (!feof(f) || i != n)) {
                error = error_at(expected_path, i + 1,
                                 "expected %zu answers, one per header", n);
            }
            fclose(f);
        }
    }
    if (error) {
        free(packets);
        return error;
    }
    *packetsp = packets;
    *np = n;
    return NULL;
}

static inline bool
prefix_matches(uint32_t value, uint32_t addr, unsigned int len)
{
    return !len || !((value ^ addr) >> (32 - len));
}

bool
cb_rule_matches(const struct cb_rule *r, const struct cb_packet *p)
{
    return prefix_matches(p->src, r->src, r->src_len)
           && prefix_matches(p->dst, r->dst, r->dst_len)
           && p->sport >= r->sport_lo && p->sport <= r->sport_hi
           && p->dport >= r->dport_lo && p->dport <= r->dport_hi
           && (p->proto & r->proto_mask) == r->proto;
}

int32_t
cb_linear_lookup(const struct cb_rule *rules, size_t n_rules,
                 const struct cb_packet *p)
{
    for (size_t i = 0; i < n_rules; i++) {
        if (cb_rule_matches(&rules[i], p)) {
            return i;
        }
    }
    return -1;
}
