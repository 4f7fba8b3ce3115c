/* rstp-private: the variables of 802.1D-2004 17.17 to 17.20 that the RSTP
 * state machines (rstp-sm*.c) and the engine's interface (rstp.c) share.
 * Not for other modules: they use rstp.h.
 *
 * Same threading as rstp.h (caller serialises per bridge).  struct rstp
 * owns its ports; each port belongs to one bridge and is freed with it or
 * by rstp_remove_port(). */
#ifndef RSTP_PRIVATE_H
#define RSTP_PRIVATE_H 1

#include <stdbool.h>
#include <stdint.h>
#include "hmap.h"
#include "list.h"
#include "rstp-bpdu.h"
#include "rstp.h"

/* A priority vector (17.6): lower is better, compared component by
 * component in this order. */
struct rstp_priority {
    uint64_t root_id;
    uint32_t root_path_cost;
    uint64_t designated_bridge_id;
    uint16_t designated_port_id;
    uint16_t bridge_port_id;    /* Receiving port: only root selection
                                 * looks at it. */
};

/* Timer values carried in BPDUs (17.19.22 portTimes and friends), in
 * seconds. */
struct rstp_times {
    uint16_t message_age;
    uint16_t max_age;
    uint16_t forward_delay;
    uint16_t hello_time;
};

/* What a port's priority information came from (17.19.10 infoIs). */
enum rstp_info_is {
    INFO_DISABLED,
    INFO_MINE,
    INFO_AGED,
    INFO_RECEIVED,
};

/* rcvInfo()'s verdict on a received message (17.21.8). */
enum rstp_rcvd_info {
    RCVD_SUPERIOR_DESIGNATED,
    RCVD_REPEATED_DESIGNATED,
    RCVD_INFERIOR_DESIGNATED,
    RCVD_INFERIOR_ROOT_ALTERNATE,
    RCVD_OTHER,
};

/* The state of each per-port machine (17.23 to 17.31). */
enum prx_state { PRX_DISCARD, PRX_RECEIVE };
enum ppm_state { PPM_CHECKING_RSTP, PPM_SELECTING_STP, PPM_SENSING };
enum bdm_state { BDM_EDGE, BDM_NOT_EDGE };
enum ptx_state {
    PTX_TRANSMIT_INIT, PTX_IDLE, PTX_TRANSMIT_PERIODIC, PTX_TRANSMIT_CONFIG,
    PTX_TRANSMIT_TCN, PTX_TRANSMIT_RSTP,
};
enum pim_state {
    PIM_DISABLED, PIM_AGED, PIM_UPDATE, PIM_CURRENT, PIM_RECEIVE,
    PIM_SUPERIOR_DESIGNATED, PIM_REPEATED_DESIGNATED,
    PIM_INFERIOR_DESIGNATED, PIM_NOT_DESIGNATED, PIM_OTHER,
};
enum prt_state {
    PRT_INIT_PORT, PRT_DISABLE_PORT, PRT_DISABLED_PORT,
    PRT_ROOT_PORT, PRT_ROOT_PROPOSED, PRT_ROOT_AGREED, PRT_REROOT,
    PRT_REROOTED, PRT_ROOT_LEARN, PRT_ROOT_FORWARD,
    PRT_DESIGNATED_PORT, PRT_DESIGNATED_PROPOSE, PRT_DESIGNATED_SYNCED,
    PRT_DESIGNATED_RETIRED, PRT_DESIGNATED_DISCARD, PRT_DESIGNATED_LEARN,
    PRT_DESIGNATED_FORWARD,
    PRT_BLOCK_PORT, PRT_ALTERNATE_PORT, PRT_ALTERNATE_PROPOSED,
    PRT_ALTERNATE_AGREED, PRT_BACKUP_PORT,
};
enum pst_state { PST_DISCARDING, PST_LEARNING, PST_FORWARDING };
enum tcm_state {
    TCM_INACTIVE, TCM_LEARNING, TCM_DETECTED, TCM_ACTIVE, TCM_NOTIFIED_TCN,
    TCM_NOTIFIED_TC, TCM_PROPAGATING, TCM_ACKNOWLEDGED,
};

struct rstp_port {
    struct rstp *rstp;
    struct hmap_node node;          /* In rstp->ports, by port_no. */
    struct ovs_list list_node;      /* In rstp->port_list, by port_no. */
    struct ovs_list changed_node;   /* In rstp->changed, if queued. */
    bool queued;
    int port_no;

    /* Management (17.13). */
    int priority;
    uint32_t path_cost;             /* 17.19.20 PortPathCost. */
    bool admin_edge, auto_edge;
    bool port_enabled;              /* 17.19.18 portEnabled. */
    bool begin;                     /* Just added: machines start over. */

    /* Timers (17.17), seconds left. */
    uint16_t edge_delay_while, fd_while, hello_when, mdelay_while;
    uint16_t rb_while, rcvd_info_while, rr_while, tc_while;

    /* Variables (17.19). */
    uint16_t port_id;
    bool agree, agreed, disputed, fdb_flush, forward, forwarding;
    enum rstp_info_is info_is;
    bool learn, learning, mcheck, new_info, oper_edge;
    bool proposed, proposing;
    bool rcvd_bpdu, rcvd_rstp, rcvd_stp, rcvd_tc, rcvd_tc_ack, rcvd_tcn;
    bool rcvd_msg;
    bool re_root, reselect, selected, send_rstp, sync, synced;
    bool tc_ack, tc_prop, updt_info;
    enum rstp_info_is rcvd_info_is;
    enum rstp_rcvd_info rcvd_info;
    enum rstp_port_role role, selected_role;
    unsigned int tx_count;
    struct rstp_priority designated_priority, msg_priority, port_priority;
    struct rstp_times designated_times, msg_times, port_times;
    struct rstp_bpdu rcvd;          /* The BPDU rcvdBpdu refers to. */

    /* Machine states. */
    enum prx_state prx;
    enum ppm_state ppm;
    enum bdm_state bdm;
    enum ptx_state ptx;
    enum pim_state pim;
    enum prt_state prt;
    enum pst_state pst;
    enum tcm_state tcm;

    /* What the switch reads. */
    enum rstp_state state;          /* Reported: Disabled while !enabled. */
    bool flush_pending;             /* A MAC flush not yet taken. */
    bool may_have_macs;             /* Learned since the last flush. */
    struct rstp_port_stats stats;
};

struct rstp {
    char *name;
    rstp_send_bpdu_func *send_bpdu;
    void *aux;

    struct hmap ports;              /* struct rstp_port, by port_no. */
    struct ovs_list port_list;      /* The same ports, by port_no. */
    struct ovs_list changed;        /* Queued ports (changed_node). */
    size_t n_enabled;               /* Ports with port_enabled. */

    /* Management (17.13). */
    uint64_t address;               /* 48 bits. */
    int priority;
    int ageing_time;
    int force_protocol_version;
    int max_age, forward_delay;
    unsigned int transmit_hold_count;

    /* Variables (17.18). */
    uint64_t bridge_id;
    struct rstp_priority bridge_priority;
    struct rstp_times bridge_times;
    uint16_t root_port_id;
    struct rstp_port *root_port;
    struct rstp_priority root_priority;
    struct rstp_times root_times;

    bool prs_begin;                 /* Port Role Selection's INIT_BRIDGE. */
    bool fdb_flush;                 /* Some port's flush not yet asked. */
    unsigned long long int rx_errors;

    long long int last_tick;        /* ms; LLONG_MIN until first run. */
    bool clock_stopped;             /* Last rstp_run() returned LLONG_MAX. */
};

/* rstp-sm.c (the driver; the machines are declared in rstp-sm.h). */

/* Sets the machines of P to their BEGIN states (a new port). */
void rstp_sm_begin_port(struct rstp_port *);
/* Runs every machine of the bridge until none changes state. */
void rstp_sm_run(struct rstp *);
/* One second passes (17.22 Port Timers). */
void rstp_sm_tick(struct rstp_port *);
/* Recomputes the bridge priority vector and times after management
 * changed them, and asks for role selection. */
void rstp_sm_bridge_changed(struct rstp *);
/* ForceProtocolVersion changed (17.13.4): every port checks its BPDU
 * format again. */
void rstp_sm_protocol_version_changed(struct rstp *);
/* 17.31: P, if forwarding as a root or designated port that is not an
 * edge (Topology Change's ACTIVE), detects a topology change again. */
void rstp_sm_detect_topology_change(struct rstp_port *);
/* Recomputes P's reported state (Disabled while the port is down). */
void rstp_sm_update_state(struct rstp_port *);
/* rstp.c: P's role, state or flush changed; queue it. */
void rstp_port_note_change(struct rstp_port *);

#endif /* rstp-private.h */
