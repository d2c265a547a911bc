#!/usr/bin/env python3
"""Voice-follow against the truth: espeak-ng readings of the sample script (Assets/scripts/talk.md),
played as the live microphone (--audio file:), followed by the real recogniser; for each reading the
median and 95th-percentile absolute error in words between the followed line and where the speaker was
(sampled every 100 ms), the lag (from the end of each word to the line passing it: median, p95), and
the recogniser's CPU: the same run with --follow time (no recogniser) is the baseline measured in the
same run, and the difference in process CPU over the reading's length is the recogniser's share of a
core.

Readings: clean at 140 and 180 wpm; and each with an ad-libbed sentence, a 3 s pause and a skipped
paragraph (heading and paragraph "Why two screens").
Targets (issue 12): median <= 3 words, p95 <= 10, lag <= 1.5 s, recogniser <= 40 % of a core.

Usage: python3 Benchmarks/voice-follow.py
"""
import json, os, statistics, subprocess, sys, tempfile

from bench import cpu_of, release_app, root
app = release_app()
script = os.path.join(root, "Assets", "scripts", "talk.md")
reading_py = os.path.join(root, "Tests", "DuoCLITests", "Fixtures", "reading.py")

# The script's words and blocks as the teleprompter counts them: markdown emphasis and private notes
# removed, words split at whitespace; checked against the app's own count (check-script).
import re
text = re.sub(r"\[\[note:.*?\]\]", "", open(script, encoding="utf-8").read(), flags=re.S)
blocks, words = [], []
for raw in text.split("\n\n"):
    raw = raw.strip()
    if not raw:
        continue
    if raw == "[PAUSE]":
        blocks.append(("pause", len(words), len(words)))
        continue
    kind = "heading" if raw.startswith("#") else "paragraph"
    w = raw.lstrip("#").replace("**", "").replace("*", "").split()
    blocks.append((kind, len(words), len(words) + len(w)))
    words += w
counted = subprocess.run([app, "check-script", script], stdout=subprocess.PIPE, text=True).stdout
assert f": {len(words)} words for the subject" in counted, f"word count differs from the app's: {counted}"

paragraphs = [b for b in blocks if b[0] == "paragraph"]
headings = [b for b in blocks if b[0] == "heading"]
clean = [{"read": [0, len(words)]}]
varied = [{"read": [0, paragraphs[0][2]]}, {"adlib": "Sorry, I lost my place there for a second."}, {"silence": 3.0},
          {"read": [headings[2][1], len(words)]}]


def truth_at(spans, t):
    p = 0.0
    for s in spans:
        if s[0] <= t:
            p = s[3] if t >= s[1] else s[2] + (s[3] - s[2]) * (t - s[0]) / max(s[1] - s[0], 1e-9)
    return p


def run(follow, wav, seconds, work):
    events = os.path.join(work, f"events-{follow}.jsonl")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"), XDG_STATE_HOME=os.path.join(work, "state"))
    cpu, _ = cpu_of([app, "--headless", "--quiet", "--source", "videotestsrc", "--format", "320x240@30", "--script", script,
                     "--accessory", "teleprompter", "--follow", follow, "--audio", f"file:{wav}",
                     "--duration", "%.1f" % (seconds + 1), "--events", events], env=env)
    samples = []
    for line in open(events):
        e = json.loads(line)
        if e["event"] == "follow" and "at" in e:
            samples.append((e["at"], e["position"]))
    return cpu, samples


def measure(label, speed, steps):
    work = tempfile.mkdtemp(prefix="duo-voice-")
    plan = os.path.join(work, "plan.json")
    json.dump({"words": words, "speed": speed, "steps": steps}, open(plan, "w"))
    wav, truth_file = os.path.join(work, "reading.wav"), os.path.join(work, "truth.json")
    subprocess.run([sys.executable, reading_py, plan, wav, truth_file], check=True)
    truth = json.load(open(truth_file))
    spans, seconds = truth["spans"], truth["seconds"]
    base_cpu, _ = run("time", wav, seconds, work)
    cpu, samples = run("voice", wav, seconds, work)

    def followed(t):
        p = 0.0
        for at, pos in samples:
            if at <= t:
                p = pos
        return p

    errors = []
    t = 0.5
    while t <= seconds:
        errors.append(abs(followed(t) - truth_at(spans, t)))
        t += 0.1
    lags = []
    for s in spans:
        if s[3] > s[2] and s[1] > s[0]:  # a word said: from s[0] to s[1], reaching position s[3]
            reached = next((at for at, pos in samples if pos >= s[3] - 0.5 and at >= s[0]), None)
            if reached is not None:
                lags.append(max(0.0, reached - s[1]))
    errors.sort()
    lags.sort()
    pct = lambda xs, p: xs[min(len(xs) - 1, int((len(xs) - 1) * p))] if xs else float("nan")
    share = (cpu - base_cpu) / seconds
    print(f"{label:<28}{speed:>5}{seconds:>8.1f}{pct(errors, .5):>9.1f}{pct(errors, .95):>8.1f}"
          f"{pct(lags, .5):>10.2f}{pct(lags, .95):>9.2f}{share * 100:>13.0f} %{len(lags):>8}/{sum(1 for s in spans if s[3] > s[2] and s[1] > s[0])}")


print(f"{'reading':<28}{'wpm':>5}{'length':>8}{'median':>9}{'p95':>8}{'lag med':>10}{'lag p95':>9}{'recogniser':>15}{'words passed':>14}")
print(f"{'':<28}{'':>5}{'s':>8}{'words':>9}{'words':>8}{'s':>10}{'s':>9}{'of a core':>15}")
for label, speed, steps in [("clean", 140, clean), ("clean", 180, clean),
                            ("ad-lib, pause, skip", 140, varied), ("ad-lib, pause, skip", 180, varied)]:
    measure(label, speed, steps)
print("(recogniser: CPU of the --follow voice run minus the same run with --follow time, over the reading's length)")
