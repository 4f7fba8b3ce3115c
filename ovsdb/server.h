/* ovsdb-server-core: what the JSON-RPC layer and the transaction executor
 * share about clients: sessions and the locks they hold (RFC 7047 section
 * 4.1.8 to 4.1.10, "lock", "steal", "unlock").
 *
 * A lock is a name with a queue of waiters, one per session that asked for
 * it; the first waiter owns the lock.  "lock" joins the back of the queue
 * (and owns the lock at once if the queue was empty).  "steal" joins the
 * front: the previous owner loses the lock (the JSON-RPC layer sends it
 * "stolen") but stays in the queue, so it gets the lock back ("locked")
 * once everyone in front of it has left, which is what Open vSwitch does
 * and what its IDLs expect.  "unlock", or the end of the session, leaves
 * the queue; if the owner left, the next waiter owns the lock and must be
 * told ("locked").
 *
 * This module keeps only the bookkeeping and tells the caller who gained
 * or lost a lock; sending notifications is the JSON-RPC layer's job.  The
 * transaction executor asks ovsdb_session_holds_lock() for "assert".
 *
 * A session also says who its client is, for role-based access control
 * (rbac.h): the role of the remote it came through and the client's
 * identity (its TLS certificate's common name), both NULL until
 * ovsdb_session_set_rbac() sets them.
 *
 * Ownership: the JSON-RPC layer embeds a struct ovsdb_session in each of
 * its sessions and owns it.  A struct ovsdb_lock_server owns its locks; a
 * lock exists while some session waits for it.  Waiter records belong to
 * their session and lock at once: ovsdb_lock_waiter_remove() and
 * ovsdb_session_destroy() free them.
 */
#ifndef OVSDB_SERVER_H
#define OVSDB_SERVER_H 1

#include <stdbool.h>
#include <stddef.h>
#include "hmap.h"
#include "list.h"
#include "shash.h"

struct ovsdb_lock_server {
    struct shash locks;         /* Name -> struct ovsdb_lock *. */
};

struct ovsdb_session {
    struct ovsdb_lock_server *server;
    struct hmap waiters;        /* struct ovsdb_lock_waiter, by lock name. */
    char *rbac_role;            /* Owned, NULL if none. */
    char *rbac_id;              /* Owned, NULL if none. */
};

struct ovsdb_lock {
    char *name;
    struct ovs_list waiters;    /* First one is the owner. */
};

enum ovsdb_lock_mode {
    OVSDB_LOCK_WAIT,            /* "lock": queue up. */
    OVSDB_LOCK_STEAL            /* "steal": take it now. */
};

struct ovsdb_lock_waiter {
    struct hmap_node session_node;      /* In session->waiters. */
    struct ovs_list lock_node;          /* In lock->waiters. */
    struct ovsdb_lock *lock;
    struct ovsdb_session *session;
    enum ovsdb_lock_mode mode;          /* How the session asked. */
};

void ovsdb_lock_server_init(struct ovsdb_lock_server *);
/* Every session must have been destroyed first. */
void ovsdb_lock_server_destroy(struct ovsdb_lock_server *);

void ovsdb_session_init(struct ovsdb_session *, struct ovsdb_lock_server *);
/* Sets the session's RBAC role and client identity (copied; NULL for
 * none). */
void ovsdb_session_set_rbac(struct ovsdb_session *, const char *role,
                            const char *id);
/* Releases every lock SESSION holds or waits for.  The waiters that come to
 * own a lock by that are returned in *NEW_OWNERS, an array of *N_NEW_OWNERS
 * elements that the caller notifies with "locked" and then free()s. */
void ovsdb_session_destroy(struct ovsdb_session *,
                           struct ovsdb_lock_waiter ***new_owners,
                           size_t *n_new_owners);

/* The waiter record of SESSION for LOCK_NAME, or NULL. */
struct ovsdb_lock_waiter *ovsdb_session_get_lock_waiter(
    const struct ovsdb_session *, const char *lock_name);
bool ovsdb_session_holds_lock(const struct ovsdb_session *,
                              const char *lock_name);

/* Adds SESSION as a waiter for LOCK_NAME (which SESSION must not be waiting
 * for already) and returns its waiter record.  With OVSDB_LOCK_STEAL,
 * SESSION becomes the owner; the previous owner's waiter, which stays in
 * the queue behind it, is returned in *VICTIM (NULL if the lock was free);
 * the caller sends that session "stolen".  With OVSDB_LOCK_WAIT, *VICTIM is
 * always NULL. */
struct ovsdb_lock_waiter *ovsdb_session_lock(
    struct ovsdb_session *, const char *lock_name, enum ovsdb_lock_mode,
    struct ovsdb_lock_waiter **victim);

/* Removes WAITER from its lock and session, and frees it.  Returns the
 * waiter that owns the lock because of that (WAITER was the owner and
 * someone else was waiting), to notify with "locked", or NULL. */
struct ovsdb_lock_waiter *ovsdb_lock_waiter_remove(struct ovsdb_lock_waiter *);

bool ovsdb_lock_waiter_is_owner(const struct ovsdb_lock_waiter *);
static inline const char *
ovsdb_lock_waiter_get_name(const struct ovsdb_lock_waiter *waiter)
{
    return waiter->lock->name;
}

#endif /* ovsdb/server.h */
