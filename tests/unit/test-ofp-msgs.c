/* Unit tests for ofp-msgs.h, ofp-errors.h and ofp-protocol.h: headers,
 * errors and hellos in every version.
 *
 * Expected names, errors and bytes are Open vSwitch 3.1's: every hex
 * string below was given to 3.1's "ovs-ofctl ofp-print", which named the
 * message (or reported the decode error) as the test expects. */
#include <config.h>
#include "ofp-msgs.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"
#include "dynamic-string.h"
#include "list.h"
#include "ofp-errors.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"
#include "openflow.h"

static struct ofpbuf *
from_hex(const char *hex)
{
    struct ofpbuf *b = ofpbuf_new(0);
    ofpbuf_put_hex(b, hex, NULL);
    return b;
}

struct header_case {
    const char *hex;
    enum ofperr error;
    const char *name;       /* ofpraw_get_name(), when no error. */
};

static const struct header_case header_cases[] = {
    { "0100000800000001", 0, "OFPT_HELLO" },
    { "0400001000000001000100080000001a", 0, "OFPT_HELLO" },
    { "0102000800000002", 0, "OFPT_ECHO_REQUEST" },
    { "0105000800000003", 0, "OFPT_FEATURES_REQUEST" },
    { "0405000800000003", 0, "OFPT_FEATURES_REQUEST" },
    /* A version no one knows still says hello and echoes, and nothing
     * else. */
    { "0700000800000001", 0, "OFPT_HELLO" },
    { "0702000800000001", 0, "OFPT_ECHO_REQUEST" },
    { "0705000800000001", OFPERR_OFPBRC_BAD_TYPE, NULL },
    { "0005000800000001", OFPERR_OFPBRC_BAD_TYPE, NULL },
    { "0412001000000004000c000000000000", 0,
      "OFPST_TABLE_FEATURES request" },
    /* OFPST_FLOW request without its body. */
    { "04120010000000040001000000000000", OFPERR_OFPBRC_BAD_LEN, NULL },
    /* Stats type 17 does not exist. */
    { "04120010000000040011000000000000", OFPERR_OFPBRC_BAD_STAT, NULL },
    /* NXT_SET_FLOW_FORMAT without its format. */
    { "0104001000000005000023200000000c", OFPERR_OFPBRC_BAD_LEN, NULL },
    { "0104001000000005000023200000ffff", OFPERR_OFPBRC_BAD_SUBTYPE, NULL },
    { "010400100000000500aabbcc0000000c", OFPERR_OFPBRC_BAD_VENDOR, NULL },
    { "011e000800000006", OFPERR_OFPBRC_BAD_TYPE, NULL },
    { "0106000800000007", OFPERR_OFPBRC_BAD_LEN, NULL },
    { "01120010000000080001000000000000", OFPERR_OFPBRC_BAD_LEN, NULL },
    /* A vendor message too short for its subtype. */
    { "0104000c0000000500002320", OFPERR_OFPBRC_BAD_LEN, NULL },
};

START_TEST(test_header_decode)
{
    const struct header_case *c = &header_cases[_i];
    struct ofpbuf *b = from_hex(c->hex);
    enum ofpraw raw;
    enum ofperr error = ofpraw_decode(&raw, b->data);
    ck_assert_msg(error == c->error, "%s: got %s", c->hex,
                  error ? ofperr_get_name(error) : "success");
    if (!error) {
        ck_assert_str_eq(ofpraw_get_name(raw), c->name);

        /* Pulling leaves the body. */
        size_t size = b->size;
        ck_assert_int_eq(ofpraw_pull(&raw, b), 0);
        ck_assert_uint_eq(b->size,
                          size - ofpraw_header_size(raw,
                                                    ((struct ofp_header *)
                                                     b->header)->version));
    } else {
        /* On error the buffer is untouched. */
        size_t size = b->size;
        ck_assert_int_eq(ofpraw_pull(&raw, b), c->error);
        ck_assert_uint_eq(b->size, size);
    }
    ofpbuf_delete(b);
}
END_TEST

/* Every message header this module can write decodes to itself, in every
 * version where it exists. */
START_TEST(test_header_round_trips)
{
    for (enum ofpraw raw = 0; raw < OFPRAW_N_RAWS; raw++) {
        for (int v = OFP10_VERSION; v <= OFP15_VERSION; v++) {
            if (!ofpraw_is_valid_in(raw, v)) {
                continue;
            }
            struct ofpbuf *b = ofpraw_alloc_xid(raw, v, htonl(7), 0);
            ofpmsg_update_length(b);
            const struct ofp_header *oh = b->data;
            ck_assert_uint_eq(oh->version, v);
            ck_assert_uint_eq(ntohs(oh->length), b->size);
            ck_assert_uint_ge(b->size, ofpraw_header_size(raw, v));
            enum ofpraw got;
            enum ofperr error = ofpraw_decode(&got, oh);
            ck_assert_msg(!error, "%s in version %d: %s",
                          ofpraw_get_name(raw), v, ofperr_get_name(error));
            ck_assert_msg(got == raw, "%s in version %d decodes as %s",
                          ofpraw_get_name(raw), v, ofpraw_get_name(got));
            ck_assert(ofptype_from_ofpraw(got) == ofptype_from_ofpraw(raw));
            ofpbuf_delete(b);
        }
    }
}
END_TEST

/* Every truncation of a valid header is an error, never a crash. */
START_TEST(test_header_truncations)
{
    for (size_t i = 0; i < ARRAY_SIZE(header_cases); i++) {
        struct ofpbuf *full = from_hex(header_cases[i].hex);
        for (size_t n = sizeof(struct ofp_header); n < full->size; n++) {
            struct ofp_header *copy = xmemdup(full->data, n);
            copy->length = htons(n);
            enum ofpraw raw;
            enum ofperr error = ofpraw_decode(&raw, copy);
            if (!error) {
                ck_assert_uint_le(ofpraw_header_size(raw, copy->version), n);
            }
            free(copy);
        }
        ofpbuf_delete(full);
    }
}
END_TEST

struct error_case {
    int version;
    const char *name;
    const char *hex;        /* The reply to ERROR_REQUEST. */
};

/* An echo request with 8 bytes of payload, xid 0x42; the version varies. */
static const char error_request[] = "00020010000000420102030405060708";

static const struct error_case error_cases[] = {
    { 1, "OFPBRC_BAD_TYPE",
      "0101001c000000420001000101020010000000420102030405060708" },
    { 1, "OFPBMC_BAD_FIELD",
      "0101002400000042b0c20000000023200000010701020010000000420102030405060708" },
    { 1, "OFPFMFC_OVERLAP",
      "0101001c000000420003000101020010000000420102030405060708" },
    { 1, "OFPBAC_BAD_OUT_PORT",
      "0101001c000000420002000401020010000000420102030405060708" },
    { 1, "NXBRC_NXM_INVALID",
      "0101002400000042b0c20000000023200001010001020010000000420102030405060708" },
    { 1, "OFPBRC_BAD_LEN",
      "0101001c000000420001000601020010000000420102030405060708" },
    { 1, "OFPGMFC_GROUP_EXISTS",
      "0101002400000042b0c20000000023200006000001020010000000420102030405060708" },
    { 1, "OFPMMFC_UNKNOWN_METER",
      "0101002400000042b0c20000000023200001020901020010000000420102030405060708" },
    { 1, "OFPBIC_UNSUP_INST",
      "0101002400000042b0c20000000023200002010101020010000000420102030405060708" },
    { 1, "OFPBFC_BAD_ID",
      "0101002400000042b0c20000000023200001020901020010000000420102030405060708" },
    { 2, "OFPBRC_BAD_TYPE",
      "0201001c000000420001000102020010000000420102030405060708" },
    { 2, "OFPBMC_BAD_FIELD",
      "0201001c000000420004000602020010000000420102030405060708" },
    { 2, "OFPFMFC_OVERLAP",
      "0201001c000000420005000302020010000000420102030405060708" },
    { 2, "OFPBAC_BAD_OUT_PORT",
      "0201001c000000420002000402020010000000420102030405060708" },
    { 2, "NXBRC_NXM_INVALID",
      "0201002400000042b0c20000000023200001010002020010000000420102030405060708" },
    { 2, "OFPBRC_BAD_LEN",
      "0201001c000000420001000602020010000000420102030405060708" },
    { 2, "OFPGMFC_GROUP_EXISTS",
      "0201001c000000420006000002020010000000420102030405060708" },
    { 2, "OFPMMFC_UNKNOWN_METER",
      "0201002400000042b0c20000000023200001020902020010000000420102030405060708" },
    { 2, "OFPBIC_UNSUP_INST",
      "0201001c000000420003000102020010000000420102030405060708" },
    { 2, "OFPBFC_BAD_ID",
      "0201002400000042b0c20000000023200001020902020010000000420102030405060708" },
    { 3, "OFPBRC_BAD_TYPE",
      "0301001c000000420001000103020010000000420102030405060708" },
    { 3, "OFPBMC_BAD_FIELD",
      "0301001c000000420004000603020010000000420102030405060708" },
    { 3, "OFPFMFC_OVERLAP",
      "0301001c000000420005000303020010000000420102030405060708" },
    { 3, "OFPBAC_BAD_OUT_PORT",
      "0301001c000000420002000403020010000000420102030405060708" },
    { 3, "NXBRC_NXM_INVALID",
      "0301002000000042ffff00020000232003020010000000420102030405060708" },
    { 3, "OFPBRC_BAD_LEN",
      "0301001c000000420001000603020010000000420102030405060708" },
    { 3, "OFPGMFC_GROUP_EXISTS",
      "0301001c000000420006000003020010000000420102030405060708" },
    { 3, "OFPMMFC_UNKNOWN_METER",
      "0301002000000042ffff000a0000232003020010000000420102030405060708" },
    { 3, "OFPBIC_UNSUP_INST",
      "0301001c000000420003000103020010000000420102030405060708" },
    { 3, "OFPBFC_BAD_ID",
      "0301002000000042ffff000a0000232003020010000000420102030405060708" },
    { 4, "OFPBRC_BAD_TYPE",
      "0401001c000000420001000104020010000000420102030405060708" },
    { 4, "OFPBMC_BAD_FIELD",
      "0401001c000000420004000604020010000000420102030405060708" },
    { 4, "OFPFMFC_OVERLAP",
      "0401001c000000420005000304020010000000420102030405060708" },
    { 4, "OFPBAC_BAD_OUT_PORT",
      "0401001c000000420002000404020010000000420102030405060708" },
    { 4, "NXBRC_NXM_INVALID",
      "0401002000000042ffff00020000232004020010000000420102030405060708" },
    { 4, "OFPBRC_BAD_LEN",
      "0401001c000000420001000604020010000000420102030405060708" },
    { 4, "OFPGMFC_GROUP_EXISTS",
      "0401001c000000420006000004020010000000420102030405060708" },
    { 4, "OFPMMFC_UNKNOWN_METER",
      "0401001c00000042000c000304020010000000420102030405060708" },
    { 4, "OFPBIC_UNSUP_INST",
      "0401001c000000420003000104020010000000420102030405060708" },
    { 4, "OFPBFC_BAD_ID",
      "0401002000000042ffff08fe4f4e460004020010000000420102030405060708" },
    { 5, "OFPBRC_BAD_TYPE",
      "0501001c000000420001000105020010000000420102030405060708" },
    { 5, "OFPBMC_BAD_FIELD",
      "0501001c000000420004000605020010000000420102030405060708" },
    { 5, "OFPFMFC_OVERLAP",
      "0501001c000000420005000305020010000000420102030405060708" },
    { 5, "OFPBAC_BAD_OUT_PORT",
      "0501001c000000420002000405020010000000420102030405060708" },
    { 5, "NXBRC_NXM_INVALID",
      "0501002000000042ffff00020000232005020010000000420102030405060708" },
    { 5, "OFPBRC_BAD_LEN",
      "0501001c000000420001000605020010000000420102030405060708" },
    { 5, "OFPGMFC_GROUP_EXISTS",
      "0501001c000000420006000005020010000000420102030405060708" },
    { 5, "OFPMMFC_UNKNOWN_METER",
      "0501001c00000042000c000305020010000000420102030405060708" },
    { 5, "OFPBIC_UNSUP_INST",
      "0501001c000000420003000105020010000000420102030405060708" },
    { 5, "OFPBFC_BAD_ID",
      "0501001c000000420011000205020010000000420102030405060708" },
    { 6, "OFPBRC_BAD_TYPE",
      "0601001c000000420001000106020010000000420102030405060708" },
    { 6, "OFPBMC_BAD_FIELD",
      "0601001c000000420004000606020010000000420102030405060708" },
    { 6, "OFPFMFC_OVERLAP",
      "0601001c000000420005000306020010000000420102030405060708" },
    { 6, "OFPBAC_BAD_OUT_PORT",
      "0601001c000000420002000406020010000000420102030405060708" },
    { 6, "NXBRC_NXM_INVALID",
      "0601002000000042ffff00020000232006020010000000420102030405060708" },
    { 6, "OFPBRC_BAD_LEN",
      "0601001c000000420001000606020010000000420102030405060708" },
    { 6, "OFPGMFC_GROUP_EXISTS",
      "0601001c000000420006000006020010000000420102030405060708" },
    { 6, "OFPMMFC_UNKNOWN_METER",
      "0601001c00000042000c000306020010000000420102030405060708" },
    { 6, "OFPBIC_UNSUP_INST",
      "0601001c000000420003000106020010000000420102030405060708" },
    { 6, "OFPBFC_BAD_ID",
      "0601001c000000420011000206020010000000420102030405060708" },
};

START_TEST(test_error_encoding)
{
    const struct error_case *c = &error_cases[_i];
    struct ofpbuf *req = from_hex(error_request);
    ((struct ofp_header *) req->data)->version = c->version;
    enum ofperr error = ofperr_from_name(c->name);
    ck_assert(ofperr_is_valid(error));
    ck_assert_str_eq(ofperr_get_name(error), c->name);

    struct ofpbuf *reply = ofperr_encode_reply(error, req->data);
    char *hex = check_hex(reply->data, reply->size);
    ck_assert_str_eq(hex, c->hex);
    free(hex);

    /* Decoding gives the error back, or for one the version cannot carry,
     * what was sent instead; the payload is the request. */
    uint32_t vendor;
    int type, code;
    enum ofperr expected = (ofperr_get_numbers(error, c->version, &vendor,
                                               &type, &code)
                            ? error : OFPERR_NXBRC_UNENCODABLE_ERROR);
    struct ofpbuf payload;
    ck_assert_int_eq(ofperr_decode_msg(reply->data, &payload), expected);
    ck_assert_uint_eq(payload.size, req->size);
    ck_assert_mem_eq(payload.data, req->data, req->size);
    ofpbuf_delete(reply);
    ofpbuf_delete(req);
}
END_TEST

/* Every error that has numbers in a version survives a round trip there. */
START_TEST(test_error_round_trips)
{
    struct ofpbuf *req = from_hex(error_request);
    for (int v = OFP10_VERSION; v <= OFP15_VERSION; v++) {
        ((struct ofp_header *) req->data)->version = v;
        for (enum ofperr e = OFPERR_OFS; e < OFPERR_LIMIT; e++) {
            uint32_t vendor;
            int type, code;
            if (!ofperr_get_numbers(e, v, &vendor, &type, &code)) {
                continue;
            }
            struct ofpbuf *reply = ofperr_encode_reply(e, req->data);
            enum ofperr got = ofperr_decode_msg(reply->data, NULL);
            /* Two errors may share numbers in old versions (1.0 has no
             * IS_SECONDARY and says EPERM): the first one wins. */
            uint32_t got_vendor;
            int got_type, got_code;
            ck_assert(got && ofperr_get_numbers(got, v, &got_vendor,
                                                &got_type, &got_code));
            ck_assert_msg(got_vendor == vendor && got_type == type
                          && got_code == code && got <= e,
                          "%s in version %d decodes as %s",
                          ofperr_get_name(e), v, ofperr_get_name(got));
            ck_assert_int_eq(ofperr_from_name(ofperr_get_name(e)), e);
            ofpbuf_delete(reply);
        }
    }
    ofpbuf_delete(req);
}
END_TEST

/* Error messages too short for what they claim are not errors. */
START_TEST(test_error_malformed)
{
    static const char *bad[] = {
        "0101000a000000420001",                 /* No code. */
        "0101000c00000042b0c20000",             /* Vendor error cut short. */
        "0401000c00000042ffff0002",             /* Experimenter cut short. */
        "0101000c00000042ffffffff",             /* No such error. */
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        struct ofpbuf *b = from_hex(bad[i]);
        ck_assert_msg(!ofperr_decode_msg(b->data, NULL), "%s", bad[i]);
        ofpbuf_delete(b);
    }
}
END_TEST

START_TEST(test_hello_failed)
{
    static const char text[] = "We support versions 0x01 to 0x04 inclusive "
                               "but you support 0x05 only.";
    struct ofpbuf *b = ofperr_encode_hello(OFPERR_OFPHFC_INCOMPATIBLE,
                                           OFP10_VERSION, text);
    struct ofpbuf payload;
    ck_assert_int_eq(ofperr_decode_msg(b->data, &payload),
                     OFPERR_OFPHFC_INCOMPATIBLE);
    ck_assert_uint_eq(payload.size, strlen(text));
    ck_assert_mem_eq(payload.data, text, strlen(text));
    const struct ofp_header *oh = b->data;
    ck_assert_uint_eq(ntohs(oh->length), 12 + strlen(text));
    ofpbuf_delete(b);
}
END_TEST

/* Hellos as 3.1 writes them: a version bitmap element unless the versions
 * run from 1.0 without gaps. */
START_TEST(test_hello)
{
    static const struct {
        uint32_t bitmap;
        const char *hex;
    } cases[] = {
        { 0x02, "0100000800000001" },
        { 0x12, "04000010000000010001000800000012" },
        { 0x1e, "0400000800000001" },
        { 0x7e, "0600000800000001" },
        { 0x10, "04000010000000010001000800000010" },
        { 0x22, "05000010000000010001000800000022" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        set_next_xid(1);
        struct ofpbuf *b = ofputil_encode_hello(cases[i].bitmap);
        char *hex = check_hex(b->data, b->size);
        ck_assert_str_eq(hex, cases[i].hex);
        free(hex);
        uint32_t bitmap;
        ck_assert(ofputil_decode_hello(b->data, &bitmap));
        ck_assert_uint_eq(bitmap, cases[i].bitmap);
        ofpbuf_delete(b);
    }

    /* A 1.3 hello without a bitmap offers 1.0 to 1.3; a future version's
     * offers everything up to it (3.1 prints 0x01..0x07 for "07"). */
    uint32_t bitmap;
    struct ofpbuf *b = from_hex("0400000800000001");
    ck_assert(ofputil_decode_hello(b->data, &bitmap));
    ck_assert_uint_eq(bitmap, 0x1e);
    ofpbuf_delete(b);
    b = from_hex("0700000800000001");
    ck_assert(ofputil_decode_hello(b->data, &bitmap));
    ck_assert_uint_eq(bitmap, 0xfe);
    ofpbuf_delete(b);

    /* Negotiation: the highest common version. */
    ck_assert_uint_eq(ofputil_negotiate_version(0x12, 0x1e), OFP13_VERSION);
    ck_assert_uint_eq(ofputil_negotiate_version(0x02, 0x10), 0);
    ck_assert_uint_eq(ofputil_negotiate_version(0x7e, 0xfe), OFP15_VERSION);
}
END_TEST

START_TEST(test_versions_and_protocols)
{
    ck_assert_str_eq(ofputil_version_to_string(OFP13_VERSION), "OpenFlow13");
    ck_assert_uint_eq(ofputil_version_from_string("openflow15"),
                      OFP15_VERSION);
    ck_assert_uint_eq(ofputil_version_from_string("OpenFlow16"), 0);

    uint32_t bitmap;
    char *error = ofputil_versions_from_string("OpenFlow10,OpenFlow13",
                                               &bitmap);
    ck_assert_ptr_null(error);
    ck_assert_uint_eq(bitmap, 0x12);
    error = ofputil_versions_from_string("OpenFlow10,bogus", &bitmap);
    ck_assert_ptr_nonnull(error);
    free(error);

    /* Protocol names as ovs-ofctl prints them ("chosen protocol: ..."). */
    ck_assert_str_eq(ofputil_protocol_to_string(OFPUTIL_P_OF10_STD_TID),
                     "OpenFlow10+table_id");
    ck_assert_str_eq(ofputil_protocol_to_string(OFPUTIL_P_OF13_OXM),
                     "OXM-OpenFlow13");
    ck_assert_str_eq(ofputil_protocol_to_string(OFPUTIL_P_OF10_NXM),
                     "NXM-table_id");
    char *s = ofputil_protocols_to_string(OFPUTIL_P_ANY);
    ck_assert_str_eq(s, "any");
    free(s);
    s = ofputil_protocols_to_string(OFPUTIL_P_NXM_OXM_ANY);
    ck_assert_str_eq(s, "NXM,OXM");
    free(s);
    ck_assert_uint_eq(ofputil_protocols_from_string("NXM,OXM"),
                      OFPUTIL_P_NXM_OXM_ANY);
    for (enum ofputil_protocol p = 1; p & OFPUTIL_P_ANY; p <<= 1) {
        ck_assert(ofputil_protocol_is_valid(p));
        ck_assert_uint_eq(ofputil_protocols_from_string(
                              ofputil_protocol_to_string(p)), p);
        enum ofp_version v = ofputil_protocol_to_ofp_version(p);
        ck_assert(ofputil_protocol_from_ofp_version(v)
                  & ofputil_protocols_from_version_bitmap(1u << v));
    }
}
END_TEST

/* Multipart replies split before a part would pass 64 kB, flagging
 * "more" on every part but the last. */
START_TEST(test_multipart_split)
{
    set_next_xid(9);
    struct ofpbuf *req = ofpraw_alloc(OFPRAW_OFPST13_TABLE_FEATURES_REQUEST,
                                      OFP13_VERSION, 0);
    struct ovs_list replies;
    ofpmp_init(&replies, req->data);
    for (int i = 0; i < 100; i++) {
        memset(ofpmp_append(&replies, 1000), i, 1000);
    }
    size_t n_parts = 0, total = 0;
    struct ofpbuf *part;
    LIST_FOR_EACH (part, list_node, &replies) {
        const struct ofp_header *oh = part->data;
        ck_assert_uint_le(part->size, UINT16_MAX);
        ck_assert_uint_eq(ntohs(oh->length), part->size);
        ck_assert(oh->xid == htonl(9));
        enum ofpraw raw;
        ck_assert_int_eq(ofpraw_decode(&raw, oh), 0);
        ck_assert_int_eq(raw, OFPRAW_OFPST13_TABLE_FEATURES_REPLY);
        n_parts++;
        bool last = part->list_node.next == &replies;
        ck_assert(ofpmp_more(oh) == !last);
        total += part->size - ofpraw_header_size(raw, OFP13_VERSION);
    }
    ck_assert_uint_eq(n_parts, 2);
    ck_assert_uint_eq(total, 100000);
    ofpbuf_list_delete(&replies);
    ofpbuf_delete(req);
}
END_TEST

static Suite *
ofp_msgs_suite(void)
{
    Suite *s = suite_create("ofp-msgs");
    TCase *tc = tcase_create("ofp-msgs");
    tcase_add_loop_test(tc, test_header_decode, 0, ARRAY_SIZE(header_cases));
    tcase_add_test(tc, test_header_round_trips);
    tcase_add_test(tc, test_header_truncations);
    tcase_add_loop_test(tc, test_error_encoding, 0, ARRAY_SIZE(error_cases));
    tcase_add_test(tc, test_error_round_trips);
    tcase_add_test(tc, test_error_malformed);
    tcase_add_test(tc, test_hello_failed);
    tcase_add_test(tc, test_hello);
    tcase_add_test(tc, test_versions_and_protocols);
    tcase_add_test(tc, test_multipart_split);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_msgs_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
