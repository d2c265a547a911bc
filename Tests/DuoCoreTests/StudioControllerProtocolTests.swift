import DuoCore
import Foundation
import XCTest

/// obs-websocket 5's session rules and HyperDeck's command parsing, with a fake hash (the real SHA-256
/// is GLib's, exercised by the end-to-end test with obsws-python).
final class StudioControllerProtocolTests: XCTestCase {
    /// A stand-in for base64(SHA-256): any function works for the protocol's arithmetic.
    static func hash(_ text: String) -> String { "h(\(text))" }

    static func object(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }

    static func identify(_ auth: String?, rpc: Int = 1, subscriptions: Int? = nil) -> String {
        var d: [String: Any] = ["rpcVersion": rpc]
        if let auth { d["authentication"] = auth }
        if let subscriptions { d["eventSubscriptions"] = subscriptions }
        return ObsWebSocketSession.message(.identify, d)
    }

    func closeCode(_ step: ObsWebSocketSession.Step) -> ObsCloseCode? {
        if case .close(let code, _) = step { return code }
        return nil
    }

    func testHelloAuthenticationAndOrder() {
        var session = ObsWebSocketSession(password: "pw", challenge: "C", salt: "S", hash: Self.hash)
        let hello = Self.object(session.hello(version: "5.5.0"))
        XCTAssertEqual(hello["op"] as? Int, 0)
        let auth = (hello["d"] as? [String: Any])?["authentication"] as? [String: String]
        XCTAssertEqual(auth, ["challenge": "C", "salt": "S"])
        // A request before Identify closes with NotIdentified.
        var early = session
        XCTAssertEqual(closeCode(early.receive(ObsWebSocketSession.message(.request, ["requestType": "GetVersion", "requestId": "1"]))), .notIdentified)
        // Wrong password, none, a wrong rpcVersion, malformed JSON, an unknown op.
        var wrong = session
        XCTAssertEqual(closeCode(wrong.receive(Self.identify(Self.hash(Self.hash("nope" + "S") + "C")))), .authenticationFailed)
        var none = session
        XCTAssertEqual(closeCode(none.receive(Self.identify(nil))), .authenticationFailed)
        var rpc = session
        XCTAssertEqual(closeCode(rpc.receive(Self.identify(Self.hash(Self.hash("pwS") + "C"), rpc: 2))), .unsupportedRpcVersion)
        var bad = session
        XCTAssertEqual(closeCode(bad.receive("{not json")), .messageDecodeError)
        var op = session
        XCTAssertEqual(closeCode(op.receive(#"{"op":7,"d":{}}"#)), .unknownOpCode)
        // The right one: Identified with rpc 1, and only the categories asked for.
        guard case .send(let lines) = session.receive(Self.identify(Self.hash(Self.hash("pwS") + "C"), subscriptions: ObsSubscription.outputs)) else {
            return XCTFail("the right password is identified")
        }
        XCTAssertEqual(Self.object(lines[0])["op"] as? Int, 2)
        XCTAssertTrue(session.wants(ObsSubscription.outputs))
        XCTAssertFalse(session.wants(ObsSubscription.vendors))
        XCTAssertEqual(closeCode(session.receive(Self.identify(Self.hash(Self.hash("pwS") + "C")))), .alreadyIdentified)
        guard case .send = session.receive(ObsWebSocketSession.message(.reidentify, ["eventSubscriptions": ObsSubscription.all])) else {
            return XCTFail("Reidentify is answered")
        }
        XCTAssertTrue(session.wants(ObsSubscription.vendors))
        // A numeric request id is answered as a number.
        guard case .request(let request) = session.receive(#"{"op":6,"d":{"requestType":"GetVersion","requestId":42}}"#) else {
            return XCTFail("a request")
        }
        let response = Self.object(ObsWebSocketSession.response(request, .success))
        XCTAssertEqual((response["d"] as? [String: Any])?["requestId"] as? Int, 42)
        guard case .batch(_, let requests, _, let serial) = session.receive(
            #"{"op":8,"d":{"requestId":"b","requests":[{"requestType":"GetVersion"},{"requestType":"Nope"}]}}"#) else {
            return XCTFail("a batch")
        }
        XCTAssertEqual(requests.map(\.type), ["GetVersion", "Nope"])
        XCTAssertTrue(serial)
    }

    func testRequestsFollowTheRunAndThePolicy() {
        let context = ObsContext(version: "0.1.0", recordDirectory: "/home/u/Videos", revealFolders: false)
        var view = ObsRunView(cameras: 2)
        func ask(_ type: String, _ data: [String: Any] = [:]) -> ObsAnswer {
            ObsRequests.answer(ObsRequest(type: type, id: "1", data: data), view: view, context: context)
        }
        XCTAssertEqual(ask("StartRecord").commands, [.record])
        XCTAssertEqual(ask("StopRecord").status, .outputNotRunning)
        XCTAssertEqual(ask("GetInputList").status, .unknownRequestType)
        XCTAssertEqual(ask("").status, .missingRequestType)
        XCTAssertEqual(ask("GetRecordDirectory").data?["recordDirectory"] as? String, "", "no folders off this machine")
        XCTAssertEqual(ask("TriggerHotkeyByName", ["hotkeyName": "duo-capture.speed-up"]).commands, [.speedStep(1)])
        XCTAssertEqual(ask("TriggerHotkeyByName", ["hotkeyName": "OBSBasic.Quit"]).status, .resourceNotFound)
        XCTAssertEqual(ask("CallVendorRequest", ["vendorName": "duo-capture", "requestType": "speed", "requestData": ["factor": 1.5]]).commands,
                       [.speedFactor(1.5)])
        XCTAssertEqual(ask("CallVendorRequest", ["vendorName": "duo-capture", "requestType": "quit"]).status, .invalidRequestField,
                       "quit is no remote's command")
        XCTAssertEqual(ask("SetCurrentProgramScene", ["sceneName": "Camera B"]).commands, [.swap])
        XCTAssertEqual(ask("SetCurrentProgramScene", ["sceneName": "Camera A"]).commands, [])
        XCTAssertEqual(ask("SetCurrentProgramScene", ["sceneName": "Nope"]).status, .resourceNotFound)

        // A countdown, a take, a swap, the end: RecordStateChanged with file names only, the scene changes.
        var lines: [String] = []
        for (t, event) in [(1.0, RunEvent.countdown(seconds: 3, take: 1)), (4, .takeStarted(take: 1, file: "/home/u/Videos/duo-take01.mkv")),
                           (5, .swap(from: "A", to: "B", format: "1280x720@30")),
                           (9, .takeEnded(take: 1, file: "/home/u/Videos/duo-take01.mkv", frames: 150, dropped: 0, kept: true, empty: false, error: nil))] {
            let timed = RunEvent.Timed(event, t: t)
            lines += ObsRequests.events(timed, before: view, context: context).map(\.line)
            view.observe(timed)
            if t == 4 {
                XCTAssertEqual(ask("StartRecord").status, .outputRunning)
                XCTAssertTrue(ask("StopRecord").awaitsStop)
                XCTAssertEqual(ask("CreateRecordChapter", ["chapterName": "Step 2"]).chapter, "Step 2")
            }
        }
        let events = lines.map(Self.object).compactMap { $0["d"] as? [String: Any] }
        let states = events.filter { $0["eventType"] as? String == "RecordStateChanged" }.compactMap { $0["eventData"] as? [String: Any] }
        XCTAssertEqual(states.compactMap { $0["outputState"] as? String },
                       ["OBS_WEBSOCKET_OUTPUT_STARTING", "OBS_WEBSOCKET_OUTPUT_STARTED", "OBS_WEBSOCKET_OUTPUT_STOPPING", "OBS_WEBSOCKET_OUTPUT_STOPPED"])
        XCTAssertEqual(states[1]["outputPath"] as? String, "duo-take01.mkv")
        let scene = events.first { $0["eventType"] as? String == "CurrentProgramSceneChanged" }?["eventData"] as? [String: Any]
        XCTAssertEqual(scene?["sceneName"] as? String, "Camera B")
        XCTAssertFalse(lines.joined().contains("/home/u"), "no folder in any event")
        XCTAssertTrue(events.contains { $0["eventType"] as? String == "VendorEvent" })
    }

    func testHyperDeckLinesBlocksAndNotify() {
        var view = HyperDeckRunView(width: 1920, height: 1080, fps: 30)
        var session = HyperDeckSession()
        func say(_ line: String) -> HyperDeckSession.Step { session.receive(line, view: view, version: "0.1.0") }
        XCTAssertEqual(say("record: name: my take").commands, [.record])
        XCTAssertEqual(say("record:").reply, nil, "a block waits for its empty line")
        XCTAssertEqual(say("name: other").reply, nil)
        XCTAssertEqual(say(""), HyperDeckSession.Step(reply: "200 ok", commands: [.record]))
        XCTAssertEqual(say("notify: transport: true slot: true").reply, "200 ok")
        XCTAssertTrue(session.notifyTransport && session.notifySlot)
        XCTAssertEqual(say("notify: transport: maybe").reply, "102 invalid value")
        XCTAssertEqual(say("goto: clip id: 1").reply, "103 unsupported")
        XCTAssertEqual(say("hello").reply, "100 syntax error")
        XCTAssertTrue(say("transport info").reply?.hasPrefix("208 transport info:\r\nstatus: preview\r\n") ?? false)
        view.observe(.takeStarted(take: 1, file: "/x/duo-take01.mkv"))
        XCTAssertEqual(say("record").commands, [], "already recording: nothing more")
        XCTAssertTrue(HyperDeckSession.transport(view, code: 508).contains("status: record\r\n"))
        XCTAssertEqual(say("stop").commands, [.stop])
        view.observe(.takeEnded(take: 1, file: "/x/duo-take01.mkv", frames: 95, dropped: 0, kept: true, empty: false, error: nil))
        XCTAssertEqual(say("clips count").reply, "214 clips count:\r\nclip count: 1\r\n")
        XCTAssertEqual(say("clips get").reply, "205 clips info:\r\nclip count: 1\r\n1: duo-take01.mkv 00:00:00:00 00:00:03:05\r\n")
        XCTAssertEqual(say("quit"), HyperDeckSession.Step(reply: "200 ok", close: true))
    }

    /// obs-websocket's MessagePack frames become the same JSON and back: every JSON kind, long strings and
    /// arrays past the small forms, and malformed input refused in one line.
    func testMessagePackRoundTrip() throws {
        let long = String(repeating: "é", count: 300)
        let json = #"{"d":{"a":[1,-5,-200,70000,2.5,true,false,null,"x"],"long":"\#(long)","n":[\#((0..<20).map(String.init).joined(separator: ","))]},"op":6}"#
        let packed = try XCTUnwrap(MessagePack.bytes(json: json))
        XCTAssertEqual(packed.first, 0x82, "a map of two")
        let back = try MessagePack.json(packed)
        XCTAssertEqual(Self.object(back) as NSDictionary, Self.object(json) as NSDictionary)
        XCTAssertEqual(Self.object(back)["op"] as? Int, 6)
        XCTAssertThrowsError(try MessagePack.json(Array(packed.dropLast(3))))
        XCTAssertThrowsError(try MessagePack.json([0xc1]))
        XCTAssertThrowsError(try MessagePack.json(Array(repeating: 0x91, count: 100) + [0x01]), "nesting is bounded")
    }
}
