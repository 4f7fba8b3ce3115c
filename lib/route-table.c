/* route-table: see route-table.h. */
#include <config.h>
#include "route-table.h"

#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "coverage.h"
#include "ip-addr.h"
#include "ovs-router.h"
#include "poll-loop.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(route_table);

COVERAGE_DEFINE(route_table_reload);

static int monitor_fd = -1;            /* Subscribed to changes. */
static struct poll_watch *monitor_watch;
static bool initialized;

/* Inserts the route of one RTM_NEWROUTE message, if it is one the switch
 * routes by: unicast or local, of a known family, through a device. */
static void
handle_route(const struct nlmsghdr *nh)
{
    if (nh->nlmsg_type != RTM_NEWROUTE
        || nh->nlmsg_len < NLMSG_LENGTH(sizeof(struct rtmsg))) {
        return;
    }
    const struct rtmsg *rtm = NLMSG_DATA(nh);
    bool ipv4 = rtm->rtm_family == AF_INET;
    if ((!ipv4 && rtm->rtm_family != AF_INET6)
        || rtm->rtm_scope == RT_SCOPE_NOWHERE
        || (rtm->rtm_type != RTN_UNICAST && rtm->rtm_type != RTN_LOCAL)) {
        return;
    }

    struct in6_addr dst, gw;
    memset(&dst, 0, sizeof dst);
    memset(&gw, 0, sizeof gw);
    if (ipv4) {
        dst = in6_addr_mapped_ipv4(0);
    }
    uint32_t mark = 0;
    char ifname[IF_NAMESIZE] = "";
    size_t addr_len = ipv4 ? 4 : 16;

    int len = nh->nlmsg_len - NLMSG_LENGTH(sizeof *rtm);
    for (const struct rtattr *rta = RTM_RTA(rtm); RTA_OK(rta, len);
         rta = RTA_NEXT(rta, len)) {
        size_t size = RTA_PAYLOAD(rta);
        const void *data = RTA_DATA(rta);
        switch (rta->rta_type) {
        case RTA_DST:
        case RTA_GATEWAY: {
            if (size != addr_len) {
                return;
            }
            struct in6_addr a;
            if (ipv4) {
                ovs_be32 ip;
                memcpy(&ip, data, 4);
                a = in6_addr_mapped_ipv4(ip);
            } else {
                memcpy(&a, data, 16);
            }
            if (rta->rta_type == RTA_DST) {
                dst = a;
            } else {
                gw = a;
            }
            break;
        }
        case RTA_OIF:
            if (size != 4) {
                return;
            }
            uint32_t ifindex;
            memcpy(&ifindex, data, 4);
            if (!if_indextoname(ifindex, ifname)) {
                return;         /* Gone already; a new dump follows. */
            }
            break;
        case RTA_MARK:
            if (size == 4) {
                memcpy(&mark, data, 4);
            }
            break;
        default:
            break;
        }
    }
    if (!ifname[0]) {
        return;                 /* Multipath or blackhole: no device. */
    }
    /* A route whose device has no address to send from is refused, as
     * 3.1 refuses it; nothing to report. */
    ovs_router_insert(mark, &dst, rtm->rtm_dst_len + (ipv4 ? 96 : 0),
                      rtm->rtm_type == RTN_LOCAL, ifname, &gw);
}

/* Reads every table of the kernel (a dump on a socket of its own) into
 * the Cached routes, as one batch: readers see the old table until the new
 * one is whole, and it is built once. */
static void
reload(void)
{
    COVERAGE_INC(route_table_reload);
    ovs_router_batch_begin();
    ovs_router_flush(NULL);

    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (fd < 0) {
        VLOG_WARN("could not read the kernel's routes (%s)",
                  ovs_strerror(errno));
        ovs_router_batch_end();
        return;
    }
    struct {
        struct nlmsghdr nh;
        struct rtgenmsg g;
    } req;
    memset(&req, 0, sizeof req);
    req.nh.nlmsg_len = NLMSG_LENGTH(sizeof req.g);
    req.nh.nlmsg_type = RTM_GETROUTE;
    req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    req.nh.nlmsg_seq = 1;
    req.g.rtgen_family = AF_UNSPEC;
    if (send(fd, &req, req.nh.nlmsg_len, 0) < 0) {
        VLOG_WARN("could not ask for the kernel's routes (%s)",
                  ovs_strerror(errno));
        close(fd);
        ovs_router_batch_end();
        return;
    }

    char buf[32768] __attribute__((aligned(NLMSG_ALIGNTO)));
    for (bool done = false; !done; ) {
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            VLOG_WARN("reading the kernel's routes failed (%s)",
                      ovs_strerror(errno));
            break;
        }
        if (n == 0) {
            break;
        }
        size_t left = n;
        for (const struct nlmsghdr *nh = (const void *) buf;
             NLMSG_OK(nh, left); nh = NLMSG_NEXT(nh, left)) {
            if (nh->nlmsg_type == NLMSG_DONE
                || nh->nlmsg_type == NLMSG_ERROR) {
                done = true;
                break;
            }
            handle_route(nh);
        }
    }
    close(fd);
    ovs_router_batch_end();
}

void
route_table_init(void)
{
    if (initialized || !ovs_router_use_system_routing_table()) {
        return;
    }
    initialized = true;

    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
                    NETLINK_ROUTE);
    struct sockaddr_nl sa = {
        .nl_family = AF_NETLINK,
        .nl_groups = (RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE
                      | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR),
    };
    if (fd < 0 || bind(fd, (struct sockaddr *) &sa, sizeof sa) < 0) {
        VLOG_WARN("could not watch the kernel's routes (%s): they are read "
                  "once", ovs_strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
    } else {
        monitor_fd = fd;
        monitor_watch = poll_watch_create(fd, POLLIN);
    }
    reload();
}

void
route_table_run(void)
{
    if (monitor_fd < 0 || !poll_watch_may_be_ready(monitor_watch)) {
        return;
    }
    /* Any number of changes since the last time: one reload. */
    bool changed = false;
    char buf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
    for (;;) {
        ssize_t n = recv(monitor_fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && errno == ENOBUFS) {
            changed = true;     /* Overrun: we missed some. */
            continue;
        }
        if (n <= 0) {
            break;
        }
        changed = true;
    }
    poll_watch_rearm(monitor_watch);
    if (changed) {
        reload();
    }
}

void
route_table_wait(void)
{
    if (monitor_watch) {
        poll_watch_wait(monitor_watch);
    }
}
