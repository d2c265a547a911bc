#!/usr/bin/env python3
"""A lossy network between duo-capture and a remote display, in user space (no netem here): UDP on PORT is
relayed to TARGET both ways, each packet dropped with probability LOSS and delayed by DELAY ms plus up to
JITTER ms (in order-preserving fashion per direction), and nothing at all passes during OUTAGE seconds
starting at OUTAGE_AT (seconds after the first packet). TCP on PORT (the display's handshake) is passed
through untouched.

Usage: lossy-relay.py PORT TARGET_PORT LOSS DELAY_MS JITTER_MS OUTAGE_AT OUTAGE_SECONDS
"""
import heapq, random, select, socket, sys, threading, time

port, target = int(sys.argv[1]), int(sys.argv[2])
loss, delay, jitter = float(sys.argv[3]), float(sys.argv[4]) / 1000, float(sys.argv[5]) / 1000
outage_at, outage_for = float(sys.argv[6]), float(sys.argv[7])
rng = random.Random(7)
start = None


def tcp():
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen(8)
    while True:
        client, _ = server.accept()
        upstream = socket.create_connection(("127.0.0.1", target))

        def pipe(a, b):
            try:
                while True:
                    data = a.recv(4096)
                    if not data:
                        break
                    b.sendall(data)
            except OSError:
                pass
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
        threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()


threading.Thread(target=tcp, daemon=True).start()
front = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
front.bind(("127.0.0.1", port))
back = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
back.connect(("127.0.0.1", target))
sender = None
queue, seq = [], 0
last_due = {"up": 0.0, "down": 0.0}
print("relay ready", flush=True)
while True:
    now = time.monotonic()
    while queue and queue[0][0] <= now:
        _, _, direction, data = heapq.heappop(queue)
        if direction == "up":
            back.send(data)
        elif sender is not None:
            front.sendto(data, sender)
    timeout = max(0.0, queue[0][0] - now) if queue else 0.05
    ready, _, _ = select.select([front, back], [], [], min(timeout, 0.05))
    for s in ready:
        if s is front:
            data, sender = front.recvfrom(65536)
            direction = "up"
        else:
            data = back.recv(65536)
            direction = "down"
        now = time.monotonic()
        if start is None:
            start = now
        elapsed = now - start
        if outage_at <= elapsed < outage_at + outage_for:
            continue
        if rng.random() < loss:
            continue
        due = max(now + delay + rng.random() * jitter, last_due[direction])
        last_due[direction] = due
        seq += 1
        heapq.heappush(queue, (due, seq, direction, data))
