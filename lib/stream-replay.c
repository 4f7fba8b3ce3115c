/* stream-replay: the stream provider that answers from replay files, and
 * the recording of every answer a real stream gives (see replay.h for the
 * file format and stream-provider.h for where this sits). */
#include <config.h>
#include "stream-provider.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "poll-loop.h"
#include "replay.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(stream_replay);

/* Recording. */

void
record_stream_open(const char *name, int error, struct stream *s)
{
    struct replay_file *f = replay_file_create("stream", name);
    replay_write(f, REC_OPEN, error, NULL, 0);
    if (s) {
        s->record = f;
    } else {
        replay_file_close(f);
    }
}

void
record_pstream_open(const char *name, int error, struct pstream *p)
{
    struct replay_file *f = replay_file_create("pstream", name);
    const char *real_name = p ? p->name : "";
    replay_write(f, REC_OPEN, error, real_name, strlen(real_name));
    if (p) {
        replay_write(f, REC_PORT, p->bound_port, NULL, 0);
        p->record = f;
    } else {
        replay_file_close(f);
    }
}

void
record_accept(struct pstream *p, int error, struct stream *s)
{
    if (error || !s) {
        replay_write(p->record, REC_ACCEPT, -error, NULL, 0);
        return;
    }
    s->record = replay_file_create("stream", s->name);
    long long int n = s->record ? replay_file_number(s->record) : INT_MAX;
    replay_write(p->record, REC_ACCEPT, n, s->name, strlen(s->name));
    replay_write(s->record, REC_OPEN, 0, NULL, 0);
}

void
record_int(const struct stream *s, char tag, long long int value)
{
    replay_write(s->record, tag, value, NULL, 0);
}

void
record_recv(const struct stream *s, int retval, const void *data)
{
    replay_write(s->record, REC_RECV, retval, data, retval > 0 ? retval : 0);
}

void
record_string(const struct stream *s, char tag, const char *string)
{
    replay_write(s->record, tag, string != NULL,
                 string, string ? strlen(string) : 0);
}

/* Replay. */

struct replay_stream {
    struct stream up;
    struct replay_file *file;
    int diverged;               /* EPROTO once the program asked something
                                 * the recording did not answer. */
    char *peer_name;            /* Last answers to the name questions. */
    char *peer_id;
};

struct replay_pstream {
    struct pstream up;
    struct replay_file *file;
    bool diverged;
};

static const struct stream_class replay_stream_class;
static const struct pstream_class replay_pstream_class;

static struct replay_stream *
replay_stream_cast(const struct stream *s)
{
    return CONTAINER_OF(s, struct replay_stream, up);
}

static struct replay_pstream *
replay_pstream_cast(const struct pstream *p)
{
    return CONTAINER_OF(p, struct replay_pstream, up);
}

static const char *
tag_name(char tag)
{
    switch (tag) {
    case REC_OPEN: return "open";
    case REC_PORT: return "bound port";
    case REC_CONNECT: return "connect";
    case REC_RECV: return "receive";
    case REC_SEND: return "send";
    case REC_BACKLOG: return "backlog";
    case REC_ERROR: return "error";
    case REC_PEER_NAME: return "peer name";
    case REC_PEER_ID: return "peer identity";
    case REC_ACCEPT: return "accept";
    default: return "unknown record";
    }
}

static void
report_divergence(struct replay_file *f, char expected, char found)
{
    VLOG_ERR("%s: replay diverged from the recording: the program asked "
             "for %s where the recording has %s", replay_file_name(f),
             tag_name(expected), tag_name(found));
}

/* Reads the next record of F, which must be tagged TAG.  Returns true with
 * *VALUE, *DATA and *N set; false at the end of the records or, after
 * setting *DIVERGED, on a record of another kind. */
static bool
next_record(struct replay_file *f, char tag, bool *diverged,
            long long int *value, const void **data, size_t *n)
{
    char found;
    if (*diverged || !replay_read(f, &found, value, data, n)) {
        return false;
    }
    if (found != tag) {
        report_divergence(f, tag, found);
        *diverged = true;
        return false;
    }
    return true;
}

static bool
stream_next(struct replay_stream *s, char tag, long long int *value,
            const void **data, size_t *n)
{
    bool diverged = s->diverged != 0;
    bool ok = next_record(s->file, tag, &diverged, value, data, n);
    if (diverged) {
        s->diverged = EPROTO;
    }
    return ok;
}

static struct replay_stream *
replay_stream_create(const char *name, struct replay_file *f)
{
    struct replay_stream *s = xzalloc(sizeof *s);
    stream_init(&s->up, &replay_stream_class, name);
    s->file = f;
    return s;
}

/* Opens the next replay file of KIND and reads its open record: returns
 * the recorded open's error, or 0 with the file in *FILEP and the record's
 * data (the name it recorded) in *DATA and *N. */
static int
open_next_file(const char *kind, struct replay_file **filep,
               const void **data, size_t *n)
{
    struct replay_file *f;
    int error = replay_file_open(kind, -1, &f);

    *filep = NULL;
    if (error) {
        return error;
    }

    long long int value;
    bool diverged = false;
    if (!next_record(f, REC_OPEN, &diverged, &value, data, n)) {
        error = EPROTO;
    } else if (value) {
        error = value;
    } else {
        *filep = f;
        return 0;
    }
    replay_file_close(f);
    return error;
}

int
replay_stream_open(const char *name, struct stream **streamp)
{
    struct replay_file *f;
    const void *data;
    size_t n;
    int error = open_next_file("stream", &f, &data, &n);

    *streamp = error ? NULL : &replay_stream_create(name, f)->up;
    return error;
}

static void
replay_close(struct stream *s_)
{
    struct replay_stream *s = replay_stream_cast(s_);
    replay_file_close(s->file);
    free(s->peer_name);
    free(s->peer_id);
    free(s);
}

/* Most questions have an integer answer: the recorded one, DEFAULT once
 * the recording has ended, or the divergence error. */
static long long int
int_answer(struct replay_stream *s, char tag, long long int default_)
{
    long long int value;
    const void *data;
    size_t n;
    if (stream_next(s, tag, &value, &data, &n)) {
        return value;
    }
    return default_;
}

static int
replay_connect(struct stream *s_)
{
    struct replay_stream *s = replay_stream_cast(s_);
    int retval = int_answer(s, REC_CONNECT, EAGAIN);
    return s->diverged ? s->diverged : retval;
}

static int
replay_recv(struct stream *s_, void *buffer, size_t size)
{
    struct replay_stream *s = replay_stream_cast(s_);
    long long int value;
    const void *data;
    size_t n;

    if (!stream_next(s, REC_RECV, &value, &data, &n)) {
        return s->diverged ? -s->diverged : -EAGAIN;
    }
    if (value > 0) {
        if (n != value || n > size) {
            /* The program offered less room than it did when recorded. */
            VLOG_ERR("%s: replay diverged from the recording: %zu bytes "
                     "recorded, room for %zu", replay_file_name(s->file),
                     n, size);
            s->diverged = EPROTO;
            return -EPROTO;
        }
        memcpy(buffer, data, n);
    }
    return value;
}

static int
replay_send(struct stream *s_, const void *buffer OVS_UNUSED, size_t n)
{
    struct replay_stream *s = replay_stream_cast(s_);
    int retval = int_answer(s, REC_SEND, n);
    return s->diverged ? -s->diverged : retval;
}

static size_t
replay_get_backlog(const struct stream *s_)
{
    struct replay_stream *s = replay_stream_cast(s_);
    return int_answer(s, REC_BACKLOG, 0);
}

static int
replay_get_error(const struct stream *s_)
{
    struct replay_stream *s = replay_stream_cast(s_);
    int retval = int_answer(s, REC_ERROR, 0);
    return s->diverged ? s->diverged : retval;
}

/* Answers a name question from the recording into *CACHE, which keeps the
 * answer alive for the caller. */
static const char *
string_answer(struct replay_stream *s, char tag, char **cache)
{
    long long int value;
    const void *data;
    size_t n;

    free(*cache);
    *cache = NULL;
    if (stream_next(s, tag, &value, &data, &n) && value) {
        *cache = xmemdup0(data, n);
    }
    return *cache;
}

static const char *
replay_get_peer_name(const struct stream *s_)
{
    struct replay_stream *s = replay_stream_cast(s_);
    return string_answer(s, REC_PEER_NAME, &s->peer_name);
}

static const char *
replay_get_peer_id(const struct stream *s_)
{
    struct replay_stream *s = replay_stream_cast(s_);
    return string_answer(s, REC_PEER_ID, &s->peer_id);
}

static void
replay_run(struct stream *s OVS_UNUSED)
{
}

/* Every wait wakes at once while the recording has more to say: the
 * answers are there already, and the program must go on asking in the
 * order it did.  Once it has said everything, the stream goes quiet, as
 * the recorded run did when it ended. */
static void
replay_wait_(struct stream *s_)
{
    struct replay_stream *s = replay_stream_cast(s_);
    if (!s->diverged && replay_has_more(s->file)) {
        poll_immediate_wake();
    }
}

static void
replay_wait(struct stream *s, enum stream_wait_type type OVS_UNUSED)
{
    replay_wait_(s);
}

static const struct stream_class replay_stream_class = {
    .close = replay_close,
    .connect = replay_connect,
    .recv = replay_recv,
    .send = replay_send,
    .get_backlog = replay_get_backlog,
    .get_error = replay_get_error,
    .get_peer_name = replay_get_peer_name,
    .get_peer_id = replay_get_peer_id,
    .run = replay_run,
    .run_wait = replay_wait_,
    .wait = replay_wait,
};

/* Passive streams. */

int
replay_pstream_open(const char *name, struct pstream **pstreamp)
{
    struct replay_file *f;
    const void *data;
    size_t n;
    int error = open_next_file("pstream", &f, &data, &n);

    *pstreamp = NULL;
    if (error) {
        return error;
    }
    /* The open record's data is about to be overwritten by the next read:
     * keep the name first. */
    char *real_name = n ? xmemdup0(data, n) : xstrdup(name);

    long long int port;
    const void *port_data;
    size_t port_n;
    bool diverged = false;
    if (!next_record(f, REC_PORT, &diverged, &port, &port_data, &port_n)) {
        free(real_name);
        replay_file_close(f);
        return EPROTO;
    }

    struct replay_pstream *p = xzalloc(sizeof *p);
    pstream_init(&p->up, &replay_pstream_class, real_name, port);
    free(real_name);
    p->file = f;
    *pstreamp = &p->up;
    return 0;
}

static void
replay_pstream_close(struct pstream *p_)
{
    struct replay_pstream *p = replay_pstream_cast(p_);
    replay_file_close(p->file);
    free(p);
}

static int
replay_pstream_accept(struct pstream *p_, struct stream **streamp)
{
    struct replay_pstream *p = replay_pstream_cast(p_);
    long long int value;
    const void *data;
    size_t n;

    *streamp = NULL;
    if (!next_record(p->file, REC_ACCEPT, &p->diverged, &value, &data, &n)) {
        return p->diverged ? EPROTO : EAGAIN;
    }
    if (value < 0) {
        return -value;
    }

    char *name = xmemdup0(data, n);
    struct replay_file *f;
    int error = replay_file_open("stream", value, &f);
    if (!error) {
        bool diverged = false;
        long long int open_error;
        if (next_record(f, REC_OPEN, &diverged, &open_error, &data, &n)) {
            *streamp = &replay_stream_create(name, f)->up;
        } else {
            replay_file_close(f);
            error = EPROTO;
        }
    }
    free(name);
    return error;
}

static void
replay_pstream_wait(struct pstream *p_)
{
    struct replay_pstream *p = replay_pstream_cast(p_);
    if (!p->diverged && replay_has_more(p->file)) {
        poll_immediate_wake();
    }
}

static const struct pstream_class replay_pstream_class = {
    .close = replay_pstream_close,
    .accept = replay_pstream_accept,
    .wait = replay_pstream_wait,
};
