/* ovsdb-client: talks to an OVSDB server from the command line.
 *
 * Every command connects to one server (an active or passive stream name,
 * by default the unix socket in the run directory), sends RFC 7047 requests
 * (list_dbs, get_schema, transact, monitor, monitor_cond, lock, ...) and
 * prints what comes back.  Commands, arguments, defaults, output formats,
 * error messages and exit statuses follow Open vSwitch 3.1's ovsdb-client,
 * so that scripts written for it work unchanged: output that Open vSwitch
 * prints in the order of its internal hash tables is printed here in the
 * same order (see ovs_order_from_json()), and everything else in the order
 * it sorts.
 *
 * Some things differ on purpose: "restore" keeps the uuids of the rows in
 * the backup (Open vSwitch 3.1 gives them new ones); "--timestamp" with
 * "--format=json" adds a "time" member instead of crashing; an error reply
 * to "lock", "steal" or "unlock" ends the command with that error (3.1's
 * waits forever without a word); "ovsdb-client/cond_change" checks the
 * table and the condition before it sends them (3.1's says "condition
 * changed" to anything and the server's refusal goes unseen).
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client-connect.h"
#include "command-line.h"
#include "daemon.h"
#include "dirs.h"
#include "dynamic-string.h"
#include "fatal-signal.h"
#include "file.h"
#include "json-print.h"
#include "jsonrpc.h"
#include "log.h"
#include "ovsdb.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "ovsdb-types.h"
#include "poll-loop.h"
#include "row.h"
#include "shash.h"
#include "socket-util.h"
#include "sset.h"
#include "stream.h"
#include "replay.h"
#include "stream-ssl.h"
/* lib/table.h, the output tables; plain "table.h" here is ovsdb/table.h,
 * the engine's tables, which "restore" also uses. */
#include "../lib/table.h"
#include "condition.h"
#include "table.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_client);

/* What a command needs before its handler runs.  The optional SERVER and
 * DATABASE arguments are taken off the front of the arguments here and are
 * not counted in min_args and max_args. */
enum args_needed {
    NEED_NONE,                  /* Nothing: the handler does it all. */
    NEED_RPC,                   /* A connection to the server. */
    NEED_DATABASE               /* A connection and a database name. */
};

struct client_command {
    const char *name;
    enum args_needed need;
    int min_args;
    int max_args;
    void (*handler)(struct jsonrpc *rpc, const char *server,
                    const char *database, int argc, char *argv[]);
};

/* Options. */
static struct table_style table_style = TABLE_STYLE_DEFAULT;
static bool timestamp;              /* --timestamp. */
/* --db-change-aware (1), --no-db-change-aware (0), or neither (-1):
 * monitors are aware unless told not to be, other commands only if told
 * to be (a "transact" that waits then gets "canceled" when its database
 * goes away, instead of losing its connection). */
static int db_change_aware = -1;
/* With several servers, use only a cluster's leader (--no-leader-only: any
 * server connected to the cluster). */
static bool leader_only = true;
static bool force;                  /* --force (restore). */

static const struct client_command *get_all_commands(void);
static noreturn void usage(void);
static void parse_options(int argc, char *argv[]);
static struct jsonrpc *open_jsonrpc(const char *server);

static char *
default_remote(void)
{
    return xasprintf("unix:%s/db.sock", ovs_rundir());
}

/* Open vSwitch tells a SERVER argument from a database or table name by
 * its look: a letter first and a colon somewhere ("unix:...", "tcp:..."). */
static bool
looks_like_remote(const char *s)
{
    return isalpha((unsigned char) s[0]) && strchr(s, ':');
}

static void fetch_dbs(struct jsonrpc *, struct sset *dbs);
static char *choose_database(struct jsonrpc *, int argc, char *argv[],
                             int min_args, bool *consumed);
static char *transaction_database(const struct client_command *,
                                  int argc, char *argv[]);

static bool command_keeps_running(const struct client_command *);
static void detach_now(void);
static void set_db_change_aware(struct jsonrpc *);

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    unsigned int env_timeout = ovs_cmdl_env_timeout();
    if (env_timeout) {
        signal(SIGALRM, SIG_DFL);
        alarm(env_timeout);
    }
    parse_options(argc, argv);
    fatal_ignore_sigpipe();

    if (optind >= argc) {
        ovs_fatal(0, "missing command name; use --help for help");
    }

    const struct client_command *command;
    for (command = get_all_commands(); ; command++) {
        if (!command->name) {
            ovs_fatal(0, "unknown command '%s'; use --help for help",
                      argv[optind]);
        } else if (!strcmp(command->name, argv[optind])) {
            break;
        }
    }
    optind++;

    char *server = NULL;
    char *server_list = NULL;   /* Several servers, comma-separated. */
    struct jsonrpc *rpc = NULL;
    if (command->need != NEED_NONE) {
        if (argc - optind > command->min_args
            && looks_like_remote(argv[optind])) {
            server = xstrdup(argv[optind++]);
        } else {
            server = default_remote();
        }
        if (strchr(server, ',')) {
            /* A cluster's servers: the database the command works on
             * decides which of them will do (client-connect.h). */
            server_list = server;
            char *database = (command->need == NEED_RPC
                              ? transaction_database(command, argc - optind,
                                                     argv + optind)
                              : NULL);
            rpc = client_connect(server_list, database, leader_only,
                                 &server);
            free(database);
        } else {
            rpc = open_jsonrpc(server);
        }
    }

    char *database = NULL;
    if (command->need == NEED_DATABASE) {
        bool consumed;
        database = choose_database(rpc, argc - optind, argv + optind,
                                   command->min_args, &consumed);
        if (server_list && !client_server_is_fit(rpc, server, database,
                                                 leader_only)) {
            /* The first server to answer named the database; now find one
             * fit for it. */
            jsonrpc_close(rpc);
            free(server);
            rpc = client_connect(server_list, database, leader_only,
                                 &server);
        }
        if (consumed) {
            optind++;
        }
    }

    if (argc - optind < command->min_args
        || argc - optind > command->max_args) {
        ovs_fatal(0, "invalid syntax for '%s' (use --help for help)",
                  command->name);
    }

    bool keeps_running = command_keeps_running(command);
    if (rpc && db_change_aware == 1 && !keeps_running) {
        set_db_change_aware(rpc);
    }
    if (get_detach() && !keeps_running) {
        detach_now();
    }
    command->handler(rpc, server, database, argc - optind, argv + optind);

    free(database);
    free(server);
    free(server_list);
    jsonrpc_close(rpc);
    stream_ssl_cleanup();
    /* Frees the event loop, and with it the buffers of the closed stream,
     * which libevent frees only from the loop. */
    poll_loop_destroy_self();
    return 0;
}

static void
set_timeout(const char *arg)
{
    unsigned int secs;
    if (!str_to_uint(arg, 10, &secs) || !secs) {
        ovs_fatal(0, "value %s on -t or --timeout is invalid", arg);
    }
    /* Die by SIGALRM, whatever the process is blocked in. */
    signal(SIGALRM, SIG_DFL);
    alarm(secs);
}

static void
parse_options(int argc, char *argv[])
{
    enum {
        OPT_BOOTSTRAP_CA_CERT = UCHAR_MAX + 1,
        OPT_TIMESTAMP,
        OPT_FORCE,
        OPT_DB_CHANGE_AWARE,
        OPT_NO_DB_CHANGE_AWARE,
        OPT_LEADER_ONLY,
        OPT_NO_LEADER_ONLY,
        OPT_OPTIONS,
        VLOG_OPTION_ENUMS,
        DAEMON_OPTION_ENUMS,
        TABLE_OPTION_ENUMS,
        STREAM_SSL_OPTION_ENUMS,
        REPLAY_OPTION_ENUMS
    };
    static const struct option long_options[] = {
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {"timeout", required_argument, NULL, 't'},
        {"timestamp", no_argument, NULL, OPT_TIMESTAMP},
        {"force", no_argument, NULL, OPT_FORCE},
        {"db-change-aware", no_argument, NULL, OPT_DB_CHANGE_AWARE},
        {"no-db-change-aware", no_argument, NULL, OPT_NO_DB_CHANGE_AWARE},
        {"leader-only", no_argument, NULL, OPT_LEADER_ONLY},
        {"no-leader-only", no_argument, NULL, OPT_NO_LEADER_ONLY},
        {"bootstrap-ca-cert", required_argument, NULL,
         OPT_BOOTSTRAP_CA_CERT},
        {"options", no_argument, NULL, OPT_OPTIONS},
        VLOG_LONG_OPTIONS,
        DAEMON_LONG_OPTIONS,
        TABLE_LONG_OPTIONS,
        STREAM_SSL_LONG_OPTIONS,
        REPLAY_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    char *short_options = ovs_cmdl_long_options_to_short_options(long_options);

    for (;;) {
        int c = getopt_long(argc, argv, short_options, long_options, NULL);
        if (c == -1) {
            break;
        }

        switch (c) {
        case 'h':
            free(short_options);
            usage();

        case 'V':
            ovs_print_version();
            free(short_options);
            exit(EXIT_SUCCESS);

        case 't':
            set_timeout(optarg);
            break;

        case OPT_TIMESTAMP:
            timestamp = true;
            break;

        case OPT_FORCE:
            force = true;
            break;

        case OPT_DB_CHANGE_AWARE:
            db_change_aware = 1;
            break;

        case OPT_NO_DB_CHANGE_AWARE:
            db_change_aware = 0;
            break;

        case OPT_LEADER_ONLY:
            leader_only = true;
            break;

        case OPT_NO_LEADER_ONLY:
            leader_only = false;
            break;

        case OPT_BOOTSTRAP_CA_CERT:
            stream_ssl_set_ca_cert_file(optarg, true);
            break;

        case OPT_OPTIONS:
            ovs_cmdl_print_options(long_options);
            free(short_options);
            exit(EXIT_SUCCESS);

        TABLE_OPTION_HANDLERS(&table_style)
        VLOG_OPTION_HANDLERS
        DAEMON_OPTION_HANDLERS
        STREAM_SSL_OPTION_HANDLERS
        REPLAY_OPTION_HANDLERS

        case '?':
            exit(EXIT_FAILURE);

        default:
            abort();
        }
    }
    free(short_options);
}

static void
usage(void)
{
    char *remote = default_remote();
    printf("%s: Open vSwitch database JSON-RPC client\n"
           "usage: %s [OPTIONS] COMMAND [ARG...]\n"
           "\nValid commands are:\n"
           "\n  list-dbs [SERVER]\n"
           "    list databases available on SERVER\n"
           "\n  get-schema [SERVER] [DATABASE]\n"
           "    retrieve schema for DATABASE from SERVER\n"
           "\n  get-schema-version [SERVER] [DATABASE]\n"
           "    retrieve schema for DATABASE from SERVER and report only its\n"
           "    version number on stdout\n"
           "\n  get-schema-cksum [SERVER] [DATABASE]\n"
           "    retrieve schema for DATABASE from SERVER and report only its\n"
           "    checksum on stdout\n"
           "\n  list-tables [SERVER] [DATABASE]\n"
           "    list tables for DATABASE on SERVER\n"
           "\n  list-columns [SERVER] [DATABASE] [TABLE]\n"
           "    list columns in TABLE (or all tables) in DATABASE on SERVER\n"
           "\n  transact [SERVER] TRANSACTION\n"
           "    run TRANSACTION (params for \"transact\" request) on SERVER\n"
           "    and print the results as JSON on stdout\n"
           "\n  query [SERVER] TRANSACTION\n"
           "    run TRANSACTION (params for \"transact\" request) on SERVER,\n"
           "    as read-only, and print the results as JSON on stdout\n"
           "\n  monitor [SERVER] [DATABASE] TABLE [COLUMN,...]...\n"
           "    monitor contents of COLUMNs in TABLE in DATABASE on SERVER.\n"
           "    COLUMNs may include !initial, !insert, !delete, !modify\n"
           "    to avoid seeing the specified kinds of changes.\n"
           "\n  monitor-cond [SERVER] [DATABASE] CONDITION TABLE [COLUMN,...]...\n"
           "    monitor contents that match CONDITION of COLUMNs in TABLE in\n"
           "    DATABASE on SERVER.\n"
           "    COLUMNs may include !initial, !insert, !delete, !modify\n"
           "    to avoid seeing the specified kinds of changes.\n"
           "\n  monitor-cond-since [SERVER] [DATABASE] [LASTID] CONDITION TABLE [COLUMN,...]...\n"
           "    monitor contents that match CONDITION of COLUMNs in TABLE in\n"
           "    DATABASE on SERVER, since change after LASTID.\n"
           "    LASTID specifies transaction ID after which the monitoring\n"
           "    starts, which works only for cluster mode. If ignored, it\n"
           "    defaults to an all-zero uuid.\n"
           "    Other arguments are the same as in monitor-cond.\n"
           "\n  convert [SERVER] SCHEMA\n"
           "    convert database on SERVER named in SCHEMA to SCHEMA.\n"
           "\n  needs-conversion [SERVER] SCHEMA\n"
           "    tests whether SCHEMA's db on SERVER needs conversion.\n"
           "\n  monitor [SERVER] [DATABASE] ALL\n"
           "    monitor all changes to all columns in all tables\n"
           "\n  wait [SERVER] DATABASE STATE\n"
           "    wait until DATABASE reaches STATE "
           "(\"added\" or \"connected\" or \"removed\")\n"
           "    in DATBASE on SERVER.\n"
           "\n  dump [SERVER] [DATABASE]\n"
           "    dump contents of DATABASE on SERVER to stdout\n"
           "\n  backup [SERVER] [DATABASE] > SNAPSHOT\n"
           "    dump database contents in the form of a database file\n"
           "\n  [--force] restore [SERVER] [DATABASE] < SNAPSHOT\n"
           "    restore database contents from a database file\n"
           "\n  lock [SERVER] LOCK\n"
           "    create or wait for LOCK in SERVER\n"
           "\n  steal [SERVER] LOCK\n"
           "    steal LOCK from SERVER\n"
           "\n  unlock [SERVER] LOCK\n"
           "    unlock LOCK from SERVER\n"
           "\nThe default SERVER is %s.\n"
           "The default DATABASE is Open_vSwitch.\n",
           program_name, program_name, remote);
    free(remote);
    printf("\nActive SERVER connection methods:\n"
           "  tcp:HOST:PORT           PORT at remote HOST\n"
           "  ssl:HOST:PORT           SSL PORT at remote HOST\n"
           "  unix:FILE               Unix domain socket named FILE\n"
           "Passive SERVER connection methods:\n"
           "  ptcp:PORT[:IP]          listen to TCP PORT on IP\n"
           "  pssl:PORT[:IP]          listen for SSL on PORT on IP\n"
           "  punix:FILE              listen on Unix domain socket FILE\n"
           "PKI configuration (required to use SSL):\n"
           "  -p, --private-key=FILE  file with private key\n"
           "  -c, --certificate=FILE  file with certificate for private key\n"
           "  -C, --ca-cert=FILE      file with peer CA certificate\n"
           "SSL options:\n"
           "  --ssl-protocols=PROTOS  list of SSL protocols to enable\n"
           "  --ssl-ciphers=CIPHERS   list of SSL ciphers to enable\n");
    table_usage();
    printf("  --timestamp                 timestamp \"monitor\" output\n");
    daemon_usage();
    vlog_usage();
    replay_usage();
    printf("\nOther options:\n"
           "  -t, --timeout=SECS          give up after SECS seconds\n"
           "  -h, --help                  display this help message\n"
           "  -V, --version               display version information\n");
    exit(EXIT_SUCCESS);
}

/* Helpers. */

/* JSON as the options ask for it (sorted members, maybe pretty). */
static char *
json_text(const json_t *json)
{
    return json_print_to_string(json, table_style_json_flags(&table_style));
}

static void
print_json(const json_t *json)
{
    char *s = json_text(json);
    puts(s);
    free(s);
}

/* Open vSwitch's JSON parser reads a number written with a fraction or an
 * exponent as an integer when its value is one ("1.0", "1.5e2"), and its
 * tools then print it as such.  This does the same to a tree that jansson
 * parsed, so that "transact" prints results as they do. */
static json_t *
normalize_numbers(json_t *json)
{
    if (json_is_real(json)) {
        double d = json_real_value(json);
        if (d == floor(d) && d >= -9223372036854775808.0
            && d < 9223372036854775808.0) {
            json_t *integer = json_integer((json_int_t) d);
            json_decref(json);
            return integer;
        }
    } else if (json_is_array(json)) {
        for (size_t i = 0; i < json_array_size(json); i++) {
            json_t *elem = json_array_get(json, i);
            json_array_set_new(json, i, normalize_numbers(json_incref(elem)));
        }
    } else if (json_is_object(json)) {
        const char *key;
        json_t *value;
        json_object_foreach (json, key, value) {
            json_object_set_new(json, key,
                                normalize_numbers(json_incref(value)));
        }
    }
    return json;
}

/* Parses command-line argument S as JSON, or exits with the parse error. */
static json_t *
parse_json(const char *s)
{
    json_error_t error;
    json_t *json = json_loads(s, JSON_ALLOW_NUL, &error);
    if (!json) {
        ovs_fatal(0, "\"%s\": line %d, column %d, byte %d: %s", s,
                  error.line > 0 ? error.line - 1 : 0, error.column,
                  error.position, error.text);
    }
    return json;
}

/* The members of OBJECT in the order in which Open vSwitch's tools visit the
 * members of a JSON object they parsed: they keep it in a hash table filled
 * in the order of the text, which this rebuilds with the same table type
 * and hash function.  jansson keeps members in the order of the text, so
 * iterating the returned SHASH (name -> json_t *, borrowed) gives the order
 * they print rows and tables in. */
static void
ovs_order_from_json(const json_t *object, struct shash *shash)
{
    const char *key;
    json_t *value;

    shash_init(shash);
    json_object_foreach ((json_t *) object, key, value) {
        shash_add(shash, key, value);
    }
}

static struct jsonrpc *
open_jsonrpc(const char *server)
{
    struct stream *stream;
    int error = stream_open_block(jsonrpc_stream_open(server, &stream,
                                                      DSCP_DEFAULT),
                                  -1, &stream);
    if (error == EAFNOSUPPORT) {
        /* A passive name: wait for the server to connect to us. */
        struct pstream *pstream;
        error = jsonrpc_pstream_open(server, &pstream, DSCP_DEFAULT);
        if (error) {
            ovs_fatal(error, "failed to connect or listen to \"%s\"", server);
        }

        VLOG_INFO("%s: waiting for connection...", server);
        error = pstream_accept_block(pstream, &stream);
        if (error) {
            ovs_fatal(error, "failed to accept connection on \"%s\"",
                      server);
        }
        pstream_close(pstream);
    } else if (error) {
        ovs_fatal(error, "failed to connect to \"%s\"", server);
    }

    return jsonrpc_open(stream);
}

static void
check_txn(int error, struct jsonrpc_msg **replyp)
{
    struct jsonrpc_msg *reply = *replyp;

    if (error) {
        ovs_fatal(error, "transaction failed");
    }
    if (reply->error) {
        char *s = json_text(reply->error);
        ovs_fatal(0, "transaction returned error: %s", s);
    }
}

/* Sends METHOD with PARAMS (consumed) and returns the reply, exiting on any
 * failure. */
static struct jsonrpc_msg *
transact_or_die(struct jsonrpc *rpc, const char *method, json_t *params)
{
    struct jsonrpc_msg *request = jsonrpc_create_request(method, params, NULL);
    struct jsonrpc_msg *reply;
    check_txn(jsonrpc_transact_block(rpc, request, &reply), &reply);
    return reply;
}

/* The database a command that needs one works on: ARGV[0] if it names one
 * of the server's databases (*CONSUMED is then true) and more than MIN_ARGS
 * arguments are left, else Open_vSwitch, else the server's only database
 * that is not a built-in one. */
static char *
choose_database(struct jsonrpc *rpc, int argc, char *argv[], int min_args,
                bool *consumed)
{
    struct sset dbs = SSET_INITIALIZER(&dbs);
    fetch_dbs(rpc, &dbs);
    char *database = NULL;
    *consumed = false;
    if (argc > min_args && sset_contains(&dbs, argv[0])) {
        database = xstrdup(argv[0]);
        *consumed = true;
    } else if (sset_contains(&dbs, "Open_vSwitch")) {
        database = xstrdup("Open_vSwitch");
    } else {
        /* Without a name, the only database that is not a built-in one
         * ("_Server") is the obvious choice. */
        const char *name;
        const char *best = NULL;
        size_t n = 0;
        SSET_FOR_EACH (name, &dbs) {
            if (name[0] != '_') {
                best = name;
                n++;
            }
        }
        if (n != 1) {
            ovs_fatal(0, "could not find a default database, "
                      "please specify a database name");
        }
        database = xstrdup(best);
    }
    sset_destroy(&dbs);
    return database;
}

/* For "transact" and "query", the database their transaction names (its
 * first element), or NULL. */
static char *
transaction_database(const struct client_command *command, int argc,
                     char *argv[])
{
    if (argc < 1 || (strcmp(command->name, "transact")
                     && strcmp(command->name, "query"))) {
        return NULL;
    }
    json_t *txn = json_loads(argv[0], JSON_DECODE_ANY, NULL);
    const json_t *name = json_array_get(txn, 0);
    char *database = json_is_string(name)
                     ? xstrdup(json_string_value(name)) : NULL;
    json_decref(txn);
    return database;
}

static void
fetch_dbs(struct jsonrpc *rpc, struct sset *dbs)
{
    struct jsonrpc_msg *reply = transact_or_die(rpc, "list_dbs", json_array());
    if (!json_is_array(reply->result)) {
        ovs_fatal(0, "list_dbs response is not array");
    }

    for (size_t i = 0; i < json_array_size(reply->result); i++) {
        const json_t *name = json_array_get(reply->result, i);
        if (!json_is_string(name)) {
            ovs_fatal(0, "list_dbs response %zu is not string", i);
        }
        sset_add(dbs, json_string_value(name));
    }
    jsonrpc_msg_destroy(reply);
}

/* Returns the schema of DATABASE; if JSONP is nonnull, also the schema's
 * JSON as the server sent it (a new reference). */
static struct ovsdb_schema *
fetch_schema(struct jsonrpc *rpc, const char *database, json_t **jsonp)
{
    struct jsonrpc_msg *reply = transact_or_die(
        rpc, "get_schema", json_pack("[s]", database));

    struct ovsdb_schema *schema;
    ovsdb_error_check_fatal(ovsdb_schema_from_json(reply->result, &schema));
    if (jsonp) {
        *jsonp = json_incref(reply->result);
    }
    jsonrpc_msg_destroy(reply);
    return schema;
}


static void
add_text_cell(struct table *table, char *text)
{
    table_add_cell(table)->text = text;
}

/* Table and column names in the order Open vSwitch's tools list them: the
 * order of their hash tables, built the way their schema parser builds
 * them (from the server's JSON, with "_uuid" and "_version" first among a
 * table's columns).  Returns a sorted list if the JSON is unusable. */
static void
schema_tables_in_ovs_order(const json_t *schema_json, struct shash *tables)
{
    const json_t *tables_json = json_object_get(schema_json, "tables");
    struct shash parsed;

    shash_init(tables);
    ovs_order_from_json(json_is_object(tables_json) ? tables_json : NULL,
                        &parsed);
    struct shash_node *node;
    SHASH_FOR_EACH (node, &parsed) {
        shash_add(tables, node->name, node->data);
    }
    shash_destroy(&parsed);
}

static void
table_columns_in_ovs_order(const json_t *table_json, struct shash *columns)
{
    const json_t *columns_json = json_object_get(table_json, "columns");
    struct shash parsed;

    shash_init(columns);
    shash_add(columns, "_uuid", NULL);
    shash_add(columns, "_version", NULL);
    ovs_order_from_json(json_is_object(columns_json) ? columns_json : NULL,
                        &parsed);
    struct shash_node *node;
    SHASH_FOR_EACH (node, &parsed) {
        shash_add_once(columns, node->name, NULL);
    }
    shash_destroy(&parsed);
}

/* list-dbs, get-schema, list-tables, list-columns. */

static void
do_list_dbs(struct jsonrpc *rpc, const char *server OVS_UNUSED,
            const char *database OVS_UNUSED, int argc OVS_UNUSED,
            char *argv[] OVS_UNUSED)
{
    struct sset dbs = SSET_INITIALIZER(&dbs);
    fetch_dbs(rpc, &dbs);

    const char **names = sset_sort(&dbs);
    for (size_t i = 0; i < sset_count(&dbs); i++) {
        puts(names[i]);
    }
    free(names);
    sset_destroy(&dbs);
}

static void
do_get_schema(struct jsonrpc *rpc, const char *server OVS_UNUSED,
              const char *database, int argc OVS_UNUSED,
              char *argv[] OVS_UNUSED)
{
    struct ovsdb_schema *schema = fetch_schema(rpc, database, NULL);
    json_t *json = ovsdb_schema_to_json(schema);
    print_json(json);
    json_decref(json);
    ovsdb_schema_destroy(schema);
}

static void
do_get_schema_version(struct jsonrpc *rpc, const char *server OVS_UNUSED,
                      const char *database, int argc OVS_UNUSED,
                      char *argv[] OVS_UNUSED)
{
    struct ovsdb_schema *schema = fetch_schema(rpc, database, NULL);
    puts(schema->version);
    ovsdb_schema_destroy(schema);
}

static void
do_get_schema_cksum(struct jsonrpc *rpc, const char *server OVS_UNUSED,
                    const char *database, int argc OVS_UNUSED,
                    char *argv[] OVS_UNUSED)
{
    struct ovsdb_schema *schema = fetch_schema(rpc, database, NULL);
    puts(schema->cksum);
    ovsdb_schema_destroy(schema);
}

static void
do_list_tables(struct jsonrpc *rpc, const char *server OVS_UNUSED,
               const char *database, int argc OVS_UNUSED,
               char *argv[] OVS_UNUSED)
{
    json_t *schema_json;
    struct ovsdb_schema *schema = fetch_schema(rpc, database, &schema_json);

    struct table t;
    table_init(&t);
    table_add_column(&t, "Table");

    struct shash tables;
    schema_tables_in_ovs_order(schema_json, &tables);
    struct shash_node *node;
    SHASH_FOR_EACH (node, &tables) {
        if (ovsdb_schema_get_table(schema, node->name)) {
            table_add_row(&t);
            add_text_cell(&t, xstrdup(node->name));
        }
    }
    shash_destroy(&tables);

    table_print(&t, &table_style);
    table_destroy(&t);
    json_decref(schema_json);
    ovsdb_schema_destroy(schema);
}

static void
do_list_columns(struct jsonrpc *rpc, const char *server OVS_UNUSED,
                const char *database, int argc, char *argv[])
{
    const char *table_name = argc ? argv[0] : NULL;
    json_t *schema_json;
    struct ovsdb_schema *schema = fetch_schema(rpc, database, &schema_json);

    struct table t;
    table_init(&t);
    if (!table_name) {
        table_add_column(&t, "Table");
    }
    table_add_column(&t, "Column");
    table_add_column(&t, "Type");

    struct shash tables;
    schema_tables_in_ovs_order(schema_json, &tables);
    struct shash_node *node;
    SHASH_FOR_EACH (node, &tables) {
        const struct ovsdb_table_schema *ts
            = ovsdb_schema_get_table(schema, node->name);
        if (!ts || (table_name && strcmp(table_name, ts->name))) {
            continue;
        }

        struct shash columns;
        table_columns_in_ovs_order(json_object_get(
                                       json_object_get(schema_json, "tables"),
                                       ts->name),
                                   &columns);
        struct shash_node *cnode;
        SHASH_FOR_EACH (cnode, &columns) {
            const struct ovsdb_column *column
                = ovsdb_table_schema_get_column(ts, cnode->name);
            if (!column) {
                continue;
            }
            table_add_row(&t);
            if (!table_name) {
                add_text_cell(&t, xstrdup(ts->name));
            }
            add_text_cell(&t, xstrdup(column->name));
            /* A JSON cell without an OVSDB type: always shown as JSON. */
            table_add_cell(&t)->json = ovsdb_type_to_json(&column->type);
        }
        shash_destroy(&columns);
    }
    shash_destroy(&tables);

    table_print(&t, &table_style);
    table_destroy(&t);
    json_decref(schema_json);
    ovsdb_schema_destroy(schema);
}

/* transact, query. */

static json_t *
parse_transaction(const char *s)
{
    json_t *txn = parse_json(s);
    if (!json_is_array(txn) || !json_array_size(txn)
        || !json_is_string(json_array_get(txn, 0))) {
        ovs_fatal(0, "not a valid OVSDB query");
    }
    return txn;
}

static void
run_transaction(struct jsonrpc *rpc, json_t *txn, bool read_only)
{
    size_t abort_idx = 0;
    if (read_only) {
        /* The "abort" makes the server throw the transaction away however
         * it went; its result is ours, not the user's, so it is dropped
         * below. */
        json_array_append_new(txn, json_pack("{s:s}", "op", "abort"));
        abort_idx = json_array_size(txn) - 2;
    }

    struct jsonrpc_msg *reply = transact_or_die(rpc, "transact", txn);
    json_t *result = normalize_numbers(json_incref(reply->result));
    if (read_only && json_is_array(result)
        && json_array_size(result) == abort_idx + 1) {
        const json_t *last = json_array_get(result, abort_idx);
        const json_t *error = json_object_get(last, "error");
        if (json_is_string(error)
            && !strcmp(json_string_value(error), "aborted")) {
            json_array_remove(result, abort_idx);
        }
    }
    print_json(result);
    json_decref(result);
    jsonrpc_msg_destroy(reply);
}

static void
do_transact(struct jsonrpc *rpc, const char *server OVS_UNUSED,
            const char *database OVS_UNUSED, int argc OVS_UNUSED,
            char *argv[])
{
    run_transaction(rpc, parse_transaction(argv[0]), false);
}

static void
do_query(struct jsonrpc *rpc, const char *server OVS_UNUSED,
         const char *database OVS_UNUSED, int argc OVS_UNUSED, char *argv[])
{
    run_transaction(rpc, parse_transaction(argv[0]), true);
}

/* dump. */

struct dump_row {
    json_t *uuid;                   /* The row's "_uuid" JSON. */
    struct ovsdb_datum *data;       /* One per dumped column. */
};

struct dump_sort_aux {
    const struct ovsdb_column **columns;
    size_t n_columns;
};

static struct dump_sort_aux *dump_sort_aux;

/* Rows come out ordered by their values, column by column from the left,
 * with the row's uuid only breaking ties. */
static int
compare_dump_rows(const void *a_, const void *b_)
{
    const struct dump_row *a = a_;
    const struct dump_row *b = b_;
    const struct dump_sort_aux *aux = dump_sort_aux;
    int uuid_index = -1;

    for (size_t i = 0; i < aux->n_columns; i++) {
        if (aux->columns[i]->index == OVSDB_COL_UUID) {
            uuid_index = i;
            continue;
        }
        int cmp = ovsdb_datum_compare_3way(&a->data[i], &b->data[i],
                                           &aux->columns[i]->type);
        if (cmp) {
            return cmp;
        }
    }
    if (uuid_index >= 0) {
        return ovsdb_datum_compare_3way(&a->data[uuid_index],
                                        &b->data[uuid_index],
                                        &aux->columns[uuid_index]->type);
    }
    return 0;
}

static int
compare_columns_by_name(const void *a_, const void *b_)
{
    const struct ovsdb_column *const *a = a_;
    const struct ovsdb_column *const *b = b_;
    return strcmp((*a)->name, (*b)->name);
}

static void
dump_table(const char *table_name, const struct ovsdb_column **columns,
           size_t n_columns, const json_t *rows)
{
    if (!json_is_array(rows)) {
        ovs_fatal(0, "%s table reply is not an array", table_name);
    }

    size_t n_rows = json_array_size(rows);
    struct dump_row *data = xmalloc((n_rows ? n_rows : 1) * sizeof *data);
    for (size_t y = 0; y < n_rows; y++) {
        const json_t *row = json_array_get(rows, y);
        if (!json_is_object(row)) {
            char *s = json_print_to_string(row, JSON_PRINT_SORT);
            ovs_fatal(0, "%s table reply row is not an object: %s",
                      table_name, s);
        }
        data[y].data = xmalloc((n_columns ? n_columns : 1)
                               * sizeof *data[y].data);
        for (size_t x = 0; x < n_columns; x++) {
            const json_t *value = json_object_get(row, columns[x]->name);
            if (!value) {
                ovs_fatal(0, "%s table reply row lacks %s column",
                          table_name, columns[x]->name);
            }
            ovsdb_error_check_fatal(ovsdb_datum_from_json(&data[y].data[x],
                                                    &columns[x]->type,
                                                    value, NULL));
        }
    }

    struct dump_sort_aux aux = { columns, n_columns };
    dump_sort_aux = &aux;
    qsort(data, n_rows, sizeof *data, compare_dump_rows);
    dump_sort_aux = NULL;

    struct table t;
    table_init(&t);
    table_set_caption(&t, xasprintf("%s table", table_name));
    for (size_t x = 0; x < n_columns; x++) {
        table_add_column(&t, "%s", columns[x]->name);
    }
    for (size_t y = 0; y < n_rows; y++) {
        table_add_row(&t);
        for (size_t x = 0; x < n_columns; x++) {
            struct cell *cell = table_add_cell(&t);
            cell->json = ovsdb_datum_to_json(&data[y].data[x],
                                             &columns[x]->type);
            cell->type = &columns[x]->type;
            ovsdb_datum_destroy(&data[y].data[x], &columns[x]->type);
        }
        free(data[y].data);
    }
    free(data);

    table_print(&t, &table_style);
    table_destroy(&t);
}

static void
do_dump(struct jsonrpc *rpc, const char *server OVS_UNUSED,
        const char *database, int argc, char *argv[])
{
    struct ovsdb_schema *schema = fetch_schema(rpc, database, NULL);

    const struct ovsdb_table_schema **tables;
    size_t n_tables;
    if (argc) {
        const struct ovsdb_table_schema *ts
            = ovsdb_schema_get_table(schema, argv[0]);
        if (!ts) {
            ovs_fatal(0, "No table \"%s\" found.", argv[0]);
        }
        tables = xmalloc(sizeof *tables);
        tables[0] = ts;
        n_tables = 1;
    } else {
        n_tables = shash_count(&schema->tables);
        const struct shash_node **nodes = shash_sort(&schema->tables);
        tables = xmalloc((n_tables ? n_tables : 1) * sizeof *tables);
        for (size_t i = 0; i < n_tables; i++) {
            tables[i] = nodes[i]->data;
        }
        free(nodes);
    }

    /* One select per table, all in one transaction, so that the dump is a
     * consistent snapshot. */
    json_t *txn = json_pack("[s]", database);
    const struct ovsdb_column ***columns = xmalloc(n_tables * sizeof *columns);
    size_t *n_columns = xmalloc(n_tables * sizeof *n_columns);
    for (size_t i = 0; i < n_tables; i++) {
        const struct ovsdb_table_schema *ts = tables[i];
        size_t n = 0;

        columns[i] = xmalloc(ts->n_columns * sizeof *columns[i]);
        if (argc > 1) {
            for (int j = 1; j < argc; j++) {
                const struct ovsdb_column *column
                    = ovsdb_table_schema_get_column(ts, argv[j]);
                if (!column) {
                    ovs_fatal(0, "Table \"%s\" has no column %s.",
                              ts->name, argv[j]);
                }
                bool dup = false;
                for (size_t k = 0; k < n; k++) {
                    dup = dup || columns[i][k] == column;
                }
                if (!dup && n < ts->n_columns) {
                    columns[i][n++] = column;
                }
            }
        } else {
            struct shash_node *node;
            SHASH_FOR_EACH (node, &ts->columns) {
                const struct ovsdb_column *column = node->data;
                if (column->index != OVSDB_COL_VERSION) {
                    columns[i][n++] = column;
                }
            }
        }
        qsort(columns[i], n, sizeof *columns[i], compare_columns_by_name);
        n_columns[i] = n;

        json_t *names = json_array();
        for (size_t k = 0; k < n; k++) {
            json_array_append_new(names, json_string(columns[i][k]->name));
        }
        json_array_append_new(txn, json_pack("{s:s, s:s, s:[], s:o}",
                                             "op", "select",
                                             "table", ts->name,
                                             "where",
                                             "columns", names));
    }

    struct jsonrpc_msg *reply = transact_or_die(rpc, "transact", txn);
    if (!json_is_array(reply->result)
        || json_array_size(reply->result) != n_tables) {
        char *s = json_print_to_string(reply->result, JSON_PRINT_SORT);
        ovs_fatal(0, "dump response is not an array of %zu objects: %s",
                  n_tables, s);
    }

    for (size_t i = 0; i < n_tables; i++) {
        const json_t *op_result = json_array_get(reply->result, i);
        const json_t *rows = json_object_get(op_result, "rows");
        if (!json_is_object(op_result) || json_object_get(op_result, "error")
            || !rows) {
            char *s = json_print_to_string(op_result, JSON_PRINT_SORT);
            ovs_fatal(0, "%s table reply is not a valid select result: %s",
                      tables[i]->name, s);
        }
        dump_table(tables[i]->name, columns[i], n_columns[i], rows);
        free(columns[i]);
    }

    jsonrpc_msg_destroy(reply);
    free(columns);
    free(n_columns);
    free(tables);
    ovsdb_schema_destroy(schema);
}

/* monitor, monitor-cond, monitor-cond-since. */

enum monitor_version {
    MONITOR_V1,                 /* "monitor": <table-updates>. */
    MONITOR_V2,                 /* "monitor_cond": <table-updates2>. */
    MONITOR_V3                  /* "monitor_cond_since": update3. */
};

struct monitored_table {
    const struct ovsdb_table_schema *table;
    const struct ovsdb_column **columns;
    size_t n_columns;
};

static void
add_monitored_column(const char *server, const struct ovsdb_column *column,
                     struct monitored_table *mt, json_t *columns_json)
{
    for (size_t i = 0; i < mt->n_columns; i++) {
        if (mt->columns[i] == column) {
            ovs_fatal(0, "%s: column \"%s\" mentioned multiple times",
                      server, column->name);
        }
    }
    mt->columns = xrealloc(mt->columns,
                           (mt->n_columns + 1) * sizeof *mt->columns);
    mt->columns[mt->n_columns++] = column;
    json_array_append_new(columns_json, json_string(column->name));
}

/* Adds every column of MT's table, in name order, then "_version". */
static void
add_all_columns(const char *server, struct monitored_table *mt,
                json_t *columns_json)
{
    const struct ovsdb_table_schema *table = mt->table;
    const struct ovsdb_column **all = xmalloc(table->n_columns * sizeof *all);
    size_t n = 0;
    struct shash_node *node;
    SHASH_FOR_EACH (node, &table->columns) {
        const struct ovsdb_column *column = node->data;
        if (column->index >= OVSDB_N_STD_COLUMNS) {
            all[n++] = column;
        }
    }
    qsort(all, n, sizeof *all, compare_columns_by_name);
    for (size_t i = 0; i < n; i++) {
        add_monitored_column(server, all[i], mt, columns_json);
    }
    free(all);
    add_monitored_column(server,
                         ovsdb_table_schema_get_column(table, "_version"),
                         mt, columns_json);
}

/* Parses ARG, a comma-separated list of columns and !initial, !insert,
 * !delete, !modify, into one monitor request for MT's table, appended to
 * REQUESTS.  No column means every column. */
static void
add_monitor_request(const char *server, const char *database,
                    const char *arg, const json_t *where,
                    struct monitored_table *mt, json_t *requests)
{
    bool initial = true, insert = true, delete = true, modify = true;
    json_t *columns_json = json_array();
    size_t n_columns = mt->n_columns;

    char *save_ptr = NULL;
    char *copy = xstrdup(arg);
    for (char *token = strtok_r(copy, ",", &save_ptr); token;
         token = strtok_r(NULL, ",", &save_ptr)) {
        if (!strcmp(token, "!initial")) {
            initial = false;
        } else if (!strcmp(token, "!insert")) {
            insert = false;
        } else if (!strcmp(token, "!delete")) {
            delete = false;
        } else if (!strcmp(token, "!modify")) {
            modify = false;
        } else {
            const struct ovsdb_column *column
                = ovsdb_table_schema_get_column(mt->table, token);
            if (!column) {
                ovs_fatal(0, "%s: table \"%s\" in %s does not have a "
                          "column named \"%s\"",
                          server, mt->table->name, database, token);
            }
            add_monitored_column(server, column, mt, columns_json);
        }
    }
    free(copy);

    if (mt->n_columns == n_columns) {
        add_all_columns(server, mt, columns_json);
    }

    json_t *request = json_object();
    json_object_set_new(request, "columns", columns_json);
    if (!initial || !insert || !delete || !modify) {
        json_object_set_new(request, "select",
                            json_pack("{s:b, s:b, s:b, s:b}",
                                      "initial", initial, "insert", insert,
                                      "delete", delete, "modify", modify));
    }
    if (where) {
        json_object_set(request, "where", (json_t *) where);
    }
    json_array_append_new(requests, request);
}

/* Fills in MT for TABLE from the column arguments ARGV[0..ARGC), each of
 * which becomes one monitor request (see add_monitor_request()), or a
 * single request for every column if there are none, and adds TABLE's
 * requests to REQUESTS. */
static void
add_monitored_table(const char *server, const char *database,
                    const struct ovsdb_table_schema *table,
                    int argc, char *argv[], const json_t *where,
                    json_t *requests, struct monitored_table *mt)
{
    json_t *table_requests = json_array();

    mt->table = table;
    mt->columns = NULL;
    mt->n_columns = 0;
    if (!argc) {
        add_monitor_request(server, database, "", where, mt,
                            table_requests);
    }
    for (int i = 0; i < argc; i++) {
        add_monitor_request(server, database, argv[i], where, mt,
                            table_requests);
    }
    json_object_set_new(requests, table->name, table_requests);
}

/* Adds a row for one row of a table update to T. */
static void
add_monitor_row(struct table *t, const struct monitored_table *mt,
                const char *uuid, const char *action, const json_t *row)
{
    table_add_row(t);
    add_text_cell(t, xstrdup(uuid));
    add_text_cell(t, xstrdup(action));
    for (size_t i = 0; i < mt->n_columns; i++) {
        struct cell *cell = table_add_cell(t);
        const json_t *value = (json_is_object(row)
                               ? json_object_get(row, mt->columns[i]->name)
                               : NULL);
        if (value) {
            cell->json = json_incref((json_t *) value);
            cell->type = &mt->columns[i]->type;
        }
    }
}

static void
monitor_print_table(const json_t *table_update,
                    const struct monitored_table *mt, char *caption,
                    bool initial, enum monitor_version version)
{
    if (!json_is_object(table_update)) {
        ovs_fatal(0, "<table-update> for table %s is not object",
                  mt->table->name);
    }

    struct table t;
    table_init(&t);
    table_set_timestamp(&t, timestamp);
    table_set_caption(&t, caption);
    table_add_column(&t, "row");
    table_add_column(&t, "action");
    for (size_t i = 0; i < mt->n_columns; i++) {
        table_add_column(&t, "%s", mt->columns[i]->name);
    }

    struct shash rows;
    ovs_order_from_json(table_update, &rows);
    struct shash_node *node;
    SHASH_FOR_EACH (node, &rows) {
        const json_t *row_update = node->data;
        if (!json_is_object(row_update)) {
            ovs_fatal(0, "<row-update> for table %s is not object",
                      mt->table->name);
        }

        if (version == MONITOR_V1) {
            const json_t *old = json_object_get(row_update, "old");
            const json_t *new = json_object_get(row_update, "new");
            if (!old) {
                add_monitor_row(&t, mt, node->name,
                                initial ? "initial" : "insert", new);
            } else if (!new) {
                add_monitor_row(&t, mt, node->name, "delete", old);
            } else {
                add_monitor_row(&t, mt, node->name, "old", old);
                add_monitor_row(&t, mt, "", "new", new);
            }
        } else {
            const char *action;
            json_t *value;
            json_object_foreach ((json_t *) row_update, action, value) {
                add_monitor_row(&t, mt, node->name, action, value);
            }
        }
    }
    shash_destroy(&rows);

    table_print(&t, &table_style);
    table_destroy(&t);
}

static void
monitor_print(const json_t *updates, const struct monitored_table *mts,
              size_t n_mts, bool initial, enum monitor_version version)
{
    if (!json_is_object(updates)) {
        ovs_fatal(0, "<table-updates> is not object");
    }
    for (size_t i = 0; i < n_mts; i++) {
        const char *name = mts[i].table->name;
        const json_t *table_update = json_object_get(updates, name);
        if (table_update) {
            monitor_print_table(table_update, &mts[i],
                                n_mts > 1 ? xstrdup(name) : NULL,
                                initial, version);
        }
    }
    fflush(stdout);
}

static void
unixctl_exit_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
                const char *argv[] OVS_UNUSED, void *exiting_)
{
    bool *exiting = exiting_;
    *exiting = true;
    unixctl_command_reply(conn, NULL);
}

/* --detach.  Unlike a daemon, a detached ovsdb-client keeps printing to
 * the stdout it was started with (the daemon library points it at
 * /dev/null), and, except for a lock, also to its stderr, as Open
 * vSwitch's does: that is where its output and its errors go (a monitor
 * says there why it stopped; a lock ends without a word when the server
 * goes away).  The commands that keep running (monitors, locks) go into
 * the background once they have printed their first answer and answer
 * unixctl commands (see detach_start()); every other command goes into the
 * background before it starts (see detach_now()). */
struct detach_state {
    int saved_stdout;
    int saved_stderr;
    struct unixctl_server *unixctl;
};

static void
detach_save_output(struct detach_state *ds, bool keep_stderr)
{
    ds->saved_stdout = dup(STDOUT_FILENO);
    ds->saved_stderr = keep_stderr ? dup(STDERR_FILENO) : -1;
}

static void
detach_restore_output(struct detach_state *ds)
{
    int *saved[] = { &ds->saved_stdout, &ds->saved_stderr };
    int fds[] = { STDOUT_FILENO, STDERR_FILENO };
    for (size_t i = 0; i < ARRAY_SIZE(fds); i++) {
        if (*saved[i] >= 0) {
            dup2(*saved[i], fds[i]);
            close(*saved[i]);
            *saved[i] = -1;
        }
    }
}

static void
detach_start(struct detach_state *ds, bool keep_stderr, bool *exiting)
{
    ds->saved_stdout = ds->saved_stderr = -1;
    ds->unixctl = NULL;
    daemonize_start();
    if (get_detach()) {
        detach_save_output(ds, keep_stderr);
        int error = unixctl_server_create(NULL, &ds->unixctl);
        if (error) {
            ovs_fatal(error, "failed to create unixctl server");
        }
        unixctl_command_register("exit", "", 0, 0, unixctl_exit_cb, exiting);
    }
}

static void
detach_complete(struct detach_state *ds)
{
    fflush(stdout);
    fflush(stderr);
    daemonize_complete();
    detach_restore_output(ds);
}

static void
detach_destroy(struct detach_state *ds)
{
    unixctl_server_destroy(ds->unixctl);
    detach_restore_output(ds);
}

/* --detach for every other command: the background process runs it,
 * printing its answer (or error) where the foreground one would have. */
static void
detach_now(void)
{
    struct detach_state ds = { .saved_stdout = -1, .saved_stderr = -1 };

    detach_save_output(&ds, true);
    daemonize_start();
    daemonize_complete();
    detach_restore_output(&ds);
}

static void
set_db_change_aware(struct jsonrpc *rpc)
{
    /* Asks the server to tell us, with "monitor_canceled", when the
     * database goes away.  A server that does not know the method is no
     * reason to stop. */
    struct jsonrpc_msg *request = jsonrpc_create_request(
        "set_db_change_aware", json_pack("[b]", 1), NULL);
    struct jsonrpc_msg *reply;
    int error = jsonrpc_transact_block(rpc, request, &reply);
    if (error) {
        ovs_fatal(error, "transaction failed");
    }
    jsonrpc_msg_destroy(reply);
}

static const char *
update3_last_id(const json_t *last_id)
{
    return json_is_string(last_id) ? json_string_value(last_id) : "";
}

/* Receives the next message on RPC, answering "echo" requests on the way
 * (a long-running monitor or lock must, or the server drops it).  Returns
 * NULL once nothing more has arrived; exits if the connection fails. */
static struct jsonrpc_msg *
recv_answering_echo(struct jsonrpc *rpc)
{
    for (;;) {
        struct jsonrpc_msg *msg;
        int error = jsonrpc_recv(rpc, &msg);
        if (error == EAGAIN) {
            return NULL;
        } else if (error) {
            ovs_fatal(error, "%s: receive failed", jsonrpc_get_name(rpc));
        }
        if (msg->type == JSONRPC_REQUEST && !strcmp(msg->method, "echo")) {
            jsonrpc_send(rpc, jsonrpc_create_reply(json_incref(msg->params),
                                                   json_incref(msg->id)));
            jsonrpc_msg_destroy(msg);
            continue;
        }
        return msg;
    }
}

/* What the unixctl commands of a detached "monitor" act on. */
struct monitor_control {
    struct jsonrpc *rpc;
    const char *database;
    const struct monitored_table *mts;
    size_t n_mts;
    bool blocked;               /* ovsdb-client/block: stop reading. */
};

/* ovsdb-client/cond_change TABLE COND: asks the server to monitor the rows
 * of TABLE that satisfy COND from now on ("monitor_cond_change"); the rows
 * that leave or enter the monitor are printed as deletions and insertions
 * when the server's update comes.  COND is checked here, so that a typo
 * is an error of this command rather than a failure nobody sees. */
static void
unixctl_cond_change_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
                       const char *argv[], void *mc_)
{
    struct monitor_control *mc = mc_;
    const struct monitored_table *mt = NULL;

    for (size_t i = 0; i < mc->n_mts; i++) {
        if (!strcmp(mc->mts[i].table->name, argv[1])) {
            mt = &mc->mts[i];
        }
    }
    if (!mt) {
        char *error = xasprintf("%s: not a monitored table", argv[1]);
        unixctl_command_reply_error(conn, error);
        free(error);
        return;
    }

    json_error_t json_error;
    json_t *where = json_loads(argv[2], JSON_DECODE_ANY, &json_error);
    if (!where) {
        char *error = xasprintf("%s: %s", argv[2], json_error.text);
        unixctl_command_reply_error(conn, error);
        free(error);
        return;
    }
    struct ovsdb_condition cond = OVSDB_CONDITION_INITIALIZER;
    struct ovsdb_error *error = ovsdb_condition_from_json(mt->table, where,
                                                          NULL, &cond);
    ovsdb_condition_destroy(&cond);
    if (error) {
        char *s = ovsdb_error_to_string(error);
        ovsdb_error_destroy(error);
        unixctl_command_reply_error(conn, s);
        free(s);
        json_decref(where);
        return;
    }

    /* The monitor was created with a null id: the same again, unchanged. */
    json_t *params = json_pack("[n, n, {s: [{s: o}]}]", mt->table->name,
                               "where", where);
    jsonrpc_send(mc->rpc, jsonrpc_create_request("monitor_cond_change",
                                                 params, NULL));
    VLOG_DBG("condition change for %s: %s", mt->table->name, argv[2]);
    unixctl_command_reply(conn, "condition changed");
}

/* ovsdb-client/block and ovsdb-client/unblock. */
static void
unixctl_block_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
                 const char *argv[], void *mc_)
{
    struct monitor_control *mc = mc_;
    mc->blocked = !strcmp(argv[0], "ovsdb-client/block");
    unixctl_command_reply(conn, NULL);
}

static void
do_monitor__(struct jsonrpc *rpc, const char *server, const char *database,
             enum monitor_version version, int argc, char *argv[],
             const json_t *condition, const char *last_id)
{
    struct ovsdb_schema *schema = fetch_schema(rpc, database, NULL);
    struct monitored_table *mts;
    size_t n_mts;
    json_t *requests = json_object();

    if (!strcmp(argv[0], "ALL") && version == MONITOR_V1) {
        const struct shash_node **nodes = shash_sort(&schema->tables);
        n_mts = shash_count(&schema->tables);
        mts = xmalloc((n_mts ? n_mts : 1) * sizeof *mts);
        for (size_t i = 0; i < n_mts; i++) {
            add_monitored_table(server, database, nodes[i]->data, 0, NULL,
                                NULL, requests, &mts[i]);
        }
        free(nodes);
    } else {
        const struct ovsdb_table_schema *table
            = ovsdb_schema_get_table(schema, argv[0]);
        if (!table) {
            ovs_fatal(0, "%s: %s does not have a table named \"%s\"",
                      server, database, argv[0]);
        }
        if (condition) {
            struct ovsdb_condition cond = OVSDB_CONDITION_INITIALIZER;
            ovsdb_error_check_fatal(ovsdb_condition_from_json(table, condition,
                                                        NULL, &cond));
            ovsdb_condition_destroy(&cond);
        }
        n_mts = 1;
        mts = xmalloc(sizeof *mts);
        add_monitored_table(server, database, table, argc - 1, argv + 1,
                            condition, requests, &mts[0]);
    }

    if (db_change_aware != 0) {
        set_db_change_aware(rpc);
    }

    bool exiting = false;
    struct detach_state ds;
    detach_start(&ds, true, &exiting);

    struct monitor_control mc = {
        .rpc = rpc, .database = database, .mts = mts, .n_mts = n_mts,
    };
    if (ds.unixctl) {
        if (version != MONITOR_V1) {
            unixctl_command_register("ovsdb-client/cond_change",
                                     "TABLE COND", 2, 2,
                                     unixctl_cond_change_cb, &mc);
        }
        unixctl_command_register("ovsdb-client/block", "", 0, 0,
                                 unixctl_block_cb, &mc);
        unixctl_command_register("ovsdb-client/unblock", "", 0, 0,
                                 unixctl_block_cb, &mc);
    }

    static const char *const methods[] = {
        [MONITOR_V1] = "monitor",
        [MONITOR_V2] = "monitor_cond",
        [MONITOR_V3] = "monitor_cond_since",
    };
    json_t *params = json_pack("[s, n, o]", database, requests);
    if (version == MONITOR_V3) {
        json_array_append_new(params, json_string(last_id));
    }
    json_t *request_id;
    jsonrpc_send(rpc, jsonrpc_create_request(methods[version], params,
                                             &request_id));

    while (!exiting) {
        unixctl_server_run(ds.unixctl);
        fatal_signal_run();

        struct jsonrpc_msg *msg;
        while (!mc.blocked && (msg = recv_answering_echo(rpc)) != NULL) {
            if (msg->type == JSONRPC_REPLY
                       && json_equal(msg->id, request_id)) {
                const json_t *updates = msg->result;
                if (version == MONITOR_V3) {
                    const json_t *found = json_array_get(msg->result, 0);
                    printf("found: %s, last_id: %s\n",
                           json_is_true(found) ? "true" : "false",
                           update3_last_id(json_array_get(msg->result, 1)));
                    updates = json_array_get(msg->result, 2);
                }
                monitor_print(updates, mts, n_mts, true, version);
                detach_complete(&ds);
            } else if (msg->type == JSONRPC_ERROR
                       && json_equal(msg->id, request_id)) {
                char *s = json_text(msg->error);
                ovs_fatal(0, "%s: %s failed: %s", server, methods[version],
                          s);
            } else if (msg->type == JSONRPC_NOTIFY) {
                const json_t *params = msg->params;
                if (!strcmp(msg->method, "update") && version == MONITOR_V1
                    && json_array_size(params) == 2) {
                    monitor_print(json_array_get(params, 1), mts, n_mts,
                                  false, version);
                } else if (!strcmp(msg->method, "update2")
                           && version == MONITOR_V2
                           && json_array_size(params) == 2) {
                    monitor_print(json_array_get(params, 1), mts, n_mts,
                                  false, version);
                } else if (!strcmp(msg->method, "update3")
                           && version == MONITOR_V3
                           && json_array_size(params) == 3) {
                    /* The newline that ends this line is the one that
                     * separates tables (none in the json format), as in
                     * Open vSwitch. */
                    printf("\nlast_id: %s",
                           update3_last_id(json_array_get(params, 1)));
                    monitor_print(json_array_get(params, 2), mts, n_mts,
                                  false, version);
                } else if (!strcmp(msg->method, "monitor_canceled")) {
                    ovs_fatal(0, "%s: %s database was removed",
                              server, database);
                }
            } else if (msg->type == JSONRPC_ERROR) {
                /* A refused ovsdb-client/cond_change: the monitor keeps
                 * its condition. */
                char *s = json_text(msg->error);
                VLOG_WARN("%s: request failed: %s", server, s);
                free(s);
            }
            jsonrpc_msg_destroy(msg);
        }

        jsonrpc_run(rpc);
        jsonrpc_wait(rpc);
        if (!mc.blocked) {
            jsonrpc_recv_wait(rpc);
        }
        unixctl_server_wait(ds.unixctl);
        fatal_signal_wait();
        if (!exiting) {
            poll_block();
        }
    }

    json_decref(request_id);
    detach_destroy(&ds);
    for (size_t i = 0; i < n_mts; i++) {
        free(mts[i].columns);
    }
    free(mts);
    ovsdb_schema_destroy(schema);
}

static void
do_monitor(struct jsonrpc *rpc, const char *server, const char *database,
           int argc, char *argv[])
{
    do_monitor__(rpc, server, database, MONITOR_V1, argc, argv, NULL, NULL);
}

static void
do_monitor_cond(struct jsonrpc *rpc, const char *server,
                const char *database, int argc, char *argv[])
{
    json_t *condition = parse_json(argv[0]);
    do_monitor__(rpc, server, database, MONITOR_V2, argc - 1, argv + 1,
                 condition, NULL);
    json_decref(condition);
}

static void
do_monitor_cond_since(struct jsonrpc *rpc, const char *server,
                      const char *database, int argc, char *argv[])
{
    char last_id[UUID_LEN + 1] = "00000000-0000-0000-0000-000000000000";
    struct uuid uuid;

    /* LASTID is optional; a condition is always a JSON array. */
    if (argc > 2 && argv[0][0] != '[') {
        if (!uuid_from_string(&uuid, argv[0])) {
            ovs_fatal(0, "\"%s\" is not a valid transaction ID", argv[0]);
        }
        snprintf(last_id, sizeof last_id, UUID_FMT, UUID_ARGS(&uuid));
        argc--;
        argv++;
    }
    if (argc < 2) {
        ovs_fatal(0, "invalid syntax for 'monitor-cond-since' "
                  "(use --help for help)");
    }

    json_t *condition = parse_json(argv[0]);
    do_monitor__(rpc, server, database, MONITOR_V3, argc - 1, argv + 1,
                 condition, last_id);
    json_decref(condition);
}

/* lock, steal, unlock. */

/* A detached lock, steal or unlock answers the unixctl commands "lock",
 * "steal" and "unlock" LOCK by sending that request over its connection;
 * the server's reply is printed when it comes, like the first one. */
static void
unixctl_lock_cb(struct unixctl_conn *conn, int argc OVS_UNUSED,
                const char *argv[], void *rpc_)
{
    struct jsonrpc *rpc = rpc_;
    jsonrpc_send(rpc, jsonrpc_create_request(argv[0],
                                             json_pack("[s]", argv[1]),
                                             NULL));
    unixctl_command_reply(conn, NULL);
}

/* Sends METHOD for LOCK, prints the reply, then keeps the connection (and
 * with it the lock) and prints every "locked" and "stolen" notification,
 * and the reply to every request that the unixctl commands above sent,
 * until killed, or asked to exit when detached. */
static void
run_lock_command(struct jsonrpc *rpc, const char *method, const char *lock)
{
    bool exiting = false;
    struct detach_state ds;
    detach_start(&ds, false, &exiting);
    if (ds.unixctl) {
        static const char *const methods[] = { "lock", "steal", "unlock" };
        for (size_t i = 0; i < ARRAY_SIZE(methods); i++) {
            unixctl_command_register(methods[i], "LOCK", 1, 1,
                                     unixctl_lock_cb, rpc);
        }
    }

    json_t *request_id;
    jsonrpc_send(rpc, jsonrpc_create_request(method, json_pack("[s]", lock),
                                             &request_id));

    while (!exiting) {
        unixctl_server_run(ds.unixctl);
        fatal_signal_run();

        struct jsonrpc_msg *msg;
        while ((msg = recv_answering_echo(rpc)) != NULL) {
            if (msg->type == JSONRPC_REPLY) {
                print_json(msg->result);
                fflush(stdout);
                if (json_equal(msg->id, request_id)) {
                    detach_complete(&ds);
                }
            } else if (msg->type == JSONRPC_ERROR) {
                char *s = json_text(msg->error);
                if (json_equal(msg->id, request_id)) {
                    ovs_fatal(0, "%s: %s failed: %s",
                              jsonrpc_get_name(rpc), method, s);
                }
                VLOG_WARN("%s: request failed: %s", jsonrpc_get_name(rpc),
                          s);
                free(s);
            } else if (msg->type == JSONRPC_NOTIFY) {
                puts(msg->method);
                print_json(msg->params);
                fflush(stdout);
            }
            jsonrpc_msg_destroy(msg);
        }

        jsonrpc_run(rpc);
        jsonrpc_wait(rpc);
        jsonrpc_recv_wait(rpc);
        unixctl_server_wait(ds.unixctl);
        fatal_signal_wait();
        if (!exiting) {
            poll_block();
        }
    }

    json_decref(request_id);
    detach_destroy(&ds);
}

static void
do_lock(struct jsonrpc *rpc, const char *server OVS_UNUSED,
        const char *database OVS_UNUSED, int argc OVS_UNUSED, char *argv[])
{
    run_lock_command(rpc, "lock", argv[0]);
}

static void
do_steal(struct jsonrpc *rpc, const char *server OVS_UNUSED,
         const char *database OVS_UNUSED, int argc OVS_UNUSED, char *argv[])
{
    run_lock_command(rpc, "steal", argv[0]);
}

static void
do_unlock(struct jsonrpc *rpc, const char *server OVS_UNUSED,
          const char *database OVS_UNUSED, int argc OVS_UNUSED, char *argv[])
{
    run_lock_command(rpc, "unlock", argv[0]);
}

/* backup. */

/* Writes JSON to stdout as one record of a database file. */
static void
write_log_record(const json_t *json)
{
    char *text = json_dumps(json, JSON_COMPACT | JSON_ENCODE_ANY);
    size_t len = strlen(text);
    text = xrealloc(text, len + 2);
    text[len++] = '\n';
    text[len] = '\0';

    char sha1[41];
    ovsdb_log_sha1_hex(text, len, sha1);
    printf("%s %zu %s\n", OVSDB_MAGIC, len, sha1);
    fwrite(text, 1, len, stdout);
    free(text);
}

static void
do_backup(struct jsonrpc *rpc, const char *server OVS_UNUSED,
          const char *database, int argc OVS_UNUSED, char *argv[] OVS_UNUSED)
{
    if (isatty(STDOUT_FILENO)) {
        ovs_fatal(0, "not writing backup to a terminal; "
                  "please redirect stdout to a file");
    }

    json_t *schema_json;
    struct ovsdb_schema *schema = fetch_schema(rpc, database, &schema_json);

    /* Every column but "_version", which a database file never holds. */
    struct shash tables;
    schema_tables_in_ovs_order(schema_json, &tables);
    json_t *txn = json_pack("[s]", database);
    const char **names = xmalloc((shash_count(&tables) + 1) * sizeof *names);
    size_t n_tables = 0;
    struct shash_node *node;
    SHASH_FOR_EACH (node, &tables) {
        const struct ovsdb_table_schema *ts
            = ovsdb_schema_get_table(schema, node->name);
        if (!ts) {
            continue;
        }

        json_t *columns = json_array();
        struct shash ordered;
        table_columns_in_ovs_order(
            json_object_get(json_object_get(schema_json, "tables"), ts->name),
            &ordered);
        struct shash_node *cnode;
        SHASH_FOR_EACH (cnode, &ordered) {
            const struct ovsdb_column *column
                = ovsdb_table_schema_get_column(ts, cnode->name);
            if (column && column->index != OVSDB_COL_VERSION) {
                json_array_append_new(columns, json_string(column->name));
            }
        }
        shash_destroy(&ordered);

        json_array_append_new(txn, json_pack("{s:s, s:s, s:[], s:o}",
                                             "op", "select",
                                             "table", ts->name,
                                             "where",
                                             "columns", columns));
        names[n_tables++] = ts->name;
    }
    shash_destroy(&tables);

    struct jsonrpc_msg *reply = transact_or_die(rpc, "transact", txn);
    if (!json_is_array(reply->result)
        || json_array_size(reply->result) != n_tables) {
        ovs_fatal(0, "backup response is not an array of %zu objects",
                  n_tables);
    }

    json_t *record = json_object();
    for (size_t i = 0; i < n_tables; i++) {
        const json_t *op_result = json_array_get(reply->result, i);
        const json_t *rows = json_object_get(op_result, "rows");
        if (!json_is_array(rows)) {
            char *s = json_print_to_string(op_result, JSON_PRINT_SORT);
            ovs_fatal(0, "%s table reply is not a valid select result: %s",
                      names[i], s);
        }

        json_t *table_rows = json_object();
        for (size_t y = 0; y < json_array_size(rows); y++) {
            const json_t *row = json_array_get(rows, y);
            const json_t *uuid_json = json_object_get(row, "_uuid");
            if (!uuid_json) {
                char *s = json_print_to_string(row, 0);
                ovs_fatal(0, "%s table reply row lacks _uuid member: %s",
                          names[i], s);
            }

            struct ovsdb_base_type uuid_base;
            union ovsdb_atom atom;
            ovsdb_base_type_init(&uuid_base, OVSDB_TYPE_UUID);
            ovsdb_error_check_fatal(ovsdb_atom_from_json(&atom, &uuid_base,
                                                   uuid_json, NULL));

            json_t *copy = json_deep_copy(row);
            json_object_del(copy, "_uuid");
            char uuid_s[UUID_LEN + 1];
            snprintf(uuid_s, sizeof uuid_s, UUID_FMT, UUID_ARGS(&atom.uuid));
            json_object_set_new(table_rows, uuid_s, copy);
        }
        json_object_set_new(record, names[i], table_rows);
    }
    json_object_set_new(record, "_date", json_integer(time_wall_msec()));
    json_object_set_new(record, "_is_diff", json_true());
    json_object_set_new(record, "_comment",
                        json_string("produced by \"ovsdb-client backup\""));

    write_log_record(schema_json);
    write_log_record(record);
    if (fflush(stdout) || ferror(stdout)) {
        ovs_fatal(errno, "writing backup failed");
    }

    json_decref(record);
    jsonrpc_msg_destroy(reply);
    free(names);
    json_decref(schema_json);
    ovsdb_schema_destroy(schema);
}

/* restore.
 *
 * The backup replaces the database's contents in one transaction, and rows
 * keep the uuids they have in the backup, so that references to them from
 * outside the database (other databases, logs, a controller's memory) stay
 * good.  A server refuses to insert a uuid that is in the table or was
 * deleted in the same transaction, so a row that exists now and in the
 * backup is updated in place rather than deleted and inserted again.  The
 * one row that cannot keep its uuid is one whose immutable columns differ
 * between the two: it is deleted and inserted again under a new uuid, and
 * references to it follow it through a "uuid-name".  A "wait" at the start
 * of each table makes the transaction fail, rather than do something else,
 * if rows came or went since we looked. */

static char *
uuid_text(const struct uuid *uuid)
{
    return xasprintf(UUID_FMT, UUID_ARGS(uuid));
}

static char *
restore_row_name(const char *uuid)
{
    char *name = xasprintf("row%s", uuid);
    for (char *p = name; *p; p++) {
        if (*p == '-') {
            *p = '_';
        }
    }
    return name;
}

static json_t *
restore_atom_to_json(const union ovsdb_atom *atom,
                     const struct ovsdb_base_type *base,
                     const struct sset *renamed)
{
    if (base->type == OVSDB_TYPE_UUID) {
        char *s = uuid_text(&atom->uuid);
        if (sset_contains(renamed, s)) {
            char *name = restore_row_name(s);
            json_t *json = json_pack("[s, s]", "named-uuid", name);
            free(name);
            free(s);
            return json;
        }
        free(s);
    }
    return ovsdb_atom_to_json(atom, base->type);
}

static json_t *
restore_datum_to_json(const struct ovsdb_datum *datum,
                      const struct ovsdb_type *type,
                      const struct sset *renamed)
{
    if (sset_is_empty(renamed)) {
        return ovsdb_datum_to_json(datum, type);
    }

    if (ovsdb_type_is_map(type)) {
        json_t *pairs = json_array();
        for (size_t i = 0; i < datum->n; i++) {
            json_array_append_new(
                pairs, json_pack("[o, o]",
                                 restore_atom_to_json(&datum->keys[i],
                                                      &type->key, renamed),
                                 restore_atom_to_json(&datum->values[i],
                                                      &type->value,
                                                      renamed)));
        }
        return json_pack("[s, o]", "map", pairs);
    } else if (datum->n == 1) {
        return restore_atom_to_json(&datum->keys[0], &type->key, renamed);
    } else {
        json_t *elems = json_array();
        for (size_t i = 0; i < datum->n; i++) {
            json_array_append_new(elems,
                                  restore_atom_to_json(&datum->keys[i],
                                                       &type->key, renamed));
        }
        return json_pack("[s, o]", "set", elems);
    }
}

/* Whether backup row ROW could be updated in place into the online row
 * whose immutable columns CURRENT holds (as the server sent them). */
static bool
restore_immutables_match(const struct ovsdb_row *row,
                         const struct ovsdb_table_schema *online_ts,
                         const json_t *current)
{
    const struct ovsdb_table_schema *ts = row->table->schema;
    for (size_t i = OVSDB_N_STD_COLUMNS; i < ts->n_columns; i++) {
        const struct ovsdb_column *column = ts->columns_by_index[i];
        const struct ovsdb_column *online
            = ovsdb_table_schema_get_column(online_ts, column->name);
        if (!online || online->mutable) {
            continue;
        }

        const json_t *value = json_object_get(current, column->name);
        if (!value || !ovsdb_type_equals(&column->type, &online->type)) {
            return false;
        }
        struct ovsdb_datum datum;
        struct ovsdb_error *error = ovsdb_datum_from_json(&datum,
                                                          &online->type,
                                                          value, NULL);
        if (error) {
            ovsdb_error_destroy(error);
            return false;
        }
        bool equal = ovsdb_datum_equals(&datum, &row->fields[column->index],
                                        &column->type);
        ovsdb_datum_destroy(&datum, &online->type);
        if (!equal) {
            return false;
        }
    }
    return true;
}

/* The row JSON for inserting (every column that is not at its default) or
 * updating (every column the server lets us change) ROW. */
static json_t *
restore_row_json(const struct ovsdb_row *row,
                 const struct ovsdb_table_schema *online_ts, bool update,
                 const struct sset *renamed)
{
    const struct ovsdb_table_schema *ts = row->table->schema;
    json_t *json = json_object();
    for (size_t i = OVSDB_N_STD_COLUMNS; i < ts->n_columns; i++) {
        const struct ovsdb_column *column = ts->columns_by_index[i];
        const struct ovsdb_datum *datum = &row->fields[column->index];
        if (update) {
            const struct ovsdb_column *online
                = (online_ts
                   ? ovsdb_table_schema_get_column(online_ts, column->name)
                   : NULL);
            if (online && !online->mutable) {
                continue;
            }
        } else if (ovsdb_datum_is_default(datum, &column->type)) {
            continue;
        }
        json_object_set_new(json, column->name,
                            restore_datum_to_json(datum, &column->type,
                                                  renamed));
    }
    return json;
}

/* Exits if REPLY, the reply to a "transact", reports an error. */
static void
check_transaction_reply(const struct jsonrpc_msg *reply)
{
    if (!json_is_array(reply->result)) {
        ovs_fatal(0, "result is not array");
    }
    for (size_t i = 0; i < json_array_size(reply->result); i++) {
        const json_t *json = json_array_get(reply->result, i);
        if (!json_is_object(json)) {
            ovs_fatal(0, "result array element is not object");
        }
        if (json_object_get(json, "error")) {
            char *s = json_print_to_string(json, JSON_PRINT_SORT);
            ovs_fatal(0, "server returned error reply: %s", s);
        }
    }
}

/* The current rows of each table of BACKUP that the server also has, by
 * uuid: CURRENT[i] maps uuid text -> the row's JSON (its immutable
 * columns), for table TABLES[i]. */
static json_t *
restore_fetch_current(struct jsonrpc *rpc, const struct ovsdb *backup,
                      const struct ovsdb_schema *online,
                      const struct ovsdb_table ***tablesp,
                      struct shash **currentp, size_t *n_tablesp)
{
    size_t n_backup_tables = shash_count(&backup->tables);
    const struct ovsdb_table **tables = xmalloc((n_backup_tables + 1)
                                                * sizeof *tables);
    size_t n_tables = 0;
    json_t *txn = json_pack("[s]", backup->schema->name);

    struct shash_node *node;
    SHASH_FOR_EACH (node, &backup->tables) {
        const struct ovsdb_table *table = node->data;
        const struct ovsdb_table_schema *ots
            = ovsdb_schema_get_table(online, node->name);
        if (!ots) {
            continue;
        }

        json_t *columns = json_pack("[s]", "_uuid");
        for (size_t i = OVSDB_N_STD_COLUMNS; i < ots->n_columns; i++) {
            const struct ovsdb_column *column = ots->columns_by_index[i];
            if (!column->mutable
                && ovsdb_table_schema_get_column(table->schema,
                                                 column->name)) {
                json_array_append_new(columns, json_string(column->name));
            }
        }
        json_array_append_new(txn, json_pack("{s:s, s:s, s:[], s:o}",
                                             "op", "select",
                                             "table", node->name,
                                             "where",
                                             "columns", columns));
        tables[n_tables++] = table;
    }

    struct jsonrpc_msg *reply = transact_or_die(rpc, "transact", txn);
    check_transaction_reply(reply);
    if (json_array_size(reply->result) != n_tables) {
        ovs_fatal(0, "select reply has %zu results for %zu tables",
                  json_array_size(reply->result), n_tables);
    }

    struct shash *current = xmalloc((n_tables + 1) * sizeof *current);
    for (size_t i = 0; i < n_tables; i++) {
        const json_t *rows = json_object_get(json_array_get(reply->result,
                                                            i), "rows");
        shash_init(&current[i]);
        for (size_t y = 0; y < json_array_size(rows); y++) {
            json_t *row = json_array_get(rows, y);
            struct uuid uuid;
            const json_t *uuid_json = json_object_get(row, "_uuid");
            if (!uuid_from_string(&uuid, json_string_value(
                                      json_array_get(uuid_json, 1))
                                  ? json_string_value(
                                      json_array_get(uuid_json, 1))
                                  : "")) {
                char *s = json_print_to_string(row, 0);
                ovs_fatal(0, "%s table reply row lacks _uuid member: %s",
                          tables[i]->schema->name, s);
            }
            char *s = uuid_text(&uuid);
            shash_add(&current[i], s, row);
            free(s);
        }
    }

    *tablesp = tables;
    *currentp = current;
    *n_tablesp = n_tables;

    /* The rows in CURRENT point into the reply's result. */
    json_t *result = json_incref(reply->result);
    jsonrpc_msg_destroy(reply);
    return result;
}

/* Reads the backup on stdin.  The log reader needs a file it can seek in,
 * so a backup piped in is copied to a temporary file first. */
static struct ovsdb *
read_backup(void)
{
    struct stat st;
    if (!fstat(STDIN_FILENO, &st) && S_ISREG(st.st_mode)) {
        struct ovsdb *db;
        ovsdb_error_check_fatal(ovsdb_file_read("/dev/stdin", false, &db, NULL));
        return db;
    }

    const char *tmpdir = getenv("TMPDIR");
    char *name = xasprintf("%s/ovsdb-client-restore.XXXXXX",
                           tmpdir && tmpdir[0] ? tmpdir : "/tmp");
    int fd = mkstemp(name);
    if (fd < 0) {
        ovs_fatal(errno, "%s: could not create temporary file", name);
    }
    char buf[65536];
    for (;;) {
        ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
        if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0) {
            int error = errno;
            unlink(name);
            ovs_fatal(error, "reading backup from stdin failed");
        } else if (!n) {
            break;
        }
        for (ssize_t done = 0; done < n; ) {
            ssize_t m = write(fd, buf + done, n - done);
            if (m < 0 && errno != EINTR) {
                int error = errno;
                unlink(name);
                ovs_fatal(error, "%s: write failed", name);
            }
            done += m > 0 ? m : 0;
        }
    }
    close(fd);

    struct ovsdb *db;
    struct ovsdb_error *error = ovsdb_file_read(name, false, &db, NULL);
    unlink(name);
    free(name);
    ovsdb_error_check_fatal(error);
    return db;
}

static void
do_restore(struct jsonrpc *rpc, const char *server OVS_UNUSED,
           const char *database, int argc OVS_UNUSED,
           char *argv[] OVS_UNUSED)
{
    if (isatty(STDIN_FILENO)) {
        ovs_fatal(0, "not reading backup from a terminal; "
                  "please redirect stdin from a file");
    }

    struct ovsdb *backup = read_backup();

    struct ovsdb_schema *online = fetch_schema(rpc, database, NULL);
    if (!ovsdb_schema_equal(backup->schema, online)) {
        struct ds s = DS_EMPTY_INITIALIZER;
        if (strcmp(backup->schema->version, online->version)) {
            ds_put_format(&s, "backup schema has version \"%s\" but "
                          "database schema has version \"%s\"",
                          backup->schema->version, online->version);
        } else {
            ds_put_format(&s, "backup schema and database schema are "
                          "both version %s but still differ",
                          backup->schema->version);
        }
        if (!force) {
            ovs_fatal(0, "%s (use --force to override differences, or "
                      "\"ovsdb-client convert\" to change the schema)",
                      ds_cstr(&s));
        }
        VLOG_INFO("%s", ds_cstr(&s));
        ds_destroy(&s);
    }

    const struct ovsdb_table **tables;
    struct shash *current;
    size_t n_tables;
    json_t *current_json = restore_fetch_current(rpc, backup, online,
                                                 &tables, &current,
                                                 &n_tables);

    /* Rows that must change uuid (see the comment above). */
    struct sset renamed = SSET_INITIALIZER(&renamed);
    for (size_t i = 0; i < n_tables; i++) {
        const struct ovsdb_table_schema *ots
            = ovsdb_schema_get_table(online, tables[i]->schema->name);
        const struct ovsdb_row *row;
        HMAP_FOR_EACH (row, hmap_node, &tables[i]->rows) {
            char *s = uuid_text(ovsdb_row_get_uuid(row));
            const json_t *cur = shash_find_data(&current[i], s);
            if (cur && !restore_immutables_match(row, ots, cur)) {
                sset_add(&renamed, s);
            }
            free(s);
        }
    }

    json_t *txn = json_pack("[s]", backup->schema->name);
    struct shash_node *node;
    SHASH_FOR_EACH (node, &backup->tables) {
        const struct ovsdb_table *table = node->data;
        const struct ovsdb_table_schema *ots
            = ovsdb_schema_get_table(online, node->name);
        struct shash *cur = NULL;
        for (size_t i = 0; i < n_tables; i++) {
            if (tables[i] == table) {
                cur = &current[i];
            }
        }

        if (cur) {
            json_t *rows = json_array();
            struct shash_node *cnode;
            SHASH_FOR_EACH (cnode, cur) {
                json_array_append_new(rows, json_pack("{s:[s, s]}", "_uuid",
                                                      "uuid", cnode->name));
            }
            json_array_append_new(txn, json_pack(
                                      "{s:s, s:i, s:s, s:[], s:[s], s:s, "
                                      "s:o}",
                                      "op", "wait", "timeout", 0,
                                      "table", node->name, "where",
                                      "columns", "_uuid", "until", "==",
                                      "rows", rows));

            SHASH_FOR_EACH (cnode, cur) {
                struct uuid uuid;
                uuid_from_string(&uuid, cnode->name);
                if (!ovsdb_table_get_row(table, &uuid)
                    || sset_contains(&renamed, cnode->name)) {
                    json_array_append_new(txn, json_pack(
                                              "{s:s, s:s, s:[[s, s, [s, s]]]}",
                                              "op", "delete",
                                              "table", node->name,
                                              "where", "_uuid", "==",
                                              "uuid", cnode->name));
                }
            }
        }

        const struct ovsdb_row *row;
        HMAP_FOR_EACH (row, hmap_node, &table->rows) {
            char *s = uuid_text(ovsdb_row_get_uuid(row));
            bool exists = cur && shash_find(cur, s);
            bool rename = sset_contains(&renamed, s);
            if (exists && !rename) {
                json_array_append_new(txn, json_pack(
                                          "{s:s, s:s, s:[[s, s, [s, s]]], "
                                          "s:o}",
                                          "op", "update", "table", node->name,
                                          "where", "_uuid", "==", "uuid", s,
                                          "row", restore_row_json(
                                              row, ots, true, &renamed)));
            } else {
                json_t *op = json_pack("{s:s, s:s, s:o}",
                                       "op", "insert", "table", node->name,
                                       "row", restore_row_json(
                                           row, ots, false, &renamed));
                if (rename) {
                    char *name = restore_row_name(s);
                    json_object_set_new(op, "uuid-name", json_string(name));
                    free(name);
                } else {
                    json_object_set_new(op, "uuid", json_string(s));
                }
                json_array_append_new(txn, op);
            }
            free(s);
        }
    }

    struct jsonrpc_msg *reply = transact_or_die(rpc, "transact", txn);
    check_transaction_reply(reply);
    jsonrpc_msg_destroy(reply);

    sset_destroy(&renamed);
    for (size_t i = 0; i < n_tables; i++) {
        shash_destroy(&current[i]);
    }
    free(current);
    free(tables);
    json_decref(current_json);
    ovsdb_schema_destroy(online);
    ovsdb_destroy(backup);
}

/* wait. */

static void
do_wait(struct jsonrpc *rpc OVS_UNUSED, const char *server OVS_UNUSED,
        const char *database OVS_UNUSED, int argc, char *argv[])
{
    const char *db_name = argv[argc - 2];
    const char *state = argv[argc - 1];
    json_t *op;

    if (!strcmp(state, "connected")) {
        op = json_pack("{s:s, s:s, s:[[s, s, s]], s:[s], s:s, s:[{s:b}]}",
                       "op", "wait", "table", "Database",
                       "where", "name", "==", db_name,
                       "columns", "connected", "until", "==",
                       "rows", "connected", 1);
    } else if (!strcmp(state, "added") || !strcmp(state, "removed")) {
        /* With no columns, a row is an empty object: "[{}]" means one
         * such row exists, "[]" that none does. */
        op = json_pack("{s:s, s:s, s:[[s, s, s]], s:[], s:s, s:o}",
                       "op", "wait", "table", "Database",
                       "where", "name", "==", db_name,
                       "columns", "until", "==",
                       "rows", (!strcmp(state, "added")
                                ? json_pack("[{}]") : json_array()));
    } else {
        ovs_fatal(0, "%s: unknown state", state);
    }

    /* The server may not be up yet: keep trying to connect, quietly. */
    vlog_set_levels(NULL, VLF_CONSOLE, VLL_WARN);
    char *remote = argc > 2 ? xstrdup(argv[0]) : default_remote();
    struct jsonrpc_session *js = jsonrpc_session_open(remote, true);
    free(remote);

    unsigned int seqno = 0;
    json_t *txn_id = NULL;
    for (;;) {
        jsonrpc_session_run(js);
        fatal_signal_run();

        if (seqno != jsonrpc_session_get_seqno(js)
            && jsonrpc_session_is_connected(js)) {
            seqno = jsonrpc_session_get_seqno(js);
            jsonrpc_session_send(js, jsonrpc_create_request(
                                     "set_db_change_aware",
                                     json_pack("[b]", 1), NULL));
            json_decref(txn_id);
            jsonrpc_session_send(js, jsonrpc_create_request(
                                     "transact",
                                     json_pack("[s, O]", "_Server", op),
                                     &txn_id));
        }

        struct jsonrpc_msg *msg = jsonrpc_session_recv(js);
        if (msg && msg->id && txn_id && json_equal(msg->id, txn_id)) {
            if (msg->type == JSONRPC_ERROR) {
                char *s = json_text(msg->error);
                ovs_fatal(0, "transaction returned error: %s", s);
            }
            check_transaction_reply(msg);
            jsonrpc_msg_destroy(msg);
            break;
        }
        jsonrpc_msg_destroy(msg);

        jsonrpc_session_recv_wait(js);
        jsonrpc_session_wait(js);
        fatal_signal_wait();
        poll_block();
    }

    json_decref(txn_id);
    json_decref(op);
    jsonrpc_session_close(js);
}

/* convert, needs-conversion. */

static struct ovsdb_schema *
read_schema(const char *file_name, json_t **jsonp)
{
    struct ovsdb_schema *schema;
    ovsdb_error_check_fatal(ovsdb_schema_from_file(file_name, &schema));
    if (jsonp) {
        *jsonp = ovsdb_schema_to_json(schema);
    }
    return schema;
}

static void
do_convert(struct jsonrpc *rpc, const char *server OVS_UNUSED,
           const char *database OVS_UNUSED, int argc OVS_UNUSED,
           char *argv[])
{
    json_t *schema_json;
    struct ovsdb_schema *schema = read_schema(argv[0], &schema_json);
    struct jsonrpc_msg *reply = transact_or_die(
        rpc, "convert", json_pack("[s, o]", schema->name, schema_json));
    jsonrpc_msg_destroy(reply);
    ovsdb_schema_destroy(schema);
}

static void
do_needs_conversion(struct jsonrpc *rpc, const char *server OVS_UNUSED,
                    const char *database OVS_UNUSED, int argc OVS_UNUSED,
                    char *argv[])
{
    struct ovsdb_schema *schema = read_schema(argv[0], NULL);
    struct ovsdb_schema *online = fetch_schema(rpc, schema->name, NULL);
    puts(ovsdb_schema_equal(schema, online) ? "no" : "yes");
    ovsdb_schema_destroy(online);
    ovsdb_schema_destroy(schema);
}

static void
do_help(struct jsonrpc *rpc OVS_UNUSED, const char *server OVS_UNUSED,
        const char *database OVS_UNUSED, int argc OVS_UNUSED,
        char *argv[] OVS_UNUSED)
{
    usage();
}

static const struct client_command all_commands[] = {
    { "list-dbs",           NEED_RPC,      0, 0,       do_list_dbs },
    { "get-schema",         NEED_DATABASE, 0, 0,       do_get_schema },
    { "get-schema-version", NEED_DATABASE, 0, 0,       do_get_schema_version },
    { "get-schema-cksum",   NEED_DATABASE, 0, 0,       do_get_schema_cksum },
    { "list-tables",        NEED_DATABASE, 0, 0,       do_list_tables },
    { "list-columns",       NEED_DATABASE, 0, 1,       do_list_columns },
    { "transact",           NEED_RPC,      1, 1,       do_transact },
    { "query",              NEED_RPC,      1, 1,       do_query },
    { "monitor",            NEED_DATABASE, 1, INT_MAX, do_monitor },
    { "monitor-cond",       NEED_DATABASE, 2, 3,       do_monitor_cond },
    { "monitor-cond-since", NEED_DATABASE, 2, 4,       do_monitor_cond_since },
    { "wait",               NEED_NONE,     2, 3,       do_wait },
    { "convert",            NEED_RPC,      1, 1,       do_convert },
    { "needs-conversion",   NEED_RPC,      1, 1,       do_needs_conversion },
    { "dump",               NEED_DATABASE, 0, INT_MAX, do_dump },
    { "backup",             NEED_DATABASE, 0, 0,       do_backup },
    { "restore",            NEED_DATABASE, 0, 0,       do_restore },
    { "lock",               NEED_RPC,      1, 1,       do_lock },
    { "steal",              NEED_RPC,      1, 1,       do_steal },
    { "unlock",             NEED_RPC,      1, 1,       do_unlock },
    { "help",               NEED_NONE,     0, INT_MAX, do_help },
    { NULL,                 NEED_NONE,     0, 0,       NULL },
};

static const struct client_command *
get_all_commands(void)
{
    return all_commands;
}

/* The commands that go into the background only once they have printed
 * their first answer, and then answer unixctl commands. */
static bool
command_keeps_running(const struct client_command *command)
{
    return (command->handler == do_monitor
            || command->handler == do_monitor_cond
            || command->handler == do_monitor_cond_since
            || command->handler == do_lock
            || command->handler == do_steal
            || command->handler == do_unlock);
}
