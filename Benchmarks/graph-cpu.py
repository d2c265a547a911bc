#!/usr/bin/env python3
"""CPU cost of the whole headless app against the bare gst-launch-1.0 graph.

For each row (720p30, 1080p30, and 720p30 with a live audio source, level meter and Opus track), in one
run and on the same machine state:
  app  = duo-capture --headless --source videotestsrc --record --countdown 0  for FRAMES frames
  bare = gst-launch-1.0 -e  <the graph `duo-capture pipeline` prints>  with num-buffers=FRAMES
Both use the same sources, encoders, muxer and sinks. Printed: CPU seconds (user+sys, from rusage), frames
written to the take (decoded back), frames missing from it, and the app/bare CPU ratio. Runs alternate
app/bare REPEATS times and the medians are compared, because this machine is shared and noisy.

Then record-start latency at 720p30 with audio: takes started by a 1 s countdown, LATENCY_RUNS times; the
latency is the first recorded frame's capture time (buffer running time) minus the countdown's end, as
the app reports it in its JSON summary and the take's sidecar.

Usage: python3 Benchmarks/graph-cpu.py [FRAMES] [REPEATS] [LATENCY_RUNS]    (defaults 300, 3, 10)
"""
import json, os, re, shutil, statistics, subprocess, sys, tempfile

from bench import cpu_of, inspect, release_app, root
frames = int(sys.argv[1]) if len(sys.argv) > 1 else 300
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
latency_runs = int(sys.argv[3]) if len(sys.argv) > 3 else 10
app = release_app()

def decoded_frames(path):
    return inspect(app, path)["videoFrames"]

print(f"duo-capture graph CPU: {frames} frames per run, median of {repeats} alternating runs")
print(f"{'row':<20}{'app cpu s':>10}{'bare cpu s':>11}{'ratio':>7}{'app frames':>12}{'bare frames':>12}{'app missing':>12}{'bare missing':>13}")
for fmt, audio in [("1280x720@30", "none"), ("1920x1080@30", "none"), ("1280x720@30", "test")]:
    fps = int(fmt.split("@")[1])
    label = fmt + (" +audio" if audio != "none" else "")
    app_cpu, bare_cpu, app_frames, bare_frames = [], [], [], []
    for _ in range(repeats):
        work = tempfile.mkdtemp(prefix="duo-bench-")
        try:
            graph = subprocess.run([app, "pipeline", "--source", "videotestsrc", "--format", fmt, "--audio", audio,
                                    "--record-dir", work], stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
            graph = graph.replace("gst-launch-1.0 -e ", "", 1).replace("is-live=true", f"is-live=true num-buffers={frames}", 1)
            # The test audio source sends 10 ms buffers: stop it at the same moment as the video.
            graph = graph.replace("samplesperbuffer=480", f"samplesperbuffer=480 num-buffers={frames * 100 // fps}")
            bare_file = os.path.join(work, "bare.mkv")
            graph = re.sub(r'location="[^"]*"', f'location="{bare_file}"', graph)
            cpu, _ = cpu_of(["sh", "-c", f"gst-launch-1.0 -q -e {graph}"])
            bare_cpu.append(cpu)
            bare_frames.append(decoded_frames(bare_file))
            cpu, out = cpu_of([app, "--headless", "--quiet", "--source", "videotestsrc", "--format", fmt, "--record",
                               "--countdown", "0", "--audio", audio, "--record-dir", work, "--duration", str(frames / fps)])
            app_cpu.append(cpu)
            take = re.search(r"take 1 +(\S+):", out).group(1)
            app_frames.append(decoded_frames(take))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    a, b = statistics.median(app_cpu), statistics.median(bare_cpu)
    af, bf = int(statistics.median(app_frames)), int(statistics.median(bare_frames))
    print(f"{label:<20}{a:>10.2f}{b:>11.2f}{a / b:>7.2f}{af:>12}{bf:>12}{max(0, frames - af):>12}{max(0, frames - bf):>13}")

latencies = []
for _ in range(latency_runs):
    work = tempfile.mkdtemp(prefix="duo-bench-")
    try:
        _, out = cpu_of([app, "--headless", "--quiet", "--json", "--source", "videotestsrc", "--format", "1280x720@30",
                         "--audio", "test", "--record", "--countdown", "1", "--duration", "1", "--record-dir", work])
        latencies.append(json.loads(out)["takes"][0]["startLatencyMs"])
    finally:
        shutil.rmtree(work, ignore_errors=True)
print(f"record-start latency at 1280x720@30 +audio, {latency_runs} takes after a 1 s countdown: "
      f"median {statistics.median(latencies):.1f} ms, max {max(latencies):.1f} ms (one frame interval: 33.3 ms)")
