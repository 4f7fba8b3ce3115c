/* ofp-group: group messages, decoded.
 *
 * A group (OpenFlow 1.1+; Nicira's vendor form in 1.0) is a set of
 * buckets, each a list of actions with, for "select" groups, a weight and,
 * for "fast failover" groups, a port or group to watch.  The types are
 * all, select, indirect and ff (fast_failover).
 *
 *   struct ofputil_group_mod    a group_mod: add, modify, delete (and
 *                               1.5's insert_bucket/remove_bucket with a
 *                               command bucket id).
 *   struct ofputil_group_desc   one group in a group desc reply.
 *   struct ofputil_group_stats  one group's counters (and its buckets').
 *   struct ofputil_group_features  the group features reply.
 *
 * Buckets are struct ofputil_bucket in an ovs_list; each bucket owns its
 * actions (malloc'd).  ofputil_bucket_list_destroy() frees a list;
 * ofputil_uninit_group_mod() and ofputil_uninit_group_desc() free what
 * decoding or parsing allocated.  Bucket ids: 1.5 carries them; earlier
 * versions number the buckets 0, 1, 2... when decoding, as 3.1 does.
 *
 * Text: parse_ofp_group_mod_str() reads ovs-ofctl's add-group /
 * mod-group / del-groups syntax ("group_id=1,type=select,
 * bucket=weight:10,actions=output:1,bucket=output:2") and the printers
 * write dump-groups / ofp-print text ("group_id=1,type=all,
 * bucket=actions=output:1,bucket=actions=output:2").
 *
 * The *_print() functions decode a whole message and append what 3.1's
 * ofp-print writes after the header line ("OFPT_... (xid=0x1):"), without
 * the final newline, or return the decoding error and append nothing
 * useful; they are the per-type printers for lib/ofp-print.
 *
 * Threads: pure functions. */
#ifndef OFP_GROUP_H
#define OFP_GROUP_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "list.h"
#include "ofp-errors.h"
#include "ofp-fields.h"
#include "ofp-protocol.h"
#include "openflow.h"
#include "util.h"

struct ds;
struct ofpact;
struct ofpbuf;
struct ofputil_port_map;

struct bucket_counter {
    uint64_t packet_count;
    uint64_t byte_count;
};

struct ofputil_bucket {
    struct ovs_list list_node;
    uint16_t weight;            /* Select groups only; else 0 on the wire. */
    uint32_t watch_port;        /* OFPP_ANY: none. */
    uint32_t watch_group;       /* OFPG_ANY: none. */
    uint32_t bucket_id;
    struct ofpact *ofpacts;     /* Owned. */
    size_t ofpacts_len;
    struct bucket_counter stats;
};

/* How a select group picks its bucket, as 3.1 lets a controller say in
 * 1.5 and in Nicira's 1.0 group messages (Netronome's experimenter group
 * property; 1.1-1.4 cannot carry it and drop it when encoding):
 * "hash" hashes FIELDS (each under its mask) with SELECTION_METHOD_PARAM
 * as the basis, "dp_hash" uses the datapath's packet hash, and "" (no
 * property) leaves it to the switch. */
struct ofputil_group_field {
    enum mf_field_id id;
    union mf_value mask;        /* All ones: the whole field. */
};

struct ofputil_group_props {
    char selection_method[NTR_MAX_SELECTION_METHOD_LEN];  /* NUL-ended. */
    uint64_t selection_method_param;
    size_t n_fields;            /* In field id order, each at most once. */
    struct ofputil_group_field fields[MFF_N_IDS];
};

struct ofputil_group_mod {
    uint16_t command;           /* OFPGC11_*, OFPGC15_*. */
    uint8_t type;               /* OFPGT11_*. */
    uint32_t group_id;
    uint32_t command_bucket_id; /* 1.5 insert/remove bucket. */
    struct ovs_list buckets;    /* Of struct ofputil_bucket. */
    struct ofputil_group_props props;
};

struct ofputil_group_desc {
    uint8_t type;
    uint32_t group_id;
    struct ovs_list buckets;
    struct ofputil_group_props props;
};

struct ofputil_group_stats {
    uint32_t group_id;
    uint32_t ref_count;
    uint64_t packet_count;      /* UINT64_MAX: unknown. */
    uint64_t byte_count;
    uint32_t duration_sec;      /* UINT32_MAX: unknown (1.1, 1.2). */
    uint32_t duration_nsec;
    uint32_t n_buckets;
    struct bucket_counter *bucket_stats;   /* Owned by the caller. */
};

/* The actions a group features reply can announce, in the order 3.1
 * prints them; each maps to a bit of the version's action numbering
 * (some exist only in 1.0-1.1, set_field only from 1.2). */
enum ofputil_group_action {
    OFPUTIL_GA_OUTPUT, OFPUTIL_GA_GROUP, OFPUTIL_GA_ENQUEUE,
    OFPUTIL_GA_SET_FIELD,
    OFPUTIL_GA_SET_VLAN_VID, OFPUTIL_GA_SET_VLAN_PCP, OFPUTIL_GA_STRIP_VLAN,
    OFPUTIL_GA_PUSH_VLAN, OFPUTIL_GA_SET_DL_SRC, OFPUTIL_GA_SET_DL_DST,
    OFPUTIL_GA_SET_NW_SRC, OFPUTIL_GA_SET_NW_DST, OFPUTIL_GA_SET_NW_TOS,
    OFPUTIL_GA_SET_NW_ECN, OFPUTIL_GA_SET_NW_TTL, OFPUTIL_GA_SET_TP_SRC,
    OFPUTIL_GA_SET_TP_DST, OFPUTIL_GA_DEC_TTL, OFPUTIL_GA_SET_MPLS_LABEL,
    OFPUTIL_GA_SET_MPLS_TC, OFPUTIL_GA_SET_MPLS_TTL, OFPUTIL_GA_DEC_MPLS_TTL,
    OFPUTIL_GA_PUSH_MPLS, OFPUTIL_GA_POP_MPLS, OFPUTIL_GA_SET_QUEUE,
    OFPUTIL_N_GA
};

struct ofputil_group_features {
    uint32_t types;             /* Bitmap of 1 << OFPGT11_*. */
    uint32_t capabilities;      /* OFPGFC_*. */
    uint32_t max_groups[4];
    uint64_t ofpacts[4];        /* Bitmaps of 1 << OFPUTIL_GA_*, per type;
                                 * what the version cannot say is dropped
                                 * when encoding. */
};

void ofputil_bucket_list_destroy(struct ovs_list *buckets);
void ofputil_uninit_group_mod(struct ofputil_group_mod *);
void ofputil_uninit_group_desc(struct ofputil_group_desc *);
const char *ofputil_group_type_to_string(uint8_t type);  /* "all", "ff".. */

/* group_mod.  Decoding errors as 3.1: OFPGMFC_BAD_TYPE, BAD_COMMAND,
 * BAD_BUCKET, BAD_WATCH, OFPBRC_BAD_LEN... */
enum ofperr ofputil_decode_group_mod(const struct ofp_header *,
                                     struct ofputil_group_mod *);
struct ofpbuf *ofputil_encode_group_mod(enum ofp_version,
                                        const struct ofputil_group_mod *);
/* COMMAND is OFPGC11_ADD, MODIFY, DELETE or OFPGC_ADD_OR_MOD (as
 * add-group, mod-group [--may-create], del-groups), or
 * OFPGC15_INSERT_BUCKET or REMOVE_BUCKET (insert-buckets, remove-buckets:
 * no type, a command_bucket_id of first, last, all or a number).  A
 * delete of "" deletes every group. */
char *parse_ofp_group_mod_str(struct ofputil_group_mod *, int command,
                              const char *string,
                              const struct ofputil_port_map *,
                              enum ofputil_protocol *usable_protocols)
    OVS_WARN_UNUSED_RESULT;
/* The command word a line of an add-groups or bundle file may start with:
 * "add", "delete", "modify", "add_or_mod", "insert_bucket" or
 * "remove_bucket", or any prefix of one (the first that fits, in that
 * order).  Returns its OFPGC* command and advances *SP past it, or
 * returns OFPGC11_ADD and leaves *SP at the text if there is none. */
int parse_ofp_group_mod_command(const char **sp);
enum ofperr ofputil_group_mod_print(struct ds *, const struct ofp_header *,
                                    const struct ofputil_port_map *);

/* Group desc. */
struct ofpbuf *ofputil_encode_group_desc_request(enum ofp_version,
                                                 uint32_t group_id);
enum ofperr ofputil_decode_group_desc_request(const struct ofp_header *,
                                              uint32_t *group_id);
void ofputil_append_group_desc_reply(const struct ofputil_group_desc *,
                                     const struct ovs_list *buckets,
                                     struct ovs_list *replies);
/* Pulls one group off MSG (EOF when none is left). */
int ofputil_decode_group_desc_reply(struct ofputil_group_desc *,
                                    struct ofpbuf *msg, enum ofp_version);
/* "group_id=1,type=all,bucket=actions=output:1" (one dump-groups line
 * without the leading space). */
void ofputil_group_desc_format(struct ds *, const struct ofputil_group_desc *,
                               const struct ofputil_port_map *,
                               enum ofp_version);
enum ofperr ofputil_group_desc_print(struct ds *, const struct ofp_header *,
                                     const struct ofputil_port_map *);

/* Group stats. */
struct ofpbuf *ofputil_encode_group_stats_request(enum ofp_version,
                                                  uint32_t group_id);
enum ofperr ofputil_decode_group_stats_request(const struct ofp_header *,
                                               uint32_t *group_id);
void ofputil_append_group_stats(struct ovs_list *replies,
                                const struct ofputil_group_stats *);
/* Pulls one group's stats off MSG; GS->bucket_stats is malloc'd. */
int ofputil_decode_group_stats_reply(struct ofpbuf *msg,
                                     struct ofputil_group_stats *);
enum ofperr ofputil_group_stats_print(struct ds *, const struct ofp_header *);

/* Group features.  1.0 and 1.1 use Nicira's form (as 3.1 does), 1.2+
 * the standard one. */
struct ofpbuf *ofputil_encode_group_features_request(enum ofp_version);
struct ofpbuf *ofputil_encode_group_features_reply(
    const struct ofputil_group_features *, const struct ofp_header *request);
enum ofperr ofputil_decode_group_features_reply(
    const struct ofp_header *, struct ofputil_group_features *);
enum ofperr ofputil_group_features_print(struct ds *,
                                         const struct ofp_header *);

/* The body of a group desc, group stats or group features request as
 * ofp-print prints it (" group_id=ALL", or nothing for features). */
enum ofperr ofputil_group_request_print(struct ds *, const struct ofp_header *);

#endif /* ofp-group.h */
