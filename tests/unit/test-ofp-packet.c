/* Unit tests for ofp-packet.h: packet_in and packet_out.
 *
 * The messages were captured from Open vSwitch 3.1's ovs-vswitchd (dummy
 * datapath) and ovs-ofctl: packet_ins from "ovs-ofctl monitor" in every
 * version and packet-in format (standard, nxt_packet_in, nxt_packet_in2)
 * for a table miss, a controller action with userdata and a controller
 * action after registers were set; packet_outs from "ovs-ofctl
 * packet-out" in 1.0, 1.1, 1.3 and 1.5.  A few more (buffered, truncated,
 * ARP, IPv6, an empty packet) were built by hand.  The text is what 3.1's
 * "ovs-ofctl ofp-print" printed after the header line, packet summary
 * included.  Re-encoding each decoded message gives back its bytes. */
#include <config.h>
#include "ofp-packet.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"
#include "dynamic-string.h"
#include "ofp-actions.h"
#include "ofp-msgs.h"
#include "ofpbuf.h"

struct pkt_case {
    const char *hex;
    const char *text;
};

static const struct pkt_case pin_cases[] = {
    { "010400b000000000000023200000001e0000006e505400000007505400000005"
      "08004500005c000000004001f94dc0a80001c0a80002080013fc000000000001"
      "02030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021"
      "22232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f0000"
      "0003000500000000000400100000000000000000000000000005000501000000"
      "0006000c800000040000000100000000",
      " cookie=0x0 total_len=106 in_port=1 (via action) data_len=106 (unbuffered)\n" "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,icmp_type=8,icmp_code=0 icmp_csum:13fc" },
    { "010400c800000000000023200000001e0000007a505400000007505400000005"
      "080045000068000000004006f93cc0a80001c0a8000200080050000000000000"
      "00005000000049f50000000102030405060708090a0b0c0d0e0f101112131415"
      "161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435"
      "363738393a3b3c3d3e3f00000000000000030005000000000004001000000000"
      "000000000000000000050005000000000006000c800000040000000200000000"
      "0007000701020300",
      " cookie=0x0 total_len=118 in_port=2 (via no_match) data_len=118 (unbuffered)\n" " userdata=01.02.03\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "010400c800000000000023200000001e0000007a505400000007505400000005"
      "080045000068000000004006f93cc0a80001c0a8000200080050000000000000"
      "00005000000049f50000000102030405060708090a0b0c0d0e0f101112131415"
      "161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435"
      "363738393a3b3c3d3e3f00000000000000030005010000000004001000000000"
      "0000000000000000000500050100000000060014800000040000000200010004"
      "0000000500000000",
      " table_id=1 cookie=0x0 total_len=118 reg0=0x5,in_port=2 (via action) data_len=118 (unbuffered)\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "010a007c00000000ffffffff006a000101005054000000075054000000050800"
      "4500005c000000004001f94dc0a80001c0a80002080013fc0000000000010203"
      "0405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223"
      "2425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f",
      " total_len=106 in_port=1 (via action) data_len=106 (unbuffered)\n" "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,icmp_type=8,icmp_code=0 icmp_csum:13fc" },
    { "010a008800000000ffffffff0076000200005054000000075054000000050800"
      "45000068000000004006f93cc0a80001c0a80002000800500000000000000000"
      "5000000049f50000000102030405060708090a0b0c0d0e0f1011121314151617"
      "18191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637"
      "38393a3b3c3d3e3f",
      " total_len=118 in_port=2 (via no_match) data_len=118 (unbuffered)\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "010a008800000000ffffffff0076000201005054000000075054000000050800"
      "45000068000000004006f93cc0a80001c0a80002000800500000000000000000"
      "5000000049f50000000102030405060708090a0b0c0d0e0f1011121314151617"
      "18191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637"
      "38393a3b3c3d3e3f",
      " total_len=118 in_port=2 (via action) data_len=118 (unbuffered)\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "030400b000000000000023200000001e0000006e505400000007505400000005"
      "08004500005c000000004001f94dc0a80001c0a80002080013fc000000000001"
      "02030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021"
      "22232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f0000"
      "0003000500000000000400100000000000000000000000000005000501000000"
      "0006000c800000040000000100000000",
      " cookie=0x0 total_len=106 in_port=1 (via action) data_len=106 (unbuffered)\n" "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,icmp_type=8,icmp_code=0 icmp_csum:13fc" },
    { "030400c800000000000023200000001e0000007a505400000007505400000005"
      "080045000068000000004006f93cc0a80001c0a8000200080050000000000000"
      "00005000000049f50000000102030405060708090a0b0c0d0e0f101112131415"
      "161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435"
      "363738393a3b3c3d3e3f00000000000000030005000000000004001000000000"
      "000000000000000000050005000000000006000c800000040000000200000000"
      "0007000701020300",
      " cookie=0x0 total_len=118 in_port=2 (via no_match) data_len=118 (unbuffered)\n" " userdata=01.02.03\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "030400c800000000000023200000001e0000007a505400000007505400000005"
      "080045000068000000004006f93cc0a80001c0a8000200080050000000000000"
      "00005000000049f50000000102030405060708090a0b0c0d0e0f101112131415"
      "161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435"
      "363738393a3b3c3d3e3f00000000000000030005010000000004001000000000"
      "0000000000000000000500050100000000060014800000040000000200010004"
      "0000000500000000",
      " table_id=1 cookie=0x0 total_len=118 reg0=0x5,in_port=2 (via action) data_len=118 (unbuffered)\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "040400b000000000000023200000001e0000006e505400000007505400000005"
      "08004500005c000000004001f94dc0a80001c0a80002080013fc000000000001"
      "02030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021"
      "22232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f0000"
      "0003000500000000000400100000000000000000000000000005000501000000"
      "0006000c800000040000000100000000",
      " cookie=0x0 total_len=106 in_port=1 (via action) data_len=106 (unbuffered)\n" "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,icmp_type=8,icmp_code=0 icmp_csum:13fc" },
    { "040400c800000000000023200000001e0000007a505400000007505400000005"
      "080045000068000000004006f93cc0a80001c0a8000200080050000000000000"
      "00005000000049f50000000102030405060708090a0b0c0d0e0f101112131415"
      "161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435"
      "363738393a3b3c3d3e3f00000000000000030005000000000004001000000000"
      "000000000000000000050005000000000006000c800000040000000200000000"
      "0007000701020300",
      " cookie=0x0 total_len=118 in_port=2 (via no_match) data_len=118 (unbuffered)\n" " userdata=01.02.03\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "040400c800000000000023200000001e0000007a505400000007505400000005"
      "080045000068000000004006f93cc0a80001c0a8000200080050000000000000"
      "00005000000049f50000000102030405060708090a0b0c0d0e0f101112131415"
      "161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435"
      "363738393a3b3c3d3e3f00000000000000030005010000000004001000000000"
      "0000000000000000000500050100000000060014800000040000000200010004"
      "0000000500000000",
      " table_id=1 cookie=0x0 total_len=118 reg0=0x5,in_port=2 (via action) data_len=118 (unbuffered)\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "050400b000000000000023200000001e0000006e505400000007505400000005"
      "08004500005c000000004001f94dc0a80001c0a80002080013fc000000000001"
      "02030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021"
      "22232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f0000"
      "0003000500000000000400100000000000000000000000000005000501000000"
      "0006000c800000040000000100000000",
      " cookie=0x0 total_len=106 in_port=1 (via action) data_len=106 (unbuffered)\n" "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,icmp_type=8,icmp_code=0 icmp_csum:13fc" },
    { "050400c800000000000023200000001e0000007a505400000007505400000005"
      "080045000068000000004006f93cc0a80001c0a8000200080050000000000000"
      "00005000000049f50000000102030405060708090a0b0c0d0e0f101112131415"
      "161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435"
      "363738393a3b3c3d3e3f00000000000000030005000000000004001000000000"
      "000000000000000000050005000000000006000c800000040000000200000000"
      "0007000701020300",
      " cookie=0x0 total_len=118 in_port=2 (via no_match) data_len=118 (unbuffered)\n" " userdata=01.02.03\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "050400c800000000000023200000001e0000007a505400000007505400000005"
      "080045000068000000004006f93cc0a80001c0a8000200080050000000000000"
      "00005000000049f50000000102030405060708090a0b0c0d0e0f101112131415"
      "161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435"
      "363738393a3b3c3d3e3f00000000000000030005010000000004001000000000"
      "0000000000000000000500050100000000060014800000040000000200010004"
      "0000000500000000",
      " table_id=1 cookie=0x0 total_len=118 reg0=0x5,in_port=2 (via action) data_len=118 (unbuffered)\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "060400b000000000000023200000001e0000006e505400000007505400000005"
      "08004500005c000000004001f94dc0a80001c0a80002080013fc000000000001"
      "02030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021"
      "22232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f0000"
      "0003000500000000000400100000000000000000000000000005000501000000"
      "0006000c800000040000000100000000",
      " cookie=0x0 total_len=106 in_port=1 (via action) data_len=106 (unbuffered)\n" "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,icmp_type=8,icmp_code=0 icmp_csum:13fc" },
    { "060400c800000000000023200000001e0000007a505400000007505400000005"
      "080045000068000000004006f93cc0a80001c0a8000200080050000000000000"
      "00005000000049f50000000102030405060708090a0b0c0d0e0f101112131415"
      "161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435"
      "363738393a3b3c3d3e3f00000000000000030005000000000004001000000000"
      "000000000000000000050005000000000006000c800000040000000200000000"
      "0007000701020300",
      " cookie=0x0 total_len=118 in_port=2 (via no_match) data_len=118 (unbuffered)\n" " userdata=01.02.03\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "060400d000000000000023200000001e0000007a505400000007505400000005"
      "080045000068000000004006f93cc0a80001c0a8000200080050000000000000"
      "00005000000049f50000000102030405060708090a0b0c0d0e0f101112131415"
      "161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435"
      "363738393a3b3c3d3e3f00000000000000030005010000000004001000000000"
      "0000000000000000000500050100000000060020800000040000000280010110"
      "0000000500000000ffffffff00000000",
      " table_id=1 cookie=0x0 total_len=118 reg0=0x5,in_port=2 (via action) data_len=118 (unbuffered)\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "0104009c000000000000232000000011ffffffff006a01000000000000000000"
      "0006000000000000000000020001000000005054000000075054000000050800"
      "4500005c000000004001f94dc0a80001c0a80002080013fc0000000000010203"
      "0405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223"
      "2425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f",
      " cookie=0x0 total_len=106 in_port=1 (via action) data_len=106 (unbuffered)\n" "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,icmp_type=8,icmp_code=0 icmp_csum:13fc" },
    { "010400a8000000000000232000000011ffffffff007600000000000000000000"
      "0006000000000000000000020002000000005054000000075054000000050800"
      "45000068000000004006f93cc0a80001c0a80002000800500000000000000000"
      "5000000049f50000000102030405060708090a0b0c0d0e0f1011121314151617"
      "18191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637"
      "38393a3b3c3d3e3f",
      " cookie=0x0 total_len=118 in_port=2 (via no_match) data_len=118 (unbuffered)\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "010400b0000000000000232000000011ffffffff007601010000000000000000"
      "000e000000000000000000020002000100040000000500000000505400000007"
      "505400000005080045000068000000004006f93cc0a80001c0a8000200080050"
      "00000000000000005000000049f50000000102030405060708090a0b0c0d0e0f"
      "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f"
      "303132333435363738393a3b3c3d3e3f",
      " table_id=1 cookie=0x0 total_len=118 reg0=0x5,in_port=2 (via action) data_len=118 (unbuffered)\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "030a008c00000000ffffffff006a01000001000c800000040000000100000000"
      "000050540000000750540000000508004500005c000000004001f94dc0a80001"
      "c0a80002080013fc00000000000102030405060708090a0b0c0d0e0f10111213"
      "1415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f30313233"
      "3435363738393a3b3c3d3e3f",
      " total_len=106 in_port=1 (via action) data_len=106 (unbuffered)\n" "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,icmp_type=8,icmp_code=0 icmp_csum:13fc" },
    { "030a009800000000ffffffff007600000001000c800000040000000200000000"
      "0000505400000007505400000005080045000068000000004006f93cc0a80001"
      "c0a800020008005000000000000000005000000049f500000001020304050607"
      "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627"
      "28292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f",
      " total_len=118 in_port=2 (via no_match) data_len=118 (unbuffered)\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "030a00a000000000ffffffff0076010100010014800000040000000200010004"
      "0000000500000000000050540000000750540000000508004500006800000000"
      "4006f93cc0a80001c0a800020008005000000000000000005000000049f50000"
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
      "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f",
      " table_id=1 total_len=118 reg0=0x5,in_port=2 (via action) data_len=118 (unbuffered)\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "040a009400000000ffffffff006a010000000000000000000001000c80000004"
      "0000000100000000000050540000000750540000000508004500005c00000000"
      "4001f94dc0a80001c0a80002080013fc00000000000102030405060708090a0b"
      "0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b"
      "2c2d2e2f303132333435363738393a3b3c3d3e3f",
      " cookie=0x0 total_len=106 in_port=1 (via action) data_len=106 (unbuffered)\n" "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,icmp_type=8,icmp_code=0 icmp_csum:13fc" },
    { "040a00a000000000ffffffff0076000000000000000000000001000c80000004"
      "0000000200000000000050540000000750540000000508004500006800000000"
      "4006f93cc0a80001c0a800020008005000000000000000005000000049f50000"
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
      "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f",
      " cookie=0x0 total_len=118 in_port=2 (via no_match) data_len=118 (unbuffered)\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "040a00a800000000ffffffff0076010100000000000000000001001480000004"
      "0000000200010004000000050000000000005054000000075054000000050800"
      "45000068000000004006f93cc0a80001c0a80002000800500000000000000000"
      "5000000049f50000000102030405060708090a0b0c0d0e0f1011121314151617"
      "18191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637"
      "38393a3b3c3d3e3f",
      " table_id=1 cookie=0x0 total_len=118 reg0=0x5,in_port=2 (via action) data_len=118 (unbuffered)\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "060a009400000000ffffffff006a010000000000000000000001000c80000004"
      "0000000100000000000050540000000750540000000508004500005c00000000"
      "4001f94dc0a80001c0a80002080013fc00000000000102030405060708090a0b"
      "0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b"
      "2c2d2e2f303132333435363738393a3b3c3d3e3f",
      " cookie=0x0 total_len=106 in_port=1 (via action) data_len=106 (unbuffered)\n" "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,icmp_type=8,icmp_code=0 icmp_csum:13fc" },
    { "060a00a000000000ffffffff0076000000000000000000000001000c80000004"
      "0000000200000000000050540000000750540000000508004500006800000000"
      "4006f93cc0a80001c0a800020008005000000000000000005000000049f50000"
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
      "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f",
      " cookie=0x0 total_len=118 in_port=2 (via no_match) data_len=118 (unbuffered)\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "060a00b000000000ffffffff0076010100000000000000000001002080000004"
      "00000002800101100000000500000000ffffffff000000000000505400000007"
      "505400000005080045000068000000004006f93cc0a80001c0a8000200080050"
      "00000000000000005000000049f50000000102030405060708090a0b0c0d0e0f"
      "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f"
      "303132333435363738393a3b3c3d3e3f",
      " table_id=1 cookie=0x0 total_len=118 reg0=0x5,in_port=2 (via action) data_len=118 (unbuffered)\n" "tcp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=8,tp_dst=80,tcp_flags=0 tcp_csum:49f5" },
    { "010a0044000000000000010000c8000300005054000000075054000000050800"
      "4510002400070000201186b00a0000010a00000204d200350010111161626364"
      "65666768",
      " total_len=200 in_port=3 (via no_match) data_len=50 buffer=0x00000100\n" "udp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=10.0.0.1,nw_dst=10.0.0.2,nw_tos=16,nw_ecn=0,nw_ttl=32,nw_frag=no,tp_src=1234,tp_dst=53 udp_csum:1111" },
    { "010a001200000000ffffffff0000fffe0100",
      " total_len=0 in_port=LOCAL (via action) data_len=0 (unbuffered)\n" "vlan_tci=0x0000,dl_src=00:00:00:00:00:00,dl_dst=00:00:00:00:00:00,dl_type=0x0000" },
    { "040a005400000000ffffffff002a000200000000000012340001000c80000004"
      "00000005000000000000ffffffffffff00000000000108060001080006040001"
      "000000000001c0a80001000000000000c0a80002",
      " table_id=2 cookie=0x1234 total_len=42 in_port=5 (via no_match) data_len=42 (unbuffered)\n" "arp,vlan_tci=0x0000,dl_src=00:00:00:00:00:01,dl_dst=ff:ff:ff:ff:ff:ff,arp_spa=192.168.0.1,arp_tpa=192.168.0.2,arp_op=1,arp_sha=00:00:00:00:00:01,arp_tha=00:00:00:00:00:00" },
    { "010400a800000000000023200000001e0000004e505400000007505400000005"
      "86dd600123450014064000000000000000000000000000000001000000000000"
      "0000000000000000000200509c400000000100000002501203e8abcd00000000"
      "000100080000012c000200080000004200030005050000000004001000000000"
      "0000000000000abc00050005000000000006000c800000040000000700000000"
      "00070006aabb0000",
      " table_id=5 cookie=0xabc total_len=300 in_port=7 (via no_match) data_len=74 buffer=0x00000042\n" " userdata=aa.bb\n" "tcp6,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,ipv6_src=::1,ipv6_dst=::2,ipv6_label=0x12345,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,tp_src=80,tp_dst=40000,tcp_flags=syn|ack tcp_csum:abcd" },
    /* A packet-out of a bare IPv4 packet (packet_type(1,0x800)) sent to
     * the controller: the packet-in names the packet type, and the
     * summary starts at L3. */
    { "040a005a00000000ffffffff00200100ffffffffffffffff0001002080005804"
      "0001080080000004fffffffd80000408fafafafa5a5a5a5a0000450000201234"
      "4000ff1155670a0000140a00001e006400c8000cea78ffffffff",
      " total_len=32 packet_type=(1,0x800),metadata=0xfafafafa5a5a5a5a,in_port=CONTROLLER (via action) data_len=32 (unbuffered)\n" "packet_type=(1,0x800),nw_src=10.0.0.20,nw_dst=10.0.0.30,nw_proto=17,nw_tos=0,nw_ecn=0,nw_ttl=255,nw_frag=no,tp_src=100,tp_dst=200 udp_csum:ea78" },
};

static const struct pkt_case pout_cases[] = {
    { "010d004200000006ffffffff0001000800000008000200005054000000075054"
      "0000000508004500001c000000004001f97cc0a80001c0a800020800f7ff0000"
      "0000",
      " in_port=1 actions=output:2 data_len=42\n" "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,icmp_type=8,icmp_code=0 icmp_csum:f7ff" },
    { "040d006200000006fffffffffffffffe00200000000000000000001000000002"
      "000000000000000000000010fffffffdffff0000000000005054000000075054"
      "0000000508004500001c000000004001f97cc0a80001c0a800020800f7ff0000"
      "0000",
      " in_port=LOCAL actions=output:2,CONTROLLER:65535 data_len=42\n" "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,icmp_type=8,icmp_code=0 icmp_csum:f7ff" },
    { "060d005a00000006ffffffff001000000001000c800000040000000100000000"
      "0000001000000002000000000000000050540000000750540000000508004500"
      "001c000000004001f97cc0a80001c0a800020800f7ff00000000",
      " in_port=1 actions=output:2 data_len=42\n" "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,icmp_type=8,icmp_code=0 icmp_csum:f7ff" },
    { "020d004200000006ffffffff0000000100000000000000005054000000075054"
      "0000000508004500001c000000004001f97cc0a80001c0a800020800f7ff0000"
      "0000",
      " in_port=1 actions=drop data_len=42\n" "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,icmp_type=8,icmp_code=0 icmp_csum:f7ff" },
    { "060d006a00000006ffffffff0010000000010020800000040000000180010110"
      "0000000500000000ffffffff0000000000000010000000020000000000000000"
      "50540000000750540000000508004500001c000000004001f97cc0a80001c0a8"
      "00020800f7ff00000000",
      " reg0=0x5,in_port=1 actions=output:2 data_len=42\n" "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=192.168.0.1,nw_dst=192.168.0.2,nw_tos=0,nw_ecn=0,nw_ttl=64,nw_frag=no,icmp_type=8,icmp_code=0 icmp_csum:f7ff" },
    { "010d00180000000300000005000100080000000800020000",
      " in_port=1 actions=output:2 buffer=0x00000005" },
    { "040d005a00000003fffffffffffffffd00100000000000000000001000000001"
      "ffe5000000000000505400000007505400000005080045100024000700002011"
      "86b00a0000010a00000204d20035001011116162636465666768",
      " in_port=CONTROLLER actions=output:1 data_len=50\n" "udp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,dl_dst=50:54:00:00:00:07,nw_src=10.0.0.1,nw_dst=10.0.0.2,nw_tos=16,nw_ecn=0,nw_ttl=32,nw_frag=no,tp_src=1234,tp_dst=53 udp_csum:1111" },
    { "060d006800000002ffffffff0020000000010014800058040001080080000004"
      "fffffffd000000000019001080000408fafafafa5a5a5a5a00000010fffffffd"
      "ffff0000000000004500002012344000ff1155670a0000140a00001e006400c8"
      "000cea78ffffffff",
      " packet_type=(1,0x800),in_port=CONTROLLER actions=set_field:0xfafafafa5a5a5a5a->metadata,CONTROLLER:65535 data_len=32\n" "packet_type=(1,0x800),nw_src=10.0.0.20,nw_dst=10.0.0.30,nw_proto=17,nw_tos=0,nw_ecn=0,nw_ttl=255,nw_frag=no,tp_src=100,tp_dst=200 udp_csum:ea78" },
};

#define PACKET "50540000000750540000000508004500001c000000004001f97cc0a80001" \
               "c0a800020800f7ff00000000"

/* "ovs-ofctl packet-out" text and the message 3.1 sent for it. */
static const struct {
    enum ofputil_protocol protocol;
    const char *text;
    const char *hex;
} pout_parse_cases[] = {
    { OFPUTIL_P_OF10_STD, "in_port=1 packet=" PACKET " actions=output:2",
      "010d004200000006ffffffff0001000800000008000200005054000000075054"
      "0000000508004500001c000000004001f97cc0a80001c0a800020800f7ff0000"
      "0000" },
    { OFPUTIL_P_OF13_OXM,
      "in_port=LOCAL,packet=" PACKET ",actions=output:2,controller",
      "040d006200000006fffffffffffffffe00200000000000000000001000000002"
      "000000000000000000000010fffffffdffff0000000000005054000000075054"
      "0000000508004500001c000000004001f97cc0a80001c0a800020800f7ff0000"
      "0000" },
    { OFPUTIL_P_OF15_OXM, "in_port=1 packet=" PACKET " actions=output:2",
      "060d005a00000006ffffffff001000000001000c800000040000000100000000"
      "0000001000000002000000000000000050540000000750540000000508004500"
      "001c000000004001f97cc0a80001c0a800020800f7ff00000000" },
    { OFPUTIL_P_OF11_STD, "in_port=1 packet=" PACKET " actions=drop",
      "020d004200000006ffffffff0000000100000000000000005054000000075054"
      "0000000508004500001c000000004001f97cc0a80001c0a800020800f7ff0000"
      "0000" },
    { OFPUTIL_P_OF10_STD, "packet=" PACKET " actions=drop",
      "010d003a00000006fffffffffffd000050540000000750540000000508004500"
      "001c000000004001f97cc0a80001c0a800020800f7ff00000000" },
    { OFPUTIL_P_OF13_OXM, "in_port=1 packet=" PACKET,
      "040d004200000006ffffffff0000000100000000000000005054000000075054"
      "0000000508004500001c000000004001f97cc0a80001c0a800020800f7ff0000"
      "0000" },
};

/* Text 3.1 refuses, with its message. */
static const struct {
    const char *text;
    const char *error;
} pout_parse_errors[] = {
    { "in_port=1 actions=drop", "must specify packet" },
    { "in_port=1 packet=zz actions=drop",
      "packet: Trailing garbage in packet data" },
    { "in_port=99999 packet=" PACKET " actions=drop",
      "99999 is not a valid OpenFlow port" },
    { "in_port=1,foo=2,packet=" PACKET ",actions=drop",
      "unknown keyword foo" },
    { "in_port=1,ip,packet=" PACKET ",actions=drop",
      "field ip missing value" },
    { "in_port=1 packet=" PACKET " actions=bogus", "unknown action bogus" },
};

static enum ofputil_protocol
protocol_of(const struct ofp_header *oh)
{
    return (oh->version == OFP10_VERSION ? OFPUTIL_P_OF10_STD
            : ofputil_protocol_from_ofp_version(oh->version));
}

static void
check_bytes(const struct ofpbuf *msg, const struct ofp_header *oh)
{
    char *want = check_hex(oh, ntohs(oh->length));
    char *got = check_hex(msg->data, msg->size);
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
}

START_TEST(test_packet_in)
{
    const struct pkt_case *c = &pin_cases[_i];
    struct ofpbuf b;
    ofpbuf_init(&b, 0);
    ofpbuf_put_hex(&b, c->hex, NULL);
    const struct ofp_header *oh = b.data;
    ck_assert_uint_eq(ntohs(oh->length), b.size);

    struct ds s = DS_EMPTY_INITIALIZER;
    ck_assert_int_eq(ofputil_packet_in_print(&s, oh, NULL, NULL, 2), 0);
    ck_assert_str_eq(ds_cstr(&s), c->text);
    ds_destroy(&s);

    struct ofputil_packet_in pin;
    ck_assert_int_eq(ofputil_decode_packet_in(oh, false, &pin), 0);
    enum ofpraw raw;
    ck_assert_int_eq(ofpraw_decode(&raw, oh), 0);
    enum ofputil_packet_in_format format
        = (raw == OFPRAW_NXT_PACKET_IN2 ? OFPUTIL_PACKET_IN_NXT2
           : raw == OFPRAW_NXT_PACKET_IN ? OFPUTIL_PACKET_IN_NXT
           : OFPUTIL_PACKET_IN_STD);
    struct ofpbuf *msg = ofputil_encode_packet_in(&pin, protocol_of(oh),
                                                  format);
    check_bytes(msg, oh);
    ofpbuf_delete(msg);
    ofpbuf_uninit(&b);
}
END_TEST

START_TEST(test_packet_out)
{
    const struct pkt_case *c = &pout_cases[_i];
    struct ofpbuf b;
    ofpbuf_init(&b, 0);
    ofpbuf_put_hex(&b, c->hex, NULL);
    const struct ofp_header *oh = b.data;
    ck_assert_uint_eq(ntohs(oh->length), b.size);

    struct ds s = DS_EMPTY_INITIALIZER;
    ck_assert_int_eq(ofputil_packet_out_print(&s, oh, NULL, NULL, 2), 0);
    ck_assert_str_eq(ds_cstr(&s), c->text);
    ds_destroy(&s);

    struct ofputil_packet_out po;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 0);
    ck_assert_int_eq(ofputil_decode_packet_out(&po, oh, &ofpacts), 0);
    struct ofpbuf *msg = ofputil_encode_packet_out(&po, protocol_of(oh));
    ((struct ofp_header *) msg->data)->xid = oh->xid;
    check_bytes(msg, oh);
    ofpbuf_delete(msg);
    ofpbuf_uninit(&ofpacts);
    ofpbuf_uninit(&b);
}
END_TEST

START_TEST(test_packet_out_parse)
{
    struct ofputil_packet_out po;
    struct ofpbuf ofpacts;
    enum ofputil_protocol usable;
    ofpbuf_init(&ofpacts, 0);
    char *error = parse_ofp_packet_out_str(&po, pout_parse_cases[_i].text,
                                           NULL, &ofpacts, &usable);
    ck_assert_msg(!error, "%s", error);
    ck_assert(usable & pout_parse_cases[_i].protocol);
    struct ofpbuf *msg = ofputil_encode_packet_out(
        &po, pout_parse_cases[_i].protocol);
    ((struct ofp_header *) msg->data)->xid = htonl(6);

    struct ofpbuf want;
    ofpbuf_init(&want, 0);
    ofpbuf_put_hex(&want, pout_parse_cases[_i].hex, NULL);
    check_bytes(msg, want.data);
    ofpbuf_uninit(&want);
    ofpbuf_delete(msg);
    free((void *) po.packet);
    ofpbuf_uninit(&ofpacts);
}
END_TEST

START_TEST(test_packet_out_parse_errors)
{
    struct ofputil_packet_out po;
    struct ofpbuf ofpacts;
    enum ofputil_protocol usable;
    ofpbuf_init(&ofpacts, 0);
    char *error = parse_ofp_packet_out_str(&po, pout_parse_errors[_i].text,
                                           NULL, &ofpacts, &usable);
    ck_assert(error != NULL);
    ck_assert_str_eq(error, pout_parse_errors[_i].error);
    ck_assert_uint_eq(ofpacts.size, 0);
    free(error);
    ofpbuf_uninit(&ofpacts);
}
END_TEST

/* Malformed messages get 3.1's errors; truncations never read past the
 * end. */
START_TEST(test_malformed)
{
    static const struct pkt_case bad[] = {
        /* packet_out whose actions run past the message. */
        { "010d001800000003ffffffff000100200000000800020000",
          "OFPBRC_BAD_LEN" },
        /* packet_out from port 0xff00. */
        { "010d001800000003ffffffffff0000080000000800020000",
          "OFPBRC_BAD_PORT" },
        /* NXT_PACKET_IN2 without a packet property. */
        { "0104001800000000000023200000001e0003000501000000",
          "OFPBRC_BAD_LEN" },
        /* NXT_PACKET_IN2 with a property running past the end. */
        { "0104001800000000000023200000001e0000001001000000",
          "OFPBPC_BAD_LEN" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        struct ofpbuf b;
        ofpbuf_init(&b, 0);
        ofpbuf_put_hex(&b, bad[i].hex, NULL);
        const struct ofp_header *oh = b.data;
        ck_assert_uint_eq(ntohs(oh->length), b.size);
        struct ds s = DS_EMPTY_INITIALIZER;
        enum ofperr error = (oh->type == 13
                             ? ofputil_packet_out_print(&s, oh, NULL, NULL, 0)
                             : ofputil_packet_in_print(&s, oh, NULL, NULL,
                                                       0));
        ck_assert_str_eq(ofperr_get_name(error), bad[i].text);
        ds_destroy(&s);
        ofpbuf_uninit(&b);
    }

    for (size_t i = 0; i < ARRAY_SIZE(pin_cases) + ARRAY_SIZE(pout_cases);
         i++) {
        const char *hex = (i < ARRAY_SIZE(pin_cases) ? pin_cases[i].hex
                           : pout_cases[i - ARRAY_SIZE(pin_cases)].hex);
        struct ofpbuf full;
        ofpbuf_init(&full, 0);
        ofpbuf_put_hex(&full, hex, NULL);
        for (size_t n = sizeof(struct ofp_header); n < full.size; n++) {
            struct ofp_header *copy = xmemdup(full.data, n);
            copy->length = htons(n);
            struct ds s = DS_EMPTY_INITIALIZER;
            if (copy->type == 13) {
                ofputil_packet_out_print(&s, copy, NULL, NULL, 0);
            } else {
                ofputil_packet_in_print(&s, copy, NULL, NULL, 0);
            }
            ds_destroy(&s);
            free(copy);
        }
        ofpbuf_uninit(&full);
    }
}
END_TEST

static Suite *
ofp_packet_suite(void)
{
    Suite *s = suite_create("ofp-packet");
    TCase *tc = tcase_create("ofp-packet");
    tcase_add_loop_test(tc, test_packet_in, 0, ARRAY_SIZE(pin_cases));
    tcase_add_loop_test(tc, test_packet_out, 0, ARRAY_SIZE(pout_cases));
    tcase_add_loop_test(tc, test_packet_out_parse, 0,
                        ARRAY_SIZE(pout_parse_cases));
    tcase_add_loop_test(tc, test_packet_out_parse_errors, 0,
                        ARRAY_SIZE(pout_parse_errors));
    tcase_add_test(tc, test_malformed);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_packet_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
