/* socket-util: the socket plumbing under stream.c, kept apart so that other
 * modules (netdevs, the OpenFlow listener, tests) can reuse it.
 *
 * Address syntax follows Open vSwitch: an active target is "HOST[:PORT]", a
 * passive one "[PORT][:IP]", and an IPv6 address is written in brackets
 * ("[::1]:6640", "6640:[::]").  Every socket made here is close-on-exec and
 * nonblocking.
 *
 * Functions return 0 or a positive errno value unless stated otherwise.
 * Nothing here keeps state or allocates memory the caller must free, except
 * where a function says "newly allocated".
 */
#ifndef SOCKET_UTIL_H
#define SOCKET_UTIL_H 1

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/ip.h>

/* The DSCP value Open vSwitch uses for its control connections (CS6). */
#define DSCP_DEFAULT (IPTOS_PREC_INTERNETCONTROL >> 2)

int set_nonblocking(int fd);
int set_cloexec(int fd);
/* Sets the IP DSCP field (0-63) of FD's outgoing packets (IPv4 or IPv6). */
int set_dscp(int fd, int family, uint8_t dscp);

/* Parses an active target "HOST[:PORT]" into *SS (PORT defaults to
 * DEFAULT_PORT; a resulting port of 0 is an error).  HOST may be a name,
 * resolved with getaddrinfo() (blocking). */
int inet_parse_active(const char *target, uint16_t default_port,
                      struct sockaddr_storage *ss);
/* Parses a passive target "[PORT][:IP]" (IP default INADDR_ANY, PORT default
 * DEFAULT_PORT, 0 meaning any free port) into *SS. */
int inet_parse_passive(const char *target, uint16_t default_port,
                       struct sockaddr_storage *ss);

/* Creates a TCP socket and starts connecting it to SS.  Returns 0 with the
 * socket in *FDP whether the connection completed or is in progress
 * (EINPROGRESS is not an error); otherwise an errno value, *FDP = -1. */
int inet_open_active(const struct sockaddr_storage *ss, uint8_t dscp,
                     int *fdp);
/* Creates a TCP socket bound to SS and listening.  Returns 0 with the socket
 * in *FDP and, if BOUND is nonnull, the bound address (with the kernel-chosen
 * port) in *BOUND. */
int inet_open_passive(const struct sockaddr_storage *ss, uint8_t dscp,
                      int *fdp, struct sockaddr_storage *bound);

/* Creates a Unix stream socket and starts connecting it to PATH / binds it
 * to PATH and listens.  Paths longer than sun_path fit through
 * /proc/self/fd.  unix_open_passive() removes a stale file at PATH first. */
int unix_open_active(const char *path, int *fdp);
int unix_open_passive(const char *path, int *fdp);

/* Waits up to 0 ms to find out whether FD's nonblocking connect finished:
 * returns 0 if it succeeded, EAGAIN if still in progress, else its error. */
int check_connection_completion(int fd);

uint16_t ss_get_port(const struct sockaddr_storage *);
/* "IP" or "[IPv6]" into BUF (INET6_ADDRSTRLEN + 3 bytes is enough). */
void ss_format_address(const struct sockaddr_storage *, char *buf,
                       size_t size);
/* "IP:PORT" / "[IPv6]:PORT", newly allocated. */
char *ss_format_address_port(const struct sockaddr_storage *);
socklen_t ss_length(const struct sockaddr_storage *);

#endif /* socket-util.h */
