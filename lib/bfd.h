/* bfd: Bidirectional Forwarding Detection (RFC 5880, asynchronous mode,
 * over UDP as RFC 5881 has it), one session per interface, as a per-port
 * protocol (port-protocol.h) with the Interface `bfd` keys, `bfd_status`
 * and the `bfd/show` and `bfd/set-forwarding` commands of Open vSwitch 3.1.
 *
 * A session exchanges control packets with its peer: ofproto's monitor
 * thread calls bfd_class.run() when the session's deadline comes, which
 * composes the packet to send (Ethernet, IPv4 with TTL 255, UDP to port
 * 3784) and expires the detection timer; translation asks
 * bfd_class.recognizes() whether a packet arriving on the port is one of
 * the session's, and hands such packets to bfd_class.receive(), which
 * validates them and moves the state machine (AdminDown, Down, Init, Up).
 * The port may carry traffic while the session is "forwarding"
 * (bfd_class.link_ok()).
 *
 * Threads
 * -------
 *
 * bfd_create(), bfd_reconfigure(), bfd_destroy() and bfd_init(): main thread
 * only.  The class functions run on translating, handler and monitor
 * threads; bfd_get_status() and bfd_forwarding() on any thread.  One mutex
 * of this module guards every session's state and the table of sessions by
 * name that the unixctl commands use, so all of these may overlap.
 *
 * Memory
 * ------
 *
 * bfd_create() returns a session its caller owns and frees with
 * bfd_destroy() once ofproto no longer has it attached.  The netdev given
 * to bfd_create() is not referenced or closed here: the caller keeps it
 * open for the session's lifetime.  Its receive counter drives decay and
 * forwarding_if_rx (NULL: no counter, as if nothing was received). */
#ifndef BFD_H
#define BFD_H 1

#include <stdbool.h>
#include <stdint.h>

#include "port-protocol.h"

#define BFD_PACKET_LEN 24           /* A control packet without auth. */
#define BFD_DEST_PORT 3784          /* RFC 5881 single-hop control port. */

struct bfd;
struct netdev;
struct smap;

extern const struct port_protocol_class bfd_class;

/* Registers the bfd/show and bfd/set-forwarding commands (main thread; a
 * second call does nothing).  bfd_create() calls it too. */
void bfd_init(void);

/* Creates a session for the interface NAME with the settings in CFG (the
 * Interface `bfd` column; the caller has checked "enable"), receiving on
 * NETDEV (may be NULL), for OWNER (see port_protocol_init()).  Settings
 * that do not parse are logged and their defaults used.  The session asks
 * for its first run at once. */
struct bfd *bfd_create(const char *name, const struct smap *cfg,
                       struct netdev *netdev, void *owner);
/* Applies changed settings; a changed interval starts a poll sequence. */
void bfd_reconfigure(struct bfd *, const struct smap *cfg);
/* Frees BFD, which ofproto must no longer have attached.  NULL is ok. */
void bfd_destroy(struct bfd *);

struct port_protocol *bfd_protocol(struct bfd *);
/* P must be of bfd_class. */
struct bfd *bfd_from_protocol(const struct port_protocol *p);

/* Whether the session lets the port forward (override included). */
bool bfd_forwarding(const struct bfd *);
/* Adds the `bfd_status` keys to SMAP: state, forwarding, diagnostic,
 * remote_state, remote_diagnostic, flap_count. */
void bfd_get_status(const struct bfd *, struct smap *smap);

#endif /* bfd.h */
