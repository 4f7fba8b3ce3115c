/* ovsdb-monitor-shape: what one monitor watches in one database, and the
 * JSON of the updates it gets.  Private to the monitor code (monitor.c,
 * monitor-history.c).
 *
 * A shape is, per table, the columns (each with the kinds of change,
 * "select", it is wanted for), the union of those selects, and the
 * monitor_cond condition.  Every monitor with the same shape gets the same
 * table-updates for a commit, so monitor.c keeps one shape per distinct
 * value (interned by mon_shape_key()) shared by all its monitors, composes
 * each commit's updates once per shape and format, and hands the same JSON
 * (by reference count) to every session.
 *
 * Two formats: MON_FMT_V1 is RFC 7047's "update" ("old"/"new" per row);
 * MON_FMT_V2 is Open vSwitch's "update2"/"update3" ("initial", "insert",
 * "delete" or "modify" per row, modify carrying ovsdb_datum_diff() values,
 * default values left out of initial and insert).
 *
 * What counts as a change follows Open vSwitch 3.1 so that clients see the
 * same messages: a modify is sent when one of the table's monitored columns
 * or of the columns its condition reads changed, even if none of those it
 * reports is selected for "modify" (then the row's update is empty).  A
 * condition that is empty or contains "true" selects every row (as an
 * empty "where" does in Open vSwitch); otherwise a row is selected if it
 * matches some clause, and a modify that moves a row into or out of the
 * selection becomes an insert or a delete.
 *
 * Ownership: a shape owns its tables, their column arrays and conditions;
 * table and column pointers are borrowed from the database, which outlives
 * the shape.  struct mon_changes borrows the rows it lists and owns the
 * copies of "changed" bitmaps.  Every json_t returned is a new reference.
 */
#ifndef OVSDB_MONITOR_SHAPE_H
#define OVSDB_MONITOR_SHAPE_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "condition.h"
#include "hmap.h"
#include "list.h"

struct ovsdb_column;
struct ovsdb_row;
struct ovsdb_table;
struct uuid;

/* Kinds of change ("select" of a monitor request). */
enum {
    MON_INITIAL = 1 << 0,
    MON_INSERT = 1 << 1,
    MON_DELETE = 1 << 2,
    MON_MODIFY = 1 << 3,
    MON_SELECT_ALL = MON_INITIAL | MON_INSERT | MON_DELETE | MON_MODIFY
};

enum mon_format {
    MON_FMT_V1,                 /* "update". */
    MON_FMT_V2,                 /* "update2" and "update3". */
    MON_N_FORMATS
};

struct mon_column {
    const struct ovsdb_column *column;
    unsigned int select;        /* MON_* bits. */
};

struct mon_table {
    const struct ovsdb_table *table;
    unsigned int select;        /* Union of the columns' selects. */
    struct mon_column *columns; /* Sorted by column index. */
    size_t n_columns, allocated_columns;
    struct ovsdb_condition condition;
    bool all_rows;              /* Condition selects every row. */
    unsigned long *relevant;    /* Bitmap by column index: monitored columns
                                 * plus those the condition reads. */
};

void mon_table_init(struct mon_table *, const struct ovsdb_table *);
void mon_table_destroy(struct mon_table *);
/* Adds COLUMN with SELECT; false if it is already there. */
bool mon_table_add_column(struct mon_table *, const struct ovsdb_column *,
                          unsigned int select);
/* Replaces the table's condition by a copy of COND. */
void mon_table_set_condition(struct mon_table *,
                             const struct ovsdb_condition *cond);
/* Sorts the columns and computes the derived fields; call once all columns
 * and the condition are set. */
void mon_table_finish(struct mon_table *);
void mon_table_clone(struct mon_table *dst, const struct mon_table *src);
/* True if the table's condition selects ROW. */
bool mon_table_selects(const struct mon_table *, const struct ovsdb_row *);

struct mon_shape {
    struct hmap_node node;      /* In the database's shapes, by key hash. */
    char *key;                  /* Canonical text (mon_shape_key()). */
    struct mon_table *tables;   /* Sorted by table name. */
    size_t n_tables;
    struct ovs_list monitors;   /* Monitors with this shape (monitor.c). */
    json_t *initial[MON_N_FORMATS];     /* Cached initial contents (or
                                         * NULL), valid until the next
                                         * commit. */
    /* A commit's updates, while monitor.c sends them. */
    json_t *updates[MON_N_FORMATS];
    bool composed[MON_N_FORMATS];
};

/* A new shape that takes over TABLES (N of them; an xmalloc'd array). */
struct mon_shape *mon_shape_create(struct mon_table *tables, size_t n);
void mon_shape_destroy(struct mon_shape *);
/* Canonical text of the shape: equal for equal shapes. */
char *mon_shape_key(const struct mon_table *tables, size_t n);
struct mon_table *mon_shape_find_table(const struct mon_shape *,
                                       const struct ovsdb_table *);
void mon_shape_forget_initial(struct mon_shape *);

/* The changes of one commit (or of several, merged), grouped by table. */
struct mon_change {
    const struct ovsdb_row *old;        /* NULL for an insert. */
    const struct ovsdb_row *new;        /* NULL for a delete. */
    unsigned long *changed;             /* Owned bitmap by column index, or
                                         * NULL to compare values. */
};

struct mon_table_changes {
    struct hmap_node node;      /* In mon_changes->tables. */
    const struct ovsdb_table *table;
    struct mon_change *changes;
    size_t n_changes, allocated_changes;
};

struct mon_changes {
    struct hmap tables;         /* struct mon_table_changes. */
    size_t n_changes;
};

void mon_changes_init(struct mon_changes *);
void mon_changes_destroy(struct mon_changes *);
/* Adds a change of a row of TABLE.  CHANGED (may be NULL) is copied. */
void mon_changes_add(struct mon_changes *, const struct ovsdb_table *,
                     const struct ovsdb_row *old, const struct ovsdb_row *new,
                     const unsigned long *changed);
const struct mon_table_changes *mon_changes_find(const struct mon_changes *,
                                                 const struct ovsdb_table *);

/* Table-updates for CHANGES, or NULL if the shape selects none of them. */
json_t *mon_shape_compose_changes(const struct mon_shape *, enum mon_format,
                                  const struct mon_changes *);
/* Table-updates with the current contents ("initial"), or NULL if empty;
 * cached in the shape until mon_shape_forget_initial(). */
json_t *mon_shape_compose_initial(struct mon_shape *, enum mon_format);
/* "update2" table-updates that take a client from what OLD selects to what
 * NEW selects (the same tables and columns, other conditions): deletes for
 * rows only OLD selects, inserts for rows only NEW selects.  NULL if
 * none. */
json_t *mon_shape_compose_cond_change(const struct mon_shape *old,
                                      const struct mon_shape *new);

#endif /* ovsdb/monitor-shape.h */
