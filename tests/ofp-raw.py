#!/usr/bin/env python3
"""ofp-raw.py SOCKET: speaks raw OpenFlow 1.0 to a switch's Unix socket,
for tests that send what no tool sends.  Reads commands on stdin, one per
line, and prints what comes back:

  send HEX       sends the bytes (a whole message, header included)
  recv           prints the next message as "type=T len=L xid=X" plus, for
                 an error, "error=TYPE/CODE"
  hello [V]      sends a hello of wire version V (1, OpenFlow 1.0, if
                 omitted) and receives the switch's
  closed         prints "closed" if the switch closed the connection
  conn N         makes connection N (opened now if new; 0 is the first)
                 the one the commands after it use
  shell CMD...   runs CMD with the shell and waits for it (to make the
                 switch do something while connections stay open)

A packet_in (1.0 or 1.3+) prints its buffer id, total length, reason and
how many bytes of the packet it carries: "buffer=ffffffff total_len=60
reason=0 data_len=60".
"""
import socket
import struct
import subprocess
import sys


def recv_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def recv_msg(sock):
    header = recv_exact(sock, 8)
    if header is None:
        return None
    version, type_, length, xid = struct.unpack("!BBHI", header)
    body = recv_exact(sock, length - 8) if length > 8 else b""
    return version, type_, length, xid, body


def packet_in_summary(version, body):
    if version == 1:
        buffer_id, total_len, _, reason = struct.unpack("!IHHB", body[:9])
        data = body[10:]
    else:
        buffer_id, total_len, reason = struct.unpack("!IHB", body[:7])
        # table_id, cookie, then the padded match and 2 bytes of pad.
        match_len = struct.unpack("!H", body[18:20])[0]
        data = body[16 + (match_len + 7) // 8 * 8 + 2:]
    return "buffer=%08x total_len=%d reason=%d data_len=%d" % (
        buffer_id, total_len, reason, len(data))


def connect(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(10)
    sock.connect(path)
    return sock


def main():
    conns = {"0": connect(sys.argv[1])}
    sock = conns["0"]
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "conn":
            if words[1] not in conns:
                conns[words[1]] = connect(sys.argv[1])
            sock = conns[words[1]]
        elif words[0] == "shell":
            subprocess.run(" ".join(words[1:]), shell=True, check=False,
                           stdout=subprocess.DEVNULL)
        elif words[0] == "hello":
            version = int(words[1]) if len(words) > 1 else 1
            sock.sendall(struct.pack("!BBHI", version, 0, 8, 1))
            msg = recv_msg(sock)
            print("hello" if msg and msg[1] == 0 else "no hello")
        elif words[0] == "send":
            sock.sendall(bytes.fromhex("".join(words[1:])))
        elif words[0] == "recv":
            msg = recv_msg(sock)
            if msg is None:
                print("closed")
                continue
            version, type_, length, xid, body = msg
            out = "type=%d len=%d xid=%d" % (type_, length, xid)
            if type_ == 1 and len(body) >= 4:
                out += " error=%d/%d" % struct.unpack("!HH", body[:4])
            elif type_ == 10:
                out += " " + packet_in_summary(version, body)
            print(out)
        elif words[0] == "closed":
            try:
                data = sock.recv(1)
            except OSError:
                data = b""
            print("closed" if not data else "open")
        sys.stdout.flush()


main()
