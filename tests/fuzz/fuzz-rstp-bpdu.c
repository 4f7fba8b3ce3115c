/* libFuzzer target: spanning tree BPDUs (lib/rstp-bpdu.c) and the RSTP
 * engine's handling of them (lib/rstp.c, lib/rstp-sm.c).
 *
 * The input is a script of received frames: each record is a control
 * byte (low 2 bits: which of three ports receives it; bit 2: a second of
 * time passes first; bit 3: the port goes down and up first), a length
 * byte, and that many bytes of frame (fewer at the end of the input).
 * What must hold:
 *   - rstp_frame_bpdu() finds the BPDU inside the frame or refuses it;
 *   - rstp_bpdu_decode() accepts or refuses, never reading past the end
 *     (each record is copied to a heap block of its exact size, so ASan
 *     sees any over-read); what it accepts encodes to bytes that decode to
 *     the same BPDU;
 *   - what the engine sends decodes, but for Configuration BPDUs that
 *     reached their Max Age on the way;
 *   - the engine takes every frame: a BPDU the decoder refuses raises the
 *     bridge's and the port's error counters by one, and the engine's
 *     state stays consistent (its ports' states are valid and the root
 *     path cost of a root bridge is 0).
 * Any disagreement aborts, which libFuzzer reports as a crash. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "be-bytes.h"
#include "rstp-bpdu.h"
#include "rstp.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(COND) do { if (!(COND)) { abort(); } } while (0)

#define N_PORTS 3

static void
send_nothing(const void *bpdu_, size_t len, int port_no, void *aux)
{
    const uint8_t *bpdu = bpdu_;
    struct rstp_bpdu decoded;

    /* What the engine sends is valid, but for a Configuration BPDU whose
     * information has reached its Max Age on the way (receivers drop it,
     * as 802.1D wants). */
    CHECK(port_no >= 1 && port_no <= N_PORTS && aux == NULL);
    if (rstp_bpdu_decode(bpdu, len, &decoded)) {
        CHECK(len == RSTP_CONFIG_BPDU_LEN && bpdu[3] == RSTP_BPDU_CONFIG);
        CHECK(get_be16(bpdu + 27) >= get_be16(bpdu + 29));
    }
}

static void
check_round_trip(const struct rstp_bpdu *bpdu)
{
    uint8_t buf[RSTP_BPDU_MAX_LEN];
    struct rstp_bpdu again;

    size_t len = rstp_bpdu_encode(bpdu, buf);
    CHECK(!rstp_bpdu_decode(buf, len, &again));
    CHECK(again.type == bpdu->type);
    if (bpdu->type == RSTP_BPDU_TCN) {
        return;
    }
    CHECK(again.flags == bpdu->flags);
    CHECK(again.root_id == bpdu->root_id);
    CHECK(again.root_path_cost == bpdu->root_path_cost);
    CHECK(again.bridge_id == bpdu->bridge_id);
    CHECK(again.port_id == bpdu->port_id);
    CHECK(again.message_age == bpdu->message_age);
    CHECK(again.max_age == bpdu->max_age);
    CHECK(again.hello_time == bpdu->hello_time);
    CHECK(again.forward_delay == bpdu->forward_delay);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *error;
    struct rstp *rstp = rstp_create("fuzz", 0x0200000000aa, 32768,
                                    send_nothing, NULL, &error);
    long long int now = 0;

    CHECK(rstp && !error);
    for (int port_no = 1; port_no <= N_PORTS; port_no++) {
        CHECK(!rstp_add_port(rstp, port_no));
        CHECK(!rstp_port_set_enabled(rstp, port_no, true));
    }
    rstp_run(rstp, now);

    while (size >= 2) {
        uint8_t control = data[0];
        size_t len = MIN(data[1], size - 2);
        int port_no = control % N_PORTS + 1;
        uint8_t *frame = xmalloc(len ? len : 1);

        memcpy(frame, data + 2, len);
        data += 2 + len;
        size -= 2 + len;

        if (control & 4) {
            now += 1000;
            rstp_run(rstp, now);
        }
        if (control & 8) {
            CHECK(!rstp_port_set_enabled(rstp, port_no, false));
            CHECK(!rstp_port_set_enabled(rstp, port_no, true));
        }

        /* The frame, if it is one; else the bytes as a bare BPDU. */
        size_t bpdu_len;
        const uint8_t *bpdu = rstp_frame_bpdu(frame, len, &bpdu_len);
        if (bpdu) {
            CHECK(bpdu >= frame && bpdu + bpdu_len <= frame + len);
        } else {
            bpdu = frame;
            bpdu_len = len;
        }
        uint8_t *copy = xmalloc(bpdu_len ? bpdu_len : 1);
        memcpy(copy, bpdu, bpdu_len);

        struct rstp_bpdu decoded;
        const char *why = rstp_bpdu_decode(copy, bpdu_len, &decoded);
        if (!why) {
            check_round_trip(&decoded);
        }

        unsigned long long int errors = rstp_get_rx_errors(rstp);
        struct rstp_port_stats before, after;
        rstp_port_get_stats(rstp, port_no, &before);
        rstp_receive_bpdu(rstp, port_no, copy, bpdu_len);
        rstp_port_get_stats(rstp, port_no, &after);
        if (why) {
            CHECK(rstp_get_rx_errors(rstp) == errors + 1);
            CHECK(after.error_count == before.error_count + 1);
            CHECK(after.rx_count == before.rx_count);
        }

        for (int p = 1; p <= N_PORTS; p++) {
            enum rstp_state state = rstp_port_get_state(rstp, p);
            CHECK(state == RSTP_DISCARDING || state == RSTP_LEARNING
                  || state == RSTP_FORWARDING);
        }
        if (rstp_is_root_bridge(rstp)) {
            CHECK(rstp_get_root_path_cost(rstp) == 0);
            CHECK(rstp_get_root_port(rstp) == 0);
        }
        free(copy);
        free(frame);
    }
    rstp_destroy(rstp);
    return 0;
}
