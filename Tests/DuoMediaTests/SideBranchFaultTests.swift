import DuoCore
@testable import DuoMedia
import Foundation
import XCTest

/// Each kind of side branch fails alone, in a real graph: an element inside the branch (an `identity`
/// told to fail after some buffers, put into a copy of the branch's pipeline file) posts an error; the
/// session routes it to that branch, which goes down and says so once, while the take records on to a
/// file that decodes whole, the preview misses no frame and the session never fails.
final class SideBranchFaultTests: XCTestCase {
    /// Voice-follow's recogniser on the audio tee: `recogniserFailed` naming the element, once; the sound
    /// goes on into the live sink and the take.
    func testAFailingRecogniserTurnsVoiceFollowOffAndTheSoundGoesOn() async throws {
        var plan = try branchPlan(audio: .test, edit: ("voice-follow", "! audioconvert ! audioresample",
                                                       "! identity name=voice_fault error-after=40 ! audioconvert ! audioresample"))
        plan.voice = try voiceModel(words: "the quick brown fox jumps over the lazy dog")
        let run = try await BranchRun(plan: plan, test: self)
        let event = try await run.failure { if case .recogniserFailed = $0 { true } else { false } }
        guard case .recogniserFailed(let why) = event else { return XCTFail("\(event)") }
        XCTAssertTrue(why.hasPrefix("voice_fault: "), why)
        let audioAtLoss = await run.session.audioCount?.frames ?? 0
        try await run.goesOn()
        let audioLater = await run.session.audioCount?.frames ?? 0
        let take = try await run.end()
        XCTAssertGreaterThan(audioLater, audioAtLoss + 50, "the live sound kept flowing past the recogniser's failure")
        XCTAssertGreaterThan(take.audio.frames, 0, "the take kept its sound")
        XCTAssertEqual(run.events.filter { if case .recogniserFailed = $0 { true } else { false } }.count, 1, "said once")
    }

    /// A remote display's branch on the camera tee: `remoteLost` for that display, and its view is drawn
    /// no more (the display gets no frame), while the subject's own view and the take go on.
    func testAFailingRemoteDisplayBranchIsDroppedAndTheTakeGoesOn() async throws {
        let plan = try branchPlan(edits: [
            ("remote-subject", "! videoscale add-borders=true", "! identity name={{name}}_fault error-after=15 ! videoscale add-borders=true"),
            ("remote-subject", "! srtsink name={{name}}_sink uri=\"{{uri}}\" latency={{latency}} {{encryption}} wait-for-connection=false",
             "! fakesink name={{name}}_sink"),
        ])
        let run = try await BranchRun(plan: plan, test: self)
        let drawer = CountingDrawer()
        try await run.session.attachRemote(2, address: SRTAddress(host: "127.0.0.1", port: 9), width: 160, height: 120,
                                           passphrase: nil, latencyMilliseconds: 120, drawer: drawer)
        let event = try await run.failure { if case .remoteLost = $0 { true } else { false } }
        guard case .remoteLost(let index, let reason) = event else { return XCTFail("\(event)") }
        XCTAssertEqual(index, 2)
        XCTAssertFalse(reason.isEmpty)
        let drawnAtLoss = drawer.drawn.value
        XCTAssertGreaterThan(drawnAtLoss, 0, "the remote view was drawn before the branch failed")
        let subjectAtLoss = await run.session.counts.subjectView.frames
        try await run.goesOn()
        let subjectLater = await run.session.counts.subjectView.frames
        _ = try await run.end()
        XCTAssertEqual(drawer.drawn.value, drawnAtLoss, "the dropped branch draws no more")
        XCTAssertGreaterThan(subjectLater, subjectAtLoss + 20, "the subject's own view went on")
    }

    /// The framing detector on the camera tee: `framingUnavailable` naming the element, once, and no faces
    /// after it.
    func testAFailingFramingDetectorIsDroppedAndTheTakeGoesOn() async throws {
        var plan = try branchPlan(edit: ("framing", "! videorate name=framing_rate ", "! identity name=framing_fault error-after=10 ! videorate name=framing_rate "))
        plan.framing = .single
        let run = try await BranchRun(plan: plan, test: self)
        let event = try await run.failure { if case .framingUnavailable = $0 { true } else { false } }
        guard case .framingUnavailable(let why) = event else { return XCTFail("\(event)") }
        XCTAssertTrue(why.contains("framing_fault: "), why)
        try await run.goesOn()
        _ = try await run.end()
        let events = run.events
        let lost = try XCTUnwrap(events.firstIndex { if case .framingUnavailable = $0 { true } else { false } })
        XCTAssertFalse(events[(lost + 1)...].contains { if case .faces = $0 { true } else { false } }, "no faces once the detector is gone")
        XCTAssertEqual(events.filter { if case .framingUnavailable = $0 { true } else { false } }.count, 1, "said once")
    }

    /// The replay buffer on the camera and audio tees (`--replay`): `replayFailed` naming the element,
    /// once; the buffer is dropped (a save then says so), while the take and the preview go on.
    func testAFailingReplayBufferIsDroppedAndTheTakeGoesOn() async throws {
        let plan = try branchPlan(audio: .test, edit: ("replay", "! videocrop name=replay_crop",
                                                       "! identity name=replay_fault error-after=20 ! videocrop name=replay_crop"))
        let run = try await BranchRun(plan: plan, test: self)
        try await run.session.startReplay(seconds: 5)
        let event = try await run.failure { if case .replayFailed = $0 { true } else { false } }
        guard case .replayFailed(let why) = event else { return XCTFail("\(event)") }
        XCTAssertTrue(why.contains("replay_fault: "), why)
        try await run.goesOn()
        do {
            _ = try await run.session.saveReplay(to: "\(try temporaryDirectory(self))/replay.mkv", chaptersAt: { _, _ in [] })
            XCTFail("a save after the buffer failed is refused")
        } catch {
            XCTAssertTrue("\(error)".contains("stopped earlier"), "\(error)")
        }
        let take = try await run.end()
        XCTAssertGreaterThan(take.audio.frames, 0, "the take kept its sound")
        XCTAssertEqual(run.events.filter { if case .replayFailed = $0 { true } else { false } }.count, 1, "said once")
    }

    /// A named microphone's leg on the audio mixer: `microphoneLost` naming the element, the leg taken out
    /// (no buffers counted), the mixer's silence keeps the take's sound track going.
    func testAFailingMicrophoneLegIsTakenOutAndTheTakeKeepsItsSoundTrack() async throws {
        let plan = try branchPlan(audio: .microphone(node: "duo-test-microphone", label: "test microphone"), edit: ("microphone",
            "pipewiresrc name={{name}}_source target-object=\"{{target}}\" client-name=duo-capture do-timestamp=true\n  stream-properties=\"props,node.dont-reconnect=true\"",
            "audiotestsrc name={{name}}_source is-live=true wave=sine samplesperbuffer=480 ! audioconvert ! identity name={{name}}_fault error-after=60"))
        let run = try await BranchRun(plan: plan, test: self)
        let event = try await run.failure { if case .microphoneLost = $0 { true } else { false } }
        guard case .microphoneLost(let why) = event else { return XCTFail("\(event)") }
        XCTAssertTrue(why.hasPrefix("microphone1_fault: "), why)
        let legBuffers = await run.session.microphoneBuffers
        XCTAssertNil(legBuffers, "the leg was taken out")
        let audioAtLoss = await run.session.audioCount?.frames ?? 0
        try await run.goesOn()
        let audioLater = await run.session.audioCount?.frames ?? 0
        let take = try await run.end()
        XCTAssertGreaterThan(audioLater, audioAtLoss + 50, "the mixer's silence went on")
        XCTAssertGreaterThan(take.audio.frames, 0, "the take kept its sound track")
        let audioEnd = try XCTUnwrap(take.audio.lastPTS), videoEnd = try XCTUnwrap(take.video.lastPTS)
        XCTAssertGreaterThan(audioEnd, videoEnd - 300_000_000, "its sound track runs on to the take's end, past the leg's loss")
    }
}

/// Draws nothing; counts the frames it was given.
///
/// Thread: any (a streaming thread draws, the test reads).
final class CountingDrawer: I420FrameDrawer {
    let drawn = Locked(0)
    func draw(into planes: I420Planes, at runningTime: Int64) { drawn.update { $0 += 1 } }
}

/// One side branch's failure, seen through: a small test-source graph with a take, and every session event.
///
/// Thread: the test's task; the events are recorded by a task of their own.
final class BranchRun: Sendable {
    let session: CaptureSession
    let path: String
    private let recorded = Locked<[SessionEvent]>([])
    private let reader: Task<Void, Never>
    private let interval: Int64

    init(plan: GraphPlan, test: XCTestCase) async throws {
        session = CaptureSession(plan: plan)
        interval = plan.format.frameRate.frameDurationNanoseconds
        path = "\(try temporaryDirectory(test))/take.mkv"
        let recorded = recorded, events = session.events
        reader = Task { for await event in events { recorded.update { $0.append(event) } } }
        try await session.start()
        try await session.startTake(path: path)
    }

    deinit { reader.cancel() }

    var events: [SessionEvent] { recorded.value }

    /// Waits for the branch's failure (at most 20 s); a failure of the session itself ends the wait.
    func failure(_ match: @Sendable (SessionEvent) -> Bool) async throws -> SessionEvent {
        let deadline = Date().addingTimeInterval(20)
        while true {
            if let event = recorded.value.first(where: match) { return event }
            if let failure = await session.failureReason { throw failure }
            guard Date() < deadline else { throw DuoError.runtime("the branch never failed: events \(recorded.value)") }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    /// The main graph and the take go on: 30 more preview frames and 30 more take frames.
    func goesOn() async throws {
        let counts = await session.counts.operatorView.frames
        let taken = await session.takeFrames?.frames ?? 0
        try await session.waitUntil { c, take in c.operatorView.frames >= counts + 30 && (take?.frames ?? 0) >= taken + 30 }
    }

    /// Ends the take and the session: the take ended well and decodes whole, the preview had no gap, the
    /// session never failed. Returns the decoded take.
    func end() async throws -> DecodedMedia {
        let take = try await session.stopTake()
        let preview = await session.counts.operatorView
        let failure = await session.failureReason
        await session.stop()
        XCTAssertNil(failure, "the session never failed")
        XCTAssertNil(take.failure, "the take ended well")
        XCTAssertLessThanOrEqual(preview.maxGap, interval + interval / 2, "largest preview gap across the failure")
        let decoded = try MediaInspector.decode(path)
        XCTAssertEqual(Double(decoded.video.frames), Double(take.frames.frames), accuracy: 1, "the take decodes whole")
        return decoded
    }
}

extension XCTestCase {
    /// A small test-source plan over a copy of Pipelines/ with `edits` made (file, text, replacement);
    /// each text must be there.
    func branchPlan(audio: AudioSource = .none, edit: (String, String, String)? = nil,
                    edits: [(String, String, String)] = []) throws -> GraphPlan {
        let pipelines = "\(try temporaryDirectory(self))/Pipelines"
        try FileManager.default.copyItem(atPath: repositoryRoot().appendingPathComponent("Pipelines").path, toPath: pipelines)
        for (file, text, replacement) in (edit.map { [$0] } ?? []) + edits {
            let path = "\(pipelines)/\(file).gst"
            let body = try String(contentsOfFile: path, encoding: .utf8)
            XCTAssertTrue(body.contains(text), "\(file).gst holds \(text)")
            try body.replacingOccurrences(of: text, with: replacement).write(toFile: path, atomically: true, encoding: .utf8)
        }
        return try GraphPlan(library: PipelineLibrary(directory: pipelines), camera: .testSource, requested: VideoFormat.parse("320x240@30")!,
                             aspect: nil, encoder: .x264, container: .mkv, audio: audio)
    }

    /// A voice model for `words` (pocketsphinx-en-us's acoustic model; the language model and dictionary
    /// written from the words, as a run writes them from its script).
    func voiceModel(words: String) throws -> VoiceModelFiles {
        let model = "/usr/share/pocketsphinx/model/en-us"
        let dir = try temporaryDirectory(self)
        let lm = ScriptLanguageModel(script: VoiceScript(text: words),
                                     pronunciations: try String(contentsOfFile: "\(model)/cmudict-en-us.dict", encoding: .utf8))
        try lm.arpa.write(toFile: "\(dir)/words.lm", atomically: true, encoding: .utf8)
        try lm.dictionary.write(toFile: "\(dir)/words.dict", atomically: true, encoding: .utf8)
        return VoiceModelFiles(acousticModel: "\(model)/en-us", languageModel: "\(dir)/words.lm", dictionary: "\(dir)/words.dict")
    }
}
