/* libFuzzer target: LACPDU parsing (lacp_pdu_parse(), lib/lacp-pdu.c) and
 * the LACP engine's receive path (lacp_process_packet(), lib/lacp.c).
 *
 * The input's first byte picks the receiving bond's settings (bit 0
 * active, bit 1 fast, bit 2 fallback_ab, bit 3 the member's carrier up,
 * bit 4 a second member); the rest is one Ethernet frame, handed over from
 * a copy at the very end of its own heap block, so that a read past the
 * frame is an ASan error.  What must hold:
 *   - a frame parsed as an LACPDU, written again with lacp_compose_pdu()
 *     from what was parsed, parses to the same actor and partner, and its
 *     information TLVs are the input's bytes;
 *   - the engine counts the frame once: as an error if the parser said
 *     bad, as a marker if a marker, neither if an LACPDU;
 *   - a bad frame or a marker changes nothing visible;
 *   - an LACPDU on a member with carrier makes the member current with
 *     the PDU's actor as its partner;
 *   - may_enable implies attached, lacp_run()'s next deadline is in the
 *     future, and lacp/show prints the bond.
 * Any disagreement aborts, which libFuzzer reports as a crash. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "lacp-pdu.h"
#include "lacp.h"
#include "packets.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(COND) do { if (!(COND)) { abort(); } } while (0)

static void
count_send(void *member_aux, const void *frame, size_t len, void *aux)
{
    int *n = aux;
    CHECK(len == LACP_FRAME_LEN);
    CHECK(!memcmp(frame, lacp_eth_dst.ea, ETH_ADDR_LEN));
    (*n)++;
}

/* Where the LACPDU starts in FRAME (after the tags), given it parsed. */
static size_t
pdu_offset(const uint8_t *frame)
{
    size_t ofs = 12;
    while (frame[ofs] == 0x81 || frame[ofs] == 0x88) {
        if ((frame[ofs] == 0x81 && frame[ofs + 1] == 0x00)
            || (frame[ofs] == 0x88 && frame[ofs + 1] == 0xa8)) {
            ofs += 4;
        } else {
            break;
        }
    }
    return ofs + 2;
}

static void
check_codec(const uint8_t *frame, size_t len, enum lacp_pdu_kind kind,
            const struct lacp_info *actor, const struct lacp_info *partner)
{
    if (kind != LACP_PDU_LACP) {
        return;
    }
    size_t ofs = pdu_offset(frame);
    CHECK(ofs + LACP_PDU_LEN <= len);

    uint8_t again[LACP_FRAME_LEN];
    struct eth_addr src;
    memcpy(src.ea, frame + ETH_ADDR_LEN, ETH_ADDR_LEN);
    lacp_compose_pdu(again, src, actor, partner);
    CHECK(!memcmp(again + ETH_ADDR_LEN, frame + ETH_ADDR_LEN, ETH_ADDR_LEN));

    struct lacp_info a2, p2;
    CHECK(lacp_pdu_parse(again, sizeof again, &a2, &p2) == LACP_PDU_LACP);
    CHECK(lacp_info_equal(&a2, actor));
    CHECK(lacp_info_equal(&p2, partner));
    /* The two information TLVs (type, length, 15 bytes each). */
    CHECK(!memcmp(again + ETH_HEADER_LEN + 2, frame + ofs + 2, 17));
    CHECK(!memcmp(again + ETH_HEADER_LEN + 22, frame + ofs + 22, 17));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool initialized;
    if (!initialized) {
        initialized = true;
        vlog_set_levels_from_string_assert("ANY:ANY:OFF");
        time_stop();
    }
    if (size < 1) {
        return 0;
    }
    uint8_t flags = data[0];
    size_t len = size - 1;
    uint8_t *frame = xmalloc(len ? len : 1);
    memcpy(frame, data + 1, len);
    /* An exact-size copy: reads past the end are caught. */
    uint8_t *exact = xmalloc(len ? len : 1);
    memcpy(exact, frame, len);

    struct lacp_info actor, partner;
    enum lacp_pdu_kind kind = lacp_pdu_parse(exact, len, &actor, &partner);
    CHECK(kind == LACP_PDU_BAD || kind == LACP_PDU_LACP
          || kind == LACP_PDU_MARKER);
    check_codec(exact, len, kind, &actor, &partner);

    /* The engine. */
    struct lacp *lacp = lacp_create();
    struct lacp_settings s = {
        .name = "fuzz-bond",
        .id = { { 0x02, 0, 0, 0, 0, 1 } },
        .priority = 100,
        .active = flags & 1,
        .fast = flags & 2,
        .fallback_ab = flags & 4,
    };
    CHECK(lacp_configure(lacp, &s));
    int members[2];
    int n_members = flags & 16 ? 2 : 1;
    for (int i = 0; i < n_members; i++) {
        struct lacp_member_settings ms = {
            .name = i ? "m1" : "m0", .id = i + 1, .priority = 1,
            .mac = { { 0x02, 0, 0, 0, 1, i } },
        };
        lacp_member_register(lacp, &members[i], &ms);
        lacp_member_carrier_changed(lacp, &members[i], i || (flags & 8));
    }
    int n_sent = 0;
    long long int now = time_msec();
    lacp_run(lacp, now, count_send, &n_sent);

    struct lacp_member_stats before, after;
    CHECK(lacp_get_member_stats(lacp, &members[0], &before));
    bool changed = lacp_process_packet(lacp, &members[0], exact, len);
    CHECK(lacp_get_member_stats(lacp, &members[0], &after));

    CHECK(after.rx_pdus == before.rx_pdus + 1);
    CHECK(after.rx_errors == before.rx_errors + (kind == LACP_PDU_BAD));
    CHECK(after.rx_markers == before.rx_markers + (kind == LACP_PDU_MARKER));
    if (kind != LACP_PDU_LACP || !(flags & 8)) {
        CHECK(!changed);
        CHECK(after.defaulted == before.defaulted
              && after.expired == before.expired
              && after.attached == before.attached
              && after.may_enable == before.may_enable);
        CHECK(lacp_info_equal(&after.partner, &before.partner));
    } else {
        CHECK(after.current);
        CHECK(lacp_info_equal(&after.partner, &actor));
    }

    long long int next = lacp_run(lacp, now, count_send, &n_sent);
    CHECK(next > now);
    for (int i = 0; i < n_members; i++) {
        struct lacp_member_stats st;
        CHECK(lacp_get_member_stats(lacp, &members[i], &st));
        CHECK(!st.may_enable || st.attached);
        CHECK(st.may_enable == lacp_member_may_enable(lacp, &members[i]));
    }

    struct ds ds = DS_EMPTY_INITIALIZER;
    CHECK(lacp_show(&ds, "fuzz-bond"));
    CHECK(strstr(ds_cstr(&ds), "---- fuzz-bond ----\n") == ds_cstr(&ds));
    ds_clear(&ds);
    CHECK(lacp_show_stats(&ds, "fuzz-bond"));
    ds_destroy(&ds);

    lacp_unref(lacp);
    free(exact);
    free(frame);
    return 0;
}
