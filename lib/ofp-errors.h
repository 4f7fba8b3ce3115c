/* ofp-errors: OpenFlow error codes, in every version.
 *
 * An OpenFlow error is a (type, code) pair whose numbers changed from one
 * version to the next, plus vendor extensions (Nicira, ONF) that 1.0 and
 * 1.1 carry as non-standard codes and 1.2+ as experimenter errors.  Inside
 * the program an error is one enum ofperr value that means the same in
 * every version; this module maps it to and from each version's numbers,
 * names it ("OFPBRC_BAD_LEN", as Open vSwitch prints it), and encodes and
 * decodes OFPT_ERROR messages.
 *
 * enum ofperr values start at OFPERR_OFS (2**30), above every errno value,
 * so a function may return "0, a positive errno value, or an ofperr" in
 * one int, as the connection code does.
 *
 * Threads: the tables are constant; every function is pure except for the
 * allocations it hands back (owned by the caller). */
#ifndef OFP_ERRORS_H
#define OFP_ERRORS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "openflow.h"

struct ds;
struct ofpbuf;

#define OFPERR_OFS (1 << 30)

enum ofperr {
    /* Ordered by error type, then by code in the latest version that has
     * the error.  Where one version used one (type, code) for two errors,
     * decoding yields the earlier one here. */
    OFPERR_OFPHFC_INCOMPATIBLE = OFPERR_OFS,
    OFPERR_OFPHFC_EPERM,
    OFPERR_OFPBRC_BAD_VERSION,
    OFPERR_OFPBRC_BAD_TYPE,
    OFPERR_OFPBRC_BAD_STAT,
    OFPERR_OFPBRC_BAD_VENDOR,
    OFPERR_OFPBRC_BAD_SUBTYPE,
    OFPERR_OFPBRC_EPERM,
    OFPERR_OFPBRC_BAD_LEN,
    OFPERR_OFPBRC_BUFFER_EMPTY,
    OFPERR_OFPBRC_BUFFER_UNKNOWN,
    OFPERR_OFPBRC_BAD_TABLE_ID,
    OFPERR_OFPBRC_IS_SECONDARY,
    OFPERR_OFPBRC_BAD_PORT,
    OFPERR_OFPBRC_BAD_PACKET,
    OFPERR_OFPBRC_MULTIPART_BUFFER_OVERFLOW,
    OFPERR_OFPBRC_MULTIPART_REQUEST_TIMEOUT,
    OFPERR_OFPBRC_MULTIPART_REPLY_TIMEOUT,
    OFPERR_OFPBRC_MULTIPART_BAD_SCHED,
    OFPERR_OFPBRC_PIPELINE_FIELDS_ONLY,
    OFPERR_OFPBRC_UNKNOWN,
    OFPERR_NXBRC_NXM_INVALID,
    OFPERR_NXBRC_NXM_BAD_TYPE,
    OFPERR_NXBRC_MUST_BE_ZERO,
    OFPERR_NXBRC_BAD_REASON,
    OFPERR_NXBRC_FM_BAD_EVENT,
    OFPERR_NXBRC_UNENCODABLE_ERROR,
    OFPERR_OFPBAC_BAD_TYPE,
    OFPERR_OFPBAC_BAD_LEN,
    OFPERR_OFPBAC_BAD_VENDOR,
    OFPERR_OFPBAC_BAD_VENDOR_TYPE,
    OFPERR_OFPBAC_BAD_OUT_PORT,
    OFPERR_OFPBAC_BAD_ARGUMENT,
    OFPERR_OFPBAC_EPERM,
    OFPERR_OFPBAC_TOO_MANY,
    OFPERR_OFPBAC_BAD_QUEUE,
    OFPERR_OFPBAC_BAD_OUT_GROUP,
    OFPERR_OFPBAC_MATCH_INCONSISTENT,
    OFPERR_OFPBAC_UNSUPPORTED_ORDER,
    OFPERR_OFPBAC_BAD_TAG,
    OFPERR_OFPBAC_BAD_SET_TYPE,
    OFPERR_OFPBAC_BAD_SET_LEN,
    OFPERR_OFPBAC_BAD_SET_ARGUMENT,
    OFPERR_OFPBAC_BAD_SET_MASK,
    OFPERR_OFPBAC_BAD_METER,
    OFPERR_NXBAC_MUST_BE_ZERO,
    OFPERR_NXBAC_BAD_CONJUNCTION,
    OFPERR_NXBAC_BAD_HEADER_TYPE,
    OFPERR_NXBAC_UNKNOWN_ED_PROP,
    OFPERR_NXBAC_BAD_ED_PROP,
    OFPERR_NXBAC_CT_DATAPATH_SUPPORT,
    OFPERR_OFPBIC_UNKNOWN_INST,
    OFPERR_OFPBIC_UNSUP_INST,
    OFPERR_OFPBIC_BAD_TABLE_ID,
    OFPERR_OFPBIC_UNSUP_METADATA,
    OFPERR_OFPBIC_UNSUP_METADATA_MASK,
    OFPERR_OFPBIC_BAD_EXPERIMENTER,
    OFPERR_OFPBIC_BAD_EXP_TYPE,
    OFPERR_OFPBIC_BAD_LEN,
    OFPERR_OFPBIC_EPERM,
    OFPERR_OFPBIC_DUP_INST,
    OFPERR_OFPBMC_BAD_TYPE,
    OFPERR_OFPBMC_BAD_LEN,
    OFPERR_OFPBMC_BAD_TAG,
    OFPERR_OFPBMC_BAD_DL_ADDR_MASK,
    OFPERR_OFPBMC_BAD_NW_ADDR_MASK,
    OFPERR_OFPBMC_BAD_WILDCARDS,
    OFPERR_OFPBMC_BAD_FIELD,
    OFPERR_OFPBMC_BAD_VALUE,
    OFPERR_OFPBMC_BAD_MASK,
    OFPERR_OFPBMC_BAD_PREREQ,
    OFPERR_OFPBMC_DUP_FIELD,
    OFPERR_OFPBMC_EPERM,
    OFPERR_NXBMC_CT_DATAPATH_SUPPORT,
    OFPERR_OFPFMFC_BAD_EMERG_TIMEOUT,
    OFPERR_OFPFMFC_UNSUPPORTED,
    OFPERR_OFPFMFC_UNKNOWN,
    OFPERR_OFPFMFC_TABLE_FULL,
    OFPERR_OFPFMFC_BAD_TABLE_ID,
    OFPERR_OFPFMFC_OVERLAP,
    OFPERR_OFPFMFC_EPERM,
    OFPERR_OFPFMFC_BAD_TIMEOUT,
    OFPERR_OFPFMFC_BAD_COMMAND,
    OFPERR_OFPFMFC_BAD_FLAGS,
    OFPERR_OFPFMFC_CANT_SYNC,
    OFPERR_OFPFMFC_BAD_PRIORITY,
    OFPERR_OFPFMFC_IS_SYNC,
    OFPERR_NXFMFC_HARDWARE,
    OFPERR_NXFMFC_BAD_TABLE_ID,
    OFPERR_NXFMFC_INVALID_TLV_FIELD,
    OFPERR_OFPGMFC_GROUP_EXISTS,
    OFPERR_OFPGMFC_INVALID_GROUP,
    OFPERR_OFPGMFC_WEIGHT_UNSUPPORTED,
    OFPERR_OFPGMFC_OUT_OF_GROUPS,
    OFPERR_OFPGMFC_OUT_OF_BUCKETS,
    OFPERR_OFPGMFC_CHAINING_UNSUPPORTED,
    OFPERR_OFPGMFC_WATCH_UNSUPPORTED,
    OFPERR_OFPGMFC_LOOP,
    OFPERR_OFPGMFC_UNKNOWN_GROUP,
    OFPERR_OFPGMFC_CHAINED_GROUP,
    OFPERR_OFPGMFC_BAD_TYPE,
    OFPERR_OFPGMFC_BAD_COMMAND,
    OFPERR_OFPGMFC_BAD_BUCKET,
    OFPERR_OFPGMFC_BAD_WATCH,
    OFPERR_OFPGMFC_EPERM,
    OFPERR_OFPGMFC_UNKNOWN_BUCKET,
    OFPERR_OFPGMFC_BUCKET_EXISTS,
    OFPERR_OFPPMFC_BAD_PORT,
    OFPERR_OFPPMFC_BAD_HW_ADDR,
    OFPERR_OFPPMFC_BAD_CONFIG,
    OFPERR_OFPPMFC_BAD_ADVERTISE,
    OFPERR_OFPPMFC_EPERM,
    OFPERR_OFPTMFC_BAD_TABLE,
    OFPERR_OFPTMFC_BAD_CONFIG,
    OFPERR_OFPTMFC_EPERM,
    OFPERR_OFPQOFC_BAD_PORT,
    OFPERR_OFPQOFC_BAD_QUEUE,
    OFPERR_OFPQOFC_EPERM,
    OFPERR_NXQOFC_QUEUE_ERROR,
    OFPERR_OFPSCFC_BAD_FLAGS,
    OFPERR_OFPSCFC_BAD_LEN,
    OFPERR_OFPSCFC_EPERM,
    OFPERR_OFPRRFC_STALE,
    OFPERR_OFPRRFC_UNSUP,
    OFPERR_OFPRRFC_BAD_ROLE,
    OFPERR_OFPRRFC_ID_UNSUP,
    OFPERR_OFPRRFC_ID_IN_USE,
    OFPERR_OFPMMFC_UNKNOWN,
    OFPERR_OFPMMFC_METER_EXISTS,
    OFPERR_OFPMMFC_INVALID_METER,
    OFPERR_OFPMMFC_UNKNOWN_METER,
    OFPERR_OFPMMFC_BAD_COMMAND,
    OFPERR_OFPMMFC_BAD_FLAGS,
    OFPERR_OFPMMFC_BAD_RATE,
    OFPERR_OFPMMFC_BAD_BURST,
    OFPERR_OFPMMFC_BAD_BAND,
    OFPERR_OFPMMFC_BAD_BAND_VALUE,
    OFPERR_OFPMMFC_OUT_OF_METERS,
    OFPERR_OFPMMFC_OUT_OF_BANDS,
    OFPERR_OFPTFFC_BAD_TABLE,
    OFPERR_OFPTFFC_BAD_METADATA,
    OFPERR_OFPTFFC_EPERM,
    OFPERR_OFPTFFC_BAD_CAPA,
    OFPERR_OFPTFFC_BAD_MAX_ENT,
    OFPERR_OFPTFFC_BAD_FEATURES,
    OFPERR_OFPTFFC_BAD_COMMAND,
    OFPERR_OFPTFFC_TOO_MANY,
    OFPERR_NXTFFC_DUP_TABLE,
    OFPERR_OFPBPC_BAD_TYPE,
    OFPERR_OFPBPC_BAD_LEN,
    OFPERR_OFPBPC_BAD_VALUE,
    OFPERR_OFPBPC_TOO_MANY,
    OFPERR_OFPBPC_DUP_TYPE,
    OFPERR_OFPBPC_BAD_EXPERIMENTER,
    OFPERR_OFPBPC_BAD_EXP_TYPE,
    OFPERR_OFPBPC_BAD_EXP_VALUE,
    OFPERR_OFPBPC_EPERM,
    OFPERR_OFPACFC_INVALID,
    OFPERR_OFPACFC_UNSUPPORTED,
    OFPERR_OFPACFC_EPERM,
    OFPERR_OFPBFC_UNKNOWN,
    OFPERR_OFPBFC_EPERM,
    OFPERR_OFPBFC_BAD_ID,
    OFPERR_OFPBFC_BUNDLE_EXIST,
    OFPERR_OFPBFC_BUNDLE_CLOSED,
    OFPERR_OFPBFC_OUT_OF_BUNDLES,
    OFPERR_OFPBFC_BAD_TYPE,
    OFPERR_OFPBFC_BAD_FLAGS,
    OFPERR_OFPBFC_MSG_BAD_LEN,
    OFPERR_OFPBFC_MSG_BAD_XID,
    OFPERR_OFPBFC_MSG_UNSUP,
    OFPERR_OFPBFC_MSG_CONFLICT,
    OFPERR_OFPBFC_MSG_TOO_MANY,
    OFPERR_OFPBFC_MSG_FAILED,
    OFPERR_OFPBFC_TIMEOUT,
    OFPERR_OFPBFC_BUNDLE_IN_PROGRESS,
    OFPERR_OFPBFC_SCHED_NOT_SUPPORTED,
    OFPERR_OFPBFC_SCHED_FUTURE,
    OFPERR_OFPBFC_SCHED_PAST,
    OFPERR_OFPBFC_BAD_VERSION,
    OFPERR_OFPMOFC_UNKNOWN,
    OFPERR_OFPMOFC_MONITOR_EXISTS,
    OFPERR_OFPMOFC_INVALID_MONITOR,
    OFPERR_OFPMOFC_UNKNOWN_MONITOR,
    OFPERR_OFPMOFC_BAD_COMMAND,
    OFPERR_OFPMOFC_BAD_FLAGS,
    OFPERR_OFPMOFC_BAD_TABLE_ID,
    OFPERR_OFPMOFC_BAD_OUT,
    OFPERR_NXTTMFC_BAD_COMMAND,
    OFPERR_NXTTMFC_BAD_OPT_LEN,
    OFPERR_NXTTMFC_BAD_FIELD_IDX,
    OFPERR_NXTTMFC_TABLE_FULL,
    OFPERR_NXTTMFC_ALREADY_MAPPED,
    OFPERR_NXTTMFC_DUP_ENTRY,
    OFPERR_NXTTMFC_INVALID_TLV_DEL,
    OFPERR_NXR_NOT_SUPPORTED,
    OFPERR_NXR_STALE,
    OFPERR_NXST_NOT_CONFIGURED,

    OFPERR_LIMIT                    /* One past the last. */
};

#define OFPERR_N_ERRORS (OFPERR_LIMIT - OFPERR_OFS)

bool ofperr_is_valid(enum ofperr);

/* "OFPBRC_BAD_LEN" and the like; "<invalid>" for something else. */
const char *ofperr_get_name(enum ofperr);
/* The value named NAME, or 0. */
enum ofperr ofperr_from_name(const char *name);

/* Appends ERROR's name, or for an errno value "ERROR(strerror)"-style text,
 * as ovs-ofctl prints the result of a failed call. */
void ofperr_format(struct ds *, int error);
/* Same, as a static string for ofperr values, strerror() for others. */
const char *ofperr_to_string(int error);

/* ERROR's numbers in VERSION: vendor (0 for a standard error), type and
 * code.  Returns false when ERROR has no encoding in VERSION. */
bool ofperr_get_numbers(enum ofperr, enum ofp_version,
                        uint32_t *vendor, int *type, int *code);

/* Decodes an OFPT_ERROR message OH.  Returns the error it carries, or 0 if
 * the message is malformed or the error unknown in its version.  On
 * success, if PAYLOAD is nonnull, it is made to point at the message's data
 * (the start of the failed request, or a hello failure's text), read-only,
 * inside OH's memory. */
enum ofperr ofperr_decode_msg(const struct ofp_header *oh,
                              struct ofpbuf *payload);

/* An OFPT_ERROR reply to REQUEST, carrying the whole request as Open
 * vSwitch 3.1's switch does (as much as fits in one message).  An error
 * that the version cannot express becomes NXBRC_UNENCODABLE_ERROR. */
struct ofpbuf *ofperr_encode_reply(enum ofperr, const struct ofp_header *req);
/* The same in VERSION rather than REQUEST's own (for a request in a version
 * other than the connection's). */
struct ofpbuf *ofperr_encode_reply_in(enum ofperr, enum ofp_version,
                                      const struct ofp_header *req);
/* An OFPT_ERROR of type HELLO_FAILED in VERSION with TEXT as payload. */
struct ofpbuf *ofperr_encode_hello(enum ofperr, enum ofp_version,
                                   const char *text);

#endif /* ofp-errors.h */
