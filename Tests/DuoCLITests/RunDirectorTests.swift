@testable import DuoCLI
import DuoCore
import DuoMedia
import DuoRender
import DuoTestHub
import Foundation
import XCTest

/// The run director's decisions, in process, with the fake capture and a manual clock: each test runs in
/// milliseconds and never sleeps.
final class RunDirectorTests: XCTestCase {
    private var directory = ""
    private var eventsPath = ""
    let clock = ManualClock(1_000_000_000)

    override func setUpWithError() throws {
        directory = try scratchDirectory(self)
        eventsPath = directory + "/events.jsonl"
    }

    private func plan(_ cameras: [[String]] = [["320x240@30"]], individual: Bool = false) throws -> GraphPlan {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let lib = PipelineLibrary(directory: root.appendingPathComponent("Pipelines").path)
        let profiles = cameras.enumerated().map { i, formats in
            CameraProfile(id: "cam\(i)", name: "cam\(i)", testPattern: "smpte",
                          modes: formats.map { .init(pixelFormat: "I420", format: VideoFormat.parse($0)!) })
        }
        var plan = try GraphPlan(library: lib, camera: .simulated(profiles[0]), secondCamera: profiles.count > 1 ? .simulated(profiles[1]) : nil,
                                 individual: individual, requested: nil, aspect: nil, encoder: .x264, container: .mkv)
        // Like the Duo's pair: A faces the operator (unfold picks it), B the subject (fold picks it).
        if profiles.count > 1 { plan.faces = [.theOperator, .theSubject] }
        return plan
    }

    private func director(_ configure: (inout RunDirector.Settings) -> Void = { _ in }, plan given: GraphPlan? = nil,
                          subject configureSubject: (inout SubjectSetup) -> Void = { _ in }, face: any RunFace = HeadlessFace(),
                          format: PromptStrip.Format = .i420, handshake: any RemoteDisplayHandshakePort = NetworkHandshake(),
                          devices: ScriptedDevices? = nil, voice: any VoicePort = PocketsphinxVoice()) throws -> (RunDirector, FakeCapture) {
        let plan = try given ?? plan()
        var settings = RunDirector.Settings()
        settings.recordDirectory = directory
        settings.countdown = try Countdown(seconds: 3)
        configure(&settings)
        var subject = SubjectSetup()
        subject.accessory = .countdown
        configureSubject(&subject)
        let presenter = try SubjectPresenter(subject, width: 320, height: 240, format: format)
        let capture = FakeCapture(plan: plan, clock: clock)
        let events = try EventLog(path: eventsPath)
        let d = RunDirector(settings: settings, plan: plan, capture: capture, presenter: presenter, face: face,
                            clock: clock, events: events, voice: voice, handshake: handshake, watchDevices: { _ in devices }, log: { _ in })
        return (d, capture)
    }

    private func events(_ name: String? = nil) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: eventsPath, encoding: .utf8)
        let all = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return name.map { n in all.filter { $0["event"] as? String == n } } ?? all
    }

    private func advance(_ seconds: Double, _ d: RunDirector) async {
        clock.advance(bySeconds: seconds)
        await d.process(.tick)
    }

    func testTheTakeStartsExactlyAtTheCountdownsEnd() async throws {
        let (d, capture) = try director()
        await d.process(.started)
        await d.process(.command(.record, source: .control))
        let countdown = try XCTUnwrap(try events("countdown").first)
        XCTAssertEqual(countdown["seconds"] as? Int, 3)
        await advance(2.8, d)
        var begun = await capture.begun
        XCTAssertTrue(begun.isEmpty, "no take before the countdown is nearly over")
        await advance(0.1, d)   // 2.9 s: inside the attach lead
        begun = await capture.begun
        XCTAssertEqual(begun.count, 1, "attached early, so the encoder is ready")
        XCTAssertEqual(begun.first?.startingAt, 1_000_000_000 + 3_000_000_000, "the take starts at the countdown's end, in pipeline time")
        XCTAssertEqual(begun.first?.number, 1)
        XCTAssertEqual(try events("take-started").first?["take"] as? Int, 1)
        XCTAssertEqual(try events("command").first?["source"] as? String, "control")
    }

    func testStopDuringTheCountdownRecordsNothing() async throws {
        let (d, capture) = try director()
        await d.process(.started)
        await d.process(.command(.record, source: .key))
        await advance(1, d)
        await d.process(.command(.stop, source: .key))
        await advance(5, d)
        let begun = await capture.begun
        XCTAssertTrue(begun.isEmpty)
        XCTAssertEqual(try events("countdown-cancelled").count, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".mkv") }, [])
        let outcome = await d.finish()
        XCTAssertEqual(outcome.exitCode, 0)
    }

    func testRecordTwiceIsRefusedAndTakesAreNumberedOnce() async throws {
        let (d, capture) = try director { $0.countdown = try! Countdown(seconds: 0) }
        await d.process(.started)
        await d.process(.command(.record, source: .control))
        await d.process(.command(.record, source: .control))
        XCTAssertTrue((try events("error").first?["message"] as? String ?? "").contains("already recording"))
        await d.process(.command(.stop, source: .control))
        await d.process(.command(.toggleRecord, source: .key))
        await d.process(.command(.toggleRecord, source: .key))
        let begun = await capture.begun
        XCTAssertEqual(begun.map(\.number), [1, 2])
        XCTAssertEqual(try events("take-ended").map { $0["take"] as? Int }, [1, 2])
        XCTAssertEqual(try events("take-ended").map { $0["kept"] as? Bool }, [true, true])
        XCTAssertTrue(FileManager.default.fileExists(atPath: TakeSidecar.path(forTake: begun[1].path)), "each take has its sidecar")
    }

    func testStopWithNoTakeIsRefused() async throws {
        let (d, _) = try director()
        await d.process(.started)
        await d.process(.command(.stop, source: .control))
        XCTAssertEqual(try events("error").first?["message"] as? String, "control: nothing is recording")
        await d.process(.command(.cancelCountdown, source: .key))
        XCTAssertEqual(try events("error").count, 2)
    }

    /// Headless there is no window to show the phone remote's QR code on: the command says so, in one line.
    func testRemoteLinkHeadlessIsRefusedSayingWhy() async throws {
        let (d, _) = try director()
        await d.process(.started)
        await d.process(.command(.remoteLink(on: nil), source: .control))
        let message = try events("error").first?["message"] as? String ?? ""
        XCTAssertTrue(message.hasPrefix("control: remote-link") && message.contains("this run is --headless"), message)
    }

    func testATakeThatFailsMakesTheRunExit70() async throws {
        let (d, capture) = try director { $0.countdown = try! Countdown(seconds: 0) }
        await d.process(.started)
        await d.process(.command(.record, source: .control))
        let failure = await capture.failTake("take 1 stopped: the disk is full")
        let failed = try XCTUnwrap(failure)
        await d.process(.session(.takeEnded(failed)))
        await d.process(.session(.takeEnded(failed)))   // reported twice by the media: handled once
        XCTAssertEqual(try events("take-ended").count, 1)
        XCTAssertEqual(try events("take-ended").first?["error"] as? String, "take 1 stopped: the disk is full")
        let outcome = await d.finish()
        XCTAssertEqual(outcome.exitCode, 70)
        XCTAssertEqual(try events("stopped").first?["exitCode"] as? Int, 70)
    }

    func testATakeStoppedBeforeItsFirstFrameIsEmptyNotFailed() async throws {
        let (d, capture) = try director { $0.countdown = try! Countdown(seconds: 0) }
        await capture.setFramesPerTake(0)
        await d.process(.started)
        await d.process(.command(.record, source: .control))
        await d.process(.signal("SIGINT"))
        let outcome = await d.finish()
        XCTAssertEqual(outcome.exitCode, 0)
        XCTAssertEqual(outcome.reason, .signal("SIGINT"))
        let ended = try XCTUnwrap(try events("take-ended").first)
        XCTAssertEqual(ended["empty"] as? Bool, true)
        XCTAssertEqual(ended["kept"] as? Bool, false)
    }

    func testRecordWithDurationCountsFromTheTakesStart() async throws {
        let (d, capture) = try director { $0.record = true; $0.duration = 5 }
        await d.process(.started)
        XCTAssertEqual(try events("countdown").count, 1, "--record runs the countdown first")
        await advance(2.9, d)
        let begun = await capture.begun
        XCTAssertEqual(begun.first?.startingAt, 4_000_000_000)
        await advance(5.0, d)   // 4.9 s into the take (the run started at 1 s, the take at 4 s)
        var recording = await d.recordingTake
        XCTAssertEqual(recording, 1, "still recording 0.1 s before the take's fifth second")
        await advance(0.1, d)
        let outcome = await d.finish()
        XCTAssertEqual(outcome.reason, .duration)
        recording = await d.recordingTake
        XCTAssertNil(recording)
        XCTAssertEqual(try events("take-ended").count, 1)
    }

    func testDurationWithoutRecordCountsFromTheStart() async throws {
        let (d, _) = try director { $0.duration = 2 }
        await d.process(.started)
        await advance(1.9, d)
        await d.process(.command(.mirror, source: .timeline))
        XCTAssertEqual(try events("status").last?["mirror"] as? String, "h", "the run still takes commands")
        await advance(0.1, d)
        await d.process(.command(.mirror, source: .timeline))
        XCTAssertEqual(try events("status").last?["mirror"] as? String, "h", "nothing runs after the end")
        let outcome = await d.finish()
        XCTAssertEqual(outcome.reason, .duration)
    }

    func testSwapPoliciesWhenTheFormatsDiffer() async throws {
        let twoFormats = try plan([["640x480@30"], ["320x240@30"]], individual: true)
        for policy in SwapPolicy.allCases {
            try setUpWithError()
            let (d, capture) = try director({ $0.parts.posture.swapPolicy = policy; $0.countdown = try! Countdown(seconds: 0) }, plan: twoFormats)
            await d.process(.started)
            await d.process(.command(.record, source: .control))
            await d.process(.command(.fold, source: .control))
            let begun = await capture.begun.map(\.number)
            let active = await capture.activeCamera
            let swaps = try events("swap").count
            switch policy {
            case .lock:
                XCTAssertEqual(active, 0, "lock refuses the swap while recording")
                XCTAssertEqual(swaps, 0)
                XCTAssertTrue((try events("error").first?["message"] as? String ?? "").contains("lock"))
                XCTAssertEqual(begun, [1])
            case .segment:
                XCTAssertEqual(active, 1)
                XCTAssertEqual(try events("take-ended").map { $0["take"] as? Int }, [1])
                XCTAssertEqual(begun, [1, 2], "a new take at the new camera's format")
                XCTAssertEqual(try events("swap").first?["format"] as? String, "320x240@30")
            case .stop:
                XCTAssertEqual(active, 1)
                XCTAssertEqual(begun, [1])
                let recording = await d.recordingTake
                XCTAssertNil(recording, "stop ends the take and records no more")
            }
        }
    }

    /// `--camera-loss wait` (the default) with one camera: a stall finalises the take, the run waits and
    /// tries the camera again every 2 s, and its frames coming back restore it.
    func testOneLostCameraFinalisesTheTakeAndTheRunWaits() async throws {
        let (d, capture) = try director({ $0.countdown = try! Countdown(seconds: 0) })
        await d.process(.started)
        await capture.setCameraFrames(10)
        await d.process(.command(.record, source: .control))
        await advance(0.2, d)
        XCTAssertFalse(try events("take-started").isEmpty)
        for _ in 0..<11 { await advance(0.2, d) }   // 2.2 s of silence at 30 fps
        XCTAssertEqual(try events("camera-lost").count, 1)
        XCTAssertEqual(try events("take-ended").count, 1, "the take is finalised")
        XCTAssertTrue(try events("stopped").isEmpty, "the run waits")
        for _ in 0..<11 { await advance(0.2, d) }
        let plugs = await capture.plugs
        XCTAssertEqual(plugs.first, "0 true", "the camera is tried again")
        await capture.setCameraFrames(40)
        await advance(0.2, d)
        XCTAssertEqual(try events("camera-restored").count, 1)
        await d.process(.command(.quit, source: .control))
        let outcome = await d.finish()
        XCTAssertEqual(outcome.exitCode, 0)
    }

    func testTheFramesWatchdogReportsFlowAndEndsARunWhoseCameraStalls() async throws {
        let (d, capture) = try director({ $0.parts.cameras.loss = .exit })
        await d.process(.started)
        await capture.setCameraFrames(10)
        await advance(0.2, d)
        XCTAssertEqual(try events("frames").last?["flowing"] as? Bool, true)
        await advance(1.1, d)
        XCTAssertEqual(try events("frames").last?["flowing"] as? Bool, false, "no new frame for over a second")
        // Back after a stall: flowing again only after a short steady run, so a loaded machine's hiccups
        // do not make the subject view flap.
        await capture.setCameraFrames(20)
        await advance(0.2, d)
        XCTAssertEqual(try events("frames").last?["flowing"] as? Bool, false, "one tick of frames after a stall is not yet steady")
        for frames in [26, 32, 38] as [Int64] {
            await capture.setCameraFrames(frames)
            await advance(0.2, d)
        }
        XCTAssertEqual(try events("frames").last?["flowing"] as? Bool, true, "frames kept coming for 0.6 s")
        await advance(1.0, d)
        await advance(1.0, d)
        XCTAssertTrue(try events("error").isEmpty, "2 s of silence at 30 fps is not yet a stall")
        await advance(0.2, d)
        let outcome = await d.finish()
        XCTAssertEqual(outcome.exitCode, 70)
        XCTAssertTrue((outcome.error?.message ?? "").contains("delivered no frame"), outcome.error?.message ?? "")
    }

    /// `quit` goes ahead of commands already queued, and nothing queued runs after it.
    func testQuitGoesAheadOfQueuedCommands() async throws {
        let (d, capture) = try director { $0.countdown = try! Countdown(seconds: 0) }
        d.send(.command(.mirror, source: .control))
        d.send(.command(.record, source: .control))
        d.send(.command(.quit, source: .control))
        let outcome = await d.run()
        XCTAssertEqual(outcome.reason, .quit)
        let begun = await capture.begun
        XCTAssertTrue(begun.isEmpty, "the queued record never ran")
        XCTAssertTrue(try events("command").isEmpty)
        XCTAssertEqual(try events("stopped").first?["reason"] as? String, "quit command")
    }

    /// A backlog of commands held while the graph was starting (a client that wrote thousands of lines at
    /// once) never runs after quit or a signal: the run ends at once, with no take started.
    func testQuitGoesAheadOfCommandsHeldWhileTheGraphStarts() async throws {
        for (end, reason) in [(RunInput.command(.quit, source: .control), EndReason.quit), (.signal("SIGTERM"), .signal("SIGTERM"))] {
            let (d, capture) = try director { $0.countdown = try! Countdown(seconds: 0) }
            for _ in 0..<500 {
                await d.process(.command(.record, source: .control))
                await d.process(.command(.stop, source: .control))
            }
            d.send(end)
            await d.process(.started)
            let begun = await capture.begun
            XCTAssertTrue(begun.isEmpty, "\(reason): \(begun.count) takes started from the held backlog after the end arrived")
            let outcome = await d.finish()
            XCTAssertEqual(outcome.reason, reason)
        }
    }

    /// A remote display through the handshake port, in milliseconds: refused (said once), connected at its
    /// size, lost, and asked again, each retry at its state's delay on the run's clock.
    func testARemoteDisplayIsRefusedConnectedLostAndRetried() async throws {
        let display = ScriptedDisplay([.refused("wrong passphrase"),
                                       .accepted(.init(width: 1280, height: 720, refresh: 60)),
                                       .accepted(.init(width: 1920, height: 1080, refresh: 60))])
        let (d, capture) = try director({ $0.parts.remotes.displays = [try! SRTAddress.parse("srt://prompter:7001", option: "--subject-remote")] }, handshake: display)
        /// Waits for the director's own answer input and carries it out.
        func answer() async {
            for await input in d.inputs {
                if case .remoteAnswer = input { await d.process(input); return }
            }
        }
        await d.process(.started)
        await answer()
        XCTAssertEqual(try events("remote").map { $0["state"] as? String }, ["refused"])
        await advance(4, d)
        XCTAssertEqual(display.asks, 1, "refused: not asked again before 5 s")
        await advance(1.2, d)
        await answer()
        XCTAssertEqual(display.asks, 2)
        var attached = await capture.remotesAttached
        XCTAssertEqual(attached, ["0 1280x720"])
        XCTAssertEqual(try events("remote").last?["state"] as? String, "connected")
        await d.process(.session(.remoteLost(index: 0, reason: "srt: connection lost")))
        XCTAssertEqual(try events("remote").last?["state"] as? String, "lost")
        await advance(1.2, d)
        await answer()
        attached = await capture.remotesAttached
        XCTAssertEqual(attached, ["0 1280x720", "0 1920x1080"], "asked again after 1 s, rendered at its new size")
        XCTAssertEqual(try events("remote").map { $0["state"] as? String }, ["refused", "connected", "lost", "connected"])
    }

    /// A script saved mid-run: laid out and its voice model rebuilt off the director (which answers a
    /// command while the build is held), the new recogniser installed, and the reading position kept.
    func testAScriptSavedMidRunRebuildsTheVoiceModelOffTheDirector() async throws {
        let script = directory + "/talk.md"
        try "# Talk\n\nHello there, this is the first version of the talk about cameras.\n".write(toFile: script, atomically: true, encoding: .utf8)
        var plan = try plan()
        plan.voice = VoiceModelFiles(acousticModel: "/am", languageModel: "/lm", dictionary: "/dic")
        let voice = FakeVoice()
        let (d, capture) = try director({ $0.parts.script.path = script }, plan: plan, subject: { $0.scriptPath = script; $0.accessory = .teleprompter },
                                        voice: voice)
        await d.process(.started)
        await d.process(.command(.jump(.next), source: .control))
        let before = await d.presenter.status(at: clock.now()).position
        try "# Talk\n\nHello there, this is the second version of the talk about cameras and lenses.\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        await advance(0.6, d)
        var mirrored = false
        for await input in d.inputs {
            switch input {
            case .scriptPrepared:
                await d.process(input)
                // The model is being built now, held by the fake: the director still carries out commands.
                await d.process(.command(.mirror, source: .control))
                mirrored = true
                voice.proceed.signal()
            case .voiceModel:
                await d.process(input)
            default: continue
            }
            if await !capture.recognisers.isEmpty { break }
        }
        XCTAssertTrue(mirrored)
        XCTAssertFalse(voice.waitedInVain, "the build waited for the director, so it ran on the director")
        let installed = await capture.recognisers
        XCTAssertEqual(installed.count, 1)
        XCTAssertTrue(installed.first?.contains("second version") ?? false, "the new script's recogniser: \(installed)")
        let after = await d.presenter.status(at: clock.now()).position
        XCTAssertEqual(after, before, accuracy: 0.5, "the reading position is kept across the reload")
        XCTAssertEqual(try events("command").map { $0["cmd"] as? String }, ["jump", "mirror"])
    }

    /// A camera known by identity, pulled out and plugged back at another node through the device port:
    /// lost at once (no watchdog wait), locked and opened at its new node, restored when frames come.
    func testACameraUnpluggedThroughTheDevicePortIsLostAndTakenBack() async throws {
        let devices = ScriptedDevices()
        var plan = try plan()
        plan.deviceIdentities = ["CAM-A"]
        let (d, capture) = try director({ $0.countdown = try! Countdown(seconds: 0) }, plan: plan, devices: devices)
        func camera(at path: String) -> CameraDevice {
            CameraDevice(name: "Cam A", devicePath: path, identity: "CAM-A", api: "v4l2")
        }
        await d.process(.started)
        await capture.setCameraFrames(30)
        await advance(0.2, d)
        devices.queue(.removed(camera(at: "/dev/video0")))
        await d.process(.devicesChanged)
        XCTAssertEqual(try events("camera-lost").first?["reason"] as? String, "unplugged (/dev/video0)")
        var plugs = await capture.plugs
        XCTAssertEqual(plugs, ["0 false"], "its source stopped")
        await advance(5, d)
        plugs = await capture.plugs
        XCTAssertEqual(plugs, ["0 false"], "a gone device is not retried by the timer")
        devices.queue(.added(camera(at: "/dev/video4")))
        await d.process(.devicesChanged)
        XCTAssertEqual(devices.locks, ["/dev/video4 id:CAM-A"], "the new node is locked before it is opened")
        plugs = await capture.plugs
        XCTAssertEqual(plugs, ["0 false", "0 at /dev/video4", "0 true"])
        XCTAssertTrue(try events("camera-restored").isEmpty, "restored only when frames come")
        await capture.setCameraFrames(40)
        await advance(0.2, d)
        XCTAssertEqual(try events("camera-restored").count, 1)
    }

    /// The accessory command: headless, shown follows enabled, and the subject branch opens and shuts.
    func testTheAccessoryCommandOpensAndShutsTheSubjectBranch() async throws {
        let (d, capture) = try director()
        await d.process(.started)
        await d.process(.command(.accessory(on: false), source: .control))
        await d.process(.command(.accessory(on: nil), source: .key))
        try await waitForEvents("accessory", count: 2, d)
        XCTAssertEqual(try events("accessory").map { $0["shown"] as? Bool }, [false, true])
        let open = await capture.subjectOpen
        XCTAssertEqual(open, [false, true])
        await d.process(.command(.fullscreen(on: true), source: .control))
        XCTAssertTrue((try events("error").last?["message"] as? String ?? "").contains("--headless"))
    }

    /// A face whose subject window draws the view itself (the desktop's): the subject branch carries the
    /// camera picture only for the preview kind, and the subject window's size lays the view out.
    func testAWindowThatDrawsTheViewGetsFramesOnlyForThePreviewKind() async throws {
        let talk = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Assets/scripts/talk.md").path
        for (kind, picture) in [(AccessoryKind.teleprompter, false), (.preview, true), (.countdown, false)] {
            let face = WindowFace()
            let (d, capture) = try director(subject: { $0.accessory = kind; $0.scriptPath = talk; $0.lines = 5 }, face: face, format: .argb)
            await d.process(.started)
            await d.process(.accessory(AccessoryChange(cause: .availability, enabled: true, available: true, reasons: [], shown: true),
                                       subjectMonitor: "DUMMY1"))
            let open = await capture.subjectOpen
            XCTAssertEqual(open, [picture], "\(kind): the branch is open only for a picture on screen")
            XCTAssertEqual(face.pictures, [picture], "\(kind)")
            await d.process(.accessory(AccessoryChange(cause: .availability, enabled: true, available: false, reasons: [.noSubjectMonitor], shown: false),
                                       subjectMonitor: nil))
            let shut = await capture.subjectOpen
            XCTAssertEqual(shut.last, false, "\(kind): hidden, the branch is shut")
        }

        // The subject window's size: the teleprompter is laid out for that monitor.
        let (d, _) = try director(subject: { $0.accessory = .teleprompter; $0.scriptPath = talk; $0.lines = 5 }, face: WindowFace(), format: .argb)
        await d.process(.started)
        let small = await d.presenter.status(at: clock.now()).fontSize
        await d.process(.subjectSize(width: 3840, height: 2160))
        let large = await d.presenter.status(at: clock.now()).fontSize
        XCTAssertEqual(large / small, 2160.0 / 240, accuracy: 0.5, "--lines 5 fills the new monitor: the text grows with its height")
    }

    /// Two cameras, virtual mode: the camera on the air going silent is lost (an event), the take switches
    /// to the other one; its frames coming back restore it; a swap to a lost camera is refused.
    func testALostCameraIsReplacedByTheOtherAndTakenBackWhenItReturns() async throws {
        let (d, capture) = try director(plan: try plan([["320x240@30"], ["320x240@30"]]))
        await d.process(.started)
        await capture.setCameraFrames(100)
        await capture.setPerCamera([100, 100])
        await advance(0.2, d)
        await capture.setPerCamera([100, 106])   // A silent, B delivering
        await capture.setCameraFrames(106)
        await advance(0.2, d)
        XCTAssertTrue(try events("camera-lost").isEmpty, "0.2 s of silence is not a loss (4 frames at 30 fps is 0.3 s)")
        await capture.setPerCamera([100, 112])
        await capture.setCameraFrames(112)
        await advance(0.2, d)
        let lost = try XCTUnwrap(try events("camera-lost").first)
        XCTAssertEqual(lost["camera"] as? String, "A")
        XCTAssertTrue((lost["reason"] as? String ?? "").contains("delivered no frame"))
        XCTAssertEqual(try events("swap").last?["to"] as? String, try plan([["320x240@30"], ["320x240@30"]]).secondCamera?.label)
        let active = await capture.activeCamera
        XCTAssertEqual(active, 1, "the take goes on with camera B")
        await d.process(.command(.unfold, source: .control))
        XCTAssertTrue((try events("error").last?["message"] as? String ?? "").contains("camera A"), "no swap to a lost camera")
        await capture.setPerCamera([103, 118])
        await capture.setCameraFrames(118)
        await advance(0.2, d)
        XCTAssertEqual(try events("camera-restored").first?["camera"] as? String, "A")
        XCTAssertTrue(try events("stopped").isEmpty, "the run goes on")
        // The test hub's unplug (registered as duo-capture-testhub does) holds camera B out by hand.
        TestHub.install()
        await d.process(.command(try ControlCommand.parse(#"{"cmd":"unplug","camera":"B"}"#), source: .timeline))
        let plugs = await capture.plugs
        XCTAssertEqual(plugs, ["1 false"])
    }

    /// The face's reports arrive as inputs; carry out what has been queued (no sleeping: the queue is read
    /// until the expected events are there or it is empty).
    private func waitForEvents(_ name: String, count: Int, _ d: RunDirector) async throws {
        var iterator = d.inputs.makeAsyncIterator()
        while try events(name).count < count {
            guard let input = await iterator.next() else { break }
            await d.process(input)
        }
    }
}
