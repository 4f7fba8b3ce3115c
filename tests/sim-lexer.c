/* sim-lexer: the tokenizer of the spanning tree simulators' scripts.  See
 * sim-lexer.h. */
#include <config.h>

#include "sim-lexer.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
sim_lexer_init(struct sim_lexer *lx, const char *file_name, bool show_column)
{
    *lx = (struct sim_lexer) {
        .file_name = file_name,
        .line = "",
        .pos = "",
        .show_column = show_column,
    };
}

void
sim_lexer_destroy(struct sim_lexer *lx)
{
    free(lx->token);
    lx->token = NULL;
}

void
sim_lexer_start_line(struct sim_lexer *lx, const char *line)
{
    lx->line_number++;
    lx->line = line;
    lx->pos = line;
    sim_lexer_next(lx);
}

/* Returns the end of the token that starts at P (not a blank or the end of
 * the string). */
static const char *
token_end(const char *p)
{
    if (isalpha((unsigned char) *p)) {
        while (isalpha((unsigned char) *p)) {
            p++;
        }
    } else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        while (isxdigit((unsigned char) *p)) {
            p++;
        }
    } else if (isdigit((unsigned char) *p)) {
        while (isdigit((unsigned char) *p)) {
            p++;
        }
    } else {
        p++;
    }
    return p;
}

void
sim_lexer_next(struct sim_lexer *lx)
{
    free(lx->token);
    lx->token = NULL;

    while (isspace((unsigned char) *lx->pos)) {
        lx->pos++;
    }
    if (*lx->pos) {
        const char *start = lx->pos;

        lx->pos = token_end(start);
        lx->token = xmemdup0(start, lx->pos - start);
    }
}

/* Consumes the current token if it is WANT. */
bool
sim_lexer_match(struct sim_lexer *lx, const char *want)
{
    if (lx->token && !strcmp(lx->token, want)) {
        sim_lexer_next(lx);
        return true;
    }
    return false;
}

void
sim_lexer_expect(struct sim_lexer *lx, const char *want)
{
    if (!sim_lexer_match(lx, want)) {
        sim_lexer_error(lx, "expected \"%s\"", want);
    }
}

bool
sim_lexer_is_number(const struct sim_lexer *lx)
{
    return lx->token && isdigit((unsigned char) lx->token[0]);
}

/* Consumes the current token, which must be a number, and returns its
 * value. */
long long int
sim_lexer_number(struct sim_lexer *lx)
{
    if (!sim_lexer_is_number(lx)) {
        sim_lexer_error(lx, "expected a number, not \"%s\"",
                        lx->token ? lx->token : "");
    }
    errno = 0;
    long long int value = strtoll(lx->token, NULL, 0);
    if (errno) {
        sim_lexer_error(lx, "number \"%s\" out of range", lx->token);
    }
    sim_lexer_next(lx);
    return value;
}

static void
print_message(const char *format, va_list args)
{
    vfprintf(stderr, format, args);
    putc('\n', stderr);
}

void
sim_lexer_error(const struct sim_lexer *lx, const char *format, ...)
{
    va_list args;

    fprintf(stderr, "%s:%d:", lx->file_name, lx->line_number);
    if (lx->show_column) {
        fprintf(stderr, "%td:", lx->pos - lx->line);
    }
    putc(' ', stderr);
    va_start(args, format);
    print_message(format, args);
    va_end(args);
    exit(EXIT_FAILURE);
}

void
sim_lexer_report(struct sim_lexer *lx, const char *format, ...)
{
    va_list args;

    fprintf(stderr, "%s:%d: ", lx->file_name, lx->line_number);
    va_start(args, format);
    print_message(format, args);
    va_end(args);
    lx->n_reports++;
}
