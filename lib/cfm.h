/* cfm: Connectivity Fault Management on one port, as Open vSwitch 3.1
 * runs it: IEEE 802.1ag continuity check messages (CCMs) at MD level 0,
 * and Open vSwitch's "extended" mode (its own destination address, 64-bit
 * MPIDs, any interval in milliseconds, an operational-state bit).
 *
 * An instance sends a CCM every interval and learns the remote
 * maintenance points (MPs) whose CCMs it receives.  Every 3.5 intervals
 * (the fault interval) it checks what it got: an MP silent for a whole
 * fault interval is forgotten, and no MP at all is the "recv" fault.  A
 * CCM whose RDI bit is set, one from another MA, one carrying our own
 * MPID, or one from an MP beyond the table's size raise the "rdi",
 * "maid", "loopback" and "overflow" faults for the next check.  An
 * operator can force the fault on or off ("override",
 * `ovs-appctl cfm/set-fault`).  Demand mode (extended only) counts any
 * packet received on the device as a sign of life of the single remote
 * MP, as long as one CCM arrives every 100 intervals.
 *
 * An instance is a port protocol (port-protocol.h): ofproto's translation
 * asks cfm's class whether a packet is a CCM, hands it over, and the
 * monitor thread calls run() when a CCM is due or a fault check is, and
 * sends the CCMs it returns.
 *
 * Threads: cfm_create(), cfm_configure() and cfm_destroy() run on the main
 * thread; the class functions run on handler and monitor threads; the
 * getters and the unixctl commands (cfm/show, cfm/set-fault) anywhere.
 * One module mutex guards every instance and the table of instances by
 * name (which the unixctl commands look up).
 *
 * Memory: the module owns its instances; cfm_destroy() frees one (after
 * ofproto detached it).  The netdev given to cfm_create() is the caller's
 * and must outlive the instance.  cfm_get_status() returns an array the
 * caller frees. */
#ifndef CFM_H
#define CFM_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cfm;
struct netdev;
struct port_protocol;

/* The fault reasons, with 3.1's names (cfm_fault_status, cfm/show). */
enum cfm_fault_reason {
    CFM_FAULT_RECV = 1 << 0,      /* No remote MP heard in a fault interval. */
    CFM_FAULT_RDI = 1 << 1,       /* A remote MP says it hears nobody. */
    CFM_FAULT_MAID = 1 << 2,      /* A CCM of another MA. */
    CFM_FAULT_LOOPBACK = 1 << 3,  /* A CCM with our own MPID. */
    CFM_FAULT_OVERFLOW = 1 << 4,  /* More remote MPs than we keep. */
    CFM_FAULT_OVERRIDE = 1 << 5,  /* cfm/set-fault ... true. */
};
#define CFM_FAULT_N_REASONS 6

/* The name of the single reason REASON ("recv", ...). */
const char *cfm_fault_reason_to_str(enum cfm_fault_reason reason);

/* cfm_ccm_vlan "random": a fresh random VLAN ID in each CCM. */
#define CFM_RANDOM_VLAN UINT16_MAX

struct cfm_settings {
    uint64_t mpid;          /* 1..8191; extended: 1..UINT64_MAX. */
    int interval;           /* Wanted interval (ms, > 0). */
    bool extended;          /* Open vSwitch's extended mode. */
    bool demand;            /* Demand mode (only with extended). */
    bool opup;              /* Our operational state (extended). */
    uint16_t ccm_vlan;      /* VLAN ID of CCMs, 0: untagged (unless a PCP
                             * is given), or CFM_RANDOM_VLAN. */
    uint8_t ccm_pcp;        /* Priority of CCMs (0..7). */
    bool check_tnl_key;     /* Accept only CCMs with tunnel key 0 (a tunnel
                             * whose key is set per flow). */
};

/* Whether MPID is valid in the given mode. */
bool cfm_mpid_is_valid(bool extended, uint64_t mpid);

/* Creates an instance named NAME (the interface's, what cfm/show and
 * cfm/set-fault take), on device NETDEV (may be NULL: then demand mode
 * sees no traffic), with OWNER as its port_protocol owner.  It does
 * nothing until cfm_configure() succeeds. */
struct cfm *cfm_create(const char *name, struct netdev *netdev, void *owner);

/* Applies S.  Returns false, changing nothing, if S is invalid (an MPID
 * out of range, an interval not above 0). */
bool cfm_configure(struct cfm *, const struct cfm_settings *s);

void cfm_destroy(struct cfm *);

/* The instance's port protocol, and back. */
struct port_protocol *cfm_protocol(struct cfm *);
struct cfm *cfm_from_protocol(const struct port_protocol *);
const char *cfm_name(const struct cfm *);

/* What the database shows. */
struct cfm_status {
    unsigned int faults;        /* enum cfm_fault_reason bits, 0: none. */
    int remote_opstate;         /* 1 up, 0 down, -1 unknown (standard). */
    uint64_t flap_count;        /* Times the fault went on or off. */
    int health;                 /* 0..100, -1 undefined. */
    uint64_t *rmps;             /* Remote MPIDs heard (caller frees). */
    size_t n_rmps;
};
void cfm_get_status(const struct cfm *, struct cfm_status *);

/* The fault bits (override applied), 0 for none. */
unsigned int cfm_get_fault(const struct cfm *);

/* Registers cfm/show and cfm/set-fault (main thread, at start-up, so
 * that they answer before any instance exists, as 3.1's; cfm_create()
 * makes sure of it too). */
void cfm_init(void);

#endif /* cfm.h */
