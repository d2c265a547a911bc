"""What the web remote's page fixtures share (remote-page.py, remote-shots.py, remote-language.py): the
run's control socket, a polling wait, and headless Chromium (at a phone's size when asked)."""
import json
import socket
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


class Control:
    """The run's control socket: JSON lines out, event lines in."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.sock.settimeout(20)
        self.pending = b""

    def send(self, line):
        self.sock.sendall(line.encode() + b"\n")

    def next(self, name, accept=lambda e: True):
        while True:
            while b"\n" in self.pending:
                line, self.pending = self.pending.split(b"\n", 1)
                event = json.loads(line)
                if event.get("event") == name and accept(event):
                    return event
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("control socket closed waiting for " + name)
            self.pending += chunk


def wait(predicate, seconds=20, step=0.005):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise RuntimeError("timed out")


def chromium(phone=False):
    """Headless Chromium; `phone`: a 390x844 viewport at 3x (a desktop window is never narrower than 500 px)."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    if phone:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0}})
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
