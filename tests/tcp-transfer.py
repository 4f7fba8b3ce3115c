#! /usr/bin/env python3
"""TCP transfer both ways, for the datapath's namespace tests.

  tcp-transfer.py server ADDR PORT   accepts one connection, reads until
                                     the peer shuts down its side, sends
                                     back the same number of bytes of its
                                     own pattern, prints "received N SHA".
  tcp-transfer.py client ADDR PORT N sends N bytes of a pattern, shuts
                                     down its side, reads the answer,
                                     prints "received N SHA".

Both sides give up after 30 seconds (a bound, not a measurement)."""
import hashlib
import socket
import sys


def pattern(n, seed):
    block = bytes((i * seed + 7) % 251 for i in range(65536))
    out = bytearray()
    while len(out) < n:
        out += block
    return bytes(out[:n])


def drain(conn):
    h = hashlib.sha256()
    total = 0
    while True:
        data = conn.recv(65536)
        if not data:
            break
        h.update(data)
        total += len(data)
    return total, h.hexdigest()


def main():
    mode, addr, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "server":
        srv = socket.socket()
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind((addr, port))
        srv.listen(1)
        srv.settimeout(30)
        conn, _ = srv.accept()
        conn.settimeout(30)
        n, digest = drain(conn)
        conn.sendall(pattern(n, 5))
        conn.shutdown(socket.SHUT_WR)
        print("received %d %s" % (n, digest))
    else:
        n = int(sys.argv[4])
        conn = socket.create_connection((addr, port), timeout=30)
        conn.sendall(pattern(n, 3))
        conn.shutdown(socket.SHUT_WR)
        got, digest = drain(conn)
        print("received %d %s" % (got, digest))


if __name__ == "__main__":
    main()
