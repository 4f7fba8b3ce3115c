/* pcap-file: reading and writing packet captures in the classic libpcap
 * format (the one tcpdump -r and Wireshark read).
 *
 * A file is a 24-byte global header (magic 0xa1b2c3d4, version 2.4, link
 * type 1: Ethernet) followed by records: a 16-byte header (seconds,
 * microseconds, captured length, original length) and the bytes.  We
 * write in host byte order, as libpcap does, and read either order.
 *
 * The caller owns the FILE and closes it with fclose().  Not thread-safe
 * on the same FILE: callers that share one lock around it. */
#ifndef PCAP_FILE_H
#define PCAP_FILE_H 1

#include <stdio.h>

struct dp_packet;

/* Creates (truncates) FILE_NAME and writes the global header.  NULL on
 * error (errno set). */
FILE *pcap_open_write(const char *file_name);
/* Opens FILE_NAME and checks its global header.  NULL on error (errno
 * set; EPROTO for a file that is not a pcap capture). */
FILE *pcap_open_read(const char *file_name);
/* Appends PACKET's frame as one record stamped with the current time,
 * and flushes. */
int pcap_write(FILE *, const struct dp_packet *);
/* Reads the next record into a new heap packet (*PACKETP).  Returns 0, EOF
 * at the end, or a positive errno (EPROTO for a damaged record). */
int pcap_read(FILE *, struct dp_packet **packetp);

#endif /* pcap-file.h */
