/* conntrack: the connection table, its locking, expiry and the public
 * functions of conntrack.h.
 *
 * Table
 * -----
 * An array of chains (struct ct_table), which the sweeper thread doubles
 * when it holds more than two nodes per chain.  Each connection has two
 * nodes, one per direction (its original key and its reply key), so a
 * packet from either side finds it with one hash lookup.  Chains are
 * singly linked through atomic pointers; each node has two links, one
 * for the current array and one for the next, so growing never changes a
 * chain a reader may be walking.
 *
 * Locking scheme
 * --------------
 * - Readers (conntrack_execute's lookups, dump, stats) walk chains with
 *   acquire loads and no lock, inside a dp_epoch section.
 *   conntrack_execute() enters one itself when its caller is not in one.
 * - Writers (insert, unlink) hold the lock of the bucket group (the low
 *   bits of the hash) of BOTH of the connection's keys, taken in index
 *   order, inside a read hold of resize_lock (which growing the table
 *   takes for writing).  An insert re-checks, under those locks, that neither key
 *   belongs to a live connection (two threads seeing the same new flow:
 *   the loser uses the winner's connection).  A node is published with a
 *   release store of the chain head after it is fully written; unlinking
 *   stores the successor into the predecessor, so a reader standing on the
 *   unlinked node still walks on.  conn->linked says, under those locks,
 *   whether the connection is in the table: exactly one thread unlinks.
 * - A connection's mutable state (protocol state, mark, label, counters,
 *   current timeout) is under conn->lock; its expiration is an atomic that
 *   lookups read without a lock.
 * - Freeing goes through dp_epoch_postpone() once the connection is both
 *   unlinked and off the expiry lists, so no reader can still see it.
 * - Timeout policies are an immutable array published through an atomic
 *   pointer (replaced whole under policy_mutex, old one postponed).
 *
 * Expiry
 * ------
 * A connection expires when time_msec() passes conn->expiration, which
 * every packet pushes forward by the timeout of its new state; a lookup
 * ignores an expired connection, so expiry is exact whatever the sweeper
 * does.  The sweeper thread frees them.  Connections sit in expiry lists,
 * one per timeout length, each sorted by the expiry the connection had
 * when it was filed (exp_stamp).  The hot path leaves the lists alone
 * unless a packet shortens the timeout below the filed expiry (a TCP
 * connection closing): then it re-files the connection.  The sweeper pops
 * the heads that are due and either frees the connection (truly expired)
 * or files it again under its current expiry.
 * Its work is thus proportional to the connections that came due, not to
 * the table.  The lists and each connection's exp_state are under
 * exp_lock; the three exp_states make sure exactly one thread frees a
 * connection whichever of unlink and un-listing comes last:
 *   LISTED  on a list: the unlinker takes it off and frees it;
 *   HELD    the creator (before filing) or the sweeper has it: the
 *           unlinker marks it DEAD and the holder frees it.
 * Lock order: resize_lock, bucket locks, then exp_lock; never the
 * reverse.
 *
 * Expired connections stay counted (n_conns, zone counts) until the
 * sweeper, which runs every CT_SWEEP_MS, or a flush has removed them. */
#include <config.h>
#include "conntrack.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "conntrack-private.h"
#include "coverage.h"
#include "dp-epoch.h"
#include "dp-packet.h"
#include "hash.h"
#include "hmap.h"
#include "ovs-thread.h"
#include "packets.h"
#include "timeval.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(conntrack);
static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

COVERAGE_DEFINE(conntrack_full);
COVERAGE_DEFINE(conntrack_zone_full);
COVERAGE_DEFINE(conntrack_untrackable);
COVERAGE_DEFINE(conntrack_invalid);
COVERAGE_DEFINE(conntrack_nat_exhausted);

/* The table starts with CT_MIN_BUCKETS chains and doubles (up to
 * CT_MAX_BUCKETS) when it holds more than two nodes per chain. */
#define CT_MIN_BUCKETS (1u << 16)
#define CT_MAX_BUCKETS (1u << 24)
#define CT_N_LOCKS 256                  /* Must divide CT_MIN_BUCKETS. */
#define CT_DEFAULT_MAXCONNS 3000000
#define CT_N_ZONES 65536
#define CT_SWEEP_MS 100
/* Most connections the sweeper takes off the lists per exp_lock hold. */
#define CT_SWEEP_BATCH 1024

/* The chains.  Replaced whole when the table grows: the sweeper builds a
 * new array linking the same nodes through their other link (GEN), with
 * resize_lock held for writing (so no writer changes a chain meanwhile),
 * publishes it, and frees the old array once no reader can be on it. */
struct ct_table {
    size_t mask;                    /* Number of buckets - 1. */
    int gen;                        /* Link of struct ct_node used. */
    _Atomic(struct ct_node *) buckets[];
};

/* The timeout policies, immutable once published. */
struct ct_policy_set {
    size_t n;
    struct ct_policy_entry {
        uint32_t id;
        struct ct_policy_values v;
    } entries[];
};

/* Connections whose timeout is DURATION_MS, in exp_stamp order. */
struct ct_exp_list {
    struct hmap_node node;          /* In conntrack's exp_lists. */
    long long int duration_ms;
    struct ovs_list conns;          /* struct conn's exp_node. */
};

struct conntrack {
    _Atomic(struct ct_table *) table;
    /* Writers hold it for reading around their bucket locks; growing the
     * table holds it for writing. */
    struct ovs_rwlock resize_lock;
    struct ovs_mutex locks[CT_N_LOCKS];
    uint32_t hash_basis;

    atomic_uint n_conns;
    atomic_uint max_conns;
    atomic_uint next_id;
    atomic_bool tcp_seq_chk;

    /* Per zone: connections, own limit plus one (0: none). */
    _Atomic(uint32_t) *zone_count;
    _Atomic(uint32_t) *zone_limit;
    atomic_uint default_zone_limit;

    struct ovs_mutex policy_mutex;
    _Atomic(struct ct_policy_set *) policies;
    struct ct_policy_values defaults;

    struct ovs_mutex exp_lock;
    struct hmap exp_lists;          /* struct ct_exp_list. */

    struct ct_expectations expects; /* FTP/TFTP data connections. */

    pthread_t sweeper;
    struct ovs_mutex sweep_mutex;
    pthread_cond_t sweep_cond;
    bool stop;                      /* sweep_mutex. */
};

static void *sweeper_main(void *);

/* Helpers
 * ======= */

static inline struct conn *
node_conn(const struct ct_node *node)
{
    const struct ct_node *first = node - node->dir;
    return CONTAINER_OF(first, struct conn, node[0]);
}

static uint32_t
key_hash(const struct conntrack *ct, const struct ct_key *key)
{
    return hash_bytes(key, sizeof *key, ct->hash_basis);
}

static inline bool
conn_expired(const struct conn *conn, long long int now)
{
    return atomic_load_explicit(&conn->expiration,
                                memory_order_relaxed) <= now;
}

/* A bucket's lock depends on the low bits of the hash only, so it stays
 * the same whatever the table's size. */
static inline size_t lock_of(uint32_t hash) { return hash & (CT_N_LOCKS - 1); }

static inline struct ct_table *
table_get(const struct conntrack *ct)
{
    return atomic_load_explicit(&((struct conntrack *) ct)->table,
                                memory_order_acquire);
}

static inline _Atomic(struct ct_node *) *
bucket_head(struct ct_table *t, uint32_t hash)
{
    return &t->buckets[hash & t->mask];
}

static inline struct ct_node *
node_next(const struct ct_node *node, int gen)
{
    return atomic_load_explicit(&((struct ct_node *) node)->next[gen],
                                memory_order_acquire);
}

static struct ct_table *
table_alloc(size_t n_buckets, int gen)
{
    struct ct_table *t = xmalloc(sizeof *t
                                 + n_buckets * sizeof t->buckets[0]);
    t->mask = n_buckets - 1;
    t->gen = gen;
    for (size_t i = 0; i < n_buckets; i++) {
        atomic_init(&t->buckets[i], NULL);
    }
    return t;
}

static void
lock_pair(struct conntrack *ct, const struct conn *conn)
{
    size_t a = lock_of(conn->node[0].hash), b = lock_of(conn->node[1].hash);
    if (a > b) {
        size_t t = a; a = b; b = t;
    }
    ovs_rwlock_rdlock(&ct->resize_lock);
    ovs_mutex_lock(&ct->locks[a]);
    if (b != a) {
        ovs_mutex_lock(&ct->locks[b]);
    }
}

static void
unlock_pair(struct conntrack *ct, const struct conn *conn)
{
    size_t a = lock_of(conn->node[0].hash), b = lock_of(conn->node[1].hash);
    ovs_mutex_unlock(&ct->locks[a]);
    if (b != a) {
        ovs_mutex_unlock(&ct->locks[b]);
    }
    ovs_rwlock_unlock(&ct->resize_lock);
}

static void
conn_free(void *conn_)
{
    struct conn *conn = conn_;
    ovs_mutex_destroy(&conn->lock);
    free(conn);
}

/* Timeouts of policy TP_ID (the defaults if there is none such). */
static const struct ct_policy_values *
policy_values(const struct conntrack *ct, uint32_t tp_id)
{
    if (tp_id) {
        const struct ct_policy_set *set
            = atomic_load_explicit(&((struct conntrack *) ct)->policies,
                                   memory_order_acquire);
        for (size_t i = 0; set && i < set->n; i++) {
            if (set->entries[i].id == tp_id) {
                return &set->entries[i].v;
            }
        }
    }
    return &ct->defaults;
}

static long long int
timeout_ms(const struct conntrack *ct, uint32_t tp_id, enum ct_timeout tm)
{
    return policy_values(ct, tp_id)->seconds[tm] * 1000LL;
}

/* Creation and destruction
 * ======================== */

struct conntrack *
conntrack_create(void)
{
    struct conntrack *ct = xzalloc(sizeof *ct);

    atomic_init(&ct->table, table_alloc(CT_MIN_BUCKETS, 0));
    ovs_rwlock_init(&ct->resize_lock);
    for (size_t i = 0; i < CT_N_LOCKS; i++) {
        ovs_mutex_init(&ct->locks[i]);
    }
    ct->hash_basis = (uint32_t) random() ^ (uint32_t) time_usec_real();
    atomic_init(&ct->n_conns, 0);
    atomic_init(&ct->max_conns, CT_DEFAULT_MAXCONNS);
    atomic_init(&ct->next_id, 1);
    atomic_init(&ct->tcp_seq_chk, true);
    ct->zone_count = xcalloc(CT_N_ZONES, sizeof *ct->zone_count);
    ct->zone_limit = xcalloc(CT_N_ZONES, sizeof *ct->zone_limit);
    atomic_init(&ct->default_zone_limit, 0);
    ovs_mutex_init(&ct->policy_mutex);
    atomic_init(&ct->policies, NULL);
    ct_policy_defaults(&ct->defaults);
    ovs_mutex_init(&ct->exp_lock);
    hmap_init(&ct->exp_lists);
    ct_expect_init(&ct->expects, ct->hash_basis);
    ovs_mutex_init(&ct->sweep_mutex);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&ct->sweep_cond, &attr);
    pthread_condattr_destroy(&attr);
    ct->stop = false;
    ct->sweeper = ovs_thread_create("ct_clean", sweeper_main, ct);
    return ct;
}

void
conntrack_destroy(struct conntrack *ct)
{
    if (!ct) {
        return;
    }
    ovs_mutex_lock(&ct->sweep_mutex);
    ct->stop = true;
    pthread_cond_signal(&ct->sweep_cond);
    ovs_mutex_unlock(&ct->sweep_mutex);
    xpthread_join(ct->sweeper, NULL);

    /* Every connection still linked is in the table once by its original
     * node; unlinked ones were already handed to dp_epoch_postpone().
     * A connection's reply node may come later in the walk, so collect
     * first and free after. */
    size_t n = 0, allocated = 0;
    struct conn **conns = NULL;
    struct ct_table *t = table_get(ct);
    for (size_t i = 0; i <= t->mask; i++) {
        struct ct_node *node = atomic_load(&t->buckets[i]);
        for (; node; node = node_next(node, t->gen)) {
            if (node->dir == 0) {
                if (n >= allocated) {
                    conns = x2nrealloc(conns, &allocated, sizeof *conns);
                }
                conns[n++] = node_conn(node);
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        conn_free(conns[i]);
    }
    free(conns);
    struct ct_exp_list *list;
    HMAP_FOR_EACH_POP (list, node, &ct->exp_lists) {
        free(list);
    }
    hmap_destroy(&ct->exp_lists);
    ct_expect_destroy(&ct->expects);
    free(t);
    for (size_t i = 0; i < CT_N_LOCKS; i++) {
        ovs_mutex_destroy(&ct->locks[i]);
    }
    ovs_rwlock_destroy(&ct->resize_lock);
    free(ct->zone_count);
    free(ct->zone_limit);
    free(atomic_load(&ct->policies));
    ovs_mutex_destroy(&ct->policy_mutex);
    ovs_mutex_destroy(&ct->exp_lock);
    ovs_mutex_destroy(&ct->sweep_mutex);
    pthread_cond_destroy(&ct->sweep_cond);
    free(ct);
}

/* Lookup, insertion, removal
 * ========================== */

/* The live connection with KEY (hash HASH), or NULL; *REPLY says whether
 * KEY is its reply key.  Lock-free: inside an epoch section, or with the
 * key's bucket lock held. */
static struct conn *
lookup(struct conntrack *ct, const struct ct_key *key, uint32_t hash,
       long long int now, bool *reply)
{
    struct ct_table *t = table_get(ct);
    struct ct_node *node = atomic_load_explicit(bucket_head(t, hash),
                                                memory_order_acquire);
    for (; node; node = node_next(node, t->gen)) {
        if (node->hash == hash && !memcmp(&node->key, key, sizeof *key)) {
            struct conn *conn = node_conn(node);
            if (!conn_expired(conn, now)) {
                if (reply) {
                    *reply = node->dir == 1;
                }
                return conn;
            }
        }
    }
    return NULL;
}

/* Unlinks NODE from its chain; its bucket lock must be held. */
static void
chain_remove(struct conntrack *ct, struct ct_node *node)
{
    struct ct_table *t = table_get(ct);
    int gen = t->gen;
    _Atomic(struct ct_node *) *pos = bucket_head(t, node->hash);
    struct ct_node *cur;
    while ((cur = atomic_load_explicit(pos, memory_order_relaxed)) != node) {
        ovs_assert(cur);
        pos = &cur->next[gen];
    }
    atomic_store_explicit(pos, atomic_load_explicit(&node->next[gen],
                                                    memory_order_relaxed),
                          memory_order_release);
}

/* Unlinks CONN; both its bucket locks must be held.  Returns false if
 * somebody else already did. */
static bool
unlink_locked(struct conntrack *ct, struct conn *conn)
{
    if (!atomic_load_explicit(&conn->linked, memory_order_relaxed)) {
        return false;
    }
    chain_remove(ct, &conn->node[0]);
    chain_remove(ct, &conn->node[1]);
    atomic_store_explicit(&conn->linked, false, memory_order_relaxed);
    atomic_fetch_sub_explicit(&ct->n_conns, 1, memory_order_relaxed);
    atomic_fetch_sub_explicit(&ct->zone_count[conn->node[0].key.zone], 1,
                              memory_order_relaxed);
    return true;
}

static struct ct_exp_list *
exp_list_get(struct conntrack *ct, long long int duration_ms)
{
    struct ct_exp_list *list;
    uint32_t hash = hash_uint64((uint64_t) duration_ms);
    HMAP_FOR_EACH_WITH_HASH (list, node, hash, &ct->exp_lists) {
        if (list->duration_ms == duration_ms) {
            return list;
        }
    }
    list = xzalloc(sizeof *list);
    list->duration_ms = duration_ms;
    ovs_list_init(&list->conns);
    hmap_insert(&ct->exp_lists, &list->node, hash);
    return list;
}

/* CONN's current timeout length and expiry. */
static void
conn_due(const struct conntrack *ct, struct conn *conn,
         long long int *duration, long long int *expiration)
{
    ovs_mutex_lock(&conn->lock);
    *duration = timeout_ms(ct, conn->tp_id, conn->tm);
    *expiration = atomic_load_explicit(&conn->expiration,
                                       memory_order_relaxed);
    ovs_mutex_unlock(&conn->lock);
}

/* Puts CONN, off the lists, in the list for DURATION at EXPIRATION. */
static void
exp_list_add(struct conntrack *ct, struct conn *conn, long long int duration,
             long long int expiration)
{
    struct ct_exp_list *list = exp_list_get(ct, duration);
    atomic_store_explicit(&conn->exp_stamp, expiration,
                          memory_order_relaxed);
    /* Almost always the newest: find its place from the tail. */
    struct ovs_list *pos = list->conns.prev;
    while (pos != &list->conns) {
        struct conn *c = CONTAINER_OF(pos, struct conn, exp_node);
        if (atomic_load_explicit(&c->exp_stamp, memory_order_relaxed)
            <= expiration) {
            break;
        }
        pos = pos->prev;
    }
    ovs_list_insert(pos->next, &conn->exp_node);
    conn->exp_state = CT_EXP_LISTED;
}

/* Puts held CONN on the expiry list of its current timeout, or frees it
 * if it was unlinked meanwhile. */
static void
conn_file(struct conntrack *ct, struct conn *conn)
{
    long long int duration, expiration;
    conn_due(ct, conn, &duration, &expiration);

    ovs_mutex_lock(&ct->exp_lock);
    if (conn->exp_state == CT_EXP_DEAD) {
        ovs_mutex_unlock(&ct->exp_lock);
        dp_epoch_postpone(conn_free, conn);
        return;
    }
    exp_list_add(ct, conn, duration, expiration);
    ovs_mutex_unlock(&ct->exp_lock);
}

/* CONN's timeout got shorter than when it was filed (a TCP connection
 * closing, say): file it again, so that it is freed when it expires and
 * not when its old timeout would have run out. */
static void
conn_refile(struct conntrack *ct, struct conn *conn)
{
    long long int duration, expiration;
    conn_due(ct, conn, &duration, &expiration);

    ovs_mutex_lock(&ct->exp_lock);
    if (conn->exp_state == CT_EXP_LISTED) {
        /* Held or dead: whoever has it files or frees it. */
        ovs_list_remove(&conn->exp_node);
        exp_list_add(ct, conn, duration, expiration);
    }
    ovs_mutex_unlock(&ct->exp_lock);
}

/* Called by the one thread that unlinked CONN. */
static void
conn_release(struct conntrack *ct, struct conn *conn)
{
    ovs_mutex_lock(&ct->exp_lock);
    if (conn->exp_state == CT_EXP_LISTED) {
        ovs_list_remove(&conn->exp_node);
        /* A reader still holding it must not file it again. */
        conn->exp_state = CT_EXP_DEAD;
        ovs_mutex_unlock(&ct->exp_lock);
        dp_epoch_postpone(conn_free, conn);
    } else {
        conn->exp_state = CT_EXP_DEAD;
        ovs_mutex_unlock(&ct->exp_lock);
    }
}

/* Deletes CONN from the table (if nobody did yet). */
static void
conn_delete(struct conntrack *ct, struct conn *conn)
{
    lock_pair(ct, conn);
    bool mine = unlink_locked(ct, conn);
    unlock_pair(ct, conn);
    if (mine) {
        if (conn->alg != CT_ALG_NONE) {
            ct_expect_forget_parent(&ct->expects, conn->id);
        }
        conn_release(ct, conn);
    }
}

static bool
zone_has_room(struct conntrack *ct, uint16_t zone)
{
    uint32_t own = atomic_load_explicit(&ct->zone_limit[zone],
                                        memory_order_relaxed);
    uint32_t limit = own ? own - 1
                     : atomic_load_explicit(&ct->default_zone_limit,
                                            memory_order_relaxed);
    return (!limit
            || atomic_load_explicit(&ct->zone_count[zone],
                                    memory_order_relaxed) < limit);
}

/* Inserts CONN (fully built, both keys and hashes set).  Returns NULL on
 * success, or the live connection that already has one of CONN's keys
 * (then CONN is not inserted, and *CONFLICT says which: 0 original, 1
 * reply). */
static struct conn *
insert(struct conntrack *ct, struct conn *conn, long long int now,
       bool *existing_reply, int *conflict)
{
    lock_pair(ct, conn);
    for (int i = 0; i < 2; i++) {
        struct conn *other = lookup(ct, &conn->node[i].key,
                                    conn->node[i].hash, now, existing_reply);
        if (other) {
            *conflict = i;
            if (i == 1) {
                /* Our reply key is its key: we travel its way back. */
                *existing_reply = !*existing_reply;
            }
            unlock_pair(ct, conn);
            return other;
        }
    }
    atomic_store_explicit(&conn->linked, true, memory_order_relaxed);
    struct ct_table *t = table_get(ct);     /* Stable: we hold locks. */
    for (int i = 0; i < 2; i++) {
        struct ct_node *node = &conn->node[i];
        _Atomic(struct ct_node *) *head = bucket_head(t, node->hash);
        atomic_init(&node->next[t->gen],
                    atomic_load_explicit(head, memory_order_relaxed));
        atomic_store_explicit(head, node, memory_order_release);
    }
    atomic_fetch_add_explicit(&ct->n_conns, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&ct->zone_count[conn->node[0].key.zone], 1,
                              memory_order_relaxed);
    unlock_pair(ct, conn);
    return NULL;
}

/* Packet processing
 * ================= */

static void
label_to_md(ovs_u128 label, uint8_t out[16])
{
    ovs_be64 hi = htobe64(label.hi), lo = htobe64(label.lo);
    memcpy(out, &hi, 8);
    memcpy(out + 8, &lo, 8);
}

static ovs_u128
u128_apply(ovs_u128 old, ovs_u128 value, ovs_u128 mask)
{
    ovs_u128 r;
    r.hi = (old.hi & ~mask.hi) | (value.hi & mask.hi);
    r.lo = (old.lo & ~mask.lo) | (value.lo & mask.lo);
    return r;
}

/* Writes the zone, mark, label and original tuple into PKT's metadata:
 * CONN's if there is one, else those of EXP's parent if the packet was
 * expected, else KEY's (NULL: none). */
static void
write_md(struct dp_packet *pkt, uint16_t zone, struct conn *conn,
         const struct ct_key *key, const struct ct_expect *exp)
{
    struct pkt_metadata *md = &pkt->md;

    md->ct_state |= CS_TRACKED;
    md->ct_zone = zone;
    if (conn) {
        ovs_mutex_lock(&conn->lock);
        md->ct_mark = conn->mark;
        label_to_md(conn->label, md->ct_label);
        ovs_mutex_unlock(&conn->lock);
        key = conn->has_master ? &conn->master : &conn->node[0].key;
    } else if (exp) {
        /* An expected connection not committed: its parent speaks. */
        md->ct_mark = exp->parent_mark;
        label_to_md(exp->parent_label, md->ct_label);
        key = &exp->parent;
    } else {
        md->ct_mark = 0;
        memset(md->ct_label, 0, sizeof md->ct_label);
    }

    md->ct_orig_ipv6 = false;
    md->ct_nw_src = md->ct_nw_dst = 0;
    memset(&md->ct_ipv6_src, 0, sizeof md->ct_ipv6_src);
    memset(&md->ct_ipv6_dst, 0, sizeof md->ct_ipv6_dst);
    md->ct_tp_src = md->ct_tp_dst = 0;
    md->ct_nw_proto = 0;
    if (!key) {
        return;
    }
    md->ct_nw_proto = key->nw_proto;
    if (key->is_ipv6) {
        md->ct_orig_ipv6 = true;
        md->ct_ipv6_src = key->src.ipv6;
        md->ct_ipv6_dst = key->dst.ipv6;
    } else {
        md->ct_nw_src = key->src.ipv4;
        md->ct_nw_dst = key->dst.ipv4;
    }
    if (ct_proto_class(key->nw_proto, key->is_ipv6) == CT_PROTO_ICMP) {
        md->ct_tp_src = htons(key->icmp_type);
        md->ct_tp_dst = htons(key->icmp_code);
    } else {
        md->ct_tp_src = key->src_port;
        md->ct_tp_dst = key->dst_port;
    }
}

static void
conn_touch(struct conntrack *ct, struct conn *conn, long long int now)
    /* Caller holds conn->lock. */
{
    atomic_store_explicit(&conn->expiration,
                          now + timeout_ms(ct, conn->tp_id, conn->tm),
                          memory_order_relaxed);
}

/* A new connection for the packet INFO describes, committed; NULL if a
 * limit says no (then *OVER_LIMIT is set) or NAT found no free
 * translation.  If another thread committed the same one first, returns
 * that one with *RACED and *REPLY set. */
static struct conn *
conn_create(struct conntrack *ct, struct dp_packet *pkt,
            const struct ct_pkt_info *info, const struct ct_action *action,
            const struct ct_expect *exp, long long int now, bool *raced,
            bool *reply, bool *over_limit)
{
    uint16_t zone = info->key.zone;
    *raced = false;
    *over_limit = false;
    if (!zone_has_room(ct, zone)) {
        COVERAGE_INC(conntrack_zone_full);
        *over_limit = true;
        return NULL;
    }
    if (atomic_load_explicit(&ct->n_conns, memory_order_relaxed)
        >= atomic_load_explicit(&ct->max_conns, memory_order_relaxed)) {
        COVERAGE_INC(conntrack_full);
        *over_limit = true;
        return NULL;
    }

    struct conn *conn = xzalloc(sizeof *conn);
    conn->node[0].key = info->key;
    conn->node[0].dir = 0;
    conn->node[0].hash = key_hash(ct, &info->key);
    conn->node[1].dir = 1;
    conn->id = atomic_fetch_add_explicit(&ct->next_id, 1,
                                         memory_order_relaxed);
    conn->created = now;
    conn->proto = ct_proto_class(info->key.nw_proto, info->key.is_ipv6);
    conn->tp_id = action->timeout_policy;
    conn->alg = action->alg;
    ovs_mutex_init(&conn->lock);
    ct_proto_init(conn, info, pkt);
    conn->counters[0].packets = 1;
    conn->counters[0].bytes = dp_packet_size(pkt);
    atomic_init(&conn->linked, false);
    atomic_init(&conn->expiration,
                now + timeout_ms(ct, conn->tp_id, conn->tm));
    conn->exp_state = CT_EXP_HELD;
    atomic_init(&conn->exp_stamp, 0);

    const struct ct_nat_action *nat = action->nat;
    bool do_nat = nat && (nat->flags & (CT_NAT_SRC | CT_NAT_DST));
    bool exp_nat = false;
    if (exp) {
        /* A data connection: related to its parent, marked like it, and
         * translated to match it. */
        conn->has_master = true;
        conn->master = exp->parent;
        conn->mark = exp->parent_mark;
        conn->label = exp->parent_label;
        exp_nat = exp->has_nat && nat;
        do_nat = false;
        if (exp_nat) {
            conn->nat.flags = exp->nat_reply_dst ? CT_NAT_SRC : CT_NAT_DST;
        }
    }
    if (do_nat) {
        conn->nat.flags = nat->flags & (CT_NAT_SRC | CT_NAT_DST);
    }
    for (uint32_t attempt = 0; ; attempt++) {
        if (exp_nat) {
            if (attempt) {
                conn_free(conn);
                return NULL;
            }
            ct_key_reverse(&info->key, &conn->node[1].key);
            if (exp->nat_reply_dst) {
                conn->node[1].key.dst = exp->nat_addr;
            } else {
                conn->node[1].key.src = exp->nat_addr;
            }
        } else if (!do_nat) {
            ct_key_reverse(&info->key, &conn->node[1].key);
        } else if (!ct_nat_candidate(&info->key, nat, conn->node[0].hash,
                                     attempt, &conn->node[1].key)) {
            /* Every translation is taken: not committed. */
            COVERAGE_INC(conntrack_nat_exhausted);
            /* 3.1's words: scripts that watch the log know them. */
            VLOG_WARN_RL(&rl, "Unable to NAT due to tuple space exhaustion "
                         "- if DoS attack, use firewalling and/or zone "
                         "partitioning.");
            conn_free(conn);
            return NULL;
        }
        conn->node[1].hash = key_hash(ct, &conn->node[1].key);
        if (do_nat && lookup(ct, &conn->node[1].key, conn->node[1].hash,
                             now, NULL)) {
            continue;           /* Taken; no need to lock to know. */
        }

        int conflict;
        struct conn *other = insert(ct, conn, now, reply, &conflict);
        if (!other) {
            break;
        }
        if (conflict == 1 && (do_nat || exp_nat)) {
            continue;           /* Translation in use: the next one. */
        }
        conn_free(conn);
        *raced = true;
        return other;
    }
    conn_file(ct, conn);
    return conn;
}

/* Moves CONN's state with the packet: sets its ct_state bits and says
 * whether the connection must be replaced by a new one.  NAT_NOW: the
 * packet is being translated by this ct() (FTP sequence skew applies). */
static void
conn_update(struct conntrack *ct, struct conn *conn, struct dp_packet *pkt,
            const struct ct_pkt_info *info, bool reply, bool nat_now,
            long long int now, bool *restart)
{
    struct pkt_metadata *md = &pkt->md;
    bool seq_chk = atomic_load_explicit(&ct->tcp_seq_chk,
                                        memory_order_relaxed);

    *restart = false;
    if (info->icmp_error) {
        /* An error about the connection: related, no state change. */
        md->ct_state |= CS_RELATED | (reply ? CS_REPLY_DIR : 0);
        return;
    }
    if (conn->has_master) {
        md->ct_state |= CS_RELATED;
    }

    ovs_mutex_lock(&conn->lock);
    if (conn->alg == CT_ALG_FTP && nat_now) {
        ct_alg_pre(conn, pkt, info, reply);
    }
    enum ct_update res = ct_proto_update(conn, info, pkt, reply, seq_chk);
    bool shorter = false;
    if (res != CT_UPDATE_INVALID && res != CT_UPDATE_RESTART) {
        conn->counters[reply].packets++;
        conn->counters[reply].bytes += dp_packet_size(pkt);
        conn_touch(ct, conn, now);
        shorter = (atomic_load_explicit(&conn->expiration,
                                        memory_order_relaxed)
                   < atomic_load_explicit(&conn->exp_stamp,
                                          memory_order_relaxed));
    }
    ovs_mutex_unlock(&conn->lock);
    if (shorter) {
        conn_refile(ct, conn);
    }

    switch (res) {
    case CT_UPDATE_VALID:
        md->ct_state = (md->ct_state & ~CS_NEW) | CS_ESTABLISHED
                       | (reply ? CS_REPLY_DIR : 0);
        break;
    case CT_UPDATE_VALID_NEW:
        md->ct_state |= CS_NEW;
        break;
    case CT_UPDATE_INVALID:
        COVERAGE_INC(conntrack_invalid);
        md->ct_state = CS_INVALID;
        break;
    case CT_UPDATE_RESTART:
        *restart = true;
        break;
    }
}

static void
process_packet(struct conntrack *ct, struct dp_packet *pkt, uint16_t dl_type,
               const struct ct_action *action, long long int now)
{
    struct pkt_metadata *md = &pkt->md;
    uint16_t zone = action->zone;
    struct ct_pkt_info info;

    /* Bits from a ct() in another zone say nothing about this one. */
    if (md->ct_state && md->ct_zone != zone) {
        md->ct_state = 0;
    }
    if (!ct_extract_key(pkt, dl_type, zone, &info)) {
        COVERAGE_INC(conntrack_untrackable);
        md->ct_state = CS_INVALID;
        write_md(pkt, zone, NULL, NULL, NULL);
        return;
    }

    /* A packet that an earlier ct() in this zone already translated no
     * longer carries either of its connection's keys; the mirror of its
     * headers is one of them. */
    bool natted = md->ct_state & (CS_SRC_NAT | CS_DST_NAT);
    bool reply = false;
    struct conn *conn = NULL;
    if (natted && !info.icmp_error) {
        struct ct_key rev;
        ct_key_reverse(&info.key, &rev);
        conn = lookup(ct, &rev, key_hash(ct, &rev), now, &reply);
        if (conn) {
            reply = !reply;
            info.key = conn->node[reply].key;
        }
    }
    if (!conn) {
        conn = lookup(ct, &info.key, key_hash(ct, &info.key), now, &reply);
    }
    bool create = false, created = false;
    bool has_exp = false;
    struct ct_expect exp;

    if (conn && action->force && reply) {
        /* force: this side is the original direction from now on. */
        conn_delete(ct, conn);
        conn = NULL;
    }

    for (int attempt = 0; ; attempt++) {
        if (conn) {
            bool restart;
            conn_update(ct, conn, pkt, &info, reply,
                        action->nat != NULL && !natted, now, &restart);
            if (restart) {
                conn_delete(ct, conn);
                conn = NULL;
                create = true;
            }
        } else if (info.icmp_error) {
            /* An error about nothing we know. */
            md->ct_state = CS_INVALID;
        } else {
            create = true;
        }
        if (!create) {
            break;
        }

        create = false;
        if (!ct_proto_valid_new(&info, pkt)) {
            md->ct_state = CS_INVALID;
            break;
        }
        bool commit = action->commit || action->force;
        has_exp = ct_expect_find(&ct->expects, &info.key, commit, &exp);
        md->ct_state = CS_NEW | (has_exp ? CS_RELATED : 0);
        if (!commit) {
            break;
        }
        bool raced, over_limit;
        conn = conn_create(ct, pkt, &info, action, has_exp ? &exp : NULL,
                           now, &raced, &reply, &over_limit);
        created = conn && !raced;
        if (over_limit) {
            /* Unlike 3.1 (which lets the packet go on as new, tracked by
             * nobody), the packet is invalid: the rules firewalls have
             * for invalid packets drop it, as a kernel datapath drops it
             * when its table is full.  Counted (conntrack_full,
             * conntrack_zone_full). */
            md->ct_state = CS_INVALID;
        }
        if (!raced || attempt > 0) {
            break;
        }
        /* Another thread committed it first: go through it instead. */
        md->ct_state = 0;
    }

    write_md(pkt, zone, conn, &info.key, has_exp ? &exp : NULL);

    /* Helpers look at what the packet says before NAT rewrites it (and
     * rewrite FTP commands for it). */
    if (conn && conn->alg != CT_ALG_NONE && !(md->ct_state & CS_INVALID)) {
        ovs_mutex_lock(&conn->lock);
        ct_alg_post(&ct->expects, conn, pkt, &info, reply,
                    action->nat != NULL && (created || !natted));
        ovs_mutex_unlock(&conn->lock);
    }

    /* NAT: a connection committed with a translation has all its packets
     * translated by any ct() with nat, once per zone. */
    if (conn && action->nat && conn->nat.flags && (created || !natted)) {
        md->ct_state |= ct_nat_packet(pkt, &info, conn, reply);
    }

    if (conn && (action->commit || action->force)
        && (action->set_mark || action->set_label)) {
        ovs_mutex_lock(&conn->lock);
        if (action->set_mark) {
            conn->mark = ((conn->mark & ~action->mark_mask)
                          | (action->mark_value & action->mark_mask));
            md->ct_mark = conn->mark;
        }
        if (action->set_label) {
            conn->label = u128_apply(conn->label, action->label_value,
                                     action->label_mask);
            label_to_md(conn->label, md->ct_label);
        }
        ovs_mutex_unlock(&conn->lock);
    }
}

void
conntrack_execute(struct conntrack *ct, struct dp_packet_batch *batch,
                  uint16_t dl_type, const struct ct_action *action,
                  long long int now)
{
    bool enter = !dp_epoch_in_section();
    if (enter) {
        dp_epoch_enter();
    }
    struct dp_packet *pkt;
    DP_PACKET_BATCH_FOR_EACH (i, pkt, batch) {
        process_packet(ct, pkt, dl_type, action, now);
    }
    if (enter) {
        dp_epoch_exit();
    }
}

void
conntrack_clear_packet(struct dp_packet *pkt)
{
    struct pkt_metadata *md = &pkt->md;
    md->ct_state = 0;
    md->ct_zone = 0;
    md->ct_mark = 0;
    memset(md->ct_label, 0, sizeof md->ct_label);
    md->ct_nw_proto = 0;
    md->ct_orig_ipv6 = false;
    md->ct_nw_src = md->ct_nw_dst = 0;
    memset(&md->ct_ipv6_src, 0, sizeof md->ct_ipv6_src);
    memset(&md->ct_ipv6_dst, 0, sizeof md->ct_ipv6_dst);
    md->ct_tp_src = md->ct_tp_dst = 0;
}

/* Dump, flush, statistics
 * ======================= */

const char *
ct_tcp_state_name(enum ct_tcp_state state)
{
    static const char *const names[CT_TCP_N_STATES] = {
        "CLOSED", "LISTEN", "SYN_SENT", "SYN_RECV", "ESTABLISHED",
        "CLOSE_WAIT", "FIN_WAIT_1", "CLOSING", "LAST_ACK", "FIN_WAIT_2",
        "TIME_WAIT",
    };
    return (unsigned) state < CT_TCP_N_STATES ? names[state] : "UNKNOWN";
}

static void
conn_to_entry(const struct conn *conn_, long long int now,
              struct ct_entry *e)
{
    struct conn *conn = (struct conn *) conn_;
    memset(e, 0, sizeof *e);
    ct_key_to_tuple(&conn->node[0].key, &e->orig);
    ct_key_to_tuple(&conn->node[1].key, &e->reply);
    if (conn->has_master) {
        e->has_master = true;
        ct_key_to_tuple(&conn->master, &e->master);
    }
    e->zone = conn->node[0].key.zone;
    e->id = conn->id;
    e->created_ms = conn->created;
    long long int left = atomic_load_explicit(&conn->expiration,
                                              memory_order_relaxed) - now;
    e->timeout_s = left > 0 ? left / 1000 : 0;
    e->helper = (conn->alg == CT_ALG_FTP ? "ftp"
                 : conn->alg == CT_ALG_TFTP ? "tftp" : NULL);
    ovs_mutex_lock(&conn->lock);
    e->mark = conn->mark;
    e->label = conn->label;
    e->orig_counters = conn->counters[0];
    e->reply_counters = conn->counters[1];
    e->tcp_state = (conn->proto == CT_PROTO_TCP ? conn->tcp[0].state
                    : CT_TCP_CLOSED);
    ovs_mutex_unlock(&conn->lock);
}

/* Calls CB(CONN, AUX) for every live connection of *ZONE (all if NULL),
 * inside an epoch section, until CB returns false.  With NOW ==
 * LLONG_MIN, also for the expired ones the sweeper has not freed yet. */
static void
for_each_conn(struct conntrack *ct, const uint16_t *zone, long long int now,
              bool (*cb)(struct conntrack *, struct conn *, void *),
              void *aux)
{
    bool enter = !dp_epoch_in_section();
    if (enter) {
        dp_epoch_enter();
    }
    struct ct_table *t = table_get(ct);
    for (size_t i = 0; i <= t->mask; i++) {
        struct ct_node *node = atomic_load_explicit(&t->buckets[i],
                                                    memory_order_acquire);
        for (; node; node = node_next(node, t->gen)) {
            struct conn *conn = node_conn(node);
            if (node->dir != 0 || conn_expired(conn, now)
                || (zone && node->key.zone != *zone)) {
                continue;
            }
            if (!cb(ct, conn, aux)) {
                goto done;
            }
        }
    }
done:
    if (enter) {
        dp_epoch_exit();
    }
}

struct dump_aux {
    bool (*cb)(const struct ct_entry *, void *);
    void *aux;
    long long int now;
};

static bool
dump_one(struct conntrack *ct OVS_UNUSED, struct conn *conn, void *aux_)
{
    struct dump_aux *aux = aux_;
    struct ct_entry e;
    conn_to_entry(conn, aux->now, &e);
    return aux->cb(&e, aux->aux);
}

void
conntrack_dump(struct conntrack *ct, const uint16_t *zone,
               bool (*cb)(const struct ct_entry *, void *aux), void *aux)
{
    struct dump_aux d = { cb, aux, time_msec() };
    for_each_conn(ct, zone, d.now, dump_one, &d);
}

static bool
flush_one(struct conntrack *ct, struct conn *conn, void *aux OVS_UNUSED)
{
    conn_delete(ct, conn);
    return true;
}

int
conntrack_flush(struct conntrack *ct, const uint16_t *zone,
                const struct ct_tuple *tuple)
{
    long long int now = time_msec();
    if (!tuple) {
        /* Expired connections too: otherwise they would still count
         * (ct-get-nconns, the limits) after the flush, until the sweeper
         * came round to them. */
        for_each_conn(ct, zone, LLONG_MIN, flush_one, NULL);
        return 0;
    }

    struct ct_key key;
    ct_tuple_to_key(tuple, zone ? *zone : 0, &key);
    bool enter = !dp_epoch_in_section();
    if (enter) {
        dp_epoch_enter();
    }
    struct conn *conn = lookup(ct, &key, key_hash(ct, &key), now, NULL);
    if (conn) {
        conn_delete(ct, conn);
    }
    if (enter) {
        dp_epoch_exit();
    }
    return conn ? 0 : ENOENT;
}

struct stats_aux {
    uint32_t *n_by_proto;
    uint32_t *n_tcp_by_state;
};

static bool
stats_one(struct conntrack *ct OVS_UNUSED, struct conn *conn, void *aux_)
{
    struct stats_aux *aux = aux_;
    aux->n_by_proto[conn->node[0].key.nw_proto]++;
    if (conn->proto == CT_PROTO_TCP) {
        ovs_mutex_lock(&conn->lock);
        uint8_t state = conn->tcp[0].state;
        ovs_mutex_unlock(&conn->lock);
        if (state < CT_TCP_N_STATES) {
            aux->n_tcp_by_state[state]++;
        }
    }
    return true;
}

void
conntrack_get_stats(struct conntrack *ct, const uint16_t *zone,
                    uint32_t n_by_proto[256],
                    uint32_t n_tcp_by_state[CT_TCP_N_STATES])
{
    memset(n_by_proto, 0, 256 * sizeof *n_by_proto);
    memset(n_tcp_by_state, 0, CT_TCP_N_STATES * sizeof *n_tcp_by_state);
    struct stats_aux aux = { n_by_proto, n_tcp_by_state };
    for_each_conn(ct, zone, time_msec(), stats_one, &aux);
}

size_t
conntrack_get_buckets(struct conntrack *ct, uint32_t *counts,
                      size_t n_buckets)
{
    long long int now = time_msec();
    bool enter = !dp_epoch_in_section();
    if (enter) {
        dp_epoch_enter();
    }
    struct ct_table *t = table_get(ct);
    size_t n = MIN(n_buckets, t->mask + 1);
    for (size_t i = 0; i < n; i++) {
        uint32_t count = 0;
        struct ct_node *node = atomic_load_explicit(&t->buckets[i],
                                                    memory_order_acquire);
        for (; node; node = node_next(node, t->gen)) {
            count += !conn_expired(node_conn(node), now);
        }
        counts[i] = count;
    }
    size_t total = t->mask + 1;
    if (enter) {
        dp_epoch_exit();
    }
    return total;
}

/* Limits and settings
 * =================== */

void
conntrack_set_maxconns(struct conntrack *ct, uint32_t n)
{
    atomic_store(&ct->max_conns, n);
}

uint32_t
conntrack_get_maxconns(const struct conntrack *ct)
{
    return atomic_load(&((struct conntrack *) ct)->max_conns);
}

uint32_t
conntrack_get_nconns(const struct conntrack *ct)
{
    return atomic_load(&((struct conntrack *) ct)->n_conns);
}

void
conntrack_set_zone_limit(struct conntrack *ct, int zone, uint32_t limit)
{
    if (zone == CT_ZONE_DEFAULT) {
        atomic_store(&ct->default_zone_limit, limit);
    } else if (zone >= 0 && zone < CT_N_ZONES) {
        /* Stored plus one so that 0 means "none of its own"; a limit of
         * UINT32_MAX is as good as unlimited. */
        atomic_store(&ct->zone_limit[zone],
                     limit == UINT32_MAX ? UINT32_MAX : limit + 1);
    }
}

void
conntrack_del_zone_limit(struct conntrack *ct, int zone)
{
    if (zone == CT_ZONE_DEFAULT) {
        atomic_store(&ct->default_zone_limit, 0);
    } else if (zone >= 0 && zone < CT_N_ZONES) {
        atomic_store(&ct->zone_limit[zone], 0);
    }
}

bool
conntrack_get_zone_limit(struct conntrack *ct, int zone, uint32_t *limit,
                         uint32_t *count)
{
    uint32_t def = atomic_load(&ct->default_zone_limit);
    if (zone < 0 || zone >= CT_N_ZONES) {
        *limit = def;
        *count = 0;
        return false;
    }
    uint32_t own = atomic_load(&ct->zone_limit[zone]);
    *count = atomic_load(&ct->zone_count[zone]);
    *limit = own ? own - 1 : def;
    return own != 0;
}

static void
publish_policies(struct conntrack *ct, struct ct_policy_set *set)
{
    struct ct_policy_set *old = atomic_exchange(&ct->policies, set);
    if (old) {
        dp_epoch_postpone(free, old);
    }
}

void
conntrack_set_policy(struct conntrack *ct, uint32_t id,
                     const uint32_t seconds[CT_TM_N])
{
    if (!id) {
        return;
    }
    struct ct_policy_values v;
    ct_policy_defaults(&v);
    for (int i = 0; i < CT_TM_N; i++) {
        if (seconds[i]) {
            v.seconds[i] = seconds[i];
        }
    }
    /* The database has no keys for other protocols: like 3.1, they take
     * the UDP timeouts unless set explicitly. */
    static const struct { enum ct_timeout other, udp; } like_udp[] = {
        { CT_TM_OTHER_FIRST, CT_TM_UDP_FIRST },
        { CT_TM_OTHER_MULTIPLE, CT_TM_UDP_SINGLE },
        { CT_TM_OTHER_BIDIR, CT_TM_UDP_MULTIPLE },
    };
    for (size_t i = 0; i < ARRAY_SIZE(like_udp); i++) {
        if (!seconds[like_udp[i].other]) {
            v.seconds[like_udp[i].other] = v.seconds[like_udp[i].udp];
        }
    }

    ovs_mutex_lock(&ct->policy_mutex);
    struct ct_policy_set *old = atomic_load(&ct->policies);
    size_t n_old = old ? old->n : 0;
    struct ct_policy_set *set = xzalloc(sizeof *set
                                        + (n_old + 1) * sizeof *set->entries);
    for (size_t i = 0; i < n_old; i++) {
        if (old->entries[i].id != id) {
            set->entries[set->n++] = old->entries[i];
        }
    }
    set->entries[set->n].id = id;
    set->entries[set->n].v = v;
    set->n++;
    publish_policies(ct, set);
    ovs_mutex_unlock(&ct->policy_mutex);
}

void
conntrack_del_policy(struct conntrack *ct, uint32_t id)
{
    ovs_mutex_lock(&ct->policy_mutex);
    struct ct_policy_set *old = atomic_load(&ct->policies);
    size_t n_old = old ? old->n : 0;
    struct ct_policy_set *set = xzalloc(sizeof *set
                                        + n_old * sizeof *set->entries);
    for (size_t i = 0; i < n_old; i++) {
        if (old->entries[i].id != id) {
            set->entries[set->n++] = old->entries[i];
        }
    }
    publish_policies(ct, set);
    ovs_mutex_unlock(&ct->policy_mutex);
}

void
conntrack_set_tcp_seq_chk(struct conntrack *ct, bool enabled)
{
    atomic_store(&ct->tcp_seq_chk, enabled);
}

bool
conntrack_get_tcp_seq_chk(const struct conntrack *ct)
{
    return atomic_load(&((struct conntrack *) ct)->tcp_seq_chk);
}

/* The sweeper
 * =========== */

/* Takes off the lists every connection whose filed expiry has come (at
 * most CT_SWEEP_BATCH), into DUE.  Returns whether more are due. */
static bool
sweep_collect(struct conntrack *ct, long long int now, struct ovs_list *due)
{
    size_t n = 0;
    ovs_mutex_lock(&ct->exp_lock);
    struct ct_exp_list *list;
    HMAP_FOR_EACH (list, node, &ct->exp_lists) {
        while (!ovs_list_is_empty(&list->conns)) {
            struct conn *conn = CONTAINER_OF(ovs_list_front(&list->conns),
                                             struct conn, exp_node);
            if (atomic_load_explicit(&conn->exp_stamp,
                                     memory_order_relaxed) > now) {
                break;
            }
            if (n++ >= CT_SWEEP_BATCH) {
                ovs_mutex_unlock(&ct->exp_lock);
                return true;
            }
            ovs_list_remove(&conn->exp_node);
            conn->exp_state = CT_EXP_HELD;
            ovs_list_push_back(due, &conn->exp_node);
        }
    }
    ovs_mutex_unlock(&ct->exp_lock);
    return false;
}

static void
sweep(struct conntrack *ct)
{
    long long int now = time_msec();
    bool more;
    do {
        struct ovs_list due = OVS_LIST_INITIALIZER(&due);
        more = sweep_collect(ct, now, &due);
        struct conn *conn, *next;
        LIST_FOR_EACH_SAFE (conn, next, exp_node, &due) {
            ovs_list_remove(&conn->exp_node);
            bool mine = false;
            if (conn_expired(conn, now)) {
                lock_pair(ct, conn);
                /* Again under the locks: a packet may have just come. */
                mine = conn_expired(conn, now) && unlink_locked(ct, conn);
                unlock_pair(ct, conn);
            }
            if (mine) {
                if (conn->alg != CT_ALG_NONE) {
                    ct_expect_forget_parent(&ct->expects, conn->id);
                }
                /* Held by us and unlinked by us: nobody else frees it. */
                dp_epoch_postpone(conn_free, conn);
            } else {
                conn_file(ct, conn);
            }
        }
    } while (more);
}

/* Doubles the table (or more) once it holds more than two nodes per
 * chain.  Sweeper thread only: it is outside any epoch section, so it
 * can wait for readers of the old array to leave. */
static void
table_maybe_grow(struct conntrack *ct)
{
    struct ct_table *old = table_get(ct);
    size_t n_nodes = 2 * (size_t) atomic_load_explicit(&ct->n_conns,
                                                       memory_order_relaxed);
    size_t n = old->mask + 1;
    if (n_nodes <= 2 * n || n >= CT_MAX_BUCKETS) {
        return;
    }
    while (n < CT_MAX_BUCKETS && n_nodes > 2 * n) {
        n *= 2;
    }

    ovs_rwlock_wrlock(&ct->resize_lock);
    struct ct_table *t = table_alloc(n, !old->gen);
    for (size_t i = 0; i <= old->mask; i++) {
        struct ct_node *node = atomic_load_explicit(&old->buckets[i],
                                                    memory_order_relaxed);
        for (; node; node = atomic_load_explicit(&node->next[old->gen],
                                                 memory_order_relaxed)) {
            _Atomic(struct ct_node *) *head = bucket_head(t, node->hash);
            atomic_store_explicit(&node->next[t->gen],
                                  atomic_load_explicit(head,
                                                       memory_order_relaxed),
                                  memory_order_relaxed);
            atomic_store_explicit(head, node, memory_order_relaxed);
        }
    }
    atomic_store_explicit(&ct->table, t, memory_order_release);
    ovs_rwlock_unlock(&ct->resize_lock);
    /* Readers may still walk the old array (through the old links, which
     * nothing changes any more); the next growth reuses those links, so
     * wait here rather than postpone. */
    dp_epoch_synchronize();
    free(old);
}

static void *
sweeper_main(void *ct_)
{
    struct conntrack *ct = ct_;

    ovs_mutex_lock(&ct->sweep_mutex);
    while (!ct->stop) {
        ovs_mutex_unlock(&ct->sweep_mutex);
        sweep(ct);
        table_maybe_grow(ct);
        dp_epoch_reclaim();
        ovs_mutex_lock(&ct->sweep_mutex);

        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += CT_SWEEP_MS * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        if (!ct->stop) {
            pthread_cond_timedwait(&ct->sweep_cond, &ct->sweep_mutex.lock,
                                   &ts);
        }
    }
    ovs_mutex_unlock(&ct->sweep_mutex);
    return NULL;
}
