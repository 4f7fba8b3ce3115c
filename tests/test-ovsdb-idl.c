/* test-ovsdb-idl: drives the C IDL (through code generated from
 * tests/idltest.ovsschema) against a server, for tests/ovsdb-idl.at.
 *
 * Usage: test-ovsdb-idl [--track] [--columns=TABLE.COL,...] REMOTE STEP...
 *
 * Prints the replica ("NNN: ..." lines, rows sorted) once it is initially
 * complete and after every step.  A STEP is:
 *
 *   [OPERATION, ...]   a raw "transact" on the idltest database sent over a
 *                      separate connection (another client); prints the
 *                      reply, then waits until the IDL's change seqno moves
 *   nowait [OP, ...]   the same without waiting: the IDL has not applied
 *                      the change when the next step starts
 *   reconnect          drops the IDL's connection and waits until its
 *                      monitor is back
 *   pause FILE         creates FILE, waits until someone removes it (e.g.
 *                      after restarting the server), then waits until the
 *                      IDL's monitor is back
 *   CMD, CMD, ...      one IDL transaction made of these commands, committed
 *                      with ovsdb_idl_txn_commit_block(); prints its status
 *
 * Transaction commands (simple rows are named by their "i", link rows by
 * their "name"):
 *   insert simple I | insert link1 NAME | insert link2 NAME
 *   delete simple I | delete link1 NAME | delete link2 NAME
 *   set simple I COL VALUE      COL: i r b s e u(="new" for a fresh uuid)
 *   set link1 NAME COL VALUE    COL: i, l2 (a link2 name, or "none")
 *   set link2 NAME l1 VALUE     (a link1 name, or "none")
 *   addvalue simple I ia N | delvalue simple I ia N
 *   addvalue simple I sa S | delvalue simple I sa S
 *   addvalue link1 NAME ka NAME2 | delvalue link1 NAME ka NAME2
 *   setkey simple I sm K V | delkey simple I sm K
 *   setkey simple I im N V | delkey simple I im N
 *   verify simple I COL | verify link1 NAME COL
 *   increment simple I          (column i, forced; prints the new value)
 *   comment TEXT | dry-run
 *
 * With --track, each print is followed by the tracked changes since the
 * previous one (then ovsdb_idl_track_clear()).
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dynamic-string.h"
#include "jsonrpc.h"
#include "ovsdb-data.h"
#include "ovsdb-idl.h"
#include "poll-loop.h"
#include "smap.h"
#include "stream.h"
#include "tests/idltest-idl.h"
#include "timeval.h"
#include "util.h"

static int step;
static bool track;

static int
compare_strings(const void *a_, const void *b_)
{
    const char *const *a = a_;
    const char *const *b = b_;
    return strcmp(*a, *b);
}

/* Lines of one table, sorted and printed with the step number. */
struct lines {
    char **v;
    size_t n, allocated;
};

static void
lines_add(struct lines *l, char *s)
{
    if (l->n >= l->allocated) {
        l->v = x2nrealloc(l->v, &l->allocated, sizeof *l->v);
    }
    l->v[l->n++] = s;
}

static void
lines_flush(struct lines *l)
{
    if (l->n) {
        qsort(l->v, l->n, sizeof *l->v, compare_strings);
    }
    for (size_t i = 0; i < l->n; i++) {
        printf("%03d: %s\n", step, l->v[i]);
        free(l->v[i]);
    }
    free(l->v);
    memset(l, 0, sizeof *l);
}

static void
put_smap(struct ds *s, const struct smap *smap)
{
    const struct smap_node **nodes = smap_sort(smap);
    ds_put_char(s, '{');
    for (size_t i = 0; i < smap_count(smap); i++) {
        ds_put_format(s, "%s%s=%s", i ? " " : "", nodes[i]->key,
                      nodes[i]->value);
    }
    ds_put_char(s, '}');
    free(nodes);
}

static char *
format_simple(const struct idltest_simple *r)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    ds_put_format(&s, "simple: i=%"PRId64" r=%g b=%s s=%s e=%s u="UUID_FMT
                  " ia=[", r->i, r->r, r->b ? "true" : "false", r->s,
                  r->e ? r->e : "-", UUID_ARGS(&r->u));
    for (size_t i = 0; i < r->n_ia; i++) {
        ds_put_format(&s, "%s%"PRId64, i ? " " : "", r->ia[i]);
    }
    ds_put_cstr(&s, "] sa=[");
    for (size_t i = 0; i < r->n_sa; i++) {
        ds_put_format(&s, "%s%s", i ? " " : "", r->sa[i]);
    }
    ds_put_cstr(&s, "] sm=");
    put_smap(&s, &r->sm);
    ds_put_cstr(&s, " im={");
    for (size_t i = 0; i < r->n_im; i++) {
        ds_put_format(&s, "%s%"PRId64"=%s", i ? " " : "", r->key_im[i],
                      r->value_im[i]);
    }
    ds_put_format(&s, "} uuid="UUID_FMT, UUID_ARGS(&r->header_.uuid));
    return ds_steal_cstr(&s);
}

static char *
format_link1(const struct idltest_link1 *r)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    ds_put_format(&s, "link1: name=%s i=%"PRId64" ka=[", r->name, r->i);
    const char **names = xmalloc((r->n_ka + 1) * sizeof *names);
    for (size_t i = 0; i < r->n_ka; i++) {
        names[i] = r->ka[i]->name;
    }
    if (r->n_ka) {
        qsort(names, r->n_ka, sizeof *names, compare_strings);
    }
    for (size_t i = 0; i < r->n_ka; i++) {
        ds_put_format(&s, "%s%s", i ? " " : "", names[i]);
    }
    free(names);
    ds_put_format(&s, "] l2=%s", r->l2 ? r->l2->name : "-");
    return ds_steal_cstr(&s);
}

static char *
format_link2(const struct idltest_link2 *r)
{
    return xasprintf("link2: name=%s l1=%s", r->name,
                     r->l1 ? r->l1->name : "-");
}

static void
print_tracked(struct ovsdb_idl *idl)
{
    struct lines l = { NULL, 0, 0 };
    const struct idltest_simple *s;
    IDLTEST_SIMPLE_FOR_EACH_TRACKED (s, idl) {
        struct ds d = DS_EMPTY_INITIALIZER;
        if (idltest_simple_is_deleted(s)) {
            ds_put_cstr(&d, "deleted");
        } else if (idltest_simple_is_new(s)) {
            ds_put_cstr(&d, "inserted");
        } else {
            ds_put_cstr(&d, "updated(");
            bool first = true;
            for (size_t i = 0; i < IDLTEST_SIMPLE_N_COLUMNS; i++) {
                if (idltest_simple_is_updated(s, i)) {
                    ds_put_format(&d, "%s%s", first ? "" : " ",
                                  idltest_simple_columns[i].name);
                    first = false;
                }
            }
            ds_put_char(&d, ')');
        }
        char *row = format_simple(s);
        lines_add(&l, xasprintf("tracked %s %s", ds_cstr(&d), row));
        free(row);
        ds_destroy(&d);
    }
    const struct idltest_link1 *l1;
    IDLTEST_LINK1_FOR_EACH_TRACKED (l1, idl) {
        char *row = format_link1(l1);
        lines_add(&l, xasprintf("tracked %s %s",
                                idltest_link1_is_deleted(l1) ? "deleted"
                                : idltest_link1_is_new(l1) ? "inserted"
                                : "updated", row));
        free(row);
    }
    lines_flush(&l);
    ovsdb_idl_track_clear(idl);
}

static void
print_idl(struct ovsdb_idl *idl)
{
    struct lines l = { NULL, 0, 0 };
    const struct idltest_simple *s;
    IDLTEST_SIMPLE_FOR_EACH (s, idl) {
        lines_add(&l, format_simple(s));
    }
    const struct idltest_link1 *l1;
    IDLTEST_LINK1_FOR_EACH (l1, idl) {
        lines_add(&l, format_link1(l1));
    }
    const struct idltest_link2 *l2;
    IDLTEST_LINK2_FOR_EACH (l2, idl) {
        lines_add(&l, format_link2(l2));
    }
    if (!l.n) {
        lines_add(&l, xstrdup("empty"));
    }
    lines_flush(&l);
    if (track) {
        print_tracked(idl);
    }
    step++;
}

/* Row lookups for the transaction commands. */

static const struct idltest_simple *
find_simple(struct ovsdb_idl *idl, const char *i_s)
{
    long long int i = strtoll(i_s, NULL, 10);
    const struct idltest_simple *s;
    IDLTEST_SIMPLE_FOR_EACH (s, idl) {
        if (s->i == i) {
            return s;
        }
    }
    ovs_fatal(0, "no simple row with i=%s", i_s);
}

static const struct idltest_link1 *
find_link1(struct ovsdb_idl *idl, const char *name, bool may_fail)
{
    const struct idltest_link1 *r;
    IDLTEST_LINK1_FOR_EACH (r, idl) {
        if (!strcmp(r->name, name)) {
            return r;
        }
    }
    if (!may_fail) {
        ovs_fatal(0, "no link1 row named %s", name);
    }
    return NULL;
}

static const struct idltest_link2 *
find_link2(struct ovsdb_idl *idl, const char *name)
{
    const struct idltest_link2 *r;
    IDLTEST_LINK2_FOR_EACH (r, idl) {
        if (!strcmp(r->name, name)) {
            return r;
        }
    }
    ovs_fatal(0, "no link2 row named %s", name);
}

static bool
is_true(const char *s)
{
    return !strcmp(s, "true");
}

static void
run_command(struct ovsdb_idl *idl, struct ovsdb_idl_txn *txn,
            char **w, int n, bool *incrementp)
{
#define NEED(N) if (n < (N)) ovs_fatal(0, "%s: missing arguments", w[0])
    NEED(1);
    const char *cmd = w[0];
    if (!strcmp(cmd, "comment")) {
        NEED(2);
        ovsdb_idl_txn_add_comment(txn, "%s", w[1]);
        return;
    } else if (!strcmp(cmd, "dry-run")) {
        ovsdb_idl_txn_set_dry_run(txn);
        return;
    }
    NEED(3);
    const char *table = w[1];
    const char *key = w[2];
    bool simple = !strcmp(table, "simple");
    bool link1 = !strcmp(table, "link1");

    if (!strcmp(cmd, "insert")) {
        if (simple) {
            struct idltest_simple *r = idltest_simple_insert(txn);
            idltest_simple_set_i(r, strtoll(key, NULL, 10));
        } else if (link1) {
            struct idltest_link1 *r = idltest_link1_insert(txn);
            idltest_link1_set_name(r, key);
        } else {
            struct idltest_link2 *r = idltest_link2_insert(txn);
            idltest_link2_set_name(r, key);
        }
    } else if (!strcmp(cmd, "delete")) {
        if (simple) {
            idltest_simple_delete(find_simple(idl, key));
        } else if (link1) {
            idltest_link1_delete(find_link1(idl, key, false));
        } else {
            idltest_link2_delete(find_link2(idl, key));
        }
    } else if (!strcmp(cmd, "increment")) {
        ovsdb_idl_txn_increment(txn, &find_simple(idl, key)->header_,
                                &idltest_simple_col_i, true);
        *incrementp = true;
    } else if (!strcmp(cmd, "verify")) {
        NEED(4);
        const struct ovsdb_idl_row *row;
        const struct ovsdb_idl_table_class *tc;
        if (simple) {
            row = &find_simple(idl, key)->header_;
            tc = &idltest_table_simple;
        } else {
            row = &find_link1(idl, key, false)->header_;
            tc = &idltest_table_link1;
        }
        for (size_t i = 0; i < tc->n_columns; i++) {
            if (!strcmp(tc->columns[i].name, w[3])) {
                ovsdb_idl_txn_verify(row, &tc->columns[i]);
                return;
            }
        }
        ovs_fatal(0, "verify: unknown column %s", w[3]);
    } else if (!strcmp(cmd, "set")) {
        NEED(5);
        const char *col = w[3], *v = w[4];
        if (simple) {
            const struct idltest_simple *r = find_simple(idl, key);
            if (!strcmp(col, "i")) {
                idltest_simple_set_i(r, strtoll(v, NULL, 10));
            } else if (!strcmp(col, "r")) {
                idltest_simple_set_r(r, strtod(v, NULL));
            } else if (!strcmp(col, "b")) {
                idltest_simple_set_b(r, is_true(v));
            } else if (!strcmp(col, "s")) {
                idltest_simple_set_s(r, v);
            } else if (!strcmp(col, "e")) {
                idltest_simple_set_e(r, strcmp(v, "-") ? v : NULL);
            } else if (!strcmp(col, "u")) {
                struct uuid u;
                if (!uuid_from_string(&u, v)) {
                    uuid_generate(&u);
                }
                idltest_simple_set_u(r, u);
            } else {
                ovs_fatal(0, "set: unknown column %s", col);
            }
        } else if (link1) {
            const struct idltest_link1 *r = find_link1(idl, key, false);
            if (!strcmp(col, "i")) {
                idltest_link1_set_i(r, strtoll(v, NULL, 10));
            } else if (!strcmp(col, "l2")) {
                idltest_link1_set_l2(r, strcmp(v, "none")
                                        ? find_link2(idl, v) : NULL);
            } else {
                ovs_fatal(0, "set: unknown column %s", col);
            }
        } else {
            const struct idltest_link2 *r = find_link2(idl, key);
            idltest_link2_set_l1(r, strcmp(v, "none")
                                    ? find_link1(idl, v, false) : NULL);
        }
    } else if (!strcmp(cmd, "addvalue") || !strcmp(cmd, "delvalue")) {
        NEED(5);
        bool add = cmd[0] == 'a';
        const char *col = w[3], *v = w[4];
        if (link1) {
            const struct idltest_link1 *r = find_link1(idl, key, false);
            const struct idltest_link1 *t = find_link1(idl, v, false);
            (add ? idltest_link1_update_ka_addvalue
                 : idltest_link1_update_ka_delvalue)(r, t);
        } else if (!strcmp(col, "ia")) {
            const struct idltest_simple *r = find_simple(idl, key);
            (add ? idltest_simple_update_ia_addvalue
                 : idltest_simple_update_ia_delvalue)(r, strtoll(v, NULL, 10));
        } else {
            const struct idltest_simple *r = find_simple(idl, key);
            (add ? idltest_simple_update_sa_addvalue
                 : idltest_simple_update_sa_delvalue)(r, v);
        }
    } else if (!strcmp(cmd, "setkey")) {
        NEED(6);
        const struct idltest_simple *r = find_simple(idl, key);
        if (!strcmp(w[3], "sm")) {
            idltest_simple_update_sm_setkey(r, w[4], w[5]);
        } else {
            idltest_simple_update_im_setkey(r, strtoll(w[4], NULL, 10), w[5]);
        }
    } else if (!strcmp(cmd, "delkey")) {
        NEED(5);
        const struct idltest_simple *r = find_simple(idl, key);
        if (!strcmp(w[3], "sm")) {
            idltest_simple_update_sm_delkey(r, w[4]);
        } else {
            idltest_simple_update_im_delkey(r, strtoll(w[4], NULL, 10));
        }
    } else {
        ovs_fatal(0, "unknown command %s", cmd);
    }
#undef NEED
}

static void
idl_txn_step(struct ovsdb_idl *idl, const char *arg)
{
    struct ovsdb_idl_txn *txn = ovsdb_idl_txn_create(idl);
    char *copy = xstrdup(arg);
    char *save1 = NULL;
    bool increment = false;
    for (char *cmd = strtok_r(copy, ",", &save1); cmd;
         cmd = strtok_r(NULL, ",", &save1)) {
        char *w[8];
        int n = 0;
        char *save2 = NULL;
        for (char *word = strtok_r(cmd, " ", &save2); word && n < 8;
             word = strtok_r(NULL, " ", &save2)) {
            w[n++] = word;
        }
        if (n) {
            run_command(idl, txn, w, n, &increment);
        }
    }
    free(copy);
    enum ovsdb_idl_txn_status status = ovsdb_idl_txn_commit_block(txn);
    printf("%03d: commit, status=%s", step,
           ovsdb_idl_txn_status_to_string(status));
    if (increment && status == TXN_SUCCESS) {
        printf(", increment=%"PRId64,
               ovsdb_idl_txn_get_increment_new_value(txn));
    }
    if (status == TXN_ERROR) {
        printf(", error=%s", ovsdb_idl_txn_get_error(txn));
    }
    putchar('\n');
    ovsdb_idl_txn_destroy(txn);
}

static void
raw_step(struct jsonrpc *rpc, struct ovsdb_idl *idl, const char *arg,
         bool wait)
{
    json_error_t jerr;
    json_t *ops = json_loads(arg, 0, &jerr);
    if (!ops || !json_is_array(ops)) {
        ovs_fatal(0, "%s: bad JSON (%s)", arg, jerr.text);
    }
    json_t *params = json_pack("[s]", "idltest");
    json_array_extend(params, ops);
    json_decref(ops);
    struct jsonrpc_msg *reply;
    int error = jsonrpc_transact_block(
        rpc, jsonrpc_create_request("transact", params, NULL), &reply);
    if (error) {
        ovs_fatal(error, "transact failed");
    }
    json_t *result = reply->type == JSONRPC_REPLY ? reply->result
                                                  : reply->error;
    char *s = json_dumps(result, JSON_COMPACT | JSON_SORT_KEYS);
    printf("%03d: raw reply %s\n", step, s);
    free(s);
    bool failed = reply->type != JSONRPC_REPLY;
    for (size_t i = 0; !failed && i < json_array_size(result); i++) {
        if (json_object_get(json_array_get(result, i), "error")) {
            failed = true;
        }
    }
    jsonrpc_msg_destroy(reply);
    if (failed || !wait) {
        return;
    }
    /* Another client's change reaches us as an update notification. */
    unsigned int seqno = ovsdb_idl_get_seqno(idl);
    while (ovsdb_idl_get_seqno(idl) == seqno) {
        ovsdb_idl_run(idl);
        if (ovsdb_idl_get_seqno(idl) != seqno) {
            break;
        }
        ovsdb_idl_wait(idl);
        poll_block();
    }
}

static void
wait_monitoring(struct ovsdb_idl *idl, bool need_drop, const char *file)
{
    bool dropped = !need_drop;
    for (;;) {
        ovsdb_idl_run(idl);
        if (!ovsdb_idl_is_monitoring(idl)) {
            dropped = true;
        } else if (dropped && (!file || access(file, F_OK))) {
            return;
        }
        ovsdb_idl_wait(idl);
        if (file && !access(file, F_OK)) {
            poll_timer_wait(20);    /* Polls for FILE's removal. */
        }
        poll_block();
    }
}

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    static const struct option long_options[] = {
        { "track", no_argument, NULL, 't' },
        { NULL, 0, NULL, 0 },
    };
    int c;
    while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
        if (c == 't') {
            track = true;
        } else {
            exit(EXIT_FAILURE);
        }
    }
    if (optind >= argc) {
        ovs_fatal(0, "usage: %s [--track] REMOTE [STEP...]", argv[0]);
    }
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *remote = argv[optind++];

    struct ovsdb_idl *idl = ovsdb_idl_create(remote, &idltest_idl_class,
                                             true, true);
    if (track) {
        ovsdb_idl_track_add_all(idl);
    }
    ovsdb_idl_wait_for_replica_block(idl);
    if (!ovsdb_idl_is_monitoring(idl)) {
        ovs_fatal(0, "%s: no replica", remote);
    }
    print_idl(idl);

    struct jsonrpc *rpc = NULL;
    for (int i = optind; i < argc; i++) {
        const char *arg = argv[i];
        bool nowait = !strncmp(arg, "nowait ", 7);
        if (nowait) {
            arg += 7;
        }
        if (arg[0] == '[') {
            if (!rpc) {
                struct stream *stream;
                int error = stream_open_block(
                    jsonrpc_stream_open(remote, &stream, 0), -1, &stream);
                if (error) {
                    ovs_fatal(error, "%s: connect failed", remote);
                }
                rpc = jsonrpc_open(stream);
            }
            raw_step(rpc, idl, arg, !nowait);
        } else if (!strcmp(arg, "reconnect")) {
            ovsdb_idl_force_reconnect(idl);
            wait_monitoring(idl, true, NULL);
            printf("%03d: reconnected, %s\n", step,
                   ovsdb_idl_get_monitor_method(idl));
        } else if (!strncmp(arg, "pause ", 6)) {
            const char *file = arg + 6;
            FILE *f = fopen(file, "w");
            if (!f) {
                ovs_fatal(errno, "%s: create failed", file);
            }
            fclose(f);
            wait_monitoring(idl, true, file);
            printf("%03d: reconnected, %s\n", step,
                   ovsdb_idl_get_monitor_method(idl));
        } else {
            idl_txn_step(idl, arg);
        }
        print_idl(idl);
    }
    jsonrpc_close(rpc);
    ovsdb_idl_destroy(idl);
    poll_loop_destroy_self();
    printf("%03d: done\n", step);
    return 0;
}
