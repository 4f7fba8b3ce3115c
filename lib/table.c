#include <config.h>
#include "table.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "json-print.h"
#include "ovsdb-data.h"
#include "ovsdb-error.h"
#include "timeval.h"
#include "util.h"
#include "uuid.h"

/* Width of the heading field in the list format ("%-20s: "). */
#define LIST_HEADING_WIDTH 20

void
table_init(struct table *table)
{
    memset(table, 0, sizeof *table);
}

void
table_destroy(struct table *table)
{
    if (!table) {
        return;
    }
    for (size_t i = 0; i < table->n_rows * table->n_columns; i++) {
        free(table->cells[i].text);
        json_decref(table->cells[i].json);
    }
    free(table->cells);
    for (size_t i = 0; i < table->n_columns; i++) {
        free(table->columns[i].heading);
    }
    free(table->columns);
    free(table->caption);
    memset(table, 0, sizeof *table);
}

void
table_set_caption(struct table *table, char *caption)
{
    free(table->caption);
    table->caption = caption;
}

void
table_set_timestamp(struct table *table, bool timestamp)
{
    table->timestamp = timestamp;
}

void
table_add_column(struct table *table, const char *heading, ...)
{
    ovs_assert(!table->n_rows);
    if (table->n_columns >= table->allocated_columns) {
        table->columns = x2nrealloc(table->columns, &table->allocated_columns,
                                    sizeof *table->columns);
    }

    va_list args;
    va_start(args, heading);
    table->columns[table->n_columns++].heading = xvasprintf(heading, args);
    va_end(args);
}

void
table_add_row(struct table *table)
{
    if (table->n_rows >= table->allocated_rows) {
        table->cells = xrealloc(table->cells,
                                (table->allocated_rows
                                 = table->allocated_rows * 2 + 8)
                                * MAX(table->n_columns, 1)
                                * sizeof *table->cells);
    }
    struct cell *row = &table->cells[table->n_rows * table->n_columns];
    memset(row, 0, table->n_columns * sizeof *row);
    table->n_rows++;
    table->current_column = 0;
}

struct cell *
table_add_cell(struct table *table)
{
    ovs_assert(table->n_rows > 0);
    ovs_assert(table->current_column < table->n_columns);
    return table_cell(table, table->n_rows - 1, table->current_column++);
}

struct cell *
table_cell(const struct table *table, size_t y, size_t x)
{
    ovs_assert(y < table->n_rows && x < table->n_columns);
    return &table->cells[y * table->n_columns + x];
}

bool
table_is_empty(const struct table *table)
{
    return !table->n_rows;
}

/* Styles. */

void
table_parse_format(struct table_style *style, const char *format)
{
    if (!strcmp(format, "table")) {
        style->format = TF_TABLE;
    } else if (!strcmp(format, "list")) {
        style->format = TF_LIST;
    } else if (!strcmp(format, "html")) {
        style->format = TF_HTML;
    } else if (!strcmp(format, "csv")) {
        style->format = TF_CSV;
    } else if (!strcmp(format, "json")) {
        style->format = TF_JSON;
    } else {
        ovs_fatal(0, "unknown output format \"%s\"", format);
    }
}

void
table_parse_cell_format(struct table_style *style, const char *format)
{
    if (!strcmp(format, "string")) {
        style->cell_format = CF_STRING;
    } else if (!strcmp(format, "bare")) {
        style->cell_format = CF_BARE;
    } else if (!strcmp(format, "json")) {
        style->cell_format = CF_JSON;
    } else {
        ovs_fatal(0, "unknown data format \"%s\"", format);
    }
}

int
table_style_json_flags(const struct table_style *style)
{
    return JSON_PRINT_SORT | (style->pretty ? JSON_PRINT_PRETTY : 0);
}

void
table_usage(void)
{
    printf("\nOutput formatting options:\n"
           "  -f, --format=FORMAT         set output formatting to FORMAT\n"
           "                              (\"table\", \"html\", \"csv\", "
           "or \"json\")\n"
           "  -d, --data=FORMAT           set table cell output formatting "
           "to\n"
           "                              FORMAT (\"string\", \"bare\", "
           "or \"json\")\n"
           "  --no-headings               omit table heading row\n"
           "  --pretty                    pretty-print JSON in output\n"
           "  --bare                      equivalent to "
           "\"--format=list --data=bare --no-headings\"\n");
}

/* Cells. */

void
cell_format(const struct cell *cell, const struct table_style *style,
            struct ds *out)
{
    if (cell->text) {
        ds_put_cstr(out, cell->text);
        return;
    } else if (!cell->json) {
        return;
    }

    if (style->cell_format != CF_JSON && cell->type) {
        struct ovsdb_datum datum;
        struct ovsdb_error *error = ovsdb_datum_from_json(&datum, cell->type,
                                                          cell->json, NULL);
        if (!error) {
            if (style->cell_format == CF_STRING) {
                ovsdb_datum_to_string(&datum, cell->type, out);
            } else {
                ovsdb_datum_to_bare(&datum, cell->type, out);
            }
            ovsdb_datum_destroy(&datum, cell->type);
            return;
        }
        /* Not a value of its type (say, a diff with more elements than the
         * type allows): show the JSON rather than nothing. */
        ovsdb_error_destroy(error);
    }
    json_print(out, cell->json, JSON_PRINT_SORT);
}

char *
cell_to_text(const struct cell *cell, const struct table_style *style)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    cell_format(cell, style, &s);
    return ds_steal_cstr(&s);
}

/* The text of every cell, row-major, freed with free_texts(). */
static char **
format_texts(const struct table *table, const struct table_style *style)
{
    size_t n = table->n_rows * table->n_columns;
    char **texts = xmalloc((n ? n : 1) * sizeof *texts);
    for (size_t i = 0; i < n; i++) {
        texts[i] = cell_to_text(&table->cells[i], style);
    }
    return texts;
}

static void
free_texts(const struct table *table, char **texts)
{
    for (size_t i = 0; i < table->n_rows * table->n_columns; i++) {
        free(texts[i]);
    }
    free(texts);
}

static void
put_timestamp(struct ds *out)
{
    ds_put_strftime_msec(out, "%Y-%m-%d %H:%M:%S.###", time_wall_msec(),
                         true);
}

static void
put_preamble(const struct table *table, struct ds *out)
{
    if (table->timestamp) {
        put_timestamp(out);
        ds_put_char(out, '\n');
    }
    if (table->caption) {
        ds_put_format(out, "%s\n", table->caption);
    }
}

/* Length of the longest prefix of S, at most MAX bytes, that does not end
 * inside a UTF-8 sequence. */
static size_t
utf8_prefix_len(const char *s, size_t len, size_t max)
{
    if (len <= max) {
        return len;
    }
    size_t n = max;
    while (n > 0 && ((unsigned char) s[n] & 0xc0) == 0x80) {
        n--;
    }
    return n;
}

/* Pads field X of a table line; the last field is not padded, and trailing
 * spaces never end a line. */
static void
put_table_field(struct ds *line, size_t x, const char *text, size_t width,
                size_t max_width)
{
    if (x) {
        ds_put_char(line, ' ');
    }
    size_t len = strlen(text);
    if (max_width) {
        len = utf8_prefix_len(text, len, width);
    }
    ds_put_buffer(line, text, len);
    if (len < width) {
        ds_put_char_multiple(line, ' ', width - len);
    }
}

static void
end_table_line(struct ds *line, struct ds *out)
{
    while (line->length && line->string[line->length - 1] == ' ') {
        line->length--;
    }
    ds_put_buffer(out, line->string ? line->string : "", line->length);
    ds_put_char(out, '\n');
    ds_clear(line);
}

static void
format_table(const struct table *table, const struct table_style *style,
             struct ds *out)
{
    char **texts = format_texts(table, style);
    size_t max_width = style->max_column_width > 0
                       ? style->max_column_width : 0;
    size_t *widths = xzalloc((table->n_columns ? table->n_columns : 1)
                             * sizeof *widths);

    /* --max-column-width cuts cells, never headings: a column is as wide
     * as its heading at least. */
    for (size_t x = 0; x < table->n_columns; x++) {
        for (size_t y = 0; y < table->n_rows; y++) {
            widths[x] = MAX(widths[x],
                            strlen(texts[y * table->n_columns + x]));
        }
        if (max_width && widths[x] > max_width) {
            widths[x] = max_width;
        }
        if (style->headings) {
            widths[x] = MAX(widths[x], strlen(table->columns[x].heading));
        }
    }

    put_preamble(table, out);

    struct ds line = DS_EMPTY_INITIALIZER;
    if (style->headings) {
        for (size_t x = 0; x < table->n_columns; x++) {
            put_table_field(&line, x, table->columns[x].heading, widths[x],
                            max_width);
        }
        end_table_line(&line, out);

        for (size_t x = 0; x < table->n_columns; x++) {
            if (x) {
                ds_put_char(&line, ' ');
            }
            ds_put_char_multiple(&line, '-', widths[x]);
        }
        end_table_line(&line, out);
    }

    for (size_t y = 0; y < table->n_rows; y++) {
        for (size_t x = 0; x < table->n_columns; x++) {
            put_table_field(&line, x, texts[y * table->n_columns + x],
                            widths[x], max_width);
        }
        end_table_line(&line, out);
    }
    ds_destroy(&line);

    free(widths);
    free_texts(table, texts);
}

static void
format_list(const struct table *table, const struct table_style *style,
            struct ds *out)
{
    put_preamble(table, out);
    for (size_t y = 0; y < table->n_rows; y++) {
        if (y) {
            ds_put_char(out, '\n');
        }
        for (size_t x = 0; x < table->n_columns; x++) {
            if (style->headings) {
                ds_put_format(out, "%-*s: ", LIST_HEADING_WIDTH,
                              table->columns[x].heading);
            }
            cell_format(table_cell(table, y, x), style, out);
            ds_put_char(out, '\n');
        }
    }
}

static void
put_html_escaped(struct ds *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '&':
            ds_put_cstr(out, "&amp;");
            break;
        case '<':
            ds_put_cstr(out, "&lt;");
            break;
        case '>':
            ds_put_cstr(out, "&gt;");
            break;
        case '"':
            ds_put_cstr(out, "&quot;");
            break;
        default:
            ds_put_char(out, s[i]);
            break;
        }
    }
}

/* Rows link to each other: a cell in a "_uuid" column is an anchor named
 * after the whole cell, and every UUID in any other cell links to that
 * anchor.  Both show only the first 8 characters, as people abbreviate
 * UUIDs. */
static void
put_html_cell(struct ds *out, const char *heading, const char *text)
{
    size_t len = strlen(text);

    if (!strcmp(heading, "_uuid")) {
        ds_put_cstr(out, "<a name=\"");
        put_html_escaped(out, text, len);
        ds_put_cstr(out, "\">");
        put_html_escaped(out, text, MIN(len, 8));
        ds_put_cstr(out, "</a>");
        return;
    }

    for (size_t i = 0; i < len; ) {
        struct uuid uuid;
        if (len - i >= UUID_LEN && uuid_from_string_prefix(&uuid, &text[i])) {
            ds_put_cstr(out, "<a href=\"#");
            ds_put_buffer(out, &text[i], UUID_LEN);
            ds_put_cstr(out, "\">");
            ds_put_buffer(out, &text[i], 8);
            ds_put_cstr(out, "</a>");
            i += UUID_LEN;
        } else {
            put_html_escaped(out, &text[i], 1);
            i++;
        }
    }
}

static void
format_html(const struct table *table, const struct table_style *style,
            struct ds *out)
{
    if (table->timestamp) {
        put_timestamp(out);
        ds_put_char(out, '\n');
    }
    ds_put_cstr(out, "<table border=1>\n");
    if (table->caption) {
        ds_put_cstr(out, "    <caption>");
        put_html_escaped(out, table->caption, strlen(table->caption));
        ds_put_cstr(out, "</caption>\n");
    }

    if (style->headings) {
        ds_put_cstr(out, "  <tr>\n");
        for (size_t x = 0; x < table->n_columns; x++) {
            const char *heading = table->columns[x].heading;
            ds_put_cstr(out, "    <th>");
            put_html_escaped(out, heading, strlen(heading));
            ds_put_cstr(out, "</th>\n");
        }
        ds_put_cstr(out, "  </tr>\n");
    }

    struct ds text = DS_EMPTY_INITIALIZER;
    for (size_t y = 0; y < table->n_rows; y++) {
        ds_put_cstr(out, "  <tr>\n");
        for (size_t x = 0; x < table->n_columns; x++) {
            ds_clear(&text);
            cell_format(table_cell(table, y, x), style, &text);
            ds_put_cstr(out, "    <td>");
            put_html_cell(out, table->columns[x].heading, ds_cstr(&text));
            ds_put_cstr(out, "</td>\n");
        }
        ds_put_cstr(out, "  </tr>\n");
    }
    ds_destroy(&text);
    ds_put_cstr(out, "</table>\n");
}

static void
put_csv_field(struct ds *out, const char *s)
{
    if (!strpbrk(s, "\n\",")) {
        ds_put_cstr(out, s);
        return;
    }
    ds_put_char(out, '"');
    for (; *s; s++) {
        if (*s == '"') {
            ds_put_char(out, '"');
        }
        ds_put_char(out, *s);
    }
    ds_put_char(out, '"');
}

static void
format_csv(const struct table *table, const struct table_style *style,
           struct ds *out)
{
    put_preamble(table, out);
    if (style->headings) {
        for (size_t x = 0; x < table->n_columns; x++) {
            if (x) {
                ds_put_char(out, ',');
            }
            put_csv_field(out, table->columns[x].heading);
        }
        ds_put_char(out, '\n');
    }

    struct ds text = DS_EMPTY_INITIALIZER;
    for (size_t y = 0; y < table->n_rows; y++) {
        for (size_t x = 0; x < table->n_columns; x++) {
            if (x) {
                ds_put_char(out, ',');
            }
            ds_clear(&text);
            cell_format(table_cell(table, y, x), style, &text);
            put_csv_field(out, ds_cstr(&text));
        }
        ds_put_char(out, '\n');
    }
    ds_destroy(&text);
}

static void
format_json(const struct table *table, const struct table_style *style,
            struct ds *out)
{
    json_t *json = json_object();

    if (table->caption) {
        json_object_set_new(json, "caption", json_string(table->caption));
    }
    if (table->timestamp) {
        struct ds s = DS_EMPTY_INITIALIZER;
        put_timestamp(&s);
        json_object_set_new(json, "time", json_string(ds_cstr(&s)));
        ds_destroy(&s);
    }

    json_t *headings = json_array();
    for (size_t x = 0; x < table->n_columns; x++) {
        json_array_append_new(headings,
                              json_string(table->columns[x].heading));
    }
    json_object_set_new(json, "headings", headings);

    json_t *data = json_array();
    for (size_t y = 0; y < table->n_rows; y++) {
        json_t *row = json_array();
        for (size_t x = 0; x < table->n_columns; x++) {
            const struct cell *cell = table_cell(table, y, x);
            json_array_append_new(row,
                                  cell->json ? json_incref(cell->json)
                                  : cell->text ? json_string(cell->text)
                                  : json_null());
        }
        json_array_append_new(data, row);
    }
    json_object_set_new(json, "data", data);

    json_print(out, json, table_style_json_flags(style));
    ds_put_char(out, '\n');
    json_decref(json);
}

void
table_format(const struct table *table, const struct table_style *style,
             struct ds *out)
{
    switch (style->format) {
    case TF_TABLE:
        format_table(table, style, out);
        break;
    case TF_LIST:
        format_list(table, style, out);
        break;
    case TF_HTML:
        format_html(table, style, out);
        break;
    case TF_CSV:
        format_csv(table, style, out);
        break;
    case TF_JSON:
        format_json(table, style, out);
        break;
    }
}

void
table_print(const struct table *table, const struct table_style *style)
{
    static unsigned long long int n_printed;

    struct ds s = DS_EMPTY_INITIALIZER;
    if (n_printed++
        && (style->format == TF_TABLE || style->format == TF_LIST
            || style->format == TF_CSV)) {
        ds_put_char(&s, '\n');
    }
    table_format(table, style, &s);
    fwrite(s.string ? s.string : "", 1, s.length, stdout);
    ds_destroy(&s);
}
