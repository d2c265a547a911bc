#!/usr/bin/env python3
"""Process start to the first preview frame (target: 300 ms or less, camera warm-up excluded).

app  = spawn duo-capture --headless ... --json; the summary gives the first operator-preview frame's
       arrival on CLOCK_MONOTONIC, the clock time.monotonic() reads here, so the figure runs from just
       before the spawn to that frame.
bare = the same graph under gst-launch-1.0 with num-buffers=1: spawn to exit (first frame, EOS, teardown),
       an upper bound on what GStreamer alone needs; measured in the same run for the ratio.

Usage: python3 Benchmarks/startup.py [RUNS] [FORMAT]     (defaults 10 runs, 1280x720@30)
"""
import json, os, statistics, subprocess, sys, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
fmt = sys.argv[2] if len(sys.argv) > 2 else "1280x720@30"
subprocess.run(["swift", "build", "-c", "release", "--product", "duo-capture"], cwd=root, check=True, stdout=sys.stderr)
app = os.path.join(root, ".build", "release", "duo-capture")
graph = subprocess.run([app, "pipeline", "--source", "videotestsrc", "--format", fmt], stdout=subprocess.PIPE,
                       text=True, check=True).stdout.strip()
# The printed command is shell words (quoted where needed); cut the take's branch off the live graph.
live = graph.replace("gst-launch-1.0 -e ", "", 1).split(" t. ! queue name=record_queue")[0]
live = live.replace("is-live=true", "is-live=true num-buffers=1", 1)

app_ms, bare_ms = [], []
for _ in range(runs):
    t0 = time.monotonic()
    out = subprocess.run([app, "--headless", "--quiet", "--json", "--source", "videotestsrc", "--format", fmt,
                          "--duration", "0.3"], stdout=subprocess.PIPE, text=True, check=True).stdout
    first = json.loads(out)["firstPreviewFrameMonotonicMicros"]
    app_ms.append((first / 1e6 - t0) * 1000)
    t0 = time.monotonic()
    subprocess.run(["sh", "-c", f"exec gst-launch-1.0 -q {live}"], check=True)
    bare_ms.append((time.monotonic() - t0) * 1000)

a, b = statistics.median(app_ms), statistics.median(bare_ms)
print(f"start to first preview frame, {fmt}, median of {runs} alternating runs (release build)")
print(f"  duo-capture: {a:.0f} ms (min {min(app_ms):.0f}, max {max(app_ms):.0f})   target <= 300 ms: {'PASS' if a <= 300 else 'FAIL'}")
print(f"  bare gst-launch-1.0, spawn to exit after 1 frame: {b:.0f} ms (min {min(bare_ms):.0f}, max {max(bare_ms):.0f})")
print(f"  ratio app/bare: {a / b:.2f}")
