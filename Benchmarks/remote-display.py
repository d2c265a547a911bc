#!/usr/bin/env python3
"""Remote subject display over SRT, glass to glass: from the moment the sender has drawn a subject frame
to the moment the display has decoded it for its screen, on loopback through the lossy relay the tests
use, at 0 % and 2 % packet loss; and the CPU it costs.

For the benchmark only, DUO_BENCH_FRAME_CODE makes the sender stamp a frame number into each remote
frame (logging it with CLOCK_MONOTONIC) and the display read it back (logging it the same way); both run
on this machine, so the logs match frame by frame. The display runs on a virtual X desktop (root; started
and stopped here) whose second monitor is 1920x1080, so the view is rendered and encoded at 1080p.

CPU: the sender's extra CPU for the remote branch is the same headless run with and without
--subject-remote, measured in this run (the baseline); the display's is its own process CPU over the same
time. Targets (issue 13): median <= 150 ms and p95 <= 250 ms at 2 % loss; sender extra <= 25 % of a core.

Usage: sudo python3 Benchmarks/remote-display.py [SECONDS] [SRT_LATENCY_MS]     (defaults 20, 120)
"""
import os, statistics, subprocess, sys, tempfile, time

from bench import cpu_of, release_app, root
seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 20
latency = sys.argv[2] if len(sys.argv) > 2 else "120"   # SRT latency budget, ms, on both ends
app = release_app("duo-capture-testhub")   # frame codes / test cameras / faults: the test hub
relay_py = os.path.join(root, "Tests", "DuoDesktopTests", "Fixtures", "lossy-relay.py")
script = os.path.join(root, "Assets", "scripts", "talk.md")
display = ":93"
passphrase = "benchmark-passphrase"
env = dict(os.environ, DUO_SRT_PASSPHRASE=passphrase)

subprocess.run(["bash", os.path.join(root, "Scripts", "virtual-desktop.sh"), "start", display], check=True, stdout=sys.stderr)
xenv = dict(env, DISPLAY=display)
subprocess.run(["xrandr", "--newmode", "1920x1080_60", "138.50", "1920", "1968", "2000", "2080", "1080", "1083", "1088", "1111",
                "+HSync", "-Vsync"], env=xenv, stderr=subprocess.DEVNULL)
subprocess.run(["xrandr", "--addmode", "DUMMY1", "1920x1080_60"], env=xenv, stderr=subprocess.DEVNULL)
subprocess.run(["xrandr", "--output", "DUMMY1", "--mode", "1920x1080_60", "--pos", "1280x0"], env=xenv, check=True)


def cpu_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def sender(extra, code_log=None):
    e = dict(env)
    if code_log:
        e["DUO_BENCH_FRAME_CODE"] = code_log
    cpu, _ = cpu_of([app, "--headless", "--quiet", "--source", "videotestsrc", "--format", "1280x720@30", "--script", script,
                     "--accessory", "teleprompter", "--audio", "none", "--duration", str(seconds)] + extra, env=e)
    return cpu


def read(log):
    out = {}
    if os.path.exists(log):
        for line in open(log):
            n, t = line.split()
            out.setdefault(int(n), int(t))
    return out


def measure(loss, port):
    work = tempfile.mkdtemp(prefix="duo-remote-")
    sent_log, shown_log = os.path.join(work, "sent.log"), os.path.join(work, "shown.log")
    shown_proc = subprocess.Popen([app, "display", "--listen", f"srt://:{port}", "--subject-monitor", "1", "--srt-latency", latency],
                                  env=dict(xenv, DUO_BENCH_FRAME_CODE=shown_log), stderr=subprocess.DEVNULL)
    relay = subprocess.Popen([sys.executable, relay_py, str(port + 1), str(port), str(loss), "0", "0", "100000", "0"],
                             stdout=subprocess.PIPE, text=True)
    relay.stdout.readline()
    time.sleep(1.0)
    display_cpu0 = cpu_of(shown_proc.pid)
    cpu = sender(["--subject-remote", f"srt://127.0.0.1:{port + 1}", "--srt-latency", latency], sent_log)
    display_cpu = cpu_of(shown_proc.pid) - display_cpu0
    shown_proc.terminate()
    relay.terminate()
    shown_proc.wait()
    sent, shown = read(sent_log), read(shown_log)
    lat = sorted((shown[n] - sent[n]) / 1000 for n in sent if n in shown)
    pct = lambda p: lat[min(len(lat) - 1, int((len(lat) - 1) * p))] if lat else float("nan")
    return lat, pct(0.5), pct(0.95), len(shown), len(sent), cpu, display_cpu


try:
    base = sender([])
    print(f"remote display at 1920x1080 (sender 1280x720@30 camera, talk.md teleprompter), {seconds:.0f} s per run, SRT latency {latency} ms")
    print(f"{'loss':>6}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}{'frames shown/sent':>19}{'sender extra':>14}{'display':>10}")
    for i, loss in enumerate([0.0, 0.02]):
        lat, med, p95, shown, sent, cpu, display_cpu = measure(loss, 7600 + i * 4)
        extra = (cpu - base) / seconds
        print(f"{loss * 100:>5.0f}%{med:>11.0f}{p95:>9.0f}{(lat[-1] if lat else float('nan')):>9.0f}{shown:>10}/{sent:<8}"
              f"{extra * 100:>12.0f} %{display_cpu / seconds * 100:>8.0f} %")
    print(f"(sender extra: CPU of the run with --subject-remote minus the same run without, {base:.1f} CPU-s, over its length;"
          " display: its own process; % of one core)")
finally:
    subprocess.run(["bash", os.path.join(root, "Scripts", "virtual-desktop.sh"), "stop", display], stdout=subprocess.DEVNULL)
