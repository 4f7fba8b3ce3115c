#! /usr/bin/env python3
# Writes the seed corpus of tests/fuzz/fuzz-conntrack.c into the directory
# named on the command line: whole conversations (a TCP handshake, data
# and close, UDP both ways, ICMP echo and an error about a UDP flow, an FTP
# control channel with PORT and PASV replies, TFTP, IPv6 TCP) in the
# target's input format (an op byte and a length byte before each frame).
import os
import struct
import sys

MAC_A = bytes.fromhex("020000000001")
MAC_B = bytes.fromhex("020000000002")


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def ip4(src, dst, proto, l4):
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), 1, 0, 64,
                      proto, 0, bytes(src), bytes(dst))
    hdr = hdr[:10] + struct.pack("!H", csum(hdr)) + hdr[12:]
    return MAC_B + MAC_A + b"\x08\x00" + hdr + l4


def ip6(src, dst, proto, l4):
    hdr = struct.pack("!IHBB16s16s", 0x60000000, len(l4), proto, 64,
                      bytes(src), bytes(dst))
    return MAC_B + MAC_A + b"\x86\xdd" + hdr + l4


def l4_csum(src, dst, proto, l4, v6):
    if v6:
        pseudo = bytes(src) + bytes(dst) + struct.pack("!IxxxB", len(l4),
                                                       proto)
    else:
        pseudo = bytes(src) + bytes(dst) + struct.pack("!xBH", proto,
                                                       len(l4))
    return csum(pseudo + l4)


def tcp(src, dst, sport, dport, seq, ack, flags, payload=b"", v6=False):
    seg = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, 5 << 4, flags,
                      65535, 0, 0) + payload
    c = l4_csum(src, dst, 6, seg, v6)
    seg = seg[:16] + struct.pack("!H", c) + seg[18:]
    return (ip6 if v6 else ip4)(src, dst, 6, seg)


def udp(src, dst, sport, dport, payload, v6=False):
    dg = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload
    c = l4_csum(src, dst, 17, dg, v6) or 0xffff
    dg = dg[:6] + struct.pack("!H", c) + dg[8:]
    return (ip6 if v6 else ip4)(src, dst, 17, dg)


def icmp(src, dst, typ, code, rest):
    msg = struct.pack("!BBH", typ, code, 0) + rest
    msg = msg[:2] + struct.pack("!H", csum(msg)) + msg[4:]
    return ip4(src, dst, 1, msg)


A, B = [10, 0, 0, 1], [10, 0, 0, 2]
A6 = bytes.fromhex("fc000000000000000000000000000001")
B6 = bytes.fromhex("fc000000000000000000000000000002")
SYN, ACK, FIN, PSH = 0x02, 0x10, 0x01, 0x08


def tcp_conversation(action, v6=False, request=b"GET /\r\n",
                     reply=b"200 ok\r\n", dport=80):
    a, b = (A6, B6) if v6 else (A, B)
    cs, ss = 1000, 5000
    frames = [
        (action, tcp(a, b, 40000, dport, cs, 0, SYN, v6=v6)),
        (action, tcp(b, a, dport, 40000, ss, cs + 1, SYN | ACK, v6=v6)),
        (action, tcp(a, b, 40000, dport, cs + 1, ss + 1, ACK, v6=v6)),
        (action, tcp(a, b, 40000, dport, cs + 1, ss + 1, ACK | PSH,
                     request, v6=v6)),
        (action, tcp(b, a, dport, 40000, ss + 1, cs + 1 + len(request),
                     ACK | PSH, reply, v6=v6)),
        (action, tcp(a, b, 40000, dport, cs + 1 + len(request),
                     ss + 1 + len(reply), ACK | FIN, v6=v6)),
        (action, tcp(b, a, dport, 40000, ss + 1 + len(reply),
                     cs + 2 + len(request), ACK | FIN, v6=v6)),
        (action, tcp(a, b, 40000, dport, cs + 2 + len(request),
                     ss + 2 + len(reply), ACK, v6=v6)),
    ]
    return frames


def encode(frames):
    out = b""
    for op, f in frames:
        assert len(f) <= 255
        out += bytes([op, len(f)]) + f
    return out


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    seeds = {}
    for action in range(8):
        seeds["tcp-%d" % action] = tcp_conversation(action)
    seeds["tcp6-commit"] = tcp_conversation(0, v6=True)
    seeds["tcp6-snat"] = tcp_conversation(2, v6=True)
    seeds["ftp-port"] = tcp_conversation(
        5, request=b"PORT 10,0,0,1,200,10\r\n",
        reply=b"200 PORT command successful.\r\n", dport=21)
    seeds["ftp-pasv"] = tcp_conversation(
        5, request=b"PASV\r\n",
        reply=b"227 Entering Passive Mode (10,0,0,2,200,11).\r\n", dport=21)
    seeds["ftp6-eprt"] = tcp_conversation(
        5, v6=True, request=b"EPRT |2|fc00::1|51210|\r\n",
        reply=b"200 EPRT command successful.\r\n", dport=21)
    # The same frame both ways (the reverse bit), under each NAT.
    for action in (2, 3):
        seeds["udp-rev-%d" % action] = [
            (action, udp(A, B, 5000, 53, b"query")),
            (action | 8, udp(A, B, 5000, 53, b"reply")),
            (4, udp(A, B, 5000, 53, b"again")),
            (4 | 8 | 16, udp(A, B, 5000, 53, b"back")),
        ]
    seeds["udp6"] = [(0, udp(A6, B6, 5000, 53, b"q", v6=True)),
                     (8, udp(A6, B6, 5000, 53, b"r", v6=True))]
    seeds["tftp"] = [(6, udp(A, B, 3000, 69, b"\0\1file\0octet\0")),
                     (0, udp(B, A, 4000, 3000, b"\0\3\0\1data"))]
    inner = udp(A, B, 6000, 7000, b"x")[14:14 + 28]
    seeds["icmp"] = [
        (0, icmp(A, B, 8, 0, struct.pack("!HH", 7, 1) + b"ping")),
        (0, icmp(B, A, 0, 0, struct.pack("!HH", 7, 1) + b"ping")),
        (0, udp(A, B, 6000, 7000, b"x")),
        (0, icmp(B, A, 3, 3, b"\0\0\0\0" + inner)),
    ]
    # Timeouts: a UDP flow, then the clock jumps (bits 5-7).
    seeds["udp-expire"] = [(0, udp(A, B, 1, 2, b"a")),
                           (1 | (7 << 5), udp(A, B, 1, 2, b"b"))]
    # Many flows, past the limits, in one batch.
    seeds["udp-many"] = [(7 | 16, udp(A, B, 100 + i, 2, b"")) for i in range(50)]
    for name, frames in seeds.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(encode(frames))


main()
