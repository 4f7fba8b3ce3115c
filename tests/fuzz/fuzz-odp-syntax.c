/* libFuzzer target: the datapath flow and action syntax.
 *
 * The first input byte picks what the rest is:
 *   0  flow text: a flow that parses must print to text that parses back
 *      to the same text (print is a fixed point of parse), verbose too;
 *   1  action text: actions that parse must validate, print, and parse
 *      back to the same text;
 *   2  raw Netlink action bytes: validation and printing must be safe on
 *      anything, and what validates must print to text that parses back
 *      to the same bytes' text.
 * Any disagreement aborts, which libFuzzer reports as a crash. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "flow.h"
#include "odp-util.h"
#include "ofpbuf.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_flow_text(const char *text, bool verbose)
{
    struct flow key, key2;
    struct flow_wildcards wc, wc2;
    char *error = odp_flow_from_string(text, NULL, &key, &wc);
    if (error) {
        free(error);
        return;
    }
    struct ds first = DS_EMPTY_INITIALIZER, second = DS_EMPTY_INITIALIZER;
    odp_flow_format(&key, &wc, NULL, verbose, &first);
    error = odp_flow_from_string(ds_cstr(&first), NULL, &key2, &wc2);
    if (error) {
        abort();
    }
    odp_flow_format(&key2, &wc2, NULL, verbose, &second);
    if (strcmp(ds_cstr(&first), ds_cstr(&second))) {
        abort();
    }
    ds_destroy(&first);
    ds_destroy(&second);
}

static void
check_actions_text(const char *text)
{
    struct ofpbuf acts, acts2;
    ofpbuf_init(&acts, 64);
    ofpbuf_init(&acts2, 64);
    char *error = odp_actions_from_string(text, NULL, &acts);
    if (!error) {
        if (!odp_actions_validate(acts.data, acts.size, NULL)) {
            abort();
        }
        struct ds first = DS_EMPTY_INITIALIZER;
        struct ds second = DS_EMPTY_INITIALIZER;
        odp_actions_format(acts.data, acts.size, NULL, &first);
        error = odp_actions_from_string(ds_cstr(&first), NULL, &acts2);
        if (error) {
            abort();
        }
        odp_actions_format(acts2.data, acts2.size, NULL, &second);
        if (strcmp(ds_cstr(&first), ds_cstr(&second))) {
            abort();
        }
        ds_destroy(&first);
        ds_destroy(&second);
    }
    free(error);
    ofpbuf_uninit(&acts);
    ofpbuf_uninit(&acts2);
}

static void
check_actions_bytes(const uint8_t *data, size_t size)
{
    /* Netlink attributes are 4-byte aligned: give them a heap copy of
     * exactly SIZE bytes (malloc aligns). */
    void *copy = xmalloc(size ? size : 1);
    memcpy(copy, data, size);
    struct ds s = DS_EMPTY_INITIALIZER;
    odp_actions_format(copy, size, NULL, &s);
    if (odp_actions_validate(copy, size, NULL)) {
        check_actions_text(ds_cstr(&s));
    }
    ds_destroy(&s);
    free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size || size > 4096) {
        return 0;
    }
    uint8_t mode = data[0] % 3;
    data++, size--;
    if (mode == 2) {
        check_actions_bytes(data, size);
        return 0;
    }
    char *text = xmemdup0((const char *) data, size);
    if (mode == 0) {
        check_flow_text(text, false);
        check_flow_text(text, true);
    } else {
        check_actions_text(text);
    }
    free(text);
    return 0;
}
