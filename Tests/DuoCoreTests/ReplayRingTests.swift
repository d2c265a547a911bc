import Foundation
import DuoCore
import XCTest

/// The replay buffer's memory (issue 39) with synthetic packets: whole GOPs leave by time, a replay
/// starts at a keyframe, the byte cap holds against a runaway encoder, and five minutes of a realistic
/// 1080p30 feed stay within the bound.
final class ReplayRingTests: XCTestCase {
    typealias Ring = ReplayRing<Int>
    static let frame: Int64 = 33_333_333
    static let second: Int64 = 1_000_000_000

    /// `frames` video frames at 30 fps from `start` (a keyframe every `gop`), each `size` bytes (a
    /// keyframe `keySize`), with a 20 ms Opus packet of 240 bytes beside them.
    static func feed(_ ring: inout Ring, frames: Int, from start: Int = 0, gop: Int = 30, size: Int = 20_000,
                     keySize: Int = 120_000, audio: Bool = true) {
        // As GStreamer stamps a 30 fps stream: n × 1 s / 30, each frame lasting until the next.
        func at(_ n: Int) -> Int64 { Int64(n) * second / 30 }
        var audioPts = at(start)
        for n in start..<(start + frames) {
            let pts = at(n)
            let key = n % gop == 0
            ring.append(.init(track: .video, pts: pts, duration: at(n + 1) - pts, size: key ? keySize : size, isKeyframe: key, payload: n))
            while audio && audioPts < at(n + 1) {
                ring.append(.init(track: .audio, pts: audioPts, duration: 20_000_000, size: 240, isKeyframe: true, payload: -1))
                audioPts += 20_000_000
            }
        }
    }

    func testWholeGOPsLeaveByTimeAndAReplayStartsAtAKeyframe() throws {
        var ring = Ring(seconds: 10, byteCap: .max)
        // 14 s at 30 fps, a keyframe a second: the ring keeps from the newest keyframe at or before
        // 14 − 10 = 4 s, so 10 s (never less than the window, at most a GOP more).
        Self.feed(&ring, frames: 14 * 30)
        let snap = try XCTUnwrap(ring.snapshot())
        XCTAssertTrue(snap.video[0].isKeyframe)
        XCTAssertEqual(snap.video[0].payload, 4 * 30, "the GOP starting at 4 s is the first kept")
        XCTAssertEqual(Double(ring.heldSpan) / 1e9, 10, accuracy: 0.01)
        // One frame later the window reaches back into the 4 s GOP: it stays until 5 s is at or before the horizon.
        Self.feed(&ring, frames: 1, from: 14 * 30)
        XCTAssertEqual(ring.snapshot()?.video.first?.payload, 4 * 30)
        XCTAssertGreaterThan(ring.heldSpan, 10 * Self.second)
        XCTAssertLessThanOrEqual(ring.heldSpan, 11 * Self.second)
        // Sound is kept only from the first video kept on, and counted in the bytes.
        let later = try XCTUnwrap(ring.snapshot())
        XCTAssertGreaterThanOrEqual(later.audio[0].pts, later.video[0].pts)
        XCTAssertLessThan(later.audio[0].pts - later.video[0].pts, 20_000_000)
        XCTAssertEqual(ring.bytes, ring.video.map(\.size).reduce(0, +) + ring.audio.map(\.size).reduce(0, +))
    }

    func testItWaitsForTheFirstKeyframeAndAfterAReset() {
        var ring = Ring(seconds: 5, byteCap: .max)
        XCTAssertNil(ring.snapshot())
        // Delta frames before any keyframe (a branch attached mid-GOP) and sound before them are left out.
        ring.append(.init(track: .audio, pts: 0, duration: 20_000_000, size: 240, isKeyframe: true, payload: -1))
        ring.append(.init(track: .video, pts: 0, duration: Self.frame, size: 10, isKeyframe: false, payload: 0))
        XCTAssertNil(ring.snapshot())
        XCTAssertEqual(ring.skippedPackets, 2)
        ring.append(.init(track: .video, pts: Self.frame, duration: Self.frame, size: 10, isKeyframe: true, payload: 1))
        XCTAssertEqual(ring.snapshot()?.video.map(\.payload), [1])
        ring.reset()
        XCTAssertEqual(ring.bytes, 0)
        ring.append(.init(track: .video, pts: 2 * Self.frame, duration: Self.frame, size: 10, isKeyframe: false, payload: 2))
        XCTAssertNil(ring.snapshot(), "after a reset (new caps) the ring starts again at a keyframe")
    }

    func testTheByteCapHoldsAgainstARunawayEncoder() throws {
        // 60 s at 6 Mbit/s: the cap for it. An encoder that suddenly writes ten times its rate fills the
        // cap long before the window: whole GOPs leave, the ring never goes over, and it still starts at
        // a keyframe.
        let cap = Ring.byteCap(seconds: 60, videoKbps: 6000, audioKbps: 96)
        XCTAssertEqual(cap, Int((6096.0 * 1000 / 8 * 92).rounded(.up)))
        var ring = Ring(seconds: 60, byteCap: cap)
        Self.feed(&ring, frames: 30 * 30, size: 250_000, keySize: 500_000)
        XCTAssertLessThanOrEqual(ring.peakBytes, cap)
        XCTAssertLessThan(ring.heldSpan, 60 * Self.second, "the byte cap, not the window, bounds this ring")
        XCTAssertTrue(try XCTUnwrap(ring.snapshot()).video[0].isKeyframe)
        // One GOP larger than the whole cap: dropped, and the ring waits for the next keyframe.
        var tiny = Ring(seconds: 60, byteCap: 100_000)
        Self.feed(&tiny, frames: 40, gop: 30, size: 5_000, keySize: 50_000, audio: false)
        XCTAssertLessThanOrEqual(tiny.peakBytes, 100_000)
        XCTAssertEqual(tiny.snapshot()?.video.first?.payload, 30)
    }

    /// Five minutes of 1080p30 at the default bitrate (6220 kbps: x264's rate for a 1080p30 take, a
    /// keyframe a second) with Opus at 96 kbps into a 60 s ring: it holds 60 to 61 s all along, its bytes
    /// never exceed the cap and settle at what 60 s at those rates hold.
    func testFiveMinutesOfA1080p30FeedStayWithinTheBound() throws {
        let videoKbps = 6220, audioKbps = 96
        let cap = Ring.byteCap(seconds: 60, videoKbps: videoKbps, audioKbps: audioKbps)
        var ring = Ring(seconds: 60, byteCap: cap)
        // A keyframe four times a delta frame, the GOP's bytes at the bitrate.
        let gopBytes = videoKbps * 1000 / 8
        let delta = gopBytes / (29 + 4)
        var largest = 0
        for minute in 0..<5 {
            Self.feed(&ring, frames: 60 * 30, from: minute * 60 * 30, size: delta, keySize: 4 * delta)
            largest = max(largest, ring.peakBytes)
            XCTAssertGreaterThanOrEqual(ring.heldSpan, 60 * Self.second)
            XCTAssertLessThanOrEqual(ring.heldSpan, 61 * Self.second)
        }
        let nominal = Ring.nominalBytes(seconds: 60, videoKbps: videoKbps, audioKbps: audioKbps)
        XCTAssertLessThanOrEqual(largest, cap)
        XCTAssertLessThanOrEqual(ring.peakBytes, nominal + nominal / 60 + gopBytes, "about one GOP over 60 s at the rates")
        XCTAssertEqual(Double(ring.bytes), Double(nominal), accuracy: Double(nominal) * 0.03)
        XCTAssertEqual(ring.video.count, 60 * 30)
        XCTAssertTrue(ring.video[0].isKeyframe)
        XCTAssertEqual(ring.video[0].payload, 4 * 60 * 30, "the ring holds the last minute exactly")
    }

    func testTheLengthOption() throws {
        XCTAssertEqual(try ReplayLength.parse("10"), 10)
        XCTAssertEqual(try ReplayLength.parse("300"), 300)
        for bad in ["0", "301", "abc", "-5", "1.5", ""] {
            XCTAssertThrowsError(try ReplayLength.parse(bad), bad) { error in
                let message = (error as? DuoError)?.message ?? ""
                XCTAssertTrue(message.contains("1 to 300"), message)
                XCTAssertFalse(message.contains("\n"), message)
            }
        }
    }
}

/// `save-replay` from every source is the one command (the control socket's JSON, the phone page's
/// WebSocket, OSC, the control bar's button), and a replay's file is named like a take but as a replay.
final class ReplayCommandTests: XCTestCase {
    func testEverySourceSendsTheSameCommand() throws {
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"save-replay"}"#), .saveReplay)
        XCTAssertEqual(ControlCommand.saveReplay.name, "save-replay")
        XCTAssertEqual(try WebRemoteCommands.parse(json: #"{"cmd":"save-replay"}"#), .saveReplay)
        XCTAssertEqual(try WebRemoteCommands.osc(OSCMessage("/duo/replay/save", [])), .command(.saveReplay))
        XCTAssertThrowsError(try WebRemoteCommands.osc(OSCMessage("/duo/replay/save", [.string("now")])))
        XCTAssertEqual(OperatorControl.replay.command, .saveReplay)
        XCTAssertEqual(OperatorControl.replay.key, "Y")
    }

    func testAReplayIsNamedLikeATakeButAsAReplay() {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let utc = TimeZone(identifier: "UTC")!
        let naming = TakeNaming(directory: "/takes", fileExtension: "mkv")
        XCTAssertEqual(naming.replayBaseName(replay: 1, at: date, timeZone: utc), "duo-2027-01-15_080000-replay01")
        XCTAssertEqual(naming.baseName(take: 1, at: date, timeZone: utc), "duo-2027-01-15_080000-take01", "takes keep their names")
        var shot = naming
        shot.shot = "03"
        XCTAssertEqual(shot.replayBaseName(replay: 12, at: date, timeZone: utc), "duo-2027-01-15_080000-shot03-replay12")
        XCTAssertEqual(naming.path(replay: 1, at: date, timeZone: utc, exists: { $0 == "/takes/duo-2027-01-15_080000-replay01.mkv" }),
                       "/takes/duo-2027-01-15_080000-replay01-2.mkv", "an existing file is never overwritten")
    }
}
