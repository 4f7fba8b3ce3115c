/* ofpact: the actions of an OpenFlow rule, in ofproto's own form.
 *
 * An OpenFlow codec (lib/ofp-*, another engineer's) decodes wire actions
 * into this form and ofproto translates it into datapath actions
 * (xlate.h).  An action list is a plain array of struct ofpact, owned by
 * whoever holds it; ofproto copies the lists it is given.
 *
 * Port numbers are OpenFlow's (16 bits, OFPP_* for the reserved ones).
 *
 * ofpacts_format() prints a list as ovs-ofctl does ("actions=" not
 * included); ofpacts_parse() reads that text back for the actions listed
 * here.  The parser is small and lives here until the OpenFlow engineer's
 * ofp-actions replaces it.
 *
 * Threads: pure functions on the caller's memory. */
#ifndef OFPROTO_OFPACT_H
#define OFPROTO_OFPACT_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "packets.h"
#include "util.h"

struct ds;

/* OpenFlow 1.0 port numbers, the reserved ones as Open vSwitch uses them. */
#define OFPP_MAX        0xff00
#define OFPP_IN_PORT    0xfff8
#define OFPP_TABLE      0xfff9
#define OFPP_NORMAL     0xfffa
#define OFPP_FLOOD      0xfffb
#define OFPP_ALL        0xfffc
#define OFPP_CONTROLLER 0xfffd
#define OFPP_LOCAL      0xfffe
#define OFPP_NONE       0xffff

#define OFPROTO_N_TABLES 255    /* Tables 0 to 254. */

enum ofpact_type {
    OFPACT_OUTPUT,              /* port (may be reserved: IN_PORT, LOCAL,
                                 * FLOOD, ALL, NORMAL; CONTROLLER drops). */
    OFPACT_RESUBMIT,            /* in_port (OFPP_IN_PORT: unchanged), table
                                 * (255: the current one). */
    OFPACT_SET_VLAN_VID,        /* vid; pushes a tag if there is none. */
    OFPACT_SET_VLAN_PCP,        /* pcp; pushes a tag if there is none. */
    OFPACT_STRIP_VLAN,          /* Pops the outermost tag ("pop_vlan"). */
    OFPACT_PUSH_VLAN,           /* tpid. */
    OFPACT_SET_ETH_SRC,         /* mac. */
    OFPACT_SET_ETH_DST,         /* mac. */
    OFPACT_DROP,                /* Explicit "drop": ends the list. */
};

struct ofpact {
    enum ofpact_type type;
    uint16_t port;              /* OUTPUT: port; RESUBMIT: in_port. */
    uint8_t table;              /* RESUBMIT. */
    uint16_t vid;               /* SET_VLAN_VID. */
    uint8_t pcp;                /* SET_VLAN_PCP. */
    uint16_t tpid;              /* PUSH_VLAN (host order). */
    struct eth_addr mac;        /* SET_ETH_SRC, SET_ETH_DST. */
};

/* "output:3", "NORMAL", "resubmit(,1)", ... comma separated, or "drop"
 * for an empty list; ports as numbers or reserved names. */
void ofpacts_format(const struct ofpact *, size_t n, struct ds *);

/* Parses S into *OFPACTSP (malloc'd) and *N.  Returns NULL or a malloc'd
 * error message.  Ports are numbers or reserved names (LOCAL, IN_PORT,
 * NORMAL, FLOOD, ALL, CONTROLLER); a port named otherwise goes through
 * PORT_BY_NAME if nonnull. */
char *ofpacts_parse(const char *s, struct ofpact **ofpactsp, size_t *n,
                    bool (*port_by_name)(void *aux, const char *name,
                                         uint16_t *port),
                    void *aux)
    OVS_WARN_UNUSED_RESULT;

/* Reserved port names as ovs-ofctl prints them, or NULL for a number. */
const char *ofp_port_reserved_name(uint16_t port);
/* Parses a port number or reserved name. */
bool ofp_port_from_string(const char *, uint16_t *port);

bool ofpacts_equal(const struct ofpact *, size_t, const struct ofpact *,
                   size_t);
/* Whether the list outputs to PORT (for delete's out_port filter). */
bool ofpacts_output_to_port(const struct ofpact *, size_t, uint16_t port);

#endif /* ofproto/ofpact.h */
