#!/usr/bin/env python3
"""CPU of a two-camera take (the Duo pair as one virtual camera, 1080p60 unless FORMAT says otherwise)
against the bare gst-launch-1.0 graph `duo-capture pipeline` prints for the same cameras, in one run.

  app  = duo-capture --headless --camera inner --camera outer --record --countdown 0 for FRAMES frames
  bare = gst-launch-1.0 -e <the printed graph> with num-buffers=FRAMES on both camera sources

Both use the same simulated cameras (live test sources at the profiles' modes), the same selector, encoder,
muxer and sinks. Printed: CPU seconds (user+sys, rusage), frames recorded (decoded back) and the ratio,
medians of REPEATS alternating runs (this machine is shared and noisy).

Usage: python3 Benchmarks/two-camera-cpu.py [FRAMES] [REPEATS] [FORMAT]    (defaults 600, 3, none: 1080p60)
"""
import json, os, re, shutil, statistics, subprocess, sys, tempfile
from bench import cpu_of, inspect, release_app, root

frames = int(sys.argv[1]) if len(sys.argv) > 1 else 600
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
fmt = sys.argv[3] if len(sys.argv) > 3 else None
app = release_app()
cameras = ["--camera", "inner", "--camera", "outer"] + (["--format", fmt] if fmt else [])

def decoded(path):
    return inspect(app, path)

chosen = subprocess.run([app, "formats", "inner", "outer"] + (["--format", fmt] if fmt else []),
                        stdout=subprocess.PIPE, text=True).stdout.strip().splitlines()[-1]
from fractions import Fraction
rate = float(Fraction(chosen.split("@")[1])) if "@" in chosen else 30.0
print(f"two cameras (inner + outer, virtual), {chosen}; {frames} frames per run, median of {repeats} alternating runs")
app_cpu, bare_cpu, app_frames, bare_frames = [], [], [], []
for _ in range(repeats):
    work = tempfile.mkdtemp(prefix="duo-bench-two-")
    try:
        graph = subprocess.run([app, "pipeline", *cameras, "--record-dir", work], stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
        graph = graph.replace("gst-launch-1.0 -e ", "", 1).replace("is-live=true", f"is-live=true num-buffers={frames}")
        bare_file = os.path.join(work, "bare.mkv")
        graph = re.sub(r'location="[^"]*"', f'location="{bare_file}"', graph)
        cpu, _ = cpu_of(["sh", "-c", f"gst-launch-1.0 -q -e {graph}"])
        bare_cpu.append(cpu)
        bare_frames.append(decoded(bare_file)["videoFrames"])
        cpu, out = cpu_of([app, "--headless", "--quiet", "--json", *cameras, "--record", "--countdown", "0", "--audio", "none",
                           "--record-dir", work, "--duration", str(frames / rate)])
        app_cpu.append(cpu)
        app_frames.append(decoded(json.loads(out)["takes"][0]["file"])["videoFrames"])
    finally:
        shutil.rmtree(work, ignore_errors=True)
a, b = statistics.median(app_cpu), statistics.median(bare_cpu)
print(f"{'app cpu s':>10}{'bare cpu s':>11}{'ratio':>7}{'app frames':>12}{'bare frames':>12}")
print(f"{a:>10.1f}{b:>11.1f}{a / b:>7.2f}{statistics.median(app_frames):>12.0f}{statistics.median(bare_frames):>12.0f}")
