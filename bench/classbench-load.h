/* classbench-load: reading ClassBench rule sets and header traces.
 *
 * Shared by the classifier's unit suites, bench/classbench (ours) and the
 * harness bench/classbench.sh builds against Open vSwitch, so it depends
 * on nothing but the C library.  The formats are described in
 * shared/classbench/README.md:
 *
 *   NAME.rules     @src/len dst/len sport_lo : sport_hi dport_lo : dport_hi
 *                  0xPROTO/0xMASK 0xFLAGS/0xMASK   (line order = priority)
 *   NAME.trace     src dst sport dport proto flags rule   (unsigned ints)
 *   NAME.expected  the 0-based index of the first matching rule, per line
 *
 * A classifier matches on prefixes, so each rule's port ranges become
 * prefix/length pairs (cb_range_to_prefixes()); a rule stands for the
 * cross product of its two port expansions, all at its priority.
 *
 * Memory: the loaders allocate the arrays they return; the caller frees
 * them with free().  Errors come back as a malloc'd message naming the file
 * and line; nothing is returned then. */
#ifndef CLASSBENCH_LOAD_H
#define CLASSBENCH_LOAD_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cb_rule {
    uint32_t src, dst;          /* Host order, already masked. */
    uint8_t src_len, dst_len;   /* 0...32. */
    uint16_t sport_lo, sport_hi, dport_lo, dport_hi;
    uint8_t proto, proto_mask;  /* Mask 0xff or 0. */
};

struct cb_packet {
    uint32_t src, dst;
    uint16_t sport, dport;
    uint8_t proto;
    int32_t expected;           /* Index of the first matching rule, or -1
                                 * if no .expected file was read. */
};

/* A port prefix: the ports whose first LEN bits equal VALUE's. */
struct cb_port_prefix {
    uint16_t value;
    uint8_t len;                /* 0...16. */
};

/* The fewest prefixes that exactly cover [LO, HI] (LO <= HI): at most 30.
 * Returns how many it wrote to OUT. */
size_t cb_range_to_prefixes(uint16_t lo, uint16_t hi,
                            struct cb_port_prefix out[32]);

/* One prefix match of a rule, values and masks in host order: what a
 * classifier rule holds for it. */
struct cb_match {
    uint32_t src, src_mask, dst, dst_mask;
    uint16_t sport, sport_mask, dport, dport_mask;
    uint8_t proto, proto_mask;
};

#define CB_MAX_MATCHES (30 * 30)

/* Expands R into the cross product of its port prefixes (at most
 * CB_MAX_MATCHES).  Returns how many it wrote to OUT. */
size_t cb_rule_expand(const struct cb_rule *r, struct cb_match out[]);

/* The mask of a LEN-bit prefix. */
static inline uint32_t
cb_prefix_mask32(unsigned int len)
{
    return len ? UINT32_MAX << (32 - len) : 0;
}

static inline uint16_t
cb_prefix_mask16(unsigned int len)
{
    return len ? (uint16_t) (0xffff << (16 - len)) : 0;
}

/* Returns NULL on success, else an error message the caller frees. */
char *cb_load_rules(const char *path, struct cb_rule **rules, size_t *n);
/* EXPECTED_PATH may be NULL. */
char *cb_load_trace(const char *trace_path, const char *expected_path,
                    struct cb_packet **packets, size_t *n);

bool cb_rule_matches(const struct cb_rule *, const struct cb_packet *);
/* The index of the first rule matching P, or -1: the reference answer. */
int32_t cb_linear_lookup(const struct cb_rule *, size_t n_rules,
                         const struct cb_packet *p);

#endif /* classbench-load.h */
