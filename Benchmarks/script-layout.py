#!/usr/bin/env python3
"""Script layout cost against script size, up to the 2 MB limit: a script that is one unbroken line (no
spaces: the worst case for line breaking) against prose of the same size, both laid out by
`duo-capture render-subject` (release build) in the same run. Linear layout keeps the ratio near 1 and
the time per megabyte flat as the size grows.

usage: Benchmarks/script-layout.py [SIZES_KB...]    (default 16 64 256 1024 2000)
"""
import os
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sizes = [int(a) for a in sys.argv[1:]] or [16, 64, 256, 1024, 2000]
subprocess.run(["swift", "build", "-c", "release", "--product", "duo-capture"], cwd=root, check=True, stdout=sys.stderr)
app = os.path.join(root, ".build", "release", "duo-capture")


def layout_seconds(path, out):
    t0 = time.monotonic()
    subprocess.run([app, "render-subject", "--script", path, "--at", "1", "--out", out], check=True,
                   stdout=subprocess.DEVNULL)
    return time.monotonic() - t0


words = "the quick brown fox jumps over the lazy dog and keeps reading the prompter line by line ".split()
print("script layout (render-subject, release), unbroken line vs prose of the same size")
print(f"{'size':>8} {'prose s':>9} {'unbroken s':>11} {'ratio':>7} {'unbroken s/MB':>14}")
with tempfile.TemporaryDirectory(prefix="duo-bench-") as work:
    for kb in sizes:
        n = kb * 1000
        prose = os.path.join(work, f"prose{kb}.txt")
        unbroken = os.path.join(work, f"unbroken{kb}.txt")
        sentence = " ".join(words) + " "
        with open(prose, "w") as f:
            f.write((sentence * (n // len(sentence) + 1))[:n])
        with open(unbroken, "w") as f:
            f.write("a" * n)
        out = os.path.join(work, "frame.png")
        p = layout_seconds(prose, out)
        u = layout_seconds(unbroken, out)
        print(f"{kb:>6}KB {p:>9.2f} {u:>11.2f} {u / p:>7.2f} {u / (n / 1e6):>14.2f}")
