/* The transaction history for monitor_cond_since: see monitor-history.h. */
#include <config.h>
#include "monitor-history.h"

#include <stdlib.h>
#include "hmap.h"
#include "list.h"
#include "monitor-shape.h"
#include "row.h"
#include "util.h"
#include "uuid.h"

struct history_row {
    const struct ovsdb_table *table;
    struct ovsdb_row *old;      /* Copy, NULL for an insert. */
    struct ovsdb_row *new;      /* Copy, NULL for a delete. */
};

struct history_txn {
    struct ovs_list node;       /* In mon_history->txns. */
    struct uuid txnid;
    struct history_row *rows;
    size_t n_rows;
    size_t n_atoms;             /* In the copies of ROWS. */
};

struct mon_history {
    struct ovs_list txns;       /* struct history_txn, oldest first. */
    size_t n_txns;
    size_t n_rows;              /* Sum of the entries' n_rows. */
    size_t n_atoms;             /* Sum of the entries' n_atoms. */
    struct uuid base;           /* State before the oldest entry. */
};

struct mon_history *
mon_history_create(const struct uuid *base_txnid)
{
    struct mon_history *h = xzalloc(sizeof *h);
    ovs_list_init(&h->txns);
    h->base = *base_txnid;
    return h;
}

static void
history_txn_destroy(struct history_txn *txn)
{
    for (size_t i = 0; i < txn->n_rows; i++) {
        if (txn->rows[i].old) {
            ovsdb_row_destroy(txn->rows[i].old);
        }
        if (txn->rows[i].new) {
            ovsdb_row_destroy(txn->rows[i].new);
        }
    }
    free(txn->rows);
    free(txn);
}

static void
history_drop_oldest(struct mon_history *h)
{
    struct history_txn *txn = CONTAINER_OF(ovs_list_pop_front(&h->txns),
                                           struct history_txn, node);
    h->base = txn->txnid;
    h->n_txns--;
    h->n_rows -= txn->n_rows;
    h->n_atoms -= txn->n_atoms;
    history_txn_destroy(txn);
}

void
mon_history_destroy(struct mon_history *h)
{
    if (h) {
        while (!ovs_list_is_empty(&h->txns)) {
            history_drop_oldest(h);
        }
        free(h);
    }
}

void
mon_history_add(struct mon_history *h, const struct uuid *txnid,
                const struct mon_changes *changes, size_t max_rows,
                size_t max_atoms)
{
    struct history_txn *txn = xzalloc(sizeof *txn);
    const struct mon_table_changes *tc;

    txn->txnid = *txnid;
    txn->rows = xmalloc(MAX(changes->n_changes, 1) * sizeof *txn->rows);
    HMAP_FOR_EACH (tc, node, &changes->tables) {
        for (size_t i = 0; i < tc->n_changes; i++) {
            const struct mon_change *ch = &tc->changes[i];
            struct history_row *hr = &txn->rows[txn->n_rows++];

            hr->table = tc->table;
            hr->old = ch->old ? ovsdb_row_clone(ch->old) : NULL;
            hr->new = ch->new ? ovsdb_row_clone(ch->new) : NULL;
            txn->n_atoms += ((hr->old ? ovsdb_row_count_atoms(hr->old) : 0)
                             + (hr->new ? ovsdb_row_count_atoms(hr->new)
                                : 0));
        }
    }
    ovs_list_push_back(&h->txns, &txn->node);
    h->n_txns++;
    h->n_rows += txn->n_rows;
    h->n_atoms += txn->n_atoms;

    while (h->n_txns > MON_HISTORY_MAX_TXNS || h->n_rows > max_rows
           || (h->n_txns > 1 && h->n_atoms > max_atoms)) {
        history_drop_oldest(h);
    }
}

const struct uuid *
mon_history_last_txnid(const struct mon_history *h)
{
    if (ovs_list_is_empty(&h->txns)) {
        return &h->base;
    }
    const struct history_txn *last = CONTAINER_OF(ovs_list_back(&h->txns),
                                                  struct history_txn, node);
    return &last->txnid;
}

/* One row's merged change. */
struct merged_row {
    struct hmap_node node;      /* By uuid_hash(). */
    const struct ovsdb_table *table;
    const struct uuid *uuid;
    const struct ovsdb_row *old;
    const struct ovsdb_row *new;
};

bool
mon_history_changes_since(const struct mon_history *h,
                          const struct uuid *txnid,
                          struct mon_changes *changes)
{
    const struct history_txn *txn;
    const struct ovs_list *start = NULL;

    if (uuid_is_zero(txnid)) {
        return false;
    }
    if (uuid_equals(txnid, &h->base)) {
        start = &h->txns;
    } else {
        LIST_FOR_EACH (txn, node, &h->txns) {
            if (uuid_equals(txnid, &txn->txnid)) {
                start = &txn->node;
                break;
            }
        }
        if (!start) {
            return false;
        }
    }

    struct hmap merged = HMAP_INITIALIZER(&merged);
    struct merged_row *m;
    for (const struct ovs_list *n = start->next; n != &h->txns;
         n = n->next) {
        txn = CONTAINER_OF(n, struct history_txn, node);
        for (size_t i = 0; i < txn->n_rows; i++) {
            const struct history_row *hr = &txn->rows[i];
            const struct uuid *uuid
                = ovsdb_row_get_uuid(hr->new ? hr->new : hr->old);
            struct merged_row *found = NULL;

            HMAP_FOR_EACH_WITH_HASH (m, node, uuid_hash(uuid), &merged) {
                if (uuid_equals(m->uuid, uuid) && m->table == hr->table) {
                    found = m;
                    break;
                }
            }
            if (found) {
                found->new = hr->new;
            } else {
                m = xmalloc(sizeof *m);
                m->table = hr->table;
                m->uuid = uuid;
                m->old = hr->old;
                m->new = hr->new;
                hmap_insert(&merged, &m->node, uuid_hash(uuid));
            }
        }
    }

    HMAP_FOR_EACH_POP (m, node, &merged) {
        if (m->old || m->new) {
            mon_changes_add(changes, m->table, m->old, m->new, NULL);
        }
        free(m);
    }
    hmap_destroy(&merged);
    return true;
}

size_t
mon_history_n_txns(const struct mon_history *h)
{
    return h->n_txns;
}

size_t
mon_history_n_atoms(const struct mon_history *h)
{
    return h->n_atoms;
}
