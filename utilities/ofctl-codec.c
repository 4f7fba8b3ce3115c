/* ofctl-codec: ovs-ofctl's offline codec commands, which exercise the
 * match and message codecs without a switch: parse-nx-match (parse-nxm),
 * parse-oxm, parse-ofp10-match, parse-ofp11-match, check-vlan and
 * ofp-parse.  Their input and output are 3.1's, so that its tests (and
 * anyone comparing encodings by hand) see the same text. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "command-line.h"
#include "dynamic-string.h"
#include "match.h"
#include "nx-match.h"
#include "ofctl.h"
#include "ofp-flow.h"
#include "ofp-match.h"
#include "ofp-msgs.h"
#include "ofp-parse.h"
#include "ofp-print.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"
#include "openflow.h"
#include "util.h"

/* Reads the next test line from stdin into LINE.  As 3.1 does, a line that
 * is a comment is echoed and skipped, a blank one echoed as an empty line,
 * and a trailing "#" comment cut off.  Returns false at end of input. */
static bool
next_test_line(struct ds *line)
{
    while (!ds_get_line(line, stdin)) {
        char *s = ds_cstr(line);
        if (s[0] == '#') {
            puts(s);
            continue;
        }
        char *comment = strchr(s, '#');
        if (comment) {
            ds_truncate(line, comment - s);
            s = ds_cstr(line);
        }
        if (!s[strspn(s, " \t")]) {
            putchar('\n');
            continue;
        }
        return true;
    }
    return false;
}

static void
print_hex_dump(const void *data, size_t size)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    ds_put_hex_dump(&s, data, size, 0, false);
    fputs(ds_cstr(&s), stdout);
    ds_destroy(&s);
}

/* parse-nx-match and parse-oxm: each line is a match in NXM/OXM text; it
 * is encoded, decoded (strictly with --strict), encoded again in VERSION
 * (0 for NXM) and printed, with a hex dump at -m. */
static void
parse_nxm_lines(bool oxm, enum ofp_version version)
{
    struct ds line = DS_EMPTY_INITIALIZER;
    while (next_test_line(&line)) {
        struct ofpbuf in;
        ofpbuf_init(&in, 0);
        char *error;
        int match_len = (oxm
                         ? oxm_match_from_string(ds_cstr(&line), &in, &error)
                         : nx_match_from_string(ds_cstr(&line), &in, &error));
        if (match_len < 0) {
            ovs_fatal(0, "%s", error);
        }

        struct match match;
        ovs_be64 cookie, cookie_mask;
        enum ofperr err;
        if (oxm) {
            err = (ofctl_opts.strict
                   ? oxm_pull_match(&in, &match)
                   : oxm_pull_match_loose(&in, &match));
        } else {
            err = (ofctl_opts.strict
                   ? nx_pull_match(&in, match_len, &match, &cookie,
                                   &cookie_mask)
                   : nx_pull_match_loose(&in, match_len, &match, &cookie,
                                         &cookie_mask));
        }

        if (!err) {
            struct ofpbuf out;
            ofpbuf_init(&out, 0);
            char *text;
            if (oxm) {
                int out_len = oxm_put_match(&out, &match, version);
                text = oxm_match_to_string(&out, out_len);
            } else {
                int out_len = nx_put_match(&out, &match, cookie, cookie_mask);
                text = nx_match_to_string(out.data, out_len);
            }
            puts(text);
            free(text);
            if (ofctl_opts.verbosity > 0) {
                print_hex_dump(out.data, out.size);
            }
            ofpbuf_uninit(&out);
        } else {
            printf("nx_pull_match() returned error %s\n",
                   ofperr_get_name(err));
        }
        ofpbuf_uninit(&in);
    }
    ds_destroy(&line);
}

/* parse-nx-match (also parse-nxm). */
void
ofctl_parse_nx_match(struct ovs_cmdl_context *ctx OVS_UNUSED)
{
    parse_nxm_lines(false, 0);
}

/* parse-oxm VERSION. */
void
ofctl_parse_oxm(struct ovs_cmdl_context *ctx)
{
    enum ofp_version version = ofputil_version_from_string(ctx->argv[1]);
    if (version < OFP12_VERSION) {
        ovs_fatal(0, "%s: not a valid version for OXM", ctx->argv[1]);
    }
    parse_nxm_lines(true, version);
}

/* Reads the hex digits of LINE into OUT, taking each "x" as a zero digit
 * (the tests' way of saying "don't care"); white space is skipped.  Fatal
 * on anything else. */
static void
hex_with_dont_cares(const char *line, struct ofpbuf *out)
{
    struct ds hex = DS_EMPTY_INITIALIZER;
    for (const char *p = line; *p; p++) {
        if (*p == 'x') {
            ds_put_char(&hex, '0');
        } else if (*p != ' ' && *p != '\t') {
            ds_put_char(&hex, *p);
        }
    }
    size_t n;
    const char *tail = ofpbuf_put_hex(out, ds_cstr(&hex), &n);
    if (*tail) {
        ovs_fatal(0, "Trailing garbage in hex data");
    }
    ds_destroy(&hex);
}

/* Prints "PREFIX%2d: %02x -> %02x" for every byte where A and B differ. */
static void
print_differences(const char *prefix, const void *a_, size_t a_len,
                  const void *b_, size_t b_len)
{
    const uint8_t *a = a_;
    const uint8_t *b = b_;
    for (size_t i = 0; i < MIN(a_len, b_len); i++) {
        if (a[i] != b[i]) {
            printf("%s%2zu: %02x -> %02x\n", prefix, i, a[i], b[i]);
        }
    }
    for (size_t i = a_len; i < b_len; i++) {
        printf("%s%2zu: (none) -> %02x\n", prefix, i, b[i]);
    }
    for (size_t i = b_len; i < a_len; i++) {
        printf("%s%2zu: %02x -> (none)\n", prefix, i, a[i]);
    }
}

static void
print_match(const struct match *match)
{
    char *s = match_to_string(match, NULL, OFP_DEFAULT_PRIORITY);
    puts(s);
    free(s);
}

/* parse-ofp10-match: each line is a struct ofp10_match in hex.  Prints the
 * match, the bytes that change when it is encoded back, and the bytes that
 * normalizing it (dropping fields without their prerequisites, which logs
 * what it did) changes on top of that. */
void
ofctl_parse_ofp10_match(struct ovs_cmdl_context *ctx OVS_UNUSED)
{
    struct ds line = DS_EMPTY_INITIALIZER;
    while (next_test_line(&line)) {
        struct ofpbuf in;
        ofpbuf_init(&in, 0);
        hex_with_dont_cares(ds_cstr(&line), &in);
        if (in.size != sizeof(struct ofp10_match)) {
            ovs_fatal(0, "Input is %"PRIu32" bytes, expected %zu",
                      in.size, sizeof(struct ofp10_match));
        }

        struct match match;
        ofputil_match_from_ofp10_match(in.data, &match);
        print_match(&match);

        struct ofp10_match plain;
        ofputil_match_to_ofp10_match(&match, &plain);
        print_differences("", in.data, in.size, &plain, sizeof plain);

        ofputil_normalize_match(&match);
        struct ofp10_match normal;
        ofputil_match_to_ofp10_match(&match, &normal);
        print_differences("normal: ", &plain, sizeof plain,
                          &normal, sizeof normal);
        ofpbuf_uninit(&in);
    }
    ds_destroy(&line);
}

/* parse-ofp11-match: each line is a struct ofp11_match in hex.  Prints the
 * match (or the decoding error) and the bytes that change when it is
 * encoded back. */
void
ofctl_parse_ofp11_match(struct ovs_cmdl_context *ctx OVS_UNUSED)
{
    struct ds line = DS_EMPTY_INITIALIZER;
    while (next_test_line(&line)) {
        struct ofpbuf in;
        ofpbuf_init(&in, 0);
        hex_with_dont_cares(ds_cstr(&line), &in);
        if (in.size != sizeof(struct ofp11_match)) {
            ovs_fatal(0, "Input is %"PRIu32" bytes, expected %zu",
                      in.size, sizeof(struct ofp11_match));
        }

        struct match match;
        enum ofperr error = ofputil_match_from_ofp11_match(in.data, &match);
        if (error) {
            printf("bad ofp11_match: %s\n", ofperr_get_name(error));
            ofpbuf_uninit(&in);
            continue;
        }
        print_match(&match);

        struct ofp11_match back;
        ofputil_match_to_ofp11_match(&match, &back);
        print_differences("", in.data, in.size, &back, sizeof back);
        ofpbuf_uninit(&in);
    }
    ds_destroy(&line);
}

/* The outer VLAN's TCI and its mask, as check-vlan prints them. */
static void
print_tci(const struct match *match)
{
    printf("%04"PRIx16"/%04"PRIx16"\n", ntohs(match->flow.vlans[0].tci),
           ntohs(match->wc.masks.vlans[0].tci));
}

static void
parse_hex16(const char *s, uint16_t *x)
{
    char *tail;
    errno = 0;
    unsigned long v = strtoul(s, &tail, 16);
    if (errno || *tail || v > UINT16_MAX) {
        ovs_fatal(0, "%s: bad hexadecimal 16-bit value", s);
    }
    *x = v;
}

/* check-vlan VLAN_TCI VLAN_TCI_MASK: puts a VLAN match through every
 * encoding and back (flow text, NXM, OXM, OpenFlow 1.0 and 1.1) and prints
 * what each makes of it. */
void
ofctl_check_vlan(struct ovs_cmdl_context *ctx)
{
    uint16_t tci, mask;
    parse_hex16(ctx->argv[1], &tci);
    parse_hex16(ctx->argv[2], &mask);

    struct match match;
    match_init_catchall(&match);
    match_set_vlan_tci_masked(&match, htons(tci), htons(mask));

    /* The flow syntax. */
    char *text = match_to_string(&match, NULL, OFP_DEFAULT_PRIORITY);
    char *flow = xasprintf("%s,actions=drop", text);
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 0);
    char *error = parse_ofp_flow_mod_str(&fm, flow, NULL, OFPFC_ADD,
                                         &ofpacts);
    if (error) {
        ovs_fatal(0, "%s", error);
    }
    printf("%s -> ", text);
    print_tci(&fm.match);
    free(text);
    free(flow);
    ofpbuf_uninit(&ofpacts);

    /* NXM. */
    struct ofpbuf nxm;
    ofpbuf_init(&nxm, 0);
    int nxm_len = nx_put_match(&nxm, &match, 0, 0);
    text = nx_match_to_string(nxm.data, nxm_len);
    struct match back;
    enum ofperr err = nx_pull_match(&nxm, nxm_len, &back, NULL, NULL);
    if (err) {
        ovs_fatal(0, "nx_pull_match() returned error %s",
                  ofperr_get_name(err));
    }
    printf("NXM: %s -> ", text);
    print_tci(&back);
    free(text);
    ofpbuf_uninit(&nxm);

    /* OXM (OpenFlow 1.2's): vlan_vid and vlan_pcp. */
    struct ofpbuf oxm;
    ofpbuf_init(&oxm, 0);
    int oxm_len = oxm_put_match(&oxm, &match, OFP12_VERSION);
    text = oxm_match_to_string(&oxm, oxm_len);
    err = oxm_pull_match(&oxm, &back);
    if (err) {
        ovs_fatal(0, "nx_pull_match() returned error %s",
                  ofperr_get_name(err));
    }
    ovs_be16 vid_bits = htons(VLAN_VID_MASK | VLAN_CFI);
    printf("OXM: %s -> %04"PRIx16"/%04"PRIx16",", text,
           ntohs(back.flow.vlans[0].tci & vid_bits),
           ntohs(back.wc.masks.vlans[0].tci & vid_bits));
    if (back.wc.masks.vlans[0].tci & htons(VLAN_PCP_MASK)) {
        printf("%02d\n", flow_vlan_pcp(&back.flow.vlans[0]));
    } else {
        printf("--\n");
    }
    free(text);
    ofpbuf_uninit(&oxm);

    /* OpenFlow 1.0. */
    struct ofp10_match of10;
    ofputil_match_to_ofp10_match(&match, &of10);
    uint32_t wc10 = ntohl(of10.wildcards);
    ofputil_match_from_ofp10_match(&of10, &back);
    printf("OF1.0: %04"PRIx16"/%d,%02"PRIx8"/%d -> ", ntohs(of10.dl_vlan),
           (wc10 & OFPFW10_DL_VLAN) != 0, of10.dl_vlan_pcp,
           (wc10 & OFPFW10_DL_VLAN_PCP) != 0);
    print_tci(&back);

    /* OpenFlow 1.1. */
    struct ofp11_match of11;
    ofputil_match_to_ofp11_match(&match, &of11);
    uint32_t wc11 = ntohl(of11.wildcards);
    err = ofputil_match_from_ofp11_match(&of11, &back);
    if (err) {
        ovs_fatal(0, "ofputil_match_from_ofp11_match() returned error %s",
                  ofperr_get_name(err));
    }
    printf("OF1.1: %04"PRIx16"/%d,%02"PRIx8"/%d -> ", ntohs(of11.dl_vlan),
           (wc11 & OFPFW11_DL_VLAN) != 0, of11.dl_vlan_pcp,
           (wc11 & OFPFW11_DL_VLAN_PCP) != 0);
    print_tci(&back);
}

/* ofp-parse FILE: prints every OpenFlow message in FILE, a stream of raw
 * messages ("-" for standard input). */
void
ofctl_ofp_parse(struct ovs_cmdl_context *ctx)
{
    const char *name = ctx->argv[1];
    FILE *file = !strcmp(name, "-") ? stdin : fopen(name, "r");
    if (!file) {
        ovs_fatal(errno, "%s: open", name);
    }

    struct ofpbuf b;
    ofpbuf_init(&b, 65536);
    for (;;) {
        ofpbuf_clear(&b);
        struct ofp_header *oh = ofpbuf_put_uninit(&b, sizeof *oh);
        size_t n = fread(oh, 1, sizeof *oh, file);
        if (!n) {
            break;
        } else if (n < sizeof *oh) {
            ovs_fatal(0, "%s: unexpected end of file mid-message", name);
        }
        size_t length = ntohs(oh->length);
        if (length < sizeof *oh) {
            ovs_fatal(0, "%s: %zu-byte message is too short for OpenFlow",
                      name, length);
        }
        size_t body = length - sizeof *oh;
        if (fread(ofpbuf_put_uninit(&b, body), 1, body, file) != body) {
            ovs_fatal(0, "%s: unexpected end of file mid-message", name);
        }
        ofp_print(stdout, b.data, b.size, NULL, ofctl_opts.verbosity + 2);
    }
    ofpbuf_uninit(&b);
    if (file != stdin) {
        fclose(file);
    }
}
