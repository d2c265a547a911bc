import DuoCore
import Foundation
import XCTest

/// What the phone page gets and may send (issue 35): file names without folders, no other client's
/// errors, and exactly the commands docs/remote-control.md lists (one table for both).
final class WebRemotePrivacyTests: XCTestCase {
    func testThePageGetsFileNamesOnlyAndNoForeignErrors() {
        XCTAssertEqual(WebRemoteRunState.pageEvent(.takeStarted(take: 2, file: "/home/alice/Videos/duo-take02.mkv")),
                       .takeStarted(take: 2, file: "duo-take02.mkv"))
        XCTAssertEqual(WebRemoteRunState.pageEvent(.takeEnded(take: 2, file: "/home/alice/duo-take02.mkv", frames: 9, dropped: 0, kept: false,
                                                              empty: false, error: "cannot write /home/alice/x")),
                       .takeEnded(take: 2, file: "duo-take02.mkv", frames: 9, dropped: 0, kept: false, empty: false,
                                  error: "the take failed; the operator's terminal says why"))
        XCTAssertNil(WebRemoteRunState.pageEvent(.error(message: "control: cannot open /home/alice/secret.md")))
        XCTAssertNil(WebRemoteRunState.pageEvent(.error(message: "control: cannot open /home/alice/secret.md", source: "control")))
        XCTAssertNil(WebRemoteRunState.pageEvent(.error(message: "control: nothing is recording", source: "osc")))
        XCTAssertEqual(WebRemoteRunState.pageEvent(.error(message: "control: nothing is recording", source: "remote")),
                       .error(message: "control: nothing is recording", source: "remote"))
        XCTAssertEqual(WebRemoteRunState.pageEvent(.countdown(seconds: 3, take: 1)), .countdown(seconds: 3, take: 1))
        // The shot list's events (issue 37), their files by name only.
        XCTAssertEqual(WebRemoteRunState.pageEvent(.shot(id: "07", title: "Harbour", index: 1, count: 2, takes: 0, next: "08", trigger: "start")),
                       .shot(id: "07", title: "Harbour", index: 1, count: 2, takes: 0, next: "08", trigger: "start"))
        XCTAssertEqual(WebRemoteRunState.pageEvent(.shotTake(take: 3, shot: "07", shotTake: 2, file: "/home/alice/v/shot07-take02.mkv")),
                       .shotTake(take: 3, shot: "07", shotTake: 2, file: "shot07-take02.mkv"))
        XCTAssertEqual(WebRemoteRunState.pageEvent(.mark(take: 3, shot: "07", shotTake: 2, mark: "good", file: "/home/alice/v/shot07-take02.mkv", by: "operator")),
                       .mark(take: 3, shot: "07", shotTake: 2, mark: "good", file: "shot07-take02.mkv", by: "operator"))
    }

    func testTheCommandsAreExactlyTheDocumentedOnes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let docs = try String(contentsOf: root.appendingPathComponent("docs/remote-control.md"), encoding: .utf8)
        let start = try XCTUnwrap(docs.range(of: "A remote may send "))
        let sentence = docs[start.upperBound...].prefix { $0 != ";" }
        let listed = sentence.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        XCTAssertEqual(listed, WebRemoteCommands.table, "docs/remote-control.md and WebRemoteCommands.table differ")
        for refused in ["reverse", "self-view", "quit", "script", "toggle"] {
            XCTAssertFalse(WebRemoteCommands.allowed.contains(refused), refused)
        }
        XCTAssertThrowsError(try WebRemoteCommands.parse(json: #"{"cmd":"reverse"}"#))
        // Issue 37: the phone's good / no good buttons mark the last take.
        XCTAssertEqual(try WebRemoteCommands.parse(json: #"{"cmd":"mark","good":true}"#), .mark(good: true, take: nil))
        // Issue 37: the phone's cues and re-take (a re-take only between takes: RemoteRetake).
        XCTAssertEqual(try WebRemoteCommands.parse(json: #"{"cmd":"retake"}"#), .retake)
        XCTAssertEqual(try WebRemoteCommands.parse(json: #"{"cmd":"cue","preset":"wrap"}"#), .cue(.preset(.wrap), seconds: nil))
        XCTAssertEqual(try WebRemoteCommands.parse(json: #"{"cmd":"cue","clear":true}"#), .cue(nil, seconds: nil))
    }
}
