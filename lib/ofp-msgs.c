/* ofp-msgs: the table of OpenFlow message forms.  See ofp-msgs.h. */
#include <config.h>

#include "ofp-msgs.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "list.h"
#include "ofpbuf.h"
#include "packets.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_msgs);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

/* How a message is told apart. */
enum ofpraw_kind {
    K_OFPT,             /* ofp_header.type. */
    K_OFPST,            /* Statistics request or reply with a stats type. */
    K_NXT,              /* Vendor message, Nicira vendor id, subtype. */
    K_ONFT,             /* Vendor message, ONF id, subtype. */
    K_NXST,             /* Vendor statistics, Nicira id, subtype. */
    K_ONFST,            /* Vendor statistics, ONF id, subtype. */
};

/* One raw form.  The body (what follows all headers) must be MIN_BODY
 * bytes plus a multiple of UNIT: UNIT 0 means exactly MIN_BODY, 1 means
 * any number of further bytes. */
struct raw_info {
    const char *name;
    enum ofptype type;
    enum ofpraw_kind kind;
    uint8_t min_version;
    uint8_t max_version;       /* 0xff: every later version too. */
    bool request;              /* For K_OFPST/K_NXST: request or reply. */
    uint16_t number;           /* Type, stats type or subtype. */
    uint16_t min_body;
    uint16_t unit;
};

#define ALL 0xff                /* max_version: any later one. */
#define ANYV 0                  /* min_version: even unknown versions. */

static const struct raw_info raws[OFPRAW_N_RAWS] = {
#define T(RAW, TYPE, MIN, MAX, NUM, BODY, UNIT) \
    [OFPRAW_##RAW] = { NULL, OFPTYPE_##TYPE, K_OFPT, MIN, MAX, false, \
                       NUM, BODY, UNIT }
#define NXT(RAW, TYPE, MIN, MAX, NUM, BODY, UNIT) \
    [OFPRAW_##RAW] = { NULL, OFPTYPE_##TYPE, K_NXT, MIN, MAX, false, \
                       NUM, BODY, UNIT }
#define ONFT(RAW, TYPE, MIN, MAX, NUM, BODY, UNIT) \
    [OFPRAW_##RAW] = { NULL, OFPTYPE_##TYPE, K_ONFT, MIN, MAX, false, \
                       NUM, BODY, UNIT }
#define ST(RAW, TYPE, MIN, MAX, REQ, NUM, BODY, UNIT) \
    [OFPRAW_##RAW] = { NULL, OFPTYPE_##TYPE, K_OFPST, MIN, MAX, REQ, \
                       NUM, BODY, UNIT }
#define NXST(RAW, TYPE, MIN, MAX, REQ, NUM, BODY, UNIT) \
    [OFPRAW_##RAW] = { NULL, OFPTYPE_##TYPE, K_NXST, MIN, MAX, REQ, \
                       NUM, BODY, UNIT }
#define ONFST(RAW, TYPE, MIN, MAX, REQ, NUM, BODY, UNIT) \
    [OFPRAW_##RAW] = { NULL, OFPTYPE_##TYPE, K_ONFST, MIN, MAX, REQ, \
                       NUM, BODY, UNIT }
    T(OFPT_HELLO, HELLO, ANYV, ALL, 0, 0, 1),
    T(OFPT_ERROR, ERROR, ANYV, ALL, 1, 4, 1),
    T(OFPT_ECHO_REQUEST, ECHO_REQUEST, ANYV, ALL, 2, 0, 1),
    T(OFPT_ECHO_REPLY, ECHO_REPLY, ANYV, ALL, 3, 0, 1),

    T(OFPT_FEATURES_REQUEST, FEATURES_REQUEST, 1, ALL, 5, 0, 0),
    T(OFPT10_FEATURES_REPLY, FEATURES_REPLY, 1, 1, 6, 24, 48),
    T(OFPT11_FEATURES_REPLY, FEATURES_REPLY, 2, 3, 6, 24, 64),
    T(OFPT13_FEATURES_REPLY, FEATURES_REPLY, 4, ALL, 6, 24, 0),
    T(OFPT_GET_CONFIG_REQUEST, GET_CONFIG_REQUEST, 1, ALL, 7, 0, 0),
    T(OFPT_GET_CONFIG_REPLY, GET_CONFIG_REPLY, 1, ALL, 8, 4, 0),
    T(OFPT_SET_CONFIG, SET_CONFIG, 1, ALL, 9, 4, 0),

    T(OFPT10_PACKET_IN, PACKET_IN, 1, 1, 10, 10, 1),
    T(OFPT11_PACKET_IN, PACKET_IN, 2, 2, 10, 16, 1),
    T(OFPT12_PACKET_IN, PACKET_IN, 3, 3, 10, 8, 1),
    T(OFPT13_PACKET_IN, PACKET_IN, 4, ALL, 10, 16, 1),
    NXT(NXT_PACKET_IN, PACKET_IN, 1, ALL, NXT_PACKET_IN, 24, 1),
    NXT(NXT_PACKET_IN2, PACKET_IN, 1, ALL, NXT_PACKET_IN2, 0, 8),
    T(OFPT10_FLOW_REMOVED, FLOW_REMOVED, 1, 1, 11, 80, 0),
    T(OFPT11_FLOW_REMOVED, FLOW_REMOVED, 2, ALL, 11, 40, 8),
    NXT(NXT_FLOW_REMOVED, FLOW_REMOVED, 1, ALL, NXT_FLOW_REMOVED, 40, 8),
    T(OFPT10_PORT_STATUS, PORT_STATUS, 1, 1, 12, 56, 0),
    T(OFPT11_PORT_STATUS, PORT_STATUS, 2, 4, 12, 72, 0),
    T(OFPT14_PORT_STATUS, PORT_STATUS, 5, ALL, 12, 48, 8),

    T(OFPT10_PACKET_OUT, PACKET_OUT, 1, 1, 13, 8, 1),
    T(OFPT11_PACKET_OUT, PACKET_OUT, 2, ALL, 13, 16, 1),
    T(OFPT10_FLOW_MOD, FLOW_MOD, 1, 1, 14, 64, 8),
    T(OFPT11_FLOW_MOD, FLOW_MOD, 2, ALL, 14, 40, 8),
    NXT(NXT_FLOW_MOD, FLOW_MOD, 1, ALL, NXT_FLOW_MOD, 32, 8),
    T(OFPT11_GROUP_MOD, GROUP_MOD, 2, 5, 15, 8, 8),
    T(OFPT15_GROUP_MOD, GROUP_MOD, 6, ALL, 15, 16, 8),
    NXT(NXT_GROUP_MOD, GROUP_MOD, 1, 1, 31, 16, 8),
    T(OFPT10_PORT_MOD, PORT_MOD, 1, 1, 15, 24, 0),
    T(OFPT11_PORT_MOD, PORT_MOD, 2, 4, 16, 32, 0),
    T(OFPT14_PORT_MOD, PORT_MOD, 5, ALL, 16, 24, 8),
    T(OFPT11_TABLE_MOD, TABLE_MOD, 2, 4, 17, 8, 0),
    T(OFPT14_TABLE_MOD, TABLE_MOD, 5, ALL, 17, 8, 8),

    T(OFPT10_BARRIER_REQUEST, BARRIER_REQUEST, 1, 1, 18, 0, 0),
    T(OFPT11_BARRIER_REQUEST, BARRIER_REQUEST, 2, ALL, 20, 0, 0),
    T(OFPT10_BARRIER_REPLY, BARRIER_REPLY, 1, 1, 19, 0, 0),
    T(OFPT11_BARRIER_REPLY, BARRIER_REPLY, 2, ALL, 21, 0, 0),

    T(OFPT10_QUEUE_GET_CONFIG_REQUEST, QUEUE_GET_CONFIG_REQUEST,
      1, 1, 20, 4, 0),
    T(OFPT11_QUEUE_GET_CONFIG_REQUEST, QUEUE_GET_CONFIG_REQUEST,
      2, 4, 22, 8, 0),
    T(OFPT10_QUEUE_GET_CONFIG_REPLY, QUEUE_GET_CONFIG_REPLY,
      1, 1, 21, 8, 8),
    T(OFPT11_QUEUE_GET_CONFIG_REPLY, QUEUE_GET_CONFIG_REPLY,
      2, 4, 23, 8, 8),

    T(OFPT12_ROLE_REQUEST, ROLE_REQUEST, 3, ALL, 24, 16, 0),
    NXT(NXT_ROLE_REQUEST, ROLE_REQUEST, 1, ALL, NXT_ROLE_REQUEST, 4, 0),
    T(OFPT12_ROLE_REPLY, ROLE_REPLY, 3, ALL, 25, 16, 0),
    NXT(NXT_ROLE_REPLY, ROLE_REPLY, 1, ALL, NXT_ROLE_REPLY, 4, 0),
    T(OFPT13_GET_ASYNC_REQUEST, GET_ASYNC_REQUEST, 4, 4, 26, 0, 0),
    T(OFPT14_GET_ASYNC_REQUEST, GET_ASYNC_REQUEST, 5, ALL, 26, 0, 0),
    T(OFPT13_GET_ASYNC_REPLY, GET_ASYNC_REPLY, 4, 4, 27, 24, 0),
    T(OFPT14_GET_ASYNC_REPLY, GET_ASYNC_REPLY, 5, ALL, 27, 0, 8),
    T(OFPT13_SET_ASYNC, SET_ASYNC_CONFIG, 4, 4, 28, 24, 0),
    NXT(NXT_SET_ASYNC_CONFIG, SET_ASYNC_CONFIG, 1, ALL,
        NXT_SET_ASYNC_CONFIG, 24, 0),
    NXT(NXT_SET_ASYNC_CONFIG2, SET_ASYNC_CONFIG, 1, 4,
        NXT_SET_ASYNC_CONFIG2, 0, 8),
    T(OFPT14_SET_ASYNC, SET_ASYNC_CONFIG, 5, ALL, 28, 0, 8),
    T(OFPT13_METER_MOD, METER_MOD, 4, ALL, 29, 8, 8),
    ONFT(ONFT13_ROLE_STATUS, ROLE_STATUS, 4, 4, 1911, 16, 8),
    T(OFPT14_ROLE_STATUS, ROLE_STATUS, 5, ALL, 30, 16, 8),
    T(OFPT14_TABLE_STATUS, TABLE_STATUS, 5, ALL, 31, 8, 8),
    T(OFPT14_REQUESTFORWARD, REQUESTFORWARD, 5, ALL, 32, 8, 8),
    ONFT(ONFT13_REQUESTFORWARD, REQUESTFORWARD, 4, 4, 2350, 8, 8),
    NXT(NXT_REQUESTFORWARD, REQUESTFORWARD, 1, 3, NXT_REQUESTFORWARD, 8, 8),
    T(OFPT14_BUNDLE_CONTROL, BUNDLE_CONTROL, 5, ALL, 33, 8, 8),
    ONFT(ONFT13_BUNDLE_CONTROL, BUNDLE_CONTROL, 4, 4, 2300, 8, 8),
    T(OFPT14_BUNDLE_ADD_MESSAGE, BUNDLE_ADD_MESSAGE, 5, ALL, 34, 8, 1),
    ONFT(ONFT13_BUNDLE_ADD_MESSAGE, BUNDLE_ADD_MESSAGE, 4, 4, 2301, 8, 1),

    ST(OFPST_DESC_REQUEST, DESC_STATS_REQUEST, 1, ALL, true, 0, 0, 0),
    ST(OFPST_DESC_REPLY, DESC_STATS_REPLY, 1, ALL, false, 0, 1056, 0),
    ST(OFPST10_FLOW_REQUEST, FLOW_STATS_REQUEST, 1, 1, true, 1, 44, 0),
    ST(OFPST11_FLOW_REQUEST, FLOW_STATS_REQUEST, 2, ALL, true, 1, 32, 8),
    NXST(NXST_FLOW_REQUEST, FLOW_STATS_REQUEST, 1, 1, true, NXST_FLOW,
         8, 8),
    ST(OFPST10_FLOW_REPLY, FLOW_STATS_REPLY, 1, 1, false, 1, 0, 1),
    ST(OFPST11_FLOW_REPLY, FLOW_STATS_REPLY, 2, 3, false, 1, 0, 1),
    ST(OFPST13_FLOW_REPLY, FLOW_STATS_REPLY, 4, ALL, false, 1, 0, 1),
    NXST(NXST_FLOW_REPLY, FLOW_STATS_REPLY, 1, 1, false, NXST_FLOW, 0, 1),
    ST(OFPST10_AGGREGATE_REQUEST, AGGREGATE_STATS_REQUEST, 1, 1, true,
       2, 44, 0),
    ST(OFPST11_AGGREGATE_REQUEST, AGGREGATE_STATS_REQUEST, 2, ALL, true,
       2, 32, 8),
    NXST(NXST_AGGREGATE_REQUEST, AGGREGATE_STATS_REQUEST, 1, 1, true,
         NXST_AGGREGATE, 8, 8),
    ST(OFPST_AGGREGATE_REPLY, AGGREGATE_STATS_REPLY, 1, 5, false,
       2, 24, 0),
    ST(OFPST15_AGGREGATE_REPLY, AGGREGATE_STATS_REPLY, 6, ALL, false,
       2, 0, 8),
    NXST(NXST_AGGREGATE_REPLY, AGGREGATE_STATS_REPLY, 1, 1, false,
         NXST_AGGREGATE, 24, 0),
    ST(OFPST_TABLE_REQUEST, TABLE_STATS_REQUEST, 1, ALL, true, 3, 0, 0),
    ST(OFPST10_TABLE_REPLY, TABLE_STATS_REPLY, 1, 1, false, 3, 0, 64),
    ST(OFPST11_TABLE_REPLY, TABLE_STATS_REPLY, 2, 2, false, 3, 0, 88),
    ST(OFPST12_TABLE_REPLY, TABLE_STATS_REPLY, 3, 3, false, 3, 0, 128),
    ST(OFPST13_TABLE_REPLY, TABLE_STATS_REPLY, 4, ALL, false, 3, 0, 24),
    ST(OFPST10_PORT_REQUEST, PORT_STATS_REQUEST, 1, 1, true, 4, 8, 0),
    ST(OFPST11_PORT_REQUEST, PORT_STATS_REQUEST, 2, ALL, true, 4, 8, 0),
    ST(OFPST10_PORT_REPLY, PORT_STATS_REPLY, 1, 1, false, 4, 0, 104),
    ST(OFPST11_PORT_REPLY, PORT_STATS_REPLY, 2, 3, false, 4, 0, 104),
    ST(OFPST13_PORT_REPLY, PORT_STATS_REPLY, 4, 4, false, 4, 0, 112),
    ST(OFPST14_PORT_REPLY, PORT_STATS_REPLY, 5, ALL, false, 4, 0, 8),
    ST(OFPST10_QUEUE_REQUEST, QUEUE_STATS_REQUEST, 1, 1, true, 5, 8, 0),
    ST(OFPST11_QUEUE_REQUEST, QUEUE_STATS_REQUEST, 2, ALL, true, 5, 8, 0),
    ST(OFPST10_QUEUE_REPLY, QUEUE_STATS_REPLY, 1, 1, false, 5, 0, 32),
    ST(OFPST11_QUEUE_REPLY, QUEUE_STATS_REPLY, 2, 3, false, 5, 0, 32),
    ST(OFPST13_QUEUE_REPLY, QUEUE_STATS_REPLY, 4, 4, false, 5, 0, 40),
    ST(OFPST14_QUEUE_REPLY, QUEUE_STATS_REPLY, 5, ALL, false, 5, 0, 8),
    ST(OFPST14_QUEUE_DESC_REQUEST, QUEUE_DESC_STATS_REQUEST, 5, ALL, true,
       15, 8, 0),
    ST(OFPST14_QUEUE_DESC_REPLY, QUEUE_DESC_STATS_REPLY, 5, ALL, false,
       15, 0, 8),
    ST(OFPST11_GROUP_REQUEST, GROUP_STATS_REQUEST, 2, ALL, true, 6, 8, 0),
    NXST(NXST_GROUP_REQUEST, GROUP_STATS_REQUEST, 1, 1, true, 7, 8, 0),
    ST(OFPST11_GROUP_REPLY, GROUP_STATS_REPLY, 2, 3, false, 6, 0, 8),
    ST(OFPST13_GROUP_REPLY, GROUP_STATS_REPLY, 4, ALL, false, 6, 0, 8),
    NXST(NXST_GROUP_REPLY, GROUP_STATS_REPLY, 1, 1, false, 7, 0, 8),
    ST(OFPST11_GROUP_DESC_REQUEST, GROUP_DESC_STATS_REQUEST, 2, 5, true,
       7, 0, 0),
    ST(OFPST15_GROUP_DESC_REQUEST, GROUP_DESC_STATS_REQUEST, 6, ALL, true,
       7, 8, 0),
    NXST(NXST_GROUP_DESC_REQUEST, GROUP_DESC_STATS_REQUEST, 1, 1, true,
         8, 8, 0),
    ST(OFPST11_GROUP_DESC_REPLY, GROUP_DESC_STATS_REPLY, 2, ALL, false,
       7, 0, 8),
    NXST(NXST_GROUP_DESC_REPLY, GROUP_DESC_STATS_REPLY, 1, 1, false,
         8, 0, 8),
    ST(OFPST12_GROUP_FEATURES_REQUEST, GROUP_FEATURES_STATS_REQUEST,
       3, ALL, true, 8, 0, 0),
    /* 3.1 takes (and its ovs-ofctl sends) the Nicira form in 1.1 too. */
    NXST(NXST_GROUP_FEATURES_REQUEST, GROUP_FEATURES_STATS_REQUEST,
         1, 2, true, 9, 0, 0),
    ST(OFPST12_GROUP_FEATURES_REPLY, GROUP_FEATURES_STATS_REPLY,
       3, ALL, false, 8, 40, 0),
    NXST(NXST_GROUP_FEATURES_REPLY, GROUP_FEATURES_STATS_REPLY,
         1, 2, false, 9, 40, 0),
    ST(OFPST13_METER_REQUEST, METER_STATS_REQUEST, 4, ALL, true, 9, 8, 0),
    ST(OFPST13_METER_REPLY, METER_STATS_REPLY, 4, ALL, false, 9, 0, 8),
    ST(OFPST13_METER_CONFIG_REQUEST, METER_CONFIG_STATS_REQUEST,
       4, ALL, true, 10, 8, 0),
    ST(OFPST13_METER_CONFIG_REPLY, METER_CONFIG_STATS_REPLY,
       4, ALL, false, 10, 0, 8),
    ST(OFPST13_METER_FEATURES_REQUEST, METER_FEATURES_STATS_REQUEST,
       4, ALL, true, 11, 0, 0),
    ST(OFPST13_METER_FEATURES_REPLY, METER_FEATURES_STATS_REPLY,
       4, ALL, false, 11, 16, 0),
    ST(OFPST13_TABLE_FEATURES_REQUEST, TABLE_FEATURES_STATS_REQUEST,
       4, ALL, true, 12, 0, 8),
    ST(OFPST13_TABLE_FEATURES_REPLY, TABLE_FEATURES_STATS_REPLY,
       4, ALL, false, 12, 0, 8),
    ST(OFPST14_TABLE_DESC_REQUEST, TABLE_DESC_REQUEST, 5, ALL, true,
       14, 0, 0),
    ST(OFPST14_TABLE_DESC_REPLY, TABLE_DESC_REPLY, 5, ALL, false,
       14, 0, 8),
    ST(OFPST10_PORT_DESC_REQUEST, PORT_DESC_STATS_REQUEST, 1, 5, true,
       13, 0, 0),
    ST(OFPST15_PORT_DESC_REQUEST, PORT_DESC_STATS_REQUEST, 6, ALL, true,
       13, 8, 0),
    ST(OFPST10_PORT_DESC_REPLY, PORT_DESC_STATS_REPLY, 1, 1, false,
       13, 0, 48),
    ST(OFPST11_PORT_DESC_REPLY, PORT_DESC_STATS_REPLY, 2, 4, false,
       13, 0, 64),
    ST(OFPST14_PORT_DESC_REPLY, PORT_DESC_STATS_REPLY, 5, ALL, false,
       13, 0, 8),
    ST(OFPST14_FLOW_MONITOR_REQUEST, FLOW_MONITOR_STATS_REQUEST,
       5, ALL, true, 16, 0, 8),
    NXST(NXST_FLOW_MONITOR_REQUEST, FLOW_MONITOR_STATS_REQUEST,
         1, 3, true, NXST_FLOW_MONITOR, 0, 8),
    ONFST(ONFST13_FLOW_MONITOR_REQUEST, FLOW_MONITOR_STATS_REQUEST,
          4, 4, true, ONF_FLOW_MONITOR, 0, 8),
    ST(OFPST14_FLOW_MONITOR_REPLY, FLOW_MONITOR_STATS_REPLY,
       5, ALL, false, 16, 0, 8),
    NXST(NXST_FLOW_MONITOR_REPLY, FLOW_MONITOR_STATS_REPLY,
         1, 3, false, NXST_FLOW_MONITOR, 0, 8),
    ONFST(ONFST13_FLOW_MONITOR_REPLY, FLOW_MONITOR_STATS_REPLY,
          4, 4, false, ONF_FLOW_MONITOR, 0, 8),

    NXT(NXT_SET_FLOW_FORMAT, SET_FLOW_FORMAT, 1, 1,
        NXT_SET_FLOW_FORMAT, 4, 0),
    NXT(NXT_FLOW_MOD_TABLE_ID, FLOW_MOD_TABLE_ID, 1, ALL,
        NXT_FLOW_MOD_TABLE_ID, 8, 0),
    NXT(NXT_SET_PACKET_IN_FORMAT, SET_PACKET_IN_FORMAT, 1, ALL,
        NXT_SET_PACKET_IN_FORMAT, 4, 0),
    NXT(NXT_FLOW_AGE, FLOW_AGE, 1, ALL, NXT_FLOW_AGE, 0, 0),
    NXT(NXT_SET_CONTROLLER_ID, SET_CONTROLLER_ID, 1, ALL,
        NXT_SET_CONTROLLER_ID, 8, 0),
    NXT(NXT_FLOW_MONITOR_CANCEL, FLOW_MONITOR_CANCEL, 1, 3,
        NXT_FLOW_MONITOR_CANCEL, 4, 0),
    NXT(NXT_FLOW_MONITOR_PAUSED, FLOW_MONITOR_PAUSED, 1, 3,
        NXT_FLOW_MONITOR_PAUSED, 0, 0),
    NXT(NXT_FLOW_MONITOR_RESUMED, FLOW_MONITOR_RESUMED, 1, 3,
        NXT_FLOW_MONITOR_RESUMED, 0, 0),
    ONFT(ONFT13_FLOW_MONITOR_CANCEL, FLOW_MONITOR_CANCEL, 4, 4,
         ONF_FLOW_MONITOR, 4, 0),
    ONFT(ONFT13_FLOW_MONITOR_PAUSED, FLOW_MONITOR_PAUSED, 4, 4,
         ONF_FLOW_MONITOR + 1, 0, 0),
    ONFT(ONFT13_FLOW_MONITOR_RESUMED, FLOW_MONITOR_RESUMED, 4, 4,
         ONF_FLOW_MONITOR + 2, 0, 0),
    NXT(NXT_RESUME, NXT_RESUME, 1, ALL, NXT_RESUME, 0, 8),
    NXT(NXT_CT_FLUSH_ZONE, CT_FLUSH_ZONE, 1, ALL, NXT_CT_FLUSH_ZONE, 8, 0),
    NXT(NXT_CT_FLUSH, CT_FLUSH, 1, ALL, NXT_CT_FLUSH, 8, 8),
    NXT(NXT_TLV_TABLE_MOD, NXT_TLV_TABLE_MOD, 1, ALL, NXT_TLV_TABLE_MOD,
        8, 8),
    NXT(NXT_TLV_TABLE_REQUEST, NXT_TLV_TABLE_REQUEST, 1, ALL,
        NXT_TLV_TABLE_REQUEST, 0, 0),
    NXT(NXT_TLV_TABLE_REPLY, NXT_TLV_TABLE_REPLY, 1, ALL,
        NXT_TLV_TABLE_REPLY, 16, 8),
#undef T
#undef NXT
#undef ONFT
#undef ST
#undef NXST
#undef ONFST
};

/* Names are derived once from the enumerator spelling: OFPT13_X prints as
 * "OFPT_X", OFPST11_X_REQUEST as "OFPST_X request", NXST_X_REPLY as
 * "NXST_X reply". */
static const char *const raw_enum_names[OFPRAW_N_RAWS] = {
#define N(RAW) [OFPRAW_##RAW] = #RAW
    N(OFPT_HELLO), N(OFPT_ERROR), N(OFPT_ECHO_REQUEST), N(OFPT_ECHO_REPLY),
    N(OFPT_FEATURES_REQUEST), N(OFPT10_FEATURES_REPLY),
    N(OFPT11_FEATURES_REPLY), N(OFPT13_FEATURES_REPLY),
    N(OFPT_GET_CONFIG_REQUEST), N(OFPT_GET_CONFIG_REPLY), N(OFPT_SET_CONFIG),
    N(OFPT10_PACKET_IN), N(OFPT11_PACKET_IN), N(OFPT12_PACKET_IN),
    N(OFPT13_PACKET_IN), N(NXT_PACKET_IN), N(NXT_PACKET_IN2),
    N(OFPT10_FLOW_REMOVED), N(OFPT11_FLOW_REMOVED), N(NXT_FLOW_REMOVED),
    N(OFPT10_PORT_STATUS), N(OFPT11_PORT_STATUS), N(OFPT14_PORT_STATUS),
    N(OFPT10_PACKET_OUT), N(OFPT11_PACKET_OUT), N(OFPT10_FLOW_MOD),
    N(OFPT11_FLOW_MOD), N(NXT_FLOW_MOD), N(OFPT11_GROUP_MOD),
    N(OFPT15_GROUP_MOD), N(NXT_GROUP_MOD), N(OFPT10_PORT_MOD),
    N(OFPT11_PORT_MOD), N(OFPT14_PORT_MOD), N(OFPT11_TABLE_MOD),
    N(OFPT14_TABLE_MOD), N(OFPT10_BARRIER_REQUEST),
    N(OFPT11_BARRIER_REQUEST), N(OFPT10_BARRIER_REPLY),
    N(OFPT11_BARRIER_REPLY), N(OFPT10_QUEUE_GET_CONFIG_REQUEST),
    N(OFPT11_QUEUE_GET_CONFIG_REQUEST), N(OFPT10_QUEUE_GET_CONFIG_REPLY),
    N(OFPT11_QUEUE_GET_CONFIG_REPLY), N(OFPT12_ROLE_REQUEST),
    N(NXT_ROLE_REQUEST), N(OFPT12_ROLE_REPLY), N(NXT_ROLE_REPLY),
    N(OFPT13_GET_ASYNC_REQUEST), N(OFPT14_GET_ASYNC_REQUEST),
    N(OFPT13_GET_ASYNC_REPLY), N(OFPT14_GET_ASYNC_REPLY),
    N(OFPT13_SET_ASYNC), N(NXT_SET_ASYNC_CONFIG), N(NXT_SET_ASYNC_CONFIG2),
    N(OFPT14_SET_ASYNC), N(OFPT13_METER_MOD), N(ONFT13_ROLE_STATUS), N(OFPT14_ROLE_STATUS),
    N(OFPT14_TABLE_STATUS), N(OFPT14_REQUESTFORWARD),
    N(ONFT13_REQUESTFORWARD), N(NXT_REQUESTFORWARD),
    N(OFPT14_BUNDLE_CONTROL), N(ONFT13_BUNDLE_CONTROL),
    N(OFPT14_BUNDLE_ADD_MESSAGE), N(ONFT13_BUNDLE_ADD_MESSAGE),
    N(OFPST_DESC_REQUEST), N(OFPST_DESC_REPLY), N(OFPST10_FLOW_REQUEST),
    N(OFPST11_FLOW_REQUEST), N(NXST_FLOW_REQUEST), N(OFPST10_FLOW_REPLY),
    N(OFPST11_FLOW_REPLY), N(OFPST13_FLOW_REPLY), N(NXST_FLOW_REPLY),
    N(OFPST10_AGGREGATE_REQUEST), N(OFPST11_AGGREGATE_REQUEST),
    N(NXST_AGGREGATE_REQUEST), N(OFPST_AGGREGATE_REPLY),
    N(OFPST15_AGGREGATE_REPLY),
    N(NXST_AGGREGATE_REPLY), N(OFPST_TABLE_REQUEST), N(OFPST10_TABLE_REPLY),
    N(OFPST11_TABLE_REPLY), N(OFPST12_TABLE_REPLY), N(OFPST13_TABLE_REPLY),
    N(OFPST10_PORT_REQUEST), N(OFPST11_PORT_REQUEST), N(OFPST10_PORT_REPLY),
    N(OFPST11_PORT_REPLY), N(OFPST13_PORT_REPLY), N(OFPST14_PORT_REPLY),
    N(OFPST10_QUEUE_REQUEST), N(OFPST11_QUEUE_REQUEST),
    N(OFPST10_QUEUE_REPLY), N(OFPST11_QUEUE_REPLY), N(OFPST13_QUEUE_REPLY),
    N(OFPST14_QUEUE_REPLY), N(OFPST14_QUEUE_DESC_REQUEST),
    N(OFPST14_QUEUE_DESC_REPLY), N(OFPST11_GROUP_REQUEST),
    N(NXST_GROUP_REQUEST),
    N(OFPST11_GROUP_REPLY), N(OFPST13_GROUP_REPLY), N(NXST_GROUP_REPLY),
    N(OFPST11_GROUP_DESC_REQUEST), N(OFPST15_GROUP_DESC_REQUEST),
    N(NXST_GROUP_DESC_REQUEST), N(OFPST11_GROUP_DESC_REPLY),
    N(NXST_GROUP_DESC_REPLY), N(OFPST12_GROUP_FEATURES_REQUEST),
    N(NXST_GROUP_FEATURES_REQUEST), N(OFPST12_GROUP_FEATURES_REPLY),
    N(NXST_GROUP_FEATURES_REPLY), N(OFPST13_METER_REQUEST),
    N(OFPST13_METER_REPLY), N(OFPST13_METER_CONFIG_REQUEST),
    N(OFPST13_METER_CONFIG_REPLY), N(OFPST13_METER_FEATURES_REQUEST),
    N(OFPST13_METER_FEATURES_REPLY), N(OFPST13_TABLE_FEATURES_REQUEST),
    N(OFPST13_TABLE_FEATURES_REPLY), N(OFPST14_TABLE_DESC_REQUEST),
    N(OFPST14_TABLE_DESC_REPLY), N(OFPST10_PORT_DESC_REQUEST),
    N(OFPST15_PORT_DESC_REQUEST), N(OFPST10_PORT_DESC_REPLY),
    N(OFPST11_PORT_DESC_REPLY), N(OFPST14_PORT_DESC_REPLY),
    N(OFPST14_FLOW_MONITOR_REQUEST), N(NXST_FLOW_MONITOR_REQUEST),
    N(OFPST14_FLOW_MONITOR_REPLY), N(NXST_FLOW_MONITOR_REPLY),
    N(ONFST13_FLOW_MONITOR_REQUEST), N(ONFST13_FLOW_MONITOR_REPLY),
    N(NXT_SET_FLOW_FORMAT), N(NXT_FLOW_MOD_TABLE_ID),
    N(NXT_SET_PACKET_IN_FORMAT), N(NXT_FLOW_AGE), N(NXT_SET_CONTROLLER_ID),
    N(NXT_FLOW_MONITOR_CANCEL), N(NXT_FLOW_MONITOR_PAUSED),
    N(NXT_FLOW_MONITOR_RESUMED), N(ONFT13_FLOW_MONITOR_CANCEL),
    N(ONFT13_FLOW_MONITOR_PAUSED), N(ONFT13_FLOW_MONITOR_RESUMED),
    N(NXT_RESUME), N(NXT_CT_FLUSH_ZONE), N(NXT_CT_FLUSH),
    N(NXT_TLV_TABLE_MOD), N(NXT_TLV_TABLE_REQUEST), N(NXT_TLV_TABLE_REPLY),
#undef N
};

static char *raw_names[OFPRAW_N_RAWS];

/* "OFPST13_TABLE_REPLY" -> "OFPST_TABLE reply". */
static char *
make_name(const char *enum_name, enum ofpraw_kind kind)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    const char *p = enum_name;
    while (*p && *p != '_') {
        if (*p < '0' || *p > '9') {
            ds_put_char(&s, *p);
        }
        p++;
    }
    ds_put_cstr(&s, p);
    if (kind == K_OFPST || kind == K_NXST || kind == K_ONFST) {
        char *str = ds_cstr(&s);
        size_t n = strlen(str);
        if (n > 8 && !strcmp(str + n - 8, "_REQUEST")) {
            ds_truncate(&s, n - 8);
            ds_put_cstr(&s, " request");
        } else if (n > 6 && !strcmp(str + n - 6, "_REPLY")) {
            ds_truncate(&s, n - 6);
            ds_put_cstr(&s, " reply");
        }
    }
    return ds_steal_cstr(&s);
}

const char *
ofpraw_get_name(enum ofpraw raw)
{
    ovs_assert(raw < OFPRAW_N_RAWS);
    char *name = __atomic_load_n(&raw_names[raw], __ATOMIC_ACQUIRE);
    if (!name) {
        char *new_name = make_name(raw_enum_names[raw], raws[raw].kind);
        char *expected = NULL;
        if (__atomic_compare_exchange_n(&raw_names[raw], &expected,
                                        new_name, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            name = new_name;
        } else {
            free(new_name);
            name = expected;
        }
    }
    return name;
}

enum ofptype
ofptype_from_ofpraw(enum ofpraw raw)
{
    return raws[raw].type;
}

static bool
version_in(const struct raw_info *info, uint8_t version)
{
    /* Only the messages every version shares (hello, error, echo) exist
     * in versions later than 1.5; anything else is unknown there, as in
     * 3.1 ("unknown OpenFlow message (version 7, type 5)"). */
    if (version > OFP15_VERSION && info->min_version != ANYV) {
        return false;
    }
    return version >= info->min_version && version <= info->max_version;
}

bool
ofpraw_is_valid_in(enum ofpraw raw, enum ofp_version version)
{
    return version_in(&raws[raw], version);
}

static uint8_t
stats_request_type(uint8_t version)
{
    return version == OFP10_VERSION ? OFPT10_STATS_REQUEST
                                    : OFPT11_STATS_REQUEST;
}

static uint8_t
stats_reply_type(uint8_t version)
{
    return version == OFP10_VERSION ? OFPT10_STATS_REPLY
                                    : OFPT11_STATS_REPLY;
}

size_t
ofpraw_header_size(enum ofpraw raw, enum ofp_version version)
{
    switch (raws[raw].kind) {
    case K_OFPT:
        return sizeof(struct ofp_header);
    case K_NXT:
    case K_ONFT:
        return sizeof(struct ofp_vendor_header);
    case K_OFPST:
        return (version == OFP10_VERSION ? sizeof(struct ofp10_stats_msg)
                : sizeof(struct ofp11_stats_msg));
    case K_NXST:
    case K_ONFST:
        return (version == OFP10_VERSION ? sizeof(struct nx10_stats_msg)
                : sizeof(struct ofp11_vendor_stats_msg));
    }
    abort();
}

/* What the header says: the fields that pick a raw form. */
struct header_key {
    enum ofpraw_kind kind;
    bool request;
    uint16_t number;
    uint32_t vendor;
    size_t hdr_len;
};

/* Reads the header fields of the LENGTH bytes at OH into KEY. */
static enum ofperr
read_header(const struct ofp_header *oh, size_t length,
            struct header_key *key)
{
    uint8_t version = oh->version;
    memset(key, 0, sizeof *key);

    if (length < sizeof *oh) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    key->kind = K_OFPT;
    key->number = oh->type;
    key->hdr_len = sizeof *oh;

    if (oh->type == OFPT_VENDOR) {
        if (length < sizeof(struct ofp_vendor_header)) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        const struct ofp_vendor_header *ovh = (const void *) oh;
        key->vendor = ntohl(ovh->vendor);
        key->hdr_len = sizeof *ovh;
        if (key->vendor == NX_VENDOR_ID) {
            key->kind = K_NXT;
        } else if (key->vendor == ONF_VENDOR_ID) {
            key->kind = K_ONFT;
        } else {
            VLOG_WARN_RL(&rl, "OpenFlow message has unknown vendor %#"PRIx32,
                         key->vendor);
            return OFPERR_OFPBRC_BAD_VENDOR;
        }
        uint32_t subtype = ntohl(ovh->subtype);
        if (subtype > UINT16_MAX) {
            return OFPERR_OFPBRC_BAD_SUBTYPE;
        }
        key->number = subtype;
        return 0;
    }

    if (version >= OFP10_VERSION && version <= OFP15_VERSION
        && (oh->type == stats_request_type(version)
            || oh->type == stats_reply_type(version))) {
        size_t stats_len = (version == OFP10_VERSION
                            ? sizeof(struct ofp10_stats_msg)
                            : sizeof(struct ofp11_stats_msg));
        if (length < stats_len) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        const struct ofp10_stats_msg *osm = (const void *) oh;
        key->kind = K_OFPST;
        key->request = oh->type == stats_request_type(version);
        key->number = ntohs(osm->type);
        key->hdr_len = stats_len;
        if (key->number == OFPST_VENDOR) {
            size_t vlen = (version == OFP10_VERSION
                           ? sizeof(struct nx10_stats_msg)
                           : sizeof(struct ofp11_vendor_stats_msg));
            if (length < vlen) {
                return OFPERR_OFPBRC_BAD_LEN;
            }
            const ovs_be32 *vp = (const void *) ((const char *) oh
                                                 + stats_len);
            key->vendor = ntohl(vp[0]);
            uint32_t subtype = ntohl(vp[1]);
            key->hdr_len = vlen;
            if (key->vendor != NX_VENDOR_ID
                && key->vendor != ONF_VENDOR_ID) {
                VLOG_WARN_RL(&rl, "OpenFlow message has unknown vendor %#"
                             PRIx32, key->vendor);
                return OFPERR_OFPBRC_BAD_VENDOR;
            }
            if (subtype > UINT16_MAX) {
                return OFPERR_OFPBRC_BAD_SUBTYPE;
            }
            key->kind = key->vendor == NX_VENDOR_ID ? K_NXST : K_ONFST;
            key->number = subtype;
        }
    }
    return 0;
}

/* The raw form matching KEY in VERSION, or an error saying which part of
 * the header is unknown. */
static enum ofperr
find_raw(const struct header_key *key, const struct ofp_header *oh,
         enum ofpraw *rawp)
{
    for (size_t i = 0; i < OFPRAW_N_RAWS; i++) {
        const struct raw_info *info = &raws[i];
        if (info->kind == key->kind && info->number == key->number
            && (info->kind != K_OFPST && info->kind != K_NXST
                && info->kind != K_ONFST
                ? true : info->request == key->request)
            && version_in(info, oh->version)) {
            *rawp = i;
            return 0;
        }
    }

    switch (key->kind) {
    case K_OFPT:
        VLOG_WARN_RL(&rl, "unknown OpenFlow message (version %"PRIu8
                     ", type %"PRIu8")", oh->version, oh->type);
        return OFPERR_OFPBRC_BAD_TYPE;
    case K_NXT:
    case K_ONFT:
        VLOG_WARN_RL(&rl, "unknown OpenFlow message (version %"PRIu8
                     ", type %"PRIu8", vendor %#"PRIx32", subtype %"PRIu16
                     ")", oh->version, oh->type, key->vendor, key->number);
        return OFPERR_OFPBRC_BAD_SUBTYPE;
    case K_OFPST:
        VLOG_WARN_RL(&rl, "unknown OpenFlow message (version %"PRIu8
                     ", type %"PRIu8", stat %"PRIu16")",
                     oh->version, oh->type, key->number);
        return OFPERR_OFPBRC_BAD_STAT;
    case K_NXST:
    case K_ONFST:
        VLOG_WARN_RL(&rl, "unknown OpenFlow message (version %"PRIu8
                     ", type %"PRIu8", stat 65535, vendor %#"PRIx32
                     ", subtype %"PRIu16")", oh->version, oh->type,
                     key->vendor, key->number);
        return OFPERR_OFPBRC_BAD_SUBTYPE;
    }
    abort();
}

static bool
body_len_ok(const struct raw_info *info, size_t body)
{
    if (body < info->min_body) {
        return false;
    }
    size_t extra = body - info->min_body;
    return (info->unit == 0 ? extra == 0
            : info->unit == 1 ? true
            : extra % info->unit == 0);
}

static void
warn_bad_length(enum ofpraw raw, const struct raw_info *info,
                size_t len, size_t hdr_len)
{
    size_t min = hdr_len + info->min_body;
    if (info->unit == 0) {
        VLOG_WARN_RL(&rl, "received %s with incorrect length %zu"
                     " (expected length %zu)",
                     ofpraw_get_name(raw), len, min);
    } else if (info->unit == 1) {
        VLOG_WARN_RL(&rl, "received %s with incorrect length %zu"
                     " (expected at least %zu)",
                     ofpraw_get_name(raw), len, min);
    } else {
        VLOG_WARN_RL(&rl, "received %s with incorrect length %zu"
                     " (must be exactly %zu bytes or longer by an "
                     "integer multiple of %u bytes)",
                     ofpraw_get_name(raw), len, min, info->unit);
    }
}

static enum ofperr
decode__(enum ofpraw *rawp, const struct ofp_header *oh, size_t avail,
         bool check_body)
{
    struct header_key key;
    enum ofperr error = read_header(oh, avail, &key);
    if (error) {
        return error;
    }
    enum ofpraw raw;
    error = find_raw(&key, oh, &raw);
    if (error) {
        return error;
    }
    if (check_body) {
        const struct raw_info *info = &raws[raw];
        size_t len = ntohs(oh->length);
        if (len < key.hdr_len || !body_len_ok(info, len - key.hdr_len)) {
            warn_bad_length(raw, info, len, key.hdr_len);
            return OFPERR_OFPBRC_BAD_LEN;
        }
    }
    *rawp = raw;
    return 0;
}

enum ofperr
ofpraw_decode(enum ofpraw *rawp, const struct ofp_header *oh)
{
    return decode__(rawp, oh, ntohs(oh->length), true);
}

enum ofperr
ofpraw_decode_partial(enum ofpraw *rawp, const struct ofp_header *oh,
                      size_t length)
{
    return decode__(rawp, oh, MIN(length, ntohs(oh->length)), false);
}

enum ofperr
ofptype_decode(enum ofptype *typep, const struct ofp_header *oh)
{
    enum ofpraw raw;
    enum ofperr error = ofpraw_decode(&raw, oh);
    if (!error) {
        *typep = ofptype_from_ofpraw(raw);
    }
    return error;
}

enum ofperr
ofpraw_pull(enum ofpraw *rawp, struct ofpbuf *b)
{
    if (b->size < sizeof(struct ofp_header)) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    const struct ofp_header *oh = b->data;
    if (ntohs(oh->length) > b->size) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    enum ofpraw raw;
    enum ofperr error = ofpraw_decode(&raw, oh);
    if (error) {
        return error;
    }
    b->header = b->data;
    ofpbuf_pull(b, ofpraw_header_size(raw, oh->version));
    b->msg = b->data;
    *rawp = raw;
    return 0;
}

enum ofpraw
ofpraw_pull_assert(struct ofpbuf *b)
{
    enum ofpraw raw;
    ovs_assert(!ofpraw_pull(&raw, b));
    return raw;
}

enum ofpraw
ofpraw_stats_request_to_reply(enum ofpraw raw, enum ofp_version version)
{
    const struct raw_info *req = &raws[raw];
    ovs_assert(req->request
               && (req->kind == K_OFPST || req->kind == K_NXST
                   || req->kind == K_ONFST));
    for (size_t i = 0; i < OFPRAW_N_RAWS; i++) {
        const struct raw_info *info = &raws[i];
        if (info->kind == req->kind && !info->request
            && info->number == req->number && version_in(info, version)) {
            return i;
        }
    }
    abort();
}

/* Encoding. */

static atomic_uint next_xid = 1;

ovs_be32
alloc_xid(void)
{
    return htonl(atomic_fetch_add(&next_xid, 1));
}

void
set_next_xid(uint32_t next)
{
    atomic_store(&next_xid, next);
}

void
ofpraw_put_xid(enum ofpraw raw, enum ofp_version version, ovs_be32 xid,
               struct ofpbuf *b)
{
    const struct raw_info *info = &raws[raw];
    ovs_assert(version_in(info, version) || info->min_version == ANYV);
    size_t hdr_len = ofpraw_header_size(raw, version);

    ofpbuf_prealloc_tailroom(b, hdr_len + info->min_body);
    struct ofp_header *oh = ofpbuf_put_zeros(b, hdr_len);
    b->header = oh;
    oh->version = version;
    oh->xid = xid;

    switch (info->kind) {
    case K_OFPT:
        oh->type = info->number;
        break;
    case K_NXT:
    case K_ONFT: {
        struct ofp_vendor_header *ovh = (void *) oh;
        oh->type = OFPT_VENDOR;
        ovh->vendor = htonl(info->kind == K_NXT ? NX_VENDOR_ID
                            : ONF_VENDOR_ID);
        ovh->subtype = htonl(info->number);
        break;
    }
    case K_OFPST:
    case K_NXST:
    case K_ONFST: {
        struct ofp10_stats_msg *osm = (void *) oh;
        oh->type = (info->request ? stats_request_type(version)
                    : stats_reply_type(version));
        if (info->kind == K_OFPST) {
            osm->type = htons(info->number);
        } else {
            osm->type = htons(OFPST_VENDOR);
            size_t stats_len = (version == OFP10_VERSION
                                ? sizeof(struct ofp10_stats_msg)
                                : sizeof(struct ofp11_stats_msg));
            ovs_be32 *vp = (void *) ((char *) oh + stats_len);
            vp[0] = htonl(info->kind == K_NXST ? NX_VENDOR_ID
                          : ONF_VENDOR_ID);
            vp[1] = htonl(info->number);
        }
        break;
    }
    }

    b->msg = ofpbuf_put_zeros(b, info->min_body);
    /* put_zeros may have moved the data; HEADER follows automatically. */
    ofpmsg_update_length(b);
}

void
ofpraw_put(enum ofpraw raw, enum ofp_version version, struct ofpbuf *b)
{
    ofpraw_put_xid(raw, version, alloc_xid(), b);
}

void
ofpraw_put_reply(enum ofpraw raw, const struct ofp_header *req,
                 struct ofpbuf *b)
{
    ofpraw_put_xid(raw, req->version, req->xid, b);
}

struct ofpbuf *
ofpraw_alloc_xid(enum ofpraw raw, enum ofp_version version, ovs_be32 xid,
                 size_t extra_tailroom)
{
    struct ofpbuf *b = ofpbuf_new(ofpraw_header_size(raw, version)
                                  + raws[raw].min_body + extra_tailroom);
    ofpraw_put_xid(raw, version, xid, b);
    return b;
}

struct ofpbuf *
ofpraw_alloc(enum ofpraw raw, enum ofp_version version,
             size_t extra_tailroom)
{
    return ofpraw_alloc_xid(raw, version, alloc_xid(), extra_tailroom);
}

struct ofpbuf *
ofpraw_alloc_reply(enum ofpraw raw, const struct ofp_header *req,
                   size_t extra_tailroom)
{
    return ofpraw_alloc_xid(raw, req->version, req->xid, extra_tailroom);
}

struct ofpbuf *
ofpraw_alloc_stats_reply(const struct ofp_header *request,
                         size_t extra_tailroom)
{
    enum ofpraw raw;
    ovs_assert(!ofpraw_decode_partial(&raw, request,
                                      ntohs(request->length)));
    enum ofpraw reply = ofpraw_stats_request_to_reply(raw, request->version);
    return ofpraw_alloc_reply(reply, request, extra_tailroom);
}

void
ofpmsg_update_length(struct ofpbuf *b)
{
    struct ofp_header *oh = b->header;
    size_t len = (char *) ofpbuf_tail(b) - (char *) oh;
    oh->length = htons(MIN(len, UINT16_MAX));
}

const void *
ofpmsg_body(const struct ofp_header *oh)
{
    enum ofpraw raw;
    ovs_assert(!ofpraw_decode_partial(&raw, oh, ntohs(oh->length)));
    return (const char *) oh + ofpraw_header_size(raw, oh->version);
}

static bool
is_stats_type(const struct ofp_header *oh, bool request)
{
    if (oh->version < OFP10_VERSION || oh->version > OFP15_VERSION) {
        return false;
    }
    return oh->type == (request ? stats_request_type(oh->version)
                        : stats_reply_type(oh->version));
}

bool
ofpmsg_is_stat_request(const struct ofp_header *oh)
{
    return is_stats_type(oh, true);
}

bool
ofpmsg_is_stat_reply(const struct ofp_header *oh)
{
    return is_stats_type(oh, false);
}

uint16_t
ofpmp_flags(const struct ofp_header *oh)
{
    const struct ofp10_stats_msg *osm = (const void *) oh;
    return ntohs(osm->flags);
}

bool
ofpmp_more(const struct ofp_header *oh)
{
    return (ofpmp_flags(oh) & OFPSF_REPLY_MORE) != 0;
}

void
ofpmp_set_more(struct ofp_header *oh, bool more)
{
    struct ofp10_stats_msg *osm = (void *) oh;
    uint16_t flags = ntohs(osm->flags);
    flags = more ? flags | OFPSF_REPLY_MORE : flags & ~OFPSF_REPLY_MORE;
    osm->flags = htons(flags);
}

/* Multipart replies. */

void
ofpmp_init(struct ovs_list *replies, const struct ofp_header *request)
{
    ovs_list_init(replies);
    struct ofpbuf *msg = ofpraw_alloc_stats_reply(request, 1000);
    ovs_list_push_back(replies, &msg->list_node);
}

static struct ofpbuf *
last_part(struct ovs_list *replies)
{
    return ofpbuf_from_list(ovs_list_back(replies));
}

/* Starts a new part after PREV, with PREV's raw form and xid. */
static struct ofpbuf *
new_part(struct ovs_list *replies, struct ofpbuf *prev)
{
    const struct ofp_header *oh = prev->header;
    enum ofpraw raw;
    ovs_assert(!ofpraw_decode_partial(&raw, oh, ntohs(oh->length)));
    ofpmp_set_more(prev->header, true);
    ofpmsg_update_length(prev);
    struct ofpbuf *next = ofpraw_alloc_xid(raw, oh->version, oh->xid, 1000);
    ovs_list_push_back(replies, &next->list_node);
    return next;
}

struct ofpbuf *
ofpmp_reserve(struct ovs_list *replies, size_t len)
{
    struct ofpbuf *msg = last_part(replies);
    if (msg->size + len <= UINT16_MAX) {
        ofpbuf_prealloc_tailroom(msg, len);
        return msg;
    }
    struct ofpbuf *next = new_part(replies, msg);
    ofpbuf_prealloc_tailroom(next, len);
    return next;
}

void *
ofpmp_append(struct ovs_list *replies, size_t len)
{
    struct ofpbuf *msg = ofpmp_reserve(replies, len);
    void *p = ofpbuf_put_zeros(msg, len);
    ofpmsg_update_length(msg);
    return p;
}

void
ofpmp_postappend(struct ovs_list *replies, size_t start_ofs)
{
    struct ofpbuf *msg = last_part(replies);
    ovs_assert(start_ofs <= msg->size);
    if (msg->size > UINT16_MAX) {
        size_t len = msg->size - start_ofs;
        struct ofpbuf *next = new_part(replies, msg);
        ofpbuf_put(next, (char *) msg->data + start_ofs, len);
        msg->size = start_ofs;
        ofpmsg_update_length(next);
    }
    ofpmsg_update_length(msg);
}

enum ofp_version
ofpmp_version(struct ovs_list *replies)
{
    const struct ofp_header *oh = last_part(replies)->data;
    return oh->version;
}

enum ofpraw
ofpmp_decode_raw(struct ovs_list *replies)
{
    const struct ofp_header *oh = last_part(replies)->data;
    enum ofpraw raw;
    ovs_assert(!ofpraw_decode_partial(&raw, oh, ntohs(oh->length)));
    return raw;
}
