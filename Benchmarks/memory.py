#!/usr/bin/env python3
"""Memory over many takes and swaps (target: at most 5 MB growth over 100 take cycles and 200 swaps).

Runs duo-capture headless with the two shipped Duo cameras as one virtual camera and a timeline of
TAKES short takes with two swaps in each, and reads the process's resident memory (VmRSS) when take 5
ends (after warm-up: allocator pools, encoder and muxer plugins loaded) and when the last take ends.

Usage: python3 Benchmarks/memory.py [TAKES] [FORMAT]     (defaults 100 takes, 320x240@30)
"""
import json, os, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
takes = int(sys.argv[1]) if len(sys.argv) > 1 else 100
fmt = sys.argv[2] if len(sys.argv) > 2 else "320x240@30"
subprocess.run(["swift", "build", "-c", "release", "--product", "duo-capture"], cwd=root, check=True, stdout=sys.stderr)
app = os.path.join(root, ".build", "release", "duo-capture")
work = tempfile.mkdtemp(prefix="duo-memory-")
lines, t = [], 0.5
for _ in range(takes):
    lines += ['{"at": %.2f, "cmd": "record"}' % t, '{"at": %.2f, "cmd": "swap"}' % (t + 0.15),
              '{"at": %.2f, "cmd": "swap"}' % (t + 0.3), '{"at": %.2f, "cmd": "stop"}' % (t + 0.45)]
    t += 0.6
lines.append('{"at": %.2f, "cmd": "quit"}' % (t + 0.5))
timeline, events = os.path.join(work, "t.jsonl"), os.path.join(work, "events.jsonl")
open(timeline, "w").write("\n".join(lines) + "\n")
p = subprocess.Popen([app, "--headless", "--quiet", "--json", "--camera", "inner", "--camera", "outer", "--format", fmt,
                      "--countdown", "0", "--audio", "test", "--record-dir", work, "--timeline", timeline, "--events", events],
                     stdout=subprocess.PIPE, text=True)

def rss_kb():
    for line in open(f"/proc/{p.pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

samples, ended = {}, 0
while p.poll() is None:
    time.sleep(0.05)
    if not os.path.exists(events):
        continue
    ended = sum(1 for l in open(events) if '"event":"take-ended"' in l)
    for mark in (5, takes):
        if ended >= mark and mark not in samples:
            samples[mark] = rss_kb()
out = p.communicate()[0]
summary = json.loads(out)
swaps = sum(t["swaps"] for t in summary["takes"])
print(f"{len(summary['takes'])} takes, {swaps} swaps at {fmt} with audio (virtual camera: inner + outer)")
print(f"  RSS after take 5: {samples.get(5, 0) / 1024:.1f} MB; after take {takes}: {samples.get(takes, 0) / 1024:.1f} MB")
growth = (samples.get(takes, 0) - samples.get(5, 0)) / 1024
print(f"  growth: {growth:+.2f} MB   target <= 5 MB: {'PASS' if growth <= 5 else 'FAIL'}")
