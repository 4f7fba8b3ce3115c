/* ovsdb-tool: offline management of standalone OVSDB database files.
 *
 * Every command works on files directly, never through a server: create a
 * database from a schema, compact or convert one, report names, versions and
 * checksums, run a transaction, and print the log record by record.
 * Commands, arguments, defaults, output formats and exit statuses follow
 * Open vSwitch 3.1's ovsdb-tool, so scripts written for it keep working.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "command-line.h"
#include "convert.h"
#include "dirs.h"
#include "dynamic-string.h"
#include "execution.h"
#include "fatal-signal.h"
#include "file.h"
#include "log.h"
#include "ovsdb.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "ovsdb-types.h"
#include "raft-file.h"
#include "row.h"
#include "server.h"
#include "shash.h"
#include "smap.h"
#include "sset.h"
#include "table.h"
#include "transaction.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_tool);

/* -m, --more: how much "show-log" prints about each record. */
static int show_log_verbosity;

/* --cid: the cluster id that "join-cluster" records (NULL: not known). */
static struct uuid *join_cid;

/* --election-timer: the election timer "create-cluster" records. */
static uint64_t election_timer;

/* --rbac-role: the role "query" and "transact" run as (NULL: the
 * superuser, which RBAC never restricts).  The tool has no client identity,
 * so under a role that RBAC applies to it may read but change nothing. */
static char *rbac_role;

static const struct ovs_cmdl_command *get_all_commands(void);

static noreturn void usage(void);
static void parse_options(int argc, char *argv[]);

static const char *
default_db_name(void)
{
    static char *name;
    if (!name) {
        name = xasprintf("%s/conf.db", ovs_dbdir());
    }
    return name;
}

static const char *
default_schema_name(void)
{
    static char *name;
    if (!name) {
        name = xasprintf("%s/vswitch.ovsschema", ovs_pkgdatadir());
    }
    return name;
}

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    parse_options(argc, argv);
    fatal_ignore_sigpipe();

    struct ovs_cmdl_context ctx = {
        .argc = argc - optind,
        .argv = argv + optind,
    };
    ovs_cmdl_run_command(&ctx, get_all_commands());
    return 0;
}

static void
parse_options(int argc, char *argv[])
{
    enum {
        OPT_RBAC_ROLE = UCHAR_MAX + 1,
        OPT_CID,
        OPT_ELECTION_TIMER,
        VLOG_OPTION_ENUMS
    };
    static const struct option long_options[] = {
        {"more", no_argument, NULL, 'm'},
        {"rbac-role", required_argument, NULL, OPT_RBAC_ROLE},
        {"cid", required_argument, NULL, OPT_CID},
        {"election-timer", required_argument, NULL, OPT_ELECTION_TIMER},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        VLOG_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    char *short_options = ovs_cmdl_long_options_to_short_options(long_options);

    for (;;) {
        int c = getopt_long(argc, argv, short_options, long_options, NULL);
        if (c == -1) {
            break;
        }

        switch (c) {
        case 'm':
            show_log_verbosity++;
            break;

        case OPT_RBAC_ROLE:
            free(rbac_role);
            rbac_role = xstrdup(optarg);
            break;

        case OPT_CID:
            free(join_cid);
            join_cid = xmalloc(sizeof *join_cid);
            if (!uuid_from_string(join_cid, optarg)
                || uuid_is_zero(join_cid)) {
                ovs_fatal(0, "%s: not a valid UUID", optarg);
            }
            break;

        case OPT_ELECTION_TIMER: {
            char *end;
            unsigned long long int ms = strtoull(optarg, &end, 10);
            if (*end || !ms) {
                ovs_fatal(0, "election timer must be an integer.");
            }
            election_timer = ms;
            break;
        }

        case 'h':
            free(short_options);
            usage();

        case 'V':
            ovs_print_version();
            free(short_options);
            exit(EXIT_SUCCESS);

        VLOG_OPTION_HANDLERS

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
    printf("%s: Open vSwitch database management utility\n"
           "usage: %s [OPTIONS] COMMAND [ARG...]\n"
           "  create [DB [SCHEMA]]    create DB with the given SCHEMA\n"
           "  [--election-timer=ms] create-cluster DB CONTENTS LOCAL\n"
           "    create clustered DB with given CONTENTS and LOCAL address\n"
           "  [--cid=CID] join-cluster DB NAME LOCAL REMOTE...\n"
           "    join clustered DB with given NAME and LOCAL and REMOTE addrs\n"
           "  cluster-to-standalone DB CLUSTER_DB\n"
           "    convert clustered CLUSTER_DB to standalone DB\n"
           "  compact [DB [DST]]      compact DB in-place (or to DST)\n"
           "  convert [DB [SCHEMA [DST]]]   convert DB to SCHEMA (to DST)\n"
           "  needs-conversion [DB [SCHEMA]]  "
           "does DB need conversion to SCHEMA?\n"
           "  db-name [DB]            report name of schema used by DB\n"
           "  db-version [DB]         report version of schema used by DB\n"
           "  db-cksum [DB]           report checksum of schema used by DB\n"
           "  db-cid DB               report cluster ID of clustered DB\n"
           "  db-sid DB               report server ID of clustered DB\n"
           "  db-local-address DB     report local address of clustered DB\n"
           "  db-is-clustered DB      test whether DB is clustered\n"
           "  db-is-standalone DB     test whether DB is standalone\n"
           "  schema-name [SCHEMA]    report SCHEMA's name\n"
           "  schema-version [SCHEMA] report SCHEMA's schema version\n"
           "  schema-cksum [SCHEMA]   report SCHEMA's checksum\n"
           "  compare-versions A OP B  compare OVSDB schema version numbers\n"
           "  query [DB] TRNS         execute read-only transaction on DB\n"
           "  transact [DB] TRNS      execute read/write transaction on DB\n"
           "  [-m]... show-log [DB]   print DB's log entries\n"
           "  check-cluster DB...     check clustered DB for consistency\n"
           "The default DB is %s.\n"
           "The default SCHEMA is %s.\n",
           program_name, program_name, default_db_name(),
           default_schema_name());
    vlog_usage();
    printf("\nOther options:\n"
           "  -m, --more                  increase show-log verbosity\n"
           "  --rbac-role=ROLE            RBAC role for transact and query "
           "commands\n"
           "  -h, --help                  display this help message\n"
           "  -V, --version               display version information\n");
    exit(EXIT_SUCCESS);
}

/* Helpers. */

/* argv[I] if present, otherwise DEFAULT. */
static const char *
arg_or(const struct ovs_cmdl_context *ctx, int i, const char *default_)
{
    return ctx->argc > i ? ctx->argv[i] : default_;
}

/* True if DB_NAME is a clustered database file (exits on an error). */
static bool
is_clustered(const char *db_name)
{
    struct ovsdb_log *log;
    ovsdb_error_check_fatal(ovsdb_log_open(db_name, OVSDB_MAGIC "|" RAFT_MAGIC,
                                           OVSDB_LOG_READ_ONLY, 0, &log));
    bool clustered = !strcmp(ovsdb_log_get_magic(log), RAFT_MAGIC);
    ovsdb_log_close(log);
    return clustered;
}

/* Exits with an error if DB_NAME is clustered: the operations that edit or
 * report on a standalone file directly have no meaning for a file that is
 * only one server's view of a cluster. */
static void
require_standalone(const char *db_name)
{
    if (is_clustered(db_name)) {
        ovsdb_error_check_fatal(ovsdb_error(
            "ovsdb error", "%s: cannot apply this operation to clustered "
            "database file", db_name));
    }
}

static struct ovsdb_schema *
read_schema_file(const char *file_name)
{
    struct ovsdb_schema *schema;
    ovsdb_error_check_fatal(ovsdb_schema_from_file(file_name, &schema));
    return schema;
}

static struct ovsdb_schema *
read_db_schema(const char *db_name)
{
    require_standalone(db_name);
    struct ovsdb_schema *schema;
    ovsdb_error_check_fatal(ovsdb_file_read_schema(db_name, &schema));
    return schema;
}

static void
print_json(const json_t *json)
{
    char *s = json_dumps(json, JSON_COMPACT | JSON_SORT_KEYS
                         | JSON_ENCODE_ANY);
    puts(s);
    free(s);
}

/* Parses TEXT, given on the command line, as JSON, or exits with an error
 * in Open vSwitch's words. */
static json_t *
parse_json_arg(const char *text)
{
    json_error_t jerror;
    json_t *json = json_loads(text, JSON_DECODE_ANY, &jerror);
    if (!json) {
        ovs_fatal(0, "\"%s\": line %d, column %d, byte %d: %s", text,
                  jerror.line > 0 ? jerror.line - 1 : 0, jerror.column,
                  jerror.position, jerror.text);
    }
    return json;
}

static char *
tool_comment(const char *verb)
{
    return xasprintf("%s by ovsdb-tool %s", verb, ovs_version_string());
}

/* create [DB [SCHEMA]] */
static void
do_create(struct ovs_cmdl_context *ctx)
{
    const char *db_name = arg_or(ctx, 1, default_db_name());
    const char *schema_name = arg_or(ctx, 2, default_schema_name());

    struct ovsdb_schema *schema = read_schema_file(schema_name);
    struct ovsdb_error *error = ovsdb_file_create(db_name, schema);
    ovsdb_schema_destroy(schema);
    ovsdb_error_check_fatal(error);
}

/* Reads DB_NAME, holding its lock if LOCK, writes a snapshot of DB (or of
 * what was read) to DST_NAME (default: DB_NAME itself) with COMMENT. */
static void
save_db(const char *dst_name, const char *verb, struct ovsdb *db)
{
    char *comment = tool_comment(verb);
    struct ovsdb_error *error = ovsdb_file_save_copy(dst_name, comment, db);
    free(comment);
    ovsdb_error_check_fatal(error);
}

/* compact [DB [DST]] */
static void
do_compact(struct ovs_cmdl_context *ctx)
{
    const char *db_name = arg_or(ctx, 1, default_db_name());
    const char *dst_name = arg_or(ctx, 2, db_name);
    bool in_place = ctx->argc <= 2;
    require_standalone(db_name);

    /* In place, the database stays locked (opened for writing) until the
     * compacted copy has replaced it. */
    struct ovsdb_file *file = NULL;
    struct ovsdb *db;
    ovsdb_error_check_fatal(ovsdb_file_read(db_name, in_place, &db,
                                      in_place ? &file : NULL));
    save_db(dst_name, "compacted", db);
    ovsdb_destroy(db);
}

/* convert [DB [SCHEMA [DST]]] */
static void
do_convert(struct ovs_cmdl_context *ctx)
{
    const char *db_name = arg_or(ctx, 1, default_db_name());
    const char *schema_name = arg_or(ctx, 2, default_schema_name());
    const char *dst_name = arg_or(ctx, 3, db_name);
    bool in_place = ctx->argc <= 3;
    require_standalone(db_name);

    struct ovsdb_schema *new_schema = read_schema_file(schema_name);
    struct ovsdb_file *file = NULL;
    struct ovsdb *old, *new;
    ovsdb_error_check_fatal(ovsdb_file_read(db_name, in_place, &old,
                                      in_place ? &file : NULL));
    ovsdb_error_check_fatal(ovsdb_convert(old, new_schema, &new));
    ovsdb_schema_destroy(new_schema);
    save_db(dst_name, "converted", new);
    ovsdb_destroy(new);
    ovsdb_destroy(old);
}

/* needs-conversion [DB [SCHEMA]] */
static void
do_needs_conversion(struct ovs_cmdl_context *ctx)
{
    const char *db_name = arg_or(ctx, 1, default_db_name());
    const char *schema_name = arg_or(ctx, 2, default_schema_name());
    struct ovsdb_schema *schema1 = read_db_schema(db_name);
    struct ovsdb_schema *schema2 = read_schema_file(schema_name);

    puts(ovsdb_schema_equal(schema1, schema2) ? "no" : "yes");

    ovsdb_schema_destroy(schema1);
    ovsdb_schema_destroy(schema2);
}

enum schema_field { SCHEMA_NAME, SCHEMA_VERSION, SCHEMA_CKSUM };

static void
print_schema_field(struct ovsdb_schema *schema, enum schema_field field)
{
    const char *value = (field == SCHEMA_NAME ? schema->name
                         : field == SCHEMA_VERSION ? schema->version
                         : schema->cksum);
    puts(value ? value : "");
    ovsdb_schema_destroy(schema);
}

static void
do_db_name(struct ovs_cmdl_context *ctx)
{
    const char *db_name = arg_or(ctx, 1, default_db_name());
    if (is_clustered(db_name)) {
        struct raft_file_contents c;
        ovsdb_error_check_fatal(raft_file_read(db_name, &c));
        puts(c.header.name);
        raft_file_contents_destroy(&c);
        return;
    }
    print_schema_field(read_db_schema(arg_or(ctx, 1, default_db_name())),
                       SCHEMA_NAME);
}

static void
do_db_version(struct ovs_cmdl_context *ctx)
{
    print_schema_field(read_db_schema(arg_or(ctx, 1, default_db_name())),
                       SCHEMA_VERSION);
}

static void
do_db_cksum(struct ovs_cmdl_context *ctx)
{
    print_schema_field(read_db_schema(arg_or(ctx, 1, default_db_name())),
                       SCHEMA_CKSUM);
}

static void
do_schema_name(struct ovs_cmdl_context *ctx)
{
    print_schema_field(read_schema_file(arg_or(ctx, 1,
                                               default_schema_name())),
                       SCHEMA_NAME);
}

static void
do_schema_version(struct ovs_cmdl_context *ctx)
{
    print_schema_field(read_schema_file(arg_or(ctx, 1,
                                               default_schema_name())),
                       SCHEMA_VERSION);
}

static void
do_schema_cksum(struct ovs_cmdl_context *ctx)
{
    print_schema_field(read_schema_file(arg_or(ctx, 1,
                                               default_schema_name())),
                       SCHEMA_CKSUM);
}

/* Exits with status 0 if DB's file has magic MAGIC, 2 if it has the other
 * magic, and an error otherwise. */
static void
check_db_kind(const char *db_name, const char *magic)
{
    struct ovsdb_log *log;
    ovsdb_error_check_fatal(ovsdb_log_open(db_name, OVSDB_MAGIC "|" RAFT_MAGIC,
                                     OVSDB_LOG_READ_ONLY, 0, &log));
    bool match = !strcmp(ovsdb_log_get_magic(log), magic);
    ovsdb_log_close(log);
    exit(match ? 0 : 2);
}

/* Prints member MEMBER of the header record of clustered database DB_NAME
 * (the record that says which cluster and server the file belongs to). */
static void
print_cluster_header_member(const char *db_name, const char *member,
                            const char *what)
{
    struct ovsdb_log *log;
    ovsdb_error_check_fatal(ovsdb_log_open(db_name,
                                           OVSDB_MAGIC "|" RAFT_MAGIC,
                                           OVSDB_LOG_READ_ONLY, 0, &log));
    if (strcmp(ovsdb_log_get_magic(log), RAFT_MAGIC)) {
        ovsdb_log_close(log);
        ovs_fatal(0, "%s: not a clustered database", db_name);
    }
    json_t *header;
    ovsdb_error_check_fatal(ovsdb_log_read(log, &header));
    ovsdb_log_close(log);
    const char *value = json_string_value(json_object_get(header, member));
    if (!value) {
        json_decref(header);
        fprintf(stderr, "%s: %s not yet known\n", db_name, what);
        exit(2);
    }
    puts(value);
    json_decref(header);
}

static void
do_db_cid(struct ovs_cmdl_context *ctx)
{
    print_cluster_header_member(ctx->argv[1], "cluster_id", "cluster ID");
}

static void
do_db_sid(struct ovs_cmdl_context *ctx)
{
    print_cluster_header_member(ctx->argv[1], "server_id", "server ID");
}

static void
do_db_local_address(struct ovs_cmdl_context *ctx)
{
    print_cluster_header_member(ctx->argv[1], "local_address",
                                "local address");
}

static void
do_db_is_clustered(struct ovs_cmdl_context *ctx)
{
    check_db_kind(ctx->argv[1], RAFT_MAGIC);
}

static void
do_db_is_standalone(struct ovs_cmdl_context *ctx)
{
    check_db_kind(ctx->argv[1], OVSDB_MAGIC);
}

/* compare-versions A OP B */
static void
do_compare_versions(struct ovs_cmdl_context *ctx)
{
    int a[3], b[3];
    if (!ovsdb_parse_version(ctx->argv[1], a)) {
        ovs_fatal(0, "%s: not an OVSDB version number in format x.y.z",
                  ctx->argv[1]);
    }
    if (!ovsdb_parse_version(ctx->argv[3], b)) {
        ovs_fatal(0, "%s: not an OVSDB version number in format x.y.z",
                  ctx->argv[3]);
    }

    int cmp = (a[0] != b[0] ? (a[0] > b[0] ? 1 : -1)
               : a[1] != b[1] ? (a[1] > b[1] ? 1 : -1)
               : a[2] != b[2] ? (a[2] > b[2] ? 1 : -1)
               : 0);
    const char *op = ctx->argv[2];
    bool result;
    if (!strcmp(op, "<")) {
        result = cmp < 0;
    } else if (!strcmp(op, "<=")) {
        result = cmp <= 0;
    } else if (!strcmp(op, "==")) {
        result = cmp == 0;
    } else if (!strcmp(op, ">=")) {
        result = cmp >= 0;
    } else if (!strcmp(op, ">")) {
        result = cmp > 0;
    } else if (!strcmp(op, "!=")) {
        result = cmp != 0;
    } else {
        ovs_fatal(0, "%s: bad comparison operator", op);
    }
    exit(result ? 0 : 2);
}

/* query [DB] TRNS, transact [DB] TRNS */
static void
transact(struct ovs_cmdl_context *ctx, bool read_only)
{
    const char *db_name = ctx->argc >= 3 ? ctx->argv[1] : default_db_name();
    const char *transaction = ctx->argv[ctx->argc - 1];

    require_standalone(db_name);
    json_t *request = parse_json_arg(transaction);

    struct ovsdb_file *file = NULL;
    struct ovsdb *db;
    ovsdb_error_check_fatal(ovsdb_file_read(db_name, !read_only, &db,
                                      read_only ? NULL : &file));

    bool durable = false;
    struct ovsdb_txn *txn = NULL;
    /* "query" runs every operation, writes included (so that a delete
     * reports its count, as Open vSwitch's query does), and then throws the
     * transaction away instead of committing it.
     *
     * No timeout pointer: nobody else changes the database while we hold
     * it, so a "wait" that is not satisfied now never will be, and the
     * executor reports it as an error result (as Open vSwitch's tool does)
     * instead of asking us to retry. */
    struct ovsdb_session session;
    ovsdb_session_init(&session, NULL);
    ovsdb_session_set_rbac(&session, rbac_role, NULL);
    json_t *result = ovsdb_execute(db, &session, request, false, 0, NULL,
                                   &durable, &txn);
    struct ovsdb_lock_waiter **no_waiters;
    size_t n_no_waiters;
    ovsdb_session_destroy(&session, &no_waiters, &n_no_waiters);
    free(no_waiters);
    if (txn) {
        if (read_only) {
            ovsdb_txn_abort(txn);
        } else {
            struct ovsdb_error *error = ovsdb_txn_commit(txn, durable);
            if (error) {
                json_array_append_new(result,
                                      ovsdb_error_to_json_free(error));
            }
        }
    }
    print_json(result);

    json_decref(result);
    json_decref(request);
    ovsdb_destroy(db);
}

static void
do_query(struct ovs_cmdl_context *ctx)
{
    transact(ctx, true);
}

static void
do_transact(struct ovs_cmdl_context *ctx)
{
    transact(ctx, false);
}

/* show-log [DB] */

/* Prints MSECS since the epoch as UTC date and time with milliseconds. */
static void
print_date(long long int msecs)
{
    time_t secs = msecs / 1000;
    struct tm tm;
    char buf[64];
    gmtime_r(&secs, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    printf(" %s.%03lld", buf, msecs % 1000);
}

/* Formats VALUE, a column's value (or difference) from a log record, in the
 * ovs-vsctl syntax of COLUMN's type when it parses as such, otherwise as
 * JSON.  Caller frees. */
static char *
format_value(const struct ovsdb_column *column, const json_t *value)
{
    if (column) {
        struct ovsdb_type type = column->type;
        if (type.n_max > 1) {
            /* A difference may hold more, or fewer, elements than the
             * column allows. */
            type.n_min = 0;
            type.n_max = UINT_MAX;
        }
        struct ovsdb_datum datum;
        struct ovsdb_error *error = ovsdb_datum_from_json(&datum, &type,
                                                          value, NULL);
        if (!error) {
            struct ds s = DS_EMPTY_INITIALIZER;
            ovsdb_datum_to_string(&datum, &type, &s);
            ovsdb_datum_destroy(&datum, &type);
            return ds_steal_cstr(&s);
        }
        ovsdb_error_destroy(error);
    }
    return json_dumps(value, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

/* Prints the row changes in RECORD.  NAMES maps a row's UUID to what it is
 * called in the output: its "name" column as JSON, or the start of its
 * UUID. */
static void
print_db_changes(const json_t *record, struct smap *names,
                 const struct ovsdb_schema *schema)
{
    bool is_diff = json_is_true(json_object_get(record, "_is_diff"));
    const char *table_name;
    json_t *rows;
    bool first = true;

    json_object_foreach ((json_t *) record, table_name, rows) {
        if (table_name[0] == '_' || !json_is_object(rows)) {
            continue;
        }
        if (first) {
            putchar('\n');
            first = false;
        }

        const struct ovsdb_table_schema *ts
            = schema ? ovsdb_schema_get_table(schema, table_name) : NULL;
        const char *row_uuid;
        json_t *columns;
        json_object_foreach (rows, row_uuid, columns) {
            const char *old_name = smap_get(names, row_uuid);
            char *new_name = NULL;
            if (json_is_object(columns)) {
                json_t *name_json = json_object_get(columns, "name");
                if (name_json) {
                    new_name = json_dumps(name_json, JSON_COMPACT
                                          | JSON_SORT_KEYS
                                          | JSON_ENCODE_ANY);
                }
            }

            printf("  table %s", table_name);
            if (!old_name) {
                if (new_name) {
                    printf(" insert row %s (%.8s):\n", new_name, row_uuid);
                } else {
                    printf(" insert row %.8s:\n", row_uuid);
                }
            } else {
                printf(" row %s (%.8s)%s:\n", old_name, row_uuid,
                       is_diff ? " diff" : "");
            }

            if (json_is_object(columns)) {
                if (show_log_verbosity > 1) {
                    const char *column_name;
                    json_t *value;
                    json_object_foreach (columns, column_name, value) {
                        const struct ovsdb_column *column
                            = (ts ? ovsdb_table_schema_get_column(
                                   ts, column_name) : NULL);
                        char *s = format_value(column, value);
                        printf("    %s=%s\n", column_name, s);
                        free(s);
                    }
                }
                if (new_name && (!old_name || strcmp(old_name, new_name))) {
                    smap_replace(names, row_uuid, new_name);
                } else if (!old_name) {
                    char *short_uuid = xasprintf("%.8s", row_uuid);
                    smap_replace(names, row_uuid, short_uuid);
                    free(short_uuid);
                }
            } else if (json_is_null(columns)) {
                printf("    delete row\n");
                smap_remove(names, row_uuid);
            }
            free(new_name);
        }
    }
}

/* Prints the date and comment of transaction record JSON and, with -m, its
 * changes. */
static void
print_change_record(const json_t *json, const struct ovsdb_schema *schema,
                    struct smap *names)
{
    if (!json_is_object(json)) {
        return;
    }
    json_t *date = json_object_get(json, "_date");
    if (json_is_integer(date)) {
        print_date(json_integer_value(date));
    }
    json_t *comment = json_object_get(json, "_comment");
    if (json_is_string(comment)) {
        printf(" \"%s\"", json_string_value(comment));
    }
    if (show_log_verbosity > 0) {
        print_db_changes(json, names, schema);
    }
}

static int
compare_strings(const void *a_, const void *b_)
{
    const char *const *a = a_;
    const char *const *b = b_;
    return strcmp(*a, *b);
}

/* Prints a configuration: the servers' short ids and addresses. */
static void
print_servers(const char *name, const json_t *servers)
{
    if (!servers) {
        return;
    }
    printf(" %s: ", name);
    const char **keys = xmalloc(json_object_size(servers) * sizeof *keys);
    size_t n = 0;
    const char *key;
    json_t *value;
    json_object_foreach ((json_t *) servers, key, value) {
        keys[n++] = key;
    }
    qsort(keys, n, sizeof *keys, compare_strings);
    for (size_t i = 0; i < n; i++) {
        char *address = json_dumps(json_object_get(servers, keys[i]),
                                   JSON_ENCODE_ANY);
        printf("%s%.4s(%s)", i ? ", " : "", keys[i], address);
        free(address);
    }
    free(keys);
    putchar('\n');
}

/* Prints the [SCHEMA, TRANSACTION] DATA of a snapshot or an entry. */
static void
print_raft_data(const char *prefix, const json_t *data,
                struct ovsdb_schema **schemap, struct smap *names)
{
    if (!data) {
        return;
    }
    if (!json_is_array(data) || json_array_size(data) != 2) {
        printf(" ***invalid data***\n");
        return;
    }
    const json_t *schema_json = json_array_get(data, 0);
    if (!json_is_null(schema_json)) {
        struct ovsdb_schema *schema;
        ovsdb_error_check_fatal(ovsdb_schema_from_json(schema_json, &schema));
        printf(" %sschema: \"%s\", version=\"%s\", cksum=\"%s\"\n",
               prefix, schema->name, schema->version ? schema->version : "",
               schema->cksum ? schema->cksum : "");
        ovsdb_schema_destroy(*schemap);
        *schemap = schema;
    }
    print_change_record(json_array_get(data, 1), *schemap, names);
}

static void
print_raft_header(const struct raft_header *h, struct ovsdb_schema **schemap,
                  struct smap *names)
{
    printf(" name: \"%s'\n", h->name);
    printf(" local address: \"%s\"\n", h->local_address);
    printf(" server_id: %04x\n", h->sid.parts[0] >> 16);
    if (!uuid_is_zero(&h->cid)) {
        printf(" cluster_id: %04x\n", h->cid.parts[0] >> 16);
    }
    if (!sset_is_empty(&h->remote_addresses)) {
        printf(" remote_addresses:");
        const char *s;
        SSET_FOR_EACH (s, &h->remote_addresses) {
            printf(" %s", s);
        }
        putchar('\n');
    }
    if (h->snap_index) {
        printf(" prev_index: %"PRIu64"\n", h->snap_index);
        printf(" prev_term: %"PRIu64"\n", h->snap_term);
        print_servers("prev_servers", h->snap_servers);
        if (!uuid_is_zero(&h->snap_eid)) {
            printf(" prev_eid: %04x\n", h->snap_eid.parts[0] >> 16);
        }
        print_raft_data("prev_", h->snap_data, schemap, names);
    }
}

static void
print_raft_record(const struct raft_record *r, struct ovsdb_schema **schemap,
                  struct smap *names)
{
    if (r->comment) {
        printf(" comment: \"%s\"\n", r->comment);
    }
    if (r->term) {
        printf(" term: %"PRIu64"\n", r->term);
    }
    switch (r->type) {
    case RAFT_REC_ENTRY:
        printf(" index: %"PRIu64"\n", r->index);
        print_servers("servers", r->entry.servers);
        if (!uuid_is_zero(&r->entry.eid)) {
            printf(" eid: %04x\n", r->entry.eid.parts[0] >> 16);
        }
        print_raft_data("", r->entry.data, schemap, names);
        break;
    case RAFT_REC_TERM:
        break;
    case RAFT_REC_VOTE:
        printf(" vote: %04x\n", r->sid.parts[0] >> 16);
        break;
    case RAFT_REC_NOTE:
        printf(" note: \"%s\"\n", r->note);
        break;
    case RAFT_REC_COMMIT_INDEX:
        printf(" commit_index: %"PRIu64"\n", r->commit_index);
        break;
    case RAFT_REC_LEADER:
        printf(" leader: %04x\n", r->sid.parts[0] >> 16);
        break;
    }
}

static void
show_log_cluster(struct ovsdb_log *log)
{
    struct ovsdb_schema *schema = NULL;
    struct smap names = SMAP_INITIALIZER(&names);
    for (unsigned int i = 0; ; i++) {
        json_t *json;
        ovsdb_error_check_fatal(ovsdb_log_read(log, &json));
        if (!json) {
            break;
        }
        printf("record %u:\n", i);
        struct ovsdb_error *error;
        if (!i) {
            struct raft_header h;
            error = raft_header_from_json(&h, json);
            if (!error) {
                print_raft_header(&h, &schema, &names);
                raft_header_uninit(&h);
            }
        } else {
            struct raft_record r;
            error = raft_record_from_json(&r, json);
            if (!error) {
                print_raft_record(&r, &schema, &names);
                raft_record_uninit(&r);
            }
        }
        if (error) {
            char *text = ovsdb_error_to_string_free(error);
            puts(text);
            free(text);
        }
        putchar('\n');
        json_decref(json);
    }
    smap_destroy(&names);
    ovsdb_schema_destroy(schema);
}

static void
do_show_log(struct ovs_cmdl_context *ctx)
{
    const char *db_name = arg_or(ctx, 1, default_db_name());
    if (is_clustered(db_name)) {
        struct ovsdb_log *clog;
        ovsdb_error_check_fatal(ovsdb_log_open(db_name, RAFT_MAGIC,
                                               OVSDB_LOG_READ_ONLY, -1,
                                               &clog));
        show_log_cluster(clog);
        ovsdb_log_close(clog);
        return;
    }
    struct ovsdb_log *log;
    ovsdb_error_check_fatal(ovsdb_log_open(db_name, OVSDB_MAGIC,
                                     OVSDB_LOG_READ_ONLY, -1, &log));

    struct ovsdb_schema *schema = NULL;
    struct smap names = SMAP_INITIALIZER(&names);
    for (unsigned int i = 0; ; i++) {
        json_t *json;
        struct ovsdb_error *error = ovsdb_log_read(log, &json);
        if (error) {
            ovsdb_error_check_fatal(error);
        }
        if (!json) {
            break;
        }

        printf("record %u:", i);
        if (i == 0) {
            error = ovsdb_schema_from_json(json, &schema);
            if (error) {
                json_decref(json);
                ovsdb_error_check_fatal(error);
            }
            printf(" \"%s\" schema, version=\"%s\", cksum=\"%s\"\n",
                   schema->name, schema->version ? schema->version : "",
                   schema->cksum ? schema->cksum : "");
        } else if (json_is_object(json)) {
            json_t *date = json_object_get(json, "_date");
            if (json_is_integer(date)) {
                print_date(json_integer_value(date));
            }
            json_t *comment = json_object_get(json, "_comment");
            if (json_is_string(comment)) {
                printf(" \"%s\"", json_string_value(comment));
            }
            if (show_log_verbosity > 0) {
                print_db_changes(json, &names, schema);
            }
        }
        putchar('\n');
        json_decref(json);
    }

    smap_destroy(&names);
    ovsdb_schema_destroy(schema);
    ovsdb_log_close(log);
}

/* create-cluster DB CONTENTS LOCAL */
static void
do_create_cluster(struct ovs_cmdl_context *ctx)
{
    const char *db_name = ctx->argv[1];
    const char *contents = ctx->argv[2];
    const char *local = ctx->argv[3];

    /* CONTENTS is a standalone database file (its data goes into the
     * cluster's first snapshot) or a schema. */
    struct ovsdb_log *log;
    struct ovsdb_error *error = ovsdb_log_open(contents, OVSDB_MAGIC,
                                               OVSDB_LOG_READ_ONLY, 0, &log);
    json_t *data;
    const char *name;
    struct ovsdb *db = NULL;
    struct ovsdb_schema *schema = NULL;
    if (!error) {
        ovsdb_log_close(log);
        ovsdb_error_check_fatal(ovsdb_file_read(contents, false, &db, NULL));
        data = raft_file_snapshot_data(db);
        name = db->schema->name;
    } else {
        ovsdb_error_destroy(error);
        schema = read_schema_file(contents);
        data = json_pack("[o, {}]", ovsdb_schema_to_json(schema));
        name = schema->name;
    }
    error = raft_file_create_cluster(db_name, name, local, data,
                                     election_timer);
    json_decref(data);
    if (db) {
        ovsdb_destroy(db);
    }
    ovsdb_schema_destroy(schema);
    ovsdb_error_check_fatal(error);
}

/* join-cluster DB NAME LOCAL REMOTE... */
static void
do_join_cluster(struct ovs_cmdl_context *ctx)
{
    struct sset remotes = SSET_INITIALIZER(&remotes);
    for (int i = 4; i < ctx->argc; i++) {
        sset_add(&remotes, ctx->argv[i]);
    }
    struct ovsdb_error *error = raft_file_join_cluster(
        ctx->argv[1], ctx->argv[2], ctx->argv[3], &remotes, join_cid);
    sset_destroy(&remotes);
    ovsdb_error_check_fatal(error);
}

/* cluster-to-standalone DB CLUSTER_DB */
static void
do_cluster_to_standalone(struct ovs_cmdl_context *ctx)
{
    const char *db_name = ctx->argv[1];
    const char *cluster_name = ctx->argv[2];
    if (!is_clustered(cluster_name)) {
        ovs_fatal(0, "Database is not clustered db.\n");
    }
    struct raft_file_contents c;
    ovsdb_error_check_fatal(raft_file_read(cluster_name, &c));
    struct ovsdb *db;
    struct ovsdb_error *error = raft_file_contents_to_db(&c, &db);
    raft_file_contents_destroy(&c);
    ovsdb_error_check_fatal(error);
    save_db(db_name, "converted from clustered", db);
    ovsdb_destroy(db);
}

/* check-cluster DB...
 *
 * Checks the Raft safety properties that the files of one cluster's
 * servers must have between them: one cluster id; in each file terms that
 * never go back and at most one vote per term; at most one leader per term
 * across the files; and, at every index committed anywhere, the same entry
 * in every file that has that index. */
struct check_server {
    const char *file_name;
    struct raft_file_contents c;
    uint64_t commit_index;
    uint64_t log_start;
    /* The entry at each index from LOG_START, last writer wins. */
    const struct raft_entry **entries;
    size_t n_entries;
};

static bool
entries_equal(const struct raft_entry *a, const struct raft_entry *b)
{
    return (a->term == b->term
            && uuid_equals(&a->eid, &b->eid)
            && (!a->data) == (!b->data)
            && (!a->data || json_equal(a->data, b->data))
            && (!a->servers) == (!b->servers)
            && (!a->servers || json_equal(a->servers, b->servers)));
}

static void
do_check_cluster(struct ovs_cmdl_context *ctx)
{
    size_t n = 0;
    struct check_server *servers = xcalloc(ctx->argc, sizeof *servers);
    const struct uuid *cid = NULL;
    const char *cid_file = NULL;
    bool ok = true;

    for (int i = 1; i < ctx->argc; i++) {
        struct check_server *s = &servers[n];
        s->file_name = ctx->argv[i];
        ovsdb_error_check_fatal(raft_file_read(s->file_name, &s->c));
        if (s->c.header.joining) {
            printf("%s has not joined the cluster, omitting\n", s->file_name);
            raft_file_contents_destroy(&s->c);
            continue;
        }
        if (cid && !uuid_equals(cid, &s->c.header.cid)) {
            ovs_fatal(0, "%s has cluster ID "UUID_FMT" but %s has cluster ID "
                      UUID_FMT, s->file_name, UUID_ARGS(&s->c.header.cid),
                      cid_file, UUID_ARGS(cid));
        }
        cid = &s->c.header.cid;
        cid_file = s->file_name;

        s->log_start = s->c.header.snap_index + 1;
        uint64_t term = 0;
        uint64_t vote_term = 0;
        struct uuid vote;
        uuid_zero(&vote);
        for (size_t j = 0; j < s->c.n_records; j++) {
            const struct raft_record *r = &s->c.records[j];
            if (r->type == RAFT_REC_COMMIT_INDEX) {
                if (r->commit_index > s->commit_index) {
                    s->commit_index = r->commit_index;
                }
                continue;
            }
            if (r->type == RAFT_REC_NOTE) {
                continue;
            }
            if (r->type != RAFT_REC_ENTRY) {
                if (r->term < term) {
                    printf("%s: record %zu has term %"PRIu64" after term "
                           "%"PRIu64"\n", s->file_name, j + 1, r->term, term);
                    ok = false;
                }
                term = MAX(term, r->term);
            }
            if (r->type == RAFT_REC_VOTE) {
                if (vote_term == r->term && !uuid_equals(&vote, &r->sid)) {
                    printf("%s: server voted twice in term %"PRIu64"\n",
                           s->file_name, r->term);
                    ok = false;
                }
                vote_term = r->term;
                vote = r->sid;
            } else if (r->type == RAFT_REC_ENTRY) {
                if (r->index < s->log_start) {
                    continue;
                }
                size_t k = r->index - s->log_start;
                if (k > s->n_entries) {
                    printf("%s: record %zu has index %"PRIu64" beyond the "
                           "end of the log\n", s->file_name, j + 1,
                           r->index);
                    ok = false;
                    continue;
                }
                if (k < s->n_entries && r->index <= s->commit_index) {
                    printf("%s: record %zu overwrites committed index "
                           "%"PRIu64"\n", s->file_name, j + 1, r->index);
                    ok = false;
                }
                s->n_entries = k + 1;
                s->entries = xrealloc(s->entries,
                                      s->n_entries * sizeof *s->entries);
                s->entries[k] = &r->entry;
            }
        }
        n++;
    }

    /* Leaders: at most one per term across all files. */
    for (size_t a = 0; a < n; a++) {
        for (size_t ra = 0; ra < servers[a].c.n_records; ra++) {
            const struct raft_record *x = &servers[a].c.records[ra];
            if (x->type != RAFT_REC_LEADER) {
                continue;
            }
            for (size_t b = a + 1; b < n; b++) {
                for (size_t rb = 0; rb < servers[b].c.n_records; rb++) {
                    const struct raft_record *y = &servers[b].c.records[rb];
                    if (y->type == RAFT_REC_LEADER && y->term == x->term
                        && !uuid_equals(&x->sid, &y->sid)) {
                        printf("term %"PRIu64" has two leaders: %s says "
                               UUID_FMT", %s says "UUID_FMT"\n", x->term,
                               servers[a].file_name, UUID_ARGS(&x->sid),
                               servers[b].file_name, UUID_ARGS(&y->sid));
                        ok = false;
                    }
                }
            }
        }
    }

    /* Committed entries agree. */
    for (size_t a = 0; a < n; a++) {
        const struct check_server *sa = &servers[a];
        for (size_t b = 0; b < n; b++) {
            const struct check_server *sb = &servers[b];
            if (a == b) {
                continue;
            }
            for (uint64_t idx = MAX(sa->log_start, sb->log_start);
                 idx <= sa->commit_index; idx++) {
                if (idx - sa->log_start >= sa->n_entries
                    || idx - sb->log_start >= sb->n_entries) {
                    break;
                }
                if (!entries_equal(sa->entries[idx - sa->log_start],
                                   sb->entries[idx - sb->log_start])) {
                    printf("%s and %s differ at index %"PRIu64", committed "
                           "in %s\n", sa->file_name, sb->file_name, idx,
                           sa->file_name);
                    ok = false;
                    break;
                }
            }
        }
    }

    for (size_t i = 0; i < n; i++) {
        free(servers[i].entries);
        raft_file_contents_destroy(&servers[i].c);
    }
    free(servers);
    if (!ok) {
        exit(EXIT_FAILURE);
    }
}

static void
do_help(struct ovs_cmdl_context *ctx OVS_UNUSED)
{
    usage();
}

static void
do_list_commands(struct ovs_cmdl_context *ctx OVS_UNUSED)
{
    ovs_cmdl_print_commands(get_all_commands());
}

static const struct ovs_cmdl_command all_commands[] = {
    { "create", "[db [schema]]", 0, 2, do_create },
    { "create-cluster", "db contents local", 3, 3, do_create_cluster },
    { "join-cluster", "db name local remote...", 4, INT_MAX,
      do_join_cluster },
    { "cluster-to-standalone", "db clusterdb", 2, 2,
      do_cluster_to_standalone },
    { "check-cluster", "db...", 1, INT_MAX, do_check_cluster },
    { "compact", "[db [dst]]", 0, 2, do_compact },
    { "convert", "[db [schema [dst]]]", 0, 3, do_convert },
    { "needs-conversion", "[db [schema]]", 0, 2, do_needs_conversion },
    { "db-name", "[db]",  0, 1, do_db_name },
    { "db-version", "[db]",  0, 1, do_db_version },
    { "db-cksum", "[db]", 0, 1, do_db_cksum },
    { "db-cid", "db", 1, 1, do_db_cid },
    { "db-sid", "db", 1, 1, do_db_sid },
    { "db-local-address", "db", 1, 1, do_db_local_address },
    { "db-is-clustered", "db", 1, 1, do_db_is_clustered },
    { "db-is-standalone", "db", 1, 1, do_db_is_standalone },
    { "schema-name", "[schema]", 0, 1, do_schema_name },
    { "schema-version", "[schema]", 0, 1, do_schema_version },
    { "schema-cksum", "[schema]", 0, 1, do_schema_cksum },
    { "compare-versions", "a op b", 3, 3, do_compare_versions },
    { "query", "[db] trns", 1, 2, do_query },
    { "transact", "[db] trns", 1, 2, do_transact },
    { "show-log", "[db]", 0, 1, do_show_log },
    { "help", NULL, 0, INT_MAX, do_help },
    { "list-commands", NULL, 0, INT_MAX, do_list_commands },
    { NULL, NULL, 0, 0, NULL },
};

static const struct ovs_cmdl_command *
get_all_commands(void)
{
    return all_commands;
}
