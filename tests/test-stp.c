/* test-stp: "ovstest test-stp FILE", the spanning tree simulator that Open
 * vSwitch's stp.at drives, run on our engine (lib/stp.c).
 *
 * FILE describes bridges wired to 26 shared LANs "a"..."z" and what to
 * expect of the tree they build, one command a line ('#' starts a
 * comment):
 *
 *   bridge N ID[^PRIO] = PORT...    creates bridge N (numbered from 0 in
 *                                   order) with bridge id ID
 *   bridge N[^PRIO] [= PORT...]     changes bridge N
 *       PORT is LAN[:COST][^PRIO] (LAN a letter, or 0 for unconnected;
 *       COST defaults to 10), "X" to disable the port, "_" to leave it;
 *       ports missing at the end of the list are disabled.
 *   run MS        simulates 180 steps of MS ms each: every bridge ticks,
 *                 then BPDUs are delivered until none is left (at most MS
 *                 rounds)
 *   check N = root                      bridge N must be root
 *   check N = [rootid:ID[^PRIO]] STATE...
 *       STATE is D, B, Li, Le or F (":COST" after F: it is the root port
 *       and the root path cost is COST), "_" to skip; missing ones are D
 *   dump, tree    print the ports' states / the forwarding tree
 *
 * A syntax error prints "FILE:LINE:COLUMN: message" and exits 1; a failed
 * check prints "FILE:LINE: message" for each difference and exits 1 after
 * that check line.  The engine's log goes to stderr as "module|LEVEL|msg".
 *
 * The script's tokens and errors come from tests/sim-lexer.h, shared with
 * test-rstp.
 *
 * Single-threaded; everything is freed at the end. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ovstest.h"
#include "sim-lexer.h"
#include "stp.h"
#include "util.h"
#include "vlog.h"

#define N_LANS 26
#define MAX_BRIDGES 16
#define MAX_LAN_CONNS 16
#define SIM_STEPS 180

struct sim_bpdu {
    int port_no;
    uint8_t *data;
    size_t size;
};

struct sim_lan;

struct sim_bridge {
    int index;
    struct stp *stp;
    struct sim_lan *ports[STP_MAX_PORTS];   /* NULL: not connected. */
    int n_ports;
    bool reached;               /* For "tree". */

    /* BPDUs received, not yet given to the engine (a FIFO). */
    struct sim_bpdu *rxq;
    size_t rxq_head, rxq_len, rxq_cap;
};

struct sim_conn {
    struct sim_bridge *bridge;
    int port_no;
};

struct sim_lan {
    char name[2];
    struct sim_conn conns[MAX_LAN_CONNS];
    int n_conns;
    bool reached;
};

struct sim {
    struct sim_bridge *bridges[MAX_BRIDGES];
    int n_bridges;
    struct sim_lan lans[N_LANS];
};

/* sim_lexer_number() with this driver's own message for a missing number,
 * the one it has always printed. */
static long long int
expect_int(struct sim_lexer *lx)
{
    if (!sim_lexer_is_number(lx)) {
        sim_lexer_error(lx, "expected integer");
    }
    return sim_lexer_number(lx);
}

/* An engine setter's refusal is the input's fault. */
static void
check_setting(const struct sim_lexer *lx, const char *error)
{
    if (error) {
        sim_lexer_error(lx, "%s", error);
    }
}

/* The simulated network. */

static void
deliver(const void *bpdu, size_t size, int port_no, void *from_)
{
    struct sim_bridge *from = from_;

    ovs_assert(port_no < from->n_ports);
    struct sim_lan *lan = from->ports[port_no];
    if (!lan) {
        return;
    }
    for (int i = 0; i < lan->n_conns; i++) {
        struct sim_conn *conn = &lan->conns[i];
        struct sim_bridge *to = conn->bridge;

        if (to == from && conn->port_no == port_no) {
            continue;           /* A port does not hear itself. */
        }
        if (to->rxq_len == to->rxq_cap) {
            /* Grow, unwrapping the ring into the new array. */
            size_t cap = to->rxq_cap ? 2 * to->rxq_cap : 16;
            struct sim_bpdu *q = xmalloc(cap * sizeof *q);
            for (size_t j = 0; j < to->rxq_len; j++) {
                q[j] = to->rxq[(to->rxq_head + j) % to->rxq_cap];
            }
            free(to->rxq);
            to->rxq = q;
            to->rxq_cap = cap;
            to->rxq_head = 0;
        }
        struct sim_bpdu *b = &to->rxq[(to->rxq_head + to->rxq_len++)
                                      % to->rxq_cap];
        b->port_no = conn->port_no;
        b->data = xmemdup(bpdu, size);
        b->size = size;
    }
}

/* Gives BRIDGE's queued BPDUs, including any that arrive meanwhile, to its
 * engine.  Returns whether there were any. */
static bool
drain_rxq(struct sim_bridge *b)
{
    bool any = false;

    while (b->rxq_len) {
        struct sim_bpdu bpdu = b->rxq[b->rxq_head];

        b->rxq_head = (b->rxq_head + 1) % b->rxq_cap;
        b->rxq_len--;
        stp_received_bpdu(stp_get_port(b->stp, bpdu.port_no),
                          bpdu.data, bpdu.size);
        free(bpdu.data);
        any = true;
    }
    return any;
}

static void
simulate(struct sim *sim, int step_ms)
{
    for (int step = 0; step < SIM_STEPS; step++) {
        for (int i = 0; i < sim->n_bridges; i++) {
            stp_tick(sim->bridges[i]->stp, step_ms);
        }
        for (int round = 0; round < step_ms; round++) {
            bool any = false;
            for (int i = 0; i < sim->n_bridges; i++) {
                any |= drain_rxq(sim->bridges[i]);
            }
            if (!any) {
                break;
            }
        }
    }
}

static void
connect_port(struct sim_lexer *lx, struct sim_bridge *b, int port_no,
             struct sim_lan *lan)
{
    struct sim_lan *old = b->ports[port_no];

    if (old == lan) {
        return;
    }
    if (old) {
        for (int i = 0; i < old->n_conns; i++) {
            struct sim_conn *c = &old->conns[i];
            if (c->bridge == b && c->port_no == port_no) {
                memmove(&old->conns[i], &old->conns[i + 1],
                        (old->n_conns - i - 1) * sizeof old->conns[i]);
                old->n_conns--;
                break;
            }
        }
    }
    b->ports[port_no] = lan;
    if (lan) {
        if (lan->n_conns >= MAX_LAN_CONNS) {
            sim_lexer_error(lx, "too many ports on LAN %s", lan->name);
        }
        lan->conns[lan->n_conns++] = (struct sim_conn) { b, port_no };
    }
}

static struct sim_bridge *
add_bridge(struct sim_lexer *lx, struct sim *sim, stp_identifier id)
{
    if (sim->n_bridges >= MAX_BRIDGES) {
        sim_lexer_error(lx, "at most %d bridges", MAX_BRIDGES);
    }

    struct sim_bridge *b = xzalloc(sizeof *b);
    char name[32];

    snprintf(name, sizeof name, "stp%"PRIx64, id);
    b->index = sim->n_bridges;
    b->stp = stp_create(name, id, deliver, b);
    sim->bridges[sim->n_bridges++] = b;
    return b;
}

/* Commands. */

/* "= PORT..." of a bridge line. */
static void
parse_ports(struct sim_lexer *lx, struct sim *sim, struct sim_bridge *b)
{
    for (int port_no = 0; port_no < STP_MAX_PORTS; port_no++) {
        struct stp_port *p = stp_get_port(b->stp, port_no);

        if (!lx->token || sim_lexer_match(lx, "X")) {
            stp_port_disable(p);
            continue;
        }
        if (sim_lexer_match(lx, "_")) {
            continue;
        }

        struct sim_lan *lan;
        if (!strcmp(lx->token, "0")) {
            lan = NULL;
        } else if (strlen(lx->token) == 1
                   && islower((unsigned char) *lx->token)) {
            lan = &sim->lans[*lx->token - 'a'];
        } else {
            sim_lexer_error(lx, "%s is not a valid LAN name "
                         "(0 or a lowercase letter)", lx->token);
        }
        sim_lexer_next(lx);

        int cost = sim_lexer_match(lx, ":") ? expect_int(lx) : 10;
        if (port_no > b->n_ports) {
            sim_lexer_error(lx, "ports must be numbered consecutively");
        }
        if (port_no == b->n_ports) {
            b->ports[b->n_ports++] = NULL;
        }
        check_setting(lx, stp_port_set_path_cost(p, cost));
        stp_port_enable(p);
        connect_port(lx, b, port_no, lan);
        if (sim_lexer_match(lx, "^")) {
            check_setting(lx, stp_port_set_priority(p, expect_int(lx)));
        }
    }
}

static void
cmd_bridge(struct sim_lexer *lx, struct sim *sim)
{
    long long int n = expect_int(lx);
    struct sim_bridge *b;

    if (n >= 0 && n < sim->n_bridges) {
        b = sim->bridges[n];
    } else if (n == sim->n_bridges) {
        b = add_bridge(lx, sim, expect_int(lx));
    } else {
        sim_lexer_error(lx, "bridges must be numbered consecutively from 0");
    }
    if (sim_lexer_match(lx, "^")) {
        check_setting(lx, stp_set_bridge_priority(b->stp, expect_int(lx)));
    }
    if (sim_lexer_match(lx, "=")) {
        parse_ports(lx, sim, b);
    }
}

static void
check_root(struct sim_lexer *lx, struct sim_bridge *b)
{
    struct stp *stp = b->stp;
    const char *name = stp_get_name(stp);

    if (stp_get_root_path_cost(stp)) {
        sim_lexer_report(lx, "%s: root path cost of root is %u but should be 0",
                     name, stp_get_root_path_cost(stp));
    }
    if (!stp_is_root_bridge(stp)) {
        sim_lexer_report(lx, "%s: root is %"PRIx64", not %"PRIx64, name,
                     stp_get_designated_root(stp), stp_get_bridge_id(stp));
    }
    for (int i = 0; i < b->n_ports; i++) {
        enum stp_state state = stp_port_get_state(stp_get_port(stp, i));
        if (state != STP_DISABLED && state != STP_FORWARDING) {
            sim_lexer_report(lx, "%s: root port %d in state %s", name, i,
                         stp_state_name(state));
        }
    }
}

static void
check_ports(struct sim_lexer *lx, struct sim_bridge *b)
{
    struct stp *stp = b->stp;
    const char *name = stp_get_name(stp);

    for (int i = 0; i < STP_MAX_PORTS; i++) {
        struct stp_port *p = stp_get_port(stp, i);
        enum stp_state want;

        if (!lx->token || sim_lexer_match(lx, "D")) {
            want = STP_DISABLED;
        } else if (sim_lexer_match(lx, "B")) {
            want = STP_BLOCKING;
        } else if (sim_lexer_match(lx, "Li")) {
            want = STP_LISTENING;
        } else if (sim_lexer_match(lx, "Le")) {
            want = STP_LEARNING;
        } else if (sim_lexer_match(lx, "F")) {
            want = STP_FORWARDING;
        } else if (sim_lexer_match(lx, "_")) {
            continue;
        } else {
            sim_lexer_error(lx, "unknown port state %s", lx->token);
        }

        enum stp_state state = stp_port_get_state(p);
        if (state != want) {
            sim_lexer_report(lx, "%s port %d: state is %s but should be %s",
                         name, i,
                         stp_state_name(state), stp_state_name(want));
        }
        if (want != STP_FORWARDING) {
            continue;
        }

        struct stp_port *root_port = stp_get_root_port(stp);
        if (sim_lexer_match(lx, ":")) {
            long long int cost = expect_int(lx);
            if (p != root_port) {
                sim_lexer_report(lx, "%s: port %d is not the root port", name, i);
                if (root_port) {
                    sim_lexer_report(lx, "%s: (port %d is the root port)", name,
                                 stp_port_no(root_port));
                } else {
                    sim_lexer_report(lx, "%s: (there is no root port)", name);
                }
            } else if (cost != stp_get_root_path_cost(stp)) {
                sim_lexer_report(lx, "%s: root path cost is %u, should be %lld",
                             name, stp_get_root_path_cost(stp), cost);
            }
        } else if (p == root_port) {
            sim_lexer_report(lx, "%s: port %d is the root port but not expected "
                         "to be", name, i);
        }
    }
}

static void
cmd_check(struct sim_lexer *lx, struct sim *sim)
{
    long long int n = expect_int(lx);
    if (n < 0 || n >= sim->n_bridges) {
        sim_lexer_error(lx, "no bridge numbered %lld", n);
    }

    struct sim_bridge *b = sim->bridges[n];
    struct stp *stp = b->stp;

    sim_lexer_expect(lx, "=");
    if (sim_lexer_match(lx, "rootid")) {
        sim_lexer_expect(lx, ":");
        stp_identifier want = expect_int(lx);
        want |= (uint64_t) (sim_lexer_match(lx, "^") ? expect_int(lx)
                            : STP_DEFAULT_BRIDGE_PRIORITY) << 48;
        if (stp_get_designated_root(stp) != want) {
            sim_lexer_report(lx, "%s: root %"PRIx64", not %"PRIx64,
                         stp_get_name(stp), stp_get_designated_root(stp),
                         want);
        }
    }
    if (sim_lexer_match(lx, "root")) {
        check_root(lx, b);
    } else {
        check_ports(lx, b);
    }
    if (lx->n_reports) {
        exit(EXIT_FAILURE);
    }
}

static void
cmd_dump(struct sim *sim)
{
    for (int i = 0; i < sim->n_bridges; i++) {
        struct sim_bridge *b = sim->bridges[i];
        struct stp *stp = b->stp;
        struct stp_port *root_port = stp_get_root_port(stp);

        printf("%s:%s\n", stp_get_name(stp),
               stp_is_root_bridge(stp) ? " root" : "");
        for (int j = 0; j < b->n_ports; j++) {
            struct stp_port *p = stp_get_port(stp, j);

            printf("\tport %d", j);
            if (b->ports[j]) {
                printf(" (lan %s)", b->ports[j]->name);
            } else {
                printf(" (disconnected)");
            }
            printf(": %s", stp_state_name(stp_port_get_state(p)));
            if (p == root_port) {
                printf(" (root port, root_path_cost=%u)",
                       stp_get_root_path_cost(stp));
            }
            printf("\n");
        }
    }
}

static void tree_from_lan(struct sim_lan *, int level);

static void
indent(int level)
{
    for (int i = 0; i < level; i++) {
        putchar('\t');
    }
}

static void
tree_from_bridge(struct sim_bridge *b, int level)
{
    if (b->reached) {
        return;
    }
    b->reached = true;
    indent(level);
    printf("%s\n", stp_get_name(b->stp));
    for (int i = 0; i < b->n_ports; i++) {
        if (b->ports[i] && stp_port_get_state(stp_get_port(b->stp, i))
                           == STP_FORWARDING) {
            tree_from_lan(b->ports[i], level + 1);
        }
    }
}

static void
tree_from_lan(struct sim_lan *lan, int level)
{
    if (lan->reached) {
        return;
    }
    lan->reached = true;
    indent(level);
    printf("%s\n", lan->name);
    for (int i = 0; i < lan->n_conns; i++) {
        tree_from_bridge(lan->conns[i].bridge, level + 1);
    }
}

static void
cmd_tree(struct sim *sim)
{
    for (int i = 0; i < sim->n_bridges; i++) {
        sim->bridges[i]->reached = false;
    }
    for (int i = 0; i < N_LANS; i++) {
        sim->lans[i].reached = false;
    }
    for (int i = 0; i < sim->n_bridges; i++) {
        if (stp_is_root_bridge(sim->bridges[i]->stp)) {
            tree_from_bridge(sim->bridges[i], 0);
        }
    }
}

static void
run_line(struct sim_lexer *lx, struct sim *sim)
{
    if (sim_lexer_match(lx, "bridge")) {
        cmd_bridge(lx, sim);
    } else if (sim_lexer_match(lx, "run")) {
        long long int ms = expect_int(lx);
        if (ms < 1 || ms > 60000) {
            sim_lexer_error(lx, "run step must be between 1 and 60000 ms");
        }
        simulate(sim, ms);
    } else if (sim_lexer_match(lx, "dump")) {
        cmd_dump(sim);
    } else if (sim_lexer_match(lx, "tree")) {
        cmd_tree(sim);
    } else if (sim_lexer_match(lx, "check")) {
        cmd_check(lx, sim);
    } else {
        sim_lexer_error(lx, "unknown command \"%s\"", lx->token);
    }
    if (lx->token) {
        sim_lexer_error(lx, "trailing garbage on line");
    }
}

static int
test_stp_main(int argc, char *argv[])
{
    vlog_set_pattern(VLF_CONSOLE, "%c|%p|%m");
    vlog_set_levels(NULL, VLF_SYSLOG, VLL_OFF);

    if (argc != 2) {
        ovs_fatal(0, "usage: test-stp INPUT.STP");
    }
    const char *file_name = argv[1];
    FILE *input = fopen(file_name, "r");
    if (!input) {
        ovs_fatal(errno, "error opening \"%s\"", file_name);
    }

    struct sim *sim = xzalloc(sizeof *sim);
    for (int i = 0; i < N_LANS; i++) {
        sim->lans[i].name[0] = 'a' + i;
    }

    /* Errors show the column: stp-sim.at's expectations say it. */
    struct sim_lexer lexer;
    char *line = NULL;
    size_t cap = 0;

    sim_lexer_init(&lexer, file_name, true);
    while (getline(&line, &cap, input) != -1) {
        line[strcspn(line, "#\n")] = '\0';
        sim_lexer_start_line(&lexer, line);
        if (lexer.token) {
            run_line(&lexer, sim);
        }
    }
    sim_lexer_destroy(&lexer);
    free(line);
    fclose(input);

    for (int i = 0; i < sim->n_bridges; i++) {
        struct sim_bridge *b = sim->bridges[i];
        while (b->rxq_len) {
            free(b->rxq[b->rxq_head].data);
            b->rxq_head = (b->rxq_head + 1) % b->rxq_cap;
            b->rxq_len--;
        }
        free(b->rxq);
        stp_destroy(b->stp);
        free(b);
    }
    free(sim);
    return 0;
}

OVSTEST_REGISTER("test-stp", test_stp_main);
