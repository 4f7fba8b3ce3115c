/* ofp-errors: the tables and the OFPT_ERROR codec.  See ofp-errors.h. */
#include <config.h>

#include "ofp-errors.h"

#include <errno.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofpbuf.h"
#include "packets.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_errors);

/* How one error is numbered in one version.  VENDOR 0 is a standard error;
 * otherwise 1.0 and 1.1 carry it in Nicira's vendor-error wrapper and 1.2+
 * as an experimenter error whose exp_code is TYPE (CODE unused). */
struct ofperr_numbers {
    bool valid;
    uint32_t vendor;
    uint16_t type;
    uint16_t code;
};

struct ofperr_info {
    const char *name;
    struct ofperr_numbers by_version[6];   /* [0] = OpenFlow 1.0. */
};

#define NX NX_VENDOR_ID
#define ONF ONF_VENDOR_ID
#define E(VENDOR, TYPE, CODE) { true, VENDOR, TYPE, CODE }
#define NONE { false, 0, 0, 0 }

/* In the order of enum ofperr. */
static const struct ofperr_info errors[] = {
    { "OFPHFC_INCOMPATIBLE",
      { E(0, 0, 0), E(0, 0, 0), E(0, 0, 0),
        E(0, 0, 0), E(0, 0, 0), E(0, 0, 0) } },
    { "OFPHFC_EPERM",
      { E(0, 0, 1), E(0, 0, 1), E(0, 0, 1),
        E(0, 0, 1), E(0, 0, 1), E(0, 0, 1) } },
    { "OFPBRC_BAD_VERSION",
      { E(0, 1, 0), E(0, 1, 0), E(0, 1, 0),
        E(0, 1, 0), E(0, 1, 0), E(0, 1, 0) } },
    { "OFPBRC_BAD_TYPE",
      { E(0, 1, 1), E(0, 1, 1), E(0, 1, 1),
        E(0, 1, 1), E(0, 1, 1), E(0, 1, 1) } },
    { "OFPBRC_BAD_STAT",
      { E(0, 1, 2), E(0, 1, 2), E(0, 1, 2),
        E(0, 1, 2), E(0, 1, 2), E(0, 1, 2) } },
    { "OFPBRC_BAD_VENDOR",
      { E(0, 1, 3), E(0, 1, 3), E(0, 1, 3),
        E(0, 1, 3), E(0, 1, 3), E(0, 1, 3) } },
    { "OFPBRC_BAD_SUBTYPE",
      { E(0, 1, 4), E(0, 1, 4), E(0, 1, 4),
        E(0, 1, 4), E(0, 1, 4), E(0, 1, 4) } },
    { "OFPBRC_EPERM",
      { E(0, 1, 5), E(0, 1, 5), E(0, 1, 5),
        E(0, 1, 5), E(0, 1, 5), E(0, 1, 5) } },
    { "OFPBRC_BAD_LEN",
      { E(0, 1, 6), E(0, 1, 6), E(0, 1, 6),
        E(0, 1, 6), E(0, 1, 6), E(0, 1, 6) } },
    { "OFPBRC_BUFFER_EMPTY",
      { E(0, 1, 7), E(0, 1, 7), E(0, 1, 7),
        E(0, 1, 7), E(0, 1, 7), E(0, 1, 7) } },
    { "OFPBRC_BUFFER_UNKNOWN",
      { E(0, 1, 8), E(0, 1, 8), E(0, 1, 8),
        E(0, 1, 8), E(0, 1, 8), E(0, 1, 8) } },
    { "OFPBRC_BAD_TABLE_ID",
      { E(NX, 1, 512), E(0, 1, 9), E(0, 1, 9),
        E(0, 1, 9), E(0, 1, 9), E(0, 1, 9) } },
    { "OFPBRC_IS_SECONDARY",
      { E(0, 1, 5), E(0, 1, 5), E(0, 1, 10),
        E(0, 1, 10), E(0, 1, 10), E(0, 1, 10) } },
    { "OFPBRC_BAD_PORT",
      { E(NX, 1, 514), E(NX, 1, 514), E(0, 1, 11),
        E(0, 1, 11), E(0, 1, 11), E(0, 1, 11) } },
    { "OFPBRC_BAD_PACKET",
      { NONE, NONE, E(0, 1, 12),
        E(0, 1, 12), E(0, 1, 12), E(0, 1, 12) } },
    { "OFPBRC_MULTIPART_BUFFER_OVERFLOW",
      { NONE, NONE, NONE,
        E(0, 1, 13), E(0, 1, 13), E(0, 1, 13) } },
    { "OFPBRC_MULTIPART_REQUEST_TIMEOUT",
      { NONE, NONE, NONE,
        E(ONF, 2640, 0), E(0, 1, 14), E(0, 1, 14) } },
    { "OFPBRC_MULTIPART_REPLY_TIMEOUT",
      { NONE, NONE, NONE,
        E(ONF, 2641, 0), E(0, 1, 15), E(0, 1, 15) } },
    { "OFPBRC_MULTIPART_BAD_SCHED",
      { NONE, NONE, NONE,
        NONE, NONE, E(0, 1, 16) } },
    { "OFPBRC_PIPELINE_FIELDS_ONLY",
      { NONE, NONE, NONE,
        NONE, NONE, E(0, 1, 17) } },
    { "OFPBRC_UNKNOWN",
      { NONE, NONE, NONE,
        NONE, NONE, E(0, 1, 18) } },
    { "NXBRC_NXM_INVALID",
      { E(NX, 1, 256), E(NX, 1, 256), E(NX, 2, 0),
        E(NX, 2, 0), E(NX, 2, 0), E(NX, 2, 0) } },
    { "NXBRC_NXM_BAD_TYPE",
      { E(NX, 1, 257), E(NX, 1, 257), E(NX, 3, 0),
        E(NX, 3, 0), E(NX, 3, 0), E(NX, 3, 0) } },
    { "NXBRC_MUST_BE_ZERO",
      { E(NX, 1, 515), E(NX, 1, 515), E(NX, 4, 0),
        E(NX, 4, 0), E(NX, 4, 0), E(NX, 4, 0) } },
    { "NXBRC_BAD_REASON",
      { E(NX, 1, 516), E(NX, 1, 516), E(NX, 5, 0),
        E(NX, 5, 0), E(NX, 5, 0), E(NX, 5, 0) } },
    { "NXBRC_FM_BAD_EVENT",
      { E(NX, 1, 520), E(NX, 1, 520), E(NX, 9, 0),
        E(NX, 9, 0), E(NX, 9, 0), E(NX, 9, 0) } },
    { "NXBRC_UNENCODABLE_ERROR",
      { E(NX, 1, 521), E(NX, 1, 521), E(NX, 10, 0),
        E(NX, 10, 0), E(NX, 10, 0), E(NX, 10, 0) } },
    { "OFPBAC_BAD_TYPE",
      { E(0, 2, 0), E(0, 2, 0), E(0, 2, 0),
        E(0, 2, 0), E(0, 2, 0), E(0, 2, 0) } },
    { "OFPBAC_BAD_LEN",
      { E(0, 2, 1), E(0, 2, 1), E(0, 2, 1),
        E(0, 2, 1), E(0, 2, 1), E(0, 2, 1) } },
    { "OFPBAC_BAD_VENDOR",
      { E(0, 2, 2), E(0, 2, 2), E(0, 2, 2),
        E(0, 2, 2), E(0, 2, 2), E(0, 2, 2) } },
    { "OFPBAC_BAD_VENDOR_TYPE",
      { E(0, 2, 3), E(0, 2, 3), E(0, 2, 3),
        E(0, 2, 3), E(0, 2, 3), E(0, 2, 3) } },
    { "OFPBAC_BAD_OUT_PORT",
      { E(0, 2, 4), E(0, 2, 4), E(0, 2, 4),
        E(0, 2, 4), E(0, 2, 4), E(0, 2, 4) } },
    { "OFPBAC_BAD_ARGUMENT",
      { E(0, 2, 5), E(0, 2, 5), E(0, 2, 5),
        E(0, 2, 5), E(0, 2, 5), E(0, 2, 5) } },
    { "OFPBAC_EPERM",
      { E(0, 2, 6), E(0, 2, 6), E(0, 2, 6),
        E(0, 2, 6), E(0, 2, 6), E(0, 2, 6) } },
    { "OFPBAC_TOO_MANY",
      { E(0, 2, 7), E(0, 2, 7), E(0, 2, 7),
        E(0, 2, 7), E(0, 2, 7), E(0, 2, 7) } },
    { "OFPBAC_BAD_QUEUE",
      { E(0, 2, 8), E(0, 2, 8), E(0, 2, 8),
        E(0, 2, 8), E(0, 2, 8), E(0, 2, 8) } },
    { "OFPBAC_BAD_OUT_GROUP",
      { E(NX, 2, 9), E(0, 2, 9), E(0, 2, 9),
        E(0, 2, 9), E(0, 2, 9), E(0, 2, 9) } },
    { "OFPBAC_MATCH_INCONSISTENT",
      { E(NX, 1, 522), E(0, 2, 10), E(0, 2, 10),
        E(0, 2, 10), E(0, 2, 10), E(0, 2, 10) } },
    { "OFPBAC_UNSUPPORTED_ORDER",
      { NONE, E(0, 2, 11), E(0, 2, 11),
        E(0, 2, 11), E(0, 2, 11), E(0, 2, 11) } },
    { "OFPBAC_BAD_TAG",
      { NONE, E(0, 2, 12), E(0, 2, 12),
        E(0, 2, 12), E(0, 2, 12), E(0, 2, 12) } },
    { "OFPBAC_BAD_SET_TYPE",
      { E(NX, 1, 523), E(NX, 1, 523), E(0, 2, 13),
        E(0, 2, 13), E(0, 2, 13), E(0, 2, 13) } },
    { "OFPBAC_BAD_SET_LEN",
      { E(NX, 1, 524), E(NX, 1, 524), E(0, 2, 14),
        E(0, 2, 14), E(0, 2, 14), E(0, 2, 14) } },
    { "OFPBAC_BAD_SET_ARGUMENT",
      { E(NX, 1, 525), E(NX, 1, 525), E(0, 2, 15),
        E(0, 2, 15), E(0, 2, 15), E(0, 2, 15) } },
    { "OFPBAC_BAD_SET_MASK",
      { NONE, NONE, NONE,
        E(ONF, 4250, 0), E(ONF, 4250, 0), E(0, 2, 16) } },
    { "OFPBAC_BAD_METER",
      { NONE, NONE, NONE,
        NONE, NONE, E(0, 2, 17) } },
    { "NXBAC_MUST_BE_ZERO",
      { E(NX, 2, 256), E(NX, 2, 256), E(NX, 11, 0),
        E(NX, 11, 0), E(NX, 11, 0), E(NX, 11, 0) } },
    { "NXBAC_BAD_CONJUNCTION",
      { E(NX, 2, 526), E(NX, 2, 526), E(NX, 15, 0),
        E(NX, 15, 0), E(NX, 15, 0), E(NX, 15, 0) } },
    { "NXBAC_BAD_HEADER_TYPE",
      { NONE, NONE, NONE,
        E(NX, 39, 0), E(NX, 39, 0), E(NX, 39, 0) } },
    { "NXBAC_UNKNOWN_ED_PROP",
      { NONE, NONE, NONE,
        E(NX, 40, 0), E(NX, 40, 0), E(NX, 40, 0) } },
    { "NXBAC_BAD_ED_PROP",
      { NONE, NONE, NONE,
        E(NX, 41, 0), E(NX, 41, 0), E(NX, 41, 0) } },
    { "NXBAC_CT_DATAPATH_SUPPORT",
      { E(NX, 1, 265), E(NX, 1, 265), E(NX, 42, 0),
        E(NX, 42, 0), E(NX, 42, 0), E(NX, 42, 0) } },
    { "OFPBIC_UNKNOWN_INST",
      { NONE, E(0, 3, 0), E(0, 3, 0),
        E(0, 3, 0), E(0, 3, 0), E(0, 3, 0) } },
    { "OFPBIC_UNSUP_INST",
      { E(NX, 2, 257), E(0, 3, 1), E(0, 3, 1),
        E(0, 3, 1), E(0, 3, 1), E(0, 3, 1) } },
    { "OFPBIC_BAD_TABLE_ID",
      { NONE, E(0, 3, 2), E(0, 3, 2),
        E(0, 3, 2), E(0, 3, 2), E(0, 3, 2) } },
    { "OFPBIC_UNSUP_METADATA",
      { NONE, E(0, 3, 3), E(0, 3, 3),
        E(0, 3, 3), E(0, 3, 3), E(0, 3, 3) } },
    { "OFPBIC_UNSUP_METADATA_MASK",
      { NONE, E(0, 3, 4), E(0, 3, 4),
        E(0, 3, 4), E(0, 3, 4), E(0, 3, 4) } },
    { "OFPBIC_BAD_EXPERIMENTER",
      { NONE, E(0, 3, 5), E(0, 3, 5),
        E(0, 3, 5), E(0, 3, 5), E(0, 3, 5) } },
    { "OFPBIC_BAD_EXP_TYPE",
      { NONE, E(0, 3, 5), E(0, 3, 6),
        E(0, 3, 6), E(0, 3, 6), E(0, 3, 6) } },
    { "OFPBIC_BAD_LEN",
      { NONE, NONE, E(0, 3, 7),
        E(0, 3, 7), E(0, 3, 7), E(0, 3, 7) } },
    { "OFPBIC_EPERM",
      { NONE, NONE, E(0, 3, 8),
        E(0, 3, 8), E(0, 3, 8), E(0, 3, 8) } },
    { "OFPBIC_DUP_INST",
      { NONE, E(NX, 3, 256), E(ONF, 2600, 0),
        E(ONF, 2600, 0), E(0, 3, 9), E(0, 3, 9) } },
    { "OFPBMC_BAD_TYPE",
      { NONE, E(0, 4, 0), E(0, 4, 0),
        E(0, 4, 0), E(0, 4, 0), E(0, 4, 0) } },
    { "OFPBMC_BAD_LEN",
      { NONE, E(0, 4, 1), E(0, 4, 1),
        E(0, 4, 1), E(0, 4, 1), E(0, 4, 1) } },
    { "OFPBMC_BAD_TAG",
      { NONE, E(0, 4, 2), E(0, 4, 2),
        E(0, 4, 2), E(0, 4, 2), E(0, 4, 2) } },
    { "OFPBMC_BAD_DL_ADDR_MASK",
      { NONE, E(0, 4, 3), E(0, 4, 3),
        E(0, 4, 3), E(0, 4, 3), E(0, 4, 3) } },
    { "OFPBMC_BAD_NW_ADDR_MASK",
      { NONE, E(0, 4, 4), E(0, 4, 4),
        E(0, 4, 4), E(0, 4, 4), E(0, 4, 4) } },
    { "OFPBMC_BAD_WILDCARDS",
      { E(NX, 1, 262), E(0, 4, 5), E(0, 4, 5),
        E(0, 4, 5), E(0, 4, 5), E(0, 4, 5) } },
    { "OFPBMC_BAD_FIELD",
      { E(NX, 0, 263), E(0, 4, 6), E(0, 4, 6),
        E(0, 4, 6), E(0, 4, 6), E(0, 4, 6) } },
    { "OFPBMC_BAD_VALUE",
      { E(NX, 1, 258), E(0, 4, 7), E(0, 4, 7),
        E(0, 4, 7), E(0, 4, 7), E(0, 4, 7) } },
    { "OFPBMC_BAD_MASK",
      { E(NX, 1, 259), E(NX, 1, 259), E(0, 4, 8),
        E(0, 4, 8), E(0, 4, 8), E(0, 4, 8) } },
    { "OFPBMC_BAD_PREREQ",
      { E(NX, 1, 260), E(NX, 1, 260), E(0, 4, 9),
        E(0, 4, 9), E(0, 4, 9), E(0, 4, 9) } },
    { "OFPBMC_DUP_FIELD",
      { E(NX, 1, 261), E(NX, 1, 261), E(0, 4, 10),
        E(0, 4, 10), E(0, 4, 10), E(0, 4, 10) } },
    { "OFPBMC_EPERM",
      { NONE, NONE, E(0, 4, 11),
        E(0, 4, 11), E(0, 4, 11), E(0, 4, 11) } },
    { "NXBMC_CT_DATAPATH_SUPPORT",
      { E(NX, 1, 264), E(NX, 1, 264), E(NX, 43, 0),
        E(NX, 43, 0), E(NX, 43, 0), E(NX, 43, 0) } },
    { "OFPFMFC_BAD_EMERG_TIMEOUT",
      { E(0, 3, 3), NONE, NONE,
        NONE, NONE, NONE } },
    { "OFPFMFC_UNSUPPORTED",
      { E(0, 3, 5), NONE, NONE,
        NONE, NONE, NONE } },
    { "OFPFMFC_UNKNOWN",
      { NONE, E(0, 5, 0), E(0, 5, 0),
        E(0, 5, 0), E(0, 5, 0), E(0, 5, 0) } },
    { "OFPFMFC_TABLE_FULL",
      { E(0, 3, 0), E(0, 5, 1), E(0, 5, 1),
        E(0, 5, 1), E(0, 5, 1), E(0, 5, 1) } },
    { "OFPFMFC_BAD_TABLE_ID",
      { NONE, E(0, 5, 2), E(0, 5, 2),
        E(0, 5, 2), E(0, 5, 2), E(0, 5, 2) } },
    { "OFPFMFC_OVERLAP",
      { E(0, 3, 1), E(0, 5, 3), E(0, 5, 3),
        E(0, 5, 3), E(0, 5, 3), E(0, 5, 3) } },
    { "OFPFMFC_EPERM",
      { E(0, 3, 2), E(0, 5, 4), E(0, 5, 4),
        E(0, 5, 4), E(0, 5, 4), E(0, 5, 4) } },
    { "OFPFMFC_BAD_TIMEOUT",
      { NONE, E(0, 5, 5), E(0, 5, 5),
        E(0, 5, 5), E(0, 5, 5), E(0, 5, 5) } },
    { "OFPFMFC_BAD_COMMAND",
      { E(0, 3, 4), E(0, 5, 6), E(0, 5, 6),
        E(0, 5, 6), E(0, 5, 6), E(0, 5, 6) } },
    { "OFPFMFC_BAD_FLAGS",
      { E(NX, 3, 258), E(NX, 5, 258), E(0, 5, 7),
        E(0, 5, 7), E(0, 5, 7), E(0, 5, 7) } },
    { "OFPFMFC_CANT_SYNC",
      { NONE, NONE, NONE,
        NONE, E(0, 5, 8), E(0, 5, 8) } },
    { "OFPFMFC_BAD_PRIORITY",
      { NONE, NONE, NONE,
        E(ONF, 2360, 0), E(0, 5, 9), E(0, 5, 9) } },
    { "OFPFMFC_IS_SYNC",
      { NONE, NONE, NONE,
        NONE, E(0, 5, 10), E(0, 5, 10) } },
    { "NXFMFC_HARDWARE",
      { E(NX, 5, 256), E(NX, 5, 256), E(NX, 12, 0),
        E(NX, 12, 0), E(NX, 12, 0), E(NX, 12, 0) } },
    { "NXFMFC_BAD_TABLE_ID",
      { E(NX, 5, 257), E(NX, 5, 257), E(NX, 13, 0),
        E(NX, 13, 0), E(NX, 13, 0), E(NX, 13, 0) } },
    { "NXFMFC_INVALID_TLV_FIELD",
      { E(NX, 1, 536), E(NX, 1, 536), E(NX, 37, 0),
        E(NX, 37, 0), E(NX, 37, 0), E(NX, 37, 0) } },
    { "OFPGMFC_GROUP_EXISTS",
      { E(NX, 6, 0), E(0, 6, 0), E(0, 6, 0),
        E(0, 6, 0), E(0, 6, 0), E(0, 6, 0) } },
    { "OFPGMFC_INVALID_GROUP",
      { E(NX, 6, 1), E(0, 6, 1), E(0, 6, 1),
        E(0, 6, 1), E(0, 6, 1), E(0, 6, 1) } },
    { "OFPGMFC_WEIGHT_UNSUPPORTED",
      { E(NX, 6, 2), E(0, 6, 2), E(0, 6, 2),
        E(0, 6, 2), E(0, 6, 2), E(0, 6, 2) } },
    { "OFPGMFC_OUT_OF_GROUPS",
      { E(NX, 6, 3), E(0, 6, 3), E(0, 6, 3),
        E(0, 6, 3), E(0, 6, 3), E(0, 6, 3) } },
    { "OFPGMFC_OUT_OF_BUCKETS",
      { E(NX, 6, 4), E(0, 6, 4), E(0, 6, 4),
        E(0, 6, 4), E(0, 6, 4), E(0, 6, 4) } },
    { "OFPGMFC_CHAINING_UNSUPPORTED",
      { E(NX, 6, 5), E(0, 6, 5), E(0, 6, 5),
        E(0, 6, 5), E(0, 6, 5), E(0, 6, 5) } },
    { "OFPGMFC_WATCH_UNSUPPORTED",
      { E(NX, 6, 6), E(0, 6, 6), E(0, 6, 6),
        E(0, 6, 6), E(0, 6, 6), E(0, 6, 6) } },
    { "OFPGMFC_LOOP",
      { E(NX, 6, 7), E(0, 6, 7), E(0, 6, 7),
        E(0, 6, 7), E(0, 6, 7), E(0, 6, 7) } },
    { "OFPGMFC_UNKNOWN_GROUP",
      { E(NX, 6, 8), E(0, 6, 8), E(0, 6, 8),
        E(0, 6, 8), E(0, 6, 8), E(0, 6, 8) } },
    { "OFPGMFC_CHAINED_GROUP",
      { E(NX, 6, 9), NONE, E(0, 6, 9),
        E(0, 6, 9), E(0, 6, 9), E(0, 6, 9) } },
    { "OFPGMFC_BAD_TYPE",
      { E(NX, 6, 10), NONE, E(0, 6, 10),
        E(0, 6, 10), E(0, 6, 10), E(0, 6, 10) } },
    { "OFPGMFC_BAD_COMMAND",
      { E(NX, 6, 11), NONE, E(0, 6, 11),
        E(0, 6, 11), E(0, 6, 11), E(0, 6, 11) } },
    { "OFPGMFC_BAD_BUCKET",
      { E(NX, 6, 12), NONE, E(0, 6, 12),
        E(0, 6, 12), E(0, 6, 12), E(0, 6, 12) } },
    { "OFPGMFC_BAD_WATCH",
      { E(NX, 6, 13), NONE, E(0, 6, 13),
        E(0, 6, 13), E(0, 6, 13), E(0, 6, 13) } },
    { "OFPGMFC_EPERM",
      { E(NX, 6, 14), NONE, E(0, 6, 14),
        E(0, 6, 14), E(0, 6, 14), E(0, 6, 14) } },
    { "OFPGMFC_UNKNOWN_BUCKET",
      { E(NX, 6, 15), NONE, NONE,
        NONE, NONE, E(0, 6, 15) } },
    { "OFPGMFC_BUCKET_EXISTS",
      { E(NX, 6, 16), NONE, NONE,
        NONE, NONE, E(0, 6, 16) } },
    { "OFPPMFC_BAD_PORT",
      { E(0, 4, 0), E(0, 7, 0), E(0, 7, 0),
        E(0, 7, 0), E(0, 7, 0), E(0, 7, 0) } },
    { "OFPPMFC_BAD_HW_ADDR",
      { E(0, 4, 1), E(0, 7, 1), E(0, 7, 1),
        E(0, 7, 1), E(0, 7, 1), E(0, 7, 1) } },
    { "OFPPMFC_BAD_CONFIG",
      { NONE, E(0, 7, 2), E(0, 7, 2),
        E(0, 7, 2), E(0, 7, 2), E(0, 7, 2) } },
    { "OFPPMFC_BAD_ADVERTISE",
      { NONE, E(0, 7, 3), E(0, 7, 3),
        E(0, 7, 3), E(0, 7, 3), E(0, 7, 3) } },
    { "OFPPMFC_EPERM",
      { NONE, NONE, E(0, 7, 4),
        E(0, 7, 4), E(0, 7, 4), E(0, 7, 4) } },
    { "OFPTMFC_BAD_TABLE",
      { NONE, E(0, 8, 0), E(0, 8, 0),
        E(0, 8, 0), E(0, 8, 0), E(0, 8, 0) } },
    { "OFPTMFC_BAD_CONFIG",
      { NONE, E(0, 8, 1), E(0, 8, 1),
        E(0, 8, 1), E(0, 8, 1), E(0, 8, 1) } },
    { "OFPTMFC_EPERM",
      { NONE, NONE, E(0, 8, 2),
        E(0, 8, 2), E(0, 8, 2), E(0, 8, 2) } },
    { "OFPQOFC_BAD_PORT",
      { E(0, 5, 0), E(0, 9, 0), E(0, 9, 0),
        E(0, 9, 0), E(0, 9, 0), E(0, 9, 0) } },
    { "OFPQOFC_BAD_QUEUE",
      { E(0, 5, 1), E(0, 9, 1), E(0, 9, 1),
        E(0, 9, 1), E(0, 9, 1), E(0, 9, 1) } },
    { "OFPQOFC_EPERM",
      { E(0, 5, 2), E(0, 9, 2), E(0, 9, 2),
        E(0, 9, 2), E(0, 9, 2), E(0, 9, 2) } },
    { "NXQOFC_QUEUE_ERROR",
      { NONE, NONE, NONE,
        NONE, E(NX, 23, 0), E(NX, 23, 0) } },
    { "OFPSCFC_BAD_FLAGS",
      { NONE, E(0, 10, 0), E(0, 10, 0),
        E(0, 10, 0), E(0, 10, 0), E(0, 10, 0) } },
    { "OFPSCFC_BAD_LEN",
      { NONE, E(0, 10, 1), E(0, 10, 1),
        E(0, 10, 1), E(0, 10, 1), E(0, 10, 1) } },
    { "OFPSCFC_EPERM",
      { NONE, NONE, E(0, 10, 2),
        E(0, 10, 2), E(0, 10, 2), E(0, 10, 2) } },
    { "OFPRRFC_STALE",
      { NONE, NONE, E(0, 11, 0),
        E(0, 11, 0), E(0, 11, 0), E(0, 11, 0) } },
    { "OFPRRFC_UNSUP",
      { NONE, NONE, E(0, 11, 1),
        E(0, 11, 1), E(0, 11, 1), E(0, 11, 1) } },
    { "OFPRRFC_BAD_ROLE",
      { E(NX, 1, 513), E(NX, 1, 513), E(0, 11, 2),
        E(0, 11, 2), E(0, 11, 2), E(0, 11, 2) } },
    { "OFPRRFC_ID_UNSUP",
      { NONE, NONE, NONE,
        NONE, NONE, E(0, 11, 3) } },
    { "OFPRRFC_ID_IN_USE",
      { NONE, NONE, NONE,
        NONE, NONE, E(0, 11, 4) } },
    { "OFPMMFC_UNKNOWN",
      { NONE, NONE, NONE,
        E(0, 12, 0), E(0, 12, 0), E(0, 12, 0) } },
    { "OFPMMFC_METER_EXISTS",
      { NONE, NONE, NONE,
        E(0, 12, 1), E(0, 12, 1), E(0, 12, 1) } },
    { "OFPMMFC_INVALID_METER",
      { NONE, NONE, NONE,
        E(0, 12, 2), E(0, 12, 2), E(0, 12, 2) } },
    { "OFPMMFC_UNKNOWN_METER",
      { NONE, NONE, NONE,
        E(0, 12, 3), E(0, 12, 3), E(0, 12, 3) } },
    { "OFPMMFC_BAD_COMMAND",
      { NONE, NONE, NONE,
        E(0, 12, 4), E(0, 12, 4), E(0, 12, 4) } },
    { "OFPMMFC_BAD_FLAGS",
      { NONE, NONE, NONE,
        E(0, 12, 5), E(0, 12, 5), E(0, 12, 5) } },
    { "OFPMMFC_BAD_RATE",
      { NONE, NONE, NONE,
        E(0, 12, 6), E(0, 12, 6), E(0, 12, 6) } },
    { "OFPMMFC_BAD_BURST",
      { NONE, NONE, NONE,
        E(0, 12, 7), E(0, 12, 7), E(0, 12, 7) } },
    { "OFPMMFC_BAD_BAND",
      { NONE, NONE, NONE,
        E(0, 12, 8), E(0, 12, 8), E(0, 12, 8) } },
    { "OFPMMFC_BAD_BAND_VALUE",
      { NONE, NONE, NONE,
        E(0, 12, 9), E(0, 12, 9), E(0, 12, 9) } },
    { "OFPMMFC_OUT_OF_METERS",
      { NONE, NONE, NONE,
        E(0, 12, 10), E(0, 12, 10), E(0, 12, 10) } },
    { "OFPMMFC_OUT_OF_BANDS",
      { NONE, NONE, NONE,
        E(0, 12, 11), E(0, 12, 11), E(0, 12, 11) } },
    { "OFPTFFC_BAD_TABLE",
      { NONE, NONE, NONE,
        E(0, 13, 0), E(0, 13, 0), E(0, 13, 0) } },
    { "OFPTFFC_BAD_METADATA",
      { NONE, NONE, NONE,
        E(0, 13, 1), E(0, 13, 1), E(0, 13, 1) } },
    { "OFPTFFC_EPERM",
      { NONE, NONE, NONE,
        E(0, 13, 5), E(0, 13, 5), E(0, 13, 5) } },
    { "OFPTFFC_BAD_CAPA",
      { NONE, NONE, NONE,
        NONE, NONE, E(0, 13, 6) } },
    { "OFPTFFC_BAD_MAX_ENT",
      { NONE, NONE, NONE,
        NONE, NONE, E(0, 13, 7) } },
    { "OFPTFFC_BAD_FEATURES",
      { NONE, NONE, NONE,
        NONE, NONE, E(0, 13, 8) } },
    { "OFPTFFC_BAD_COMMAND",
      { NONE, NONE, NONE,
        NONE, NONE, E(0, 13, 9) } },
    { "OFPTFFC_TOO_MANY",
      { NONE, NONE, NONE,
        NONE, NONE, E(0, 13, 10) } },
    { "NXTFFC_DUP_TABLE",
      { NONE, NONE, NONE,
        E(NX, 44, 0), E(NX, 44, 0), E(NX, 44, 0) } },
    { "OFPBPC_BAD_TYPE",
      { E(NX, 13, 2), E(NX, 13, 2), E(NX, 25, 0),
        E(0, 13, 2), E(0, 14, 0), E(0, 14, 0) } },
    { "OFPBPC_BAD_LEN",
      { E(NX, 13, 3), E(NX, 13, 3), E(NX, 26, 0),
        E(0, 13, 3), E(0, 14, 1), E(0, 14, 1) } },
    { "OFPBPC_BAD_VALUE",
      { E(NX, 13, 4), E(NX, 13, 4), E(NX, 27, 0),
        E(0, 13, 4), E(0, 14, 2), E(0, 14, 2) } },
    { "OFPBPC_TOO_MANY",
      { E(NX, 14, 3), E(NX, 14, 3), E(NX, 28, 0),
        E(ONF, 4443, 0), E(0, 14, 3), E(0, 14, 3) } },
    { "OFPBPC_DUP_TYPE",
      { E(NX, 14, 4), E(NX, 14, 4), E(NX, 29, 0),
        E(ONF, 4444, 0), E(0, 14, 4), E(0, 14, 4) } },
    { "OFPBPC_BAD_EXPERIMENTER",
      { E(NX, 14, 5), E(NX, 14, 5), E(NX, 30, 0),
        E(ONF, 4445, 0), E(0, 14, 5), E(0, 14, 5) } },
    { "OFPBPC_BAD_EXP_TYPE",
      { E(NX, 14, 6), E(NX, 14, 6), E(NX, 31, 0),
        E(ONF, 4446, 0), E(0, 14, 6), E(0, 14, 6) } },
    { "OFPBPC_BAD_EXP_VALUE",
      { E(NX, 14, 7), E(NX, 14, 7), E(NX, 32, 0),
        E(ONF, 4447, 0), E(0, 14, 7), E(0, 14, 7) } },
    { "OFPBPC_EPERM",
      { E(NX, 14, 8), E(NX, 14, 8), E(NX, 33, 0),
        E(ONF, 4448, 0), E(0, 14, 8), E(0, 14, 8) } },
    { "OFPACFC_INVALID",
      { NONE, NONE, NONE,
        E(ONF, 2370, 0), E(0, 15, 0), E(0, 15, 0) } },
    { "OFPACFC_UNSUPPORTED",
      { NONE, NONE, NONE,
        E(ONF, 2371, 0), E(0, 15, 1), E(0, 15, 1) } },
    { "OFPACFC_EPERM",
      { NONE, NONE, NONE,
        E(ONF, 2372, 0), E(0, 15, 2), E(0, 15, 2) } },
    { "OFPBFC_UNKNOWN",
      { NONE, NONE, NONE,
        E(ONF, 2300, 0), E(0, 17, 0), E(0, 17, 0) } },
    { "OFPBFC_EPERM",
      { NONE, NONE, NONE,
        E(ONF, 2301, 0), E(0, 17, 1), E(0, 17, 1) } },
    { "OFPBFC_BAD_ID",
      { NONE, NONE, NONE,
        E(ONF, 2302, 0), E(0, 17, 2), E(0, 17, 2) } },
    { "OFPBFC_BUNDLE_EXIST",
      { NONE, NONE, NONE,
        E(ONF, 2303, 0), E(0, 17, 3), E(0, 17, 3) } },
    { "OFPBFC_BUNDLE_CLOSED",
      { NONE, NONE, NONE,
        E(ONF, 2304, 0), E(0, 17, 4), E(0, 17, 4) } },
    { "OFPBFC_OUT_OF_BUNDLES",
      { NONE, NONE, NONE,
        E(ONF, 2305, 0), E(0, 17, 5), E(0, 17, 5) } },
    { "OFPBFC_BAD_TYPE",
      { NONE, NONE, NONE,
        E(ONF, 2306, 0), E(0, 17, 6), E(0, 17, 6) } },
    { "OFPBFC_BAD_FLAGS",
      { NONE, NONE, NONE,
        E(ONF, 2307, 0), E(0, 17, 7), E(0, 17, 7) } },
    { "OFPBFC_MSG_BAD_LEN",
      { NONE, NONE, NONE,
        E(ONF, 2308, 0), E(0, 17, 8), E(0, 17, 8) } },
    { "OFPBFC_MSG_BAD_XID",
      { NONE, NONE, NONE,
        E(ONF, 2309, 0), E(0, 17, 9), E(0, 17, 9) } },
    { "OFPBFC_MSG_UNSUP",
      { NONE, NONE, NONE,
        E(ONF, 2310, 0), E(0, 17, 10), E(0, 17, 10) } },
    { "OFPBFC_MSG_CONFLICT",
      { NONE, NONE, NONE,
        E(ONF, 2311, 0), E(0, 17, 11), E(0, 17, 11) } },
    { "OFPBFC_MSG_TOO_MANY",
      { NONE, NONE, NONE,
        E(ONF, 2312, 0), E(0, 17, 12), E(0, 17, 12) } },
    { "OFPBFC_MSG_FAILED",
      { NONE, NONE, NONE,
        E(ONF, 2313, 0), E(0, 17, 13), E(0, 17, 13) } },
    { "OFPBFC_TIMEOUT",
      { NONE, NONE, NONE,
        E(ONF, 2314, 0), E(0, 17, 14), E(0, 17, 14) } },
    { "OFPBFC_BUNDLE_IN_PROGRESS",
      { NONE, NONE, NONE,
        E(ONF, 2315, 0), E(0, 17, 15), E(0, 17, 15) } },
    { "OFPBFC_SCHED_NOT_SUPPORTED",
      { NONE, NONE, NONE,
        NONE, NONE, E(0, 17, 16) } },
    { "OFPBFC_SCHED_FUTURE",
      { NONE, NONE, NONE,
        NONE, NONE, E(0, 17, 17) } },
    { "OFPBFC_SCHED_PAST",
      { NONE, NONE, NONE,
        NONE, NONE, E(0, 17, 18) } },
    { "OFPBFC_BAD_VERSION",
      { NONE, NONE, NONE,
        NONE, E(NX, 22, 0), E(NX, 22, 0) } },
    { "OFPMOFC_UNKNOWN",
      { NONE, NONE, NONE,
        NONE, E(0, 16, 0), E(0, 16, 0) } },
    { "OFPMOFC_MONITOR_EXISTS",
      { E(NX, 1, 517), E(NX, 1, 517), E(NX, 6, 0),
        E(NX, 6, 0), E(0, 16, 1), E(0, 16, 1) } },
    { "OFPMOFC_INVALID_MONITOR",
      { NONE, NONE, NONE,
        NONE, E(0, 16, 2), E(0, 16, 2) } },
    { "OFPMOFC_UNKNOWN_MONITOR",
      { E(NX, 1, 519), E(NX, 1, 519), E(NX, 8, 0),
        E(NX, 8, 0), E(0, 16, 3), E(0, 16, 3) } },
    { "OFPMOFC_BAD_COMMAND",
      { NONE, NONE, NONE,
        NONE, E(0, 16, 4), E(0, 16, 4) } },
    { "OFPMOFC_BAD_FLAGS",
      { E(NX, 1, 518), E(NX, 1, 518), E(NX, 7, 0),
        E(NX, 7, 0), E(0, 16, 5), E(0, 16, 5) } },
    { "OFPMOFC_BAD_TABLE_ID",
      { NONE, NONE, NONE,
        NONE, E(0, 16, 6), E(0, 16, 6) } },
    { "OFPMOFC_BAD_OUT",
      { NONE, NONE, NONE,
        NONE, E(0, 16, 7), E(0, 16, 7) } },
    { "NXTTMFC_BAD_COMMAND",
      { E(NX, 1, 527), E(NX, 1, 527), E(NX, 16, 0),
        E(NX, 16, 0), E(NX, 16, 0), E(NX, 16, 0) } },
    { "NXTTMFC_BAD_OPT_LEN",
      { E(NX, 1, 528), E(NX, 1, 528), E(NX, 17, 0),
        E(NX, 17, 0), E(NX, 17, 0), E(NX, 17, 0) } },
    { "NXTTMFC_BAD_FIELD_IDX",
      { E(NX, 1, 529), E(NX, 1, 529), E(NX, 18, 0),
        E(NX, 18, 0), E(NX, 18, 0), E(NX, 18, 0) } },
    { "NXTTMFC_TABLE_FULL",
      { E(NX, 1, 530), E(NX, 1, 530), E(NX, 19, 0),
        E(NX, 19, 0), E(NX, 19, 0), E(NX, 19, 0) } },
    { "NXTTMFC_ALREADY_MAPPED",
      { E(NX, 1, 531), E(NX, 1, 531), E(NX, 20, 0),
        E(NX, 20, 0), E(NX, 20, 0), E(NX, 20, 0) } },
    { "NXTTMFC_DUP_ENTRY",
      { E(NX, 1, 532), E(NX, 1, 532), E(NX, 21, 0),
        E(NX, 21, 0), E(NX, 21, 0), E(NX, 21, 0) } },
    { "NXTTMFC_INVALID_TLV_DEL",
      { E(NX, 1, 537), E(NX, 1, 537), E(NX, 38, 0),
        E(NX, 38, 0), E(NX, 38, 0), E(NX, 38, 0) } },
    { "NXR_NOT_SUPPORTED",
      { E(NX, 1, 533), E(NX, 1, 533), E(NX, 34, 0),
        E(NX, 34, 0), E(NX, 34, 0), E(NX, 34, 0) } },
    { "NXR_STALE",
      { E(NX, 1, 534), E(NX, 1, 534), E(NX, 35, 0),
        E(NX, 35, 0), E(NX, 35, 0), E(NX, 35, 0) } },
    { "NXST_NOT_CONFIGURED",
      { E(NX, 1, 535), E(NX, 1, 535), E(NX, 36, 0),
        E(NX, 36, 0), E(NX, 36, 0), E(NX, 36, 0) } },
};
_Static_assert(ARRAY_SIZE(errors) == OFPERR_N_ERRORS,
               "one table entry per enum ofperr value");

#undef NX
#undef ONF
#undef E
#undef NONE

/* The wrapper 1.0 and 1.1 use for vendor errors: an ofp_error_msg with
 * this type and code 0, then the vendor and its own type and code. */
#define NXET_VENDOR 0xb0c2
#define NXVC_VENDOR_ERROR 0
struct nx_vendor_error {
    ovs_be32 vendor;
    ovs_be16 type;
    ovs_be16 code;
} __attribute__((packed));

bool
ofperr_is_valid(enum ofperr error)
{
    return (int) error >= OFPERR_OFS && error < OFPERR_LIMIT;
}

static const struct ofperr_info *
info_of(enum ofperr error)
{
    return ofperr_is_valid(error) ? &errors[error - OFPERR_OFS] : NULL;
}

const char *
ofperr_get_name(enum ofperr error)
{
    const struct ofperr_info *info = info_of(error);
    return info ? info->name : "<invalid>";
}

enum ofperr
ofperr_from_name(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(errors); i++) {
        if (!strcmp(name, errors[i].name)) {
            return OFPERR_OFS + i;
        }
    }
    return 0;
}

void
ofperr_format(struct ds *s, int error)
{
    if (ofperr_is_valid(error)) {
        ds_put_cstr(s, ofperr_get_name(error));
    } else {
        ds_put_cstr(s, ovs_strerror(error));
    }
}

const char *
ofperr_to_string(int error)
{
    return (ofperr_is_valid(error) ? ofperr_get_name(error)
            : ovs_strerror(error));
}

static const struct ofperr_numbers *
numbers_of(enum ofperr error, enum ofp_version version)
{
    const struct ofperr_info *info = info_of(error);
    if (!info || version < OFP10_VERSION || version > OFP15_VERSION) {
        return NULL;
    }
    const struct ofperr_numbers *n = &info->by_version[version - 1];
    return n->valid ? n : NULL;
}

bool
ofperr_get_numbers(enum ofperr error, enum ofp_version version,
                   uint32_t *vendor, int *type, int *code)
{
    const struct ofperr_numbers *n = numbers_of(error, version);
    if (!n) {
        return false;
    }
    *vendor = n->vendor;
    *type = n->type;
    *code = n->code;
    return true;
}

/* The error that VERSION numbers (VENDOR, TYPE, CODE), or 0.  (For 1.2+
 * vendor errors the table has the experimenter code in TYPE and 0 in
 * CODE, and the decoder passes them the same way.)  The first match wins,
 * which settles the codes that one version gave to two errors. */
static enum ofperr
lookup(enum ofp_version version, uint32_t vendor, uint16_t type,
       uint16_t code)
{
    if (version < OFP10_VERSION || version > OFP15_VERSION) {
        return 0;
    }
    for (size_t i = 0; i < ARRAY_SIZE(errors); i++) {
        const struct ofperr_numbers *n = &errors[i].by_version[version - 1];
        if (n->valid && n->vendor == vendor && n->type == type
            && n->code == code) {
            return OFPERR_OFS + i;
        }
    }
    return 0;
}

enum ofperr
ofperr_decode_msg(const struct ofp_header *oh, struct ofpbuf *payload)
{
    size_t len = ntohs(oh->length);
    if (oh->type != OFPT_ERROR || len < sizeof *oh) {
        return 0;
    }
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, len);
    ofpbuf_pull(&b, sizeof *oh);

    const struct ofp_error_msg *em = ofpbuf_try_pull(&b, sizeof *em);
    if (!em) {
        return 0;
    }
    uint16_t type = ntohs(em->type);
    uint16_t code = ntohs(em->code);
    uint32_t vendor = 0;
    enum ofp_version version = oh->version;

    if (version < OFP12_VERSION && type == NXET_VENDOR) {
        const struct nx_vendor_error *nve = ofpbuf_try_pull(&b, sizeof *nve);
        if (!nve || code != NXVC_VENDOR_ERROR) {
            return 0;
        }
        vendor = ntohl(nve->vendor);
        type = ntohs(nve->type);
        code = ntohs(nve->code);
    } else if (version >= OFP12_VERSION && type == OFPET12_EXPERIMENTER) {
        ovs_be32 *exp = ofpbuf_try_pull(&b, sizeof *exp);
        if (!exp) {
            return 0;
        }
        vendor = ntohl(*exp);
        type = code;            /* The experimenter's own code. */
        code = 0;
    }

    enum ofperr error = lookup(version, vendor, type, code);
    if (error && payload) {
        ofpbuf_use_const(payload, b.data, b.size);
    }
    return error;
}

/* Builds an OFPT_ERROR for ERROR in VERSION with XID and the DATA_LEN
 * bytes at DATA.  Falls back to NXBRC_UNENCODABLE_ERROR (which every
 * version can carry) when VERSION has no numbers for ERROR. */
static struct ofpbuf *
encode_error(enum ofperr error, enum ofp_version version, ovs_be32 xid,
             const void *data, size_t data_len)
{
    const struct ofperr_numbers *n = numbers_of(error, version);
    if (!n) {
        VLOG_ERR("cannot encode %s for %s", ofperr_get_name(error),
                 version == OFP10_VERSION ? "OpenFlow 1.0"
                 : version == OFP11_VERSION ? "OpenFlow 1.1"
                 : version == OFP12_VERSION ? "OpenFlow 1.2"
                 : version == OFP13_VERSION ? "OpenFlow 1.3"
                 : version == OFP14_VERSION ? "OpenFlow 1.4"
                 : "OpenFlow 1.5");
        error = OFPERR_NXBRC_UNENCODABLE_ERROR;
        n = numbers_of(error, version);
        if (!n) {
            n = numbers_of(error, OFP10_VERSION);
        }
    }

    /* Keep the whole message within the 16-bit length. */
    size_t max_data = OFP_MAX_MSG_LEN - sizeof(struct ofp_header) - 12;
    data_len = MIN(data_len, max_data);

    struct ofpbuf *b = ofpbuf_new(sizeof(struct ofp_header) + 12 + data_len);
    struct ofp_header *oh = ofpbuf_put_zeros(b, sizeof *oh);
    oh->version = version;
    oh->type = OFPT_ERROR;
    oh->xid = xid;

    if (!n->vendor) {
        struct ofp_error_msg *em = ofpbuf_put_uninit(b, sizeof *em);
        em->type = htons(n->type);
        em->code = htons(n->code);
    } else if (version < OFP12_VERSION) {
        struct ofp_error_msg *em = ofpbuf_put_uninit(b, sizeof *em);
        em->type = htons(NXET_VENDOR);
        em->code = htons(NXVC_VENDOR_ERROR);
        struct nx_vendor_error *nve = ofpbuf_put_uninit(b, sizeof *nve);
        nve->vendor = htonl(n->vendor);
        nve->type = htons(n->type);
        nve->code = htons(n->code);
    } else {
        struct ofp_error_experimenter *ee = ofpbuf_put_uninit(b, sizeof *ee);
        ee->type = htons(OFPET12_EXPERIMENTER);
        ee->exp_code = htons(n->type);
        ee->experimenter = htonl(n->vendor);
    }
    if (data_len) {
        ofpbuf_put(b, data, data_len);
    }
    oh = b->data;
    oh->length = htons(b->size);
    return b;
}

struct ofpbuf *
ofperr_encode_reply(enum ofperr error, const struct ofp_header *req)
{
    return ofperr_encode_reply_in(error, req->version, req);
}

struct ofpbuf *
ofperr_encode_reply_in(enum ofperr error, enum ofp_version version,
                       const struct ofp_header *req)
{
    /* The whole request goes back, as Open vSwitch 3.1's switch sends it
     * (encode_error() keeps the reply within 64 kB). */
    return encode_error(error, version, req->xid, req, ntohs(req->length));
}

struct ofpbuf *
ofperr_encode_hello(enum ofperr error, enum ofp_version version,
                    const char *text)
{
    return encode_error(error, version, htonl(0), text, strlen(text));
}
