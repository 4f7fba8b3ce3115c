/* libFuzzer target: packet parsing, and actions applied to what was
 * parsed.
 *
 * The input is one Ethernet frame, placed at the very end of its own heap
 * block so that any read past the frame is an ASan error.  Beyond not
 * crashing, the parse must leave every layer offset inside the frame, and
 * the parsed flow must survive the compact form the fast path stores.
 * Then a few action lists that touch every layer (sets with checksum
 * updates, VLAN push and pop) run on copies of the packet, which must not
 * touch a byte outside it either.  Last, the frame is decapsulated as
 * every native tunnel type (tnl_pop's header checks): a pop either
 * refuses the frame, leaving its bytes alone, or leaves a packet that is
 * a tail of the frame. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dp-packet.h"
#include "flow-extract.h"
#include "flow.h"
#include "odp-execute.h"
#include "odp-util.h"
#include "ofpbuf.h"
#include "tnl-header.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const action_lists[] = {
    "set(ipv4(src=1.2.3.4,dst=5.6.7.8,proto=6,tos=0x3,ttl=9,frag=no))",
    "set(ipv4(ttl=1/0x1)),set(tcp(src=1,dst=2)),set(udp(dst=3)),"
    "set(sctp(src=4))",
    "set(ipv6(src=::1,dst=::2,label=0x1,proto=6,tclass=0x1,hlimit=1,"
    "frag=no)),set(ipv6(dst=::5/::ff))",
    "pop_vlan,set(vlan(vid=7)),push_vlan(tpid=0x88a8,vid=1,pcp=2),"
    "set(eth(src=00:00:00:00:00:01,dst=00:00:00:00:00:02)),pop_vlan,"
    "pop_vlan,pop_vlan",
    "clone(push_vlan(vid=9,pcp=0),set(ipv4(src=9.9.9.9))),"
    "set(skb_mark(0x1))",
};

static struct ofpbuf *
parsed_actions(size_t i)
{
    static struct ofpbuf *lists[ARRAY_SIZE(action_lists)];
    if (!lists[i]) {
        lists[i] = ofpbuf_new(128);
        char *error = odp_actions_from_string(action_lists[i], NULL,
                                              lists[i]);
        if (error) {
            abort();
        }
    }
    return lists[i];
}

static void
execute_on_copies(const struct dp_packet *packet)
{
    for (size_t i = 0; i < ARRAY_SIZE(action_lists); i++) {
        /* A foreign copy with no headroom, at the end of its block, so
         * that pushes must move it and overruns are caught. */
        size_t size = dp_packet_size(packet);
        uint8_t *block = xmalloc(size ? size : 1);
        memcpy(block, dp_packet_data(packet), size);
        struct dp_packet copy;
        dp_packet_use_foreign(&copy, block, size, 0, size);
        copy.l2_5_ofs = packet->l2_5_ofs;
        copy.l3_ofs = packet->l3_ofs;
        copy.l4_ofs = packet->l4_ofs;
        copy.payload_ofs = packet->payload_ofs;

        struct dp_packet_batch batch;
        dp_packet_batch_init_packet(&batch, &copy);
        struct ofpbuf *acts = parsed_actions(i);
        odp_execute_actions(NULL, &batch, false, acts->data, acts->size,
                            NULL);
        dp_packet_uninit(&copy);
        free(block);
    }
}

static void
pop_as_every_tunnel(const uint8_t *data, size_t size)
{
    static const enum tnl_type types[] = {
        TNL_TYPE_VXLAN, TNL_TYPE_GENEVE, TNL_TYPE_GRE, TNL_TYPE_IP6GRE,
        TNL_TYPE_ERSPAN, TNL_TYPE_IP6ERSPAN, TNL_TYPE_GTPU,
    };
    for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
        uint8_t *block = xmalloc(size ? size : 1);
        memcpy(block, data, size);
        struct dp_packet copy;
        dp_packet_use_foreign(&copy, block, size, 0, size);
        if (tnl_header_pop(&copy, types[i])) {
            if (dp_packet_size(&copy) != size || memcmp(block, data, size)) {
                abort();        /* A refusal changed the packet. */
            }
        } else {
            const uint8_t *d = dp_packet_data(&copy);
            if (d < block || d + dp_packet_size(&copy) > block + size
                || copy.md.tun_opts_len > sizeof copy.md.tun_opts) {
                abort();
            }
            struct flow flow;
            flow_extract(&copy, &flow);
        }
        dp_packet_uninit(&copy);
        free(block);
    }
}

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
    execute_on_copies(&packet);
    pop_as_every_tunnel(data, size);

    dp_packet_uninit(&packet);
    free(block);
    return 0;
}
