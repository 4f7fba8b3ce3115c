/* Unit tests for ct-format.h: connection entries printed as 3.1's
 * dpctl/dump-conntrack prints them, with -s and -m, TCP states coalesced,
 * ICMP and IPv6 tuples, labels of 128 bits. */
#include <config.h>
#include "ct-format.h"

#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "dynamic-string.h"
#include "util.h"

static struct ct_tuple
tuple4(const char *src, const char *dst, uint8_t proto, uint16_t sport,
       uint16_t dport)
{
    struct ct_tuple t;
    memset(&t, 0, sizeof t);
    t.l3_type = AF_INET;
    t.ip_proto = proto;
    inet_pton(AF_INET, src, &t.src.ipv4);
    inet_pton(AF_INET, dst, &t.dst.ipv4);
    t.src_port = htons(sport);
    t.dst_port = htons(dport);
    return t;
}

static char *
entry_text(const struct ct_entry *e, bool verbose, bool stats)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    ct_format_entry(&s, e, verbose, stats);
    return ds_steal_cstr(&s);
}

START_TEST(test_udp_entry)
{
    struct ct_entry e;
    memset(&e, 0, sizeof e);
    e.orig = tuple4("10.1.1.1", "10.1.1.2", IPPROTO_UDP, 1, 2);
    e.reply = tuple4("10.1.1.2", "10.1.1.1", IPPROTO_UDP, 2, 1);
    char *s = entry_text(&e, false, false);
    ck_assert_str_eq(s, "udp,orig=(src=10.1.1.1,dst=10.1.1.2,sport=1,dport=2),"
                     "reply=(src=10.1.1.2,dst=10.1.1.1,sport=2,dport=1)");
    free(s);

    e.zone = 7;
    e.mark = 42;
    e.label.hi = 0x1;
    e.label.lo = 0x2;
    e.id = 99;
    e.timeout_s = 30;
    e.orig_counters = (struct ct_counters) { 3, 300 };
    s = entry_text(&e, true, true);
    ck_assert_str_eq(s, "udp,orig=(src=10.1.1.1,dst=10.1.1.2,sport=1,dport=2,"
                     "packets=3,bytes=300),reply=(src=10.1.1.2,dst=10.1.1.1,"
                     "sport=2,dport=1),id=99,zone=7,timeout=30,mark=42,"
                     "labels=0x10000000000000002");
    free(s);

    e.label.hi = 0;
    e.label.lo = 0xabc;
    s = entry_text(&e, false, false);
    ck_assert(strstr(s, ",zone=7,mark=42,labels=0xabc"));
    ck_assert(!strstr(s, "id="));
    ck_assert(!strstr(s, "timeout="));
    free(s);
}
END_TEST

START_TEST(test_tcp_states_coalesce)
{
    struct ct_entry e;
    memset(&e, 0, sizeof e);
    e.orig = tuple4("1.1.1.1", "2.2.2.2", IPPROTO_TCP, 1000, 80);
    e.reply = tuple4("2.2.2.2", "1.1.1.1", IPPROTO_TCP, 80, 1000);
    static const struct {
        enum ct_tcp_state state;
        const char *shown;
    } cases[] = {
        { CT_TCP_SYN_SENT, "SYN_SENT" },
        { CT_TCP_SYN_RECV, "ESTABLISHED" },
        { CT_TCP_ESTABLISHED, "ESTABLISHED" },
        { CT_TCP_FIN_WAIT_2, "TIME_WAIT" },
        { CT_TCP_CLOSE_WAIT, "CLOSE_WAIT" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        e.tcp_state = cases[i].state;
        char *s = entry_text(&e, false, false);
        char *want = xasprintf(",protoinfo=(state=%s)", cases[i].shown);
        ck_assert_msg(strstr(s, want), "%s lacks %s", s, want);
        free(want);
        free(s);
    }
}
END_TEST

START_TEST(test_icmp_ipv6_parent_helper)
{
    struct ct_entry e;
    memset(&e, 0, sizeof e);
    e.orig = tuple4("10.0.0.1", "10.0.0.2", IPPROTO_ICMP, 0, 0);
    e.orig.icmp_id = htons(5);
    e.orig.icmp_type = 8;
    e.reply = tuple4("10.0.0.2", "10.0.0.1", IPPROTO_ICMP, 0, 0);
    e.reply.icmp_id = htons(5);
    char *s = entry_text(&e, false, false);
    ck_assert_str_eq(s, "icmp,orig=(src=10.0.0.1,dst=10.0.0.2,id=5,type=8,"
                     "code=0),reply=(src=10.0.0.2,dst=10.0.0.1,id=5,type=0,"
                     "code=0)");
    free(s);

    memset(&e, 0, sizeof e);
    e.orig.l3_type = e.reply.l3_type = AF_INET6;
    e.orig.ip_proto = e.reply.ip_proto = IPPROTO_TCP;
    inet_pton(AF_INET6, "2001:db8::1", &e.orig.src.ipv6);
    inet_pton(AF_INET6, "2001:db8::2", &e.orig.dst.ipv6);
    e.reply.src = e.orig.dst;
    e.reply.dst = e.orig.src;
    e.orig.src_port = e.reply.dst_port = htons(40000);
    e.orig.dst_port = e.reply.src_port = htons(21);
    e.tcp_state = CT_TCP_ESTABLISHED;
    e.helper = "ftp";
    e.has_master = true;
    e.master = e.orig;
    s = entry_text(&e, true, false);
    ck_assert_str_eq(s, "tcp,orig=(src=2001:db8::1,dst=2001:db8::2,"
                     "sport=40000,dport=21),reply=(src=2001:db8::2,"
                     "dst=2001:db8::1,sport=21,dport=40000),id=0,"
                     "protoinfo=(state=ESTABLISHED),helper=ftp,"
                     "parent=(src=2001:db8::1,dst=2001:db8::2,sport=40000,"
                     "dport=21)");
    free(s);

    struct ds d = DS_EMPTY_INITIALIZER;
    ct_format_ipproto(&d, 47);
    ds_put_char(&d, ' ');
    ct_format_ipproto(&d, IPPROTO_SCTP);
    ck_assert_str_eq(ds_cstr(&d), "47 sctp");
    ds_destroy(&d);
}
END_TEST

int
main(void)
{
    Suite *s = suite_create("ct-format");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_udp_entry);
    tcase_add_test(tc, test_tcp_states_coalesce);
    tcase_add_test(tc, test_icmp_ipv6_parent_helper);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
