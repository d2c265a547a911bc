#!/usr/bin/env python3
"""Camera swaps in virtual mode : across every swap, 0 caps renegotiations reach the recording
and no gap in its frame timestamps is longer than one frame interval.

Runs duo-capture with the two shipped Duo cameras (inner, outer) as one virtual camera, records one take
and swaps SWAPS times during it (a timeline, so the run is the same every time), then reports what the
recording saw: caps changes, the largest timestamp gap against the frame interval, frames missing, and
whether the file decodes whole. The same take without swaps, in the same run, is the baseline.

The decoded file's largest and smallest timestamp steps are printed too: constant frame rate means at
most one interval and at least half of one (a swap once left two frames with the same timestamp).

Usage: python3 Benchmarks/swap.py [SWAPS] [FORMAT]     (defaults 20 swaps, 1280x720@30; the documents'
format is 1920x1080@60)
"""
import json, os, subprocess, sys, tempfile

from bench import inspect, release_app, root
swaps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
fmt = sys.argv[2] if len(sys.argv) > 2 else "1280x720@30"
fps = float(fmt.split("@")[1])
app = release_app()

def take(n_swaps):
    work = tempfile.mkdtemp(prefix="duo-swap-")
    lines = ['{"at": 0.5, "cmd": "record"}']
    length = max(4.0, n_swaps * 0.4 + 1.0)
    for i in range(n_swaps):
        lines.append('{"at": %.2f, "cmd": "swap"}' % (1.0 + i * (length - 1.0) / max(1, n_swaps)))
    lines += ['{"at": %.2f, "cmd": "stop"}' % (0.5 + length), '{"at": %.2f, "cmd": "quit"}' % (0.7 + length)]
    timeline = os.path.join(work, "t.jsonl")
    open(timeline, "w").write("\n".join(lines) + "\n")
    out = subprocess.run([app, "--headless", "--quiet", "--json", "--camera", "inner", "--camera", "outer", "--format", fmt,
                          "--countdown", "0", "--audio", "none", "--record-dir", work, "--timeline", timeline],
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    t = json.loads(out)["takes"][0]
    decoded = inspect(app, t["file"])
    return t, decoded

interval = 1000.0 / fps
print(f"virtual camera (inner + outer) at {fmt}; frame interval {interval:.1f} ms")
print(f"{'run':<14}{'swaps':>6}{'frames':>8}{'decoded':>9}{'missing':>9}{'caps changes':>14}{'max gap ms':>12}"
      f"{'decoded max':>13}{'decoded min':>13}")
for label, n in [("no swaps", 0), (f"{swaps} swaps", swaps)]:
    t, d = take(n)
    print(f"{label:<14}{t['swaps']:>6}{t['frames']:>8}{d['videoFrames']:>9}{t['dropped']:>9}{t['capsChanges']:>14}{t['maxGapMs']:>12.1f}"
          f"{d['maxGapMs']:>13.1f}{d['minGapMs'] or 0:>13.1f}")
print("(constant frame rate: decoded max gap at most one interval, decoded min gap at least half of one)")
