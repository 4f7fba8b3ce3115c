/* json-print: JSON text exactly as Open vSwitch's tools print it.
 *
 * jansson's json_dumps() is fine for the wire and for files, but the text
 * that a person or a script reads from our tools has to be the same bytes
 * that Open vSwitch's tools print for the same value, and jansson differs
 * from them in three places: reals ("%.15g", so 0.1 prints as 0.1 and 1.0
 * as 1), control characters in strings ("\u001f", lowercase hex) and the
 * pretty layout, which puts every member and element on a line of its own,
 * indented by two spaces per level, with each closing bracket right after
 * the last element instead of on a line of its own:
 *
 *     {
 *       "rows": [
 *         {
 *           "name": "zero"}]}
 *
 * JSON_PRINT_SORT prints object members sorted by name (Open vSwitch prints
 * every JSON result this way); without it members come in the object's
 * iteration order.  Characters outside ASCII are copied as UTF-8, never
 * escaped.
 *
 * Ownership: the functions only read JSON (except json_ovs_order(), which
 * reorders it); the string that json_print_to_string() returns belongs to
 * the caller (free()).
 */
#ifndef JSON_PRINT_H
#define JSON_PRINT_H 1

#include <jansson.h>

struct ds;

enum {
    JSON_PRINT_SORT = 1 << 0,       /* Object members sorted by name. */
    JSON_PRINT_PRETTY = 1 << 1      /* Multi-line, indented. */
};

/* Appends JSON's text to OUT.  A null pointer prints as "null". */
void json_print(struct ds *out, const json_t *json, int flags);
char *json_print_to_string(const json_t *json, int flags);

/* Appends S (NUL-terminated UTF-8) as a JSON string literal, quotes
 * included. */
void json_print_string(struct ds *out, const char *s);

/* Open vSwitch keeps a JSON object in a hash table, so the members of an
 * object it sends come out in the order of that table, and the tools that
 * receive it list rows and columns in the order of the hash table they
 * read the text into.  A peer that writes members in another order makes
 * Open vSwitch's tools (and ours, which imitate them) list things in
 * another order.  This reorders the members of every object in JSON,
 * recursively and in place, into the order Open vSwitch would write them
 * had it added them in their present order.  jansson keeps members in
 * insertion order and writes them that way, so a server that calls this on
 * what it sends is seen by clients as Open vSwitch's server would be. */
void json_ovs_order(json_t *json);

#endif /* json-print.h */
