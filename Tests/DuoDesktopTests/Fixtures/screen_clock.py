#!/usr/bin/env python3
"""The screen track's sync test (ScreenTrackDesktopTests): a clock on the recorded monitor, and the
reading of a take's two pictures.

  screen_clock.py show X Y      a borderless window at X,Y drawing CLOCK_MONOTONIC in ms (mod 2^24) as 24
                                luma blocks of 32x32 (bit 0 leftmost, white = 1), redrawn every 4 ms: the
                                same code the test hub stamps into each camera frame (duo_clock_code.c)
  screen_clock.py read FILE     decodes the take's camera track (first video stream) and screen track
                                (second), reads the code off each frame, and prints one JSON object:
                                for each screen frame its file time, its clock, and the clock shown by the
                                camera frame nearest in file time ("pairs"); codes that do not read are left out
"""
import json
import subprocess
import sys
import time

BITS, BLOCK = 24, 32


def show(x, y):
    import tkinter
    root = tkinter.Tk()
    root.overrideredirect(True)
    root.geometry(f"{BITS * BLOCK}x{BLOCK * 2}+{x}+{y}")
    canvas = tkinter.Canvas(root, width=BITS * BLOCK, height=BLOCK * 2, highlightthickness=0, bg="black")
    canvas.pack()
    blocks = [canvas.create_rectangle(b * BLOCK, 0, (b + 1) * BLOCK, BLOCK, width=0, fill="black") for b in range(BITS)]

    def tick():
        ms = int(time.monotonic() * 1000) & ((1 << BITS) - 1)
        for b, r in enumerate(blocks):
            canvas.itemconfigure(r, fill="white" if (ms >> b) & 1 else "black")
        root.after(4, tick)

    tick()
    print("shown", flush=True)
    root.mainloop()


def frames(path, stream, width):
    """(pts seconds, code) of each frame of video stream `stream`, reading the top BLOCK rows."""
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", f"v:{stream}", "-show_entries",
                            "frame=pts_time", "-of", "csv=p=0", path], capture_output=True, text=True, check=True)
    times = [float(t.strip(",")) for t in probe.stdout.split() if t.strip(",") and t.strip(",") != "N/A"]
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-map", f"0:v:{stream}", "-vf",
                          f"crop={BITS * BLOCK}:{BLOCK}:0:0,format=gray", "-fps_mode", "passthrough",
                          "-f", "rawvideo", "-"], capture_output=True, check=True).stdout
    size = BITS * BLOCK * BLOCK
    out = []
    for i, t in enumerate(times):
        frame = raw[i * size:(i + 1) * size]
        if len(frame) < size:
            break
        row = frame[(BLOCK // 2) * BITS * BLOCK:(BLOCK // 2 + 1) * BITS * BLOCK]
        levels = [row[b * BLOCK + BLOCK // 2] for b in range(BITS)]
        # A block that is neither clearly white nor clearly black: the code was being redrawn, or is absent.
        if any(40 < v < 200 for v in levels):
            continue
        out.append((t, sum(1 << b for b, v in enumerate(levels) if v >= 128)))
    return out


def read(path):
    camera, screen = frames(path, 0, 0), frames(path, 1, 0)
    pairs = []
    for t, code in screen:
        if not camera:
            break
        ct, ccode = min(camera, key=lambda c: abs(c[0] - t))
        pairs.append({"t": t, "screen": code, "cameraT": ct, "camera": ccode})
    print(json.dumps({"cameraFrames": len(camera), "screenFrames": len(screen), "pairs": pairs}))


if __name__ == "__main__":
    if sys.argv[1] == "show":
        show(int(sys.argv[2]), int(sys.argv[3]))
    else:
        read(sys.argv[2])
