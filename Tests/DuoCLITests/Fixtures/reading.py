#!/usr/bin/env python3
"""A synthetic reading of a script, for voice-follow's tests and benchmark: espeak-ng speaks it sentence
by sentence at a given speed, following a plan (read a range of the script's words, say an ad-lib, keep
silent), over a quiet noise floor (a room is never digitally silent, and the recogniser needs the floor).
It writes the sound and the truth: where the speaker is in the script (words said, as the teleprompter
counts them: after word k, 0-based, the position is k + 1) at each moment.

Usage: reading.py PLAN.json OUT.wav TRUTH.json
PLAN: {"words": [...script words as shown...], "speed": 150,
       "voice": "en-us+f3" (optional: an espeak-ng voice; its default otherwise),
       "room": true (optional: a room's noise under the voice, a fan's hum and hiss about 25 dB below the
                     voice's peaks, instead of the quiet floor),
       "steps": [{"read": [FROM, TO]}, {"adlib": "text"}, {"silence": SECONDS}, ...]}
TRUTH: {"seconds": total, "spans": [[t0, t1, p0, p1], ...]}  (the position goes linearly from p0 at t0 to
p1 at t1; between spans it stands still)
"""
import json, math, random, struct, subprocess, sys, tempfile, wave

RATE = 22050


def speak(text, speed, voice=None):
    with tempfile.NamedTemporaryFile(suffix=".wav") as f:
        subprocess.run(["espeak-ng", "-s", str(speed)] + (["-v", voice] if voice else []) + ["-w", f.name, text], check=True)
        with wave.open(f.name) as w:
            assert w.getframerate() == RATE and w.getsampwidth() == 2 and w.getnchannels() == 1
            data = w.readframes(w.getnframes())
    samples = list(struct.unpack("<%dh" % (len(data) // 2), data))
    # Where the voice is inside espeak's own leading and trailing silence.
    loud = [i for i, s in enumerate(samples) if abs(s) > 300]
    first, last = (loud[0], loud[-1]) if loud else (0, len(samples))
    return samples, first, last


def sentences(words, start, end):
    """The range's words cut after each word that ends a sentence."""
    out, begin = [], start
    for i in range(start, end):
        if words[i].rstrip("\"')]*_").endswith((".", "!", "?", ":")) or i == end - 1:
            out.append((begin, i + 1))
            begin = i + 1
    return out


def main():
    plan = json.load(open(sys.argv[1]))
    words, speed, voice = plan["words"], plan.get("speed", 150), plan.get("voice")
    audio, spans = [], []
    position = 0
    audio += [0] * int(0.5 * RATE)
    for step in plan["steps"]:
        if "read" in step:
            for a, b in sentences(words, *step["read"]):
                text = " ".join(words[a:b])
                samples, first, last = speak(text, speed, voice)
                t0 = (len(audio) + first) / RATE
                t1 = (len(audio) + last) / RATE
                if a != position:
                    spans.append([t0, t0, a, a])  # a skip: the speaker is at the new place at once
                # Words come at an even pace in characters through the voiced part of the sentence.
                lengths = [len(w) + 1 for w in words[a:b]]
                total, done = sum(lengths), 0
                for k, n in enumerate(lengths):
                    w0 = t0 + (t1 - t0) * done / total
                    done += n
                    w1 = t0 + (t1 - t0) * done / total
                    spans.append([w0, w1, a + k, a + k + 1])
                audio += samples
                position = b
        elif "adlib" in step:
            samples, _, _ = speak(step["adlib"], speed, voice)
            audio += samples
        elif "silence" in step:
            audio += [0] * int(step["silence"] * RATE)
    audio += [0] * int(1.0 * RATE)
    noise = random.Random(12)
    if plan.get("room"):
        # A fan: hiss, and a hum at 100 Hz with its harmonic, slowly swelling.
        def room(i):
            t = i / RATE
            swell = 1 + 0.3 * math.sin(2 * math.pi * 0.2 * t)
            return noise.gauss(0, 700) + swell * (500 * math.sin(2 * math.pi * 100 * t) + 250 * math.sin(2 * math.pi * 200 * t))
        floor = [max(-32768, min(32767, s + int(room(i)))) for i, s in enumerate(audio)]
    else:
        floor = [max(-32768, min(32767, s + int(noise.gauss(0, 120)))) for s in audio]
    with wave.open(sys.argv[2], "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(struct.pack("<%dh" % len(floor), *floor))
    json.dump({"seconds": len(audio) / RATE, "spans": spans}, open(sys.argv[3], "w"))


if __name__ == "__main__":
    main()
