#!/usr/bin/env python3
"""CPU cost of the whole headless app against the bare gst-launch-1.0 graph (DESIGN §10).

For each format, in one run and on the same machine state:
  app  = duo-capture --headless --source videotestsrc --record  for FRAMES frames
  bare = gst-launch-1.0 -e  <the graph `duo-capture pipeline` prints>  with num-buffers=FRAMES
Both use the same source, encoder, muxer and sinks. Printed: CPU seconds (user+sys, from rusage), frames
written to the take (decoded back), frames missing from it, and the app/bare CPU ratio. Runs alternate
app/bare REPEATS times and the medians are compared, because this machine is shared and noisy.

Usage: python3 Benchmarks/graph-cpu.py [FRAMES] [REPEATS]    (defaults 300 frames, 3 repeats)
"""
import json, os, re, resource, shutil, statistics, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
frames = int(sys.argv[1]) if len(sys.argv) > 1 else 300
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
subprocess.run(["swift", "build", "-c", "release", "--product", "duo-capture"], cwd=root, check=True,
               stdout=sys.stderr)
app = os.path.join(root, ".build", "release", "duo-capture")

def cpu_of(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        sys.exit(f"benchmark: {' '.join(cmd[:3])}… failed: {run.stderr.strip()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), run.stdout

def decoded_frames(path):
    out = subprocess.run([app, "inspect", path, "--json"], stdout=subprocess.PIPE, text=True, check=True).stdout
    return json.loads(out)["videoFrames"]

print(f"duo-capture graph CPU: {frames} frames per run, median of {repeats} alternating runs")
print(f"{'format':<14}{'app cpu s':>10}{'bare cpu s':>11}{'ratio':>7}{'app frames':>12}{'bare frames':>12}{'app missing':>12}{'bare missing':>13}")
for fmt in ["1280x720@30", "1920x1080@30"]:
    fps = int(fmt.split("@")[1])
    app_cpu, bare_cpu, app_frames, bare_frames = [], [], [], []
    for _ in range(repeats):
        work = tempfile.mkdtemp(prefix="duo-bench-")
        try:
            graph = subprocess.run([app, "pipeline", "--source", "videotestsrc", "--format", fmt, "--record-dir", work],
                                   stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
            graph = graph.replace("gst-launch-1.0 -e ", "", 1).replace("is-live=true", f"is-live=true num-buffers={frames}", 1)
            bare_file = os.path.join(work, "bare.mkv")
            graph = re.sub(r'location="[^"]*"', f'location="{bare_file}"', graph)
            cpu, _ = cpu_of(["sh", "-c", f"gst-launch-1.0 -q -e {graph}"])
            bare_cpu.append(cpu)
            bare_frames.append(decoded_frames(bare_file))
            cpu, out = cpu_of([app, "--headless", "--quiet", "--source", "videotestsrc", "--format", fmt, "--record",
                               "--record-dir", work, "--duration", str(frames / fps)])
            app_cpu.append(cpu)
            take = re.search(r"take 1 +(\S+):", out).group(1)
            app_frames.append(decoded_frames(take))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    a, b = statistics.median(app_cpu), statistics.median(bare_cpu)
    af, bf = int(statistics.median(app_frames)), int(statistics.median(bare_frames))
    print(f"{fmt:<14}{a:>10.2f}{b:>11.2f}{a / b:>7.2f}{af:>12}{bf:>12}{max(0, frames - af):>12}{max(0, frames - bf):>13}")
