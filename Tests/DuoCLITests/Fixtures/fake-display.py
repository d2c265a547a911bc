#!/usr/bin/env python3
"""A stand-in for `duo-capture display --listen`'s handshake (TCP), saying what a test wants it to say.

usage: fake-display.py PORT WIDTH HEIGHT MODE [PASSPHRASE] [REASON]
  MODE accept: accepts, proving PASSPHRASE back as a real display does
       accept-unproven: accepts without a proof (a display that does not hold the passphrase)
       refuse: refuses with REASON
Prints "ready" once it listens and "answered N" after each sender; serves until killed.
"""
import hashlib
import hmac
import json
import os
import socket
import sys

port, width, height, mode = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
passphrase = sys.argv[5] if len(sys.argv) > 5 else ""
reason = sys.argv[6] if len(sys.argv) > 6 else "no"


def proof(text):
    return hmac.new(passphrase.encode(), text.encode(), hashlib.sha256).hexdigest()


server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", port))
server.listen(8)
print("ready", flush=True)
answered = 0
while True:
    client, _ = server.accept()
    client.settimeout(5)
    challenge = os.urandom(16).hex()
    hello = {"display": 1, "width": width, "height": height, "refresh": 60, "encrypted": bool(passphrase), "challenge": challenge}
    try:
        client.sendall((json.dumps(hello) + "\n").encode())
        line = client.makefile().readline()
        answer = json.loads(line)
        if mode == "refuse":
            verdict = {"ok": False, "reason": reason}
        else:
            verdict = {"ok": True}
            if mode == "accept" and answer.get("challenge"):
                text = "duo-capture display|%s|%dx%d@%d|%s|%s" % (answer["challenge"], width, height, 60,
                                                                  "true" if passphrase else "false", challenge)
                verdict["proof"] = proof(text)
        client.sendall((json.dumps(verdict) + "\n").encode())
        answered += 1
        print("answered %d" % answered, flush=True)
    except (OSError, ValueError) as error:
        print("error %s" % error, flush=True)
    client.close()
