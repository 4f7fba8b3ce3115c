/* sim-lexer: the tokenizer shared by the spanning tree simulators that
 * Open vSwitch's stp.at and rstp.at drive ("ovstest test-stp FILE" and
 * "ovstest test-rstp FILE", tests/test-stp.c and tests/test-rstp.c).
 *
 * Their scripts are read one line at a time.  A token is a run of
 * letters, a decimal or 0x-hex number, or any other single character;
 * blanks separate tokens and the end of the line ends them.  The helpers
 * consume a token when it is the one wanted, and report bad input as
 * "FILE:LINE: message" (or "FILE:LINE:COLUMN: message", COLUMN being where
 * scanning stopped, for the driver that has always said so) before exiting
 * with status 1.
 *
 * Memory: the caller owns the file name and the line and keeps them alive
 * while the lexer uses them; the lexer owns only the current token, which
 * sim_lexer_next() replaces and sim_lexer_destroy() frees.
 *
 * Threads: none of its own; a lexer belongs to the one thread using it. */
#ifndef SIM_LEXER_H
#define SIM_LEXER_H 1

#include <stdbool.h>
#include <stdnoreturn.h>
#include "util.h"

struct sim_lexer {
    const char *file_name;      /* For messages; not owned. */
    int line_number;            /* Of 'line', counting from 1. */
    const char *line;           /* The line being scanned; not owned. */
    const char *pos;            /* Next character of 'line' to scan. */
    char *token;                /* Current token (owned); NULL at the end
                                 * of the line. */
    bool show_column;           /* Errors say FILE:LINE:COLUMN. */
    int n_reports;              /* Calls to sim_lexer_report() so far. */
};

void sim_lexer_init(struct sim_lexer *, const char *file_name,
                    bool show_column);
void sim_lexer_destroy(struct sim_lexer *);

/* Starts on the next line of the file (LINE, which stays the caller's) and
 * scans its first token. */
void sim_lexer_start_line(struct sim_lexer *, const char *line);

void sim_lexer_next(struct sim_lexer *);
bool sim_lexer_match(struct sim_lexer *, const char *want);
void sim_lexer_expect(struct sim_lexer *, const char *want);
bool sim_lexer_is_number(const struct sim_lexer *);
long long int sim_lexer_number(struct sim_lexer *);

/* Bad input: prints the message with its place and exits with status 1. */
noreturn void sim_lexer_error(const struct sim_lexer *,
                              const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3);

/* Prints "FILE:LINE: message" for the current line, counts it in
 * 'n_reports' and returns: for a simulation check that failed, which is not
 * the input's fault. */
void sim_lexer_report(struct sim_lexer *, const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3);

#endif /* tests/sim-lexer.h */
