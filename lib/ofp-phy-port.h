/* ofp-phy-port: OpenFlow port descriptions, port status, port mod and
 * port statistics, decoded.
 *
 * A port description (struct ofputil_phy_port) has three wire layouts:
 * OpenFlow 1.0's ofp10_phy_port (16-bit number, 1.0 feature bits), 1.1 to
 * 1.3's ofp11_port (32-bit number, 1.1 feature bits, speeds in kbps) and
 * 1.4+'s ofp14_port followed by properties, of which the Ethernet one
 * carries the feature bits and speeds.  Inside the program the port
 * number uses the 1.0 numbering (lib/ofp-port.h), features use 1.1's bit
 * layout (enum netdev_features below), and config/state use 1.0's bits
 * with 1.1's BLOCKED and LIVE added.
 *
 * Messages built on it:
 *   - the features reply's port list (1.0-1.2, lib/ofp-switch.h),
 *   - the port description multipart (OFPST_PORT_DESC in 1.0 too, as Open
 *     vSwitch offers it), request (1.5: with a port number) and reply,
 *   - OFPT_PORT_STATUS (reason + description),
 *   - OFPT_PORT_MOD (1.0, 1.1-1.3, 1.4+ with the Ethernet property),
 *   - port statistics request and reply (1.0, 1.1, 1.3 with durations,
 *     1.4+ with the Ethernet property).
 *
 * Decoders check every length and return the OpenFlow error Open vSwitch
 * 3.1 returns (OFPBRC_BAD_LEN for a short body, OFPBPC_BAD_LEN for a bad
 * property, OFPBAC_BAD_OUT_PORT for a port number the internal 1.0
 * numbering cannot hold).  "pull" functions consume one record from an ofpbuf and return
 * EOF when it is empty.  Encoders return new ofpbufs the caller owns;
 * "append" functions add to a multipart reply list (ofpmp_*()).
 *
 * Threads: pure functions; callable from any thread. */
#ifndef OFP_PHY_PORT_H
#define OFP_PHY_PORT_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-protocol.h"
#include "openflow.h"
#include "packets.h"

struct ds;
struct ofpbuf;
struct ovs_list;
struct ofputil_port_map;

/* Port features, in OpenFlow 1.1's bit layout (1.0's differ from bit 7
 * on; the codec converts). */
enum netdev_features {
    NETDEV_F_10MB_HD = 1 << 0,
    NETDEV_F_10MB_FD = 1 << 1,
    NETDEV_F_100MB_HD = 1 << 2,
    NETDEV_F_100MB_FD = 1 << 3,
    NETDEV_F_1GB_HD = 1 << 4,
    NETDEV_F_1GB_FD = 1 << 5,
    NETDEV_F_10GB_FD = 1 << 6,
    NETDEV_F_40GB_FD = 1 << 7,
    NETDEV_F_100GB_FD = 1 << 8,
    NETDEV_F_1TB_FD = 1 << 9,
    NETDEV_F_OTHER = 1 << 10,
    NETDEV_F_COPPER = 1 << 11,
    NETDEV_F_FIBER = 1 << 12,
    NETDEV_F_AUTONEG = 1 << 13,
    NETDEV_F_PAUSE = 1 << 14,
    NETDEV_F_PAUSE_ASYM = 1 << 15,
};
/* The fastest speed among FEATURES in bits per second (0 if none), as
 * 1.0 reports a port's speed. */
uint64_t netdev_features_to_bps(uint32_t features, uint64_t default_bps);

/* Port config bits (1.0's numbering; 1.1+ has only PORT_DOWN, NO_RECV,
 * NO_FWD, NO_PACKET_IN at the same positions). */
enum ofputil_port_config {
    OFPUTIL_PC_PORT_DOWN = 1 << 0,
    OFPUTIL_PC_NO_STP = 1 << 1,          /* 1.0 only. */
    OFPUTIL_PC_NO_RECV = 1 << 2,
    OFPUTIL_PC_NO_RECV_STP = 1 << 3,     /* 1.0 only. */
    OFPUTIL_PC_NO_FLOOD = 1 << 4,        /* 1.0 only. */
    OFPUTIL_PC_NO_FWD = 1 << 5,
    OFPUTIL_PC_NO_PACKET_IN = 1 << 6,
};

/* Port state bits.  LINK_DOWN everywhere; BLOCKED and LIVE 1.1+; the STP
 * state field 1.0 only. */
enum ofputil_port_state {
    OFPUTIL_PS_LINK_DOWN = 1 << 0,
    OFPUTIL_PS_BLOCKED = 1 << 1,
    OFPUTIL_PS_LIVE = 1 << 2,
    OFPUTIL_PS_STP_LISTEN = 0 << 8,
    OFPUTIL_PS_STP_LEARN = 1 << 8,
    OFPUTIL_PS_STP_FORWARD = 2 << 8,
    OFPUTIL_PS_STP_BLOCK = 3 << 8,
    OFPUTIL_PS_STP_MASK = 3 << 8,
};

struct ofputil_phy_port {
    uint32_t port_no;                   /* 1.0 numbering. */
    struct eth_addr hw_addr;
    char name[OFP_MAX_PORT_NAME_LEN];   /* Always NUL-terminated. */
    uint32_t config;                    /* OFPUTIL_PC_*. */
    uint32_t state;                     /* OFPUTIL_PS_*. */
    uint32_t curr, advertised, supported, peer;  /* NETDEV_F_*. */
    uint32_t curr_speed, max_speed;     /* kbps; 0 if unknown. */
};

/* Pulls one port description in VERSION's layout from B.  Returns 0, EOF
 * if B is empty, or an OpenFlow error (OFPBRC_BAD_LEN for a short or
 * overlong 1.4 port, OFPBPC_BAD_LEN for a bad property,
 * OFPBAC_BAD_OUT_PORT for a 1.1+ port number 1.0 cannot express). */
int ofputil_pull_phy_port(enum ofp_version, struct ofpbuf *b,
                          struct ofputil_phy_port *);
/* Appends PP to B in VERSION's layout. */
void ofputil_put_phy_port(enum ofp_version, const struct ofputil_phy_port *,
                          struct ofpbuf *b);
/* The printed block of one port as 3.1's show / port-desc / port-status
 * print it (" 1(eth0): addr:...\n     config: ..."). */
void ofputil_phy_port_format(struct ds *, const struct ofputil_phy_port *,
                             enum ofp_version,
                             const struct ofputil_port_map *);
/* The features block only ("current:    10MB-FD ..."), for reuse. */
void ofputil_netdev_features_format(struct ds *, uint32_t features);

/* ------------------------------------------------------------------ */
/* Port descriptions (multipart). */

/* PORT selects one port in 1.5+ (OFPP_ANY: all); earlier versions have
 * no such field. */
struct ofpbuf *ofputil_encode_port_desc_stats_request(enum ofp_version,
                                                      uint32_t port);
enum ofperr ofputil_decode_port_desc_stats_request(const struct ofp_header *,
                                                   uint32_t *port);
/* Appends PP to the reply list REPLIES (started with ofpmp_init()). */
void ofputil_append_port_desc_stats_reply(const struct ofputil_phy_port *,
                                          struct ovs_list *replies);
/* Pulls one port from a port desc reply message B (pull the header first
 * with ofpraw_pull()): as ofputil_pull_phy_port(). */
int ofputil_pull_port_desc_stats_reply(enum ofp_version, struct ofpbuf *b,
                                       struct ofputil_phy_port *);

/* ------------------------------------------------------------------ */
/* Port status. */

struct ofputil_port_status {
    uint8_t reason;                     /* OFPPR_ADD, DELETE, MODIFY. */
    struct ofputil_phy_port desc;
};

struct ofpbuf *ofputil_encode_port_status(const struct ofputil_port_status *,
                                          enum ofp_version);
/* OFPBRC_BAD_LEN for a wrong length, OFPBAC_BAD_OUT_PORT for a port
 * number 1.0 cannot express, NXBRC_BAD_REASON for a reason above
 * MODIFY (3.1's errors). */
enum ofperr ofputil_decode_port_status(const struct ofp_header *,
                                       struct ofputil_port_status *);

/* ------------------------------------------------------------------ */
/* Port mod. */

struct ofputil_port_mod {
    uint32_t port_no;
    struct eth_addr hw_addr;
    uint32_t config;            /* OFPUTIL_PC_*. */
    uint32_t mask;              /* Which config bits to change. */
    uint32_t advertise;         /* NETDEV_F_*; 0: leave alone. */
};

struct ofpbuf *ofputil_encode_port_mod(const struct ofputil_port_mod *,
                                       enum ofp_version);
/* LOOSE accepts config bits the version does not define (dropping them),
 * as a switch should; strict decoding refuses them with
 * OFPPMFC_BAD_CONFIG.  A port number 1.0 cannot express is
 * OFPBAC_BAD_OUT_PORT, as 3.1 reports it. */
enum ofperr ofputil_decode_port_mod(const struct ofp_header *,
                                    struct ofputil_port_mod *, bool loose);
/* The body 3.1 prints ("port: 1: addr:..\n     config: ..."). */
void ofputil_port_mod_format(struct ds *, const struct ofputil_port_mod *,
                             const struct ofputil_port_map *);

/* ------------------------------------------------------------------ */
/* Port statistics. */

/* Counters; UINT64_MAX means "not available" and prints as "?". */
struct ofputil_port_stats {
    uint32_t port_no;
    uint64_t rx_packets, tx_packets;
    uint64_t rx_bytes, tx_bytes;
    uint64_t rx_dropped, tx_dropped;
    uint64_t rx_errors, tx_errors;
    uint64_t rx_frame_errors, rx_over_errors, rx_crc_errors;
    uint64_t collisions;
    /* 1.3+.  UINT32_MAX in both: unknown (1.0-1.2). */
    uint32_t duration_sec, duration_nsec;
    /* 1.4+: the device's own counters, as Open vSwitch reports them in an
     * Intel experimenter property (names longer than the field are cut,
     * counters past the array dropped, when decoding). */
    size_t n_custom;
    struct ofputil_custom_stat {
        char name[64];
        uint64_t value;
    } custom[32];
};

/* PORT may be OFPP_ANY ("port_no=ANY" in 3.1's request text). */
struct ofpbuf *ofputil_encode_dump_ports_request(enum ofp_version,
                                                 uint32_t port);
enum ofperr ofputil_decode_port_stats_request(const struct ofp_header *,
                                              uint32_t *port);
void ofputil_append_port_stat(struct ovs_list *replies,
                              const struct ofputil_port_stats *);
/* Pulls one entry from a port stats reply B (B->data at the message
 * start the first time: the header is pulled then).  Returns 0, EOF or
 * an OpenFlow error. */
int ofputil_decode_port_stats(struct ofputil_port_stats *, struct ofpbuf *b);
/* The number of entries in the reply OH that decode, up to the first
 * that does not. */
int ofputil_count_port_stats(const struct ofp_header *);
/* One entry as 3.1 prints it ("  port  1: rx pkts=..., ...", and the
 * "CUSTOM Statistics" block when there are custom counters). */
void ofputil_port_stats_format(struct ds *, const struct ofputil_port_stats *,
                               const struct ofputil_port_map *);

#endif /* ofp-phy-port.h */
