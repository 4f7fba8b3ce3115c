#! /usr/bin/env python3
"""UDP request and answer, for the connection tracking namespace tests.

  udp-echo.py server ADDR PORT     answers each datagram with its bytes
                                   reversed, and prints "from HOST:PORT"
                                   for each; runs until killed.
  udp-echo.py client ADDR PORT [SRC_PORT]
                                   sends one datagram (from SRC_PORT if
                                   given), waits up to 3 s for the answer:
                                   prints "answer ok" and exits 0, or
                                   prints "no answer" and exits 1."""
import socket
import sys


def server(addr, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((addr, port))
    while True:
        data, peer = s.recvfrom(65535)
        print("from %s:%d" % peer, flush=True)
        s.sendto(data[::-1], peer)


def client(addr, port, src_port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if src_port:
        s.bind(("0.0.0.0", src_port))
    s.settimeout(3)
    payload = b"conntrack-udp-test"
    s.sendto(payload, (addr, port))
    try:
        data, _ = s.recvfrom(65535)
    except socket.timeout:
        print("no answer")
        return 1
    print("answer ok" if data == payload[::-1] else "wrong answer")
    return 0 if data == payload[::-1] else 1


def main():
    mode, addr, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "server":
        server(addr, port)
    else:
        sys.exit(client(addr, port, int(sys.argv[4]) if len(sys.argv) > 4
                        else 0))


if __name__ == "__main__":
    main()
