#!/usr/bin/env python3
"""Joining a take's segments (--swap-policy segment, `duo-capture join`): a 60 s take of three 1080p30
segments joined into one file, against gst-launch-1.0 running the same decode-scale-encode bare, in one
run: wall time and CPU (user + system) of each, the median of ROUNDS rounds run in turn (the machine's
load changes under a run; a round runs every variant once, so each sees the same).

duo-capture join does more than a bare graph: it reads each segment's headers first and, before the
joined file takes its name (and the segments go), proves it (SegmentJoinProof): the written file holds
every frame the encoder gave, byte for byte, and one pass over it decodes every frame. So each bare
graph is shown twice: alone, and followed by gst-launch-1.0 decoding its output the same way (demux,
parse, decode by slices, fakesink: what duo-capture's pass does, less the digest).

Two bare graphs, both at the same encoder, muxer and scaling settings (Pipelines/encoder-x264.gst,
muxer-mkv.gst, join.gst's caps):
  plain graph   what one would write by hand: demux ! queue ! parse ! decode per segment into concat !
                convert ! scale ! rate ! caps ! encoder ! muxer ! file (default decoder threads)
  join.gst      the very graph duo-capture runs, rendered from Pipelines/join.gst with the segments'
                branches as SegmentJoin writes them (a queue after the concat, one decoder thread each,
                join_encoded's queue before the muxer); less the pad probe by which duo-capture makes
                the concat's output one timeline (duo_flatten_segments), which gst-launch cannot add
The ratios printed at the end are duo-capture join's against each, alone and with the decode check.

Usage: python3 Benchmarks/join.py [SECONDS] [FORMAT] [ROUNDS]     (defaults 60 s, 1920x1080@30, 3)
"""
import os, re, shlex, shutil, statistics, subprocess, sys, tempfile, time

from bench import cpu_of, inspect, release_app, root

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 60
fmt = sys.argv[2] if len(sys.argv) > 2 else "1920x1080@30"
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
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


def render(name, values):
    """Pipelines/NAME.gst without its comments, {{key}} replaced (as PipelineLibrary renders it)."""
    with open(os.path.join(root, "Pipelines", f"{name}.gst")) as f:
        body = " ".join(line for line in f.read().splitlines() if not line.strip().startswith("#"))
    return re.sub(r"\{\{(\w+)\}\}", lambda m: values[m.group(1)], body)


encoder = render("encoder-x264", {"bitrate_kbps": str(bitrate), "bitrate_bps": str(bitrate * 1000), "keyframe_interval": str(fps)})
muxer = render("muxer-mkv", {})
caps = f"video/x-raw,format=I420,width={width},height={height},framerate={fps}/1,pixel-aspect-ratio=1/1"


def plain_graph(out):
    g = (f"concat name=c ! videoconvert ! videoscale add-borders=true ! videorate ! {caps} ! {encoder} ! {muxer} "
         f"! filesink location={out}")
    for s in segments:
        g += f" filesrc location={s} ! matroskademux ! queue ! h264parse ! avdec_h264 ! c."
    return ["gst-launch-1.0", "-q"] + shlex.split(g)


def join_graph(out):
    g = render("join", {"width": str(width), "height": str(height), "rate": f"{fps}/1", "encoder": encoder, "muxer": muxer,
                        "location": out})
    for i, s in enumerate(segments):   # as SegmentJoin.description writes each segment's branch
        g += (f" filesrc location={s} ! matroskademux name=join_demux{i}"
              f" join_demux{i}.video_0 ! queue ! h264parse ! avdec_h264 max-threads=1 ! join_video.")
    return ["gst-launch-1.0", "-q"] + shlex.split(g)


def decode_check(path):
    """A full decode of the output, as duo-capture's read-back pass does it (JoinedFileCheck)."""
    return ["gst-launch-1.0", "-q", "filesrc", f"location={path}", "!", "matroskademux", "!", "queue", "!", "h264parse", "!",
            "avdec_h264", "thread-type=slice", "output-corrupt=false", "!", "fakesink", "sync=false"]


def measure(cmds):
    start = time.monotonic()
    cpu = sum(cpu_of(c)[0] for c in cmds)
    return time.monotonic() - start, cpu


variants = [
    ("plain graph", lambda o: [plain_graph(o)]),
    ("  + decode check", lambda o: [plain_graph(o), decode_check(o)]),
    ("join.gst graph", lambda o: [join_graph(o)]),
    ("  + decode check", lambda o: [join_graph(o), decode_check(o)]),
    ("duo-capture join", lambda o: [[app, "join", *segments, "--keep-segments", "--output", o]]),
]
runs = [[] for _ in variants]
loads = []
for r in range(rounds):
    loads.append(os.getloadavg()[0])
    for k, (label, cmds) in enumerate(variants):
        out = os.path.join(work, f"out{k}.mkv")
        if os.path.exists(out):
            os.remove(out)
        runs[k].append(measure(cmds(out)))
decoded = [inspect(app, os.path.join(work, f"out{k}.mkv")) for k in range(len(variants))]
wall = [statistics.median(w for w, _ in rs) for rs in runs]
cpu = [statistics.median(c for _, c in rs) for rs in runs]

print(f"joining {len(segments)} segments of {frames} frames at {fmt} ({seconds:g} s in all) on {os.cpu_count()} cores, "
      f"median of {rounds} rounds (1-minute load average at each round's start: {', '.join(f'{l:.1f}' for l in loads)})")
print(f"{'run':<28}{'wall s':>8}{'cpu s':>8}{'× wall':>8}{'× cpu':>8}{'frames':>8}{'seconds':>9}")
for k, (label, _) in enumerate(variants):
    print(f"{label:<28}{wall[k]:>8.2f}{cpu[k]:>8.2f}{wall[k] / wall[0]:>8.2f}{cpu[k] / cpu[0]:>8.2f}"
          f"{decoded[k]['videoFrames']:>8}{decoded[k]['videoSeconds']:>9.2f}")
d = len(variants) - 1
for k, label in [(0, "the plain graph"), (1, "the plain graph + decode check"), (2, "the join.gst graph"),
                 (3, "the join.gst graph + decode check")]:
    print(f"duo-capture join against {label + ':':<36}{wall[d] / wall[k]:.2f}× wall, {cpu[d] / cpu[k]:.2f}× cpu")
shutil.rmtree(work)
