#!/usr/bin/env python3
"""Camera loss and re-attach timings: how long from a camera pulled out to the run knowing it is lost,
and from the camera plugged back to its frames flowing again, with what the recording saw meanwhile.

Three paths, each CYCLES times in one take (a timeline, so the run is the same every time):
  device   two test cameras from the device monitor (DUO_TEST_CAMERAS, the same GstDeviceMonitor path
           real cameras take): the camera on the air is pulled out (its device is removed) and plugged
           back under another path; loss is heard from the monitor.
  watchdog two simulated cameras (inner, outer): the camera on the air stops delivering (the test hub's
           unplug); loss is found by the per-camera watchdog on the pipeline clock.
  single   one test camera pulled out and plugged back: the take is finalised, the run waits.
Times come from the events file (command → camera-lost, command → camera-restored), in ms and in frame
intervals. The recording's decoded largest gap says whether the other camera covered the loss (virtual
mode: at most one interval). The baseline, measured in the same run, is the camera's own cold start:
from the run starting to its first frame ("frames" flowing).

Usage: python3 Benchmarks/camera-loss.py [CYCLES] [FORMAT]     (defaults 5, 1920x1080@60)
"""
import json, os, subprocess, sys, tempfile, statistics

from bench import inspect, release_app, root
cycles = int(sys.argv[1]) if len(sys.argv) > 1 else 5
fmt = sys.argv[2] if len(sys.argv) > 2 else "1920x1080@60"
size, rate = fmt.split("@")
width, height = size.split("x")
fps = float(rate)
app = release_app("duo-capture-testhub")   # frame codes / test cameras / faults: the test hub

def cameras(work, names):
    folder = os.path.join(work, "cameras")
    os.makedirs(folder)
    for n in names:
        open(os.path.join(folder, f"cam-{n}.camera"), "w").write(
            f"name=Bench Camera {n}\nserial=BENCH-{n}\n"
            f"caps=video/x-raw,format=YUY2,width={width},height={height},framerate={int(fps)}/1\npattern=ball\n")
    return folder

def run(path):
    work = tempfile.mkdtemp(prefix="duo-loss-")
    env = dict(os.environ, XDG_STATE_HOME=os.path.join(work, "state"))
    if path == "watchdog":
        args = ["--camera", "inner", "--camera", "outer", "--format", fmt]
        victim = "A"
    else:
        names = ["A", "B"] if path == "device" else ["A"]
        env["DUO_TEST_CAMERAS"] = cameras(work, names)
        args = sum([["--camera", f"id:BENCH-{n}"] for n in names], [])
        victim = "A"
    lines, t = ['{"at": 0.3, "cmd": "record"}'], 1.0
    for _ in range(cycles):
        lines.append('{"at": %.2f, "cmd": "unplug", "camera": "%s"}' % (t, victim))
        lines.append('{"at": %.2f, "cmd": "replug", "camera": "%s"}' % (t + 1.5, victim))
        if path == "single":
            lines.append('{"at": %.2f, "cmd": "record"}' % (t + 2.5))
        else:
            lines.append('{"at": %.2f, "cmd": "swap", "camera": "A"}' % (t + 2.5))
        t += 3.0
    lines.append('{"at": %.2f, "cmd": "quit"}' % (t + 0.5))
    timeline = os.path.join(work, "t.jsonl")
    open(timeline, "w").write("\n".join(lines) + "\n")
    events = os.path.join(work, "events.jsonl")
    out = subprocess.run([app, "--headless", "--quiet", "--json", *args, "--countdown", "0", "--audio", "none",
                          "--record-dir", work, "--timeline", timeline, "--events", events],
                         stdout=subprocess.PIPE, text=True, env=env, check=True).stdout
    ev = [json.loads(l) for l in open(events)]
    started = next(e["t"] for e in ev if e["event"] == "started")
    first = next(e["t"] for e in ev if e["event"] == "frames" and e.get("flowing"))
    loss, back = [], []
    pending = None
    for e in ev:
        if e["event"] == "command" and e.get("cmd") in ("unplug", "replug"):
            pending = (e["cmd"], e["t"])
        elif e["event"] == "camera-lost" and pending and pending[0] == "unplug":
            loss.append((e["t"] - pending[1]) * 1000); pending = None
        elif e["event"] == "camera-restored" and pending and pending[0] == "replug":
            back.append((e["t"] - pending[1]) * 1000); pending = None
    takes = json.loads(out)["takes"]
    gaps = []
    for take in takes:
        d = inspect(app, take["file"])
        gaps.append(d["maxGapMs"])
    # The cold start: from the process's "started" event back to its own first frame is not it (started
    # comes after the first frame); the run's first "frames" event time is from the process clock's zero.
    return loss, back, len(takes), max(gaps), first * 1000

interval = 1000.0 / fps
print(f"{fmt}, {cycles} cycles per path; frame interval {interval:.1f} ms")
print(f"{'path':<10}{'lost after ms':>15}{'(intervals)':>12}{'back after ms':>15}{'(x cold start)':>16}{'takes':>7}{'decoded max gap ms':>20}")
for path in ["device", "watchdog", "single"]:
    loss, back, takes, gap, cold = run(path)
    lm = statistics.median(loss) if loss else float("nan")
    bm = statistics.median(back) if back else float("nan")
    print(f"{path:<10}{lm:>15.0f}{lm / interval:>12.1f}{bm:>15.0f}{bm / cold:>16.2f}{takes:>7}{gap:>20.1f}"
          f"   (cold start {cold:.0f} ms; {len(loss)} losses, {len(back)} returns)")
print("(virtual mode covers a loss with the other camera: decoded max gap at most one interval;"
      " one camera: the take is finalised at the loss and the next take starts after the return)")
