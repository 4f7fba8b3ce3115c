/* tnl-neigh-cache: see tnl-neigh-cache.h for the model and the scheme. */
#include <config.h>
#include "tnl-neigh-cache.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "flow.h"
#include "hash.h"
#include "ip-addr.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "seq.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"

struct neigh_entry {
    OVSRCU_TYPE(struct neigh_entry *) next;
    uint32_t hash;
    struct in6_addr ip;
    struct eth_addr mac;
    char br_name[IFNAMSIZ];
    _Atomic long long int expires;      /* time_msec() it expires at. */
};

struct neigh_buckets {
    size_t mask;                        /* mask + 1 buckets. */
    OVSRCU_TYPE(struct neigh_entry *) heads[];
};

static struct ovs_mutex mutex = OVS_MUTEX_INITIALIZER;
static OVSRCU_TYPE(struct neigh_buckets *) buckets;
static size_t n_entries;                /* Under the mutex. */
static _Atomic unsigned int aging_ms = TNL_NEIGH_DEFAULT_AGING_MS;
/* The earliest time an entry may expire: the sweep's due time. */
static _Atomic long long int next_sweep = LLONG_MAX;
static struct seq *neigh_seq;
static uint64_t last_seq;               /* Main loop's, for the wait. */

static uint32_t
neigh_hash(const char *br_name, const struct in6_addr *ip)
{
    return hash_bytes(ip, sizeof *ip, hash_string(br_name, 0));
}

struct seq *
tnl_neigh_seq(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    if (ovsthread_once_start(&once)) {
        neigh_seq = seq_create();
        ovsthread_once_done(&once);
    }
    return neigh_seq;
}

static struct neigh_buckets *
buckets_alloc(size_t n)
{
    struct neigh_buckets *b = xzalloc(sizeof *b + n * sizeof b->heads[0]);
    b->mask = n - 1;
    return b;
}

static void
lower_next_sweep(long long int when)
{
    long long int cur = atomic_load(&next_sweep);
    while (when < cur
           && !atomic_compare_exchange_weak(&next_sweep, &cur, when)) {
        continue;
    }
}

static struct neigh_entry *
lookup__(const struct neigh_buckets *b, const char *br_name,
         const struct in6_addr *ip, uint32_t hash)
{
    if (!b) {
        return NULL;
    }
    for (struct neigh_entry *e = ovsrcu_get(&b->heads[hash & b->mask]); e;
         e = ovsrcu_get(&e->next)) {
        if (e->hash == hash && ipv6_addr_equals(&e->ip, ip)
            && !strcmp(e->br_name, br_name)) {
            return e;
        }
    }
    return NULL;
}

static bool
expired(const struct neigh_entry *e, long long int now)
{
    return atomic_load_explicit(&e->expires, memory_order_relaxed) <= now;
}

static void
refresh(struct neigh_entry *e, long long int now)
{
    atomic_store_explicit(&e->expires, now + atomic_load(&aging_ms),
                          memory_order_relaxed);
}

int
tnl_neigh_lookup(const char *br_name, const struct in6_addr *dst,
                 struct eth_addr *mac)
{
    ovsrcu_register();
    long long int now = time_msec();
    struct neigh_entry *e = lookup__(ovsrcu_get(&buckets), br_name, dst,
                                     neigh_hash(br_name, dst));
    if (!e || expired(e, now)) {
        return ENOENT;
    }
    refresh(e, now);
    *mac = e->mac;
    return 0;
}

static void
entry_free(struct neigh_entry *e)
{
    free(e);
}

/* Unlinks E from B and frees it after a grace period.  Mutex held. */
static void
entry_remove(struct neigh_buckets *b, struct neigh_entry *e)
{
    OVSRCU_TYPE(struct neigh_entry *) *prevp = &b->heads[e->hash & b->mask];
    for (struct neigh_entry *p = ovsrcu_get_protected(prevp); p;
         prevp = &p->next, p = ovsrcu_get_protected(prevp)) {
        if (p == e) {
            ovsrcu_set(prevp, ovsrcu_get_protected(&e->next));
            ovsrcu_postpone(entry_free, e);
            n_entries--;
            return;
        }
    }
    ovs_assert(!"entry not in its bucket");
}

static void
buckets_free(struct neigh_buckets *b)
{
    for (size_t i = 0; i <= b->mask; i++) {
        struct neigh_entry *e = ovsrcu_get_protected(&b->heads[i]);
        while (e) {
            struct neigh_entry *next = ovsrcu_get_protected(&e->next);
            free(e);
            e = next;
        }
    }
    free(b);
}

static void
link_entry(struct neigh_buckets *b, struct neigh_entry *e)
{
    OVSRCU_TYPE(struct neigh_entry *) *head = &b->heads[e->hash & b->mask];
    ovsrcu_set_hidden(&e->next, ovsrcu_get_protected(head));
    ovsrcu_set(head, e);
}

/* Returns the bucket array, grown (as copies, published) if it is due.
 * Mutex held. */
static struct neigh_buckets *
buckets_for_insert(void)
{
    struct neigh_buckets *b = ovsrcu_get_protected(&buckets);
    if (b && n_entries + 1 <= 2 * (b->mask + 1)) {
        return b;
    }
    struct neigh_buckets *nb = buckets_alloc(b ? 2 * (b->mask + 1) : 16);
    if (b) {
        for (size_t i = 0; i <= b->mask; i++) {
            for (struct neigh_entry *e = ovsrcu_get_protected(&b->heads[i]);
                 e; e = ovsrcu_get_protected(&e->next)) {
                struct neigh_entry *copy = xmemdup(e, sizeof *e);
                atomic_init(&copy->expires, atomic_load(&e->expires));
                link_entry(nb, copy);
            }
        }
    }
    ovsrcu_set(&buckets, nb);
    if (b) {
        ovsrcu_postpone(buckets_free, b);
    }
    return nb;
}

void
tnl_neigh_set(const char *br_name, const struct in6_addr *dst,
              struct eth_addr mac)
{
    ovsrcu_register();
    long long int now = time_msec();
    uint32_t hash = neigh_hash(br_name, dst);

    /* The common case, a binding seen again: refresh without the lock. */
    struct neigh_entry *e = lookup__(ovsrcu_get(&buckets), br_name, dst,
                                     hash);
    if (e && eth_addr_equals(e->mac, mac) && !expired(e, now)) {
        refresh(e, now);
        return;
    }

    ovs_mutex_lock(&mutex);
    struct neigh_buckets *b = ovsrcu_get_protected(&buckets);
    e = lookup__(b, br_name, dst, hash);
    if (e && eth_addr_equals(e->mac, mac)) {
        refresh(e, now);
        ovs_mutex_unlock(&mutex);
        return;
    }
    if (e) {
        entry_remove(b, e);
    }
    b = buckets_for_insert();
    struct neigh_entry *n = xzalloc(sizeof *n);
    n->hash = hash;
    n->ip = *dst;
    n->mac = mac;
    ovs_strzcpy(n->br_name, br_name, sizeof n->br_name);
    atomic_init(&n->expires, now + atomic_load(&aging_ms));
    link_entry(b, n);
    n_entries++;
    lower_next_sweep(atomic_load(&n->expires));
    ovs_mutex_unlock(&mutex);
    seq_change(tnl_neigh_seq());
}

/* Removes the entries SELECT picks.  Returns how many. */
static size_t
remove_where(bool (*select)(const struct neigh_entry *, const void *aux),
             const void *aux)
{
    size_t n = 0;
    ovs_mutex_lock(&mutex);
    struct neigh_buckets *b = ovsrcu_get_protected(&buckets);
    for (size_t i = 0; b && i <= b->mask; i++) {
        struct neigh_entry *e = ovsrcu_get_protected(&b->heads[i]);
        while (e) {
            struct neigh_entry *next = ovsrcu_get_protected(&e->next);
            if (select(e, aux)) {
                entry_remove(b, e);
                n++;
            }
            e = next;
        }
    }
    ovs_mutex_unlock(&mutex);
    if (n) {
        seq_change(tnl_neigh_seq());
    }
    return n;
}

static bool
select_bridge(const struct neigh_entry *e, const void *br_name)
{
    return !br_name || !strcmp(e->br_name, br_name);
}

void
tnl_neigh_flush(const char *br_name)
{
    ovsrcu_register();
    remove_where(select_bridge, br_name);
}

static bool
select_expired(const struct neigh_entry *e, const void *now_)
{
    const long long int *now = now_;
    return expired(e, *now);
}

void
tnl_neigh_cache_run(void)
{
    long long int now = time_msec();
    if (now < atomic_load(&next_sweep)) {
        return;
    }
    atomic_store(&next_sweep, LLONG_MAX);
    remove_where(select_expired, &now);

    /* The next due time: the earliest expiry left.  Lookups only push
     * expiries later, so sweeping then is never too late. */
    long long int earliest = LLONG_MAX;
    ovs_mutex_lock(&mutex);
    struct neigh_buckets *b = ovsrcu_get_protected(&buckets);
    for (size_t i = 0; b && i <= b->mask; i++) {
        for (struct neigh_entry *e = ovsrcu_get_protected(&b->heads[i]); e;
             e = ovsrcu_get_protected(&e->next)) {
            long long int x = atomic_load(&e->expires);
            earliest = MIN(earliest, x);
        }
    }
    ovs_mutex_unlock(&mutex);
    lower_next_sweep(earliest);
}

void
tnl_neigh_cache_wait(void)
{
    struct seq *seq = tnl_neigh_seq();
    uint64_t cur = seq_read(seq);
    if (cur != last_seq) {
        /* Something was learned since: its due time is in next_sweep. */
        last_seq = cur;
    }
    long long int when = atomic_load(&next_sweep);
    if (when != LLONG_MAX) {
        poll_timer_wait_until(when);
    }
    seq_wait(seq, cur);
}

unsigned int
tnl_neigh_get_aging_ms(void)
{
    return atomic_load(&aging_ms);
}

bool
tnl_neigh_set_aging_s(unsigned int secs)
{
    if (!secs || secs > TNL_NEIGH_MAX_AGING_S) {
        return false;
    }
    atomic_store(&aging_ms, secs * 1000);
    long long int new_expiry = time_msec() + secs * 1000LL;
    ovs_mutex_lock(&mutex);
    struct neigh_buckets *b = ovsrcu_get_protected(&buckets);
    for (size_t i = 0; b && i <= b->mask; i++) {
        for (struct neigh_entry *e = ovsrcu_get_protected(&b->heads[i]); e;
             e = ovsrcu_get_protected(&e->next)) {
            if (atomic_load(&e->expires) > new_expiry) {
                atomic_store(&e->expires, new_expiry);
            }
        }
    }
    if (b && n_entries) {
        lower_next_sweep(new_expiry);
    }
    ovs_mutex_unlock(&mutex);
    return true;
}

/* Snooping. */

static int
arp_snoop(const struct flow *flow, struct flow_wildcards *wc,
          const char *br_name, bool allow_update)
{
    if (flow->dl_type != htons(ETH_TYPE_ARP)) {
        return EINVAL;
    }
    /* Replies, and gratuitous requests or replies (sender address ==
     * target address). */
    if (wc) {
        wc->masks.nw_proto = UINT8_MAX;
        wc->masks.nw_src = wc->masks.nw_dst = htonl(UINT32_MAX);
    }
    if (flow->nw_proto != ARP_OP_REPLY && flow->nw_src != flow->nw_dst) {
        return EINVAL;
    }
    if (wc) {
        memset(&wc->masks.arp_sha, 0xff, sizeof wc->masks.arp_sha);
    }
    if (eth_addr_is_zero(flow->arp_sha)) {
        return EINVAL;
    }
    if (allow_update) {
        struct in6_addr ip = in6_addr_mapped_ipv4(flow->nw_src);
        tnl_neigh_set(br_name, &ip, flow->arp_sha);
    }
    return 0;
}

static int
nd_snoop(const struct flow *flow, struct flow_wildcards *wc,
         const char *br_name, bool allow_update)
{
    if (flow->dl_type != htons(ETH_TYPE_IPV6)) {
        return EINVAL;
    }
    if (wc) {
        wc->masks.nw_proto = UINT8_MAX;
    }
    if (flow->nw_proto != IPPROTO_ICMPV6) {
        return EINVAL;
    }
    if (wc) {
        wc->masks.tp_src = wc->masks.tp_dst = htons(UINT16_MAX);
    }
    if (flow->tp_src != htons(ND_NEIGHBOR_ADVERT) || flow->tp_dst) {
        return EINVAL;
    }
    /* Linux leaves the target link-layer address out of advertisements
     * that answer its own solicitations' peers; those say nothing. */
    if (wc) {
        memset(&wc->masks.arp_tha, 0xff, sizeof wc->masks.arp_tha);
    }
    if (eth_addr_is_zero(flow->arp_tha)) {
        return EINVAL;
    }
    if (wc) {
        memset(&wc->masks.ipv6_src, 0xff, sizeof wc->masks.ipv6_src);
        memset(&wc->masks.ipv6_dst, 0xff, sizeof wc->masks.ipv6_dst);
        memset(&wc->masks.nd_target, 0xff, sizeof wc->masks.nd_target);
    }
    if (allow_update) {
        tnl_neigh_set(br_name, &flow->nd_target, flow->arp_tha);
    }
    return 0;
}

int
tnl_neigh_snoop(const struct flow *flow, struct flow_wildcards *wc,
                const char *br_name, bool allow_update)
{
    if (wc) {
        wc->masks.dl_type = htons(UINT16_MAX);
    }
    int error = arp_snoop(flow, wc, br_name, allow_update);
    if (error == EINVAL) {
        error = nd_snoop(flow, wc, br_name, allow_update);
    }
    return error;
}

/* Commands. */

void
tnl_neigh_show(struct ds *ds)
{
    ds_put_cstr(ds, "IP                                            MAC"
                "                 Bridge\n");
    ds_put_char_multiple(ds, '=', 74);
    ds_put_char(ds, '\n');
    long long int now = time_msec();
    ovs_mutex_lock(&mutex);
    struct neigh_buckets *b = ovsrcu_get_protected(&buckets);
    for (size_t i = 0; b && i <= b->mask; i++) {
        for (struct neigh_entry *e = ovsrcu_get_protected(&b->heads[i]); e;
             e = ovsrcu_get_protected(&e->next)) {
            size_t start = ds->length;
            ipv6_format_mapped(&e->ip, ds);
            size_t used = ds->length - start;
            /* The address column is INET6_ADDRSTRLEN (46) wide. */
            ds_put_char_multiple(ds, ' ', used < 46 ? 46 - used : 1);
            ds_put_format(ds, ETH_ADDR_FMT"   %s", ETH_ADDR_ARGS(e->mac),
                          e->br_name);
            if (expired(e, now)) {
                ds_put_cstr(ds, " STALE");
            }
            ds_put_char(ds, '\n');
        }
    }
    ovs_mutex_unlock(&mutex);
}

static void
neigh_show_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
               const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    tnl_neigh_show(&ds);
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

static void
neigh_set_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
              const char *argv[], void *aux OVS_UNUSED)
{
    struct in6_addr ip;
    ovs_be32 ip4;
    struct eth_addr mac;

    if (ip_parse(argv[2], &ip4)) {
        ip = in6_addr_mapped_ipv4(ip4);
    } else if (!ipv6_parse(argv[2], &ip)) {
        unixctl_command_reply_error(conn, "bad IP address");
        return;
    }
    if (!eth_addr_from_string(argv[3], &mac)) {
        unixctl_command_reply_error(conn, "bad MAC address");
        return;
    }
    if (strlen(argv[1]) >= IFNAMSIZ) {
        unixctl_command_reply_error(conn, "bad bridge name");
        return;
    }
    tnl_neigh_set(argv[1], &ip, mac);
    unixctl_command_reply(conn, "OK");
}

static void
neigh_flush_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
                const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    tnl_neigh_flush(NULL);
    unixctl_command_reply(conn, "OK");
}

static void
neigh_aging_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
                void *aux OVS_UNUSED)
{
    if (argc == 1) {
        char *s = xasprintf("%u", tnl_neigh_get_aging_ms() / 1000);
        unixctl_command_reply(conn, s);
        free(s);
        return;
    }
    unsigned int secs;
    if (!str_to_uint(argv[1], 10, &secs) || !tnl_neigh_set_aging_s(secs)) {
        unixctl_command_reply_error(conn, "bad aging value");
        return;
    }
    unixctl_command_reply(conn, "OK");
}

void
tnl_neigh_cache_init(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    if (!ovsthread_once_start(&once)) {
        return;
    }
    static const char *const prefixes[] = { "tnl/neigh/", "tnl/arp/" };
    for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
        char *name;
        name = xasprintf("%sshow", prefixes[i]);
        unixctl_command_register(name, "", 0, 0, neigh_show_cmd, NULL);
        free(name);
        name = xasprintf("%sset", prefixes[i]);
        unixctl_command_register(name, "BRIDGE IP MAC", 3, 3, neigh_set_cmd,
                                 NULL);
        free(name);
        name = xasprintf("%sflush", prefixes[i]);
        unixctl_command_register(name, "", 0, 0, neigh_flush_cmd, NULL);
        free(name);
        name = xasprintf("%saging", prefixes[i]);
        unixctl_command_register(name, "[SECS]", 0, 1, neigh_aging_cmd,
                                 NULL);
        free(name);
    }
    ovsthread_once_done(&once);
}
