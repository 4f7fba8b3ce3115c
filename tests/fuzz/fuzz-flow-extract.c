/* libFuzzer target: packet parsing.
 *
 * The input is one Ethernet frame, placed at the very end of its own heap
 * block so that any read past the frame is an ASan error.  Beyond not
 * crashing, the parse must leave every layer offset inside the frame, and
 * the parsed flow must survive the compact form the fast path stores. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dp-packet.h"
#include "flow-extract.h"
#include "flow.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65535) {
        return 0;
    }
    uint8_t *block = xmalloc(size ? size : 1);
    if (size) {
        memcpy(block, data, size);
    }
    struct dp_packet packet;
    dp_packet_use_foreign(&packet, block, size, 0, size);

    struct flow flow;
    flow_extract(&packet, &flow);

    const uint16_t ofs[] = { packet.l2_5_ofs, packet.l3_ofs, packet.l4_ofs,
                             packet.payload_ofs };
    for (size_t i = 0; i < ARRAY_SIZE(ofs); i++) {
        if (ofs[i] != DP_PACKET_OFS_NONE && ofs[i] > size) {
            abort();
        }
    }
    if (packet.l4_ofs != DP_PACKET_OFS_NONE
        && (packet.l3_ofs == DP_PACKET_OFS_NONE
            || packet.l4_ofs < packet.l3_ofs)) {
        abort();
    }

    struct miniflow *mf = miniflow_create(&flow);
    struct flow back;
    miniflow_expand(mf, &back);
    if (!flow_equal(&flow, &back)) {
        abort();
    }
    free(mf);
    (void) dp_packet_flow_hash(&packet, &flow);

    dp_packet_uninit(&packet);
    free(block);
    return 0;
}
