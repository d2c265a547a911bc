#!/usr/bin/env python3
"""Joining a take's segments (--swap-policy segment, `duo-capture join`): a 60 s take of three 1080p30
segments joined into one file, against gst-launch-1.0 running the same decode-scale-encode graph bare, in
one run: wall time and CPU (user + system) of each.

duo-capture join does more than the bare graph: it reads each segment's headers first and, before the
joined file takes its name (and the segments go), decodes it completely to prove it plays. So the bare
graph is shown twice: alone, and followed by gst-launch-1.0 decoding its output the same way.

Usage: python3 Benchmarks/join.py [SECONDS] [FORMAT]     (defaults 60 s, 1920x1080@30)
"""
import os, subprocess, sys, tempfile, time

from bench import cpu_of, inspect, release_app

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 60
fmt = sys.argv[2] if len(sys.argv) > 2 else "1920x1080@30"
size, rate = fmt.split("@")
width, height = (int(v) for v in size.split("x"))
fps = int(rate)
app = release_app()
work = tempfile.mkdtemp(prefix="duo-join-")

# Three segments of a third each, recorded as a take is (x264 ultrafast in Matroska, a keyframe a second).
frames = int(seconds * fps / 3)
bitrate = max(1000, width * height * fps // 10_000)
segments = []
for i, pattern in enumerate(["smpte", "ball", "snow"]):
    path = os.path.join(work, f"take01-{i + 1}.mkv")
    subprocess.run(["gst-launch-1.0", "-q", "videotestsrc", f"num-buffers={frames}", f"pattern={pattern}", "!",
                    f"video/x-raw,format=I420,width={width},height={height},framerate={fps}/1", "!",
                    "x264enc", "speed-preset=ultrafast", "tune=zerolatency", f"bitrate={bitrate}", f"key-int-max={fps}", "!",
                    "h264parse", "!", "matroskamux", "!", "filesink", f"location={path}"], check=True)
    segments.append(path)

def bare_graph(out):
    """The graph Pipelines/join.gst describes, for gst-launch-1.0."""
    g = ["gst-launch-1.0", "-q", "concat", "name=c", "!", "videoconvert", "!", "videoscale", "add-borders=true", "!", "videorate", "!",
         f"video/x-raw,format=I420,width={width},height={height},framerate={fps}/1,pixel-aspect-ratio=1/1", "!",
         "x264enc", "speed-preset=ultrafast", "tune=zerolatency", f"bitrate={bitrate}", f"key-int-max={fps}", "!",
         "video/x-h264,profile=high", "!", "h264parse", "!", "matroskamux", "!", "filesink", f"location={out}"]
    for s in segments:
        g += ["filesrc", f"location={s}", "!", "matroskademux", "!", "queue", "!", "h264parse", "!", "avdec_h264", "!", "c."]
    return g

def bare_decode(path):
    return ["gst-launch-1.0", "-q", "filesrc", f"location={path}", "!", "matroskademux", "!", "queue", "!", "h264parse", "!",
            "avdec_h264", "!", "fakesink", "sync=false"]

def measure(cmds):
    start = time.monotonic()
    cpu = sum(cpu_of(c)[0] for c in cmds)
    return time.monotonic() - start, cpu

rows = []
out = os.path.join(work, "bare.mkv")
rows.append(("gst-launch-1.0 join graph", *measure([bare_graph(out)]), inspect(app, out)))
out = os.path.join(work, "bare-checked.mkv")
rows.append(("  + decode check", *measure([bare_graph(out), bare_decode(out)]), inspect(app, out)))
out = os.path.join(work, "joined.mkv")
rows.append(("duo-capture join", *measure([[app, "join", *segments, "--keep-segments", "--output", out]]), inspect(app, out)))

print(f"joining {len(segments)} segments of {frames} frames at {fmt} ({seconds:g} s in all) on {os.cpu_count()} cores")
print(f"{'run':<28}{'wall s':>8}{'cpu s':>8}{'× wall':>8}{'× cpu':>8}{'frames':>8}{'seconds':>9}")
base_wall, base_cpu = rows[0][1], rows[0][2]
checked_wall, checked_cpu = rows[1][1], rows[1][2]
for label, wall, cpu, decoded in rows:
    print(f"{label:<28}{wall:>8.2f}{cpu:>8.2f}{wall / base_wall:>8.2f}{cpu / base_cpu:>8.2f}{decoded['videoFrames']:>8}{decoded['videoSeconds']:>9.2f}")
wall, cpu = rows[2][1], rows[2][2]
print(f"duo-capture join against the bare graph with its decode check: {wall / checked_wall:.2f}× wall, {cpu / checked_cpu:.2f}× cpu")
