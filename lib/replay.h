/* replay: record what a program hears from the outside world, to replay it
 * later without the outside world.
 *
 * A program started with --record[=DIR] writes, for every stream and
 * listener it opens (stream.h: unix:, tcp:, ssl:, their passive forms, and
 * so its unixctl socket too), every answer the stream layer gives it: the
 * result of each open, connect, accept, receive (with the bytes), send,
 * backlog and error query, and the peer's address and identity.  It also
 * writes the random bytes its UUIDs are made from.  Started again with
 * --replay[=DIR] (and a copy of the files it started from, such as its
 * database), the program opens no socket at all: each stream answers from
 * its file, in the same order, so the program takes the same decisions,
 * makes the same UUIDs, writes the same database and logs the same lines.
 * This is for debugging and profiling a run that happened elsewhere: replay
 * it under a debugger, with more logging, or under a profiler.
 *
 * DIR defaults to the current directory; a relative DIR is relative to the
 * current directory at start-up.  It must exist.  A recording overwrites the
 * files of an earlier recording of the same program in DIR.
 *
 * What cannot be replayed: anything driven by the clock.  Timers fire when
 * they fire, so a program must not let time decide what it does with its
 * streams: while recording or replaying, jsonrpc sessions send no
 * inactivity probes and ovsdb-server neither retries a failed listen on a
 * timer nor writes remote status into its databases, as Open vSwitch's
 * record/replay does.  Messages logged by the socket code itself
 * (socket_util, TLS library errors) have no counterpart in a replay.
 *
 * Files
 * -----
 * DIR/PROGRAM.N.stream and DIR/PROGRAM.N.pstream: one per stream or
 * listener, N counting the program's opens and accepts from 0 in the order
 * they happened, PROGRAM the program's name.  DIR/PROGRAM.random: the
 * random bytes, in the order they were drawn.
 *
 * A stream or listener file starts with one line of text,
 *
 *     OVSNG-REPLAY 1 KIND NAME\n
 *
 * (KIND "stream" or "pstream", NAME the name it was opened with, for the
 * reader's benefit) followed by records, each
 *
 *     tag     1 byte, which question was answered (see stream-provider.h:
 *             'O' open, 'T' bound port, 'C' connect, 'R' receive, 'S' send,
 *             'B' backlog, 'E' error, 'N' peer name, 'I' peer identity,
 *             'A' accept)
 *     value   8 bytes, little-endian, signed: the answer (a byte count, an
 *             errno value, a port, a file number N for a successful accept
 *             or minus the errno value for a failed one; 1 or 0 for whether
 *             a name is present)
 *     length  4 bytes, little-endian, unsigned: bytes of data that follow
 *     data    the bytes received, or a name (the open's or accepted
 *             stream's name, the peer's name or identity)
 *
 * The random file is the header line with KIND "random" and then the raw
 * bytes.  The format is this program's own; nothing else reads it.
 *
 * Replay ends where the recording ended: a stream whose records are used
 * up has nothing more to say (receives find no data, waits do not wake).
 * A program that asks a stream a different question than it was asked at
 * that point has diverged from the recording (say, a different command
 * line): this is logged as an error and the stream fails with EPROTO.
 *
 * Threads: the mode is set once at start-up, before any stream is opened;
 * streams are used by one thread each (stream.h), and the file numbering
 * and the random file are shared under a mutex.
 */
#ifndef REPLAY_H
#define REPLAY_H 1

#include <stdbool.h>
#include <stddef.h>

enum replay_mode {
    REPLAY_OFF,
    REPLAY_RECORD,
    REPLAY_REPLAY
};

/* Sets the mode and the directory (NULL: the current directory).  Exits
 * with an error if DIR is not a directory. */
void replay_set_mode(enum replay_mode, const char *dir);
enum replay_mode replay_get_mode(void);
/* True while recording or replaying: time-driven behaviour must stop. */
bool replay_is_active(void);

/* Command-line options --record[=DIR] and --replay[=DIR]:
 *
 *     enum { ..., REPLAY_OPTION_ENUMS };
 *     static const struct option long_options[] = {
 *         ..., REPLAY_LONG_OPTIONS, ...
 *     };
 *     switch (c) {
 *     ...
 *     REPLAY_OPTION_HANDLERS
 *     }
 */
#define REPLAY_OPTION_ENUMS OPT_REPLAY_RECORD, OPT_REPLAY_REPLAY
#define REPLAY_LONG_OPTIONS                                             \
        {"record", optional_argument, NULL, OPT_REPLAY_RECORD},         \
        {"replay", optional_argument, NULL, OPT_REPLAY_REPLAY}
#define REPLAY_OPTION_HANDLERS                                  \
        case OPT_REPLAY_RECORD:                                 \
            replay_set_mode(REPLAY_RECORD, optarg);             \
            break;                                              \
                                                                \
        case OPT_REPLAY_REPLAY:                                 \
            replay_set_mode(REPLAY_REPLAY, optarg);             \
            break;
/* Prints the options' help. */
void replay_usage(void);

/* Files (for stream-replay.c). */
struct replay_file;

/* Recording: creates the next file of KIND ("stream" or "pstream") for
 * NAME.  Returns the file, or NULL after logging why not (the stream then
 * goes unrecorded).  Its number is replay_file_number(). */
struct replay_file *replay_file_create(const char *kind, const char *name);
/* Replay: opens file number N of KIND, or the next one if N is negative.
 * Returns 0 or a positive errno value (logged). */
int replay_file_open(const char *kind, long long int n,
                     struct replay_file **);
long long int replay_file_number(const struct replay_file *);
const char *replay_file_name(const struct replay_file *);
void replay_file_close(struct replay_file *);

/* Appends one record.  A write error is logged once and ends the
 * recording of that file. */
void replay_write(struct replay_file *, char tag, long long int value,
                  const void *data, size_t n);
/* Reads the next record: true with *TAG, *VALUE and *DATA (N bytes, valid
 * until the next read or close), or false at the end of the records. */
bool replay_read(struct replay_file *, char *tag, long long int *value,
                 const void **data, size_t *n);
/* True if replay_read() would return a record. */
bool replay_has_more(const struct replay_file *);

/* Random bytes (for uuid.c).  While replaying, fills BUF with the next N
 * recorded bytes and returns true (false once they run out, after a
 * warning).  Otherwise returns false. */
bool replay_take_random(void *buf, size_t n);
/* While recording, appends the N bytes in BUF that were just drawn. */
void replay_put_random(const void *buf, size_t n);

#endif /* replay.h */
