/* ovsdb-query: finding the rows of a table that satisfy a "where"
 * condition.  A condition that pins "_uuid" looks the row up by hash; one
 * that pins every column of an index with "==" uses the index (plus the
 * rows an open transaction changed, since indexes hold committed rows);
 * anything else scans the table.  Results reflect the open transaction's
 * changes.  Rows come in no particular order. */
#ifndef OVSDB_QUERY_H
#define OVSDB_QUERY_H 1

#include <stdbool.h>

struct ovsdb_column_set;
struct ovsdb_condition;
struct ovsdb_row;
struct ovsdb_row_set;
struct ovsdb_table;

/* Calls OUTPUT_ROW for each row of TABLE matching CONDITION (all clauses);
 * stops if it returns false.  OUTPUT_ROW must not change the table. */
void ovsdb_query(struct ovsdb_table *, const struct ovsdb_condition *,
                 bool (*output_row)(const struct ovsdb_row *, void *aux),
                 void *aux);

/* Adds every matching row to RESULTS. */
void ovsdb_query_row_set(struct ovsdb_table *, const struct ovsdb_condition *,
                         struct ovsdb_row_set *results);

/* Adds to RESULTS the matching rows that differ from each other in
 * COLUMNS, one row for each distinct set of values (as a "select" with
 * "columns" returns them in Open vSwitch). */
void ovsdb_query_distinct(struct ovsdb_table *,
                          const struct ovsdb_condition *,
                          const struct ovsdb_column_set *columns,
                          struct ovsdb_row_set *results);

#endif /* ovsdb/query.h */
