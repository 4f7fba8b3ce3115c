/* libFuzzer target: STP BPDUs and frames (lib/stp-bpdu.c) and the
 * spanning tree engine fed with them (lib/stp.c).
 *
 * The input is a sequence of records, each one control byte then up to 63
 * bytes of payload: the control byte's low 6 bits are the payload's
 * length, bit 6 picks the port (0 or 1) and bit 7 says whether the payload
 * is a whole frame (stp_received_frame()) or a bare BPDU
 * (stp_received_bpdu()); between records the clock moves on a second.
 * Each payload is copied to the very end of its own heap block, so a read
 * past it is an ASan error.  What must hold:
 *   - a BPDU that decodes re-encodes to the same octets (its type's
 *     length of them);
 *   - a frame that parses yields a BPDU inside the frame, no longer than
 *     its length field allows;
 *   - the engine counts every record on an enabled port as received or as
 *     an error, exactly once, and keeps its tree consistent: a root bridge
 *     has path cost 0 and no root port, a non-root one has an enabled root
 *     port that is not designated, and stp_run()'s deadline is in the
 *     future.
 * Any disagreement aborts, which libFuzzer reports as a crash. */
#include <config.h>

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "stp.h"
#include "util.h"
#include "vlog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(COND) do { if (!(COND)) { abort(); } } while (0)

static void
discard_bpdu(const void *bpdu OVS_UNUSED, size_t len, int port_no,
             void *aux OVS_UNUSED)
{
    CHECK(len == STP_CONFIG_BPDU_LEN || len == STP_TCN_BPDU_LEN);
    CHECK(port_no >= 0 && port_no < 2);
}

static void
check_bpdu_round_trip(const uint8_t *p, size_t n)
{
    struct stp_bpdu bpdu;
    if (stp_bpdu_decode(p, n, &bpdu) == STP_BPDU_OK) {
        uint8_t out[STP_CONFIG_BPDU_LEN];
        size_t len = stp_bpdu_encode(&bpdu, out);
        CHECK(len <= n);
        CHECK(!memcmp(out, p, len));
    }
}

static void
check_frame(const uint8_t *p, size_t n)
{
    const uint8_t *bpdu;
    size_t bpdu_len;
    if (stp_parse_frame(p, n, &bpdu, &bpdu_len)) {
        CHECK(bpdu == p + STP_FRAME_HEADER_LEN);
        CHECK(bpdu_len <= n - STP_FRAME_HEADER_LEN);
        CHECK(bpdu_len + STP_LLC_LEN == (size_t) ((p[12] << 8) | p[13]));
        check_bpdu_round_trip(bpdu, bpdu_len);
    }
}

static void
check_tree(struct stp *stp)
{
    struct stp_port *root_port = stp_get_root_port(stp);

    if (stp_is_root_bridge(stp)) {
        CHECK(!root_port);
        CHECK(stp_get_root_path_cost(stp) == 0);
    } else {
        CHECK(root_port);
        CHECK(stp_port_get_state(root_port) != STP_DISABLED);
        CHECK(stp_port_get_role(root_port) == STP_ROLE_ROOT);
        CHECK(stp_get_designated_root(stp) < stp_get_bridge_id(stp));
    }
}

static uint64_t
n_counted(struct stp_port *p)
{
    struct stp_port_counters c;
    stp_port_get_counters(p, &c);
    return c.rx_bpdus + c.rx_errors;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool quiet;
    if (!quiet) {
        /* The engine logs every bad BPDU; the fuzzer needs none of it. */
        vlog_set_levels(NULL, VLF_ANY_DESTINATION, VLL_OFF);
        quiet = true;
    }

    struct stp *stp = stp_create("fuzz", 0x0000020000000001ULL,
                                 discard_bpdu, NULL);
    struct stp_port *ports[2] = { stp_get_port(stp, 0),
                                  stp_get_port(stp, 1) };
    stp_port_enable(ports[0]);
    stp_port_enable(ports[1]);
    long long int now = 0;
    stp_run(stp, now);

    while (size > 0) {
        uint8_t control = *data++;
        size--;
        size_t n = MIN(control & 0x3f, size);
        struct stp_port *port = ports[(control >> 6) & 1];

        uint8_t *copy = xmalloc(n ? n : 1);
        uint8_t *payload = copy + (n ? 0 : 1);
        memcpy(payload, data, n);
        data += n;
        size -= n;

        uint64_t before = n_counted(port);
        if (control & 0x80) {
            check_frame(payload, n);
            stp_received_frame(port, payload, n);
        } else {
            check_bpdu_round_trip(payload, n);
            stp_received_bpdu(port, payload, n);
        }
        free(copy);
        CHECK(n_counted(port) == before + 1);
        check_tree(stp);

        now += 1000;
        CHECK(stp_run(stp, now) > now);
        check_tree(stp);
    }
    stp_destroy(stp);
    return 0;
}
