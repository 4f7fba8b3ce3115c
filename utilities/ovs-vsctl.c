/* ovs-vsctl: configures ovs-vswitchd through its database.
 *
 * See utilities/vsctl.h for how the program is split.  This file has
 * main(): the global options, the loop that waits for the database replica,
 * runs every command inside one transaction and commits it (again from the
 * start when the server says the replica was stale), prints the commands'
 * output, and without --no-wait waits until ovs-vswitchd reports (in
 * Open_vSwitch.cur_cfg) that it applied the transaction's next_cfg. */

#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command-line.h"
#include "dirs.h"
#include "fatal-signal.h"
#include "poll-loop.h"
#include "shash.h"
#include "sset.h"
#include "stream.h"
#include "stream-ssl.h"
#include "table.h"
#include "timeval.h"
#include "vlog.h"
#include "vsctl.h"
#include "vswitchd/vswitch-idl.h"

VLOG_DEFINE_THIS_MODULE(vsctl);

static char *db;
static bool dry_run;
static bool oneline;
static bool retry;
static int timeout;
/* Among the servers of a clustered database, use the leader only
 * (--leader-only, the default, or --no-leader-only), tried in random order
 * (--shuffle-remotes, the default, or --no-shuffle-remotes). */
static bool leader_only = true;
static bool shuffle_remotes = true;
bool vsctl_wait_for_reload = true;
static struct table_style table_style = { TF_LIST, CF_STRING, true, false,
                                          0 };

/* In the order in which Open vSwitch's ovs-vsctl registers its commands:
 * --commands lists them in the order of a hash table filled in this order,
 * and bash completion scripts may depend on it. */
static const struct vsctl_command_syntax *const command_tables[] = {
    vsctl_db_commands,
    vsctl_ovs_commands,
    vsctl_bridge_commands,
    vsctl_misc_commands,
    vsctl_dp_commands,
    vsctl_switch_commands,
};

const struct vsctl_command_syntax *
vsctl_find_command(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(command_tables); i++) {
        for (const struct vsctl_command_syntax *p = command_tables[i];
             p->name; p++) {
            if (!strcmp(p->name, name)) {
                return p;
            }
        }
    }
    return NULL;
}

void
vsctl_fatal(const char *format, ...)
{
    va_list args;

    va_start(args, format);
    char *message = xvasprintf(format, args);
    va_end(args);

    VLOG_DBG("%s", message);
    fprintf(stderr, "%s: %s\n", program_name, message);
    free(message);
    exit(EXIT_FAILURE);
}

void
vsctl_die_if_error(char *error)
{
    if (error) {
        vsctl_fatal("%s", error);
    }
}

static noreturn void
usage(void)
{
    printf("\
%s: ovs-vswitchd management utility\n\
usage: %s [OPTIONS] COMMAND [ARG...]\n\
\n\
Open vSwitch commands:\n\
  init                        initialize database, if not yet initialized\n\
  show                        print overview of database contents\n\
  emer-reset                  reset configuration to clean state\n\
\n\
Bridge commands:\n\
  add-br BRIDGE               create a new bridge named BRIDGE\n\
  add-br BRIDGE PARENT VLAN   create new fake BRIDGE in PARENT on VLAN\n\
  del-br BRIDGE               delete BRIDGE and all of its ports\n\
  list-br                     print the names of all the bridges\n\
  br-exists BRIDGE            exit 2 if BRIDGE does not exist\n\
  br-to-vlan BRIDGE           print the VLAN which BRIDGE is on\n\
  br-to-parent BRIDGE         print the parent of BRIDGE\n\
  br-set-external-id BRIDGE KEY VALUE  set KEY on BRIDGE to VALUE\n\
  br-set-external-id BRIDGE KEY  unset KEY on BRIDGE\n\
  br-get-external-id BRIDGE KEY  print value of KEY on BRIDGE\n\
  br-get-external-id BRIDGE  list key-value pairs on BRIDGE\n\
\n\
Port commands (a bond is considered to be a single port):\n\
  list-ports BRIDGE           print the names of all the ports on BRIDGE\n\
  add-port BRIDGE PORT        add network device PORT to BRIDGE\n\
  add-bond BRIDGE PORT IFACE...  add bonded port PORT in BRIDGE from IFACES\n\
  add-bond-iface BOND IFACE   add IFACE to BOND (a port becomes a bond)\n\
  del-bond-iface [BOND] IFACE  delete IFACE from its bond (or BOND)\n\
  del-port [BRIDGE] PORT      delete PORT (which may be bonded) from BRIDGE\n\
  port-to-br PORT             print name of bridge that contains PORT\n\
\n\
Interface commands (a bond consists of multiple interfaces):\n\
  list-ifaces BRIDGE          print the names of all interfaces on BRIDGE\n\
  iface-to-br IFACE           print name of bridge that contains IFACE\n\
\n\
Conntrack zone commands:\n\
  add-zone-tp DP zone=ZONE POLICY...  set timeout POLICY (KEY=SECS) for ZONE\n\
                              of datapath type DP\n\
  del-zone-tp DP zone=ZONE    delete the timeout policy of ZONE in DP\n\
  list-zone-tp DP             print the zones and timeout policies of DP\n\
\n\
Datapath capabilities command:\n\
  list-dp-cap DP              print the capabilities of datapath type DP\n\
\n\
Controller commands:\n\
  get-controller BRIDGE      print the controllers for BRIDGE\n\
  del-controller BRIDGE      delete the controllers for BRIDGE\n\
  [--inactivity-probe=MSECS]\n\
  set-controller BRIDGE TARGET...  set the controllers for BRIDGE\n\
  get-fail-mode BRIDGE       print the fail-mode for BRIDGE\n\
  del-fail-mode BRIDGE       delete the fail-mode for BRIDGE\n\
  set-fail-mode BRIDGE MODE  set the fail-mode for BRIDGE to MODE\n\
\n\
Manager commands:\n\
  get-manager                print the managers\n\
  del-manager                delete the managers\n\
  [--inactivity-probe=MSECS]\n\
  set-manager TARGET...      set the list of managers to TARGET...\n\
\n\
SSL commands:\n\
  get-ssl                     print the SSL configuration\n\
  del-ssl                     delete the SSL configuration\n\
  set-ssl PRIV-KEY CERT CA-CERT  set the SSL configuration\n\
\n\
Auto Attach commands:\n\
  add-aa-mapping BRIDGE I-SID VLAN   map I-SID to VLAN on BRIDGE\n\
  del-aa-mapping BRIDGE I-SID VLAN   remove that mapping from BRIDGE\n\
  get-aa-mapping BRIDGE              print the mappings of BRIDGE\n\
\n\
Database commands:\n\
  list TBL [REC]              list RECord (or all records) in TBL\n\
  find TBL CONDITION...       list records satisfying CONDITION in TBL\n\
  get TBL REC COL[:KEY]       print values of COLumns in RECord in TBL\n\
  set TBL REC COL[:KEY]=VALUE set COLumn values in RECord in TBL\n\
  add TBL REC COL [KEY=]VALUE add (KEY=)VALUE to COLumn in RECord in TBL\n\
  remove TBL REC COL [KEY=]VALUE  remove (KEY=)VALUE from COLumn\n\
  clear TBL REC COL           clear values from COLumn in RECord in TBL\n\
  create TBL COL[:KEY]=VALUE  create and initialize new record\n\
  destroy TBL REC             delete RECord from TBL\n\
  wait-until TBL REC [COL[:KEY]=VALUE]  wait until condition is true\n",
           program_name, program_name);
    vsctl_print_row_id_usage();
    printf("\n\
Options:\n\
  --db=DATABASE               connect to DATABASE\n\
                              (default: unix:%s/db.sock)\n\
  --no-wait                   do not wait for ovs-vswitchd to reconfigure\n\
  --retry                     keep trying to connect to server forever\n\
  -t, --timeout=SECS          wait at most SECS seconds for ovs-vswitchd\n\
  --dry-run                   do not commit changes to database\n\
  --oneline                   print exactly one line of output per command\n",
           ovs_rundir());
    table_usage();
    vlog_usage();
    printf("\n\
Active database connection methods:\n\
  tcp:HOST:PORT           PORT at remote HOST\n\
  ssl:HOST:PORT           SSL PORT at remote HOST\n\
  unix:FILE               Unix domain socket named FILE\n\
Passive database connection methods (wait for the server to connect):\n\
  ptcp:PORT[:IP]          listen on TCP PORT on IP\n\
  pssl:PORT[:IP]          listen for SSL on PORT on IP\n\
  punix:FILE              listen on Unix domain socket FILE\n\
PKI configuration (required to use SSL):\n\
  -p, --private-key=FILE  file with private key\n\
  -c, --certificate=FILE  file with certificate for private key\n\
  -C, --ca-cert=FILE      file with peer CA certificate\n\
  --bootstrap-ca-cert=FILE  file with peer CA certificate to read or create\n\
SSL options:\n\
  --ssl-protocols=PROTOS  list of SSL protocols to enable\n\
  --ssl-ciphers=CIPHERS   list of SSL ciphers to enable\n");
    printf("\nOther options:\n"
           "  -h, --help                  display this help message\n"
           "  -V, --version               display version information\n");
    exit(EXIT_SUCCESS);
}

/* Appends to OUT the arguments of a command's syntax line in the form
 * Open vSwitch's --commands prints for bash completion: each word prefixed
 * by "!" (required), "?" (optional, in brackets), "+" (repeated, "WORD...")
 * or "*" (optional and repeated, "[WORD]..."), with brackets inside a word
 * turned into a "?" before what they enclose. */
static void
put_completion_arguments(const char *arguments, struct ds *out)
{
    char *copy = xstrdup(arguments);
    char *save = NULL;

    for (char *word = strtok_r(copy, " ", &save); word;
         word = strtok_r(NULL, " ", &save)) {
        size_t len = strlen(word);
        bool repeated = len > 3 && !strcmp(word + len - 3, "...");
        bool optional = false;

        if (repeated) {
            len -= 3;
            word[len] = '\0';
        }
        if (word[0] == '[') {
            /* Optional if the bracket that opens the word closes it. */
            int depth = 0;
            size_t i;
            for (i = 0; i < len; i++) {
                depth += word[i] == '[' ? 1 : word[i] == ']' ? -1 : 0;
                if (!depth) {
                    break;
                }
            }
            if (i == len - 1) {
                optional = true;
                word[len - 1] = '\0';
                word++;
            }
        }

        if (out->length) {
            ds_put_char(out, ' ');
        }
        ds_put_char(out, (repeated ? (optional ? '*' : '+')
                          : (optional ? '?' : '!')));
        for (const char *p = word; *p; p++) {
            if (*p == '[') {
                ds_put_char(out, '?');
            } else if (*p != ']') {
                ds_put_char(out, *p);
            }
        }
    }
    free(copy);
}

/* --commands: one line per command, "[--option] ... ,NAME,ARGUMENTS", in
 * Open vSwitch's order (see command_tables). */
static noreturn void
print_commands(void)
{
    struct shash commands = SHASH_INITIALIZER(&commands);
    struct shash_node *node;

    for (size_t i = 0; i < ARRAY_SIZE(command_tables); i++) {
        for (const struct vsctl_command_syntax *p = command_tables[i];
             p->name; p++) {
            shash_add(&commands, p->name, p);
        }
    }
    SHASH_FOR_EACH (node, &commands) {
        const struct vsctl_command_syntax *p = node->data;
        struct ds options = DS_EMPTY_INITIALIZER;
        struct ds arguments = DS_EMPTY_INITIALIZER;
        char *list = xstrdup(p->options);
        char *save = NULL;

        for (char *option = strtok_r(list, ",", &save); option;
             option = strtok_r(NULL, ",", &save)) {
            ds_put_format(&options, "[%s] ", option);
        }
        free(list);
        put_completion_arguments(p->arguments, &arguments);
        printf("%s,%s,%s\n", ds_cstr(&options), p->name, ds_cstr(&arguments));
        ds_destroy(&options);
        ds_destroy(&arguments);
    }
    shash_destroy(&commands);
    exit(EXIT_SUCCESS);
}

/* --options: the global options, one per line, "--name[=ARG]", and the
 * short form "-c[ ARG]" after it if there is one. */
static noreturn void
print_options(const struct option *options)
{
    for (const struct option *o = options; o->name; o++) {
        const char *arg = o->has_arg != no_argument ? "ARG" : "";
        printf("--%s%s%s\n", o->name, *arg ? "=" : "", arg);
        if (o->val > 0 && o->val <= UCHAR_MAX && isalnum(o->val)) {
            printf("-%c%s%s\n", o->val, *arg ? " " : "", arg);
        }
    }
    exit(EXIT_SUCCESS);
}

/* Adds every per-command option of every command to OPTIONS, as an option
 * with value OPT_LOCAL, so that they may also be given before the first
 * command. */
static void
add_local_options(struct option **options, size_t *n, size_t *allocated,
                  int opt_local)
{
    struct sset seen = SSET_INITIALIZER(&seen);

    for (size_t i = 0; i < ARRAY_SIZE(command_tables); i++) {
        for (const struct vsctl_command_syntax *p = command_tables[i];
             p->name; p++) {
            char *list = xstrdup(p->options);
            char *save = NULL;
            for (char *name = strtok_r(list, ",", &save); name;
                 name = strtok_r(NULL, ",", &save)) {
                bool has_arg = string_ends_with(name, "=");
                char *bare;

                if (strncmp(name, "--", 2)) {
                    continue;
                }
                bare = xstrdup(name + 2);
                if (has_arg) {
                    bare[strlen(bare) - 1] = '\0';
                }
                if (sset_add(&seen, bare)) {
                    if (*n >= *allocated) {
                        *options = x2nrealloc(*options, allocated,
                                              sizeof **options);
                    }
                    (*options)[(*n)++] = (struct option) {
                        xstrdup(bare),
                        has_arg ? required_argument : no_argument,
                        NULL, opt_local
                    };
                }
                free(bare);
            }
            free(list);
        }
    }
    sset_destroy(&seen);
}

/* parse_options()'s getopt tables.  Here because an option such as
 * --commands or a bad -t exits from inside the loop that uses them: memory
 * still reachable from here is not a leak to a leak checker.  Volatile, or
 * the compiler would drop stores that nothing reads. */
static struct option *volatile long_options;
static char *volatile short_options;

static void
parse_options(int argc, char *argv[], struct shash *local_options)
{
    enum {
        OPT_DB = UCHAR_MAX + 1,
        OPT_ONELINE,
        OPT_NO_SYSLOG,
        OPT_NO_WAIT,
        OPT_DRY_RUN,
        OPT_BOOTSTRAP_CA_CERT,
        OPT_PEER_CA_CERT,
        OPT_LOCAL,
        OPT_COMMANDS,
        OPT_OPTIONS,
        OPT_RETRY,
        OPT_LEADER_ONLY,
        OPT_NO_LEADER_ONLY,
        OPT_SHUFFLE_REMOTES,
        OPT_NO_SHUFFLE_REMOTES,
        OPT_MAX_COLUMN_WIDTH,
        VLOG_OPTION_ENUMS,
        TABLE_OPTION_ENUMS,
        SSL_OPTION_ENUMS,
    };
    static const struct option global_long_options[] = {
        {"db", required_argument, NULL, OPT_DB},
        {"no-syslog", no_argument, NULL, OPT_NO_SYSLOG},
        {"no-wait", no_argument, NULL, OPT_NO_WAIT},
        {"dry-run", no_argument, NULL, OPT_DRY_RUN},
        {"oneline", no_argument, NULL, OPT_ONELINE},
        {"timeout", required_argument, NULL, 't'},
        {"retry", no_argument, NULL, OPT_RETRY},
        {"help", no_argument, NULL, 'h'},
        {"commands", no_argument, NULL, OPT_COMMANDS},
        {"options", no_argument, NULL, OPT_OPTIONS},
        {"leader-only", no_argument, NULL, OPT_LEADER_ONLY},
        {"no-leader-only", no_argument, NULL, OPT_NO_LEADER_ONLY},
        {"shuffle-remotes", no_argument, NULL, OPT_SHUFFLE_REMOTES},
        {"no-shuffle-remotes", no_argument, NULL, OPT_NO_SHUFFLE_REMOTES},
        {"version", no_argument, NULL, 'V'},
        /* VLOG_LONG_OPTIONS but --syslog-facility, which Open vSwitch's
         * ovs-vsctl does not take. */
        {"verbose", optional_argument, NULL, 'v'},
        {"log-file", optional_argument, NULL, OPT_LOG_FILE},
        {"syslog-method", required_argument, NULL, OPT_SYSLOG_IMPL},
        {"syslog-target", required_argument, NULL, OPT_SYSLOG_TARGET},
        TABLE_LONG_OPTIONS,
        {"max-column-width", required_argument, NULL, OPT_MAX_COLUMN_WIDTH},
        STREAM_SSL_LONG_OPTIONS,
        {"bootstrap-ca-cert", required_argument, NULL,
         OPT_BOOTSTRAP_CA_CERT},
        {"peer-ca-cert", required_argument, NULL, OPT_PEER_CA_CERT},
        {NULL, 0, NULL, 0},
    };
    size_t n_global = ARRAY_SIZE(global_long_options) - 1;
    size_t n = n_global, allocated = n_global + 1;
    struct option *options = xmemdup(global_long_options,
                                     allocated * sizeof *options);
    add_local_options(&options, &n, &allocated, OPT_LOCAL);
    if (n >= allocated) {
        options = x2nrealloc(options, &allocated, sizeof *options);
    }
    options[n] = (struct option) { NULL, 0, NULL, 0 };
    long_options = options;

    char *shorts = ovs_cmdl_long_options_to_short_options(options);
    /* Stop at the first non-option: that is the first command. */
    char *short_with_plus = xasprintf("+%s", shorts);
    free(shorts);
    short_options = short_with_plus;

    for (;;) {
        int idx = -1;
        int c = getopt_long(argc, argv, short_with_plus, options, &idx);
        if (c == -1) {
            break;
        }

        switch (c) {
        case OPT_DB:
            free(db);
            db = xstrdup(optarg);
            break;

        case OPT_ONELINE:
            oneline = true;
            break;

        case OPT_NO_SYSLOG:
            break;

        case OPT_NO_WAIT:
            vsctl_wait_for_reload = false;
            break;

        case OPT_DRY_RUN:
            dry_run = true;
            break;

        case OPT_LOCAL: {
            char *key = xasprintf("--%s", options[idx].name);
            if (shash_find(local_options, key)) {
                vsctl_fatal("'%s' option specified multiple times", key);
            }
            shash_add_nocopy(local_options, key,
                             optarg ? xstrdup(optarg) : NULL);
            break;
        }

        case 'h':
            usage();

        case OPT_COMMANDS:
            print_commands();

        case OPT_OPTIONS:
            print_options(global_long_options);

        case OPT_LEADER_ONLY:
            leader_only = true;
            break;

        case OPT_NO_LEADER_ONLY:
            leader_only = false;
            break;

        case OPT_SHUFFLE_REMOTES:
            shuffle_remotes = true;
            break;

        case OPT_NO_SHUFFLE_REMOTES:
            shuffle_remotes = false;
            break;

        case OPT_MAX_COLUMN_WIDTH:
            table_style.max_column_width = atoi(optarg);
            break;

        case 'V':
            ovs_print_version();
            printf("DB Schema %s\n", "8.3.1");
            exit(EXIT_SUCCESS);

        case 't':
            if (!str_to_int(optarg, 10, &timeout) || timeout < 0) {
                vsctl_fatal("value %s on -t or --timeout is invalid", optarg);
            }
            break;

        case OPT_RETRY:
            retry = true;
            break;

        case OPT_BOOTSTRAP_CA_CERT:
            stream_ssl_set_ca_cert_file(optarg, true);
            break;

        case OPT_PEER_CA_CERT:
            stream_ssl_set_peer_ca_cert_file(optarg);
            break;

        VLOG_OPTION_HANDLERS
        TABLE_OPTION_HANDLERS(&table_style)
        STREAM_SSL_OPTION_HANDLERS

        case '?':
            exit(EXIT_FAILURE);

        default:
            abort();
        }
    }
    free(short_with_plus);
    short_options = NULL;

    if (!db) {
        db = xasprintf("unix:%s/db.sock", ovs_rundir());
    }

    for (size_t i = n_global; i < n; i++) {
        free(CONST_CAST(char *, options[i].name));
    }
    free(options);
    long_options = NULL;
}

/* Prerequisites.  Tables whose rows some command needs: once every hook
 * ran, such a table without any replicated column gets one, so that the
 * server sends its rows (what an empty column list means to a server is
 * not worth depending on). */
static bool *needed_tables;

void
vsctl_need_table(struct vsctl_context *ctx,
                 const struct ovsdb_idl_table_class *tc)
{
    ovsdb_idl_add_table(ctx->idl, tc);
    needed_tables[tc - ovsrec_idl_class.tables] = true;
}

void
vsctl_need_column(struct vsctl_context *ctx,
                  const struct ovsdb_idl_column *column)
{
    vsctl_need_table(ctx, ovsdb_idl_table_class_from_column(&ovsrec_idl_class,
                                                            column));
    ovsdb_idl_add_column(ctx->idl, column);
}

void
vsctl_need(struct vsctl_context *ctx, const char *table, const char *column)
{
    vsctl_need_column(ctx, VS_COL(table, column));
}

void
vsctl_need_all_columns(struct vsctl_context *ctx,
                       const struct ovsdb_idl_table_class *tc)
{
    for (size_t i = 0; i < tc->n_columns; i++) {
        vsctl_need_column(ctx, &tc->columns[i]);
    }
}

static bool
table_has_replicated_column(const struct ovsdb_idl *idl,
                            const struct ovsdb_idl_table_class *tc)
{
    for (size_t i = 0; i < tc->n_columns; i++) {
        if (ovsdb_idl_get_mode(idl, &tc->columns[i]) & OVSDB_IDL_MONITOR) {
            return true;
        }
    }
    return false;
}

/* Chooses what IDL replicates: what every call needs, then what each
 * command's hook asks for. */
static void
add_prerequisites(struct vsctl_command *commands, size_t n_commands,
                  struct ovsdb_idl *idl)
{
    struct vsctl_context ctx;

    needed_tables = xcalloc(ovsrec_idl_class.n_tables,
                            sizeof *needed_tables);
    vsctl_context_init(&ctx, NULL, idl, NULL, NULL, NULL);
    /* The root row (created if missing), the reload wait, and the list of
     * bridges, which nearly every command starts from. */
    vsctl_need(&ctx, "Open_vSwitch", "bridges");
    vsctl_need(&ctx, "Open_vSwitch", "next_cfg");
    vsctl_need(&ctx, "Open_vSwitch", "cur_cfg");
    vsctl_context_done(&ctx);

    for (size_t i = 0; i < n_commands; i++) {
        struct vsctl_command *c = &commands[i];
        if (c->syntax->prerequisites) {
            vsctl_context_init(&ctx, c, idl, NULL, NULL, NULL);
            c->syntax->prerequisites(&ctx);
            vsctl_context_done(&ctx);
        }
    }

    for (size_t i = 0; i < ovsrec_idl_class.n_tables; i++) {
        const struct ovsdb_idl_table_class *tc = &ovsrec_idl_class.tables[i];
        if (needed_tables[i] && !table_has_replicated_column(idl, tc)) {
            const struct ovsdb_idl_column *column = &tc->columns[0];
            for (size_t j = 0; j < tc->n_columns; j++) {
                if (!strcmp(tc->columns[j].name, "name")) {
                    column = &tc->columns[j];
                }
            }
            ovsdb_idl_add_column(idl, column);
        }
    }
    free(needed_tables);
    needed_tables = NULL;
}

/* The transaction comment: the command line, with arguments that need it
 * quoted, so the database log says who did what. */
static char *
command_line_comment(int argc, char *argv[])
{
    struct ds s = DS_EMPTY_INITIALIZER;

    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (i) {
            ds_put_char(&s, ' ');
        }
        if (arg[strcspn(arg, " \t\n\\'\"$`!*?[]{}();&|<>")]) {
            ds_put_char(&s, '"');
            for (const char *p = arg; *p; p++) {
                if (strchr("\\\"$`", *p)) {
                    ds_put_char(&s, '\\');
                }
                ds_put_char(&s, *p);
            }
            ds_put_char(&s, '"');
        } else {
            ds_put_cstr(&s, arg);
        }
    }
    return ds_steal_cstr(&s);
}

static void
check_symbols(const struct ovsdb_symbol_table *symtab)
{
    struct shash_node *node;

    SHASH_FOR_EACH (node, &symtab->sh) {
        const struct ovsdb_symbol *symbol = node->data;
        if (!symbol->created) {
            vsctl_fatal("row id \"%s\" is referenced but never created "
                        "(e.g. with \"-- --id=%s create ...\")",
                        node->name, node->name);
        }
        if (!symbol->strong_ref) {
            if (!symbol->weak_ref) {
                VLOG_WARN("row id \"%s\" was created but no reference to it "
                          "was inserted, so it will not actually appear in "
                          "the database", node->name);
            } else {
                VLOG_WARN("row id \"%s\" was created but only a weak "
                          "reference to it was inserted, so it will not "
                          "actually appear in the database", node->name);
            }
        }
    }
}

static void
reset_outputs(struct vsctl_command *commands, size_t n_commands)
{
    for (size_t i = 0; i < n_commands; i++) {
        ds_clear(&commands[i].output);
        if (commands[i].table) {
            table_destroy(commands[i].table);
            free(commands[i].table);
            commands[i].table = NULL;
        }
    }
}

static void
print_outputs(struct vsctl_command *commands, size_t n_commands)
{
    for (size_t i = 0; i < n_commands; i++) {
        struct vsctl_command *c = &commands[i];
        struct ds *ds = &c->output;

        if (c->table) {
            table_print(c->table, &table_style);
        } else if (oneline) {
            ds_chomp(ds, '\n');
            for (size_t j = 0; j < ds->length; j++) {
                int ch = ds->string[j];
                if (ch == '\n') {
                    fputs("\\n", stdout);
                } else if (ch == '\\') {
                    fputs("\\\\", stdout);
                } else {
                    putchar(ch);
                }
            }
            putchar('\n');
        } else {
            fputs(ds_cstr(ds), stdout);
        }
    }
    fflush(stdout);
}

/* Interfaces that add-port and add-bond inserted in the current attempt
 * (local uuids until the commit, then the server's), to check once
 * ovs-vswitchd has applied the change. */
static struct uuid *expected_ifaces;
static size_t n_expected_ifaces, allocated_expected_ifaces;

void
vsctl_expect_iface_setup(const struct ovsdb_idl_row *iface)
{
    if (n_expected_ifaces >= allocated_expected_ifaces) {
        expected_ifaces = x2nrealloc(expected_ifaces,
                                     &allocated_expected_ifaces,
                                     sizeof *expected_ifaces);
    }
    expected_ifaces[n_expected_ifaces++] = *ovsdb_idl_row_get_uuid(iface);
}

/* Replaces the local uuids in expected_ifaces by the ones the server gave
 * the rows (before TXN is destroyed). */
static void
resolve_expected_ifaces(const struct ovsdb_idl_txn *txn)
{
    for (size_t i = 0; i < n_expected_ifaces; i++) {
        const struct uuid *uuid
            = ovsdb_idl_txn_get_insert_uuid(txn, &expected_ifaces[i]);
        if (uuid) {
            expected_ifaces[i] = *uuid;
        }
    }
}

/* After ovs-vswitchd applied the change: an interface it could not set up
 * has no OpenFlow port number (or -1).  Reported on stderr, not fatal:
 * the database change itself succeeded. */
static void
report_iface_setup_errors(struct ovsdb_idl *idl)
{
    const struct ovsdb_idl_table_class *iface_class = VS_TABLE("Interface");
    const struct ovsdb_idl_column *name_col = VS_COL("Interface", "name");
    const struct ovsdb_idl_column *ofport_col = VS_COL("Interface", "ofport");
    const struct ovsdb_idl_column *error_col = VS_COL("Interface", "error");
    bool any = false;

    for (size_t i = 0; i < n_expected_ifaces; i++) {
        const struct ovsdb_idl_row *row = ovsdb_idl_get_row_for_uuid(
            idl, iface_class, &expected_ifaces[i]);
        if (!row) {
            continue;
        }
        const struct ovsdb_datum *ofport = ovsdb_idl_read(row, ofport_col);
        if (ofport->n && ofport->keys[0].integer != -1) {
            continue;
        }
        const char *name = ovsdb_idl_read(row, name_col)->keys[0].string;
        const struct ovsdb_datum *error = ovsdb_idl_read(row, error_col);
        if (error->n && error->keys[0].string[0]) {
            ovs_error(0, "Error detected while setting up '%s': %s.  "
                      "See ovs-vswitchd log for details.", name,
                      error->keys[0].string);
        } else {
            ovs_error(0, "Error detected while setting up '%s'.  "
                      "See ovs-vswitchd log for details.", name);
        }
        any = true;
    }
    if (any) {
        ovs_error(0, "The default log directory is \"%s\".", ovs_logdir());
    }
}

static void
wait_loop_once(struct ovsdb_idl *idl)
{
    ovsdb_idl_wait(idl);
    fatal_signal_wait();
    poll_block();
    fatal_signal_run();
}

/* Runs every command in one transaction and commits it.  Returns false if
 * the whole thing must be tried again once the replica changed. */
static bool
do_vsctl(const char *comment, struct vsctl_command *commands,
         size_t n_commands, struct ovsdb_idl *idl)
{
    struct ovsdb_idl_txn *txn = ovsdb_idl_txn_create(idl);
    struct ovsdb_symbol_table *symtab = ovsdb_symbol_table_create();
    const struct ovsdb_idl_table_class *ovs_class = VS_TABLE("Open_vSwitch");
    enum ovsdb_idl_txn_status status;
    int64_t next_cfg = 0;

    if (dry_run) {
        ovsdb_idl_txn_set_dry_run(txn);
    }
    ovsdb_idl_txn_add_comment(txn, "ovs-vsctl: %s", comment);

    const struct ovsdb_idl_row *ovs = ovsdb_idl_first_row(idl, ovs_class);
    if (!ovs) {
        /* An empty database: create the root record, as "init" would. */
        ovs = ovsdb_idl_txn_insert(txn, ovs_class, NULL);
    }
    if (vsctl_wait_for_reload) {
        ovsdb_idl_txn_increment(txn, ovs, VS_COL("Open_vSwitch", "next_cfg"),
                                false);
    }

    struct vsctl_context ctx;
    vsctl_context_init(&ctx, NULL, idl, txn, symtab, ovs);
    for (size_t i = 0; i < n_commands; i++) {
        struct vsctl_command *c = &commands[i];

        ctx.command = c;
        ctx.last_command = i == n_commands - 1;
        ctx.argc = c->argc;
        ctx.argv = c->argv;
        ctx.options = &c->options;
        ctx.output = &c->output;
        ctx.table = &c->table;
        c->syntax->run(&ctx);
        if (ctx.try_again) {
            vsctl_context_done(&ctx);
            goto try_again;
        }
    }
    vsctl_context_done(&ctx);

    check_symbols(symtab);

    status = ovsdb_idl_txn_commit(txn);
    while (status == TXN_INCOMPLETE) {
        ovsdb_idl_run(idl);
        status = ovsdb_idl_txn_get_status(txn);
        if (status != TXN_INCOMPLETE) {
            break;
        }
        ovsdb_idl_txn_wait(txn);
        wait_loop_once(idl);
    }
    if (vsctl_wait_for_reload && status == TXN_SUCCESS) {
        next_cfg = ovsdb_idl_txn_get_increment_new_value(txn);
        resolve_expected_ifaces(txn);
    }

    if (status == TXN_SUCCESS || status == TXN_UNCHANGED) {
        for (size_t i = 0; i < n_commands; i++) {
            struct vsctl_command *c = &commands[i];
            if (c->syntax->postprocess) {
                vsctl_context_init(&ctx, c, idl, txn, symtab, NULL);
                c->syntax->postprocess(&ctx);
                vsctl_context_done(&ctx);
            }
        }
    }

    switch (status) {
    case TXN_UNCOMMITTED:
    case TXN_INCOMPLETE:
    default:
        OVS_NOT_REACHED();

    case TXN_ABORTED:
        vsctl_fatal("transaction aborted");

    case TXN_UNCHANGED:
    case TXN_SUCCESS:
        break;

    case TXN_TRY_AGAIN:
        goto try_again;

    case TXN_ERROR:
        vsctl_fatal("transaction error: %s", ovsdb_idl_txn_get_error(txn));

    case TXN_NOT_LOCKED:
        vsctl_fatal("database not locked");
    }

    ovsdb_symbol_table_destroy(symtab);
    print_outputs(commands, n_commands);
    ovsdb_idl_txn_destroy(txn);

    if (vsctl_wait_for_reload && status != TXN_UNCHANGED) {
        const struct ovsdb_idl_column *cur_cfg
            = VS_COL("Open_vSwitch", "cur_cfg");
        for (;;) {
            ovsdb_idl_run(idl);
            if (!ovsdb_idl_is_alive(idl)) {
                vsctl_fatal("%s: database connection failed (%s)", db,
                            ovs_retval_to_string(
                                ovsdb_idl_get_last_error(idl)));
            }
            for (const struct ovsdb_idl_row *row
                     = ovsdb_idl_first_row(idl, ovs_class);
                 row; row = ovsdb_idl_next_row(row)) {
                const struct ovsdb_datum *d = ovsdb_idl_read(row, cur_cfg);
                if (d->n && d->keys[0].integer >= next_cfg) {
                    report_iface_setup_errors(idl);
                    return true;
                }
            }
            wait_loop_once(idl);
        }
    }
    return true;

try_again:
    /* Nothing printed yet: forget this attempt's output. */
    reset_outputs(commands, n_commands);
    n_expected_ifaces = 0;
    ovsdb_idl_txn_abort(txn);
    ovsdb_idl_txn_destroy(txn);
    ovsdb_symbol_table_destroy(symtab);
    return false;
}

/* The parsed commands and the IDL.  Static, not local to main(), because
 * vsctl_fatal() exits from deep inside them: memory still reachable from
 * here is not a leak to a leak checker. */
static struct vsctl_command *commands;
static size_t n_commands;
static struct ovsdb_idl *idl;
static char *comment;

int
main(int argc, char *argv[])
{
    struct shash local_options;

    set_program_name(argv[0]);
    fatal_ignore_sigpipe();
    vlog_set_levels(NULL, VLF_CONSOLE, VLL_WARN);
    vlog_set_levels(vlog_module_from_name("reconnect"), VLF_ANY_DESTINATION,
                    VLL_WARN);

    shash_init(&local_options);
    parse_options(argc, argv, &local_options);
    commands = vsctl_parse_commands(argc - optind, argv + optind,
                                    &local_options, &n_commands);
    shash_destroy(&local_options);

    if (!timeout) {
        timeout = ovs_cmdl_env_timeout();
    }
    if (timeout) {
        fatal_signal_init();
        alarm(timeout);
    }

    comment = command_line_comment(argc, argv);
    idl = ovsdb_idl_create_unconnected(&ovsrec_idl_class, false);
    /* Every command reads rows through ovsdb_idl_read(). */
    ovsdb_idl_disable_typed_rows(idl);
    ovsdb_idl_set_shuffle_remotes(idl, shuffle_remotes);
    ovsdb_idl_set_remote(idl, db, retry);
    ovsdb_idl_set_leader_only(idl, leader_only);
    add_prerequisites(commands, n_commands, idl);
    unsigned int seqno = ovsdb_idl_get_seqno(idl);
    for (;;) {
        ovsdb_idl_run(idl);
        if (!ovsdb_idl_is_alive(idl)) {
            /* No error at all: every server answered but none was fit
             * (see --leader-only); Open vSwitch then says "()". */
            int retval = ovsdb_idl_get_last_error(idl);
            vsctl_fatal("%s: database connection failed (%s)",
                        db, retval ? ovs_strerror(retval) : "");
        }

        if (ovsdb_idl_has_ever_connected(idl)
            && seqno != ovsdb_idl_get_seqno(idl)) {
            seqno = ovsdb_idl_get_seqno(idl);
            if (do_vsctl(comment, commands, n_commands, idl)) {
                break;
            }
        }

        if (seqno == ovsdb_idl_get_seqno(idl)) {
            wait_loop_once(idl);
        }
    }

    reset_outputs(commands, n_commands);
    for (size_t i = 0; i < n_commands; i++) {
        vsctl_command_destroy(&commands[i]);
    }
    free(commands);
    free(comment);
    free(expected_ifaces);
    ovsdb_idl_destroy(idl);
    free(db);
    /* libevent frees a closed connection's buffers from the loop, so free
     * the loop too: leak checkers then see nothing left behind. */
    poll_loop_destroy_self();
    return EXIT_SUCCESS;
}
