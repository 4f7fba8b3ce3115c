/* Unit tests for ofp-group.h: group_mod and the group multipart
 * messages (and ofp-requestforward.h, which forwards group_mods).
 *
 * The messages were captured between Open vSwitch 3.1's ovs-ofctl
 * (add-group, mod-group, del-groups, dump-groups, dump-group-stats,
 * dump-group-features in 1.0, 1.1, 1.3 and 1.5) and its ovs-vswitchd; the
 * text is what 3.1's "ovs-ofctl ofp-print" printed after the header line.
 * Re-encoding each decoded message, and encoding each parsed add-group /
 * mod-group / del-groups text, gives back 3.1's bytes. */
#include <config.h>
#include "ofp-group.h"

#include <check.h>
#include <inttypes.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"
#include "dynamic-string.h"
#include "list.h"
#include "ofp-msgs.h"
#include "ofp-requestforward.h"
#include "ofpbuf.h"

struct group_case {
    const char *hex;
    const char *text;
};

static const struct group_case cases[] = {
    { "020f005000000006000000000000000100200000ffffffffffffffff00000000"
      "0000001000000001000000000000000000200000ffffffffffffffff00000000"
      "00000010000000020000000000000000",
      "\n" " ADD group_id=1,type=all,bucket=actions=output:1,bucket=actions=output:2" },
    { "020f00500000000600000100000000020020000affffffffffffffff00000000"
      "0000001000000001000000000000000000200014ffffffffffffffff00000000"
      "00000010000000020000000000000000",
      "\n" " ADD group_id=2,type=select,bucket=weight:10,actions=output:1,bucket=weight:20,actions=output:2" },
    { "020f004000000006000002000000000300300000ffffffffffffffff00000000"
      "0003001000112233445500000000000000000010000000020000000000000000",
      "\n" " ADD group_id=3,type=indirect,bucket=actions=mod_dl_src:00:11:22:33:44:55,output:2" },
    { "020f00500000000600000300000000040020000000000001ffffffff00000000"
      "0000001000000001000000000000000000200000000000020000000100000000"
      "00000010000000020000000000000000",
      "\n" " ADD group_id=4,type=ff,bucket=watch_port:1,actions=output:1,bucket=watch_port:2,watch_group:1,actions=output:2" },
    { "020f003000000006000100000000000100200000ffffffffffffffff00000000"
      "00000010000000030000000000000000",
      "\n" " MOD group_id=1,type=all,bucket=actions=output:3" },
    /* 1.5 group_mods from 3.1's decoder: the selection method property,
     * command bucket ids, and the checks on buckets. */
    /* gm(gtype=1,buckets=[b(weight=1)],props=prop(param=7)) */
    { "060f006000000002000001000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000ffff00280000154d"
      "0000000100000000686173680000000000000000000000000000000000000007",
      "\n ADD group_id=1,type=select,selection_method=hash,selection_method_param=7,bucket=bucket_id:0,actions=output:10" },
    /* gm(cmd=2,gtype=0,buckets=[b(watch_port=1)]) */
    { "060f003800000002000200000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000001000800000001",
      "ERR OFPGMFC_WATCH_UNSUPPORTED" },
    /* gm(cmd=2,gtype=2,buckets=[b(),b(bid=1)]) */
    { "060f004800000002000202000000000100300000ffffffff0018001000000000"
      "000000100000000a00000000000000000018001000000001000000100000000a"
      "0000000000000000",
      "\n DEL group_id=1,type=indirect,bucket=bucket_id:0,actions=output:10,bucket=bucket_id:1,actions=output:10" },
    /* gm(cmd=0,gtype=0,buckets=[b(weight=1)]) */
    { "060f003800000002000000000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000",
      "ERR OFPGMFC_INVALID_GROUP" },
    /* gm(cmd=0,gtype=3,buckets=[b(weight=2,watch_port=1)]) */
    { "060f004000000002000003000000000100280000ffffffff0028001000000000"
      "000000100000000a000000000000000000000008000200000001000800000001",
      "ERR OFPGMFC_INVALID_GROUP" },
    /* gm(cmd=3,gtype=0,cbid=0xfffffffd,buckets=[b(weight=2)]) */
    { "060f003800000002000300000000000100200000fffffffd0020001000000000"
      "000000100000000a00000000000000000000000800020000",
      "\n INSERT_BUCKET command_bucket_id:first,group_id=1,bucket=bucket_id:0,weight:2,actions=output:10" },
    /* gm(cmd=3,gtype=0,cbid=0xfffffffd,buckets=[b(watch_port=2)]) */
    { "060f003800000002000300000000000100200000fffffffd0020001000000000"
      "000000100000000a00000000000000000001000800000002",
      "ERR OFPGMFC_WATCH_UNSUPPORTED" },
    /* gm(cmd=5,gtype=0,cbid=0xfffffffd,buckets=[b()]) */
    { "060f003000000002000500000000000100180000fffffffd0018001000000000"
      "000000100000000a0000000000000000",
      "ERR OFPGMFC_BAD_BUCKET" },
    /* gm(cmd=3,gtype=2,cbid=0xfffffffd,buckets=[]) */
    { "060f001800000002000302000000000100000000fffffffd",
      "ERR OFPGMFC_INVALID_GROUP" },
    /* gm(gtype=1,buckets=[b(bid=0xffffff01)]) */
    { "060f003000000002000001000000000100180000ffffffff00180010ffffff01"
      "000000100000000a0000000000000000",
      "ERR OFPGMFC_BAD_BUCKET" },
    /* gm(gtype=1,cbid=5,buckets=[b(weight=1)]) */
    { "060f003800000002000001000000000100200000000000050020001000000000"
      "000000100000000a00000000000000000000000800010000",
      "ERR OFPGMFC_BAD_BUCKET" },
    /* gm(cmd=3,gtype=1,cbid=0xffffffff,buckets=[b(weight=1)]) */
    { "060f003800000002000301000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000",
      "ERR OFPGMFC_BAD_BUCKET" },
    /* gm(gtype=0,buckets=[b()],props=prop()) */
    { "060f005800000002000000000000000100180000ffffffff0018001000000000"
      "000000100000000a0000000000000000ffff00280000154d0000000100000000"
      "686173680000000000000000000000000000000000000000",
      "ERR OFPBPC_BAD_VALUE" },
    /* gm(gtype=1,buckets=[b(weight=1)],props=prop(method=b"abcdefghijklm */
    { "060f006000000002000001000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000ffff00280000154d"
      "00000001000000006162636465666768696a6b6c6d6e6f700000000000000000",
      "ERR OFPBPC_BAD_VALUE" },
    /* gm(gtype=1,buckets=[b(weight=1)],props=prop(method=b"foo")) */
    { "060f006000000002000001000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000ffff00280000154d"
      "0000000100000000666f6f000000000000000000000000000000000000000000",
      "ERR OFPBPC_BAD_VALUE" },
    /* gm(gtype=1,buckets=[b(weight=1)],props=prop(method=b"dp_hash",fiel */
    { "060f007000000002000001000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000ffff00320000154d"
      "000000010000000064705f686173680000000000000000000000000000000000"
      "80000606ffffffffffff000000000000",
      "ERR OFPBPC_BAD_VALUE" },
    /* gm(gtype=1,buckets=[b(weight=1)],props=prop(param=5,fields=H("8000 */
    { "060f007000000002000001000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000ffff00380000154d"
      "0000000100000000686173680000000000000000000000000000000000000005"
      "80000606ffffff00000080000a02ffff",
      "\n ADD group_id=1,type=select,selection_method=hash,selection_method_param=5,fields(eth_dst=ff:ff:ff:00:00:00,eth_type),bucket=bucket_id:0,actions=output:10" },
    /* gm(gtype=1,buckets=[b(weight=1)],props=prop(fields=H("7fff0004ffff */
    { "060f006800000002000001000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000ffff00300000154d"
      "0000000100000000686173680000000000000000000000000000000000000000"
      "7fff0004ffffffff",
      "ERR OFPBMC_BAD_FIELD" },
    /* gm(gtype=1,buckets=[b(weight=1)],props=prop(fields=H("0001ffff"))) */
    { "060f006800000002000001000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000ffff002c0000154d"
      "0000000100000000686173680000000000000000000000000000000000000000"
      "0001ffff00000000",
      "ERR OFPBMC_BAD_LEN" },
    /* gm(gtype=1,buckets=[b(weight=1)],props=prop(fields=H("80000606ffff */
    { "060f007800000002000001000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000ffff003c0000154d"
      "0000000100000000686173680000000000000000000000000000000000000000"
      "80000606ffffffffffff80000606ffffffffffff00000000",
      "ERR OFPBMC_DUP_FIELD" },
    /* gm(gtype=1,buckets=[b(weight=1)],props=prop(plen=12)[:16]) */
    { "060f004800000002000001000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000ffff000c0000154d"
      "0000000100000000",
      "ERR OFPBPC_BAD_LEN" },
    /* gm(gtype=1,buckets=[b(weight=1)],props=prop(exp=0x1234)) */
    { "060f006000000002000001000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000ffff002800001234"
      "0000000100000000686173680000000000000000000000000000000000000000",
      "ERR OFPBPC_BAD_EXP_TYPE" },
    /* gm(gtype=1,buckets=[b(weight=1)],props=prop(exptype=2)) */
    { "060f006000000002000001000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000ffff00280000154d"
      "0000000200000000686173680000000000000000000000000000000000000000",
      "ERR OFPBPC_BAD_EXP_TYPE" },
    /* gm(gtype=1,buckets=[b(weight=1)],props=H("000100080000000a")) */
    { "060f004000000002000001000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000000100080000000a",
      "ERR OFPBPC_BAD_TYPE" },
    /* gm(gtype=1,buckets=[b(weight=1)],props=H("ffff00080000154d")) */
    { "060f004000000002000001000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000ffff00080000154d",
      "ERR OFPBPC_BAD_LEN" },
    /* gm(ver=1,gtype=1,buckets=[],props=prop(param=7)) */
    { "0104004800000002000023200000001f000001000000000100000000ffffffff"
      "ffff00280000154d000000010000000068617368000000000000000000000000"
      "0000000000000007",
      "\n ADD group_id=1,type=select,selection_method=hash,selection_method_param=7" },
    { "02120010000000020007000000000000",
      " group_id=ALL" },
    { "02130100000000020007000000000000002800000000000100200000ffffffff"
      "ffffffff00000000000000100000000300000000000000000048010000000002"
      "0020000affffffffffffffff0000000000000010000000010000000000000000"
      "00200014ffffffffffffffff0000000000000010000000020000000000000000"
      "003802000000000300300000ffffffffffffffff000000000003001000112233"
      "4455000000000000000000100000000200000000000000000048030000000004"
      "0020000000000001ffffffff0000000000000010000000010000000000000000"
      "0020000000000002000000010000000000000010000000020000000000000000",
      "\n" " group_id=1,type=all,bucket=actions=output:3\n" " group_id=2,type=select,bucket=weight:10,actions=output:1,bucket=weight:20,actions=output:2\n" " group_id=3,type=indirect,bucket=actions=mod_dl_src:00:11:22:33:44:55,output:2\n" " group_id=4,type=ff,bucket=watch_port:1,actions=output:1,bucket=watch_port:2,watch_group:1,actions=output:2" },
    { "02120018000000060006000000000000fffffffc00000000",
      " group_id=ALL" },
    { "021300f000000006000600000000000000300000000000010000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0040000000000002000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0030000000000003000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000400000000000040000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "00000000000000000000000000000000",
      "\n" " group_id=1,ref_count=0,packet_count=0,byte_count=0,bucket0:packet_count=0,byte_count=0\n" " group_id=2,ref_count=0,packet_count=0,byte_count=0,bucket0:packet_count=0,byte_count=0,bucket1:packet_count=0,byte_count=0\n" " group_id=3,ref_count=0,packet_count=0,byte_count=0,bucket0:packet_count=0,byte_count=0\n" " group_id=4,ref_count=0,packet_count=0,byte_count=0,bucket0:packet_count=0,byte_count=0,bucket1:packet_count=0,byte_count=0" },
    { "020f0010000000060002000000000002",
      "\n" " DEL group_id=2,type=all" },
    { "020f00100000000600020000fffffffc",
      "\n" " DEL group_id=4294967292,type=all" },
    { "040f005000000006000000000000000100200000ffffffffffffffff00000000"
      "0000001000000001000000000000000000200000ffffffffffffffff00000000"
      "00000010000000020000000000000000",
      "\n" " ADD group_id=1,type=all,bucket=actions=output:1,bucket=actions=output:2" },
    { "040f00500000000600000100000000020020000affffffffffffffff00000000"
      "0000001000000001000000000000000000200014ffffffffffffffff00000000"
      "00000010000000020000000000000000",
      "\n" " ADD group_id=2,type=select,bucket=weight:10,actions=output:1,bucket=weight:20,actions=output:2" },
    { "040f004000000006000002000000000300300000ffffffffffffffff00000000"
      "0019001080000806001122334455000000000010000000020000000000000000",
      "\n" " ADD group_id=3,type=indirect,bucket=actions=set_field:00:11:22:33:44:55->eth_src,output:2" },
    { "040f00500000000600000300000000040020000000000001ffffffff00000000"
      "0000001000000001000000000000000000200000000000020000000100000000"
      "00000010000000020000000000000000",
      "\n" " ADD group_id=4,type=ff,bucket=watch_port:1,actions=output:1,bucket=watch_port:2,watch_group:1,actions=output:2" },
    { "040f003000000006000100000000000100200000ffffffffffffffff00000000"
      "00000010000000030000000000000000",
      "\n" " MOD group_id=1,type=all,bucket=actions=output:3" },
    { "04120010000000020007000000000000",
      " group_id=ALL" },
    { "0413010000000002000700000000000000480100000000020020000affffffff"
      "ffffffff000000000000001000000001000000000000000000200014ffffffff"
      "ffffffff00000000000000100000000200000000000000000038020000000003"
      "00300000ffffffffffffffff0000000000190010800008060011223344550000"
      "00000010000000020000000000000000002800000000000100200000ffffffff"
      "ffffffff00000000000000100000000300000000000000000048030000000004"
      "0020000000000001ffffffff0000000000000010000000010000000000000000"
      "0020000000000002000000010000000000000010000000020000000000000000",
      "\n" " group_id=2,type=select,bucket=weight:10,actions=output:1,bucket=weight:20,actions=output:2\n" " group_id=3,type=indirect,bucket=actions=set_field:00:11:22:33:44:55->eth_src,output:2\n" " group_id=1,type=all,bucket=actions=output:3\n" " group_id=4,type=ff,bucket=watch_port:1,actions=output:1,bucket=watch_port:2,watch_group:1,actions=output:2" },
    { "0413011000000006000600000000000000480000000000020000000000000000"
      "00000000000000000000000000000000000000011471c3c00000000000000000"
      "0000000000000000000000000000000000000000000000000038000000000003"
      "0000000000000000000000000000000000000000000000000000000106cb8080"
      "0000000000000000000000000000000000380000000000010000000000000000"
      "0000000000000000000000000000000000000001222749400000000000000000"
      "0000000000000000004800000000000400000000000000000000000000000000"
      "000000000000000000000000346479c000000000000000000000000000000000"
      "00000000000000000000000000000000",
      "\n" " group_id=2,duration=1.343s,ref_count=0,packet_count=0,byte_count=0,bucket0:packet_count=0,byte_count=0,bucket1:packet_count=0,byte_count=0\n" " group_id=3,duration=1.114s,ref_count=0,packet_count=0,byte_count=0,bucket0:packet_count=0,byte_count=0\n" " group_id=1,duration=1.573s,ref_count=0,packet_count=0,byte_count=0,bucket0:packet_count=0,byte_count=0\n" " group_id=4,duration=0.879s,ref_count=0,packet_count=0,byte_count=0,bucket0:packet_count=0,byte_count=0,bucket1:packet_count=0,byte_count=0" },
    { "04120018000000060006000000000000fffffffc00000000",
      " group_id=ALL" },
    { "04120010000000020008000000000000",
      "" },
    { "041300380000000200080000000000000000000f00000007ffffff00ffffff00"
      "ffffff00ffffff0003ff800103ff800103ff800103ff8001",
      "\n" " Group table:\n" "    Types:  0xf\n" "    Capabilities:  0x7\n" "    all group:\n" "       max_groups=0xffffff00\n" "       actions: output group set_field strip_vlan push_vlan mod_nw_ttl dec_ttl set_mpls_ttl dec_mpls_ttl push_mpls pop_mpls set_queue\n" "    select group:\n" "       max_groups=0xffffff00\n" "       actions: output group set_field strip_vlan push_vlan mod_nw_ttl dec_ttl set_mpls_ttl dec_mpls_ttl push_mpls pop_mpls set_queue\n" "    indirect group:\n" "       max_groups=0xffffff00\n" "       actions: output group set_field strip_vlan push_vlan mod_nw_ttl dec_ttl set_mpls_ttl dec_mpls_ttl push_mpls pop_mpls set_queue\n" "    fast failover group:\n" "       max_groups=0xffffff00\n" "       actions: output group set_field strip_vlan push_vlan mod_nw_ttl dec_ttl set_mpls_ttl dec_mpls_ttl push_mpls pop_mpls set_queue" },
    { "040f0010000000060002000000000002",
      "\n" " DEL group_id=2,type=all" },
    { "040f00100000000600020000fffffffc",
      "\n" " DEL group_id=4294967292,type=all" },
    { "060f004800000006000000000000000100300000ffffffff0018001000000000"
      "0000001000000001000000000000000000180010000000010000001000000002"
      "0000000000000000",
      "\n" " ADD group_id=1,type=all,bucket=bucket_id:0,actions=output:1,bucket=bucket_id:1,actions=output:2" },
    { "060f005800000006000001000000000200400000ffffffff0020001000000000"
      "0000001000000001000000000000000000000008000a00000020001000000001"
      "000000100000000200000000000000000000000800140000",
      "\n" " ADD group_id=2,type=select,bucket=bucket_id:0,weight:10,actions=output:1,bucket=bucket_id:1,weight:20,actions=output:2" },
    { "060f004000000006000002000000000300280000ffffffff0028002000000000"
      "0019001080000806001122334455000000000010000000020000000000000000",
      "\n" " ADD group_id=3,type=indirect,bucket=bucket_id:0,actions=set_field:00:11:22:33:44:55->eth_src,output:2" },
    { "060f006000000006000003000000000400480000ffffffff0020001000000000"
      "0000001000000001000000000000000000010008000000010028001000000001"
      "0000001000000002000000000000000000010008000000020002000800000001",
      "\n" " ADD group_id=4,type=ff,bucket=bucket_id:0,watch_port:1,actions=output:1,bucket=bucket_id:1,watch_port:2,watch_group:1,actions=output:2" },
    { "060f003000000006000100000000000100180000ffffffff0018001000000000"
      "00000010000000030000000000000000",
      "\n" " MOD group_id=1,type=all,bucket=bucket_id:0,actions=output:3" },
    { "0613011800000002000700000000000000380200000000030028000000000000"
      "0028002000000000001900108000080600112233445500000000001000000002"
      "0000000000000000002800000000000100180000000000000018001000000000"
      "0000001000000003000000000000000000500100000000020040000000000000"
      "00200010000000000000001000000001000000000000000000000008000a0000"
      "0020001000000001000000100000000200000000000000000000000800140000"
      "0058030000000004004800000000000000200010000000000000001000000001"
      "0000000000000000000100080000000100280010000000010000001000000002"
      "000000000000000000010008000000020002000800000001",
      "\n" " group_id=3,type=indirect,bucket=bucket_id:0,actions=set_field:00:11:22:33:44:55->eth_src,output:2\n" " group_id=1,type=all,bucket=bucket_id:0,actions=output:3\n" " group_id=2,type=select,bucket=bucket_id:0,weight:10,actions=output:1,bucket=bucket_id:1,weight:20,actions=output:2\n" " group_id=4,type=ff,bucket=bucket_id:0,watch_port:1,actions=output:1,bucket=bucket_id:1,watch_port:2,watch_group:1,actions=output:2" },
    { "06120018000000020007000000000000fffffffc00000000",
      " group_id=ALL" },
    { "0613006000000002000700000000000000500100000000020040000000000000"
      "00200010000000000000001000000001000000000000000000000008000a0000"
      "0020001000000001000000100000000200000000000000000000000800140000",
      "\n" " group_id=2,type=select,bucket=bucket_id:0,weight:10,actions=output:1,bucket=bucket_id:1,weight:20,actions=output:2" },
    { "061200180000000200070000000000000000000200000000",
      " group_id=2" },
    { "0613011000000006000600000000000000380000000000030000000000000000"
      "000000000000000000000000000000000000000105b8d8000000000000000000"
      "0000000000000000003800000000000100000000000000000000000000000000"
      "000000000000000000000001205d85c000000000000000000000000000000000"
      "0048000000000002000000000000000000000000000000000000000000000000"
      "0000000113038dc0000000000000000000000000000000000000000000000000"
      "0000000000000000004800000000000400000000000000000000000000000000"
      "00000000000000000000000033cbe34000000000000000000000000000000000"
      "00000000000000000000000000000000",
      "\n" " group_id=3,duration=1.096s,ref_count=0,packet_count=0,byte_count=0,bucket0:packet_count=0,byte_count=0\n" " group_id=1,duration=1.543s,ref_count=0,packet_count=0,byte_count=0,bucket0:packet_count=0,byte_count=0\n" " group_id=2,duration=1.319s,ref_count=0,packet_count=0,byte_count=0,bucket0:packet_count=0,byte_count=0,bucket1:packet_count=0,byte_count=0\n" " group_id=4,duration=0.869s,ref_count=0,packet_count=0,byte_count=0,bucket0:packet_count=0,byte_count=0,bucket1:packet_count=0,byte_count=0" },
    { "06120018000000060006000000000000fffffffc00000000",
      " group_id=ALL" },
    { "061300380000000200080000000000000000000f00000007ffffff00ffffff00"
      "ffffff00ffffff0003ff800103ff800103ff800103ff8001",
      "\n" " Group table:\n" "    Types:  0xf\n" "    Capabilities:  0x7\n" "    all group:\n" "       max_groups=0xffffff00\n" "       actions: output group set_field strip_vlan push_vlan mod_nw_ttl dec_ttl set_mpls_ttl dec_mpls_ttl push_mpls pop_mpls set_queue\n" "    select group:\n" "       max_groups=0xffffff00\n" "       actions: output group set_field strip_vlan push_vlan mod_nw_ttl dec_ttl set_mpls_ttl dec_mpls_ttl push_mpls pop_mpls set_queue\n" "    indirect group:\n" "       max_groups=0xffffff00\n" "       actions: output group set_field strip_vlan push_vlan mod_nw_ttl dec_ttl set_mpls_ttl dec_mpls_ttl push_mpls pop_mpls set_queue\n" "    fast failover group:\n" "       max_groups=0xffffff00\n" "       actions: output group set_field strip_vlan push_vlan mod_nw_ttl dec_ttl set_mpls_ttl dec_mpls_ttl push_mpls pop_mpls set_queue" },
    { "06120010000000020008000000000000",
      "" },
    { "060f001800000006000200000000000200000000ffffffff",
      "\n" " DEL group_id=2,type=all" },
    { "060f00180000000600020000fffffffc00000000ffffffff",
      "\n" " DEL group_id=4294967292,type=all" },
    { "0104003000000006000023200000001f000000000000000100100000ffffffff"
      "00100008000000000000000800010000",
      "\n" " ADD group_id=1,type=all,bucket=bucket_id:0,actions=output:1" },
};

static const struct {
    enum ofp_version version;
    int command;
    const char *text;
    const char *hex;
} parse_cases[] = {
    { OFP11_VERSION, OFPGC11_ADD, "group_id=1,type=all,bucket=output:1,bucket=output:2",
      "020f005000000006000000000000000100200000ffffffffffffffff00000000"
      "0000001000000001000000000000000000200000ffffffffffffffff00000000"
      "00000010000000020000000000000000" },
    { OFP11_VERSION, OFPGC11_ADD, "group_id=2,type=select,bucket=weight:10,actions=output:1,bucket=weight:20,actions=output:2",
      "020f00500000000600000100000000020020000affffffffffffffff00000000"
      "0000001000000001000000000000000000200014ffffffffffffffff00000000"
      "00000010000000020000000000000000" },
    { OFP11_VERSION, OFPGC11_ADD, "group_id=3,type=indirect,bucket=actions=mod_dl_src:00:11:22:33:44:55,output:2",
      "020f004000000006000002000000000300300000ffffffffffffffff00000000"
      "0003001000112233445500000000000000000010000000020000000000000000" },
    { OFP11_VERSION, OFPGC11_ADD, "group_id=4,type=ff,bucket=watch_port:1,actions=output:1,bucket=watch_port:2,watch_group:1,actions=output:2",
      "020f00500000000600000300000000040020000000000001ffffffff00000000"
      "0000001000000001000000000000000000200000000000020000000100000000"
      "00000010000000020000000000000000" },
    { OFP11_VERSION, OFPGC11_MODIFY, "group_id=1,type=all,bucket=output:3",
      "020f003000000006000100000000000100200000ffffffffffffffff00000000"
      "00000010000000030000000000000000" },
    { OFP11_VERSION, OFPGC11_DELETE, "group_id=2",
      "020f0010000000060002000000000002" },
    { OFP11_VERSION, OFPGC11_DELETE, "",
      "020f00100000000600020000fffffffc" },
    { OFP13_VERSION, OFPGC11_ADD, "group_id=1,type=all,bucket=output:1,bucket=output:2",
      "040f005000000006000000000000000100200000ffffffffffffffff00000000"
      "0000001000000001000000000000000000200000ffffffffffffffff00000000"
      "00000010000000020000000000000000" },
    { OFP13_VERSION, OFPGC11_ADD, "group_id=2,type=select,bucket=weight:10,actions=output:1,bucket=weight:20,actions=output:2",
      "040f00500000000600000100000000020020000affffffffffffffff00000000"
      "0000001000000001000000000000000000200014ffffffffffffffff00000000"
      "00000010000000020000000000000000" },
    { OFP13_VERSION, OFPGC11_ADD, "group_id=3,type=indirect,bucket=actions=mod_dl_src:00:11:22:33:44:55,output:2",
      "040f004000000006000002000000000300300000ffffffffffffffff00000000"
      "0019001080000806001122334455000000000010000000020000000000000000" },
    { OFP13_VERSION, OFPGC11_ADD, "group_id=4,type=ff,bucket=watch_port:1,actions=output:1,bucket=watch_port:2,watch_group:1,actions=output:2",
      "040f00500000000600000300000000040020000000000001ffffffff00000000"
      "0000001000000001000000000000000000200000000000020000000100000000"
      "00000010000000020000000000000000" },
    { OFP13_VERSION, OFPGC11_MODIFY, "group_id=1,type=all,bucket=output:3",
      "040f003000000006000100000000000100200000ffffffffffffffff00000000"
      "00000010000000030000000000000000" },
    { OFP13_VERSION, OFPGC11_DELETE, "group_id=2",
      "040f0010000000060002000000000002" },
    { OFP13_VERSION, OFPGC11_DELETE, "",
      "040f00100000000600020000fffffffc" },
    { OFP15_VERSION, OFPGC11_ADD, "group_id=1,type=all,bucket=output:1,bucket=output:2",
      "060f004800000006000000000000000100300000ffffffff0018001000000000"
      "0000001000000001000000000000000000180010000000010000001000000002"
      "0000000000000000" },
    { OFP15_VERSION, OFPGC11_ADD, "group_id=2,type=select,bucket=weight:10,actions=output:1,bucket=weight:20,actions=output:2",
      "060f005800000006000001000000000200400000ffffffff0020001000000000"
      "0000001000000001000000000000000000000008000a00000020001000000001"
      "000000100000000200000000000000000000000800140000" },
    { OFP15_VERSION, OFPGC11_ADD, "group_id=3,type=indirect,bucket=actions=mod_dl_src:00:11:22:33:44:55,output:2",
      "060f004000000006000002000000000300280000ffffffff0028002000000000"
      "0019001080000806001122334455000000000010000000020000000000000000" },
    { OFP15_VERSION, OFPGC11_ADD, "group_id=4,type=ff,bucket=watch_port:1,actions=output:1,bucket=watch_port:2,watch_group:1,actions=output:2",
      "060f006000000006000003000000000400480000ffffffff0020001000000000"
      "0000001000000001000000000000000000010008000000010028001000000001"
      "0000001000000002000000000000000000010008000000020002000800000001" },
    { OFP15_VERSION, OFPGC11_MODIFY, "group_id=1,type=all,bucket=output:3",
      "060f003000000006000100000000000100180000ffffffff0018001000000000"
      "00000010000000030000000000000000" },
    { OFP15_VERSION, OFPGC11_DELETE, "group_id=2",
      "060f001800000006000200000000000200000000ffffffff" },
    { OFP15_VERSION, OFPGC11_DELETE, "",
      "060f00180000000600020000fffffffc00000000ffffffff" },
    { OFP10_VERSION, OFPGC11_ADD, "group_id=1,type=all,bucket=output:1",
      "0104003000000006000023200000001f000000000000000100100000ffffffff"
      "00100008000000000000000800010000" },
    /* The selection method: Netronome's property after the buckets, its
     * fields as OXM (1.5) or NXM (1.0) headers with masks, in field order
     * (as 3.1's ovs-ofctl sends them). */
    { OFP15_VERSION, OFPGC11_ADD, "group_id=1,type=select,"
      "selection_method=hash,selection_method_param=7,"
      "fields(eth_dst,ip_dst=255.255.0.0,tcp_dst),bucket=output:10",
      "060f007800000006000001000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000ffff00400000154d"
      "0000000100000000686173680000000000000000000000000000000000000007"
      "80000606ffffffffffff80001804ffff000080001c02ffff" },
    { OFP10_VERSION, OFPGC11_ADD, "group_id=1,type=select,"
      "selection_method=hash,fields(eth_dst,ip_dst=255.255.0.0,tcp_dst,"
      "reg0),bucket=output:10",
      "0104008000000006000023200000001f000001000000000100180000ffffffff"
      "001800080000000000000008000a00000000000800010000ffff00480000154d"
      "0000000100000000686173680000000000000000000000000000000000000000"
      "00010004ffffffff00000206ffffffffffff00001004ffff000000001402ffff" },
    { OFP15_VERSION, OFPGC11_ADD, "group_id=1,type=select,"
      "selection_method=hash,fields(reg0,tun_id),bucket=output:10",
      "060f007800000006000001000000000100200000ffffffff0020001000000000"
      "000000100000000a00000000000000000000000800010000ffff003c0000154d"
      "0000000100000000686173680000000000000000000000000000000000000000"
      "80004c08ffffffffffffffff00010004ffffffff00000000" },
    /* 1.3 cannot say it. */
    { OFP13_VERSION, OFPGC11_ADD, "group_id=1,type=select,"
      "selection_method=dp_hash,bucket=output:1",
      "040f003000000006000001000000000100200001ffffffffffffffff00000000"
      "00000010000000010000000000000000" },
};

/* Text 3.1 refuses, with its message. */
static const struct {
    int command;
    const char *text;
    const char *error;
} parse_errors[] = {
    { OFPGC11_ADD, "type=all,bucket=output:1", "must specify a group_id" },
    { OFPGC11_ADD, "group_id=1,bucket=output:1", "must specify a type" },
    { OFPGC11_ADD, "group_id=1,type=foo,bucket=output:1",
      "invalid group type foo" },
    { OFPGC11_ADD, "group_id=x,type=all", "invalid numeric format x" },
    { OFPGC11_ADD, "group_id=1,type=all,foo=2", "unknown keyword foo" },
    { OFPGC11_ADD, "group_id=1,type=all,bucket=weight:5,output:1",
      "Only select groups can have bucket weights." },
    { OFPGC11_ADD, "group_id=1,type=indirect,bucket=output:1,"
      "bucket=output:2", "Indirect groups can have at most one bucket." },
    { OFPGC11_ADD, "group_id=1,type=all,bucket=bogus",
      "unknown action bogus" },
    { OFPGC11_ADD, "group_id=4294967290,type=all",
      "invalid group id 4294967290" },
    { OFPGC11_ADD, "group_id=1,type=all,bucket=watch_port:xyz,output:1",
      "xyz: invalid watch_port" },
    { OFPGC11_ADD, "group_id=1,type=all,bucket=watch_group:x,output:1",
      "invalid numeric format x" },
    { OFPGC11_ADD, "group_id=1,type=all,bucket=weight:x,output:1",
      "invalid weight \"x\"" },
    { OFPGC11_DELETE, "group_id=1,type=all", "type is not needed" },
    { OFPGC11_DELETE, "group_id=1,bucket=output:1", "bucket is not needed" },
    { OFPGC11_ADD, "group_id=1,type=all,command_bucket_id=1",
      "command bucket id is not needed" },
    { OFPGC15_INSERT_BUCKET, "group_id=1,type=all,command_bucket_id=last,"
      "bucket=output:1", "type is not needed" },
    { OFPGC15_INSERT_BUCKET, "group_id=1,bucket=output:1",
      "must specify a command bucket id" },
    { OFPGC15_INSERT_BUCKET, "group_id=1,command_bucket_id=all,"
      "bucket=output:1", "command_bucket_id=all is not permitted" },
    { OFPGC15_INSERT_BUCKET, "command_bucket_id=last,bucket=output:1",
      "must specify a group_id" },
    { OFPGC15_INSERT_BUCKET, "group_id=1,command_bucket_id=x",
      "invalid numeric format x" },
    { OFPGC15_REMOVE_BUCKET, "group_id=1,bucket=output:1",
      "bucket is not needed" },
    { OFPGC15_REMOVE_BUCKET, "group_id=1,type=all", "type is not needed" },
    { OFPGC11_ADD, "group_id=1,type=select,selection_method=hash,"
      "fields(foo),bucket=output:10", ": unknown field foo" },
    { OFPGC11_ADD, "group_id=1,type=select,selection_method=hash,"
      "fields(in_port=1),bucket=output:10",
      "1: invalid mask for field in_port" },
    { OFPGC11_ADD, "group_id=1,type=select,selection_method=hash,"
      "fields(eth_dst,eth_dst),bucket=output:10", "eth_dst: duplicate field" },
    { OFPGC11_ADD, "group_id=1,type=select,selection_method=hash,"
      "fields(ip_dst=1.2.3.4/8),bucket=output:10",
      "1.2.3.4/8: wildcards not allowed here" },
    { OFPGC11_ADD, "group_id=1,type=select,selection_method=hash,"
      "fields(eth_dst=foo),bucket=output:10",
      "foo: invalid Ethernet address" },
    { OFPGC11_ADD, "group_id=1,type=select,selection_method=dp_hash,"
      "fields(eth_dst),bucket=output:10",
      "fields may only be specified with \"selection_method=hash\"" },
    { OFPGC11_ADD, "group_id=1,type=select,selection_method_param=5,"
      "bucket=output:10",
      "selection_method_param is only allowed with \"selection_method\"" },
    { OFPGC11_ADD, "group_id=1,type=select,"
      "selection_method=abcdefghijklmnop,bucket=output:10",
      "selection method is longer than 15 bytes long" },
    { OFPGC15_INSERT_BUCKET, "group_id=1234,command_bucket_id=123,"
      "selection_method=dp_hash,bucket=output:0",
      "selection method is not needed" },
    { OFPGC15_INSERT_BUCKET, "group_id=1234,command_bucket_id=0xffffff01,"
      "bucket=output:0", "invalid command bucket id 4294967041" },
    { OFPGC11_ADD, "group_id", "missing required numeric argument" },
    { OFPGC11_ADD, "group_id=1,type=all,bucket=bucket_id:0xffffff01,output:1",
      "invalid bucket_id id 4294967041" },
    { OFPGC11_ADD, "group_id=1,type=all,bucket=weight,output:1",
      "invalid weight \"\"" },
    { OFPGC11_ADD, "group_id=1,type=all,bucket=watch_port:LOCAL,output:1",
      "LOCAL: invalid watch_port" },
    { OFPGC11_ADD, "group_id=1,type=all,bucket=watch_group:1",
      "bucket must specify actions" },
    { OFPGC11_ADD, "group_id=1,type=ff,bucket=output:1",
      "fast failover bucket requires watch_port or watch_group" },
};

/* The bucket ids of GM's buckets, in order, as "1 5 2". */
static char *
bucket_ids(const struct ofputil_group_mod *gm)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    const struct ofputil_bucket *b;
    LIST_FOR_EACH (b, list_node, &gm->buckets) {
        ds_put_format(&s, "%s%"PRIu32, s.length ? " " : "", b->bucket_id);
    }
    return ds_steal_cstr(&s);
}

static char *
print_message(const struct ofp_header *oh)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    enum ofptype type;
    enum ofperr error = ofptype_decode(&type, oh);
    if (!error) {
        switch (type) {
        case OFPTYPE_GROUP_MOD:
            error = ofputil_group_mod_print(&s, oh, NULL);
            break;
        case OFPTYPE_GROUP_STATS_REQUEST:
        case OFPTYPE_GROUP_DESC_STATS_REQUEST:
        case OFPTYPE_GROUP_FEATURES_STATS_REQUEST:
            error = ofputil_group_request_print(&s, oh);
            break;
        case OFPTYPE_GROUP_DESC_STATS_REPLY:
            error = ofputil_group_desc_print(&s, oh, NULL);
            break;
        case OFPTYPE_GROUP_STATS_REPLY:
            error = ofputil_group_stats_print(&s, oh);
            break;
        case OFPTYPE_GROUP_FEATURES_STATS_REPLY:
            error = ofputil_group_features_print(&s, oh);
            break;
        default:
            ck_abort_msg("unexpected type %d", (int) type);
        }
    }
    if (error) {
        ds_clear(&s);
        ds_put_format(&s, "ERR %s", ofperr_get_name(error));
    }
    return ds_steal_cstr(&s);
}

static struct ofpbuf *
request_for(const struct ofp_header *reply, enum ofptype type)
{
    enum ofpraw raw;
    switch (type) {
    case OFPTYPE_GROUP_DESC_STATS_REPLY:
        raw = (reply->version >= OFP15_VERSION
               ? OFPRAW_OFPST15_GROUP_DESC_REQUEST
               : OFPRAW_OFPST11_GROUP_DESC_REQUEST);
        break;
    case OFPTYPE_GROUP_STATS_REPLY:
        raw = OFPRAW_OFPST11_GROUP_REQUEST;
        break;
    default:
        raw = OFPRAW_OFPST12_GROUP_FEATURES_REQUEST;
        break;
    }
    return ofpraw_alloc_xid(raw, reply->version, reply->xid, 0);
}

static struct ofpbuf *
single_part(struct ovs_list *replies)
{
    ck_assert_uint_eq(ovs_list_size(replies), 1);
    return CONTAINER_OF(ovs_list_pop_front(replies), struct ofpbuf,
                        list_node);
}

static struct ofpbuf *
reencode(const struct ofp_header *oh)
{
    enum ofptype type;
    ck_assert_int_eq(ofptype_decode(&type, oh), 0);
    struct ofpbuf *msg = NULL;
    uint32_t group_id;
    switch (type) {
    case OFPTYPE_GROUP_MOD: {
        struct ofputil_group_mod gm;
        ck_assert_int_eq(ofputil_decode_group_mod(oh, &gm), 0);
        msg = ofputil_encode_group_mod(oh->version, &gm);
        ofputil_uninit_group_mod(&gm);
        break;
    }
    case OFPTYPE_GROUP_DESC_STATS_REQUEST:
        ck_assert_int_eq(ofputil_decode_group_desc_request(oh, &group_id), 0);
        msg = ofputil_encode_group_desc_request(oh->version, group_id);
        break;
    case OFPTYPE_GROUP_STATS_REQUEST:
        ck_assert_int_eq(ofputil_decode_group_stats_request(oh, &group_id),
                         0);
        msg = ofputil_encode_group_stats_request(oh->version, group_id);
        break;
    case OFPTYPE_GROUP_FEATURES_STATS_REQUEST:
        msg = ofputil_encode_group_features_request(oh->version);
        break;
    case OFPTYPE_GROUP_DESC_STATS_REPLY:
    case OFPTYPE_GROUP_STATS_REPLY: {
        struct ofpbuf *request = request_for(oh, type);
        struct ovs_list replies;
        ofpmp_init(&replies, request->data);
        struct ofpbuf b;
        ofpbuf_use_const(&b, oh, ntohs(oh->length));
        for (;;) {
            int retval;
            if (type == OFPTYPE_GROUP_DESC_STATS_REPLY) {
                struct ofputil_group_desc gd;
                retval = ofputil_decode_group_desc_reply(&gd, &b,
                                                         oh->version);
                if (!retval) {
                    ofputil_append_group_desc_reply(&gd, &gd.buckets,
                                                    &replies);
                    ofputil_uninit_group_desc(&gd);
                }
            } else {
                struct ofputil_group_stats gs;
                retval = ofputil_decode_group_stats_reply(&b, &gs);
                if (!retval) {
                    ofputil_append_group_stats(&replies, &gs);
                    free(gs.bucket_stats);
                }
            }
            if (retval == EOF) {
                break;
            }
            ck_assert_int_eq(retval, 0);
        }
        msg = single_part(&replies);
        ofpbuf_delete(request);
        break;
    }
    case OFPTYPE_GROUP_FEATURES_STATS_REPLY: {
        struct ofputil_group_features gf;
        ck_assert_int_eq(ofputil_decode_group_features_reply(oh, &gf), 0);
        struct ofpbuf *request = request_for(oh, type);
        msg = ofputil_encode_group_features_reply(&gf, request->data);
        ofpbuf_delete(request);
        break;
    }
    default:
        ck_abort_msg("unexpected type %d", (int) type);
    }
    ((struct ofp_header *) msg->data)->xid = oh->xid;
    return msg;
}

static void
check_bytes(const struct ofpbuf *msg, const void *want_data, size_t n)
{
    char *want = check_hex(want_data, n);
    char *got = check_hex(msg->data, msg->size);
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
}

START_TEST(test_messages)
{
    struct ofpbuf b;
    ofpbuf_init(&b, 0);
    ofpbuf_put_hex(&b, cases[_i].hex, NULL);
    const struct ofp_header *oh = b.data;
    ck_assert_uint_eq(ntohs(oh->length), b.size);
    char *text = print_message(oh);
    ck_assert_str_eq(text, cases[_i].text);
    if (strncmp(text, "ERR", 3)) {
        struct ofpbuf *msg = reencode(oh);
        check_bytes(msg, oh, b.size);
        ofpbuf_delete(msg);
    }
    free(text);
    ofpbuf_uninit(&b);
}
END_TEST

START_TEST(test_parse)
{
    struct ofputil_group_mod gm;
    enum ofputil_protocol usable;
    char *error = parse_ofp_group_mod_str(&gm, parse_cases[_i].command,
                                          parse_cases[_i].text, NULL,
                                          &usable);
    ck_assert_msg(!error, "%s", error);
    struct ofpbuf *msg = ofputil_encode_group_mod(parse_cases[_i].version,
                                                  &gm);
    ((struct ofp_header *) msg->data)->xid = htonl(6);
    struct ofpbuf want;
    ofpbuf_init(&want, 0);
    ofpbuf_put_hex(&want, parse_cases[_i].hex, NULL);
    check_bytes(msg, want.data, want.size);
    ofpbuf_uninit(&want);
    ofpbuf_delete(msg);
    ofputil_uninit_group_mod(&gm);
}
END_TEST

START_TEST(test_parse_errors)
{
    struct ofputil_group_mod gm;
    enum ofputil_protocol usable;
    char *error = parse_ofp_group_mod_str(&gm, parse_errors[_i].command,
                                          parse_errors[_i].text, NULL,
                                          &usable);
    ck_assert(error != NULL);
    ck_assert_str_eq(error, parse_errors[_i].error);
    ck_assert(ovs_list_is_empty(&gm.buckets));
    free(error);
}
END_TEST

/* insert-buckets and remove-buckets text: the command bucket id, the
 * protocols (1.5, or Nicira's in 1.0; an insert also 1.1-1.4, which 3.1's
 * ovs-ofctl refuses when encoding), and 1.5's bytes decode back. */
START_TEST(test_parse_bucket_commands)
{
    struct ofputil_group_mod gm;
    enum ofputil_protocol usable;
    char *error = parse_ofp_group_mod_str(
        &gm, OFPGC15_INSERT_BUCKET,
        "group_id=20,command_bucket_id=last,bucket=bucket_id=2,weight=3,"
        "output:3,bucket=output:1", NULL, &usable);
    ck_assert_msg(!error, "%s", error);
    ck_assert_uint_eq(gm.command_bucket_id, OFPG15_BUCKET_LAST);
    ck_assert_uint_eq(usable, OFPUTIL_P_OF11_UP | OFPUTIL_P_OF10_ANY);
    char *ids = bucket_ids(&gm);
    ck_assert_str_eq(ids, "2 0");
    free(ids);

    struct ofpbuf *msg = ofputil_encode_group_mod(OFP15_VERSION, &gm);
    struct ofputil_group_mod back;
    ck_assert_int_eq(ofputil_decode_group_mod(msg->data, &back), 0);
    ck_assert_uint_eq(back.command, OFPGC15_INSERT_BUCKET);
    ck_assert_uint_eq(back.group_id, 20);
    ck_assert_uint_eq(back.command_bucket_id, OFPG15_BUCKET_LAST);
    const struct ofputil_bucket *b = CONTAINER_OF(
        ovs_list_front(&back.buckets), struct ofputil_bucket, list_node);
    ck_assert_uint_eq(b->weight, 3);
    b = CONTAINER_OF(ovs_list_back(&back.buckets), struct ofputil_bucket,
                     list_node);
    ck_assert_uint_eq(b->bucket_id, 0);
    ofputil_uninit_group_mod(&back);
    ofpbuf_delete(msg);
    ofputil_uninit_group_mod(&gm);

    error = parse_ofp_group_mod_str(&gm, OFPGC15_REMOVE_BUCKET,
                                    "group_id=20", NULL, &usable);
    ck_assert_msg(!error, "%s", error);
    ck_assert_uint_eq(gm.command_bucket_id, OFPG15_BUCKET_ALL);
    ck_assert_uint_eq(usable, OFPUTIL_P_OF15_UP | OFPUTIL_P_OF10_ANY);
    ofputil_uninit_group_mod(&gm);

    error = parse_ofp_group_mod_str(&gm, OFPGC15_REMOVE_BUCKET,
                                    "group_id=20,command_bucket_id=7",
                                    NULL, &usable);
    ck_assert_msg(!error, "%s", error);
    ck_assert_uint_eq(gm.command_bucket_id, 7);
    ofputil_uninit_group_mod(&gm);
}
END_TEST

/* Buckets without an id are numbered as 3.1 numbers them: in order from
 * 0, skipping the ids that later buckets name; "=" works as ":" after a
 * bucket's keys.  1.5 buckets with the same id are OFPGMFC_BAD_BUCKET. */
START_TEST(test_bucket_ids)
{
    static const struct {
        const char *text;
        const char *ids;
    } id_cases[] = {
        { "group_id=1,type=all,bucket=output:1,bucket=output:2", "0 1" },
        { "group_id=1,type=all,bucket=output:1,bucket=bucket_id=5,output:2,"
          "bucket=output:3,bucket=bucket_id:0,output:1", "1 5 2 0" },
        { "group_id=1,type=all,bucket=bucket_id=8,output:1,bucket=output:2",
          "8 0" },
        { "group_id=1,type=all,bucket=bucket_id=1,output:1,bucket=output:2,"
          "bucket=output:3", "1 0 1" },
        { "group_id=1,type=all,bucket=output:1,bucket=bucket_id:0,output:2,"
          "bucket=output:3", "1 0 2" },
        { "group_id=1,type=all,bucket=output:1,bucket=bucket_id:1,output:2,"
          "bucket=output:3,bucket=bucket_id:0,output:4", "2 1 3 0" },
        { "group_id=1,type=all,bucket=output:1,bucket=output:2,"
          "bucket=output:3,bucket=bucket_id:1,output:4", "0 2 3 1" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(id_cases); i++) {
        struct ofputil_group_mod gm;
        enum ofputil_protocol usable;
        char *error = parse_ofp_group_mod_str(&gm, OFPGC11_ADD,
                                              id_cases[i].text, NULL,
                                              &usable);
        ck_assert_msg(!error, "%s", error);
        char *ids = bucket_ids(&gm);
        ck_assert_str_eq(ids, id_cases[i].ids);
        free(ids);

        struct ofpbuf *msg = ofputil_encode_group_mod(OFP15_VERSION, &gm);
        struct ofputil_group_mod back;
        ck_assert_int_eq(ofputil_decode_group_mod(msg->data, &back),
                         i == 3 ? OFPERR_OFPGMFC_BAD_BUCKET : 0);
        ck_assert(i == 3 || ovs_list_size(&back.buckets)
                            == ovs_list_size(&gm.buckets));
        ofputil_uninit_group_mod(&back);
        ofpbuf_delete(msg);
        ofputil_uninit_group_mod(&gm);
    }
}
END_TEST

/* Malformed group_mods get 3.1's errors; truncations of every message
 * decode or fail cleanly. */
START_TEST(test_malformed)
{
    static const struct group_case bad[] = {
        { "040f0010000000060000040000000001", "ERR OFPGMFC_BAD_TYPE" },
        { "040f0010000000060009000000000001", "ERR OFPGMFC_BAD_COMMAND" },
        { "040f0010000000060000020000000001", "ERR OFPGMFC_INVALID_GROUP" },
        { "040f002000000006000003000000000100100000ffffffffffffffff00000000",
          "ERR OFPGMFC_INVALID_GROUP" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        struct ofpbuf b;
        ofpbuf_init(&b, 0);
        ofpbuf_put_hex(&b, bad[i].hex, NULL);
        char *text = print_message(b.data);
        ck_assert_str_eq(text, bad[i].text);
        free(text);
        ofpbuf_uninit(&b);
    }
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct ofpbuf full;
        ofpbuf_init(&full, 0);
        ofpbuf_put_hex(&full, cases[i].hex, NULL);
        for (size_t n = sizeof(struct ofp_header); n < full.size; n++) {
            struct ofp_header *copy = xmemdup(full.data, n);
            copy->length = htons(n);
            enum ofptype type;
            if (!ofptype_decode(&type, copy)) {
                free(print_message(copy));
            }
            free(copy);
        }
        ofpbuf_uninit(&full);
    }
}
END_TEST

/* The command words of add-groups and bundle files, prefixes included. */
START_TEST(test_command_words)
{
    static const struct {
        const char *text;
        int command;
        const char *rest;
    } words[] = {
        { "add group_id=1", OFPGC11_ADD, " group_id=1" },
        { "a group_id=1", OFPGC11_ADD, " group_id=1" },
        { "  del group_id=1", OFPGC11_DELETE, " group_id=1" },
        { "delete", OFPGC11_DELETE, "" },
        { "mod,group_id=1", OFPGC11_MODIFY, ",group_id=1" },
        { "add_or_mod group_id=1", OFPGC_ADD_OR_MOD, " group_id=1" },
        { "ins group_id=1", OFPGC15_INSERT_BUCKET, " group_id=1" },
        { "remove_bucket group_id=1", OFPGC15_REMOVE_BUCKET, " group_id=1" },
        { "group_id=1,type=all", OFPGC11_ADD, "group_id=1,type=all" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
        const char *s = words[i].text;
        ck_assert_int_eq(parse_ofp_group_mod_command(&s), words[i].command);
        ck_assert_str_eq(s, words[i].rest);
    }
}
END_TEST

/* Requestforward: 3.1's bytes for a forwarded add, and what it makes of
 * the group_mods a version cannot say (add_or_mod as an add, a bucket
 * command to 1.1-1.4 as a modify to the group as it is now). */
START_TEST(test_requestforward)
{
    struct ofputil_group_mod gm;
    enum ofputil_protocol usable;
    char *error = parse_ofp_group_mod_str(&gm, OFPGC11_ADD,
                                          "group_id=1,type=all", NULL,
                                          &usable);
    ck_assert_msg(!error, "%s", error);
    struct ofputil_requestforward rf = {
        .xid = htonl(0x22), .reason = OFPRFR_GROUP_MOD, .group_mod = &gm,
    };
    struct ofpbuf *msg = ofputil_encode_requestforward(&rf, OFP14_VERSION);
    static const uint8_t want[] = {
        0x05, 0x20, 0x00, 0x18, 0x00, 0x00, 0x00, 0x00,
        0x05, 0x0f, 0x00, 0x10, 0x00, 0x00, 0x00, 0x22,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
    };
    check_bytes(msg, want, sizeof want);
    ofpbuf_delete(msg);
    ofputil_uninit_group_mod(&gm);

    error = parse_ofp_group_mod_str(&gm, OFPGC15_INSERT_BUCKET,
                                    "group_id=7,command_bucket_id=last,"
                                    "bucket=bucket_id:5,weight:3,output:2",
                                    NULL, &usable);
    ck_assert_msg(!error, "%s", error);
    struct ofputil_group_mod now;
    error = parse_ofp_group_mod_str(&now, OFPGC11_ADD,
                                    "group_id=7,type=select,bucket=output:1,"
                                    "bucket=bucket_id:5,weight:3,output:2",
                                    NULL, &usable);
    ck_assert_msg(!error, "%s", error);
    rf = (struct ofputil_requestforward) {
        .xid = htonl(1), .reason = OFPRFR_GROUP_MOD, .group_mod = &gm,
        .new_type = OFPGT11_SELECT, .new_buckets = &now.buckets,
    };
    static const struct {
        enum ofp_version version;
        uint16_t command;
        size_t n_buckets;
    } expect[] = {
        { OFP10_VERSION, OFPGC15_INSERT_BUCKET, 1 },
        { OFP13_VERSION, OFPGC11_MODIFY, 2 },
        { OFP14_VERSION, OFPGC11_MODIFY, 2 },
        { OFP15_VERSION, OFPGC15_INSERT_BUCKET, 1 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(expect); i++) {
        msg = ofputil_encode_requestforward(&rf, expect[i].version);
        struct ofputil_requestforward back;
        ck_assert_int_eq(ofputil_decode_requestforward(msg->data, &back), 0);
        ck_assert_uint_eq(back.reason, OFPRFR_GROUP_MOD);
        ck_assert_uint_eq(ntohl(back.xid), 1);
        ck_assert_uint_eq(back.group_mod->command, expect[i].command);
        ck_assert_uint_eq(ovs_list_size(&back.group_mod->buckets),
                          expect[i].n_buckets);
        ofputil_uninit_requestforward(&back);
        ofpbuf_delete(msg);
    }
    ofputil_uninit_group_mod(&now);
    ofputil_uninit_group_mod(&gm);

    error = parse_ofp_group_mod_str(&gm, OFPGC_ADD_OR_MOD,
                                    "group_id=8,type=all,bucket=output:1",
                                    NULL, &usable);
    ck_assert_msg(!error, "%s", error);
    rf = (struct ofputil_requestforward) {
        .xid = htonl(1), .reason = OFPRFR_GROUP_MOD, .group_mod = &gm,
    };
    msg = ofputil_encode_requestforward(&rf, OFP15_VERSION);
    struct ofputil_requestforward back;
    ck_assert_int_eq(ofputil_decode_requestforward(msg->data, &back), 0);
    ck_assert_uint_eq(back.group_mod->command, OFPGC11_ADD);
    ofputil_uninit_requestforward(&back);
    ofpbuf_delete(msg);
    ofputil_uninit_group_mod(&gm);
}
END_TEST

static Suite *
ofp_group_suite(void)
{
    Suite *s = suite_create("ofp-group");
    TCase *tc = tcase_create("ofp-group");
    tcase_add_loop_test(tc, test_messages, 0, ARRAY_SIZE(cases));
    tcase_add_loop_test(tc, test_parse, 0, ARRAY_SIZE(parse_cases));
    tcase_add_loop_test(tc, test_parse_errors, 0, ARRAY_SIZE(parse_errors));
    tcase_add_test(tc, test_malformed);
    tcase_add_test(tc, test_parse_bucket_commands);
    tcase_add_test(tc, test_bucket_ids);
    tcase_add_test(tc, test_command_words);
    tcase_add_test(tc, test_requestforward);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_group_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
