import DuoCore
import XCTest

/// The verdict on a joined file: the segments go only when it holds exactly what was encoded, one frame
/// for each picture, finished, and every frame decodes.
final class SegmentJoinProofTests: XCTestCase {
    private let stream = EncodedStreamFacts(frames: 90, bytes: 123_456, digest: 0xDEAD_BEEF, codecData: 0x1234, keyframes: 3)
    private let interval: Int64 = 33_333_333

    private func proof(_ change: (inout SegmentJoinProof) -> Void = { _ in }) -> SegmentJoinProof {
        var p = SegmentJoinProof(pictures: 90, encoded: stream, stored: stream, decoded: 90, audio: false, decodedAudio: 0,
                                 duration: 90 * interval + 666, frameInterval: interval)
        change(&p)
        return p
    }

    func testAFileHoldingWhatWasEncodedProvesTheJoin() {
        XCTAssertNil(proof().problem)
        XCTAssertNil(proof { $0.audio = true; $0.decodedAudio = 140 }.problem)
        XCTAssertNil(proof { $0.audio = true; $0.decodedAudio = 140; $0.duration = 98 * interval }.problem, "the sound runs longer")
    }

    func testEachShortcomingKeepsTheSegmentsAndSaysWhich() {
        XCTAssertEqual(proof { $0.stored.frames = 60 }.problem, "holds 60 of the 90 frames encoded")
        XCTAssertEqual(proof { $0.stored.digest ^= 1 }.problem, "holds frames that differ from those encoded")
        XCTAssertEqual(proof { $0.stored.bytes -= 1 }.problem, "holds frames that differ from those encoded")
        XCTAssertEqual(proof { $0.stored.codecData = 0 }.problem, "has codec data that differs from the encoder's")
        XCTAssertEqual(proof { $0.stored.keyframes = 1 }.problem, "marks 1 of the 3 keyframes encoded")
        XCTAssertEqual(proof { $0.pictures = 95 }.problem, "got 90 encoded frames for 95 pictures")
        XCTAssertEqual(proof { $0.duration = nil }.problem, "does not state its length (it was not finished)")
        XCTAssertEqual(proof { $0.duration = 60 * interval }.problem, "states a length of 2.00 s for 90 frames (3.00 s)")
        XCTAssertEqual(proof { $0.duration = 120 * interval }.problem, "states a length of 4.00 s for 90 frames (3.00 s)")
        XCTAssertEqual(proof { $0.audio = true; $0.decodedAudio = 1; $0.duration = 60 * interval }.problem,
                       "states a length of 2.00 s for 90 frames (3.00 s)")
        XCTAssertEqual(proof { $0.decoded = 89 }.problem, "decodes only 89 of its 90 frames")
        XCTAssertEqual(proof { $0.audio = true }.problem, "has no sound that decodes")
        XCTAssertEqual(proof { $0.encoded.frames = 0; $0.stored.frames = 0 }.problem, "holds no frames")
    }
}
