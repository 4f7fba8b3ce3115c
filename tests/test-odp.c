/* test-odp: the datapath flow and action syntax from the command line,
 * for the autotest suite.
 *
 *   test-odp parse-keys      each stdin line is a megaflow; prints it as
 *                            odp_flow_format() does, or "error: ..."
 *   test-odp parse-keys-v    the same, printed verbose
 *   test-odp parse-actions   each stdin line is an action list
 *   test-odp parse-flows     each line is "FLOW ACTIONS" (split at the
 *                            last space); prints both normalized, with a
 *                            space between */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "flow.h"
#include "odp-util.h"
#include "ofpbuf.h"
#include "util.h"

static bool
format_flow(const char *text, bool verbose, struct ds *out)
{
    struct flow key;
    struct flow_wildcards wc;
    char *error = odp_flow_from_string(text, NULL, &key, &wc);
    if (error) {
        ds_put_format(out, "error: %s", error);
        free(error);
        return false;
    }
    odp_flow_format(&key, &wc, NULL, verbose, out);
    return true;
}

static bool
format_actions(const char *text, struct ds *out)
{
    struct ofpbuf acts;
    ofpbuf_init(&acts, 64);
    char *error = odp_actions_from_string(text, NULL, &acts);
    bool ok = !error;
    if (error) {
        ds_put_format(out, "error: %s", error);
        free(error);
    } else {
        odp_actions_format(acts.data, acts.size, NULL, out);
    }
    ofpbuf_uninit(&acts);
    return ok;
}

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    if (argc != 2) {
        ovs_fatal(0, "usage: %s parse-keys|parse-keys-v|parse-actions|"
                  "parse-flows < input", argv[0]);
    }
    const char *cmd = argv[1];
    struct ds line = DS_EMPTY_INITIALIZER;
    int status = 0;

    while (!ds_get_line(&line, stdin)) {
        struct ds out = DS_EMPTY_INITIALIZER;
        char *text = ds_cstr(&line);
        bool ok;
        if (!strcmp(cmd, "parse-keys")) {
            ok = format_flow(text, false, &out);
        } else if (!strcmp(cmd, "parse-keys-v")) {
            ok = format_flow(text, true, &out);
        } else if (!strcmp(cmd, "parse-actions")) {
            ok = format_actions(text, &out);
        } else if (!strcmp(cmd, "parse-flows")) {
            char *space = strrchr(text, ' ');
            if (!space) {
                ovs_fatal(0, "%s: no space between flow and actions", text);
            }
            *space = '\0';
            ok = format_flow(text, false, &out);
            ds_put_char(&out, ' ');
            ok = format_actions(space + 1, &out) && ok;
        } else {
            ovs_fatal(0, "unknown command %s", cmd);
        }
        if (!ok) {
            status = 1;
        }
        puts(ds_cstr(&out));
        ds_destroy(&out);
    }
    ds_destroy(&line);
    return status;
}
