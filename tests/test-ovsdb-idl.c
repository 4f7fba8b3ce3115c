/* test-ovsdb-idl: drives the C IDL (through code generated from
 * tests/idltest.ovsschema) against a server, for tests/ovsdb-idl.at.
 *
 * Usage: test-ovsdb-idl [--track] [--cond=TABLE:CONDITION]... REMOTE STEP...
 *
 * Prints the replica ("NNN: ..." lines, rows sorted) once it is initially
 * complete and after every step.  --cond sets a monitor condition (a JSON
 * array) on TABLE before the first connection.
 *
 * The replica printed is that of IDL 1.  "@N STEP" (N from 2 to 4) runs
 * STEP on IDL N instead: another client of the same server, created when
 * first named and only ever run by its own steps, so its state stays as
 * that step left it.  After each step, every IDL that asked for a lock
 * prints "idlN lock NAME: has_lock=... contended=...".
 *
 * A STEP is:
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
 *   disconnect         drops the IDL's connection and goes on at once: the
 *                      next step finds the IDL reconnecting
 *   lock NAME          ovsdb_idl_set_lock(), then runs the IDL until the
 *                      server has answered (the IDL has or waits for it)
 *   unlock             ovsdb_idl_set_lock(NULL)
 *   wait-lock          runs the IDL until it has its lock; says whether its
 *                      change seqno (and change seq) moved meanwhile
 *   raw-lock NAME | raw-steal NAME | raw-unlock NAME
 *                      that request over the other client's connection;
 *                      prints the reply, then waits until the IDL's change
 *                      seqno moves (not with "nowait")
 *   cond TABLE COND    ovsdb_idl_set_condition(), then runs the IDL until
 *                      ovsdb_idl_get_condition_seqno() says it applies
 *   loop [OPS]         a daemon on struct ovsdb_idl_loop (see loop_step())
 *                      until it has nothing left to do; OPS, a raw
 *                      transaction, goes in after its first transaction is
 *                      built and before that is committed
 *   exit               destroys the IDL (not IDL 1)
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
#include "seq.h"
#include "smap.h"
#include "stream.h"
#include "tests/idltest-idl.h"
#include "timeval.h"
#include "util.h"

static int step;
static bool track;

/* The IDLs, by number (1 to MAX_CLIENTS), and the lock each asked for. */
#define MAX_CLIENTS 4
struct client {
    struct ovsdb_idl *idl;
    char *lock_name;
};
static struct client clients[MAX_CLIENTS + 1];

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
    for (int i = 1; i <= MAX_CLIENTS; i++) {
        const struct client *c = &clients[i];
        if (c->idl && c->lock_name) {
            printf("%03d: idl%d lock %s: has_lock=%s contended=%s\n", step, i,
                   c->lock_name,
                   ovsdb_idl_has_lock(c->idl) ? "true" : "false",
                   ovsdb_idl_is_lock_contended(c->idl) ? "true" : "false");
        }
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

/* Runs IDL until its change seqno differs from SEQNO. */
static void
wait_for_change(struct ovsdb_idl *idl, unsigned int seqno)
{
    for (;;) {
        ovsdb_idl_run(idl);
        if (ovsdb_idl_get_seqno(idl) != seqno) {
            return;
        }
        ovsdb_idl_wait(idl);
        poll_block();
    }
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
    wait_for_change(idl, ovsdb_idl_get_seqno(idl));
}

/* Sends METHOD ("lock", "steal" or "unlock") for lock NAME over RPC. */
static void
raw_lock_step(struct jsonrpc *rpc, struct ovsdb_idl *idl, const char *method,
              const char *name, bool wait)
{
    unsigned int seqno = ovsdb_idl_get_seqno(idl);
    struct jsonrpc_msg *reply;
    int error = jsonrpc_transact_block(
        rpc, jsonrpc_create_request(method, json_pack("[s]", name), NULL),
        &reply);
    if (error) {
        ovs_fatal(error, "%s failed", method);
    }
    json_t *result = reply->type == JSONRPC_REPLY ? reply->result
                                                  : reply->error;
    char *s = json_dumps(result, JSON_COMPACT | JSON_SORT_KEYS
                         | JSON_ENCODE_ANY);
    printf("%03d: raw %s reply %s\n", step, method, s);
    free(s);
    jsonrpc_msg_destroy(reply);
    if (wait) {
        /* The IDL hears "locked" or "stolen". */
        wait_for_change(idl, seqno);
    }
}

static void
lock_step(struct client *c, const char *name)
{
    free(c->lock_name);
    c->lock_name = name ? xstrdup(name) : NULL;
    ovsdb_idl_set_lock(c->idl, name);
    while (name) {
        ovsdb_idl_run(c->idl);
        if (ovsdb_idl_has_lock(c->idl)
            || ovsdb_idl_is_lock_contended(c->idl)) {
            break;
        }
        ovsdb_idl_wait(c->idl);
        poll_block();
    }
}

/* A client waiting for its lock looks at the IDL when the change seqno (or
 * the change seq, from another thread) moves: getting the lock must move
 * both. */
static void
wait_lock_step(struct ovsdb_idl *idl, int n)
{
    unsigned int seqno = ovsdb_idl_get_seqno(idl);
    uint64_t seq = seq_read(ovsdb_idl_get_change_seq(idl));
    for (;;) {
        ovsdb_idl_run(idl);
        if (ovsdb_idl_has_lock(idl)) {
            break;
        }
        ovsdb_idl_wait(idl);
        poll_block();
    }
    printf("%03d: idl%d got its lock, seqno %s, change seq %s\n", step, n,
           ovsdb_idl_get_seqno(idl) != seqno ? "moved" : "DID NOT MOVE",
           seq_read(ovsdb_idl_get_change_seq(idl)) != seq
           ? "moved" : "DID NOT MOVE");
}

/* Sets the condition in ARG, "TABLE CONDITION" (or with SEP for the
 * space), on IDL.  Returns the condition seqno it will be in effect at. */
static unsigned int
set_condition(struct ovsdb_idl *idl, const char *arg, char sep)
{
    const char *sp = strchr(arg, sep);
    if (!sp) {
        ovs_fatal(0, "%s: TABLE%cCONDITION expected", arg, sep);
    }
    char *table_name = xmemdup0(arg, sp - arg);
    const struct ovsdb_idl_table_class *tc = NULL;
    for (size_t i = 0; i < idltest_idl_class.n_tables; i++) {
        if (!strcmp(idltest_idl_class.tables[i].name, table_name)) {
            tc = &idltest_idl_class.tables[i];
        }
    }
    if (!tc) {
        ovs_fatal(0, "cond: no table %s", table_name);
    }
    free(table_name);
    json_error_t jerr;
    json_t *cond = json_loads(sp + 1, JSON_DECODE_ANY, &jerr);
    if (!cond) {
        ovs_fatal(0, "cond: %s: bad JSON (%s)", sp + 1, jerr.text);
    }
    return ovsdb_idl_set_condition(idl, tc, cond);
}

static void
cond_step(struct ovsdb_idl *idl, const char *arg)
{
    unsigned int seqno = set_condition(idl, arg, ' ');
    for (;;) {
        ovsdb_idl_run(idl);
        if ((int) (ovsdb_idl_get_condition_seqno(idl) - seqno) >= 0) {
            break;
        }
        ovsdb_idl_wait(idl);
        poll_block();
    }
}

static int
compare_simple_by_i(const void *a_, const void *b_)
{
    const struct idltest_simple *const *a = a_;
    const struct idltest_simple *const *b = b_;
    return (*a)->i < (*b)->i ? -1 : (*a)->i > (*b)->i;
}

/* A daemon in the style of ovs-vswitchd, on struct ovsdb_idl_loop.  Its
 * configuration is each simple row's "r"; its status is that row's "s",
 * which must read "r=R".  A transaction that fixes status verifies the "r"
 * it was based on and bumps the "i" of the link1 row "counter" (if there
 * is one), so the counter tells how many status transactions committed.
 * Each built transaction sets next_cfg to its number.  Stops once a
 * transaction found nothing to do, or when the IDL is not allowed to
 * write (its lock is elsewhere). */
static void
loop_step(struct ovsdb_idl *idl, struct jsonrpc *rpc, const char *ops)
{
    struct ovsdb_idl_loop loop = OVSDB_IDL_LOOP_INITIALIZER(idl);
    int n_built = 0;
    for (;;) {
        struct ovsdb_idl_txn *txn = ovsdb_idl_loop_run(&loop);
        bool wrote = false;
        if (txn) {
            if (loop.committing_txn) {
                printf("%03d: loop: new transaction while one is in "
                       "flight\n", step);
            }
            n_built++;
            loop.next_cfg = n_built;
            struct ds d = DS_EMPTY_INITIALIZER;
            ds_put_format(&d, "loop txn %d (cur_cfg=%"PRId64"):", n_built,
                          loop.cur_cfg);

            size_t n = 0;
            const struct idltest_simple *r;
            IDLTEST_SIMPLE_FOR_EACH (r, idl) {
                n++;
            }
            const struct idltest_simple **rows = xmalloc((n + 1)
                                                         * sizeof *rows);
            n = 0;
            IDLTEST_SIMPLE_FOR_EACH (r, idl) {
                rows[n++] = r;
            }
            qsort(rows, n, sizeof *rows, compare_simple_by_i);
            for (size_t i = 0; i < n; i++) {
                char *status = xasprintf("r=%g", rows[i]->r);
                if (strcmp(rows[i]->s, status)) {
                    if (!wrote) {
                        ds_put_cstr(&d, " status of");
                    }
                    ds_put_format(&d, " i=%"PRId64, rows[i]->i);
                    idltest_simple_verify_r(rows[i]);
                    idltest_simple_set_s(rows[i], status);
                    wrote = true;
                }
                free(status);
            }
            free(rows);
            const struct idltest_link1 *counter = find_link1(idl, "counter",
                                                             true);
            if (wrote && counter) {
                ovsdb_idl_txn_increment(txn, &counter->header_,
                                        &idltest_link1_col_i, false);
                ds_put_cstr(&d, ", counter+1");
            }
            if (!wrote) {
                ds_put_cstr(&d, " nothing to do");
            }
            printf("%03d: %s\n", step, ds_cstr(&d));
            ds_destroy(&d);
            if (n_built == 1 && ops) {
                raw_step(rpc, idl, ops, false);
            }
        }
        int retval = ovsdb_idl_loop_commit_and_wait(&loop);
        if (txn) {
            printf("%03d: loop txn %d: commit_and_wait=%d\n", step, n_built,
                   retval);
            if (retval == 1 && !wrote) {
                break;
            }
            if (retval == 1 && !ovsdb_idl_has_lock(idl)
                && ovsdb_idl_is_lock_contended(idl)) {
                printf("%03d: loop: not locked\n", step);
                break;
            }
        }
        if (n_built > 10) {
            printf("%03d: loop: gave up\n", step);
            break;
        }
        poll_block();
    }
    printf("%03d: loop done, cur_cfg=%"PRId64"\n", step, loop.cur_cfg);
    ovsdb_idl_loop_destroy(&loop);
}

static struct client *
get_client(const char *remote, int n)
{
    struct client *c = &clients[n];
    if (!c->idl) {
        c->idl = ovsdb_idl_create(remote, &idltest_idl_class, true, true);
        ovsdb_idl_wait_for_replica_block(c->idl);
        if (!ovsdb_idl_is_monitoring(c->idl)) {
            ovs_fatal(0, "%s: no replica", remote);
        }
    }
    return c;
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
        { "cond", required_argument, NULL, 'c' },
        { NULL, 0, NULL, 0 },
    };
    char **conds = NULL;
    size_t n_conds = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
        if (c == 't') {
            track = true;
        } else if (c == 'c') {
            conds = xrealloc(conds, (n_conds + 1) * sizeof *conds);
            conds[n_conds++] = optarg;
        } else {
            exit(EXIT_FAILURE);
        }
    }
    if (optind >= argc) {
        ovs_fatal(0, "usage: %s [--track] [--cond=TABLE:COND]... REMOTE "
                  "[STEP...]", argv[0]);
    }
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *remote = argv[optind++];

    struct ovsdb_idl *idl = ovsdb_idl_create(remote, &idltest_idl_class,
                                             true, true);
    clients[1].idl = idl;
    if (track) {
        ovsdb_idl_track_add_all(idl);
    }
    for (size_t i = 0; i < n_conds; i++) {
        set_condition(idl, conds[i], ':');
    }
    free(conds);
    ovsdb_idl_wait_for_replica_block(idl);
    if (!ovsdb_idl_is_monitoring(idl)) {
        ovs_fatal(0, "%s: no replica", remote);
    }
    print_idl(idl);

    struct jsonrpc *rpc = NULL;
    for (int i = optind; i < argc; i++) {
        const char *arg = argv[i];
        int n = 1;
        if (arg[0] == '@' && arg[1] >= '1' && arg[1] <= '0' + MAX_CLIENTS
            && arg[2] == ' ') {
            n = arg[1] - '0';
            arg += 3;
        }
        struct client *cl = get_client(remote, n);
        struct ovsdb_idl *cidl = cl->idl;

        bool nowait = !strncmp(arg, "nowait ", 7);
        if (nowait) {
            arg += 7;
        }
        if (!rpc && (arg[0] == '[' || !strncmp(arg, "raw-", 4)
                     || !strncmp(arg, "loop ", 5))) {
            struct stream *stream;
            int error = stream_open_block(
                jsonrpc_stream_open(remote, &stream, 0), -1, &stream);
            if (error) {
                ovs_fatal(error, "%s: connect failed", remote);
            }
            rpc = jsonrpc_open(stream);
        }
        if (arg[0] == '[') {
            raw_step(rpc, cidl, arg, !nowait);
        } else if (!strncmp(arg, "raw-", 4)) {
            char *copy = xstrdup(arg + 4);
            char *sp = strchr(copy, ' ');
            if (!sp) {
                ovs_fatal(0, "%s: lock name expected", arg);
            }
            *sp = '\0';
            raw_lock_step(rpc, cidl, copy, sp + 1, !nowait);
            free(copy);
        } else if (!strcmp(arg, "reconnect")) {
            ovsdb_idl_force_reconnect(cidl);
            wait_monitoring(cidl, true, NULL);
            printf("%03d: reconnected, %s\n", step,
                   ovsdb_idl_get_monitor_method(cidl));
        } else if (!strcmp(arg, "disconnect")) {
            ovsdb_idl_force_reconnect(cidl);
        } else if (!strncmp(arg, "pause ", 6)) {
            const char *file = arg + 6;
            FILE *f = fopen(file, "w");
            if (!f) {
                ovs_fatal(errno, "%s: create failed", file);
            }
            fclose(f);
            wait_monitoring(cidl, true, file);
            printf("%03d: reconnected, %s\n", step,
                   ovsdb_idl_get_monitor_method(cidl));
        } else if (!strncmp(arg, "lock ", 5)) {
            lock_step(cl, arg + 5);
        } else if (!strcmp(arg, "unlock")) {
            lock_step(cl, NULL);
        } else if (!strcmp(arg, "wait-lock")) {
            wait_lock_step(cidl, n);
        } else if (!strncmp(arg, "cond ", 5)) {
            cond_step(cidl, arg + 5);
        } else if (!strcmp(arg, "loop") || !strncmp(arg, "loop ", 5)) {
            loop_step(cidl, rpc, arg[4] ? arg + 5 : NULL);
        } else if (!strcmp(arg, "exit")) {
            if (n == 1) {
                ovs_fatal(0, "exit: not for IDL 1");
            }
            ovsdb_idl_destroy(cidl);
            free(cl->lock_name);
            memset(cl, 0, sizeof *cl);
        } else {
            idl_txn_step(cidl, arg);
        }
        print_idl(idl);
    }
    jsonrpc_close(rpc);
    for (int i = 1; i <= MAX_CLIENTS; i++) {
        ovsdb_idl_destroy(clients[i].idl);
        free(clients[i].lock_name);
    }
    poll_loop_destroy_self();
    printf("%03d: done\n", step);
    return 0;
}
