#!/usr/bin/env python3
"""Soak with the remotes connected (issue 35): memory over a long run, and its slope after warm-up.

Runs duo-capture headless (videotestsrc) with the web remote, OSC and the control socket. Two phone pages
stay connected on the WebSocket (reading every event, a speed command every 5 s), an OSC controller sends
/duo/state and /duo/speed/up|down every second (reading its feedback), and the control socket makes a
take every 20 s (10 s long). The process's resident memory (VmRSS) is read every 5 s; after WARMUP
seconds the slope is fitted (least squares) and printed in kB a minute, for the first and second half of
the measured time too (a leak keeps its slope; warm-up growth slows down). Every take must end kept.

Usage: python3 Benchmarks/soak.py [SECONDS] [--binary PATH] [--no-remotes]
       (default 1200 s: 20 minutes; warm-up 90 s; PATH defaults to a release build of duo-capture)
"""
import base64, json, os, re, socket, struct, subprocess, sys, tempfile, threading, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = [a for a in sys.argv[1:]]
binary = None
if "--binary" in args:
    i = args.index("--binary"); binary = args[i + 1]; del args[i:i + 2]
remotes = "--no-remotes" not in args
args = [a for a in args if a != "--no-remotes"]
seconds = float(args[0]) if args else 1200.0
warmup = min(90.0, seconds / 3)
if binary is None:
    subprocess.run(["swift", "build", "-c", "release", "--product", "duo-capture"], cwd=root, check=True, stdout=sys.stderr)
    binary = os.path.join(root, ".build", "release", "duo-capture")
work = tempfile.mkdtemp(prefix="duo-soak-")
sock = os.path.join(work, "control.sock")
extra = ["--remote-control", "0", "--osc", "0"] if remotes else []
p = subprocess.Popen([binary, "--headless", "--source", "videotestsrc", "--format", "640x360@30", "--countdown", "0",
                      "--record-dir", work, "--control", sock, "--events", os.path.join(work, "events.jsonl")] + extra,
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
err_lines = []
def read_err():
    for line in p.stderr:
        err_lines.append(line)
threading.Thread(target=read_err, daemon=True).start()
deadline = time.time() + 30
while time.time() < deadline and not (os.path.exists(sock) and (not remotes or any("OSC listening" in l for l in err_lines))):
    time.sleep(0.1)
text = "".join(err_lines)
web_port = token = osc_port = None
if remotes:
    m = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]+)", text)
    web_port, token = int(m.group(1)), m.group(2)
    osc_port = int(re.search(r"udp://127\.0\.0\.1:(\d+)", text).group(1))
stop = threading.Event()

def page(n):
    s = socket.create_connection(("127.0.0.1", web_port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{web_port}\r\nOrigin: http://127.0.0.1:{web_port}\r\n"
               f"Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {key}\r\n\r\n").encode())
    s.settimeout(1.0)
    last = time.time()
    while not stop.is_set():
        try:
            if not s.recv(65536):
                return
        except socket.timeout:
            pass
        if time.time() - last > 5:
            last = time.time()
            payload = json.dumps({"cmd": "speed", "step": 1 if n % 2 else -1}).encode()
            mask = os.urandom(4)
            s.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

def osc_message(address):
    def pad(b):
        return b + b"\0" * (4 - len(b) % 4)
    return pad(address.encode()) + pad(b",")

def osc():
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.settimeout(0.2)
    i = 0
    while not stop.is_set():
        for a in ["/duo/state", "/duo/speed/up" if i % 2 else "/duo/speed/down"]:
            u.sendto(osc_message(a), ("127.0.0.1", osc_port))
        try:
            while True:
                u.recv(65536)
        except socket.timeout:
            pass
        i += 1
        time.sleep(0.8)

c = socket.socket(socket.AF_UNIX)
c.connect(sock)
c.settimeout(0.5)
def control(cmd):
    c.sendall((json.dumps({"cmd": cmd}) + "\n").encode())
threads = [threading.Thread(target=page, args=(n,), daemon=True) for n in range(2)] + [threading.Thread(target=osc, daemon=True)] if remotes else []
for t in threads:
    t.start()

def rss_kb():
    for line in open(f"/proc/{p.pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

start = time.time()
samples, next_take, recording, next_sample = [], start + 5, False, start
while time.time() - start < seconds and p.poll() is None:
    now = time.time()
    if now >= next_take:
        control("stop" if recording else "record")
        recording = not recording
        next_take += 10
    if now >= next_sample:
        samples.append((now - start, rss_kb()))
        next_sample += 5
    try:
        c.recv(65536)   # read the control socket's events, as a client that keeps up
    except socket.timeout:
        pass
if recording:
    control("stop")
    time.sleep(1)
control("quit")
stop.set()
p.wait(timeout=60)

def slope(points):
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n; my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx * 60 if sxx else 0.0

measured = [s for s in samples if s[0] >= warmup]
half = len(measured) // 2
events = [json.loads(l) for l in open(os.path.join(work, "events.jsonl")) if l.strip()]
ended = [e for e in events if e.get("event") == "take-ended"]
print(f"soak: {seconds:.0f} s, remotes {'on' if remotes else 'off'}, {len(ended)} takes, "
      f"{sum(1 for e in ended if e.get('kept'))} kept, {sum(e.get('dropped', 0) for e in ended)} dropped")
print(f"RSS {samples[0][1] / 1024:.1f} MB at {samples[0][0]:.0f} s, {measured[0][1] / 1024:.1f} MB at {measured[0][0]:.0f} s, "
      f"{samples[-1][1] / 1024:.1f} MB at {samples[-1][0]:.0f} s")
print(f"slope after {warmup:.0f} s: {slope(measured):.1f} kB/min (first half {slope(measured[:half]):.1f}, "
      f"second half {slope(measured[half:]):.1f})")
# The take cycle (10 s recording, 10 s idle) swings RSS by a few MB; a slope over raw samples is mostly
# that sawtooth. The same point of each 20 s cycle, its lowest and highest sample, shows the trend.
# Warm-up (allocator arenas, GStreamer's pools, the remotes' buffers) can take a few minutes, so the same
# figures are given from a quarter of the run on too: a leak keeps its slope there, warm-up does not.
def per_cycle(after):
    cycles = {}
    for t, k in samples:
        if t >= after:
            cycles.setdefault(int((t - 5) // 20), []).append((t, k))
    whole = [c for c in cycles.values() if len(c) >= 3]
    troughs = [min(c, key=lambda s: s[1]) for c in whole]
    peaks = [max(c, key=lambda s: s[1]) for c in whole]
    first = troughs[0][1] if troughs else 0
    last = troughs[-1][1] if troughs else 0
    print(f"per 20 s cycle after {after:.0f} s ({len(whole)} cycles): slope of each cycle's lowest sample "
          f"{slope(troughs):.1f} kB/min, of its highest {slope(peaks):.1f} kB/min; lowest {first / 1024:.1f} -> {last / 1024:.1f} MB")
per_cycle(warmup)
per_cycle(max(warmup, seconds / 4))
print("samples (s, kB): " + " ".join(f"{t:.0f}:{k}" for t, k in samples))
