#!/usr/bin/env python3
"""ofp-counting-controller.py SOCKET COUNT-FILE: a minimal OpenFlow 1.0 controller
for tests.  Listens on the Unix socket SOCKET, takes one switch at a time,
says hello, answers echo requests, and counts the packet_ins it receives:
after each one it rewrites COUNT-FILE with the total, so a test can wait
for a number, and appends "in_port=N" (the packet_in's input port) to
COUNT-FILE.log.  Runs until killed."""
import os
import socket
import struct
import sys


def recv_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def write_count(path, count):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % count)
    os.rename(tmp, path)


def serve(conn, path, count):
    conn.sendall(struct.pack("!BBHI", 1, 0, 8, 0))
    while True:
        header = recv_exact(conn, 8)
        if header is None:
            return count
        version, type_, length, xid = struct.unpack("!BBHI", header)
        body = recv_exact(conn, length - 8) if length > 8 else b""
        if body is None:
            return count
        if type_ == 2:          # Echo request: reply with its payload.
            conn.sendall(struct.pack("!BBHI", version, 3, length, xid) + body)
        elif type_ == 10:       # Packet in (1.0: in_port after 6 bytes).
            count += 1
            with open(path + ".log", "a") as log:
                log.write("in_port=%d\n" % struct.unpack("!H", body[6:8]))
            write_count(path, count)


def main():
    sock_path, count_path = sys.argv[1], sys.argv[2]
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(sock_path)
    listener.listen(1)
    count = 0
    write_count(count_path, count)
    while True:
        conn, _ = listener.accept()
        count = serve(conn, count_path, count)
        conn.close()


main()
