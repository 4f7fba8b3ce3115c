#include <config.h>
#include "ovsdb.h"

#include <stdio.h>
#include <stdlib.h>

#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "row.h"
#include "smap.h"
#include "table.h"

struct ovsdb *
ovsdb_create(struct ovsdb_schema *schema)
{
    struct ovsdb *db = xzalloc(sizeof *db);
    struct shash_node *node;

    db->name = xstrdup(schema->name);
    db->schema = schema;
    ovs_list_init(&db->observers);
    shash_init(&db->tables);
    ovs_list_init(&db->triggers);
    db->run_triggers = false;
    uuid_zero(&db->last_txnid);

    /* The tables take their table schemas from SCHEMA (which keeps pointing
     * at them, and so do refTable pointers): there is one copy of each. */
    SHASH_FOR_EACH (node, &schema->tables) {
        shash_add(&db->tables, node->name, ovsdb_table_create(node->data));
    }
    return db;
}

/* Frees DB's tables and its schema. */
static void
free_contents(struct shash *tables, struct ovsdb_schema *schema)
{
    struct shash_node *node;

    /* Weak references link rows of different tables: drop them all before
     * any table goes, so no row points into freed memory meanwhile. */
    SHASH_FOR_EACH (node, tables) {
        struct ovsdb_table *table = node->data;
        struct ovsdb_row *row;
        HMAP_FOR_EACH (row, hmap_node, &table->rows) {
            ovsdb_row_free_weak_refs(row);
        }
    }
    SHASH_FOR_EACH (node, tables) {
        ovsdb_table_destroy(node->data);
    }
    shash_destroy(tables);

    /* The table schemas went with their tables. */
    shash_clear(&schema->tables);
    ovsdb_schema_destroy(schema);
}

void
ovsdb_destroy(struct ovsdb *db)
{
    if (!db) {
        return;
    }

    struct ovsdb_observer *observer;
    LIST_FOR_EACH_POP (observer, node, &db->observers) {
        if (observer->class->destroy) {
            observer->class->destroy(observer);
        }
    }

    free_contents(&db->tables, db->schema);
    free(db->name);
    free(db);
}

struct ovsdb_table *
ovsdb_get_table(const struct ovsdb *db, const char *name)
{
    return shash_find_data(&db->tables, name);
}

void
ovsdb_add_observer(struct ovsdb *db, struct ovsdb_observer *observer)
{
    ovs_list_push_back(&db->observers, &observer->node);
}

struct ovsdb_error *
ovsdb_sync(struct ovsdb *db)
{
    struct ovsdb_error *error = NULL;
    if (db->sync_pending) {
        db->sync_pending = false;
        struct ovsdb_observer *observer;
        LIST_FOR_EACH (observer, node, &db->observers) {
            if (observer->class->sync) {
                struct ovsdb_error *e = observer->class->sync(observer);
                if (e && !error) {
                    error = e;
                } else {
                    ovsdb_error_destroy(e);
                }
            }
        }
    }
    return error;
}

void
ovsdb_remove_observer(struct ovsdb *db OVS_UNUSED,
                      struct ovsdb_observer *observer)
{
    ovs_list_remove(&observer->node);
}

void
ovsdb_replace(struct ovsdb *db, struct ovsdb *new)
{
    struct ovsdb_schema *schema = db->schema;
    db->schema = new->schema;
    new->schema = schema;

    shash_swap(&db->tables, &new->tables);

    char *name = db->name;
    db->name = new->name;
    new->name = name;

    unsigned long long int n = db->n_atoms;
    db->n_atoms = new->n_atoms;
    new->n_atoms = n;

    n = db->n_weak_refs;
    db->n_weak_refs = new->n_weak_refs;
    new->n_weak_refs = n;

    /* Whatever waited on the old contents must look at the new ones. */
    db->run_triggers = true;

    ovsdb_destroy(new);
}

void
ovsdb_get_memory_usage(const struct ovsdb *db, struct smap *usage)
{
    unsigned long long int cells = 0;
    struct shash_node *node;

    SHASH_FOR_EACH (node, &db->tables) {
        const struct ovsdb_table *table = node->data;
        cells += ((unsigned long long int) hmap_count(&table->rows)
                  * table->schema->n_columns);
    }
    if (cells) {
        smap_increase_ullong(usage, "cells", cells);
    }
    if (db->n_atoms) {
        smap_increase_ullong(usage, "atoms", db->n_atoms);
    }
    smap_increase_ullong(usage, "n-weak-refs", db->n_weak_refs);
}
