#include <config.h>
#include "pcap-file.h"

#include <errno.h>
#include <stdint.h>
#include <sys/time.h>
#include "dp-packet.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(pcap);

#define PCAP_MAGIC 0xa1b2c3d4
#define PCAP_MAGIC_SWAPPED 0xd4c3b2a1
#define PCAP_MAX_RECORD 262144      /* Bigger is a damaged file. */

struct pcap_hdr {
    uint32_t magic;
    uint16_t version_major, version_minor;
    int32_t thiszone;
    uint32_t sigfigs;
    uint32_t snaplen;
    uint32_t network;
};

struct pcap_record_hdr {
    uint32_t ts_sec, ts_usec;
    uint32_t incl_len, orig_len;
};

/* Whether the file being read is in the other byte order.  One reader at
 * a time per process is all the tools need; the order is remembered per
 * FILE through its buffer pointer would be overkill. */
static _Thread_local bool read_swapped;

FILE *
pcap_open_write(const char *file_name)
{
    FILE *file = fopen(file_name, "wb");
    if (!file) {
        return NULL;
    }
    struct pcap_hdr hdr = {
        .magic = PCAP_MAGIC, .version_major = 2, .version_minor = 4,
        .snaplen = 65535, .network = 1,
    };
    if (fwrite(&hdr, sizeof hdr, 1, file) != 1 || fflush(file)) {
        int error = errno;
        fclose(file);
        errno = error;
        return NULL;
    }
    return file;
}

FILE *
pcap_open_read(const char *file_name)
{
    FILE *file = fopen(file_name, "rb");
    if (!file) {
        return NULL;
    }
    struct pcap_hdr hdr;
    if (fread(&hdr, sizeof hdr, 1, file) != 1
        || (hdr.magic != PCAP_MAGIC && hdr.magic != PCAP_MAGIC_SWAPPED)) {
        fclose(file);
        errno = EPROTO;
        return NULL;
    }
    read_swapped = hdr.magic == PCAP_MAGIC_SWAPPED;
    return file;
}

int
pcap_write(FILE *file, const struct dp_packet *packet)
{
    struct timeval now;
    gettimeofday(&now, NULL);
    struct pcap_record_hdr rec = {
        .ts_sec = now.tv_sec, .ts_usec = now.tv_usec,
        .incl_len = dp_packet_size(packet),
        .orig_len = dp_packet_size(packet),
    };
    if (fwrite(&rec, sizeof rec, 1, file) != 1
        || fwrite(dp_packet_data(packet), 1, rec.incl_len, file)
           != rec.incl_len
        || fflush(file)) {
        return errno ? errno : EIO;
    }
    return 0;
}

int
pcap_read(FILE *file, struct dp_packet **packetp)
{
    struct pcap_record_hdr rec;

    *packetp = NULL;
    size_t n = fread(&rec, 1, sizeof rec, file);
    if (n == 0 && feof(file)) {
        return EOF;
    }
    if (n != sizeof rec) {
        return EPROTO;
    }
    uint32_t len = read_swapped ? __builtin_bswap32(rec.incl_len)
                                : rec.incl_len;
    if (len > PCAP_MAX_RECORD) {
        return EPROTO;
    }
    struct dp_packet *packet = dp_packet_new(len);
    if (fread(dp_packet_put_uninit(packet, len), 1, len, file) != len) {
        dp_packet_delete(packet);
        return EPROTO;
    }
    *packetp = packet;
    return 0;
}
