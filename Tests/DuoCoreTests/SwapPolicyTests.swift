import DuoCore
import XCTest

final class SwapPolicyTests: XCTestCase {
    /// Every policy over every situation: only a recording take with differing formats is affected.
    func testDecisionsOverAllSituations() {
        for policy in SwapPolicy.allCases {
            XCTAssertEqual(policy.decide(recording: false, formatsMatch: false), .swap, "\(policy): idle")
            XCTAssertEqual(policy.decide(recording: false, formatsMatch: true), .swap, "\(policy): idle")
            XCTAssertEqual(policy.decide(recording: true, formatsMatch: true), .swap, "\(policy): same format")
        }
        if case .refuse(let why) = SwapPolicy.lock.decide(recording: true, formatsMatch: false) {
            XCTAssertTrue(why.english.contains("stop the take first"))
        } else { XCTFail("lock must refuse") }
        XCTAssertEqual(SwapPolicy.segment.decide(recording: true, formatsMatch: false), .segment)
        XCTAssertEqual(SwapPolicy.stop.decide(recording: true, formatsMatch: false), .stopThenSwap)
        XCTAssertThrowsError(try SwapPolicy.parse("pause"))
    }
}
