#!/usr/bin/env python3
"""Drives duo-capture's web remote page in headless Chromium at a phone's size (390x844) during a shot-list
session, for RemoteShotsTests.testThePageKnowsTheShotAndMarksTheTake; prints what it saw as one JSON object:
the shot title shown, the countdown numbers shown while counting down, the boxes' places in each state,
the mark event its Good button caused, its Re-take refused during the take and taken between takes, its
cue buttons and free-text box (41 characters refused by the page itself), the note box with the shot list's
code buttons and the flag (issue 39), and the title shown after Shot ⏭.

Usage: remote-shots.py URL_WITH_TOKEN CONTROL_SOCKET
"""
import json
import sys
import time

from phone_page import Control, chromium, wait

url, control_path = sys.argv[1], sys.argv[2]
result = {}
BOXES = ["rec", "elapsed", "link", "shot", "shot-title", "shot-place", "record", "pause", "cancel", "slower", "speed",
         "faster", "marker-previous", "marker-next", "shot-previous", "shot-next", "last-take", "good", "no-good",
         "retake", "cue-shown", "cue-wrap", "cue-30s", "cue-slower", "cue-faster", "cue-lens", "cue-clear", "cue-text",
         "cue-send", "note-text", "note-BUG", "note-A11Y", "flag", "note-shown", "progress", "words", "message"]


driver = chromium(phone=True)
try:
    control = Control(control_path)
    text = lambda element_id: driver.execute_script("return document.getElementById(arguments[0]).textContent", element_id)
    boxes = lambda: driver.execute_script(
        # Page coordinates (a click scrolls the page to the cues, below a phone's first screen).
        "return arguments[0].map(id => { const r = document.getElementById(id).getBoundingClientRect();"
        " return [id, Math.round(r.left + window.scrollX), Math.round(r.top + window.scrollY), Math.round(r.width),"
        " Math.round(r.height)]; })", BOXES)
    driver.get(url)
    wait(lambda: text("link") == "connected")
    # The current shot, from the snapshot a page gets when it connects.
    result["shotTitle"] = wait(lambda: text("shot-title") if text("shot-title") != "no shot list" else None)
    result["shotPlace"] = text("shot-place")
    result["viewport"] = driver.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
    result["layout"] = {"idle": boxes()}

    driver.find_element("id", "record").click()
    countdown = control.next("countdown")
    result["countdownSeconds"] = countdown.get("seconds")
    # Every text the elapsed box shows while the page says COUNTDOWN, in order, until the take starts.
    seen = []
    wait(lambda: text("rec") == "COUNTDOWN")
    result["layout"]["countdown"] = boxes()
    while True:
        rec, shown = driver.execute_script(
            "return [document.getElementById('rec').textContent, document.getElementById('elapsed').textContent]")
        if rec != "COUNTDOWN":
            break
        if not seen or seen[-1] != shown:
            seen.append(shown)
        time.sleep(0.02)
    result["countdownShown"] = seen
    control.next("take-started")
    wait(lambda: text("rec") == "REC")
    result["layout"]["recording"] = boxes()
    shot_take = control.next("shot-take")
    result["takeFile"] = shot_take.get("file")

    # Re-take from the phone during the take: refused (a remote stops a take only with stop), said on the page.
    driver.find_element("id", "retake").click()
    result["retakeRefused"] = wait(lambda: text("message") if "send stop first" in text("message") else None)

    # A second recorded: the elapsed box counts (then the take has frames and a file).
    result["elapsedShown"] = wait(lambda: text("elapsed") if text("elapsed") == "0:01" else None)

    # Notes (issue 39): the page learnt the shot list's codes as it connected. 501 characters are refused
    # by the page itself (nothing sent, the words kept); a note typed and its code tapped is the run's note
    # in this take; Flag drops a flag.
    result["noteCodes"] = driver.execute_script(
        "return Array.from(document.querySelectorAll('#note-codes button.code')).map(b => b.textContent)")
    driver.execute_script("document.getElementById('note-text').value = 'x'.repeat(501)")
    driver.find_element("id", "note-BUG").click()
    result["noteRefused"] = wait(lambda: text("message") if "at most 500" in text("message") else None)
    result["noteKept"] = driver.execute_script("return document.getElementById('note-text').value.length")
    box = driver.find_element("id", "note-text")
    box.clear()
    box.send_keys("the menu hides the q button")
    driver.find_element("id", "note-A11Y").click()
    note = control.next("note")
    result["note"] = {k: note.get(k) for k in ("kind", "code", "text", "take")}
    result["noteShown"] = wait(lambda: text("note-shown") if "A11Y" in text("note-shown") else None)
    result["noteBoxAfter"] = driver.execute_script("return document.getElementById('note-text').value")
    driver.find_element("id", "flag").click()
    flag = control.next("note")
    result["flag"] = [flag.get("kind"), flag.get("code")]
    driver.find_element("id", "record").click()   # now a stop button
    ended = control.next("take-ended")
    result["takeKept"] = ended.get("kept")
    wait(lambda: text("rec") == "IDLE")
    result["lastTakeBefore"] = wait(lambda: text("last-take") if "not marked" in text("last-take") else None)
    result["shotPlaceAfterTake"] = text("shot-place")

    driver.find_element("id", "good").click()
    mark = control.next("mark")
    result["mark"] = {k: mark.get(k) for k in ("take", "shot", "shotTake", "mark", "file", "by")}
    result["lastTakeAfter"] = wait(lambda: text("last-take") if text("last-take").endswith("· good") else None)
    result["layout"]["marked"] = boxes()

    # Cues: 41 characters are refused by the page itself (nothing sent), then free text, a preset, clear.
    box = driver.find_element("id", "cue-text")
    box.send_keys("x" * 41)
    driver.find_element("id", "cue-send").click()
    result["cueRefused"] = wait(lambda: text("message") if "at most 40" in text("message") else None)
    result["cueKept"] = driver.execute_script("return document.getElementById('cue-text').value.length")
    box.clear()
    box.send_keys("smile, then slow down")
    driver.find_element("id", "cue-send").click()
    result["cueText"] = control.next("cue").get("text")
    result["cueShown"] = wait(lambda: text("cue-shown") if "smile" in text("cue-shown") else None)
    result["layout"]["cued"] = boxes()
    driver.find_element("id", "cue-lens").click()
    lens = control.next("cue")
    result["cuePreset"] = [lens.get("preset"), lens.get("text")]
    driver.find_element("id", "cue-clear").click()
    result["cueCleared"] = control.next("cue").get("text")
    result["cueShownAfterClear"] = wait(lambda: text("cue-shown") if "no cue" in text("cue-shown") else None)

    # Re-take between takes: the countdown of the shot's next take starts; cancelled here.
    driver.find_element("id", "retake").click()
    result["retakeCountdown"] = control.next("countdown").get("take")
    driver.find_element("id", "cancel").click()
    control.next("countdown-cancelled")
    wait(lambda: text("rec") == "IDLE")

    driver.find_element("id", "shot-next").click()
    control.next("shot", lambda e: e.get("trigger") == "command")
    first = result["shotTitle"]
    result["nextShotTitle"] = wait(lambda: text("shot-title") if text("shot-title") != first else None)
finally:
    driver.quit()
print(json.dumps(result))
