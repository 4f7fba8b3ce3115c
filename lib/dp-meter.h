/* dp-meter: the userspace datapath's meters, a table of token buckets
 * (dpif.h's "Meters" says the semantics the "meter" action gets).
 *
 * dp_meter_table_run() runs a batch of packets through one meter and
 * takes the packets it drops out of the batch (keeping the others in
 * order); the packets themselves stay the caller's.  Time is time_msec(),
 * so a test's stopped clock stops the refill.
 *
 * Threads: any thread may call anything; one mutex per table guards the
 * meters (the meter path is the only user, and it is short). */
#ifndef DP_METER_H
#define DP_METER_H 1

#include <stdint.h>
#include "dpif.h"

struct dp_packet_batch;
struct dp_meter_table;

struct dp_meter_table *dp_meter_table_create(void);
void dp_meter_table_destroy(struct dp_meter_table *);

int dp_meter_table_set(struct dp_meter_table *, uint32_t meter_id,
                       const struct dpif_meter_config *);
int dp_meter_table_get(struct dp_meter_table *, uint32_t meter_id,
                       struct dpif_meter_stats *);
int dp_meter_table_del(struct dp_meter_table *, uint32_t meter_id,
                       struct dpif_meter_stats *);

void dp_meter_table_run(struct dp_meter_table *, uint32_t meter_id,
                        struct dp_packet_batch *, long long int now);

#endif /* dp-meter.h */
