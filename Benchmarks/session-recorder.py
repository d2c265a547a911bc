#!/usr/bin/env python3
"""What a QA session's recorder costs (issue 39), in one run and on the same machine state.

1. The replay buffer. A headless run (videotestsrc with test sound, no take) with `--replay 60` against
   the same run without, at 1280x720@30 and 1920x1080@30: the CPU of duo-capture from /proc/PID/stat
   (utime + stime) over the same steady INTERVAL seconds of each run (after WARMUP s), as a share of one
   core; its peak memory (VmHWM, read just before the run ends); and, from the replay saved at the end of
   the window (its sidecar), what the buffer held, the most it held, over how many seconds, what a full
   60 s holds at that rate ("60 s MB", projected) and its cap (bitrates x 60 s x 1.5 + 2 s). Target (issue 39): at
   most +5 % of a core with the encoder shared; this build encodes the buffer once more beside the
   preview (a second encoder only while a take records would be the shared one's cost).
2. The screen track (`--screen`, issue 39): its CPU at 15 fps on a 1920x1080 monitor, measured by
   Benchmarks/screen-track.py (run from here with the same binary and repeats).

Runs alternate (without, with) and repeat REPEATS times; medians are compared (this machine is shared and
noisy). DUO_BENCH_APP=BINARY measures that binary instead of a fresh release build.

Usage: python3 Benchmarks/session-recorder.py [INTERVAL] [REPEATS] [WARMUP]    (defaults 10, 3, 4)
"""
import json, os, shutil, statistics, subprocess, sys, tempfile, time
from bench import cpu_seconds, release_app

interval = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
warmup = float(sys.argv[3]) if len(sys.argv) > 3 else 4.0
app = os.environ.get("DUO_BENCH_APP") or release_app()
formats = ["1280x720@30", "1920x1080@30"]


def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def run_once(fmt, replay):
    """One headless run: (CPU share of a core over the window, VmHWM MB, the saved replay's sidecar or None)."""
    work = tempfile.mkdtemp(prefix="duo-bench-session-")
    try:
        timeline = os.path.join(work, "timeline.jsonl")
        with open(timeline, "w") as f:
            # The replay is saved at the window's end (without --replay: refused, one error event).
            f.write(json.dumps({"at": warmup + interval, "cmd": "save-replay"}) + "\n")
        events = os.path.join(work, "events.jsonl")
        cmd = [app, "--headless", "--quiet", "--source", "videotestsrc", "--format", fmt, "--audio", "test", "--countdown", "0",
               "--record-dir", work, "--events", events, "--timeline", timeline, "--duration", str(warmup + interval + 2)]
        if replay:
            cmd += ["--replay", "60"]
        process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        # The window is timed from the run's `started` event (the graph plays), not from the launch.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            if os.path.exists(events) and '"event":"started"' in open(events).read():
                break
            time.sleep(0.05)
        time.sleep(warmup)
        before, t0 = cpu_seconds(process.pid), time.monotonic()
        time.sleep(interval)
        after, t1 = cpu_seconds(process.pid), time.monotonic()
        hwm = status_kb(process.pid, "VmHWM") / 1024
        _, err = process.communicate(timeout=60)
        if process.returncode != 0:
            sys.exit(f"benchmark: {' '.join(cmd[:6])}… failed: {err.strip()[-300:]}")
        sidecar = None
        for name in os.listdir(work):
            if "-replay" in name and name.endswith(".json"):
                with open(os.path.join(work, name)) as f:
                    sidecar = json.load(f)
        return (after - before) / (t1 - t0), hwm, sidecar
    finally:
        shutil.rmtree(work, ignore_errors=True)


def replay_rows():
    print(f"replay buffer: --replay 60 against without, headless videotestsrc + test sound, no take; "
          f"CPU over {interval:g} s after {warmup:g} s, median of {repeats} alternating runs")
    print(f"{'format':>14}{'cpu off':>9}{'cpu on':>8}{'+core':>8}{'HWM off MB':>12}{'HWM on MB':>11}"
          f"{'held MB':>9}{'peak MB':>9}{'held s':>8}{'60 s MB':>9}{'cap MB':>8}")
    for fmt in formats:
        off, on, hwm_off, hwm_on, held, peak, cap, seconds = [], [], [], [], [], [], [], []
        for _ in range(repeats):
            cpu, hwm, _ = run_once(fmt, replay=False)
            off.append(cpu)
            hwm_off.append(hwm)
            cpu, hwm, sidecar = run_once(fmt, replay=True)
            on.append(cpu)
            hwm_on.append(hwm)
            if sidecar and sidecar.get("replay"):
                r = sidecar["replay"]
                held.append(r.get("bufferBytes", 0) / 1e6)
                peak.append(r.get("bufferPeakBytes", 0) / 1e6)
                cap.append(r.get("bufferCapBytes", 0) / 1e6)
                seconds.append(sidecar.get("durationSeconds", 0))
        m = statistics.median
        print(f"{fmt:>14}{m(off) * 100:>8.1f}%{m(on) * 100:>7.1f}%{(m(on) - m(off)) * 100:>+7.1f}%"
              f"{m(hwm_off):>12.0f}{m(hwm_on):>11.0f}"
              f"{m(held) if held else 0:>9.1f}{m(peak) if peak else 0:>9.1f}{m(seconds) if seconds else 0:>8.1f}"
              f"{m(held) / m(seconds) * 60 if held and m(seconds) else 0:>9.1f}{m(cap) if cap else 0:>8.1f}")


def screen_track_cost():
    """The screen track's CPU at 15 fps on a 1920x1080 monitor (issue 39): Benchmarks/screen-track.py (a
    real X server with two 1920x1080 monitors, a moving picture on the recorded one, takes with --screen
    against without, alternating) run with the same binary and repeats. Returns its table, or None when
    it could not run (it needs root for Xorg and the desktop packages)."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "screen-track.py")
    r = subprocess.run([sys.executable, script, f"{interval:g}", str(repeats), "15"], env=dict(os.environ, DUO_BENCH_APP=app),
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        return None
    return "\n".join(line for line in r.stdout.splitlines() if not line.startswith("round "))


if __name__ == "__main__":
    replay_rows()
    row = screen_track_cost()
    print(row if row else "screen track (--screen, 15 fps, 1920x1080): not measured (screen-track.py failed; see above)")
