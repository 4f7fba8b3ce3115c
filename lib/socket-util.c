#include <config.h>
#include "socket-util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(socket_util);

int
set_nonblocking(int fd)
{
    int flags = fcntl(fd, F_GETFL, 0);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        return errno;
    }
    return 0;
}

int
set_cloexec(int fd)
{
    int flags = fcntl(fd, F_GETFD, 0);
    if (flags < 0 || fcntl(fd, F_SETFD, flags | FD_CLOEXEC) < 0) {
        return errno;
    }
    return 0;
}

int
set_dscp(int fd, int family, uint8_t dscp)
{
    if (dscp > 63) {
        return EINVAL;
    }
    int tos = dscp << 2;
    int level = family == AF_INET6 ? IPPROTO_IPV6 : IPPROTO_IP;
    int optname = family == AF_INET6 ? IPV6_TCLASS : IP_TOS;
    return setsockopt(fd, level, optname, &tos, sizeof tos) ? errno : 0;
}

uint16_t
ss_get_port(const struct sockaddr_storage *ss)
{
    if (ss->ss_family == AF_INET) {
        return ntohs(((const struct sockaddr_in *) ss)->sin_port);
    } else if (ss->ss_family == AF_INET6) {
        return ntohs(((const struct sockaddr_in6 *) ss)->sin6_port);
    }
    return 0;
}

static void
ss_set_port(struct sockaddr_storage *ss, uint16_t port)
{
    if (ss->ss_family == AF_INET) {
        ((struct sockaddr_in *) ss)->sin_port = htons(port);
    } else if (ss->ss_family == AF_INET6) {
        ((struct sockaddr_in6 *) ss)->sin6_port = htons(port);
    }
}

socklen_t
ss_length(const struct sockaddr_storage *ss)
{
    switch (ss->ss_family) {
    case AF_INET:
        return sizeof(struct sockaddr_in);
    case AF_INET6:
        return sizeof(struct sockaddr_in6);
    default:
        return sizeof *ss;
    }
}

void
ss_format_address(const struct sockaddr_storage *ss, char *buf, size_t size)
{
    char addr[INET6_ADDRSTRLEN];

    if (ss->ss_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *) ss)->sin_addr,
                  addr, sizeof addr);
        snprintf(buf, size, "%s", addr);
    } else if (ss->ss_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *) ss)->sin6_addr,
                  addr, sizeof addr);
        snprintf(buf, size, "[%s]", addr);
    } else {
        snprintf(buf, size, "(family %d)", ss->ss_family);
    }
}

char *
ss_format_address_port(const struct sockaddr_storage *ss)
{
    char addr[INET6_ADDRSTRLEN + 3];
    ss_format_address(ss, addr, sizeof addr);
    return xasprintf("%s:%"PRIu16, addr, ss_get_port(ss));
}

/* Splits "HOST[:PORT]" or "[V6]:PORT" at the first unbracketed colon.
 * Modifies S in place; *HOSTP and *PORTP point into it (*PORTP NULL if
 * absent).  Returns false for unbalanced brackets. */
static bool
split_host_port(char *s, char **hostp, char **portp)
{
    *portp = NULL;
    if (*s == '[') {
        char *close = strchr(s, ']');
        if (!close) {
            return false;
        }
        *close = '\0';
        *hostp = s + 1;
        if (close[1] == ':') {
            *portp = close + 2;
        } else if (close[1] != '\0') {
            return false;
        }
        return true;
    }
    *hostp = s;
    char *colon = strchr(s, ':');
    if (colon) {
        *colon = '\0';
        *portp = colon + 1;
    }
    return true;
}

static bool
parse_port(const char *s, uint16_t default_port, uint16_t *portp)
{
    if (!s || !*s) {
        *portp = default_port;
        return true;
    }
    int port;
    if (!str_to_int(s, 10, &port) || port < 0 || port > 65535) {
        return false;
    }
    *portp = port;
    return true;
}

/* Parses numeric address HOST (no brackets) into *SS; resolves names too if
 * RESOLVE. */
static int
parse_host(const char *host, bool resolve, struct sockaddr_storage *ss)
{
    memset(ss, 0, sizeof *ss);

    struct sockaddr_in *sin = (struct sockaddr_in *) ss;
    struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) ss;
    if (inet_pton(AF_INET, host, &sin->sin_addr) == 1) {
        sin->sin_family = AF_INET;
        return 0;
    }
    if (inet_pton(AF_INET6, host, &sin6->sin6_addr) == 1) {
        sin6->sin6_family = AF_INET6;
        return 0;
    }
    if (!resolve) {
        return EINVAL;
    }

    struct addrinfo hints = {
        .ai_family = AF_UNSPEC,
        .ai_socktype = SOCK_STREAM,
    };
    struct addrinfo *res;
    int gai = getaddrinfo(host, NULL, &hints, &res);
    if (gai) {
        VLOG_WARN("%s: could not resolve host name (%s)",
                  host, gai_strerror(gai));
        return gai == EAI_SYSTEM ? errno : ENOENT;
    }
    memcpy(ss, res->ai_addr, MIN(res->ai_addrlen, sizeof *ss));
    freeaddrinfo(res);
    return 0;
}

int
inet_parse_active(const char *target, uint16_t default_port,
                  struct sockaddr_storage *ss)
{
    char *copy = xstrdup(target);
    char *host, *port_s;
    uint16_t port;
    int error;

    memset(ss, 0, sizeof *ss);
    if (!split_host_port(copy, &host, &port_s) || !*host) {
        VLOG_ERR("%s: bad address syntax (expected HOST[:PORT])", target);
        error = EINVAL;
    } else if (!parse_port(port_s, default_port, &port)) {
        VLOG_ERR("%s: bad port number \"%s\"", target, port_s);
        error = EINVAL;
    } else if (!port) {
        VLOG_ERR("%s: port number must be specified", target);
        error = EINVAL;
    } else {
        error = parse_host(host, true, ss);
        if (!error) {
            ss_set_port(ss, port);
        } else if (error == EINVAL) {
            VLOG_ERR("%s: bad host \"%s\"", target, host);
        }
    }
    free(copy);
    return error;
}

int
inet_parse_passive(const char *target, uint16_t default_port,
                   struct sockaddr_storage *ss)
{
    /* "[PORT][:IP]": the port comes first, and IP may be bracketed IPv6. */
    char *copy = xstrdup(target);
    char *port_s = copy;
    char *host = NULL;
    uint16_t port;
    int error = 0;

    char *colon = strchr(copy, ':');
    if (colon) {
        *colon = '\0';
        host = colon + 1;
        if (*host == '[') {
            char *close = strchr(host, ']');
            if (!close || close[1] != '\0') {
                error = EINVAL;
            } else {
                *close = '\0';
                host++;
            }
        }
    }

    memset(ss, 0, sizeof *ss);
    if (error) {
        VLOG_ERR("%s: bad address syntax (expected [PORT][:IP])", target);
    } else if (!parse_port(port_s, default_port, &port)) {
        VLOG_ERR("%s: bad port number \"%s\"", target, port_s);
        error = EINVAL;
    } else if (host && *host) {
        error = parse_host(host, false, ss);
        if (error) {
            VLOG_ERR("%s: bad IP address \"%s\"", target, host);
        }
    } else {
        struct sockaddr_in *sin = (struct sockaddr_in *) ss;
        sin->sin_family = AF_INET;
        sin->sin_addr.s_addr = htonl(INADDR_ANY);
    }
    if (!error) {
        ss_set_port(ss, port);
    }
    free(copy);
    return error;
}

int
inet_open_active(const struct sockaddr_storage *ss, uint8_t dscp, int *fdp)
{
    *fdp = -1;
    int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
                    0);
    if (fd < 0) {
        return errno;
    }
    if (dscp) {
        /* Best effort: a refused DSCP never stops the connection. */
        set_dscp(fd, ss->ss_family, dscp);
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);

    if (connect(fd, (const struct sockaddr *) ss, ss_length(ss)) < 0
        && errno != EINPROGRESS) {
        int error = errno;
        close(fd);
        return error;
    }
    *fdp = fd;
    return 0;
}

int
inet_open_passive(const struct sockaddr_storage *ss, uint8_t dscp, int *fdp,
                  struct sockaddr_storage *bound)
{
    *fdp = -1;
    int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
                    0);
    if (fd < 0) {
        return errno;
    }

    /* Lets a restarted daemon bind while old connections linger in
     * TIME_WAIT. */
    int one = 1;
    int error = 0;
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0) {
        error = errno;
    } else if (dscp && set_dscp(fd, ss->ss_family, dscp)) {
        /* Ignored, as for active sockets. */
    }
    if (!error && bind(fd, (const struct sockaddr *) ss, ss_length(ss)) < 0) {
        error = errno;
    }
    if (!error && listen(fd, 64) < 0) {
        error = errno;
    }
    if (!error && bound) {
        socklen_t len = sizeof *bound;
        memset(bound, 0, sizeof *bound);
        if (getsockname(fd, (struct sockaddr *) bound, &len) < 0) {
            error = errno;
        }
    }
    if (error) {
        close(fd);
        return error;
    }
    *fdp = fd;
    return 0;
}

/* Fills *UN for PATH.  A path too long for sun_path goes through an O_PATH
 * descriptor for its directory, returned in *DIRFDP (caller closes it once
 * bind() or connect() is done); otherwise *DIRFDP is -1. */
static int
make_sockaddr_un(const char *path, struct sockaddr_un *un, socklen_t *lenp,
                 int *dirfdp)
{
    *dirfdp = -1;
    memset(un, 0, sizeof *un);
    un->sun_family = AF_UNIX;

    size_t len = strlen(path);
    if (len < sizeof un->sun_path) {
        memcpy(un->sun_path, path, len + 1);
    } else {
        char *dir = dir_name(path);
        char *base = base_name(path);
        int dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
        int error = dirfd < 0 ? errno : 0;
        if (!error) {
            int n = snprintf(un->sun_path, sizeof un->sun_path,
                             "/proc/self/fd/%d/%s", dirfd, base);
            if (n < 0 || (size_t) n >= sizeof un->sun_path) {
                close(dirfd);
                error = ENAMETOOLONG;
            } else {
                *dirfdp = dirfd;
            }
        }
        free(dir);
        free(base);
        if (error) {
            return error;
        }
    }
    *lenp = offsetof(struct sockaddr_un, sun_path) + strlen(un->sun_path) + 1;
    return 0;
}

int
unix_open_active(const char *path, int *fdp)
{
    *fdp = -1;
    struct sockaddr_un un;
    socklen_t len;
    int dirfd;
    int error = make_sockaddr_un(path, &un, &len, &dirfd);
    if (error) {
        return error;
    }

    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        error = errno;
    } else if (connect(fd, (struct sockaddr *) &un, len) < 0
               && errno != EINPROGRESS) {
        /* A full listen backlog gives EAGAIN for Unix sockets, where TCP
         * would retransmit the SYN: report it as a failed attempt. */
        error = errno;
        close(fd);
    } else {
        *fdp = fd;
    }
    if (dirfd >= 0) {
        close(dirfd);
    }
    return error;
}

int
unix_open_passive(const char *path, int *fdp)
{
    *fdp = -1;
    struct sockaddr_un un;
    socklen_t len;
    int dirfd;
    int error = make_sockaddr_un(path, &un, &len, &dirfd);
    if (error) {
        return error;
    }

    /* A socket file left by a process that died is in the way of bind().
     * Remove only sockets: a regular file at PATH is a configuration
     * mistake that should surface as EADDRINUSE. */
    struct stat st;
    if (!lstat(path, &st) && S_ISSOCK(st.st_mode)) {
        unlink(path);
    }

    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        error = errno;
    } else if (bind(fd, (struct sockaddr *) &un, len) < 0
               || listen(fd, 64) < 0) {
        error = errno;
        close(fd);
    } else {
        *fdp = fd;
    }
    if (dirfd >= 0) {
        close(dirfd);
    }
    return error;
}

int
check_connection_completion(int fd)
{
    struct pollfd pfd = { .fd = fd, .events = POLLOUT };
    int n;

    do {
        n = poll(&pfd, 1, 0);
    } while (n < 0 && errno == EINTR);

    if (n < 0) {
        return errno;
    } else if (n == 0) {
        return EAGAIN;
    }

    int error = 0;
    socklen_t len = sizeof error;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) < 0) {
        return errno;
    }
    return error;
}
