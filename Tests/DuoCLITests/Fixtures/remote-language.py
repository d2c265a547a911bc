#!/usr/bin/env python3
"""Drives duo-capture's web remote page in headless Chromium at a phone's size (390x844) as an English
phone, then as a Chinese one and a (pseudo-)German one (the Accept-Language header set through the
DevTools protocol), for
TranslatedWebTests.testThePhonePageFollowsThePhonesLanguage; prints what it saw as one JSON object: per
language the page's lang, title and words, the boxes' places idle and recording, and the refusal a browser
without the token is shown.

Usage: remote-language.py URL_WITH_TOKEN CONTROL_SOCKET
"""
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

from phone_page import Control, chromium, wait

url, control_path = sys.argv[1], sys.argv[2]
result = {}
BOXES = ["rec", "elapsed", "link", "shot", "shot-title", "shot-place", "record", "pause", "cancel", "slower", "speed",
         "faster", "marker-previous", "marker-next", "shot-previous", "shot-next", "last-take", "good", "no-good",
         "progress", "words", "message"]
WORDS = ["rec", "link", "shot-title", "shot-place", "record", "pause", "cancel", "slower", "faster", "marker-previous",
         "marker-next", "shot-previous", "shot-next", "last-take", "good", "no-good"]
# de is the test's pseudo-translation (every text 40 % longer): the long-word stress test.
LANGUAGES = {"en": "en-US,en;q=0.9", "zh": "zh-CN,zh;q=0.9,en;q=0.8", "de": "de-DE,de;q=0.9"}


driver = chromium(phone=True)
try:
    control = Control(control_path)
    agent = driver.execute_script("return navigator.userAgent")
    text = lambda element_id: driver.execute_script("return document.getElementById(arguments[0]).textContent", element_id)
    cls = lambda element_id: driver.execute_script("return document.getElementById(arguments[0]).className", element_id)
    boxes = lambda: driver.execute_script(
        "return arguments[0].map(id => { const r = document.getElementById(id).getBoundingClientRect();"
        " return [id, Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)]; })", BOXES)
    words = lambda: {i: text(i) for i in WORDS}
    # Buttons and the state word whose text is bigger than their box (clipped).
    clipped = lambda: driver.execute_script(
        "return [...document.querySelectorAll('button, #rec')].filter(e => e.scrollHeight > e.clientHeight"
        " || e.scrollWidth > e.clientWidth).map(e => e.id + ': ' + e.textContent)")
    for name, accept in LANGUAGES.items():
        driver.execute_cdp_cmd("Network.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": accept})
        seen = {}
        driver.get(url)
        wait(lambda: cls("link") == "up")
        # The shot, from the snapshot a page gets when it connects (its place is the page's own words).
        wait(lambda: "Harbour" in text("shot-title"))
        seen["lang"] = driver.execute_script("return document.documentElement.lang")
        seen["title"] = driver.title
        seen["idle"] = words()
        seen["layoutIdle"] = boxes()
        seen["clipped"] = clipped()
        driver.find_element("id", "record").click()
        control.next("take-started")
        wait(lambda: cls("rec") == "on")
        seen["recording"] = {"rec": text("rec"), "record": text("record")}
        seen["layoutRecording"] = boxes()
        seen["clipped"] += clipped()
        driver.find_element("id", "record").click()   # now a stop button
        control.next("take-ended")
        wait(lambda: cls("rec") == "")
        before = seen["idle"]["last-take"]
        seen["lastTake"] = wait(lambda: text("last-take") if text("last-take") != before else None)
        seen["layoutAfter"] = boxes()
        result[name] = seen

    # A browser without the token is told why, in its language.
    parts = urllib.parse.urlsplit(url)
    bare = urllib.parse.urlunsplit((parts.scheme, parts.netloc, "/", "", ""))
    result["refusal"] = {}
    for name, accept in list(LANGUAGES.items())[:2]:
        try:
            urllib.request.urlopen(urllib.request.Request(bare, headers={"Accept-Language": accept}), timeout=10)
            result["refusal"][name] = "200"
        except urllib.error.HTTPError as error:
            result["refusal"][name] = error.read().decode("utf-8")
    # A page reached by a name that is no address of this machine (DNS rebinding): 403, in the browser's language.
    try:
        urllib.request.urlopen(urllib.request.Request(url, headers={"Accept-Language": LANGUAGES["zh"], "Host": "evil.example"}), timeout=10)
        result["refusal"]["zhHost"] = "200"
    except urllib.error.HTTPError as error:
        result["refusal"]["zhHost"] = "%d %s" % (error.code, error.read().decode("utf-8"))
finally:
    driver.quit()
print(json.dumps(result, ensure_ascii=False))
