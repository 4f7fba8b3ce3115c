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

/* Calls PARSE on each nonblank line of PATH until it returns an error
 * message (malloc'd).  Returns that, or one about the file itself,
 * or NULL. */
static char *
for_each_line(const char *path,
              char *(*parse)(const char *line, void *aux),
              void *aux)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        return error_at(path, 0, "cannot open (%s)", strerror(errno));
    }
    char line[512];
    size_t line_no = 0;
    char *error = NULL;
    while (!error && fgets(line, sizeof line, f)) {
        line_no++;
        if (!strchr(line, '\n') && !feof(f)) {
            error = error_at(path, line_no, "line too long");
        } else if (line[strspn(line, " \t\r\n")] != '\0') {
            char *msg = parse(line, aux);
            if (msg) {
                error = error_at(path, line_no, "%s", msg);
                free(msg);
            }
        }
    }
    fclose(f);
    return error;
}

size_t
cb_rule_expand(const struct cb_rule *r, struct cb_match out[])
{
    struct cb_port_prefix sp[32], dp[32];
    size_t n_sp = cb_range_to_prefixes(r->sport_lo, r->sport_hi, sp);
    size_t n_dp = cb_range_to_prefixes(r->dport_lo, r->dport_hi, dp);
    size_t n = 0;
    for (size_t a = 0; a < n_sp; a++) {
        for (size_t b = 0; b < n_dp; b++) {
            out[n++] = (struct cb_match) {
                .src = r->src, .src_mask = cb_prefix_mask32(r->src_len),
                .dst = r->dst, .dst_mask = cb_prefix_mask32(r->dst_len),
                .sport = sp[a].value, .sport_mask = cb_prefix_mask16(sp[a].len),
                .dport = dp[b].value, .dport_mask = cb_prefix_mask16(dp[b].len),
                .proto = r->proto, .proto_mask = r->proto_mask,
            };
        }
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

struct rules_aux {
    struct cb_rule *rules;
    size_t n, allocated;
};

static char *
parse_rule(const char *line, void *aux_)
{
    struct rules_aux *aux = aux_;
    char src[64], dst[64];
    unsigned int slo, shi, dlo, dhi, proto, pmask;
    if (line[0] != '@'
        || sscanf(line + 1, "%63s %63s %u : %u %u : %u %x/%x",
                  src, dst, &slo, &shi, &dlo, &dhi, &proto, &pmask) != 8) {
        return strdup("not a ClassBench rule");
    }
    struct cb_rule r;
    if (!parse_ip_prefix(src, &r.src, &r.src_len)
        || !parse_ip_prefix(dst, &r.dst, &r.dst_len)) {
        return strdup("bad address prefix");
    }
    if (slo > shi || shi > 65535 || dlo > dhi || dhi > 65535) {
        return strdup("bad port range");
    }
    if (proto > 255 || (pmask != 0 && pmask != 0xff)) {
        return strdup("bad protocol");
    }
    r.sport_lo = slo;
    r.sport_hi = shi;
    r.dport_lo = dlo;
    r.dport_hi = dhi;
    r.proto_mask = pmask;
    r.proto = proto & pmask;
    if (aux->n >= aux->allocated) {
        aux->rules = grow(aux->rules, &aux->allocated, sizeof *aux->rules);
    }
    aux->rules[aux->n++] = r;
    return NULL;
}

char *
cb_load_rules(const char *path, struct cb_rule **rulesp, size_t *np)
{
    struct rules_aux aux = { NULL, 0, 0 };
    char *error = for_each_line(path, parse_rule, &aux);
    if (error) {
        free(aux.rules);
        return error;
    }
    *rulesp = aux.rules;
    *np = aux.n;
    return NULL;
}

struct trace_aux {
    struct cb_packet *packets;
    size_t n, allocated;
};

static char *
parse_header(const char *line, void *aux_)
{
    struct trace_aux *aux = aux_;
    unsigned long long v[6];
    if (sscanf(line, "%llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
               &v[3], &v[4], &v[5]) != 6
        || v[0] > UINT32_MAX || v[1] > UINT32_MAX || v[2] > 65535
        || v[3] > 65535 || v[4] > 255) {
        return strdup("not a ClassBench header");
    }
    if (aux->n >= aux->allocated) {
        aux->packets = grow(aux->packets, &aux->allocated,
                            sizeof *aux->packets);
    }
    aux->packets[aux->n++] = (struct cb_packet) {
        .src = v[0], .dst = v[1], .sport = v[2], .dport = v[3],
        .proto = v[4], .expected = -1,
    };
    return NULL;
}

/* Reads one answer per line of PATH into PACKETS[0...N-1]. */
static char *
load_expected(const char *path, struct cb_packet *packets, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        return error_at(path, 0, "cannot open (%s)", strerror(errno));
    }
    char *error = NULL;
    size_t i = 0;
    long long idx;
    while (!error && fscanf(f, "%lld", &idx) == 1) {
        if (i >= n) {
            error = error_at(path, i + 1, "more answers than the trace's "
                             "%zu headers", n);
        } else if (idx < -1 || idx > INT32_MAX) {
            error = error_at(path, i + 1, "bad rule index");
        } else {
            packets[i++].expected = idx;
        }
    }
    if (!error && (!feof(f) || i != n)) {
        error = error_at(path, i + 1, "expected %zu answers, one per header",
                         n);
    }
    fclose(f);
    return error;
}

char *
cb_load_trace(const char *trace_path, const char *expected_path,
              struct cb_packet **packetsp, size_t *np)
{
    struct trace_aux aux = { NULL, 0, 0 };
    char *error = for_each_line(trace_path, parse_header, &aux);
    if (!error && expected_path) {
        error = load_expected(expected_path, aux.packets, aux.n);
    }
    if (error) {
        free(aux.packets);
        return error;
    }
    *packetsp = aux.packets;
    *np = aux.n;
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
