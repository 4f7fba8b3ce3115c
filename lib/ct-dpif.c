/* See ct-dpif.h. */
#include <config.h>
#include "ct-dpif.h"

#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include "conntrack.h"
#include "dpif.h"
#include "dynamic-string.h"
#include "ofp-ct.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ct_dpif);

/* The tracker's tuple for T, a tuple of MATCH. */
static void
ct_tuple_from_match(const struct ofputil_ct_match *match,
                    const struct ofputil_ct_tuple *t, struct ct_tuple *out)
{
    memset(out, 0, sizeof *out);
    out->l3_type = match->l3_type;
    out->ip_proto = match->ip_proto;
    if (match->l3_type == AF_INET) {
        memcpy(&out->src.ipv4, &t->src.s6_addr[12], 4);
        memcpy(&out->dst.ipv4, &t->dst.s6_addr[12], 4);
    } else {
        out->src.ipv6 = t->src;
        out->dst.ipv6 = t->dst;
    }
    if (match->ip_proto == IPPROTO_ICMP || match->ip_proto == IPPROTO_ICMPV6) {
        out->icmp_id = t->icmp_id;
        out->icmp_type = t->icmp_type;
        out->icmp_code = t->icmp_code;
    } else {
        out->src_port = t->src_port;
        out->dst_port = t->dst_port;
    }
}

static bool
ct_addr_matches(const union ct_addr *a, const struct in6_addr *want,
                uint16_t l3_type)
{
    static const struct in6_addr any;
    return (!memcmp(want, &any, sizeof any)
            || (l3_type == AF_INET
                ? !memcmp(&a->ipv4, &want->s6_addr[12], 4)
                : !memcmp(&a->ipv6, want, sizeof *want)));
}

/* Whether T has the fields of WANT that are set (ICMP's id, type and code
 * always count), as 3.1 compares them. */
static bool
ct_tuple_matches(const struct ct_tuple *t, const struct ofputil_ct_tuple *want,
                 const struct ofputil_ct_match *match)
{
    if (!ct_addr_matches(&t->src, &want->src, match->l3_type)
        || !ct_addr_matches(&t->dst, &want->dst, match->l3_type)) {
        return false;
    }
    if (match->ip_proto == IPPROTO_ICMP || match->ip_proto == IPPROTO_ICMPV6) {
        return (want->icmp_id == t->icmp_id
                && want->icmp_type == t->icmp_type
                && want->icmp_code == t->icmp_code);
    }
    return ((!want->src_port || want->src_port == t->src_port)
            && (!want->dst_port || want->dst_port == t->dst_port));
}

struct ct_flush_aux {
    const struct ofputil_ct_match *match;
    struct ct_tuple *tuples;        /* Original tuples to flush... */
    uint16_t *zones;                /* ...in these zones. */
    size_t n, allocated;
};

static bool
ct_flush_collect(const struct ct_entry *e, void *aux_)
{
    struct ct_flush_aux *aux = aux_;
    const struct ofputil_ct_match *m = aux->match;
    if ((m->l3_type && m->l3_type != e->orig.l3_type)
        || (m->ip_proto && m->ip_proto != e->orig.ip_proto)
        || !ct_tuple_matches(&e->orig, &m->orig, m)
        || !ct_tuple_matches(&e->reply, &m->reply, m)) {
        return true;
    }
    if (aux->n >= aux->allocated) {
        aux->allocated = aux->allocated ? 2 * aux->allocated : 16;
        aux->tuples = xrealloc(aux->tuples,
                               aux->allocated * sizeof *aux->tuples);
        aux->zones = xrealloc(aux->zones, aux->allocated * sizeof *aux->zones);
    }
    aux->tuples[aux->n] = e->orig;
    aux->zones[aux->n++] = e->zone;
    return true;
}

int
dpif_ct_flush(struct dpif *dpif, const uint16_t *zone,
              const struct ofputil_ct_match *match)
{
    struct conntrack *ct = dpif_conntrack(dpif);
    if (!ct) {
        return EOPNOTSUPP;
    }
    if (!match || ofputil_ct_match_is_zero(match)) {
        if (zone) {
            VLOG_DBG("%s: ct_flush: zone %"PRIu16, dpif_name(dpif), *zone);
        } else {
            VLOG_DBG("%s: ct_flush: <all>", dpif_name(dpif));
        }
        return conntrack_flush(ct, zone, NULL);
    }
    if (VLOG_IS_DBG_ENABLED()) {
        struct ds s = DS_EMPTY_INITIALIZER;
        ofputil_ct_match_format(&s, match);
        VLOG_DBG("%s: ct_flush: zone=%d %s", dpif_name(dpif),
                 zone ? *zone : 0, ds_cstr(&s));
        ds_destroy(&s);
    }

    static const struct ofputil_ct_tuple zero_tuple;
    const struct ofputil_ct_tuple *o = &match->orig;
    bool icmp = (match->ip_proto == IPPROTO_ICMP
                 || match->ip_proto == IPPROTO_ICMPV6);
    static const struct in6_addr any;
    bool five = (memcmp(&o->src, &any, sizeof any)
                 && memcmp(&o->dst, &any, sizeof any)
                 && (icmp || (o->src_port && o->dst_port)));
    if (five && !memcmp(&match->reply, &zero_tuple, sizeof zero_tuple)) {
        struct ct_tuple t;
        ct_tuple_from_match(match, o, &t);
        return conntrack_flush(ct, zone, &t);
    }

    /* Collected first, flushed after: the dump walks the table that the
     * flush changes. */
    struct ct_flush_aux aux = { .match = match };
    conntrack_dump(ct, zone, ct_flush_collect, &aux);
    for (size_t i = 0; i < aux.n; i++) {
        /* One may have gone meanwhile: not an error. */
        conntrack_flush(ct, &aux.zones[i], &aux.tuples[i]);
    }
    free(aux.tuples);
    free(aux.zones);
    return 0;
}
