/* stream-provider: what stream.c needs from stream-ssl.c.  Private to the
 * two of them; everyone else uses stream.h and stream-ssl.h.
 *
 * Every stream, plain or TLS, is a libevent bufferevent once its socket is
 * connected, so stream.c does all the buffering and waiting and stream-ssl.c
 * only supplies TLS bufferevents and explains their failures.
 */
#ifndef STREAM_PROVIDER_H
#define STREAM_PROVIDER_H 1

#include <stdbool.h>

struct bufferevent;
struct event_base;

/* Returns 0 if keys and certificates are configured, else EINVAL after
 * logging what is missing (mentioning NAME). */
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

#endif /* stream-provider.h */
