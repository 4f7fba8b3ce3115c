/* The composition of update JSON for monitors: see monitor-shape.h. */
#include <config.h>
#include "monitor-shape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bitmap.h"
#include "dynamic-string.h"
#include "hash.h"
#include "ovsdb-data.h"
#include "ovsdb-schema.h"
#include "row.h"
#include "table.h"
#include "util.h"
#include "uuid.h"

/* Tables. */

void
mon_table_init(struct mon_table *mt, const struct ovsdb_table *table)
{
    memset(mt, 0, sizeof *mt);
    mt->table = table;
    ovsdb_condition_init(&mt->condition);
    mt->all_rows = true;
}

void
mon_table_destroy(struct mon_table *mt)
{
    if (mt) {
        free(mt->columns);
        ovsdb_condition_destroy(&mt->condition);
        bitmap_free(mt->relevant);
        mt->columns = NULL;
        mt->relevant = NULL;
    }
}

bool
mon_table_add_column(struct mon_table *mt, const struct ovsdb_column *column,
                     unsigned int select)
{
    for (size_t i = 0; i < mt->n_columns; i++) {
        if (mt->columns[i].column == column) {
            return false;
        }
    }
    if (mt->n_columns >= mt->allocated_columns) {
        mt->columns = x2nrealloc(mt->columns, &mt->allocated_columns,
                                 sizeof *mt->columns);
    }
    mt->columns[mt->n_columns++] = (struct mon_column) { column, select };
    mt->select |= select;
    return true;
}

void
mon_table_set_condition(struct mon_table *mt,
                        const struct ovsdb_condition *cond)
{
    ovsdb_condition_destroy(&mt->condition);
    ovsdb_condition_clone(&mt->condition, cond);
}

static int
compare_mon_columns(const void *a_, const void *b_)
{
    unsigned int a = ((const struct mon_column *) a_)->column->index;
    unsigned int b = ((const struct mon_column *) b_)->column->index;
    return (a > b) - (a < b);
}

void
mon_table_finish(struct mon_table *mt)
{
    const struct ovsdb_table_schema *ts = mt->table->schema;

    /* A monitor may watch no columns at all (ovs-vsctl watches some tables
     * only for their rows), and qsort() must not see a null array. */
    if (mt->n_columns) {
        qsort(mt->columns, mt->n_columns, sizeof *mt->columns,
              compare_mon_columns);
    }

    bitmap_free(mt->relevant);
    mt->relevant = bitmap_allocate(ts->n_columns);
    for (size_t i = 0; i < mt->n_columns; i++) {
        bitmap_set1(mt->relevant, mt->columns[i].column->index);
    }
    for (size_t i = 0; i < mt->condition.n_clauses; i++) {
        const struct ovsdb_column *c = mt->condition.clauses[i].column;
        if (c) {
            bitmap_set1(mt->relevant, c->index);
        }
    }
    /* An empty "where" selects every row, as in Open vSwitch. */
    mt->all_rows = (ovsdb_condition_is_empty(&mt->condition)
                    || ovsdb_condition_is_true(&mt->condition));
}

void
mon_table_clone(struct mon_table *dst, const struct mon_table *src)
{
    size_t n_longs = bitmap_n_longs(src->table->schema->n_columns);

    *dst = *src;
    dst->columns = xmemdup(src->columns,
                           MAX(src->n_columns, 1) * sizeof *src->columns);
    dst->allocated_columns = MAX(src->n_columns, 1);
    ovsdb_condition_clone(&dst->condition, &src->condition);
    dst->relevant = src->relevant
                    ? xmemdup(src->relevant, n_longs * sizeof *src->relevant)
                    : NULL;
}

bool
mon_table_selects(const struct mon_table *mt, const struct ovsdb_row *row)
{
    return mt->all_rows || ovsdb_condition_match_any(row, &mt->condition);
}

/* Shapes. */

struct mon_shape *
mon_shape_create(struct mon_table *tables, size_t n)
{
    struct mon_shape *shape = xzalloc(sizeof *shape);
    shape->tables = tables;
    shape->n_tables = n;
    shape->key = mon_shape_key(tables, n);
    ovs_list_init(&shape->monitors);
    return shape;
}

void
mon_shape_destroy(struct mon_shape *shape)
{
    if (shape) {
        for (size_t i = 0; i < shape->n_tables; i++) {
            mon_table_destroy(&shape->tables[i]);
        }
        free(shape->tables);
        free(shape->key);
        mon_shape_forget_initial(shape);
        for (int i = 0; i < MON_N_FORMATS; i++) {
            json_decref(shape->updates[i]);
        }
        free(shape);
    }
}

char *
mon_shape_key(const struct mon_table *tables, size_t n)
{
    struct ds key = DS_EMPTY_INITIALIZER;

    for (size_t i = 0; i < n; i++) {
        const struct mon_table *mt = &tables[i];

        ds_put_format(&key, "%s:%u:", mt->table->schema->name, mt->select);
        for (size_t j = 0; j < mt->n_columns; j++) {
            ds_put_format(&key, "%u/%u,", mt->columns[j].column->index,
                          mt->columns[j].select);
        }
        if (mt->all_rows) {
            ds_put_cstr(&key, "*");
        } else {
            json_t *cond = ovsdb_condition_to_json(&mt->condition);
            char *s = json_dumps(cond, JSON_COMPACT | JSON_SORT_KEYS
                                       | JSON_ENCODE_ANY);
            ds_put_cstr(&key, s ? s : "?");
            free(s);
            json_decref(cond);
        }
        ds_put_char(&key, ';');
    }
    return ds_steal_cstr(&key);
}

struct mon_table *
mon_shape_find_table(const struct mon_shape *shape,
                     const struct ovsdb_table *table)
{
    for (size_t i = 0; i < shape->n_tables; i++) {
        if (shape->tables[i].table == table) {
            return &shape->tables[i];
        }
    }
    return NULL;
}

void
mon_shape_forget_initial(struct mon_shape *shape)
{
    for (int i = 0; i < MON_N_FORMATS; i++) {
        json_decref(shape->initial[i]);
        shape->initial[i] = NULL;
    }
}

/* Changes. */

void
mon_changes_init(struct mon_changes *changes)
{
    hmap_init(&changes->tables);
    changes->n_changes = 0;
}

void
mon_changes_destroy(struct mon_changes *changes)
{
    struct mon_table_changes *tc;

    HMAP_FOR_EACH_POP (tc, node, &changes->tables) {
        for (size_t i = 0; i < tc->n_changes; i++) {
            bitmap_free(tc->changes[i].changed);
        }
        free(tc->changes);
        free(tc);
    }
    hmap_destroy(&changes->tables);
}

static struct mon_table_changes *
find_table_changes(const struct mon_changes *changes,
                   const struct ovsdb_table *table)
{
    struct mon_table_changes *tc;

    HMAP_FOR_EACH_WITH_HASH (tc, node, hash_pointer(table, 0),
                             &changes->tables) {
        if (tc->table == table) {
            return tc;
        }
    }
    return NULL;
}

const struct mon_table_changes *
mon_changes_find(const struct mon_changes *changes,
                 const struct ovsdb_table *table)
{
    return find_table_changes(changes, table);
}

void
mon_changes_add(struct mon_changes *changes, const struct ovsdb_table *table,
                const struct ovsdb_row *old, const struct ovsdb_row *new,
                const unsigned long *changed)
{
    struct mon_table_changes *tc = find_table_changes(changes, table);
    if (!tc) {
        tc = xzalloc(sizeof *tc);
        tc->table = table;
        hmap_insert(&changes->tables, &tc->node, hash_pointer(table, 0));
    }
    if (tc->n_changes >= tc->allocated_changes) {
        tc->changes = x2nrealloc(tc->changes, &tc->allocated_changes,
                                 sizeof *tc->changes);
    }

    struct mon_change *ch = &tc->changes[tc->n_changes++];
    ch->old = old;
    ch->new = new;
    ch->changed = NULL;
    if (changed) {
        size_t n_longs = bitmap_n_longs(table->schema->n_columns);
        ch->changed = xmemdup(changed, n_longs * sizeof *changed);
    }
    changes->n_changes++;
}

/* Composition. */

/* The kind of change (a MON_* bit, 0 for none) that the change from OLD to
 * NEW is for a client of MT: a row entering or leaving the selection is an
 * insert or a delete. */
static unsigned int
row_change_type(const struct mon_table *mt, const struct ovsdb_row *old,
                const struct ovsdb_row *new, bool initial)
{
    unsigned int type = (initial ? MON_INITIAL
                         : !old ? MON_INSERT
                         : !new ? MON_DELETE
                         : MON_MODIFY);
    if (mt->all_rows) {
        return type;
    }

    bool old_in = old && mon_table_selects(mt, old);
    bool new_in = new && mon_table_selects(mt, new);
    switch (type) {
    case MON_INITIAL:
    case MON_INSERT:
        return new_in ? type : 0;
    case MON_DELETE:
        return old_in ? type : 0;
    default:
        return (old_in ? (new_in ? MON_MODIFY : MON_DELETE)
                : new_in ? MON_INSERT : 0);
    }
}

static bool
column_changed(const struct mon_change *ch, const struct ovsdb_column *c)
{
    return (ch->changed
            ? bitmap_is_set(ch->changed, c->index)
            : !ovsdb_datum_equals(&ch->old->fields[c->index],
                                  &ch->new->fields[c->index], &c->type));
}

/* True if a column that MT monitors or whose value its condition reads
 * changed. */
static bool
relevant_columns_changed(const struct mon_table *mt,
                         const struct mon_change *ch)
{
    const struct ovsdb_table_schema *ts = mt->table->schema;

    if (ch->changed) {
        size_t n_longs = bitmap_n_longs(ts->n_columns);
        for (size_t i = 0; i < n_longs; i++) {
            if (ch->changed[i] & mt->relevant[i]) {
                return true;
            }
        }
        return false;
    }
    for (size_t i = 0; i < ts->n_columns; i++) {
        if (bitmap_is_set(mt->relevant, i)
            && column_changed(ch, ts->columns_by_index[i])) {
            return true;
        }
    }
    return false;
}

static json_t *
compose_row_v1(const struct mon_table *mt, const struct mon_change *ch,
               unsigned int type)
{
    json_t *row = json_object();
    json_t *old_json = NULL, *new_json = NULL;

    if (type & (MON_DELETE | MON_MODIFY)) {
        old_json = json_object();
        json_object_set_new(row, "old", old_json);
    }
    if (type & (MON_INITIAL | MON_INSERT | MON_MODIFY)) {
        new_json = json_object();
        json_object_set_new(row, "new", new_json);
    }
    for (size_t i = 0; i < mt->n_columns; i++) {
        const struct mon_column *mc = &mt->columns[i];
        const struct ovsdb_column *c = mc->column;

        if (!(type & mc->select)) {
            continue;
        }
        if (type == MON_DELETE
            || (type == MON_MODIFY && column_changed(ch, c))) {
            json_object_set_new(old_json, c->name,
                                ovsdb_datum_to_json(&ch->old->fields[c->index],
                                                    &c->type));
        }
        if (new_json) {
            json_object_set_new(new_json, c->name,
                                ovsdb_datum_to_json(&ch->new->fields[c->index],
                                                    &c->type));
        }
    }
    return row;
}

static json_t *
compose_row_v2(const struct mon_table *mt, const struct mon_change *ch,
               unsigned int type)
{
    json_t *row = json_object();

    if (type == MON_DELETE) {
        json_object_set_new(row, "delete", json_null());
        return row;
    }

    json_t *values = json_object();
    for (size_t i = 0; i < mt->n_columns; i++) {
        const struct mon_column *mc = &mt->columns[i];
        const struct ovsdb_column *c = mc->column;
        const struct ovsdb_datum *new = &ch->new->fields[c->index];

        if (!(type & mc->select)) {
            continue;
        }
        if (type == MON_MODIFY) {
            if (!column_changed(ch, c)) {
                continue;
            }
            if (!ovsdb_type_is_composite(&c->type)) {
                /* A scalar or optional value's "diff" is its new value. */
                json_object_set_new(values, c->name,
                                    ovsdb_datum_to_json(new, &c->type));
            } else {
                struct ovsdb_datum diff;

                ovsdb_datum_diff(&diff, &ch->old->fields[c->index], new,
                                 &c->type);
                json_object_set_new(values, c->name,
                                    ovsdb_datum_to_json(&diff, &c->type));
                ovsdb_datum_destroy(&diff, &c->type);
            }
        } else if (!ovsdb_datum_is_default(new, &c->type)) {
            json_object_set_new(values, c->name,
                                ovsdb_datum_to_json(new, &c->type));
        }
    }
    json_object_set_new(row, (type == MON_INITIAL ? "initial"
                              : type == MON_INSERT ? "insert"
                              : "modify"), values);
    return row;
}

/* The row-update for CH as MT's client sees it, or NULL if it sees
 * nothing. */
static json_t *
compose_row(const struct mon_table *mt, enum mon_format fmt,
            const struct mon_change *ch, bool initial)
{
    unsigned int type = row_change_type(mt, ch->old, ch->new, initial);

    if (!(type & mt->select)) {
        return NULL;
    }
    if (type == MON_MODIFY && !relevant_columns_changed(mt, ch)) {
        return NULL;
    }
    return (fmt == MON_FMT_V1
            ? compose_row_v1(mt, ch, type)
            : compose_row_v2(mt, ch, type));
}

/* Adds ROW as the update of the row with UUID of table TABLE_NAME to
 * *UPDATES, creating *UPDATES and *TABLE_JSON as needed. */
static void
put_row_update(json_t **updates, json_t **table_json, const char *table_name,
               const struct uuid *uuid, json_t *row)
{
    char uuid_s[UUID_LEN + 1];

    if (!*updates) {
        *updates = json_object();
    }
    if (!*table_json) {
        *table_json = json_object();
        json_object_set_new(*updates, table_name, *table_json);
    }
    uuid_format(uuid, uuid_s);
    json_object_set_new(*table_json, uuid_s, row);
}

json_t *
mon_shape_compose_changes(const struct mon_shape *shape, enum mon_format fmt,
                          const struct mon_changes *changes)
{
    json_t *updates = NULL;

    for (size_t i = 0; i < shape->n_tables; i++) {
        const struct mon_table *mt = &shape->tables[i];
        const struct mon_table_changes *tc;
        json_t *table_json = NULL;

        if (!mt->select || !(tc = mon_changes_find(changes, mt->table))) {
            continue;
        }
        for (size_t j = 0; j < tc->n_changes; j++) {
            const struct mon_change *ch = &tc->changes[j];
            json_t *row = compose_row(mt, fmt, ch, false);
            if (row) {
                const struct ovsdb_row *r = ch->new ? ch->new : ch->old;
                put_row_update(&updates, &table_json,
                               mt->table->schema->name,
                               ovsdb_row_get_uuid(r), row);
            }
        }
    }
    return updates;
}

json_t *
mon_shape_compose_initial(struct mon_shape *shape, enum mon_format fmt)
{
    if (shape->initial[fmt]) {
        return (json_object_size(shape->initial[fmt])
                ? json_incref(shape->initial[fmt])
                : NULL);
    }

    json_t *updates = NULL;
    for (size_t i = 0; i < shape->n_tables; i++) {
        const struct mon_table *mt = &shape->tables[i];
        const struct ovsdb_row *row;
        json_t *table_json = NULL;

        if (!(mt->select & MON_INITIAL)) {
            continue;
        }
        HMAP_FOR_EACH (row, hmap_node, &mt->table->rows) {
            struct mon_change ch = { NULL, row, NULL };
            json_t *row_json = compose_row(mt, fmt, &ch, true);
            if (row_json) {
                put_row_update(&updates, &table_json,
                               mt->table->schema->name,
                               ovsdb_row_get_uuid(row), row_json);
            }
        }
    }

    shape->initial[fmt] = updates ? json_incref(updates) : json_object();
    return updates;
}

json_t *
mon_shape_compose_cond_change(const struct mon_shape *old,
                              const struct mon_shape *new)
{
    json_t *updates = NULL;

    ovs_assert(old->n_tables == new->n_tables);
    for (size_t i = 0; i < new->n_tables; i++) {
        const struct mon_table *old_mt = &old->tables[i];
        const struct mon_table *new_mt = &new->tables[i];
        const struct ovsdb_row *row;
        json_t *table_json = NULL;

        ovs_assert(old_mt->table == new_mt->table);
        if ((old_mt->all_rows && new_mt->all_rows)
            || !ovsdb_condition_cmp_3way(&old_mt->condition,
                                         &new_mt->condition)) {
            continue;
        }
        HMAP_FOR_EACH (row, hmap_node, &new_mt->table->rows) {
            bool old_in = mon_table_selects(old_mt, row);
            bool new_in = mon_table_selects(new_mt, row);
            unsigned int type = (old_in == new_in ? 0
                                 : new_in ? MON_INSERT : MON_DELETE);
            if (type & new_mt->select) {
                struct mon_change ch = { row, row, NULL };
                put_row_update(&updates, &table_json,
                               new_mt->table->schema->name,
                               ovsdb_row_get_uuid(row),
                               compose_row_v2(new_mt, &ch, type));
            }
        }
    }
    return updates;
}
