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
 * A failed check prints what differs and ends with exit status 1. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ovstest.h"
#include "rstp.h"
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

/* Input position, for messages. */
static const char *file_name;
static int line_number;

/* The tokenizer: a run of letters, a number (decimal or 0x hex), or any
 * other single character. */
struct lexer {
    const char *pos;
    char token[64];
    bool have_token;
};

static _Noreturn void parse_error(const char *format, ...)
    OVS_PRINTF_FORMAT(1, 2);

static _Noreturn void
parse_error(const char *format, ...)
{
    va_list args;

    fprintf(stderr, "%s:%d: ", file_name, line_number);
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    putc('\n', stderr);
    exit(EXIT_FAILURE);
}

static void
lex_next(struct lexer *lx)
{
    const char *p = lx->pos;
    const char *start;

    while (isspace((unsigned char) *p)) {
        p++;
    }
    lx->have_token = *p != '\0';
    if (!lx->have_token) {
        lx->token[0] = '\0';
        lx->pos = p;
        return;
    }
    start = p;
    if (isalpha((unsigned char) *p)) {
        while (isalpha((unsigned char) *p)) {
            p++;
        }
    } else if (isdigit((unsigned char) *p)) {
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
            p += 2;
            while (isxdigit((unsigned char) *p)) {
                p++;
            }
        } else {
            while (isdigit((unsigned char) *p)) {
                p++;
            }
        }
    } else {
        p++;
    }
    if ((size_t) (p - start) >= sizeof lx->token) {
        parse_error("token too long");
    }
    memcpy(lx->token, start, p - start);
    lx->token[p - start] = '\0';
    lx->pos = p;
}

static bool
lex_match(struct lexer *lx, const char *want)
{
    if (lx->have_token && !strcmp(lx->token, want)) {
        lex_next(lx);
        return true;
    }
    return false;
}

static bool
lex_is_number(const struct lexer *lx)
{
    return lx->have_token && isdigit((unsigned char) lx->token[0]);
}

static long long int
lex_number(struct lexer *lx)
{
    if (!lex_is_number(lx)) {
        parse_error("expected a number, not \"%s\"", lx->token);
    }
    errno = 0;
    long long int n = strtoll(lx->token, NULL, 0);
    if (errno) {
        parse_error("number \"%s\" out of range", lx->token);
    }
    lex_next(lx);
    return n;
}

/* Reports an error from the engine's configuration, which the scripts
 * never expect. */
static void
check_config(char *error)
{
    if (error) {
        parse_error("%s", error);
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
bridge_create(struct simulation *sim, uint64_t address)
{
    struct sim_bridge *b = xzalloc(sizeof *b);
    char name[32];
    char *error;

    if (sim->n_bridges >= (int) ARRAY_SIZE(sim->bridges)) {
        parse_error("too many bridges");
    }
    snprintf(name, sizeof name, "rstp%"PRIx64, address);
    b->sim = sim;
    b->rstp = rstp_create(name, address, RSTP_DEFAULT_PRIORITY, send_bpdu,
                          b, &error);
    check_config(error);
    rstp_run(b->rstp, sim->now);
    sim->bridges[sim->n_bridges++] = b;
    return b;
}

static void
port_disable(struct sim_bridge *b, int port_no)
{
    if (port_no > b->n_ports || !b->enabled[port_no]) {
        return;
    }
    check_config(rstp_port_set_enabled(b->rstp, port_no, false));
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
port_connect(struct sim_bridge *b, int port_no, struct sim_lan *lan,
             uint32_t cost)
{
    if (port_no == b->n_ports + 1) {
        check_config(rstp_add_port(b->rstp, port_no));
        b->n_ports = port_no;
    } else if (port_no > b->n_ports) {
        parse_error("ports must be numbered consecutively");
    }
    if (b->enabled[port_no] && b->lan[port_no] != lan) {
        port_disable(b, port_no);
    }
    check_config(rstp_port_set_path_cost(b->rstp, port_no, cost));
    if (!b->enabled[port_no]) {
        b->lan[port_no] = lan;
        b->enabled[port_no] = true;
        if (lan) {
            lan_attach(lan, b, port_no);
        }
        check_config(rstp_port_set_enabled(b->rstp, port_no, true));
    }
}

static void
parse_bridge(struct simulation *sim, struct lexer *lx)
{
    int bridge_no = lex_number(lx);
    struct sim_bridge *b;

    if (bridge_no < sim->n_bridges) {
        b = sim->bridges[bridge_no];
    } else if (bridge_no == sim->n_bridges) {
        b = bridge_create(sim, lex_number(lx));
    } else {
        parse_error("bridges must be numbered consecutively from 0");
    }
    if (lex_match(lx, "^")) {
        check_config(rstp_set_bridge_priority(b->rstp, lex_number(lx)));
    }
    if (!lex_match(lx, "=")) {
        return;
    }
    for (int port_no = 1; port_no <= MAX_PORTS; port_no++) {
        if (!lx->have_token || lex_match(lx, "X")) {
            port_disable(b, port_no);
        } else if (lex_match(lx, "_")) {
            /* Unchanged. */
        } else {
            struct sim_lan *lan;

            if (!strcmp(lx->token, "0")) {
                lan = NULL;
            } else if (strlen(lx->token) == 1
                       && islower((unsigned char) lx->token[0])) {
                lan = &sim->lans[lx->token[0] - 'a'];
            } else {
                parse_error("%s is not a LAN (0 or a lowercase letter)",
                            lx->token);
            }
            lex_next(lx);
            uint32_t cost = lex_match(lx, ":") ? lex_number(lx)
                                               : DEFAULT_COST;
            port_connect(b, port_no, lan, cost);
            if (lex_match(lx, "^")) {
                check_config(rstp_port_set_priority(b->rstp, port_no,
                                                    lex_number(lx)));
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

static int n_failures;

static void check_failed(const char *format, ...) OVS_PRINTF_FORMAT(1, 2);

static void
check_failed(const char *format, ...)
{
    va_list args;

    fprintf(stderr, "%s:%d: ", file_name, line_number);
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    putc('\n', stderr);
    n_failures++;
}

static void
parse_check(struct simulation *sim, struct lexer *lx)
{
    int bridge_no = lex_number(lx);

    if (bridge_no >= sim->n_bridges) {
        parse_error("no bridge %d", bridge_no);
    }
    const struct sim_bridge *b = sim->bridges[bridge_no];
    const struct rstp *rstp = b->rstp;
    const char *name = rstp_get_name(rstp);
    uint32_t cost = rstp_get_root_path_cost(rstp);
    int root_port = rstp_get_root_port(rstp);

    if (!lex_match(lx, "=")) {
        parse_error("expected \"=\"");
    }
    if (lex_match(lx, "rootid")) {
        if (!lex_match(lx, ":")) {
            parse_error("expected \":\"");
        }
        uint64_t want = lex_number(lx);
        want |= (uint64_t) (lex_match(lx, "^") ? lex_number(lx)
                            : RSTP_DEFAULT_PRIORITY) << 48;
        if (rstp_get_designated_root(rstp) != want) {
            check_failed("%s: root is %016"PRIx64", not %016"PRIx64, name,
                         rstp_get_designated_root(rstp), want);
        }
    }
    if (lex_match(lx, "root")) {
        if (!rstp_is_root_bridge(rstp)) {
            check_failed("%s: root is %016"PRIx64", not this bridge "
                         "(%016"PRIx64")", name,
                         rstp_get_designated_root(rstp),
                         rstp_get_bridge_id(rstp));
        }
        if (cost) {
            check_failed("%s: root bridge has root path cost %"PRIu32,
                         name, cost);
        }
        for (int port_no = 1; port_no <= b->n_ports; port_no++) {
            enum rstp_state state = rstp_port_get_state(rstp, port_no);
            if (state != RSTP_DISABLED && state != RSTP_FORWARDING) {
                check_failed("%s: port %d of the root is %s", name, port_no,
                             rstp_state_name(state));
            }
        }
        return;
    }
    for (int port_no = 1; port_no <= b->n_ports; port_no++) {
        enum rstp_state want;

        if (!lx->have_token || lex_match(lx, "D")) {
            want = RSTP_DISABLED;
        } else if (lex_match(lx, "Di")) {
            want = RSTP_DISCARDING;
        } else if (lex_match(lx, "Le")) {
            want = RSTP_LEARNING;
        } else if (lex_match(lx, "F")) {
            want = RSTP_FORWARDING;
        } else if (lex_match(lx, "_")) {
            continue;
        } else {
            parse_error("unknown port state %s", lx->token);
        }

        enum rstp_state state = rstp_port_get_state(rstp, port_no);
        if (state != want) {
            check_failed("%s: port %d is %s, not %s", name, port_no,
                         rstp_state_name(state), rstp_state_name(want));
        }
        if (want != RSTP_FORWARDING) {
            continue;
        }
        if (lex_match(lx, ":")) {
            long long int want_cost = lex_number(lx);
            if (port_no != root_port) {
                check_failed("%s: port %d is not the root port (%s%d is)",
                             name, port_no, root_port ? "port " : "",
                             root_port);
            } else if (cost != want_cost) {
                check_failed("%s: root path cost is %"PRIu32", not %lld",
                             name, cost, want_cost);
            }
        } else if (port_no == root_port) {
            check_failed("%s: port %d is the root port, unexpectedly", name,
                         port_no);
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
    file_name = argv[1];
    FILE *input = fopen(file_name, "r");
    if (!input) {
        fprintf(stderr, "%s: %s\n", file_name, strerror(errno));
        return EXIT_FAILURE;
    }

    struct simulation *sim = xzalloc(sizeof *sim);
    for (int i = 0; i < N_LANS; i++) {
        sim->lans[i].name = 'a' + i;
    }

    for (line_number = 1; fgets(line, sizeof line, input); line_number++) {
        struct lexer lx = { .pos = line };
        char *hash = strchr(line, '#');

        if (hash) {
            *hash = '\0';
        }
        lex_next(&lx);
        if (!lx.have_token) {
            continue;
        } else if (lex_match(&lx, "bridge")) {
            parse_bridge(sim, &lx);
        } else if (lex_match(&lx, "run")) {
            simulate(sim, lex_number(&lx));
        } else if (lex_match(&lx, "dump")) {
            dump(sim);
        } else if (lex_match(&lx, "tree")) {
            print_tree(sim);
        } else if (lex_match(&lx, "check")) {
            parse_check(sim, &lx);
            if (n_failures) {
                printf("failing because of %d failed checks\n", n_failures);
                fclose(input);
                simulation_destroy(sim);
                return EXIT_FAILURE;
            }
        } else {
            parse_error("unknown command \"%s\"", lx.token);
        }
        if (lx.have_token) {
            parse_error("unexpected \"%s\" at the end of the line", lx.token);
        }
    }
    fclose(input);
    simulation_destroy(sim);
    return EXIT_SUCCESS;
}

OVSTEST_REGISTER("test-rstp", test_rstp_main);
