/* rstp-sm: what the three files of the RSTP state machines share
 * (rstp-sm.c: the driver and the port's link-level machines;
 * rstp-sm-info.c: what a port knows and which role it should have;
 * rstp-sm-role.c: moving a port into its role and state).  Internal to the
 * engine, under rstp.h's rules: the caller serialises per bridge.
 *
 * Each machine is a step function: it looks at the variables
 * (rstp-private.h), and if one of its transitions holds it enters the new
 * state (doing that state's actions) and says so.  A state left
 * unconditionally ("UCT" in the standard) passes straight on in the same
 * step.  rstp_sm_run() steps all machines of a bridge until none moves,
 * which is how the standard's machines behave when every transition is
 * taken as soon as its condition holds.  The enter functions set a machine
 * to a state (BEGIN uses them). */
#ifndef RSTP_SM_H
#define RSTP_SM_H 1

#include "rstp-private.h"

#define RSTP_ADDRESS_MASK UINT64_C(0xffffffffffff)
#define RSTP_PORT_NUMBER_MASK 0x0fff

/* 17.20: conditions and parameters. */

static inline bool
rstp_version(const struct rstp *rstp)
{
    return rstp->force_protocol_version >= 2;
}

static inline uint16_t
hello_time(const struct rstp_port *p)
{
    return p->designated_times.hello_time;
}

static inline uint16_t
fwd_delay(const struct rstp_port *p)
{
    return p->designated_times.forward_delay;
}

static inline uint16_t
max_age(const struct rstp_port *p)
{
    return p->designated_times.max_age;
}

/* 17.20.5 forwardDelay: with RSTP the hello time suffices, since the
 * partner answers proposals; with STP we wait the full delay. */
static inline uint16_t
forward_delay(const struct rstp_port *p)
{
    return p->send_rstp ? hello_time(p) : fwd_delay(p);
}

/* 17.20.4 EdgeDelay.  Every port is taken as point-to-point (our links are
 * full duplex), so it is always the migrate time. */
static inline uint16_t
edge_delay(const struct rstp_port *p OVS_UNUSED)
{
    return RSTP_MIGRATE_TIME;
}

/* rstp-sm-info.c: 17.27 Port Information, 17.28 Port Role Selection. */
void rstp_pim_enter(struct rstp_port *, enum pim_state);
bool rstp_pim_step(struct rstp_port *);
bool rstp_prs_step(struct rstp *);

/* rstp-sm-role.c: 17.29 Port Role Transitions, 17.30 Port State
 * Transition. */
void rstp_prt_enter(struct rstp_port *, enum prt_state);
bool rstp_prt_step(struct rstp_port *);
void rstp_pst_enter(struct rstp_port *, enum pst_state);
bool rstp_pst_step(struct rstp_port *);

#endif /* rstp-sm.h */
