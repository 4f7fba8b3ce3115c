/* stream: byte streams to and from peers, named the way Open vSwitch names
 * them, on top of libevent bufferevents.
 *
 * Names
 * -----
 * Active (connecting) streams:
 *
 *     unix:PATH           a Unix domain socket
 *     tcp:HOST[:PORT]     TCP; HOST is a name, an IPv4 address or an IPv6
 *                         address in brackets ("tcp:[::1]:6640")
 *     ssl:HOST[:PORT]     TLS over TCP (see stream-ssl.h for keys and certs)
 *
 * Passive (listening) streams:
 *
 *     punix:PATH          listens on a Unix socket; a stale socket file at
 *                         PATH is removed first, and PATH is removed again by
 *                         pstream_close()
 *     ptcp:[PORT][:IP]    listens on TCP PORT (0: the kernel picks a free
 *                         port, see pstream_get_bound_port()) and IP (default
 *                         all IPv4 addresses; "[::]" style for IPv6)
 *     pssl:[PORT][:IP]    the same with TLS
 *
 * A PORT left out falls back to the DEFAULT_PORT argument of the
 * *_with_default_port() functions (OVSDB uses 6640, OpenFlow 6653); the plain
 * stream_open()/pstream_open() use 0, which is an error for an active stream.
 * Relative Unix socket paths are taken relative to the current directory:
 * resolving them against the run directory is the caller's job.
 *
 * Life cycle
 * ----------
 * stream_open() only starts connecting and never blocks (a host name is
 * resolved synchronously, though).  stream_connect() then reports 0 once the
 * stream is usable (for ssl: once the TLS handshake is done), EAGAIN while it
 * is still connecting, or the positive errno value that made it fail.  A
 * stream may be used before it is connected: stream_send() queues the data
 * and stream_recv() returns -EAGAIN until then.
 *
 * stream_recv() returns the number of bytes copied (> 0), 0 at end of file,
 * -EAGAIN when nothing is available yet, or another negative errno value.
 * Data that arrived before an EOF or an error is always delivered first; the
 * EOF or error is reported once it has drained.
 *
 * stream_send() never blocks: it copies the data into the stream's output
 * buffer, which the event loop writes out in the background, and returns the
 * number of bytes accepted (always N) or a negative errno value once the
 * stream has failed.  stream_get_backlog() tells how many bytes are still
 * waiting to be written, for callers that want flow control.
 *
 * Waiting
 * -------
 * Streams live on the calling thread's libevent base (poll_loop_base()), so a
 * stream must be used by the thread that opened (or accepted) it.  Network
 * activity runs the bufferevent callbacks inside poll_block(), which ends the
 * block, so stream_wait() only has to wake at once when the condition already
 * holds:
 *
 *     STREAM_CONNECT   the connection attempt has finished, either way
 *     STREAM_RECV      data, EOF or an error is ready for stream_recv()
 *     STREAM_SEND      the output buffer has drained completely (or failed)
 *
 * Record and replay
 * -----------------
 * Every program's streams can be recorded and replayed (replay.h): behind
 * these functions sit providers (stream-provider.h), real sockets normally
 * and replay files under --replay.
 *
 * Ownership
 * ---------
 * stream_open() and pstream_accept() hand the caller a stream that it must
 * release with stream_close().  Closing makes one nonblocking attempt to
 * write out what is still queued (plain sockets only) and drops whatever
 * does not fit; use stream_get_backlog() to wait for delivery first.  Names
 * returned by the *_get_name() functions belong to the stream.
 */
#ifndef STREAM_H
#define STREAM_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct stream;
struct pstream;

enum stream_wait_type {
    STREAM_CONNECT,
    STREAM_RECV,
    STREAM_SEND
};

/* Checks NAME's syntax (and, for ssl:, that TLS is configured) without
 * opening anything.  Returns 0 or a positive errno value. */
int stream_verify_name(const char *name);
int pstream_verify_name(const char *name);

/* True for names that look like active / passive stream names. */
bool stream_is_active_name(const char *name);
bool pstream_is_passive_name(const char *name);

/* True if connections made by NAME (active or passive) can silently die,
 * i.e. need inactivity probes: tcp and ssl do, unix does not. */
bool stream_or_pstream_needs_probes(const char *name);

/* Starts connecting to NAME.  DSCP is the IP DSCP value for TCP (0-63; see
 * DSCP_DEFAULT in socket-util.h), ignored for Unix sockets.  On success
 * returns 0 and stores the new stream in *STREAMP; otherwise returns a
 * positive errno value and stores NULL. */
int stream_open(const char *name, struct stream **streamp, uint8_t dscp);
int stream_open_with_default_port(const char *name, uint16_t default_port,
                                  struct stream **streamp, uint8_t dscp);

/* Waits until the stream that stream_open() just returned (ERROR is that
 * call's return value) is connected or has failed, for at most TIMEOUT
 * milliseconds (negative: no limit).  Returns 0 or a positive errno value
 * (ETIMEDOUT on timeout); on failure closes the stream and sets *STREAMP to
 * NULL. */
int stream_open_block(int error, long long int timeout,
                      struct stream **streamp);

void stream_close(struct stream *);
const char *stream_get_name(const struct stream *);
/* The peer's address as "IP:PORT" ("[IPv6]:PORT"), or NULL for Unix sockets
 * and streams not connected yet. */
const char *stream_get_peer_name(const struct stream *);

/* Who the peer proved to be: for ssl: streams, the common name (CN) in the
 * certificate it presented, once the handshake is done; otherwise NULL.
 * Owned by the stream. */
const char *stream_get_peer_id(const struct stream *);

int stream_connect(struct stream *);
int stream_recv(struct stream *, void *buffer, size_t n);
int stream_send(struct stream *, const void *buffer, size_t n);
/* Bytes accepted by stream_send() but not yet handed to the kernel. */
size_t stream_get_backlog(const struct stream *);
/* Between stream_cork() and stream_uncork(), what stream_send() takes is
 * only gathered; uncorking hands it all to the kernel in one write.  A
 * sender of many small messages at once (packet_ins to a controller) so
 * saves a system call and a TCP segment per message.  Plain sockets only;
 * elsewhere both are no-ops.  Never stay corked across poll_block(). */
void stream_cork(struct stream *);
void stream_uncork(struct stream *);
/* The positive errno value that broke the stream (a failed connection
 * attempt, a receive or a send error), or 0.  End of file is not an error:
 * stream_recv() reports it. */
int stream_get_error(const struct stream *);

/* Do any pending work / register what stream_run() needs.  Bufferevents do
 * their own work inside poll_block(), so these are cheap; calling them keeps
 * callers independent of that detail. */
void stream_run(struct stream *);
void stream_run_wait(struct stream *);
void stream_wait(struct stream *, enum stream_wait_type);
void stream_connect_wait(struct stream *);
void stream_recv_wait(struct stream *);
void stream_send_wait(struct stream *);

/* Passive streams. */
int pstream_open(const char *name, struct pstream **pstreamp, uint8_t dscp);
int pstream_open_with_default_port(const char *name, uint16_t default_port,
                                   struct pstream **pstreamp, uint8_t dscp);
/* The name, with the actual port filled in for "ptcp:0" and the like. */
const char *pstream_get_name(const struct pstream *);
void pstream_close(struct pstream *);
/* Accepts one pending connection: 0 with a new stream in *STREAMP, EAGAIN if
 * none is pending, or another positive errno value.  TLS streams come back
 * before their handshake: stream_connect() or the first recv/send finishes
 * it. */
int pstream_accept(struct pstream *, struct stream **streamp);
/* Like pstream_accept() but waits for a connection (or a hard error). */
int pstream_accept_block(struct pstream *, struct stream **streamp);
void pstream_wait(struct pstream *);
/* The bound TCP port in host byte order (0 for punix). */
uint16_t pstream_get_bound_port(const struct pstream *);

#endif /* stream.h */
