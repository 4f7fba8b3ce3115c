/* ofproto-table-config: table_mod and table desc (see ofproto.h).  Main
 * thread only; the miss config is an atomic the translators read. */
#include <config.h>
#include "ofproto.h"

#include <stdatomic.h>
#include "ofp-table.h"
#include "ofproto-private.h"
#include "seq.h"

/* Tables 0 to 253 exist for OpenFlow (features say 254). */
#define N_OPENFLOW_TABLES (OFPROTO_N_TABLES - 1)

static void
table_mod__(struct ofproto *ofproto, struct oftable *t,
            const struct ofputil_table_mod *tm)
{
    if (tm->miss != OFPUTIL_TABLE_MISS_DEFAULT
        && tm->miss != atomic_load(&t->miss_config)) {
        atomic_store(&t->miss_config, tm->miss);
        /* Datapath flows made from the old miss behaviour are wrong. */
        seq_change(ofproto->backer->reval_seq);
    }
    if (tm->has_flags14) {
        t->eviction = tm->eviction;
        t->vacancy_events = tm->vacancy_events;
        t->vacancy_down = tm->vacancy_down;
        t->vacancy_up = tm->vacancy_up;
    }
}

enum ofperr
ofproto_table_mod(struct ofproto *ofproto, const struct ofputil_table_mod *tm)
{
    /* An eviction property's flags are taken and ignored, as 3.1 does:
     * eviction follows the switch's own policy. */
    if (tm->table_id == N_OPENFLOW_TABLES) {
        /* The last table exists, but not for OpenFlow (as 3.1's hidden
         * one), so it may not be changed. */
        return OFPERR_OFPTMFC_EPERM;
    }
    if (tm->table_id == OFPTT_ALL) {
        for (int i = 0; i < N_OPENFLOW_TABLES; i++) {
            table_mod__(ofproto, &ofproto->tables[i], tm);
        }
    } else {
        table_mod__(ofproto, &ofproto->tables[tm->table_id], tm);
    }
    return 0;
}

void
ofproto_get_table_desc(const struct ofproto *ofproto, uint8_t table_id,
                       struct ofputil_table_desc *td)
{
    const struct oftable *t = &ofproto->tables[table_id];
    *td = (struct ofputil_table_desc) {
        .table_id = table_id,
        .eviction = t->eviction,
        .eviction_flags = OFPUTIL_EVICTION_FLAGS_DEFAULT,
        .vacancy_events = t->vacancy_events,
        .vacancy_down = t->vacancy_down,
        .vacancy_up = t->vacancy_up,
        /* Tables have no flow limit here: always room (3.1 says the same
         * of its unlimited tables). */
        .vacancy = 100,
    };
}
