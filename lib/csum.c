#include <config.h>
#include "csum.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <string.h>

uint32_t
csum_continue(uint32_t partial, const void *data_, size_t n)
{
    const uint8_t *data = data_;
    uint64_t sum = partial;

    for (; n >= 2; data += 2, n -= 2) {
        sum += (uint32_t) data[0] << 8 | data[1];
    }
    if (n) {
        sum += (uint32_t) data[0] << 8;
    }
    /* Fold the carries now so that a running sum never overflows. */
    while (sum >> 32) {
        sum = (sum & 0xffffffff) + (sum >> 32);
    }
    return sum;
}

ovs_be16
csum_finish(uint32_t partial)
{
    while (partial >> 16) {
        partial = (partial & 0xffff) + (partial >> 16);
    }
    return htons(~partial & 0xffff);
}

ovs_be16
csum(const void *data, size_t n)
{
    return csum_finish(csum_continue(0, data, n));
}

uint32_t
csum_pseudo_ipv4(ovs_be32 src, ovs_be32 dst, uint8_t proto, uint16_t l4_len)
{
    uint32_t partial = 0;
    partial = csum_continue(partial, &src, 4);
    partial = csum_continue(partial, &dst, 4);
    return partial + proto + l4_len;
}

uint32_t
csum_pseudo_ipv6(const struct in6_addr *src, const struct in6_addr *dst,
                 uint8_t proto, uint32_t l4_len)
{
    uint32_t partial = 0;
    partial = csum_continue(partial, src, 16);
    partial = csum_continue(partial, dst, 16);
    return partial + (l4_len >> 16) + (l4_len & 0xffff) + proto;
}

/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'). */
ovs_be16
recalc_csum16(ovs_be16 old_csum, ovs_be16 old, ovs_be16 new)
{
    uint32_t sum = (uint16_t) ~ntohs(old_csum);
    sum += (uint16_t) ~ntohs(old);
    sum += ntohs(new);
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return htons(~sum & 0xffff);
}

ovs_be16
recalc_csum32(ovs_be16 old_csum, ovs_be32 old, ovs_be32 new)
{
    uint16_t o[2], n[2];
    memcpy(o, &old, 4);
    memcpy(n, &new, 4);
    return recalc_csum16(recalc_csum16(old_csum, o[0], n[0]), o[1], n[1]);
}

ovs_be16
recalc_csum128(ovs_be16 old_csum, const void *old, const void *new)
{
    uint16_t o[8], n[8];
    memcpy(o, old, 16);
    memcpy(n, new, 16);
    for (int i = 0; i < 8; i++) {
        old_csum = recalc_csum16(old_csum, o[i], n[i]);
    }
    return old_csum;
}

static uint32_t crc32c_table[256];

static void
crc32c_init(void)
{
    /* Reflected Castagnoli polynomial. */
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) {
            c = c & 1 ? (c >> 1) ^ 0x82f63b78 : c >> 1;
        }
        crc32c_table[i] = c;
    }
}

ovs_be32
crc32c(const void *data_, size_t n)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, crc32c_init);

    const uint8_t *data = data_;
    uint32_t crc = 0xffffffff;
    for (size_t i = 0; i < n; i++) {
        crc = crc32c_table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
    }
    crc = ~crc;
    /* SCTP sends the CRC least significant byte first: storing the host
     * value in little-endian order gives the wire bytes. */
    uint8_t bytes[4] = { crc, crc >> 8, crc >> 16, crc >> 24 };
    ovs_be32 out;
    memcpy(&out, bytes, 4);
    return out;
}
