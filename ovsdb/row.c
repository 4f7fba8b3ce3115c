#include <config.h>
#include "row.h"

#include <stdlib.h>
#include <string.h>

#include "ovsdb-error.h"
#include "table.h"

/* A row, its fields and its index nodes share one allocation: the header,
 * then N_COLUMNS datums, then one hmap_node per index. */
static struct ovsdb_row *
row_allocate(const struct ovsdb_table *table)
{
    const struct ovsdb_table_schema *ts = table->schema;
    size_t fields_size = ts->n_columns * sizeof(struct ovsdb_datum);
    size_t nodes_size = ts->n_indexes * sizeof(struct hmap_node);
    struct ovsdb_row *row = xzalloc(offsetof(struct ovsdb_row, fields)
                                    + fields_size + nodes_size);

    row->table = (struct ovsdb_table *) table;
    row->txn_row = NULL;
    ovs_list_init(&row->src_refs);
    ovs_list_init(&row->dst_refs);
    row->n_refs = 0;
    row->index_nodes = (struct hmap_node *) (void *)
                       ((char *) row->fields + fields_size);
    return row;
}

struct ovsdb_row *
ovsdb_row_create(const struct ovsdb_table *table)
{
    const struct ovsdb_table_schema *ts = table->schema;
    struct ovsdb_row *row = row_allocate(table);

    for (size_t i = 0; i < ts->n_columns; i++) {
        const struct ovsdb_column *column = ts->columns_by_index[i];
        ovsdb_datum_init_default(&row->fields[i], &column->type);
    }
    return row;
}

struct ovsdb_row *
ovsdb_row_clone(const struct ovsdb_row *old)
{
    const struct ovsdb_table_schema *ts = old->table->schema;
    struct ovsdb_row *row = row_allocate(old->table);

    for (size_t i = 0; i < ts->n_columns; i++) {
        const struct ovsdb_column *column = ts->columns_by_index[i];
        ovsdb_datum_clone(&row->fields[i], &old->fields[i], &column->type);
    }
    return row;
}

void
ovsdb_weak_ref_destroy(struct ovsdb_weak_ref *weak)
{
    ovs_list_remove(&weak->src_node);
    ovs_list_remove(&weak->dst_node);
    free(weak);
}

size_t
ovsdb_row_free_weak_refs(struct ovsdb_row *row)
{
    size_t n = 0;
    struct ovsdb_weak_ref *weak;

    LIST_FOR_EACH_POP (weak, src_node, &row->dst_refs) {
        ovs_list_remove(&weak->dst_node);
        free(weak);
        n++;
    }
    LIST_FOR_EACH_POP (weak, dst_node, &row->src_refs) {
        ovs_list_remove(&weak->src_node);
        free(weak);
        n++;
    }
    return n;
}

void
ovsdb_row_destroy(struct ovsdb_row *row)
{
    if (row) {
        const struct ovsdb_table_schema *ts = row->table->schema;

        ovsdb_row_free_weak_refs(row);
        for (size_t i = 0; i < ts->n_columns; i++) {
            const struct ovsdb_column *column = ts->columns_by_index[i];
            ovsdb_datum_destroy(&row->fields[i], &column->type);
        }
        free(row);
    }
}

uint32_t
ovsdb_row_hash_columns(const struct ovsdb_row *row,
                       const struct ovsdb_column_set *columns,
                       uint32_t basis)
{
    uint32_t hash = basis;
    for (size_t i = 0; i < columns->n_columns; i++) {
        const struct ovsdb_column *column = columns->columns[i];
        hash = ovsdb_datum_hash(&row->fields[column->index], &column->type,
                                hash);
    }
    return hash;
}

int
ovsdb_row_compare_columns_3way(const struct ovsdb_row *a,
                               const struct ovsdb_row *b,
                               const struct ovsdb_column_set *columns)
{
    for (size_t i = 0; i < columns->n_columns; i++) {
        const struct ovsdb_column *column = columns->columns[i];
        int cmp = ovsdb_datum_compare_3way(&a->fields[column->index],
                                           &b->fields[column->index],
                                           &column->type);
        if (cmp) {
            return cmp;
        }
    }
    return 0;
}

bool
ovsdb_row_equal_columns(const struct ovsdb_row *a, const struct ovsdb_row *b,
                        const struct ovsdb_column_set *columns)
{
    for (size_t i = 0; i < columns->n_columns; i++) {
        const struct ovsdb_column *column = columns->columns[i];
        if (!ovsdb_datum_equals(&a->fields[column->index],
                                &b->fields[column->index], &column->type)) {
            return false;
        }
    }
    return true;
}

void
ovsdb_row_update_columns(struct ovsdb_row *dst, const struct ovsdb_row *src,
                         const struct ovsdb_column_set *columns)
{
    for (size_t i = 0; i < columns->n_columns; i++) {
        const struct ovsdb_column *column = columns->columns[i];
        struct ovsdb_datum copy;

        ovsdb_datum_clone(&copy, &src->fields[column->index], &column->type);
        ovsdb_datum_swap(&dst->fields[column->index], &copy);
        ovsdb_datum_destroy(&copy, &column->type);
    }
}

struct ovsdb_error *
ovsdb_row_from_json(struct ovsdb_row *row, const json_t *json,
                    struct ovsdb_symbol_table *symtab,
                    struct ovsdb_column_set *columns)
{
    const struct ovsdb_table_schema *ts = row->table->schema;
    const char *name;
    json_t *value;

    if (!json_is_object(json)) {
        return ovsdb_syntax_error(json, NULL, "row must be JSON object");
    }
    json_object_foreach ((json_t *) json, name, value) {
        const struct ovsdb_column *column
            = ovsdb_table_schema_get_column(ts, name);
        if (!column) {
            return ovsdb_syntax_error(json, "unknown column",
                                      "No column %s in table %s.",
                                      name, ts->name);
        }

        struct ovsdb_datum datum;
        struct ovsdb_error *error = ovsdb_datum_from_json(
            &datum, &column->type, value, symtab);
        if (error) {
            return error;
        }
        ovsdb_datum_swap(&row->fields[column->index], &datum);
        ovsdb_datum_destroy(&datum, &column->type);
        if (columns && !ovsdb_column_set_contains(columns, column->index)) {
            ovsdb_column_set_add(columns, column);
        }
    }
    return NULL;
}

json_t *
ovsdb_row_to_json(const struct ovsdb_row *row,
                  const struct ovsdb_column_set *columns)
{
    json_t *json = json_object();
    for (size_t i = 0; i < columns->n_columns; i++) {
        const struct ovsdb_column *column = columns->columns[i];
        json_object_set_new(json, column->name,
                            ovsdb_datum_to_json(&row->fields[column->index],
                                                &column->type));
    }
    return json;
}

size_t
ovsdb_row_count_atoms(const struct ovsdb_row *row)
{
    const struct ovsdb_table_schema *ts = row->table->schema;
    size_t n = 0;

    for (size_t i = 0; i < ts->n_columns; i++) {
        const struct ovsdb_type *type = &ts->columns_by_index[i]->type;
        n += row->fields[i].n * (ovsdb_type_is_map(type) ? 2 : 1);
    }
    return n;
}

/* Row sets. */

void
ovsdb_row_set_init(struct ovsdb_row_set *set)
{
    set->rows = NULL;
    set->n_rows = set->allocated_rows = 0;
}

void
ovsdb_row_set_destroy(struct ovsdb_row_set *set)
{
    free(set->rows);
    ovsdb_row_set_init(set);
}

void
ovsdb_row_set_add_row(struct ovsdb_row_set *set, const struct ovsdb_row *row)
{
    if (set->n_rows >= set->allocated_rows) {
        set->rows = x2nrealloc(set->rows, &set->allocated_rows,
                               sizeof *set->rows);
    }
    set->rows[set->n_rows++] = row;
}

json_t *
ovsdb_row_set_to_json(const struct ovsdb_row_set *set,
                      const struct ovsdb_column_set *columns)
{
    json_t *json = json_array();
    for (size_t i = 0; i < set->n_rows; i++) {
        json_array_append_new(json, ovsdb_row_to_json(set->rows[i], columns));
    }
    return json;
}

/* qsort() has no auxiliary argument, so the sort columns travel in a
 * wrapper next to each row. */
struct row_sort_entry {
    const struct ovsdb_row *row;
    const struct ovsdb_column_set *columns;
};

static int
compare_rows(const void *a_, const void *b_)
{
    const struct row_sort_entry *a = a_;
    const struct row_sort_entry *b = b_;
    int cmp = ovsdb_row_compare_columns_3way(a->row, b->row, a->columns);
    return cmp ? cmp : uuid_compare_3way(ovsdb_row_get_uuid(a->row),
                                         ovsdb_row_get_uuid(b->row));
}

void
ovsdb_row_set_sort(struct ovsdb_row_set *set,
                   const struct ovsdb_column_set *columns)
{
    if (set->n_rows < 2) {
        return;
    }

    struct row_sort_entry *entries = xmalloc(set->n_rows * sizeof *entries);
    for (size_t i = 0; i < set->n_rows; i++) {
        entries[i].row = set->rows[i];
        entries[i].columns = columns;
    }
    qsort(entries, set->n_rows, sizeof *entries, compare_rows);
    for (size_t i = 0; i < set->n_rows; i++) {
        set->rows[i] = entries[i].row;
    }
    free(entries);
}

struct ovsdb_error *
ovsdb_row_update_from_json(struct ovsdb_row *row, const json_t *row_json,
                           bool as_diff)
{
    const struct ovsdb_table_schema *ts = row->table->schema;
    const char *column_name;
    json_t *value;

    if (!json_is_object(row_json)) {
        return ovsdb_syntax_error(row_json, NULL, "row must be JSON object");
    }
    json_object_foreach ((json_t *) row_json, column_name, value) {
        const struct ovsdb_column *column
            = ovsdb_table_schema_get_column(ts, column_name);
        if (!column) {
            return ovsdb_syntax_error(row_json, "unknown column",
                                      "No column %s in table %s.",
                                      column_name, ts->name);
        }
        if (column->index < OVSDB_N_STD_COLUMNS) {
            return ovsdb_syntax_error(row_json, "unknown column",
                                      "Column %s in table %s may not be "
                                      "written.", column_name, ts->name);
        }

        struct ovsdb_datum *field = &row->fields[column->index];
        struct ovsdb_error *error;
        struct ovsdb_datum datum;
        if (as_diff && ovsdb_type_is_composite(&column->type)) {
            struct ovsdb_type dtype = ovsdb_type_for_diff(&column->type);
            struct ovsdb_datum diff;
            error = ovsdb_datum_from_json(&diff, &dtype, value, NULL);
            if (error) {
                return error;
            }
            error = ovsdb_datum_apply_diff(&datum, field, &diff,
                                           &column->type);
            ovsdb_datum_destroy(&diff, &dtype);
            if (error) {
                return error;
            }
        } else {
            error = ovsdb_datum_from_json(&datum, &column->type, value, NULL);
            if (error) {
                return error;
            }
        }
        ovsdb_datum_swap(field, &datum);
        ovsdb_datum_destroy(&datum, &column->type);
    }
    return NULL;
}
