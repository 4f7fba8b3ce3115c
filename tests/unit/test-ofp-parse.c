/* Unit tests for ofp-parse.h: flows in ovs-ofctl's syntax.
 *
 * For each input, the expected texts are what Open vSwitch 3.1's
 * "ovs-ofctl parse-flow" and "ovs-ofctl -O OpenFlow13 parse-flow" print
 * (the flow_mod after their encoding and decoding) or the error they
 * report ("ovs-ofctl: ..."). */
#include <config.h>
#include "ofp-parse.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"
#include "dynamic-string.h"
#include "ofp-actions.h"
#include "ofp-flow.h"
#include "ofp-match.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"

struct parse_case {
    const char *input;
    const char *of10;           /* 3.1's output with OpenFlow 1.0 (+NXM). */
    const char *of13;           /* With -O OpenFlow13. */
};

static const struct parse_case cases[] = {
    /* Wider than 64 bits: two loads (the fuzzer found the first version
     * reading past the value). */
    { "ipv6,actions=load:5->ipv6_dst",
      "ADD ipv6 actions=load:0x5->NXM_NX_IPV6_DST[0..63],"
      "load:0->NXM_NX_IPV6_DST[64..127]",
      "ADD ipv6 actions=load:0x5->NXM_NX_IPV6_DST[0..63],"
      "load:0->NXM_NX_IPV6_DST[64..127]" },
    { "nw_src=1.2.3.4,actions=drop",
      "ADD actions=drop",
      "ADD actions=drop" },
    { "tcp,tp_src=80,actions=drop",
      "ADD tcp,tp_src=80 actions=drop",
      "ADD tcp,tp_src=80 actions=drop" },
    { "udp,tp_src=80,actions=drop",
      "ADD udp,tp_src=80 actions=drop",
      "ADD udp,tp_src=80 actions=drop" },
    { "ip,tp_src=80,actions=drop",
      "ADD ip actions=drop",
      "ADD ip actions=drop" },
    { "icmp,icmp_type=8,actions=drop",
      "ADD icmp,icmp_type=8 actions=drop",
      "ADD icmp,icmp_type=8 actions=drop" },
    { "icmp6,icmp_type=8,actions=drop",
      "ADD icmp6,icmp_type=8 actions=drop",
      "ADD icmp6,icmp_type=8 actions=drop" },
    { "tcp6,tp_dst=22,actions=drop",
      "ADD tcp6,tp_dst=22 actions=drop",
      "ADD tcp6,tp_dst=22 actions=drop" },
    { "priority=10",
      "ovs-ofctl: must specify an action",
      "ovs-ofctl: must specify an action" },
    { "foo=1,actions=drop",
      "ovs-ofctl: unknown keyword foo",
      "ovs-ofctl: unknown keyword foo" },
    { "in_port=foo,actions=drop",
      "ovs-ofctl: foo: invalid or unknown port for in_port",
      "ovs-ofctl: foo: invalid or unknown port for in_port" },
    { "cookie=0x5/0xff,actions=drop",
      "ovs-ofctl: flow additions cannot use a cookie mask",
      "ovs-ofctl: flow additions cannot use a cookie mask" },
    { "table=300,actions=drop",
      "ovs-ofctl: unknown table \"300\"",
      "ovs-ofctl: unknown table \"300\"" },
    { "priority=70000,actions=drop",
      "ovs-ofctl: invalid priority \"70000\"",
      "ovs-ofctl: invalid priority \"70000\"" },
    { "reg0=5,actions=drop",
      "ADD reg0=0x5 actions=drop",
      "ADD reg0=0x5 actions=drop" },
    { "dl_type=0x0800,nw_proto=6,actions=drop",
      "ADD tcp actions=drop",
      "ADD tcp actions=drop" },
    { "tcp,in_port=1,nw_src=10.0.0.0/8,tp_dst=80,actions=output:2",
      "ADD tcp,in_port=1,nw_src=10.0.0.0/8,tp_dst=80 actions=output:2",
      "ADD tcp,in_port=1,nw_src=10.0.0.0/8,tp_dst=80 actions=output:2" },
    { "ip,nw_src=10.0.0.0/255.0.0.0,actions=drop",
      "ADD ip,nw_src=10.0.0.0/8 actions=drop",
      "ADD ip,nw_src=10.0.0.0/8 actions=drop" },
    { "arp,arp_tpa=1.2.3.4,actions=drop",
      "ADD arp,arp_tpa=1.2.3.4 actions=drop",
      "ADD arp,arp_tpa=1.2.3.4 actions=drop" },
    { "dl_vlan=5,actions=drop",
      "ADD dl_vlan=5 actions=drop",
      "ADD dl_vlan=5 actions=drop" },
    { "vlan_tci=0x1005/0x1fff,actions=drop",
      "ADD dl_vlan=5 actions=drop",
      "ADD dl_vlan=5 actions=drop" },
    { "ipv6,ipv6_src=::1,actions=drop",
      "ADD ipv6,ipv6_src=::1 actions=drop",
      "ADD ipv6,ipv6_src=::1 actions=drop" },
    { "metadata=0x5,actions=drop",
      "ADD metadata=0x5 actions=drop",
      "ADD metadata=0x5 actions=drop" },
    { "tun_id=0x5,actions=drop",
      "ADD tun_id=0x5 actions=drop",
      "ADD tun_id=0x5 actions=drop" },
    { "actions=drop,priority=5",
      "ovs-ofctl: unknown action priority",
      "ovs-ofctl: unknown action priority" },
    { "tcp actions=drop",
      "ADD tcp actions=drop",
      "ADD tcp actions=drop" },
    { "ip,nw_frag=first,actions=drop",
      "ADD ip,nw_frag=first actions=drop",
      "ADD ip,nw_frag=first actions=drop" },
    { "tcp,tcp_flags=+syn,actions=drop",
      "ADD tcp,tcp_flags=+syn actions=drop",
      "ADD tcp,tcp_flags=+syn actions=drop" },
    { "ip,nw_ttl=5,actions=drop",
      "ADD ip,nw_ttl=5 actions=drop",
      "ADD ip,nw_ttl=5 actions=drop" },
    { "in_port=1 actions=output:2",
      "ADD in_port=1 actions=output:2",
      "ADD in_port=1 actions=output:2" },
    { "idle_timeout=5,hard_timeout=6,send_flow_rem,actions=drop",
      "ADD idle:5 hard:6 send_flow_rem actions=drop",
      "ADD idle:5 hard:6 send_flow_rem actions=drop" },
    { "out_port=3,actions=drop",
      "ovs-ofctl: unknown keyword out_port",
      "ovs-ofctl: unknown keyword out_port" },
    { "priority=5,tcp,actions=drop",
      "ADD priority=5,tcp actions=drop",
      "ADD priority=5,tcp actions=drop" },
    { "cookie=0x5,table=2,idle_timeout=10,hard_timeout=20,priority=7,in_port=1,actions=output:2",
      "ADD table:2 priority=7,in_port=1 cookie:0x5 idle:10 hard:20 actions=output:2",
      "ADD table:2 priority=7,in_port=1 cookie:0x5 idle:10 hard:20 actions=output:2" },
    { "send_flow_rem,check_overlap,actions=drop",
      "ADD send_flow_rem check_overlap actions=drop",
      "ADD send_flow_rem check_overlap actions=drop" },
    { "in_port=LOCAL,dl_src=00:11:22:33:44:55,dl_dst=01:00:00:00:00:00/01:00:00:00:00:00,actions=NORMAL",
      "ADD in_port=LOCAL,dl_src=00:11:22:33:44:55,dl_dst=01:00:00:00:00:00/01:00:00:00:00:00 actions=NORMAL",
      "ADD in_port=LOCAL,dl_src=00:11:22:33:44:55,dl_dst=01:00:00:00:00:00/01:00:00:00:00:00 actions=NORMAL" },
    { "udp,nw_dst=192.168.0.1,tp_dst=53,actions=mod_nw_dst:10.0.0.1,output:3",
      "ADD udp,nw_dst=192.168.0.1,tp_dst=53 actions=mod_nw_dst:10.0.0.1,output:3",
      "ADD udp,nw_dst=192.168.0.1,tp_dst=53 actions=set_field:10.0.0.1->ip_dst,output:3" },
    { "in_port=2,actions=load:0x1->NXM_NX_REG0[],resubmit(,1)",
      "ADD in_port=2 actions=load:0x1->NXM_NX_REG0[],resubmit(,1)",
      "ADD in_port=2 actions=load:0x1->NXM_NX_REG0[],resubmit(,1)" },
    { "table=1,reg0=1,actions=controller(reason=no_match,max_len=128)",
      "ADD table:1 reg0=0x1 actions=controller(reason=no_match,max_len=128)",
      "ADD table:1 reg0=0x1 actions=controller(reason=no_match,max_len=128)" },
    { "priority=0,actions=drop",
      "ADD priority=0 actions=drop",
      "ADD priority=0 actions=drop" },
    { "arp,arp_op=2,actions=FLOOD",
      "ADD arp,arp_op=2 actions=FLOOD",
      "ADD arp,arp_op=2 actions=FLOOD" },
    { "ipv6,ipv6_dst=2001:db8::/32,actions=dec_ttl,output:1",
      "ADD ipv6,ipv6_dst=2001:db8::/32 actions=dec_ttl,output:1",
      "ADD ipv6,ipv6_dst=2001:db8::/32 actions=dec_ttl,output:1" },
    { "modify",
      "ovs-ofctl: must specify an action",
      "ovs-ofctl: must specify an action" },    /* learn: source fields need the flow's prerequisites, match
     * destinations those of the learned match so far (3.1 checks both
     * after parsing). */
    { "actions=learn(NXM_OF_IP_SRC[])",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)" },
    { "ip,actions=learn(NXM_OF_IP_SRC[]=NXM_OF_IP_DST[],in_port=3)",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)" },
    { "actions=learn(load:1->NXM_OF_ETH_TYPE[])",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_BAD_SET_ARGUMENT)",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_BAD_SET_ARGUMENT)" },
    { "tcp,actions=learn(eth_type=0x800,nw_proto=6,tcp_src=5,"
      "tcp_dst=NXM_OF_TCP_SRC[])",
      "ADD tcp actions=learn(table=1,eth_type=0x800,nw_proto=6,tcp_src=5,"
      "NXM_OF_TCP_DST[]=NXM_OF_TCP_SRC[])",
      "ADD tcp actions=learn(table=1,eth_type=0x800,nw_proto=6,tcp_src=5,"
      "NXM_OF_TCP_DST[]=NXM_OF_TCP_SRC[])" },    /* set_field, load and move need their fields' prerequisites in the
     * match (vlan_vid a tag), as 3.1 checks after parsing. */
    { "actions=set_field:1->tcp_src",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)" },
    { "tcp,actions=set_field:0->vlan_vid",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)" },
    { "ip,actions=set_field:1->vlan_pcp",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)" },
    { "tcp,actions=load:0->NXM_NX_IPV6_SRC[0..63]",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)" },
    { "tcp,actions=move:NXM_NX_REG0[0..15]->NXM_OF_UDP_SRC[]",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)" },
    { "tcp,actions=write_actions(set_field:1->udp_src)",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)" },
    /* The check follows the actions: a pushed tag may be set, a popped
     * one not. */
    { "dl_vlan=1,actions=pop_vlan,set_field:3->vlan_pcp",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_MATCH_INCONSISTENT)" },
    { "actions=output:65280",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_BAD_OUT_PORT)",
      "ovs-ofctl: actions are invalid with specified match "
      "(OFPBAC_BAD_OUT_PORT)" },
    { "tcp6,tp_dst=22,actions=drop",
      "ADD tcp6,tp_dst=22 actions=drop",
      "ADD tcp6,tp_dst=22 actions=drop" },
    { "tcp,actions=mod_tp_src:1",
      "ADD tcp actions=mod_tp_src:1",
      "ADD tcp actions=set_field:1->tcp_src" },
};

/* Parses C->input as an addition and prints it after encoding and
 * decoding, in 1.0 (NXM when the match needs it, as 3.1 chooses) or
 * 1.3. */
static char *
parse_and_print(const char *input, bool of13)
{
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 0);
    char *error = parse_ofp_flow_mod_str(&fm, input, NULL, OFPFC_ADD,
                                         &ofpacts);
    if (error) {
        char *s = xasprintf("ovs-ofctl: %s", error);
        free(error);
        ofpbuf_uninit(&ofpacts);
        return s;
    }
    /* Table ids only for a flow that names its table, as 3.1 chooses. */
    enum ofputil_protocol protocol
        = (of13 ? OFPUTIL_P_OF13_OXM
           : ofputil_match_is_ofp10(&fm.match) ? OFPUTIL_P_OF10_STD
           : OFPUTIL_P_OF10_NXM);
    if (fm.table_id != OFPTT_ALL) {
        protocol = ofputil_protocol_set_tid(protocol, true);
    }
    ck_assert_int_eq(ofpacts_annotate(ofpacts.data, ofpacts.size,
                                      &fm.match), 0);
    struct ofpbuf *msg = ofputil_encode_flow_mod(&fm, protocol);

    struct ofputil_flow_mod back;
    struct ofpbuf back_ofpacts;
    ofpbuf_init(&back_ofpacts, 0);
    ck_assert_int_eq(ofputil_decode_flow_mod(&back, msg->data,
                                             &back_ofpacts), 0);
    struct ds s = DS_EMPTY_INITIALIZER;
    ofputil_flow_mod_format(&back, of13 ? OFP13_VERSION : OFP10_VERSION,
                            NULL, &s);
    ofpbuf_uninit(&back_ofpacts);
    ofpbuf_delete(msg);
    ofpbuf_uninit(&ofpacts);
    return ds_steal_cstr(&s);
}

START_TEST(test_parse_flow)
{
    const struct parse_case *c = &cases[_i];
    char *s = parse_and_print(c->input, false);
    ck_assert_str_eq(s, c->of10);
    free(s);
    s = parse_and_print(c->input, true);
    ck_assert_str_eq(s, c->of13);
    free(s);
}
END_TEST

/* Deletions and modifications: no actions needed, flows selected by
 * cookie mask, out_port and out_group, any table by default. */
START_TEST(test_delete_and_modify)
{
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 0);
    char *error = parse_ofp_flow_mod_str(
        &fm, "tcp,cookie=0x5/0xff,out_port=3,out_group=7", NULL,
        OFPFC_DELETE, &ofpacts);
    ck_assert_ptr_null(error);
    ck_assert_uint_eq(fm.command, OFPFC_DELETE);
    ck_assert(fm.cookie == htonll(5) && fm.cookie_mask == htonll(0xff));
    ck_assert(fm.new_cookie == OVS_BE64_MAX);
    ck_assert_uint_eq(fm.out_port, 3);
    ck_assert_uint_eq(fm.out_group, 7);
    ck_assert_uint_eq(fm.table_id, OFPTT_ALL);
    ck_assert_uint_eq(fm.ofpacts_len, 0);

    struct ds s = DS_EMPTY_INITIALIZER;
    ofputil_flow_mod_format(&fm, OFP13_VERSION, NULL, &s);
    ck_assert_str_eq(ds_cstr(&s), "DEL table:255 tcp cookie:0x5/0xff "
                     "out_port:3 actions=drop");
    ds_destroy(&s);

    /* A modification still needs actions; its unmasked cookie is the new
     * cookie. */
    error = parse_ofp_flow_mod_str(&fm, "tcp", NULL, OFPFC_MODIFY,
                                   &ofpacts);
    ck_assert_str_eq(error, "must specify an action");
    free(error);
    error = parse_ofp_flow_mod_str(&fm, "cookie=9,actions=output:1", NULL,
                                   OFPFC_MODIFY_STRICT, &ofpacts);
    ck_assert_ptr_null(error);
    ck_assert(fm.new_cookie == htonll(9));
    ck_assert(fm.modify_cookie);
    ck_assert_uint_eq(fm.cookie_mask, 0);

    /* As 3.1's ovs-ofctl sends them: a modify without a cookie gives
     * cookie 0; selecting by cookie alone leaves the cookies ("-1" is
     * all-ones, as strtoull() reads it). */
    error = parse_ofp_flow_mod_str(&fm, "in_port=1,actions=output:2", NULL,
                                   OFPFC_MODIFY, &ofpacts);
    ck_assert_ptr_null(error);
    ck_assert(fm.new_cookie == htonll(0) && fm.modify_cookie);
    error = parse_ofp_flow_mod_str(&fm, "cookie=1/-1,actions=output:2", NULL,
                                   OFPFC_MODIFY, &ofpacts);
    ck_assert_ptr_null(error);
    ck_assert(fm.cookie == htonll(1) && fm.cookie_mask == OVS_BE64_MAX);
    ck_assert(fm.new_cookie == OVS_BE64_MAX && !fm.modify_cookie);
    error = parse_ofp_flow_mod_str(&fm, "cookie=1/-1,cookie=4,actions=2",
                                   NULL, OFPFC_MODIFY, &ofpacts);
    ck_assert_ptr_null(error);
    ck_assert(fm.new_cookie == htonll(4) && fm.modify_cookie);
    ofpbuf_uninit(&ofpacts);
}
END_TEST

/* Usable protocols, as 3.1's "ovs-ofctl -O OpenFlow10,...,OpenFlow15
 * parse-flow" printed them ("none" for "no usable protocol"). */
static const struct {
    const char *flow;
    const char *usable;
} usable_cases[] = {
    { "in_port=1,actions=drop", "any" },
    { "reg0=5,actions=drop", "NXM,OXM" },
    { "table=1,actions=drop", "OXM,OpenFlow10+table_id,NXM+table_id,OpenFlow11" },
    { "table=0,actions=drop", "OXM,OpenFlow10+table_id,NXM+table_id,OpenFlow11" },
    { "tcp,tp_dst=80,actions=output:1", "any" },
    { "nw_src=10.0.0.0/255.0.255.0,ip,actions=drop", "NXM,OXM,OpenFlow11" },
    { "actions=set_field:1->reg0", "NXM,OXM" },
    { "actions=group:1", "any" },
    { "importance=5,actions=drop", "any" },
    { "reset_counts,actions=drop", "OXM" },
    { "no_packet_counts,actions=drop", "OXM-OpenFlow13,OXM-OpenFlow14,OXM-OpenFlow15" },
    { "no_byte_counts,actions=drop", "OXM-OpenFlow13,OXM-OpenFlow14,OXM-OpenFlow15" },
    { "dl_vlan=5,actions=drop", "any" },
    { "vlan_tci=0x1000/0x1000,actions=drop", "NXM,OXM" },
    { "tun_id=5,actions=drop", "NXM,OXM" },
    { "metadata=5,actions=drop", "NXM,OXM,OpenFlow11" },
    { "actions=write_metadata:5", "NXM,OXM,OpenFlow11" },
    { "actions=goto_table:1", "any" },
    { "actions=meter:1", "OXM-OpenFlow13,OXM-OpenFlow14,OXM-OpenFlow15" },
    { "ipv6,actions=drop", "any" },
    { "ip,nw_tos=4,actions=drop", "any" },
    { "ip,nw_ecn=1,actions=drop", "NXM,OXM,OpenFlow11" },
    { "dl_src=01:00:00:00:00:00/01:00:00:00:00:00,actions=drop", "NXM,OXM,OpenFlow11" },
    { "arp,arp_sha=00:11:22:33:44:55,actions=drop", "NXM,OXM" },
    { "ip,nw_ttl=5,actions=drop", "NXM,OXM" },
    { "tcp,tcp_flags=+syn,actions=drop", "NXM,OXM" },
    { "ip,ip_frag=no,actions=drop", "NXM,OXM" },
    { "actions=dec_ttl", "OpenFlow10,NXM" },
    { "ip,actions=dec_ttl", "any" },
    { "actions=push_vlan:0x8100", "OXM,OpenFlow11" },
    { "actions=note:00", "any" },
    { "actions=resubmit(,1)", "any" },
    { "actions=controller(userdata=01)", "any" },
    { "actions=write_actions(output:1)", "any" },
    { "actions=clear_actions", "any" },
    { "actions=enqueue:1:2", "any" },
    { "pkt_mark=1,actions=drop", "NXM,OXM" },
    { "dl_vlan_pcp=3,actions=drop", "any" },
    { "actions=mod_vlan_vid:5", "any" },
    { "actions=strip_vlan", "OpenFlow10,NXM" },
    { "dl_vlan=5,actions=strip_vlan", "any" },
    { "actions=set_tunnel:5", "any" },
    { "actions=mod_nw_ttl:5", "OpenFlow10,NXM" },
    { "ip,actions=mod_nw_ttl:5", "any" },
    { "actions=mod_nw_src:1.2.3.4", "OpenFlow10,NXM" },
    { "ip,actions=mod_nw_src:1.2.3.4", "any" },
    { "actions=set_field:5->tun_id", "NXM,OXM" },
    { "metadata=5,reg0=1,actions=drop", "NXM,OXM" },
    { "actions=move:NXM_NX_REG0[]->NXM_NX_REG1[]", "any" },
    { "actions=load:5->NXM_NX_REG1[0..7]", "any" },
    { "ip,actions=mod_nw_tos:4", "any" },
    { "actions=mod_dl_src:00:11:22:33:44:55", "any" },
    { "actions=write_actions(set_field:5->tun_id)", "NXM,OXM" },
    { "ipv6,ipv6_src=::1,actions=drop", "NXM,OXM" },
    { "tcp,tp_src=0x10/0xf0,actions=drop", "NXM,OXM" },    /* 3.1 sends IPv6 L3 and L4 matches only in NXM or OXM. */
    { "tcp6,actions=drop", "NXM,OXM" },
    { "udp6,tp_dst=53,actions=drop", "NXM,OXM" },
    { "icmp6,actions=drop", "NXM,OXM" },
    { "ipv6,nw_tos=4,actions=drop", "NXM,OXM" },
    { "ipv6,nw_ecn=1,actions=drop", "NXM,OXM" },
    { "dl_type=0x86dd,nw_proto=6,actions=drop", "NXM,OXM" },
    { "tcp6,actions=set_field:00:00:00:00:00:01->eth_src", "NXM,OXM" },
    { "icmp,icmp_type=3,icmp_code=1,actions=drop", "any" },
    /* Fields that 3.1 lists as 1.1+ whatever 1.0 could carry. */
    { "sctp,sctp_src=1,actions=drop", "NXM,OXM,OpenFlow11" },
    { "sctp,tp_src=1,actions=drop", "any" },
    { "in_port_oxm=1,actions=drop", "NXM,OXM,OpenFlow11" },
    { "sctp,actions=set_field:1->sctp_dst", "NXM,OXM,OpenFlow11" },
    /* 1.1 carries these set_fields as Nicira's load. */
    { "actions=set_field:1->metadata", "NXM,OXM,OpenFlow11" },
    { "actions=set_field:1->in_port", "any" },
    { "ip,actions=mod_tp_src:1", "OpenFlow10,NXM" },
    { "actions=push_vlan:0x8100,set_field:3->vlan_pcp",
      "OXM,OpenFlow11" },
    { "in_port=2,actions=push_vlan:0x8100,set_field:4101->vlan_vid",
      "OXM,OpenFlow11" },
};

START_TEST(test_usable_protocols)
{
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    enum ofputil_protocol usable;
    ofpbuf_init(&ofpacts, 0);
    char *error = parse_ofp_flow_mod_str_protocols(
        &fm, usable_cases[_i].flow, NULL, NULL, OFPFC_ADD, &ofpacts,
        &usable);
    ck_assert_msg(!error, "%s", error);
    char *s = (usable ? ofputil_protocols_to_string(usable)
               : xstrdup("none"));
    ck_assert_str_eq(s, usable_cases[_i].usable);
    free(s);
    ofpbuf_uninit(&ofpacts);
}
END_TEST

/* The command words of add-flows and bundle files, prefixes included; a
 * word that names no command is the flow's own. */
START_TEST(test_command_words)
{
    static const struct {
        const char *text;
        uint16_t command;
        const char *rest;
    } words[] = {
        { "add in_port=1,actions=drop", OFPFC_ADD, " in_port=1,actions=drop" },
        { " delete", OFPFC_DELETE, "" },
        { "d in_port=1", OFPFC_DELETE, " in_port=1" },
        { "delete_s in_port=1", OFPFC_DELETE_STRICT, " in_port=1" },
        { "m actions=drop", OFPFC_MODIFY, " actions=drop" },
        { "modify_strict,actions=drop", OFPFC_MODIFY_STRICT, ",actions=drop" },
        { "foo in_port=1", OFPFC_ADD, "foo in_port=1" },
        { "in_port=1 actions=drop", OFPFC_ADD, "in_port=1 actions=drop" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
        const char *s = words[i].text;
        ck_assert_uint_eq(parse_ofp_flow_mod_command(&s), words[i].command);
        ck_assert_str_eq(s, words[i].rest);
    }
}
END_TEST

static Suite *
ofp_parse_suite(void)
{
    Suite *s = suite_create("ofp-parse");
    TCase *tc = tcase_create("ofp-parse");
    tcase_add_loop_test(tc, test_parse_flow, 0, ARRAY_SIZE(cases));
    tcase_add_test(tc, test_delete_and_modify);
    tcase_add_test(tc, test_command_words);
    tcase_add_loop_test(tc, test_usable_protocols, 0,
                        ARRAY_SIZE(usable_cases));
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_parse_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
