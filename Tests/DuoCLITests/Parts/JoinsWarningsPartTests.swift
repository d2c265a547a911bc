@testable import DuoCLI
import DuoCore
import Foundation
import XCTest

/// The joins part: the last segment of a take split by camera starts a join of every segment in the
/// background; the run's end waits for it, and a join that fails says so (the segments stay).
final class JoinsPartTests: XCTestCase {
    func testATakeSplitByCameraIsJoinedAndTheEndWaitsForIt() async throws {
        let run = try PartRun(self, cameras: [["640x480@30"], ["320x240@30"]], individual: true,
                              configure: { $0.parts.posture.swapPolicy = .segment })
        let d = run.director
        await d.process(.started)
        await run.send(.record)
        await run.advance(1)
        await run.send(.fold)   // a new segment at B's format
        await run.advance(1)
        await run.send(.stop)
        let begun = await run.capture.begun
        XCTAssertEqual(begun.map(\.number), [1, 2])
        let started = try XCTUnwrap(try run.events("join").first)
        XCTAssertEqual(started["state"] as? String, "started")
        XCTAssertEqual(started["take"] as? Int, 1, "the joined take is the first segment's")
        XCTAssertEqual(started["segments"] as? [String], begun.map { ($0.path as NSString).lastPathComponent })
        // The fake capture's segments are not media: the join fails, and the end waited for it to say so.
        let outcome = await d.finish()
        XCTAssertEqual(try run.events("join").last?["state"] as? String, "failed")
        XCTAssertEqual(outcome.summary?.takes.count, 2, "nothing joined: both segments stay in the summary")
        XCTAssertTrue(begun.allSatisfy { FileManager.default.fileExists(atPath: $0.path) }, "a failed join keeps the segments")
    }
}

/// The warnings part: the graph's warnings said at most once a minute of each kind, the preview's named as
/// the preview's, and what was held back counted at the end.
final class WarningsPartTests: XCTestCase {
    func testAWarningIsSaidOnceAMinuteAndTheRestCountedAtTheEnd() async throws {
        let run = try PartRun(self)
        let d = run.director
        await d.process(.started)
        let warning = "operator_sink: A lot of buffers are being dropped."
        for _ in 0..<3 {
            await d.process(.session(.warning(warning)))
            run.clock.advance(bySeconds: 10)
        }
        var said = run.log.filter { $0.contains("A lot of buffers") }
        XCTAssertEqual(said.count, 1)
        XCTAssertTrue(said[0].contains("the preview skips frames"), said[0])
        run.clock.advance(bySeconds: 35)
        await d.process(.session(.warning(warning)))
        said = run.log.filter { $0.contains("A lot of buffers") }
        XCTAssertEqual(said.count, 2, "a minute later it is said again")
        XCTAssertTrue(said[1].hasSuffix("(2 more like it in the last minute)"), said[1])
        await d.process(.session(.warning(warning)))
        _ = await d.finish()
        XCTAssertEqual(run.log.last { $0.contains("A lot of buffers") },
                       "duo-capture: warning: \(warning) (1 more like it since it was last shown)")
    }
}
