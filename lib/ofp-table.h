/* ofp-table: OpenFlow table statistics, table features and table mod,
 * decoded.
 *
 * Table statistics (OFPST_TABLE / OFPMP_TABLE) changed layout in every
 * early version: 1.0 (64 bytes: name, 1.0 wildcards, max_entries, counts),
 * 1.1 (88: name, 1.1 wildcards/match, instruction and action bitmaps),
 * 1.2 (128: OXM field bitmaps), and 1.3+ (24: only the counters; what a
 * table can do moved to table features).  struct ofputil_table_stats holds
 * the counters; struct ofputil_table_features what the table supports.
 * Encoding a reply takes both, because the 1.0-1.2 layouts mix them;
 * decoding fills as much of the features as the layout carries.
 *
 * Table features (OFPMP_TABLE_FEATURES, 1.3+) describe each table: name,
 * metadata bits, max entries, capabilities, and properties listing the
 * instructions, next tables, actions and fields supported for flows and
 * for the table-miss flow.  Decoding checks every length, the table id
 * and the required properties, with 3.1's errors (OFPBPC_BAD_LEN,
 * OFPBMC_BAD_LEN, OFPTFFC_BAD_TABLE, OFPTFFC_BAD_FEATURES).
 *
 * Feature sets are kept as bitmaps of wire numbers: instruction types
 * (OFPIT_*: bit N for type N), action types (OFPAT 1.1+ numbering, bit N
 * for type N < 64), next tables (256 bits) and OXM fields (bit per
 * enum mf_field_id of lib/ofp-fields.h).
 *
 * Memory: encoders return new ofpbufs the caller owns; decoded structs
 * hold no pointers.  Threads: pure functions. */
#ifndef OFP_TABLE_H
#define OFP_TABLE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-fields.h"
#include "openflow.h"

struct ds;
struct ofpbuf;
struct ovs_list;
struct ofputil_table_map;

/* A bitmap over enum mf_field_id. */
struct ofputil_field_bitmap {
    uint64_t bits[(MFF_N_IDS + 63) / 64];
};

/* What one kind of flow (ordinary, or table-miss) may use. */
struct ofputil_table_instruction_features {
    uint64_t next[4];           /* Bit T: may goto_table T. */
    uint32_t instructions;      /* Bit OFPIT_*. */
    struct {
        uint64_t actions;       /* Bit OFPAT (1.1+ numbering). */
        struct ofputil_field_bitmap set_fields;
    } write, apply;
};

/* What a table misses to, in 1.1-1.2's table config and 1.3's table
 * features "config" (deprecated there). */
enum ofputil_table_miss {
    OFPUTIL_TABLE_MISS_DEFAULT,         /* Version's default. */
    OFPUTIL_TABLE_MISS_CONTROLLER,
    OFPUTIL_TABLE_MISS_CONTINUE,
    OFPUTIL_TABLE_MISS_DROP,
};

/* In 1.0-1.2 table stats, what the layout carried (so the printer
 * prints only that). */
enum ofputil_table_features_layout {
    OFPUTIL_TFL_NONE,           /* 1.3+ table stats: no features. */
    OFPUTIL_TFL_OF10,           /* Name, wildcards, max_entries. */
    OFPUTIL_TFL_OF11,           /* + config, instructions, actions. */
    OFPUTIL_TFL_OF12,           /* + metadata, set-field bitmaps. */
    OFPUTIL_TFL_OF13,           /* 1.3 table features message. */
    OFPUTIL_TFL_OF14,           /* 1.4+: capabilities say eviction and
                                 * vacancy events. */
};

struct ofputil_table_features {
    uint8_t table_id;
    uint8_t command;                    /* 1.5: OFPTFC_*. */
    char name[OFP_MAX_TABLE_NAME_LEN];  /* NUL-terminated. */
    uint64_t metadata_match;            /* Host order. */
    uint64_t metadata_write;
    uint32_t capabilities;              /* Wire "config"/"capabilities". */
    uint32_t max_entries;
    struct ofputil_table_instruction_features nonmiss, miss;
    struct ofputil_field_bitmap match;      /* Fields the table matches. */
    struct ofputil_field_bitmap mask;       /* ...of which maskable. */
    struct ofputil_field_bitmap wildcard;   /* ...which may be omitted. */
    enum ofputil_table_features_layout layout;
    enum ofputil_table_miss miss_config;    /* 1.1-1.2 table stats. */
    bool fixed_only;        /* Encoding: no properties, only the fixed
                             * part (a 1.5 modify of the name, as 3.1
                             * sends it). */
};

struct ofputil_table_stats {
    uint8_t table_id;
    uint32_t active_count;      /* Flows in the table. */
    uint64_t lookup_count;      /* UINT64_MAX: unknown. */
    uint64_t matched_count;     /* UINT64_MAX: unknown. */
};

/* ------------------------------------------------------------------ */
/* Table statistics. */

struct ofpbuf *ofputil_encode_table_stats_request(enum ofp_version);
/* Appends one table to the reply REPLY (ofpraw_alloc_stats_reply() of the
 * request) in its version's layout; FEATURES supplies the name and
 * capabilities for 1.0-1.2. */
void ofputil_append_table_stats_reply(struct ofpbuf *reply,
                                      const struct ofputil_table_stats *,
                                      const struct ofputil_table_features *);
/* Pulls one table from a reply MSG (the first call pulls the header).
 * Returns 0, EOF or an OpenFlow error.  FEATURES gets what the layout
 * carries (name and max_entries in 1.0-1.2) and zeros otherwise. */
int ofputil_decode_table_stats_reply(struct ofpbuf *msg,
                                     struct ofputil_table_stats *,
                                     struct ofputil_table_features *);
/* ------------------------------------------------------------------ */
/* Table features (1.3+). */

/* A request for every table's features (no body). */
struct ofpbuf *ofputil_encode_table_features_request(enum ofp_version);
/* Starts REQUESTS, a request that sets tables' features (1.3, 1.4: the
 * whole pipeline; 1.5: each table's TF->command says how): append the
 * tables with ofputil_append_table_features(); they go in as many parts
 * (flag "more", one xid) as they need. */
void ofputil_start_table_features_request(struct ovs_list *requests,
                                          enum ofp_version);
/* Appends TF to MSGS, a multipart reply list (ofpmp_init()) or a request
 * list (above). */
void ofputil_append_table_features(
    const struct ofputil_table_features *, struct ovs_list *msgs);
/* Whether a table that has features CURRENT can take a request for
 * REQUESTED: everything REQUESTED asks for (metadata bits, capabilities,
 * instructions, next tables, actions, fields) is in CURRENT and its
 * max_entries is no more than CURRENT's.  The name is not compared. */
bool ofputil_table_features_are_superset(
    const struct ofputil_table_features *current,
    const struct ofputil_table_features *requested);
/* Pulls one table's features from MSG, a reply or a request (the first
 * call pulls the header).  Returns 0, EOF or an OpenFlow error. */
int ofputil_decode_table_features(struct ofpbuf *msg,
                                  struct ofputil_table_features *,
                                  bool loose);
/* ------------------------------------------------------------------ */
/* Printing table stats and table features replies.
 *
 * 3.1 prints consecutive tables that repeat the previous table's stats
 * and features as "ditto" lines ("  tables 2...253: ditto"), and within a
 * table block abbreviates what equals the previous table's ("(same
 * features)", "(same matching)").  The printer remembers the previous
 * table for that.  Add tables in order, then finish (which flushes a
 * pending ditto range). */
struct ofputil_table_stats_printer {
    enum ofp_version version;
    bool have_prev;
    struct ofputil_table_stats prev_stats;
    struct ofputil_table_features prev_features;
    int first_ditto, last_ditto;    /* Pending unnamed ditto range, or -1. */
};
void ofputil_table_stats_printer_init(struct ofputil_table_stats_printer *,
                                      enum ofp_version);
/* STATS is NULL for a table features reply. */
void ofputil_table_stats_printer_add(struct ofputil_table_stats_printer *,
                                     struct ds *,
                                     const struct ofputil_table_stats *stats,
                                     const struct ofputil_table_features *);
void ofputil_table_stats_printer_finish(
    struct ofputil_table_stats_printer *, struct ds *);

/* ------------------------------------------------------------------ */
/* Table mod (1.1+). */

struct ofputil_table_mod {
    uint8_t table_id;           /* OFPTT_ALL: every table. */
    enum ofputil_table_miss miss;       /* 1.1, 1.2. */
    bool has_flags14;                   /* 1.4+: the rest applies. */
    bool eviction;
    bool vacancy_events;
    /* The vacancy property's thresholds, in percent (0..100, down <= up);
     * sent when VACANCY_EVENTS is on. */
    uint8_t vacancy_down, vacancy_up;
    /* Whether an eviction property came (3.1 prints such a message's
     * eviction as "***error***"), and its flags (UINT32_MAX if none). */
    bool has_eviction_prop;
    uint32_t eviction_flags;
};

struct ofpbuf *ofputil_encode_table_mod(const struct ofputil_table_mod *,
                                        enum ofp_version);
/* 1.4+ properties: vacancy (OFPBPC_BAD_LEN unless 8 bytes,
 * OFPBPC_BAD_VALUE for a threshold above 100 or down above up) and
 * eviction; any other is OFPBRC_BAD_TYPE, as 3.1 reports it. */
enum ofperr ofputil_decode_table_mod(const struct ofp_header *,
                                     struct ofputil_table_mod *);
void ofputil_table_mod_format(struct ds *, const struct ofputil_table_mod *,
                              const struct ofputil_table_map *);

/* ------------------------------------------------------------------ */
/* Table descriptions (1.4+ OFPMP_TABLE_DESC replies). */

/* The eviction flags 3.1 reports for every table (other, importance,
 * lifetime). */
#define OFPUTIL_EVICTION_FLAGS_DEFAULT 7

struct ofputil_table_desc {
    uint8_t table_id;
    bool eviction;
    uint32_t eviction_flags;
    bool vacancy_events;
    /* Sent only with VACANCY_EVENTS, in percent. */
    uint8_t vacancy_down, vacancy_up, vacancy;
};
/* Appends TD to the multipart reply list REPLIES (ofpmp_init()): config
 * bits, the eviction property always, the vacancy property when
 * VACANCY_EVENTS, as 3.1 writes them. */
void ofputil_append_table_desc_reply(const struct ofputil_table_desc *,
                                     struct ovs_list *replies);
struct ofpbuf *ofputil_encode_table_desc_request(enum ofp_version);
/* Pulls one table from a table desc reply MSG (the first call pulls the
 * header).  Returns 0, EOF or an OpenFlow error; EVICTION_FLAGS is
 * UINT32_MAX without an eviction property. */
int ofputil_decode_table_desc(struct ofpbuf *msg, struct ofputil_table_desc *);
/* "\n  table N:\n   eviction=... eviction_flags=...\n   vacancy=...\n", as
 * 3.1 prints one table of a reply ("eviction_flags=(default)" without an
 * eviction property). */
void ofputil_table_desc_format(struct ds *, const struct ofputil_table_desc *,
                               const struct ofputil_table_map *);

/* ------------------------------------------------------------------ */
/* Table status (1.4+ OFPT_TABLE_STATUS): a table's vacancy crossed a
 * threshold. */

enum ofp14_table_reason {
    OFPTR_VACANCY_DOWN = 3,     /* Vacancy fell below vacancy_down. */
    OFPTR_VACANCY_UP = 4,       /* Vacancy rose above vacancy_up. */
};

struct ofputil_table_status {
    enum ofp14_table_reason reason;
    struct ofputil_table_desc desc;
};

struct ofpbuf *ofputil_encode_table_status(const struct ofputil_table_status *,
                                           enum ofp_version);
/* OFPBPC_BAD_VALUE for another reason, as 3.1. */
enum ofperr ofputil_decode_table_status(const struct ofp_header *,
                                        struct ofputil_table_status *);
/* " reason=VACANCY_DOWN\ntable_desc:-" and the table as
 * ofputil_table_desc_format() prints it, as 3.1 prints the message. */
void ofputil_table_status_format(struct ds *,
                                 const struct ofputil_table_status *,
                                 const struct ofputil_table_map *);

#endif /* ofp-table.h */
