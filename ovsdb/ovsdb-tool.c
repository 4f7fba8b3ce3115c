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
#include "row.h"
#include "server.h"
#include "shash.h"
#include "smap.h"
#include "table.h"
#include "transaction.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_tool);

/* -m, --more: how much "show-log" prints about each record. */
static int show_log_verbosity;

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
        VLOG_OPTION_ENUMS
    };
    static const struct option long_options[] = {
        {"more", no_argument, NULL, 'm'},
        {"rbac-role", required_argument, NULL, OPT_RBAC_ROLE},
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
           "  compact [DB [DST]]      compact DB in-place (or to DST)\n"
           "  convert [DB [SCHEMA [DST]]]   convert DB to SCHEMA (to DST)\n"
           "  needs-conversion [DB [SCHEMA]]  "
           "does DB need conversion to SCHEMA?\n"
           "  db-name [DB]            report name of schema used by DB\n"
           "  db-version [DB]         report version of schema used by DB\n"
           "  db-cksum [DB]           report checksum of schema used by DB\n"
           "  db-is-clustered DB      test whether DB is clustered\n"
           "  db-is-standalone DB     test whether DB is standalone\n"
           "  schema-name [SCHEMA]    report SCHEMA's name\n"
           "  schema-version [SCHEMA] report SCHEMA's schema version\n"
           "  schema-cksum [SCHEMA]   report SCHEMA's checksum\n"
           "  compare-versions A OP B  compare OVSDB schema version numbers\n"
           "  query [DB] TRNS         execute read-only transaction on DB\n"
           "  transact [DB] TRNS      execute read/write transaction on DB\n"
           "  [-m]... show-log [DB]   print DB's log entries\n"
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

static void
do_show_log(struct ovs_cmdl_context *ctx)
{
    const char *db_name = arg_or(ctx, 1, default_db_name());
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
    { "compact", "[db [dst]]", 0, 2, do_compact },
    { "convert", "[db [schema [dst]]]", 0, 3, do_convert },
    { "needs-conversion", "[db [schema]]", 0, 2, do_needs_conversion },
    { "db-name", "[db]",  0, 1, do_db_name },
    { "db-version", "[db]",  0, 1, do_db_version },
    { "db-cksum", "[db]", 0, 1, do_db_cksum },
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
