/* ovs-router: see ovs-router.h for the model and the threading scheme. */
#include <config.h>
#include "ovs-router.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "hash.h"
#include "ip-addr.h"
#include "netdev.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "seq.h"
#include "sset.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovs_router);

/* Priorities relative to the prefix length, as 3.1 orders them. */
#define PRIO_USER_BONUS 32
#define PRIO_LOCAL_BONUS 64

struct route {
    struct in6_addr prefix;     /* Host bits zero. */
    uint8_t plen;               /* 0 to 128. */
    uint8_t priority;
    bool local;
    bool user;
    uint32_t mark;
    char dev[IFNAMSIZ];
    struct in6_addr gw;         /* :: for none. */
    struct in6_addr src;
};

/* A (priority, prefix length) that some route has: lookups probe each. */
struct route_group {
    uint8_t priority;
    uint8_t plen;
};

/* One published, never modified, version of the table. */
struct route_table {
    size_t n_routes;
    struct route *routes;       /* Highest priority first. */
    size_t n_groups;
    struct route_group *groups; /* Highest priority first. */
    size_t mask;                /* Index has mask + 1 slots (power of 2). */
    uint32_t *index;            /* Route index + 1, 0 for an empty slot. */
};

static struct ovs_mutex mutex = OVS_MUTEX_INITIALIZER;
static OVSRCU_TYPE(struct route_table *) table;
static bool use_system_routing_table = true;
static struct seq *router_seq;

static uint32_t
route_hash(uint32_t mark, unsigned int plen, const struct in6_addr *prefix)
{
    uint32_t basis = hash_2words(mark, plen);
    return hash_bytes(prefix, sizeof *prefix, basis);
}

static int
route_cmp(const void *a_, const void *b_)
{
    const struct route *a = a_, *b = b_;
    if (a->priority != b->priority) {
        return a->priority > b->priority ? -1 : 1;
    }
    if (a->plen != b->plen) {
        return a->plen > b->plen ? -1 : 1;
    }
    int c = memcmp(&a->prefix, &b->prefix, sizeof a->prefix);
    if (c) {
        return c;
    }
    return a->mark < b->mark ? -1 : a->mark > b->mark;
}

static void
route_table_free(struct route_table *t)
{
    if (t) {
        free(t->routes);
        free(t->groups);
        free(t->index);
        free(t);
    }
}

/* Builds a table from N routes at ROUTES (taking ownership). */
static struct route_table *
route_table_build(struct route *routes, size_t n)
{
    struct route_table *t = xzalloc(sizeof *t);
    qsort(routes, n, sizeof *routes, route_cmp);
    t->routes = routes;
    t->n_routes = n;

    t->groups = xmalloc((n ? n : 1) * sizeof *t->groups);
    for (size_t i = 0; i < n; i++) {
        if (!t->n_groups
            || t->groups[t->n_groups - 1].priority != routes[i].priority
            || t->groups[t->n_groups - 1].plen != routes[i].plen) {
            t->groups[t->n_groups].priority = routes[i].priority;
            t->groups[t->n_groups].plen = routes[i].plen;
            t->n_groups++;
        }
    }

    size_t slots = 8;
    while (slots < 2 * n) {
        slots *= 2;
    }
    t->mask = slots - 1;
    t->index = xcalloc(slots, sizeof *t->index);
    for (size_t i = 0; i < n; i++) {
        const struct route *r = &routes[i];
        size_t s = route_hash(r->mark, r->plen, &r->prefix) & t->mask;
        while (t->index[s]) {
            s = (s + 1) & t->mask;
        }
        t->index[s] = i + 1;
    }
    return t;
}

/* The route of table T for exactly (MARK, PRIORITY, PLEN, PREFIX), or
 * NULL.  PREFIX has its host bits zero. */
static const struct route *
route_table_find(const struct route_table *t, uint32_t mark,
                 unsigned int priority, unsigned int plen,
                 const struct in6_addr *prefix)
{
    size_t s = route_hash(mark, plen, prefix) & t->mask;
    for (; t->index[s]; s = (s + 1) & t->mask) {
        const struct route *r = &t->routes[t->index[s] - 1];
        if (r->mark == mark && r->plen == plen && r->priority == priority
            && ipv6_addr_equals(&r->prefix, prefix)) {
            return r;
        }
    }
    return NULL;
}

/* The best route of T for DST and MARK, or NULL. */
static const struct route *
route_table_lookup(const struct route_table *t, uint32_t mark,
                   const struct in6_addr *dst)
{
    for (size_t i = 0; i < t->n_groups; i++) {
        const struct route_group *g = &t->groups[i];
        struct in6_addr m = ipv6_create_mask(g->plen);
        struct in6_addr prefix = ipv6_addr_bitand(dst, &m);
        const struct route *r = route_table_find(t, mark, g->priority,
                                                 g->plen, &prefix);
        if (r) {
            return r;
        }
    }
    return NULL;
}

static struct route_table *
get_table(void)
{
    ovsrcu_register();
    return ovsrcu_get(&table);
}

bool
ovs_router_lookup(uint32_t mark, const struct in6_addr *dst,
                  char out_dev[IFNAMSIZ], struct in6_addr *src,
                  struct in6_addr *gw)
{
    const struct route_table *t = get_table();
    if (!t) {
        return false;
    }
    if (src && !ipv6_addr_is_zero(src)) {
        const struct route *r = route_table_lookup(t, mark, src);
        if (!r || !r->local) {
            return false;
        }
    }
    const struct route *r = route_table_lookup(t, mark, dst);
    if (!r) {
        return false;
    }
    ovs_strzcpy(out_dev, r->dev, IFNAMSIZ);
    *gw = r->gw;
    if (src && ipv6_addr_is_zero(src)) {
        *src = r->src;
    }
    return true;
}

/* A batch (ovs_router_batch_begin()): changes go to WORK, published
 * once at the end, and each device's addresses are asked for once. */
static bool batching;
static struct route *work;
static size_t n_work, allocated_work;
struct dev_addrs {
    char name[IFNAMSIZ];
    int error;
    struct in6_addr *addrs, *masks;
    size_t n;
};
static struct dev_addrs *addr_cache;
static size_t n_addr_cache, allocated_addr_cache;

/* DEV's addresses, from the batch's cache when batching (owned by the
 * cache then: *OWNED false) or fresh (*OWNED true: the caller frees). */
static int
get_dev_addrs(const char *dev, struct in6_addr **addrs,
              struct in6_addr **masks, size_t *n, bool *owned)
{
    if (!batching) {
        *owned = true;
        return netdev_get_addrs_by_name(dev, addrs, masks, n);
    }
    *owned = false;
    for (size_t i = 0; i < n_addr_cache; i++) {
        struct dev_addrs *c = &addr_cache[i];
        if (!strcmp(c->name, dev)) {
            *addrs = c->addrs;
            *masks = c->masks;
            *n = c->n;
            return c->error;
        }
    }
    if (n_addr_cache >= allocated_addr_cache) {
        addr_cache = x2nrealloc(addr_cache, &allocated_addr_cache,
                                sizeof *addr_cache);
    }
    struct dev_addrs *c = &addr_cache[n_addr_cache++];
    ovs_strzcpy(c->name, dev, sizeof c->name);
    c->error = netdev_get_addrs_by_name(dev, &c->addrs, &c->masks, &c->n);
    *addrs = c->addrs;
    *masks = c->masks;
    *n = c->n;
    return c->error;
}

/* The address of DEV sharing the longest prefix with DST (of the same
 * family) into *SRC.  Returns 0 or an errno value. */
static int
dev_source_address(const char *dev, const struct in6_addr *dst,
                   struct in6_addr *src)
{
    struct in6_addr *addrs, *masks;
    size_t n;
    bool owned;
    int error = get_dev_addrs(dev, &addrs, &masks, &n, &owned);
    if (error) {
        return error;
    }
    bool dst_v4 = in6_addr_get_mapped_ipv4(dst, NULL);
    int best = -1;
    for (size_t i = 0; i < n; i++) {
        if (dst_v4 != in6_addr_get_mapped_ipv4(&addrs[i], NULL)) {
            continue;
        }
        struct in6_addr a = ipv6_addr_bitand(dst, &masks[i]);
        struct in6_addr b = ipv6_addr_bitand(&addrs[i], &masks[i]);
        int plen = ipv6_mask_plen(&masks[i]);
        if (ipv6_addr_equals(&a, &b) && plen > best) {
            *src = addrs[i];
            best = plen;
        }
    }
    if (owned) {
        free(addrs);
        free(masks);
    }
    return best < 0 ? ENOENT : 0;
}

/* Publishes a table made of the current routes minus those REMOVE
 * selects (if nonnull) plus NEW_ROUTE (if nonnull; replacing a route with
 * the same key).  Returns how many routes were removed.  Caller holds
 * the mutex. */
static bool
same_key(const struct route *a, const struct route *b)
{
    return a->mark == b->mark && a->plen == b->plen
           && a->priority == b->priority
           && ipv6_addr_equals(&a->prefix, &b->prefix);
}

/* table_update() within a batch: removals compact WORK, additions are
 * appended (ovs_router_batch_end() keeps the last of equal keys). */
static size_t
work_update(bool (*remove)(const struct route *, const void *aux),
            const void *aux, const struct route *new_route)
{
    size_t n_removed = 0;
    if (remove) {
        size_t j = 0;
        for (size_t i = 0; i < n_work; i++) {
            if (remove(&work[i], aux)) {
                n_removed++;
            } else {
                work[j++] = work[i];
            }
        }
        n_work = j;
    }
    if (new_route) {
        if (n_work >= allocated_work) {
            work = x2nrealloc(work, &allocated_work, sizeof *work);
        }
        work[n_work++] = *new_route;
    }
    return n_removed;
}

static size_t
table_update(bool (*remove)(const struct route *, const void *aux),
             const void *aux, const struct route *new_route)
{
    if (batching) {
        return work_update(remove, aux, new_route);
    }
    struct route_table *old = ovsrcu_get_protected(&table);
    size_t n_old = old ? old->n_routes : 0;
    struct route *routes = xmalloc((n_old + 1) * sizeof *routes);
    size_t n = 0, n_removed = 0;
    for (size_t i = 0; i < n_old; i++) {
        const struct route *r = &old->routes[i];
        if (new_route && same_key(r, new_route)) {
            continue;
        }
        if (remove && remove(r, aux)) {
            n_removed++;
            continue;
        }
        routes[n++] = *r;
    }
    if (new_route) {
        routes[n++] = *new_route;
    }
    if (!new_route && !n_removed) {
        free(routes);
        return 0;
    }
    ovsrcu_set(&table, route_table_build(routes, n));
    if (old) {
        ovsrcu_postpone(route_table_free, old);
    }
    seq_change(ovs_router_seq());
    return n_removed;
}

static int
router_insert(uint32_t mark, const struct in6_addr *dst, unsigned int plen,
              bool local, bool user, const char *dev,
              const struct in6_addr *gw)
{
    if (plen > 128 || !dev[0] || strlen(dev) >= IFNAMSIZ) {
        return EINVAL;
    }
    struct route r;
    memset(&r, 0, sizeof r);
    struct in6_addr m = ipv6_create_mask(plen);
    r.prefix = ipv6_addr_bitand(dst, &m);
    r.plen = plen;
    r.priority = plen + (user ? PRIO_USER_BONUS
                         : local ? PRIO_LOCAL_BONUS : 0);
    r.local = local;
    r.user = user;
    r.mark = mark;
    ovs_strzcpy(r.dev, dev, sizeof r.dev);
    if (gw) {
        r.gw = *gw;
    }
    int error = dev_source_address(dev, dst, &r.src);
    if (error && !ipv6_addr_is_zero(&r.gw)) {
        error = dev_source_address(dev, &r.gw, &r.src);
    }
    if (error) {
        struct ds s = DS_EMPTY_INITIALIZER;
        ipv6_format_mapped(dst, &s);
        VLOG_DBG("no source address for route %s via %s", ds_cstr(&s), dev);
        ds_destroy(&s);
        return error;
    }
    ovs_mutex_lock(&mutex);
    table_update(NULL, NULL, &r);
    ovs_mutex_unlock(&mutex);
    return 0;
}

int
ovs_router_insert(uint32_t mark, const struct in6_addr *dst,
                  unsigned int plen, bool local, const char *dev,
                  const struct in6_addr *gw)
{
    if (!use_system_routing_table) {
        return 0;
    }
    return router_insert(mark, dst, plen, local, false, dev, gw);
}

int
ovs_router_add_user(uint32_t mark, const struct in6_addr *dst,
                    unsigned int plen, const char *dev,
                    const struct in6_addr *gw)
{
    return router_insert(mark, dst, plen, false, true, dev, gw);
}

struct route_key {
    uint32_t mark;
    unsigned int plen;
    struct in6_addr prefix;
};

static bool
is_user_route(const struct route *r, const void *key_)
{
    const struct route_key *key = key_;
    return r->user && r->mark == key->mark && r->plen == key->plen
           && ipv6_addr_equals(&r->prefix, &key->prefix);
}

bool
ovs_router_del_user(uint32_t mark, const struct in6_addr *dst,
                    unsigned int plen)
{
    if (plen > 128) {
        return false;
    }
    struct route_key key = { .mark = mark, .plen = plen };
    struct in6_addr m = ipv6_create_mask(plen);
    key.prefix = ipv6_addr_bitand(dst, &m);
    ovs_mutex_lock(&mutex);
    size_t n = table_update(is_user_route, &key, NULL);
    ovs_mutex_unlock(&mutex);
    return n > 0;
}

static bool
is_cached_route(const struct route *r, const void *dev)
{
    return !r->user && (!dev || !strcmp(r->dev, dev));
}

void
ovs_router_flush(const char *dev)
{
    ovs_mutex_lock(&mutex);
    table_update(is_cached_route, dev, NULL);
    ovs_mutex_unlock(&mutex);
}

void
ovs_router_batch_begin(void)
{
    ovs_mutex_lock(&mutex);
    ovs_assert(!batching);
    const struct route_table *t = ovsrcu_get_protected(&table);
    n_work = 0;
    for (size_t i = 0; t && i < t->n_routes; i++) {
        work_update(NULL, NULL, &t->routes[i]);
    }
    batching = true;
    ovs_mutex_unlock(&mutex);
}

/* Orders WORK by key, the later of equal keys first (by INDEX). */
struct work_slot {
    struct route route;
    size_t index;
};

static int
work_slot_cmp(const void *a_, const void *b_)
{
    const struct work_slot *a = a_, *b = b_;
    int c = route_cmp(&a->route, &b->route);
    if (c) {
        return c;
    }
    return a->index > b->index ? -1 : a->index < b->index;
}

void
ovs_router_batch_end(void)
{
    ovs_mutex_lock(&mutex);
    ovs_assert(batching);
    batching = false;

    /* Sort by key, newest first within a key, keep the first of each. */
    struct work_slot *slots = xmalloc((n_work ? n_work : 1) * sizeof *slots);
    for (size_t i = 0; i < n_work; i++) {
        slots[i].route = work[i];
        slots[i].index = i;
    }
    qsort(slots, n_work, sizeof *slots, work_slot_cmp);
    struct route *routes = xmalloc((n_work ? n_work : 1) * sizeof *routes);
    size_t n = 0;
    for (size_t i = 0; i < n_work; i++) {
        if (!n || !same_key(&routes[n - 1], &slots[i].route)) {
            routes[n++] = slots[i].route;
        }
    }
    free(slots);

    struct route_table *old = ovsrcu_get_protected(&table);
    ovsrcu_set(&table, route_table_build(routes, n));
    if (old) {
        ovsrcu_postpone(route_table_free, old);
    }
    free(work);
    work = NULL;
    n_work = allocated_work = 0;
    for (size_t i = 0; i < n_addr_cache; i++) {
        free(addr_cache[i].addrs);
        free(addr_cache[i].masks);
    }
    free(addr_cache);
    addr_cache = NULL;
    n_addr_cache = allocated_addr_cache = 0;
    ovs_mutex_unlock(&mutex);
    seq_change(ovs_router_seq());
}

void
ovs_router_disable_system_routing_table(void)
{
    use_system_routing_table = false;
}

bool
ovs_router_use_system_routing_table(void)
{
    return use_system_routing_table;
}

struct seq *
ovs_router_seq(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    if (ovsthread_once_start(&once)) {
        router_seq = seq_create();
        ovsthread_once_done(&once);
    }
    return router_seq;
}

void
ovs_router_get_devices(struct sset *devices)
{
    const struct route_table *t = get_table();
    for (size_t i = 0; t && i < t->n_routes; i++) {
        sset_add(devices, t->routes[i].dev);
    }
}

void
ovs_router_show(struct ds *ds)
{
    ds_put_cstr(ds, "Route Table:\n");
    const struct route_table *t = get_table();
    for (size_t i = 0; t && i < t->n_routes; i++) {
        const struct route *r = &t->routes[i];
        ds_put_cstr(ds, r->user ? "User: " : "Cached: ");
        ipv6_format_mapped(&r->prefix, ds);
        bool v4 = in6_addr_get_mapped_ipv4(&r->prefix, NULL) && r->plen >= 96;
        ds_put_format(ds, "/%u", v4 ? r->plen - 96u : r->plen);
        if (r->mark) {
            ds_put_format(ds, " MARK %"PRIu32, r->mark);
        }
        ds_put_format(ds, " dev %s", r->dev);
        if (!ipv6_addr_is_zero(&r->gw)) {
            ds_put_cstr(ds, " GW ");
            ipv6_format_mapped(&r->gw, ds);
        }
        ds_put_cstr(ds, " SRC ");
        ipv6_format_mapped(&r->src, ds);
        if (r->local) {
            ds_put_cstr(ds, " local");
        }
        ds_put_char(ds, '\n');
    }
}

/* ovs-appctl commands. */

/* "pkt_mark=N" (decimal, 0x hex or 0 octal, as 3.1's %i) into *MARK. */
static bool
parse_mark(const char *s, uint32_t *mark)
{
    if (strncmp(s, "pkt_mark=", 9) || !s[9]) {
        return false;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s + 9, &end, 0);
    if (errno || *end || v > UINT32_MAX || s[9] == '-') {
        return false;
    }
    *mark = v;
    return true;
}

/* Parses S as an IPv4 or IPv6 prefix into DST and PLEN (IPv4-mapped). */
static bool
parse_prefix(const char *s, struct in6_addr *dst, unsigned int *plen,
             bool *is_v4)
{
    ovs_be32 ip;
    char *error = ip_parse_cidr(s, &ip, plen);
    if (!error) {
        *dst = in6_addr_mapped_ipv4(ip);
        *plen += 96;
        *is_v4 = true;
        return true;
    }
    free(error);
    error = ipv6_parse_cidr(s, dst, plen);
    if (!error) {
        *is_v4 = false;
        return true;
    }
    free(error);
    return false;
}

static void
route_add_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
              void *aux OVS_UNUSED)
{
    struct in6_addr dst, gw;
    unsigned int plen;
    uint32_t mark = 0;
    bool v4;

    memset(&gw, 0, sizeof gw);
    if (!parse_prefix(argv[1], &dst, &plen, &v4)) {
        unixctl_command_reply_error(conn, "Invalid parameters");
        return;
    }
    if (argc > 3 && !parse_mark(argv[3], &mark)) {
        ovs_be32 ip;
        if (v4 && ip_parse(argv[3], &ip)) {
            gw = in6_addr_mapped_ipv4(ip);
        } else if (v4 || !ipv6_parse(argv[3], &gw)) {
            unixctl_command_reply_error(conn, v4
                                        ? "Invalid pkt_mark or gateway"
                                        : "Invalid pkt_mark or IPv6 gateway");
            return;
        }
    }
    if (argc > 4 && !parse_mark(argv[4], &mark)) {
        unixctl_command_reply_error(conn, "Invalid pkt_mark");
        return;
    }
    if (ovs_router_add_user(mark, &dst, plen, argv[2], &gw)) {
        unixctl_command_reply_error(conn, "Error while inserting route.");
    } else {
        unixctl_command_reply(conn, "OK");
    }
}

static void
route_del_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
              void *aux OVS_UNUSED)
{
    struct in6_addr dst;
    unsigned int plen;
    uint32_t mark = 0;
    bool v4;

    if (!parse_prefix(argv[1], &dst, &plen, &v4)) {
        unixctl_command_reply_error(conn, "Invalid parameters");
        return;
    }
    if (argc > 2 && !parse_mark(argv[2], &mark)) {
        unixctl_command_reply_error(conn, "Invalid pkt_mark");
        return;
    }
    if (ovs_router_del_user(mark, &dst, plen)) {
        unixctl_command_reply(conn, "OK");
    } else {
        unixctl_command_reply_error(conn, "Not found");
    }
}

static void
route_show_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
               const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    ovs_router_show(&ds);
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

static void
route_lookup_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
                 void *aux OVS_UNUSED)
{
    struct in6_addr dst, src, gw;
    unsigned int plen;
    uint32_t mark = 0;
    bool v4;

    if (!parse_prefix(argv[1], &dst, &plen, &v4) || plen != 128) {
        unixctl_command_reply_error(conn, "Invalid parameters");
        return;
    }
    if (argc > 2 && !parse_mark(argv[2], &mark)) {
        unixctl_command_reply_error(conn, "Invalid pkt_mark");
        return;
    }
    char dev[IFNAMSIZ];
    memset(&src, 0, sizeof src);
    if (!ovs_router_lookup(mark, &dst, dev, &src, &gw)) {
        unixctl_command_reply_error(conn, "Not found");
        return;
    }
    struct ds ds = DS_EMPTY_INITIALIZER;
    ds_put_cstr(&ds, "src ");
    ipv6_format_mapped(&src, &ds);
    ds_put_cstr(&ds, "\ngateway ");
    ipv6_format_mapped(&gw, &ds);
    ds_put_format(&ds, "\ndev %s\n", dev);
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

void
ovs_router_init(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    if (ovsthread_once_start(&once)) {
        unixctl_command_register("ovs/route/add",
                                 "ip_addr/prefix_len out_br_name [gw] "
                                 "[pkt_mark=mark]", 2, 4, route_add_cmd,
                                 NULL);
        unixctl_command_register("ovs/route/show", "", 0, 0,
                                 route_show_cmd, NULL);
        unixctl_command_register("ovs/route/del",
                                 "ip_addr/prefix_len [pkt_mark=mark]", 1, 2,
                                 route_del_cmd, NULL);
        unixctl_command_register("ovs/route/lookup",
                                 "ip_addr [pkt_mark=mark]", 1, 2,
                                 route_lookup_cmd, NULL);
        ovsthread_once_done(&once);
    }
}
