#! /usr/bin/env python3
"""ip-frag [-6] [--overlap] SRC SPORT DST DPORT LEN FRAG-DATA [ID]

Prints, one line of hex each (for "ovs-appctl netdev-dummy/receive"), the
Ethernet frames of the IP fragments of one UDP datagram from SRC:SPORT to
DST:DPORT with LEN bytes of payload (a byte pattern), in order: each
fragment carries FRAG-DATA bytes of the datagram (a multiple of 8), the
last one the rest.  The UDP and IP header checksums are right, so the
fragments of a datagram that went through NAT can be computed with the
translated addresses and compared with what a port sent.  ID (default 1)
is the IP identification.  -6 makes IPv6 fragments (a fragment
extension header).  --overlap makes the second fragment start 8 bytes
before the first one ends (an overlap: the set must be dropped).  The
MAC addresses are the tests' p1 (50:54:00:00:00:01) as source and p2
(...:02) as destination if DST is 10.0.0.2 or fc00::2 (p2's side, so
also for a datagram translated by SNAT), else the other way around."""
import ipaddress
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
    args = sys.argv[1:]
    v6 = "-6" in args
    overlap = "--overlap" in args
    args = [a for a in args if a not in ("-6", "--overlap")]
    src, sport, dst, dport, length, frag_data = args[:6]
    ident = int(args[6]) if len(args) > 6 else 1
    length, frag_data = int(length), int(frag_data)
    assert frag_data % 8 == 0

    saddr = ipaddress.ip_address(src).packed
    daddr = ipaddress.ip_address(dst).packed
    payload = bytes((i * 7 + 3) & 0xff for i in range(length))
    udp = struct.pack("!HHHH", int(sport), int(dport), 8 + length, 0)
    if v6:
        pseudo = saddr + daddr + struct.pack("!IxxxB", 8 + length, 17)
    else:
        pseudo = saddr + daddr + struct.pack("!BBH", 0, 17, 8 + length)
    csum = checksum(pseudo + udp + payload) or 0xffff
    datagram = udp[:6] + struct.pack("!H", csum) + payload

    to_p2 = dst in ("10.0.0.2", "fc00::2")
    smac, dmac = ("01", "02") if to_p2 else ("02", "01")
    eth = bytes.fromhex("5054000000" + dmac + "5054000000" + smac
                        + ("86dd" if v6 else "0800"))

    offsets = list(range(0, len(datagram), frag_data))
    for n, ofs in enumerate(offsets):
        start = ofs
        if overlap and n == 1:
            start -= 8
        end = min(ofs + frag_data, len(datagram))
        more = n + 1 < len(offsets)
        data = datagram[start:end]
        if v6:
            frag = struct.pack("!BBHI", 17, 0, start | more, ident)
            ip = (struct.pack("!IHBB", 0x60000000, len(frag) + len(data),
                              44, 64) + saddr + daddr)
            packet = ip + frag + data
        else:
            ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(data), ident,
                             (0x2000 if more else 0) | (start >> 3), 64, 17,
                             0, saddr, daddr)
            ip = ip[:10] + struct.pack("!H", checksum(ip)) + ip[12:]
            packet = ip + data
        print((eth + packet).hex())


if __name__ == "__main__":
    main()
