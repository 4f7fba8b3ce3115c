/* packets: protocol header values and addresses shared by the switch's
 * modules.  Today: Ethernet addresses.  Headers of the protocols the
 * datapath parses join this file as the datapath arrives.
 *
 * Everything here is a value type; nothing allocates. */
#ifndef PACKETS_H
#define PACKETS_H 1

#include <stdbool.h>
#include <stdint.h>

#define ETH_ADDR_LEN 6

struct eth_addr {
    uint8_t ea[ETH_ADDR_LEN];
};

/* printf() helpers: printf("mac " ETH_ADDR_FMT, ETH_ADDR_ARGS(ea)). */
#define ETH_ADDR_FMT "%02x:%02x:%02x:%02x:%02x:%02x"
#define ETH_ADDR_ARGS(EA) \
    (EA).ea[0], (EA).ea[1], (EA).ea[2], (EA).ea[3], (EA).ea[4], (EA).ea[5]

bool eth_addr_is_zero(struct eth_addr);
bool eth_addr_is_multicast(struct eth_addr);
bool eth_addr_equals(struct eth_addr, struct eth_addr);
/* Parses "xx:xx:xx:xx:xx:xx" (one or two hex digits per byte, either case,
 * as Open vSwitch accepts); false if S is anything else (trailing text
 * included), leaving the address untouched. */
bool eth_addr_from_string(const char *s, struct eth_addr *);
/* A random unicast, locally administered address. */
struct eth_addr eth_addr_random(void);

#endif /* packets.h */
