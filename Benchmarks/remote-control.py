#!/usr/bin/env python3
"""Command-to-event latency of the web remote and OSC against the Unix control socket, in one run.

One headless duo-capture run (test source, a script) with --control, --remote-control and --osc. For
each way in, COUNT commands (`pause`, which changes the scroll and nothing else) are sent one at a time;
the latency is from just before the send to the `command` event for it arriving on a control-socket
reader (the same event stream for all three). Commands are paced 20 ms apart, under the remote's
command rate (100 a second), and the three ways take turns, so they see the same load.

Prints median and p95 per way, and each remote way's median against the control socket's (target:
within 5 ms).

Usage: python3 Benchmarks/remote-control.py [COUNT] [--debug]   (default 200; --debug uses the debug build)
"""
import base64, json, os, re, select, socket, statistics, struct, subprocess, sys, tempfile, time

from bench import release_app, root

args = [a for a in sys.argv[1:] if not a.startswith("--")]
count = int(args[0]) if args else 200
app = os.path.join(root, ".build", "debug", "duo-capture") if "--debug" in sys.argv else release_app()

work = tempfile.mkdtemp(prefix="duo-remote-bench-")
script = os.path.join(work, "talk.md")
open(script, "w").write("# Bench\n\n" + "Words to read at an even pace for the benchmark. " * 200 + "\n")
control_path = os.path.join(work, "control.sock")
proc = subprocess.Popen([app, "--headless", "--source", "videotestsrc", "--format", "320x240@30", "--audio", "none",
                         "--script", script, "--control", control_path, "--remote-control", "0", "--osc", "0", "--quiet"],
                        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
stderr_lines = []
web_port = osc_port = token = None
deadline = time.monotonic() + 30
while (web_port is None or osc_port is None) and time.monotonic() < deadline:
    line = proc.stderr.readline()
    stderr_lines.append(line)
    m = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]+)", line)
    if m:
        web_port, token = int(m.group(1)), m.group(2)
    m = re.search(r"OSC listening on udp://127\.0\.0\.1:(\d+)", line)
    if m:
        osc_port = int(m.group(1))
if web_port is None or osc_port is None:
    sys.exit("remote-control.py: duo-capture did not print its remote addresses: " + "".join(stderr_lines))
while not os.path.exists(control_path):
    time.sleep(0.01)


class Events:
    """A control-socket client: sends JSON lines, reads event lines."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(control_path)
        self.pending = b""

    def send(self, line):
        self.sock.sendall(line.encode() + b"\n")

    def next_command(self, source):
        while True:
            while b"\n" in self.pending:
                line, self.pending = self.pending.split(b"\n", 1)
                event = json.loads(line)
                if event.get("event") == "command" and event.get("source") == source:
                    return time.perf_counter()
            chunk = self.sock.recv(65536)
            if not chunk:
                sys.exit("remote-control.py: the control socket closed")
            self.pending += chunk


events = Events()
sender = Events()   # the control-socket way in: its own connection

ws = socket.create_connection(("127.0.0.1", web_port))
ws.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
key = base64.b64encode(os.urandom(16)).decode()
ws.sendall((f"GET /ws?token={token} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            f"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {key}\r\n\r\n").encode())
answer = b""
while b"\r\n\r\n" not in answer:
    answer += ws.recv(4096)
assert b" 101 " in answer.split(b"\r\n")[0], answer


def ws_send(text):
    payload = text.encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    ws.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)


def drain_ws():
    # The page's socket and the sending control client get every event too: read them, as a client does.
    for s in (ws, sender.sock):
        while select.select([s], [], [], 0)[0]:
            if not s.recv(65536):
                break


osc = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)


def osc_message(address):
    def pad(b):
        return b + b"\0" * (4 - len(b) % 4)
    return pad(address.encode()) + pad(b",")


osc_pause = osc_message("/duo/pause")
ways = {
    "control socket": ("control", lambda: sender.send('{"cmd":"pause"}')),
    "web remote": ("remote", lambda: ws_send('{"cmd":"pause"}')),
    "OSC": ("osc", lambda: osc.sendto(osc_pause, ("127.0.0.1", osc_port))),
}
samples = {name: [] for name in ways}
time.sleep(1.0)   # the graph plays and the first status passes
for i in range(count):
    for name, (source, send) in ways.items():
        drain_ws()
        start = time.perf_counter()
        send()
        samples[name].append((events.next_command(source) - start) * 1000)
        time.sleep(0.02)

sender.send('{"cmd":"quit"}')
proc.wait(timeout=30)


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


base = statistics.median(samples["control socket"])
print(f"command-to-event latency over {count} commands each ({'debug' if '--debug' in sys.argv else 'release'} build)")
print(f"{'way in':<16}{'median ms':>11}{'p95 ms':>9}{'vs socket':>11}")
for name, values in samples.items():
    median = statistics.median(values)
    print(f"{name:<16}{median:>11.2f}{p95(values):>9.2f}{median - base:>+11.2f}")
print("(target: each remote way's median within 5 ms of the control socket's)")
