#!/usr/bin/env python3
"""Bounded real traffic for the tracesync testbed (runs inside a host namespace).

  traffic.py serve PORT                    request/response server: reads a 4-byte length n and
                                           a 4-byte reply size m, then n bytes; answers m bytes
  traffic.py client ADDR PORT COUNT SEED   COUNT requests of random sizes, random pauses
  traffic.py sink PORT                     accepts one connection, reads until EOF
  traffic.py bulk ADDR PORT BYTES          sends BYTES bytes then closes
  traffic.py bcast LISTEN_ADDR BCAST PORT COUNT NAME
                                           sends COUNT broadcast datagrams (every 50 ms) to
                                           BCAST:PORT and receives the others' on PORT
Every mode stops by itself (bounded counts, socket timeouts).
"""
import random
import socket
import struct
import sys
import threading
import time


def recv_exact(s, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return bytes(buf)


def serve(port):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("0.0.0.0", port))
    srv.listen(8)
    srv.settimeout(0.5)
    active = [0]
    served = [0]
    lock = threading.Lock()

    def handle(c):
        c.settimeout(30)
        try:
            while True:
                n, m = struct.unpack("!II", recv_exact(c, 8))
                recv_exact(c, n)
                c.sendall(b"r" * m)
        except (EOFError, OSError):
            pass
        finally:
            c.close()
            with lock:
                active[0] -= 1

    # stops once every client has left (or after 60 s without any)
    start = time.time()
    while True:
        try:
            c, _ = srv.accept()
        except socket.timeout:
            with lock:
                idle = active[0] == 0
            if (served[0] > 0 and idle) or (served[0] == 0 and time.time() - start > 60):
                return
            continue
        with lock:
            active[0] += 1
            served[0] += 1
        threading.Thread(target=handle, args=(c,), daemon=True).start()


def client(addr, port, count, seed):
    rnd = random.Random(seed)
    for attempt in range(50):
        try:
            s = socket.create_connection((addr, port), timeout=10)
            break
        except OSError:
            time.sleep(0.1)
    else:
        sys.exit("cannot connect to %s:%d" % (addr, port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for _ in range(count):
        n = rnd.choice([16, 64, 200, 1000, 1400])
        m = rnd.choice([8, 32, 100, 500, 700])
        s.sendall(struct.pack("!II", n, m) + b"q" * n)
        recv_exact(s, m)
        time.sleep(rnd.uniform(0.001, 0.01))
    s.close()


def sink(port):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("0.0.0.0", port))
    srv.listen(1)
    srv.settimeout(60)
    c, _ = srv.accept()
    c.settimeout(30)
    while c.recv(65536):
        pass
    c.close()


def bulk(addr, port, total):
    for attempt in range(50):
        try:
            s = socket.create_connection((addr, port), timeout=10)
            break
        except OSError:
            time.sleep(0.1)
    else:
        sys.exit("cannot connect to %s:%d" % (addr, port))
    chunk = b"b" * 65536
    sent = 0
    while sent < total:
        s.sendall(chunk[: min(len(chunk), total - sent)])
        sent += min(len(chunk), total - sent)
    s.close()


def bcast(listen_addr, baddr, port, count, name):
    r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    r.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    r.bind(("", port))
    r.settimeout(0.05)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    s.bind((listen_addr, 0))
    for i in range(count):
        s.sendto(("%s %d" % (name, i)).encode(), (baddr, port))
        end = time.time() + 0.05
        while time.time() < end:
            try:
                r.recv(2048)
            except socket.timeout:
                break


if __name__ == "__main__":
    mode = sys.argv[1]
    a = sys.argv[2:]
    if mode == "serve":
        serve(int(a[0]))
    elif mode == "client":
        client(a[0], int(a[1]), int(a[2]), int(a[3]))
    elif mode == "sink":
        sink(int(a[0]))
    elif mode == "bulk":
        bulk(a[0], int(a[1]), int(a[2]))
    elif mode == "bcast":
        bcast(a[0], a[1], int(a[2]), int(a[3]), a[4])
    else:
        sys.exit(__doc__)
