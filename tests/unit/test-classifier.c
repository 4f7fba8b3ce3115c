/* Unit tests for the classifier (classifier.h) and its prefix tries
 * (prefix-trie.h): every lookup on random rule sets agrees with a linear
 * first-match search, the wildcard mask it returns is sufficient (every
 * packet that agrees on its bits gets the same rule), tries on and off
 * give the same rules, and the OpenFlow-table API (versions, replace,
 * exact finds, loose and strict iteration, overlap checks) behaves. */
#include <config.h>
#include "classifier.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"
#include "ovs-rcu.h"
#include "prefix-trie.h"
#include "util.h"

static uint32_t
rnd32(void)
{
    return (uint32_t) random() << 16 ^ (uint32_t) random();
}

static uint32_t
prefix_mask(unsigned int len)
{
    return len ? UINT32_MAX << (32 - len) : 0;
}

/* Prefix tries against brute force. */

struct ref_prefix {
    uint32_t key[4];
    unsigned int plen;
};

static bool
ref_bits_equal(const uint32_t a[], const uint32_t b[], unsigned int n)
{
    for (unsigned int i = 0; i < n; i++) {
        unsigned int w = i / 32, b_ = 31 - i % 32;
        if (((a[w] >> b_) ^ (b[w] >> b_)) & 1) {
            return false;
        }
    }
    return true;
}

/* Checks one lookup against the prefixes in REFS: PLENS must be exactly
 * the lengths of the prefixes of KEY, and every key agreeing with KEY on
 * the first maskbits bits must get the same PLENS.  Lengths up to maskbits
 * are decided by those bits anyway; longer ones must match no such key. */
static void
check_trie_lookup(const struct prefix_trie *trie, const struct ref_prefix *refs,
                  size_t n_refs, const uint32_t key[], unsigned int n_bits)
{
    struct prefix_plens plens;
    unsigned int maskbits = prefix_trie_lookup(trie, key, n_bits, &plens);
    CHECK(maskbits <= n_bits);
    for (unsigned int len = 1; len <= n_bits; len++) {
        bool want = false;
        for (size_t i = 0; i < n_refs; i++) {
            want |= refs[i].plen == len
                    && ref_bits_equal(refs[i].key, key, len);
        }
        CHECK(prefix_plens_has(&plens, len) == want);
    }
    for (size_t i = 0; i < n_refs; i++) {
        if (refs[i].plen > maskbits) {
            /* A prefix longer than maskbits must differ from KEY within
             * the first maskbits bits, or a key that agrees on those bits
             * could match it. */
            CHECK(!ref_bits_equal(refs[i].key, key, maskbits));
        }
    }
}

static void
random_key(uint32_t key[4], const struct ref_prefix *refs, size_t n_refs,
           unsigned int n_bits)
{
    /* Near an existing prefix most of the time, so that lookups go deep. */
    for (int i = 0; i < 4; i++) {
        key[i] = rnd32();
    }
    if (n_refs && random() % 4) {
        const struct ref_prefix *r = &refs[random() % n_refs];
        unsigned int keep = random() % (n_bits + 1);
        for (unsigned int b = 0; b < keep; b++) {
            unsigned int w = b / 32, s = 31 - b % 32;
            key[w] = (key[w] & ~(1u << s)) | (r->key[w] & (1u << s));
        }
    }
}

static void
trie_random_test(unsigned int n_bits, unsigned int seed)
{
    srandom(seed);
    struct prefix_trie trie;
    prefix_trie_init(&trie);
    struct ref_prefix refs[300];
    size_t n_refs = 0;
    /* A few base keys, so that prefixes share long stretches. */
    uint32_t bases[6][4];
    for (int i = 0; i < 6; i++) {
        for (int j = 0; j < 4; j++) {
            bases[i][j] = rnd32();
        }
    }
    for (int round = 0; round < 600; round++) {
        if (n_refs < ARRAY_SIZE(refs) && (random() % 3 || !n_refs)) {
            struct ref_prefix *r = &refs[n_refs++];
            memcpy(r->key, bases[random() % 6], sizeof r->key);
            r->key[random() % (n_bits / 32)] ^= rnd32() & rnd32();
            r->plen = 1 + random() % n_bits;
            prefix_trie_insert(&trie, r->key, r->plen);
        } else {
            size_t i = random() % n_refs;
            prefix_trie_remove(&trie, refs[i].key, refs[i].plen);
            refs[i] = refs[--n_refs];
        }
        for (int j = 0; j < 10; j++) {
            uint32_t key[4];
            random_key(key, refs, n_refs, n_bits);
            check_trie_lookup(&trie, refs, n_refs, key, n_bits);
        }
        if (n_bits == 32) {
            /* Side-by-side walks give what walks one at a time give. */
            const struct prefix_trie *tries[3] = { &trie, &trie, &trie };
            uint32_t keys[3][4];
            unsigned int widths[3] = { 32, 32, 24 }, maskbits[3];
            struct prefix_plens plens[3];
            for (int j = 0; j < 3; j++) {
                random_key(keys[j], refs, n_refs, 32);
            }
            uint32_t flat[3] = { keys[0][0], keys[1][0], keys[2][0] };
            prefix_trie_lookup_many32(tries, flat, widths, 3, maskbits,
                                      plens);
            for (int j = 0; j < 3; j++) {
                struct prefix_plens one;
                uint32_t masked = flat[j] & (widths[j] < 32
                                             ? ~(UINT32_MAX >> widths[j])
                                             : UINT32_MAX);
                CHECK(prefix_trie_lookup(&trie, &masked, widths[j], &one)
                      == maskbits[j]);
                CHECK(!memcmp(&one, &plens[j], sizeof one));
            }
        }
        ovsrcu_quiesce();
    }
    while (n_refs) {
        n_refs--;
        prefix_trie_remove(&trie, refs[n_refs].key, refs[n_refs].plen);
    }
    CHECK(prefix_trie_is_empty(&trie));
    prefix_trie_destroy(&trie);
    ovsrcu_synchronize();
}

START_TEST(test_trie_ipv4_against_brute_force)
{
    trie_random_test(32, 1);
}
END_TEST

START_TEST(test_trie_ipv6_against_brute_force)
{
    trie_random_test(128, 2);
}
END_TEST

START_TEST(test_trie_maskbits_examples)
{
    struct prefix_trie trie;
    prefix_trie_init(&trie);
    uint32_t k10 = 0x0a000000;              /* 10.0.0.0/8 */
    uint32_t k1011 = 0x0a0b0000;            /* 10.11.0.0/16 */
    prefix_trie_insert(&trie, &k10, 8);
    prefix_trie_insert(&trie, &k1011, 16);

    struct prefix_plens plens;
    uint32_t key = 0x0a0b0c0d;              /* 10.11.12.13 */
    /* Both prefixes match; nothing longer exists, so 16 bits decide. */
    CHECK(prefix_trie_lookup(&trie, &key, 32, &plens) == 16);
    CHECK(prefix_plens_has(&plens, 8) && prefix_plens_has(&plens, 16));

    key = 0x0a0c0000;                       /* 10.12.0.0 */
    /* /8 matches; /16 differs at bit 13 (0x0b vs 0x0c: first differing
     * bit is the 14th), so 14 bits decide. */
    CHECK(prefix_trie_lookup(&trie, &key, 32, &plens) == 14);
    CHECK(prefix_plens_has(&plens, 8) && !prefix_plens_has(&plens, 16));

    key = 0x8a000000;                       /* 138.0.0.0: first bit differs */
    CHECK(prefix_trie_lookup(&trie, &key, 32, &plens) == 1);
    CHECK(!prefix_plens_has(&plens, 8));

    prefix_trie_remove(&trie, &k1011, 16);
    key = 0x0a0c0000;
    /* Only /8 is left and it is a leaf: 8 bits decide. */
    CHECK(prefix_trie_lookup(&trie, &key, 32, &plens) == 8);
    prefix_trie_remove(&trie, &k10, 8);
    CHECK(prefix_trie_is_empty(&trie));
    CHECK(prefix_trie_lookup(&trie, &key, 32, &plens) == 0);
    prefix_trie_destroy(&trie);
    ovsrcu_synchronize();
}
END_TEST

/* Random rule sets against a linear search. */

struct test_rule {
    struct cls_rule cr;
    struct flow flow;
    struct flow_wildcards wc;
    int priority;
    uint64_t order;             /* Insertion order, for ties. */
    bool in_cls;
};

/* Values rules and packets draw from, few enough that they overlap. */
static const uint32_t ip_pool[] = {
    0x0a000000, 0x0a000100, 0x0a010000, 0xc0a80000, 0xc0a80101, 0xffffffff,
};
static const uint16_t port_pool[] = { 0, 80, 443, 1024, 0x8000, 0xffff };

static void
random_ipv6(struct in6_addr *a)
{
    memset(a, 0, sizeof *a);
    a->s6_addr[0] = 0x20;
    a->s6_addr[1] = 0x01;
    a->s6_addr[15] = random() % 4;
    a->s6_addr[7] = random() % 2;
}

static void
ipv6_prefix_mask(struct in6_addr *m, unsigned int len)
{
    memset(m, 0, sizeof *m);
    for (unsigned int i = 0; i < len; i++) {
        m->s6_addr[i / 8] |= 0x80 >> (i % 8);
    }
}

/* A random match over the fields of every stage, with prefix masks
 * (sometimes not prefixes) on the addresses and ports. */
static void
random_match(struct flow *flow, struct flow_wildcards *wc)
{
    memset(flow, 0, sizeof *flow);
    flow_wildcards_init_catchall(wc);
    if (random() % 4 == 0) {
        flow->in_port = 1 + random() % 3;
        WC_MASK_FIELD(wc, in_port);
    }
    if (random() % 6 == 0) {
        flow->tunnel.ip_dst = htonl(ip_pool[random() % ARRAY_SIZE(ip_pool)]);
        wc->masks.tunnel.ip_dst = htonl(prefix_mask(random() % 33));
    }
    if (random() % 5 == 0) {
        flow->metadata = random() % 4;
        wc->masks.metadata = random() % 2 ? UINT64_MAX : 1;
    }
    if (random() % 8) {
        flow->dl_type = htons(random() % 5 ? 0x0800 : 0x86dd);
        WC_MASK_FIELD(wc, dl_type);
    }
    if (random() % 6 == 0) {
        flow->vlans[0].tci = htons(VLAN_CFI | (random() % 3));
        wc->masks.vlans[0].tci = htons(random() % 2 ? 0xffff : VLAN_CFI);
    }
    for (int i = 0; i < 2; i++) {
        ovs_be32 *v = i ? &flow->nw_dst : &flow->nw_src;
        ovs_be32 *m = i ? &wc->masks.nw_dst : &wc->masks.nw_src;
        if (random() % 3) {
            *v = htonl(ip_pool[random() % ARRAY_SIZE(ip_pool)] ^ (random() % 4));
            *m = random() % 10 ? htonl(prefix_mask(random() % 33)) : rnd32();
        }
    }
    if (random() % 5 == 0) {
        random_ipv6(&flow->ipv6_dst);
        ipv6_prefix_mask(&wc->masks.ipv6_dst, random() % 129);
    }
    if (random() % 2) {
        flow->nw_proto = random() % 2 ? 6 : 17;
        WC_MASK_FIELD(wc, nw_proto);
    }
    for (int i = 0; i < 2; i++) {
        ovs_be16 *v = i ? &flow->tp_dst : &flow->tp_src;
        ovs_be16 *m = i ? &wc->masks.tp_dst : &wc->masks.tp_src;
        if (random() % 2) {
            *v = htons(port_pool[random() % ARRAY_SIZE(port_pool)]);
            unsigned int len = random() % 17;
            *m = random() % 8 ? htons(len ? 0xffff << (16 - len) : 0)
                              : (ovs_be16) random();
        }
    }
    if (random() % 10 == 0) {
        flow->igmp_group_ip4 = htonl(random() % 2);
        WC_MASK_FIELD(wc, igmp_group_ip4);
    }
    flow_apply_mask(flow, flow, wc);
}

/* A packet near the rules: one rule's values, some fields from others,
 * some bits flipped. */
static void
random_packet(struct flow *pkt, const struct test_rule *rules, size_t n)
{
    memset(pkt, 0, sizeof *pkt);
    uint64_t *p = flow_u64s(pkt);
    if (n) {
        *pkt = rules[random() % n].flow;
        for (int i = 0; i < 3; i++) {
            const uint64_t *other = flow_u64s_const(&rules[random() % n].flow);
            unsigned int w = random() % FLOW_U64S;
            p[w] = other[w];
        }
    }
    int flips = random() % 3;
    for (int i = 0; i < flips; i++) {
        unsigned int w = random() % FLOW_U64S;
        if (p[w] || random() % 8 == 0) {
            p[w] ^= UINT64_C(1) << (random() % 64);
        }
    }
}

static const struct test_rule *
linear_lookup(const struct test_rule *rules, size_t n, const struct flow *pkt)
{
    const struct test_rule *best = NULL;
    for (size_t i = 0; i < n; i++) {
        const struct test_rule *r = &rules[i];
        if (r->in_cls && flow_equal_under_mask(pkt, &r->flow, &r->wc)
            && (!best || r->priority > best->priority
                || (r->priority == best->priority && r->order < best->order))) {
            best = r;
        }
    }
    return best;
}

static const struct test_rule *
to_test_rule(const struct cls_rule *cr)
{
    return cr ? CONTAINER_OF(cr, struct test_rule, cr) : NULL;
}

/* Looks PKT up and checks the rule against the linear search and the
 * wildcards for sufficiency: packets that agree with PKT on the mask's
 * bits, whatever the other bits, get the same rule. */
static void
check_lookup(const struct classifier *cls, const struct test_rule *rules,
             size_t n, const struct flow *pkt)
{
    struct flow_wildcards wc;
    flow_wildcards_init_catchall(&wc);
    const struct test_rule *got = to_test_rule(
        classifier_lookup(cls, OVS_VERSION_MAX, pkt, &wc));
    const struct test_rule *want = linear_lookup(rules, n, pkt);
    CHECK(got == want);
    CHECK(to_test_rule(classifier_lookup(cls, OVS_VERSION_MAX, pkt, NULL))
          == want);
    if (want) {
        /* The mask covers at least the rule's own match. */
        CHECK(!flow_wildcards_has_extra(&want->wc, &wc));
    }
    for (int i = 0; i < 8; i++) {
        struct flow other;
        random_packet(&other, rules, n);
        uint64_t *o = flow_u64s(&other);
        const uint64_t *p = flow_u64s_const(pkt);
        const uint64_t *m = flow_u64s_const(&wc.masks);
        for (size_t w = 0; w < FLOW_U64S; w++) {
            o[w] = (p[w] & m[w]) | (o[w] & ~m[w]);
        }
        CHECK(linear_lookup(rules, n, &other) == want);
        CHECK(to_test_rule(classifier_lookup(cls, OVS_VERSION_MAX, &other,
                                             NULL)) == want);
    }
}

static void
set_tries(struct classifier *cls, int config)
{
    static const enum cls_prefix_field configs[][3] = {
        { CLS_PREFIX_NW_DST, CLS_PREFIX_NW_SRC },
        { 0 },
        { CLS_PREFIX_IPV6_DST, CLS_PREFIX_TUN_DST, CLS_PREFIX_NW_SRC },
    };
    static const unsigned int n[] = { 2, 0, 3 };
    CHECK(classifier_set_prefix_fields(cls, configs[config], n[config]));
}

static void
random_rules_test(unsigned int seed, size_t n_rules, int tries_config)
{
    srandom(seed);
    struct classifier cls;
    classifier_init(&cls);
    set_tries(&cls, tries_config);
    struct test_rule *rules = xcalloc(n_rules, sizeof *rules);
    uint64_t order = 0;
    for (size_t i = 0; i < n_rules; i++) {
        struct test_rule *r = &rules[i];
        random_match(&r->flow, &r->wc);
        /* Few priorities, so that ties happen. */
        r->priority = random() % 16;
        cls_rule_init(&r->cr, &r->flow, &r->wc, r->priority);
        if (classifier_find_rule_exactly(&cls, &r->cr, OVS_VERSION_MAX)) {
            continue;           /* A duplicate would be a replace. */
        }
        classifier_insert(&cls, &r->cr, OVS_VERSION_MIN);
        r->order = order++;
        r->in_cls = true;
    }
    CHECK(classifier_count(&cls) == order);

    for (size_t i = 0; i < check_iterations(400, 8); i++) {
        struct flow pkt;
        random_packet(&pkt, rules, n_rules);
        check_lookup(&cls, rules, n_rules, &pkt);
    }

    /* Remove a third, change the tries, re-add some: still right. */
    for (size_t i = 0; i < n_rules; i += 3) {
        if (rules[i].in_cls) {
            CHECK(classifier_remove(&cls, &rules[i].cr));
            rules[i].in_cls = false;
        }
    }
    set_tries(&cls, (tries_config + 1) % 3);
    for (size_t i = 0; i < n_rules; i += 6) {
        struct test_rule *r = &rules[i];
        if (!classifier_find_rule_exactly(&cls, &r->cr, OVS_VERSION_MAX)) {
            classifier_insert(&cls, &r->cr, OVS_VERSION_MIN);
            r->order = order++;
            r->in_cls = true;
        }
    }
    ovsrcu_quiesce();
    for (size_t i = 0; i < check_iterations(400, 8); i++) {
        struct flow pkt;
        random_packet(&pkt, rules, n_rules);
        check_lookup(&cls, rules, n_rules, &pkt);
    }

    for (size_t i = 0; i < n_rules; i++) {
        if (rules[i].in_cls) {
            CHECK(classifier_remove(&cls, &rules[i].cr));
        }
        CHECK(!classifier_remove(&cls, &rules[i].cr));
        cls_rule_destroy(&rules[i].cr);
    }
    CHECK(classifier_is_empty(&cls));
    CHECK(classifier_n_subtables(&cls) == 0);
    classifier_destroy(&cls);
    free(rules);
    ovsrcu_synchronize();
}

START_TEST(test_random_rules_default_tries)
{
    random_rules_test(10, 300, 0);
    random_rules_test(11, 40, 0);
}
END_TEST

START_TEST(test_random_rules_no_tries)
{
    random_rules_test(20, 300, 1);
}
END_TEST

START_TEST(test_random_rules_ipv6_and_tunnel_tries)
{
    random_rules_test(30, 300, 2);
}
END_TEST

/* More subtables than the bulk lookup's bitmaps hold (4096): lookups
 * visit them one by one, with the same answers and sufficient masks. */
START_TEST(test_very_many_subtables)
{
    srandom(50);
    struct classifier cls;
    classifier_init(&cls);
    enum { N = 33 * 33 * 4 };
    struct test_rule *rules = xcalloc(N, sizeof *rules);
    size_t n = 0;
    for (unsigned int a = 0; a <= 32; a++) {
        for (unsigned int b = 0; b <= 32; b++) {
            for (unsigned int c = 0; c < 4; c++) {
                struct test_rule *r = &rules[n++];
                memset(&r->flow, 0, sizeof r->flow);
                flow_wildcards_init_catchall(&r->wc);
                r->flow.dl_type = htons(0x0800);
                WC_MASK_FIELD(&r->wc, dl_type);
                r->flow.nw_src = htonl(ip_pool[random() % 3]);
                r->wc.masks.nw_src = htonl(prefix_mask(a));
                r->flow.nw_dst = htonl(ip_pool[random() % 3]);
                r->wc.masks.nw_dst = htonl(prefix_mask(b));
                r->flow.tp_dst = htons(port_pool[random() % 3]);
                r->wc.masks.tp_dst = htons(c ? 0xffff << (16 - 4 * c) : 0);
                flow_apply_mask(&r->flow, &r->flow, &r->wc);
                r->priority = random() % 100000;
                r->order = n;
                r->in_cls = true;
                cls_rule_init(&r->cr, &r->flow, &r->wc, r->priority);
                classifier_insert(&cls, &r->cr, OVS_VERSION_MIN);
            }
        }
    }
    CHECK(classifier_n_subtables(&cls) == N);
    for (size_t i = 0; i < check_iterations(40, 8); i++) {
        struct flow pkt;
        random_packet(&pkt, rules, N);
        check_lookup(&cls, rules, N, &pkt);
    }
    classifier_destroy(&cls);
    for (size_t i = 0; i < N; i++) {
        cls_rule_destroy(&rules[i].cr);
    }
    free(rules);
    ovsrcu_synchronize();
}
END_TEST

/* One subtable grows to thousands of rules and shrinks back, so that its
 * hash tables and stage indexes are rebuilt both ways while lookups keep
 * finding what is there and nothing that is not. */
START_TEST(test_subtable_grows_and_shrinks)
{
    srandom(60);
    struct classifier cls;
    classifier_init(&cls);
    enum { N = 3000 };
    struct test_rule *rules = xcalloc(N, sizeof *rules);
    for (size_t i = 0; i < N; i++) {
        struct test_rule *r = &rules[i];
        memset(&r->flow, 0, sizeof r->flow);
        flow_wildcards_init_catchall(&r->wc);
        r->flow.dl_type = htons(0x0800);
        WC_MASK_FIELD(&r->wc, dl_type);
        r->flow.nw_dst = htonl(0x0a000000 + i / 4);
        WC_MASK_FIELD(&r->wc, nw_dst);
        r->flow.tp_dst = htons(i % 4);
        WC_MASK_FIELD(&r->wc, tp_dst);
        r->priority = i % 7;
        r->order = i;
        r->in_cls = true;
        cls_rule_init(&r->cr, &r->flow, &r->wc, r->priority);
        classifier_insert(&cls, &r->cr, OVS_VERSION_MIN);
    }
    CHECK(classifier_n_subtables(&cls) == 1);
    size_t left = N;
    /* Remove in a shuffled order, checking along the way. */
    size_t *order = xmalloc(N * sizeof *order);
    for (size_t i = 0; i < N; i++) {
        order[i] = i;
    }
    for (size_t i = N - 1; i > 0; i--) {
        size_t j = random() % (i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t k = 0; k < N; k++) {
        struct test_rule *r = &rules[order[k]];
        CHECK(classifier_remove(&cls, &r->cr));
        r->in_cls = false;
        left--;
        if (k % 250 == 0 || left < 10) {
            for (int i = 0; i < 8; i++) {
                struct flow pkt = rules[random() % N].flow;
                check_lookup(&cls, rules, N, &pkt);
            }
        }
        ovsrcu_quiesce();
    }
    CHECK(classifier_is_empty(&cls));
    classifier_destroy(&cls);
    for (size_t i = 0; i < N; i++) {
        cls_rule_destroy(&rules[i].cr);
    }
    free(order);
    free(rules);
    ovsrcu_synchronize();
}
END_TEST

/* The same rules, tries on and off: the same answers. */
START_TEST(test_tries_do_not_change_answers)
{
    srandom(40);
    struct classifier with, without;
    classifier_init(&with);
    classifier_init(&without);
    set_tries(&without, 1);
    enum { N = 200 };
    struct test_rule *a = xcalloc(N, sizeof *a), *b = xcalloc(N, sizeof *b);
    for (size_t i = 0; i < N; i++) {
        random_match(&a[i].flow, &a[i].wc);
        a[i].priority = random() % 1000;
        cls_rule_init(&a[i].cr, &a[i].flow, &a[i].wc, a[i].priority);
        cls_rule_clone(&b[i].cr, &a[i].cr);
        if (!classifier_find_rule_exactly(&with, &a[i].cr, OVS_VERSION_MAX)) {
            classifier_insert(&with, &a[i].cr, OVS_VERSION_MIN);
            classifier_insert(&without, &b[i].cr, OVS_VERSION_MIN);
        }
    }
    for (size_t i = 0; i < check_iterations(2000, 8); i++) {
        struct flow pkt;
        random_packet(&pkt, a, N);
        struct flow_wildcards wc1, wc2;
        flow_wildcards_init_catchall(&wc1);
        flow_wildcards_init_catchall(&wc2);
        const struct cls_rule *r1 = classifier_lookup(&with, 0, &pkt, &wc1);
        const struct cls_rule *r2 = classifier_lookup(&without, 0, &pkt,
                                                      &wc2);
        CHECK(!r1 == !r2);
        if (r1) {
            CHECK(r1 - &a[0].cr == r2 - &b[0].cr);
        }
    }
    classifier_destroy(&with);
    classifier_destroy(&without);
    for (size_t i = 0; i < N; i++) {
        cls_rule_destroy(&a[i].cr);
        cls_rule_destroy(&b[i].cr);
    }
    free(a);
    free(b);
    ovsrcu_synchronize();
}
END_TEST

/* The OpenFlow-table API. */

static void
ip_match(struct flow *flow, struct flow_wildcards *wc, uint32_t dst,
         unsigned int len)
{
    memset(flow, 0, sizeof *flow);
    flow_wildcards_init_catchall(wc);
    flow->dl_type = htons(0x0800);
    WC_MASK_FIELD(wc, dl_type);
    flow->nw_dst = htonl(dst & prefix_mask(len));
    wc->masks.nw_dst = htonl(prefix_mask(len));
}

static void
ip_packet(struct flow *flow, uint32_t dst)
{
    memset(flow, 0, sizeof *flow);
    flow->dl_type = htons(0x0800);
    flow->nw_dst = htonl(dst);
}

START_TEST(test_versions_make_a_batch_visible_at_once)
{
    struct classifier cls;
    classifier_init(&cls);
    struct flow flow, pkt;
    struct flow_wildcards wc;
    struct cls_rule old, new1, new2;
    ip_match(&flow, &wc, 0x0a000000, 8);
    cls_rule_init(&old, &flow, &wc, 10);
    classifier_insert(&cls, &old, 1);
    /* Version 2: OLD goes, NEW1 (same match and priority) and NEW2 come. */
    cls_rule_make_invisible_in_version(&old, 2);
    cls_rule_init(&new1, &flow, &wc, 10);
    classifier_insert(&cls, &new1, 2);
    ip_match(&flow, &wc, 0x0a010000, 16);
    cls_rule_init(&new2, &flow, &wc, 20);
    classifier_insert(&cls, &new2, 2);

    ip_packet(&pkt, 0x0a010203);
    CHECK(!classifier_lookup(&cls, 0, &pkt, NULL));
    CHECK(classifier_lookup(&cls, 1, &pkt, NULL) == &old);
    CHECK(classifier_lookup(&cls, 2, &pkt, NULL) == &new2);
    ip_packet(&pkt, 0x0a020000);
    CHECK(classifier_lookup(&cls, 1, &pkt, NULL) == &old);
    CHECK(classifier_lookup(&cls, 2, &pkt, NULL) == &new1);
    CHECK(cls_rule_visible_in_version(&old, 1));
    CHECK(!cls_rule_visible_in_version(&old, 2));
    CHECK(classifier_find_rule_exactly(&cls, &old, 1) == &old);
    CHECK(classifier_find_rule_exactly(&cls, &old, 2) == &new1);

    /* Added and deleted in the same batch: never seen. */
    struct cls_rule brief;
    ip_match(&flow, &wc, 0x0a010200, 24);
    cls_rule_init(&brief, &flow, &wc, 30);
    classifier_insert(&cls, &brief, 3);
    cls_rule_make_invisible_in_version(&brief, 3);
    ip_packet(&pkt, 0x0a010203);
    CHECK(classifier_lookup(&cls, 3, &pkt, NULL) == &new2);
    CHECK(classifier_lookup(&cls, OVS_VERSION_MAX, &pkt, NULL) == &new2);
    CHECK(classifier_remove(&cls, &brief));

    /* A batch that failed is undone. */
    cls_rule_make_invisible_in_version(&new2, 3);
    CHECK(!cls_rule_visible_in_version(&new2, 3));
    cls_rule_restore_visibility(&new2);
    CHECK(cls_rule_visible_in_version(&new2, 3));

    CHECK(classifier_remove(&cls, &old));
    CHECK(!cls_rule_visible_in_version(&old, 1));
    CHECK(classifier_count(&cls) == 2);
    CHECK(classifier_remove(&cls, &new1));
    CHECK(classifier_remove(&cls, &new2));
    classifier_destroy(&cls);
    cls_rule_destroy(&old);
    cls_rule_destroy(&new1);
    cls_rule_destroy(&new2);
    cls_rule_destroy(&brief);
    ovsrcu_synchronize();
}
END_TEST

START_TEST(test_replace_and_ties)
{
    struct classifier cls;
    classifier_init(&cls);
    struct flow flow, pkt;
    struct flow_wildcards wc;
    struct cls_rule a, b, c;
    ip_match(&flow, &wc, 0x0a000000, 8);
    cls_rule_init(&a, &flow, &wc, 5);
    cls_rule_init(&b, &flow, &wc, 5);
    CHECK(!classifier_replace(&cls, &a, 0));
    CHECK(classifier_replace(&cls, &b, 0) == &a);
    CHECK(classifier_count(&cls) == 1);
    ip_packet(&pkt, 0x0a000001);
    CHECK(classifier_lookup(&cls, 0, &pkt, NULL) == &b);

    /* Equal priority, different masks: the rule inserted first wins,
     * whichever order the subtables are in. */
    memset(&flow, 0, sizeof flow);
    flow_wildcards_init_catchall(&wc);
    flow.dl_type = htons(0x0800);
    WC_MASK_FIELD(&wc, dl_type);
    cls_rule_init(&c, &flow, &wc, 5);
    classifier_insert(&cls, &c, 0);
    CHECK(classifier_lookup(&cls, 0, &pkt, NULL) == &b);
    CHECK(classifier_remove(&cls, &b));
    CHECK(classifier_lookup(&cls, 0, &pkt, NULL) == &c);
    classifier_insert(&cls, &b, 0);
    CHECK(classifier_lookup(&cls, 0, &pkt, NULL) == &c);

    CHECK(classifier_remove(&cls, &b));
    CHECK(classifier_remove(&cls, &c));
    classifier_destroy(&cls);
    ovsrcu_synchronize();
    cls_rule_destroy(&a);
    cls_rule_destroy(&b);
    cls_rule_destroy(&c);
}
END_TEST

/* A tie found in the first subtable visited does not end the search: a
 * later subtable whose best is as high may hold an earlier rule. */
START_TEST(test_tie_in_a_later_subtable)
{
    struct classifier cls;
    classifier_init(&cls);
    struct flow flow, pkt;
    struct flow_wildcards wc;
    struct cls_rule low8, mid16, mid8;
    ip_match(&flow, &wc, 0x0a000000, 8);
    cls_rule_init(&low8, &flow, &wc, 1);     /* Makes the /8 subtable. */
    cls_rule_init(&mid8, &flow, &wc, 5);
    ip_match(&flow, &wc, 0x0a010000, 16);
    cls_rule_init(&mid16, &flow, &wc, 5);
    classifier_insert(&cls, &low8, 0);
    classifier_insert(&cls, &mid16, 0);      /* First at priority 5... */
    classifier_insert(&cls, &mid8, 0);       /* ...the /8 one second. */
    ip_packet(&pkt, 0x0a010203);
    for (int tries = 0; tries < 2; tries++) {
        flow_wildcards_init_catchall(&wc);
        CHECK(classifier_lookup(&cls, 0, &pkt, &wc) == &mid16);
        CHECK(classifier_lookup(&cls, 0, &pkt, NULL) == &mid16);
        CHECK(classifier_set_prefix_fields(&cls, NULL, 0));
    }
    CHECK(classifier_remove(&cls, &low8));
    CHECK(classifier_remove(&cls, &mid8));
    CHECK(classifier_remove(&cls, &mid16));
    classifier_destroy(&cls);
    ovsrcu_synchronize();
    cls_rule_destroy(&low8);
    cls_rule_destroy(&mid8);
    cls_rule_destroy(&mid16);
}
END_TEST

START_TEST(test_iteration_loose_and_strict)
{
    struct classifier cls;
    classifier_init(&cls);
    enum { N = 40 };
    struct cls_rule rules[N];
    for (int i = 0; i < N; i++) {
        struct flow flow;
        struct flow_wildcards wc;
        /* 10.i.0.0/16 for even i, 10.i.j.0/24 for odd, priority i. */
        ip_match(&flow, &wc, 0x0a000000 | (i % 8) << 16 | i << 8,
                 i % 2 ? 24 : 16);
        cls_rule_init(&rules[i], &flow, &wc, i);
        classifier_insert(&cls, &rules[i], 0);
    }
    const struct cls_rule *r;
    size_t n = 0;
    CLS_FOR_EACH (r, &cls) {
        n++;
    }
    CHECK(n == N);

    /* Loose: everything within 10.3.0.0/16. */
    struct flow flow;
    struct flow_wildcards wc;
    struct cls_rule target;
    ip_match(&flow, &wc, 0x0a030000, 16);
    cls_rule_init(&target, &flow, &wc, 0);
    n = 0;
    CLS_FOR_EACH_TARGET (r, &cls, &target, CLS_ITER_LOOSE, 0) {
        CHECK(cls_rule_is_loose_match(r, &target));
        CHECK(r - rules >= 0 && (r - rules) % 8 == 3);
        n++;
    }
    CHECK(n == N / 8);

    /* Strict: exactly the match and priority. */
    cls_rule_destroy(&target);
    ip_match(&flow, &wc, 0x0a030000, 16);
    cls_rule_init(&target, &flow, &wc, 3);
    n = 0;
    CLS_FOR_EACH_TARGET (r, &cls, &target, CLS_ITER_STRICT, 0) {
        n++;
    }
    CHECK(n == 0);              /* Rule 3 is a /24. */
    cls_rule_destroy(&target);
    struct flow f4;
    struct flow_wildcards wc4;
    cls_rule_get_match(&rules[4], &f4, &wc4);
    cls_rule_init(&target, &f4, &wc4, 4);
    n = 0;
    CLS_FOR_EACH_TARGET (r, &cls, &target, CLS_ITER_STRICT, 0) {
        CHECK(r == &rules[4]);
        n++;
    }
    CHECK(n == 1);
    CHECK(classifier_find_match_exactly(&cls, &f4, &wc4, 4, 0) == &rules[4]);

    /* Strict with a catch-all target: only a catch-all rule would do. */
    struct flow_wildcards any;
    flow_wildcards_init_catchall(&any);
    cls_rule_destroy(&target);
    cls_rule_init(&target, &f4, &any, 4);
    n = 0;
    CLS_FOR_EACH_TARGET (r, &cls, &target, CLS_ITER_STRICT, 0) {
        n++;
    }
    CHECK(n == 0);
    n = 0;
    CLS_FOR_EACH_TARGET (r, &cls, &target, CLS_ITER_LOOSE, 0) {
        n++;
    }
    CHECK(n == N);
    CHECK(!classifier_find_match_exactly(&cls, &f4, &wc4, 5, 0));
    cls_rule_destroy(&target);

    /* Deleting while iterating, as OpenFlow's delete does. */
    n = 0;
    CLS_FOR_EACH (r, &cls) {
        CHECK(classifier_remove(&cls, r));
        n++;
    }
    CHECK(n == N);
    CHECK(classifier_is_empty(&cls));
    classifier_destroy(&cls);
    ovsrcu_synchronize();
    for (int i = 0; i < N; i++) {
        cls_rule_destroy(&rules[i]);
    }
}
END_TEST

START_TEST(test_overlaps)
{
    struct classifier cls;
    classifier_init(&cls);
    struct flow flow;
    struct flow_wildcards wc;
    struct cls_rule a, b, c, d;
    ip_match(&flow, &wc, 0x0a000000, 8);
    cls_rule_init(&a, &flow, &wc, 7);
    classifier_insert(&cls, &a, 0);

    ip_match(&flow, &wc, 0x0a010000, 16);    /* Inside A, same priority. */
    cls_rule_init(&b, &flow, &wc, 7);
    CHECK(classifier_rule_overlaps(&cls, &b, 0));
    ip_match(&flow, &wc, 0x0b000000, 8);     /* Disjoint from A. */
    cls_rule_init(&c, &flow, &wc, 7);
    CHECK(!classifier_rule_overlaps(&cls, &c, 0));
    ip_match(&flow, &wc, 0x0a010000, 16);    /* Inside A, other priority. */
    cls_rule_init(&d, &flow, &wc, 8);
    CHECK(!classifier_rule_overlaps(&cls, &d, 0));
    CHECK(classifier_remove(&cls, &a));
    classifier_destroy(&cls);
    ovsrcu_synchronize();
    cls_rule_destroy(&a);
    cls_rule_destroy(&b);
    cls_rule_destroy(&c);
    cls_rule_destroy(&d);
}
END_TEST

START_TEST(test_prefix_field_configuration)
{
    struct classifier cls;
    classifier_init(&cls);
    enum cls_prefix_field f;
    CHECK(cls_prefix_field_from_name("ip_dst", &f) && f == CLS_PREFIX_NW_DST);
    CHECK(cls_prefix_field_from_name("nw_src", &f) && f == CLS_PREFIX_NW_SRC);
    CHECK(cls_prefix_field_from_name("ipv6_dst", &f)
          && f == CLS_PREFIX_IPV6_DST);
    CHECK(!cls_prefix_field_from_name("tp_dst", &f));
    CHECK(!strcmp(cls_prefix_field_name(CLS_PREFIX_TUN_SRC), "tun_src"));

    const enum cls_prefix_field four[] = {
        CLS_PREFIX_NW_SRC, CLS_PREFIX_NW_DST, CLS_PREFIX_IPV6_SRC,
        CLS_PREFIX_IPV6_DST,
    };
    CHECK(!classifier_set_prefix_fields(&cls, four, 4));
    const enum cls_prefix_field dup[] = { CLS_PREFIX_NW_SRC,
                                          CLS_PREFIX_NW_SRC };
    CHECK(!classifier_set_prefix_fields(&cls, dup, 2));
    CHECK(classifier_set_prefix_fields(&cls, four, 3));
    CHECK(classifier_set_prefix_fields(&cls, NULL, 0));
    classifier_destroy(&cls);
    ovsrcu_synchronize();
}
END_TEST

/* The megaflow of docs/classifier.md's example: with the tries, a packet
 * that no rule matches gets a mask of only the address bits that ruled
 * the rules out. */
START_TEST(test_trie_keeps_megaflow_wide)
{
    struct classifier cls;
    classifier_init(&cls);
    struct flow flow, pkt;
    struct flow_wildcards wc;
    struct cls_rule a, b;
    ip_match(&flow, &wc, 0x0a010000, 16);    /* 10.1.0.0/16 */
    cls_rule_init(&a, &flow, &wc, 20);
    classifier_insert(&cls, &a, 0);
    ip_match(&flow, &wc, 0xc0a80100, 24);    /* 192.168.1.0/24 */
    cls_rule_init(&b, &flow, &wc, 10);
    classifier_insert(&cls, &b, 0);

    ip_packet(&pkt, 0x0a020304);             /* 10.2.3.4: no match */
    flow_wildcards_init_catchall(&wc);
    CHECK(!classifier_lookup(&cls, 0, &pkt, &wc));
    /* 10.1 and 10.2 differ at bit 15, so the first 15 bits decide. */
    CHECK(wc.masks.nw_dst == htonl(prefix_mask(15)));
    CHECK(wc.masks.dl_type == htons(0xffff));
    struct flow_wildcards expect;
    flow_wildcards_init_catchall(&expect);
    expect.masks.nw_dst = htonl(prefix_mask(15));
    expect.masks.dl_type = htons(0xffff);
    CHECK(flow_wildcards_equal(&wc, &expect));

    /* Without tries the lookup has to look at every bit of both
     * prefixes. */
    CHECK(classifier_set_prefix_fields(&cls, NULL, 0));
    flow_wildcards_init_catchall(&wc);
    CHECK(!classifier_lookup(&cls, 0, &pkt, &wc));
    CHECK(wc.masks.nw_dst == htonl(prefix_mask(24)));

    CHECK(classifier_remove(&cls, &a));
    CHECK(classifier_remove(&cls, &b));
    classifier_destroy(&cls);
    ovsrcu_synchronize();
    cls_rule_destroy(&a);
    cls_rule_destroy(&b);
}
END_TEST

/* A port range becomes prefix rules, and a packet that one of them matches
 * gets a megaflow as wide as that prefix, not an exact port; one that
 * misses gets only the port bits that showed it. */
START_TEST(test_port_range_megaflows)
{
    struct classifier cls;
    classifier_init(&cls);
    /* tp_dst 1024-65535: 1024/6, 2048/5, 4096/4, 8192/3, 16384/2, 32768/1. */
    static const struct { uint16_t value; unsigned int len; } prefixes[] = {
        { 1024, 6 }, { 2048, 5 }, { 4096, 4 }, { 8192, 3 }, { 16384, 2 },
        { 32768, 1 },
    };
    struct cls_rule rules[ARRAY_SIZE(prefixes)];
    for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
        struct flow flow;
        struct flow_wildcards wc;
        ip_match(&flow, &wc, 0xc0a80000, 16);
        flow.nw_proto = 6;
        WC_MASK_FIELD(&wc, nw_proto);
        flow.tp_dst = htons(prefixes[i].value);
        wc.masks.tp_dst = htons(0xffff << (16 - prefixes[i].len));
        cls_rule_init(&rules[i], &flow, &wc, 10);
        classifier_insert(&cls, &rules[i], 0);
    }
    struct flow pkt;
    ip_packet(&pkt, 0xc0a80109);
    pkt.nw_proto = 6;
    pkt.tp_src = htons(40000);

    struct flow_wildcards wc;
    pkt.tp_dst = htons(8080);                   /* In 4096/4. */
    flow_wildcards_init_catchall(&wc);
    CHECK(classifier_lookup(&cls, 0, &pkt, &wc) == &rules[2]);
    CHECK(wc.masks.tp_dst == htons(0xf000));
    CHECK(wc.masks.tp_src == 0);

    pkt.tp_dst = htons(22);                     /* Below the range. */
    flow_wildcards_init_catchall(&wc);
    CHECK(!classifier_lookup(&cls, 0, &pkt, &wc));
    /* 22 and 1024 first differ in the 6th bit. */
    CHECK(wc.masks.tp_dst == htons(0xfc00));

    for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
        CHECK(classifier_remove(&cls, &rules[i]));
    }
    classifier_destroy(&cls);
    ovsrcu_synchronize();
    for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
        cls_rule_destroy(&rules[i]);
    }
}
END_TEST

static Suite *
classifier_suite(void)
{
    Suite *s = suite_create("classifier");
    TCase *tc = tcase_create("trie");
    tcase_add_test(tc, test_trie_ipv4_against_brute_force);
    tcase_add_test(tc, test_trie_ipv6_against_brute_force);
    tcase_add_test(tc, test_trie_maskbits_examples);
    suite_add_tcase(s, tc);

    tc = tcase_create("random");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_random_rules_default_tries);
    tcase_add_test(tc, test_random_rules_no_tries);
    tcase_add_test(tc, test_random_rules_ipv6_and_tunnel_tries);
    tcase_add_test(tc, test_tries_do_not_change_answers);
    tcase_add_test(tc, test_very_many_subtables);
    tcase_add_test(tc, test_subtable_grows_and_shrinks);
    suite_add_tcase(s, tc);

    tc = tcase_create("api");
    tcase_add_test(tc, test_versions_make_a_batch_visible_at_once);
    tcase_add_test(tc, test_replace_and_ties);
    tcase_add_test(tc, test_tie_in_a_later_subtable);
    tcase_add_test(tc, test_iteration_loose_and_strict);
    tcase_add_test(tc, test_overlaps);
    tcase_add_test(tc, test_prefix_field_configuration);
    tcase_add_test(tc, test_trie_keeps_megaflow_wide);
    tcase_add_test(tc, test_port_range_megaflows);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(classifier_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
