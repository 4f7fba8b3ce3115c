#! /usr/bin/env python3
"""tcp-segment SRC-IP SRC-PORT DST-IP DST-PORT FLAGS SEQ ACK

Prints, as hex for "ovs-appctl netdev-dummy/receive", an Ethernet frame
holding one IPv4 TCP segment with real sequence and acknowledgement
numbers and correct checksums, as connection tracking needs to see them.
FLAGS is letters: F (FIN), S (SYN), R (RST), P (PSH), A (ACK).  The MAC
addresses are those of the tests' ports p1 (50:54:00:00:00:01, address
10.0.0.1) and p2 (...:02), by the direction of the addresses."""
import struct
import sys


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xffff) + (total >> 16)
    return ~total & 0xffff


def main():
    src, sport, dst, dport, flags, seq, ack = sys.argv[1:8]
    bits = {"F": 1, "S": 2, "R": 4, "P": 8, "A": 16}
    tcp_flags = sum(bits[c] for c in flags)
    saddr = bytes(int(x) for x in src.split("."))
    daddr = bytes(int(x) for x in dst.split("."))
    tcp = struct.pack("!HHIIBBHHH", int(sport), int(dport), int(seq),
                      int(ack), 5 << 4, tcp_flags, 65535, 0, 0)
    pseudo = saddr + daddr + struct.pack("!BBH", 0, 6, len(tcp))
    tcp = tcp[:16] + struct.pack("!H", checksum(pseudo + tcp)) + tcp[18:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 0, 0x4000,
                     64, 6, 0, saddr, daddr)
    ip = ip[:10] + struct.pack("!H", checksum(ip)) + ip[12:]
    smac, dmac = ("01", "02") if src == "10.0.0.1" else ("02", "01")
    eth = bytes.fromhex("5054000000" + dmac + "5054000000" + smac + "0800")
    print((eth + ip + tcp).hex())


if __name__ == "__main__":
    main()
