#!/usr/bin/env python3
"""Captions (issue 38): alignment time against the reading's length, and the first-cue timing error.

A script is written here (seeded sentences from word lists: not a shipped example), espeak-ng reads it
(Tests/DuoCLITests/Fixtures/reading.py: sentence by sentence, true word timings kept, a quiet noise floor)
for about 1 and 5 minutes at 150 wpm (espeak-ng's default voice, a quiet room) and 180 wpm (another voice,
en-us, over a fan's hum and hiss), with an ad-lib and a skipped paragraph; then
`duo-capture captions reading.wav --script FILE` captions it. Reported per reading: its length, the CPU
seconds and wall seconds of the captions command (target: CPU at most half the length, on one core), and
the error of each read sentence's first cue against when the sentence truly began (median, 95th percentile).

Usage: python3 Benchmarks/captions.py [MINUTES…] [--debug] [--detail]
  --debug: the debug build in .build/debug, no release build; --detail: each sentence's truth and cue on stderr
"""
import json, os, random, subprocess, sys, tempfile, time

from bench import cpu_of, release_app, root

ADJ = "amber bright calm distant early frozen gentle hollow iron lonely mellow narrow orange patient quiet rapid silver tall velvet wooden".split()
NOUN = "harbour lantern meadow river orchard canyon village market garden bridge tower valley forest island kitchen library station window engine mountain".split()
VERB = "follows crosses guards carries circles watches lifts holds shelters greets".split()
PLACE = "beyond the hills|under the old arch|along the shore|before the winter|after the storm|near the station|behind the mill|across the square".split("|")


def sentence(rng):
    a, b = rng.sample(ADJ, 2)
    n, m = rng.sample(NOUN, 2)
    s = f"The {a} {n} {rng.choice(VERB)} the {b} {m} {rng.choice(PLACE)}"
    if rng.random() < 0.4:
        s += f", while the {rng.choice(ADJ)} {rng.choice(NOUN)} {rng.choice(VERB)} nothing"
    return s + "."


def script_text(paragraphs, rng):
    out = ["# Benchmark reading", ""]
    for p in range(paragraphs):
        if p % 4 == 0:
            out += [f"## Part {p // 4 + 1}", ""]
        out += [" ".join(sentence(rng) for _ in range(3)), ""]
        if p == 1:
            out += ["[[note: private, never in a caption]]", ""]
    return "\n".join(out)


def words_of(text):
    words = []
    for line in text.split("\n"):
        if line.startswith("[[note"):
            continue
        words += line.lstrip("#").split()
    return words


def main():
    debug = "--debug" in sys.argv
    app = os.path.join(root, ".build", "debug", "duo-capture") if debug else release_app()
    reading_py = os.path.join(root, "Tests", "DuoCLITests", "Fixtures", "reading.py")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        for minutes in [int(a) for a in sys.argv[1:] if a.isdigit()] or (1, 5):
            for speed, voice, room in ((150, None, False), (180, "en-us", True)):
                rng = random.Random(minutes * 1000 + speed)
                # About 11 words a sentence, 3 a paragraph.
                paragraphs = max(3, int(minutes * speed / 33))
                text = script_text(paragraphs + 1, rng)
                path = os.path.join(tmp, f"script-{minutes}-{speed}.md")
                open(path, "w").write(text)
                words = words_of(text)
                # Paragraph boundaries (word indices where each paragraph starts) from the text.
                starts, at = [], 0
                for line in text.split("\n"):
                    if line.startswith("[[note") or not line.strip():
                        continue
                    n = len(line.lstrip("#").split())
                    if not line.startswith("#"):
                        starts.append(at)
                    at += n
                skip = (starts[2], starts[3])  # the third paragraph is skipped
                plan = {"words": words, "speed": speed, "voice": voice, "room": room,
                        "steps": [{"read": [0, skip[0]]}, {"adlib": "Sorry, I lost my place there for a second."},
                                  {"silence": 1.5}, {"read": [skip[1], len(words)]}]}
                plan_path = os.path.join(tmp, "plan.json")
                json.dump(plan, open(plan_path, "w"))
                wav, truth_path = os.path.join(tmp, "reading.wav"), os.path.join(tmp, "truth.json")
                subprocess.run([sys.executable, reading_py, plan_path, wav, truth_path], check=True)
                truth = json.load(open(truth_path))
                began = {}
                for s in truth["spans"]:
                    if s[3] == s[2] + 1:
                        began[int(s[2])] = s[0]
                # CPU includes building the script's speech model (cmudict read once per new script).
                t0 = time.monotonic()
                cpu, out = cpu_of([app, "captions", wav, "--script", path], env=env)
                wall = time.monotonic() - t0
                cues = parse_vtt(open(wav[:-4] + ".vtt").read())
                errors = []
                # Sentence starts: word 0 and every word after one that ends a sentence.
                for i, w in enumerate(words):
                    if i in began and (i == 0 or words[i - 1].endswith(".")) and not w.startswith("Part"):
                        # The sentence's own first cue: the cue whose text begins the sentence (at most 8
                        # words compared: a cue holds at least that much, or the whole sentence).
                        end = next(k for k in range(i, len(words)) if words[k].endswith(".")) + 1
                        first = " ".join(words[i:min(end, i + 8)])
                        cue = next((c for c in cues if first.startswith(c[1].replace("\n", " ")[:len(first)])
                                    and c[1].replace("\n", " ").startswith(first[:len(c[1])])), None)
                        errors.append(abs(cue[0] - began[i]) if cue else float("inf"))
                        if "--detail" in sys.argv:
                            print("   truth %.2f  cue %s  %s" % (began[i], "%.2f" % cue[0] if cue else "none", first), file=sys.stderr)
                errors.sort()
                med = errors[len(errors) // 2]
                p95 = errors[min(len(errors) - 1, round((len(errors) - 1) * 0.95))]
                rows.append((minutes, f"{speed} wpm, {voice or 'default voice'}{', room noise' if room else ''}", truth["seconds"], cpu, wall, med, p95, len(errors),
                             sum(1 for e in errors if e == float("inf"))))
                print(f"  {minutes} min at {speed} wpm: done", file=sys.stderr)
    print("| reading | length s | CPU s | CPU / length | wall s | first-cue error median s | p95 s | sentences (no cue) |")
    print("|---|---|---|---|---|---|---|---|")
    for m, sp, length, cpu, wall, med, p95, n, missing in rows:
        print(f"| {m} min, {sp} | {length:.1f} | {cpu:.1f} | {cpu / length:.2f} | {wall:.1f} | {med:.3f} | {p95:.3f} | {n} ({missing}) |")


def parse_vtt(text):
    cues = []
    for block in text.strip().split("\n\n")[1:]:
        lines = block.split("\n")
        stamp = next(l for l in lines if "-->" in l)
        h, m, s = stamp.split(" --> ")[0].split(":")
        body = "\n".join(lines[lines.index(stamp) + 1:])
        cues.append((int(h) * 3600 + int(m) * 60 + float(s), body))
    return cues


if __name__ == "__main__":
    main()
