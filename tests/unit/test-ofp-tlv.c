/* Unit tests for ofp-tlv.h and tun-metadata.h: the TLV map messages, a
 * switch's map and matches on tun_metadataN laid out by it.
 *
 * The messages are what Open vSwitch 3.1's ovs-ofctl sent for add-tlv-map
 * and del-tlv-map, the text what its ofp-print printed; the map's rules
 * (errors, allocation of a fragmented option space) are those 3.1's switch
 * applies in its tunnel tests. */
#include <config.h>
#include "ofp-tlv.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"
#include "dynamic-string.h"
#include "match.h"
#include "nx-match.h"
#include "ofp-fields.h"
#include "ofp-print.h"
#include "ofpbuf.h"
#include "tun-metadata.h"

/* add-tlv-map and del-tlv-map as 3.1 encodes them (xid 4 on its 1.0
 * connection). */
static const struct {
    uint16_t command;
    const char *map;
    const char *hex;
    const char *text;
} messages[] = {
    { NXTTMC_ADD,
      "{class=0xffff,type=0,len=4}->tun_metadata0,"
      "{class=0xffff,type=1,len=8}->tun_metadata1",
      "010400280000000400002320000000180000000000000000"
      "ffff000400000000ffff010800010000",
      "NXT_TLV_TABLE_MOD (xid=0x4):\n"
      " ADD mapping table:\n"
      "  class  type  length  match field\n"
      " ------  ----  ------  --------------\n"
      " 0xffff     0       4  tun_metadata0\n"
      " 0xffff   0x1       8  tun_metadata1\n" },
    { NXTTMC_CLEAR, "",
      "010400180000000400002320000000180002000000000000",
      "NXT_TLV_TABLE_MOD (xid=0x4):\n CLEAR\n" },
    { NXTTMC_DELETE, "{class=0x1,type=2,len=124}->tun_metadata63",
      "0104002000000004000023200000001800010000000000000001027c003f0000",
      "NXT_TLV_TABLE_MOD (xid=0x4):\n"
      " DEL mapping table:\n"
      "  class  type  length  match field\n"
      " ------  ----  ------  --------------\n"
      "    0x1   0x2     124  tun_metadata63\n" },
};

START_TEST(test_messages)
{
    struct ofputil_tlv_table_mod ttm;
    char *error = parse_ofp_tlv_table_mod_str(&ttm, messages[_i].command,
                                              messages[_i].map);
    ck_assert_ptr_null(error);
    struct ofpbuf *msg = ofputil_encode_tlv_table_mod(OFP10_VERSION, &ttm);
    struct ofp_header *oh = msg->data;
    oh->xid = htonl(4);
    char *hex = check_hex(msg->data, msg->size);
    ck_assert_str_eq(hex, messages[_i].hex);
    free(hex);

    char *text = ofp_to_string(msg->data, msg->size, NULL, 1);
    ck_assert_str_eq(text, messages[_i].text);
    free(text);
    ofpbuf_delete(msg);
    ofputil_tlv_table_mod_uninit(&ttm);
}
END_TEST

START_TEST(test_errors)
{
    /* ovs-ofctl's refusals. */
    static const char *const bad_maps[] = {
        "class=0xffff,type=3,len=4}->tun_metadata5",
        "{class=0xffff,type=3}->tun_metadata5",
        "{class=0xffff,type=3,len=4}->foo",
        "{class=0xffff,type=3,len=4}",
        "{type=3,class=1,len=4}->tun_metadata1",
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad_maps); i++) {
        struct ofputil_tlv_table_mod ttm;
        char *error = parse_ofp_tlv_table_mod_str(&ttm, NXTTMC_ADD,
                                                  bad_maps[i]);
        ck_assert_str_eq(error, "invalid tlv mapping");
        free(error);
    }

    /* The switch's: lengths that are no option's, indexes past 63. */
    static const struct {
        const char *map;
        enum ofperr error;
    } bad_msgs[] = {
        { "{class=0xffff,type=3,len=5}->tun_metadata5",
          OFPERR_NXTTMFC_BAD_OPT_LEN },
        { "{class=0xffff,type=3,len=128}->tun_metadata5",
          OFPERR_NXTTMFC_BAD_OPT_LEN },
        { "{class=0xffff,type=3,len=4}->tun_metadata64",
          OFPERR_NXTTMFC_BAD_FIELD_IDX },
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad_msgs); i++) {
        struct ofputil_tlv_table_mod ttm;
        char *error = parse_ofp_tlv_table_mod_str(&ttm, NXTTMC_ADD,
                                                  bad_msgs[i].map);
        ck_assert_ptr_null(error);
        struct ofpbuf *msg = ofputil_encode_tlv_table_mod(OFP13_VERSION,
                                                          &ttm);
        ofputil_tlv_table_mod_uninit(&ttm);
        ck_assert_int_eq(ofputil_decode_tlv_table_mod(msg->data, &ttm),
                         bad_msgs[i].error);
        ofpbuf_delete(msg);
    }
}
END_TEST

static bool in_use_idx[TUN_METADATA_NUM_OPTS];

static bool
in_use(unsigned int idx, void *aux OVS_UNUSED)
{
    return in_use_idx[idx];
}

static enum ofperr
table_mod(struct tun_table *tab, uint16_t command, const char *map)
{
    struct ofputil_tlv_table_mod ttm;
    char *error = parse_ofp_tlv_table_mod_str(&ttm, command, map);
    ck_assert_ptr_null(error);
    enum ofperr err = tun_table_mod(tab, command, ttm.mappings,
                                    ttm.n_mappings, in_use, NULL);
    ofputil_tlv_table_mod_uninit(&ttm);
    return err;
}

/* 3.1's tunnel tests: a full table refuses the whole change, options may
 * be placed in pieces, a mapping in use stays. */
START_TEST(test_table)
{
    struct tun_table tab;
    tun_table_init(&tab);
    memset(in_use_idx, 0, sizeof in_use_idx);

    ck_assert_int_eq(table_mod(&tab, NXTTMC_ADD,
                               "{class=0xffff,type=0,len=4}->tun_metadata0,"
                               "{class=0xffff,type=1,len=8}->tun_metadata1"),
                     0);
    ck_assert_int_eq(table_mod(&tab, NXTTMC_ADD,
                               "{class=0xffff,type=2,len=124}->tun_metadata2,"
                               "{class=0xffff,type=3,len=124}->tun_metadata3"),
                     OFPERR_NXTTMFC_TABLE_FULL);
    ck_assert_uint_eq(tun_table_space_used(&tab), 12);

    ck_assert_int_eq(table_mod(&tab, NXTTMC_ADD,
                               "{class=0xffff,type=2,len=124}->"
                               "tun_metadata2"), 0);
    ck_assert_int_eq(table_mod(&tab, NXTTMC_ADD,
                               "{class=0xffff,type=3,len=4}->"
                               "tun_metadata3"), 0);
    ck_assert_int_eq(table_mod(&tab, NXTTMC_ADD,
                               "{class=0xffff,type=4,len=112}->"
                               "tun_metadata4"), 0);
    ck_assert_int_eq(table_mod(&tab, NXTTMC_DELETE,
                               "{class=0xffff,type=3,len=4}->"
                               "tun_metadata3"), 0);
    /* 8 bytes left, in two pieces. */
    ck_assert_int_eq(table_mod(&tab, NXTTMC_ADD,
                               "{class=0xffff,type=3,len=8}->"
                               "tun_metadata3"), 0);
    ck_assert_uint_eq(tun_table_space_used(&tab), 256);

    /* A match on the split option reads and writes across its pieces. */
    struct match match;
    match_init_catchall(&match);
    union mf_value v;
    memset(&v, 0, sizeof v);
    memcpy(&v.b[TUN_METADATA_MAX_LEN - 8], "\x12\x34\x56\x78\x90\xab\xcd\xef",
           8);
    ck_assert_ptr_null(mf_set_checked(mf_from_id(MFF_TUN_METADATA(3)), &v,
                                      NULL, &match));
    ck_assert_int_eq(tun_md_remap(&match, &tab), 0);
    char *flow = match_to_string(&match, NULL, OFP_DEFAULT_PRIORITY);
    ck_assert_str_eq(flow, "tun_metadata3=0x1234567890abcdef");
    free(flow);

    /* Errors. */
    ck_assert_int_eq(table_mod(&tab, NXTTMC_ADD,
                               "{class=0xffff,type=9,len=0}->tun_metadata3"),
                     OFPERR_NXTTMFC_ALREADY_MAPPED);
    ck_assert_int_eq(table_mod(&tab, NXTTMC_ADD,
                               "{class=0xffff,type=3,len=0}->tun_metadata9"),
                     OFPERR_NXTTMFC_DUP_ENTRY);
    in_use_idx[3] = true;
    ck_assert_int_eq(table_mod(&tab, NXTTMC_CLEAR, ""),
                     OFPERR_NXTTMFC_INVALID_TLV_DEL);
    ck_assert_uint_eq(tun_table_space_used(&tab), 256);
    in_use_idx[3] = false;
    ck_assert_int_eq(table_mod(&tab, NXTTMC_CLEAR, ""), 0);
    ck_assert_uint_eq(tun_table_space_used(&tab), 0);
}
END_TEST

/* A match laid out dynamically (as ovs-ofctl sends it) remapped to a
 * switch's map, and encoded as that switch reports it. */
START_TEST(test_remap)
{
    struct tun_table tab;
    tun_table_init(&tab);
    memset(in_use_idx, 0, sizeof in_use_idx);
    ck_assert_int_eq(table_mod(&tab, NXTTMC_ADD,
                               "{class=0xffff,type=0,len=4}->tun_metadata0"),
                     0);

    static const struct {
        const char *value;      /* For tun_metadata0, NULL: present. */
        const char *nxm;        /* What the switch reports. */
    } cases[] = {
        { "0x1", "NXM_NX_TUN_METADATA0(00000001)" },
        { "0", "NXM_NX_TUN_METADATA0(00000000)" },
        { "0x1234/0xff00", "NXM_NX_TUN_METADATA0_W(00001200/0000ff00)" },
        { NULL, "NXM_NX_TUN_METADATA0_W(00000000/00000000)" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct match match;
        match_init_catchall(&match);
        const struct mf_field *f = mf_from_id(MFF_TUN_METADATA(0));
        char *error;
        if (cases[i].value) {
            error = mf_parse_field(f, cases[i].value, NULL, &match);
        } else {
            union mf_value zero;
            memset(&zero, 0, sizeof zero);
            error = mf_set_checked(f, &zero, &zero, &match);
        }
        ck_assert_ptr_null(error);
        ck_assert_int_eq(tun_md_remap(&match, &tab), 0);

        struct ofpbuf b;
        ofpbuf_init(&b, 0);
        int len = nx_put_match(&b, &match, 0, 0);
        char *text = nx_match_to_string(b.data, len);
        ck_assert_str_eq(text, cases[i].nxm);
        free(text);
        ofpbuf_uninit(&b);
    }

    /* An unmapped field, one longer than its mapping. */
    struct match match;
    match_init_catchall(&match);
    char *error = mf_parse_field(mf_from_id(MFF_TUN_METADATA(1)), "1", NULL,
                                 &match);
    ck_assert_ptr_null(error);
    ck_assert_int_eq(tun_md_remap(&match, &tab),
                     OFPERR_NXFMFC_INVALID_TLV_FIELD);
    match_init_catchall(&match);
    error = mf_parse_field(mf_from_id(MFF_TUN_METADATA(0)), "0x123456789a",
                           NULL, &match);
    ck_assert_ptr_null(error);
    ck_assert_int_eq(tun_md_remap(&match, &tab), OFPERR_OFPBMC_BAD_LEN);
}
END_TEST

static Suite *
ofp_tlv_suite(void)
{
    Suite *s = suite_create("ofp-tlv");
    TCase *tc = tcase_create("ofp-tlv");
    tcase_add_loop_test(tc, test_messages, 0, ARRAY_SIZE(messages));
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_table);
    tcase_add_test(tc, test_remap);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_tlv_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
