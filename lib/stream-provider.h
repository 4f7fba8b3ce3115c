/* stream-provider: what lies behind stream.h.  Private to lib/stream*.c;
 * everyone else uses stream.h, stream-ssl.h and replay.h.
 *
 * stream.c is the front: it checks names, picks a provider, logs what the
 * streams' answers mean (so that a replayed run logs what the recorded run
 * logged), and, while recording (replay.h), writes every answer a stream
 * or a listener gives to the stream's replay file.  Two providers sit
 * behind it:
 *
 *   - stream-socket.c: real sockets (unix:, tcp:, ssl: and their passive
 *     forms).  Once a socket is connected it is a libevent bufferevent, so
 *     the provider does the buffering and waiting; stream-ssl.c supplies
 *     TLS bufferevents and explains their failures.
 *   - stream-replay.c: streams and listeners whose every answer comes from
 *     a replay file written by an earlier, recorded run.
 *
 * A provider's object embeds struct stream (or struct pstream) first and is
 * created and freed by the provider; the front owns NAME and RECORD and
 * frees them after calling the class's close function.
 */
#ifndef STREAM_PROVIDER_H
#define STREAM_PROVIDER_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "stream.h"

struct bufferevent;
struct event_base;
struct replay_file;

/* Stream names.  */
enum stream_kind {
    KIND_UNIX,
    KIND_TCP,
    KIND_SSL
};

/* Parses the prefix of NAME (an active name, or a passive one if PASSIVE):
 * sets *KIND and *REST (what follows the prefix) and returns true, or
 * returns false for an unknown prefix. */
bool stream_kind_from_name(const char *name, bool passive,
                           enum stream_kind *kind, const char **rest);

/* Active streams. */
struct stream {
    const struct stream_class *class;
    char *name;                 /* Owned by the front. */
    struct replay_file *record; /* Recording: where answers go; else NULL. */
    bool eof_logged;            /* The front said the peer closed. */
    bool error_logged;          /* The front said the stream failed. */
};

/* Each member does what the stream.h function of the same name does. */
struct stream_class {
    /* Frees the provider's state and the object, not NAME or RECORD. */
    void (*close)(struct stream *);
    int (*connect)(struct stream *);
    int (*recv)(struct stream *, void *buffer, size_t n);
    int (*send)(struct stream *, const void *buffer, size_t n);
    size_t (*get_backlog)(const struct stream *);
    int (*get_error)(const struct stream *);
    const char *(*get_peer_name)(const struct stream *);
    const char *(*get_peer_id)(const struct stream *);
    void (*run)(struct stream *);
    void (*run_wait)(struct stream *);
    void (*wait)(struct stream *, enum stream_wait_type);
    void (*cork)(struct stream *);      /* May be NULL. */
    void (*uncork)(struct stream *);    /* May be NULL. */
};

/* Initializes the front's part of S, a provider's new stream. */
void stream_init(struct stream *s, const struct stream_class *,
                 const char *name);

/* Passive streams. */
struct pstream {
    const struct pstream_class *class;
    char *name;                 /* With the real port; owned by the front. */
    uint16_t bound_port;        /* TCP port bound, 0 for punix. */
    struct replay_file *record; /* As in struct stream. */
};

struct pstream_class {
    void (*close)(struct pstream *);
    int (*accept)(struct pstream *, struct stream **streamp);
    void (*wait)(struct pstream *);
};

void pstream_init(struct pstream *p, const struct pstream_class *,
                  const char *name, uint16_t bound_port);

/* The socket provider (stream-socket.c).  NAME's syntax has been checked.
 * Like stream_open() and pstream_open() but logging nothing that the front
 * logs from the result. */
int socket_stream_open(const char *name, enum stream_kind,
                       const char *rest, uint16_t default_port,
                       struct stream **streamp, uint8_t dscp);
int socket_pstream_open(const char *name, enum stream_kind,
                        const char *rest, uint16_t default_port,
                        struct pstream **pstreamp, uint8_t dscp);

/* The replay provider (stream-replay.c). */
int replay_stream_open(const char *name, struct stream **streamp);
int replay_pstream_open(const char *name, struct pstream **pstreamp);

/* Recording (stream-replay.c): the front calls these with each answer. */
void record_stream_open(const char *name, int error, struct stream *);
void record_pstream_open(const char *name, int error, struct pstream *);
void record_accept(struct pstream *, int error, struct stream *);
void record_int(const struct stream *, char tag, long long int value);
void record_recv(const struct stream *, int retval, const void *data);
void record_string(const struct stream *, char tag, const char *);

/* Record tags, one per question a stream answers. */
#define REC_CONNECT   'C'
#define REC_RECV      'R'
#define REC_SEND      'S'
#define REC_BACKLOG   'B'
#define REC_ERROR     'E'
#define REC_PEER_NAME 'N'
#define REC_PEER_ID   'I'
#define REC_ACCEPT    'A'
#define REC_OPEN      'O'
#define REC_PORT      'T'

/* TLS (stream-ssl.c). */

/* Returns 0 if keys and certificates are configured, else ENOPROTOOPT after
 * logging each one missing.  NAME is the stream being opened. */
int stream_ssl_check_config(const char *name);

/* Wraps connected socket FD in a TLS bufferevent on BASE that starts the
 * handshake as a client, or as a server if SERVER.  On success the
 * bufferevent owns FD.  On failure returns a positive errno value, logs why,
 * and leaves FD to the caller. */
int stream_ssl_bufferevent_new(const char *name, struct event_base *base,
                               int fd, bool server,
                               struct bufferevent **bevp);

/* Logs the TLS errors queued on BEV (as WARN, naming NAME) and returns
 * EPROTO, or returns 0 if there were none. */
int stream_ssl_report_errors(const char *name, struct bufferevent *bev);

/* Before BEV is freed: writes out what it can of BEV's queued output and
 * then a TLS close_notify, without blocking. */
void stream_ssl_shutdown(struct bufferevent *bev);

/* The common name in the certificate that the peer of BEV (whose handshake
 * is done) presented, as a new string, or NULL. */
char *stream_ssl_get_peer_common_name(struct bufferevent *bev);

#endif /* stream-provider.h */
