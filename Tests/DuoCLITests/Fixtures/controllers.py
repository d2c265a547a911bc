"""Drives one duo-capture run the way studio controllers do, and prints what it saw as one JSON object.

obs-websocket 5 through obsws-python (PyPI; a client not written for duo-capture, JSON text), then
through simpleobsws (PyPI; another client, MessagePack frames, asyncio), then the HyperDeck
Ethernet protocol spoken as Blackmagic publishes it (CRLF lines, numbered replies, blocks ending with an
empty line, asynchronous 5xx notifications).

usage: controllers.py OBS_PORT PASSWORD HYPERDECK_PORT
"""
import asyncio
import json
import socket
import sys
import time

import obsws_python as obs
import simpleobsws
import websocket  # websocket-client, obsws-python's own dependency

obs_port, password, hd_port = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
out = {}


def until(what, condition, seconds=20):
    """Waits for a condition that an event of the run makes true (polled; never a fixed sleep)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}; saw so far: {json.dumps(out)}")
        time.sleep(0.05)


# obs-websocket 5: obsws-python's request and event clients.
req = obs.ReqClient(host="127.0.0.1", port=obs_port, password=password, timeout=20)
version = req.get_version()
out["obsVersion"] = version.obs_version
out["rpcVersion"] = version.rpc_version
out["available"] = version.available_requests
states = []
events = obs.EventClient(host="127.0.0.1", port=obs_port, password=password, timeout=20)


def on_record_state_changed(data):
    states.append([data.output_state, data.output_path])


events.callback.register(on_record_state_changed)
req.start_record()
until("RecordStateChanged started", lambda: any(s[0] == "OBS_WEBSOCKET_OUTPUT_STARTED" for s in states))
status = req.get_record_status()
out["active"] = status.output_active
# A second of the take (the run's status events move the duration on).
until("a second recorded", lambda: req.get_record_status().output_duration >= 1000)
stats = req.get_stats()
assert stats.memory_usage > 5 and stats.available_disk_space > 0, f"GetStats: {vars(stats)}"
assert stats.output_total_frames > 0 and stats.active_fps > 0, f"GetStats: {vars(stats)}"
req.create_record_chapter("Step one")
out["stopPath"] = req.stop_record().output_path
until("RecordStateChanged stopped", lambda: any(s[0] == "OBS_WEBSOCKET_OUTPUT_STOPPED" for s in states))
out["states"] = states
try:
    req.send("GetInputList")
    out["unknown"] = None
except obs.error.OBSSDKRequestError as e:
    out["unknown"] = e.code
# The connection stays after an unknown request.
out["studioMode"] = req.get_studio_mode_enabled().studio_mode_enabled
out["scene"] = req.get_current_program_scene().current_program_scene_name
try:
    obs.ReqClient(host="127.0.0.1", port=obs_port, password="not-" + password, timeout=10)
    out["wrongPassword"] = "accepted"
except Exception as e:  # obsws-python raises OBSSDKError when Identify is refused
    out["wrongPassword"] = type(e).__name__
events.disconnect()


# simpleobsws: its own habits (string request ids, MessagePack, batches).
async def simple():
    result = {}
    ws = simpleobsws.WebSocketClient(url=f"ws://127.0.0.1:{obs_port}", password=password)
    seen = []

    async def on_record(data):
        seen.append(data["outputState"])

    ws.register_event_callback(on_record, "RecordStateChanged")
    await ws.connect()
    result["identified"] = await ws.wait_until_identified()
    result["version"] = (await ws.call(simpleobsws.Request("GetVersion"))).responseData["obsVersion"]
    result["start"] = (await ws.call(simpleobsws.Request("StartRecord"))).ok()
    deadline = time.monotonic() + 20
    while "OBS_WEBSOCKET_OUTPUT_STARTED" not in seen or (
            await ws.call(simpleobsws.Request("GetRecordStatus"))).responseData["outputDuration"] < 1000:
        if time.monotonic() > deadline:
            raise SystemExit(f"simpleobsws: no take; saw {seen}")
        await asyncio.sleep(0.05)
    result["stopPath"] = (await ws.call(simpleobsws.Request("StopRecord"))).responseData["outputPath"]
    result["unknown"] = (await ws.call(simpleobsws.Request("GetInputList"))).requestStatus.code
    batch = await ws.call_batch([simpleobsws.Request("GetStudioModeEnabled"), simpleobsws.Request("Nope"),
                                 simpleobsws.Request("GetRecordStatus")])
    result["batch"] = [r.requestStatus.code for r in batch]
    while "OBS_WEBSOCKET_OUTPUT_STOPPED" not in seen:
        if time.monotonic() > deadline:
            raise SystemExit(f"simpleobsws: no stop; saw {seen}")
        await asyncio.sleep(0.05)
    result["states"] = seen
    await ws.disconnect()
    wrong = simpleobsws.WebSocketClient(url=f"ws://127.0.0.1:{obs_port}", password="not-" + password)
    await wrong.connect()
    await asyncio.wait_for(wrong.ws.wait_closed(), 20)
    result["wrongClose"] = wrong.ws.close_code
    wrong.ws_open = False
    return result


out["simple"] = asyncio.run(simple())


def close_code(first):
    """Sends one bad message after Hello and returns the close code the server answers with."""
    raw = websocket.create_connection(f"ws://127.0.0.1:{obs_port}", timeout=20)
    json.loads(raw.recv())
    raw.send(first)
    while True:
        opcode, data = raw.recv_data(control_frame=True)
        if opcode == websocket.ABNF.OPCODE_CLOSE:
            return int.from_bytes(data[:2], "big")


out["malformed"] = close_code("{not json")
out["outOfOrder"] = close_code(json.dumps({"op": 6, "d": {"requestType": "StartRecord", "requestId": "x"}}))

# HyperDeck: the published text protocol, by hand.
deck = socket.create_connection(("127.0.0.1", hd_port), timeout=20)
lines = deck.makefile("rb")


def block():
    first = lines.readline().decode()
    assert first.endswith("\r\n"), f"not a CRLF line: {first!r}"
    result = [first.rstrip("\r\n")]
    if result[0].endswith(":"):
        while True:
            line = lines.readline().decode().rstrip("\r\n")
            if line == "":
                break
            result.append(line)
    return result


def command(text):
    deck.sendall((text + "\r\n").encode())
    return block()


def field(reply, key):
    return next((line.split(": ", 1)[1] for line in reply[1:] if line.startswith(key + ": ")), None)


out["banner"] = block()
out["notify"] = command("notify: transport: true")
out["clipsBefore"] = int(field(command("clips count"), "clip count"))
out["record"] = command("record: name: deck take")
reply = block()
while not reply[0].startswith("508"):
    reply = block()
out["asyncRecord"] = reply
until("a second recorded", lambda: req.get_record_status().output_duration >= 1000)
out["stop"] = command("stop")
reply = block()
while not reply[0].startswith("508"):
    reply = block()
out["asyncStop"] = reply
out["clipsAfter"] = int(field(command("clips count"), "clip count"))
out["unsupported"] = command("jog: timecode: 00:00:01:00")
out["unknownDeck"] = command("frobnicate")
out["ping"] = command("ping")
deck.sendall(b"x" * 4000 + b"\r\n")
out["overlong"] = block()
out["quit"] = command("quit")
out["closed"] = lines.read() == b""
print(json.dumps(out))
