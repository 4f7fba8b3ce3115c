/* libFuzzer target: the OpenFlow decoders.
 *
 * The first input byte picks what the rest is:
 *   0  an OpenFlow message: header decoding, and error and hello decoding
 *      when the header says so, must be safe on anything; a header that
 *      decodes must fit inside the message;
 *   1  an NXM match (the second byte: bit 0, with a cookie; bits 1-3,
 *      how many trailing bytes are padding rather than match): what
 *      decodes strictly must re-encode to bytes that decode to the same
 *      match and re-encode to the same bytes; loose decoding and printing
 *      the TLVs must be safe on anything;
 *   2  an OXM match with its ofp11_match_header, in the version the
 *      second byte names (1.2 to 1.5), with the same checks;
 *   3  TLV text ("NXM_OF_IN_PORT(0001), ..."): what parses must print back
 *      to the same text after a decode and re-encode, if it decodes;
 *   4  instructions (1.0: actions) in the version the second byte names:
 *      what decodes must print, and if the version can carry it, encode to
 *      bytes that decode and re-encode to the same bytes;
 *   5  action text: what parses must print, and the printed text must
 *      parse back to the same text;
 *   6  a flow_mod message: what decodes must print, and encode in its own
 *      protocol to a message that decodes and prints the same;
 *   7  flow text (add-flow): what parses must encode, in NXM and in
 *      OpenFlow 1.3 where the actions allow, to messages that decode.
 *   8  a flow or aggregate stats request or reply, flow_removed,
 *      packet_in, packet_out, group or meter message: what decodes must
 *      print, and re-encode in its own version (and flow format or
 *      packet-in format) to a message that decodes and prints; for the
 *      requests, flow_removed, packet_out, group_mod and meter_mod the
 *      printed text must be the same;
 *   9  packet-out, group and meter text (the second byte picks which and
 *      the command): what parses must encode in 1.3 (1.0 for packet-out)
 *      to a message that decodes.
 *  10  a switch, port or table message (features, config, role, async
 *      config, desc, port status/mod/desc/stats, table stats/features/
 *      mod, flow monitor request/reply): ofp_to_string() must be safe on
 *      anything; what decodes must
 *      re-encode in the message's version to bytes that decode to the
 *      same thing and re-encode to the same bytes.
 * Any disagreement aborts, which libFuzzer reports as a crash. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "match.h"
#include "ofp-actions.h"
#include "nx-match.h"
#include "ofp-errors.h"
#include "ofp-flow.h"
#include "ofp-group.h"
#include "ofp-meter.h"
#include "ofp-monitor.h"
#include "ofp-packet.h"
#include "ofp-phy-port.h"
#include "ofp-print.h"
#include "ofp-switch.h"
#include "ofp-table.h"
#include "list.h"
#include "ofp-parse.h"
#include "ofp-msgs.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"
#include "openflow.h"
#include "util.h"
#include "vlog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fuzz_message(const uint8_t *data, size_t size)
{
    if (size < sizeof(struct ofp_header)) {
        return;
    }
    /* The caller of ofpraw_decode() has checked that the header's length
     * is what it read; make it so. */
    uint8_t *copy = xmemdup(data, size);
    struct ofp_header *oh = (struct ofp_header *) copy;
    size_t len = MIN(size, UINT16_MAX);
    oh->length = htons(len);

    enum ofpraw raw;
    if (!ofpraw_decode(&raw, oh)) {
        if (ofpraw_header_size(raw, oh->version) > len) {
            abort();
        }
        struct ofpbuf b;
        ofpbuf_use_const(&b, copy, len);
        if (ofpraw_pull(&raw, &b)) {
            abort();
        }
    }
    struct ofpbuf payload;
    enum ofperr error = ofperr_decode_msg(oh, &payload);
    if (error && !ofperr_is_valid(error)) {
        abort();
    }
    uint32_t bitmap;
    ofputil_decode_hello(oh, &bitmap);
    free(copy);
}

/* Decodes the SIZE bytes at P as VERSION's match (0: NXM, MATCH_LEN bytes
 * of it plus padding) or fails. */
static enum ofperr
pull(const void *p, size_t size, size_t len, enum ofp_version version,
     bool strict, struct match *match, ovs_be64 *cookie,
     ovs_be64 *cookie_mask)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, p, size);
    if (version) {
        return (strict ? oxm_pull_match(&b, match)
                : oxm_pull_match_loose(&b, match));
    }
    return (strict
            ? nx_pull_match(&b, len, match, cookie, cookie_mask)
            : nx_pull_match_loose(&b, len, match, cookie, cookie_mask));
}

static void
put(struct ofpbuf *b, const struct match *match, enum ofp_version version,
    ovs_be64 cookie, ovs_be64 cookie_mask, int *len)
{
    *len = (version ? oxm_put_match(b, match, version)
            : nx_put_match(b, match, cookie, cookie_mask));
}

static void
fuzz_match(const uint8_t *data, size_t size, enum ofp_version version,
           uint8_t flags)
{
    /* Exactly SIZE bytes, so ASan sees any read past them. */
    uint8_t *copy = xmemdup(data, size);
    struct match match;
    bool with_cookie = flags & 1;
    ovs_be64 cookie = 0, cookie_mask = 0;
    ovs_be64 *cp = with_cookie ? &cookie : NULL;
    ovs_be64 *cmp = with_cookie ? &cookie_mask : NULL;

    if (!version) {
        char *s = nx_match_to_string(copy, size);
        free(s);
    }
    /* For NXM, the second byte's upper bits choose how much of the input
     * the match length claims (the rest is then padding). */
    size_t len = version ? size : size - MIN(size, (flags >> 1) & 7);
    pull(copy, size, len, version, false, &match, cp, cmp);

    if (!pull(copy, size, len, version, true, &match, cp, cmp)) {
        struct ofpbuf first, second;
        ofpbuf_init(&first, 64);
        ofpbuf_init(&second, 64);
        int first_len, second_len;
        put(&first, &match, version, cookie, cookie_mask, &first_len);

        struct match again;
        ovs_be64 cookie2 = 0, cookie_mask2 = 0;
        enum ofperr error = pull(first.data, first.size, first_len, version,
                                 true, &again,
                                 with_cookie ? &cookie2 : NULL,
                                 with_cookie ? &cookie_mask2 : NULL);
        if (!version) {
            /* NXM can say everything a match holds. */
            if (error || !match_equal(&match, &again)
                || cookie2 != (cookie & cookie_mask)
                || cookie_mask2 != cookie_mask) {
                abort();
            }
        }
        /* OXM splits vlan_tci into vlan_vid and vlan_pcp, so a TCI with
         * no CFI bit but other bits set comes back different (or not at
         * all), as in Open vSwitch; what does come back must be a fixed
         * point. */
        if (!error) {
            put(&second, &again, version, cookie2, cookie_mask2,
                &second_len);
            if (first.size != second.size
                || memcmp(first.data, second.data, first.size)) {
                abort();
            }
        }
        char *text = (version ? oxm_match_to_string(&first, first_len)
                      : nx_match_to_string(first.data, first_len));
        free(text);
        text = match_to_string(&match, NULL, OFP_DEFAULT_PRIORITY);
        free(text);
        ofpbuf_uninit(&first);
        ofpbuf_uninit(&second);
    }
    free(copy);
}

static void
fuzz_text(const uint8_t *data, size_t size)
{
    char *text = xmemdup0((const char *) data, size);
    struct ofpbuf b;
    ofpbuf_init(&b, 64);
    char *error = NULL;
    int len = nx_match_from_string(text, &b, &error);
    if (len < 0) {
        free(error);
    } else {
        struct match match;
        if (!pull(b.data, b.size, len, 0, true, &match, NULL, NULL)) {
            struct ofpbuf out;
            ofpbuf_init(&out, 64);
            int out_len = nx_put_match(&out, &match, 0, 0);
            char *s = nx_match_to_string(out.data, out_len);
            struct ofpbuf back;
            ofpbuf_init(&back, 64);
            int back_len = nx_match_from_string(s, &back, &error);
            if (back_len != out_len
                || memcmp(back.data, out.data, out_len)) {
                abort();
            }
            free(s);
            ofpbuf_uninit(&back);
            ofpbuf_uninit(&out);
        }
    }
    ofpbuf_uninit(&b);
    free(text);
}

static void
fuzz_instructions(const uint8_t *data, size_t size, enum ofp_version version)
{
    uint8_t *copy = xmemdup(data, size);
    struct ofpbuf wire, ofpacts;
    ofpbuf_use_const(&wire, copy, size);
    ofpbuf_init(&ofpacts, 64);
    if (!ofpacts_pull_openflow_instructions(&wire, size, version, &ofpacts)) {
        struct ds s = DS_EMPTY_INITIALIZER;
        ofpact_list_format(ofpacts.data, ofpacts.size, NULL, NULL, &s);
        ds_destroy(&s);

        /* A TCP flow, so that every action can be annotated. */
        struct match match;
        match_init_catchall(&match);
        match_set_dl_type(&match, htons(0x0800));
        match_set_nw_proto(&match, 6);
        if (!ofpacts_annotate(ofpacts.data, ofpacts.size, &match)
            && ofpacts_encodable_in(ofpacts.data, ofpacts.size, version)) {
            struct ofpbuf first, second, again;
            ofpbuf_init(&first, 64);
            ofpbuf_init(&second, 64);
            ofpbuf_init(&again, 64);
            size_t n = ofpacts_put_openflow_instructions(
                ofpacts.data, ofpacts.size, &first, version);
            struct ofpbuf pull;
            ofpbuf_use_const(&pull, first.data, first.size);
            if (ofpacts_pull_openflow_instructions(&pull, n, version,
                                                   &again)
                || ofpacts_annotate(again.data, again.size, &match)) {
                abort();
            }
            ofpacts_put_openflow_instructions(again.data, again.size,
                                              &second, version);
            if (first.size != second.size
                || memcmp(first.data, second.data, first.size)) {
                abort();
            }
            ofpbuf_uninit(&first);
            ofpbuf_uninit(&second);
            ofpbuf_uninit(&again);
        }
    }
    ofpbuf_uninit(&ofpacts);
    free(copy);
}

static void
fuzz_action_text(const uint8_t *data, size_t size)
{
    char *text = xmemdup0((const char *) data, size);
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 64);
    char *error = ofpacts_parse_instructions(text, NULL, NULL, &ofpacts);
    if (error) {
        free(error);
    } else {
        struct ds first = DS_EMPTY_INITIALIZER;
        struct ds second = DS_EMPTY_INITIALIZER;
        ofpact_list_format(ofpacts.data, ofpacts.size, NULL, NULL, &first);
        struct ofpbuf again;
        ofpbuf_init(&again, 64);
        error = ofpacts_parse_instructions(ds_cstr(&first), NULL, NULL, &again);
        if (error) {
            abort();
        }
        ofpact_list_format(again.data, again.size, NULL, NULL, &second);
        if (strcmp(ds_cstr(&first), ds_cstr(&second))) {
            abort();
        }
        ds_destroy(&first);
        ds_destroy(&second);
        ofpbuf_uninit(&again);
    }
    ofpbuf_uninit(&ofpacts);
    free(text);
}

static char *
flow_mod_text(const struct ofp_header *oh, enum ofperr *errorp)
{
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 64);
    *errorp = ofputil_decode_flow_mod(&fm, oh, &ofpacts);
    char *text = NULL;
    if (!*errorp) {
        struct ds s = DS_EMPTY_INITIALIZER;
        ofputil_flow_mod_format(&fm, oh->version, NULL, &s);
        text = ds_steal_cstr(&s);
    }
    ofpbuf_uninit(&ofpacts);
    return text;
}

static void
fuzz_flow_mod(const uint8_t *data, size_t size)
{
    if (size < sizeof(struct ofp_header)) {
        return;
    }
    size_t len = MIN(size, UINT16_MAX);
    struct ofp_header *oh = xmemdup(data, len);
    oh->length = htons(len);

    enum ofperr error;
    char *first = flow_mod_text(oh, &error);
    if (first) {
        struct ofputil_flow_mod fm;
        struct ofpbuf ofpacts;
        ofpbuf_init(&ofpacts, 64);
        if (ofputil_decode_flow_mod(&fm, oh, &ofpacts)) {
            abort();
        }
        /* Re-encode in the protocol it came in, where the encoder writes
         * that form (not NXT_FLOW_MOD after 1.0, nor 1.1). */
        enum ofpraw raw;
        ofpraw_decode(&raw, oh);
        enum ofputil_protocol protocol
            = (oh->version != OFP10_VERSION
               ? (raw == OFPRAW_NXT_FLOW_MOD ? 0
                  : ofputil_protocol_from_ofp_version(oh->version))
               : raw == OFPRAW_NXT_FLOW_MOD ? OFPUTIL_P_OF10_NXM_TID
               : OFPUTIL_P_OF10_STD_TID);
        if (protocol && protocol != OFPUTIL_P_OF11_STD) {
            struct ofpbuf *msg = ofputil_encode_flow_mod(&fm, protocol);
            char *second = flow_mod_text(msg->data, &error);
            if (!second || strcmp(first, second)) {
                abort();
            }
            free(second);
            ofpbuf_delete(msg);
        }
        ofpbuf_uninit(&ofpacts);
        free(first);
    }
    free(oh);
}

static void
fuzz_flow_text(const uint8_t *data, size_t size)
{
    char *text = xmemdup0((const char *) data, size);
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 64);
    enum ofputil_protocol usable;
    char *error = parse_ofp_flow_mod_str_protocols(&fm, text, NULL, NULL,
                                                   OFPFC_ADD, &ofpacts,
                                                   &usable);
    if (error) {
        free(error);
    } else {
        static const enum ofputil_protocol protocols[] = {
            OFPUTIL_P_OF10_NXM_TID, OFPUTIL_P_OF13_OXM,
        };
        for (size_t i = 0; i < ARRAY_SIZE(protocols); i++) {
            enum ofp_version v = ofputil_protocol_to_ofp_version(
                protocols[i]);
            /* As ovs-ofctl, only in a protocol that can carry the flow
             * (mod_tp_src without TCP, UDP or SCTP is 1.0 and NXM only). */
            if (!(usable & protocols[i])
                || !ofpacts_encodable_in(ofpacts.data, ofpacts.size, v)) {
                continue;
            }
            struct ofpbuf *msg = ofputil_encode_flow_mod(&fm, protocols[i]);
            enum ofperr err;
            char *printed = flow_mod_text(msg->data, &err);
            /* A VLAN match without the CFI bit ("vlan_tci=0xfff") has no
             * OXM form that decodes: 3.1 encodes it in 1.3 all the same
             * and its own decoder refuses it with OFPBMC_BAD_PREREQ, and
             * so do we. */
            /* And 1.0's mod_nw_ttl goes as a load of nw_ttl, which a
             * flow without IP may not do: 3.1 refuses its own message
             * (OFPBAC_MATCH_INCONSISTENT) too. */
            if (!printed && !(protocols[i] == OFPUTIL_P_OF13_OXM
                              && err == OFPERR_OFPBMC_BAD_PREREQ)
                && err != OFPERR_OFPBAC_MATCH_INCONSISTENT) {
                abort();
            }
            free(printed);
            ofpbuf_delete(msg);
        }
    }
    ofpbuf_uninit(&ofpacts);
    free(text);
}

/* Prints OH, one of the messages of case 8; NULL if it does not decode
 * (or is of another kind). */
static char *
more_message_text(const struct ofp_header *oh)
{
    enum ofptype type;
    if (ofptype_decode(&type, oh)) {
        return NULL;
    }
    struct ds s = DS_EMPTY_INITIALIZER;
    enum ofperr error;
    switch (type) {
    case OFPTYPE_FLOW_STATS_REQUEST:
    case OFPTYPE_AGGREGATE_STATS_REQUEST:
        error = ofputil_flow_stats_request_print(&s, oh, NULL, NULL);
        break;
    case OFPTYPE_FLOW_STATS_REPLY:
        error = ofputil_flow_stats_reply_print(&s, oh, NULL, NULL);
        break;
    case OFPTYPE_AGGREGATE_STATS_REPLY:
        error = ofputil_aggregate_stats_reply_print(&s, oh);
        break;
    case OFPTYPE_FLOW_REMOVED:
        error = ofputil_flow_removed_print(&s, oh, NULL, NULL);
        break;
    case OFPTYPE_PACKET_IN:
        error = ofputil_packet_in_print(&s, oh, NULL, NULL, 2);
        break;
    case OFPTYPE_PACKET_OUT:
        error = ofputil_packet_out_print(&s, oh, NULL, NULL, 2);
        break;
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
    case OFPTYPE_METER_MOD:
        error = ofputil_meter_mod_print(&s, oh);
        break;
    case OFPTYPE_METER_STATS_REQUEST:
    case OFPTYPE_METER_CONFIG_STATS_REQUEST:
    case OFPTYPE_METER_FEATURES_STATS_REQUEST:
        error = ofputil_meter_request_print(&s, oh);
        break;
    case OFPTYPE_METER_CONFIG_STATS_REPLY:
        error = ofputil_meter_config_reply_print(&s, oh);
        break;
    case OFPTYPE_METER_STATS_REPLY:
        error = ofputil_meter_stats_reply_print(&s, oh);
        break;
    case OFPTYPE_METER_FEATURES_STATS_REPLY:
        error = ofputil_meter_features_reply_print(&s, oh);
        break;
    default:
        error = OFPERR_OFPBRC_BAD_TYPE;
        break;
    }
    if (error) {
        ds_destroy(&s);
        return NULL;
    }
    return ds_steal_cstr(&s);
}

/* The protocol OH was written in, for re-encoding. */
static enum ofputil_protocol
message_protocol(const struct ofp_header *oh)
{
    enum ofpraw raw;
    ofpraw_decode(&raw, oh);
    if (oh->version == OFP10_VERSION) {
        return (!strncmp(ofpraw_get_name(raw), "NX", 2)
                ? OFPUTIL_P_OF10_NXM : OFPUTIL_P_OF10_STD);
    }
    return ofputil_protocol_from_ofp_version(oh->version);
}

/* Re-encodes OH (which decoded) in its own form; NULL where the encoders
 * do not write that form.  *SAME_TEXT tells whether the printed text must
 * survive the trip (not where decoding is loose or normalizes). */
static struct ofpbuf *
more_message_reencode(const struct ofp_header *oh, bool *same_text)
{
    enum ofptype type;
    ofptype_decode(&type, oh);
    enum ofputil_protocol protocol = message_protocol(oh);
    enum ofpraw raw;
    ofpraw_decode(&raw, oh);
    struct ofpbuf ofpacts, *msg = NULL;
    ofpbuf_init(&ofpacts, 64);
    *same_text = false;

    switch (type) {
    case OFPTYPE_FLOW_STATS_REQUEST:
    case OFPTYPE_AGGREGATE_STATS_REQUEST: {
        struct ofputil_flow_stats_request fsr;
        if (!ofputil_decode_flow_stats_request(&fsr, oh)) {
            msg = ofputil_encode_flow_stats_request(&fsr, protocol);
            *same_text = true;
        }
        break;
    }
    case OFPTYPE_FLOW_REMOVED: {
        struct ofputil_flow_removed fr;
        if (!ofputil_decode_flow_removed(&fr, oh)
            && (raw != OFPRAW_NXT_FLOW_REMOVED
                || oh->version == OFP10_VERSION)) {
            msg = ofputil_encode_flow_removed(&fr, protocol);
            *same_text = true;
        }
        break;
    }
    case OFPTYPE_PACKET_IN: {
        struct ofputil_packet_in pin;
        if (!ofputil_decode_packet_in(oh, true, &pin)) {
            msg = ofputil_encode_packet_in(
                &pin, protocol,
                (raw == OFPRAW_NXT_PACKET_IN2 ? OFPUTIL_PACKET_IN_NXT2
                 : raw == OFPRAW_NXT_PACKET_IN ? OFPUTIL_PACKET_IN_NXT
                 : OFPUTIL_PACKET_IN_STD));
        }
        break;
    }
    case OFPTYPE_PACKET_OUT: {
        struct ofputil_packet_out po;
        if (!ofputil_decode_packet_out(&po, oh, &ofpacts)) {
            msg = ofputil_encode_packet_out(&po, protocol);
            *same_text = oh->version != OFP15_VERSION;
        }
        break;
    }
    case OFPTYPE_GROUP_MOD: {
        struct ofputil_group_mod gm;
        if (!ofputil_decode_group_mod(oh, &gm)) {
            msg = ofputil_encode_group_mod(oh->version, &gm);
            ofputil_uninit_group_mod(&gm);
            *same_text = true;
        }
        break;
    }
    case OFPTYPE_METER_MOD: {
        struct ofputil_meter_mod mm;
        if (!ofputil_decode_meter_mod(oh, &mm, &ofpacts)) {
            msg = ofputil_encode_meter_mod(oh->version, &mm);
            *same_text = true;
        }
        break;
    }
    default:
        break;
    }
    ofpbuf_uninit(&ofpacts);
    return msg;
}

static void
fuzz_more_messages(const uint8_t *data, size_t size)
{
    if (size < sizeof(struct ofp_header)) {
        return;
    }
    size_t len = MIN(size, UINT16_MAX);
    struct ofp_header *oh = xmemdup(data, len);
    oh->length = htons(len);
    char *first = more_message_text(oh);
    if (first) {
        bool same_text;
        struct ofpbuf *msg = more_message_reencode(oh, &same_text);
        if (msg) {
            char *second = more_message_text(msg->data);
            if (!second || (same_text && strcmp(first, second))) {
                abort();
            }
            free(second);
            ofpbuf_delete(msg);
        }
        free(first);
    }
    free(oh);
}

static void
fuzz_more_text(const uint8_t *data, size_t size, uint8_t which)
{
    char *text = xmemdup0((const char *) data, size);
    enum ofputil_protocol usable;
    char *error;
    struct ofpbuf *msg = NULL;
    if (which % 3 == 0) {
        struct ofputil_packet_out po;
        struct ofpbuf ofpacts;
        ofpbuf_init(&ofpacts, 64);
        error = parse_ofp_packet_out_str(&po, text, NULL, &ofpacts, &usable);
        if (!error && usable & OFPUTIL_P_OF10_STD) {
            msg = ofputil_encode_packet_out(&po, OFPUTIL_P_OF10_STD);
        }
        if (!error) {
            free((void *) po.packet);
        }
        ofpbuf_uninit(&ofpacts);
    } else if (which % 3 == 1) {
        struct ofputil_group_mod gm;
        static const int commands[] = {
            OFPGC11_ADD, OFPGC11_MODIFY, OFPGC11_DELETE,
        };
        error = parse_ofp_group_mod_str(&gm, commands[which / 3 % 3], text,
                                        NULL, &usable);
        if (!error) {
            msg = ofputil_encode_group_mod(OFP13_VERSION, &gm);
            ofputil_uninit_group_mod(&gm);
        }
    } else {
        struct ofputil_meter_mod mm;
        error = parse_ofp_meter_mod_str(&mm, text, which / 3 % 3, &usable);
        if (!error) {
            msg = ofputil_encode_meter_mod(OFP13_VERSION, &mm);
            free(mm.meter.bands);
        }
    }
    free(error);
    if (msg) {
        /* What the encoders wrote from parsed text must decode, unless
         * the text names something the switch refuses (a group mod
         * check, a bad port), which the decoder reports. */
        char *printed = more_message_text(msg->data);
        free(printed);
        ofpbuf_delete(msg);
    }
    free(text);
}

/* The fixed-point check of selector 10: A was encoded from what the input
 * decoded to, B from what A decodes to (both with the same xid); they
 * must be the same bytes. */
static void
check_same_bytes(const struct ofpbuf *a, const struct ofpbuf *b)
{
    if (a->size != b->size || memcmp(a->data, b->data, a->size)) {
        abort();
    }
}

static void
fuzz_switch_config(const struct ofp_header *oh, enum ofptype type)
{
    struct ofputil_switch_config c1, c2;
    enum ofperr error = (type == OFPTYPE_SET_CONFIG
                         ? ofputil_decode_set_config(oh, &c1)
                         : ofputil_decode_get_config_reply(oh, &c1));
    if (error) {
        return;
    }
    set_next_xid(1);
    struct ofpbuf *m1 = ofputil_encode_set_config(&c1, oh->version);
    if (ofputil_decode_set_config(m1->data, &c2)
        || c2.frag != c1.frag || c2.miss_send_len != c1.miss_send_len
        || c2.invalid_ttl_to_controller != c1.invalid_ttl_to_controller) {
        abort();
    }
    set_next_xid(1);
    struct ofpbuf *m2 = ofputil_encode_set_config(&c2, oh->version);
    check_same_bytes(m1, m2);
    ofpbuf_delete(m1);
    ofpbuf_delete(m2);
}

/* Flow monitor requests (REQUEST) or replies: every entry decoded is
 * encoded again; that message must decode and re-encode to itself. */
static struct ofpbuf *
flow_monitor_reencode(const struct ofp_header *oh, bool request)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    struct ofpbuf *out = NULL;
    struct ovs_list replies;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 64);
    if (request) {
        out = ofpbuf_new(64);
    } else {
        ofputil_start_flow_update_async(&replies, oh->version);
    }
    int retval;
    for (;;) {
        if (request) {
            struct ofputil_flow_monitor_request rq;
            retval = ofputil_decode_flow_monitor_request(&rq, &b);
            if (!retval) {
                set_next_xid(1);
                ofputil_append_flow_monitor_request(&rq, out, oh->version);
            }
        } else {
            struct ofputil_flow_update u;
            ofpbuf_clear(&ofpacts);
            retval = ofputil_decode_flow_update(&u, &b, &ofpacts);
            if (!retval) {
                ofputil_append_flow_update(&u, &replies);
            }
        }
        if (retval) {
            break;
        }
    }
    ofpbuf_uninit(&ofpacts);
    if (!request) {
        /* One part: anything longer is left alone. */
        if (retval == EOF && ovs_list_is_singleton(&replies)) {
            out = ofpbuf_from_list(ovs_list_pop_front(&replies));
        }
        ofpbuf_list_delete(&replies);
    }
    if (retval != EOF || !out || !out->size) {
        ofpbuf_delete(out);
        return NULL;
    }
    return out;
}

static void
fuzz_flow_monitor(const struct ofp_header *oh, bool request)
{
    struct ofpbuf *m1 = flow_monitor_reencode(oh, request);
    if (m1) {
        struct ofpbuf *m2 = flow_monitor_reencode(m1->data, request);
        if (!m2) {
            abort();
        }
        check_same_bytes(m1, m2);
        ofpbuf_delete(m2);
    }
    ofpbuf_delete(m1);
}

static void
fuzz_role(const struct ofp_header *oh)
{
    struct ofputil_role_request r1, r2;
    if (ofputil_decode_role_message(oh, &r1)) {
        return;
    }
    set_next_xid(1);
    struct ofpbuf *m1 = ofputil_encode_role_request(&r1, oh->version);
    if (ofputil_decode_role_message(m1->data, &r2)) {
        abort();
    }
    set_next_xid(1);
    struct ofpbuf *m2 = ofputil_encode_role_request(&r2, oh->version);
    check_same_bytes(m1, m2);
    ofpbuf_delete(m1);
    ofpbuf_delete(m2);
}

static void
fuzz_async(const struct ofp_header *oh)
{
    struct ofputil_async_cfg zero, c1, c2;
    memset(&zero, 0, sizeof zero);
    if (ofputil_decode_set_async_config(oh, false, &zero, &c1)) {
        return;
    }
    uint32_t all = (1u << OAM_N_TYPES) - 1;
    set_next_xid(1);
    struct ofpbuf *m1 = ofputil_encode_set_async_config(&c1, all,
                                                        oh->version);
    if (ofputil_decode_set_async_config(m1->data, false, &zero, &c2)) {
        abort();
    }
    set_next_xid(1);
    struct ofpbuf *m2 = ofputil_encode_set_async_config(&c2, all,
                                                        oh->version);
    check_same_bytes(m1, m2);
    ofpbuf_delete(m1);
    ofpbuf_delete(m2);
}

static void
fuzz_port_status(const struct ofp_header *oh)
{
    struct ofputil_port_status p1, p2;
    if (ofputil_decode_port_status(oh, &p1)) {
        return;
    }
    struct ofpbuf *m1 = ofputil_encode_port_status(&p1, oh->version);
    if (ofputil_decode_port_status(m1->data, &p2)) {
        abort();
    }
    struct ofpbuf *m2 = ofputil_encode_port_status(&p2, oh->version);
    check_same_bytes(m1, m2);
    ofpbuf_delete(m1);
    ofpbuf_delete(m2);
}

static void
fuzz_port_mod(const struct ofp_header *oh)
{
    struct ofputil_port_mod p1, p2;
    if (ofputil_decode_port_mod(oh, &p1, true)) {
        return;
    }
    set_next_xid(1);
    struct ofpbuf *m1 = ofputil_encode_port_mod(&p1, oh->version);
    if (ofputil_decode_port_mod(m1->data, &p2, false)) {
        abort();
    }
    set_next_xid(1);
    struct ofpbuf *m2 = ofputil_encode_port_mod(&p2, oh->version);
    check_same_bytes(m1, m2);
    ofpbuf_delete(m1);
    ofpbuf_delete(m2);
}

static void
fuzz_table_mod(const struct ofp_header *oh)
{
    struct ofputil_table_mod t1, t2;
    if (ofputil_decode_table_mod(oh, &t1)) {
        return;
    }
    set_next_xid(1);
    struct ofpbuf *m1 = ofputil_encode_table_mod(&t1, oh->version);
    if (ofputil_decode_table_mod(m1->data, &t2)) {
        abort();
    }
    set_next_xid(1);
    struct ofpbuf *m2 = ofputil_encode_table_mod(&t2, oh->version);
    check_same_bytes(m1, m2);
    ofpbuf_delete(m1);
    ofpbuf_delete(m2);
}

static void
fuzz_table_features(const struct ofp_header *oh)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    struct ofpbuf *request = ofputil_encode_table_features_request(
        oh->version);
    struct ovs_list replies;
    bool started = false;
    for (;;) {
        struct ofputil_table_features tf;
        if (ofputil_decode_table_features(&b, &tf, true)) {
            break;
        }
        if (!started) {
            ofpmp_init(&replies, request->data);
            started = true;
        }
        ofputil_append_table_features(&tf, &replies);
    }
    if (!started) {
        ofpbuf_delete(request);
        return;
    }
    /* What we wrote decodes strictly, and writes the same again. */
    struct ofpbuf *part;
    LIST_FOR_EACH (part, list_node, &replies) {
        struct ofpbuf again;
        ofpbuf_use_const(&again, part->data, part->size);
        struct ovs_list replies2;
        ofpmp_init(&replies2, request->data);
        struct ofputil_table_features tf;
        int retval;
        while (!(retval = ofputil_decode_table_features(&again, &tf,
                                                        false))) {
            ofputil_append_table_features(&tf, &replies2);
        }
        if (retval != EOF || ovs_list_size(&replies2) != 1) {
            abort();
        }
        struct ofpbuf *part2 = ofpbuf_from_list(ovs_list_front(&replies2));
        /* The reply flags may differ (more); compare past the header. */
        if (part2->size != part->size
            || memcmp((char *) part2->data + 16, (char *) part->data + 16,
                      part->size - 16)) {
            abort();
        }
        ofpbuf_list_delete(&replies2);
    }
    ofpbuf_list_delete(&replies);
    ofpbuf_delete(request);
}

static void
fuzz_switch_message(const uint8_t *data, size_t size)
{
    size_t len = MIN(size, UINT16_MAX);
    uint8_t *copy = xmemdup(data, len ? len : 1);

    /* Printing anything is safe, whatever the header says. */
    char *s = ofp_to_string(copy, len, NULL, 2);
    free(s);

    if (len < sizeof(struct ofp_header)) {
        free(copy);
        return;
    }
    struct ofp_header *oh = (struct ofp_header *) copy;
    oh->length = htons(len);
    s = ofp_to_string(copy, len, NULL, 2);
    free(s);

    enum ofptype type;
    if (ofptype_decode(&type, oh)) {
        free(copy);
        return;
    }
    switch (type) {
    case OFPTYPE_SET_CONFIG:
    case OFPTYPE_GET_CONFIG_REPLY:
        fuzz_switch_config(oh, type);
        break;
    case OFPTYPE_ROLE_REQUEST:
    case OFPTYPE_ROLE_REPLY:
        fuzz_role(oh);
        break;
    case OFPTYPE_SET_ASYNC_CONFIG:
    case OFPTYPE_GET_ASYNC_REPLY:
        fuzz_async(oh);
        break;
    case OFPTYPE_PORT_STATUS:
        fuzz_port_status(oh);
        break;
    case OFPTYPE_PORT_MOD:
        fuzz_port_mod(oh);
        break;
    case OFPTYPE_TABLE_MOD:
        fuzz_table_mod(oh);
        break;
    case OFPTYPE_TABLE_FEATURES_STATS_REPLY:
        fuzz_table_features(oh);
        break;
    case OFPTYPE_FLOW_MONITOR_STATS_REQUEST:
        fuzz_flow_monitor(oh, true);
        break;
    case OFPTYPE_FLOW_MONITOR_STATS_REPLY:
        fuzz_flow_monitor(oh, false);
        break;
    default:
        break;
    }
    free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool inited;
    if (!inited) {
        /* Rejections are logged at WARN; they are expected here. */
        vlog_set_levels_from_string_assert("ANY:ANY:OFF");
        inited = true;
    }
    if (size < 2) {
        return 0;
    }
    switch (data[0]) {
    case 0:
        fuzz_message(data + 1, size - 1);
        break;
    case 1:
        fuzz_match(data + 2, size - 2, 0, data[1]);
        break;
    case 2:
        fuzz_match(data + 2, size - 2, OFP12_VERSION + data[1] % 4, 0);
        break;
    case 3:
        fuzz_text(data + 1, size - 1);
        break;
    case 4:
        fuzz_instructions(data + 2, size - 2, OFP10_VERSION + data[1] % 6);
        break;
    case 5:
        fuzz_action_text(data + 1, size - 1);
        break;
    case 6:
        fuzz_flow_mod(data + 1, size - 1);
        break;
    case 7:
        fuzz_flow_text(data + 1, size - 1);
        break;
    case 8:
        fuzz_more_messages(data + 1, size - 1);
        break;
    case 9:
        fuzz_more_text(data + 2, size - 2, data[1]);
        break;
    case 10:
        fuzz_switch_message(data + 1, size - 1);
        break;
    }
    return 0;
}
