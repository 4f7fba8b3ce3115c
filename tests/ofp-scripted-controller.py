#!/usr/bin/env python3
"""ofp-scripted-controller.py SOCKET: a minimal OpenFlow 1.0 controller for tests.

Listens on the Unix socket SOCKET and takes the first connection a switch
makes to it (Bridge:controller "unix:SOCKET").  Says hello, answers echo
requests, and prints one line per message it receives ("type=T xid=X"),
flushing each, so that a test can wait for what it expects.  Reads commands
on stdin, one per line, and acts on each once the switch is connected:

  send HEX       sends the bytes (a whole message, header included)

Exits when stdin ends and the switch closed the connection, or after 60
seconds without either.
"""
import os
import select
import socket
import struct
import sys
import time


def main():
    path = sys.argv[1]
    if os.path.exists(path):
        os.unlink(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)
    listener.settimeout(60)
    conn, _ = listener.accept()
    conn.sendall(struct.pack("!BBHI", 1, 0, 8, 1))
    print("connected", flush=True)

    buf = b""
    pending = b""               # Unfinished command line from stdin.
    stdin_open = True
    deadline = time.time() + 60
    while time.time() < deadline:
        fds = [conn] + ([sys.stdin] if stdin_open else [])
        readable, _, _ = select.select(fds, [], [], 1)
        if sys.stdin in readable:
            # Unbuffered: select() must see every line that is not read.
            data = os.read(sys.stdin.fileno(), 4096)
            if not data:
                stdin_open = False
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                if line.startswith(b"send "):
                    conn.sendall(bytes.fromhex(
                        line[5:].decode().replace(" ", "")))
        if conn in readable:
            data = conn.recv(65536)
            if not data:
                print("closed", flush=True)
                return
            buf += data
            while len(buf) >= 8:
                version, type_, length, xid = struct.unpack("!BBHI", buf[:8])
                if len(buf) < length:
                    break
                msg, buf = buf[:length], buf[length:]
                print("type=%d xid=%d" % (type_, xid), flush=True)
                if type_ == 2:      # Echo request: the reply keeps us up.
                    conn.sendall(struct.pack("!BBHI", version, 3, length,
                                             xid) + msg[8:])


if __name__ == "__main__":
    main()
