/* vconn: OpenFlow connections over byte streams.
 *
 * A vconn carries whole OpenFlow messages over a stream (stream.h): it
 * cuts the byte stream into messages by their headers' lengths and, before
 * anything else, exchanges hellos and settles on a version.
 *
 * Names
 * -----
 *     tcp:HOST[:PORT]   ssl:HOST[:PORT]   unix:PATH          (active)
 *     ptcp:[PORT][:IP]  pssl:[PORT][:IP]  punix:PATH         (listeners)
 * PORT defaults to 6653, OpenFlow's port.  A relative Unix PATH is taken
 * relative to the run directory (ovs_rundir()), as Open vSwitch does, so
 * "unix:br0.mgmt" names a bridge's management socket.
 *
 * Version negotiation
 * -------------------
 * Each side sends a hello offering its allowed versions (a bitmap with bit
 * V set for wire version V, OFP10_VERSION = 1 upward).  The connection
 * speaks the highest version both offer.  With none in common the vconn
 * sends an OFPHFC_INCOMPATIBLE error whose text says both sides' versions,
 * and fails with EPROTO.  A first message other than a hello fails the
 * same way.  vconn_connect() drives all of this; vconn_recv() and
 * vconn_send() drive it too, so a caller may just start sending.
 *
 * Receiving
 * ---------
 * vconn_recv() returns one complete message whose header length has been
 * checked: a length below 8 bytes is a lying length, which fails the
 * connection with EPROTO (there is no way to find the next message).  A
 * message of another version than the negotiated one (other than hello,
 * error and echo, which any version may send) is answered with
 * OFPBRC_BAD_VERSION and dropped; the connection stays up.  Everything
 * else (types, bodies) is the caller's to decode.
 *
 * Sending
 * -------
 * vconn_send() takes ownership of the buffer.  The stream queues what the
 * kernel does not take yet; when more than VCONN_MAX_BACKLOG bytes are
 * queued vconn_send() refuses with EAGAIN (the caller keeps the buffer) so
 * a peer that stops reading cannot make us queue without limit.
 *
 * Blocking helpers
 * ----------------
 * The *_block() and transact functions loop on poll_block() until done and
 * are meant for command-line tools.  They answer echo requests that arrive
 * while they wait, so a long exchange is not mistaken for a dead peer, and
 * skip (logging at debug level) replies whose xid they are not waiting for.
 *
 * Threads and ownership: a vconn lives on the thread that opened or
 * accepted it (its stream uses that thread's event base).  Messages
 * returned by vconn_recv*() and transact belong to the caller, who frees
 * them with ofpbuf_delete(); messages given to vconn_send*() belong to the
 * vconn from then on, whatever the result except EAGAIN from vconn_send().
 * Names returned by vconn_get_name() belong to the vconn. */
#ifndef VCONN_H
#define VCONN_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "types.h"

struct ofpbuf;
struct ovs_list;
struct pvconn;
struct vconn;

#define OFP_PORT 6653
#define VCONN_MAX_BACKLOG (4 * 1024 * 1024)

/* Checks NAME's syntax without opening anything: 0 or EAFNOSUPPORT /
 * EINVAL. */
int vconn_verify_name(const char *name);

/* Starts connecting to NAME, offering ALLOWED_VERSIONS (0: every version
 * this code supports).  Returns 0 with the vconn in *VCONNP, or a positive
 * errno value with *VCONNP set to NULL. */
int vconn_open(const char *name, uint32_t allowed_versions, uint8_t dscp,
               struct vconn **vconnp);
void vconn_close(struct vconn *);

/* Progress of connecting and negotiating: 0 once a version is agreed,
 * EAGAIN while still in progress, otherwise the positive errno value that
 * ended it (EPROTO for a failed negotiation). */
int vconn_connect(struct vconn *);

/* 0 with a message in *MSGP, EAGAIN if none is complete yet, EOF when the
 * peer closed the connection, or another positive errno value. */
int vconn_recv(struct vconn *, struct ofpbuf **msgp);
/* 0, EAGAIN (backlog full; MSG still belongs to the caller), or a positive
 * errno value (MSG freed). */
int vconn_send(struct vconn *, struct ofpbuf *msg);

const char *vconn_get_name(const struct vconn *);
/* From now on vconn_recv() hands over messages of any OpenFlow version
 * instead of answering those of another version with OFPBRC_BAD_VERSION:
 * for a snoop connection, whose switch copies what its controller
 * connection carries, in whatever version that speaks. */
void vconn_set_recv_any_version(struct vconn *);
/* The negotiated version, or -1 before negotiation finished. */
int vconn_get_version(const struct vconn *);
uint32_t vconn_get_allowed_versions(const struct vconn *);
/* Changes the versions to offer; only before the hello went out. */
void vconn_set_allowed_versions(struct vconn *, uint32_t allowed_versions);
/* The peer's address for TCP and SSL ("IP:PORT"), otherwise NULL. */
const char *vconn_get_peer_name(const struct vconn *);
/* Bytes queued for sending. */
size_t vconn_get_backlog(const struct vconn *);
/* Gather what is sent until uncorked, then write it at once (stream.h's
 * stream_cork()). */
void vconn_cork(struct vconn *);
void vconn_uncork(struct vconn *);

void vconn_run(struct vconn *);
void vconn_run_wait(struct vconn *);
void vconn_connect_wait(struct vconn *);
void vconn_recv_wait(struct vconn *);
void vconn_send_wait(struct vconn *);

/* Blocking helpers for tools (see above).  TIMEOUT_MS < 0: no limit. */
int vconn_open_block(const char *name, uint32_t allowed_versions,
                     uint8_t dscp, long long int timeout_ms,
                     struct vconn **vconnp);
int vconn_connect_block(struct vconn *, long long int timeout_ms);
int vconn_send_block(struct vconn *, struct ofpbuf *msg);
int vconn_recv_block(struct vconn *, struct ofpbuf **msgp);
/* Receives until a message with XID arrives (others are dropped). */
int vconn_recv_xid(struct vconn *, ovs_be32 xid, struct ofpbuf **msgp);
/* Sends REQUEST and waits for the message with its xid. */
int vconn_transact(struct vconn *, struct ofpbuf *request,
                   struct ofpbuf **replyp);
/* Sends REQUEST, which normally has no reply, then a barrier request, and
 * waits for the barrier reply.  *REPLYP is the message REQUEST provoked
 * (normally an error), or NULL if it provoked none. */
int vconn_transact_noreply(struct vconn *, struct ofpbuf *request,
                           struct ofpbuf **replyp);
/* The same for a list of requests (struct ofpbuf's list_node), sent in
 * order: *REPLYP is the first reply to any of them, or NULL. */
int vconn_transact_multiple_noreply(struct vconn *, struct ovs_list *requests,
                                    struct ofpbuf **replyp);
/* Sends the multipart REQUEST and collects every reply part (until one
 * without the "more" flag) into REPLIES, which the caller initializes and
 * later frees with ofpbuf_list_delete().  An error reply ends the dump: it
 * is then the only message in REPLIES. */
int vconn_dump_multipart(struct vconn *, struct ofpbuf *request,
                         struct ovs_list *replies);
/* The same, handing each reply part to CB as it arrives (CB owns it), so a
 * caller can print a large dump while the rest is still on its way.  An
 * error reply is handed over like a part and ends the dump. */
int vconn_dump_multipart_each(struct vconn *, struct ofpbuf *request,
                              void (*cb)(struct ofpbuf *reply, void *aux),
                              void *aux);

/* Listeners. */
int pvconn_verify_name(const char *name);
int pvconn_open(const char *name, uint32_t allowed_versions, uint8_t dscp,
                struct pvconn **pvconnp);
const char *pvconn_get_name(const struct pvconn *);
/* The versions offered to connections accepted from now on. */
void pvconn_set_allowed_versions(struct pvconn *, uint32_t allowed_versions);
/* The bound TCP port (host byte order) of a ptcp:/pssl: listener, else 0. */
uint16_t pvconn_get_bound_port(const struct pvconn *);
/* 0 with a new vconn (negotiation still to come), EAGAIN if no connection
 * is pending, or another positive errno value. */
int pvconn_accept(struct pvconn *, struct vconn **vconnp);
void pvconn_wait(struct pvconn *);
void pvconn_close(struct pvconn *);

#endif /* vconn.h */
