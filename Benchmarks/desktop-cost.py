#!/usr/bin/env python3
"""What the two windows cost: CPU of duo-capture plus the X server, on a real X server (Xorg, dummy
driver, openbox), all in one run and on the same machine state.

1. The subject view. The operator monitor is 1920x1080; the subject monitor is 1280x720, 1920x1080 and
   3840x2160 in turn. For each, a take of talk.md (1280x720@30 from the simulated inner camera, the text
   scrolling) runs with the teleprompter shown (--accessory teleprompter) and hidden (--accessory off);
   the CPU of duo-capture and of Xorg is read from /proc over the same INTERVAL seconds of each take (from
   its `take-started` event on). Printed: each side's CPU as a share of one core, and shown - hidden.
   Targets (issue 10): at most +20 % of a core at 1080p, +35 % at 4K.

2. The operator preview. A 720p30 take of TAKE seconds with the operator window fullscreen on a
   1920x1080 display, against the same take headless (no X server at all): CPU of duo-capture plus Xorg
   over the whole run, and the ratio. Target: at most 1.6x.

3. The self-view (issue 22). The same scrolling take with the teleprompter shown on a 1920x1080 and a
   3840x2160 subject monitor, with the self-view on (--self-view small: the subject branch carries the
   small mirrored picture, scaled once in the graph) and off (the branch carries no picture). Printed:
   each side's CPU (duo-capture + Xorg) and on - off. Target: at most +8 % of a core.
4. The operator picture path (`preview` mode, issue 23): the operator window drawn by the window from an
   appsink (this build) against a baseline build's gtksink (DUO_BENCH_BASELINE=BINARY:PIPELINES_DIR, for
   example a build of the commit before), each with a 1920x1080@60 camera (videotestsrc) on a 1280x720
   and a 1920x1080 operator monitor, fullscreen and windowed: CPU of duo-capture and of Xorg over INTERVAL
   seconds, and the preview's own figures from its last `preview` event (frames shown per second, the
   largest gap between shown frames). Then the 720p30 desktop/headless ratio of section 2 for both
   (target 1.15x), and a steady preview at 1080p60 (largest gap at most two shown intervals).

5. The curtain (issue 33). The same scrolling take with the operator window not fullscreen (--windowed), so
   the subject view is hidden: the subject's monitor shows the curtain (this build's default) against
   the desktop (--subject-curtain off: the view hidden as before). Printed: each side's CPU (duo-capture +
   Xorg) and curtain - hidden; the curtain is drawn once, so this should be within noise.

6. The desktop's whole cost (`cost` mode, issue 36). 1280x720@30 and 1920x1080@30 cameras (videotestsrc) on a
   1280x720, 1920x1080 and 3840x2160 operator monitor, during a take and in standby: CPU of duo-capture
   plus Xorg with the operator window fullscreen against the same run headless (no X server), over
   INTERVAL s; each round measures the headless run once, then the three monitors (alternating rounds).
   Printed per row: desktop app, desktop X, headless (shares of a core), desktop/headless (target at most
   1.15x), the peak memory ratio (VmHWM, target at most 1.5x), and the X server's CPU against a bare
   `ximagesink` showing a picture of the same size at 30 fps (target within 2x). Then the headless app
   against the bare graph `duo-capture pipeline` prints with its operator branch a plain queue ! fakesink,
   both for the same number of frames (target at most 1.00x).
   To see where the time goes: perf (Debian package linux-perf) on the app and Xorg during a run, e.g.
   perf record -g -p PID -- sleep 10; perf report --no-children --sort dso,symbol.

Runs alternate and repeat REPEATS times; medians are compared (this machine is shared and noisy).
Needs root (Xorg) and the desktop packages (Scripts/install-deps.sh --desktop).
DUO_BENCH_APP=BINARY measures that binary instead of a fresh release build.

Usage: python3 Benchmarks/desktop-cost.py [INTERVAL] [TAKE] [REPEATS] [SECTIONS]
       (defaults 10, 20, 3, all; SECTIONS is a comma-separated list of subject, operator, selfview,
       curtain)
       python3 Benchmarks/desktop-cost.py preview [INTERVAL] [TAKE] [REPEATS]
       python3 Benchmarks/desktop-cost.py cost [INTERVAL] [FRAMES] [REPEATS]   (defaults 10, 300, 3)
"""
import json, os, resource, shutil, signal, statistics, subprocess, sys, tempfile, time
from bench import cpu_seconds, free_display

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
preview_mode = len(sys.argv) > 1 and sys.argv[1] == "preview"
cost_mode = len(sys.argv) > 1 and sys.argv[1] == "cost"
args = sys.argv[2:] if preview_mode or cost_mode else sys.argv[1:]
interval = float(args[0]) if len(args) > 0 else 10
take = float(args[1]) if len(args) > 1 else 20
repeats = int(args[2]) if len(args) > 2 else 3
sections = set((args[3] if len(args) > 3 else "subject,operator,selfview,curtain").split(","))
app = os.environ.get("DUO_BENCH_APP")
if not app:
    subprocess.run(["swift", "build", "-c", "release", "--product", "duo-capture", "--static-swift-stdlib"], cwd=root,
                   check=True, stdout=sys.stderr)
    app = os.path.join(root, ".build", "release", "duo-capture")
script = os.path.join(root, "Assets", "scripts", "talk.md")
config = os.path.join(root, "Tests", "DuoDesktopTests", "Fixtures", "dummy.conf")
# CVT reduced-blanking modelines; the dummy driver takes any.
modes = {
    "1280x720": "74.48 1280 1336 1472 1664 720 721 724 746 -HSync +Vsync",
    "1920x1080": "138.50 1920 1968 2000 2080 1080 1083 1088 1111 +HSync -Vsync",
    "3840x2160": "533.25 3840 3888 3920 4000 2160 2163 2168 2222 +HSync -Vsync",
}

class Desktop:
    def __init__(self):
        self.display = free_display(140)
        self.dir = tempfile.mkdtemp(prefix="duo-bench-desktop-")
        self.env = dict(os.environ, DISPLAY=self.display, HOME=self.dir, XDG_STATE_HOME=os.path.join(self.dir, "state"))
        self.env.pop("WAYLAND_DISPLAY", None)
        self.xorg = subprocess.Popen(["Xorg", self.display, "-noreset", "-config", config, "-logfile",
                                      os.path.join(self.dir, "Xorg.log"), "-nolisten", "tcp"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(300):
            if subprocess.run(["xdpyinfo"], env=self.env, capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        else:
            sys.exit("benchmark: Xorg did not start")
        for name, line in modes.items():
            self.xrandr("--newmode", name, *line.split())
            for output in ("DUMMY0", "DUMMY1"):
                self.xrandr("--addmode", output, name)
        self.xrandr("--output", "DUMMY0", "--mode", "1920x1080", "--pos", "0x0", "--primary")
        self.wm = subprocess.Popen(["openbox", "--sm-disable"], env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)

    def xrandr(self, *args):
        subprocess.run(["xrandr", *args], env=self.env, check=True, capture_output=True)

    def subject_monitor(self, size):
        if size is None:
            self.xrandr("--output", "DUMMY1", "--off")
        else:
            self.xrandr("--output", "DUMMY1", "--mode", size, "--pos", "1920x0")
        self.xrandr("-q")

    def stop(self):
        for p in (self.wm, self.xorg):
            p.terminate()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(self.dir, ignore_errors=True)

def wait_for_event(path, name, proc, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit(f"benchmark: duo-capture exited early ({proc.returncode})")
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    if json.loads(line).get("event") == name:
                        return
        time.sleep(0.05)
    sys.exit(f"benchmark: no {name} event within {timeout} s")

def subject_run(desk, accessory, extra=(), expect_shown=None, expect_monitor=None):
    """CPU share of a core, duo-capture and Xorg, over `interval` seconds of a scrolling take. The view is
    expected shown unless the accessory is off (or as `expect_shown` says); `expect_monitor`, when given, is
    what the last `subject-monitor` event must say (view, curtain or desktop)."""
    work = tempfile.mkdtemp(prefix="duo-bench-take-", dir=desk.dir)
    events = os.path.join(work, "events.jsonl")
    proc = subprocess.Popen([app, "--camera", "inner", "--format", "1280x720@30", "--script", script, "--accessory", accessory,
                             "--record", "--countdown", "0", "--record-dir", work, "--events", events, "--quiet", *extra],
                            env=desk.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_event(events, "take-started", proc)
    time.sleep(1)  # the windows settle (fullscreen, first frames) before measuring
    a0, x0, t0 = cpu_seconds(proc.pid), cpu_seconds(desk.xorg.pid), time.time()
    time.sleep(interval)
    a1, x1, t1 = cpu_seconds(proc.pid), cpu_seconds(desk.xorg.pid), time.time()
    proc.send_signal(signal.SIGINT)
    proc.wait(60)
    shown = any(json.loads(l).get("shown") for l in open(events) if '"shown"' in l)
    if shown != (accessory != "off" if expect_shown is None else expect_shown):
        sys.exit(f"benchmark: the subject view was {'shown' if shown else 'hidden'} with --accessory {accessory} {' '.join(extra)}")
    if expect_monitor is not None:
        said = last_event(events, "subject-monitor")
        if not said or said.get("shows") != expect_monitor:
            sys.exit(f"benchmark: the subject's monitor showed {said and said.get('shows')}, not {expect_monitor}, with {' '.join(extra)}")
    return (a1 - a0) / (t1 - t0), (x1 - x0) / (t1 - t0)

def whole_run(cmd, env, xorg_pid=None):
    """CPU seconds of a whole run of duo-capture (rusage) plus Xorg's over the same span."""
    x0 = cpu_seconds(xorg_pid) if xorg_pid else 0
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(cmd, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        sys.exit(f"benchmark: {' '.join(cmd[1:4])}… failed: {run.stderr.strip()[-400:]}")
    x1 = cpu_seconds(xorg_pid) if xorg_pid else 0
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), x1 - x0

def last_event(path, name):
    found = None
    with open(path) as f:
        for line in f:
            e = json.loads(line)
            if e.get("event") == name:
                found = e
    return found

def preview_run(desk, binary, pipelines, windowed):
    """CPU share of a core (duo-capture, Xorg) over `interval` s of a 1080p60 preview, and its last preview event."""
    work = tempfile.mkdtemp(prefix="duo-bench-preview-", dir=desk.dir)
    events = os.path.join(work, "events.jsonl")
    cmd = [binary, "--source", "videotestsrc", "--format", "1920x1080@60", "--accessory", "off", "--events", events,
           "--record-dir", work, "--quiet"] + (["--windowed"] if windowed else []) + (["--pipelines", pipelines] if pipelines else [])
    proc = subprocess.Popen(cmd, env=desk.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=root)
    wait_for_event(events, "started", proc)
    time.sleep(2)  # the window settles (fullscreen, first frames) before measuring
    a0, x0, t0 = cpu_seconds(proc.pid), cpu_seconds(desk.xorg.pid), time.time()
    time.sleep(interval)
    a1, x1, t1 = cpu_seconds(proc.pid), cpu_seconds(desk.xorg.pid), time.time()
    proc.send_signal(signal.SIGINT)
    proc.wait(60)
    return (a1 - a0) / (t1 - t0), (x1 - x0) / (t1 - t0), last_event(events, "preview")

def preview_section(desk):
    baseline = os.environ.get("DUO_BENCH_BASELINE")
    paths = [("appsink (this build)", app, None)]
    if baseline:
        binary, _, pipelines = baseline.partition(":")
        paths.append(("gtksink (baseline)", binary, pipelines or None))
    desk.subject_monitor(None)
    print(f"operator picture path: 1920x1080@60 camera, CPU over {interval:g} s, share of one core (median of {repeats}); "
          "preview: shown fps and largest gap (ms) from the last preview event")
    print(f"{'path':<22}{'monitor':>10}{'window':>12}{'app':>6}{'X':>6}{'app+X':>7}{'fps':>7}{'gap ms':>8}")
    for size in ("1280x720", "1920x1080"):
        desk.xrandr("--output", "DUMMY0", "--mode", size, "--pos", "0x0", "--primary")
        desk.xrandr("-q")
        for windowed in (False, True):
            rows = {label: [] for label, _, _ in paths}
            for _ in range(repeats):
                for label, binary, pipelines in paths:
                    rows[label].append(preview_run(desk, binary, pipelines, windowed))
            for label, _, _ in paths:
                r = rows[label]
                a = statistics.median(x[0] for x in r)
                xs = statistics.median(x[1] for x in r)
                fps = [x[2]["fps"] for x in r if x[2]]
                gap = [x[2]["largestGapMs"] for x in r if x[2]]
                print(f"{label:<22}{size:>10}{'windowed' if windowed else 'fullscreen':>12}{a:>6.0%}{xs:>6.0%}{a + xs:>7.0%}"
                      f"{statistics.median(fps) if fps else float('nan'):>7.1f}{max(gap) if gap else float('nan'):>8.1f}")
    desk.xrandr("--output", "DUMMY0", "--mode", "1920x1080", "--pos", "0x0", "--primary")
    print()
    print(f"desktop/headless at 720p30: a {take:g} s take, operator window fullscreen on 1920x1080, CPU s of duo-capture + Xorg "
          f"(median of {repeats}); target 1.15x")
    print(f"{'path':<22}{'desktop app':>12}{'desktop X':>11}{'desktop':>9}{'headless':>10}{'ratio':>7}")
    for label, binary, pipelines in paths:
        desktop_cpu, headless_cpu = [], []
        extra = ["--pipelines", pipelines] if pipelines else []
        for _ in range(repeats):
            work = tempfile.mkdtemp(prefix="duo-bench-op-", dir=desk.dir)
            common = ["--source", "videotestsrc", "--format", "1280x720@30", "--record", "--countdown", "0", "--duration", str(take),
                      "--record-dir", work, "--quiet"] + extra
            app_cpu, x_cpu = whole_run([binary, *common, "--accessory", "off"], desk.env, desk.xorg.pid)
            desktop_cpu.append((app_cpu, x_cpu))
            headless_env = {k: v for k, v in desk.env.items() if k != "DISPLAY"}
            app_cpu, _ = whole_run([binary, "--headless", *common], headless_env)
            headless_cpu.append(app_cpu)
        d_app = statistics.median(a for a, _ in desktop_cpu)
        d_x = statistics.median(x for _, x in desktop_cpu)
        h = statistics.median(headless_cpu)
        print(f"{label:<22}{d_app:>12.1f}{d_x:>11.1f}{d_app + d_x:>9.1f}{h:>10.1f}{(d_app + d_x) / h:>6.2f}x")

def peak_memory_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")

def cost_run(desk, camera, take_running, headless):
    """(app share of a core, Xorg share, peak MB) over `interval` s of a run, the window fullscreen (or headless)."""
    work = tempfile.mkdtemp(prefix="duo-bench-cost-", dir=desk.dir)
    events = os.path.join(work, "events.jsonl")
    cmd = [app, "--source", "videotestsrc", "--format", camera, "--accessory", "off", "--events", events,
           "--record-dir", work, "--quiet"] + (["--record", "--countdown", "0"] if take_running else []) + (["--headless"] if headless else [])
    env = {k: v for k, v in desk.env.items() if k != "DISPLAY"} if headless else desk.env
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=root)
    wait_for_event(events, "take-started" if take_running else "started", proc)
    if not headless:
        wait_for_event(events, "fullscreen", proc)
    time.sleep(2)  # the window settles (fullscreen, first frames) before measuring
    a0, x0, t0 = cpu_seconds(proc.pid), cpu_seconds(desk.xorg.pid), time.time()
    time.sleep(interval)
    a1, x1, t1 = cpu_seconds(proc.pid), cpu_seconds(desk.xorg.pid), time.time()
    peak = peak_memory_mb(proc.pid)
    proc.send_signal(signal.SIGINT)
    proc.wait(60)
    return (a1 - a0) / (t1 - t0), 0 if headless else (x1 - x0) / (t1 - t0), peak

def ximagesink_run(desk, size):
    """Xorg's share of a core while a bare ximagesink shows a size-sized 30 fps picture."""
    w, h = size.split("x")
    proc = subprocess.Popen(["gst-launch-1.0", "-q", "videotestsrc", "is-live=true", "!",
                             f"video/x-raw,format=BGRx,width={w},height={h},framerate=30/1", "!", "ximagesink"],
                            env=desk.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(2)
    x0, t0 = cpu_seconds(desk.xorg.pid), time.time()
    time.sleep(interval)
    x1, t1 = cpu_seconds(desk.xorg.pid), time.time()
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    return (x1 - x0) / (t1 - t0)

def cost_section(desk, frames):
    import re
    desk.subject_monitor(None)
    cameras, monitors = ("1280x720@30", "1920x1080@30"), ("1280x720", "1920x1080", "3840x2160")
    print(f"desktop cost (issue 36): CPU over {interval:g} s, share of one core, median of {repeats} alternating rounds; "
          f"load {os.getloadavg()[0]:.1f} at start")
    ximage = {m: [] for m in monitors}
    rows = {}
    for _ in range(repeats):
        for monitor in monitors:
            desk.xrandr("--output", "DUMMY0", "--mode", monitor, "--pos", "0x0", "--primary")
            desk.xrandr("-q")
            ximage[monitor].append(ximagesink_run(desk, monitor))
        for camera in cameras:
            for state in ("take", "standby"):
                h = cost_run(desk, camera, state == "take", True)
                for monitor in monitors:
                    desk.xrandr("--output", "DUMMY0", "--mode", monitor, "--pos", "0x0", "--primary")
                    desk.xrandr("-q")
                    d = cost_run(desk, camera, state == "take", False)
                    rows.setdefault((camera, monitor, state), []).append((d, h))
    xi = {m: statistics.median(v) for m, v in ximage.items()}
    print(f"{'camera':<14}{'monitor':>10}{'state':>9}{'app':>6}{'X':>6}{'headless':>9}{'ratio':>7}{'mem MB':>8}{'mem ratio':>10}"
          f"{'ximagesink X':>13}{'X/ximage':>9}")
    for (camera, monitor, state), r in rows.items():
        d_app = statistics.median(d[0] for d, _ in r)
        d_x = statistics.median(d[1] for d, _ in r)
        h_app = statistics.median(h[0] for _, h in r)
        ratio = statistics.median((d[0] + d[1]) / h[0] for d, h in r)
        mem = statistics.median(d[2] for d, _ in r)
        mem_ratio = statistics.median(d[2] / h[2] for d, h in r)
        print(f"{camera:<14}{monitor:>10}{state:>9}{d_app:>6.0%}{d_x:>6.0%}{h_app:>9.0%}{ratio:>6.2f}x{mem:>8.0f}{mem_ratio:>9.2f}x"
              f"{xi[monitor]:>13.1%}{d_x / xi[monitor] if xi[monitor] > 0 else float('nan'):>8.2f}x")
    print(f"load {os.getloadavg()[0]:.1f} at end")
    print()
    print(f"headless app against the bare graph with a plain fakesink operator branch: {frames} frames of a take, CPU s "
          f"(median of {repeats} alternating runs); target at most 1.00x")
    print(f"{'camera':<14}{'app':>7}{'bare':>7}{'ratio':>7}")
    headless_env = {k: v for k, v in desk.env.items() if k != "DISPLAY"}
    for camera in cameras:
        fps = int(camera.split("@")[1])
        app_cpu, bare_cpu = [], []
        for _ in range(repeats):
            work = tempfile.mkdtemp(prefix="duo-bench-bare-", dir=desk.dir)
            graph = subprocess.run([app, "pipeline", "--source", "videotestsrc", "--format", camera, "--record-dir", work],
                                   stdout=subprocess.PIPE, text=True, check=True, env=headless_env).stdout.strip()
            graph = graph.replace("gst-launch-1.0 -e ", "", 1).replace("is-live=true", f"is-live=true num-buffers={frames}", 1)
            graph = re.sub(r'location="[^"]*"', f'location="{os.path.join(work, "bare.mkv")}"', graph)
            # The operator branch, whatever this build puts in it, replaced by a plain queue ! fakesink.
            graph, n = re.subn(r"queue name=operator_queue .*?! fakesink name=operator_sink sync=true",
                               "queue name=operator_queue max-size-buffers=3 max-size-bytes=0 max-size-time=0 leaky=downstream "
                               "! fakesink name=operator_sink sync=true", graph)
            if n != 1:
                sys.exit("benchmark: no operator branch found in the printed graph")
            bare_cpu.append(whole_run(["sh", "-c", f"gst-launch-1.0 -q -e {graph}"], headless_env)[0])
            app_cpu.append(whole_run([app, "--headless", "--quiet", "--source", "videotestsrc", "--format", camera, "--record",
                                      "--countdown", "0", "--record-dir", work, "--duration", str(frames / fps)], headless_env)[0])
        a, b = statistics.median(app_cpu), statistics.median(bare_cpu)
        print(f"{camera:<14}{a:>7.2f}{b:>7.2f}{a / b:>6.2f}x")

desk = Desktop()
if cost_mode:
    try:
        cost_section(desk, int(args[1]) if len(args) > 1 else 300)
    finally:
        desk.stop()
    sys.exit(0)
if preview_mode:
    try:
        preview_section(desk)
    finally:
        desk.stop()
    sys.exit(0)
try:
  if "subject" in sections:
    print(f"subject view: CPU over {interval:g} s of a scrolling 720p30 take, share of one core (median of {repeats})")
    print(f"{'subject monitor':<17}{'shown app':>10}{'shown X':>9}{'hidden app':>11}{'hidden X':>9}{'shown-hidden':>14}")
    for size in ("1280x720", "1920x1080", "3840x2160"):
        desk.subject_monitor(size)
        rows = {"teleprompter": [], "off": []}
        for _ in range(repeats):
            for accessory in ("teleprompter", "off"):
                rows[accessory].append(subject_run(desk, accessory))
        med = {k: (statistics.median(a for a, _ in v), statistics.median(x for _, x in v)) for k, v in rows.items()}
        extra = statistics.median((a + x) - (ha + hx) for (a, x), (ha, hx) in zip(rows["teleprompter"], rows["off"]))
        print(f"{size:<17}{med['teleprompter'][0]:>9.0%} {med['teleprompter'][1]:>8.0%} {med['off'][0]:>10.0%} "
              f"{med['off'][1]:>8.0%} {extra:>+13.0%}")

  if "operator" in sections:
    print()
    print(f"operator preview: a {take:g} s 720p30 take, operator window fullscreen on 1920x1080 vs headless, "
          f"CPU s of duo-capture + Xorg (median of {repeats})")
    desk.subject_monitor(None)
    desktop_cpu, headless_cpu = [], []
    for _ in range(repeats):
        work = tempfile.mkdtemp(prefix="duo-bench-op-", dir=desk.dir)
        common = ["--camera", "inner", "--format", "1280x720@30", "--record", "--countdown", "0", "--duration", str(take),
                  "--record-dir", work, "--quiet"]
        app_cpu, x_cpu = whole_run([app, *common, "--accessory", "off"], desk.env, desk.xorg.pid)
        desktop_cpu.append((app_cpu, x_cpu))
        headless_env = {k: v for k, v in desk.env.items() if k != "DISPLAY"}
        app_cpu, _ = whole_run([app, "--headless", *common], headless_env)
        headless_cpu.append(app_cpu)
    d_app = statistics.median(a for a, _ in desktop_cpu)
    d_x = statistics.median(x for _, x in desktop_cpu)
    h = statistics.median(headless_cpu)
    print(f"{'desktop app':>12}{'desktop X':>11}{'desktop':>9}{'headless':>10}{'ratio':>7}")
    print(f"{d_app:>12.1f}{d_x:>11.1f}{d_app + d_x:>9.1f}{h:>10.1f}{(d_app + d_x) / h:>6.2f}x")
  if "selfview" in sections:
    print()
    print(f"self-view: CPU over {interval:g} s of a scrolling 720p30 take, teleprompter shown, share of one core "
          f"(median of {repeats}); target at most +8 %")
    print(f"{'subject monitor':<17}{'on app':>8}{'on X':>7}{'off app':>9}{'off X':>7}{'on-off':>8}")
    for size in ("1920x1080", "3840x2160"):
        desk.subject_monitor(size)
        rows = {"small": [], "off": []}
        for _ in range(repeats):
            for view in ("small", "off"):
                rows[view].append(subject_run(desk, "teleprompter", ("--self-view", view)))
        med = {k: (statistics.median(a for a, _ in v), statistics.median(x for _, x in v)) for k, v in rows.items()}
        extra = statistics.median((a + x) - (oa + ox) for (a, x), (oa, ox) in zip(rows["small"], rows["off"]))
        print(f"{size:<17}{med['small'][0]:>7.0%} {med['small'][1]:>6.0%} {med['off'][0]:>8.0%} {med['off'][1]:>6.0%} {extra:>+7.0%}")
  if "curtain" in sections:
    print()
    print(f"curtain: CPU over {interval:g} s of a scrolling 720p30 take, operator window not fullscreen (view hidden), "
          f"share of one core (median of {repeats}); expected within noise")
    print(f"{'subject monitor':<17}{'curtain app':>12}{'curtain X':>10}{'hidden app':>11}{'hidden X':>9}{'curtain-hidden':>16}")
    for size in ("1920x1080", "3840x2160"):
        desk.subject_monitor(size)
        rows = {"on": [], "off": []}
        for _ in range(repeats):
            for curtain in ("on", "off"):
                rows[curtain].append(subject_run(desk, "teleprompter", ("--windowed", "--subject-curtain", curtain), expect_shown=False,
                                                 expect_monitor="curtain" if curtain == "on" else "desktop"))
        med = {k: (statistics.median(a for a, _ in v), statistics.median(x for _, x in v)) for k, v in rows.items()}
        extra = statistics.median((a + x) - (oa + ox) for (a, x), (oa, ox) in zip(rows["on"], rows["off"]))
        print(f"{size:<17}{med['on'][0]:>11.0%} {med['on'][1]:>9.0%} {med['off'][0]:>10.0%} {med['off'][1]:>8.0%} {extra:>+15.1%}")
finally:
    desk.stop()
