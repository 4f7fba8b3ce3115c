#include <config.h>
#include "server.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "util.h"

void
ovsdb_lock_server_init(struct ovsdb_lock_server *server)
{
    shash_init(&server->locks);
}

void
ovsdb_lock_server_destroy(struct ovsdb_lock_server *server)
{
    /* Locks disappear with their last waiter, so none should be left; free
     * any anyway rather than leak them. */
    struct shash_node *node;
    SHASH_FOR_EACH (node, &server->locks) {
        struct ovsdb_lock *lock = node->data;
        free(lock->name);
        free(lock);
    }
    shash_destroy(&server->locks);
}

void
ovsdb_session_init(struct ovsdb_session *session,
                   struct ovsdb_lock_server *server)
{
    session->server = server;
    hmap_init(&session->waiters);
    session->rbac_role = NULL;
    session->rbac_id = NULL;
}

static void
replace_string(char **dst, const char *src)
{
    if (!*dst || !src || strcmp(*dst, src)) {
        free(*dst);
        *dst = src ? xstrdup(src) : NULL;
    }
}

void
ovsdb_session_set_rbac(struct ovsdb_session *session, const char *role,
                       const char *id)
{
    replace_string(&session->rbac_role, role);
    replace_string(&session->rbac_id, id);
}

void
ovsdb_session_destroy(struct ovsdb_session *session,
                      struct ovsdb_lock_waiter ***new_owners,
                      size_t *n_new_owners)
{
    struct ovsdb_lock_waiter **owners = NULL;
    size_t n = 0, allocated = 0;

    struct ovsdb_lock_waiter *waiter;
    HMAP_FOR_EACH_SAFE (waiter, session_node, &session->waiters) {
        struct ovsdb_lock_waiter *owner = ovsdb_lock_waiter_remove(waiter);
        if (owner) {
            if (n >= allocated) {
                owners = x2nrealloc(owners, &allocated, sizeof *owners);
            }
            owners[n++] = owner;
        }
    }
    hmap_destroy(&session->waiters);
    free(session->rbac_role);
    free(session->rbac_id);
    session->rbac_role = session->rbac_id = NULL;

    *new_owners = owners;
    *n_new_owners = n;
}

struct ovsdb_lock_waiter *
ovsdb_session_get_lock_waiter(const struct ovsdb_session *session,
                              const char *lock_name)
{
    struct ovsdb_lock_waiter *waiter;
    HMAP_FOR_EACH_WITH_HASH (waiter, session_node, hash_string(lock_name, 0),
                             &session->waiters) {
        if (!strcmp(waiter->lock->name, lock_name)) {
            return waiter;
        }
    }
    return NULL;
}

bool
ovsdb_session_holds_lock(const struct ovsdb_session *session,
                         const char *lock_name)
{
    const struct ovsdb_lock_waiter *waiter
        = ovsdb_session_get_lock_waiter(session, lock_name);
    return waiter && ovsdb_lock_waiter_is_owner(waiter);
}

static struct ovsdb_lock_waiter *
lock_owner(const struct ovsdb_lock *lock)
{
    return (ovs_list_is_empty(&lock->waiters) ? NULL
            : CONTAINER_OF(ovs_list_front(&lock->waiters),
                           struct ovsdb_lock_waiter, lock_node));
}

struct ovsdb_lock_waiter *
ovsdb_session_lock(struct ovsdb_session *session, const char *lock_name,
                   enum ovsdb_lock_mode mode,
                   struct ovsdb_lock_waiter **victim)
{
    struct ovsdb_lock_server *server = session->server;
    struct ovsdb_lock *lock = shash_find_data(&server->locks, lock_name);
    if (!lock) {
        lock = xmalloc(sizeof *lock);
        lock->name = xstrdup(lock_name);
        ovs_list_init(&lock->waiters);
        shash_add(&server->locks, lock_name, lock);
    }

    struct ovsdb_lock_waiter *waiter = xmalloc(sizeof *waiter);
    waiter->lock = lock;
    waiter->session = session;
    waiter->mode = mode;
    hmap_insert(&session->waiters, &waiter->session_node,
                hash_string(lock_name, 0));

    *victim = NULL;
    if (mode == OVSDB_LOCK_STEAL) {
        *victim = lock_owner(lock);
        ovs_list_push_front(&lock->waiters, &waiter->lock_node);
    } else {
        ovs_list_push_back(&lock->waiters, &waiter->lock_node);
    }
    return waiter;
}

struct ovsdb_lock_waiter *
ovsdb_lock_waiter_remove(struct ovsdb_lock_waiter *waiter)
{
    struct ovsdb_lock *lock = waiter->lock;
    struct ovsdb_lock_server *server = waiter->session->server;
    bool was_owner = ovsdb_lock_waiter_is_owner(waiter);

    ovs_list_remove(&waiter->lock_node);
    hmap_remove(&waiter->session->waiters, &waiter->session_node);
    free(waiter);

    if (ovs_list_is_empty(&lock->waiters)) {
        shash_find_and_delete(&server->locks, lock->name);
        free(lock->name);
        free(lock);
        return NULL;
    }
    return was_owner ? lock_owner(lock) : NULL;
}

bool
ovsdb_lock_waiter_is_owner(const struct ovsdb_lock_waiter *waiter)
{
    return lock_owner(waiter->lock) == waiter;
}
