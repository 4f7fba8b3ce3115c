/* bench/udp-blast ADDR PORT SECONDS [SRC_PORT]: sends UDP datagrams of 18
 * payload bytes (64-byte Ethernet frames on the wire, FCS included) to
 * ADDR:PORT (from local port SRC_PORT if given, so that a flow can be
 * answered) as fast as sendmmsg() allows for SECONDS, then prints the
 * number sent.
 * A load generator for bench/datapath.sh, run inside a network namespace
 * the benchmark made. */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "util.h"

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    if (argc != 4 && argc != 5) {
        ovs_fatal(0, "usage: %s ADDR PORT SECONDS [SRC_PORT]", argv[0]);
    }
    struct sockaddr_in sin = { .sin_family = AF_INET,
                               .sin_port = htons(atoi(argv[2])) };
    if (inet_pton(AF_INET, argv[1], &sin.sin_addr) != 1) {
        ovs_fatal(0, "%s: not an IPv4 address", argv[1]);
    }
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) {
        ovs_fatal(errno, "socket");
    }
    if (argc == 5) {
        struct sockaddr_in local = { .sin_family = AF_INET,
                                     .sin_port = htons(atoi(argv[4])) };
        if (bind(fd, (struct sockaddr *) &local, sizeof local) < 0) {
            ovs_fatal(errno, "bind to port %s", argv[4]);
        }
    }
    if (connect(fd, (struct sockaddr *) &sin, sizeof sin) < 0) {
        ovs_fatal(errno, "connect");
    }

    enum { BATCH = 32 };
    char payload[18] = "ovsng-udp-blast";
    struct iovec iov = { payload, sizeof payload };
    struct mmsghdr msgs[BATCH];
    memset(msgs, 0, sizeof msgs);
    for (int i = 0; i < BATCH; i++) {
        msgs[i].msg_hdr.msg_iov = &iov;
        msgs[i].msg_hdr.msg_iovlen = 1;
    }

    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    double seconds = atof(argv[3]);
    uint64_t sent = 0;
    for (;;) {
        int n = sendmmsg(fd, msgs, BATCH, 0);
        if (n > 0) {
            sent += n;
        } else if (n < 0 && errno != ENOBUFS && errno != EAGAIN
                   && errno != ECONNREFUSED) {
            ovs_fatal(errno, "sendmmsg");
        }
        if (sent % 4096 < BATCH) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (now.tv_sec - start.tv_sec
                + (now.tv_nsec - start.tv_nsec) / 1e9 >= seconds) {
                break;
            }
        }
    }
    printf("%"PRIu64"\n", sent);
    return 0;
}
