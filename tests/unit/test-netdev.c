/* Unit tests for netdev.h.
 *
 * "dummy" devices are tested fully: opening, sharing and closing, type
 * errors, override mode, properties, change sequences, options and the
 * ovs-appctl commands (through a real unixctl server in a private run
 * directory, with the client in another thread).
 *
 * "system" is tested read-only against the loopback device.  "internal"
 * and "tap" create devices, so those tests run only in a forked child that
 * has its own network namespace (root and /dev/net/tun needed, else they
 * are skipped): nothing here ever creates a device in the host's namespace.
 *
 * Tests that switch on dummy override run last, because override cannot be
 * undone and CK_FORK=no (valgrind) runs every test in one process. */
#include <config.h>
#include "netdev.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "connectivity.h"
#include "jsonrpc.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "seq.h"
#include "smap.h"
#include "sset.h"
#include "unixctl.h"
#include "util.h"

static char rundir[] = "/tmp/test-netdev.XXXXXX";

static uint64_t
connectivity(void)
{
    return seq_read(connectivity_seq_get());
}

static struct netdev *
open_ok(const char *name, const char *type)
{
    struct netdev *netdev = NULL;
    int error = netdev_open(name, type, &netdev);
    ck_assert_msg(!error, "opening %s (%s): %s", name, type,
                  ovs_strerror(error));
    ck_assert_ptr_nonnull(netdev);
    return netdev;
}

static struct eth_addr
get_mac(const struct netdev *netdev)
{
    struct eth_addr ea;
    ck_assert_int_eq(netdev_get_etheraddr(netdev, &ea), 0);
    return ea;
}

static int
get_mtu(const struct netdev *netdev)
{
    int mtu;
    ck_assert_int_eq(netdev_get_mtu(netdev, &mtu), 0);
    return mtu;
}

static enum netdev_flags
get_flags(const struct netdev *netdev)
{
    enum netdev_flags flags;
    ck_assert_int_eq(netdev_get_flags(netdev, &flags), 0);
    return flags;
}

static void
dummy_setup(void)
{
    netdev_enable_dummy(NETDEV_DUMMY_ADD);
}

static void
dummy_teardown(void)
{
    netdev_close_all();
}

/* Types. */

/* Runs first, so that even with CK_FORK=no dummy is not enabled yet. */
START_TEST(test_types_before_and_after_dummy)
{
    struct sset types = SSET_INITIALIZER(&types);
    netdev_get_types(&types);
    ck_assert(sset_contains(&types, "system"));
    ck_assert(sset_contains(&types, "internal"));
    ck_assert(sset_contains(&types, "tap"));
    ck_assert(!sset_contains(&types, "dummy"));

    char junk;
    struct netdev *netdev = (struct netdev *) &junk;    /* Must be reset. */
    ck_assert_int_eq(netdev_open("d0", "dummy", &netdev), EAFNOSUPPORT);
    ck_assert_ptr_null(netdev);

    netdev_enable_dummy(NETDEV_DUMMY_ADD);
    sset_clear(&types);
    netdev_get_types(&types);
    ck_assert(sset_contains(&types, "dummy"));
    ck_assert(sset_contains(&types, "system"));
    sset_destroy(&types);

    netdev = open_ok("d0", "dummy");
    ck_assert_str_eq(netdev_get_type(netdev), "dummy");
    netdev_close(netdev);

    /* Without override, "system" still means a real device. */
    ck_assert_int_eq(netdev_open("no-such-dev0", "system", &netdev),
                     ENODEV);
    ck_assert_ptr_null(netdev);
}
END_TEST

START_TEST(test_normalize_type)
{
    ck_assert_str_eq(netdev_normalize_type(NULL), "system");
    ck_assert_str_eq(netdev_normalize_type(""), "system");
    ck_assert_str_eq(netdev_normalize_type("system"), "system");
    ck_assert_str_eq(netdev_normalize_type("dummy"), "dummy");
    ck_assert_str_eq(netdev_normalize_type("internal"), "internal");
}
END_TEST

START_TEST(test_unknown_type)
{
    struct netdev *netdev = NULL;
    ck_assert_int_eq(netdev_open("x0", "bogus", &netdev), EAFNOSUPPORT);
    ck_assert_ptr_null(netdev);
    ck_assert_int_eq(netdev_open("x0", "vxlan0", &netdev), EAFNOSUPPORT);
    ck_assert_ptr_null(netdev);

    /* The failure left nothing behind: the name is free for any type. */
    netdev = open_ok("x0", "dummy");
    netdev_close(netdev);
}
END_TEST

/* Opening, sharing, closing. */

START_TEST(test_open_share_close)
{
    struct netdev *a = open_ok("d0", "dummy");
    ck_assert_str_eq(netdev_get_name(a), "d0");
    ck_assert_str_eq(netdev_get_type(a), "dummy");
    struct eth_addr mac = get_mac(a);

    /* A second open of the same name shares the device. */
    struct netdev *b = open_ok("d0", "dummy");
    ck_assert_ptr_eq(a, b);

    /* State set through one reference is seen through the other, and
     * survives closing one of them. */
    ck_assert_int_eq(netdev_set_mtu(a, 1234), 0);
    netdev_close(a);
    ck_assert_int_eq(get_mtu(b), 1234);
    ck_assert(eth_addr_equals(get_mac(b), mac));

    /* Closing the last reference destroys the device: a new open makes a
     * fresh one (default MTU, next address). */
    netdev_close(b);
    struct netdev *c = open_ok("d0", "dummy");
    ck_assert_int_eq(get_mtu(c), 1500);
    ck_assert(!eth_addr_equals(get_mac(c), mac));
    netdev_close(c);

    /* Different names are different devices. */
    struct netdev *d1 = open_ok("d1", "dummy");
    struct netdev *d2 = open_ok("d2", "dummy");
    ck_assert_ptr_ne(d1, d2);
    ck_assert(!eth_addr_equals(get_mac(d1), get_mac(d2)));
    netdev_close(d1);
    netdev_close(d2);

    netdev_close(NULL);         /* A no-op. */
}
END_TEST

START_TEST(test_type_mismatch)
{
    struct netdev *a = open_ok("d0", "dummy");
    struct netdev *b = a;

    ck_assert_int_eq(netdev_open("d0", "system", &b), EEXIST);
    ck_assert_ptr_null(b);
    ck_assert_int_eq(netdev_open("d0", "", &b), EEXIST);
    ck_assert_ptr_null(b);
    ck_assert_int_eq(netdev_open("d0", "internal", &b), EEXIST);
    ck_assert_ptr_null(b);
    /* Even for a type that does not exist, the name clash comes first. */
    ck_assert_int_eq(netdev_open("d0", "bogus", &b), EEXIST);

    /* The failed opens took no reference: one close destroys it. */
    struct eth_addr mac = get_mac(a);
    netdev_close(a);
    b = open_ok("d0", "dummy");
    ck_assert(!eth_addr_equals(get_mac(b), mac));
    netdev_close(b);
}
END_TEST

START_TEST(test_close_all)
{
    struct netdev *a = open_ok("d0", "dummy");
    open_ok("d0", "dummy");                 /* A second reference. */
    open_ok("d1", "dummy");
    struct eth_addr mac = get_mac(a);

    /* Closes every device whatever its reference count (valgrind checks
     * that nothing leaks). */
    netdev_close_all();

    a = open_ok("d0", "dummy");
    ck_assert(!eth_addr_equals(get_mac(a), mac));
    netdev_close(a);
    netdev_close_all();                     /* Nothing open: a no-op. */
}
END_TEST

/* Dummy properties. */

START_TEST(test_dummy_defaults)
{
    struct netdev *a = open_ok("d0", "dummy");
    struct netdev *b = open_ok("d1", "dummy");

    /* aa:55:aa:55:00:NN, one more for each new device. */
    struct eth_addr ma = get_mac(a), mb = get_mac(b);
    ck_assert_int_eq(ma.ea[0], 0xaa);
    ck_assert_int_eq(ma.ea[1], 0x55);
    ck_assert_int_eq(ma.ea[2], 0xaa);
    ck_assert_int_eq(ma.ea[3], 0x55);
    ck_assert_int_eq(ma.ea[4], 0x00);
    ck_assert_int_eq(mb.ea[5], (uint8_t) (ma.ea[5] + 1));
    ck_assert(!eth_addr_is_multicast(ma));

    ck_assert_int_eq(get_mtu(a), 1500);
    ck_assert_int_eq(netdev_get_ifindex(a), -EOPNOTSUPP);

    /* Administratively down until someone turns it up, like Open vSwitch's
     * dummy devices; the link follows. */
    ck_assert_int_eq(get_flags(a), 0);
    ck_assert(!netdev_get_carrier(a));
    ck_assert_int_eq(netdev_update_flags(a, 0, NETDEV_UP), 0);
    ck_assert_int_eq(get_flags(a), NETDEV_UP);
    ck_assert(netdev_get_carrier(a));

    netdev_close(a);
    netdev_close(b);
}
END_TEST

START_TEST(test_dummy_first_address)
{
    /* In a fresh process the first dummy device gets aa:55:aa:55:00:00. */
    const char *fork_env = getenv("CK_FORK");
    if (fork_env && !strcmp(fork_env, "no")) {
        return;
    }
    struct netdev *a = open_ok("d0", "dummy");
    struct eth_addr want = { { 0xaa, 0x55, 0xaa, 0x55, 0x00, 0x00 } };
    ck_assert(eth_addr_equals(get_mac(a), want));
    netdev_close(a);
}
END_TEST

START_TEST(test_dummy_setters)
{
    struct netdev *a = open_ok("d0", "dummy");

    struct eth_addr mac = { { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 } };
    ck_assert_int_eq(netdev_set_etheraddr(a, mac), 0);
    ck_assert(eth_addr_equals(get_mac(a), mac));

    ck_assert_int_eq(netdev_set_mtu(a, 9000), 0);
    ck_assert_int_eq(get_mtu(a), 9000);
    ck_assert_int_eq(netdev_set_mtu(a, 68), 0);
    ck_assert_int_eq(netdev_set_mtu(a, 65535), 0);
    ck_assert_int_eq(netdev_set_mtu(a, 67), EINVAL);
    ck_assert_int_eq(netdev_set_mtu(a, 65536), EINVAL);
    ck_assert_int_eq(netdev_set_mtu(a, -1), EINVAL);
    ck_assert_int_eq(get_mtu(a), 65535);

    ck_assert_int_eq(netdev_update_flags(a, 0, NETDEV_UP | NETDEV_PROMISC),
                     0);
    ck_assert_int_eq(get_flags(a), NETDEV_UP | NETDEV_PROMISC);
    ck_assert_int_eq(netdev_update_flags(a, NETDEV_PROMISC, 0), 0);
    ck_assert_int_eq(get_flags(a), NETDEV_UP);
    ck_assert(netdev_get_carrier(a));
    ck_assert_int_eq(netdev_update_flags(a, NETDEV_UP, 0), 0);
    ck_assert_int_eq(get_flags(a), 0);
    ck_assert(!netdev_get_carrier(a));

    netdev_close(a);
}
END_TEST

START_TEST(test_change_seq)
{
    struct netdev *a = open_ok("d0", "dummy");
    struct netdev *b = open_ok("d1", "dummy");
    uint64_t seq = netdev_get_change_seq(a);
    uint64_t seq_b = netdev_get_change_seq(b);
    uint64_t conn = connectivity();

    ck_assert_uint_ne(seq, 0);

#define CHECK_MOVED(MOVED)                                          \
    do {                                                            \
        uint64_t new_seq = netdev_get_change_seq(a);                \
        uint64_t new_conn = connectivity();                         \
        if (MOVED) {                                                \
            ck_assert_uint_ne(new_seq, seq);                        \
            ck_assert_uint_ne(new_conn, conn);                      \
        } else {                                                    \
            ck_assert_uint_eq(new_seq, seq);                        \
            ck_assert_uint_eq(new_conn, conn);                      \
        }                                                           \
        seq = new_seq;                                              \
        conn = new_conn;                                            \
    } while (0)

    /* Reading changes nothing. */
    get_mtu(a);
    get_mac(a);
    get_flags(a);
    netdev_get_carrier(a);
    CHECK_MOVED(false);

    /* Setting a property to its current value changes nothing. */
    ck_assert_int_eq(netdev_set_mtu(a, 1500), 0);
    CHECK_MOVED(false);
    ck_assert_int_eq(netdev_set_etheraddr(a, get_mac(a)), 0);
    CHECK_MOVED(false);
    ck_assert_int_eq(netdev_update_flags(a, NETDEV_PROMISC, 0), 0);
    CHECK_MOVED(false);

    /* Each real change moves both sequences. */
    ck_assert_int_eq(netdev_set_mtu(a, 1600), 0);
    CHECK_MOVED(true);
    struct eth_addr mac = { { 0x02, 0, 0, 0, 0, 7 } };
    ck_assert_int_eq(netdev_set_etheraddr(a, mac), 0);
    CHECK_MOVED(true);
    ck_assert_int_eq(netdev_update_flags(a, 0, NETDEV_UP), 0);
    CHECK_MOVED(true);
    ck_assert_int_eq(netdev_update_flags(a, 0, NETDEV_PROMISC), 0);
    CHECK_MOVED(true);

    /* A failed change moves nothing. */
    ck_assert_int_eq(netdev_set_mtu(a, 1), EINVAL);
    CHECK_MOVED(false);

    /* Only the device that changed moves its own sequence. */
    ck_assert_uint_eq(netdev_get_change_seq(b), seq_b);
#undef CHECK_MOVED

    netdev_close(a);
    netdev_close(b);
}
END_TEST

/* The changed queue holds each changed device once, in order of first
 * change, and forgets a device that is closed. */
START_TEST(test_pop_changed)
{
    while (netdev_pop_changed()) {
        continue;               /* Whatever earlier tests left. */
    }
    struct netdev *a = open_ok("q0", "dummy");
    struct netdev *b = open_ok("q1", "dummy");
    struct netdev *c = open_ok("q2", "dummy");
    ck_assert_ptr_null(netdev_pop_changed());

    ck_assert_int_eq(netdev_set_mtu(b, 1400), 0);
    ck_assert_int_eq(netdev_set_mtu(a, 1400), 0);
    ck_assert_int_eq(netdev_set_mtu(b, 1300), 0);
    ck_assert_int_eq(netdev_set_mtu(c, 1400), 0);
    netdev_close(c);
    ck_assert_ptr_eq(netdev_pop_changed(), b);
    ck_assert_ptr_eq(netdev_pop_changed(), a);
    ck_assert_ptr_null(netdev_pop_changed());

    /* Popped devices are queued again by their next change. */
    ck_assert_int_eq(netdev_set_mtu(a, 1500), 0);
    ck_assert_ptr_eq(netdev_pop_changed(), a);
    ck_assert_ptr_null(netdev_pop_changed());

    netdev_close(a);
    netdev_close(b);
}
END_TEST

START_TEST(test_options)
{
    struct netdev *a = open_ok("d0", "dummy");
    struct smap options = SMAP_INITIALIZER(&options);
    char *err = (char *) "unset";

    /* No options: fine. */
    ck_assert_int_eq(netdev_set_config(a, &options, &err), 0);
    ck_assert_ptr_null(err);
    ck_assert_int_eq(netdev_set_config(a, NULL, &err), 0);
    ck_assert_ptr_null(err);

    /* A dummy knows only its capture options (pcap, rx_pcap, tx_pcap);
     * the message names the device and the (first, in sorted order)
     * unknown key. */
    smap_add(&options, "zeta", "1");
    smap_add(&options, "peer", "p1");
    ck_assert_int_eq(netdev_set_config(a, &options, &err), EINVAL);
    ck_assert_ptr_nonnull(err);
    ck_assert_str_eq(err, "d0: unknown option peer");
    free(err);

    /* The caller may not want the message. */
    ck_assert_int_eq(netdev_set_config(a, &options, NULL), EINVAL);

    /* The rejected configuration changed nothing. */
    ck_assert_int_eq(get_mtu(a), 1500);

    smap_destroy(&options);
    netdev_close(a);
}
END_TEST

/* ovs-appctl commands. */

static struct unixctl_server *server;

struct client {
    char **argv;                /* Command and arguments, NULL-terminated. */
    int error;
    char *result;
    char *err;
    atomic_bool done;
    struct poll_loop *server_loop;
};

static void *
client_main(void *c_)
{
    struct client *c = c_;
    struct jsonrpc *rpc;

    c->error = unixctl_client_create(unixctl_server_get_path(server), &rpc);
    if (!c->error) {
        int argc = 0;
        while (c->argv[argc + 1]) {
            argc++;
        }
        c->error = unixctl_client_transact(rpc, c->argv[0], argc,
                                           c->argv + 1, &c->result, &c->err);
        jsonrpc_close(rpc);
    }
    atomic_store(&c->done, true);
    poll_loop_wake(c->server_loop);
    return NULL;
}

/* Runs ovs-appctl command ARGV (NULL-terminated) against our server and
 * returns its output (or, if it failed, "error: " and its error), which
 * the caller frees. */
static char *
appctl(char **argv)
{
    struct client c = { .argv = argv, .server_loop = poll_loop_self() };
    atomic_init(&c.done, false);

    pthread_t thread = ovs_thread_create("client", client_main, &c);
    while (!atomic_load(&c.done)) {
        unixctl_server_run(server);
        unixctl_server_wait(server);
        poll_block();
    }
    xpthread_join(thread, NULL);

    ck_assert_int_eq(c.error, 0);
    char *out = (c.err ? xasprintf("error: %s", c.err)
                 : xstrdup(c.result ? c.result : ""));
    free(c.result);
    free(c.err);
    return out;
}

#define CHECK_APPCTL(EXPECTED, ...)                                 \
    do {                                                            \
        char *out_ = appctl((char *[]) { __VA_ARGS__, NULL });      \
        ck_assert_str_eq(out_, EXPECTED);                           \
        free(out_);                                                 \
    } while (0)

static void
appctl_setup(void)
{
    netdev_enable_dummy(NETDEV_DUMMY_ADD);
    ck_assert_int_eq(unixctl_server_create(NULL, &server), 0);
    ck_assert_ptr_nonnull(server);
}

static void
appctl_teardown(void)
{
    unixctl_server_destroy(server);
    server = NULL;
    poll_loop_destroy_self();
    netdev_close_all();
}

START_TEST(test_appctl_set_admin_state)
{
    struct netdev *a = open_ok("p1", "dummy");
    struct netdev *b = open_ok("p2", "dummy");
    netdev_update_flags(a, 0, NETDEV_UP | NETDEV_PROMISC);
    netdev_update_flags(b, 0, NETDEV_UP);
    uint64_t seq = netdev_get_change_seq(a);
    uint64_t conn = connectivity();

    CHECK_APPCTL("OK\n", "netdev-dummy/set-admin-state", "p1", "down");
    ck_assert_int_eq(get_flags(a), NETDEV_PROMISC);   /* Only UP moved. */
    ck_assert(!netdev_get_carrier(a));
    ck_assert_int_eq(get_flags(b), NETDEV_UP);
    ck_assert_uint_ne(netdev_get_change_seq(a), seq);
    ck_assert_uint_ne(connectivity(), conn);

    CHECK_APPCTL("OK\n", "netdev-dummy/set-admin-state", "p1", "up");
    ck_assert_int_eq(get_flags(a), NETDEV_UP | NETDEV_PROMISC);
    ck_assert(netdev_get_carrier(a));

    /* Without a device name: every dummy device. */
    CHECK_APPCTL("OK\n", "netdev-dummy/set-admin-state", "down");
    ck_assert(!(get_flags(a) & NETDEV_UP));
    ck_assert(!(get_flags(b) & NETDEV_UP));
    CHECK_APPCTL("OK\n", "netdev-dummy/set-admin-state", "up");
    ck_assert(get_flags(a) & NETDEV_UP);
    ck_assert(get_flags(b) & NETDEV_UP);

    /* Open vSwitch's error messages; the state is checked first. */
    CHECK_APPCTL("error: Unknown Dummy Interface\n",
                 "netdev-dummy/set-admin-state", "nosuch", "up");
    CHECK_APPCTL("error: Invalid Admin State\n",
                 "netdev-dummy/set-admin-state", "p1", "sideways");
    CHECK_APPCTL("error: Invalid Admin State\n",
                 "netdev-dummy/set-admin-state", "nosuch", "sideways");
    CHECK_APPCTL("error: Invalid Admin State\n",
                 "netdev-dummy/set-admin-state", "sideways");
    ck_assert(get_flags(a) & NETDEV_UP);

    netdev_close(a);
    netdev_close(b);
}
END_TEST

START_TEST(test_appctl_carrier)
{
    struct netdev *a = open_ok("p1", "dummy");
    struct netdev *b = open_ok("p2", "dummy");
    netdev_update_flags(a, 0, NETDEV_UP);
    netdev_update_flags(b, 0, NETDEV_UP);
    ck_assert(netdev_get_carrier(a));

    CHECK_APPCTL("up\n", "netdev-dummy/carrier", "p1");

    uint64_t seq = netdev_get_change_seq(a);
    uint64_t conn = connectivity();
    CHECK_APPCTL("OK\n", "netdev-dummy/carrier", "p1", "down");
    ck_assert(!netdev_get_carrier(a));
    ck_assert(netdev_get_carrier(b));
    ck_assert_int_eq(get_flags(a), NETDEV_UP);   /* Admin state stays. */
    ck_assert_uint_ne(netdev_get_change_seq(a), seq);
    ck_assert_uint_ne(connectivity(), conn);
    CHECK_APPCTL("down\n", "netdev-dummy/carrier", "p1");
    CHECK_APPCTL("up\n", "netdev-dummy/carrier", "p2");

    /* Unchanged carrier: no change reported. */
    seq = netdev_get_change_seq(a);
    CHECK_APPCTL("OK\n", "netdev-dummy/carrier", "p1", "down");
    ck_assert_uint_eq(netdev_get_change_seq(a), seq);

    /* Every device. */
    CHECK_APPCTL("OK\n", "netdev-dummy/carrier", "down");
    ck_assert(!netdev_get_carrier(b));
    CHECK_APPCTL("OK\n", "netdev-dummy/carrier", "up");
    ck_assert(netdev_get_carrier(a));
    ck_assert(netdev_get_carrier(b));

    /* Carrier up but administratively down: the link is down. */
    CHECK_APPCTL("OK\n", "netdev-dummy/set-admin-state", "p1", "down");
    ck_assert(!netdev_get_carrier(a));
    CHECK_APPCTL("up\n", "netdev-dummy/carrier", "p1");

    CHECK_APPCTL("error: Unknown Dummy Interface\n",
                 "netdev-dummy/carrier", "nosuch");
    CHECK_APPCTL("error: Unknown Dummy Interface\n",
                 "netdev-dummy/carrier", "nosuch", "up");
    CHECK_APPCTL("error: Invalid Carrier State\n",
                 "netdev-dummy/carrier", "p1", "sideways");

    netdev_close(a);
    netdev_close(b);
}
END_TEST

START_TEST(test_appctl_closed_device)
{
    /* A closed device is gone for the commands too. */
    struct netdev *a = open_ok("p1", "dummy");
    netdev_close(a);
    CHECK_APPCTL("error: Unknown Dummy Interface\n",
                 "netdev-dummy/set-admin-state", "p1", "up");
    CHECK_APPCTL("OK\n", "netdev-dummy/set-admin-state", "up");
}
END_TEST

/* "system", read-only, against the loopback device. */

START_TEST(test_system_loopback)
{
    struct netdev *lo = open_ok("lo", "system");
    ck_assert_str_eq(netdev_get_type(lo), "system");
    ck_assert_int_eq(netdev_get_ifindex(lo), 1);
    ck_assert_int_eq(netdev_get_ifindex(lo), (int) if_nametoindex("lo"));

    /* The empty type is "system": the same device. */
    struct netdev *lo2 = open_ok("lo", "");
    ck_assert_ptr_eq(lo, lo2);
    netdev_close(lo2);

    int mtu = get_mtu(lo);
    ck_assert_int_ge(mtu, 68);
    FILE *f = fopen("/sys/class/net/lo/mtu", "r");
    if (f) {
        int sys_mtu;
        if (fscanf(f, "%d", &sys_mtu) == 1) {
            ck_assert_int_eq(mtu, sys_mtu);
        }
        fclose(f);
    }

    ck_assert(get_flags(lo) & NETDEV_UP);
    ck_assert(netdev_get_carrier(lo));
    ck_assert(eth_addr_is_zero(get_mac(lo)));

    /* Reading does not report changes. */
    uint64_t seq = netdev_get_change_seq(lo);
    get_mtu(lo);
    get_flags(lo);
    get_mac(lo);
    netdev_get_carrier(lo);
    ck_assert_uint_eq(netdev_get_change_seq(lo), seq);

    /* No options for system devices. */
    struct smap options = SMAP_INITIALIZER(&options);
    char *err;
    ck_assert_int_eq(netdev_set_config(lo, &options, &err), 0);
    ck_assert_ptr_null(err);
    smap_add(&options, "remote_ip", "1.2.3.4");
    ck_assert_int_eq(netdev_set_config(lo, &options, &err), EINVAL);
    ck_assert_str_eq(err, "lo: unknown option remote_ip");
    free(err);
    smap_destroy(&options);

    netdev_close(lo);
}
END_TEST

START_TEST(test_system_errors)
{
    struct netdev *netdev = NULL;
    ck_assert_int_eq(netdev_open("no-such-dev0", "system", &netdev), ENODEV);
    ck_assert_ptr_null(netdev);
    ck_assert_int_eq(netdev_open("no-such-dev0", NULL, &netdev), ENODEV);
    ck_assert_int_eq(netdev_open("a-name-much-too-long-for-linux", "system",
                                 &netdev), ENODEV);
    ck_assert_ptr_null(netdev);

    /* "tap" wants a tap device; the loopback is not one. */
    ck_assert_int_eq(netdev_open("lo", "tap", &netdev), EINVAL);
    ck_assert_ptr_null(netdev);
    ck_assert_int_eq(netdev_open("no-such-dev0", "tap", &netdev), ENODEV);
}
END_TEST

/* "internal" and "tap", in a private network namespace. */

/* In the child, failures are reported on stderr and in the exit status
 * (Check's assertions belong to the parent). */
static int child_failures;

#define CHILD_CHECK(COND)                                               \
    do {                                                                \
        if (!(COND)) {                                                  \
            fprintf(stderr, "%s:%d: check failed: %s\n",                \
                    __FILE__, __LINE__, #COND);                         \
            child_failures++;                                           \
        }                                                               \
    } while (0)

static bool
can_use_netns(void)
{
    if (geteuid() != 0) {
        fprintf(stderr, "skipping: not root\n");
        return false;
    }
    if (access("/dev/net/tun", R_OK | W_OK)) {
        fprintf(stderr, "skipping: no /dev/net/tun\n");
        return false;
    }
    return true;
}

/* Runs BODY in a forked child in a new network namespace.  The child exits
 * with 77 if it cannot create the namespace (then the test is skipped). */
static void
run_in_netns(const char *what, void (*body)(void))
{
    if (!can_use_netns()) {
        return;
    }

    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (!pid) {
        if (unshare(CLONE_NEWNET)) {
            fprintf(stderr, "skipping %s: unshare(CLONE_NEWNET) failed (%s)\n",
                    what, ovs_strerror(errno));
            _exit(77);
        }
        body();
        netdev_close_all();
        fflush(NULL);
        _exit(child_failures ? 1 : 0);
    }

    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status), "%s: child died", what);
    ck_assert_msg(WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 77,
                  "%s: child reported failures", what);
}

/* Reads NAME's kernel flags directly, not through netdev. */
static unsigned int
kernel_flags(const char *name)
{
    int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", name);
    unsigned int flags = (ioctl(sock, SIOCGIFFLAGS, &ifr) < 0
                          ? 0 : (unsigned short) ifr.ifr_flags);
    close(sock);
    return flags;
}

static void
internal_body(void)
{
    /* The child's namespace starts with only "lo", down. */
    CHILD_CHECK(!if_nametoindex("br-int0"));

    struct netdev *br;
    CHILD_CHECK(!netdev_open("br-int0", "internal", &br));
    if (!br) {
        return;
    }
    CHILD_CHECK(!strcmp(netdev_get_type(br), "internal"));

    /* The device exists, is up, and has carrier (we hold its reader). */
    int ifindex = netdev_get_ifindex(br);
    CHILD_CHECK(ifindex > 0);
    CHILD_CHECK(ifindex == (int) if_nametoindex("br-int0"));
    CHILD_CHECK(kernel_flags("br-int0") & IFF_UP);

    enum netdev_flags flags;
    CHILD_CHECK(!netdev_get_flags(br, &flags) && flags == NETDEV_UP);
    CHILD_CHECK(netdev_get_carrier(br));

    struct eth_addr mac;
    CHILD_CHECK(!netdev_get_etheraddr(br, &mac));
    CHILD_CHECK(!eth_addr_is_zero(mac) && !eth_addr_is_multicast(mac));

    int mtu;
    CHILD_CHECK(!netdev_get_mtu(br, &mtu) && mtu == 1500);

    /* Setters reach the kernel and move the change sequences. */
    uint64_t seq = netdev_get_change_seq(br);
    uint64_t conn = connectivity();
    CHILD_CHECK(!netdev_set_mtu(br, 1400));
    CHILD_CHECK(!netdev_get_mtu(br, &mtu) && mtu == 1400);
    CHILD_CHECK(netdev_get_change_seq(br) != seq);
    CHILD_CHECK(connectivity() != conn);

    struct eth_addr new_mac = { { 0x02, 0x00, 0x5e, 0x10, 0x20, 0x30 } };
    seq = netdev_get_change_seq(br);
    CHILD_CHECK(!netdev_set_etheraddr(br, new_mac));
    CHILD_CHECK(!netdev_get_etheraddr(br, &mac)
                && eth_addr_equals(mac, new_mac));
    CHILD_CHECK(netdev_get_change_seq(br) != seq);

    seq = netdev_get_change_seq(br);
    CHILD_CHECK(!netdev_update_flags(br, NETDEV_UP, 0));
    CHILD_CHECK(!(kernel_flags("br-int0") & IFF_UP));
    CHILD_CHECK(!netdev_get_carrier(br));
    CHILD_CHECK(netdev_get_change_seq(br) != seq);
    CHILD_CHECK(!netdev_update_flags(br, 0, NETDEV_UP | NETDEV_PROMISC));
    CHILD_CHECK(!netdev_get_flags(br, &flags)
                && flags == (NETDEV_UP | NETDEV_PROMISC));

    /* A change made behind our back is noticed when next read. */
    seq = netdev_get_change_seq(br);
    int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "br-int0");
    ifr.ifr_mtu = 1300;
    CHILD_CHECK(!ioctl(sock, SIOCSIFMTU, &ifr));
    close(sock);
    CHILD_CHECK(!netdev_get_mtu(br, &mtu) && mtu == 1300);
    CHILD_CHECK(netdev_get_change_seq(br) != seq);

    /* Opening the same name again shares the device. */
    struct netdev *br2;
    CHILD_CHECK(!netdev_open("br-int0", "internal", &br2) && br2 == br);
    netdev_close(br2);
    CHILD_CHECK(if_nametoindex("br-int0") > 0);

    /* A name taken by another device: refused, and that device is left
     * alone. */
    struct netdev *bad;
    CHILD_CHECK(netdev_open("lo", "internal", &bad) == EEXIST);
    CHILD_CHECK(if_nametoindex("lo") == 1);

    /* The last close removes the device. */
    netdev_close(br);
    CHILD_CHECK(!if_nametoindex("br-int0"));

    /* netdev_close_all() does too. */
    CHILD_CHECK(!netdev_open("br-int1", "internal", &br));
    CHILD_CHECK(!netdev_open("br-int1", "internal", &br2));
    CHILD_CHECK(if_nametoindex("br-int1") > 0);
    netdev_close_all();
    CHILD_CHECK(!if_nametoindex("br-int1"));
}

START_TEST(test_internal)
{
    run_in_netns("internal", internal_body);
}
END_TEST

/* Makes a persistent tap device NAME (nobody attached), the way
 * "ip tuntap add NAME mode tap" does. */
static bool
make_persistent_tap(const char *name)
{
    int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", name);
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
    bool ok = !ioctl(fd, TUNSETIFF, &ifr) && !ioctl(fd, TUNSETPERSIST, 1);
    close(fd);
    return ok;
}

static void
tap_body(void)
{
    CHILD_CHECK(make_persistent_tap("tap0"));

    struct netdev *tap;
    CHILD_CHECK(!netdev_open("tap0", "tap", &tap));
    if (!tap) {
        return;
    }
    CHILD_CHECK(!strcmp(netdev_get_type(tap), "tap"));
    CHILD_CHECK(netdev_get_ifindex(tap) == (int) if_nametoindex("tap0"));

    /* Down, as made; no reader, so no carrier even once up. */
    enum netdev_flags flags;
    CHILD_CHECK(!netdev_get_flags(tap, &flags) && flags == 0);
    CHILD_CHECK(!netdev_get_carrier(tap));
    CHILD_CHECK(!netdev_update_flags(tap, 0, NETDEV_UP | NETDEV_PROMISC));
    CHILD_CHECK(kernel_flags("tap0") & IFF_UP);
    CHILD_CHECK(kernel_flags("tap0") & IFF_PROMISC);
    CHILD_CHECK(!netdev_get_carrier(tap));

    int mtu;
    CHILD_CHECK(!netdev_set_mtu(tap, 9000));
    CHILD_CHECK(!netdev_get_mtu(tap, &mtu) && mtu == 9000);

    /* Closing a device we did not create leaves it there, with the flags
     * it had before we changed them (the MTU stays: it is configuration
     * the bridge owns). */
    netdev_close(tap);
    CHILD_CHECK(if_nametoindex("tap0") > 0);
    CHILD_CHECK(!(kernel_flags("tap0") & (IFF_UP | IFF_PROMISC)));

    /* The same for "system"; flags already as wanted are not touched. */
    struct netdev *sys;
    CHILD_CHECK(!netdev_open("tap0", "system", &sys));
    CHILD_CHECK(!netdev_update_flags(sys, 0, NETDEV_UP));
    CHILD_CHECK(!netdev_update_flags(sys, NETDEV_PROMISC, 0));
    CHILD_CHECK(kernel_flags("tap0") & IFF_UP);
    netdev_close(sys);
    CHILD_CHECK(!(kernel_flags("tap0") & IFF_UP));

    /* "tap" refuses what is not a tap. */
    struct netdev *bad;
    CHILD_CHECK(netdev_open("lo", "tap", &bad) == EINVAL);
}

START_TEST(test_tap)
{
    run_in_netns("tap", tap_body);
}
END_TEST

/* Override (last: cannot be undone). */

START_TEST(test_override)
{
    bool host_has_br = if_nametoindex("ovsng-br0") != 0;

    netdev_enable_dummy(NETDEV_DUMMY_OVERRIDE);

    struct sset types = SSET_INITIALIZER(&types);
    netdev_get_types(&types);
    ck_assert(sset_contains(&types, "system"));
    ck_assert(sset_contains(&types, "internal"));
    ck_assert(sset_contains(&types, "tap"));
    ck_assert(sset_contains(&types, "dummy"));
    sset_destroy(&types);

    /* "internal", "system" and "tap" are dummies now: nothing is created
     * or needed on the host, but each keeps the type it was opened as. */
    struct netdev *br = open_ok("ovsng-br0", "internal");
    ck_assert_str_eq(netdev_get_type(br), "internal");
    ck_assert_int_eq(netdev_get_ifindex(br), -EOPNOTSUPP);
    ck_assert_int_eq(get_mac(br).ea[0], 0xaa);
    if (!host_has_br) {
        ck_assert_uint_eq(if_nametoindex("ovsng-br0"), 0);
    }

    struct netdev *p1 = open_ok("no-such-dev0", "system");
    ck_assert_str_eq(netdev_get_type(p1), "system");
    struct netdev *p2 = open_ok("no-such-dev1", "");
    ck_assert_str_eq(netdev_get_type(p2), "system");
    struct netdev *p3 = open_ok("no-such-tap", "tap");
    ck_assert_str_eq(netdev_get_type(p3), "tap");
    struct netdev *p4 = open_ok("d0", "dummy");

    /* Types still must match between opens. */
    struct netdev *bad;
    ck_assert_int_eq(netdev_open("no-such-dev0", "dummy", &bad), EEXIST);
    ck_assert_int_eq(netdev_open("d0", "system", &bad), EEXIST);

    /* They behave as dummies, ovs-appctl included. */
    ck_assert_int_eq(netdev_set_mtu(p1, 67), EINVAL);
    ck_assert_int_eq(netdev_update_flags(p1, 0, NETDEV_UP), 0);
    ck_assert(netdev_get_carrier(p1));

    ck_assert_int_eq(unixctl_server_create(NULL, &server), 0);
    CHECK_APPCTL("OK\n", "netdev-dummy/set-admin-state", "no-such-dev0",
                 "down");
    ck_assert(!netdev_get_carrier(p1));
    CHECK_APPCTL("OK\n", "netdev-dummy/carrier", "ovsng-br0", "down");
    CHECK_APPCTL("down\n", "netdev-dummy/carrier", "ovsng-br0");
    unixctl_server_destroy(server);
    server = NULL;
    poll_loop_destroy_self();

    netdev_close(br);
    netdev_close(p1);
    netdev_close(p2);
    netdev_close(p3);
    netdev_close(p4);
}
END_TEST

static Suite *
netdev_suite(void)
{
    Suite *s = suite_create("netdev");

    TCase *tc = tcase_create("types");
    tcase_add_checked_fixture(tc, NULL, dummy_teardown);
    tcase_add_test(tc, test_types_before_and_after_dummy);
    tcase_add_test(tc, test_normalize_type);
    suite_add_tcase(s, tc);

    tc = tcase_create("dummy");
    tcase_add_checked_fixture(tc, dummy_setup, dummy_teardown);
    tcase_add_test(tc, test_unknown_type);
    tcase_add_test(tc, test_dummy_first_address);
    tcase_add_test(tc, test_open_share_close);
    tcase_add_test(tc, test_type_mismatch);
    tcase_add_test(tc, test_close_all);
    tcase_add_test(tc, test_dummy_defaults);
    tcase_add_test(tc, test_dummy_setters);
    tcase_add_test(tc, test_change_seq);
    tcase_add_test(tc, test_pop_changed);
    tcase_add_test(tc, test_options);
    suite_add_tcase(s, tc);

    tc = tcase_create("appctl");
    tcase_add_checked_fixture(tc, appctl_setup, appctl_teardown);
    tcase_add_test(tc, test_appctl_set_admin_state);
    tcase_add_test(tc, test_appctl_carrier);
    tcase_add_test(tc, test_appctl_closed_device);
    suite_add_tcase(s, tc);

    tc = tcase_create("linux");
    tcase_add_checked_fixture(tc, NULL, dummy_teardown);
    tcase_add_test(tc, test_system_loopback);
    tcase_add_test(tc, test_system_errors);
    tcase_add_test(tc, test_internal);
    tcase_add_test(tc, test_tap);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);

    tc = tcase_create("override");
    tcase_add_checked_fixture(tc, NULL, dummy_teardown);
    tcase_add_test(tc, test_override);
    suite_add_tcase(s, tc);

    return s;
}

int
main(int argc OVS_UNUSED, char *argv[])
{
    set_program_name(argv[0]);
    if (!mkdtemp(rundir)) {
        ovs_fatal(errno, "mkdtemp failed");
    }
    setenv("OVS_RUNDIR", rundir, 1);

    SRunner *sr = srunner_create(netdev_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);

    rmdir(rundir);
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
