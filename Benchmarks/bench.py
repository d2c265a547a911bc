"""What every benchmark here does the same way: the repository root, a release build of duo-capture,
the CPU a child process used (to its end, or so far), a free X display number, stopping a process this
benchmark started, and a take decoded back with `duo-capture inspect`."""
import json, os, resource, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def release_app(product="duo-capture"):
    """Builds duo-capture in release (the build's output goes to stderr) and returns its path. Benchmarks
    that need the test hub (test cameras, frame codes, fault commands) ask for duo-capture-testhub: the same
    program with the hub registered."""
    # Linked as users get it from Scripts/install.sh and the .deb: Swift's runtime linked in, which starts
    # ~15 ms of CPU sooner than the shared runtime.
    subprocess.run(["swift", "build", "-c", "release", "--product", product, "--static-swift-stdlib"], cwd=root,
                   check=True, stdout=sys.stderr)
    return os.path.join(root, ".build", "release", product)


def cpu_of(cmd, env=None):
    """Runs `cmd` to its end: (CPU seconds it used, user + system, its stdout); exits on failure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        sys.exit(f"benchmark: {' '.join(cmd[:4])}… failed: {run.stderr.strip()[-300:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), run.stdout


def inspect(app, path):
    """A take decoded completely: `duo-capture inspect --json` (videoFrames, maxGapMs, …)."""
    return json.loads(subprocess.run([app, "inspect", path, "--json"], stdout=subprocess.PIPE, text=True, check=True).stdout)


def cpu_seconds(pid):
    """utime + stime of the running `pid` so far, seconds (/proc/PID/stat fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_display(first):
    """The first X display from `first` on with neither a socket nor a lock file: ":N"."""
    n = first
    while os.path.exists(f"/tmp/.X11-unix/X{n}") or os.path.exists(f"/tmp/.X{n}-lock"):
        n += 1
    return f":{n}"


def stop(process):
    """Stops a process this benchmark started (a subprocess.Popen), by its pid: SIGTERM, then SIGKILL
    after 5 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
