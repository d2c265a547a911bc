import DuoCore
import Foundation
import XCTest

/// Issue 37: a take whose camera delivered far fewer frames than its length × rate says so.
final class KeepUpTests: XCTestCase {
    let second: Int64 = 1_000_000_000

    func testTheIssuesTakeSaysTheMachineCouldNotKeepUp() throws {
        let format = VideoFormat(width: 3840, height: 2160, frameRate: FrameRate(120))
        let short = try XCTUnwrap(KeepUp.check(frames: 103, lengthNanoseconds: 2 * second, format: format))
        XCTAssertEqual(short.delivered, 103)
        XCTAssertEqual(short.expected, 240)
        XCTAssertTrue(short.message.hasPrefix("the camera delivered 103 of 240 frames: this machine could not keep up with 3840x2160@120"),
                      short.message)
    }

    /// Several rates, lengths and shares: under 90 % (and 5 frames or more short) is said, at or over it not.
    func testTheRuleAtSeveralRatesAndLengths() {
        for (rate, seconds) in [(24, 7.5), (30, 2.0), (60, 1.0), (120, 4.0), (50, 30.0)] {
            let format = VideoFormat(width: 1280, height: 720, frameRate: FrameRate(rate))
            let length = Int64(seconds * 1e9)
            let expected = Int64(seconds * Double(rate))
            for (frames, said) in [(expected, false), (expected - 2, false), (Int64(Double(expected) * 0.95), false),
                                   (Int64((Double(expected) * 0.89).rounded(.down)), true), (expected / 2, true), (1, true)] {
                let result = KeepUp.check(frames: frames, lengthNanoseconds: length, format: format)
                let name = "\(frames) of \(expected) at \(rate) fps"
                XCTAssertEqual(result != nil, said && expected - frames >= KeepUp.fewestMissing, name)
                if let result { XCTAssertEqual(result.expected, expected, name) }
            }
        }
        // NTSC rates: 30000/1001 for 10 s is 299 frames.
        let ntsc = VideoFormat(width: 1920, height: 1080, frameRate: FrameRate(30000, 1001))
        XCTAssertNil(KeepUp.check(frames: 297, lengthNanoseconds: 10 * second, format: ntsc))
        XCTAssertEqual(KeepUp.check(frames: 200, lengthNanoseconds: 10 * second, format: ntsc)?.expected, 299)
        // A very short take a few frames short is no shortfall.
        XCTAssertNil(KeepUp.check(frames: 2, lengthNanoseconds: second / 5, format: VideoFormat(width: 640, height: 480, frameRate: FrameRate(30))))
    }

    /// From a take's result: its own format first; a failed take, one that swapped cameras, or one stopped
    /// before its first frame says nothing more.
    func testATakesResult() {
        let plan = VideoFormat(width: 1920, height: 1080, frameRate: FrameRate(60))
        func result(frames: Int64, failure: DuoError? = nil, swaps: [CameraSwap] = []) -> TakeResult {
            TakeResult(number: 1, path: "/tmp/t.mkv",
                       frames: FrameCount(frames: frames, firstPTS: 0, firstArrivalMicros: nil, lastPTS: 0, maxGap: 0, backwardSteps: 0,
                                          firstIsKeyframe: true, lumaSample: nil, lumaMax: nil),
                       startRunningTime: 5 * second, endRunningTime: 7 * second, startDate: Date(), endDate: Date(),
                       failure: failure, swaps: swaps)
        }
        XCTAssertEqual(result(frames: 60).keepUp(format: plan)?.message.contains("60 of 120 frames"), true)
        XCTAssertNil(result(frames: 119).keepUp(format: plan))
        var own = result(frames: 60)
        own.format = VideoFormat(width: 640, height: 480, frameRate: FrameRate(30))
        XCTAssertNil(own.keepUp(format: plan), "60 frames in 2 s at its own 30 fps kept up")
        XCTAssertNil(result(frames: 10, failure: .runtime("disk full")).keepUp(format: plan))
        XCTAssertNil(result(frames: 0).keepUp(format: plan))
    }
}
