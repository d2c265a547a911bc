#!/usr/bin/env python3
"""Careless and hostile peers of `duo-capture display --listen`'s handshake (TCP).

usage: handshake-peers.py PORT GUESSES
Opens one connection that says nothing and one that sends a byte every second, and prints "holding";
then guesses the passphrase GUESSES times in a row (a wrong proof), printing "guess N S" (seconds the
display took to answer) for each, then "guessed". Ends by itself within 20 s.
"""
import json
import socket
import sys
import threading
import time

port, guesses = int(sys.argv[1]), int(sys.argv[2])


def connect():
    return socket.create_connection(("127.0.0.1", port), timeout=15)


idle = connect()


def trickle():
    s = connect()
    try:
        for _ in range(15):
            s.sendall(b" ")
            time.sleep(1)
    except OSError:
        print("trickle closed by the display", flush=True)


threading.Thread(target=trickle, daemon=True).start()
print("holding", flush=True)
for n in range(guesses):
    s = connect()
    reader = s.makefile()
    reader.readline()
    start = time.monotonic()
    s.sendall((json.dumps({"proof": "00" * 32, "challenge": "ab" * 16}) + "\n").encode())
    verdict = json.loads(reader.readline())
    print("guess %d %.2f %s" % (n + 1, time.monotonic() - start, verdict.get("ok")), flush=True)
    s.close()
print("guessed", flush=True)
time.sleep(3)
