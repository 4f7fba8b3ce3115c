/* client-connect: ovsdb-client's choice among several servers.
 *
 * A SERVER argument may list a clustered database's servers separated by
 * commas ("unix:s1.ovsdb,unix:s2.ovsdb").  ovsdb-client then tries them in
 * random order until one is fit for the database it works on: the leader
 * of the cluster, or with --no-leader-only any member connected to it (the
 * rules of ovsdb-server-status.h, read from the server's _Server
 * database).  If none is, it fails ("no servers were available"), as Open
 * vSwitch's does.
 *
 * Blocking, for a command-line tool; the caller owns the returned
 * connection and string.
 */
#ifndef OVSDB_CLIENT_CONNECT_H
#define OVSDB_CLIENT_CONNECT_H 1

#include <stdbool.h>

struct jsonrpc;

/* Connects to one of the servers in LIST (comma-separated) that is fit for
 * DATABASE (NULL: any server that answers).  Stores the chosen server's
 * name in *CHOSEN.  Exits with a message if there is none. */
struct jsonrpc *client_connect(const char *list, const char *database,
                               bool leader_only, char **chosen);

/* Whether the server on RPC (named NAME) is fit for DATABASE; if not, logs
 * why. */
bool client_server_is_fit(struct jsonrpc *rpc, const char *name,
                          const char *database, bool leader_only);

#endif /* ovsdb/client-connect.h */
