/* ofp-flow: flow_mod messages in every version. */
#include <config.h>
#include "ofp-flow.h"

#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "learn.h"
#include "nx-match.h"
#include "ofp-actions.h"
#include "ofp-match.h"
#include "ofp-msgs.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "util.h"

/* Wire flag bits -> OFPUTIL_FF_*, per version.  1.0 and NXM know
 * send_flow_rem and check_overlap (and EMERG, which no switch here
 * supports); 1.2 adds reset_counts, 1.3 the two no-counts flags. */
static enum ofperr
decode_flags(uint16_t wire, enum ofp_version version, uint16_t *flags)
{
    uint16_t known;
    if (version == OFP10_VERSION) {
        if (wire & OFPFF10_EMERG) {
            return OFPERR_OFPFMFC_TABLE_FULL;
        }
        known = OFPFF_SEND_FLOW_REM | OFPFF_CHECK_OVERLAP;
    } else if (version == OFP11_VERSION) {
        known = OFPFF_SEND_FLOW_REM | OFPFF_CHECK_OVERLAP;
    } else if (version == OFP12_VERSION) {
        known = (OFPFF_SEND_FLOW_REM | OFPFF_CHECK_OVERLAP
                 | OFPFF12_RESET_COUNTS);
    } else {
        known = (OFPFF_SEND_FLOW_REM | OFPFF_CHECK_OVERLAP
                 | OFPFF12_RESET_COUNTS | OFPFF13_NO_PKT_COUNTS
                 | OFPFF13_NO_BYT_COUNTS);
    }
    if (wire & ~known) {
        return OFPERR_OFPFMFC_BAD_FLAGS;
    }
    *flags = wire;
    return 0;
}

enum ofperr
ofputil_decode_flow_mod(struct ofputil_flow_mod *fm,
                        const struct ofp_header *oh, struct ofpbuf *ofpacts)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofpraw raw;
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }

    memset(fm, 0, sizeof *fm);
    fm->out_group = UINT32_MAX;
    enum ofp_version version = oh->version;
    uint16_t command, wire_flags;

    if (raw == OFPRAW_OFPT10_FLOW_MOD || raw == OFPRAW_NXT_FLOW_MOD) {
        ovs_be64 wire_cookie;
        if (raw == OFPRAW_OFPT10_FLOW_MOD) {
            const struct ofp10_flow_mod *ofm = ofpbuf_pull(&b, sizeof *ofm);
            ofputil_match_from_ofp10_match(&ofm->match, &fm->match);
            ofputil_normalize_match(&fm->match);
            /* In 1.0 an exact match always has the highest priority. */
            fm->priority = (ofm->match.wildcards & htonl(OFPFW10_ALL)
                            ? ntohs(ofm->priority) : UINT16_MAX);
            wire_cookie = ofm->cookie;
            command = ntohs(ofm->command);
            fm->idle_timeout = ntohs(ofm->idle_timeout);
            fm->hard_timeout = ntohs(ofm->hard_timeout);
            fm->buffer_id = ntohl(ofm->buffer_id);
            fm->out_port = ntohs(ofm->out_port);
            wire_flags = ntohs(ofm->flags);
        } else {
            const struct nx_flow_mod *nfm = ofpbuf_pull(&b, sizeof *nfm);
            error = nx_pull_match(&b, ntohs(nfm->match_len), &fm->match,
                                  &fm->cookie, &fm->cookie_mask);
            if (error) {
                return error;
            }
            fm->priority = ntohs(nfm->priority);
            wire_cookie = nfm->cookie;
            command = ntohs(nfm->command);
            fm->idle_timeout = ntohs(nfm->idle_timeout);
            fm->hard_timeout = ntohs(nfm->hard_timeout);
            fm->buffer_id = ntohl(nfm->buffer_id);
            fm->out_port = ntohs(nfm->out_port);
            wire_flags = ntohs(nfm->flags);
        }
        /* The command's high byte is the table when the connection has
         * turned table ids on; the cookie field is the new cookie. */
        fm->table_id = command >> 8;
        command &= 0xff;
        if (command == OFPFC_ADD && fm->cookie_mask) {
            /* A new flow has one cookie: matching on it makes no sense. */
            return OFPERR_NXBRC_NXM_INVALID;
        }
        fm->new_cookie = wire_cookie;
        fm->modify_cookie = ((command == OFPFC_MODIFY
                              || command == OFPFC_MODIFY_STRICT)
                             && wire_cookie != OVS_BE64_MAX);
        error = decode_flags(wire_flags, OFP10_VERSION, &fm->flags);
        if (!error) {
            /* An NXT_FLOW_MOD in a later version carries that version's
             * instructions, as in 3.1. */
            error = ofpacts_pull_openflow_instructions(&b, b.size, version,
                                                       ofpacts);
        }
    } else if (raw == OFPRAW_OFPT11_FLOW_MOD) {
        const struct ofp11_flow_mod *ofm = ofpbuf_pull(&b, sizeof *ofm);
        error = (version == OFP11_VERSION
                 ? ofputil_pull_ofp11_match(&b, &fm->match)
                 : oxm_pull_match(&b, &fm->match));
        if (error) {
            return error;
        }
        command = ofm->command;
        fm->priority = ntohs(ofm->priority);
        fm->table_id = ofm->table_id;
        if (fm->table_id == OFPTT_ALL && command <= OFPFC_MODIFY_STRICT) {
            /* 1.1+ name every table only to delete, as 3.1 decodes. */
            return OFPERR_OFPFMFC_BAD_TABLE_ID;
        }
        if (command == OFPFC_ADD
            || (version == OFP11_VERSION && !ofm->cookie_mask
                && (command == OFPFC_MODIFY
                    || command == OFPFC_MODIFY_STRICT))) {
            /* In 1.1 a modify that does not match on the cookie adds a
             * flow with it when it selects nothing. */
            fm->new_cookie = ofm->cookie;
        } else {
            fm->cookie = ofm->cookie;
            fm->cookie_mask = ofm->cookie_mask;
            fm->new_cookie = OVS_BE64_MAX;
        }
        fm->idle_timeout = ntohs(ofm->idle_timeout);
        fm->hard_timeout = ntohs(ofm->hard_timeout);
        fm->buffer_id = ntohl(ofm->buffer_id);
        error = ofputil_port_from_ofp11(ofm->out_port, &fm->out_port);
        if (error) {
            return error;
        }
        fm->out_group = ntohl(ofm->out_group);
        if (version >= OFP14_VERSION && command == OFPFC_ADD) {
            fm->importance = ntohs(ofm->importance);
        }
        error = decode_flags(ntohs(ofm->flags), version, &fm->flags);
        if (!error) {
            error = ofpacts_pull_openflow_instructions(&b, b.size, version,
                                                       ofpacts);
        }
    } else {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    if (error) {
        return error;
    }
    if (command > OFPFC_DELETE_STRICT) {
        return OFPERR_OFPFMFC_BAD_COMMAND;
    }
    if (command != OFPFC_DELETE && command != OFPFC_DELETE_STRICT) {
        /* A learn's source fields, and the fields that set_field, load
         * and move touch, need their prerequisites in the flow's match, as
         * 3.1 checks when it decodes a flow_mod. */
        error = ofpacts_check_prereqs(ofpacts->data, ofpacts->size,
                                      &fm->match);
        if (!error) {
            error = ofpacts_check_goto_table(ofpacts->data, ofpacts->size,
                                             fm->table_id, 255);
        }
        if (error) {
            return error;
        }
    }
    fm->command = command;
    fm->ofpacts = ofpacts->data;
    fm->ofpacts_len = ofpacts->size;
    return 0;
}

struct ofpbuf *
ofputil_encode_flow_mod(const struct ofputil_flow_mod *fm,
                        enum ofputil_protocol protocol)
{
    enum ofp_version version = ofputil_protocol_to_ofp_version(protocol);
    ovs_be64 new_cookie = (fm->new_cookie == OVS_BE64_MAX ? 0
                           : fm->new_cookie);
    bool modify = (fm->command == OFPFC_MODIFY
                   || fm->command == OFPFC_MODIFY_STRICT);
    bool is_delete = (fm->command == OFPFC_DELETE
                      || fm->command == OFPFC_DELETE_STRICT);
    /* 1.0 and NXM: a modify's cookie field is all-ones to leave the
     * flows' cookies alone. */
    ovs_be64 cookie10 = (!modify ? new_cookie
                         : fm->modify_cookie ? fm->new_cookie
                         : OVS_BE64_MAX);
    struct ofpbuf *msg;

    switch (protocol) {
    case OFPUTIL_P_OF10_STD:
    case OFPUTIL_P_OF10_STD_TID:
    case OFPUTIL_P_OF10_NXM:
    case OFPUTIL_P_OF10_NXM_TID: {
        bool tid = protocol & OFPUTIL_P_TID;
        uint16_t command = fm->command | (tid ? fm->table_id << 8 : 0);
        uint16_t flags = fm->flags & (OFPFF_SEND_FLOW_REM
                                      | OFPFF_CHECK_OVERLAP);
        if (protocol & OFPUTIL_P_OF10_STD_ANY) {
            msg = ofpraw_alloc(OFPRAW_OFPT10_FLOW_MOD, OFP10_VERSION, 0);
            struct ofp10_flow_mod *ofm = msg->msg;
            ofputil_match_to_ofp10_match(&fm->match, &ofm->match);
            ofm->cookie = cookie10;
            ofm->command = htons(command);
            ofm->idle_timeout = htons(fm->idle_timeout);
            ofm->hard_timeout = htons(fm->hard_timeout);
            ofm->priority = htons(fm->priority);
            ofm->buffer_id = htonl(fm->buffer_id);
            ofm->out_port = htons(fm->out_port);
            ofm->flags = htons(flags);
        } else {
            msg = ofpraw_alloc(OFPRAW_NXT_FLOW_MOD, OFP10_VERSION, 0);
            size_t ofs = (uint8_t *) msg->msg - (uint8_t *) msg->data;
            int match_len = nx_put_match(msg, &fm->match, fm->cookie,
                                         fm->cookie_mask);
            struct nx_flow_mod *nfm = ofpbuf_at_assert(msg, ofs,
                                                       sizeof *nfm);
            nfm->cookie = cookie10;
            nfm->command = htons(command);
            nfm->idle_timeout = htons(fm->idle_timeout);
            nfm->hard_timeout = htons(fm->hard_timeout);
            nfm->priority = htons(fm->priority);
            nfm->buffer_id = htonl(fm->buffer_id);
            nfm->out_port = htons(fm->out_port);
            nfm->flags = htons(flags);
            nfm->match_len = htons(match_len);
        }
        ofpacts_put_openflow_actions(fm->ofpacts, fm->ofpacts_len, msg,
                                     OFP10_VERSION);
        break;
    }
    default: {
        msg = ofpraw_alloc(OFPRAW_OFPT11_FLOW_MOD, version, 0);
        size_t ofs = (uint8_t *) msg->msg - (uint8_t *) msg->data;
        if (version == OFP11_VERSION) {
            struct ofp11_match *om = ofpbuf_put_uninit(msg, sizeof *om);
            ofputil_match_to_ofp11_match(&fm->match, om);
        } else {
            oxm_put_match(msg, &fm->match, version);
        }
        struct ofp11_flow_mod *ofm = ofpbuf_at_assert(msg, ofs, sizeof *ofm);
        if (fm->command == OFPFC_ADD) {
            ofm->cookie = new_cookie;
        } else if (version == OFP11_VERSION && modify && !fm->cookie_mask) {
            /* The cookie of the flow it adds if it selects none. */
            ofm->cookie = fm->new_cookie;
        } else {
            ofm->cookie = fm->cookie;
            ofm->cookie_mask = fm->cookie_mask;
        }
        /* "Any table" (255) is no table for an add or a modify in 1.1+,
         * nor for anything in 1.1: 3.1 sends table 0 there, which is
         * what those flow_mods mean without a table. */
        ofm->table_id = (fm->table_id == OFPTT_ALL
                         && (version == OFP11_VERSION || !is_delete)
                         ? 0 : fm->table_id);
        ofm->command = fm->command;
        ofm->idle_timeout = htons(fm->idle_timeout);
        ofm->hard_timeout = htons(fm->hard_timeout);
        ofm->priority = htons(fm->priority);
        ofm->buffer_id = htonl(fm->buffer_id);
        ofm->out_port = ofputil_port_to_ofp11(fm->out_port);
        ofm->out_group = htonl(fm->out_group);
        uint16_t flags = fm->flags;
        if (version == OFP11_VERSION) {
            flags &= OFPUTIL_FF_SEND_FLOW_REM | OFPUTIL_FF_CHECK_OVERLAP;
        } else if (version == OFP12_VERSION) {
            flags &= ~(OFPUTIL_FF_NO_PKT_COUNTS | OFPUTIL_FF_NO_BYT_COUNTS);
        }
        ofm->flags = htons(flags);
        if (version >= OFP14_VERSION) {
            ofm->importance = htons(fm->importance);
        }
        ofpacts_put_openflow_instructions(fm->ofpacts, fm->ofpacts_len, msg,
                                          version);
        break;
    }
    }
    ofpmsg_update_length(msg);
    return msg;
}

/* RAW_MATCH, if nonnull, is printed in place of FM's match (and then the
 * priority goes with the other fields, as "pri:N"). */
static void
flow_mod_format__(const struct ofputil_flow_mod *fm,
                  const struct ofputil_port_map *map, const char *raw_match,
                  struct ds *s)
{
    static const char *const commands[] = {
        "ADD", "MOD", "MOD_STRICT", "DEL", "DEL_STRICT",
    };
    if (fm->command < ARRAY_SIZE(commands)) {
        ds_put_cstr(s, commands[fm->command]);
    } else {
        ds_put_format(s, "cmd:%"PRIu16, fm->command);
    }
    if (fm->table_id) {
        ds_put_format(s, " table:%"PRIu8, fm->table_id);
    }
    size_t before = s->length;
    ds_put_char(s, ' ');
    if (raw_match) {
        ds_put_cstr(s, raw_match);
    } else {
        match_format(&fm->match, map, s, fm->priority);
    }
    if (s->length == before + 1) {
        s->length = before;
    }
    if (fm->new_cookie && fm->new_cookie != OVS_BE64_MAX) {
        ds_put_format(s, " cookie:%#"PRIx64, ntohll(fm->new_cookie));
    }
    if (fm->cookie_mask) {
        ds_put_format(s, " cookie:%#"PRIx64"/%#"PRIx64,
                      ntohll(fm->cookie), ntohll(fm->cookie_mask));
    }
    if (fm->idle_timeout) {
        ds_put_format(s, " idle:%"PRIu16, fm->idle_timeout);
    }
    if (fm->hard_timeout) {
        ds_put_format(s, " hard:%"PRIu16, fm->hard_timeout);
    }
    if (fm->importance) {
        ds_put_format(s, " importance:%"PRIu16, fm->importance);
    }
    if (raw_match && fm->priority != OFP_DEFAULT_PRIORITY) {
        ds_put_format(s, " pri:%d", fm->priority);
    }
    if (fm->buffer_id != UINT32_MAX) {
        ds_put_format(s, " buf:%#"PRIx32, fm->buffer_id);
    }
    if (fm->out_port != OFPP_NONE) {
        ds_put_cstr(s, " out_port:");
        ofputil_format_port(fm->out_port, map, s);
    }
    static const char *const flag_names[] = {
        "send_flow_rem", "check_overlap", "reset_counts",
        "no_packet_counts", "no_byte_counts",
    };
    for (size_t i = 0; i < ARRAY_SIZE(flag_names); i++) {
        if (fm->flags & (1u << i)) {
            ds_put_format(s, " %s", flag_names[i]);
        }
    }
    ds_put_cstr(s, " actions=");
    ofpact_list_format(fm->ofpacts, fm->ofpacts_len, map, NULL, s);
}

void
ofputil_flow_mod_format(const struct ofputil_flow_mod *fm,
                        enum ofp_version version OVS_UNUSED,
                        const struct ofputil_port_map *map, struct ds *s)
{
    flow_mod_format__(fm, map, NULL, s);
}

enum ofperr
ofputil_flow_mod_print(struct ds *s, const struct ofp_header *oh,
                       const struct ofputil_port_map *map, int verbosity)
{
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 64);
    enum ofperr error = ofputil_decode_flow_mod(&fm, oh, &ofpacts);
    if (!error) {
        /* At -mmm an NXM flow_mod shows its match as the wire has it. */
        char *raw_match = NULL;
        enum ofpraw raw;
        if (verbosity >= 3 && !ofpraw_decode(&raw, oh)
            && raw == OFPRAW_NXT_FLOW_MOD) {
            const struct nx_flow_mod *nfm = ofpmsg_body(oh);
            raw_match = nx_match_to_string((const uint8_t *) (nfm + 1),
                                           ntohs(nfm->match_len));
        }
        ds_put_char(s, ' ');
        flow_mod_format__(&fm, map, raw_match, s);
        free(raw_match);
    }
    ofpbuf_uninit(&ofpacts);
    return error;
}
