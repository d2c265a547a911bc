#!/usr/bin/env python3
"""Drives duo-capture's web remote page in headless Chromium (chromedriver, python3-selenium) for
RemoteControlTests.testThePageInHeadlessChromium; prints what it saw as one JSON object.

Usage: remote-page.py URL_WITH_TOKEN CONTROL_SOCKET
"""
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from phone_page import Control, chromium, wait

url, control_path = sys.argv[1], sys.argv[2]
result = {}


driver = chromium(phone=False)
try:
    control = Control(control_path)
    text = lambda element_id: driver.execute_script("return document.getElementById(arguments[0]).textContent", element_id)
    driver.get(url)
    wait(lambda: text("link") == "connected")

    # The first status (once a second) gives the speed before.
    result["speedBefore"] = control.next("status").get("speed")
    driver.find_element("id", "record").click()
    command = control.next("command", lambda e: e.get("cmd") == "record")
    result["recordSource"] = command.get("source")
    control.next("take-started")
    result["takeStarted"] = True
    wait(lambda: text("rec") == "REC")

    driver.find_element("id", "faster").click()
    status = control.next("status", lambda e: e.get("trigger") == "command")
    result["speedAfter"] = status.get("speed")
    result["pageSpeed"] = wait(lambda: text("speed") if text("speed").startswith(status.get("speed")) else None)

    driver.find_element("id", "record").click()   # now a stop button
    control.next("take-ended")
    wait(lambda: text("rec") == "IDLE")
    result["stoppedByPage"] = True

    # A take started over the control socket: the page shows REC within the time measured here.
    control.send('{"cmd":"record"}')
    control.next("take-started")
    started = time.monotonic()
    wait(lambda: text("rec") == "REC", step=0.002)
    result["recShownMs"] = (time.monotonic() - started) * 1000
    control.send('{"cmd":"stop"}')
    control.next("take-ended")

    # Without the token: 401, and a page loaded without it never connects.
    parts = urllib.parse.urlsplit(url)
    bare = urllib.parse.urlunsplit((parts.scheme, parts.netloc, "/", "", ""))
    try:
        urllib.request.urlopen(bare, timeout=10)
        result["withoutTokenStatus"] = 200
    except urllib.error.HTTPError as error:
        result["withoutTokenStatus"] = error.code
    driver.get(url.split("?")[0] + "?token=wrong")
    result["withoutTokenBody"] = driver.execute_script("return document.body ? document.body.innerText : ''")
finally:
    driver.quit()
print(json.dumps(result))
