/* server-config: what an ovsdb-server serves, kept across the restarts
 * that --monitor makes.
 *
 * Operators change a running server with ovs-appctl (add-db, remove-db,
 * add-remote, remove-remote, the replication commands).  Under --monitor a
 * crashed daemon is forked again from the monitor process, which only knows
 * the command line; so, as with Open vSwitch, the daemon writes its current
 * configuration into an unlinked temporary file opened before the first
 * fork (every daemon the monitor starts inherits it), and a daemon that
 * finds a saved configuration there at start uses it instead of the
 * command line's.
 *
 * The file holds one JSON object: {"remotes": [...], "databases": [...],
 * "sync_from": "...", "sync_exclude": "...", "backup": true}.
 *
 * Memory: the caller owns struct server_config and destroys it with
 * server_config_destroy(). */
#ifndef OVSDB_SERVER_CONFIG_H
#define OVSDB_SERVER_CONFIG_H 1

#include <stdbool.h>
#include "sset.h"

struct server_config {
    struct sset remotes;
    struct sset databases;      /* File names and relay:DB:REMOTE targets. */
    char *sync_from;            /* NULL if none. */
    char *sync_exclude;         /* NULL if none. */
    bool backup;
};

void server_config_init(struct server_config *);
void server_config_destroy(struct server_config *);

/* Opens the temporary file (returns its fd, or -1 after logging why: the
 * server then simply does not keep its configuration). */
int server_config_file_open(void);
/* Replaces the file's contents with CONFIG. */
void server_config_save(int fd, const struct server_config *);
/* Reads a configuration saved earlier into CONFIG (initialized by the
 * caller); false if the file is empty or unreadable. */
bool server_config_load(int fd, struct server_config *);

#endif /* ovsdb/server-config.h */
