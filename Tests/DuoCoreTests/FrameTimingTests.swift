import DuoCore
import Foundation
import XCTest

/// The one reading of a frame count that the summary, the sidecars, the HUD and `inspect` share.
final class FrameTimingTests: XCTestCase {
    private let ms33: Int64 = 33_333_333

    private func count(_ frames: Int64, first: Int64?, last: Int64?, maxGap: Int64, minGap: Int64? = nil, shut: Int64 = 0) -> FrameCount {
        var c = FrameCount(frames: frames, firstPTS: first, firstArrivalMicros: nil, lastPTS: last, maxGap: maxGap, minGap: minGap,
                           backwardSteps: 0, firstIsKeyframe: nil, lumaSample: nil, lumaMax: nil)
        c.shutSpan = shut
        return c
    }

    func testAnEvenSequenceDropsNothing() {
        let t = count(30, first: 0, last: 29 * ms33, maxGap: ms33, minGap: ms33).timing(interval: ms33)
        XCTAssertEqual(t.dropped, 0)
        XCTAssertEqual(t.maxGapMs, 33.333333, accuracy: 0.0001)
        XCTAssertEqual(t.minGapMs ?? 0, 33.333333, accuracy: 0.0001)
    }

    func testMissingFramesAreCountedAgainstTheInterval() {
        // 30 frames spread over what should hold 40.
        XCTAssertEqual(count(30, first: 0, last: 39 * ms33, maxGap: 11 * ms33).dropped(interval: ms33), 10)
    }

    func testTimeShutOnPurposeIsNotDropped() {
        XCTAssertEqual(count(30, first: 0, last: 39 * ms33, maxGap: 11 * ms33, shut: 10 * ms33).dropped(interval: ms33), 0)
    }

    func testNoFramesOrNoIntervalMeansNoDropCount() {
        XCTAssertEqual(FrameCount.zero.dropped(interval: ms33), 0)
        XCTAssertNil(count(30, first: 0, last: 29 * ms33, maxGap: ms33).timing(interval: nil).dropped)
        XCTAssertNil(count(1, first: 0, last: 0, maxGap: 0).timing(interval: ms33).minGapMs)
    }

    func testTheSpanCountsOneStepPastTheLastFrame() {
        XCTAssertEqual(FrameTiming.spanSeconds(count(30, first: 0, last: 29 * ms33, maxGap: ms33)), 1.0, accuracy: 0.001)
        XCTAssertEqual(FrameTiming.spanSeconds(count(1, first: 5, last: 5, maxGap: 0)), 0)
    }

    /// Its owners encode it flat, next to their own keys: scripts read `maxGapMs` at the top level.
    func testItEncodesFlatIntoItsOwnersObject() throws {
        struct Owner: Encodable {
            let file = "take.mkv"
            let timing: FrameTiming
            private enum CodingKeys: String, CodingKey { case file }
            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(file, forKey: .file)
                try timing.encode(to: encoder)
            }
        }
        let data = try JSONEncoder().encode(Owner(timing: count(30, first: 0, last: 39 * ms33, maxGap: 11 * ms33).timing(interval: ms33)))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["file", "dropped", "maxGapMs"], "minGapMs absent when unknown, the rest flat")
        XCTAssertEqual(object["dropped"] as? Int, 10)
    }
}
