/* test-pcap FILE: prints each packet of a pcap capture as one line of hex,
 * so that tests can compare what a dummy port captured. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "dp-packet.h"
#include "pcap-file.h"
#include "util.h"

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    if (argc != 2) {
        ovs_fatal(0, "usage: %s FILE", argv[0]);
    }
    FILE *file = pcap_open_read(argv[1]);
    if (!file) {
        ovs_fatal(errno, "%s: cannot read", argv[1]);
    }
    struct dp_packet *packet;
    int error;
    while (!(error = pcap_read(file, &packet))) {
        const uint8_t *data = dp_packet_data(packet);
        for (size_t i = 0; i < dp_packet_size(packet); i++) {
            printf("%02x", data[i]);
        }
        putchar('\n');
        dp_packet_delete(packet);
    }
    fclose(file);
    if (error != EOF) {
        ovs_fatal(error, "%s: damaged capture", argv[1]);
    }
    return 0;
}
