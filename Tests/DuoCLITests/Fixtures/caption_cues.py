#!/usr/bin/env python3
"""Reads caption files with readers not written here: WebVTT with webvtt-py and SubRip with srt (both
from PyPI, installed on first use into the test cache folder given, with pip --target).

Usage: caption_cues.py LIBDIR FILE.vtt FILE.srt  → JSON {"vtt": [[start, end, text]...], "srt": [...]}
"""
import importlib, json, os, subprocess, sys

lib = sys.argv[1]
sys.path.insert(0, lib)
try:
    import srt, webvtt
except ImportError:
    os.makedirs(lib, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--target", lib, "webvtt-py==0.6.0", "srt==3.5.3"],
                   check=True, timeout=300)
    importlib.invalidate_caches()
    import srt, webvtt

# webvtt-py's *_in_seconds are whole seconds; take the milliseconds from the timestamps.
def seconds(stamp):
    h, m, s = stamp.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)
vtt = [[seconds(c.start), seconds(c.end), c.text] for c in webvtt.read(sys.argv[2])]
subs = [[s.start.total_seconds(), s.end.total_seconds(), s.content] for s in srt.parse(open(sys.argv[3], encoding="utf-8").read())]
print(json.dumps({"vtt": vtt, "srt": subs}))
