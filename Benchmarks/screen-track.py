#!/usr/bin/env python3
"""What the screen track costs (`--screen`, issue 39): CPU of a take with a 1920x1080 monitor recorded at
15 fps beside the camera, against the same take without, in one run and on the same machine state.

A real X server (Xorg, dummy driver) with two 1920x1080 monitors; a moving picture fills the recorded one
(monitor 0: gst-launch-1.0 videotestsrc into ximagesink, 1920x1080 at 30 fps), so the encoder sees a
changing screen, as in a session, not a still one. Each round records one take of TAKE seconds from the
test source (1280x720@30, headless, no sound) without and with `--screen 0 --screen-rate RATE`, in
alternating order; the CPU of duo-capture (user + system, the whole run) and of Xorg (over the same run:
ximagesrc's XShm copies are the X server's work) is read, as a share of one core over the run's wall
time. Printed: the median of each, with - without (target: at most +30 % of a core at 15 fps), and
with / without. The takes are decoded back: the screen track must hold RATE frames a second.

Runs repeat REPEATS times; medians are compared (this machine is shared and noisy).
Needs root (Xorg) and the desktop packages (Scripts/install-deps.sh --desktop).
DUO_BENCH_APP=BINARY measures that binary instead of a fresh release build.

Usage: python3 Benchmarks/screen-track.py [TAKE] [REPEATS] [RATE]   (defaults 10, 3, 15)
"""
import json, os, resource, shutil, statistics, subprocess, sys, tempfile, time
from bench import cpu_seconds, free_display, release_app, stop

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
take = float(sys.argv[1]) if len(sys.argv) > 1 else 10
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
rate = int(sys.argv[3]) if len(sys.argv) > 3 else 15
app = os.environ.get("DUO_BENCH_APP") or release_app()
config = os.path.join(root, "Tests", "DuoDesktopTests", "Fixtures", "dummy.conf")
mode = ("1920x1080", "138.50 1920 1968 2000 2080 1080 1083 1088 1111 +HSync -Vsync")


display = free_display(170)
folder = tempfile.mkdtemp(prefix="duo-bench-screen-")
env = dict(os.environ, DISPLAY=display, HOME=folder, XDG_STATE_HOME=os.path.join(folder, "state"))
env.pop("WAYLAND_DISPLAY", None)
xorg = subprocess.Popen(["Xorg", display, "-noreset", "-config", config, "-logfile", os.path.join(folder, "Xorg.log"),
                         "-nolisten", "tcp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
picture = None
try:
    for _ in range(300):
        if subprocess.run(["xdpyinfo"], env=env, capture_output=True).returncode == 0:
            break
        time.sleep(0.1)
    else:
        sys.exit("benchmark: Xorg did not start")
    def xrandr(*args):
        subprocess.run(["xrandr", *args], env=env, check=True, capture_output=True)
    xrandr("--newmode", mode[0], *mode[1].split())
    for output in ("DUMMY0", "DUMMY1"):
        xrandr("--addmode", output, mode[0])
    xrandr("--output", "DUMMY0", "--mode", mode[0], "--pos", "0x0", "--primary",
           "--output", "DUMMY1", "--mode", mode[0], "--pos", "1920x0")
    xrandr("-q")
    # A moving picture over monitor 0 (no window manager: the window opens at 0,0).
    picture = subprocess.Popen(["gst-launch-1.0", "-q", "videotestsrc", "pattern=ball", "is-live=true", "!",
                                "video/x-raw,width=1920,height=1080,framerate=30/1", "!", "ximagesink"],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(2)

    def one(screen):
        takes = tempfile.mkdtemp(dir=folder)
        cmd = [app, "--headless", "--source", "videotestsrc", "--format", "1280x720@30", "--audio", "none",
               "--countdown", "0", "--record", "--duration", str(take), "--record-dir", takes]
        if screen:
            cmd += ["--screen", "0", "--screen-rate", str(rate)]
        x_before = cpu_seconds(xorg.pid)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        run = subprocess.run(cmd, env=env, capture_output=True, text=True)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        x_cpu = cpu_seconds(xorg.pid) - x_before
        if run.returncode != 0:
            sys.exit(f"benchmark: duo-capture failed: {run.stderr.strip()[-300:]}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        mkv = [f for f in os.listdir(takes) if f.endswith(".mkv")][0]
        info = json.loads(subprocess.run([app, "inspect", os.path.join(takes, mkv), "--json"], capture_output=True,
                                         text=True, check=True).stdout)
        shutil.rmtree(takes, ignore_errors=True)
        return cpu / wall * 100, x_cpu / wall * 100, info

    results = {False: [], True: []}
    for r in range(repeats):
        for screen in ([False, True] if r % 2 == 0 else [True, False]):
            app_cpu, x_cpu, info = one(screen)
            results[screen].append((app_cpu, x_cpu))
            extra = f", screen track {info.get('screenFrames')} frames {info.get('screenWidth')}x{info.get('screenHeight')}" if screen else ""
            print(f"round {r + 1} {'with   ' if screen else 'without'} --screen: duo-capture {app_cpu:5.1f} %, "
                  f"Xorg {x_cpu:5.1f} % of a core; camera {info['videoFrames']} frames{extra}", file=sys.stderr)
    med = {k: (statistics.median(a for a, _ in v), statistics.median(x for _, x in v)) for k, v in results.items()}
    (a0, x0), (a1, x1) = med[False], med[True]
    print(f"screen track, {rate} fps of a 1920x1080 monitor beside a 1280x720@30 camera, {take:g} s takes, "
          f"median of {repeats} (% of one core)")
    print(f"{'':24}{'without':>9}{'with':>9}{'with-without':>14}{'with/without':>14}")
    print(f"{'duo-capture':24}{a0:9.1f}{a1:9.1f}{a1 - a0:+14.1f}{a1 / max(a0, 0.1):14.2f}")
    print(f"{'Xorg (the XShm copies)':24}{x0:9.1f}{x1:9.1f}{x1 - x0:+14.1f}")
    print(f"{'both':24}{a0 + x0:9.1f}{a1 + x1:9.1f}{a1 + x1 - a0 - x0:+14.1f}{(a1 + x1) / max(a0 + x0, 0.1):14.2f}")
finally:
    if picture:
        stop(picture)
    stop(xorg)
    shutil.rmtree(folder, ignore_errors=True)
