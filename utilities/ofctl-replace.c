/* ofctl-replace: diff-flows and replace-flows.
 *
 * Both compare two sets of flows: a file's (parsed as add-flows does) and
 * a switch's (dumped as dump-flows does), or two of either for
 * diff-flows.  A flow is identified by its table, priority and match; what
 * may differ between two versions of it is the cookie, the timeouts, the
 * importance and the actions.
 *
 * diff-flows prints "-" and the flow as SOURCE1 has it and "+" and the
 * flow as SOURCE2 has it for every flow that is missing on one side or
 * differs, table by table and by descending priority, and exits with 2
 * if there was any difference (0 otherwise), as 3.1 does.
 *
 * replace-flows makes the switch's flows those of the file: table by
 * table, it deletes (strictly) the flows the file lacks, then adds the
 * flows the switch lacks or has in another version (all of the file's
 * with --readd).  The connection speaks what a dump of the file's flows
 * would choose, as in 3.1. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "command-line.h"
#include "dynamic-string.h"
#include "hmap.h"
#include "list.h"
#include "match.h"
#include "ofctl.h"
#include "ofp-actions.h"
#include "ofp-flow.h"
#include "ofp-msgs.h"
#include "ofp-parse.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"
#include "util.h"
#include "vconn.h"

/* One version of a flow. */
struct flow_version {
    ovs_be64 cookie;
    uint16_t idle_timeout;
    uint16_t hard_timeout;
    uint16_t importance;
    uint16_t flags;
    struct ofpact *ofpacts;     /* Owned. */
    size_t ofpacts_len;
};

/* A flow and its version in each of the two sets (NULL: absent). */
struct flow_entry {
    struct hmap_node node;      /* In flow_table's 'entries'. */
    uint8_t table_id;
    int priority;
    struct match match;
    struct flow_version *versions[2];
};

struct flow_table {
    struct hmap entries;
};

static void
flow_table_init(struct flow_table *t)
{
    hmap_init(&t->entries);
}

static void
flow_version_free(struct flow_version *v)
{
    if (v) {
        free(v->ofpacts);
        free(v);
    }
}

static void
flow_table_destroy(struct flow_table *t)
{
    struct flow_entry *e, *next;
    HMAP_FOR_EACH_SAFE (e, next, node, &t->entries) {
        hmap_remove(&t->entries, &e->node);
        flow_version_free(e->versions[0]);
        flow_version_free(e->versions[1]);
        free(e);
    }
    hmap_destroy(&t->entries);
}

/* Records V as the version of the flow (TABLE_ID, PRIORITY, MATCH) in set
 * INDEX; a later version of the same flow in the same set replaces it. */
static void
flow_table_put(struct flow_table *t, int index, uint8_t table_id,
               int priority, const struct match *match,
               struct flow_version *v)
{
    uint32_t hash = match_hash(match, table_id ^ (priority << 8));
    struct flow_entry *e;
    HMAP_FOR_EACH_WITH_HASH (e, node, hash, &t->entries) {
        if (e->table_id == table_id && e->priority == priority
            && match_equal(&e->match, match)) {
            flow_version_free(e->versions[index]);
            e->versions[index] = v;
            return;
        }
    }
    e = xzalloc(sizeof *e);
    e->table_id = table_id;
    e->priority = priority;
    e->match = *match;
    e->versions[index] = v;
    hmap_insert(&t->entries, &e->node, hash);
}

static struct flow_version *
flow_version_create(ovs_be64 cookie, uint16_t idle_timeout,
                    uint16_t hard_timeout, uint16_t importance,
                    uint16_t flags, const struct ofpact *ofpacts,
                    size_t ofpacts_len)
{
    struct flow_version *v = xmalloc(sizeof *v);
    v->cookie = cookie;
    v->idle_timeout = idle_timeout;
    v->hard_timeout = hard_timeout;
    v->importance = importance;
    v->flags = flags;
    v->ofpacts = ofpacts_len ? xmemdup(ofpacts, ofpacts_len) : NULL;
    v->ofpacts_len = ofpacts_len;
    return v;
}

static bool
flow_version_equal(const struct flow_version *a, const struct flow_version *b)
{
    return (a->cookie == b->cookie
            && a->idle_timeout == b->idle_timeout
            && a->hard_timeout == b->hard_timeout
            && a->importance == b->importance
            && ofpact_list_equal(a->ofpacts, a->ofpacts_len,
                                 b->ofpacts, b->ofpacts_len));
}

/* The entries of T in the order both commands walk them: by table, then
 * by descending priority, then by match text so that the order does not
 * depend on hashing.  The caller frees the array. */
static int
compare_entries(const void *a_, const void *b_)
{
    const struct flow_entry *a = *(const struct flow_entry *const *) a_;
    const struct flow_entry *b = *(const struct flow_entry *const *) b_;
    if (a->table_id != b->table_id) {
        return a->table_id < b->table_id ? -1 : 1;
    }
    if (a->priority != b->priority) {
        return a->priority > b->priority ? -1 : 1;
    }
    char *sa = match_to_string(&a->match, NULL, OFP_DEFAULT_PRIORITY);
    char *sb = match_to_string(&b->match, NULL, OFP_DEFAULT_PRIORITY);
    int cmp = strcmp(sa, sb);
    free(sa);
    free(sb);
    return cmp;
}

static struct flow_entry **
flow_table_sorted(const struct flow_table *t)
{
    struct flow_entry **entries = xmalloc((hmap_count(&t->entries) + 1)
                                          * sizeof *entries);
    size_t n = 0;
    struct flow_entry *e;
    HMAP_FOR_EACH (e, node, &t->entries) {
        entries[n++] = e;
    }
    qsort(entries, n, sizeof *entries, compare_entries);
    return entries;
}

/* Reads the flows of FILE_NAME into set INDEX of T.  Returns the protocols
 * all of them can be sent in.  Fatal on error. */
static enum ofputil_protocol
read_flows_from_file(struct flow_table *t, int index, const char *file_name,
                     const struct ofputil_port_map *port_map,
                     const struct ofputil_table_map *table_map)
{
    FILE *stream = !strcmp(file_name, "-") ? stdin : fopen(file_name, "r");
    if (!stream) {
        ovs_fatal(errno, "%s: open", file_name);
    }

    enum ofputil_protocol usable = OFPUTIL_P_ANY;
    struct ds line = DS_EMPTY_INITIALIZER;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 64);
    int line_number = 0;
    while (!ds_get_preprocessed_line(&line, stream, &line_number)) {
        struct ofputil_flow_mod fm;
        ofpbuf_clear(&ofpacts);
        enum ofputil_protocol flow_usable;
        char *error = parse_ofp_flow_mod_str_protocols(
            &fm, ds_cstr(&line), port_map, table_map, OFPFC_ADD, &ofpacts,
            &flow_usable);
        if (error) {
            ovs_fatal(0, "%s:%d: %s", file_name, line_number, error);
        }
        usable &= flow_usable;

        struct flow_version *v = flow_version_create(
            fm.new_cookie, fm.idle_timeout, fm.hard_timeout, fm.importance,
            fm.flags, fm.ofpacts, fm.ofpacts_len);
        /* A flow without table= goes to table 0. */
        flow_table_put(t, index, fm.table_id == OFPTT_ALL ? 0 : fm.table_id,
                       fm.priority, &fm.match, v);
    }
    ofpbuf_uninit(&ofpacts);
    ds_destroy(&line);
    if (stream != stdin) {
        fclose(stream);
    }
    return usable;
}

struct switch_reader {
    struct flow_table *table;
    int index;
};

static void
put_switch_flow(const struct ofputil_flow_stats *fs, void *reader_)
{
    struct switch_reader *reader = reader_;
    struct flow_version *v = flow_version_create(
        fs->cookie, fs->idle_timeout, fs->hard_timeout, fs->importance,
        fs->flags, fs->ofpacts, fs->ofpacts_len);
    flow_table_put(reader->table, reader->index, fs->table_id, fs->priority,
                   &fs->match, v);
}

/* Reads every flow of VCONN's switch, which speaks PROTOCOL, into set
 * INDEX of T. */
static void
read_flows_from_switch(struct vconn *vconn, enum ofputil_protocol protocol,
                       struct flow_table *t, int index)
{
    struct ofputil_flow_stats_request fsr;
    memset(&fsr, 0, sizeof fsr);
    match_init_catchall(&fsr.match);
    fsr.out_port = OFPP_NONE;
    fsr.out_group = UINT32_MAX;
    fsr.table_id = OFPTT_ALL;

    struct switch_reader reader = { t, index };
    ofctl_dump_flow_stats(vconn,
                          ofputil_encode_flow_stats_request(&fsr, protocol),
                          put_switch_flow, &reader);
}

/* A file, if SOURCE names one that is not a socket; else a switch. */
static void
read_flows_from_source(const char *source, struct flow_table *t, int index)
{
    struct stat s;
    if (!stat(source, &s) && !S_ISSOCK(s.st_mode)) {
        read_flows_from_file(t, index, source, NULL, NULL);
        return;
    }
    struct vconn *vconn;
    enum ofputil_protocol protocol = ofctl_open_vconn_for_flow_dump(
        source, OFPUTIL_P_ANY, &vconn);
    read_flows_from_switch(vconn, protocol, t, index);
    vconn_close(vconn);
}

static void
format_flow_version(struct ds *s, const struct flow_entry *e,
                    const struct flow_version *v)
{
    if (e->table_id) {
        ds_put_format(s, "table=%"PRIu8" ", e->table_id);
    }
    match_format(&e->match, NULL, s, e->priority);
    if (v->cookie) {
        ds_put_format(s, " cookie=0x%"PRIx64, ntohll(v->cookie));
    }
    if (v->idle_timeout) {
        ds_put_format(s, " idle_timeout=%"PRIu16, v->idle_timeout);
    }
    if (v->hard_timeout) {
        ds_put_format(s, " hard_timeout=%"PRIu16, v->hard_timeout);
    }
    if (v->importance) {
        ds_put_format(s, " importance=%"PRIu16, v->importance);
    }
    ds_put_cstr(s, " actions=");
    ofpact_list_format(v->ofpacts, v->ofpacts_len, NULL, NULL, s);
}

static void
print_flow_version(char sign, const struct flow_entry *e,
                   const struct flow_version *v)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    ds_put_char(&s, sign);
    format_flow_version(&s, e, v);
    puts(ds_cstr(&s));
    ds_destroy(&s);
}

void
ofctl_diff_flows(struct ovs_cmdl_context *ctx)
{
    struct flow_table t;
    flow_table_init(&t);
    read_flows_from_source(ctx->argv[1], &t, 0);
    read_flows_from_source(ctx->argv[2], &t, 1);

    bool differences = false;
    struct flow_entry **entries = flow_table_sorted(&t);
    for (size_t i = 0; i < hmap_count(&t.entries); i++) {
        const struct flow_entry *e = entries[i];
        const struct flow_version *a = e->versions[0];
        const struct flow_version *b = e->versions[1];
        if (!a || !b || !flow_version_equal(a, b)) {
            if (a) {
                print_flow_version('-', e, a);
            }
            if (b) {
                print_flow_version('+', e, b);
            }
            differences = true;
        }
    }
    free(entries);
    flow_table_destroy(&t);
    if (differences) {
        ofctl_exit_status = 2;
    }
}

/* Appends to REQUESTS the flow_mod COMMAND for E's version INDEX. */
static void
append_flow_mod(struct ovs_list *requests, const struct flow_entry *e,
                int index, uint16_t command, enum ofputil_protocol protocol)
{
    const struct flow_version *v = e->versions[index];
    struct ofputil_flow_mod fm = {
        .match = e->match,
        .priority = e->priority,
        .cookie = 0,
        .cookie_mask = 0,
        .new_cookie = v->cookie,
        .table_id = e->table_id,
        .command = command,
        .idle_timeout = v->idle_timeout,
        .hard_timeout = v->hard_timeout,
        .buffer_id = UINT32_MAX,
        .out_port = OFPP_NONE,
        .out_group = UINT32_MAX,
        .flags = v->flags,
        .importance = v->importance,
        .ofpacts = v->ofpacts,
        .ofpacts_len = v->ofpacts_len,
    };
    if (command != OFPFC_ADD) {
        fm.new_cookie = OVS_BE64_MAX;
        fm.ofpacts = NULL;
        fm.ofpacts_len = 0;
    }
    struct ofpbuf *msg = ofputil_encode_flow_mod(&fm, protocol);
    ovs_list_push_back(requests, &msg->list_node);
}

void
ofctl_replace_flows(struct ovs_cmdl_context *ctx)
{
    enum { FILE_IDX, SWITCH_IDX };
    struct flow_table t;
    flow_table_init(&t);
    /* 3.1 reads the names first: ports, then tables. */
    const struct ofputil_port_map *port_map
        = ofctl_ports_to_accept(ctx->argv[1]);
    const struct ofputil_table_map *table_map
        = ofctl_tables_to_accept(ctx->argv[1]);
    enum ofputil_protocol usable = read_flows_from_file(&t, FILE_IDX,
                                                        ctx->argv[2],
                                                        port_map, table_map);

    struct vconn *vconn;
    enum ofputil_protocol protocol = ofctl_open_vconn_for_flow_dump(
        ctx->argv[1], usable, &vconn);
    read_flows_from_switch(vconn, protocol, &t, SWITCH_IDX);

    struct ovs_list requests = OVS_LIST_INITIALIZER(&requests);
    struct flow_entry **entries = flow_table_sorted(&t);
    size_t n = hmap_count(&t.entries);
    for (size_t start = 0; start < n; ) {
        /* One table at a time: its deletions, then its additions. */
        size_t end = start;
        while (end < n && entries[end]->table_id == entries[start]->table_id) {
            end++;
        }
        for (size_t i = start; i < end; i++) {
            const struct flow_entry *e = entries[i];
            if (e->versions[SWITCH_IDX] && !e->versions[FILE_IDX]) {
                append_flow_mod(&requests, e, SWITCH_IDX,
                                OFPFC_DELETE_STRICT, protocol);
            }
        }
        for (size_t i = start; i < end; i++) {
            const struct flow_entry *e = entries[i];
            const struct flow_version *file_v = e->versions[FILE_IDX];
            const struct flow_version *switch_v = e->versions[SWITCH_IDX];
            if (file_v && (ofctl_opts.readd || !switch_v
                           || !flow_version_equal(file_v, switch_v))) {
                append_flow_mod(&requests, e, FILE_IDX, OFPFC_ADD, protocol);
            }
        }
        start = end;
    }
    free(entries);

    if (ofctl_opts.bundle) {
        /* 3.1 commits a bundle even when there is nothing to change. */
        ofctl_bundle_transact(vconn, &requests);
    } else if (!ovs_list_is_empty(&requests)) {
        ofctl_transact_multiple_noreply(vconn, &requests);
    }
    vconn_close(vconn);
    flow_table_destroy(&t);
}
