/* test-rstp: "ovstest test-rstp FILE", the driver of Open vSwitch's
 * rstp.at.  It builds bridges (lib/rstp.h engines) joined by LANs as FILE
 * says, lets simulated time pass while BPDUs travel, and checks the
 * spanning tree the engines agree on.
 *
 * The input, one command a line ('#' starts a comment):
 *
 *   bridge N [ADDRESS] [^ PRIORITY] [= PORT...]
 *       Bridge N (numbered from 0 in order; a new one needs its ADDRESS)
 *       with the given priority, and its ports 1, 2, ... as listed: a LAN
 *       letter "a" to "z", or "0" for a link to nothing, each optionally
 *       followed by ":COST" and "^PORT-PRIORITY"; "X" takes the port down,
 *       "_" leaves it as it is, and ports not listed go down.
 *   run N       Let 180 seconds pass; after each second, BPDUs may cross
 *               the LANs up to N times (a round trip each).
 *   dump        Prints each bridge's ports and their states.
 *   tree        Prints the forwarding tree from the root bridge.
 *   check N = root
 *               Bridge N is the root, and each of its ports is forwarding
 *               (or down).
 *   check N = [rootid:ID[^PRIORITY]] STATE...
 *               Bridge N's ports 1, 2, ... are in these states: "D"
 *               (disabled), "Di" (discarding), "Le" (learning), "F"
 *               (forwarding; "F:COST" if it is the root port, with root
 *               path cost COST), or "_" (anything).
 *
 * A failed check prints what differs and ends with exit status 1.  The
 * script's tokens and errors ("FILE:LINE: message") come from
 * tests/sim-lexer.h, shared with test-stp. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ovstest.h"
#include "rstp.h"
#include "sim-lexer.h"
#include "util.h"
#include "vlog.h"

#define MAX_PORTS 9             /* Ports 1 to MAX_PORTS per bridge. */
#define N_LANS 26
#define DEFAULT_COST 200000     /* 802.1D-2004's figure for 100 Mb/s. */
#define SIMULATED_SECONDS 180

struct sim_bridge;

struct attachment {
    struct sim_bridge *bridge;
    int port_no;
};

struct sim_lan {
    char name;
    struct attachment *attached;
    size_t n_attached, allocated;
};

struct queued_bpdu {
    int port_no;
    size_t len;
    uint8_t data[64];
};

struct sim_bridge {
    struct simulation *sim;
    struct rstp *rstp;
    int n_ports;                          /* Ports 1..n_ports exist. */
    struct sim_lan *lan[MAX_PORTS + 1];   /* NULL: link to nothing. */
    bool enabled[MAX_PORTS + 1];
    struct queued_bpdu *rxq;              /* BPDUs waiting to arrive. */
    size_t n_rxq, allocated_rxq;
};

struct simulation {
    struct sim_bridge *bridges[16];
    int n_bridges;
    struct sim_lan lans[N_LANS];
    long long int now;                    /* Simulated ms. */
};

/* Reports an error from the engine's configuration, which the scripts
 * never expect. */
static void
check_config(const struct sim_lexer *lx, char *error)
{
    if (error) {
        sim_lexer_error(lx, "%s", error);
    }
}

/* The LANs. */

static void
lan_attach(struct sim_lan *lan, struct sim_bridge *b, int port_no)
{
    if (lan->n_attached == lan->allocated) {
        lan->allocated = lan->allocated ? 2 * lan->allocated : 4;
        lan->attached = xrealloc(lan->attached,
                                 lan->allocated * sizeof *lan->attached);
    }
    lan->attached[lan->n_attached++] = (struct attachment) { b, port_no };
}

static void
lan_detach(struct sim_lan *lan, struct sim_bridge *b, int port_no)
{
    for (size_t i = 0; i < lan->n_attached; i++) {
        if (lan->attached[i].bridge == b
            && lan->attached[i].port_no == port_no) {
            lan->attached[i] = lan->attached[--lan->n_attached];
            return;
        }
    }
}

/* The engine's send callback: the BPDU reaches every other port on the
 * LAN at the next delivery round. */
static void
send_bpdu(const void *bpdu, size_t len, int port_no, void *b_)
{
    struct sim_bridge *b = b_;
    struct sim_lan *lan = b->lan[port_no];

    if (!lan || !b->enabled[port_no] || len > sizeof b->rxq->data) {
        return;
    }
    for (size_t i = 0; i < lan->n_attached; i++) {
        struct attachment *a = &lan->attached[i];
        struct sim_bridge *dst = a->bridge;

        if (dst == b && a->port_no == port_no) {
            continue;
        }
        if (dst->n_rxq == dst->allocated_rxq) {
            dst->allocated_rxq = dst->allocated_rxq ? 2 * dst->allocated_rxq
                                                    : 16;
            dst->rxq = xrealloc(dst->rxq,
                                dst->allocated_rxq * sizeof *dst->rxq);
        }
        struct queued_bpdu *q = &dst->rxq[dst->n_rxq++];
        q->port_no = a->port_no;
        q->len = len;
        memcpy(q->data, bpdu, len);
    }
}

/* Bridges and ports. */

static struct sim_bridge *
bridge_create(struct sim_lexer *lx, struct simulation *sim,
              uint64_t address)
{
    struct sim_bridge *b = xzalloc(sizeof *b);
    char name[32];
    char *error;

    if (sim->n_bridges >= (int) ARRAY_SIZE(sim->bridges)) {
        sim_lexer_error(lx, "too many bridges");
    }
    snprintf(name, sizeof name, "rstp%"PRIx64, address);
    b->sim = sim;
    b->rstp = rstp_create(name, address, RSTP_DEFAULT_PRIORITY, send_bpdu,
                          b, &error);
    check_config(lx, error);
    rstp_run(b->rstp, sim->now);
    sim->bridges[sim->n_bridges++] = b;
    return b;
}

static void
port_disable(const struct sim_lexer *lx, struct sim_bridge *b,
             int port_no)
{
    if (port_no > b->n_ports || !b->enabled[port_no]) {
        return;
    }
    check_config(lx, rstp_port_set_enabled(b->rstp, port_no, false));
    if (b->lan[port_no]) {
        lan_detach(b->lan[port_no], b, port_no);
        b->lan[port_no] = NULL;
    }
    b->enabled[port_no] = false;
}

/* Connects port PORT_NO (creating it, if it is the next one) to LAN (NULL:
 * nothing).  Moving a port to another LAN is unplugging and plugging a
 * cable: the link goes down and up. */
static void
port_connect(const struct sim_lexer *lx, struct sim_bridge *b,
             int port_no, struct sim_lan *lan, uint32_t cost)
{
    if (port_no == b->n_ports + 1) {
        check_config(lx, rstp_add_port(b->rstp, port_no));
        b->n_ports = port_no;
    } else if (port_no > b->n_ports) {
        sim_lexer_error(lx, "ports must be numbered consecutively");
    }
    if (b->enabled[port_no] && b->lan[port_no] != lan) {
        port_disable(lx, b, port_no);
    }
    check_config(lx, rstp_port_set_path_cost(b->rstp, port_no, cost));
    if (!b->enabled[port_no]) {
        b->lan[port_no] = lan;
        b->enabled[port_no] = true;
        if (lan) {
            lan_attach(lan, b, port_no);
        }
        check_config(lx, rstp_port_set_enabled(b->rstp, port_no, true));
    }
}

static void
parse_bridge(struct simulation *sim, struct sim_lexer *lx)
{
    int bridge_no = sim_lexer_number(lx);
    struct sim_bridge *b;

    if (bridge_no < sim->n_bridges) {
        b = sim->bridges[bridge_no];
    } else if (bridge_no == sim->n_bridges) {
        b = bridge_create(lx, sim, sim_lexer_number(lx));
    } else {
        sim_lexer_error(lx, "bridges must be numbered consecutively from 0");
    }
    if (sim_lexer_match(lx, "^")) {
        check_config(lx, rstp_set_bridge_priority(b->rstp,
                                                  sim_lexer_number(lx)));
    }
    if (!sim_lexer_match(lx, "=")) {
        return;
    }
    for (int port_no = 1; port_no <= MAX_PORTS; port_no++) {
        if (!lx->token || sim_lexer_match(lx, "X")) {
            port_disable(lx, b, port_no);
        } else if (sim_lexer_match(lx, "_")) {
            /* Unchanged. */
        } else {
            struct sim_lan *lan;

            if (!strcmp(lx->token, "0")) {
                lan = NULL;
            } else if (strlen(lx->token) == 1
                       && islower((unsigned char) lx->token[0])) {
                lan = &sim->lans[lx->token[0] - 'a'];
            } else {
                sim_lexer_error(lx,
                                "%s is not a LAN (0 or a lowercase letter)",
                            lx->token);
            }
            sim_lexer_next(lx);
            uint32_t cost = sim_lexer_match(lx, ":") ? sim_lexer_number(lx)
                                               : DEFAULT_COST;
            port_connect(lx, b, port_no, lan, cost);
            if (sim_lexer_match(lx, "^")) {
                check_config(lx, rstp_port_set_priority(b->rstp, port_no,
                                                    sim_lexer_number(lx)));
            }
        }
    }
}

/* Time. */

static void
simulate(struct simulation *sim, int max_rounds)
{
    for (int second = 0; second < SIMULATED_SECONDS; second++) {
        sim->now += 1000;
        for (int i = 0; i < sim->n_bridges; i++) {
            rstp_run(sim->bridges[i]->rstp, sim->now);
        }
        for (int round = 0; round < max_rounds; round++) {
            bool any = false;

            for (int i = 0; i < sim->n_bridges; i++) {
                struct sim_bridge *b = sim->bridges[i];
                /* Take this bridge's queue: what it sends in answer goes
                 * to the others' queues, or to a fresh one of its own. */
                struct queued_bpdu *rxq = b->rxq;
                size_t n = b->n_rxq;

                b->rxq = NULL;
                b->n_rxq = b->allocated_rxq = 0;
                for (size_t j = 0; j < n; j++) {
                    rstp_receive_bpdu(b->rstp, rxq[j].port_no, rxq[j].data,
                                      rxq[j].len);
                    any = true;
                }
                free(rxq);
            }
            if (!any) {
                break;
            }
        }
    }
}

/* Output. */

static void
dump(const struct simulation *sim)
{
    for (int i = 0; i < sim->n_bridges; i++) {
        const struct sim_bridge *b = sim->bridges[i];
        const struct rstp *rstp = b->rstp;

        printf("%s:%s\n", rstp_get_name(rstp),
               rstp_is_root_bridge(rstp) ? " root" : "");
        for (int port_no = 1; port_no <= b->n_ports; port_no++) {
            printf("\tport %d", port_no);
            if (!b->enabled[port_no]) {
                printf(" (down)");
            } else if (b->lan[port_no]) {
                printf(" (lan %c)", b->lan[port_no]->name);
            } else {
                printf(" (disconnected)");
            }
            printf(": %s %s",
                   rstp_port_role_name(rstp_port_get_role(rstp, port_no)),
                   rstp_state_name(rstp_port_get_state(rstp, port_no)));
            if (port_no == rstp_get_root_port(rstp)) {
                printf(" (root port, root_path_cost=%"PRIu32")",
                       rstp_get_root_path_cost(rstp));
            }
            printf("\n");
        }
    }
}

static void print_lan_tree(const struct simulation *, const struct sim_lan *,
                           int level, bool *bridge_seen, bool *lan_seen);

static void
print_bridge_tree(const struct simulation *sim, int bridge_no, int level,
                  bool *bridge_seen, bool *lan_seen)
{
    const struct sim_bridge *b = sim->bridges[bridge_no];

    if (bridge_seen[bridge_no]) {
        return;
    }
    bridge_seen[bridge_no] = true;
    printf("%*s%s\n", level * 4, "", rstp_get_name(b->rstp));
    for (int port_no = 1; port_no <= b->n_ports; port_no++) {
        if (b->lan[port_no]
            && rstp_port_get_state(b->rstp, port_no) == RSTP_FORWARDING) {
            print_lan_tree(sim, b->lan[port_no], level + 1, bridge_seen,
                           lan_seen);
        }
    }
}

static void
print_lan_tree(const struct simulation *sim, const struct sim_lan *lan,
               int level, bool *bridge_seen, bool *lan_seen)
{
    if (lan_seen[lan->name - 'a']) {
        return;
    }
    lan_seen[lan->name - 'a'] = true;
    printf("%*s%c\n", level * 4, "", lan->name);
    for (size_t i = 0; i < lan->n_attached; i++) {
        for (int j = 0; j < sim->n_bridges; j++) {
            if (sim->bridges[j] == lan->attached[i].bridge) {
                print_bridge_tree(sim, j, level + 1, bridge_seen, lan_seen);
            }
        }
    }
}

static void
print_tree(const struct simulation *sim)
{
    bool bridge_seen[ARRAY_SIZE(sim->bridges)] = { false };
    bool lan_seen[N_LANS] = { false };

    for (int i = 0; i < sim->n_bridges; i++) {
        if (rstp_is_root_bridge(sim->bridges[i]->rstp)) {
            print_bridge_tree(sim, i, 0, bridge_seen, lan_seen);
        }
    }
}

/* Checks. */

static void
parse_check(struct simulation *sim, struct sim_lexer *lx)
{
    int bridge_no = sim_lexer_number(lx);

    if (bridge_no >= sim->n_bridges) {
        sim_lexer_error(lx, "no bridge %d", bridge_no);
    }
    const struct sim_bridge *b = sim->bridges[bridge_no];
    const struct rstp *rstp = b->rstp;
    const char *name = rstp_get_name(rstp);
    uint32_t cost = rstp_get_root_path_cost(rstp);
    int root_port = rstp_get_root_port(rstp);

    if (!sim_lexer_match(lx, "=")) {
        sim_lexer_error(lx, "expected \"=\"");
    }
    if (sim_lexer_match(lx, "rootid")) {
        if (!sim_lexer_match(lx, ":")) {
            sim_lexer_error(lx, "expected \":\"");
        }
        uint64_t want = sim_lexer_number(lx);
        want |= (uint64_t) (sim_lexer_match(lx, "^") ? sim_lexer_number(lx)
                            : RSTP_DEFAULT_PRIORITY) << 48;
        if (rstp_get_designated_root(rstp) != want) {
            sim_lexer_report(lx, "%s: root is %016"PRIx64", not %016"PRIx64, name,
                         rstp_get_designated_root(rstp), want);
        }
    }
    if (sim_lexer_match(lx, "root")) {
        if (!rstp_is_root_bridge(rstp)) {
            sim_lexer_report(lx, "%s: root is %016"PRIx64", not this bridge "
                         "(%016"PRIx64")", name,
                         rstp_get_designated_root(rstp),
                         rstp_get_bridge_id(rstp));
        }
        if (cost) {
            sim_lexer_report(lx, "%s: root bridge has root path cost %"PRIu32,
                         name, cost);
        }
        for (int port_no = 1; port_no <= b->n_ports; port_no++) {
            enum rstp_state state = rstp_port_get_state(rstp, port_no);
            if (state != RSTP_DISABLED && state != RSTP_FORWARDING) {
                sim_lexer_report(lx, "%s: port %d of the root is %s", name,
                             port_no, rstp_state_name(state));
            }
        }
        return;
    }
    for (int port_no = 1; port_no <= b->n_ports; port_no++) {
        enum rstp_state want;

        if (!lx->token || sim_lexer_match(lx, "D")) {
            want = RSTP_DISABLED;
        } else if (sim_lexer_match(lx, "Di")) {
            want = RSTP_DISCARDING;
        } else if (sim_lexer_match(lx, "Le")) {
            want = RSTP_LEARNING;
        } else if (sim_lexer_match(lx, "F")) {
            want = RSTP_FORWARDING;
        } else if (sim_lexer_match(lx, "_")) {
            continue;
        } else {
            sim_lexer_error(lx, "unknown port state %s", lx->token);
        }

        enum rstp_state state = rstp_port_get_state(rstp, port_no);
        if (state != want) {
            sim_lexer_report(lx, "%s: port %d is %s, not %s", name, port_no,
                         rstp_state_name(state), rstp_state_name(want));
        }
        if (want != RSTP_FORWARDING) {
            continue;
        }
        if (sim_lexer_match(lx, ":")) {
            long long int want_cost = sim_lexer_number(lx);
            if (port_no != root_port) {
                sim_lexer_report(lx, "%s: port %d is not the root port (%s%d is)",
                             name, port_no, root_port ? "port " : "",
                             root_port);
            } else if (cost != want_cost) {
                sim_lexer_report(lx, "%s: root path cost is %"PRIu32", not %lld",
                             name, cost, want_cost);
            }
        } else if (port_no == root_port) {
            sim_lexer_report(lx, "%s: port %d is the root port, unexpectedly",
                         name, port_no);
        }
    }
}

static void
simulation_destroy(struct simulation *sim)
{
    for (int i = 0; i < sim->n_bridges; i++) {
        struct sim_bridge *b = sim->bridges[i];
        rstp_destroy(b->rstp);
        free(b->rxq);
        free(b);
    }
    for (int i = 0; i < N_LANS; i++) {
        free(sim->lans[i].attached);
    }
    free(sim);
}

static int
test_rstp_main(int argc, char *argv[])
{
    char line[256];

    vlog_set_pattern(VLF_CONSOLE, "%c|%p|%m");
    vlog_set_levels(NULL, VLF_SYSLOG, VLL_OFF);
    if (argc != 2) {
        fprintf(stderr, "usage: ovstest test-rstp INPUT\n");
        return EXIT_FAILURE;
    }
    const char *file_name = argv[1];
    FILE *input = fopen(file_name, "r");
    if (!input) {
        fprintf(stderr, "%s: %s\n", file_name, strerror(errno));
        return EXIT_FAILURE;
    }

    struct simulation *sim = xzalloc(sizeof *sim);
    for (int i = 0; i < N_LANS; i++) {
        sim->lans[i].name = 'a' + i;
    }

    /* Errors say FILE:LINE only, as this driver always has. */
    struct sim_lexer lexer;
    struct sim_lexer *lx = &lexer;
    int status = EXIT_SUCCESS;

    sim_lexer_init(lx, file_name, false);
    while (fgets(line, sizeof line, input)) {
        char *hash = strchr(line, '#');

        if (hash) {
            *hash = '\0';
        }
        sim_lexer_start_line(lx, line);
        if (!lx->token) {
            continue;
        } else if (sim_lexer_match(lx, "bridge")) {
            parse_bridge(sim, lx);
        } else if (sim_lexer_match(lx, "run")) {
            simulate(sim, sim_lexer_number(lx));
        } else if (sim_lexer_match(lx, "dump")) {
            dump(sim);
        } else if (sim_lexer_match(lx, "tree")) {
            print_tree(sim);
        } else if (sim_lexer_match(lx, "check")) {
            parse_check(sim, lx);
            if (lx->n_reports) {
                printf("failing because of %d failed checks\n",
                       lx->n_reports);
                status = EXIT_FAILURE;
                break;
            }
        } else {
            sim_lexer_error(lx, "unknown command \"%s\"", lx->token);
        }
        if (lx->token) {
            sim_lexer_error(lx, "unexpected \"%s\" at the end of the line",
                            lx->token);
        }
    }
    sim_lexer_destroy(lx);
    fclose(input);
    simulation_destroy(sim);
    return status;
}

OVSTEST_REGISTER("test-rstp", test_rstp_main);
