/* bench/eth-blast IFACE DST_MAC SECONDS [INTERVAL_US [SRC_MAC N_PAIRS]]:
 * sends 64-byte Ethernet frames (IPv4/UDP) to DST_MAC on IFACE for
 * SECONDS, each from a new source MAC and a new UDP port pair, so that
 * each is a new flow for a switch: as fast as the socket takes them
 * (INTERVAL_US 0), or one every INTERVAL_US microseconds.  With SRC_MAC,
 * every frame comes from that address and only the port pair changes,
 * cycling through N_PAIRS pairs (frame N has source port 1024 + N % 60000
 * and destination port 1024 + N / 60000, N from 1 to N_PAIRS).  Prints the
 * number sent.  A load generator for
 * bench/switching.sh, run inside a network namespace the benchmark made
 * (needs CAP_NET_RAW there). */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "util.h"

enum { FRAME_LEN = 60, BATCH = 32 };   /* 64 bytes on the wire with FCS. */

static double
now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool
parse_mac(const char *s, uint8_t mac[6])
{
    unsigned int b[6];
    char extra;
    if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3], &b[4],
               &b[5], &extra) != 6) {
        return false;
    }
    for (int i = 0; i < 6; i++) {
        if (b[i] > 0xff) {
            return false;
        }
        mac[i] = b[i];
    }
    return true;
}

/* Frame number N: source MAC 02:xx:xx:xx:xx:xx (locally administered,
 * never multicast) and UDP ports from N. */
static void
make_frame(uint8_t *f, const uint8_t dst[6], const uint8_t *src, uint32_t n)
{
    memset(f, 0, FRAME_LEN);
    memcpy(f, dst, 6);
    if (src) {
        memcpy(f + 6, src, 6);
    } else {
        f[6] = 0x02;
        f[7] = 0xbe;
        f[8] = n >> 24;
        f[9] = n >> 16;
        f[10] = n >> 8;
        f[11] = n;
    }
    f[12] = 0x08;                       /* IPv4. */
    uint8_t *ip = f + 14;
    ip[0] = 0x45;
    ip[3] = 46;                         /* 20 + 8 + 18 payload bytes. */
    ip[8] = 64;
    ip[9] = 17;                         /* UDP. */
    memcpy(ip + 12, "\x0a\x09\x02\x63", 4);     /* 10.9.2.99 */
    memcpy(ip + 16, "\x0a\x09\x02\x64", 4);     /* 10.9.2.100 */
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2) {
        sum += (ip[i] << 8) | ip[i + 1];
    }
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    ip[10] = ~sum >> 8;
    ip[11] = ~sum;
    uint8_t *udp = ip + 20;
    uint16_t sport = 1024 + (n % 60000), dport = 1024 + ((n / 60000) % 60000);
    udp[0] = sport >> 8;
    udp[1] = sport;
    udp[2] = dport >> 8;
    udp[3] = dport;
    udp[5] = 26;                        /* Length; checksum 0 (none). */
}

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    if (argc != 4 && argc != 5 && argc != 7) {
        ovs_fatal(0, "usage: %s IFACE DST_MAC SECONDS "
                  "[INTERVAL_US [SRC_MAC N_PAIRS]]", argv[0]);
    }
    uint8_t dst[6];
    if (!parse_mac(argv[2], dst)) {
        ovs_fatal(0, "%s: not an Ethernet address", argv[2]);
    }
    uint8_t src_mac[6];
    const uint8_t *src = NULL;
    uint32_t n_pairs = UINT32_MAX;
    if (argc == 7) {
        if (!parse_mac(argv[5], src_mac)) {
            ovs_fatal(0, "%s: not an Ethernet address", argv[5]);
        }
        src = src_mac;
        n_pairs = strtoul(argv[6], NULL, 10);
        if (!n_pairs) {
            ovs_fatal(0, "N_PAIRS must be positive");
        }
    }
    double seconds = atof(argv[3]);
    long interval_us = argc == 5 ? atol(argv[4]) : 0;
    if (seconds <= 0 || interval_us < 0) {
        ovs_fatal(0, "SECONDS must be positive, INTERVAL_US not negative");
    }
    unsigned int ifindex = if_nametoindex(argv[1]);
    if (!ifindex) {
        ovs_fatal(errno, "%s", argv[1]);
    }
    int fd = socket(AF_PACKET, SOCK_RAW, 0);
    if (fd < 0) {
        ovs_fatal(errno, "socket");
    }
    struct sockaddr_ll sll = {
        .sll_family = AF_PACKET, .sll_ifindex = ifindex, .sll_halen = 6,
    };
    memcpy(sll.sll_addr, dst, 6);

    static uint8_t frames[BATCH][FRAME_LEN];
    struct iovec iov[BATCH];
    struct mmsghdr msgs[BATCH];
    memset(msgs, 0, sizeof msgs);
    for (int i = 0; i < BATCH; i++) {
        iov[i] = (struct iovec) { frames[i], FRAME_LEN };
        msgs[i].msg_hdr.msg_name = &sll;
        msgs[i].msg_hdr.msg_namelen = sizeof sll;
        msgs[i].msg_hdr.msg_iov = &iov[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
    }

    uint64_t sent = 0;
    uint32_t n = 1;
    double start = now_sec(), end = start + seconds;
    if (interval_us) {
        double next = start;
        while (now_sec() < end) {
            make_frame(frames[0], dst, src, n);
            n = n % n_pairs + 1;
            if (sendto(fd, frames[0], FRAME_LEN, 0, (struct sockaddr *) &sll,
                       sizeof sll) == FRAME_LEN) {
                sent++;
            }
            next += interval_us / 1e6;
            double wait = next - now_sec();
            if (wait > 0) {
                usleep(wait * 1e6);
            }
        }
    } else {
        while (now_sec() < end) {
            for (int i = 0; i < BATCH; i++) {
                make_frame(frames[i], dst, src, n);
                n = n % n_pairs + 1;
            }
            int k = sendmmsg(fd, msgs, BATCH, 0);
            if (k > 0) {
                sent += k;
            } else if (errno != ENOBUFS && errno != EAGAIN
                       && errno != EINTR) {
                ovs_fatal(errno, "sendmmsg");
            }
        }
    }
    printf("%"PRIu64"\n", sent);
    close(fd);
    return 0;
}
