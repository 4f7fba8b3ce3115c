/* table: rows and columns of output for the command-line tools.
 *
 * ovsdb-client (and ovs-vsctl) print what they found as a table: a caption,
 * headings and rows of cells.  This module holds such a table and prints it
 * in the five formats Open vSwitch's tools offer, byte for byte as they do,
 * so that scripts parsing their output work with ours:
 *
 *   table  columns padded to their widest cell, separated by one space,
 *          under a line of headings and a line of dashes; trailing spaces
 *          are trimmed from every line.
 *   list   one "HEADING<pad to 20>: VALUE" line per cell, a blank line
 *          between rows (just the values without headings).
 *   html   a <table border=1> with <caption>, <th> and <td>, special
 *          characters escaped; a UUID in a cell becomes a link to the row
 *          it names, and a cell of a column headed "_uuid" becomes that
 *          link's anchor.
 *   csv    RFC 4180: a cell is quoted when it contains a comma, a double
 *          quote or a newline, with double quotes doubled.
 *   json   {"caption": ..., "data": [[CELL, ...], ...], "headings": [...]}.
 *
 * A cell holds either text, or a JSON value plus the OVSDB type it has.  A
 * JSON cell is printed according to the style's cell format: "string" (the
 * text form of ovsdb_datum_to_string(), e.g. {a=1, b=2}), "bare"
 * (ovsdb_datum_to_bare(), no quoting or brackets) or "json" (compact JSON,
 * members sorted).  A JSON cell without a type, or whose JSON does not parse
 * as its type, prints as JSON.  In the json output format a JSON cell is
 * copied as JSON, a text cell becomes a JSON string and a cell that was
 * never filled in is null (it prints as empty text in the other formats).
 *
 * The caption is printed above the table in every format; the time stamp
 * (table_set_timestamp()) too, as "YYYY-MM-DD HH:MM:SS.mmm" in UTC.  When a
 * program prints several tables with table_print(), the table, list and
 * csv formats put a blank line between them.
 *
 * Ownership: a table owns its headings, caption and cells.  A cell owns its
 * text (a malloc'd string) and holds one reference to its JSON; the cell's
 * type is only borrowed and must outlive the table (usually it lives in a
 * schema).  Fill a cell by assigning cell->text (malloc'd) or cell->json (a
 * reference the cell takes over) and cell->type.
 */
#ifndef TABLE_H
#define TABLE_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "util.h"

struct ds;
struct ovsdb_type;

/* One cell: text, or JSON with an optional type; neither means empty. */
struct cell {
    char *text;                     /* Owned; NULL if a JSON cell. */
    json_t *json;                   /* Owned reference, or NULL. */
    const struct ovsdb_type *type;  /* Borrowed, or NULL. */
};

struct column {
    char *heading;
};

struct table {
    struct cell *cells;             /* n_rows * n_columns, row-major. */
    size_t n_rows, allocated_rows;
    struct column *columns;
    size_t n_columns, allocated_columns;
    size_t current_column;          /* Next cell table_add_cell() gives. */
    char *caption;                  /* Owned, or NULL. */
    bool timestamp;                 /* Print the time above the table. */
};

void table_init(struct table *);
void table_destroy(struct table *);

/* Takes ownership of CAPTION (may be NULL to remove it). */
void table_set_caption(struct table *, char *caption);
void table_set_timestamp(struct table *, bool timestamp);

/* Adds a column with a printf-formatted heading.  Columns must all be added
 * before the first row. */
void table_add_column(struct table *, const char *heading, ...)
    OVS_PRINTF_FORMAT(2, 3);
/* Starts a new row of empty cells; table_add_cell() then returns its cells
 * from left to right. */
void table_add_row(struct table *);
struct cell *table_add_cell(struct table *);
/* The cell in row Y, column X. */
struct cell *table_cell(const struct table *, size_t y, size_t x);
bool table_is_empty(const struct table *);

/* Output formats. */

enum table_format {
    TF_TABLE,
    TF_LIST,
    TF_HTML,
    TF_CSV,
    TF_JSON
};

enum cell_format {
    CF_STRING,
    CF_BARE,
    CF_JSON
};

struct table_style {
    enum table_format format;
    enum cell_format cell_format;
    bool headings;                  /* Print headings (table, list, html,
                                     * csv)? */
    bool pretty;                    /* Pretty-print JSON output. */
    int max_column_width;           /* TF_TABLE: cut longer cells, 0 for no
                                     * limit. */
};

#define TABLE_STYLE_DEFAULT { TF_TABLE, CF_STRING, true, false, 0 }

/* Parses "table", "list", "html", "csv" or "json" into STYLE's format, or
 * exits with "unknown output format" (as Open vSwitch's tools do). */
void table_parse_format(struct table_style *, const char *format);
/* Parses "string", "bare" or "json" into STYLE's cell format, or exits with
 * "unknown data format". */
void table_parse_cell_format(struct table_style *, const char *format);

/* The JSON_PRINT_* flags that STYLE asks for in JSON output. */
int table_style_json_flags(const struct table_style *);

/* Appends CELL's text in STYLE's cell format to OUT. */
void cell_format(const struct cell *, const struct table_style *,
                 struct ds *out);
/* Returns CELL's text in STYLE's cell format (the caller frees it). */
char *cell_to_text(const struct cell *, const struct table_style *);

/* Appends TABLE, formatted as STYLE says, to OUT: the caption, time stamp,
 * headings and rows, with nothing before or after. */
void table_format(const struct table *, const struct table_style *,
                  struct ds *out);
/* Prints TABLE to stdout; in the table, list and csv formats a blank line
 * first separates it from the table this process printed before. */
void table_print(const struct table *, const struct table_style *);

/* Command-line options shared by the tools that print tables:
 * -f/--format, -d/--data, --no-headings, --pretty and --bare (which means
 * --format=list --data=bare --no-headings). */
#define TABLE_OPTION_ENUMS                      \
    OPT_NO_HEADINGS,                            \
    OPT_PRETTY,                                 \
    OPT_BARE

#define TABLE_LONG_OPTIONS                                      \
    {"format",      required_argument, NULL, 'f'},              \
    {"data",        required_argument, NULL, 'd'},              \
    {"no-headings", no_argument,       NULL, OPT_NO_HEADINGS},  \
    {"pretty",      no_argument,       NULL, OPT_PRETTY},       \
    {"bare",        no_argument,       NULL, OPT_BARE}

#define TABLE_OPTION_HANDLERS(STYLE)                \
    case 'f':                                       \
        table_parse_format(STYLE, optarg);          \
        break;                                      \
                                                    \
    case 'd':                                       \
        table_parse_cell_format(STYLE, optarg);     \
        break;                                      \
                                                    \
    case OPT_NO_HEADINGS:                           \
        (STYLE)->headings = false;                  \
        break;                                      \
                                                    \
    case OPT_PRETTY:                                \
        (STYLE)->pretty = true;                     \
        break;                                      \
                                                    \
    case OPT_BARE:                                  \
        (STYLE)->format = TF_LIST;                  \
        (STYLE)->cell_format = CF_BARE;             \
        (STYLE)->headings = false;                  \
        break;

/* Prints the help for those options. */
void table_usage(void);

#endif /* table.h */
