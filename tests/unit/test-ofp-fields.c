/* Unit tests for ofp-fields.h: field names, values as text, sub-fields.
 *
 * Expected text is Open vSwitch 3.1's, from "ovs-ofctl parse-flow" (how it
 * prints a field or sub-field it parsed, and how it words a refusal). */
#include <config.h>
#include "ofp-fields.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"
#include "dynamic-string.h"
#include "match.h"
#include "ofp-flow.h"
#include "ofp-parse.h"
#include "ofpbuf.h"
#include "openflow.h"

/* Sub-fields as written in move and load actions, and as 3.1 prints them
 * back (NXM name, else OXM name). */
START_TEST(test_subfields)
{
    static const struct {
        const char *input, *output;
        enum mf_field_id id;
        unsigned int ofs, n_bits;
    } cases[] = {
        { "reg0[0..15]", "NXM_NX_REG0[0..15]", MFF_REG0, 0, 16 },
        { "reg1[16..31]", "NXM_NX_REG1[16..31]", MFF_REG1, 16, 16 },
        { "NXM_NX_REG0[]", "NXM_NX_REG0[]", MFF_REG0, 0, 32 },
        { "reg2[5]", "NXM_NX_REG2[5]", MFF_REG2, 5, 1 },
        { "eth_src[]", "NXM_OF_ETH_SRC[]", MFF_ETH_SRC, 0, 48 },
        { "OXM_OF_METADATA[0..31]", "OXM_OF_METADATA[0..31]", MFF_METADATA,
          0, 32 },
        { "tun_id[32..63]", "NXM_NX_TUN_ID[32..63]", MFF_TUN_ID, 32, 32 },
        { "xxreg0[0..63]", "NXM_NX_XXREG0[0..63]", MFF_XXREG0, 0, 64 },
        { "xreg1[]", "OXM_OF_PKT_REG1[]", MFF_XREG1, 0, 64 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct mf_subfield sf;
        char *error = mf_parse_subfield(&sf, cases[i].input);
        ck_assert_msg(!error, "%s: %s", cases[i].input, error);
        ck_assert_int_eq(sf.field->id, cases[i].id);
        ck_assert_uint_eq(sf.ofs, cases[i].ofs);
        ck_assert_uint_eq(sf.n_bits, cases[i].n_bits);
        ck_assert(mf_subfield_is_valid(&sf));

        struct ds s = DS_EMPTY_INITIALIZER;
        mf_format_subfield(&sf, &s);
        ck_assert_str_eq(ds_cstr(&s), cases[i].output);
        ds_destroy(&s);
    }

    /* Parsing stops after the closing bracket. */
    const char *sp = "reg0[0..15]->reg1[]";
    struct mf_subfield sf;
    char *error = mf_parse_subfield__(&sf, &sp);
    ck_assert_ptr_null(error);
    ck_assert_str_eq(sp, "->reg1[]");
}
END_TEST

START_TEST(test_subfield_errors)
{
    static const struct {
        const char *input, *error;
    } cases[] = {
        { "reg0[0..40]",
          "reg0[0..40]: ending bit 40 is not valid because field is only "
          "32 bits wide" },
        { "reg0[3..2]", "reg0[3..2]: starting bit 3 is after ending bit 2" },
        { "bogus[]", "bogus[]: unknown field `bogus'" },
        { "NXM_NX_REG0[-1]",
          "NXM_NX_REG0[-1]: starting bit -1 is not valid because field is "
          "only 32 bits wide" },
        { "NXM_NX_REG0[40]",
          "NXM_NX_REG0[40]: starting bit 40 is not valid because field is "
          "only 32 bits wide" },
        /* Too big for an int: refused, never wrapped around (the fuzzer
         * found this one). */
        { "NXM_NX_REG0[777777777777777777777]",
          "NXM_NX_REG0[777777777777777777777]: starting bit 999999 is not "
          "valid because field is only 32 bits wide" },
        { "reg0[1..]",
          "reg0[1..]: syntax error expecting [] or [<bit>] or "
          "[<start>..<end>]" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct mf_subfield sf;
        char *error = mf_parse_subfield(&sf, cases[i].input);
        ck_assert_ptr_nonnull(error);
        ck_assert_str_eq(error, cases[i].error);
        free(error);
    }
}
END_TEST

/* Reading and writing bits of a flow through a sub-field. */
START_TEST(test_subfield_values)
{
    struct flow flow;
    memset(&flow, 0, sizeof flow);
    struct mf_subfield sf;
    char *error = mf_parse_subfield(&sf, "reg3[8..15]");
    ck_assert_ptr_null(error);
    mf_set_subfield(&sf, 0xab, &flow);
    ck_assert_uint_eq(flow.regs[3], 0xab00);
    ck_assert_uint_eq(mf_get_subfield(&sf, &flow), 0xab);

    error = mf_parse_subfield(&sf, "eth_dst[40..47]");
    ck_assert_ptr_null(error);
    mf_set_subfield(&sf, 0x02, &flow);
    ck_assert_uint_eq(flow.dl_dst.ea[0], 0x02);
    ck_assert_uint_eq(flow.dl_dst.ea[5], 0);
}
END_TEST

/* Field values as text: parse, then print as 3.1 prints the field. */
START_TEST(test_values)
{
    static const struct {
        const char *field, *input, *output;
    } cases[] = {
        { "nw_src", "10.0.0.0/8", "10.0.0.0/8" },
        /* The value keeps its bits; a match clears them (below). */
        { "nw_src", "10.1.2.3/255.255.0.0", "10.1.2.3/16" },
        { "ipv6_src", "2001:db8::1", "2001:db8::1" },
        { "ipv6_dst", "2001:db8::/32", "2001:db8::/32" },
        { "eth_dst", "01:00:00:00:00:00/01:00:00:00:00:00",
          "01:00:00:00:00:00/01:00:00:00:00:00" },
        { "reg0", "5/0xffff", "0x5/0xffff" },
        { "tcp_dst", "80", "80" },
        { "tun_id", "0x42", "0x42" },
        { "in_port", "LOCAL", "LOCAL" },
        { "in_port", "7", "7" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        const struct mf_field *f = mf_from_name(cases[i].field);
        ck_assert_ptr_nonnull(f);
        union mf_value value, mask;
        char *error = mf_parse(f, cases[i].input, NULL, &value, &mask);
        ck_assert_msg(!error, "%s=%s: %s", cases[i].field, cases[i].input,
                      error);
        struct ds s = DS_EMPTY_INITIALIZER;
        mf_format(f, &value, &mask, NULL, &s);
        ck_assert_str_eq(ds_cstr(&s), cases[i].output);
        ds_destroy(&s);
    }

    /* Into a match, the bits outside the mask go (3.1 prints
     * "ip,nw_src=10.1.0.0/16" for nw_src=10.1.2.3/255.255.0.0). */
    struct match match;
    match_init_catchall(&match);
    match_set_dl_type(&match, htons(ETH_TYPE_IP));
    char *err = mf_parse_field(mf_from_name("nw_src"),
                               "10.1.2.3/255.255.0.0", NULL, &match);
    ck_assert_ptr_null(err);
    char *text = match_to_string(&match, NULL, OFP_DEFAULT_PRIORITY);
    ck_assert_str_eq(text, "ip,nw_src=10.1.0.0/16");
    free(text);

    /* Values a field cannot hold. */
    union mf_value value, mask;
    char *error = mf_parse(mf_from_name("tcp_dst"), "65536", NULL, &value,
                           &mask);
    ck_assert_ptr_nonnull(error);
    free(error);
    error = mf_parse(mf_from_name("nw_src"), "10.0.0.256", NULL, &value,
                     &mask);
    ck_assert_ptr_nonnull(error);
    free(error);
    error = mf_parse(mf_from_name("in_port"), "foo", NULL, &value, &mask);
    ck_assert_ptr_nonnull(error);
    free(error);
}
END_TEST

/* Names and codes agree with each other across the table. */
START_TEST(test_table)
{
    for (enum mf_field_id id = 0; id < MFF_N_IDS; id++) {
        const struct mf_field *f = mf_from_id(id);
        ck_assert_int_eq(f->id, id);
        ck_assert_ptr_eq(mf_from_name(f->name), f);
        if (f->extra_name) {
            ck_assert_ptr_eq(mf_from_name(f->extra_name), f);
        }
        ck_assert_uint_le(f->n_bits, 8 * f->n_bytes);
        if (f->nxm_header) {
            ck_assert_ptr_eq(mf_from_nxm_header(f->nxm_header), f);
            ck_assert_ptr_eq(mf_from_nxm_name(f->nxm_name,
                                              strlen(f->nxm_name)), f);
        }
    }
    ck_assert_ptr_null(mf_from_name("bogus"));
    ck_assert_ptr_eq(mf_from_name("nw_src"), mf_from_name("ip_src"));
}
END_TEST

/* The newer fields' text, and 3.1's refusals for it (from "ovs-ofctl
 * parse-flow FIELD=VALUE,actions=drop"). */
START_TEST(test_new_field_text)
{
    static const struct {
        const char *flow, *output;
    } cases[] = {
        { "ct_state=+trk-inv+new", "ct_state=+new-inv+trk" },
        { "ct_state=0x21", "ct_state=new|trk" },
        { "ct_state=trk|new", "ct_state=new|trk" },
        { "ct_zone=5,ct_mark=5/7,ct_label=0x5",
          "ct_zone=5,ct_mark=0x5/0x7,ct_label=0x5" },
        { "packet_type=(1,0x800),nw_src=1.2.3.4",
          "packet_type=(1,0x800),nw_src=1.2.3.4" },
        { "packet_type=(2,5)", "packet_type=(2,5)" },
        { "mpls,mpls_label=5,mpls_tc=1,mpls_bos=1,mpls_ttl=8",
          "mpls,mpls_label=5,mpls_tc=1,mpls_ttl=8,mpls_bos=1" },
        { "tun_gbp_id=5,tun_gbp_flags=1", "tun_gbp_id=5,tun_gbp_flags=0x1" },
        { "tun_erspan_ver=2,tun_erspan_dir=1,tun_erspan_hwid=5",
          "tun_erspan_ver=2,tun_erspan_dir=1,tun_erspan_hwid=0x5" },
        { "reg3=1,reg3[2]=1", "reg3=0x5" },
        { "reg3[1]=1,reg3[2]=1", "reg3=0x6/0x6" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        char *flow = xasprintf("%s,actions=drop", cases[i].flow);
        struct ofputil_flow_mod fm;
        struct ofpbuf ofpacts;
        ofpbuf_init(&ofpacts, 0);
        char *error = parse_ofp_flow_mod_str(&fm, flow, NULL, OFPFC_ADD,
                                             &ofpacts);
        ck_assert_msg(!error, "%s: %s", cases[i].flow, error);
        char *text = match_to_string(&fm.match, NULL, OFP_DEFAULT_PRIORITY);
        ck_assert_str_eq(text, cases[i].output);
        free(text);
        free(flow);
        ofpbuf_uninit(&ofpacts);
    }

    static const struct {
        const char *field, *value, *error;
    } bad[] = {
        { "ct_state", "+foo", "foo: unknown ct_state flag(s)" },
        { "ct_state", "+trk+trk",
          "trk: Each ct_state flag can be specified only once" },
        { "ct_state", "trk|foo", "trk|foo: unknown ct_state flag(s)" },
        { "ct_state", "0x100", "0x100: unknown ct_state flag(s)" },
        { "tcp_flags", "+ack-ack",
          "ack: Each TCP flag can be specified only once" },
        { "packet_type", "1",
          "1: bad syntax for packet type missing '('" },
        { "packet_type", "(1)", "1): bad syntax for packet type missing ','" },
        { "packet_type", "(a,b)", "a,b): bad syntax for packet type ns" },
        { "packet_type", "(1,0x10000)",
          "0x10000): bad syntax for packet type ns_type" },
        { "mpls_bos", "1/0x1", "1/0x1: invalid mask for field mpls_bos" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        union mf_value value, mask;
        char *error = mf_parse(mf_from_name(bad[i].field), bad[i].value,
                               NULL, &value, &mask);
        ck_assert_ptr_nonnull(error);
        ck_assert_str_eq(error, bad[i].error);
        free(error);
    }

    /* Sub-field matches refuse values too wide for them. */
    struct match match;
    match_init_catchall(&match);
    char *error = mf_parse_subfield_match("reg3[0..7]", "0x1ff", &match);
    ck_assert_str_eq(error, "reg3[0..7]: value 0x1ff does not fit into 8 "
                     "bits");
    free(error);
    error = mf_parse_subfield_match("reg3[0..7]", "-1", &match);
    ck_assert_str_eq(error, "reg3[0..7]: cannot parse integer value: -1");
    free(error);
}
END_TEST

START_TEST(test_bitwise)
{
    uint8_t src[4] = { 0x12, 0x34, 0x56, 0x78 };
    uint8_t dst[2] = { 0, 0 };
    /* Bits 4..11 of 0x12345678 are 0x67. */
    bitwise_copy(src, 4, 4, dst, 2, 0, 8);
    ck_assert_uint_eq(dst[1], 0x67);
    ck_assert_uint_eq(dst[0], 0);
    bitwise_one(dst, 2, 12, 4);
    ck_assert_uint_eq(dst[0], 0xf0);
    ck_assert(bitwise_is_all_zeros(dst, 2, 8, 4));
    ck_assert(!bitwise_is_all_zeros(dst, 2, 0, 16));
    ck_assert_int_eq(bitwise_rscan(dst, 2), 15);
    uint8_t zero[3] = { 0, 0, 0 };
    ck_assert_int_eq(bitwise_rscan(zero, 3), -1);
}
END_TEST

static Suite *
ofp_fields_suite(void)
{
    Suite *s = suite_create("ofp-fields");
    TCase *tc = tcase_create("ofp-fields");
    tcase_add_test(tc, test_subfields);
    tcase_add_test(tc, test_subfield_errors);
    tcase_add_test(tc, test_subfield_values);
    tcase_add_test(tc, test_values);
    tcase_add_test(tc, test_table);
    tcase_add_test(tc, test_new_field_text);
    tcase_add_test(tc, test_bitwise);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_fields_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
