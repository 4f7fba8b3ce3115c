/* ovsdb-idl-private: the inside of the IDL, shared by its two source files
 * only: ovsdb-idl.c (session, replica, tracking) and ovsdb-idl-txn.c
 * (transactions).  Nobody else includes this.
 */
#ifndef OVSDB_IDL_PRIVATE_H
#define OVSDB_IDL_PRIVATE_H 1

#include <jansson.h>
#include "hmap.h"
#include "list.h"
#include "ovsdb-idl-provider.h"
#include "ovsdb-idl.h"
#include "ovsdb-server-status.h"
#include "uuid.h"

struct jsonrpc_msg;

struct ovsdb_idl_table {
    const struct ovsdb_idl_table_class *class_;
    struct ovsdb_idl *idl;
    unsigned char *modes;           /* Per column: OVSDB_IDL_* bits. */
    bool explicitly_added;          /* ovsdb_idl_add_table() was called. */
    bool in_server;                 /* The server's schema has the table. */
    unsigned long *server_columns;  /* Columns the server's schema has. */
    struct hmap rows;               /* struct ovsdb_idl_row, by uuid. */
    struct ovs_list track_list;     /* Rows changed since track_clear(). */
    json_t *condition;              /* Monitor "where", NULL for all rows. */
};

enum ovsdb_idl_state {
    IDL_S_DISCONNECTED,
    IDL_S_SERVER_REQUESTED,         /* Asked _Server about the database. */
    IDL_S_SCHEMA_REQUESTED,
    IDL_S_MONITOR_REQUESTED,
    IDL_S_MONITORING,
    IDL_S_NO_SCHEMA                 /* The server lacks our database. */
};

struct ovsdb_idl {
    const struct ovsdb_idl_class *class_;
    struct jsonrpc_session *session;        /* NULL until set_remote(). */
    unsigned int session_seqno;

    /* Choosing among servers (see "Servers" in ovsdb-idl.h): the server's
     * _Server row for our database, watched through a "monitor" of
     * _Server while connected. */
    bool leader_only;
    bool shuffle_remotes;
    bool typed_rows;        /* Rows' typed members are parsed (see
                             * ovsdb_idl_disable_typed_rows()). */
    json_t *server_monitor_id;              /* Of the _Server monitor. */
    bool have_server_row;
    struct uuid server_row_uuid;
    struct ovsdb_server_status server_status;
    struct ovsdb_server_memory server_memory;
    struct ovsdb_idl_table *tables;         /* One per class table. */

    enum ovsdb_idl_state state;
    json_t *request_id;                     /* get_schema or monitor. */
    int monitor_version;                    /* 3: monitor_cond_since, 2:
                                             * monitor_cond, 1: monitor. */
    int active_monitor_version;             /* Of the running monitor. */
    json_t *monitor_id;
    bool have_last_id;
    struct uuid last_id;                    /* monitor_cond_since resume. */

    unsigned int change_seqno;
    struct seq *change_seq;
    bool has_ever_connected;
    bool tracking;                          /* Any column tracked. */

    /* Conditions.  Each ovsdb_idl_set_condition() that changes something
     * is one generation (cond_gen).  A monitor request or
     * monitor_cond_change carries every table's current condition, so its
     * reply means that generation is in effect (cond_acked_gen, what
     * ovsdb_idl_get_condition_seqno() reports). */
    bool cond_changed;                      /* Not yet sent to the live
                                             * monitor. */
    unsigned int cond_gen;
    unsigned int cond_sent_gen;             /* Of the last request sent. */
    unsigned int cond_acked_gen;
    json_t *cond_request_id;                /* monitor_cond_change in
                                             * flight, or NULL. */

    char *lock_name;
    json_t *lock_request_id;
    bool has_lock;
    bool is_lock_contended;

    /* While one update message is applied, the rows that refer to rows it
     * inserts or deletes are collected here and re-parsed once at the end.
     * Re-parsing a referrer at every insert would make the initial load of
     * a bridge with N ports cost O(N^2): each port's arrival re-parsed the
     * bridge's whole "ports" column.  Slots of rows freed meanwhile are
     * NULL. */
    bool batching_reparse;
    struct ovsdb_idl_row **reparse;
    size_t n_reparse, allocated_reparse;

    struct ovsdb_idl_txn *txn;              /* Open transaction, or NULL. */
    struct hmap outstanding_txns;           /* Committed, awaiting reply. */
};

/* Internal services of ovsdb-idl.c used by ovsdb-idl-txn.c. */
struct ovsdb_idl_table *ovsdb_idl_table_from_class(
    const struct ovsdb_idl *, const struct ovsdb_idl_table_class *);
size_t ovsdb_idl_column_index(const struct ovsdb_idl_row *,
                              const struct ovsdb_idl_column *);
struct ovsdb_idl_row *ovsdb_idl_row_create__(struct ovsdb_idl_table *,
                                             const struct uuid *);
/* The row of TABLE with UUID, orphans included, or NULL. */
struct ovsdb_idl_row *ovsdb_idl_find_row(const struct ovsdb_idl_table *,
                                         const struct uuid *);
void ovsdb_idl_row_parse(struct ovsdb_idl_row *);
void ovsdb_idl_row_unparse(struct ovsdb_idl_row *);
void ovsdb_idl_row_free_datum(struct ovsdb_idl_row *, struct ovsdb_datum *);
void ovsdb_idl_row_free_new_datum(struct ovsdb_idl_row *);
void ovsdb_idl_row_destroy(struct ovsdb_idl_row *);
void ovsdb_idl_reparse_referrers(struct ovsdb_idl_row *);
void ovsdb_idl_row_gc(struct ovsdb_idl_row *);

/* Services of ovsdb-idl-txn.c used by ovsdb-idl.c. */
/* Applies MSG if it answers an outstanding transaction and returns that
 * transaction; otherwise returns NULL. */
const struct ovsdb_idl_txn *ovsdb_idl_txn_process_reply(
    struct ovsdb_idl *, const struct jsonrpc_msg *);
void ovsdb_idl_txn_abort_all(struct ovsdb_idl *);

#endif /* ovsdb-idl-private.h */
