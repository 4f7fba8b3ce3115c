/* vsctl: the inside of ovs-vsctl, shared by its source files.
 *
 * ovs-vsctl turns a command line such as
 *
 *     ovs-vsctl --no-wait -- add-br br0 -- set Bridge br0 stp_enable=true
 *
 * into one OVSDB transaction against the Open_vSwitch database, prints what
 * the commands asked to print, and (without --no-wait) waits until
 * ovs-vswitchd has applied the change.  The files split the work:
 *
 *   ovs-vsctl.c      main(): global options, the connect/run/commit loop,
 *                    printing, waiting for ovs-vswitchd.
 *   vsctl-parse.c    splitting the command line at "--" into commands with
 *                    their own options, and checking them against the
 *                    command table.
 *   vsctl-db.c       the generic database commands (list, find, get, set,
 *                    add, remove, clear, create, destroy, wait-until) and
 *                    the lookups they share: tables and columns by
 *                    (abbreviated) name, rows by uuid or by name, and the
 *                    "column:key=value" arguments.
 *   vsctl-bridge.c   bridges, ports and interfaces, over a cache of who
 *                    belongs to whom built once per transaction attempt.
 *   vsctl-misc.c     controllers, managers, SSL, fail-mode, Auto Attach,
 *                    init, show, emer-reset.
 *   vsctl-dp.c       datapath capabilities and conntrack zone timeout
 *                    policies.
 *
 * Everything reads and writes the database through the generic IDL
 * functions (ovsdb_idl_read(), ovsdb_idl_txn_write() ...) with tables and
 * columns looked up by name in ovsrec_idl_class, so that the generic
 * commands and the bridge commands share one way of doing things.  Sets
 * that may be large (Bridge.ports, Port.interfaces, Open_vSwitch.bridges)
 * are changed with partial updates, which go to the server as mutations
 * whose size does not depend on the size of the set.
 *
 * Replication: the IDL replicates only what this call's commands use.
 * Before the replica is fetched, each command's prerequisites hook names,
 * given its arguments, the tables and columns it reads or writes (a
 * column that is written must be replicated too: the IDL compares a write
 * with the replica's value, and sends nothing if they are equal), so that
 * on a bridge with thousands of ports "add-port" does not receive every
 * column of every Interface.  A hook skips what it cannot make sense of
 * (an unknown table or column): the command then reports it when it runs,
 * so errors come out as and in the order they always did.
 *
 * Errors are fatal: vsctl_fatal() prints "ovs-vsctl: MESSAGE" and exits 1,
 * as Open vSwitch's ovs-vsctl does; nothing has been committed by then.
 *
 * Memory: a command's strings (argv, option values) belong to its struct
 * vsctl_command for the life of the process.  Rows belong to the IDL.
 */
#ifndef VSCTL_H
#define VSCTL_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "dynamic-string.h"
#include "ovsdb-data.h"
#include "ovsdb-idl.h"
#include "ovsdb-idl-provider.h"
#include "shash.h"
#include "util.h"

struct table;
struct vsctl_context;

#ifndef CONST_CAST
#define CONST_CAST(TYPE, POINTER) ((TYPE) (uintptr_t) (POINTER))
#endif
#ifndef OVS_NOT_REACHED
#define OVS_NOT_REACHED() abort()
#endif

/* One entry of the command table. */
struct vsctl_command_syntax {
    const char *name;
    int min_args, max_args;
    const char *arguments;          /* For --help. */
    /* Names what the command reads and writes (the vsctl_need_*()
     * functions), before the replica is fetched: the context has the
     * command's arguments and options and the IDL, no transaction, no
     * rows.  NULL: the command needs nothing beyond what every call
     * replicates (Open_vSwitch's bridges, next_cfg and cur_cfg). */
    void (*prerequisites)(struct vsctl_context *);
    void (*run)(struct vsctl_context *);
    /* Runs after a successful commit (e.g. to print the uuids the server
     * gave to inserted rows), or NULL. */
    void (*postprocess)(struct vsctl_context *);
    /* Comma-separated options, each "--name" or "--name=" (takes a
     * value), e.g. "--if-exists,--id=". */
    const char *options;
    bool read_write;
};

/* One command of the command line. */
struct vsctl_command {
    const struct vsctl_command_syntax *syntax;
    int argc;
    char **argv;
    struct shash options;           /* "--name" -> value (char *) or NULL. */

    /* What the command printed in the current transaction attempt. */
    struct ds output;
    struct table *table;
};

/* What a running command sees. */
struct vsctl_context {
    int argc;
    char **argv;
    struct shash *options;
    struct ds *output;
    struct table **table;
    struct vsctl_command *command;
    /* The command is the call's last: nothing after it reads what it
     * wrote. */
    bool last_command;

    struct ovsdb_idl *idl;
    struct ovsdb_idl_txn *txn;
    struct ovsdb_symbol_table *symtab;
    const struct ovsdb_idl_row *ovs;        /* The Open_vSwitch row. */

    /* Set by a command that must wait for the database to change (e.g.
     * wait-until): the whole transaction is then retried. */
    bool try_again;

    /* The bridge/port/interface cache (vsctl-bridge.c). */
    bool cache_valid;
    struct shash bridges;           /* Name -> struct vsctl_bridge *. */
    struct shash ports;             /* Name -> struct vsctl_port *. */
    struct shash ifaces;            /* Name -> struct vsctl_iface *. */
};

/* Command tables of each file, terminated by a NULL name.  vsctl-misc.c
 * has three, after sections of Open vSwitch's --help: "ovs" (init, show),
 * "misc" (controllers to Auto Attach) and "switch" (emer-reset). */
extern const struct vsctl_command_syntax vsctl_db_commands[];
extern const struct vsctl_command_syntax vsctl_bridge_commands[];
extern const struct vsctl_command_syntax vsctl_ovs_commands[];
extern const struct vsctl_command_syntax vsctl_misc_commands[];
extern const struct vsctl_command_syntax vsctl_switch_commands[];
extern const struct vsctl_command_syntax vsctl_dp_commands[];

const struct vsctl_command_syntax *vsctl_find_command(const char *name);

/* Global option values that commands look at. */
extern bool vsctl_wait_for_reload;
/* Asks for IFACE (a row this transaction inserts) to be checked once
 * ovs-vswitchd has applied the change: if it could not set it up, say so
 * on stderr, as Open vSwitch's ovs-vsctl does after add-port/add-bond. */
void vsctl_expect_iface_setup(const struct ovsdb_idl_row *iface);

/* Prerequisites (ovs-vsctl.c unless noted).  Each adds to what the IDL
 * replicates; tables and columns are the schema's exact names. */
/* The rows of TABLE (by uuid), with at least one column. */
void vsctl_need_table(struct vsctl_context *,
                      const struct ovsdb_idl_table_class *);
void vsctl_need_column(struct vsctl_context *,
                       const struct ovsdb_idl_column *);
/* The same, by name. */
void vsctl_need(struct vsctl_context *, const char *table,
                const char *column);
void vsctl_need_all_columns(struct vsctl_context *,
                            const struct ovsdb_idl_table_class *);
/* vsctl-db.c: what vsctl_get_row() reads to find a row of TABLE by uuid or
 * by name. */
void vsctl_need_row_lookup(struct vsctl_context *,
                           const struct ovsdb_idl_table_class *);
/* vsctl-db.c: what "set TABLE ROW ARG..." needs for the "COLUMN[:KEY]=
 * VALUE" arguments ARGS (add-port and add-bond take them for the new
 * Port). */
void vsctl_need_set_columns(struct vsctl_context *,
                            const struct ovsdb_idl_table_class *,
                            char *const *args, int n_args);
/* vsctl-bridge.c: what vsctl_cache_populate() reads. */
void vsctl_need_bridge_cache(struct vsctl_context *);

/* vsctl-parse.c. */
struct vsctl_command *vsctl_parse_commands(int argc, char *argv[],
                                           struct shash *local_options,
                                           size_t *n_commands);
void vsctl_command_destroy(struct vsctl_command *);

/* Errors. */
noreturn void vsctl_fatal(const char *format, ...) OVS_PRINTF_FORMAT(1, 2);
/* Frees ERROR; fatal if nonnull. */
void vsctl_die_if_error(char *error);

/* Schema lookups (vsctl-db.c).  Names are the schema's exact names. */
const struct ovsdb_idl_table_class *vsctl_table(const char *name);
const struct ovsdb_idl_column *vsctl_column(
    const struct ovsdb_idl_table_class *, const char *name);
#define VS_TABLE(NAME) vsctl_table(NAME)
#define VS_COL(TABLE, NAME) vsctl_column(vsctl_table(TABLE), NAME)

/* Rows (vsctl-db.c). */
const struct ovsdb_idl_row *vsctl_first(const struct ovsdb_idl *,
                                        const char *table);
const struct ovsdb_idl_row *vsctl_next(const struct ovsdb_idl_row *);
#define VSCTL_FOR_EACH(ROW, TABLE, IDL)                                 \
    for ((ROW) = vsctl_first(IDL, TABLE); (ROW); (ROW) = vsctl_next(ROW))

/* Reading a column of ROW by name. */
const struct ovsdb_datum *vsctl_read(const struct ovsdb_idl_row *,
                                     const char *column);
/* The string of a string column, "" if empty. */
const char *vsctl_read_string(const struct ovsdb_idl_row *,
                              const char *column);
/* The first integer of an integer column into *VALUE; false if empty. */
bool vsctl_read_integer(const struct ovsdb_idl_row *, const char *column,
                        int64_t *value);
bool vsctl_read_bool(const struct ovsdb_idl_row *, const char *column);
/* The value of KEY in a string map column, or NULL. */
const char *vsctl_read_map_value(const struct ovsdb_idl_row *,
                                 const char *column, const char *key);
/* The row that element IDX of reference column COLUMN of ROW names, or
 * NULL. */
const struct ovsdb_idl_row *vsctl_read_ref(const struct ovsdb_idl_row *,
                                           const char *column, size_t idx);

/* Writing. */
void vsctl_write_string(const struct ovsdb_idl_row *, const char *column,
                        const char *value);
void vsctl_write_integer(const struct ovsdb_idl_row *, const char *column,
                         int64_t value);
void vsctl_write_bool(const struct ovsdb_idl_row *, const char *column,
                      bool value);
/* Sets an optional string column to VALUE, or empties it if NULL. */
void vsctl_write_opt_string(const struct ovsdb_idl_row *, const char *column,
                            const char *value);
/* Sets a reference column to the N rows in ROWS. */
void vsctl_write_refs(const struct ovsdb_idl_row *, const char *column,
                      const struct ovsdb_idl_row **rows, size_t n);
void vsctl_clear_column(const struct ovsdb_idl_row *, const char *column);
/* Adds or removes one reference (or uuid) in a set column, as a partial
 * update. */
void vsctl_add_ref(const struct ovsdb_idl_row *, const char *column,
                   const struct ovsdb_idl_row *ref);
void vsctl_remove_ref(const struct ovsdb_idl_row *, const char *column,
                      const struct ovsdb_idl_row *ref);
/* Sets or removes KEY in a string-to-string map column, as a partial
 * update (VALUE NULL: remove). */
void vsctl_set_map_key(const struct ovsdb_idl_row *, const char *column,
                       const char *key, const char *value);

/* Prints, for --help, how each table's rows may be named. */
void vsctl_print_row_id_usage(void);

/* Looks up a row of TABLE by uuid (or an unambiguous uuid prefix of at
 * least 4 digits) or by the table's naming rule (Bridge and Port and
 * Interface by name, Controller by bridge name, "." for the Open_vSwitch
 * row...).  MUST_EXIST makes a miss fatal ("no row ... in table ..."). */
const struct ovsdb_idl_row *vsctl_get_row(
    struct vsctl_context *, const struct ovsdb_idl_table_class *,
    const char *record_id, bool must_exist);

/* vsctl-bridge.c: the cache. */
struct vsctl_bridge {
    const struct ovsdb_idl_row *br_cfg;     /* Bridge row; for a fake
                                             * bridge, its Port row. */
    char *name;
    struct vsctl_bridge *parent;            /* Fake bridges only. */
    int vlan;                               /* Fake bridges only. */
    struct shash ports;                     /* Name -> vsctl_port *. */
    struct shash children;                  /* Fake bridges under it. */
};

/* A port or interface that more than one bridge or port lists (a broken
 * database, which Open vSwitch's ovs-vsctl warns about and tolerates)
 * belongs in the cache to the first that lists it, in uuid order, and is
 * "shared": deleting it from there only drops that reference, as the row
 * must stay for the others. */
struct vsctl_port {
    const struct ovsdb_idl_row *port_cfg;
    struct vsctl_bridge *bridge;
    struct shash ifaces;                    /* Name -> vsctl_iface *. */
    bool shared;
};

struct vsctl_iface {
    const struct ovsdb_idl_row *iface_cfg;
    struct vsctl_port *port;
    bool shared;
};

void vsctl_context_init(struct vsctl_context *, struct vsctl_command *,
                        struct ovsdb_idl *, struct ovsdb_idl_txn *,
                        struct ovsdb_symbol_table *,
                        const struct ovsdb_idl_row *ovs);
void vsctl_context_done(struct vsctl_context *);
void vsctl_cache_populate(struct vsctl_context *);
/* Drops the cache (after a generic command changed the database under
 * it). */
void vsctl_cache_invalidate(struct vsctl_context *);
/* Drops the cache if COLUMN of table TC, which a generic command just
 * wrote, is one the cache is built from (bridge, port and interface names
 * and membership, VLAN tags, fake bridges).  Other writes leave it valid:
 * one call of "add-port ... -- set Interface ... type=..." for every port
 * of a large bridge must not rebuild the cache once per command. */
void vsctl_cache_note_write(struct vsctl_context *,
                            const struct ovsdb_idl_table_class *tc,
                            const struct ovsdb_idl_column *column);
struct vsctl_bridge *vsctl_find_bridge(struct vsctl_context *,
                                       const char *name, bool must_exist);
struct vsctl_bridge *vsctl_find_real_bridge(struct vsctl_context *,
                                            const char *name,
                                            bool must_exist);

/* vsctl-misc.c: "show" needs no more than the generic reads. */

#endif /* vsctl.h */
