#!/usr/bin/env python3
"""CPU of a 720p30 take from a PipeWire camera, against the same take from the simulated input and
against the bare gst-launch-1.0 graph with pipewiresrc doing the same encode, in one run.

  pipewire = duo-capture --headless --camera pipewire:NODE --record --countdown 0 for FRAMES frames
  sim      = duo-capture --headless --camera inner --format 1280x720@30 --record … (no PipeWire)
  bare     = gst-launch-1.0 -e <the graph `duo-capture pipeline --camera pipewire:NODE` prints>, with
             num-buffers=FRAMES on pipewiresrc

The camera is a virtual node in a private PipeWire daemon (its own XDG_RUNTIME_DIR, dbus-daemon,
pipewire, wireplumber; everything stopped by pid at the end): videotestsrc 1280x720 YUY2 at 30 fps
through pipewiresink mode=provide, published anew before each run (a provide-mode node that lost its
consumer does not always deliver to the next one). The publisher's own CPU is not counted (it is the
camera). Printed: CPU seconds (user+sys, rusage), frames recorded (decoded back) and the ratios, medians
of REPEATS alternating runs. Target: pipewire / bare at most 1.05.

Needs pipewire, pipewire-bin, wireplumber, gstreamer1.0-pipewire, dbus (Scripts/install-deps.sh --desktop).

Usage: python3 Benchmarks/pipewire-cpu.py [FRAMES] [REPEATS]    (defaults 600, 3)
"""
import json, os, re, shutil, signal, statistics, subprocess, sys, tempfile, time
from bench import cpu_of, inspect, release_app

frames = int(sys.argv[1]) if len(sys.argv) > 1 else 600
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
node = "duo-bench-cam"
caps = "video/x-raw,format=YUY2,width=1280,height=720,framerate=30/1"
app = release_app()


def wait_for(what, condition, timeout=20):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            sys.exit(f"benchmark: timed out waiting for {what}")
        time.sleep(0.05)


class Daemon:
    """A private PipeWire session; `env` reaches it."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="duo-pw-bench-")
        os.chmod(self.dir, 0o700)
        self.env = {k: v for k, v in os.environ.items() if k not in ("PIPEWIRE_REMOTE", "PIPEWIRE_RUNTIME_DIR")}
        self.env.update(XDG_RUNTIME_DIR=self.dir, DBUS_SESSION_BUS_ADDRESS=f"unix:path={self.dir}/bus",
                        XDG_STATE_HOME=os.path.join(self.dir, "state"))
        self.procs, self.camera = [], None
        self.log = open(os.path.join(self.dir, "daemons.log"), "w")
        self.start(["dbus-daemon", "--session", "--nofork", "--nopidfile", f"--address=unix:path={self.dir}/bus"])
        wait_for("the session bus", lambda: os.path.exists(f"{self.dir}/bus"))
        self.start(["pipewire"])
        wait_for("pipewire", lambda: self.tool(["pw-cli", "info", "0"]).returncode == 0)
        self.start(["wireplumber"])
        wait_for("wireplumber", lambda: 'metadata.name = "default"' in self.tool(["pw-cli", "ls", "Metadata"]).stdout)

    def start(self, cmd):
        self.procs.append(subprocess.Popen(cmd, env=self.env, stdout=self.log, stderr=self.log, stdin=subprocess.DEVNULL))

    def tool(self, cmd):
        return subprocess.run(cmd, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=10)

    def has_node(self):
        return f'node.name = "{node}"' in self.tool(["pw-cli", "ls", "Node"]).stdout

    def publish(self):
        self.unpublish()
        self.camera = subprocess.Popen(["gst-launch-1.0", "-q", "videotestsrc", "is-live=true", "!", caps, "!", "pipewiresink",
                                        "mode=provide", f"stream-properties=props,media.class=Video/Source,node.name={node},node.description={node}"],
                                       env=self.env, stdout=self.log, stderr=self.log, stdin=subprocess.DEVNULL)
        wait_for("the virtual camera", self.has_node)

    def unpublish(self):
        if self.camera:
            end(self.camera)
            self.camera = None
            wait_for("the virtual camera to go", lambda: not self.has_node())

    def stop(self):
        self.unpublish()
        for p in reversed(self.procs):
            end(p)
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def end(p):
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


daemon = Daemon()
try:
    print(f"720p30 take, {frames} frames per run, median of {repeats} alternating runs")
    results = {"pipewire": ([], []), "sim": ([], []), "bare": ([], [])}
    seconds = str(frames / 30)
    for _ in range(repeats):
        work = tempfile.mkdtemp(prefix="duo-bench-pw-")
        try:
            daemon.publish()
            cmd = [app, "--headless", "--quiet", "--json", "--camera", f"pipewire:{node}", "--record", "--countdown", "0",
                   "--audio", "none", "--record-dir", work, "--duration", seconds]
            cpu, out = cpu_of(cmd, env=daemon.env)
            results["pipewire"][0].append(cpu)
            results["pipewire"][1].append(inspect(app, json.loads(out)["takes"][0]["file"])["videoFrames"])

            cpu, out = cpu_of([app, "--headless", "--quiet", "--json", "--camera", "inner", "--format", "1280x720@30", "--record",
                               "--countdown", "0", "--audio", "none", "--record-dir", work, "--duration", seconds], env=daemon.env)
            results["sim"][0].append(cpu)
            results["sim"][1].append(inspect(app, json.loads(out)["takes"][0]["file"])["videoFrames"])

            daemon.publish()
            graph = subprocess.run([app, "pipeline", "--headless", "--camera", f"pipewire:{node}", "--audio", "none", "--record-dir", work],
                                   env=daemon.env, stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
            graph = graph.replace("gst-launch-1.0 -e ", "", 1).replace("do-timestamp=true", f"do-timestamp=true num-buffers={frames}")
            bare_file = os.path.join(work, "bare.mkv")
            graph = re.sub(r'location="[^"]*"', f'location="{bare_file}"', graph)
            cpu, _ = cpu_of(["sh", "-c", f"gst-launch-1.0 -q -e {graph}"], env=daemon.env)
            results["bare"][0].append(cpu)
            results["bare"][1].append(inspect(app, bare_file)["videoFrames"])
        finally:
            shutil.rmtree(work, ignore_errors=True)
    med = {k: (statistics.median(c), statistics.median(f)) for k, (c, f) in results.items()}
    print(f"{'':>10}{'cpu s':>8}{'frames':>8}")
    for k in ("pipewire", "sim", "bare"):
        print(f"{k:>10}{med[k][0]:>8.2f}{med[k][1]:>8.0f}")
    print(f"pipewire / bare {med['pipewire'][0] / med['bare'][0]:.2f} (target at most 1.05); "
          f"pipewire / simulated {med['pipewire'][0] / med['sim'][0]:.2f}")
finally:
    daemon.stop()
