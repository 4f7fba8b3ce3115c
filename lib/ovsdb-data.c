#include <config.h>
#include "ovsdb-data.h"

#include <ctype.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "hash.h"
#include "json-print.h"
#include "ovsdb-error.h"
#include "ovsdb-schema.h"
#include "smap.h"

/* Atoms. */

void
ovsdb_atom_init_default(union ovsdb_atom *atom, enum ovsdb_atomic_type type)
{
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        atom->integer = 0;
        break;
    case OVSDB_TYPE_REAL:
        atom->real = 0.0;
        break;
    case OVSDB_TYPE_BOOLEAN:
        atom->boolean = false;
        break;
    case OVSDB_TYPE_STRING:
        atom->string = xstrdup("");
        break;
    case OVSDB_TYPE_UUID:
        uuid_zero(&atom->uuid);
        break;
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
    default:
        memset(atom, 0, sizeof *atom);
        break;
    }
}

bool
ovsdb_atom_is_default(const union ovsdb_atom *atom,
                      enum ovsdb_atomic_type type)
{
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        return atom->integer == 0;
    case OVSDB_TYPE_REAL:
        return atom->real == 0.0;
    case OVSDB_TYPE_BOOLEAN:
        return !atom->boolean;
    case OVSDB_TYPE_STRING:
        return atom->string[0] == '\0';
    case OVSDB_TYPE_UUID:
        return uuid_is_zero(&atom->uuid);
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
    default:
        return true;
    }
}

void
ovsdb_atom_clone(union ovsdb_atom *dst, const union ovsdb_atom *src,
                 enum ovsdb_atomic_type type)
{
    if (type == OVSDB_TYPE_STRING) {
        dst->string = xstrdup(src->string);
    } else {
        *dst = *src;
    }
}

void
ovsdb_atom_swap(union ovsdb_atom *a, union ovsdb_atom *b)
{
    union ovsdb_atom tmp = *a;
    *a = *b;
    *b = tmp;
}

void
ovsdb_atom_destroy(union ovsdb_atom *atom, enum ovsdb_atomic_type type)
{
    if (type == OVSDB_TYPE_STRING) {
        free(atom->string);
        atom->string = NULL;
    }
}

uint32_t
ovsdb_atom_hash(const union ovsdb_atom *atom, enum ovsdb_atomic_type type,
                uint32_t basis)
{
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        return hash_uint64_basis(atom->integer, basis);
    case OVSDB_TYPE_REAL: {
        /* -0.0 compares equal to 0.0, so they must hash alike. */
        double real = atom->real == 0.0 ? 0.0 : atom->real;
        return hash_bytes(&real, sizeof real, basis);
    }
    case OVSDB_TYPE_BOOLEAN:
        return hash_boolean(atom->boolean, basis);
    case OVSDB_TYPE_STRING:
        return hash_string(atom->string, basis);
    case OVSDB_TYPE_UUID:
        return hash_words(atom->uuid.parts, 4, basis);
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
    default:
        return basis;
    }
}

int
ovsdb_atom_compare_3way(const union ovsdb_atom *a, const union ovsdb_atom *b,
                        enum ovsdb_atomic_type type)
{
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        return a->integer < b->integer ? -1 : a->integer > b->integer;
    case OVSDB_TYPE_REAL:
        return a->real < b->real ? -1 : a->real > b->real;
    case OVSDB_TYPE_BOOLEAN:
        return (int) a->boolean - (int) b->boolean;
    case OVSDB_TYPE_STRING: {
        int cmp = strcmp(a->string, b->string);
        return cmp < 0 ? -1 : cmp > 0;
    }
    case OVSDB_TYPE_UUID:
        return uuid_compare_3way(&a->uuid, &b->uuid);
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
    default:
        return 0;
    }
}

/* Symbols referenced through a typed column learn whether the reference is
 * strong or weak, so the transaction can check the referenced row's
 * lifetime at commit. */
static void
symbol_referenced(struct ovsdb_symbol *symbol,
                  const struct ovsdb_base_type *base)
{
    if (base && ovsdb_base_type_is_ref(base)) {
        if (base->u.uuid.refType == OVSDB_REF_STRONG) {
            symbol->strong_ref = true;
        } else {
            symbol->weak_ref = true;
        }
    }
}

/* If JSON is the 2-element array [NAME, <string>], stores the string in
 * *VALUE and returns NULL, otherwise a syntax error. */
static struct ovsdb_error *
unwrap_json(const json_t *json, const char *name, json_type value_type,
            const json_t **value)
{
    if (!json_is_array(json) || json_array_size(json) != 2
        || !json_is_string(json_array_get(json, 0))
        || strcmp(json_string_value(json_array_get(json, 0)), name)
        || json_typeof(json_array_get(json, 1)) != value_type) {
        *value = NULL;
        return ovsdb_syntax_error(json, NULL, "expected [\"%s\", <%s>]",
                                  name, (value_type == JSON_STRING ? "string"
                                         : value_type == JSON_ARRAY ? "array"
                                         : "value"));
    }
    *value = json_array_get(json, 1);
    return NULL;
}

static struct ovsdb_error *
parse_uuid_json(union ovsdb_atom *atom, const struct ovsdb_base_type *base,
                const json_t *json, struct ovsdb_symbol_table *symtab)
{
    const json_t *value;
    struct ovsdb_error *error = unwrap_json(json, "uuid", JSON_STRING,
                                            &value);
    if (!error) {
        const char *s = json_string_value(value);
        if (!uuid_from_string(&atom->uuid, s)) {
            return ovsdb_syntax_error(json, NULL,
                                      "\"%s\" is not a valid UUID", s);
        }
        return NULL;
    }

    if (symtab) {
        struct ovsdb_error *error2 = unwrap_json(json, "named-uuid",
                                                 JSON_STRING, &value);
        if (!error2) {
            ovsdb_error_destroy(error);

            const char *name = json_string_value(value);
            if (!ovsdb_is_valid_id(name)) {
                return ovsdb_syntax_error(json, NULL, "named-uuid string is "
                                          "not a valid <id>");
            }
            struct ovsdb_symbol *symbol = ovsdb_symbol_table_insert(symtab,
                                                                    name);
            atom->uuid = symbol->uuid;
            symbol_referenced(symbol, base);
            return NULL;
        }
        ovsdb_error_destroy(error2);
    }
    return error;
}

static struct ovsdb_error *
atom_from_json__(union ovsdb_atom *atom, const struct ovsdb_base_type *base,
                 const json_t *json, struct ovsdb_symbol_table *symtab)
{
    switch (base->type) {
    case OVSDB_TYPE_INTEGER:
        if (json_is_integer(json)) {
            atom->integer = json_integer_value(json);
            return NULL;
        }
        break;
    case OVSDB_TYPE_REAL:
        if (json_is_number(json)) {
            atom->real = json_number_value(json);
            if (atom->real == 0.0) {
                atom->real = 0.0;   /* No negative zero. */
            }
            return NULL;
        }
        break;
    case OVSDB_TYPE_BOOLEAN:
        if (json_is_boolean(json)) {
            atom->boolean = json_is_true(json);
            return NULL;
        }
        break;
    case OVSDB_TYPE_STRING:
        if (json_is_string(json)) {
            atom->string = xmemdup0(json_string_value(json),
                                    json_string_length(json));
            return NULL;
        }
        break;
    case OVSDB_TYPE_UUID:
        return parse_uuid_json(atom, base, json, symtab);
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
    default:
        break;
    }
    return ovsdb_syntax_error(json, NULL, "expected %s",
                              ovsdb_atomic_type_to_string(base->type));
}

struct ovsdb_error *
ovsdb_atom_from_json(union ovsdb_atom *atom,
                     const struct ovsdb_base_type *base, const json_t *json,
                     struct ovsdb_symbol_table *symtab)
{
    struct ovsdb_error *error = atom_from_json__(atom, base, json, symtab);
    if (error) {
        return error;
    }

    error = ovsdb_atom_check_constraints(atom, base);
    if (error) {
        ovsdb_atom_destroy(atom, base->type);
    }
    return error;
}

json_t *
ovsdb_real_to_json(double real)
{
    /* Open vSwitch prints reals with "%.15g", which has no decimal point
     * for an integer value below 1e15. */
    if (real == floor(real) && fabs(real) < 1e15) {
        return json_integer((json_int_t) real);
    }
    return json_real(real);
}

json_t *
ovsdb_atom_to_json(const union ovsdb_atom *atom, enum ovsdb_atomic_type type)
{
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        return json_integer(atom->integer);
    case OVSDB_TYPE_REAL:
        return ovsdb_real_to_json(atom->real);
    case OVSDB_TYPE_BOOLEAN:
        return json_boolean(atom->boolean);
    case OVSDB_TYPE_STRING:
        return json_string(atom->string);
    case OVSDB_TYPE_UUID: {
        char s[UUID_LEN + 1];
        uuid_format(&atom->uuid, s);
        return json_pack("[ss]", "uuid", s);
    }
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
    default:
        return json_null();
    }
}

/* Describes the bad UTF-8 sequence of N bytes at S the way Open vSwitch
 * does: "invalid UTF-8 sequence 0xc3 0x28". */
static char *
invalid_utf8(const unsigned char *s, size_t n)
{
    struct ds msg = DS_EMPTY_INITIALIZER;
    ds_put_cstr(&msg, "invalid UTF-8 sequence");
    for (size_t i = 0; i < n && s[i]; i++) {
        ds_put_format(&msg, " 0x%02x", s[i]);
    }
    return ds_steal_cstr(&msg);
}

/* UTF-8.  Returns NULL and the number of characters in *N_CHARS if S is
 * valid UTF-8 (no overlong forms, surrogates or code points above
 * U+10FFFF), otherwise an error message the caller frees. */
static char *
utf8_validate(const char *s_, size_t *n_chars)
{
    const unsigned char *s = (const unsigned char *) s_;
    size_t n = 0;

    while (*s) {
        unsigned char c = *s;
        size_t len;
        uint32_t cp, min;

        if (c < 0x80) {
            s++;
            n++;
            continue;
        } else if (c >= 0xc2 && c <= 0xdf) {
            len = 2, cp = c & 0x1f, min = 0x80;
        } else if (c >= 0xe0 && c <= 0xef) {
            len = 3, cp = c & 0x0f, min = 0x800;
        } else if (c >= 0xf0 && c <= 0xf4) {
            len = 4, cp = c & 0x07, min = 0x10000;
        } else {
            return invalid_utf8(s, 1);
        }

        for (size_t i = 1; i < len; i++) {
            if ((s[i] & 0xc0) != 0x80) {
                return invalid_utf8(s, i + 1);
            }
            cp = (cp << 6) | (s[i] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            return invalid_utf8(s, len);
        }
        s += len;
        n++;
    }
    *n_chars = n;
    return NULL;
}

static struct ovsdb_error *
check_string_constraints(const char *s, const struct ovsdb_base_type *base)
{
    size_t n_chars = 0;
    char *msg = utf8_validate(s, &n_chars);
    if (msg) {
        struct ovsdb_error *error = ovsdb_error(
            "constraint violation", "not a valid UTF-8 string: %s", msg);
        free(msg);
        return error;
    }

    if (n_chars < base->u.string.minLen) {
        return ovsdb_error("constraint violation",
                           "\"%s\" length %zu is less than minimum allowed "
                           "length %u", s, n_chars, base->u.string.minLen);
    } else if (n_chars > base->u.string.maxLen) {
        return ovsdb_error("constraint violation",
                           "\"%s\" length %zu is greater than maximum "
                           "allowed length %u",
                           s, n_chars, base->u.string.maxLen);
    }
    return NULL;
}

/* The type of a base type's "enum" datum. */
static void
enum_type_init(struct ovsdb_type *type, enum ovsdb_atomic_type atomic_type)
{
    ovsdb_base_type_init(&type->key, atomic_type);
    ovsdb_base_type_init(&type->value, OVSDB_TYPE_VOID);
    type->n_min = 1;
    type->n_max = UINT_MAX;
}

struct ovsdb_error *
ovsdb_atom_check_constraints(const union ovsdb_atom *atom,
                             const struct ovsdb_base_type *base)
{
    if (base->enum_
        && ovsdb_datum_find_key(base->enum_, atom, base->type) == UINT_MAX) {
        struct ds actual = DS_EMPTY_INITIALIZER;
        struct ds valid = DS_EMPTY_INITIALIZER;
        struct ovsdb_type enum_type;

        enum_type_init(&enum_type, base->type);
        ovsdb_atom_to_string(atom, base->type, &actual);
        ovsdb_datum_to_string(base->enum_, &enum_type, &valid);
        struct ovsdb_error *error = ovsdb_error(
            "constraint violation", "%s is not one of the allowed values (%s)",
            ds_cstr(&actual), ds_cstr(&valid));
        ds_destroy(&actual);
        ds_destroy(&valid);
        return error;
    }

    switch (base->type) {
    case OVSDB_TYPE_INTEGER: {
        int64_t x = atom->integer;
        int64_t min = base->u.integer.min, max = base->u.integer.max;
        if (x >= min && x <= max) {
            return NULL;
        } else if (min != INT64_MIN && max != INT64_MAX) {
            return ovsdb_error("constraint violation",
                               "%"PRId64" is not in the valid range "
                               "%"PRId64" to %"PRId64" (inclusive)",
                               x, min, max);
        } else if (min != INT64_MIN) {
            return ovsdb_error("constraint violation",
                               "%"PRId64" is less than minimum allowed "
                               "value %"PRId64, x, min);
        } else {
            return ovsdb_error("constraint violation",
                               "%"PRId64" is greater than maximum allowed "
                               "value %"PRId64, x, max);
        }
    }
    case OVSDB_TYPE_REAL: {
        double x = atom->real;
        double min = base->u.real.min, max = base->u.real.max;
        if (x >= min && x <= max) {
            return NULL;
        } else if (min != -DBL_MAX && max != DBL_MAX) {
            return ovsdb_error("constraint violation",
                               "%.*g is not in the valid range %.*g to %.*g "
                               "(inclusive)",
                               DBL_DIG, x, DBL_DIG, min, DBL_DIG, max);
        } else if (min != -DBL_MAX) {
            return ovsdb_error("constraint violation",
                               "%.*g is less than minimum allowed value %.*g",
                               DBL_DIG, x, DBL_DIG, min);
        } else {
            return ovsdb_error("constraint violation",
                               "%.*g is greater than maximum allowed value "
                               "%.*g", DBL_DIG, x, DBL_DIG, max);
        }
    }
    case OVSDB_TYPE_STRING:
        return check_string_constraints(atom->string, base);
    case OVSDB_TYPE_BOOLEAN:
    case OVSDB_TYPE_UUID:
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
    default:
        return NULL;
    }
}

/* Text forms. */

/* The characters that end a token of the ovs-vsctl syntax when not
 * quoted. */
static bool
is_token_delim(unsigned char c)
{
    return c && strchr(":=, []{}!<>", c) != NULL;
}

/* Whether S would read back differently (or not at all) if printed bare:
 * only identifiers-like strings that are not keywords or uuids are safe. */
static bool
string_needs_quotes(const char *s)
{
    const unsigned char *p = (const unsigned char *) s;

    if (!isalpha(*p) && *p != '_') {
        return true;
    }
    for (p++; *p; p++) {
        if (!isalnum(*p) && *p != '_' && *p != '-' && *p != '.') {
            return true;
        }
    }

    struct uuid uuid;
    return (!strcmp(s, "true") || !strcmp(s, "false")
            || uuid_from_string(&uuid, s));
}

void
ovsdb_atom_to_string(const union ovsdb_atom *atom,
                     enum ovsdb_atomic_type type, struct ds *out)
{
    switch (type) {
    case OVSDB_TYPE_INTEGER:
        ds_put_format(out, "%"PRId64, atom->integer);
        break;
    case OVSDB_TYPE_REAL:
        ds_put_format(out, "%.*g", DBL_DIG, atom->real);
        break;
    case OVSDB_TYPE_BOOLEAN:
        ds_put_cstr(out, atom->boolean ? "true" : "false");
        break;
    case OVSDB_TYPE_STRING:
        if (string_needs_quotes(atom->string)) {
            json_print_string(out, atom->string);
        } else {
            ds_put_cstr(out, atom->string);
        }
        break;
    case OVSDB_TYPE_UUID:
        ds_put_format(out, UUID_FMT, UUID_ARGS(&atom->uuid));
        break;
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
    default:
        break;
    }
}

void
ovsdb_atom_to_bare(const union ovsdb_atom *atom, enum ovsdb_atomic_type type,
                   struct ds *out)
{
    if (type == OVSDB_TYPE_STRING) {
        ds_put_cstr(out, atom->string);
    } else {
        ovsdb_atom_to_string(atom, type, out);
    }
}

/* Reads the 4 hex digits of a \u escape at *P into *CP and advances *P.
 * Returns NULL or an error message. */
static char *
parse_hex4(const char **p, const char *end, unsigned int *cp)
{
    *cp = 0;
    for (int i = 0; i < 4; i++) {
        if (*p >= end) {
            return xstrdup("quoted string ends within \\u escape");
        }
        int c = (unsigned char) *(*p)++;
        int v = (c >= '0' && c <= '9' ? c - '0'
                 : c >= 'a' && c <= 'f' ? c - 'a' + 10
                 : c >= 'A' && c <= 'F' ? c - 'A' + 10
                 : -1);
        if (v < 0) {
            return xstrdup("malformed \\u escape");
        }
        *cp = (*cp << 4) | v;
    }
    return NULL;
}

static void
put_utf8(struct ds *out, unsigned int cp)
{
    if (cp < 0x80) {
        ds_put_char(out, cp);
    } else if (cp < 0x800) {
        ds_put_char(out, 0xc0 | (cp >> 6));
        ds_put_char(out, 0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        ds_put_char(out, 0xe0 | (cp >> 12));
        ds_put_char(out, 0x80 | ((cp >> 6) & 0x3f));
        ds_put_char(out, 0x80 | (cp & 0x3f));
    } else {
        ds_put_char(out, 0xf0 | (cp >> 18));
        ds_put_char(out, 0x80 | ((cp >> 12) & 0x3f));
        ds_put_char(out, 0x80 | ((cp >> 6) & 0x3f));
        ds_put_char(out, 0x80 | (cp & 0x3f));
    }
}

/* Decodes the body S (LEN bytes, without the quotes) of a JSON string
 * literal into a new string in *OUT, with the escapes and error messages
 * of ovs-vsctl.  Returns NULL or an error message. */
static char *
json_string_unescape(const char *s, size_t len, char **out)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    const char *p = s, *end = s + len;
    char *error = NULL;

    *out = NULL;
    while (p < end && !error) {
        char c = *p++;
        if (c == '"') {
            error = xstrdup("quoted string may not include unescaped \"");
        } else if (c != '\\') {
            ds_put_char(&ds, c);
        } else if (p >= end) {
            error = xstrdup("quoted string may not end with backslash");
        } else {
            c = *p++;
            switch (c) {
            case '"': case '\\': case '/':
                ds_put_char(&ds, c);
                break;
            case 'b':
                ds_put_char(&ds, '\b');
                break;
            case 'f':
                ds_put_char(&ds, '\f');
                break;
            case 'n':
                ds_put_char(&ds, '\n');
                break;
            case 'r':
                ds_put_char(&ds, '\r');
                break;
            case 't':
                ds_put_char(&ds, '\t');
                break;
            case 'u': {
                unsigned int cp, cp2;
                error = parse_hex4(&p, end, &cp);
                if (error) {
                    break;
                } else if (!cp) {
                    error = xstrdup("null bytes not supported in quoted "
                                    "strings");
                } else if (cp >= 0xd800 && cp <= 0xdbff) {
                    if (end - p < 2 || p[0] != '\\' || p[1] != 'u') {
                        error = xstrdup("malformed escaped surrogate pair");
                        break;
                    }
                    p += 2;
                    error = parse_hex4(&p, end, &cp2);
                    if (error) {
                        break;
                    } else if (cp2 < 0xdc00 || cp2 > 0xdfff) {
                        error = xstrdup("second half of escaped surrogate "
                                        "pair is not trailing surrogate");
                        break;
                    }
                    put_utf8(&ds, 0x10000 + ((cp - 0xd800) << 10)
                                  + (cp2 - 0xdc00));
                } else if (cp >= 0xdc00 && cp <= 0xdfff) {
                    error = xstrdup("malformed escaped surrogate pair");
                } else {
                    put_utf8(&ds, cp);
                }
                break;
            }
            default:
                error = xasprintf("bad escape \\%c", c);
                break;
            }
        }
    }

    if (error) {
        ds_destroy(&ds);
        return error;
    }
    *out = ds_steal_cstr(&ds);
    return NULL;
}

static char *
atom_from_string__(union ovsdb_atom *atom, const struct ovsdb_base_type *base,
                   const char *s, struct ovsdb_symbol_table *symtab)
{
    switch (base->type) {
    case OVSDB_TYPE_INTEGER: {
        long long int integer;
        if (!str_to_llong(s, 10, &integer)) {
            return xasprintf("\"%s\" is not a valid integer", s);
        }
        atom->integer = integer;
        return NULL;
    }
    case OVSDB_TYPE_REAL:
        if (!str_to_double(s, &atom->real)) {
            return xasprintf("\"%s\" is not a valid real number", s);
        }
        if (atom->real == 0.0) {
            atom->real = 0.0;   /* As from JSON: no negative zero. */
        }
        return NULL;
    case OVSDB_TYPE_BOOLEAN:
        if (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "on")
            || !strcmp(s, "1")) {
            atom->boolean = true;
        } else if (!strcmp(s, "false") || !strcmp(s, "no")
                   || !strcmp(s, "off") || !strcmp(s, "0")) {
            atom->boolean = false;
        } else {
            return xasprintf("\"%s\" is not a valid boolean "
                             "(use \"true\" or \"false\")", s);
        }
        return NULL;
    case OVSDB_TYPE_STRING:
        if (*s == '\0') {
            return xstrdup("An empty string is not valid as input; "
                           "use \"\" to represent the empty string");
        } else if (*s == '"') {
            size_t len = strlen(s);
            if (len < 2 || s[len - 1] != '"') {
                return xasprintf("%s: missing quote at end of quoted string",
                                 s);
            }
            char *msg = json_string_unescape(s + 1, len - 2, &atom->string);
            if (msg) {
                char *error = xasprintf("%s: %s", s, msg);
                free(msg);
                return error;
            }
        } else {
            atom->string = xstrdup(s);
        }
        return NULL;
    case OVSDB_TYPE_UUID:
        if (*s == '@' && symtab) {
            struct ovsdb_symbol *symbol = ovsdb_symbol_table_insert(symtab,
                                                                    s);
            atom->uuid = symbol->uuid;
            symbol_referenced(symbol, base);
        } else if (!uuid_from_string(&atom->uuid, s)) {
            return xasprintf("\"%s\" is not a valid UUID", s);
        }
        return NULL;
    case OVSDB_TYPE_VOID:
    case OVSDB_N_TYPES:
    default:
        return xstrdup("cannot parse an atom of type void");
    }
}

char *
ovsdb_atom_from_string(union ovsdb_atom *atom,
                       const struct ovsdb_base_type *base, const char *s,
                       struct ovsdb_symbol_table *symtab)
{
    char *msg = atom_from_string__(atom, base, s, symtab);
    if (msg) {
        return msg;
    }

    struct ovsdb_error *error = ovsdb_atom_check_constraints(atom, base);
    if (error) {
        ovsdb_atom_destroy(atom, base->type);
        return ovsdb_error_to_string_free(error);
    }
    return NULL;
}

/* Datums. */

void
ovsdb_datum_init_empty(struct ovsdb_datum *datum)
{
    datum->n = 0;
    datum->keys = NULL;
    datum->values = NULL;
}

static union ovsdb_atom *
alloc_default_atoms(enum ovsdb_atomic_type type, size_t n)
{
    if (type == OVSDB_TYPE_VOID || !n) {
        return NULL;
    }
    union ovsdb_atom *atoms = xmalloc(n * sizeof *atoms);
    for (size_t i = 0; i < n; i++) {
        ovsdb_atom_init_default(&atoms[i], type);
    }
    return atoms;
}

void
ovsdb_datum_init_default(struct ovsdb_datum *datum,
                         const struct ovsdb_type *type)
{
    datum->n = type->n_min;
    datum->keys = alloc_default_atoms(type->key.type, datum->n);
    datum->values = alloc_default_atoms(type->value.type, datum->n);
}

bool
ovsdb_datum_is_default(const struct ovsdb_datum *datum,
                       const struct ovsdb_type *type)
{
    if (datum->n != type->n_min) {
        return false;
    }
    for (size_t i = 0; i < datum->n; i++) {
        if (!ovsdb_atom_is_default(&datum->keys[i], type->key.type)
            || (type->value.type != OVSDB_TYPE_VOID
                && !ovsdb_atom_is_default(&datum->values[i],
                                          type->value.type))) {
            return false;
        }
    }
    return true;
}

void
ovsdb_datum_init_atom(struct ovsdb_datum *datum, const union ovsdb_atom *atom,
                      enum ovsdb_atomic_type type)
{
    datum->n = 1;
    datum->keys = xmalloc(sizeof *datum->keys);
    ovsdb_atom_clone(&datum->keys[0], atom, type);
    datum->values = NULL;
}

static union ovsdb_atom *
clone_atoms(const union ovsdb_atom *old, enum ovsdb_atomic_type type,
            size_t n)
{
    if (type == OVSDB_TYPE_VOID || !n || !old) {
        return NULL;
    }
    union ovsdb_atom *new = xmalloc(n * sizeof *new);
    if (type == OVSDB_TYPE_STRING) {
        for (size_t i = 0; i < n; i++) {
            new[i].string = xstrdup(old[i].string);
        }
    } else {
        memcpy(new, old, n * sizeof *new);
    }
    return new;
}

void
ovsdb_datum_clone(struct ovsdb_datum *dst, const struct ovsdb_datum *src,
                  const struct ovsdb_type *type)
{
    dst->n = src->n;
    dst->keys = clone_atoms(src->keys, type->key.type, src->n);
    dst->values = clone_atoms(src->values, type->value.type, src->n);
}

static void
free_atoms(union ovsdb_atom *atoms, enum ovsdb_atomic_type type, size_t n)
{
    if (atoms && type == OVSDB_TYPE_STRING) {
        for (size_t i = 0; i < n; i++) {
            free(atoms[i].string);
        }
    }
    free(atoms);
}

void
ovsdb_datum_destroy(struct ovsdb_datum *datum, const struct ovsdb_type *type)
{
    free_atoms(datum->keys, type->key.type, datum->n);
    free_atoms(datum->values, type->value.type, datum->n);
    ovsdb_datum_init_empty(datum);
}

void
ovsdb_datum_swap(struct ovsdb_datum *a, struct ovsdb_datum *b)
{
    struct ovsdb_datum tmp = *a;
    *a = *b;
    *b = tmp;
}

/* Sorting. */

struct sort_aux {
    const union ovsdb_atom *keys;
    enum ovsdb_atomic_type key_type;
};

/* Sorts indexes by key, and equal keys by index so that the sort is stable
 * (sort_unique() keeps the first of each key). */
static int
compare_indexes(const void *a_, const void *b_, void *aux_)
{
    const struct sort_aux *aux = aux_;
    unsigned int a = *(const unsigned int *) a_;
    unsigned int b = *(const unsigned int *) b_;
    int cmp = ovsdb_atom_compare_3way(&aux->keys[a], &aux->keys[b],
                                      aux->key_type);
    return cmp ? cmp : (a < b ? -1 : a > b);
}

static bool
is_sorted(const struct ovsdb_datum *datum, enum ovsdb_atomic_type key_type)
{
    for (size_t i = 1; i < datum->n; i++) {
        if (ovsdb_atom_compare_3way(&datum->keys[i - 1], &datum->keys[i],
                                    key_type) >= 0) {
            return false;
        }
    }
    return true;
}

/* Sorts DATUM stably by key.  Returns true if no two keys are equal. */
static bool
datum_sort__(struct ovsdb_datum *datum, enum ovsdb_atomic_type key_type)
{
    if (datum->n < 2 || is_sorted(datum, key_type)) {
        return true;
    }

    unsigned int *order = xmalloc(datum->n * sizeof *order);
    for (unsigned int i = 0; i < datum->n; i++) {
        order[i] = i;
    }
    struct sort_aux aux = { datum->keys, key_type };
    qsort_r(order, datum->n, sizeof *order, compare_indexes, &aux);

    union ovsdb_atom *keys = xmalloc(datum->n * sizeof *keys);
    union ovsdb_atom *values = (datum->values
                                ? xmalloc(datum->n * sizeof *values)
                                : NULL);
    for (unsigned int i = 0; i < datum->n; i++) {
        keys[i] = datum->keys[order[i]];
        if (values) {
            values[i] = datum->values[order[i]];
        }
    }
    free(order);
    free(datum->keys);
    free(datum->values);
    datum->keys = keys;
    datum->values = values;

    for (size_t i = 1; i < datum->n; i++) {
        if (ovsdb_atom_equals(&keys[i - 1], &keys[i], key_type)) {
            return false;
        }
    }
    return true;
}

struct ovsdb_error *
ovsdb_datum_sort(struct ovsdb_datum *datum, enum ovsdb_atomic_type key_type)
{
    if (datum_sort__(datum, key_type)) {
        return NULL;
    }
    /* Open vSwitch reports this without a more specific tag. */
    return ovsdb_error("ovsdb error",
                       datum->values ? "map contains duplicate key"
                                     : "set contains duplicate");
}

void
ovsdb_datum_sort_assert(struct ovsdb_datum *datum,
                        enum ovsdb_atomic_type key_type)
{
    bool unique = datum_sort__(datum, key_type);
    ovs_assert(unique);
}

size_t
ovsdb_datum_sort_unique(struct ovsdb_datum *datum,
                        enum ovsdb_atomic_type key_type,
                        enum ovsdb_atomic_type value_type)
{
    if (datum_sort__(datum, key_type)) {
        return datum->n;
    }

    size_t dst = 1;
    for (size_t src = 1; src < datum->n; src++) {
        if (ovsdb_atom_equals(&datum->keys[src], &datum->keys[dst - 1],
                              key_type)) {
            ovsdb_atom_destroy(&datum->keys[src], key_type);
            if (datum->values) {
                ovsdb_atom_destroy(&datum->values[src], value_type);
            }
        } else {
            if (src != dst) {
                datum->keys[dst] = datum->keys[src];
                if (datum->values) {
                    datum->values[dst] = datum->values[src];
                }
            }
            dst++;
        }
    }
    datum->n = dst;
    return dst;
}

struct ovsdb_error *
ovsdb_datum_check_constraints(const struct ovsdb_datum *datum,
                              const struct ovsdb_type *type)
{
    for (size_t i = 0; i < datum->n; i++) {
        struct ovsdb_error *error
            = ovsdb_atom_check_constraints(&datum->keys[i], &type->key);
        if (!error && type->value.type != OVSDB_TYPE_VOID) {
            error = ovsdb_atom_check_constraints(&datum->values[i],
                                                 &type->value);
        }
        if (error) {
            return error;
        }
    }
    return NULL;
}

/* JSON. */

static struct ovsdb_error *
parse_json_pair(const json_t *json, union ovsdb_atom *key,
                union ovsdb_atom *value, const struct ovsdb_type *type,
                struct ovsdb_symbol_table *symtab)
{
    if (!json_is_array(json) || json_array_size(json) != 2) {
        return ovsdb_syntax_error(json, NULL, "expected 2-element array");
    }

    struct ovsdb_error *error = ovsdb_atom_from_json(
        key, &type->key, json_array_get(json, 0), symtab);
    if (!error) {
        error = ovsdb_atom_from_json(value, &type->value,
                                     json_array_get(json, 1), symtab);
        if (error) {
            ovsdb_atom_destroy(key, type->key.type);
        }
    }
    return error;
}

static bool
is_set_json(const json_t *json)
{
    const json_t *first = json_array_get(json, 0);
    return (json_is_array(json) && json_is_string(first)
            && !strcmp(json_string_value(first), "set"));
}

struct ovsdb_error *
ovsdb_datum_from_json(struct ovsdb_datum *datum,
                      const struct ovsdb_type *type, const json_t *json,
                      struct ovsdb_symbol_table *symtab)
{
    struct ovsdb_error *error;

    ovsdb_datum_init_empty(datum);

    if (!ovsdb_type_is_map(type) && !is_set_json(json)) {
        union ovsdb_atom atom;
        error = ovsdb_atom_from_json(&atom, &type->key, json, symtab);
        if (!error) {
            datum->n = 1;
            datum->keys = xmemdup(&atom, sizeof atom);
        }
        return error;
    }

    bool is_map = ovsdb_type_is_map(type);
    const char *class = is_map ? "map" : "set";
    const json_t *inner;
    error = unwrap_json(json, class, JSON_ARRAY, &inner);
    if (error) {
        return error;
    }

    size_t n = json_array_size(inner);
    if (n < type->n_min || n > type->n_max) {
        if (type->n_min == 1 && type->n_max == 1) {
            return ovsdb_syntax_error(json, NULL, "%s must have exactly one "
                                      "member but %zu are present", class, n);
        }
        return ovsdb_syntax_error(json, NULL, "%s must have %u to %u members "
                                  "but %zu are present",
                                  class, type->n_min, type->n_max, n);
    }

    datum->keys = n ? xmalloc(n * sizeof *datum->keys) : NULL;
    datum->values = is_map && n ? xmalloc(n * sizeof *datum->values) : NULL;
    for (size_t i = 0; i < n; i++) {
        const json_t *element = json_array_get(inner, i);
        union ovsdb_atom *key = &datum->keys[i];
        union ovsdb_atom *value = is_map ? &datum->values[i] : NULL;

        error = (is_map
                 ? parse_json_pair(element, key, value, type, symtab)
                 : ovsdb_atom_from_json(key, &type->key, element, symtab));
        if (error) {
            goto error;
        }
        datum->n++;
    }

    error = ovsdb_datum_sort(datum, type->key.type);
    if (error) {
        goto error;
    }
    return NULL;

error:
    ovsdb_datum_destroy(datum, type);
    return error;
}

json_t *
ovsdb_datum_to_json(const struct ovsdb_datum *datum,
                    const struct ovsdb_type *type)
{
    if (ovsdb_type_is_map(type)) {
        json_t *pairs = json_array();
        for (size_t i = 0; i < datum->n; i++) {
            json_array_append_new(pairs, json_pack(
                "[oo]", ovsdb_atom_to_json(&datum->keys[i], type->key.type),
                ovsdb_atom_to_json(&datum->values[i], type->value.type)));
        }
        return json_pack("[so]", "map", pairs);
    } else if (datum->n == 1) {
        return ovsdb_atom_to_json(&datum->keys[0], type->key.type);
    } else {
        json_t *elems = json_array();
        for (size_t i = 0; i < datum->n; i++) {
            json_array_append_new(elems, ovsdb_atom_to_json(&datum->keys[i],
                                                            type->key.type));
        }
        return json_pack("[so]", "set", elems);
    }
}

/* Text forms of datums. */

static const char *
skip_spaces(const char *p)
{
    while (isspace((unsigned char) *p)) {
        p++;
    }
    return p;
}

/* Reads one token of the ovs-vsctl syntax from *S into a new string in
 * *OUT and advances *S past it.  Outside double quotes a backslash takes
 * the next character literally and a delimiter ends the token; inside them
 * everything is kept, escapes included, for the JSON string decoder. */
static char *
parse_token(const char **s, char **out)
{
    struct ds token = DS_EMPTY_INITIALIZER;
    bool in_quotes = false;
    const char *p;

    for (p = *s; *p; ) {
        char c = *p++;
        if (c == '\\') {
            if (in_quotes) {
                ds_put_char(&token, '\\');
            }
            if (!*p) {
                ds_destroy(&token);
                return xasprintf("%s: backslash at end of argument", *s);
            }
            ds_put_char(&token, *p++);
        } else if (!in_quotes && is_token_delim(c)) {
            p--;
            break;
        } else {
            ds_put_char(&token, c);
            if (c == '"') {
                in_quotes = !in_quotes;
            }
        }
    }
    if (in_quotes) {
        ds_destroy(&token);
        return xasprintf("%s: quoted string extends past end of argument",
                         *s);
    }
    *out = ds_steal_cstr(&token);
    *s = p;
    return NULL;
}

/* Largest number of integers one "START-END" range may stand for. */
#define MAX_RANGE_SIZE 4096

/* Parses S as an integer key that may also be a range "START-END" (as
 * ovs-vsctl accepts for integer sets, e.g. "trunks=1-10").  On success
 * stores START in *ATOM and END in *END (equal to START for a single
 * integer). */
static char *
integer_range_from_string(union ovsdb_atom *atom, int64_t *end,
                          const struct ovsdb_base_type *base, const char *s)
{
    long long int start, stop;
    int n = -1;

    if (sscanf(s, "%lld-%lld%n", &start, &stop, &n) == 2 && n >= 0
        && !s[n]) {
        if (stop < start) {
            return xasprintf("\"%s\" is not a valid range. "
                             "Range end cannot be before start.", s);
        }
    } else if (str_to_llong(s, 10, &start)) {
        stop = start;
    } else {
        return xasprintf("\"%s\" is not a valid integer or range", s);
    }

    union ovsdb_atom stop_atom = { .integer = stop };
    atom->integer = start;
    struct ovsdb_error *error = ovsdb_atom_check_constraints(atom, base);
    if (!error) {
        error = ovsdb_atom_check_constraints(&stop_atom, base);
    }
    if (!error && (uint64_t) stop - (uint64_t) start >= MAX_RANGE_SIZE) {
        error = ovsdb_error("constraint violation", "Range \"%lld-%lld\" is "
                            "too big. Maximum allowed size is %d.",
                            start, stop, MAX_RANGE_SIZE);
    }
    /* With an enum, the integers between the ends must be allowed too. */
    for (long long int i = start; !error && base->enum_ && i < stop; ) {
        union ovsdb_atom middle = { .integer = ++i };
        error = ovsdb_atom_check_constraints(&middle, base);
    }
    if (error) {
        return ovsdb_error_to_string_free(error);
    }
    *end = stop;
    return NULL;
}

/* Reads one token from *S and parses it as an atom of BASE's type.  If
 * RANGE_END is nonnull and BASE is an integer type, the token may be a
 * range; *RANGE_END receives its end (else the atom itself). */
static char *
parse_atom_token(const char **s, const struct ovsdb_base_type *base,
                 union ovsdb_atom *atom, int64_t *range_end,
                 struct ovsdb_symbol_table *symtab)
{
    char *token;
    char *error = parse_token(s, &token);
    if (!error) {
        if (range_end && base->type == OVSDB_TYPE_INTEGER) {
            error = integer_range_from_string(atom, range_end, base, token);
        } else {
            error = ovsdb_atom_from_string(atom, base, token, symtab);
        }
        free(token);
    }
    return error;
}

static char *
parse_key_value(const char **s, const struct ovsdb_type *type,
                union ovsdb_atom *key, int64_t *range_end,
                union ovsdb_atom *value, struct ovsdb_symbol_table *symtab)
{
    const char *start = *s;
    char *error = parse_atom_token(s, &type->key, key, range_end, symtab);

    if (!error && type->value.type != OVSDB_TYPE_VOID) {
        *s = skip_spaces(*s);
        if (**s == '=') {
            (*s)++;
            *s = skip_spaces(*s);
            error = parse_atom_token(s, &type->value, value, NULL, symtab);
        } else {
            error = xasprintf("%s: syntax error at \"%c\" expecting \"=\"",
                              start, **s);
        }
        if (error) {
            ovsdb_atom_destroy(key, type->key.type);
        }
    }
    return error;
}

char *
ovsdb_datum_from_string(struct ovsdb_datum *datum,
                        const struct ovsdb_type *type, const char *s,
                        struct ovsdb_symbol_table *symtab)
{
    bool is_map = ovsdb_type_is_map(type);
    char *error;
    char end_delim;

    ovsdb_datum_init_empty(datum);

    const char *p = skip_spaces(s);
    if (*p == (is_map ? '{' : '[')) {
        end_delim = is_map ? '}' : ']';
        p = skip_spaces(p + 1);
    } else if (!*p) {
        return xstrdup(is_map ? "use \"{}\" to specify the empty map"
                              : "use \"[]\" to specify the empty set");
    } else {
        end_delim = '\0';
    }

    while (*p && *p != end_delim) {
        if (is_token_delim(*p)) {
            char *type_str = ovsdb_type_to_english(type);
            error = xasprintf("%s: unexpected \"%c\" parsing %s",
                              s, *p, type_str);
            free(type_str);
            goto error;
        }

        union ovsdb_atom key, value;
        int64_t range_end = 0;
        error = parse_key_value(&p, type, &key,
                                is_map ? NULL : &range_end, &value, symtab);
        if (error) {
            goto error;
        }
        ovsdb_datum_add_unsafe(datum, &key, is_map ? &value : NULL, type);
        if (!is_map && type->key.type == OVSDB_TYPE_INTEGER) {
            for (int64_t i = key.integer; i < range_end; ) {
                union ovsdb_atom next = { .integer = ++i };
                ovsdb_datum_add_unsafe(datum, &next, NULL, type);
            }
        }

        p = skip_spaces(p);
        if (*p == ',') {
            p = skip_spaces(p + 1);
        }
    }

    if (*p != end_delim) {
        error = xasprintf("%s: missing \"%c\" at end of data", s, end_delim);
        goto error;
    }
    if (end_delim) {
        p = skip_spaces(p + 1);
        if (*p) {
            error = xasprintf("%s: trailing garbage after \"%c\"",
                              s, end_delim);
            goto error;
        }
    }

    if (datum->n < type->n_min) {
        error = xasprintf("%s: %u %s specified but the minimum number is %u",
                          s, datum->n, is_map ? "pair(s)" : "value(s)",
                          type->n_min);
        goto error;
    } else if (datum->n > type->n_max) {
        error = xasprintf("%s: %u %s specified but the maximum number is %u",
                          s, datum->n, is_map ? "pair(s)" : "value(s)",
                          type->n_max);
        goto error;
    }

    if (!datum_sort__(datum, type->key.type)) {
        error = xasprintf(is_map ? "%s: map contains duplicate key"
                                 : "%s: set contains duplicate value", s);
        goto error;
    }
    return NULL;

error:
    ovsdb_datum_destroy(datum, type);
    return error;
}

void
ovsdb_datum_to_string(const struct ovsdb_datum *datum,
                      const struct ovsdb_type *type, struct ds *out)
{
    bool is_map = ovsdb_type_is_map(type);
    bool brackets = type->n_max > 1 || !datum->n;

    if (brackets) {
        ds_put_char(out, is_map ? '{' : '[');
    }
    for (size_t i = 0; i < datum->n; i++) {
        if (i > 0) {
            ds_put_cstr(out, ", ");
        }
        ovsdb_atom_to_string(&datum->keys[i], type->key.type, out);
        if (is_map) {
            ds_put_char(out, '=');
            ovsdb_atom_to_string(&datum->values[i], type->value.type, out);
        }
    }
    if (brackets) {
        ds_put_char(out, is_map ? '}' : ']');
    }
}

void
ovsdb_datum_to_bare(const struct ovsdb_datum *datum,
                    const struct ovsdb_type *type, struct ds *out)
{
    bool is_map = ovsdb_type_is_map(type);

    for (size_t i = 0; i < datum->n; i++) {
        if (i > 0) {
            ds_put_char(out, ' ');
        }
        ovsdb_atom_to_bare(&datum->keys[i], type->key.type, out);
        if (is_map) {
            ds_put_char(out, '=');
            ovsdb_atom_to_bare(&datum->values[i], type->value.type, out);
        }
    }
}

void
ovsdb_datum_from_smap(struct ovsdb_datum *datum, const struct smap *smap)
{
    size_t n = smap_count(smap);

    datum->n = 0;
    datum->keys = n ? xmalloc(n * sizeof *datum->keys) : NULL;
    datum->values = n ? xmalloc(n * sizeof *datum->values) : NULL;

    const struct smap_node *node;
    SMAP_FOR_EACH (node, smap) {
        datum->keys[datum->n].string = xstrdup(node->key);
        datum->values[datum->n].string = xstrdup(node->value);
        datum->n++;
    }
    ovsdb_datum_sort_assert(datum, OVSDB_TYPE_STRING);
}

/* Comparison and lookup. */

uint32_t
ovsdb_datum_hash(const struct ovsdb_datum *datum,
                 const struct ovsdb_type *type, uint32_t basis)
{
    uint32_t hash = hash_int(datum->n, basis);
    for (size_t i = 0; i < datum->n; i++) {
        hash = ovsdb_atom_hash(&datum->keys[i], type->key.type, hash);
        if (type->value.type != OVSDB_TYPE_VOID) {
            hash = ovsdb_atom_hash(&datum->values[i], type->value.type,
                                   hash);
        }
    }
    return hash;
}

int
ovsdb_datum_compare_3way(const struct ovsdb_datum *a,
                         const struct ovsdb_datum *b,
                         const struct ovsdb_type *type)
{
    if (a->n != b->n) {
        return a->n < b->n ? -1 : 1;
    }
    for (size_t i = 0; i < a->n; i++) {
        int cmp = ovsdb_atom_compare_3way(&a->keys[i], &b->keys[i],
                                          type->key.type);
        if (cmp) {
            return cmp;
        }
    }
    if (type->value.type != OVSDB_TYPE_VOID) {
        for (size_t i = 0; i < a->n; i++) {
            int cmp = ovsdb_atom_compare_3way(&a->values[i], &b->values[i],
                                              type->value.type);
            if (cmp) {
                return cmp;
            }
        }
    }
    return 0;
}

bool
ovsdb_datum_equals(const struct ovsdb_datum *a, const struct ovsdb_datum *b,
                   const struct ovsdb_type *type)
{
    return !ovsdb_datum_compare_3way(a, b, type);
}

unsigned int
ovsdb_datum_find_key(const struct ovsdb_datum *datum,
                     const union ovsdb_atom *key,
                     enum ovsdb_atomic_type key_type)
{
    unsigned int low = 0, high = datum->n;

    while (low < high) {
        unsigned int mid = low + (high - low) / 2;
        int cmp = ovsdb_atom_compare_3way(key, &datum->keys[mid], key_type);
        if (cmp < 0) {
            high = mid;
        } else if (cmp > 0) {
            low = mid + 1;
        } else {
            return mid;
        }
    }
    return UINT_MAX;
}

unsigned int
ovsdb_datum_find_key_value(const struct ovsdb_datum *datum,
                           const union ovsdb_atom *key,
                           enum ovsdb_atomic_type key_type,
                           const union ovsdb_atom *value,
                           enum ovsdb_atomic_type value_type)
{
    unsigned int idx = ovsdb_datum_find_key(datum, key, key_type);
    if (idx != UINT_MAX && value_type != OVSDB_TYPE_VOID
        && !ovsdb_atom_equals(&datum->values[idx], value, value_type)) {
        idx = UINT_MAX;
    }
    return idx;
}

/* Index in B of element I of A (for maps, only if the values match too),
 * or UINT_MAX. */
static unsigned int
find_element_in(const struct ovsdb_datum *a, size_t i,
                const struct ovsdb_datum *b, const struct ovsdb_type *type)
{
    return ovsdb_datum_find_key_value(
        b, &a->keys[i], type->key.type,
        a->values ? &a->values[i] : NULL,
        a->values ? type->value.type : OVSDB_TYPE_VOID);
}

bool
ovsdb_datum_includes_all(const struct ovsdb_datum *a,
                         const struct ovsdb_datum *b,
                         const struct ovsdb_type *type)
{
    if (a->n > b->n) {
        return false;
    }
    for (size_t i = 0; i < a->n; i++) {
        if (find_element_in(a, i, b, type) == UINT_MAX) {
            return false;
        }
    }
    return true;
}

bool
ovsdb_datum_excludes_all(const struct ovsdb_datum *a,
                         const struct ovsdb_datum *b,
                         const struct ovsdb_type *type)
{
    for (size_t i = 0; i < a->n; i++) {
        if (find_element_in(a, i, b, type) != UINT_MAX) {
            return false;
        }
    }
    return true;
}

/* Initializes DATUM as empty with room for N elements. */
static void
init_with_room(struct ovsdb_datum *datum, size_t n,
               const struct ovsdb_type *type)
{
    ovsdb_datum_init_empty(datum);
    if (n) {
        datum->keys = xmalloc(n * sizeof *datum->keys);
        if (type->value.type != OVSDB_TYPE_VOID) {
            datum->values = xmalloc(n * sizeof *datum->values);
        }
    }
}

/* Frees the arrays of DATUM if it ended up empty, so that an empty datum
 * never holds memory. */
static void
trim_empty(struct ovsdb_datum *datum)
{
    if (!datum->n) {
        free(datum->keys);
        free(datum->values);
        ovsdb_datum_init_empty(datum);
    }
}

/* Makes room for at least N elements in DATUM. */
static void
datum_reserve(struct ovsdb_datum *datum, size_t n, bool has_values)
{
    datum->keys = xrealloc(datum->keys, MAX(n, 1) * sizeof *datum->keys);
    if (has_values) {
        datum->values = xrealloc(datum->values,
                                 MAX(n, 1) * sizeof *datum->values);
    }
}

void
ovsdb_datum_union(struct ovsdb_datum *a, const struct ovsdb_datum *b,
                  const struct ovsdb_type *type)
{
    enum ovsdb_atomic_type key_type = type->key.type;
    bool is_map = type->value.type != OVSDB_TYPE_VOID;

    if (!b->n) {
        return;
    }
    if (!is_sorted(b, key_type)) {
        /* Only a caller that built B by hand can get here. */
        struct ovsdb_datum sorted;
        ovsdb_datum_clone(&sorted, b, type);
        ovsdb_datum_sort_unique(&sorted, key_type, type->value.type);
        ovsdb_datum_union(a, &sorted, type);
        ovsdb_datum_destroy(&sorted, type);
        return;
    }

    /* Both sides are sorted, so one merge pass does it: the run of A's
     * keys below each key of B is found by binary search and copied in one
     * piece, so adding a port to a bridge of 10,000 costs a few comparisons
     * and a copy, not a comparison per port.  A key already in A keeps A's
     * value. */
    union ovsdb_atom *keys = xmalloc((a->n + b->n) * sizeof *keys);
    union ovsdb_atom *values = (is_map
                                ? xmalloc((a->n + b->n) * sizeof *values)
                                : NULL);
    size_t i = 0, n = 0;
    for (size_t j = 0; j < b->n; j++) {
        size_t lo = i, hi = a->n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (ovsdb_atom_compare_3way(&a->keys[mid], &b->keys[j],
                                        key_type) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        bool in_a = (lo < a->n
                     && ovsdb_atom_equals(&a->keys[lo], &b->keys[j],
                                          key_type));
        size_t run = lo - i + in_a;
        if (run) {
            memcpy(&keys[n], &a->keys[i], run * sizeof *keys);
            if (is_map) {
                memcpy(&values[n], &a->values[i], run * sizeof *values);
            }
            n += run;
            i += run;
        }
        if (!in_a) {
            ovsdb_atom_clone(&keys[n], &b->keys[j], key_type);
            if (is_map) {
                ovsdb_atom_clone(&values[n], &b->values[j],
                                 type->value.type);
            }
            n++;
        }
    }
    if (i < a->n) {
        memcpy(&keys[n], &a->keys[i], (a->n - i) * sizeof *keys);
        if (is_map) {
            memcpy(&values[n], &a->values[i], (a->n - i) * sizeof *values);
        }
        n += a->n - i;
    }
    free(a->keys);
    free(a->values);
    a->keys = keys;
    a->values = values;
    a->n = n;
}

void
ovsdb_datum_subtract(struct ovsdb_datum *a, const struct ovsdb_type *a_type,
                     const struct ovsdb_datum *b,
                     const struct ovsdb_type *b_type)
{
    bool by_pair = b_type->value.type != OVSDB_TYPE_VOID;
    size_t dst = 0;

    for (size_t i = 0; i < a->n; i++) {
        unsigned int idx = (by_pair
                            ? ovsdb_datum_find_key_value(
                                b, &a->keys[i], a_type->key.type,
                                &a->values[i], a_type->value.type)
                            : ovsdb_datum_find_key(b, &a->keys[i],
                                                   a_type->key.type));
        if (idx != UINT_MAX) {
            ovsdb_atom_destroy(&a->keys[i], a_type->key.type);
            if (a->values) {
                ovsdb_atom_destroy(&a->values[i], a_type->value.type);
            }
        } else {
            a->keys[dst] = a->keys[i];
            if (a->values) {
                a->values[dst] = a->values[i];
            }
            dst++;
        }
    }
    a->n = dst;
    trim_empty(a);
}

void
ovsdb_datum_add_unsafe(struct ovsdb_datum *datum, const union ovsdb_atom *key,
                       const union ovsdb_atom *value,
                       const struct ovsdb_type *type)
{
    bool is_map = type->value.type != OVSDB_TYPE_VOID;

    datum_reserve(datum, datum->n + 1, is_map);
    datum->keys[datum->n] = *key;
    if (is_map) {
        datum->values[datum->n] = *value;
    }
    datum->n++;
}

void
ovsdb_datum_remove_unsafe(struct ovsdb_datum *datum, size_t idx,
                          const struct ovsdb_type *type)
{
    ovsdb_atom_destroy(&datum->keys[idx], type->key.type);
    datum->keys[idx] = datum->keys[datum->n - 1];
    if (type->value.type != OVSDB_TYPE_VOID) {
        ovsdb_atom_destroy(&datum->values[idx], type->value.type);
        datum->values[idx] = datum->values[datum->n - 1];
    }
    datum->n--;
}

/* Diffs. */

/* Appends copies of KEY and VALUE to DATUM, which has room for them. */
static void
add_clone(struct ovsdb_datum *datum, const union ovsdb_atom *key,
          const union ovsdb_atom *value, const struct ovsdb_type *type)
{
    ovsdb_atom_clone(&datum->keys[datum->n], key, type->key.type);
    if (type->value.type != OVSDB_TYPE_VOID) {
        ovsdb_atom_clone(&datum->values[datum->n], value, type->value.type);
    }
    datum->n++;
}

void
ovsdb_datum_diff(struct ovsdb_datum *diff, const struct ovsdb_datum *old,
                 const struct ovsdb_datum *new,
                 const struct ovsdb_type *type)
{
    bool is_map = type->value.type != OVSDB_TYPE_VOID;
    size_t oi = 0, ni = 0;

    /* Both are sorted, so one merge pass produces a sorted diff. */
    init_with_room(diff, old->n + new->n, type);
    while (oi < old->n || ni < new->n) {
        int cmp = (oi >= old->n ? 1
                   : ni >= new->n ? -1
                   : ovsdb_atom_compare_3way(&old->keys[oi], &new->keys[ni],
                                             type->key.type));
        if (cmp < 0) {
            add_clone(diff, &old->keys[oi], is_map ? &old->values[oi] : NULL,
                      type);
            oi++;
        } else if (cmp > 0) {
            add_clone(diff, &new->keys[ni], is_map ? &new->values[ni] : NULL,
                      type);
            ni++;
        } else {
            if (is_map && !ovsdb_atom_equals(&old->values[oi],
                                             &new->values[ni],
                                             type->value.type)) {
                add_clone(diff, &new->keys[ni], &new->values[ni], type);
            }
            oi++;
            ni++;
        }
    }
    trim_empty(diff);
}

struct ovsdb_error *
ovsdb_datum_apply_diff(struct ovsdb_datum *new,
                       const struct ovsdb_datum *old,
                       const struct ovsdb_datum *diff,
                       const struct ovsdb_type *type)
{
    bool is_map = type->value.type != OVSDB_TYPE_VOID;
    size_t oi = 0, di = 0;

    init_with_room(new, old->n + diff->n, type);
    while (oi < old->n || di < diff->n) {
        int cmp = (oi >= old->n ? 1
                   : di >= diff->n ? -1
                   : ovsdb_atom_compare_3way(&old->keys[oi], &diff->keys[di],
                                             type->key.type));
        if (cmp < 0) {
            add_clone(new, &old->keys[oi], is_map ? &old->values[oi] : NULL,
                      type);
            oi++;
        } else if (cmp > 0) {
            add_clone(new, &diff->keys[di],
                      is_map ? &diff->values[di] : NULL, type);
            di++;
        } else {
            /* In both: a set element or same-valued pair goes away; a pair
             * with a new value replaces the old one. */
            if (is_map && !ovsdb_atom_equals(&old->values[oi],
                                             &diff->values[di],
                                             type->value.type)) {
                add_clone(new, &diff->keys[di], &diff->values[di], type);
            }
            oi++;
            di++;
        }
    }
    trim_empty(new);

    struct ovsdb_error *error = NULL;
    if (new->n < type->n_min || new->n > type->n_max) {
        error = ovsdb_error("constraint violation", "datum created by diff "
                            "has %u elements but its type allows %u to %u",
                            new->n, type->n_min, type->n_max);
    } else {
        error = ovsdb_datum_check_constraints(new, type);
    }
    if (error) {
        ovsdb_datum_destroy(new, type);
    }
    return error;
}

/* Symbol tables. */

struct ovsdb_symbol_table *
ovsdb_symbol_table_create(void)
{
    struct ovsdb_symbol_table *symtab = xmalloc(sizeof *symtab);
    shash_init(&symtab->sh);
    return symtab;
}

void
ovsdb_symbol_table_destroy(struct ovsdb_symbol_table *symtab)
{
    if (symtab) {
        shash_destroy_free_data(&symtab->sh);
        free(symtab);
    }
}

struct ovsdb_symbol *
ovsdb_symbol_table_get(const struct ovsdb_symbol_table *symtab,
                       const char *name)
{
    return shash_find_data(&symtab->sh, name);
}

struct ovsdb_symbol *
ovsdb_symbol_table_put(struct ovsdb_symbol_table *symtab, const char *name,
                       const struct uuid *uuid, bool created)
{
    struct ovsdb_symbol *symbol = xzalloc(sizeof *symbol);
    symbol->uuid = *uuid;
    symbol->created = created;
    symbol->strong_ref = false;
    symbol->weak_ref = false;
    shash_add_assert(&symtab->sh, name, symbol);
    return symbol;
}

struct ovsdb_symbol *
ovsdb_symbol_table_insert(struct ovsdb_symbol_table *symtab,
                          const char *name)
{
    struct ovsdb_symbol *symbol = ovsdb_symbol_table_get(symtab, name);
    if (!symbol) {
        struct uuid uuid;
        uuid_generate(&uuid);
        symbol = ovsdb_symbol_table_put(symtab, name, &uuid, false);
    }
    return symbol;
}

const char *
ovsdb_symbol_table_find_uncreated(const struct ovsdb_symbol_table *symtab)
{
    const struct shash_node *node;

    SHASH_FOR_EACH (node, &symtab->sh) {
        const struct ovsdb_symbol *symbol = node->data;
        if (!symbol->created) {
            return node->name;
        }
    }
    return NULL;
}
